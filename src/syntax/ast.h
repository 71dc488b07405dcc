/* SPDX-License-Identifier: MIT */
/*
 * The abstract syntax tree: a faithful, untyped image of one source file.
 * The grammar is generic (see doc/language.md): besides a handful of
 * keywords (import, param, let, for, if, module, require), every statement
 * is "WORD [ARGS] [: TYPE] [{ BODY }]" and its meaning comes from the schema
 * tables during elaboration.  All nodes live in the compilation's arena.
 */
#ifndef RACKC_AST_H
#define RACKC_AST_H

#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

#include "srcfile.h"
#include "units.h"

enum ast_kind {
	/* expressions */
	AST_NUM,    /* quantity literal: num */
	AST_STR,    /* string literal: str */
	AST_RATIO,  /* a:b literal: num (a), num2 (b) */
	AST_IDENT,  /* identifier: str */
	AST_WILD,   /* '*' inside an index */
	AST_BINARY, /* op, lhs, rhs */
	AST_UNARY,  /* op, lhs */
	AST_MEMBER, /* lhs '.' str */
	AST_INDEX,  /* lhs '[' rhs ']' */
	AST_CALL,   /* str '(' list ')' */
	AST_LIST,   /* '[' list ']' */
	AST_NAMED,  /* str '=' lhs (call argument or module parameter) */
	AST_FSTR,   /* f"..." format string: list of AST_STR and AST_FMT */
	AST_FMT,    /* one {lhs:spec} of a format string: str is the spec
		     * text (0: none), wloc its range */
	/* statements */
	AST_IMPORT,  /* str */
	AST_PARAM,   /* str '=' lhs */
	AST_LET,     /* str '=' lhs */
	AST_FOR,     /* 'for' str 'in' lhs body */
	AST_IF,	     /* 'if' lhs body ['else' list (one statement or block)] */
	AST_MODULE,  /* 'module' str '(' list ')' body */
	AST_REQUIRE, /* 'require' lhs [',' rhs] */
	AST_STMT,    /* generic: str list [':' rhs] [body] */
};

/* Binary and unary operators (op field). */
enum ast_op {
	OP_NONE,
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_DIV,
	OP_MOD,
	OP_EQ,
	OP_NE,
	OP_LT,
	OP_LE,
	OP_GT,
	OP_GE,
	OP_AND,
	OP_OR,
	OP_NOT,
	OP_NEG,
	OP_RANGE, /* a .. b */
	OP_ARROW, /* a -> b */
	OP_LINK,  /* a -- b */
};

/**
 * struct ast - one node
 * @kind:     what the node is (enum ast_kind)
 * @op:       operator for AST_BINARY / AST_UNARY (enum ast_op)
 * @has_body: AST_STMT/AST_IF/...: a '{...}' block was given (even if empty)
 * @depth:    expression nesting depth, bounded by RK_MAX_EXPR_DEPTH
 * @loc:      source range of the whole construct
 * @str:      interned identifier, string, or statement word
 * @next:     next sibling in a list
 * @num:      AST_NUM, AST_RATIO: literal value (with @num.dim)
 * @num2:     AST_RATIO: second ratio term
 * @lhs, @rhs: operands / value / condition / type
 * @wloc:     AST_STMT: range of the leading word; AST_NAMED: of the name;
 *            AST_FMT: of the format spec;
 *            AST_CALL, AST_MEMBER, AST_IMPORT: of the name or path
 * @list:     arguments, list items, parameters (linked through @next)
 * @body:     statements of a block (linked through @next)
 * @else_body: AST_IF else branch
 *
 * A file's tree is about as large as the file is long (a node per byte or
 * two), so a node is only as large as its kind needs (ast_size()): the
 * fields every node has come first, then those of literals or those of the
 * other kinds, ordered so that each kind's fields end early.  An
 * identifier or a string is 32 bytes, a number 48, an operator 40 or 48,
 * a name with a '.' 64, a list or a call 72, a statement 88.  A field past
 * its node's size is not there: code reads a node's fields by its kind.
 */
struct ast {
	uint8_t kind;
	uint8_t op;
	uint8_t has_body;
	uint32_t depth;
	struct srcloc loc;
	uint32_t str;
	struct ast *next;
	union {
		struct { /* AST_NUM, AST_RATIO */
			struct quantity num;
			int64_t num2;
		};
		struct { /* every other kind, as far as it needs */
			struct ast *lhs; /* AST_UNARY and beyond */
			struct ast *rhs; /* AST_BINARY, AST_INDEX and beyond */
			struct srcloc wloc; /* AST_MEMBER, AST_NAMED, beyond */
			struct ast *list;   /* AST_CALL, AST_LIST, statements */
			struct ast *body;
			struct ast *else_body;
		};
	};
};

/* Bytes a node of @kind takes (see struct ast). */
size_t ast_size(enum ast_kind kind);

/* Deepest expression nesting accepted; deeper is an error, not a crash. */
#define RK_MAX_EXPR_DEPTH 4096
/* Deepest nesting of brackets and blocks accepted by the lexer. */
#define RK_MAX_NESTING 256

/*
 * The spec of a format string's field, {expr:SPEC} (doc/language.md
 * section 2.5): [<|>][0][WIDTH][.PRECISION][UNIT | x | X].
 * @align:  '<', '>' or 0 (the value's default: numbers right, text left)
 * @zero:   pad a number with zeros after its sign
 * @width:  least width in bytes (0: none), at most RK_MAX_FMT_WIDTH
 * @prec:   digits after the point, at most RK_MAX_FMT_PREC (-1: exact)
 * @unit, @unit_len: the unit suffix (a quantity is printed as a number
 *          of it), or unit_len 0
 * @hex:    'x' or 'X': a plain integer in hexadecimal (0: decimal)
 */
struct fmt_spec {
	char align;
	char hex;
	bool zero;
	uint32_t width;
	int prec;
	const char *unit;
	size_t unit_len;
};

#define RK_MAX_FMT_WIDTH 256
#define RK_MAX_FMT_PREC 18

/*
 * Parse spec @s[0..n); NULL when it is well formed, else what is wrong
 * (and *at the offset of the first bad byte).
 */
const char *fmt_spec_parse(const char *s, size_t n, struct fmt_spec *out,
			   size_t *at);

const char *ast_op_str(enum ast_op op);
/* Number of elements in a sibling list. */
uint32_t ast_list_len(const struct ast *l);
/* Nodes of expression @x (what ast_subst copies); 0 for NULL. */
uint64_t ast_count(const struct ast *x);

#endif
