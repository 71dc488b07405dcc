/* SPDX-License-Identifier: MIT */
/*
 * What the power model (power_model.h) and the cooling model
 * (cooling_model.h) share: their sums saturate at the int64_t range (a
 * load that does not fit 64 bits holds INT64_MAX, a lower bound, and is
 * reported as out of range, never compared as a figure), and they read
 * non-negative figures of parts.
 */
#ifndef RACKC_MODELS_H
#define RACKC_MODELS_H

#include <stdint.h>

#include "arith.h"
#include "ir.h"

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

#endif
