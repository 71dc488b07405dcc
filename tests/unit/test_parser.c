/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for the grammar (grammar/parser.y): the AST shape of every
 * statement kind, operator precedence and associativity, postfix chains,
 * calls and lists, syntax error messages, and error recovery.  Expressions
 * are compared as S-expressions built by sx() below.
 */
#include "rackc.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "parse.h"

static struct parsed *ok(const char *src)
{
	struct parsed *p = parse_str(src);

	cr_assert_eq(p->nerr, 0, "unexpected errors for <%s>:\n%s", src,
		     p->err);
	cr_assert_str_eq(p->err, "", "diagnostics for <%s>:\n%s", src, p->err);
	return p;
}

/* ---- S-expressions ---- */

struct buf {
	char s[4096];
	size_t n;
};

static void put(struct buf *b, const char *fmt, ...) PRINTF(2, 3);
static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(b->s + b->n, sizeof(b->s) - b->n, fmt, ap);
	va_end(ap);
	cr_assert(k >= 0 && (size_t)k < sizeof(b->s) - b->n, "sx too long");
	b->n += (size_t)k;
}

static void sx_into(const struct parsed *p, const struct ast *x, struct buf *b);

static void sx_list(const struct parsed *p, const struct ast *l, struct buf *b)
{
	for (; l; l = l->next) {
		put(b, " ");
		sx_into(p, l, b);
	}
}

static void sx_into(const struct parsed *p, const struct ast *x, struct buf *b)
{
	char q[RK_QFMT_MAX];

	if (!x) {
		put(b, "nil");
		return;
	}
	switch (x->kind) {
	case AST_NUM:
		if (x->num.dim == DIM_NONE)
			put(b, "%lld", (long long)x->num.v);
		else
			put(b, "%s", quantity_format(x->num, q));
		break;
	case AST_STR:
		put(b, "\"%s\"", pstr(p, x->str));
		break;
	case AST_RATIO:
		put(b, "%lld:%lld", (long long)x->num.v, (long long)x->num2);
		break;
	case AST_IDENT:
		put(b, "%s", pstr(p, x->str));
		break;
	case AST_WILD:
		put(b, "*");
		break;
	case AST_BINARY:
		put(b, "(%s ", ast_op_str(x->op));
		sx_into(p, x->lhs, b);
		put(b, " ");
		sx_into(p, x->rhs, b);
		put(b, ")");
		break;
	case AST_UNARY:
		put(b, "(%s ", ast_op_str(x->op));
		sx_into(p, x->lhs, b);
		put(b, ")");
		break;
	case AST_MEMBER:
		put(b, "(. ");
		sx_into(p, x->lhs, b);
		put(b, " %s)", pstr(p, x->str));
		break;
	case AST_INDEX:
		put(b, "([] ");
		sx_into(p, x->lhs, b);
		put(b, " ");
		sx_into(p, x->rhs, b);
		put(b, ")");
		break;
	case AST_CALL:
		put(b, "(call %s", pstr(p, x->str));
		sx_list(p, x->list, b);
		put(b, ")");
		break;
	case AST_LIST:
		put(b, "[");
		for (const struct ast *l = x->list; l; l = l->next) {
			if (l != x->list)
				put(b, " ");
			sx_into(p, l, b);
		}
		put(b, "]");
		break;
	case AST_NAMED:
		if (x->lhs) {
			put(b, "(= %s ", pstr(p, x->str));
			sx_into(p, x->lhs, b);
			put(b, ")");
		} else {
			put(b, "%s", pstr(p, x->str));
		}
		break;
	default:
		put(b, "<stmt %d>", (int)x->kind);
		break;
	}
}

static const char *sx(struct parsed *p, const struct ast *x)
{
	struct buf b;

	b.n = 0;
	b.s[0] = '\0';
	sx_into(p, x, &b);
	return arena_strndup(&p->arena, b.s, b.n);
}

