/* SPDX-License-Identifier: MIT */
/*
 * The "diagrams" back end: fabrics/NAME.svg and fabrics/NAME.dot, one
 * picture per fabric of its groups and link bundles.  A fabric's devices
 * are layered by their distance from the endpoints (0: the endpoint
 * devices, 1: the switches they attach to, 2: the next tier, ...).  The
 * endpoint ports are grouped by rail (the port's name: ib[0] is one rail)
 * and the switches of tier 1 by the rail they serve ("mixed" when more
 * than one); higher tiers by tier and switch part.  With more than
 * MAX_RAILS rails, endpoints and tier-1 switches are grouped by part
 * instead.  A bundle is every link between two groups, drawn with its
 * count and rate.  The DOT file is the same graph for Graphviz.
 */
#include "rackc.h"

#include <stdlib.h>

#include "be_common.h"
#include "schema.h"
#include "svg.h"

#define MAX_RAILS 16
#define MAX_GROUPS 256
#define BOX_W 170
#define BOX_H 46
#define LAYER_H 150

struct fgroup {
	uint32_t level;
	uint32_t key;	  /* rail name (interned) or part object */
	bool by_part;	  /* key is a part */
	bool mixed;	  /* a tier-1 group of switches serving several rails */
	uint32_t members; /* switches, or endpoint ports */
	uint32_t devices; /* endpoint devices (for endpoint groups) */
	uint32_t part;	  /* first member's part */
	uint32_t order;	  /* position in its layer */
};

struct bundle {
	uint32_t a, b; /* groups, a < b */
	uint32_t count;
	int64_t rate; /* per link, when uniform */
	bool uniform;
	__int128 total;
};

/*
 * Tables shared by the diagrams of one design, so that drawing a fabric
 * costs what the fabric holds rather than what the design holds: the
 * links by fabric, and per-object tables that each fabric resets by the
 * objects it touched (its devices, and the ports or parts it memoised).
 * A fabric's own links are indexed by device (compressed rows on the
 * fabric's devices, numbered locally) before its devices are layered, so
 * that the walk reads a few small arrays in order instead of every link
 * record of every device it reaches, other fabrics' links included.
 */
struct fdiag_scratch {
	uint32_t *fl_off, *fl; /* links of fabric f: fl[fl_off[f] ..
				  fl_off[f + 1]), in index order */
	uint32_t *of_dev, *level, *ep_memo, *queue;
	uint32_t nqueue; /* devices of the last fabric, in queue[] */
	uint32_t *keys;	 /* ep_memo entries set by the last fabric */
	size_t nkeys, keys_cap;
	uint32_t *stamp; /* device -> 1 + the group last counted for it */
	uint32_t *loc;	 /* device -> its local number, RK_NONE */
	uint32_t *ldev;	 /* local number -> device */
	uint32_t *loff;	 /* local device v's link ends: loff[v] ..
			    loff[v + 1] in lnbr and lj */
	uint32_t *lnbr;	 /* the local number of the other end */
	uint32_t *lj;	 /* the link's position in the fabric's links */
	size_t ends_cap;
};

struct fdiag_scratch *fdiag_scratch_new(const struct rk_design *d)
{
	struct fdiag_scratch *sc = xcalloc(1, sizeof(*sc));
	size_t n = (size_t)d->nobjs + 1;

	/* the resolved links of each fabric, by one counting pass */
	sc->fl_off = xcalloc(n + 2, sizeof(*sc->fl_off));
	for (uint32_t i = 0; i < d->nlinks; i++)
		if (d->links[i].a_port != RK_NONE &&
		    d->links[i].fabric < d->nobjs)
			sc->fl_off[d->links[i].fabric + 2]++;
	for (size_t f = 2; f < n + 2; f++)
		sc->fl_off[f] += sc->fl_off[f - 1];
	sc->fl = xmalloc((sc->fl_off[n] + 1) * sizeof(*sc->fl));
	for (uint32_t i = 0; i < d->nlinks; i++)
		if (d->links[i].a_port != RK_NONE &&
		    d->links[i].fabric < d->nobjs)
			sc->fl[sc->fl_off[d->links[i].fabric + 1]++] = i;
	sc->of_dev = xmalloc(n * sizeof(*sc->of_dev));
	sc->level = xmalloc(n * sizeof(*sc->level));
	sc->queue = xmalloc(n * sizeof(*sc->queue));
	sc->ep_memo = xcalloc(n, sizeof(*sc->ep_memo));
	sc->stamp = xcalloc(n, sizeof(*sc->stamp));
	sc->loc = xmalloc(n * sizeof(*sc->loc));
	sc->ldev = xmalloc(n * sizeof(*sc->ldev));
	sc->loff = xmalloc((n + 1) * sizeof(*sc->loff));
	memset(sc->of_dev, 0xff, n * sizeof(*sc->of_dev));
	memset(sc->level, 0xff, n * sizeof(*sc->level));
	memset(sc->loc, 0xff, n * sizeof(*sc->loc));
	return sc;
}

