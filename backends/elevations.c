/* SPDX-License-Identifier: MIT */
/*
 * The "elevations" back end: elevations/ROW.svg, one page per row (and
 * elevations/unrowed.svg for racks outside rows), each rack drawn from
 * the front and from the rear on a U scale: every device at its position
 * with its name and model, coloured by kind (svg_fill); 0U devices as
 * strips beside the rear view; the rack's power, heat, its power headroom
 * after its worst feed loss and its cooling headroom above it; devices
 * without a position listed below it.
 */
#include "rackc.h"

#include <stdlib.h>

#include "be_common.h"
#include "layout.h"
#include "schema.h"
#include "svg.h"

#define UH 12	    /* pixels per U */
#define RW 170	    /* width of one view of a rack */
#define SCALE_W 22  /* the U numbers */
#define HEAD_H 78   /* the rack's figures */
#define LINE_H 12   /* a line of the list below */
#define RACK_GAP 44 /* between racks */
#define VIEW_GAP 14 /* between the front and rear views */

/* a device's name within its rack: the rack's prefix dropped */
static const char *dev_label(const struct rk_design *d, uint32_t dev,
			     uint32_t rack)
{
	const char *n = ir_name(d, dev), *r = ir_name(d, rack);
	size_t k = strlen(r);

	if (!strncmp(n, r, k) && n[k] == '.')
		return n + k + 1;
	return n;
}

static const char *dev_model(const struct rk_design *d, uint32_t dev)
{
	const char *m = ir_str(d, dev, A_MODEL);

	if (m)
		return m;
	return d->objs[dev].part != RK_NONE ? ir_name(d, d->objs[dev].part)
					    : "";
}

/* A device's text: its font size, and the room for it (thousandths of a
 * px: the view's width less 4 px before the text and 2 px after). */
#define LABEL_FONT 9
#define LABEL_ROOM ((RW - 6) * 1000)

/*
 * A device's label at (@x, @y): its name @name whole, in 9 px type or
 * smaller where a long name needs it (never cut: an index must read in
 * full), then " · " and @model (when not NULL) in what room is left, cut
 * with an ellipsis, and left out when not even a few characters fit (the
 * <title> has it).  Widths are svg_text_em's upper bounds.
 */
static void dev_text(struct wbuf *w, const char *name, const char *model, int x,
		     int y)
{
	static const char sep[] = " \xc2\xb7 ", dots[] = "\xe2\x80\xa6";
	uint32_t em = svg_text_em(name, strlen(name));
	uint32_t fs = LABEL_FONT, room, used, k;
	size_t n = 0, fit = 0;

	if (em * fs > LABEL_ROOM)
		fs = em ? LABEL_ROOM / em : LABEL_FONT; /* whole px, down */
	if (!fs) /* not reached for names of a sane length */
		fs = 1;
	wb_printf(w, "<text x=\"%d\" y=\"%d\" font-size=\"%u\">", x, y, fs);
	wb_xml(w, name);
	/* the model: as many whole characters as fit with the ellipsis */
	used = em * fs + svg_text_em(sep, strlen(sep)) * fs;
	room = used < LABEL_ROOM ? LABEL_ROOM - used : 0;
	if (model && *model) {
		uint32_t all = svg_text_em(model, strlen(model)) * fs;
		uint32_t el = svg_text_em(dots, 3) * fs, sum = 0;
		bool whole = all <= room;

		while (model[n]) {
			/* one character: its lead byte and continuations */
			k = 1;
			while (((unsigned char)model[n + k] & 0xc0) == 0x80)
				k++;
			sum += svg_text_em(model + n, k) * fs;
			if (!whole && sum + el > room)
				break;
			n += k;
			fit++;
		}
		if (whole) {
			wb_str(w, sep);
			wb_xml(w, model);
		} else if (fit >= 4) {
			char *buf = xmalloc(n + 4);

			memcpy(buf, model, n);
			memcpy(buf + n, dots, 4); /* with its NUL */
			wb_str(w, sep);
			wb_xml(w, buf);
			free(buf);
		}
	}
	wb_str(w, "</text>");
}

static void dev_title(struct wbuf *w, const struct rk_design *d, uint32_t dev)
{
	int64_t p = ir_num(d, dev, A_POWER_MAX, 0);

	wb_str(w, "<title>");
	wb_xml(w, ir_name(d, dev));
	wb_str(w, " (");
	wb_xml(w, dev_model(d, dev));
	if (p > 0) {
		wb_str(w, ", ");
		wb_power(w, p);
	}
	wb_str(w, ")</title>");
}

