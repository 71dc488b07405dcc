/* SPDX-License-Identifier: MIT */
/*
 * The requirements check: evaluates every `require` against the computed
 * metrics and reports a failed one at its location, with a note for every
 * metric it read.  Functions (each takes names as written in the design):
 *   bisection(F)       bisection / full bisection (the injection of the
 *                      smaller half of the endpoints), as a percentage
 *   bisection_bw(F)    bisection bandwidth        injection(F)  rate
 *   oversubscription(F) worst leaf down/up, as a percentage (100% = 1:1)
 *   tiers(F) switches(F) links(F) endpoints(F)   plain numbers
 *   power(RACK) heat(RACK)  max_rack_power() max_rack_heat()   power
 *   gpus() servers() racks()                     plain numbers
 */
#include "rackc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "metrics.h"
#include "schema.h"

enum rkind { R_NUM, R_BOOL, R_STR };

struct rval {
	enum rkind kind;
	enum dim dim;
	int64_t n;
	uint32_t s;
};

struct reval {
	struct check_ctx *c;
	const struct rk_req *req;
	bool failed; /* an evaluation error was reported */
	char notes[8][160];
	uint32_t nnotes;
};

static void rerror(struct reval *r, const struct srcloc *loc, const char *fmt,
		   ...) PRINTF(3, 4);
static void rerror(struct reval *r, const struct srcloc *loc, const char *fmt,
		   ...)
{
	char buf[512];
	va_list ap;

	if (r->failed)
		return;
	r->failed = true;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	check_fail(r->c, r->req->scope, loc, "%s", buf);
}

static void rnote(struct reval *r, const char *fmt, ...) PRINTF(2, 3);
static void rnote(struct reval *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nnotes == ARRAY_SIZE(r->notes))
		return;
	va_start(ap, fmt);
	vsnprintf(r->notes[r->nnotes++], sizeof(r->notes[0]), fmt, ap);
	va_end(ap);
}

/* Write a name expression (a, a.b[1]) as text; false if it is not one. */
static bool name_text(const struct arena *a, const struct ast *x, char *buf,
		      size_t n)
{
	char sub[512];
	int k;

	switch (x->kind) {
	case AST_IDENT:
		k = snprintf(buf, n, "%s", str_of(a, x->str));
		return k >= 0 && (size_t)k < n;
	case AST_MEMBER:
		if (!name_text(a, x->lhs, sub, sizeof(sub)))
			return false;
		k = snprintf(buf, n, "%s.%s", sub, str_of(a, x->str));
		return k >= 0 && (size_t)k < n;
	case AST_INDEX:
		if (!name_text(a, x->lhs, sub, sizeof(sub)) ||
		    x->rhs->kind != AST_NUM || x->rhs->num.dim != DIM_NONE)
			return false;
		k = snprintf(buf, n, "%s[%lld]", sub, (long long)x->rhs->num.v);
		return k >= 0 && (size_t)k < n;
	default:
		return false;
	}
}

static uint32_t find_obj(struct reval *r, const struct ast *x,
			 enum rk_kind want)
{
	const struct rk_design *d = r->c->d;
	char text[512], full[1100];
	uint32_t scope = r->req->scope;

	if (!name_text(d->arena, x, text, sizeof(text))) {
		rerror(r, &x->loc, "expected the name of a %s here",
		       rk_kind_name(want));
		return RK_NONE;
	}
	/* inside a group first, then the top level */
	for (;;) {
		uint32_t id, o;

		if (scope != RK_NONE)
			snprintf(full, sizeof(full), "%s.%s", ir_name(d, scope),
				 text);
		else
			snprintf(full, sizeof(full), "%s", text);
		id = intern_find(d->arena, full, strlen(full));
		o = id ? ir_find_name(d, id) : RK_NONE;
		if (o != RK_NONE && d->objs[o].kind == want)
			return o;
		if (scope == RK_NONE)
			break;
		scope = d->objs[scope].parent;
	}
	rerror(r, &x->loc, "no %s named '%s'", rk_kind_name(want), text);
	return RK_NONE;
}

static bool eval_r(struct reval *r, const struct ast *x, struct rval *out);

