/* SPDX-License-Identifier: MIT */
/*
 * Expression evaluation during elaboration: exact integer arithmetic with
 * dimension checking, ranges, lists, and paths (names with indices, ranges
 * and wildcards).  Every failure is reported at the sub-expression that
 * caused it and makes eval_expr() return false; callers skip the statement.
 *
 * The require check evaluates its expressions here too, after the design
 * is built (struct eval_host): with the functions it adds (bisection(),
 * power(), ...), and figures known only within bounds, which compare to
 * true, false or undecided (elab.h).  Arithmetic is checked everywhere;
 * && and || evaluate their right side only when the left does not decide.
 */
#include "rackc.h"
#include "arith.h"

#include <stdio.h>
#include <stdlib.h>

#include "elab.h"
#include "parse.h"
#include "suggest.h"

static uint32_t vhash(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x45d9f3bU;
	x ^= x >> 16;
	return x;
}

static uint32_t vmap_find(const struct elab *e, uint32_t name)
{
	if (!e->vmap_cap)
		return RK_NONE;
	for (uint32_t i = vhash(name) & (e->vmap_cap - 1);
	     e->vmap[2 * i] != RK_NONE; i = (i + 1) & (e->vmap_cap - 1))
		if (e->vmap[2 * i] == name)
			return e->vmap[2 * i + 1];
	return RK_NONE;
}

uint32_t *eval_vmap_slot(struct elab *e, uint32_t name)
{
	uint32_t i;

	if ((e->vmap_count + 1) * 2 > e->vmap_cap) {
		uint32_t ncap = e->vmap_cap ? e->vmap_cap * 2 : 256;
		uint32_t *t = xmalloc((size_t)ncap * 2 * sizeof(*t));

		memset(t, 0xff, (size_t)ncap * 2 * sizeof(*t));
		for (uint32_t k = 0; k < e->vmap_cap; k++) {
			if (e->vmap[2 * k] == RK_NONE)
				continue;
			for (i = vhash(e->vmap[2 * k]) & (ncap - 1);
			     t[2 * i] != RK_NONE; i = (i + 1) & (ncap - 1))
				;
			t[2 * i] = e->vmap[2 * k];
			t[2 * i + 1] = e->vmap[2 * k + 1];
		}
		free(e->vmap);
		e->vmap = t;
		e->vmap_cap = ncap;
	}
	for (i = vhash(name) & (e->vmap_cap - 1); e->vmap[2 * i] != RK_NONE;
	     i = (i + 1) & (e->vmap_cap - 1))
		if (e->vmap[2 * i] == name)
			return &e->vmap[2 * i + 1];
	e->vmap[2 * i] = name;
	e->vmap_count++;
	return &e->vmap[2 * i + 1];
}

void eval_vars_truncate(struct elab *e, uint32_t n)
{
	while (e->nvars > n) {
		const struct var *v = &e->vars[--e->nvars];

		*eval_vmap_slot(e, v->name) = v->prev;
	}
}

/*
 * The newest visible variable: in the current frame, or a file-level one
 * (frames in between belong to the callers of a module or part body).
 * O(1) through the name map, following the chain of hidden variables.
 */
const struct var *eval_var_find(const struct elab *e, uint32_t name)
{
	for (uint32_t i = vmap_find(e, name); i != RK_NONE; i = e->vars[i].prev)
		if (i >= e->frame || i < e->nglobals)
			return &e->vars[i];
	return NULL;
}

void eval_var_push(struct elab *e, uint32_t name, const struct val *v,
		   const struct srcloc *loc)
{
	uint32_t *slot = eval_vmap_slot(e, name);
	uint32_t idx = e->nvars;
	struct var *x = VEC_PUSH(e->vars, e->nvars, e->vars_cap);

	x->name = name;
	x->v = *v;
	x->loc = *loc;
	x->param = false;
	x->prev = *slot;
	*slot = idx;
}

const char *eval_val_kind_name(const struct val *v)
{
	switch (v->kind) {
	case V_NUM:
		switch (v->dim) {
		case DIM_NONE:
			return "a number";
		case DIM_POWER:
			return "a power";
		case DIM_LENGTH:
			return "a length";
		case DIM_MASS:
			return "a mass";
		case DIM_RATE:
			return "a data rate";
		case DIM_BYTES:
			return "a size in bytes";
		case DIM_CURRENT:
			return "a current";
		case DIM_VOLTAGE:
			return "a voltage";
		case DIM_TEMP:
			return "a temperature";
		case DIM_FLOW:
			return "a flow";
		case DIM_RACKU:
			return "rack units";
		case DIM_MONEY:
			return "a price";
		case DIM_FLOPS:
			return "a compute rate";
		case DIM_TIME:
			return "a time";
		default:
			return "a ratio";
		}
	case V_BOOL:
		return "a boolean";
	case V_STR:
		return "a string";
	case V_RATIO:
		return "a ratio";
	case V_RANGE:
		return "a range";
	case V_LIST:
		return "a list";
	case V_PAIR:
		return "a '->' pair";
	case V_LINK:
		return "a '--' link";
	case V_PATH:
		return "a name";
	default:
		return "nothing";
	}
}

/* "a power", "a length": article + dimension for messages. */
static const char *dim_phrase(struct elab *e, const struct val *v)
{
	if (v->kind == V_RATIO)
		return "a ratio";
	if (v->kind != V_NUM)
		return eval_val_kind_name(v);
	(void)e;
	if (v->dim == DIM_NONE)
		return "a plain number";
	return eval_val_kind_name(v);
}

static bool eval_x(struct elab *e, const struct ast *x, struct val *out);
static bool whole(struct elab *e, const struct ast *x, struct val *v);
static bool eval_format(struct elab *e, const struct ast *x, struct val *out);

struct val_mark eval_val_mark(const struct elab *e)
{
	struct val_mark m = { arena_mark(e->va), e->nlive };

	return m;
}

void eval_val_release(struct elab *e, const struct val_mark *m)
{
	arena_release(e->va, &m->m);
	e->nlive = m->nlive;
}

struct val *eval_val_items(struct elab *e, uint32_t n, const struct srcloc *loc)
{
	if (e->stopped)
		return NULL;
	if (e->nlive + n > RK_MAX_VALUES) {
		elab_error(e, loc, "limit",
			   "list values hold more than %u elements (the size "
			   "limit)",
			   RK_MAX_VALUES);
		e->stopped = true;
		return NULL;
	}
	e->nlive += n;
	/* an empty list takes no room (its items are never read) */
	return arena_alloc(e->va, n * sizeof(struct val));
}

static bool overflow(struct elab *e, const struct ast *x)
{
	elab_error(e, &x->loc, "overflow",
		   "arithmetic overflow (quantities are 64-bit integers in "
		   "base units)");
	return false;
}

static void set_num(struct val *out, enum dim dim, int64_t v,
		    const struct srcloc *loc)
{
	memset(out, 0, sizeof(*out));
	out->kind = V_NUM;
	out->dim = dim;
	out->n = v;
	out->loc = *loc;
}

/*
 * Exact quotients.  Division is exact within an expression: a number is
 * n / den base units (struct val), kept in lowest terms with numerator and
 * denominator each within 64 bits (past that, an overflow error); a value
 * that leaves the expression (eval_expr()) must be a whole number of base
 * units, or it is an error that says how to round it.
 */
struct rat {
	int64_t n, d; /* d > 0 */
};

static struct rat rat_of(const struct val *v)
{
	struct rat r = { v->n, v->kind == V_NUM && v->den > 1 ? v->den : 1 };

	return r;
}

/* n / d (d != 0) in lowest terms; false when a term passes 64 bits. */
static bool rat_make(i128 n, i128 d, struct rat *r)
{
	i128 g;

	if (d < 0) {
		n = -n;
		d = -d;
	}
	g = arith_gcd128(n, d);
	if (g > 1) {
		n /= g;
		d /= g;
	}
	if (n > INT64_MAX || n < INT64_MIN || d > INT64_MAX)
		return false;
	r->n = (int64_t)n;
	r->d = (int64_t)d;
	return true;
}

static bool rat_add(struct rat a, struct rat b, bool sub, struct rat *r)
{
	i128 x = (i128)a.n * b.d, y = (i128)b.n * a.d;

	return rat_make(sub ? x - y : x + y, (i128)a.d * b.d, r);
}

