/* SPDX-License-Identifier: MIT */
/*
 * Elaboration, statements: runs the AST of the input (and its imports) like
 * a program whose effect is to build the IR.  Parameters, let bindings,
 * for loops, conditionals and module instances are expanded here; every
 * generic statement is looked up in the schema and becomes an object, a
 * link or an attribute.  References are only recorded; resolve.c binds them
 * once every object exists.
 */
#include "rackc.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "context.h"
#include "elab.h"
#include "parse.h"
#include "suggest.h"

/*
 * A statement inside a loop fails the same way on every iteration: an
 * error at a source range already reported is a repeat.  Repeats are
 * recognised from the location alone, before any message is formatted or
 * name suggested, so a loop of ten million failing iterations costs ten
 * million lookups; they count toward --max-errors (diag_repeat), so such
 * a loop stops at the error limit.  Errors without a location are told
 * apart by their check and message.
 */
static uint64_t err_key(const struct srcloc *loc, const char *check,
			const char *msg)
{
	uint64_t h = 1469598103934665603ull;

	if (loc && loc->file) {
		h ^= ((uint64_t)loc->file << 48) ^
		     ((uint64_t)loc->begin << 16) ^ loc->end;
		h *= 1099511628211ull;
		h ^= ((uint64_t)loc->end << 32) ^ loc->begin;
	} else {
		for (const char *p = check ? check : ""; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
		for (const char *p = msg; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
	}
	return h | 1;
}

/* Is @h in the table of reported errors?  With @add, put it there. */
static bool seen_key(struct elab *e, uint64_t h, bool add)
{
	uint32_t i;

	if (add && e->nseen * 2 >= e->seen_cap) {
		uint32_t ncap = e->seen_cap ? e->seen_cap * 2 : 256;
		uint64_t *t = xcalloc(ncap, sizeof(*t));

		for (uint32_t k = 0; k < e->seen_cap; k++) {
			if (!e->seen[k])
				continue;
			for (i = (uint32_t)e->seen[k] & (ncap - 1); t[i];
			     i = (i + 1) & (ncap - 1))
				;
			t[i] = e->seen[k];
		}
		free(e->seen);
		e->seen = t;
		e->seen_cap = ncap;
	}
	if (!e->seen_cap)
		return false;
	for (i = (uint32_t)h & (e->seen_cap - 1); e->seen[i];
	     i = (i + 1) & (e->seen_cap - 1))
		if (e->seen[i] == h)
			return true;
	if (add) {
		e->seen[i] = h;
		e->nseen++;
	}
	return false;
}

/* Count a repeat (reported nothing), stopping at the error limit. */
static void count_repeat(struct elab *e)
{
	e->last_shown = false;
	e->errors++;
	diag_repeat(e->diag, DIAG_ERROR);
	if (diag_stop(e->diag))
		e->stopped = true;
}

bool elab_repeat(struct elab *e, const struct srcloc *loc)
{
	if (e->stopped)
		return true;
	if (!loc || !loc->file || !seen_key(e, err_key(loc, NULL, ""), false))
		return false;
	count_repeat(e);
	return true;
}

void elab_error(struct elab *e, const struct srcloc *loc, const char *check,
		const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL;
	int n;

	e->last_shown = false;
	if (e->stopped)
		return;
	if (loc && loc->file) {
		if (seen_key(e, err_key(loc, NULL, ""), true)) {
			count_repeat(e);
			return;
		}
	}
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	msg = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	va_end(ap);
	if ((!loc || !loc->file) &&
	    seen_key(e, err_key(NULL, check, msg), true)) {
		free(msg);
		count_repeat(e);
		return;
	}
	e->errors++;
	e->last_shown = true;
	diag_emit(e->diag, DIAG_ERROR, loc, check, "%s", msg);
	free(msg);
	if (diag_stop(e->diag))
		e->stopped = true;
}

static void elab_note(struct elab *e, const struct srcloc *loc, const char *fmt,
		      ...) PRINTF(3, 4);
static void elab_note(struct elab *e, const struct srcloc *loc, const char *fmt,
		      ...)
{
	va_list ap;

	if (!e->last_shown)
		return; /* the error it explains was not shown */
	va_start(ap, fmt);
	diag_vemit(e->diag, DIAG_NOTE, loc, NULL, fmt, ap);
	va_end(ap);
}

bool elab_step(struct elab *e, const struct srcloc *loc)
{
	if (e->stopped)
		return false;
	if (++e->steps > RK_MAX_STEPS) {
		elab_error(e, loc, "limit",
			   "elaboration takes more than %u steps (the step "
			   "limit); is a loop too large?",
			   RK_MAX_STEPS);
		e->stopped = true;
		return false;
	}
	return true;
}

static bool check_table_limit(struct elab *e, uint32_t n,
			      const struct srcloc *loc, const char *what)
{
	if (n < RK_MAX_OBJECTS)
		return true;
	elab_error(e, loc, "limit",
		   "design has more than %u %s (the size "
		   "limit)",
		   RK_MAX_OBJECTS, what);
	e->stopped = true;
	return false;
}

/* ---- variables ---- */

static void push_var(struct elab *e, uint32_t name, const struct val *v,
		     const struct srcloc *loc)
{
	uint32_t *slot = vmap_slot(e, name);
	uint32_t idx = e->nvars;
	struct var *x = VEC_PUSH(e->vars, e->nvars, e->vars_cap);

	x->name = name;
	x->v = *v;
	x->loc = *loc;
	x->param = false;
	x->prev = *slot;
	*slot = idx;
}

static bool at_file_top(const struct elab *e)
{
	return e->obj == RK_NONE && e->group == RK_NONE && e->mod_depth == 0 &&
	       e->nvars == e->nglobals && e->ctx == X_TOP && e->blocks == 0;
}

/* ---- names ---- */

static uint32_t join_name(struct elab *e, uint32_t prefix, uint32_t local,
			  const struct srcloc *loc)
{
	size_t a, b;

	if (!prefix)
		return local;
	a = strlen_of(e->a, prefix);
	b = strlen_of(e->a, local);
	if (a + b + 1 >= RK_MAX_PATH) {
		elab_error(e, loc, "limit", "name longer than %u bytes",
			   RK_MAX_PATH);
		return 0;
	}
	return intern_join(e->a, prefix, '.', str_of(e->a, local), b);
}

/* ---- attributes ---- */

static struct rk_value *push_val(struct elab *e)
{
	struct rk_value *v = VEC_PUSH(e->d->vals, e->d->nvals, e->d->vals_cap);

	memset(v, 0, sizeof(*v));
	return v;
}

static void push_attr(struct elab *e, uint32_t key, const struct rk_value *val)
{
	struct rk_attr *a = VEC_PUSH(e->scratch, e->nscratch, e->scratch_cap);

	a->key = key;
	a->val = *val;
}

/*
 * Move the attributes pushed since @mark into the design, sorted by key,
 * and report duplicates of single-valued attributes.
 */
static void finish_attrs(struct elab *e, uint32_t mark, uint32_t *first,
			 uint32_t *count)
{
	uint32_t n = e->nscratch - mark;
	/* no attributes pushed yet: scratch may be NULL, and NULL + 0 is
	 * undefined in C */
	struct rk_attr *s = n ? e->scratch + mark : NULL;

	if (n > 1) {
		uint32_t *order = xmalloc(n * sizeof(*order));
		struct rk_attr *tmp = xmalloc(n * sizeof(*tmp));
		bool sorted = true;

		for (uint32_t i = 1; i < n && sorted; i++)
			if (s[i - 1].key > s[i].key)
				sorted = false;
		if (!sorted) {
			/* counting sort by key: stable and linear */
			uint32_t cnt[A__COUNT + 1] = { 0 };

			for (uint32_t i = 0; i < n; i++)
				cnt[s[i].key + 1]++;
			for (uint32_t k = 1; k <= A__COUNT; k++)
				cnt[k] += cnt[k - 1];
			for (uint32_t i = 0; i < n; i++)
				order[cnt[s[i].key]++] = i;
			for (uint32_t i = 0; i < n; i++)
				tmp[i] = s[order[i]];
			memcpy(s, tmp, n * sizeof(*tmp));
		}
		free(order);
		free(tmp);
	}
	for (uint32_t i = 1; i < n; i++) {
		if (s[i].key == s[i - 1].key && !attr_table[s[i].key].multi) {
			elab_error(e, &s[i].val.loc, "duplicate-name",
				   "attribute '%s' is given more than once",
				   attr_table[s[i].key].name);
			elab_note(e, &s[i - 1].val.loc, "first given here");
		}
	}
	*first = e->d->nattrs;
	*count = n;
	if (n && check_table_limit(e, e->d->nattrs + n, &s[0].val.loc,
				   "attributes")) {
		for (uint32_t i = 0; i < n; i++)
			*VEC_PUSH(e->d->attrs, e->d->nattrs, e->d->attrs_cap) =
			    s[i];
	} else {
		*count = 0;
	}
	e->nscratch = mark;
}

/* The bare word of a one-segment path without index, or 0. */
static uint32_t bare_word(const struct val *v)
{
	if (v->kind == V_PATH && v->count == 1 && v->segs[0].ix == SEG_NONE)
		return v->segs[0].name;
	return 0;
}

static bool word_allowed(const char *words, const char *w)
{
	size_t n = strlen(w);

	for (const char *p = words; *p;) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && memcmp(p, w, n) == 0)
			return true;
		if (!bar)
			break;
		p = bar + 1;
	}
	return false;
}

