/* SPDX-License-Identifier: MIT */
/*
 * Power checks: PSU redundancy of the parts, wiring of supplies to PDUs,
 * PDU and feed capacity, outlet types, and what a lost feed does.
 *
 * The power model the checks judge (loads, wiring, feed failures) is
 * power_model.c's, computed once per compilation into the figure cache
 * (derived_power); that file states its rules.
 *
 * Findings about a part (power-psu-redundancy, an inlet given as an outlet
 * type) are reported once, at the part's attribute, against the first
 * device made from it: a waiver there or on an enclosing object silences
 * them.  power-feed-throttle is off by default: running throttled on a
 * lost feed is the documented behaviour of 4+2 systems such as DGX H100
 * (N1, S-B200), so it is listed only on request.
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "metrics.h"
#include "layout.h"
#include "loads.h"
#include "power_model.h"
#include "schema.h"
#include "supply.h"

/* ---- arithmetic ---- */

/* ceil(a * n / k) for a >= 0, k > 0 */

/* "%lld %s" arguments: 1 PSU, 2 PSUs */
#define NPSU(n) (long long)(n), (n) == 1 ? "PSU" : "PSUs"

/* ---- capacity of a PDU, power shelf or feed (supply.c) ---- */

/* "415V x 32A x sqrt(3) x 80% = 18.401307522...kW" or "capacity 100kW" */
static void capacity_text(const struct supply_cap *cp, char *out, size_t n)
{
	char v[RK_QFMT_MAX], a[RK_QFMT_MAX], r[RK_QFMT_MAX], p[RK_QFMT_MAX];

	supply_format(cp, p);
	if (cp->how == SUPPLY_GIVEN) {
		snprintf(out, n, "capacity %s", p);
		return;
	}
	check_qfmt(DIM_VOLTAGE, cp->volt, v);
	check_qfmt(DIM_CURRENT, cp->amp, a);
	if (cp->derate)
		check_qfmt(DIM_RATIO, cp->derate, r);
	snprintf(out, n, "%s x %s%s%s%s = %s", v, a,
		 cp->how == SUPPLY_3PH ? " x sqrt(3)" : "",
		 cp->derate ? " x " : "", cp->derate ? r : "", p);
}

/* ---- PSU figures of a device ---- */

/* Why the device needs @pi->full supplies, for notes. */
static void full_text(const struct psu_info *pi, char *out, size_t n)
{
	char a[RK_QFMT_MAX], b[RK_QFMT_MAX];

	switch (pi->why) {
	case FULL_SCHEME:
		snprintf(out, n, "psu_redundancy \"%s\"", pi->scheme);
		break;
	case FULL_RATING:
		snprintf(out, n, "%s / %s per PSU, rounded up", FP(pi->pmax, a),
			 FP(pi->rating, b));
		break;
	case FULL_ANY:
		snprintf(out, n, "no psu_redundancy or psu_rating given");
		break;
	}
}

/* The design's power model (power_model.c), from the figure cache. */
static const struct pmodel *power_model(struct check_ctx *c)
{
	return derived_power(c->dv);
}

static uint32_t *u32_array(uint32_t n)
{
	uint32_t *a = xmalloc((size_t)(n + 1) * sizeof(*a));

	for (uint32_t i = 0; i <= n; i++)
		a[i] = RK_NONE;
	return a;
}

/*
 * Prerequisites per object (check.h): besides the objects a failed
 * prerequisite reported, skip every device made from a part it reported,
 * the PDUs and power shelves a skipped device plugs into (their loads
 * carry it) and the feeds of skipped supplies.
 */
static void skip_dependants(struct check_ctx *c, const struct pmodel *m)
{
	const struct rk_design *d = c->d;

	if (!c->skip)
		return;
	for (uint32_t i = 0; i < d->nobjs && !check_stop(c); i++) {
		if (d->objs[i].kind != K_DEVICE)
			continue;
		if (check_skipped(c, d->objs[i].part))
			check_skip_add(c, i);
		if (!check_skipped(c, i))
			continue;
		for (uint32_t k = 0; k < pm_at(m, i)->dev_nw; k++)
			check_skip_add(c, m->w[pm_at(m, i)->dev_w + k].pdu);
	}
	for (uint32_t p = 0; p < d->nobjs; p++)
		if (pm_is_source(d, p) && check_skipped(c, p))
			check_skip_add(c, pm_feed_of(d, p));
}

/* ---- notes: who draws from a PDU ---- */

struct lgroup {
	uint32_t part, first, count;
	int64_t n, s, draw, share;
	enum pstate st;
	const struct srcloc *loc;
};

/* Notes for the load on @pdu, normal (@failed == RK_NONE) or after a loss. */
static void note_pdu_load(struct check_ctx *c, const struct pmodel *m,
			  uint32_t pdu, uint32_t failed)
{
	const struct rk_design *d = m->d;
	struct lgroup *g = NULL;
	uint32_t ng = 0, gcap = 0, more = 0;
	int64_t more_load = 0;

	for (uint32_t j = pm_at(m, pdu)->pdu_w; j != RK_NONE;
	     j = m->w[j].next) {
		const struct pm_wire *w = &m->w[j];
		struct psu_info pi;
		int64_t s = pm_at(m, w->dev)->dev_k, draw;
		enum pstate st = PS_FULL;
		uint32_t k;

		/* no figure: note_unknown_load() names them, never as 0 W */
		if (metrics_figures_unknown(d, w->dev) & TOTAL_POWER)
			continue;
		pm_psu_info(d, w->dev, &pi);
		draw = pi.pmax;
		if (failed != RK_NONE && pm_multi_feed(m, w->dev)) {
			s -= pm_on_feed(m, w->dev, failed);
			st = pm_psu_state(&pi, s, &draw);
		}
		if (st == PS_DOWN)
			continue;
		for (k = 0; k < ng; k++)
			if (g[k].part == d->objs[w->dev].part &&
			    g[k].n == w->n && g[k].s == s && g[k].st == st &&
			    g[k].draw == draw)
				break;
		if (k == ng) {
			struct lgroup *x = VEC_PUSH(g, ng, gcap);

			x->part = d->objs[w->dev].part;
			x->first = w->dev;
			x->count = 0;
			x->n = w->n;
			x->s = s;
			x->draw = draw;
			x->share = pm_share_of(draw, w->n, s);
			x->st = st;
			x->loc = w->loc;
		}
		g[k].count++;
	}
	for (uint32_t k = 0; k < ng; k++) {
		char who[600], a[RK_QFMT_MAX], b[RK_QFMT_MAX], r[RK_QFMT_MAX];
		char frac[200];
		const struct lgroup *x = &g[k];
		const char *each = x->count > 1 ? " each" : "";
		struct psu_info pi;

		if (k >= CHECK_GROUP_NOTES) {
			more += x->count;
			more_load =
			    check_sadd(more_load, check_sat((__int128)x->share *
							    x->count));
			continue;
		}
		pm_psu_info(d, x->first, &pi);
		check_group_who(d, x->first, x->count, who, sizeof(who));
		FP(x->draw, a);
		FP(x->share, b);
		if (x->n == x->s)
			snprintf(frac, sizeof(frac), "%s", "");
		else
			snprintf(frac, sizeof(frac), ": %s x %lld/%lld = %s", a,
				 (long long)x->n, (long long)x->s, b);
		if (failed == RK_NONE)
			check_note(c, x->loc, "%s: %s x %lld/%lld PSUs = %s%s",
				   who, a, (long long)x->n, (long long)x->s, b,
				   each);
		else if (x->st == PS_FULL)
			check_note(c, x->loc,
				   "%s at full power on %lld of %lld PSUs, "
				   "drawing %s%s%s",
				   who, (long long)x->s,
				   (long long)pm_at(m, x->first)->dev_k, a,
				   frac, each);
		else if (x->draw < pi.pmax)
			check_note(c, x->loc,
				   "%s throttled on %lld of %lld PSUs (full "
				   "power needs %lld), drawing at most %lld x "
				   "%s = %s%s%s",
				   who, (long long)x->s,
				   (long long)pm_at(m, x->first)->dev_k,
				   (long long)pi.full, (long long)x->s,
				   FP(pi.rating, r), a, frac, each);
		else
			check_note(c, x->loc,
				   "%s throttled on %lld of %lld PSUs (full "
				   "power needs %lld), drawing up to %s%s%s",
				   who, (long long)x->s,
				   (long long)pm_at(m, x->first)->dev_k,
				   (long long)pi.full, a, frac, each);
	}
	if (more) {
		char a[RK_QFMT_MAX];

		check_note(c, NULL, "and %u more devices drawing %s", more,
			   FP(more_load, a));
	}
	free(g);
}

