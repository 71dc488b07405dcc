/* SPDX-License-Identifier: MIT */
/*
 * The "slurm" back end: the scheduler's view of the network.
 *
 *   slurm/topology.conf  topology/tree: SwitchName=... Nodes=... and
 *                        SwitchName=... Switches=... lines
 *   slurm/block.conf     topology/block: BlockName=... Nodes=... lines and
 *                        BlockSizes (install as topology.conf on a cluster
 *                        that uses TopologyPlugin=topology/block)
 *   slurm/topology.yaml  both as named topologies (Slurm 25.05 and later;
 *                        when present Slurm ignores topology.conf)
 *
 * Trees come from the compute fabrics: the fat_tree (and star) fabrics
 * whose endpoint ports have role compute, or every fat_tree fabric when
 * none is marked.  A generated switch's role gives its level (leaf 0,
 * spine 1, core 2, top 3); a leaf lists the nodes cabled to it, a spine the
 * leaves, a core the spines, a top switch the cores.  Slurm's tree model expects each node under a single
 * leaf, while a rail-optimised fabric cables every node of a scalable unit
 * to one leaf per rail; so switches of one level whose children are the
 * same set are written as one Slurm switch, named after the first of them,
 * with a comment listing the others (Slurm switch names are its own, not
 * host names).  Blocks are the NVLink domains: one block per nvlink fabric,
 * holding the servers whose ports it connects.  BlockSizes is what Slurm
 * itself (and NVIDIA's topograph) takes when none is given: the smallest
 * domain D and its aligned power-of-two multiples up to the number of
 * domains N, D, 2D, 4D, ... 2^k D with 2^k <= N (18, 36, 72, ... node
 * trays for NVL72 racks).  topology.yaml makes the block topology the
 * cluster default when the NVLink domains span several nodes (NVL72, as
 * NVIDIA recommends for it), else the tree.
 *
 * Only compute nodes are listed: servers whose part has GPU components
 * (any server, in a design without GPU servers), and never a device whose
 * `role` names something other than compute.  A UFM appliance or a
 * storage server cabled to a leaf is no Slurm node (Slurm would log a
 * lookup failure for it).
 *
 * Names are the host names of be_common.h (hostname, or the rackc name as
 * a host name); lists are Slurm host lists, compressed to ranges such as
 * su-0-dgx-[0-31] (runs of numbers with the same prefix and zero padding).
 */
#include "rackc.h"

#include <stdlib.h>

#include "backend.h"
#include "be_common.h"
#include "fabric.h"
#include "schema.h"
#include "sched_topo.h"

/* ---- host lists ---- */

struct hname {
	const char *s;
	size_t plen;	      /* prefix length (before the trailing digits) */
	unsigned width;	      /* zero-padded width, 0 when not padded */
	unsigned long long v; /* trailing number */
	bool num;	      /* has a trailing number */
};

static int cmp_hname(const void *pa, const void *pb)
{
	const struct hname *a = pa, *b = pb;
	size_t n = a->plen < b->plen ? a->plen : b->plen;
	int c = memcmp(a->s, b->s, n);

	if (c)
		return c;
	if (a->plen != b->plen)
		return a->plen < b->plen ? -1 : 1;
	if (a->num != b->num)
		return a->num ? 1 : -1;
	if (a->width != b->width)
		return a->width < b->width ? -1 : 1;
	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return strcmp(a->s, b->s);
}

static bool same_group(const struct hname *a, const struct hname *b)
{
	return a->num && b->num && a->plen == b->plen && a->width == b->width &&
	       !memcmp(a->s, b->s, a->plen);
}

