/* SPDX-License-Identifier: MIT */
/*
 * Rack space and weight: where devices sit in their racks, whether they
 * fit, and whether the rack can carry them.
 *
 *   rack-placement  a device with a height placed with `at` is in no rack,
 *                   or `at` is below U1
 *   rack-unplaced   a device with a height is in a rack but has no `at`
 *   rack-overlap    two devices share a rack unit
 *   rack-overflow   a device reaches past the rack's usable height
 *   rack-depth      a device is deeper than its rack
 *   rack-weight     the devices in a rack weigh more than its static load
 *                   rating (max_load of the rack part)
 *
 * Every check makes one pass over the objects to group the devices by rack
 * (struct layout_racks of layout.h, a compressed per-rack array); overlap
 * then sorts each rack's placed devices by U and sweeps them once, so the whole family is
 * O(n log n) in the number of devices.  Devices with an `at` below 1 are
 * left to rack-placement and skipped by the checks that need a valid U.
 */
#include "rackc.h"
#include "arith.h"

#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "layout.h"
#include "schema.h"

/* The object that carries @key for @obj (itself, its part or a base). */
static uint32_t attr_owner(const struct rk_design *d, uint32_t obj,
			   uint32_t key)
{
	for_each_base(d, p, obj)
		if (ir_attr(d, p, key))
			return p;
	return RK_NONE;
}

/* Location of an inherited attribute's value, or of @obj itself. */
static const struct srcloc *attr_loc(const struct rk_design *d, uint32_t obj,
				     uint32_t key)
{
	const struct rk_value *v = ir_attr_inh(d, obj, key);

	return v ? &v->loc : &d->objs[obj].loc;
}

static void run_rack_placement(struct check_ctx *c)
{
	const struct rk_design *d = c->d;

	for (uint32_t i = 0; i < d->nobjs && !check_stop(c); i++) {
		const struct rk_value *at;
		int64_t h;

		if (d->objs[i].kind != K_DEVICE)
			continue;
		at = ir_attr(d, i, A_AT);
		if (!at || at->type != VT_NUM)
			continue;
		h = layout_height_u(d, i);
		if (at->n < 1) {
			check_fail(c, i, &at->loc,
				   "%s is placed at U%lld, below the lowest "
				   "rack unit U1",
				   ir_name(d, i), (long long)at->n);
			continue;
		}
		if (h > 0 && layout_rack_of(d, i) == RK_NONE) {
			check_fail(c, i, &d->objs[i].loc,
				   "%s is placed at U%lld but is in no rack",
				   ir_name(d, i), (long long)at->n);
			check_note(c, &at->loc,
				   "placed here; give it a rack with "
				   "'rack NAME' or declare it in a rack");
		}
	}
}

static void run_rack_unplaced(struct check_ctx *c)
{
	const struct rk_design *d = c->d;

	for (uint32_t i = 0; i < d->nobjs && !check_stop(c); i++) {
		uint32_t rack;
		int64_t h;

		if (d->objs[i].kind != K_DEVICE || ir_attr(d, i, A_AT))
			continue;
		h = layout_height_u(d, i);
		if (h <= 0)
			continue;
		rack = layout_rack_of(d, i);
		if (rack == RK_NONE)
			continue;
		check_fail(c, i, &d->objs[i].loc,
			   "%s (%lldU) is in rack %s but has no 'at'",
			   ir_name(d, i), (long long)h, ir_name(d, rack));
	}
}

/* A placed device: lowest and highest U it occupies. */
struct placed {
	int64_t lo, hi;
	uint32_t dev;
};

static int placed_cmp(const void *pa, const void *pb)
{
	const struct placed *a = pa, *b = pb;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return a->dev < b->dev ? -1 : a->dev > b->dev;
}

/* Placed devices of a rack with a valid U and a height, sorted by U. */
static uint32_t rack_placed(const struct rk_design *d,
			    const struct layout_racks *ri, uint32_t rack,
			    struct placed *out)
{
	uint32_t n = 0;

	for (uint32_t k = ri->first[rack]; k < ri->first[rack + 1]; k++) {
		uint32_t dev = ri->devs[k];
		int64_t at = layout_at(d, dev), h = layout_height_u(d, dev);

		if (at < 1 || h <= 0)
			continue;
		out[n].lo = at;
		out[n].hi = h > INT64_MAX - at ? INT64_MAX : at + h - 1;
		out[n].dev = dev;
		n++;
	}
	qsort(out, n, sizeof(*out), placed_cmp);
	return n;
}

