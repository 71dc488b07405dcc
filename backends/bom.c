/* SPDX-License-Identifier: MIT */
/*
 * The "bom" back end: the bill of materials, bom.csv and bom.json.
 *
 * What is counted:
 *   - every device by its part: servers, switches (fabric-generated ones
 *     too), PDUs and other devices instantiated from rack-part templates,
 *     power shelves, CDUs;
 *   - racks by their part, and a rear-door heat exchanger per rack that
 *     names one (`rdhx`);
 *   - cables and transceivers from the cabling plan (src/cableplan.h): one
 *     cable per link (one per twin-port cable or splitter, which serves the
 *     links of a cage), one line per cable part and stock length; one
 *     module per twin-port cage, one per single cage;
 *   - power cords, one per wired power supply (`power psu[..] -> pdu`):
 *     the catalog part of class cable with media power whose `form` is the
 *     IEC 60320 connector that mates the device's `inlet` (C14 -> C13, C20
 *     -> C19, C22 -> C21; cheapest, then by name).  A cord is never
 *     invented: a supply whose inlet has no such part is left out and
 *     reported in the notes; busbar-fed supplies need no cord.
 *
 * Lines are sorted by category (racks and rear doors, power, cooling,
 * compute, network, optics, cables), then part number (the part name when
 * it has none), then length.  Parts that share a part number (a derived
 * part inherits its base's) and length and price make one line ("one line
 * per part number"); the part column then names all of them.
 *
 * Columns of bom.csv (csv.h rules): category (the part class), part,
 * vendor, model, part_number, description, length_m (cables), quantity,
 * unit_price_usd and extended_price_usd (exact, two decimals; empty when
 * the catalog has no price), estimated (the part's `estimated` facts,
 * joined with "; ").  A last row, category "total", carries the total
 * quantity and the total of the priced lines.
 *
 * bom.json holds the same lines (null for what is unknown; prices and
 * lengths as exact decimal numbers, estimated as a list), "totals",
 * "counts" and "notes" (what could not be counted), keys in a fixed order.
 */
#include "rackc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "be_common.h"
#include "cableplan.h"
#include "metrics.h"
#include "csv.h"
#include "schema.h"

/* Display order of the categories. */
static const enum rk_class class_order[] = {
	C_RACK,	  C_RDHX,	 C_PDU,	   C_POWER_SHELF, C_CDU,
	C_SERVER, C_SWITCH,	 C_DEVICE, C_GPU,	  C_CPU,
	C_NIC,	  C_TRANSCEIVER, C_CABLE,  C_NONE,
};

/**
 * struct line - one BOM line
 * @parts:   catalog parts on the line (first: the facts shown)
 * @nparts:  how many
 * @cls:     the part class
 * @length:  stock length (cables), -1 otherwise
 * @qty:     quantity
 * @price:   unit price in cents, -1 unknown
 * @key:     part number, or the part name when it has none
 * @name:    name of the first part (last sort key)
 */
struct line {
	uint32_t *parts;
	uint32_t nparts;
	uint32_t cls;
	int64_t length;
	uint64_t qty;
	int64_t price;
	const char *key;
	const char *name;
};

struct bom {
	const struct rk_design *d;
	struct arena *a;
	struct line *lines;
	uint32_t nlines, cap;
	char **notes;
	uint32_t nnotes, notes_cap;
	uint64_t n_devices, n_racks, n_pdus, n_cdus, n_cables, n_xcvrs, n_cords;
};

static void note(struct bom *b, const char *fmt, ...) PRINTF(2, 3);
static void note(struct bom *b, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	*VEC_PUSH(b->notes, b->nnotes, b->notes_cap) = xstrdup(buf);
}

