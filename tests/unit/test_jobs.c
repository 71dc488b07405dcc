/* SPDX-License-Identifier: MIT */
/*
 * The job-graph pool (src/base/jobs.h): every job runs exactly once and only
 * after the jobs it waits for, whatever the number of threads; with one
 * thread on the caller's thread in index order; a job returning false
 * skips the skippable jobs not started yet and nothing else.
 */
#include "rackc.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "jobs.h"

struct world {
	atomic_uint runs[JOBS_GRAPH_MAX];
	atomic_bool finished[JOBS_GRAPH_MAX];
	atomic_uint order[JOBS_GRAPH_MAX]; /* k-th job to start */
	atomic_uint next;
	atomic_uint bad_deps;
	atomic_uint on_caller;
	pthread_t caller;
	struct job *jobs;
	unsigned stop_at; /* this job returns false (JOBS_GRAPH_MAX: none) */
};

struct arg {
	struct world *w;
	unsigned i;
};

static bool work(void *p)
{
	struct arg *a = p;
	struct world *w = a->w;

	/* what it waits for has finished (or, once a job said stop, was
	 * perhaps skipped) */
	for (unsigned k = 0; k < JOBS_GRAPH_MAX; k++)
		if ((w->jobs[a->i].deps >> k & 1) &&
		    !atomic_load(&w->finished[k]) &&
		    w->stop_at == JOBS_GRAPH_MAX)
			atomic_fetch_add(&w->bad_deps, 1);
	atomic_store(&w->order[atomic_fetch_add(&w->next, 1)], a->i);
	atomic_fetch_add(&w->runs[a->i], 1);
	if (pthread_equal(pthread_self(), w->caller))
		atomic_fetch_add(&w->on_caller, 1);
	/* some work, so that the threads overlap */
	for (volatile unsigned spin = 0; spin < 3000; spin++)
		;
	atomic_store(&w->finished[a->i], true);
	return a->i != w->stop_at;
}

/* A graph of @n jobs, job i waiting for i/2 and i-3 (when they exist). */
static void run(unsigned threads, unsigned n, unsigned stop_at, bool skippable)
{
	struct world *w = calloc(1, sizeof(*w));
	struct job jobs[JOBS_GRAPH_MAX];
	struct arg args[JOBS_GRAPH_MAX];

	w->caller = pthread_self();
	w->jobs = jobs;
	w->stop_at = stop_at;
	for (unsigned i = 0; i < n; i++) {
		args[i] = (struct arg){ w, i };
		jobs[i] = (struct job){ work, &args[i], 0, skippable, false };
		if (i)
			jobs[i].deps |= (uint64_t)1 << (i / 2);
		if (i >= 3)
			jobs[i].deps |= (uint64_t)1 << (i - 3);
	}
	jobs_run_graph(threads, jobs, n);
	cr_assert_eq(atomic_load(&w->bad_deps), 0,
		     "a job started before a job it waits for finished");
	for (unsigned i = 0; i < n; i++) {
		bool skip = skippable && stop_at < n && !jobs[i].ran;

		cr_assert_eq(atomic_load(&w->runs[i]), skip ? 0u : 1u,
			     "job %u of %u ran %u times on %u threads", i, n,
			     atomic_load(&w->runs[i]), threads);
		cr_assert_eq(jobs[i].ran, !skip);
	}
	/* what was skipped: nothing unless a job said stop and the rest may
	 * be; then on one thread exactly the jobs after it (on more, which
	 * ones had started depends on timing) */
	for (unsigned i = 0; i < n; i++) {
		if (!skippable || stop_at >= n)
			cr_assert(jobs[i].ran, "job %u skipped", i);
		else if (threads <= 1)
			cr_assert_eq(jobs[i].ran, i <= stop_at,
				     "job %u, stop at %u", i, stop_at);
	}
	if (threads <= 1) {
		for (unsigned k = 0; k < atomic_load(&w->next); k++)
			cr_assert_eq(atomic_load(&w->order[k]), k,
				     "one thread: index order");
		cr_assert_eq(atomic_load(&w->on_caller), atomic_load(&w->next));
	}
	free(w);
}

Test(jobs, every_job_once_after_its_dependencies)
{
	static const unsigned threads[] = { 1, 2, 3, 8, 64, 1000 };
	static const unsigned sizes[] = { 0, 1, 2, 7, 33, 64 };

	for (size_t a = 0; a < ARRAY_SIZE(threads); a++)
		for (size_t b = 0; b < ARRAY_SIZE(sizes); b++)
			run(threads[a], sizes[b], JOBS_GRAPH_MAX, true);
}

Test(jobs, false_skips_only_skippable_jobs_not_started)
{
	/* one thread: everything after job 5 is skipped */
	run(1, 20, 5, true);
	for (unsigned t = 2; t <= 8; t *= 2)
		run(t, 40, 3, true);
	/* nothing is skippable: all run */
	run(4, 40, 3, false);
}

Test(jobs, one_thread_runs_everything_in_order)
{
	struct world *w = calloc(1, sizeof(*w));
	struct job jobs[10];
	struct arg args[10];

	w->caller = pthread_self();
	w->jobs = jobs;
	w->stop_at = JOBS_GRAPH_MAX;
	for (unsigned i = 0; i < 10; i++) {
		args[i] = (struct arg){ w, i };
		jobs[i] = (struct job){ work, &args[i], 0, false, false };
	}
	jobs_run_graph(1, jobs, 10);
	for (unsigned i = 0; i < 10; i++)
		cr_assert_eq(atomic_load(&w->order[i]), i);
	cr_assert_eq(atomic_load(&w->on_caller), 10);
	free(w);
}

Test(jobs, pool_is_reusable)
{
	for (int k = 0; k < 50; k++)
		run(4, 33, JOBS_GRAPH_MAX, false);
}

Test(jobs, online_cpus_in_range)
{
	unsigned n = jobs_online_cpus();

	cr_assert(n >= 1 && n <= JOBS_MAX_THREADS);
}