/* "U5" or "U5-U12" */
static const char *urange(int64_t lo, int64_t hi, char buf[static 48])
{
	if (lo == hi)
		snprintf(buf, 48, "U%lld", (long long)lo);
	else
		snprintf(buf, 48, "U%lld-U%lld", (long long)lo, (long long)hi);
	return buf;
}

static void note_span(struct check_ctx *c, const struct placed *p)
{
	const struct rk_design *d = c->d;
	char b[48];

	check_note(c, attr_loc(d, p->dev, A_AT),
		   "%s (%s, %lldU) at U%lld occupies %s", ir_name(d, p->dev),
		   check_part_name(d, p->dev), (long long)(p->hi - p->lo + 1),
		   (long long)p->lo, urange(p->lo, p->hi, b));
}

static void run_rack_overlap(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	struct layout_racks ri;
	struct placed *buf;

	layout_racks_build(d, &ri);
	buf = xmalloc(((size_t)ri.max + 1) * sizeof(*buf));
	for (uint32_t r = 0; r < d->nobjs && !check_stop(c); r++) {
		uint32_t n, cover;

		if (d->objs[r].kind != K_RACK || ri.first[r] == ri.first[r + 1])
			continue;
		n = rack_placed(d, &ri, r, buf);
		/* cover: the device reaching highest among those seen */
		cover = 0;
		for (uint32_t k = 1; k < n && !check_stop(c); k++) {
			const struct placed *p = &buf[k], *q = &buf[cover];

			if (p->lo <= q->hi) {
				int64_t top = p->hi < q->hi ? p->hi : q->hi;
				char b[48];

				check_fail(
				    c, p->dev, &d->objs[p->dev].loc,
				    "%s overlaps %s at %s in rack %s",
				    ir_name(d, p->dev), ir_name(d, q->dev),
				    urange(p->lo, top, b), ir_name(d, r));
				note_span(c, p);
				note_span(c, q);
			}
			if (p->hi > q->hi)
				cover = k;
		}
	}
	free(buf);
	layout_racks_free(&ri);
}

static void run_rack_overflow(struct check_ctx *c)
{
	const struct rk_design *d = c->d;

	for (uint32_t i = 0; i < d->nobjs && !check_stop(c); i++) {
		struct placed p;
		uint32_t rack;
		int64_t units, at, h;

		if (d->objs[i].kind != K_DEVICE)
			continue;
		at = layout_at(d, i);
		h = layout_height_u(d, i);
		if (at < 1 || h <= 0)
			continue;
		rack = layout_rack_of(d, i);
		if (rack == RK_NONE)
			continue;
		units = layout_rack_units(d, rack);
		p.lo = at;
		p.hi = h > INT64_MAX - at ? INT64_MAX : at + h - 1;
		p.dev = i;
		if (units <= 0 || p.hi <= units)
			continue;
		check_fail(c, i, &d->objs[i].loc,
			   "%s reaches U%lld, %lldU past the top of rack %s",
			   ir_name(d, i), (long long)p.hi,
			   (long long)(p.hi - units), ir_name(d, rack));
		note_span(c, &p);
		check_note(c, attr_loc(d, rack, A_HEIGHT),
			   "rack %s (%s) has %lldU usable", ir_name(d, rack),
			   check_part_name(d, rack), (long long)units);
	}
}

static void run_rack_depth(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	char b1[RK_QFMT_MAX], b2[RK_QFMT_MAX];

	for (uint32_t i = 0; i < d->nobjs && !check_stop(c); i++) {
		uint32_t rack;
		int64_t dd, rd;

		if (d->objs[i].kind != K_DEVICE)
			continue;
		dd = ir_num(d, i, A_DEPTH, 0);
		if (dd <= 0)
			continue;
		rack = layout_rack_of(d, i);
		if (rack == RK_NONE)
			continue;
		rd = ir_num(d, rack, A_DEPTH, 0);
		if (rd <= 0 || dd <= rd)
			continue;
		check_fail(c, i, &d->objs[i].loc,
			   "%s is %s deep, deeper than rack %s (%s)",
			   ir_name(d, i),
			   check_qfmt2(DIM_LENGTH, dd, rd, b1, b2),
			   ir_name(d, rack), b2);
		check_note(c, attr_loc(d, i, A_DEPTH), "%s: depth %s",
			   ir_name(d, attr_owner(d, i, A_DEPTH)), b1);
		check_note(c, attr_loc(d, rack, A_DEPTH), "%s: depth %s",
			   ir_name(d, attr_owner(d, rack, A_DEPTH)), b2);
	}
}

