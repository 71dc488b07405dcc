/* SPDX-License-Identifier: MIT */
/*
 * Exact quantities: one table of unit suffixes, a literal parser that never
 * touches floating point, exact formatting and checked 64-bit arithmetic.  A
 * literal's decimal text is reduced to significant digits D and a power of
 * ten E, so its value is D * 10^E * scale; whether that is a whole number of
 * base units is decided from the powers of 2 and 5 in the scale and the last
 * few digits of D, and whether it fits from the digit count, so even megabytes
 * of digits or an exponent of 1e999999999 cost one linear scan and no
 * intermediate ever overflows.  Formatting is the same division done the
 * other way round, digit by digit, so every string it produces parses back
 * to the identical quantity.
 */
#include "rackc.h"
#include "arith.h"
#include "units.h"

struct unit {
	const char *sym;
	enum dim dim;
	int64_t scale; /* base units per one of this unit */
};

/*
 * The one unit table.  The empty suffix is a plain number.  On ties,
 * unit_suggest() prefers the earlier entry, so the canonical spellings come
 * before their aliases.
 */
static const struct unit units[] = {
	{ "", DIM_NONE, 1 },

	{ "mW", DIM_POWER, 1 },
	{ "W", DIM_POWER, INT64_C(1000) },
	{ "kW", DIM_POWER, INT64_C(1000000) },
	{ "MW", DIM_POWER, INT64_C(1000000000) },

	{ "um", DIM_LENGTH, 1 },
	{ "mm", DIM_LENGTH, INT64_C(1000) },
	{ "cm", DIM_LENGTH, INT64_C(10000) },
	{ "m", DIM_LENGTH, INT64_C(1000000) },
	{ "km", DIM_LENGTH, INT64_C(1000000000) },
	{ "in", DIM_LENGTH, INT64_C(25400) },
	{ "ft", DIM_LENGTH, INT64_C(304800) },

	{ "g", DIM_MASS, 1 },
	{ "kg", DIM_MASS, INT64_C(1000) },
	{ "t", DIM_MASS, INT64_C(1000000) },

	{ "b/s", DIM_RATE, 1 },
	{ "kb/s", DIM_RATE, INT64_C(1000) },
	{ "Mb/s", DIM_RATE, INT64_C(1000000) },
	{ "Gb/s", DIM_RATE, INT64_C(1000000000) },
	{ "Tb/s", DIM_RATE, INT64_C(1000000000000) },
	{ "B/s", DIM_RATE, INT64_C(8) },
	{ "kB/s", DIM_RATE, INT64_C(8000) },
	{ "MB/s", DIM_RATE, INT64_C(8000000) },
	{ "GB/s", DIM_RATE, INT64_C(8000000000) },
	{ "TB/s", DIM_RATE, INT64_C(8000000000000) },
	{ "bps", DIM_RATE, 1 },
	{ "Kbps", DIM_RATE, INT64_C(1000) },
	{ "Mbps", DIM_RATE, INT64_C(1000000) },
	{ "Gbps", DIM_RATE, INT64_C(1000000000) },
	{ "Tbps", DIM_RATE, INT64_C(1000000000000) },

	{ "B", DIM_BYTES, 1 },
	{ "kB", DIM_BYTES, INT64_C(1000) },
	{ "MB", DIM_BYTES, INT64_C(1000000) },
	{ "GB", DIM_BYTES, INT64_C(1000000000) },
	{ "TB", DIM_BYTES, INT64_C(1000000000000) },
	{ "PB", DIM_BYTES, INT64_C(1000000000000000) },
	{ "KiB", DIM_BYTES, INT64_C(1) << 10 },
	{ "MiB", DIM_BYTES, INT64_C(1) << 20 },
	{ "GiB", DIM_BYTES, INT64_C(1) << 30 },
	{ "TiB", DIM_BYTES, INT64_C(1) << 40 },

	{ "mA", DIM_CURRENT, 1 },
	{ "A", DIM_CURRENT, INT64_C(1000) },

	{ "mV", DIM_VOLTAGE, 1 },
	{ "V", DIM_VOLTAGE, INT64_C(1000) },
	{ "kV", DIM_VOLTAGE, INT64_C(1000000) },

	{ "C", DIM_TEMP, INT64_C(1000) },
	{ "K", DIM_TEMP, INT64_C(1000) },

	{ "mL/min", DIM_FLOW, 1 },
	{ "L/min", DIM_FLOW, INT64_C(1000) },
	{ "L/s", DIM_FLOW, INT64_C(60000) },

	{ "U", DIM_RACKU, 1 },

	{ "USD", DIM_MONEY, INT64_C(100) },

	{ "ppm", DIM_RATIO, 1 },
	{ "%", DIM_RATIO, INT64_C(10000) },

	{ "FLOP/s", DIM_FLOPS, 1 },
	{ "GFLOP/s", DIM_FLOPS, INT64_C(1000000000) },
	{ "TFLOP/s", DIM_FLOPS, INT64_C(1000000000000) },
	{ "PFLOP/s", DIM_FLOPS, INT64_C(1000000000000000) },
	{ "EFLOP/s", DIM_FLOPS, INT64_C(1000000000000000000) },

	{ "ns", DIM_TIME, 1 },
	{ "us", DIM_TIME, INT64_C(1000) },
	{ "ms", DIM_TIME, INT64_C(1000000) },
	{ "s", DIM_TIME, INT64_C(1000000000) },
};