static void add(struct bom *b, uint32_t part, int64_t length, uint64_t qty)
{
	const struct rk_design *d = b->d;
	struct line *l;
	const char *pn;

	if (!qty)
		return;
	l = VEC_PUSH(b->lines, b->nlines, b->cap);
	l->parts = xmalloc(sizeof(*l->parts));
	l->parts[0] = part;
	l->nparts = 1;
	l->cls = d->objs[part].cls;
	l->length = length;
	l->qty = qty;
	l->price = ir_num(d, part, A_PRICE, -1);
	pn = ir_str(d, part, A_PART_NUMBER);
	l->key = pn ? pn : ir_name(d, part);
	l->name = ir_name(d, part);
}

static unsigned class_rank(uint32_t cls)
{
	for (unsigned i = 0; i < ARRAY_SIZE(class_order); i++)
		if (class_order[i] == cls)
			return i;
	return ARRAY_SIZE(class_order);
}

static int line_cmp(const void *pa, const void *pb)
{
	const struct line *x = pa, *y = pb;
	unsigned rx = class_rank(x->cls), ry = class_rank(y->cls);
	int c;

	if (rx != ry)
		return rx < ry ? -1 : 1;
	if ((c = strcmp(x->key, y->key)))
		return c;
	if (x->length != y->length)
		return x->length < y->length ? -1 : 1;
	if (x->price != y->price)
		return x->price < y->price ? -1 : 1;
	return strcmp(x->name, y->name);
}

static bool has_part_number(const struct rk_design *d, const struct line *l)
{
	return ir_str(d, l->parts[0], A_PART_NUMBER) != NULL;
}

/* Sort, then merge lines of one part number, length and price. */
static void finish_lines(struct bom *b)
{
	const struct rk_design *d = b->d;
	uint32_t m = 0;

	if (b->nlines)
		qsort(b->lines, b->nlines, sizeof(*b->lines), line_cmp);
	for (uint32_t i = 0; i < b->nlines; i++) {
		struct line *l = &b->lines[i], *p = m ? &b->lines[m - 1] : NULL;

		if (p && p->cls == l->cls && has_part_number(d, p) &&
		    has_part_number(d, l) && streq(p->key, l->key) &&
		    p->length == l->length) {
			if (p->price == l->price) {
				p->parts =
				    xrealloc(p->parts, (p->nparts + l->nparts) *
							   sizeof(*p->parts));
				memcpy(p->parts + p->nparts, l->parts,
				       l->nparts * sizeof(*l->parts));
				p->nparts += l->nparts;
				p->qty += l->qty;
				free(l->parts);
				continue;
			}
			note(b,
			     "part number %s has two prices (parts %s and "
			     "%s); listed twice",
			     l->key, ir_name(d, p->parts[0]),
			     ir_name(d, l->parts[0]));
		}
		b->lines[m++] = *l;
	}
	b->nlines = m;
}

/* IEC 60320: the cord connector that mates an appliance inlet, or NULL. */
static const char *mating_connector(const char *inlet, char buf[24])
{
	char *end;
	long n;

	if (!inlet || inlet[0] != 'C')
		return NULL;
	n = strtol(inlet + 1, &end, 10);
	if (*end || n < 2 || n > 99 || n % 2)
		return NULL;
	snprintf(buf, 24, "C%ld", n - 1);
	return buf;
}

/* The power-cord part for a connector form, or RK_NONE. */
static uint32_t cord_for(const struct rk_design *d, const char *conn)
{
	uint32_t best = RK_NONE;
	int64_t bp = -1;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];
		const char *media, *form;
		int64_t p;

		if (o->kind != K_PART || o->cls != C_CABLE)
			continue;
		media = ir_str(d, i, A_MEDIA);
		form = ir_str(d, i, A_FORM);
		if (!media || !streq(media, "power") || !form ||
		    !streq(form, conn))
			continue;
		p = ir_num(d, i, A_PRICE, -1);
		if (best != RK_NONE) {
			/* priced first, then cheaper, then by name */
			if ((p >= 0) != (bp >= 0)) {
				if (p < 0)
					continue;
			} else if (p != bp) {
				if (p > bp)
					continue;
			} else if (strcmp(ir_name(d, i), ir_name(d, best)) >=
				   0) {
				continue;
			}
		}
		best = i;
		bp = p;
	}
	return best;
}

