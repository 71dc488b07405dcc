/* SPDX-License-Identifier: MIT */
/*
 * Fabric generators: expand each `fabric` into switches and explicit links
 * in the IR, once names are resolved and before any check runs.  Generated
 * switches are children of their fabric (named FABRIC.leaf[i], .spine[i],
 * .core[i], .sw[i]) and generated links carry the fabric's id, so checks
 * and back ends treat them exactly like hand-written ones.
 *
 * fat_tree: rail-optimised Clos (without a `switch` part the fabric is
 * hand-wired: nothing is generated and its metrics use the written links).  Endpoint ports are grouped by node (the
 * device) and rail (the port's name: ib[0] is rail 0 ...).  With a switch of
 * R fabric ports (those at the fabric's rate) and leaf oversubscription
 * d:u, a leaf has D = R*d/(d+u) ports down and U = R-D up.  Nodes form
 * scalable units of su_size (default D; at d:u other than 1:1 the largest
 * multiple of d, in lowest terms, up to D); every SU has one leaf per
 * rail, and node k of an SU uses down port k of its rail's leaf.  Two
 * tiers: a leaf of n endpoints cables ceil(n*u/d) uplinks (by bandwidth;
 * at most Uf = min(U, ceil(su_size*u/d)), all U with `uplinks all`), so
 * it is d:u wherever n*u/d is whole, S = ceil(L*Uf/R) spines raised to a
 * divisor of Uf (or as many as `final_sus` units need), leaf uplinks
 * dealt round-robin over the spines, growth-stable (fabric_deal_uplinks()
 * below).  Three and four tiers (src/fabric_tiers.c): complete trees with
 * leaves missing, pods of R/2 leaves in unit order with U spines each (Uf
 * at d:u other than 1:1), and cores (and top
 * switches) dealt growth-stably above them.  This reproduces the NVIDIA
 * DGX SuperPOD tables (8 leaves + 4 spines per SU; 128/128/64 at 16 SUs).
 *
 * nvlink: each endpoint port goes to the member switch (i mod M), on its
 * next free NVLink port.  star: endpoints fill the down ports of as many
 * switches as needed, in order (without a `switch` part, hand-wired).
 */
#include "rackc.h"
#include "arith.h"

#include <stdio.h>
#include <stdlib.h>

#include "elab.h"
#include "fabric.h"
#include "fabric_gen.h"
#include "layout.h"
#include "resolve.h"

static const char *S(struct elab *e, uint32_t id)
{
	return str_of(e->a, id);
}

/* Fabric-capable ports of a switch part (and its bases), in order. */
static void switch_ports(struct elab *e, uint32_t part, uint32_t proto,
			 struct swport_list *out)
{
	const struct rk_design *d = e->d;
	uint32_t chain[RK_MAX_PART_DEPTH + 1];
	uint32_t n = ir_part_chain(d, part, chain);

	out->ports = NULL;
	out->n = 0;
	/* base ports first, as a derived part extends its base */
	while (n--) {
		uint32_t cap = 0;

		for_each_child(d, chain[n], c) {
			const char *role, *pr;

			/* a derived part's redeclaration replaces the base's */
			if (d->objs[c].kind != K_PORT ||
			    !ir_member_effective(d, part, c))
				continue;
			role = ir_str(d, c, A_ROLE);
			pr = ir_str(d, c, A_PROTOCOL);
			/* the switch's own management and console ports */
			if (role &&
			    (streq(role, "mgmt") || streq(role, "console")))
				continue;
			/*
			 * With a fabric protocol, a port must speak it ("any"
			 * on either side matches); ports that name no
			 * protocol (management, console) are not fabric ports.
			 */
			if (proto && (!pr || (!streq(pr, S(e, proto)) &&
					      !streq(pr, "any") &&
					      !streq(S(e, proto), "any"))))
				continue;
			cap = out->n + 1;
			out->ports =
			    xrealloc(out->ports, cap * sizeof(*out->ports));
			out->ports[out->n++] = c;
		}
	}
}

/*
 * Whether a table of @n rows may take @more generated ones: what a
 * generator makes counts against the limits as written objects, links,
 * attributes and values do (an error at @loc, the fabric, at the limit;
 * the compilation stops, and the generators with it).
 */
static bool table_room(struct elab *e, uint32_t n, uint32_t more, uint32_t max,
		       const struct srcloc *loc, const char *what)
{
	if (e->stopped)
		return false;
	return elab_check_table_limit(e, n + more - 1, max, loc, what);
}

static void add_attr(struct elab *e, uint32_t obj, uint32_t key, uint8_t type,
		     uint8_t dim, uint32_t a, int64_t n,
		     const struct srcloc *loc)
{
	struct rk_design *d = e->d;
	struct rk_attr *at;

	if (!table_room(e, d->nattrs, 1, RK_MAX_ATTRS, loc, "attributes"))
		return;
	at = VEC_PUSH(d->attrs, d->nattrs, d->attrs_cap);
	memset(at, 0, sizeof(*at));
	at->key = key;
	at->val.type = type;
	at->val.dim = dim;
	at->val.a = a;
	at->val.n = n;
	at->val.loc = *loc;
	d->objs[obj].attr_count++;
}

/*
 * Indexes the generators keep up to date as they add devices and links,
 * so that each fabric costs its own size: the links on each device, and
 * the devices mounted in each rack (with a U position).  Objects and links
 * are only ever appended, so an update visits just the new ones.
 */
static void index_update(struct elab *e)
{
	const struct rk_design *d = e->d;

	if (d->nobjs > e->ix_cap) {
		uint32_t cap = e->ix_cap ? e->ix_cap : 1024;

		while (cap < d->nobjs)
			cap *= 2;
		e->ix_link_head =
		    xrealloc(e->ix_link_head, cap * sizeof(*e->ix_link_head));
		e->ix_dev_head =
		    xrealloc(e->ix_dev_head, cap * sizeof(*e->ix_dev_head));
		e->ix_dev_next =
		    xrealloc(e->ix_dev_next, cap * sizeof(*e->ix_dev_next));
		e->ix_cap = cap;
	}
	for (uint32_t o = e->ix_nobjs; o < d->nobjs; o++) {
		e->ix_link_head[o] = RK_NONE;
		e->ix_dev_head[o] = RK_NONE;
		e->ix_dev_next[o] = RK_NONE;
	}
	for (uint32_t dev = e->ix_nobjs; dev < d->nobjs; dev++) {
		uint32_t r;

		if (d->objs[dev].kind != K_DEVICE || layout_at(d, dev) < 1)
			continue;
		r = layout_rack_of(d, dev);
		if (r == RK_NONE)
			continue;
		e->ix_dev_next[dev] = e->ix_dev_head[r];
		e->ix_dev_head[r] = dev;
	}
	e->ix_nobjs = d->nobjs;
	if ((uint64_t)2 * d->nlinks > e->ix_link_cap) {
		uint64_t cap = e->ix_link_cap ? e->ix_link_cap : 1024;

		while (cap < (uint64_t)2 * d->nlinks)
			cap *= 2;
		e->ix_link_next =
		    xrealloc(e->ix_link_next, cap * sizeof(*e->ix_link_next));
		e->ix_link_cap = cap;
	}
	for (uint32_t l = e->ix_nlinks; l < d->nlinks; l++) {
		const struct rk_link *k = &d->links[l];

		if (k->a_port == RK_NONE)
			continue;
		e->ix_link_next[2 * l] = e->ix_link_head[k->a_dev];
		e->ix_link_head[k->a_dev] = 2 * l;
		e->ix_link_next[2 * l + 1] = e->ix_link_head[k->b_dev];
		e->ix_link_head[k->b_dev] = 2 * l + 1;
	}
	e->ix_nlinks = d->nlinks;
}

