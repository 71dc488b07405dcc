/* SPDX-License-Identifier: MIT */
/*
 * Elaboration, attributes: an attribute statement's evaluated arguments
 * become the typed IR value its schema row asks for (a quantity of the
 * right dimension, a word from a fixed set, references, lists, PSU maps),
 * and each object's attributes are kept in key order.
 */
#include "rackc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "elab.h"
#include "elab_int.h"
#include "suggest.h"

/* ---- attributes ---- */

static struct rk_value *push_val(struct elab *e)
{
	static const struct srcloc nowhere;
	struct rk_value *v;

	/* at the limit elaboration stops (the caller fills this one in) */
	if (e->d->nvals >= RK_MAX_VALUES && !e->stopped)
		elab_check_table_limit(e, e->d->nvals, RK_MAX_VALUES, &nowhere,
				       "list elements");
	v = VEC_PUSH(e->d->vals, e->d->nvals, e->d->vals_cap);

	memset(v, 0, sizeof(*v));
	return v;
}

static void push_attr(struct elab *e, uint32_t key, const struct rk_value *val)
{
	struct rk_attr *a;

	/* attributes not yet moved into the design count too: a loop in one
	 * body could give millions (stops elaboration at the limit) */
	if (e->nscratch + e->d->nattrs >= RK_MAX_ATTRS && !e->stopped)
		elab_check_table_limit(e, e->nscratch + e->d->nattrs,
				       RK_MAX_ATTRS, &val->loc, "attributes");
	a = VEC_PUSH(e->scratch, e->nscratch, e->scratch_cap);
	a->key = key;
	a->val = *val;
}

/*
 * Move the attributes pushed since @mark into the design, sorted by key,
 * and report duplicates of single-valued attributes.
 */
void elab_finish_attrs(struct elab *e, uint32_t mark, uint32_t *first,
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
	if (n && elab_check_table_limit(e, e->d->nattrs + n, RK_MAX_ATTRS,
					&s[0].val.loc, "attributes")) {
		for (uint32_t i = 0; i < n; i++)
			*VEC_PUSH(e->d->attrs, e->d->nattrs, e->d->attrs_cap) =
			    s[i];
	} else {
		*count = 0;
	}
	e->nscratch = mark;
}

/* The bare word of a one-segment path without index, or 0. */
uint32_t elab_bare_word(const struct val *v)
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

bool elab_want_word(struct elab *e, const struct val *v, const char *what,
		    const char *words, uint32_t *out)
{
	uint32_t w = elab_bare_word(v);
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
uint32_t elab_find_part(struct elab *e, uint32_t name, const struct srcloc *loc)
{
	uint32_t p = ir_find_part(e->d, name);
	struct suggest sg;

	if (p != RK_NONE && e->d->objs[p].kind == K_PART)
		return p;
	if (elab_repeat(e, loc))
		return RK_NONE;
	suggest_init(&sg, str_of(e->a, name));
	for (uint32_t i = 0; i < e->d->nobjs; i++) {
		if (!elab_suggest_step(e)) { /* spent: no suggestion */
			suggest_init(&sg, str_of(e->a, name));
			break;
		}
		if (e->d->objs[i].kind == K_PART)
			suggest_offer(&sg, str_of(e->a, e->d->objs[i].name));
	}
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
			   eval_val_kind_name(v));
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
			   eval_val_kind_name(v));
		return false;
	}
	if (eval_path_has_wild(v)) {
		/* patterns are matched against the names in resolve.c */
		struct val copy = *v;
		uint32_t k, nsegs = v->count;

		/* expand ranges but keep the wildcards */
		copy.segs = arena_alloc(e->va, nsegs * sizeof(struct seg));
		memcpy(copy.segs, v->segs, nsegs * sizeof(struct seg));
		for (k = 0; k < nsegs && copy.segs[k].ix != SEG_RANGE; k++)
			;
		if (k < nsegs) {
			int64_t lo = copy.segs[k].lo, hi = copy.segs[k].hi;

			if (hi - lo >= RK_MAX_EXPAND) {
				elab_error(e, &v->loc, "limit",
					   "range too large in '%s'",
					   eval_path_text(e, v));
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
			r->a = intern_cstr(e->a, eval_path_text(e, v));
			r->n = 1; /* pattern */
			r->loc = v->loc;
		}
		return true;
	}
	if (!eval_path_expand(e, v, &names, &count))
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
			   ai->name, eval_val_kind_name(v));
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
	if (r->kind != V_PATH || eval_path_has_wild(r) ||
	    !eval_path_expand(e, r, &names, &count))
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
			   eval_path_text(e, l));
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

