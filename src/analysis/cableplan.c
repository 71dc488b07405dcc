/* SPDX-License-Identifier: MIT */
/*
 * The cabling plan (the rules are in cableplan.h).  One pass over the
 * catalog collects the cable and transceiver parts; one pass over the links
 * maps ports to links (for twin-port cables); one pass plans every link and
 * numbers the physical cables; a last pass gives shared cables the longest
 * stock length of their legs and counts parts.  Per-port facts and the
 * transceivers that fit a port are computed once per catalog port.
 */
#include "rackc.h"

#include <stdlib.h>

#include "cableplan.h"
#include "layout.h"
#include "portindex.h"
#include "schema.h"

enum { CAGE_ANY, CAGE_SINGLE, CAGE_TWIN };

/* A catalog cable or transceiver with the facts the plan uses. */
struct cpart {
	uint32_t id;
	const char *name;
	uint32_t media, form, top;
	int cage;
	int64_t speed; /* 0: none */
	int64_t reach; /* -1: none */
	int64_t price; /* -1: none */
	int64_t split;
	const struct rk_value *lengths;
	bool optical;
};

/* Facts of a catalog port, and the transceivers that can sit in it. */
struct pinfo {
	uint32_t form, top;
	int cage;
	int64_t speed;
	uint32_t rep, mate; /* cage: first port and the other port */
	uint32_t *mods[2];  /* per optical media (mmf, smf), best first */
	uint32_t nmods[2];
	bool mods_done[2];
};

struct hent {
	uint64_t k1, k2;
	uint32_t part;
	uint32_t val;
};

struct htab {
	struct hent *e;
	uint32_t cap, n;
};

struct planner {
	const struct rk_design *d;
	struct cable_plan *p;
	struct cpart *cables, *mods;
	uint32_t ncables, nmods;
	uint32_t *pidx; /* object id -> index in pi, RK_NONE */
	struct pinfo *pi;
	uint32_t npi, pi_cap;
	const struct port_index *ports; /* links per device port */
	struct layout_memo layout;	/* cable lengths */
	struct htab cable_key, mod_key;
	/* interned words (0 when no object uses them) */
	uint32_t w_twin, w_single, w_mmf, w_smf, w_power, w_backplane, w_pcb;
};

/* The end of a link being planned. */
struct end {
	uint32_t dev, port;
	struct pinfo *pi;
};

struct cost {
	bool priced;
	int64_t half; /* cost per link in half cents */
	int64_t reach;
	const char *name;
};

#define NO_REACH INT64_MAX

static void htab_init(struct htab *t, uint32_t expect)
{
	uint32_t cap = 16;

	while (cap < expect * 2 + 16)
		cap *= 2;
	t->e = xmalloc((size_t)cap * sizeof(*t->e));
	for (uint32_t i = 0; i < cap; i++)
		t->e[i].val = RK_NONE;
	t->cap = cap;
	t->n = 0;
}

/* The entry for the key: existing, or new with val RK_NONE. */
static struct hent *htab_get(struct htab *t, uint64_t k1, uint64_t k2,
			     uint32_t part)
{
	uint32_t i;

	if ((t->n + 1) * 2 > t->cap) {
		struct htab nt;

		htab_init(&nt, t->cap);
		for (i = 0; i < t->cap; i++) {
			struct hent *o = &t->e[i], *x;

			if (o->val == RK_NONE)
				continue;
			x = htab_get(&nt, o->k1, o->k2, o->part);
			*x = *o;
			nt.n++;
		}
		free(t->e);
		*t = nt;
	}
	i = (uint32_t)hash_mix64(k1 ^ hash_mix64(k2 ^ part)) & (t->cap - 1);
	for (;; i = (i + 1) & (t->cap - 1)) {
		struct hent *x = &t->e[i];

		if (x->val == RK_NONE) {
			x->k1 = k1;
			x->k2 = k2;
			x->part = part;
			return x;
		}
		if (x->k1 == k1 && x->k2 == k2 && x->part == part)
			return x;
	}
}

/* Set a new entry's value (counts it). */
static void htab_set(struct htab *t, struct hent *x, uint32_t val)
{
	if (x->val == RK_NONE)
		t->n++;
	x->val = val;
}

static uint32_t word(const struct rk_design *d, uint32_t obj, uint32_t key)
{
	const struct rk_value *v = ir_attr_inh(d, obj, key);

	return v && v->type == VT_WORD ? v->a : 0;
}

static int64_t num(const struct rk_design *d, uint32_t obj, uint32_t key,
		   int64_t dflt)
{
	const struct rk_value *v = ir_attr_inh(d, obj, key);

	return v && v->type == VT_NUM ? v->n : dflt;
}

static int cage_of(const struct planner *x, uint32_t obj)
{
	uint32_t w = word(x->d, obj, A_CAGE);

	if (w && w == x->w_twin)
		return CAGE_TWIN;
	if (w && w == x->w_single)
		return CAGE_SINGLE;
	return CAGE_ANY;
}

static void part_facts(const struct planner *x, uint32_t id, struct cpart *c)
{
	const struct rk_design *d = x->d;
	const struct rk_value *l = ir_attr_inh(d, id, A_LENGTHS);

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->name = ir_name(d, id);
	c->media = word(d, id, A_MEDIA);
	c->form = word(d, id, A_FORM);
	c->top = word(d, id, A_TOP);
	c->cage = cage_of(x, id);
	c->speed = num(d, id, A_SPEED, 0);
	c->reach = num(d, id, A_REACH, -1);
	c->price = num(d, id, A_PRICE, -1);
	c->split = num(d, id, A_SPLIT, 1);
	c->lengths = l && l->type == VT_LIST && l->n ? l : NULL;
	c->optical = c->media && (c->media == x->w_mmf || c->media == x->w_smf);
}

