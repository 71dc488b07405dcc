/* SPDX-License-Identifier: MIT */
/*
 * Fabric graphs and the derived figures that checks, requirements and the
 * report share (see metrics.h); the max-flow they use is in maxflow.c.
 */
#include "rackc.h"
#include "arith.h"

#include <stdio.h>
#include <stdlib.h>

#include "fabric.h"
#include "layout.h"
#include "cableplan.h"
#include "cablelabel.h"
#include "metrics.h"
#include "maxflow.h"
#include "bisect.h"
#include "schema.h"

/* ---- fabric graphs ---- */

int64_t metrics_link_rate(const struct rk_design *d, const struct rk_link *l)
{
	int64_t a = ir_num(d, l->a_port, A_SPEED, 0);
	int64_t b = ir_num(d, l->b_port, A_SPEED, 0);

	if (!a)
		return b;
	if (!b)
		return a;
	return a < b ? a : b;
}

const char *metrics_bisect_method_name(enum bisect_method m)
{
	switch (m) {
	case BISECT_EXACT:
		return "exact";
	case BISECT_BOUNDS:
		return "bounds";
	default:
		return "none";
	}
}

void metrics_bisection_method(const struct fabric_metrics *m, char *buf,
			      size_t n)
{
	if (m->method == BISECT_EXACT && m->lower_how == BH_FLOW)
		snprintf(buf, n, "exact: %s meets %s",
			 bisect_how_name(m->lower_how),
			 bisect_how_name(m->upper_how));
	else if (m->method == BISECT_EXACT)
		snprintf(buf, n, "exact: %s",
			 bisect_how_name(m->lower_how == BH_TREE_FLOW ||
						 m->lower_how == BH_BNB_PART
					     ? m->upper_how
					     : m->lower_how));
	else if (m->method == BISECT_BOUNDS)
		snprintf(buf, n, "lower bound: %s; upper bound: %s",
			 bisect_how_name(m->lower_how),
			 bisect_how_name(m->upper_how));
	else
		snprintf(buf, n, "none (fewer than two endpoint devices)");
	if (m->parts > 1 && m->method != BISECT_NONE) {
		size_t len = strlen(buf);

		if (len < n)
			snprintf(buf + len, n - len,
				 "; per plane over every terminal, %u planes "
				 "added up",
				 m->parts);
	}
}

void metrics_device_name(const struct rk_design *d,
			 const struct fabric_metrics *m, uint32_t k, char *buf,
			 size_t n)
{
	if (m->dev_comp[k] == RK_NONE)
		snprintf(buf, n, "%s", ir_name(d, m->dev_obj[k]));
	else
		snprintf(buf, n, "%s.%s", ir_name(d, m->dev_obj[k]),
			 str_of(d->arena, d->objs[m->dev_comp[k]].local));
}

/* One level of --explain: the interval, method, full bisection and the
 * split that cuts the upper bound (@pre: "" or "node ") */
static void explain_level(FILE *fp, const struct rk_design *d,
			  const struct fabric_metrics *m, const char *pre)
{
	char how[240], name[200];

	metrics_bisection_method(m, how, sizeof(how));
	if (m->method == BISECT_NONE) {
		fprintf(fp, "  %sbisection: n/a (%s)\n", pre, how);
		return;
	}
	if (m->method == BISECT_EXACT)
		fprintf(fp, "  %sbisection: %lld b/s per direction\n", pre,
			(long long)m->bisection);
	else
		fprintf(fp,
			"  %sbisection: at least %lld b/s, at most %lld "
			"b/s per direction\n",
			pre, (long long)m->bisection,
			(long long)m->bisection_upper);
	fprintf(fp,
		"  %smethod: %s\n"
		"  %sfull bisection: %lld b/s\n"
		"  the %ssplit that cuts %lld b/s:\n",
		pre, how, pre, (long long)m->full_bisection, pre,
		(long long)m->bisection_upper);
	for (int s = 1; s <= 2; s++) {
		uint32_t n = 0;

		for (uint32_t k = 0; k < m->devices; k++)
			n += m->witness[k] == s;
		fprintf(fp, "    %sside %c (%u):", pre, s == 1 ? 'A' : 'B', n);
		for (uint32_t k = 0; k < m->devices; k++) {
			if (m->witness[k] != s)
				continue;
			metrics_device_name(d, m, k, name, sizeof(name));
			fprintf(fp, " %s", name);
		}
		fputc('\n', fp);
	}
}

void metrics_explain_one(FILE *fp, const struct rk_design *d, uint32_t f,
			 const struct fabric_metrics *m)
{
	struct fabric_metrics node;

	fprintf(fp, "fabric %s: %u endpoint devices\n", ir_name(d, f),
		m->devices);
	explain_level(fp, d, m, "");
	metrics_node_view(m, &node);
	fprintf(fp, "  node level: %u nodes\n", node.devices);
	explain_level(fp, d, &node, "node ");
}

void metrics_free(struct fabric_metrics *m)
{
	free(m->witness);
	free(m->dev_obj);
	free(m->dev_comp);
	free(m->node.witness);
	free(m->node.dev_obj);
	free(m->node.dev_comp);
	memset(&m->node, 0, sizeof(m->node));
	m->witness = NULL;
	m->dev_obj = m->dev_comp = NULL;
}

/* (dev, port) -> endpoint index: open addressing on 64-bit keys */
struct ephash {
	uint64_t *keys;
	uint32_t *vals;
	uint32_t cap;
};

static void eph_init(struct ephash *h, uint32_t n)
{
	h->cap = 16;
	while (h->cap < 2 * n + 2)
		h->cap *= 2;
	h->keys = xcalloc(h->cap, sizeof(*h->keys));
	h->vals = xcalloc(h->cap, sizeof(*h->vals));
}

static uint32_t eph_get(const struct ephash *h, uint32_t dev, uint32_t port)
{
	uint64_t k = ((uint64_t)dev << 32 | port) + 1;

	for (uint32_t i = (uint32_t)hash_mix64(k) & (h->cap - 1); h->keys[i];
	     i = (i + 1) & (h->cap - 1))
		if (h->keys[i] == k)
			return h->vals[i];
	return RK_NONE;
}

static bool eph_put(struct ephash *h, uint32_t dev, uint32_t port, uint32_t val)
{
	uint64_t k = ((uint64_t)dev << 32 | port) + 1;
	uint32_t i;

	for (i = (uint32_t)hash_mix64(k) & (h->cap - 1); h->keys[i];
	     i = (i + 1) & (h->cap - 1))
		if (h->keys[i] == k)
			return false;
	h->keys[i] = k;
	h->vals[i] = val;
	return true;
}

struct fgraph {
	uint32_t ne; /* endpoint vertices 0..ne-1 */
	uint32_t nv; /* all vertices */
	uint32_t *ep_dev, *ep_port;
	uint32_t *vdev;	 /* vertex -> device (switches) */
	uint32_t *u, *v; /* edges */
	int64_t *cap;
	uint32_t *elink; /* edge -> link */
	uint32_t nedges, ecap;
	uint32_t *tier;	    /* per vertex: 0 endpoint, 1 leaf, ... */
	uint32_t *first_sw; /* per endpoint: vertex of its switch */
	bool generated_only;
};

/* Room for @cap edges. */
static void fg_reserve(struct fgraph *g, uint32_t cap)
{
	g->ecap = cap;
	g->u = xrealloc(g->u, g->ecap * sizeof(*g->u));
	g->v = xrealloc(g->v, g->ecap * sizeof(*g->v));
	g->cap = xrealloc(g->cap, g->ecap * sizeof(*g->cap));
	g->elink = xrealloc(g->elink, g->ecap * sizeof(*g->elink));
}

static void fg_edge(struct fgraph *g, uint32_t a, uint32_t b, int64_t c,
		    uint32_t link)
{
	if (g->nedges == g->ecap)
		fg_reserve(g, g->ecap ? g->ecap * 2 : 256);
	g->u[g->nedges] = a;
	g->v[g->nedges] = b;
	g->cap[g->nedges] = c;
	g->elink[g->nedges] = link;
	g->nedges++;
}

/* Room for more switch vertices (vdev, tier and the BFS queue). */
static void fg_grow(struct fgraph *g, uint32_t **queue, uint32_t *vcap)
{
	*vcap *= 2;
	g->vdev = xrealloc(g->vdev, *vcap * sizeof(*g->vdev));
	g->tier = xrealloc(g->tier, *vcap * sizeof(*g->tier));
	*queue = xrealloc(*queue, *vcap * sizeof(**queue));
}

