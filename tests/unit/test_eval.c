/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the expression evaluator (src/eval.c) as the require
 * check uses it: outside elaboration, with a host (struct eval_host) that
 * adds functions and takes the errors.  The host here adds fig(LO, HI), a
 * figure known only within [LO, HI] (as a bisection can be), and boom(),
 * which counts its calls and fails: so the tests see the three-valued
 * comparisons of bounded figures, that && and || evaluate their right side
 * only when the left does not decide, checked arithmetic, and ratios
 * compared exactly.  Every expected value is worked out by hand in the
 * comment beside it.
 */
#include "rackc.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "elab.h"
#include "helpers.h"

struct host_state {
	unsigned booms;
	unsigned errors;
	char first[512];
};

static bool fake_call(void *ctx, struct elab *e, const struct ast *x,
		      struct val *out, bool *ok)
{
	struct host_state *h = ctx;
	const char *fn = str_of(e->a, x->str);

	if (strcmp(fn, "boom") == 0) {
		h->booms++;
		elab_error(e, &x->loc, "value", "boom() was called");
		*ok = false;
		return true;
	}
	if (strcmp(fn, "fig") == 0) {
		struct val lo, hi;

		*ok = eval(e, x->list, &lo) && eval(e, x->list->next, &hi);
		if (*ok) {
			*out = lo;
			out->n2 = hi.n;
			out->count = 1; /* fabric 0, bounded */
			out->loc = x->loc;
		}
		return true;
	}
	return false;
}

static void fake_error(void *ctx, const struct srcloc *loc, const char *msg)
{
	struct host_state *h = ctx;

	(void)loc;
	if (h->errors++ == 0)
		snprintf(h->first, sizeof(h->first), "%s", msg);
}

static const char *const fake_names[] = { "fig", "boom", NULL };

/* The outcome of one expression. */
enum outcome { O_FALSE, O_TRUE, O_UNDECIDED, O_ERROR };

struct run {
	enum outcome got;
	struct host_state h;
};

/* Evaluate the condition @expr as a require does. */
static struct run run(const char *expr)
{
	char src[512];
	struct parsed *p;
	struct run r;
	struct eval_host host = { fake_call, fake_error, fake_names, NULL };
	struct elab e;
	struct arena vals;
	struct val v;
	bool ok;

	memset(&r, 0, sizeof(r));
	host.ctx = &r.h;
	snprintf(src, sizeof(src), "require %s\n", expr);
	p = parse_str(src);
	cr_assert_eq(p->nerr, 0, "parse of '%s':\n%s", expr, p->err);
	arena_init(&vals);
	memset(&e, 0, sizeof(e));
	e.host = &host;
	e.a = &p->arena;
	e.va = &vals;
	e.w_true = intern_find(&p->arena, "true", 4);
	e.w_false = intern_find(&p->arena, "false", 5);
	ok = eval(&e, nth(p->ast, 0)->lhs, &v);
	if (!ok || r.h.errors) {
		cr_assert(!ok && r.h.errors > 0,
			  "'%s': an error is reported iff eval fails", expr);
		r.got = O_ERROR;
	} else {
		cr_assert_eq(v.kind, V_BOOL, "'%s' is not a condition", expr);
		r.got = val_bounded(&v) ? O_UNDECIDED : v.n ? O_TRUE : O_FALSE;
		cr_assert(!val_bounded(&v) || v.n == 0,
			  "'%s': undecided is false", expr);
	}
	arena_destroy(&vals);
	parsed_free(p);
	return r;
}

static void is(const char *expr, enum outcome want)
{
	static const char *const names[] = { "false", "true", "undecided",
					     "an error" };
	struct run r = run(expr);

	cr_expect_eq(r.got, want, "'%s' is %s, want %s (%s)", expr,
		     names[r.got], names[want], r.h.first);
}

static void fails(const char *expr, const char *message)
{
	struct run r = run(expr);

	cr_expect_eq(r.got, O_ERROR, "'%s' evaluates", expr);
	cr_expect(strstr(r.h.first, message) != NULL,
		  "'%s' says \"%s\", want \"%s\"", expr, r.h.first, message);
	cr_expect_eq(r.h.errors, 1, "'%s': %u errors", expr, r.h.errors);
}

Test(eval, short_circuit)
{
	struct run r;

	r = run("false && boom()");
	cr_expect_eq(r.got, O_FALSE);
	cr_expect_eq(r.h.booms, 0, "false && x evaluated x");
	r = run("true || boom()");
	cr_expect_eq(r.got, O_TRUE);
	cr_expect_eq(r.h.booms, 0, "true || x evaluated x");
	r = run("!(1 > 2 && 1 / 0 == 1)");
	cr_expect_eq(r.got, O_TRUE, "%s", r.h.first);
	r = run("true && boom()");
	cr_expect_eq(r.got, O_ERROR);
	cr_expect_eq(r.h.booms, 1);
	r = run("false || boom()");
	cr_expect_eq(r.got, O_ERROR);
	cr_expect_eq(r.h.booms, 1);
	/* an undecided left side does not decide: the right one runs */
	r = run("fig(1, 3) >= 2 && boom()");
	cr_expect_eq(r.h.booms, 1);
}

