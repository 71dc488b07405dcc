/* SPDX-License-Identifier: MIT */
/*
 * The fat tree generator (fabric_fattree.c), a leaf of the dispatcher
 * (fabric.c) built on fabric_build.c.
 *
 * fat_tree: rail-optimised Clos (without a `switch` part the fabric is
 * hand-wired: nothing is generated and its metrics use the written links).  Endpoint ports are grouped by node (the
 * device) and rail (the port's name: ib[0] is rail 0 ...).  With a switch of
 * R fabric ports (those at the fabric's rate) and leaf oversubscription
 * d:u, a leaf has D = R*d/(d+u) ports down and U = R-D up.  Nodes form
 * scalable units of su_size (default D; at d:u other than 1:1 the largest
 * multiple of d, in lowest terms, up to D); every SU has one leaf per
 * rail, and node k of an SU uses down port k of its rail's leaf.  Two
 * tiers: a leaf of n endpoints cables ceil(n*u/d) uplinks (by bandwidth;
 * at most Uf = min(U, ceil(su_size*u/d)), all U with `uplinks all`), so
 * it is d:u wherever n*u/d is whole, S = ceil(L*Uf/R) spines raised to a
 * divisor of Uf (or as many as `final_sus` units need), leaf uplinks
 * dealt round-robin over the spines, growth-stable (fabric_deal_uplinks()
 * of fabric_build.c).  Three and four tiers (src/fabric/fabric_tiers.c): complete trees with
 * leaves missing, pods of R/2 leaves in unit order with U spines each (Uf
 * at d:u other than 1:1), and cores (and top
 * switches) dealt growth-stably above them.  This reproduces the NVIDIA
 * DGX SuperPOD tables (8 leaves + 4 spines per SU; 128/128/64 at 16 SUs).
 */
#include "rackc.h"
#include "arith.h"

#include <stdio.h>
#include <stdlib.h>

#include "elab.h"
#include "fabric.h"
#include "fabric_gen.h"
#include "layout.h"
#include "resolve.h"

/*
 * A fat tree's rate: its `speed`, else the speed of its first endpoint
 * port that gives one (0: none known).
 */
static int64_t fabric_rate(struct elab *e, uint32_t fab, const uint32_t *ep,
			   uint32_t ne)
{
	int64_t r = ir_num(e->d, fab, A_SPEED, 0);

	for (uint32_t i = 0; !r && i < ne; i++)
		r = ir_num(e->d, ep[i], A_SPEED, 0);
	return r;
}

/*
 * Keep the switch ports that run at the fabric's @rate, so that a port of
 * another speed (the SFP28 management-speed port of an 800G switch) never
 * becomes a leaf port or an uplink.  Ports without a speed are kept only
 * when no port of the list gives one.  False when ports give speeds but
 * none is @rate.
 */
static bool ports_at_rate(struct elab *e, struct swport_list *l, int64_t rate)
{
	uint32_t n = 0, stated = 0;

	if (!rate)
		return true;
	for (uint32_t i = 0; i < l->n; i++) {
		int64_t sp = ir_num(e->d, l->ports[i], A_SPEED, 0);

		stated += sp != 0;
		n += sp == rate;
	}
	if (!stated)
		return true;
	n = 0;
	for (uint32_t i = 0; i < l->n; i++)
		if (ir_num(e->d, l->ports[i], A_SPEED, 0) == rate)
			l->ports[n++] = l->ports[i];
	l->n = n;
	return n > 0;
}

