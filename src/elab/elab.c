/* SPDX-License-Identifier: MIT */
/*
 * Elaboration, statements: runs the AST of the input (and its imports) like
 * a program whose effect is to build the IR.  Parameters, let bindings,
 * for loops, conditionals and module instances are expanded here; every
 * generic statement is looked up in the schema and becomes an object, a
 * link or an attribute.  References are only recorded; resolve.c binds them
 * once every object exists.  This file dispatches the statements, a
 * handler per kind; attributes are converted in elab_attr.c, declarations
 * made (and their bodies run) in elab_decl.c, files, imports and modules
 * run in elab_import.c, expressions evaluated and variables kept in eval.c,
 * and all of them report errors through elab_diag.c (elab_int.h is what
 * they share).  Those files are the leaves of this one: they run the
 * statements of a body or a file through e->run_stmt (set by elab_init to
 * exec_one below), never calling this file by name.
 */
#include "rackc.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "context.h"
#include "elab.h"
#include "elab_int.h"
#include "parse.h"
#include "suggest.h"

/* ---- statements ---- */

static bool eval_args(struct elab *e, const struct ast *st, struct val **out,
		      uint32_t *argc)
{
	const struct ast *args = st->list;
	uint32_t n = ast_list_len(args), i = 0;

	*out = eval_val_items(e, n, &st->loc);
	if (!*out)
		return false;
	*argc = n;
	for (const struct ast *a = args; a; a = a->next)
		if (!eval_expr(e, a, &(*out)[i++]))
			return false;
	return true;
}

static void unknown_word(struct elab *e, const struct ast *st)
{
	const char *w = str_of(e->a, st->str);
	struct suggest sg;
	const char *where = schema_ctx_name(e->ctx);

	if (elab_repeat(e, &st->wloc))
		return;
	suggest_init(&sg, w);
	for (uint32_t i = 0; i < kind_table_len; i++)
		if (kind_table[i].where & e->ctx)
			suggest_offer(&sg, kind_table[i].word);
	for (uint32_t i = 1; i < A__COUNT; i++)
		if (attr_table[i].where & e->ctx)
			suggest_offer(&sg, attr_table[i].name);
	/* is it valid somewhere else? */
	for (uint32_t i = 0; i < kind_table_len; i++)
		if (streq(kind_table[i].word, w)) {
			elab_error(e, &st->wloc, "misplaced",
				   "'%s' is not allowed in %s", w, where);
			return;
		}
	if (schema_attr(w)) {
		elab_error(e, &st->wloc, "misplaced",
			   "attribute '%s' is not allowed in %s", w, where);
		return;
	}
	elab_error(e, &st->wloc, "unknown-attribute",
		   "unknown attribute or kind '%s' in %s" SUGGEST_FMT, w, where,
		   SUGGEST_ARGS(&sg));
}

static void exec_generic(struct elab *e, const struct ast *st)
{
	uint32_t w = st->str;
	const struct kind_info *ki = NULL;
	uint32_t attr = A_NONE;

	if (w <= e->max_word) {
		uint32_t k = e->word_kind[w];

		attr = e->word_attr[w];
		if (attr && !(attr_table[attr].where & e->ctx))
			attr = A_NONE;
		if (k) {
			/* a word may name kinds in several contexts */
			for (uint32_t i = k - 1; i < kind_table_len; i++)
				if (streq(kind_table[i].word,
					  str_of(e->a, w)) &&
				    (kind_table[i].where & e->ctx)) {
					ki = &kind_table[i];
					break;
				}
		}
	}
	/* rack parts hold instance templates */
	if (!ki && !attr && e->ctx == X_PART && w <= e->max_word &&
	    e->word_kind[w] &&
	    elab_is_instance_kind(&kind_table[e->word_kind[w] - 1])) {
		if (e->d->objs[e->obj].cls == C_RACK)
			return; /* run when the rack is instantiated */
	}
	if (e->mode == MODE_TEMPLATE && !(ki && elab_is_instance_kind(ki)))
		return;
	if (attr) {
		struct val *args;
		uint32_t argc;

		if (st->has_body || st->rhs) {
			elab_error(e, st->has_body ? &st->loc : &st->rhs->loc,
				   "value",
				   "attribute '%s' takes values, not "
				   "a type or a block",
				   attr_table[attr].name);
			return;
		}
		if (e->obj == RK_NONE && e->ctx != X_LINK) {
			elab_error(e, &st->wloc, "misplaced",
				   "attribute '%s' outside an object",
				   attr_table[attr].name);
			return;
		}
		if (eval_args(e, st, &args, &argc))
			elab_set_attr(e, attr, st, args, argc);
		return;
	}
	if (!ki) {
		unknown_word(e, st);
		return;
	}
	if (ki->kind == K_PART)
		elab_decl_part(e, ki, st);
	else if (ki->kind == K_PORT || ki->kind == K_COMP)
		elab_decl_part_member(e, ki, st);
	else if (ki->kind == K_NONE)
		elab_decl_link(e, st);
	else if (ki->kind == K_GROUP && ki->type == 2)
		elab_decl_instance(e, ki, st);
	else if (ki->kind == K_GROUP) {
		uint32_t s_group = e->group;
		uint32_t *names, count;

		if (!elab_decl_names(e, st, &names, &count))
			return;
		for (uint32_t i = 0; i < count && !e->stopped; i++) {
			uint32_t id =
			    elab_new_object(e, ki, st, names[i], false);

			uint32_t mark = e->nscratch;

			if (id == RK_NONE)
				return;
			e->group = id;
			elab_exec_body(e, id, X_GROUP, e->d->objs[id].name,
				       st->body, MODE_NORMAL);
			e->group = s_group;
			elab_finish_attrs(e, mark, &e->d->objs[id].attr_first,
					  &e->d->objs[id].attr_count);
		}
	} else
		elab_decl_object(e, ki, st);
}

