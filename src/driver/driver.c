/* SPDX-License-Identifier: MIT */
/*
 * The pipeline: load -> parse -> elaborate -> resolve -> fabrics -> checks
 * -> back ends, and the stop rules between them.  Syntax and name errors
 * stop before the checks (a half-resolved design only produces cascades),
 * and --force never overrides them; check errors keep the back ends from
 * writing anything unless --force (they may have started: see run_all).
 * --check runs the selected back ends' preflights (struct backend) in
 * place of their emitters, so that it reports what the build would; under
 * --force a back end that cannot express the design writes nothing and is
 * named, while the others write theirs.
 */
#include "rackc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "backend.h"
#include "check.h"
#include "driver.h"
#include "elab.h"
#include "fabric.h"
#include "jobs.h"
#include "metrics.h"
#include "resolve.h"
#include "suggest.h"

/* A stage's wall time and, unless UINT64_MAX, its processor time (which
 * a busy machine does not inflate). */
static void stat_line(const char *what, uint64_t ns, uint64_t cpu)
{
	if (cpu == UINT64_MAX)
		fprintf(stderr, "rackc: stats: %-16s %9.1f ms\n", what,
			ns / 1e6);
	else
		fprintf(stderr, "rackc: stats: %-16s %9.1f ms %9.1f ms cpu\n",
			what, ns / 1e6, cpu / 1e6);
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
			if (!backend_table[i]->on_request)
				sel[(*nsel)++] = backend_table[i];
		return true;
	}
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok && ok;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct backend *b = backend_find(tok);
		bool dup = false;

		if (streq(tok, "all")) { /* every back end, on request or not */
			for (unsigned i = 0; i < backend_table_len; i++) {
				dup = false;
				for (unsigned j = 0; j < *nsel; j++)
					dup |= sel[j] == backend_table[i];
				if (!dup)
					sel[(*nsel)++] = backend_table[i];
			}
			continue;
		}
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

/* The checks, with their diagnostics deferred. */
struct ck_job {
	struct compilation *c;
	struct derived *dv;
	struct arena arena;
	struct diag_engine diag;
	bool usage;
	uint64_t ns, cpu;
	atomic_bool cancel; /* the artifacts are not wanted */
};

/* One back-end job: a back end, or one part of one. */
struct be_job {
	const struct backend *b;
	struct backend_ctx ctx;
	struct arena arena;  /* the job's own: released when it ends */
	struct arena darena; /* its diagnostics, kept until replayed */
	struct diag_engine diag;
	const struct ck_job *after; /* the checks, for BE_NEEDS_CHECKS */
	bool ok;
	uint64_t ns, cpu;
};

static bool run_be_job(void *arg)
{
	struct be_job *j = arg;
	uint64_t t0 = rk_now_ns(), u0 = rk_cpu_ns(false);

	if (j->after) {
		/* the counts the run will have once the checks' diagnostics
		 * and the --force warning are in */
		const struct diag_engine *cd = &j->after->diag;

		j->diag.errors = cd->errors;
		j->diag.warnings = cd->warnings;
		j->ctx.checks = cd;
		if (cd->errors && j->after->c->opts->force) {
			if (cd->werror)
				j->diag.errors++;
			else
				j->diag.warnings++;
		}
	}
	if (j->ctx.dry)
		j->ok = j->b->preflight(&j->ctx) && !j->ctx.failed;
	else
		j->ok = j->b->emit(&j->ctx) && !j->ctx.failed;
	/* what the back end built is not read again: released now, for the
	 * jobs still to run (ibnet's is 61 MiB at a million GPUs) */
	arena_destroy(&j->arena);
	j->ns = rk_now_ns() - t0;
	j->cpu = rk_cpu_ns(false) - u0;
	return true;
}

/* One part of the derived figures (derived_prepare_part). */
struct dv_job {
	struct derived *dv;
	unsigned part;
	uint64_t ns, cpu;
};