/* A Slurm host list of @names (deduplicated, ranges compressed). */
static char *hostlist(struct arena *ar, const char *const *names, uint32_t n)
{
	struct hname *h = xcalloc(n + 1, sizeof(*h));
	size_t cap = 64, len = 0;
	char *out = xmalloc(cap), *res;

	for (uint32_t i = 0; i < n; i++) {
		const char *s = names[i];
		size_t l = strlen(s), k = l;

		while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
			k--;
		h[i].s = s;
		h[i].plen = l;
		if (k < l && l - k <= 18) {
			h[i].num = true;
			h[i].plen = k;
			h[i].v = strtoull(s + k, NULL, 10);
			h[i].width =
			    s[k] == '0' && l - k > 1 ? (unsigned)(l - k) : 0;
		}
	}
	/* names mostly come in order already (devices in declaration
	 * order): sort only when they do not */
	for (uint32_t i = 1; i < n; i++)
		if (cmp_hname(&h[i - 1], &h[i]) > 0) {
			qsort(h, n, sizeof(*h), cmp_hname);
			break;
		}
	out[0] = '\0';
	for (uint32_t i = 0; i < n;) {
		uint32_t j = i + 1;
		char buf[128];
		bool ranged;

		while (j < n && same_group(&h[i], &h[j]))
			j++;
		ranged = j - i > 1;
		/* only distinct values count */
		if (ranged) {
			uint32_t distinct = 1;

			for (uint32_t k = i + 1; k < j; k++)
				distinct += h[k].v != h[k - 1].v;
			ranged = distinct > 1;
		}
		if (len + h[i].plen + 4 >= cap) {
			cap = 2 * (cap + h[i].plen);
			out = xrealloc(out, cap);
		}
		if (len)
			out[len++] = ',';
		if (!ranged) {
			size_t l = strlen(h[i].s);

			if (len + l + 1 >= cap) {
				cap = 2 * (cap + l);
				out = xrealloc(out, cap);
			}
			memcpy(out + len, h[i].s, l + 1);
			len += l;
			/* skip exact duplicates of a plain name */
			while (j < n && !h[i].num && streq(h[j].s, h[i].s))
				j++;
			i = j;
			continue;
		}
		memcpy(out + len, h[i].s, h[i].plen);
		len += h[i].plen;
		out[len++] = '[';
		for (uint32_t k = i; k < j;) {
			uint32_t e = k;
			int m;

			while (e + 1 < j && (h[e + 1].v == h[e].v ||
					     h[e + 1].v == h[e].v + 1))
				e++;
			if (h[e].v == h[k].v)
				m = snprintf(buf, sizeof(buf), "%s%0*llu",
					     k > i ? "," : "", (int)h[k].width,
					     h[k].v);
			else
				m = snprintf(buf, sizeof(buf),
					     "%s%0*llu-%0*llu",
					     k > i ? "," : "", (int)h[k].width,
					     h[k].v, (int)h[e].width, h[e].v);
			if (len + (size_t)m + 2 >= cap) {
				cap = 2 * (cap + (size_t)m);
				out = xrealloc(out, cap);
			}
			memcpy(out + len, buf, (size_t)m + 1);
			len += (size_t)m;
			k = e + 1;
		}
		out[len++] = ']';
		out[len] = '\0';
		i = j;
	}
	res = arena_strndup(ar, out, len);
	free(out);
	free(h);
	return res;
}

/* ---- trees ---- */

struct ulist {
	uint32_t *v;
	uint32_t n, cap;
};

struct tsw {
	uint32_t dev;
	int level;
	struct ulist kids; /* node devices (level 0) or switch indices */
	uint32_t group;	   /* index of its group's first switch */
	bool written;	   /* its group has an entry */
};

/* The lines of output: Slurm switches or blocks (sched_topo.h). */
struct out {
	struct sched_entry *e;
	uint32_t n, cap;
};

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return a < b ? -1 : a > b;
}

/* @v[0..n) sorted, without duplicates, copied into @ar; *@m its length. */
static const uint32_t *u32_set(struct arena *ar, const uint32_t *v, uint32_t n,
			       uint32_t *m)
{
	uint32_t *c = arena_alloc(ar, ((size_t)n + 1) * sizeof(*c));
	uint32_t k = 0;

	memcpy(c, v, (size_t)n * sizeof(*c));
	for (uint32_t i = 1; i < n; i++)
		if (c[i - 1] > c[i]) {
			qsort(c, n, sizeof(*c), cmp_u32);
			break;
		}
	for (uint32_t i = 0; i < n; i++)
		if (!i || c[i] != c[k - 1])
			c[k++] = c[i];
	*m = k;
	return c;
}

static void ulist_push(struct ulist *l, uint32_t x)
{
	*VEC_PUSH(l->v, l->n, l->cap) = x;
}

