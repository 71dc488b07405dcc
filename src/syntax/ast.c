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
	case AST_FMT:
		return AST_END(wloc);
	case AST_CALL:
	case AST_LIST:
	case AST_FSTR:
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
	case AST_FMT:
		n += ast_count(x->lhs);
		break;
	case AST_BINARY:
	case AST_INDEX:
		n += ast_count(x->lhs) + ast_count(x->rhs);
		break;
	case AST_CALL:
	case AST_LIST:
	case AST_FSTR:
		for (const struct ast *a = x->list; a; a = a->next)
			n += ast_count(a);
		break;
	default:
		break;
	}
	return n;
}

const char *fmt_spec_parse(const char *s, size_t n, struct fmt_spec *out,
			   size_t *at)
{
	size_t i = 0;
	struct quantity q;
	size_t ua;
	char buf[32];

	memset(out, 0, sizeof(*out));
	out->prec = -1;
	if (i < n && (s[i] == '<' || s[i] == '>'))
		out->align = s[i++];
	if (i < n && s[i] == '0') {
		out->zero = true;
		i++;
	}
	for (size_t w = i; i < n && s[i] >= '0' && s[i] <= '9';) {
		out->width = out->width * 10 + (uint32_t)(s[i] - '0');
		if (out->width > RK_MAX_FMT_WIDTH) {
			*at = w;
			return "width over the limit of 256";
		}
		i++;
	}
	if (i < n && s[i] == '.') {
		size_t d = ++i;

		out->prec = 0;
		while (i < n && s[i] >= '0' && s[i] <= '9') {
			out->prec = out->prec * 10 + (s[i] - '0');
			if (out->prec > RK_MAX_FMT_PREC) {
				*at = d - 1;
				return "precision over the limit of 18 digits";
			}
			i++;
		}
		if (i == d) {
			*at = i;
			return "'.' needs the number of digits after it";
		}
	}
	if (i == n)
		return NULL;
	if (i + 1 == n && (s[i] == 'x' || s[i] == 'X')) {
		if (out->prec >= 0) {
			*at = i;
			return "hexadecimal takes no precision";
		}
		out->hex = s[i];
		return NULL;
	}
	/* the rest is a unit suffix, as a number literal takes */
	out->unit = s + i;
	out->unit_len = n - i;
	*at = i;
	if (n - i + 2 > sizeof(buf))
		return "unknown unit";
	buf[0] = '1';
	memcpy(buf + 1, s + i, n - i);
	if (unit_parse(buf, n - i + 1, &q, &ua) != UNIT_OK || q.dim == DIM_NONE)
		return "unknown unit";
	return NULL;
}
