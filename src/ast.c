/* SPDX-License-Identifier: MIT */
/* Small helpers over the AST (construction lives in grammar/parser.y). */
#include "rackc.h"

#include <stddef.h>

#include "ast.h"

const char *ast_op_str(enum ast_op op)
{
	static const char *const names[] = {
		[OP_NONE] = "?",  [OP_ADD] = "+",    [OP_SUB] = "-",
		[OP_MUL] = "*",	  [OP_DIV] = "/",    [OP_MOD] = "%",
		[OP_EQ] = "==",	  [OP_NE] = "!=",    [OP_LT] = "<",
		[OP_LE] = "<=",	  [OP_GT] = ">",     [OP_GE] = ">=",
		[OP_AND] = "&&",  [OP_OR] = "||",    [OP_NOT] = "!",
		[OP_NEG] = "-",	  [OP_RANGE] = "..", [OP_ARROW] = "->",
		[OP_LINK] = "--",
	};

	return (unsigned)op < ARRAY_SIZE(names) ? names[op] : "?";
}

/* The end of @field, rounded up to keep the next node aligned. */
#define AST_END(field)                                                     \
	((offsetof(struct ast, field) + sizeof(((struct ast *)0)->field) + \
	  _Alignof(struct ast) - 1) &                                      \
	 ~(_Alignof(struct ast) - 1))

size_t ast_size(enum ast_kind kind)
{
	switch (kind) {
	case AST_IDENT:
	case AST_STR:
	case AST_WILD:
		return AST_END(next);
	case AST_NUM:
		return AST_END(num);
	case AST_RATIO:
		return AST_END(num2);
	case AST_UNARY:
		return AST_END(lhs);
	case AST_BINARY:
	case AST_INDEX:
		return AST_END(rhs);
	case AST_MEMBER:
	case AST_NAMED:
		return AST_END(wloc);
	case AST_CALL:
	case AST_LIST:
		return AST_END(list);
	default:
		return sizeof(struct ast);
	}
}

uint32_t ast_list_len(const struct ast *l)
{
	uint32_t n = 0;

	for (; l; l = l->next)
		n++;
	return n;
}

uint64_t ast_count(const struct ast *x)
{
	uint64_t n;

	if (!x)
		return 0;
	n = 1;
	switch (x->kind) {
	case AST_UNARY:
	case AST_MEMBER:
	case AST_NAMED:
		n += ast_count(x->lhs);
		break;
	case AST_BINARY:
	case AST_INDEX:
		n += ast_count(x->lhs) + ast_count(x->rhs);
		break;
	case AST_CALL:
	case AST_LIST:
		for (const struct ast *a = x->list; a; a = a->next)
			n += ast_count(a);
		break;
	default:
		break;
	}
	return n;
}
