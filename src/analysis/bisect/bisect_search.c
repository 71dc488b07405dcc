/* SPDX-License-Identifier: MIT */
/*
 * An upper bound on the bisection: the least cut of the splits a search
 * tries (BH_SEARCH).
 */
#include "rackc.h"

#include <stdlib.h>

#include "bisect.h"
#include "arith.h"
#include "bisect_ng.h"
#include "maxflow.h"

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
		c = bng_cut(n, trial);
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
	return bng_cut(n, side);
}

/* The least cut over the caller's orders, BFS order and a few seeded
 * random splits, each improved by descent; sizes keep it near linear. */
int64_t bisect_search(const struct ng *n, const struct bgraph *g,
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
			bng_bfs_order(n, order);
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
