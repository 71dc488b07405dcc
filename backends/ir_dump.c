/* SPDX-License-Identifier: MIT */
/*
 * The "ir" back end: the elaborated design written back as canonical rackc
 * source (ir.rack).  No params, loops or modules remain: every object is
 * declared once, nested under its parent, in declaration order, with its
 * attributes in schema order and references written as full names.  Module
 * instances become groups.  Objects created from a rack part's template are
 * written out explicitly, and the part is written without its template, so
 * parsing ir.rack and dumping it again gives the same bytes.
 */
#include "rackc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "schema.h"

struct dump {
	const struct rk_design *d;
	const struct arena *a;
	FILE *fp;
};

static void indent(struct dump *x, unsigned depth)
{
	for (unsigned i = 0; i < depth; i++)
		fputc('\t', x->fp);
}

static const char *S(struct dump *x, uint32_t id)
{
	return str_of(x->a, id);
}

static void print_value(struct dump *x, const struct rk_value *v);

static void print_list(struct dump *x, const struct rk_value *v)
{
	for (uint32_t i = 0; i < (uint32_t)v->n; i++) {
		if (i)
			fputs(", ", x->fp);
		print_value(x, &x->d->vals[v->a + i]);
	}
}

static void print_value(struct dump *x, const struct rk_value *v)
{
	const struct rk_design *d = x->d;
	char buf[RK_QFMT_MAX];

	switch (v->type) {
	case VT_NUM: {
		struct quantity q = { (enum dim)v->dim, v->n };

		fputs(quantity_format(q, buf), x->fp);
		break;
	}
	case VT_BOOL:
		fputs(v->n ? "true" : "false", x->fp);
		break;
	case VT_STR:
		out_rack_string(x->fp, S(x, v->a));
		break;
	case VT_WORD:
		fputs(S(x, v->a), x->fp);
		break;
	case VT_RATIO:
		fprintf(x->fp, "%lld:%u", (long long)v->n, v->a);
		break;
	case VT_OBJ:
		/* members of a part are named relative to the part */
		fputs(d->objs[v->a].kind == K_COMP ? S(x, d->objs[v->a].local)
						   : ir_name(d, v->a),
		      x->fp);
		break;
	case VT_PORT:
		if (d->objs[v->a].kind == K_PART)
			fputs(S(x, d->objs[v->n].local), x->fp);
		else
			fprintf(x->fp, "%s.%s", ir_name(d, v->a),
				S(x, d->objs[v->n].local));
		break;
	case VT_LIST:
		print_list(x, v);
		break;
	case VT_PAIR: {
		const struct rk_value *l = &d->vals[v->a];
		const struct rk_value *r = &d->vals[v->a + 1];
		int64_t lo = d->vals[l->a].n;
		int64_t hi = d->vals[l->a + l->n - 1].n;

		if (lo == hi)
			fprintf(x->fp, "psu[%lld] -> ", (long long)lo);
		else
			fprintf(x->fp, "psu[%lld..%lld] -> ", (long long)lo,
				(long long)hi);
		print_value(x, r);
		break;
	}
	case VT_REF:
		fputs(S(x, v->a), x->fp);
		break;
	default:
		fputs("?", x->fp);
	}
}

static void print_attrs(struct dump *x, uint32_t first, uint32_t count,
			unsigned depth)
{
	for (uint32_t i = 0; i < count; i++) {
		const struct rk_attr *at = &x->d->attrs[first + i];

		indent(x, depth);
		fprintf(x->fp, "%s ", attr_table[at->key].name);
		print_value(x, &at->val);
		fputc('\n', x->fp);
	}
}

static const char *decl_word(const struct rk_obj *o)
{
	switch (o->kind) {
	case K_PART:
		return "part";
	case K_PORT:
		return "port";
	case K_COMP:
		switch (o->cls) {
		case COMP_CPU:
			return "cpu";
		case COMP_PCIE_SWITCH:
			return "pcie_switch";
		case COMP_GPU:
			return "gpu";
		default:
			return "nic";
		}
	case K_SITE:
		return "site";
	case K_ROW:
		return "row";
	case K_RACK:
		return "rack";
	case K_DEVICE:
		switch (o->cls) {
		case C_SERVER:
			return "node";
		case C_SWITCH:
			return "switch";
		case C_PDU:
			return "pdu";
		case C_CDU:
			return "cdu";
		case C_POWER_SHELF:
			return "shelf";
		default:
			return "device";
		}
	case K_FEED:
		return "feed";
	case K_AIR:
		return "air";
	case K_LOOP:
		return "loop";
	case K_FABRIC:
		return "fabric";
	default:
		return "group";
	}
}

