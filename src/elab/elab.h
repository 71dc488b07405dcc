/* SPDX-License-Identifier: MIT */
/*
 * Elaboration: AST -> IR.  Private interface shared by elab.c (statements,
 * imports, modules), eval.c (expressions), and the stages after it that
 * work on the same state: resolve.c (names) and fabric.c (generators).
 *
 * Evaluation values (struct val) are richer than IR values: they include
 * ranges, unresolved paths with ranges and wildcards, and link pairs.  They
 * live in the arena and exist only while a statement is elaborated.
 */
#ifndef RACKC_ELAB_H
#define RACKC_ELAB_H

#include <stdbool.h>
#include <stdint.h>

#include "ast.h"
#include "diag.h"
#include "ir.h"
#include "schema.h"
#include "srcfile.h"

struct compilation;
struct rackc_options;
struct fabric_state;  /* fabric_gen.h, private to the fabric stage */
struct resolve_state; /* resolve.c */

/* Limits, reported as errors with the location that hit them. */
#define RK_MAX_LOOP 10000000u	/* iterations of one for loop */
#define RK_MAX_STEPS 50000000u	/* statements and iterations per compile */
#define RK_MAX_OBJECTS 2000000u /* objects */
#define RK_MAX_LINKS 5000000u	/* links (--max-links=N sets it) */
#define RK_MAX_ATTRS 4000000u	/* attributes */
#define RK_MAX_VALUES 8000000u	/* elements of list values */
#define RK_MAX_EXPAND 1000000u	/* names from one ranged path */
#define RK_MAX_IMPORT_DEPTH 16u /* nested imports */
#define RK_MAX_MODULE_DEPTH 64u /* nested module instances */
#define RK_MAX_PATH 512u	/* bytes in one hierarchical name */
#define RK_MAX_MATCH 50000000u	/* names tried by [*] patterns */

/* Bytes of format-string results per compilation (each is interned). */
#define RK_MAX_FMT_BYTES 268435456u

/* Expression nodes the requires keep (a copy per require run). */
#define RK_MAX_REQ_NODES 4000000u

enum vkind {
	V_NONE,
	V_NUM,	 /* q */
	V_BOOL,	 /* n */
	V_STR,	 /* s */
	V_RATIO, /* n : n2 */
	V_RANGE, /* n .. n2 (dimensionless, inclusive) */
	V_LIST,	 /* items[0..count) */
	V_PAIR,	 /* items[0] -> items[1] */
	V_LINK,	 /* items[0] -- items[1] */
	V_PATH,	 /* segs[0..count): a name or reference */
};

/* One segment of a path: name, and an optional index. */
enum seg_index { SEG_NONE, SEG_INT, SEG_RANGE, SEG_WILD };

struct seg {
	uint32_t name;
	enum seg_index ix;
	int64_t lo, hi;
};

/*
 * A value: 48 bytes, fields that no kind uses together sharing a place
 * (a list of eight million numbers is eight million of these).
 *
 * A figure known only within bounds (a require's bisection: a proven
 * lower bound and the least cut found) is a V_NUM in [n, n2] with @count
 * set to its fabric + 1; a condition its bounds cannot decide is a V_BOOL
 * with n = 0 and @count set the same way.  Elaboration makes neither: only
 * a host's function (struct eval_host) returns a bounded figure.
 */
struct val {
	enum vkind kind;
	enum dim dim;
	int64_t n;
	union {
		int64_t n2; /* V_RATIO, V_RANGE */
		uint32_t s; /* V_STR */
	};
	union {
		struct val *items; /* V_LIST, V_PAIR, V_LINK */
		struct seg *segs;  /* V_PATH */
		/* V_NUM: n / den base units, in lowest terms, when den > 1
		 * (a quotient within an expression; 0 or 1: whole) */
		int64_t den;
	};
	uint32_t count;
	struct srcloc loc;
};

/* A bounded figure or an undecided condition: its fabric + 1, else 0. */
static inline uint32_t val_bounded(const struct val *v)
{
	return v->kind == V_NUM || v->kind == V_BOOL ? v->count : 0;
}

struct elab;

/*
 * The host of an evaluation outside elaboration (the require check): the
 * functions it adds to the language's, and where errors go.
 * @call:  evaluate call @x, a function the language does not have: false
 *         when the host has no function of that name either (*ok is then
 *         unset), else *ok says whether *out holds its value (an error is
 *         reported otherwise)
 * @error: an error at @loc; the first of an evaluation is the one shown
 * @names: the host's function names, NULL-terminated (for suggestions)
 */
