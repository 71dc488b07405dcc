/* SPDX-License-Identifier: MIT */
/*
 * Fabric expansion, the dispatcher: expand each `fabric` into switches and
 * explicit links in the IR, once names are resolved and before any check
 * runs.  Generated switches are children of their fabric (named
 * FABRIC.leaf[i], .spine[i], .core[i], .sw[i]) and generated links carry
 * the fabric's id, so checks and back ends treat them exactly like
 * hand-written ones.  Each generator is a leaf of this file: the fat tree
 * (fabric_fattree.c, in planes: fabric_planes.c, above three tiers:
 * fabric_tiers.c); all share the building blocks of fabric_build.c
 * (placement, new switches and links, endpoints, dealing uplinks), which
 * call none of them.
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
		fabric_switch_ports(e, d->objs[d->vals[mv->a + i].a].part, nvl,
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
		fabric_adopt_links(e, fab, ed, ep, ne);
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
	fabric_switch_ports(e, sw, 0, &lp);
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
	e->fab->link_attr_first = first;
	e->fab->link_attr_count = d->nattrs - first;
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
	struct fabric_state fs = { 0 };

	e->fab = &fs;

	for (uint32_t i = 0; i < n; i++)
		left += e->d->objs[i].kind == K_FABRIC;
	while (left && progress && !e->stopped) {
		progress = false;
		for (uint32_t i = 0; i < n && !e->stopped; i++) {
			if (e->d->objs[i].kind != K_FABRIC || done[i] ||
			    resolve_fabric_waits_for(e, i, done, NULL) !=
				RK_NONE)
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
		f = resolve_fabric_waits_for(e, i, done, &loc);
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
	free(fs.ix_link_head);
	free(fs.ix_link_next);
	free(fs.ix_dev_head);
	free(fs.ix_dev_next);
	free(fs.ix_seen);
	e->fab = NULL;
}
