/* SPDX-License-Identifier: MIT */
/*
 * A small pool for a graph of jobs: run them on up to a given number of
 * threads (the caller's thread is one of them), each as soon as the jobs
 * it waits for have finished.  A job must touch only its own state and
 * data that nobody writes while it runs (what it waits for is finished);
 * the caller combines the results in its own order afterwards, so what a
 * run produces does not depend on how many threads it had or how they
 * were scheduled.
 */
#ifndef RACKC_JOBS_H
#define RACKC_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Most threads a pool starts, whatever it is asked for (-j's limit). */
#define JOBS_MAX_THREADS 64u

/**
 * struct job - one job of a graph (jobs_run_graph)
 * @fn:        the work; returns false to skip the skippable jobs that
 *             have not started yet (work that is no longer wanted)
 * @arg:       its argument
 * @deps:      bit k set: runs only after job k has finished (k must be
 *             below this job's index, so the graph has no cycle)
 * @skippable: may be skipped once a job has returned false
 * @ran:       out: the job ran (false: it was skipped)
 */
struct job {
	bool (*fn)(void *arg);
	void *arg;
	uint64_t deps;
	bool skippable;
	bool ran;
};

/* Most jobs in one graph. */
#define JOBS_GRAPH_MAX 64u

/*
 * Run a graph of up to JOBS_GRAPH_MAX jobs on up to @threads threads: a
 * free thread takes the first job (lowest index) whose dependencies have
 * all finished, so the index order is the priority order.  Returns when
 * every job has run or been skipped.  With one thread the jobs run on the
 * caller's thread, in index order (dependencies point backwards).
 */
void jobs_run_graph(unsigned threads, struct job *jobs, unsigned n);

/* The processors online (at least 1, at most JOBS_MAX_THREADS). */
unsigned jobs_online_cpus(void);

/* Give the heap's free pages back to the system when more than 128 MiB
 * are free (glibc; elsewhere nothing): after a job, and after the front
 * end has released the syntax trees. */
void jobs_release_free_memory(void);

#endif
