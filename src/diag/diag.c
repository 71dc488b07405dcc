/* SPDX-License-Identifier: MIT */
/*
 * The diagnostic engine.  In text format each diagnostic is printed as it is
 * emitted, gcc style: the include chain when the file changes, the
 * "file:line:col: level: message [check]" header, and the source line with a
 * caret and tildes under the range (control bytes shown as '?', tabs copied
 * so the marker lines up, UTF-8 continuation bytes taking no column, long
 * lines cut to a window around the caret).  In json and sarif format the
 * diagnostics are only recorded, and diag_finish() writes one document.
 * -Werror promotion happens before counting and recording, so every output
 * agrees on the level.  Output goes only to the engine's stream.
 */
#include "rackc.h"
#include "arith.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"

/* Lines longer than this are shown as a window of this many bytes. */
#define SNIPPET_MAX 200u
/* Bytes of context kept before the caret in such a window. */
#define SNIPPET_LEAD 80u
/* The line-number field is at least this wide. */
#define GUTTER_MIN 4

/* A location resolved against its file. */
struct where {
	const struct srcfile *f;
	uint32_t begin, end;
	uint32_t line, col;
	uint32_t end_line, end_col;
};

void diag_init(struct diag_engine *d, FILE *out, const struct srcmgr *sm,
	       struct arena *a)
{
	memset(d, 0, sizeof(*d));
	d->out = out;
	d->sm = sm;
	d->arena = a;
	d->format = DIAG_TEXT;
	d->show_source = true;
}

bool diag_stop(const struct diag_engine *d)
{
	return d->max_errors > 0 && d->errors >= d->max_errors;
}

void diag_alone(struct diag_engine *d)
{
	d->alone = true;
}

void diag_forget(struct diag_engine *d)
{
	if (d->same)
		memset(d->same, 0xff, (size_t)d->same_cap * sizeof(*d->same));
	d->nsame = 0;
}

/* ---- identical findings ---- */

/*
 * A finding identical to one recorded before (the same level, place,
 * name and message: a loop's statement that says the same on every
 * iteration, a waiver in a loop that silences nothing) is counted with
 * that record (@repeats), neither recorded nor shown again: a million of
 * them cost a million lookups and one record.
 */
