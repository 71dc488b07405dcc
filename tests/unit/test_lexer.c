/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the scanner (grammar/lexer.l, src/syntax/lex.c), seen
 * through parse results: quantity literals and their exact base values,
 * ratios, strings and their escapes, the three comment forms, automatic
 * statement ends, and every lexical error with its message and position.
 */
#include "rackc.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "parse.h"

/* Parse @src, which must have no errors. */
static struct parsed *ok(const char *src)
{
	struct parsed *p = parse_str(src);

	cr_assert_eq(p->nerr, 0, "unexpected errors for <%s>:\n%s", src,
		     p->err);
	cr_assert_str_eq(p->err, "", "diagnostics for <%s>:\n%s", src, p->err);
	return p;
}

/* Parse @src, which must have exactly @n errors. */
static struct parsed *bad(const char *src, uint32_t n)
{
	struct parsed *p = parse_str(src);

	cr_assert_eq(p->nerr, n, "want %u errors for <%s>, got %u:\n%s", n, src,
		     p->nerr, p->err);
	return p;
}

/* The arguments of the only statement of "x ARGS". */
static const struct ast *args_of(const struct parsed *p)
{
	cr_assert_not_null(p->ast);
	cr_assert_null(p->ast->next, "more than one statement");
	cr_assert_eq(p->ast->kind, AST_STMT);
	return p->ast->list;
}

static void expect_num(const struct ast *a, enum dim d, int64_t v,
		       const char *lit)
{
	cr_assert_not_null(a, "missing literal %s", lit);
	cr_assert_eq(a->kind, AST_NUM, "%s: kind %d", lit, (int)a->kind);
	cr_assert_eq(a->num.dim, d, "%s: dim %s, want %s", lit,
		     dim_name(a->num.dim), dim_name(d));
	cr_assert_eq(a->num.v, v, "%s: %lld, want %lld", lit,
		     (long long)a->num.v, (long long)v);
}

struct lit {
	const char *text;
	enum dim dim;
	int64_t v;
};

/* Parse "x LIT, LIT, ..." and check every literal's dimension and value. */
static void check_literals(const struct lit *l, size_t n)
{
	char src[1024] = "x ";
	struct parsed *p;
	const struct ast *a;

	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(src, ", ");
		strcat(src, l[i].text);
	}
	p = ok(src);
	a = args_of(p);
	for (size_t i = 0; i < n; i++, a = a->next)
		expect_num(a, l[i].dim, l[i].v, l[i].text);
	cr_assert_null(a);
	parsed_free(p);
}

/* The first line of the diagnostics must be @want. */
static void expect_first_line(const struct parsed *p, const char *want)
{
	size_t n = strlen(want);

	cr_assert(strncmp(p->err, want, n) == 0 && p->err[n] == '\n',
		  "want first line\n  %s\ngot\n%s", want, p->err);
}

/* ---- numbers ---- */

Test(lexer, plain_numbers)
{
	static const struct lit l[] = {
		{ "0", DIM_NONE, 0 },
		{ "42", DIM_NONE, 42 },
		{ "1_000", DIM_NONE, 1000 },
		{ "1e15", DIM_NONE, 1000000000000000LL },
		{ "2E3", DIM_NONE, 2000 },
	};

	check_literals(l, ARRAY_SIZE(l));
}

Test(lexer, power_length_mass_literals)
{
	static const struct lit l[] = {
		{ "10.2kW", DIM_POWER, 10200000 },
		{ "700W", DIM_POWER, 700000 },
		{ "1.2MW", DIM_POWER, 1200000000 },
		{ "3m", DIM_LENGTH, 3000000 },
		{ "600mm", DIM_LENGTH, 600000 },
		{ "130.45kg", DIM_MASS, 130450 },
		{ "8U", DIM_RACKU, 8 },
	};

	check_literals(l, ARRAY_SIZE(l));
}

Test(lexer, rate_and_byte_literals)
{
	static const struct lit l[] = {
		{ "400Gb/s", DIM_RATE, 400000000000LL },
		{ "900GB/s", DIM_RATE, 7200000000000LL },
		{ "80GB", DIM_BYTES, 80000000000LL },
	};

	check_literals(l, ARRAY_SIZE(l));
}

