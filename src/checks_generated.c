/* SPDX-License-Identifier: MIT */
/*
 * What the fat-tree generator built, said where it is not what the
 * design asked for: leaves with no endpoints, leaves with more uplink
 * than downlink, and rails made of endpoint ports of different names or
 * speeds.  The generator wires what the attributes say; these checks
 * read the result (the generated leaves, role `leaf`, children of their
 * fabric, and their links) and tell the designer.
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "fabric.h"
#include "metrics.h"
#include "schema.h"

/* per leaf: links and bandwidth towards endpoints and towards the switches
 * of its own fabric (spines) */
struct leaf_io {
	uint32_t down_n, up_n;
	int64_t down, up;
};

static bool is_leaf(struct check_ctx *c, uint32_t dev)
{
	const struct rk_design *d = c->d;
	const char *role;

	if (d->objs[dev].kind != K_DEVICE || d->objs[dev].cls != C_SWITCH)
		return false;
	role = check_str(c, dev, A_ROLE);
	/* a fat tree's: a star's switches are named leaves too, but the
	 * switches on them (management ports) are their endpoints */
	return role && streq(role, "leaf") && d->objs[dev].parent != RK_NONE &&
	       d->objs[d->objs[dev].parent].kind == K_FABRIC &&
	       d->objs[d->objs[dev].parent].cls == FAB_FAT_TREE;
}

static int64_t leaf_link_rate(struct check_ctx *c, const struct rk_link *l)
{
	int64_t a = check_num(c, l->a_port, A_SPEED, 0);
	int64_t b = check_num(c, l->b_port, A_SPEED, 0);

	return a && b ? (a < b ? a : b) : (a ? a : b);
}

/* Links of the leaves of generated fat trees, by direction. */
static struct leaf_io *leaf_links(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	struct leaf_io *io = xcalloc(d->nobjs + 1, sizeof(*io));

	for (uint32_t i = 0; i < d->nlinks; i++) {
		const struct rk_link *l = &d->links[i];
		uint32_t ends[2] = { l->a_dev, l->b_dev };

		if (l->a_port == RK_NONE || l->fabric == RK_NONE)
			continue;
		for (unsigned k = 0; k < 2; k++) {
			uint32_t me = ends[k], other = ends[1 - k];
			struct leaf_io *x = &io[me];

			if (l->fabric != d->objs[me].parent || !is_leaf(c, me))
				continue;
			/* a star's switches are leaves too, and switches
			 * among their endpoints (management ports) are down */
			if (d->objs[other].cls == C_SWITCH &&
			    d->objs[other].parent == l->fabric) {
				x->up_n++;
				x->up = check_sadd(x->up, leaf_link_rate(c, l));
			} else {
				x->down_n++;
				x->down =
				    check_sadd(x->down, leaf_link_rate(c, l));
			}
		}
	}
	return io;
}

/*
 * Leaves with no endpoints, and nearly empty fat-tree leaves: a quarter or
 * less of the endpoints of the fullest leaf of their fabric (a scalable
 * unit with a few nodes, a rail few nodes have; a star's last switch takes
 * what is left, as a star does).
 */
static void run_leaf_empty(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	struct leaf_io *io = leaf_links(c);
	uint32_t *most = xcalloc(d->nobjs + 1, sizeof(*most));

	for (uint32_t i = 0; i < d->nobjs; i++)
		if (is_leaf(c, i) && io[i].down_n > most[d->objs[i].parent])
			most[d->objs[i].parent] = io[i].down_n;
	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t f;

		if (!is_leaf(c, i))
			continue;
		f = d->objs[i].parent;
		if (!io[i].down_n)
			check_fail(c, i, &d->objs[f].loc,
				   "leaf %s of fabric '%s' has no endpoints%s",
				   ir_name(d, i), ir_name(d, f),
				   io[i].up_n ? "; its uplinks carry nothing"
					      : ": a switch with no links");
		else if (d->objs[f].cls == FAB_FAT_TREE &&
			 (uint64_t)io[i].down_n * 4 <= most[f])
			check_fail(c, i, &d->objs[f].loc,
				   "leaf %s of fabric '%s' is nearly empty: %u "
				   "%s, where its fullest leaf has %u",
				   ir_name(d, i), ir_name(d, f), io[i].down_n,
				   io[i].down_n == 1 ? "endpoint" : "endpoints",
				   most[f]);
	}
	free(most);
	free(io);
}