static bool rat_mul(struct rat a, struct rat b, struct rat *r)
{
	/* cross-reduced first, so a product that fits is found */
	i128 g1 = arith_gcd128(a.n, b.d), g2 = arith_gcd128(b.n, a.d);

	if (!g1)
		g1 = 1;
	if (!g2)
		g2 = 1;
	return rat_make((i128)(a.n / g1) * (b.n / g2),
			(i128)(a.d / g2) * (b.d / g1), r);
}

/* a / b, b != 0 */
static bool rat_div(struct rat a, struct rat b, struct rat *r)
{
	struct rat inv = { b.d, b.n };

	if (inv.d < 0) {
		if (inv.n == INT64_MIN || inv.d == INT64_MIN)
			return false;
		inv.n = -inv.n;
		inv.d = -inv.d;
	}
	return rat_mul(a, inv, r);
}

/* floor, ceiling or rounding (half away from zero) of n / d, d > 0 */
static int64_t rat_floor(struct rat a)
{
	int64_t q = a.n / a.d;

	return a.n % a.d && a.n < 0 ? q - 1 : q;
}

static int64_t rat_ceil(struct rat a)
{
	int64_t q = a.n / a.d;

	return a.n % a.d && a.n > 0 ? q + 1 : q;
}

static int64_t rat_round(struct rat a)
{
	int64_t q = a.n / a.d, rem = a.n % a.d;

	/* |rem| / d >= 1/2 rounds away from zero */
	if ((i128)(rem < 0 ? -rem : rem) * 2 >= a.d)
		q += a.n < 0 ? -1 : 1;
	return q;
}

static void set_rat(struct val *out, enum dim dim, struct rat r,
		    const struct srcloc *loc)
{
	set_num(out, dim, r.n, loc);
	out->den = r.d > 1 ? r.d : 0;
}

/* The upper end of a number (itself unless it is bounded). */
static int64_t num_hi(const struct val *v)
{
	return val_bounded(v) ? v->n2 : v->n;
}

/*
 * A ratio a:b as a number in millionths, where arithmetic needs one:
 * exactly (a * 10^6 / b, a quotient when it is not whole), or an error at
 * the ratio past the 64-bit range (a comparison takes the ratio exactly,
 * and needs neither).
 */
static bool ratio_num(struct elab *e, struct val *v)
{
	struct srcloc loc = v->loc;
	struct rat r;

	if (!rat_make((i128)v->n * RK_RATIO_ONE, v->n2, &r)) {
		struct rat lo = { v->n, v->n2 };

		rat_make(v->n, v->n2, &lo);
		elab_error(
		    e, &loc, "overflow",
		    "ratio %lld:%lld is past the 64-bit range of a ratio "
		    "in millionths (ppm), which arithmetic needs; compare "
		    "it directly",
		    (long long)lo.n, (long long)lo.d);
		return false;
	}
	set_rat(v, DIM_RATIO, r, &loc);
	return true;
}

/* A figure known only within bounds cannot be multiplied or divided. */
static bool bounded_scaled(struct elab *e, const struct ast *x)
{
	elab_error(e, &x->loc, "value",
		   "a bisection known only within bounds cannot be scaled in "
		   "a require; compare it directly");
	return false;
}

static bool need_int(struct elab *e, const struct val *v, const char *what)
{
	if (v->kind == V_NUM && v->dim == DIM_NONE)
		return true;
	elab_error(e, &v->loc, "type-mismatch",
		   "%s must be a plain number, "
		   "not %s",
		   what, dim_phrase(e, v));
	return false;
}

/*
 * An operand that is a bare name where a value is needed: most likely a
 * misspelt variable, reported as such (true then).
 */
static bool undefined_operand(struct elab *e, const struct val *bad)
{
	const char *w;
	struct suggest sg;

	if (bad->kind != V_PATH || bad->count != 1 ||
	    bad->segs[0].ix != SEG_NONE)
		return false;
	w = str_of(e->a, bad->segs[0].name);
	if (elab_repeat(e, &bad->loc))
		return true;
	suggest_init(&sg, w);
	for (uint32_t i = 0; i < e->nvars; i++)
		if (i >= e->frame || i < e->nglobals)
			suggest_offer(&sg, str_of(e->a, e->vars[i].name));
	elab_error(e, &bad->loc, "undefined-name",
		   "'%s' is not defined" SUGGEST_FMT, w, SUGGEST_ARGS(&sg));
	return true;
}

/* l + r or l - r (numbers of one dimension); of a figure known within
 * bounds (@bound), the bounds' */
static bool op_add(struct elab *e, const struct ast *x, const struct val *l,
		   const struct val *r, uint32_t bound, struct val *out)
{
	struct rat res, a = rat_of(l), b = rat_of(r);
	int64_t lo, hi;

	if (l->dim != r->dim) {
		elab_error(e, &x->loc, "unit-mismatch", "cannot %s %s and %s",
			   x->op == OP_ADD ? "add" : "subtract",
			   dim_phrase(e, l), dim_phrase(e, r));
		return false;
	}
	if (!bound) {
		if (!rat_add(a, b, x->op == OP_SUB, &res))
			return overflow(e, x);
		set_rat(out, l->dim, res, &x->loc);
		return true;
	}
	/* [a, b] + [c, d] = [a + c, b + d], - = [a - d, b - c] (bounded
	 * figures are whole, and so must the other operand be) */
	if (a.d > 1 || b.d > 1) {
		elab_error(e, &x->loc, "value",
			   "a bisection known only within "
			   "bounds adds only whole figures; "
			   "round the quotient");
		return false;
	}
	if (!(x->op == OP_ADD
		  ? q_add(l->n, r->n, &lo) && q_add(num_hi(l), num_hi(r), &hi)
		  : q_sub(l->n, num_hi(r), &lo) && q_sub(num_hi(l), r->n, &hi)))
		return overflow(e, x);
	set_num(out, l->dim, lo, &x->loc);
	out->n2 = hi;
	out->count = bound;
	return true;
}

/* l * r: at most one side of a dimension, or a ratio of a quantity */
static bool op_mul(struct elab *e, const struct ast *x, const struct val *l,
		   const struct val *r, struct val *out)
{
	struct rat res, a = rat_of(l), b = rat_of(r);
	enum dim dim;

	if (l->dim != DIM_NONE && r->dim != DIM_NONE) {
		const struct val *q = l->dim == DIM_RATIO ? r : l;
		const struct val *p = l->dim == DIM_RATIO ? l : r;
		struct rat one = { 1, RK_RATIO_ONE };

		if (p->dim != DIM_RATIO) {
			elab_error(e, &x->loc, "unit-mismatch",
				   "cannot multiply %s by %s", dim_phrase(e, l),
				   dim_phrase(e, r));
			return false;
		}
		/* a percentage of a quantity, exactly */
		dim = q->dim;
		if (!rat_mul(a, b, &res) || !rat_mul(res, one, &res))
			return overflow(e, x);
	} else {
		dim = l->dim != DIM_NONE ? l->dim : r->dim;
		if (!rat_mul(a, b, &res))
			return overflow(e, x);
	}
	set_rat(out, dim, res, &x->loc);
	return true;
}

/* l / r: exact; of one dimension, a ratio */
static bool op_div(struct elab *e, const struct ast *x, const struct val *l,
		   const struct val *r, struct val *out)
{
	struct rat res, a = rat_of(l), b = rat_of(r);
	enum dim dim = l->dim;

	if (r->n == 0) {
		elab_error(e, &x->rhs->loc, "value", "division by zero");
		return false;
	}
	if (l->dim == r->dim && l->dim != DIM_NONE) {
		/* of one dimension: a ratio, in millionths */
		struct rat mil = { RK_RATIO_ONE, 1 };

		dim = DIM_RATIO;
		if (!rat_div(a, b, &res) || !rat_mul(res, mil, &res))
			return overflow(e, x);
	} else if (r->dim != DIM_NONE) {
		elab_error(e, &x->loc, "unit-mismatch",
			   "cannot divide %s by %s", dim_phrase(e, l),
			   dim_phrase(e, r));
		return false;
	} else if (!rat_div(a, b, &res)) {
		return overflow(e, x);
	}
	set_rat(out, dim, res, &x->loc);
	return true;
}