static uint64_t same_hash(enum diag_level level, const struct srcloc *loc,
			  const char *check, const char *msg)
{
	uint64_t h = 14695981039346656037ull;
	uint32_t w[4] = { (uint32_t)level, loc->file, loc->begin, loc->end };

	for (unsigned k = 0; k < 4; k++)
		h = (h ^ w[k]) * 1099511628211ull;
	for (const char *p = check ? check : ""; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	h = (h ^ 0xff) * 1099511628211ull;
	for (const char *p = msg; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	return hash_mix64(h);
}

static bool same_as(const struct diag_record *r, enum diag_level level,
		    const struct srcloc *loc, const char *check,
		    const char *msg)
{
	return r->level == level && r->loc.file == loc->file &&
	       r->loc.begin == loc->begin && r->loc.end == loc->end &&
	       (r->check ? check && streq(r->check, check) : !check) &&
	       streq(r->message, msg);
}

/* The slot of @h's chain where the record identical to the finding is,
 * or the free slot that ends it. */
static uint32_t same_slot(const struct diag_engine *d, uint64_t h,
			  enum diag_level level, const struct srcloc *loc,
			  const char *check, const char *msg)
{
	uint32_t mask = d->same_cap - 1, p = (uint32_t)h & mask;

	while (d->same[p] != UINT32_MAX &&
	       !same_as(&d->recs[d->same[p]], level, loc, check, msg))
		p = (p + 1) & mask;
	return p;
}

/* Remember record @idx (just pushed) as the first of its kind. */
static void same_add(struct diag_engine *d, uint32_t idx)
{
	const struct diag_record *r = &d->recs[idx];

	if (2 * (uint64_t)(d->nsame + 1) > d->same_cap) {
		uint32_t *old = d->same, ocap = d->same_cap;

		d->same_cap = d->same_cap ? 2 * d->same_cap : 64;
		if (!old) {
			d->same =
			    xmalloc((size_t)d->same_cap * sizeof(*d->same));
			arena_own(d->arena, (void **)&d->same);
		} else {
			d->same = xrealloc(d->same, (size_t)d->same_cap *
							sizeof(*d->same));
			old = xmalloc((size_t)ocap * sizeof(*old));
			memcpy(old, d->same, (size_t)ocap * sizeof(*old));
		}
		memset(d->same, 0xff, (size_t)d->same_cap * sizeof(*d->same));
		for (uint32_t k = 0; old && k < ocap; k++) {
			const struct diag_record *o;

			if (old[k] == UINT32_MAX)
				continue;
			o = &d->recs[old[k]];
			d->same[same_slot(
			    d,
			    same_hash(o->level, &o->loc, o->check, o->message),
			    o->level, &o->loc, o->check, o->message)] = old[k];
		}
		free(old);
	}
	d->same[same_slot(d, same_hash(r->level, &r->loc, r->check, r->message),
			  r->level, &r->loc, r->check, r->message)] = idx;
	d->nsame++;
}

static const char *level_name(enum diag_level level)
{
	switch (level) {
	case DIAG_NOTE:
		return "note";
	case DIAG_WARNING:
		return "warning";
	case DIAG_ERROR:
		break;
	}
	return "error";
}

static bool is_cont(unsigned char c)
{
	return c >= 0x80 && c <= 0xbf;
}

/*
 * Resolve @loc: false when it names no file.  Offsets past the end of the
 * file are clamped to it, and end is never before begin.
 */
static bool resolve(const struct srcmgr *sm, const struct srcloc *loc,
		    struct where *w)
{
	memset(w, 0, sizeof(*w));
	if (!loc || loc->file == 0)
		return false;
	w->f = srcmgr_file(sm, loc->file);
	if (!w->f)
		return false;
	w->begin = loc->begin < w->f->len ? loc->begin : w->f->len;
	w->end = loc->end < w->f->len ? loc->end : w->f->len;
	if (w->end < w->begin)
		w->end = w->begin;
	srcmgr_linecol(sm, loc->file, w->begin, &w->line, &w->col);
	srcmgr_linecol(sm, loc->file, w->end, &w->end_line, &w->end_col);
	return true;
}

static PRINTF(2, 0) char *vformat(struct arena *a, const char *fmt, va_list ap)
{
	va_list aq;
	char *p;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return arena_strndup(a, fmt, strlen(fmt));
	p = arena_alloc(a, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

/* ---- text format ---- */

static void print_includes(struct diag_engine *d, const struct srcfile *f)
{
	const char *lead = "In file included from ";
	struct srcloc at = f->included_from;
	uint32_t guard = d->sm->nfiles; /* an import cycle must not hang */

	while (at.file && guard--) {
		const struct srcfile *g = srcmgr_file(d->sm, at.file);
		uint32_t line, col;

		if (!g)
			break;
		srcmgr_linecol(d->sm, at.file, at.begin, &line, &col);
		fprintf(d->out, "%s%s:%" PRIu32 ":%" PRIu32 ":\n", lead,
			g->path, line, col);
		lead = "                 from ";
		at = g->included_from;
	}
}

/* Print one source byte so that it cannot upset a terminal. */
static void put_safe(FILE *out, unsigned char c)
{
	if ((c < 0x20 && c != '\t') || c == 0x7f)
		c = '?';
	putc(c, out);
}

static int digits(uint32_t n)
{
	int k = 1;

	while (n >= 10) {
		n /= 10;
		k++;
	}
	return k;
}

static void print_snippet(struct diag_engine *d, const struct where *w)
{
	const struct srcfile *f = w->f;
	const unsigned char *text;
	uint32_t start = f->lines[w->line - 1];
	uint32_t stop = w->line < f->nlines ? f->lines[w->line] : f->len;
	uint32_t len, bc, ec, ws, we, i;
	int width = digits(w->line);
	FILE *out = d->out;

	if (width < GUTTER_MIN)
		width = GUTTER_MIN;
	text = (const unsigned char *)f->text + start;
	len = stop - start;
	if (len && text[len - 1] == '\n') {
		len--;
		if (len && text[len - 1] == '\r')
			len--;
	}

	/* Caret and range end as byte indexes into the line. */
	bc = w->col - 1;
	if (bc > len)
		bc = len;
	ec = w->end - w->begin < len - bc ? bc + (w->end - w->begin) : len;

	/* Window [ws, we) of a long line, not splitting UTF-8 sequences. */
	ws = 0;
	we = len;
	if (len > SNIPPET_MAX) {
		ws = bc > SNIPPET_LEAD ? bc - SNIPPET_LEAD : 0;
		while (ws < bc && is_cont(text[ws]))
			ws++;
		we = len - ws > SNIPPET_MAX ? ws + SNIPPET_MAX : len;
		while (we < len && we > bc && is_cont(text[we]))
			we--;
		if (ec > we)
			ec = we;
	}

	fprintf(out, " %*" PRIu32 " | ", width, w->line);
	if (ws)
		fputs("...", out);
	for (i = ws; i < we; i++)
		put_safe(out, text[i]);
	if (we < len)
		fputs("...", out);
	putc('\n', out);

	fprintf(out, " %*s | ", width, "");
	if (ws)
		fputs("   ", out);
	for (i = ws; i < bc; i++) {
		if (text[i] == '\t')
			putc('\t', out);
		else if (!is_cont(text[i]))
			putc(' ', out);
	}
	putc('^', out);
	for (i = bc + 1; i < ec; i++)
		if (!is_cont(text[i]))
			putc('~', out);
	putc('\n', out);
}

static void print_text(struct diag_engine *d, enum diag_level level,
		       const struct where *w, const char *check,
		       const char *msg)
{
	FILE *out = d->out;

	if (w->f)
		fprintf(out, "%s:%" PRIu32 ":%" PRIu32 ": ", w->f->path,
			w->line, w->col);
	else
		fputs("rackc: ", out);
	fprintf(out, "%s: %s", level_name(level), msg);
	if (check)
		fprintf(out, " [%s]", check);
	putc('\n', out);
	if (w->f && d->show_source)
		print_snippet(d, w);
}

/*
 * Spilled records: a header, then the check name, the message, the
 * object name and the figures, each of the length the header gives (SPILL_NULL: none).
 */
#define SPILL_AFTER 1024u /* records kept in memory before they are spilled */
#define SPILL_NULL UINT32_MAX

struct spill_head {
	uint8_t level, hidden, kind;
	uint32_t repeats;
	struct srcloc loc;
	uint32_t len[4]; /* check, message, object, figures */
};

static bool spill_str(FILE *f, const char *s, uint32_t n)
{
	return n == SPILL_NULL || n == 0 || fwrite(s, 1, n, f) == n;
}

static uint32_t spill_len(const char *s)
{
	size_t n;

	if (!s)
		return SPILL_NULL;
	n = strlen(s);
	return n >= SPILL_NULL ? SPILL_NULL - 1 : (uint32_t)n;
}

/*
 * Write the records in memory to the spill file and release their strings;
 * on a write error the file keeps what was complete before, and the
 * records stay in memory (spilling stops).
 */
static void spill_out(struct diag_engine *d)
{
	long at;
	bool ok = true;

	if (!d->spill) {
		d->spill = tmpfile();
		if (!d->spill) {
			d->spill_ok = false;
			return;
		}
	}
	for (uint32_t i = 0; i < d->nrecs; i++) {
		const struct diag_record *r = &d->recs[i];
		struct spill_head h;

		memset(&h, 0, sizeof(h));
		h.level = (uint8_t)r->level;
		h.hidden = r->hidden;
		h.kind = r->kind;
		h.repeats = r->repeats;
		h.loc = r->loc;
		h.len[0] = spill_len(r->check);
		h.len[1] = spill_len(r->message);
		h.len[2] = spill_len(r->object);
		h.len[3] = spill_len(r->figures);
		if (fwrite(&h, sizeof(h), 1, d->spill) != 1 ||
		    !spill_str(d->spill, r->check, h.len[0]) ||
		    !spill_str(d->spill, r->message, h.len[1]) ||
		    !spill_str(d->spill, r->object, h.len[2]) ||
		    !spill_str(d->spill, r->figures, h.len[3])) {
			ok = false;
			break;
		}
	}
	at = ok && fflush(d->spill) == 0 && !ferror(d->spill) ? ftell(d->spill)
							      : -1;
	if (at < 0) {
		d->spill_ok = false;
		return;
	}
	d->spilled = (uint64_t)at;
	d->nrecs = 0;
	diag_forget(d); /* the records it points at are gone */
	arena_release(d->arena, &d->spill_mark);
}

void diag_spill(struct diag_engine *child)
{
	child->spill_ok = true;
	child->spill_mark = arena_mark(child->arena);
}

void diag_unspill(struct diag_engine *child)
{
	if (child->spill)
		fclose(child->spill);
	child->spill = NULL;
	child->spilled = 0;
	child->spill_ok = false;
}

/* Count @n diagnostics of @level, the first @rep of them repeats. */
static void count(struct diag_engine *d, enum diag_level level, uint32_t n,
		  uint32_t rep)
{
	if (level == DIAG_ERROR) {
		d->errors = arith_usadd32(d->errors, n);
		d->rep_errors = arith_usadd32(d->rep_errors, rep);
	} else if (level == DIAG_WARNING) {
		d->warnings = arith_usadd32(d->warnings, n);
		d->rep_warnings = arith_usadd32(d->rep_warnings, rep);
	}
}

/*
 * Count, record or print one diagnostic whose level is final, with
 * @repeats identical ones (a replayed record's); a note of @kind.  A note
 * that explains a finding not shown (a repeat, or past the error limit)
 * is dropped with it.  Returns whether a record keeps @msg.
 */
static bool emit_final(struct diag_engine *d, enum diag_level level,
		       const struct srcloc *loc, const char *check,
		       const char *msg, uint32_t repeats, uint8_t kind)
{
	struct where w;
	bool located;
	bool keep = d->defer || d->format != DIAG_TEXT;
	struct srcloc at = { 0, 0, 0 };

	if (level == DIAG_NOTE) {
		if (d->last_dropped && kind != DIAG_NOTE_ALONE) {
			d->object = NULL;
			d->figures = NULL;
			return false;
		}
	} else {
		d->last_dropped = false;
		/* a deferred engine's repeats ride on the record, and are
		 * counted as repeats where it is replayed */
		count(d, level, 1 + repeats, d->defer ? 0 : repeats);
	}

	located = !d->defer && resolve(d->sm, loc, &w);
	if (keep) {
		if (d->defer)
			at = loc ? *loc : at;
		else if (located)
			at = (struct srcloc){ loc->file, w.begin, w.end };
	}
	if (keep && level != DIAG_NOTE && d->same) {
		uint64_t h = same_hash(level, &at, check, msg);
		uint32_t p = same_slot(d, h, level, &at, check, msg);

		if (d->same[p] != UINT32_MAX) {
			struct diag_record *r = &d->recs[d->same[p]];

			r->repeats = arith_usadd32(r->repeats, 1 + repeats);
			if (!d->defer)
				count(d, level, 0, 1);
			d->last_dropped = true;
			d->object = NULL;
			d->figures = NULL;
			return false;
		}
	}
	if (level == DIAG_ERROR)
		d->shown_errors++;

	if (keep) {
		bool first = d->recs == NULL;
		struct diag_record *r =
		    VEC_PUSH(d->recs, d->nrecs, d->recs_cap);

		if (first)
			arena_own(d->arena, (void **)&d->recs);
		r->level = level;
		r->loc = at;
		r->check = check ? arena_strndup(d->arena, check, strlen(check))
				 : NULL;
		r->message = msg;
		r->hidden = false;
		r->kind = level == DIAG_NOTE ? kind : DIAG_NOTE_OWN;
		r->repeats = repeats;
		r->object = d->object ? arena_strndup(d->arena, d->object,
						      strlen(d->object))
				      : NULL;
		d->object = NULL;
		r->figures = d->figures && level != DIAG_NOTE
				 ? arena_strndup(d->arena, d->figures,
						 strlen(d->figures))
				 : NULL;
		d->figures = NULL;
		if (level != DIAG_NOTE)
			same_add(d, d->nrecs - 1);
		if (d->defer && d->spill_ok && d->nrecs >= SPILL_AFTER)
			spill_out(d);
		return true;
	}

	d->object = NULL;
	d->figures = NULL;
	if (level != DIAG_NOTE) {
		uint32_t file = located ? loc->file : 0;

		if (file && w.f->included_from.file && file != d->last_file)
			print_includes(d, w.f);
		d->last_file = file;
	}
	print_text(d, level, &w, check, msg);
	return false;
}

bool diag_figure_next(const char **p, struct diag_figure *f)
{
	const char *s = *p, *c;
	char *e;
	long long v;
	long dim;

	if (!s || !*s || !(c = strchr(s, ':')) || !c[1] || c[2] != ':')
		return false;
	f->name = s;
	f->name_len = (uint32_t)(c - s);
	f->bound = c[1];
	dim = strtol(c + 3, &e, 10);
	if (*e != ':')
		return false;
	errno = 0;
	v = strtoll(e + 1, &e, 10);
	if (*e != ';' || errno)
		return false;
	f->dim = (int)dim;
	f->v = v;
	*p = e + 1;
	return true;
}

void diag_vemit(struct diag_engine *d, enum diag_level level,
		const struct srcloc *loc, const char *check, const char *fmt,
		va_list ap)
{
	uint8_t kind = d->alone ? DIAG_NOTE_ALONE : DIAG_NOTE_OWN;

	struct arena_mark mark = arena_mark(d->arena);

	d->alone = false;
	if (level == DIAG_WARNING && d->werror)
		level = DIAG_ERROR;
	/* the message goes again when no record keeps it: a million
	 * identical findings hold one */
	if (!emit_final(d, level, loc, check, vformat(d->arena, fmt, ap), 0,
			kind))
		arena_release(d->arena, &mark);
	/* the parser and elaboration stop here: more may exist */
	if (level == DIAG_ERROR && !d->defer && diag_stop(d))
		d->halted = true;
}

void diag_repeat(struct diag_engine *d, enum diag_level level)
{
	if (level == DIAG_WARNING && d->werror)
		level = DIAG_ERROR;
	count(d, level, 1, 1);
	if (level == DIAG_ERROR && !d->defer && diag_stop(d))
		d->halted = true;
}

void diag_fork(struct diag_engine *child, const struct diag_engine *parent,
	       struct arena *a)
{
	diag_init(child, NULL, parent->sm, a);
	child->format = parent->format;
	child->show_source = parent->show_source;
	child->werror = parent->werror;
	/* counts so far, so the child stops where the parent would have and
	 * reports the same totals; diag_join() adds only the records */
	child->max_errors = parent->max_errors;
	child->errors = parent->errors;
	child->warnings = parent->warnings;
	child->defer = true;
}

/*
 * One record of a deferred engine, as if emitted into @parent now; when
 * @capped, past the error limit it is counted and not shown.
 */
static void replay(struct diag_engine *parent, const struct diag_record *r,
		   bool capped)
{
	const char *m = r->message;
	bool cut = capped && !parent->defer && parent->max_errors &&
		   parent->shown_errors >= parent->max_errors;
	uint32_t before = parent->nrecs;

	/* the notes of the finding that reached the limit are shown */
	if (cut && r->level == DIAG_NOTE && r->kind != DIAG_NOTE_ALONE)
		cut = parent->last_dropped;
	if (cut) {
		/* the findings past the limit, and everything said with
		 * them */
		if (r->level != DIAG_NOTE) {
			count(parent, r->level, 1 + r->repeats, 0);
			if (r->level == DIAG_ERROR)
				parent->cut_errors = arith_usadd32(
				    parent->cut_errors, 1 + r->repeats);
			else
				parent->cut_warnings = arith_usadd32(
				    parent->cut_warnings, 1 + r->repeats);
		}
		parent->last_dropped = true;
		return;
	}
	if (r->hidden && !parent->defer) {
		if (r->level != DIAG_NOTE) {
			count(parent, r->level, 1 + r->repeats, r->repeats);
			parent->last_dropped = true;
		}
		return;
	}

	parent->object = r->object;
	parent->figures = r->figures;
	/* a parent that keeps its records keeps its own copy; one that
	 * prints has done with the text when emit_final returns */
	emit_final(parent, r->level, r->loc.file ? &r->loc : NULL, r->check,
		   parent->defer || parent->format != DIAG_TEXT
		       ? arena_strndup(parent->arena, m, strlen(m))
		       : m,
		   r->repeats, r->kind);
	if (r->hidden && parent->nrecs > before)
		parent->recs[parent->nrecs - 1].hidden = true;
}

/* The records of @child's spill file, in the order they were written. */
static void replay_spilled(struct diag_engine *parent,
			   const struct diag_engine *child)
{
	uint64_t left = child->spilled;
	char *buf = NULL;
	size_t cap = 0;

	if (!child->spill || fseek(child->spill, 0, SEEK_SET) != 0)
		die("cannot read back deferred diagnostics");
	while (left) {
		struct spill_head h;
		struct diag_record r;
		char *s[4];
		size_t need = 0, at = 0;

		if (left < sizeof(h) ||
		    fread(&h, sizeof(h), 1, child->spill) != 1)
			die("cannot read back deferred diagnostics");
		for (int k = 0; k < 4; k++)
			need +=
			    h.len[k] == SPILL_NULL ? 0 : (size_t)h.len[k] + 1;
		if (need > left - sizeof(h) + 4)
			die("cannot read back deferred diagnostics");
		if (need > cap) {
			cap = need * 2;
			buf = xrealloc(buf, cap);
		}
		for (int k = 0; k < 4; k++) {
			s[k] = NULL;
			if (h.len[k] == SPILL_NULL)
				continue;
			s[k] = buf + at;
			if (h.len[k] &&
			    fread(s[k], 1, h.len[k], child->spill) != h.len[k])
				die("cannot read back deferred diagnostics");
			s[k][h.len[k]] = '\0';
			at += (size_t)h.len[k] + 1;
			left -= h.len[k];
		}
		left -= sizeof(h);
		r.level = (enum diag_level)h.level;
		r.loc = h.loc;
		r.check = s[0];
		r.message = s[1];
		r.hidden = h.hidden;
		r.kind = h.kind;
		r.repeats = h.repeats;
		r.object = s[2];
		r.figures = s[3];
		replay(parent, &r, child->capped);
	}
	free(buf);
}

void diag_join(struct diag_engine *parent, const struct diag_engine *child)
{
	if (child->spilled)
		replay_spilled(parent, child);
	for (uint32_t i = 0; i < child->nrecs; i++)
		replay(parent, &child->recs[i], child->capped);
	/* repeats the child counted without a record */
	parent->errors = arith_usadd32(parent->errors, child->rep_errors);
	parent->rep_errors =
	    arith_usadd32(parent->rep_errors, child->rep_errors);
	parent->warnings = arith_usadd32(parent->warnings, child->rep_warnings);
	parent->rep_warnings =
	    arith_usadd32(parent->rep_warnings, child->rep_warnings);
}

void diag_emit(struct diag_engine *d, enum diag_level level,
	       const struct srcloc *loc, const char *check, const char *fmt,
	       ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vemit(d, level, loc, check, fmt, ap);
	va_end(ap);
}

/* ---- json and sarif ---- */

/* Length of the valid UTF-8 sequence at @p, or 0 if there is none. */
static size_t utf8_len(const unsigned char *p)
{
	unsigned char c = p[0];

	if (c >= 0xc2 && c <= 0xdf)
		return is_cont(p[1]) ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		unsigned char lo = c == 0xe0 ? 0xa0 : 0x80;
		unsigned char hi = c == 0xed ? 0x9f : 0xbf;

		return p[1] >= lo && p[1] <= hi && is_cont(p[2]) ? 3 : 0;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		unsigned char lo = c == 0xf0 ? 0x90 : 0x80;
		unsigned char hi = c == 0xf4 ? 0x8f : 0xbf;

		return p[1] >= lo && p[1] <= hi && is_cont(p[2]) &&
			       is_cont(p[3])
			   ? 4
			   : 0;
	}
	return 0;
}

static void json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putc('"', out);
	while (*p) {
		unsigned char c = *p;
		size_t n;

		if (c == '"' || c == '\\') {
			putc('\\', out);
			putc(c, out);
			p++;
		} else if (c == '\n') {
			fputs("\\n", out);
			p++;
		} else if (c == '\t') {
			fputs("\\t", out);
			p++;
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
			p++;
		} else if (c < 0x80) {
			putc(c, out);
			p++;
		} else if ((n = utf8_len(p)) > 0) {
			fwrite(p, 1, n, out);
			p += n;
		} else {
			fputs("\\ufffd", out);
			p++;
		}
	}
	putc('"', out);
}

static void json_doc(struct diag_engine *d)
{
	FILE *out = d->out;

	fputs("{\"version\":1,\"diagnostics\":[", out);
	for (uint32_t i = 0; i < d->nrecs; i++) {
		const struct diag_record *r = &d->recs[i];
		struct where w;

		if (i)
			putc(',', out);
		fprintf(out, "{\"level\":\"%s\"", level_name(r->level));
		if (resolve(d->sm, &r->loc, &w)) {
			fputs(",\"file\":", out);
			json_str(out, w.f->path);
			fprintf(out,
				",\"line\":%" PRIu32 ",\"column\":%" PRIu32
				",\"end_line\":%" PRIu32
				",\"end_column\":%" PRIu32,
				w.line, w.col, w.end_line, w.end_col);
		}
		fputs(",\"check\":", out);
		if (r->check)
			json_str(out, r->check);
		else
			fputs("null", out);
		fputs(",\"message\":", out);
		json_str(out, r->message);
		if (r->repeats)
			fprintf(out, ",\"repeats\":%" PRIu32, r->repeats);
		putc('}', out);
	}
	fprintf(out, "],\"errors\":%" PRIu32 ",\"warnings\":%" PRIu32,
		d->errors, d->warnings);
	/* findings past --max-errors: counted above, not listed */
	if (d->cut_errors || d->cut_warnings)
		fprintf(out, ",\"not_shown\":%" PRIu32,
			arith_usadd32(d->cut_errors, d->cut_warnings));
	fputs("}\n", out);
}

/* A path as a URI reference: bytes outside RFC 3986 pchar and '/' escaped. */
static void uri_str(FILE *out, const char *s)
{
	static const char keep[] = "-._~/!$&'()*+,;=:@";

	putc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr(keep, *p))
			putc(*p, out);
		else
			fprintf(out, "%%%02X", *p);
	}
	putc('"', out);
}

