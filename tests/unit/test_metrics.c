/* SPDX-License-Identifier: MIT */
/*
 * Fabric metrics: bisection bandwidth against brute force.  For small
 * fabrics every balanced split of the terminals is enumerated and its cut
 * computed by max-flow; the minimum is the true bisection.  rackc's lower
 * bound must not exceed it nor its upper bound fall below it, and both
 * must equal it where rackc says exact (every generated fabric); at the
 * endpoint level (the terminals: NICs, or ports no component claims) and
 * at the node level (the servers).
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdlib.h>

#include "helpers.h"
#include "arith.h"
#include "capacity.h"
#include "cooling_model.h"
#include "loads.h"
#include "layout.h"
#include "metrics.h"
#include "maxflow.h"
#include "power_model.h"
#include "supply.h"
#include "portindex.h"
#include "sizes.h"

/* The cut between the terminals in @mask and the others (@side: room for
 * every vertex); @term maps each endpoint port to its terminal, whose side
 * it takes. */
static int64_t mask_cut(const struct fabric_graph_view *g, const uint32_t *term,
			uint32_t mask, uint8_t *side)
{
	for (uint32_t i = 0; i < g->ne; i++)
		side[i] = term[i] == RK_NONE	  ? 0
			  : (mask >> term[i] & 1) ? 1
						  : 2;
	return maxflow_bipartition(g->nv, g->nedges, g->u, g->v, g->cap, side);
}

/*
 * Minimum over all balanced splits of @n terminals (n <= 20): a terminal's
 * ports all take its side, switches are free (max-flow).
 */
static int64_t brute_terminals(const struct fabric_graph_view *g,
			       const uint32_t *term, uint32_t n)
{
	uint8_t *side = calloc(g->nv + 1, 1);
	int64_t best = -1;

	cr_assert(n <= 20);
	for (uint32_t mask = 0; mask < (1u << n); mask++) {
		uint32_t pc = (uint32_t)__builtin_popcount(mask);
		int64_t c;

		if (pc != n / 2 && pc != n - n / 2)
			continue;
		c = mask_cut(g, term, mask, side);
		if (best < 0 || c < best)
			best = c;
	}
	free(side);
	return best;
}

/* the endpoint level: NICs, or ports no component claims */
static int64_t brute_bisection(const struct fabric_graph_view *g)
{
	return brute_terminals(g, g->dev, g->nd);
}

/* the node level: the servers */
static int64_t brute_node_bisection(const struct fabric_graph_view *g)
{
	return brute_terminals(g, g->node, g->nn);
}

static const char *parts =
    "part srv : server { height 1U; port ib[0..3] { speed 100Gb/s; "
    "protocol ib } }\n"
    "part sw4 : switch { height 1U; port p[0..3] { speed 100Gb/s; "
    "protocol ib } }\n"
    "part sw8 : switch { height 1U; port p[0..7] { speed 100Gb/s; "
    "protocol ib } }\n"
    "part sw12 : switch { height 1U; port p[0..11] { speed 100Gb/s; "
    "protocol ib } }\n"
    "part sw40 : switch { height 1U; port p[0..39] { speed 100Gb/s; "
    "protocol ib } }\n"
    "part nic1 : nic { port p[0] { speed 100Gb/s } }\n"
    "part nsrv : server { height 1U; port ib[0..3] { speed 100Gb/s; "
    "protocol ib }\n"
    "  for i in 0..3 { nic cx[i] : nic1 { ports ib[i] } } }\n";

/* Compile @body after the parts, compare fabric f's bisection with
 * @brute's (equal when @exact); its figures into @m (the caller frees
 * them); returns the truth. */
static int64_t check_fabric_with(
    const char *body, bool exact,
    int64_t (*brute)(const struct fabric_graph_view *),
    struct fabric_metrics *m)
{
	char *src;
	struct unit *u;
	uint32_t fab;
	struct fabric_graph_view g;
	int64_t truth;

	cr_assert(asprintf(&src, "%s%s", parts, body) > 0);
	u = compile(src);
	cr_assert_eq(u->rc, 0, "%s", u->err);
	fab = find_obj(u, "f");
	cr_assert_neq(fab, RK_NONE);
	metrics_compute(u->d, fab, m);
	metrics_graph_export(u->d, fab, &g);
	truth = brute(&g);
	cr_assert_eq(m->devices, g.nd);
	cr_assert_leq(m->bisection, truth,
		      "lower bound %lld above the truth %lld",
		      (long long)m->bisection, (long long)truth);
	cr_assert_geq(m->bisection_upper, truth, "upper bound below the truth");
	if (exact) {
		cr_assert_eq(m->method, BISECT_EXACT);
		cr_assert_eq(m->bisection, truth,
			     "rackc %lld, brute force %lld",
			     (long long)m->bisection, (long long)truth);
	}
	if (m->method == BISECT_EXACT)
		cr_assert_eq(m->bisection, m->bisection_upper);
	metrics_graph_view_free(&g);
	unit_free(u);
	free(src);
	return truth;
}

