/* SPDX-License-Identifier: MIT */
/*
 * Bisection over endpoint devices: the dispatcher that runs the exact
 * methods, then the bounds, in turn and keeps a witness (see bisect.h for
 * the order and the file of each method, and doc/language.md,
 * "Bisection").
 */
#include "rackc.h"

#include <stdlib.h>

#include "bisect.h"
#include "bisect_large.h"
#include "bisect_ng.h"

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
	bng_build(&n, g->nd, g->nv, e, g->ne);
	free(e);
	bng_equitable_merge(&n);
	side = xcalloc((size_t)n.nv + 1, 1);
	r->witness = xmalloc(g->nd);
	/* the switch tree first while its work is small; at any size, a
	 * non-blocking tree */
	if (small && bisect_tree_solve(&n, &v, side))
		r->lower_how = BH_TREE;
	else if (bisect_nonblocking(&n, &v, side))
		r->lower_how = BH_NONBLOCKING;
	else if (small && bisect_hubs_solve(&n, &v, side))
		r->lower_how = BH_SWITCHES;
	if (r->lower_how != BH_NONE) {
		/* the witness's own cut, by max-flow, must be the value */
		if (bng_cut(&n, side) != v)
			BUG("bisection: the witness does not cut the value");
		r->lower = r->upper = v;
		r->upper_how = r->lower_how;
		goto done;
	}
	memset(side, 0, n.nv);
	r->upper = bisect_search(&n, g, side);
	r->upper_how = BH_SEARCH;
	if (small && n.nd <= BISECT_MAX_ENUM) {
		bool exact = bisect_bnb_solve(&n, &r->lower, &r->upper, side);

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
		bng_build(&o, g->nd, g->nv, e, g->ne);
		free(e);
		if (bisect_regular_bound(&o, &v, rs, &rcut)) {
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
		bng_free(&o);
		free(rs);
	}
	/* the others where the regular part gave nothing (on fat trees it
	 * is the stronger, and the forest's costs a switch-tree programme) */
	if (r->lower_how == BH_REGULAR)
		goto done;
	v = bisect_tree_flow_bound(&n);
	if (v >= 0) {
		if (v > r->lower) {
			r->lower = v < r->upper ? v : r->upper;
			r->lower_how = BH_TREE_FLOW;
		}
	} else {
		uint8_t *fs = xcalloc((size_t)n.nv + 1, 1);
		int64_t fcut;

		if (bisect_forest_bound(&n, &v, fs, &fcut)) {
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
	bng_free(&n);
	free(side);
}
