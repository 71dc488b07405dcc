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
 * of fabric_build.c).  Three and four tiers (src/fabric_tiers.c): complete trees with
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

void fabric_gen_fat_tree(struct elab *e, uint32_t fab, struct ft_plane *fp)
{
	struct rk_design *d = e->d;
	/* a copy: the object table grows as switches are added */
	const struct srcloc floc = d->objs[fab].loc, *loc = &floc;
	uint32_t *ed, *ep,
	    ne = fp->nplanes > 1 ? fabric_ft_plane_take(fp, &ed, &ep)
				 : fabric_endpoints(e, fab, &ed, &ep);
	uint32_t sw = fabric_switch_part(e, fab, A_SWITCH);
	uint32_t spw = fabric_switch_part(e, fab, A_SPINE_SWITCH);
	uint32_t *node_of = NULL, *rail_of_name = NULL, nnodes = 0, nrails = 0;
	uint32_t *rail_names = NULL, proto = 0;
	struct swport_list lp, sp;
	const struct rk_value *ov = ir_attr(d, fab, A_OVERSUB);
	int64_t od = ov ? ov->n : 1, ou = ov ? ov->a : 1;
	uint32_t R, D, U, Uf, su_size, nsu, L, Lf, tiers, Sfix = 0;
	int64_t rd = 1, ru = 1;
	int64_t *down_bw = NULL;
	int64_t fin, rate;
	bool all_up;
	uint32_t *leaf = NULL, *spine = NULL;
	uint8_t *seen = NULL;
	struct placer pl_leaf, pl_spine, pl_core;
	uint32_t w_leaf = intern_cstr(e->a, "leaf");
	uint32_t w_spine = intern_cstr(e->a, "spine");

	memset(&lp, 0, sizeof(lp));
	memset(&sp, 0, sizeof(sp));
	if (sw == RK_NONE) {
		/* hand-wired: the links are written out; claim them */
		fabric_adopt_links(e, fab, ed, ep, ne);
		goto out;
	}
	if (!ne) {
		elab_error(e, loc, "fabric",
			   "fat_tree '%s' has a switch part but no endpoints",
			   ir_name(d, fab));
		goto out;
	}
	if (spw == RK_NONE)
		spw = sw;
	{
		const char *pr = ir_str(d, ep[0], A_PROTOCOL);

		proto = pr ? intern_cstr(e->a, pr) : 0;
	}
	fabric_switch_ports(e, sw, proto, &lp);
	fabric_switch_ports(e, spw, proto, &sp);
	rate = fabric_rate(e, fab, ep, ne);
	if (!ports_at_rate(e, &lp, rate) || !ports_at_rate(e, &sp, rate)) {
		char q[RK_QFMT_MAX];
		struct quantity qr = { DIM_RATE, rate };

		quantity_format(qr, q);
		elab_error(e, loc, "fabric",
			   "switch part '%s' has no fabric ports at %s, the "
			   "rate of fat_tree '%s' (its `speed`, else its "
			   "first endpoint port's); give the fabric the "
			   "`speed` its links run at",
			   ir_name(d, lp.n ? spw : sw), q, ir_name(d, fab));
		goto out;
	}
	R = lp.n;
	if (R < 2 || sp.n < 2) {
		elab_error(e, loc, "fabric",
			   "switch part '%s' has no fabric ports for "
			   "protocol '%s'",
			   ir_name(d, sw), proto ? str_of(e->a, proto) : "any");
		goto out;
	}
	D = (uint32_t)((int64_t)R * od / (od + ou));
	U = R - D;
	/* d:u in lowest terms; 1:1 (rd == ru) is the non-blocking tree */
	{
		int64_t a = od, b = ou;

		while (b) {
			int64_t t = a % b;

			a = b;
			b = t;
		}
		rd = od / a;
		ru = ou / a;
	}
	if (!D || !U) {
		elab_error(e, loc, "fabric",
			   "oversubscription %lld:%lld leaves a %u-port leaf "
			   "without %s ports",
			   (long long)od, (long long)ou, R, D ? "up" : "down");
		goto out;
	}
	/* nodes and rails in order of first appearance */
	node_of = xmalloc(d->nobjs * sizeof(*node_of));
	memset(node_of, 0xff, d->nobjs * sizeof(*node_of));
	rail_of_name = NULL;
	for (uint32_t i = 0; i < ne; i++) {
		uint32_t nm = d->objs[ep[i]].local, r;

		if (node_of[ed[i]] == RK_NONE)
			node_of[ed[i]] = nnodes++;
		for (r = 0; r < nrails && rail_names[r] != nm; r++)
			;
		if (r == nrails) {
			rail_names = xrealloc(
			    rail_names, (nrails + 1) * sizeof(*rail_names));
			rail_names[nrails++] = nm;
		}
	}
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
		elab_error(e, loc, "fabric",
			   "su_size %u does not fit the %u down ports of a "
			   "leaf",
			   su_size, D);
		goto out;
	}
	nsu = (nnodes + su_size - 1) / su_size;
	L = nsu * nrails;
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

		all_up = up && streq(up, "all");
		Uf = all_up || want >= U ? U : (uint32_t)want;
	}
	fin = ir_attr(d, fab, A_FINAL_SUS) ? ir_num(d, fab, A_FINAL_SUS, 0)
					   : (int64_t)nsu;
	/* four tiers reach R groups of R/2 pods of R/2 leaves */
	{
		uint64_t most = (uint64_t)sp.n * (sp.n / 2) * (sp.n / 2);

		most = most < (1u << 30) ? most : (1u << 30);
		if (fin < (int64_t)nsu) {
			elab_error(e, loc, "fabric",
				   "final_sus %lld is below the %u scalable "
				   "units the endpoints fill",
				   (long long)fin, nsu);
			goto out;
		}
		if (ir_attr(d, fab, A_FINAL_SUS) &&
		    (uint64_t)fin > most / nrails) {
			elab_error(e, loc, "fabric",
				   "final_sus %lld needs more leaves (%u per "
				   "unit) than four tiers of '%s' reach (%llu)",
				   (long long)fin, nrails, ir_name(d, spw),
				   (unsigned long long)most);
			goto out;
		}
	}
	Lf = (uint32_t)fin * nrails;
	/* beyond the pods a core reaches (see below): four tiers */
	tiers =
	    (uint32_t)ir_num(d, fab, A_TIERS,
			     Lf <= sp.n					? 2
			     : (Lf + sp.n / 2 - 1) / (sp.n / 2) <= sp.n ? 3
									: 4);
	if (L == 1 && Lf == 1 && !ir_attr(d, fab, A_TIERS))
		tiers = 1;
	if (tiers < 1 || tiers > 4) {
		elab_error(e, loc, "fabric", "tiers must be 1, 2, 3 or 4");
		goto out;
	}
	if (tiers == 1 && L > 1) {
		elab_error(e, loc, "fabric",
			   "a 1-tier fabric has one leaf, but %u nodes on %u "
			   "rails need %u",
			   nnodes, nrails, L);
		goto out;
	}
	if (tiers == 2 && (uint64_t)fin * nrails > sp.n) {
		if (ir_attr(d, fab, A_FINAL_SUS))
			elab_error(e, loc, "fabric",
				   "final_sus %u needs %llu leaves, more than "
				   "the %u ports of spine '%s'",
				   (unsigned)fin,
				   (unsigned long long)fin * nrails, sp.n,
				   ir_name(d, spw));
		else
			elab_error(e, loc, "fabric",
				   "a 2-tier fabric of %llu leaves (%u "
				   "scalable units of %u rails) needs spines "
				   "with at least as many ports ('%s' has "
				   "%u); use tiers 3",
				   (unsigned long long)fin * nrails,
				   (unsigned)fin, nrails, ir_name(d, spw),
				   sp.n);
		goto out;
	}
	if (ir_attr(d, fab, A_FINAL_SUS))
		Sfix = fabric_spines_for((uint64_t)fin * nrails * Uf, Uf, sp.n);
	if (tiers == 2 && L > sp.n) {
		elab_error(e, loc, "fabric",
			   "a 2-tier fabric of %u leaves needs spines with at "
			   "least %u ports ('%s' has %u); use tiers 3",
			   L, L, ir_name(d, spw), sp.n);
		goto out;
	}
	/* the links: one per endpoint, U up from each leaf, and at most as
	 * many again from spines to cores (reserved up to a few million;
	 * a larger fabric grows as usual, into the table limit's error) */
	{
		uint64_t more = (uint64_t)ne + 2 * (uint64_t)L * U;

		VEC_RESERVE(d->links, d->nlinks, d->links_cap,
			    more < (1u << 22) ? more : (1u << 22));
	}
	if (fp->count) {
		/* planes: the leaves of all planes are made in name order */
		fp->count[fp->plane] = L;
		fp->future[fp->plane] = (uint32_t)(fin - nsu) * nrails;
		goto out;
	}
	/* each tier's placer starts from what the tiers before it placed */
	memset(&pl_spine, 0, sizeof(pl_spine));
	memset(&pl_core, 0, sizeof(pl_core));
	fabric_placer_init(e, &pl_leaf, fab, A_PLACE_LEAVES);
	leaf = xcalloc(L, sizeof(*leaf));
	if (fp->made)
		memcpy(leaf, fp->made[fp->plane], L * sizeof(*leaf));
	for (uint32_t i = 0; i < L && !e->stopped && !fp->made; i++)
		if ((leaf[i] = fabric_new_switch(e, fab, "leaf",
						 fabric_ft_name(fp, i), sw,
						 w_leaf, &pl_leaf)) == RK_NONE)
			goto done;
	/* the leaves of the units still to come keep their places */
	if (!fp->made)
		fabric_placer_reserve(e, &pl_leaf,
				      (uint32_t)(fin - nsu) * nrails, sw);
	/* nodes to leaves: node k of SU s, rail r -> leaf s*rails+r, port k */
	seen = xcalloc((size_t)nnodes * nrails, 1);
	down_bw = xcalloc(L, sizeof(*down_bw));
	for (uint32_t i = 0; i < ne && !e->stopped; i++) {
		uint32_t n = node_of[ed[i]], r, l;

		for (r = 0; rail_names[r] != d->objs[ep[i]].local; r++)
			;
		if (seen[(size_t)n * nrails + r]++) {
			elab_error(e, loc, "fabric",
				   "device '%s' has two endpoints on rail %u",
				   ir_name(d, ed[i]), r);
			goto done;
		}
		l = (n / su_size) * nrails + r;
		/* the leaf's downlink bandwidth: each link at its endpoint's
		 * speed, at most the fabric's rate (without a rate, a count) */
		{
			int64_t v = rate ? ir_num(d, ep[i], A_SPEED, 0) : 1;

			down_bw[l] += !v || v > rate ? (rate ? rate : 1) : v;
		}
		fabric_add_link(e, fab, ed[i], ep[i], leaf[l],
				lp.ports[n % su_size]);
	}
	if (tiers == 2) {
		uint32_t *up_s = xmalloc(((size_t)L * Uf + 1) * sizeof(*up_s));
		uint32_t *up_p = xmalloc(((size_t)L * Uf + 1) * sizeof(*up_p));
		uint32_t *ul = xcalloc(L, sizeof(*ul));
		uint32_t S = fabric_deal_two_tier(nsu, nrails, Uf, sp.n, Sfix,
						  up_s, up_p),
			 Sb = 0;

		/* leaf l cables ul[l]: uplinks at the fabric's rate for its
		 * downlinks' bandwidth times u/d, rounded up, at most Uf */
		for (uint32_t l = 0; l < L; l++) {
			u128 per = (u128)(rate ? rate : 1) * rd;
			u128 need = ((u128)down_bw[l] * ru + per - 1) / per;

			ul[l] = all_up || need >= Uf ? Uf : (uint32_t)need;
			for (uint32_t j = 0; j < ul[l]; j++)
				if (up_s[(size_t)l * Uf + j] >= Sb)
					Sb = up_s[(size_t)l * Uf + j] + 1;
		}
		/* spines past the last one cabled (a unit of fewer nodes
		 * than spines) are not built: it would carry no link */
		S = Sb < S ? Sb : S;
		spine = xcalloc(S + 1, sizeof(*spine));
		fabric_placer_init(e, &pl_spine, fab, A_PLACE_SPINES);
		for (uint32_t s = 0; s < S; s++)
			if ((spine[s] = fabric_new_switch(
				 e, fab, "spine", fabric_ft_name(fp, s), spw,
				 w_spine, &pl_spine)) == RK_NONE) {
				free(up_s);
				free(up_p);
				free(ul);
				goto done;
			}
		for (uint32_t l = 0; l < L && !e->stopped; l++)
			for (uint32_t j = 0; j < ul[l]; j++) {
				size_t k = (size_t)l * Uf + j;

				fabric_add_link(e, fab, leaf[l],
						lp.ports[D + j], spine[up_s[k]],
						sp.ports[up_p[k]]);
			}
		free(up_s);
		free(up_p);
		free(ul);
	} else if (tiers >= 3) {
		/* fabric_tiers.c */
		bool grown =
		    !ir_attr(d, fab, A_TIERS) && !ir_attr(d, fab, A_FINAL_SUS);
		/* at d:u other than 1:1 a leaf cables Uf, the uplinks of a
		 * full leaf at d:u, and its pod has as many spines */
		struct ft_build b = {
			fab,	   loc,	     spw,   &lp,      &sp,
			leaf,	   L,	     Lf,    D,	      rd != ru ? Uf : U,
			nrails,	   nsu,	     tiers, Sfix > 0, fp,
			&pl_spine, &pl_core, Uf,    grown
		};

		fabric_gen_upper_tiers(e, &b);
	}
done:
	fabric_placer_fini(&pl_leaf);
	fabric_placer_fini(&pl_spine);
	fabric_placer_fini(&pl_core);
out:
	free(ed);
	free(ep);
	free(node_of);
	free(rail_of_name);
	free(rail_names);
	free(lp.ports);
	free(sp.ports);
	free(leaf);
	free(spine);
	free(seen);
	free(down_bw);
}