static void fg_free(struct fgraph *g)
{
	free(g->ep_dev);
	free(g->ep_port);
	free(g->vdev);
	free(g->u);
	free(g->v);
	free(g->cap);
	free(g->elink);
	free(g->tier);
	free(g->first_sw);
}

/*
 * What every fabric graph of a design shares: the links by device, and
 * scratch maps over all objects and links that each build leaves as it
 * found them (all RK_NONE, all 0), so that building the graph of one
 * fabric costs its own size, not the design's: a design with thousands of
 * small fabrics (a management star per rack) stays linear.
 */
struct fg_shared {
	uint32_t *adj_off, *adj; /* ir_link_index */
	uint32_t *vert_of;	 /* object -> graph vertex, RK_NONE */
	uint8_t *used;		 /* link -> taken by this graph */
	uint32_t *ep_head; /* object -> its first endpoint in this graph */
};

struct fg_shared *metrics_shared_new(const struct rk_design *d)
{
	struct fg_shared *sh = xmalloc(sizeof(*sh));

	ir_link_index(d, &sh->adj_off, &sh->adj);
	sh->vert_of = xmalloc(((size_t)d->nobjs + 1) * sizeof(*sh->vert_of));
	memset(sh->vert_of, 0xff,
	       ((size_t)d->nobjs + 1) * sizeof(*sh->vert_of));
	sh->used = xcalloc((size_t)d->nlinks + 1, 1);
	sh->ep_head = xmalloc(((size_t)d->nobjs + 1) * sizeof(*sh->ep_head));
	memset(sh->ep_head, 0xff,
	       ((size_t)d->nobjs + 1) * sizeof(*sh->ep_head));
	return sh;
}

void metrics_shared_free(struct fg_shared *sh)
{
	if (!sh)
		return;
	free(sh->adj_off);
	free(sh->adj);
	free(sh->vert_of);
	free(sh->used);
	free(sh->ep_head);
	free(sh);
}

/* What fg_build()'s phases share. */
struct fg_work {
	const struct rk_design *d;
	uint32_t fab;
	struct fgraph *g;
	struct fg_shared *sh;
	struct ephash h;		 /* (dev, port) -> endpoint index */
	uint32_t *queue, qh, qt, vcap;	 /* switches to visit; vertex room */
	uint32_t *marked, nmarked, mcap; /* the links set in sh->used */
};

/*
 * The fabric's endpoints, each (device, port) once, in the order it names
 * them; *@declared: the count its endpoints attributes declare.
 */
static void fg_endpoints(struct fg_work *w, uint32_t *declared)
{
	const struct rk_design *d = w->d;
	const struct rk_obj *o = &d->objs[w->fab];
	struct fgraph *g = w->g;
	struct ir_ep_cursor ec = { 0, 0 };

	*declared = 0;
	for (uint32_t k = 0; k < o->attr_count; k++) {
		const struct rk_attr *at = &d->attrs[o->attr_first + k];

		if (at->key == A_ENDPOINTS)
			*declared += (uint32_t)at->val.n;
	}
	eph_init(&w->h, *declared);
	g->ep_dev = xmalloc((*declared + 1) * sizeof(*g->ep_dev));
	g->ep_port = xmalloc((*declared + 1) * sizeof(*g->ep_port));
	for (const struct rk_value *v;
	     (v = ir_next_endpoint(d, w->fab, &ec));) {
		if (!eph_put(&w->h, v->a, (uint32_t)v->n, g->ne))
			continue; /* named twice */
		g->ep_dev[g->ne] = v->a;
		g->ep_port[g->ne] = (uint32_t)v->n;
		g->ne++;
	}
}

/*
 * Room for the edges and the vertices, the endpoints as the first
 * vertices, and each device's first endpoint in sh->ep_head.
 */
static void fg_alloc(struct fg_work *w)
{
	struct fgraph *g = w->g;

	/* a fat tree of three tiers has about three edges per endpoint: make
	 * room for four at once (pages never written cost nothing); an edge
	 * is a link, so never more than the design's links */
	fg_reserve(g, (uint32_t)((uint64_t)4 * g->ne + 256 < w->d->nlinks + 1ull
				     ? 4 * (uint64_t)g->ne + 256
				     : w->d->nlinks + 1ull));
	w->vcap = g->ne + 16;
	g->vdev = xmalloc(w->vcap * sizeof(*g->vdev));
	g->tier = xcalloc(w->vcap, sizeof(*g->tier));
	g->first_sw = xmalloc((g->ne + 1) * sizeof(*g->first_sw));
	memset(g->first_sw, 0xff, (g->ne + 1) * sizeof(*g->first_sw));
	for (uint32_t i = 0; i < g->ne; i++)
		g->vdev[i] = g->ep_dev[i];
	g->nv = g->ne;
	/* at most one entry per switch vertex, which vdev counts */
	w->queue = xmalloc(w->vcap * sizeof(*w->queue));
	for (uint32_t e = g->ne; e-- > 0;)
		w->sh->ep_head[g->ep_dev[e]] = e;
}

/* Link @li (a link of the fabric's, not yet taken) taken into the graph. */
static inline void fg_take(struct fg_work *w, uint32_t li,
			   const struct rk_link *l)
{
	w->sh->used[li] = 1;
	*VEC_PUSH(w->marked, w->nmarked, w->mcap) = li;
	if (!l->generated)
		w->g->generated_only = false;
}

/* The vertex of switch @sw: a new one at @tier, queued, when it has none. */
static inline uint32_t fg_switch_vertex(struct fg_work *w, uint32_t sw,
					uint32_t tier)
{
	struct fgraph *g = w->g;
	uint32_t *vert_of = w->sh->vert_of;

	if (vert_of[sw] == RK_NONE) {
		if (g->nv == w->vcap)
			fg_grow(g, &w->queue, &w->vcap);
		vert_of[sw] = g->nv;
		g->vdev[g->nv] = sw;
		g->tier[g->nv] = tier;
		g->nv++;
		w->queue[w->qt++] = sw;
	}
	return vert_of[sw];
}

/*
 * The endpoints' links, device by device (each device's links read once,
 * not once per endpoint port); a link belongs to the device's first
 * endpoint on either of its ends.  The switches met are the leaves.
 */
static void fg_endpoint_links(struct fg_work *w)
{
	const struct rk_design *d = w->d;
	struct fgraph *g = w->g;
	const struct fg_shared *sh = w->sh;
	const uint32_t *adj_off = sh->adj_off, *adj = sh->adj;
	const uint8_t *used = sh->used;

	for (uint32_t e0 = 0; e0 < g->ne; e0++) {
		uint32_t dev = g->ep_dev[e0];

		if (sh->ep_head[dev] != e0)
			continue; /* the device was done at its first endpoint */
		for (uint32_t k = adj_off[dev]; k < adj_off[dev + 1]; k++) {
			const struct rk_link *l;
			bool a_side;
			uint32_t e, od, op, ov;

			if (used[adj[k]])
				continue;
			l = &d->links[adj[k]];
			/* a fabric's graph holds its own links only */
			if (l->fabric != w->fab)
				continue;
			/*
			 * the device's endpoint on either end, looked up (a
			 * walk of the device's endpoints per link cost ports
			 * x links on a server of thousands of planes); on a
			 * link between two of them, the first endpoint's end
			 */
			{
				uint32_t ea = l->a_dev == dev
						  ? eph_get(&w->h, dev,
							    l->a_port)
						  : RK_NONE,
					 eb = l->b_dev == dev
						  ? eph_get(&w->h, dev,
							    l->b_port)
						  : RK_NONE;

				e = ea < eb ? ea : eb;
				if (e == RK_NONE)
					continue;
				a_side = e == ea;
			}
			fg_take(w, adj[k], l);
			od = a_side ? l->b_dev : l->a_dev;
			op = a_side ? l->b_port : l->a_port;
			/* most far ends (switches) have no endpoint at all */
			ov = sh->ep_head[od] != RK_NONE ? eph_get(&w->h, od, op)
							: RK_NONE;
			if (ov == RK_NONE) {
				if (d->objs[od].cls != C_SWITCH)
					continue;
				ov = fg_switch_vertex(w, od, 1);
				if (g->first_sw[e] == RK_NONE)
					g->first_sw[e] = ov;
			}
			fg_edge(g, e, ov, metrics_link_rate(d, l), adj[k]);
		}
	}
}