/*
 * The value of -D NAME=VALUE: a number (with its unit) when it starts like
 * one, true or false, a name when it is an identifier path (-D SW=qm9790),
 * else a string.  A malformed number is an error, not a string.
 */
static bool define_value(struct elab *e, const struct define *df,
			 const struct srcloc *loc, struct val *v)
{
	const char *s = df->value;
	size_t n = strlen(s), at;
	struct quantity q;
	bool name = n > 0;

	memset(v, 0, sizeof(*v));
	v->loc = *loc;
	if ((s[0] >= '0' && s[0] <= '9') ||
	    (s[0] == '-' && s[1] >= '0' && s[1] <= '9')) {
		enum unit_status st = unit_parse(s, n, &q, &at);

		if (st != UNIT_OK) {
			elab_error(e, loc, "param",
				   "-D %s=%s is not an exact quantity "
				   "(plain numbers must be integers)",
				   df->name, s);
			return false;
		}
		v->kind = V_NUM;
		v->dim = q.dim;
		v->n = q.v;
		return true;
	}
	if (streq(s, "true") || streq(s, "false")) {
		v->kind = V_BOOL;
		v->n = streq(s, "true");
		return true;
	}
	for (size_t i = 0; i < n && name; i++)
		name = (s[i] >= 'a' && s[i] <= 'z') ||
		       (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_' ||
		       (i && s[i] >= '0' && s[i] <= '9');
	if (name && n <= RK_MAX_IDENT) {
		v->kind = V_PATH;
		v->count = 1;
		v->segs = arena_zalloc(e->a, sizeof(struct seg));
		v->segs[0].name = intern(e->a, s, n);
		return true;
	}
	v->kind = V_STR;
	v->s = intern(e->a, s, n);
	return true;
}

/*
 * One run of a loop body: the values its statements built (its variables'
 * among them) go when it ends, so that a loop costs the memory of one
 * iteration, not of all.
 */
static void exec_iteration(struct elab *e, const struct ast *body)
{
	struct val_mark m = eval_val_mark(e);

	elab_exec_list(e, body);
	eval_val_release(e, &m);
}

static void exec_stmt(struct elab *e, const struct ast *st);

/*
 * Is the let or param @st a second definition of its name in one scope
 * (reported then)?  A file-level name from another file (an import) is
 * shadowed instead.
 */
static bool redefined(struct elab *e, const struct ast *st, bool global)
{
	const struct var *old = eval_var_find(e, st->str);

	if (old && (global || old >= e->vars + e->frame) &&
	    !(old < e->vars + e->nglobals && !global) &&
	    !(global && old->loc.file != st->wloc.file &&
	      !(old->param && st->kind == AST_PARAM))) {
		elab_error(e, &st->wloc, "duplicate-name",
			   "'%s' is already defined", str_of(e->a, st->str));
		elab_note(e, &old->loc, "previous definition here");
		return true;
	}
	return false;
}

/*
 * The value a -D option gives the param @st, in @v (true); false when no
 * -D names it, or when its value is malformed (reported: the default goes
 * on, not a cascade).
 */
static bool param_define(struct elab *e, const struct ast *st, struct val *v)
{
	const char *name = str_of(e->a, st->str);

	for (uint32_t i = 0; i < e->ndefines; i++) {
		if (!streq(e->defines[i].name, name))
			continue;
		e->defines[i].used = true;
		/* a param whose default is a string takes the value as a
		 * string */
		if (st->lhs->kind == AST_STR || st->lhs->kind == AST_FSTR) {
			memset(v, 0, sizeof(*v));
			v->kind = V_STR;
			v->loc = st->lhs->loc;
			v->s = intern_cstr(e->a, e->defines[i].value);
			return true;
		}
		return define_value(e, &e->defines[i], &st->lhs->loc, v);
	}
	return false;
}

/* let NAME = EXPR, param NAME = DEFAULT */
static void exec_binding(struct elab *e, const struct ast *st)
{
	struct val v;
	bool global = elab_at_file_top(e);

	if (st->kind == AST_PARAM && !global) {
		elab_error(e, &st->loc, "misplaced",
			   "param is only allowed at the top level "
			   "of a file");
		return;
	}
	if (redefined(e, st, global))
		return;
	if (!(st->kind == AST_PARAM && param_define(e, st, &v)) &&
	    !eval_expr(e, st->lhs, &v))
		return;
	eval_var_push(e, st->str, &v, &st->wloc);
	e->vars[e->nvars - 1].param = st->kind == AST_PARAM;
	if (global)
		e->nglobals = e->nvars;
}

/*
 * One iteration of the for loop @st, its variable bound to @v (the
 * loop's earlier variables dropped down to @base); false when the step
 * limit stops the loop.
 */
static bool for_iteration(struct elab *e, const struct ast *st, uint32_t base,
			  const struct val *v)
{
	eval_vars_truncate(e, base);
	eval_var_push(e, st->str, v, &st->wloc);
	if (!elab_step(e, &st->loc))
		return false;
	exec_iteration(e, st->body);
	return true;
}

/* for over the range @it (a..b, no iteration when b < a) */
static void for_range(struct elab *e, const struct ast *st,
		      const struct val *it, uint32_t base)
{
	/* the count in unsigned arithmetic: no overflow at the ends of the
	 * int64 range */
	uint64_t span =
	    it->n2 >= it->n ? (uint64_t)it->n2 - (uint64_t)it->n : 0;

	if (it->n2 >= it->n && span >= RK_MAX_LOOP) {
		elab_error(e, &st->lhs->loc, "limit",
			   "loop of %llu iterations exceeds "
			   "the limit of %u",
			   (unsigned long long)span + (span < UINT64_MAX),
			   RK_MAX_LOOP);
		return;
	}
	for (uint64_t k = 0; it->n2 >= it->n && k <= span && !e->stopped; k++) {
		struct val iv;

		memset(&iv, 0, sizeof(iv));
		iv.kind = V_NUM;
		iv.n = (int64_t)((uint64_t)it->n + k);
		iv.loc = st->wloc;
		if (!for_iteration(e, st, base, &iv))
			break;
	}
}

/* for NAME in RANGE-OR-LIST { ... } */
static void exec_for(struct elab *e, const struct ast *st)
{
	struct val it;
	uint32_t base = e->nvars;

	if (!eval_expr(e, st->lhs, &it))
		return;
	e->blocks++;
	if (it.kind == V_RANGE) {
		for_range(e, st, &it, base);
	} else if (it.kind == V_LIST) {
		for (uint32_t i = 0; i < it.count && !e->stopped; i++)
			if (!for_iteration(e, st, base, &it.items[i]))
				break;
	} else {
		elab_error(e, &st->lhs->loc, "type-mismatch",
			   "for needs a range (a..b) or a list, not "
			   "%s",
			   eval_val_kind_name(&it));
	}
	e->blocks--;
	eval_vars_truncate(e, base);
}

/* if COND { ... } else ... */
static void exec_if(struct elab *e, const struct ast *st)
{
	bool c;
	uint32_t base = e->nvars;

	if (!eval_bool(e, st->lhs, &c))
		return;
	e->blocks++;
	if (c)
		elab_exec_list(e, st->body);
	else if (st->else_body && st->else_body->kind == AST_IF &&
		 !st->else_body->next)
		exec_stmt(e, st->else_body);
	else
		elab_exec_list(e, st->else_body);
	e->blocks--;
	eval_vars_truncate(e, base);
}

/* module NAME(...) { ... }: registered before the file runs */
static void exec_module(struct elab *e, const struct ast *st)
{
	if (!elab_at_file_top(e))
		elab_error(e, &st->loc, "misplaced",
			   "module definitions are only allowed at "
			   "the top level of a file");
}

/* require EXPR [, MESSAGE]: kept for the checks, variables substituted */
static void exec_require(struct elab *e, const struct ast *st)
{
	struct rk_req *r;

	if (e->mode == MODE_TEMPLATE)
		return;
	if (e->ctx != X_TOP && e->ctx != X_GROUP) {
		elab_error(e, &st->loc, "misplaced",
			   "require is only allowed at the top level, "
			   "in groups and in modules");
		return;
	}
	/* the copies below are kept for the checks: a require in a loop
	 * keeps one per iteration */
	e->req_nodes += ast_count(st->lhs) + ast_count(st->rhs);
	if (e->req_nodes > RK_MAX_REQ_NODES) {
		elab_error(e, &st->loc, "limit",
			   "requires keep more than %u expression "
			   "nodes (the size limit)",
			   RK_MAX_REQ_NODES);
		e->stopped = true;
		return;
	}
	r = VEC_PUSH(e->d->reqs, e->d->nreqs, e->d->reqs_cap);
	r->expr = eval_ast_subst(e, st->lhs);
	r->msg = eval_ast_subst(e, st->rhs);
	r->scope = e->group;
	r->loc = st->loc;
}

/* The statements: a handler per kind of statement. */
typedef void stmt_fn(struct elab *e, const struct ast *st);
static stmt_fn *const stmt_run[] = {
	[AST_IMPORT] = elab_exec_import,
	[AST_PARAM] = exec_binding,
	[AST_LET] = exec_binding,
	[AST_FOR] = exec_for,
	[AST_IF] = exec_if,
	[AST_MODULE] = exec_module,
	[AST_REQUIRE] = exec_require,
	[AST_STMT] = exec_generic,
};

static void exec_stmt(struct elab *e, const struct ast *st)
{
	if (!elab_step(e, &st->loc))
		return;
	if ((size_t)st->kind < ARRAY_SIZE(stmt_run) && stmt_run[st->kind])
		stmt_run[st->kind](e, st);
	else
		elab_error(e, &st->loc, "value", "not a statement");
}

/* e->run_stmt: one statement of a list */
static void exec_one(struct elab *e, const struct ast *st)
{
	struct val_mark m = eval_val_mark(e);

	exec_stmt(e, st);
	/* a statement's values are temporaries, but a variable's (an
	 * imported file's among them) live to its scope's end (exec_body,
	 * exec_iteration, the end of the compilation) */
	if (st->kind != AST_LET && st->kind != AST_PARAM &&
	    st->kind != AST_IMPORT)
		eval_val_release(e, &m);
}

void elab_init(struct elab *e, struct compilation *c)
{
	memset(e, 0, sizeof(*e));
	e->a = &c->arena;
	e->diag = &c->diag;
	e->sm = &c->sm;
	e->d = &c->design;
	e->opts = c->opts;
	e->max_links = c->opts->max_links ? c->opts->max_links : RK_MAX_LINKS;
	e->obj = RK_NONE;
	e->group = RK_NONE;
	e->ctx = X_TOP;
	e->run_stmt = exec_one;
	arena_init(&e->tmp);
	arena_init(&e->ast);
	e->va = &e->tmp;
	/* map schema words to kinds and attributes in O(1) by string id */
	for (uint32_t i = 0; i < kind_table_len; i++) {
		uint32_t id = intern_cstr(e->a, kind_table[i].word);
		if (id > e->max_word)
			e->max_word = id;
	}
	for (uint32_t i = 1; i < A__COUNT; i++) {
		uint32_t id = intern_cstr(e->a, attr_table[i].name);
		if (id > e->max_word)
			e->max_word = id;
	}
	e->word_kind = xcalloc(e->max_word + 1, sizeof(*e->word_kind));
	e->word_attr = xcalloc(e->max_word + 1, sizeof(*e->word_attr));
	for (uint32_t i = kind_table_len; i > 0; i--) {
		uint32_t id = intern_cstr(e->a, kind_table[i - 1].word);
		e->word_kind[id] = (uint16_t)i; /* first entry wins */
	}
	for (uint32_t i = 1; i < A__COUNT; i++)
		e->word_attr[intern_cstr(e->a, attr_table[i].name)] =
		    (uint16_t)i;
	e->w_true = intern_cstr(e->a, "true");
	e->w_false = intern_cstr(e->a, "false");
	e->w_psu = intern_cstr(e->a, "psu");
	e->ndefines = c->opts->ndefines;
	e->defines = xcalloc(e->ndefines + 1, sizeof(*e->defines));
	for (uint32_t i = 0; i < e->ndefines; i++) {
		e->defines[i].name = c->opts->defines[i].name;
		e->defines[i].value = c->opts->defines[i].value;
	}
}

void elab_fini(struct elab *e)
{
	free(e->vars);
	free(e->scratch);
	arena_destroy(&e->tmp);
	arena_destroy(&e->ast);
	free(e->mods);
	free(e->bodies);
	free(e->imports);
	free(e->defines);
	free(e->word_kind);
	free(e->word_attr);
	free(e->seen);
	free(e->vmap);
	free(e->link_ends);
}
