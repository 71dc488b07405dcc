/* SPDX-License-Identifier: MIT */
/*
 * Cables: what the cabling plan (cableplan.h) could not do.
 *
 *   cable-reach           for a link of known length: no catalog cable
 *                         (with the transceivers it needs) fits it at its
 *                         length, speed and media; or the link's forced
 *                         `cable` reaches less than the length, or is not
 *                         sold that long
 *   cable-length-unknown  an end of a link is not in a rack and the link
 *                         has no `length`, so no length (and no stock
 *                         length) can be computed; only in designs that
 *                         have racks (a design without any is a logical
 *                         one: its cable lengths are not being planned)
 *
 * Both stay quiet for links that are not cabled (backplane) and when the
 * design has no cable parts at all (nothing is planned then; the bom back
 * end says so).  Form, cage and top mismatches of a forced cable are the
 * port-form check's; here a link that no cable fits at any length is only
 * reported when its length is known.  A link finding is waived by a
 * `waive` on the link itself, on its group or, for generated links, on
 * the fabric.
 */
#include "rackc.h"

#include <stdio.h>

#include "cableplan.h"
#include "metrics.h"
#include "checks.h"
#include "layout.h"
#include "schema.h"

/* "a.p -- b.q" in @buf. */
static const char *link_str(const struct rk_design *d, const struct rk_link *l,
			    char buf[static 1024])
{
	snprintf(buf, 1024, "%s.%s -- %s.%s", ir_name(d, l->a_dev),
		 str_of(d->arena, d->objs[l->a_port].local),
		 ir_name(d, l->b_dev),
		 str_of(d->arena, d->objs[l->b_port].local));
	return buf;
}

/* The note that shows how the length was made up. */
static void note_length(struct check_ctx *c, const struct rk_link *l,
			const struct cp_link *r)
{
	const struct rk_design *d = c->d;
	char b1[RK_QFMT_MAX], b2[RK_QFMT_MAX], b3[RK_QFMT_MAX];
	char b4[RK_QFMT_MAX];
	struct cable_run run;

	if (r->forced_length) {
		const struct rk_value *v = cableplan_link_attr(d, l, A_LENGTH);

		check_note(c, &v->loc, "length %s forced on the link",
			   check_qfmt(DIM_LENGTH, r->length, b1));
		return;
	}
	layout_cable_run(d, l->a_dev, l->b_dev, &run);
	if (run.same_rack) {
		check_note(c, &l->loc,
			   "length: %s vertical within the rack + %s slack = "
			   "%s",
			   check_qfmt(DIM_LENGTH, run.vertical, b1),
			   check_qfmt(DIM_LENGTH, run.slack, b2),
			   check_qfmt(DIM_LENGTH, run.total, b3));
	} else {
		check_note(c, &l->loc,
			   "length: %s vertical + %s horizontal + %s slack = "
			   "%s",
			   check_qfmt(DIM_LENGTH, run.vertical, b1),
			   check_qfmt(DIM_LENGTH, run.horizontal, b2),
			   check_qfmt(DIM_LENGTH, run.slack, b3),
			   check_qfmt(DIM_LENGTH, run.total, b4));
	}
}

/* The longest of a part's stock lengths, or -1. */
static int64_t longest_stock(const struct rk_design *d, uint32_t part)
{
	const struct rk_value *v = ir_attr_inh(d, part, A_LENGTHS);
	int64_t m = -1;

	if (!v || v->type != VT_LIST)
		return -1;
	for (uint32_t i = 0; i < (uint32_t)v->n; i++)
		if (ir_list_at(d, v, i)->n > m)
			m = ir_list_at(d, v, i)->n;
	return m;
}

/* "lengths 3m, 5m, 10m" of a part into @buf. */
static const char *lengths_str(const struct rk_design *d, uint32_t part,
			       char *buf, size_t n)
{
	const struct rk_value *v = ir_attr_inh(d, part, A_LENGTHS);
	size_t used = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; v && i < (uint32_t)v->n && used + 1 < n; i++) {
		char q[RK_QFMT_MAX];
		int w =
		    snprintf(buf + used, n - used, "%s%s", i ? ", " : "",
			     check_qfmt(DIM_LENGTH, ir_list_at(d, v, i)->n, q));

		if (w < 0)
			break;
		used += (size_t)w;
	}
	return buf;
}

