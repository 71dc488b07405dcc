/* SPDX-License-Identifier: MIT */
/* What the picture back ends share (svg.h). */
#include "rackc.h"

#include <stdarg.h>
#include <stdlib.h>

#include "svg.h"
#include "layout.h"
#include "supply.h"
#include "units.h"

void wb_printf(struct wbuf *w, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	wb_mem(w, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

void wb_xml(struct wbuf *w, const char *s)
{
	if (!s)
		return;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '&':
			wb_str(w, "&amp;");
			break;
		case '<':
			wb_str(w, "&lt;");
			break;
		case '>':
			wb_str(w, "&gt;");
			break;
		case '"':
			wb_str(w, "&quot;");
			break;
		case '\'':
			wb_str(w, "&#39;");
			break;
		default:
			/* XML 1.0 has no place for the other C0 controls */
			if (*p >= 0x20 || *p == '\t' || *p == '\n' ||
			    *p == '\r')
				wb_ch(w, (char)*p);
		}
	}
}

char *u128_dec(char *buf, unsigned __int128 v, unsigned k)
{
	char tmp[64];
	size_t n = 0, o = 0;

	/* the digits, least significant first, at least k + 1 of them */
	do {
		tmp[n++] = (char)('0' + (unsigned)(v % 10));
		v /= 10;
	} while ((v || n <= k) && n < sizeof(tmp));
	while (n > k)
		buf[o++] = tmp[--n];
	if (k) {
		size_t z = 0;

		while (z < k && tmp[z] == '0')
			z++; /* trailing zeros of the fraction */
		if (z < k) {
			buf[o++] = '.';
			while (n > z)
				buf[o++] = tmp[--n];
		}
	}
	buf[o] = '\0';
	return buf;
}

/* Thousandths of an em of an ASCII character: the widest advance of its
 * class in DejaVu Sans, rounded up (svg.h). */
static uint32_t ascii_em(unsigned char c)
{
	if (strchr("ijl.,:;'|!", c))
		return 400;
	if (strchr("()[]", c))
		return 400;
	if (strchr("frt", c))
		return 420;
	if (c == ' ' || c == '/')
		return 340;
	if (c == '-')
		return 370;
	if (c == '_' || c == '*')
		return 500;
	if (c == 'I' || c == 'J')
		return 300;
	if (c == 'm')
		return 980;
	if (c == 'w')
		return 820;
	if (c == 'M')
		return 870;
	if (c == 'W')
		return 990;
	if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
		return 640;
	if (c >= 'A' && c <= 'Z')
		return 790;
	return 1000;
}

uint32_t svg_text_em(const char *s, size_t n)
{
	uint32_t em = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == 0xc2 && i + 1 < n && (unsigned char)s[i + 1] == 0xb7)
			em += 320; /* U+00B7 MIDDLE DOT, 318 */
		else if (c >= 0x80)
			em += (c & 0xc0) == 0x80 ? 0 : 1000;
		else
			em += ascii_em(c);
	}
	return em;
}

void wb_power(struct wbuf *w, int64_t mw)
{
	char buf[RK_QFMT_MAX];
	struct quantity q = { DIM_POWER, mw };

	wb_str(w, quantity_human(q, buf));
}

void wb_total(struct wbuf *w, int64_t mw, bool over)
{
	if (over)
		wb_str(w, WB_OUT_OF_RANGE);
	else
		wb_power(w, mw);
}

void wb_total_u(struct wbuf *w, int64_t mw, bool over, bool unknown)
{
	if (over || !unknown) {
		wb_total(w, mw, over);
		return;
	}
	wb_str(w, "at least ");
	wb_power(w, mw);
	wb_str(w, WB_UNKNOWN);
}

struct wbuf *svg_file_open(struct backend_ctx *ctx, const char *rel)
{
	FILE *fp = out_open(ctx, rel);
	struct wbuf *w;

