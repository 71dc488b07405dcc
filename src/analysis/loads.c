/* SPDX-License-Identifier: MIT */
/*
 * The racks and supplies of feeds and loops (loads.h), shared by the back
 * ends that list them (report.json, report.html), so that they list the
 * same ones.
 */
#include "rackc.h"

#include <stdlib.h>

#include "cooling_model.h"
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

struct unknown_fig *figure_report_unknown(struct derived *dv, uint32_t *n)
{
	const struct rk_design *d = dv->d;
	struct unknown_fig *out = NULL;
	uint32_t cap = 0, *slot[3];
	uint32_t nl;
	const struct loop_load *loops = derived_loop_loads(dv, &nl);
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
		    !(metrics_figures_unknown(d, i) & TOTAL_POWER) ||
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
	for_each_base(d, p, part)
		if (ir_attr(d, p, key))
			return p;
	return RK_NONE;
}

/* Entries for the `estimated` notes in @part's chain ("a, b: why"). */
static void estimated_of(const struct rk_design *d, uint32_t part,
			 uint32_t count, struct estimated_fig **out,
			 uint32_t *n, uint32_t *cap)
{
	enum rk_class cls = d->objs[part].cls;

	for_each_base(d, p, part) {
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
				e->coolant = NULL;
			}
		}
	}
}

struct estimated_fig *figure_report_estimated(const struct rk_design *d,
					      uint32_t *n)
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
	/* the coolants whose properties are estimates, with their loops */
	for (uint32_t l = 0; l < d->nobjs; l++) {
		const struct coolant *co;
		uint32_t k;

		if (d->objs[l].kind != K_LOOP)
			continue;
		co = cm_coolant_of(d, l);
		if (!co || !co->estimate)
			continue;
		for (k = 0; k < *n; k++)
			if (out[k].coolant && streq(out[k].coolant, co->name))
				break;
		if (k == *n) {
			struct estimated_fig *e = VEC_PUSH(out, *n, cap);

			e->part = RK_NONE;
			e->attr = A_COOLANT;
			e->objects = 0;
			e->text = co->note;
			e->checks = "cooling-flow";
			e->coolant = co->name;
		}
		out[k].objects++;
	}
	return out;
}

/* ---- the verdicts that rest on estimated figures ---- */

/* What a budget check's verdict on one object reads. */
enum basis {
	B_NONE,
	B_PDU,	       /* power-pdu-capacity: a supply's load and rating */
	B_PDU_LOSS,    /* power-feed-failure: the same, PSU figures too */
	B_FEED,	       /* power-feed-capacity: a feed's supplies' devices */
	B_RACK_AIR,    /* cooling-air-limit, cooling-rdhx: a rack's air side */
	B_ZONE,	       /* cooling-room: the air sides of a zone's racks */
	B_LOOP,	       /* cooling-cdu-capacity: a loop's heat, CDU capacity */
	B_LOOP_FLOW,   /* cooling-flow: the same with the CDUs' max_flow, and
			the coolant's properties */
	B_RACK_WEIGHT, /* rack-weight: a rack's max_load, its devices' weight */
};

static enum basis basis_of(const char *check)
{
	static const struct {
		const char *name;
		enum basis b;
	} map[] = {
		{ "power-pdu-capacity", B_PDU },
		{ "power-feed-failure", B_PDU_LOSS },
		{ "power-feed-capacity", B_FEED },
		{ "cooling-air-limit", B_RACK_AIR },
		{ "cooling-rdhx", B_RACK_AIR },
		{ "cooling-room", B_ZONE },
		{ "cooling-cdu-capacity", B_LOOP },
		{ "cooling-flow", B_LOOP_FLOW },
		{ "rack-weight", B_RACK_WEIGHT },
	};

	for (unsigned i = 0; i < ARRAY_SIZE(map); i++)
		if (streq(map[i].name, check))
			return map[i].b;
	return B_NONE;
}

