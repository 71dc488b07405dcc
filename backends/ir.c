/* SPDX-License-Identifier: MIT */
/*
 * The "ir" back end: the elaborated design written back as canonical rackc
 * source (ir.rack).  No params, loops or modules remain: every object is
 * declared once, nested under its parent, in declaration order, with its
 * attributes in schema order and references written as full names.  Module
 * instances become groups.  Objects created from a rack part's template are
 * written out explicitly (those of an assembly rack part saying
 * `in_assembly true`), and the part is written without its template, so
 * parsing ir.rack and dumping it again gives the same bytes.
 */
#include "rackc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "layout.h"
#include "wbuf.h"
#include "schema.h"

struct dump {
	const struct rk_design *d;
	const struct arena *a;
	struct wbuf *w;
};

static void indent(struct dump *x, unsigned depth)
{
	for (unsigned i = 0; i < depth; i++)
		wb_ch(x->w, '\t');
}

static const char *S(struct dump *x, uint32_t id)
{
	return str_of(x->a, id);
}

/* Interned string @id. */
static void put_id(struct dump *x, uint32_t id)
{
	wb_mem(x->w, str_of(x->a, id), strlen_of(x->a, id));
}

/* The full name of object @obj. */
static void put_name(struct dump *x, uint32_t obj)
{
	put_id(x, x->d->objs[obj].name);
}

static void put_i64(struct dump *x, long long v)
{
	if (v < 0) {
		wb_ch(x->w, '-');
		wb_u64(x->w, -(uint64_t)v);
	} else {
		wb_u64(x->w, (uint64_t)v);
	}
}

/* A string as a rackc string literal (quotes and escapes). */
static void put_string(struct dump *x, const char *s)
{
	wb_ch(x->w, '"');
	for (; *s; s++) {
		switch (*s) {
		case '"':
			wb_str(x->w, "\\\"");
			break;
		case '\\':
			wb_str(x->w, "\\\\");
			break;
		case '\n':
			wb_str(x->w, "\\n");
			break;
		case '\t':
			wb_str(x->w, "\\t");
			break;
		default:
			wb_ch(x->w, *s);
		}
	}
	wb_ch(x->w, '"');
}

static void print_value(struct dump *x, const struct rk_value *v);

static void print_list(struct dump *x, const struct rk_value *v)
{
	for (uint32_t i = 0; i < (uint32_t)v->n; i++) {
		if (i)
			wb_str(x->w, ", ");
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

		wb_str(x->w, quantity_format(q, buf));
		break;
	}
	case VT_BOOL:
		wb_str(x->w, v->n ? "true" : "false");
		break;
	case VT_STR:
		put_string(x, S(x, v->a));
		break;
	case VT_WORD:
		put_id(x, v->a);
		break;
	case VT_RATIO:
		put_i64(x, (long long)v->n);
		wb_ch(x->w, ':');
		wb_u64(x->w, v->a);
		break;
	case VT_OBJ:
		/* members of a part are named relative to the part */
		if (d->objs[v->a].kind == K_COMP)
			put_id(x, d->objs[v->a].local);
		else
			put_name(x, v->a);
		break;
	case VT_PORT:
		if (d->objs[v->a].kind != K_PART) {
			put_name(x, v->a);
			wb_ch(x->w, '.');
		}
		put_id(x, d->objs[v->n].local);
		break;
	case VT_LIST:
		print_list(x, v);
		break;
	case VT_PAIR: {
		const struct rk_value *l = &d->vals[v->a];
		const struct rk_value *r = &d->vals[v->a + 1];
		int64_t lo = d->vals[l->a].n;
		int64_t hi = d->vals[l->a + l->n - 1].n;

		wb_str(x->w, "psu[");
		put_i64(x, (long long)lo);
		if (lo != hi) {
			wb_str(x->w, "..");
			put_i64(x, (long long)hi);
		}
		wb_str(x->w, "] -> ");
		print_value(x, r);
		break;
	}
	case VT_REF:
		put_id(x, v->a);
		break;
	default:
		wb_str(x->w, "?");
	}
}

/*
 * Attributes in schema order; @assembly: add `in_assembly true` in its
 * place (a device its rack part's template placed in an assembly rack, so
 * that the assembly keeps it when ir.rack is compiled again).
 */
