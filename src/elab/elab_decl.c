/* SPDX-License-Identifier: MIT */
/*
 * Elaboration, declarations: objects (parts and their members, and the
 * objects of the design), explicit links, and the devices a rack part
 * declares, instantiated for each rack of that part; the rack slots.
 * And the bodies they run (elab_import.c's module instances too): a
 * body's statements run one at a time through elab.c's dispatcher, by
 * the hook e->run_stmt (elab_exec_one), not by name: elab.c calls this
 * file, and this file calls nothing of elab.c or elab_import.c.
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>

#include "elab.h"
#include "elab_int.h"
#include "suggest.h"

/* Declared names of a statement: the first argument, ranges expanded. */
bool elab_decl_names(struct elab *e, const struct ast *st, uint32_t **names,
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
	if (v.count > 1) {
		/* a.b would be one object named "a.b", not b inside a */
		const char *w = str_of(e->a, v.segs[v.count - 1].name);

		elab_error(e, &st->list->loc, "value",
			   "a declared name has no '.': to declare '%s' "
			   "inside '%s', write it in that object's body "
			   "(or in a group of that name)",
			   w, str_of(e->a, v.segs[v.count - 2].name));
		return false;
	}
	return eval_path_expand(e, &v, names, count);
}

/* The full name of @local declared in the naming scope @prefix (0: none). */
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

uint32_t elab_new_object(struct elab *e, const struct kind_info *ki,
			 const struct ast *st, uint32_t local, bool part_ns)
{
	struct rk_design *d = e->d;
	/* parts are global; their members are named inside the part */
	uint32_t prefix = ki->kind == K_PART		 ? 0
			  : part_ns && e->obj != RK_NONE ? d->objs[e->obj].name
							 : e->prefix;
	uint32_t full = join_name(e, prefix, local, &st->loc);
	uint32_t id, prev;

	if (!full || !elab_check_table_limit(e, d->nobjs, RK_MAX_OBJECTS,
					     &st->loc, "objects"))
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

/* ---- bodies ---- */

void elab_exec_list_end(struct elab *e, uint32_t base)
{
	if (!elab_at_file_top(e) || e->nvars > e->nglobals)
		eval_vars_truncate(e, base > e->nglobals ? base : e->nvars);
}

void elab_exec_list(struct elab *e, const struct ast *list)
{
	uint32_t base = e->nvars;

	for (const struct ast *st = list; st && !e->stopped; st = st->next)
		elab_exec_one(e, st);
	elab_exec_list_end(e, base);
}

void elab_exec_body(struct elab *e, uint32_t obj, uint32_t ctx, uint32_t prefix,
		    const struct ast *body, enum elab_mode mode)
{
	uint32_t s_obj = e->obj, s_ctx = e->ctx, s_prefix = e->prefix;
	uint32_t s_vars = e->nvars;
	enum elab_mode s_mode = e->mode;
	/* the body's values and variables go when it ends: an object
	 * declared a million times costs the memory of one body */
	struct val_mark m = eval_val_mark(e);

	e->obj = obj;
	e->ctx = ctx;
	e->prefix = prefix;
	e->mode = mode;
	elab_exec_list(e, body);
	eval_vars_truncate(e, s_vars);
	eval_val_release(e, &m);
	e->obj = s_obj;
	e->ctx = s_ctx;
	e->prefix = s_prefix;
	e->mode = s_mode;
}

/* Run the instance statements of @part's own body under @inst. */
static void instantiate_body(struct elab *e, uint32_t part, uint32_t inst)
{
	const struct rk_design *d = e->d;

	for (uint32_t i = 0; i < e->nbodies; i++)
		if (e->bodies[i].part == part && e->bodies[i].instances) {
			uint32_t ctx =
			    d->objs[inst].kind == K_RACK ? X_RACK : X_DEVICE;
			uint32_t s_group = e->group, s_nv = e->nvars;
			uint32_t s_frame = e->frame;

			uint32_t first = d->nobjs;

			/* a part body sees only file-level names */
			e->frame = e->nvars;
			elab_exec_body(e, inst, ctx, d->objs[inst].name,
				       e->bodies[i].body, MODE_TEMPLATE);
			for (uint32_t k = first; k < d->nobjs; k++)
				e->d->objs[k].tmpl = 1;
			e->frame = s_frame;
			eval_vars_truncate(e, s_nv);
			e->group = s_group;
		}
}

/* Run the instance statements of a part (and its bases) under @inst. */
static void instantiate_template(struct elab *e, uint32_t part, uint32_t inst)
{
	uint32_t chain[RK_MAX_PART_DEPTH + 1];
	uint32_t n = ir_part_chain(e->d, part, chain);

	/* the bases' bodies first, as a derived part extends its base */
	while (n--)
		instantiate_body(e, chain[n], inst);
}

bool elab_is_instance_kind(const struct kind_info *ki)
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
				    elab_is_instance_kind(&kind_table[i]))
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

