/* SPDX-License-Identifier: MIT */
/*
 * The pipeline: load -> parse -> elaborate -> resolve -> checks -> back
 * ends, and the stop rules between them.  Syntax and name errors stop
 * before the checks (a half-resolved design only produces cascades), and
 * --force never overrides them; check errors stop before the back ends
 * unless --force.
 */
#include "rackc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "backend.h"
#include "check.h"
#include "driver.h"
#include "jobs.h"
#include "metrics.h"
#include "suggest.h"

void compilation_init(struct compilation *c, const struct rackc_options *o,
		      FILE *diag_out)
{
	memset(c, 0, sizeof(*c));
	c->opts = o;
	arena_init(&c->arena);
	srcmgr_init(&c->sm, &c->arena);
	diag_init(&c->diag, diag_out, &c->sm, &c->arena);
	c->diag.format = o->diag_format;
	c->diag.max_errors = o->max_errors;
	c->diag.werror = o->werror;
	c->diag.show_source = o->show_source;
	ir_init(&c->design, &c->arena);
}

void compilation_fini(struct compilation *c)
{
	arena_destroy(&c->arena);
}

uint64_t rk_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void stat_line(const char *what, uint64_t ns)
{
	fprintf(stderr, "rackc: stats: %-16s %9.1f ms\n", what, ns / 1e6);
}

const char *rackc_default_stddir(void)
{
#ifdef RACKC_SRCDIR
	/* an uninstalled build uses the source tree's library */
	static const char *const dirs[] = { RACKC_STDDIR, RACKC_SRCDIR };
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char probe[4096];

		snprintf(probe, sizeof(probe), "%s/std", dirs[i]);
		if (stat(probe, &st) == 0 && S_ISDIR(st.st_mode))
			return dirs[i];
	}
	return RACKC_STDDIR;
#elif defined(RACKC_STDDIR)
	return RACKC_STDDIR;
#else
	return ".";
#endif
}

/* Split the -O list; returns false (after a message) on an unknown name. */
static bool select_backends(struct compilation *c, const char *list,
			    const struct backend **sel, unsigned *nsel)
{
	char *copy, *tok, *save = NULL;
	bool ok = true;

	*nsel = 0;
	if (!list) {
		for (unsigned i = 0; i < backend_table_len; i++)
			sel[(*nsel)++] = backend_table[i];
		return true;
	}
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok && ok;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct backend *b = backend_find(tok);
		bool dup = false;

		if (!b) {
			struct suggest sg;

			suggest_init(&sg, tok);
			for (unsigned i = 0; i < backend_table_len; i++)
				suggest_offer(&sg, backend_table[i]->name);
			if (suggest_result(&sg))
				diag_error(&c->diag, NULL, "usage",
					   "unknown back end '%s'; did you "
					   "mean '%s'?",
					   tok, suggest_result(&sg));
			else
				diag_error(&c->diag, NULL, "usage",
					   "unknown back end '%s' (see "
					   "--list-backends)",
					   tok);
			ok = false;
			break;
		}
		for (unsigned i = 0; i < *nsel; i++)
			dup |= sel[i] == b;
		if (!dup)
			sel[(*nsel)++] = b;
	}
	free(copy);
	return ok;
}

/* One back-end job: a back end, or one part of one. */
struct be_job {
	const struct backend *b;
	struct backend_ctx ctx;
	struct arena arena;
	struct diag_engine diag;
	bool ok;
	uint64_t ns;
};

static void run_job(void *arg, size_t i)
{
	struct be_job *j = &((struct be_job *)arg)[i];
	uint64_t t0 = rk_now_ns();

	j->ok = j->b->emit(&j->ctx) && !j->ctx.failed;
	j->ns = rk_now_ns() - t0;
}

/* Heavier first; ties in table order (the sort is stable on the index). */
static int job_cmp(const void *pa, const void *pb)
{
	const struct be_job *a = *(struct be_job *const *)pa;
	const struct be_job *b = *(struct be_job *const *)pb;

	if (a->b->weight != b->b->weight)
		return a->b->weight > b->b->weight ? -1 : 1;
	return a < b ? -1 : a > b;
}

struct job_order {
	struct be_job **order;
};

static void run_ordered(void *arg, size_t i)
{
	struct job_order *o = arg;

	run_job(o->order[i], 0);
}

/*
 * The back ends run as jobs on up to o->jobs threads, each job in its own
 * context; then, in table order, each job's diagnostics are replayed and
 * its files added to the run's.  The first job (in table order) that
 * failed decides the exit status, and what later jobs wrote or said is
 * dropped, as if they had not run: the result does not depend on the
 * number of threads.
 */
