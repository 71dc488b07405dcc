/* SPDX-License-Identifier: MIT */
/*
 * Property tests of bisect_solve() over random fabrics of up to 20
 * endpoint devices: random regular switch graphs, two- and three-tier
 * trees with failed links, dragonflies, tori (of devices and of switches),
 * NVLink-like domains of multi-link devices, all with mixed link rates.
 * For each, the brute force below (written for this test: every balanced
 * split of the devices, and for each every side of every switch, walked in
 * Gray-code order, no max-flow) gives the true bisection, and
 *     lower <= truth <= upper, lower == truth == upper when exact,
 * and the witness is a balanced split whose least cut is the upper bound.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bisect.h"
#include "bisect_large.h"

#define MAXV 64
#define MAXE 400

struct tg {
	uint32_t nd, nv, ne;
	uint32_t u[MAXE], v[MAXE];
	int64_t cap[MAXE];
};

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? (uint32_t)(rng % n) : 0;
}

static int64_t rate(void)
{
	static const int64_t r[] = { 100, 200, 400, 800 };

	return r[rnd(4)] * 1000000000ll;
}

static void edge(struct tg *g, uint32_t a, uint32_t b, int64_t c)
{
	cr_assert_lt(g->ne, MAXE);
	g->u[g->ne] = a;
	g->v[g->ne] = b;
	g->cap[g->ne++] = c;
}

/*
 * The least cut of a fixed device split over every placement of the
 * switches: Gray-code walk, each step moving one switch and updating the
 * cut by its edges.
 */
static int64_t least_cut(const struct tg *g, const uint8_t *dside)
{
	uint8_t side[MAXV];
	uint32_t ns = g->nv - g->nd, deg[MAXV] = { 0 }, nb[MAXV][MAXE / 4];
	int64_t cut = 0, best, nc[MAXV][MAXE / 4];

	for (uint32_t i = 0; i < g->ne; i++) {
		uint32_t a = g->u[i], b = g->v[i];

		if (a == b)
			continue;
		if (a >= g->nd) {
			cr_assert_lt(deg[a], MAXE / 4);
			nb[a][deg[a]] = b;
			nc[a][deg[a]++] = g->cap[i];
		}
		if (b >= g->nd) {
			cr_assert_lt(deg[b], MAXE / 4);
			nb[b][deg[b]] = a;
			nc[b][deg[b]++] = g->cap[i];
		}
	}
	for (uint32_t x = 0; x < g->nv; x++)
		side[x] = x < g->nd ? dside[x] : 1;
	for (uint32_t i = 0; i < g->ne; i++)
		if (side[g->u[i]] != side[g->v[i]])
			cut += g->cap[i];
	best = cut;
	for (uint64_t k = 1; k < ((uint64_t)1 << ns); k++) {
		uint32_t b = (uint32_t)__builtin_ctzll(k), s = g->nd + b;

		/* an edge that differs before the move stops differing */
		for (uint32_t i = 0; i < deg[s]; i++)
			cut += side[nb[s][i]] != side[s] ? -nc[s][i] : nc[s][i];
		side[s] = side[s] == 1 ? 2 : 1;
		if (cut < best)
			best = cut;
	}
	return best;
}

static uint64_t brute_work(const struct tg *g)
{
	uint64_t c = 1;

	for (uint32_t k = 1; k <= g->nd / 2; k++)
		c = c * (g->nd - g->nd / 2 + k) / k;
	return c / 2 << (g->nv - g->nd);
}

static int64_t brute(const struct tg *g)
{
	int64_t best = -1;
	uint8_t ds[MAXV];

	for (uint32_t mask = 0; mask < (1u << g->nd); mask++) {
		uint32_t pc = (uint32_t)__builtin_popcount(mask);
		int64_t c;

		if (!(mask & 1) || (pc != g->nd / 2 && pc != g->nd - g->nd / 2))
			continue;
		for (uint32_t x = 0; x < g->nd; x++)
			ds[x] = (mask >> x & 1) ? 1 : 2;
		c = least_cut(g, ds);
		if (best < 0 || c < best)
			best = c;
	}
	return best;
}

static unsigned checked, exact_count, max_nd, flow_count, flow_tight,
    search_tight;