static void ulist_sort_unique(struct ulist *l)
{
	uint32_t k = 0;

	if (!l->n)
		return;
	for (uint32_t i = 1; i < l->n; i++)
		if (l->v[i - 1] > l->v[i]) {
			qsort(l->v, l->n, sizeof(*l->v), cmp_u32);
			break;
		}
	for (uint32_t i = 1; i < l->n; i++)
		if (l->v[i] != l->v[k])
			l->v[++k] = l->v[i];
	l->n = k + 1;
}

static int role_level(const char *role)
{
	if (!role)
		return -1;
	if (streq(role, "leaf"))
		return 0;
	if (streq(role, "spine"))
		return 1;
	if (streq(role, "core"))
		return 2;
	if (streq(role, "top"))
		return 3;
	return -1;
}

static uint32_t find_group(struct tsw *sw, uint32_t x)
{
	while (sw[x].group != x) {
		sw[x].group = sw[sw[x].group].group;
		x = sw[x].group;
	}
	return x;
}

static bool same_kids(const struct tsw *a, const struct tsw *b)
{
	return a->kids.n == b->kids.n &&
	       !memcmp(a->kids.v, b->kids.v, a->kids.n * sizeof(*a->kids.v));
}

static uint32_t kids_hash(const struct tsw *a)
{
	uint64_t h = a->kids.n;

	for (uint32_t k = 0; k < a->kids.n; k++)
		h = hash_mix64(h * 0x100000001b3ULL ^ a->kids.v[k]);
	return (uint32_t)h;
}

/* Switch @c joins the tree if its role gives it a level. */
static void add_switch(const struct rk_design *d, uint32_t c,
		       uint32_t *sw_index, struct tsw **sw, uint32_t *ns,
		       uint32_t *cap)
{
	int lv = role_level(ir_str(d, c, A_ROLE));
	struct tsw *t;

	if (lv < 0)
		return;
	sw_index[c] = *ns;
	t = VEC_PUSH(*sw, *ns, *cap);
	memset(t, 0, sizeof(*t));
	t->dev = c;
	t->level = lv;
}

/* Is device @dev a Slurm compute node (see the top of the file)? */
static bool slurm_node(const struct rk_design *d, uint32_t dev,
		       const uint8_t *gpu_part, bool any_gpu)
{
	const struct rk_obj *o = &d->objs[dev];
	const char *role = ir_str(d, dev, A_ROLE);

	if (o->kind != K_DEVICE || o->cls != C_SERVER)
		return false;
	if (role && !streq(role, "compute"))
		return false;
	return !any_gpu || (o->part != RK_NONE && gpu_part[o->part]);
}

/* What each object is to the trees (a byte per object, worked out once:
 * a fabric's links read it for both ends, a million-GPU hall's devices
 * lie too far apart in memory to look at again per link). */
enum { SL_NODE = 1, SL_SWITCH = 2 };

/* One fabric's tree as it is worked out: its switches, and each level's
 * groups of switches (fabric_tree and its phases). */
struct tree_work {
	struct backend_ctx *ctx;
	const char *const *host;
	uint32_t fab;
	const char *fname;
	struct tsw *sw;
	uint32_t ns, cap;
	uint32_t *head, *next; /* a group's members: its first, the next */
	uint32_t *sw_index;    /* per object: its switch index, or RK_NONE */
	uint32_t *owner;       /* per node: the first leaf that lists it */
	const uint8_t *what;
	struct out *o;
};

/* The switches of the fabric: generated ones are its children, a
 * hand-wired fabric's are found on its links. */
static void tree_switches(struct tree_work *w, const uint32_t *links,
			  uint32_t nl)
{
	const struct rk_design *d = w->ctx->d;

	for_each_child(d, w->fab, c)
		if (d->objs[c].kind == K_DEVICE)
			add_switch(d, c, w->sw_index, &w->sw, &w->ns, &w->cap);
	for (uint32_t i = 0; i < nl; i++) {
		const struct rk_link *l = &d->links[links[i]];

		for (int end = 0; end < 2; end++) {
			uint32_t c = end ? l->b_dev : l->a_dev;

			if ((w->what[c] & SL_SWITCH) &&
			    w->sw_index[c] == RK_NONE)
				add_switch(d, c, w->sw_index, &w->sw, &w->ns,
					   &w->cap);
		}
	}
}

/* Each switch's children from the links: the switches a level below it,
 * or for a leaf the compute nodes cabled to it. */