/* Supplies wired by a device's `power` attributes. */
static uint64_t psus_wired(const struct rk_design *d, uint32_t dev)
{
	const struct rk_obj *o = &d->objs[dev];
	uint64_t n = 0;

	for (uint32_t k = 0; k < o->attr_count; k++) {
		const struct rk_attr *at = &d->attrs[o->attr_first + k];
		const struct rk_value *list;

		if (at->key != A_POWER || at->val.type != VT_PAIR)
			continue;
		list = &d->vals[at->val.a];
		if (list->type == VT_LIST)
			n += (uint64_t)list->n;
	}
	return n;
}

struct cord_inlet {
	uint32_t inlet; /* word id, 0: none */
	uint32_t cord;
	uint64_t qty;
};

static void count_cords(struct bom *b)
{
	const struct rk_design *d = b->d;
	struct cord_inlet *ci = NULL;
	uint32_t n = 0;
	uint32_t busbar = intern_find(d->arena, "busbar", 6);

	for (uint32_t dev = 0; dev < d->nobjs; dev++) {
		const struct rk_value *v;
		uint64_t w;
		uint32_t inlet, k;

		if (d->objs[dev].kind != K_DEVICE || !(w = psus_wired(d, dev)))
			continue;
		v = ir_attr_inh(d, dev, A_INLET);
		inlet = v && v->type == VT_WORD ? v->a : 0;
		for (k = 0; k < n && ci[k].inlet != inlet; k++)
			;
		if (k == n) {
			char buf[24];
			const char *conn =
			    inlet
				? mating_connector(str_of(d->arena, inlet), buf)
				: NULL;

			ci = xrealloc(ci, (size_t)(n + 1) * sizeof(*ci));
			ci[n].inlet = inlet;
			ci[n].cord = conn ? cord_for(d, conn) : RK_NONE;
			ci[n++].qty = 0;
		}
		ci[k].qty += w;
	}
	for (uint32_t k = 0; k < n; k++) {
		const char *in =
		    ci[k].inlet ? str_of(d->arena, ci[k].inlet) : NULL;

		if (ci[k].cord != RK_NONE) {
			add(b, ci[k].cord, -1, ci[k].qty);
			b->n_cords += ci[k].qty;
		} else if (ci[k].inlet && ci[k].inlet == busbar) {
			continue;
		} else if (!in) {
			note(b,
			     "%llu power cord%s not counted: the devices' "
			     "parts give no inlet",
			     (unsigned long long)ci[k].qty,
			     ci[k].qty == 1 ? "" : "s");
		} else {
			note(b,
			     "%llu power cord%s not counted: no power-cord "
			     "part in the catalog fits %s inlets",
			     (unsigned long long)ci[k].qty,
			     ci[k].qty == 1 ? "" : "s", in);
		}
	}
	free(ci);
}

