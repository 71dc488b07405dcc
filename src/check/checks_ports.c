/* SPDX-License-Identifier: MIT */
/*
 * Ports and cables: what the links table (explicit and fabric-generated
 * links alike) does with the ports of the devices.
 *
 *   port-reuse        a port carries at most one link; the shared end of a
 *                     fan-out splitter (see struct split) carries N
 *   port-protocol     both ends speak the same protocol (ib, eth, nvlink)
 *   port-speed        both ends run at the same rate; otherwise the link
 *                     runs at the lower one (speeds are maximum rates, and
 *                     a fan-out splitter leg gets the twin cage's rate / N)
 *   port-form         a twin-port cage meets a single-port cage only
 *                     through a splitter cable, or through separate optics
 *                     (link or cable media mmf/smf: each cage then gets its
 *                     own transceiver); a link that names neither cable
 *                     nor media is left to the cabling plan (cableplan.h),
 *                     which picks optics there.  A cable part's `top`
 *                     matches the module top each port takes (for a
 *                     splitter, the twin-port end only: the legs have
 *                     their own heads)
 *   port-unconnected  every `required true` port of a device has a link
 *
 * Ports are told apart by (device, port object): the link ends sorted by
 * device and port with counting sorts (struct port_index), so the family
 * is linear in the number of links and device ports.
 *
 * A link finding is waived by a `waive` on the link itself, on its group
 * or, for generated links, on the fabric.
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "metrics.h"
#include "portindex.h"
#include "schema.h"

static bool self_loop(const struct rk_link *l)
{
	return l->a_dev == l->b_dev && l->a_port == l->b_port;
}

static bool link_ok(const struct rk_link *l)
{
	return l->a_dev != RK_NONE && l->b_dev != RK_NONE &&
	       l->a_port != RK_NONE && l->b_port != RK_NONE;
}

/* --- link helpers ------------------------------------------------------ */

/* A link attribute (explicit links only), or NULL. */
static const struct rk_value *link_attr(const struct rk_design *d,
					const struct rk_link *l, uint32_t key)
{
	for (uint32_t k = 0; k < l->attr_count; k++)
		if (d->attrs[l->attr_first + k].key == key)
			return &d->attrs[l->attr_first + k].val;
	return NULL;
}

/* The `cable` value of a link: its own, else its fabric's, or NULL. */
static const struct rk_value *cable_value(const struct rk_design *d,
					  const struct rk_link *l)
{
	const struct rk_value *v = link_attr(d, l, A_CABLE);

	if (!v && l->fabric != RK_NONE)
		v = ir_attr(d, l->fabric, A_CABLE);
	return v && v->type == VT_OBJ ? v : NULL;
}

/* The cable part of a link, or RK_NONE. */
static uint32_t link_cable(const struct rk_design *d, const struct rk_link *l)
{
	const struct rk_value *v = cable_value(d, l);

	return v ? v->a : RK_NONE;
}

/* Media of a link: its own `media`, else its cable part's, or NULL. */
static const char *link_media(struct check_ctx *c, const struct rk_link *l)
{
	const struct rk_design *d = c->d;
	const struct rk_value *v = link_attr(d, l, A_MEDIA);
	uint32_t cable;

	if (v && v->type == VT_WORD)
		return str_of(d->arena, v->a);
	cable = link_cable(d, l);
	return cable != RK_NONE ? check_str(c, cable, A_MEDIA) : NULL;
}

static bool word_is(const char *w, const char *s)
{
	return w && streq(w, s);
}

/**
 * struct split - a link through a splitter cable
 * @twin:   0 or 1, the end at the twin-port cage; -1: not a splitter link
 * @n:      legs of the splitter (the cable part's `split`)
 * @fanout: the twin-port end's `speed` is per cage and covers the legs, so
 *          that one port carries @n links at speed / @n each (SN5600:
 *          "each p[i] is one 800G cage"); otherwise the port is one of the
 *          logical ports of its cage (QM9700: 2 x 400G ports per cage) and
 *          carries one leg at its own speed
 */
