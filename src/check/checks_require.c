/* SPDX-License-Identifier: MIT */
/*
 * The requirements check: evaluates every `require` against the computed
 * metrics and reports a failed one at its location, with a note for every
 * metric it read.  The expression goes through the language's evaluator
 * (eval.c), with the language's operators and functions; this file is its
 * host (struct eval_host), adding the functions below, and takes its
 * errors.  Functions (each takes names as written in the design):
 *   bisection(F)       bisection / full bisection (the injection of the
 *                      smaller half of the endpoints), an exact ratio, or
 *                      its bounds in millionths
 *   bisection_bw(F)    bisection bandwidth        injection(F)  rate
 *   node_bisection(F)  bisection(F) at the node level (the servers as
 *                      terminals, forwarding between their own ports)
 *   oversubscription(F) worst leaf down:up, an exact ratio (100% = 1:1)
 *   tiers(F) switches(F) links(F) endpoints(F)   plain numbers
 *   power(RACK) heat(RACK)  max_rack_power() max_rack_heat()   power
 *   total_power() total_heat()  the site's sums over every rack    power
 *   gpus() servers() racks()                     plain numbers
 */
#include "rackc.h"
#include "arith.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "elab.h"
#include "metrics.h"
#include "schema.h"

enum rkind { R_NUM, R_BOOL, R_STR };

/*
 * A number may be an interval [n, hi] (iv set): the bisection is an exact
 * value or a proven lower bound with the least cut found above it.  A
 * comparison is decided only when every value in the intervals gives the
 * same answer; otherwise the requirement fails as unproven.
 */
struct rval {
	enum rkind kind;
	enum dim dim;
	int64_t n;
	uint32_t s;
	bool iv; /* [n, hi] rather than n */
	int64_t hi;
	uint32_t fab; /* iv: the fabric whose bisection it is */
	int64_t den;  /* > 0: the exact ratio n:den (a DIM_RATIO figure) */
	bool node;    /* iv: at the node level */
};

struct reval {
	struct check_ctx *c;
	const struct rk_req *req;
	bool failed;	     /* an evaluation error was reported */
	bool unknown;	     /* call_r: not a function of the require check */
	uint32_t undecided;  /* fabric of a comparison its bounds cannot
			       decide (RK_NONE: none) */
	bool undecided_node; /* that fabric's node level */
	char notes[8][256];
	uint32_t nnotes;
};

/*
 * A figure in a requirement's notes: exact (quantity_format), since the
 * requirement compares it with a figure the design wrote, and a rounded
 * one could read as meeting it; the top of the range, where sums
 * saturate, as "at least" that figure.
 */
static const char *req_qfmt(enum dim dim, int64_t v, char *buf)
{
	struct quantity q = { dim, v };
	char tmp[RK_QFMT_MAX];

	if (v != INT64_MAX)
		return quantity_format(q, buf);
	snprintf(buf, RK_QFMT_MAX, "at least %s", quantity_format(q, tmp));
	return buf;
}

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

/*
 * bisection(F) (@ratio: over the full bisection, rounded down for the
 * lower end and up for the upper) or bisection_bw(F): the interval.
 */
static bool bisection_r(struct reval *r, const struct ast *x, uint32_t f,
			const struct fabric_metrics *m, bool ratio, bool node,
			struct rval *out)
{
	const struct rk_design *d = r->c->d;
	const char *pre = node ? "node_" : "";
	char a[RK_QFMT_MAX], b[RK_QFMT_MAX], c[RK_QFMT_MAX], how[240];

