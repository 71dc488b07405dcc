/* SPDX-License-Identifier: MIT */
/*
 * The cooling model: where each device's heat goes (air or liquid), the
 * air-side heat of each rack before and after its rear door, and the heat
 * each liquid loop takes, computed once per compilation into the figure
 * cache (derived_cooling, metrics.h) and read by the cooling checks
 * (checks_cooling.c) and the back ends (loads.h) alike.  One pass over the
 * devices.
 *
 *
 * The heat model (rebuilt by each check, one pass over the devices):
 *
 *  - A device's heat is the larger of its part's power_max and heat
 *    (N1: DGX H100 gives off 11.3 kW against a 10.2 kW
 *    electrical maximum).
 *  - A device is on a loop when it names one (`loop`) or its rack does.
 *    On a loop its heat splits: with liquid_fraction, heat x fraction
 *    (rounded down) goes to liquid and the rest to air; without one, a
 *    `cooling liquid` part sends all its heat to liquid, a `cooling hybrid`
 *    part is counted in full on both sides (the split is unknown, so both
 *    sides are judged conservatively), and anything else is air-cooled.
 *    Off a loop all heat goes to air (and cooling-liquid-required reports
 *    liquid and hybrid parts).
 *  - A rack's rear door (`rdhx`, a part with `capacity`) takes
 *    min(air-side heat, capacity) off the air side; the rest reaches the
 *    rack's air zone.  On a rack with a loop the door's heat is added to
 *    the loop (the door is taken to be fed from it).
 *  - Redundancy of a loop's CDUs: "N" (or none) uses all of them, "N+K"
 *    all but the K largest, "N+N" or "2N" all but the larger half.
 *  - Coolant flow from Q = m_dot x c_p x delta_T (water near 25 C):
 *        flow [mL/min] = 60 000 000 x P [W] / (rho [g/L] x c_p [J/(kg K)]
 *                                              x delta_T [K])
 *    (with P in mW and delta_T in mK the factors of 1000 cancel), exact in
 */
#include "rackc.h"

#include <stdlib.h>

#include "cooling_model.h"
#include "layout.h"
#include "loads.h"
#include "metrics.h"
#include "models.h"
#include "schema.h"

/*
 * Coolant properties.  Water: c_p 4.186 kJ/(kg K), density 0.997 kg/L
 * (Q = m c_p dT; S-COOL, the figures behind its L/min-per-kW table).  PG25
 * (25 % propylene glycol): c_p about 3.9 kJ/(kg K), density about
 * 1.02 kg/L -- estimates (tag E) from Q = m c_p dT; S-COOL.  pg30 and eg25
 * are accepted by the schema, but the reference gives no figures for them
 * and none with a source was found, so they are left out and reported
 * when a loop with heat uses them.
 */
static const struct coolant coolants[] = {
	{ "water", 4186, 997, "water near 25 C", false, NULL },
	{ "pg25", 3900, 1020, "estimate, S-COOL", true,
	  "c_p about 3.9 kJ/(kg K), density about 1.02 kg/L: estimates "
	  "(Q = m c_p dT; S-COOL)" },
};

/* ---- heat of one device ---- */

bool cm_needs_liquid(const struct rk_design *d, uint32_t dev)
{
	const char *c = ir_str(d, dev, A_COOLING);

	return c && (streq(c, "liquid") || streq(c, "hybrid"));
}

void cm_heat_of(const struct rk_design *d, uint32_t dev, bool on_loop,
		struct heat *h)
{
	const char *cool = ir_str(d, dev, A_COOLING);
	const struct rk_value *fv = ir_attr_inh(d, dev, A_LIQUID_FRACTION);