void fdiag_scratch_free(struct fdiag_scratch *sc)
{
	if (!sc)
		return;
	free(sc->fl_off);
	free(sc->fl);
	free(sc->of_dev);
	free(sc->level);
	free(sc->queue);
	free(sc->ep_memo);
	free(sc->keys);
	free(sc->stamp);
	free(sc->loc);
	free(sc->ldev);
	free(sc->loff);
	free(sc->lnbr);
	free(sc->lj);
	free(sc);
}

/*
 * Index the @n links @fl of a fabric by device: its devices numbered in
 * order of first appearance (sc->loc, sc->ldev), each one's link ends in
 * link order (a link from a device to itself twice); returns the number
 * of devices.
 */
static uint32_t fabric_index(struct fdiag_scratch *sc,
			     const struct rk_design *d, const uint32_t *fl,
			     uint32_t n)
{
	uint32_t nl = 0, *loc = sc->loc, *loff = sc->loff;

	for (uint32_t j = 0; j < n; j++) {
		const struct rk_link *l = &d->links[fl[j]];

		if (loc[l->a_dev] == RK_NONE) {
			loc[l->a_dev] = nl;
			sc->ldev[nl++] = l->a_dev;
		}
		if (loc[l->b_dev] == RK_NONE) {
			loc[l->b_dev] = nl;
			sc->ldev[nl++] = l->b_dev;
		}
	}
	if ((size_t)2 * n > sc->ends_cap) {
		sc->ends_cap = (size_t)2 * n;
		free(sc->lnbr);
		free(sc->lj);
		sc->lnbr = xmalloc(sc->ends_cap * sizeof(*sc->lnbr));
		sc->lj = xmalloc(sc->ends_cap * sizeof(*sc->lj));
	}
	memset(loff, 0, (nl + 2) * sizeof(*loff));
	for (uint32_t j = 0; j < n; j++) {
		const struct rk_link *l = &d->links[fl[j]];

		loff[loc[l->a_dev] + 2]++;
		loff[loc[l->b_dev] + 2]++;
	}
	for (uint32_t v = 2; v < nl + 2; v++)
		loff[v] += loff[v - 1];
	for (uint32_t j = 0; j < n; j++) {
		const struct rk_link *l = &d->links[fl[j]];
		uint32_t a = loc[l->a_dev], b = loc[l->b_dev];

		sc->lnbr[loff[a + 1]] = b;
		sc->lj[loff[a + 1]++] = j;
		sc->lnbr[loff[b + 1]] = a;
		sc->lj[loff[b + 1]++] = j;
	}
	return nl;
}

#define BHASH 4096 /* bundle hash slots (past that, a scan) */

struct fdiag {
	struct fgroup g[MAX_GROUPS + 1];
	uint32_t bhash[BHASH]; /* bundle index + 1, 0: empty */
	uint32_t *ep_memo;     /* port (or part) object -> group + 1 */
	struct fdiag_scratch *sc;
	uint32_t ng, nlevels;
	struct bundle *b;
	uint32_t nb, b_cap;
	uint32_t *of_dev;  /* device -> group (switches), RK_NONE */
	uint32_t *level;   /* device -> level, RK_NONE */
	uint32_t *layer_n; /* groups per level */
	bool overflow;	   /* more groups than MAX_GROUPS: the rest merged */
	uint32_t links;
};

