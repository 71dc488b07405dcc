/* SPDX-License-Identifier: MIT */
/*
 * The bounds for fabrics beyond the exact methods (bisect_large.h) on
 * large fabrics whose bisection is known by a closed form:
 *   - k x k tori of switches, a device on each (k even): 2k links, the
 *     two rings of links a straight cut crosses twice each;
 *   - d-dimensional hypercubes of switches, a device on each: 2^(d-1)
 *     links (Harper's edge-isoperimetric theorem);
 *   - dragonflies of G groups (G even) of a fully meshed switches with p
 *     devices each and one global link between every two groups, the
 *     local links wide enough: (G/2)^2 global links (the split by groups
 *     cuts that many; the uniform flow, which loads every global link
 *     with (a p)^2 pairs per direction, proves no split cuts fewer);
 * and a two-tier tree with failed links, where the known value is an
 * upper bound (a split counted by hand) and the interval must contain the
 * truth the brute force gives on a small copy.
 * Every case: lower <= known <= upper, the witness balanced and cutting
 * the upper bound (max-flow), and the lower bound within a stated factor.
 * With RACKC_BISECT_TABLE set the cases print a table row each.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rackc.h"

#include "bisect.h"
#include "bisect_large.h"
#include "metrics.h"
#include "maxflow.h"

#include "sizes.h"

struct big {
	uint32_t nd, nv, ne, max;
	uint32_t *u, *v;
	int64_t *cap;
};

static void big_init(struct big *g, uint32_t nd, uint32_t nv)
{
	memset(g, 0, sizeof(*g));
	g->nd = nd;
	g->nv = nv;
	g->max = 1024;
	g->u = malloc(g->max * sizeof(*g->u));
	g->v = malloc(g->max * sizeof(*g->v));
	g->cap = malloc(g->max * sizeof(*g->cap));
}

static void big_edge(struct big *g, uint32_t a, uint32_t b, int64_t c)
{
	if (g->ne == g->max) {
		g->max *= 2;
		g->u = realloc(g->u, g->max * sizeof(*g->u));
		g->v = realloc(g->v, g->max * sizeof(*g->v));
		g->cap = realloc(g->cap, g->max * sizeof(*g->cap));
	}
	g->u[g->ne] = a;
	g->v[g->ne] = b;
	g->cap[g->ne++] = c;
}

static void big_free(struct big *g)
{
	free(g->u);
	free(g->v);
	free(g->cap);
}

static const int64_t C = 400000000000ll; /* 400 Gb/s */

/*
 * bisect_solve() and the two bounds on their own; lower <= known <=
 * upper; the lower bound at least known * num / den.
 */
static void check_known(const struct big *g, int64_t known, int64_t num,
			int64_t den, const char *what)
{
	struct bgraph bg = { g->nd, g->nv, g->ne, g->u, g->v, g->cap, NULL, 0 };
	struct bisect_result r;
	uint8_t *side = calloc(g->nv + 1, 1);
	uint32_t na = 0;
	int64_t lo, up;
	bool ml;

	bisect_solve(&bg, &r);
	if (getenv("RACKC_BISECT_TABLE"))
		printf(
		    "| %s | %u | %.1f | %.1f | %.1f | %.3f | %s; %s |\n", what,
		    g->nd, (double)r.lower / 1e12, (double)known / 1e12,
		    (double)r.upper / 1e12, (double)r.lower / (double)r.upper,
		    bisect_how_name(r.lower_how), bisect_how_name(r.upper_how));
	cr_assert_leq(r.lower, known, "%s: lower %lld above the known %lld",
		      what, (long long)r.lower, (long long)known);
	cr_assert_geq(r.upper, known, "%s: upper %lld below the known %lld",
		      what, (long long)r.upper, (long long)known);
	cr_assert_geq((__int128)r.lower * den, (__int128)known * num,
		      "%s: lower %lld under %lld/%lld of %lld", what,
		      (long long)r.lower, (long long)num, (long long)den,
		      (long long)known);
	for (uint32_t x = 0; x < g->nd; x++) {
		cr_assert(r.witness[x] == 1 || r.witness[x] == 2);
		side[x] = r.witness[x];
		na += side[x] == 1;
	}
	cr_assert(na == g->nd / 2 || na == g->nd - g->nd / 2);
	cr_assert_eq(
	    maxflow_bipartition(g->nv, g->ne, g->u, g->v, g->cap, side),
	    r.upper, "%s: the witness does not cut the upper bound", what);
	/* the two new bounds alone */
	cr_assert(bisect_flow_lower(&bg, BISECT_LARGE_BUDGET, &lo), "%s", what);
	cr_assert_leq(lo, known, "%s: flow bound %lld above %lld", what,
		      (long long)lo, (long long)known);
	cr_assert(bisect_part_upper(&bg, BISECT_LARGE_BUDGET, side, &up, &ml),
		  "%s", what);
	cr_assert_geq(up, known, "%s: search %lld below %lld", what,
		      (long long)up, (long long)known);
	memset(side + g->nd, 0, g->nv - g->nd);
	cr_assert_eq(
	    maxflow_bipartition(g->nv, g->ne, g->u, g->v, g->cap, side), up,
	    "%s: the search's split does not cut its value", what);
	bisect_result_free(&r);
	free(side);
}

