/* SPDX-License-Identifier: MIT */
/*
 * Lower bounds from trees: the uniform all-pairs flow of a tree, in closed
 * form (BH_TREE_FLOW), and the exact bisection of the widest spanning
 * forest of the switch links (BH_FOREST).
 */
#include "rackc.h"

#include <stdlib.h>

#include "bisect.h"
#include "arith.h"
#include "bisect_ng.h"

/*
 * If the graph is a tree (devices and switches, after merging), every
 * device pair can send f at once, where f is the least over the edges of
 * cap / (n1 n2), n1 and n2 the devices on either side of the edge: each
 * pair's path is unique and an edge carries n1 n2 pairs per direction.
 * Every balanced split (A, B) then carries f |A| |B| from A to B across
 * its cut, so the bisection is at least f floor(n/2) ceil(n/2).  Returns
 * -1 when the graph is no tree.
 */
int64_t bisect_tree_flow_bound(const struct ng *n)
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
	qt = bng_tree_bfs(n, 0, par, NULL, q);
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
 * lowers every cut, so the exact bisection of what is left (bisect_tree_solve)
 * is at most the bisection.  Its split is a candidate for the upper bound
 * too (@side, with its true cut in *@cut).  False when bisect_tree_solve does not
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

bool bisect_forest_bound(const struct ng *n, int64_t *lb, uint8_t *side,
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
	bng_build(&f, n->nd, n->nv, e, m);
	free(e);
	memset(side, 0, n->nv);
	ok = bisect_tree_solve(&f, lb, side);
	bng_free(&f);
	if (ok)
		*cut = bng_cut(n, side);
	return ok;
}
