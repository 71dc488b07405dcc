/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for units.c: literal parsing in every dimension, the exactness
 * and overflow rules, malformed numbers, unknown suffixes and suggestions,
 * exact formatting with round trips, and checked arithmetic.
 */
#include <criterion/criterion.h>

#include <stdlib.h>

#include "rackc.h"
#include "arith.h"
#include "opts.h"
#include "units.h"

static enum unit_status parse(const char *s, struct quantity *q)
{
	size_t at = SIZE_MAX;

	return unit_parse(s, strlen(s), q, &at);
}

/* Parse s, which must be OK, of dimension d and value v. */
static void expect(const char *s, enum dim d, int64_t v)
{
	struct quantity q = { DIM__COUNT, -42 };
	enum unit_status st = parse(s, &q);

	cr_assert_eq(st, UNIT_OK, "\"%s\": status %d", s, (int)st);
	cr_assert_eq(q.dim, d, "\"%s\": dim %s, want %s", s, dim_name(q.dim),
		     dim_name(d));
	cr_assert_eq(q.v, v, "\"%s\": %lld, want %lld", s, (long long)q.v,
		     (long long)v);
}

static void expect_status(const char *s, enum unit_status want)
{
	struct quantity q;
	enum unit_status st = parse(s, &q);

	cr_assert_eq(st, want, "\"%s\": status %d, want %d", s, (int)st,
		     (int)want);
}

/* Parse s, expect UNIT_UNKNOWN with the suffix at offset at. */
static void expect_unknown(const char *s, size_t at)
{
	struct quantity q;
	size_t got = SIZE_MAX;
	enum unit_status st = unit_parse(s, strlen(s), &q, &got);

	cr_assert_eq(st, UNIT_UNKNOWN, "\"%s\": status %d", s, (int)st);
	cr_assert_eq(got, at, "\"%s\": suffix at %zu, want %zu", s, got, at);
}

Test(units, power)
{
	expect("1mW", DIM_POWER, 1);
	expect("1W", DIM_POWER, 1000);
	expect("10.2kW", DIM_POWER, 10200000);
	expect("2MW", DIM_POWER, 2000000000);
	expect("0.001W", DIM_POWER, 1);
	expect("-1.5W", DIM_POWER, -1500);
}

Test(units, length)
{
	expect("7um", DIM_LENGTH, 7);
	expect("1.5mm", DIM_LENGTH, 1500);
	expect("2cm", DIM_LENGTH, 20000);
	expect("1m", DIM_LENGTH, 1000000);
	expect("0.6m", DIM_LENGTH, 600000);
	expect("3km", DIM_LENGTH, 3000000000);
	expect("1in", DIM_LENGTH, 25400);
	expect("19in", DIM_LENGTH, 482600);
	expect("1ft", DIM_LENGTH, 304800);
	expect("0.5in", DIM_LENGTH, 12700);
}

Test(units, mass)
{
	expect("5g", DIM_MASS, 5);
	expect("1.25kg", DIM_MASS, 1250);
	expect("2t", DIM_MASS, 2000000);
	expect("0.001t", DIM_MASS, 1000);
}

Test(units, rate)
{
	expect("1b/s", DIM_RATE, 1);
	expect("1kb/s", DIM_RATE, 1000);
	expect("25Mb/s", DIM_RATE, 25000000);
	expect("400Gb/s", DIM_RATE, 400000000000);
	expect("1.6Tb/s", DIM_RATE, 1600000000000);
	expect("1B/s", DIM_RATE, 8);
	expect("1kB/s", DIM_RATE, 8000);
	expect("1MB/s", DIM_RATE, 8000000);
	expect("1GB/s", DIM_RATE, 8000000000);
	expect("2TB/s", DIM_RATE, 16000000000000);
	expect("0.125B/s", DIM_RATE, 1);
	expect("100bps", DIM_RATE, 100);
	expect("56Kbps", DIM_RATE, 56000);
	expect("10Mbps", DIM_RATE, 10000000);
	expect("100Gbps", DIM_RATE, 100000000000);
	expect("3.2Tbps", DIM_RATE, 3200000000000);
}

Test(units, bytes)
{
	expect("1B", DIM_BYTES, 1);
	expect("4kB", DIM_BYTES, 4000);
	expect("1MB", DIM_BYTES, 1000000);
	expect("80GB", DIM_BYTES, 80000000000);
	expect("1.5TB", DIM_BYTES, 1500000000000);
	expect("2PB", DIM_BYTES, 2000000000000000);
	expect("1KiB", DIM_BYTES, 1024);
	expect("0.5KiB", DIM_BYTES, 512);
	expect("1MiB", DIM_BYTES, 1048576);
	expect("141GiB", DIM_BYTES, INT64_C(141) << 30);
	expect("1TiB", DIM_BYTES, INT64_C(1) << 40);
	/* 2^-40 TiB is exactly one byte: forty decimals. */
	expect("0.0000000000009094947017729282379150390625TiB", DIM_BYTES, 1);
	expect_status("0.001KiB", UNIT_INEXACT);
}