	memset(h, 0, sizeof(*h));
	h->pmax = model_num0(d, dev, A_POWER_MAX);
	h->given = model_num0(d, dev, A_HEAT);
	h->heat = h->given > h->pmax ? h->given : h->pmax;
	h->air = h->heat;
	h->rule = HR_AIR;
	if (!on_loop)
		return;
	if (fv && fv->type == VT_NUM) {
		h->frac = fv->n < 0		 ? 0
			  : fv->n > RK_RATIO_ONE ? RK_RATIO_ONE
						 : fv->n;
		h->liq = model_sat((i128)h->heat * h->frac / RK_RATIO_ONE);
		h->air = h->heat - h->liq;
		h->rule = HR_FRACTION;
	} else if (cool && streq(cool, "liquid")) {
		h->liq = h->heat;
		h->air = 0;
		h->rule = HR_LIQUID;
	} else if (cool && streq(cool, "hybrid")) {
		h->liq = h->heat;
		h->rule = HR_HYBRID;
	}
}

unsigned cm_heat_sides(const struct rk_design *d, uint32_t dev)
{
	uint32_t r = layout_rack_of(d, dev), l = model_ref(d, dev, A_LOOP);
	struct heat h;
	unsigned sides = 0;

	if (l == RK_NONE && r != RK_NONE)
		l = model_ref(d, r, A_LOOP);
	cm_heat_of(d, dev, l != RK_NONE, &h);
	if (h.rule != HR_LIQUID &&
	    !(h.rule == HR_FRACTION && h.frac == RK_RATIO_ONE))
		sides |= HEAT_AIR;
	if (h.rule != HR_AIR && !(h.rule == HR_FRACTION && !h.frac))
		sides |= HEAT_LIQUID;
	return sides;
}

/* ---- the model ---- */

/* The rear door of @rack: its part and capacity (-1 when not given). */
uint32_t cm_door_of(const struct rk_design *d, uint32_t rack, int64_t *cap)
{
	uint32_t p = model_ref(d, rack, A_RDHX);
	const struct rk_value *v;

	*cap = -1;
	if (p == RK_NONE)
		return RK_NONE;
	v = ir_attr_inh(d, p, A_CAPACITY);
	if (v && v->type == VT_NUM)
		*cap = v->n > 0 ? v->n : 0;
	return p;
}

/* The defaults of struct cm_obj: empty lists, no loop, no heat. */
static const struct cm_obj cm_none = {
	.loop_of = RK_NONE,
	.rack_dev = RK_NONE,
	.dev_next = RK_NONE,
	.loop_dev = RK_NONE,
	.loop_next = RK_NONE,
	.zone_rack = RK_NONE,
	.rack_next = RK_NONE,
	.loop_rack = RK_NONE,
	.rack_lnext = RK_NONE,
};

/* The entry of @obj in m->o, made on first use (model_slot). */
static uint32_t cm_slot(struct cmodel *m, uint32_t obj)
{
	return model_slot(m->ix, obj, (void **)&m->o, &m->no, &m->ocap,
			  sizeof(*m->o), &cm_none);
}

void cm_build(struct cmodel *m, const struct rk_design *d,
	      struct model_index *ix)
{
	uint32_t n = d->nobjs;

	memset(m, 0, sizeof(*m));
	m->d = d;
	m->ix = ix;
	*VEC_PUSH(m->o, m->no, m->ocap) = cm_none; /* o[0]: the defaults */

