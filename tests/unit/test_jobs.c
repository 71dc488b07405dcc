/* SPDX-License-Identifier: MIT */
/*
 * The fork-join pool (src/jobs.h): every job runs exactly once whatever the
 * number of threads, the caller's thread takes part, one thread runs the
 * jobs in order, and the pool is reusable.
 */
#include "rackc.h"

#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "jobs.h"

struct tally {
	atomic_uint *runs;
	size_t *order; /* with one thread: the order jobs ran in */
	atomic_size_t next;
	pthread_t caller;
	atomic_uint on_caller;
};

static void count(void *arg, size_t i)
{
	struct tally *t = arg;
	size_t k = atomic_fetch_add(&t->next, 1);

	atomic_fetch_add(&t->runs[i], 1);
	if (t->order)
		t->order[k] = i;
	if (pthread_equal(pthread_self(), t->caller))
		atomic_fetch_add(&t->on_caller, 1);
	/* some work, so that the threads overlap */
	for (volatile unsigned spin = 0; spin < 2000; spin++)
		;
}

static void run(unsigned threads, size_t n, bool ordered)
{
	struct tally t;

	t.runs = calloc(n + 1, sizeof(*t.runs));
	t.order = ordered ? calloc(n + 1, sizeof(*t.order)) : NULL;
	atomic_init(&t.next, 0);
	atomic_init(&t.on_caller, 0);
	t.caller = pthread_self();
	jobs_run(threads, n, count, &t);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(t.runs[i], 1, "job %zu of %zu ran %u times on %u",
			     i, n, (unsigned)t.runs[i], threads);
	cr_assert_eq(atomic_load(&t.next), n);
	if (ordered)
		for (size_t i = 0; i < n; i++)
			cr_assert_eq(t.order[i], i);
	if (n && threads <= 1)
		cr_assert_eq(atomic_load(&t.on_caller), n,
			     "one thread: all on the caller's");
	free(t.runs);
	free(t.order);
}

Test(jobs, every_job_once)
{
	static const unsigned threads[] = { 1, 2, 3, 8, 64, 1000 };
	static const size_t sizes[] = { 0, 1, 2, 7, 64, 1000 };

	for (size_t a = 0; a < ARRAY_SIZE(threads); a++)
		for (size_t b = 0; b < ARRAY_SIZE(sizes); b++)
			run(threads[a], sizes[b], false);
}

Test(jobs, one_thread_runs_in_order_on_the_caller)
{
	run(1, 100, true);
	run(0, 100, true);
	run(8, 1, true);
}

Test(jobs, pool_is_reusable)
{
	for (int k = 0; k < 50; k++)
		run(4, 33, false);
}

Test(jobs, online_cpus_in_range)
{
	unsigned n = jobs_online_cpus();

	cr_assert(n >= 1 && n <= JOBS_MAX_THREADS);
}
