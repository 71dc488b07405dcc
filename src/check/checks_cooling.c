/* SPDX-License-Identifier: MIT */
/*
 * Cooling checks: air-side heat per rack against the air zone's per-rack
 * limit, liquid-cooled parts without a loop, rear doors, CDU capacity and
 * coolant flow of liquid loops, and room (air zone) capacity.
 *
 * The heat model the checks judge (heat of each device and its split,
 * rear doors, CDU redundancy, coolant flow) is cooling_model.c's, computed
 * once per compilation into the figure cache (derived_cooling); that file
 * states its rules.
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "cooling_model.h"
#include "layout.h"
#include "loads.h"
#include "metrics.h"
#include "models.h"
#include "schema.h"

/* "heat 11.3kW (above its power_max 10.2kW)" or "power_max 10.2kW" */
static void heat_text(const struct heat *h, char *out, size_t n)
{
	char a[RK_QFMT_MAX], b[RK_QFMT_MAX];

	if (h->given > h->pmax && h->pmax)
		snprintf(out, n, "heat %s (above its power_max %s)",
			 FP(h->given, a), FP(h->pmax, b));
	else if (h->given > h->pmax)
		snprintf(out, n, "heat %s", FP(h->given, a));
	else
		snprintf(out, n, "power_max %s", FP(h->pmax, a));
}

/* The design's cooling model (cooling_model.c), from the figure cache. */
static const struct cmodel *cooling_model(struct check_ctx *c)
{
	return derived_cooling(c->dv);
}

/* ---- grouped notes ---- */

struct hgroup {
	uint32_t part, first, count;
	int64_t v;
	struct heat h;
};

enum side { SIDE_AIR, SIDE_LIQUID, SIDE_NEED };

/*
 * Notes for a list of devices (@first, then the next on its loop when
 * @on_loop, else the next in its rack): one line per part and figure, on
 * the air or liquid side.
 */
static void note_devices(struct check_ctx *c, const struct cmodel *m,
			 uint32_t first, bool on_loop, enum side side)
{
	const struct rk_design *d = m->d;
	struct hgroup *g = NULL;
	uint32_t ng = 0, gcap = 0, more = 0, nunk = 0, unknown = RK_NONE;
	int64_t more_v = 0;

	for (uint32_t i = first; i != RK_NONE;
	     i = on_loop ? cm_at(m, i)->loop_next : cm_at(m, i)->dev_next) {
		struct heat h;
		int64_t v;
		uint32_t k;

		cm_heat_of(d, i, cm_at(m, i)->loop_of != RK_NONE, &h);
		/* heat unknown: counted below, never shown as 0 W */
		if (side != SIDE_NEED &&
		    (metrics_figures_unknown(d, i) & TOTAL_HEAT) &&
		    (side == SIDE_AIR
			 ? h.rule != HR_LIQUID && !(h.rule == HR_FRACTION &&
						    h.frac == RK_RATIO_ONE)
			 : h.rule != HR_AIR &&
			       !(h.rule == HR_FRACTION && !h.frac))) {
			if (unknown == RK_NONE)
				unknown = i;
			nunk++;
			continue;
		}
		if (side == SIDE_NEED) {
			if (cm_at(m, i)->loop_of != RK_NONE ||
			    !cm_needs_liquid(d, i))
				continue;
			v = 0;
		} else {
			v = side == SIDE_AIR ? h.air : h.liq;
			if (!v)
				continue;
		}
		for (k = 0; k < ng; k++)
			if (g[k].part == d->objs[i].part && g[k].v == v &&
			    g[k].h.heat == h.heat && g[k].h.rule == h.rule)
				break;
		if (k == ng) {
			struct hgroup *x = VEC_PUSH(g, ng, gcap);

			x->part = d->objs[i].part;
			x->first = i;
			x->count = 0;
			x->v = v;
			x->h = h;
		}
		g[k].count++;
	}
	for (uint32_t k = 0; k < ng; k++) {
		const struct hgroup *x = &g[k];
		char who[600], ht[200], a[RK_QFMT_MAX], b[RK_QFMT_MAX];
		const char *each = x->count > 1 ? " each" : "";

		if (k >= CHECK_GROUP_NOTES) {
			more += x->count;
			more_v = check_sadd(
			    more_v, check_sat((__int128)x->v * x->count));
			continue;
		}
		check_group_who(d, x->first, x->count, who, sizeof(who));
		heat_text(&x->h, ht, sizeof(ht));
		FP(x->v, a);
		check_qfmt(DIM_RATIO, x->h.frac, b);
		if (side == SIDE_NEED)
			check_note(c, &d->objs[x->first].loc, "%s: cooling %s",
				   who, ir_str(d, x->first, A_COOLING));
		else if (x->h.rule == HR_FRACTION)
			check_note(c, &d->objs[x->first].loc,
				   "%s: %s, %s to liquid: %s%s", who, ht, b, a,
				   each);
		else if (x->h.rule == HR_HYBRID)
			check_note(c, &d->objs[x->first].loc,
				   "%s: %s%s (cooling hybrid without "
				   "liquid_fraction: counted on air and "
				   "liquid)",
				   who, ht, each);
		else
			check_note(c, &d->objs[x->first].loc, "%s: %s%s", who,
				   ht, each);
	}
	if (more) {
		char a[RK_QFMT_MAX];

		check_note(c, NULL, "and %u more devices: %s", more,
			   FP(more_v, a));
	}
	if (nunk)
		check_note(c, &d->objs[unknown].loc,
			   "a lower bound: %u %s no power_max or heat, %s (%s) "
			   "the first, counted as nothing",
			   nunk, nunk == 1 ? "device gives" : "devices give",
			   ir_name(d, unknown), check_part_name(d, unknown));
	free(g);
}