/* The state of one fat tree's generation, fabric_gen_fat_tree()'s. */
struct ft_gen {
	uint32_t fab;
	/* a copy: the object table grows as switches are added */
	struct srcloc loc;
	struct ft_plane *fp;
	uint32_t *ed, *ep, ne; /* the endpoints: devices and ports */
	uint32_t sw, spw;      /* leaf and spine switch parts */
	struct swport_list lp, sp;
	int64_t od, ou; /* oversubscription d:u as written */
	int64_t rd, ru; /* in lowest terms */
	int64_t rate, fin;
	uint32_t R, D, U, Uf, su_size, nsu, L, Lf, tiers, Sfix;
	bool all_up;
	uint32_t *node_of, *rail_names, nnodes, nrails;
	uint32_t *leaf, *spine;
	uint8_t *seen;
	int64_t *down_bw;
	struct placer pl_leaf, pl_spine, pl_core;
	uint32_t w_leaf, w_spine; /* the words "leaf" and "spine" */
};

/*
 * The leaf and spine switch parts' fabric ports for the endpoints'
 * protocol, at the fabric's rate (g->lp, g->sp, g->R); false after an
 * error.
 */
static bool ft_switch_ports(struct elab *e, struct ft_gen *g)
{
	struct rk_design *d = e->d;
	uint32_t proto;

	{
		const char *pr = ir_str(d, g->ep[0], A_PROTOCOL);

		proto = pr ? intern_cstr(e->a, pr) : 0;
	}
	fabric_switch_ports(e, g->sw, proto, &g->lp);
	fabric_switch_ports(e, g->spw, proto, &g->sp);
	g->rate = fabric_rate(e, g->fab, g->ep, g->ne);
	if (!ports_at_rate(e, &g->lp, g->rate) ||
	    !ports_at_rate(e, &g->sp, g->rate)) {
		char q[RK_QFMT_MAX];
		struct quantity qr = { DIM_RATE, g->rate };

		quantity_format(qr, q);
		elab_error(e, &g->loc, "fabric",
			   "switch part '%s' has no fabric ports at %s, the "
			   "rate of fat_tree '%s' (its `speed`, else its "
			   "first endpoint port's); give the fabric the "
			   "`speed` its links run at",
			   ir_name(d, g->lp.n ? g->spw : g->sw), q,
			   ir_name(d, g->fab));
		return false;
	}
	g->R = g->lp.n;
	if (g->R < 2 || g->sp.n < 2) {
		elab_error(e, &g->loc, "fabric",
			   "switch part '%s' has no fabric ports for "
			   "protocol '%s'",
			   ir_name(d, g->sw),
			   proto ? str_of(e->a, proto) : "any");
		return false;
	}
	return true;
}

/*
 * A leaf's D down and U up ports at the oversubscription d:u, and d:u in
 * lowest terms (1:1, rd == ru, is the non-blocking tree); false after an
 * error.
 */
static bool ft_ratio(struct elab *e, struct ft_gen *g)
{
	const struct rk_value *ov = ir_attr(e->d, g->fab, A_OVERSUB);
	int64_t od = ov ? ov->n : 1, ou = ov ? ov->a : 1;

	g->od = od;
	g->ou = ou;
	g->D = (uint32_t)((int64_t)g->R * od / (od + ou));
	g->U = g->R - g->D;
	{
		int64_t a = od, b = ou;

		while (b) {
			int64_t t = a % b;

			a = b;
			b = t;
		}
		g->rd = od / a;
		g->ru = ou / a;
	}
	if (!g->D || !g->U) {
		elab_error(e, &g->loc, "fabric",
			   "oversubscription %lld:%lld leaves a %u-port leaf "
			   "without %s ports",
			   (long long)od, (long long)ou, g->R,
			   g->D ? "up" : "down");
		return false;
	}
	return true;
}

/* The endpoints' nodes and rails, in order of first appearance. */
static void ft_nodes_rails(struct rk_design *d, struct ft_gen *g)
{
	g->node_of = xmalloc(d->nobjs * sizeof(*g->node_of));
	memset(g->node_of, 0xff, d->nobjs * sizeof(*g->node_of));
	for (uint32_t i = 0; i < g->ne; i++) {
		uint32_t nm = d->objs[g->ep[i]].local, r;

		if (g->node_of[g->ed[i]] == RK_NONE)
			g->node_of[g->ed[i]] = g->nnodes++;
		for (r = 0; r < g->nrails && g->rail_names[r] != nm; r++)
			;
		if (r == g->nrails) {
			g->rail_names =
			    xrealloc(g->rail_names,
				     (g->nrails + 1) * sizeof(*g->rail_names));
			g->rail_names[g->nrails++] = nm;
		}
	}
}

