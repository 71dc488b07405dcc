/* SPDX-License-Identifier: MIT */
/*
 * The "floor" back end: floor/SITE.svg, the plan of each site to scale
 * from the layout model (a row's racks side by side from its x, y and
 * pitch; each rack its part's width and depth, 600 x 1200 mm when the
 * part gives none).  Racks are shaded by their power (power_max of their
 * devices) in fixed bands, outlined in their air zone's colour, dashed
 * when they hold switches but no servers (network racks); racks on a
 * liquid loop carry a blue dot and the loop's racks are joined by a line,
 * racks holding a CDU a teal triangle.  Rows are labelled at their start
 * ("network" when their racks hold only switches).  The legend gives the
 * bands with their rack counts, the zones and the loops.
 */
#include "rackc.h"

#include <stdlib.h>

#include "be_common.h"
#include "layout.h"
#include "schema.h"
#include "svg.h"

#define LEGEND_W 300
#define MARGIN 60

/* power bands, kW (upper bounds), and their fills */
static const int64_t band_kw[] = { 0, 10, 20, 40, 60, 100, INT64_MAX };
static const char *const band_fill[] = { "#f7f7f7", "#fee8c8", "#fdd49e",
					 "#fdbb84", "#fc8d59", "#e34a33",
					 "#b30000" };
#define NBANDS 7
static const char *const zone_stroke[] = { "#1b9e77", "#7570b3", "#e7298a",
					   "#66a61e", "#e6ab02", "#a6761d" };

static unsigned band_of(int64_t mw)
{
	unsigned b = 1;

	if (mw <= 0)
		return 0;
	/* band b holds (band_kw[b - 1], band_kw[b]] kW; the last is open */
	while (b < NBANDS - 1 && mw > band_kw[b] * 1000000)
		b++;
	return b;
}

/*
 * A rack's name at the foot of its rectangle (@px, @py, @pw x @ph px),
 * inside it: 8 px type, smaller (down to 5 px) where the name is wider
 * than the rack less 1 px each side (svg_text_em's upper bound), and left
 * out where even that does not fit (the <title> has it).  Racks do not
 * overlap, so neither do their names.
 */
static void rack_name(struct wbuf *w, const char *name, int px, int py, int pw,
		      int ph)
{
	uint32_t em = svg_text_em(name, strlen(name)), fs = 8;

	while (fs > 5 && em * fs > (uint32_t)(pw - 2) * 1000)
		fs--;
	if (pw < 2 || em * fs > (uint32_t)(pw - 2) * 1000 || ph < 12)
		return;
	wb_printf(w,
		  "<text x=\"%d\" y=\"%d\" font-size=\"%u\" "
		  "text-anchor=\"middle\">",
		  px + pw / 2, py + ph - 3, fs);
	wb_xml(w, name);
	wb_str(w, "</text>");
}

struct frack {
	uint32_t rack;
	int64_t x, y, w, h; /* micrometres */
	bool net, cdu;
};

/* One site's floor plan as it is drawn. */
struct floor {
	struct wbuf *w;
	const struct rk_design *d;
	const struct rack_totals *t;
	uint32_t site;
	struct frack *r; /* the site's racks placed in rows */
	uint32_t n;
	uint32_t zones[6], nz; /* air zones, in order of first rack */
	uint32_t bands[NBANDS];
	uint32_t unknown; /* racks whose power is a lower bound */
	int64_t x0, y0, x1, y1;
	int64_t scale_num; /* px per metre */
	int width, height;
};

/* A length or position of @v micrometres, in px. */
static int fl_px(const struct floor *fl, int64_t v)
{
	return (int)((v * fl->scale_num) / 1000000);
}

/*
 * The site's racks placed in rows (fl->r), what they hold, the plan's
 * bounds and the racks per power band.
 */