/* Breadth first from the leaves: the links between switches, each tier
 * one above the switch it was reached from. */
static void fg_switch_links(struct fg_work *w)
{
	const struct rk_design *d = w->d;
	struct fgraph *g = w->g;
	const struct fg_shared *sh = w->sh;
	const uint32_t *adj_off = sh->adj_off, *adj = sh->adj;
	const uint8_t *used = sh->used;

	while (w->qh < w->qt) {
		uint32_t sw = w->queue[w->qh++], sv = sh->vert_of[sw];

		for (uint32_t k = adj_off[sw]; k < adj_off[sw + 1]; k++) {
			const struct rk_link *l;
			uint32_t od, ov;

			/* every link on an endpoint port was taken above, and
			 * a link down from here was taken from below (tested
			 * first: the link record is a cache miss) */
			if (used[adj[k]])
				continue;
			l = &d->links[adj[k]];
			if (l->fabric != w->fab)
				continue;
			od = l->a_dev == sw ? l->b_dev : l->a_dev;
			if (d->objs[od].cls != C_SWITCH)
				continue;
			fg_take(w, adj[k], l);
			ov = fg_switch_vertex(w, od, g->tier[sv] + 1);
			fg_edge(g, sv, ov, metrics_link_rate(d, l), adj[k]);
		}
	}
}

/* The shared maps left as they were found; the working arrays freed. */
static void fg_release(struct fg_work *w)
{
	const struct fgraph *g = w->g;
	struct fg_shared *sh = w->sh;

	for (uint32_t v = g->ne; v < g->nv; v++)
		sh->vert_of[g->vdev[v]] = RK_NONE;
	for (uint32_t i = 0; i < w->nmarked; i++)
		sh->used[w->marked[i]] = 0;
	for (uint32_t e = 0; e < g->ne; e++)
		sh->ep_head[g->ep_dev[e]] = RK_NONE;
	free(w->marked);
	free(w->queue);
	free(w->h.keys);
	free(w->h.vals);
}

static void fg_build(const struct rk_design *d, uint32_t fab, struct fgraph *g,
		     uint32_t *declared, struct fg_shared *sh)
{
	struct fg_work w = { .d = d, .fab = fab, .g = g, .sh = sh };

	memset(g, 0, sizeof(*g));
	g->generated_only = true;
	fg_endpoints(&w, declared);
	fg_alloc(&w);
	fg_endpoint_links(&w);
	fg_switch_links(&w);
	fg_release(&w);
}

/*
 * The endpoints ordered by (key, index): a stable LSD radix sort on the
 * 64-bit keys, a byte per pass, skipping the bytes all keys share (most
 * keys are "group << 32 | index", so half the passes go).
 */
