/* SPDX-License-Identifier: MIT */
/*
 * Physical layout: rack membership, U positions, floor positions and cable
 * lengths.  The cable model: from the device up inside its rack to the rack
 * top and on up to the overhead tray, along the trays (Manhattan distance
 * between the two racks' positions), and down the far rack to the far
 * device; within one rack, the vertical distance between the two devices.
 * Then the site's slack (default 1 m per cable end pair) is added.
 */
#include "rackc.h"
#include "arith.h"

#include <stdlib.h>

#include "layout.h"
#include "schema.h"

#define DEFAULT_PITCH_UM RK_DEFAULT_PITCH_UM
#define DEFAULT_TRAY_UM 600000	 /* tray 600 mm above the rack top */
#define DEFAULT_SLACK_UM 1000000 /* 1 m of slack per cable */
#define DEFAULT_RACK_U 42

uint32_t layout_rack_of(const struct rk_design *d, uint32_t dev)
{
	const struct rk_value *v = ir_attr(d, dev, A_RACK);

	if (v && v->type == VT_OBJ)
		return v->a;
	return ir_ancestor(d, d->objs[dev].parent, K_RACK);
}

int64_t layout_height_u(const struct rk_design *d, uint32_t dev)
{
	return ir_num(d, d->objs[dev].part, A_HEIGHT, 0);
}

int64_t layout_at(const struct rk_design *d, uint32_t dev)
{
	const struct rk_value *v = ir_attr(d, dev, A_AT);

	return v && v->type == VT_NUM ? v->n : -1;
}

int64_t layout_rack_units(const struct rk_design *d, uint32_t rack)
{
	return ir_num(d, d->objs[rack].part, A_HEIGHT, 0);
}

void layout_rack_pos(const struct rk_design *d, uint32_t rack,
		     struct rack_pos *out)
{
	uint32_t row = d->objs[rack].parent;
	int64_t slot = ir_num(d, rack, A_SLOT, 0), pitch;

	memset(out, 0, sizeof(*out));
	out->row = RK_NONE;
	out->tray = DEFAULT_TRAY_UM;
	if (row == RK_NONE || d->objs[row].kind != K_ROW)
		return;
	out->row = row;
	if (!slot)
		slot = 1; /* elaboration gives every rack in a row its slot */
	pitch = ir_num(d, row, A_PITCH, DEFAULT_PITCH_UM);
	{
		/* saturated: an absurd slot or pitch must not overflow */
		i128 x =
		    (i128)ir_num(d, row, A_X, 0) + ((i128)slot - 1) * pitch;

		out->x = x > INT64_MAX	 ? INT64_MAX
			 : x < INT64_MIN ? INT64_MIN
					 : (int64_t)x;
	}
	out->y = ir_num(d, row, A_Y, 0);
	{
		const struct rk_value *t = ir_attr(d, row, A_TRAY_HEIGHT);
		uint32_t site = ir_ancestor(d, row, K_SITE);

		if (!t && site != RK_NONE)
			t = ir_attr(d, site, A_TRAY_HEIGHT);
		if (t && t->type == VT_NUM)
			out->tray = t->n;
	}
}

bool layout_footprint(const struct rk_design *d, uint32_t obj,
		      struct footprint *out)
{
	uint32_t row = d->objs[obj].parent;
	struct rack_pos pos;
	int64_t w, dp;

	memset(out, 0, sizeof(*out));
	if (row == RK_NONE || d->objs[row].kind != K_ROW ||
	    (d->objs[obj].kind != K_RACK && d->objs[obj].kind != K_DEVICE))
		return false;
	layout_rack_pos(d, obj, &pos);
	w = ir_num(d, obj, A_WIDTH, 0);
	dp = ir_num(d, obj, A_DEPTH, 0);
	out->default_w = w <= 0;
	out->default_d = dp <= 0;
	if (out->default_w)
		w = RK_DEFAULT_WIDTH_UM;
	if (out->default_d)
		dp = RK_DEFAULT_DEPTH_UM;
	out->row = row;
	out->x0 = pos.x;
	out->y0 = pos.y;
	out->x1 = arith_sadd(pos.x, w);
	out->y1 = arith_sadd(pos.y, dp);
	return true;
}