Test(units, current_voltage_temp)
{
	expect("20mA", DIM_CURRENT, 20);
	expect("32A", DIM_CURRENT, 32000);
	expect("1.2A", DIM_CURRENT, 1200);
	expect("800mV", DIM_VOLTAGE, 800);
	expect("54V", DIM_VOLTAGE, 54000);
	expect("0.8V", DIM_VOLTAGE, 800);
	expect("13.8kV", DIM_VOLTAGE, 13800000);
	expect("32C", DIM_TEMP, 32000);
	expect("-5.5C", DIM_TEMP, -5500);
	expect("10K", DIM_TEMP, 10000);
	expect("0.001K", DIM_TEMP, 1);
}

Test(units, flow_racku_money_ratio)
{
	expect("500mL/min", DIM_FLOW, 500);
	expect("1.5L/min", DIM_FLOW, 1500);
	expect("1L/s", DIM_FLOW, 60000);
	expect("0.5L/s", DIM_FLOW, 30000);
	expect("42U", DIM_RACKU, 42);
	expect_status("1.5U", UNIT_INEXACT);
	expect("1USD", DIM_MONEY, 100);
	expect("19.99USD", DIM_MONEY, 1999);
	expect_status("0.001USD", UNIT_INEXACT);
	expect("80%", DIM_RATIO, 800000);
	expect("100%", DIM_RATIO, RK_RATIO_ONE);
	expect("0.0005%", DIM_RATIO, 5);
	expect("250ppm", DIM_RATIO, 250);
}

Test(units, plain_numbers)
{
	expect("0", DIM_NONE, 0);
	expect("42", DIM_NONE, 42);
	expect("-7", DIM_NONE, -7);
	expect("+7", DIM_NONE, 7);
	expect("007", DIM_NONE, 7);
	expect("1e15", DIM_NONE, 1000000000000000);
	expect("1E3", DIM_NONE, 1000);
	expect("9223372036854775807", DIM_NONE, INT64_MAX);
	expect("-9223372036854775808", DIM_NONE, INT64_MIN);
	expect("1.0", DIM_NONE, 1);
	expect("2.50e1", DIM_NONE, 25);
	expect_status("1.5", UNIT_INEXACT);
	expect_status("1e-1", UNIT_INEXACT);
}

Test(units, exponents)
{
	expect("1.5e3W", DIM_POWER, 1500000);
	expect("1e-3W", DIM_POWER, 1);
	expect("25e+2mW", DIM_POWER, 2500);
	expect("1000e-3", DIM_NONE, 1);
	expect("0e999999999", DIM_NONE, 0);
	expect("0.0e-999999999W", DIM_POWER, 0);
	expect("12345e-2kW", DIM_POWER, 123450000);
	expect("9.223372036854775807e18", DIM_NONE, INT64_MAX);
	expect("1e1_0", DIM_NONE, 10000000000);
	/* The trailing zeros cancel a huge negative exponent. */
	expect("100000000000000000000000000000e-29", DIM_NONE, 1);
}

Test(units, digit_separators)
{
	expect("1_000", DIM_NONE, 1000);
	expect("1_000_000W", DIM_POWER, 1000000000);
	expect("1_0.2_5kW", DIM_POWER, 10250000);
	expect_status("1__000", UNIT_BAD_NUMBER);
	expect_status("_1", UNIT_BAD_NUMBER);
	expect_status("1_", UNIT_BAD_NUMBER);
	expect_status("1_kW", UNIT_BAD_NUMBER);
	expect_status("1_.5", UNIT_BAD_NUMBER);
	expect_status("1._5", UNIT_BAD_NUMBER);
	expect_status("1e_5", UNIT_BAD_NUMBER);
}

Test(units, inexact)
{
	expect_status("0.0001mW", UNIT_INEXACT);
	expect_status("0.5mW", UNIT_INEXACT);
	expect_status("1.5", UNIT_INEXACT);
	expect_status("0.1um", UNIT_INEXACT);
	expect_status("0.0625B/s", UNIT_INEXACT);
	expect_status("1e-999999999", UNIT_INEXACT);
	expect_status("1e-999999999999999999999999W", UNIT_INEXACT);
	/* Inexact is reported even when the value is also too large. */
	expect_status("99999999999999999999.5", UNIT_INEXACT);
}

Test(units, overflow)
{
	expect_status("9223372036854775808", UNIT_OVERFLOW);
	expect_status("-9223372036854775809", UNIT_OVERFLOW);
	expect_status("10000000000000MW", UNIT_OVERFLOW);
	expect_status("9223372036854775.808W", UNIT_OVERFLOW);
	expect_status("1e19", UNIT_OVERFLOW);
	expect_status("1e999999999", UNIT_OVERFLOW);
	expect_status("1e99999999999999999999999999999", UNIT_OVERFLOW);
	expect_status("8388608TiB", UNIT_OVERFLOW);
	expect("-8388608TiB", DIM_BYTES, INT64_MIN);
	expect_status("1152921504606846976B/s", UNIT_OVERFLOW);
	expect("1152921504606846975B/s", DIM_RATE,
	       INT64_C(9223372036854775800));
}

