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
#include "layout.h"
#include "schema.h"

#define DEFAULT_PITCH_UM 600000	 /* 600 mm racks */
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
	out->x = ir_num(d, row, A_X, 0) + (slot - 1) * pitch;
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

/* Distance from a device's middle up to the rack top, micrometres. */
static int64_t to_top(const struct rk_design *d, uint32_t dev, uint32_t rack)
{
	int64_t units = layout_rack_units(d, rack);
	int64_t at = layout_at(d, dev), h = layout_height_u(d, dev);

	if (!units)
		units = DEFAULT_RACK_U;
	if (at < 1)
		return units * RK_U_UM / 2;
	return (units - (at - 1) - h / 2) * RK_U_UM;
}

void layout_cable_run(const struct rk_design *d, uint32_t a, uint32_t b,
		      struct cable_run *out)
{
	uint32_t ra = layout_rack_of(d, a), rb = layout_rack_of(d, b);
	uint32_t site;
	struct rack_pos pa, pb;
	int64_t slack = DEFAULT_SLACK_UM;

	memset(out, 0, sizeof(*out));
	if (ra == RK_NONE || rb == RK_NONE)
		return;
	site = ir_ancestor(d, ra, K_SITE);
	if (site != RK_NONE)
		slack = ir_num(d, site, A_SLACK, DEFAULT_SLACK_UM);
	out->known = 1;
	out->slack = slack;
	if (ra == rb) {
		int64_t ta = to_top(d, a, ra), tb = to_top(d, b, rb);

		out->same_rack = 1;
		out->vertical = ta > tb ? ta - tb : tb - ta;
	} else {
		__int128 v, h;

		layout_rack_pos(d, ra, &pa);
		layout_rack_pos(d, rb, &pb);
		v = (__int128)to_top(d, a, ra) + pa.tray + to_top(d, b, rb) +
		    pb.tray;
		h = (pa.x > pb.x ? (__int128)pa.x - pb.x
				 : (__int128)pb.x - pa.x) +
		    (pa.y > pb.y ? (__int128)pa.y - pb.y
				 : (__int128)pb.y - pa.y);
		/* saturated: absurd layouts must not wrap around */
		out->vertical = v > INT64_MAX / 4 ? INT64_MAX / 4 : (int64_t)v;
		out->horizontal =
		    h > INT64_MAX / 4 ? INT64_MAX / 4 : (int64_t)h;
	}
	if (out->slack > INT64_MAX / 4)
		out->slack = INT64_MAX / 4;
	out->total = out->vertical + out->horizontal + out->slack;
}