/* The links on device @dev: for_each_dev_link(e, dev, l) { ... }. */
#define for_each_dev_link(e, dev, l)                     \
	for (uint32_t l##_k = (e)->ix_link_head[dev], l; \
	     l##_k != RK_NONE && ((l = l##_k >> 1), 1);  \
	     l##_k = (e)->ix_link_next[l##_k])

/*
 * The places of @fab's own leaf_band in rack @r (@used, @units U), for
 * the fabric's other tiers: marked used, so that a spine or core never
 * takes a place the band holds for a leaf still to come (of a later
 * plane, or of a later unit as the design grows).
 */
static void band_hold(const struct rk_design *d, uint32_t fab, uint32_t r,
		      uint8_t *used, int64_t units)
{
	const struct rk_value *lv = ir_attr(d, fab, A_PLACE_LEAVES);
	const struct rk_value *sw = ir_attr(d, fab, A_SWITCH);
	int64_t n = ir_num(d, fab, A_LEAVES_PER_RACK, 0);
	int64_t band = n > 0 ? ir_num(d, fab, A_LEAF_BAND, 0) : 0, h, lo;
	bool listed = false;

	if (!band || !lv || lv->type != VT_LIST || d->objs[fab].cls == FAB_STAR)
		return;
	for (uint32_t i = 0; i < (uint32_t)lv->n && !listed; i++)
		listed = d->vals[lv->a + i].a == r;
	if (!listed)
		return;
	h = sw && sw->type == VT_OBJ ? ir_num(d, sw->a, A_HEIGHT, 0) : 0;
	h = h > 0 ? h : 1;
	lo = n > band / h ? 1 : band - n * h + 1;
	for (int64_t u = lo < 1 ? 1 : lo; u <= band && u <= units; u++)
		used[u] = 1;
}

void fabric_placer_init(struct elab *e, struct placer *p, uint32_t fab,
			uint32_t key)
{
	const struct rk_design *d = e->d;
	const struct rk_value *v = ir_attr(d, fab, key);

	memset(p, 0, sizeof(*p));
	if (!v || v->type != VT_LIST || !v->n)
		return;
	p->per_rack = ir_num(d, fab, A_PER_RACK, 0);
	if (key == A_PLACE_LEAVES) {
		p->band_n = ir_num(d, fab, A_LEAVES_PER_RACK, 0);
		p->band = p->band_n > 0 ? ir_num(d, fab, A_LEAF_BAND, 0) : 0;
	}
	p->count = xcalloc((size_t)v->n, sizeof(*p->count));
	p->list = *v;
	p->racks = &p->list;
	p->where = &p->list;
	v = &p->list;
	p->used = xcalloc((size_t)v->n, sizeof(*p->used));
	p->units = xcalloc((size_t)v->n, sizeof(*p->units));
	for (uint32_t i = 0; i < (uint32_t)v->n; i++) {
		uint32_t r = d->vals[v->a + i].a;

		p->units[i] = layout_rack_units(d, r);
		p->used[i] = xcalloc((size_t)p->units[i] + 2, 1);
	}
	/* mark what is already mounted in the listed racks */
	index_update(e);
	for (uint32_t i = 0; i < (uint32_t)v->n; i++) {
		uint32_t r = d->vals[v->a + i].a;

		for (uint32_t dev = e->ix_dev_head[r]; dev != RK_NONE;
		     dev = e->ix_dev_next[dev]) {
			int64_t at = layout_at(d, dev), h;

			p->count[i]++;
			h = layout_height_u(d, dev);
			for (int64_t u = at; u < at + h && u <= p->units[i];
			     u++)
				p->used[i][u] = 1;
		}
		/* and what provisioned fabrics hold for their final size */
		for (const struct placer_resv *q = e->resv; q; q = q->next) {
			if (q->rack != r)
				continue;
			p->count[i]++;
			for (int64_t u = q->lo; u <= q->hi && u <= p->units[i];
			     u++)
				p->used[i][u] = 1;
		}
		if (key != A_PLACE_LEAVES)
			band_hold(d, fab, r, p->used[i], p->units[i]);
	}
}

void fabric_placer_fini(struct placer *p)
{
	if (p->racks)
		for (uint32_t i = 0; i < (uint32_t)p->racks->n; i++)
			free(p->used[i]);
	free(p->used);
	free(p->units);
	free(p->count);
}

/*
 * Room for a device of height @h in the first listed rack with room, from
 * the rack last used on, top down (bottom up with p->up): its rack index
 * and lowest U, taken.
 */
static bool take_slot(struct placer *p, int64_t h, uint32_t *rack, int64_t *lo)
{
	uint32_t n = (uint32_t)p->racks->n;

	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = (p->next + k) % n;

		if (p->per_rack && p->count[i] >= p->per_rack)
			continue;
		for (int64_t t = p->units[i]; t >= h && h > 0; t--) {
			/* the k-th place from the top, or from the bottom */
			int64_t top = p->up ? p->units[i] - t + h : t, u;

			*lo = top - h + 1;
			for (u = *lo; u <= top && !p->used[i][u]; u++)
				;
			if (u <= top)
				continue;
			for (u = *lo; u <= top; u++)
				p->used[i][u] = 1;
			p->next = i;
			p->count[i]++;
			*rack = i;
			return true;
		}
	}
	return false;
}

/*
 * The place of switch @idx (height h) in a leaf_band: rack idx / band_n of
 * the list, the (idx mod band_n)-th place of the band, down from U band
 * (up from it with p->up), whatever else the racks hold; taken.  0: done,
 * 1: the list has no such rack, 2: the place is outside the rack, 3: it
 * is taken (*rack and *lo say which).
 */
static int band_slot(struct placer *p, int64_t h, uint64_t idx, uint32_t *rack,
		     int64_t *lo)
{
	uint64_t i = idx / (uint64_t)p->band_n;
	int64_t k = (int64_t)(idx % (uint64_t)p->band_n);

	if (i >= (uint64_t)p->racks->n)
		return 1;
	*rack = (uint32_t)i;
	*lo = p->up ? p->band + k * h : p->band - (k + 1) * h + 1;
	if (*lo < 1 || *lo + h - 1 > p->units[i])
		return 2;
	for (int64_t u = *lo; u < *lo + h; u++)
		if (p->used[i][u])
			return 3;
	for (int64_t u = *lo; u < *lo + h; u++)
		p->used[i][u] = 1;
	p->count[i]++;
	p->band_next = idx + 1;
	return 0;
}

/*
 * Place @dev (height h, switch @idx of its tier) in the first listed rack
 * with room, top down, or in its leaf_band place: 0 done, 1 no room left,
 * 2 its band place is outside its rack, 3 taken (*rack, *lo: which).
 */
static int place(struct elab *e, struct placer *p, uint32_t dev, int64_t h,
		 uint64_t idx, uint32_t *rack, int64_t *lo)
{
	const struct rk_design *d = e->d;
	int r;

	if (!p->racks)
		return 0;
	if (p->band)
		r = band_slot(p, h, idx, rack, lo);
	else
		r = take_slot(p, h, rack, lo) ? 0 : 1;
	if (r)
		return r;
	add_attr(e, dev, A_RACK, VT_OBJ, 0, d->vals[p->racks->a + *rack].a, 0,
		 &p->where->loc);
	add_attr(e, dev, A_AT, VT_NUM, DIM_RACKU, 0, *lo, &p->where->loc);
	return 0;
}

/*
 * Growth-stable placement: hold the places that @n more switches of
 * @part would take after those placed by @p (a provisioned fabric's
 * switches of its final size that are not built yet), so that no switch
 * placed later, by this fabric or the ones after it, takes them; what
 * does not fit in the listed racks is not held.
 */
void fabric_placer_reserve(struct elab *e, struct placer *p, uint32_t n,
			   uint32_t part)
{
	int64_t h = ir_num(e->d, part, A_HEIGHT, 0);

	if (!h)
		h = 1;
	for (uint32_t k = 0; k < n && p->racks; k++) {
		struct placer_resv *q;
		uint32_t i;
		int64_t lo;

		if (p->band ? band_slot(p, h, p->band_next, &i, &lo) != 0
			    : !take_slot(p, h, &i, &lo))
			return;
		q = arena_alloc(e->a, sizeof(*q));
		q->rack = e->d->vals[p->racks->a + i].a;
		q->lo = lo;
		q->hi = lo + h - 1;
		q->next = e->resv;
		e->resv = q;
	}
}

/*
 * Wire a placed switch's supplies to the PDUs of its rack: PSU i goes to a
 * PDU of the (i mod F)-th feed among the rack's F feeds (in the order the
 * rack's PDUs name them), spreading over that feed's PDUs, so that 1+1 and
 * N+N supplies land on both feeds.
 */