static void torus(struct big *g, uint32_t k, uint32_t dim2)
{
	uint32_t n = k * dim2;

	big_init(g, n, 2 * n);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = i % k, y = i / k;

		big_edge(g, i, n + i, 4 * C);
		big_edge(g, n + i, n + y * k + (x + 1) % k, C);
		big_edge(g, n + i, n + ((y + 1) % dim2) * k + x, C);
	}
}

Test(bisect_large, tori, .timeout = 600)
{
	static const uint32_t ks[] = { 6, 8, 10, 16, 24 };
	/* the largest left out at reduced sizes (sizes.h) */
	const uint32_t nk = rk_test_size(sizeof(ks) / sizeof(*ks),
					 sizeof(ks) / sizeof(*ks) - 1);

	for (uint32_t i = 0; i < nk; i++) {
		struct big g;
		char what[64];

		torus(&g, ks[i], ks[i]);
		snprintf(what, sizeof(what), "torus %ux%u", ks[i], ks[i]);
		/* the uniform flow is tight on even tori: exact */
		check_known(&g, 2 * (int64_t)ks[i] * C, 1, 1, what);
		big_free(&g);
	}
}

Test(bisect_large, hypercubes, .timeout = 600)
{
	/* to 8 dimensions at reduced sizes (sizes.h) */
	const uint32_t last = rk_test_size(9, 8);

	for (uint32_t d = 5; d <= last; d++) {
		uint32_t n = 1u << d;
		struct big g;
		char what[64];

		big_init(&g, n, 2 * n);
		for (uint32_t i = 0; i < n; i++) {
			big_edge(&g, i, n + i, (int64_t)d * C);
			for (uint32_t b = 0; b < d; b++)
				if (!(i >> b & 1))
					big_edge(&g, n + i, n + (i | 1u << b),
						 C);
		}
		snprintf(what, sizeof(what), "hypercube %u", d);
		check_known(&g, (int64_t)(n / 2) * C, 1, 1, what);
		big_free(&g);
	}
}

/* G groups of a switches, p devices on each switch; local links 2 p C
 * wide, one global link of C between every two groups. */
static void dragonfly(struct big *g, uint32_t G, uint32_t a, uint32_t p)
{
	uint32_t ns = G * a, nd = ns * p;

	big_init(g, nd, nd + ns);
	for (uint32_t s = 0; s < ns; s++)
		for (uint32_t i = 0; i < p; i++)
			big_edge(g, s * p + i, nd + s, C);
	for (uint32_t gr = 0; gr < G; gr++)
		for (uint32_t i = 0; i < a; i++)
			for (uint32_t j = i + 1; j < a; j++)
				big_edge(g, nd + gr * a + i, nd + gr * a + j,
					 2 * (int64_t)p * C);
	for (uint32_t x = 0; x < G; x++)
		for (uint32_t y = x + 1; y < G; y++)
			big_edge(g, nd + x * a + (y % a), nd + y * a + (x % a),
				 C);
}

Test(bisect_large, dragonflies, .timeout = 600)
{
	static const uint32_t shapes[][3] = { { 6, 4, 2 },
					      { 8, 4, 4 },
					      { 10, 5, 2 },
					      { 16, 4, 4 },
					      { 20, 8, 4 } };
	/* the largest left out at reduced sizes (sizes.h) */
	const uint32_t ns = rk_test_size(sizeof(shapes) / sizeof(*shapes),
					 sizeof(shapes) / sizeof(*shapes) - 1);

	for (uint32_t i = 0; i < ns; i++) {
		uint32_t G = shapes[i][0];
		struct big g;
		char what[64];

		dragonfly(&g, G, shapes[i][1], shapes[i][2]);
		snprintf(what, sizeof(what), "dragonfly g%u a%u p%u", G,
			 shapes[i][1], shapes[i][2]);
		check_known(&g, (int64_t)(G / 2) * (G / 2) * C, 1, 1, what);
		big_free(&g);
	}
}