static void count_all(struct bom *b, const struct cable_plan *p)
{
	const struct rk_design *d = b->d;
	uint64_t *dev = xcalloc((size_t)d->nobjs + 1, sizeof(*dev));
	uint64_t *rack = xcalloc((size_t)d->nobjs + 1, sizeof(*rack));
	uint64_t *door = xcalloc((size_t)d->nobjs + 1, sizeof(*door));
	int64_t *cut = xcalloc((size_t)d->nobjs + 1, sizeof(*cut));
	uint64_t *ncut = xcalloc((size_t)d->nobjs + 1, sizeof(*ncut));
	uint32_t no_catalog = 0, no_fit = 0, unknown = 0, no_xcvr = 0;
	char nb[CSV_NUM_MAX];

	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];
		const struct rk_value *v;

		if (o->kind == K_DEVICE && o->part != RK_NONE) {
			dev[o->part]++;
			b->n_devices++;
			b->n_pdus += o->cls == C_PDU;
			b->n_cdus += o->cls == C_CDU;
		} else if (o->kind == K_RACK && o->part != RK_NONE) {
			rack[o->part]++;
			b->n_racks++;
			v = ir_attr(d, i, A_RDHX);
			if (v && v->type == VT_OBJ)
				door[v->a]++;
		}
	}
	for (uint32_t i = 0; i < d->nobjs; i++) {
		add(b, i, -1, dev[i]);
		add(b, i, -1, rack[i]);
		add(b, i, -1, door[i]);
	}
	for (uint32_t i = 0; i < p->ncable_lines; i++) {
		add(b, p->cables[i].part, p->cables[i].length,
		    p->cables[i].qty);
		b->n_cables += p->cables[i].qty;
	}
	for (uint32_t i = 0; i < p->nxcvr_lines; i++)
		add(b, p->xcvrs[i].part, -1, p->xcvrs[i].qty);
	b->n_xcvrs = p->nxcvrs;
	for (uint32_t i = 0; i < d->nlinks; i++) {
		const struct cp_link *r = &p->links[i];

		no_catalog += r->status == CP_NO_CATALOG;
		no_fit += r->status == CP_NO_FIT;
		unknown += r->cable != RK_NONE && r->first_leg && r->stock < 0;
		no_xcvr += r->xcvr_missing != 0;
		if (r->cable != RK_NONE && r->first_leg && r->stock >= 0 &&
		    !ir_attr_inh(d, r->cable, A_LENGTHS)) {
			ncut[r->cable]++;
			if (!q_add(cut[r->cable], r->stock, &cut[r->cable]))
				cut[r->cable] = INT64_MIN;
		}
	}
	for (uint32_t i = 0; i < d->nobjs; i++)
		if (ncut[i] && cut[i] >= 0)
			note(b, "%s: %llu cable%s cut to length, %s m in all",
			     ir_name(d, i), (unsigned long long)ncut[i],
			     ncut[i] == 1 ? "" : "s", csv_metres(cut[i], nb));
	if (no_catalog)
		note(b, "%u link%s not cabled: the catalog has no cable parts",
		     no_catalog, no_catalog == 1 ? "" : "s");
	if (no_fit)
		note(b,
		     "%u link%s not cabled: no catalog cable fits (see "
		     "cable-reach)",
		     no_fit, no_fit == 1 ? "" : "s");
	if (unknown)
		note(b,
		     "%u cable%s of unknown or unstocked length (see "
		     "cable-length-unknown, cable-reach)",
		     unknown, unknown == 1 ? "" : "s");
	if (no_xcvr)
		note(b,
		     "%u link%s lack a transceiver that fits the forced "
		     "cable",
		     no_xcvr, no_xcvr == 1 ? "" : "s");
	count_cords(b);
	free(cut);
	free(ncut);
	free(dev);
	free(rack);
	free(door);
}

/* The part's `estimated` facts (itself, then its bases). */
static uint32_t estimates(const struct rk_design *d, uint32_t part,
			  const char **out, uint32_t max)
{
	uint32_t n = 0;

	for (uint32_t p = part; p != RK_NONE; p = d->objs[p].part) {
		const struct rk_obj *o = &d->objs[p];

		for (uint32_t k = 0; k < o->attr_count; k++) {
			const struct rk_attr *at = &d->attrs[o->attr_first + k];

			if (at->key == A_ESTIMATED && at->val.type == VT_STR &&
			    n < max)
				out[n++] = str_of(d->arena, at->val.a);
		}
	}
	return n;
}

static const char *part_names(struct bom *b, const struct line *l)
{
	const struct rk_design *d = b->d;
	size_t n = 1;
	char *s;

	for (uint32_t i = 0; i < l->nparts; i++)
		n += strlen(ir_name(d, l->parts[i])) + 2;
	s = arena_alloc(b->a, n);
	s[0] = '\0';
	for (uint32_t i = 0; i < l->nparts; i++) {
		if (i)
			strcat(s, "; ");
		strcat(s, ir_name(d, l->parts[i]));
	}
	return s;
}

