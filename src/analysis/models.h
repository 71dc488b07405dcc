/* SPDX-License-Identifier: MIT */
/*
 * What the power model (power_model.h) and the cooling model
 * (cooling_model.h) share: their sums saturate at the int64_t range (a
 * load that does not fit 64 bits holds INT64_MAX, a lower bound, and is
 * reported as out of range, never compared as a figure), they read
 * non-negative figures of parts, and they keep their figures by one index
 * of the objects (struct model_index, built by derived.c).
 */
#ifndef RACKC_MODELS_H
#define RACKC_MODELS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arith.h"
#include "ir.h"
#include "util.h"

/* @v clamped to the int64_t range; sums that saturate (arith.h). */
#define model_sat(v) arith_sat64(v)
#define model_sadd(a, b) arith_sadd((a), (b))

/* A non-negative numeric attribute (inherited), 0 when absent. */
static inline int64_t model_num0(const struct rk_design *d, uint32_t obj,
				 uint32_t key)
{
	int64_t v = ir_num(d, obj, key, 0);

	return v > 0 ? v : 0;
}

/* An object-valued attribute (inherited), RK_NONE when absent. */
static inline uint32_t model_ref(const struct rk_design *d, uint32_t obj,
				 uint32_t key)
{
	const struct rk_value *v = ir_attr_inh(d, obj, key);

	return v && v->type == VT_OBJ ? v->a : RK_NONE;
}

/**
 * struct model_index - which entry of the models' figures an object has
 * @bits:  the objects of the kinds the models keep figures for (devices,
 *         racks, feeds, air zones and loops): object i is one when bit
 *         i % 64 of bits[i / 64] is set
 * @rank:  per word of @bits, how many such objects come before it: the
 *         dense number of such an object is its rank among them
 * @at:    per such object (by that number), its entry (0: none)
 * @n:     entries made so far, 0 (the defaults, never written) counted
 *
 * One index, built once in the figure cache (derived.c) and shared by the
 * power and the cooling model: an entry is made on first use by either
 * (model_slot), and each model keeps its own figures in an array indexed
 * by the entry, reading the defaults for an entry it does not hold
 * (model_at).  Its memory is a bit and a half an object (@bits, @rank)
 * and a word per device, rack, feed, zone and loop, so that the objects
 * of other kinds (groups, ports, parts, components) cost next to nothing.
 */
struct model_index {
	uint64_t *bits;
	uint32_t *rank;
	uint32_t *at;
	uint32_t n;
};

/* The index of design @d (derived.c, which owns it). */
void model_index_build(struct model_index *ix, const struct rk_design *d);
void model_index_free(struct model_index *ix);

/* @obj's place in ix->at, or UINT32_MAX when it is of no kind kept. */
static inline uint32_t model_rank(const struct model_index *ix, uint32_t obj)
{
	uint64_t w = ix->bits[obj / 64], below = ((uint64_t)1 << obj % 64) - 1;

	if (!(w >> obj % 64 & 1))
		return UINT32_MAX;
	return ix->rank[obj / 64] + (uint32_t)__builtin_popcountll(w & below);
}

/* The entry of @obj, 0 when it has none (the defaults). */
static inline uint32_t model_at(const struct model_index *ix, uint32_t obj)
{
	uint32_t r = model_rank(ix, obj);

	return r != UINT32_MAX ? ix->at[r] : 0;
}

/*
 * The entry of @obj in a model's array @*o of @*no entries of @size bytes
 * (@*cap allocated), made on first use by either model: the array is
 * grown to hold it with copies of @none (the model's defaults).  It may
 * move @*o: a pointer into it is taken only after the entries a statement
 * needs exist.  @obj is of a kind the models keep (the resolver checks
 * the kinds of the objects 'power', 'feed', 'air' and 'loop' name).
 */
static inline uint32_t model_slot(struct model_index *ix, uint32_t obj,
				  void **o, uint32_t *no, uint32_t *cap,
				  size_t size, const void *none)
{
	uint32_t r = model_rank(ix, obj), k;

	if (r == UINT32_MAX)
		BUG("a model figure kept for an object of another kind");
	if (!ix->at[r])
		ix->at[r] = ix->n++;
	k = ix->at[r];
	if (k >= *no) {
		if (k >= *cap)
			vec_grow(o, cap, k + 1, size);
		for (; *no <= k; ++*no)
			memcpy((char *)*o + (size_t)*no * size, none, size);
	}
	return k;
}

#endif