/* l % r: a - b * trunc(a / b), the sign of the dividend, as in C */
static bool op_mod(struct elab *e, const struct ast *x, const struct val *l,
		   const struct val *r, struct val *out)
{
	struct rat res, q, t, a = rat_of(l), b = rat_of(r);

	if (l->dim != r->dim) {
		elab_error(e, &x->loc, "unit-mismatch",
			   "cannot take the remainder of %s by %s "
			   "(both sides of '%%' need one dimension: "
			   "write the divisor with a unit)",
			   dim_phrase(e, l), dim_phrase(e, r));
		return false;
	}
	if (r->n == 0) {
		elab_error(e, &x->rhs->loc, "value", "division by zero");
		return false;
	}
	if (!rat_div(a, b, &q))
		return overflow(e, x);
	t.n = q.n / q.d;
	t.d = 1;
	if (!rat_mul(b, t, &t) || !rat_add(a, t, true, &res))
		return overflow(e, x);
	set_rat(out, l->dim, res, &x->loc);
	return true;
}

static bool arith(struct elab *e, const struct ast *x, struct val *l,
		  struct val *r, struct val *out)
{
	uint32_t bound = val_bounded(l) ? val_bounded(l) : val_bounded(r);

	if ((l->kind == V_RATIO && !ratio_num(e, l)) ||
	    (r->kind == V_RATIO && !ratio_num(e, r)))
		return false;
	if (l->kind != V_NUM || r->kind != V_NUM) {
		const struct val *bad = l->kind != V_NUM ? l : r;

		if (undefined_operand(e, bad))
			return false;
		elab_error(e, &bad->loc, "type-mismatch",
			   "operator '%s' needs numbers, not %s",
			   ast_op_str(x->op), eval_val_kind_name(bad));
		return false;
	}
	/* a figure known only within bounds is added to or subtracted
	 * from, not scaled */
	switch (x->op) {
	case OP_ADD:
	case OP_SUB:
		return op_add(e, x, l, r, bound, out);
	case OP_MUL:
		return bound ? bounded_scaled(e, x) : op_mul(e, x, l, r, out);
	case OP_DIV:
		return bound ? bounded_scaled(e, x) : op_div(e, x, l, r, out);
	case OP_MOD:
		return bound ? bounded_scaled(e, x) : op_mod(e, x, l, r, out);
	default:
		BUG("not an arithmetic operator");
	}
}

/* The sign of a/ad - b/bd (ad, bd > 0), exactly. */
static int frac_cmp(int64_t a, int64_t ad, int64_t b, int64_t bd)
{
	i128 p = (i128)a * bd, q = (i128)b * ad;

	return p < q ? -1 : p > q;
}

/* A number or a ratio as fractions lo/den .. hi/den (den > 0). */
struct frac {
	int64_t lo, hi, den;
};

static struct frac as_frac(const struct val *v)
{
	struct frac f;

	if (v->kind == V_RATIO) {
		f.lo = f.hi = v->n;
		f.den = v->n2;
	} else {
		f.lo = v->n;
		f.hi = num_hi(v);
		f.den = v->dim == DIM_RATIO ? RK_RATIO_ONE : 1;
		/* a quotient: its denominator too (past 64 bits, the
		 * caller reports an overflow) */
		if (v->den > 1 && !val_bounded(v) &&
		    !q_mul(f.den, v->den, &f.den))
			f.den = 0;
	}
	return f;
}

static bool cmp_holds(int op, int c)
{
	switch (op) {
	case OP_EQ:
		return c == 0;
	case OP_NE:
		return c != 0;
	case OP_LT:
		return c < 0;
	case OP_LE:
		return c <= 0;
	case OP_GT:
		return c > 0;
	case OP_GE:
		return c >= 0;
	default:
		BUG("not a comparison");
	}
}

/*
 * Numbers compare exactly, a ratio a:b as the fraction a/b (with a ratio
 * in millionths, or another ratio).  With bounds the comparison is decided
 * when every value within them gives the same answer: the ordering ones
 * are monotone in l - r, whose extremes are lo(l) - hi(r) and hi(l) -
 * lo(r); == and != need points or disjoint bounds.  Otherwise the result
 * is undecided (elab.h).
 */
static bool compare(struct elab *e, const struct ast *x, struct val *l,
		    struct val *r, struct val *out)
{
	uint32_t bound = val_bounded(l) ? val_bounded(l) : val_bounded(r);
	int res; /* 1 true, 0 false, -1 undecided */

	if (l->kind == V_STR && r->kind == V_STR &&
	    (x->op == OP_EQ || x->op == OP_NE)) {
		res = cmp_holds(x->op, l->s == r->s ? 0 : 1);
	} else if (l->kind == V_BOOL && r->kind == V_BOOL &&
		   (x->op == OP_EQ || x->op == OP_NE)) {
		res = bound ? -1 : cmp_holds(x->op, l->n == r->n ? 0 : 1);
	} else if ((l->kind == V_NUM || l->kind == V_RATIO) &&
		   (r->kind == V_NUM || r->kind == V_RATIO)) {
		enum dim ld = l->kind == V_RATIO ? DIM_RATIO : l->dim;
		enum dim rd = r->kind == V_RATIO ? DIM_RATIO : r->dim;
		struct frac a = as_frac(l), b = as_frac(r);

		if (!a.den || !b.den)
			return overflow(e, x);
		if (ld != rd) {
			elab_error(e, &x->loc, "unit-mismatch",
				   "cannot compare %s with %s",
				   dim_phrase(e, l), dim_phrase(e, r));
			return false;
		}
		if (x->op == OP_EQ || x->op == OP_NE) {
			if (frac_cmp(a.hi, a.den, b.lo, b.den) < 0 ||
			    frac_cmp(b.hi, b.den, a.lo, a.den) < 0)
				res = x->op == OP_NE; /* disjoint */
			else if (bound)
				res = -1;
			else
				res = cmp_holds(
				    x->op, frac_cmp(a.lo, a.den, b.lo, b.den));
		} else {
			bool low = cmp_holds(
			    x->op, frac_cmp(a.lo, a.den, b.hi, b.den));
			bool high = cmp_holds(
			    x->op, frac_cmp(a.hi, a.den, b.lo, b.den));

			res = low == high ? low : -1;
		}
	} else {
		if (undefined_operand(e, l->kind == V_PATH ? l : r))
			return false;
		elab_error(e, &x->loc, "type-mismatch",
			   "cannot compare %s with %s", eval_val_kind_name(l),
			   eval_val_kind_name(r));
		return false;
	}
	memset(out, 0, sizeof(*out));
	out->kind = V_BOOL;
	out->loc = x->loc;
	out->n = res == 1;
	out->count = res < 0 ? bound : 0;
	return true;
}

/* A boolean operand of && or ||, kept with its undecided mark. */
static bool eval_cond(struct elab *e, const struct ast *x, struct val *out)
{
	if (!eval_expr(e, x, out))
		return false;
	if (out->kind != V_BOOL) {
		elab_error(e, &x->loc, "type-mismatch",
			   "condition must be a boolean, not %s",
			   eval_val_kind_name(out));
		return false;
	}
	return true;
}

static bool eval_binary(struct elab *e, const struct ast *x, struct val *out)
{
	struct val l, r;

	if (x->op == OP_AND || x->op == OP_OR) {
		/* the right side only when the left does not decide; with
		 * undecided operands: false && _ and _ && false are false,
		 * true || _ and _ || true true, the rest undecided */
		bool is_and = x->op == OP_AND;

		if (!eval_cond(e, x->lhs, &l))
			return false;
		if (!val_bounded(&l) && (is_and ? !l.n : l.n)) {
			r = l;
		} else {
			if (!eval_cond(e, x->rhs, &r))
				return false;
			if (val_bounded(&r) || (is_and ? r.n : !r.n))
				r.count = val_bounded(&l) ? val_bounded(&l)
							  : val_bounded(&r);
			if (r.count)
				r.n = 0;
		}
		memset(out, 0, sizeof(*out));
		out->kind = V_BOOL;
		out->n = r.n;
		out->count = r.count;
		out->loc = x->loc;
		return true;
	}
	if (!eval_x(e, x->lhs, &l) || !eval_x(e, x->rhs, &r))
		return false;
	if (x->op == OP_RANGE || x->op == OP_ARROW || x->op == OP_LINK) {
		/* these keep their operands: whole numbers only */
		if (!whole(e, x->lhs, &l) || !whole(e, x->rhs, &r))
			return false;
	}
	switch (x->op) {
	case OP_ADD:
	case OP_SUB:
	case OP_MUL:
	case OP_DIV:
	case OP_MOD:
		return arith(e, x, &l, &r, out);
	case OP_EQ:
	case OP_NE:
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
		return compare(e, x, &l, &r, out);
	case OP_RANGE:
		if (!need_int(e, &l, "a range bound") ||
		    !need_int(e, &r, "a range bound"))
			return false;
		memset(out, 0, sizeof(*out));
		out->kind = V_RANGE;
		out->n = l.n;
		out->n2 = r.n;
		out->loc = x->loc;
		return true;
	case OP_ARROW:
	case OP_LINK:
		memset(out, 0, sizeof(*out));
		out->kind = x->op == OP_ARROW ? V_PAIR : V_LINK;
		out->count = 2;
		out->items = eval_val_items(e, 2, &x->loc);
		if (!out->items)
			return false;
		out->items[0] = l;
		out->items[1] = r;
		out->loc = x->loc;
		return true;
	default:
		BUG("unknown binary operator");
	}
}