static void sarif_message(FILE *out, const char *msg)
{
	fputs("\"message\":{\"text\":", out);
	json_str(out, msg);
	putc('}', out);
}

/*
 * SARIF, as GitHub code scanning reads it.  Artifact URIs are relative to
 * SRCROOT, the repository root (--sarif-root, default the directory rackc
 * runs in), which carries no URI of its own, so the document holds no path
 * of the machine that made it; a file outside that root gets an absolute
 * file:// URI, never "../".  Every known rule is listed (checks with their
 * default level, note, warning or error, a disabled one with "enabled":
 * false, then error classes); a result names its rule by id and index, the
 * object a check finding is about as a logical location, and has two
 * partial fingerprints: primaryLocationLineHash, computed as GitHub's
 * upload action computes it (github/codeql-action src/fingerprints.ts)
 * from the lines of the file, and rackc's own, a hash of the rule, the
 * artifact, the object and the message with the number of earlier results
 * of the same hash, which stays the same when lines move.  A finding
 * without a source location (an unreadable input, a command-line error)
 * is a tool execution notification of the run's invocation, since GitHub
 * drops a result without one; a note without one is folded into the
 * message of the finding it explains.
 */

struct sarif_files {
	char *root; /* real path of the SRCROOT base, NULL when unknown */
	/* per file id: line hashes (GitHub's), computed on first use */
	uint64_t **lh;
	uint32_t **lc, *nl;
	uint32_t nfiles;
};