static void tree_links(struct tree_work *w, const uint32_t *links, uint32_t nl)
{
	const struct rk_design *d = w->ctx->d;
	struct tsw *sw = w->sw;

	for (uint32_t i = 0; i < nl; i++) {
		const struct rk_link *l = &d->links[links[i]];
		uint32_t a = w->sw_index[l->a_dev], b = w->sw_index[l->b_dev];

		if (a != RK_NONE && b != RK_NONE) {
			if (sw[a].level > sw[b].level)
				ulist_push(&sw[a].kids, b);
			else if (sw[b].level > sw[a].level)
				ulist_push(&sw[b].kids, a);
		} else if (a != RK_NONE && !sw[a].level) {
			if (w->what[l->b_dev] & SL_NODE)
				ulist_push(&sw[a].kids, l->b_dev);
		} else if (b != RK_NONE && !sw[b].level) {
			if (w->what[l->a_dev] & SL_NODE)
				ulist_push(&sw[b].kids, l->a_dev);
		}
	}
}

/* The children of level @lv's switches, sorted: an upper level's are the
 * groups of the level below, those whose group has no entry left out. */
static void level_kids(struct tree_work *w, int lv)
{
	struct tsw *sw = w->sw;

	for (uint32_t s = 0; s < w->ns; s++) {
		uint32_t m = 0;

		if (sw[s].level != lv)
			continue;
		for (uint32_t k = 0; k < sw[s].kids.n; k++) {
			uint32_t c = sw[s].kids.v[k];

			if (!lv)
				sw[s].kids.v[m++] = c;
			else if (sw[sw[c].group].written)
				sw[s].kids.v[m++] = sw[c].group;
		}
		sw[s].kids.n = m;
		ulist_sort_unique(&sw[s].kids);
	}
}

/* Leaves that share a node are one Slurm switch: union-find, each set
 * named by its first leaf. */
static void group_leaves(struct tree_work *w)
{
	struct tsw *sw = w->sw;
	uint32_t ns = w->ns, *owner = w->owner;

	for (uint32_t s = 0; s < ns; s++)
		sw[s].group = s;
	for (uint32_t s = 0; s < ns; s++) {
		if (sw[s].level)
			continue;
		for (uint32_t k = 0; k < sw[s].kids.n; k++) {
			uint32_t nd = sw[s].kids.v[k];
			uint32_t a, b;

			if (owner[nd] == RK_NONE) {
				owner[nd] = s;
				continue;
			}
			a = find_group(sw, owner[nd]);
			b = find_group(sw, s);
			if (a != b)
				sw[a > b ? a : b].group = a < b ? a : b;
		}
	}
	for (uint32_t s = 0; s < ns; s++)
		if (!sw[s].level)
			sw[s].group = find_group(sw, s);
	for (uint32_t s = 0; s < ns; s++)
		for (uint32_t k = 0; !sw[s].level && k < sw[s].kids.n; k++)
			owner[sw[s].kids.v[k]] = RK_NONE;
}

/* An upper level's switch joins the first earlier switch of level @lv with
 * the same children: the groups so far in a table by a hash of the
 * children (at most one group per set of children). */
static void group_same_kids(struct tree_work *w, int lv)
{
	struct tsw *sw = w->sw;
	uint32_t hcap = 16, *tab;

	while (hcap < 2 * w->ns)
		hcap *= 2;
	tab = xmalloc(hcap * sizeof(*tab));
	memset(tab, 0xff, hcap * sizeof(*tab));
	for (uint32_t s = 0; s < w->ns; s++) {
		uint32_t h, t;

		if (sw[s].level != lv)
			continue;
		h = kids_hash(&sw[s]) & (hcap - 1);
		while ((t = tab[h]) != RK_NONE && !same_kids(&sw[t], &sw[s]))
			h = (h + 1) & (hcap - 1);
		if (t == RK_NONE)
			tab[h] = t = s;
		sw[s].group = t;
	}
	free(tab);
}

/* Each group's members of level @lv, in index order (from the group's
 * first switch, which has the lowest index). */
static void group_members(struct tree_work *w, int lv)
{
	for (uint32_t s = 0; s < w->ns; s++)
		w->head[s] = RK_NONE;
	for (uint32_t t = w->ns; t-- > 0;)
		if (w->sw[t].level == lv) {
			w->next[t] = w->head[w->sw[t].group];
			w->head[w->sw[t].group] = t;
		}
}