static void wire_power(struct elab *e, uint32_t dev, const struct srcloc *loc)
{
	struct rk_design *d = e->d;
	uint32_t rack = layout_rack_of(d, dev), feeds[8], nf = 0;
	uint32_t pdus[8][8], np[8] = { 0 };
	int64_t psus = ir_num(d, dev, A_PSUS, 0);

	if (rack == RK_NONE || psus <= 0)
		return;
	for_each_child(d, rack, c) {
		const struct rk_value *f;
		uint32_t k;

		if (d->objs[c].kind != K_DEVICE || d->objs[c].cls != C_PDU)
			continue;
		f = ir_attr(d, c, A_FEED);
		if (!f || f->type != VT_OBJ)
			continue;
		for (k = 0; k < nf && feeds[k] != f->a; k++)
			;
		if (k == nf) {
			if (nf == ARRAY_SIZE(feeds))
				continue;
			feeds[nf++] = f->a;
		}
		if (np[k] < ARRAY_SIZE(pdus[0]))
			pdus[k][np[k]++] = c;
	}
	if (!nf)
		return;
	for (int64_t i = 0; i < psus && i < 64; i++) {
		uint32_t k = (uint32_t)(i % nf);
		uint32_t pdu = pdus[k][(dev + (uint32_t)(i / nf)) % np[k]];
		uint32_t pair = d->nvals, list;
		struct rk_value *v;

		if (!table_room(e, d->nvals, 3, RK_MAX_VALUES, loc,
				"list elements"))
			return;
		VEC_PUSH(d->vals, d->nvals, d->vals_cap);
		VEC_PUSH(d->vals, d->nvals, d->vals_cap);
		list = d->nvals;
		v = VEC_PUSH(d->vals, d->nvals, d->vals_cap);
		memset(v, 0, sizeof(*v));
		v->type = VT_NUM;
		v->n = i;
		v->loc = *loc;
		v = &d->vals[pair];
		memset(v, 0, sizeof(*v));
		v->type = VT_LIST;
		v->a = list;
		v->n = 1;
		v->loc = *loc;
		v = &d->vals[pair + 1];
		memset(v, 0, sizeof(*v));
		v->type = VT_OBJ;
		v->a = pdu;
		v->loc = *loc;
		add_attr(e, dev, A_POWER, VT_PAIR, 0, pair, 0, loc);
	}
}

uint32_t fabric_new_switch(struct elab *e, uint32_t fab, const char *tier,
			   uint64_t idx, uint32_t part, uint32_t role,
			   struct placer *pl)
{
	struct rk_design *d = e->d;
	char local[64];
	uint32_t lid, full, id, rack = 0;
	int64_t lo = 0, h;
	int r;
	/* a copy: the object table grows as switches are added */
	const struct srcloc floc = d->objs[fab].loc, *loc = &floc;

	if (!table_room(e, d->nobjs, 1, RK_MAX_OBJECTS, loc, "objects"))
		return RK_NONE;
	snprintf(local, sizeof(local), "%s[%llu]", tier,
		 (unsigned long long)idx);
	lid = intern_cstr(e->a, local);
	full = intern_join(e->a, d->objs[fab].name, '.', local, strlen(local));
	id = ir_add_obj(d, K_DEVICE, fab, lid, full, loc);
	d->objs[id].cls = C_SWITCH;
	d->objs[id].part = part;
	d->objs[id].attr_first = d->nattrs;
	if (ir_bind_name(d, full, id) != RK_NONE)
		elab_error(e, loc, "duplicate-name",
			   "generated switch '%s' clashes with an existing "
			   "name",
			   S(e, full));
	add_attr(e, id, A_ROLE, VT_WORD, 0, role, 0, loc);
	h = layout_height_u(d, id);
	r = place(e, pl, id, h ? h : 1, idx, &rack, &lo);
	if (r == 1) {
		elab_error(e, &pl->where->loc, "fabric-placement",
			   "no room left in the listed racks for %s (%s %llu "
			   "of fabric '%s')",
			   S(e, full), tier, (unsigned long long)idx,
			   ir_name(d, fab));
		return RK_NONE;
	}
	if (r >= 2) {
		elab_error(e, &pl->where->loc, "fabric-placement",
			   "the leaf_band place of %s (%s %llu of fabric "
			   "'%s'), %lldU from U%lld of %s, %s",
			   S(e, full), tier, (unsigned long long)idx,
			   ir_name(d, fab), (long long)layout_height_u(d, id),
			   (long long)lo,
			   ir_name(d, d->vals[pl->racks->a + rack].a),
			   r == 2 ? "is outside the rack"
				  : "is taken (by a device, or a place held "
				    "for a provisioned fabric)");
		return RK_NONE;
	}
	if (pl->racks)
		wire_power(e, id, &pl->where->loc);
	return id;
}

bool fabric_add_link(struct elab *e, uint32_t fab, uint32_t ad, uint32_t ap,
		     uint32_t bd, uint32_t bp)
{
	struct rk_design *d = e->d;
	struct rk_link *l;

	if (!table_room(e, d->nlinks, 1, e->max_links, &d->objs[fab].loc,
			"links"))
		return false;
	l = VEC_PUSH(d->links, d->nlinks, d->links_cap);
	memset(l, 0, sizeof(*l));
	l->a_dev = ad;
	l->a_port = ap;
	l->b_dev = bd;
	l->b_port = bp;
	l->attr_first = 0;
	l->attr_count = 0;
	l->scope = RK_NONE;
	l->fabric = fab;
	l->generated = true;
	l->attr_first = e->link_attr_first;
	l->attr_count = e->link_attr_count;
	l->loc = d->objs[fab].loc;
	return true;
}

/* Gather the endpoint ports of a fabric in order. */
uint32_t fabric_endpoints(struct elab *e, uint32_t fab, uint32_t **devs,
			  uint32_t **ports)
{
	struct ir_ep_cursor c = { 0, 0 };
	uint32_t n = 0, cap = 0;

	*devs = NULL;
	*ports = NULL;
	for (const struct rk_value *v; (v = ir_next_endpoint(e->d, fab, &c));) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			*devs = xrealloc(*devs, cap * sizeof(**devs));
			*ports = xrealloc(*ports, cap * sizeof(**ports));
		}
		(*devs)[n] = v->a;
		(*ports)[n] = (uint32_t)v->n;
		n++;
	}
	return n;
}

/*
 * A hand-wired fabric owns the explicit links reachable from its endpoint
 * ports through switches (breadth first, one pass over the links).
 */
/* the far end of @l from (@dev, @port)'s side to claim: queue a switch */
static void adopt_far(struct rk_design *d, uint32_t fab, struct rk_link *l,
		      uint32_t other, uint8_t *seen, uint32_t **queue,
		      uint32_t *qt, uint32_t *qcap)
{
	if (l->fabric == RK_NONE)
		l->fabric = fab;
	if (d->objs[other].cls == C_SWITCH && !(seen[other] & 1)) {
		seen[other] |= 1;
		*VEC_PUSH(*queue, *qt, *qcap) = other;
	}
}

