/* SPDX-License-Identifier: MIT */
/*
 * Supply capacity in exact integer arithmetic.  With the voltage in mV,
 * the current in mA and the derating in ppm, P = V x A x derate is the
 * capacity in units of 10^-9 mW = 1 pW; three-phase capacity is
 * sqrt(3) x P.  floor(sqrt(3) P / Q) = floor(sqrt(floor(3 P^2 / Q^2)))
 * (floor of a root of a floor), and with P = aQ + b,
 * floor(3 P^2 / Q^2) = 3a^2 + floor((6abQ + 3b^2) / Q^2), which fits 128
 * bits whenever the result fits 63.
 */
#include "rackc.h"
#include "arith.h"

#include <stdio.h>
#include <stdlib.h>

#include "layout.h"
#include "metrics.h"
#include "schema.h"
#include "supply.h"

#define PW_PER_MW 1000000000ULL
#define PW_PER_UW 1000000ULL

/*
 * floor(P / Q), or floor(sqrt(3) P / Q) when @three, into *@out; false
 * when it is 2^62 or more.  *@exact: no remainder.
 */
static bool scaled_floor(u128 p, uint64_t q, bool three, int64_t *out,
			 bool *exact)
{
	u128 a = p / q, b = p % q, n;
	uint64_t r;

	if (a >> 62)
		return false;
	if (!three) {
		*out = (int64_t)a;
		*exact = b == 0;
		return true;
	}
	/* a < 2^62, b < q < 2^30: 3a^2 < 2^126 and 6abq + 3b^2 < 2^125 */
	n = 3 * a * a + (6 * a * b * q + 3 * b * b) / ((u128)q * q);
	r = arith_isqrt(n);
	if (r >> 62)
		return false;
	*out = (int64_t)r;
	*exact = p == 0; /* sqrt(3) x P is irrational otherwise */
	return true;
}

void supply_capacity(const struct rk_design *d, uint32_t obj,
		     struct supply_cap *cp)
{
	const struct rk_value *cap = ir_attr_inh(d, obj, A_CAPACITY);
	const struct rk_value *v = ir_attr_inh(d, obj, A_VOLTAGE);
	const struct rk_value *a = ir_attr_inh(d, obj, A_CURRENT);
	int64_t phases = ir_num(d, obj, A_PHASES, 1);
	u128 p;
	bool three;

	memset(cp, 0, sizeof(*cp));
	cp->uw = -1;
	if (cap && cap->type == VT_NUM) {
		cp->how = SUPPLY_GIVEN;
		cp->mw = cap->n > 0 ? cap->n : 0;
		cp->uw = cp->mw <= INT64_MAX / 1000 ? cp->mw * 1000 : -1;
		cp->exact = true;
		cp->loc = &cap->loc;
		return;
	}
	if (!v || !a || v->type != VT_NUM || a->type != VT_NUM || v->n <= 0 ||
	    a->n <= 0 || (phases != 1 && phases != 3))
		return;
	three = phases == 3;
	cp->how = three ? SUPPLY_3PH : SUPPLY_1PH;
	cp->volt = v->n;
	cp->amp = a->n;
	cp->loc = &v->loc;
	cp->derate = ir_num(d, obj, A_DERATE, 0);
	if (cp->derate <= 0 || cp->derate > RK_RATIO_ONE)
		cp->derate = 0;
	/* mV x mA = uW, x ppm = pW.  Past 2^107 uW even a 1 ppm derating
	 * leaves more than 2^63 mW; below it P < 2^127. */
	p = (u128)v->n * (u128)a->n;
	if (p >> 107) {
		cp->mw = SUPPLY_MW_MAX;
		return;
	}
	p *= (u128)(cp->derate ? cp->derate : RK_RATIO_ONE);
	if (scaled_floor(p, PW_PER_UW, three, &cp->uw, &cp->exact))
		cp->mw = cp->uw / 1000;
	else if (!scaled_floor(p, PW_PER_MW, three, &cp->mw, &cp->exact))
		cp->mw = SUPPLY_MW_MAX;
	if (cp->uw < 0)
		cp->exact = false;
}

