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

static uint32_t sat_add_u32(uint32_t a, uint32_t b)
{
	return b > UINT32_MAX - a ? UINT32_MAX : a + b;
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
 * Spilled records: a header, then the check name, the message and the
 * object name, each of the length the header gives (SPILL_NULL: none).
 */
#define SPILL_AFTER 1024u /* records kept in memory before they are spilled */
#define SPILL_NULL UINT32_MAX

struct spill_head {
	uint8_t level, hidden, kind;
	uint32_t repeats;
	struct srcloc loc;
	uint32_t len[3]; /* check, message, object */
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
		if (fwrite(&h, sizeof(h), 1, d->spill) != 1 ||
		    !spill_str(d->spill, r->check, h.len[0]) ||
		    !spill_str(d->spill, r->message, h.len[1]) ||
		    !spill_str(d->spill, r->object, h.len[2])) {
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
		d->errors = sat_add_u32(d->errors, n);
		d->rep_errors = sat_add_u32(d->rep_errors, rep);
	} else if (level == DIAG_WARNING) {
		d->warnings = sat_add_u32(d->warnings, n);
		d->rep_warnings = sat_add_u32(d->rep_warnings, rep);
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

			r->repeats = sat_add_u32(r->repeats, 1 + repeats);
			if (!d->defer)
				count(d, level, 0, 1);
			d->last_dropped = true;
			d->object = NULL;
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
		if (level != DIAG_NOTE)
			same_add(d, d->nrecs - 1);
		if (d->defer && d->spill_ok && d->nrecs >= SPILL_AFTER)
			spill_out(d);
		return true;
	}

	d->object = NULL;
	if (level != DIAG_NOTE) {
		uint32_t file = located ? loc->file : 0;

		if (file && w.f->included_from.file && file != d->last_file)
			print_includes(d, w.f);
		d->last_file = file;
	}
	print_text(d, level, &w, check, msg);
	return false;
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
				parent->cut_errors = sat_add_u32(
				    parent->cut_errors, 1 + r->repeats);
			else
				parent->cut_warnings = sat_add_u32(
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
		char *s[3];
		size_t need = 0, at = 0;

		if (left < sizeof(h) ||
		    fread(&h, sizeof(h), 1, child->spill) != 1)
			die("cannot read back deferred diagnostics");
		for (int k = 0; k < 3; k++)
			need +=
			    h.len[k] == SPILL_NULL ? 0 : (size_t)h.len[k] + 1;
		if (need > left - sizeof(h) + 3)
			die("cannot read back deferred diagnostics");
		if (need > cap) {
			cap = need * 2;
			buf = xrealloc(buf, cap);
		}
		for (int k = 0; k < 3; k++) {
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
	parent->errors = sat_add_u32(parent->errors, child->rep_errors);
	parent->rep_errors = sat_add_u32(parent->rep_errors, child->rep_errors);
	parent->warnings = sat_add_u32(parent->warnings, child->rep_warnings);
	parent->rep_warnings =
	    sat_add_u32(parent->rep_warnings, child->rep_warnings);
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
			sat_add_u32(d->cut_errors, d->cut_warnings));
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
 * SARIF.  Artifact URIs are relative to one of two bases, never absolute:
 * STDLIB, the standard library directory (files found there), and
 * SRCROOT, the directory rackc runs in (every other file, with "../" where
 * it lies outside).  The bases themselves carry no URI, so the document
 * holds no path of the machine that made it; a code-scanning upload
 * resolves SRCROOT to the checkout.  Every known rule is listed (checks
 * with their default level, then error classes); a result names its rule
 * by id and index, the object a check finding is about as a logical
 * location, and has a partial fingerprint: a hash of the rule, the
 * artifact, the object and the message, and the number of earlier results
 * with the same hash, so that it stays the same when lines move.
 */

struct sarif_files {
	char *cwd, *std; /* real paths, NULL when unknown */
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

/* The base and the relative URI of @path (a malloc'ed string). */
static char *artifact_uri(const struct sarif_files *sf, const char *path,
			  const char **base)
{
	char *real = realpath(path, NULL);
	const char *rest;
	char *out;

	*base = "SRCROOT";
	if (!real)
		return xstrdup(path[0] == '/' ? path + 1 : path);
	/* the library proper: what imports of "std/..." find */
	if ((rest = under(real, sf->std)) && !strncmp(rest, "std/", 4)) {
		*base = "STDLIB";
		out = xstrdup(rest);
	} else if ((rest = under(real, sf->cwd))) {
		out = xstrdup(rest);
	} else if (sf->cwd) {
		/* up from cwd to the directory both are under, then down */
		size_t common = 0, ups = 0;
		char *o;

		for (size_t i = 0; real[i] && real[i] == sf->cwd[i]; i++)
			if (real[i] == '/')
				common = i + 1;
		for (const char *p = sf->cwd + common; *p;) {
			ups++;
			while (*p && *p != '/')
				p++;
			while (*p == '/')
				p++;
		}
		o = out = xmalloc(ups * 3 + strlen(real + common) + 1);
		for (size_t k = 0; k < ups; k++, o += 3)
			memcpy(o, "../", 3);
		strcpy(o, real + common);
	} else {
		out = xstrdup(real + 1);
	}
	free(real);
	return out;
}

/* The physicalLocation member of a location, if @loc has a file. */
static bool sarif_physical(struct diag_engine *d, const struct sarif_files *sf,
			   const struct srcloc *loc)
{
	FILE *out = d->out;
	struct where w;
	const char *base;
	char *uri;

	if (!resolve(d->sm, loc, &w))
		return false;
	uri = artifact_uri(sf, w.f->path, &base);
	fputs("\"physicalLocation\":{\"artifactLocation\":{\"uri\":", out);
	uri_str(out, uri);
	fprintf(out, ",\"uriBaseId\":\"%s\"", base);
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

/* The known rules, then any other id a result uses; returns the count
 * and fills @extra with those others (by index past the known ones). */
static uint32_t sarif_rules(struct diag_engine *d, const char ***extra,
			    uint32_t *nextra)
{
	FILE *out = d->out;
	unsigned n = diag_rule_count();
	struct diag_rule r;

	*extra = arena_alloc(d->arena, (d->nrecs + 1) * sizeof(**extra));
	*nextra = 0;
	for (unsigned k = 0; diag_rule_at(k, &r); k++) {
		const char *lv =
		    r.level == DIAG_NOTE ? "none" : level_of(r.level);

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
		if (diag_rule_index(id) != UINT32_MAX)
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

static void sarif_doc(struct diag_engine *d)
{
	FILE *out = d->out;
	bool related = false;
	struct sarif_files sf;
	const char **extra;
	uint32_t nextra, nknown = diag_rule_count();
	uint64_t *seen = arena_alloc(d->arena, (d->nrecs + 1) * sizeof(*seen));
	uint32_t nseen = 0;
	char *cwd = getcwd(NULL, 0);

	sf.cwd = cwd ? realpath(cwd, NULL) : NULL;
	sf.std = d->stdlib_dir ? realpath(d->stdlib_dir, NULL) : NULL;
	free(cwd);
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
	sarif_rules(d, &extra, &nextra);
	fputs("]}},\"originalUriBaseIds\":{"
	      "\"SRCROOT\":{\"description\":{\"text\":\"The directory rackc "
	      "ran in (the source root).\"}},"
	      "\"STDLIB\":{\"description\":{\"text\":\"The rackc standard "
	      "library directory (--stdlib).\"}}},"
	      "\"columnKind\":\"utf16CodeUnits\",\"results\":[",
	      out);
	for (uint32_t i = 0; i < d->nrecs; i++) {
		const struct diag_record *r = &d->recs[i];
		const char *id = rule_of(r);
		unsigned idx = diag_rule_index(id);
		const char *key[4];
		uint64_t h;
		uint32_t occ = 0;
		struct where w;
		char *uri = NULL;
		const char *base = "";

		if (r->level == DIAG_NOTE && i > 0) {
			/* Attach to the result before it. */
			fputs(related ? ",{" : ",\"relatedLocations\":[{", out);
			if (sarif_physical(d, &sf, &r->loc))
				putc(',', out);
			sarif_message(out, r->message);
			putc('}', out);
			related = true;
			continue;
		}
		if (i)
			fputs(related ? "]}," : "},", out);
		related = false;
		if (idx == UINT32_MAX) {
			/* one of the extra rules, after the known ones */
			for (idx = 0; idx < nextra && !streq(extra[idx], id);
			     idx++)
				;
			idx += nknown;
		}
		fputs("{\"ruleId\":", out);
		json_str(out, id);
		fprintf(out, ",\"ruleIndex\":%u,\"level\":\"%s\",", idx,
			level_name(r->level));
		sarif_message(out, r->message);
		if (r->loc.file || r->object) {
			fputs(",\"locations\":[{", out);
			if (r->loc.file && sarif_physical(d, &sf, &r->loc) &&
			    r->object)
				putc(',', out);
			if (r->object) {
				fputs("\"logicalLocations\":[{"
				      "\"fullyQualifiedName\":",
				      out);
				json_str(out, r->object);
				fputs(",\"kind\":\"resource\"}]", out);
			}
			fputs("}]", out);
		}
		/* the fingerprint: no line or column enters it */
		if (resolve(d->sm, &r->loc, &w))
			uri = artifact_uri(&sf, w.f->path, &base);
		key[0] = id;
		key[1] = uri ? uri : "";
		key[2] = r->object ? r->object : "";
		key[3] = r->message;
		h = fp_hash(key, 4);
		for (uint32_t k = 0; k < nseen; k++)
			occ += seen[k] == h;
		seen[nseen++] = h;
		fprintf(out,
			",\"partialFingerprints\":{\"rackcFinding/v1\":"
			"\"%016" PRIx64 ":%" PRIu32 "\"}",
			h, occ + 1);
		free(uri);
	}
	if (d->nrecs)
		fputs(related ? "]}" : "}", out);
	fputs("]}]}\n", out);
	free(sf.cwd);
	free(sf.std);
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
