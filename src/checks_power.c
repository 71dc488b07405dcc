/* SPDX-License-Identifier: MIT */
/*
 * Power checks: PSU redundancy of the parts, wiring of supplies to PDUs,
 * PDU and feed capacity, outlet types, and what a lost feed does.
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
#include "schema.h"
#include "supply.h"

/* ---- arithmetic ---- */

/* ceil(a * n / k) for a >= 0, k > 0 */
static int64_t share_of(int64_t a, int64_t n, int64_t k)
{
	__int128 p = (__int128)a * n;

	return check_sat((p + k - 1) / k);
}

/* "%lld %s" arguments: 1 PSU, 2 PSUs */
#define NPSU(n) (long long)(n), (n) == 1 ? "PSU" : "PSUs"

static bool is_source(const struct rk_design *d, uint32_t obj)
{
	return d->objs[obj].kind == K_DEVICE &&
	       (d->objs[obj].cls == C_PDU || d->objs[obj].cls == C_POWER_SHELF);
}

static uint32_t feed_of(const struct rk_design *d, uint32_t pdu)
{
	const struct rk_value *v = ir_attr_inh(d, pdu, A_FEED);

	return v && v->type == VT_OBJ ? v->a : RK_NONE;
}

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

enum scheme_kind { SCH_NONE, SCH_BAD, SCH_FIXED, SCH_NN, SCH_NK, SCH_N };

/*
 * Parse psu_redundancy: "A+B", "N+N", "2N", "N+K" or "N" (blanks around
 * '+' allowed).  *active: supplies that carry full power; *spare: the rest.
 */
static enum scheme_kind scheme_parse(const char *s, int64_t psus,
				     int64_t *active, int64_t *spare)
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

enum full_why { FULL_ANY, FULL_SCHEME, FULL_RATING };

/**
 * struct psu_info - the PSU figures of a device (from its part)
 * @pmax:    power_max, mW
 * @psus:    supplies declared
 * @rating:  psu_rating, mW (0: unknown)
 * @full:    supplies needed for full power
 * @min_run: fewest supplies it runs on (throttled below @full)
 * @why:     where @full comes from
 * @min_given: psu_min_run was given
 * @scheme:  psu_redundancy text, or NULL
 */
struct psu_info {
	int64_t pmax, psus, rating, full, min_run;
	enum full_why why;
	bool min_given;
	const char *scheme;
};

static void psu_info(const struct rk_design *d, uint32_t dev,
		     struct psu_info *pi)
{
	int64_t active, spare;

	memset(pi, 0, sizeof(*pi));
	pi->pmax = check_num0(d, dev, A_POWER_MAX);
	pi->psus = check_num0(d, dev, A_PSUS);
	pi->rating = check_num0(d, dev, A_PSU_RATING);
	pi->scheme = ir_str(d, dev, A_PSU_REDUNDANCY);
	pi->full = 1;
	pi->why = FULL_ANY;
	switch (scheme_parse(pi->scheme, pi->psus, &active, &spare)) {
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
			pi->full = share_of(pi->pmax, 1, pi->rating);
			pi->why = FULL_RATING;
		}
		break;
	}
	pi->min_run = pi->full;
	if (ir_attr_inh(d, dev, A_PSU_MIN_RUN)) {
		int64_t m = check_num0(d, dev, A_PSU_MIN_RUN);

		pi->min_given = true;
		if (m >= 1 && m < pi->full)
			pi->min_run = m;
	}
}

enum pstate { PS_FULL, PS_THROTTLED, PS_DOWN };

/* State and draw of a device left with @s working supplies. */
static enum pstate psu_state(const struct psu_info *pi, int64_t s,
			     int64_t *draw)
{
	if (s <= 0 || s < pi->min_run) {
		*draw = 0;
		return PS_DOWN;
	}
	*draw = pi->pmax;
	if (s >= pi->full)
		return PS_FULL;
	if (pi->rating && (__int128)s * pi->rating < pi->pmax)
		*draw = s * pi->rating;
	return PS_THROTTLED;
}

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

