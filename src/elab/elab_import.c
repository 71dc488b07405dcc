/* SPDX-License-Identifier: MIT */
/*
 * Elaboration, files, imports and modules: a file's statements run once
 * it parses; an import finds its file (next to the importer, on -I, in
 * the standard library) and runs it once, a cycle being an error; modules
 * are registered per file and expanded at each instance.
 */
#include "rackc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "context.h"
#include "elab.h"
#include "elab_int.h"
#include "parse.h"
#include "suggest.h"

static const struct module_def *find_module(struct elab *e, uint32_t name)
{
	for (uint32_t i = 0; i < e->nmods; i++)
		if (e->mods[i].name == name)
			return &e->mods[i];
	return NULL;
}

/*
 * The module that the instance statement @st calls (after the ':'): one
 * that is defined, not being instantiated already, and within the nesting
 * limit; NULL when not (reported).
 */
static const struct module_def *instance_module(struct elab *e,
						const struct ast *st)
{
	const struct ast *call = st->rhs;
	const struct module_def *m;

	if (!call || (call->kind != AST_CALL && call->kind != AST_IDENT)) {
		elab_error(e, call ? &call->loc : &st->loc, "value",
			   "instance needs a module call after ':', e.g. "
			   "'instance su[0] : scalable_unit(index = 0)'");
		return NULL;
	}
	m = find_module(e, call->str);
	if (!m) {
		struct suggest sg;

		if (elab_repeat(e, &call->loc))
			return NULL;
		suggest_init(&sg, str_of(e->a, call->str));
		for (uint32_t i = 0; i < e->nmods; i++)
			suggest_offer(&sg, str_of(e->a, e->mods[i].name));
		elab_error(e, &call->loc, "undefined-name",
			   "unknown module '%s'" SUGGEST_FMT,
			   str_of(e->a, call->str), SUGGEST_ARGS(&sg));
		return NULL;
	}
	for (uint32_t k = 0; k < e->mod_depth; k++)
		if (e->mod_stack[k] == m) {
			elab_error(e, &call->loc, "recursion",
				   "module '%s' instantiates itself",
				   str_of(e->a, m->name));
			elab_note(e, &m->def->loc, "module '%s' defined here",
				  str_of(e->a, m->name));
			return NULL;
		}
	if (e->mod_depth >= RK_MAX_MODULE_DEPTH) {
		elab_error(e, &call->loc, "limit",
			   "modules nested deeper than %u levels",
			   RK_MAX_MODULE_DEPTH);
		return NULL;
	}
	return m;
}

/* The position in @m's parameters of the one the argument NAME = VALUE
 * @a names, in @k; false when @m has none of that name (reported). */
static bool named_param(struct elab *e, const struct module_def *m,
			const struct ast *a, uint32_t *k)
{
	const struct ast *p;
	struct suggest sg;

	for (p = m->def->list, *k = 0; p; p = p->next, (*k)++)
		if (p->str == a->str)
			return true;
	suggest_init(&sg, str_of(e->a, a->str));
	for (p = m->def->list; p; p = p->next)
		suggest_offer(&sg, str_of(e->a, p->str));
	elab_error(e, &a->wloc, "undefined-name",
		   "module '%s' has no parameter '%s'" SUGGEST_FMT,
		   str_of(e->a, m->name), str_of(e->a, a->str),
		   SUGGEST_ARGS(&sg));
	return false;
}

/*
 * The arguments of the call @call of module @m, evaluated in the caller's
 * scope: each into @pv at its parameter's position, which @set marks;
 * false when one is wrong (reported).
 */
static bool instance_args(struct elab *e, const struct module_def *m,
			  const struct ast *call, struct val *pv, bool *set)
{
	uint32_t nparams = ast_list_len(m->def->list), pos = 0, k;
	bool ok = true;

	for (const struct ast *a = call->kind == AST_CALL ? call->list : NULL;
	     a && ok; a = a->next) {
		if (a->kind == AST_NAMED) {
			if (!named_param(e, m, a, &k))
				return false;
			ok = eval_expr(e, a->lhs, &pv[k]);
		} else {
			k = pos++;
			if (k >= nparams) {
				elab_error(e, &a->loc, "value",
					   "too many arguments for "
					   "module '%s'",
					   str_of(e->a, m->name));
				return false;
			}
			ok = eval_expr(e, a, &pv[k]);
		}
		if (ok && set[k]) {
			elab_error(e, &a->loc, "value",
				   "parameter given twice");
			ok = false;
		}
		set[k] = true;
	}
	return ok;
}

/*
 * Bind @m's parameters as the variables of the instance's frame: the
 * arguments given (@pv, @set), the defaults of the others; false when a
 * parameter without a default has no argument (reported).
 */