static uint32_t group_get(struct fdiag *x, uint32_t level, uint32_t key,
			  bool by_part, bool mixed, uint32_t part)
{
	for (uint32_t i = 0; i < x->ng; i++)
		if (x->g[i].level == level && x->g[i].key == key &&
		    x->g[i].by_part == by_part && x->g[i].mixed == mixed)
			return i;
	if (x->ng == MAX_GROUPS) {
		x->overflow = true;
		return MAX_GROUPS; /* the catch-all */
	}
	memset(&x->g[x->ng], 0, sizeof(x->g[0]));
	x->g[x->ng].level = level;
	x->g[x->ng].key = key;
	x->g[x->ng].by_part = by_part;
	x->g[x->ng].mixed = mixed;
	x->g[x->ng].part = part;
	return x->ng++;
}

static void bundle_bump(struct bundle *k, int64_t rate)
{
	k->count++;
	k->total += rate;
	if (rate != k->rate)
		k->uniform = false;
}

static void bundle_add(struct fdiag *x, uint32_t a, uint32_t b, int64_t rate)
{
	struct bundle *k;
	uint32_t h;

	if (a > b) {
		uint32_t t = a;

		a = b;
		b = t;
	}
	/* open addressing over the (a, b) pairs; a full table (more than
	 * BHASH bundles) falls back to scanning */
	h = (a * 2654435761u ^ b * 40503u) % BHASH;
	for (uint32_t probe = 0; probe < BHASH; probe++, h = (h + 1) % BHASH) {
		if (!x->bhash[h]) {
			if (x->nb + 1 < BHASH)
				x->bhash[h] = x->nb + 1;
			break;
		}
		k = &x->b[x->bhash[h] - 1];
		if (k->a == a && k->b == b) {
			bundle_bump(k, rate);
			return;
		}
	}
	if (x->nb + 1 >= BHASH)
		for (uint32_t i = 0; i < x->nb; i++) {
			k = &x->b[i];
			if (k->a == a && k->b == b) {
				bundle_bump(k, rate);
				return;
			}
		}
	if (x->nb == x->b_cap) {
		x->b_cap = x->b_cap ? 2 * x->b_cap : 32;
		x->b = xrealloc(x->b, x->b_cap * sizeof(*x->b));
	}
	k = &x->b[x->nb++];
	k->a = a;
	k->b = b;
	k->count = 1;
	k->rate = rate;
	k->uniform = true;
	k->total = rate;
}

/* the group of an endpoint port (memoised by port, or by part) */
static uint32_t ep_group(struct fdiag *x, const struct rk_design *d,
			 uint32_t dev, uint32_t port, bool by_part)
{
	uint32_t p = d->objs[dev].part, key = by_part ? p : port;

	if (key != RK_NONE && x->ep_memo[key])
		return x->ep_memo[key] - 1;
	key = key != RK_NONE ? key : d->nobjs;
	if (x->sc->nkeys == x->sc->keys_cap) {
		x->sc->keys_cap = x->sc->keys_cap ? 2 * x->sc->keys_cap : 64;
		x->sc->keys = xrealloc(x->sc->keys,
				       x->sc->keys_cap * sizeof(*x->sc->keys));
	}
	x->sc->keys[x->sc->nkeys++] = key;
	x->ep_memo[key] = 1 + (by_part ? group_get(x, 0, p, true, false, p)
				       : group_get(x, 0, d->objs[port].local,
						   false, false, p));
	return x->ep_memo[key] - 1;
}

/* The rails of fabric @fab: its distinct endpoint port names, counted up
 * to MAX_RAILS + 1; *@first the first one (RK_NONE: no endpoint). */
static uint32_t count_rails(const struct rk_design *d, uint32_t fab,
			    uint32_t *first)
{
	uint32_t seen[MAX_RAILS + 1], rails = 0;
	struct ir_ep_cursor cur = { 0, 0 };

	*first = RK_NONE;
	for (const struct rk_value *v; (v = ir_next_endpoint(d, fab, &cur));) {
		uint32_t nm = d->objs[(uint32_t)v->n].local, k;

		for (k = 0; k < rails && seen[k] != nm; k++)
			;
		if (k == rails && rails <= MAX_RAILS)
			seen[rails++] = nm;
		if (*first == RK_NONE)
			*first = nm;
	}
	return rails;
}

