/* SPDX-License-Identifier: MIT */
/* CSV cells, rows and exact numbers for the back ends (see csv.h). */
#include "rackc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "csv.h"

void csv_init(struct csv *w, FILE *fp)
{
	w->fp = fp;
	w->col = 0;
	w->buf = NULL;
	w->len = w->cap = 0;
	w->tmp = NULL;
	w->tlen = w->tcap = 0;
	w->tplain = true;
	w->plain = NULL;
	w->nplain = 0;
	/* rows gather in w->buf and go out in 256 KiB blocks, which stdio
	 * passes to write() without copying them through its own buffer */
}

void csv_fini(struct csv *w)
{
	if (w->len)
		out_write(w->fp, w->buf, w->len);
	free(w->buf);
	free(w->tmp);
	free(w->plain);
	w->plain = NULL;
	w->nplain = 0;
	w->buf = w->tmp = NULL;
	w->len = w->cap = w->tlen = w->tcap = 0;
}

char *csv_grow(struct csv *w, size_t n)
{
	while (w->len + n > w->cap)
		w->cap = w->cap ? w->cap * 2 : 512;
	w->buf = xrealloc(w->buf, w->cap);
	return w->buf + w->len;
}

static void put(struct csv *w, char c)
{
	*csv_room(w, 1) = c;
	w->len++;
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* Nonzero when a byte of @x equals @b (the classic SWAR zero-byte test). */
static inline uint64_t has_byte(uint64_t x, unsigned char b)
{
	uint64_t y = x ^ (ONES * b);

	return (y - ONES) & ~y & HIGHS;
}

/* Bytes that force quoting: , " CR LF (eight bytes per step). */
static bool must_quote(const char *s, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x;

		memcpy(&x, s + i, 8);
		if (has_byte(x, ',') | has_byte(x, '"') | has_byte(x, '\r') |
		    has_byte(x, '\n'))
			return true;
	}
	for (; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n')
			return true;
	return false;
}

/* A first byte that a spreadsheet would read as a formula. */
static bool guarded(char c)
{
	return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' ||
	       c == '\r';
}

char *csv_put_cell(char *o, const char *s, size_t n)
{
	bool quote, guard;

	if (!s || !n)
		return o;
	quote = must_quote(s, n);
	guard = guarded(*s);
	if (!quote && !guard)
		return rk_put(o, s, n);
	if (quote)
		*o++ = '"';
	if (guard)
		*o++ = '\'';
	for (size_t i = 0; i < n; i++) {
		if (quote && s[i] == '"')
			*o++ = '"';
		*o++ = s[i];
	}
	if (quote)
		*o++ = '"';
	return o;
}

void csv_cell_n(struct csv *w, const char *s, size_t n)
{
	/* worst case: a separator, quotes, guard, every byte doubled */
	char *o = csv_room(w, CSV_CELL_MAX(n));

	if (w->col++)
		*o++ = ',';
	w->len = (size_t)(csv_put_cell(o, s, n) - w->buf);
}

void csv_cell(struct csv *w, const char *s)
{
	csv_cell_n(w, s, s ? strlen(s) : 0);
}

/* A cell written as is: neither quoted nor guarded. */

/*
 * Whether interned string @id can be written as is (no byte to quote, no
 * formula guard): worked out once per string, since the same names fill
 * hundreds of thousands of rows.
 */
bool csv_str_plain_slow(struct csv *w, const struct arena *a, uint32_t id)
{
	if (id >= w->nplain) {
		uint32_t n = a->nstrs > id ? a->nstrs : id + 1;

		w->plain = xrealloc(w->plain, n);
		memset(w->plain + w->nplain, 0, n - w->nplain);
		w->nplain = n;
	}
	if (!w->plain[id]) {
		const char *s = str_of(a, id);
		size_t n = strlen_of(a, id);

		w->plain[id] = n && !guarded(*s) && !must_quote(s, n) ? 1 : 2;
	}
	return w->plain[id] == 1;
}

void csv_cell_u64(struct csv *w, uint64_t v)
{
	char *o = csv_room(w, 21);

	/* digits never need quotes or a guard */
	if (w->col++)
		*o++ = ',';
	w->len = (size_t)(u64_put(o, v) - w->buf);
}

void csv_part_begin(struct csv *w)
{
	w->tlen = 0;
	w->tplain = true;
}

static void part_bytes(struct csv *w, const char *s, size_t n)
{
	if (w->tlen + n > w->tcap) {
		while (w->tlen + n > w->tcap)
			w->tcap = w->tcap ? w->tcap * 2 : 256;
		w->tmp = xrealloc(w->tmp, w->tcap);
	}
	rk_put(w->tmp + w->tlen, s, n);
	w->tlen += n;
}

void csv_part(struct csv *w, const char *s, size_t n)
{
	if (n && ((!w->tlen && guarded(*s)) || must_quote(s, n)))
		w->tplain = false;
	part_bytes(w, s, n);
}

void csv_part_str(struct csv *w, const struct arena *a, uint32_t id)
{
	if (!csv_str_plain(w, a, id))
		w->tplain = false;
	part_bytes(w, str_of(a, id), strlen_of(a, id));
}

char *csv_put_parts(struct csv *w, char *o)
{
	if (w->tplain)
		return rk_put(o, w->tmp, w->tlen);
	return csv_put_cell(o, w->tmp, w->tlen);
}

void csv_part_end(struct csv *w)
{
	char *o = csv_room(w, CSV_CELL_MAX(w->tlen));

	if (w->col++)
		*o++ = ',';
	w->len = (size_t)(csv_put_parts(w, o) - w->buf);
}

size_t csv_zero_padded(uint64_t v, int width, char *buf)
{
	char tmp[24], *p = u64_digits(v, tmp + sizeof(tmp));
	size_t n = (size_t)(tmp + sizeof(tmp) - p), pad = 0;

	if ((size_t)width > n) {
		pad = (size_t)width - n;
		memset(buf, '0', pad);
	}
	rk_put(buf + pad, p, n);
	buf[pad + n] = '\0';
	return pad + n;
}

void csv_row_end(struct csv *w, char *end)
{
	w->len = (size_t)(end - w->buf);
	csv_end_row(w);
}

void csv_end_row(struct csv *w)
{
	put(w, '\n');
	w->col = 0;
	/* rows gather in the buffer: one write per 256 KiB, not per row
	 * (fewer, larger writes cost the file system less per byte) */
	if (w->len >= 1 << 18) {
		out_write(w->fp, w->buf, w->len);
		w->len = 0;
	}
}

void csv_header(struct csv *w, const char *const *names, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		csv_cell(w, names[i]);
	csv_end_row(w);
}

/* v / 10^scale with at least @min decimals, exact (scale <= 18). */
static const char *fixed(int64_t v, int scale, int min, char *buf)
{
	uint64_t a = v < 0 ? -(uint64_t)v : (uint64_t)v, p = 1;
	char digits[24];
	int dec = scale, n;
	uint64_t frac;

	for (int i = 0; i < scale; i++)
		p *= 10;
	frac = a % p;
	/* drop trailing zeros down to @min decimals */
	while (dec > min && frac % 10 == 0) {
		frac /= 10;
		dec--;
	}
	{
		char tmp[24], *q = u64_digits(a / p, tmp + sizeof(tmp));

		n = 0;
		if (v < 0)
			buf[n++] = '-';
		memcpy(buf + n, q, (size_t)(tmp + sizeof(tmp) - q));
		n += (int)(tmp + sizeof(tmp) - q);
	}
	if (dec) {
		buf[n++] = '.';
		for (int i = dec - 1; i >= 0; i--) {
			digits[i] = (char)('0' + frac % 10);
			frac /= 10;
		}
		memcpy(buf + n, digits, (size_t)dec);
		n += dec;
	}
	buf[n] = '\0';
	return buf;
}

const char *csv_metres(int64_t um, char buf[static CSV_NUM_MAX])
{
	return fixed(um, 6, 0, buf);
}

const char *csv_dollars(int64_t cents, char buf[static CSV_NUM_MAX])
{
	return fixed(cents, 2, 2, buf);
}