/* Distance from a device's middle up to the rack top, micrometres. */
static int64_t to_top(const struct rk_design *d, uint32_t dev, uint32_t rack)
{
	int64_t units = layout_rack_units(d, rack);
	int64_t at = layout_at(d, dev), h = layout_height_u(d, dev);

	if (!units)
		units = DEFAULT_RACK_U;
	if (at < 1)
		return units * RK_U_UM / 2;
	/* h / 2 in whole units would put an odd-height device's middle at
	 * its lower edge; RK_U_UM is even, so the half unit is exact */
	return (units - (at - 1)) * RK_U_UM - h * (RK_U_UM / 2);
}

/* What one device adds to a cable: its rack (the index of its entry in the
 * memo's racks) and its height below the top. */
struct layout_dev {
	uint32_t rack; /* RK_NONE: not placed */
	bool done;
	int64_t top;
};

/* What one rack adds: its place and its site's slack. */
struct layout_rack {
	struct rack_pos pos;
	int64_t slack;
};

static int64_t site_slack(const struct rk_design *d, uint32_t rack)
{
	uint32_t site = ir_ancestor(d, rack, K_SITE);

	return site != RK_NONE ? ir_num(d, site, A_SLACK, DEFAULT_SLACK_UM)
			       : DEFAULT_SLACK_UM;
}

/* The model, from the looked-up pieces (pa, pb: NULL within one rack). */
static void cable_run(int64_t top_a, int64_t top_b, const struct rack_pos *pa,
		      const struct rack_pos *pb, int64_t slack,
		      struct cable_run *out)
{
	out->known = 1;
	out->slack = slack;
	if (!pa) {
		out->same_rack = 1;
		out->vertical = top_a > top_b ? top_a - top_b : top_b - top_a;
	} else {
		i128 v, h;

		v = (i128)top_a + pa->tray + top_b + pb->tray;
		h = (pa->x > pb->x ? (i128)pa->x - pb->x
				   : (i128)pb->x - pa->x) +
		    (pa->y > pb->y ? (i128)pa->y - pb->y : (i128)pb->y - pa->y);
		/* saturated: absurd layouts must not wrap around */
		out->vertical = v > INT64_MAX / 4 ? INT64_MAX / 4 : (int64_t)v;
		out->horizontal =
		    h > INT64_MAX / 4 ? INT64_MAX / 4 : (int64_t)h;
	}
	if (out->slack > INT64_MAX / 4)
		out->slack = INT64_MAX / 4;
	out->total = out->vertical + out->horizontal + out->slack;
}

void layout_cable_run(const struct rk_design *d, uint32_t a, uint32_t b,
		      struct cable_run *out)
{
	uint32_t ra = layout_rack_of(d, a), rb = layout_rack_of(d, b);
	struct rack_pos pa, pb;

	memset(out, 0, sizeof(*out));
	if (ra == RK_NONE || rb == RK_NONE)
		return;
	if (ra == rb) {
		cable_run(to_top(d, a, ra), to_top(d, b, rb), NULL, NULL,
			  site_slack(d, ra), out);
		return;
	}
	layout_rack_pos(d, ra, &pa);
	layout_rack_pos(d, rb, &pb);
	cable_run(to_top(d, a, ra), to_top(d, b, rb), &pa, &pb,
		  site_slack(d, ra), out);
}

void layout_memo_init(struct layout_memo *m, const struct rk_design *d)
{
	m->d = d;
	m->dev = xcalloc((size_t)d->nobjs + 1, sizeof(*m->dev));
	m->slot = xmalloc(((size_t)d->nobjs + 1) * sizeof(*m->slot));
	memset(m->slot, 0xff, ((size_t)d->nobjs + 1) * sizeof(*m->slot));
	m->rack = NULL;
	m->nracks = m->racks_cap = 0;
}

void layout_memo_free(struct layout_memo *m)
{
	free(m->dev);
	free(m->rack);
	free(m->slot);
	m->dev = NULL;
	m->rack = NULL;
	m->slot = NULL;
}

