/* SPDX-License-Identifier: MIT */
/* IR tables: object creation, name tables and attribute lookup. */
#include "rackc.h"
#include <stdlib.h>

#include "ir.h"
#include "schema.h"

void ir_init(struct rk_design *d, struct arena *a)
{
	memset(d, 0, sizeof(*d));
	d->arena = a;
	d->first_root = d->last_root = RK_NONE;
	arena_own(a, (void **)&d->objs);
	arena_own(a, (void **)&d->attrs);
	arena_own(a, (void **)&d->vals);
	arena_own(a, (void **)&d->links);
	arena_own(a, (void **)&d->reqs);
	arena_own(a, (void **)&d->name_tab);
	arena_own(a, (void **)&d->part_tab);
}

uint32_t ir_add_obj(struct rk_design *d, enum rk_kind kind, uint32_t parent,
		    uint32_t local, uint32_t name, const struct srcloc *loc)
{
	uint32_t id = d->nobjs;
	struct rk_obj *o = VEC_PUSH(d->objs, d->nobjs, d->objs_cap);

	memset(o, 0, sizeof(*o));
	o->kind = (uint8_t)kind;
	o->name = name;
	o->local = local;
	o->parent = parent;
	o->part = RK_NONE;
	o->first_child = o->last_child = o->next_sibling = RK_NONE;
	o->loc = *loc;
	o->tloc = *loc;
	if (parent == RK_NONE) {
		if (d->last_root == RK_NONE)
			d->first_root = id;
		else
			d->objs[d->last_root].next_sibling = id;
		d->last_root = id;
	} else {
		struct rk_obj *p = &d->objs[parent];

		if (p->last_child == RK_NONE)
			p->first_child = id;
		else
			d->objs[p->last_child].next_sibling = id;
		p->last_child = id;
	}
	return id;
}

/* Open addressing over pairs (name, obj) stored as two uint32 per slot. */
static uint32_t tab_find(const uint32_t *tab, uint32_t cap, uint32_t name)
{
	uint32_t i;

	if (!cap)
		return RK_NONE;
	for (i = hash_mix32(name) & (cap - 1); tab[2 * i] != RK_NONE;
	     i = (i + 1) & (cap - 1))
		if (tab[2 * i] == name)
			return tab[2 * i + 1];
	return RK_NONE;
}

static uint32_t tab_bind(uint32_t **tabp, uint32_t *capp, uint32_t *countp,
			 uint32_t name, uint32_t obj)
{
	uint32_t *tab = *tabp, cap = *capp, i;

	if ((uint64_t)(*countp + 1) * 2 > cap) {
		uint32_t ncap = cap ? cap * 2 : 1024;
		uint32_t *nt = xmalloc((size_t)ncap * 2 * sizeof(*nt));

		memset(nt, 0xff, (size_t)ncap * 2 * sizeof(*nt));
		for (i = 0; i < cap; i++) {
			uint32_t j;

			if (tab[2 * i] == RK_NONE)
				continue;
			for (j = hash_mix32(tab[2 * i]) & (ncap - 1);
			     nt[2 * j] != RK_NONE; j = (j + 1) & (ncap - 1))
				;
			nt[2 * j] = tab[2 * i];
			nt[2 * j + 1] = tab[2 * i + 1];
		}
		free(tab);
		*tabp = tab = nt;
		*capp = cap = ncap;
	}
	for (i = hash_mix32(name) & (cap - 1); tab[2 * i] != RK_NONE;
	     i = (i + 1) & (cap - 1))
		if (tab[2 * i] == name)
			return tab[2 * i + 1];
	tab[2 * i] = name;
	tab[2 * i + 1] = obj;
	(*countp)++;
	return RK_NONE;
}

/*
 * Full names -> objects: a table indexed by the name's string id (ids are
 * dense), so a lookup is one read, and objects made in order fill it in
 * order, where a hash table missed the cache on every insertion.
 */
uint32_t ir_bind_name(struct rk_design *d, uint32_t name, uint32_t obj)
{
	if (name >= d->name_cap) {
		uint32_t old = d->name_cap, cap = old;

		vec_grow((void **)&d->name_tab, &cap, name + 1,
			 sizeof(*d->name_tab));
		memset(d->name_tab + old, 0xff,
		       (size_t)(cap - old) * sizeof(*d->name_tab));
		d->name_cap = cap;
	}
	if (d->name_tab[name] != RK_NONE)
		return d->name_tab[name];
	d->name_tab[name] = obj;
	d->name_count++;
	return RK_NONE;
}

uint32_t ir_find_name(const struct rk_design *d, uint32_t name)
{
	return name < d->name_cap ? d->name_tab[name] : RK_NONE;
}

uint32_t ir_bind_part(struct rk_design *d, uint32_t name, uint32_t obj)
{
	return tab_bind(&d->part_tab, &d->part_cap, &d->part_count, name, obj);
}

uint32_t ir_find_part(const struct rk_design *d, uint32_t name)
{
	return tab_find(d->part_tab, d->part_cap, name);
}

