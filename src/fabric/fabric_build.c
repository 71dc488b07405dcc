/* SPDX-License-Identifier: MIT */
/*
 * The building blocks every fabric generator shares (fabric_gen.h): the
 * switch ports of a part, placement of generated switches in racks (and
 * the places a provisioned fabric holds for its growth), new switches and
 * links, a fabric's endpoints, adopting the links of a hand-wired fabric,
 * the growth-stable dealing of uplinks, and the names of a plane's
 * switches.  A leaf of the fabric stage: it calls no generator.
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
void fabric_switch_ports(struct elab *e, uint32_t part, uint32_t proto,
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

	if (d->nobjs > e->fab->ix_cap) {
		uint32_t cap = e->fab->ix_cap ? e->fab->ix_cap : 1024;

		while (cap < d->nobjs)
			cap *= 2;
		e->fab->ix_link_head = xrealloc(
		    e->fab->ix_link_head, cap * sizeof(*e->fab->ix_link_head));
		e->fab->ix_dev_head = xrealloc(
		    e->fab->ix_dev_head, cap * sizeof(*e->fab->ix_dev_head));
		e->fab->ix_dev_next = xrealloc(
		    e->fab->ix_dev_next, cap * sizeof(*e->fab->ix_dev_next));
		e->fab->ix_cap = cap;
	}
	for (uint32_t o = e->fab->ix_nobjs; o < d->nobjs; o++) {
		e->fab->ix_link_head[o] = RK_NONE;
		e->fab->ix_dev_head[o] = RK_NONE;
		e->fab->ix_dev_next[o] = RK_NONE;
	}
	for (uint32_t dev = e->fab->ix_nobjs; dev < d->nobjs; dev++) {
		uint32_t r;

		if (d->objs[dev].kind != K_DEVICE || layout_at(d, dev) < 1)
			continue;
		r = layout_rack_of(d, dev);
		if (r == RK_NONE)
			continue;
		e->fab->ix_dev_next[dev] = e->fab->ix_dev_head[r];
		e->fab->ix_dev_head[r] = dev;
	}
	e->fab->ix_nobjs = d->nobjs;
	if ((uint64_t)2 * d->nlinks > e->fab->ix_link_cap) {
		uint64_t cap = e->fab->ix_link_cap ? e->fab->ix_link_cap : 1024;

		while (cap < (uint64_t)2 * d->nlinks)
			cap *= 2;
		e->fab->ix_link_next = xrealloc(
		    e->fab->ix_link_next, cap * sizeof(*e->fab->ix_link_next));
		e->fab->ix_link_cap = cap;
	}
	for (uint32_t l = e->fab->ix_nlinks; l < d->nlinks; l++) {
		const struct rk_link *k = &d->links[l];

		if (k->a_port == RK_NONE)
			continue;
		e->fab->ix_link_next[2 * l] = e->fab->ix_link_head[k->a_dev];
		e->fab->ix_link_head[k->a_dev] = 2 * l;
		e->fab->ix_link_next[2 * l + 1] =
		    e->fab->ix_link_head[k->b_dev];
		e->fab->ix_link_head[k->b_dev] = 2 * l + 1;
	}
	e->fab->ix_nlinks = d->nlinks;
}

/* The links on device @dev: for_each_dev_link(e, dev, l) { ... }. */
#define for_each_dev_link(e, dev, l)                          \
	for (uint32_t l##_k = (e)->fab->ix_link_head[dev], l; \
	     l##_k != RK_NONE && ((l = l##_k >> 1), 1);       \
	     l##_k = (e)->fab->ix_link_next[l##_k])

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

		for (uint32_t dev = e->fab->ix_dev_head[r]; dev != RK_NONE;
		     dev = e->fab->ix_dev_next[dev]) {
			int64_t at = layout_at(d, dev), h;

			p->count[i]++;
			h = layout_height_u(d, dev);
			for (int64_t u = at; u < at + h && u <= p->units[i];
			     u++)
				p->used[i][u] = 1;
		}
		/* and what provisioned fabrics hold for their final size */
		for (const struct placer_resv *q = e->fab->resv; q;
		     q = q->next) {
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
		q->next = e->fab->resv;
		e->fab->resv = q;
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
	l->attr_first = e->fab->link_attr_first;
	l->attr_count = e->fab->link_attr_count;
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

void fabric_adopt_links(struct elab *e, uint32_t fab, const uint32_t *ed,
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
	if (e->fab->ix_seen_n < d->nobjs) {
		e->fab->ix_seen =
		    xrealloc(e->fab->ix_seen, (size_t)d->nobjs + 1);
		memset(e->fab->ix_seen + e->fab->ix_seen_n, 0,
		       (size_t)d->nobjs + 1 - e->fab->ix_seen_n);
		e->fab->ix_seen_n = d->nobjs + 1;
	}
	seen = e->fab->ix_seen;
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

uint32_t fabric_switch_part(struct elab *e, uint32_t fab, uint32_t key)
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
 * step changes the spine count to S_k = fabric_spines_for(k*nrails*U) (P ports
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
uint32_t fabric_spines_for(uint64_t need, uint32_t U, uint32_t P)
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
 * and, in src/fabric/fabric_tiers.c, the spines of three and four tiers.
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
		sk[k] = Sfix ? Sfix
			     : fabric_spines_for((uint64_t)(k + 1) * rails * Uf,
						 Uf, P);
	S = fabric_deal_uplinks(&dl, up_s, up_p);
	free(sk);
	return S;
}

uint64_t fabric_ft_name(const struct ft_plane *fp, uint32_t i)
{
	return (uint64_t)i * fp->nplanes + fp->plane;
}

uint32_t fabric_ft_plane_take(const struct ft_plane *fp, uint32_t **ed,
			      uint32_t **ep)
{
	uint32_t a = fp->poff[fp->plane], k = fp->poff[fp->plane + 1] - a;

	*ed = xmalloc(((size_t)k + 1) * sizeof(**ed));
	*ep = xmalloc(((size_t)k + 1) * sizeof(**ep));
	memcpy(*ed, fp->ped + a, (size_t)k * sizeof(**ed));
	memcpy(*ep, fp->pep + a, (size_t)k * sizeof(**ep));
	return k;
}
