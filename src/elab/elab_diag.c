/* SPDX-License-Identifier: MIT */
/*
 * Elaboration's diagnostics (elab.h, elab_int.h): errors and their notes,
 * repeats of an error inside a loop, the step limit and the table limits.
 * A leaf of the elaboration stage that statements, attributes,
 * declarations, imports and expressions all report through; it calls
 * nothing of them.
 */
#include "rackc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "context.h"
#include "elab.h"
#include "elab_int.h"

/*
 * A statement inside a loop fails the same way on every iteration: an
 * error at a source range already reported is a repeat.  Repeats are
 * recognised from the location alone, before any message is formatted or
 * name suggested, so a loop of ten million failing iterations costs ten
 * million lookups; they count toward --max-errors (diag_repeat), so such
 * a loop stops at the error limit.  Errors without a location are told
 * apart by their check and message.
 */
static uint64_t err_key(const struct srcloc *loc, const char *check,
			const char *msg)
{
	uint64_t h = 1469598103934665603ull;

	if (loc && loc->file) {
		h ^= ((uint64_t)loc->file << 48) ^
		     ((uint64_t)loc->begin << 16) ^ loc->end;
		h *= 1099511628211ull;
		h ^= ((uint64_t)loc->end << 32) ^ loc->begin;
	} else {
		for (const char *p = check ? check : ""; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
		for (const char *p = msg; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ull;
	}
	return h | 1;
}

/* Is @h in the table of reported errors?  With @add, put it there. */
static bool seen_key(struct elab *e, uint64_t h, bool add)
{
	uint32_t i;

	if (add && e->nseen * 2 >= e->seen_cap) {
		uint32_t ncap = e->seen_cap ? e->seen_cap * 2 : 256;
		uint64_t *t = xcalloc(ncap, sizeof(*t));

		for (uint32_t k = 0; k < e->seen_cap; k++) {
			if (!e->seen[k])
				continue;
			for (i = (uint32_t)e->seen[k] & (ncap - 1); t[i];
			     i = (i + 1) & (ncap - 1))
				;
			t[i] = e->seen[k];
		}
		free(e->seen);
		e->seen = t;
		e->seen_cap = ncap;
	}
	if (!e->seen_cap)
		return false;
	for (i = (uint32_t)h & (e->seen_cap - 1); e->seen[i];
	     i = (i + 1) & (e->seen_cap - 1))
		if (e->seen[i] == h)
			return true;
	if (add) {
		e->seen[i] = h;
		e->nseen++;
	}
	return false;
}

/* Count a repeat (reported nothing), stopping at the error limit. */
static void count_repeat(struct elab *e)
{
	e->last_shown = false;
	e->errors++;
	diag_repeat(e->diag, DIAG_ERROR);
	if (diag_stop(e->diag))
		e->stopped = true;
}

bool elab_repeat(struct elab *e, const struct srcloc *loc)
{
	if (e->host)
		return false; /* the host keeps the first error */
	if (e->stopped)
		return true;
	if (!loc || !loc->file || !seen_key(e, err_key(loc, NULL, ""), false))
		return false;
	count_repeat(e);
	return true;
}

void elab_error(struct elab *e, const struct srcloc *loc, const char *check,
		const char *fmt, ...)
{
	va_list ap;
	char *msg = NULL;
	int n;

	e->last_shown = false;
	if (e->host) {
		char buf[512];

		(void)check;
		va_start(ap, fmt);
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		e->host->error(e->host->ctx, loc, buf);
		return;
	}
	if (e->stopped)
		return;
	if (loc && loc->file) {
		if (seen_key(e, err_key(loc, NULL, ""), true)) {
			count_repeat(e);
			return;
		}
	}
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	msg = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	va_end(ap);
	if ((!loc || !loc->file) &&
	    seen_key(e, err_key(NULL, check, msg), true)) {
		free(msg);
		count_repeat(e);
		return;
	}
	e->errors++;
	e->last_shown = true;
	diag_emit(e->diag, DIAG_ERROR, loc, check, "%s", msg);
	free(msg);
	if (diag_stop(e->diag))
		e->stopped = true;
}

void elab_note(struct elab *e, const struct srcloc *loc, const char *fmt, ...)
{
	va_list ap;

	if (!e->last_shown)
		return; /* the error it explains was not shown */
	va_start(ap, fmt);
	diag_vemit(e->diag, DIAG_NOTE, loc, NULL, fmt, ap);
	va_end(ap);
}

bool elab_step(struct elab *e, const struct srcloc *loc)
{
	if (e->stopped)
		return false;
	if (++e->steps > RK_MAX_STEPS) {
		elab_error(e, loc, "limit",
			   "elaboration takes more than %u steps (the step "
			   "limit); is a loop too large?",
			   RK_MAX_STEPS);
		e->stopped = true;
		return false;
	}
	return true;
}

bool elab_check_table_limit(struct elab *e, uint32_t n, uint32_t max,
			    const struct srcloc *loc, const char *what)
{
	if (n < max)
		return true;
	if (streq(what, "links"))
		elab_error(e, loc, "limit",
			   "design has more than %u links (the link limit; "
			   "--max-links raises it)",
			   max);
	else
		elab_error(e, loc, "limit",
			   "design has more than %u %s (the size "
			   "limit)",
			   max, what);
	e->stopped = true;
	return false;
}
