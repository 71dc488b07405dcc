/* SPDX-License-Identifier: MIT */
/* Small helpers over the AST (construction lives in grammar/parser.y). */
#include "rackc.h"
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

uint32_t ast_list_len(const struct ast *l)
{
	uint32_t n = 0;

	for (; l; l = l->next)
		n++;
	return n;
}