/* "let x = SRC" must parse to the S-expression @want. */
static void expect_expr(const char *src, const char *want)
{
	char text[1024];
	struct parsed *p;

	snprintf(text, sizeof(text), "let x = %s", src);
	p = ok(text);
	cr_assert_eq(p->ast->kind, AST_LET);
	cr_assert_str_eq(sx(p, p->ast->lhs), want, "<%s>", src);
	parsed_free(p);
}

/* @src must fail with a first diagnostic line equal to @want. */
static void expect_error(const char *src, const char *want)
{
	struct parsed *p = parse_str(src);
	size_t n = strlen(want);

	cr_assert(p->nerr >= 1, "<%s> parsed without errors", src);
	cr_assert(strncmp(p->err, want, n) == 0 && p->err[n] == '\n',
		  "<%s>: want first line\n  %s\ngot\n%s", src, want, p->err);
	parsed_free(p);
}

/* ---- statements ---- */

Test(parser, empty_file)
{
	struct parsed *p = ok("");

	cr_assert_null(p->ast);
	parsed_free(p);
	p = ok("\n\n  # only a comment\n");
	cr_assert_null(p->ast);
	parsed_free(p);
}

Test(parser, import)
{
	struct parsed *p = ok("import \"std/nvidia\"\n");

	cr_assert_eq(p->ast->kind, AST_IMPORT);
	cr_assert_str_eq(pstr(p, p->ast->str), "std/nvidia");
	cr_assert_str_eq(loc_text(p, &p->ast->wloc), "\"std/nvidia\"");
	cr_assert_str_eq(loc_text(p, &p->ast->loc), "import \"std/nvidia\"");
	parsed_free(p);
}

Test(parser, param_and_let)
{
	struct parsed *p = ok("param nodes = 32\nlet half = nodes / 2\n");
	const struct ast *a = p->ast, *b = p->ast->next;

	cr_assert_eq(a->kind, AST_PARAM);
	cr_assert_str_eq(pstr(p, a->str), "nodes");
	cr_assert_str_eq(loc_text(p, &a->wloc), "nodes");
	cr_assert_str_eq(sx(p, a->lhs), "32");
	cr_assert_eq(b->kind, AST_LET);
	cr_assert_str_eq(pstr(p, b->str), "half");
	cr_assert_str_eq(sx(p, b->lhs), "(/ nodes 2)");
	cr_assert_str_eq(loc_text(p, &b->loc), "let half = nodes / 2");
	parsed_free(p);
}

Test(parser, for_over_range_and_list)
{
	struct parsed *p = ok("for i in 0..n-1 { a i; b 2 }\n"
			      "for s in [\"x\", \"y\"] {}\n");
	const struct ast *f = p->ast;

	cr_assert_eq(f->kind, AST_FOR);
	cr_assert_str_eq(pstr(p, f->str), "i");
	cr_assert_str_eq(loc_text(p, &f->wloc), "i");
	cr_assert_str_eq(sx(p, f->lhs), "(.. 0 (- n 1))");
	cr_assert_eq(ast_list_len(f->body), 2);
	cr_assert_str_eq(pstr(p, f->body->str), "a");
	f = f->next;
	cr_assert_eq(f->kind, AST_FOR);
	cr_assert_str_eq(sx(p, f->lhs), "[\"x\" \"y\"]");
	cr_assert_null(f->body);
	parsed_free(p);
}

Test(parser, if_else_if_else)
{
	struct parsed *p = ok("if n > 4 {\n a 1\n} else if n > 2 {\n b 2\n}"
			      " else {\n c 3; d 4\n}\n");
	const struct ast *i = p->ast, *e;

	cr_assert_eq(ast_list_len(p->ast), 1);
	cr_assert_eq(i->kind, AST_IF);
	cr_assert_str_eq(sx(p, i->lhs), "(> n 4)");
	cr_assert_eq(ast_list_len(i->body), 1);
	cr_assert_str_eq(pstr(p, i->body->str), "a");
	cr_assert(i->has_body, "else not recorded");
	e = i->else_body;
	cr_assert_eq(e->kind, AST_IF);
	cr_assert_null(e->next);
	cr_assert_str_eq(sx(p, e->lhs), "(> n 2)");
	cr_assert_str_eq(pstr(p, e->body->str), "b");
	cr_assert(e->has_body);
	cr_assert_eq(ast_list_len(e->else_body), 2);
	cr_assert_str_eq(pstr(p, e->else_body->next->str), "d");
	parsed_free(p);
}

