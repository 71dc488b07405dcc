/* SPDX-License-Identifier: MIT */
/*
 * Back ends turn the checked, read-only IR into artifacts.  Each back end is
 * one file under backends/ and one row of the table in backends/registry.c.
 *
 * Every artifact is written through out_open()/out_close(): the bytes go to
 * a temporary file in the output directory, and only when every selected
 * back end has succeeded are all of them renamed into place, under a
 * journal (backends/lib/outfile.c), all or none.  A failed run (a back end error, a
 * full disk, an unwritable directory, a rename that fails part-way) leaves
 * the previous artifacts as they were; one killed part-way is rolled back
 * by the next run that commits into the directory.
 */
#ifndef RACKC_BACKEND_H
#define RACKC_BACKEND_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "diag.h"
#include "ir.h"

struct outfile {
	char *tmp;   /* temporary path (malloc'ed) */
	char *final; /* destination path (malloc'ed) */
	FILE *fp;
	int fd; /* the temporary file's descriptor while @fp is open */
};

/*
 * The bytes of artifacts a run may write, all back ends together
 * (--max-output-bytes): every artifact's stream counts what it writes
 * here, and a write past @limit fails, sets @over (so that the jobs still
 * writing stop: be_cancelled) and leaves the run with nothing written.
 */
#define RK_MAX_OUTPUT_BYTES ((uint64_t)2 << 30)

struct out_budget {
	_Atomic uint64_t used;
	uint64_t limit;
	atomic_bool over;
};

/**
 * struct backend_ctx - what a back end gets
 * @d:      the design (read-only)
 * @diag:   for "cannot express" diagnostics and I/O errors
 * @arena:  scratch allocations, private to the job (interned strings are
 *          the design's: str_of(d->arena, id))
 * @outdir: the -o directory
 * @input:  the design file's base name, for headers
 * @prices: the --prices file (NULL: none), for the BOM
 * @part:   which part of a back end with several (struct backend)
 * @shared: what several back ends compute once per run (be_common.h)
 * @cancel: set (by another thread) once the artifacts are not wanted any
 *          more (the checks failed); long loops stop early (be_cancelled)
 * @checks: the checks' diagnostics (for a back end with BE_NEEDS_CHECKS;
 *          else NULL): records and source manager, read only
 * @files:  artifacts opened so far (committed or discarded together)
 * @dirs:   directories this run created (removed again on discard)
 * @failed: an I/O error happened
 * @dry:    a preflight (--check): out_open() hands out a stream that
 *          discards what is written, and nothing is created
 * @budget: the run's output limit, shared by its jobs (NULL: none)
 *
 * Back ends run as jobs on several threads: each job gets its own context,
 * arena and (deferred) diagnostic engine; the design and the derived
 * figures are shared and must only be read (see @prepare below).
 */
struct derived;
struct be_shared;

struct backend_ctx {
	const struct rk_design *d;
	struct derived *dv; /* shared derived figures (metrics.h) */
	struct diag_engine *diag;
	struct arena *arena;
	const char *outdir;
	const char *input;
	const char *prices;
	unsigned part;
	struct be_shared *shared;
	const atomic_bool *cancel;
	const struct diag_engine *checks;
	struct outfile *files;
	uint32_t nfiles, files_cap;
	char **dirs;
	uint32_t ndirs, dirs_cap;
	bool failed;
	bool dry;
	struct out_budget *budget;
};

/* struct backend's @needs */
enum {
	BE_NEEDS_FABRICS = 1, /* derived_fabric() */
	BE_NEEDS_PLAN = 2,    /* derived_cableplan(), derived_ports() */
	BE_NEEDS_RACKS = 4,   /* derived_racks() */
	BE_NEEDS_CHECKS = 8,  /* the diagnostic counts after the checks */
	BE_NEEDS_LABELS = 16, /* derived_labels() */
	BE_NEEDS_MODELS = 32, /* the power and cooling models (loads.h) */
};

/**
 * struct backend - one back end
 * @name:    the -O name
 * @summary: one line for --list-backends
 * @emit:    writes its artifacts; returns false on failure (after a
 *           diagnostic)
 * @prepare: optional; runs on the main thread before any job starts (for
 *           a library's one-time set-up)
 * @needs:   what the back end reads besides the design (BE_NEEDS_*): its
 *           jobs wait for those derived figures, or for the checks when
 *           it reads their diagnostic counts
 * @parts:   0 or 1: one job; more: @emit runs once per part (ctx->part),
 *           each writing different files, possibly at the same time
 * @part_names: what --stats calls each part (NULL: the name)
 * @weight:  rough cost per cable, a scheduling hint: heavier jobs start
 *           first, so the last to finish is a short one
 * @preflight: what --check runs instead of @emit (ctx->dry is set): it
 *           reports every design error @emit would report, so that a
 *           clean --check promises a build that fails only on I/O.  NULL
 *           for a back end that reports no design errors.  It may be @emit
 *           itself: in a dry context nothing reaches the disk.
 * @on_request: not in the default set: runs only when -O names it
 */
struct backend {
	const char *name;
	const char *summary;
	bool (*emit)(struct backend_ctx *ctx);
	void (*prepare)(struct backend_ctx *ctx);
	unsigned needs;
	unsigned parts;
	const char *const *part_names;
	unsigned weight;
	bool (*preflight)(struct backend_ctx *ctx);
	bool on_request;
};

extern const struct backend *const backend_table[];
extern const unsigned backend_table_len;
const struct backend *backend_find(const char *name);

/*
 * Whether the run's artifacts are no longer wanted: a long loop may stop
 * and return false (nothing it wrote or said will be kept).
 */
static inline bool be_cancelled(const struct backend_ctx *ctx)
{
	return (ctx->cancel &&
		atomic_load_explicit(ctx->cancel, memory_order_relaxed)) ||
	       (ctx->budget &&
		atomic_load_explicit(&ctx->budget->over, memory_order_relaxed));
}

/*
 * What several back ends compute once per run, whichever asks first, for
 * all of them (backends/lib/be_common.c: the host names).
 */
struct be_shared *be_shared_new(void);
void be_shared_free(struct be_shared *sh);

/* Open artifact @rel (may contain '/') under the output directory. */
FILE *out_open(struct backend_ctx *ctx, const char *rel);
/* fwrite() of a large block of artifact @fp, allocating the file's space
 * ahead of it where that makes writing cheaper (errors: as fwrite's). */
void out_write(FILE *fp, const void *buf, size_t n);
/*
 * Finish artifact @fp now rather than at commit, so that a back end writing
 * many files keeps one open at a time.  Reports a write error and marks the
 * run failed; returns false then.
 */
bool out_close(struct backend_ctx *ctx, FILE *fp);
/* mkdir -p @dir, recording what it creates in ctx->dirs. */
bool out_mkdirs(struct backend_ctx *ctx, const char *dir);
/* Rename every artifact into place (true), or remove the temporaries and
 * the directories the run created (out_discard). */
bool out_commit(struct backend_ctx *ctx);
void out_discard(struct backend_ctx *ctx);

#endif