static void suggest_words(struct arena *a, struct suggest *sg,
			  const char *words)
{
	const size_t maxlen = 64;

	for (const char *p = words; *p;) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		/* the suggestion keeps the pointer: give it a lasting copy */
		if (len < maxlen)
			suggest_offer(sg, arena_strndup(a, p, len));
		if (!bar)
			break;
		p = bar + 1;
	}
}

static const char *words_list(struct elab *e, const char *words)
{
	char *s = arena_strndup(e->a, words, strlen(words));

	for (char *p = s; *p; p++)
		if (*p == '|')
			*p = ',';
	return s;
}

static bool want_word(struct elab *e, const struct val *v, const char *what,
		      const char *words, uint32_t *out)
{
	uint32_t w = bare_word(v);
	struct suggest sg;

	if (!w) {
		elab_error(e, &v->loc, "type-mismatch", "%s must be one of: %s",
			   what, words_list(e, words));
		return false;
	}
	if (word_allowed(words, str_of(e->a, w))) {
		*out = w;
		return true;
	}
	if (elab_repeat(e, &v->loc))
		return false;
	suggest_init(&sg, str_of(e->a, w));
	suggest_words(e->a, &sg, words);
	if (suggest_result(&sg))
		elab_error(e, &v->loc, "value",
			   "'%s' is not a valid %s; did you mean '%s'?",
			   str_of(e->a, w), what, suggest_result(&sg));
	else
		elab_error(e, &v->loc, "value",
			   "'%s' is not a valid %s (expected one of: %s)",
			   str_of(e->a, w), what, words_list(e, words));
	return false;
}

/* Find a part by name, reporting unknown names with a suggestion. */
static uint32_t find_part(struct elab *e, uint32_t name,
			  const struct srcloc *loc)
{
	uint32_t p = ir_find_part(e->d, name);
	struct suggest sg;

	if (p != RK_NONE && e->d->objs[p].kind == K_PART)
		return p;
	if (elab_repeat(e, loc))
		return RK_NONE;
	suggest_init(&sg, str_of(e->a, name));
	for (uint32_t i = 0; i < e->d->nobjs; i++)
		if (e->d->objs[i].kind == K_PART)
			suggest_offer(&sg, str_of(e->a, e->d->objs[i].name));
	elab_error(e, loc, "undefined-name", "unknown part '%s'" SUGGEST_FMT,
		   str_of(e->a, name), SUGGEST_ARGS(&sg));
	return RK_NONE;
}

static const char *a_dim(enum dim d)
{
	switch (d) {
	case DIM_POWER:
		return "a power (e.g. 10.2kW)";
	case DIM_LENGTH:
		return "a length (e.g. 3m)";
	case DIM_MASS:
		return "a mass (e.g. 130kg)";
	case DIM_RATE:
		return "a data rate (e.g. 400Gb/s)";
	case DIM_BYTES:
		return "a size in bytes (e.g. 80GB)";
	case DIM_CURRENT:
		return "a current (e.g. 63A)";
	case DIM_VOLTAGE:
		return "a voltage (e.g. 415V)";
	case DIM_TEMP:
		return "a temperature (e.g. 32C or 10K)";
	case DIM_FLOW:
		return "a flow (e.g. 1.5L/min)";
	case DIM_RACKU:
		return "rack units (e.g. 8U)";
	case DIM_MONEY:
		return "a price (e.g. 1200USD)";
	case DIM_RATIO:
		return "a ratio (e.g. 80%)";
	case DIM_FLOPS:
		return "a compute rate (e.g. 989.5TFLOP/s)";
	case DIM_TIME:
		return "a time (e.g. 2us)";
	default:
		return "a plain number";
	}
}

static bool conv_num(struct elab *e, const struct attr_info *ai,
		     const struct val *v, struct rk_value *out)
{
	if (v->kind != V_NUM) {
		elab_error(e, &v->loc, "type-mismatch",
			   "'%s' expects %s, not %s", ai->name, a_dim(ai->dim),
			   val_kind_name(v));
		return false;
	}
	if (v->dim != ai->dim) {
		elab_error(
		    e, &v->loc, "unit-mismatch", "'%s' expects %s, not %s %s",
		    ai->name, a_dim(ai->dim),
		    v->dim == DIM_NONE			   ? "a"
		    : strchr("aeiou", dim_name(v->dim)[0]) ? "an"
							   : "a",
		    v->dim == DIM_NONE ? "plain number" : dim_name(v->dim));
		return false;
	}
	if (v->n < 0 && v->dim != DIM_TEMP) {
		elab_error(e, &v->loc, "value", "'%s' cannot be negative",
			   ai->name);
		return false;
	}
	out->type = VT_NUM;
	out->dim = (uint8_t)v->dim;
	out->n = v->n;
	out->loc = v->loc;
	return true;
}

/* Flatten attribute arguments: a single list argument counts as its items. */
static void flatten_args(const struct val *args, uint32_t argc,
			 const struct val **items, uint32_t *n)
{
	if (argc == 1 && args[0].kind == V_LIST) {
		*items = args[0].items;
		*n = args[0].count;
	} else {
		*items = args;
		*n = argc;
	}
}