void elab_decl_part(struct elab *e, const struct kind_info *ki,
		    const struct ast *st)
{
	uint32_t *names, count, base = RK_NONE, tw;
	enum rk_class cls = C_NONE;
	struct val tv;
	uint32_t id, mark;

	if (!elab_decl_names(e, st, &names, &count))
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
	if (!eval_expr(e, st->rhs, &tv))
		return;
	tw = elab_bare_word(&tv);
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
			for (uint32_t i = 0; i < e->d->nobjs; i++) {
				if (!elab_suggest_step(e)) { /* spent */
					suggest_init(&sg, str_of(e->a, tw));
					for (uint32_t c = 1; c < C__COUNT; c++)
						suggest_offer(&sg,
							      rk_class_name(c));
					break;
				}
				if (e->d->objs[i].kind == K_PART)
					suggest_offer(&sg, ir_name(e->d, i));
			}
			elab_error(e, &st->rhs->loc, "undefined-name",
				   "unknown part class or base part "
				   "'%s'" SUGGEST_FMT,
				   str_of(e->a, tw), SUGGEST_ARGS(&sg));
			return;
		}
		cls = e->d->objs[base].cls;
	}
	if (base != RK_NONE) {
		uint32_t chain[RK_MAX_PART_DEPTH + 1];

		if (ir_part_chain(e->d, base, chain) >= RK_MAX_PART_DEPTH) {
			elab_error(e, &st->loc, "limit",
				   "part '%s' has more than %u levels, itself "
				   "and its bases (the part depth limit)",
				   str_of(e->a, names[0]), RK_MAX_PART_DEPTH);
			e->stopped = true;
			return;
		}
	}
	id = elab_new_object(e, ki, st, names[0], false);
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
		elab_exec_body(e, id, X_PART, 0, st->body, MODE_NORMAL);
		e->frame = s_frame;
	}
	elab_finish_attrs(e, mark, &e->d->objs[id].attr_first,
			  &e->d->objs[id].attr_count);
}

/* the part after ':' in a declaration (`node n : dgx_h100 {}`), of the
 * class the kind needs; RK_NONE after an error */
static uint32_t decl_type_part(struct elab *e, const struct kind_info *ki,
			       const struct ast *rhs)
{
	struct val tv;
	uint32_t tw, part;

	if (!eval_expr(e, rhs, &tv))
		return RK_NONE;
	tw = elab_bare_word(&tv);
	if (!tw) {
		elab_error(e, &rhs->loc, "type-mismatch",
			   "a part name is needed after ':'");
		return RK_NONE;
	}
	part = elab_find_part(e, tw, &rhs->loc);
	if (part == RK_NONE)
		return RK_NONE;
	if (ki->cls && e->d->objs[part].cls != ki->cls) {
		elab_error(e, &rhs->loc, "part-class",
			   "'%s' is a %s part, but '%s' needs a %s part",
			   str_of(e->a, tw),
			   rk_class_name(e->d->objs[part].cls), ki->word,
			   rk_class_name(ki->cls));
		return RK_NONE;
	}
	return part;
}