static int64_t check_fabric(const char *body, bool exact)
{
	struct fabric_metrics m;
	int64_t truth = check_fabric_with(body, exact, brute_bisection, &m);

	metrics_free(&m);
	return truth;
}

Test(bisection, two_tier_full)
{
	/* 4 nodes x 2 rails, 4-port switches 1:1: 4 leaves, 2 spines */
	check_fabric(
	    "for n in 0..3 { node s[n] : srv {} }\n"
	    "fabric f : fat_tree { endpoints s[*].ib[0..1]; switch sw4; "
	    "su_size 2 }\n",
	    true);
}

Test(bisection, two_tier_oversubscribed)
{
	/* 3:1 on 8-port switches: 6 down, 2 up */
	check_fabric("for n in 0..11 { node s[n] : srv {} }\n"
		     "fabric f : fat_tree { endpoints s[*].ib[0]; switch sw8; "
		     "oversubscription 3:1 }\n",
		     true);
}

Test(bisection, two_tier_partial_su)
{
	/* 7 nodes in SUs of 4: the last SU is short */
	check_fabric(
	    "for n in 0..6 { node s[n] : srv {} }\n"
	    "fabric f : fat_tree { endpoints s[*].ib[0..1]; switch sw8; "
	    "su_size 4 }\n",
	    true);
}

Test(bisection, three_tier)
{
	/* 4-port switches: pods of 2 leaves; 8 leaves -> 3 tiers */
	check_fabric(
	    "for n in 0..7 { node s[n] : srv {} }\n"
	    "fabric f : fat_tree { endpoints s[*].ib[0..1]; switch sw4; "
	    "su_size 2; tiers 3 }\n",
	    true);
}

Test(bisection, four_tier)
{
	/* 4-port switches: pods of 2 leaves, groups of 2 pods, at most 4
	 * groups under a top switch; 9 leaves make 5 pods in 3 groups, more
	 * than three tiers reach: four by default */
	check_fabric("for n in 0..17 { node s[n] : srv {} }\n"
		     "fabric f : fat_tree { endpoints s[*].ib[0]; switch sw4; "
		     "su_size 2 }\n",
		     true);
}

Test(bisection, four_tier_every_size)
{
	/* 3 to 20 nodes in SUs of 2 on 4-port switches: 2 to 10 leaves in
	 * pods of 2 and groups of 2 pods, full and partial (to 14 nodes, 7
	 * leaves, at reduced sizes: sizes.h) */
	const unsigned last = rk_test_size(20, 14);

	for (unsigned n = 3; n <= last; n++) {
		char *body;

		cr_assert(asprintf(&body,
				   "for n in 0..%u { node s[n] : srv {} }\n"
				   "fabric f : fat_tree { endpoints "
				   "s[*].ib[0]; switch sw4; su_size 2; "
				   "tiers 4 }\n",
				   n - 1) > 0);
		check_fabric(body, true);
		free(body);
	}
}

Test(bisection, four_tier_closed_form)
{
	/* 18 endpoints on 4-port leaves 1:1 (2 down, 2 up): 9 leaves in 5
	 * pods of 2 (the last of 1) in 3 groups of 2 pods (the last of 1);
	 * U = 2 spines per pod (10), 2 * 2 = 4 cores per group (12), top
	 * switches ceil(4 * 2 / floor(4 / 3)) = 8; links: 18 endpoints, 2
	 * up per leaf, per spine, per core */
	struct unit *u = compile(
	    "part srv : server { height 1U; port ib[0] { speed 100Gb/s; "
	    "protocol ib } }\n"
	    "part sw4 : switch { height 1U; port p[0..3] { speed 100Gb/s; "
	    "protocol ib } }\n"
	    "for n in 0..17 { node s[n] : srv {} }\n"
	    "fabric f : fat_tree { endpoints s[*].ib[0]; switch sw4; "
	    "su_size 2; tiers 4 }\n");
	struct fabric_metrics m;
	const uint32_t want[4] = { 9, 10, 12, 8 },
		       links[4] = { 18, 18, 20, 24 };

	cr_assert_eq(u->rc, 0, "%s", u->err);
	metrics_compute(u->d, find_obj(u, "f"), &m);
	cr_assert_eq(m.tiers, 4);
	for (unsigned t = 0; t < 4; t++) {
		cr_assert_eq(m.tier_switches[t], want[t], "tier %u", t);
		cr_assert_eq(m.tier_links[t], links[t], "tier %u", t);
	}
	cr_assert_eq(m.injection, 18 * 100000000000ll);
	cr_assert_eq(m.bisection, 9 * 100000000000ll);
	metrics_free(&m);
	unit_free(u);
}

/*
 * Planes share no switch.  At the endpoint level (the plane tests' servers
 * have a NIC per port, so that each lies on one plane) whole planes make
 * the halves where their sizes allow and the bisection is 0; at the node
 * level every server meets every plane and the planes add up.  Both
 * against the brute force over the whole fabric.
 */
