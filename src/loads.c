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