/* Push references for every name a path expands to; returns the count. */
static bool push_refs(struct elab *e, const struct attr_info *ai,
		      const struct val *v, struct rk_value **tmp,
		      uint32_t *ntmp, uint32_t *cap)
{
	uint32_t *names, count;

	if (v->kind != V_PATH) {
		elab_error(e, &v->loc, "type-mismatch",
			   "'%s' expects a name, not %s", ai->name,
			   val_kind_name(v));
		return false;
	}
	if (path_has_wild(v)) {
		/* patterns are matched against the names in resolve.c */
		struct val copy = *v;
		uint32_t k, nsegs = v->count;

		/* expand ranges but keep the wildcards */
		copy.segs = arena_alloc(e->a, nsegs * sizeof(struct seg));
		memcpy(copy.segs, v->segs, nsegs * sizeof(struct seg));
		for (k = 0; k < nsegs && copy.segs[k].ix != SEG_RANGE; k++)
			;
		if (k < nsegs) {
			int64_t lo = copy.segs[k].lo, hi = copy.segs[k].hi;

			if (hi - lo >= RK_MAX_EXPAND) {
				elab_error(e, &v->loc, "limit",
					   "range too large in '%s'",
					   path_text(e, v));
				return false;
			}
			for (int64_t i = lo; i <= hi; i++) {
				copy.segs[k].ix = SEG_INT;
				copy.segs[k].lo = copy.segs[k].hi = i;
				if (!push_refs(e, ai, &copy, tmp, ntmp, cap))
					return false;
			}
			return true;
		}
		{
			struct rk_value *r = VEC_PUSH(*tmp, *ntmp, *cap);

			memset(r, 0, sizeof(*r));
			r->type = VT_REF;
			r->a = intern_cstr(e->a, path_text(e, v));
			r->n = 1; /* pattern */
			r->loc = v->loc;
		}
		return true;
	}
	if (!path_expand(e, v, &names, &count))
		return false;
	for (uint32_t i = 0; i < count; i++) {
		struct rk_value *r = VEC_PUSH(*tmp, *ntmp, *cap);

		memset(r, 0, sizeof(*r));
		r->type = VT_REF;
		r->a = names[i];
		r->loc = v->loc;
	}
	return true;
}

static void store_list(struct elab *e, const struct rk_value *items, uint32_t n,
		       const struct srcloc *loc, struct rk_value *out)
{
	out->type = VT_LIST;
	out->a = e->d->nvals;
	out->n = n;
	out->loc = *loc;
	for (uint32_t i = 0; i < n; i++)
		*push_val(e) = items[i];
}

static bool conv_psumap(struct elab *e, const struct attr_info *ai,
			const struct val *v, struct rk_value *out)
{
	const struct val *l, *r;
	uint32_t pair, list;
	int64_t lo, hi;
	uint32_t *names, count;

	if (v->kind != V_PAIR) {
		elab_error(e, &v->loc, "type-mismatch",
			   "'%s' expects 'psu[FIRST..LAST] -> PDU', not %s",
			   ai->name, val_kind_name(v));
		return false;
	}
	l = &v->items[0];
	r = &v->items[1];
	if (l->kind != V_PATH || l->count != 1 || l->segs[0].name != e->w_psu ||
	    l->segs[0].ix == SEG_NONE || l->segs[0].ix == SEG_WILD) {
		elab_error(
		    e, &l->loc, "value",
		    "the left of '->' must be psu[N] or psu[FIRST..LAST]");
		return false;
	}
	if (r->kind != V_PATH || path_has_wild(r) ||
	    !path_expand(e, r, &names, &count))
		return false;
	if (count != 1) {
		elab_error(e, &r->loc, "value",
			   "supplies plug into one PDU per '->'");
		return false;
	}
	lo = l->segs[0].lo;
	hi = l->segs[0].hi;
	if (hi - lo >= 1024) {
		elab_error(e, &l->loc, "limit", "too many supplies in '%s'",
			   path_text(e, l));
		return false;
	}
	pair = e->d->nvals;
	push_val(e);
	push_val(e);
	list = e->d->nvals;
	for (int64_t i = lo; i <= hi; i++) {
		struct rk_value *x = push_val(e);

		x->type = VT_NUM;
		x->n = i;
		x->loc = l->loc;
	}
	e->d->vals[pair].type = VT_LIST;
	e->d->vals[pair].a = list;
	e->d->vals[pair].n = hi - lo + 1;
	e->d->vals[pair].loc = l->loc;
	e->d->vals[pair + 1].type = VT_REF;
	e->d->vals[pair + 1].a = names[0];
	e->d->vals[pair + 1].loc = r->loc;
	out->type = VT_PAIR;
	out->a = pair;
	out->loc = v->loc;
	return true;
}

