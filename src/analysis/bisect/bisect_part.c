/* SPDX-License-Identifier: MIT */
/*
 * An upper bound on the bisection from a strong search (doc/language.md,
 * "Bisection", method 6): balanced splits from multilevel partitioning
 * (METIS, endpoint devices weighing 1 and switches 0, several seeds; or
 * breadth-first and seeded random splits when rackc is built without
 * METIS), each refined by Fiduccia-Mattheyses passes over every vertex
 * (switches move freely, devices within one of balance) and by max-flow:
 * with the devices' sides fixed, the least cut places the switches, and
 * the passes start again from there while the cut falls.  The least cut,
 * by max-flow, of the splits reached is the bound and its split the
 * witness.
 */
#include "rackc.h"
#include "arith.h"

#include <stdlib.h>

#ifdef HAVE_METIS
#include <metis.h>
#endif

#include "bisect_large.h"
#include "metrics.h"
#include "maxflow.h"

#define BIG (INT64_MAX / 4)
#define SEEDS 8

/* ---- an indexed max-heap of vertices keyed by gain ---- */

struct gheap {
	uint32_t *h, n;
	uint32_t *pos; /* RK_NONE: not in */
	const int64_t *gain;
};

static bool gbetter(const struct gheap *q, uint32_t a, uint32_t b)
{
	return q->gain[a] > q->gain[b] || (q->gain[a] == q->gain[b] && a < b);
}

static void gswap(struct gheap *q, uint32_t i, uint32_t j)
{
	uint32_t t = q->h[i];

	q->h[i] = q->h[j];
	q->h[j] = t;
	q->pos[q->h[i]] = i;
	q->pos[q->h[j]] = j;
}

static void gfix(struct gheap *q, uint32_t i)
{
	while (i && gbetter(q, q->h[i], q->h[(i - 1) / 2])) {
		gswap(q, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < q->n && gbetter(q, q->h[l], q->h[m]))
			m = l;
		if (r < q->n && gbetter(q, q->h[r], q->h[m]))
			m = r;
		if (m == i)
			break;
		gswap(q, i, m);
		i = m;
	}
}

static void gpush(struct gheap *q, uint32_t x)
{
	q->h[q->n] = x;
	q->pos[x] = q->n++;
	gfix(q, q->n - 1);
}

static void gremove(struct gheap *q, uint32_t x)
{
	uint32_t i = q->pos[x];

	q->pos[x] = RK_NONE;
	if (i == --q->n)
		return;
	q->h[i] = q->h[q->n];
	q->pos[q->h[i]] = i;
	gfix(q, i);
}

/* ---- Fiduccia-Mattheyses passes ---- */

struct fm {
	const struct bcsr *c;
	uint8_t *side; /* nv entries, 1 or 2 */
	int64_t *gain;
	uint8_t *locked;
	uint32_t *moved;
	struct gheap q[2][2]; /* [side - 1][is switch] */
	uint32_t kmin, kmax;  /* devices on side 1 */
	uint64_t work;
};

static int64_t fm_cut(const struct fm *f)
{
	const struct bcsr *c = f->c;
	int64_t cut = 0;

	for (uint32_t i = 0; i < c->ne; i++)
		if (f->side[c->eu[i]] != f->side[c->ev[i]])
			cut = cut >= BIG - c->ecap[i] ? BIG : cut + c->ecap[i];
	return cut;
}

static void fm_gains(struct fm *f)
{
	const struct bcsr *c = f->c;

	for (uint32_t x = 0; x < c->nv; x++) {
		int64_t g = 0;

		for (uint32_t a = c->off[x]; a < c->off[x + 1]; a++)
			g += f->side[c->to[a]] != f->side[x] ? c->arc_cap[a]
							     : -c->arc_cap[a];
		f->gain[x] = g;
	}
	f->work += c->off[c->nv];
}

/* One pass; returns the cut after rolling back to the best balanced
 * prefix (the cut given when no prefix improved it). */