/* Parse "base[k]": the base length and k; false for other names. */
static bool index_of(const char *s, size_t *blen, long long *k)
{
	const char *lb = strrchr(s, '[');
	char *end;

	if (!lb || lb[1] < '0' || lb[1] > '9')
		return false;
	*k = strtoll(lb + 1, &end, 10);
	if (*end != ']' || end[1])
		return false;
	*blen = (size_t)(lb - s);
	return true;
}

struct sib {
	long long k;
	uint32_t obj;
};

static int sib_cmp(const void *a, const void *b)
{
	const struct sib *x = a, *y = b;

	return x->k < y->k ? -1 : x->k > y->k;
}

/* A new entry for a port's own facts (cages not yet paired). */
static uint32_t pinfo_new(struct planner *x, uint32_t port)
{
	const struct rk_design *d = x->d;
	struct pinfo *pi = VEC_PUSH(x->pi, x->npi, x->pi_cap);

	memset(pi, 0, sizeof(*pi));
	pi->form = word(d, port, A_FORM);
	pi->top = word(d, port, A_TOP);
	pi->cage = cage_of(x, port);
	pi->speed = num(d, port, A_SPEED, 0);
	pi->rep = port;
	pi->mate = RK_NONE;
	x->pidx[port] = x->npi - 1;
	return x->npi - 1;
}

/*
 * Cages of a twin port range: the ports base[lo], base[lo+1], ... of one
 * part pair up from the lowest index lo.  Sets rep/mate of every port of
 * the range at once.
 */
static void twin_cages(struct planner *x, uint32_t port)
{
	const struct rk_design *d = x->d;
	const char *nm = str_of(d->arena, d->objs[port].local), *cn;
	uint32_t parent = d->objs[port].parent, n = 0, cap = 0;
	struct sib *s = NULL;
	size_t blen, cl;
	long long k, ck;

	if (!index_of(nm, &blen, &k) || parent == RK_NONE)
		return;
	for_each_child(d, parent, c) {
		if (d->objs[c].kind != K_PORT || cage_of(x, c) != CAGE_TWIN)
			continue;
		cn = str_of(d->arena, d->objs[c].local);
		if (!index_of(cn, &cl, &ck) || cl != blen ||
		    memcmp(cn, nm, blen) != 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			s = xrealloc(s, cap * sizeof(*s));
		}
		s[n].k = ck;
		s[n].obj = c;
		n++;
	}
	qsort(s, n, sizeof(*s), sib_cmp);
	for (uint32_t i = 0; i < n; i++) {
		/* slot j holds indices lo+2j and lo+2j+1 (gaps allowed) */
		long long slot = (s[i].k - s[0].k) / 2;
		uint32_t first = i, other = RK_NONE, pi;

		if (i > 0 && (s[i - 1].k - s[0].k) / 2 == slot)
			first = i - 1;
		if (first == i && i + 1 < n &&
		    (s[i + 1].k - s[0].k) / 2 == slot)
			other = s[i + 1].obj;
		else if (first != i)
			other = s[first].obj;
		pi = x->pidx[s[i].obj];
		if (pi == RK_NONE)
			pi = pinfo_new(x, s[i].obj);
		x->pi[pi].rep = s[first].obj;
		x->pi[pi].mate = other;
	}
	free(s);
}

/*
 * Facts of a catalog port.  The pointer is valid until the next call that
 * meets a new port (the table grows).
 */
static struct pinfo *port_info(struct planner *x, uint32_t port)
{
	uint32_t i = x->pidx[port];

	if (i == RK_NONE) {
		i = pinfo_new(x, port);
		if (x->pi[i].cage == CAGE_TWIN)
			twin_cages(x, port);
	}
	return &x->pi[i];
}

static bool priced_less(int64_t pa, int64_t pb)
{
	if ((pa >= 0) != (pb >= 0))
		return pa >= 0;
	return pa >= 0 && pa < pb;
}

struct mod_sort {
	const struct cpart *m;
	uint32_t idx;
};

