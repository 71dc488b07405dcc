/* SPDX-License-Identifier: MIT */
/*
 * "Did you mean" suggestions.  The distance is the optimal string alignment
 * form of Damerau-Levenshtein (insert, delete or substitute a byte, or swap
 * two adjacent bytes), computed with a cap: when the cap is small only the
 * diagonal band of cells that can stay within it is kept, three rows are
 * enough, and the work stops as soon as a whole row exceeds the cap.  Memory
 * is therefore proportional to the cap or to the shorter name, whichever is
 * smaller; a common prefix and suffix are skipped first, so long names that
 * differ in a few places are cheap.  The best candidate does not depend on
 * the order of the offers.
 */
#include "rackc.h"

#include <stdlib.h>
#include <string.h>

#include "suggest.h"

/* Distance tables up to this many cells live on the stack. */
#define SMALL_CELLS 192

/*
 * The table of an suggest_edit_distance() run: @a is the longer name.  Cell (i, j)
 * (i bytes of a against j bytes of b) lives at index j - i + cap of its row
 * when @band is set, at index j otherwise; cells that are not stored are
 * worth @inf, which is cap + 1 (every distance above the cap is clamped).
 */
struct osa {
	const char *a, *b;
	size_t la, lb;
	size_t cap, inf;
	size_t width;
	bool band;
};

/* Which j row @i's index @k stands for; false if none. */
static bool osa_col(const struct osa *o, size_t i, size_t k, size_t *j)
{
	if (o->band) {
		if (k + i < o->cap)
			return false;
		*j = k + i - o->cap;
	} else {
		*j = k;
	}
	return *j <= o->lb;
}

static size_t osa_get(const struct osa *o, const size_t *row, size_t i,
		      size_t j)
{
	size_t k = j;

	if (o->band) {
		if (j + o->cap < i)
			return o->inf;
		k = j + o->cap - i;
	}
	return k < o->width ? row[k] : o->inf;
}

static size_t osa_cell(const struct osa *o, const size_t *prev2,
		       const size_t *prev, const size_t *cur, size_t i,
		       size_t j)
{
	const char *a = o->a, *b = o->b;
	size_t v, t;

	if (j == 0)
		return i;
	v = osa_get(o, prev, i - 1, j - 1) + (a[i - 1] != b[j - 1]);
	t = osa_get(o, prev, i - 1, j) + 1;
	if (t < v)
		v = t;
	t = osa_get(o, cur, i, j - 1) + 1;
	if (t < v)
		v = t;
	if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
		t = osa_get(o, prev2, i - 2, j - 2) + 1;
		if (t < v)
			v = t;
	}
	return v;
}

static size_t osa_run(const struct osa *o, size_t *mem)
{
	size_t *prev2 = mem, *prev = mem + o->width, *cur = prev + o->width;
	size_t j;

	for (size_t k = 0; k < o->width; k++)
		prev[k] = osa_col(o, 0, k, &j) && j < o->inf ? j : o->inf;
	for (size_t i = 1; i <= o->la; i++) {
		size_t rowmin = o->inf;
		size_t *tmp;

		for (size_t k = 0; k < o->width; k++) {
			size_t v = o->inf;

			if (osa_col(o, i, k, &j))
				v = osa_cell(o, prev2, prev, cur, i, j);
			cur[k] = v < o->inf ? v : o->inf;
			if (cur[k] < rowmin)
				rowmin = cur[k];
		}
		/* Every path to the end crosses this row (or the one above
		 * it, for a swap, which costs no less). */
		if (rowmin >= o->inf)
			return o->inf;
		tmp = prev2;
		prev2 = prev;
		prev = cur;
		cur = tmp;
	}
	return osa_get(o, prev, o->la, o->lb);
}

size_t suggest_edit_distance(const char *a, const char *b, size_t cap)
{
	size_t small[SMALL_CELLS];
	size_t *mem = small;
	struct osa o;
	size_t d;

	o.la = strlen(a);
	o.lb = strlen(b);
	/* A common prefix and suffix never add to the distance. */
	while (o.la && o.lb && *a == *b) {
		a++;
		b++;
		o.la--;
		o.lb--;
	}
	while (o.la && o.lb && a[o.la - 1] == b[o.lb - 1]) {
		o.la--;
		o.lb--;
	}
	/* The distance is symmetric; make b the shorter name. */
	if (o.la < o.lb) {
		size_t n = o.la;

		o.la = o.lb;
		o.lb = n;
		o.a = b;
		o.b = a;
	} else {
		o.a = a;
		o.b = b;
	}
	if (o.la - o.lb > cap)
		return cap + 1;
	/* The distance never exceeds la, so a larger cap changes nothing. */
	o.cap = cap < o.la ? cap : o.la;
	o.inf = o.cap + 1;
	o.band = o.cap < o.lb / 2;
	o.width = o.band ? 2 * o.cap + 1 : o.lb + 1;

	if (o.width > SMALL_CELLS / 3)
		mem = xmalloc(3 * o.width * sizeof(*mem));
	d = osa_run(&o, mem);
	if (mem != small)
		free(mem);
	return d >= o.inf ? cap + 1 : d;
}

void suggest_init(struct suggest *s, const char *want)
{
	s->want = want;
	s->best = NULL;
	s->dist = SIZE_MAX;
}

void suggest_offer(struct suggest *s, const char *cand)
{
	size_t d;

	if (!cand || !s->want)
		return;
	/* A candidate that cannot beat or tie the best is cut off early. */
	d = suggest_edit_distance(s->want, cand, s->best ? s->dist : SIZE_MAX);
	if (!s->best || d < s->dist ||
	    (d == s->dist && strcmp(cand, s->best) < 0)) {
		s->best = cand;
		s->dist = d;
	}
}

const char *suggest_result(const struct suggest *s)
{
	size_t lw, lb, limit;

	if (!s->best || s->dist == 0)
		return NULL;
	lw = strlen(s->want);
	lb = strlen(s->best);
	limit = (lw > lb ? lw : lb) / 3;
	if (limit < 1)
		limit = 1;
	return s->dist <= limit ? s->best : NULL;
}
