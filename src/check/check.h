/* SPDX-License-Identifier: MIT */
/*
 * Named checks (the dtc model).  A check is an immutable descriptor: a
 * kebab-case name, a default level, prerequisites and a function that reads
 * the IR and reports findings.  The table in check.c lists them in run
 * order; -W/-E options adjust levels per run (struct check_run), never the
 * descriptors, so several compilations can run in one process.
 *
 * Checks never modify the design.  A finding names the construct
 * responsible; an object can silence one finding with
 *     waive "check-name", "reason"
 * on itself or on any enclosing object (rack, row, site, group).
 */
#ifndef RACKC_CHECK_H
#define RACKC_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "arith.h"
#include "diag.h"
#include "ir.h"
#include "schema.h"

enum check_level {
	CHECK_OFF,
	CHECK_WARN,
	CHECK_ERROR,
};

struct check_ctx;

/**
 * struct check - one check
 * @name:     kebab-case, shown as [name] after each finding
 * @summary:  one line for --list-checks
 * @level:    default level
 * @run:      the body
 * @prereqs:  checks that run first (NULL-terminated), or NULL; objects
 *            they fail on are skipped (check_skipped)
 * @hidden:   not listed (test hooks)
 */
struct check {
	const char *name;
	const char *summary;
	enum check_level level;
	void (*run)(struct check_ctx *c);
	const struct check *const *prereqs;
	bool hidden;
};

/* Define check_ID; CHECK_AFTER also lists prerequisites. */
#define CHECK_DEFINE(id, cname, lvl, sum, fn) \
	const struct check check_##id = {     \
		.name = cname,                \
		.summary = sum,               \
		.level = lvl,                 \
		.run = fn,                    \
	}
#define CHECK_AFTER(id, cname, lvl, sum, fn, ...)                        \
	static const struct check *const id##_prereqs[] = { __VA_ARGS__, \
							    NULL };      \
	const struct check check_##id = {                                \
		.name = cname,                                           \
		.summary = sum,                                          \
		.level = lvl,                                            \
		.run = fn,                                               \
		.prereqs = id##_prereqs,                                 \
	}

/**
 * struct check_ctx - what a running check sees
 * @d:        the design (read-only)
 * @diag:     diagnostics
 * @arena:    scratch
 * @check:    the running check
 * @level:    its effective level
 * @findings: reported (not waived) findings of this check
 * @waived:   findings silenced by waivers
 */
struct derived;

struct check_ctx {
	const struct rk_design *d;
	struct derived *dv; /* shared derived figures (metrics.h) */
	struct diag_engine *diag;
	struct arena *arena;
	const struct check *check;
	enum check_level level;
	uint32_t findings;
	uint32_t waived;
	uint32_t *used_waivers;	      /* per attr index: waiver was used */
	bool last_printed;	      /* the last finding was not waived */
	struct check_coverage *cover; /* this check's (metrics.h), or NULL */
	/* per object: 1 when a failed prerequisite touched it (NULL: none);
	 * findings about it are dropped; a family may add what depends on it
	 * (check_skip_add) before it reports */
	uint8_t *skip;
	/* per object: this run reported a finding about it (NULL: none) */
	uint8_t *found;
	bool found_global; /* a finding about no object */
	/* check_inh(): per key, per object, NULL until asked */
	const struct rk_value **memo[A__COUNT];
	/* check_figure(): the next finding's exact figures (diag_record) */
	char figs[192];
	uint32_t nfigs;
};

/*
 * ir_attr_inh, ir_str and ir_num, remembered per (object, key) for the
 * run of the checks: the port and cable checks ask the same few part
 * objects the same questions once per link end.
 */
const struct rk_value *check_inh(struct check_ctx *c, uint32_t obj,
				 uint32_t key);
const char *check_str(struct check_ctx *c, uint32_t obj, uint32_t key);
int64_t check_num(struct check_ctx *c, uint32_t obj, uint32_t key,
		  int64_t dflt);

/*
 * True once the error limit (--max-errors) is reached: every loop of a
 * check that can report stops then, and check_fail() reports nothing.
 */
static inline bool check_stop(const struct check_ctx *c)
{
	return diag_stop(c->diag);
}

/*
 * Report a finding about @obj (RK_NONE: none) at @loc; nothing (not even
 * the message formatted) once the error limit is reached.
 */
void check_fail(struct check_ctx *c, uint32_t obj, const struct srcloc *loc,
		const char *fmt, ...) PRINTF(4, 5);
/*
 * An exact figure of the next check_fail()'s finding: @name (a word, such
 * as "load"), @v in @dim's base units, @bound '=' (exact), '>' (at least:
 * a lower bound) or '<' (at most).  report.json lists them with the
 * finding, and `rackc diff` compares them (a finding whose figures moved
 * within the rounding of its message has still changed).  Figures that
 * do not fit the finding's buffer are dropped, and so is a saturated sum
 * (INT64_MAX, check_sat: no figure); check_fail() clears them.
 */