static bool run_dv_job(void *arg)
{
	struct dv_job *j = arg;
	uint64_t t0 = rk_now_ns(), u0 = rk_cpu_ns(false);

	derived_prepare_part(j->dv, j->part);
	j->ns = rk_now_ns() - t0;
	j->cpu = rk_cpu_ns(false) - u0;
	return true;
}

/* Returns whether the artifacts are still wanted. */
static bool run_ck_job(void *arg)
{
	struct ck_job *j = arg;
	const struct rackc_options *o = j->c->opts;
	uint64_t t0 = rk_now_ns(), u0 = rk_cpu_ns(false);
	bool want;

	checks_run(&j->c->design, j->dv, &j->diag, &j->arena, o->checks,
		   o->nchecks, &j->usage);
	j->ns = rk_now_ns() - t0;
	j->cpu = rk_cpu_ns(false) - u0;
	want = !j->usage && !(j->diag.errors && !o->force);
	if (!want)
		atomic_store(&j->cancel, true);
	return want;
}

/*
 * The artifacts went past the output limit (in a job, or as the streams
 * left open were flushed at the commit): one error, whichever file it was,
 * and nothing written.
 */
static int over_limit(struct compilation *c, const struct out_budget *b)
{
	diag_error(&c->diag, NULL, "limit",
		   "the artifacts exceed %" PRIu64
		   " bytes, the output limit; nothing was written "
		   "(--max-output-bytes=N raises it, -O chooses fewer back "
		   "ends)",
		   b->limit);
	return RK_EXIT_USAGE;
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

static const char *const dv_names[DERIVED_PARTS] = {
	"fabric figures", "cable plan", "rack totals",
	"power and cooling models"
};

/*
 * The first jobs of the graph: the derived figures (the labels too when a
 * selected back end needs them), then the checks, which wait for them.
 * Returns the jobs added to @graph.
 */
static unsigned graph_checks(struct compilation *c, struct derived *dv,
			     const struct backend **sel, unsigned nsel,
			     bool want, struct dv_job *dj, struct ck_job *ck,
			     struct backend_ctx *ctx, struct job *graph)
{
	unsigned ng = 0;

	for (unsigned i = 0; i < nsel && want; i++)
		if (sel[i]->needs & BE_NEEDS_LABELS)
			derived_want_labels(dv);
	derived_prepare_init(dv);
	for (unsigned i = 0; i < DERIVED_PARTS; i++) {
		derived_need(dv, i);
		dj[i] = (struct dv_job){ dv, i, 0, 0 };
		graph[ng++] =
		    (struct job){ run_dv_job, &dj[i], 0, false, false };
	}
	memset(ck, 0, sizeof(*ck));
	atomic_init(&ck->cancel, false);
	ctx->cancel = &ck->cancel;
	ck->c = c;
	ck->dv = dv;
	arena_init(&ck->arena);
	diag_fork(&ck->diag, &c->diag, &ck->arena);
	/* every finding, whatever --max-errors shows: the report lists and
	 * counts them all, and a group's "more like this" count does not
	 * depend on the limit; the limit applies when they are shown */
	ck->diag.max_errors = 0;
	ck->diag.capped = true;
	graph[ng++] =
	    (struct job){ run_ck_job, ck, ((uint64_t)1 << DERIVED_PARTS) - 1,
			  false, false };
	return ng;
}

/*
 * A job per part of each selected back end (@bj, and @order heaviest
 * first), each with its own context, arenas and diagnostics; then the
 * back ends' preparations.  Returns the jobs.
 */
static unsigned be_jobs(struct compilation *c, const struct backend **sel,
			unsigned nsel, struct backend_ctx *ctx, bool want,
			struct be_job *bj, struct be_job **order)
{
	unsigned nbj = 0;

	for (unsigned i = 0; i < nsel; i++) {
		unsigned parts = sel[i]->parts > 1 ? sel[i]->parts : 1;

		for (unsigned p = 0; p < parts; p++) {
			struct be_job *j = &bj[nbj];

			j->b = sel[i];
			arena_init(&j->arena);
			arena_init(&j->darena);
			diag_fork(&j->diag, &c->diag, &j->darena);
			diag_spill(&j->diag);
			j->ctx = *ctx;
			/* its own lists of files and directories */
			j->ctx.files = NULL;
			j->ctx.nfiles = j->ctx.files_cap = 0;
			j->ctx.dirs = NULL;
			j->ctx.ndirs = j->ctx.dirs_cap = 0;
			j->ctx.part = p;
			j->ctx.dry = !want;
			j->ctx.arena = &j->arena;
			j->ctx.diag = &j->diag;
			order[nbj] = j;
			nbj++;
		}
	}
	for (unsigned i = 0; i < nsel; i++)
		if (sel[i]->prepare)
			sel[i]->prepare(ctx); /* here, before any job */
	qsort(order, nbj, sizeof(*order), job_cmp);
	return nbj;
}

/*
 * The back ends' jobs into @graph after its first @ng, each waiting only
 * for what it reads (the derived parts are the first jobs of the graph,
 * the checks the next).  Returns the jobs of the graph.
 */
static unsigned graph_backends(struct be_job **order, unsigned nbj,
			       struct ck_job *ck, struct job *graph,
			       unsigned ng)
{
	for (unsigned i = 0; i < nbj; i++) {
		const struct backend *b = order[i]->b;
		uint64_t deps = 0;

		if (b->needs & BE_NEEDS_CHECKS) {
			order[i]->after = ck;
			deps |= (uint64_t)1 << DERIVED_PARTS;
		}
		if (b->needs & BE_NEEDS_FABRICS)
			deps |= (uint64_t)1 << DERIVED_FABRICS;
		if (b->needs & (BE_NEEDS_PLAN | BE_NEEDS_LABELS))
			deps |= (uint64_t)1 << DERIVED_PLAN;
		if (b->needs & BE_NEEDS_RACKS)
			deps |= (uint64_t)1 << DERIVED_RACKS;
		if (b->needs & BE_NEEDS_MODELS)
			deps |= (uint64_t)1 << DERIVED_MODELS;
		graph[ng++] =
		    (struct job){ run_be_job, order[i], deps, true, false };
	}
	return ng;
}

/*
 * After the graph, the checks' verdict: their diagnostics joined, the
 * --force warning, the output limit, the output directory.  Returns the
 * exit status so far.
 */
static int checks_verdict(struct compilation *c, struct ck_job *ck,
			  struct out_budget *budget, bool want, bool dir_ok,
			  int dir_errno)
{
	const struct rackc_options *o = c->opts;
	int rc = RK_EXIT_OK;

	diag_join(&c->diag, &ck->diag);
	arena_destroy(&ck->arena);
	if (ck->usage)
		rc = RK_EXIT_USAGE;
	else if (c->diag.errors && !o->force)
		rc = RK_EXIT_ERRORS;
	else if (want && c->diag.errors)
		diag_warning(&c->diag, NULL, "force",
			     "writing artifacts despite errors (--force)");
	if (rc == RK_EXIT_OK && atomic_load(&budget->over))
		rc = over_limit(c, budget);
	if (rc == RK_EXIT_OK && !dir_ok) {
		diag_error(&c->diag, NULL, "io",
			   "cannot create output directory '%s': %s", o->outdir,
			   strerror(dir_errno));
		rc = RK_EXIT_USAGE;
	}
	return rc;
}

/*
 * Each back end's diagnostics replayed in table order while the status
 * @rc is still success: the first that failed decides it (a preflight,
 * or --force, goes on; *@be_failed then).  Every job's files and
 * directories are gathered into @ctx and its arenas released.  Returns
 * the exit status.
 */
static int join_backends(struct compilation *c, struct be_job *bj, unsigned nbj,
			 struct backend_ctx *ctx, int rc, bool want,
			 bool *be_failed)
{
	const struct rackc_options *o = c->opts;

	for (unsigned i = 0; i < nbj; i++) {
		struct be_job *j = &bj[i];

		if (rc == RK_EXIT_OK) {
			uint32_t before = c->diag.errors;

			diag_join(&c->diag, &j->diag);
			/* an error that names the design is the design's; a
			 * preflight, or --force, goes on to the next back end
			 * (which writes what it can), else the first failure
			 * decides */
			if (!j->ok &&
			    (c->diag.errors == before || j->ctx.failed))
				rc = RK_EXIT_USAGE;
			else if (!j->ok && !want)
				*be_failed = true;
			else if (!j->ok && o->force) {
				*be_failed = true;
				out_discard(&j->ctx);
				diag_warning(&c->diag, NULL, "force",
					     "back end '%s' wrote nothing: it "
					     "cannot express the design (the "
					     "errors above); the other back "
					     "ends' artifacts are written "
					     "(--force)",
					     j->b->name);
			} else if (!j->ok)
				rc = RK_EXIT_ERRORS;
		}
		for (uint32_t k = 0; k < j->ctx.nfiles; k++)
			*VEC_PUSH(ctx->files, ctx->nfiles, ctx->files_cap) =
			    j->ctx.files[k];
		for (uint32_t k = 0; k < j->ctx.ndirs; k++)
			*VEC_PUSH(ctx->dirs, ctx->ndirs, ctx->dirs_cap) =
			    j->ctx.dirs[k];
		free(j->ctx.files);
		free(j->ctx.dirs);
		diag_unspill(&j->diag);
		arena_destroy(&j->darena);
		arena_destroy(&j->arena); /* a job skipped never released it */
	}
	return rc;
}

/* --stats: a line per back-end job, and the whole graph's since @t0. */
static void stats_backends(const struct be_job *bj, unsigned nbj, uint64_t t0)
{
	for (unsigned i = 0; i < nbj; i++) {
		const struct backend *b = bj[i].b;
		unsigned p = bj[i].ctx.part;

		stat_line(b->part_names ? b->part_names[p] : b->name, bj[i].ns,
			  bj[i].cpu);
	}
	stat_line("checks and back ends", rk_now_ns() - t0, UINT64_MAX);
}

/*
 * The checks and the back ends.  Everything after elaboration runs as one
 * graph of jobs on up to o->jobs threads: the derived figures (fabrics;
 * port index and cable plan; rack totals), then the checks, which wait for
 * them, and the back ends, which wait only for what they read (struct
 * backend's @needs: figures, or the checks' counts for report) and so may
 * start before the checks end.  Every job has its own context, arena and
 * deferred diagnostics.  When the checks fail (without --force) the
 * back-end jobs not started yet are skipped, and what the others wrote is
 * removed, with the directories the run made: nothing is left, as if they
 * had not run.  Otherwise, after the graph: the checks' diagnostics, the
 * --force warning, then each back end's diagnostics replayed in table
 * order; the first back end in that order that failed decides the exit
 * status, and what later ones wrote or said is dropped.  So the result
 * does not depend on the number of threads or on the order the jobs ran
 * in.
 */
static int run_all(struct compilation *c, struct derived *dv)
{
	const struct rackc_options *o = c->opts;
	const struct backend **sel =
	    xcalloc(backend_table_len + 1, sizeof(*sel));
	struct backend_ctx ctx;
	struct out_budget budget;
	struct be_job *bj, **order;
	struct dv_job dj[DERIVED_PARTS];
	struct ck_job ck;
	struct job *graph;
	unsigned nsel, nbj = 0, ng;
	int rc;
	const char *base = strrchr(o->input, '/');
	bool dir_ok, want = !o->check_only, be_failed = false;
	int dir_errno = 0;
	uint64_t t0;

	memset(&ctx, 0, sizeof(ctx));
	ctx.d = &c->design;
	ctx.dv = dv;
	ctx.diag = &c->diag;
	ctx.arena = &c->arena;
	ctx.outdir = o->outdir;
	ctx.input = base ? base + 1 : o->input;
	ctx.prices = o->prices;
	ctx.shared = be_shared_new();
	atomic_init(&budget.used, 0);
	atomic_init(&budget.over, false);
	budget.limit = o->max_output ? o->max_output : RK_MAX_OUTPUT_BYTES;
	ctx.budget = want ? &budget : NULL;
	nsel = 0;
	if (!select_backends(c, o->backends, sel, &nsel)) {
		be_shared_free(ctx.shared);
		free(sel);
		return RK_EXIT_USAGE;
	}
	/* the output directory now, so that the back ends can start early;
	 * a failure is reported once the checks have passed */
	dir_ok = !want || out_mkdirs(&ctx, o->outdir);
	if (!dir_ok) {
		dir_errno = errno;
		nsel = 0;
	}
	if (!want) {
		/* --check: the preflights of the back ends that have one */
		unsigned k = 0;

		for (unsigned i = 0; i < nsel; i++)
			if (sel[i]->preflight)
				sel[k++] = sel[i];
		nsel = k;
	}
	for (unsigned i = 0; i < nsel; i++)
		nbj += sel[i]->parts > 1 ? sel[i]->parts : 1;
	bj = xcalloc(nbj + 1, sizeof(*bj));
	order = xcalloc(nbj + 1, sizeof(*order));
	graph = xcalloc(DERIVED_PARTS + 1 + nbj, sizeof(*graph));
	ng = graph_checks(c, dv, sel, nsel, want, dj, &ck, &ctx, graph);
	nbj = be_jobs(c, sel, nsel, &ctx, want, bj, order);
	ng = graph_backends(order, nbj, &ck, graph, ng);

	/* from here on the derived figures are computed only by the parts
	 * declared above, or read */
	derived_start(dv);
	t0 = rk_now_ns();
	jobs_run_graph(o->jobs ? o->jobs : jobs_online_cpus(), graph, ng);
	if (o->stats) {
		for (unsigned i = 0; i < DERIVED_PARTS; i++)
			stat_line(dv_names[i], dj[i].ns, dj[i].cpu);
		stat_line("checks", ck.ns, ck.cpu);
	}
	if (o->explain)
		derived_fabric_explain(stdout, &c->design, dv);
	/* the checks' verdict first */
	rc = checks_verdict(c, &ck, &budget, want, dir_ok, dir_errno);
	if (o->stats && want)
		stats_backends(bj, nbj, t0);
	rc = join_backends(c, bj, nbj, &ctx, rc, want, &be_failed);
	free(graph);
	free(order);
	free(bj);
	if (rc == RK_EXIT_OK && want) {
		t0 = rk_now_ns();
		if (!out_commit(&ctx))
			rc = atomic_load(&budget.over) ? over_limit(c, &budget)
						       : RK_EXIT_USAGE;
		if (o->stats)
			stat_line("commit (rename)", rk_now_ns() - t0,
				  UINT64_MAX);
	}
	if (rc != RK_EXIT_OK || !want)
		out_discard(&ctx);
	free(ctx.files);
	free(ctx.dirs);
	be_shared_free(ctx.shared);
	free(sel);
	if (rc == RK_EXIT_OK && (c->diag.errors || be_failed))
		rc = RK_EXIT_ERRORS;
	return rc;
}

/*
 * The front end, a stage at a time: elaboration (parse, then run the
 * statements, imports and modules into objects), name resolution, fabric
 * expansion (the fabrics in dependency order, each one's references into
 * what others generate resolved before it expands), and last the explicit
 * links that name generated objects.  Syntax errors stop after
 * elaboration, name errors before the fabrics.
 */
static int front_end(struct compilation *c, uint32_t file)
{
	struct elab e;
	int rc;

	elab_init(&e, c);
	rc = elab_root(&e, file);
	if (rc != RK_EXIT_OK) {
		c->syntax_errors = true;
	} else if (!e.stopped) {
		resolve_design(&e);
		elab_assign_slots(&e);
		if (!e.errors) {
			uint64_t t0 = rk_now_ns(), u0 = rk_cpu_ns(false);

			fabric_expand(&e);
			resolve_deferred_links(&e);
			c->fabric_ns = rk_now_ns() - t0;
			c->fabric_cpu = rk_cpu_ns(false) - u0;
		}
	}
	if (e.errors)
		c->resolve_errors = true;
	c->parse_ns = e.parse_ns;
	resolve_fini(&e);
	elab_fini(&e);
	jobs_release_free_memory(); /* the syntax trees, among others */
	return c->syntax_errors || c->resolve_errors ? RK_EXIT_ERRORS
						     : RK_EXIT_OK;
}

int rackc_elaborate(struct compilation *c)
{
	uint32_t file;
	struct srcloc none = { 0, 0, 0 };

	file = srcmgr_load(&c->sm, c->opts->input, none);
	if (!file && errno == EFBIG) {
		diag_error(&c->diag, NULL, "io",
			   "'%s' is larger than %u bytes (the source size "
			   "limit; --max-source-bytes raises it)",
			   c->opts->input, c->sm.max_size);
		return RK_EXIT_USAGE;
	}
	if (!file) {
		diag_error(&c->diag, NULL, "io", "cannot read '%s': %s",
			   c->opts->input, strerror(errno));
		return RK_EXIT_USAGE;
	}
	c->root_file = file;
	return front_end(c, file);
}

int rackc_elaborate_string(struct compilation *c, const char *name,
			   const char *text)
{
	struct srcloc none = { 0, 0, 0 };

	c->root_file =
	    srcmgr_add(&c->sm, name, text, (uint32_t)strlen(text), none);
	return front_end(c, c->root_file);
}

int rackc_check_buffer(struct compilation *c, const char *name,
		       const char *text)
{
	struct derived dv;
	int rc = rackc_elaborate_string(c, name, text);

	derived_init(&dv, &c->design);
	if (rc == RK_EXIT_OK)
		rc = run_all(c, &dv);
	derived_free(&dv);
	return rc;
}

int rackc_run(const struct rackc_options *o)
{
	struct compilation c;
	struct derived dv;
	uint64_t t0, t1, u0, u1, start = rk_now_ns();
	int rc;

	compilation_init(&c, o, o->diag_out ? o->diag_out : stderr);
	t0 = rk_now_ns();
	u0 = rk_cpu_ns(false);
	rc = rackc_elaborate(&c);
	t1 = rk_now_ns();
	u1 = rk_cpu_ns(false);
	if (o->stats) {
		stat_line("parse", c.parse_ns, UINT64_MAX);
		/* processor time with the parse's (a fraction of a ms) */
		stat_line("elaborate", t1 - t0 - c.parse_ns - c.fabric_ns,
			  u1 - u0 - c.fabric_cpu);
		stat_line("fabrics", c.fabric_ns, c.fabric_cpu);
	}
	derived_init(&dv, &c.design);
	if (rc == RK_EXIT_OK)
		rc = run_all(&c, &dv);
	derived_free(&dv);
	diag_finish(&c.diag);
	if (o->stats) {
		stat_line("total", rk_now_ns() - start, rk_cpu_ns(true));
		fprintf(stderr,
			"rackc: stats: %u objects, %u links, %zu arena "
			"bytes\n",
			c.design.nobjs, c.design.nlinks, c.arena.total);
		{
			/* the largest resident set so far (Linux: KiB) */
			struct rusage ru;

			if (getrusage(RUSAGE_SELF, &ru) == 0)
				fprintf(stderr,
					"rackc: stats: peak memory %ld KiB\n",
					(long)ru.ru_maxrss);
		}
	}
	compilation_fini(&c);
	return rc;
}
