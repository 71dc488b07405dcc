/* SPDX-License-Identifier: MIT */
/*
 * Per-feed and per-loop figures for the back ends (report.json,
 * report.html), computed once per compilation into the figure cache from
 * the very models the power and cooling checks judge (power_model.h,
 * cooling_model.h), so that a figure in a report and a finding about it
 * never disagree; and the racks and supplies of each feed and loop
 * (loads.c).  Powers are mW, flows mL/min, all exact
 * integers.
 */
#ifndef RACKC_LOADS_H
#define RACKC_LOADS_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

/**
 * struct feed_load - the load on one feed (power-feed-capacity's figures)
 * @feed:      the feed object
 * @load:      every device at power_max, spread evenly over its supplies
 * @lost_load: the highest load after the loss of one other feed (devices
 *             move to their surviving supplies, throttled or down as
 *             power-feed-failure says); -1 when the design has no other
 *             feed
 * @lost_feed: the feed whose loss gives @lost_load, RK_NONE when the
 *             highest is the normal load (no loss raises it) or there is
 *             no other feed
 * @capacity:  the feed's capacity as power-feed-capacity reads it
 *             (supply_capacity(): rounded down to the milliwatt), valid
 *             when @cap_known
 * @cap_known: the feed gives a rating
 * @cap_exact: no digits were cut off @capacity (else it is a lower bound,
 *             and so are the headrooms @capacity less each load)
 * @load_over, @lost_over: @load, @lost_load ran out of the 64-bit range
 *             (the models' sums saturate at INT64_MAX): no figure, and
 *             none for the headroom either
 */
struct feed_load {
	uint32_t feed;
	int64_t load, lost_load;
	uint32_t lost_feed;
	int64_t capacity;
	bool cap_known, cap_exact;
	bool load_over, lost_over;
	bool load_unknown; /* a device on it has no power_max: @load and
			      @lost_load are lower bounds */
};

struct derived;
/* One entry per feed, in declaration order (*@n entries; NULL when
 * none), from the figure cache. */
const struct feed_load *derived_feed_loads(struct derived *dv, uint32_t *n);

/**
 * struct loop_load - the heat on one liquid loop (cooling-cdu-capacity's
 * and cooling-flow's figures)
 * @loop:     the loop object
 * @heat:     heat to liquid: devices on the loop and the rear doors of
 *            its racks
 * @capacity: the capacity of its CDUs less those its redundancy lets fail
 *            (0 with no CDU); -1 when a CDU gives none or the redundancy
 *            cannot be read
 * @flow:     coolant flow @heat needs at the loop's delta_t, rounded up;
 *            -1 without a known coolant and a positive delta_t
 * @max_flow: the flow its CDUs deliver, less redundancy as @capacity; -1
 *            when a CDU gives no max_flow or the redundancy cannot be read
 * @flow_exact:    @flow was not rounded (else it is an upper bound on the
 *                 coolant's figures, and the flow headroom a lower bound)
 * @flow_estimate: the coolant's heat capacity and density are estimates
 * @heat_over: @heat ran out of the 64-bit range (the model's sums saturate
 *             at INT64_MAX): no figure, nor for the headroom and the flow
 */
struct loop_load {
	uint32_t loop;
	int64_t heat, capacity, flow, max_flow;
	bool flow_exact, flow_estimate;
	bool heat_over;
	bool heat_unknown; /* @heat lacks a device's unknown heat: a lower
			      bound, and so is the flow */
};

/* One entry per loop, in declaration order (*@n entries; NULL when
 * none), from the figure cache. */
const struct loop_load *derived_loop_loads(struct derived *dv, uint32_t *n);

/*
 * Per object (indexed by object id, nobjs + 1 entries; 0 but for racks;
 * from the figure cache): the heat a rack puts into the air, after what
 * its rear door takes, as cooling-air-limit judges it against its air
 * zone's rack_limit.
 */
const int64_t *derived_rack_air(struct derived *dv);