static void run_leaf_uplinks(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	struct leaf_io *io = leaf_links(c);

	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_value *ov, *su;
		char a[RK_QFMT_MAX], b[RK_QFMT_MAX];
		uint32_t f;

		/* more uplink bandwidth than downlink, by a whole uplink
		 * (uplinks for 3 x 200G endpoints are 2 x 400G: rounded up) */
		if (!is_leaf(c, i) || !io[i].down_n || io[i].down >= io[i].up ||
		    (__int128)io[i].up * (io[i].up_n - 1) <
			(__int128)io[i].down * io[i].up_n)
			continue;
		f = d->objs[i].parent;
		ov = ir_attr(d, f, A_OVERSUB);
		if (ov && ov->type == VT_RATIO && (int64_t)ov->a > ov->n)
			continue; /* the design asks for it */
		if (ir_attr(d, f, A_UPLINKS) &&
		    streq(check_str(c, f, A_UPLINKS), "all"))
			continue; /* so it does */
		check_qfmt(DIM_RATE, io[i].down, a);
		check_qfmt(DIM_RATE, io[i].up, b);
		check_fail(c, i, &d->objs[f].loc,
			   "leaf %s of fabric '%s' has more uplink than "
			   "downlink: %u %s down (%s), %u up (%s)%s",
			   ir_name(d, i), ir_name(d, f), io[i].down_n,
			   io[i].down_n == 1 ? "endpoint" : "endpoints", a,
			   io[i].up_n, b,
			   (uint64_t)io[i].down_n * 4 <= io[i].up_n
			       ? "; it is nearly empty"
			       : "");
		su = ir_attr(d, f, A_SU_SIZE);
		if (su && su->type == VT_NUM)
			check_note(c, &su->loc,
				   "su_size %lld puts at most %lld nodes on a "
				   "leaf",
				   (long long)su->n, (long long)su->n);
		check_note(c, NULL,
			   "write `uplinks all` on the fabric where every "
			   "leaf is to cable all its uplinks");
	}
	free(io);
}

/* one rail family: endpoint ports of one base name and speed */
struct rail_kind {
	const char *name; /* "ib" of ib[3] */
	size_t len;
	int64_t speed;
	uint32_t ports, port0;
};

