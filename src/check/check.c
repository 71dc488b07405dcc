/* SPDX-License-Identifier: MIT */
/*
 * The helpers a check calls while it runs (check.h): findings and notes
 * with "[name]", waivers, prerequisites' skipped objects, coverage, and
 * attribute and quantity reading.  A leaf of the checks: the runner and
 * the table are in check_run.c.
 */
#include "rackc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "checks.h"
#include "context.h"
#include "loads.h"
#include "metrics.h"
#include "schema.h"
#include "suggest.h"
#include "units.h"

/*
 * Is there a waiver for check @name on @obj or an object enclosing it?
 * Marked used when @mark.
 */
static bool waived_by(struct check_ctx *c, uint32_t obj, const char *name,
		      bool mark)
{
	const struct rk_design *d = c->d;
	uint32_t hops = 0;

	while (obj != RK_NONE && hops++ < 256) {
		const struct rk_obj *o = &d->objs[obj];

		for (uint32_t k = 0; k < o->attr_count; k++) {
			const struct rk_attr *at = &d->attrs[o->attr_first + k];

			if (at->key != A_WAIVE)
				continue;
			if (streq(str_of(d->arena, d->vals[at->val.a].a),
				  name)) {
				if (mark)
					c->used_waivers[o->attr_first + k] = 1;
				return true;
			}
		}
		if (o->kind == K_DEVICE) {
			const struct rk_value *r = ir_attr(d, obj, A_RACK);

			if (r && r->type == VT_OBJ && o->parent == RK_NONE) {
				obj = r->a;
				continue;
			}
		}
		obj = o->parent;
	}
	return false;
}

static bool waived(struct check_ctx *c, uint32_t obj)
{
	return waived_by(c, obj, c->check->name, true);
}

bool check_waived(struct check_ctx *c, uint32_t obj)
{
	return obj != RK_NONE && waived(c, obj);
}

bool check_waived_for(struct check_ctx *c, uint32_t obj, const struct check *by)
{
	return obj != RK_NONE && waived_by(c, obj, by->name, false);
}

bool check_skipped(const struct check_ctx *c, uint32_t obj)
{
	return c->skip && obj != RK_NONE && obj < c->d->nobjs && c->skip[obj];
}

void check_skip_add(struct check_ctx *c, uint32_t obj)
{
	if (c->skip && obj != RK_NONE && obj < c->d->nobjs)
		c->skip[obj] = 1;
}

void check_touch(struct check_ctx *c, uint32_t obj)
{
	if (obj == RK_NONE || obj >= c->d->nobjs) {
		c->found_global = true;
		return;
	}
	if (!c->found)
		c->found = xcalloc(c->d->nobjs + 1, 1);
	c->found[obj] = 1;
}

void check_figure(struct check_ctx *c, const char *name, enum dim dim,
		  int64_t v, char bound)
{
	size_t room = sizeof(c->figs) - c->nfigs;
	int n;

	if (v == INT64_MAX) /* a saturated sum (check_sat): no figure */
		return;
	n = snprintf(c->figs + c->nfigs, room, "%s:%c:%d:%lld;", name, bound,
		     (int)dim, (long long)v);

	if (n > 0 && (size_t)n < room)
		c->nfigs += (uint32_t)n;
	else
		c->figs[c->nfigs] = '\0'; /* dropped */
}

void check_fail(struct check_ctx *c, uint32_t obj, const struct srcloc *loc,
		const char *fmt, ...)
{
	va_list ap;
	bool *printed = &c->last_printed;
	bool figs = c->nfigs != 0;

	c->nfigs = 0; /* the figures are this finding's only */
	if (check_stop(c) || check_skipped(c, obj)) {
		*printed = false;
		return;
	}
	if (obj != RK_NONE && waived(c, obj)) {
		c->waived++;
		*printed = false;
		return;
	}
	if (figs)
		c->diag->figures = c->figs;
	c->findings++;
	*printed = true;
	check_touch(c, obj);
	if (obj != RK_NONE)
		c->diag->object = ir_name(c->d, obj); /* SARIF */
	va_start(ap, fmt);
	diag_vemit(c->diag, c->level == CHECK_ERROR ? DIAG_ERROR : DIAG_WARNING,
		   loc, c->check->name, fmt, ap);
	va_end(ap);
}

uint32_t check_link_owner(const struct rk_link *l)
{
	return l->fabric != RK_NONE ? l->fabric : l->scope;
}

bool check_link_waived(struct check_ctx *c, const struct rk_link *l)
{
	const struct rk_design *d = c->d;

	for (uint32_t k = 0; k < l->attr_count; k++) {
		uint32_t ai = l->attr_first + k;
		const struct rk_attr *at = &d->attrs[ai];

		if (at->key != A_WAIVE)
			continue;
		if (streq(str_of(d->arena, d->vals[at->val.a].a),
			  c->check->name)) {
			c->used_waivers[ai] = 1;
			c->waived++;
			c->last_printed = false;
			return true;
		}
	}
	return false;
}