static void fl_racks_of(struct floor *fl, const struct rack_index *ix)
{
	const struct rk_design *d = fl->d;
	uint32_t cap = 0;

	fl->x0 = fl->y0 = INT64_MAX;
	fl->x1 = fl->y1 = INT64_MIN;
	for (uint32_t i = 0; i < d->nobjs; i++) {
		struct rack_pos pos;
		struct frack *f;
		uint32_t servers = 0, switches = 0;

		if (d->objs[i].kind != K_RACK ||
		    ir_ancestor(d, i, K_SITE) != fl->site)
			continue;
		layout_rack_pos(d, i, &pos);
		if (pos.row == RK_NONE)
			continue;
		if (fl->n == cap) {
			cap = cap ? 2 * cap : 64;
			fl->r = xrealloc(fl->r, cap * sizeof(*fl->r));
		}
		f = &fl->r[fl->n++];
		f->rack = i;
		f->x = pos.x;
		f->y = pos.y;
		f->w = ir_num(d, i, A_WIDTH, 600000);
		f->h = ir_num(d, i, A_DEPTH, 1200000);
		f->cdu = false;
		for (uint32_t k = ix->by.first[i]; k < ix->by.first[i + 1];
		     k++) {
			uint16_t c = d->objs[ix->by.devs[k]].cls;

			servers += c == C_SERVER;
			switches += c == C_SWITCH;
			f->cdu |= c == C_CDU;
		}
		f->net = switches && !servers;
		fl->x0 = f->x < fl->x0 ? f->x : fl->x0;
		fl->y0 = f->y < fl->y0 ? f->y : fl->y0;
		fl->x1 = f->x + f->w > fl->x1 ? f->x + f->w : fl->x1;
		fl->y1 = f->y + f->h > fl->y1 ? f->y + f->h : fl->y1;
		fl->bands[band_of(fl->t->power[i])]++;
		fl->unknown +=
		    (rack_total_unknown(fl->t, i) & TOTAL_POWER) != 0;
	}
	if (!fl->n) {
		fl->x0 = fl->y0 = 0;
		fl->x1 = fl->y1 = 1000000;
	}
}

/*
 * The scale, the picture's size, and its head: px per metre such that the
 * width fits in 1000 px and the height in 4000 (a long hall is drawn tall
 * rather than tiny), 4 to 50 px/m.
 */
static void fl_begin(struct floor *fl)
{
	struct wbuf *w = fl->w;
	int64_t span;
	char title[512], desc[1024];

	span = (fl->x1 - fl->x0) / 1000000 + 1;
	fl->scale_num = 1000 / span;
	span = (fl->y1 - fl->y0) / 1000000 + 1;
	if (4000 / span < fl->scale_num)
		fl->scale_num = 4000 / span;
	fl->scale_num = fl->scale_num < 4    ? 4
			: fl->scale_num > 50 ? 50
					     : fl->scale_num;
	fl->width = MARGIN * 2 + fl_px(fl, fl->x1 - fl->x0) + LEGEND_W;
	fl->height = MARGIN * 2 + fl_px(fl, fl->y1 - fl->y0) + 20;
	if (fl->height < 520)
		fl->height = 520;
	snprintf(title, sizeof(title), "Floor plan: %s",
		 ir_name(fl->d, fl->site));
	snprintf(desc, sizeof(desc),
		 "Floor plan of site %s to scale (%lld px per metre): %u "
		 "racks in rows, shaded by power per rack (legend), outlined "
		 "by air zone and dashed where they hold only network "
		 "switches when drawn 6 px wide or more; "
		 "blue dots and lines mark liquid loops, teal triangles CDUs.",
		 ir_name(fl->d, fl->site), (long long)fl->scale_num, fl->n);
	svg_begin(w, fl->width, fl->height, NULL, title, desc);
	wb_str(w, "<text x=\"20\" y=\"28\" font-size=\"16\" "
		  "font-weight=\"bold\">");
	wb_xml(w, title);
	wb_printf(w,
		  "</text>\n<text x=\"20\" y=\"46\" font-size=\"10\">%u "
		  "racks; scale bar: 1 m = %lld px</text>\n<line x1=\"20\" "
		  "y1=\"52\" x2=\"%d\" y2=\"52\" stroke=\"#000000\" "
		  "stroke-width=\"2\"/>\n",
		  fl->n, (long long)fl->scale_num, 20 + (int)fl->scale_num);
}

/*
 * Row labels, at each row's first rack (each row's racks counted in one
 * pass over the racks, not one per row).
 */
