/* SPDX-License-Identifier: MIT */
/*
 * Cooling checks: air-side heat per rack against the air zone's per-rack
 * limit, liquid-cooled parts without a loop, rear doors, CDU capacity and
 * coolant flow of liquid loops, and room (air zone) capacity.
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
 *    128-bit integers and rounded up.
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "layout.h"
#include "loads.h"
#include "metrics.h"
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
static const struct coolant {
	const char *name;
	int64_t cp;  /* J/(kg K) */
	int64_t rho; /* g/L */
	const char *src;
	bool estimate; /* the figures are estimates (tag E) */
} coolants[] = {
	{ "water", 4186, 997, "water near 25 C", false },
	{ "pg25", 3900, 1020, "estimate, S-COOL", true },
};

static uint32_t obj_attr(const struct rk_design *d, uint32_t obj, uint32_t key)
{
	const struct rk_value *v = ir_attr_inh(d, obj, key);

	return v && v->type == VT_OBJ ? v->a : RK_NONE;
}

/* ---- heat of one device ---- */

enum hrule {
	HR_AIR,	     /* all to air */
	HR_FRACTION, /* liquid_fraction */
	HR_LIQUID,   /* cooling liquid, all to liquid */
	HR_HYBRID,   /* hybrid without a fraction: in full on both sides */
};

struct heat {
	int64_t pmax, given, heat, air, liq, frac;
	enum hrule rule;
};

static bool needs_liquid(const struct rk_design *d, uint32_t dev)
{
	const char *c = ir_str(d, dev, A_COOLING);

	return c && (streq(c, "liquid") || streq(c, "hybrid"));
}

static void heat_of(const struct rk_design *d, uint32_t dev, bool on_loop,
		    struct heat *h)
{
	const char *cool = ir_str(d, dev, A_COOLING);
	const struct rk_value *fv = ir_attr_inh(d, dev, A_LIQUID_FRACTION);