static void adopt_links(struct elab *e, uint32_t fab, const uint32_t *ed,
			const uint32_t *ep, uint32_t ne)
{
	struct rk_design *d = e->d;
	uint8_t *seen;
	uint32_t *queue = NULL, qh = 0, qt = 0, qcap = 0;
	uint32_t *devs = NULL, ndevs = 0, dcap = 0;
	/* the endpoints (device, port), open-addressed: key + 1, 0 empty */
	size_t cap = 16;
	uint64_t *keys;

	index_update(e);
	if (e->ix_seen_n < d->nobjs) {
		e->ix_seen = xrealloc(e->ix_seen, (size_t)d->nobjs + 1);
		memset(e->ix_seen + e->ix_seen_n, 0,
		       (size_t)d->nobjs + 1 - e->ix_seen_n);
		e->ix_seen_n = d->nobjs + 1;
	}
	seen = e->ix_seen;
	while (cap < (size_t)ne * 2)
		cap *= 2;
	keys = xcalloc(cap, sizeof(*keys));
	for (uint32_t k = 0; k < ne; k++) {
		uint64_t key = ((uint64_t)ed[k] << 32 | ep[k]) + 1;
		size_t i = hash_mix64(key) & (cap - 1);

		while (keys[i] && keys[i] != key)
			i = (i + 1) & (cap - 1);
		keys[i] = key;
	}
	/*
	 * each endpoint device's links read once (seen bit 2), not once per
	 * endpoint port: a server of thousands of planes read its thousands
	 * of links once per port; a link is claimed from either end that is
	 * an endpoint
	 */
	for (uint32_t k = 0; k < ne; k++) {
		if (seen[ed[k]] & 2)
			continue;
		seen[ed[k]] |= 2;
		*VEC_PUSH(devs, ndevs, dcap) = ed[k];
		for_each_dev_link(e, ed[k], li) {
			struct rk_link *l = &d->links[li];

			for (int end = 0; end < 2; end++) {
				uint32_t dv = end ? l->b_dev : l->a_dev;
				uint64_t key = ((uint64_t)dv << 32 |
						(end ? l->b_port : l->a_port)) +
					       1;
				size_t i = hash_mix64(key) & (cap - 1);

				if (dv != ed[k])
					continue;
				while (keys[i] && keys[i] != key)
					i = (i + 1) & (cap - 1);
				if (keys[i])
					adopt_far(d, fab, l,
						  end ? l->a_dev : l->b_dev,
						  seen, &queue, &qt, &qcap);
			}
		}
	}
	for (uint32_t i = 0; i < ndevs; i++)
		seen[devs[i]] &= (uint8_t)~2u;
	free(devs);
	free(keys);
	while (qh < qt) {
		uint32_t sw = queue[qh++];

		for_each_dev_link(e, sw, li) {
			struct rk_link *l = &d->links[li];
			uint32_t other = l->a_dev == sw ? l->b_dev : l->a_dev;

			if (d->objs[other].cls != C_SWITCH)
				continue;
			if (l->fabric == RK_NONE)
				l->fabric = fab;
			if (!(seen[other] & 1)) {
				seen[other] |= 1;
				*VEC_PUSH(queue, qt, qcap) = other;
			}
		}
	}
	/* every device marked seen is in the queue: clear them */
	for (uint32_t i = 0; i < qt; i++)
		seen[queue[i]] = 0;
	free(queue);
}

static uint32_t fabric_switch_part(struct elab *e, uint32_t fab, uint32_t key)
{
	const struct rk_value *v = ir_attr(e->d, fab, key);

	return v && v->type == VT_OBJ ? v->a : RK_NONE;
}

/*
 * Leaf uplinks to spine ports of a two-tier fat tree, growth-stable.
 *
 * Spread.  With S spines, leaf l sends spread(l, s) of its U uplinks to
 * spine s: the number of j < U with (l*U + j) mod S = s (every leaf
 * floor(U/S) or ceil(U/S) to each spine, every spine within one of the
 * others: uplinks dealt round-robin).
 *
 * Growth.  The assignment for nsu scalable units is the end of a
 * sequence: units are added one at a time (nrails leaves each), and each
 * step changes the spine count to S_k = spines_for(k*nrails*U) (P ports
 * per spine; with `final_sus F`, S_F from the start).  U here is Uf, the
 * uplinks of a full leaf: a leaf that cables fewer takes its first ones
 * and leaves the others' ports free.  A step keeps every
 * cable that its leaf's new spread allows on its spine and port: a leaf
 * with more cables on a spine than the new spread takes off its youngest
 * ones (last placed; then the highest uplink); the uplinks taken off and
 * those of new leaves go, leaf by leaf and uplink by uplink, to the spine
 * (l*U + j) mod S_k if the leaf still lacks cables there, else to the
 * lowest spine where it does, on that spine's lowest free port.  A design
 * built at once and one grown unit by unit get the same cables; so the
 * cables are a function of the leaf, the uplink and the units so far,
 * and with no growth at all, of the leaf and the uplink: (l*U + j) mod S,
 * ports in order, as before.
 *
 * Minimum.  Growing from leaves L_a and spines S_a to S_b >= S_a, a cable
 * of leaf l on spine s < S_a can stay only while the leaf's count there
 * is at most spread_b(l, s): at least
 *     sum over l < L_a, s < S_a of max(0, spread_a(l, s) - spread_b(l, s))
 * cables must move (a new spread moves only what it has to).  When S_b
 * divides U this is L_a*U*(1 - S_a/S_b) (the DGX SuperPOD: 128, 256, 512
 * of the leaf-spine cables at 1->2, 2->4, 4->8 units) and the sequence
 * meets it: along it a leaf's count on an old spine never drops below its
 * final one, and the oldest cables are kept, so those that remain are the
 * original ones.  With S_a = S_b (within `final_sus`) nothing moves.
 */
uint32_t fabric_spread(uint32_t l, uint32_t s, uint32_t U, uint32_t S)
{
	uint32_t start = (uint32_t)(((uint64_t)l * U) % S);

	return U / S + ((s + S - start) % S < U % S);
}

/*
 * The spines for @need spine ports' worth of uplinks (U per leaf, P ports
 * per spine): S = ceil(need/P), raised to the least divisor of U from S on,
 * so that every full leaf sends U/S uplinks to each spine and the tree
 * stays non-blocking (an uneven spread, 18 uplinks over 5 spines, cuts
 * less than the endpoints inject).  U itself is one (a prime U may take a
 * spine per uplink); the callers keep S <= U (at most P leaves).
 */
static uint32_t spines_for(uint64_t need, uint32_t U, uint32_t P)
{
	uint32_t S = (uint32_t)((need + P - 1) / P);

	for (uint32_t t = S ? S : 1; t <= U; t++)
		if (U % t == 0)
			return t;
	return S;
}

/*
 * @sp, @pt: upper switch and port of uplink j of lower switch l at
 * [l*up + j], for @dl's units (see struct deal); the two-tier leaves (units
 * of nrails leaves, spines as the units need them or sized for final_sus)
 * and, in src/fabric_tiers.c, the spines of three and four tiers.
 * Returns the final number of upper switches.
 */
uint32_t fabric_deal_uplinks(const struct deal *dl, uint32_t *sp, uint32_t *pt)
{
	const uint32_t U = dl->up, P = dl->ports;
	uint32_t L = dl->units * dl->per, S = 0, Sprev = 0, Smax = 1;
	uint8_t *occ;
	uint32_t *age = xcalloc((size_t)L * U + 1, sizeof(*age));
	uint32_t *cnt;

	for (uint32_t k = 0; k < dl->units; k++)
		Smax = dl->sk[k] > Smax ? dl->sk[k] : Smax;
	occ = xcalloc((size_t)Smax * P + 1, 1);
	cnt = xcalloc((size_t)Smax + 1, sizeof(*cnt));
	for (uint32_t k = 1; k <= dl->units; k++) {
		uint32_t Lk = k * dl->per, Lprev = (k - 1) * dl->per;

		S = dl->sk[k - 1];
		for (uint32_t l = Lprev; l < Lk; l++)
			for (uint32_t j = 0; j < U; j++)
				sp[l * U + j] = RK_NONE;
		/* old switches: take off what the new spread does not allow */
		for (uint32_t l = 0; l < Lprev && S != Sprev; l++) {
			uint32_t *a = sp + (size_t)l * U;
			uint32_t x = dl->period ? l % dl->period : l;

			memset(cnt, 0, (size_t)S * sizeof(*cnt));
			for (uint32_t j = 0; j < U; j++)
				cnt[a[j]]++;
			for (uint32_t s = 0; s < Sprev; s++)
				while (cnt[s] > fabric_spread(x, s, U, S)) {
					uint32_t v = RK_NONE;

					/* youngest, then highest uplink */
					for (uint32_t j = 0; j < U; j++)
						if (a[j] == s &&
						    (v == RK_NONE ||
						     age[l * U + j] >=
							 age[l * U + v]))
							v = j;
					occ[(size_t)s * P + pt[l * U + v]] = 0;
					a[v] = RK_NONE;
					cnt[s]--;
				}
		}
		/* place what is unplaced */
		for (uint32_t l = 0; l < Lk; l++) {
			uint32_t *a = sp + (size_t)l * U;
			uint32_t x = dl->period ? l % dl->period : l;

			memset(cnt, 0, (size_t)S * sizeof(*cnt));
			for (uint32_t j = 0; j < U; j++)
				if (a[j] != RK_NONE)
					cnt[a[j]]++;
			for (uint32_t j = 0; j < U; j++) {
				uint32_t s = (uint32_t)(((uint64_t)x * U + j) %
							S),
					 q;

				if (a[j] != RK_NONE)
					continue;
				if (cnt[s] >= fabric_spread(x, s, U, S))
					for (s = 0; cnt[s] >=
						    fabric_spread(x, s, U, S);
					     s++)
						;
				for (q = 0; occ[(size_t)s * P + q]; q++)
					;
				occ[(size_t)s * P + q] = 1;
				a[j] = s;
				pt[l * U + j] = q;
				age[l * U + j] = k;
				cnt[s]++;
			}
		}
		Sprev = S;
	}
	free(cnt);
	free(age);
	free(occ);
	return S;
}