static bool bind_params(struct elab *e, const struct module_def *m,
			const struct ast *call, struct val *pv, const bool *set)
{
	const struct ast *p;
	uint32_t k;
	bool ok = true;

	for (p = m->def->list, k = 0; p && ok; p = p->next, k++) {
		if (!set[k]) {
			if (!p->lhs) {
				elab_error(e, &call->loc, "value",
					   "module '%s' needs a value "
					   "for parameter '%s'",
					   str_of(e->a, m->name),
					   str_of(e->a, p->str));
				elab_note(e, &p->loc,
					  "parameter declared here");
				return false;
			}
			ok = eval_expr(e, p->lhs, &pv[k]);
		}
		if (ok)
			eval_var_push(e, p->str, &pv[k], &p->loc);
	}
	return ok;
}

/*
 * The instance @local of module @m that @st declares: its object, the
 * module's body run in it with the parameters bound; false when the
 * statement stops here (no object, or wrong arguments: reported).
 */
static bool instantiate(struct elab *e, const struct kind_info *ki,
			const struct ast *st, const struct module_def *m,
			uint32_t local)
{
	uint32_t id = elab_new_object(e, ki, st, local, false);
	uint32_t nparams = ast_list_len(m->def->list);
	/* the arguments are the instance's temporaries */
	struct val_mark vm = eval_val_mark(e);
	struct val *pv = arena_zalloc(e->va, (nparams + 1) * sizeof(*pv));
	bool *set = arena_zalloc(e->va, nparams + 1);
	uint32_t s_frame = e->frame, s_nv = e->nvars;
	uint32_t s_group = e->group, mark = e->nscratch;

	if (id == RK_NONE || !instance_args(e, m, st->rhs, pv, set))
		return false;
	e->frame = e->nvars;
	if (bind_params(e, m, st->rhs, pv, set)) {
		e->mod_stack[e->mod_depth++] = m;
		e->group = id;
		elab_exec_body(e, id, X_GROUP, e->d->objs[id].name,
			       m->def->body, MODE_NORMAL);
		e->mod_depth--;
	}
	e->group = s_group;
	e->frame = s_frame;
	eval_vars_truncate(e, s_nv);
	elab_finish_attrs(e, mark, &e->d->objs[id].attr_first,
			  &e->d->objs[id].attr_count);
	eval_val_release(e, &vm);
	return true;
}

void elab_decl_instance(struct elab *e, const struct kind_info *ki,
			const struct ast *st)
{
	uint32_t *names, count;
	const struct module_def *m;

	if (!elab_decl_names(e, st, &names, &count))
		return;
	m = instance_module(e, st);
	for (uint32_t i = 0; m && i < count && !e->stopped; i++)
		if (!instantiate(e, ki, st, m, names[i]))
			return;
}

/* ---- files and imports ---- */

static void register_modules(struct elab *e, const struct ast *list)
{
	for (const struct ast *st = list; st; st = st->next) {
		const struct module_def *old;
		struct module_def *m;

		if (st->kind != AST_MODULE)
			continue;
		old = find_module(e, st->str);
		if (old) {
			elab_error(e, &st->wloc, "duplicate-name",
				   "module '%s' is already defined",
				   str_of(e->a, st->str));
			elab_note(e, &old->def->wloc,
				  "previous definition here");
			continue;
		}
		m = VEC_PUSH(e->mods, e->nmods, e->mods_cap);
		m->name = st->str;
		m->def = st;
	}
}

/*
 * A file is parsed twice, a top-level statement at a time, so that its
 * syntax tree is never held whole (the canonical form of a million-GPU
 * design is 69 MB; its tree was 20 bytes per byte of it): first for the
 * syntax errors alone (they stop the compilation before any statement
 * runs) keeping only the modules, which every statement of the file may
 * use; then each statement runs as soon as it is parsed, and its nodes
 * are released when it has run, unless it made a part whose body runs
 * again for each instance, or imported a file that did, or that made
 * modules.
 */
struct file_run {
	struct elab *e;
	struct ast *mods, *mods_tail; /* the first pass's modules */
	uint64_t run_ns;	      /* the second pass's statements */
};

static bool keep_module(void *arg, struct ast *st)
{
	struct file_run *r = arg;

	if (st->kind != AST_MODULE)
		return false;
	st->next = NULL;
	if (r->mods_tail)
		r->mods_tail->next = st;
	else
		r->mods = st;
	r->mods_tail = st;
	return true;
}

static bool run_stmt(void *arg, struct ast *st)
{
	struct file_run *r = arg;
	struct elab *e = r->e;
	uint32_t nbodies = e->nbodies, nmods = e->nmods;
	uint64_t t0 = rk_now_ns();

	if (e->stopped)
		return false;
	elab_exec_one(e, st);
	r->run_ns += rk_now_ns() - t0;
	return e->nbodies != nbodies || e->nmods != nmods;
}

static int run_file(struct elab *e, uint32_t file)
{
	struct file_run r = { e, NULL, NULL, 0 };
	uint64_t t0 = rk_now_ns();
	uint32_t nerr = parse_file_each(e->a, &e->ast, e->diag, e->sm, file,
					keep_module, &r);
	uint32_t base;

	e->parse_ns += rk_now_ns() - t0;
	if (nerr) {
		e->syntax = true;
		e->stopped = true;
		return RK_EXIT_ERRORS;
	}
	register_modules(e, r.mods);
	base = e->nvars;
	t0 = rk_now_ns();
	parse_file_each(e->a, &e->ast, e->diag, e->sm, file, run_stmt, &r);
	/* the parse's own time: a statement's (an import's parse among
	 * them, counted where it ran) is the elaboration's */
	e->parse_ns += rk_now_ns() - t0 - r.run_ns;
	elab_exec_list_end(e, base);
	return RK_EXIT_OK;
}

