/* SPDX-License-Identifier: MIT */
/* The fork-join pool of jobs.h on POSIX threads. */
#include "rackc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "jobs.h"

struct pool {
	void (*fn)(void *arg, size_t i);
	void *arg;
	size_t n;
	atomic_size_t next;
};

static void *worker(void *p)
{
	struct pool *pl = p;
	size_t i;

	while ((i = atomic_fetch_add(&pl->next, 1)) < pl->n)
		pl->fn(pl->arg, i);
	return NULL;
}

void jobs_run(unsigned threads, size_t n, void (*fn)(void *arg, size_t i),
	      void *arg)
{
	pthread_t tid[JOBS_MAX_THREADS];
	bool started[JOBS_MAX_THREADS];
	struct pool pl;
	unsigned extra;

	if (threads > JOBS_MAX_THREADS)
		threads = JOBS_MAX_THREADS;
	if (threads > n)
		threads = (unsigned)n;
	if (threads <= 1) {
		for (size_t i = 0; i < n; i++)
			fn(arg, i);
		return;
	}
	pl.fn = fn;
	pl.arg = arg;
	pl.n = n;
	atomic_init(&pl.next, 0);
	extra = threads - 1;
	for (unsigned t = 0; t < extra; t++)
		started[t] = pthread_create(&tid[t], NULL, worker, &pl) == 0;
	worker(&pl);
	for (unsigned t = 0; t < extra; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
}

unsigned jobs_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > (long)JOBS_MAX_THREADS ? JOBS_MAX_THREADS : (unsigned)n;
}