/* @path under directory @dir: the rest after "dir/", else NULL. */
static const char *under(const char *path, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	if (!n || strncmp(path, dir, n) != 0)
		return NULL;
	if (dir[n - 1] == '/')
		return path + n;
	return path[n] == '/' ? path + n + 1 : NULL;
}

/*
 * The URI of @path (a malloc'ed string) and whether it is relative to
 * SRCROOT; otherwise it is an absolute file:// URI.
 */
static char *artifact_uri(const struct sarif_files *sf, const char *path,
			  bool *relative)
{
	char *real = realpath(path, NULL);
	const char *rest;
	char *out;

	*relative = true;
	if (!real)
		return xstrdup(path[0] == '/' ? path + 1 : path);
	if ((rest = under(real, sf->root))) {
		out = xstrdup(rest);
	} else {
		*relative = false;
		out = xmalloc(strlen(real) + 8);
		strcpy(out, "file://");
		strcat(out, real);
	}
	free(real);
	return out;
}

/* ---- GitHub's primaryLocationLineHash (codeql-action fingerprints.ts) --
 * For every line, a rolling hash (multiplier 37, modulo 2^64) of the 100
 * UTF-16 code units from the line's start, spaces and tabs left out, CR
 * and CRLF read as LF, the text followed by a code unit 65535 and zeros;
 * written as lower-case hex and the number of earlier lines of the same
 * hash plus one. */