/* Order of transceivers for one port: price, reach, name. */
static int mod_cmp(const void *a, const void *b)
{
	const struct cpart *x = ((const struct mod_sort *)a)->m;
	const struct cpart *y = ((const struct mod_sort *)b)->m;
	int64_t rx = x->reach < 0 ? NO_REACH : x->reach;
	int64_t ry = y->reach < 0 ? NO_REACH : y->reach;

	if (priced_less(x->price, y->price))
		return -1;
	if (priced_less(y->price, x->price))
		return 1;
	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Transceivers that fit a port for an optical media, best first. */
static void port_mods(struct planner *x, struct pinfo *pi, int mi)
{
	uint32_t media = mi ? x->w_smf : x->w_mmf, n = 0;
	struct mod_sort *s = xmalloc((x->nmods + 1) * sizeof(*s));
	uint32_t *list;

	for (uint32_t i = 0; i < x->nmods; i++) {
		const struct cpart *m = &x->mods[i];

		if (m->form && m->form != pi->form)
			continue;
		if ((pi->cage == CAGE_TWIN) != (m->cage == CAGE_TWIN))
			continue;
		if (m->top && pi->top && m->top != pi->top)
			continue;
		if (m->media && m->media != media)
			continue;
		if (m->speed && pi->speed && m->speed > pi->speed)
			continue;
		s[n].m = m;
		s[n++].idx = i;
	}
	qsort(s, n, sizeof(*s), mod_cmp);
	list = xmalloc((n + 1) * sizeof(*list));
	for (uint32_t i = 0; i < n; i++)
		list[i] = s[i].idx;
	free(s);
	pi->mods[mi] = list;
	pi->nmods[mi] = n;
	pi->mods_done[mi] = true;
}

/*
 * The transceiver for an end: RK_NONE if none fits.  *length_only is set
 * when some would fit but for the length.
 */
static uint32_t pick_mod(struct planner *x, struct pinfo *pi, uint32_t media,
			 int64_t speed, int64_t len, bool *length_only)
{
	int mi = media == x->w_smf;

	if (!pi->mods_done[mi])
		port_mods(x, pi, mi);
	*length_only = false;
	for (uint32_t i = 0; i < pi->nmods[mi]; i++) {
		const struct cpart *m = &x->mods[pi->mods[mi][i]];

		if (speed && m->speed && m->speed < speed)
			continue;
		if (len >= 0 && m->reach >= 0 && m->reach < len) {
			*length_only = true;
			continue;
		}
		return pi->mods[mi][i];
	}
	return RK_NONE;
}

static int64_t stock_for(const struct rk_design *d, const struct cpart *c,
			 int64_t len)
{
	int64_t best = -1;

	if (!c->lengths)
		return len;
	for (uint32_t i = 0; i < (uint32_t)c->lengths->n; i++) {
		int64_t v = ir_list_at(d, c->lengths, i)->n;

		if (v >= len && (best < 0 || v < best))
			best = v;
	}
	return best;
}

const struct rk_value *cableplan_link_attr(const struct rk_design *d,
					   const struct rk_link *l,
					   uint32_t key)
{
	for (uint32_t i = 0; i < l->attr_count; i++)
		if (d->attrs[l->attr_first + i].key == key)
			return &d->attrs[l->attr_first + i].val;
	return NULL;
}

static uint64_t dev_port(uint32_t dev, uint32_t port)
{
	return (uint64_t)dev << 32 | port;
}

/* The first link on a device's port, or RK_NONE. */
static uint32_t link_on(const struct planner *x, uint32_t dev, uint32_t port)
{
	uint32_t k = port_index_find(x->ports, dev, port, NULL);

	return k == RK_NONE ? RK_NONE : x->ports->e[k].link;
}

/* Does link @li join (a, pa) to (b, pb), either way round? */
static bool joins(const struct rk_design *d, uint32_t li, uint32_t a,
		  uint32_t pa, uint32_t b, uint32_t pb)
{
	const struct rk_link *l = &d->links[li];

	return (l->a_dev == a && l->a_port == pa && l->b_dev == b &&
		l->b_port == pb) ||
	       (l->a_dev == b && l->a_port == pb && l->b_dev == a &&
		l->b_port == pa);
}

/*
 * A twin straight cable serves both ports of the near cage and both of the
 * far one: each cage's other port must be free or go to the other's.
 */
static bool twin_partners_ok(const struct planner *x, const struct end *e)
{
	uint32_t ma = e[0].pi->mate, mb = e[1].pi->mate, li;

	if (ma != RK_NONE && (li = link_on(x, e[0].dev, ma)) != RK_NONE &&
	    (mb == RK_NONE || !joins(x->d, li, e[0].dev, ma, e[1].dev, mb)))
		return false;
	if (mb != RK_NONE && (li = link_on(x, e[1].dev, mb)) != RK_NONE &&
	    (ma == RK_NONE || !joins(x->d, li, e[0].dev, ma, e[1].dev, mb)))
		return false;
	return true;
}

enum { END_NO, END_DIRECT, END_XCVR };

/* How cable @c meets a port: directly, through a transceiver, or not. */
static int end_fit(const struct cpart *c, const struct pinfo *pi)
{
	if (c->optical && c->form && pi->form && c->form != pi->form)
		return END_XCVR;
	if (c->form && pi->form && c->form != pi->form)
		return END_NO;
	if (c->top && pi->top && c->top != pi->top)
		return END_NO;
	if (c->cage == CAGE_TWIN && pi->cage != CAGE_TWIN)
		return END_NO;
	if (c->cage == CAGE_SINGLE && pi->cage == CAGE_TWIN)
		return END_NO;
	return END_DIRECT;
}

static void add_price(struct cost *k, int64_t price, bool shared)
{
	int64_t v;

	if (price < 0 || !q_mul(price, shared ? 1 : 2, &v) ||
	    !q_add(k->half, v, &k->half))
		k->priced = false;
}

static int cost_cmp(const struct cost *a, const struct cost *b)
{
	if (a->priced != b->priced)
		return a->priced ? -1 : 1;
	if (a->priced && a->half != b->half)
		return a->half < b->half ? -1 : 1;
	if (a->reach != b->reach)
		return a->reach < b->reach ? -1 : 1;
	return strcmp(a->name, b->name);
}

enum { FIT_NO, FIT_LENGTH, FIT_YES };

/* Could cable @c serve the link?  Fills the transceivers and the cost. */
static int try_cable(struct planner *x, const struct cpart *c,
		     const struct end *e, int64_t speed, int64_t len,
		     uint32_t forced_media, uint32_t *mods, struct cost *k)
{
	int64_t top_speed =
	    e[0].pi->speed > e[1].pi->speed ? e[0].pi->speed : e[1].pi->speed;
	bool length_only = false;

	if (forced_media && c->media != forced_media)
		return FIT_NO;
	if (c->split > 1)
		return FIT_NO;
	if (c->speed && speed && c->speed < speed)
		return FIT_NO;
	if (c->speed && top_speed && c->speed > top_speed)
		return FIT_NO;
	k->priced = true;
	k->half = 0;
	k->reach = c->reach < 0 ? NO_REACH : c->reach;
	k->name = c->name;
	add_price(k, c->price, c->cage == CAGE_TWIN && !c->optical);
	for (int i = 0; i < 2; i++) {
		bool lo;

		mods[i] = RK_NONE;
		switch (end_fit(c, e[i].pi)) {
		case END_NO:
			return FIT_NO;
		case END_XCVR:
			mods[i] =
			    pick_mod(x, e[i].pi, c->media, speed, len, &lo);
			if (mods[i] == RK_NONE) {
				if (!lo)
					return FIT_NO;
				length_only = true;
				break;
			}
			add_price(k, x->mods[mods[i]].price,
				  e[i].pi->cage == CAGE_TWIN);
			break;
		default:
			break;
		}
	}
	if (c->cage == CAGE_TWIN && !c->optical && !twin_partners_ok(x, e))
		return FIT_NO;
	if (len >= 0 &&
	    ((c->reach >= 0 && c->reach < len) || stock_for(x->d, c, len) < 0))
		length_only = true;
	return length_only ? FIT_LENGTH : FIT_YES;
}

/*
 * Key of the cage a port sits in on a device.  A port that carries several
 * links (the fan-out end of splitters, as port-reuse allows) is a whole
 * cage by itself.
 */
static uint64_t cage_key(const struct planner *x, const struct end *e)
{
	uint32_t n;

	if (port_index_find(x->ports, e->dev, e->port, &n) != RK_NONE && n > 1)
		return dev_port(e->dev, e->port);
	return dev_port(e->dev, e->pi->rep);
}

static uint32_t cable_index(const struct planner *x, uint32_t part)
{
	for (uint32_t i = 0; i < x->ncables; i++)
		if (x->cables[i].id == part)
			return i;
	return RK_NONE;
}

/* The link's two ends, with their ports' facts. */
static void link_ends(struct planner *x, const struct rk_link *l,
		      struct end e[2])
{
	e[0].dev = l->a_dev;
	e[0].port = l->a_port;
	e[1].dev = l->b_dev;
	e[1].port = l->b_port;
	/* the second lookup may grow the table: look the first up again */
	port_info(x, l->a_port);
	e[1].pi = port_info(x, l->b_port);
	e[0].pi = port_info(x, l->a_port);
}

/* The media the link asks for (0: none), and the cable it or its fabric
 * names (RK_NONE: none). */
static void link_forced(const struct rk_design *d, const struct rk_link *l,
			uint32_t *media, uint32_t *cable)
{
	const struct rk_value *v;

	*media = 0;
	*cable = RK_NONE;
	if ((v = cableplan_link_attr(d, l, A_MEDIA)) && v->type == VT_WORD)
		*media = v->a;
	if ((v = cableplan_link_attr(d, l, A_CABLE)) && v->type == VT_OBJ)
		*cable = v->a;
	else if (l->fabric != RK_NONE && (v = ir_attr(d, l->fabric, A_CABLE)) &&
		 v->type == VT_OBJ)
		*cable = v->a;
}

/* The link's length: as it says, else its route when the layout knows
 * both ends (else -1, as @r has it). */
static void link_length(struct planner *x, const struct rk_link *l,
			struct cp_link *r)
{
	const struct rk_value *v = cableplan_link_attr(x->d, l, A_LENGTH);

	if (v && v->type == VT_NUM) {
		r->length = v->n;
		r->forced_length = 1;
	}
	if (!r->forced_length) {
		struct cable_run run;

		layout_memo_run(&x->layout, l->a_dev, l->b_dev, &run);
		if (run.known)
			r->length = run.total;
	}
}

/*
 * The cable the link or its fabric names (@fc: room for its facts when the
 * catalog has no entry of it): a module for each end that needs one, and
 * whether it reaches and is stocked at the length.
 */
static const struct cpart *plan_forced(struct planner *x, struct cp_link *r,
				       const struct end e[2], uint32_t forced,
				       int64_t speed, struct cpart *fc)
{
	const struct cpart *c;
	uint32_t ci = cable_index(x, forced);

	if (ci != RK_NONE)
		c = &x->cables[ci];
	else {
		part_facts(x, forced, fc);
		c = fc;
	}
	r->how = CP_HOW_FORCED;
	for (int i = 0; i < 2; i++) {
		bool lo;

		if (end_fit(c, e[i].pi) != END_XCVR)
			continue;
		r->xcvr[i] =
		    pick_mod(x, e[i].pi, c->media, speed, r->length, &lo);
		if (r->xcvr[i] == RK_NONE)
			r->xcvr_missing |= (uint8_t)(1u << i);
	}
	if (r->length >= 0 && c->reach >= 0 && c->reach < r->length)
		r->status = CP_TOO_SHORT;
	else if (r->length >= 0 && stock_for(x->d, c, r->length) < 0)
		r->status = CP_NO_STOCK;
	for (int i = 0; i < 2; i++)
		if (r->xcvr[i] != RK_NONE)
			r->xcvr[i] = x->mods[r->xcvr[i]].id;
	return c;
}

/*
 * The cheapest catalog cable that fits (of @media when not 0), with its
 * modules; the one that would reach farthest of those only too short in
 * r->near.  NULL, with r->status CP_NO_FIT, when none fits.
 */
static const struct cpart *plan_cheapest(struct planner *x, struct cp_link *r,
					 const struct end e[2], uint32_t media,
					 int64_t speed)
{
	struct cost best, k;
	uint32_t mods[2], bi = RK_NONE;
	int64_t near_reach = -1;

	memset(&best, 0, sizeof(best));
	r->how = media ? CP_HOW_MEDIA : CP_HOW_CHEAPEST;
	for (uint32_t i = 0; i < x->ncables; i++) {
		const struct cpart *cc = &x->cables[i];
		int fit =
		    try_cable(x, cc, e, speed, r->length, media, mods, &k);

		if (fit == FIT_LENGTH) {
			int64_t rr = cc->reach < 0 ? NO_REACH : cc->reach;

			if (rr > near_reach) {
				near_reach = rr;
				r->near = cc->id;
			}
		}
		if (fit != FIT_YES)
			continue;
		if (bi == RK_NONE || cost_cmp(&k, &best) < 0) {
			best = k;
			bi = i;
			r->xcvr[0] = mods[0];
			r->xcvr[1] = mods[1];
		}
	}
	if (bi == RK_NONE) {
		r->status = CP_NO_FIT;
		r->xcvr[0] = r->xcvr[1] = RK_NONE;
		return NULL;
	}
	for (int i = 0; i < 2; i++)
		if (r->xcvr[i] != RK_NONE)
			r->xcvr[i] = x->mods[r->xcvr[i]].id;
	return &x->cables[bi];
}

/*
 * The link's physical cable: twin-port cables and splitters are shared
 * (one per pair of cages, or per head cage), the rest one each.
 */
static void number_cable(struct planner *x, struct cp_link *r,
			 const struct end e[2], const struct cpart *c,
			 uint32_t *next_cable)
{
	if ((c->cage == CAGE_TWIN && !c->optical) || c->split > 1) {
		uint64_t ka = cage_key(x, &e[0]), kb = cage_key(x, &e[1]);
		struct hent *h;

		if (c->split > 1) {
			/* one per head cage (the twin end, a if both) */
			if (e[0].pi->cage != CAGE_TWIN &&
			    e[1].pi->cage == CAGE_TWIN)
				ka = kb;
			kb = 0;
		} else if (kb < ka) {
			uint64_t t = ka;

			ka = kb;
			kb = t;
		}
		h = htab_get(&x->cable_key, ka, kb, c->id);
		if (h->val == RK_NONE) {
			htab_set(&x->cable_key, h, (*next_cable)++);
			r->first_leg = 1;
		}
		r->cable_no = h->val;
	} else {
		r->cable_no = (*next_cable)++;
		r->first_leg = 1;
	}
}

static void plan_link(struct planner *x, uint32_t li, uint32_t *next_cable)
{
	const struct rk_design *d = x->d;
	const struct rk_link *l = &d->links[li];
	struct cp_link *r = &x->p->links[li];
	struct end e[2];
	uint32_t forced_media, forced;
	struct cpart fc;
	const struct cpart *c;
	int64_t speed; /* the slower end's, 0 when neither says */

	memset(r, 0, sizeof(*r));
	r->cable = r->near = r->cable_no = RK_NONE;
	r->xcvr[0] = r->xcvr[1] = RK_NONE;
	r->length = r->stock = -1;
	if (l->a_dev == RK_NONE || l->b_dev == RK_NONE ||
	    l->a_port == RK_NONE || l->b_port == RK_NONE) {
		r->status = CP_NOT_CABLED;
		return;
	}
	link_ends(x, l, e);
	link_forced(d, l, &forced_media, &forced);
	r->media = forced_media;
	if ((forced_media &&
	     (forced_media == x->w_backplane || forced_media == x->w_pcb)) ||
	    (x->w_backplane && (e[0].pi->form == x->w_backplane ||
				e[1].pi->form == x->w_backplane))) {
		r->status = CP_NOT_CABLED;
		return;
	}
	speed = e[0].pi->speed;
	if (e[1].pi->speed && (!speed || e[1].pi->speed < speed))
		speed = e[1].pi->speed;
	link_length(x, l, r);
	if (forced != RK_NONE)
		c = plan_forced(x, r, e, forced, speed, &fc);
	else if (!x->ncables) {
		r->status = CP_NO_CATALOG;
		return;
	} else if (!(c = plan_cheapest(x, r, e, forced_media, speed)))
		return;
	r->cable = c->id;
	if (c->media)
		r->media = c->media;
	if (r->length >= 0)
		r->stock = stock_for(d, c, r->length);
	number_cable(x, r, e, c, next_cable);
	/* modules: one per cage and part */
	for (int i = 0; i < 2; i++) {
		struct hent *h;

		if (r->xcvr[i] == RK_NONE)
			continue;
		h = htab_get(&x->mod_key, cage_key(x, &e[i]), 0, r->xcvr[i]);
		if (h->val == RK_NONE) {
			htab_set(&x->mod_key, h, li);
			r->xcvr_first[i] = 1;
		}
	}
}

const char *cableplan_reason(const struct cp_link *l)
{
	switch (l->status) {
	case CP_NOT_CABLED:
		return "not cabled (backplane)";
	case CP_NO_CATALOG:
		return "no cable parts in the catalog";
	case CP_NO_FIT:
		return "no catalog cable fits";
	case CP_TOO_SHORT:
		return "forced cable: reach shorter than the length";
	case CP_NO_STOCK:
		return "forced cable: no stock length long enough";
	default:
		break;
	}
	if (l->xcvr_missing)
		return "forced cable: no transceiver fits an end";
	switch (l->how) {
	case CP_HOW_FORCED:
		return l->length < 0 ? "forced cable; length unknown"
				     : "forced cable";
	case CP_HOW_MEDIA:
		return l->length < 0 ? "cheapest of the forced media; length "
				       "unknown"
				     : "cheapest of the forced media";
	default:
		return l->length < 0 ? "cheapest fit; length unknown"
				     : "cheapest fit";
	}
}

struct count_sort {
	const char *name;
	struct cp_count c;
};

static int count_cmp(const void *a, const void *b)
{
	const struct count_sort *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	if (r)
		return r;
	return x->c.length < y->c.length ? -1 : x->c.length > y->c.length;
}

/* Sort the counts and merge equal (part, length) lines. */
static uint32_t finish_counts(const struct rk_design *d, struct cp_count *c,
			      uint32_t n)
{
	struct count_sort *s = xmalloc((n + 1) * sizeof(*s));
	uint32_t m = 0;

	for (uint32_t i = 0; i < n; i++) {
		s[i].name = ir_name(d, c[i].part);
		s[i].c = c[i];
	}
	qsort(s, n, sizeof(*s), count_cmp);
	for (uint32_t i = 0; i < n; i++) {
		if (m && c[m - 1].part == s[i].c.part &&
		    c[m - 1].length == s[i].c.length)
			c[m - 1].qty += s[i].c.qty;
		else
			c[m++] = s[i].c;
	}
	free(s);
	return m;
}

/* --- cable identities (cableplan.h) --- */

#define FNV_BASIS 14695981039346656037ull
#define FNV_PRIME 1099511628211ull

/* FNV-1a state @h carried over @n bytes at @p, and a NUL byte after them
 * when @nul. */
static inline uint64_t fnv_bytes(uint64_t h, const char *p, size_t n, bool nul)
{
	const unsigned char *u = (const unsigned char *)p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ u[i]) * FNV_PRIME;
	return nul ? h * FNV_PRIME : h;
}