/* ports and components: named in the part's own namespace */
void elab_decl_part_member(struct elab *e, const struct kind_info *ki,
			   const struct ast *st)
{
	uint32_t *names, count, part = RK_NONE;

	if (!elab_decl_names(e, st, &names, &count))
		return;
	if (ki->type == 2 || (ki->type == 1 && st->rhs)) {
		if (!st->rhs) {
			elab_error(e, &st->loc, "value",
				   "'%s' needs a part after ':'", ki->word);
			return;
		}
		part = decl_type_part(e, ki, st->rhs);
		if (part == RK_NONE)
			return;
	} else if (st->rhs) {
		elab_error(e, &st->rhs->loc, "value", "'%s' takes no ':' type",
			   ki->word);
		return;
	}
	for (uint32_t i = 0; i < count && !e->stopped; i++) {
		uint32_t id = elab_new_object(e, ki, st, names[i], true);
		uint32_t mark = e->nscratch;

		if (id == RK_NONE)
			return;
		e->d->objs[id].cls = (uint16_t)ki->comp;
		e->d->objs[id].part = part;
		elab_exec_body(e, id, ki->ctx, 0, st->body, MODE_NORMAL);
		elab_finish_attrs(e, mark, &e->d->objs[id].attr_first,
				  &e->d->objs[id].attr_count);
	}
}

static const char *const fabric_types[] = { NULL, "fat_tree", "nvlink",
					    "star" };

void elab_decl_object(struct elab *e, const struct kind_info *ki,
		      const struct ast *st)
{
	uint32_t *names, count, part = RK_NONE, cls = ki->cls;
	struct val tv;

	if (!elab_decl_names(e, st, &names, &count))
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

		if (!eval_expr(e, st->rhs, &tv) ||
		    !elab_want_word(e, &tv, "fabric type",
				    "fat_tree|nvlink|star", &w))
			return;
		for (cls = 1; cls < ARRAY_SIZE(fabric_types); cls++)
			if (streq(fabric_types[cls], str_of(e->a, w)))
				break;
	} else if (ki->type == 2) {
		part = decl_type_part(e, ki, st->rhs);
		if (part == RK_NONE)
			return;
		cls = e->d->objs[part].cls;
	}
	for (uint32_t i = 0; i < count && !e->stopped; i++) {
		uint32_t id = elab_new_object(e, ki, st, names[i], false);
		uint32_t mark = e->nscratch;

		if (id == RK_NONE)
			return;
		if (!elab_step(e, &st->loc))
			return;
		e->d->objs[id].cls = (uint16_t)cls;
		e->d->objs[id].part = part;
		elab_exec_body(e, id, ki->ctx, e->d->objs[id].name, st->body,
			       MODE_NORMAL);
		elab_finish_attrs(e, mark, &e->d->objs[id].attr_first,
				  &e->d->objs[id].attr_count);
		if (part != RK_NONE)
			instantiate_template(e, part, id);
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
	for (; e->nlink_ends < li; e->nlink_ends++) {
		e->link_ends[2 * e->nlink_ends] =
		    e->d->links[e->nlink_ends].loc.end;
		e->link_ends[2 * e->nlink_ends + 1] =
		    e->d->links[e->nlink_ends].loc.begin;
	}
	e->link_ends[2 * li] = a->end;
	e->link_ends[2 * li + 1] = b->begin;
	e->nlink_ends = li + 1;
}

