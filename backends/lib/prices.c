/* SPDX-License-Identifier: MIT */
/* The user's price list (see prices.h). */
#include "rackc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "prices.h"
#include "textread.h"

/* "1234.5" -> 123450; false when it is not a plain decimal of <= 2 places
 * or does not fit. */
static bool parse_amount(const char *s, int64_t *cents)
{
	int64_t v = 0;
	int frac = -1;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || frac == 2)
			return false;
		if (!q_mul(v, 10, &v) || !q_add(v, *s - '0', &v))
			return false;
		if (frac >= 0)
			frac++;
	}
	if (frac == 0)
		return false; /* "12." */
	for (int k = frac < 0 ? 0 : frac; k < 2; k++)
		if (!q_mul(v, 10, &v))
			return false;
	*cents = v;
	return true;
}

static int price_cmp(const void *pa, const void *pb)
{
	const struct price *x = pa, *y = pb;

	return strcmp(x->key, y->key);
}

#define PERR(...) diag_error(ctx->diag, NULL, "prices", __VA_ARGS__)

bool prices_load(struct backend_ctx *ctx, const char *path,
		 struct price_list *pl)
{
	static const char *const need[] = { "part_number", "unit_price",
					    "currency", "source" };
	int col[4] = { -1, -1, -1, -1 };
	struct csv_record r = { NULL, 0, 0, 0 };
	uint32_t line = 1, cap = 0;
	size_t n = 0;
	char *text = rk_slurp(path, &n);
	const char *p = text, *err = NULL;
	bool ok = true;

	pl->v = NULL;
	pl->n = 0;
	if (!text) {
		diag_error(ctx->diag, NULL, "io",
			   "cannot read price list %s: %s", path,
			   strerror(errno));
		ctx->failed = true;
		return false;
	}
	if (strlen(text) != n) {
		PERR("%s: a NUL byte in the price list", path);
		free(text);
		return false;
	}
	if (!csv_read_record(ctx->arena, &p, &line, &r, &err)) {
		PERR("%s:%u: %s", path, r.line, err);
		ok = false;
	}
	for (uint32_t i = 0; ok && i < r.n; i++)
		for (unsigned k = 0; k < 4; k++)
			if (streq(r.cell[i], need[k]))
				col[k] = col[k] < 0 ? (int)i : -2;
	for (unsigned k = 0; ok && k < 4; k++)
		if (col[k] < 0) {
			PERR("%s:1: the header %s column '%s'", path,
			     col[k] == -1 ? "has no" : "repeats the", need[k]);
			ok = false;
		}
	while (ok && *p) {
		struct price *e;
		const char *cur;

		if (!csv_read_record(ctx->arena, &p, &line, &r, &err)) {
			PERR("%s:%u: %s", path, r.line, err);
			ok = false;
			break;
		}
		if (r.n == 1 && !r.cell[0][0])
			continue; /* a blank line */
		for (unsigned k = 0; k < 4; k++)
			if ((uint32_t)col[k] >= r.n) {
				PERR("%s:%u: no '%s' cell", path, r.line,
				     need[k]);
				ok = false;
			}
		if (!ok)
			break;
		e = VEC_PUSH(pl->v, pl->n, cap);
		e->key = r.cell[col[0]];
		cur = r.cell[col[2]];
		e->source = r.cell[col[3]];
		if (!e->key[0]) {
			PERR("%s:%u: empty part number", path, r.line);
			ok = false;
		}
		if (!parse_amount(r.cell[col[1]], &e->cents)) {
			PERR("%s:%u: unit price '%s' is not a decimal number "
			     "with at most two decimals",
			     path, r.line, r.cell[col[1]]);
			ok = false;
		}
		if (strlen(cur) != 3 || cur[0] < 'A' || cur[0] > 'Z' ||
		    cur[1] < 'A' || cur[1] > 'Z' || cur[2] < 'A' ||
		    cur[2] > 'Z') {
			PERR("%s:%u: currency '%s' is not an ISO 4217 code "
			     "(three capital letters)",
			     path, r.line, cur);
			ok = false;
		} else {
			memcpy(e->currency, cur, 4);
		}
		if (!e->source[0]) {
			PERR("%s:%u: price of '%s' has no source (where it "
			     "comes from and when)",
			     path, r.line, e->key);
			ok = false;
		}
	}
	free(r.cell);
	free(text);
	if (ok && pl->n) {
		qsort(pl->v, pl->n, sizeof(*pl->v), price_cmp);
		for (uint32_t i = 1; i < pl->n; i++)
			if (streq(pl->v[i].key, pl->v[i - 1].key)) {
				PERR("%s: part number '%s' is priced twice",
				     path, pl->v[i].key);
				ok = false;
			}
	}
	if (!ok) {
		free(pl->v);
		pl->v = NULL;
		pl->n = 0;
	}
	return ok;
}

const struct price *prices_find(const struct price_list *pl, const char *key)
{
	struct price k = { key, 0, "", NULL };

	return pl->n ? bsearch(&k, pl->v, pl->n, sizeof(*pl->v), price_cmp)
		     : NULL;
}
