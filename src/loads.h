/* SPDX-License-Identifier: MIT */
/*
 * Per-feed and per-loop figures for the back ends (report.json), computed
 * with the very models the power and cooling checks judge
 * (checks_power.c, checks_cooling.c), so that a figure in the report and
 * a finding about it never disagree.  Powers are mW, flows mL/min, all
 * exact integers.
 */
#ifndef RACKC_LOADS_H
#define RACKC_LOADS_H

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
 */
struct feed_load {
	uint32_t feed;
	int64_t load, lost_load;
	uint32_t lost_feed;
};

/* One entry per feed, in declaration order (malloc'd; *@n entries). */
struct feed_load *feed_loads(const struct rk_design *d, uint32_t *n);

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
 */
struct loop_load {
	uint32_t loop;
	int64_t heat, capacity, flow, max_flow;
};

/* One entry per loop, in declaration order (malloc'd; *@n entries). */
struct loop_load *loop_loads(const struct rk_design *d, uint32_t *n);

#endif