/* lines below the rack: devices with no U position */
static uint32_t unplaced(const struct rk_design *d, const struct rack_index *ix,
			 uint32_t r)
{
	uint32_t n = 0;

	for (uint32_t k = ix->by.first[r]; k < ix->by.first[r + 1]; k++) {
		uint32_t dev = ix->by.devs[k];

		n += layout_at(d, dev) < 1 || layout_height_u(d, dev) < 1;
	}
	return n;
}

static void rack_figures(struct wbuf *w, const struct rk_design *d,
			 const struct rack_totals *t,
			 const struct rack_index *ix, uint32_t r, int x, int y)
{
	int64_t cap = ix->power_cap[r];

	const struct rk_value *air = ir_attr(d, r, A_AIR),
			      *loop = ir_attr(d, r, A_LOOP);
	int64_t air_heat = t->heat_air[r];
	unsigned over = rack_total_over(t, r);
	unsigned unk = rack_total_unknown(t, r);

	wb_printf(w,
		  "<text x=\"%d\" y=\"%d\" font-size=\"12\" "
		  "font-weight=\"bold\">",
		  x, y + 12);
	wb_xml(w, ir_name(d, r));
	wb_str(w, " <tspan font-weight=\"normal\" font-size=\"10\">");
	wb_xml(w, dev_model(d, r));
	wb_printf(w, ", %lldU</tspan></text>\n",
		  (long long)layout_rack_units(d, r));
	wb_printf(w, "<text x=\"%d\" y=\"%d\" font-size=\"10\">power max ", x,
		  y + 26);
	wb_total_u(w, t->power[r], over & TOTAL_POWER, unk & TOTAL_POWER);
	wb_str(w, ", heat ");
	wb_total_u(w, t->heat[r], over & TOTAL_HEAT, unk & TOTAL_HEAT);
	if (t->heat_liquid[r] || (unk & TOTAL_HEAT_LIQUID)) {
		wb_str(w, " (liquid ");
		wb_total_u(w, t->heat_liquid[r], over & TOTAL_HEAT_LIQUID,
			   unk & TOTAL_HEAT_LIQUID);
		wb_ch(w, ')');
	}
	wb_printf(w, ", %u devices</text>\n", t->devices[r]);
	/* the power the rack keeps after its worst feed fails */
	wb_printf(w, "<text x=\"%d\" y=\"%d\" font-size=\"10\">", x, y + 39);
	if (cap > 0) {
		wb_str(w, "power capacity ");
		wb_power(w, cap);
		wb_str(w, " after the worst feed loss, ");
		if (over & TOTAL_POWER)
			wb_str(w, "OVER (power max " WB_OUT_OF_RANGE ")");
		else if (unk & TOTAL_POWER) /* from a lower bound */
			wb_str(w, cap >= t->power[r] ? "headroom at most "
						     : "OVER by at least ");
		else
			wb_str(w,
			       cap >= t->power[r] ? "headroom " : "OVER by ");
		if (!(over & TOTAL_POWER))
			wb_power(w, cap >= t->power[r] ? cap - t->power[r]
						       : t->power[r] - cap);
	} else {
		wb_str(w, "no PDU or power shelf in the rack");
	}
	wb_str(w, "</text>\n");
	wb_printf(w, "<text x=\"%d\" y=\"%d\" font-size=\"10\">", x, y + 52);
	if (loop && loop->type == VT_OBJ) {
		wb_str(w, "liquid loop ");
		wb_xml(w, ir_name(d, loop->a));
	}
	if (air && air->type == VT_OBJ) {
		int64_t lim = ir_num(d, air->a, A_RACK_LIMIT, 0);

		wb_str(w, loop && loop->type == VT_OBJ ? "; air " : "air ");
		wb_xml(w, ir_name(d, air->a));
		if (lim > 0 && (over & TOTAL_HEAT_AIR)) {
			wb_str(w, ": limit ");
			wb_power(w, lim);
			wb_str(w, ", OVER (heat to air " WB_OUT_OF_RANGE ")");
		} else if (lim > 0) {
			wb_str(w, ": limit ");
			wb_power(w, lim);
			if (unk & TOTAL_HEAT_AIR)
				wb_str(w, lim >= air_heat
					      ? ", headroom at most "
					      : ", OVER by at least ");
			else
				wb_str(w, lim >= air_heat ? ", headroom "
							  : ", OVER by ");
			wb_power(w, lim >= air_heat ? lim - air_heat
						    : air_heat - lim);
		}
	} else if (!loop || loop->type != VT_OBJ) {
		wb_str(w, "no cooling declared");
	}
	wb_str(w, "</text>\n");
}