/*
 * The scalable units: their size, how many the endpoints fill (nsu) and
 * the design provisions (fin), the leaves now and then (L, Lf) and the
 * uplinks a full leaf cables (Uf); false after an error.
 */
static bool ft_units(struct elab *e, struct ft_gen *g)
{
	struct rk_design *d = e->d;
	const uint32_t fab = g->fab, D = g->D, U = g->U;
	const int64_t rd = g->rd, ru = g->ru;
	uint32_t su_size;

	/*
	 * A leaf of n endpoints is exactly d:u when n*u/d is whole: with
	 * d:u other than 1:1 the default unit is the largest multiple of d
	 * (in lowest terms) that the D down ports hold, so that a full leaf
	 * is d:u (64 ports at 4:1: 48 down and 12 up, not 51 and 13).
	 */
	su_size = (uint32_t)ir_num(
	    d, fab, A_SU_SIZE,
	    rd != ru && D >= rd ? D - (uint32_t)(D % (uint64_t)rd) : D);
	if (su_size < 1 || su_size > D) {
		elab_error(e, &g->loc, "fabric",
			   "su_size %u does not fit the %u down ports of a "
			   "leaf",
			   su_size, D);
		return false;
	}
	g->su_size = su_size;
	g->nsu = (g->nnodes + su_size - 1) / su_size;
	g->L = g->nsu * g->nrails;
	/*
	 * Two tiers: a leaf cables the uplinks its endpoints' bandwidth
	 * needs at d:u (one per endpoint at 1:1; n*u/d rounded up), at most
	 * Uf (the uplinks of a leaf whose unit is full: ceil(su_size*u/d),
	 * which D + ceil(D*u/d) <= R keeps within U), unless the design asks
	 * for every uplink port (`uplinks all`): then every leaf cables all
	 * U.  The spines are dealt as if every leaf cabled Uf, so the
	 * uplinks a leaf does not cable leave their spine ports free, and
	 * filling its unit later only adds cables.
	 */
	{
		const char *up = ir_str(d, fab, A_UPLINKS);
		uint64_t want =
		    ((uint64_t)su_size * (uint64_t)ru + rd - 1) / (uint64_t)rd;

		g->all_up = up && streq(up, "all");
		g->Uf = g->all_up || want >= U ? U : (uint32_t)want;
	}
	g->fin = ir_attr(d, fab, A_FINAL_SUS) ? ir_num(d, fab, A_FINAL_SUS, 0)
					      : (int64_t)g->nsu;
	/* four tiers reach R groups of R/2 pods of R/2 leaves */
	{
		uint64_t most =
		    (uint64_t)g->sp.n * (g->sp.n / 2) * (g->sp.n / 2);

		most = most < (1u << 30) ? most : (1u << 30);
		if (g->fin < (int64_t)g->nsu) {
			elab_error(e, &g->loc, "fabric",
				   "final_sus %lld is below the %u scalable "
				   "units the endpoints fill",
				   (long long)g->fin, g->nsu);
			return false;
		}
		if (ir_attr(d, fab, A_FINAL_SUS) &&
		    (uint64_t)g->fin > most / g->nrails) {
			elab_error(e, &g->loc, "fabric",
				   "final_sus %lld needs more leaves (%u per "
				   "unit) than four tiers of '%s' reach (%llu)",
				   (long long)g->fin, g->nrails,
				   ir_name(d, g->spw),
				   (unsigned long long)most);
			return false;
		}
	}
	g->Lf = (uint32_t)g->fin * g->nrails;
	return true;
}