static bool has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && streq(s + a - b, suf);
}

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Find an imported file: next to the importer, on -I, in the stdlib. */
static char *find_import(struct elab *e, const char *importer, const char *name)
{
	char buf[4096];
	const char *ext = has_suffix(name, ".rack") ? "" : ".rack";
	const char *slash = strrchr(importer, '/');
	char *p;

	if (name[0] == '/') {
		p = arena_printf(e->a, "%s%s", name, ext);
		return is_file(p) ? p : NULL;
	}
	p = slash ? arena_printf(e->a, "%.*s/%s%s", (int)(slash - importer),
				 importer, name, ext)
		  : arena_printf(e->a, "%s%s", name, ext);
	if (is_file(p))
		return p;
	for (uint32_t i = 0; i < e->opts->nincdirs; i++) {
		p = arena_printf(e->a, "%s/%s%s", e->opts->incdirs[i], name,
				 ext);
		if (is_file(p))
			return p;
	}
	p = arena_printf(e->a, "%s/%s%s",
			 e->opts->stddir
			     ? e->opts->stddir
			     : rackc_default_stddir(buf, sizeof(buf)),
			 name, ext);
	return is_file(p) ? p : NULL;
}

void elab_exec_import(struct elab *e, const struct ast *st)
{
	const struct srcfile *from = srcmgr_file(e->sm, st->loc.file);
	const char *name = str_of(e->a, st->str);
	char *path, *real;
	uint32_t key, file;
	struct import_rec *rec;

	if (!elab_at_file_top(e)) {
		elab_error(e, &st->loc, "misplaced",
			   "import is only allowed at the top level of a file");
		return;
	}
	if (!name[0] || memchr(name, '\0', strlen_of(e->a, st->str))) {
		elab_error(e, &st->wloc, "import", "empty import path");
		return;
	}
	path = find_import(e, from->path, name);
	if (!path) {
		elab_error(e, &st->wloc, "import",
			   "cannot find '%s' (searched next to '%s', the -I "
			   "directories and the standard library)",
			   name, from->path);
		return;
	}
	real = realpath(path, NULL);
	key = intern_cstr(e->a, real ? real : path);
	free(real);
	for (uint32_t i = 0; i < e->nimports; i++) {
		if (e->imports[i].path != key)
			continue;
		if (!e->imports[i].done) {
			elab_error(e, &st->wloc, "import",
				   "import cycle: '%s' imports itself", path);
			for (uint32_t f = st->loc.file; f;) {
				const struct srcfile *sf =
				    srcmgr_file(e->sm, f);

				if (!sf->included_from.file)
					break;
				elab_note(e, &sf->included_from,
					  "'%s' imported here", sf->path);
				f = sf->included_from.file;
			}
		}
		return; /* each file runs once */
	}
	if (e->import_depth >= RK_MAX_IMPORT_DEPTH) {
		elab_error(e, &st->wloc, "limit",
			   "imports nested deeper than %u levels",
			   RK_MAX_IMPORT_DEPTH);
		return;
	}
	file = srcmgr_load(e->sm, path, st->loc);
	if (!file && errno == EFBIG) {
		elab_error(e, &st->wloc, "import",
			   "'%s' is larger than %u bytes (the source size "
			   "limit; --max-source-bytes raises it)",
			   path, e->sm->max_size);
		return;
	}
	if (!file) {
		elab_error(e, &st->wloc, "import", "cannot read '%s': %s", path,
			   strerror(errno));
		return;
	}
	rec = VEC_PUSH(e->imports, e->nimports, e->imports_cap);
	rec->path = key;
	rec->file = file;
	rec->done = false;
	{
		uint32_t idx = e->nimports - 1;

		e->import_depth++;
		run_file(e, file);
		e->import_depth--;
		e->imports[idx].done = true;
	}
}

int elab_root(struct elab *e, uint32_t file)
{
	int rc;

	/* the root is an import in progress too (cycles back to it) */
	{
		const struct srcfile *f = srcmgr_file(e->sm, file);
		char *real = realpath(f->path, NULL);
		struct import_rec *rec =
		    VEC_PUSH(e->imports, e->nimports, e->imports_cap);

		rec->path = intern_cstr(e->a, real ? real : f->path);
		rec->file = file;
		rec->done = false;
		free(real);
	}
	rc = run_file(e, file);
	if (e->syntax)
		rc = RK_EXIT_ERRORS;
	if (rc == RK_EXIT_OK && !e->stopped)
		for (uint32_t i = 0; i < e->ndefines; i++)
			if (!e->defines[i].used)
				diag_warning(e->diag, NULL, "unused-define",
					     "-D %s does not match any param "
					     "of the design",
					     e->defines[i].name);
	return rc;
}