/* Note: what the rear door of @rack takes. */
static void note_door(struct check_ctx *c, const struct cmodel *m,
		      uint32_t rack)
{
	const struct rk_design *d = m->d;
	char a[RK_QFMT_MAX], b[RK_QFMT_MAX], t[RK_QFMT_MAX];
	int64_t cap;
	uint32_t p = cm_door_of(d, rack, &cap);

	if (p == RK_NONE || cap <= 0)
		return;
	check_note(c, &ir_attr_inh(d, rack, A_RDHX)->loc,
		   "rear door %s (capacity %s) takes %s of %s", ir_name(d, p),
		   FP(cap, a), FP(cm_at(m, rack)->door, b),
		   FP(cm_at(m, rack)->air, t));
}

/* Notes: the racks of air zone @z, the largest few first. */
static void note_zone_racks(struct check_ctx *c, const struct cmodel *m,
			    uint32_t z)
{
	const struct rk_design *d = m->d;
	uint32_t best[3], nb = 0, rest = 0;
	int64_t rest_v = 0;

	for (uint32_t r = cm_at(m, z)->zone_rack; r != RK_NONE;
	     r = cm_at(m, r)->rack_next) {
		int64_t v = cm_air_after(m, r);
		uint32_t k;

		if (!v)
			continue;
		if (nb < ARRAY_SIZE(best)) {
			best[nb++] = r;
		} else {
			k = 0;
			for (uint32_t j = 1; j < nb; j++)
				if (cm_air_after(m, best[j]) <
				    cm_air_after(m, best[k]))
					k = j;
			if (cm_air_after(m, best[k]) < v) {
				rest_v = check_sadd(rest_v,
						    cm_air_after(m, best[k]));
				best[k] = r;
			} else {
				rest_v = check_sadd(rest_v, v);
			}
			rest++;
		}
	}
	/* largest first, ties in declaration order */
	for (uint32_t i = 0; i < nb; i++)
		for (uint32_t j = i + 1; j < nb; j++)
			if (cm_air_after(m, best[j]) >
				cm_air_after(m, best[i]) ||
			    (cm_air_after(m, best[j]) ==
				 cm_air_after(m, best[i]) &&
			     best[j] < best[i])) {
				uint32_t t = best[i];

				best[i] = best[j];
				best[j] = t;
			}
	for (uint32_t i = 0; i < nb; i++) {
		char a[RK_QFMT_MAX];

		check_note(c, &d->objs[best[i]].loc, "rack %s: %s to air",
			   ir_name(d, best[i]),
			   FP(cm_air_after(m, best[i]), a));
	}
	if (rest) {
		char a[RK_QFMT_MAX];

		check_note(c, NULL, "and %u more racks: %s", rest,
			   FP(rest_v, a));
	}
}