static void print_expr(struct dump *x, const struct ast *e, bool top)
{
	char buf[RK_QFMT_MAX];

	switch (e->kind) {
	case AST_NUM:
		fputs(quantity_format(e->num, buf), x->fp);
		break;
	case AST_STR:
		out_rack_string(x->fp, S(x, e->str));
		break;
	case AST_RATIO:
		fprintf(x->fp, "%lld:%lld", (long long)e->num.v,
			(long long)e->num2);
		break;
	case AST_IDENT:
		fputs(S(x, e->str), x->fp);
		break;
	case AST_WILD:
		fputc('*', x->fp);
		break;
	case AST_BINARY:
		if (!top)
			fputc('(', x->fp);
		print_expr(x, e->lhs, false);
		fprintf(x->fp, " %s ", ast_op_str(e->op));
		print_expr(x, e->rhs, false);
		if (!top)
			fputc(')', x->fp);
		break;
	case AST_UNARY:
		/* parenthesised, so "-" of a negative number stays valid */
		fprintf(x->fp, "%s(", ast_op_str(e->op));
		print_expr(x, e->lhs, true);
		fputc(')', x->fp);
		break;
	case AST_MEMBER:
		print_expr(x, e->lhs, false);
		fprintf(x->fp, ".%s", S(x, e->str));
		break;
	case AST_INDEX:
		print_expr(x, e->lhs, false);
		fputc('[', x->fp);
		print_expr(x, e->rhs, true);
		fputc(']', x->fp);
		break;
	case AST_CALL:
		fprintf(x->fp, "%s(", S(x, e->str));
		for (const struct ast *a = e->list; a; a = a->next) {
			print_expr(x, a, true);
			if (a->next)
				fputs(", ", x->fp);
		}
		fputc(')', x->fp);
		break;
	case AST_LIST:
		fputc('[', x->fp);
		for (const struct ast *a = e->list; a; a = a->next) {
			print_expr(x, a, true);
			if (a->next)
				fputs(", ", x->fp);
		}
		fputc(']', x->fp);
		break;
	case AST_NAMED:
		fprintf(x->fp, "%s = ", S(x, e->str));
		print_expr(x, e->lhs, true);
		break;
	default:
		fputc('?', x->fp);
	}
}

static void print_reqs(struct dump *x, uint32_t scope, unsigned depth)
{
	for (uint32_t i = 0; i < x->d->nreqs; i++) {
		const struct rk_req *r = &x->d->reqs[i];

		if (r->scope != scope)
			continue;
		indent(x, depth);
		fputs("require ", x->fp);
		print_expr(x, r->expr, true);
		if (r->msg) {
			fputs(", ", x->fp);
			print_expr(x, r->msg, true);
		}
		fputc('\n', x->fp);
	}
}

static const char *const fabric_words[] = { "?", "fat_tree", "nvlink", "star" };

/*
 * Ports and components declared as a range come back as a range: a run of
 * siblings named base[i], base[i+1], ... of the same kind and part, with no
 * children and identical attributes, prints as one base[i..j] declaration.
 */
static bool split_index(const char *name, size_t *base_len, long long *ix)
{
	size_t n = strlen(name);
	char *end;

	if (n < 4 || name[n - 1] != ']')
		return false;
	for (size_t i = n - 1; i > 0; i--) {
		if (name[i - 1] == '[') {
			if (memchr(name, '.', i - 1) || name[i] == ']')
				return false;
			*ix = strtoll(name + i, &end, 10);
			*base_len = i - 1;
			return end == name + n - 1 && name[i] >= '0' &&
			       name[i] <= '9';
		}
		if (name[i - 1] < '0' || name[i - 1] > '9')
			return false;
	}
	return false;
}

static bool same_shape(const struct rk_design *d, uint32_t a, uint32_t b)
{
	const struct rk_obj *x = &d->objs[a], *y = &d->objs[b];

	if (x->kind != y->kind || x->cls != y->cls || x->part != y->part ||
	    x->attr_count != y->attr_count || x->first_child != RK_NONE ||
	    y->first_child != RK_NONE)
		return false;
	for (uint32_t i = 0; i < x->attr_count; i++) {
		const struct rk_attr *p = &d->attrs[x->attr_first + i];
		const struct rk_attr *q = &d->attrs[y->attr_first + i];

		if (p->key != q->key || p->val.type != q->val.type ||
		    p->val.dim != q->val.dim || p->val.a != q->val.a ||
		    p->val.n != q->val.n || p->val.type == VT_LIST ||
		    p->val.type == VT_PAIR)
			return false;
	}
	return true;
}