/* Devices per endpoint group from the @np (group @eg, device @ed) pairs:
 * the endpoints bucketed by group, a group's devices counted once each by
 * a stamp per device (cleared after for the @nq queued devices). */
static void count_group_devices(struct fdiag *x, const uint32_t *eg,
				const uint32_t *ed, size_t np, uint32_t nq)
{
	struct fdiag_scratch *sc = x->sc;
	uint32_t *goff = xcalloc(MAX_GROUPS + 2, sizeof(*goff));
	uint32_t *edev = xmalloc((np + 1) * sizeof(*edev));

	for (size_t k = 0; k < np; k++)
		goff[eg[k] + 1]++;
	for (uint32_t g = 0; g <= MAX_GROUPS; g++)
		goff[g + 1] += goff[g];
	for (size_t k = 0; k < np; k++)
		edev[goff[eg[k]]++] = ed[k];
	/* goff[g] is now where group g's endpoints end */
	for (uint32_t g = 0, k = 0; g <= MAX_GROUPS; g++)
		for (; k < goff[g]; k++)
			if (sc->stamp[edev[k]] != g + 1) {
				sc->stamp[edev[k]] = g + 1;
				x->g[g].devices++;
			}
	for (uint32_t q = 0; q < nq; q++)
		sc->stamp[sc->queue[q]] = 0;
	free(goff);
	free(edev);
}

/* The endpoint ports' groups (members, devices); the endpoint devices are
 * level 0, queued in sc->queue.  Returns the number queued. */
static uint32_t endpoint_groups(struct fdiag *x, const struct rk_design *d,
				uint32_t fab, bool by_part)
{
	uint32_t *eg = NULL, *ed = NULL, qt = 0;
	size_t np = 0, np_cap = 0;
	struct ir_ep_cursor cur = { 0, 0 };

	for (const struct rk_value *v; (v = ir_next_endpoint(d, fab, &cur));) {
		uint32_t dev = v->a;
		uint32_t g = ep_group(x, d, dev, (uint32_t)v->n, by_part);

		x->g[g].members++;
		if (np == np_cap) {
			np_cap = np_cap ? 2 * np_cap : 64;
			eg = xrealloc(eg, np_cap * sizeof(*eg));
			ed = xrealloc(ed, np_cap * sizeof(*ed));
		}
		ed[np] = dev;
		eg[np++] = g;
		if (x->level[dev] == RK_NONE) {
			x->level[dev] = 0;
			x->sc->queue[qt++] = dev;
		}
	}
	count_group_devices(x, eg, ed, np, qt);
	free(eg);
	free(ed);
	return qt;
}

/* The fabric's devices layered breadth first from the @qt queued
 * endpoints, over its links by device (fabric_index); returns the number
 * of devices queued in all. */
static uint32_t layer_devices(struct fdiag *x, uint32_t qt)
{
	struct fdiag_scratch *sc = x->sc;
	uint32_t *queue = sc->queue, *loc = sc->loc, *loff = sc->loff;

	for (uint32_t qh = 0; qh < qt;) {
		uint32_t u = queue[qh++], v = loc[u];

		if (v == RK_NONE)
			continue; /* an endpoint without links here */
		for (uint32_t k = loff[v]; k < loff[v + 1]; k++) {
			uint32_t w = sc->ldev[sc->lnbr[k]];

			if (x->level[w] != RK_NONE)
				continue;
			x->level[w] = x->level[u] + 1;
			if (x->level[w] + 1 > x->nlevels)
				x->nlevels = x->level[w] + 1;
			queue[qt++] = w;
		}
	}
	if (!x->nlevels)
		x->nlevels = 1;
	return qt;
}

/* The rail tier-1 switch @u serves, from its links to endpoints (@fl the
 * fabric's links): RK_NONE for none; *@mixed set when it serves several. */
static uint32_t switch_rail(const struct fdiag *x, const struct rk_design *d,
			    const uint32_t *fl, uint32_t u, bool *mixed)
{
	const struct fdiag_scratch *sc = x->sc;
	uint32_t rail = RK_NONE, v = sc->loc[u];

	for (uint32_t k = sc->loff[v]; k < sc->loff[v + 1]; k++) {
		const struct rk_link *l;
		uint32_t wp;

		if (x->level[sc->ldev[sc->lnbr[k]]] != 0)
			continue;
		l = &d->links[fl[sc->lj[k]]];
		wp = l->a_dev == u ? l->b_port : l->a_port;
		if (rail == RK_NONE)
			rail = d->objs[wp].local;
		else if (rail != d->objs[wp].local)
			*mixed = true;
	}
	return rail;
}