/*
 * The bounds for large fabrics (bisect_large.h) forced on the same small
 * fabric: the flow bound at most the truth, the partitioner's split
 * balanced, its cut (by the brute force) its value and at least the truth.
 */
static void check_large(const struct bgraph *bg, const struct tg *g,
			int64_t truth, const char *what)
{
	uint8_t ps[MAXV];
	int64_t lo, up;
	uint32_t na = 0;
	bool ml;

	if (bisect_flow_lower(bg, BISECT_LARGE_BUDGET, &lo)) {
		cr_assert_leq(lo, truth, "%s: flow bound %lld above %lld", what,
			      (long long)lo, (long long)truth);
		flow_count++;
		flow_tight += lo == truth;
	}
	cr_assert(bisect_part_upper(bg, BISECT_LARGE_BUDGET, ps, &up, &ml),
		  "%s: no search", what);
	for (uint32_t x = 0; x < g->nd; x++) {
		cr_assert(ps[x] == 1 || ps[x] == 2);
		na += ps[x] == 1;
	}
	cr_assert(na == g->nd / 2 || na == g->nd - g->nd / 2,
		  "%s: search split of %u | %u", what, na, g->nd - na);
	cr_assert_eq(least_cut(g, ps), up,
		     "%s: search split cuts %lld, not %lld", what,
		     (long long)least_cut(g, ps), (long long)up);
	cr_assert_geq(up, truth, "%s: search %lld below the truth %lld", what,
		      (long long)up, (long long)truth);
	search_tight += up == truth;
}

static void check(const struct tg *g, const char *what)
{
	struct bgraph bg = { g->nd, g->nv, g->ne, g->u, g->v, g->cap, NULL, 0 };
	struct bisect_result r;
	int64_t truth = brute(g);
	uint32_t na = 0;

	bisect_solve(&bg, &r);
	cr_assert_leq(r.lower, truth, "%s: lower %lld above the truth %lld",
		      what, (long long)r.lower, (long long)truth);
	cr_assert_geq(r.upper, truth, "%s: upper %lld below the truth %lld",
		      what, (long long)r.upper, (long long)truth);
	if (r.lower == r.upper) {
		cr_assert_eq(r.lower, truth, "%s: exact %lld, truth %lld", what,
			     (long long)r.lower, (long long)truth);
		exact_count++;
	}
	for (uint32_t x = 0; x < g->nd; x++) {
		cr_assert(r.witness[x] == 1 || r.witness[x] == 2);
		na += r.witness[x] == 1;
	}
	cr_assert(na == g->nd / 2 || na == g->nd - g->nd / 2,
		  "%s: witness of %u | %u", what, na, g->nd - na);
	cr_assert_eq(least_cut(g, r.witness), r.upper,
		     "%s: the witness cuts %lld, upper %lld", what,
		     (long long)least_cut(g, r.witness), (long long)r.upper);
	bisect_result_free(&r);
	check_large(&bg, g, truth, what);
	checked++;
	if (g->nd > max_nd)
		max_nd = g->nd;
}

/* Random switch graph of degree about 3, devices on one or two switches. */
static void gen_regular(struct tg *g)
{
	uint32_t ns = 2 + rnd(7);

	memset(g, 0, sizeof(*g));
	g->nd = 2 + rnd(ns <= 5 ? 17 : 11);
	g->nv = g->nd + ns;
	for (uint32_t s = 0; s < ns; s++)
		for (int k = 0; k < 2; k++)
			edge(g, g->nd + s, g->nd + rnd(ns), rate());
	for (uint32_t x = 0; x < g->nd; x++) {
		edge(g, x, g->nd + rnd(ns), rate());
		if (rnd(3) == 0)
			edge(g, x, g->nd + rnd(ns), rate());
	}
}

/* Two tiers: L leaves of k devices, u uplinks dealt over S spines, some
 * links failed. */