static int part_then_id_cmp(const void *pa, const void *pb)
{
	const uint32_t *a = pa, *b = pb;

	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

/* Notes for an overloaded rack: the load by part, then the rating. */
static void weight_notes(struct check_ctx *c, const struct layout_racks *ri,
			 uint32_t rack, int64_t total, uint32_t *pairs)
{
	const struct rk_design *d = c->d;
	char b1[RK_QFMT_MAX], b2[RK_QFMT_MAX];
	uint32_t n = 0, unweighed = 0;

	for (uint32_t k = ri->first[rack]; k < ri->first[rack + 1]; k++) {
		uint32_t dev = ri->devs[k];

		if (ir_num(d, dev, A_WEIGHT, 0) <= 0) {
			unweighed++;
			continue;
		}
		pairs[2 * n] = attr_owner(d, dev, A_WEIGHT);
		pairs[2 * n + 1] = dev;
		n++;
	}
	qsort(pairs, n, 2 * sizeof(*pairs), part_then_id_cmp);
	for (uint32_t k = 0; k < n;) {
		uint32_t part = pairs[2 * k], cnt = 0;
		int64_t w = ir_num(d, part, A_WEIGHT, 0);

		while (k + cnt < n && pairs[2 * (k + cnt)] == part)
			cnt++;
		check_note(c, attr_loc(d, part, A_WEIGHT), "%u x %s at %s = %s",
			   cnt, ir_name(d, part), check_qfmt(DIM_MASS, w, b1),
			   check_qfmt(DIM_MASS, arith_smul(w, cnt), b2));
		k += cnt;
	}
	if (unweighed)
		check_note(c, &d->objs[rack].loc,
			   "%u device%s in the rack give%s no weight and "
			   "%s not counted",
			   unweighed, unweighed == 1 ? "" : "s",
			   unweighed == 1 ? "s" : "",
			   unweighed == 1 ? "is" : "are");
	check_note(c, attr_loc(d, rack, A_MAX_LOAD),
		   "total %s against max_load %s of %s",
		   check_qfmt2(DIM_MASS, total, ir_num(d, rack, A_MAX_LOAD, 0),
			       b1, b2),
		   b2, ir_name(d, attr_owner(d, rack, A_MAX_LOAD)));
}

static void run_rack_weight(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	char b1[RK_QFMT_MAX], b2[RK_QFMT_MAX];
	struct layout_racks ri;
	uint32_t *pairs;

	layout_racks_build(d, &ri);
	pairs = xmalloc(((size_t)ri.max + 1) * 2 * sizeof(*pairs));
	for (uint32_t r = 0; r < d->nobjs && !check_stop(c); r++) {
		int64_t limit, total = 0;
		struct check_mark mk;
		bool unweighed = false;

		if (d->objs[r].kind != K_RACK)
			continue;
		limit = ir_num(d, r, A_MAX_LOAD, 0);
		if (limit <= 0)
			continue;
		/* coverage: a device without a weight is not counted, so a
		 * total within the limit is then not proved */
		mk = check_cover_begin(c);
		for (uint32_t k = ri.first[r]; k < ri.first[r + 1]; k++) {
			int64_t w = ir_num(d, ri.devs[k], A_WEIGHT, 0);

			if (w > 0)
				total = arith_sadd(total, w);
			else
				unweighed = true;
		}
		if (total <= limit) {
			check_cover(c, r, mk, unweighed);
			continue;
		}
		check_fail(c, r, &d->objs[r].loc,
			   "rack %s carries %s of devices, over its static "
			   "load rating of %s",
			   ir_name(d, r),
			   check_qfmt2(DIM_MASS, total, limit, b1, b2), b2);
		weight_notes(c, &ri, r, total, pairs);
		check_cover(c, r, mk, false);
	}
	free(pairs);
	layout_racks_free(&ri);
}

/* ---- floor-overlap ---- */

/* A footprint on the floor, with its site (the sweep keeps sites apart). */
struct floor_rect {
	struct footprint f;
	uint32_t obj, site;
	uint32_t leaf; /* its leaf in the tree */
	bool reported; /* already found in another's slot */
};

/* Sweep event: a footprint starts (x0) or ends (x1) along x. */
struct floor_event {
	int64_t x;
	uint32_t rect;
	uint32_t start; /* 0 end, 1 start: at one x the ends come first, so
			   footprints that only touch do not overlap */
};

static int floor_event_cmp(const void *pa, const void *pb)
{
	const struct floor_event *a = pa, *b = pb;

	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->rect < b->rect ? -1 : a->rect > b->rect;
}

/* A leaf key: site, front edge y0, rect index (the leaves' order). */
struct floor_key {
	uint32_t site;
	int64_t y0;
	uint32_t rect;
};

static int floor_key_cmp(const void *pa, const void *pb)
{
	const struct floor_key *a = pa, *b = pb;

	if (a->site != b->site)
		return a->site < b->site ? -1 : 1;
	if (a->y0 != b->y0)
		return a->y0 < b->y0 ? -1 : 1;
	return a->rect < b->rect ? -1 : a->rect > b->rect;
}

/* First leaf whose key is at least (site, y0, 0). */
static uint32_t floor_lower(const struct floor_key *k, uint32_t n,
			    uint32_t site, int64_t y0)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (k[mid].site < site ||
		    (k[mid].site == site && k[mid].y0 < y0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * A max tree over the leaves: each node holds the largest back edge y1 of
 * the footprints active below it and the rect that has it (the first
 * leaf's on ties); INT64_MIN where none is active.
 */
struct floor_tree {
	uint32_t size; /* leaves, a power of two */
	int64_t *y1;
	uint32_t *who;
};

static void floor_tree_set(struct floor_tree *t, uint32_t leaf, int64_t y1,
			   uint32_t who)
{
	uint32_t i = leaf + t->size;

	t->y1[i] = y1;
	t->who[i] = who;
	for (i /= 2; i >= 1; i /= 2) {
		uint32_t l = 2 * i, r = l + 1, m = t->y1[r] > t->y1[l] ? r : l;

		t->y1[i] = t->y1[m];
		t->who[i] = t->who[m];
	}
}

/* The active footprint with the largest y1 among leaves [lo, hi). */
static uint32_t floor_tree_max(const struct floor_tree *t, uint32_t lo,
			       uint32_t hi, int64_t *y1)
{
	uint32_t best = RK_NONE, bleaf = UINT32_MAX;

	*y1 = INT64_MIN;
	for (lo += t->size, hi += t->size; lo < hi; lo /= 2, hi /= 2) {
		uint32_t cand[2] = { RK_NONE, RK_NONE };

		if (lo & 1)
			cand[0] = lo++;
		if (hi & 1)
			cand[1] = --hi;
		for (int k = 0; k < 2; k++) {
			uint32_t i = cand[k];

			if (i == RK_NONE || t->y1[i] == INT64_MIN)
				continue;
			/* ties: the footprint declared first */
			if (t->y1[i] > *y1 ||
			    (t->y1[i] == *y1 && t->who[i] < bleaf)) {
				*y1 = t->y1[i];
				best = t->who[i];
				bleaf = t->who[i];
			}
		}
	}
	return best;
}

/* A finding: footprint @rect overlaps the earlier @other. */
struct floor_hit {
	uint32_t rect, other;
	uint32_t same_slot;
};

static int floor_hit_cmp(const void *pa, const void *pb)
{
	const struct floor_hit *a = pa, *b = pb;

	return a->rect < b->rect ? -1 : a->rect > b->rect;
}

static const char *floor_what(const struct rk_design *d, uint32_t obj)
{
	if (d->objs[obj].kind == K_RACK)
		return "rack";
	return d->objs[obj].cls == C_CDU ? "cdu" : "device";
}

/* Footprints in (row, slot, object) order: one slot's are adjacent. */
struct floor_slot {
	uint32_t row;
	int64_t slot;
	uint32_t rect;
};

static int floor_slot_cmp(const void *pa, const void *pb)
{
	const struct floor_slot *a = pa, *b = pb;

	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	if (a->slot != b->slot)
		return a->slot < b->slot ? -1 : 1;
	return a->rect < b->rect ? -1 : a->rect > b->rect;
}

static void floor_note(struct check_ctx *c, const struct floor_rect *r)
{
	const struct rk_design *d = c->d;
	const struct rk_value *slot = ir_attr(d, r->obj, A_SLOT);
	char x0[RK_QFMT_MAX], x1[RK_QFMT_MAX], y0[RK_QFMT_MAX], y1[RK_QFMT_MAX],
	    w[RK_QFMT_MAX], dp[RK_QFMT_MAX];
	const char *dflt = "";

	if (r->f.default_w && r->f.default_d)
		dflt = "; its part gives no width or depth: the default "
		       "600mm x 1200mm is used";
	else if (r->f.default_w)
		dflt = "; its part gives no width: the default 600mm is used";
	else if (r->f.default_d)
		dflt = "; its part gives no depth: the default 1200mm is used";
	check_note(c, slot ? &slot->loc : &d->objs[r->obj].loc,
		   "%s (%s, %s x %s) in slot %lld of row %s covers x %s to %s, "
		   "y %s to %s%s",
		   ir_name(d, r->obj), check_part_name(d, r->obj),
		   check_qfmt(DIM_LENGTH, r->f.x1 - r->f.x0, w),
		   check_qfmt(DIM_LENGTH, r->f.y1 - r->f.y0, dp),
		   (long long)ir_num(d, r->obj, A_SLOT, 0),
		   ir_name(d, r->f.row), check_qfmt(DIM_LENGTH, r->f.x0, x0),
		   check_qfmt(DIM_LENGTH, r->f.x1, x1),
		   check_qfmt(DIM_LENGTH, r->f.y0, y0),
		   check_qfmt(DIM_LENGTH, r->f.y1, y1), dflt);
}

/*
 * Footprints that share floor.  Sweep along x (starts and ends sorted),
 * keeping the active footprints as leaves of a max tree ordered by (site,
 * y0): a new footprint overlaps an active one exactly when, among those of
 * its site with y0 below its y1, the largest y1 is above its y0.  Each
 * footprint is reported once, against the active footprint reaching
 * furthest back; O(n log n) in the racks and units.
 */
static void run_floor_overlap(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	struct floor_rect *r = NULL;
	struct floor_event *ev;
	struct floor_key *key;
	struct floor_hit *hit;
	struct floor_tree t;
	uint32_t n = 0, cap = 0, nhit = 0;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		struct footprint f;
		struct floor_rect *p;

		if (!layout_footprint(d, i, &f))
			continue;
		p = VEC_PUSH(r, n, cap);
		p->f = f;
		p->obj = i;
		p->leaf = 0;
		p->reported = false;
		p->site = ir_ancestor(d, f.row, K_SITE);
	}
	if (n < 2) {
		free(r);
		return;
	}
	key = xmalloc((size_t)n * sizeof(*key));
	ev = xmalloc(2 * (size_t)n * sizeof(*ev));
	hit = xmalloc((size_t)n * sizeof(*hit));
	for (uint32_t i = 0; i < n; i++) {
		key[i] = (struct floor_key){ r[i].site, r[i].f.y0, i };
		ev[2 * i] = (struct floor_event){ r[i].f.x0, i, 1 };
		ev[2 * i + 1] = (struct floor_event){ r[i].f.x1, i, 0 };
	}
	/* two in one slot of a row: reported against the first there */
	{
		struct floor_slot *fs = xmalloc((size_t)n * sizeof(*fs));

		for (uint32_t i = 0; i < n; i++)
			fs[i] = (struct floor_slot){
				r[i].f.row, ir_num(d, r[i].obj, A_SLOT, 0), i
			};
		qsort(fs, n, sizeof(*fs), floor_slot_cmp);
		for (uint32_t k = 1, first = 0; k < n; k++) {
			if (fs[k].row != fs[first].row ||
			    fs[k].slot != fs[first].slot) {
				first = k;
				continue;
			}
			hit[nhit++] =
			    (struct floor_hit){ fs[k].rect, fs[first].rect, 1 };
			r[fs[k].rect].reported = true;
		}
		free(fs);
	}
	qsort(key, n, sizeof(*key), floor_key_cmp);
	qsort(ev, 2 * (size_t)n, sizeof(*ev), floor_event_cmp);
	for (uint32_t k = 0; k < n; k++)
		r[key[k].rect].leaf = k;
	for (t.size = 1; t.size < n; t.size *= 2)
		;
	t.y1 = xmalloc(2 * (size_t)t.size * sizeof(*t.y1));
	t.who = xmalloc(2 * (size_t)t.size * sizeof(*t.who));
	for (size_t i = 0; i < 2 * (size_t)t.size; i++) {
		t.y1[i] = INT64_MIN;
		t.who[i] = RK_NONE;
	}
	for (size_t e = 0; e < 2 * (size_t)n; e++) {
		const struct floor_rect *p = &r[ev[e].rect];
		uint32_t lo, hi, other;
		int64_t y1;

		if (!ev[e].start) {
			floor_tree_set(&t, p->leaf, INT64_MIN, RK_NONE);
			continue;
		}
		if (p->f.x1 <= p->f.x0 || p->f.y1 <= p->f.y0)
			continue; /* no area */
		lo = floor_lower(key, n, p->site, INT64_MIN);
		hi = floor_lower(key, n, p->site, p->f.y1);
		other = floor_tree_max(&t, lo, hi, &y1);
		if (other != RK_NONE && y1 > p->f.y0 && !p->reported)
			hit[nhit++] =
			    (struct floor_hit){ ev[e].rect, other, 0 };
		floor_tree_set(&t, p->leaf, p->f.y1, ev[e].rect);
	}
	/* report in declaration order */
	qsort(hit, nhit, sizeof(*hit), floor_hit_cmp);
	for (uint32_t k = 0; k < nhit && !check_stop(c); k++) {
		const struct floor_rect *p = &r[hit[k].rect],
					*q = &r[hit[k].other];

		if (hit[k].same_slot)
			check_fail(c, p->obj, &d->objs[p->obj].loc,
				   "%s %s stands in slot %lld of row %s, "
				   "where %s %s stands",
				   floor_what(d, p->obj), ir_name(d, p->obj),
				   (long long)ir_num(d, p->obj, A_SLOT, 0),
				   ir_name(d, p->f.row), floor_what(d, q->obj),
				   ir_name(d, q->obj));
		else
			check_fail(c, p->obj, &d->objs[p->obj].loc,
				   "%s %s overlaps %s %s on the floor",
				   floor_what(d, p->obj), ir_name(d, p->obj),
				   floor_what(d, q->obj), ir_name(d, q->obj));
		floor_note(c, p);
		floor_note(c, q);
	}
	free(t.y1);
	free(t.who);
	free(hit);
	free(ev);
	free(key);
	free(r);
}

/* ---- rack-assembly ---- */

static void run_rack_assembly(struct check_ctx *c)
{
	const struct rk_design *d = c->d;

	for (uint32_t i = 0; i < d->nobjs && !check_stop(c); i++) {
		const struct rk_value *v;
		uint32_t rk;

		if (d->objs[i].kind != K_DEVICE)
			continue;
		v = ir_attr(d, i, A_IN_ASSEMBLY);
		if (!v || v->type != VT_BOOL || !v->n ||
		    layout_assembly_of(d, i) != RK_NONE)
			continue;
		rk = d->objs[i].parent;
		if (rk == RK_NONE || d->objs[rk].kind != K_RACK)
			check_fail(c, i, &v->loc,
				   "device %s says in_assembly, but it is not "
				   "declared in a rack",
				   ir_name(d, i));
		else
			check_fail(c, i, &v->loc,
				   "device %s says in_assembly, but the part "
				   "of rack %s is not an assembly",
				   ir_name(d, i), ir_name(d, rk));
	}
}

CHECK_DEFINE(rack_placement, "rack-placement", CHECK_ERROR,
	     "a device placed with 'at' is in a rack, at U1 or above",
	     run_rack_placement);
CHECK_DEFINE(rack_unplaced, "rack-unplaced", CHECK_WARN,
	     "every device with a height in a rack has an 'at'",
	     run_rack_unplaced);
CHECK_DEFINE(rack_overlap, "rack-overlap", CHECK_ERROR,
	     "no two devices in a rack share a rack unit", run_rack_overlap);
CHECK_DEFINE(rack_overflow, "rack-overflow", CHECK_ERROR,
	     "devices fit below the top of their rack", run_rack_overflow);
CHECK_DEFINE(rack_depth, "rack-depth", CHECK_WARN,
	     "devices are no deeper than their rack", run_rack_depth);
CHECK_DEFINE(rack_weight, "rack-weight", CHECK_ERROR,
	     "the devices in a rack weigh no more than its max_load",
	     run_rack_weight);
CHECK_DEFINE(floor_overlap, "floor-overlap", CHECK_ERROR,
	     "no two racks or units standing in rows share floor",
	     run_floor_overlap);
CHECK_DEFINE(rack_assembly, "rack-assembly", CHECK_ERROR,
	     "a device that says in_assembly is declared in a rack whose part "
	     "is an assembly",
	     run_rack_assembly);