static void fl_rows(struct floor *fl)
{
	const struct rk_design *d = fl->d;
	const struct frack *r = fl->r;
	struct {
		uint32_t first, racks, nets;
	} *rows = xmalloc(((size_t)d->nobjs + 1) * sizeof(*rows));

	memset(rows, 0xff, ((size_t)d->nobjs + 1) * sizeof(*rows));
	for (uint32_t k = 0; k < fl->n; k++) {
		uint32_t p = d->objs[r[k].rack].parent;

		if (rows[p].first == RK_NONE) {
			rows[p].first = k;
			rows[p].racks = rows[p].nets = 0;
		}
		rows[p].racks++;
		rows[p].nets += r[k].net;
	}
	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t first, nets, racks;

		if (d->objs[i].kind != K_ROW ||
		    ir_ancestor(d, i, K_SITE) != fl->site ||
		    rows[i].first == RK_NONE)
			continue;
		first = rows[i].first;
		nets = rows[i].nets;
		racks = rows[i].racks;
		wb_printf(fl->w,
			  "<text x=\"%d\" y=\"%d\" font-size=\"10\" "
			  "text-anchor=\"end\">",
			  MARGIN + fl_px(fl, r[first].x - fl->x0) - 4,
			  MARGIN + fl_px(fl, r[first].y - fl->y0) +
			      fl_px(fl, r[first].h) / 2 + 4);
		wb_xml(fl->w, d->objs[i].local != 0
				  ? str_of(d->arena, d->objs[i].local)
				  : ir_name(d, i));
		wb_str(fl->w,
		       nets == racks ? " (network)</text>\n" : "</text>\n");
	}
	free(rows);
}

/*
 * The racks: shaded by power band, outlined in their air zone's colour
 * (zones numbered here, in order of first rack), marked where their
 * power is a lower bound, on a loop, or holding a CDU.
 */
static void fl_racks(struct floor *fl)
{
	const struct rk_design *d = fl->d;
	const struct rack_totals *t = fl->t;
	struct wbuf *w = fl->w;

	for (uint32_t k = 0; k < fl->n; k++) {
		const struct frack *f = &fl->r[k];
		const struct rk_value *air = ir_attr(d, f->rack, A_AIR);
		const char *stroke = "#555555";
		int px = MARGIN + fl_px(fl, f->x - fl->x0),
		    py = MARGIN + fl_px(fl, f->y - fl->y0);
		int pw = fl_px(fl, f->w), ph = fl_px(fl, f->h);

		if (pw < 2)
			pw = 2;
		if (ph < 2)
			ph = 2;
		if (air && air->type == VT_OBJ) {
			uint32_t z;

			for (z = 0; z < fl->nz && fl->zones[z] != air->a; z++)
				;
			if (z == fl->nz && fl->nz < 6)
				fl->zones[fl->nz++] = air->a;
			stroke = zone_stroke[z < 6 ? z : 5];
		}
		wb_printf(
		    w,
		    "<g><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		    "fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"%s/>",
		    px, py, pw, ph, band_fill[band_of(t->power[f->rack])],
		    /* too small for an outline: the fill alone */
		    pw >= 6 ? stroke : "none", pw >= 8 ? "1.5" : "0.5",
		    f->net && pw >= 6 ? " stroke-dasharray=\"3 2\"" : "");
		wb_str(w, "<title>");
		wb_xml(w, ir_name(d, f->rack));
		wb_str(w, ": ");
		wb_total_u(w, t->power[f->rack],
			   rack_total_over(t, f->rack) & TOTAL_POWER,
			   rack_total_unknown(t, f->rack) & TOTAL_POWER);
		wb_printf(w, ", %u devices</title>", t->devices[f->rack]);
		/* shaded by a lower bound: marked */
		if ((rack_total_unknown(t, f->rack) & TOTAL_POWER) && pw >= 8)
			wb_printf(w,
				  "<text x=\"%d\" y=\"%d\" font-size=\"%d\" "
				  "font-weight=\"bold\">?</text>",
				  px + 2, py + (ph >= 12 ? 9 : ph - 1),
				  pw >= 12 ? 9 : 7);
		if (ir_attr(d, f->rack, A_LOOP))
			wb_printf(w,
				  "<circle cx=\"%d\" cy=\"%d\" r=\"%d\" "
				  "fill=\"#1f77b4\"/>",
				  px + pw / 2, py + ph / 2, pw >= 8 ? 3 : 1);
		if (f->cdu)
			wb_printf(w,
				  "<path d=\"M%d %d l%d %d l%d 0 z\" "
				  "fill=\"#17becf\" stroke=\"#0b5563\"/>",
				  px + pw / 2, py + 1, pw / 3 + 1, ph / 3 + 1,
				  -2 * (pw / 3 + 1));
		rack_name(w, str_of(d->arena, d->objs[f->rack].local), px, py,
			  pw, ph);
		wb_str(w, "</g>\n");
	}
}