static int run_backends(struct compilation *c, struct derived *dv)
{
	const struct rackc_options *o = c->opts;
	const struct backend **sel =
	    xcalloc(backend_table_len + 1, sizeof(*sel));
	struct backend_ctx ctx;
	struct be_job *jobs, **order;
	struct job_order jo;
	unsigned nsel, njobs = 0;
	int rc = RK_EXIT_OK;
	const char *base = strrchr(o->input, '/');
	uint64_t t0;

	if (!select_backends(c, o->backends, sel, &nsel)) {
		free(sel);
		return RK_EXIT_USAGE;
	}
	memset(&ctx, 0, sizeof(ctx));
	ctx.d = &c->design;
	ctx.dv = dv;
	ctx.diag = &c->diag;
	ctx.arena = &c->arena;
	ctx.outdir = o->outdir;
	ctx.input = base ? base + 1 : o->input;
	if (!out_mkdirs(&ctx, o->outdir)) {
		diag_error(&c->diag, NULL, "io",
			   "cannot create output directory '%s': %s", o->outdir,
			   strerror(errno));
		out_discard(&ctx);
		free(sel);
		return RK_EXIT_USAGE;
	}
	t0 = rk_now_ns();
	for (unsigned i = 0; i < nsel; i++) {
		if (sel[i]->prepare)
			sel[i]->prepare(&ctx);
		njobs += sel[i]->parts > 1 ? sel[i]->parts : 1;
	}
	if (o->stats)
		stat_line("prepare", rk_now_ns() - t0);

	jobs = xcalloc(njobs, sizeof(*jobs));
	order = xcalloc(njobs, sizeof(*order));
	njobs = 0;
	for (unsigned i = 0; i < nsel; i++) {
		unsigned parts = sel[i]->parts > 1 ? sel[i]->parts : 1;

		for (unsigned p = 0; p < parts; p++) {
			struct be_job *j = &jobs[njobs];

			j->b = sel[i];
			arena_init(&j->arena);
			diag_fork(&j->diag, &c->diag, &j->arena);
			j->ctx = ctx;
			/* its own lists of files and directories */
			j->ctx.files = NULL;
			j->ctx.nfiles = j->ctx.files_cap = 0;
			j->ctx.dirs = NULL;
			j->ctx.ndirs = j->ctx.dirs_cap = 0;
			j->ctx.part = p;
			j->ctx.arena = &j->arena;
			j->ctx.diag = &j->diag;
			order[njobs] = j;
			njobs++;
		}
	}
	qsort(order, njobs, sizeof(*order), job_cmp);
	jo.order = order;
	t0 = rk_now_ns();
	jobs_run(o->jobs ? o->jobs : jobs_online_cpus(), njobs, run_ordered,
		 &jo);
	if (o->stats)
		for (unsigned i = 0; i < njobs; i++) {
			const struct backend *b = jobs[i].b;
			unsigned p = jobs[i].ctx.part;

			stat_line(b->part_names ? b->part_names[p] : b->name,
				  jobs[i].ns);
		}
	if (o->stats)
		stat_line("back ends (wall)", rk_now_ns() - t0);

	for (unsigned i = 0; i < njobs; i++) {
		struct be_job *j = &jobs[i];

		if (rc == RK_EXIT_OK) {
			uint32_t before = c->diag.errors;

			diag_join(&c->diag, &j->diag);
			if (!j->ok)
				/* an error that names the design is the
				 * design's */
				rc = c->diag.errors > before && !j->ctx.failed
					 ? RK_EXIT_ERRORS
					 : RK_EXIT_USAGE;
		}
		for (uint32_t k = 0; k < j->ctx.nfiles; k++)
			*VEC_PUSH(ctx.files, ctx.nfiles, ctx.files_cap) =
			    j->ctx.files[k];
		for (uint32_t k = 0; k < j->ctx.ndirs; k++)
			*VEC_PUSH(ctx.dirs, ctx.ndirs, ctx.dirs_cap) =
			    j->ctx.dirs[k];
		free(j->ctx.files);
		free(j->ctx.dirs);
		arena_destroy(&j->arena);
	}
	free(order);
	free(jobs);
	if (rc == RK_EXIT_OK) {
		t0 = rk_now_ns();
		if (!out_commit(&ctx))
			rc = RK_EXIT_USAGE;
		if (o->stats)
			stat_line("commit (rename)", rk_now_ns() - t0);
	}
	if (rc != RK_EXIT_OK)
		out_discard(&ctx);
	free(ctx.files);
	free(ctx.dirs);
	free(sel);
	return rc;
}

int rackc_run(const struct rackc_options *o)
{
	struct compilation c;
	struct derived dv;
	uint64_t t0, t1, start = rk_now_ns();
	int rc;
	bool usage = false;

	compilation_init(&c, o, stderr);
	t0 = rk_now_ns();
	rc = elaborate(&c);
	t1 = rk_now_ns();
	if (o->stats) {
		stat_line("parse", c.parse_ns);
		stat_line("elaborate", t1 - t0 - c.parse_ns - c.fabric_ns);
		stat_line("fabrics", c.fabric_ns);
	}
	derived_init(&dv, &c.design);
	if (rc == RK_EXIT_OK) {
		t0 = rk_now_ns();
		derived_prepare(&dv, o->jobs ? o->jobs : jobs_online_cpus());
		if (o->stats)
			stat_line("derived figures", rk_now_ns() - t0);
		t0 = rk_now_ns();
		checks_run(&c.design, &dv, &c.diag, &c.arena, o->checks,
			   o->nchecks, &usage);
		if (o->stats)
			stat_line("checks", rk_now_ns() - t0);
		if (usage) {
			rc = RK_EXIT_USAGE;
		} else if (c.diag.errors && !o->force) {
			rc = RK_EXIT_ERRORS;
		} else if (!o->check_only) {
			if (c.diag.errors)
				diag_warning(&c.diag, NULL, "force",
					     "writing artifacts despite "
					     "errors (--force)");
			rc = run_backends(&c, &dv);
			if (rc == RK_EXIT_OK && c.diag.errors)
				rc = RK_EXIT_ERRORS;
		} else if (c.diag.errors) {
			rc = RK_EXIT_ERRORS;
		}
	}
	derived_free(&dv);
	diag_finish(&c.diag);
	if (o->stats) {
		stat_line("total", rk_now_ns() - start);
		fprintf(stderr,
			"rackc: stats: %u objects, %u links, %zu arena "
			"bytes\n",
			c.design.nobjs, c.design.nlinks, c.arena.total);
	}
	compilation_fini(&c);
	return rc;
}