Test(units, bad_number)
{
	expect_status("", UNIT_BAD_NUMBER);
	expect_status("-", UNIT_BAD_NUMBER);
	expect_status("kW", UNIT_BAD_NUMBER);
	expect_status(".5", UNIT_BAD_NUMBER);
	expect_status("1.", UNIT_BAD_NUMBER);
	expect_status("1.kW", UNIT_BAD_NUMBER);
	expect_status("1.e5", UNIT_BAD_NUMBER);
	expect_status("1e", UNIT_BAD_NUMBER);
	expect_status("1E", UNIT_BAD_NUMBER);
	expect_status("1e+", UNIT_BAD_NUMBER);
	expect_status("1e-W", UNIT_BAD_NUMBER);
	expect_status("1.2.3", UNIT_BAD_NUMBER);
	expect_status("--1", UNIT_BAD_NUMBER);
	expect_status("1e5.5", UNIT_BAD_NUMBER);
	expect_status("1e5_", UNIT_BAD_NUMBER);
}

Test(units, length_is_respected)
{
	struct quantity q;

	/* Only text[0..n) is read: "10kWh" cut to "10kW". */
	cr_assert_eq(unit_parse("10kWh", 4, &q, NULL), UNIT_OK);
	cr_assert_eq(q.dim, DIM_POWER);
	cr_assert_eq(q.v, 10000000);
	cr_assert_eq(unit_parse("1.5e3", 3, &q, NULL), UNIT_INEXACT);
	cr_assert_eq(unit_parse("", 0, &q, NULL), UNIT_BAD_NUMBER);
}

Test(units, unknown_suffix)
{
	expect_unknown("10kw", 2);
	expect_unknown("400gbps", 3);
	expect_unknown("1.5e3Gbs", 5);
	expect_unknown("-2xyz", 2);
	expect_unknown("10 kW", 2);
	expect_unknown("3W ", 1);
	expect_unknown("1kWh", 1);
	expect_unknown("1e5e3", 3);
	/* The unknown suffix wins over an inexact or huge number. */
	expect_unknown("0.0001kw", 6);
	expect_unknown("1e999999999zz", 11);
}

Test(units, suggest)
{
	cr_assert_str_eq(unit_suggest("kw", 2), "kW");
	cr_assert_str_eq(unit_suggest("KW", 2), "kW");
	cr_assert_str_eq(unit_suggest("mw", 2), "mW");
	cr_assert_str_eq(unit_suggest("gbps", 4), "Gbps");
	cr_assert_str_eq(unit_suggest("Gbs", 3), "Gb/s");
	cr_assert_str_eq(unit_suggest("gb/s", 4), "Gb/s");
	cr_assert_str_eq(unit_suggest("GB/S", 4), "GB/s");
	cr_assert_str_eq(unit_suggest("kWh", 3), "kW");
	cr_assert_str_eq(unit_suggest("ml/min", 6), "mL/min");
	cr_assert_str_eq(unit_suggest("L/mn", 4), "L/min");
	cr_assert_str_eq(unit_suggest("usd", 3), "USD");
	cr_assert_str_eq(unit_suggest("KB", 2), "kB");
	cr_assert_str_eq(unit_suggest("kib", 3), "KiB");
	cr_assert_str_eq(unit_suggest("w", 1), "W");
	cr_assert_str_eq(unit_suggest("\xc2\xb5m", 3), "um");
	cr_assert_str_eq(unit_suggest("kgx", 2), "kg");
	cr_assert_null(unit_suggest("x", 1));
	cr_assert_null(unit_suggest("", 0));
	cr_assert_null(unit_suggest("furlongs", 8));
	cr_assert_null(unit_suggest("xyz", 3));
	cr_assert_null(unit_suggest("averyveryverylongsuffix", 23));
}

Test(units, names)
{
	cr_assert_str_eq(dim_name(DIM_POWER), "power");
	cr_assert_str_eq(dim_name(DIM_LENGTH), "length");
	cr_assert_str_eq(dim_name(DIM_TEMP), "temperature");
	cr_assert_str_eq(dim_name(DIM_NONE), "dimensionless");
	cr_assert_str_eq(dim_base_unit(DIM_POWER), "mW");
	cr_assert_str_eq(dim_base_unit(DIM_LENGTH), "um");
	cr_assert_str_eq(dim_base_unit(DIM_RATE), "b/s");
	cr_assert_str_eq(dim_base_unit(DIM_BYTES), "B");
	cr_assert_str_eq(dim_base_unit(DIM_NONE), "");
	for (int d = 0; d < DIM__COUNT; d++) {
		cr_assert_not_null(dim_name((enum dim)d));
		cr_assert_gt(strlen(dim_name((enum dim)d)), 0);
		cr_assert_not_null(dim_base_unit((enum dim)d));
	}
}

static void expect_fmt(enum dim d, int64_t v, const char *want)
{
	char buf[RK_QFMT_MAX];
	struct quantity q = { d, v };

	cr_assert_str_eq(quantity_format(q, buf), want, "%s %lld", dim_name(d),
			 (long long)v);
}