static void print_attrs(struct dump *x, uint32_t first, uint32_t count,
			unsigned depth, bool assembly)
{
	for (uint32_t i = 0; i <= count; i++) {
		const struct rk_attr *at =
		    i < count ? &x->d->attrs[first + i] : NULL;

		if (assembly && (!at || at->key > A_IN_ASSEMBLY)) {
			indent(x, depth);
			wb_str(x->w, "in_assembly true\n");
			assembly = false;
		}
		if (!at)
			break;
		indent(x, depth);
		wb_str(x->w, attr_table[at->key].name);
		wb_ch(x->w, ' ');
		print_value(x, &at->val);
		wb_ch(x->w, '\n');
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
		wb_str(x->w, quantity_format(e->num, buf));
		break;
	case AST_STR:
		put_string(x, S(x, e->str));
		break;
	case AST_RATIO:
		put_i64(x, (long long)e->num.v);
		wb_ch(x->w, ':');
		put_i64(x, (long long)e->num2);
		break;
	case AST_IDENT:
		put_id(x, e->str);
		break;
	case AST_WILD:
		wb_ch(x->w, '*');
		break;
	case AST_BINARY:
		if (!top)
			wb_ch(x->w, '(');
		print_expr(x, e->lhs, false);
		wb_ch(x->w, ' ');
		wb_str(x->w, ast_op_str(e->op));
		wb_ch(x->w, ' ');
		print_expr(x, e->rhs, false);
		if (!top)
			wb_ch(x->w, ')');
		break;
	case AST_UNARY:
		/* parenthesised, so "-" of a negative number stays valid */
		wb_str(x->w, ast_op_str(e->op));
		wb_ch(x->w, '(');
		print_expr(x, e->lhs, true);
		wb_ch(x->w, ')');
		break;
	case AST_MEMBER:
		print_expr(x, e->lhs, false);
		wb_ch(x->w, '.');
		put_id(x, e->str);
		break;
	case AST_INDEX:
		print_expr(x, e->lhs, false);
		wb_ch(x->w, '[');
		print_expr(x, e->rhs, true);
		wb_ch(x->w, ']');
		break;
	case AST_CALL:
		put_id(x, e->str);
		wb_ch(x->w, '(');
		for (const struct ast *a = e->list; a; a = a->next) {
			print_expr(x, a, true);
			if (a->next)
				wb_str(x->w, ", ");
		}
		wb_ch(x->w, ')');
		break;
	case AST_LIST:
		wb_ch(x->w, '[');
		for (const struct ast *a = e->list; a; a = a->next) {
			print_expr(x, a, true);
			if (a->next)
				wb_str(x->w, ", ");
		}
		wb_ch(x->w, ']');
		break;
	case AST_NAMED:
		put_id(x, e->str);
		wb_str(x->w, " = ");
		print_expr(x, e->lhs, true);
		break;
	default:
		wb_ch(x->w, '?');
	}
}

static void print_reqs(struct dump *x, uint32_t scope, unsigned depth)
{
	for (uint32_t i = 0; i < x->d->nreqs; i++) {
		const struct rk_req *r = &x->d->reqs[i];

		if (r->scope != scope)
			continue;
		indent(x, depth);
		wb_str(x->w, "require ");
		print_expr(x, r->expr, true);
		if (r->msg) {
			wb_str(x->w, ", ");
			print_expr(x, r->msg, true);
		}
		wb_ch(x->w, '\n');
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

		wb_str(x->w, decl_word(o));
		wb_ch(x->w, ' ');
		wb_mem(x->w, nm, (size_t)(strchr(nm, '[') - nm));
		wb_ch(x->w, '[');
		put_i64(x, lo);
		wb_str(x->w, "..");
		put_i64(x, lo + (long long)run - 1);
		wb_ch(x->w, ']');
	} else {
		wb_str(x->w, decl_word(o));
		wb_ch(x->w, ' ');
		put_id(x, o->local);
	}
	if (o->kind == K_PART) {
		wb_str(x->w, " : ");
		if (o->part != RK_NONE)
			put_name(x, o->part);
		else
			wb_str(x->w, rk_class_name(o->cls));
	} else if (o->kind == K_FABRIC) {
		wb_str(x->w, " : ");
		wb_str(x->w, o->cls < ARRAY_SIZE(fabric_words)
				 ? fabric_words[o->cls]
				 : "?");
	} else if (o->part != RK_NONE) {
		wb_str(x->w, " : ");
		put_name(x, o->part);
	}
	wb_str(x->w, " {\n");
	print_attrs(x, o->attr_first, o->attr_count, depth + 1,
		    o->kind == K_DEVICE && o->tmpl &&
			!ir_attr(d, id, A_IN_ASSEMBLY) &&
			layout_assembly_of(d, id) != RK_NONE);
	print_children(x, id, depth + 1);
	if (o->kind == K_GROUP)
		print_reqs(x, id, depth + 1);
	indent(x, depth);
	wb_str(x->w, "}\n");
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
		wb_str(x->w, "link ");
		put_name(x, l->a_dev);
		wb_ch(x->w, '.');
		put_id(x, d->objs[l->a_port].local);
		wb_str(x->w, " -- ");
		put_name(x, l->b_dev);
		wb_ch(x->w, '.');
		put_id(x, d->objs[l->b_port].local);
		if (l->attr_count) {
			wb_str(x->w, " {\n");
			print_attrs(x, l->attr_first, l->attr_count, 1, false);
			wb_ch(x->w, '}');
		}
		wb_ch(x->w, '\n');
	}
}

static bool emit_ir(struct backend_ctx *ctx)
{
	FILE *fp = out_open(ctx, "ir.rack");
	struct dump x = { ctx->d, ctx->d->arena, NULL };

	if (!fp)
		return false;
	x.w = xmalloc(sizeof(*x.w));
	wb_init(x.w, fp);
	wb_str(x.w, "# rackc elaborated design (canonical form)\n");
	print_children(&x, RK_NONE, 0);
	print_links(&x);
	print_reqs(&x, RK_NONE, 0);
	wb_flush(x.w);
	free(x.w);
	return true;
}

const struct backend backend_ir = {
	.name = "ir",
	.summary = "ir.rack: the elaborated design as canonical rackc source",
	.emit = emit_ir,
	.weight = 2,
};