static void note_capacity(struct check_ctx *c, const struct supply_cap *cp,
			  const char *what)
{
	char t[256];

	capacity_text(cp, t, sizeof(t));
	check_note(c, cp->loc, "%s: %s", what, t);
}

/* ---- unknown figures ---- */

/* Note on a load with an unknown term: the first device on @pdu without
 * power_max, and how many there are. */
static void note_unknown_load(struct check_ctx *c, const struct pmodel *m,
			      uint32_t pdu)
{
	const struct rk_design *d = m->d;
	uint32_t n = 0, first = RK_NONE;

	if (!pm_at(m, pdu)->unk)
		return;
	for (uint32_t j = pm_at(m, pdu)->pdu_w; j != RK_NONE; j = m->w[j].next)
		if (metrics_figures_unknown(d, m->w[j].dev) & TOTAL_POWER) {
			if (first == RK_NONE)
				first = m->w[j].dev;
			n++;
		}
	if (first == RK_NONE)
		return;
	check_note(c, &d->objs[first].loc,
		   "a lower bound: %u %s on it%s no power_max, %s (%s) the "
		   "first, counted as nothing",
		   n, n == 1 ? "device" : "devices", n == 1 ? " has" : " have",
		   ir_name(d, first), check_part_name(d, first));
}

static void note_unknown_feed(struct check_ctx *c, const struct pmodel *m,
			      uint32_t g)
{
	for (uint32_t p = pm_at(m, g)->feed_p; p != RK_NONE;
	     p = pm_at(m, p)->pdu_next)
		if (pm_at(m, p)->unk) {
			note_unknown_load(c, m, p);
			return;
		}
}

/* What needs @dev's unknown power_max, for its notes. */
enum need { NEED_NONE, NEED_PDU, NEED_AIR, NEED_DOOR, NEED_LOOP };

static uint32_t obj_of(const struct rk_design *d, uint32_t obj, uint32_t key)
{
	const struct rk_value *v = ir_attr_inh(d, obj, key);

	return v && v->type == VT_OBJ ? v->a : RK_NONE;
}

/*
 * Which check needs @dev's power_max: its supplies load a PDU (the power
 * checks), or, when its heat is unknown too, its rack's air side or a loop
 * is judged (an air zone, a rear door, a liquid loop: the cooling checks).
 * A device in no budget (a rack with neither) is only reported as "at
 * least" in the totals.
 */
static enum need need_of(const struct pmodel *m, uint32_t dev)
{
	const struct rk_design *d = m->d;
	uint32_t r;

	if (pm_at(m, dev)->dev_w != RK_NONE)
		return NEED_PDU;
	if (!(metrics_figures_unknown(d, dev) & TOTAL_HEAT))
		return NEED_NONE;
	r = layout_rack_of(d, dev);
	if (obj_of(d, dev, A_LOOP) != RK_NONE ||
	    (r != RK_NONE && obj_of(d, r, A_LOOP) != RK_NONE))
		return NEED_LOOP;
	if (r != RK_NONE && obj_of(d, r, A_AIR) != RK_NONE)
		return NEED_AIR;
	if (r != RK_NONE && obj_of(d, r, A_RDHX) != RK_NONE)
		return NEED_DOOR;
	return NEED_NONE;
}

/* ---- supplies and feeds without a rating ---- */

/*
 * A note quoting why the catalog marks figure @name of @part unknown
 * (`unknown "NAME: reason"`), when it does; returns whether it did.
 */
static bool note_marked_unknown(struct check_ctx *c, uint32_t part,
				const char *name)
{
	const struct srcloc *loc = NULL;
	uint32_t from = part;
	const char *why = metrics_unknown_reason(c->d, part, name, &loc, &from);

	if (!why)
		return false;
	check_note(c, loc, "part %s marks %s unknown: %s", ir_name(c->d, from),
		   name, why);
	return true;
}

/* Is the missing rating of supply or feed @obj waived (power-figure-unknown)? */
static bool unrated_waived(struct check_ctx *c, uint32_t obj)
{
	return check_waived_for(c, obj, &check_power_figure_unknown);
}

/* What @obj's rating lacks, for the message ("no rating (...)"). */
static const char *rating_gap(const struct rk_design *d, uint32_t obj)
{
	const struct rk_value *v = ir_attr_inh(d, obj, A_VOLTAGE);
	const struct rk_value *a = ir_attr_inh(d, obj, A_CURRENT);
	bool hv = v && v->type == VT_NUM, ha = a && a->type == VT_NUM;

	if (hv && !ha)
		return "voltage but no current (nor capacity)";
	if (ha && !hv)
		return "current but no voltage (nor capacity)";
	if (hv && ha)
		return "no usable rating (capacity, or a positive voltage and "
		       "current on 1 or 3 phases)";
	return "no rating (capacity, or voltage and current)";
}