/* The group of each of the @qt queued devices past the endpoints: a
 * tier-1 switch's the rail it serves (unless grouped by part, or it
 * serves none), every other switch's its tier and part. */
static void switch_groups(struct fdiag *x, const struct rk_design *d,
			  const uint32_t *fl, bool by_part, uint32_t first_rail,
			  uint32_t qt)
{
	for (uint32_t q = 0; q < qt; q++) {
		uint32_t u = x->sc->queue[q], rail = RK_NONE;
		bool mixed = false;
		uint32_t p = d->objs[u].part;

		if (x->level[u] == 0)
			continue;
		if (x->level[u] == 1 && !by_part)
			rail = switch_rail(x, d, fl, u, &mixed);
		if (x->level[u] == 1 && !by_part && rail != RK_NONE)
			x->of_dev[u] = group_get(
			    x, 1, mixed ? first_rail : rail, false, mixed, p);
		else
			x->of_dev[u] =
			    group_get(x, x->level[u], p, true, false, p);
		x->g[x->of_dev[u]].members++;
	}
}

/* Bundles: the fabric's @nfl links @fl (both ends reached), in index
 * order. */
static void fabric_bundles(struct fdiag *x, const struct rk_design *d,
			   const uint32_t *fl, uint32_t nfl, bool by_part)
{
	for (uint32_t j = 0; j < nfl; j++) {
		const struct rk_link *l = &d->links[fl[j]];
		uint32_t ga, gb;

		if (x->level[l->a_dev] == RK_NONE)
			continue; /* not reached from the endpoints */
		ga = x->level[l->a_dev] == 0
			 ? ep_group(x, d, l->a_dev, l->a_port, by_part)
			 : x->of_dev[l->a_dev];
		gb = x->level[l->b_dev] == 0
			 ? ep_group(x, d, l->b_dev, l->b_port, by_part)
			 : x->of_dev[l->b_dev];
		bundle_add(x, ga, gb, metrics_link_rate(d, l));
		x->links++;
	}
}

/* Positions in each layer, in order of first appearance. */
static void layer_positions(struct fdiag *x)
{
	x->layer_n = xcalloc(x->nlevels + 1, sizeof(*x->layer_n));
	for (uint32_t i = 0; i < x->ng; i++)
		x->g[i].order =
		    x->layer_n[x->g[i].level < x->nlevels ? x->g[i].level
							  : 0]++;
}

/* The groups and bundles of fabric @fab: its endpoint ports grouped by
 * rail (or part), its devices layered from the endpoints, its switches
 * grouped by rail or by tier and part. */
static void fdiag_build(struct fdiag *x, const struct rk_design *d,
			uint32_t fab, struct fdiag_scratch *sc)
{
	const uint32_t *fl = sc->fl + sc->fl_off[fab];
	uint32_t nfl = sc->fl_off[fab + 1] - sc->fl_off[fab];
	uint32_t first_rail, qt, nloc;
	bool by_part;

	memset(x, 0, sizeof(*x));
	x->sc = sc;
	x->of_dev = sc->of_dev;
	x->level = sc->level;
	x->ep_memo = sc->ep_memo;
	by_part = count_rails(d, fab, &first_rail) > MAX_RAILS;
	qt = endpoint_groups(x, d, fab, by_part);
	/* the fabric's links, by device; its devices layered from the
	 * endpoints */
	nloc = fabric_index(sc, d, fl, nfl);
	qt = layer_devices(x, qt);
	switch_groups(x, d, fl, by_part, first_rail, qt);
	for (uint32_t v = 0; v < nloc; v++)
		sc->loc[sc->ldev[v]] = RK_NONE;
	fabric_bundles(x, d, fl, nfl, by_part);
	layer_positions(x);
	sc->nqueue = qt;
}

