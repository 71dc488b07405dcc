/* SPDX-License-Identifier: MIT */
/*
 * Exact quantities.  Every quantity is an int64_t in the one base unit of its
 * dimension; literals are parsed from their decimal text without floating
 * point, and a literal that is not a whole number of base units is an error.
 *
 *   dimension   base unit        literal suffixes
 *   power       milliwatt        mW W kW MW
 *   length      micrometre       um mm cm m km in ft
 *   mass        gram             g kg t
 *   rate        bit per second   b/s kb/s Mb/s Gb/s Tb/s B/s kB/s MB/s GB/s TB/s
 *                                (also bps Kbps Mbps Gbps Tbps)
 *   bytes       byte             B kB MB GB TB PB KiB MiB GiB TiB
 *   current     milliampere      mA A
 *   voltage     millivolt        mV V kV
 *   temperature millidegree      C (Celsius) K (a difference in kelvin)
 *   flow        millilitre/min   mL/min L/min L/s
 *   rack units  1 U              U
 *   money       US cent          USD
 *   ratio       part per million ppm %
 *   compute     FLOP per second  FLOP/s GFLOP/s TFLOP/s PFLOP/s EFLOP/s
 *   time        nanosecond       ns us ms s
 *
 * A plain number (no suffix) is dimensionless and must be an integer.
 */
#ifndef RACKC_UNITS_H
#define RACKC_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dim {
	DIM_NONE,
	DIM_POWER,
	DIM_LENGTH,
	DIM_MASS,
	DIM_RATE,
	DIM_BYTES,
	DIM_CURRENT,
	DIM_VOLTAGE,
	DIM_TEMP,
	DIM_FLOW,
	DIM_RACKU,
	DIM_MONEY,
	DIM_RATIO,
	DIM_FLOPS,
	DIM_TIME,
	DIM__COUNT
};

/* One million: the ratio base (100% == RK_RATIO_ONE). */
#define RK_RATIO_ONE 1000000

struct quantity {
	enum dim dim;
	int64_t v;
};

enum unit_status {
	UNIT_OK,
	UNIT_BAD_NUMBER, /* malformed digits or exponent */
	UNIT_UNKNOWN,	 /* suffix is not a known unit */
	UNIT_OVERFLOW,	 /* does not fit in 64 bits of base units */
	UNIT_INEXACT,	 /* not a whole number of base units */
};

/*
 * Parse a literal such as "10.2kW", "400Gb/s", "1e15" or "80%" from text[0..n).
 * On UNIT_UNKNOWN, *suffix_at is the offset of the suffix.
 */
enum unit_status unit_parse(const char *text, size_t n, struct quantity *out,
			    size_t *suffix_at);

/* Name of a dimension for messages: "power", "length", ... */
const char *dim_name(enum dim d);
/* Base-unit symbol of a dimension: "mW", "um", ... ("" for none). */
const char *dim_base_unit(enum dim d);
/* The best suffix to suggest for an unknown one, or NULL. */
const char *unit_suggest(const char *suffix, size_t n);

/*
 * Format a quantity exactly, in the largest display unit whose magnitude is
 * at least 1 (e.g. 10200000 mW -> "10.2kW", 0 -> "0W").  The result parses
 * back to the same quantity.  buf must hold RK_QFMT_MAX bytes.
 */
#define RK_QFMT_MAX 48
const char *quantity_format(struct quantity q, char *buf);
/*
 * Format in a fixed unit with the given suffix, e.g. quantity_format_in(q,
 * "kW", buf).  Exact (as many decimals as needed).  Returns NULL when the
 * suffix is not a unit of q's dimension.
 */
const char *quantity_format_in(struct quantity q, const char *unit, char *buf);

/* Checked arithmetic: false on overflow or division by zero. */
bool q_add(int64_t a, int64_t b, int64_t *r);
bool q_sub(int64_t a, int64_t b, int64_t *r);
bool q_mul(int64_t a, int64_t b, int64_t *r);
/* Truncating division and remainder (C semantics), false on b == 0 or overflow. */
bool q_div(int64_t a, int64_t b, int64_t *r);
bool q_mod(int64_t a, int64_t b, int64_t *r);
/* a * b / c without intermediate overflow (128-bit), truncated; false on overflow. */
bool q_muldiv(int64_t a, int64_t b, int64_t c, int64_t *r);

#endif
