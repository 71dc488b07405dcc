/* SPDX-License-Identifier: MIT */
/*
 * Bisection over endpoint devices: exact methods, bounds and a witness
 * (see bisect.h and doc/language.md, "Bisection").
 */
#include "rackc.h"

#include <stdlib.h>

#include "bisect.h"
#include "arith.h"
#include "bisect_large.h"
#include "metrics.h"
#include "maxflow.h"

#define BIG (INT64_MAX / 4)

/* ---- the normalised graph: parallel edges merged, loops dropped ---- */

struct ng {
	uint32_t nd, nv, ne;
	uint32_t *u, *v; /* u < v */
	int64_t *cap;
	uint32_t *off, *to; /* adjacency in compressed rows */
	int64_t *c;
};

struct edge {
	uint32_t u, v;
	int64_t cap;
};

static int edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->u != y->u)
		return x->u < y->u ? -1 : 1;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return 0;
}

/* Build @n from edges e[0..m) over nv vertices (map applied already). */
static void ng_build(struct ng *n, uint32_t nd, uint32_t nv, struct edge *e,
		     uint32_t m)
{
	uint32_t k = 0, *fill;

	memset(n, 0, sizeof(*n));
	n->nd = nd;
	n->nv = nv;
	for (uint32_t i = 0; i < m; i++) {
		if (e[i].u > e[i].v) {
			uint32_t t = e[i].u;

			e[i].u = e[i].v;
			e[i].v = t;
		}
	}
	qsort(e, m, sizeof(*e), edge_cmp);
	n->u = xmalloc(((size_t)m + 1) * sizeof(*n->u));
	n->v = xmalloc(((size_t)m + 1) * sizeof(*n->v));
	n->cap = xmalloc(((size_t)m + 1) * sizeof(*n->cap));
	for (uint32_t i = 0; i < m; i++) {
		if (e[i].u == e[i].v || e[i].cap <= 0)
			continue;
		if (k && n->u[k - 1] == e[i].u && n->v[k - 1] == e[i].v) {
			n->cap[k - 1] =
			    arith_capadd(n->cap[k - 1], e[i].cap, BIG);
			continue;
		}
		n->u[k] = e[i].u;
		n->v[k] = e[i].v;
		n->cap[k++] = e[i].cap;
	}
	n->ne = k;
	n->off = xcalloc((size_t)nv + 1, sizeof(*n->off));
	for (uint32_t i = 0; i < k; i++) {
		n->off[n->u[i] + 1]++;
		n->off[n->v[i] + 1]++;
	}
	for (uint32_t x = 0; x < nv; x++)
		n->off[x + 1] += n->off[x];
	n->to = xmalloc(((size_t)2 * k + 1) * sizeof(*n->to));
	n->c = xmalloc(((size_t)2 * k + 1) * sizeof(*n->c));
	fill = xmalloc(((size_t)nv + 1) * sizeof(*fill));
	memcpy(fill, n->off, (size_t)nv * sizeof(*fill));
	/* edges are sorted by (u, v): every row comes out sorted */
	for (uint32_t i = 0; i < k; i++) {
		n->to[fill[n->u[i]]] = n->v[i];
		n->c[fill[n->u[i]]++] = n->cap[i];
	}
	for (uint32_t i = 0; i < k; i++) {
		n->to[fill[n->v[i]]] = n->u[i];
		n->c[fill[n->v[i]]++] = n->cap[i];
	}
	free(fill);
	/* rows: the u-side entries were written first; sort each row */
	for (uint32_t x = 0; x < nv; x++) {
		uint32_t a = n->off[x], b = n->off[x + 1];

		for (uint32_t i = a + 1; i < b; i++) {
			uint32_t t = n->to[i];
			int64_t c = n->c[i];
			uint32_t j = i;

			while (j > a && n->to[j - 1] > t) {
				n->to[j] = n->to[j - 1];
				n->c[j] = n->c[j - 1];
				j--;
			}
			n->to[j] = t;
			n->c[j] = c;
		}
	}
}

static void ng_free(struct ng *n)
{
	free(n->u);
	free(n->v);
	free(n->cap);
	free(n->off);
	free(n->to);
	free(n->c);
}

static int64_t ng_cut(const struct ng *n, const uint8_t *side)
{
	return maxflow_bipartition(n->nv, n->ne, n->u, n->v, n->cap, side);
}

/*
 * Switches merged into cells, exactly.  A partition of the switches into
 * cells (devices stay alone) is kept when every switch x of a cell X has
 * the same proportions towards the other cells: cap(x, Y) = p(x) cap(X, Y)
 * for every cell Y != X, with one share p(x) for all Y.  Then for every
 * split the max-flow of the graph with each cell merged into one vertex
 * (edges inside a cell dropped) is the max-flow of the graph itself:
 * merging never lowers a max-flow, and a flow F(X, Y) between cells lifts
 * to F(X, Y) cap(x, y) / cap(X, Y) on each edge, within capacity and
 * conserved at every x (inflow p(x) times the cell's, which is zero).  So
 * the bisection of the merged graph is the bisection.  Identical switches
 * (the spines of an evenly spread tree, the switch trays of an NVLink
 * domain) fall in one cell, and so do, for instance, all the spines of one
 * pod of a three-tier tree and all its cores.
 *
 * The cells are found by refinement: all switches in one cell, then split
 * by (cell, primitive vector of capacities towards the other cells) until
 * nothing splits.  Returns true when some cell holds two switches (@n is
 * then rebuilt as the merged graph).
 */
struct prof {
	uint32_t cell;
	int64_t cap;
};

static int prof_cmp(const void *a, const void *b)
{
	const struct prof *x = a, *y = b;

	return x->cell < y->cell ? -1 : x->cell > y->cell;
}

struct hent {
	uint64_t h;
	uint32_t x;
};

static int hent_cmp(const void *a, const void *b)
{
	const struct hent *p = a, *q = b;

	if (p->h != q->h)
		return p->h < q->h ? -1 : 1;
	return p->x < q->x ? -1 : p->x > q->x;
}

static bool prof_equal(const struct prof *pr, const uint32_t *off,
		       const uint32_t *len, const uint32_t *cell, uint32_t x,
		       uint32_t y)
{
	if (cell[x] != cell[y] || len[x] != len[y])
		return false;
	for (uint32_t i = 0; i < len[x]; i++)
		if (pr[off[x] + i].cell != pr[off[y] + i].cell ||
		    pr[off[x] + i].cap != pr[off[y] + i].cap)
			return false;
	return true;
}

/*
 * The refinement: @cell (nv entries) gets every device a cell of its own
 * (its index) and the switches cells from nd on, refined until no cell
 * splits.  With @sets the profiles are the sets of cells a switch meets,
 * capacities ignored (the coarser classes regular_bound() works with).
 * Returns the number of cells.
 */
static uint32_t refine_cells(const struct ng *n, uint32_t *cell, bool sets)
{
	uint32_t nd = n->nd, nv = n->nv, ns = nv - nd, ncell;
	uint32_t *next, *len;
	struct prof *pr;
	struct hent *hs;

	next = xmalloc((size_t)nv * sizeof(*next));
	len = xcalloc((size_t)nv, sizeof(*len));
	pr = xmalloc(((size_t)n->off[nv] + 1) * sizeof(*pr));
	hs = xmalloc(((size_t)ns + 1) * sizeof(*hs));
	for (uint32_t x = 0; x < nv; x++)
		cell[x] = x < nd ? x : nd;
	ncell = nd + (ns > 0);
	for (;;) {
		uint32_t nn = nd;

		for (uint32_t k = 0; k < ns; k++) {
			uint32_t x = nd + k, a = n->off[x], m = 0;
			int64_t g = 0;
			uint64_t h = hash_mix64(cell[x] + 1);

			for (uint32_t i = a; i < n->off[x + 1]; i++)
				if (cell[n->to[i]] != cell[x])
					pr[a + m++] =
					    (struct prof){ cell[n->to[i]],
							   sets ? 1 : n->c[i] };
			if (m > 16) {
				qsort(pr + a, m, sizeof(*pr), prof_cmp);
			} else {
				for (uint32_t i = 1; i < m; i++) {
					struct prof t = pr[a + i];
					uint32_t j = i;

					for (; j > 0 &&
					       pr[a + j - 1].cell > t.cell;
					     j--)
						pr[a + j] = pr[a + j - 1];
					pr[a + j] = t;
				}
			}
			len[x] = 0;
			for (uint32_t i = 0; i < m; i++) {
				if (len[x] &&
				    pr[a + len[x] - 1].cell == pr[a + i].cell) {
					if (!sets)
						pr[a + len[x] - 1].cap =
						    arith_capadd(
							pr[a + len[x] - 1].cap,
							pr[a + i].cap, BIG);
					continue;
				}
				pr[a + len[x]++] = pr[a + i];
			}
			for (uint32_t i = 0; i < len[x]; i++)
				g = arith_gcd64(g, pr[a + i].cap);
			for (uint32_t i = 0; g > 1 && i < len[x]; i++)
				pr[a + i].cap /= g;
			for (uint32_t i = 0; i < len[x]; i++)
				h = hash_mix64(h ^ pr[a + i].cell ^
					       (uint64_t)pr[a + i].cap << 20);
			hs[k] = (struct hent){ h, x };
		}
		qsort(hs, ns, sizeof(*hs), hent_cmp);
		for (uint32_t k = 0; k < ns; k++) {
			uint32_t x = hs[k].x;

			next[x] = RK_NONE;
			for (uint32_t j = k; j-- > 0 && hs[j].h == hs[k].h;)
				if (prof_equal(pr, n->off, len, cell, hs[j].x,
					       x)) {
					next[x] = next[hs[j].x];
					break;
				}
			if (next[x] == RK_NONE)
				next[x] = nn++;
		}
		for (uint32_t x = nd; x < nv; x++)
			cell[x] = next[x];
		if (nn == ncell)
			break;
		ncell = nn;
	}
	free(next);
	free(len);
	free(pr);
	free(hs);
	return ncell;
}

static bool equitable_merge(struct ng *n)
{
	uint32_t nd = n->nd, nv = n->nv, ncell, *cell;
	struct edge *e;

	if (nv - nd < 2)
		return false;
	cell = xmalloc((size_t)nv * sizeof(*cell));
	ncell = refine_cells(n, cell, false);
	if (ncell == nv) {
		free(cell);
		return false;
	}
	e = xmalloc(((size_t)n->ne + 1) * sizeof(*e));
	{
		uint32_t m = 0;

		for (uint32_t i = 0; i < n->ne; i++)
			if (cell[n->u[i]] != cell[n->v[i]])
				e[m++] =
				    (struct edge){ cell[n->u[i]], cell[n->v[i]],
						   n->cap[i] };
		ng_free(n);
		ng_build(n, nd, ncell, e, m);
	}
	free(e);
	free(cell);
	return true;
}