/* free a fabric's groups and reset the scratch entries it touched */
static void fdiag_free(struct fdiag *x)
{
	struct fdiag_scratch *sc = x->sc;

	for (uint32_t q = 0; q < sc->nqueue; q++)
		sc->level[sc->queue[q]] = sc->of_dev[sc->queue[q]] = RK_NONE;
	for (size_t k = 0; k < sc->nkeys; k++)
		sc->ep_memo[sc->keys[k]] = 0;
	sc->nqueue = 0;
	sc->nkeys = 0;
	free(x->b);
	free(x->layer_n);
}

static const char *tier_name(uint32_t level, uint32_t nlevels)
{
	static const char *const ft[] = { "endpoints", "leaf", "spine",
					  "core" };

	if (level == 0)
		return "endpoints";
	if (nlevels == 2)
		return "switch";
	return level < 4 ? ft[level] : "tier";
}

/* a group's first line ("leaf ib[0]", "spine") into @buf */
static void group_title(char *buf, size_t n, const struct rk_design *d,
			const struct fdiag *x, uint32_t g)
{
	const struct fgroup *gr = &x->g[g];
	const char *t;

	if (g == MAX_GROUPS) {
		snprintf(buf, n, "other groups");
		return;
	}
	t = tier_name(gr->level, x->nlevels);
	if (gr->mixed)
		snprintf(buf, n, "%s (several rails)", t);
	else if (!gr->by_part)
		snprintf(buf, n, "%s %s", t, str_of(d->arena, gr->key));
	else if (gr->level == 0)
		snprintf(buf, n, "%s %s", t,
			 ir_str(d, gr->key, A_MODEL)
			     ? ir_str(d, gr->key, A_MODEL)
			     : ir_name(d, gr->key));
	else if (gr->level >= 4)
		snprintf(buf, n, "%s %u", t, gr->level);
	else
		snprintf(buf, n, "%s", t);
}

/* its second line: what it holds */
static void group_detail(char *buf, size_t n, const struct rk_design *d,
			 const struct fdiag *x, uint32_t g)
{
	const struct fgroup *gr = &x->g[g];
	const char *m;

	if (g == MAX_GROUPS) {
		snprintf(buf, n, "merged");
		return;
	}
	m = gr->part != RK_NONE ? ir_str(d, gr->part, A_MODEL) : NULL;
	if (!m)
		m = gr->part != RK_NONE ? ir_name(d, gr->part) : "?";
	if (gr->level == 0)
		snprintf(buf, n, "%u ports on %u devices", gr->members,
			 gr->devices);
	else
		snprintf(buf, n, "%u \xc3\x97 %s", gr->members, m);
}

static void wb_rate(struct wbuf *w, int64_t bps)
{
	char buf[RK_QFMT_MAX];
	struct quantity q = { DIM_RATE, bps };

	wb_str(w, quantity_human(q, buf));
}

static void bundle_label(struct wbuf *w, const struct bundle *k)
{
	if (k->uniform) {
		wb_printf(w, "%u \xc3\x97 ", k->count);
		wb_rate(w, k->rate);
	} else {
		wb_printf(w, "%u links, ", k->count);
		wb_rate(w,
			k->total > INT64_MAX ? INT64_MAX : (int64_t)k->total);
	}
}

static void box_pos(const struct fdiag *x, uint32_t g, int width, int *cx,
		    int *cy)
{
	uint32_t lv = g == MAX_GROUPS ? 0 : x->g[g].level;
	uint32_t n = g == MAX_GROUPS ? 1 : x->layer_n[lv];
	uint32_t o = g == MAX_GROUPS ? 0 : x->g[g].order;

	*cx = (int)((uint64_t)width * (2 * o + 1) / (2 * (n ? n : 1)));
	*cy = 90 + (int)(x->nlevels - 1 - lv) * LAYER_H + BOX_H / 2;
}