uint32_t fabric_deal_two_tier(uint32_t units, uint32_t rails, uint32_t Uf,
			      uint32_t P, uint32_t Sfix, uint32_t *up_s,
			      uint32_t *up_p)
{
	uint32_t *sk = xmalloc(((size_t)units + 1) * sizeof(*sk));
	struct deal dl = { units, rails, Uf, P, 0, sk };
	uint32_t S;

	for (uint32_t k = 0; k < units; k++)
		sk[k] = Sfix
			    ? Sfix
			    : spines_for((uint64_t)(k + 1) * rails * Uf, Uf, P);
	S = fabric_deal_uplinks(&dl, up_s, up_p);
	free(sk);
	return S;
}

/*
 * A fat tree's rate: its `speed`, else the speed of its first endpoint
 * port that gives one (0: none known).
 */
static int64_t fabric_rate(struct elab *e, uint32_t fab, const uint32_t *ep,
			   uint32_t ne)
{
	int64_t r = ir_num(e->d, fab, A_SPEED, 0);

	for (uint32_t i = 0; !r && i < ne; i++)
		r = ir_num(e->d, ep[i], A_SPEED, 0);
	return r;
}

/*
 * Keep the switch ports that run at the fabric's @rate, so that a port of
 * another speed (the SFP28 management-speed port of an 800G switch) never
 * becomes a leaf port or an uplink.  Ports without a speed are kept only
 * when no port of the list gives one.  False when ports give speeds but
 * none is @rate.
 */
static bool ports_at_rate(struct elab *e, struct swport_list *l, int64_t rate)
{
	uint32_t n = 0, stated = 0;

	if (!rate)
		return true;
	for (uint32_t i = 0; i < l->n; i++) {
		int64_t sp = ir_num(e->d, l->ports[i], A_SPEED, 0);

		stated += sp != 0;
		n += sp == rate;
	}
	if (!stated)
		return true;
	n = 0;
	for (uint32_t i = 0; i < l->n; i++)
		if (ir_num(e->d, l->ports[i], A_SPEED, 0) == rate)
			l->ports[n++] = l->ports[i];
	l->n = n;
	return n > 0;
}

/* The state of one fat tree's generation, fabric_gen_fat_tree()'s. */
struct ft_gen {
	uint32_t fab;
	/* a copy: the object table grows as switches are added */
	struct srcloc loc;
	struct ft_plane *fp;
	uint32_t *ed, *ep, ne; /* the endpoints: devices and ports */
	uint32_t sw, spw;      /* leaf and spine switch parts */
	struct swport_list lp, sp;
	int64_t od, ou; /* oversubscription d:u as written */
	int64_t rd, ru; /* in lowest terms */
	int64_t rate, fin;
	uint32_t R, D, U, Uf, su_size, nsu, L, Lf, tiers, Sfix;
	bool all_up;
	uint32_t *node_of, *rail_names, nnodes, nrails;
	uint32_t *leaf, *spine;
	uint8_t *seen;
	int64_t *down_bw;
	struct placer pl_leaf, pl_spine, pl_core;
	uint32_t w_leaf, w_spine; /* the words "leaf" and "spine" */
};

/*
 * The leaf and spine switch parts' fabric ports for the endpoints'
 * protocol, at the fabric's rate (g->lp, g->sp, g->R); false after an
 * error.
 */
static bool ft_switch_ports(struct elab *e, struct ft_gen *g)
{
	struct rk_design *d = e->d;
	uint32_t proto;

	{
		const char *pr = ir_str(d, g->ep[0], A_PROTOCOL);

		proto = pr ? intern_cstr(e->a, pr) : 0;
	}
	switch_ports(e, g->sw, proto, &g->lp);
	switch_ports(e, g->spw, proto, &g->sp);
	g->rate = fabric_rate(e, g->fab, g->ep, g->ne);
	if (!ports_at_rate(e, &g->lp, g->rate) ||
	    !ports_at_rate(e, &g->sp, g->rate)) {
		char q[RK_QFMT_MAX];
		struct quantity qr = { DIM_RATE, g->rate };

		quantity_format(qr, q);
		elab_error(e, &g->loc, "fabric",
			   "switch part '%s' has no fabric ports at %s, the "
			   "rate of fat_tree '%s' (its `speed`, else its "
			   "first endpoint port's); give the fabric the "
			   "`speed` its links run at",
			   ir_name(d, g->lp.n ? g->spw : g->sw), q,
			   ir_name(d, g->fab));
		return false;
	}
	g->R = g->lp.n;
	if (g->R < 2 || g->sp.n < 2) {
		elab_error(e, &g->loc, "fabric",
			   "switch part '%s' has no fabric ports for "
			   "protocol '%s'",
			   ir_name(d, g->sw), proto ? S(e, proto) : "any");
		return false;
	}
	return true;
}

/*
 * A leaf's D down and U up ports at the oversubscription d:u, and d:u in
 * lowest terms (1:1, rd == ru, is the non-blocking tree); false after an
 * error.
 */
static bool ft_ratio(struct elab *e, struct ft_gen *g)
{
	const struct rk_value *ov = ir_attr(e->d, g->fab, A_OVERSUB);
	int64_t od = ov ? ov->n : 1, ou = ov ? ov->a : 1;

	g->od = od;
	g->ou = ou;
	g->D = (uint32_t)((int64_t)g->R * od / (od + ou));
	g->U = g->R - g->D;
	{
		int64_t a = od, b = ou;

		while (b) {
			int64_t t = a % b;

			a = b;
			b = t;
		}
		g->rd = od / a;
		g->ru = ou / a;
	}
	if (!g->D || !g->U) {
		elab_error(e, &g->loc, "fabric",
			   "oversubscription %lld:%lld leaves a %u-port leaf "
			   "without %s ports",
			   (long long)od, (long long)ou, g->R,
			   g->D ? "up" : "down");
		return false;
	}
	return true;
}

/* The endpoints' nodes and rails, in order of first appearance. */
static void ft_nodes_rails(struct rk_design *d, struct ft_gen *g)
{
	g->node_of = xmalloc(d->nobjs * sizeof(*g->node_of));
	memset(g->node_of, 0xff, d->nobjs * sizeof(*g->node_of));
	for (uint32_t i = 0; i < g->ne; i++) {
		uint32_t nm = d->objs[g->ep[i]].local, r;

		if (g->node_of[g->ed[i]] == RK_NONE)
			g->node_of[g->ed[i]] = g->nnodes++;
		for (r = 0; r < g->nrails && g->rail_names[r] != nm; r++)
			;
		if (r == g->nrails) {
			g->rail_names =
			    xrealloc(g->rail_names,
				     (g->nrails + 1) * sizeof(*g->rail_names));
			g->rail_names[g->nrails++] = nm;
		}
	}
}

/*
 * The scalable units: their size, how many the endpoints fill (nsu) and
 * the design provisions (fin), the leaves now and then (L, Lf) and the
 * uplinks a full leaf cables (Uf); false after an error.
 */