/* ---- exact: trees of switches ---- */

/*
 * When every device hangs off one switch by one link of one capacity c and
 * the switches (merged into cells) form a forest: for fixed switch sides
 * the best balanced split keeps each device with its switch except for
 * |N_A - K| of them (N_A: devices whose switch is on A, K: the devices A
 * must hold), each costing c.  So the bisection is the least, over the
 * switch sides, of the switch edges cut plus c |N_A - K|: a dynamic
 * programme over the forest on N_A (counted in units of the gcd of the
 * switches' device counts), children merged by min-plus convolution.
 */
struct tnode {
	uint32_t parent, a;   /* a: devices on it, in units */
	int64_t w;	      /* capacity of the edge to the parent */
	uint32_t sub;	      /* devices in its subtree, in units */
	int64_t *f[2];	      /* f[s][n]: least cut below, side s, N_A = n */
	uint32_t first_merge; /* its merges: first_merge .. + nchild */
	uint32_t nchild;
};

struct tmerge {
	uint32_t child;
	int64_t *pre[2]; /* the parent's f before this child, length plen */
	uint32_t plen;
};

static int64_t tbest(const struct tnode *c, int s, uint32_t j, int *side)
{
	int64_t same = c->f[s][j], other = c->f[!s][j];

	other = other >= BIG ? BIG : arith_capadd(other, c->w, BIG);
	*side = same <= other ? s : !s;
	return same <= other ? same : other;
}

static void tree_assign(const struct tnode *t, const struct tmerge *mg,
			uint32_t v, int s, uint32_t n, uint8_t *sw_side)
{
	const struct tnode *x = &t[v];
	int64_t target = x->f[s][n];

	sw_side[v] = (uint8_t)(s + 1);
	for (uint32_t k = x->nchild; k-- > 0;) {
		const struct tmerge *m = &mg[x->first_merge + k];
		const struct tnode *c = &t[m->child];
		uint32_t j;
		int cs = s;

		for (j = 0; j <= c->sub && j <= n; j++) {
			int64_t p, b;

			if (n - j >= m->plen)
				continue;
			p = m->pre[s][n - j];
			b = tbest(c, s, j, &cs);
			if (p < BIG && b < BIG &&
			    arith_capadd(p, b, BIG) == target)
				break;
		}
		if (j > c->sub || j > n)
			BUG("bisection tree rebuilt to no value");
		tbest(c, s, j, &cs);
		tree_assign(t, mg, m->child, cs, j, sw_side);
		target = m->pre[s][n - j];
		n -= j;
	}
}

/*
 * Lone switches (roots without switch links, as in a star): each puts all
 * its devices on side A or none, at no cost, so together they reach the
 * sums of their sizes: a bounded subset sum, one pass per size (for each
 * residue, the nearest reachable entry below, within the count of that
 * size).  @acc gets 0 where reachable, BIG elsewhere; returns its length.
 * The counts kept per size rebuild the sides (lone_assign).
 */
struct lone {
	uint32_t nsz, *size, *count, **used, *who, nwho;
};

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static uint32_t lone_reach(const struct tnode *t, uint32_t ns,
			   const uint8_t *has_child, struct lone *lo,
			   int64_t *acc)
{
	uint32_t len = 1, *last;
	uint8_t *reach;

	memset(lo, 0, sizeof(*lo));
	lo->who = xmalloc(((size_t)ns + 1) * sizeof(*lo->who));
	for (uint32_t v = 0; v < ns; v++)
		if (t[v].parent == RK_NONE && !has_child[v])
			lo->who[lo->nwho++] = (uint32_t)((uint64_t)t[v].sub);
	/* sizes and counts */
	qsort(lo->who, lo->nwho, sizeof(*lo->who), u32_cmp);
	lo->size = xmalloc(((size_t)lo->nwho + 1) * sizeof(*lo->size));
	lo->count = xmalloc(((size_t)lo->nwho + 1) * sizeof(*lo->count));
	lo->used = xcalloc((size_t)lo->nwho + 1, sizeof(*lo->used));
	for (uint32_t i = 0; i < lo->nwho; i++) {
		if (!lo->nsz || lo->size[lo->nsz - 1] != lo->who[i]) {
			lo->size[lo->nsz] = lo->who[i];
			lo->count[lo->nsz++] = 0;
		}
		lo->count[lo->nsz - 1]++;
		len += lo->who[i];
	}
	/* who: the lone switches themselves, for the rebuild */
	lo->nwho = 0;
	for (uint32_t v = 0; v < ns; v++)
		if (t[v].parent == RK_NONE && !has_child[v])
			lo->who[lo->nwho++] = v;
	reach = xcalloc(len, 1);
	last = xmalloc((size_t)len * sizeof(*last));
	reach[0] = 1;
	for (uint32_t z = 0, top = 0; z < lo->nsz; z++) {
		uint32_t w = lo->size[z], m = lo->count[z];

		top += w * m;
		lo->used[z] = xcalloc((size_t)top + 1, sizeof(**lo->used));
		if (!w)
			continue; /* switches without devices: any side */
		for (uint32_t i = 0; i <= top; i++) {
			/* the nearest reachable entry at or below, same residue
			 * (before this size: reach holds the old sums) */
			uint32_t j = i >= w ? last[i - w] : RK_NONE;

			last[i] = reach[i] ? i : j;
		}
		for (uint32_t i = top + 1; i-- > 0;)
			if (last[i] != RK_NONE && (i - last[i]) / w <= m) {
				lo->used[z][i] = (i - last[i]) / w;
				reach[i] = 1;
			}
	}
	for (uint32_t i = 0; i < len; i++)
		acc[i] = reach[i] ? 0 : BIG;
	free(reach);
	free(last);
	return len;
}

/* Sides of the lone switches for the sum @i: @used per size, back to front.
 */
static void lone_assign(const struct lone *lo, const struct tnode *t,
			uint32_t i, uint8_t *sw_side)
{
	for (uint32_t z = lo->nsz; z-- > 0;) {
		uint32_t k = lo->used[z][i];

		for (uint32_t q = 0; q < lo->nwho; q++) {
			uint32_t v = lo->who[q];

			if (t[v].sub != lo->size[z] || sw_side[v])
				continue;
			sw_side[v] = k ? 1 : 2;
			k -= k > 0;
		}
		i -= lo->used[z][i] * lo->size[z];
	}
	if (i != 0)
		BUG("bisection: lone switches rebuilt to a wrong sum");
}

static void lone_free(struct lone *lo)
{
	for (uint32_t z = 0; z < lo->nsz; z++)
		free(lo->used[z]);
	free(lo->used);
	free(lo->size);
	free(lo->count);
	free(lo->who);
}

/* The forest of switches solve_tree() works on. */
struct tforest {
	const struct ng *n;
	uint32_t nd, ns;     /* devices, switches */
	uint32_t unit;	     /* the gcd of the switches' device counts */
	uint32_t qt, *order; /* the switches in BFS order, roots first */
	struct tnode *t;
	struct tmerge *mg;
	uint8_t *seen; /* a switch has a child (after tf_shape) */
	uint64_t work; /* of the merges of children into parents */
};

/*
 * Devices: one link each, to a switch, all of one capacity (in *@c);
 * false otherwise.
 */
static bool tree_devices(const struct ng *n, uint32_t nd, int64_t *c)
{
	*c = -1;
	for (uint32_t x = 0; x < nd; x++) {
		if (n->off[x + 1] - n->off[x] != 1 || n->to[n->off[x]] < nd)
			return false;
		if (*c >= 0 && n->c[n->off[x]] != *c)
			return false;
		*c = n->c[n->off[x]];
	}
	return true;
}

/*
 * The switches' device counts in units, their parents (BFS from each
 * root; false on a cycle, or when no switch holds a device) and their
 * subtrees' sizes with the work of their merges; tf->seen then marks the
 * switches with a child.
 */
static bool tf_shape(struct tforest *tf)
{
	const struct ng *n = tf->n;
	const uint32_t nd = tf->nd, ns = tf->ns;
	struct tnode *t = tf->t;
	uint8_t *seen = tf->seen;

	for (uint32_t v = 0; v < ns; v++) {
		uint32_t x = nd + v;

		for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++)
			if (n->to[i] < nd)
				t[v].a++;
		tf->unit = (uint32_t)arith_gcd64(tf->unit, t[v].a);
	}
	if (!tf->unit)
		return false;
	/* switch edges: a forest has fewer edges than switches, and BFS must
	 * meet no switch twice */
	for (uint32_t r = 0; r < ns; r++) {
		uint32_t qh = tf->qt;

		if (seen[r])
			continue;
		seen[r] = 1;
		t[r].parent = RK_NONE;
		tf->order[tf->qt++] = r;
		while (qh < tf->qt) {
			uint32_t v = tf->order[qh++], x = nd + v;

			for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++) {
				uint32_t y = n->to[i];

				if (y < nd || y - nd == t[v].parent)
					continue;
				if (seen[y - nd])
					return false; /* a cycle */
				seen[y - nd] = 1;
				t[y - nd].parent = v;
				t[y - nd].w = n->c[i];
				tf->order[tf->qt++] = y - nd;
			}
		}
	}
	for (uint32_t v = 0; v < ns; v++) {
		t[v].a /= tf->unit;
		t[v].sub = t[v].a;
	}
	memset(seen, 0, (size_t)ns + 1); /* now: has a child */
	for (uint32_t k = tf->qt; k-- > 0;) {
		uint32_t v = tf->order[k], p = t[v].parent;

		if (p == RK_NONE)
			continue;
		tf->work += (uint64_t)(t[p].sub + 1) * (t[v].sub + 1);
		t[p].sub += t[v].sub;
		seen[p] = 1;
	}
	return true;
}

/*
 * The work of the programme: the merges of children into parents, the
 * lone switches (a star's) by reachability, a pass per size, and the
 * roots convolved.
 */
static uint64_t tf_work(const struct tforest *tf)
{
	const struct tnode *t = tf->t;
	uint64_t work = tf->work, nlone = 0, sizes = 1;
	uint32_t cum = 0;

	for (uint32_t v = 0; v < tf->ns; v++)
		if (t[v].parent == RK_NONE && !tf->seen[v]) {
			cum += t[v].sub;
			nlone++;
		}
	/* distinct sizes summing to cum: fewer than sqrt(2 cum) + 1 */
	while (sizes * sizes <= 2ull * cum && sizes < nlone)
		sizes++;
	work += (uint64_t)(cum + 1) * sizes;
	for (uint32_t v = 0; v < tf->ns; v++)
		if (t[v].parent == RK_NONE && tf->seen[v]) {
			work += (uint64_t)(cum + 1) * (t[v].sub + 1);
			cum += t[v].sub;
		}
	return work;
}