/* The membership lists the bases walk (each sorted by group). */
struct basis_ctx {
	const struct rk_design *d;
	const struct figure_report *f;
	uint32_t *est_first, *est_next; /* estimated entries of each part */
	uint32_t *stamp;		/* per estimated entry: last verdict */
	uint32_t verdict;		/* the verdict being built, from 1 */
	struct load_member *pdu_dev, *feed_sup, *rack_dev, *zone_rack,
	    *loop_dev, *loop_rack;
	uint32_t npdu_dev, nfeed_sup, nrack_dev, nzone_rack, nloop_dev,
	    nloop_rack;
	uint32_t *refs, nrefs, rcap;
	uint32_t coolant_e[4], ncoolant_e; /* the estimated coolants' entries */
};

/* Add the estimated entry for (@part, @key) to the verdict, once. */
static void ref_add(struct basis_ctx *b, uint32_t part, uint32_t key)
{
	if (part == RK_NONE)
		return;
	for (uint32_t e = b->est_first[part]; e != RK_NONE;
	     e = b->est_next[e]) {
		if (b->f->est[e].attr != key || b->stamp[e] == b->verdict)
			continue;
		b->stamp[e] = b->verdict;
		*VEC_PUSH(b->refs, b->nrefs, b->rcap) = e;
	}
}

static void refs_add(struct basis_ctx *b, uint32_t part, const uint32_t *keys,
		     unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		ref_add(b, part, keys[i]);
}

static const uint32_t k_power[] = { A_POWER_MAX };
static const uint32_t k_psu[] = { A_POWER_MAX, A_PSUS, A_PSU_RATING,
				  A_PSU_REDUNDANCY, A_PSU_MIN_RUN };
static const uint32_t k_rating[] = { A_CAPACITY, A_VOLTAGE, A_CURRENT, A_DERATE,
				     A_PHASES };
static const uint32_t k_heat[] = { A_POWER_MAX, A_HEAT, A_LIQUID_FRACTION };

/* The members of @group in @m (@n entries, sorted), by binary search. */
static const struct load_member *members(const struct load_member *m,
					 uint32_t n, uint32_t group,
					 uint32_t *count)
{
	uint32_t lo = 0, hi = n, k;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m[mid].group < group)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo; k < n && m[k].group == group; k++)
		;
	*count = k - lo;
	return m ? m + lo : m; /* no members at all: a null list */
}

static uint32_t part_of(const struct rk_design *d, uint32_t obj)
{
	return obj != RK_NONE ? d->objs[obj].part : RK_NONE;
}

/* A supply's own rating and its devices' figures. */
static void basis_supply(struct basis_ctx *b, uint32_t p, bool psu)
{
	uint32_t n;
	const struct load_member *m = members(b->pdu_dev, b->npdu_dev, p, &n);

	refs_add(b, part_of(b->d, p), k_rating, ARRAY_SIZE(k_rating));
	for (uint32_t i = 0; i < n; i++)
		if (psu)
			refs_add(b, part_of(b->d, m[i].obj), k_psu,
				 ARRAY_SIZE(k_psu));
		else
			refs_add(b, part_of(b->d, m[i].obj), k_power,
				 ARRAY_SIZE(k_power));
}

/* A rack's air side: its devices that heat the air, and its rear door. */
static void basis_rack_air(struct basis_ctx *b, uint32_t r)
{
	uint32_t n;
	const struct load_member *m = members(b->rack_dev, b->nrack_dev, r, &n);
	const struct rk_value *door = ir_attr_inh(b->d, r, A_RDHX);

	for (uint32_t i = 0; i < n; i++)
		if (cm_heat_sides(b->d, m[i].obj) & HEAT_AIR)
			refs_add(b, part_of(b->d, m[i].obj), k_heat,
				 ARRAY_SIZE(k_heat));
	if (door && door->type == VT_OBJ)
		ref_add(b, door->a, A_CAPACITY);
}

