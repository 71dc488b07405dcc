/* SPDX-License-Identifier: MIT */
/*
 * Checks of what the NCCL topology back end needs from the catalog.
 *
 * nccl-figure-unknown: a GPU or NIC part in a GPU server that gives no
 * PCIe figures (pcie_gen, pcie_width) and does not mark them unknown.
 * The nccl back end then writes that device's <pci> without link_speed
 * and link_width (a NIC as a bare anchor), so the file loads only where
 * NCCL detects the link on the host: one warning per part, at the part,
 * with a note for each server part that holds it.  A figure marked
 * `unknown "pcie_gen: reason"` is an honest gap and is not reported.
 */
#include "rackc.h"

#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "nccl_nics.h"

/* A (component part, server part, first device of the server part). */
struct gap {
	uint32_t cpart, spart, dev, order;
};

static int gap_cmp(const void *a, const void *b)
{
	const struct gap *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return x->spart < y->spart ? -1 : x->spart > y->spart;
}

/* Does @part (or a base) mark @figure unknown ("figure: reason")? */
static bool marked_unknown(const struct rk_design *d, uint32_t part,
			   const char *figure)
{
	size_t n = strlen(figure);

	for_each_base(d, p, part)
		for (uint32_t i = 0; i < d->objs[p].attr_count; i++) {
			const struct rk_attr *a =
			    &d->attrs[d->objs[p].attr_first + i];
			const char *s;

			if (a->key != A_UNKNOWN || a->val.type != VT_STR)
				continue;
			s = str_of(d->arena, a->val.a);
			if (!strncmp(s, figure, n) && s[n] == ':')
				return true;
		}
	return false;
}

/* The figures a component lacks without an unknown mark: bit 0 pcie_gen,
 * bit 1 pcie_width. */
static unsigned missing(const struct rk_design *d, uint32_t comp)
{
	uint32_t part = d->objs[comp].part;
	unsigned m = 0;

	if (!ir_attr_inh(d, comp, A_PCIE_GEN) &&
	    (part == RK_NONE || !marked_unknown(d, part, "pcie_gen")))
		m |= 1;
	if (!ir_attr_inh(d, comp, A_PCIE_WIDTH) &&
	    (part == RK_NONE || !marked_unknown(d, part, "pcie_width")))
		m |= 2;
	return m;
}

static void run_figure_unknown(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	uint32_t n = d->nobjs ? d->nobjs : 1;
	uint32_t *first = xmalloc((size_t)n * sizeof(*first));
	uint32_t *order = xmalloc((size_t)n * sizeof(*order));
	unsigned *what = xcalloc(n, sizeof(*what));
	struct gap *g = NULL;
	uint32_t ng = 0, cap = 0, norder = 0;

	memset(first, 0xff, (size_t)n * sizeof(*first));
	memset(order, 0xff, (size_t)n * sizeof(*order));
	/* the first device of every server part */
	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];

		if (o->kind == K_DEVICE && o->cls == C_SERVER &&
		    o->part != RK_NONE && first[o->part] == RK_NONE &&
		    !check_waived(c, i))
			first[o->part] = i;
	}
	for (uint32_t sp = 0; sp < d->nobjs; sp++) {
		uint32_t chain[RK_MAX_PART_DEPTH + 1], nc, start = ng;
		bool gpus = false;

		if (first[sp] == RK_NONE || d->objs[sp].kind != K_PART)
			continue;
		nc = ir_part_chain(d, sp, chain);
		while (nc--)
			for_each_child(d, chain[nc], k) {
				const struct rk_obj *o = &d->objs[k];
				unsigned m;

				if (o->kind != K_COMP ||
				    !ir_member_effective(d, sp, k))
					continue;
				gpus |= o->cls == COMP_GPU;
				if ((o->cls != COMP_GPU &&
				     (o->cls != COMP_NIC ||
				      !nccl_nic_carries(d, k))) ||
				    o->part == RK_NONE || !(m = missing(d, k)))
					continue;
				if (ng == cap) {
					cap = cap ? 2 * cap : 16;
					g = xrealloc(g, cap * sizeof(*g));
				}
				g[ng].cpart = o->part;
				g[ng].spart = sp;
				g[ng].dev = first[sp];
				ng++;
				what[o->part] |= m;
			}
		if (!gpus) /* no NCCL file for a server without GPUs */
			ng = start;
	}
	for (uint32_t k = 0; k < ng; k++) {
		if (order[g[k].cpart] == RK_NONE)
			order[g[k].cpart] = norder++;
		g[k].order = order[g[k].cpart];
	}
	if (ng)
		qsort(g, ng, sizeof(*g), gap_cmp);
	for (uint32_t k = 0; k < ng && !check_stop(c);) {
		uint32_t cp = g[k].cpart, end = k, nserv = 0;
		unsigned m = what[cp];

		while (end < ng && g[end].cpart == cp) {
			if (end == k || g[end].spart != g[end - 1].spart)
				nserv++;
			end++;
		}
		check_fail(c, g[k].dev, &d->objs[cp].loc,
			   "%s part %s gives no %s: the NCCL topology file of "
			   "%u server part%s leaves %s PCIe link to detection "
			   "on the host (set the figure%s, or mark %s unknown "
			   "with the reason)",
			   d->objs[cp].cls == C_NIC ? "NIC" : "GPU",
			   ir_name(d, cp),
			   m == 3   ? "pcie_gen or pcie_width"
			   : m == 1 ? "pcie_gen"
				    : "pcie_width",
			   nserv, nserv == 1 ? "" : "s",
			   d->objs[cp].cls == C_NIC ? "the NIC's" : "the GPU's",
			   m == 3 ? "s" : "", m == 3 ? "them" : "it");
		for (uint32_t j = k; j < end; j++)
			if (j == k || g[j].spart != g[j - 1].spart)
				check_note(c, &d->objs[g[j].dev].loc,
					   "server part '%s' holds it (used by "
					   "%s)",
					   ir_name(d, g[j].spart),
					   ir_name(d, g[j].dev));
		k = end;
	}
	free(g);
	free(first);
	free(order);
	free(what);
}

CHECK_DEFINE(nccl_figure_unknown, "nccl-figure-unknown", CHECK_WARN,
	     "GPU and NIC parts of GPU servers give the PCIe figures the NCCL "
	     "topology file needs (pcie_gen, pcie_width) or mark them unknown",
	     run_figure_unknown);