static void gen_tree2(struct tg *g)
{
	uint32_t L = 2 + rnd(4), k = 1 + rnd(20 / L), S = 1 + rnd(4);
	uint32_t up = 1 + rnd(6);
	int64_t r = rate();

	memset(g, 0, sizeof(*g));
	if (L * k > 20)
		k = 20 / L;
	g->nd = L * k;
	g->nv = g->nd + L + S;
	for (uint32_t l = 0; l < L; l++) {
		for (uint32_t i = 0; i < k; i++)
			if (rnd(10) || l * k + i == 0)
				edge(g, l * k + i, g->nd + l, r);
		for (uint32_t j = 0; j < up; j++)
			if (rnd(5))
				edge(g, g->nd + l, g->nd + L + (l * up + j) % S,
				     rnd(4) ? r : rate());
	}
}

/* Three tiers: P pods of 2 leaves and 2 spines, C cores. */
static void gen_tree3(struct tg *g)
{
	uint32_t P = 2 + rnd(2), k = 1 + rnd(3), C = 1 + rnd(2);
	uint32_t nl = 2 * P, leaf0, spine0, core0;
	int64_t r = rate();

	memset(g, 0, sizeof(*g));
	g->nd = nl * k;
	leaf0 = g->nd;
	spine0 = leaf0 + nl;
	core0 = spine0 + 2 * P;
	g->nv = core0 + C;
	for (uint32_t l = 0; l < nl; l++) {
		for (uint32_t i = 0; i < k; i++)
			edge(g, l * k + i, leaf0 + l, r);
		for (uint32_t s = 0; s < 2; s++)
			if (rnd(6))
				edge(g, leaf0 + l, spine0 + (l / 2) * 2 + s, r);
	}
	for (uint32_t s = 0; s < 2 * P; s++)
		for (uint32_t c = 0; c < C; c++)
			if (rnd(6))
				edge(g, spine0 + s, core0 + c, r);
}

/* Dragonfly: groups of fully meshed switches, devices on each, a random
 * number of global links between groups. */
static void gen_dragonfly(struct tg *g)
{
	uint32_t G = 2 + rnd(3), a = 2 + rnd(2), per = 1 + rnd(2);
	uint32_t ns = G * a;

	memset(g, 0, sizeof(*g));
	while (ns * per > 20)
		per--;
	g->nd = ns * per;
	g->nv = g->nd + ns;
	for (uint32_t s = 0; s < ns; s++)
		for (uint32_t i = 0; i < per; i++)
			edge(g, s * per + i, g->nd + s, rate());
	for (uint32_t gr = 0; gr < G; gr++)
		for (uint32_t i = 0; i < a; i++)
			for (uint32_t j = i + 1; j < a; j++)
				edge(g, g->nd + gr * a + i, g->nd + gr * a + j,
				     rate());
	for (uint32_t x = 0; x < G; x++)
		for (uint32_t y = x + 1; y < G; y++)
			for (uint32_t k = rnd(3); k-- > 0;)
				edge(g, g->nd + x * a + rnd(a),
				     g->nd + y * a + rnd(a), rate());
}

/* A torus: of devices linked directly, or of switches with a device each. */
static void gen_torus(struct tg *g)
{
	static const uint32_t dims[][2] = { { 2, 3 }, { 3, 3 }, { 3, 4 },
					    { 4, 4 }, { 4, 5 }, { 2, 8 } };
	uint32_t w, h, n;
	bool of_switches = rnd(2);
	uint32_t base;

	w = dims[rnd(6)][0];
	h = dims[rnd(6) % 6][1];
	if (w * h > 20)
		h = 20 / w;
	n = w * h;
	memset(g, 0, sizeof(*g));
	g->nd = n;
	g->nv = of_switches ? 2 * n : n;
	base = of_switches ? n : 0;
	if (of_switches && n > 12) {
		g->nd = n = 12;
		w = 3;
		h = 4;
		g->nv = 2 * n;
		base = n;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = i % w, y = i / w;

		if (w > 2 || x == 0)
			edge(g, base + i, base + (y * w + (x + 1) % w), rate());
		if (h > 2 || y == 0)
			edge(g, base + i, base + (((y + 1) % h) * w + x),
			     rate());
		if (of_switches)
			edge(g, i, base + i, rate());
	}
}

/* NVLink-like: every device has links to every switch. */
static void gen_nvlink(struct tg *g)
{
	uint32_t S = 1 + rnd(6), m = 1 + rnd(3);
	int64_t r = rate();

	memset(g, 0, sizeof(*g));
	g->nd = 2 + rnd(S <= 3 ? 15 : 11);
	g->nv = g->nd + S;
	for (uint32_t x = 0; x < g->nd; x++)
		for (uint32_t s = 0; s < S; s++)
			for (uint32_t k = 0; k < m; k++)
				if (rnd(8) || !k)
					edge(g, x, g->nd + s, r);
}