/* @p gets its own copy of its segments, with room for @extra more. */
static void own_path(struct elab *e, struct val *p, uint32_t extra)
{
	struct seg *s = arena_alloc_ptr(e->va, (p->count + extra) * sizeof(*s));

	if (p->count)
		memcpy(s, p->segs, p->count * sizeof(*s));
	p->segs = s;
}

/* Index the last segment of path @p (its own) as @x says. */
static bool index_last(struct elab *e, const struct ast *x, struct val *p)
{
	struct val ix;
	struct seg *last = &p->segs[p->count - 1];

	p->loc = x->loc;
	if (last->ix != SEG_NONE) {
		elab_error(e, &x->rhs->loc, "value",
			   "a name takes one index per segment");
		return false;
	}
	if (x->rhs->kind == AST_WILD) {
		last->ix = SEG_WILD;
		return true;
	}
	if (!eval_expr(e, x->rhs, &ix))
		return false;
	if (ix.kind == V_RANGE) {
		if (ix.n < 0 || ix.n2 < ix.n) {
			elab_error(e, &x->rhs->loc, "value",
				   "index range %lld..%lld is empty or "
				   "negative",
				   (long long)ix.n, (long long)ix.n2);
			return false;
		}
		last->ix = SEG_RANGE;
		last->lo = ix.n;
		last->hi = ix.n2;
		return true;
	}
	if (!need_int(e, &ix, "an index"))
		return false;
	if (ix.n < 0) {
		elab_error(e, &x->rhs->loc, "value", "index %lld is negative",
			   (long long)ix.n);
		return false;
	}
	last->ix = SEG_INT;
	last->lo = last->hi = ix.n;
	return true;
}

/* Element @x->rhs of list @l. */
static bool index_list(struct elab *e, const struct ast *x, struct val *l)
{
	struct val ix;

	if (x->rhs->kind == AST_WILD || !eval_expr(e, x->rhs, &ix) ||
	    !need_int(e, &ix, "a list index")) {
		if (x->rhs->kind == AST_WILD)
			elab_error(e, &x->rhs->loc, "type-mismatch",
				   "'*' selects names, not list "
				   "elements");
		return false;
	}
	if (ix.n < 0 || ix.n >= l->count) {
		elab_error(e, &x->rhs->loc, "value",
			   "index %lld is out of range for a list of "
			   "%u",
			   (long long)ix.n, l->count);
		return false;
	}
	*l = l->items[ix.n];
	return true;
}

/*
 * Evaluate @x, which @extra more '.' segments are to follow: a path comes
 * back with its own segments and room for them, so that a chain such as
 * a.b[1].c builds its segments once, however long it is (not a copy per
 * '.').  With @name, identifiers are literal segments even where a
 * variable has their spelling (a declared name), and only indices are
 * evaluated.
 */
static bool eval_path(struct elab *e, const struct ast *x, uint32_t extra,
		      bool name, struct val *out)
{
	if (e->stopped)
		return false;
	switch (x->kind) {
	case AST_IDENT:
		if (!name && (eval_var_find(e, x->str) || x->str == e->w_true ||
			      x->str == e->w_false))
			break;
		memset(out, 0, sizeof(*out));
		out->kind = V_PATH;
		out->loc = x->loc;
		out->count = 1;
		out->segs =
		    arena_alloc_ptr(e->va, (1 + extra) * sizeof(struct seg));
		memset(out->segs, 0, sizeof(struct seg));
		out->segs[0].name = x->str;
		return true;
	case AST_MEMBER:
		if (!eval_path(e, x->lhs, extra + 1, name, out))
			return false;
		if (out->kind != V_PATH) {
			elab_error(e, &x->lhs->loc, "type-mismatch",
				   "'.' needs a name on its left, not %s",
				   eval_val_kind_name(out));
			return false;
		}
		memset(&out->segs[out->count], 0, sizeof(struct seg));
		out->segs[out->count++].name = x->str;
		out->loc = x->loc;
		return true;
	case AST_INDEX:
		if (!eval_path(e, x->lhs, extra, name, out))
			return false;
		if (out->kind == V_PATH)
			return index_last(e, x, out);
		if (out->kind != V_LIST) {
			elab_error(e, &x->lhs->loc, "type-mismatch",
				   "cannot index %s", eval_val_kind_name(out));
			return false;
		}
		if (!index_list(e, x, out))
			return false;
		/* the element is the list's: a path is copied before an
		 * index or a '.' changes it */
		if (out->kind == V_PATH)
			own_path(e, out, extra);
		return true;
	default:
		if (name) {
			elab_error(e, &x->loc, "type-mismatch",
				   "a name is needed here");
			return false;
		}
		break;
	}
	if (!eval_expr(e, x, out))
		return false;
	if (out->kind == V_PATH)
		own_path(e, out, extra);
	return true;
}

/* A number that is not a figure known only within bounds. */
static bool need_num(struct elab *e, const struct ast *x, const struct val *v,
		     const char *fn)
{
	if (v->kind == V_NUM && !val_bounded(v))
		return true;
	if (v->kind == V_NUM)
		return bounded_scaled(e, x);
	elab_error(e, &v->loc, "type-mismatch", "%s() needs a number, not %s",
		   fn, eval_val_kind_name(v));
	return false;
}

/*
 * floor(x), ceil(x), round(x): x to a whole number of its base unit;
 * with a step, floor(x, 1W), to a whole multiple of the step (of x's
 * dimension, positive).  round() takes halves away from zero.
 */
static bool eval_rounding(struct elab *e, const struct ast *x, const char *fn,
			  struct val *out)
{
	uint32_t argc = ast_list_len(x->list);
	struct val v, step;
	struct rat q, s = { 1, 1 };
	int64_t k;

	if (argc != 1 && argc != 2) {
		elab_error(e, &x->loc, "value",
			   "%s() takes a number and an optional step", fn);
		return false;
	}
	if (!eval_x(e, x->list, &v))
		return false;
	if (v.kind == V_RATIO && !ratio_num(e, &v))
		return false;
	if (!need_num(e, x, &v, fn))
		return false;
	if (argc == 2) {
		if (!eval_expr(e, x->list->next, &step))
			return false;
		if (step.kind == V_RATIO && !ratio_num(e, &step))
			return false;
		if (!need_num(e, x, &step, fn))
			return false;
		if (step.dim != v.dim) {
			elab_error(e, &step.loc, "unit-mismatch",
				   "the step of %s() is %s, the number %s", fn,
				   dim_phrase(e, &step), dim_phrase(e, &v));
			return false;
		}
		if (step.n <= 0) {
			elab_error(e, &step.loc, "value",
				   "the step of %s() must be positive", fn);
			return false;
		}
		s.n = step.n;
	}
	if (!rat_div(rat_of(&v), s, &q))
		return overflow(e, x);
	k = fn[0] == 'f'   ? rat_floor(q)
	    : fn[0] == 'c' ? rat_ceil(q)
			   : rat_round(q);
	if (!q_mul(k, s.n, &k))
		return overflow(e, x);
	set_num(out, v.dim, k, &x->loc);
	return true;
}

/*
 * to(x, UNIT): quantity x as a plain number of UNIT, exactly (a quotient
 * when it is not whole: floor(), ceil() and round() make it one).  UNIT is
 * a unit suffix (kW, m, Gb/s as words: kW, m) or any quantity of x's
 * dimension (1kW, 16A, 1%).
 */