/* A ratio attribute (1:1, 3:1, or a plain positive count) into @out. */
static bool conv_ratio(struct elab *e, const struct attr_info *ai,
		       const struct val *v, struct rk_value *out)
{
	if (v->kind == V_NUM && v->dim == DIM_NONE && v->n > 0) {
		out->n = v->n;
		out->a = 1;
	} else if (v->kind == V_RATIO && v->n2 <= UINT32_MAX) {
		out->n = v->n;
		out->a = (uint32_t)v->n2;
	} else {
		elab_error(e, &v->loc, "type-mismatch",
			   "'%s' expects a ratio such as 1:1 or 3:1", ai->name);
		return false;
	}
	out->type = VT_RATIO;
	out->loc = v->loc;
	return true;
}

/* A part reference of attribute @key into @out: a part of the class
 * the attribute needs (a switch for `switch`, ...). */
static bool conv_partref(struct elab *e, uint32_t key,
			 const struct attr_info *ai, const struct val *v,
			 struct rk_value *out)
{
	uint32_t w = elab_bare_word(v);
	enum rk_class want = key == A_SWITCH || key == A_SPINE_SWITCH ? C_SWITCH
			     : key == A_CABLE			      ? C_CABLE
			     : key == A_RDHX			      ? C_RDHX
								      : C_NONE;

	if (!w) {
		elab_error(e, &v->loc, "type-mismatch",
			   "'%s' expects a part name", ai->name);
		return false;
	}
	out->a = elab_find_part(e, w, &v->loc);
	if (out->a == RK_NONE)
		return false;
	if (want && e->d->objs[out->a].cls != want) {
		elab_error(e, &v->loc, "part-class",
			   "'%s' is a %s part, but '%s' needs a %s part",
			   str_of(e->a, w),
			   rk_class_name(e->d->objs[out->a].cls), ai->name,
			   rk_class_name(want));
		return false;
	}
	out->type = VT_OBJ;
	out->loc = v->loc;
	return true;
}

/* Object references (one for T_REF, a list for T_REFS and T_PORTS) of the
 * @n flattened @items into @out. */
static bool conv_refs(struct elab *e, const struct attr_info *ai,
		      const struct ast *st, const struct val *args,
		      const struct val *items, uint32_t n, struct rk_value *out)
{
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
		*out = tmp[0];
	else if (ok)
		store_list(e, tmp, ntmp, &st->loc, out);
	free(tmp);
	return ok;
}

/* A list of numbers (T_NUMS) or of strings (T_STRS) of the @n flattened
 * @items into @out. */
static bool conv_list(struct elab *e, const struct attr_info *ai,
		      const struct ast *st, const struct val *items, uint32_t n,
		      struct rk_value *out)
{
	struct rk_value *tmp = xcalloc(n, sizeof(*tmp));
	bool ok = true;

	for (uint32_t i = 0; i < n && ok; i++) {
		if (ai->type == T_NUMS) {
			ok = conv_num(e, ai, &items[i], &tmp[i]);
			continue;
		}
		if (items[i].kind != V_STR) {
			elab_error(e, &items[i].loc, "type-mismatch",
				   "'%s' expects strings, not %s", ai->name,
				   eval_val_kind_name(&items[i]));
			ok = false;
			break;
		}
		tmp[i].type = VT_STR;
		tmp[i].a = items[i].s;
		tmp[i].loc = items[i].loc;
	}
	if (ok)
		store_list(e, tmp, n, &st->loc, out);
	free(tmp);
	return ok;
}

/* `spares CATEGORY, PERCENT, MINIMUM` into a list of three in @out. */
static bool conv_spares(struct elab *e, const struct ast *st,
			const struct val *args, uint32_t argc,
			struct rk_value *out)
{
	struct rk_value three[3];
	uint32_t w = argc == 3 ? elab_bare_word(&args[0]) : 0;
	bool known = false;