struct split {
	int twin;
	int64_t n;
	bool fanout;
};

/*
 * A splitter link joins a twin-port cage to a single-port cage with a cable
 * part that says `split N`, N > 1.  Fan-out is assumed unless both speeds
 * are known and the twin end's rate / N is below the single end's.
 */
static void link_split(struct check_ctx *c, const struct rk_link *l,
		       struct split *sp)
{
	const char *ca = check_str(c, l->a_port, A_CAGE);
	const char *cb = check_str(c, l->b_port, A_CAGE);
	uint32_t cable = link_cable(c->d, l), tp, sp_port;
	int64_t ts, ss;

	sp->twin = -1;
	sp->n = cable != RK_NONE ? check_num(c, cable, A_SPLIT, 1) : 1;
	sp->fanout = false;
	if (sp->n <= 1) {
		sp->n = 1;
		return;
	}
	if (word_is(ca, "twin") && word_is(cb, "single"))
		sp->twin = 0;
	else if (word_is(ca, "single") && word_is(cb, "twin"))
		sp->twin = 1;
	else
		return;
	tp = sp->twin ? l->b_port : l->a_port;
	sp_port = sp->twin ? l->a_port : l->b_port;
	ts = check_num(c, tp, A_SPEED, 0);
	ss = check_num(c, sp_port, A_SPEED, 0);
	sp->fanout = ts <= 0 || ss <= 0 || ts / sp->n >= ss;
}

/* "dev.port" in @buf. */
static const char *pname(const struct rk_design *d, uint32_t dev, uint32_t port,
			 char buf[static 512])
{
	snprintf(buf, 512, "%s.%s", ir_name(d, dev),
		 str_of(d->arena, d->objs[port].local));
	return buf;
}

/* check_fail for a link: honours waivers on the link first. */
#define link_fail(c, l, ...)                                          \
	do {                                                          \
		if (!check_link_waived(c, l))                         \
			check_fail(c, check_link_owner(l), &(l)->loc, \
				   __VA_ARGS__);                      \
	} while (0)

/* --- checks ------------------------------------------------------------ */

/* The legs the port at end @end of link @l may carry: N at a fan-out
 * splitter's twin end, else 1. */
static uint32_t split_cap(struct check_ctx *c, const struct rk_link *l,
			  uint32_t end)
{
	struct split sp;

	link_split(c, l, &sp);
	return (int)end == sp.twin && sp.fanout && sp.n <= UINT32_MAX
		   ? (uint32_t)sp.n
		   : 1;
}

/* A port-reuse finding, reported in link order once all are known. */
struct reuse {
	uint32_t link, end;
	uint32_t dev, port;
	uint32_t first; /* the port's first link */
	uint32_t cap;	/* legs the port carries */
};

static int cmp_reuse(const void *pa, const void *pb)
{
	const struct reuse *a = pa, *b = pb;

	if (a->link != b->link)
		return a->link < b->link ? -1 : 1;
	return a->end < b->end ? -1 : a->end > b->end;
}

