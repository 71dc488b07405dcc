/* SPDX-License-Identifier: MIT */
/*
 * Physical layout queries shared by the fabric generators, the checks and
 * the back ends: which rack a device is in, where, how tall it is, where a
 * rack stands in the hall, and how long a cable between two ports must be.
 * All lengths are micrometres (the length base unit).
 */
#ifndef RACKC_LAYOUT_H
#define RACKC_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

/* One rack unit: 1.75 in = 44.45 mm (EIA-310). */
#define RK_U_UM 44450

/* Rack a device is mounted in: its rack attribute, or an enclosing rack. */
uint32_t layout_rack_of(const struct rk_design *d, uint32_t dev);
/* Height of a device's part in U (0 for 0U parts such as vertical PDUs). */
int64_t layout_height_u(const struct rk_design *d, uint32_t dev);
/* Lowest U a device occupies, or -1 when it has no 'at'. */
int64_t layout_at(const struct rk_design *d, uint32_t dev);
/* Usable height of a rack in U (from its part), 0 if unknown. */
int64_t layout_rack_units(const struct rk_design *d, uint32_t rack);
/*
 * The rack part whose assembly device @dev comes with: the device was
 * declared in the rack, whose part says `assembly true`, and either says
 * `in_assembly true` (as -O ir writes it) or was placed by the instance
 * template of the rack's part or a base without saying `in_assembly
 * false`.  RK_NONE otherwise.
 */
uint32_t layout_assembly_of(const struct rk_design *d, uint32_t dev);

/**
 * struct layout_racks - the devices grouped by the rack they are mounted in
 * (layout_rack_of()): the one bucketing by rack that the checks and the
 * pictures share
 * @first: per object id, index in @devs of the rack's first device; the
 *         rack's devices are devs[first[r] .. first[r + 1]) (nobjs + 2
 *         entries, so first[r + 1] is valid for every object r)
 * @devs:  device ids, racks in id order, devices in declaration order
 * @max:   most devices in one rack
 */
struct layout_racks {
	uint32_t *first;
	uint32_t *devs;
	uint32_t max;
};

/* Build @lr in O(objects); free it with layout_racks_free(). */
void layout_racks_build(const struct rk_design *d, struct layout_racks *lr);
void layout_racks_free(struct layout_racks *lr);

/**
 * struct rack_pos - where a rack stands
 * @row:  the row object, or RK_NONE
 * @x, @y: floor position of the rack's front-left corner, micrometres
 * @tray: overhead tray height above the rack top, micrometres
 */
struct rack_pos {
	uint32_t row;
	int64_t x, y;
	int64_t tray;
};
void layout_rack_pos(const struct rk_design *d, uint32_t rack,
		     struct rack_pos *out);

/*
 * Footprint of a rack part (or a unit standing in a row) that gives no
 * `width` or `depth`: 600 mm x 1,200 mm, the common data-centre cabinet
 * (doc/language.md section 9.7).
 */
#define RK_DEFAULT_WIDTH_UM 600000
#define RK_DEFAULT_DEPTH_UM 1200000
/* A row's `pitch` when it gives none: 600 mm racks. */
#define RK_DEFAULT_PITCH_UM 600000

/**
 * struct footprint - the floor a rack, or a unit standing in a row, covers
 * @row:       the row it stands in
 * @x0, @y0:   front-left corner (the row's x + (slot - 1) x pitch, its y)
 * @x1, @y1:   the opposite corner: x0 + width, y0 + depth (saturated)
 * @default_w: the part gives no width (RK_DEFAULT_WIDTH_UM used)
 * @default_d: the part gives no depth (RK_DEFAULT_DEPTH_UM used)
 */
struct footprint {
	uint32_t row;
	int64_t x0, y0, x1, y1;
	bool default_w, default_d;
};
/* False for an object that does not stand in a row. */
bool layout_footprint(const struct rk_design *d, uint32_t obj,
		      struct footprint *out);

/**
 * struct cable_run - a computed cable length and how it was made up
 * @known:      both ends are placed, so the length is computed
 * @same_rack:  both ends are in one rack
 * @vertical:   vertical runs inside the racks (to the tray and back)
 * @horizontal: along the overhead trays between the racks
 * @slack:      slack added
 * @total:      the sum, micrometres
 */
struct cable_run {
	int known;
	int same_rack;
	int64_t vertical, horizontal, slack, total;
};
void layout_cable_run(const struct rk_design *d, uint32_t dev_a, uint32_t dev_b,
		      struct cable_run *out);

/*
 * The same lengths for a pass over every link: what each device and rack
 * contributes (its rack, its height to the rack top, the rack's place and
 * its site's slack) is looked up once, on first use, instead of once per
 * link end.  layout_memo_run() gives exactly layout_cable_run()'s result.
 */
struct layout_dev;
struct layout_rack;
struct layout_memo {
	const struct rk_design *d;
	struct layout_dev *dev;	  /* per object */
	struct layout_rack *rack; /* per rack met, in the order met */
	uint32_t *slot;		  /* rack object -> its index in @rack */
	uint32_t nracks, racks_cap;
};
void layout_memo_init(struct layout_memo *m, const struct rk_design *d);
void layout_memo_free(struct layout_memo *m);
void layout_memo_run(struct layout_memo *m, uint32_t dev_a, uint32_t dev_b,
		     struct cable_run *out);

#endif