/* Convert the evaluated arguments of attribute @key and push it. */
static void set_attr(struct elab *e, uint32_t key, const struct ast *st,
		     const struct val *args, uint32_t argc)
{
	const struct attr_info *ai = &attr_table[key];
	struct rk_value out;
	const struct val *items;
	uint32_t n;

	memset(&out, 0, sizeof(out));
	out.loc = st->loc;
	if (argc == 0) {
		elab_error(e, &st->loc, "value", "'%s' needs a value",
			   ai->name);
		return;
	}
	flatten_args(args, argc, &items, &n);
	switch (ai->type) {
	case T_NUM:
	case T_STR:
	case T_WORD:
	case T_BOOL:
	case T_RATIO:
	case T_REF:
	case T_PARTREF:
		if (argc != 1) {
			elab_error(e, &args[1].loc, "value",
				   "'%s' takes one value", ai->name);
			return;
		}
		break;
	default:
		break;
	}
	switch (ai->type) {
	case T_NUM:
		if (!conv_num(e, ai, &args[0], &out))
			return;
		break;
	case T_STR:
		if (args[0].kind != V_STR) {
			elab_error(e, &args[0].loc, "type-mismatch",
				   "'%s' expects a string, not %s", ai->name,
				   val_kind_name(&args[0]));
			return;
		}
		out.type = VT_STR;
		out.a = args[0].s;
		out.loc = args[0].loc;
		break;
	case T_WORD:
		if (!want_word(e, &args[0], ai->name, ai->words, &out.a))
			return;
		out.type = VT_WORD;
		out.loc = args[0].loc;
		break;
	case T_BOOL:
		if (args[0].kind != V_BOOL) {
			elab_error(e, &args[0].loc, "type-mismatch",
				   "'%s' expects true or false, not %s",
				   ai->name, val_kind_name(&args[0]));
			return;
		}
		out.type = VT_BOOL;
		out.n = args[0].n;
		out.loc = args[0].loc;
		break;
	case T_RATIO:
		if (args[0].kind == V_NUM && args[0].dim == DIM_NONE &&
		    args[0].n > 0) {
			out.n = args[0].n;
			out.a = 1;
		} else if (args[0].kind == V_RATIO &&
			   args[0].n2 <= UINT32_MAX) {
			out.n = args[0].n;
			out.a = (uint32_t)args[0].n2;
		} else {
			elab_error(e, &args[0].loc, "type-mismatch",
				   "'%s' expects a ratio such as 1:1 or 3:1",
				   ai->name);
			return;
		}
		out.type = VT_RATIO;
		out.loc = args[0].loc;
		break;
	case T_PARTREF: {
		uint32_t w = bare_word(&args[0]);

		if (!w) {
			elab_error(e, &args[0].loc, "type-mismatch",
				   "'%s' expects a part name", ai->name);
			return;
		}
		out.a = find_part(e, w, &args[0].loc);
		if (out.a == RK_NONE)
			return;
		{
			enum rk_class want =
			    key == A_SWITCH || key == A_SPINE_SWITCH ? C_SWITCH
			    : key == A_CABLE			     ? C_CABLE
			    : key == A_RDHX			     ? C_RDHX
								     : C_NONE;

			if (want && e->d->objs[out.a].cls != want) {
				elab_error(e, &args[0].loc, "part-class",
					   "'%s' is a %s part, but '%s' needs "
					   "a %s part",
					   str_of(e->a, w),
					   rk_class_name(e->d->objs[out.a].cls),
					   ai->name, rk_class_name(want));
				return;
			}
		}
		out.type = VT_OBJ;
		out.loc = args[0].loc;
		break;
	}
	case T_REF:
	case T_REFS:
	case T_PORTS: {
		struct rk_value *tmp = NULL;
		uint32_t ntmp = 0, cap = 0;
		bool ok = true;

		for (uint32_t i = 0; i < n && ok; i++)
			ok = push_refs(e, ai, &items[i], &tmp, &ntmp, &cap);
		if (ok && ai->type == T_REF && (ntmp != 1 || tmp[0].n)) {
			elab_error(e, &args[0].loc, "value",
				   "'%s' names exactly one object", ai->name);
			ok = false;
		}
		if (ok && ai->type == T_REF)
			out = tmp[0];
		else if (ok)
			store_list(e, tmp, ntmp, &st->loc, &out);
		free(tmp);
		if (!ok)
			return;
		break;
	}
	case T_NUMS: {
		struct rk_value *tmp = xcalloc(n, sizeof(*tmp));
		bool ok = true;

		for (uint32_t i = 0; i < n && ok; i++)
			ok = conv_num(e, ai, &items[i], &tmp[i]);
		if (ok)
			store_list(e, tmp, n, &st->loc, &out);
		free(tmp);
		if (!ok)
			return;
		break;
	}
	case T_STRS: {
		struct rk_value *tmp = xcalloc(n, sizeof(*tmp));
		bool ok = true;

		for (uint32_t i = 0; i < n && ok; i++) {
			if (items[i].kind != V_STR) {
				elab_error(e, &items[i].loc, "type-mismatch",
					   "'%s' expects strings, not %s",
					   ai->name, val_kind_name(&items[i]));
				ok = false;
				break;
			}
			tmp[i].type = VT_STR;
			tmp[i].a = items[i].s;
			tmp[i].loc = items[i].loc;
		}
		if (ok)
			store_list(e, tmp, n, &st->loc, &out);
		free(tmp);
		if (!ok)
			return;
		break;
	}
	case T_PSUMAP:
		for (uint32_t i = 0; i < argc; i++) {
			struct rk_value one;

			memset(&one, 0, sizeof(one));
			if (conv_psumap(e, ai, &args[i], &one))
				push_attr(e, key, &one);
		}
		return;
	case T_SPARES: {
		struct rk_value three[3];
		uint32_t w = argc == 3 ? bare_word(&args[0]) : 0;
		bool known = false;

		if (argc != 3 || !w || args[1].kind != V_NUM ||
		    (args[1].dim != DIM_RATIO && args[1].n) ||
		    args[2].kind != V_NUM || args[2].dim != DIM_NONE) {
			elab_error(e, &st->loc, "value",
				   "spares takes a part category, a percent "
				   "and a minimum: spares cable, 2%%, 4");
			return;
		}
		for (unsigned c = C_NONE + 1; c < C__COUNT; c++)
			known |= streq(str_of(e->a, w),
				       rk_class_name((enum rk_class)c));
		if (!known) {
			elab_error(e, &args[0].loc, "value",
				   "'%s' is not a part category (server, "
				   "switch, cable, transceiver, ...)",
				   str_of(e->a, w));
			return;
		}
		if (args[1].n < 0 || args[2].n < 0) {
			elab_error(e, &st->loc, "value",
				   "spares: the percent and the minimum cannot "
				   "be negative");
			return;
		}
		memset(three, 0, sizeof(three));
		three[0].type = VT_WORD;
		three[0].a = w;
		three[0].loc = args[0].loc;
		three[1].type = VT_NUM;
		three[1].dim = DIM_RATIO;
		three[1].n = args[1].n;
		three[1].loc = args[1].loc;
		three[2].type = VT_NUM;
		three[2].dim = DIM_NONE;
		three[2].n = args[2].n;
		three[2].loc = args[2].loc;
		store_list(e, three, 3, &st->loc, &out);
		break;
	}
	case T_WAIVER: {
		struct rk_value two[2];

		if (argc != 2 || args[0].kind != V_STR ||
		    args[1].kind != V_STR) {
			elab_error(e, &st->loc, "value",
				   "waive takes a check name and a reason: "
				   "waive \"check-name\", \"why it is safe\"");
			return;
		}
		if (strlen_of(e->a, args[1].s) == 0) {
			elab_error(e, &args[1].loc, "value",
				   "a waiver must give a reason");
			return;
		}
		memset(two, 0, sizeof(two));
		for (int i = 0; i < 2; i++) {
			two[i].type = VT_STR;
			two[i].a = args[i].s;
			two[i].loc = args[i].loc;
		}
		store_list(e, two, 2, &st->loc, &out);
		break;
	}
	case T_ANY:
		elab_error(e, &st->loc, "value", "'%s' cannot be set",
			   ai->name);
		return;
	}
	push_attr(e, key, &out);
}

/* ---- statements ---- */

static void exec_list(struct elab *e, const struct ast *list);