/*
 * Per dimension: its name, its base-unit symbol, the unit zero is shown in
 * and the units quantity_format() picks from, largest first.  Every display
 * unit's scale is a power of ten, so a formatted value always terminates.
 */
struct dim_info {
	const char *name;
	const char *base;
	const char *zero;
	const char *show[7];
};

static const struct dim_info dims[DIM__COUNT] = {
	[DIM_NONE] = { "dimensionless", "", "", { "", NULL } },
	[DIM_POWER] = { "power", "mW", "W", { "MW", "kW", "W", "mW", NULL } },
	[DIM_LENGTH] = { "length", "um", "m", { "m", "mm", "um", NULL } },
	[DIM_MASS] = { "mass", "g", "kg", { "kg", "g", NULL } },
	[DIM_RATE] = { "rate",
		       "b/s",
		       "Gb/s",
		       { "Tb/s", "Gb/s", "Mb/s", "kb/s", "b/s", NULL } },
	[DIM_BYTES] = { "bytes",
			"B",
			"B",
			{ "PB", "TB", "GB", "MB", "kB", "B", NULL } },
	[DIM_CURRENT] = { "current", "mA", "A", { "A", "mA", NULL } },
	[DIM_VOLTAGE] = { "voltage", "mV", "V", { "V", "mV", NULL } },
	[DIM_TEMP] = { "temperature", "mC", "C", { "C", NULL } },
	[DIM_FLOW] = { "flow", "mL/min", "L/min", { "L/min", "mL/min", NULL } },
	[DIM_RACKU] = { "rack units", "U", "U", { "U", NULL } },
	[DIM_MONEY] = { "money", "cent", "USD", { "USD", NULL } },
	[DIM_RATIO] = { "ratio", "ppm", "%", { "%", NULL } },
	[DIM_FLOPS] = { "compute rate",
			"FLOP/s",
			"TFLOP/s",
			{ "PFLOP/s", "TFLOP/s", "GFLOP/s", "FLOP/s", NULL } },
	[DIM_TIME] = { "time", "ns", "s", { "s", "ms", "us", "ns", NULL } },
};

static bool valid_dim(enum dim d)
{
	return (unsigned int)d < (unsigned int)DIM__COUNT;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const struct unit *unit_find(const char *sym, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strlen(units[i].sym) == n && !memcmp(units[i].sym, sym, n))
			return &units[i];
	}
	return NULL;
}

static const struct unit *unit_find_cstr(const char *sym)
{
	return unit_find(sym, strlen(sym));
}

/* Magnitude of v as an unsigned value; exact for INT64_MIN too. */
static uint64_t magnitude(int64_t v)
{
	return v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
}

/* Signed int64 of a magnitude known to fit (mag <= 2^63 when negative). */
static int64_t apply_sign(bool neg, u128 mag)
{
	if (!mag)
		return 0;
	if (neg)
		return -(int64_t)(mag - 1) - 1;
	return (int64_t)mag;
}