static int64_t fm_pass(struct fm *f, int64_t cut, uint32_t na)
{
	const struct bcsr *c = f->c;
	int64_t best = cut;
	uint32_t nmoved = 0, best_at = 0, idle = 0;
	uint32_t limit = 100 + c->nv / 8;

	fm_gains(f);
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < 2; t++)
			f->q[s][t].n = 0;
	for (uint32_t x = 0; x < c->nv; x++) {
		f->locked[x] = 0;
		gpush(&f->q[f->side[x] - 1][x >= c->nd], x);
	}
	while (idle < limit) {
		uint32_t pick = RK_NONE;

		for (int s = 0; s < 2; s++)
			for (int t = 0; t < 2; t++) {
				const struct gheap *q = &f->q[s][t];
				uint32_t x;

				if (!q->n)
					continue;
				x = q->h[0];
				/* a device moves only within one of balance */
				if (!t && (s == 0 ? na + 1 <= f->kmin
						  : na >= f->kmax + 1))
					continue;
				if (pick == RK_NONE ||
				    f->gain[x] > f->gain[pick] ||
				    (f->gain[x] == f->gain[pick] && x < pick))
					pick = x;
			}
		if (pick == RK_NONE)
			break;
		gremove(&f->q[f->side[pick] - 1][pick >= c->nd], pick);
		f->locked[pick] = 1;
		cut -= f->gain[pick];
		if (pick < c->nd)
			na += f->side[pick] == 1 ? -1u : 1u;
		f->side[pick] = f->side[pick] == 1 ? 2 : 1;
		f->moved[nmoved++] = pick;
		/* the neighbours' gains */
		for (uint32_t a = c->off[pick]; a < c->off[pick + 1]; a++) {
			uint32_t y = c->to[a];

			f->gain[y] += f->side[y] == f->side[pick]
					  ? -2 * c->arc_cap[a]
					  : 2 * c->arc_cap[a];
			if (!f->locked[y])
				gfix(&f->q[f->side[y] - 1][y >= c->nd],
				     f->q[f->side[y] - 1][y >= c->nd].pos[y]);
		}
		f->gain[pick] = -f->gain[pick];
		f->work += c->off[pick + 1] - c->off[pick] + 8;
		if (na >= f->kmin && na <= f->kmax && cut < best) {
			best = cut;
			best_at = nmoved;
			idle = 0;
		} else {
			idle++;
		}
	}
	/* back to the best prefix */
	while (nmoved > best_at) {
		uint32_t x = f->moved[--nmoved];

		f->side[x] = f->side[x] == 1 ? 2 : 1;
	}
	return best;
}

static uint32_t count_a(const struct bcsr *c, const uint8_t *side)
{
	uint32_t na = 0;

	for (uint32_t x = 0; x < c->nd; x++)
		na += side[x] == 1;
	return na;
}

/*
 * Balance the devices exactly: while side 1 holds too many (few), move
 * the device of largest gain from it (to it).
 */
static void balance(struct fm *f)
{
	const struct bcsr *c = f->c;
	uint32_t na = count_a(c, f->side);

	fm_gains(f);
	while (na < f->kmin || na > f->kmax) {
		uint8_t from = na > f->kmax ? 1 : 2;
		uint32_t pick = RK_NONE;

		for (uint32_t x = 0; x < c->nd; x++)
			if (f->side[x] == from &&
			    (pick == RK_NONE || f->gain[x] > f->gain[pick]))
				pick = x;
		if (pick == RK_NONE)
			BUG("bisection: no device to balance with");
		f->side[pick] = from == 1 ? 2 : 1;
		na += from == 1 ? -1u : 1u;
		for (uint32_t a = c->off[pick]; a < c->off[pick + 1]; a++) {
			uint32_t y = c->to[a];

			f->gain[y] += f->side[y] == f->side[pick]
					  ? -2 * c->arc_cap[a]
					  : 2 * c->arc_cap[a];
		}
		f->gain[pick] = -f->gain[pick];
	}
}

/* FM passes and max-flow placements of the switches while the cut
 * falls; returns the least cut of f->side's devices (by max-flow). */
static int64_t refine(struct fm *f, uint8_t *dev_side, uint8_t *reach,
		      uint64_t budget, uint8_t *best_dev)
{
	const struct bcsr *c = f->c;
	int64_t best = BIG;

	balance(f);
	for (int round = 0; round < 6; round++) {
		int64_t cut = fm_cut(f), mf;
		bool improved;

		for (int p = 0; p < 8 && f->work < budget; p++) {
			int64_t nc = fm_pass(f, cut, count_a(c, f->side));

			if (nc >= cut)
				break;
			cut = nc;
		}
		/* switches placed by the least cut for these devices */
		memset(dev_side, 0, c->nv);
		memcpy(dev_side, f->side, c->nd);
		mf = maxflow_bipartition_cut(c->nv, c->ne, c->eu, c->ev,
					     c->ecap, dev_side, reach);
		f->work += (uint64_t)c->off[c->nv] * 4;
		improved = mf < best;
		if (improved) {
			best = mf;
			memcpy(best_dev, f->side, c->nd);
		}
		if (!improved || f->work >= budget)
			break;
		for (uint32_t x = c->nd; x < c->nv; x++)
			f->side[x] = reach[x] ? 1 : 2;
	}
	return best;
}

