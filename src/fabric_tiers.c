/* SPDX-License-Identifier: MIT */
/*
 * Fat trees of three and four tiers built as complete trees with leaves
 * missing: `tiers 3` (by default when the leaves outgrow a spine's ports),
 * `tiers 4` (or by default when they make more pods than a three-tier
 * core reaches), and every plane of a multi-plane fabric.  With spine
 * switches of R fabric ports and h = R/2:
 *
 *   pods      h leaves each, in leaf order (unit by unit: leaf s*rails + r
 *             of unit s), so that added units fill the last pod and then
 *             open new ones; every pod with leaves gets U spines (h ports
 *             down, h up), uplink j of its k-th leaf going to its spine j
 *             on port k;
 *   3 tiers   P pods (at most R); C cores of R ports down, uplink j of
 *             the i-th spine of every pod going to core (i*h + j) mod C:
 *             C = ceil(U*h / floor(R/P)) with final_sus, else
 *             ceil(U*h / q1) * (q1 / q), q1 and q the largest powers of
 *             two at most R and floor(R/P) (see uppers());
 *   4 tiers   groups of h pods (the first built as if full); every
 *             group gets C = h*U cores (h ports down, h up), uplink j of
 *             the group's k-th spine going to its core (k*h + j) mod C;
 *             over G groups (at most R), T top switches (as C above,
 *             over G groups of C*h uplinks), uplink j of the i-th core of
 *             every group going to top switch (i*h + j) mod T.
 *
 * So every switch of a tier sees every unit below it (pod, group) alike,
 * and the last pod and group are built as if full (their spines and cores
 * have ports left down): the tree keeps the complete tree's bisection for
 * the leaves it has.  Switches are named FABRIC.spine[i], .core[i] and
 * .top[i] (role spine, core, top); cores and top switches are placed by
 * place_cores.  Links are added tier by tier.
 *
 * Growth.  A leaf's pod, its spines and ports are functions of the leaf
 * and the uplink, so added units only add leaf-spine cables.  Above the
 * spines the uplinks are dealt by deal_uplinks() (src/fabric.c) as if the
 * pods (four tiers: the pods of each group, then the groups) had been
 * added one at a time, the core (top) count growing with them: a step
 * keeps every cable the new spread allows, so growing moves only the
 * spine-core (core-top) cables the change in the core (top) count forces.
 * With `final_sus N` the tree is sized for N units (P, C, G, T of the
 * final size): growing up to N only adds pods, spines and cables, and the
 * places and names of the spines and cores still to come are held.
 */
#include "rackc.h"

#include <stdlib.h>

#include "fabric.h"
#include "fabric_gen.h"

/* ceil(a/b) */
static uint32_t cdiv(uint64_t a, uint32_t b)
{
	return (uint32_t)((a + b - 1) / b);
}

/* the largest power of two at most @n (>= 1) */
static uint32_t pow2_floor(uint32_t n)
{
	uint32_t q = 1;

	while (q <= n / 2)
		q *= 2;
	return q;
}

/*
 * Upper switches of R ports over @units units of @need uplinks each,
 * every unit alike: ceil(need / floor(R/units)) when provisioned (@tight),
 * else ceil(need / q1) * (q1 / q) with q1, q the largest powers of two at
 * most R and floor(R/units): doubling as the units do, so that each lower
 * switch's uplinks on an upper switch only ever split as units are added
 * (what grows moves only the minimum, see doc/language.md).
 */
static uint32_t uppers(uint64_t need, uint32_t R, uint32_t units, bool tight)
{
	uint32_t q1 = pow2_floor(R);

	if (tight)
		return cdiv(need, R / units);
	return cdiv(need, q1) * (q1 / pow2_floor(R / units));
}

/* Make @n switches of @tier into @sw (from name index @base). */
static bool make(struct elab *e, const struct ft_build *b, const char *tier,
		 uint32_t base, uint32_t n, uint32_t *sw, struct placer *pl)
{
	uint32_t role = intern_cstr(e->a, tier);

	for (uint32_t i = 0; i < n && !e->stopped; i++)
		if ((sw[i] = new_switch(e, b->fab, tier, base + i, b->spw, role,
					pl)) == RK_NONE)
			return false;
	return !e->stopped;
}

/*
 * Wire @dl's lower switches @lo (their uplinks: spine ports h..R-1) to
 * the upper switches @hi, dealt growth-stably; a port of @hi is sp[q].
 */
static void wire_dealt(struct elab *e, const struct ft_build *b,
		       const struct deal *dl, const uint32_t *lo,
		       const uint32_t *hi)
{
	const uint32_t *sp = b->sp->ports, h = b->sp->n / 2;
	size_t n = (size_t)dl->units * dl->per * dl->up;
	uint32_t *up_s = xmalloc((n + 1) * sizeof(*up_s));
	uint32_t *up_p = xmalloc((n + 1) * sizeof(*up_p));

	deal_uplinks(dl, up_s, up_p);
	for (size_t k = 0; k < n && !e->stopped; k++)
		add_link(e, b->fab, lo[k / dl->up], sp[h + k % dl->up],
			 hi[up_s[k]], sp[up_p[k]]);
	free(up_s);
	free(up_p);
}