Test(units, format)
{
	expect_fmt(DIM_POWER, 10200000, "10.2kW");
	expect_fmt(DIM_POWER, -1500, "-1.5W");
	expect_fmt(DIM_POWER, 999, "999mW");
	expect_fmt(DIM_POWER, 2500000000, "2.5MW");
	expect_fmt(DIM_LENGTH, 3000000000, "3000m");
	expect_fmt(DIM_LENGTH, 600000, "600mm");
	expect_fmt(DIM_LENGTH, 482600, "482.6mm");
	expect_fmt(DIM_LENGTH, 999, "999um");
	expect_fmt(DIM_MASS, 2000000, "2000kg");
	expect_fmt(DIM_MASS, 1250, "1.25kg");
	expect_fmt(DIM_MASS, 5, "5g");
	expect_fmt(DIM_RATE, 400000000000, "400Gb/s");
	expect_fmt(DIM_RATE, 1600000000000, "1.6Tb/s");
	expect_fmt(DIM_RATE, 8, "8b/s");
	expect_fmt(DIM_RATE, 56000, "56kb/s");
	expect_fmt(DIM_BYTES, 80000000000, "80GB");
	expect_fmt(DIM_BYTES, 1024, "1.024kB");
	expect_fmt(DIM_BYTES, 2000000000000000000, "2000PB");
	expect_fmt(DIM_CURRENT, 32000, "32A");
	expect_fmt(DIM_CURRENT, 20, "20mA");
	expect_fmt(DIM_VOLTAGE, 13800000, "13800V");
	expect_fmt(DIM_VOLTAGE, 800, "800mV");
	expect_fmt(DIM_TEMP, 32000, "32C");
	expect_fmt(DIM_TEMP, 1, "0.001C");
	expect_fmt(DIM_TEMP, -5500, "-5.5C");
	expect_fmt(DIM_FLOW, 60000, "60L/min");
	expect_fmt(DIM_FLOW, 500, "500mL/min");
	expect_fmt(DIM_RACKU, 42, "42U");
	expect_fmt(DIM_MONEY, 1999, "19.99USD");
	expect_fmt(DIM_MONEY, 1, "0.01USD");
	expect_fmt(DIM_RATIO, 800000, "80%");
	expect_fmt(DIM_RATIO, 5, "0.0005%");
	expect_fmt(DIM_RATIO, RK_RATIO_ONE, "100%");
	expect_fmt(DIM_NONE, 1000000000000000, "1000000000000000");
	expect_fmt(DIM_NONE, -7, "-7");
}

Test(units, format_zero)
{
	expect_fmt(DIM_POWER, 0, "0W");
	expect_fmt(DIM_LENGTH, 0, "0m");
	expect_fmt(DIM_MASS, 0, "0kg");
	expect_fmt(DIM_RATE, 0, "0Gb/s");
	expect_fmt(DIM_BYTES, 0, "0B");
	expect_fmt(DIM_CURRENT, 0, "0A");
	expect_fmt(DIM_VOLTAGE, 0, "0V");
	expect_fmt(DIM_TEMP, 0, "0C");
	expect_fmt(DIM_FLOW, 0, "0L/min");
	expect_fmt(DIM_RACKU, 0, "0U");
	expect_fmt(DIM_MONEY, 0, "0USD");
	expect_fmt(DIM_RATIO, 0, "0%");
	expect_fmt(DIM_NONE, 0, "0");
}

Test(units, format_extremes)
{
	expect_fmt(DIM_NONE, INT64_MAX, "9223372036854775807");
	expect_fmt(DIM_NONE, INT64_MIN, "-9223372036854775808");
	expect_fmt(DIM_POWER, INT64_MIN, "-9223372036.854775808MW");
	expect_fmt(DIM_POWER, INT64_MAX, "9223372036.854775807MW");
	expect_fmt(DIM_BYTES, INT64_MIN, "-9223.372036854775808PB");
	expect_fmt(DIM_RATIO, INT64_MIN, "-922337203685477.5808%");
	expect_fmt(DIM_LENGTH, INT64_MIN, "-9223372036854.775808m");
}

static void round_trip(enum dim d, int64_t v)
{
	char buf[RK_QFMT_MAX], in[RK_QFMT_MAX];
	struct quantity q = { d, v }, back;
	const char *s = quantity_format(q, buf);
	enum unit_status st = parse(s, &back);

	cr_assert_eq(st, UNIT_OK, "%s %lld -> \"%s\": status %d", dim_name(d),
		     (long long)v, s, (int)st);
	cr_assert_eq(back.dim, d, "\"%s\"", s);
	cr_assert_eq(back.v, v, "%s %lld -> \"%s\" -> %lld", dim_name(d),
		     (long long)v, s, (long long)back.v);

	/* Every unit of the dimension: exact when it answers at all. */
	s = quantity_format_in(q, dim_base_unit(d), in);
	if (d != DIM_TEMP && d != DIM_MONEY) {
		cr_assert_not_null(s, "%s in base unit", dim_name(d));
		cr_assert_eq(parse(s, &back), UNIT_OK, "\"%s\"", s);
		cr_assert_eq(back.v, v, "\"%s\"", s);
	}
}

