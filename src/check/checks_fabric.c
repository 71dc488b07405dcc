/* SPDX-License-Identifier: MIT */
/*
 * Fabric checks: leaf oversubscription against the declared ratio, rail
 * consistency of rail-optimised trees, and endpoints left unconnected.
 */
#include "rackc.h"
#include "arith.h"

#include <stdio.h>

#include "checks.h"
#include "metrics.h"
#include "schema.h"

static void run_oversub(struct check_ctx *c)
{
	const struct rk_design *d = c->d;

	for (uint32_t f = 0; f < d->nobjs && !check_stop(c); f++) {
		const struct rk_value *ov;
		const struct fabric_metrics *mp;
		char a[RK_QFMT_MAX], b[RK_QFMT_MAX];

		if (d->objs[f].kind != K_FABRIC)
			continue;
		ov = ir_attr(d, f, A_OVERSUB);
		if (!ov)
			continue;
		mp = derived_fabric(c->dv, f);
		if (mp->leaf_worst == RK_NONE)
			continue;
		/* down/up > declared d/u ? */
		if ((i128)mp->leaf_worst_down * ov->a <=
		    (i128)mp->leaf_worst_up * ov->n)
			continue;
		check_qfmt2(DIM_RATE, mp->leaf_worst_down, mp->leaf_worst_up, a,
			    b);
		check_fail(
		    c, f, &ov->loc,
		    "leaf %s of fabric '%s' is oversubscribed beyond the "
		    "declared %lld:%u",
		    ir_name(d, mp->leaf_worst), ir_name(d, f), (long long)ov->n,
		    ov->a);
		check_note(c, &d->objs[mp->leaf_worst].loc, "%s down, %s up", a,
			   b);
	}
}

static void run_rails(struct check_ctx *c)
{
	const struct rk_design *d = c->d;

	for (uint32_t f = 0; f < d->nobjs && !check_stop(c); f++) {
		const struct fabric_metrics *mp;

		if (d->objs[f].kind != K_FABRIC || d->objs[f].cls != 1)
			continue;
		mp = derived_fabric(c->dv, f);
		if (mp->rail_mixed == RK_NONE)
			continue;
		check_fail(c, f, &d->objs[f].loc,
			   "leaf %s of rail-optimised fabric '%s' serves more "
			   "than one rail",
			   ir_name(d, mp->rail_mixed), ir_name(d, f));
		check_note(
		    c, &d->objs[mp->rail_mixed].loc,
		    "NIC r of every node should reach the rail-r leaves");
	}
}

static void run_endpoints(struct check_ctx *c)
{
	const struct rk_design *d = c->d;

	for (uint32_t f = 0; f < d->nobjs && !check_stop(c); f++) {
		const struct fabric_metrics *mp;

		if (d->objs[f].kind != K_FABRIC)
			continue;
		mp = derived_fabric(c->dv, f);
		if (mp->endpoints >= mp->declared)
			continue;
		check_fail(c, f, &d->objs[f].loc,
			   "fabric '%s' connects %u of its %u endpoints",
			   ir_name(d, f), mp->endpoints, mp->declared);
	}
}

CHECK_DEFINE(fabric_oversubscription, "fabric-oversubscription", CHECK_WARN,
	     "a leaf's down:up bandwidth exceeds the declared ratio",
	     run_oversub);
CHECK_DEFINE(fabric_rails, "fabric-rails", CHECK_WARN,
	     "rail-optimised leaves serve one rail each", run_rails);
CHECK_DEFINE(fabric_endpoints, "fabric-endpoints", CHECK_WARN,
	     "every endpoint of a fabric is connected", run_endpoints);
