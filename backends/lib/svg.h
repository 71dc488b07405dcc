/* SPDX-License-Identifier: MIT */
/*
 * Pictures of a design: rack elevations, floor plans and fabric diagrams
 * as SVG (and a fabric's group graph as Graphviz DOT).  Each picture is
 * written into a wbuf as one <svg> element, so that the picture back ends
 * write it to its own file (after an XML declaration) and the html back
 * end puts the same element inline.  Coordinates are whole pixels and
 * every list is in declaration order: the output is deterministic.
 * Text goes through wb_xml(), which escapes the XML specials and drops
 * the control characters XML 1.0 forbids.
 */
#ifndef RACKC_SVG_H
#define RACKC_SVG_H

#include <stdint.h>

#include "backend.h"
#include "ir.h"
#include "layout.h"
#include "metrics.h"
#include "util.h"
#include "wbuf.h"

/* printf into the buffer (at most 4 KiB at a time) */
void wb_printf(struct wbuf *w, const char *fmt, ...) PRINTF(2, 3);
/* @s as XML character data or attribute value (NULL: nothing) */
void wb_xml(struct wbuf *w, const char *s);
/*
 * @v / 10^@k as an exact decimal number ("81.28"), trailing zeros
 * dropped; @buf holds 64 bytes.  Returns @buf.
 */
char *u128_dec(char *buf, unsigned __int128 v, unsigned k);
/* an exact power in the best unit ("40.8kW") */
void wb_power(struct wbuf *w, int64_t mw);

/*
 * The width of @n bytes of UTF-8 text @s in thousandths of an em, an
 * upper bound for the common sans-serif faces: each character counted at
 * the widest advance of its class in DejaVu Sans (Debian's default
 * sans-serif, wider than Liberation Sans, Arial and Helvetica), rounded
 * up: 300 for I and J, 340 to 500 for spaces, punctuation and brackets,
 * 420 for f, r and t, 640 for digits and the other lower-case letters but
 * m (980) and w (820), 790 for capitals but M (870) and W (990), 320 for a
 * middle dot, 1000 for other symbols and anything else not ASCII.  Times the font size in px,
 * thousandths of a px.
 */
uint32_t svg_text_em(const char *s, size_t n);
/* A total (metrics.h) as wb_power writes it, or, when @over, words saying
 * it is out of range (never the saturated number). */
void wb_total(struct wbuf *w, int64_t mw, bool over);
#define WB_OUT_OF_RANGE "out of range (over 64 bits)"
/* The same, or when @unknown (the total lacks a device's unknown figure,
 * metrics.h) "at least X (figures unknown)": never a figure that looks
 * known. */
void wb_total_u(struct wbuf *w, int64_t mw, bool over, bool unknown);
#define WB_UNKNOWN " (figures unknown)"
/* open an artifact with a wbuf of its own (freed by svg_file_close) */
struct wbuf *svg_file_open(struct backend_ctx *ctx, const char *rel);
bool svg_file_close(struct backend_ctx *ctx, struct wbuf *w);

/* <svg ...> with a <title> and a <desc> (the picture's text alternative) */
void svg_begin(struct wbuf *w, int width, int height, const char *id,
	       const char *title, const char *desc);
void svg_end(struct wbuf *w);
/* fill colour of a device by its class (server, switch, pdu, ...) */
const char *svg_fill(const struct rk_design *d, uint32_t dev);

/*
 * What the pictures draw by rack: the devices of each rack (the shared
 * bucketing, layout_racks of layout.h) and each rack's power capacity
 * (malloc'ed, svg_rack_index_free).
 */
struct rack_index {
	struct layout_racks by; /* devs[first[r] .. first[r + 1]): rack r's */
	int64_t *power_cap;	/* per rack: supply_rack_capacities() */
};
void svg_rack_index(const struct rk_design *d, struct rack_index *ix);
void svg_rack_index_free(struct rack_index *ix);

/*
 * Racks @racks[0 .. n) (a row), front and rear; @idp prefixes the ids the
 * picture defines (unique within a page holding several pictures).
 */
void svg_elevation(struct wbuf *w, const struct rk_design *d,
		   struct derived *dv, const struct rack_index *ix,
		   const uint32_t *racks, uint32_t n, const char *title,
		   const char *idp);
/* the floor plan of a site */
void svg_floor(struct wbuf *w, const struct rk_design *d, struct derived *dv,
	       const struct rack_index *ix, uint32_t site);
/* a fabric's switch groups, link bundles and endpoint rails; @sc from
 * fdiag_scratch_new(), shared by every fabric of the design */
struct fdiag_scratch;
struct fdiag_scratch *fdiag_scratch_new(const struct rk_design *d);
void fdiag_scratch_free(struct fdiag_scratch *sc);
void svg_fabric(struct wbuf *w, const struct rk_design *d, uint32_t fab,
		struct fdiag_scratch *sc);

/* The racks of each row page: rows in declaration order, then unrowed. */
struct rack_pages {
	uint32_t n;    /* pages */
	uint32_t *row; /* row object of each page (RK_NONE: no row) */
	uint32_t *off; /* racks[off[p] .. off[p + 1]) */
	uint32_t *racks;
};
void svg_rack_pages(const struct rk_design *d, struct rack_pages *pg);
void svg_rack_pages_free(struct rack_pages *pg);

#endif