#define GH_BLOCK 100u

struct gh_state {
	uint16_t win[GH_BLOCK];
	int64_t lines[GH_BLOCK]; /* line starting at that unit, or -1 */
	uint64_t h, first_mod;
	uint32_t index, line;
	bool line_start, prev_cr;
	/* out */
	uint64_t *lh;
	uint32_t *lc, nl, cap;
	/* hash -> count, open addressing */
	uint64_t *keys;
	uint32_t *counts, mask;
};

static void gh_output(struct gh_state *g)
{
	uint32_t k = (uint32_t)((g->h * 0x9e3779b97f4a7c15ull) >> 32) & g->mask;
	int64_t ln = g->lines[g->index];

	while (g->counts[k] && g->keys[k] != g->h)
		k = (k + 1) & g->mask;
	g->keys[k] = g->h;
	g->counts[k]++;
	if (ln >= 1 && (uint64_t)ln <= g->cap) {
		g->lh[ln - 1] = g->h;
		g->lc[ln - 1] = g->counts[k];
		if ((uint32_t)ln > g->nl)
			g->nl = (uint32_t)ln;
	}
	g->lines[g->index] = -1;
}

static void gh_update(struct gh_state *g, uint16_t cur)
{
	uint16_t begin = g->win[g->index];

	g->win[g->index] = cur;
	g->h = 37 * g->h + cur - g->first_mod * begin;
	g->index = (g->index + 1) % GH_BLOCK;
}

static void gh_char(struct gh_state *g, uint16_t cur)
{
	if (cur == ' ' || cur == '\t' || (g->prev_cr && cur == '\n')) {
		g->prev_cr = false;
		return;
	}
	if (cur == '\r') {
		cur = '\n';
		g->prev_cr = true;
	} else {
		g->prev_cr = false;
	}
	if (g->lines[g->index] != -1)
		gh_output(g);
	if (g->line_start) {
		g->line_start = false;
		g->lines[g->index] = ++g->line;
	}
	if (cur == '\n')
		g->line_start = true;
	gh_update(g, cur);
}

/*
 * The next code point of UTF-8 text as a decoder following the WHATWG
 * rules reads it: a maximal ill-formed subsequence is one U+FFFD.
 */
