/* SPDX-License-Identifier: MIT */
/*
 * CSV output shared by the back ends (RFC 4180, with two fixed choices):
 *   - a cell is quoted only when it must be: when it holds a comma, a
 *     double quote, CR or LF; quotes inside are doubled;
 *   - rows end with LF (not CRLF), columns come in the back end's fixed
 *     order, the first row is the header;
 *   - a cell whose first character is = + - @ (or TAB or CR) gets a single
 *     quote in front (OWASP "CSV injection"), so that a spreadsheet shows
 *     the text instead of evaluating a formula.  No generated cell starts
 *     so (names are identifiers, numbers are never negative); the rule
 *     guards the free-text cells (descriptions, part numbers).
 * Quantities go in a fixed unit named in the column header (length_m):
 * csv_metres() and csv_dollars() print them exactly.
 */
#ifndef RACKC_CSV_H
#define RACKC_CSV_H

#include <stdint.h>
#include <stdio.h>

#include "backend.h"

/**
 * struct csv - a CSV writer on one artifact
 * @fp:   the artifact
 * @col:  cells written on the current row
 * @buf, @len, @cap: rows not yet written (flushed in 256 KiB blocks at
 *        csv_end_row, so that a large file costs few stdio calls)
 * @tmp, @tlen, @tcap: the cell being assembled by csv_part*()
 * @tplain: that cell needs neither quotes nor a guard (so far)
 * @plain, @nplain: per interned string: 0 not known yet, 1 written as is,
 *        2 needs quoting or a guard
 */
struct csv {
	FILE *fp;
	unsigned col;
	char *buf;
	size_t len, cap;
	char *tmp;
	size_t tlen, tcap;
	bool tplain;
	uint8_t *plain;
	uint32_t nplain;
};

void csv_init(struct csv *w, FILE *fp);
/* Release the row buffer (the artifact stays open). */
void csv_fini(struct csv *w);
/* One cell (NULL: empty). */
void csv_cell(struct csv *w, const char *s);
/* One cell of @n bytes (no terminating NUL needed). */
void csv_cell_n(struct csv *w, const char *s, size_t n);
/* One cell holding @v in decimal. */
void csv_cell_u64(struct csv *w, uint64_t v);
/*
 * A cell assembled from pieces without a format string (the fast path of
 * large artifacts): csv_part_begin, csv_part / csv_part_str..., then
 * csv_part_end writes it, quoted as any other cell.
 */
void csv_part_begin(struct csv *w);
void csv_part(struct csv *w, const char *s, size_t n);
void csv_part_str(struct csv *w, const struct arena *a, uint32_t id);
void csv_part_end(struct csv *w);
/* The assembled cell written at @o (see csv_put_cell), returning its end. */
char *csv_put_parts(struct csv *w, char *o);
/*
 * Whether interned string @id can be written as it is, needing neither
 * quotes nor a guard (worked out once per string).
 */
bool csv_str_plain_slow(struct csv *w, const struct arena *a, uint32_t id);
static inline bool csv_str_plain(struct csv *w, const struct arena *a,
				 uint32_t id)
{
	if (id < w->nplain && w->plain[id])
		return w->plain[id] == 1;
	return csv_str_plain_slow(w, a, id);
}
/* @v in decimal, zero-padded to @width digits, into @buf (24 bytes). */
size_t csv_zero_padded(uint64_t v, int width, char *buf);
void csv_end_row(struct csv *w);
/* A header row of @n names. */
void csv_header(struct csv *w, const char *const *names, unsigned n);

/* Room for @n more bytes in the row (csv_grow: when there is none). */
char *csv_grow(struct csv *w, size_t n);
static inline char *csv_room(struct csv *w, size_t n)
{
	return w->len + n > w->cap ? csv_grow(w, n) : w->buf + w->len;
}

/*
 * Whole rows at once, for the largest artifacts: the caller asks
 * csv_room() for a row's worst case (CSV_CELL_MAX of each cell), writes
 * the cells there with csv_put_*() (which return the end; the commas are
 * the caller's), and hands the end of the row to csv_row_end(), which
 * adds the newline and writes full blocks out.
 */
#define CSV_CELL_MAX(n) (2 * (size_t)(n) + 4)
/* Cell @s of @n bytes (NULL or 0: empty), quoted or guarded as needed. */
char *csv_put_cell(char *o, const char *s, size_t n);
/* Interned string @id as a cell. */
static inline char *csv_put_str(struct csv *w, char *o, const struct arena *a,
				uint32_t id)
{
	if (csv_str_plain(w, a, id))
		return rk_put(o, str_of(a, id), strlen_of(a, id));
	return csv_put_cell(o, str_of(a, id), strlen_of(a, id));
}
void csv_row_end(struct csv *w, char *end);

/* One cell of @n bytes that needs neither quotes nor a guard. */
static inline void csv_cell_raw(struct csv *w, const char *s, size_t n)
{
	char *o = csv_room(w, n + 1);

	if (w->col++)
		*o++ = ',';
	w->len = (size_t)(rk_put(o, s, n) - w->buf);
}

/* One cell holding interned string @id. */
static inline void csv_cell_str(struct csv *w, const struct arena *a,
				uint32_t id)
{
	if (csv_str_plain(w, a, id))
		csv_cell_raw(w, str_of(a, id), strlen_of(a, id));
	else
		csv_cell_n(w, str_of(a, id), strlen_of(a, id));
}

#define CSV_NUM_MAX 40
/*
 * Micrometres as metres, exact, without trailing zeros: 3000000 -> "3",
 * 1500000 -> "1.5", 1234567 -> "1.234567" (stock lengths have at most two
 * decimals; computed lengths keep what they need to stay exact).
 */
const char *csv_metres(int64_t um, char buf[static CSV_NUM_MAX]);
/* Cents as dollars with two decimals: 123456 -> "1234.56". */
const char *csv_dollars(int64_t cents, char buf[static CSV_NUM_MAX]);

#endif
