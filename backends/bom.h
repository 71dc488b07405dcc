/* SPDX-License-Identifier: MIT */
/*
 * The bill of materials as data (backends/bom.c): what the bom back end
 * writes as bom.csv and bom.json and the xlsx back end as sheets.
 */
#ifndef RACKC_BOM_H
#define RACKC_BOM_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "ir.h"

/* What a line lacks (struct bom_line's @missing). */
enum {
	MISS_PN = 1,	/* no part number (of its stock length) */
	MISS_INLET = 2, /* its devices' supplies have no inlet: no cords */
	MISS_CORD = 4,	/* no catalog cord fits its devices' inlet */
	MISS_PRICE = 8, /* prices were asked for and none is known */
};

/**
 * struct bom_line - one BOM line
 * @parts:   catalog parts on the line (first: the facts shown)
 * @nparts:  how many
 * @cls:     the part class
 * @length:  stock length (cables), -1 otherwise
 * @qty:     quantity
 * @price:   unit price in hundredths of @cur, -1 unknown
 * @cur:     currency of @price (NULL when unknown)
 * @psrc:    where @price comes from (NULL when unknown)
 * @key:     part number, or the part name when it has none
 * @pn:      part number (of the stock length), NULL when none
 * @name:    name of the first part (last sort key)
 * @asm_part: the assembly (rack part) the line's devices come with, or
 *            RK_NONE; such a line is counted but not priced
 * @gcls, @gkey: class and key of the line it is listed under (its
 *            assembly's, or its own)
 * @missing: MISS_* bits
 * @cords:   power cords not counted for the line's devices
 * @spare:   a line of spares (struct policy) for the line before it
 */
struct bom_line {
	uint32_t *parts;
	uint32_t nparts;
	uint32_t cls;
	int64_t length;
	uint64_t qty;
	int64_t price;
	const char *cur;
	const char *psrc;
	const char *key;
	const char *pn;
	const char *name;
	uint32_t asm_part;
	uint32_t gcls;
	const char *gkey;
	unsigned missing;
	uint64_t cords;
	uint64_t on_c19; /* of @cords: C14 inlets on C19 outlets */
	bool spare;
};

/* The spares policy of a category (`spares CATEGORY, PERCENT, MINIMUM`). */
struct policy {
	int64_t ppm; /* share of each line, parts per million; -1: none */
	int64_t min;
};

/* One part counted inside assemblies of one rack part. */
struct content {
	uint32_t asm_part, part;
	uint64_t qty;
};

struct bom {
	const struct rk_design *d;
	struct arena *a;
	struct bom_line *lines;
	uint32_t nlines, cap;
	char **notes;
	uint32_t nnotes, notes_cap;
	char **warns; /* one per incomplete line and what it lacks */
	uint32_t nwarns, warns_cap;
	struct policy spares[C__COUNT];
	bool priced; /* --prices given: a line without a price is missing one */
	uint64_t *no_inlet; /* per part: cords not counted, no inlet */
	uint64_t *no_cord;  /* per part: cords not counted, no cord part */
	uint64_t *on_c19;   /* per part: of no_cord, C14 inlets on C19s */
	uint64_t n_devices, n_racks, n_pdus, n_cdus, n_cables, n_xcvrs, n_cords;
};

/*
 * Sums of extended prices: one per (category, currency) over the priced
 * lines (lines inside an assembly have no price of their own), and one per
 * currency.  Quantities are never summed across lines: they count
 * unrelated units.  A sum that overflows is dropped (-1).
 */
struct sum {
	uint32_t cls; /* C__COUNT for a grand total */
	const char *cur;
	int64_t total;
};

struct totals {
	struct sum *s;
	uint32_t n, cap;
	uint32_t unpriced;
};

/*
 * Count, price and complete the BOM of ctx->d (reads the cable plan and
 * ctx->prices); false after a diagnostic (a bad price list).  Free with
 * bom_free().
 */
bool bom_build(struct backend_ctx *ctx, struct bom *b);
void bom_free(struct bom *b);
/* Sums of the priced lines (free t->s). */
struct totals bom_totals(const struct bom *b);
/* Extended price in hundredths, or -1 (unknown or overflow). */
int64_t bom_extended(const struct bom_line *l);
/* "part", "content" or "spare". */
const char *bom_line_kind(const struct bom_line *l);
/* The line's part names joined with "; " (in b->a). */
const char *bom_part_names(struct bom *b, const struct bom_line *l);
/* What the line lacks, joined with "; ", or NULL (in b->a). */
const char *bom_missing_text(struct bom *b, const struct bom_line *l);
/* The part's `estimated` facts joined with "; ", or NULL (in @a). */
const char *bom_estimates_text(const struct rk_design *d, uint32_t part,
			       struct arena *a);

#endif
