/* SPDX-License-Identifier: MIT */
/*
 * The normalised graph the bisection methods share: parallel edges merged,
 * loops dropped, adjacency in compressed rows; its max-flow cut, the
 * refinement of the switches into cells that keep every split's max-flow,
 * and the breadth-first walks the methods order their work by.
 */
#include "rackc.h"

#include <stdlib.h>

#include "bisect.h"
#include "arith.h"
#include "bisect_ng.h"
#include "maxflow.h"

int bng_edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->u != y->u)
		return x->u < y->u ? -1 : 1;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return 0;
}

/* Build @n from edges e[0..m) over nv vertices (map applied already). */
void bng_build(struct ng *n, uint32_t nd, uint32_t nv, struct edge *e,
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
	qsort(e, m, sizeof(*e), bng_edge_cmp);
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

void bng_free(struct ng *n)
{
	free(n->u);
	free(n->v);
	free(n->cap);
	free(n->off);
	free(n->to);
	free(n->c);
}

int64_t bng_cut(const struct ng *n, const uint8_t *side)
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

int bng_hent_cmp(const void *a, const void *b)
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
 * capacities ignored (the coarser classes bisect_regular_bound() works with).
 * Returns the number of cells.
 */
uint32_t bng_refine_cells(const struct ng *n, uint32_t *cell, bool sets)
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
		qsort(hs, ns, sizeof(*hs), bng_hent_cmp);
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

bool bng_equitable_merge(struct ng *n)
{
	uint32_t nd = n->nd, nv = n->nv, ncell, *cell;
	struct edge *e;

	if (nv - nd < 2)
		return false;
	cell = xmalloc((size_t)nv * sizeof(*cell));
	ncell = bng_refine_cells(n, cell, false);
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
		bng_free(n);
		bng_build(n, nd, ncell, e, m);
	}
	free(e);
	free(cell);
	return true;
}

/* Breadth-first from @root: the order into @q, each vertex's parent into
 * @par (RK_NONE at the root) and, with @up, the capacity of the edge to
 * it.  Returns the vertices reached. */
uint32_t bng_tree_bfs(const struct ng *n, uint32_t root, uint32_t *par,
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

/*
 * Devices in breadth-first order from device 0 (over switches), so that
 * the devices placed early are close and the bounds rise early.
 */
void bng_bfs_order(const struct ng *n, uint32_t *order)
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