Test(units, format_round_trips)
{
	static const int64_t vals[] = {
		0,
		1,
		-1,
		2,
		7,
		9,
		10,
		99,
		100,
		999,
		1000,
		1001,
		-1500,
		12345,
		999999,
		1000000,
		1000001,
		123456789,
		1000000000,
		999999999999,
		1000000000000,
		1000000000000000,
		4611686018427387904,
		INT64_MAX,
		INT64_MAX - 1,
		INT64_MIN,
		INT64_MIN + 1,
		-1000000000000000000,
	};
	uint64_t x = 88172645463325252u;

	for (int d = 0; d < DIM__COUNT; d++) {
		for (size_t i = 0; i < ARRAY_SIZE(vals); i++)
			round_trip((enum dim)d, vals[i]);
		/* And pseudo-random values of every magnitude. */
		for (int i = 0; i < 400; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			round_trip((enum dim)d,
				   (int64_t)(x >> (i % 63)) * (i & 1 ? -1 : 1));
		}
	}
}

static void expect_in(enum dim d, int64_t v, const char *unit, const char *want)
{
	char buf[RK_QFMT_MAX];
	struct quantity q = { d, v };
	const char *s = quantity_format_in(q, unit, buf);

	if (!want) {
		cr_assert_null(s, "%lld in %s gave \"%s\"", (long long)v, unit,
			       s);
		return;
	}
	cr_assert_not_null(s, "%lld in %s", (long long)v, unit);
	cr_assert_str_eq(s, want);
}

Test(units, format_in)
{
	expect_in(DIM_POWER, 10200000, "kW", "10.2kW");
	expect_in(DIM_POWER, 10200000, "W", "10200W");
	expect_in(DIM_POWER, 10200000, "MW", "0.0102MW");
	expect_in(DIM_POWER, -1, "MW", "-0.000000001MW");
	expect_in(DIM_POWER, 0, "kW", "0kW");
	expect_in(DIM_LENGTH, 482600, "in", "19in");
	expect_in(DIM_LENGTH, 12700, "in", "0.5in");
	expect_in(DIM_LENGTH, 3000000000, "km", "3km");
	expect_in(DIM_RATE, 8000000000, "GB/s", "1GB/s");
	expect_in(DIM_RATE, 400000000000, "Gbps", "400Gbps");
	expect_in(DIM_RATE, 1, "B/s", "0.125B/s");
	expect_in(DIM_BYTES, 512, "KiB", "0.5KiB");
	expect_in(DIM_BYTES, 1, "TiB",
		  "0.0000000000009094947017729282379150390625TiB");
	expect_in(DIM_BYTES, INT64_MIN, "TiB", "-8388608TiB");
	expect_in(DIM_FLOW, 30000, "L/s", "0.5L/s");
	expect_in(DIM_TEMP, 10000, "K", "10K");
	expect_in(DIM_MONEY, 1999, "USD", "19.99USD");
	expect_in(DIM_RATIO, 800000, "ppm", "800000ppm");
	expect_in(DIM_NONE, -5, "", "-5");
	/* Not of the quantity's dimension, or not a unit at all. */
	expect_in(DIM_POWER, 1000, "A", NULL);
	expect_in(DIM_POWER, 1000, "kw", NULL);
	expect_in(DIM_POWER, 1000, "", NULL);
	expect_in(DIM_NONE, 1000, "W", NULL);
	/* No exact decimal: 1um is 1/25400in. */
	expect_in(DIM_LENGTH, 1, "in", NULL);
	expect_in(DIM_FLOW, 1, "L/s", NULL);
	/* Exact, but 40 decimals of 2^-40 do not fit RK_QFMT_MAX. */
	expect_in(DIM_BYTES, INT64_MAX, "TiB", NULL);
}

Test(units, format_in_round_trips)
{
	static const char *const syms[] = {
		"mW",	"W",	"kW",	"MW",	"um",	  "mm",	   "cm",
		"m",	"km",	"in",	"ft",	"g",	  "kg",	   "t",
		"b/s",	"kb/s", "Mb/s", "Gb/s", "Tb/s",	  "B/s",   "kB/s",
		"MB/s", "GB/s", "TB/s", "bps",	"Kbps",	  "Mbps",  "Gbps",
		"Tbps", "B",	"kB",	"MB",	"GB",	  "TB",	   "PB",
		"KiB",	"MiB",	"GiB",	"TiB",	"mA",	  "A",	   "mV",
		"V",	"kV",	"C",	"K",	"mL/min", "L/min", "L/s",
		"U",	"USD",	"ppm",	"%",
	};
	static const int64_t vals[] = {
		0,
		1,
		-1,
		8,
		1000,
		25400,
		304800,
		60000,
		1048576,
		1099511627776,
		999999999999,
		INT64_MAX,
		INT64_MIN,
	};
	char buf[RK_QFMT_MAX];
	int answered = 0;

	for (size_t i = 0; i < ARRAY_SIZE(syms); i++) {
		struct quantity u;
		char lit[16] = "1";

		/* Learn the unit's dimension by parsing "1<unit>". */
		strcat(lit, syms[i]);
		cr_assert_eq(parse(lit, &u), UNIT_OK, "%s", lit);
		for (size_t j = 0; j < ARRAY_SIZE(vals); j++) {
			struct quantity q = { u.dim, vals[j] }, back;
			const char *s = quantity_format_in(q, syms[i], buf);

			if (!s)
				continue;
			answered++;
			cr_assert_eq(parse(s, &back), UNIT_OK, "\"%s\"", s);
			cr_assert_eq(back.dim, q.dim, "\"%s\"", s);
			cr_assert_eq(back.v, q.v, "\"%s\"", s);
		}
	}
	cr_assert_gt(answered, 300);
}