static bool eval_args(struct elab *e, const struct ast *args, struct val **out,
		      uint32_t *argc)
{
	uint32_t n = ast_list_len(args), i = 0;

	*out = arena_alloc(e->a, (n ? n : 1) * sizeof(struct val));
	*argc = n;
	for (const struct ast *a = args; a; a = a->next)
		if (!eval(e, a, &(*out)[i++]))
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

/* Declared names of a statement: the first argument, ranges expanded. */
static bool decl_names(struct elab *e, const struct ast *st, uint32_t **names,
		       uint32_t *count)
{
	struct val v;

	if (!st->list) {
		elab_error(e, &st->loc, "value", "'%s' needs a name",
			   str_of(e->a, st->str));
		return false;
	}
	if (st->list->next) {
		elab_error(e, &st->list->next->loc, "value",
			   "'%s' takes a name, then ':' and a type",
			   str_of(e->a, st->str));
		return false;
	}
	if (!eval_name(e, st->list, &v))
		return false;
	return path_expand(e, &v, names, count);
}

static uint32_t new_object(struct elab *e, const struct kind_info *ki,
			   const struct ast *st, uint32_t local, bool part_ns)
{
	struct rk_design *d = e->d;
	/* parts are global; their members are named inside the part */
	uint32_t prefix = ki->kind == K_PART		 ? 0
			  : part_ns && e->obj != RK_NONE ? d->objs[e->obj].name
							 : e->prefix;
	uint32_t full = join_name(e, prefix, local, &st->loc);
	uint32_t id, prev;

	if (!full || !check_table_limit(e, d->nobjs, &st->loc, "objects"))
		return RK_NONE;
	id = ir_add_obj(d, ki->kind, e->obj, local, full, &st->loc);
	if (st->rhs)
		d->objs[id].tloc = st->rhs->loc;
	prev = part_ns || ki->kind == K_PART ? ir_bind_part(d, full, id)
					     : ir_bind_name(d, full, id);
	if (prev != RK_NONE) {
		elab_error(e, &st->list->loc, "duplicate-name",
			   "'%s' is already defined", str_of(e->a, full));
		elab_note(e, &d->objs[prev].loc, "previous definition here");
	}
	return id;
}

static void exec_body(struct elab *e, uint32_t obj, uint32_t ctx,
		      uint32_t prefix, const struct ast *body,
		      enum elab_mode mode)
{
	uint32_t s_obj = e->obj, s_ctx = e->ctx, s_prefix = e->prefix;
	uint32_t s_vars = e->nvars;
	enum elab_mode s_mode = e->mode;

	e->obj = obj;
	e->ctx = ctx;
	e->prefix = prefix;
	e->mode = mode;
	exec_list(e, body);
	vars_truncate(e, s_vars);
	e->obj = s_obj;
	e->ctx = s_ctx;
	e->prefix = s_prefix;
	e->mode = s_mode;
}

/* Run the instance statements of a part (and its bases) under @inst. */
static void instantiate_template(struct elab *e, uint32_t part, uint32_t inst,
				 uint32_t depth)
{
	const struct rk_design *d = e->d;

	if (part == RK_NONE || depth > 64)
		return;
	instantiate_template(e, d->objs[part].part, inst, depth + 1);
	for (uint32_t i = 0; i < e->nbodies; i++)
		if (e->bodies[i].part == part && e->bodies[i].instances) {
			uint32_t ctx =
			    d->objs[inst].kind == K_RACK ? X_RACK : X_DEVICE;
			uint32_t s_group = e->group, s_nv = e->nvars;
			uint32_t s_frame = e->frame;

			uint32_t first = d->nobjs;

			/* a part body sees only file-level names */
			e->frame = e->nvars;
			exec_body(e, inst, ctx, d->objs[inst].name,
				  e->bodies[i].body, MODE_TEMPLATE);
			for (uint32_t k = first; k < d->nobjs; k++)
				e->d->objs[k].tmpl = 1;
			e->frame = s_frame;
			vars_truncate(e, s_nv);
			e->group = s_group;
		}
}

static bool is_instance_kind(const struct kind_info *ki)
{
	return ki->kind == K_DEVICE;
}

/* Whether the statements @list (and those nested in them) may declare a
 * device: a statement word that names an instance kind anywhere. */
static bool declares_devices(struct elab *e, const struct ast *list)
{
	for (const struct ast *st = list; st; st = st->next) {
		if (st->kind == AST_STMT && st->str <= e->max_word &&
		    e->word_kind[st->str]) {
			const char *w = str_of(e->a, st->str);

			for (uint32_t i = e->word_kind[st->str] - 1;
			     i < kind_table_len; i++)
				if (streq(kind_table[i].word, w) &&
				    is_instance_kind(&kind_table[i]))
					return true;
		}
		if ((st->kind == AST_STMT || st->kind == AST_FOR ||
		     st->kind == AST_IF) &&
		    (declares_devices(e, st->body) ||
		     (st->kind == AST_IF &&
		      declares_devices(e, st->else_body))))
			return true;
	}
	return false;
}

static void decl_part(struct elab *e, const struct kind_info *ki,
		      const struct ast *st)
{
	uint32_t *names, count, base = RK_NONE, tw;
	enum rk_class cls = C_NONE;
	struct val tv;
	uint32_t id, mark;

	if (!decl_names(e, st, &names, &count))
		return;
	if (count != 1 || strchr(str_of(e->a, names[0]), '.') ||
	    strchr(str_of(e->a, names[0]), '[')) {
		elab_error(e, &st->list->loc, "value",
			   "a part name is a single identifier");
		return;
	}
	if (!st->rhs) {
		elab_error(e, &st->loc, "value",
			   "part '%s' needs a class or base part after ':'",
			   str_of(e->a, names[0]));
		return;
	}
	if (!eval(e, st->rhs, &tv))
		return;
	tw = bare_word(&tv);
	if (!tw) {
		elab_error(e, &st->rhs->loc, "type-mismatch",
			   "a part class or base part name is needed after "
			   "':'");
		return;
	}
	cls = schema_class(str_of(e->a, tw));
	if (cls == C_NONE) {
		base = ir_find_part(e->d, tw);
		if (base == RK_NONE || e->d->objs[base].kind != K_PART) {
			struct suggest sg;

			if (elab_repeat(e, &st->rhs->loc))
				return;
			suggest_init(&sg, str_of(e->a, tw));
			for (uint32_t c = 1; c < C__COUNT; c++)
				suggest_offer(&sg, rk_class_name(c));
			for (uint32_t i = 0; i < e->d->nobjs; i++)
				if (e->d->objs[i].kind == K_PART)
					suggest_offer(&sg, ir_name(e->d, i));
			elab_error(e, &st->rhs->loc, "undefined-name",
				   "unknown part class or base part "
				   "'%s'" SUGGEST_FMT,
				   str_of(e->a, tw), SUGGEST_ARGS(&sg));
			return;
		}
		cls = e->d->objs[base].cls;
	}
	id = new_object(e, ki, st, names[0], false);
	if (id == RK_NONE)
		return;
	e->d->objs[id].cls = (uint16_t)cls;
	e->d->objs[id].part = base;
	if (st->body) {
		struct part_body *pb =
		    VEC_PUSH(e->bodies, e->nbodies, e->bodies_cap);

		pb->part = id;
		pb->body = st->body;
		/* only device declarations run again for each instance
		 * (MODE_TEMPLATE): a body without any (a server's ports
		 * and components) need not run per instance at all */
		pb->instances = declares_devices(e, st->body);
	}
	mark = e->nscratch;
	{
		uint32_t s_frame = e->frame;

		e->frame = e->nvars;
		exec_body(e, id, X_PART, 0, st->body, MODE_NORMAL);
		e->frame = s_frame;
	}
	finish_attrs(e, mark, &e->d->objs[id].attr_first,
		     &e->d->objs[id].attr_count);
}

/* ports and components: named in the part's own namespace */
static void decl_part_member(struct elab *e, const struct kind_info *ki,
			     const struct ast *st)
{
	uint32_t *names, count, part = RK_NONE;
	struct val tv;

	if (!decl_names(e, st, &names, &count))
		return;
	if (ki->type == 2 || (ki->type == 1 && st->rhs)) {
		uint32_t tw;

		if (!st->rhs) {
			elab_error(e, &st->loc, "value",
				   "'%s' needs a part after ':'", ki->word);
			return;
		}
		if (!eval(e, st->rhs, &tv))
			return;
		tw = bare_word(&tv);
		if (!tw) {
			elab_error(e, &st->rhs->loc, "type-mismatch",
				   "a part name is needed after ':'");
			return;
		}
		part = find_part(e, tw, &st->rhs->loc);
		if (part == RK_NONE)
			return;
		if (ki->cls && e->d->objs[part].cls != ki->cls) {
			elab_error(
			    e, &st->rhs->loc, "part-class",
			    "'%s' is a %s part, but '%s' needs a %s part",
			    str_of(e->a, tw),
			    rk_class_name(e->d->objs[part].cls), ki->word,
			    rk_class_name(ki->cls));
			return;
		}
	} else if (st->rhs) {
		elab_error(e, &st->rhs->loc, "value", "'%s' takes no ':' type",
			   ki->word);
		return;
	}
	for (uint32_t i = 0; i < count && !e->stopped; i++) {
		uint32_t id = new_object(e, ki, st, names[i], true);
		uint32_t mark = e->nscratch;

		if (id == RK_NONE)
			return;
		e->d->objs[id].cls = (uint16_t)ki->comp;
		e->d->objs[id].part = part;
		exec_body(e, id, ki->ctx, 0, st->body, MODE_NORMAL);
		finish_attrs(e, mark, &e->d->objs[id].attr_first,
			     &e->d->objs[id].attr_count);
	}
}

static const char *const fabric_types[] = { NULL, "fat_tree", "nvlink",
					    "star" };

static void decl_object(struct elab *e, const struct kind_info *ki,
			const struct ast *st)
{
	uint32_t *names, count, part = RK_NONE, cls = ki->cls;
	struct val tv;

	if (!decl_names(e, st, &names, &count))
		return;
	if (ki->type == 0 && st->rhs) {
		elab_error(e, &st->rhs->loc, "value", "'%s' takes no ':' type",
			   ki->word);
		return;
	}
	if (ki->type == 2 && !st->rhs) {
		elab_error(e, &st->loc, "value", "'%s' needs a %s after ':'",
			   ki->word,
			   ki->kind == K_FABRIC ? "fabric type" : "part");
		return;
	}
	if (ki->kind == K_FABRIC) {
		uint32_t w;

		if (!eval(e, st->rhs, &tv) ||
		    !want_word(e, &tv, "fabric type", "fat_tree|nvlink|star",
			       &w))
			return;
		for (cls = 1; cls < ARRAY_SIZE(fabric_types); cls++)
			if (streq(fabric_types[cls], str_of(e->a, w)))
				break;
	} else if (ki->type == 2) {
		uint32_t tw;

		if (!eval(e, st->rhs, &tv))
			return;
		tw = bare_word(&tv);
		if (!tw) {
			elab_error(e, &st->rhs->loc, "type-mismatch",
				   "a part name is needed after ':'");
			return;
		}
		part = find_part(e, tw, &st->rhs->loc);
		if (part == RK_NONE)
			return;
		if (ki->cls && e->d->objs[part].cls != ki->cls) {
			elab_error(e, &st->rhs->loc, "part-class",
				   "'%s' is a %s part, but '%s' needs a %s "
				   "part",
				   str_of(e->a, tw),
				   rk_class_name(e->d->objs[part].cls),
				   ki->word, rk_class_name(ki->cls));
			return;
		}
		cls = e->d->objs[part].cls;
	}
	for (uint32_t i = 0; i < count && !e->stopped; i++) {
		uint32_t id = new_object(e, ki, st, names[i], false);
		uint32_t mark = e->nscratch;

		if (id == RK_NONE)
			return;
		if (!elab_step(e, &st->loc))
			return;
		e->d->objs[id].cls = (uint16_t)cls;
		e->d->objs[id].part = part;
		exec_body(e, id, ki->ctx, e->d->objs[id].name, st->body,
			  MODE_NORMAL);
		finish_attrs(e, mark, &e->d->objs[id].attr_first,
			     &e->d->objs[id].attr_count);
		if (part != RK_NONE)
			instantiate_template(e, part, id, 0);
	}
}

/*
 * Remember where the two ends of link @li were written, so that a bad end
 * is reported at its own text (two entries per link, in link order).
 */
static void record_link_ends(struct elab *e, uint32_t li,
			     const struct srcloc *a, const struct srcloc *b)
{
	uint32_t need = 2 * (li + 1);

	if (need > e->link_ends_cap) {
		uint32_t cap = e->link_ends_cap ? e->link_ends_cap : 64;

		while (cap < need)
			cap *= 2;
		e->link_ends =
		    xrealloc(e->link_ends, (size_t)cap * sizeof(*e->link_ends));
		e->link_ends_cap = cap;
	}
	for (; e->nlink_ends < li; e->nlink_ends++)
		e->link_ends[2 * e->nlink_ends] =
		    e->link_ends[2 * e->nlink_ends + 1] =
			e->d->links[e->nlink_ends].loc;
	e->link_ends[2 * li] = *a;
	e->link_ends[2 * li + 1] = *b;
	e->nlink_ends = li + 1;
}

static void decl_link(struct elab *e, const struct ast *st)
{
	struct val v;
	uint32_t *an, ac, *bn, bc, first, cnt, mark;

	if (!st->list || st->list->next || st->rhs) {
		elab_error(e, &st->loc, "value",
			   "a link is written 'link DEVICE.PORT -- "
			   "DEVICE.PORT'");
		return;
	}
	if (!eval(e, st->list, &v))
		return;
	if (v.kind != V_LINK || v.items[0].kind != V_PATH ||
	    v.items[1].kind != V_PATH) {
		elab_error(e, &st->list->loc, "type-mismatch",
			   "a link is written 'link DEVICE.PORT -- "
			   "DEVICE.PORT'");
		return;
	}
	if (!path_expand(e, &v.items[0], &an, &ac) ||
	    !path_expand(e, &v.items[1], &bn, &bc))
		return;
	if (ac != bc) {
		elab_error(e, &st->list->loc, "value",
			   "the two ends of the link name %u and %u ports", ac,
			   bc);
		return;
	}
	mark = e->nscratch;
	exec_body(e, RK_NONE, X_LINK, e->prefix, st->body, MODE_NORMAL);
	finish_attrs(e, mark, &first, &cnt);
	for (uint32_t i = 0; i < ac && !e->stopped; i++) {
		struct rk_link *l;

		if (!check_table_limit(e, e->d->nlinks, &st->loc, "links") ||
		    !elab_step(e, &st->loc))
			return;
		l = VEC_PUSH(e->d->links, e->d->nlinks, e->d->links_cap);
		/* names until resolve.c binds them to ports */
		l->a_dev = an[i];
		l->b_dev = bn[i];
		l->a_port = l->b_port = RK_NONE;
		l->attr_first = first;
		l->attr_count = cnt;
		l->scope = e->group;
		l->fabric = RK_NONE;
		l->generated = false;
		l->loc = v.items[0].loc;
		l->loc.end = v.items[1].loc.end;
		record_link_ends(e, e->d->nlinks - 1, &v.items[0].loc,
				 &v.items[1].loc);
	}
}

static const struct module_def *find_module(struct elab *e, uint32_t name)
{
	for (uint32_t i = 0; i < e->nmods; i++)
		if (e->mods[i].name == name)
			return &e->mods[i];
	return NULL;
}

static void decl_instance(struct elab *e, const struct kind_info *ki,
			  const struct ast *st)
{
	uint32_t *names, count;
	const struct ast *call = st->rhs;
	const struct module_def *m;

	if (!decl_names(e, st, &names, &count))
		return;
	if (!call || (call->kind != AST_CALL && call->kind != AST_IDENT)) {
		elab_error(e, call ? &call->loc : &st->loc, "value",
			   "instance needs a module call after ':', e.g. "
			   "'instance su[0] : scalable_unit(index = 0)'");
		return;
	}
	m = find_module(e, call->str);
	if (!m) {
		struct suggest sg;

		if (elab_repeat(e, &call->loc))
			return;
		suggest_init(&sg, str_of(e->a, call->str));
		for (uint32_t i = 0; i < e->nmods; i++)
			suggest_offer(&sg, str_of(e->a, e->mods[i].name));
		elab_error(e, &call->loc, "undefined-name",
			   "unknown module '%s'" SUGGEST_FMT,
			   str_of(e->a, call->str), SUGGEST_ARGS(&sg));
		return;
	}
	for (uint32_t k = 0; k < e->mod_depth; k++)
		if (e->mod_stack[k] == m) {
			elab_error(e, &call->loc, "recursion",
				   "module '%s' instantiates itself",
				   str_of(e->a, m->name));
			elab_note(e, &m->def->loc, "module '%s' defined here",
				  str_of(e->a, m->name));
			return;
		}
	if (e->mod_depth >= RK_MAX_MODULE_DEPTH) {
		elab_error(e, &call->loc, "limit",
			   "modules nested deeper than %u levels",
			   RK_MAX_MODULE_DEPTH);
		return;
	}
	for (uint32_t i = 0; i < count && !e->stopped; i++) {
		uint32_t id = new_object(e, ki, st, names[i], false);
		uint32_t nparams = ast_list_len(m->def->list);
		struct val *pv =
		    arena_zalloc(e->a, (nparams + 1) * sizeof(*pv));
		bool *set = arena_zalloc(e->a, nparams + 1);
		uint32_t pos = 0, s_frame = e->frame, s_nv = e->nvars;
		uint32_t s_group = e->group, mark = e->nscratch;
		const struct ast *a, *p;
		uint32_t k;
		bool ok = true;

		if (id == RK_NONE)
			return;
		/* arguments are evaluated in the caller's scope */
		for (a = call->kind == AST_CALL ? call->list : NULL; a && ok;
		     a = a->next) {
			if (a->kind == AST_NAMED) {
				for (p = m->def->list, k = 0; p;
				     p = p->next, k++)
					if (p->str == a->str)
						break;
				if (!p) {
					struct suggest sg;

					suggest_init(&sg, str_of(e->a, a->str));
					for (p = m->def->list; p; p = p->next)
						suggest_offer(
						    &sg, str_of(e->a, p->str));
					elab_error(
					    e, &a->wloc, "undefined-name",
					    "module '%s' has no parameter "
					    "'%s'" SUGGEST_FMT,
					    str_of(e->a, m->name),
					    str_of(e->a, a->str),
					    SUGGEST_ARGS(&sg));
					ok = false;
					break;
				}
				ok = eval(e, a->lhs, &pv[k]);
			} else {
				k = pos++;
				if (k >= nparams) {
					elab_error(e, &a->loc, "value",
						   "too many arguments for "
						   "module '%s'",
						   str_of(e->a, m->name));
					ok = false;
					break;
				}
				ok = eval(e, a, &pv[k]);
			}
			if (ok && set[k]) {
				elab_error(e, &a->loc, "value",
					   "parameter given twice");
				ok = false;
			}
			set[k] = true;
		}
		if (!ok)
			return;
		e->frame = e->nvars;
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
					ok = false;
					break;
				}
				ok = eval(e, p->lhs, &pv[k]);
			}
			if (ok)
				push_var(e, p->str, &pv[k], &p->loc);
		}
		if (ok) {
			e->mod_stack[e->mod_depth++] = m;
			e->group = id;
			exec_body(e, id, X_GROUP, e->d->objs[id].name,
				  m->def->body, MODE_NORMAL);
			e->mod_depth--;
		}
		e->group = s_group;
		e->frame = s_frame;
		vars_truncate(e, s_nv);
		finish_attrs(e, mark, &e->d->objs[id].attr_first,
			     &e->d->objs[id].attr_count);
	}
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
	    is_instance_kind(&kind_table[e->word_kind[w] - 1])) {
		if (e->d->objs[e->obj].cls == C_RACK)
			return; /* run when the rack is instantiated */
	}
	if (e->mode == MODE_TEMPLATE && !(ki && is_instance_kind(ki)))
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
		if (eval_args(e, st->list, &args, &argc))
			set_attr(e, attr, st, args, argc);
		return;
	}
	if (!ki) {
		unknown_word(e, st);
		return;
	}
	if (ki->kind == K_PART)
		decl_part(e, ki, st);
	else if (ki->kind == K_PORT || ki->kind == K_COMP)
		decl_part_member(e, ki, st);
	else if (ki->kind == K_NONE)
		decl_link(e, st);
	else if (ki->kind == K_GROUP && ki->type == 2)
		decl_instance(e, ki, st);
	else if (ki->kind == K_GROUP) {
		uint32_t s_group = e->group;
		uint32_t *names, count;

		if (!decl_names(e, st, &names, &count))
			return;
		for (uint32_t i = 0; i < count && !e->stopped; i++) {
			uint32_t id = new_object(e, ki, st, names[i], false);

			uint32_t mark = e->nscratch;

			if (id == RK_NONE)
				return;
			e->group = id;
			exec_body(e, id, X_GROUP, e->d->objs[id].name, st->body,
				  MODE_NORMAL);
			e->group = s_group;
			finish_attrs(e, mark, &e->d->objs[id].attr_first,
				     &e->d->objs[id].attr_count);
		}
	} else
		decl_object(e, ki, st);
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