/* " (at least 2kW)" or " (2kW)": the load a supply or feed carries */
static const char *load_text(const struct pmodel *m, uint32_t obj, char *buf,
			     size_t n)
{
	char a[RK_QFMT_MAX];

	snprintf(buf, n, "%s%s", pm_at(m, obj)->unk ? "at least " : "",
		 FP(pm_at(m, obj)->load, a));
	return buf;
}

/*
 * The PDUs and power shelves that carry devices without a rating, once
 * per part at the part (at the supply when it has none), against the
 * first such supply that no waiver covers; then each feed with supplies on
 * it and no rating, at the feed.
 */
static void report_unrated(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct pmodel *m = power_model(c); /* feed loads too */
	uint32_t *first = u32_array(d->nobjs), *next = u32_array(d->nobjs);
	uint32_t *last = u32_array(d->nobjs);
	struct supply_cap cp;

	for (uint32_t p = 0; p < d->nobjs; p++) {
		uint32_t key = d->objs[p].part != RK_NONE ? d->objs[p].part : p;

		if (!pm_is_source(d, p) || pm_at(m, p)->pdu_w == RK_NONE)
			continue;
		supply_capacity(d, p, &cp);
		if (cp.how != SUPPLY_NONE)
			continue;
		if (first[key] == RK_NONE)
			first[key] = p;
		else
			next[last[key]] = p;
		last[key] = p;
	}
	for (uint32_t p = 0; p < d->nobjs && !check_stop(c); p++) {
		uint32_t part = d->objs[p].part, key, n = 0, shown = 0,
			 lead = RK_NONE;
		const char *what;
		char ld[RK_QFMT_MAX + 16];

		if (!pm_is_source(d, p))
			continue;
		key = part != RK_NONE ? part : p;
		if (first[key] != p)
			continue;
		for (uint32_t k = p; k != RK_NONE; k = next[k]) {
			if (check_waived(c, k))
				continue;
			if (lead == RK_NONE)
				lead = k;
			n++;
		}
		if (lead == RK_NONE)
			continue;
		what = d->objs[p].cls == C_PDU ? "PDU" : "power shelf";
		if (part != RK_NONE)
			check_fail(c, lead, &d->objs[part].loc,
				   "part %s gives %s: power-pdu-capacity and "
				   "power-feed-failure cannot compare the load "
				   "of %u %s made from it with what %s "
				   "deliver%s",
				   ir_name(d, part), rating_gap(d, part), n,
				   n == 1		     ? what
				   : d->objs[p].cls == C_PDU ? "PDUs"
							     : "power shelves",
				   n == 1 ? "it" : "they", n == 1 ? "s" : "");
		else
			check_fail(c, lead, &d->objs[lead].loc,
				   "%s %s gives %s: power-pdu-capacity and "
				   "power-feed-failure cannot compare its load "
				   "with what it delivers",
				   what, ir_name(d, lead), rating_gap(d, lead));
		if (part != RK_NONE) {
			static const char *const names[] = {
				"rating", "capacity", "voltage", "current"
			};

			for (unsigned j = 0; j < ARRAY_SIZE(names); j++)
				if (note_marked_unknown(c, part, names[j]))
					break;
		}
		for (uint32_t k = lead;
		     k != RK_NONE && shown < CHECK_SKIP_NAMES; k = next[k]) {
			if (k != lead && check_waived(c, k))
				continue;
			shown++;
			check_note(c, &d->objs[k].loc, "%s %s carries %s", what,
				   ir_name(d, k),
				   load_text(m, k, ld, sizeof(ld)));
		}
		if (n > shown)
			check_note(c, NULL, "and %u more", n - shown);
		check_note(c, NULL,
			   "give the %s's capacity, or its voltage, current "
			   "and phases (with the source), or waive "
			   "\"power-figure-unknown\" with the reason",
			   part != RK_NONE ? "part" : what);
	}
	for (uint32_t g = 0; g < d->nobjs && !check_stop(c); g++) {
		uint32_t ns = 0;
		char ld[RK_QFMT_MAX + 16];

		if (d->objs[g].kind != K_FEED || pm_at(m, g)->feed_p == RK_NONE)
			continue;
		supply_capacity(d, g, &cp);
		if (cp.how != SUPPLY_NONE || check_waived(c, g))
			continue;
		for (uint32_t p = pm_at(m, g)->feed_p; p != RK_NONE;
		     p = pm_at(m, p)->pdu_next)
			ns++;
		check_fail(c, g, &d->objs[g].loc,
			   "feed %s gives %s: power-feed-capacity cannot "
			   "compare the load of the %u %s on it with what it "
			   "delivers",
			   ir_name(d, g), rating_gap(d, g), ns,
			   ns == 1 ? "PDU or power shelf"
				   : "PDUs and power shelves");
		check_note(c, &d->objs[g].loc, "feed %s carries %s",
			   ir_name(d, g), load_text(m, g, ld, sizeof(ld)));
		check_note(c, NULL,
			   "give the feed's capacity, or its voltage, current "
			   "and phases (with the source), or waive "
			   "\"power-figure-unknown\" with the reason");
	}
	free(first);
	free(next);
	free(last);
}

/*
 * power-figure-unknown: a part whose devices draw power (metrics.h,
 * metrics_draws_power) and sit in a budget a check judges (need_of)
 * without power_max.  Reported once per part, at the part, against its first
 * device that no waiver covers; a waiver on every such device, or on an
 * object enclosing it (its rack, row, site, or the fabric that made it),
 * silences it.
 */