Test(parser, if_without_else_and_empty_branches)
{
	struct parsed *p = ok("if true {}\nif false {} else {}\n");

	cr_assert_eq(ast_list_len(p->ast), 2);
	cr_assert_eq(p->ast->kind, AST_IF);
	cr_assert(!p->ast->has_body);
	cr_assert_null(p->ast->body);
	cr_assert(p->ast->next->has_body, "empty else not recorded");
	cr_assert_null(p->ast->next->else_body);
	parsed_free(p);
}

Test(parser, module_with_defaults)
{
	struct parsed *p = ok("module su(index, nodes = 32, name = \"x\") {\n"
			      "  node dgx[0..nodes-1] : dgx_h100\n}\n"
			      "module empty() {}\n");
	const struct ast *m = p->ast, *prm;

	cr_assert_eq(m->kind, AST_MODULE);
	cr_assert_str_eq(pstr(p, m->str), "su");
	cr_assert_str_eq(loc_text(p, &m->wloc), "su");
	cr_assert_eq(ast_list_len(m->list), 3);
	prm = m->list;
	cr_assert_eq(prm->kind, AST_NAMED);
	cr_assert_str_eq(pstr(p, prm->str), "index");
	cr_assert_null(prm->lhs);
	cr_assert_str_eq(sx(p, prm->next), "(= nodes 32)");
	cr_assert_str_eq(sx(p, prm->next->next), "(= name \"x\")");
	cr_assert_eq(ast_list_len(m->body), 1);
	cr_assert_str_eq(pstr(p, m->body->str), "node");
	m = m->next;
	cr_assert_eq(m->kind, AST_MODULE);
	cr_assert_null(m->list);
	cr_assert_null(m->body);
	parsed_free(p);
}

Test(parser, require_with_and_without_message)
{
	struct parsed *p = ok("require len(x) == 8, \"eight rails\"\n"
			      "require a <= 40kW\n");
	const struct ast *r = p->ast;

	cr_assert_eq(r->kind, AST_REQUIRE);
	cr_assert_str_eq(sx(p, r->lhs), "(== (call len x) 8)");
	cr_assert_str_eq(sx(p, r->rhs), "\"eight rails\"");
	r = r->next;
	cr_assert_eq(r->kind, AST_REQUIRE);
	cr_assert_str_eq(sx(p, r->lhs), "(<= a 40kW)");
	cr_assert_null(r->rhs);
	parsed_free(p);
}

Test(parser, generic_statement_full)
{
	struct parsed *p = ok("node dgx[0..3] : dgx_h100 {\n"
			      "  rack hall.r[1].rk[3]; at 2U\n}\n");
	const struct ast *s = p->ast;

	cr_assert_eq(s->kind, AST_STMT);
	cr_assert_str_eq(pstr(p, s->str), "node");
	cr_assert_str_eq(loc_text(p, &s->wloc), "node");
	cr_assert_eq(ast_list_len(s->list), 1);
	cr_assert_str_eq(sx(p, s->list), "([] dgx (.. 0 3))");
	cr_assert_str_eq(sx(p, s->rhs), "dgx_h100");
	cr_assert(s->has_body);
	cr_assert_eq(ast_list_len(s->body), 2);
	cr_assert_str_eq(sx(p, s->body->list),
			 "([] (. ([] (. hall r) 1) rk) 3)");
	cr_assert_str_eq(sx(p, s->body->next->list), "2U");
	parsed_free(p);
}

