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
#include "arith.h"

#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "fabric.h"
#include "layout.h"
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
		    (i128)io[i].up * (io[i].up_n - 1) <
			(i128)io[i].down * io[i].up_n)
			continue;
		f = d->objs[i].parent;
		ov = ir_attr(d, f, A_OVERSUB);
		if (ov && ov->type == VT_RATIO && (int64_t)ov->a > ov->n)
			continue; /* the design asks for it */
		if (ir_attr(d, f, A_UPLINKS) &&
		    streq(check_str(c, f, A_UPLINKS), "all"))
			continue; /* so it does */
		check_qfmt2(DIM_RATE, io[i].down, io[i].up, a, b);
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

/*
 * A fat tree that asks for oversubscription d:u other than 1:1 builds
 * every leaf d:u (down * u == up * d in bandwidth) where it can: a leaf
 * of n endpoints cables n*u/d uplinks rounded up to whole links, and
 * three and four tiers cable a full leaf's uplinks on every leaf.  Said
 * once per fabric, at its `oversubscription`, naming the first leaf that
 * differs and why.  `uplinks all` asks for every uplink port instead.
 */
static void run_ratio(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	struct leaf_io *io = NULL;
	uint32_t *first = NULL, *odd = NULL, *with = NULL;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_value *ov;
		uint32_t f;

		if (!is_leaf(c, i))
			continue;
		f = d->objs[i].parent;
		ov = ir_attr(d, f, A_OVERSUB);
		if (!ov || ov->type != VT_RATIO || ov->n == (int64_t)ov->a ||
		    (ir_attr(d, f, A_UPLINKS) &&
		     streq(check_str(c, f, A_UPLINKS), "all")))
			continue;
		if (!io) {
			io = leaf_links(c);
			first = xmalloc((d->nobjs + 1) * sizeof(*first));
			memset(first, 0xff, (d->nobjs + 1) * sizeof(*first));
			odd = xcalloc(d->nobjs + 1, sizeof(*odd));
			with = xcalloc(d->nobjs + 1, sizeof(*with));
		}
		/* a lone leaf (one tier) has no uplinks to weigh */
		if (!io[i].down_n || !io[i].up_n)
			continue;
		with[f]++;
		if ((i128)io[i].down * ov->a == (i128)io[i].up * ov->n)
			continue;
		if (!odd[f]++)
			first[f] = i;
	}
	for (uint32_t f = 0; io && f < d->nobjs && !check_stop(c); f++) {
		const struct rk_value *ov, *su;
		const struct leaf_io *x;
		char a[RK_QFMT_MAX], b[RK_QFMT_MAX], w[RK_QFMT_MAX];
		uint32_t l = first[f];
		i128 need, per;

		if (!odd[f])
			continue;
		ov = ir_attr(d, f, A_OVERSUB);
		x = &io[l];
		check_qfmt2(DIM_RATE, x->down, x->up, a, b);
		check_fail(c, f, &ov->loc,
			   "fabric '%s' asks for oversubscription %lld:%u, but "
			   "leaf %s has %u %s down (%s) and %u %s up (%s); %u "
			   "of its %u leaves with endpoints are not %lld:%u",
			   ir_name(d, f), (long long)ov->n, ov->a,
			   ir_name(d, l), x->down_n,
			   x->down_n == 1 ? "endpoint" : "endpoints", a,
			   x->up_n, x->up_n == 1 ? "uplink" : "uplinks", b,
			   odd[f], with[f], (long long)ov->n, ov->a);
		/* the uplink bandwidth d:u asks for, against whole links */
		need = (i128)x->down * ov->a;
		per = x->up_n ? (i128)x->up / x->up_n : 0;
		check_qfmt(DIM_RATE, check_sat(need / ov->n), w);
		if (!x->up_n || (i128)x->up * ov->n < need)
			check_note(c, &d->objs[l].loc,
				   "it has too few uplink ports for %s up: a "
				   "switch of more ports, or a smaller "
				   "su_size, gives each leaf what d:u asks",
				   w);
		else if ((x->up - per) * (i128)ov->n < need) {
			check_note(c, &d->objs[l].loc,
				   "uplinks are whole links: %s up, what "
				   "%lld:%u asks of its downlinks, is more "
				   "than %u %s, so it cables %u",
				   w, (long long)ov->n, ov->a, x->up_n - 1,
				   x->up_n == 2 ? "uplink" : "uplinks",
				   x->up_n);
			int64_t g = ov->n, h = ov->a;

			while (h) {
				int64_t t = g % h;

				g = h;
				h = t;
			}
			su = ir_attr(d, f, A_SU_SIZE);
			check_note(c, su ? &su->loc : &d->objs[f].loc,
				   "a leaf of equal endpoints is exactly "
				   "%lld:%u when their number is a multiple "
				   "of %lld: su_size, and the nodes of the "
				   "last unit, a multiple of %lld",
				   (long long)ov->n, ov->a,
				   (long long)(ov->n / g),
				   (long long)(ov->n / g));
		} else
			check_note(c, &d->objs[l].loc,
				   "three and four tiers cable every leaf's "
				   "uplinks as a full leaf's, so that its pod "
				   "is complete; %s up would do",
				   w);
	}
	free(first);
	free(odd);
	free(with);
	free(io);
}