static void check_planes(const char *body, uint32_t planes, int64_t node)
{
	struct fabric_metrics m, n;
	struct fabric_graph_view g;
	char *src;
	struct unit *u;

	check_fabric_with(body, true, brute_bisection, &m);
	/* the planes share no switch: a leaf serves one plane's rails */
	cr_assert_eq(m.switches % planes, 0);
	cr_assert_eq(m.parts, 0);
	metrics_node_view(&m, &n);
	cr_assert_eq(n.parts, planes);
	cr_assert_eq(n.method, BISECT_EXACT);
	cr_assert(asprintf(&src, "%s%s", parts, body) > 0);
	u = compile(src);
	metrics_graph_export(u->d, find_obj(u, "f"), &g);
	cr_assert_eq(n.devices, g.nn);
	cr_assert_eq(n.bisection, brute_node_bisection(&g),
		     "node level %lld, brute force %lld",
		     (long long)n.bisection,
		     (long long)brute_node_bisection(&g));
	if (node >= 0) /* -1: no figure by hand */
		cr_assert_eq(n.bisection, node, "node level %lld, by hand %lld",
			     (long long)n.bisection, (long long)node);
	metrics_graph_view_free(&g);
	unit_free(u);
	free(src);
	metrics_free(&m);
}

Test(bisection, planes_two_tier)
{
	/* 5 nodes x 4 rails on 2 planes (rails 0, 2 and 1, 3): at the
	 * endpoint level a plane of 10 NICs is a half, so 0; at the node
	 * level both planes are 1:1 trees and the figure is the full
	 * bisection, 2 servers of 4 x 100 Gb/s (the brute force agrees) */
	check_planes("for n in 0..4 { node s[n] : nsrv {} }\n"
		     "fabric f : fat_tree { endpoints s[*].ib[0..3]; "
		     "switch sw4; su_size 2; planes 2 }\n",
		     2, 2 * 4 * 100000000000ll);
}

Test(bisection, planes_one_rail_each)
{
	/* 4 nodes x 4 rails, a plane per rail; 8-port switches at 3:1
	 * (6 down, 2 up): per plane 2 leaves and ceil(2 * 2 / 8) = 1 spine */
	check_planes(
	    "for n in 0..3 { node s[n] : nsrv {} }\n"
	    "fabric f : fat_tree { endpoints s[*].ib[0..3]; "
	    "switch sw8; oversubscription 3:1; su_size 2; planes 4 }\n",
	    4, -1);
}

Test(bisection, planes_three_tier)
{
	/* 8 nodes x 2 rails on 2 planes of three tiers each, 1:1: at the
	 * node level the full bisection, 4 servers of 2 x 100 Gb/s */
	check_planes("for n in 0..7 { node s[n] : nsrv {} }\n"
		     "fabric f : fat_tree { endpoints s[*].ib[0..1]; "
		     "switch sw4; su_size 2; tiers 3; planes 2 }\n",
		     2, 4 * 2 * 100000000000ll);
}

Test(bisection, hand_wired_ring)
{
	/* a ring of 4 switches with 2 nodes each */
	check_fabric(
	    "for n in 0..7 { node s[n] : srv {} }\n"
	    "for k in 0..3 { switch x[k] : sw8 {} }\n"
	    "for n in 0..7 { link s[n].ib[0] -- x[floor(n / 2)].p[n % 2] }\n"
	    "for k in 0..3 { link x[k].p[2] -- x[(k + 1) % 4].p[3] }\n"
	    "fabric f : fat_tree { endpoints s[*].ib[0] }\n",
	    true);
}

Test(bisection, degraded_tree)
{
	/* a leaf with one of its two uplinks missing */
	check_fabric(
	    "for n in 0..5 { node s[n] : srv {} }\n"
	    "for k in 0..2 { switch l[k] : sw4 {} }\n"
	    "switch sp : sw8 {}\n"
	    "for n in 0..5 { link s[n].ib[0] -- l[floor(n / 2)].p[n % 2] }\n"
	    "link l[0].p[2] -- sp.p[0]\n"
	    "link l[0].p[3] -- sp.p[1]\n"
	    "link l[1].p[2] -- sp.p[2]\n"
	    "link l[2].p[2] -- sp.p[3]\n"
	    "link l[2].p[3] -- sp.p[4]\n"
	    "fabric f : fat_tree { endpoints s[*].ib[0] }\n",
	    true);
}

/*
 * Five leaves of 4 endpoints with 8 uplinks over 3 spines: (3,3,2) links per
 * spine in rotation (hand-wired, as a generator with uneven spread would).
 * The leaf-order split is not the least; the exact value must be found.
 */
