/* SPDX-License-Identifier: MIT */
/*
 * Exact bisection by branch and bound over the devices' sides, pruned by
 * the max-flow between the devices placed so far (BH_ENUM, BH_BNB_PART).
 */
#include "rackc.h"

#include <stdlib.h>

#include "bisect.h"
#include "bisect_ng.h"

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
			lb = bng_cut(n, b->side);
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
/* Returns true when exact; *lower is then the value.  @side: in: the best
 * split known (its cut *upper); out: the best found. */
bool bisect_bnb_solve(const struct ng *n, int64_t *lower, int64_t *upper,
		      uint8_t *side)
{
	struct bnb b;

	memset(&b, 0, sizeof(b));
	b.n = n;
	b.order = xmalloc((size_t)n->nd * sizeof(*b.order));
	bng_bfs_order(n, b.order);
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