Test(parser, generic_statement_forms)
{
	struct parsed *p = ok("bare\n"
			      "waive \"power-budget\", \"measured\"\n"
			      "typed x : y\n"
			      "block {}\n"
			      "args_block a, b { c 1 }\n");
	const struct ast *s = p->ast;

	cr_assert_eq(ast_list_len(s), 5);
	cr_assert_null(s->list);
	cr_assert_null(s->rhs);
	cr_assert(!s->has_body);
	s = s->next;
	cr_assert_eq(ast_list_len(s->list), 2);
	cr_assert_str_eq(sx(p, s->list->next), "\"measured\"");
	s = s->next;
	cr_assert_str_eq(sx(p, s->list), "x");
	cr_assert_str_eq(sx(p, s->rhs), "y");
	s = s->next;
	cr_assert(s->has_body, "empty block is still a body");
	cr_assert_null(s->body);
	s = s->next;
	cr_assert_eq(ast_list_len(s->list), 2);
	cr_assert_eq(ast_list_len(s->body), 1);
	parsed_free(p);
}

Test(parser, instance_with_call_type)
{
	struct parsed *p = ok("instance su[0] : su(0, nodes = 16)\n");
	const struct ast *s = p->ast;

	cr_assert_str_eq(pstr(p, s->str), "instance");
	cr_assert_str_eq(sx(p, s->list), "([] su 0)");
	cr_assert_eq(s->rhs->kind, AST_CALL);
	cr_assert_str_eq(sx(p, s->rhs), "(call su 0 (= nodes 16))");
	cr_assert_str_eq(loc_text(p, &s->rhs->list->next->wloc), "nodes");
	parsed_free(p);
}

Test(parser, nested_blocks)
{
	struct parsed *p = ok("site s {\n feed A { voltage 415V }\n"
			      " row r[1..2] {\n  rack rk[1] : r48 { slot 1 }\n"
			      " }\n}\n");
	const struct ast *row = nth(p->ast->body, 1);

	cr_assert_eq(ast_list_len(p->ast->body), 2);
	cr_assert_str_eq(pstr(p, row->str), "row");
	cr_assert_str_eq(pstr(p, row->body->str), "rack");
	cr_assert_str_eq(sx(p, row->body->body->list), "1");
	parsed_free(p);
}

/* ---- expressions ---- */

Test(parser, arithmetic_precedence)
{
	expect_expr("a + b * c", "(+ a (* b c))");
	expect_expr("a * b + c", "(+ (* a b) c)");
	expect_expr("a - b - c", "(- (- a b) c)");
	expect_expr("a / b % c", "(% (/ a b) c)");
	expect_expr("(a + b) * c", "(* (+ a b) c)");
	expect_expr("-a * b", "(* (- a) b)");
	expect_expr("- -a", "(- (- a))");
	expect_expr("!a && b", "(&& (! a) b)");
}

Test(parser, link_operator)
{
	expect_expr("a -- b", "(-- a b)");
	expect_expr("dgx[0].ib[3] -- leaf[1].p[7]",
		    "(-- ([] (. ([] dgx 0) ib) 3) ([] (. ([] leaf 1) p) 7))");
	/* '--' binds loosest of all */
	expect_expr("a + 1 -- b + 2", "(-- (+ a 1) (+ b 2))");
}

Test(parser, arrow_operator)
{
	expect_expr("x -> y", "(-> x y)");
	/* right associative, and looser than || */
	expect_expr("a -> b -> c", "(-> a (-> b c))");
	expect_expr("a || b -> c", "(-> (|| a b) c)");
}

Test(parser, psu_map_arguments)
{
	struct parsed *p = ok("power psu[0..2] -> pa[0], psu[3..5] -> pb[0]");

	cr_assert_eq(ast_list_len(p->ast->list), 2);
	cr_assert_str_eq(sx(p, p->ast->list),
			 "(-> ([] psu (.. 0 2)) ([] pa 0))");
	cr_assert_str_eq(sx(p, p->ast->list->next),
			 "(-> ([] psu (.. 3 5)) ([] pb 0))");
	parsed_free(p);
}