/* ---- cooling-liquid-required ---- */

static void run_liquid_required(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct cmodel *m = cooling_model(c);

	for (uint32_t i = 0; i < d->nobjs && !check_stop(c); i++) {
		const struct rk_obj *o = &d->objs[i];
		uint32_t need = 0, one = RK_NONE;

		if (o->kind == K_DEVICE && layout_rack_of(d, i) == RK_NONE &&
		    cm_at(m, i)->loop_of == RK_NONE && cm_needs_liquid(d, i)) {
			check_fail(c, i, &o->loc,
				   "device %s needs liquid cooling (part %s, "
				   "cooling %s) but is on no liquid loop",
				   ir_name(d, i), check_part_name(d, i),
				   ir_str(d, i, A_COOLING));
			continue;
		}
		if (o->kind != K_RACK)
			continue;
		for (uint32_t k = cm_at(m, i)->rack_dev; k != RK_NONE;
		     k = cm_at(m, k)->dev_next)
			if (cm_at(m, k)->loop_of == RK_NONE &&
			    cm_needs_liquid(d, k)) {
				need++;
				one = k;
			}
		if (!need)
			continue;
		if (need == 1)
			check_fail(c, i, &o->loc,
				   "rack %s has no liquid loop, but device %s "
				   "in it needs liquid cooling",
				   ir_name(d, i), ir_name(d, one));
		else
			check_fail(c, i, &o->loc,
				   "rack %s has no liquid loop, but %u devices "
				   "in it need liquid cooling",
				   ir_name(d, i), need);
		note_devices(c, m, cm_at(m, i)->rack_dev, false, SIDE_NEED);
	}
}

/* ---- cooling-air-limit ---- */

static void run_air_limit(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct cmodel *m = cooling_model(c);

	for (uint32_t r = 0; r < d->nobjs && !check_stop(c); r++) {
		const struct rk_value *lim;
		uint32_t z;
		struct check_mark mk;
		char a[RK_QFMT_MAX], b[RK_QFMT_MAX];

		if (d->objs[r].kind != K_RACK)
			continue;
		z = model_ref(d, r, A_AIR);
		if (z == RK_NONE)
			continue;
		lim = ir_attr(d, z, A_RACK_LIMIT);
		if (!lim || lim->type != VT_NUM)
			continue;
		mk = check_cover_begin(c);
		if (cm_air_after(m, r) <= lim->n) {
			check_cover(c, r, mk, cm_at(m, r)->air_unk);
			continue;
		}
		check_fail(
		    c, r, &d->objs[r].loc,
		    "rack %s puts %s%s of heat into the air, above the "
		    "%s rack_limit of air zone %s",
		    ir_name(d, r), cm_at(m, r)->air_unk ? "at least " : "",
		    check_qfmt2(DIM_POWER, cm_air_after(m, r), lim->n, a, b), b,
		    ir_name(d, z));
		check_note(c, &lim->loc, "rack_limit given here");
		note_devices(c, m, cm_at(m, r)->rack_dev, false, SIDE_AIR);
		note_door(c, m, r);
		check_cover(c, r, mk, cm_at(m, r)->air_unk);
	}
}

/* ---- cooling-rdhx ---- */