	if (m->method == BISECT_NONE) {
		rerror(r, &x->loc,
		       "fabric '%s' has %u endpoint device%s with links: it "
		       "has no bisection",
		       ir_name(d, f), m->devices, m->devices == 1 ? "" : "s");
		return false;
	}
	if (ratio && m->full_bisection <= 0) {
		rerror(r, &x->loc,
		       "fabric '%s' has no injection bandwidth: its bisection "
		       "has no share of it",
		       ir_name(d, f));
		return false;
	}
	metrics_bisection_method(m, how, sizeof(how));
	req_qfmt(DIM_RATE, m->bisection, a);
	req_qfmt(DIM_RATE, m->bisection_upper, c);
	req_qfmt(DIM_RATE, m->full_bisection, b);
	out->kind = R_NUM;
	out->dim = ratio ? DIM_RATIO : DIM_RATE;
	out->iv = m->bisection != m->bisection_upper;
	out->fab = f;
	out->node = node;
	if (ratio) {
		i128 hi = (i128)m->bisection_upper * RK_RATIO_ONE;

		out->n = (int64_t)((i128)m->bisection * RK_RATIO_ONE /
				   m->full_bisection);
		out->hi =
		    (int64_t)((hi + m->full_bisection - 1) / m->full_bisection);
	} else {
		out->n = m->bisection;
		out->hi = m->bisection_upper;
	}
	if (!out->iv)
		out->hi = out->n;
	if (!out->iv && ratio) { /* exact: bisection:full */
		out->n = m->bisection;
		out->den = m->full_bisection;
	}
	if (m->declared > m->endpoints) /* both figures on one basis */
		snprintf(how + strlen(how), sizeof(how) - strlen(how),
			 "; both over %u linked endpoint devices; %u of %u "
			 "listed ports unlinked",
			 m->devices, m->declared - m->endpoints, m->declared);
	if (!out->iv && ratio)
		rnote(r, "%sbisection(%s) = %s of %s full bisection (%s)", pre,
		      ir_name(d, f), a, b, how);
	else if (!out->iv)
		rnote(r, "bisection_bw(%s) = %s (%s)", ir_name(d, f), a, how);
	else
		rnote(r,
		      "%sbisection(%s) lies between %s and %s, of %s full "
		      "bisection (%s)",
		      pre, ir_name(d, f), a, c, b, how);
	return true;
}

/* A total past the 64-bit range (metrics.h): it has no figure to compare,
 * and the requirement fails. */
static bool out_of_range(struct reval *r, const struct ast *x, const char *fn,
			 const char *arg, const char *rack)
{
	rerror(r, &x->loc,
	       "%s(%s) exceeds the 64-bit range%s%s%s: it has no figure to "
	       "compare, so the requirement cannot hold",
	       fn, arg, rack ? " at rack '" : "", rack ? rack : "",
	       rack ? "'" : "");
	return false;
}

/* A rack's total with an unknown term (metrics.h): only a lower bound. */
static bool not_proven(struct reval *r, const struct ast *x, const char *fn,
		       const struct rack_totals *t, uint32_t rk, int64_t lower)
{
	const struct rk_design *d = r->c->d;
	uint32_t dev = t->unknown_by ? t->unknown_by[rk] : RK_NONE;
	char a[RK_QFMT_MAX];

	rerror(r, &x->loc,
	       "%s(%s) is not proven: rack '%s' holds '%s' (%s), whose "
	       "power_max is unknown, so the figure is only at least %s and "
	       "the requirement cannot hold",
	       fn, fn[0] == 'p' || fn[0] == 'h' ? ir_name(d, rk) : "",
	       ir_name(d, rk), dev != RK_NONE ? ir_name(d, dev) : "?",
	       dev != RK_NONE ? check_part_name(d, dev) : "?",
	       req_qfmt(DIM_POWER, lower, a));
	return false;
}

/* The functions of one fabric; fabric_fn() takes their index here. */
static const char *const fab_fns[] = {
	"bisection", "bisection_bw", "injection", "oversubscription", "tiers",
	"switches",  "links",	     "endpoints", "node_bisection",
};

