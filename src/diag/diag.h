/* SPDX-License-Identifier: MIT */
/*
 * The diagnostic engine.  Every message rackc prints about a design goes
 * through diag_emit(): GNU format "file:line:col: level: message [name]",
 * then the source line and a caret/tilde marker, "In file included from"
 * lines for imported files, and "note:" lines for related places.  With
 * --diagnostics-format=json or sarif the same records are collected and
 * written as one document by diag_finish().
 *
 * Diagnostics print in the order they are emitted, which is deterministic:
 * parse order, then elaboration order, then check-table order.
 */
#ifndef RACKC_DIAG_H
#define RACKC_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "srcfile.h"
#include "util.h"

enum diag_level {
	DIAG_NOTE,
	DIAG_WARNING,
	DIAG_ERROR,
};

enum diag_format {
	DIAG_TEXT,
	DIAG_JSON,
	DIAG_SARIF,
};

/**
 * struct diag_record - one diagnostic, kept for json and sarif output
 * @level:   note, warning or error (after -Werror promotion)
 * @loc:     primary location (file 0: none)
 * @check:   check or error-class name, or NULL
 * @message: the text, without location or name
 * @hidden:  counted but not printed (text output: a finding that a
 *           group's note stands for, or its notes)
 * @object:  full name of the object a check finding is about, or NULL
 * @figures: the exact figures a check finding compares, or NULL: entries
 *           "NAME:B:DIM:VALUE;" with B '=' (exact), '>' (at least) or
 *           '<' (at most), DIM an enum dim and VALUE in base units
 *           (check_figure())
 * @repeats: identical findings (level, place, name and message) counted
 *           with this one and not recorded again
 * @kind:    for a note: DIAG_NOTE_OWN (explains the finding before it),
 *           DIAG_NOTE_GROUP ("N more like this", text output) or
 *           DIAG_NOTE_ALONE (about the run, such as a check skipped)
 */
enum diag_note_kind {
	DIAG_NOTE_OWN,
	DIAG_NOTE_GROUP,
	DIAG_NOTE_ALONE,
};

struct diag_record {
	enum diag_level level;
	struct srcloc loc;
	const char *check;
	const char *message;
	bool hidden;
	uint8_t kind;
	uint32_t repeats;
	const char *object;
	const char *figures;
};

/**
 * struct diag_engine - per-compilation diagnostic state
 * @out:         where text diagnostics and documents go (stderr normally)
 * @sm:          source manager, for file names, lines and include chains
 * @arena:       the compilation's arena (messages are copied into it)
 * @format:      text, json or sarif
 * @show_source: print the source line and marker (text format only)
 * @werror:      report warnings as errors
 * @max_errors:  stop asking for more work after this many errors (0: no cap)
 * @errors, @warnings: counts so far, repeats included
 * @rep_errors, @rep_warnings: of those, the ones counted but not shown,
 *               being repeats of ones reported at the same place
 *               (diag_repeat); a forked engine counts its own only
 * @last_file:   file of the last include chain printed (text format)
 * @recs, @nrecs, @recs_cap: records for json and sarif, and for a
 *                          deferred engine
 * @defer:       record everything, print nothing (diag_fork)
 * @shown_errors: errors shown (printed, or recorded for json and sarif)
 * @cut_errors, @cut_warnings: findings of a capped engine past the error
 *               limit: counted, not shown (diag_join)
 * @capped:      a forked engine whose findings all exist (it never stops)
 *               but are shown, when joined, only up to the error limit
 * @halted:      the compilation stopped at the error limit, so that more
 *               errors may exist than were counted
 * @same:        identical findings already recorded (a hash set of
 *               record indices), so that a repeat is counted with its
 *               record (@repeats) rather than recorded again
 */
struct diag_engine {
	FILE *out;
	const struct srcmgr *sm;
	struct arena *arena;
	enum diag_format format;
	bool show_source;
	bool werror;
	uint32_t max_errors;
	uint32_t errors, warnings;
	uint32_t rep_errors, rep_warnings;
	uint32_t last_file;
	struct diag_record *recs;
	uint32_t nrecs, recs_cap;
	bool defer;
	const char *object;	/* for the next diagnostic only (check_fail) */
	const char *figures;	/* likewise (diag_record) */
	const char *stdlib_dir; /* the standard library directory */
	const char *sarif_root; /* SARIF: the SRCROOT base, NULL: cwd */
	/* diag_spill(): records written out to @spill (@spilled bytes of
	 * it complete), their strings released to @spill_mark */
	bool spill_ok;
	FILE *spill;
	uint64_t spilled;
	struct arena_mark spill_mark;
	uint32_t shown_errors;
	uint32_t cut_errors, cut_warnings;
	bool capped;
	bool halted;
	bool last_dropped; /* the last finding was not shown: nor its notes */
	bool alone;	   /* the next note is DIAG_NOTE_ALONE */
	uint32_t *same;
	uint32_t same_cap, nsame;
};