static void run_figure_unknown(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct pmodel *m = power_model(c);
	uint32_t *first = u32_array(d->nobjs), *next = u32_array(d->nobjs);
	uint32_t *last = u32_array(d->nobjs);

	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t part = d->objs[i].part;

		if (d->objs[i].kind != K_DEVICE || part == RK_NONE ||
		    !(metrics_figures_unknown(d, i) & TOTAL_POWER) ||
		    need_of(m, i) == NEED_NONE)
			continue;
		if (first[part] == RK_NONE)
			first[part] = i;
		else
			next[last[part]] = i;
		last[part] = i;
	}
	for (uint32_t i = 0; i < d->nobjs && !check_stop(c); i++) {
		uint32_t part = d->objs[i].part, n = 0, shown = 0,
			 lead = RK_NONE;
		const struct rk_value *typ, *heat;
		char a[RK_QFMT_MAX];

		if (d->objs[i].kind != K_DEVICE || part == RK_NONE ||
		    first[part] != i)
			continue;
		for (uint32_t k = i; k != RK_NONE; k = next[k]) {
			if (check_waived(c, k))
				continue;
			if (lead == RK_NONE)
				lead = k;
			n++;
		}
		if (lead == RK_NONE)
			continue;
		heat = ir_attr_inh(d, part, A_HEAT);
		check_fail(c, lead, &d->objs[part].loc,
			   "part %s gives no power_max: the power%s of %u %s "
			   "that draw%s power %s unknown, so no budget that "
			   "counts %s can be proven",
			   ir_name(d, part),
			   heat && heat->type == VT_NUM ? "" : " and heat", n,
			   n == 1 ? "device" : "devices", n == 1 ? "s" : "",
			   heat && heat->type == VT_NUM ? "is" : "are",
			   n == 1 ? "it" : "them");
		note_marked_unknown(c, part, "power_max");
		typ = ir_attr_inh(d, part, A_POWER_TYP);
		if (typ && typ->type == VT_NUM)
			check_note(
			    c, &typ->loc,
			    "power_typ %s is a typical figure, not the "
			    "maximum: it does not stand in for power_max",
			    FP(typ->n, a));
		for (uint32_t k = lead;
		     k != RK_NONE && shown < CHECK_SKIP_NAMES; k = next[k]) {
			uint32_t r = layout_rack_of(d, k);

			if (k != lead && check_waived(c, k))
				continue;
			shown++;
			switch (need_of(m, k)) {
			case NEED_PDU:
				check_note(
				    c, m->w[pm_at(m, k)->dev_w].loc,
				    "device %s%s%s loads %s %s", ir_name(d, k),
				    r != RK_NONE ? " in rack " : "",
				    r != RK_NONE ? ir_name(d, r) : "",
				    d->objs[m->w[pm_at(m, k)->dev_w].pdu].cls ==
					    C_PDU
					? "PDU"
					: "power shelf",
				    ir_name(d, m->w[pm_at(m, k)->dev_w].pdu));
				break;
			case NEED_LOOP:
				check_note(c, &d->objs[k].loc,
					   "device %s sends heat to a liquid "
					   "loop",
					   ir_name(d, k));
				break;
			case NEED_AIR:
			case NEED_DOOR:
			case NEED_NONE:
				check_note(c, &d->objs[k].loc,
					   "device %s heats rack %s, whose "
					   "%s the cooling checks judge",
					   ir_name(d, k), ir_name(d, r),
					   need_of(m, k) == NEED_AIR
					       ? "air zone"
					       : "rear door");
				break;
			}
		}
		if (n > shown)
			check_note(c, NULL, "and %u more devices", n - shown);
		check_note(
		    c, NULL,
		    "give the part's maximum input power (power_max, "
		    "with its source), or waive \"power-figure-unknown\" "
		    "with the reason the budget may rest on it");
	}
	free(first);
	free(next);
	free(last);
	report_unrated(c);
}

/* ---- power-connected ---- */

/* "psu[4..5]" style list of the unplugged supplies in @slot[0..n) */
static void unplugged_text(const uint32_t *slot, int64_t n, char *out,
			   size_t cap)
{
	size_t len = 0;
	int shown = 0;

	out[0] = '\0';
	for (int64_t i = 0; i < n; i++) {
		int64_t j = i;

		if (slot[i] != RK_NONE)
			continue;
		while (j + 1 < n && slot[j + 1] == RK_NONE)
			j++;
		if (shown == 4) {
			snprintf(out + len, cap - len, ", ...");
			return;
		}
		if (j > i)
			len += (size_t)snprintf(
			    out + len, cap - len, "%spsu[%lld..%lld]",
			    shown ? ", " : "", (long long)i, (long long)j);
		else
			len += (size_t)snprintf(
			    out + len, cap - len, "%spsu[%lld]",
			    shown ? ", " : "", (long long)i);
		if (len >= cap)
			return;
		shown++;
		i = j;
	}
}

#define MAX_TRACKED_PSUS 4096

static void run_connected(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	uint8_t *pdu_seen = xcalloc(d->nobjs + 1, 1);
	uint32_t *slot = xmalloc(MAX_TRACKED_PSUS * sizeof(*slot));

	for (uint32_t i = 0; i < d->nobjs && !check_stop(c); i++) {
		const struct rk_obj *o = &d->objs[i];
		const struct rk_attr *first = NULL;
		int64_t psus, tracked;
		uint32_t rack;
		bool wired = false;

		if (o->kind != K_DEVICE)
			continue;
		psus = check_num0(d, i, A_PSUS);
		tracked = psus < MAX_TRACKED_PSUS ? psus : MAX_TRACKED_PSUS;
		for (int64_t k = 0; k < tracked; k++)
			slot[k] = RK_NONE;
		for (uint32_t k = 0; k < o->attr_count; k++) {
			const struct rk_attr *at = &d->attrs[o->attr_first + k];
			const struct rk_value *l, *p;

			if (at->key != A_POWER || at->val.type != VT_PAIR)
				continue;
			l = &d->vals[at->val.a];
			p = &d->vals[at->val.a + 1];
			if (p->type != VT_OBJ || l->type != VT_LIST)
				continue;
			if (!first)
				first = at;
			wired = true;
			if (pm_is_source(d, p->a) && !pdu_seen[p->a]) {
				pdu_seen[p->a] = 1;
				if (pm_feed_of(d, p->a) == RK_NONE)
					check_fail(c, p->a, &d->objs[p->a].loc,
						   "%s %s feeds %s but is on "
						   "no feed",
						   d->objs[p->a].cls == C_PDU
						       ? "PDU"
						       : "power shelf",
						   ir_name(d, p->a),
						   ir_name(d, i));
			}
			if (!psus) {
				if (at == first)
					check_fail(c, i, &l->loc,
						   "device %s plugs supplies "
						   "into %s, but its part %s "
						   "declares no psus",
						   ir_name(d, i),
						   ir_name(d, p->a),
						   check_part_name(d, i));
				continue;
			}
			for (uint32_t e = 0; e < (uint32_t)l->n; e++) {
				int64_t x = d->vals[l->a + e].n;

				if (x < 0 || x >= psus) {
					check_fail(
					    c, i, &l->loc,
					    "device %s has no psu[%lld]: "
					    "its part %s has %lld %s "
					    "(psu[0..%lld])",
					    ir_name(d, i), (long long)x,
					    check_part_name(d, i), NPSU(psus),
					    (long long)psus - 1);
					break;
				}
				if (x >= tracked)
					continue;
				if (slot[x] != RK_NONE) {
					check_fail(c, i, &l->loc,
						   "psu[%lld] of device %s is "
						   "plugged in twice, into %s "
						   "and %s",
						   (long long)x, ir_name(d, i),
						   ir_name(d, slot[x]),
						   ir_name(d, p->a));
					continue;
				}
				slot[x] = p->a;
			}
		}
		rack = layout_rack_of(d, i);
		if (!psus || rack == RK_NONE)
			continue;
		if (!wired) {
			check_fail(c, i, &o->loc,
				   "device %s in rack %s has %lld %s, but "
				   "none is plugged into a PDU",
				   ir_name(d, i), ir_name(d, rack), NPSU(psus));
			continue;
		}
		for (int64_t k = 0; k < tracked; k++) {
			char list[200];

			if (slot[k] != RK_NONE)
				continue;
			unplugged_text(slot, tracked, list, sizeof(list));
			check_fail(c, i, &o->loc,
				   "device %s leaves %s unplugged",
				   ir_name(d, i), list);
			check_note(c, &first->val.loc,
				   "its part %s has %lld %s; wire each to "
				   "one PDU with 'power psu[..] -> PDU'",
				   check_part_name(d, i), NPSU(psus));
			break;
		}
	}
	free(slot);
	free(pdu_seen);
}