static void run_port_reuse(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct port_index *x = derived_ports(c->dv);
	struct reuse *r = NULL;
	uint32_t nr = 0, rcap = 0;
	char b1[512], b2[512], b3[512];

	for (uint32_t dev = 0; dev < d->nobjs && !check_stop(c); dev++) {
		for (uint32_t i = x->start[dev]; i < x->start[dev + 1];) {
			uint32_t j = i, count = 0, cap = 0, first = RK_NONE;

			while (j < x->start[dev + 1] &&
			       x->e[j].port == x->e[i].port)
				j++;
			/* the port's links in link order, as they arrive
			 * (splitter legs only matter from the second on) */
			for (uint32_t k = i; k < j && j - i > 1; k++) {
				const struct port_end *e = &x->e[k];
				const struct rk_link *l = &d->links[e->link];
				uint32_t ecap;
				struct reuse *f;

				if (self_loop(l)) {
					if (e->end == 0) {
						f = VEC_PUSH(r, nr, rcap);
						*f = (struct reuse){
							e->link, 0,	  dev,
							e->port, RK_NONE, 0
						};
					}
					continue;
				}
				ecap = split_cap(c, l, e->end);
				if (!count++) {
					first = e->link;
					cap = ecap;
					continue;
				}
				if (ecap < cap)
					cap = ecap;
				if (count <= cap)
					continue;
				f = VEC_PUSH(r, nr, rcap);
				*f = (struct reuse){ e->link, e->end, dev,
						     e->port, first,  cap };
			}
			i = j;
		}
	}
	if (nr > 1)
		qsort(r, nr, sizeof(*r), cmp_reuse);
	for (uint32_t k = 0; k < nr; k++) {
		const struct rk_link *l = &d->links[r[k].link];
		const struct rk_link *f;

		if (r[k].first == RK_NONE) {
			link_fail(c, l, "link connects port %s to itself",
				  pname(d, l->a_dev, l->a_port, b1));
			continue;
		}
		f = &d->links[r[k].first];
		if (r[k].cap > 1)
			link_fail(c, l,
				  "port %s already carries %u splitter legs",
				  pname(d, r[k].dev, r[k].port, b1), r[k].cap);
		else
			link_fail(c, l,
				  "port %s is already used by another link",
				  pname(d, r[k].dev, r[k].port, b1));
		check_note(c, &f->loc, "first used by %s -- %s",
			   pname(d, f->a_dev, f->a_port, b2),
			   pname(d, f->b_dev, f->b_port, b3));
		if (r[k].cap > 1) {
			uint32_t fc = link_cable(d, f);

			check_note(c, &cable_value(d, f)->loc,
				   "cable %s has split %lld: one leg per link",
				   ir_name(d, fc),
				   (long long)ir_num(d, fc, A_SPLIT, 1));
		}
	}
	free(r);
}

static void note_port_word(struct check_ctx *c, uint32_t dev, uint32_t port,
			   uint32_t key)
{
	const struct rk_design *d = c->d;
	const struct rk_value *v = ir_attr_inh(d, port, key);
	char b[512];

	check_note(c, v ? &v->loc : &d->objs[port].loc, "%s: %s %s",
		   pname(d, dev, port, b), attr_table[key].name,
		   v ? str_of(d->arena, v->a) : "?");
}

/*
 * Both ends name a protocol, neither `any`, and they differ.  The words
 * are interned strings of one arena, so equal words are the same pointer.
 */
static bool protocol_conflict(struct check_ctx *c, const struct rk_link *l,
			      const char **pa, const char **pb)
{
	*pa = check_str(c, l->a_port, A_PROTOCOL);
	*pb = check_str(c, l->b_port, A_PROTOCOL);
	return *pa && *pb && *pa != *pb && !streq(*pa, "any") &&
	       !streq(*pb, "any");
}

static void run_port_protocol(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	char b1[512], b2[512];

	for (uint32_t i = 0; i < d->nlinks && !check_stop(c); i++) {
		const struct rk_link *l = &d->links[i];
		const char *pa, *pb;

		if (!link_ok(l) || !protocol_conflict(c, l, &pa, &pb))
			continue;
		link_fail(c, l,
			  "link %s -- %s joins protocol %s to protocol %s",
			  pname(d, l->a_dev, l->a_port, b1),
			  pname(d, l->b_dev, l->b_port, b2), pa, pb);
		note_port_word(c, l->a_dev, l->a_port, A_PROTOCOL);
		note_port_word(c, l->b_dev, l->b_port, A_PROTOCOL);
	}
}

