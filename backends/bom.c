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
 *   - assemblies: the devices a rack part's templates place in a rack of a
 *     part that says `assembly true` are that part's contents, listed
 *     right after its line (in_assembly), counted but not priced apart;
 *   - cables and transceivers from the cabling plan (src/analysis/cableplan.h): one
 *     cable per link (one per twin-port cable or splitter, which serves the
 *     links of a cage), one line per cable part and stock length, with the
 *     part number of that length (be_part_number); one module per twin-port
 *     cage, one per single cage;
 *   - power cords, one per wired power supply (`power psu[..] -> pdu`):
 *     the catalog part of class cable with media power whose `form` is the
 *     IEC 60320 connector that mates the device's `inlet` (C14 -> C13, C20
 *     -> C19, C22 -> C21; cheapest, then by name; a cord with a
 *     `far_form` only where that names the outlet's plug: the C20-to-C13
 *     cord of a C14 inlet on a C19 outlet).  A cord is never
 *     invented: a supply without an inlet, or whose inlet no catalog cord
 *     fits, gets none, and its part's line says so (missing); busbar-fed
 *     supplies need no cord.
 *
 * Lines are sorted by category (racks and rear doors, power, cooling,
 * compute, network, optics, cables), then part number (the part name when
 * it has none), then length; an assembly's contents follow it.  Parts that
 * share a part number (a derived part inherits its base's) and length and
 * price make one line ("one line per part number"); the part column then
 * names all of them.
 *
 * Prices: the catalog's `price` (USD), or the --prices list's entry for
 * the line's part number (its name without one), which wins (prices.h).
 * Spares: a site's `spares CATEGORY, PERCENT, MINIMUM` adds, after the
 * part lines, one "spare" line per line of that category: the larger of
 * the minimum and the percent of its quantity rounded up.
 *
 * Columns of bom.csv (csv.h rules): kind ("part", "content" of an
 * assembly, "spare"; "subtotal", "total"), category (the part class), part,
 * vendor, model, part_number, description, length_m (cables), quantity,
 * in_assembly, unit_price and extended_price (exact, two decimals; empty
 * when unknown), currency, price_source, missing (what the line lacks:
 * "part number", "inlet", "power cord", "price" when prices were given), estimated (the part's
 * `estimated` facts, joined with "; ").  Quantities are never summed
 * across lines; the last rows are one "subtotal" per category and
 * currency and one "total" per currency, of extended prices.
 *
 * bom.json holds the same lines (null for what is unknown; prices and
 * lengths as exact decimal numbers, missing and estimated as lists),
 * "subtotals", "totals", "counts", "warnings" (one per incomplete line,
 * naming the part and what it lacks) and "notes" (what the plan could not
 * do), keys in a fixed order.
 */
#include "rackc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "be_common.h"
#include "bom.h"
#include "cableplan.h"
#include "layout.h"
#include "metrics.h"
#include "csv.h"
#include "prices.h"
#include "schema.h"

/* Display order of the categories. */
static const enum rk_class class_order[] = {
	C_RACK,	  C_RDHX,	 C_PDU,	   C_POWER_SHELF, C_CDU,
	C_SERVER, C_SWITCH,	 C_DEVICE, C_GPU,	  C_CPU,
	C_NIC,	  C_TRANSCEIVER, C_CABLE,  C_NONE,
};

static void vnote(char ***v, uint32_t *n, uint32_t *cap, const char *fmt,
		  va_list ap) PRINTF(4, 0);
static void vnote(char ***v, uint32_t *n, uint32_t *cap, const char *fmt,
		  va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	*VEC_PUSH(*v, *n, *cap) = xstrdup(buf);
}

static void note(struct bom *b, const char *fmt, ...) PRINTF(2, 3);
static void note(struct bom *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(&b->notes, &b->nnotes, &b->notes_cap, fmt, ap);
	va_end(ap);
}

static void warn(struct bom *b, const char *fmt, ...) PRINTF(2, 3);
static void warn(struct bom *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(&b->warns, &b->nwarns, &b->warns_cap, fmt, ap);
	va_end(ap);
}

/* The line key of a part at a length: its part number, else its name. */
static const char *part_key(const struct rk_design *d, uint32_t part,
			    int64_t length, const char **pn)
{
	uint32_t id = be_part_number(d, part, length);

	*pn = id ? str_of(d->arena, id) : NULL;
	return *pn ? *pn : ir_name(d, part);
}

static void add_in(struct bom *b, uint32_t part, int64_t length, uint64_t qty,
		   uint32_t asm_part)
{
	const struct rk_design *d = b->d;
	struct bom_line *l;
	const char *apn;

	if (!qty)
		return;
	l = VEC_PUSH(b->lines, b->nlines, b->cap);
	memset(l, 0, sizeof(*l));
	l->parts = xmalloc(sizeof(*l->parts));
	l->parts[0] = part;
	l->nparts = 1;
	l->cls = d->objs[part].cls;
	l->length = length;
	l->qty = qty;
	l->price = asm_part == RK_NONE ? ir_num(d, part, A_PRICE, -1) : -1;
	if (l->price >= 0) {
		l->cur = "USD";
		l->psrc = "catalog";
	}
	l->key = part_key(d, part, length, &l->pn);
	l->name = ir_name(d, part);
	l->asm_part = asm_part;
	if (asm_part == RK_NONE) {
		l->gcls = l->cls;
		l->gkey = l->key;
	} else {
		l->gcls = d->objs[asm_part].cls;
		l->gkey = part_key(d, asm_part, -1, &apn);
	}
}

static void add(struct bom *b, uint32_t part, int64_t length, uint64_t qty)
{
	add_in(b, part, length, qty, RK_NONE);
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
	const struct bom_line *x = pa, *y = pb;
	unsigned rx = class_rank(x->gcls), ry = class_rank(y->gcls);
	int c;

	if (rx != ry)
		return rx < ry ? -1 : 1;
	if ((c = strcmp(x->gkey, y->gkey)))
		return c;
	if ((x->asm_part != RK_NONE) != (y->asm_part != RK_NONE))
		return x->asm_part == RK_NONE ? -1 : 1;
	if (x->asm_part != y->asm_part)
		return x->asm_part < y->asm_part ? -1 : 1;
	rx = class_rank(x->cls);
	ry = class_rank(y->cls);
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

/* Sort, then merge lines of one part number, length, price and assembly. */
static void finish_lines(struct bom *b)
{
	const struct rk_design *d = b->d;
	uint32_t m = 0;

	if (b->nlines)
		qsort(b->lines, b->nlines, sizeof(*b->lines), line_cmp);
	for (uint32_t i = 0; i < b->nlines; i++) {
		struct bom_line *l = &b->lines[i],
				*p = m ? &b->lines[m - 1] : NULL;

		if (p && p->cls == l->cls && p->pn && l->pn &&
		    streq(p->key, l->key) && p->length == l->length &&
		    p->asm_part == l->asm_part) {
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

/* What each line lacks (after merging). */
static void mark_missing(struct bom *b)
{
	for (uint32_t i = 0; i < b->nlines; i++) {
		struct bom_line *l = &b->lines[i];

		if (l->asm_part != RK_NONE)
			continue; /* comes with its assembly */
		if (!l->pn)
			l->missing |= MISS_PN;
		if (b->priced && l->price < 0)
			l->missing |= MISS_PRICE;
		for (uint32_t k = 0; k < l->nparts; k++) {
			uint32_t p = l->parts[k];

			if (b->no_inlet[p])
				l->missing |= MISS_INLET;
			if (b->no_cord[p])
				l->missing |= MISS_CORD;
			l->cords += b->no_inlet[p] + b->no_cord[p];
			l->on_c19 += b->on_c19[p];
		}
	}
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

/*
 * The power-cord part for a connector form, or RK_NONE: @far names the
 * plug at the PDU end (a cord's far_form, "C20" for a C20-to-C13 cord),
 * NULL for a cord whose two ends mate one outlet type (no far_form).
 */
static uint32_t cord_for(const struct rk_design *d, const char *conn,
			 const char *far)
{
	uint32_t best = RK_NONE;
	int64_t bp = -1;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];
		const char *media, *form, *ff;
		int64_t p;

		if (o->kind != K_PART || o->cls != C_CABLE)
			continue;
		media = ir_str(d, i, A_MEDIA);
		form = ir_str(d, i, A_FORM);
		ff = ir_str(d, i, A_FAR_FORM);
		if (!media || !streq(media, "power") || !form ||
		    !streq(form, conn))
			continue;
		if (far ? !ff || !streq(ff, far) : ff != NULL)
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

/*
 * Supplies of @dev (C14 inlets) that plug into C19 outlets, as
 * power-outlets places them: a PDU that gives its outlet counts takes C14
 * inlets on its C13 outlets first (@used13 counts those taken, per PDU,
 * devices in declaration order) and the rest on C19 outlets, with a
 * C20-to-C13 cord (form C13, far_form C20) that a catalog C13-to-C14
 * cord is not; without such a catalog cord, none is counted.
 */
static uint64_t c14_on_c19(const struct rk_design *d, uint32_t dev,
			   int64_t *used13)
{
	const struct rk_obj *o = &d->objs[dev];
	uint64_t n = 0;

	for (uint32_t k = 0; k < o->attr_count; k++) {
		const struct rk_attr *at = &d->attrs[o->attr_first + k];
		const struct rk_value *list, *pdu;
		int64_t w, free13;

		if (at->key != A_POWER || at->val.type != VT_PAIR)
			continue;
		list = &d->vals[at->val.a];
		pdu = &d->vals[at->val.a + 1];
		if (list->type != VT_LIST || pdu->type != VT_OBJ ||
		    d->objs[pdu->a].cls != C_PDU ||
		    (!ir_attr_inh(d, pdu->a, A_OUTLETS_C13) &&
		     !ir_attr_inh(d, pdu->a, A_OUTLETS_C19)))
			continue;
		w = (int64_t)list->n;
		free13 = ir_num(d, pdu->a, A_OUTLETS_C13, 0) - used13[pdu->a];
		if (free13 < 0)
			free13 = 0;
		used13[pdu->a] += w < free13 ? w : free13;
		n += (uint64_t)(w - (w < free13 ? w : free13));
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
	uint32_t c14 = intern_find(d->arena, "C14", 3);
	int64_t *used13 = xcalloc((size_t)d->nobjs + 1, sizeof(*used13));
	/* the C20-to-C13 cord of C14 inlets on C19 outlets, if any */
	uint32_t c20c13 = cord_for(d, "C13", "C20");
	uint64_t n20 = 0;

	for (uint32_t dev = 0; dev < d->nobjs; dev++) {
		const struct rk_value *v;
		uint64_t w;
		uint32_t inlet, k;

		if (d->objs[dev].kind != K_DEVICE || !(w = psus_wired(d, dev)))
			continue;
		v = ir_attr_inh(d, dev, A_INLET);
		inlet = v && v->type == VT_WORD ? v->a : 0;
		if (inlet && inlet == c14) {
			uint64_t x = c14_on_c19(d, dev, used13);

			if (c20c13 != RK_NONE) {
				n20 += x;
			} else {
				b->no_cord[d->objs[dev].part] += x;
				b->on_c19[d->objs[dev].part] += x;
			}
			w -= x;
			if (!w)
				continue;
		}
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
			ci[n].cord = conn ? cord_for(d, conn, NULL) : RK_NONE;
			ci[n++].qty = 0;
		}
		ci[k].qty += w;
		if (ci[k].cord == RK_NONE && !inlet)
			b->no_inlet[d->objs[dev].part] += w;
		else if (ci[k].cord == RK_NONE && inlet != busbar)
			b->no_cord[d->objs[dev].part] += w;
	}
	for (uint32_t k = 0; k < n; k++) {
		if (ci[k].cord != RK_NONE) {
			add(b, ci[k].cord, -1, ci[k].qty);
			b->n_cords += ci[k].qty;
		}
	}
	if (n20) {
		add(b, c20c13, -1, n20);
		b->n_cords += n20;
	}
	free(ci);
	free(used13);
}

static void count_content(struct content **in, uint32_t *n, uint32_t *cap,
			  uint32_t asm_part, uint32_t part)
{
	struct content *c;

	/* few distinct pairs: the last one matches most of the time */
	for (uint32_t k = *n; k-- > 0;)
		if ((*in)[k].asm_part == asm_part && (*in)[k].part == part) {
			(*in)[k].qty++;
			return;
		}
	c = VEC_PUSH(*in, *n, *cap);
	c->asm_part = asm_part;
	c->part = part;
	c->qty = 1;
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
	struct content *in = NULL;
	uint32_t nin = 0, in_cap = 0;
	char nb[CSV_NUM_MAX];

	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];
		const struct rk_value *v;

		if (o->kind == K_DEVICE && o->part != RK_NONE) {
			uint32_t ap = layout_assembly_of(d, i);

			b->n_devices++;
			b->n_pdus += o->cls == C_PDU;
			b->n_cdus += o->cls == C_CDU;
			if (ap != RK_NONE) {
				count_content(&in, &nin, &in_cap, ap, o->part);
				continue;
			}
			dev[o->part]++;
		} else if (o->kind == K_RACK && o->part != RK_NONE) {
			rack[o->part]++;
			b->n_racks++;
			v = ir_attr(d, i, A_RDHX);
			if (v && v->type == VT_OBJ)
				door[v->a]++;
		}
	}
	for (uint32_t i = 0; i < nin; i++)
		add_in(b, in[i].part, -1, in[i].qty, in[i].asm_part);
	free(in);
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

	for_each_base(d, p, part) {
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

const char *bom_part_names(struct bom *b, const struct bom_line *l)
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
int64_t bom_extended(const struct bom_line *l)
{
	int64_t e;

	if (l->price < 0 || l->qty > INT64_MAX ||
	    !q_mul(l->price, (int64_t)l->qty, &e))
		return -1;
	return e;
}

static void sum_add(struct totals *t, uint32_t cls, const char *cur, int64_t v)
{
	struct sum *x = NULL;

	for (uint32_t i = 0; i < t->n; i++)
		if (t->s[i].cls == cls && streq(t->s[i].cur, cur))
			x = &t->s[i];
	if (!x) {
		x = VEC_PUSH(t->s, t->n, t->cap);
		x->cls = cls;
		x->cur = cur;
		x->total = 0;
	}
	if (x->total >= 0 && !q_add(x->total, v, &x->total))
		x->total = -1;
}

static int sum_cmp(const void *pa, const void *pb)
{
	const struct sum *x = pa, *y = pb;
	unsigned rx = x->cls == C__COUNT ? 99 : class_rank(x->cls);
	unsigned ry = y->cls == C__COUNT ? 99 : class_rank(y->cls);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x->cur, y->cur);
}

struct totals bom_totals(const struct bom *b)
{
	struct totals t;

	memset(&t, 0, sizeof(t));
	for (uint32_t i = 0; i < b->nlines; i++) {
		const struct bom_line *l = &b->lines[i];
		int64_t ext = bom_extended(l);

		if (l->asm_part != RK_NONE)
			continue;
		if (ext < 0) {
			t.unpriced++;
			continue;
		}
		sum_add(&t, l->cls, l->cur, ext);
		sum_add(&t, C__COUNT, l->cur, ext);
	}
	if (t.n)
		qsort(t.s, t.n, sizeof(*t.s), sum_cmp);
	return t;
}

/* What a line lacks, as words joined by "; " (NULL: nothing). */
const char *bom_missing_text(struct bom *b, const struct bom_line *l)
{
	static const char *const what[] = { "part number", "inlet",
					    "power cord", "price" };
	char *s = arena_alloc(b->a, 64);

	s[0] = '\0';
	for (unsigned k = 0; k < ARRAY_SIZE(what); k++)
		if (l->missing & (1u << k)) {
			if (s[0])
				strcat(s, "; ");
			strcat(s, what[k]);
		}
	return s[0] ? s : NULL;
}

/* One warning per incomplete line, naming the part and what it lacks. */
static void warn_missing(struct bom *b)
{
	const struct rk_design *d = b->d;
	char nb[CSV_NUM_MAX];

	for (uint32_t i = 0; i < b->nlines; i++) {
		const struct bom_line *l = &b->lines[i];
		char len[CSV_NUM_MAX + 16] = "";

		if (!l->missing || l->spare)
			continue;
		if (l->length >= 0)
			snprintf(len, sizeof(len), " at %s m",
				 csv_metres(l->length, nb));
		if (l->missing & MISS_PN)
			warn(b, "%s (%s%s): no part number%s", l->name,
			     rk_class_name(l->cls), len,
			     ir_attr_inh(d, l->parts[0], A_PART_NUMBERS)
				 ? " for this length"
				 : "");
		if (l->missing & MISS_INLET)
			warn(b,
			     "%s (%s): no inlet, so %llu power cord%s not "
			     "counted",
			     l->name, rk_class_name(l->cls),
			     (unsigned long long)l->cords,
			     l->cords == 1 ? "" : "s");
		if ((l->missing & MISS_CORD) && l->on_c19 < l->cords)
			warn(b,
			     "%s (%s): no catalog power cord fits its %s "
			     "inlet, so %llu cord%s not counted",
			     l->name, rk_class_name(l->cls),
			     ir_str(d, l->parts[0], A_INLET),
			     (unsigned long long)(l->cords - l->on_c19),
			     l->cords - l->on_c19 == 1 ? "" : "s");
		if (l->on_c19)
			warn(b,
			     "%s (%s): %llu C14 inlet%s on C19 outlets (their "
			     "PDUs' C13 outlets are taken) need C20-to-C13 "
			     "cords (form C13, far_form C20), which no catalog "
			     "part is, so %s not "
			     "counted",
			     l->name, rk_class_name(l->cls),
			     (unsigned long long)l->on_c19,
			     l->on_c19 == 1 ? "" : "s",
			     l->on_c19 == 1 ? "it is" : "they are");
		if (l->missing & MISS_PRICE)
			warn(b, "%s (%s%s): no price", l->name,
			     rk_class_name(l->cls), len);
	}
}

#define MAX_EST 32

const char *bom_estimates_text(const struct rk_design *d, uint32_t part,
			       struct arena *a)
{
	const char *est[MAX_EST];
	uint32_t ne = estimates(d, part, est, MAX_EST);
	size_t jn = 1;
	char *joined;

	if (!ne)
		return NULL;
	for (uint32_t k = 0; k < ne; k++)
		jn += strlen(est[k]) + 2;
	joined = arena_alloc(a, jn);
	joined[0] = '\0';
	for (uint32_t k = 0; k < ne; k++) {
		if (k)
			strcat(joined, "; ");
		strcat(joined, est[k]);
	}
	return joined;
}

/* The kind column: part, content (of an assembly) or spare. */
const char *bom_line_kind(const struct bom_line *l)
{
	return l->spare ? "spare" : l->asm_part != RK_NONE ? "content" : "part";
}

static bool write_csv(struct backend_ctx *ctx, struct bom *b,
		      const struct totals *t)
{
	static const char *const cols[] = {
		"kind",	    "category",	    "part",	   "vendor",
		"model",    "part_number",  "description", "length_m",
		"quantity", "in_assembly",  "unit_price",  "extended_price",
		"currency", "price_source", "missing",	   "estimated",
	};
	const struct rk_design *d = b->d;
	FILE *fp = out_open(ctx, "bom.csv");
	struct csv w;
	char nb[CSV_NUM_MAX];

	if (!fp)
		return false;
	csv_init(&w, fp);
	csv_header(&w, cols, ARRAY_SIZE(cols));
	for (uint32_t i = 0; i < b->nlines; i++) {
		const struct bom_line *l = &b->lines[i];
		uint32_t part = l->parts[0];
		int64_t ext = bom_extended(l);

		csv_cell(&w, bom_line_kind(l));
		csv_cell(&w, rk_class_name(l->cls));
		csv_cell(&w, bom_part_names(b, l));
		csv_cell(&w, ir_str(d, part, A_VENDOR));
		csv_cell(&w, ir_str(d, part, A_MODEL));
		csv_cell(&w, l->pn);
		csv_cell(&w, ir_str(d, part, A_DESCRIPTION));
		csv_cell(&w, l->length >= 0 ? csv_metres(l->length, nb) : NULL);
		csv_cell_u64(&w, l->qty);
		csv_cell(&w, l->asm_part != RK_NONE ? l->gkey : NULL);
		csv_cell(&w, l->price >= 0 ? csv_dollars(l->price, nb) : NULL);
		csv_cell(&w, ext >= 0 ? csv_dollars(ext, nb) : NULL);
		csv_cell(&w, l->cur);
		csv_cell(&w, l->psrc);
		csv_cell(&w, bom_missing_text(b, l));
		csv_cell(&w, bom_estimates_text(d, part, b->a));
		csv_end_row(&w);
	}
	for (uint32_t i = 0; i < t->n; i++) {
		const struct sum *x = &t->s[i];
		bool grand = x->cls == C__COUNT;

		csv_cell(&w, grand ? "total" : "subtotal");
		csv_cell(&w, grand ? NULL : rk_class_name(x->cls));
		for (int k = 0; k < 9; k++)
			csv_cell(&w, NULL);
		csv_cell(&w, x->total >= 0 ? csv_dollars(x->total, nb) : NULL);
		csv_cell(&w, x->cur);
		for (int k = 0; k < 3; k++)
			csv_cell(&w, NULL);
		csv_end_row(&w);
	}
	csv_fini(&w);
	return out_close(ctx, fp);
}

static void json_sums(FILE *fp, const struct totals *t, bool grand)
{
	char nb[CSV_NUM_MAX];
	bool first = true;

	fputs("[", fp);
	for (uint32_t i = 0; i < t->n; i++) {
		const struct sum *x = &t->s[i];

		if ((x->cls == C__COUNT) != grand)
			continue;
		fputs(first ? "" : ", ", fp);
		first = false;
		fputs("{", fp);
		if (!grand) {
			fputs("\"category\": ", fp);
			be_json_str(fp, rk_class_name(x->cls));
			fputs(", ", fp);
		}
		fputs("\"currency\": ", fp);
		be_json_str(fp, x->cur);
		fprintf(fp, ", \"extended_price\": %s}",
			x->total >= 0 ? csv_dollars(x->total, nb) : "null");
	}
	fputs("]", fp);
}

static void json_strs(FILE *fp, char **v, uint32_t n)
{
	fputs("[", fp);
	for (uint32_t i = 0; i < n; i++) {
		fputs(i ? ",\n    " : "\n    ", fp);
		be_json_str(fp, v[i]);
	}
	fputs(n ? "\n  ]" : "]", fp);
}

static bool write_json(struct backend_ctx *ctx, struct bom *b,
		       const struct totals *t)
{
	const struct rk_design *d = b->d;
	FILE *fp = out_open(ctx, "bom.json");
	char nb[CSV_NUM_MAX];

	if (!fp)
		return false;
	fputs("{\n  \"design\": ", fp);
	be_json_str(fp, ctx->input);
	fputs(",\n  \"lines\": [", fp);
	for (uint32_t i = 0; i < b->nlines; i++) {
		const struct bom_line *l = &b->lines[i];
		uint32_t part = l->parts[0];
		const char *est[MAX_EST];
		uint32_t ne = estimates(d, part, est, MAX_EST);
		int64_t ext = bom_extended(l);
		bool first = true;

		fputs(i ? ",\n    {" : "\n    {", fp);
		fputs("\"kind\": ", fp);
		be_json_str(fp, bom_line_kind(l));
		fputs(", \"category\": ", fp);
		be_json_str(fp, rk_class_name(l->cls));
		fputs(", \"part\": ", fp);
		be_json_str(fp, bom_part_names(b, l));
		fputs(", \"vendor\": ", fp);
		be_json_str(fp, ir_str(d, part, A_VENDOR));
		fputs(", \"model\": ", fp);
		be_json_str(fp, ir_str(d, part, A_MODEL));
		fputs(", \"part_number\": ", fp);
		be_json_str(fp, l->pn);
		fputs(", \"description\": ", fp);
		be_json_str(fp, ir_str(d, part, A_DESCRIPTION));
		fprintf(fp, ", \"length_m\": %s",
			l->length >= 0 ? csv_metres(l->length, nb) : "null");
		fprintf(fp, ", \"quantity\": %llu", (unsigned long long)l->qty);
		fputs(", \"in_assembly\": ", fp);
		be_json_str(fp, l->asm_part != RK_NONE ? l->gkey : NULL);
		fprintf(fp, ", \"unit_price\": %s",
			l->price >= 0 ? csv_dollars(l->price, nb) : "null");
		fprintf(fp, ", \"extended_price\": %s",
			ext >= 0 ? csv_dollars(ext, nb) : "null");
		fputs(", \"currency\": ", fp);
		be_json_str(fp, l->cur);
		fputs(", \"price_source\": ", fp);
		be_json_str(fp, l->psrc);
		fputs(", \"missing\": [", fp);
		for (unsigned k = 0; k < 4; k++)
			if (l->missing & (1u << k)) {
				static const char *const w[] = { "part_number",
								 "inlet",
								 "power_cord",
								 "price" };

				fputs(first ? "" : ", ", fp);
				first = false;
				be_json_str(fp, w[k]);
			}
		fputs("], \"estimated\": [", fp);
		for (uint32_t k = 0; k < ne; k++) {
			if (k)
				fputs(", ", fp);
			be_json_str(fp, est[k]);
		}
		fputs("]}", fp);
	}
	fputs(b->nlines ? "\n  ],\n" : "],\n", fp);
	fputs("  \"subtotals\": ", fp);
	json_sums(fp, t, false);
	fprintf(fp,
		",\n  \"totals\": {\"lines\": %u, \"unpriced_lines\": %u, "
		"\"by_currency\": ",
		b->nlines, t->unpriced);
	json_sums(fp, t, true);
	fputs("},\n", fp);
	fprintf(fp,
		"  \"counts\": {\"devices\": %llu, \"racks\": %llu, "
		"\"pdus\": %llu, \"cdus\": %llu, \"cables\": %llu, "
		"\"transceivers\": %llu, \"power_cords\": %llu},\n",
		(unsigned long long)b->n_devices,
		(unsigned long long)b->n_racks, (unsigned long long)b->n_pdus,
		(unsigned long long)b->n_cdus, (unsigned long long)b->n_cables,
		(unsigned long long)b->n_xcvrs, (unsigned long long)b->n_cords);
	fputs("  \"warnings\": ", fp);
	json_strs(fp, b->warns, b->nwarns);
	fputs(",\n  \"notes\": ", fp);
	json_strs(fp, b->notes, b->nnotes);
	fputs("\n}\n", fp);
	return out_close(ctx, fp);
}

/* Prices from the user's list, by part number (or name without one). */
static void apply_prices(struct bom *b, const struct price_list *pl)
{
	for (uint32_t i = 0; i < b->nlines; i++) {
		struct bom_line *l = &b->lines[i];
		const struct price *p;

		if (l->asm_part != RK_NONE)
			continue;
		p = prices_find(pl, l->pn ? l->pn : l->name);
		if (!p)
			continue;
		l->price = p->cents;
		/* the list is freed when the BOM is built: its strings live on
		 * in the arena (the key and source are there already) */
		l->cur = arena_strndup(b->a, p->currency, 3);
		l->psrc = p->source;
	}
}

/*
 * The design's spares policies: `spares CATEGORY, PERCENT, MINIMUM` on its
 * sites, the first one of each category in declaration order (a later
 * one that differs is noted and ignored).
 */
static void read_policies(struct bom *b)
{
	const struct rk_design *d = b->d;

	for (unsigned c = 0; c < C__COUNT; c++)
		b->spares[c].ppm = -1;
	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];

		if (o->kind != K_SITE)
			continue;
		for (uint32_t k = 0; k < o->attr_count; k++) {
			const struct rk_attr *at = &d->attrs[o->attr_first + k];
			const struct rk_value *v;
			const char *cat;
			struct policy *p = NULL;

			if (at->key != A_SPARES || at->val.type != VT_LIST ||
			    at->val.n != 3)
				continue;
			v = &d->vals[at->val.a];
			cat = str_of(d->arena, v[0].a);
			for (unsigned c = 0; c < C__COUNT; c++)
				if (streq(cat, rk_class_name((enum rk_class)c)))
					p = &b->spares[c];
			if (!p)
				continue;
			if (p->ppm < 0) {
				p->ppm = v[1].n;
				p->min = v[2].n;
			} else if (p->ppm != v[1].n || p->min != v[2].n) {
				note(b,
				     "spares %s: %s gives another policy; the "
				     "first one is used",
				     cat, ir_name(d, i));
			}
		}
	}
}

/* Spares of a line of @qty: the policy's share rounded up, at least its
 * minimum (0: none, or too many to count). */
static uint64_t spares_of(const struct policy *p, uint64_t qty)
{
	int64_t n;

	if (p->ppm < 0 || qty > INT64_MAX || !q_mul((int64_t)qty, p->ppm, &n) ||
	    !q_add(n, 999999, &n))
		return 0;
	n /= 1000000;
	return (uint64_t)(n > p->min ? n : p->min);
}

/* One spares line after the part lines for every line of a category
 * with a policy (contents of assemblies come with them: none). */
static void add_spares(struct bom *b)
{
	uint32_t n = b->nlines;

	for (uint32_t i = 0; i < n; i++) {
		const struct bom_line *l = &b->lines[i];
		uint64_t q;
		struct bom_line *s;

		if (l->asm_part != RK_NONE || l->cls >= C__COUNT)
			continue;
		q = spares_of(&b->spares[l->cls], l->qty);
		if (!q)
			continue;
		s = VEC_PUSH(b->lines, b->nlines, b->cap);
		l = &b->lines[i];
		*s = *l;
		s->parts = xmalloc(l->nparts * sizeof(*s->parts));
		memcpy(s->parts, l->parts, l->nparts * sizeof(*s->parts));
		s->qty = q;
		s->spare = true;
	}
}

bool bom_build(struct backend_ctx *ctx, struct bom *b)
{
	struct price_list pl = { NULL, 0 };
	const struct cable_plan *p;

	memset(b, 0, sizeof(*b));
	b->d = ctx->d;
	b->a = ctx->arena;
	b->priced = ctx->prices != NULL;
	if (b->priced && !prices_load(ctx, ctx->prices, &pl))
		return false;
	p = derived_cableplan(ctx->dv);
	b->no_inlet = xcalloc((size_t)b->d->nobjs + 1, sizeof(*b->no_inlet));
	b->no_cord = xcalloc((size_t)b->d->nobjs + 1, sizeof(*b->no_cord));
	b->on_c19 = xcalloc((size_t)b->d->nobjs + 1, sizeof(*b->on_c19));
	read_policies(b);
	count_all(b, p);
	finish_lines(b);
	apply_prices(b, &pl);
	mark_missing(b);
	add_spares(b);
	warn_missing(b);
	free(pl.v);
	return true;
}

void bom_free(struct bom *b)
{
	for (uint32_t i = 0; i < b->nlines; i++)
		free(b->lines[i].parts);
	free(b->lines);
	for (uint32_t i = 0; i < b->nnotes; i++)
		free(b->notes[i]);
	free(b->notes);
	for (uint32_t i = 0; i < b->nwarns; i++)
		free(b->warns[i]);
	free(b->warns);
	free(b->no_inlet);
	free(b->no_cord);
	free(b->on_c19);
}

static bool emit_bom(struct backend_ctx *ctx)
{
	struct bom b;
	struct totals t;
	bool ok;

	if (!bom_build(ctx, &b))
		return false;
	t = bom_totals(&b);
	ok = write_csv(ctx, &b, &t) && write_json(ctx, &b, &t);
	free(t.s);
	bom_free(&b);
	return ok;
}

const struct backend backend_bom = {
	.name = "bom",
	.summary = "bom.csv and bom.json: the bill of materials, with prices "
		   "where the catalog has them",
	.emit = emit_bom,
	.preflight = emit_bom, /* --check: a bad --prices list */
	.needs = BE_NEEDS_PLAN,
};