/* ---- power-psu-redundancy ---- */

/* The findings about @part, reported against its first device @i. */
static void psu_redundancy_of(struct check_ctx *c, uint32_t i, uint32_t part)
{
	const struct rk_design *d = c->d;
	const struct rk_value *sv, *mv, *pv;
	struct psu_info pi;
	enum scheme_kind sk;
	int64_t active, spare;
	char a[RK_QFMT_MAX], b[RK_QFMT_MAX], t[RK_QFMT_MAX];
	const char *pn;

	pm_psu_info(d, part, &pi);
	pn = ir_name(d, part);
	sv = ir_attr_inh(d, part, A_PSU_REDUNDANCY);
	mv = ir_attr_inh(d, part, A_PSU_MIN_RUN);
	pv = ir_attr_inh(d, part, A_PSUS);
	if (!pi.psus) {
		if (sv || mv)
			check_fail(c, i, sv ? &sv->loc : &mv->loc,
				   "part %s gives %s but no psus", pn,
				   sv ? "psu_redundancy" : "psu_min_run");
		return;
	}
	sk = pm_scheme_parse(pi.scheme, pi.psus, &active, &spare);
	if (sk == SCH_BAD) {
		check_fail(c, i, &sv->loc,
			   "cannot read psu_redundancy \"%s\" of part "
			   "%s: write \"A+B\" (such as \"4+2\"), "
			   "\"N+N\", \"N+K\" or \"N\"",
			   pi.scheme, pn);
		return;
	}
	if (sk == SCH_FIXED && active + spare != pi.psus) {
		check_fail(c, i, &sv->loc,
			   "psu_redundancy \"%s\" of part %s names "
			   "%lld PSUs, but the part has psus %lld",
			   pi.scheme, pn, (long long)(active + spare),
			   (long long)pi.psus);
		check_note(c, &pv->loc, "psus given here");
		return;
	}
	if (sk == SCH_NN && pi.psus % 2) {
		check_fail(c, i, &sv->loc,
			   "psu_redundancy \"%s\" of part %s needs an "
			   "even number of PSUs, not %lld",
			   pi.scheme, pn, (long long)pi.psus);
		return;
	}
	if ((sk != SCH_NONE && active < 1) || (sk == SCH_NK && spare < 0)) {
		check_fail(c, i, &sv->loc,
			   "psu_redundancy \"%s\" of part %s leaves "
			   "no PSU to carry the load (psus %lld)",
			   pi.scheme, pn, (long long)pi.psus);
		return;
	}
	if (pi.rating && pi.pmax) {
		int64_t n = sk == SCH_NONE ? pi.psus : active;
		int64_t have = check_sat((__int128)n * pi.rating);

		if (have < pi.pmax) {
			FP(pi.rating, a);
			check_qfmt2(DIM_POWER, have, pi.pmax, b, t);
			if (sk == SCH_NONE)
				check_fail(c, i, &pv->loc,
					   "part %s cannot reach full "
					   "power even on all its PSUs: "
					   "%lld x %s = %s, below its "
					   "power_max %s",
					   pn, (long long)n, a, b, t);
			else
				check_fail(c, i, &sv->loc,
					   "part %s cannot run at full "
					   "power on the %lld %s that "
					   "psu_redundancy \"%s\" keeps: "
					   "%lld x %s = %s, below its "
					   "power_max %s",
					   pn, NPSU(n), pi.scheme, (long long)n,
					   a, b, t);
			return;
		}
	}
	if (mv) {
		int64_t m = mv->type == VT_NUM ? mv->n : 0;

		if (m < 1 || m > pi.psus)
			check_fail(c, i, &mv->loc,
				   "psu_min_run %lld of part %s is "
				   "not between 1 and its %lld PSUs",
				   (long long)m, pn, (long long)pi.psus);
		else if (m > pi.full && pi.why != FULL_ANY) {
			char why[200];

			full_text(&pi, why, sizeof(why));
			check_fail(c, i, &mv->loc,
				   "psu_min_run %lld of part %s is more "
				   "than the %lld %s it needs for "
				   "full power",
				   (long long)m, pn, NPSU(pi.full));
			check_note(c, sv ? &sv->loc : &pv->loc,
				   "full power on %lld %s: %s", NPSU(pi.full),
				   why);
		}
	}
}

static void run_psu_redundancy(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	uint8_t *seen = xcalloc(d->nobjs + 1, 1);

	for (uint32_t i = 0; i < d->nobjs && !check_stop(c); i++) {
		uint32_t part = d->objs[i].part, before = c->findings;

		if (d->objs[i].kind != K_DEVICE || part == RK_NONE ||
		    seen[part])
			continue;
		seen[part] = 1;
		psu_redundancy_of(c, i, part);
		/* the finding is the part's: checks after this one skip
		 * every device made from it */
		if (c->findings > before)
			check_touch(c, part);
	}
	free(seen);
}

/* ---- power-pdu-capacity ---- */

/* The exact figures of a finding that a load is above a capacity: the
 * load in normal operation, and @failover (-1: none) after a feed loss. */
static void figures(struct check_ctx *c, int64_t load, int64_t failover,
		    bool at_least, int64_t capacity)
{
	if (failover >= 0)
		check_figure(c, "failover_load", DIM_POWER, failover,
			     at_least ? '>' : '=');
	check_figure(c, "load", DIM_POWER, load, at_least ? '>' : '=');
	check_figure(c, "capacity", DIM_POWER, capacity, '=');
}