Test(bisection, uneven_spread)
{
	const char *body =
	    "for n in 0..19 { node s[n] : srv {} }\n"
	    "for k in 0..4 { switch l[k] : sw12 {} }\n"
	    "for k in 0..2 { switch sp[k] : sw40 {} }\n"
	    "for n in 0..19 { link s[n].ib[0] -- l[floor(n / 4)].p[n % 4] }\n"
	    "for k in 0..4 { for j in 0..7 {\n"
	    "  link l[k].p[4 + j] -- sp[(k + j) % 3].p[8 * k + j]\n"
	    "} }\n"
	    "fabric f : fat_tree { endpoints s[*].ib[0] }\n";

	check_fabric(body, true);
}

/* Multi-port servers, their ports claimed by no component: each server's
 * 4 ports on 4 switches that share nothing.  At the endpoint level every
 * port is a terminal (no forwarding inside a server is assumed): the ports
 * of two switches make a half, so 0.  At the node level the servers
 * forward: a split by port cuts less than any split by server. */
Test(bisection, multi_port_devices_stay_whole)
{
	struct fabric_metrics m, n;
	struct fabric_graph_view g;
	const char *body =
	    "for n in 0..5 { node s[n] : srv {} }\n"
	    "for k in 0..3 { switch x[k] : sw8 {} }\n"
	    "for n in 0..5 { for k in 0..3 { link s[n].ib[k] -- x[k].p[n] } }\n"
	    "fabric f : fat_tree { endpoints s[*].ib[0..3] }\n";
	char *src;
	struct unit *u;

	cr_assert(asprintf(&src, "%s%s", parts, body) > 0);
	u = compile(src);
	cr_assert_eq(u->rc, 0, "%s", u->err);
	metrics_compute(u->d, find_obj(u, "f"), &m);
	metrics_graph_export(u->d, find_obj(u, "f"), &g);
	cr_assert_eq(m.devices, 24);
	cr_assert_eq(m.method, BISECT_EXACT);
	cr_assert_eq(m.bisection, 0);
	metrics_node_view(&m, &n);
	cr_assert_eq(n.devices, 6);
	cr_assert_eq(g.nn, 6);
	cr_assert_eq(n.method, BISECT_EXACT);
	/* 3 servers a side: each switch carries 3 links across */
	cr_assert_eq(n.bisection, 4 * 3 * 100000000000ll);
	cr_assert_eq(brute_node_bisection(&g), n.bisection);
	metrics_graph_view_free(&g);
	metrics_free(&m);
	unit_free(u);
	free(src);
}

/* One server with two bare ports: two terminals at the endpoint level, and
 * fewer than two at the node level: no bisection there. */
Test(bisection, one_device_has_none)
{
	struct unit *u = compile(
	    "part srv : server { height 1U; port ib[0..1] { speed 100Gb/s } }\n"
	    "part sw4 : switch { height 1U; port p[0..3] { speed 100Gb/s } }\n"
	    "node s : srv\n"
	    "switch x : sw4\n"
	    "link s.ib[0] -- x.p[0]\n"
	    "link s.ib[1] -- x.p[1]\n"
	    "fabric f : star { endpoints s.ib[0..1] }\n");
	struct fabric_metrics m;

	cr_assert_eq(u->rc, 0, "%s", u->err);
	metrics_compute(u->d, find_obj(u, "f"), &m);
	/* its two ports are terminals of their own: one link cut */
	cr_assert_eq(m.devices, 2);
	cr_assert_eq(m.method, BISECT_EXACT);
	cr_assert_eq(m.bisection, 100000000000ll);
	/* one node */
	cr_assert_eq(m.node.devices, 1);
	cr_assert_eq(m.node.method, BISECT_NONE);
	metrics_free(&m);
	unit_free(u);
}

/* The GB200 NVL72 domain: 72 GPUs, 18 chips, any 36 | 36 split carries 36
 * links on each chip: 18 x 36 x 400 Gb/s = 259.2 Tb/s per direction. */
Test(bisection, gb200_nvl72_domain)
{
	struct unit *u =
	    compile_file(RACKC_SRCDIR "/examples/gb200-nvl72.rack", NULL);
	struct fabric_metrics m;

	cr_assert_eq(u->rc, 0, "%s", u->err);
	metrics_compute(u->d, find_obj(u, "nvl"), &m);
	cr_assert_eq(m.devices, 72);
	cr_assert_eq(m.method, BISECT_EXACT);
	cr_assert_eq(m.bisection, 259200000000000ll);
	cr_assert_eq(m.bisection_upper, 259200000000000ll);
	cr_assert_eq(m.full_bisection, 259200000000000ll);
	metrics_free(&m);
	unit_free(u);
}

Test(maxflow, parallel_paths)
{
	/* s0 - a - t0 and s0 - b - t0, caps 3 and 4: flow 7 */
	uint32_t u[] = { 0, 2, 0, 3 }, v[] = { 2, 1, 3, 1 };
	int64_t cap[] = { 3, 5, 4, 4 };
	uint8_t side[] = { 1, 2, 0, 0 };

	cr_assert_eq(maxflow_bipartition(4, 4, u, v, cap, side), 7);
}