static void basis_loop(struct basis_ctx *b, uint32_t l, uint32_t cdu_key)
{
	const struct rk_design *d = b->d;
	const struct rk_value *lv = ir_attr(d, l, A_CDU);
	uint32_t n;
	const struct load_member *m = members(b->loop_dev, b->nloop_dev, l, &n);

	for (uint32_t i = 0; i < n; i++)
		if (cm_heat_sides(d, m[i].obj) & HEAT_LIQUID)
			refs_add(b, part_of(d, m[i].obj), k_heat,
				 ARRAY_SIZE(k_heat));
	/* the rear doors of its racks send what they take to the loop */
	m = members(b->loop_rack, b->nloop_rack, l, &n);
	for (uint32_t i = 0; i < n; i++)
		if (ir_attr_inh(d, m[i].obj, A_RDHX))
			basis_rack_air(b, m[i].obj);
	for (uint32_t i = 0; lv && lv->type == VT_LIST && i < (uint32_t)lv->n;
	     i++) {
		const struct rk_value *e = ir_list_at(d, lv, i);

		if (e->type == VT_OBJ)
			ref_add(b, part_of(d, e->a), cdu_key);
	}
	/* the flow rests on the coolant's properties */
	if (cdu_key == A_MAX_FLOW) {
		const struct coolant *co = cm_coolant_of(d, l);

		for (uint32_t k = 0; co && co->estimate && k < b->ncoolant_e;
		     k++) {
			uint32_t e = b->coolant_e[k];

			if (streq(b->f->est[e].coolant, co->name) &&
			    b->stamp[e] != b->verdict) {
				b->stamp[e] = b->verdict;
				*VEC_PUSH(b->refs, b->nrefs, b->rcap) = e;
			}
		}
	}
}

/* A rack's max_load and the weight of the devices in it. */
static void basis_rack_weight(struct basis_ctx *b, uint32_t r)
{
	uint32_t n;
	const struct load_member *m = members(b->rack_dev, b->nrack_dev, r, &n);

	ref_add(b, part_of(b->d, r), A_MAX_LOAD);
	for (uint32_t i = 0; i < n; i++)
		ref_add(b, part_of(b->d, m[i].obj), A_WEIGHT);
}

static void basis_add(struct basis_ctx *b, enum basis kind, uint32_t obj)
{
	uint32_t n;
	const struct load_member *m;

	switch (kind) {
	case B_NONE:
		break;
	case B_PDU:
	case B_PDU_LOSS:
		basis_supply(b, obj, kind == B_PDU_LOSS);
		break;
	case B_FEED:
		m = members(b->feed_sup, b->nfeed_sup, obj, &n);
		for (uint32_t i = 0; i < n; i++)
			basis_supply(b, m[i].obj, true);
		break;
	case B_RACK_AIR:
		basis_rack_air(b, obj);
		break;
	case B_ZONE:
		m = members(b->zone_rack, b->nzone_rack, obj, &n);
		for (uint32_t i = 0; i < n; i++)
			basis_rack_air(b, m[i].obj);
		break;
	case B_LOOP:
		basis_loop(b, obj, A_CAPACITY);
		break;
	case B_LOOP_FLOW:
		basis_loop(b, obj, A_MAX_FLOW);
		break;
	case B_RACK_WEIGHT:
		basis_rack_weight(b, obj);
		break;
	}
}

/* The membership lists: devices on each supply, in each rack, on each
 * loop; racks in each air zone and on each loop. */