struct check_mark check_cover_begin(const struct check_ctx *c)
{
	struct check_mark m = { c->findings, c->waived };

	return m;
}

static void cover_add(struct check_coverage *cv, uint32_t obj,
		      enum cover_outcome o)
{
	struct cover_verdict *v =
	    VEC_PUSH(cv->verdicts, cv->nverdicts, cv->vcap);

	v->obj = obj;
	v->outcome = o;
	cv->tracked = true;
	switch (o) {
	case COVER_PROVED:
		cv->proved++;
		break;
	case COVER_UNKNOWN:
		cv->unknown++;
		break;
	case COVER_WAIVED:
		cv->waived++;
		break;
	case COVER_PREREQ:
		cv->prereq++;
		break;
	}
}

void check_cover(struct check_ctx *c, uint32_t obj, struct check_mark m,
		 bool unknown)
{
	struct check_coverage *cv = c->cover;

	if (!cv)
		return;
	if (check_skipped(c, obj))
		cover_add(cv, obj, COVER_PREREQ);
	else if (c->waived > m.waived)
		cover_add(cv, obj, COVER_WAIVED);
	else if (c->findings > m.findings || !unknown)
		cover_add(cv, obj, COVER_PROVED);
	else
		cover_add(cv, obj, COVER_UNKNOWN);
}

void check_cover_figure(struct check_ctx *c, uint32_t obj, struct check_mark m,
			bool waived)
{
	struct check_coverage *cv = c->cover;

	if (!cv)
		return;
	if (!waived || check_skipped(c, obj) || c->findings > m.findings ||
	    c->waived > m.waived) {
		check_cover(c, obj, m, true);
		return;
	}
	cover_add(cv, obj, COVER_WAIVED);
}

void check_note(struct check_ctx *c, const struct srcloc *loc, const char *fmt,
		...)
{
	va_list ap;

	if (!c->last_printed)
		return;
	va_start(ap, fmt);
	diag_vemit(c->diag, DIAG_NOTE, loc, NULL, fmt, ap);
	va_end(ap);
}

/* What the memo holds for "no such attribute". */
static const struct rk_value memo_none;

const struct rk_value *check_inh(struct check_ctx *c, uint32_t obj,
				 uint32_t key)
{
	const struct rk_value **m = c->memo[key];

	if (!m)
		m = c->memo[key] = xcalloc((size_t)c->d->nobjs + 1, sizeof(*m));
	if (!m[obj]) {
		const struct rk_value *v = ir_attr_inh(c->d, obj, key);

		m[obj] = v ? v : &memo_none;
	}
	return m[obj] == &memo_none ? NULL : m[obj];
}

const char *check_str(struct check_ctx *c, uint32_t obj, uint32_t key)
{
	const struct rk_value *v = check_inh(c, obj, key);

	return v && (v->type == VT_STR || v->type == VT_WORD)
		   ? str_of(c->d->arena, v->a)
		   : NULL;
}

int64_t check_num(struct check_ctx *c, uint32_t obj, uint32_t key, int64_t dflt)
{
	const struct rk_value *v = check_inh(c, obj, key);

	return v && (v->type == VT_NUM || v->type == VT_BOOL) ? v->n : dflt;
}

const char *check_qfmt(enum dim dim, int64_t v, char *buf)
{
	struct quantity q = { dim, v };
	char tmp[RK_QFMT_MAX];

	/* the checks' sums saturate there (check_sat, rack_totals): a
	 * figure at the top of the range is a lower bound, and says so */
	if (v != INT64_MAX)
		return quantity_human(q, buf);
	snprintf(buf, RK_QFMT_MAX, "at least %s", quantity_format(q, tmp));
	return buf;
}

const char *check_qfmt2(enum dim dim, int64_t a, int64_t b, char *ba, char *bb)
{
	if (a == INT64_MAX || b == INT64_MAX) {
		check_qfmt(dim, a, ba);
		check_qfmt(dim, b, bb);
		return ba;
	}
	quantity_human_pair((struct quantity){ dim, a },
			    (struct quantity){ dim, b }, ba, bb);
	return ba;
}

int64_t check_num0(const struct rk_design *d, uint32_t obj, uint32_t key)
{
	int64_t v = ir_num(d, obj, key, 0);

	return v > 0 ? v : 0;
}

const char *check_group_who(const struct rk_design *d, uint32_t first,
			    uint32_t count, char *buf, size_t n)
{
	if (count == 1)
		snprintf(buf, n, "%s (%s)", ir_name(d, first),
			 check_part_name(d, first));
	else
		snprintf(buf, n, "%u x %s", count, check_part_name(d, first));
	return buf;
}

const char *check_part_name(const struct rk_design *d, uint32_t obj)
{
	uint32_t p = ir_part_of(d, obj);

	return p != RK_NONE ? ir_name(d, p) : "?";
}