Test(maxflow, undirected_edges_carry_both_ways)
{
	uint32_t u[] = { 1, 2 }, v[] = { 0, 0 };
	int64_t cap[] = { 5, 2 };
	uint8_t side[] = { 0, 1, 2 };

	/* 1 -> 0 -> 2 uses both edges against their written direction */
	cr_assert_eq(maxflow_bipartition(3, 2, u, v, cap, side), 2);
}

/*
 * Reference max-flow for the comparison below: Edmonds-Karp on a capacity
 * matrix, with a super source joined to every side-1 vertex and a super
 * sink to every side-2 vertex by edges no cut can afford.
 */
#define REF_MAX 16
static int64_t ref_maxflow(uint32_t nv, uint32_t ne, const uint32_t *u,
			   const uint32_t *v, const int64_t *cap,
			   const uint8_t *side)
{
	int64_t c[REF_MAX + 2][REF_MAX + 2] = { { 0 } }, total = 0;
	const int64_t big = (int64_t)1 << 50;
	uint32_t n = nv + 2, s = nv, t = nv + 1;

	for (uint32_t i = 0; i < ne; i++) {
		c[u[i]][v[i]] += cap[i];
		c[v[i]][u[i]] += cap[i];
	}
	for (uint32_t x = 0; x < nv; x++) {
		if (side[x] == 1)
			c[s][x] = big;
		if (side[x] == 2)
			c[x][t] = big;
	}
	for (;;) {
		int prev[REF_MAX + 2];
		uint32_t q[REF_MAX + 2], qh = 0, qt = 0;
		int64_t b = big;

		for (uint32_t x = 0; x < n; x++)
			prev[x] = -1;
		prev[s] = (int)s;
		q[qt++] = s;
		while (qh < qt && prev[t] < 0) {
			uint32_t x = q[qh++];

			for (uint32_t y = 0; y < n; y++)
				if (prev[y] < 0 && c[x][y] > 0) {
					prev[y] = (int)x;
					q[qt++] = y;
				}
		}
		if (prev[t] < 0)
			return total;
		for (uint32_t y = t; y != s; y = (uint32_t)prev[y])
			if (c[prev[y]][y] < b)
				b = c[prev[y]][y];
		for (uint32_t y = t; y != s; y = (uint32_t)prev[y]) {
			c[prev[y]][y] -= b;
			c[y][prev[y]] += b;
		}
		total += b;
	}
}

/* Random multigraphs: parallel edges, edges inside a side, side-to-side
 * edges, zero capacities; the contracted Dinic must agree every time. */
Test(maxflow, random_graphs_match_reference)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	for (int round = 0; round < 2000; round++) {
		uint32_t nv, ne, u[40], v[40];
		int64_t cap[40];
		uint8_t side[REF_MAX];
		bool has_src = false, has_snk = false;

#define RND()                                                           \
	(seed = seed * 6364136223846793005ull + 1442695040888963407ull, \
	 (uint32_t)(seed >> 33))
		nv = 2 + RND() % (REF_MAX - 1);
		ne = RND() % 40;
		for (uint32_t x = 0; x < nv; x++) {
			side[x] = (uint8_t)(RND() % 3);
			has_src |= side[x] == 1;
			has_snk |= side[x] == 2;
		}
		if (!has_src)
			side[0] = 1;
		if (!has_snk)
			side[nv - 1] = 2;
		for (uint32_t i = 0; i < ne; i++) {
			u[i] = RND() % nv;
			v[i] = RND() % nv;
			cap[i] = RND() % 10;
		}
#undef RND
		cr_assert_eq(maxflow_bipartition(nv, ne, u, v, cap, side),
			     ref_maxflow(nv, ne, u, v, cap, side), "round %d",
			     round);
	}
}

Test(maxflow, huge_capacities_saturate)
{
	uint32_t u[] = { 0, 0, 0 }, v[] = { 1, 1, 1 };
	int64_t cap[] = { INT64_MAX / 2, INT64_MAX / 2, INT64_MAX / 2 };
	uint8_t side[] = { 1, 2 };
	int64_t r = maxflow_bipartition(2, 3, u, v, cap, side);

	/* no overflow: the sum stops at a bound far above any real fabric */
	cr_assert_gt(r, (int64_t)1 << 60);
}