/*
 * The number of tiers, stated or the fewest that reach the provisioned
 * leaves, checked against the leaves and the spine's ports; and the
 * spines a provisioned fabric fixes (g->Sfix).  False after an error.
 */
static bool ft_tiers(struct elab *e, struct ft_gen *g)
{
	struct rk_design *d = e->d;
	const uint32_t fab = g->fab, L = g->L, Lf = g->Lf, nrails = g->nrails;
	const struct swport_list *sp = &g->sp;
	const int64_t fin = g->fin;
	uint32_t tiers;

	/* beyond the pods a core reaches (see below): four tiers */
	tiers =
	    (uint32_t)ir_num(d, fab, A_TIERS,
			     Lf <= sp->n				   ? 2
			     : (Lf + sp->n / 2 - 1) / (sp->n / 2) <= sp->n ? 3
									   : 4);
	if (L == 1 && Lf == 1 && !ir_attr(d, fab, A_TIERS))
		tiers = 1;
	g->tiers = tiers;
	if (tiers < 1 || tiers > 4) {
		elab_error(e, &g->loc, "fabric", "tiers must be 1, 2, 3 or 4");
		return false;
	}
	if (tiers == 1 && L > 1) {
		elab_error(e, &g->loc, "fabric",
			   "a 1-tier fabric has one leaf, but %u nodes on %u "
			   "rails need %u",
			   g->nnodes, nrails, L);
		return false;
	}
	if (tiers == 2 && (uint64_t)fin * nrails > sp->n) {
		if (ir_attr(d, fab, A_FINAL_SUS))
			elab_error(e, &g->loc, "fabric",
				   "final_sus %u needs %llu leaves, more than "
				   "the %u ports of spine '%s'",
				   (unsigned)fin,
				   (unsigned long long)fin * nrails, sp->n,
				   ir_name(d, g->spw));
		else
			elab_error(e, &g->loc, "fabric",
				   "a 2-tier fabric of %llu leaves (%u "
				   "scalable units of %u rails) needs spines "
				   "with at least as many ports ('%s' has "
				   "%u); use tiers 3",
				   (unsigned long long)fin * nrails,
				   (unsigned)fin, nrails, ir_name(d, g->spw),
				   sp->n);
		return false;
	}
	if (ir_attr(d, fab, A_FINAL_SUS))
		g->Sfix = fabric_spines_for((uint64_t)fin * nrails * g->Uf,
					    g->Uf, sp->n);
	if (tiers == 2 && L > sp->n) {
		elab_error(e, &g->loc, "fabric",
			   "a 2-tier fabric of %u leaves needs spines with at "
			   "least %u ports ('%s' has %u); use tiers 3",
			   L, L, ir_name(d, g->spw), sp->n);
		return false;
	}
	return true;
}

/*
 * The leaves (made here, or by the planes in name order) and the links
 * from the endpoints to them: node k of SU s, rail r -> leaf s*rails+r,
 * port k.  Each leaf's downlink bandwidth in g->down_bw.  False when a
 * switch could not be placed or after an error.
 */
