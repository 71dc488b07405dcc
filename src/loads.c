/* SPDX-License-Identifier: MIT */
/*
 * The racks and supplies of feeds and loops (loads.h), shared by the back
 * ends that list them (report.json, report.html), so that they list the
 * same ones.
 */
#include "rackc.h"

#include <stdlib.h>

#include "layout.h"
#include "loads.h"
#include "metrics.h"
#include "schema.h"

static int member_cmp(const void *x, const void *y)
{
	const struct load_member *a = x, *b = y;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	return a->obj < b->obj ? -1 : a->obj > b->obj;
}

/* Sort @m and drop repeats; returns the count left. */
static uint32_t members_sort(struct load_member *m, uint32_t n)
{
	uint32_t k = 0;

	if (n)
		qsort(m, n, sizeof(*m), member_cmp);
	for (uint32_t i = 0; i < n; i++)
		if (!k || member_cmp(&m[k - 1], &m[i]))
			m[k++] = m[i];
	return k;
}

static uint32_t ref_attr(const struct rk_design *d, uint32_t obj, uint32_t key)
{
	const struct rk_value *v = ir_attr_inh(d, obj, key);

	return v && v->type == VT_OBJ ? v->a : RK_NONE;
}

/* the supplies on a feed (@racks false) or the racks they sit in */
static struct load_member *feed_members(const struct rk_design *d, bool racks,
					uint32_t *n)
{
	struct load_member *m = NULL;
	uint32_t cap = 0;

	*n = 0;
	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t g, r = i;

		if (d->objs[i].kind != K_DEVICE ||
		    (d->objs[i].cls != C_PDU &&
		     d->objs[i].cls != C_POWER_SHELF) ||
		    (g = ref_attr(d, i, A_FEED)) == RK_NONE ||
		    (racks && (r = layout_rack_of(d, i)) == RK_NONE))
			continue;
		*VEC_PUSH(m, *n, cap) = (struct load_member){ g, r };
	}
	*n = members_sort(m, *n);
	return m;
}

struct load_member *load_feed_supplies(const struct rk_design *d, uint32_t *n)
{
	return feed_members(d, false, n);
}

struct load_member *load_feed_racks(const struct rk_design *d, uint32_t *n)
{
	return feed_members(d, true, n);
}

struct load_member *load_loop_racks(const struct rk_design *d, uint32_t *n)
{
	struct load_member *m = NULL;
	uint32_t cap = 0;

	*n = 0;
	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t g, r;

		if (d->objs[i].kind == K_RACK) {
			g = ref_attr(d, i, A_LOOP);
			r = i;
		} else if (d->objs[i].kind == K_DEVICE) {
			r = layout_rack_of(d, i);
			g = ref_attr(d, i, A_LOOP);
			if (g == RK_NONE && r != RK_NONE)
				g = ref_attr(d, r, A_LOOP);
		} else {
			continue;
		}
		if (g != RK_NONE && r != RK_NONE)
			*VEC_PUSH(m, *n, cap) = (struct load_member){ g, r };
	}
	*n = members_sort(m, *n);
	return m;
}

uint32_t load_members_of(const struct load_member *m, uint32_t n, uint32_t *at,
			 uint32_t group)
{
	uint32_t k;

	while (*at < n && m[*at].group < group)
		(*at)++;
	for (k = *at; k < n && m[k].group == group; k++)
		;
	return k - *at;
}

/* ---- unknown and estimated figures ---- */

static bool wired(const struct rk_design *d, uint32_t dev)
{
	const struct rk_obj *o = &d->objs[dev];

	for (uint32_t k = 0; k < o->attr_count; k++)
		if (d->attrs[o->attr_first + k].key == A_POWER)
			return true;
	return false;
}

static struct unknown_fig *fig_slot(struct unknown_fig **out, uint32_t *n,
				    uint32_t *cap, uint32_t *slot,
				    uint32_t part, uint32_t key)
{
	struct unknown_fig *f;

	if (slot[part] != RK_NONE)
		return &(*out)[slot[part]];
	slot[part] = *n;
	f = VEC_PUSH(*out, *n, *cap);
	f->part = part;
	f->key = key;
	f->objects = 0;
	f->typ = -1;
	return f;
}

struct unknown_fig *unknown_figures(const struct rk_design *d, uint32_t *n)
{
	struct unknown_fig *out = NULL;
	uint32_t cap = 0, *slot[3];
	uint32_t nl;
	struct loop_load *loops = loop_loads(d, &nl);
	static const uint32_t keys[3] = { A_POWER_MAX, A_CAPACITY, A_MAX_FLOW };

	*n = 0;
	for (unsigned k = 0; k < 3; k++) {
		slot[k] = xmalloc((d->nobjs + 1) * sizeof(uint32_t));
		memset(slot[k], 0xff, (d->nobjs + 1) * sizeof(uint32_t));
	}
	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t part = d->objs[i].part;
		struct unknown_fig *f;
		const struct rk_value *t;