Test(eval, bounded_comparisons)
{
	/* [1, 3] against constants: decided only when both ends agree */
	is("fig(1, 3) >= 1", O_TRUE);
	is("fig(1, 3) >= 2", O_UNDECIDED);
	is("fig(1, 3) > 3", O_FALSE);
	is("fig(1, 3) < 4", O_TRUE);
	is("fig(1, 3) <= 0", O_FALSE);
	is("fig(1, 3) == 5", O_FALSE); /* disjoint */
	is("fig(1, 3) != 5", O_TRUE);
	is("fig(1, 3) == 2", O_UNDECIDED);
	is("fig(2, 2) == 2", O_UNDECIDED); /* bounds, even if equal */
	/* two intervals: [1, 3] < [4, 9] always; [1, 3] < [2, 9] not */
	is("fig(1, 3) < fig(4, 9)", O_TRUE);
	is("fig(1, 3) < fig(2, 9)", O_UNDECIDED);
}

Test(eval, three_valued_logic)
{
	is("fig(1, 3) >= 2 || true", O_TRUE);
	is("true || fig(1, 3) >= 2", O_TRUE);
	is("fig(1, 3) >= 2 || false", O_UNDECIDED);
	is("fig(1, 3) >= 2 && false", O_FALSE);
	is("fig(1, 3) >= 2 && true", O_UNDECIDED);
	is("!(fig(1, 3) >= 2)", O_UNDECIDED);
	is("!(fig(1, 3) >= 1)", O_FALSE);
}

Test(eval, bounded_arithmetic)
{
	/* [1, 3] + [10, 20] = [11, 23]; [1, 3] - [10, 20] = [-19, -7] */
	is("fig(1, 3) + fig(10, 20) >= 11", O_TRUE);
	is("fig(1, 3) + fig(10, 20) > 11", O_UNDECIDED);
	is("fig(1, 3) - fig(10, 20) <= -7", O_TRUE);
	is("fig(1, 3) - fig(10, 20) < -7", O_UNDECIDED);
	/* -[1, 3] = [-3, -1] */
	is("-fig(1, 3) >= -3", O_TRUE);
	is("-fig(1, 3) > -3", O_UNDECIDED);
	/* min([1, 3], 2) = [1, 2]; max([1, 3], 2) = [2, 3] */
	is("min(fig(1, 3), 2) <= 2", O_TRUE);
	is("max(fig(1, 3), 2) >= 2", O_TRUE);
	is("max(fig(1, 3), 2) > 2", O_UNDECIDED);
	fails("fig(1, 3) * 2 > 1", "cannot be scaled");
	fails("fig(1, 3) / 2 > 1", "cannot be scaled");
	fails("fig(1, 9223372036854775807) + 1 > 0", "arithmetic overflow");
}

Test(eval, checked_arithmetic)
{
	fails("9223372036854775807 + 1 > 0", "arithmetic overflow");
	fails("(0 - 9223372036854775807 - 1) * -1 > 0", "arithmetic overflow");
	fails("-(0 - 9223372036854775807 - 1) > 0", "arithmetic overflow");
	fails("4611686018427387904 * 2 > 0", "arithmetic overflow");
	fails("1 / 0 == 0", "division by zero");
	is("9223372036854775807 - 1 == 9223372036854775806", O_TRUE);
}

Test(eval, ratios_exact)
{
	/* ratio literals compare as fractions: no narrowing, no rounding */
	is("10000000000000:1 >= 9999999999999:1", O_TRUE);
	is("20000000000000:1 > 10000000000000:1", O_TRUE);
	is("900000000000000000:1 > 899999999999999999:1", O_TRUE);
	is("200% == 2:1", O_TRUE);
	is("1:3 == 333333ppm", O_FALSE); /* 1/3 > 0.333333 */
	is("1:3 > 333333ppm", O_TRUE);
	is("1:3 < 333334ppm", O_TRUE);
	is("2:6 == 1:3", O_TRUE);
	is("10000000000000:1 > 1000%", O_TRUE);
	/* arithmetic needs millionths: exact ones work, others are errors */
	is("1:4 * 4 == 100%", O_TRUE);
	is("3kW * 1:2 == 1.5kW", O_TRUE);
	fails("1:3 * 3 == 100%", "not a whole number of millionths");
	fails("10000000000000:1 * 1 > 0%", "past the 64-bit range");
	fails("1:1 == 1kW", "cannot compare a ratio with a power");
}

Test(eval, language_functions)
{
	is("len([1, 2, 3]) == 3", O_TRUE);
	is("min(2kW, 3kW) == 2kW", O_TRUE);
	is("max(1:3, 30%) == 1:3", O_TRUE);
	is("ceil_div(7, 2) == 4", O_TRUE);
	fails("fgi(1, 2) > 0", "did you mean 'fig'");
}