/* Exponents over this are clamped: they overflow or are inexact anyway. */
#define EXP_CLAMP INT64_C(1000000000000000)

/*
 * What the mantissa scan learnt.  D, the significant digits, runs from the
 * first to the last non-zero digit; the zeros after it move into the
 * exponent, as do the digits after the '.'.
 */
struct mantissa {
	size_t first, last;	    /* text offsets of D's ends */
	size_t first_idx, last_idx; /* the same as digit indices */
	size_t ndigits;		    /* all mantissa digits */
	size_t nfrac;		    /* digits after the '.' */
	size_t nsig;		    /* digits in D */
	size_t ntrail;		    /* zero digits after D */
	bool nonzero;		    /* false: the value is 0 */
};

static void note_digit(struct mantissa *mt, size_t pos, char c)
{
	if (c != '0') {
		if (!mt->nonzero) {
			mt->nonzero = true;
			mt->first = pos;
			mt->first_idx = mt->ndigits;
		}
		mt->last = pos;
		mt->last_idx = mt->ndigits;
	}
	mt->ndigits++;
}

/*
 * Scan digits with single '_' separators between digits from text[*pos],
 * which must be a digit.  Each digit goes to mt when it is not NULL, and to
 * the clamped accumulator *acc when that is not NULL.  False on a '_' not
 * followed by a digit.
 */
static bool scan_digits(const char *text, size_t n, size_t *pos,
			struct mantissa *mt, int64_t *acc)
{
	size_t p = *pos;

	while (p < n) {
		char c = text[p];

		if (is_digit(c)) {
			if (mt)
				note_digit(mt, p, c);
			if (acc && *acc < EXP_CLAMP)
				*acc = *acc * 10 + (c - '0');
			p++;
		} else if (c == '_') {
			if (p + 1 >= n || !is_digit(text[p + 1]))
				return false;
			p++;
		} else {
			break;
		}
	}
	*pos = p;
	return true;
}

static unsigned int valuation(int64_t v, int64_t p)
{
	unsigned int k = 0;

	while (v % p == 0) {
		v /= p;
		k++;
	}
	return k;
}

/*
 * The value D * 10^e * scale, where D is the significant digits of mt in
 * text.  Not a whole number is UNIT_INEXACT (even when it is also too big);
 * a whole number outside int64 is UNIT_OVERFLOW.
 */
static enum unit_status scale_value(const char *text, const struct mantissa *mt,
				    int64_t e, int64_t scale, bool neg,
				    int64_t *out)
{
	u128 limit = neg ? (u128)1 << 63 : ((u128)1 << 63) - 1;
	int64_t len = (int64_t)mt->nsig;
	u128 val = 0;

	if (!mt->nonzero) {
		*out = 0;
		return UNIT_OK;
	}
	if (e >= 0) {
		/* D * 10^e >= 10^(len - 1 + e) */
		if (len + e > 20)
			return UNIT_OVERFLOW;
		for (size_t p = mt->first; p <= mt->last; p++) {
			if (is_digit(text[p]))
				val = val * 10 + (unsigned int)(text[p] - '0');
		}
		while (e-- > 0)
			val *= 10;
		val *= (u128)scale;
	} else {
		int64_t m = -e, rest = scale, k;
		unsigned int a = valuation(scale, 2), b = valuation(scale, 5);
		u128 q = 1, rem = 0, pw = 1, quot = 0;
		size_t p;

		/*
		 * D * scale / 10^m is whole only if 10^m divides D * scale.
		 * D does not end in 0, so D lacks a factor 2 or a factor 5:
		 * then scale alone must supply m of them.
		 */
		if (m > (int64_t)a && m > (int64_t)b)
			return UNIT_INEXACT;
		/* Cancel 10^m against scale: D must divide by q = 2^x 5^y. */
		for (int64_t i = 0; i < m; i++) {
			if (i < (int64_t)a)
				rest /= 2;
			else
				q *= 2;
			if (i < (int64_t)b)
				rest /= 5;
			else
				q *= 5;
		}
		/* q divides 10^m, so D mod q is its last m digits mod q. */
		k = m < len ? m : len;
		for (p = mt->last + 1; k > 0;) {
			p--;
			if (!is_digit(text[p]))
				continue;
			rem = (rem + (unsigned int)(text[p] - '0') * pw) % q;
			pw = pw * 10 % q;
			k--;
		}
		if (rem)
			return UNIT_INEXACT;
		/* D * scale / 10^m >= 10^(len - 1 - m) */
		if (len - m >= 20)
			return UNIT_OVERFLOW;
		for (p = mt->first; p <= mt->last; p++) {
			if (!is_digit(text[p]))
				continue;
			rem = rem * 10 + (unsigned int)(text[p] - '0');
			quot = quot * 10 + rem / q;
			rem %= q;
		}
		val = quot * (u128)rest;
	}
	if (val > limit)
		return UNIT_OVERFLOW;
	*out = apply_sign(neg, val);
	return UNIT_OK;
}