/* fab_fns[@i](F): a figure of the fabric F, with its note */
static bool fabric_fn(struct reval *r, const struct ast *x, const char *fn,
		      size_t i, struct rval *out)
{
	const struct rk_design *d = r->c->d;
	char a[RK_QFMT_MAX], b[RK_QFMT_MAX];
	const struct fabric_metrics *m;
	uint32_t f;

	if (ast_list_len(x->list) != 1) {
		rerror(r, &x->loc, "%s() takes one fabric", fn);
		return false;
	}
	f = find_obj(r, x->list, K_FABRIC);
	if (f == RK_NONE)
		return false;
	m = derived_fabric(r->c->dv, f);
	switch (i) {
	case 0:
	case 1:
		return bisection_r(r, x, f, m, i == 0, false, out);
	case 8: {
		struct fabric_metrics n;

		metrics_node_view(m, &n);
		return bisection_r(r, x, f, &n, true, true, out);
	}
	case 2:
		out->dim = DIM_RATE;
		out->n = m->injection;
		req_qfmt(DIM_RATE, m->injection, a);
		rnote(r, "injection(%s) = %s", ir_name(d, f), a);
		break;
	case 3:
		out->dim = DIM_RATIO;
		if (m->leaf_worst_up) { /* exact: down:up */
			out->n = m->leaf_worst_down;
			out->den = m->leaf_worst_up;
		}
		req_qfmt(DIM_RATE, m->leaf_worst_down, a);
		req_qfmt(DIM_RATE, m->leaf_worst_up, b);
		rnote(r, "oversubscription(%s): worst leaf %s down, %s up",
		      ir_name(d, f), a, b);
		break;
	default:
		out->n = i == 4	  ? m->tiers
			 : i == 5 ? m->switches
			 : i == 6 ? m->links
				  : m->endpoints;
		rnote(r, "%s(%s) = %lld", fn, ir_name(d, f), (long long)out->n);
		break;
	}
	return true;
}

/* power(RACK), heat(RACK) */
static bool rack_fn(struct reval *r, const struct ast *x, const char *fn,
		    struct rval *out)
{
	const struct rk_design *d = r->c->d;
	unsigned what = fn[0] == 'p' ? TOTAL_POWER : TOTAL_HEAT;
	const struct rack_totals *t;
	char a[RK_QFMT_MAX];
	uint32_t rk;

	if (ast_list_len(x->list) != 1) {
		rerror(r, &x->loc, "%s() takes one rack", fn);
		return false;
	}
	rk = find_obj(r, x->list, K_RACK);
	if (rk == RK_NONE)
		return false;
	t = derived_racks(r->c->dv);
	if (rack_total_over(t, rk) & what)
		return out_of_range(r, x, fn, ir_name(d, rk), NULL);
	if (rack_total_unknown(t, rk) & what)
		return not_proven(r, x, fn, t, rk,
				  fn[0] == 'p' ? t->power[rk] : t->heat[rk]);
	out->dim = DIM_POWER;
	out->n = fn[0] == 'p' ? t->power[rk] : t->heat[rk];
	req_qfmt(DIM_POWER, out->n, a);
	rnote(r, "%s(%s) = %s", fn, ir_name(d, rk), a);
	return true;
}

/* max_rack_power(), max_rack_heat(): the greatest rack's */
static bool max_rack_fn(struct reval *r, const struct ast *x, const char *fn,
			struct rval *out)
{
	const struct rk_design *d = r->c->d;
	const struct rack_totals *t = derived_racks(r->c->dv);
	unsigned what = fn[9] == 'p' ? TOTAL_POWER : TOTAL_HEAT;
	char a[RK_QFMT_MAX];
	uint32_t best = RK_NONE;

	out->dim = DIM_POWER;
	for (uint32_t i = 0; i < d->nobjs; i++) {
		int64_t v = fn[9] == 'p' ? t->power[i] : t->heat[i];

		if (d->objs[i].kind != K_RACK)
			continue;
		if (rack_total_over(t, i) & what)
			return out_of_range(r, x, fn, "", ir_name(d, i));
		if (rack_total_unknown(t, i) & what)
			return not_proven(r, x, fn, t, i, v);
		if (best == RK_NONE || v > out->n) {
			best = i;
			out->n = v;
		}
	}
	if (best != RK_NONE) {
		req_qfmt(DIM_POWER, out->n, a);
		rnote(r, "%s() = %s (rack %s)", fn, a, ir_name(d, best));
	}
	return true;
}

