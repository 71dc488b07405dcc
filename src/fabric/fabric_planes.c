/* SPDX-License-Identifier: MIT */
/*
 * Multi-plane fat trees: `planes N` on a generated fat_tree builds N
 * parallel fat trees that share no switch.  Rails are the endpoint ports'
 * names, numbered in order of first appearance among the endpoints; rail r
 * is dealt to plane r mod N (so with ib[0..7] and planes 8 each NIC port
 * has a plane of its own; with planes 2, ports 0, 2, 4 and 6 share plane
 * 0).  The rails must deal evenly, so that the planes are the same tree.
 * Each plane is the fat tree the rest of the fabric's attributes describe,
 * built over its own rails (see fabric.c).
 *
 * Names.  The i-th switch of a tier of plane p is TIER[i*N + p]: switch k
 * of a tier is on plane k mod N, as rail r is, and its name is a function
 * of p and i alone, so a plane's switches keep their names (and their
 * cables their IDs and ends) whatever the other planes build: growing the
 * fabric moves in each plane what a one-plane tree of that plane's size
 * moves.  Leaf s*rails + r (unit s, rail r) is the name a one-plane tree
 * gives that leaf too.  When every node has every rail the planes are
 * the same tree, and each tier's names run from 0 to N times a plane's
 * count, less one.
 *
 * Order.  The leaves of all planes are made (declared and placed) first,
 * in name order, leaf[0], leaf[1], ... (unit by unit, rail by rail, as a
 * one-plane tree makes them), and the places of the leaves the final
 * size adds held after them; then each plane's spines and the tiers
 * above, plane by plane.  So the leaves a unit adds come after every
 * leaf built before, in declaration order too (a pattern such as
 * FABRIC.leaf[*].mgmt, a management star's endpoints, lists them in name
 * order and growth adds to its end), and first-fit placement puts them
 * after the others as in a one-plane tree.
 */
#include "rackc.h"

#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "fabric_gen.h"

/*
 * Rails by name, through an open-addressed table of the names seen (a
 * name's rail + 1 in its slot): linear in the endpoints.  Scanning every
 * rail named so far for each endpoint cost endpoints x rails, a
 * quadratic in the rails of a fabric of thousands of planes.
 */
uint32_t fabric_rails(const struct rk_design *d, const uint32_t *ep, uint32_t n,
		      uint32_t *rail)
{
	size_t cap = 16;
	uint32_t *names, *slot, nr = 0;

	while (cap < (size_t)n * 2)
		cap *= 2;
	names = xmalloc(((size_t)n + 1) * sizeof(*names));
	slot = xcalloc(cap, sizeof(*slot));
	for (uint32_t i = 0; i < n; i++) {
		uint32_t nm = d->objs[ep[i]].local;
		size_t h = hash_mix32(nm) & (cap - 1);

		while (slot[h] && names[slot[h] - 1] != nm)
			h = (h + 1) & (cap - 1);
		if (!slot[h]) {
			names[nr] = nm;
			slot[h] = ++nr;
		}
		rail[i] = slot[h] - 1;
	}
	free(names);
	free(slot);
	return nr;
}

/*
 * The leaves of every plane (fp->count[p] of plane p), made in name order:
 * leaf k is plane k mod N's leaf k / N, into fp->made; then the places of
 * the leaves the final size adds (fp->future) held after them.  False on
 * an error.
 */
static bool make_leaves(struct elab *e, uint32_t fab, struct ft_plane *fp)
{
	const struct rk_value *sv = ir_attr(e->d, fab, A_SWITCH);
	uint32_t sw = sv->a, w_leaf = intern_cstr(e->a, "leaf"), most = 0;
	uint64_t future = 0;
	struct placer pl;
	bool ok = true;

	for (uint32_t p = 0; p < fp->nplanes; p++) {
		most = fp->count[p] > most ? fp->count[p] : most;
		future += fp->future[p];
		fp->made[p] =
		    xcalloc((size_t)fp->count[p] + 1, sizeof(*fp->made[p]));
	}
	fabric_placer_init(e, &pl, fab, A_PLACE_LEAVES);
	for (uint64_t k = 0; ok && k < (uint64_t)most * fp->nplanes; k++) {
		uint32_t p = (uint32_t)(k % fp->nplanes);
		uint32_t i = (uint32_t)(k / fp->nplanes);

		if (i < fp->count[p])
			ok = (fp->made[p][i] =
				  fabric_new_switch(e, fab, "leaf", k, sw,
						    w_leaf, &pl)) != RK_NONE &&
			     !e->stopped;
	}
	if (ok)
		fabric_placer_reserve(
		    e, &pl, future < UINT32_MAX ? (uint32_t)future : UINT32_MAX,
		    sw);
	fabric_placer_fini(&pl);
	return ok;
}