enum unit_status unit_parse(const char *text, size_t n, struct quantity *out,
			    size_t *suffix_at)
{
	struct mantissa mt = { 0 };
	const struct unit *u;
	int64_t exp = 0, e;
	bool neg = false, eneg = false;
	size_t pos = 0;
	enum unit_status st;

	out->dim = DIM_NONE;
	out->v = 0;
	if (pos < n && (text[pos] == '-' || text[pos] == '+'))
		neg = text[pos++] == '-';
	if (pos >= n || !is_digit(text[pos]))
		return UNIT_BAD_NUMBER;
	if (!scan_digits(text, n, &pos, &mt, NULL))
		return UNIT_BAD_NUMBER;
	if (pos < n && text[pos] == '.') {
		size_t before = mt.ndigits;

		pos++;
		if (pos >= n || !is_digit(text[pos]))
			return UNIT_BAD_NUMBER;
		if (!scan_digits(text, n, &pos, &mt, NULL))
			return UNIT_BAD_NUMBER;
		mt.nfrac = mt.ndigits - before;
	}
	if (pos < n && (text[pos] == 'e' || text[pos] == 'E')) {
		pos++;
		if (pos < n && (text[pos] == '-' || text[pos] == '+'))
			eneg = text[pos++] == '-';
		if (pos >= n || !is_digit(text[pos]))
			return UNIT_BAD_NUMBER;
		if (!scan_digits(text, n, &pos, NULL, &exp))
			return UNIT_BAD_NUMBER;
		if (exp > EXP_CLAMP)
			exp = EXP_CLAMP;
		if (eneg)
			exp = -exp;
	}
	/* A second '.', a stray '_' or more digits: the number is malformed. */
	if (pos < n &&
	    (is_digit(text[pos]) || text[pos] == '.' || text[pos] == '_'))
		return UNIT_BAD_NUMBER;
	if (suffix_at)
		*suffix_at = pos;
	u = unit_find(text + pos, n - pos);
	if (!u)
		return UNIT_UNKNOWN;

	if (mt.nonzero) {
		mt.nsig = mt.last_idx - mt.first_idx + 1;
		mt.ntrail = mt.ndigits - 1 - mt.last_idx;
	}
	e = exp - (int64_t)mt.nfrac + (int64_t)mt.ntrail;
	st = scale_value(text, &mt, e, u->scale, neg, &out->v);
	if (st != UNIT_OK) {
		out->v = 0;
		return st;
	}
	out->dim = u->dim;
	return UNIT_OK;
}

const char *dim_name(enum dim d)
{
	return valid_dim(d) ? dims[d].name : "unknown";
}

const char *dim_base_unit(enum dim d)
{
	return valid_dim(d) ? dims[d].base : "";
}

static char fold(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

#define SUGGEST_MAX 16

/* Optimal string alignment distance, optionally ignoring ASCII case. */
static size_t osa_distance(const char *a, size_t na, const char *b, size_t nb,
			   bool nocase)
{
	size_t d[SUGGEST_MAX + 1][SUGGEST_MAX + 1];

	for (size_t i = 0; i <= na; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= nb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= na; i++) {
		for (size_t j = 1; j <= nb; j++) {
			char ca = nocase ? fold(a[i - 1]) : a[i - 1];
			char cb = nocase ? fold(b[j - 1]) : b[j - 1];
			size_t best = d[i - 1][j - 1] + (ca != cb);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca != cb) {
				char pa = nocase ? fold(a[i - 2]) : a[i - 2];
				char pb = nocase ? fold(b[j - 2]) : b[j - 2];

				if (ca == pb && pa == cb &&
				    d[i - 2][j - 2] + 1 < best)
					best = d[i - 2][j - 2] + 1;
			}
			d[i][j] = best;
		}
	}
	return d[na][nb];
}