static uint32_t gh_decode(const unsigned char *p, const unsigned char *end,
			  size_t *len)
{
	unsigned char c = p[0];
	uint32_t cp, need, lo = 0x80, hi = 0xbf;
	size_t k;

	if (c < 0x80) {
		*len = 1;
		return c;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		need = 1;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		cp = c & 0x0f;
		lo = c == 0xe0 ? 0xa0 : 0x80;
		hi = c == 0xed ? 0x9f : 0xbf;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		cp = c & 0x07;
		lo = c == 0xf0 ? 0x90 : 0x80;
		hi = c == 0xf4 ? 0x8f : 0xbf;
	} else {
		*len = 1;
		return 0xfffd;
	}
	for (k = 1; k <= need; k++) {
		unsigned char b = p + k < end ? p[k] : 0;

		if (p + k >= end || b < lo || b > hi) {
			*len = k;
			return 0xfffd;
		}
		lo = 0x80;
		hi = 0xbf;
		cp = cp << 6 | (b & 0x3f);
	}
	*len = k;
	return cp;
}

/* Line hashes of source file @id, computed once. */
static bool gh_file(struct diag_engine *d, struct sarif_files *sf, uint32_t id)
{
	const struct srcfile *f = srcmgr_file(d->sm, id);
	const unsigned char *p, *end;
	struct gh_state g;
	uint32_t slots = 16;

	if (!f || id >= sf->nfiles)
		return false;
	if (sf->lh[id])
		return true;
	memset(&g, 0, sizeof(g));
	g.first_mod = 1;
	for (unsigned i = 0; i < GH_BLOCK; i++) {
		g.first_mod *= 37;
		g.lines[i] = -1;
	}
	g.line_start = true;
	/* at most one line per byte, and one more */
	g.cap = f->len + 1;
	while (slots < 2 * (uint64_t)g.cap)
		slots *= 2;
	g.mask = slots - 1;
	g.keys = xcalloc(slots, sizeof(*g.keys));
	g.counts = xcalloc(slots, sizeof(*g.counts));
	g.lh = xcalloc(g.cap, sizeof(*g.lh));
	g.lc = xcalloc(g.cap, sizeof(*g.lc));
	p = (const unsigned char *)f->text;
	end = p + f->len;
	while (p < end) {
		size_t n;
		uint32_t cp = gh_decode(p, end, &n);

		p += n;
		if (cp >= 0x10000) {
			cp -= 0x10000;
			gh_char(&g, (uint16_t)(0xd800 + (cp >> 10)));
			gh_char(&g, (uint16_t)(0xdc00 + (cp & 0x3ff)));
		} else {
			gh_char(&g, (uint16_t)cp);
		}
	}
	gh_char(&g, 65535);
	for (unsigned i = 0; i < GH_BLOCK; i++) {
		if (g.lines[g.index] != -1)
			gh_output(&g);
		gh_update(&g, 0);
	}
	free(g.keys);
	free(g.counts);
	sf->lh[id] = g.lh;
	sf->lc[id] = g.lc;
	sf->nl[id] = g.nl;
	return true;
}

/* The primaryLocationLineHash of a result at @w (line 1 without one). */
static void sarif_line_hash(struct diag_engine *d, struct sarif_files *sf,
			    uint32_t file, uint32_t line)
{
	if (!gh_file(d, sf, file) || line < 1 || line > sf->nl[file])
		return;
	fprintf(d->out,
		"\"primaryLocationLineHash\":\"%" PRIx64 ":%" PRIu32 "\",",
		sf->lh[file][line - 1], sf->lc[file][line - 1]);
}

/* The physicalLocation member of a location, if @loc has a file. */
static bool sarif_physical(struct diag_engine *d, const struct sarif_files *sf,
			   const struct srcloc *loc)
{
	FILE *out = d->out;
	struct where w;
	bool rel;
	char *uri;

	if (!resolve(d->sm, loc, &w))
		return false;
	uri = artifact_uri(sf, w.f->path, &rel);
	fputs("\"physicalLocation\":{\"artifactLocation\":{\"uri\":", out);
	uri_str(out, uri);
	if (rel)
		fputs(",\"uriBaseId\":\"SRCROOT\"", out);
	fprintf(out,
		"},\"region\":{\"startLine\":%" PRIu32
		",\"startColumn\":%" PRIu32 ",\"endLine\":%" PRIu32
		",\"endColumn\":%" PRIu32 "}}",
		w.line, w.col, w.end_line, w.end_col);
	free(uri);
	return true;
}

static const char *rule_of(const struct diag_record *r)
{
	return r->check ? r->check : "rackc";
}

static const char *level_of(enum diag_level l)
{
	return l == DIAG_ERROR	   ? "error"
	       : l == DIAG_WARNING ? "warning"
				   : "note";
}

/* The rule index of @id, remembering the last one asked (results of one
 * rule come in runs). */
struct rule_memo {
	const char *id;
	unsigned idx;
};

static unsigned rule_index(struct rule_memo *m, const char *id)
{
	if (!m->id || !streq(m->id, id)) {
		m->id = id;
		m->idx = diag_rule_index(id);
	}
	return m->idx;
}

/* The known rules, then any other id a result uses; returns the count
 * and fills @extra with those others (by index past the known ones). */
static uint32_t sarif_rules(struct diag_engine *d, const char ***extra,
			    uint32_t *nextra)
{
	FILE *out = d->out;
	unsigned n = diag_rule_count();
	struct diag_rule r;
	struct rule_memo memo = { NULL, 0 };

	*extra = arena_alloc(d->arena, (d->nrecs + 1) * sizeof(**extra));
	*nextra = 0;
	for (unsigned k = 0; diag_rule_at(k, &r); k++) {
		/* GitHub takes note, warning or error; a check that is off
		 * by default is a note rule that is not enabled */
		const char *lv = level_of(r.level);

		fputs(k ? ",{\"id\":" : "{\"id\":", out);
		json_str(out, r.id);
		fputs(",\"name\":", out);
		json_str(out, r.id);
		fputs(",\"shortDescription\":{\"text\":", out);
		json_str(out, r.summary);
		fputs("},\"fullDescription\":{\"text\":", out);
		json_str(out, r.full ? r.full : r.summary);
		fputs("},\"help\":{\"text\":", out);
		{
			char *h = arena_printf(
			    d->arena,
			    "%s Shown as [%s] after the message. Default "
			    "level: "
			    "%s.%s",
			    r.full ? r.full : r.summary, r.id,
			    r.level == DIAG_NOTE ? "off" : lv,
			    r.check
				? " A check: -W/-E/-Wno- set its level, and "
				  "waive \"NAME\", \"reason\" in the design "
				  "silences it for one object."
				: "");

			json_str(out, h);
		}
		fprintf(out, "},\"defaultConfiguration\":{\"level\":\"%s\"%s}}",
			lv, r.level == DIAG_NOTE ? ",\"enabled\":false" : "");
	}
	for (uint32_t i = 0; i < d->nrecs; i++) {
		const char *id = rule_of(&d->recs[i]);
		uint32_t k;

		if (d->recs[i].level == DIAG_NOTE && i > 0)
			continue;
		if (rule_index(&memo, id) != UINT32_MAX)
			continue;
		for (k = 0; k < *nextra && !streq((*extra)[k], id); k++)
			;
		if (k < *nextra)
			continue;
		(*extra)[(*nextra)++] = id;
		fputs(",{\"id\":", out);
		json_str(out, id);
		fputs(",\"shortDescription\":{\"text\":\"diagnostic\"},"
		      "\"fullDescription\":{\"text\":\"A diagnostic of class ",
		      out);
		fputs("this id.\"},\"help\":{\"text\":\"See the message.\"},"
		      "\"defaultConfiguration\":{\"level\":\"error\"}}",
		      out);
	}
	return n + *nextra;
}