/* The ID hash from the FNV-1a state of its key's bytes. */
static uint64_t id_finish(uint64_t h, uint32_t salt, unsigned bits)
{
	for (int i = 0; salt && i < 4; i++)
		h = (h ^ ((salt >> (8 * i)) & 0xff)) * FNV_PRIME;
	/* a finaliser, so that every bit depends on every byte */
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return bits >= 64 ? h : h >> (64 - bits);
}

uint64_t cableplan_id_hash(const char *const *part, const size_t *len,
			   uint32_t n, uint32_t salt, unsigned bits)
{
	uint64_t h = FNV_BASIS;

	for (uint32_t k = 0; k < n; k++)
		h = fnv_bytes(h, part[k], len[k], k + 1 < n);
	return id_finish(h, salt, bits);
}

size_t cableplan_id_str(uint64_t id, char *buf)
{
	static const char digit[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

	buf[0] = 'C';
	for (int i = 8; i >= 1; i--) {
		buf[i] = digit[id & 31];
		id >>= 5;
	}
	buf[CP_ID_CHARS] = '\0';
	return CP_ID_CHARS;
}

struct id_sort {
	uint64_t h;
	uint32_t i;
};

static int id_cmp(const void *a, const void *b)
{
	const struct id_sort *x = a, *y = b;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

struct id_run {
	uint32_t i;
	char *key; /* malloc'ed */
	size_t len;
};

static int run_cmp(const void *a, const void *b)
{
	const struct id_run *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int r = memcmp(x->key, y->key, n);

	if (r)
		return r;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i; /* the same key twice */
}

/*
 * The entries whose hash another entry shares, as (hash, index) in order,
 * into @s (room for all @n); their count.  The entries are first put in
 * @s by the top bits of their hash (a counting sort into buckets of a few
 * thousand, @bits wide hashes), then a small hash set per bucket finds
 * the shared ones (@dup: n flags, all clear, left clear), so that only
 * they, a handful, are sorted: sorting all n was the cable plan's largest
 * cost at a few million cables, and one hash set over all n missed the
 * cache on every entry.
 */
static uint32_t shared_hashes(const uint64_t *h, uint32_t n, unsigned bits,
			      uint8_t *dup, struct id_sort *s)
{
	unsigned nbits = 0;
	uint32_t nb, *start, *fill, *slot, most = 0, cap = 16, m = 0;

	/* buckets of up to 2,048, but no more than 256 buckets until they
	 * hold 32,768 each: the pass that deals the entries to buckets
	 * writes to one place per bucket, and 2,048 places (a million GPUs)
	 * missed the cache and the TLB on most writes */
	while (nbits < bits && nbits < 16 &&
	       ((uint64_t)n >> nbits) > (nbits < 8 ? 2048u : 32768u))
		nbits++;
	nb = (uint32_t)1 << nbits;
	start = xcalloc((size_t)nb + 1, sizeof(*start));
	fill = xmalloc((size_t)nb * sizeof(*fill));
	for (uint32_t i = 0; i < n; i++)
		start[(nbits ? h[i] >> (bits - nbits) : 0) + 1]++;
	for (uint32_t b = 0; b < nb; b++) {
		if (start[b + 1] > most)
			most = start[b + 1];
		start[b + 1] += start[b];
		fill[b] = start[b];
	}
	for (uint32_t i = 0; i < n; i++) {
		struct id_sort *e =
		    &s[fill[nbits ? h[i] >> (bits - nbits) : 0]++];

		e->h = h[i];
		e->i = i;
	}
	free(fill);
	while (cap < 2 * (uint64_t)most)
		cap *= 2;
	slot = xmalloc((size_t)cap * sizeof(*slot));
	for (uint32_t b = 0; b < nb; b++) {
		uint32_t c = 16;

		while (c < 2 * (uint64_t)(start[b + 1] - start[b]))
			c *= 2;
		memset(slot, 0xff, (size_t)c * sizeof(*slot));
		for (uint32_t k = start[b]; k < start[b + 1]; k++) {
			uint32_t p = (uint32_t)hash_mix64(s[k].h) & (c - 1);

			while (slot[p] != RK_NONE && s[slot[p]].h != s[k].h)
				p = (p + 1) & (c - 1);
			if (slot[p] == RK_NONE)
				slot[p] = k;
			else
				dup[slot[p]] = dup[k] = 1;
		}
	}
	free(slot);
	free(start);
	for (uint32_t k = 0; k < n; k++)
		if (dup[k]) {
			dup[k] = 0;
			s[m++] = s[k];
		}
	qsort(s, m, sizeof(*s), id_cmp);
	return m;
}

struct id_state {
	uint64_t *h;
	uint32_t n;
	unsigned bits;
	cp_key_fn key;
	void *ctx;
	uint32_t *salt;
	struct id_run *run;
	/* per entry, the copies of its key (0 or 1: none but itself) */
	uint32_t *copies;
	bool later; /* a round after the first */
};

/*
 * One group of entries sharing a hash, their indices in @ent (@k of
 * them): sorted by key (then index), the first keeps its hash and the
 * others are salted, the r-th copy of one key by r more, so that n
 * copies of a key part in one round, not n.  In a later round an entry
 * whose key has n copies is salted by n times as much: past the salts of
 * its copies, which would otherwise take it one copy further each round
 * (a collision among 600,000 copies moved one copy onto the next one's
 * salt, round after round, to the last).  A design without copies of a
 * key (every valid one) is numbered as before.  @g: the group's entries.
 */
static void resolve_group(struct id_state *st, const struct id_sort *g,
			  uint32_t k)
{
	struct id_run *run = st->run;

	if (!st->salt) {
		st->salt = xcalloc((size_t)st->n + 1, sizeof(*st->salt));
		st->run = run = xmalloc(((size_t)st->n + 1) * sizeof(*run));
	}
	/* the keys of the group only, released after it: copies of one
	 * key are all in one group of the first round, and would
	 * otherwise be held all at once */
	for (uint32_t j = 0; j < k; j++) {
		run[j].i = g[j].i;
		run[j].key = st->key(st->ctx, g[j].i, &run[j].len);
	}
	qsort(run, k, sizeof(*run), run_cmp);
	for (uint32_t j = 1, r = 0; j < k; j++) {
		uint32_t i = run[j].i;
		const char *kp = run[j].key;

		r = run[j].len == run[j - 1].len &&
			    !memcmp(run[j].key, run[j - 1].key, run[j].len)
			? r + 1
			: 1;
		if (st->later && st->copies && st->copies[i] > 1)
			st->salt[i] += r * st->copies[i];
		else
			st->salt[i] += r;
		st->h[i] = cableplan_id_hash(&kp, &run[j].len, 1, st->salt[i],
					     st->bits);
	}
	/* the copies of each key, from the first round's runs */
	for (uint32_t a = 0, b; !st->later && a < k; a = b) {
		for (b = a + 1; b < k && run[b].len == run[a].len &&
				!memcmp(run[b].key, run[a].key, run[a].len);
		     b++)
			;
		if (b - a < 2)
			continue;
		if (!st->copies)
			st->copies =
			    xcalloc((size_t)st->n + 1, sizeof(*st->copies));
		for (uint32_t j = a; j < b; j++)
			st->copies[run[j].i] = b - a;
	}
	for (uint32_t j = 0; j < k; j++)
		free(run[j].key);
}

void cableplan_resolve_ids(uint64_t *h, uint32_t n, unsigned bits,
			   cp_key_fn key, void *ctx)
{
	struct id_sort *s = xmalloc(((size_t)n + 1) * sizeof(*s));
	uint8_t *dup = xcalloc((size_t)n + 1, 1);
	struct id_state st = { h, n, bits, key, ctx, NULL, NULL, NULL, false };

	/* each round from the hashes at its start; after the first, only
	 * the few that collide again (two or three rounds in all) */
	for (unsigned round = 0;; round++) {
		uint32_t m = shared_hashes(h, n, bits, dup, s);

		if (!m)
			break;
		st.later = round > 0;
		for (uint32_t a = 0, b; a < m; a = b) {
			for (b = a + 1; b < m && s[b].h == s[a].h; b++)
				;
			resolve_group(&st, s + a, b - a);
		}
	}
	free(st.salt);
	free(st.run);
	free(st.copies);
	free(s);
	free(dup);
}

/* The parts of a link's key: fabric, then the ends in byte order; the
 * device of the first end in *@first. */
static void link_key_parts(const struct rk_design *d, uint32_t li,
			   const char *part[5], size_t len[5], uint32_t *first)
{
	const struct rk_link *l = &d->links[li];
	const struct arena *a = d->arena;
	uint32_t an = d->objs[l->a_dev].name, ap = d->objs[l->a_port].local;
	uint32_t bn = d->objs[l->b_dev].name, bp = d->objs[l->b_port].local;
	int c = strcmp(str_of(a, an), str_of(a, bn));
	bool swap =
	    c > 0 || (c == 0 && strcmp(str_of(a, ap), str_of(a, bp)) > 0);
	uint32_t id[5];

	id[1] = swap ? bn : an;
	id[2] = swap ? bp : ap;
	id[3] = swap ? an : bn;
	id[4] = swap ? ap : bp;
	part[0] = "";
	len[0] = 0;
	if (l->fabric != RK_NONE) {
		part[0] = str_of(a, d->objs[l->fabric].name);
		len[0] = strlen_of(a, d->objs[l->fabric].name);
	}
	for (int k = 1; k < 5; k++) {
		part[k] = str_of(a, id[k]);
		len[k] = strlen_of(a, id[k]);
	}
	*first = swap ? l->b_dev : l->a_dev;
}

struct id_ctx {
	const struct rk_design *d;
	const uint32_t *link; /* entry -> its (first) link */
};

static char *link_key(void *ctx, uint32_t i, size_t *len)
{
	const struct id_ctx *c = ctx;
	const char *part[5];
	size_t n[5], t = 0;
	char *k, *o;

	uint32_t first;

	link_key_parts(c->d, c->link[i], part, n, &first);
	for (int j = 0; j < 5; j++)
		t += n[j] + 1;
	o = k = xmalloc(t);
	for (int j = 0; j < 5; j++) {
		if (j)
			*o++ = '\0';
		memcpy(o, part[j], n[j]);
		o += n[j];
	}
	*len = (size_t)(o - k);
	return k;
}

/* The ID of every cabled link (legs share their first leg's). */
static void assign_ids(struct planner *x)
{
	const struct rk_design *d = x->d;
	struct cable_plan *p = x->p;
	uint32_t *first = xmalloc(((size_t)p->ncables + 1) * sizeof(*first));
	uint32_t *link = xmalloc(((size_t)d->nlinks + 1) * sizeof(*link));
	uint32_t *entry = xmalloc(((size_t)d->nlinks + 1) * sizeof(*entry));
	uint64_t *h, pre = 0;
	uint32_t n = 0, pre_dev = RK_NONE, pre_fab = RK_NONE;
	struct id_ctx c = { d, link };

	memset(first, 0xff, ((size_t)p->ncables + 1) * sizeof(*first));
	for (uint32_t i = 0; i < d->nlinks; i++) {
		const struct cp_link *r = &p->links[i];

		entry[i] = RK_NONE;
		if (r->status == CP_NOT_CABLED)
			continue;
		if (r->cable_no != RK_NONE) {
			if (first[r->cable_no] == RK_NONE) {
				first[r->cable_no] = n;
				link[n++] = i;
			}
			entry[i] = first[r->cable_no];
		} else {
			entry[i] = n;
			link[n++] = i;
		}
	}
	h = xmalloc(((size_t)n + 1) * sizeof(*h));
	for (uint32_t k = 0; k < n; k++) {
		const char *part[5];
		size_t len[5];
		uint32_t dev1;
		uint64_t st;

		link_key_parts(d, link[k], part, len, &dev1);
		/* the state after the fabric and the first device is kept:
		 * consecutive links mostly share them (a leaf's downlinks) */
		if (dev1 != pre_dev || d->links[link[k]].fabric != pre_fab) {
			pre_dev = dev1;
			pre_fab = d->links[link[k]].fabric;
			pre = fnv_bytes(FNV_BASIS, part[0], len[0], true);
			pre = fnv_bytes(pre, part[1], len[1], true);
		}
		st = fnv_bytes(pre, part[2], len[2], true);
		st = fnv_bytes(st, part[3], len[3], true);
		st = fnv_bytes(st, part[4], len[4], false);
		h[k] = id_finish(st, 0, CP_ID_BITS);
	}
	cableplan_resolve_ids(h, n, CP_ID_BITS, link_key, &c);
	for (uint32_t i = 0; i < d->nlinks; i++)
		p->links[i].id = entry[i] == RK_NONE ? 0 : h[entry[i]] + 1;
	free(h);
	free(entry);
	free(link);
	free(first);
}

static void count_parts(struct planner *x)
{
	const struct rk_design *d = x->d;
	struct cable_plan *p = x->p;
	int64_t *stock = xmalloc(((size_t)p->ncables + 1) * sizeof(*stock));
	struct htab lines;
	uint32_t nc = 0, nx = 0, cc = 0, xc = 0;
	uint32_t *label = xcalloc((size_t)p->ncables + 1, sizeof(*label));
	uint32_t next = 1;

	for (uint32_t i = 0; i < p->ncables; i++)
		stock[i] = -1;
	/* the longest stock of each physical cable; the label numbers */
	for (uint32_t i = 0; i < d->nlinks; i++) {
		struct cp_link *r = &p->links[i];

		if (r->status == CP_NOT_CABLED)
			continue;
		if (r->cable_no == RK_NONE) {
			r->label_no = next++;
			continue;
		}
		if (r->stock > stock[r->cable_no])
			stock[r->cable_no] = r->stock;
		if (!label[r->cable_no]) /* its first leg */
			label[r->cable_no] = next++;
		r->label_no = label[r->cable_no];
	}
	free(label);
	htab_init(&lines, 64);
	for (uint32_t i = 0; i < d->nlinks; i++) {
		struct cp_link *r = &p->links[i];
		struct hent *h;

		if (r->cable_no == RK_NONE)
			continue;
		r->stock = stock[r->cable_no];
		if (r->first_leg) {
			/* cut-to-length parts make one line */
			int64_t len =
			    ir_attr_inh(d, r->cable, A_LENGTHS) ? r->stock : -1;

			h = htab_get(&lines, (uint64_t)len, 1, r->cable);
			if (h->val == RK_NONE) {
				struct cp_count *k =
				    VEC_PUSH(p->cables, nc, cc);

				htab_set(&lines, h, nc - 1);
				k->part = r->cable;
				k->length = len;
				k->qty = 0;
			}
			p->cables[h->val].qty++;
		}
		for (int e = 0; e < 2; e++) {
			if (r->xcvr[e] == RK_NONE || !r->xcvr_first[e])
				continue;
			h = htab_get(&lines, 0, 2, r->xcvr[e]);
			if (h->val == RK_NONE) {
				struct cp_count *k = VEC_PUSH(p->xcvrs, nx, xc);

				htab_set(&lines, h, nx - 1);
				k->part = r->xcvr[e];
				k->length = -1;
				k->qty = 0;
			}
			p->xcvrs[h->val].qty++;
			p->nxcvrs++;
		}
	}
	p->ncable_lines = finish_counts(d, p->cables, nc);
	p->nxcvr_lines = finish_counts(d, p->xcvrs, nx);
	free(lines.e);
	free(stock);
}

struct cable_plan *cableplan_build(const struct rk_design *d,
				   const struct port_index *ports)
{
	struct planner x;
	struct cable_plan *p = xcalloc(1, sizeof(*p));
	uint32_t ncap = 0, mcap = 0, next_cable = 0;

	memset(&x, 0, sizeof(x));
	x.d = d;
	x.p = p;
	x.w_twin = intern_find(d->arena, "twin", 4);
	x.w_single = intern_find(d->arena, "single", 6);
	x.w_mmf = intern_find(d->arena, "mmf", 3);
	x.w_smf = intern_find(d->arena, "smf", 3);
	x.w_power = intern_find(d->arena, "power", 5);
	x.w_backplane = intern_find(d->arena, "backplane", 9);
	x.w_pcb = intern_find(d->arena, "pcb", 3);

	/* the catalog, in declaration order */
	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];
		struct cpart c;

		if (o->kind != K_PART ||
		    (o->cls != C_CABLE && o->cls != C_TRANSCEIVER))
			continue;
		part_facts(&x, i, &c);
		if (o->cls == C_TRANSCEIVER) {
			*VEC_PUSH(x.mods, x.nmods, mcap) = c;
		} else if (!c.media || c.media != x.w_power) {
			*VEC_PUSH(x.cables, x.ncables, ncap) = c;
		}
	}
	p->ncatalog = x.ncables;
	x.pidx = xmalloc(((size_t)d->nobjs + 1) * sizeof(*x.pidx));
	memset(x.pidx, 0xff, ((size_t)d->nobjs + 1) * sizeof(*x.pidx));

	x.ports = ports;
	layout_memo_init(&x.layout, d);
	htab_init(&x.cable_key, 64);
	htab_init(&x.mod_key, 64);

	p->links = xmalloc(((size_t)d->nlinks + 1) * sizeof(*p->links));
	for (uint32_t i = 0; i < d->nlinks; i++)
		plan_link(&x, i, &next_cable);
	p->ncables = next_cable;
	count_parts(&x);
	assign_ids(&x);

	for (uint32_t i = 0; i < x.npi; i++) {
		free(x.pi[i].mods[0]);
		free(x.pi[i].mods[1]);
	}
	free(x.pi);
	free(x.pidx);
	layout_memo_free(&x.layout);
	free(x.cables);
	free(x.mods);
	free(x.cable_key.e);
	free(x.mod_key.e);
	return p;
}

void cableplan_free(struct cable_plan *p)
{
	if (!p)
		return;
	free(p->links);
	free(p->cables);
	free(p->xcvrs);
	free(p);
}