/*
 * Closest suffix by case-insensitive edit distance, then by exact-case
 * distance, then table order.  Accepted within a third of the longer name
 * (at least one edit), except that a one-character suffix must match up to
 * case.  A leading micro sign (U+00B5 or U+03BC) is read as 'u'.
 */
const char *unit_suggest(const char *suffix, size_t n)
{
	char want[SUGGEST_MAX];
	const char *best = NULL;
	size_t best_fold = SIZE_MAX, best_case = SIZE_MAX, len = 0;

	if (n >= 2 && ((suffix[0] == '\xc2' && suffix[1] == '\xb5') ||
		       (suffix[0] == '\xce' && suffix[1] == '\xbc'))) {
		want[len++] = 'u';
		suffix += 2;
		n -= 2;
	}
	if (len + n == 0 || len + n > SUGGEST_MAX)
		return NULL;
	memcpy(want + len, suffix, n);
	len += n;

	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		const char *sym = units[i].sym;
		size_t ns = strlen(sym), longer = ns > len ? ns : len;
		size_t allow = longer / 3 ? longer / 3 : 1;
		size_t df, dc;

		if (!ns)
			continue;
		if (len == 1)
			allow = 0;
		df = osa_distance(want, len, sym, ns, true);
		if (df > allow)
			continue;
		dc = osa_distance(want, len, sym, ns, false);
		if (df < best_fold || (df == best_fold && dc < best_case)) {
			best = sym;
			best_fold = df;
			best_case = dc;
		}
	}
	return best;
}

