/* SPDX-License-Identifier: MIT */
/*
 * The back ends' output layer: CSV cells (quoting, formula guards, the fast
 * paths for interned names and assembled cells, exact numbers) and the
 * buffered writer (block boundaries, hand-formatted numbers).  Output goes
 * to an open_memstream() and is compared byte for byte.
 */
#include "rackc.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "csv.h"
#include "wbuf.h"

struct sink {
	FILE *fp;
	char *buf;
	size_t len;
};

static void sink_open(struct sink *s)
{
	s->buf = NULL;
	s->len = 0;
	s->fp = open_memstream(&s->buf, &s->len);
	cr_assert_not_null(s->fp);
}

/* Close the stream; the bytes are in s->buf (NUL-terminated). */
static const char *sink_close(struct sink *s)
{
	cr_assert_eq(fclose(s->fp), 0);
	return s->buf;
}

/* One row of cells given as strings (NULL: empty), as csv writes it. */
static char *row_of(const char *const *cells, unsigned n)
{
	struct sink s;
	struct csv w;

	sink_open(&s);
	csv_init(&w, s.fp);
	for (unsigned i = 0; i < n; i++)
		csv_cell(&w, cells[i]);
	csv_end_row(&w);
	csv_fini(&w);
	sink_close(&s);
	return s.buf;
}

#define ROW(expect, ...)                                         \
	do {                                                     \
		const char *const cells_[] = { __VA_ARGS__ };    \
		char *got_ = row_of(cells_, ARRAY_SIZE(cells_)); \
		cr_assert_str_eq(got_, expect);                  \
		free(got_);                                      \
	} while (0)

Test(csv, plain_cells_are_written_as_is)
{
	ROW("a,b.c[1],QM9700\n", "a", "b.c[1]", "QM9700");
	ROW(",,x\n", NULL, "", "x");
}

Test(csv, cells_with_separators_are_quoted)
{
	ROW("\"a,b\"\n", "a,b");
	ROW("\"say \"\"hi\"\"\"\n", "say \"hi\"");
	ROW("\"two\nlines\"\n", "two\nlines");
	ROW("\"cr\rhere\"\n", "cr\rhere");
	/* past the first eight bytes: the word-at-a-time scan */
	ROW("\"Cat6 patch cable, cut to length\"\n",
	    "Cat6 patch cable, cut to length");
	ROW("\"0123456789abcdef\"\"\"\n", "0123456789abcdef\"");
	ROW("0123456789abcdefghijklmnop\n", "0123456789abcdefghijklmnop");
}

Test(csv, formula_starts_are_guarded)
{
	ROW("'=SUM(A1)\n", "=SUM(A1)");
	ROW("'+1,'-1,'@x\n", "+1", "-1", "@x");
	ROW("\"'=a,b\"\n", "=a,b");
	ROW("x=1\n", "x=1");
}

Test(csv, numbers)
{
	struct sink s;
	struct csv w;
	char b[24];

	sink_open(&s);
	csv_init(&w, s.fp);
	csv_cell_u64(&w, 0);
	csv_cell_u64(&w, 42);
	csv_cell_u64(&w, UINT64_MAX);
	csv_end_row(&w);
	csv_fini(&w);
	cr_assert_str_eq(sink_close(&s), "0,42,18446744073709551615\n");
	free(s.buf);

	cr_assert_eq(csv_zero_padded(7, 6, b), 6);
	cr_assert_str_eq(b, "000007");
	cr_assert_eq(csv_zero_padded(1234567, 6, b), 7);
	cr_assert_str_eq(b, "1234567");
	cr_assert_eq(csv_zero_padded(0, 1, b), 1);
	cr_assert_str_eq(b, "0");
}

Test(csv, exact_metres_and_dollars)
{
	char b[CSV_NUM_MAX];

	cr_assert_str_eq(csv_metres(3000000, b), "3");
	cr_assert_str_eq(csv_metres(1500000, b), "1.5");
	cr_assert_str_eq(csv_metres(1234567, b), "1.234567");
	cr_assert_str_eq(csv_metres(0, b), "0");
	cr_assert_str_eq(csv_metres(-2500000, b), "-2.5");
	cr_assert_str_eq(csv_metres(INT64_MAX, b), "9223372036854.775807");
	cr_assert_str_eq(csv_dollars(123456, b), "1234.56");
	cr_assert_str_eq(csv_dollars(100, b), "1.00");
	cr_assert_str_eq(csv_dollars(-5, b), "-0.05");
}