	memset(h, 0, sizeof(*h));
	h->pmax = check_num0(d, dev, A_POWER_MAX);
	h->given = check_num0(d, dev, A_HEAT);
	h->heat = h->given > h->pmax ? h->given : h->pmax;
	h->air = h->heat;
	h->rule = HR_AIR;
	if (!on_loop)
		return;
	if (fv && fv->type == VT_NUM) {
		h->frac = fv->n < 0		 ? 0
			  : fv->n > RK_RATIO_ONE ? RK_RATIO_ONE
						 : fv->n;
		h->liq = check_sat((__int128)h->heat * h->frac / RK_RATIO_ONE);
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

unsigned heat_sides(const struct rk_design *d, uint32_t dev)
{
	uint32_t r = layout_rack_of(d, dev), l = obj_attr(d, dev, A_LOOP);
	struct heat h;
	unsigned sides = 0;

	if (l == RK_NONE && r != RK_NONE)
		l = obj_attr(d, r, A_LOOP);
	heat_of(d, dev, l != RK_NONE, &h);
	if (h.rule != HR_LIQUID &&
	    !(h.rule == HR_FRACTION && h.frac == RK_RATIO_ONE))
		sides |= HEAT_AIR;
	if (h.rule != HR_AIR && !(h.rule == HR_FRACTION && !h.frac))
		sides |= HEAT_LIQUID;
	return sides;
}

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

/* ---- the model ---- */

struct cmodel {
	const struct rk_design *d;
	uint32_t *loop_of;		  /* device: its loop */
	uint32_t *rack_dev, *dev_next;	  /* devices of a rack */
	uint32_t *loop_dev, *loop_next;	  /* devices on a loop */
	uint32_t *zone_rack, *rack_next;  /* racks of an air zone */
	uint32_t *loop_rack, *rack_lnext; /* racks on a loop (doors) */
	int64_t *air;			  /* rack: air-side heat, before door */
	int64_t *door;			  /* rack: heat its door takes */
	int64_t *liq;			  /* loop: heat to liquid */
	/* rack: its air side, loop: its liquid heat, has a term that is
	 * unknown (a device without power_max or heat, metrics.h): the sum
	 * is a lower bound */
	uint8_t *air_unk, *liq_unk;
};

static uint32_t *u32_array(uint32_t n)
{
	uint32_t *a = xmalloc((size_t)(n + 1) * sizeof(*a));

	for (uint32_t i = 0; i <= n; i++)
		a[i] = RK_NONE;
	return a;
}

/* The rear door of @rack: its part and capacity (-1 when not given). */
static uint32_t door_of(const struct rk_design *d, uint32_t rack, int64_t *cap)
{
	uint32_t p = obj_attr(d, rack, A_RDHX);
	const struct rk_value *v;

	*cap = -1;
	if (p == RK_NONE)
		return RK_NONE;
	v = ir_attr_inh(d, p, A_CAPACITY);
	if (v && v->type == VT_NUM)
		*cap = v->n > 0 ? v->n : 0;
	return p;
}

static void cm_build(struct cmodel *m, const struct rk_design *d)
{
	uint32_t n = d->nobjs;

	memset(m, 0, sizeof(*m));
	m->d = d;
	m->loop_of = u32_array(n);
	m->rack_dev = u32_array(n);
	m->dev_next = u32_array(n);
	m->loop_dev = u32_array(n);
	m->loop_next = u32_array(n);
	m->zone_rack = u32_array(n);
	m->rack_next = u32_array(n);
	m->loop_rack = u32_array(n);
	m->rack_lnext = u32_array(n);
	m->air = xcalloc(n + 1, sizeof(int64_t));
	m->door = xcalloc(n + 1, sizeof(int64_t));
	m->liq = xcalloc(n + 1, sizeof(int64_t));
	m->air_unk = xcalloc(n + 1, 1);
	m->liq_unk = xcalloc(n + 1, 1);

	/* backwards, so that the lists come out in declaration order */
	for (uint32_t i = n; i-- > 0;) {
		const struct rk_obj *o = &d->objs[i];
		uint32_t r, l, z;
		struct heat h;
		bool unk;

		if (o->kind == K_RACK) {
			z = obj_attr(d, i, A_AIR);
			if (z != RK_NONE) {
				m->rack_next[i] = m->zone_rack[z];
				m->zone_rack[z] = i;
			}
			l = obj_attr(d, i, A_LOOP);
			if (l != RK_NONE) {
				m->rack_lnext[i] = m->loop_rack[l];
				m->loop_rack[l] = i;
			}
			continue;
		}
		if (o->kind != K_DEVICE)
			continue;
		r = layout_rack_of(d, i);
		l = obj_attr(d, i, A_LOOP);
		if (l == RK_NONE && r != RK_NONE)
			l = obj_attr(d, r, A_LOOP);
		m->loop_of[i] = l;
		heat_of(d, i, l != RK_NONE, &h);
		unk = (device_figures_unknown(d, i) & TOTAL_HEAT) != 0;
		if (r != RK_NONE) {
			m->dev_next[i] = m->rack_dev[r];
			m->rack_dev[r] = i;
			m->air[r] = check_sadd(m->air[r], h.air);
			/* all to liquid, or a fraction of 100 %: none to air */
			if (unk && h.rule != HR_LIQUID &&
			    !(h.rule == HR_FRACTION && h.frac == RK_RATIO_ONE))
				m->air_unk[r] = 1;
		}
		if (l != RK_NONE) {
			m->loop_next[i] = m->loop_dev[l];
			m->loop_dev[l] = i;
			m->liq[l] = check_sadd(m->liq[l], h.liq);
			if (unk && h.rule != HR_AIR &&
			    !(h.rule == HR_FRACTION && !h.frac))
				m->liq_unk[l] = 1;
		}
	}
	/* rear doors */
	for (uint32_t r = 0; r < n; r++) {
		int64_t cap;
		uint32_t l;

		if (d->objs[r].kind != K_RACK ||
		    door_of(d, r, &cap) == RK_NONE || cap <= 0)
			continue;
		m->door[r] = m->air[r] < cap ? m->air[r] : cap;
		l = obj_attr(d, r, A_LOOP);
		if (l != RK_NONE) {
			m->liq[l] = check_sadd(m->liq[l], m->door[r]);
			/* below its capacity the door's share is a bound too */
			if (m->air_unk[r] && m->air[r] < cap)
				m->liq_unk[l] = 1;
		}
	}
}

static void cm_free(struct cmodel *m)
{
	free(m->loop_of);
	free(m->rack_dev);
	free(m->dev_next);
	free(m->loop_dev);
	free(m->loop_next);
	free(m->zone_rack);
	free(m->rack_next);
	free(m->loop_rack);
	free(m->rack_lnext);
	free(m->air);
	free(m->door);
	free(m->liq);
	free(m->air_unk);
	free(m->liq_unk);
}

static void cm_release(void *p)
{
	cm_free(p);
	free(p);
}

/* The design's cooling model, built once for all the cooling checks. */
static const struct cmodel *cooling_model(struct check_ctx *c)
{
	struct check_model *cm = &c->model[CHECK_MODEL_COOLING];

	if (!cm->p) {
		struct cmodel *m = xmalloc(sizeof(*m));

		cm_build(m, c->d);
		cm->p = m;
		cm->free = cm_release;
	}
	return cm->p;
}

static int64_t air_after(const struct cmodel *m, uint32_t rack)
{
	return m->air[rack] - m->door[rack];
}

/* ---- grouped notes ---- */

struct hgroup {
	uint32_t part, first, count;
	int64_t v;
	struct heat h;
};

enum side { SIDE_AIR, SIDE_LIQUID, SIDE_NEED };

/*
 * Notes for a list of devices (@first, chained through @next): one line
 * per part and figure, on the air or liquid side.
 */
static void note_devices(struct check_ctx *c, const struct cmodel *m,
			 uint32_t first, const uint32_t *next, enum side side)
{
	const struct rk_design *d = m->d;
	struct hgroup *g = NULL;
	uint32_t ng = 0, gcap = 0, more = 0, nunk = 0, unknown = RK_NONE;
	int64_t more_v = 0;

	for (uint32_t i = first; i != RK_NONE; i = next[i]) {
		struct heat h;
		int64_t v;
		uint32_t k;

		heat_of(d, i, m->loop_of[i] != RK_NONE, &h);
		/* heat unknown: counted below, never shown as 0 W */
		if (side != SIDE_NEED &&
		    (device_figures_unknown(d, i) & TOTAL_HEAT) &&
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
			if (m->loop_of[i] != RK_NONE || !needs_liquid(d, i))
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
	uint32_t p = door_of(d, rack, &cap);

	if (p == RK_NONE || cap <= 0)
		return;
	check_note(c, &ir_attr_inh(d, rack, A_RDHX)->loc,
		   "rear door %s (capacity %s) takes %s of %s", ir_name(d, p),
		   FP(cap, a), FP(m->door[rack], b), FP(m->air[rack], t));
}

/* Notes: the racks of air zone @z, the largest few first. */
static void note_zone_racks(struct check_ctx *c, const struct cmodel *m,
			    uint32_t z)
{
	const struct rk_design *d = m->d;
	uint32_t best[3], nb = 0, rest = 0;
	int64_t rest_v = 0;

	for (uint32_t r = m->zone_rack[z]; r != RK_NONE; r = m->rack_next[r]) {
		int64_t v = air_after(m, r);
		uint32_t k;

		if (!v)
			continue;
		if (nb < ARRAY_SIZE(best)) {
			best[nb++] = r;
		} else {
			k = 0;
			for (uint32_t j = 1; j < nb; j++)
				if (air_after(m, best[j]) <
				    air_after(m, best[k]))
					k = j;
			if (air_after(m, best[k]) < v) {
				rest_v =
				    check_sadd(rest_v, air_after(m, best[k]));
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
			if (air_after(m, best[j]) > air_after(m, best[i]) ||
			    (air_after(m, best[j]) == air_after(m, best[i]) &&
			     best[j] < best[i])) {
				uint32_t t = best[i];

				best[i] = best[j];
				best[j] = t;
			}
	for (uint32_t i = 0; i < nb; i++) {
		char a[RK_QFMT_MAX];

		check_note(c, &d->objs[best[i]].loc, "rack %s: %s to air",
			   ir_name(d, best[i]), FP(air_after(m, best[i]), a));
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
		    m->loop_of[i] == RK_NONE && needs_liquid(d, i)) {
			check_fail(c, i, &o->loc,
				   "device %s needs liquid cooling (part %s, "
				   "cooling %s) but is on no liquid loop",
				   ir_name(d, i), check_part_name(d, i),
				   ir_str(d, i, A_COOLING));
			continue;
		}
		if (o->kind != K_RACK)
			continue;
		for (uint32_t k = m->rack_dev[i]; k != RK_NONE;
		     k = m->dev_next[k])
			if (m->loop_of[k] == RK_NONE && needs_liquid(d, k)) {
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
		note_devices(c, m, m->rack_dev[i], m->dev_next, SIDE_NEED);
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
		z = obj_attr(d, r, A_AIR);
		if (z == RK_NONE)
			continue;
		lim = ir_attr(d, z, A_RACK_LIMIT);
		if (!lim || lim->type != VT_NUM)
			continue;
		mk = check_cover_begin(c);
		if (air_after(m, r) <= lim->n) {
			check_cover(c, r, mk, m->air_unk[r]);
			continue;
		}
		check_fail(
		    c, r, &d->objs[r].loc,
		    "rack %s puts %s%s of heat into the air, above the "
		    "%s rack_limit of air zone %s",
		    ir_name(d, r), m->air_unk[r] ? "at least " : "",
		    check_qfmt2(DIM_POWER, air_after(m, r), lim->n, a, b), b,
		    ir_name(d, z));
		check_note(c, &lim->loc, "rack_limit given here");
		note_devices(c, m, m->rack_dev[r], m->dev_next, SIDE_AIR);
		note_door(c, m, r);
		check_cover(c, r, mk, m->air_unk[r]);
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
		p = door_of(d, r, &cap);
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
		if (obj_attr(d, r, A_AIR) != RK_NONE)
			continue;
		mk = check_cover_begin(c);
		if (m->air[r] <= cap) {
			check_cover(c, r, mk, m->air_unk[r]);
			continue;
		}
		check_fail(c, r, &rv->loc,
			   "rack %s sends %s%s of air-side heat to its rear "
			   "door %s rated %s, and is in no air zone to take "
			   "the other %s%s",
			   ir_name(d, r), m->air_unk[r] ? "at least " : "",
			   check_qfmt2(DIM_POWER, m->air[r], cap, a, b),
			   ir_name(d, p), b, m->air_unk[r] ? "at least " : "",
			   FP(m->air[r] - cap, t));
		note_devices(c, m, m->rack_dev[r], m->dev_next, SIDE_AIR);
		check_cover(c, r, mk, m->air_unk[r]);
	}
}

/* ---- loops: CDU capacity and flow ---- */

/*
 * CDUs that may fail on @loop: 0 for "N" or none, K for "N+K", half for
 * "N+N"/"2N"; -1 when the text cannot be read.
 */
static int64_t loop_spares(const struct rk_design *d, uint32_t loop,
			   uint32_t ncdu)
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
 * Sum of @key over the CDUs of @loop less the @spares largest; false
 * (after reporting when @report) if a CDU lacks the figure.
 */
static bool cdu_sum(struct check_ctx *c, const struct rk_design *d,
		    uint32_t loop, uint32_t key, int64_t spares, bool report,
		    int64_t *total, int64_t *usable)
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
			if (report)
				check_fail(c, loop, &e->loc,
					   "CDU %s of loop %s gives no %s",
					   ir_name(d, e->a), ir_name(d, loop),
					   attr_table[key].name);
			ok = false;
			continue;
		}
		v[i] = x->n > 0 ? x->n : 0;
		*total = check_sadd(*total, v[i]);
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

	note_devices(c, m, m->loop_dev[loop], m->loop_next, SIDE_LIQUID);
	for (uint32_t r = m->loop_rack[loop]; r != RK_NONE;
	     r = m->rack_lnext[r])
		if (m->door[r]) {
			doors = check_sadd(doors, m->door[r]);
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
		spares = loop_spares(d, l, n);
		if (spares < 0) {
			check_fail(c, l, &ir_attr(d, l, A_REDUNDANCY)->loc,
				   "cannot read redundancy \"%s\" of loop %s: "
				   "write \"N\", \"N+1\" (\"N+K\") or \"N+N\"",
				   ir_str(d, l, A_REDUNDANCY), ir_name(d, l));
			continue;
		}
		if (!m->liq[l] && !m->liq_unk[l])
			continue;
		mk = check_cover_begin(c);
		if (!n) {
			check_fail(c, l, &d->objs[l].loc,
				   "loop %s takes %s%s of heat to liquid but "
				   "has no CDU",
				   ir_name(d, l),
				   m->liq_unk[l] ? "at least " : "",
				   FP(m->liq[l], a));
			note_loop_heat(c, m, l);
			check_cover(c, l, mk, m->liq_unk[l]);
			continue;
		}
		/* a CDU without capacity: cooling-figure-unknown reports it */
		if (!cdu_sum(c, d, l, A_CAPACITY, spares, false, &total,
			     &usable)) {
			check_cover_figure(c, l, mk,
					   cdu_gaps_waived(c, l, A_CAPACITY));
			continue;
		}
		if (m->liq[l] <= usable) {
			check_cover(c, l, mk, m->liq_unk[l]);
			continue;
		}
		if (spares)
			check_fail(
			    c, l, &d->objs[l].loc,
			    "loop %s takes %s%s of heat to liquid, above "
			    "the %s its CDUs give with redundancy \"%s\"",
			    ir_name(d, l), m->liq_unk[l] ? "at least " : "",
			    check_qfmt2(DIM_POWER, m->liq[l], usable, a, b), b,
			    ir_str(d, l, A_REDUNDANCY));
		else
			check_fail(
			    c, l, &d->objs[l].loc,
			    "loop %s takes %s%s of heat to liquid, "
			    "above the %s capacity of its CDUs",
			    ir_name(d, l), m->liq_unk[l] ? "at least " : "",
			    check_qfmt2(DIM_POWER, m->liq[l], usable, a, b), b);
		note_cdus(c, d, l, A_CAPACITY, spares, total, usable,
			  DIM_POWER);
		note_loop_heat(c, m, l);
		check_cover(c, l, mk, m->liq_unk[l]);
	}
}

/*
 * Flow [mL/min] that carries @heat [mW] at a @dt [mK] rise, rounded up:
 * 6e7 x P[mW] / (rho[g/L] x c_p[J/(kg K)] x dT[mK]).
 */
static int64_t flow_needed(const struct coolant *co, int64_t heat, int64_t dt)
{
	unsigned __int128 num = (unsigned __int128)60000000 * (uint64_t)heat;
	unsigned __int128 den =
	    (unsigned __int128)co->rho * (uint64_t)co->cp * (uint64_t)dt;

	return check_sat((__int128)((num + den - 1) / den));
}

/* Whether flow_needed() did not round: the division leaves nothing. */
static bool flow_exact(const struct coolant *co, int64_t heat, int64_t dt)
{
	unsigned __int128 num = (unsigned __int128)60000000 * (uint64_t)heat;
	unsigned __int128 den =
	    (unsigned __int128)co->rho * (uint64_t)co->cp * (uint64_t)dt;

	return num % den == 0;
}

/* The coolant named by loop @l, NULL when rackc has no figures for it. */
static const struct coolant *coolant_of(const struct rk_design *d, uint32_t l)
{
	const struct rk_value *cv = ir_attr(d, l, A_COOLANT);

	for (unsigned i = 0; cv && i < ARRAY_SIZE(coolants); i++)
		if (streq(coolants[i].name, str_of(d->arena, cv->a)))
			return &coolants[i];
	return NULL;
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

		if (d->objs[l].kind != K_LOOP || (!m->liq[l] && !m->liq_unk[l]))
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
		co = coolant_of(d, l);
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
		spares = loop_spares(d, l, n);
		/* no figure to compare with: cooling-cdu-capacity reports a
		 * loop without CDUs, cooling-figure-unknown one without
		 * max_flow */
		if (!n || spares < 0) {
			check_cover(c, l, mk, true);
			continue;
		}
		if (!cdu_sum(c, d, l, A_MAX_FLOW, spares, false, &total,
			     &usable)) {
			check_cover_figure(c, l, mk,
					   cdu_gaps_waived(c, l, A_MAX_FLOW));
			continue;
		}
		need = flow_needed(co, m->liq[l], dt);
		if (need <= usable) {
			check_cover(c, l, mk, m->liq_unk[l]);
			continue;
		}
		check_qfmt2(DIM_FLOW, need, usable, a, b);
		check_fail(c, l, &d->objs[l].loc,
			   "loop %s needs %s%s of %s to carry %s at a %s rise, "
			   "above the %s its CDUs deliver",
			   ir_name(d, l),
			   /* heat saturated or with an unknown term: the
			    * flow is a lower bound */
			   m->liq[l] == INT64_MAX || m->liq_unk[l] ? "at least "
								   : "",
			   a, co->name, FP(m->liq[l], t),
			   quantity_format_in((struct quantity){ DIM_TEMP, dt },
					      "K", k),
			   b);
		check_note(
		    c, &cv->loc, "%s: c_p %lld J/(kg K), density %lld g/L (%s)",
		    co->name, (long long)co->cp, (long long)co->rho, co->src);
		if (m->liq[l] != INT64_MAX)
			check_note(
			    c, &tv->loc,
			    "flow [mL/min] = 60000000 x P [W] / (density x c_p "
			    "x delta_t [K]) = 60000000 x %s / (%lld x %lld x "
			    "%s) = %s, rounded up",
			    quantity_format_in(
				(struct quantity){ DIM_POWER, m->liq[l] }, "W",
				w),
			    (long long)co->rho, (long long)co->cp,
			    quantity_format_in(
				(struct quantity){ DIM_TEMP, dt }, "K", k),
			    quantity_format((struct quantity){ DIM_FLOW, need },
					    a));
		note_cdus(c, d, l, A_MAX_FLOW, spares, total, usable, DIM_FLOW);
		note_loop_heat(c, m, l);
		check_cover(c, l, mk, m->liq_unk[l]);
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
			check_skip_add(c, obj_attr(d, r, A_AIR));
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
		for (uint32_t r = m->zone_rack[z]; r != RK_NONE;
		     r = m->rack_next[r]) {
			sum = check_sadd(sum, air_after(m, r));
			unk = unk || m->air_unk[r];
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
		   m->liq_unk[l] ? "at least " : "", FP(m->liq[l], a));
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

		if (d->objs[l].kind != K_LOOP || (!m->liq[l] && !m->liq_unk[l]))
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
					const char *why = figure_unknown_reason(
					    d, part, attr_table[keys[k]].name,
					    &ul, &from);

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

/* ---- report figures (loads.h) ---- */

struct loop_load *loop_loads(const struct rk_design *d, uint32_t *n)
{
	struct loop_load *out = NULL;
	uint32_t nl = 0, cap = 0;
	struct cmodel m;

	*n = 0;
	for (uint32_t l = 0; l < d->nobjs; l++)
		if (d->objs[l].kind == K_LOOP)
			VEC_PUSH(out, nl, cap)->loop = l;
	if (!nl)
		return NULL;
	cm_build(&m, d);
	for (uint32_t k = 0; k < nl; k++) {
		struct loop_load *x = &out[k];
		uint32_t l = x->loop;
		const struct rk_value *lv = ir_attr(d, l, A_CDU);
		const struct rk_value *tv = ir_attr(d, l, A_DELTA_T);
		const struct coolant *co = coolant_of(d, l);
		uint32_t ncdu = lv && lv->type == VT_LIST ? (uint32_t)lv->n : 0;
		int64_t spares = loop_spares(d, l, ncdu), total;

		x->heat = m.liq[l];
		x->heat_over = x->heat == INT64_MAX; /* saturated */
		x->heat_unknown = m.liq_unk[l];
		x->capacity = x->max_flow = x->flow = -1;
		if (spares >= 0 && !cdu_sum(NULL, d, l, A_CAPACITY, spares,
					    false, &total, &x->capacity))
			x->capacity = -1;
		if (spares >= 0 && !cdu_sum(NULL, d, l, A_MAX_FLOW, spares,
					    false, &total, &x->max_flow))
			x->max_flow = -1;
		x->flow_exact = x->flow_estimate = false;
		if (co && tv && tv->type == VT_NUM && tv->n > 0) {
			x->flow = flow_needed(co, x->heat, tv->n);
			x->flow_exact = x->flow < INT64_MAX &&
					flow_exact(co, x->heat, tv->n);
			x->flow_estimate = co->estimate;
		}
	}
	cm_free(&m);
	*n = nl;
	return out;
}

int64_t *rack_air_loads(const struct rk_design *d)
{
	int64_t *out = xcalloc(d->nobjs + 1, sizeof(*out));
	struct cmodel m;

	cm_build(&m, d);
	for (uint32_t r = 0; r < d->nobjs; r++)
		if (d->objs[r].kind == K_RACK)
			out[r] = air_after(&m, r);
	cm_free(&m);
	return out;
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
