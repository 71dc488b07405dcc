/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the expression evaluator (src/elab/eval.c) as the require
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

		*ok = eval_expr(e, x->list, &lo) &&
		      eval_expr(e, x->list->next, &hi);
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
	ok = eval_expr(&e, nth(p->ast, 0)->lhs, &v);
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
	/* a bounded figure with a quotient: [1, 3] + 1/2 is not whole */
	fails("fig(1, 3) + 1 / 2 > 0", "adds only whole figures");
}

Test(eval, bounded_functions)
{
	/* min([1, 3], [2, 5]) = [1, 2 min 5 .. 3] = [1, 3]; max = [2, 5] */
	is("min(fig(1, 3), fig(2, 5)) >= 1", O_TRUE);
	is("min(fig(1, 3), fig(2, 5)) <= 3", O_TRUE);
	is("min(fig(1, 3), fig(2, 5)) >= 2", O_UNDECIDED);
	is("max(fig(1, 3), fig(2, 5)) >= 2", O_TRUE);
	is("max(fig(1, 3), fig(2, 5)) > 5", O_FALSE);
	is("max(fig(1, 3), fig(2, 5)) >= 3", O_UNDECIDED);
	/* beside a bounded ratio a ratio literal is in millionths:
	 * min([40%, 60%], 1:2) = [40%, 50%] */
	is("min(fig(40%, 60%), 1:2) <= 50%", O_TRUE);
	is("min(fig(40%, 60%), 1:2) >= 40%", O_TRUE);
	is("min(fig(40%, 60%), 1:2) > 40%", O_UNDECIDED);
	fails("min(fig(1, 3), 1:2) > 0", "min() of a plain number and a ratio");
	fails("ceil_div(fig(1, 3), 2) > 0", "cannot be scaled");
	fails("fig(1, 3) % 2 > 0", "cannot be scaled");
	/* a bounded figure, or a condition it leaves undecided, has no text */
	fails("f\"{fig(1, 3)}\" == \"\"", "cannot be scaled");
	fails("f\"{fig(1, 3) >= 2}\" == \"\"", "undecided condition");
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
	/* in arithmetic a ratio is the exact quotient a * 10^6 / b ppm */
	is("1:4 * 4 == 100%", O_TRUE);
	is("3kW * 1:2 == 1.5kW", O_TRUE);
	is("1:3 * 3 == 100%", O_TRUE); /* 10^6/3 ppm * 3 = 10^6 ppm */
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

Test(eval, exact_division)
{
	/* 1/3 * 100% is the quotient 10^6/3 ppm, not 0% */
	is("1 / 3 * 100% == 0%", O_FALSE);
	is("1 / 3 * 100% > 333333ppm", O_TRUE);
	is("1 / 3 * 100% < 333334ppm", O_TRUE);
	is("1 / 3 * 100% * 3 == 100%", O_TRUE);
	/* 10 kW / 3 = 10^7/3 mW; times 3 is 10 kW again (truncated: 9999999) */
	is("10kW / 3 * 3 == 10kW", O_TRUE);
	/* 100% / 3 of 10.2 kW: 10,200,000 mW / 3 = 3,400,000 mW */
	is("100% / 3 * 10.2kW == 3.4kW", O_TRUE);
	is("7 / 2 > 3", O_TRUE);
	is("2 / 4 == 1 / 2", O_TRUE);
	is("min(1 / 3, 1 / 4) == 1 / 4", O_TRUE);
	is("max(1 / 3, 1 / 4) * 3 == 1", O_TRUE);
	is("-(1 / 3) * 3 == -1", O_TRUE);
	is("9223372036854775807 / 2 * 2 == 9223372036854775807", O_TRUE);
	/* 1 / (2^63 - 1)^2: a denominator past 64 bits */
	fails("1 / 9223372036854775807 / 9223372036854775807 > 0",
	      "arithmetic overflow");
	fails("1 / (1 - 1) > 0", "division by zero");
}

Test(eval, remainder)
{
	is("10kW % 3kW == 1kW", O_TRUE);
	is("7.5kW % 2kW == 1.5kW", O_TRUE);
	is("-7 % 3 == -1", O_TRUE); /* the sign of the dividend, as in C */
	is("7 % -3 == 1", O_TRUE);
	/* 1/2 - 1 * 1/3 = 1/6 */
	is("(1 / 2) % (1 / 3) * 6 == 1", O_TRUE);
	is("50% % 20% == 10%", O_TRUE);
	fails("10kW % 3 == 1mW", "remainder of a power by a plain number");
	fails("10 % 3kW == 1", "remainder of a plain number by a power");
	fails("10kW % 0kW == 1kW", "division by zero");
}

Test(eval, rounding)
{
	is("floor(7 / 2) == 3", O_TRUE);
	is("ceil(7 / 2) == 4", O_TRUE);
	is("round(7 / 2) == 4", O_TRUE);
	is("round(-7 / 2) == -4", O_TRUE); /* halves away from zero */
	is("floor(-7 / 2) == -4", O_TRUE);
	is("ceil(-7 / 2) == -3", O_TRUE);
	is("round(5 / 3) == 2", O_TRUE);
	is("round(4 / 3) == 1", O_TRUE);
	is("floor(6) == 6", O_TRUE);
	/* 10^7/3 mW = 3,333,333.33 mW */
	is("round(10kW / 3) == 3333.333W", O_TRUE);
	is("ceil(10kW / 3, 1W) == 3334W", O_TRUE);
	is("floor(10kW / 3, 1kW) == 3kW", O_TRUE);
	is("round(2.5kW, 1kW) == 3kW", O_TRUE);
	/* 8 / 10.2 = 0.78431372.. = 784,313.72 ppm */
	is("round(8kW / 10.2kW) == 784314ppm", O_TRUE);
	is("floor(8kW / 10.2kW) == 784313ppm", O_TRUE);
	fails("floor(1kW, 0W) > 0W", "must be positive");
	fails("floor(1kW, 1m) > 0W", "the step of floor() is a length");
	fails("round(1, 2, 3) > 0", "takes a number and an optional step");
}

Test(eval, conversion)
{
	is("to(10.2kW, kW) * 10 == 102", O_TRUE);
	is("to(10.2kW, 1kW) == 51 / 5", O_TRUE);
	is("to(10.2kW, W) == 10200", O_TRUE);
	/* 10.2 / 3 = 3.4: four 3 kW units */
	is("ceil(to(10.2kW, 3kW)) == 4", O_TRUE);
	is("to(400Gb/s, 1Gb/s) == 400", O_TRUE);
	is("to(50%, 1%) == 50", O_TRUE);
	/* 1 m / 0.3048 m = 3.28083989..; x 1000 rounds to 3281 */
	is("round(to(1m, ft) * 1000) == 3281", O_TRUE);
	fails("to(1kW, m) > 0", "to() of a power in a unit of length");
	fails("to(1kW, bogus) > 0", "'bogus' is not a unit");
	fails("to(1kW, 0W) > 0", "must be positive");
}

Test(eval, format_strings)
{
	is("f\"dgx-{2:02}-{7:03}\" == \"dgx-02-007\"", O_TRUE);
	is("f\"{{x}} {{{1}}}\" == \"{x} {1}\"", O_TRUE);
	is("f\"a\\tb\\\"{1}\\\"\" == \"a\\tb\\\"1\\\"\"", O_TRUE);
	/* a quantity: as -O ir writes it, or a number of a stated unit */
	is("f\"{10.2kW}\" == \"10.2kW\"", O_TRUE);
	is("f\"{10.2kW:kW}\" == \"10.2\"", O_TRUE);
	is("f\"{10.2kW:W}\" == \"10200\"", O_TRUE);
	is("f\"{10.2kW:.3kW}\" == \"10.200\"", O_TRUE);
	is("f\"{10.2kW:08.1W}\" == \"010200.0\"", O_TRUE);
	is("f\"{10kW / 3:.2kW}\" == \"3.33\"", O_TRUE);
	is("f\"{2kW / 3:.1kW}\" == \"0.7\"", O_TRUE); /* 0.666.. */
	is("f\"{1.5m:mm}\" == \"1500\"", O_TRUE);
	is("f\"{25%:%}\" == \"25\"", O_TRUE);
	is("f\"{(1:4):%}\" == \"25\"", O_TRUE);
	/* plain numbers: exact decimals, or rounded half away from zero */
	is("f\"{1 / 4}\" == \"0.25\"", O_TRUE);
	is("f\"{1 / 8:.2}\" == \"0.13\"", O_TRUE);
	is("f\"{-1 / 8:.2}\" == \"-0.13\"", O_TRUE);
	is("f\"{2 / 3:.0}\" == \"1\"", O_TRUE);
	/* hexadecimal: 0x18 = 24, 0xd4 = 212, 0x1a = 26 */
	is("f\"0000:{24:02x}:00.0|{212:x}|{24:04X}|{-26:x}\" == "
	   "\"0000:18:00.0|d4|0018|-1a\"",
	   O_TRUE);
	fails("f\"{1kW:x}\" == \"\"", "hexadecimal formats a whole plain");
	fails("f\"{1 / 2:x}\" == \"\"", "not a quotient");
	/* width, padding, alignment */
	is("f\"{-5:04}\" == \"-005\"", O_TRUE);
	is("f\"{3:<4}|\" == \"3   |\"", O_TRUE);
	is("f\"{3:>4}|{3:4}\" == \"   3|   3\"", O_TRUE);
	is("f\"{123456:3}\" == \"123456\"", O_TRUE); /* never cut */
	is("f\"{1 == 1:>5}\" == \" true\"", O_TRUE);
	is("f\"{1 == 2}|\" == \"false|\"", O_TRUE);
	/* any expression: nested indexes, calls, arithmetic */
	is("f\"{[10, 20, 30][1 + 1]:04}\" == \"0030\"", O_TRUE);
	is("f\"{len([1, 2, 3]) * 2:>3}\" == \"  6\"", O_TRUE);
	is("f\"{[[1, 2], [3, 4]][1][0]}\" == \"3\"", O_TRUE);
	fails("f\"{1 / 3}\" == \"\"", "not an exact decimal");
	fails("f\"{1kW:m}\" == \"\"", "'m' is a unit of length");
	fails("f\"{1:kW}\" == \"\"", "'kW' is a unit of power");
	fails("f\"{1kW / 3}\" == \"\"", "give a unit");
	fails("f\"{[1, 2]}\" == \"\"", "cannot format a list");
	fails("f\"{1 == 1:03}\" == \"\"", "formats a number, not a boolean");
	fails("f\"{nope}\" == \"\"", "'nope' is not defined");
	/* 17 fields of 256 bytes: 4,352 bytes, past the 4,096 of a string */
	fails("f\"{1:256}{1:256}{1:256}{1:256}{1:256}{1:256}{1:256}{1:256}"
	      "{1:256}{1:256}{1:256}{1:256}{1:256}{1:256}{1:256}{1:256}"
	      "{1:256}\" == \"\"",
	      "longer than 4096 bytes");
	/* 16 of them: 4,096 bytes, the most a string holds */
	is("f\"{1:256}{1:256}{1:256}{1:256}{1:256}{1:256}{1:256}{1:256}"
	   "{1:256}{1:256}{1:256}{1:256}{1:256}{1:256}{1:256}{1:256}\" != \"\"",
	   O_TRUE);
}
