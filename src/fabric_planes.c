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
 * count, less one.  Each plane is built
 * in turn (plane 0's switches first, tier by tier), which is the order of
 * placement; in a leaf_band leaf k takes place k, so a plane's leaves
 * take every N-th place.
 */
#include "rackc.h"

#include <stdlib.h>

#include "fabric.h"
#include "fabric_gen.h"

uint32_t fabric_rails(const struct rk_design *d, const uint32_t *ep, uint32_t n,
		      uint32_t *rail)
{
	uint32_t *names = NULL, nr = 0, cap = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t nm = d->objs[ep[i]].local, r;

		for (r = 0; r < nr && names[r] != nm; r++)
			;
		if (r == nr)
			*VEC_PUSH(names, nr, cap) = nm;
		rail[i] = r;
	}
	free(names);
	return nr;
}

uint64_t ft_name(const struct ft_plane *fp, uint32_t i)
{
	return (uint64_t)i * fp->nplanes + fp->plane;
}

uint32_t ft_plane_take(const struct ft_plane *fp, uint32_t **ed, uint32_t **ep)
{
	uint32_t k = 0;

	*ed = xmalloc(((size_t)fp->ne + 1) * sizeof(**ed));
	*ep = xmalloc(((size_t)fp->ne + 1) * sizeof(**ep));
	for (uint32_t i = 0; i < fp->ne; i++)
		if (fp->rail[i] % fp->nplanes == fp->plane) {
			(*ed)[k] = fp->ed[i];
			(*ep)[k] = fp->ep[i];
			k++;
		}
	return k;
}

void gen_fat_tree_planes(struct elab *e, uint32_t fab)
{
	const struct rk_design *d = e->d;
	const struct rk_value *pv = ir_attr(d, fab, A_PLANES);
	struct ft_plane fp;
	uint32_t *ed = NULL, *ep = NULL, *rail, n, nr, errors;

	memset(&fp, 0, sizeof(fp));
	fp.nplanes = 1;
	if (!pv || pv->n == 1) {
		gen_fat_tree(e, fab, &fp);
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
	n = endpoints(e, fab, &ed, &ep);
	rail = xmalloc(((size_t)n + 1) * sizeof(*rail));
	nr = fabric_rails(d, ep, n, rail);
	fp.nplanes = (uint32_t)pv->n;
	fp.ed = ed;
	fp.ep = ep;
	fp.rail = rail;
	fp.ne = n;
	if (nr % fp.nplanes) {
		elab_error(e, &pv->loc, "fabric",
			   "%u rail%s cannot be dealt evenly over %u planes "
			   "(rail r goes to plane r mod %u)",
			   nr, nr == 1 ? "" : "s", fp.nplanes, fp.nplanes);
		goto out;
	}
	errors = e->errors;
	for (fp.plane = 0; fp.plane < fp.nplanes; fp.plane++) {
		gen_fat_tree(e, fab, &fp);
		/* a plane's error would be every plane's */
		if (e->errors != errors || e->stopped)
			goto out;
	}
out:
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