static void run_rdhx(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct cmodel *m = cooling_model(c);

	for (uint32_t r = 0; r < d->nobjs && !check_stop(c); r++) {
		const struct rk_value *rv;
		uint32_t p;
		int64_t cap;
		struct check_mark mk;
		char a[RK_QFMT_MAX], b[RK_QFMT_MAX], t[RK_QFMT_MAX];

		if (d->objs[r].kind != K_RACK)
			continue;
		p = cm_door_of(d, r, &cap);
		if (p == RK_NONE)
			continue;
		rv = ir_attr_inh(d, r, A_RDHX);
		if (cap < 0) {
			check_fail(c, r, &rv->loc,
				   "rear door %s of rack %s gives no capacity, "
				   "so it takes no heat off the air side",
				   ir_name(d, p), ir_name(d, r));
			check_note(c, &d->objs[p].loc, "part %s defined here",
				   ir_name(d, p));
			continue;
		}
		/* in an air zone, cooling-air-limit and -room judge the rest */
		if (model_ref(d, r, A_AIR) != RK_NONE)
			continue;
		mk = check_cover_begin(c);
		if (cm_at(m, r)->air <= cap) {
			check_cover(c, r, mk, cm_at(m, r)->air_unk);
			continue;
		}
		check_fail(
		    c, r, &rv->loc,
		    "rack %s sends %s%s of air-side heat to its rear "
		    "door %s rated %s, and is in no air zone to take "
		    "the other %s%s",
		    ir_name(d, r), cm_at(m, r)->air_unk ? "at least " : "",
		    check_qfmt2(DIM_POWER, cm_at(m, r)->air, cap, a, b),
		    ir_name(d, p), b, cm_at(m, r)->air_unk ? "at least " : "",
		    FP(cm_at(m, r)->air - cap, t));
		note_devices(c, m, cm_at(m, r)->rack_dev, false, SIDE_AIR);
		check_cover(c, r, mk, cm_at(m, r)->air_unk);
	}
}

/* ---- loops: CDU capacity and flow ---- */

/*
 * Whether every CDU of @loop that lacks @key has the missing figure waived
 * (cooling-figure-unknown), so that the loop's verdict counts as waived.
 */
static bool cdu_gaps_waived(struct check_ctx *c, uint32_t loop, uint32_t key)
{
	const struct rk_design *d = c->d;
	const struct rk_value *lv = ir_attr(d, loop, A_CDU);
	uint32_t n = lv && lv->type == VT_LIST ? (uint32_t)lv->n : 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct rk_value *e = ir_list_at(d, lv, i);
		const struct rk_value *x;

		if (e->type != VT_OBJ)
			continue;
		x = ir_attr_inh(d, e->a, key);
		if ((!x || x->type != VT_NUM) &&
		    !check_waived_for(c, e->a, &check_cooling_figure_unknown))
			return false;
	}
	return true;
}

/* Notes: the CDUs of @loop with their @key figures. */
static void note_cdus(struct check_ctx *c, const struct rk_design *d,
		      uint32_t loop, uint32_t key, int64_t spares,
		      int64_t total, int64_t usable, enum dim dim)
{
	const struct rk_value *lv = ir_attr(d, loop, A_CDU);
	const char *red = ir_str(d, loop, A_REDUNDANCY);
	char a[RK_QFMT_MAX], b[RK_QFMT_MAX];
	uint32_t shown = 0;

	for (uint32_t i = 0; i < (uint32_t)lv->n; i++) {
		const struct rk_value *e = ir_list_at(d, lv, i);

		if (e->type != VT_OBJ)
			continue;
		if (shown++ == CHECK_GROUP_NOTES) {
			check_note(c, NULL, "and %u more CDUs",
				   (uint32_t)lv->n - i);
			break;
		}
		check_note(c, &e->loc, "CDU %s (%s): %s %s", ir_name(d, e->a),
			   check_part_name(d, e->a), attr_table[key].name,
			   check_qfmt(dim, check_num0(d, e->a, key), a));
	}
	if (spares)
		check_note(c, &ir_attr(d, loop, A_REDUNDANCY)->loc,
			   "redundancy \"%s\": %s less the %lld largest = %s",
			   red, check_qfmt(dim, total, a), (long long)spares,
			   check_qfmt(dim, usable, b));
}