static bool ft_units(struct elab *e, struct ft_gen *g)
{
	struct rk_design *d = e->d;
	const uint32_t fab = g->fab, D = g->D, U = g->U;
	const int64_t rd = g->rd, ru = g->ru;
	uint32_t su_size;

	/*
	 * A leaf of n endpoints is exactly d:u when n*u/d is whole: with
	 * d:u other than 1:1 the default unit is the largest multiple of d
	 * (in lowest terms) that the D down ports hold, so that a full leaf
	 * is d:u (64 ports at 4:1: 48 down and 12 up, not 51 and 13).
	 */
	su_size = (uint32_t)ir_num(
	    d, fab, A_SU_SIZE,
	    rd != ru && D >= rd ? D - (uint32_t)(D % (uint64_t)rd) : D);
	if (su_size < 1 || su_size > D) {
		elab_error(e, &g->loc, "fabric",
			   "su_size %u does not fit the %u down ports of a "
			   "leaf",
			   su_size, D);
		return false;
	}
	g->su_size = su_size;
	g->nsu = (g->nnodes + su_size - 1) / su_size;
	g->L = g->nsu * g->nrails;
	/*
	 * Two tiers: a leaf cables the uplinks its endpoints' bandwidth
	 * needs at d:u (one per endpoint at 1:1; n*u/d rounded up), at most
	 * Uf (the uplinks of a leaf whose unit is full: ceil(su_size*u/d),
	 * which D + ceil(D*u/d) <= R keeps within U), unless the design asks
	 * for every uplink port (`uplinks all`): then every leaf cables all
	 * U.  The spines are dealt as if every leaf cabled Uf, so the
	 * uplinks a leaf does not cable leave their spine ports free, and
	 * filling its unit later only adds cables.
	 */
	{
		const char *up = ir_str(d, fab, A_UPLINKS);
		uint64_t want =
		    ((uint64_t)su_size * (uint64_t)ru + rd - 1) / (uint64_t)rd;

		g->all_up = up && streq(up, "all");
		g->Uf = g->all_up || want >= U ? U : (uint32_t)want;
	}
	g->fin = ir_attr(d, fab, A_FINAL_SUS) ? ir_num(d, fab, A_FINAL_SUS, 0)
					      : (int64_t)g->nsu;
	/* four tiers reach R groups of R/2 pods of R/2 leaves */
	{
		uint64_t most =
		    (uint64_t)g->sp.n * (g->sp.n / 2) * (g->sp.n / 2);

		most = most < (1u << 30) ? most : (1u << 30);
		if (g->fin < (int64_t)g->nsu) {
			elab_error(e, &g->loc, "fabric",
				   "final_sus %lld is below the %u scalable "
				   "units the endpoints fill",
				   (long long)g->fin, g->nsu);
			return false;
		}
		if (ir_attr(d, fab, A_FINAL_SUS) &&
		    (uint64_t)g->fin > most / g->nrails) {
			elab_error(e, &g->loc, "fabric",
				   "final_sus %lld needs more leaves (%u per "
				   "unit) than four tiers of '%s' reach (%llu)",
				   (long long)g->fin, g->nrails,
				   ir_name(d, g->spw),
				   (unsigned long long)most);
			return false;
		}
	}
	g->Lf = (uint32_t)g->fin * g->nrails;
	return true;
}

/*
 * The number of tiers, stated or the fewest that reach the provisioned
 * leaves, checked against the leaves and the spine's ports; and the
 * spines a provisioned fabric fixes (g->Sfix).  False after an error.
 */
static bool ft_tiers(struct elab *e, struct ft_gen *g)
{
	struct rk_design *d = e->d;
	const uint32_t fab = g->fab, L = g->L, Lf = g->Lf, nrails = g->nrails;
	const struct swport_list *sp = &g->sp;
	const int64_t fin = g->fin;
	uint32_t tiers;

	/* beyond the pods a core reaches (see below): four tiers */
	tiers =
	    (uint32_t)ir_num(d, fab, A_TIERS,
			     Lf <= sp->n				   ? 2
			     : (Lf + sp->n / 2 - 1) / (sp->n / 2) <= sp->n ? 3
									   : 4);
	if (L == 1 && Lf == 1 && !ir_attr(d, fab, A_TIERS))
		tiers = 1;
	g->tiers = tiers;
	if (tiers < 1 || tiers > 4) {
		elab_error(e, &g->loc, "fabric", "tiers must be 1, 2, 3 or 4");
		return false;
	}
	if (tiers == 1 && L > 1) {
		elab_error(e, &g->loc, "fabric",
			   "a 1-tier fabric has one leaf, but %u nodes on %u "
			   "rails need %u",
			   g->nnodes, nrails, L);
		return false;
	}
	if (tiers == 2 && (uint64_t)fin * nrails > sp->n) {
		if (ir_attr(d, fab, A_FINAL_SUS))
			elab_error(e, &g->loc, "fabric",
				   "final_sus %u needs %llu leaves, more than "
				   "the %u ports of spine '%s'",
				   (unsigned)fin,
				   (unsigned long long)fin * nrails, sp->n,
				   ir_name(d, g->spw));
		else
			elab_error(e, &g->loc, "fabric",
				   "a 2-tier fabric of %llu leaves (%u "
				   "scalable units of %u rails) needs spines "
				   "with at least as many ports ('%s' has "
				   "%u); use tiers 3",
				   (unsigned long long)fin * nrails,
				   (unsigned)fin, nrails, ir_name(d, g->spw),
				   sp->n);
		return false;
	}
	if (ir_attr(d, fab, A_FINAL_SUS))
		g->Sfix =
		    spines_for((uint64_t)fin * nrails * g->Uf, g->Uf, sp->n);
	if (tiers == 2 && L > sp->n) {
		elab_error(e, &g->loc, "fabric",
			   "a 2-tier fabric of %u leaves needs spines with at "
			   "least %u ports ('%s' has %u); use tiers 3",
			   L, L, ir_name(d, g->spw), sp->n);
		return false;
	}
	return true;
}

/*
 * The leaves (made here, or by the planes in name order) and the links
 * from the endpoints to them: node k of SU s, rail r -> leaf s*rails+r,
 * port k.  Each leaf's downlink bandwidth in g->down_bw.  False when a
 * switch could not be placed or after an error.
 */
static bool ft_leaves(struct elab *e, struct ft_gen *g)
{
	struct rk_design *d = e->d;
	struct ft_plane *fp = g->fp;
	const uint32_t L = g->L, nrails = g->nrails;
	const int64_t rate = g->rate;

	fabric_placer_init(e, &g->pl_leaf, g->fab, A_PLACE_LEAVES);
	g->leaf = xcalloc(L, sizeof(*g->leaf));
	if (fp->made)
		memcpy(g->leaf, fp->made[fp->plane], L * sizeof(*g->leaf));
	for (uint32_t i = 0; i < L && !e->stopped && !fp->made; i++)
		if ((g->leaf[i] = fabric_new_switch(
			 e, g->fab, "leaf", fabric_ft_name(fp, i), g->sw,
			 g->w_leaf, &g->pl_leaf)) == RK_NONE)
			return false;
	/* the leaves of the units still to come keep their places */
	if (!fp->made)
		fabric_placer_reserve(e, &g->pl_leaf,
				      (uint32_t)(g->fin - g->nsu) * nrails,
				      g->sw);
	g->seen = xcalloc((size_t)g->nnodes * nrails, 1);
	g->down_bw = xcalloc(L, sizeof(*g->down_bw));
	for (uint32_t i = 0; i < g->ne && !e->stopped; i++) {
		uint32_t n = g->node_of[g->ed[i]], r, l;

		for (r = 0; g->rail_names[r] != d->objs[g->ep[i]].local; r++)
			;
		if (g->seen[(size_t)n * nrails + r]++) {
			elab_error(e, &g->loc, "fabric",
				   "device '%s' has two endpoints on rail %u",
				   ir_name(d, g->ed[i]), r);
			return false;
		}
		l = (n / g->su_size) * nrails + r;
		/* the leaf's downlink bandwidth: each link at its endpoint's
		 * speed, at most the fabric's rate (without a rate, a count) */
		{
			int64_t v = rate ? ir_num(d, g->ep[i], A_SPEED, 0) : 1;

			g->down_bw[l] += !v || v > rate ? (rate ? rate : 1) : v;
		}
		fabric_add_link(e, g->fab, g->ed[i], g->ep[i], g->leaf[l],
				g->lp.ports[n % g->su_size]);
	}
	return true;
}

/*
 * Two tiers: the spines dealt over the leaves' Uf uplinks, and leaf l
 * cabling the uplinks at the fabric's rate its downlinks' bandwidth
 * needs at d:u (rounded up, at most Uf; all Uf with `uplinks all`).
 */