		if (d->objs[i].kind != K_DEVICE || part == RK_NONE ||
		    !(device_figures_unknown(d, i) & TOTAL_POWER) ||
		    (layout_rack_of(d, i) == RK_NONE && !wired(d, i)))
			continue;
		f = fig_slot(&out, n, &cap, slot[0], part, A_POWER_MAX);
		f->objects++;
		t = ir_attr_inh(d, part, A_POWER_TYP);
		if (t && t->type == VT_NUM)
			f->typ = t->n;
	}
	/* the CDUs of loops that take heat to liquid, each CDU once */
	for (uint32_t k = 0; k < nl; k++) {
		const struct rk_value *lv = ir_attr(d, loops[k].loop, A_CDU);

		const struct rk_value *tv =
		    ir_attr(d, loops[k].loop, A_DELTA_T);
		bool sized = ir_attr(d, loops[k].loop, A_COOLANT) && tv &&
			     tv->type == VT_NUM;

		if ((!loops[k].heat && !loops[k].heat_unknown) || !lv ||
		    lv->type != VT_LIST)
			continue;
		for (uint32_t i = 0; i < (uint32_t)lv->n; i++) {
			const struct rk_value *e = ir_list_at(d, lv, i);
			uint32_t part;

			if (e->type != VT_OBJ || d->objs[e->a].part == RK_NONE)
				continue;
			part = d->objs[e->a].part;
			for (unsigned j = 1; j < 3; j++) {
				const struct rk_value *x =
				    ir_attr_inh(d, e->a, keys[j]);

				if ((!x || x->type != VT_NUM) &&
				    (keys[j] != A_MAX_FLOW || sized))
					fig_slot(&out, n, &cap, slot[j], part,
						 keys[j])
					    ->objects++;
			}
		}
	}
	for (unsigned k = 0; k < 3; k++)
		free(slot[k]);
	free(loops);
	return out;
}

/* The checks that read @key of a part of class @cls; NULL: none. */
static const char *checks_of(uint32_t key, enum rk_class cls)
{
	switch ((enum rk_attr_id)key) {
	case A_POWER_MAX:
		return "power-pdu-capacity, power-feed-failure, "
		       "power-feed-capacity, cooling-air-limit, cooling-room, "
		       "cooling-cdu-capacity, cooling-flow, require";
	case A_HEAT:
	case A_LIQUID_FRACTION:
		return "cooling-air-limit, cooling-rdhx, cooling-room, "
		       "cooling-cdu-capacity, cooling-flow, require";
	case A_CAPACITY:
		if (cls == C_RDHX)
			return "cooling-rdhx, cooling-air-limit, "
			       "cooling-room, cooling-cdu-capacity, "
			       "cooling-flow";
		if (cls == C_CDU)
			return "cooling-cdu-capacity";
		if (cls == C_PDU || cls == C_POWER_SHELF)
			return "power-pdu-capacity, power-feed-failure";
		return NULL;
	case A_MAX_FLOW:
		return "cooling-flow";
	case A_VOLTAGE:
	case A_CURRENT:
	case A_DERATE:
	case A_PHASES:
		return "power-pdu-capacity, power-feed-failure";
	case A_PSUS:
	case A_PSU_RATING:
	case A_PSU_REDUNDANCY:
	case A_PSU_MIN_RUN:
		return "power-psu-redundancy, power-feed-failure";
	case A_INLET:
		return "power-outlets";
	case A_MAX_LOAD:
	case A_WEIGHT:
		return "rack-weight";
	default:
		return NULL;
	}
}

/* The part in @part's chain that gives @key itself, RK_NONE: none. */
static uint32_t giver(const struct rk_design *d, uint32_t part, uint32_t key)
{
	for (uint32_t hops = 0; part != RK_NONE && hops < 256; hops++) {
		if (ir_attr(d, part, key))
			return part;
		part = d->objs[part].part;
	}
	return RK_NONE;
}

/* Entries for the `estimated` notes in @part's chain ("a, b: why"). */
static void estimated_of(const struct rk_design *d, uint32_t part,
			 uint32_t count, struct estimated_fig **out,
			 uint32_t *n, uint32_t *cap)
{
	enum rk_class cls = d->objs[part].cls;

	for (uint32_t p = part, hops = 0; p != RK_NONE && hops < 256;
	     p = d->objs[p].part, hops++) {
		const struct rk_obj *o = &d->objs[p];

		for (uint32_t k = 0; k < o->attr_count; k++) {
			const struct rk_attr *at = &d->attrs[o->attr_first + k];
			const char *txt, *colon, *s;

			if (at->key != A_ESTIMATED || at->val.type != VT_STR)
				continue;
			txt = str_of(d->arena, at->val.a);
			colon = strchr(txt, ':');
			if (!colon)
				continue;
			for (s = txt; s < colon;) {
				char name[64];
				size_t len = 0;
				uint32_t key;
				const char *chk;
				struct estimated_fig *e;

				while (s < colon && (*s == ' ' || *s == ','))
					s++;
				while (s < colon && *s != ',' &&
				       len + 1 < sizeof(name))
					name[len++] = *s++;
				while (len && name[len - 1] == ' ')
					len--;
				name[len] = '\0';
				while (s < colon && *s != ',')
					s++;
				key = schema_attr(name);
				if (key == A_NONE)
					continue;
				chk = checks_of(key, cls);
				/* the note holds where the figure comes from */
				if (!chk || giver(d, part, key) != p)
					continue;
				e = VEC_PUSH(*out, *n, *cap);
				e->part = part;
				e->attr = key;
				e->objects = count;
				e->text = txt;
				e->checks = chk;
			}
		}
	}
}

struct estimated_fig *estimated_figures(const struct rk_design *d, uint32_t *n)
{
	uint32_t *count = xcalloc(d->nobjs + 1, sizeof(uint32_t));
	struct estimated_fig *out = NULL;
	uint32_t cap = 0;

	*n = 0;
	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];
		const struct rk_value *door;

		if (o->kind != K_DEVICE && o->kind != K_RACK)
			continue;
		if (o->part != RK_NONE)
			count[o->part]++;
		door = o->kind == K_RACK ? ir_attr_inh(d, i, A_RDHX) : NULL;
		if (door && door->type == VT_OBJ)
			count[door->a]++;
	}
	for (uint32_t p = 0; p < d->nobjs; p++)
		if (count[p] && d->objs[p].kind == K_PART)
			estimated_of(d, p, count[p], &out, n, &cap);
	free(count);
	return out;
}