/* The entry of group @s of level @lv, unless its members have no
 * children: the first member's name, the children's host list (an upper
 * level's from @s alone, whose children all members share) and the other
 * members named. */
static void write_group(struct tree_work *w, uint32_t s, int lv)
{
	struct tsw *sw = w->sw;
	const char *const *host = w->host;
	struct sched_entry *e;
	const char **nm;
	uint32_t *kd, nm_n = 0, members = 0, total = 0;

	for (uint32_t t = w->head[s]; t != RK_NONE; t = w->next[t])
		total += sw[t].kids.n;
	if (!total)
		return;
	sw[s].written = true;
	nm = xmalloc((sw[s].kids.n + w->ns + 1) * sizeof(*nm));
	kd = xmalloc((sw[s].kids.n + 1) * sizeof(*kd));
	e = VEC_PUSH(w->o->e, w->o->n, w->o->cap);
	memset(e, 0, sizeof(*e));
	e->name = host[sw[s].dev];
	e->fabric = w->fname;
	e->fab = w->fab;
	e->dev = sw[s].dev;
	e->level = lv;
	for (uint32_t t = w->head[s]; t != RK_NONE; t = w->next[t]) {
		if (lv) {
			/* same children as s by construction */
			if (t != s)
				continue;
			for (uint32_t k = 0; k < sw[t].kids.n; k++) {
				kd[nm_n] = sw[sw[t].kids.v[k]].dev;
				nm[nm_n] = host[kd[nm_n]];
				nm_n++;
			}
			continue;
		}
		nm = xrealloc(nm, (nm_n + sw[t].kids.n + 1) * sizeof(*nm));
		kd = xrealloc(kd, (nm_n + sw[t].kids.n + 1) * sizeof(*kd));
		for (uint32_t k = 0; k < sw[t].kids.n; k++) {
			kd[nm_n] = sw[t].kids.v[k];
			nm[nm_n] = host[kd[nm_n]];
			nm_n++;
		}
	}
	e->kids = u32_set(w->ctx->arena, kd, nm_n, &e->nkids);
	free(kd);
	if (lv)
		e->switches = hostlist(w->ctx->arena, nm, nm_n);
	else
		e->nodes = hostlist(w->ctx->arena, nm, nm_n);
	nm_n = 0;
	for (uint32_t t = w->head[s]; t != RK_NONE; t = w->next[t]) {
		nm[nm_n++] = host[sw[t].dev];
		members++;
	}
	if (members > 1)
		e->also = hostlist(w->ctx->arena, nm, nm_n);
	free(nm);
}

/* The tree of one fabric, appended to @o: level by level from the
 * leaves, the switches grouped and each group written as one entry. */
static void fabric_tree(struct backend_ctx *ctx, const char *const *host,
			uint32_t fab, const uint32_t *links, uint32_t nl,
			uint32_t *sw_index, uint32_t *owner,
			const uint8_t *what, struct out *o)
{
	struct tree_work w = {
		.ctx = ctx,
		.host = host,
		.fab = fab,
		.fname = ir_name(ctx->d, fab),
		.sw_index = sw_index,
		.owner = owner,
		.what = what,
		.o = o,
	};

	tree_switches(&w, links, nl);
	tree_links(&w, links, nl);
	w.head = xmalloc(((size_t)w.ns + 1) * sizeof(*w.head));
	w.next = xmalloc(((size_t)w.ns + 1) * sizeof(*w.next));
	for (int lv = 0; lv <= 3; lv++) {
		level_kids(&w, lv);
		if (!lv)
			group_leaves(&w);
		else
			group_same_kids(&w, lv);
		group_members(&w, lv);
		for (uint32_t s = 0; s < w.ns; s++)
			if (w.sw[s].level == lv && w.sw[s].group == s)
				write_group(&w, s, lv);
	}
	for (uint32_t s = 0; s < w.ns; s++) {
		sw_index[w.sw[s].dev] = RK_NONE;
		free(w.sw[s].kids.v);
	}
	free(w.head);
	free(w.next);
	free(w.sw);
}

static bool fabric_is_compute(const struct rk_design *d, uint32_t fab)
{
	struct ir_ep_cursor c = { 0, 0 };
	const struct rk_value *v = ir_next_endpoint(d, fab, &c);

	return v && streq(be_port_role(d, (uint32_t)v->n), "compute");
}