static bool eval_to(struct elab *e, const struct ast *x, const char *fn,
		    struct val *out)
{
	const struct ast *u = x->list ? x->list->next : NULL;
	struct val v, unit;
	struct rat q;

	if (ast_list_len(x->list) != 2) {
		elab_error(e, &x->loc, "value",
			   "to() takes a quantity and a unit (to(P, kW))");
		return false;
	}
	if (!eval_x(e, x->list, &v))
		return false;
	if (v.kind == V_RATIO && !ratio_num(e, &v))
		return false;
	if (!need_num(e, x, &v, fn))
		return false;
	if (u->kind == AST_IDENT && !eval_var_find(e, u->str)) {
		/* a unit written as a word */
		const char *w = str_of(e->a, u->str);
		size_t n = strlen_of(e->a, u->str), at;
		char buf[32];
		struct quantity one;

		buf[0] = '1';
		if (n + 2 > sizeof(buf) ||
		    (memcpy(buf + 1, w, n),
		     unit_parse(buf, n + 1, &one, &at) != UNIT_OK) ||
		    one.dim == DIM_NONE) {
			elab_error(e, &u->loc, "value",
				   "'%s' is not a unit (write a unit such as "
				   "kW, or a quantity such as 1kW)",
				   w);
			return false;
		}
		set_num(&unit, one.dim, one.v, &u->loc);
	} else {
		if (!eval_expr(e, u, &unit))
			return false;
		if (unit.kind == V_RATIO && !ratio_num(e, &unit))
			return false;
		if (!need_num(e, x, &unit, fn))
			return false;
	}
	if (unit.dim != v.dim) {
		elab_error(e, &x->loc, "unit-mismatch",
			   "to() of %s in a unit of %s", dim_phrase(e, &v),
			   unit.dim == DIM_NONE ? "plain numbers"
						: dim_name(unit.dim));
		return false;
	}
	if (unit.n <= 0) {
		elab_error(e, &u->loc, "value",
			   "the unit of to() must be positive");
		return false;
	}
	if (!rat_div(rat_of(&v), rat_of(&unit), &q))
		return overflow(e, x);
	set_rat(out, DIM_NONE, q, &x->loc);
	return true;
}

/* len(LIST or RANGE): its number of elements */
static bool eval_len(struct elab *e, const struct ast *x, const char *fn,
		     struct val *out)
{
	const struct ast *a = x->list;
	struct val v;

	(void)fn;
	if (ast_list_len(x->list) != 1) {
		elab_error(e, &x->loc, "value", "len() takes one argument");
		return false;
	}
	if (!eval_expr(e, a, &v))
		return false;
	if (v.kind == V_LIST) {
		set_num(out, DIM_NONE, v.count, &x->loc);
	} else if (v.kind == V_RANGE) {
		uint64_t span =
		    v.n2 >= v.n ? (uint64_t)v.n2 - (uint64_t)v.n : 0;

		if (v.n2 >= v.n && span >= (uint64_t)INT64_MAX) {
			elab_error(e, &a->loc, "overflow",
				   "the range has more than 2^63 - 1 "
				   "elements");
			return false;
		}
		set_num(out, DIM_NONE, v.n2 >= v.n ? (int64_t)span + 1 : 0,
			&x->loc);
	} else {
		elab_error(e, &a->loc, "type-mismatch",
			   "len() needs a list or a range, not %s",
			   eval_val_kind_name(&v));
		return false;
	}
	return true;
}

/*
 * The two arguments of min(), max() or ceil_div(), in @args: whole
 * numbers for ceil_div() and beside a figure known only within bounds;
 * false when not (reported).
 */
static bool two_args(struct elab *e, const struct ast *x, const char *fn,
		     struct val *args)
{
	const struct ast *a = x->list;

	if (ast_list_len(x->list) != 2) {
		elab_error(e, &x->loc, "value", "%s() takes two arguments", fn);
		return false;
	}
	if (!eval_x(e, a, &args[0]) || !eval_x(e, a->next, &args[1]))
		return false;
	if ((streq(fn, "ceil_div") || val_bounded(&args[0]) ||
	     val_bounded(&args[1])) &&
	    (!whole(e, a, &args[0]) || !whole(e, a->next, &args[1])))
		return false;
	return true;
}

static bool two_nums(struct elab *e, const struct ast *x, const char *fn,
		     const struct val *args)
{
	if (args[0].kind == V_NUM && args[1].kind == V_NUM)
		return true;
	elab_error(e, &x->loc, "type-mismatch", "%s() needs numbers", fn);
	return false;
}

/* ceil_div(a, b): a / b rounded up (a >= 0, b > 0 a plain number) */
static bool eval_ceil_div(struct elab *e, const struct ast *x, const char *fn,
			  struct val *out)
{
	struct val args[2];

	if (!two_args(e, x, fn, args) || !two_nums(e, x, fn, args))
		return false;
	if (val_bounded(&args[0]) || val_bounded(&args[1]))
		return bounded_scaled(e, x);
	if (args[1].dim != DIM_NONE) {
		elab_error(e, &x->list->next->loc, "unit-mismatch",
			   "ceil_div() divides by a plain "
			   "number");
		return false;
	}
	if (args[1].n <= 0 || args[0].n < 0) {
		elab_error(e, &x->loc, "value",
			   "ceil_div() needs a non-negative "
			   "dividend and a positive divisor");
		return false;
	}
	set_num(out, args[0].dim,
		args[0].n / args[1].n + (args[0].n % args[1].n != 0), &x->loc);
	return true;
}

/*
 * min() or max() with a ratio: of ratios, the least (greatest) one,
 * exactly (*@done); with a figure known only within bounds, the ratios
 * made numbers in millionths for the comparison of numbers (*@done
 * false); false on an error (reported).
 */
static bool min_max_ratio(struct elab *e, const struct ast *x, const char *fn,
			  struct val *args, struct val *out, bool *done)
{
	struct frac p = as_frac(&args[0]), q = as_frac(&args[1]);
	int c;

	*done = false;
	if (!p.den || !q.den)
		return overflow(e, x);
	c = frac_cmp(p.lo, p.den, q.lo, q.den);
	if (val_bounded(&args[0]) || val_bounded(&args[1]))
		return !((args[0].kind == V_RATIO && !ratio_num(e, &args[0])) ||
			 (args[1].kind == V_RATIO && !ratio_num(e, &args[1])));
	if ((args[0].kind == V_NUM && args[0].dim != DIM_RATIO) ||
	    (args[1].kind == V_NUM && args[1].dim != DIM_RATIO)) {
		elab_error(e, &x->loc, "unit-mismatch", "%s() of %s and %s", fn,
			   dim_phrase(e, &args[0]), dim_phrase(e, &args[1]));
		return false;
	}
	*out = (streq(fn, "min") ? c <= 0 : c >= 0) ? args[0] : args[1];
	out->loc = x->loc;
	*done = true;
	return true;
}

/* min(a, b), max(a, b): exactly, quotients too; of bounds, the ends' */
static bool eval_min_max(struct elab *e, const struct ast *x, const char *fn,
			 struct val *out)
{
	struct val args[2];
	bool mn = streq(fn, "min"), done;
	uint32_t bound;
	int64_t p, q, ph, qh;

	if (!two_args(e, x, fn, args))
		return false;
	if ((args[0].kind == V_RATIO || args[1].kind == V_RATIO) &&
	    (args[0].kind == V_NUM || args[0].kind == V_RATIO) &&
	    (args[1].kind == V_NUM || args[1].kind == V_RATIO) &&
	    (!min_max_ratio(e, x, fn, args, out, &done) || done))
		return done;
	if (!two_nums(e, x, fn, args))
		return false;
	if (args[0].dim != args[1].dim) {
		elab_error(e, &x->loc, "unit-mismatch", "%s() of %s and %s", fn,
			   dim_phrase(e, &args[0]), dim_phrase(e, &args[1]));
		return false;
	}
	bound = val_bounded(&args[0]) ? val_bounded(&args[0])
				      : val_bounded(&args[1]);
	if (!bound) {
		struct frac f = as_frac(&args[0]), g = as_frac(&args[1]);
		int c;

		if (!f.den || !g.den)
			return overflow(e, x);
		c = frac_cmp(f.lo, f.den, g.lo, g.den);
		*out = (mn ? c <= 0 : c >= 0) ? args[0] : args[1];
		out->loc = x->loc;
		return true;
	}
	p = args[0].n;
	q = args[1].n;
	ph = num_hi(&args[0]);
	qh = num_hi(&args[1]);
	set_num(out, args[0].dim, mn ? (p < q ? p : q) : (p > q ? p : q),
		&x->loc);
	out->n2 = mn ? (ph < qh ? ph : qh) : (ph > qh ? ph : qh);
	out->count = bound;
	return true;
}

