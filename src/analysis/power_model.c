/* SPDX-License-Identifier: MIT */
/*
 * The power model: what each PDU, power shelf and feed carries, normally
 * and when one feed is lost, computed once per compilation into the
 * figure cache (derived_power, metrics.h) and read by the power checks
 * (checks_power.c) and the back ends (loads.h) alike, so that a figure in
 * a report and a finding about it never disagree.  Linear in the design.
 *
 * The power model (shared by the checks below, rebuilt by each, linear in
 * the design):
 *
 *  - A device's load is its part's power_max (the electrical maximum; heat
 *    is the cooling checks' business).  Power factor is taken as 1, so a
 *    PDU's kVA rating is compared with kW of load; PSU efficiency is not
 *    modelled (no data).
 *  - Supplies share the load evenly: a device with k supplies plugged in
 *    puts ceil(P x n / k) on a PDU that n of them plug into.
 *  - Full power needs the "active" count of psu_redundancy ("4+2": 4,
 *    "N+N" or "2N": half, "N+1": all but one, "N": all), or without a
 *    scheme ceil(power_max / psu_rating).  The device runs, throttled, on
 *    as few as psu_min_run supplies (default: the full-power count).  A
 *    throttled device draws at most what its remaining supplies deliver,
 *    min(power_max, s x psu_rating).  With neither scheme nor rating the
 *    device is assumed to run at full power on any one supply.
 *  - A PDU or power shelf delivers its `capacity` when it gives one (taken
 *    as usable, no derating); otherwise V x A (single-phase) or
 *    V x A x sqrt(3) (three-phase, V line to line), times `derate` when the
 *    part says so (the NEC 80 % continuous-load rule, S-PDU,
 *    S-PDU), computed exactly (supply.c).  Loads are whole milliwatts and
 *    are compared with the capacity rounded down to the milliwatt, which
 *    is exact: a load fits when it is at most that floor.  Feeds (and
 *    UPSes, busways) are rated the same way from their own attributes.
 *  - Feed failure (N1, N2, S-B200): for each feed F that a
 *    rack's PDUs use, when the rack uses two or more feeds, F is lost: PDUs
 *    on F carry nothing, every device runs on its supplies plugged into the
 *    other PDUs (full power, throttled, or down), and the surviving PDUs and
 *    feeds must carry the new load.  PDUs without a feed never fail.
 *  - Outlets: a C20 inlet needs a C19 outlet; a C14 inlet takes a C13
 *    outlet, or a C19 outlet the C20s leave free (with a C20-to-C13
 *    cord).  PDUs that declare no outlet counts are not checked.
 *  - Phase balance is not checked: the design does not say which outlet
 *    (and so which phase) a supply plugs into.
 */
#include "rackc.h"

#include <stdlib.h>

#include "layout.h"
#include "loads.h"
#include "metrics.h"
#include "models.h"
#include "power_model.h"
#include "schema.h"
#include "supply.h"

int64_t pm_share_of(int64_t a, int64_t n, int64_t k)
{
	i128 p = (i128)a * n;

	return model_sat((p + k - 1) / k);
}

bool pm_is_source(const struct rk_design *d, uint32_t obj)
{
	return d->objs[obj].kind == K_DEVICE &&
	       (d->objs[obj].cls == C_PDU || d->objs[obj].cls == C_POWER_SHELF);
}

uint32_t pm_feed_of(const struct rk_design *d, uint32_t pdu)
{
	const struct rk_value *v = ir_attr_inh(d, pdu, A_FEED);

	return v && v->type == VT_OBJ ? v->a : RK_NONE;
}

/*
 * Parse psu_redundancy: "A+B", "N+N", "2N", "N+K" or "N" (blanks around
 * '+' allowed).  *active: supplies that carry full power; *spare: the rest.
 */