/* Notes: where the liquid heat of @loop comes from. */
static void note_loop_heat(struct check_ctx *c, const struct cmodel *m,
			   uint32_t loop)
{
	int64_t doors = 0;
	uint32_t nd = 0, first = RK_NONE;
	char a[RK_QFMT_MAX];

	note_devices(c, m, cm_at(m, loop)->loop_dev, true, SIDE_LIQUID);
	for (uint32_t r = cm_at(m, loop)->loop_rack; r != RK_NONE;
	     r = cm_at(m, r)->rack_lnext)
		if (cm_at(m, r)->door) {
			doors = check_sadd(doors, cm_at(m, r)->door);
			if (!nd++)
				first = r;
		}
	if (nd == 1)
		check_note(c, &ir_attr_inh(m->d, first, A_RDHX)->loc,
			   "rear door of rack %s: %s", ir_name(m->d, first),
			   FP(doors, a));
	else if (nd)
		check_note(c, &ir_attr_inh(m->d, first, A_RDHX)->loc,
			   "rear doors of %u racks: %s", nd, FP(doors, a));
}

static void run_cdu_capacity(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct cmodel *m = cooling_model(c);

	for (uint32_t l = 0; l < d->nobjs && !check_stop(c); l++) {
		const struct rk_value *lv;
		int64_t spares, total, usable;
		uint32_t n;
		struct check_mark mk;
		char a[RK_QFMT_MAX], b[RK_QFMT_MAX];

		if (d->objs[l].kind != K_LOOP)
			continue;
		lv = ir_attr(d, l, A_CDU);
		n = lv && lv->type == VT_LIST ? (uint32_t)lv->n : 0;
		spares = cm_loop_spares(d, l, n);
		if (spares < 0) {
			check_fail(c, l, &ir_attr(d, l, A_REDUNDANCY)->loc,
				   "cannot read redundancy \"%s\" of loop %s: "
				   "write \"N\", \"N+1\" (\"N+K\") or \"N+N\"",
				   ir_str(d, l, A_REDUNDANCY), ir_name(d, l));
			continue;
		}
		if (!cm_at(m, l)->liq && !cm_at(m, l)->liq_unk)
			continue;
		mk = check_cover_begin(c);
		if (!n) {
			check_fail(c, l, &d->objs[l].loc,
				   "loop %s takes %s%s of heat to liquid but "
				   "has no CDU",
				   ir_name(d, l),
				   cm_at(m, l)->liq_unk ? "at least " : "",
				   FP(cm_at(m, l)->liq, a));
			note_loop_heat(c, m, l);
			check_cover(c, l, mk, cm_at(m, l)->liq_unk);
			continue;
		}
		/* a CDU without capacity: cooling-figure-unknown reports it */
		if (!cm_cdu_sum(d, l, A_CAPACITY, spares, &total, &usable)) {
			check_cover_figure(c, l, mk,
					   cdu_gaps_waived(c, l, A_CAPACITY));
			continue;
		}
		if (cm_at(m, l)->liq <= usable) {
			check_cover(c, l, mk, cm_at(m, l)->liq_unk);
			continue;
		}
		if (spares)
			check_fail(
			    c, l, &d->objs[l].loc,
			    "loop %s takes %s%s of heat to liquid, above "
			    "the %s its CDUs give with redundancy \"%s\"",
			    ir_name(d, l),
			    cm_at(m, l)->liq_unk ? "at least " : "",
			    check_qfmt2(DIM_POWER, cm_at(m, l)->liq, usable, a,
					b),
			    b, ir_str(d, l, A_REDUNDANCY));
		else
			check_fail(c, l, &d->objs[l].loc,
				   "loop %s takes %s%s of heat to liquid, "
				   "above the %s capacity of its CDUs",
				   ir_name(d, l),
				   cm_at(m, l)->liq_unk ? "at least " : "",
				   check_qfmt2(DIM_POWER, cm_at(m, l)->liq,
					       usable, a, b),
				   b);
		note_cdus(c, d, l, A_CAPACITY, spares, total, usable,
			  DIM_POWER);
		note_loop_heat(c, m, l);
		check_cover(c, l, mk, cm_at(m, l)->liq_unk);
	}
}