Test(parser, comparisons_and_logic)
{
	expect_expr("a + 1 < b * 2", "(< (+ a 1) (* b 2))");
	expect_expr("a == b && c != d || e >= f",
		    "(|| (&& (== a b) (!= c d)) (>= e f))");
	expect_expr("a <= b || c > d && e < f",
		    "(|| (<= a b) (&& (> c d) (< e f)))");
}

Test(parser, range_precedence)
{
	/* '..' binds tighter than comparisons, looser than + */
	expect_expr("0..n-1", "(.. 0 (- n 1))");
	expect_expr("a..b + 1", "(.. a (+ b 1))");
	expect_expr("len(0..7) == 8", "(== (call len (.. 0 7)) 8)");
}

Test(parser, non_associative_operators)
{
	expect_error("let x = a < b < c",
		     "test.rack:1:15: error: syntax error, unexpected '<' "
		     "[syntax]");
	expect_error("let x = a -- b -- c",
		     "test.rack:1:16: error: syntax error, unexpected -- "
		     "[syntax]");
	expect_error("let x = 0..1..2",
		     "test.rack:1:13: error: syntax error, unexpected .. "
		     "[syntax]");
}

Test(parser, postfix_chains)
{
	expect_expr("a.b[1].c", "(. ([] (. a b) 1) c)");
	expect_expr("su[s].dgx[n]", "([] (. ([] su s) dgx) n)");
	expect_expr("a[1][2]", "([] ([] a 1) 2)");
	expect_expr("f(1).x", "(. (call f 1) x)");
}

Test(parser, wildcard_index)
{
	struct parsed *p = ok("endpoints su[*].dgx[*].ib[0..7]");
	const struct ast *a = p->ast->list;

	cr_assert_str_eq(sx(p, a),
			 "([] (. ([] (. ([] su *) dgx) *) ib) (.. 0 7))");
	/* the '*' node has its own location */
	cr_assert_eq(a->lhs->lhs->lhs->lhs->rhs->kind, AST_WILD);
	cr_assert_str_eq(loc_text(p, &a->lhs->lhs->lhs->lhs->rhs->loc), "*");
	parsed_free(p);
}

Test(parser, wildcard_outside_index_is_an_error)
{
	expect_error("let x = *",
		     "test.rack:1:9: error: syntax error, unexpected '*' "
		     "[syntax]");
}

Test(parser, calls_with_named_args)
{
	expect_expr("f()", "(call f)");
	expect_expr("max(a, 2)", "(call max a 2)");
	expect_expr("m(1, k = 2, j = a + b)",
		    "(call m 1 (= k 2) (= j (+ a b)))");
	expect_expr("ceil_div(n, 8) * 2", "(* (call ceil_div n 8) 2)");
}

Test(parser, lists)
{
	expect_expr("[]", "[]");
	expect_expr("[1]", "[1]");
	expect_expr("[1, [2, 3], \"s\", 4kW]", "[1 [2 3] \"s\" 4kW]");
	expect_expr("[a, b][1]", "([] [a b] 1)");
}

/*
 * A node is only as large as its kind needs (struct ast): an identifier or
 * a number is a fraction of a statement, and each kind's fields lie within
 * its size.  The walk below reads every field each kind has (the sanitizer
 * build checks that none lies past its node: the arena poisons what it has
 * not handed out).
 */