static void basis_lists(struct basis_ctx *b)
{
	const struct rk_design *d = b->d;
	uint32_t cp = 0, cr = 0, cz = 0, cl = 0, clr = 0;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];
		uint32_t r, l;

		if (o->kind == K_RACK) {
			if ((l = ref_attr(d, i, A_AIR)) != RK_NONE)
				*VEC_PUSH(b->zone_rack, b->nzone_rack, cz) =
				    (struct load_member){ l, i };
			if ((l = ref_attr(d, i, A_LOOP)) != RK_NONE)
				*VEC_PUSH(b->loop_rack, b->nloop_rack, clr) =
				    (struct load_member){ l, i };
			continue;
		}
		if (o->kind != K_DEVICE)
			continue;
		for (uint32_t k = 0; k < o->attr_count; k++) {
			const struct rk_attr *at = &d->attrs[o->attr_first + k];
			const struct rk_value *p;

			if (at->key != A_POWER || at->val.type != VT_PAIR)
				continue;
			p = &d->vals[at->val.a + 1];
			if (p->type == VT_OBJ)
				*VEC_PUSH(b->pdu_dev, b->npdu_dev, cp) =
				    (struct load_member){ p->a, i };
		}
		r = layout_rack_of(d, i);
		if (r != RK_NONE)
			*VEC_PUSH(b->rack_dev, b->nrack_dev, cr) =
			    (struct load_member){ r, i };
		l = ref_attr(d, i, A_LOOP);
		if (l == RK_NONE && r != RK_NONE)
			l = ref_attr(d, r, A_LOOP);
		if (l != RK_NONE)
			*VEC_PUSH(b->loop_dev, b->nloop_dev, cl) =
			    (struct load_member){ l, i };
	}
	b->npdu_dev = members_sort(b->pdu_dev, b->npdu_dev);
	b->nrack_dev = members_sort(b->rack_dev, b->nrack_dev);
	b->nzone_rack = members_sort(b->zone_rack, b->nzone_rack);
	b->nloop_dev = members_sort(b->loop_dev, b->nloop_dev);
	b->nloop_rack = members_sort(b->loop_rack, b->nloop_rack);
	b->feed_sup = load_feed_supplies(d, &b->nfeed_sup);
}

struct figure_report *figure_report_compute(const struct rk_design *d,
					    struct derived *dv)
{
	struct figure_report *f = xcalloc(1, sizeof(*f));
	struct basis_ctx b;
	uint32_t vcap = 0;

	f->unknown = figure_report_unknown(dv, &f->nunknown);
	f->est = figure_report_estimated(d, &f->nest);
	f->on_estimates =
	    xcalloc(dv->ncoverage ? dv->ncoverage : 1, sizeof(uint32_t));
	if (!f->nest || !dv->coverage)
		return f;
	memset(&b, 0, sizeof(b));
	b.d = d;
	b.f = f;
	b.est_first = xmalloc((d->nobjs + 1) * sizeof(uint32_t));
	memset(b.est_first, 0xff, (d->nobjs + 1) * sizeof(uint32_t));
	b.est_next = xmalloc(f->nest * sizeof(uint32_t));
	b.stamp = xcalloc(f->nest, sizeof(uint32_t));
	for (uint32_t e = f->nest; e-- > 0;) {
		if (f->est[e].coolant) {
			if (b.ncoolant_e < ARRAY_SIZE(b.coolant_e))
				b.coolant_e[b.ncoolant_e++] = e;
			continue;
		}
		b.est_next[e] = b.est_first[f->est[e].part];
		b.est_first[f->est[e].part] = e;
	}
	basis_lists(&b);
	for (unsigned c = 0; c < dv->ncoverage; c++) {
		const struct check_coverage *cv = &dv->coverage[c];
		enum basis kind = basis_of(dv->check_names[c]);

		if (!cv->ran || kind == B_NONE)
			continue;
		for (uint32_t i = 0; i < cv->nverdicts; i++) {
			uint32_t first = b.nrefs;
			struct est_verdict *v;

			b.verdict++;
			basis_add(&b, kind, cv->verdicts[i].obj);
			if (b.nrefs == first)
				continue;
			v = VEC_PUSH(f->verdicts, f->nverdicts, vcap);
			v->check = c;
			v->obj = cv->verdicts[i].obj;
			v->outcome = cv->verdicts[i].outcome;
			v->first = first;
			v->n = b.nrefs - first;
			if (v->outcome == COVER_PROVED)
				f->on_estimates[c]++;
		}
	}
	f->refs = b.refs;
	f->nrefs = b.nrefs;
	free(b.est_first);
	free(b.est_next);
	free(b.stamp);
	free(b.pdu_dev);
	free(b.feed_sup);
	free(b.rack_dev);
	free(b.zone_rack);
	free(b.loop_dev);
	free(b.loop_rack);
	return f;
}