/* Each switch's merges of its children, in BFS order, grouped by parent. */
static void tf_merges(struct tforest *tf)
{
	struct tnode *t = tf->t;
	uint32_t nm = 0;

	for (uint32_t v = 0; v < tf->ns; v++)
		t[v].nchild = 0;
	for (uint32_t k = 0; k < tf->qt; k++)
		if (t[tf->order[k]].parent != RK_NONE)
			t[t[tf->order[k]].parent].nchild++;
	for (uint32_t v = 0; v < tf->ns; v++) {
		t[v].first_merge = nm;
		nm += t[v].nchild;
		t[v].nchild = 0;
	}
	for (uint32_t k = 0; k < tf->qt; k++) {
		uint32_t v = tf->order[k], p = t[v].parent;

		if (p != RK_NONE)
			tf->mg[t[p].first_merge + t[p].nchild++].child = v;
	}
}

/*
 * The tables, bottom up: f[s][n], the least cut below a switch on side s
 * with n units of devices on side A, its children merged in one at a time
 * (each merge keeping the table before it, for the witness).
 */
static void tf_tables(struct tforest *tf)
{
	struct tnode *t = tf->t;

	for (uint32_t k = tf->qt; k-- > 0;) {
		struct tnode *x = &t[tf->order[k]];
		uint32_t len = x->a + 1;

		for (int s = 0; s < 2; s++) {
			x->f[s] =
			    xmalloc(((size_t)x->sub + 1) * sizeof(int64_t));
			for (uint32_t i = 0; i < len; i++)
				x->f[s][i] = BIG;
		}
		x->f[0][x->a] = 0; /* side A: its devices count for N_A */
		x->f[1][0] = 0;
		for (uint32_t ci = 0; ci < x->nchild; ci++) {
			struct tmerge *m = &tf->mg[x->first_merge + ci];
			const struct tnode *ch = &t[m->child];
			uint32_t nlen = len + ch->sub;

			m->plen = len;
			for (int s = 0; s < 2; s++) {
				int64_t *nf;

				m->pre[s] =
				    xmalloc((size_t)len * sizeof(int64_t));
				memcpy(m->pre[s], x->f[s],
				       len * sizeof(int64_t));
				nf = x->f[s];
				for (uint32_t i = len; i < nlen; i++)
					nf[i] = BIG;
				for (uint32_t i = nlen; i-- > 0;) {
					int64_t b = BIG;
					int cs;

					for (uint32_t j = 0;
					     j <= ch->sub && j <= i; j++) {
						int64_t p, q;

						if (i - j >= len)
							continue;
						p = m->pre[s][i - j];
						q = tbest(ch, s, j, &cs);
						if (p < BIG && q < BIG &&
						    arith_capadd(p, q, BIG) < b)
							b = arith_capadd(p, q,
									 BIG);
					}
					nf[i] = b;
				}
			}
			len = nlen;
		}
	}
}

/* The roots combined so far (@acc, @alen entries) convolved with @r's
 * best side; the new length in *@alen. */
static int64_t *tf_convolve(const struct tnode *r, int64_t *acc, uint32_t *alen)
{
	uint32_t nlen = *alen + r->sub;
	int64_t *na = xmalloc((size_t)nlen * sizeof(*na));

	for (uint32_t i = 0; i < nlen; i++) {
		na[i] = BIG;
		for (uint32_t j = 0; j <= r->sub && j <= i; j++) {
			int64_t q =
			    r->f[0][j] < r->f[1][j] ? r->f[0][j] : r->f[1][j];

			if (i - j < *alen && acc[i - j] < BIG && q < BIG &&
			    acc[i - j] + q < na[i])
				na[i] = acc[i - j] + q;
		}
	}
	free(acc);
	*alen = nlen;
	return na;
}

/*
 * The roots combined (each root's best side, convolved, after the lone
 * switches), the best cut into *@best with the unbalance of devices
 * costing @c each, and the witness: the switches' sides, roots back to
 * front, then each tree.
 */
static uint8_t *tf_roots(const struct tforest *tf, int64_t c, int64_t *best)
{
	const struct tnode *t = tf->t;
	const uint32_t ns = tf->ns, nd = tf->nd, unit = tf->unit;
	const uint32_t kmin = nd / 2, kmax = nd - nd / 2;
	int64_t *acc = xmalloc(((size_t)nd / unit + 2) * sizeof(*acc));
	uint32_t alen, nroots = 0, bestn = 0;
	uint32_t *roots = xmalloc(((size_t)ns + 1) * sizeof(*roots));
	int64_t **pick = xmalloc(((size_t)ns + 1) * sizeof(*pick));
	uint32_t *pick_len = xmalloc(((size_t)ns + 1) * sizeof(*pick_len));
	uint8_t *sw_side;
	struct lone lo;

	*best = BIG;
	alen = lone_reach(t, ns, tf->seen, &lo, acc);
	for (uint32_t v = 0; v < ns; v++) {
		if (t[v].parent != RK_NONE || !tf->seen[v])
			continue;
		roots[nroots] = v;
		pick[nroots] = xmalloc((size_t)alen * sizeof(int64_t));
		memcpy(pick[nroots], acc, alen * sizeof(int64_t));
		pick_len[nroots++] = alen;
		acc = tf_convolve(&t[v], acc, &alen);
	}
	for (uint32_t i = 0; i < alen; i++) {
		uint64_t na_dev = (uint64_t)i * unit;
		uint64_t dist = na_dev < kmin	? kmin - na_dev
				: na_dev > kmax ? na_dev - kmax
						: 0;
		int64_t v;

		if (acc[i] >= BIG)
			continue;
		v = arith_capadd(acc[i], (int64_t)dist * c, BIG);
		if (v < *best) {
			*best = v;
			bestn = i;
		}
	}
	sw_side = xcalloc((size_t)ns + 1, 1);
	{
		int64_t target = acc[bestn];
		uint32_t i = bestn;

		for (uint32_t k = nroots; k-- > 0;) {
			const struct tnode *r = &t[roots[k]];
			uint32_t j;
			int s = 0;

			for (j = 0; j <= r->sub && j <= i; j++) {
				int64_t q;

				if (i - j >= pick_len[k] ||
				    pick[k][i - j] >= BIG)
					continue;
				s = r->f[0][j] < r->f[1][j] ? 0 : 1;
				q = r->f[s][j];
				if (q < BIG && pick[k][i - j] + q == target)
					break;
			}
			if (j > r->sub || j > i)
				BUG("bisection forest rebuilt to no value");
			tree_assign(t, tf->mg, roots[k], s, j, sw_side);
			target = pick[k][i - j];
			i -= j;
		}
		lone_assign(&lo, t, i, sw_side);
	}
	lone_free(&lo);
	for (uint32_t k = 0; k < nroots; k++)
		free(pick[k]);
	free(pick);
	free(pick_len);
	free(roots);
	free(acc);
	return sw_side;
}

/*
 * Devices follow their switch (@sw_side); then the fewest moves to
 * balance the @nd devices.
 */
static void tree_balance(const struct ng *n, uint32_t nd,
			 const uint8_t *sw_side, uint8_t *side)
{
	const uint32_t kmin = nd / 2, kmax = nd - nd / 2;
	uint32_t na = 0, want;

	for (uint32_t x = 0; x < nd; x++) {
		side[x] = sw_side[n->to[n->off[x]] - nd];
		na += side[x] == 1;
	}
	want = na < kmin ? kmin : na > kmax ? kmax : na;
	for (uint32_t x = 0; x < nd && na != want; x++) {
		if (na > want && side[x] == 1) {
			side[x] = 2;
			na--;
		} else if (na < want && side[x] == 2) {
			side[x] = 1;
			na++;
		}
	}
}

/* With @side NULL: only whether the programme would run (shape and work). */
static bool solve_tree(const struct ng *n, int64_t *best, uint8_t *side)
{
	struct tforest tf = { .n = n, .nd = n->nd, .ns = n->nv - n->nd };
	const uint32_t ns = tf.ns;
	int64_t c;
	bool ok = false;

	if (ns == 0 || !tree_devices(n, tf.nd, &c))
		return false;
	tf.t = xcalloc((size_t)ns + 1, sizeof(*tf.t));
	tf.order = xmalloc(((size_t)ns + 1) * sizeof(*tf.order));
	tf.seen = xcalloc((size_t)ns + 1, 1);
	tf.mg = xcalloc((size_t)ns + 1, sizeof(*tf.mg));
	if (!tf_shape(&tf) || tf_work(&tf) > 100000000ull)
		goto out;
	ok = true;
	if (!side)
		goto out;
	tf_merges(&tf);
	tf_tables(&tf);
	{
		uint8_t *sw_side = tf_roots(&tf, c, best);

		tree_balance(n, tf.nd, sw_side, side);
		free(sw_side);
	}
out:
	for (uint32_t v = 0; v < ns; v++) {
		free(tf.t[v].f[0]);
		free(tf.t[v].f[1]);
	}
	for (uint32_t k = 0; k < ns; k++) {
		free(tf.mg[k].pre[0]);
		free(tf.mg[k].pre[1]);
	}
	free(tf.t);
	free(tf.mg);
	free(tf.order);
	free(tf.seen);
	return ok;
}

/* Breadth-first from @root: the order into @q, each vertex's parent into
 * @par (RK_NONE at the root) and, with @up, the capacity of the edge to
 * it.  Returns the vertices reached. */
static uint32_t tree_bfs(const struct ng *n, uint32_t root, uint32_t *par,
			 int64_t *up, uint32_t *q)
{
	uint8_t *seen = xcalloc((size_t)n->nv + 1, 1);
	uint32_t qt = 0;

	seen[root] = 1;
	par[root] = RK_NONE;
	q[qt++] = root;
	for (uint32_t qh = 0; qh < qt; qh++) {
		uint32_t x = q[qh];

		for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++)
			if (!seen[n->to[i]]) {
				seen[n->to[i]] = 1;
				par[n->to[i]] = x;
				if (up)
					up[n->to[i]] = n->c[i];
				q[qt++] = n->to[i];
			}
	}
	free(seen);
	return qt;
}

/* ---- exact: non-blocking trees ---- */

/*
 * When the graph is a tree whose devices are its leaves, each on one edge
 * of one capacity c, and every switch edge e carries at least
 * c min(n_e, n - n_e) (n_e: the devices on one side of e), the bisection
 * is c floor(n/2).  At most: every switch on side B cuts only the floor(n/2)
 * device edges of side A.  At least: for any balanced split (A, B), pair
 * each device of A with its own device of B and send c along the tree path
 * of each pair.  Across an edge e, the pairs that cross from the side of
 * n_e devices number at most min(n_e, n - n_e), and so do those that cross
 * the other way; the net flow on e is at most the larger of the two, so
 * within its capacity, and a device edge carries its own pair alone.  The
 * flow is c floor(n/2) from A to B, and no cut is less than a flow.  (The
 * generated fat trees of 1:1 leaves merge into such trees; see
 * equitable_merge.)  Linear in the graph.
 */
