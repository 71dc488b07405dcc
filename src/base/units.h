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

/*
 * Format a quantity for people: text diagnostics, SVG, HTML and pull lists
 * print figures with this (JSON, CSV and the canonical form keep exact
 * values, quantity_format).  The unit is the largest display unit whose
 * magnitude is at least 1, as quantity_format picks it, and the figure is
 * rounded (half away from zero) to that unit's decimals:
 *
 *   power   MW 2, kW 1, W 1, mW 0       length  m 2 (the centimetre), mm 0
 *   mass    kg 1                        rate    Tb/s 2, Gb/s 1, Mb/s 1
 *   bytes   PB..kB 2                    current A 1;  voltage V 1
 *   temperature C 1                     flow    L/min 1
 *   money   USD 2                       compute PFLOP/s..GFLOP/s 2
 *   time    s 3, ms 1, us 1             ratio   three significant figures
 *                                               (at most 4 decimals of %)
 *
 * A figure that the rounding leaves unchanged prints exact, without
 * trailing zeros ("10kW", "2.5m"); a rounded one keeps its decimals, so a
 * trailing zero marks it ("69.0kW" is 69.004904kW).  A figure that rounds
 * up to the next unit takes it ("999.96W" prints "1.0kW").
 */
const char *quantity_human(struct quantity q, char *buf);
/*
 * Two figures of one dimension that a message compares ("needs A, has
 * B"): each as quantity_human prints it, unless the rounding would hide or
 * reverse their order (A < B printing as equal, or A == B as different);
 * then both in the unit of the larger, with as many decimals as it takes
 * for the printed figures to compare as the exact ones do (at most exact).
 * ba and bb hold RK_QFMT_MAX bytes each.
 */
void quantity_human_pair(struct quantity a, struct quantity b, char *ba,
			 char *bb);

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
