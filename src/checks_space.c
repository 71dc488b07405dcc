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
 * (struct rack_index, a compressed per-rack array); overlap then sorts each
 * rack's placed devices by U and sweeps them once, so the whole family is
 * O(n log n) in the number of devices.  Devices with an `at` below 1 are
 * left to rack-placement and skipped by the checks that need a valid U.
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "layout.h"
#include "schema.h"

/**
 * struct rack_index - devices grouped by the rack they are mounted in
 * @first: per object id, index in @devs of the rack's first device; the
 *         rack's devices are devs[first[r] .. first[r + 1])
 * @devs:  device ids, racks in id order, devices in declaration order
 * @max:   most devices in one rack
 */
struct rack_index {
	uint32_t *first;
	uint32_t *devs;
	uint32_t max;
};

static void rack_index_build(const struct rk_design *d, struct rack_index *ri)
{
	uint32_t *rack = xmalloc(((size_t)d->nobjs + 1) * sizeof(*rack));
	uint32_t n = d->nobjs, total = 0;

	ri->first = xcalloc((size_t)n + 2, sizeof(*ri->first));
	ri->max = 0;
	for (uint32_t i = 0; i < n; i++) {
		rack[i] = d->objs[i].kind == K_DEVICE ? layout_rack_of(d, i)
						      : RK_NONE;
		if (rack[i] != RK_NONE)
			ri->first[rack[i] + 1]++;
	}
	for (uint32_t r = 0; r < n; r++) {
		uint32_t cnt = ri->first[r + 1];

		if (cnt > ri->max)
			ri->max = cnt;
		ri->first[r + 1] = total + cnt;
		total += cnt;
	}
	ri->first[n + 1] = total;
	ri->devs = xmalloc(((size_t)total + 1) * sizeof(*ri->devs));
	/* first[r] is the fill cursor of rack r; it ends at first[r + 1] */
	for (uint32_t i = 0; i < n; i++)
		if (rack[i] != RK_NONE)
			ri->devs[ri->first[rack[i]]++] = i;
	/* shift the cursors back so that first[r] is the start again */
	for (uint32_t r = n; r > 0; r--)
		ri->first[r] = ri->first[r - 1];
	ri->first[0] = 0;
	free(rack);
}

static void rack_index_free(struct rack_index *ri)
{
	free(ri->first);
	free(ri->devs);
}

/* The object that carries @key for @obj (itself, its part or a base). */
static uint32_t attr_owner(const struct rk_design *d, uint32_t obj,
			   uint32_t key)
{
	for (; obj != RK_NONE; obj = d->objs[obj].part)
		if (ir_attr(d, obj, key))
			return obj;
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
			    const struct rack_index *ri, uint32_t rack,
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
	struct rack_index ri;
	struct placed *buf;

	rack_index_build(d, &ri);
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
	rack_index_free(&ri);
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
			   ir_name(d, i), check_qfmt(DIM_LENGTH, dd, b1),
			   ir_name(d, rack), check_qfmt(DIM_LENGTH, rd, b2));
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

static int64_t sat_add(int64_t a, int64_t b)
{
	int64_t r;

	return q_add(a, b, &r) ? r : INT64_MAX;
}

static int64_t sat_mul(int64_t a, int64_t b)
{
	int64_t r;

	return q_mul(a, b, &r) ? r : INT64_MAX;
}

/* Notes for an overloaded rack: the load by part, then the rating. */
static void weight_notes(struct check_ctx *c, const struct rack_index *ri,
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
			   check_qfmt(DIM_MASS, sat_mul(w, cnt), b2));
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
		   check_qfmt(DIM_MASS, total, b1),
		   check_qfmt(DIM_MASS, ir_num(d, rack, A_MAX_LOAD, 0), b2),
		   ir_name(d, attr_owner(d, rack, A_MAX_LOAD)));
}

static void run_rack_weight(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	char b1[RK_QFMT_MAX], b2[RK_QFMT_MAX];
	struct rack_index ri;
	uint32_t *pairs;

	rack_index_build(d, &ri);
	pairs = xmalloc(((size_t)ri.max + 1) * 2 * sizeof(*pairs));
	for (uint32_t r = 0; r < d->nobjs && !check_stop(c); r++) {
		int64_t limit, total = 0;

		if (d->objs[r].kind != K_RACK)
			continue;
		limit = ir_num(d, r, A_MAX_LOAD, 0);
		if (limit <= 0)
			continue;
		for (uint32_t k = ri.first[r]; k < ri.first[r + 1]; k++) {
			int64_t w = ir_num(d, ri.devs[k], A_WEIGHT, 0);

			if (w > 0)
				total = sat_add(total, w);
		}
		if (total <= limit)
			continue;
		check_fail(c, r, &d->objs[r].loc,
			   "rack %s carries %s of devices, over its static "
			   "load rating of %s",
			   ir_name(d, r), check_qfmt(DIM_MASS, total, b1),
			   check_qfmt(DIM_MASS, limit, b2));
		weight_notes(c, &ri, r, total, pairs);
	}
	free(pairs);
	rack_index_free(&ri);
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
CHECK_DEFINE(rack_assembly, "rack-assembly", CHECK_ERROR,
	     "a device that says in_assembly is declared in a rack whose part "
	     "is an assembly",
	     run_rack_assembly);