/*
 * Two tiers, L leaves of k devices, each leaf one link to each of S
 * spines, the links from leaf l to spine s failed when (l + s) % 5 == 0.
 * Known here: the leaf-order split's cut (counted below by max-flow), an
 * upper bound; the lower bound must stay under it and be at least a
 * quarter of it (the uniform flow loses up to half on trees, where the
 * devices' own links are the bottleneck).
 */
Test(bisect_large, failed_tree, .timeout = 600)
{
	const uint32_t L = 24, k = 16, S = 24;
	uint32_t nd = L * k;
	struct big g;
	uint8_t *side;
	int64_t split;

	big_init(&g, nd, nd + L + S);
	for (uint32_t l = 0; l < L; l++) {
		for (uint32_t i = 0; i < k; i++)
			big_edge(&g, l * k + i, nd + l, C);
		for (uint32_t s = 0; s < S; s++)
			if ((l + s) % 5)
				big_edge(&g, nd + l, nd + L + s, C);
	}
	side = calloc(g.nv, 1);
	for (uint32_t x = 0; x < nd; x++)
		side[x] = x < nd / 2 ? 1 : 2;
	split = maxflow_bipartition(g.nv, g.ne, g.u, g.v, g.cap, side);
	free(side);
	{
		struct bgraph bg = {
			g.nd, g.nv, g.ne, g.u, g.v, g.cap, NULL, 0
		};
		struct bisect_result r;

		bisect_solve(&bg, &r);
		cr_assert_leq(r.lower, r.upper);
		cr_assert_leq(r.upper, split);
		cr_assert_geq(r.lower * 4, split, "lower %lld, split %lld",
			      (long long)r.lower, (long long)split);
		if (getenv("RACKC_BISECT_TABLE"))
			printf("| two tiers %u x %u, %u spines, 1 in 5 failed "
			       "| %u | %.1f | <= %.1f | %.1f | %.3f | %s; %s "
			       "|\n",
			       L, k, S, nd, (double)r.lower / 1e12,
			       (double)split / 1e12, (double)r.upper / 1e12,
			       (double)r.lower / (double)r.upper,
			       bisect_how_name(r.lower_how),
			       bisect_how_name(r.upper_how));
		bisect_result_free(&r);
	}
	big_free(&g);
}

/*
 * Irregular families, seeded: the interval must hold the cut of a split
 * counted here by max-flow (declaration order, an upper bound on the
 * truth) above its lower bound, and the witness must cut the upper bound.
 * The table in bench/RESULTS.md comes from these rows.
 */
static uint64_t lrng = 0x9e3779b97f4a7c15ull;

static uint32_t lrnd(uint32_t n)
{
	lrng ^= lrng << 13;
	lrng ^= lrng >> 7;
	lrng ^= lrng << 17;
	return (uint32_t)(lrng % n);
}

static void check_irregular(const struct big *g, const char *what)
{
	struct bgraph bg = { g->nd, g->nv, g->ne, g->u, g->v, g->cap, NULL, 0 };
	struct bisect_result r;
	uint8_t *side = calloc(g->nv + 1, 1);
	int64_t split;

	for (uint32_t x = 0; x < g->nd; x++)
		side[x] = x < g->nd / 2 ? 1 : 2;
	split = maxflow_bipartition(g->nv, g->ne, g->u, g->v, g->cap, side);
	bisect_solve(&bg, &r);
	if (getenv("RACKC_BISECT_TABLE"))
		printf("| %s | %u | %.1f | - | %.1f | %.3f | %s; %s |\n", what,
		       g->nd, (double)r.lower / 1e12, (double)r.upper / 1e12,
		       (double)r.lower / (double)r.upper,
		       bisect_how_name(r.lower_how),
		       bisect_how_name(r.upper_how));
	cr_assert_leq(r.lower, r.upper, "%s", what);
	cr_assert_leq(r.upper, split,
		      "%s: upper %lld above a plain split's %lld", what,
		      (long long)r.upper, (long long)split);
	cr_assert_gt(r.lower, 0, "%s: no lower bound", what);
	memset(side, 0, g->nv);
	memcpy(side, r.witness, g->nd);
	cr_assert_eq(
	    maxflow_bipartition(g->nv, g->ne, g->u, g->v, g->cap, side),
	    r.upper, "%s: the witness does not cut the upper bound", what);
	bisect_result_free(&r);
	free(side);
}

/* Dragonflies of G groups of 3 to 6 switches with 1 to 4 devices each,
 * 0 to 2 global links between two groups (at least a ring of them). */