/*
 * The endpoints by plane, each plane's in endpoint order (a counting
 * sort): fabric_ft_plane_take() then copies a plane's own, and the planes cost
 * the endpoints once, not once per plane.
 */
static void deal_planes(struct ft_plane *fp, const uint32_t *ed,
			const uint32_t *ep, const uint32_t *rail, uint32_t n)
{
	uint32_t *at;

	fp->poff = xcalloc((size_t)fp->nplanes + 1, sizeof(*fp->poff));
	fp->ped = xmalloc(((size_t)n + 1) * sizeof(*fp->ped));
	fp->pep = xmalloc(((size_t)n + 1) * sizeof(*fp->pep));
	for (uint32_t i = 0; i < n; i++)
		fp->poff[rail[i] % fp->nplanes + 1]++;
	for (uint32_t p = 0; p < fp->nplanes; p++)
		fp->poff[p + 1] += fp->poff[p];
	at = xmalloc(((size_t)fp->nplanes + 1) * sizeof(*at));
	memcpy(at, fp->poff, (size_t)fp->nplanes * sizeof(*at));
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = at[rail[i] % fp->nplanes]++;

		fp->ped[k] = ed[i];
		fp->pep[k] = ep[i];
	}
	free(at);
}

void fabric_gen_fat_tree_planes(struct elab *e, uint32_t fab)
{
	const struct rk_design *d = e->d;
	const struct rk_value *pv = ir_attr(d, fab, A_PLANES);
	struct ft_plane fp;
	uint32_t *ed = NULL, *ep = NULL, *rail, n, nr, errors;

	memset(&fp, 0, sizeof(fp));
	fp.nplanes = 1;
	if (!pv || pv->n == 1) {
		fabric_gen_fat_tree(e, fab, &fp);
		return;
	}
	if (pv->n < 1 || pv->n > 4096) {
		elab_error(e, &pv->loc, "fabric",
			   "planes must be from 1 to 4096, not %lld",
			   (long long)pv->n);
		return;
	}
	if (!ir_attr(d, fab, A_SWITCH)) {
		elab_error(e, &pv->loc, "fabric",
			   "planes needs a switch part: a hand-wired fabric "
			   "has the planes it is wired with");
		return;
	}
	n = fabric_endpoints(e, fab, &ed, &ep);
	rail = xmalloc(((size_t)n + 1) * sizeof(*rail));
	nr = fabric_rails(d, ep, n, rail);
	fp.nplanes = (uint32_t)pv->n;
	if (nr % fp.nplanes) {
		elab_error(e, &pv->loc, "fabric",
			   "%u rail%s cannot be dealt evenly over %u planes "
			   "(rail r goes to plane r mod %u)",
			   nr, nr == 1 ? "" : "s", fp.nplanes, fp.nplanes);
		goto out;
	}
	errors = e->errors;
	deal_planes(&fp, ed, ep, rail, n);
	fp.count = xcalloc(fp.nplanes, sizeof(*fp.count));
	fp.future = xcalloc(fp.nplanes, sizeof(*fp.future));
	fp.made = xcalloc(fp.nplanes, sizeof(*fp.made));
	/* each plane's leaves counted, then made, then its tiers above */
	for (fp.plane = 0; fp.plane < fp.nplanes; fp.plane++) {
		fabric_gen_fat_tree(e, fab, &fp);
		/* a plane's error would be every plane's */
		if (e->errors != errors || e->stopped)
			goto out;
	}
	if (!make_leaves(e, fab, &fp))
		goto out;
	free(fp.count);
	fp.count = NULL;
	for (fp.plane = 0; fp.plane < fp.nplanes; fp.plane++) {
		fabric_gen_fat_tree(e, fab, &fp);
		if (e->errors != errors || e->stopped)
			goto out;
	}
out:
	for (uint32_t p = 0; fp.made && p < fp.nplanes; p++)
		free(fp.made[p]);
	free(fp.made);
	free(fp.count);
	free(fp.future);
	free(fp.poff);
	free(fp.ped);
	free(fp.pep);
	free(rail);
	free(ed);
	free(ep);
}

void fabric_planes_check(struct elab *e, uint32_t fab)
{
	const struct rk_value *pv = ir_attr(e->d, fab, A_PLANES);

	if (pv && e->d->objs[fab].cls != FAB_FAT_TREE)
		elab_error(e, &pv->loc, "fabric",
			   "planes applies to a fat_tree only");
}