Test(portindex, ends_by_device_and_port)
{
	struct unit *u =
	    compile("part sw : switch { height 1U; port p[0..3] }\n"
		    "device a : sw\n"
		    "device b : sw\n"
		    "link a.p[2] -- b.p[0]\n"
		    "link a.p[0] -- b.p[1]\n"
		    "link b.p[3] -- a.p[2]\n");
	struct port_index x;
	uint32_t a, b, p0, p2, p3, k, n;

	cr_assert_eq(u->rc, 0, "%s", u->err);
	a = find_obj(u, "a");
	b = find_obj(u, "b");
	p0 = find_part(u, "sw.p[0]");
	p2 = find_part(u, "sw.p[2]");
	p3 = find_part(u, "sw.p[3]");
	port_index_build(u->d, &x);
	cr_assert_eq(x.n, 6);
	/* device a: p[0] (link 1), then p[2] twice in link order (0, 2) */
	cr_assert_eq(x.start[a + 1] - x.start[a], 3);
	k = port_index_find(&x, a, p2, &n);
	cr_assert_neq(k, RK_NONE);
	cr_assert_eq(n, 2);
	cr_assert_eq(x.e[k].link, 0);
	cr_assert_eq(x.e[k].end, 0);
	cr_assert_eq(x.e[k + 1].link, 2);
	cr_assert_eq(x.e[k + 1].end, 1);
	k = port_index_find(&x, a, p0, &n);
	cr_assert_eq(n, 1);
	cr_assert_eq(x.e[k].link, 1);
	cr_assert_lt(k, port_index_find(&x, a, p2, NULL));
	cr_assert_eq(port_index_find(&x, a, p3, &n), RK_NONE);
	cr_assert_eq(n, 0);
	k = port_index_find(&x, b, p3, NULL);
	cr_assert_eq(x.e[k].link, 2);
	cr_assert_eq(x.e[k].end, 0);
	port_index_free(&x);
	unit_free(u);
}

Test(capacity, three_phase_nec)
{
	struct unit *u = compile(
	    "part p : pdu { voltage 415V; current 32A; phases 3; derate 80% }\n"
	    "part q : pdu { voltage 208V; current 30A; phases 3; derate 80% }\n"
	    "part s : pdu { voltage 230V; current 16A; phases 1 }\n");
	uint32_t p = find_part(u, "p"), q = find_part(u, "q"),
		 s = find_part(u, "s");

	/* 415 x 32 x sqrt(3) x 0.8 = 18,401.307 W; 208 x 30 x sqrt(3) x 0.8 =
	 * 8,646.397 W (the worked example in the reference); 230 x 16 */
	cr_assert_eq(supply_capacity_mw(u->d, p), 18401307);
	cr_assert_eq(supply_capacity_mw(u->d, q), 8646397);
	cr_assert_eq(supply_capacity_mw(u->d, s), 3680000);
	unit_free(u);
}

Test(capacity, isqrt)
{
	cr_assert_eq(arith_isqrt(0), 0);
	cr_assert_eq(arith_isqrt(15), 3);
	cr_assert_eq(arith_isqrt(16), 4);
	cr_assert_eq(arith_isqrt((u128)UINT64_MAX * UINT64_MAX), UINT64_MAX);
}

/*
 * An out-of-band star over the NVLink switches' BMC ports shares devices
 * with the NVLink domain but none of its links: the domain's figures count
 * its member switches (one tier) only.
 */
Test(fabric_graph, other_fabrics_links_stay_out)
{
	struct unit *u = compile(
	    "part gsrv : server { height 1U; port nv[0..3] { speed 50GB/s; "
	    "protocol nvlink } }\n"
	    "part nvsw : switch { height 1U; port nvl[0..7] { speed 50GB/s; "
	    "protocol nvlink }\n"
	    "  port bmc { speed 1Gb/s; role oob } }\n"
	    "part oobsw : switch { height 1U; port p[0..7] { speed 1Gb/s } }\n"
	    "for n in 0..3 { node g[n] : gsrv {} }\n"
	    "for k in 0..1 { switch s[k] : nvsw {} }\n"
	    "fabric f : nvlink { endpoints g[*].nv[0..3]; members s[*] }\n"
	    "fabric oob : star { endpoints s[*].bmc; switch oobsw }\n");
	struct fabric_metrics m;
	uint32_t fab;

	cr_assert_eq(u->rc, 0, "%s", u->err);
	fab = find_obj(u, "f");
	metrics_compute(u->d, fab, &m);
	cr_assert_eq(m.switches, 2);
	cr_assert_eq(m.tiers, 1);
	cr_assert_eq(m.links, 16);
	cr_assert_eq(m.tier_switches[1], 0);
	metrics_free(&m);
	fab = find_obj(u, "oob");
	metrics_compute(u->d, fab, &m);
	cr_assert_eq(m.switches, 1);
	cr_assert_eq(m.endpoints, 2);
	metrics_free(&m);
	unit_free(u);
}

/*
 * Generated two-tier trees for many uplink spreads: leaves of R-port
 * switches at d:u, L leaves dealt round-robin over S = ceil(L u / R)
 * spines, from one spine to more spines than a leaf has uplinks, even and
 * uneven, full and partial scalable units: exact, against brute force.
 */