enum scheme_kind pm_scheme_parse(const char *s, int64_t psus, int64_t *active,
				 int64_t *spare)
{
	int64_t x = 0, y = 0;
	int nx = 0, ny = 0;
	bool xn = false, yn = false;

	*active = *spare = 0;
	if (!s)
		return SCH_NONE;
	while (*s == ' ')
		s++;
	if (streq(s, "2N")) {
		*active = psus / 2;
		*spare = psus - psus / 2;
		return SCH_NN;
	}
	if (*s == 'N') {
		xn = true;
		s++;
	} else {
		for (; *s >= '0' && *s <= '9' && nx < 6; s++, nx++)
			x = x * 10 + (*s - '0');
		if (!nx)
			return SCH_BAD;
	}
	while (*s == ' ')
		s++;
	if (!*s) {
		if (!xn)
			return SCH_BAD;
		*active = psus;
		return SCH_N;
	}
	if (*s++ != '+')
		return SCH_BAD;
	while (*s == ' ')
		s++;
	if (*s == 'N') {
		yn = true;
		s++;
	} else {
		for (; *s >= '0' && *s <= '9' && ny < 6; s++, ny++)
			y = y * 10 + (*s - '0');
		if (!ny)
			return SCH_BAD;
	}
	while (*s == ' ')
		s++;
	if (*s)
		return SCH_BAD;
	if (xn && yn) {
		*active = psus / 2;
		*spare = psus - psus / 2;
		return SCH_NN;
	}
	if (yn)
		return SCH_BAD; /* "4+N" */
	if (xn) {
		*active = psus - y;
		*spare = y;
		return SCH_NK;
	}
	*active = x;
	*spare = y;
	return SCH_FIXED;
}

void pm_psu_info(const struct rk_design *d, uint32_t dev, struct psu_info *pi)
{
	int64_t active, spare;

	memset(pi, 0, sizeof(*pi));
	pi->pmax = model_num0(d, dev, A_POWER_MAX);
	pi->psus = model_num0(d, dev, A_PSUS);
	pi->rating = model_num0(d, dev, A_PSU_RATING);
	pi->scheme = ir_str(d, dev, A_PSU_REDUNDANCY);
	pi->full = 1;
	pi->why = FULL_ANY;
	switch (pm_scheme_parse(pi->scheme, pi->psus, &active, &spare)) {
	case SCH_FIXED:
	case SCH_NN:
	case SCH_NK:
	case SCH_N:
		if (active >= 1) {
			pi->full = active;
			pi->why = FULL_SCHEME;
			break;
		}
		FALLTHROUGH;
	case SCH_NONE:
	case SCH_BAD:
		if (pi->rating && pi->pmax) {
			pi->full = pm_share_of(pi->pmax, 1, pi->rating);
			pi->why = FULL_RATING;
		}
		break;
	}
	pi->min_run = pi->full;
	if (ir_attr_inh(d, dev, A_PSU_MIN_RUN)) {
		int64_t m = model_num0(d, dev, A_PSU_MIN_RUN);

		pi->min_given = true;
		if (m >= 1 && m < pi->full)
			pi->min_run = m;
	}
}

/* State and draw of a device left with @s working supplies. */
enum pstate pm_psu_state(const struct psu_info *pi, int64_t s, int64_t *draw)
{
	if (s <= 0 || s < pi->min_run) {
		*draw = 0;
		return PS_DOWN;
	}
	*draw = pi->pmax;
	if (s >= pi->full)
		return PS_FULL;
	if (pi->rating && (i128)s * pi->rating < pi->pmax)
		*draw = s * pi->rating;
	return PS_THROTTLED;
}

/* The defaults of struct pm_obj: no wires, scenarios or feeds. */
static const struct pm_obj pm_none = {
	.dev_w = RK_NONE,
	.pdu_w = RK_NONE,
	.pdu_s = RK_NONE,
	.feed_s = RK_NONE,
	.feed_p = RK_NONE,
	.pdu_next = RK_NONE,
	.rack_f0 = RK_NONE,
	.rack_f1 = RK_NONE,
};

/* The entry of @obj in m->o, made on first use (model_slot). */
static uint32_t pm_slot(struct pmodel *m, uint32_t obj)
{
	return model_slot(m->ix, obj, (void **)&m->o, &m->no, &m->ocap,
			  sizeof(*m->o), &pm_none);
}