static bool nonblocking_tree(const struct ng *n, int64_t *best, uint8_t *side)
{
	uint32_t nd = n->nd, nv = n->nv, qt = 0, *par, *q, *cnt;
	int64_t c = -1, *up;
	bool ok = false;

	if (nd < 2 || nv == nd || n->ne + 1 != nv)
		return false;
	for (uint32_t x = 0; x < nd; x++) {
		if (n->off[x + 1] - n->off[x] != 1 || n->to[n->off[x]] < nd ||
		    (c >= 0 && n->c[n->off[x]] != c))
			return false;
		c = n->c[n->off[x]];
	}
	par = xmalloc((size_t)nv * sizeof(*par));
	q = xmalloc((size_t)nv * sizeof(*q));
	cnt = xcalloc((size_t)nv, sizeof(*cnt));
	up = xcalloc((size_t)nv, sizeof(*up));
	qt = tree_bfs(n, nd, par, up, q);
	if (qt != nv)
		goto out; /* not connected */
	for (uint32_t k = qt; k-- > 1;) {
		uint32_t x = q[k], m;

		cnt[x] += x < nd;
		cnt[par[x]] += cnt[x];
		m = cnt[x] < nd - cnt[x] ? cnt[x] : nd - cnt[x];
		if ((u128)up[x] < (u128)c * m)
			goto out;
	}
	{
		u128 v = (u128)c * (nd / 2);

		*best = v >= (u128)BIG ? BIG : (int64_t)v;
	}
	memset(side, 0, nv);
	for (uint32_t x = 0; x < nd; x++)
		side[x] = x < nd / 2 ? 1 : 2;
	ok = true;
out:
	free(par);
	free(q);
	free(cnt);
	free(up);
	return ok;
}

/* ---- exact: hub sides enumerated, leaves by knapsack ---- */

/*
 * A unit is a leaf switch with the devices that hang off it alone (all over
 * links of one capacity c), or a device whose neighbours are all hubs.
 * With the hubs' sides fixed, a leaf with k of its a devices on side A
 * costs min((a - k) c + hB, k c + hA) (leaf on A, or on B; hA, hB: its
 * capacity to the hubs on A, on B), a device on A costs hB and on B hA.
 * Both are concave in k, and the units are independent, so moving devices
 * between two partly split units is concave in the amount moved: some
 * optimum splits at most one unit.  The rest is a knapsack: which units go
 * wholly to A so that, with the split one, A holds exactly K devices.
 */
struct unit {
	uint32_t sw;	/* leaf switch, or RK_NONE for a device unit */
	uint32_t dev;	/* device unit: its device */
	uint32_t a;	/* devices */
	int64_t c;	/* leaf: capacity of each device's link */
	uint32_t first; /* leaf: its devices are ldev[first .. first+a) */
	int64_t hA, hB; /* for the hub sides at hand */
	uint32_t cls;	/* its class for the hub sides at hand */
};

struct ucls {
	uint32_t a, n;
	int64_t c, hA, hB, g0, ga;
	bool leaf;
};

static int64_t unit_g(const struct ucls *k, uint32_t x)
{
	int64_t on_a, on_b;

	if (!k->leaf)
		return x ? k->hB : k->hA;
	on_a = arith_capadd((int64_t)(k->a - x) * k->c, k->hB, BIG);
	on_b = arith_capadd((int64_t)x * k->c, k->hA, BIG);
	return on_a < on_b ? on_a : on_b;
}

struct hubs {
	const struct ng *n;
	uint32_t nh, *hub; /* hub index -> vertex */
	uint32_t *hub_of;  /* vertex -> hub index, RK_NONE */
	struct unit *units;
	uint32_t nu, *ldev; /* leaf devices, grouped by leaf */
	struct ucls *cls;
	uint32_t ncls;
	int64_t *dp0, *dp1;
	uint32_t kmax;
};

static int unit_key_cmp(const struct unit *x, const struct unit *y)
{
	bool lx = x->sw != RK_NONE, ly = y->sw != RK_NONE;

	if (lx != ly)
		return lx ? -1 : 1;
	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	if (x->c != y->c)
		return x->c < y->c ? -1 : 1;
	if (x->hA != y->hA)
		return x->hA < y->hA ? -1 : 1;
	if (x->hB != y->hB)
		return x->hB < y->hB ? -1 : 1;
	return 0;
}

static int unit_cmp(const void *a, const void *b)
{
	const struct unit *p = a, *q = b;
	int r = unit_key_cmp(p, q);
	uint32_t x = p->sw != RK_NONE ? p->sw : p->dev;
	uint32_t y = q->sw != RK_NONE ? q->sw : q->dev;

	return r ? r : (x < y ? -1 : x > y);
}

/* Hub sides from @mask (bit h set: hub h on side B): the hub-hub cut, each
 * unit's hA/hB and the classes. */
static int64_t hubs_sides(struct hubs *H, uint32_t mask)
{
	const struct ng *n = H->n;
	int64_t cut = 0;

	for (uint32_t h = 0; h < H->nh; h++) {
		uint32_t x = H->hub[h];

		for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++) {
			uint32_t y = n->to[i], g = H->hub_of[y];

			if (g != RK_NONE && g > h &&
			    ((mask >> h) & 1) != ((mask >> g) & 1))
				cut = arith_capadd(cut, n->c[i], BIG);
		}
	}
	for (uint32_t k = 0; k < H->nu; k++) {
		struct unit *u = &H->units[k];
		uint32_t x = u->sw != RK_NONE ? u->sw : u->dev;

		u->hA = u->hB = 0;
		for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++) {
			uint32_t g = H->hub_of[n->to[i]];

			if (g == RK_NONE)
				continue;
			if ((mask >> g) & 1)
				u->hB = arith_capadd(u->hB, n->c[i], BIG);
			else
				u->hA = arith_capadd(u->hA, n->c[i], BIG);
		}
	}
	qsort(H->units, H->nu, sizeof(*H->units), unit_cmp);
	H->ncls = 0;
	for (uint32_t k = 0; k < H->nu; k++) {
		struct unit *u = &H->units[k];
		struct ucls *c;

		if (!k || unit_key_cmp(u, &H->units[k - 1])) {
			c = &H->cls[H->ncls++];
			c->a = u->a;
			c->n = 0;
			c->c = u->c;
			c->hA = u->hA;
			c->hB = u->hB;
			c->leaf = u->sw != RK_NONE;
			c->g0 = unit_g(c, 0);
			c->ga = unit_g(c, c->a);
		}
		H->cls[H->ncls - 1].n++;
		u->cls = H->ncls - 1;
	}
	return cut;
}

/*
 * The knapsack: dp0[t] / dp1[t] = least extra cost (over every unit wholly
 * on B) with t devices on A, without / with the one split unit.  With
 * @choice (steps x (kmax + 1) entries) the choices are kept for
 * hubs_rebuild.  Returns false if the work is over budget.
 */
#define CH_TAKE0 1u
#define CH_TAKE1 2u
static void dp_item(struct hubs *H, uint32_t size, int64_t cost, uint32_t *ch)
{
	for (uint32_t t = H->kmax + 1; t-- > size;) {
		uint32_t w = 0;

		if (H->dp1[t - size] < BIG &&
		    arith_capadd(H->dp1[t - size], cost, BIG) < H->dp1[t]) {
			H->dp1[t] = arith_capadd(H->dp1[t - size], cost, BIG);
			w |= CH_TAKE1;
		}
		if (H->dp0[t - size] < BIG &&
		    arith_capadd(H->dp0[t - size], cost, BIG) < H->dp0[t]) {
			H->dp0[t] = arith_capadd(H->dp0[t - size], cost, BIG);
			w |= CH_TAKE0;
		}
		if (ch)
			ch[t] = w;
	}
	if (ch)
		for (uint32_t t = 0; t < size && t <= H->kmax; t++)
			ch[t] = 0;
}

/* The special unit of a class: whole (0 or a) or, into dp1, split. */
static void dp_special(struct hubs *H, const struct ucls *k, uint32_t *ch)
{
	int64_t delta = k->ga - k->g0;

	for (uint32_t t = H->kmax + 1; t-- > 0;) {
		int64_t best = H->dp1[t];
		uint32_t w = 0;

		if (t >= k->a && H->dp1[t - k->a] < BIG &&
		    H->dp1[t - k->a] + delta < best) {
			best = H->dp1[t - k->a] + delta;
			w = 1;
		}
		for (uint32_t x = 1; k->leaf && x < k->a && x <= t; x++)
			if (H->dp0[t - x] < BIG &&
			    H->dp0[t - x] + unit_g(k, x) - k->g0 < best) {
				best = H->dp0[t - x] + unit_g(k, x) - k->g0;
				w = 2 + x;
			}
		H->dp1[t] = best;
		if (ch)
			ch[t] = w << 1;
	}
	for (uint32_t t = H->kmax + 1; t-- > k->a;)
		if (H->dp0[t - k->a] < BIG &&
		    H->dp0[t - k->a] + delta < H->dp0[t]) {
			H->dp0[t] = H->dp0[t - k->a] + delta;
			if (ch)
				ch[t] |= 1;
		}
}

/* Steps of the knapsack for the classes at hand. */
static uint32_t dp_steps(const struct hubs *H)
{
	uint32_t s = 0;

	for (uint32_t c = 0; c < H->ncls; c++) {
		uint32_t left = H->cls[c].n - 1;

		for (uint32_t q = 1; left; q *= 2) {
			uint32_t take = q < left ? q : left;

			left -= take;
			s++;
		}
		s++;
	}
	return s;
}

/* Run the knapsack; @ch: NULL, or dp_steps() rows of kmax + 1. */
static void dp_run(struct hubs *H, uint32_t *ch)
{
	uint32_t step = 0, row = H->kmax + 1;

	for (uint32_t t = 0; t <= H->kmax; t++)
		H->dp0[t] = H->dp1[t] = BIG;
	H->dp0[0] = 0;
	for (uint32_t c = 0; c < H->ncls; c++) {
		const struct ucls *k = &H->cls[c];
		uint32_t left = k->n - 1;

		for (uint32_t q = 1; left; q *= 2) {
			uint32_t take = q < left ? q : left;

			left -= take;
			if ((uint64_t)take * k->a <= H->kmax)
				dp_item(H, take * k->a, (k->ga - k->g0) * take,
					ch ? ch + (size_t)step * row : NULL);
			else if (ch)
				memset(ch + (size_t)step * row, 0,
				       row * sizeof(*ch));
			step++;
		}
		dp_special(H, k, ch ? ch + (size_t)step * row : NULL);
		step++;
	}
}