/* The design's scheduler view as it is worked out (sched_topology and its
 * phases): per object arrays, the links bucketed by fabric, the entries. */
struct topo_work {
	struct backend_ctx *ctx;
	const char *const *host;
	uint32_t *cnt, *start; /* per fabric: its links, where they begin */
	uint32_t *links;       /* link indices, fabric by fabric */
	uint32_t *sw_index, *block_of, *owner;
	uint8_t *what; /* SL_NODE, SL_SWITCH per object */
	struct out tree, blocks;
	uint32_t min_block;
};

/* Mark in @gpu_part the server parts with GPU components, and the parts
 * derived from one; true when a server device has such a part. */
static bool gpu_parts(const struct rk_design *d, uint8_t *gpu_part)
{
	bool any_gpu = false;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];

		if (o->kind == K_COMP && o->cls == COMP_GPU) {
			for (uint32_t p = o->parent; p != RK_NONE;
			     p = d->objs[p].parent)
				if (d->objs[p].kind == K_PART) {
					gpu_part[p] = 1;
					break;
				}
		}
	}
	/* a part derived from a GPU server is one */
	for (bool more = true; more;) {
		more = false;
		for (uint32_t i = 0; i < d->nobjs; i++) {
			const struct rk_obj *o = &d->objs[i];

			if (o->kind == K_PART && !gpu_part[i] &&
			    o->part != RK_NONE && gpu_part[o->part])
				gpu_part[i] = 1, more = true;
		}
	}
	for (uint32_t i = 0; i < d->nobjs && !any_gpu; i++)
		any_gpu =
		    d->objs[i].kind == K_DEVICE && d->objs[i].cls == C_SERVER &&
		    d->objs[i].part != RK_NONE && gpu_part[d->objs[i].part];
	return any_gpu;
}

/* What each object is to the trees: a compute node, a switch. */
static void classify_objects(const struct rk_design *d, uint8_t *what)
{
	uint8_t *gpu_part = xcalloc((size_t)d->nobjs + 1, 1);
	bool any_gpu = gpu_parts(d, gpu_part);

	for (uint32_t i = 0; i < d->nobjs; i++)
		what[i] = (slurm_node(d, i, gpu_part, any_gpu) ? SL_NODE : 0) |
			  (d->objs[i].cls == C_SWITCH ? SL_SWITCH : 0);
	free(gpu_part);
}

/* The links bucketed by fabric: fabric f's are links[start[f]] on, cnt[f]
 * of them (@n entries of cnt and start, objects and one more). */
static void links_by_fabric(const struct rk_design *d, uint32_t n,
			    struct topo_work *w)
{
	for (uint32_t l = 0; l < d->nlinks; l++)
		if (d->links[l].fabric != RK_NONE)
			w->cnt[d->links[l].fabric]++;
	for (uint32_t i = 1; i <= n; i++)
		w->start[i] = w->start[i - 1] + w->cnt[i - 1];
	memset(w->cnt, 0, (n + 1) * sizeof(*w->cnt));
	for (uint32_t l = 0; l < d->nlinks; l++) {
		uint32_t f = d->links[l].fabric;

		if (f != RK_NONE)
			w->links[w->start[f] + w->cnt[f]++] = l;
	}
}

/* The block of NVLink fabric @f: the compute nodes its links connect, once
 * each; false (after an error) when one is in an earlier block. */