static uint32_t *order_by(uint32_t n, const uint64_t *keys)
{
	uint32_t *o = xmalloc((n + 1) * sizeof(*o));
	uint32_t *t = xmalloc((n + 1) * sizeof(*t));
	uint64_t same = ~(uint64_t)0, first = n ? keys[0] : 0;

	for (uint32_t i = 0; i < n; i++) {
		o[i] = i;
		same &= ~(keys[i] ^ first);
	}
	for (unsigned shift = 0; shift < 64; shift += 8) {
		uint32_t count[257] = { 0 };

		if (((same >> shift) & 0xff) == 0xff)
			continue; /* this byte is the same in every key */
		for (uint32_t i = 0; i < n; i++)
			count[((keys[o[i]] >> shift) & 0xff) + 1]++;
		for (unsigned b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (uint32_t i = 0; i < n; i++)
			t[count[(keys[o[i]] >> shift) & 0xff]++] = o[i];
		{
			uint32_t *x = o;

			o = t;
			t = x;
		}
	}
	free(t);
	return o;
}

/*
 * The component of @dev's part that lists @port among its `ports` (a NIC,
 * or a GPU with its NVLink ports), RK_NONE when none does: the endpoint
 * device is then the device itself.  @cache keeps the last part's list.
 */
struct owner_cache {
	uint32_t part, n, cap;
	uint32_t *port, *comp;
};

static uint32_t endpoint_owner(const struct rk_design *d, uint32_t dev,
			       uint32_t port, struct owner_cache *oc)
{
	uint32_t part = d->objs[dev].part;

	if (part == RK_NONE)
		return RK_NONE;
	if (part != oc->part) {
		uint32_t chain[RK_MAX_PART_DEPTH + 1];
		uint32_t nc = ir_part_chain(d, part, chain);

		oc->part = part;
		oc->n = 0;
		while (nc--)
			for_each_child(d, chain[nc], c) {
				const struct rk_value *pv;

				if (d->objs[c].kind != K_COMP ||
				    !ir_member_effective(d, part, c))
					continue;
				pv = ir_attr_inh(d, c, A_PORTS);
				for (uint32_t k = 0;
				     pv && pv->type == VT_LIST &&
				     k < (uint32_t)pv->n;
				     k++) {
					const struct rk_value *e =
					    ir_list_at(d, pv, k);

					if (e->type != VT_PORT)
						continue;
					if (oc->n == oc->cap) {
						oc->cap =
						    oc->cap ? 2 * oc->cap : 16;
						oc->port = xrealloc(
						    oc->port,
						    oc->cap *
							sizeof(*oc->port));
						oc->comp = xrealloc(
						    oc->comp,
						    oc->cap *
							sizeof(*oc->comp));
					}
					oc->port[oc->n] = (uint32_t)e->n;
					oc->comp[oc->n++] = c;
				}
			}
	}
	for (uint32_t i = 0; i < oc->n; i++)
		if (oc->port[i] == port)
			return oc->comp[i];
	return RK_NONE;
}

static int cmp_i64(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* the two levels of doc/language.md §9.11 */
enum level { LV_ENDPOINT, LV_NODE };

/*
 * The terminals of a fabric at level @lv.  The endpoint level: a linked
 * endpoint port belongs to the component of its device's part that lists
 * it (a NIC, an HCA, a GPU with its NVLink ports); a port that no
 * component claims is a terminal of its own (no forwarding inside a device
 * is assumed, so the figure is the same however the part was written),
 * except on a switch, which forwards between its ports and is one
 * terminal.  The node level: every device with a linked endpoint port is
 * one terminal.  A switch of the graph that is itself a terminal (a switch
 * whose port is listed as an endpoint) is one vertex with it.
 *
 * dev_of[e] (g->ne entries): endpoint e's terminal (RK_NONE: no link);
 * sw_of[v - g->ne]: the terminal that switch vertex v is (RK_NONE: none);
 * dev_obj and dev_comp (g->ne + 1 entries each) name the terminals.
 * Returns their count.
 */
static uint32_t level_terminals(const struct rk_design *d,
				const struct fgraph *g, enum level lv,
				uint32_t *dev_of, uint32_t *sw_of,
				uint32_t *dev_obj, uint32_t *dev_comp)
{
	struct ephash h;
	struct owner_cache oc = { RK_NONE, 0, 0, NULL, NULL };
	uint8_t *linked = xcalloc((size_t)g->ne + 1, 1);
	uint32_t nd = 0;

	for (uint32_t i = 0; i < g->nedges; i++) {
		if (g->u[i] < g->ne)
			linked[g->u[i]] = 1;
		if (g->v[i] < g->ne)
			linked[g->v[i]] = 1;
	}
	eph_init(&h, g->ne);
	for (uint32_t e = 0; e < g->ne; e++) {
		uint32_t dev = g->ep_dev[e], key = RK_NONE, k;

		dev_of[e] = RK_NONE;
		if (!linked[e])
			continue;
		if (lv == LV_ENDPOINT && d->objs[dev].cls != C_SWITCH) {
			key = endpoint_owner(d, dev, g->ep_port[e], &oc);
			if (key == RK_NONE)
				key = g->ep_port[e];
		}
		k = eph_get(&h, dev, key);
		if (k == RK_NONE) {
			k = nd++;
			eph_put(&h, dev, key, k);
			dev_obj[k] = dev;
			dev_comp[k] = key;
		}
		dev_of[e] = k;
	}
	for (uint32_t v = g->ne; v < g->nv; v++)
		sw_of[v - g->ne] = eph_get(&h, g->vdev[v], RK_NONE);
	free(oc.port);
	free(oc.comp);
	free(h.keys);
	free(h.vals);
	free(linked);
	return nd;
}

static uint32_t uf_find(uint32_t *up, uint32_t x)
{
	while (up[x] != x)
		x = up[x] = up[up[x]];
	return x;
}

/* the work a knapsack over the parts' sizes may take */
#define DISJOINT_MAX_WORK 100000000ull

/*
 * A fabric that falls apart into parts sharing nothing (the planes of a
 * `planes N` fat tree at the endpoint level): when whole parts can make a
 * half of floor(nd/2) terminals, that split cuts no link, and the
 * bisection is exactly 0.  A bounded knapsack over the distinct part
 * sizes finds such a choice (about sizes x nd / 2 steps, declined beyond
 * DISJOINT_MAX_WORK).  Returns false when there is no such split (or it
 * was not sought).
 */
static bool solve_disjoint(const struct bgraph *bg, struct bisect_result *r)
{
	uint32_t nd = bg->nd, k = nd / 2, nparts = 0, nclass = 0;
	uint32_t *up = xmalloc(((size_t)bg->nv + 1) * sizeof(*up));
	uint32_t *cnt = xcalloc((size_t)bg->nv + 1, sizeof(*cnt));
	uint64_t *key = NULL;
	uint32_t *csize = NULL, *cmany = NULL, *take = NULL, *by = NULL;
	uint32_t *used = NULL;
	uint8_t *reach = NULL, *pick = NULL;
	bool ok = false;

	for (uint32_t x = 0; x < bg->nv; x++)
		up[x] = x;
	for (uint32_t i = 0; i < bg->ne; i++)
		if (bg->cap[i] > 0)
			up[uf_find(up, bg->u[i])] = uf_find(up, bg->v[i]);
	for (uint32_t t = 0; t < nd; t++)
		if (cnt[uf_find(up, t)]++ == 0)
			nparts++;
	if (nparts < 2)
		goto out;
	/* the parts by size: key = size << 32 | root */
	key = xmalloc(((size_t)nparts + 1) * sizeof(*key));
	nparts = 0;
	for (uint32_t x = 0; x < bg->nv; x++)
		if (cnt[x] && up[x] == x)
			key[nparts++] = (uint64_t)cnt[x] << 32 | x;
	{
		uint32_t *o = order_by(nparts, key);
		uint64_t *s = xmalloc(((size_t)nparts + 1) * sizeof(*s));

		for (uint32_t i = 0; i < nparts; i++)
			s[i] = key[o[i]];
		free(key);
		free(o);
		key = s;
	}
	csize = xmalloc(((size_t)nparts + 1) * sizeof(*csize));
	cmany = xcalloc((size_t)nparts + 1, sizeof(*cmany));
	for (uint32_t i = 0; i < nparts; i++) {
		uint32_t s = (uint32_t)(key[i] >> 32);

		if (!nclass || csize[nclass - 1] != s)
			csize[nclass++] = s;
		cmany[nclass - 1]++;
	}
	if ((uint64_t)nclass * ((uint64_t)k + 1) > DISJOINT_MAX_WORK)
		goto out;
	reach = xcalloc((size_t)k + 1, 1);
	used = xmalloc(((size_t)k + 1) * sizeof(*used));
	by = xmalloc(((size_t)k + 1) * sizeof(*by));
	reach[0] = 1;
	for (uint32_t c = 0; c < nclass; c++) {
		uint32_t s = csize[c];

		memset(used, 0, ((size_t)k + 1) * sizeof(*used));
		for (uint32_t x = s; x <= k; x++)
			if (!reach[x] && reach[x - s] &&
			    used[x - s] < cmany[c]) {
				reach[x] = 1;
				used[x] = used[x - s] + 1;
				by[x] = c;
			}
	}
	if (!reach[k])
		goto out;
	/* the parts taken: by[] walks back through the classes */
	take = xcalloc((size_t)nclass + 1, sizeof(*take));
	for (uint32_t x = k; x > 0; x -= csize[by[x]])
		take[by[x]]++;
	pick = xcalloc((size_t)bg->nv + 1, 1);
	for (uint32_t i = 0, c = 0; i < nparts; i++) {
		uint32_t s = (uint32_t)(key[i] >> 32);

		while (csize[c] != s)
			c++;
		if (take[c]) {
			take[c]--;
			pick[(uint32_t)key[i]] = 1;
		}
	}
	r->witness = xmalloc(nd);
	for (uint32_t t = 0; t < nd; t++)
		r->witness[t] = pick[uf_find(up, t)] ? 1 : 2;
	r->lower = r->upper = 0;
	r->lower_how = r->upper_how = BH_DISJOINT;
	ok = true;
out:
	free(up);
	free(cnt);
	free(key);
	free(csize);
	free(cmany);
	free(take);
	free(by);
	free(used);
	free(reach);
	free(pick);
	return ok;
}

/* island witnesses whose cut over the whole fabric is tried */
#define ISLAND_MAX_WITNESSES 4

/*
 * Island @s's edges (eidx[eoff[s]..eoff[s + 1]]) as a graph of its own:
 * the terminals 0..nd-1 as they are, its switches numbered from nd in
 * the order of their first edge (@vmap: scratch over the vertices), its
 * edges into @su, @sv, @sc (*@ne of them).  Returns its vertex count.
 */
static uint32_t island_graph(const struct bgraph *bg, const uint32_t *eoff,
			     const uint32_t *eidx, uint32_t s, uint32_t *vmap,
			     uint32_t *su, uint32_t *sv, int64_t *sc,
			     uint32_t *ne)
{
	const uint32_t nd = bg->nd;
	uint32_t nv = nd;

	*ne = 0;
	for (uint32_t k = eoff[s]; k < eoff[s + 1]; k++) {
		uint32_t i = eidx[k];

		if (bg->u[i] >= nd)
			vmap[bg->u[i]] = RK_NONE;
		if (bg->v[i] >= nd)
			vmap[bg->v[i]] = RK_NONE;
	}
	for (uint32_t k = eoff[s]; k < eoff[s + 1]; k++) {
		uint32_t i = eidx[k];

		if (vmap[bg->u[i]] == RK_NONE)
			vmap[bg->u[i]] = nv++;
		if (vmap[bg->v[i]] == RK_NONE)
			vmap[bg->v[i]] = nv++;
		su[*ne] = vmap[bg->u[i]];
		sv[*ne] = vmap[bg->v[i]];
		sc[(*ne)++] = bg->cap[i];
	}
	return nv;
}

/* What solve_islands()'s phases share. */
struct islands {
	const struct bgraph *bg;
	uint32_t nd, nsw, nisl;	  /* terminals, switches, islands */
	uint32_t *up, *isl;	  /* union-find; switch -> island */
	uint32_t *eoff, *eidx;	  /* each island's edges */
	uint32_t *vmap, *su, *sv; /* island_graph()'s scratch and edges */
	int64_t *sc;
	int64_t *ilow, *iup; /* each island's bounds */
	uint8_t **iw, *side; /* each island's witness; a split's sides */
};

/*
 * The islands: switches joined by switch links, numbered in the order of
 * their edges to a terminal.  False unless there are two or more and
 * every switch is on one that a terminal reaches.
 */
static bool isl_find(struct islands *is)
{
	const struct bgraph *bg = is->bg;
	const uint32_t nd = is->nd, nsw = is->nsw;
	uint32_t *up, *isl;

	up = is->up = xmalloc(((size_t)nsw + 1) * sizeof(*up));
	isl = is->isl = xmalloc(((size_t)nsw + 1) * sizeof(*isl));
	for (uint32_t x = 0; x < nsw; x++) {
		up[x] = x;
		isl[x] = RK_NONE;
	}
	for (uint32_t i = 0; i < bg->ne; i++)
		if (bg->u[i] >= nd && bg->v[i] >= nd)
			up[uf_find(up, bg->u[i] - nd)] =
			    uf_find(up, bg->v[i] - nd);
	/* islands that meet a terminal, numbered in order of their edges */
	for (uint32_t i = 0; i < bg->ne; i++) {
		uint32_t s = bg->u[i] < nd ? bg->v[i] : bg->u[i];

		if (bg->u[i] >= nd && bg->v[i] >= nd)
			continue;
		s = uf_find(up, s - nd);
		if (isl[s] == RK_NONE)
			isl[s] = is->nisl++;
	}
	if (is->nisl < 2)
		return false;
	for (uint32_t x = 0; x < nsw; x++) {
		isl[x] = isl[uf_find(up, x)];
		if (isl[x] == RK_NONE)
			return false; /* switches no terminal reaches */
	}
	return true;
}

/* Whether every island meets every terminal. */
static bool isl_meet_all(const struct islands *is)
{
	const struct bgraph *bg = is->bg;
	const uint32_t nd = is->nd, nisl = is->nisl;
	const uint32_t *isl = is->isl;
	uint32_t *stamp, *meet, *toff, *tedge, *at;
	bool ok = true;

	stamp = xmalloc(((size_t)nisl + 1) * sizeof(*stamp));
	meet = xcalloc((size_t)nisl + 1, sizeof(*meet));
	memset(stamp, 0xff, ((size_t)nisl + 1) * sizeof(*stamp));
	/* each terminal's edges */
	toff = xcalloc((size_t)nd + 2, sizeof(*toff));
	tedge = xmalloc(((size_t)bg->ne + 1) * sizeof(*tedge));
	for (uint32_t i = 0; i < bg->ne; i++) {
		if (bg->u[i] < nd)
			toff[bg->u[i] + 1]++;
		else if (bg->v[i] < nd)
			toff[bg->v[i] + 1]++;
	}
	for (uint32_t t = 0; t < nd; t++)
		toff[t + 1] += toff[t];
	at = xmalloc(((size_t)nd + 1) * sizeof(*at));
	memcpy(at, toff, (size_t)nd * sizeof(*at));
	for (uint32_t i = 0; i < bg->ne; i++) {
		if (bg->u[i] < nd)
			tedge[at[bg->u[i]]++] = i;
		else if (bg->v[i] < nd)
			tedge[at[bg->v[i]]++] = i;
	}
	free(at);
	for (uint32_t t = 0; t < nd; t++)
		for (uint32_t k = toff[t]; k < toff[t + 1]; k++) {
			uint32_t i = tedge[k];
			uint32_t s =
			    isl[(bg->u[i] < nd ? bg->v[i] : bg->u[i]) - nd];

			if (stamp[s] != t) {
				stamp[s] = t;
				meet[s]++;
			}
		}
	for (uint32_t s = 0; s < nisl && ok; s++)
		ok = meet[s] == nd;
	free(stamp);
	free(meet);
	free(toff);
	free(tedge);
	return ok;
}

/* Each island's edges (eoff, eidx), and room for its graph and figures. */
static void isl_edges(struct islands *is)
{
	const struct bgraph *bg = is->bg;
	const uint32_t nd = is->nd, nisl = is->nisl;
	const uint32_t *isl = is->isl;
	uint32_t *eoff, *eidx, *at;

	eoff = is->eoff = xcalloc((size_t)nisl + 2, sizeof(*eoff));
	eidx = is->eidx = xmalloc(((size_t)bg->ne + 1) * sizeof(*eidx));
	for (uint32_t i = 0; i < bg->ne; i++)
		eoff[isl[(bg->u[i] < nd ? bg->v[i] : bg->u[i]) - nd] + 1]++;
	for (uint32_t s = 0; s < nisl; s++)
		eoff[s + 1] += eoff[s];
	at = xmalloc(((size_t)nisl + 1) * sizeof(*at));
	memcpy(at, eoff, (size_t)nisl * sizeof(*at));
	for (uint32_t i = 0; i < bg->ne; i++)
		eidx[at[isl[(bg->u[i] < nd ? bg->v[i] : bg->u[i]) - nd]]++] = i;
	free(at);
	is->vmap = xmalloc(((size_t)bg->nv + 1) * sizeof(*is->vmap));
	is->su = xmalloc(((size_t)bg->ne + 1) * sizeof(*is->su));
	is->sv = xmalloc(((size_t)bg->ne + 1) * sizeof(*is->sv));
	is->sc = xmalloc(((size_t)bg->ne + 1) * sizeof(*is->sc));
	is->ilow = xcalloc((size_t)nisl + 1, sizeof(*is->ilow));
	is->iup = xcalloc((size_t)nisl + 1, sizeof(*is->iup));
	is->iw = xcalloc((size_t)nisl + 1, sizeof(*is->iw));
	is->side = xcalloc((size_t)bg->nv + 1, 1);
	for (uint32_t t = 0; t < nd; t++)
		is->vmap[t] = t;
}

/*
 * Each island bisected over every terminal: its bounds and witness, and
 * @r's hows.  Returns the sum of their lower bounds (saturated).
 */
static int64_t isl_solve_each(struct islands *is, struct bisect_result *r)
{
	const struct bgraph *bg = is->bg;
	int64_t lower = 0;

	for (uint32_t s = 0; s < is->nisl; s++) {
		uint32_t ne,
		    nv = island_graph(bg, is->eoff, is->eidx, s, is->vmap,
				      is->su, is->sv, is->sc, &ne);
		struct bgraph sub;
		struct bisect_result pr;

		sub =
		    (struct bgraph){ is->nd, nv,     ne,	 is->su,
				     is->sv, is->sc, bg->orders, bg->norders };
		bisect_solve(&sub, &pr);
		is->ilow[s] = pr.lower;
		is->iup[s] = pr.upper;
		is->iw[s] = pr.witness;
		pr.witness = NULL;
		lower = q_add(lower, pr.lower, &lower) ? lower : INT64_MAX;
		/* the how of one island stands for all; where one is only
		 * bounded, that one's */
		if (s == 0 || pr.lower != pr.upper) {
			r->lower_how = pr.lower_how;
			r->upper_how = pr.upper_how;
		}
		bisect_result_free(&pr);
	}
	return lower;
}

/* The cut of island @w's witness over the whole fabric (saturated). */
static int64_t isl_witness_cut(struct islands *is, uint32_t w)
{
	const uint32_t nd = is->nd;
	uint8_t *const *iw = is->iw;
	int64_t total = 0;

	for (uint32_t s = 0; s < is->nisl; s++) {
		int64_t c;
		bool same = !memcmp(iw[s], iw[w], nd), flip = true;

		for (uint32_t t = 0; !same && flip && t < nd; t++)
			flip = iw[s][t] == 3 - iw[w][t];
		if (same || flip) {
			c = is->iup[s];
		} else {
			uint32_t ne, nv = island_graph(
					 is->bg, is->eoff, is->eidx, s,
					 is->vmap, is->su, is->sv, is->sc, &ne);

			memset(is->side, 0, nv);
			memcpy(is->side, iw[w], nd);
			c = maxflow_bipartition(nv, ne, is->su, is->sv, is->sc,
						is->side);
		}
		total = q_add(total, c, &total) ? total : INT64_MAX;
	}
	return total;
}

/*
 * The islands' witnesses, each cut in the whole fabric: the first
 * ISLAND_MAX_WITNESSES distinct ones.  A witness is compared with those
 * tried alone (an earlier one not tried equals one that was), so the scan
 * is linear in the islands, not quadratic.  Returns the least cut, its
 * island in *@best_w.
 */
static int64_t isl_best_witness(struct islands *is, uint32_t *best_w)
{
	uint32_t tried[ISLAND_MAX_WITNESSES], ntried = 0;
	int64_t best = -1;

	*best_w = 0;
	for (uint32_t w = 0; w < is->nisl && ntried < ISLAND_MAX_WITNESSES;
	     w++) {
		int64_t total;
		bool seen = false;

		for (uint32_t j = 0; j < ntried && !seen; j++)
			seen = !memcmp(is->iw[tried[j]], is->iw[w], is->nd);
		if (seen)
			continue;
		tried[ntried++] = w;
		total = isl_witness_cut(is, w);
		if (best < 0 || total < best) {
			best = total;
			*best_w = w;
		}
	}
	return best;
}

static void isl_free(struct islands *is)
{
	for (uint32_t s = 0; is->iw && s < is->nisl; s++)
		free(is->iw[s]);
	free(is->iw);
	free(is->up);
	free(is->isl);
	free(is->eoff);
	free(is->eidx);
	free(is->vmap);
	free(is->su);
	free(is->sv);
	free(is->sc);
	free(is->ilow);
	free(is->iup);
	free(is->side);
}

/*
 * The planes of a fabric that every terminal meets (a `planes N` fat tree
 * at the node level, where each server has ports on every plane): the
 * switches fall into islands that share no switch and no link, and no
 * terminal links another directly.  For any split, the least cut is then
 * the sum of each island's least cut (a switch's side is chosen within
 * its island), so the bisection is at least the sum of the islands'
 * bisections, each over all the terminals: a proven lower bound.  The
 * upper bound is the least total cut, by max-flow island by island, of
 * the islands' witness splits.  The figure is exact when they meet (the
 * planes are alike and one split is least on all).  Returns false when
 * the fabric is not of that shape.
 */
static bool solve_islands(const struct bgraph *bg, struct bisect_result *r,
			  uint32_t *parts)
{
	struct islands is = { .bg = bg, .nd = bg->nd, .nsw = bg->nv - bg->nd };
	int64_t lower, best;
	uint32_t best_w;
	bool ok = false;

	if (is.nsw < 2)
		return false;
	for (uint32_t i = 0; i < bg->ne; i++)
		if (bg->u[i] < is.nd && bg->v[i] < is.nd)
			return false; /* terminals linked directly */
	if (isl_find(&is) && isl_meet_all(&is)) {
		isl_edges(&is);
		memset(r, 0, sizeof(*r));
		lower = isl_solve_each(&is, r);
		best = isl_best_witness(&is, &best_w);
		r->upper = best;
		r->lower = lower < best ? lower : best;
		r->witness = xmalloc(is.nd);
		memcpy(r->witness, is.iw[best_w], is.nd);
		*parts = is.nisl;
		ok = true;
	}
	isl_free(&is);
	return ok;
}

/* The graph of one level's terminals that solve_level() bisects. */
struct level_graph {
	uint32_t nd, nv, ne; /* terminals, vertices, edges */
	uint32_t *vmap;	     /* fabric vertex -> vertex */
	uint32_t *eu, *ev;
	int64_t *ec;
	int64_t *inj; /* per terminal */
	uint32_t *orders[4], norders;
};

/* Level @like's figures (its terminals are these) copied into @out. */
static void level_copy(struct fabric_level *out,
		       const struct fabric_level *like)
{
	out->bisection = like->bisection;
	out->bisection_upper = like->bisection_upper;
	out->full_bisection = like->full_bisection;
	out->method = like->method;
	out->lower_how = like->lower_how;
	out->upper_how = like->upper_how;
	out->parts = like->parts;
	if (like->witness) {
		out->witness = xmalloc(out->devices);
		memcpy(out->witness, like->witness, out->devices);
	}
}

/*
 * The terminals (@dev_of per endpoint) as vertices 0..nd-1, the switches
 * no terminal holds (@sw_of) after them, the edges between two vertices
 * and each terminal's injection: its links to other vertices.
 */
static void level_edges(struct level_graph *lg, const struct fgraph *g,
			const uint32_t *dev_of, const uint32_t *sw_of)
{
	const uint32_t nd = lg->nd;
	uint32_t *vmap, *eu, *ev;
	int64_t *ec, *inj;

	vmap = lg->vmap = xmalloc(((size_t)g->nv + 1) * sizeof(*vmap));
	eu = lg->eu = xmalloc(((size_t)g->nedges + 1) * sizeof(*eu));
	ev = lg->ev = xmalloc(((size_t)g->nedges + 1) * sizeof(*ev));
	ec = lg->ec = xmalloc(((size_t)g->nedges + 1) * sizeof(*ec));
	for (uint32_t e = 0; e < g->ne; e++)
		vmap[e] = dev_of[e];
	lg->nv = nd;
	for (uint32_t v = g->ne; v < g->nv; v++)
		vmap[v] =
		    sw_of[v - g->ne] != RK_NONE ? sw_of[v - g->ne] : lg->nv++;
	inj = lg->inj = xcalloc((size_t)nd + 1, sizeof(*inj));
	for (uint32_t i = 0; i < g->nedges; i++) {
		uint32_t a = vmap[g->u[i]], b = vmap[g->v[i]];

		if (a == b)
			continue; /* inside one terminal */
		eu[lg->ne] = a;
		ev[lg->ne] = b;
		ec[lg->ne++] = g->cap[i];
		if (a < nd)
			inj[a] += g->cap[i];
		if (b < nd)
			inj[b] += g->cap[i];
	}
}

/*
 * Candidate orders of the terminals for the search: attachment switch,
 * rail-major attachment, declaration, rack position (first endpoint of
 * each terminal).
 */
static void level_orders(struct level_graph *lg, const struct rk_design *d,
			 const struct fgraph *g, const uint32_t *dev_of)
{
	const uint32_t nd = lg->nd;
	uint64_t *keys = xmalloc(((size_t)nd + 1) * sizeof(*keys));

	for (int which = 0; which < 4 && nd >= 2; which++) {
		uint8_t *seen = xcalloc((size_t)nd + 1, 1);

		for (uint32_t e = 0; e < g->ne; e++) {
			uint32_t k = dev_of[e], sw = g->first_sw[e];
			uint64_t leaf =
			    sw == RK_NONE ? UINT32_MAX : g->vdev[sw];

			if (k == RK_NONE || seen[k])
				continue;
			seen[k] = 1;
			if (which == 0)
				keys[k] = leaf << 32 | k;
			else if (which == 1)
				keys[k] = (uint64_t)d->objs[g->ep_port[e]].local
					      << 32 |
					  (leaf & 0xffffffffu);
			else if (which == 2)
				keys[k] = k;
			else
				keys[k] =
				    (uint64_t)layout_rack_of(d, g->ep_dev[e])
					<< 32 |
				    (uint32_t)(layout_at(d, g->ep_dev[e]) < 0
						   ? 0
						   : layout_at(d,
							       g->ep_dev[e]));
		}
		free(seen);
		lg->orders[lg->norders++] = order_by(nd, keys);
	}
	free(keys);
}

/* Full bisection: what one ideal crossbar gives the same terminals (the
 * floor(nd / 2) least injections). */
static int64_t level_full_bisection(const struct level_graph *lg)
{
	int64_t *s = xmalloc(((size_t)lg->nd + 1) * sizeof(*s));
	int64_t full = 0;

	memcpy(s, lg->inj, (size_t)lg->nd * sizeof(*s));
	qsort(s, lg->nd, sizeof(*s), cmp_i64);
	for (uint32_t k = 0; k < lg->nd / 2; k++)
		full += s[k];
	free(s);
	return full;
}

static void level_graph_free(struct level_graph *lg)
{
	free(lg->inj);
	for (uint32_t i = 0; i < lg->norders; i++)
		free(lg->orders[i]);
	free(lg->eu);
	free(lg->ev);
	free(lg->ec);
	free(lg->vmap);
}

/*
 * One level's bisection (doc/language.md §9.11): the terminals, their
 * injections and the full bisection (the floor(nd/2) least injections),
 * candidate orders for the search, and the interval: 0 when whole parts
 * that share nothing make the halves, the planes added up when every
 * terminal meets every plane, else the graph as one (bisect_solve).
 */
static void solve_level(const struct rk_design *d, const struct fgraph *g,
			enum level lv, const struct fabric_level *like,
			struct fabric_level *out)
{
	uint32_t nsw = g->nv - g->ne, nd;
	uint32_t *dev_of = xmalloc(((size_t)g->ne + 1) * sizeof(*dev_of));
	uint32_t *sw_of = xmalloc(((size_t)nsw + 1) * sizeof(*sw_of));
	struct level_graph lg = { 0 };
	struct bgraph bg;
	struct bisect_result r;

	memset(out, 0, sizeof(*out));
	out->dev_obj = xmalloc(((size_t)g->ne + 1) * sizeof(*out->dev_obj));
	out->dev_comp = xmalloc(((size_t)g->ne + 1) * sizeof(*out->dev_comp));
	nd = level_terminals(d, g, lv, dev_of, sw_of, out->dev_obj,
			     out->dev_comp);
	out->devices = nd;
	/*
	 * @like's terminals refine these (a node holds whole endpoint
	 * terminals), numbered alike in order of their first endpoint: as
	 * many of them is the same partition, the same graph and figures
	 */
	if (like && like->devices == nd) {
		level_copy(out, like);
		free(sw_of);
		free(dev_of);
		return;
	}
	lg.nd = nd;
	level_edges(&lg, g, dev_of, sw_of);
	level_orders(&lg, d, g, dev_of);
	out->full_bisection = level_full_bisection(&lg);
	bg = (struct bgraph){ nd,
			      lg.nv,
			      lg.ne,
			      lg.eu,
			      lg.ev,
			      lg.ec,
			      (const uint32_t *const *)lg.orders,
			      lg.norders };
	memset(&r, 0, sizeof(r));
	if (nd < 2 || !solve_disjoint(&bg, &r)) {
		if (nd < 2 || !solve_islands(&bg, &r, &out->parts))
			bisect_solve(&bg, &r);
	}
	out->bisection = r.lower;
	out->bisection_upper = r.upper;
	out->lower_how = r.lower_how;
	out->upper_how = r.upper_how;
	out->witness = r.witness;
	out->method = nd < 2		   ? BISECT_NONE
		      : r.lower == r.upper ? BISECT_EXACT
					   : BISECT_BOUNDS;
	level_graph_free(&lg);
	free(sw_of);
	free(dev_of);
}

static void bisection(const struct rk_design *d, const struct fgraph *g,
		      struct fabric_metrics *m)
{
	struct fabric_level ep;

	solve_level(d, g, LV_ENDPOINT, NULL, &ep);
	m->bisection = ep.bisection;
	m->bisection_upper = ep.bisection_upper;
	m->full_bisection = ep.full_bisection;
	m->method = ep.method;
	m->lower_how = ep.lower_how;
	m->upper_how = ep.upper_how;
	m->parts = ep.parts;
	m->devices = ep.devices;
	m->witness = ep.witness;
	m->dev_obj = ep.dev_obj;
	m->dev_comp = ep.dev_comp;
	solve_level(d, g, LV_NODE, &ep, &m->node);
}

void metrics_node_view(const struct fabric_metrics *m, struct fabric_metrics *v)
{
	*v = *m;
	v->bisection = m->node.bisection;
	v->bisection_upper = m->node.bisection_upper;
	v->full_bisection = m->node.full_bisection;
	v->method = m->node.method;
	v->lower_how = m->node.lower_how;
	v->upper_how = m->node.upper_how;
	v->parts = m->node.parts;
	v->devices = m->node.devices;
	v->witness = m->node.witness;
	v->dev_obj = m->node.dev_obj;
	v->dev_comp = m->node.dev_comp;
}

void metrics_compute(const struct rk_design *d, uint32_t fab,
		     struct fabric_metrics *m)
{
	struct fg_shared *sh = metrics_shared_new(d);

	metrics_compute_shared(d, fab, m, sh);
	metrics_shared_free(sh);
}

void metrics_compute_shared(const struct rk_design *d, uint32_t fab,
			    struct fabric_metrics *m, struct fg_shared *sh)
{
	struct fgraph g;
	int64_t *down, *up;
	uint32_t **rail = NULL;

	memset(m, 0, sizeof(*m));
	m->fabric = fab;
	m->leaf_worst = RK_NONE;
	m->rail_mixed = RK_NONE;
	fg_build(d, fab, &g, &m->declared, sh);
	down = xcalloc(g.nv + 1, sizeof(*down));
	up = xcalloc(g.nv + 1, sizeof(*up));
	rail = xcalloc(g.nv + 1, sizeof(*rail));
	for (uint32_t i = 0; i < g.nedges; i++) {
		uint32_t a = g.u[i], b = g.v[i];
		uint32_t ta = a < g.ne ? 0 : g.tier[a];
		uint32_t tb = b < g.ne ? 0 : g.tier[b];

		if (ta != tb) {
			uint32_t hi = ta > tb ? ta : tb;

			if (hi - 1 < 4)
				m->tier_links[hi - 1]++;
		}
		if (ta == 0 && tb > 0) {
			m->injection += g.cap[i];
			m->endpoints++;
			down[b] += g.cap[i];
			/* rail = the endpoint port's name */
			if (!rail[b])
				rail[b] = xcalloc(1, sizeof(uint32_t));
			if (!rail[b][0])
				rail[b][0] = d->objs[g.ep_port[a]].local;
			else if (rail[b][0] != d->objs[g.ep_port[a]].local &&
				 m->rail_mixed == RK_NONE &&
				 d->objs[m->fabric].cls == FAB_FAT_TREE)
				m->rail_mixed = g.vdev[b];
		} else if (ta == 0 && tb == 0) {
			m->injection += 2 * g.cap[i];
			m->endpoints += 2;
		} else if (ta != tb) {
			uint32_t lo = ta < tb ? a : b, hi = ta < tb ? b : a;

			up[lo] += g.cap[i];
			down[hi] += g.cap[i];
		}
	}
	m->switches = g.nv - g.ne;
	m->links = g.nedges;
	for (uint32_t v = g.ne; v < g.nv; v++) {
		uint32_t t = g.tier[v];

		if (t > m->tiers)
			m->tiers = t;
		if (t < 5)
			m->tier_switches[t - 1]++;
		if (t <= 4) {
			m->tier_down[t - 1] += down[v];
			m->tier_up[t - 1] += up[v];
		}
		if (t == 1 && up[v]) {
			/* worst leaf: largest down/up */
			if (m->leaf_worst == RK_NONE ||
			    (i128)down[v] * m->leaf_worst_up >
				(i128)m->leaf_worst_down * up[v]) {
				m->leaf_worst = g.vdev[v];
				m->leaf_worst_down = down[v];
				m->leaf_worst_up = up[v];
			}
		}
		free(rail[v]);
	}
	bisection(d, &g, m);
	free(down);
	free(up);
	free(rail);
	fg_free(&g);
}

void metrics_graph_export(const struct rk_design *d, uint32_t fab,
			  struct fabric_graph_view *out)
{
	struct fgraph g;
	uint32_t declared;
	struct fg_shared *sh = metrics_shared_new(d);

	fg_build(d, fab, &g, &declared, sh);
	metrics_shared_free(sh);
	out->dev = xmalloc(((size_t)g.ne + 1) * sizeof(*out->dev));
	{
		uint32_t *o = xmalloc(((size_t)g.ne + 1) * sizeof(*o));
		uint32_t *c = xmalloc(((size_t)g.ne + 1) * sizeof(*c));

		uint32_t *sw =
		    xmalloc(((size_t)(g.nv - g.ne) + 1) * sizeof(*sw));

		out->nd =
		    level_terminals(d, &g, LV_ENDPOINT, out->dev, sw, o, c);
		out->node = xmalloc(((size_t)g.ne + 1) * sizeof(*out->node));
		out->nn = level_terminals(d, &g, LV_NODE, out->node, sw, o, c);
		free(sw);
		free(o);
		free(c);
	}
	out->ne = g.ne;
	out->nv = g.nv;
	out->nedges = g.nedges;
	out->u = g.u;
	out->v = g.v;
	out->cap = g.cap;
	g.u = g.v = NULL;
	g.cap = NULL;
	fg_free(&g);
}

void metrics_graph_view_free(struct fabric_graph_view *g)
{
	free(g->dev);
	free(g->node);
	free(g->u);
	free(g->v);
	free(g->cap);
	memset(g, 0, sizeof(*g));
}

uint32_t metrics_gpu_count(const struct rk_design *d)
{
	uint32_t *per = xmalloc((d->nobjs + 1) * sizeof(*per)), n = 0;

	memset(per, 0xff, (d->nobjs + 1) * sizeof(*per));
	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t p = d->objs[i].part;

		if (d->objs[i].kind != K_DEVICE || p == RK_NONE)
			continue;
		if (per[p] == RK_NONE)
			per[p] = ir_part_gpu_count(d, p);
		n += per[p];
	}
	free(per);
	return n;
}

/* ---- racks ---- */

/*
 * *@acc += @v for rack @r's figure @bit, saturating: once a sum runs out
 * of range it keeps INT64_MAX and its bit, and the first device to push
 * one of the rack's sums over is remembered.
 */
static void rack_add(const struct rk_design *d, struct rack_totals *t,
		     uint32_t r, uint32_t dev, unsigned bit, int64_t *acc,
		     int64_t v)
{
	if (rack_total_over(t, r) & bit)
		return;
	if (q_add(*acc, v, acc))
		return;
	*acc = INT64_MAX;
	if (!t->over) {
		t->over = xcalloc(d->nobjs + 1, sizeof(*t->over));
		t->over_by = xmalloc((d->nobjs + 1) * sizeof(*t->over_by));
		memset(t->over_by, 0xff, (d->nobjs + 1) * sizeof(*t->over_by));
	}
	if (!t->over[r])
		t->over_by[r] = dev;
	t->over[r] |= (uint8_t)bit;
}

/* Rack @r lacks @bits' terms (@dev being one device without them). */
static void rack_unknown(const struct rk_design *d, struct rack_totals *t,
			 uint32_t r, uint32_t dev, unsigned bits)
{
	if (!bits)
		return;
	if (!t->unknown) {
		t->unknown = xcalloc(d->nobjs + 1, sizeof(*t->unknown));
		t->unknown_by =
		    xmalloc((d->nobjs + 1) * sizeof(*t->unknown_by));
		memset(t->unknown_by, 0xff,
		       (d->nobjs + 1) * sizeof(*t->unknown_by));
	}
	if (!t->unknown[r])
		t->unknown_by[r] = dev;
	t->unknown[r] |= (uint8_t)bits;
}

bool metrics_draws_power(const struct rk_design *d, uint32_t dev)
{
	const struct rk_obj *o = &d->objs[dev];
	const struct rk_value *v;

	if (o->kind != K_DEVICE || o->cls == C_PDU || o->cls == C_POWER_SHELF)
		return false;
	if (o->cls == C_SERVER || o->cls == C_SWITCH)
		return true;
	v = ir_attr_inh(d, dev, A_PSUS);
	if (v && v->type == VT_NUM && v->n > 0)
		return true;
	for (uint32_t k = 0; k < o->attr_count; k++)
		if (d->attrs[o->attr_first + k].key == A_POWER)
			return true;
	return false;
}

unsigned metrics_figures_unknown(const struct rk_design *d, uint32_t dev)
{
	const struct rk_value *p, *h;
	unsigned bits;

	if (!metrics_draws_power(d, dev))
		return 0;
	p = ir_attr_inh(d, dev, A_POWER_MAX);
	if (p && p->type == VT_NUM)
		return 0;
	bits = TOTAL_POWER;
	h = ir_attr_inh(d, dev, A_HEAT);
	if (!h || h->type != VT_NUM)
		bits |= TOTAL_HEAT | TOTAL_HEAT_LIQUID | TOTAL_HEAT_AIR;
	return bits;
}

/* Whether "A, B, C" (@len bytes) names @name. */
static bool names_figure(const char *s, size_t len, const char *name)
{
	size_t nl = strlen(name);

	for (size_t i = 0; i < len;) {
		size_t j, e;

		while (i < len && (s[i] == ' ' || s[i] == ','))
			i++;
		for (j = i; j < len && s[j] != ','; j++)
			;
		for (e = j; e > i && s[e - 1] == ' '; e--)
			;
		if (e - i == nl && !memcmp(s + i, name, nl))
			return true;
		i = j;
	}
	return false;
}

const char *metrics_unknown_reason(const struct rk_design *d, uint32_t part,
				   const char *name, const struct srcloc **loc,
				   uint32_t *from)
{
	for_each_base(d, p, part) {
		const struct rk_obj *o = &d->objs[p];

		if (o->kind != K_PART)
			continue;
		for (uint32_t k = 0; k < o->attr_count; k++) {
			const struct rk_attr *at = &d->attrs[o->attr_first + k];
			const char *txt, *colon;

			if (at->key != A_UNKNOWN || at->val.type != VT_STR)
				continue;
			txt = str_of(d->arena, at->val.a);
			colon = strchr(txt, ':');
			if (!colon ||
			    !names_figure(txt, (size_t)(colon - txt), name))
				continue;
			for (colon++; *colon == ' '; colon++)
				;
			if (loc)
				*loc = &at->val.loc;
			if (from)
				*from = p;
			return colon;
		}
	}
	return NULL;
}

/* The site's sums of the racks' power and heat, saturating as above. */
static void site_totals(const struct rk_design *d, struct rack_totals *t)
{
	t->site_power = t->site_heat = 0;
	t->site_over = 0;
	t->site_unknown = 0;
	t->site_over_by[0] = t->site_over_by[1] = RK_NONE;
	for (uint32_t r = 0; r < d->nobjs; r++) {
		if (d->objs[r].kind != K_RACK)
			continue;
		for (unsigned k = 0; k < 2; k++) {
			unsigned bit = k ? TOTAL_HEAT : TOTAL_POWER;
			int64_t *acc = k ? &t->site_heat : &t->site_power;

			if (rack_total_unknown(t, r) & bit)
				t->site_unknown |= bit;
			if (t->site_over & bit)
				continue;
			if (rack_total_over(t, r) & bit) {
				*acc = INT64_MAX;
				t->site_over |= bit;
			} else if (!q_add(*acc, k ? t->heat[r] : t->power[r],
					  acc)) {
				*acc = INT64_MAX;
				t->site_over |= bit;
				t->site_over_by[k] = r;
			}
		}
	}
}

void rack_totals_compute(const struct rk_design *d, struct rack_totals *t)
{
	t->over = NULL;
	t->over_by = NULL;
	t->unknown = NULL;
	t->unknown_by = NULL;
	t->power = xcalloc(d->nobjs + 1, sizeof(*t->power));
	t->heat = xcalloc(d->nobjs + 1, sizeof(*t->heat));
	t->heat_liquid = xcalloc(d->nobjs + 1, sizeof(*t->heat_liquid));
	t->heat_air = xcalloc(d->nobjs + 1, sizeof(*t->heat_air));
	t->devices = xcalloc(d->nobjs + 1, sizeof(*t->devices));
	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t r;
		int64_t p, h, frac, liq;
		unsigned unk;
		const char *cool;
		const struct rk_value *loop;

		if (d->objs[i].kind != K_DEVICE)
			continue;
		r = layout_rack_of(d, i);
		if (r == RK_NONE)
			continue;
		p = ir_num(d, i, A_POWER_MAX, 0);
		h = ir_num(d, i, A_HEAT, 0);
		if (h < p)
			h = p;
		/*
		 * The liquid share as the cooling checks count it: only on a
		 * loop (the device's or its rack's), liquid_fraction clamped
		 * to 0..100 %, else all of a liquid or hybrid part's heat (a
		 * hybrid part's split is unknown; the checks count it in full
		 * on both sides).
		 */
		cool = ir_str(d, i, A_COOLING);
		loop = ir_attr_inh(d, i, A_LOOP);
		if (!loop || loop->type != VT_OBJ)
			loop = ir_attr_inh(d, r, A_LOOP);
		frac = ir_num(
		    d, i, A_LIQUID_FRACTION,
		    cool && (streq(cool, "liquid") || streq(cool, "hybrid"))
			? RK_RATIO_ONE
			: 0);
		if (!loop || loop->type != VT_OBJ || frac < 0)
			frac = 0;
		else if (frac > RK_RATIO_ONE)
			frac = RK_RATIO_ONE;
		/* a device without its figure: the sums are lower bounds
		 * (a side that gets none of its heat stays exact) */
		unk = metrics_figures_unknown(d, i);
		if (!frac)
			unk &= ~(unsigned)TOTAL_HEAT_LIQUID;
		else if (frac == RK_RATIO_ONE &&
			 !(cool && streq(cool, "hybrid") &&
			   !ir_attr_inh(d, i, A_LIQUID_FRACTION)))
			unk &= ~(unsigned)TOTAL_HEAT_AIR;
		rack_unknown(d, t, r, i, unk);
		/* saturating: absurd inputs must not wrap around */
		rack_add(d, t, r, i, TOTAL_POWER, &t->power[r], p);
		rack_add(d, t, r, i, TOTAL_HEAT, &t->heat[r], h);
		liq = (int64_t)((i128)h * frac / RK_RATIO_ONE);
		rack_add(d, t, r, i, TOTAL_HEAT_LIQUID, &t->heat_liquid[r],
			 liq);
		/* a hybrid part without a fraction: in full on both sides */
		if (frac && cool && streq(cool, "hybrid") &&
		    !ir_attr_inh(d, i, A_LIQUID_FRACTION))
			liq = 0;
		rack_add(d, t, r, i, TOTAL_HEAT_AIR, &t->heat_air[r], h - liq);
		t->devices[r]++;
	}
	/* a rear door takes what it can of the air side */
	for (uint32_t r = 0; r < d->nobjs; r++) {
		const struct rk_value *door, *cap;

		if (d->objs[r].kind != K_RACK ||
		    (rack_total_over(t, r) & TOTAL_HEAT_AIR) ||
		    !(door = ir_attr_inh(d, r, A_RDHX)) ||
		    door->type != VT_OBJ ||
		    !(cap = ir_attr_inh(d, door->a, A_CAPACITY)) ||
		    cap->type != VT_NUM || cap->n <= 0)
			continue;
		t->heat_air[r] -=
		    t->heat_air[r] < cap->n ? t->heat_air[r] : cap->n;
	}
	site_totals(d, t);
}

void rack_totals_free(struct rack_totals *t)
{
	free(t->power);
	free(t->heat);
	free(t->heat_liquid);
	free(t->heat_air);
	free(t->devices);
	free(t->over);
	free(t->over_by);
	free(t->unknown);
	free(t->unknown_by);
}