int64_t supply_capacity_mw(const struct rk_design *d, uint32_t obj)
{
	struct supply_cap cp;

	supply_capacity(d, obj, &cp);
	return cp.mw;
}

const char *supply_format(const struct supply_cap *cp, char *buf)
{
	static const struct {
		const char *sym;
		uint64_t uw, digits;
	} units[] = {
		{ "MW", 1000000000000ULL, 12 },
		{ "kW", 1000000000ULL, 9 },
		{ "W", 1000000ULL, 6 },
		{ "mW", 1000ULL, 3 },
	};
	uint64_t v, s;
	unsigned k = 0;
	char frac[16];
	int n;

	if (cp->uw < 0) {
		struct quantity q = { DIM_POWER, cp->mw };

		return quantity_format(q, buf);
	}
	v = (uint64_t)cp->uw;
	while (k + 1 < ARRAY_SIZE(units) && v < units[k].uw)
		k++;
	s = units[k].uw;
	n = snprintf(frac, sizeof(frac), "%0*llu", (int)units[k].digits,
		     (unsigned long long)(v % s));
	while (cp->exact && n > 0 && frac[n - 1] == '0')
		frac[--n] = '\0';
	snprintf(buf, RK_QFMT_MAX, "%llu%s%s%s%s", (unsigned long long)(v / s),
		 n ? "." : "", frac, cp->exact ? "" : "...", units[k].sym);
	return buf;
}

struct rack_src {
	uint32_t rack, feed;
	int64_t mw;
};

/* a + b for non-negative powers, saturated */
static int64_t add_mw(int64_t a, int64_t b)
{
	int64_t t;

	return q_add(a, b, &t) ? t : INT64_MAX;
}

static int src_cmp(const void *x, const void *y)
{
	const struct rack_src *a = x, *b = y;

	if (a->rack != b->rack)
		return a->rack < b->rack ? -1 : 1;
	if (a->feed != b->feed)
		return a->feed < b->feed ? -1 : 1;
	return 0;
}

/*
 * Capacity each rack keeps when its worst feed fails (report.json's
 * power_capacity_w): the capacities above of the PDUs and power shelves
 * mounted in the rack (declared in it or naming it), grouped by feed;
 * with two or more feeds, the total less the largest feed's share (a
 * supply on no feed never fails).
 */
int64_t *supply_rack_capacities(const struct rk_design *d)
{
	int64_t *total = xcalloc(d->nobjs + 1, sizeof(*total));
	struct rack_src *s = NULL;
	uint32_t ns = 0, scap = 0;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_value *f;
		struct rack_src *x;
		uint32_t r;

		if (d->objs[i].kind != K_DEVICE ||
		    (d->objs[i].cls != C_PDU &&
		     d->objs[i].cls != C_POWER_SHELF))
			continue;
		r = layout_rack_of(d, i);
		if (r == RK_NONE)
			continue;
		f = ir_attr_inh(d, i, A_FEED);
		x = VEC_PUSH(s, ns, scap);
		x->rack = r;
		x->feed = f && f->type == VT_OBJ ? f->a : RK_NONE;
		x->mw = supply_capacity_mw(d, i);
	}
	if (ns)
		qsort(s, ns, sizeof(*s), src_cmp);
	for (uint32_t i = 0; i < ns;) {
		uint32_t r = s[i].rack, feeds = 0;
		int64_t worst = 0;

		while (i < ns && s[i].rack == r) {
			uint32_t f = s[i].feed;
			int64_t share = 0;

			for (; i < ns && s[i].rack == r && s[i].feed == f; i++)
				share = add_mw(share, s[i].mw);
			total[r] = add_mw(total[r], share);
			if (f == RK_NONE)
				continue;
			feeds++;
			if (share > worst)
				worst = share;
		}
		if (feeds >= 2)
			total[r] -= worst;
	}
	free(s);
	return total;
}