Test(csv, interned_strings_quote_like_any_cell)
{
	struct arena a;
	struct sink s;
	struct csv w;
	uint32_t plain, comma, formula;

	arena_init(&a);
	plain = intern_cstr(&a, "su[1].dgx[3]");
	comma = intern_cstr(&a, "a,b");
	formula = intern_cstr(&a, "-x");
	sink_open(&s);
	csv_init(&w, s.fp);
	/* twice each: the second time comes from the per-string cache */
	for (int k = 0; k < 2; k++) {
		csv_cell_str(&w, &a, plain);
		csv_cell_str(&w, &a, comma);
		csv_cell_str(&w, &a, formula);
		csv_cell_str(&w, &a, 0);
		csv_end_row(&w);
	}
	csv_fini(&w);
	cr_assert_str_eq(sink_close(&s), "su[1].dgx[3],\"a,b\",'-x,\n"
					 "su[1].dgx[3],\"a,b\",'-x,\n");
	free(s.buf);
	arena_destroy(&a);
}

Test(csv, assembled_cells)
{
	struct arena a;
	struct sink s;
	struct csv w;
	uint32_t dev = 0, odd = 0;

	arena_init(&a);
	dev = intern_cstr(&a, "rk[1].n[2]");
	odd = intern_cstr(&a, "p\"q");
	sink_open(&s);
	csv_init(&w, s.fp);
	/* all pieces plain: written as is */
	csv_part_begin(&w);
	csv_part(&w, "C000001 ", 8);
	csv_part_str(&w, &a, dev);
	csv_part(&w, ".ib[0]", 6);
	csv_part_end(&w);
	/* a piece with a quote: the whole cell is quoted */
	csv_part_begin(&w);
	csv_part_str(&w, &a, dev);
	csv_part(&w, " -- ", 4);
	csv_part_str(&w, &a, odd);
	csv_part_end(&w);
	/* a formula start only counts at the start of the cell */
	csv_part_begin(&w);
	csv_part(&w, "=", 1);
	csv_part(&w, "1", 1);
	csv_part_end(&w);
	csv_part_begin(&w);
	csv_part(&w, "a", 1);
	csv_part(&w, "-b", 2);
	csv_part_end(&w);
	/* nothing at all: an empty cell */
	csv_part_begin(&w);
	csv_part_end(&w);
	csv_end_row(&w);
	csv_fini(&w);
	cr_assert_str_eq(sink_close(&s), "C000001 rk[1].n[2].ib[0],"
					 "\"rk[1].n[2] -- p\"\"q\",'=1,a-b,\n");
	free(s.buf);
	arena_destroy(&a);
}

Test(csv, rows_past_the_block_size)
{
	struct sink s;
	struct csv w;
	const unsigned rows = 20000;
	char cell[32];
	size_t want = 0;

	sink_open(&s);
	csv_init(&w, s.fp);
	for (unsigned i = 0; i < rows; i++) {
		snprintf(cell, sizeof(cell), "row%u", i);
		csv_cell(&w, cell);
		csv_cell_u64(&w, i);
		csv_end_row(&w);
		want +=
		    strlen(cell) + 1 + (size_t)snprintf(NULL, 0, "%u", i) + 1;
	}
	csv_fini(&w);
	sink_close(&s);
	cr_assert_eq(s.len, want);
	cr_assert(strncmp(s.buf, "row0,0\nrow1,1\n", 14) == 0);
	cr_assert_str_eq(s.buf + s.len - 15, "row19999,19999\n");
	free(s.buf);
}

Test(wbuf, numbers_and_text)
{
	struct sink s;
	struct wbuf *w = malloc(sizeof(*w));

	sink_open(&s);
	wb_init(w, s.fp);
	wb_str(w, "guid=0x");
	wb_hex(w, 0x0200abcd1000002aULL, 16);
	wb_ch(w, ' ');
	wb_hex(w, 0xff, 4);
	wb_ch(w, ' ');
	wb_u64(w, 0);
	wb_ch(w, ' ');
	wb_u64(w, UINT64_MAX);
	wb_ch(w, '\n');
	wb_flush(w);
	cr_assert_str_eq(
	    sink_close(&s),
	    "guid=0x0200abcd1000002a 00ff 0 18446744073709551615\n");
	free(s.buf);
	free(w);
}

Test(wbuf, writes_across_blocks)
{
	struct sink s;
	struct wbuf *w = malloc(sizeof(*w));
	size_t big = 3 * WBUF_SIZE + 123;
	char *blob = malloc(big);

	for (size_t i = 0; i < big; i++)
		blob[i] = (char)('a' + i % 26);
	sink_open(&s);
	wb_init(w, s.fp);
	wb_ch(w, '<');
	wb_mem(w, blob, big);
	for (size_t i = 0; i < WBUF_SIZE; i++)
		wb_ch(w, '.');
	wb_ch(w, '>');
	wb_flush(w);
	sink_close(&s);
	cr_assert_eq(s.len, 1 + big + WBUF_SIZE + 1);
	cr_assert_eq(s.buf[0], '<');
	cr_assert(memcmp(s.buf + 1, blob, big) == 0);
	cr_assert_eq(s.buf[1 + big], '.');
	cr_assert_eq(s.buf[s.len - 1], '>');
	free(s.buf);
	free(blob);
	free(w);
}