static void run_rail_ports(struct check_ctx *c)
{
	const struct rk_design *d = c->d;

	for (uint32_t f = 0; f < d->nobjs; f++) {
		struct ir_ep_cursor cur = { 0, 0 };
		struct rail_kind *k = NULL;
		uint32_t nk = 0, kcap = 0;
		bool names = false, speeds = false;
		char list[600];
		size_t len = 0;

		if (d->objs[f].kind != K_FABRIC ||
		    d->objs[f].cls != FAB_FAT_TREE || !ir_attr(d, f, A_SWITCH))
			continue;
		for (const struct rk_value *v;
		     (v = ir_next_endpoint(d, f, &cur));) {
			const char *nm = str_of(d->arena, d->objs[v->n].local);
			size_t ln = strcspn(nm, "[");
			int64_t sp = check_num(c, (uint32_t)v->n, A_SPEED, 0);
			uint32_t j;

			for (j = 0; j < nk; j++)
				if (k[j].len == ln &&
				    !strncmp(k[j].name, nm, ln) &&
				    k[j].speed == sp)
					break;
			if (j == nk) {
				struct rail_kind *x = VEC_PUSH(k, nk, kcap);

				x->name = nm;
				x->len = ln;
				x->speed = sp;
				x->ports = 0;
				x->port0 = (uint32_t)v->n;
				names |= nk > 1 && (k[0].len != ln ||
						    strncmp(k[0].name, nm, ln));
				speeds |= nk > 1 && k[0].speed != sp;
			}
			k[j].ports++;
		}
		if (nk < 2) {
			free(k);
			continue;
		}
		list[0] = '\0';
		for (uint32_t j = 0; j < nk && len < sizeof(list); j++) {
			char s[RK_QFMT_MAX];

			if (k[j].speed)
				check_qfmt(DIM_RATE, k[j].speed, s);
			else
				snprintf(s, sizeof(s), "no speed");
			len += (size_t)snprintf(
			    list + len, sizeof(list) - len,
			    "%s%u x %.*s[] (%s)",
			    j ? (j + 1 == nk ? " and " : ", ") : "", k[j].ports,
			    (int)k[j].len, k[j].name, s);
		}
		check_fail(c, f, &d->objs[f].loc,
			   "fabric '%s' makes rails of endpoint ports with "
			   "different %s: %s; every port name becomes a rail "
			   "with leaves of its own",
			   ir_name(d, f),
			   names && speeds ? "names and speeds"
			   : names	   ? "names"
					   : "speeds",
			   list);
		check_note(c, &d->objs[k[1].port0].loc,
			   "list ports of one name and speed in a fat tree, or "
			   "give the others a fabric of their own");
		free(k);
	}
}

CHECK_DEFINE(fabric_leaf_empty, "fabric-leaf-empty", CHECK_WARN,
	     "every generated leaf has endpoints, more than a quarter of its "
	     "fabric's fullest leaf's",
	     run_leaf_empty);
CHECK_DEFINE(fabric_leaf_uplinks, "fabric-leaf-uplinks", CHECK_WARN,
	     "no generated leaf has more uplink than downlink unless the "
	     "design asks for it (`uplinks all`, oversubscription d:u with "
	     "u > d)",
	     run_leaf_uplinks);
CHECK_DEFINE(fabric_rail_ports, "fabric-rail-ports", CHECK_WARN,
	     "a fat tree's rails are endpoint ports of one name and speed",
	     run_rail_ports);

static void run_tiers(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	struct leaf_io *io = NULL;

	for (uint32_t f = 0; f < d->nobjs; f++) {
		const struct rk_value *tv;
		const struct fabric_metrics *m;
		uint32_t empty = 0;

		if (d->objs[f].kind != K_FABRIC ||
		    d->objs[f].cls != FAB_FAT_TREE || !ir_attr(d, f, A_SWITCH))
			continue;
		tv = ir_attr(d, f, A_TIERS);
		if (!tv || tv->type != VT_NUM)
			continue;
		m = derived_fabric(c->dv, f);
		if (!m->switches || (int64_t)m->tiers == tv->n)
			continue;
		if (!io)
			io = leaf_links(c);
		for (uint32_t i = 0; i < d->nobjs; i++)
			empty += d->objs[i].parent == f && is_leaf(c, i) &&
				 !io[i].down_n;
		check_fail(c, f, &tv->loc,
			   "fabric '%s' asks for tiers %lld, but its figures "
			   "count %u",
			   ir_name(d, f), (long long)tv->n, m->tiers);
		if (empty)
			check_note(
			    c, &d->objs[f].loc,
			    "%u of its leaves have no endpoints: reached "
			    "only through the spines, they count as a "
			    "tier above them (fabric-leaf-empty)",
			    empty);
	}
	free(io);
}

CHECK_DEFINE(fabric_tiers, "fabric-tiers", CHECK_WARN,
	     "a fat tree that gives `tiers` has that many tiers in its "
	     "figures",
	     run_tiers);