static void rack_feed_add(struct pmodel *m, uint32_t rack, uint32_t f)
{
	struct pm_obj *r;
	uint32_t ri;

	if (rack == RK_NONE || f == RK_NONE)
		return;
	ri = pm_slot(m, rack); /* before m->o is read */
	r = &m->o[ri];
	if (r->rack_f0 == RK_NONE)
		r->rack_f0 = f;
	else if (r->rack_f0 != f && r->rack_f1 == RK_NONE)
		r->rack_f1 = f;
}

static void scen_add(struct pmodel *m, uint32_t *head, uint32_t feed,
		     int64_t delta)
{
	uint32_t prev = RK_NONE;
	struct pm_scen *e;

	for (uint32_t i = *head; i != RK_NONE; i = m->s[i].next) {
		if (m->s[i].feed == feed) {
			m->s[i].delta = model_sadd(m->s[i].delta, delta);
			return;
		}
		prev = i;
	}
	e = VEC_PUSH(m->s, m->ns, m->scap);
	e->feed = feed;
	e->next = RK_NONE;
	e->delta = delta;
	if (prev == RK_NONE)
		*head = m->ns - 1;
	else
		m->s[prev].next = m->ns - 1;
}

/* Supplies of @dev plugged into PDUs on feed @f. */
int64_t pm_on_feed(const struct pmodel *m, uint32_t dev, uint32_t f)
{
	int64_t n = 0;

	for (uint32_t i = 0; i < pm_at(m, dev)->dev_nw; i++) {
		const struct pm_wire *w = &m->w[pm_at(m, dev)->dev_w + i];

		if (pm_feed_of(m->d, w->pdu) == f)
			n += w->n;
	}
	return n;
}

/* Does a failure of one feed concern @dev (its rack or it uses two)? */
bool pm_multi_feed(const struct pmodel *m, uint32_t dev)
{
	const struct rk_design *d = m->d;
	uint32_t r = layout_rack_of(d, dev), f0 = RK_NONE;

	if (r != RK_NONE && pm_at(m, r)->rack_f1 != RK_NONE)
		return true;
	for (uint32_t i = 0; i < pm_at(m, dev)->dev_nw; i++) {
		uint32_t f = pm_feed_of(d, m->w[pm_at(m, dev)->dev_w + i].pdu);

		if (f == RK_NONE)
			continue;
		if (f0 == RK_NONE)
			f0 = f;
		else if (f != f0)
			return true;
	}
	return false;
}

void pm_free(struct pmodel *m)
{
	free(m->w);
	free(m->s);
	free(m->o);
}

/*
 * The wires of device @i (its 'power' pairs, one wire per PDU, in the
 * order first named) and the supplies plugged in.
 */
static void wire_device(struct pmodel *m, uint32_t i)
{
	const struct rk_design *d = m->d;
	const struct rk_obj *o = &d->objs[i];
	uint32_t first = m->nw, k_in = 0;

	for (uint32_t k = 0; k < o->attr_count; k++) {
		const struct rk_attr *at = &d->attrs[o->attr_first + k];
		const struct rk_value *l, *p;
		uint32_t j;

		if (at->key != A_POWER || at->val.type != VT_PAIR)
			continue;
		l = &d->vals[at->val.a];
		p = &d->vals[at->val.a + 1];
		if (p->type != VT_OBJ || l->type != VT_LIST || !l->n)
			continue;
		for (j = first; j < m->nw; j++)
			if (m->w[j].pdu == p->a)
				break;
		if (j == m->nw) {
			struct pm_wire *w = VEC_PUSH(m->w, m->nw, m->wcap);

			w->dev = i;
			w->pdu = p->a;
			w->n = 0;
			w->next = RK_NONE;
			w->loc = &l->loc;
		}
		m->w[j].n += (uint32_t)l->n;
		k_in += (uint32_t)l->n;
	}
	/* every supply counted is on a wire of the device */
	if (m->nw > first) {
		uint32_t ei = pm_slot(m, i); /* before m->o is read */
		struct pm_obj *e = &m->o[ei];

		e->dev_w = first;
		e->dev_nw = m->nw - first;
		e->dev_k = k_in;
	}
}