Test(bisect_large, irregular_dragonflies, .timeout = 600)
{
	for (uint32_t t = 0; t < 4; t++) {
		uint32_t G = 8 + 4 * t, a[32], p[32], first[33], nd = 0, ns = 0;
		struct big g;
		char what[80];

		for (uint32_t x = 0; x < G; x++) {
			a[x] = 3 + lrnd(4);
			p[x] = 1 + lrnd(4);
			first[x] = ns;
			ns += a[x];
			nd += a[x] * p[x];
		}
		first[G] = ns;
		big_init(&g, nd, nd + ns);
		nd = 0;
		for (uint32_t x = 0; x < G; x++)
			for (uint32_t s = first[x]; s < first[x + 1]; s++)
				for (uint32_t i = 0; i < p[x]; i++)
					big_edge(&g, nd++, g.nd + s, C);
		for (uint32_t x = 0; x < G; x++) {
			for (uint32_t i = first[x]; i < first[x + 1]; i++)
				for (uint32_t j = i + 1; j < first[x + 1]; j++)
					big_edge(&g, g.nd + i, g.nd + j, 4 * C);
			for (uint32_t y = x + 1; y < G; y++)
				for (uint32_t k = y == x + 1 ? 1 + lrnd(2)
							     : lrnd(3);
				     k-- > 0;)
					big_edge(
					    &g, g.nd + first[x] + lrnd(a[x]),
					    g.nd + first[y] + lrnd(a[y]), C);
		}
		snprintf(what, sizeof(what),
			 "dragonfly, %u groups of 3-6 switches, 0-2 global "
			 "links",
			 G);
		check_irregular(&g, what);
		big_free(&g);
	}
}

/* k x k tori of switches with one link in ten failed. */
Test(bisect_large, failed_tori, .timeout = 600)
{
	static const uint32_t ks[] = { 8, 12, 16 };
	/* the largest left out at reduced sizes (sizes.h) */
	const uint32_t nk = rk_test_size(sizeof(ks) / sizeof(*ks),
					 sizeof(ks) / sizeof(*ks) - 1);

	for (uint32_t t = 0; t < nk; t++) {
		uint32_t k = ks[t], n = k * k;
		struct big g;
		char what[80];

		big_init(&g, n, 2 * n);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t x = i % k, y = i / k;

			big_edge(&g, i, n + i, 4 * C);
			if (lrnd(10))
				big_edge(&g, n + i, n + y * k + (x + 1) % k, C);
			if (lrnd(10))
				big_edge(&g, n + i, n + ((y + 1) % k) * k + x,
					 C);
		}
		snprintf(what, sizeof(what), "torus %ux%u, 1 link in 10 failed",
			 k, k);
		check_irregular(&g, what);
		big_free(&g);
	}
}

/* Three tiers: P pods of 4 leaves (8 devices each) and 4 spines, every
 * spine to 8 of 32 cores, one link in eight failed. */
Test(bisect_large, failed_three_tier, .timeout = 600)
{
	for (uint32_t P = 4; P <= 16; P *= 2) {
		uint32_t nl = 4 * P, nd = nl * 8, leaf0 = nd, spine0 = nd + nl;
		uint32_t core0 = spine0 + 4 * P;
		struct big g;
		char what[80];

		big_init(&g, nd, core0 + 32);
		for (uint32_t l = 0; l < nl; l++) {
			for (uint32_t i = 0; i < 8; i++)
				big_edge(&g, l * 8 + i, leaf0 + l, C);
			for (uint32_t s = 0; s < 4; s++)
				if (lrnd(8))
					big_edge(&g, leaf0 + l,
						 spine0 + (l / 4) * 4 + s,
						 2 * C);
		}
		for (uint32_t s = 0; s < 4 * P; s++)
			for (uint32_t c = 0; c < 8; c++)
				if (lrnd(8))
					big_edge(&g, spine0 + s,
						 core0 + (s % 4) * 8 + c, C);
		snprintf(what, sizeof(what),
			 "three tiers, %u pods, 1 link in 8 failed", P);
		check_irregular(&g, what);
		big_free(&g);
	}
}

/* Hand-wired meshes: S switches, each linked to 4 random others, 4
 * devices on each switch. */
Test(bisect_large, meshes, .timeout = 600)
{
	/* to 128 switches at reduced sizes (sizes.h) */
	const uint32_t last = rk_test_size(256, 128);

	for (uint32_t S = 32; S <= last; S *= 2) {
		uint32_t nd = 4 * S;
		struct big g;
		char what[80];

		big_init(&g, nd, nd + S);
		for (uint32_t s = 0; s < S; s++) {
			for (uint32_t i = 0; i < 4; i++)
				big_edge(&g, s * 4 + i, nd + s, C);
			for (uint32_t k = 0; k < 2; k++)
				big_edge(&g, nd + s, nd + lrnd(S), 2 * C);
		}
		snprintf(what, sizeof(what), "mesh of %u switches, degree ~4",
			 S);
		check_irregular(&g, what);
		big_free(&g);
	}
}
