/* SPDX-License-Identifier: MIT */
/*
 * Bisection bandwidth of a graph over its endpoint devices, as an interval
 * [lower, upper] with a witness split (doc/language.md, "Bisection").
 *
 * The graph: vertices 0..nd-1 are endpoint devices (a device's ports are
 * one vertex), the others switches; undirected edges with a capacity per
 * direction.  A balanced split puts floor(nd/2) devices on one side and the
 * rest on the other; switches go wherever the cut is least.  The bisection
 * is the least cut over balanced splits.
 *
 * First the switches are merged into cells where that keeps every split's
 * max-flow (bng_equitable_merge, bisect_ng.c).  Exact methods, tried in
 * turn (bisect.c runs them; each lives in the file named):
 *   BH_TREE      every device hangs off one switch by links of one
 *                capacity and the switch cells form a forest: a dynamic
 *                programme over the forest on the devices whose switch is
 *                on side A (fat trees of two and three tiers, stars;
 *                bisect_tree.c).  A tree whose every link carries what can
 *                cross it is solved at any size (bisect_nonblocking.c).
 *   BH_SWITCHES  every side of the "hub" switches enumerated (at most
 *                BISECT_MAX_HUBS after identical switches are merged); the
 *                other switches are leaves, each with devices of its own,
 *                and for fixed hub sides each leaf (or device) costs a
 *                concave function of how many of its devices sit on side A,
 *                so an optimum splits at most one of them: a knapsack over
 *                classes of equal leaves gives the least cut exactly
 *                (bisect_hubs.c).
 *   BH_ENUM      branch and bound over the devices' sides (at most
 *                BISECT_MAX_ENUM devices), pruned by the max-flow between
 *                the devices placed so far (bisect_bnb.c).
 * Otherwise a lower bound that is a proof (bisect_regular.c,
 * bisect_treebound.c, bisect_flow.c) and an upper bound from a search
 * (bisect_search.c, bisect_part.c).
 */
#ifndef RACKC_BISECT_H
#define RACKC_BISECT_H

#include <stdbool.h>
#include <stdint.h>

#define BISECT_MAX_HUBS 20
#define BISECT_MAX_ENUM 24

enum bisect_how {
	BH_NONE,      /* no bound (fewer than two devices, or none proven) */
	BH_TREE,      /* exact: the switches form a forest, dynamic programme */
	BH_SWITCHES,  /* exact: switch sides enumerated, leaves by knapsack */
	BH_ENUM,      /* exact: branch and bound over the device splits */
	BH_BNB_PART,  /* lower: branch and bound stopped at its budget */
	BH_TREE_FLOW, /* lower: uniform all-pairs flow on a tree (closed form) */
	BH_FOREST,    /* lower: exact bisection without the switch links
			 outside a widest spanning forest */
	BH_SEARCH,    /* upper: least cut of the splits a search tried */
	BH_FLOW,      /* lower: concurrent flow (bisect_flow.c) */
	BH_PART,      /* upper: METIS splits refined (bisect_part.c) */
	BH_FM,	      /* upper: plain splits refined (bisect_part.c) */
	BH_NONBLOCKING, /* exact: a tree with every link at least what
			   crosses it: full bisection */
	BH_REGULAR,	/* lower: exact bisection of the regular part, where
			   like switches meet the others evenly */
	BH_DISJOINT,	/* exact: the fabric falls apart into parts that
			   share nothing, and whole parts make the halves:
			   the bisection is 0 (metrics.c) */
};

/**
 * struct bgraph - the input
 * @nd:  endpoint devices (vertices 0..nd-1)
 * @nv:  vertices
 * @ne:  edges (u[i], v[i]) of capacity cap[i] >= 0 per direction
 * @orders, @norders: device orders a caller suggests as candidate splits
 *       (the first half of each order on one side); may be 0
 */
struct bgraph {
	uint32_t nd, nv, ne;
	const uint32_t *u, *v;
	const int64_t *cap;
	const uint32_t *const *orders;
	uint32_t norders;
};

/**
 * struct bisect_result - the interval
 * @lower, @upper: bounds, b/s (lower == upper when exact)
 * @lower_how, @upper_how: how each was obtained
 * @witness: nd entries, 1 or 2: the side of each device in a split whose
 *       cut is @upper (malloc'ed; NULL when nd < 2)
 */
struct bisect_result {
	int64_t lower, upper;
	enum bisect_how lower_how, upper_how;
	uint8_t *witness;
};

void bisect_solve(const struct bgraph *g, struct bisect_result *r);
/* bisect_solve() with @flags: 0, or BISECT_STRUCTURAL (for tests: the
 * direct exact methods, switch tree, hub sides and branch and bound, are
 * skipped, so that the structural ones meet cases small enough for a
 * brute force) */
#define BISECT_STRUCTURAL 1u
void bisect_solve_with(const struct bgraph *g, uint32_t flags,
		       struct bisect_result *r);
void bisect_result_free(struct bisect_result *r);
const char *bisect_how_name(enum bisect_how h);

#endif
