/* SPDX-License-Identifier: MIT */
/*
 * Bisection bounds for fabrics beyond the exact methods (doc/language.md,
 * "Bisection", methods 5 and 6): a lower bound from a concurrent
 * multicommodity flow that is feasible by construction (bisect_flow.c) and
 * an upper bound from multilevel partitioning refined by Fiduccia-
 * Mattheyses moves and max-flow (bisect_part.c).
 *
 * Both take the graph of bisect.h (devices 0..nd-1, then switches; loops,
 * parallel edges and edges of capacity <= 0 allowed) and stay within a
 * work budget, counted in edge scans; they refuse (return false) when
 * even their least work would exceed it.
 */
#ifndef RACKC_BISECT_LARGE_H
#define RACKC_BISECT_LARGE_H

#include <stdbool.h>
#include <stdint.h>

#include "bisect.h"

/* the sizes they run at from bisect_solve() (documented) */
#define BISECT_LARGE_MAX_DEV 5000
#define BISECT_LARGE_MAX_EDGES 200000
#define BISECT_LARGE_BUDGET 150000000ull

/**
 * struct bcsr - the graph as compressed rows, parallel edges merged
 * @nd, @nv: devices, vertices
 * @ne: undirected edges (eu[i] < ev[i], capacity ecap[i] > 0)
 * @off, @to, @arc_cap, @arc_edge: arcs of vertex x are off[x]..off[x+1];
 *       arc a goes to to[a] along edge arc_edge[a]
 */
struct bcsr {
	uint32_t nd, nv, ne;
	uint32_t *eu, *ev;
	int64_t *ecap;
	uint32_t *off, *to, *arc_edge;
	int64_t *arc_cap;
};

void bisect_csr_build(struct bcsr *c, const struct bgraph *g);
void bisect_csr_free(struct bcsr *c);

/**
 * bisect_flow_lower() - proven lower bound from a concurrent flow
 * @g: the graph
 * @budget: edge scans allowed
 * @lower: out: a value every balanced split cuts at least
 *
 * Returns false (and *lower 0) when not run within the budget.
 */
bool bisect_flow_lower(const struct bgraph *g, uint64_t budget, int64_t *lower);

/**
 * bisect_part_upper() - least cut over partitions searched
 * @g: the graph
 * @budget: edge scans allowed
 * @side: out: nd entries, 1 or 2, a balanced split of the devices
 * @cut: out: its least cut (max-flow with the halves fixed)
 * @multilevel: out: whether the multilevel partitioner (METIS) was used
 *
 * Returns false when not run within the budget.
 */
bool bisect_part_upper(const struct bgraph *g, uint64_t budget, uint8_t *side,
		       int64_t *cut, bool *multilevel);

/**
 * bisect_large_bounds() - both bounds, where they improve @r
 * @g: the graph (merged); run when it has at most BISECT_LARGE_MAX_DEV
 *     devices and BISECT_LARGE_MAX_EDGES edges
 * @r: the interval so far; raised and lowered in place
 * @side: the witness so far (nd entries); replaced with the upper's
 */
void bisect_large_bounds(const struct bgraph *g, struct bisect_result *r,
			 uint8_t *side);

#endif