#ifdef HAVE_METIS
/* METIS's split of every vertex, devices weighing 1 and switches 0. */
static bool metis_split(const struct bcsr *c, uint32_t seed, uint8_t *side)
{
	idx_t n = (idx_t)c->nv, ncon = 1, nparts = 2, objval = 0;
	idx_t *xadj, *adj, *vw, *ew, *part, opt[METIS_NOPTIONS];
	int64_t g = 0, mx = 1;
	bool ok;

	xadj = xmalloc(((size_t)c->nv + 1) * sizeof(*xadj));
	adj = xmalloc(((size_t)c->off[c->nv] + 1) * sizeof(*adj));
	ew = xmalloc(((size_t)c->off[c->nv] + 1) * sizeof(*ew));
	vw = xmalloc(((size_t)c->nv + 1) * sizeof(*vw));
	part = xmalloc(((size_t)c->nv + 1) * sizeof(*part));
	for (uint32_t i = 0; i < c->ne; i++)
		g = arith_gcd64(g, c->ecap[i]);
	for (uint32_t i = 0; i < c->ne; i++)
		if (c->ecap[i] / g > mx)
			mx = c->ecap[i] / g;
	for (uint32_t x = 0; x <= c->nv; x++)
		xadj[x] = (idx_t)c->off[x];
	for (uint32_t a = 0; a < c->off[c->nv]; a++) {
		/* METIS weighs edges in int32: capacities scaled, at
		 * least 1 (they only steer; cuts are counted exactly) */
		int64_t v = c->arc_cap[a] / g;

		if (mx > 65536)
			v = (int64_t)((double)v * 65536.0 / (double)mx);
		adj[a] = (idx_t)c->to[a];
		ew[a] = (idx_t)(v < 1 ? 1 : v);
	}
	for (uint32_t x = 0; x < c->nv; x++)
		vw[x] = x < c->nd;
	METIS_SetDefaultOptions(opt);
	opt[METIS_OPTION_SEED] = (idx_t)seed;
	opt[METIS_OPTION_UFACTOR] = 1;
	opt[METIS_OPTION_NUMBERING] = 0;
	ok = METIS_PartGraphRecursive(&n, &ncon, xadj, adj, vw, NULL, ew,
				      &nparts, NULL, NULL, opt, &objval,
				      part) == METIS_OK;
	for (uint32_t x = 0; ok && x < c->nv; x++)
		side[x] = part[x] == 0 ? 1 : 2;
	free(xadj);
	free(adj);
	free(ew);
	free(vw);
	free(part);
	return ok;
}
#endif

/* A split from a breadth-first order from device @start, or a random
 * one; switches go with the majority of their neighbours. */
static void plain_split(const struct bcsr *c, uint32_t seed, uint8_t *side)
{
	uint32_t *order = xmalloc(((size_t)c->nv + 1) * sizeof(*order));
	uint8_t *seen = xcalloc((size_t)c->nv + 1, 1);
	uint32_t qh = 0, qt = 0, k = 0;
	uint64_t s = 0x9e3779b97f4a7c15ull * (seed + 1);

	if (seed % 2) {
		for (uint32_t x = 0; x < c->nd; x++)
			order[x] = x;
		for (uint32_t i = c->nd; i > 1; i--) {
			uint32_t j, t;

			s = s * 6364136223846793005ull + 1442695040888963407ull;
			j = (uint32_t)((s >> 33) % i);
			t = order[i - 1];
			order[i - 1] = order[j];
			order[j] = t;
		}
		k = c->nd;
	} else {
		uint32_t *q = xmalloc(((size_t)c->nv + 1) * sizeof(*q));

		for (uint32_t r0 = 0; r0 < c->nv; r0++) {
			uint32_t r = (r0 + seed / 2 * 7919) % c->nv;

			if (seen[r])
				continue;
			seen[r] = 1;
			q[qt++] = r;
			while (qh < qt) {
				uint32_t x = q[qh++];

				if (x < c->nd)
					order[k++] = x;
				for (uint32_t a = c->off[x]; a < c->off[x + 1];
				     a++)
					if (!seen[c->to[a]]) {
						seen[c->to[a]] = 1;
						q[qt++] = c->to[a];
					}
			}
		}
		free(q);
	}
	for (uint32_t i = 0; i < c->nd; i++)
		side[order[i]] = i < c->nd / 2 ? 1 : 2;
	for (uint32_t x = c->nd; x < c->nv; x++) {
		int64_t to1 = 0, to2 = 0;

		for (uint32_t a = c->off[x]; a < c->off[x + 1]; a++)
			if (c->to[a] < c->nd && side[c->to[a]] == 1)
				to1 += c->arc_cap[a];
			else if (c->to[a] < c->nd)
				to2 += c->arc_cap[a];
		side[x] = to1 >= to2 ? 1 : 2;
	}
	free(order);
	free(seen);
}

