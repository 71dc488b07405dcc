/* SPDX-License-Identifier: MIT */
/*
 * Usable capacity of a power supply (a PDU, a power shelf or a feed such
 * as a busway or a UPS), exact: the one figure the power checks compare
 * loads with and report.json prints.
 */
#ifndef RACKC_SUPPLY_H
#define RACKC_SUPPLY_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"
#include "units.h"

/* 2^62 - 1 mW: the largest capacity held exactly (see @mw below) */
#define SUPPLY_MW_MAX (((int64_t)1 << 62) - 1)

enum supply_how {
	SUPPLY_NONE,  /* no capacity, voltage or current given */
	SUPPLY_GIVEN, /* `capacity`, taken as usable */
	SUPPLY_1PH,   /* V x A x derate */
	SUPPLY_3PH,   /* V (line to line) x A x sqrt(3) x derate */
};

/**
 * struct supply_cap - usable capacity of one supply
 * @how:    where it comes from
 * @mw:     the capacity rounded down to the milliwatt.  Loads are whole
 *          milliwatts, so a load L fits the real capacity C exactly when
 *          L <= @mw.  A capacity of 2^62 mW (4.6 PW) or more is given as
 *          SUPPLY_MW_MAX, a lower bound (with @exact false).
 * @uw:     the capacity rounded down to the microwatt, for printing; -1
 *          when that does not fit 64 bits
 * @exact:  the capacity is exactly @uw microwatts (false for sqrt(3))
 * @volt, @amp, @derate: the figures (mV, mA, ppm; @derate 0: none given)
 * @loc:    the attribute that decides it
 */
struct supply_cap {
	enum supply_how how;
	int64_t mw, uw;
	bool exact;
	int64_t volt, amp, derate;
	const struct srcloc *loc;
};

/*
 * The capacity of @obj (an instance or a part) from its inherited
 * `capacity`, or `voltage`, `current`, `phases` (1 or 3) and `derate`.
 */
void supply_capacity(const struct rk_design *d, uint32_t obj,
		     struct supply_cap *cp);
/* supply_capacity()'s @mw, 0 when there is none. */
int64_t supply_capacity_mw(const struct rk_design *d, uint32_t obj);
/*
 * The capacity as text in @buf (RK_QFMT_MAX bytes), to the microwatt, with
 * "..." after the digits when they are truncated: "34.502452087...kW".
 */
const char *supply_format(const struct supply_cap *cp, char *buf);
/*
 * Per object (indexed by object id; 0 for all but racks, malloc'd): the
 * capacity a rack keeps after the loss of its worst feed, from the PDUs
 * and power shelves mounted in it.
 */
int64_t *supply_rack_capacities(const struct rk_design *d);

#endif