Test(units, huge_literals)
{
	size_t n = 10u << 20;
	char *s = malloc(n + 16);
	struct quantity q;

	cr_assert_not_null(s);
	/* 1 followed by ten million zeros. */
	s[0] = '1';
	memset(s + 1, '0', n - 1);
	cr_assert_eq(unit_parse(s, n, &q, NULL), UNIT_OVERFLOW);
	/* ... times 10^-(n-1) is exactly 1. */
	memcpy(s + n, "e-10485759", 10);
	cr_assert_eq(unit_parse(s, n + 10, &q, NULL), UNIT_OK);
	cr_assert_eq(q.v, 1);
	/* Ten million leading zeros, then 7. */
	memset(s, '0', n);
	s[n - 1] = '7';
	cr_assert_eq(unit_parse(s, n, &q, NULL), UNIT_OK);
	cr_assert_eq(q.v, 7);
	/* 0.000...0001 */
	s[1] = '.';
	s[n - 1] = '1';
	cr_assert_eq(unit_parse(s, n, &q, NULL), UNIT_INEXACT);
	/* Ten million nines with a fraction: inexact before overflow. */
	memset(s, '9', n);
	s[n - 3] = '.';
	cr_assert_eq(unit_parse(s, n, &q, NULL), UNIT_INEXACT);
	/* ... but in B/s, .99 * 8 is whole: overflow. */
	s[n - 2] = '2';
	s[n - 1] = '5';
	memcpy(s + n, "B/s", 3);
	cr_assert_eq(unit_parse(s, n + 3, &q, NULL), UNIT_OVERFLOW);
	/* Ten million exponent digits. */
	memcpy(s, "1e", 2);
	memset(s + 2, '9', n - 2);
	cr_assert_eq(unit_parse(s, n, &q, NULL), UNIT_OVERFLOW);
	s[2] = '-';
	cr_assert_eq(unit_parse(s, n, &q, NULL), UNIT_INEXACT);
	free(s);
}

Test(units, add_sub_mul)
{
	int64_t r = 123;

	cr_assert(q_add(2, 3, &r));
	cr_assert_eq(r, 5);
	cr_assert(q_add(INT64_MAX, INT64_MIN, &r));
	cr_assert_eq(r, -1);
	r = 123;
	cr_assert_not(q_add(INT64_MAX, 1, &r));
	cr_assert_eq(r, 123, "unchanged on failure");
	cr_assert_not(q_add(INT64_MIN, -1, &r));
	cr_assert(q_sub(5, 7, &r));
	cr_assert_eq(r, -2);
	cr_assert_not(q_sub(INT64_MIN, 1, &r));
	cr_assert_not(q_sub(0, INT64_MIN, &r));
	cr_assert(q_sub(-1, INT64_MIN, &r));
	cr_assert_eq(r, INT64_MAX);
	cr_assert(q_mul(-3000, 1000000, &r));
	cr_assert_eq(r, -3000000000);
	cr_assert_not(q_mul(INT64_MIN, -1, &r));
	cr_assert_not(q_mul(4294967296, 4294967296, &r));
	cr_assert(q_mul(INT64_MIN, 1, &r));
	cr_assert_eq(r, INT64_MIN);
}

Test(units, div_mod_muldiv)
{
	int64_t r = 123;

	cr_assert(q_div(7, 2, &r));
	cr_assert_eq(r, 3);
	cr_assert(q_div(-7, 2, &r));
	cr_assert_eq(r, -3);
	cr_assert_not(q_div(1, 0, &r));
	cr_assert_not(q_div(INT64_MIN, -1, &r));
	cr_assert(q_div(INT64_MIN, 1, &r));
	cr_assert_eq(r, INT64_MIN);
	cr_assert(q_mod(-7, 2, &r));
	cr_assert_eq(r, -1);
	cr_assert(q_mod(7, -2, &r));
	cr_assert_eq(r, 1);
	cr_assert_not(q_mod(7, 0, &r));
	cr_assert(q_mod(INT64_MIN, -1, &r));
	cr_assert_eq(r, 0);
	cr_assert(q_muldiv(INT64_MAX, INT64_MAX, INT64_MAX, &r));
	cr_assert_eq(r, INT64_MAX);
	cr_assert(q_muldiv(INT64_MIN, INT64_MIN, INT64_MIN, &r));
	cr_assert_eq(r, INT64_MIN);
	cr_assert(q_muldiv(10200000, 800000, RK_RATIO_ONE, &r));
	cr_assert_eq(r, 8160000);
	cr_assert(q_muldiv(-7, 1, 2, &r));
	cr_assert_eq(r, -3, "truncates toward zero");
	cr_assert(q_muldiv(7, -1, 2, &r));
	cr_assert_eq(r, -3);
	cr_assert_not(q_muldiv(INT64_MAX, 2, 1, &r));
	cr_assert_not(q_muldiv(INT64_MIN, -1, 1, &r));
	cr_assert_not(q_muldiv(1, 1, 0, &r));
	cr_assert(q_muldiv(INT64_MIN, -1, -1, &r));
	cr_assert_eq(r, INT64_MIN);
}