	if (argc != 3 || !w || args[1].kind != V_NUM ||
	    (args[1].dim != DIM_RATIO && args[1].n) || args[2].kind != V_NUM ||
	    args[2].dim != DIM_NONE) {
		elab_error(e, &st->loc, "value",
			   "spares takes a part category, a percent "
			   "and a minimum: spares cable, 2%%, 4");
		return false;
	}
	for (unsigned c = C_NONE + 1; c < C__COUNT; c++)
		known |=
		    streq(str_of(e->a, w), rk_class_name((enum rk_class)c));
	if (!known) {
		elab_error(e, &args[0].loc, "value",
			   "'%s' is not a part category (server, "
			   "switch, cable, transceiver, ...)",
			   str_of(e->a, w));
		return false;
	}
	if (args[1].n < 0 || args[2].n < 0) {
		elab_error(e, &st->loc, "value",
			   "spares: the percent and the minimum cannot "
			   "be negative");
		return false;
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
	store_list(e, three, 3, &st->loc, out);
	return true;
}

/* `waive "CHECK", "REASON"` into a list of two strings in @out. */
static bool conv_waiver(struct elab *e, const struct ast *st,
			const struct val *args, uint32_t argc,
			struct rk_value *out)
{
	struct rk_value two[2];

	if (argc != 2 || args[0].kind != V_STR || args[1].kind != V_STR) {
		elab_error(e, &st->loc, "value",
			   "waive takes a check name and a reason: "
			   "waive \"check-name\", \"why it is safe\"");
		return false;
	}
	if (strlen_of(e->a, args[1].s) == 0) {
		elab_error(e, &args[1].loc, "value",
			   "a waiver must give a reason");
		return false;
	}
	memset(two, 0, sizeof(two));
	for (int i = 0; i < 2; i++) {
		two[i].type = VT_STR;
		two[i].a = args[i].s;
		two[i].loc = args[i].loc;
	}
	store_list(e, two, 2, &st->loc, out);
	return true;
}

/* A scalar attribute (number, string, word or boolean) of the one value
 * @v into @out. */
static bool conv_scalar(struct elab *e, const struct attr_info *ai,
			const struct val *v, struct rk_value *out)
{
	switch (ai->type) {
	case T_NUM:
		return conv_num(e, ai, v, out);
	case T_STR:
		if (v->kind != V_STR) {
			elab_error(e, &v->loc, "type-mismatch",
				   "'%s' expects a string, not %s", ai->name,
				   eval_val_kind_name(v));
			return false;
		}
		out->type = VT_STR;
		out->a = v->s;
		break;
	case T_WORD:
		if (!elab_want_word(e, v, ai->name, ai->words, &out->a))
			return false;
		out->type = VT_WORD;
		break;
	default: /* T_BOOL */
		if (v->kind != V_BOOL) {
			elab_error(e, &v->loc, "type-mismatch",
				   "'%s' expects true or false, not %s",
				   ai->name, eval_val_kind_name(v));
			return false;
		}
		out->type = VT_BOOL;
		out->n = v->n;
		break;
	}
	out->loc = v->loc;
	return true;
}

/* Convert the evaluated arguments of attribute @key and push it. */
void elab_set_attr(struct elab *e, uint32_t key, const struct ast *st,
		   const struct val *args, uint32_t argc)
{
	const struct attr_info *ai = &attr_table[key];
	struct rk_value out;
	const struct val *items;
	uint32_t n;
	bool ok = false;

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
	case T_STR:
	case T_WORD:
	case T_BOOL:
		ok = conv_scalar(e, ai, &args[0], &out);
		break;
	case T_RATIO:
		ok = conv_ratio(e, ai, &args[0], &out);
		break;
	case T_PARTREF:
		ok = conv_partref(e, key, ai, &args[0], &out);
		break;
	case T_REF:
	case T_REFS:
	case T_PORTS:
		ok = conv_refs(e, ai, st, args, items, n, &out);
		break;
	case T_NUMS:
	case T_STRS:
		ok = conv_list(e, ai, st, items, n, &out);
		break;
	case T_PSUMAP:
		for (uint32_t i = 0; i < argc; i++) {
			struct rk_value one;

			memset(&one, 0, sizeof(one));
			if (conv_psumap(e, ai, &args[i], &one))
				push_attr(e, key, &one);
		}
		return;
	case T_SPARES:
		ok = conv_spares(e, st, args, argc, &out);
		break;
	case T_WAIVER:
		ok = conv_waiver(e, st, args, argc, &out);
		break;
	case T_ANY:
		elab_error(e, &st->loc, "value", "'%s' cannot be set",
			   ai->name);
		return;
	}
	if (ok)
		push_attr(e, key, &out);
}