/* the U numbers of a rack of @units, right-aligned at x = 0 */
static void u_scale(struct wbuf *w, int64_t units, int top)
{
	for (int64_t u = 1; u <= units; u++)
		wb_printf(w,
			  "<text x=\"0\" y=\"%d\" font-size=\"7\" "
			  "text-anchor=\"end\" fill=\"#666666\">%lld</text>\n",
			  top + (int)(units - u) * UH + 9, (long long)u);
}

/* the rack heights whose scales a page defines once (<defs>) */
#define NSCALES 4
struct scales {
	const char *idp;
	int64_t units[NSCALES];
	unsigned n;
};

static void draw_rack(struct wbuf *w, const struct rk_design *d,
		      const struct rack_totals *t, const struct rack_index *ix,
		      const struct scales *sc, uint32_t r, int x0, int y0)
{
	int64_t units = layout_rack_units(d, r);
	int top = y0 + HEAD_H, fx = x0 + SCALE_W, rx = fx + RW + VIEW_GAP;
	uint32_t zero_u = 0, line = 0;

	if (units < 1)
		units = 42;
	if (units > 100)
		units = 100;
	rack_figures(w, d, t, ix, r, x0, y0);
	wb_printf(w,
		  "<text x=\"%d\" y=\"%d\" font-size=\"9\">front</text>"
		  "<text x=\"%d\" y=\"%d\" font-size=\"9\">rear</text>\n",
		  fx, top - 4, rx, top - 4);
	wb_printf(w,
		  "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		  "fill=\"#f4f4f4\" stroke=\"#333333\"/>"
		  "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		  "fill=\"#f4f4f4\" stroke=\"#333333\"/>\n",
		  fx, top, RW, (int)units * UH, rx, top, RW, (int)units * UH);
	{
		unsigned k;

		for (k = 0; k < sc->n && sc->units[k] != units; k++)
			;
		if (k < sc->n) {
			wb_str(w, "<use href=\"#");
			wb_xml(w, sc->idp);
			wb_printf(w, "-u%lld\" x=\"%d\" y=\"%d\"/>\n",
				  (long long)units, fx - 3, top);
		} else {
			wb_printf(w, "<g transform=\"translate(%d %d)\">\n",
				  fx - 3, top);
			u_scale(w, units, 0);
			wb_str(w, "</g>\n");
		}
	}
	for (uint32_t k = ix->by.first[r]; k < ix->by.first[r + 1]; k++) {
		uint32_t dev = ix->by.devs[k];
		int64_t at = layout_at(d, dev), h = layout_height_u(d, dev);
		const char *fill = svg_fill(d, dev);
		int y;

		if (h < 1) {
			/* 0U: a strip beside the rear view (two fit) */
			if (zero_u < 2) {
				wb_printf(
				    w,
				    "<g><rect x=\"%d\" y=\"%d\" width=\"6\" "
				    "height=\"%d\" fill=\"%s\" "
				    "stroke=\"#333333\"/>",
				    zero_u ? rx + RW + 2 : rx - 8, top,
				    (int)units * UH, fill);
				dev_title(w, d, dev);
				wb_str(w, "</g>\n");
			}
			zero_u++;
			continue;
		}
		if (at < 1 || at + h - 1 > units)
			continue;
		y = top + (int)(units - (at + h - 1)) * UH;
		for (int v = 0; v < 2; v++) {
			wb_printf(
			    w,
			    "<g><rect x=\"%d\" y=\"%d\" width=\"%d\" "
			    "height=\"%d\" fill=\"%s\" stroke=\"#333333\"%s/>",
			    v ? rx : fx, y, RW, (int)h * UH, fill,
			    v ? " fill-opacity=\"0.6\"" : "");
			dev_title(w, d, dev);
			dev_text(w, dev_label(d, dev, r),
				 v ? NULL : dev_model(d, dev),
				 (v ? rx : fx) + 4, y + (int)h * UH / 2 + 3);
			wb_str(w, "</g>\n");
		}
	}
	/* the list below */
	for (uint32_t k = ix->by.first[r]; k < ix->by.first[r + 1]; k++) {
		uint32_t dev = ix->by.devs[k];
		int64_t at = layout_at(d, dev), h = layout_height_u(d, dev);

		if (at >= 1 && h >= 1)
			continue;
		wb_printf(w, "<text x=\"%d\" y=\"%d\" font-size=\"9\">", fx,
			  top + (int)units * UH + 16 + (int)line * LINE_H);
		wb_xml(w, dev_label(d, dev, r));
		wb_str(w, " \xc2\xb7 ");
		wb_xml(w, dev_model(d, dev));
		wb_str(w, h < 1 ? " (0U, beside the rear view)</text>\n"
				: " (no position)</text>\n");
		line++;
	}
}