Test(bisection, generated_spreads_exact, .timeout = 600)
{
	static const char *const ratios[] = { "1:1", "3:1", "1:3", "2:1" };
	/* the brute force doubles with every node: to 14 nodes at reduced
	 * sizes (sizes.h) */
	const unsigned last = rk_test_size(20, 14);
	unsigned n = 0;

	for (unsigned r = 4; r <= 12; r += 4)
		for (unsigned k = 0; k < 4; k++)
			for (unsigned nodes = 2; nodes <= last; nodes += 3)
				for (unsigned su = 0; su < 2; su++) {
					char *body;
					struct unit *u;

					if (asprintf(
						&body,
						"part swr : switch { height "
						"1U; "
						"port p[0..%u] { speed "
						"100Gb/s; "
						"protocol ib } }\n"
						"for n in 0..%u { node s[n] : "
						"srv {} "
						"}\n"
						"fabric f : fat_tree { "
						"endpoints "
						"s[*].ib[0]; switch swr; "
						"oversubscription %s%s }\n",
						r - 1, nodes - 1, ratios[k],
						su ? "; su_size 3" : "") < 0)
						cr_assert_fail();
					/* some ratios do not fit a switch: skip
					 * what the generator refuses */
					{
						char *src;

						cr_assert(asprintf(&src, "%s%s",
								   parts,
								   body) > 0);
						u = compile(src);
						free(src);
					}
					if (u->rc == 0) {
						check_fabric(body, true);
						n++;
					}
					unit_free(u);
					free(body);
				}
	cr_assert_geq(n, 40, "only %u trees generated", n);
}

/*
 * Large generated trees against the closed form: a non-blocking two-tier
 * tree of N single-port endpoints (N even) has bisection N/2 x rate; the
 * superpod's three tiers likewise (tests/superpod.sh runs those).
 */
Test(bisection, large_two_tier_closed_form)
{
	const char *src =
	    "part srv : server { height 1U; port ib[0..3] { speed 400Gb/s; "
	    "protocol ib } }\n"
	    "part sw64 : switch { height 1U; port p[0..63] { speed "
	    "400Gb/s; protocol ib } }\n"
	    "for n in 0..255 { node s[n] : srv {} }\n"
	    "fabric f : fat_tree { endpoints s[*].ib[0..3]; switch sw64; "
	    "oversubscription 1:1 }\n";
	struct unit *u = compile(src);
	struct fabric_metrics m;

	cr_assert_eq(u->rc, 0, "%s", u->err);
	metrics_compute(u->d, find_obj(u, "f"), &m);
	/* 256 servers x 4 ports, no NIC components: 1,024 ports, each a
	 * terminal of 400 Gb/s, 512 a side; at the node level 256 servers of
	 * 1.6 Tb/s, 128 a side: the same figure, non-blocking */
	cr_assert_eq(m.devices, 1024);
	cr_assert_eq(m.method, BISECT_EXACT);
	cr_assert_eq(m.bisection, 512ll * 400000000000ll);
	cr_assert_eq(m.full_bisection, m.bisection);
	cr_assert_eq(m.node.devices, 256);
	cr_assert_eq(m.node.method, BISECT_EXACT);
	cr_assert_eq(m.node.bisection, 128ll * 4 * 400000000000ll);
	cr_assert_eq(m.node.full_bisection, m.node.bisection);
	metrics_free(&m);
	unit_free(u);
}

/*
 * The All-to-All bound through a cut of ga | gb GPUs (doc/language.md
 * §10.1): ga gb S/p bytes cross it per direction.  Figures by hand: 16 | 4
 * GPUs of 20, 1 GiB, 100 Gb/s: 64 x 2^30 x 8 / (20 x 10^11) s =
 * 274,877,906.944 ns; and 2^31 | 2^31 of 2^32 GPUs, 2^50 bytes, 10^15 b/s,
 * whose product 2^115 x 10^9 passes 128 bits: 2^83 x 10^9 / 10^15 =
 * 9,671,406,556,917,033,397.6 ns, still 64 bits.
 */
Test(capacity, alltoall_uneven_cut)
{
	struct cap_time t = cap_alltoall(20, INT64_C(1) << 30, 80000000000, 16,
					 4, 100000000000);

	cr_assert(t.valid && t.bound);
	cr_assert_eq(t.ns, 274877906u);
	/* without a cut, the injection term: 19/20 x 2^30 x 8 / 8e10 s */
	t = cap_alltoall(20, INT64_C(1) << 30, 80000000000, 16, 4, 0);
	cr_assert_eq(t.ns, 102005473u);
	t = cap_alltoall(UINT64_C(1) << 32, INT64_C(1) << 50,
			 INT64_C(1000000000000000), UINT64_C(1) << 31,
			 UINT64_C(1) << 31, INT64_C(1000000000000000));
	cr_assert_eq(t.ns, UINT64_C(9671406556917033397));
	/* past 64 bits: saturated */
	t = cap_alltoall(UINT64_C(1) << 32, INT64_C(1) << 50,
			 INT64_C(1000000000000000), UINT64_C(1) << 31,
			 UINT64_C(1) << 31, 1);
	cr_assert_eq(t.ns, UINT64_MAX);
}

/*
 * The figure cache (derived.c): the power and cooling models are built
 * once and read by everyone; once the jobs started, a figure no declared
 * part prepares is refused with an internal error (SIGABRT).
 */