static const struct srcloc *attr_loc(const struct rk_design *d, uint32_t part,
				     uint32_t key)
{
	const struct rk_value *v = ir_attr_inh(d, part, key);

	return v ? &v->loc : &d->objs[part].loc;
}

/* "the longest that fits otherwise" for a link no cable reaches. */
static void note_near(struct check_ctx *c, uint32_t part, int64_t len)
{
	const struct rk_design *d = c->d;
	int64_t reach = ir_num(d, part, A_REACH, -1);
	int64_t stock = longest_stock(d, part);
	const char *media = ir_str(d, part, A_MEDIA);
	char b1[RK_QFMT_MAX], b2[RK_QFMT_MAX];

	if (reach >= 0 && reach < len)
		check_note(c, attr_loc(d, part, A_REACH),
			   "longest reach that fits otherwise: %s (%s), "
			   "reach %s",
			   ir_name(d, part), media ? media : "no media",
			   check_qfmt(DIM_LENGTH, reach, b1));
	else if (stock >= 0 && stock < len)
		check_note(c, attr_loc(d, part, A_LENGTHS),
			   "longest that fits otherwise: %s (%s), reach %s, "
			   "sold up to %s",
			   ir_name(d, part), media ? media : "no media",
			   reach >= 0 ? check_qfmt(DIM_LENGTH, reach, b1)
				      : "unlimited",
			   check_qfmt(DIM_LENGTH, stock, b2));
	else
		check_note(c, &d->objs[part].loc,
			   "longest that fits otherwise: %s (%s), reach %s, "
			   "but the transceivers it needs reach less",
			   ir_name(d, part), media ? media : "no media",
			   reach >= 0 ? check_qfmt(DIM_LENGTH, reach, b1)
				      : "unlimited");
}

static void run_cable_reach(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct cable_plan *p = derived_cableplan(c->dv);
	char lb[1024], b1[RK_QFMT_MAX], b2[RK_QFMT_MAX], ls[512];
	int64_t speed;

	for (uint32_t i = 0; i < d->nlinks && !diag_stop(c->diag); i++) {
		const struct rk_link *l = &d->links[i];
		const struct cp_link *r = &p->links[i];
		const char *media =
		    r->media ? str_of(d->arena, r->media) : NULL;

		if (r->length < 0)
			continue;
		switch (r->status) {
		case CP_NO_FIT:
			if (check_link_waived(c, l))
				break;
			speed = metrics_link_rate(d, l);
			if (r->near != RK_NONE) {
				check_fail(
				    c, check_link_owner(l), &l->loc,
				    "no catalog %s%sreaches %s%s%s "
				    "for link %s",
				    media ? media : "",
				    media ? " cable " : "cable ",
				    check_qfmt(DIM_LENGTH, r->length, b1),
				    speed ? " at " : "",
				    speed ? check_qfmt(DIM_RATE, speed, b2)
					  : "",
				    link_str(d, l, lb));
				note_length(c, l, r);
				note_near(c, r->near, r->length);
			} else {
				check_fail(
				    c, check_link_owner(l), &l->loc,
				    "no catalog %s%sfits link %s%s%s",
				    media ? media : "",
				    media ? " cable " : "cable ",
				    link_str(d, l, lb), speed ? " at " : "",
				    speed ? check_qfmt(DIM_RATE, speed, b2)
					  : "");
				check_note(c, &d->objs[l->a_port].loc,
					   "no cable part matches the ports' "
					   "form, cage, top and speed, or the "
					   "transceivers they need");
			}
			break;
		case CP_TOO_SHORT:
			if (check_link_waived(c, l))
				break;
			check_qfmt2(DIM_LENGTH, ir_num(d, r->cable, A_REACH, 0),
				    r->length, b1, b2);
			check_fail(c, check_link_owner(l), &l->loc,
				   "cable %s reaches %s, but link %s needs %s",
				   ir_name(d, r->cable), b1, link_str(d, l, lb),
				   b2);
			note_length(c, l, r);
			check_note(c, attr_loc(d, r->cable, A_REACH),
				   "%s: reach %s", ir_name(d, r->cable), b1);
			break;
		case CP_NO_STOCK:
			if (check_link_waived(c, l))
				break;
			check_fail(c, check_link_owner(l), &l->loc,
				   "cable %s is sold up to %s, but link %s "
				   "needs %s",
				   ir_name(d, r->cable),
				   check_qfmt2(DIM_LENGTH,
					       longest_stock(d, r->cable),
					       r->length, b1, b2),
				   link_str(d, l, lb), b2);
			note_length(c, l, r);
			check_note(c, attr_loc(d, r->cable, A_LENGTHS),
				   "%s: lengths %s", ir_name(d, r->cable),
				   lengths_str(d, r->cable, ls, sizeof(ls)));
			break;
		default:
			break;
		}
	}
}