Test(parser, nodes_are_as_large_as_their_kind)
{
	cr_assert_leq(ast_size(AST_IDENT), 32);
	cr_assert_leq(ast_size(AST_STR), 32);
	cr_assert_leq(ast_size(AST_NUM), 48);
	cr_assert_leq(ast_size(AST_UNARY), 40);
	cr_assert_leq(ast_size(AST_BINARY), 48);
	cr_assert_leq(ast_size(AST_MEMBER), 64);
	cr_assert_leq(ast_size(AST_LIST), 72);
	cr_assert_eq(ast_size(AST_STMT), sizeof(struct ast));
	cr_assert_geq(ast_size(AST_IDENT), offsetof(struct ast, next) + 8);
	cr_assert_geq(ast_size(AST_NUM),
		      offsetof(struct ast, num) + sizeof(struct quantity));
	cr_assert_geq(ast_size(AST_RATIO), offsetof(struct ast, num2) + 8);
	cr_assert_geq(ast_size(AST_UNARY), offsetof(struct ast, lhs) + 8);
	cr_assert_geq(ast_size(AST_INDEX), offsetof(struct ast, rhs) + 8);
	cr_assert_geq(ast_size(AST_MEMBER),
		      offsetof(struct ast, wloc) + sizeof(struct srcloc));
	cr_assert_geq(ast_size(AST_NAMED),
		      offsetof(struct ast, wloc) + sizeof(struct srcloc));
	cr_assert_geq(ast_size(AST_CALL), offsetof(struct ast, list) + 8);
	expect_expr("[1, 3:1, \"s\", a, -a, a + 1, a.b, a[*], f(x = 1), [2]]",
		    "[1 3:1 \"s\" a (- a) (+ a 1) (. a b) ([] a *) "
		    "(call f (= x 1)) [2]]");
}

Test(parser, literals_in_expressions)
{
	expect_expr("3:1", "3:1");
	expect_expr("10.2kW + 800W", "(+ 10.2kW 800W)");
	expect_expr("80% * x", "(* 80% x)");
	expect_expr("true", "true");
}

Test(parser, locations_of_expressions)
{
	struct parsed *p = ok("let x = (a + b) * c");
	const struct ast *e = p->ast->lhs;

	cr_assert_str_eq(loc_text(p, &e->loc), "(a + b) * c");
	/* a parenthesised expression covers its parentheses */
	cr_assert_str_eq(loc_text(p, &e->lhs->loc), "(a + b)");
	cr_assert_str_eq(loc_text(p, &e->rhs->loc), "c");
	parsed_free(p);
}

Test(parser, expression_depth_limit)
{
	size_t n = RK_MAX_EXPR_DEPTH + 10;
	char *src = xmalloc(4 * n + 16);
	char *q = src + sprintf(src, "let x = 1");
	struct parsed *p;

	for (size_t i = 0; i < n; i++)
		q += sprintf(q, "+1");
	p = parse_str(src);
	cr_assert_eq(p->nerr, 1, "%s", p->err);
	cr_assert(strstr(p->err, "error: expression nested deeper than 4096 "
				 "levels [syntax]"),
		  "%s", p->err);
	parsed_free(p);
	/* just under the limit is fine */
	q = src + sprintf(src, "let x = 1");
	for (size_t i = 0; i < RK_MAX_EXPR_DEPTH - 1; i++)
		q += sprintf(q, "+1");
	p = ok(src);
	cr_assert_eq(p->ast->lhs->depth, RK_MAX_EXPR_DEPTH);
	parsed_free(p);
	free(src);
}

/* ---- syntax errors ---- */

Test(parser, error_unexpected_expecting)
{
	expect_error("import x\n",
		     "test.rack:1:8: error: syntax error, unexpected "
		     "identifier, expecting string [syntax]");
	expect_error("for i 0..1 {}\n",
		     "test.rack:1:7: error: syntax error, unexpected number, "
		     "expecting in [syntax]");
	expect_error("module m(a b) {}\n",
		     "test.rack:1:12: error: syntax error, unexpected "
		     "identifier, expecting '=' or ',' or ')' [syntax]");
	expect_error("param = 1\n",
		     "test.rack:1:7: error: syntax error, unexpected '=', "
		     "expecting identifier [syntax]");
	expect_error("if x { a 1 } else b\n",
		     "test.rack:1:19: error: syntax error, unexpected "
		     "identifier, expecting if or '{' [syntax]");
}