/*
 * First-fit placement (no leaf_band) of generated switches.  A fat-tree
 * leaf is *away* when it stands among other leaves' nodes and none of its
 * own (in a rack that holds the fabric's endpoint devices, or else in the
 * row of such a rack) while the list offers a rack of its own nodes (one
 * that holds them, or one in their row): first fit with every unit's
 * leaves in the first listed rack.  A star is *crowded* when all its
 * switches stand in one of the several racks it lists, and it gives no
 * per_rack (which says how many a rack may take).
 */
static uint32_t row_of(const struct rk_design *d, uint32_t rack)
{
	return rack == RK_NONE ? RK_NONE : d->objs[rack].parent;
}

static bool banded(struct check_ctx *c, uint32_t f)
{
	return check_num(c, f, A_LEAVES_PER_RACK, 0) > 0 &&
	       check_num(c, f, A_LEAF_BAND, 0) > 0;
}

static void star_crowded(struct check_ctx *c, uint32_t f,
			 const struct rk_value *pl)
{
	const struct rk_design *d = c->d;
	uint32_t n = 0, rack0 = RK_NONE;
	bool one = true;

	for_each_child(d, f, s) {
		uint32_t r;

		if (d->objs[s].kind != K_DEVICE || d->objs[s].cls != C_SWITCH)
			continue;
		r = layout_rack_of(d, s);
		n++;
		one = one && r != RK_NONE && (rack0 == RK_NONE || r == rack0);
		rack0 = r;
	}
	if (n < 2 || !one || pl->n < 2)
		return;
	check_fail(c, f, &pl->loc,
		   "first-fit placement puts all %u switches of star '%s' in "
		   "%s, the first listed rack with room, and none in the %s",
		   n, ir_name(d, f), ir_name(d, rack0),
		   pl->n == 2 ? "other listed rack" : "other listed racks");
	check_note(c, NULL,
		   "`per_rack N` spreads them over the listed racks, N a "
		   "rack; `leaf_band U` with `leaves_per_rack N` puts switch "
		   "j in listed rack j / N");
}

/* per fat-tree leaf, from its links to its nodes */
enum {
	HOME_RACK = 1,	 /* a node of its own in its rack */
	HOME_ROW = 2,	 /* in its rack's row */
	LISTED_RACK = 4, /* a listed rack holds a node of its own */
	LISTED_ROW = 8	 /* a listed rack stands in such a node's row */
};

/*
 * What run_first_fit() keeps over the fabrics.  Per rack and row: f + 1
 * when fabric f lists the rack (a rack in the row) (lst), and when the
 * rack (a rack in the row) holds one of its endpoint devices (ept).
 */
struct ff_work {
	struct check_ctx *c;
	uint32_t *lst, *ept;
	uint32_t *start, *order; /* the links of each fabric */
	uint8_t *home;		 /* per leaf: HOME_RACK ... */
};

/* The maps, and the links of each fabric bucketed once. */
static void ff_alloc(struct ff_work *w)
{
	const struct rk_design *d = w->c->d;
	uint32_t *start, *order;

	w->lst = xcalloc(d->nobjs + 1, sizeof(*w->lst));
	w->ept = xcalloc(d->nobjs + 1, sizeof(*w->ept));
	w->home = xcalloc(d->nobjs + 1, 1);
	start = w->start = xcalloc(d->nobjs + 2, sizeof(*start));
	order = w->order = xmalloc(((size_t)d->nlinks + 1) * sizeof(*order));
	for (uint32_t i = 0; i < d->nlinks; i++)
		if (d->links[i].fabric != RK_NONE)
			start[d->links[i].fabric + 1]++;
	for (uint32_t i = 0; i < d->nobjs; i++)
		start[i + 1] += start[i];
	for (uint32_t i = 0; i < d->nlinks; i++)
		if (d->links[i].fabric != RK_NONE)
			order[start[d->links[i].fabric]++] = i;
	for (uint32_t i = d->nobjs; i > 0; i--)
		start[i] = start[i - 1];
	start[0] = 0;
}

/* Fabric @f's listed racks (@pl) and its endpoint devices' racks, and
 * their rows, marked in lst and ept. */
static void ff_mark(struct ff_work *w, uint32_t f, const struct rk_value *pl)
{
	const struct rk_design *d = w->c->d;
	struct ir_ep_cursor cur = { 0, 0 };

	for (uint32_t i = 0; i < (uint32_t)pl->n; i++) {
		uint32_t r = d->vals[pl->a + i].a;

		w->lst[r] = f + 1;
		if (row_of(d, r) != RK_NONE)
			w->lst[row_of(d, r)] = f + 1;
	}
	for (const struct rk_value *v; (v = ir_next_endpoint(d, f, &cur));) {
		uint32_t r = layout_rack_of(d, v->a);

		if (r == RK_NONE)
			continue;
		w->ept[r] = f + 1;
		if (row_of(d, r) != RK_NONE)
			w->ept[row_of(d, r)] = f + 1;
	}
}