static void note_speed(struct check_ctx *c, const struct rk_link *l, int end,
		       int64_t split)
{
	const struct rk_design *d = c->d;
	uint32_t dev = end ? l->b_dev : l->a_dev;
	uint32_t port = end ? l->b_port : l->a_port;
	const struct rk_value *v = ir_attr_inh(d, port, A_SPEED);
	char b[512], r1[RK_QFMT_MAX], r2[RK_QFMT_MAX];

	if (split > 1)
		check_note(c, &v->loc,
			   "%s: %s twin-port cage / %lld splitter legs = %s "
			   "per leg",
			   pname(d, dev, port, b),
			   check_qfmt(DIM_RATE, v->n, r1), (long long)split,
			   check_qfmt(DIM_RATE, v->n / split, r2));
	else
		check_note(c, &v->loc, "%s: %s", pname(d, dev, port, b),
			   check_qfmt(DIM_RATE, v->n, r1));
}

static void run_port_speed(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	char b1[512], b2[512], r[RK_QFMT_MAX];

	for (uint32_t i = 0; i < d->nlinks && !check_stop(c); i++) {
		const struct rk_link *l = &d->links[i];
		const struct rk_value *va, *vb;
		const char *pa, *pb;
		int64_t sa, sb, split;
		struct split sp;
		int fan;

		if (!link_ok(l) || protocol_conflict(c, l, &pa, &pb))
			continue;
		va = check_inh(c, l->a_port, A_SPEED);
		vb = check_inh(c, l->b_port, A_SPEED);
		if (!va || !vb || va->type != VT_NUM || vb->type != VT_NUM ||
		    va->n <= 0 || vb->n <= 0)
			continue;
		link_split(c, l, &sp);
		fan = sp.fanout ? sp.twin : -1;
		split = sp.n;
		sa = fan == 0 ? va->n / split : va->n;
		sb = fan == 1 ? vb->n / split : vb->n;
		if (sa == sb)
			continue;
		link_fail(c, l,
			  "link %s -- %s runs at %s, the slower end's "
			  "speed",
			  pname(d, l->a_dev, l->a_port, b1),
			  pname(d, l->b_dev, l->b_port, b2),
			  check_qfmt(DIM_RATE, sa < sb ? sa : sb, r));
		note_speed(c, l, 0, fan == 0 ? split : 1);
		note_speed(c, l, 1, fan == 1 ? split : 1);
	}
}

static void form_cage(struct check_ctx *c, const struct rk_link *l)
{
	const struct rk_design *d = c->d;
	const char *ca = check_str(c, l->a_port, A_CAGE);
	const char *cb = check_str(c, l->b_port, A_CAGE);
	const char *media = link_media(c, l);
	const struct rk_value *cv;
	struct split sp;
	uint32_t cable;
	char b1[512], b2[512];
	int tw;

	if (!(word_is(ca, "twin") && word_is(cb, "single")) &&
	    !(word_is(ca, "single") && word_is(cb, "twin")))
		return;
	/* no cable and no media: the cabling plan picks optics */
	if (!media || word_is(media, "mmf") || word_is(media, "smf"))
		return;
	link_split(c, l, &sp);
	if (sp.twin >= 0)
		return;
	tw = word_is(ca, "twin") ? 0 : 1;
	link_fail(c, l,
		  "link joins the twin-port cage of %s to the single-port "
		  "cage of %s without a splitter cable",
		  tw ? pname(d, l->b_dev, l->b_port, b1)
		     : pname(d, l->a_dev, l->a_port, b1),
		  tw ? pname(d, l->a_dev, l->a_port, b2)
		     : pname(d, l->b_dev, l->b_port, b2));
	note_port_word(c, l->a_dev, l->a_port, A_CAGE);
	note_port_word(c, l->b_dev, l->b_port, A_CAGE);
	cable = link_cable(d, l);
	cv = cable_value(d, l);
	if (cable == RK_NONE)
		check_note(c, &link_attr(d, l, A_MEDIA)->loc,
			   "media %s without a cable part; a splitter is a "
			   "cable part with 'split 2'",
			   media);
	else
		check_note(c, &cv->loc, "cable %s has split %lld",
			   ir_name(d, cable),
			   (long long)ir_num(d, cable, A_SPLIT, 1));
}