/* The sides of the devices for the knapsack's choices, walking back. */
static void hubs_rebuild(struct hubs *H, const uint32_t *ch, uint32_t t,
			 bool flag, uint8_t *side)
{
	uint32_t row = H->kmax + 1, step = dp_steps(H);
	uint32_t *full = xcalloc((size_t)H->ncls + 1, sizeof(*full));
	uint32_t split_cls = RK_NONE, split_k = 0;

	for (uint32_t c = H->ncls; c-- > 0;) {
		const struct ucls *k = &H->cls[c];
		uint32_t left = k->n - 1, nq = 0, qs[40];

		for (uint32_t q = 1; left; q *= 2) {
			qs[nq] = q < left ? q : left;
			left -= qs[nq++];
		}
		/* the special unit came last */
		{
			uint32_t w = ch[(size_t)--step * row + t];
			uint32_t s1 = w >> 1;

			if (!flag) {
				if (w & 1) {
					full[c]++;
					t -= k->a;
				}
			} else if (s1 == 1) {
				full[c]++;
				t -= k->a;
			} else if (s1 >= 2) {
				split_cls = c;
				split_k = s1 - 2;
				t -= split_k;
				flag = false;
			}
		}
		while (nq-- > 0) {
			uint32_t w = ch[(size_t)--step * row + t];

			if (w & (flag ? CH_TAKE1 : CH_TAKE0)) {
				full[c] += qs[nq];
				t -= qs[nq] * k->a;
			}
		}
	}
	if (t != 0)
		BUG("bisection knapsack rebuilt to a wrong count");
	for (uint32_t i = 0; i < H->nu; i++) {
		const struct unit *u = &H->units[i];
		uint32_t on_a = 0;

		if (full[u->cls]) {
			full[u->cls]--;
			on_a = u->a;
		} else if (u->cls == split_cls) {
			split_cls = RK_NONE;
			on_a = split_k;
		}
		if (u->sw == RK_NONE) {
			side[u->dev] = on_a ? 1 : 2;
			continue;
		}
		for (uint32_t j = 0; j < u->a; j++)
			side[H->ldev[u->first + j]] = j < on_a ? 1 : 2;
	}
	free(full);
}

/* Sum over the units' distinct profiles (size, rate, capacity to each
 * hub) of 40 + size: a bound on a pattern's knapsack rows, per entry. */
static uint64_t unit_profiles(const struct hubs *H)
{
	const struct ng *n = H->n;
	struct hent *k = xmalloc(((size_t)H->nu + 1) * sizeof(*k));
	uint64_t sum = 0;

	for (uint32_t q = 0; q < H->nu; q++) {
		const struct unit *u = &H->units[q];
		uint32_t x = u->sw != RK_NONE ? u->sw : u->dev;
		uint64_t h = hash_mix64((uint64_t)u->c ^ (u->sw != RK_NONE));

		for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++)
			if (H->hub_of[n->to[i]] != RK_NONE)
				h = hash_mix64(h ^ (uint64_t)n->c[i] ^
					       (uint64_t)H->hub_of[n->to[i]]
						   << 44);
		k[q] = (struct hent){ h, u->a };
	}
	qsort(k, H->nu, sizeof(*k), hent_cmp);
	for (uint32_t q = 0; q < H->nu; q++)
		if (!q || hent_cmp(&k[q], &k[q - 1]))
			sum += 40 + k[q].x;
	free(k);
	return sum;
}

/*
 * Leaf candidates: switches whose devices hang off them alone, over links
 * of one capacity (in @lcap), and that no other leaf touches; @leafc is 2
 * for each leaf kept.
 */
static void hubs_leaves(const struct ng *n, uint32_t *leafc, int64_t *lcap)
{
	for (uint32_t s = n->nd; s < n->nv; s++) {
		bool cand = false;

		for (uint32_t i = n->off[s]; i < n->off[s + 1]; i++) {
			uint32_t x = n->to[i];

			if (x >= n->nd)
				continue;
			if (n->off[x + 1] - n->off[x] != 1 ||
			    (cand && n->c[i] != lcap[s])) {
				cand = false;
				lcap[s] = -1;
				break;
			}
			cand = true;
			lcap[s] = n->c[i];
		}
		leafc[s] = cand;
	}
	for (uint32_t s = n->nd; s < n->nv; s++) {
		if (!leafc[s])
			continue;
		for (uint32_t i = n->off[s]; i < n->off[s + 1]; i++)
			if (n->to[i] >= n->nd && leafc[n->to[i]] == 2) {
				leafc[s] = 0;
				break;
			}
		if (leafc[s])
			leafc[s] = 2; /* kept */
	}
}

/* The hubs: the switches that are not leaves kept, numbered in order. */
static void hubs_number(struct hubs *H, const uint32_t *leafc)
{
	const struct ng *n = H->n;

	H->hub_of = xmalloc((size_t)n->nv * sizeof(*H->hub_of));
	H->hub = xmalloc(((size_t)n->nv + 1) * sizeof(*H->hub));
	for (uint32_t x = 0; x < n->nv; x++) {
		H->hub_of[x] = RK_NONE;
		if (x >= n->nd && leafc[x] != 2) {
			H->hub_of[x] = H->nh;
			H->hub[H->nh++] = x;
		}
	}
}

/* The units: each leaf kept with its devices, then each device on none. */
static void hubs_units(struct hubs *H, const uint32_t *leafc,
		       const int64_t *lcap)
{
	const struct ng *n = H->n;
	uint32_t *nsw = xcalloc((size_t)n->nv + 1, sizeof(*nsw));
	uint32_t nleaf = 0;

	H->units = xmalloc(((size_t)n->nv + 1) * sizeof(*H->units));
	H->ldev = xmalloc(((size_t)n->nd + 1) * sizeof(*H->ldev));
	for (uint32_t s = n->nd; s < n->nv; s++) {
		struct unit *u;

		if (leafc[s] != 2)
			continue;
		u = &H->units[H->nu++];
		memset(u, 0, sizeof(*u));
		u->sw = s;
		u->c = lcap[s];
		u->first = nleaf;
		for (uint32_t i = n->off[s]; i < n->off[s + 1]; i++)
			if (n->to[i] < n->nd) {
				H->ldev[nleaf++] = n->to[i];
				u->a++;
				nsw[n->to[i]] = 1;
			}
	}
	for (uint32_t x = 0; x < n->nd; x++) {
		struct unit *u;

		if (nsw[x])
			continue;
		u = &H->units[H->nu++];
		memset(u, 0, sizeof(*u));
		u->sw = RK_NONE;
		u->dev = x;
		u->a = 1;
	}
	free(nsw);
}

/*
 * Work: every hub side pattern costs a pass over the units and the
 * knapsack, a row of kmax + 1 per class of units and about the class's
 * size more for its split unit; units alike (size, rate and capacity to
 * each hub) share a class whatever the sides, so their profiles bound the
 * classes.  Whether it is small enough (the bound is loose: 4e9 of it
 * takes about a second).
 */
static bool hubs_affordable(const struct hubs *H)
{
	uint64_t work = ((uint64_t)1 << (H->nh ? H->nh - 1 : 0)) *
			((uint64_t)H->n->ne + (uint64_t)H->nu * 16 +
			 (uint64_t)(H->kmax + 1) * unit_profiles(H));

	return work <= 4000000000ull;
}

/* The best hub side pattern and the knapsack's count and flag in it. */
struct hub_best {
	int64_t cut;
	uint32_t mask, t;
	bool flag;
};

/*
 * Every hub side pattern with hub 0 on A (the other half mirror these),
 * the knapsack over the units' classes for each: the least cut into @b.
 * False when a pattern's knapsack would take too long.
 */
static bool hubs_search(struct hubs *H, uint32_t kmin, struct hub_best *b)
{
	const uint32_t kmax = H->kmax;

	b->cut = BIG;
	for (uint32_t mask = 0; mask < (1u << H->nh); mask += 2) {
		int64_t base, cut = hubs_sides(H, mask);
		uint64_t steps = 0;

		for (uint32_t c = 0; c < H->ncls; c++)
			steps += 40 + H->cls[c].a;
		if (steps * (kmax + 1) > 200000000ull)
			return false;
		base = cut;
		for (uint32_t c = 0; c < H->ncls; c++)
			base = arith_capadd(
			    base, (int64_t)H->cls[c].n * H->cls[c].g0, BIG);
		dp_run(H, NULL);
		for (uint32_t t = kmin; t <= kmax; t++)
			for (int f = 0; f < 2; f++) {
				int64_t v = f ? H->dp1[t] : H->dp0[t];

				if (v >= BIG ||
				    arith_capadd(base, v, BIG) >= b->cut)
					continue;
				b->cut = arith_capadd(base, v, BIG);
				b->mask = mask;
				b->t = t;
				b->flag = f;
			}
		if (H->nh == 0)
			break;
	}
	return true;
}

/* The best pattern's knapsack again, keeping the choices, for the
 * witness in @side; false when the table would be too large. */
static bool hubs_witness(struct hubs *H, const struct hub_best *b,
			 uint8_t *side)
{
	uint32_t *ch;
	uint64_t cells;

	hubs_sides(H, b->mask);
	cells = (uint64_t)dp_steps(H) * (H->kmax + 1);
	if (cells > 100000000ull)
		return false;
	ch = xmalloc((size_t)(cells + 1) * sizeof(*ch));
	dp_run(H, ch);
	hubs_rebuild(H, ch, b->t, b->flag, side);
	free(ch);
	return true;
}

/*
 * Returns true with the exact value in *@best and a witness in @side, or
 * false when the graph has no such shape or is too large for it.
 */
static bool solve_hubs(const struct ng *n, int64_t *best, uint8_t *side)
{
	struct hubs H;
	struct hub_best b = { 0 };
	uint32_t *leafc, kmin = n->nd / 2, kmax = n->nd - n->nd / 2;
	int64_t *lcap;
	bool ok = false;

	memset(&H, 0, sizeof(H));
	H.n = n;
	/* devices: no device-device links */
	for (uint32_t x = 0; x < n->nd; x++)
		for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++)
			if (n->to[i] < n->nd)
				return false;
	leafc = xcalloc((size_t)n->nv + 1, sizeof(*leafc));
	lcap = xcalloc((size_t)n->nv + 1, sizeof(*lcap));
	hubs_leaves(n, leafc, lcap);
	hubs_number(&H, leafc);
	H.kmax = kmax;
	if (H.nh <= BISECT_MAX_HUBS) {
		hubs_units(&H, leafc, lcap);
		ok = hubs_affordable(&H);
	}
	if (ok) {
		H.cls = xmalloc(((size_t)H.nu + 1) * sizeof(*H.cls));
		H.dp0 = xmalloc(((size_t)kmax + 1) * sizeof(*H.dp0));
		H.dp1 = xmalloc(((size_t)kmax + 1) * sizeof(*H.dp1));
		ok = hubs_search(&H, kmin, &b);
		*best = b.cut;
	}
	ok = ok && hubs_witness(&H, &b, side);
	free(leafc);
	free(lcap);
	free(H.hub_of);
	free(H.hub);
	free(H.units);
	free(H.ldev);
	free(H.cls);
	free(H.dp0);
	free(H.dp1);
	return ok;
}