	/* backwards, so that the lists come out in declaration order */
	for (uint32_t i = n; i-- > 0;) {
		const struct rk_obj *o = &d->objs[i];
		uint32_t r, l, z, ei, ri, li;
		struct cm_obj *e, *x;
		struct heat h;
		bool unk;

		if (o->kind == K_RACK) {
			z = model_ref(d, i, A_AIR);
			if (z != RK_NONE) {
				ei = cm_slot(m, i);
				ri = cm_slot(m, z);
				m->o[ei].rack_next = m->o[ri].zone_rack;
				m->o[ri].zone_rack = i;
			}
			l = model_ref(d, i, A_LOOP);
			if (l != RK_NONE) {
				ei = cm_slot(m, i);
				li = cm_slot(m, l);
				m->o[ei].rack_lnext = m->o[li].loop_rack;
				m->o[li].loop_rack = i;
			}
			continue;
		}
		if (o->kind != K_DEVICE)
			continue;
		r = layout_rack_of(d, i);
		l = model_ref(d, i, A_LOOP);
		if (l == RK_NONE && r != RK_NONE)
			l = model_ref(d, r, A_LOOP);
		cm_heat_of(d, i, l != RK_NONE, &h);
		unk = (metrics_figures_unknown(d, i) & TOTAL_HEAT) != 0;
		if (r == RK_NONE && l == RK_NONE)
			continue; /* in no list: the defaults */
		ei = cm_slot(m, i);
		ri = r != RK_NONE ? cm_slot(m, r) : 0;
		li = l != RK_NONE ? cm_slot(m, l) : 0;
		m->o[ei].loop_of = l;
		if (r != RK_NONE) {
			e = &m->o[ei];
			x = &m->o[ri];
			e->dev_next = x->rack_dev;
			x->rack_dev = i;
			x->air = model_sadd(x->air, h.air);
			/* all to liquid, or a fraction of 100 %: none to air */
			if (unk && h.rule != HR_LIQUID &&
			    !(h.rule == HR_FRACTION && h.frac == RK_RATIO_ONE))
				x->air_unk = 1;
		}
		if (l != RK_NONE) {
			e = &m->o[ei];
			x = &m->o[li];
			e->loop_next = x->loop_dev;
			x->loop_dev = i;
			x->liq = model_sadd(x->liq, h.liq);
			if (unk && h.rule != HR_AIR &&
			    !(h.rule == HR_FRACTION && !h.frac))
				x->liq_unk = 1;
		}
	}
	/* rear doors */
	for (uint32_t r = 0; r < n; r++) {
		int64_t cap;
		uint32_t l, ri, li;
		struct cm_obj *x;

		if (d->objs[r].kind != K_RACK ||
		    cm_door_of(d, r, &cap) == RK_NONE || cap <= 0)
			continue;
		l = model_ref(d, r, A_LOOP);
		ri = cm_slot(m, r);
		li = l != RK_NONE ? cm_slot(m, l) : 0;
		x = &m->o[ri];
		x->door = x->air < cap ? x->air : cap;
		if (l != RK_NONE) {
			m->o[li].liq = model_sadd(m->o[li].liq, x->door);
			/* below its capacity the door's share is a bound too */
			if (x->air_unk && x->air < cap)
				m->o[li].liq_unk = 1;
		}
	}
}

void cm_free(struct cmodel *m)
{
	free(m->o);
}

/*
 * CDUs that may fail on @loop: 0 for "N" or none, K for "N+K", half for
 * "N+N"/"2N"; -1 when the text cannot be read.
 */
int64_t cm_loop_spares(const struct rk_design *d, uint32_t loop, uint32_t ncdu)
{
	const char *s = ir_str(d, loop, A_REDUNDANCY);
	int64_t k = 0;
	int nd = 0;

	if (!s || streq(s, "N"))
		return 0;
	if (streq(s, "N+N") || streq(s, "2N"))
		return ncdu - ncdu / 2;
	if (s[0] != 'N' || s[1] != '+')
		return -1;
	for (s += 2; *s >= '0' && *s <= '9' && nd < 6; s++, nd++)
		k = k * 10 + (*s - '0');
	return nd && !*s ? k : -1;
}

/*
 * Sum of @key over the CDUs of @loop less the @spares largest; false if a
 * CDU lacks the figure.
 */
bool cm_cdu_sum(const struct rk_design *d, uint32_t loop, uint32_t key,
		int64_t spares, int64_t *total, int64_t *usable)
{
	const struct rk_value *lv = ir_attr(d, loop, A_CDU);
	int64_t *v;
	uint32_t n = lv && lv->type == VT_LIST ? (uint32_t)lv->n : 0;
	bool ok = true;

	*total = *usable = 0;
	if (!n)
		return true;
	v = xmalloc(n * sizeof(*v));
	for (uint32_t i = 0; i < n; i++) {
		const struct rk_value *e = ir_list_at(d, lv, i);
		const struct rk_value *x;

		v[i] = 0;
		if (e->type != VT_OBJ)
			continue;
		x = ir_attr_inh(d, e->a, key);
		if (!x || x->type != VT_NUM) {
			ok = false;
			continue;
		}
		v[i] = x->n > 0 ? x->n : 0;
		*total = model_sadd(*total, v[i]);
	}
	*usable = *total;
	/* drop the largest @spares (n is small: a loop's CDU list) */
	for (int64_t s = 0; s < spares && s < n; s++) {
		uint32_t big = 0;

		for (uint32_t i = 1; i < n; i++)
			if (v[i] > v[big])
				big = i;
		*usable -= v[big];
		v[big] = -1;
	}
	if (*usable < 0)
		*usable = 0;
	free(v);
	return ok;
}