static bool ft_leaves(struct elab *e, struct ft_gen *g)
{
	struct rk_design *d = e->d;
	struct ft_plane *fp = g->fp;
	const uint32_t L = g->L, nrails = g->nrails;
	const int64_t rate = g->rate;

	fabric_placer_init(e, &g->pl_leaf, g->fab, A_PLACE_LEAVES);
	g->leaf = xcalloc(L, sizeof(*g->leaf));
	if (fp->made)
		memcpy(g->leaf, fp->made[fp->plane], L * sizeof(*g->leaf));
	for (uint32_t i = 0; i < L && !e->stopped && !fp->made; i++)
		if ((g->leaf[i] = fabric_new_switch(
			 e, g->fab, "leaf", fabric_ft_name(fp, i), g->sw,
			 g->w_leaf, &g->pl_leaf)) == RK_NONE)
			return false;
	/* the leaves of the units still to come keep their places */
	if (!fp->made)
		fabric_placer_reserve(e, &g->pl_leaf,
				      (uint32_t)(g->fin - g->nsu) * nrails,
				      g->sw);
	g->seen = xcalloc((size_t)g->nnodes * nrails, 1);
	g->down_bw = xcalloc(L, sizeof(*g->down_bw));
	for (uint32_t i = 0; i < g->ne && !e->stopped; i++) {
		uint32_t n = g->node_of[g->ed[i]], r, l;

		for (r = 0; g->rail_names[r] != d->objs[g->ep[i]].local; r++)
			;
		if (g->seen[(size_t)n * nrails + r]++) {
			elab_error(e, &g->loc, "fabric",
				   "device '%s' has two endpoints on rail %u",
				   ir_name(d, g->ed[i]), r);
			return false;
		}
		l = (n / g->su_size) * nrails + r;
		/* the leaf's downlink bandwidth: each link at its endpoint's
		 * speed, at most the fabric's rate (without a rate, a count) */
		{
			int64_t v = rate ? ir_num(d, g->ep[i], A_SPEED, 0) : 1;

			g->down_bw[l] += !v || v > rate ? (rate ? rate : 1) : v;
		}
		fabric_add_link(e, g->fab, g->ed[i], g->ep[i], g->leaf[l],
				g->lp.ports[n % g->su_size]);
	}
	return true;
}

/*
 * Two tiers: the spines dealt over the leaves' Uf uplinks, and leaf l
 * cabling the uplinks at the fabric's rate its downlinks' bandwidth
 * needs at d:u (rounded up, at most Uf; all Uf with `uplinks all`).
 */
static void ft_two_tier(struct elab *e, struct ft_gen *g)
{
	const uint32_t L = g->L, Uf = g->Uf;
	uint32_t *up_s = xmalloc(((size_t)L * Uf + 1) * sizeof(*up_s));
	uint32_t *up_p = xmalloc(((size_t)L * Uf + 1) * sizeof(*up_p));
	uint32_t *ul = xcalloc(L, sizeof(*ul));
	uint32_t S = fabric_deal_two_tier(g->nsu, g->nrails, Uf, g->sp.n,
					  g->Sfix, up_s, up_p),
		 Sb = 0;

	for (uint32_t l = 0; l < L; l++) {
		u128 per = (u128)(g->rate ? g->rate : 1) * g->rd;
		u128 need = ((u128)g->down_bw[l] * g->ru + per - 1) / per;

		ul[l] = g->all_up || need >= Uf ? Uf : (uint32_t)need;
		for (uint32_t j = 0; j < ul[l]; j++)
			if (up_s[(size_t)l * Uf + j] >= Sb)
				Sb = up_s[(size_t)l * Uf + j] + 1;
	}
	/* spines past the last one cabled (a unit of fewer nodes
	 * than spines) are not built: it would carry no link */
	S = Sb < S ? Sb : S;
	g->spine = xcalloc(S + 1, sizeof(*g->spine));
	fabric_placer_init(e, &g->pl_spine, g->fab, A_PLACE_SPINES);
	for (uint32_t s = 0; s < S; s++)
		if ((g->spine[s] = fabric_new_switch(
			 e, g->fab, "spine", fabric_ft_name(g->fp, s), g->spw,
			 g->w_spine, &g->pl_spine)) == RK_NONE)
			goto out;
	for (uint32_t l = 0; l < L && !e->stopped; l++)
		for (uint32_t j = 0; j < ul[l]; j++) {
			size_t k = (size_t)l * Uf + j;

			fabric_add_link(
			    e, g->fab, g->leaf[l], g->lp.ports[g->D + j],
			    g->spine[up_s[k]], g->sp.ports[up_p[k]]);
		}
out:
	free(up_s);
	free(up_p);
	free(ul);
}