/* ---- exact: branch and bound over the devices' sides ---- */

struct bnb {
	const struct ng *n;
	uint32_t *order;
	uint8_t *side, *best_side;
	int64_t best, open_min; /* least bound of a subtree left unexplored */
	uint64_t flows, budget;
	uint32_t na, nb, kmax;
};

static void bnb_rec(struct bnb *b, uint32_t depth)
{
	const struct ng *n = b->n;
	uint32_t x = b->order[depth];

	for (int s = 1; s <= 2; s++) {
		int64_t lb = 0;

		if ((s == 1 ? b->na : b->nb) >= b->kmax)
			continue;
		if (depth == 0 && s == 2)
			break; /* the first device stays on A: mirror images */
		b->side[x] = (uint8_t)s;
		*(s == 1 ? &b->na : &b->nb) += 1;
		if (b->na && b->nb) {
			lb = ng_cut(n, b->side);
			b->flows++;
		}
		if (depth + 1 == n->nd) {
			if (lb < b->best) { /* a whole split: its cut */
				b->best = lb;
				memcpy(b->best_side, b->side, n->nd);
			}
		} else if (lb < b->best) {
			if (b->flows >= b->budget) {
				/* out of budget: the subtree stays open */
				if (lb < b->open_min)
					b->open_min = lb;
			} else {
				bnb_rec(b, depth + 1);
			}
		}
		*(s == 1 ? &b->na : &b->nb) -= 1;
		b->side[x] = 0;
	}
}

/*
 * Devices in breadth-first order from device 0 (over switches), so that
 * the devices placed early are close and the bounds rise early.
 */
static void bfs_order(const struct ng *n, uint32_t *order)
{
	uint8_t *seen = xcalloc((size_t)n->nv + 1, 1);
	uint32_t *q = xmalloc(((size_t)n->nv + 1) * sizeof(*q));
	uint32_t qh = 0, qt = 0, k = 0;

	for (uint32_t s = 0; s < n->nd; s++) {
		if (seen[s])
			continue;
		seen[s] = 1;
		q[qt++] = s;
		while (qh < qt) {
			uint32_t x = q[qh++];

			if (x < n->nd)
				order[k++] = x;
			for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++)
				if (!seen[n->to[i]]) {
					seen[n->to[i]] = 1;
					q[qt++] = n->to[i];
				}
		}
	}
	free(seen);
	free(q);
}

/* Returns true when exact; *lower is then the value.  @side: in: the best
 * split known (its cut *upper); out: the best found. */
static bool solve_bnb(const struct ng *n, int64_t *lower, int64_t *upper,
		      uint8_t *side)
{
	struct bnb b;

	memset(&b, 0, sizeof(b));
	b.n = n;
	b.order = xmalloc((size_t)n->nd * sizeof(*b.order));
	bfs_order(n, b.order);
	b.side = xcalloc((size_t)n->nv + 1, 1);
	b.best_side = xmalloc((size_t)n->nd + 1);
	memcpy(b.best_side, side, n->nd);
	b.best = *upper;
	b.open_min = BIG;
	b.budget = 200000;
	b.kmax = n->nd - n->nd / 2;
	bnb_rec(&b, 0);
	*upper = b.best;
	memcpy(side, b.best_side, n->nd);
	*lower = b.open_min < b.best ? b.open_min : b.best;
	free(b.order);
	free(b.side);
	free(b.best_side);
	return b.open_min >= b.best;
}

/* ---- upper bound: a search ---- */

/*
 * Alternating descent from a split: the least cut of the split places the
 * switches; with the switches fixed, each device's cost on either side is
 * known (its capacity to the other side's switches; device-device links
 * count for the device's side at the previous step), and the balanced
 * choice of least cost puts on A the devices for which A costs least
 * relative to B.  Repeated while the cut falls.
 */
struct keyed {
	int64_t key;
	uint32_t x;
};

static int keyed_cmp(const void *a, const void *b)
{
	const struct keyed *p = a, *q = b;

	if (p->key != q->key)
		return p->key < q->key ? -1 : 1;
	return p->x < q->x ? -1 : p->x > q->x;
}

static int64_t descend(const struct ng *n, uint8_t *side, int64_t cur,
		       uint32_t rounds)
{
	uint8_t *reach = xmalloc((size_t)n->nv + 1);
	uint8_t *trial = xcalloc((size_t)n->nv + 1, 1);
	struct keyed *k = xmalloc(((size_t)n->nd + 1) * sizeof(*k));

	for (uint32_t r = 0; r < rounds; r++) {
		int64_t c;

		maxflow_bipartition_cut(n->nv, n->ne, n->u, n->v, n->cap, side,
					reach);
		for (uint32_t x = 0; x < n->nd; x++) {
			int64_t to_a = 0, to_b = 0;

			for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++) {
				uint32_t y = n->to[i];
				bool on_a = y < n->nd ? side[y] == 1 : reach[y];

				if (on_a)
					to_a = arith_capadd(to_a, n->c[i], BIG);
				else
					to_b = arith_capadd(to_b, n->c[i], BIG);
			}
			/* on A it cuts to_b, on B to_a */
			k[x].key = to_b - to_a;
			k[x].x = x;
		}
		qsort(k, n->nd, sizeof(*k), keyed_cmp);
		memset(trial, 0, n->nv);
		for (uint32_t i = 0; i < n->nd; i++)
			trial[k[i].x] = i < n->nd / 2 ? 1 : 2;
		c = ng_cut(n, trial);
		if (c >= cur)
			break;
		cur = c;
		memcpy(side, trial, n->nd);
	}
	free(reach);
	free(trial);
	free(k);
	return cur;
}

static int64_t split_of_order(const struct ng *n, const uint32_t *order,
			      uint8_t *side)
{
	memset(side, 0, n->nv);
	for (uint32_t i = 0; i < n->nd; i++)
		side[order[i]] = i < n->nd / 2 ? 1 : 2;
	return ng_cut(n, side);
}

/* The least cut over the caller's orders, BFS order and a few seeded
 * random splits, each improved by descent; sizes keep it near linear. */
static int64_t search(const struct ng *n, const struct bgraph *g,
		      uint8_t *best_side)
{
	uint8_t *side = xcalloc((size_t)n->nv + 1, 1);
	uint32_t *order = xmalloc(((size_t)n->nd + 1) * sizeof(*order));
	int64_t best = BIG;
	uint64_t seed = 0x853c49e6748fea9bull;
	/* large graphs: the caller's first orders and one descent step,
	 * so that the search costs a few max-flows */
	uint32_t rounds = n->nv > 20000 ? 1 : n->nv > 2000 ? 3 : 8;
	uint32_t tries = n->nv > 20000
			     ? (g->norders < 2 ? g->norders : 2)
			     : g->norders + 1 + (n->nv > 2000 ? 2 : 8);

	for (uint32_t t = 0; t < tries; t++) {
		int64_t c;

		if (t < g->norders && n->nv > 20000) {
			memcpy(order, g->orders[t], n->nd * sizeof(*order));
		} else if (t < g->norders) {
			memcpy(order, g->orders[t], n->nd * sizeof(*order));
		} else if (t == g->norders) {
			bfs_order(n, order);
		} else {
			for (uint32_t i = 0; i < n->nd; i++)
				order[i] = i;
			for (uint32_t i = n->nd; i > 1; i--) {
				uint32_t j, x;

				seed = seed * 6364136223846793005ull +
				       1442695040888963407ull;
				j = (uint32_t)((seed >> 33) % i);
				x = order[i - 1];
				order[i - 1] = order[j];
				order[j] = x;
			}
		}
		c = split_of_order(n, order, side);
		c = descend(n, side, c, rounds);
		if (c < best) {
			best = c;
			memcpy(best_side, side, n->nd);
		}
	}
	free(side);
	free(order);
	return best;
}

/* ---- lower bound for the rest ---- */

/*
 * If the graph is a tree (devices and switches, after merging), every
 * device pair can send f at once, where f is the least over the edges of
 * cap / (n1 n2), n1 and n2 the devices on either side of the edge: each
 * pair's path is unique and an edge carries n1 n2 pairs per direction.
 * Every balanced split (A, B) then carries f |A| |B| from A to B across
 * its cut, so the bisection is at least f floor(n/2) ceil(n/2).  Returns
 * -1 when the graph is no tree.
 */
static int64_t tree_flow_bound(const struct ng *n)
{
	uint32_t *par, *q, *cnt, qt = 0;
	int64_t best_num = -1;
	u128 best_den = 1;
	uint64_t half = n->nd / 2, rest = n->nd - half;
	int64_t r;

	if (n->ne + 1 != n->nv)
		return -1;
	par = xmalloc((size_t)n->nv * sizeof(*par));
	q = xmalloc((size_t)n->nv * sizeof(*q));
	cnt = xcalloc((size_t)n->nv, sizeof(*cnt));
	qt = tree_bfs(n, 0, par, NULL, q);
	if (qt != n->nv) {
		r = -1;
		goto out;
	}
	for (uint32_t k = qt; k-- > 1;) {
		uint32_t x = q[k];
		int64_t c = 0;
		u128 den;

		cnt[x] += x < n->nd;
		cnt[par[x]] += cnt[x];
		for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++)
			if (n->to[i] == par[x])
				c = n->c[i];
		den = (u128)cnt[x] * (n->nd - cnt[x]);
		if (!den)
			continue;
		/* c / den < best_num / best_den ? */
		if (best_num < 0 || (u128)c * best_den < (u128)best_num * den) {
			best_num = c;
			best_den = den;
		}
	}
	if (best_num < 0) {
		r = -1;
		goto out;
	}
	{
		u128 v = (u128)best_num * half * rest / best_den;

		r = v > (u128)BIG ? BIG : (int64_t)v;
	}
out:
	free(par);
	free(q);
	free(cnt);
	return r;
}

/*
 * A lower bound for switch graphs that are no forest: the switch edges
 * outside a maximum-capacity spanning forest deleted.  Deleting edges
 * lowers every cut, so the exact bisection of what is left (solve_tree)
 * is at most the bisection.  Its split is a candidate for the upper bound
 * too (@side, with its true cut in *@cut).  False when solve_tree does not
 * apply to what is left.
 */
static int edge_cap_desc(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->cap != y->cap)
		return x->cap > y->cap ? -1 : 1;
	if (x->u != y->u)
		return x->u < y->u ? -1 : 1;
	return x->v < y->v ? -1 : x->v > y->v;
}