static void run_flow(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct cmodel *m = cooling_model(c);

	for (uint32_t l = 0; l < d->nobjs && !check_stop(c); l++) {
		const struct rk_value *cv, *tv, *lv;
		const struct coolant *co;
		int64_t spares, total, usable, need, dt;
		uint32_t n;
		struct check_mark mk;
		char a[RK_QFMT_MAX], b[RK_QFMT_MAX], t[RK_QFMT_MAX];
		char w[RK_QFMT_MAX], k[RK_QFMT_MAX];

		if (d->objs[l].kind != K_LOOP ||
		    (!cm_at(m, l)->liq && !cm_at(m, l)->liq_unk))
			continue;
		mk = check_cover_begin(c);
		cv = ir_attr(d, l, A_COOLANT);
		tv = ir_attr(d, l, A_DELTA_T);
		if (!cv || !tv || tv->type != VT_NUM) {
			/* nothing to size with: cooling-figure-unknown */
			check_cover_figure(
			    c, l, mk,
			    check_waived_for(c, l,
					     &check_cooling_figure_unknown));
			continue;
		}
		co = cm_coolant_of(d, l);
		if (!co) {
			check_fail(c, l, &cv->loc,
				   "rackc has no heat capacity and density for "
				   "coolant %s, so it cannot size the flow of "
				   "loop %s",
				   str_of(d->arena, cv->a), ir_name(d, l));
			check_note(c, NULL, "known coolants: water, pg25");
			continue;
		}
		dt = tv->n;
		if (dt <= 0) {
			check_fail(c, l, &tv->loc,
				   "delta_t of loop %s must be above zero",
				   ir_name(d, l));
			continue;
		}
		lv = ir_attr(d, l, A_CDU);
		n = lv && lv->type == VT_LIST ? (uint32_t)lv->n : 0;
		spares = cm_loop_spares(d, l, n);
		/* no figure to compare with: cooling-cdu-capacity reports a
		 * loop without CDUs, cooling-figure-unknown one without
		 * max_flow */
		if (!n || spares < 0) {
			check_cover(c, l, mk, true);
			continue;
		}
		if (!cm_cdu_sum(d, l, A_MAX_FLOW, spares, &total, &usable)) {
			check_cover_figure(c, l, mk,
					   cdu_gaps_waived(c, l, A_MAX_FLOW));
			continue;
		}
		need = cm_flow_needed(co, cm_at(m, l)->liq, dt);
		if (need <= usable) {
			check_cover(c, l, mk, cm_at(m, l)->liq_unk);
			continue;
		}
		check_qfmt2(DIM_FLOW, need, usable, a, b);
		check_fail(c, l, &d->objs[l].loc,
			   "loop %s needs %s%s of %s to carry %s at a %s rise, "
			   "above the %s its CDUs deliver",
			   ir_name(d, l),
			   /* heat saturated or with an unknown term: the
			    * flow is a lower bound */
			   cm_at(m, l)->liq == INT64_MAX || cm_at(m, l)->liq_unk
			       ? "at least "
			       : "",
			   a, co->name, FP(cm_at(m, l)->liq, t),
			   quantity_format_in((struct quantity){ DIM_TEMP, dt },
					      "K", k),
			   b);
		check_note(
		    c, &cv->loc, "%s: c_p %lld J/(kg K), density %lld g/L (%s)",
		    co->name, (long long)co->cp, (long long)co->rho, co->src);
		if (cm_at(m, l)->liq != INT64_MAX)
			check_note(
			    c, &tv->loc,
			    "flow [mL/min] = 60000000 x P [W] / (density x c_p "
			    "x delta_t [K]) = 60000000 x %s / (%lld x %lld x "
			    "%s) = %s, rounded up",
			    quantity_format_in(
				(struct quantity){ DIM_POWER,
						   cm_at(m, l)->liq },
				"W", w),
			    (long long)co->rho, (long long)co->cp,
			    quantity_format_in(
				(struct quantity){ DIM_TEMP, dt }, "K", k),
			    quantity_format((struct quantity){ DIM_FLOW, need },
					    a));
		note_cdus(c, d, l, A_MAX_FLOW, spares, total, usable, DIM_FLOW);
		note_loop_heat(c, m, l);
		check_cover(c, l, mk, cm_at(m, l)->liq_unk);
	}
}