/* PDUs of each feed and wires of each PDU, in declaration order */
static void chain_supplies(struct pmodel *m)
{
	const struct rk_design *d = m->d;

	for (uint32_t p = d->nobjs; p-- > 0;) {
		uint32_t g, pi, gi;

		if (!pm_is_source(d, p))
			continue;
		g = pm_feed_of(d, p);
		if (g == RK_NONE)
			continue;
		pi = pm_slot(m, p);
		gi = pm_slot(m, g);
		m->o[pi].pdu_next = m->o[gi].feed_p;
		m->o[gi].feed_p = p;
	}
	for (uint32_t j = m->nw; j-- > 0;) {
		uint32_t e = pm_slot(m, m->w[j].pdu);

		m->w[j].next = m->o[e].pdu_w;
		m->o[e].pdu_w = j;
		rack_feed_add(m, layout_rack_of(d, m->w[j].dev),
			      pm_feed_of(d, m->w[j].pdu));
	}
}

/* The normal load of each PDU: its share of each device's power_max. */
static void normal_loads(struct pmodel *m)
{
	const struct rk_design *d = m->d;

	for (uint32_t j = 0; j < m->nw; j++) {
		const struct pm_wire *w = &m->w[j];
		int64_t p = model_num0(d, w->dev, A_POWER_MAX);
		uint32_t k = pm_slot(m, w->pdu); /* made above */
		struct pm_obj *e = &m->o[k];

		e->load = model_sadd(
		    e->load, pm_share_of(p, w->n, pm_at(m, w->dev)->dev_k));
		if (metrics_figures_unknown(d, w->dev) & TOTAL_POWER)
			e->unk = 1;
	}
}

/*
 * The load changes on the PDUs device @i (PSU figures @pi) stays plugged
 * into when feed @f fails.
 */
static void feed_failure(struct pmodel *m, uint32_t i,
			 const struct psu_info *pi, uint32_t f)
{
	const struct rk_design *d = m->d;
	uint32_t w0 = pm_at(m, i)->dev_w, nw = pm_at(m, i)->dev_nw;
	int64_t s = (int64_t)pm_at(m, i)->dev_k - pm_on_feed(m, i, f), draw;

	pm_psu_state(pi, s, &draw);
	for (uint32_t b = 0; b < nw; b++) {
		const struct pm_wire *w = &m->w[w0 + b];
		int64_t now = 0;
		uint32_t k;

		if (pm_feed_of(d, w->pdu) == f)
			continue;
		if (draw)
			now = pm_share_of(draw, w->n, s);
		k = pm_slot(m, w->pdu); /* made by chain_supplies */
		scen_add(m, &m->o[k].pdu_s, f,
			 now - pm_share_of(pi->pmax, w->n, pm_at(m, i)->dev_k));
	}
}

/* single-feed failures, device by device, each feed it uses once */
static void feed_failures(struct pmodel *m)
{
	const struct rk_design *d = m->d;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		struct psu_info pi;
		uint32_t w0 = pm_at(m, i)->dev_w, nw = pm_at(m, i)->dev_nw;

		if (w0 == RK_NONE || !pm_multi_feed(m, i))
			continue;
		pm_psu_info(d, i, &pi);
		for (uint32_t a = 0; a < nw; a++) {
			uint32_t f = pm_feed_of(d, m->w[w0 + a].pdu);
			bool seen = false;

			if (f == RK_NONE)
				continue;
			for (uint32_t b = 0; b < a && !seen; b++)
				seen = pm_feed_of(d, m->w[w0 + b].pdu) == f;
			if (!seen)
				feed_failure(m, i, &pi, f);
		}
	}
}

/*
 * Feed totals: normal load and per-scenario changes (a feed with PDUs has
 * its entry; scen_add makes none).
 */