Test(bisect, random_fabrics_against_brute_force, .timeout = 600)
{
	struct tg *g = malloc(sizeof(*g));
	static void (*const gens[])(struct tg *) = {
		gen_regular,   gen_tree2, gen_tree3,
		gen_dragonfly, gen_torus, gen_nvlink,
	};
	static const char *const names[] = { "regular",	  "tree2", "tree3",
					     "dragonfly", "torus", "nvlink" };

	for (uint32_t i = 0; i < 540; i++) {
		char what[64];

		/* the brute force walks half the balanced splits times every
		 * switch placement: keep that under about a million */
		do
			gens[i % 6](g);
		while (brute_work(g) > 1000000);
		snprintf(what, sizeof(what), "%s #%u", names[i % 6], i);
		check(g, what);
	}
	cr_assert_geq(checked, 500);
	cr_assert_geq(max_nd, 20, "no fabric of 20 endpoint devices");
	/* most of these are within the exact methods */
	cr_assert_geq(exact_count, checked * 9 / 10, "exact %u of %u",
		      exact_count, checked);
	/* the flow bound runs on the connected ones */
	cr_assert_geq(flow_count, checked / 2, "flow bound on %u of %u",
		      flow_count, checked);
	/* the search alone finds the least cut on most (508 of 540 when
	 * written) */
	cr_assert_geq(search_tight, checked * 4 / 5, "search least on %u of %u",
		      search_tight, checked);
	free(g);
}

/* Two devices, one link: the link itself. */
Test(bisect, two_devices)
{
	struct tg g;

	memset(&g, 0, sizeof(g));
	g.nd = g.nv = 2;
	edge(&g, 0, 1, 7);
	check(&g, "pair");
}

/* One device: no bisection. */
Test(bisect, one_device_none)
{
	uint32_t u[] = { 0 }, v[] = { 1 };
	int64_t cap[] = { 5 };
	struct bgraph bg = { 1, 2, 1, u, v, cap, NULL, 0 };
	struct bisect_result r;

	bisect_solve(&bg, &r);
	cr_assert_eq(r.lower_how, BH_NONE);
	cr_assert_null(r.witness);
	bisect_result_free(&r);
}

/*
 * Beyond the exact methods (more than 24 devices, a switch ring): a ring
 * of N switches with a device each, every link of capacity c, has
 * bisection 2c (a balanced split of a cycle cuts it at least twice, and
 * two halves of the ring cut exactly two links).  The bounds must hold it,
 * and the lower bound (the widest spanning tree's) must be more than 0.
 */
Test(bisect, large_ring_bounds)
{
	static uint32_t u[128], v[128];
	static int64_t cap[128];
	const uint32_t n = 40;
	const int64_t c = 400000000000ll;
	struct bgraph bg = { n, 2 * n, 0, u, v, cap, NULL, 0 };
	struct bisect_result r;

	for (uint32_t k = 0; k < n; k++) {
		u[bg.ne] = k;
		v[bg.ne] = n + k;
		cap[bg.ne++] = c;
		u[bg.ne] = n + k;
		v[bg.ne] = n + (k + 1) % n;
		cap[bg.ne++] = c;
	}
	bisect_solve(&bg, &r);
	cr_assert_leq(r.lower, 2 * c);
	cr_assert_geq(r.upper, 2 * c);
	cr_assert_gt(r.lower, 0);
	cr_assert_eq(r.upper, 2 * c, "the search finds two halves");
	bisect_result_free(&r);
}