static void run_pdu_capacity(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct pmodel *m = power_model(c);

	skip_dependants(c, m);
	for (uint32_t p = 0; p < d->nobjs && !check_stop(c); p++) {
		struct supply_cap cp;
		struct check_mark mk;
		char a[RK_QFMT_MAX], b[RK_QFMT_MAX];

		if (pm_at(m, p)->pdu_w == RK_NONE || !pm_is_source(d, p))
			continue;
		mk = check_cover_begin(c);
		supply_capacity(d, p, &cp);
		if (cp.how == SUPPLY_NONE) {
			/* power-figure-unknown reports the missing rating */
			check_cover_figure(c, p, mk, unrated_waived(c, p));
			continue;
		}
		if (pm_at(m, p)->load <= cp.mw) {
			/* a lower bound within the rating proves nothing */
			check_cover(c, p, mk, pm_at(m, p)->unk);
			continue;
		}
		figures(c, pm_at(m, p)->load, -1, pm_at(m, p)->unk, cp.mw);
		check_fail(
		    c, p, &d->objs[p].loc,
		    "%s %s carries %s%s at max load, above its %s",
		    d->objs[p].cls == C_PDU ? "PDU" : "power shelf",
		    ir_name(d, p), pm_at(m, p)->unk ? "at least " : "",
		    check_qfmt2(DIM_POWER, pm_at(m, p)->load, cp.mw, a, b), b);
		note_capacity(c, &cp, check_part_name(d, p));
		note_pdu_load(c, m, p, RK_NONE);
		note_unknown_load(c, m, p);
		check_cover(c, p, mk, pm_at(m, p)->unk);
	}
}

/* ---- power-outlets ---- */

/* Notes: the supplies with @inlet plugged into @pdu, by part. */
static void note_outlets(struct check_ctx *c, const struct pmodel *m,
			 uint32_t pdu, const char *inlet)
{
	const struct rk_design *d = m->d;
	struct lgroup *g = NULL;
	uint32_t ng = 0, gcap = 0, more = 0;

	for (uint32_t j = pm_at(m, pdu)->pdu_w; j != RK_NONE;
	     j = m->w[j].next) {
		const char *in = ir_str(d, m->w[j].dev, A_INLET);
		uint32_t k;

		if (!in || !streq(in, inlet))
			continue;
		for (k = 0; k < ng; k++)
			if (g[k].part == d->objs[m->w[j].dev].part &&
			    g[k].n == m->w[j].n)
				break;
		if (k == ng) {
			struct lgroup *x = VEC_PUSH(g, ng, gcap);

			memset(x, 0, sizeof(*x));
			x->part = d->objs[m->w[j].dev].part;
			x->first = m->w[j].dev;
			x->n = m->w[j].n;
			x->loc = m->w[j].loc;
		}
		g[k].count++;
	}
	for (uint32_t k = 0; k < ng; k++) {
		char who[600];

		if (k >= CHECK_GROUP_NOTES) {
			more += g[k].count;
			continue;
		}
		check_note(c, g[k].loc, "%s: %lld x %s%s",
			   check_group_who(d, g[k].first, g[k].count, who,
					   sizeof(who)),
			   (long long)g[k].n, inlet,
			   g[k].count > 1 ? " each" : "");
	}
	if (more)
		check_note(c, NULL, "and %u more devices", more);
	free(g);
}

static void run_outlets(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	uint8_t *seen = xcalloc(d->nobjs + 1, 1);
	const struct pmodel *m = power_model(c);

	skip_dependants(c, m);
	/* supply inlets must be plugs */
	for (uint32_t j = 0; j < m->nw; j++) {
		uint32_t dev = m->w[j].dev, part = d->objs[dev].part;
		const char *in = ir_str(d, dev, A_INLET);
		const struct rk_value *iv;

		if (part == RK_NONE || seen[part] || !in)
			continue;
		seen[part] = 1;
		if (!streq(in, "C13") && !streq(in, "C19"))
			continue;
		iv = ir_attr_inh(d, dev, A_INLET);
		check_fail(c, dev, &iv->loc,
			   "part %s gives its PSU inlet as %s, an outlet "
			   "(female) connector; the inlet is %s",
			   ir_name(d, part), in,
			   streq(in, "C13") ? "C14" : "C20");
	}
	for (uint32_t p = 0; p < d->nobjs && !check_stop(c); p++) {
		int64_t c20 = 0, c14 = 0, h13, h19;

		if (pm_at(m, p)->pdu_w == RK_NONE || d->objs[p].cls != C_PDU ||
		    (!ir_attr_inh(d, p, A_OUTLETS_C13) &&
		     !ir_attr_inh(d, p, A_OUTLETS_C19)))
			continue;
		h13 = check_num0(d, p, A_OUTLETS_C13);
		h19 = check_num0(d, p, A_OUTLETS_C19);
		for (uint32_t j = pm_at(m, p)->pdu_w; j != RK_NONE;
		     j = m->w[j].next) {
			const char *in = ir_str(d, m->w[j].dev, A_INLET);

			if (in && streq(in, "C20"))
				c20 += m->w[j].n;
			else if (in && streq(in, "C14"))
				c14 += m->w[j].n;
		}
		if (c20 > h19) {
			check_fail(c, p, &d->objs[p].loc,
				   "PDU %s has %lld C19 %s, but it takes %lld "
				   "%s with C20 inlets",
				   ir_name(d, p), (long long)h19,
				   h19 == 1 ? "outlet" : "outlets", NPSU(c20));
			note_outlets(c, m, p, "C20");
		} else if (c14 > h13 + (h19 - c20)) {
			check_fail(c, p, &d->objs[p].loc,
				   "PDU %s has %lld C13 %s and %lld C19 %s "
				   "left after the C20 inlets, but it takes "
				   "%lld %s with C14 inlets",
				   ir_name(d, p), (long long)h13,
				   h13 == 1 ? "outlet" : "outlets",
				   (long long)(h19 - c20),
				   h19 - c20 == 1 ? "outlet" : "outlets",
				   NPSU(c14));
			note_outlets(c, m, p, "C14");
		}
	}
	free(seen);
}

/* ---- power-feed-failure and power-feed-throttle ---- */

/* Notes: which supplies of @dev are on feed @f. */
static void note_lost(struct check_ctx *c, const struct pmodel *m, uint32_t dev,
		      uint32_t f)
{
	for (uint32_t i = 0; i < pm_at(m, dev)->dev_nw; i++) {
		const struct pm_wire *w = &m->w[pm_at(m, dev)->dev_w + i];

		if (pm_feed_of(m->d, w->pdu) == f)
			check_note(c, w->loc,
				   "%lld %s plugged into %s on feed %s",
				   NPSU((int64_t)w->n), ir_name(m->d, w->pdu),
				   ir_name(m->d, f));
	}
}