/* total_power(), total_heat(): the site's sums over every rack */
static bool total_fn(struct reval *r, const struct ast *x, const char *fn,
		     struct rval *out)
{
	const struct rk_design *d = r->c->d;
	const struct rack_totals *t = derived_racks(r->c->dv);
	bool pw = fn[6] == 'p';
	unsigned what = pw ? TOTAL_POWER : TOTAL_HEAT;
	char a[RK_QFMT_MAX];

	if (ast_list_len(x->list) != 0) {
		rerror(r, &x->loc, "%s() takes no arguments", fn);
		return false;
	}
	if (t->site_over & what)
		return out_of_range(r, x, fn, "", NULL);
	for (uint32_t i = 0; (t->site_unknown & what) && i < d->nobjs; i++)
		if (d->objs[i].kind == K_RACK &&
		    (rack_total_unknown(t, i) & what))
			return not_proven(r, x, fn, t, i,
					  pw ? t->site_power : t->site_heat);
	out->dim = DIM_POWER;
	out->n = pw ? t->site_power : t->site_heat;
	req_qfmt(DIM_POWER, out->n, a);
	rnote(r, "%s() = %s", fn, a);
	return true;
}

/* gpus(), servers(), racks() */
static bool count_fn(struct reval *r, const char *fn, struct rval *out)
{
	const struct rk_design *d = r->c->d;

	if (fn[0] == 'g')
		out->n = metrics_gpu_count(d);
	for (uint32_t i = 0; fn[0] != 'g' && i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];

		out->n += fn[0] == 'r'
			      ? o->kind == K_RACK
			      : o->kind == K_DEVICE && o->cls == C_SERVER;
	}
	rnote(r, "%s() = %lld", fn, (long long)out->n);
	return true;
}

static bool call_r(struct reval *r, const struct ast *x, struct rval *out)
{
	const char *fn = str_of(r->c->d->arena, x->str);

	memset(out, 0, sizeof(*out));
	out->kind = R_NUM;
	for (size_t i = 0; i < ARRAY_SIZE(fab_fns); i++)
		if (streq(fn, fab_fns[i]))
			return fabric_fn(r, x, fn, i, out);
	if (streq(fn, "power") || streq(fn, "heat"))
		return rack_fn(r, x, fn, out);
	if (streq(fn, "max_rack_power") || streq(fn, "max_rack_heat"))
		return max_rack_fn(r, x, fn, out);
	if (streq(fn, "total_power") || streq(fn, "total_heat"))
		return total_fn(r, x, fn, out);
	if (streq(fn, "gpus") || streq(fn, "servers") || streq(fn, "racks"))
		return count_fn(r, fn, out);
	r->unknown = true; /* the evaluator says so */
	return false;
}

/* The names call_r knows, for the evaluator's suggestions. */
static const char *const req_fn_names[] = {
	"bisection",
	"bisection_bw",
	"injection",
	"oversubscription",
	"tiers",
	"switches",
	"links",
	"endpoints",
	"power",
	"heat",
	"max_rack_power",
	"max_rack_heat",
	"total_power",
	"total_heat",
	"gpus",
	"servers",
	"racks",
	"node_bisection",
	NULL,
};

/* eval_host: a function of the require check, as an evaluator value. */
static bool req_call(void *ctx, struct elab *e, const struct ast *x,
		     struct val *out, bool *ok)
{
	struct reval *r = ctx;
	struct rval v;

	(void)e;
	r->unknown = false;
	*ok = call_r(r, x, &v);
	if (r->unknown)
		return false;
	memset(out, 0, sizeof(*out));
	out->loc = x->loc;
	if (!*ok)
		return true;
	if (v.den > 0) {
		out->kind = V_RATIO;
		out->n = v.n;
		out->n2 = v.den;
		return true;
	}
	out->kind = V_NUM;
	out->dim = v.dim;
	out->n = v.n;
	if (v.iv) { /* bounded (elab.h): the node level's past the objects */
		out->n2 = v.hi;
		out->count = v.fab + 1 + (v.node ? r->c->d->nobjs : 0);
	}
	return true;
}

/* eval_host: the evaluator's errors are the requirement's (the first). */
static void req_error(void *ctx, const struct srcloc *loc, const char *msg)
{
	rerror(ctx, loc, "%s", msg);
}