Test(lexer, electrical_thermal_money_ratio_literals)
{
	static const struct lit l[] = {
		{ "63A", DIM_CURRENT, 63000 },
		{ "415V", DIM_VOLTAGE, 415000 },
		{ "32C", DIM_TEMP, 32000 },
		{ "10K", DIM_TEMP, 10000 },
		{ "1.5L/min", DIM_FLOW, 1500 },
		{ "1200USD", DIM_MONEY, 120000 },
		{ "80%", DIM_RATIO, 800000 },
	};

	check_literals(l, ARRAY_SIZE(l));
}

Test(lexer, literal_location_covers_number_and_unit)
{
	struct parsed *p = ok("x 10.2kW, 400Gb/s");
	const struct ast *a = args_of(p);

	cr_assert_str_eq(loc_text(p, &a->loc), "10.2kW");
	cr_assert_str_eq(loc_text(p, &a->next->loc), "400Gb/s");
	parsed_free(p);
}

Test(lexer, range_is_not_a_decimal_point)
{
	/* "0..7" is 0 .. 7, not "0." followed by ".7" */
	struct parsed *p = ok("port ib[0..7]");
	const struct ast *a = args_of(p);

	cr_assert_eq(a->kind, AST_INDEX);
	cr_assert_eq(a->rhs->kind, AST_BINARY);
	cr_assert_eq(a->rhs->op, OP_RANGE);
	expect_num(a->rhs->lhs, DIM_NONE, 0, "0");
	expect_num(a->rhs->rhs, DIM_NONE, 7, "7");
	parsed_free(p);
}

Test(lexer, fractional_plain_number_is_an_error)
{
	struct parsed *p = bad("x 1.5", 1);

	cr_assert(strstr(p->err,
			 "test.rack:1:3: error: number is not a "
			 "whole number (plain numbers must be integers"),
		  "%s", p->err);
	cr_assert(strstr(p->err, "[syntax]"));
	parsed_free(p);
}

Test(lexer, number_out_of_range)
{
	struct parsed *p = bad("x 99999999999999999999", 1);

	cr_assert(strstr(p->err, "number out of range"), "%s", p->err);
	parsed_free(p);
}

Test(lexer, unknown_unit_with_suggestion)
{
	struct parsed *p = bad("x 3kw", 1);

	/* reported at the suffix, not at the digits */
	expect_first_line(p, "test.rack:1:4: error: unknown unit 'kw'; did "
			     "you mean 'kW'? [syntax]");
	parsed_free(p);
}

Test(lexer, unknown_unit_without_suggestion)
{
	struct parsed *p = bad("x 3zzqx", 1);

	expect_first_line(p,
			  "test.rack:1:4: error: unknown unit 'zzqx' [syntax]");
	parsed_free(p);
}

Test(lexer, malformed_numbers)
{
	static const char *const bads[] = { "x 1_000_", "x 1__0", "x 1e",
					    "x 2ee3" };

	for (size_t i = 0; i < ARRAY_SIZE(bads); i++) {
		struct parsed *p = parse_str(bads[i]);

		cr_assert(p->nerr >= 1, "<%s>", bads[i]);
		cr_assert(strncmp(p->err,
				  "test.rack:1:3: error: malformed "
				  "number [syntax]\n",
				  48) == 0,
			  "<%s>: %s", bads[i], p->err);
		parsed_free(p);
	}
}

/* ---- ratios ---- */

Test(lexer, ratio_literals)
{
	struct parsed *p = ok("oversubscription 3:1, 1:1, 12:7");
	const struct ast *a = args_of(p);
	static const int64_t want[][2] = { { 3, 1 }, { 1, 1 }, { 12, 7 } };

	for (int i = 0; i < 3; i++, a = a->next) {
		cr_assert_eq(a->kind, AST_RATIO);
		cr_assert_eq(a->num.v, want[i][0]);
		cr_assert_eq(a->num2, want[i][1]);
	}
	parsed_free(p);
}