/*
 * Liquid loops: their racks joined in declaration order (each loop's
 * racks chained by one pass over the racks, not a pass per loop).
 */
static void fl_loops(struct floor *fl)
{
	const struct rk_design *d = fl->d;
	const struct frack *r = fl->r;
	uint32_t *head = xmalloc((d->nobjs + 1) * sizeof(*head));
	uint32_t *next = xmalloc((fl->n + 1) * sizeof(*next));

	memset(head, 0xff, (d->nobjs + 1) * sizeof(*head));
	for (uint32_t k = fl->n; k-- > 0;) {
		const struct rk_value *v = ir_attr(d, r[k].rack, A_LOOP);

		next[k] = RK_NONE;
		if (!v || v->type != VT_OBJ || v->a >= d->nobjs)
			continue;
		next[k] = head[v->a];
		head[v->a] = k;
	}
	for (uint32_t lp = 0; lp < d->nobjs; lp++) {
		bool started = false;

		if (d->objs[lp].kind != K_LOOP)
			continue;
		for (uint32_t k = head[lp]; k != RK_NONE; k = next[k]) {
			wb_printf(fl->w, "%s%d %d",
				  started ? " L"
					  : "<path fill=\"none\" "
					    "stroke=\"#1f77b4\" "
					    "stroke-opacity=\"0.6\" d=\"M",
				  MARGIN + fl_px(fl, r[k].x - fl->x0) +
				      fl_px(fl, r[k].w) / 2,
				  MARGIN + fl_px(fl, r[k].y - fl->y0) +
				      fl_px(fl, r[k].h) / 2);
			started = true;
		}
		if (started)
			wb_str(fl->w, "\"/>\n");
	}
	free(head);
	free(next);
}

/* The legend's power bands, with their rack counts, from @ly; its end. */
static int fl_legend_bands(const struct floor *fl, int lx, int ly)
{
	struct wbuf *w = fl->w;

	wb_printf(w,
		  "<text x=\"%d\" y=\"%d\" font-size=\"12\" "
		  "font-weight=\"bold\">power per rack</text>\n",
		  lx, ly);
	for (unsigned b = 0; b < NBANDS; b++) {
		ly += 18;
		wb_printf(w,
			  "<rect x=\"%d\" y=\"%d\" width=\"14\" "
			  "height=\"12\" fill=\"%s\" stroke=\"#555555\"/>"
			  "<text x=\"%d\" y=\"%d\" font-size=\"10\">",
			  lx, ly - 10, band_fill[b], lx + 20, ly);
		if (b == 0)
			wb_str(w, "no load");
		else if (band_kw[b] == INT64_MAX)
			wb_printf(w, "over %lld kW", (long long)band_kw[b - 1]);
		else
			wb_printf(w, "%lld to %lld kW",
				  (long long)band_kw[b - 1],
				  (long long)band_kw[b]);
		wb_printf(w, ": %u racks</text>\n", fl->bands[b]);
	}
	if (fl->unknown) {
		ly += 18;
		wb_printf(w,
			  "<text x=\"%d\" y=\"%d\" font-size=\"10\">"
			  "? %u racks: power at least the band's, "
			  "some power_max unknown</text>\n",
			  lx, ly, fl->unknown);
	}
	return ly;
}

/* The legend's air zones with their limits, from @ly; its end. */
static int fl_legend_zones(const struct floor *fl, int lx, int ly)
{
	struct wbuf *w = fl->w;

	wb_printf(w,
		  "<text x=\"%d\" y=\"%d\" font-size=\"12\" "
		  "font-weight=\"bold\">air zones (outline)</text>\n",
		  lx, ly);
	for (uint32_t z = 0; z < fl->nz; z++) {
		int64_t lim = ir_num(fl->d, fl->zones[z], A_RACK_LIMIT, 0);

		ly += 18;
		wb_printf(w,
			  "<rect x=\"%d\" y=\"%d\" width=\"14\" "
			  "height=\"12\" fill=\"#ffffff\" stroke=\"%s\" "
			  "stroke-width=\"2\"/><text x=\"%d\" y=\"%d\" "
			  "font-size=\"10\">",
			  lx, ly - 10, zone_stroke[z], lx + 20, ly);
		wb_xml(w, ir_name(fl->d, fl->zones[z]));
		if (lim > 0) {
			wb_str(w, ", limit ");
			wb_power(w, lim);
			wb_str(w, " per rack");
		}
		wb_str(w, "</text>\n");
	}
	if (!fl->nz) {
		ly += 18;
		wb_printf(w,
			  "<text x=\"%d\" y=\"%d\" font-size=\"10\">"
			  "none</text>\n",
			  lx, ly);
	}
	return ly;
}