/* ---- the wiring model ---- */

/**
 * struct wire - supplies of one device plugged into one PDU
 * @dev, @pdu: the two ends
 * @n:    how many supplies
 * @next: next wire into the same PDU (RK_NONE ends)
 * @loc:  the first 'power' pair that names the PDU
 */
struct wire {
	uint32_t dev, pdu, n, next;
	const struct srcloc *loc;
};

/* load change on a PDU (or feed) when a feed fails */
struct scen {
	uint32_t feed, next;
	int64_t delta;
};

struct pmodel {
	const struct rk_design *d;
	struct wire *w;
	uint32_t nw, wcap;
	struct scen *s;
	uint32_t ns, scap;
	uint32_t *dev_w;    /* first wire of a device, RK_NONE */
	uint32_t *dev_nw;   /* its wire count (wires are contiguous) */
	uint32_t *dev_k;    /* supplies plugged in */
	uint32_t *pdu_w;    /* first wire into a PDU */
	uint32_t *pdu_s;    /* first scenario of a PDU */
	uint32_t *feed_s;   /* first scenario of a feed */
	uint32_t *feed_p;   /* first PDU on a feed (chained by pdu_next) */
	uint32_t *pdu_next; /* next PDU on the same feed */
	uint32_t *rack_f0, *rack_f1; /* first two feeds seen in a rack */
	int64_t *load;		     /* normal load of a PDU (or feed), mW */
	/* per PDU (or feed): a device on it has no power_max, so every load
	 * figure of it (normal or after a loss) is a lower bound */
	uint8_t *unk;
};

static void rack_feed_add(struct pmodel *m, uint32_t rack, uint32_t f)
{
	if (rack == RK_NONE || f == RK_NONE)
		return;
	if (m->rack_f0[rack] == RK_NONE)
		m->rack_f0[rack] = f;
	else if (m->rack_f0[rack] != f && m->rack_f1[rack] == RK_NONE)
		m->rack_f1[rack] = f;
}