static bool call_r(struct reval *r, const struct ast *x, struct rval *out)
{
	const struct rk_design *d = r->c->d;
	const char *fn = str_of(d->arena, x->str);
	uint32_t argc = ast_list_len(x->list);
	char a[RK_QFMT_MAX], b[RK_QFMT_MAX];
	static const char *const fab_fns[] = {
		"bisection", "bisection_bw", "injection", "oversubscription",
		"tiers",     "switches",     "links",	  "endpoints",
	};

	memset(out, 0, sizeof(*out));
	out->kind = R_NUM;
	for (size_t i = 0; i < ARRAY_SIZE(fab_fns); i++) {
		const struct fabric_metrics *m;
		uint32_t f;

		if (!streq(fn, fab_fns[i]))
			continue;
		if (argc != 1) {
			rerror(r, &x->loc, "%s() takes one fabric", fn);
			return false;
		}
		f = find_obj(r, x->list, K_FABRIC);
		if (f == RK_NONE)
			return false;
		m = derived_fabric(r->c->dv, f);
		switch (i) {
		case 0:
			out->dim = DIM_RATIO;
			out->n =
			    m->full_bisection
				? (int64_t)((__int128)m->bisection *
					    RK_RATIO_ONE / m->full_bisection)
				: 0;
			check_qfmt(DIM_RATE, m->bisection, a);
			check_qfmt(DIM_RATE, m->full_bisection, b);
			rnote(r, "bisection(%s) = %s of %s full bisection (%s)",
			      ir_name(d, f), a, b,
			      bisect_method_name(m->method));
			break;
		case 1:
			out->dim = DIM_RATE;
			out->n = m->bisection;
			check_qfmt(DIM_RATE, m->bisection, a);
			rnote(r, "bisection_bw(%s) = %s (%s)", ir_name(d, f), a,
			      bisect_method_name(m->method));
			break;
		case 2:
			out->dim = DIM_RATE;
			out->n = m->injection;
			check_qfmt(DIM_RATE, m->injection, a);
			rnote(r, "injection(%s) = %s", ir_name(d, f), a);
			break;
		case 3:
			out->dim = DIM_RATIO;
			out->n =
			    m->leaf_worst_up
				? (int64_t)((__int128)m->leaf_worst_down *
					    RK_RATIO_ONE / m->leaf_worst_up)
				: 0;
			check_qfmt(DIM_RATE, m->leaf_worst_down, a);
			check_qfmt(DIM_RATE, m->leaf_worst_up, b);
			rnote(r,
			      "oversubscription(%s): worst leaf %s down, "
			      "%s up",
			      ir_name(d, f), a, b);
			break;
		default:
			out->n = i == 4	  ? m->tiers
				 : i == 5 ? m->switches
				 : i == 6 ? m->links
					  : m->endpoints;
			rnote(r, "%s(%s) = %lld", fn, ir_name(d, f),
			      (long long)out->n);
			break;
		}
		return true;
	}
	if (streq(fn, "power") || streq(fn, "heat")) {
		const struct rack_totals *t;
		uint32_t rk;

		if (argc != 1) {
			rerror(r, &x->loc, "%s() takes one rack", fn);
			return false;
		}
		rk = find_obj(r, x->list, K_RACK);
		if (rk == RK_NONE)
			return false;
		t = derived_racks(r->c->dv);
		out->dim = DIM_POWER;
		out->n = fn[0] == 'p' ? t->power[rk] : t->heat[rk];
		check_qfmt(DIM_POWER, out->n, a);
		rnote(r, "%s(%s) = %s", fn, ir_name(d, rk), a);
		return true;
	}
	if (streq(fn, "max_rack_power") || streq(fn, "max_rack_heat")) {
		const struct rack_totals *t = derived_racks(r->c->dv);
		uint32_t best = RK_NONE;

		out->dim = DIM_POWER;
		for (uint32_t i = 0; i < d->nobjs; i++) {
			int64_t v = fn[9] == 'p' ? t->power[i] : t->heat[i];

			if (d->objs[i].kind == K_RACK &&
			    (best == RK_NONE || v > out->n)) {
				best = i;
				out->n = v;
			}
		}
		if (best != RK_NONE) {
			check_qfmt(DIM_POWER, out->n, a);
			rnote(r, "%s() = %s (rack %s)", fn, a,
			      ir_name(d, best));
		}
		return true;
	}
	if (streq(fn, "gpus") || streq(fn, "servers") || streq(fn, "racks")) {
		if (fn[0] == 'g')
			out->n = design_gpu_count(d);
		for (uint32_t i = 0; fn[0] != 'g' && i < d->nobjs; i++) {
			const struct rk_obj *o = &d->objs[i];

			out->n += fn[0] == 'r' ? o->kind == K_RACK
					       : o->kind == K_DEVICE &&
						     o->cls == C_SERVER;
		}
		rnote(r, "%s() = %lld", fn, (long long)out->n);
		return true;
	}
	rerror(r, &x->wloc, "unknown function '%s' in require", fn);
	return false;
}