bool bisect_part_upper(const struct bgraph *g, uint64_t budget,
		       uint8_t *best_side, int64_t *best_cut, bool *multilevel)
{
	struct bcsr c;
	struct fm f;
	uint8_t *dev_side, *reach, *seed_best;
	uint64_t per_seed;
	uint32_t seeds;

	*best_cut = BIG;
	*multilevel = false;
	if (g->nd < 2)
		return false;
	bisect_csr_build(&c, g);
	/* a seed: the partitioner and a few passes, each some edge scans */
	per_seed = ((uint64_t)c.off[c.nv] + c.nv) * 64;
	if (per_seed > budget) {
		bisect_csr_free(&c);
		return false;
	}
	seeds =
	    budget / per_seed < SEEDS ? (uint32_t)(budget / per_seed) : SEEDS;
	memset(&f, 0, sizeof(f));
	f.c = &c;
	f.side = xmalloc((size_t)c.nv + 1);
	f.gain = xmalloc(((size_t)c.nv + 1) * sizeof(*f.gain));
	f.locked = xmalloc((size_t)c.nv + 1);
	f.moved = xmalloc(((size_t)c.nv + 1) * sizeof(*f.moved));
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < 2; t++) {
			f.q[s][t].h =
			    xmalloc(((size_t)c.nv + 1) * sizeof(uint32_t));
			f.q[s][t].pos =
			    xmalloc(((size_t)c.nv + 1) * sizeof(uint32_t));
			f.q[s][t].gain = f.gain;
			for (uint32_t x = 0; x < c.nv; x++)
				f.q[s][t].pos[x] = RK_NONE;
		}
	f.kmin = c.nd / 2;
	f.kmax = c.nd - c.nd / 2;
	dev_side = xmalloc((size_t)c.nv + 1);
	reach = xmalloc((size_t)c.nv + 1);
	seed_best = xmalloc((size_t)c.nd + 1);
	for (uint32_t s = 0; s < seeds; s++) {
		int64_t cut;

		f.work = 0;
#ifdef HAVE_METIS
		if (metis_split(&c, s + 1, f.side))
			*multilevel = true;
		else
			plain_split(&c, s, f.side);
#else
		plain_split(&c, s, f.side);
#endif
		cut = refine(&f, dev_side, reach, per_seed, seed_best);
		if (cut < *best_cut) {
			*best_cut = cut;
			memcpy(best_side, seed_best, c.nd);
		}
	}
	for (int s = 0; s < 2; s++)
		for (int t = 0; t < 2; t++) {
			free(f.q[s][t].h);
			free(f.q[s][t].pos);
		}
	free(f.side);
	free(f.gain);
	free(f.locked);
	free(f.moved);
	free(dev_side);
	free(reach);
	free(seed_best);
	bisect_csr_free(&c);
	return seeds > 0;
}

void bisect_large_bounds(const struct bgraph *g, struct bisect_result *r,
			 uint8_t *side)
{
	int64_t v;
	bool ml;
	uint8_t *ps;

	if (g->nd < 2 || r->lower >= r->upper || g->nd > BISECT_LARGE_MAX_DEV ||
	    g->ne > BISECT_LARGE_MAX_EDGES)
		return;
	ps = xmalloc((size_t)g->nd + 1);
	if (bisect_part_upper(g, BISECT_LARGE_BUDGET, ps, &v, &ml) &&
	    v < r->upper) {
		r->upper = v;
		r->upper_how = ml ? BH_PART : BH_FM;
		memcpy(side, ps, g->nd);
	}
	free(ps);
	if (bisect_flow_lower(g, BISECT_LARGE_BUDGET, &v) && v > r->lower) {
		r->lower = v < r->upper ? v : r->upper;
		r->lower_how = BH_FLOW;
	}
}