/* 64-bit FNV-1a over the strings of @s, each followed by a NUL. */
static uint64_t fp_hash(const char *const *s, unsigned n)
{
	uint64_t h = 14695981039346656037ull;

	for (unsigned k = 0; k < n; k++) {
		for (const unsigned char *p = (const unsigned char *)s[k]; *p;
		     p++)
			h = (h ^ *p) * 1099511628211ull;
		h = (h ^ 0) * 1099511628211ull;
	}
	return h;
}

/* Occurrences of each fingerprint hash so far: open addressing, linear
 * in the results. */
struct fp_counts {
	uint64_t *keys;
	uint32_t *counts, mask;
};

static uint32_t fp_count(struct fp_counts *t, uint64_t h)
{
	uint32_t k = (uint32_t)((h * 0x9e3779b97f4a7c15ull) >> 32) & t->mask;

	while (t->counts[k] && t->keys[k] != h)
		k = (k + 1) & t->mask;
	t->keys[k] = h;
	return ++t->counts[k];
}

static bool has_place(struct diag_engine *d, const struct diag_record *r)
{
	struct where w;

	return resolve(d->sm, &r->loc, &w);
}

/* The message of record @i with the notes after it that have no source
 * location folded in (GitHub shows only located related locations). */
static void sarif_message_with_notes(struct diag_engine *d, uint32_t i)
{
	FILE *out = d->out;
	const struct diag_record *r = &d->recs[i];
	size_t len = strlen(r->message) + 1;
	char *m, *o;

	for (uint32_t k = i + 1; k < d->nrecs && d->recs[k].level == DIAG_NOTE;
	     k++)
		if (!has_place(d, &d->recs[k]))
			len += strlen(d->recs[k].message) + 7;
	o = m = xmalloc(len);
	o += sprintf(o, "%s", r->message);
	for (uint32_t k = i + 1; k < d->nrecs && d->recs[k].level == DIAG_NOTE;
	     k++)
		if (!has_place(d, &d->recs[k]))
			o += sprintf(o, "\nnote: %s", d->recs[k].message);
	sarif_message(out, m);
	free(m);
}

/* The index of rule @id among the run's rules: a known rule's, else the
 * extra rule's, after the @nknown known ones. */
static unsigned sarif_rule_index(struct rule_memo *memo, const char *id,
				 const char **extra, uint32_t nextra,
				 uint32_t nknown)
{
	unsigned idx = rule_index(memo, id);

	if (idx == UINT32_MAX) {
		for (idx = 0; idx < nextra && !streq(extra[idx], id); idx++)
			;
		idx += nknown;
	}
	return idx;
}

/* The tool execution notifications: every finding without a source
 * location, its notes folded into its message. */
static bool sarif_notifications(struct diag_engine *d, uint32_t nknown,
				const char **extra, uint32_t nextra)
{
	FILE *out = d->out;
	struct rule_memo memo = { NULL, 0 };
	bool any = false, failed = false;

	fputs("\"toolExecutionNotifications\":[", out);
	for (uint32_t i = 0; i < d->nrecs; i++) {
		const struct diag_record *r = &d->recs[i];
		const char *id = rule_of(r);
		unsigned idx;

		if ((r->level == DIAG_NOTE && i > 0) || has_place(d, r))
			continue;
		idx = sarif_rule_index(&memo, id, extra, nextra, nknown);
		fputs(any ? ",{" : "{", out);
		any = true;
		failed |= r->level == DIAG_ERROR;
		fprintf(out, "\"level\":\"%s\",", level_of(r->level));
		sarif_message_with_notes(d, i);
		if (r->object) {
			fputs(",\"locations\":[{\"logicalLocations\":[{"
			      "\"fullyQualifiedName\":",
			      out);
			json_str(out, r->object);
			fputs(",\"kind\":\"resource\"}]}]", out);
		}
		fputs(",\"associatedRule\":{\"id\":", out);
		json_str(out, id);
		fprintf(out, ",\"index\":%u}}", idx);
	}
	fputs("],", out);
	return failed;
}

/* Room for each source file's line hashes, and the SRCROOT's real path. */
static void sarif_files_init(struct sarif_files *sf,
			     const struct diag_engine *d)
{
	memset(sf, 0, sizeof(*sf));
	sf->root = realpath(d->sarif_root ? d->sarif_root : ".", NULL);
	sf->nfiles = d->sm ? d->sm->nfiles + 1 : 0;
	sf->lh = xcalloc(sf->nfiles + 1, sizeof(*sf->lh));
	sf->lc = xcalloc(sf->nfiles + 1, sizeof(*sf->lc));
	sf->nl = xcalloc(sf->nfiles + 1, sizeof(*sf->nl));
}

static void sarif_files_free(struct sarif_files *sf)
{
	for (uint32_t k = 0; k < sf->nfiles; k++) {
		free(sf->lh[k]);
		free(sf->lc[k]);
	}
	free(sf->lh);
	free(sf->lc);
	free(sf->nl);
	free(sf->root);
}

/* A count per fingerprint: a table of at least twice @nrecs slots. */
static void fp_counts_init(struct fp_counts *fc, uint32_t nrecs)
{
	uint32_t slots = 16;

	while (slots < 2 * (uint64_t)nrecs)
		slots *= 2;
	fc->mask = slots - 1;
	fc->keys = xcalloc(slots, sizeof(*fc->keys));
	fc->counts = xcalloc(slots, sizeof(*fc->counts));
}