/* ---- cooling-room ---- */

static void run_room(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct cmodel *m = cooling_model(c);

	/* a rack a failed prerequisite skips skips its air zone too */
	for (uint32_t r = 0; c->skip && r < d->nobjs; r++)
		if (d->objs[r].kind == K_RACK && check_skipped(c, r))
			check_skip_add(c, model_ref(d, r, A_AIR));
	for (uint32_t z = 0; z < d->nobjs && !check_stop(c); z++) {
		const struct rk_value *cv;
		int64_t sum = 0;
		bool unk = false;
		struct check_mark mk;
		char a[RK_QFMT_MAX], b[RK_QFMT_MAX];

		if (d->objs[z].kind != K_AIR)
			continue;
		cv = ir_attr(d, z, A_CAPACITY);
		if (!cv || cv->type != VT_NUM)
			continue;
		mk = check_cover_begin(c);
		for (uint32_t r = cm_at(m, z)->zone_rack; r != RK_NONE;
		     r = cm_at(m, r)->rack_next) {
			sum = check_sadd(sum, cm_air_after(m, r));
			unk = unk || cm_at(m, r)->air_unk;
		}
		if (sum <= cv->n) {
			check_cover(c, z, mk, unk);
			continue;
		}
		check_fail(c, z, &d->objs[z].loc,
			   "air zone %s takes %s%s of heat from its racks, "
			   "above its capacity %s",
			   ir_name(d, z), unk ? "at least " : "",
			   check_qfmt2(DIM_POWER, sum, cv->n, a, b), b);
		check_note(c, &cv->loc, "capacity given here");
		note_zone_racks(c, m, z);
		check_cover(c, z, mk, unk);
	}
}

/* ---- cooling-figure-unknown ---- */

/*
 * A loop that takes heat to liquid without the coolant or the delta_t that
 * cooling-flow sizes its flow with: reported at the loop.
 */
static void report_unsized(struct check_ctx *c, const struct cmodel *m,
			   uint32_t l)
{
	const struct rk_design *d = c->d;
	bool has_c = ir_attr(d, l, A_COOLANT) != NULL;
	const struct rk_value *tv = ir_attr(d, l, A_DELTA_T);
	bool has_t = tv && tv->type == VT_NUM;
	char a[RK_QFMT_MAX];

	check_fail(c, l, &d->objs[l].loc,
		   "loop %s gives %s: cooling-flow cannot size the coolant "
		   "flow its %s%s of heat to liquid needs",
		   ir_name(d, l),
		   has_c   ? "no delta_t"
		   : has_t ? "no coolant"
			   : "no coolant and no delta_t",
		   cm_at(m, l)->liq_unk ? "at least " : "",
		   FP(cm_at(m, l)->liq, a));
	check_note(c, NULL,
		   "give the loop's %s, with the source, or waive "
		   "\"cooling-figure-unknown\" with the reason",
		   has_c   ? "delta_t"
		   : has_t ? "coolant (water or pg25)"
			   : "coolant (water or pg25) and delta_t");
}

/*
 * A CDU on a loop that takes heat to liquid, whose part gives no capacity
 * (cooling-cdu-capacity) or no max_flow (cooling-flow): reported once per
 * part and figure, at the part, against the first such CDU that no waiver
 * covers (on the CDU or an object enclosing it).
 */