/* arith.h: the one overflow policy (figures by hand) */
Test(arith, saturating)
{
	int64_t r = 0;

	cr_assert_eq(arith_sadd(INT64_MAX - 2, 2), INT64_MAX);
	cr_assert_eq(arith_sadd(INT64_MAX - 2, 3), INT64_MAX);
	cr_assert_eq(arith_sadd(INT64_MIN + 1, -2), INT64_MIN);
	cr_assert_eq(arith_sadd(-5, 7), 2);
	/* 2^32 * 2^31 = 2^63 is one past INT64_MAX */
	cr_assert_eq(arith_smul((int64_t)1 << 32, (int64_t)1 << 31), INT64_MAX);
	cr_assert_eq(arith_smul(-((int64_t)1 << 32), (int64_t)1 << 31),
		     INT64_MIN);
	cr_assert_eq(arith_smul(-3, 7), -21);
	cr_assert_eq(arith_usadd(UINT64_MAX - 1, 1), UINT64_MAX);
	cr_assert_eq(arith_usadd(UINT64_MAX - 1, 2), UINT64_MAX);
	cr_assert_eq(arith_usadd32(UINT32_MAX, 1), UINT32_MAX);
	cr_assert_eq(arith_usadd32(40, 2), 42);
	cr_assert_eq(arith_capadd(90, 9, 100), 99);
	cr_assert_eq(arith_capadd(90, 10, 100), 100);
	cr_assert_eq(arith_capadd(100, 0, 100), 100);
	cr_assert_eq(arith_sat_u64((u128)UINT64_MAX + 1), UINT64_MAX);
	/* 7 / 2 = 3.5: 3 down, 4 up; 2^70 / 2 = 2^69 saturates */
	cr_assert_eq(arith_div_u128(7, 2, false), 3);
	cr_assert_eq(arith_div_u128(7, 2, true), 4);
	cr_assert_eq(arith_div_u128(8, 2, true), 4);
	cr_assert_eq(arith_div_u128((u128)1 << 70, 2, false), UINT64_MAX);
	cr_assert_not(arith_add(INT64_MAX, 1, &r));
	cr_assert_not(arith_sub(INT64_MIN, 1, &r));
	cr_assert_not(arith_mul(INT64_MIN, -1, &r));
	cr_assert_eq(r, 0);
	cr_assert(arith_mul(-4, 5, &r));
	cr_assert_eq(r, -20);
}

Test(arith, number_theory)
{
	cr_assert_eq(arith_gcd64(12, 18), 6);
	cr_assert_eq(arith_gcd64(7, 0), 7);
	cr_assert_eq(arith_gcd64(0, 7), 7);
	cr_assert_eq(arith_gcd64(17, 5), 1);
	cr_assert(arith_gcd128(-12, 18) == 6);
	cr_assert(arith_gcd128((i128)1 << 100, (i128)3 << 90) == (i128)1 << 90);
	cr_assert(arith_gcd128(0, 0) == 0);
	cr_assert_eq(arith_isqrt(0), 0);
	cr_assert_eq(arith_isqrt(1), 1);
	cr_assert_eq(arith_isqrt(99), 9);
	cr_assert_eq(arith_isqrt(100), 10);
	/* (2^64 - 1)^2 is the largest square below 2^128 */
	cr_assert_eq(arith_isqrt((u128)UINT64_MAX * UINT64_MAX), UINT64_MAX);
	cr_assert_eq(arith_isqrt(ARITH_U128_MAX), UINT64_MAX);
}

/* opts.h: the values of the options the subcommands share */
Test(opts, shared_values)
{
	char ok[] = "rate=400Gb/s", eq2[] = "a=b=c", none[] = "x",
	     noname[] = "=1", empty[] = "n=";
	struct rackc_define d;
	enum opts_format f = OPTS_TEXT;
	uint32_t n = 7;

	cr_assert(opts_define(ok, &d));
	cr_assert_str_eq(d.name, "rate");
	cr_assert_str_eq(d.value, "400Gb/s");
	cr_assert(opts_define(eq2, &d));
	cr_assert_str_eq(d.name, "a");
	cr_assert_str_eq(d.value, "b=c");
	cr_assert(opts_define(empty, &d));
	cr_assert_str_eq(d.value, "");
	cr_assert_not(opts_define(none, &d));
	cr_assert_not(opts_define(noname, &d));
	cr_assert_str_eq(noname, "=1");

	cr_assert(opts_max_links("1", &n));
	cr_assert_eq(n, 1);
	cr_assert(opts_max_links("50000000", &n));
	cr_assert_eq(n, 50000000);
	cr_assert_not(opts_max_links("50000001", &n));
	cr_assert_not(opts_max_links("0", &n));
	cr_assert_not(opts_max_links("-1", &n));
	cr_assert_not(opts_max_links("", &n));
	cr_assert_not(opts_max_links("12k", &n));
	cr_assert_eq(n, 50000000);

	cr_assert(opts_format("json", &f));
	cr_assert_eq(f, OPTS_JSON);
	cr_assert(opts_format("md", &f));
	cr_assert_eq(f, OPTS_MARKDOWN);
	cr_assert(opts_format("markdown", &f));
	cr_assert(opts_format("text", &f));
	cr_assert_eq(f, OPTS_TEXT);
	cr_assert_not(opts_format("sarif", &f));
	cr_assert_not(opts_format("", &f));
}