Test(parser, error_at_end_of_file)
{
	expect_error("a 1\nlet\n",
		     "test.rack:2:4: error: syntax error, unexpected end of "
		     "file, expecting identifier [syntax]");
}

Test(parser, error_shows_source_and_caret)
{
	struct parsed *p = parse_str("a 1\nlet y = )\n");

	cr_assert_str_eq(p->err,
			 "test.rack:2:9: error: syntax error, unexpected ')' "
			 "[syntax]\n"
			 "    2 | let y = )\n"
			 "      |         ^\n"
			 "1 error generated.\n");
	parsed_free(p);
}

Test(parser, recovery_reports_two_errors)
{
	struct parsed *p = parse_str("let x = = 2\n"
				     "let ok1 = 1\n"
				     "let y = )\n"
				     "let ok2 = 2\n");

	cr_assert_eq(p->nerr, 2, "%s", p->err);
	cr_assert(strstr(p->err, "test.rack:1:9: error: syntax error, "
				 "unexpected '='"),
		  "%s", p->err);
	cr_assert(strstr(p->err, "test.rack:3:9: error: syntax error, "
				 "unexpected ')'"),
		  "%s", p->err);
	cr_assert(strstr(p->err, "2 errors generated."), "%s", p->err);
	/* the good statements around the errors are kept */
	cr_assert_eq(ast_list_len(p->ast), 2);
	cr_assert_str_eq(pstr(p, p->ast->str), "ok1");
	cr_assert_str_eq(pstr(p, p->ast->next->str), "ok2");
	parsed_free(p);
}

Test(parser, recovery_inside_a_block)
{
	struct parsed *p = parse_str("site s {\n a = 1\n b 2\n}\nc 3\n");

	cr_assert_eq(p->nerr, 1, "%s", p->err);
	cr_assert(strstr(p->err, "test.rack:2:4: error: syntax error, "
				 "unexpected '='"),
		  "%s", p->err);
	cr_assert_eq(ast_list_len(p->ast), 2);
	cr_assert_eq(ast_list_len(p->ast->body), 1);
	cr_assert_str_eq(pstr(p, p->ast->body->str), "b");
	parsed_free(p);
}

Test(parser, errors_stop_after_max_errors)
{
	char src[1024] = "";
	struct parsed *p;

	for (int i = 0; i < 15; i++)
		strcat(src, "let = 1\n");
	p = parse_mem(src, strlen(src), 10);
	cr_assert_eq(p->nerr, 10, "%s", p->err);
	cr_assert_eq(count_in(p->err, "error: syntax error"), 10, "%s", p->err);
	cr_assert(strstr(p->err, "test.rack:10:5:"), "%s", p->err);
	cr_assert_null(strstr(p->err, "test.rack:11:"), "%s", p->err);
	cr_assert(strstr(p->err, "10 errors generated."), "%s", p->err);
	parsed_free(p);
}

Test(parser, lexical_errors_count_toward_max_errors)
{
	char src[256] = "";
	struct parsed *p;

	for (int i = 0; i < 6; i++)
		strcat(src, "a @ 1\n");
	p = parse_mem(src, strlen(src), 3);
	cr_assert_eq(p->nerr, 3, "%s", p->err);
	cr_assert_eq(count_in(p->err, "stray '@'"), 3, "%s", p->err);
	parsed_free(p);
}

Test(parser, missing_closing_brace)
{
	struct parsed *p = parse_str("site s {\n a 1\n");

	cr_assert_eq(p->nerr, 1, "%s", p->err);
	cr_assert(strstr(p->err, "unexpected end of file"), "%s", p->err);
	parsed_free(p);
}

Test(parser, stray_closing_brace)
{
	expect_error("a 1\n}\nb 2\n",
		     "test.rack:2:1: error: syntax error, unexpected '}' "
		     "[syntax]");
}