/*
 * The language's functions (the require check's host adds its own): their
 * names, which the editor files' list is checked against, and their
 * handlers, in one order.
 */
static const char *const fns[] = { "len",   "min",  "max",   "ceil_div",
				   "floor", "ceil", "round", "to" };
typedef bool builtin_fn(struct elab *e, const struct ast *x, const char *fn,
			struct val *out);
static builtin_fn *const fns_run[] = {
	eval_len,      eval_min_max,  eval_min_max,  eval_ceil_div,
	eval_rounding, eval_rounding, eval_rounding, eval_to,
};
_Static_assert(ARRAY_SIZE(fns) == ARRAY_SIZE(fns_run),
	       "a handler for each function");

static bool unknown_function(struct elab *e, const struct ast *x,
			     const char *fn)
{
	struct suggest sg;

	if (elab_repeat(e, &x->wloc))
		return false;
	suggest_init(&sg, fn);
	for (size_t i = 0; i < ARRAY_SIZE(fns); i++)
		suggest_offer(&sg, fns[i]);
	for (size_t i = 0; e->host && e->host->names[i]; i++)
		suggest_offer(&sg, e->host->names[i]);
	elab_error(e, &x->wloc, "undefined-name",
		   "unknown function '%s'" SUGGEST_FMT, fn, SUGGEST_ARGS(&sg));
	return false;
}

static bool eval_call(struct elab *e, const struct ast *x, struct val *out)
{
	const char *fn = str_of(e->a, x->str);

	for (size_t i = 0; i < ARRAY_SIZE(fns); i++)
		if (streq(fn, fns[i]))
			return fns_run[i](e, x, fn, out);
	if (e->host) {
		bool ok = false;

		if (e->host->call(e->host->ctx, e, x, out, &ok))
			return ok;
	}
	return unknown_function(e, x, fn);
}

static bool eval_x(struct elab *e, const struct ast *x, struct val *out)
{
	if (e->stopped)
		return false;
	switch (x->kind) {
	case AST_NUM:
		set_num(out, x->num.dim, x->num.v, &x->loc);
		return true;
	case AST_STR:
		memset(out, 0, sizeof(*out));
		out->kind = V_STR;
		out->s = x->str;
		out->loc = x->loc;
		return true;
	case AST_RATIO:
		memset(out, 0, sizeof(*out));
		out->kind = V_RATIO;
		out->n = x->num.v;
		out->n2 = x->num2;
		out->loc = x->loc;
		return true;
	case AST_IDENT: {
		const struct var *v = eval_var_find(e, x->str);

		if (v) {
			*out = v->v;
			out->loc = x->loc;
			return true;
		}
		if (x->str != e->w_true && x->str != e->w_false)
			return eval_path(e, x, 0, false, out);
		memset(out, 0, sizeof(*out));
		out->loc = x->loc;
		out->kind = V_BOOL;
		out->n = x->str == e->w_true;
		return true;
	}
	case AST_WILD:
		elab_error(e, &x->loc, "value",
			   "'*' is only valid as an index");
		return false;
	case AST_BINARY:
		return eval_binary(e, x, out);
	case AST_UNARY: {
		struct val v;

		if (!eval_x(e, x->lhs, &v))
			return false;
		if (x->op == OP_NOT) {
			if (v.kind != V_BOOL) {
				elab_error(e, &x->lhs->loc, "type-mismatch",
					   "'!' needs a boolean, not %s",
					   eval_val_kind_name(&v));
				return false;
			}
			if (!val_bounded(&v)) /* undecided stays so */
				v.n = !v.n;
		} else {
			int64_t lo = v.n;

			if (v.kind != V_NUM) {
				elab_error(e, &x->lhs->loc, "type-mismatch",
					   "'-' needs a number, not %s",
					   eval_val_kind_name(&v));
				return false;
			}
			/* -[a, b] = [-b, -a] */
			if (!q_sub(0, num_hi(&v), &v.n) ||
			    (val_bounded(&v) && !q_sub(0, lo, &v.n2)))
				return overflow(e, x);
		}
		v.loc = x->loc;
		*out = v;
		return true;
	}
	case AST_MEMBER:
	case AST_INDEX:
		return eval_path(e, x, 0, false, out);
	case AST_CALL:
		return eval_call(e, x, out);
	case AST_LIST: {
		uint32_t n = ast_list_len(x->list), i = 0;

		memset(out, 0, sizeof(*out));
		out->kind = V_LIST;
		out->loc = x->loc;
		out->count = n;
		out->items = eval_val_items(e, n, &x->loc);
		if (!out->items)
			return false;
		for (const struct ast *it = x->list; it; it = it->next)
			if (!eval_expr(e, it, &out->items[i++]))
				return false;
		return true;
	}
	case AST_FSTR:
		return eval_format(e, x, out);
	case AST_NAMED:
		elab_error(e, &x->loc, "value",
			   "'name = value' is only valid in a module call");
		return false;
	default:
		elab_error(e, &x->loc, "value", "not an expression");
		return false;
	}
}

/* A format string's result, bounded as string literals are. */
struct fbuf {
	char b[RK_MAX_STRING + 1];
	size_t len;
	bool over;
};

static void fput(struct fbuf *f, const char *s, size_t n)
{
	if (f->over || f->len + n > RK_MAX_STRING) {
		f->over = true;
		return;
	}
	memcpy(f->b + f->len, s, n);
	f->len += n;
}

static void fpad(struct fbuf *f, char c, size_t n)
{
	while (n-- && !f->over)
		fput(f, &c, 1);
}

/*
 * num / den (den > 0) in decimal: exactly (prec < 0; false when it does
 * not terminate within RK_MAX_FMT_PREC digits), or rounded half away from
 * zero to @prec digits.  Into @buf (at least 64 bytes).
 */
static bool dec_text(i128 num, i128 den, int prec, char *buf)
{
	i128 g = arith_gcd128(num, den), d, p10 = 1, q, r;
	u128 mag, ip, fp;
	int k = 0, twos = 0, fives = 0;
	char digits[48];
	size_t n = 0, o = 0;

	if (g > 1) {
		num /= g;
		den /= g;
	}
	if (prec < 0) {
		for (d = den; d % 2 == 0; d /= 2)
			twos++;
		for (; d % 5 == 0; d /= 5)
			fives++;
		if (d != 1)
			return false;
		k = twos > fives ? twos : fives;
		if (k > RK_MAX_FMT_PREC)
			return false;
	} else {
		k = prec;
	}
	for (int i = 0; i < k; i++)
		p10 *= 10;
	q = num * p10 / den;
	r = num * p10 % den;
	if (r && (r < 0 ? -r : r) * 2 >= den)
		q += num < 0 ? -1 : 1;
	if (q < 0)
		buf[o++] = '-';
	mag = (u128)(q < 0 ? -q : q);
	ip = mag / (u128)p10;
	fp = mag % (u128)p10;
	do {
		digits[n++] = (char)('0' + (int)(ip % 10));
		ip /= 10;
	} while (ip);
	while (n)
		buf[o++] = digits[--n];
	if (k) {
		buf[o++] = '.';
		for (int i = k - 1; i >= 0; i--) {
			buf[o + (size_t)i] = (char)('0' + (int)(fp % 10));
			fp /= 10;
		}
		o += (size_t)k;
	}
	buf[o] = '\0';
	return true;
}

/*
 * The value @v of the format field @fld is a name that no variable holds:
 * a misspelt variable, most likely (a name is formatted from a variable
 * holding one), reported (true); false when its root is a variable.
 */