/*
 * Visit each (device, failed feed) pair the model considers, in device
 * order; @fn reports.
 */
static void each_device_loss(struct check_ctx *c, const struct pmodel *m,
			     void (*fn)(struct check_ctx *c,
					const struct pmodel *m, uint32_t dev,
					uint32_t f, const struct psu_info *pi))
{
	const struct rk_design *d = m->d;

	for (uint32_t i = 0; i < d->nobjs && !check_stop(c); i++) {
		uint32_t w0 = pm_at(m, i)->dev_w;
		struct psu_info pi;

		if (w0 == RK_NONE || !pm_multi_feed(m, i))
			continue;
		pm_psu_info(d, i, &pi);
		for (uint32_t a = 0; a < pm_at(m, i)->dev_nw; a++) {
			uint32_t f = pm_feed_of(d, m->w[w0 + a].pdu);
			bool seen = false;

			if (f == RK_NONE)
				continue;
			for (uint32_t b = 0; b < a && !seen; b++)
				seen = pm_feed_of(d, m->w[w0 + b].pdu) == f;
			if (!seen)
				fn(c, m, i, f, &pi);
		}
	}
}

static void report_down(struct check_ctx *c, const struct pmodel *m,
			uint32_t dev, uint32_t f, const struct psu_info *pi)
{
	const struct rk_design *d = m->d;
	int64_t k = pm_at(m, dev)->dev_k, s = k - pm_on_feed(m, dev, f), draw;
	char why[200];

	if (pm_psu_state(pi, s, &draw) != PS_DOWN)
		return;
	if (!s) {
		check_fail(c, dev, m->w[pm_at(m, dev)->dev_w].loc,
			   "device %s loses power when feed %s fails: all "
			   "its PSUs are on that feed",
			   ir_name(d, dev), ir_name(d, f));
	} else {
		if (pi->min_given)
			snprintf(why, sizeof(why), "psu_min_run %lld",
				 (long long)pi->min_run);
		else
			full_text(pi, why, sizeof(why));
		check_fail(c, dev, m->w[pm_at(m, dev)->dev_w].loc,
			   "device %s loses power when feed %s fails: %lld of "
			   "its %lld PSUs remain, it needs %lld (%s)",
			   ir_name(d, dev), ir_name(d, f), (long long)s,
			   (long long)k, (long long)pi->min_run, why);
	}
	note_lost(c, m, dev, f);
}

static void report_throttle(struct check_ctx *c, const struct pmodel *m,
			    uint32_t dev, uint32_t f, const struct psu_info *pi)
{
	const struct rk_design *d = m->d;
	int64_t k = pm_at(m, dev)->dev_k, s = k - pm_on_feed(m, dev, f), draw;
	char why[200], a[RK_QFMT_MAX], b[RK_QFMT_MAX], t[RK_QFMT_MAX];

	if (pm_psu_state(pi, s, &draw) != PS_THROTTLED)
		return;
	full_text(pi, why, sizeof(why));
	check_fail(c, dev, m->w[pm_at(m, dev)->dev_w].loc,
		   "device %s runs throttled when feed %s fails: %lld of its "
		   "%lld PSUs remain, full power needs %lld (%s)",
		   ir_name(d, dev), ir_name(d, f), (long long)s, (long long)k,
		   (long long)pi->full, why);
	if (pi->rating)
		check_note(c, m->w[pm_at(m, dev)->dev_w].loc,
			   "%lld x %s = %s against power_max %s", (long long)s,
			   FP(pi->rating, a),
			   check_qfmt2(DIM_POWER,
				       check_sat((__int128)s * pi->rating),
				       pi->pmax, b, t),
			   t);
	note_lost(c, m, dev, f);
}

static void run_feed_failure(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct pmodel *m = power_model(c);

	skip_dependants(c, m);
	each_device_loss(c, m, report_down);
	for (uint32_t p = 0; p < d->nobjs && !check_stop(c); p++) {
		struct supply_cap cp;
		struct check_mark mk;

		if (pm_at(m, p)->pdu_s == RK_NONE || !pm_is_source(d, p))
			continue;
		mk = check_cover_begin(c);
		supply_capacity(d, p, &cp);
		if (cp.how == SUPPLY_NONE) {
			check_cover_figure(c, p, mk, unrated_waived(c, p));
			continue;
		}
		for (uint32_t s = pm_at(m, p)->pdu_s; s != RK_NONE;
		     s = m->s[s].next) {
			int64_t load =
			    check_sadd(pm_at(m, p)->load, m->s[s].delta);
			char a[RK_QFMT_MAX], b[RK_QFMT_MAX];

			if (load <= cp.mw)
				continue;
			figures(c, pm_at(m, p)->load, load, pm_at(m, p)->unk,
				cp.mw);
			check_fail(
			    c, p, &d->objs[p].loc,
			    "when feed %s fails, %s %s carries %s%s, "
			    "above its %s",
			    ir_name(d, m->s[s].feed),
			    d->objs[p].cls == C_PDU ? "PDU" : "power shelf",
			    ir_name(d, p), pm_at(m, p)->unk ? "at least " : "",
			    check_qfmt2(DIM_POWER, load, cp.mw, a, b), b);
			note_capacity(c, &cp, check_part_name(d, p));
			note_pdu_load(c, m, p, m->s[s].feed);
			note_unknown_load(c, m, p);
		}
		check_cover(c, p, mk, pm_at(m, p)->unk);
	}
}

static void run_feed_throttle(struct check_ctx *c)
{
	const struct pmodel *m = power_model(c);

	skip_dependants(c, m);
	each_device_loss(c, m, report_throttle);
}

/* ---- power-feed-capacity ---- */

#define MAX_RACK_NOTES 3