void diag_init(struct diag_engine *d, FILE *out, const struct srcmgr *sm,
	       struct arena *a);

/* One of a record's figures (diag_record.figures), as diag_figure_next()
 * reads them: @name is @name_len bytes, @bound '=', '>' or '<', @dim an
 * enum dim, @v in its base units. */
struct diag_figure {
	const char *name;
	uint32_t name_len;
	char bound;
	int dim;
	int64_t v;
};

/* The figure at *@p into @f, *@p moved past it; false at the end (or at
 * text that is no figure). */
bool diag_figure_next(const char **p, struct diag_figure *f);
void diag_emit(struct diag_engine *d, enum diag_level level,
	       const struct srcloc *loc, const char *check, const char *fmt,
	       ...) PRINTF(5, 6);
void diag_vemit(struct diag_engine *d, enum diag_level level,
		const struct srcloc *loc, const char *check, const char *fmt,
		va_list ap) PRINTF(5, 0);
#define diag_error(d, loc, check, ...) \
	diag_emit(d, DIAG_ERROR, loc, check, __VA_ARGS__)
#define diag_warning(d, loc, check, ...) \
	diag_emit(d, DIAG_WARNING, loc, check, __VA_ARGS__)
#define diag_note(d, loc, ...) diag_emit(d, DIAG_NOTE, loc, NULL, __VA_ARGS__)
/*
 * Count a diagnostic of @level (promoted by -Werror) that repeats one
 * already reported and is not shown: it counts toward max_errors and the
 * totals, and the summary says how many were not shown.
 */
void diag_repeat(struct diag_engine *d, enum diag_level level);
/* True once max_errors errors have been reported. */
bool diag_stop(const struct diag_engine *d);
/* The next note is about the run, not the finding before it. */
void diag_alone(struct diag_engine *d);
/* Forget the identical findings recorded so far (the records moved). */
void diag_forget(struct diag_engine *d);
/*
 * A deferred engine for work done on another thread: it takes @parent's
 * settings and counts so far, counts and records what is emitted (strings in @a, which must
 * outlive the records) and prints nothing; diag_join() later replays the
 * records into @parent, so the output does not depend on the order in
 * which threads ran.  @parent is only read.
 */
void diag_fork(struct diag_engine *child, const struct diag_engine *parent,
	       struct arena *a);
/*
 * Let a forked engine whose arena holds nothing but its records keep them
 * in a temporary file once there are more than a few (a back end may warn
 * about every one of millions of cables): what it holds in memory stays
 * small however many it records.  Only diag_join() reads them back.
 */
void diag_spill(struct diag_engine *child);
/* Replay @child's records into @parent, as if emitted there now. */
void diag_join(struct diag_engine *parent, const struct diag_engine *child);
/* Close a spilling engine's temporary file (after its last diag_join). */
void diag_unspill(struct diag_engine *child);
/*
 * Finish: for text, print "N errors and M warnings generated." when
 * anything was reported; for json and sarif, write the document.
 */
void diag_finish(struct diag_engine *d);

/**
 * struct diag_rule - what a rule id (a check or an error class) means
 * @id:      the name in brackets
 * @summary: one line
 * @full:    a sentence, or NULL (then the summary serves)
 * @level:   the default level (DIAG_NOTE: off by default)
 * @check:   a check (-W/-E and waivers apply), not an error class
 */
struct diag_rule {
	const char *id;
	const char *summary;
	const char *full;
	enum diag_level level;
	bool check;
};

/* The known rules (diag_rules.c): the checks, then the error classes. */
unsigned diag_rule_count(void);
bool diag_rule_at(unsigned k, struct diag_rule *out);
/* The index of rule @id, UINT32_MAX when unknown. */
unsigned diag_rule_index(const char *id);

#endif