/*
 * Flow [mL/min] that carries @heat [mW] at a @dt [mK] rise, rounded up:
 * 6e7 x P[mW] / (rho[g/L] x c_p[J/(kg K)] x dT[mK]).
 */
int64_t cm_flow_needed(const struct coolant *co, int64_t heat, int64_t dt)
{
	u128 num = (u128)60000000 * (uint64_t)heat;
	u128 den = (u128)co->rho * (uint64_t)co->cp * (uint64_t)dt;

	return model_sat((i128)((num + den - 1) / den));
}

/* Whether cm_flow_needed() did not round: the division leaves nothing. */
bool cm_flow_exact(const struct coolant *co, int64_t heat, int64_t dt)
{
	u128 num = (u128)60000000 * (uint64_t)heat;
	u128 den = (u128)co->rho * (uint64_t)co->cp * (uint64_t)dt;

	return num % den == 0;
}

/* The coolant named by loop @l, NULL when rackc has no figures for it. */
const struct coolant *cm_coolant_of(const struct rk_design *d, uint32_t l)
{
	const struct rk_value *cv = ir_attr(d, l, A_COOLANT);

	for (unsigned i = 0; cv && i < ARRAY_SIZE(coolants); i++)
		if (streq(coolants[i].name, str_of(d->arena, cv->a)))
			return &coolants[i];
	return NULL;
}

/* ---- report figures (loads.h) ---- */

struct loop_load *cm_loop_loads(const struct cmodel *m, uint32_t *n)
{
	const struct rk_design *d = m->d;
	struct loop_load *out = NULL;
	uint32_t nl = 0, cap = 0;

	*n = 0;
	for (uint32_t l = 0; l < d->nobjs; l++)
		if (d->objs[l].kind == K_LOOP)
			VEC_PUSH(out, nl, cap)->loop = l;
	if (!nl)
		return NULL;
	for (uint32_t k = 0; k < nl; k++) {
		struct loop_load *x = &out[k];
		uint32_t l = x->loop;
		const struct rk_value *lv = ir_attr(d, l, A_CDU);
		const struct rk_value *tv = ir_attr(d, l, A_DELTA_T);
		const struct coolant *co = cm_coolant_of(d, l);
		uint32_t ncdu = lv && lv->type == VT_LIST ? (uint32_t)lv->n : 0;
		int64_t spares = cm_loop_spares(d, l, ncdu), total;

		x->heat = cm_at(m, l)->liq;
		x->heat_over = x->heat == INT64_MAX; /* saturated */
		x->heat_unknown = cm_at(m, l)->liq_unk;
		x->capacity = x->max_flow = x->flow = -1;
		if (spares >= 0 &&
		    !cm_cdu_sum(d, l, A_CAPACITY, spares, &total, &x->capacity))
			x->capacity = -1;
		if (spares >= 0 &&
		    !cm_cdu_sum(d, l, A_MAX_FLOW, spares, &total, &x->max_flow))
			x->max_flow = -1;
		x->flow_exact = x->flow_estimate = false;
		if (co && tv && tv->type == VT_NUM && tv->n > 0) {
			x->flow = cm_flow_needed(co, x->heat, tv->n);
			x->flow_exact = x->flow < INT64_MAX &&
					cm_flow_exact(co, x->heat, tv->n);
			x->flow_estimate = co->estimate;
		}
	}
	*n = nl;
	return out;
}

int64_t *cm_rack_air(const struct cmodel *m)
{
	const struct rk_design *d = m->d;
	int64_t *out = xcalloc(d->nobjs + 1, sizeof(*out));

	for (uint32_t r = 0; r < d->nobjs; r++)
		if (d->objs[r].kind == K_RACK)
			out[r] = cm_air_after(m, r);
	return out;
}
