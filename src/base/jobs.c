/* SPDX-License-Identifier: MIT */
/* The fork-join pool of jobs.h on POSIX threads. */
#include "rackc.h"

#include <pthread.h>
#include <unistd.h>
/* Under AddressSanitizer the heap is the sanitizer's, not glibc's: glibc's
 * mallinfo2() then walks arenas that were never set up (it crashed). */
#if defined(__SANITIZE_ADDRESS__)
#define RK_NO_GLIBC_HEAP 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RK_NO_GLIBC_HEAP 1
#endif
#endif
#if defined(__GLIBC__) && !defined(RK_NO_GLIBC_HEAP)
#include <malloc.h>
#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33)
#define HAVE_MALLINFO2 1
#endif
#endif

#include "jobs.h"

struct graph {
	struct job *jobs;
	unsigned n;
	uint64_t started, done;
	bool stop;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

/*
 * What a finished job freed stays in the heap for the jobs after it, but
 * not without bound: most of it is many small blocks (graphs, sort
 * scratch) freed all over the heap, where no large table can reuse it (a
 * table of more than M_MMAP_THRESHOLD is mapped afresh), yet it stays
 * resident.  At a million GPUs the fabric figures left some 400 MiB free
 * in the heap while the patch schedule mapped 190 MiB more.  So once the
 * heap's free bytes exceed both FREE_KEEP and what the process holds in
 * use (heap blocks and mapped tables), the free pages go back to
 * the system; below that they are reused by the next jobs without being
 * faulted in again.  The bound grows with the design: a fixed one was
 * crossed only by large designs (a million GPUs: some 550 MiB released
 * after the fabric figures, the cable plan and the InfiniBand files, and
 * faulted in again by the jobs after them, 30% of the run's page faults
 * for no lower peak), so their processor time grew faster than the
 * design.
 */
#define FREE_KEEP ((size_t)128 << 20)

void jobs_release_free_memory(void)
{
#ifdef HAVE_MALLINFO2
	struct mallinfo2 m = mallinfo2();
	size_t keep = m.uordblks + m.hblkhd;

	if (m.fordblks > (keep > FREE_KEEP ? keep : FREE_KEEP))
		malloc_trim(0);
#endif
}

static void *graph_worker(void *p)
{
	struct graph *g = p;

	pthread_mutex_lock(&g->mu);
	for (;;) {
		unsigned pick = g->n;
		bool left = false;

		for (unsigned i = 0; i < g->n; i++) {
			uint64_t bit = (uint64_t)1 << i;

			if (g->started & bit)
				continue;
			left = true;
			if (!(g->jobs[i].deps & ~g->done)) {
				pick = i;
				break;
			}
		}
		if (!left)
			break;
		if (pick == g->n) {
			/* everything left waits for a running job */
			pthread_cond_wait(&g->cv, &g->mu);
			continue;
		}
		g->started |= (uint64_t)1 << pick;
		if (!(g->stop && g->jobs[pick].skippable)) {
			struct job *j = &g->jobs[pick];
			bool ok;

			pthread_mutex_unlock(&g->mu);
			ok = j->fn(j->arg);
			jobs_release_free_memory();
			pthread_mutex_lock(&g->mu);
			j->ran = true;
			if (!ok)
				g->stop = true;
		}
		g->done |= (uint64_t)1 << pick;
		pthread_cond_broadcast(&g->cv);
	}
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

void jobs_run_graph(unsigned threads, struct job *jobs, unsigned n)
{
	pthread_t tid[JOBS_MAX_THREADS];
	bool started[JOBS_MAX_THREADS];
	struct graph g;
	unsigned extra;

	if (n > JOBS_GRAPH_MAX)
		die("internal error: a job graph of %u jobs", n);
	for (unsigned i = 0; i < n; i++) {
		jobs[i].ran = false;
		if (jobs[i].deps >> i)
			die("internal error: job %u waits for a later job", i);
	}
	g.jobs = jobs;
	g.n = n;
	g.started = g.done = 0;
	g.stop = false;
	pthread_mutex_init(&g.mu, NULL);
	pthread_cond_init(&g.cv, NULL);
	if (threads > JOBS_MAX_THREADS)
		threads = JOBS_MAX_THREADS;
	if (threads > n)
		threads = n;
	extra = threads > 1 ? threads - 1 : 0;
	for (unsigned t = 0; t < extra; t++)
		started[t] =
		    pthread_create(&tid[t], NULL, graph_worker, &g) == 0;
	graph_worker(&g);
	for (unsigned t = 0; t < extra; t++)
		if (started[t])
			pthread_join(tid[t], NULL);
	pthread_cond_destroy(&g.cv);
	pthread_mutex_destroy(&g.mu);
}

unsigned jobs_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > (long)JOBS_MAX_THREADS ? JOBS_MAX_THREADS : (unsigned)n;
}
