/* SPDX-License-Identifier: MIT */
/*
 * Exact integer arithmetic shared by every stage: the 128-bit types,
 * saturating and checked add and multiply, integer square root and
 * greatest common divisor.  Header only: every helper is a few
 * instructions, inlined where it is used.
 *
 * The overflow policy, one for the whole compiler:
 *
 *  - A quantity a design states (a literal, an attribute, an expression)
 *    is checked: arith_add(), arith_sub(), arith_mul() report overflow and
 *    the caller turns it into a diagnostic.  Nothing the user wrote ever
 *    wraps or is silently clamped.
 *  - A figure the compiler derives by summing or multiplying quantities
 *    (a rack's load, a fleet's FLOP/s, a bandwidth total) saturates at the
 *    end of its type's range: arith_sat64() and arith_sadd() for int64_t,
 *    arith_usadd() and arith_sat_u64() for uint64_t, arith_usadd32() for
 *    counters.  Whoever formats a figure that reached the end of the range
 *    prints it as "at least" that figure (check_qfmt()).
 *  - Capacities in a flow network saturate at a caller's "infinite"
 *    capacity, well below INT64_MAX (arith_capadd()), so that the sum of
 *    two of them, before the comparison, still fits.
 *  - A product or quotient whose operands fit in 64 bits is computed in
 *    128 bits (i128, u128) and only its result is saturated or checked.
 *
 * Local copies of these helpers and local 128-bit typedefs are refused by
 * tests/lint.sh.
 */
#ifndef RACKC_ARITH_H
#define RACKC_ARITH_H

#include <stdbool.h>
#include <stdint.h>

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

#define ARITH_U128_MAX (~(u128)0)

/* ---- checked: false on overflow, *r untouched ---- */

static inline bool arith_add(int64_t a, int64_t b, int64_t *r)
{
	int64_t t;

	if (__builtin_add_overflow(a, b, &t))
		return false;
	*r = t;
	return true;
}

static inline bool arith_sub(int64_t a, int64_t b, int64_t *r)
{
	int64_t t;

	if (__builtin_sub_overflow(a, b, &t))
		return false;
	*r = t;
	return true;
}

static inline bool arith_mul(int64_t a, int64_t b, int64_t *r)
{
	int64_t t;

	if (__builtin_mul_overflow(a, b, &t))
		return false;
	*r = t;
	return true;
}

/* ---- saturating ---- */

/* @v clamped to the int64_t range. */
static inline int64_t arith_sat64(i128 v)
{
	if (v > INT64_MAX)
		return INT64_MAX;
	if (v < INT64_MIN)
		return INT64_MIN;
	return (int64_t)v;
}

/* @v clamped to UINT64_MAX. */
static inline uint64_t arith_sat_u64(u128 v)
{
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

/* a + b, clamped to the int64_t range. */
static inline int64_t arith_sadd(int64_t a, int64_t b)
{
	return arith_sat64((i128)a + b);
}

/* a * b, clamped to the int64_t range. */
static inline int64_t arith_smul(int64_t a, int64_t b)
{
	return arith_sat64((i128)a * b);
}

/* a + b, clamped to UINT64_MAX. */
static inline uint64_t arith_usadd(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* a + b, clamped to UINT32_MAX. */
static inline uint32_t arith_usadd32(uint32_t a, uint32_t b)
{
	return b > UINT32_MAX - a ? UINT32_MAX : a + b;
}

/*
 * a + b for capacities 0 <= a, b <= @cap, saturating at @cap (a flow
 * network's "infinite" capacity).
 */
static inline int64_t arith_capadd(int64_t a, int64_t b, int64_t cap)
{
	return a >= cap - b ? cap : a + b;
}

/*
 * num / den for den > 0, rounded up (@up) or down, clamped to UINT64_MAX:
 * a lower bound is rounded down, so that it stays one, and an estimate up.
 */
static inline uint64_t arith_div_u128(u128 num, u128 den, bool up)
{
	return arith_sat_u64(num / den + (up && num % den != 0));
}

/* ---- number theory ---- */

/* The greatest common divisor of @a and @b (>= 0); gcd(a, 0) = a. */
static inline int64_t arith_gcd64(int64_t a, int64_t b)
{
	while (b) {
		int64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* The greatest common divisor of |a| and |b|; gcd(0, 0) = 0. */
static inline i128 arith_gcd128(i128 a, i128 b)
{
	if (a < 0)
		a = -a;
	if (b < 0)
		b = -b;
	while (b) {
		i128 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* floor(sqrt(x)), exactly, digit by digit (no floating point). */
static inline uint64_t arith_isqrt(u128 x)
{
	u128 r = 0, bit = (u128)1 << 126;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return (uint64_t)r;
}

#endif