void check_figure(struct check_ctx *c, const char *name, enum dim dim,
		  int64_t v, char bound);
/*
 * Links: a waiver written on the link silences a finding about it (and is
 * marked used); check_link_owner() is the object whose waivers, and its
 * enclosing objects', cover a link (its fabric, or its group).
 */
bool check_link_waived(struct check_ctx *c, const struct rk_link *l);
uint32_t check_link_owner(const struct rk_link *l);

/*
 * Prerequisites per object: when a prerequisite failed, a check still runs
 * but skips the objects the prerequisite reported (and, after it, what the
 * check itself adds): check_skipped() says whether @obj is one of them,
 * check_skip_add() adds one.  check_touch() records that the running
 * check's finding also concerns @obj (a part whose first device carried
 * the finding), so that its dependants skip @obj too.
 */
bool check_skipped(const struct check_ctx *c, uint32_t obj);
void check_skip_add(struct check_ctx *c, uint32_t obj);
void check_touch(struct check_ctx *c, uint32_t obj);

/*
 * Coverage (report.json "coverage", struct check_coverage in metrics.h):
 * a check that judges a budget calls check_cover_begin() before it judges
 * object @obj and check_cover() after, with @unknown set when a figure the
 * verdict needs is unknown; the object counts as proved (verdict known:
 * passed, or a finding), unknown (no finding, the figures incomplete),
 * waived (its finding was waived) or skipped by a failed prerequisite.
 */
struct check_mark {
	uint32_t findings, waived;
};
struct check_mark check_cover_begin(const struct check_ctx *c);
void check_cover(struct check_ctx *c, uint32_t obj, struct check_mark m,
		 bool unknown);
/*
 * @obj's verdict lacks a figure of its own (a rating, a loop's coolant, a
 * CDU figure) that an unknown-figure check reports: it counts as waived
 * when @waived (that finding was waived there), else as unknown.
 */
void check_cover_figure(struct check_ctx *c, uint32_t obj, struct check_mark m,
			bool waived);

/*
 * Is there a waiver for the running check on @obj or an object enclosing
 * it (marked used when there is)?  For a check that reports one finding
 * for many objects and honours a waiver on any of them.
 */
bool check_waived(struct check_ctx *c, uint32_t obj);
/*
 * The same for another check @by (an unknown-figure check whose finding a
 * verdict rests on), without marking the waiver used.
 */
bool check_waived_for(struct check_ctx *c, uint32_t obj,
		      const struct check *by);

/* A note for the last finding (printed only if it was). */
void check_note(struct check_ctx *c, const struct srcloc *loc, const char *fmt,
		...) PRINTF(3, 4);

struct check_setting;

extern const struct check *const check_table[];
extern const unsigned check_table_len;
const struct check *check_find(const char *name);

/*
 * Run every enabled check.  Returns false after printing a usage error for
 * an unknown check name in @settings.
 */
bool checks_run(const struct rk_design *d, struct derived *dv,
		struct diag_engine *diag, struct arena *a,
		const struct check_setting *settings, uint32_t nsettings,
		bool *usage_error);
/* --list-checks */
void checks_list(FILE *fp);
/* Validate -W/-E names before compiling; false (after a message) if bad. */
bool checks_validate(const struct check_setting *s, uint32_t n, FILE *err);

/* ---- arithmetic and wording shared by the check families ---- */

/* Notes about groups of like devices show this many groups, then sum up
 * the rest ("and N more devices"). */
#define CHECK_GROUP_NOTES 6
/* A check skipped for some objects, and a group of like findings, name
 * this many of them. */
#define CHECK_SKIP_NAMES 3

/*
 * A group of @count devices of one part, the first being @first, as the
 * notes name it: "name (part)" for one, "N x part" for more; in @buf.
 */
const char *check_group_who(const struct rk_design *d, uint32_t first,
			    uint32_t count, char *buf, size_t n);

/* @v clamped to the int64_t range (sums of loads saturate, never wrap:
 * the overflow policy of arith.h, whose helpers these are). */
#define check_sat(v) arith_sat64(v)
#define check_sadd(a, b) arith_sadd((a), (b))
/* A quantity of dimension @dim for people (quantity_human: its natural
 * unit, rounded to that unit's decimals); INT64_MAX, where sums saturate,
 * as "at least" that figure. */
const char *check_qfmt(enum dim dim, int64_t v, char *buf);
/* Two figures of @dim that one message compares, into @ba and @bb
 * (RK_QFMT_MAX bytes each), with the decimals their order needs
 * (quantity_human_pair); returns @ba. */
const char *check_qfmt2(enum dim dim, int64_t a, int64_t b, char *ba, char *bb);
#define FP(v, b) check_qfmt(DIM_POWER, (v), (b))
/* A non-negative numeric attribute (inherited), 0 when absent. */
int64_t check_num0(const struct rk_design *d, uint32_t obj, uint32_t key);
/* The part an instance was made from, by name ("?" for none). */
const char *check_part_name(const struct rk_design *d, uint32_t obj);

#endif