static bool field_undefined(struct elab *e, const struct ast *fld,
			    const struct val *v)
{
	const struct ast *r = fld->lhs;
	struct val root = *v;

	while (r->kind == AST_MEMBER || r->kind == AST_INDEX)
		r = r->lhs;
	if (r->kind != AST_IDENT || eval_var_find(e, r->str))
		return false;
	root.count = 1;
	root.loc = r->loc;
	root.segs[0].ix = SEG_NONE;
	if (!undefined_operand(e, &root))
		elab_error(e, &r->loc, "undefined-name", "'%s' is not defined",
			   str_of(e->a, r->str));
	return true;
}

/* A whole plain number in hexadecimal ({x:x}, {x:X}), into @num. */
static const char *format_hex(struct elab *e, const struct ast *fld,
			      const struct fmt_spec *sp, const struct val *v,
			      char *num)
{
	uint64_t mag = v->n < 0 ? 0 - (uint64_t)v->n : (uint64_t)v->n;

	if (v->dim != DIM_NONE || v->den > 1) {
		elab_error(e, &fld->wloc, "type-mismatch",
			   "hexadecimal formats a whole plain "
			   "number, not %s",
			   v->den > 1 ? "a quotient" : dim_phrase(e, v));
		return NULL;
	}
	snprintf(num, 64, sp->hex == 'x' ? "%s%llx" : "%s%llX",
		 v->n < 0 ? "-" : "", (unsigned long long)mag);
	return num;
}

/*
 * The number @v as the text of the field @fld with the spec @sp: in a
 * unit, or as a quantity, or in decimal (in @num, 64 bytes, or @qbuf);
 * NULL on an error (reported).
 */
static const char *format_number(struct elab *e, const struct ast *fld,
				 const struct fmt_spec *sp, const struct val *v,
				 char *num, char *qbuf)
{
	i128 scale = 1;
	size_t at = 0;

	if (val_bounded(v)) {
		bounded_scaled(e, fld->lhs);
		return NULL;
	}
	if (sp->hex)
		return format_hex(e, fld, sp, v, num);
	if (sp->unit_len) {
		struct quantity one;
		char ub[32];

		ub[0] = '1';
		memcpy(ub + 1, sp->unit, sp->unit_len);
		if (unit_parse(ub, sp->unit_len + 1, &one, &at) != UNIT_OK)
			BUG("format unit checked by the scanner");
		if (one.dim != v->dim) {
			elab_error(e, &fld->wloc, "unit-mismatch",
				   "'%.*s' is a unit of %s; the value "
				   "is %s",
				   (int)sp->unit_len, sp->unit,
				   dim_name(one.dim), dim_phrase(e, v));
			return NULL;
		}
		scale = one.v;
	} else if (v->dim != DIM_NONE) {
		struct quantity q = { v->dim, v->n };

		if (sp->prec >= 0 || v->den > 1) {
			elab_error(e, &fld->lhs->loc, "value",
				   "give a unit to format %s with a "
				   "precision or a fraction of its "
				   "base unit ({x:.1%s})",
				   dim_phrase(e, v), dim_base_unit(v->dim));
			return NULL;
		}
		return quantity_format(q, qbuf);
	}
	if (!dec_text(v->n, (i128)rat_of(v).d * scale, sp->prec, num)) {
		elab_error(e, &fld->loc, "value",
			   "the value is not an exact decimal%s%.*s "
			   "within 18 digits; give a precision "
			   "(for example {x:.2%.*s})",
			   sp->unit_len ? " in " : "", (int)sp->unit_len,
			   sp->unit, (int)sp->unit_len, sp->unit);
		return NULL;
	}
	return num;
}

/* The value @v as the text of the field @fld; NULL on an error. */
static const char *format_value(struct elab *e, const struct ast *fld,
				const struct fmt_spec *sp, const struct val *v,
				char *num, char *qbuf)
{
	switch (v->kind) {
	case V_NUM:
		return format_number(e, fld, sp, v, num, qbuf);
	case V_STR:
		return str_of(e->a, v->s);
	case V_BOOL:
		if (val_bounded(v)) {
			elab_error(e, &fld->lhs->loc, "value",
				   "an undecided condition cannot be "
				   "formatted");
			return NULL;
		}
		return v->n ? "true" : "false";
	case V_PATH:
		for (uint32_t i = 0; i < v->count; i++)
			if (v->segs[i].ix == SEG_RANGE ||
			    v->segs[i].ix == SEG_WILD) {
				elab_error(e, &fld->lhs->loc, "value",
					   "'%s' names several objects; a "
					   "format field takes one",
					   eval_path_text(e, v));
				return NULL;
			}
		return eval_path_text(e, v);
	default:
		elab_error(e, &fld->lhs->loc, "type-mismatch",
			   "cannot format %s", eval_val_kind_name(v));
		return NULL;
	}
}

/* The text @t into @f, padded to the spec's width and aligned. */
static void format_pad(struct fbuf *f, const struct fmt_spec *sp, const char *t,
		       bool isnum)
{
	size_t n = strlen(t), pad = sp->width > n ? sp->width - n : 0;

	if (!pad) {
		fput(f, t, n);
	} else if (sp->zero && isnum) {
		size_t sign = t[0] == '-';

		fput(f, t, sign);
		fpad(f, '0', pad);
		fput(f, t + sign, n - sign);
	} else if (sp->align == '<' || (!sp->align && !isnum)) {
		fput(f, t, n);
		fpad(f, ' ', pad);
	} else {
		fpad(f, ' ', pad);
		fput(f, t, n);
	}
}

/* One field {expr:spec} of a format string, appended to @f. */
static bool format_field(struct elab *e, const struct ast *fld, struct fbuf *f)
{
	struct fmt_spec sp;
	struct val v;
	char num[64], qbuf[RK_QFMT_MAX];
	const char *t;
	size_t at = 0;
	bool isnum;

	if (!eval_x(e, fld->lhs, &v))
		return false;
	if (v.kind == V_PATH && field_undefined(e, fld, &v))
		return false;
	if (fld->str) {
		const char *why =
		    fmt_spec_parse(str_of(e->a, fld->str),
				   strlen_of(e->a, fld->str), &sp, &at);

		if (why)
			BUG("format spec checked by the scanner");
	} else {
		fmt_spec_parse("", 0, &sp, &at);
	}
	if (v.kind == V_RATIO && !ratio_num(e, &v))
		return false;
	isnum = v.kind == V_NUM;
	if (!isnum && (sp.zero || sp.prec >= 0 || sp.unit_len || sp.hex)) {
		elab_error(e, &fld->wloc, "type-mismatch",
			   "'%.*s' formats a number, not %s",
			   (int)(fld->wloc.end - fld->wloc.begin),
			   str_of(e->a, fld->str), eval_val_kind_name(&v));
		return false;
	}
	t = format_value(e, fld, &sp, &v, num, qbuf);
	if (!t)
		return false;
	format_pad(f, &sp, t, isnum);
	return true;
}

/* A format string f"...": its pieces and fields, in order. */
static bool eval_format(struct elab *e, const struct ast *x, struct val *out)
{
	struct fbuf *f = arena_alloc_ptr(e->va, sizeof(*f));

	f->len = 0;
	f->over = false;
	for (const struct ast *p = x->list; p; p = p->next) {
		if (p->kind == AST_STR)
			fput(f, str_of(e->a, p->str), strlen_of(e->a, p->str));
		else if (!format_field(e, p, f))
			return false;
		if (f->over) {
			elab_error(e, &x->loc, "limit",
				   "formatted string longer than %u bytes",
				   RK_MAX_STRING);
			return false;
		}
	}
	/* every result is kept (interned): their bytes are bounded */
	e->fmt_bytes += f->len;
	if (e->fmt_bytes > RK_MAX_FMT_BYTES) {
		elab_error(e, &x->loc, "limit",
			   "format strings made more than %u bytes (the "
			   "limit of a compilation)",
			   RK_MAX_FMT_BYTES);
		e->stopped = true;
		return false;
	}
	memset(out, 0, sizeof(*out));
	out->kind = V_STR;
	out->s = intern(e->a, f->b, f->len);
	out->loc = x->loc;
	return true;
}

/*
 * A value leaving an expression is a whole number of base units: a
 * quotient that is not is an error at @x, which says how to round it.
 */