/* quantity_human: the figures for people, derived by hand from the
 * documented rule (the unit's decimals, half away from zero, exact figures
 * without trailing zeros). */
static void human(enum dim d, int64_t v, const char *want)
{
	char buf[RK_QFMT_MAX];
	struct quantity q = { d, v };

	cr_assert_str_eq(quantity_human(q, buf), want, "%s %lld", dim_name(d),
			 (long long)v);
}

Test(units, human)
{
	human(DIM_POWER, INT64_C(69004904), "69.0kW");
	human(DIM_POWER, INT64_C(28204904), "28.2kW");
	human(DIM_POWER, INT64_C(10000000), "10kW");
	human(DIM_POWER, INT64_C(10250000), "10.3kW"); /* half away from 0 */
	human(DIM_POWER, INT64_C(-10250000), "-10.3kW");
	human(DIM_POWER, INT64_C(999960), "1.0kW"); /* 999.96 W */
	human(DIM_POWER, INT64_C(999940), "999.9W");
	human(DIM_POWER, INT64_C(1234567890), "1.23MW");
	human(DIM_POWER, 0, "0W");
	human(DIM_POWER, 7, "7mW");
	human(DIM_LENGTH, INT64_C(5089175), "5.09m");
	human(DIM_LENGTH, INT64_C(24133675), "24.13m");
	human(DIM_LENGTH, INT64_C(2500000), "2.5m");
	human(DIM_LENGTH, INT64_C(600000), "600mm");
	human(DIM_LENGTH, INT64_C(600400), "600mm");
	human(DIM_RATIO, INT64_C(875432), "87.5%");
	human(DIM_RATIO, INT64_C(1234567), "123%");
	human(DIM_RATIO, INT64_C(12345), "1.23%");
	human(DIM_RATIO, INT64_C(1234), "0.123%");
	human(DIM_RATIO, INT64_C(800000), "80%");
	human(DIM_RATE, INT64_C(400000000000), "400Gb/s");
	human(DIM_MONEY, INT64_C(123456), "1234.56USD");
	human(DIM_POWER, INT64_MAX, "9223372036.85MW");
}

static void pair(enum dim d, int64_t a, int64_t b, const char *wa,
		 const char *wb)
{
	char ba[RK_QFMT_MAX], bb[RK_QFMT_MAX];

	quantity_human_pair((struct quantity){ d, a },
			    (struct quantity){ d, b }, ba, bb);
	cr_assert_str_eq(ba, wa, "%lld vs %lld", (long long)a, (long long)b);
	cr_assert_str_eq(bb, wb, "%lld vs %lld", (long long)a, (long long)b);
}

Test(units, human_pair)
{
	/* apart: each alone */
	pair(DIM_LENGTH, INT64_C(5089175), INT64_C(7000000), "5.09m", "7m");
	pair(DIM_POWER, INT64_C(69004904), INT64_C(69004904), "69.0kW",
	     "69.0kW");
	/* "needs 5.1 m, has 5.1 m": the decimals grow until they differ */
	pair(DIM_LENGTH, INT64_C(5089175), INT64_C(5085000), "5.089m",
	     "5.085m");
	pair(DIM_LENGTH, INT64_C(5000001), INT64_C(5000000), "5.000001m", "5m");
	pair(DIM_POWER, INT64_C(69004904), INT64_C(69000000), "69.005kW",
	     "69kW");
	/* one exact, the other rounding onto it */
	pair(DIM_POWER, INT64_C(10000000), INT64_C(9990000), "10kW", "9.99kW");
}

/* Brute force: printed pairs parse back and compare as the exact figures
 * do; a single figure is within half its last digit of the exact one. */
Test(units, human_pair_order)
{
	static const enum dim ds[] = { DIM_POWER, DIM_LENGTH, DIM_RATIO,
				       DIM_RATE, DIM_FLOW };
	uint64_t x = 88172645463325252ULL;

	for (int i = 0; i < 200000; i++) {
		char ba[RK_QFMT_MAX], bb[RK_QFMT_MAX];
		struct quantity a, b, pa, pb;
		int64_t span;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		a.dim = b.dim = ds[x % ARRAY_SIZE(ds)];
		span = (int64_t)(x >> 40) % 100000000 + 1;
		a.v = (int64_t)((x >> 8) % (uint64_t)span) - span / 10;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		b.v = a.v + (int64_t)(x % 200001) - 100000;
		if (x & 1)
			b.v = a.v;
		quantity_human_pair(a, b, ba, bb);
		cr_assert_eq(parse(ba, &pa), UNIT_OK, "%s", ba);
		cr_assert_eq(parse(bb, &pb), UNIT_OK, "%s", bb);
		cr_assert_eq((a.v > b.v) - (a.v < b.v),
			     (pa.v > pb.v) - (pa.v < pb.v), "%lld %lld: %s %s",
			     (long long)a.v, (long long)b.v, ba, bb);
	}
}