static void decl_link_in(struct elab *e, const struct ast *st)
{
	struct val v;
	uint32_t *an, ac, *bn, bc, first, cnt, mark;
	bool ok;

	if (!st->list || st->list->next || st->rhs) {
		elab_error(e, &st->loc, "value",
			   "a link is written 'link DEVICE.PORT -- "
			   "DEVICE.PORT'");
		return;
	}
	/* the ends' segments and expanded names are temporaries of the
	 * statement (only the interned names outlive it) */
	ok = eval_expr(e, st->list, &v);
	if (ok && (v.kind != V_LINK || v.items[0].kind != V_PATH ||
		   v.items[1].kind != V_PATH)) {
		elab_error(e, &st->list->loc, "type-mismatch",
			   "a link is written 'link DEVICE.PORT -- "
			   "DEVICE.PORT'");
		ok = false;
	}
	ok = ok && eval_path_expand(e, &v.items[0], &an, &ac) &&
	     eval_path_expand(e, &v.items[1], &bn, &bc);
	if (!ok)
		return;
	if (ac != bc) {
		elab_error(e, &st->list->loc, "value",
			   "the two ends of the link name %u and %u ports", ac,
			   bc);
		return;
	}
	mark = e->nscratch;
	elab_exec_body(e, RK_NONE, X_LINK, e->prefix, st->body, MODE_NORMAL);
	elab_finish_attrs(e, mark, &first, &cnt);
	for (uint32_t i = 0; i < ac && !e->stopped; i++) {
		struct rk_link *l;

		if (!elab_check_table_limit(e, e->d->nlinks, e->max_links,
					    &st->loc, "links") ||
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

/* A link statement; the value "a -- b" it evaluates is a temporary. */
void elab_decl_link(struct elab *e, const struct ast *st)
{
	struct val_mark m = eval_val_mark(e);

	decl_link_in(e, st);
	eval_val_release(e, &m);
}

/* A row member without a `slot`: its name, for the natural order. */
struct slot_member {
	const char *name;
	uint32_t len;
	uint32_t obj;
};

static int slot_member_cmp(const void *pa, const void *pb)
{
	const struct slot_member *a = pa, *b = pb;
	int c = name_natcmp(a->name, a->len, b->name, b->len);

	if (c)
		return c;
	return a->obj < b->obj ? -1 : a->obj > b->obj;
}

static int i64_cmp(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;

	return a < b ? -1 : a > b;
}

/* Insert `slot @n` into @r's attributes (moved to the end of the table,
 * in key order). */
static void set_slot(struct rk_design *d, uint32_t r, int64_t n)
{
	struct rk_obj *o = &d->objs[r];
	uint32_t first = o->attr_first, count = o->attr_count, k;
	struct rk_attr slot;

	memset(&slot, 0, sizeof(slot));
	slot.key = A_SLOT;
	slot.val.type = VT_NUM;
	slot.val.n = n;
	slot.val.loc = o->loc;
	VEC_RESERVE(d->attrs, d->nattrs, d->attrs_cap, (uint64_t)count + 1);
	o->attr_first = d->nattrs;
	for (k = 0; k < count && d->attrs[first + k].key < A_SLOT; k++)
		d->attrs[d->nattrs++] = d->attrs[first + k];
	d->attrs[d->nattrs++] = slot;
	for (; k < count; k++)
		d->attrs[d->nattrs++] = d->attrs[first + k];
	o->attr_count = count + 1;
}

/*
 * Give every rack without a `slot` its place in its row, so that the
 * elaborated design says where each rack stands and layout queries are
 * O(1).  A unit standing in the row (a `cdu` or `device` declared in the
 * row's body) takes a place like a rack.  The members without a `slot`
 * fill the slots the explicit ones leave free, 1 up, in the natural order
 * of their names (name_natcmp): never in declaration order, so that
 * declaring the same racks in another order, or a list in two, moves
 * nothing.  O(n log n) in a row's members.
 */
void elab_assign_slots(struct elab *e)
{
	struct rk_design *d = e->d;
	struct slot_member *m = NULL;
	int64_t *taken = NULL;
	uint32_t m_cap = 0, t_cap = 0;

	for (uint32_t row = 0; row < d->nobjs; row++) {
		uint32_t nm = 0, nt = 0, t = 0;
		int64_t next = 1;

		if (d->objs[row].kind != K_ROW)
			continue;
		for_each_child(d, row, r) {
			const struct rk_value *v;

			if (d->objs[r].kind != K_RACK &&
			    d->objs[r].kind != K_DEVICE)
				continue;
			v = ir_attr(d, r, A_SLOT);
			if (v) {
				*VEC_PUSH(taken, nt, t_cap) = v->n;
				continue;
			}
			*VEC_PUSH(m, nm, m_cap) = (struct slot_member){
				str_of(e->a, d->objs[r].local),
				strlen_of(e->a, d->objs[r].local), r
			};
		}
		if (!nm)
			continue;
		qsort(m, nm, sizeof(*m), slot_member_cmp);
		if (nt) /* NULL until some row gives a slot */
			qsort(taken, nt, sizeof(*taken), i64_cmp);
		for (uint32_t i = 0; i < nm; i++) {
			/* taken is sorted: pass the slots up to next, and
			 * next past each one that is taken */
			for (; t < nt && taken[t] <= next; t++)
				if (taken[t] == next)
					next++;
			set_slot(d, m[i].obj, next++);
		}
	}
	free(m);
	free(taken);
}