static bool nvlink_block(struct topo_work *w, uint32_t f)
{
	const struct rk_design *d = w->ctx->d;
	const struct rk_obj *o = &d->objs[f];
	const char **nm = xmalloc((2 * w->cnt[f] + 1) * sizeof(*nm));
	uint32_t nn = 0, k = 0;
	uint32_t *devs = xmalloc((2 * w->cnt[f] + 1) * sizeof(*devs));
	struct sched_entry *e;
	bool ok = true;

	for (uint32_t i = 0; i < w->cnt[f]; i++) {
		const struct rk_link *l = &d->links[w->links[w->start[f] + i]];

		if (w->what[l->a_dev] & SL_NODE)
			devs[nn++] = l->a_dev;
		if (w->what[l->b_dev] & SL_NODE)
			devs[nn++] = l->b_dev;
	}
	qsort(devs, nn, sizeof(*devs), cmp_u32);
	for (uint32_t i = 0; i < nn; i++)
		if (!i || devs[i] != devs[i - 1])
			devs[k++] = devs[i];
	nn = k;
	for (uint32_t i = 0; i < nn; i++) {
		if (w->block_of[devs[i]] != RK_NONE) {
			diag_error(w->ctx->diag, &o->loc, "slurm",
				   "cannot express NVLink "
				   "domains as Slurm blocks: "
				   "%s is in both '%s' and "
				   "'%s'",
				   ir_name(d, devs[i]),
				   ir_name(d, w->block_of[devs[i]]),
				   ir_name(d, f));
			ok = false;
		}
		w->block_of[devs[i]] = f;
		nm[i] = w->host[devs[i]];
	}
	if (nn) {
		e = VEC_PUSH(w->blocks.e, w->blocks.n, w->blocks.cap);
		memset(e, 0, sizeof(*e));
		e->name = be_derived_name(w->ctx->arena, ir_name(d, f));
		e->nodes = hostlist(w->ctx->arena, nm, nn);
		e->fabric = ir_name(d, f);
		e->fab = f;
		e->dev = RK_NONE;
		e->level = -1;
		e->kids = u32_set(w->ctx->arena, devs, nn, &e->nkids);
		if (!w->min_block || nn < w->min_block)
			w->min_block = nn;
	}
	free(nm);
	free(devs);
	return ok;
}

bool sched_topology(struct backend_ctx *ctx, struct sched_topo *t)
{
	const struct rk_design *d = ctx->d;
	uint32_t n = d->nobjs ? d->nobjs : 1;
	struct topo_work w = {
		.ctx = ctx,
		.cnt = xcalloc(n + 1, sizeof(*w.cnt)),
		.start = xcalloc(n + 1, sizeof(*w.start)),
		.links = xmalloc((d->nlinks + 1) * sizeof(*w.links)),
		.sw_index = xmalloc(n * sizeof(*w.sw_index)),
		.block_of = xmalloc(n * sizeof(*w.block_of)),
		.owner = xmalloc(n * sizeof(*w.owner)),
		.what = xmalloc(n),
	};
	uint32_t ncompute = 0;
	bool ok;

	w.host = be_host_names(ctx, &ok);
	classify_objects(d, w.what);
	memset(w.sw_index, 0xff, n * sizeof(*w.sw_index));
	memset(w.block_of, 0xff, n * sizeof(*w.block_of));
	memset(w.owner, 0xff, n * sizeof(*w.owner));
	links_by_fabric(d, n, &w);
	for (uint32_t f = 0; f < d->nobjs; f++)
		if (d->objs[f].kind == K_FABRIC &&
		    (d->objs[f].cls == FAB_FAT_TREE ||
		     d->objs[f].cls == FAB_STAR) &&
		    fabric_is_compute(d, f))
			ncompute++;
	for (uint32_t f = 0; f < d->nobjs && ok; f++) {
		const struct rk_obj *o = &d->objs[f];

		if (o->kind != K_FABRIC)
			continue;
		if (o->cls == FAB_NVLINK) {
			ok = nvlink_block(&w, f);
		} else if ((o->cls == FAB_FAT_TREE || o->cls == FAB_STAR) &&
			   (ncompute ? fabric_is_compute(d, f)
				     : o->cls == FAB_FAT_TREE)) {
			fabric_tree(ctx, w.host, f, w.links + w.start[f],
				    w.cnt[f], w.sw_index, w.owner, w.what,
				    &w.tree);
		}
	}
	memset(t, 0, sizeof(*t));
	t->tree = w.tree.e;
	t->ntree = w.tree.n;
	t->blocks = w.blocks.e;
	t->nblocks = w.blocks.n;
	t->min_block = w.min_block;
	t->host = w.host;
	free(w.what);
	free(w.cnt);
	free(w.start);
	free(w.links);
	free(w.sw_index);
	free(w.block_of);
	free(w.owner);
	return ok;
}

void sched_topo_free(struct sched_topo *t)
{
	free(t->tree);
	free(t->blocks);
	t->tree = t->blocks = NULL;
	t->ntree = t->nblocks = 0;
}