/*
 * Fat trees wired as rackc's generators wire them (src/fabric/fabric.c,
 * src/fabric/fabric_tiers.c), small enough for the brute force: R-port switches,
 * leaves of D = R d/(d+u) ports down and U = R - D up, one NIC per node
 * and rail, nodes in units of D (the last unit partial).
 *   two tiers: S spines (as many as the uplinks need, or from 1 to more
 *     than U as a provisioned fabric has), leaf l holding U/S links to
 *     every spine and one more to the U mod S spines from l U mod S on;
 *   three tiers, fabric.c: pods of R/2 leaves (rail-major), each with
 *     ceil(leaves U / (R/2)) spines, uplink j of the pod's k-th leaf to its
 *     spine (k U + j) mod spines; C = ceil(spines (R/2) / R) cores taking
 *     the spines' R/2 uplinks each round-robin, one count over all pods;
 *   three tiers, fabric_tiers.c: every pod U spines (uplink j of each leaf
 *     to spine j), C = ceil(U (R/2) / floor(R / pods)) cores, uplink j of
 *     every pod's k-th spine to core (k (R/2) + j) mod C.
 */
static uint32_t ft_leaves(struct tg *g, uint32_t R, uint32_t D, uint32_t nr,
			  uint32_t nodes, int64_t c)
{
	uint32_t nsu = (nodes + D - 1) / D, L = nsu * nr;

	memset(g, 0, sizeof(*g));
	g->nd = nodes * nr;
	g->nv = g->nd + L;
	(void)R;
	/* device (node n, rail r) = n * nr + r; leaf s * nr + r */
	for (uint32_t n = 0; n < nodes; n++)
		for (uint32_t r = 0; r < nr; r++)
			edge(g, n * nr + r, g->nd + (n / D) * nr + r, c);
	return L;
}

static void gen_ft2(struct tg *g, uint32_t R, uint32_t D, uint32_t nr,
		    uint32_t nodes, uint32_t S, int64_t c)
{
	uint32_t U = R - D, L = ft_leaves(g, R, D, nr, nodes, c);
	uint32_t leaf0 = g->nd, sp0 = g->nv;

	g->nv += S;
	for (uint32_t l = 0; l < L; l++) {
		uint32_t start = l * U % S;

		for (uint32_t s = 0; s < S; s++) {
			uint32_t k = U / S + ((s + S - start) % S < U % S);

			while (k--)
				edge(g, leaf0 + l, sp0 + s, c);
		}
	}
}

static bool gen_ft3(struct tg *g, uint32_t R, uint32_t D, uint32_t nr,
		    uint32_t nodes, bool tiers_file, int64_t c)
{
	uint32_t U = R - D, h = R / 2, L = ft_leaves(g, R, D, nr, nodes, c);
	uint32_t nsu = L / nr, pods = (L + h - 1) / h, order[MAXV];
	uint32_t leaf0 = g->nd, sp0 = g->nv, first[MAXV], S = 0, C, cu = 0;

	if (pods > R)
		return false; /* the generators refuse it */
	for (uint32_t r = 0, k = 0; r < nr; r++)
		for (uint32_t s = 0; s < nsu; s++)
			order[k++] = s * nr + r;
	for (uint32_t p = 0; p < pods; p++) {
		uint32_t nl = L - p * h < h ? L - p * h : h;

		first[p] = S;
		S += tiers_file ? U : (nl * U + h - 1) / h;
	}
	first[pods] = S;
	C = tiers_file ? (U * h + R / pods - 1) / (R / pods)
		       : (S * h + R - 1) / R;
	g->nv += S + C;
	if (g->nv > MAXV)
		return false;
	for (uint32_t p = 0; p < pods; p++) {
		uint32_t nl = L - p * h < h ? L - p * h : h;
		uint32_t ns = first[p + 1] - first[p];

		for (uint32_t k = 0; k < nl; k++)
			for (uint32_t j = 0; j < U; j++)
				edge(g, leaf0 + order[p * h + k],
				     sp0 + first[p] + (k * U + j) % ns, c);
		for (uint32_t k = 0; k < ns; k++)
			for (uint32_t j = 0; j < h; j++)
				edge(g, sp0 + first[p] + k,
				     sp0 + S +
					 (tiers_file ? (k * h + j) % C
						     : cu++ % C),
				     c);
	}
	return true;
}

/* A star (src/fabric/fabric.c): n endpoints fill P-port switches in order, the
 * switches unlinked. */
static void gen_star(struct tg *g, uint32_t n, uint32_t P, int64_t c)
{
	memset(g, 0, sizeof(*g));
	g->nd = n;
	g->nv = n + (n + P - 1) / P;
	for (uint32_t i = 0; i < n; i++)
		edge(g, i, n + i / P, c);
}