/* Extended price in cents, or -1 (unknown or overflow). */
static int64_t extended(const struct line *l)
{
	int64_t e;

	if (l->price < 0 || l->qty > INT64_MAX ||
	    !q_mul(l->price, (int64_t)l->qty, &e))
		return -1;
	return e;
}

/*
 * The totals row of both files: the quantity, the lines without a price,
 * and the priced total (-1 when no line is priced or the sum overflows).
 */
struct totals {
	uint64_t qty;
	int64_t price;
	uint32_t unpriced;
};

static struct totals totals_of(const struct bom *b)
{
	struct totals t = { 0, 0, 0 };

	for (uint32_t i = 0; i < b->nlines; i++) {
		int64_t ext = extended(&b->lines[i]);

		t.qty += b->lines[i].qty;
		if (ext < 0)
			t.unpriced++;
		else if (t.price >= 0 && !q_add(t.price, ext, &t.price))
			t.price = -1;
	}
	if (t.unpriced == b->nlines)
		t.price = -1;
	return t;
}

#define MAX_EST 32

static bool write_csv(struct backend_ctx *ctx, struct bom *b)
{
	static const char *const cols[] = {
		"category",	  "part",
		"vendor",	  "model",
		"part_number",	  "description",
		"length_m",	  "quantity",
		"unit_price_usd", "extended_price_usd",
		"estimated",
	};
	const struct rk_design *d = b->d;
	FILE *fp = out_open(ctx, "bom.csv");
	struct csv w;
	struct totals t = totals_of(b);
	char nb[CSV_NUM_MAX];

	if (!fp)
		return false;
	csv_init(&w, fp);
	csv_header(&w, cols, ARRAY_SIZE(cols));
	for (uint32_t i = 0; i < b->nlines; i++) {
		const struct line *l = &b->lines[i];
		uint32_t part = l->parts[0];
		const char *est[MAX_EST];
		uint32_t ne = estimates(d, part, est, MAX_EST);
		int64_t ext = extended(l);
		char *joined;
		size_t jn = 1;

		csv_cell(&w, rk_class_name(l->cls));
		csv_cell(&w, part_names(b, l));
		csv_cell(&w, ir_str(d, part, A_VENDOR));
		csv_cell(&w, ir_str(d, part, A_MODEL));
		csv_cell(&w, ir_str(d, part, A_PART_NUMBER));
		csv_cell(&w, ir_str(d, part, A_DESCRIPTION));
		csv_cell(&w, l->length >= 0 ? csv_metres(l->length, nb) : NULL);
		csv_cell_u64(&w, l->qty);
		csv_cell(&w, l->price >= 0 ? csv_dollars(l->price, nb) : NULL);
		csv_cell(&w, ext >= 0 ? csv_dollars(ext, nb) : NULL);
		for (uint32_t k = 0; k < ne; k++)
			jn += strlen(est[k]) + 2;
		joined = xmalloc(jn);
		joined[0] = '\0';
		for (uint32_t k = 0; k < ne; k++) {
			if (k)
				strcat(joined, "; ");
			strcat(joined, est[k]);
		}
		csv_cell(&w, joined);
		free(joined);
		csv_end_row(&w);
	}
	csv_cell(&w, "total");
	for (int k = 0; k < 6; k++)
		csv_cell(&w, NULL);
	csv_cell_u64(&w, t.qty);
	csv_cell(&w, NULL);
	csv_cell(&w, t.price >= 0 ? csv_dollars(t.price, nb) : NULL);
	csv_cell(&w, NULL);
	csv_end_row(&w);
	csv_fini(&w);
	return out_close(ctx, fp);
}