	if (!fp)
		return NULL;
	w = xmalloc(sizeof(*w));
	wb_init(w, fp);
	return w;
}

bool svg_file_close(struct backend_ctx *ctx, struct wbuf *w)
{
	bool ok;

	wb_flush(w);
	ok = out_close(ctx, w->fp);
	free(w);
	return ok;
}

void svg_begin(struct wbuf *w, int width, int height, const char *id,
	       const char *title, const char *desc)
{
	wb_printf(w,
		  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		  "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"",
		  width, height, width, height);
	if (id) {
		wb_str(w, " aria-labelledby=\"");
		wb_xml(w, id);
		wb_str(w, "-t ");
		wb_xml(w, id);
		wb_str(w, "-d\"");
	}
	wb_str(w, " font-family=\"sans-serif\">\n<title");
	if (id) {
		wb_str(w, " id=\"");
		wb_xml(w, id);
		wb_str(w, "-t\"");
	}
	wb_ch(w, '>');
	wb_xml(w, title);
	wb_str(w, "</title>\n<desc");
	if (id) {
		wb_str(w, " id=\"");
		wb_xml(w, id);
		wb_str(w, "-d\"");
	}
	wb_ch(w, '>');
	wb_xml(w, desc);
	wb_str(w, "</desc>\n<rect width=\"100%\" height=\"100%\" "
		  "fill=\"#ffffff\"/>\n");
}

void svg_end(struct wbuf *w)
{
	wb_str(w, "</svg>\n");
}

const char *svg_fill(const struct rk_design *d, uint32_t dev)
{
	switch (d->objs[dev].cls) {
	case C_SERVER:
		return "#a6c8ec";
	case C_SWITCH:
		return "#b5dfa7";
	case C_PDU:
		return "#f9c784";
	case C_CDU:
		return "#9fd9d3";
	case C_POWER_SHELF:
		return "#f3e39c";
	case C_RDHX:
		return "#c9b6e4";
	default:
		return "#d9d9d9";
	}
}

void svg_rack_index(const struct rk_design *d, struct rack_index *ix)
{
	ix->power_cap = supply_rack_capacities(d);
	layout_racks_build(d, &ix->by);
}

void svg_rack_index_free(struct rack_index *ix)
{
	layout_racks_free(&ix->by);
	free(ix->power_cap);
}

void svg_rack_pages(const struct rk_design *d, struct rack_pages *pg)
{
	uint32_t nr = 0, np = 0, unrowed = 0;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		if (d->objs[i].kind == K_RACK) {
			nr++;
			unrowed += d->objs[i].parent == RK_NONE ||
				   d->objs[d->objs[i].parent].kind != K_ROW;
		}
		np += d->objs[i].kind == K_ROW;
	}
	np += unrowed > 0;
	pg->row = xmalloc((np + 1) * sizeof(*pg->row));
	pg->off = xmalloc((np + 2) * sizeof(*pg->off));
	pg->racks = xmalloc((nr + 1) * sizeof(*pg->racks));
	pg->n = 0;
	nr = 0;
	for (uint32_t i = 0; i < d->nobjs; i++) {
		if (d->objs[i].kind != K_ROW)
			continue;
		pg->row[pg->n] = i;
		pg->off[pg->n++] = nr;
		for_each_child(d, i, c)
			if (d->objs[c].kind == K_RACK)
				pg->racks[nr++] = c;
	}
	if (unrowed) {
		pg->row[pg->n] = RK_NONE;
		pg->off[pg->n++] = nr;
		for (uint32_t i = 0; i < d->nobjs; i++)
			if (d->objs[i].kind == K_RACK &&
			    (d->objs[i].parent == RK_NONE ||
			     d->objs[d->objs[i].parent].kind != K_ROW))
				pg->racks[nr++] = i;
	}
	pg->off[pg->n] = nr;
}

void svg_rack_pages_free(struct rack_pages *pg)
{
	free(pg->row);
	free(pg->off);
	free(pg->racks);
}