static unsigned structural_exact;

/* The structural methods alone (BISECT_STRUCTURAL): sound on every
 * shape, exact where they say so. */
static void check_structural(const struct tg *g, const char *what)
{
	struct bgraph bg = { g->nd, g->nv, g->ne, g->u, g->v, g->cap, NULL, 0 };
	struct bisect_result r;
	int64_t truth = brute(g);

	bisect_solve_with(&bg, BISECT_STRUCTURAL, &r);
	cr_assert_leq(r.lower, truth, "%s: structural lower %lld above %lld",
		      what, (long long)r.lower, (long long)truth);
	cr_assert_geq(r.upper, truth, "%s: structural upper %lld below %lld",
		      what, (long long)r.upper, (long long)truth);
	cr_assert_eq(least_cut(g, r.witness), r.upper, "%s: witness", what);
	if (r.lower == r.upper) {
		cr_assert_eq(r.lower, truth, "%s: exact %lld, truth %lld", what,
			     (long long)r.lower, (long long)truth);
		structural_exact +=
		    r.lower_how == BH_NONBLOCKING || r.lower_how == BH_REGULAR;
	}
	bisect_result_free(&r);
}

Test(bisect, generated_trees_against_brute_force, .timeout = 600)
{
	struct tg *g = malloc(sizeof(*g));
	static const uint32_t ratio[][2] = {
		{ 1, 1 }, { 2, 1 }, { 3, 1 }, { 1, 2 }
	};
	unsigned n2 = 0, n3a = 0, n3b = 0, spreads_over_u = 0, partial = 0;
	unsigned nstar = 0;

	for (uint32_t i = 0; i < 400; i++) {
		uint32_t R = 4 + 2 * rnd(3), shape = i % 3, nr = 1 + rnd(2);
		uint32_t q = rnd(4),
			 D = R * ratio[q][0] / (ratio[q][0] + ratio[q][1]);
		uint32_t nodes = 2 + rnd(20 / nr - 1), U = R - D, S;
		int64_t c = rate();
		char what[96];

		if (!D || !U)
			continue;
		if (shape == 0) {
			uint32_t L = (nodes + D - 1) / D * nr;

			S = (L * U + R - 1) / R;
			if (rnd(2))
				S = 1 + rnd(U + 3); /* 1 spine to more than U */
			gen_ft2(g, R, D, nr, nodes, S, c);
			spreads_over_u += S > U;
		} else if (!gen_ft3(g, R, D, nr, nodes, shape == 2, c)) {
			continue;
		}
		if (brute_work(g) > 1000000 || g->nv > MAXV)
			continue;
		partial += nodes % D != 0;
		snprintf(what, sizeof(what),
			 "ft%s R%u %u:%u rails %u nodes %u #%u",
			 shape == 0   ? "2"
			 : shape == 1 ? "3"
				      : "3t",
			 R, ratio[q][0], ratio[q][1], nr, nodes, i);
		check(g, what); /* the direct methods: exact */
		check_structural(g, what);
		*(shape == 0 ? &n2 : shape == 1 ? &n3a : &n3b) += 1;
	}
	for (uint32_t i = 0; i < 60; i++) {
		uint32_t n = 2 + rnd(19), P = 1 + rnd(7);
		char what[64];

		gen_star(g, n, P, rate());
		if (brute_work(g) > 1000000)
			continue;
		snprintf(what, sizeof(what), "star n %u P %u #%u", n, P, i);
		check(g, what);
		nstar++;
	}
	cr_assert_geq(nstar, 40, "stars: %u", nstar);
	cr_assert_geq(n2, 60, "two-tier trees: %u", n2);
	cr_assert_geq(n3a, 40, "three-tier trees: %u", n3a);
	cr_assert_geq(n3b, 40, "three-tier trees (tiers file): %u", n3b);
	cr_assert_geq(spreads_over_u, 10);
	cr_assert_geq(partial, 50);
	cr_assert_geq(structural_exact, 100, "structural methods exact on %u",
		      structural_exact);
	fprintf(stderr,
		"generated: %u two-tier, %u + %u three-tier, %u exact by "
		"the structural methods\n",
		n2, n3a, n3b, structural_exact);
	free(g);
}