static void scen_add(struct pmodel *m, uint32_t *head, uint32_t feed,
		     int64_t delta)
{
	uint32_t prev = RK_NONE;
	struct scen *e;

	for (uint32_t i = *head; i != RK_NONE; i = m->s[i].next) {
		if (m->s[i].feed == feed) {
			m->s[i].delta = check_sadd(m->s[i].delta, delta);
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

static uint32_t *u32_array(uint32_t n)
{
	uint32_t *a = xmalloc((size_t)(n + 1) * sizeof(*a));

	for (uint32_t i = 0; i <= n; i++)
		a[i] = RK_NONE;
	return a;
}

/* Supplies of @dev plugged into PDUs on feed @f. */
static int64_t on_feed(const struct pmodel *m, uint32_t dev, uint32_t f)
{
	int64_t n = 0;

	for (uint32_t i = 0; i < m->dev_nw[dev]; i++) {
		const struct wire *w = &m->w[m->dev_w[dev] + i];

		if (feed_of(m->d, w->pdu) == f)
			n += w->n;
	}
	return n;
}

/* Does a failure of one feed concern @dev (its rack or it uses two)? */
static bool multi_feed(const struct pmodel *m, uint32_t dev)
{
	const struct rk_design *d = m->d;
	uint32_t r = layout_rack_of(d, dev), f0 = RK_NONE;

	if (r != RK_NONE && m->rack_f1[r] != RK_NONE)
		return true;
	for (uint32_t i = 0; i < m->dev_nw[dev]; i++) {
		uint32_t f = feed_of(d, m->w[m->dev_w[dev] + i].pdu);

		if (f == RK_NONE)
			continue;
		if (f0 == RK_NONE)
			f0 = f;
		else if (f != f0)
			return true;
	}
	return false;
}

static void pm_free(struct pmodel *m)
{
	free(m->w);
	free(m->s);
	free(m->dev_w);
	free(m->dev_nw);
	free(m->dev_k);
	free(m->pdu_w);
	free(m->pdu_s);
	free(m->feed_s);
	free(m->feed_p);
	free(m->pdu_next);
	free(m->rack_f0);
	free(m->rack_f1);
	free(m->load);
	free(m->unk);
}

/*
 * Build the model: wires, normal PDU loads and, when @scenarios, the load
 * changes of every single-feed failure.  One pass over the objects and
 * their attributes, then passes over the wires.
 */
static void pm_build(struct pmodel *m, const struct rk_design *d,
		     bool scenarios)
{
	uint32_t n = d->nobjs;

	memset(m, 0, sizeof(*m));
	m->d = d;
	m->dev_w = u32_array(n);
	m->dev_nw = xcalloc(n + 1, sizeof(uint32_t));
	m->dev_k = xcalloc(n + 1, sizeof(uint32_t));
	m->pdu_w = u32_array(n);
	m->pdu_s = u32_array(n);
	m->feed_s = u32_array(n);
	m->feed_p = u32_array(n);
	m->pdu_next = u32_array(n);
	m->rack_f0 = u32_array(n);
	m->rack_f1 = u32_array(n);
	m->load = xcalloc(n + 1, sizeof(int64_t));
	m->unk = xcalloc(n + 1, 1);

	for (uint32_t i = 0; i < n; i++) {
		const struct rk_obj *o = &d->objs[i];
		uint32_t first = m->nw;

		if (o->kind != K_DEVICE)
			continue;
		if (is_source(d, i))
			rack_feed_add(m, layout_rack_of(d, i), feed_of(d, i));
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
				struct wire *w = VEC_PUSH(m->w, m->nw, m->wcap);

				w->dev = i;
				w->pdu = p->a;
				w->n = 0;
				w->next = RK_NONE;
				w->loc = &l->loc;
			}
			m->w[j].n += (uint32_t)l->n;
			m->dev_k[i] += (uint32_t)l->n;
		}
		if (m->nw > first) {
			m->dev_w[i] = first;
			m->dev_nw[i] = m->nw - first;
		}
	}
	/* PDUs of each feed and wires of each PDU, in declaration order */
	for (uint32_t p = n; p-- > 0;) {
		uint32_t g;

		if (!is_source(d, p))
			continue;
		g = feed_of(d, p);
		if (g == RK_NONE)
			continue;
		m->pdu_next[p] = m->feed_p[g];
		m->feed_p[g] = p;
	}
	for (uint32_t j = m->nw; j-- > 0;) {
		m->w[j].next = m->pdu_w[m->w[j].pdu];
		m->pdu_w[m->w[j].pdu] = j;
		rack_feed_add(m, layout_rack_of(d, m->w[j].dev),
			      feed_of(d, m->w[j].pdu));
	}
	/* normal loads */
	for (uint32_t j = 0; j < m->nw; j++) {
		const struct wire *w = &m->w[j];
		int64_t p = check_num0(d, w->dev, A_POWER_MAX);

		m->load[w->pdu] = check_sadd(
		    m->load[w->pdu], share_of(p, w->n, m->dev_k[w->dev]));
		if (device_figures_unknown(d, w->dev) & TOTAL_POWER)
			m->unk[w->pdu] = 1;
	}
	if (!scenarios)
		return;
	/* single-feed failures, device by device */
	for (uint32_t i = 0; i < n; i++) {
		struct psu_info pi;
		uint32_t w0 = m->dev_w[i], nw = m->dev_nw[i];

		if (w0 == RK_NONE || !multi_feed(m, i))
			continue;
		psu_info(d, i, &pi);
		for (uint32_t a = 0; a < nw; a++) {
			uint32_t f = feed_of(d, m->w[w0 + a].pdu);
			int64_t s, draw;
			bool seen = false;

			if (f == RK_NONE)
				continue;
			for (uint32_t b = 0; b < a && !seen; b++)
				seen = feed_of(d, m->w[w0 + b].pdu) == f;
			if (seen)
				continue;
			s = (int64_t)m->dev_k[i] - on_feed(m, i, f);
			psu_state(&pi, s, &draw);
			for (uint32_t b = 0; b < nw; b++) {
				const struct wire *w = &m->w[w0 + b];
				int64_t now = 0;

				if (feed_of(d, w->pdu) == f)
					continue;
				if (draw)
					now = share_of(draw, w->n, s);
				scen_add(
				    m, &m->pdu_s[w->pdu], f,
				    now - share_of(pi.pmax, w->n, m->dev_k[i]));
			}
		}
	}
	/* feed totals: normal load and per-scenario changes */
	for (uint32_t g = 0; g < n; g++)
		for (uint32_t p = m->feed_p[g]; p != RK_NONE;
		     p = m->pdu_next[p]) {
			m->load[g] = check_sadd(m->load[g], m->load[p]);
			m->unk[g] |= m->unk[p];
			for (uint32_t s = m->pdu_s[p]; s != RK_NONE;
			     s = m->s[s].next)
				scen_add(m, &m->feed_s[g], m->s[s].feed,
					 m->s[s].delta);
		}
}

static void pm_release(void *p)
{
	pm_free(p);
	free(p);
}

/*
 * The design's power model (with the feed-failure scenarios or without),
 * built once for all the power checks.
 */
static const struct pmodel *power_model(struct check_ctx *c, bool scenarios)
{
	struct check_model *pm =
	    &c->model[scenarios ? CHECK_MODEL_POWER_SCENARIOS
				: CHECK_MODEL_POWER];

	if (!pm->p) {
		struct pmodel *m = xmalloc(sizeof(*m));

		pm_build(m, c->d, scenarios);
		pm->p = m;
		pm->free = pm_release;
	}
	return pm->p;
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
		for (uint32_t k = 0; k < m->dev_nw[i]; k++)
			check_skip_add(c, m->w[m->dev_w[i] + k].pdu);
	}
	for (uint32_t p = 0; p < d->nobjs; p++)
		if (is_source(d, p) && check_skipped(c, p))
			check_skip_add(c, feed_of(d, p));
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

	for (uint32_t j = m->pdu_w[pdu]; j != RK_NONE; j = m->w[j].next) {
		const struct wire *w = &m->w[j];
		struct psu_info pi;
		int64_t s = m->dev_k[w->dev], draw;
		enum pstate st = PS_FULL;
		uint32_t k;

		/* no figure: note_unknown_load() names them, never as 0 W */
		if (device_figures_unknown(d, w->dev) & TOTAL_POWER)
			continue;
		psu_info(d, w->dev, &pi);
		draw = pi.pmax;
		if (failed != RK_NONE && multi_feed(m, w->dev)) {
			s -= on_feed(m, w->dev, failed);
			st = psu_state(&pi, s, &draw);
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
			x->share = share_of(draw, w->n, s);
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
		psu_info(d, x->first, &pi);
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
				   (long long)m->dev_k[x->first], a, frac,
				   each);
		else if (x->draw < pi.pmax)
			check_note(c, x->loc,
				   "%s throttled on %lld of %lld PSUs (full "
				   "power needs %lld), drawing at most %lld x "
				   "%s = %s%s%s",
				   who, (long long)x->s,
				   (long long)m->dev_k[x->first],
				   (long long)pi.full, (long long)x->s,
				   FP(pi.rating, r), a, frac, each);
		else
			check_note(c, x->loc,
				   "%s throttled on %lld of %lld PSUs (full "
				   "power needs %lld), drawing up to %s%s%s",
				   who, (long long)x->s,
				   (long long)m->dev_k[x->first],
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

	if (!m->unk[pdu])
		return;
	for (uint32_t j = m->pdu_w[pdu]; j != RK_NONE; j = m->w[j].next)
		if (device_figures_unknown(d, m->w[j].dev) & TOTAL_POWER) {
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
	for (uint32_t p = m->feed_p[g]; p != RK_NONE; p = m->pdu_next[p])
		if (m->unk[p]) {
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

	if (m->dev_w[dev] != RK_NONE)
		return NEED_PDU;
	if (!(device_figures_unknown(d, dev) & TOTAL_HEAT))
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
	const char *why = figure_unknown_reason(c->d, part, name, &loc, &from);

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

	snprintf(buf, n, "%s%s", m->unk[obj] ? "at least " : "",
		 FP(m->load[obj], a));
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
	const struct pmodel *m = power_model(c, true); /* feed loads too */
	uint32_t *first = u32_array(d->nobjs), *next = u32_array(d->nobjs);
	uint32_t *last = u32_array(d->nobjs);
	struct supply_cap cp;

	for (uint32_t p = 0; p < d->nobjs; p++) {
		uint32_t key = d->objs[p].part != RK_NONE ? d->objs[p].part : p;

		if (!is_source(d, p) || m->pdu_w[p] == RK_NONE)
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

		if (!is_source(d, p))
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

		if (d->objs[g].kind != K_FEED || m->feed_p[g] == RK_NONE)
			continue;
		supply_capacity(d, g, &cp);
		if (cp.how != SUPPLY_NONE || check_waived(c, g))
			continue;
		for (uint32_t p = m->feed_p[g]; p != RK_NONE;
		     p = m->pdu_next[p])
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
 * device_draws_power) and sit in a budget a check judges (need_of)
 * without power_max.  Reported once per part, at the part, against its first
 * device that no waiver covers; a waiver on every such device, or on an
 * object enclosing it (its rack, row, site, or the fabric that made it),
 * silences it.
 */
static void run_figure_unknown(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct pmodel *m = power_model(c, false);
	uint32_t *first = u32_array(d->nobjs), *next = u32_array(d->nobjs);
	uint32_t *last = u32_array(d->nobjs);

	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t part = d->objs[i].part;

		if (d->objs[i].kind != K_DEVICE || part == RK_NONE ||
		    !(device_figures_unknown(d, i) & TOTAL_POWER) ||
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
				    c, m->w[m->dev_w[k]].loc,
				    "device %s%s%s loads %s %s", ir_name(d, k),
				    r != RK_NONE ? " in rack " : "",
				    r != RK_NONE ? ir_name(d, r) : "",
				    d->objs[m->w[m->dev_w[k]].pdu].cls == C_PDU
					? "PDU"
					: "power shelf",
				    ir_name(d, m->w[m->dev_w[k]].pdu));
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
			if (is_source(d, p->a) && !pdu_seen[p->a]) {
				pdu_seen[p->a] = 1;
				if (feed_of(d, p->a) == RK_NONE)
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

	psu_info(d, part, &pi);
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
	sk = scheme_parse(pi.scheme, pi.psus, &active, &spare);
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

static void run_pdu_capacity(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct pmodel *m = power_model(c, false);

	skip_dependants(c, m);
	for (uint32_t p = 0; p < d->nobjs && !check_stop(c); p++) {
		struct supply_cap cp;
		struct check_mark mk;
		char a[RK_QFMT_MAX], b[RK_QFMT_MAX];

		if (m->pdu_w[p] == RK_NONE || !is_source(d, p))
			continue;
		mk = check_cover_begin(c);
		supply_capacity(d, p, &cp);
		if (cp.how == SUPPLY_NONE) {
			/* power-figure-unknown reports the missing rating */
			check_cover_figure(c, p, mk, unrated_waived(c, p));
			continue;
		}
		if (m->load[p] <= cp.mw) {
			/* a lower bound within the rating proves nothing */
			check_cover(c, p, mk, m->unk[p]);
			continue;
		}
		check_fail(c, p, &d->objs[p].loc,
			   "%s %s carries %s%s at max load, above its %s",
			   d->objs[p].cls == C_PDU ? "PDU" : "power shelf",
			   ir_name(d, p), m->unk[p] ? "at least " : "",
			   check_qfmt2(DIM_POWER, m->load[p], cp.mw, a, b), b);
		note_capacity(c, &cp, check_part_name(d, p));
		note_pdu_load(c, m, p, RK_NONE);
		note_unknown_load(c, m, p);
		check_cover(c, p, mk, m->unk[p]);
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

	for (uint32_t j = m->pdu_w[pdu]; j != RK_NONE; j = m->w[j].next) {
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
	const struct pmodel *m = power_model(c, false);

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

		if (m->pdu_w[p] == RK_NONE || d->objs[p].cls != C_PDU ||
		    (!ir_attr_inh(d, p, A_OUTLETS_C13) &&
		     !ir_attr_inh(d, p, A_OUTLETS_C19)))
			continue;
		h13 = check_num0(d, p, A_OUTLETS_C13);
		h19 = check_num0(d, p, A_OUTLETS_C19);
		for (uint32_t j = m->pdu_w[p]; j != RK_NONE; j = m->w[j].next) {
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
	for (uint32_t i = 0; i < m->dev_nw[dev]; i++) {
		const struct wire *w = &m->w[m->dev_w[dev] + i];

		if (feed_of(m->d, w->pdu) == f)
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
		uint32_t w0 = m->dev_w[i];
		struct psu_info pi;

		if (w0 == RK_NONE || !multi_feed(m, i))
			continue;
		psu_info(d, i, &pi);
		for (uint32_t a = 0; a < m->dev_nw[i]; a++) {
			uint32_t f = feed_of(d, m->w[w0 + a].pdu);
			bool seen = false;

			if (f == RK_NONE)
				continue;
			for (uint32_t b = 0; b < a && !seen; b++)
				seen = feed_of(d, m->w[w0 + b].pdu) == f;
			if (!seen)
				fn(c, m, i, f, &pi);
		}
	}
}

static void report_down(struct check_ctx *c, const struct pmodel *m,
			uint32_t dev, uint32_t f, const struct psu_info *pi)
{
	const struct rk_design *d = m->d;
	int64_t k = m->dev_k[dev], s = k - on_feed(m, dev, f), draw;
	char why[200];

	if (psu_state(pi, s, &draw) != PS_DOWN)
		return;
	if (!s) {
		check_fail(c, dev, m->w[m->dev_w[dev]].loc,
			   "device %s loses power when feed %s fails: all "
			   "its PSUs are on that feed",
			   ir_name(d, dev), ir_name(d, f));
	} else {
		if (pi->min_given)
			snprintf(why, sizeof(why), "psu_min_run %lld",
				 (long long)pi->min_run);
		else
			full_text(pi, why, sizeof(why));
		check_fail(c, dev, m->w[m->dev_w[dev]].loc,
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
	int64_t k = m->dev_k[dev], s = k - on_feed(m, dev, f), draw;
	char why[200], a[RK_QFMT_MAX], b[RK_QFMT_MAX], t[RK_QFMT_MAX];

	if (psu_state(pi, s, &draw) != PS_THROTTLED)
		return;
	full_text(pi, why, sizeof(why));
	check_fail(c, dev, m->w[m->dev_w[dev]].loc,
		   "device %s runs throttled when feed %s fails: %lld of its "
		   "%lld PSUs remain, full power needs %lld (%s)",
		   ir_name(d, dev), ir_name(d, f), (long long)s, (long long)k,
		   (long long)pi->full, why);
	if (pi->rating)
		check_note(c, m->w[m->dev_w[dev]].loc,
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
	const struct pmodel *m = power_model(c, true);

	skip_dependants(c, m);
	each_device_loss(c, m, report_down);
	for (uint32_t p = 0; p < d->nobjs && !check_stop(c); p++) {
		struct supply_cap cp;
		struct check_mark mk;

		if (m->pdu_s[p] == RK_NONE || !is_source(d, p))
			continue;
		mk = check_cover_begin(c);
		supply_capacity(d, p, &cp);
		if (cp.how == SUPPLY_NONE) {
			check_cover_figure(c, p, mk, unrated_waived(c, p));
			continue;
		}
		for (uint32_t s = m->pdu_s[p]; s != RK_NONE; s = m->s[s].next) {
			int64_t load = check_sadd(m->load[p], m->s[s].delta);
			char a[RK_QFMT_MAX], b[RK_QFMT_MAX];

			if (load <= cp.mw)
				continue;
			check_fail(
			    c, p, &d->objs[p].loc,
			    "when feed %s fails, %s %s carries %s%s, "
			    "above its %s",
			    ir_name(d, m->s[s].feed),
			    d->objs[p].cls == C_PDU ? "PDU" : "power shelf",
			    ir_name(d, p), m->unk[p] ? "at least " : "",
			    check_qfmt2(DIM_POWER, load, cp.mw, a, b), b);
			note_capacity(c, &cp, check_part_name(d, p));
			note_pdu_load(c, m, p, m->s[s].feed);
			note_unknown_load(c, m, p);
		}
		check_cover(c, p, mk, m->unk[p]);
	}
}

static void run_feed_throttle(struct check_ctx *c)
{
	const struct pmodel *m = power_model(c, false);

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

	for (uint32_t p = m->feed_p[g]; p != RK_NONE; p = m->pdu_next[p]) {
		uint32_t r;
		int64_t l;

		if (m->pdu_w[p] == RK_NONE && m->pdu_s[p] == RK_NONE)
			continue;
		l = m->load[p];
		for (uint32_t s = m->pdu_s[p];
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
	const struct pmodel *m = power_model(c, true);

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
			if (m->feed_p[g] != RK_NONE)
				check_cover_figure(c, g, mk,
						   unrated_waived(c, g));
			continue;
		}
		if (m->load[g] > cp.mw) {
			check_fail(
			    c, g, &d->objs[g].loc,
			    "feed %s carries %s%s at max load, above "
			    "its %s",
			    ir_name(d, g), m->unk[g] ? "at least " : "",
			    check_qfmt2(DIM_POWER, m->load[g], cp.mw, a, b), b);
			note_capacity(c, &cp, ir_name(d, g));
			note_feed_racks(c, m, g, RK_NONE, sum, touched);
			note_unknown_feed(c, m, g);
			check_cover(c, g, mk, m->unk[g]);
			continue;
		}
		for (uint32_t s = m->feed_s[g]; s != RK_NONE;
		     s = m->s[s].next) {
			int64_t l = check_sadd(m->load[g], m->s[s].delta);

			if (l > cp.mw && l > wl) {
				wl = l;
				worst = m->s[s].feed;
			}
		}
		if (worst == RK_NONE) {
			check_cover(c, g, mk, m->unk[g]);
			continue;
		}
		check_fail(c, g, &d->objs[g].loc,
			   "when feed %s fails, feed %s carries %s%s (%s%s in "
			   "normal operation), above its %s",
			   ir_name(d, worst), ir_name(d, g),
			   m->unk[g] ? "at least " : "",
			   check_qfmt2(DIM_POWER, wl, cp.mw, a, b),
			   m->unk[g] ? "at least " : "", FP(m->load[g], t), b);
		note_capacity(c, &cp, ir_name(d, g));
		note_feed_racks(c, m, g, worst, sum, touched);
		note_unknown_feed(c, m, g);
		check_cover(c, g, mk, m->unk[g]);
	}
	free(touched);
	free(sum);
}

/* ---- report figures (loads.h) ---- */

struct feed_load *feed_loads(const struct rk_design *d, uint32_t *n)
{
	struct feed_load *out = NULL;
	uint32_t nf = 0, cap = 0;
	struct pmodel m;

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
	pm_build(&m, d, true);
	for (uint32_t k = 0; k < nf; k++) {
		struct feed_load *f = &out[k];
		uint32_t g = f->feed, seen = 0;

		f->load = m.load[g];
		f->load_unknown = m.unk[g];
		if (nf < 2)
			continue;
		/* a loss with no scenario here leaves the normal load */
		for (uint32_t s = m.feed_s[g]; s != RK_NONE; s = m.s[s].next) {
			int64_t l = check_sadd(m.load[g], m.s[s].delta);

			seen++;
			if (f->lost_load < 0 || l > f->lost_load ||
			    (l == f->lost_load && m.s[s].feed < f->lost_feed)) {
				f->lost_load = l;
				f->lost_feed = m.s[s].feed;
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
	pm_free(&m);
	*n = nf;
	return out;
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