struct eval_host {
	bool (*call)(void *ctx, struct elab *e, const struct ast *x,
		     struct val *out, bool *ok);
	void (*error)(void *ctx, const struct srcloc *loc, const char *msg);
	const char *const *names;
	void *ctx;
};

struct var {
	uint32_t name;
	struct val v;
	struct srcloc loc;
	bool param;    /* a param (unique across files), not a let */
	uint32_t prev; /* the variable this one hides, or RK_NONE */
};

struct module_def {
	uint32_t name;
	const struct ast *def;
};

struct part_body {
	uint32_t part;
	const struct ast *body;
	bool instances; /* declares devices: a template for each instance */
};

struct import_rec {
	uint32_t path; /* interned resolved path */
	uint32_t file; /* file id */
	bool done;
};

struct define {
	const char *name;
	const char *value;
	bool used;
};

enum elab_mode {
	MODE_NORMAL,   /* declarations and attributes */
	MODE_TEMPLATE, /* instantiating a rack part: only instance kinds */
};

/**
 * struct elab - state of one elaboration
 * @obj:     object whose body is being elaborated (RK_NONE at top level)
 * @ctx:     context bit of that body (X_TOP, X_PART, ...)
 * @prefix:  full name of the innermost naming scope (0: none)
 * @group:   innermost group or module instance (RK_NONE: top level)
 * @vars:    variable stack; @frame is where the current frame starts and
 *           @nglobals how many entries are file-level params
 * @scratch: attributes of the objects being elaborated (a stack: nested
 *           bodies push above and take theirs off when they finish)
 */
struct elab {
	/* NULL during elaboration; an evaluation outside it (eval_host)
	 * reads @a, and builds values in @va, nothing else */
	const struct eval_host *host;
	struct arena *a;
	struct diag_engine *diag;
	struct srcmgr *sm;
	struct rk_design *d;
	const struct rackc_options *opts;
	uint32_t max_links; /* the link limit of this compilation */

	uint32_t obj;
	uint32_t ctx;
	uint32_t prefix;
	uint32_t group;
	enum elab_mode mode;
	/* runs one statement of a list, its temporaries released: elab.c's
	 * dispatcher, set by elab_init.  The declarations and the files run
	 * their bodies' statements through it, so that they sit below the
	 * statements and never call back into elab.c (doc/internals.md) */
	void (*run_stmt)(struct elab *e, const struct ast *st);

	struct var *vars;
	uint32_t nvars, vars_cap, frame, nglobals;
	uint32_t *vmap; /* name -> newest variable index: (key, value) pairs */
	uint32_t vmap_cap, vmap_count;

	struct rk_attr *scratch;
	/* values: a statement's temporaries, variables' values */
	struct arena tmp;
	/* where values' segments, lists and expanded names go: @tmp, as a
	 * stack (see val_mark): a statement's temporaries go when it ends,
	 * a variable's value when its scope ends */
	struct arena *va;
	/* elements of the list values (and argument lists) now in @va,
	 * held to RK_MAX_VALUES */
	uint64_t nlive;
	/* expression nodes the requires have kept (RK_MAX_REQ_NODES) */
	uint64_t req_nodes;
	/* bytes of the format strings' results (RK_MAX_FMT_BYTES) */
	uint64_t fmt_bytes;
	uint32_t nscratch, scratch_cap;

	/* the files' syntax trees (run_file): a statement's nodes are
	 * released once it has run, but for modules' and parts' bodies,
	 * which run again */
	struct arena ast;

	struct module_def *mods;
	uint32_t nmods, mods_cap;
	const struct module_def *mod_stack[RK_MAX_MODULE_DEPTH];
	uint32_t mod_depth;

	struct part_body *bodies;
	uint32_t nbodies, bodies_cap;

	struct import_rec *imports;
	uint32_t nimports, imports_cap;
	uint32_t import_depth;

	struct define *defines;
	uint32_t ndefines;

	/* word id -> kind_table index + 1, and attribute id */
	uint32_t max_word;
	uint16_t *word_kind;
	uint16_t *word_attr;
	uint32_t w_true, w_false, w_psu;

	uint64_t *seen;	 /* hashes of errors already reported */
	bool last_shown; /* the last error was printed: its notes may be */
	uint32_t nseen, seen_cap;