static bool forest_bound(const struct ng *n, int64_t *lb, uint8_t *side,
			 int64_t *cut)
{
	struct edge *e = xmalloc(((size_t)n->ne + 1) * sizeof(*e));
	uint32_t *up = xmalloc(((size_t)n->nv + 1) * sizeof(*up));
	uint32_t m = 0, k;
	struct ng f;
	bool ok;

	for (uint32_t x = 0; x < n->nv; x++)
		up[x] = x;
	for (uint32_t i = 0; i < n->ne; i++)
		if (n->u[i] < n->nd || n->v[i] < n->nd)
			e[m++] = (struct edge){ n->u[i], n->v[i], n->cap[i] };
	k = m;
	for (uint32_t i = 0; i < n->ne; i++)
		if (n->u[i] >= n->nd && n->v[i] >= n->nd)
			e[k++] = (struct edge){ n->u[i], n->v[i], n->cap[i] };
	qsort(e + m, k - m, sizeof(*e), edge_cap_desc);
	for (uint32_t i = m; i < k; i++) {
		uint32_t a = e[i].u, b = e[i].v;

		while (up[a] != a)
			a = up[a] = up[up[a]];
		while (up[b] != b)
			b = up[b] = up[up[b]];
		if (a == b)
			continue; /* it would close a cycle: deleted */
		up[a] = b;
		e[m++] = e[i];
	}
	free(up);
	ng_build(&f, n->nd, n->nv, e, m);
	free(e);
	memset(side, 0, n->nv);
	ok = solve_tree(&f, lb, side);
	ng_free(&f);
	if (ok)
		*cut = ng_cut(n, side);
	return ok;
}

/*
 * A lower bound from a regular part of the graph.  The switches are put in
 * classes by the sets of classes they meet (refine_cells with @sets: the
 * leaves, every pod's spines, the cores of a three-tier tree).  Between two
 * classes X and Y a sub-capacity w <= cap is taken that is regular: every
 * x in X has W/|X| of it towards Y and every y in Y has W/|Y|, with W as
 * large as such a w allows (a transport problem, checked by max-flow; W/|X|
 * and W/|Y| whole).  Lowering capacities lowers every cut, and the regular
 * part is equitable (equitable_merge) with every class a cell, so its
 * bisection is that of the graph of the classes; when an exact method
 * solves that graph, its value is a lower bound of the bisection, and its
 * split (with the cut it has in the graph) a candidate for the upper one.
 * Capacity is left out only where the members of a class meet another
 * class unevenly (the cores of a tree whose spines spread over them with
 * one link more to some); when the rest still carries the bisection, the
 * bound meets the upper one and the figure is exact.
 */
struct dflow {
	uint32_t n, m, *head, *next, *to, *level, *it, *queue;
	int64_t *cap;
};

static void df_arc(struct dflow *f, uint32_t a, uint32_t b, int64_t c)
{
	f->to[f->m] = b;
	f->cap[f->m] = c;
	f->next[f->m] = f->head[a];
	f->head[a] = f->m++;
	f->to[f->m] = a;
	f->cap[f->m] = 0;
	f->next[f->m] = f->head[b];
	f->head[b] = f->m++;
}

static int64_t df_push(struct dflow *f, uint32_t x, uint32_t t, int64_t lim)
{
	if (x == t)
		return lim;
	for (; f->it[x] != RK_NONE; f->it[x] = f->next[f->it[x]]) {
		uint32_t a = f->it[x], y = f->to[a];
		int64_t d;

		if (f->cap[a] <= 0 || f->level[y] != f->level[x] + 1)
			continue;
		d = df_push(f, y, t, lim < f->cap[a] ? lim : f->cap[a]);
		if (d > 0) {
			f->cap[a] -= d;
			f->cap[a ^ 1] += d;
			return d;
		}
	}
	return 0;
}

/* Directed max-flow from s to t (Dinic; the paths here have 3 arcs). */
static int64_t df_run(struct dflow *f, uint32_t s, uint32_t t)
{
	int64_t total = 0;

	for (;;) {
		uint32_t qh = 0, qt = 0;
		int64_t d;

		for (uint32_t x = 0; x < f->n; x++)
			f->level[x] = RK_NONE;
		f->level[s] = 0;
		f->queue[qt++] = s;
		while (qh < qt) {
			uint32_t x = f->queue[qh++];

			for (uint32_t a = f->head[x]; a != RK_NONE;
			     a = f->next[a])
				if (f->cap[a] > 0 &&
				    f->level[f->to[a]] == RK_NONE) {
					f->level[f->to[a]] = f->level[x] + 1;
					f->queue[qt++] = f->to[a];
				}
		}
		if (f->level[t] == RK_NONE)
			return total;
		memcpy(f->it, f->head, f->n * sizeof(*f->it));
		while ((d = df_push(f, s, t, BIG)) > 0)
			total = arith_capadd(total, d, BIG);
	}
}

/*
 * The most the edges e[0..m) from the members of X (local indices 0..nx-1
 * in e[].u) to those of Y (0..ny-1 in e[].v) carry from X to Y when each x
 * sends at most w/nx and each y takes at most w/ny: a max-flow.  The
 * regular sub-capacity of total w exists when it is w.
 */
static int64_t regular_flow(const struct edge *e, uint32_t m, uint32_t nx,
			    uint32_t ny, int64_t w, int64_t *next)
{
	struct dflow f;
	uint32_t s = nx + ny, t = s + 1, narcs = 2 * (m + nx + ny);
	int64_t got;

	memset(&f, 0, sizeof(f));
	f.n = nx + ny + 2;
	f.head = xmalloc((size_t)f.n * sizeof(*f.head));
	f.level = xmalloc((size_t)f.n * sizeof(*f.level));
	f.it = xmalloc((size_t)f.n * sizeof(*f.it));
	f.queue = xmalloc((size_t)f.n * sizeof(*f.queue));
	f.next = xmalloc((size_t)narcs * sizeof(*f.next));
	f.to = xmalloc((size_t)narcs * sizeof(*f.to));
	f.cap = xmalloc((size_t)narcs * sizeof(*f.cap));
	for (uint32_t x = 0; x < f.n; x++)
		f.head[x] = RK_NONE;
	for (uint32_t x = 0; x < nx; x++)
		df_arc(&f, s, x, w / nx);
	for (uint32_t y = 0; y < ny; y++)
		df_arc(&f, nx + y, t, w / ny);
	for (uint32_t i = 0; i < m; i++)
		df_arc(&f, e[i].u, nx + e[i].v, e[i].cap);
	got = df_run(&f, s, t);
	/*
	 * When short of w, a least cut (the side of s: what the last search
	 * reached) is a line in w: a (the X-Y edges it cuts) + w (kx/nx +
	 * ky/ny) (the kx members of X it leaves out, the ky members of Y it
	 * holds).  No total above a / (1 - kx/nx - ky/ny) passes it: the next
	 * try (Newton's step on the concave max-flow).
	 */
	*next = got;
	if (got < w) {
		uint64_t kx = 0, ky = 0;
		u128 a = 0, den;

		for (uint32_t x = 0; x < nx; x++)
			kx += f.level[x] == RK_NONE;
		for (uint32_t y = 0; y < ny; y++)
			ky += f.level[nx + y] != RK_NONE;
		for (uint32_t i = 0; i < m; i++)
			if (f.level[e[i].u] != RK_NONE &&
			    f.level[nx + e[i].v] == RK_NONE)
				a += (uint64_t)e[i].cap;
		den = (u128)nx * ny;
		if (den > (u128)kx * ny + (u128)ky * nx) {
			u128 v = a * nx * ny / (den - (u128)kx * ny - ky * nx);

			if (v < (u128)*next)
				*next = (int64_t)v;
		}
	}
	free(f.head);
	free(f.level);
	free(f.it);
	free(f.queue);
	free(f.next);
	free(f.to);
	free(f.cap);
	return got;
}

struct cedge {
	struct edge c; /* the classes, c.u < c.v (c.cap unused) */
	struct edge e;
};

static int cedge_cmp(const void *a, const void *b)
{
	const struct cedge *x = a, *y = b;
	int r = edge_cmp(&x->c, &y->c);

	return r ? r : edge_cmp(&x->e, &y->e);
}

/*
 * The largest regular total between classes @a and @b (sizes na, nb) over
 * the edges e[0..m) (u in a, v in b, vertex numbers).  @loc: scratch, one
 * entry per vertex.  Every member must meet the other class.  With @most,
 * only the bound it cannot pass (no flows).
 */
static int64_t regular_total(const struct edge *e, uint32_t m, uint32_t na,
			     uint32_t nb, uint32_t *loc, bool most)
{
	uint32_t nx = 0, ny = 0;
	int64_t *rows, *cols, rmin = BIG, cmin = BIG, hi, lcm, w;
	struct edge *le;

	for (uint32_t i = 0; i < m; i++) {
		loc[e[i].u] = RK_NONE;
		loc[e[i].v] = RK_NONE;
	}
	for (uint32_t i = 0; i < m; i++) {
		if (loc[e[i].u] == RK_NONE)
			loc[e[i].u] = nx++;
		if (loc[e[i].v] == RK_NONE)
			loc[e[i].v] = ny++;
	}
	if (nx != na || ny != nb)
		return 0; /* a member meets nothing of the other class */
	rows = xcalloc(nx, sizeof(*rows));
	cols = xcalloc(ny, sizeof(*cols));
	le = xmalloc((size_t)m * sizeof(*le));
	for (uint32_t i = 0; i < m; i++) {
		le[i] = (struct edge){ loc[e[i].u], loc[e[i].v], e[i].cap };
		rows[le[i].u] = arith_capadd(rows[le[i].u], e[i].cap, BIG);
		cols[le[i].v] = arith_capadd(cols[le[i].v], e[i].cap, BIG);
	}
	for (uint32_t x = 0; x < nx; x++)
		rmin = rows[x] < rmin ? rows[x] : rmin;
	for (uint32_t y = 0; y < ny; y++)
		cmin = cols[y] < cmin ? cols[y] : cmin;
	free(rows);
	free(cols);
	/* at most every row's least and every column's least */
	hi = (u128)rmin * nx < (u128)cmin * ny ? rmin * (int64_t)nx
					       : cmin * (int64_t)ny;
	lcm = (int64_t)nx / arith_gcd64(nx, ny) * ny;
	/*
	 * The flow F(w) is concave in w, F(w) <= w, and F(w) = w up to the
	 * largest regular total W: from w above W, F(w) >= F(W) = W, and the
	 * least cut's line stays above W too, so w <- the lesser of F(w) and
	 * where that line meets w (rounded down to a multiple of lcm) falls
	 * to W, each step strictly, in few steps.
	 */
	w = hi / lcm * lcm;
	for (uint32_t step = 0; !most && w > 0 && nx > 1 && ny > 1; step++) {
		int64_t nw, f = regular_flow(le, m, nx, ny, w, &nw);

		if (f == w)
			break;
		w = step < 100 ? nw / lcm * lcm : 0; /* (never seen) */
	}
	free(le);
	return w;
}