static void run_figure_unknown(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct cmodel *m = cooling_model(c);
	static const uint32_t keys[] = { A_CAPACITY, A_MAX_FLOW };
	static const char *const by[] = { "cooling-cdu-capacity",
					  "cooling-flow" };
	uint8_t *seen = xcalloc(d->nobjs + 1, 1);

	for (uint32_t l = 0; l < d->nobjs && !check_stop(c); l++) {
		const struct rk_value *lv, *tv;
		bool sized;

		if (d->objs[l].kind != K_LOOP ||
		    (!cm_at(m, l)->liq && !cm_at(m, l)->liq_unk))
			continue;
		/* max_flow matters where cooling-flow can size the loop */
		tv = ir_attr(d, l, A_DELTA_T);
		sized = ir_attr(d, l, A_COOLANT) && tv && tv->type == VT_NUM;
		if (!sized && !check_waived(c, l))
			report_unsized(c, m, l);
		lv = ir_attr(d, l, A_CDU);
		for (uint32_t i = 0; lv && lv->type == VT_LIST && i < lv->n;
		     i++) {
			const struct rk_value *e = ir_list_at(d, lv, i);
			uint32_t cdu, part;

			if (e->type != VT_OBJ)
				continue;
			cdu = e->a;
			part = d->objs[cdu].part;
			for (unsigned k = 0; k < ARRAY_SIZE(keys); k++) {
				const struct rk_value *x =
				    ir_attr_inh(d, cdu, keys[k]);

				if ((x && x->type == VT_NUM) ||
				    (keys[k] == A_MAX_FLOW && !sized) ||
				    (part != RK_NONE && (seen[part] >> k) & 1))
					continue;
				if (check_waived(c, cdu))
					continue;
				if (part != RK_NONE)
					seen[part] |= (uint8_t)(1u << k);
				check_fail(
				    c, cdu,
				    part != RK_NONE ? &d->objs[part].loc
						    : &e->loc,
				    "%s %s gives no %s: %s cannot compare "
				    "the %s of loop %s with what its CDUs "
				    "take",
				    part != RK_NONE ? "part" : "CDU",
				    part != RK_NONE ? ir_name(d, part)
						    : ir_name(d, cdu),
				    attr_table[keys[k]].name, by[k],
				    keys[k] == A_CAPACITY ? "heat"
							  : "coolant flow",
				    ir_name(d, l));
				if (part != RK_NONE) {
					const struct srcloc *ul = NULL;
					uint32_t from = part;
					const char *why =
					    metrics_unknown_reason(
						d, part,
						attr_table[keys[k]].name, &ul,
						&from);

					if (why)
						check_note(
						    c, ul,
						    "part %s marks %s "
						    "unknown: %s",
						    ir_name(d, from),
						    attr_table[keys[k]].name,
						    why);
				}
				check_note(c, &e->loc, "CDU %s is on loop %s",
					   ir_name(d, cdu), ir_name(d, l));
				check_note(c, NULL,
					   "give the part's %s (with its "
					   "source), or waive "
					   "\"cooling-figure-unknown\" with "
					   "the reason",
					   attr_table[keys[k]].name);
			}
		}
	}
	free(seen);
}

CHECK_DEFINE(cooling_figure_unknown, "cooling-figure-unknown", CHECK_ERROR,
	     "a loop that takes heat to liquid gives its coolant and "
	     "delta_t, and its CDUs their capacity and max_flow",
	     run_figure_unknown);
CHECK_DEFINE(cooling_liquid_required, "cooling-liquid-required", CHECK_ERROR,
	     "liquid and hybrid parts sit on a liquid loop",
	     run_liquid_required);
CHECK_AFTER(cooling_air_limit, "cooling-air-limit", CHECK_ERROR,
	    "each rack's air-side heat stays within its air zone's rack_limit",
	    run_air_limit, &check_cooling_liquid_required);
CHECK_DEFINE(cooling_rdhx, "cooling-rdhx", CHECK_WARN,
	     "rear doors have a capacity, and racks in no air zone do not "
	     "overrun theirs",
	     run_rdhx);
CHECK_DEFINE(cooling_cdu_capacity, "cooling-cdu-capacity", CHECK_ERROR,
	     "a loop's CDUs (less redundancy) take its liquid heat",
	     run_cdu_capacity);
CHECK_DEFINE(cooling_flow, "cooling-flow", CHECK_ERROR,
	     "a loop's CDUs deliver the coolant flow its heat and delta_t "
	     "need",
	     run_flow);
CHECK_AFTER(cooling_room, "cooling-room", CHECK_ERROR,
	    "an air zone's capacity covers the air-side heat of its racks",
	    run_room, &check_cooling_liquid_required);