/* The legend's loops, CDU and network-rack symbols, from @ly. */
static void fl_legend_loops(const struct floor *fl, int lx, int ly)
{
	const struct rk_design *d = fl->d;
	struct wbuf *w = fl->w;

	wb_printf(w,
		  "<text x=\"%d\" y=\"%d\" font-size=\"12\" "
		  "font-weight=\"bold\">liquid loops</text>\n",
		  lx, ly);
	for (uint32_t lp = 0; lp < d->nobjs; lp++) {
		const struct rk_value *cdu;

		if (d->objs[lp].kind != K_LOOP ||
		    ir_ancestor(d, lp, K_SITE) != fl->site)
			continue;
		ly += 18;
		wb_printf(w,
			  "<circle cx=\"%d\" cy=\"%d\" r=\"4\" "
			  "fill=\"#1f77b4\"/><text x=\"%d\" y=\"%d\" "
			  "font-size=\"10\">",
			  lx + 7, ly - 4, lx + 20, ly);
		wb_xml(w, ir_name(d, lp));
		cdu = ir_attr(d, lp, A_CDU);
		if (cdu && cdu->type == VT_LIST)
			wb_printf(w, ", %lld CDU", (long long)cdu->n);
		wb_str(w, "</text>\n");
	}
	ly += 30;
	wb_printf(w,
		  "<path d=\"M%d %d l6 10 l-12 0 z\" fill=\"#17becf\" "
		  "stroke=\"#0b5563\"/><text x=\"%d\" y=\"%d\" "
		  "font-size=\"10\">rack holding a CDU</text>\n",
		  lx + 7, ly - 10, lx + 20, ly);
	ly += 18;
	wb_printf(w,
		  "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"12\" "
		  "fill=\"#ffffff\" stroke=\"#555555\" "
		  "stroke-dasharray=\"3 2\"/><text x=\"%d\" y=\"%d\" "
		  "font-size=\"10\">network rack (switches, no "
		  "servers)</text>\n",
		  lx, ly - 10, lx + 20, ly);
}

void svg_floor(struct wbuf *w, const struct rk_design *d, struct derived *dv,
	       const struct rack_index *ix, uint32_t site)
{
	struct floor fl;
	int lx, ly;

	memset(&fl, 0, sizeof(fl));
	fl.w = w;
	fl.d = d;
	fl.t = derived_racks(dv);
	fl.site = site;
	fl_racks_of(&fl, ix);
	fl_begin(&fl);
	fl_rows(&fl);
	fl_racks(&fl);
	fl_loops(&fl);
	lx = fl.width - LEGEND_W + 10;
	ly = fl_legend_bands(&fl, lx, MARGIN);
	ly = fl_legend_zones(&fl, lx, ly + 30);
	fl_legend_loops(&fl, lx, ly + 30);
	svg_end(w);
	free(fl.r);
}

static bool emit_floor(struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	struct rack_index ix;
	bool ok = true;

	svg_rack_index(d, &ix);
	for (uint32_t s = 0; s < d->nobjs && ok; s++) {
		char rel[1024];
		struct wbuf *w;

		if (d->objs[s].kind != K_SITE)
			continue;
		snprintf(rel, sizeof(rel), "floor/%s.svg",
			 be_derived_name(ctx->arena, ir_name(d, s)));
		if (!(w = svg_file_open(ctx, rel))) {
			ok = false;
			break;
		}
		wb_str(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
		svg_floor(w, d, ctx->dv, &ix, s);
		ok = svg_file_close(ctx, w);
	}
	svg_rack_index_free(&ix);
	return ok;
}

const struct backend backend_floor = {
	.name = "floor",
	.summary =
	    "floor/SITE.svg: each site's floor plan, racks shaded by power",
	.emit = emit_floor,
	.needs = BE_NEEDS_RACKS,
};