/* Each leaf of fabric @f: where its nodes stand, from its links to them. */
static void ff_homes(struct ff_work *w, uint32_t f)
{
	const struct rk_design *d = w->c->d;
	uint8_t *home = w->home;

	for (uint32_t k = w->start[f]; k < w->start[f + 1]; k++) {
		const struct rk_link *l = &d->links[w->order[k]];
		uint32_t e[2] = { l->a_dev, l->b_dev };

		if (l->a_port == RK_NONE)
			continue;
		for (unsigned j = 0; j < 2; j++) {
			uint32_t lf = e[j], o = e[1 - j], rl, ro, rw;

			if (d->objs[lf].parent != f || !is_leaf(w->c, lf) ||
			    d->objs[o].cls == C_SWITCH ||
			    (ro = layout_rack_of(d, o)) == RK_NONE)
				continue;
			rl = layout_rack_of(d, lf);
			rw = row_of(d, ro);
			home[lf] |= rl == ro ? HOME_RACK : 0;
			home[lf] |= rl != RK_NONE && rw != RK_NONE &&
					    rw == row_of(d, rl)
					? HOME_ROW
					: 0;
			home[lf] |= w->lst[ro] == f + 1 ? LISTED_RACK : 0;
			home[lf] |= rw != RK_NONE && w->lst[rw] == f + 1
					? LISTED_ROW
					: 0;
		}
	}
}

/* The leaves of fabric @f that stand away: how many, the first in
 * *@firstbad, and *@inrow when it stands in a row, not a rack, of nodes. */
static uint32_t ff_away(const struct ff_work *w, uint32_t f, uint32_t *firstbad,
			bool *inrow)
{
	const struct rk_design *d = w->c->d;
	const uint32_t *ept = w->ept;
	const uint8_t *home = w->home;
	uint32_t bad = 0;

	for_each_child(d, f, lf) {
		uint32_t r, rw;
		bool away;

		if (!is_leaf(w->c, lf) ||
		    (r = layout_rack_of(d, lf)) == RK_NONE ||
		    !(home[lf] & (LISTED_RACK | LISTED_ROW)))
			continue;
		rw = row_of(d, r);
		away = ept[r] == f + 1 ? !(home[lf] & HOME_RACK)
		       : rw != RK_NONE && ept[rw] == f + 1
			   ? !(home[lf] & HOME_ROW)
			   : false;
		if (away && !bad++) {
			*firstbad = lf;
			*inrow = ept[r] != f + 1;
		}
	}
	return bad;
}

static void run_first_fit(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	struct ff_work w = { .c = c };

	for (uint32_t f = 0; f < d->nobjs && !check_stop(c); f++) {
		const struct rk_value *pl = ir_attr(d, f, A_PLACE_LEAVES);
		uint32_t bad, firstbad = RK_NONE;
		bool inrow = false;

		if (d->objs[f].kind != K_FABRIC || !ir_attr(d, f, A_SWITCH) ||
		    !pl || pl->type != VT_LIST || banded(c, f))
			continue;
		if (d->objs[f].cls == FAB_STAR) {
			/* with per_rack the design says how many a rack */
			if (check_num(c, f, A_PER_RACK, 0) <= 0)
				star_crowded(c, f, pl);
			continue;
		}
		if (d->objs[f].cls != FAB_FAT_TREE)
			continue;
		if (!w.lst)
			ff_alloc(&w);
		ff_mark(&w, f, pl);
		ff_homes(&w, f);
		bad = ff_away(&w, f, &firstbad, &inrow);
		if (!bad)
			continue;
		check_fail(c, f, &pl->loc,
			   "first-fit placement puts leaf %s of fabric '%s' in "
			   "%s, %s other leaves' nodes and none of its own, "
			   "though the list offers a rack by its own nodes; %u "
			   "of its leaves stand so",
			   ir_name(d, firstbad), ir_name(d, f),
			   ir_name(d, layout_rack_of(d, firstbad)),
			   inrow ? "in a row of" : "a rack of", bad);
		check_note(
		    c, NULL,
		    "`leaf_band U` with `leaves_per_rack N` (N the "
		    "leaves of a unit) stands unit s's leaves in listed "
		    "rack s; or `per_rack N`, so that first fit moves on "
		    "to the next unit's rack");
	}
	free(w.lst);
	free(w.ept);
	free(w.home);
	free(w.start);
	free(w.order);
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
CHECK_DEFINE(fabric_ratio, "fabric-ratio", CHECK_WARN,
	     "every leaf of a fat tree that asks for oversubscription d:u "
	     "(other than 1:1) is d:u",
	     run_ratio);
CHECK_DEFINE(fabric_first_fit, "fabric-first-fit", CHECK_WARN,
	     "first-fit placement puts no fat-tree leaf among other leaves' "
	     "nodes and none of its own, and not all of a star's switches in "
	     "one of its listed racks",
	     run_first_fit);
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