static void ft_two_tier(struct elab *e, struct ft_gen *g)
{
	const uint32_t L = g->L, Uf = g->Uf;
	uint32_t *up_s = xmalloc(((size_t)L * Uf + 1) * sizeof(*up_s));
	uint32_t *up_p = xmalloc(((size_t)L * Uf + 1) * sizeof(*up_p));
	uint32_t *ul = xcalloc(L, sizeof(*ul));
	uint32_t S = fabric_deal_two_tier(g->nsu, g->nrails, Uf, g->sp.n,
					  g->Sfix, up_s, up_p),
		 Sb = 0;

	for (uint32_t l = 0; l < L; l++) {
		u128 per = (u128)(g->rate ? g->rate : 1) * g->rd;
		u128 need = ((u128)g->down_bw[l] * g->ru + per - 1) / per;

		ul[l] = g->all_up || need >= Uf ? Uf : (uint32_t)need;
		for (uint32_t j = 0; j < ul[l]; j++)
			if (up_s[(size_t)l * Uf + j] >= Sb)
				Sb = up_s[(size_t)l * Uf + j] + 1;
	}
	/* spines past the last one cabled (a unit of fewer nodes
	 * than spines) are not built: it would carry no link */
	S = Sb < S ? Sb : S;
	g->spine = xcalloc(S + 1, sizeof(*g->spine));
	fabric_placer_init(e, &g->pl_spine, g->fab, A_PLACE_SPINES);
	for (uint32_t s = 0; s < S; s++)
		if ((g->spine[s] = fabric_new_switch(
			 e, g->fab, "spine", fabric_ft_name(g->fp, s), g->spw,
			 g->w_spine, &g->pl_spine)) == RK_NONE)
			goto out;
	for (uint32_t l = 0; l < L && !e->stopped; l++)
		for (uint32_t j = 0; j < ul[l]; j++) {
			size_t k = (size_t)l * Uf + j;

			fabric_add_link(
			    e, g->fab, g->leaf[l], g->lp.ports[g->D + j],
			    g->spine[up_s[k]], g->sp.ports[up_p[k]]);
		}
out:
	free(up_s);
	free(up_p);
	free(ul);
}

/* Three or four tiers: fabric_tiers.c. */
static void ft_upper_tiers(struct elab *e, struct ft_gen *g)
{
	struct rk_design *d = e->d;
	bool grown =
	    !ir_attr(d, g->fab, A_TIERS) && !ir_attr(d, g->fab, A_FINAL_SUS);
	/* at d:u other than 1:1 a leaf cables Uf, the uplinks of a
	 * full leaf at d:u, and its pod has as many spines */
	struct ft_build b = { g->fab,	   &g->loc,
			      g->spw,	   &g->lp,
			      &g->sp,	   g->leaf,
			      g->L,	   g->Lf,
			      g->D,	   g->rd != g->ru ? g->Uf : g->U,
			      g->nrails,   g->nsu,
			      g->tiers,	   g->Sfix > 0,
			      g->fp,	   &g->pl_spine,
			      &g->pl_core, g->Uf,
			      grown };

	fabric_gen_upper_tiers(e, &b);
}

void fabric_gen_fat_tree(struct elab *e, uint32_t fab, struct ft_plane *fp)
{
	struct rk_design *d = e->d;
	struct ft_gen g;

	memset(&g, 0, sizeof(g));
	g.fab = fab;
	g.loc = d->objs[fab].loc;
	g.fp = fp;
	g.ne = fp->nplanes > 1 ? fabric_ft_plane_take(fp, &g.ed, &g.ep)
			       : fabric_endpoints(e, fab, &g.ed, &g.ep);
	g.sw = fabric_switch_part(e, fab, A_SWITCH);
	g.spw = fabric_switch_part(e, fab, A_SPINE_SWITCH);
	g.w_leaf = intern_cstr(e->a, "leaf");
	g.w_spine = intern_cstr(e->a, "spine");
	if (g.sw == RK_NONE) {
		/* hand-wired: the links are written out; claim them */
		adopt_links(e, fab, g.ed, g.ep, g.ne);
		goto out;
	}
	if (!g.ne) {
		elab_error(e, &g.loc, "fabric",
			   "fat_tree '%s' has a switch part but no endpoints",
			   ir_name(d, fab));
		goto out;
	}
	if (g.spw == RK_NONE)
		g.spw = g.sw;
	if (!ft_switch_ports(e, &g) || !ft_ratio(e, &g))
		goto out;
	ft_nodes_rails(d, &g);
	if (!ft_units(e, &g) || !ft_tiers(e, &g))
		goto out;
	/* the links: one per endpoint, U up from each leaf, and at most as
	 * many again from spines to cores (reserved up to a few million;
	 * a larger fabric grows as usual, into the table limit's error) */
	{
		uint64_t more = (uint64_t)g.ne + 2 * (uint64_t)g.L * g.U;

		VEC_RESERVE(d->links, d->nlinks, d->links_cap,
			    more < (1u << 22) ? more : (1u << 22));
	}
	if (fp->count) {
		/* planes: the leaves of all planes are made in name order */
		fp->count[fp->plane] = g.L;
		fp->future[fp->plane] = (uint32_t)(g.fin - g.nsu) * g.nrails;
		goto out;
	}
	/* each tier's placer starts from what the tiers before it placed */
	if (ft_leaves(e, &g)) {
		if (g.tiers == 2)
			ft_two_tier(e, &g);
		else if (g.tiers >= 3)
			ft_upper_tiers(e, &g);
	}
	fabric_placer_fini(&g.pl_leaf);
	fabric_placer_fini(&g.pl_spine);
	fabric_placer_fini(&g.pl_core);
out:
	free(g.ed);
	free(g.ep);
	free(g.node_of);
	free(g.rail_names);
	free(g.lp.ports);
	free(g.sp.ports);
	free(g.leaf);
	free(g.spine);
	free(g.seen);
	free(g.down_bw);
}

static void gen_nvlink(struct elab *e, uint32_t fab)
{
	struct rk_design *d = e->d;
	/* a copy: the object table grows as switches are added */
	const struct srcloc floc = d->objs[fab].loc, *loc = &floc;
	const struct rk_value *mv = ir_attr(d, fab, A_MEMBERS);
	uint32_t *ed, *ep, ne = fabric_endpoints(e, fab, &ed, &ep), m;
	uint32_t nvl = intern_cstr(e->a, "nvlink");
	struct swport_list *pl = NULL;
	uint32_t *next = NULL;

	if (!mv || mv->type != VT_LIST || !mv->n || !ne) {
		elab_error(e, loc, "fabric",
			   "nvlink '%s' needs endpoints and member switches",
			   ir_name(d, fab));
		goto out;
	}
	m = (uint32_t)mv->n;
	pl = xcalloc(m, sizeof(*pl));
	next = xcalloc(m, sizeof(*next));
	for (uint32_t i = 0; i < m; i++)
		switch_ports(e, d->objs[d->vals[mv->a + i].a].part, nvl,
			     &pl[i]);
	for (uint32_t i = 0; i < ne && !e->stopped; i++) {
		uint32_t s = i % m;
		uint32_t sw = d->vals[mv->a + s].a;

		if (next[s] >= pl[s].n) {
			elab_error(e, loc, "fabric",
				   "member '%s' of nvlink '%s' runs out of "
				   "NVLink ports at endpoint %u of %u",
				   ir_name(d, sw), ir_name(d, fab), i + 1, ne);
			break;
		}
		fabric_add_link(e, fab, ed[i], ep[i], sw,
				pl[s].ports[next[s]++]);
	}
out:
	for (uint32_t i = 0; pl && i < (uint32_t)mv->n; i++)
		free(pl[i].ports);
	free(pl);
	free(next);
	free(ed);
	free(ep);
}

