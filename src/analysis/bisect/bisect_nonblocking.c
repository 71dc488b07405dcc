/* SPDX-License-Identifier: MIT */
/*
 * Exact bisection of a non-blocking tree: every link carries at least what
 * can cross it, so the fabric has full bisection (BH_NONBLOCKING).
 */
#include "rackc.h"

#include <stdlib.h>

#include "bisect.h"
#include "arith.h"
#include "bisect_ng.h"

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
 * bng_equitable_merge.)  Linear in the graph.
 */
bool bisect_nonblocking(const struct ng *n, int64_t *best, uint8_t *side)
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
	qt = bng_tree_bfs(n, nd, par, up, q);
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