CHECK_DEFINE(cable_reach, "cable-reach", CHECK_ERROR,
	     "a catalog cable (and its optics) reaches every link's length",
	     run_cable_reach);

static void run_cable_length_unknown(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct cable_plan *p;
	char lb[1024];
	uint32_t k;

	for (k = 0; k < d->nobjs && d->objs[k].kind != K_RACK; k++)
		;
	if (k == d->nobjs)
		return;
	p = derived_cableplan(c->dv);
	for (uint32_t i = 0; i < d->nlinks && !diag_stop(c->diag); i++) {
		const struct rk_link *l = &d->links[i];
		const struct cp_link *r = &p->links[i];
		uint32_t dev;

		if (r->status == CP_NOT_CABLED || r->status == CP_NO_CATALOG ||
		    r->length >= 0 || check_link_waived(c, l))
			continue;
		dev = layout_rack_of(d, l->a_dev) == RK_NONE ? l->a_dev
							     : l->b_dev;
		check_fail(c, check_link_owner(l), &l->loc,
			   "cannot compute the length of link %s: %s is not "
			   "in a rack",
			   link_str(d, l, lb), ir_name(d, dev));
		check_note(c, &d->objs[dev].loc,
			   "%s is declared here without a rack; give the "
			   "link a length, or mount the device",
			   ir_name(d, dev));
	}
}

CHECK_DEFINE(cable_length_unknown, "cable-length-unknown", CHECK_WARN,
	     "every cabled link has a length (both ends in racks, or a "
	     "forced length)",
	     run_cable_length_unknown);

/*
 * An optical cable needs a transceiver at each end that fits the port
 * (form, cage, top, speed, media); without one the link cannot be built
 * and the bill of materials would silently lack the module.
 */
static void run_cable_transceiver(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	const struct cable_plan *p = derived_cableplan(c->dv);
	char lb[1024];

	for (uint32_t i = 0; i < d->nlinks && !diag_stop(c->diag); i++) {
		const struct rk_link *l = &d->links[i];
		const struct cp_link *r = &p->links[i];

		if (!r->xcvr_missing || check_link_waived(c, l))
			continue;
		for (int end = 0; end < 2; end++) {
			uint32_t port = end ? l->b_port : l->a_port;
			uint32_t dev = end ? l->b_dev : l->a_dev;
			const char *f = ir_str(d, port, A_FORM);
			const char *cg = ir_str(d, port, A_CAGE);
			const char *top = ir_str(d, port, A_TOP);
			char sp[RK_QFMT_MAX];
			struct quantity q = { DIM_RATE,
					      ir_num(d, port, A_SPEED, 0) };

			if (!(r->xcvr_missing & (1u << end)))
				continue;
			check_fail(c, check_link_owner(l), &l->loc,
				   "no catalog transceiver fits %s.%s for "
				   "link %s",
				   ir_name(d, dev),
				   str_of(d->arena, d->objs[port].local),
				   link_str(d, l, lb));
			check_note(
			    c, &d->objs[port].loc,
			    "the port: %s%s%s%s%s, %s; the cable: %s "
			    "(%s)",
			    f ? f : "no form", cg ? ", cage " : "",
			    cg ? cg : "", top ? ", top " : "", top ? top : "",
			    quantity_format(q, sp),
			    r->cable != RK_NONE ? ir_name(d, r->cable) : "none",
			    r->media ? str_of(d->arena, r->media) : "no media");
			break;
		}
	}
}

CHECK_DEFINE(cable_transceiver, "cable-transceiver", CHECK_ERROR,
	     "every optical link end has a catalog transceiver that fits",
	     run_cable_transceiver);