static void form_top(struct check_ctx *c, const struct rk_link *l)
{
	const struct rk_design *d = c->d;
	uint32_t cable = link_cable(d, l);
	const struct rk_value *tv;
	const char *top, *ta, *tb;
	bool bad_a, bad_b;
	struct split sp;
	char b1[512];

	if (cable == RK_NONE)
		return;
	tv = check_inh(c, cable, A_TOP);
	top = check_str(c, cable, A_TOP);
	if (!top)
		return;
	link_split(c, l, &sp);
	ta = check_str(c, l->a_port, A_TOP);
	tb = check_str(c, l->b_port, A_TOP);
	/* a splitter's `top` is its twin-port head's */
	bad_a = ta && sp.twin != 1 && !streq(ta, top);
	bad_b = tb && sp.twin != 0 && !streq(tb, top);
	if (!bad_a && !bad_b)
		return;
	link_fail(c, l,
		  "cable %s has %s-top modules, but %s takes %s-top "
		  "modules",
		  ir_name(d, cable), top,
		  bad_a ? pname(d, l->a_dev, l->a_port, b1)
			: pname(d, l->b_dev, l->b_port, b1),
		  bad_a ? ta : tb);
	check_note(c, &tv->loc, "%s: top %s%s", ir_name(d, cable), top,
		   sp.twin >= 0 ? " (its twin-port head)" : "");
	if (bad_a)
		note_port_word(c, l->a_dev, l->a_port, A_TOP);
	if (bad_b)
		note_port_word(c, l->b_dev, l->b_port, A_TOP);
}

/*
 * Which plugs each cage accepts (doc/language.md 9.2, "Plugs and cages",
 * with its sources).  QSFP28, QSFP56 and QSFP112 plugs share one outline
 * and fit each other's cages (the rate is port-speed's business), and a
 * QSFP-DD cage takes them too, but a QSFP-DD plug only a QSFP-DD cage;
 * SFP28, SFP56 and SFP112 are one outline likewise; an OSFP cage takes
 * OSFP only, and no QSFP cage takes an SFP plug or the reverse.  Forms
 * outside the table (MPO and LC fibre, power inlets, backplane) are not
 * judged here.
 */
static const struct {
	const char *cage;
	const char *plugs[5];
} cage_accepts[] = {
	{ "OSFP", { "OSFP" } },
	{ "QSFP_DD", { "QSFP_DD", "QSFP112", "QSFP56", "QSFP28" } },
	{ "QSFP112", { "QSFP112", "QSFP56", "QSFP28" } },
	{ "QSFP56", { "QSFP112", "QSFP56", "QSFP28" } },
	{ "QSFP28", { "QSFP112", "QSFP56", "QSFP28" } },
	{ "SFP112", { "SFP112", "SFP56", "SFP28" } },
	{ "SFP56", { "SFP112", "SFP56", "SFP28" } },
	{ "SFP28", { "SFP112", "SFP56", "SFP28" } },
	{ "RJ45", { "RJ45" } },
};

/* The table row of a form, or -1. */
static int cage_row(const char *form)
{
	if (!form)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(cage_accepts); i++)
		if (streq(cage_accepts[i].cage, form))
			return (int)i;
	return -1;
}

/* 1: the @cage takes the @plug; 0: it does not; -1: either is unjudged. */
static int plug_fits(const char *cage, const char *plug)
{
	int row = cage_row(cage);

	if (row < 0 || cage_row(plug) < 0)
		return -1;
	for (size_t k = 0; k < ARRAY_SIZE(cage_accepts[row].plugs) &&
			   cage_accepts[row].plugs[k];
	     k++)
		if (streq(cage_accepts[row].plugs[k], plug))
			return 1;
	return 0;
}