static const char *const cache_src =
    "part srv : server { height 1U; psus 2; power_max 3kW }\n"
    "part p16 : pdu { voltage 230V; current 16A }\n"
    "part rk42 : rack { height 42U }\n"
    "site s {\n"
    "\tfeed A { capacity 10kW }\n"
    "\tfeed B { capacity 10kW }\n"
    "\trow r { rack k : rk42 { pdu pa : p16 { feed s.A }\n"
    "\t\tpdu pb : p16 { feed s.B } } }\n"
    "}\n"
    "node n : srv { rack s.r.k; at 1U;\n"
    "\tpower psu[0] -> s.r.k.pa; power psu[1] -> s.r.k.pb }\n";

Test(derived, models_once)
{
	struct unit *u = compile(cache_src);
	struct derived dv;
	const struct feed_load *f;
	uint32_t nf;

	cr_assert_eq(u->rc, 0, "%s", u->err);
	derived_init(&dv, u->d);
	cr_assert_eq(derived_power(&dv), derived_power(&dv));
	cr_assert_eq(derived_cooling(&dv), derived_cooling(&dv));
	f = derived_feed_loads(&dv, &nf);
	cr_assert_eq(f, derived_feed_loads(&dv, &nf));
	/* two feeds, each carrying half of 3 kW; with the other lost, all */
	cr_assert_eq(nf, 2);
	cr_assert_eq(f[0].load, 1500000);
	cr_assert_eq(f[0].lost_load, 3000000);
	cr_assert_eq(f[1].load, 1500000);
	derived_free(&dv);
	unit_free(u);
}

/* a declared part computes after the start; a prepared figure is read */
Test(derived, declared_after_start)
{
	struct unit *u = compile(cache_src);
	struct derived dv;
	uint32_t nf;

	derived_init(&dv, u->d);
	derived_prepare_init(&dv);
	derived_prepare_part(&dv, DERIVED_RACKS);
	derived_need(&dv, DERIVED_MODELS);
	derived_start(&dv);
	cr_assert_not_null(derived_racks(&dv));
	cr_assert_not_null(derived_feed_loads(&dv, &nf));
	cr_assert_eq(nf, 2);
	derived_free(&dv);
	unit_free(u);
}

Test(derived, undeclared_models_refused, .signal = SIGABRT)
{
	struct unit *u = compile(cache_src);
	struct derived dv;

	derived_init(&dv, u->d);
	derived_need(&dv, DERIVED_RACKS);
	derived_start(&dv);
	derived_power(&dv); /* DERIVED_MODELS was not declared */
}

Test(derived, undeclared_racks_refused, .signal = SIGABRT)
{
	struct unit *u = compile(cache_src);
	struct derived dv;

	derived_init(&dv, u->d);
	derived_need(&dv, DERIVED_MODELS);
	derived_start(&dv);
	derived_racks(&dv);
}

Test(derived, unwanted_labels_refused, .signal = SIGABRT)
{
	struct unit *u = compile(cache_src);
	struct derived dv;

	derived_init(&dv, u->d);
	derived_need(&dv, DERIVED_PLAN);
	derived_start(&dv);
	derived_labels(&dv); /* no back end asked for them */
}

/*
 * The one bucketing by rack (layout_racks) holds every racked device once,
 * under layout_rack_of(), in id order (checked object by object).
 */
static void check_racks(const char *path)
{
	struct unit *u = compile_file(path, NULL);
	const struct rk_design *d = u->d;
	struct layout_racks lr;
	uint32_t racked = 0, listed = 0, most = 0;

	cr_assert_eq(u->rc, 0, "%s", u->err);
	layout_racks_build(d, &lr);
	for (uint32_t i = 0; i < d->nobjs; i++)
		if (d->objs[i].kind == K_DEVICE &&
		    layout_rack_of(d, i) != RK_NONE)
			racked++;
	cr_assert_gt(racked, 0, "%s has racked devices", path);
	for (uint32_t r = 0; r < d->nobjs; r++) {
		uint32_t n = lr.first[r + 1] - lr.first[r];

		for (uint32_t k = lr.first[r]; k < lr.first[r + 1]; k++) {
			cr_assert_eq(layout_rack_of(d, lr.devs[k]), r);
			if (k > lr.first[r])
				cr_assert_lt(lr.devs[k - 1], lr.devs[k]);
		}
		listed += n;
		if (n > most)
			most = n;
	}
	cr_assert_eq(listed, racked);
	cr_assert_eq(lr.max, most);
	layout_racks_free(&lr);
	unit_free(u);
}

Test(layout, one_bucketing_by_rack)
{
	check_racks(RACKC_SRCDIR "/examples/mixed-hall.rack");
	check_racks(RACKC_SRCDIR "/examples/dgx-h100-su.rack");
	check_racks(RACKC_SRCDIR "/examples/gb200-nvl72-row.rack");
}