/* Notes: the racks that load feed @g (scenario @failed or RK_NONE). */
static void note_feed_racks(struct check_ctx *c, const struct pmodel *m,
			    uint32_t g, uint32_t failed, int64_t *sum,
			    uint32_t *touched)
{
	const struct rk_design *d = m->d;
	uint32_t nt = 0, nb = 0;
	int64_t other = 0;

	for (uint32_t p = pm_at(m, g)->feed_p; p != RK_NONE;
	     p = pm_at(m, p)->pdu_next) {
		uint32_t r;
		int64_t l;

		if (pm_at(m, p)->pdu_w == RK_NONE &&
		    pm_at(m, p)->pdu_s == RK_NONE)
			continue;
		l = pm_at(m, p)->load;
		for (uint32_t s = pm_at(m, p)->pdu_s;
		     s != RK_NONE && failed != RK_NONE; s = m->s[s].next)
			if (m->s[s].feed == failed)
				l = check_sadd(l, m->s[s].delta);
		r = layout_rack_of(d, p);
		if (r == RK_NONE) {
			other = check_sadd(other, l);
			continue;
		}
		if (!sum[r] && !l)
			continue;
		if (!sum[r])
			touched[nt++] = r;
		sum[r] = check_sadd(sum[r], l);
	}
	/* the largest few, then the rest */
	for (uint32_t shown = 0; shown < MAX_RACK_NOTES && shown < nt;
	     shown++) {
		uint32_t best = shown;
		char a[RK_QFMT_MAX];

		for (uint32_t k = shown + 1; k < nt; k++)
			if (sum[touched[k]] > sum[touched[best]])
				best = k;
		if (best != shown) {
			uint32_t t = touched[best];

			touched[best] = touched[shown];
			touched[shown] = t;
		}
		check_note(c, &d->objs[touched[shown]].loc, "rack %s: %s",
			   ir_name(d, touched[shown]),
			   FP(sum[touched[shown]], a));
		nb++;
	}
	if (nt > nb) {
		int64_t rest = 0;
		char a[RK_QFMT_MAX];

		for (uint32_t k = nb; k < nt; k++)
			rest = check_sadd(rest, sum[touched[k]]);
		check_note(c, NULL, "and %u more racks: %s", nt - nb,
			   FP(rest, a));
	}
	if (other) {
		char a[RK_QFMT_MAX];

		check_note(c, NULL, "PDUs outside racks: %s", FP(other, a));
	}
	for (uint32_t k = 0; k < nt; k++)
		sum[touched[k]] = 0;
}

static void run_feed_capacity(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	int64_t *sum = xcalloc(d->nobjs + 1, sizeof(*sum));
	uint32_t *touched = xmalloc((d->nobjs + 1) * sizeof(*touched));
	const struct pmodel *m = power_model(c);

	skip_dependants(c, m);
	for (uint32_t g = 0; g < d->nobjs && !check_stop(c); g++) {
		struct supply_cap cp;
		struct check_mark mk;
		uint32_t worst = RK_NONE;
		int64_t wl = 0;
		char a[RK_QFMT_MAX], b[RK_QFMT_MAX], t[RK_QFMT_MAX];

		if (d->objs[g].kind != K_FEED)
			continue;
		mk = check_cover_begin(c);
		supply_capacity(d, g, &cp);
		if (cp.how == SUPPLY_NONE) {
			if (pm_at(m, g)->feed_p != RK_NONE)
				check_cover_figure(c, g, mk,
						   unrated_waived(c, g));
			continue;
		}
		if (pm_at(m, g)->load > cp.mw) {
			figures(c, pm_at(m, g)->load, -1, pm_at(m, g)->unk,
				cp.mw);
			check_fail(c, g, &d->objs[g].loc,
				   "feed %s carries %s%s at max load, above "
				   "its %s",
				   ir_name(d, g),
				   pm_at(m, g)->unk ? "at least " : "",
				   check_qfmt2(DIM_POWER, pm_at(m, g)->load,
					       cp.mw, a, b),
				   b);
			note_capacity(c, &cp, ir_name(d, g));
			note_feed_racks(c, m, g, RK_NONE, sum, touched);
			note_unknown_feed(c, m, g);
			check_cover(c, g, mk, pm_at(m, g)->unk);
			continue;
		}
		for (uint32_t s = pm_at(m, g)->feed_s; s != RK_NONE;
		     s = m->s[s].next) {
			int64_t l =
			    check_sadd(pm_at(m, g)->load, m->s[s].delta);

			if (l > cp.mw && l > wl) {
				wl = l;
				worst = m->s[s].feed;
			}
		}
		if (worst == RK_NONE) {
			check_cover(c, g, mk, pm_at(m, g)->unk);
			continue;
		}
		figures(c, pm_at(m, g)->load, wl, pm_at(m, g)->unk, cp.mw);
		check_fail(c, g, &d->objs[g].loc,
			   "when feed %s fails, feed %s carries %s%s (%s%s in "
			   "normal operation), above its %s",
			   ir_name(d, worst), ir_name(d, g),
			   pm_at(m, g)->unk ? "at least " : "",
			   check_qfmt2(DIM_POWER, wl, cp.mw, a, b),
			   pm_at(m, g)->unk ? "at least " : "",
			   FP(pm_at(m, g)->load, t), b);
		note_capacity(c, &cp, ir_name(d, g));
		note_feed_racks(c, m, g, worst, sum, touched);
		note_unknown_feed(c, m, g);
		check_cover(c, g, mk, pm_at(m, g)->unk);
	}
	free(touched);
	free(sum);
}

CHECK_DEFINE(power_connected, "power-connected", CHECK_ERROR,
	     "every PSU of a racked device is plugged into exactly one PDU "
	     "on a feed",
	     run_connected);
CHECK_DEFINE(power_psu_redundancy, "power-psu-redundancy", CHECK_ERROR,
	     "PSU count, rating and redundancy scheme carry power_max",
	     run_psu_redundancy);
CHECK_DEFINE(power_figure_unknown, "power-figure-unknown", CHECK_ERROR,
	     "every device a power budget counts has a known power_max (an "
	     "unknown figure is never zero), and every PDU, power shelf and "
	     "feed that carries load a rating",
	     run_figure_unknown);
CHECK_AFTER(power_pdu_capacity, "power-pdu-capacity", CHECK_ERROR,
	    "each PDU carries its devices at max load (derated rating)",
	    run_pdu_capacity, &check_power_connected);
CHECK_AFTER(power_outlets, "power-outlets", CHECK_ERROR,
	    "PDUs have enough C19 outlets for the C20 inlets, and C13 or "
	    "spare C19 ones for the C14 inlets",
	    run_outlets, &check_power_connected);
CHECK_AFTER(power_feed_failure, "power-feed-failure", CHECK_ERROR,
	    "with one feed lost, every device keeps enough PSUs and the "
	    "other PDUs carry the load",
	    run_feed_failure, &check_power_connected,
	    &check_power_psu_redundancy, &check_power_pdu_capacity);
CHECK_AFTER(power_feed_throttle, "power-feed-throttle", CHECK_OFF,
	    "devices that run throttled when one feed is lost",
	    run_feed_throttle, &check_power_connected,
	    &check_power_psu_redundancy);
CHECK_AFTER(power_feed_capacity, "power-feed-capacity", CHECK_ERROR,
	    "each feed or UPS carries its racks, also when another feed "
	    "fails",
	    run_feed_capacity, &check_power_connected,
	    &check_power_psu_redundancy);
