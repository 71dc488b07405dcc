/* SPDX-License-Identifier: MIT */
/*
 * Fat trees of three and four tiers built as complete trees with leaves
 * missing: `tiers 4` (or by default when the leaves make more pods than a
 * three-tier core reaches), and every tier-3 plane of a multi-plane
 * fabric.  With spine switches of R fabric ports and h = R/2:
 *
 *   pods      h leaves each, in rail-major leaf order (same-rail leaves
 *             share a pod); every pod gets U spines (h ports down, h up),
 *             uplink j of each of its leaves going to its spine j;
 *   3 tiers   P pods (at most R); C = ceil(U*h / floor(R/P)) cores of R
 *             ports down, uplink j of the k-th spine of every pod going to
 *             core (k*h + j) mod C;
 *   4 tiers   groups of h pods (P0 = min(h, pods) in the first); every
 *             group gets C = P0*U cores (h ports down, h up), uplink j of
 *             the group's k-th spine going to its core (k*h + j) mod C;
 *             over G groups (at most R), T = ceil(C*h / floor(R/G)) top
 *             switches, uplink j of the i-th core of every group going to
 *             top switch (i*h + j) mod T.
 *
 * So every switch of a tier sees every unit below it (pod, group) alike,
 * and the last pod and group are built as if full (their spines and cores
 * have ports left down): the tree keeps the complete tree's bisection for
 * the leaves it has.  Switches are named FABRIC.spine[i], .core[i] and
 * .top[i] (role spine, core, top); cores and top switches are placed by
 * place_cores.  Links are added tier by tier.
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
 * @units units of @per switches @lo (h uplinks each) to @nhi switches @hi:
 * uplink j of a unit's i-th switch goes to hi[(i*h + j) mod nhi].
 */
static void wire_up(struct elab *e, const struct ft_build *b, uint32_t units,
		    uint32_t per, const uint32_t *lo, const uint32_t *hi,
		    uint32_t nhi, uint32_t *hi_next)
{
	const uint32_t *sp = b->sp->ports, h = b->sp->n / 2;

	for (uint32_t g = 0; g < units; g++)
		for (uint32_t i = 0; i < per; i++)
			for (uint32_t j = 0; j < h; j++) {
				uint32_t t =
				    (uint32_t)(((uint64_t)i * h + j) % nhi);

				add_link(e, b->fab, lo[g * per + i], sp[h + j],
					 hi[t], sp[hi_next[t]++]);
			}
}

void gen_upper_tiers(struct elab *e, const struct ft_build *b)
{
	const struct rk_design *d = e->d;
	const uint32_t *sp = b->sp->ports, R = b->sp->n, h = R / 2;
	uint32_t L = b->L, U = b->U, pods = cdiv(L, h), groups = cdiv(pods, h);
	uint32_t S = pods * U, P0 = pods < h ? pods : h, CG = P0 * U, C, T = 0;
	uint32_t *order = NULL, *spine = NULL, *core = NULL, *top = NULL;
	uint32_t *spine_next = NULL, *core_next = NULL, *top_next = NULL;

	if (b->tiers == 3 ? pods > R : groups > R) {
		elab_error(e, b->loc, "fabric",
			   "%u leaves make %u %s, more than a %u-port %s "
			   "switch can reach: the fabric is beyond %s tiers of "
			   "'%s' (%s)",
			   L, b->tiers == 3 ? pods : groups,
			   b->tiers == 3 ? "pods" : "groups of pods", R,
			   b->tiers == 3 ? "core" : "top",
			   b->tiers == 3 ? "three" : "four", ir_name(d, b->spw),
			   b->tiers == 3 ? "tiers 4 or more planes go further"
					 : "planes N go further");
		return;
	}
	order = xmalloc(((size_t)L + 1) * sizeof(*order));
	for (uint32_t r = 0, k = 0; r < b->nrails; r++)
		for (uint32_t s = 0; s < b->nsu; s++)
			order[k++] = s * b->nrails + r;
	C = b->tiers == 3 ? cdiv((uint64_t)U * h, R / pods) : groups * CG;
	if (b->tiers == 4)
		T = cdiv((uint64_t)CG * h, R / groups);
	spine = xcalloc(S, sizeof(*spine));
	spine_next = xcalloc(S, sizeof(*spine_next));
	core = xcalloc(C, sizeof(*core));
	core_next = xcalloc(C, sizeof(*core_next));
	top = xcalloc(T + 1, sizeof(*top));
	top_next = xcalloc(T + 1, sizeof(*top_next));
	placer_init(e, b->pl_spine, b->fab, A_PLACE_SPINES);
	if (!make(e, b, "spine", b->fp->base[1], S, spine, b->pl_spine))
		goto out;
	placer_init(e, b->pl_core, b->fab, A_PLACE_CORES);
	if (!make(e, b, "core", b->fp->base[2], C, core, b->pl_core) ||
	    !make(e, b, "top", b->fp->base[3], T, top, b->pl_core))
		goto out;
	b->fp->built[1] = S;
	b->fp->built[2] = C;
	b->fp->built[3] = T;
	for (uint32_t p = 0; p < pods; p++) {
		uint32_t nl = L - p * h < h ? L - p * h : h;

		for (uint32_t k = 0; k < nl; k++)
			for (uint32_t j = 0; j < U; j++) {
				uint32_t s = p * U + j;

				add_link(e, b->fab, b->leaf[order[p * h + k]],
					 b->lp->ports[b->D + j], spine[s],
					 sp[spine_next[s]++]);
			}
	}
	if (b->tiers == 3) {
		wire_up(e, b, pods, U, spine, core, C, core_next);
		goto out;
	}
	for (uint32_t g = 0; g < groups; g++) {
		uint32_t p1 = (g + 1) * h < pods ? (g + 1) * h : pods, cu = 0;

		for (uint32_t s = g * h * U; s < p1 * U; s++)
			for (uint32_t j = 0; j < h; j++) {
				uint32_t c = g * CG + cu++ % CG;

				add_link(e, b->fab, spine[s], sp[h + j],
					 core[c], sp[core_next[c]++]);
			}
	}
	wire_up(e, b, groups, CG, core, top, T, top_next);
out:
	free(order);
	free(spine);
	free(spine_next);
	free(core);
	free(core_next);
	free(top);
	free(top_next);
}