void svg_elevation(struct wbuf *w, const struct rk_design *d,
		   struct derived *dv, const struct rack_index *ix,
		   const uint32_t *racks, uint32_t n, const char *title,
		   const char *idp)
{
	const struct rack_totals *t = derived_racks(dv);
	struct scales sc = { idp, { 0 }, 0 };
	int64_t umax = 0;
	uint32_t lmax = 0;
	int rack_w = SCALE_W + 2 * RW + VIEW_GAP + RACK_GAP, width, height;
	char desc[512];

	for (uint32_t i = 0; i < n; i++) {
		int64_t u = layout_rack_units(d, racks[i]);
		uint32_t l = unplaced(d, ix, racks[i]);

		u = u < 1 ? 42 : u > 100 ? 100 : u;
		umax = u > umax ? u : umax;
		{
			unsigned k;

			for (k = 0; k < sc.n && sc.units[k] != u; k++)
				;
			if (k == sc.n && sc.n < NSCALES)
				sc.units[sc.n++] = u;
		}
		lmax = l > lmax ? l : lmax;
	}
	width = 20 + (int)n * rack_w;
	height = 20 + HEAD_H + (int)umax * UH + 24 + (int)lmax * LINE_H;
	snprintf(desc, sizeof(desc),
		 "Front and rear elevations of %u racks, each device at its "
		 "rack units with its name and model, coloured by kind "
		 "(servers blue, switches green, PDUs orange, CDUs teal, "
		 "power shelves yellow, others grey).",
		 n);
	svg_begin(w, width, height, NULL, title, desc);
	wb_str(w, "<defs>\n");
	for (unsigned k = 0; k < sc.n; k++) {
		wb_str(w, "<g id=\"");
		wb_xml(w, idp);
		wb_printf(w, "-u%lld\">\n", (long long)sc.units[k]);
		u_scale(w, sc.units[k], 0);
		wb_str(w, "</g>\n");
	}
	wb_str(w, "</defs>\n");
	for (uint32_t i = 0; i < n; i++)
		draw_rack(w, d, t, ix, &sc, racks[i], 10 + (int)i * rack_w, 10);
	svg_end(w);
}

static bool emit_elevations(struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	struct rack_index ix;
	struct rack_pages pg;
	bool ok = true;

	svg_rack_index(d, &ix);
	svg_rack_pages(d, &pg);
	for (uint32_t p = 0; p < pg.n && ok; p++) {
		const char *base =
		    pg.row[p] != RK_NONE
			? be_derived_name(ctx->arena, ir_name(d, pg.row[p]))
			: "unrowed";
		char rel[1024], title[1024];
		struct wbuf *w;

		if (be_cancelled(ctx)) {
			ok = false;
			break;
		}
		snprintf(rel, sizeof(rel), "elevations/%s.svg", base);
		snprintf(title, sizeof(title), "Rack elevations: %s",
			 pg.row[p] != RK_NONE ? ir_name(d, pg.row[p])
					      : "racks outside rows");
		w = svg_file_open(ctx, rel);
		if (!w) {
			ok = false;
			break;
		}
		wb_str(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
		svg_elevation(w, d, ctx->dv, &ix, pg.racks + pg.off[p],
			      pg.off[p + 1] - pg.off[p], title, "el");
		ok = svg_file_close(ctx, w);
	}
	svg_rack_pages_free(&pg);
	svg_rack_index_free(&ix);
	return ok;
}

const struct backend backend_elevations = {
	.name = "elevations",
	.summary = "elevations/ROW.svg: front and rear rack elevations, a page "
		   "per row",
	.emit = emit_elevations,
	.needs = BE_NEEDS_RACKS,
};