static bool whole(struct elab *e, const struct ast *x, struct val *v)
{
	if (v->kind != V_NUM || v->den <= 1 || val_bounded(v)) {
		if (v->kind == V_NUM && !val_bounded(v))
			v->den = 0;
		return true;
	}
	if (v->dim == DIM_NONE)
		elab_error(e, &x->loc, "value",
			   "%lld/%lld is not a whole number (division is "
			   "exact); round it with floor(), ceil() or round()",
			   (long long)v->n, (long long)v->den);
	else
		elab_error(e, &x->loc, "value",
			   "%s of %lld/%lld %s is not a whole number of %s "
			   "(division is exact); round it with floor(), "
			   "ceil() or round()",
			   dim_phrase(e, v), (long long)v->n, (long long)v->den,
			   dim_base_unit(v->dim), dim_base_unit(v->dim));
	return false;
}

bool eval_expr(struct elab *e, const struct ast *x, struct val *out)
{
	return eval_x(e, x, out) && whole(e, x, out);
}

/*
 * A declared name: identifiers are literal name segments even where a
 * variable of the same spelling exists (row r[r] inside "for r ..."); only
 * index expressions are evaluated.
 */
bool eval_name(struct elab *e, const struct ast *x, struct val *out)
{
	return eval_path(e, x, 0, true, out);
}

bool eval_bool(struct elab *e, const struct ast *x, bool *out)
{
	struct val v;

	if (!eval_expr(e, x, &v))
		return false;
	if (v.kind != V_BOOL) {
		elab_error(e, &x->loc, "type-mismatch",
			   "condition must be a boolean, not %s",
			   eval_val_kind_name(&v));
		return false;
	}
	*out = v.n != 0;
	return true;
}

bool eval_path_has_wild(const struct val *p)
{
	for (uint32_t i = 0; i < p->count; i++)
		if (p->segs[i].ix == SEG_WILD)
			return true;
	return false;
}

/* Append text to a bounded buffer; false when it would not fit. */
static bool put(char *buf, size_t *len, const char *s, size_t n)
{
	if (*len + n >= RK_MAX_PATH)
		return false;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
	return true;
}

const char *eval_path_text(struct elab *e, const struct val *p)
{
	char buf[RK_MAX_PATH];
	size_t len = 0;
	char num[64];

	buf[0] = '\0';
	for (uint32_t i = 0; i < p->count; i++) {
		const struct seg *s = &p->segs[i];
		int n = 0;

		if (i && !put(buf, &len, ".", 1))
			break;
		if (!put(buf, &len, str_of(e->a, s->name),
			 strlen_of(e->a, s->name)))
			break;
		if (s->ix == SEG_INT)
			n = snprintf(num, sizeof(num), "[%lld]",
				     (long long)s->lo);
		else if (s->ix == SEG_RANGE)
			n = snprintf(num, sizeof(num), "[%lld..%lld]",
				     (long long)s->lo, (long long)s->hi);
		else if (s->ix == SEG_WILD)
			n = snprintf(num, sizeof(num), "[*]");
		if (n > 0 && !put(buf, &len, num, (size_t)n))
			break;
	}
	return arena_strndup(e->a, buf, len);
}

bool eval_path_expand(struct elab *e, const struct val *p, uint32_t **names,
		      uint32_t *count)
{
	uint64_t total = 1;
	uint32_t n, k;
	int64_t idx[64];
	char buf[RK_MAX_PATH];

	if (p->count > ARRAY_SIZE(idx)) {
		elab_error(e, &p->loc, "limit",
			   "name has more than %zu "
			   "segments",
			   ARRAY_SIZE(idx));
		return false;
	}
	for (uint32_t i = 0; i < p->count; i++) {
		const struct seg *s = &p->segs[i];

		if (s->ix == SEG_WILD) {
			elab_error(e, &p->loc, "value",
				   "'*' is not allowed in '%s' here",
				   eval_path_text(e, p));
			return false;
		}
		if (s->ix == SEG_RANGE) {
			total *= (uint64_t)(s->hi - s->lo) + 1;
			if (total > RK_MAX_EXPAND) {
				elab_error(e, &p->loc, "limit",
					   "'%s' names more than %u objects "
					   "(the expansion limit)",
					   eval_path_text(e, p), RK_MAX_EXPAND);
				return false;
			}
		}
		idx[i] = s->lo;
	}
	n = (uint32_t)total;
	*names = arena_alloc(e->va, n * sizeof(uint32_t));
	*count = n;
	for (k = 0; k < n; k++) {
		size_t len = 0;
		char num[32];

		for (uint32_t i = 0; i < p->count; i++) {
			const struct seg *s = &p->segs[i];
			bool ok = true;

			if (i)
				ok = put(buf, &len, ".", 1);
			ok = ok && put(buf, &len, str_of(e->a, s->name),
				       strlen_of(e->a, s->name));
			if (ok && s->ix != SEG_NONE) {
				int m = snprintf(num, sizeof(num), "[%lld]",
						 (long long)idx[i]);
				ok = put(buf, &len, num, (size_t)m);
			}
			if (!ok) {
				elab_error(e, &p->loc, "limit",
					   "name longer than %u bytes",
					   RK_MAX_PATH);
				return false;
			}
		}
		(*names)[k] = intern(e->a, buf, len);
		/* odometer: the last ranged segment turns fastest */
		for (uint32_t i = p->count; i > 0; i--) {
			const struct seg *s = &p->segs[i - 1];

			if (s->ix != SEG_RANGE)
				continue;
			if (idx[i - 1] < s->hi) {
				idx[i - 1]++;
				break;
			}
			idx[i - 1] = s->lo;
		}
	}
	return true;
}

/* A copy of @x's own fields as a node of @kind (no siblings). */
static struct ast *ast_copy(struct elab *e, const struct ast *x,
			    enum ast_kind kind)
{
	size_t size = ast_size(kind), have = ast_size(x->kind);
	struct ast *n = arena_alloc_ptr(e->a, size);

	memset(n, 0, size);
	memcpy(n, x, have < size ? have : size);
	n->kind = kind;
	n->next = NULL;
	return n;
}

/* Copy of @x with every bound variable replaced by its value (requires). */
struct ast *eval_ast_subst(struct elab *e, const struct ast *x)
{
	struct ast *n;

	if (!x)
		return NULL;
	if (x->kind == AST_IDENT) {
		const struct var *v = eval_var_find(e, x->str);

		if (!v)
			return ast_copy(e, x, AST_IDENT);
		switch (v->v.kind) {
		case V_NUM:
			n = ast_copy(e, x, AST_NUM);
			n->num.dim = v->v.dim;
			n->num.v = v->v.n;
			break;
		case V_STR:
			n = ast_copy(e, x, AST_STR);
			n->str = v->v.s;
			break;
		case V_BOOL:
			n = ast_copy(e, x, AST_IDENT);
			n->str = v->v.n ? e->w_true : e->w_false;
			break;
		case V_RATIO:
			n = ast_copy(e, x, AST_RATIO);
			n->num.v = v->v.n;
			n->num2 = v->v.n2;
			break;
		case V_PATH:
			n = ast_copy(e, x, AST_IDENT);
			n->str = intern_cstr(e->a, eval_path_text(e, &v->v));
			break;
		default:
			n = ast_copy(e, x, AST_IDENT);
			elab_error(e, &x->loc, "type-mismatch",
				   "'%s' is %s, which a require cannot use",
				   str_of(e->a, x->str),
				   eval_val_kind_name(&v->v));
			break;
		}
		return n;
	}
	if (x->kind == AST_FSTR) {
		/* formatted now, with the variables' values */
		struct val v;

		n = ast_copy(e, x, AST_STR);
		n->str = eval_format(e, x, &v) ? v.s : intern(e->a, "", 0);
		return n;
	}
	n = ast_copy(e, x, (enum ast_kind)x->kind);
	switch (x->kind) {
	case AST_UNARY:
	case AST_MEMBER:
	case AST_NAMED:
		n->lhs = eval_ast_subst(e, x->lhs);
		break;
	case AST_BINARY:
	case AST_INDEX:
		n->lhs = eval_ast_subst(e, x->lhs);
		n->rhs = eval_ast_subst(e, x->rhs);
		break;
	case AST_CALL:
	case AST_LIST: {
		struct ast *head = NULL, *tail = NULL;

		for (const struct ast *a = x->list; a; a = a->next) {
			struct ast *c = eval_ast_subst(e, a);

			if (tail)
				tail->next = c;
			else
				head = c;
			tail = c;
		}
		n->list = head;
		break;
	}
	default:
		break;
	}
	return n;
}