static void fabric_svg(struct wbuf *w, const struct rk_design *d, uint32_t fab,
		       const struct fdiag *xp)
{
	const struct fdiag x = *xp;
	uint32_t widest = 1;
	int width, height;
	char title[512], desc[1024];

	for (uint32_t l = 0; l < x.nlevels; l++)
		widest = x.layer_n[l] > widest ? x.layer_n[l] : widest;
	width = (int)widest * (BOX_W + 30) + 40;
	if (width < 640)
		width = 640;
	height = 90 + (int)(x.nlevels - 1) * LAYER_H + BOX_H + 30;
	snprintf(title, sizeof(title), "Fabric %s", ir_name(d, fab));
	snprintf(desc, sizeof(desc),
		 "Fabric %s: %u tiers of switches above its endpoints, in %u "
		 "groups (endpoints by rail, switches by tier and rail); %u "
		 "bundles carry its %u links, each labelled with its link "
		 "count and rate.",
		 ir_name(d, fab), x.nlevels - 1, x.ng, x.nb, x.links);
	svg_begin(w, width, height, NULL, title, desc);
	wb_str(w, "<text x=\"20\" y=\"28\" font-size=\"16\" "
		  "font-weight=\"bold\">");
	wb_xml(w, title);
	wb_printf(w,
		  "</text>\n<text x=\"20\" y=\"48\" font-size=\"11\">%u "
		  "links in %u bundles; endpoints grouped by %s</text>\n",
		  x.links, x.nb, x.ng && x.g[0].by_part ? "part" : "rail");
	for (uint32_t i = 0; i < x.nb; i++) {
		const struct bundle *k = &x.b[i];
		int ax, ay, bx, by, lx, ly;

		box_pos(&x, k->a, width, &ax, &ay);
		box_pos(&x, k->b, width, &bx, &by);
		if (ay == by) {
			/* the same layer: an arc above */
			wb_printf(
			    w,
			    "<path d=\"M%d %d Q%d %d %d %d\" fill=\"none\" "
			    "stroke=\"#4e79a7\" stroke-width=\"1.5\"/>\n",
			    ax, ay - BOX_H / 2, (ax + bx) / 2, ay - BOX_H - 30,
			    bx, by - BOX_H / 2);
			lx = (ax + bx) / 2;
			ly = ay - BOX_H - 10;
		} else {
			int y1 = ay > by ? ay - BOX_H / 2 : ay + BOX_H / 2;
			int y2 = ay > by ? by + BOX_H / 2 : by - BOX_H / 2;

			wb_printf(
			    w,
			    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			    "stroke=\"#4e79a7\" stroke-width=\"1.5\"/>\n",
			    ax, y1, bx, y2);
			/* the label nearer the lower end, where lines part */
			lx = ay > by ? ax + (bx - ax) / 4 : bx + (ax - bx) / 4;
			ly = ay > by ? y1 + (y2 - y1) / 4 : y2 + (y1 - y2) / 4;
		}
		wb_printf(w,
			  "<text x=\"%d\" y=\"%d\" font-size=\"9\" "
			  "text-anchor=\"middle\" fill=\"#1f3b5a\" "
			  "stroke=\"#ffffff\" stroke-width=\"3\" "
			  "paint-order=\"stroke\">",
			  lx, ly);
		bundle_label(w, k);
		wb_str(w, "</text>\n");
	}
	for (uint32_t g = 0; g <= x.ng; g++) {
		char t[512];
		int cx, cy;

		if (g == x.ng && !x.overflow)
			break;
		if (g == x.ng)
			g = MAX_GROUPS;
		box_pos(&x, g, width, &cx, &cy);
		wb_printf(
		    w,
		    "<g><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		    "rx=\"6\" fill=\"%s\" stroke=\"#333333\"/>",
		    cx - BOX_W / 2, cy - BOX_H / 2, BOX_W, BOX_H,
		    g != MAX_GROUPS && x.g[g].level == 0 ? "#a6c8ec"
							 : "#b5dfa7");
		wb_printf(w,
			  "<text x=\"%d\" y=\"%d\" font-size=\"11\" "
			  "text-anchor=\"middle\" font-weight=\"bold\">",
			  cx, cy - 4);
		group_title(t, sizeof(t), d, &x, g);
		wb_xml(w, t);
		wb_printf(w,
			  "</text><text x=\"%d\" y=\"%d\" font-size=\"10\" "
			  "text-anchor=\"middle\">",
			  cx, cy + 12);
		group_detail(t, sizeof(t), d, &x, g);
		wb_xml(w, t);
		wb_str(w, "</text></g>\n");
	}
	svg_end(w);
}