/* The classes' edges into @ce: per pair of classes (pe[], sorted, with
 * its edges e[]), the regular total, or with @most the most it could be.
 * Returns their count. */
static uint32_t regular_pairs(const struct cedge *pe, uint32_t m,
			      const struct edge *e, const uint32_t *size,
			      uint32_t *loc, bool most, struct edge *ce)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < m;) {
		uint32_t j = i;
		int64_t w;

		while (j < m && !edge_cmp(&pe[j].c, &pe[i].c))
			j++;
		w = regular_total(e + i, j - i, size[pe[i].c.u],
				  size[pe[i].c.v], loc, most);
		if (w > 0)
			ce[k++] = (struct edge){ pe[i].c.u, pe[i].c.v, w };
		i = j;
	}
	return k;
}

static bool regular_bound(const struct ng *n, int64_t *lb, uint8_t *side,
			  int64_t *cut)
{
	uint32_t nv = n->nv, nd = n->nd, ncell, m = 0, k = 0;
	uint32_t *cell = xmalloc(((size_t)nv + 1) * sizeof(*cell));
	uint32_t *size, *loc;
	struct cedge *pe;
	struct edge *e, *ce;
	struct ng g;
	uint8_t *gs;
	bool ok = false, hopeless;

	ncell = refine_cells(n, cell, true);
	if (ncell == nv) {
		free(cell);
		return false; /* no class of two: nothing to gain */
	}
	size = xcalloc((size_t)ncell + 1, sizeof(*size));
	for (uint32_t x = 0; x < nv; x++)
		size[cell[x]]++;
	/* edges between classes (inside a class: left out), by class pair */
	pe = xmalloc(((size_t)n->ne + 1) * sizeof(*pe));
	for (uint32_t i = 0; i < n->ne; i++) {
		uint32_t a = n->u[i], b = n->v[i];

		if (cell[a] == cell[b])
			continue;
		if (cell[a] > cell[b]) {
			uint32_t t = a;

			a = b;
			b = t;
		}
		pe[m++] = (struct cedge){ { cell[a], cell[b], 0 },
					  { a, b, n->cap[i] } };
	}
	qsort(pe, m, sizeof(*pe), cedge_cmp);
	/* the solvers below want a forest of classes, each device on one
	 * edge: the flows are spent only on such */
	{
		uint32_t *up = xmalloc(((size_t)ncell + 1) * sizeof(*up));
		uint32_t *deg = xcalloc((size_t)nd + 1, sizeof(*deg));
		bool forest = true;

		for (uint32_t x = 0; x < ncell; x++)
			up[x] = x;
		for (uint32_t i = 0; i < m && forest; i++) {
			uint32_t a = pe[i].c.u, b = pe[i].c.v;

			if (i && !edge_cmp(&pe[i - 1].c, &pe[i].c))
				continue;
			if (a < nd && ++deg[a] > 1)
				forest = false;
			while (up[a] != a)
				a = up[a] = up[up[a]];
			while (up[b] != b)
				b = up[b] = up[up[b]];
			if (a == b)
				forest = false;
			up[a] = b;
		}
		free(up);
		free(deg);
		if (!forest) {
			free(pe);
			free(size);
			free(cell);
			return false;
		}
	}
	e = xmalloc(((size_t)m + 1) * sizeof(*e));
	for (uint32_t i = 0; i < m; i++)
		e[i] = pe[i].e;
	ce = xmalloc(((size_t)m + 1) * sizeof(*ce));
	loc = xmalloc(((size_t)nv + 1) * sizeof(*loc));
	gs = xcalloc((size_t)ncell + 1, 1);
	/*
	 * First every pair at the most it could keep, without flows: a large
	 * graph whose classes then neither form a non-blocking tree nor fit
	 * the switch-tree programme is given up before the flows are spent.
	 */
	k = regular_pairs(pe, m, e, size, loc, true, ce);
	ng_build(&g, nd, ncell, ce, k);
	hopeless = nd >= 4096 && !nonblocking_tree(&g, lb, gs) &&
		   !solve_tree(&g, lb, NULL);
	ng_free(&g);
	if (!hopeless) {
		k = regular_pairs(pe, m, e, size, loc, false, ce);
		ng_build(&g, nd, ncell, ce, k);
	}
	free(pe);
	free(loc);
	free(e);
	free(ce);
	if (hopeless) {
		ok = false;
	} else if (nonblocking_tree(&g, lb, gs) || solve_tree(&g, lb, gs) ||
		   solve_hubs(&g, lb, gs)) {
		memset(side, 0, nv);
		memcpy(side, gs, nd);
		*cut = ng_cut(n, side);
		ok = true;
	}
	if (!hopeless)
		ng_free(&g);
	free(gs);
	free(size);
	free(cell);
	return ok;
}

/* ---- the driver ---- */

const char *bisect_how_name(enum bisect_how h)
{
	switch (h) {
	case BH_TREE:
		return "switch tree, dynamic programme";
	case BH_SWITCHES:
		return "switch sides enumerated, leaves by knapsack";
	case BH_ENUM:
		return "branch and bound over the device splits";
	case BH_BNB_PART:
		return "branch and bound, stopped at its budget";
	case BH_TREE_FLOW:
		return "all-pairs flow on a tree";
	case BH_FOREST:
		return "switch tree of the widest switch links, the others "
		       "deleted";
	case BH_SEARCH:
		return "least cut of the splits searched";
	case BH_FLOW:
		return "concurrent multicommodity flow, loads counted exactly";
	case BH_PART:
		return "METIS multilevel splits refined by FM moves and "
		       "max-flow";
	case BH_FM:
		return "breadth-first and random splits refined by FM moves "
		       "and max-flow";
	case BH_NONBLOCKING:
		return "non-blocking tree, every link at least what crosses "
		       "it";
	case BH_REGULAR:
		return "bisection of the regular part (like switches in "
		       "classes, the links they meet unevenly left out)";
	case BH_DISJOINT:
		return "disjoint: the planes (parts of the fabric that share "
		       "no switch) make the halves whole, and no link crosses";
	default:
		return "none";
	}
}

void bisect_result_free(struct bisect_result *r)
{
	free(r->witness);
	memset(r, 0, sizeof(*r));
}

void bisect_solve(const struct bgraph *g, struct bisect_result *r)
{
	bisect_solve_with(g, 0, r);
}

void bisect_solve_with(const struct bgraph *g, uint32_t flags,
		       struct bisect_result *r)
{
	struct bgraph large;
	struct ng n;
	struct edge *e;
	uint8_t *side;
	int64_t v = 0;
	bool small = !(flags & BISECT_STRUCTURAL);

	memset(r, 0, sizeof(*r));
	if (g->nd < 2)
		return;
	e = xmalloc(((size_t)g->ne + 1) * sizeof(*e));
	for (uint32_t i = 0; i < g->ne; i++)
		e[i] = (struct edge){ g->u[i], g->v[i], g->cap[i] };
	ng_build(&n, g->nd, g->nv, e, g->ne);
	free(e);
	equitable_merge(&n);
	side = xcalloc((size_t)n.nv + 1, 1);
	r->witness = xmalloc(g->nd);
	/* the switch tree first while its work is small; at any size, a
	 * non-blocking tree */
	if (small && solve_tree(&n, &v, side))
		r->lower_how = BH_TREE;
	else if (nonblocking_tree(&n, &v, side))
		r->lower_how = BH_NONBLOCKING;
	else if (small && solve_hubs(&n, &v, side))
		r->lower_how = BH_SWITCHES;
	if (r->lower_how != BH_NONE) {
		/* the witness's own cut, by max-flow, must be the value */
		if (ng_cut(&n, side) != v)
			BUG("bisection: the witness does not cut the value");
		r->lower = r->upper = v;
		r->upper_how = r->lower_how;
		goto done;
	}
	memset(side, 0, n.nv);
	r->upper = search(&n, g, side);
	r->upper_how = BH_SEARCH;
	if (small && n.nd <= BISECT_MAX_ENUM) {
		bool exact = solve_bnb(&n, &r->lower, &r->upper, side);

		r->lower_how = exact ? BH_ENUM : BH_BNB_PART;
		if (exact)
			r->upper_how = BH_ENUM;
		goto done;
	}
	r->lower = 0;
	r->lower_how = BH_NONE;
	{
		/* the regular part, on the graph as built (merged cells differ
		 * in size) */
		uint8_t *rs = xcalloc((size_t)g->nv + 1, 1);
		int64_t rcut;
		struct ng o;

		e = xmalloc(((size_t)g->ne + 1) * sizeof(*e));
		for (uint32_t i = 0; i < g->ne; i++)
			e[i] = (struct edge){ g->u[i], g->v[i], g->cap[i] };
		ng_build(&o, g->nd, g->nv, e, g->ne);
		free(e);
		if (regular_bound(&o, &v, rs, &rcut)) {
			if (rcut < r->upper) {
				r->upper = rcut;
				r->upper_how = BH_REGULAR;
				memcpy(side, rs, n.nd);
			}
			r->lower = v < r->upper ? v : r->upper;
			r->lower_how = BH_REGULAR;
			if (r->lower == r->upper)
				r->upper_how = BH_REGULAR;
		}
		ng_free(&o);
		free(rs);
	}
	/* the others where the regular part gave nothing (on fat trees it
	 * is the stronger, and the forest's costs a switch-tree programme) */
	if (r->lower_how == BH_REGULAR)
		goto done;
	v = tree_flow_bound(&n);
	if (v >= 0) {
		if (v > r->lower) {
			r->lower = v < r->upper ? v : r->upper;
			r->lower_how = BH_TREE_FLOW;
		}
	} else {
		uint8_t *fs = xcalloc((size_t)n.nv + 1, 1);
		int64_t fcut;

		if (forest_bound(&n, &v, fs, &fcut)) {
			if (fcut < r->upper) {
				r->upper = fcut;
				r->upper_how = BH_FOREST;
				memcpy(side, fs, n.nd);
			}
			if (v > r->lower) {
				r->lower = v < r->upper ? v : r->upper;
				r->lower_how = BH_FOREST;
			}
		}
		free(fs);
	}
done:
	/* beyond the exact methods: the flow bound and the partitioner */
	large = (struct bgraph){ n.nd, n.nv, n.ne, n.u, n.v, n.cap, NULL, 0 };
	bisect_large_bounds(&large, r, side);
	memcpy(r->witness, side, g->nd);
	ng_free(&n);
	free(side);
}