/*
 * A device's entry; its rack's is made with it.  The racks' entries are
 * kept together, not one per object: a pass over the links of a million
 * GPUs reads the racks of both ends of every link in no order, and one
 * entry per object spread them over 17 MB, a cache miss each.
 */
static const struct layout_dev *memo_dev(struct layout_memo *m, uint32_t dev)
{
	struct layout_dev *v = &m->dev[dev];
	uint32_t rack;

	if (!v->done) {
		v->done = true;
		v->rack = rack = layout_rack_of(m->d, dev);
		if (rack == RK_NONE)
			return v;
		v->top = to_top(m->d, dev, rack);
		if (m->slot[rack] == RK_NONE) {
			struct layout_rack *r =
			    VEC_PUSH(m->rack, m->nracks, m->racks_cap);

			layout_rack_pos(m->d, rack, &r->pos);
			r->slack = site_slack(m->d, rack);
			m->slot[rack] = m->nracks - 1;
		}
		v->rack = m->slot[rack];
	}
	return v;
}

void layout_memo_run(struct layout_memo *m, uint32_t a, uint32_t b,
		     struct cable_run *out)
{
	const struct layout_dev *da = memo_dev(m, a), *db = memo_dev(m, b);
	const struct layout_rack *ra, *rb;

	memset(out, 0, sizeof(*out));
	if (da->rack == RK_NONE || db->rack == RK_NONE)
		return;
	ra = &m->rack[da->rack];
	if (da->rack == db->rack) {
		cable_run(da->top, db->top, NULL, NULL, ra->slack, out);
		return;
	}
	rb = &m->rack[db->rack];
	cable_run(da->top, db->top, &ra->pos, &rb->pos, ra->slack, out);
}

uint32_t layout_assembly_of(const struct rk_design *d, uint32_t dev)
{
	uint32_t rk = d->objs[dev].parent;
	const struct rk_value *v, *in;

	if (rk == RK_NONE || d->objs[rk].kind != K_RACK ||
	    d->objs[rk].part == RK_NONE)
		return RK_NONE;
	in = ir_attr(d, dev, A_IN_ASSEMBLY);
	if (in && in->type == VT_BOOL ? !in->n : !d->objs[dev].tmpl)
		return RK_NONE;
	v = ir_attr_inh(d, rk, A_ASSEMBLY);
	return v && v->type == VT_BOOL && v->n ? d->objs[rk].part : RK_NONE;
}

void layout_racks_build(const struct rk_design *d, struct layout_racks *lr)
{
	uint32_t *rack = xmalloc(((size_t)d->nobjs + 1) * sizeof(*rack));
	uint32_t n = d->nobjs, total = 0;

	lr->first = xcalloc((size_t)n + 2, sizeof(*lr->first));
	lr->max = 0;
	for (uint32_t i = 0; i < n; i++) {
		rack[i] = d->objs[i].kind == K_DEVICE ? layout_rack_of(d, i)
						      : RK_NONE;
		if (rack[i] != RK_NONE)
			lr->first[rack[i] + 1]++;
	}
	for (uint32_t r = 0; r < n; r++) {
		uint32_t cnt = lr->first[r + 1];

		if (cnt > lr->max)
			lr->max = cnt;
		lr->first[r + 1] = total + cnt;
		total += cnt;
	}
	lr->first[n + 1] = total;
	lr->devs = xmalloc(((size_t)total + 1) * sizeof(*lr->devs));
	/* first[r] is the fill cursor of rack r; it ends at first[r + 1] */
	for (uint32_t i = 0; i < n; i++)
		if (rack[i] != RK_NONE)
			lr->devs[lr->first[rack[i]]++] = i;
	/* shift the cursors back so that first[r] is the start again */
	for (uint32_t r = n; r > 0; r--)
		lr->first[r] = lr->first[r - 1];
	lr->first[0] = 0;
	free(rack);
}

void layout_racks_free(struct layout_racks *lr)
{
	free(lr->first);
	free(lr->devs);
}