static void exec_import(struct elab *e, const struct ast *st);

static void exec_stmt(struct elab *e, const struct ast *st)
{
	if (!elab_step(e, &st->loc))
		return;
	switch (st->kind) {
	case AST_IMPORT:
		exec_import(e, st);
		return;
	case AST_PARAM:
	case AST_LET: {
		struct val v;
		bool global = at_file_top(e);
		const struct var *old;

		if (st->kind == AST_PARAM && !global) {
			elab_error(e, &st->loc, "misplaced",
				   "param is only allowed at the top level "
				   "of a file");
			return;
		}
		old = var_find(e, st->str);
		/*
		 * A name may not be defined twice in one scope; a file-level
		 * name from another file (an import) is shadowed instead.
		 */
		if (old && (global || old >= e->vars + e->frame) &&
		    !(old < e->vars + e->nglobals && !global) &&
		    !(global && old->loc.file != st->wloc.file &&
		      !(old->param && st->kind == AST_PARAM))) {
			elab_error(e, &st->wloc, "duplicate-name",
				   "'%s' is already defined",
				   str_of(e->a, st->str));
			elab_note(e, &old->loc, "previous definition here");
			return;
		}
		if (st->kind == AST_PARAM) {
			const char *name = str_of(e->a, st->str);

			for (uint32_t i = 0; i < e->ndefines; i++)
				if (streq(e->defines[i].name, name)) {
					e->defines[i].used = true;
					/* a param whose default is a string
					 * takes the value as a string */
					if (st->lhs->kind == AST_STR) {
						memset(&v, 0, sizeof(v));
						v.kind = V_STR;
						v.loc = st->lhs->loc;
						v.s = intern_cstr(
						    e->a, e->defines[i].value);
					} else if (!define_value(
						       e, &e->defines[i],
						       &st->lhs->loc, &v)) {
						/* reported; go on with the
						 * default, not a cascade */
						break;
					}
					goto bind;
				}
		}
		if (!eval(e, st->lhs, &v))
			return;
	bind:
		push_var(e, st->str, &v, &st->wloc);
		e->vars[e->nvars - 1].param = st->kind == AST_PARAM;
		if (global)
			e->nglobals = e->nvars;
		return;
	}
	case AST_FOR: {
		struct val it;
		uint32_t base = e->nvars;

		if (!eval(e, st->lhs, &it))
			return;
		e->blocks++;
		if (it.kind == V_RANGE) {
			/* the count in unsigned arithmetic: no overflow at the
			 * ends of the int64 range */
			uint64_t span = it.n2 >= it.n
					    ? (uint64_t)it.n2 - (uint64_t)it.n
					    : 0;

			if (it.n2 >= it.n && span >= RK_MAX_LOOP) {
				elab_error(e, &st->lhs->loc, "limit",
					   "loop of %llu iterations exceeds "
					   "the limit of %u",
					   (unsigned long long)span +
					       (span < UINT64_MAX),
					   RK_MAX_LOOP);
				e->blocks--;
				return;
			}
			for (uint64_t k = 0;
			     it.n2 >= it.n && k <= span && !e->stopped; k++) {
				struct val iv;

				memset(&iv, 0, sizeof(iv));
				iv.kind = V_NUM;
				iv.n = (int64_t)((uint64_t)it.n + k);
				iv.loc = st->wloc;
				vars_truncate(e, base);
				push_var(e, st->str, &iv, &st->wloc);
				if (!elab_step(e, &st->loc))
					break;
				exec_list(e, st->body);
			}
		} else if (it.kind == V_LIST) {
			for (uint32_t i = 0; i < it.count && !e->stopped; i++) {
				vars_truncate(e, base);
				push_var(e, st->str, &it.items[i], &st->wloc);
				if (!elab_step(e, &st->loc))
					break;
				exec_list(e, st->body);
			}
		} else {
			elab_error(e, &st->lhs->loc, "type-mismatch",
				   "for needs a range (a..b) or a list, not "
				   "%s",
				   val_kind_name(&it));
		}
		e->blocks--;
		vars_truncate(e, base);
		return;
	}
	case AST_IF: {
		bool c;
		uint32_t base = e->nvars;

		if (!eval_bool(e, st->lhs, &c))
			return;
		e->blocks++;
		if (c)
			exec_list(e, st->body);
		else if (st->else_body && st->else_body->kind == AST_IF &&
			 !st->else_body->next)
			exec_stmt(e, st->else_body);
		else
			exec_list(e, st->else_body);
		e->blocks--;
		vars_truncate(e, base);
		return;
	}
	case AST_MODULE:
		if (!at_file_top(e))
			elab_error(e, &st->loc, "misplaced",
				   "module definitions are only allowed at "
				   "the top level of a file");
		return; /* registered before the file runs */
	case AST_REQUIRE: {
		struct rk_req *r;

		if (e->mode == MODE_TEMPLATE)
			return;
		if (e->ctx != X_TOP && e->ctx != X_GROUP) {
			elab_error(e, &st->loc, "misplaced",
				   "require is only allowed at the top level, "
				   "in groups and in modules");
			return;
		}
		r = VEC_PUSH(e->d->reqs, e->d->nreqs, e->d->reqs_cap);
		r->expr = ast_subst(e, st->lhs);
		r->msg = ast_subst(e, st->rhs);
		r->scope = e->group;
		r->loc = st->loc;
		return;
	}
	case AST_STMT:
		exec_generic(e, st);
		return;
	default:
		elab_error(e, &st->loc, "value", "not a statement");
	}
}

