/* SPDX-License-Identifier: MIT */
/*
 * A lower bound from the regular part of the graph, where like switches
 * meet the others evenly (BH_REGULAR).
 */
#include "rackc.h"

#include <stdlib.h>

#include "bisect.h"
#include "arith.h"
#include "bisect_ng.h"
#include "maxflow.h"

/*
 * A lower bound from a regular part of the graph.  The switches are put in
 * classes by the sets of classes they meet (bng_refine_cells with @sets: the
 * leaves, every pod's spines, the cores of a three-tier tree).  Between two
 * classes X and Y a sub-capacity w <= cap is taken that is regular: every
 * x in X has W/|X| of it towards Y and every y in Y has W/|Y|, with W as
 * large as such a w allows (a transport problem, checked by max-flow; W/|X|
 * and W/|Y| whole).  Lowering capacities lowers every cut, and the regular
 * part is equitable (bng_equitable_merge) with every class a cell, so its
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
	int r = bng_edge_cmp(&x->c, &y->c);

	return r ? r : bng_edge_cmp(&x->e, &y->e);
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

		while (j < m && !bng_edge_cmp(&pe[j].c, &pe[i].c))
			j++;
		w = regular_total(e + i, j - i, size[pe[i].c.u],
				  size[pe[i].c.v], loc, most);
		if (w > 0)
			ce[k++] = (struct edge){ pe[i].c.u, pe[i].c.v, w };
		i = j;
	}
	return k;
}

bool bisect_regular_bound(const struct ng *n, int64_t *lb, uint8_t *side,
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

	ncell = bng_refine_cells(n, cell, true);
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

			if (i && !bng_edge_cmp(&pe[i - 1].c, &pe[i].c))
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
	bng_build(&g, nd, ncell, ce, k);
	hopeless = nd >= 4096 && !bisect_nonblocking(&g, lb, gs) &&
		   !bisect_tree_solve(&g, lb, NULL);
	bng_free(&g);
	if (!hopeless) {
		k = regular_pairs(pe, m, e, size, loc, false, ce);
		bng_build(&g, nd, ncell, ce, k);
	}
	free(pe);
	free(loc);
	free(e);
	free(ce);
	if (hopeless) {
		ok = false;
	} else if (bisect_nonblocking(&g, lb, gs) ||
		   bisect_tree_solve(&g, lb, gs) ||
		   bisect_hubs_solve(&g, lb, gs)) {
		memset(side, 0, nv);
		memcpy(side, gs, nd);
		*cut = bng_cut(n, side);
		ok = true;
	}
	if (!hopeless)
		bng_free(&g);
	free(gs);
	free(size);
	free(cell);
	return ok;
}