Test(lexer, ratio_with_zero_term)
{
	struct parsed *p = bad("x 0:1", 1);

	expect_first_line(
	    p, "test.rack:1:3: error: ratio terms must be positive [syntax]");
	parsed_free(p);
}

Test(lexer, spaced_colon_is_a_type_not_a_ratio)
{
	struct parsed *p = ok("x 3 : 1");

	cr_assert_eq(p->ast->kind, AST_STMT);
	expect_num(p->ast->list, DIM_NONE, 3, "3");
	cr_assert_not_null(p->ast->rhs);
	expect_num(p->ast->rhs, DIM_NONE, 1, "1");
	parsed_free(p);
}

/* ---- strings ---- */

Test(lexer, string_escapes)
{
	struct parsed *p = ok("x \"a\\\"b\\\\c\\nd\\te\"");
	const struct ast *a = args_of(p);

	cr_assert_eq(a->kind, AST_STR);
	cr_assert_str_eq(pstr(p, a->str), "a\"b\\c\nd\te");
	/* the location covers both quotes */
	cr_assert_str_eq(loc_text(p, &a->loc), "\"a\\\"b\\\\c\\nd\\te\"");
	parsed_free(p);
}

Test(lexer, string_utf8_and_empty)
{
	struct parsed *p =
	    ok("x \"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\", \"\"");
	const struct ast *a = args_of(p);

	cr_assert_str_eq(pstr(p, a->str),
			 "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	cr_assert_eq(a->next->kind, AST_STR);
	cr_assert_str_eq(pstr(p, a->next->str), "");
	parsed_free(p);
}

Test(lexer, unknown_escape)
{
	struct parsed *p = bad("x \"a\\qb\"", 1);

	expect_first_line(p, "test.rack:1:5: error: unknown escape sequence "
			     "in string [syntax]");
	parsed_free(p);
}

Test(lexer, unterminated_string_at_newline)
{
	struct parsed *p = bad("a 1\nlet s = \"abc\nb 2\n", 1);

	expect_first_line(p,
			  "test.rack:2:9: error: unterminated string [syntax]");
	/* the statement after it still parses */
	cr_assert_not_null(p->ast);
	cr_assert_eq(p->ast->kind, AST_STMT);
	cr_assert_str_eq(pstr(p, p->ast->str), "a");
	parsed_free(p);
}

Test(lexer, unterminated_string_at_eof)
{
	struct parsed *p = bad("x 1\nx \"abc", 1);

	expect_first_line(p,
			  "test.rack:2:3: error: unterminated string [syntax]");
	parsed_free(p);
}

Test(lexer, nul_byte_in_string)
{
	static const char src[] = "x \"a\0b\"\n";
	struct parsed *p = parse_mem(src, sizeof(src) - 1, 10);

	cr_assert_eq(p->nerr, 1, "%s", p->err);
	expect_first_line(
	    p, "test.rack:1:3: error: string contains a NUL byte [syntax]");
	parsed_free(p);
}

Test(lexer, invalid_utf8_in_string)
{
	static const char *const bads[] = {
		"x \"a\xff\"",		  /* never valid */
		"x \"\xc0\xaf\"",	  /* overlong '/' */
		"x \"\xed\xa0\x80\"",	  /* UTF-16 surrogate */
		"x \"\xe2\x82\"",	  /* truncated sequence */
		"x \"\xf4\x90\x80\x80\"", /* above U+10FFFF */
	};

	for (size_t i = 0; i < ARRAY_SIZE(bads); i++) {
		struct parsed *p = parse_str(bads[i]);

		cr_assert_eq(p->nerr, 1, "case %zu: %s", i, p->err);
		cr_assert(strstr(p->err, "test.rack:1:3: error: string is not "
					 "valid UTF-8 [syntax]"),
			  "case %zu: %s", i, p->err);
		parsed_free(p);
	}
}

Test(lexer, string_length_limit)
{
	char *src = xmalloc(RK_MAX_STRING + 16);
	struct parsed *p;

	/* exactly the limit is fine */
	memcpy(src, "x \"", 3);
	memset(src + 3, 'a', RK_MAX_STRING);
	strcpy(src + 3 + RK_MAX_STRING, "\"");
	p = ok(src);
	cr_assert_eq(strlen(pstr(p, p->ast->list->str)), RK_MAX_STRING);
	parsed_free(p);
	/* one more byte is not */
	memset(src + 3, 'a', RK_MAX_STRING + 1);
	strcpy(src + 4 + RK_MAX_STRING, "\"");
	p = bad(src, 1);
	cr_assert(strstr(p->err, "string longer than 4096 bytes"), "%s",
		  p->err);
	parsed_free(p);
	free(src);
}

/* ---- comments ---- */

Test(lexer, three_comment_forms)
{
	struct parsed *p = ok("# hash comment \"not a string\n"
			      "a 1 // line comment\n"
			      "/* block\n"
			      "   comment */\n"
			      "b /* inline */ 2 # trailing\n");

	cr_assert_eq(ast_list_len(p->ast), 2);
	cr_assert_str_eq(pstr(p, nth(p->ast, 0)->str), "a");
	cr_assert_str_eq(pstr(p, nth(p->ast, 1)->str), "b");
	expect_num(nth(p->ast, 1)->list, DIM_NONE, 2, "2");
	parsed_free(p);
}

Test(lexer, block_comment_with_stars)
{
	struct parsed *p = ok("a 1 /***/ ; b 2 /* x ** y **/\n");

	cr_assert_eq(ast_list_len(p->ast), 2);
	parsed_free(p);
}

Test(lexer, multiline_block_comment_ends_statement)
{
	/* a comment spanning a newline acts like the newline */
	struct parsed *p = ok("a 1 /* x\n y */ b 2\n");

	cr_assert_eq(ast_list_len(p->ast), 2);
	parsed_free(p);
	/* on one line it does not */
	p = ok("a 1 /* x */ , 2\n");
	cr_assert_eq(ast_list_len(p->ast), 1);
	cr_assert_eq(ast_list_len(p->ast->list), 2);
	parsed_free(p);
}

Test(lexer, unterminated_comment)
{
	struct parsed *p = bad("a 1\nb 2 /* never\nclosed\n", 1);

	/* reported where the comment starts, with its two characters */
	expect_first_line(
	    p, "test.rack:2:5: error: unterminated comment [syntax]");
	cr_assert(strstr(p->err, "  |     ^~\n"), "%s", p->err);
	parsed_free(p);
}

/* ---- automatic statement ends ---- */

Test(lexer, newline_after_identifier_ends_statement)
{
	struct parsed *p = ok("a\nb\nc x\n");

	cr_assert_eq(ast_list_len(p->ast), 3);
	cr_assert_null(nth(p->ast, 0)->list);
	cr_assert_eq(ast_list_len(nth(p->ast, 2)->list), 1);
	parsed_free(p);
}

Test(lexer, newline_after_literal_and_closer_ends_statement)
{
	struct parsed *p = ok("a 1\nb \"s\"\nc 3:1\nd f(1)\ne [1]\n");

	cr_assert_eq(ast_list_len(p->ast), 5);
	parsed_free(p);
}

Test(lexer, newline_after_operator_continues)
{
	struct parsed *p = ok("let x = 1 +\n 2 *\n\n 3\nlet y = a ->\nb\n"
			      "z a,\n b\n");

	cr_assert_eq(ast_list_len(p->ast), 3);
	cr_assert_eq(p->ast->kind, AST_LET);
	cr_assert_eq(p->ast->lhs->kind, AST_BINARY);
	cr_assert_eq(p->ast->lhs->op, OP_ADD);
	cr_assert_eq(nth(p->ast, 1)->lhs->op, OP_ARROW);
	cr_assert_eq(ast_list_len(nth(p->ast, 2)->list), 2);
	parsed_free(p);
}

Test(lexer, newline_inside_brackets_continues)
{
	struct parsed *p = ok("let x = (1\n + 2\n)\nlet y = [1\n, 2\n, 3\n]\n"
			      "z f(a\n, b)\n");

	cr_assert_eq(ast_list_len(p->ast), 3);
	cr_assert_eq(p->ast->lhs->op, OP_ADD);
	cr_assert_eq(nth(p->ast, 1)->lhs->kind, AST_LIST);
	cr_assert_eq(ast_list_len(nth(p->ast, 1)->lhs->list), 3);
	cr_assert_eq(ast_list_len(nth(p->ast, 2)->list->list), 2);
	parsed_free(p);
}

Test(lexer, newline_inside_braces_ends_statements)
{
	/* '{' does not suspend statement ends the way '(' does */
	struct parsed *p = ok("site s {\n a 1\n b 2\n}\n");

	cr_assert_eq(ast_list_len(p->ast), 1);
	cr_assert_eq(ast_list_len(p->ast->body), 2);
	parsed_free(p);
}

Test(lexer, closing_brace_needs_no_semicolon)
{
	struct parsed *p = ok("part p : gpu { tdp 700W; hbm 80GB }\n"
			      "part q : gpu { tdp 1W }");

	cr_assert_eq(ast_list_len(p->ast), 2);
	cr_assert_eq(ast_list_len(p->ast->body), 2);
	cr_assert_eq(ast_list_len(p->ast->next->body), 1);
	parsed_free(p);
}

Test(lexer, semicolons_and_empty_statements)
{
	struct parsed *p = ok(";;a 1;;; b 2;\n\n;");

	cr_assert_eq(ast_list_len(p->ast), 2);
	parsed_free(p);
}

Test(lexer, crlf_line_ends)
{
	struct parsed *p = ok("a 1\r\nb 2\r\n");

	cr_assert_eq(ast_list_len(p->ast), 2);
	parsed_free(p);
}

Test(lexer, else_on_next_line)
{
	struct parsed *p = ok("if c {\n a 1\n}\n  \n  else {\n b 2\n}\n");

	cr_assert_eq(ast_list_len(p->ast), 1);
	cr_assert_eq(p->ast->kind, AST_IF);
	cr_assert(p->ast->has_body, "else branch lost");
	cr_assert_not_null(p->ast->else_body);
	cr_assert_str_eq(pstr(p, p->ast->else_body->str), "b");
	parsed_free(p);
}

Test(lexer, identifier_starting_with_else_is_not_else)
{
	struct parsed *p = ok("if c {\n a 1\n}\nelsewhere 2\n");

	cr_assert_eq(ast_list_len(p->ast), 2);
	cr_assert_eq(p->ast->kind, AST_IF);
	cr_assert_null(p->ast->else_body);
	cr_assert_str_eq(pstr(p, p->ast->next->str), "elsewhere");
	parsed_free(p);
}

Test(lexer, keywords_and_identifiers)
{
	struct parsed *p = ok("importer 1\nparams 2\n_x9 3\nin_rack 4\n");

	cr_assert_eq(ast_list_len(p->ast), 4);
	cr_assert_str_eq(pstr(p, nth(p->ast, 0)->str), "importer");
	cr_assert_str_eq(pstr(p, nth(p->ast, 2)->str), "_x9");
	parsed_free(p);
}

/* ---- lexical errors ---- */

Test(lexer, stray_printable_byte)
{
	struct parsed *p = bad("a 1\nb 2 @\n", 1);

	expect_first_line(p,
			  "test.rack:2:5: error: stray '@' in design [syntax]");
	/* the stray byte is skipped: both statements survive */
	cr_assert_eq(ast_list_len(p->ast), 2);
	parsed_free(p);
}

Test(lexer, stray_control_and_non_ascii_bytes)
{
	struct parsed *p = bad("a 1 \x01\n", 1);

	expect_first_line(
	    p, "test.rack:1:5: error: stray control byte 0x01 [syntax]");
	parsed_free(p);
	p = parse_str("a \xc3\xa9\n");
	cr_assert(p->nerr >= 1);
	expect_first_line(p, "test.rack:1:3: error: stray non-ASCII bytes "
			     "outside a string or comment [syntax]");
	parsed_free(p);
}

Test(lexer, nul_byte_outside_and_inside_comments)
{
	static const char src[] = "a 1 \0\nb 2 # c\0d\nc /* \0 */ 3\n";
	struct parsed *p = parse_mem(src, sizeof(src) - 1, 10);

	/* only the NUL outside a comment is an error */
	cr_assert_eq(p->nerr, 1, "%s", p->err);
	expect_first_line(
	    p, "test.rack:1:5: error: stray control byte 0x00 [syntax]");
	cr_assert_eq(ast_list_len(p->ast), 3);
	parsed_free(p);
}

Test(lexer, identifier_length_limit)
{
	char src[RK_MAX_IDENT + 16];
	struct parsed *p;

	memset(src, 'a', RK_MAX_IDENT);
	strcpy(src + RK_MAX_IDENT, " 1");
	p = ok(src);
	cr_assert_eq(strlen(pstr(p, p->ast->str)), RK_MAX_IDENT);
	parsed_free(p);
	memset(src, 'a', RK_MAX_IDENT + 1);
	strcpy(src + RK_MAX_IDENT + 1, " 1");
	p = bad(src, 1);
	expect_first_line(p, "test.rack:1:1: error: identifier longer than "
			     "256 bytes [syntax]");
	parsed_free(p);
}

static char *nested(unsigned depth)
{
	char *s = xmalloc(2 * depth + 16);
	char *q = s;

	q += sprintf(q, "let x = ");
	for (unsigned i = 0; i < depth; i++)
		*q++ = '(';
	*q++ = '1';
	for (unsigned i = 0; i < depth; i++)
		*q++ = ')';
	*q = '\0';
	return s;
}

Test(lexer, nesting_limit)
{
	char *src = nested(RK_MAX_NESTING);
	struct parsed *p = ok(src);

	free(src);
	parsed_free(p);
	src = nested(RK_MAX_NESTING + 44);
	p = bad(src, 1);
	/* reported at the first bracket over the limit; nothing after it */
	expect_first_line(p, "test.rack:1:265: error: brackets and blocks "
			     "nested deeper than 256 levels (the nesting "
			     "limit) [syntax]");
	cr_assert(strstr(p->err, "1 error generated."), "%s", p->err);
	free(src);
	parsed_free(p);
}

Test(lexer, nesting_limit_counts_blocks)
{
	size_t n = RK_MAX_NESTING + 1;
	char *src = xmalloc(4 * n + 8);
	char *q = src;
	struct parsed *p;

	for (size_t i = 0; i < n; i++)
		q += sprintf(q, "g{");
	for (size_t i = 0; i < n; i++)
		*q++ = '}';
	*q = '\0';
	p = parse_str(src);
	cr_assert_eq(p->nerr, 1, "%s", p->err);
	cr_assert(strstr(p->err, "nested deeper than 256 levels"), "%s",
		  p->err);
	parsed_free(p);
	free(src);
}

/*
 * Regression (was a bug): a unit suffix swallows "/IDENT", so a quantity divided by
 * a variable without spaces is an unknown unit:
 *     let n = 2
 *     let a = 10kW/n      -> error: unknown unit 'kW/n'
 * while "10kW / n" and "10kW/2" are fine.  The scanner takes
 * [A-Za-z%]+(/[A-Za-z]+)? greedily; it should only take the "/..." part
 * when the whole suffix is a known unit (b/s, GB/s, L/min, ...).
 */
Test(lexer, quantity_divided_by_identifier)
{
	struct parsed *p = ok("let a = 10kW/n");

	cr_assert_eq(p->ast->lhs->kind, AST_BINARY);
	cr_assert_eq(p->ast->lhs->op, OP_DIV);
	expect_num(p->ast->lhs->lhs, DIM_POWER, 10000000, "10kW");
	parsed_free(p);
}

Test(lexer, quantity_divided_by_identifier_with_spaces)
{
	struct parsed *p = ok("let a = 10kW / n\nlet b = 10kW/2");

	cr_assert_eq(p->ast->lhs->op, OP_DIV);
	expect_num(p->ast->lhs->lhs, DIM_POWER, 10000000, "10kW");
	cr_assert_eq(p->ast->lhs->rhs->kind, AST_IDENT);
	cr_assert_eq(p->ast->next->lhs->op, OP_DIV);
	expect_num(p->ast->next->lhs->rhs, DIM_NONE, 2, "2");
	parsed_free(p);
}