/* Three or four tiers: fabric_tiers.c. */
static void ft_upper_tiers(struct elab *e, struct ft_gen *g)
{
	struct rk_design *d = e->d;
	bool grown =
	    !ir_attr(d, g->fab, A_TIERS) && !ir_attr(d, g->fab, A_FINAL_SUS);
	/* at d:u other than 1:1 a leaf cables Uf, the uplinks of a
	 * full leaf at d:u, and its pod has as many spines */
	struct ft_build b = { g->fab,	   &g->loc,
			      g->spw,	   &g->lp,
			      &g->sp,	   g->leaf,
			      g->L,	   g->Lf,
			      g->D,	   g->rd != g->ru ? g->Uf : g->U,
			      g->nrails,   g->nsu,
			      g->tiers,	   g->Sfix > 0,
			      g->fp,	   &g->pl_spine,
			      &g->pl_core, g->Uf,
			      grown };

	fabric_gen_upper_tiers(e, &b);
}

void fabric_gen_fat_tree(struct elab *e, uint32_t fab, struct ft_plane *fp)
{
	struct rk_design *d = e->d;
	struct ft_gen g;

	memset(&g, 0, sizeof(g));
	g.fab = fab;
	g.loc = d->objs[fab].loc;
	g.fp = fp;
	g.ne = fp->nplanes > 1 ? fabric_ft_plane_take(fp, &g.ed, &g.ep)
			       : fabric_endpoints(e, fab, &g.ed, &g.ep);
	g.sw = fabric_switch_part(e, fab, A_SWITCH);
	g.spw = fabric_switch_part(e, fab, A_SPINE_SWITCH);
	g.w_leaf = intern_cstr(e->a, "leaf");
	g.w_spine = intern_cstr(e->a, "spine");
	if (g.sw == RK_NONE) {
		/* hand-wired: the links are written out; claim them */
		fabric_adopt_links(e, fab, g.ed, g.ep, g.ne);
		goto out;
	}
	if (!g.ne) {
		elab_error(e, &g.loc, "fabric",
			   "fat_tree '%s' has a switch part but no endpoints",
			   ir_name(d, fab));
		goto out;
	}
	if (g.spw == RK_NONE)
		g.spw = g.sw;
	if (!ft_switch_ports(e, &g) || !ft_ratio(e, &g))
		goto out;
	ft_nodes_rails(d, &g);
	if (!ft_units(e, &g) || !ft_tiers(e, &g))
		goto out;
	/* the links: one per endpoint, U up from each leaf, and at most as
	 * many again from spines to cores (reserved up to a few million;
	 * a larger fabric grows as usual, into the table limit's error) */
	{
		uint64_t more = (uint64_t)g.ne + 2 * (uint64_t)g.L * g.U;

		VEC_RESERVE(d->links, d->nlinks, d->links_cap,
			    more < (1u << 22) ? more : (1u << 22));
	}
	if (fp->count) {
		/* planes: the leaves of all planes are made in name order */
		fp->count[fp->plane] = g.L;
		fp->future[fp->plane] = (uint32_t)(g.fin - g.nsu) * g.nrails;
		goto out;
	}
	/* each tier's placer starts from what the tiers before it placed */
	if (ft_leaves(e, &g)) {
		if (g.tiers == 2)
			ft_two_tier(e, &g);
		else if (g.tiers >= 3)
			ft_upper_tiers(e, &g);
	}
	fabric_placer_fini(&g.pl_leaf);
	fabric_placer_fini(&g.pl_spine);
	fabric_placer_fini(&g.pl_core);
out:
	free(g.ed);
	free(g.ep);
	free(g.node_of);
	free(g.rail_names);
	free(g.lp.ports);
	free(g.sp.ports);
	free(g.leaf);
	free(g.spine);
	free(g.seen);
	free(g.down_bw);
}