static void exec_list(struct elab *e, const struct ast *list)
{
	uint32_t base = e->nvars;

	for (const struct ast *st = list; st && !e->stopped; st = st->next)
		exec_stmt(e, st);
	if (!at_file_top(e) || e->nvars > e->nglobals)
		vars_truncate(e, base > e->nglobals ? base : e->nvars);
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

static int run_file(struct elab *e, uint32_t file)
{
	struct ast *list = NULL;
	uint64_t t0 = rk_now_ns();
	uint32_t nerr = parse_file(e->a, e->diag, e->sm, file, &list);

	e->parse_ns += rk_now_ns() - t0;
	if (nerr) {
		e->syntax = true;
		e->stopped = true;
		return RK_EXIT_ERRORS;
	}
	register_modules(e, list);
	exec_list(e, list);
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
			 e->opts->stddir ? e->opts->stddir
					 : rackc_default_stddir(),
			 name, ext);
	return is_file(p) ? p : NULL;
}

static void exec_import(struct elab *e, const struct ast *st)
{
	const struct srcfile *from = srcmgr_file(e->sm, st->loc.file);
	const char *name = str_of(e->a, st->str);
	char *path, *real;
	uint32_t key, file;
	struct import_rec *rec;

	if (!at_file_top(e)) {
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

void elab_init(struct elab *e, struct compilation *c)
{
	memset(e, 0, sizeof(*e));
	e->a = &c->arena;
	e->diag = &c->diag;
	e->sm = &c->sm;
	e->d = &c->design;
	e->opts = c->opts;
	e->obj = RK_NONE;
	e->group = RK_NONE;
	e->ctx = X_TOP;
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
	free(e->mods);
	free(e->bodies);
	free(e->imports);
	free(e->defines);
	free(e->word_kind);
	free(e->word_attr);
	free(e->seen);
	free(e->vmap);
	free(e->link_ends);
	free(e->ix_link_head);
	free(e->ix_link_next);
	free(e->ix_dev_head);
	free(e->ix_dev_next);
	free(e->ix_seen);
}

/*
 * Give every rack without a `slot` its position in its row (1-based,
 * declaration order), so that the elaborated design says where each rack
 * stands and layout queries are O(1).  The rack's attributes move to the
 * end of the table with the slot inserted in key order.
 */
void elab_assign_slots(struct elab *e)
{
	struct rk_design *d = e->d;

	for (uint32_t row = 0; row < d->nobjs; row++) {
		int64_t n = 0;

		if (d->objs[row].kind != K_ROW)
			continue;
		for_each_child(d, row, r) {
			struct rk_obj *o;
			uint32_t first, count, k;
			struct rk_attr slot;

			if (d->objs[r].kind != K_RACK)
				continue;
			n++;
			if (ir_attr(d, r, A_SLOT))
				continue;
			memset(&slot, 0, sizeof(slot));
			slot.key = A_SLOT;
			slot.val.type = VT_NUM;
			slot.val.n = n;
			slot.val.loc = d->objs[r].loc;
			o = &d->objs[r];
			first = o->attr_first;
			count = o->attr_count;
			o->attr_first = d->nattrs;
			for (k = 0;
			     k < count && d->attrs[first + k].key < A_SLOT;
			     k++) {
				struct rk_attr at = d->attrs[first + k];

				*VEC_PUSH(d->attrs, d->nattrs, d->attrs_cap) =
				    at;
			}
			*VEC_PUSH(d->attrs, d->nattrs, d->attrs_cap) = slot;
			for (; k < count; k++) {
				struct rk_attr at = d->attrs[first + k];

				*VEC_PUSH(d->attrs, d->nattrs, d->attrs_cap) =
				    at;
			}
			d->objs[r].attr_count = count + 1;
		}
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