static void gen_star(struct elab *e, uint32_t fab)
{
	struct rk_design *d = e->d;
	/* a copy: the object table grows as switches are added */
	const struct srcloc floc = d->objs[fab].loc, *loc = &floc;
	uint32_t *ed, *ep, ne = fabric_endpoints(e, fab, &ed, &ep);
	uint32_t sw = fabric_switch_part(e, fab, A_SWITCH);
	struct swport_list lp = { NULL, 0 };
	uint32_t *down = NULL, nd = 0, cur = RK_NONE, nsw = 0;
	const char *form;
	struct placer pl;

	if (sw == RK_NONE) {
		/* hand-wired: claim the written links */
		adopt_links(e, fab, ed, ep, ne);
		goto out;
	}
	if (!ne) {
		elab_error(e, loc, "fabric",
			   "star '%s' has a switch part but no endpoints",
			   ir_name(d, fab));
		goto out;
	}
	/* down ports: the switch ports of the endpoints' form factor */
	form = ir_str(d, ep[0], A_FORM);
	switch_ports(e, sw, 0, &lp);
	down = xcalloc(lp.n + 1, sizeof(*down));
	for (uint32_t i = 0; i < lp.n; i++) {
		const char *f = ir_str(d, lp.ports[i], A_FORM);

		if (!form || !f || streq(f, form))
			down[nd++] = lp.ports[i];
	}
	if (!nd) {
		elab_error(e, loc, "fabric",
			   "switch part '%s' has no %s ports for star '%s'",
			   ir_name(d, sw), form ? form : "", ir_name(d, fab));
		goto out;
	}
	fabric_placer_init(e, &pl, fab, A_PLACE_LEAVES);
	/*
	 * A star (the management network) fills its racks from the bottom
	 * up, the fat trees' tiers from the top down: in racks they share,
	 * each grows towards the other, so neither's growth moves the
	 * other's switches while the rack holds both (doc/language.md).
	 */
	pl.up = true;
	for (uint32_t i = 0; i < ne && !e->stopped; i++) {
		if (i % nd == 0) {
			cur = fabric_new_switch(e, fab, "sw", nsw++, sw,
						intern_cstr(e->a, "leaf"), &pl);
			if (cur == RK_NONE)
				break;
		}
		fabric_add_link(e, fab, ed[i], ep[i], cur, down[i % nd]);
	}
	fabric_placer_fini(&pl);
out:
	free(lp.ports);
	free(down);
	free(ed);
	free(ep);
}

/*
 * The fabric's own `media` and `cable` apply to every link it generates:
 * copy them once into a contiguous run of the attribute table (owned by no
 * object) that all those links share.
 */
static void link_attrs(struct elab *e, uint32_t fab)
{
	struct rk_design *d = e->d;
	uint32_t first = d->nattrs;

	for (uint32_t k = 0; k < d->objs[fab].attr_count; k++) {
		struct rk_attr at = d->attrs[d->objs[fab].attr_first + k];

		if (at.key == A_MEDIA || at.key == A_CABLE)
			*VEC_PUSH(d->attrs, d->nattrs, d->attrs_cap) = at;
	}
	e->link_attr_first = first;
	e->link_attr_count = d->nattrs - first;
}

/* one listed endpoint: its port and where it is listed */
struct ep_at {
	uint32_t dev, port, order;
	const struct srcloc *loc;
};

static int ep_at_cmp(const void *x, const void *y)
{
	const struct ep_at *a = x, *b = y;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->port != b->port)
		return a->port < b->port ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

/*
 * A port listed twice among a fabric's endpoints would be two endpoints
 * of one device port (a generator wires it twice, a hand-wired fabric
 * counts it twice): an error naming the port and both places.
 */
static bool endpoints_unique(struct elab *e, uint32_t fab)
{
	struct ir_ep_cursor c = { 0, 0 };
	struct ep_at *v = NULL;
	uint32_t n = 0, cap = 0;
	bool ok = true;

	for (const struct rk_value *x; (x = ir_next_endpoint(e->d, fab, &c));) {
		struct ep_at *a = VEC_PUSH(v, n, cap);

		a->dev = x->a;
		a->port = (uint32_t)x->n;
		a->order = n - 1;
		a->loc = &x->loc;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), ep_at_cmp);
	for (uint32_t i = 1; i < n && !e->stopped; i++) {
		uint32_t f = i - 1;

		if (v[i].dev != v[f].dev || v[i].port != v[f].port)
			continue;
		while (i + 1 < n && v[i + 1].dev == v[f].dev &&
		       v[i + 1].port == v[f].port)
			i++; /* one error per port */
		ok = false;
		elab_error(e, v[f + 1].loc, "fabric",
			   "port %s.%s is listed twice among the endpoints of "
			   "fabric %s",
			   ir_name(e->d, v[f].dev),
			   str_of(e->d->arena, e->d->objs[v[f].port].local),
			   ir_name(e->d, fab));
		diag_emit(e->diag, DIAG_NOTE, v[f].loc, NULL,
			  "first listed here");
	}
	free(v);
	return ok;
}

/*
 * leaf_band and leaves_per_rack go together, on a fat tree or a star; the
 * band starts at U 1 or above and holds at least one switch.  False (with
 * an error) when they do not.
 */
static bool leaf_band_check(struct elab *e, uint32_t fab)
{
	const struct rk_design *d = e->d;
	const struct rk_value *b = ir_attr(d, fab, A_LEAF_BAND);
	const struct rk_value *n = ir_attr(d, fab, A_LEAVES_PER_RACK);
	const struct rk_value *at = b ? b : n;

	if (!at)
		return true;
	if (!b || !n) {
		elab_error(e, &at->loc, "fabric-placement",
			   "'%s' needs '%s' on fabric '%s'",
			   b ? "leaf_band" : "leaves_per_rack",
			   b ? "leaves_per_rack" : "leaf_band",
			   ir_name(d, fab));
		return false;
	}
	if (d->objs[fab].cls != FAB_FAT_TREE && d->objs[fab].cls != FAB_STAR) {
		elab_error(e, &at->loc, "fabric-placement",
			   "leaf_band places the switches a fat tree or a star "
			   "generates; fabric '%s' generates none",
			   ir_name(d, fab));
		return false;
	}
	if (b->n < 1 || n->n < 1) {
		at = b->n < 1 ? b : n;
		elab_error(e, &at->loc, "fabric-placement",
			   "%s %lld on fabric '%s': it must be 1 or more",
			   b->n < 1 ? "leaf_band" : "leaves_per_rack",
			   (long long)at->n, ir_name(d, fab));
		return false;
	}
	return true;
}

static void expand_one(struct elab *e, uint32_t i)
{
	if (!endpoints_unique(e, i))
		return;
	link_attrs(e, i);
	fabric_planes_check(e, i);
	if (!leaf_band_check(e, i))
		return;
	switch (e->d->objs[i].cls) {
	case FAB_FAT_TREE:
		fabric_gen_fat_tree_planes(e, i);
		break;
	case FAB_NVLINK:
		gen_nvlink(e, i);
		break;
	case FAB_STAR:
		gen_star(e, i);
		break;
	default:
		break;
	}
}

/*
 * Expand the fabrics in dependency order: a fabric whose endpoints or
 * members name objects another fabric generates (resolve.c) waits until
 * that one is expanded; otherwise declaration order.  Fabrics that wait
 * for each other in a circle are an error, located at the reference.
 */
void fabric_expand(struct elab *e)
{
	uint32_t n = e->d->nobjs, left = 0;
	uint8_t *done = xcalloc(n + 1, 1);
	bool progress = true;

	for (uint32_t i = 0; i < n; i++)
		left += e->d->objs[i].kind == K_FABRIC;
	while (left && progress && !e->stopped) {
		progress = false;
		for (uint32_t i = 0; i < n && !e->stopped; i++) {
			if (e->d->objs[i].kind != K_FABRIC || done[i] ||
			    fabric_waits_for(e, i, done, NULL) != RK_NONE)
				continue;
			{
				uint32_t before = e->errors;

				resolve_fabric_refs(e, i);
				if (e->errors == before)
					expand_one(e, i);
			}
			done[i] = 1;
			left--;
			progress = true;
		}
	}
	for (uint32_t i = 0; i < n && left && !e->stopped; i++) {
		struct srcloc loc;
		uint32_t f;

		if (e->d->objs[i].kind != K_FABRIC || done[i])
			continue;
		f = fabric_waits_for(e, i, done, &loc);
		elab_error(e, &loc, "fabric",
			   "fabric '%s' names objects of fabric '%s', which "
			   "waits (directly or through others) for '%s': "
			   "the fabrics' generated objects refer to each "
			   "other in a cycle",
			   ir_name(e->d, i), ir_name(e->d, f),
			   ir_name(e->d, i));
		break;
	}
	free(done);
}