void gen_upper_tiers(struct elab *e, const struct ft_build *b)
{
	const struct rk_design *d = e->d;
	const uint32_t *sp = b->sp->ports, R = b->sp->n, h = R / 2;
	uint32_t L = b->L, Lf = b->Lf, U = b->U;
	uint32_t pods = cdiv(L, h), podsf = cdiv(Lf, h);
	uint32_t groups = cdiv(pods, h), groupsf = cdiv(podsf, h);
	bool tight = b->provisioned;
	uint32_t S = pods * U, CG = h * U; /* a group's cores, as if full */
	uint32_t C, T = 0, *sk = NULL;
	uint32_t *spine = NULL, *core = NULL, *top = NULL;
	struct deal dl;

	if (b->tiers == 3 ? podsf > R : groupsf > R) {
		elab_error(e, b->loc, "fabric",
			   "%u leaves make %u %s, more than a %u-port %s "
			   "switch can reach: the fabric is beyond %s tiers of "
			   "'%s' (%s)",
			   Lf, b->tiers == 3 ? podsf : groupsf,
			   b->tiers == 3 ? "pods" : "groups of pods", R,
			   b->tiers == 3 ? "core" : "top",
			   b->tiers == 3 ? "three" : "four", ir_name(d, b->spw),
			   b->tiers == 3 ? "tiers 4 or more planes go further"
					 : "planes N go further");
		return;
	}
	C = b->tiers == 3 ? uppers((uint64_t)U * h, R, podsf, tight)
			  : groups * CG;
	if (b->tiers == 4)
		T = uppers((uint64_t)CG * h, R, groupsf, tight);
	spine = xcalloc(S, sizeof(*spine));
	core = xcalloc(C, sizeof(*core));
	top = xcalloc(T + 1, sizeof(*top));
	sk = xcalloc((size_t)(pods > groups ? pods : groups) + 1, sizeof(*sk));
	placer_init(e, b->pl_spine, b->fab, A_PLACE_SPINES);
	if (!make(e, b, "spine", b->fp->base[1], S, spine, b->pl_spine))
		goto out;
	placer_reserve(e, b->pl_spine, (podsf - pods) * U, b->spw);
	placer_init(e, b->pl_core, b->fab, A_PLACE_CORES);
	if (!make(e, b, "core", b->fp->base[2], C, core, b->pl_core))
		goto out;
	if (b->tiers == 4)
		placer_reserve(e, b->pl_core, (groupsf - groups) * CG, b->spw);
	if (!make(e, b, "top", b->fp->base[3], T, top, b->pl_core))
		goto out;
	b->fp->built[1] = S;
	b->fp->built[2] = C;
	b->fp->built[3] = T;
	b->fp->names[1] = podsf * U;
	b->fp->names[2] = b->tiers == 3 ? C : groupsf * CG;
	b->fp->names[3] = T;
	/* leaf l: pod l / h, port l mod h of the pod's spines */
	for (uint32_t l = 0; l < L && !e->stopped; l++)
		for (uint32_t j = 0; j < U; j++)
			add_link(e, b->fab, b->leaf[l], b->lp->ports[b->D + j],
				 spine[l / h * U + j], sp[l % h]);
	if (b->tiers == 3) {
		/* the pods' spines to the cores, as if added pod by pod */
		for (uint32_t p = 0; p < pods; p++)
			sk[p] = tight
				    ? C
				    : uppers((uint64_t)U * h, R, p + 1, false);
		dl = (struct deal){ pods, U, h, R, U, sk };
		wire_dealt(e, b, &dl, spine, core);
		goto out;
	}
	/* each group's spines to its cores, as if added pod by pod */
	for (uint32_t g = 0; g < groups; g++) {
		uint32_t pg = pods - g * h < h ? pods - g * h : h;

		for (uint32_t p = 0; p < pg; p++)
			sk[p] = CG;
		dl = (struct deal){ pg, U, h, h, 0, sk };
		wire_dealt(e, b, &dl, spine + (size_t)g * h * U,
			   core + (size_t)g * CG);
	}
	/* the groups' cores to the top switches, as if added group by group */
	for (uint32_t g = 0; g < groups; g++)
		sk[g] = tight ? T : uppers((uint64_t)CG * h, R, g + 1, false);
	dl = (struct deal){ groups, CG, h, R, CG, sk };
	wire_dealt(e, b, &dl, core, top);
out:
	free(sk);
	free(spine);
	free(core);
	free(top);
}