static bool eval_r(struct reval *r, const struct ast *x, struct rval *out)
{
	struct rval a, b;

	memset(out, 0, sizeof(*out));
	switch (x->kind) {
	case AST_NUM:
		out->kind = R_NUM;
		out->dim = x->num.dim;
		out->n = x->num.v;
		return true;
	case AST_RATIO:
		out->kind = R_NUM;
		out->dim = DIM_RATIO;
		out->n = (int64_t)((__int128)x->num.v * RK_RATIO_ONE / x->num2);
		return true;
	case AST_STR:
		out->kind = R_STR;
		out->s = x->str;
		return true;
	case AST_IDENT: {
		const char *w = str_of(r->c->d->arena, x->str);

		if (streq(w, "true") || streq(w, "false")) {
			out->kind = R_BOOL;
			out->n = w[0] == 't';
			return true;
		}
		rerror(r, &x->loc, "'%s' has no value in a require", w);
		return false;
	}
	case AST_CALL:
		return call_r(r, x, out);
	case AST_UNARY:
		if (!eval_r(r, x->lhs, &a))
			return false;
		if (x->op == OP_NOT && a.kind == R_BOOL) {
			out->kind = R_BOOL;
			out->n = !a.n;
			return true;
		}
		if (x->op == OP_NEG && a.kind == R_NUM && a.n != INT64_MIN) {
			*out = a;
			out->n = -a.n;
			return true;
		}
		break;
	case AST_BINARY:
		if (x->op == OP_AND || x->op == OP_OR) {
			if (!eval_r(r, x->lhs, &a) || !eval_r(r, x->rhs, &b))
				return false;
			if (a.kind != R_BOOL || b.kind != R_BOOL)
				break;
			out->kind = R_BOOL;
			out->n = x->op == OP_AND ? a.n && b.n : a.n || b.n;
			return true;
		}
		if (!eval_r(r, x->lhs, &a) || !eval_r(r, x->rhs, &b))
			return false;
		if (a.kind != R_NUM || b.kind != R_NUM)
			break;
		if (x->op >= OP_EQ && x->op <= OP_GE) {
			if (a.dim != b.dim) {
				rerror(r, &x->loc,
				       "cannot compare %s with %s in a require",
				       dim_name(a.dim), dim_name(b.dim));
				return false;
			}
			out->kind = R_BOOL;
			switch (x->op) {
			case OP_EQ:
				out->n = a.n == b.n;
				break;
			case OP_NE:
				out->n = a.n != b.n;
				break;
			case OP_LT:
				out->n = a.n < b.n;
				break;
			case OP_LE:
				out->n = a.n <= b.n;
				break;
			case OP_GT:
				out->n = a.n > b.n;
				break;
			default:
				out->n = a.n >= b.n;
				break;
			}
			return true;
		}
		if ((x->op == OP_ADD || x->op == OP_SUB) && a.dim == b.dim) {
			*out = a;
			if (!(x->op == OP_ADD ? q_add(a.n, b.n, &out->n)
					      : q_sub(a.n, b.n, &out->n))) {
				rerror(r, &x->loc, "arithmetic overflow");
				return false;
			}
			return true;
		}
		if (x->op == OP_MUL &&
		    (a.dim == DIM_NONE || b.dim == DIM_NONE)) {
			*out = a.dim == DIM_NONE ? b : a;
			if (!q_mul(a.n, b.n, &out->n)) {
				rerror(r, &x->loc, "arithmetic overflow");
				return false;
			}
			return true;
		}
		if (x->op == OP_DIV && b.dim == DIM_NONE && b.n) {
			*out = a;
			out->n = a.n / b.n;
			return true;
		}
		break;
	default:
		break;
	}
	rerror(r, &x->loc, "this expression cannot be evaluated in a require");
	return false;
}

static void run_require(struct check_ctx *c)
{
	const struct rk_design *d = c->d;

	for (uint32_t i = 0; i < d->nreqs; i++) {
		const struct rk_req *q = &d->reqs[i];
		const struct srcfile *f =
		    srcmgr_file(c->diag->sm, q->expr->loc.file);
		struct reval r;
		struct rval v;

		memset(&r, 0, sizeof(r));
		r.c = c;
		r.req = q;
		if (!eval_r(&r, q->expr, &v) || r.failed)
			continue;
		if (v.kind != R_BOOL) {
			rerror(&r, &q->expr->loc,
			       "a require needs a condition");
			continue;
		}
		if (v.n)
			continue;
		if (q->msg && q->msg->kind == AST_STR)
			check_fail(c, q->scope, &q->loc,
				   "requirement failed: %s",
				   str_of(d->arena, q->msg->str));
		else if (f)
			check_fail(c, q->scope, &q->loc,
				   "requirement failed: %.*s",
				   (int)(q->expr->loc.end - q->expr->loc.begin),
				   f->text + q->expr->loc.begin);
		else
			check_fail(c, q->scope, &q->loc, "requirement failed");
		for (uint32_t k = 0; k < r.nnotes; k++)
			check_note(c, &q->expr->loc, "%s", r.notes[k]);
	}
}

CHECK_DEFINE(require, "require", CHECK_ERROR,
	     "every require assertion of the design holds", run_require);