const char *ir_name(const struct rk_design *d, uint32_t id)
{
	return str_of(d->arena, d->objs[id].name);
}

uint32_t ir_ancestor(const struct rk_design *d, uint32_t obj, enum rk_kind kind)
{
	for (; obj != RK_NONE; obj = d->objs[obj].parent)
		if (d->objs[obj].kind == kind)
			return obj;
	return RK_NONE;
}

const struct rk_value *ir_attr(const struct rk_design *d, uint32_t obj,
			       uint32_t key)
{
	const struct rk_obj *o = &d->objs[obj];

	/* attributes are few per object and sorted by key */
	for (uint32_t i = 0; i < o->attr_count; i++) {
		const struct rk_attr *at = &d->attrs[o->attr_first + i];

		if (at->key == key)
			return &at->val;
		if (at->key > key)
			break;
	}
	return NULL;
}

const struct rk_value *ir_attr_inh(const struct rk_design *d, uint32_t obj,
				   uint32_t key)
{
	for_each_base(d, p, obj) {
		const struct rk_value *v = ir_attr(d, p, key);

		if (v)
			return v;
	}
	return NULL;
}

int64_t ir_num(const struct rk_design *d, uint32_t obj, uint32_t key,
	       int64_t dflt)
{
	const struct rk_value *v = ir_attr_inh(d, obj, key);

	return v && (v->type == VT_NUM || v->type == VT_BOOL) ? v->n : dflt;
}

const char *ir_str(const struct rk_design *d, uint32_t obj, uint32_t key)
{
	const struct rk_value *v = ir_attr_inh(d, obj, key);

	return v && (v->type == VT_STR || v->type == VT_WORD)
		   ? str_of(d->arena, v->a)
		   : NULL;
}

const struct rk_value *ir_next_endpoint(const struct rk_design *d, uint32_t fab,
					struct ir_ep_cursor *c)
{
	const struct rk_obj *o = &d->objs[fab];

	for (; c->k < o->attr_count; c->k++, c->i = 0) {
		const struct rk_attr *at = &d->attrs[o->attr_first + c->k];

		if (at->key != A_ENDPOINTS || at->val.type != VT_LIST)
			continue;
		while (c->i < (uint32_t)at->val.n) {
			const struct rk_value *v =
			    ir_list_at(d, &at->val, c->i++);

			if (v->type == VT_PORT)
				return v;
		}
	}
	return NULL;
}

uint32_t ir_part_member(const struct rk_design *d, uint32_t part,
			uint32_t local_name)
{
	const char *ln = str_of(d->arena, local_name);
	size_t lnlen = strlen_of(d->arena, local_name);

	for_each_base(d, p, part) {
		/* "part.member", found without writing it out */
		uint32_t id =
		    intern_find_join(d->arena, d->objs[p].name, '.', ln, lnlen);
		uint32_t m;

		if (id) {
			m = ir_find_part(d, id);
			if (m != RK_NONE && (d->objs[m].kind == K_PORT ||
					     d->objs[m].kind == K_COMP))
				return m;
		}
	}
	return RK_NONE;
}

uint32_t ir_part_port(const struct rk_design *d, uint32_t part,
		      uint32_t local_name)
{
	uint32_t m = ir_part_member(d, part, local_name);

	return m != RK_NONE && d->objs[m].kind == K_PORT ? m : RK_NONE;
}

bool ir_member_effective(const struct rk_design *d, uint32_t part, uint32_t m)
{
	return ir_part_member(d, part, d->objs[m].local) == m;
}

uint32_t ir_part_gpu_count(const struct rk_design *d, uint32_t part)
{
	uint32_t n = 0;

	for_each_base(d, p, part)
		for_each_child(d, p, c)
			if (d->objs[c].kind == K_COMP &&
			    d->objs[c].cls == COMP_GPU &&
			    ir_member_effective(d, part, c))
				n++;
	return n;
}

uint32_t ir_part_chain(const struct rk_design *d, uint32_t part,
		       uint32_t chain[RK_MAX_PART_DEPTH + 1])
{
	uint32_t n = 0;

	for_each_base(d, p, part)
		chain[n++] = p;
	return n;
}

void ir_link_index(const struct rk_design *d, uint32_t **offp, uint32_t **adjp)
{
	uint32_t *off = xcalloc(d->nobjs + 2, sizeof(*off)), *adj;

	for (uint32_t i = 0; i < d->nlinks; i++) {
		if (d->links[i].a_port == RK_NONE)
			continue;
		off[d->links[i].a_dev + 2]++;
		off[d->links[i].b_dev + 2]++;
	}
	for (uint32_t i = 2; i < d->nobjs + 2; i++)
		off[i] += off[i - 1];
	adj = xmalloc((off[d->nobjs + 1] + 1) * sizeof(*adj));
	for (uint32_t i = 0; i < d->nlinks; i++) {
		if (d->links[i].a_port == RK_NONE)
			continue;
		adj[off[d->links[i].a_dev + 1]++] = i;
		adj[off[d->links[i].b_dev + 1]++] = i;
	}
	*offp = off;
	*adjp = adj;
}