/* Length of the range run starting at @id (1 when none). */
static uint32_t run_length(struct dump *x, uint32_t id, long long *lo)
{
	const struct rk_design *d = x->d;
	const struct rk_obj *o = &d->objs[id];
	size_t blen, blen2;
	long long ix, ix2;
	uint32_t n = 1;

	if ((o->kind != K_PORT && o->kind != K_COMP) ||
	    !split_index(S(x, o->local), &blen, &ix))
		return 1;
	*lo = ix;
	for (uint32_t c = o->next_sibling; c != RK_NONE;
	     c = d->objs[c].next_sibling) {
		const char *nm = S(x, d->objs[c].local);

		if (!split_index(nm, &blen2, &ix2) || blen2 != blen ||
		    memcmp(nm, S(x, o->local), blen) != 0 ||
		    ix >= LLONG_MAX - (long long)n ||
		    ix2 != ix + (long long)n || !same_shape(d, id, c))
			break;
		n++;
	}
	return n;
}

static void print_obj_named(struct dump *x, uint32_t id, unsigned depth,
			    uint32_t run, long long lo);

static void print_children(struct dump *x, uint32_t id, unsigned depth)
{
	const struct rk_design *d = x->d;
	uint32_t c = id == RK_NONE ? d->first_root : d->objs[id].first_child;

	/* what a fabric generated is generated again from the fabric */
	if (id != RK_NONE && d->objs[id].kind == K_FABRIC)
		return;
	while (c != RK_NONE) {
		long long lo = 0;
		uint32_t run = run_length(x, c, &lo);

		print_obj_named(x, c, depth, run, lo);
		while (run--)
			c = d->objs[c].next_sibling;
	}
}

static void print_obj_named(struct dump *x, uint32_t id, unsigned depth,
			    uint32_t run, long long lo)
{
	const struct rk_design *d = x->d;
	const struct rk_obj *o = &d->objs[id];

	indent(x, depth);
	if (run > 1) {
		const char *nm = S(x, o->local);

		fprintf(x->fp, "%s %.*s[%lld..%lld]", decl_word(o),
			(int)(strchr(nm, '[') - nm), nm, lo,
			lo + (long long)run - 1);
	} else {
		fprintf(x->fp, "%s %s", decl_word(o), S(x, o->local));
	}
	if (o->kind == K_PART)
		fprintf(x->fp, " : %s",
			o->part != RK_NONE ? ir_name(d, o->part)
					   : rk_class_name(o->cls));
	else if (o->kind == K_FABRIC)
		fprintf(x->fp, " : %s",
			o->cls < ARRAY_SIZE(fabric_words) ? fabric_words[o->cls]
							  : "?");
	else if (o->part != RK_NONE)
		fprintf(x->fp, " : %s", ir_name(d, o->part));
	fputs(" {\n", x->fp);
	print_attrs(x, o->attr_first, o->attr_count, depth + 1);
	print_children(x, id, depth + 1);
	if (o->kind == K_GROUP)
		print_reqs(x, id, depth + 1);
	indent(x, depth);
	fputs("}\n", x->fp);
}

/*
 * Every explicit link is written at the top level with the full names of
 * its ends, which resolve to the same ports from there; generated links are
 * left to their fabric.
 */
static void print_links(struct dump *x)
{
	const struct rk_design *d = x->d;

	for (uint32_t i = 0; i < d->nlinks; i++) {
		const struct rk_link *l = &d->links[i];

		if (l->generated)
			continue;
		fprintf(x->fp, "link %s.%s -- %s.%s", ir_name(d, l->a_dev),
			S(x, d->objs[l->a_port].local), ir_name(d, l->b_dev),
			S(x, d->objs[l->b_port].local));
		if (l->attr_count) {
			fputs(" {\n", x->fp);
			print_attrs(x, l->attr_first, l->attr_count, 1);
			fputc('}', x->fp);
		}
		fputc('\n', x->fp);
	}
}

static bool emit_ir(struct backend_ctx *ctx)
{
	struct dump x = { ctx->d, ctx->d->arena, out_open(ctx, "ir.rack") };

	if (!x.fp)
		return false;
	fputs("# rackc elaborated design (canonical form)\n", x.fp);
	print_children(&x, RK_NONE, 0);
	print_links(&x);
	print_reqs(&x, RK_NONE, 0);
	return true;
}

const struct backend backend_ir = {
	.name = "ir",
	.summary = "ir.rack: the elaborated design as canonical rackc source",
	.emit = emit_ir,
	.weight = 2,
};