/*
 * A requirement its bounds cannot decide: it fails, naming the interval,
 * how each bound was found and the split that cuts the upper one.
 */
static void unproven(struct check_ctx *c, const struct rk_req *q,
		     struct reval *r)
{
	const struct rk_design *d = c->d;
	const struct fabric_metrics *m = derived_fabric(c->dv, r->undecided);
	struct fabric_metrics node;
	char a[RK_QFMT_MAX], b[RK_QFMT_MAX];

	if (r->undecided_node) {
		metrics_node_view(m, &node);
		m = &node;
	}

	req_qfmt(DIM_RATE, m->bisection, a);
	req_qfmt(DIM_RATE, m->bisection_upper, b);
	check_fail(c, q->scope, &q->loc,
		   "requirement not proven: the %sbisection of '%s' lies "
		   "between %s and %s",
		   r->undecided_node ? "node " : "", ir_name(d, r->undecided),
		   a, b);
	for (uint32_t k = 0; k < r->nnotes; k++)
		check_note(c, &q->expr->loc, "%s", r->notes[k]);
	for (int s = 1; s <= 2; s++) {
		char list[400];
		size_t len = 0;
		uint32_t shown = 0, total = 0;

		for (uint32_t k = 0; k < m->devices; k++) {
			char name[200];

			if (m->witness[k] != s)
				continue;
			total++;
			if (shown == 4)
				continue;
			metrics_device_name(d, m, k, name, sizeof(name));
			len +=
			    (size_t)snprintf(list + len, sizeof(list) - len,
					     "%s%s", shown ? ", " : "", name);
			if (len >= sizeof(list))
				len = sizeof(list) - 1;
			shown++;
		}
		check_note(c, &q->expr->loc,
			   "a split cutting %s, side %c (%u devices): %s%s", b,
			   s == 1 ? 'A' : 'B', total, list,
			   total > shown
			       ? ", ... (rackc --explain lists them all)"
			       : "");
	}
}

static void run_require(struct check_ctx *c)
{
	const struct rk_design *d = c->d;
	struct reval r;
	const struct eval_host host = { req_call, req_error, req_fn_names, &r };
	struct elab ev;
	struct arena vals;

	/* the evaluator outside elaboration: it reads the design's strings
	 * (never writes them: eval_host) and builds its values in an arena
	 * of its own, emptied after each requirement (the check's holds
	 * what the diagnostics keep) */
	arena_init(&vals);
	memset(&ev, 0, sizeof(ev));
	ev.host = &host;
	ev.a = (struct arena *)(uintptr_t)d->arena;
	ev.va = &vals;
	ev.d = (struct rk_design *)(uintptr_t)d;
	ev.w_true = intern_find(d->arena, "true", 4);
	ev.w_false = intern_find(d->arena, "false", 5);
	for (uint32_t i = 0; i < d->nreqs; i++) {
		const struct rk_req *q = &d->reqs[i];
		const struct srcfile *f =
		    srcmgr_file(c->diag->sm, q->expr->loc.file);
		struct arena_mark mark = arena_mark(&vals);
		struct val v;
		bool ok;

		memset(&r, 0, sizeof(r));
		r.c = c;
		r.req = q;
		r.undecided = RK_NONE;
		ev.nlive = 0;
		ok = eval_expr(&ev, q->expr, &v) && !r.failed;
		arena_release(&vals, &mark);
		if (!ok)
			continue;
		if (v.kind != V_BOOL) {
			rerror(&r, &q->expr->loc,
			       "a require needs a condition");
			continue;
		}
		if (v.n)
			continue;
		if (val_bounded(&v)) { /* undecided: not proven */
			r.undecided = val_bounded(&v) - 1;
			r.undecided_node = r.undecided >= d->nobjs;
			if (r.undecided_node)
				r.undecided -= d->nobjs;
			unproven(c, q, &r);
			continue;
		}
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
	arena_destroy(&vals);
}

CHECK_DEFINE(require, "require", CHECK_ERROR,
	     "every require assertion of the design holds", run_require);
