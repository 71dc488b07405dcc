/* SPDX-License-Identifier: MIT */
/* "Did you mean" suggestions by edit distance. */
#ifndef RACKC_SUGGEST_H
#define RACKC_SUGGEST_H

#include <stddef.h>

/**
 * struct suggest - running best match for a misspelt name
 * @want:  the name that was not found
 * @best:  the closest candidate so far, or NULL
 * @dist:  its Damerau-Levenshtein (optimal string alignment) distance
 */
struct suggest {
	const char *want;
	const char *best;
	size_t dist;
};

void suggest_init(struct suggest *s, const char *want);
/* Offer a candidate; ties keep the earlier (or lexically smaller) one. */
void suggest_offer(struct suggest *s, const char *cand);
/*
 * The suggestion if it is close enough to be useful (distance at most a
 * third of the longer name, and at least 1 edit allowed), else NULL.
 */
const char *suggest_result(const struct suggest *s);
/*
 * A message's hint as three "%s" arguments: "; did you mean 'X'?" when
 * there is a suggestion, nothing otherwise.  For example:
 *     elab_error(e, loc, "undefined-name", "unknown part '%s'" SUGGEST_FMT,
 *                name, SUGGEST_ARGS(&sg));
 */
#define SUGGEST_FMT "%s%s%s"
#define SUGGEST_ARGS(s)                                   \
	(suggest_result(s) ? "; did you mean '" : ""),    \
	    (suggest_result(s) ? suggest_result(s) : ""), \
	    (suggest_result(s) ? "'?" : "")
/* Edit distance, capped: returns cap + 1 when the distance exceeds cap. */
size_t suggest_edit_distance(const char *a, const char *b, size_t cap);

#endif