/* "an" before a form read letter by letter (OSFP, SFP28, RJ45), else "a". */
static const char *article(const char *form)
{
	return form[0] == 'O' || form[0] == 'S' || form[0] == 'R' ? "an" : "a";
}

/* "OSFP", "QSFP112, QSFP56 or QSFP28": the plugs a cage form takes. */
static const char *accepted_list(const char *cage, char buf[static 128])
{
	int row = cage_row(cage);
	size_t len = 0, n = 0;

	buf[0] = 0;
	while (n < ARRAY_SIZE(cage_accepts[row].plugs) &&
	       cage_accepts[row].plugs[n])
		n++;
	for (size_t k = 0; k < n; k++) {
		int w = snprintf(buf + len, 128 - len, "%s%s",
				 k == 0	      ? ""
				 : k == n - 1 ? " or "
					      : ", ",
				 cage_accepts[row].plugs[k]);

		if (w > 0 && (size_t)w < 128 - len)
			len += (size_t)w;
	}
	return buf;
}

/*
 * The plugs of a link's cable part fit the cages of its ports.  The cable
 * has `form` at its head and `far_form` (default: form) at its other end
 * or a splitter's legs; a splitter's head is at the twin-port cage, and
 * otherwise either end may be the head: the link is judged the way round
 * that fits, or that misfits at fewer ends (head at a on a tie).
 */
static void form_plug(struct check_ctx *c, const struct rk_link *l)
{
	const struct rk_design *d = c->d;
	uint32_t cable = link_cable(d, l);
	const char *head, *far, *pa, *pb, *plug, *cage;
	int bad[2][2], nbad[2], way, end;
	uint32_t dev, port;
	struct split sp;
	char b1[512], list[128];

	if (cable == RK_NONE)
		return;
	head = check_str(c, cable, A_FORM);
	far = check_str(c, cable, A_FAR_FORM);
	if (!head)
		head = far;
	if (!far)
		far = head;
	if (!head)
		return;
	pa = check_str(c, l->a_port, A_FORM);
	pb = check_str(c, l->b_port, A_FORM);
	/* way 0: head at end a; way 1: head at end b */
	bad[0][0] = plug_fits(pa, head) == 0;
	bad[0][1] = plug_fits(pb, far) == 0;
	bad[1][0] = plug_fits(pa, far) == 0;
	bad[1][1] = plug_fits(pb, head) == 0;
	nbad[0] = bad[0][0] + bad[0][1];
	nbad[1] = bad[1][0] + bad[1][1];
	link_split(c, l, &sp);
	if (sp.twin >= 0)
		way = sp.twin;
	else
		way = nbad[1] < nbad[0] ? 1 : 0;
	if (!nbad[way])
		return;
	end = bad[way][0] ? 0 : 1;
	plug = (end == way) ? head : far;
	dev = end ? l->b_dev : l->a_dev;
	port = end ? l->b_port : l->a_port;
	cage = end ? pb : pa;
	link_fail(c, l,
		  "cable %s puts %s %s plug into the %s cage of %s, which "
		  "does not take it",
		  ir_name(d, cable), article(plug), plug, cage,
		  pname(d, dev, port, b1));
	check_note(c, &check_inh(c, port, A_FORM)->loc,
		   "%s: form %s; %s %s cage takes %s plugs", b1, cage,
		   article(cage), cage, accepted_list(cage, list));
	if (plug == head && check_inh(c, cable, A_FORM))
		check_note(c, &check_inh(c, cable, A_FORM)->loc,
			   "%s: form %s%s", ir_name(d, cable), head,
			   head != far ? " (its head end)" : "");
	else
		check_note(c, &check_inh(c, cable, A_FAR_FORM)->loc,
			   "%s: far_form %s", ir_name(d, cable), far);
	if (nbad[way] == 2)
		check_note(c, &check_inh(c, l->b_port, A_FORM)->loc,
			   "%s: form %s does not take the %s plug of the "
			   "cable's other end either",
			   pname(d, l->b_dev, l->b_port, b1), pb,
			   way ? head : far);
}