static bool emit_slurm(struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	struct sched_topo t;
	bool ok = sched_topology(ctx, &t);
	struct out tree = { t.tree, t.ntree, 0 },
		   blocks = { t.blocks, t.nblocks, 0 };
	uint32_t min_block = t.min_block;
	FILE *fp;

	for (uint32_t i = 0; i < tree.n; i++)
		if (strlen(tree.e[i].name) > 64) {
			diag_error(ctx->diag, &d->objs[tree.e[i].fab].loc,
				   "slurm",
				   "cannot express the tree of fabric '%s': "
				   "Slurm switch name '%s' is longer than 64 "
				   "characters",
				   tree.e[i].fabric, tree.e[i].name);
			ok = false;
			break;
		}
	if (ok && !tree.n && !blocks.n && !ctx->dry)
		diag_warning(ctx->diag, NULL, "slurm",
			     "no fat-tree or NVLink fabric: no Slurm topology "
			     "written");
	if (ok && tree.n && (fp = out_open(ctx, "slurm/topology.conf"))) {
		const char *last = NULL;

		fprintf(fp,
			"# rackc: Slurm topology/tree of %s\n"
			"# TopologyPlugin=topology/tree\n",
			ctx->input);
		for (uint32_t i = 0; i < tree.n; i++) {
			const struct sched_entry *e = &tree.e[i];

			if (!last || !streq(last, e->fabric))
				fprintf(fp, "\n# fabric %s\n", e->fabric);
			last = e->fabric;
			if (e->also)
				fprintf(fp, "# %s: one Slurm switch for %s\n",
					e->name, e->also);
			fprintf(fp, "SwitchName=%s %s=%s\n", e->name,
				e->nodes ? "Nodes" : "Switches",
				e->nodes ? e->nodes : e->switches);
		}
	}
	if (ok && blocks.n && (fp = out_open(ctx, "slurm/block.conf"))) {
		fprintf(fp,
			"# rackc: Slurm topology/block of %s (one block per "
			"NVLink domain)\n"
			"# TopologyPlugin=topology/block; install as "
			"topology.conf\n\n",
			ctx->input);
		for (uint32_t i = 0; i < blocks.n; i++)
			fprintf(fp, "BlockName=%s Nodes=%s\n", blocks.e[i].name,
				blocks.e[i].nodes);
		fputs("BlockSizes=", fp);
		for (uint64_t k = 1; k <= blocks.n; k *= 2)
			fprintf(fp, "%s%llu", k > 1 ? "," : "",
				(unsigned long long)(min_block * k));
		fputc('\n', fp);
	}
	if (ok && (tree.n || blocks.n) &&
	    (fp = out_open(ctx, "slurm/topology.yaml"))) {
		/* multi-node NVLink domains (NVL72): the block topology is
		 * the default */
		bool block_default = blocks.n && (!tree.n || min_block > 1);

		fprintf(fp, "# rackc: Slurm topologies of %s\n", ctx->input);
		if (tree.n) {
			fprintf(fp,
				"- topology: tree\n"
				"  cluster_default: %s\n"
				"  tree:\n"
				"    switches:\n",
				block_default ? "false" : "true");
			for (uint32_t i = 0; i < tree.n; i++)
				fprintf(fp,
					"      - switch: \"%s\"\n"
					"        %s: \"%s\"\n",
					tree.e[i].name,
					tree.e[i].nodes ? "nodes" : "children",
					tree.e[i].nodes ? tree.e[i].nodes
							: tree.e[i].switches);
		}
		if (blocks.n) {
			fprintf(fp,
				"- topology: nvlink\n"
				"  cluster_default: %s\n"
				"  block:\n"
				"    block_sizes:\n",
				block_default ? "true" : "false");
			for (uint64_t k = 1; k <= blocks.n; k *= 2)
				fprintf(fp, "      - %llu\n",
					(unsigned long long)(min_block * k));
			fputs("    blocks:\n", fp);
			for (uint32_t i = 0; i < blocks.n; i++)
				fprintf(fp,
					"      - block: \"%s\"\n"
					"        nodes: \"%s\"\n",
					blocks.e[i].name, blocks.e[i].nodes);
		}
	}
	sched_topo_free(&t);
	return ok && !ctx->failed;
}

const struct backend backend_slurm = {
	.name = "slurm",
	.summary = "slurm/topology.conf (tree), slurm/block.conf and "
		   "slurm/topology.yaml (NVLink blocks)",
	.emit = emit_slurm,
	.weight = 1,
	.preflight = emit_slurm, /* dry: nothing is written */
};