/*
 * The run up to its results: the tool and its rules (in *@extra those
 * rackc does not list), the invocation with its notifications, and the
 * SRCROOT base.
 */
static void sarif_head(struct diag_engine *d, const char ***extra,
		       uint32_t *nextra)
{
	FILE *out = d->out;
	bool failed;

	fputs("{\"version\":\"2.1.0\",\"$schema\":"
	      "\"https://json.schemastore.org/sarif-2.1.0.json\","
	      "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"rackc\","
	      "\"version\":\"" PACKAGE_VERSION "\","
	      "\"semanticVersion\":\"" PACKAGE_VERSION "\","
#ifdef RACKC_INFO_URI
	      "\"informationUri\":\"" RACKC_INFO_URI "\","
#endif
	      "\"rules\":[",
	      out);
	sarif_rules(d, extra, nextra);
	fputs("]}},\"invocations\":[{", out);
	failed = sarif_notifications(d, diag_rule_count(), *extra, *nextra);
	fprintf(out, "\"executionSuccessful\":%s}],",
		failed ? "false" : "true");
	fputs("\"originalUriBaseIds\":{"
	      "\"SRCROOT\":{\"description\":{\"text\":\"The repository "
	      "root (--sarif-root, by default the directory rackc ran "
	      "in).\"}}},"
	      "\"columnKind\":\"utf16CodeUnits\",\"results\":[",
	      out);
}

/*
 * The result of record @i, at @w, of rule index @idx: its rule, level,
 * message with the unlocated notes, location, and fingerprints (rackc's
 * own takes no line or column), its related locations left open.
 */
static void sarif_result(struct diag_engine *d, struct sarif_files *sf,
			 struct fp_counts *fc, uint32_t i, unsigned idx,
			 const struct where *w)
{
	FILE *out = d->out;
	const struct diag_record *r = &d->recs[i];
	const char *id = rule_of(r), *key[4];
	char *uri;
	bool rel;
	uint64_t h;

	fputs("{\"ruleId\":", out);
	json_str(out, id);
	fprintf(out, ",\"ruleIndex\":%u,\"level\":\"%s\",", idx,
		level_name(r->level));
	sarif_message_with_notes(d, i);
	fputs(",\"locations\":[{", out);
	sarif_physical(d, sf, &r->loc);
	if (r->object) {
		fputs(",\"logicalLocations\":[{"
		      "\"fullyQualifiedName\":",
		      out);
		json_str(out, r->object);
		fputs(",\"kind\":\"resource\"}]", out);
	}
	fputs("}]", out);
	uri = artifact_uri(sf, w->f->path, &rel);
	key[0] = id;
	key[1] = uri;
	key[2] = r->object ? r->object : "";
	key[3] = r->message;
	h = fp_hash(key, 4);
	fputs(",\"partialFingerprints\":{", out);
	sarif_line_hash(d, sf, r->loc.file, w->line);
	fprintf(out, "\"rackcFinding/v1\":\"%016" PRIx64 ":%" PRIu32 "\"}", h,
		fp_count(fc, h));
	free(uri);
}

static void sarif_doc(struct diag_engine *d)
{
	FILE *out = d->out;
	bool related = false, open = false, any = false;
	struct sarif_files sf;
	const char **extra;
	uint32_t nextra, nknown = diag_rule_count();
	struct fp_counts fc;
	struct rule_memo memo = { NULL, 0 };

	sarif_files_init(&sf, d);
	fp_counts_init(&fc, d->nrecs);
	sarif_head(d, &extra, &nextra);
	for (uint32_t i = 0; i < d->nrecs; i++) {
		const struct diag_record *r = &d->recs[i];
		struct where w;

		if (r->level == DIAG_NOTE && i > 0) {
			/* a located note is a related location of the result
			 * before it; others are folded into its message */
			if (!open || !has_place(d, r))
				continue;
			fputs(related ? ",{" : ",\"relatedLocations\":[{", out);
			sarif_physical(d, &sf, &r->loc);
			putc(',', out);
			sarif_message(out, r->message);
			putc('}', out);
			related = true;
			continue;
		}
		if (open)
			fputs(related ? "]}" : "}", out);
		open = related = false;
		if (!resolve(d->sm, &r->loc, &w))
			continue; /* a notification, its notes with it */
		if (any)
			putc(',', out);
		open = any = true;
		sarif_result(
		    d, &sf, &fc, i,
		    sarif_rule_index(&memo, rule_of(r), extra, nextra, nknown),
		    &w);
	}
	if (open)
		fputs(related ? "]}" : "}", out);
	fputs("]}]}\n", out);
	sarif_files_free(&sf);
	free(fc.keys);
	free(fc.counts);
}

void diag_finish(struct diag_engine *d)
{
	FILE *out = d->out;

	switch (d->format) {
	case DIAG_JSON:
		json_doc(d);
		break;
	case DIAG_SARIF:
		sarif_doc(d);
		break;
	case DIAG_TEXT:
		if (!d->errors && !d->warnings)
			break;
		if (d->cut_errors || d->cut_warnings) {
			fprintf(out,
				"rackc: stopped after %" PRIu32
				" error%s (%" PRIu32 " in all",
				d->shown_errors,
				d->shown_errors == 1 ? "" : "s", d->errors);
			if (d->cut_warnings)
				fprintf(out,
					"; %" PRIu32 " warning%s not shown",
					d->cut_warnings,
					d->cut_warnings == 1 ? "" : "s");
			fputs("); --max-errors=0 shows every one\n", out);
		} else if (d->halted) {
			fprintf(out,
				"rackc: stopped after %" PRIu32 " error%s; "
				"--max-errors=0 shows every one\n",
				d->errors, d->errors == 1 ? "" : "s");
		}
		if (d->errors)
			fprintf(out, "%" PRIu32 " error%s", d->errors,
				d->errors == 1 ? "" : "s");
		if (d->errors && d->warnings)
			fputs(" and ", out);
		if (d->warnings)
			fprintf(out, "%" PRIu32 " warning%s", d->warnings,
				d->warnings == 1 ? "" : "s");
		if (d->rep_errors + d->rep_warnings)
			fprintf(out,
				" generated (%" PRIu32 " of them repeats at "
				"places already reported, not shown).\n",
				d->rep_errors + d->rep_warnings);
		else
			fputs(" generated.\n", out);
		break;
	}
	fflush(out);
}