static void run_port_form(struct check_ctx *c)
{
	const struct rk_design *d = c->d;

	for (uint32_t i = 0; i < d->nlinks && !check_stop(c); i++) {
		const struct rk_link *l = &d->links[i];

		if (!link_ok(l))
			continue;
		form_plug(c, l);
		form_cage(c, l);
		form_top(c, l);
	}
}

/* Most unconnected port names listed in one finding. */
#define UNCONNECTED_LIST 8

static void run_port_unconnected(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct port_index *x = derived_ports(c->dv);
	uint32_t *miss = NULL, nmiss, cap = 0;

	for (uint32_t dev = 0; dev < d->nobjs && !check_stop(c); dev++) {
		uint32_t top = d->objs[dev].part;
		char list[UNCONNECTED_LIST * 64 + 64];
		size_t len = 0;

		if (d->objs[dev].kind != K_DEVICE || top == RK_NONE)
			continue;
		nmiss = 0;
		for_each_base(d, p, top) {
			for_each_child(d, p, port) {
				if (d->objs[port].kind != K_PORT ||
				    check_num(c, port, A_REQUIRED, 0) == 0)
					continue;
				/* a derived part may redefine a base port */
				if (p != top &&
				    ir_part_port(d, top, d->objs[port].local) !=
					port)
					continue;
				if (port_index_find(x, dev, port, NULL) !=
				    RK_NONE)
					continue;
				if (nmiss == cap) {
					cap = cap ? 2 * cap : 16;
					miss =
					    xrealloc(miss, cap * sizeof(*miss));
				}
				miss[nmiss++] = port;
			}
		}
		if (!nmiss)
			continue;
		list[0] = 0;
		for (uint32_t k = 0; k < nmiss && k < UNCONNECTED_LIST; k++) {
			int w =
			    snprintf(list + len, sizeof(list) - len, "%s%s",
				     k ? ", " : "",
				     str_of(d->arena, d->objs[miss[k]].local));

			if (w > 0 && (size_t)w < sizeof(list) - len)
				len += (size_t)w;
		}
		if (nmiss > UNCONNECTED_LIST)
			snprintf(list + len, sizeof(list) - len, " and %u more",
				 nmiss - UNCONNECTED_LIST);
		check_fail(c, dev, &d->objs[dev].loc,
			   "%s leaves %u required port%s unconnected: %s",
			   ir_name(d, dev), nmiss, nmiss == 1 ? "" : "s", list);
		check_note(c, &ir_attr_inh(d, miss[0], A_REQUIRED)->loc,
			   "marked 'required true' in part %s",
			   ir_name(d, d->objs[miss[0]].parent));
	}
	free(miss);
}

CHECK_DEFINE(port_reuse, "port-reuse", CHECK_ERROR,
	     "each port carries one link (a splitter's twin end N)",
	     run_port_reuse);
CHECK_DEFINE(port_protocol, "port-protocol", CHECK_ERROR,
	     "both ends of a link speak the same protocol", run_port_protocol);
CHECK_DEFINE(port_speed, "port-speed", CHECK_WARN,
	     "both ends of a link run at the same rate", run_port_speed);
CHECK_DEFINE(port_form, "port-form", CHECK_ERROR,
	     "cable plugs, cage types and module tops fit the ports",
	     run_port_form);
CHECK_DEFINE(port_unconnected, "port-unconnected", CHECK_WARN,
	     "every required port of a device has a link",
	     run_port_unconnected);