/*
 * Members of feeds and loops as (group, object) pairs, sorted by group and
 * then object, repeats dropped (malloc'd; *@n entries):
 *  - load_feed_supplies: the PDUs and power shelves on each feed;
 *  - load_feed_racks: the racks those supplies sit in;
 *  - load_loop_racks: the racks on each loop, themselves or through a
 *    device that names the loop.
 */
struct load_member {
	uint32_t group, obj;
};

struct load_member *load_feed_supplies(const struct rk_design *d, uint32_t *n);
struct load_member *load_feed_racks(const struct rk_design *d, uint32_t *n);
struct load_member *load_loop_racks(const struct rk_design *d, uint32_t *n);

/*
 * The members of @group in @m (@n entries), groups visited in increasing
 * order: *@at moves past the groups before @group and is left at its first
 * member; returns how many it has.
 */
uint32_t load_members_of(const struct load_member *m, uint32_t n, uint32_t *at,
			 uint32_t group);

/**
 * struct unknown_fig - a figure a budget needs that a part lacks
 * @part:    the part (as the devices name it)
 * @key:     A_POWER_MAX, A_CAPACITY (a CDU) or A_MAX_FLOW
 * @objects: devices that need it (power_max: in a rack or on a PDU;
 *           CDU figures: CDUs on a loop that takes heat to liquid)
 * @typ:     the part's power_typ (mW), -1 when none: shown as a typical
 *           figure, never as the maximum
 */
struct unknown_fig {
	uint32_t part, key, objects;
	int64_t typ;
};

/* The unknown figures, in order of their first device (malloc'd). */
struct unknown_fig *figure_report_unknown(struct derived *dv, uint32_t *n);

/**
 * struct estimated_fig - a figure marked `estimated` on a part in use, that
 * a budget or capacity check reads
 * @part:    the part the objects name (the note may sit on a base part)
 * @attr:    the attribute (schema key)
 * @text:    the `estimated` note
 * @objects: devices made from @part (racks for a rack or rear-door part)
 * @checks:  the checks whose verdicts rest on it, comma separated
 * @coolant: NULL; or a coolant whose properties rackc holds only as
 *           estimates (cooling_model.c): then @part is RK_NONE, @attr
 *           A_COOLANT and @objects the loops that use it
 */
struct estimated_fig {
	uint32_t part, attr, objects;
	const char *text;
	const char *checks;
	const char *coolant;
};

/* Every such figure, by part in declaration order, then the estimated
 * coolants the loops use (malloc'd). */
struct estimated_fig *figure_report_estimated(const struct rk_design *d,
					      uint32_t *n);

/**
 * struct est_verdict - one budget verdict that reads a figure marked
 * estimated
 * @check:   the check (index into check_table, check.h, and into
 *           struct derived's @check_names, metrics.h)
 * @obj:     the object judged (PDU, power shelf, feed, rack, air zone,
 *           loop)
 * @outcome: enum cover_outcome (metrics.h): proved, or not and why
 * @first, @n: its figures, figure_report.refs[@first .. @first + @n),
 *           each an index into figure_report.est
 */
struct est_verdict {
	unsigned check;
	uint32_t obj, outcome;
	uint32_t first, n;
};

/**
 * struct figure_report - the figures the verdicts rest on, for report.json
 * and report.html alike: computed once after the checks (checks_run), from
 * the verdicts the budget checks recorded (struct check_coverage)
 * @unknown:  figure_report_unknown()
 * @est:      figure_report_estimated()
 * @verdicts: every verdict that reads an estimated figure, by check in
 *            check_table order, then in the order judged
 * @on_estimates: per check_table entry, how many of its proved verdicts
 *            rest on an estimated figure
 */
struct figure_report {
	struct unknown_fig *unknown;
	uint32_t nunknown;
	struct estimated_fig *est;
	uint32_t nest;
	struct est_verdict *verdicts;
	uint32_t nverdicts;
	uint32_t *refs;
	uint32_t nrefs;
	uint32_t *on_estimates;
};

struct figure_report *figure_report_compute(const struct rk_design *d,
					    struct derived *dv);
void figure_report_free(struct figure_report *f);

#endif
