/* SPDX-License-Identifier: MIT */
/*
 * A price list the user supplies (--prices FILE.csv), for the bill of
 * materials.
 *
 * The file is CSV (RFC 4180: quoted cells may hold commas, quotes and line
 * breaks) with a header row naming at least the columns part_number,
 * unit_price, currency and source, in any order (other columns are
 * ignored).  Each further row prices one part:
 *
 *   part_number  the orderable part number, as the BOM line shows it (a
 *                cable's per-length number), or, for a catalog part that
 *                has none, the part's name
 *   unit_price   a decimal number with at most two decimals, no sign, no
 *                thousands separators ("1234.5", "0.99")
 *   currency     an ISO 4217 code: three capital letters ("USD", "EUR")
 *   source       where the price comes from and when (a quote number and
 *                date, a list-price page and date); must not be empty
 *
 * Blank lines are skipped.  A part number listed twice, a malformed price
 * or currency, an empty source or a missing column is an error that names
 * the file and line.  Entries the design does not use are ignored.
 */
#ifndef RACKC_PRICES_H
#define RACKC_PRICES_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"

struct price {
	const char *key;    /* part number or part name */
	int64_t cents;	    /* hundredths of the currency unit */
	char currency[4];   /* ISO 4217 code */
	const char *source; /* where from, and when */
};

struct price_list {
	struct price *v; /* sorted by key */
	uint32_t n;
};

/*
 * Read @path into @pl (strings in ctx->arena; free pl->v).  Reports what
 * is wrong through ctx->diag; returns false then (an unreadable file also
 * marks the run failed, an I/O error).
 */
bool prices_load(struct backend_ctx *ctx, const char *path,
		 struct price_list *pl);
/* The entry for @key, or NULL. */
const struct price *prices_find(const struct price_list *pl, const char *key);

#endif