static void feed_totals(struct pmodel *m)
{
	const struct rk_design *d = m->d;

	for (uint32_t g = 0; g < d->nobjs; g++) {
		uint32_t k = model_at(m->ix, g);
		struct pm_obj *e;

		if (!k || k >= m->no)
			continue;
		e = &m->o[k];
		for (uint32_t p = e->feed_p; p != RK_NONE;
		     p = pm_at(m, p)->pdu_next) {
			e->load = model_sadd(e->load, pm_at(m, p)->load);
			e->unk |= pm_at(m, p)->unk;
			for (uint32_t s = pm_at(m, p)->pdu_s; s != RK_NONE;
			     s = m->s[s].next)
				scen_add(m, &e->feed_s, m->s[s].feed,
					 m->s[s].delta);
		}
	}
}

void pm_build(struct pmodel *m, const struct rk_design *d,
	      struct model_index *ix)
{
	memset(m, 0, sizeof(*m));
	m->d = d;
	m->ix = ix;
	*VEC_PUSH(m->o, m->no, m->ocap) = pm_none; /* o[0]: the defaults */
	for (uint32_t i = 0; i < d->nobjs; i++) {
		if (d->objs[i].kind != K_DEVICE)
			continue;
		if (pm_is_source(d, i))
			rack_feed_add(m, layout_rack_of(d, i),
				      pm_feed_of(d, i));
		wire_device(m, i);
	}
	chain_supplies(m);
	normal_loads(m);
	feed_failures(m);
	feed_totals(m);
}

/* ---- report figures (loads.h) ---- */

struct feed_load *pm_feed_loads(const struct pmodel *m, uint32_t *n)
{
	const struct rk_design *d = m->d;
	struct feed_load *out = NULL;
	uint32_t nf = 0, cap = 0;

	*n = 0;
	for (uint32_t g = 0; g < d->nobjs; g++)
		if (d->objs[g].kind == K_FEED) {
			struct feed_load *f = VEC_PUSH(out, nf, cap);

			f->feed = g;
			f->load = 0;
			f->lost_load = -1;
			f->lost_feed = RK_NONE;
		}
	if (!nf)
		return NULL;
	for (uint32_t k = 0; k < nf; k++) {
		struct supply_cap cp;

		supply_capacity(d, out[k].feed, &cp);
		out[k].cap_known = cp.how != SUPPLY_NONE;
		out[k].capacity = out[k].cap_known ? cp.mw : 0;
		/* the milliwatts are the whole capacity */
		out[k].cap_exact = out[k].cap_known && cp.exact && cp.uw >= 0 &&
				   cp.uw % 1000 == 0;
	}
	for (uint32_t k = 0; k < nf; k++) {
		struct feed_load *f = &out[k];
		uint32_t g = f->feed, seen = 0;

		f->load = pm_at(m, g)->load;
		f->load_unknown = pm_at(m, g)->unk;
		if (nf < 2)
			continue;
		/* a loss with no scenario here leaves the normal load */
		for (uint32_t s = pm_at(m, g)->feed_s; s != RK_NONE;
		     s = m->s[s].next) {
			int64_t l =
			    model_sadd(pm_at(m, g)->load, m->s[s].delta);

			seen++;
			if (f->lost_load < 0 || l > f->lost_load ||
			    (l == f->lost_load &&
			     m->s[s].feed < f->lost_feed)) {
				f->lost_load = l;
				f->lost_feed = m->s[s].feed;
			}
		}
		if (seen < nf - 1 && f->lost_load <= f->load) {
			f->lost_load = f->load;
			f->lost_feed = RK_NONE;
		}
		if (f->lost_load == f->load && seen == nf - 1)
			f->lost_feed = RK_NONE;
	}
	for (uint32_t k = 0; k < nf; k++) {
		out[k].load_over = out[k].load == INT64_MAX;
		out[k].lost_over = out[k].lost_load == INT64_MAX;
	}
	*n = nf;
	return out;
}