	uint64_t parse_ns;
	/* per explicit link: where its first end's text ends and its second
	 * end's begins (the link's loc spans both ends), for messages */
	uint32_t *link_ends;
	uint32_t nlink_ends, link_ends_cap;
	/* fabric expansion's own state (fabric_gen.h), for the length of
	 * fabric_expand(); NULL otherwise */
	struct fabric_state *fab;
	/* resolution's own state (resolve.c), from the first resolve_* call
	 * to resolve_fini() */
	struct resolve_state *res;
	/* resolve.c: did-you-mean candidates offered so far */
	uint64_t suggest_spent;
	uint64_t steps;
	uint64_t match_steps; /* names tried by [*] patterns (resolve.c) */
	bool stopped;	      /* a limit was hit: unwind without more work */
	bool syntax;	      /* a file had syntax errors */
	uint32_t blocks;      /* open if/for bodies */
	uint32_t errors;
};

/*
 * Values are built in e->va, a stack: val_release(e, &m) drops what was
 * built since m = val_mark(e), with its count of list elements.
 */
struct val_mark {
	struct arena_mark m;
	uint64_t nlive;
};
struct val_mark eval_val_mark(const struct elab *e);
void eval_val_release(struct elab *e, const struct val_mark *m);
/*
 * Room for @n more list elements among the live values: at the limit, an
 * error at @loc and elaboration stops (NULL then), else a place for them.
 */
struct val *eval_val_items(struct elab *e, uint32_t n,
			   const struct srcloc *loc);

/* eval.c */
bool eval_expr(struct elab *e, const struct ast *x, struct val *out);
bool eval_bool(struct elab *e, const struct ast *x, bool *out);
/* A declared name: identifiers are literal, indices are evaluated. */
bool eval_name(struct elab *e, const struct ast *x, struct val *out);
/* Expand a path value with ranges into concrete names (interned). */
bool eval_path_expand(struct elab *e, const struct val *p, uint32_t **names,
		      uint32_t *count);
/* Render a path (ranges and wildcards kept) as text; arena string. */
const char *eval_path_text(struct elab *e, const struct val *p);
bool eval_path_has_wild(const struct val *p);
const char *eval_val_kind_name(const struct val *v);
/* Copy of an expression with bound variables replaced by values. */
struct ast *eval_ast_subst(struct elab *e, const struct ast *x);
/* Drop variables down to @n (leaving a scope). */
void eval_vars_truncate(struct elab *e, uint32_t n);
/* Index slot of the newest variable called @name (created if absent). */
uint32_t *eval_vmap_slot(struct elab *e, uint32_t name);
/* Variable lookup: NULL when unbound. */
const struct var *eval_var_find(const struct elab *e, uint32_t name);
/* Bind @name to @v in the current scope, declared at @loc. */
void eval_var_push(struct elab *e, uint32_t name, const struct val *v,
		   const struct srcloc *loc);

/* elab.c */
void elab_error(struct elab *e, const struct srcloc *loc, const char *check,
		const char *fmt, ...) PRINTF(4, 5);
bool elab_step(struct elab *e, const struct srcloc *loc);
/*
 * True while a table of @n rows is below its limit @max; at the limit, an
 * error "more than @max @what" at @loc, and elaboration stops.
 */
bool elab_check_table_limit(struct elab *e, uint32_t n, uint32_t max,
			    const struct srcloc *loc, const char *what);
/*
 * True when an error at @loc would be a repeat (see elab_error), which is
 * then counted as reported: callers ask before formatting a message or
 * looking for a suggestion.  Also true once elaboration has stopped.
 */
bool elab_repeat(struct elab *e, const struct srcloc *loc);
/* The elaboration of one compilation: set-up and release. */
void elab_init(struct elab *e, struct compilation *c);
void elab_fini(struct elab *e);
/*
 * Parse and run the root file @file (and its imports) into the IR; warn
 * about -D options that match no param.  Returns RK_EXIT_OK, or
 * RK_EXIT_ERRORS after syntax errors.
 */
int elab_root(struct elab *e, uint32_t file);
/* Every rack (or in-row unit) without a `slot` gets one by its name. */
void elab_assign_slots(struct elab *e);

/*
 * Did-you-mean candidates looked at for undefined names, parts and ports
 * in one compilation.  A message whose search would pass the budget gets
 * no suggestion, so that with no error limit (--max-errors=0) many
 * misspelt references into a large design or a part of many ports cost
 * time in proportion to the input, not to its square.  Ten messages at
 * the default limit look at no more than 2,000,000.
 */
#define RK_SUGGEST_BUDGET 4000000

/* Charge one candidate to the budget; false once it is spent. */
static inline bool elab_suggest_step(struct elab *e)
{
	if (e->suggest_spent >= RK_SUGGEST_BUDGET)
		return false;
	e->suggest_spent++;
	return true;
}

#endif