static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	size_t k = 0;

	do {
		tmp[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (k)
		*p++ = tmp[--k];
	return p;
}

/* Longest fraction a scale from the table can need (2^-40 needs 40). */
#define FRAC_MAX 64

/*
 * Write mag / scale (negated when neg) exactly, then sym.  NULL when the
 * decimal does not terminate or the text would not fit RK_QFMT_MAX.
 */
static const char *format_scaled(bool neg, uint64_t mag, uint64_t scale,
				 const char *sym, char *buf)
{
	char tmp[1 + 20 + 1 + FRAC_MAX + SUGGEST_MAX + 1];
	char *p = tmp;
	uint64_t r = mag % scale;
	size_t ns = strlen(sym), k;

	if (neg && mag)
		*p++ = '-';
	p = put_u64(p, mag / scale);
	if (r) {
		*p++ = '.';
		for (k = 0; r && k < FRAC_MAX; k++) {
			u128 t = (u128)r * 10;

			*p++ = (char)('0' + (unsigned int)(t / scale));
			r = (uint64_t)(t % scale);
		}
		if (r)
			return NULL;
	}
	if (ns > SUGGEST_MAX)
		return NULL;
	memcpy(p, sym, ns);
	p += ns;
	if ((size_t)(p - tmp) + 1 > RK_QFMT_MAX)
		return NULL;
	*p = '\0';
	memcpy(buf, tmp, (size_t)(p - tmp) + 1);
	return buf;
}

const char *quantity_format(struct quantity q, char *buf)
{
	const struct dim_info *di;
	const struct unit *u = NULL;
	const char *s;
	uint64_t mag = magnitude(q.v);

	if (!valid_dim(q.dim))
		BUG("quantity_format: bad dimension");
	di = &dims[q.dim];
	if (!mag) {
		u = unit_find_cstr(di->zero);
	} else {
		for (size_t i = 0; di->show[i]; i++) {
			u = unit_find_cstr(di->show[i]);
			if (u && (uint64_t)u->scale <= mag)
				break;
		}
	}
	if (!u)
		BUG("quantity_format: display unit missing from table");
	s = format_scaled(q.v < 0, mag, (uint64_t)u->scale, u->sym, buf);
	if (!s)
		BUG("quantity_format: display unit does not terminate");
	return s;
}

const char *quantity_format_in(struct quantity q, const char *unit, char *buf)
{
	const struct unit *u = unit_find_cstr(unit);

	if (!u || u->dim != q.dim)
		return NULL;
	return format_scaled(q.v < 0, magnitude(q.v), (uint64_t)u->scale,
			     u->sym, buf);
}

/* How quantity_human rounds a display unit: its decimals (a ratio's come
 * from its magnitude, RATIO_SIG significant figures). */
struct human_unit {
	const char *sym;
	int dec;
};

#define RATIO_SIG 3

static const struct human_unit human_units[] = {
	{ "MW", 2 },	  { "kW", 1 },	    { "W", 1 },	   { "m", 2 },
	{ "kg", 1 },	  { "Tb/s", 2 },    { "Gb/s", 1 }, { "Mb/s", 1 },
	{ "kb/s", 1 },	  { "PB", 2 },	    { "TB", 2 },   { "GB", 2 },
	{ "MB", 2 },	  { "kB", 2 },	    { "A", 1 },	   { "V", 1 },
	{ "C", 1 },	  { "L/min", 1 },   { "USD", 2 },  { "PFLOP/s", 2 },
	{ "TFLOP/s", 2 }, { "GFLOP/s", 2 }, { "s", 3 },	   { "ms", 1 },
	{ "us", 1 },
};

/* Decimals of display unit @u for a magnitude @mag (base units). */
static int human_dec(const struct unit *u, uint64_t mag)
{
	if (u->dim == DIM_RATIO) {
		/* three significant figures of the percentage, at most the
		 * four decimals a ppm figure has */
		uint64_t whole = mag / (uint64_t)u->scale;
		int dec = RATIO_SIG;

		for (; whole >= 1 && dec > 0; whole /= 10)
			dec--;
		return dec;
	}
	for (size_t i = 0; i < ARRAY_SIZE(human_units); i++)
		if (streq(human_units[i].sym, u->sym))
			return human_units[i].dec;
	return 0;
}

static uint64_t pow10_u64(int n)
{
	uint64_t p = 1;

	while (n-- > 0)
		p *= 10;
	return p;
}

/* The step of @dec decimals of unit @u, in base units (at least 1). */
static uint64_t human_step(const struct unit *u, int dec)
{
	uint64_t p = pow10_u64(dec), sc = (uint64_t)u->scale;

	return p >= sc ? 1 : sc / p;
}

/* @mag rounded half away from zero to a multiple of @step. */
static u128 round_to(uint64_t mag, uint64_t step)
{
	u128 q = ((u128)mag + step / 2) / step;

	return q * step;
}

/* The display unit quantity_format picks for @mag in dimension @d. */
static const struct unit *display_unit(enum dim d, uint64_t mag, size_t *at)
{
	const struct dim_info *di = &dims[d];
	const struct unit *u = NULL;

	*at = 0;
	if (!mag)
		return unit_find_cstr(di->zero);
	for (size_t i = 0; di->show[i]; i++) {
		u = unit_find_cstr(di->show[i]);
		*at = i;
		if (u && (uint64_t)u->scale <= mag)
			break;
	}
	return u;
}

/* Write @mag (base units, already a multiple of the step) in unit @u with
 * exactly @dec decimals, then the symbol. */
static const char *format_fixed(bool neg, u128 mag, const struct unit *u,
				int dec, char *buf)
{
	char tmp[RK_QFMT_MAX + 24];
	char *p = tmp;
	uint64_t sc = (uint64_t)u->scale;
	u128 whole = mag / sc, frac = mag % sc;
	size_t ns = strlen(u->sym);

	if (neg && mag)
		*p++ = '-';
	if (whole > UINT64_MAX)
		whole = UINT64_MAX; /* not reached: mag <= 2^63 + step */
	p = put_u64(p, (uint64_t)whole);
	if (dec > 0) {
		*p++ = '.';
		for (int k = 0; k < dec; k++) {
			frac *= 10;
			*p++ = (char)('0' + (unsigned int)(frac / sc));
			frac %= sc;
		}
	}
	if ((size_t)(p - tmp) + ns + 1 > RK_QFMT_MAX)
		BUG("quantity_human: figure too long");
	memcpy(p, u->sym, ns + 1);
	memcpy(buf, tmp, (size_t)(p - tmp) + ns + 1);
	return buf;
}

/*
 * The human form of @q in unit @u (NULL: its display unit) with @dec
 * decimals (< 0: the unit's own); *rounded is the rounded magnitude.
 */
static const char *human_in(struct quantity q, const struct unit *u, int dec,
			    char *buf, u128 *rounded)
{
	uint64_t mag = magnitude(q.v), step;
	bool neg = q.v < 0;
	u128 r;

	if (!valid_dim(q.dim))
		BUG("quantity_human: bad dimension");
	if (!u) {
		size_t at;

		u = display_unit(q.dim, mag, &at);
		if (!u)
			BUG("quantity_human: display unit missing from table");
		r = round_to(mag, human_step(u, human_dec(u, mag)));
		/* rounded up into the next larger unit: print it there */
		if (at > 0 &&
		    r >=
			(u128)unit_find_cstr(dims[q.dim].show[at - 1])->scale) {
			u = unit_find_cstr(dims[q.dim].show[at - 1]);
		}
	}
	if (dec < 0)
		dec = human_dec(u, mag);
	step = human_step(u, dec);
	r = round_to(mag, step);
	*rounded = r;
	if (r == mag) /* exact: shortest form */
		return format_scaled(neg, mag, (uint64_t)u->scale, u->sym, buf);
	return format_fixed(neg, r, u, dec, buf);
}

const char *quantity_human(struct quantity q, char *buf)
{
	u128 r;

	return human_in(q, NULL, -1, buf, &r);
}

/* -1, 0 or 1: the order of two signed magnitudes. */
static int cmp_signed(bool na, u128 a, bool nb, u128 b)
{
	int sa = a ? (na ? -1 : 1) : 0, sb = b ? (nb ? -1 : 1) : 0;

	if (sa != sb)
		return sa < sb ? -1 : 1;
	if (a == b)
		return 0;
	return ((a < b) == (sa > 0)) ? -1 : 1;
}

void quantity_human_pair(struct quantity a, struct quantity b, char *ba,
			 char *bb)
{
	uint64_t ma = magnitude(a.v), mb = magnitude(b.v);
	int want = a.v < b.v ? -1 : a.v > b.v;
	const struct unit *u;
	size_t at;
	u128 ra, rb;
	int dec;

	if (a.dim != b.dim)
		BUG("quantity_human_pair: dimensions differ");
	human_in(a, NULL, -1, ba, &ra);
	human_in(b, NULL, -1, bb, &rb);
	if (cmp_signed(a.v < 0, ra, b.v < 0, rb) == want && strcmp(ba, bb))
		return;
	if (want == 0)
		return; /* equal figures print alike */
	/* one unit, more decimals until the order shows */
	u = display_unit(a.dim, ma > mb ? ma : mb, &at);
	for (dec = human_dec(u, ma > mb ? ma : mb);; dec++) {
		human_in(a, u, dec, ba, &ra);
		human_in(b, u, dec, bb, &rb);
		if (cmp_signed(a.v < 0, ra, b.v < 0, rb) == want ||
		    human_step(u, dec) == 1)
			break;
	}
}

bool q_add(int64_t a, int64_t b, int64_t *r)
{
	return arith_add(a, b, r);
}

bool q_sub(int64_t a, int64_t b, int64_t *r)
{
	return arith_sub(a, b, r);
}

bool q_mul(int64_t a, int64_t b, int64_t *r)
{
	return arith_mul(a, b, r);
}

bool q_div(int64_t a, int64_t b, int64_t *r)
{
	if (b == 0 || (a == INT64_MIN && b == -1))
		return false;
	*r = a / b;
	return true;
}

bool q_mod(int64_t a, int64_t b, int64_t *r)
{
	if (b == 0)
		return false;
	/* INT64_MIN % -1 is undefined in C but exactly 0. */
	*r = b == -1 ? 0 : a % b;
	return true;
}

bool q_muldiv(int64_t a, int64_t b, int64_t c, int64_t *r)
{
	i128 t;

	if (c == 0)
		return false;
	/* |a * b| <= 2^126 fits; truncating division, as C does. */
	t = (i128)a * b / c;
	if (t < INT64_MIN || t > INT64_MAX)
		return false;
	*r = (int64_t)t;
	return true;
}