/* build a fabric's groups and draw them with @draw */
static void with_groups(struct wbuf *w, const struct rk_design *d, uint32_t fab,
			struct fdiag_scratch *sc,
			void (*draw)(struct wbuf *, const struct rk_design *,
				     uint32_t, const struct fdiag *))
{
	struct fdiag *x = xmalloc(sizeof(*x));

	fdiag_build(x, d, fab, sc);
	draw(w, d, fab, x);
	fdiag_free(x);
	free(x);
}

void svg_fabric(struct wbuf *w, const struct rk_design *d, uint32_t fab,
		struct fdiag_scratch *sc)
{
	with_groups(w, d, fab, sc, fabric_svg);
}

static void wb_dot(struct wbuf *w, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			wb_ch(w, '\\');
		if ((unsigned char)*s >= 0x20)
			wb_ch(w, *s);
	}
}

static void fabric_dot(struct wbuf *w, const struct rk_design *d, uint32_t fab,
		       const struct fdiag *xp)
{
	const struct fdiag x = *xp;

	wb_str(w, "graph \"");
	wb_dot(w, ir_name(d, fab));
	wb_str(
	    w,
	    "\" {\n\trankdir=BT;\n\tnode [shape=box, style=\"rounded,filled\", "
	    "fontname=\"sans-serif\", fontsize=10];\n"
	    "\tedge [fontname=\"sans-serif\", fontsize=9];\n");
	for (uint32_t l = 0; l < x.nlevels; l++) {
		wb_printf(w, "\t{ rank=same;");
		for (uint32_t g = 0; g < x.ng; g++)
			if (x.g[g].level == l)
				wb_printf(w, " g%u;", g);
		wb_str(w, " }\n");
	}
	for (uint32_t g = 0; g <= x.ng; g++) {
		char t[512];

		if (g == x.ng && !x.overflow)
			break;
		if (g == x.ng)
			g = MAX_GROUPS;
		wb_printf(w, "\tg%u [label=\"", g);
		group_title(t, sizeof(t), d, &x, g);
		wb_dot(w, t);
		wb_str(w, "\\n");
		group_detail(t, sizeof(t), d, &x, g);
		wb_dot(w, t);
		wb_printf(w, "\", fillcolor=\"%s\"];\n",
			  g != MAX_GROUPS && x.g[g].level == 0 ? "#a6c8ec"
							       : "#b5dfa7");
	}
	for (uint32_t i = 0; i < x.nb; i++) {
		wb_printf(w, "\tg%u -- g%u [label=\"", x.b[i].a, x.b[i].b);
		bundle_label(w, &x.b[i]);
		wb_str(w, "\"];\n");
	}
	wb_str(w, "}\n");
}

static bool emit_diagrams(struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	struct fdiag *x = xmalloc(sizeof(*x));
	struct fdiag_scratch *sc = fdiag_scratch_new(d);
	bool ok = true;

	for (uint32_t f = 0; f < d->nobjs && ok; f++) {
		const char *base;
		char rel[1024];
		struct wbuf *w;

		if (d->objs[f].kind != K_FABRIC)
			continue;
		if (be_cancelled(ctx)) {
			ok = false;
			break;
		}
		fdiag_build(x, d, f, sc);
		base = be_derived_name(ctx->arena, ir_name(d, f));
		snprintf(rel, sizeof(rel), "fabrics/%s.svg", base);
		ok = (w = svg_file_open(ctx, rel)) != NULL;
		if (ok) {
			wb_str(w, "<?xml version=\"1.0\" "
				  "encoding=\"UTF-8\"?>\n");
			fabric_svg(w, d, f, x);
			ok = svg_file_close(ctx, w);
		}
		snprintf(rel, sizeof(rel), "fabrics/%s.dot", base);
		if (ok && (ok = (w = svg_file_open(ctx, rel)) != NULL)) {
			fabric_dot(w, d, f, x);
			ok = svg_file_close(ctx, w);
		}
		fdiag_free(x);
	}
	fdiag_scratch_free(sc);
	free(x);
	return ok;
}

const struct backend backend_diagrams = {
	.name = "diagrams",
	.summary = "fabrics/NAME.svg and .dot: each fabric's switch groups and "
		   "link bundles",
	.emit = emit_diagrams,
};