static bool write_json(struct backend_ctx *ctx, struct bom *b)
{
	const struct rk_design *d = b->d;
	FILE *fp = out_open(ctx, "bom.json");
	struct totals t = totals_of(b);
	char nb[CSV_NUM_MAX];

	if (!fp)
		return false;
	fputs("{\n  \"design\": ", fp);
	be_json_str(fp, ctx->input);
	fputs(",\n  \"currency\": \"USD\",\n  \"lines\": [", fp);
	for (uint32_t i = 0; i < b->nlines; i++) {
		const struct line *l = &b->lines[i];
		uint32_t part = l->parts[0];
		const char *est[MAX_EST];
		uint32_t ne = estimates(d, part, est, MAX_EST);
		int64_t ext = extended(l);

		fputs(i ? ",\n    {" : "\n    {", fp);
		fputs("\"category\": ", fp);
		be_json_str(fp, rk_class_name(l->cls));
		fputs(", \"part\": ", fp);
		be_json_str(fp, part_names(b, l));
		fputs(", \"vendor\": ", fp);
		be_json_str(fp, ir_str(d, part, A_VENDOR));
		fputs(", \"model\": ", fp);
		be_json_str(fp, ir_str(d, part, A_MODEL));
		fputs(", \"part_number\": ", fp);
		be_json_str(fp, ir_str(d, part, A_PART_NUMBER));
		fputs(", \"description\": ", fp);
		be_json_str(fp, ir_str(d, part, A_DESCRIPTION));
		fprintf(fp, ", \"length_m\": %s",
			l->length >= 0 ? csv_metres(l->length, nb) : "null");
		fprintf(fp, ", \"quantity\": %llu", (unsigned long long)l->qty);
		fprintf(fp, ", \"unit_price_usd\": %s",
			l->price >= 0 ? csv_dollars(l->price, nb) : "null");
		fprintf(fp, ", \"extended_price_usd\": %s",
			ext >= 0 ? csv_dollars(ext, nb) : "null");
		fputs(", \"estimated\": [", fp);
		for (uint32_t k = 0; k < ne; k++) {
			if (k)
				fputs(", ", fp);
			be_json_str(fp, est[k]);
		}
		fputs("]}", fp);
	}
	fputs(b->nlines ? "\n  ],\n" : "],\n", fp);
	fprintf(fp,
		"  \"totals\": {\"lines\": %u, \"quantity\": %llu, "
		"\"priced_usd\": %s, \"unpriced_lines\": %u},\n",
		b->nlines, (unsigned long long)t.qty,
		t.price >= 0 ? csv_dollars(t.price, nb) : "null", t.unpriced);
	fprintf(fp,
		"  \"counts\": {\"devices\": %llu, \"racks\": %llu, "
		"\"pdus\": %llu, \"cdus\": %llu, \"cables\": %llu, "
		"\"transceivers\": %llu, \"power_cords\": %llu},\n",
		(unsigned long long)b->n_devices,
		(unsigned long long)b->n_racks, (unsigned long long)b->n_pdus,
		(unsigned long long)b->n_cdus, (unsigned long long)b->n_cables,
		(unsigned long long)b->n_xcvrs, (unsigned long long)b->n_cords);
	fputs("  \"notes\": [", fp);
	for (uint32_t i = 0; i < b->nnotes; i++) {
		fputs(i ? ",\n    " : "\n    ", fp);
		be_json_str(fp, b->notes[i]);
	}
	fputs(b->nnotes ? "\n  ]\n}\n" : "]\n}\n", fp);
	return out_close(ctx, fp);
}

static bool emit_bom(struct backend_ctx *ctx)
{
	struct bom b;
	const struct cable_plan *p;
	bool ok;

	memset(&b, 0, sizeof(b));
	b.d = ctx->d;
	b.a = ctx->arena;
	p = derived_cableplan(ctx->dv);
	count_all(&b, p);
	finish_lines(&b);
	ok = write_csv(ctx, &b) && write_json(ctx, &b);
	for (uint32_t i = 0; i < b.nlines; i++)
		free(b.lines[i].parts);
	free(b.lines);
	for (uint32_t i = 0; i < b.nnotes; i++)
		free(b.notes[i]);
	free(b.notes);
	return ok;
}

const struct backend backend_bom = {
	.name = "bom",
	.summary = "bom.csv and bom.json: the bill of materials, with prices "
		   "where the catalog has them",
	.emit = emit_bom,
	.needs = BE_NEEDS_PLAN,
};
