/* SPDX-License-Identifier: MIT */
/*
 * A small fork-join pool: run n independent jobs on up to a given number
 * of threads (the caller's thread is one of them).  Jobs are handed out in
 * index order, each to the first free thread; a job must touch only its
 * own state and data that nobody writes while the pool runs, and the
 * caller combines the results in index order afterwards, so what a run
 * produces does not depend on how many threads it had or how they were
 * scheduled.
 */
#ifndef RACKC_JOBS_H
#define RACKC_JOBS_H

#include <stddef.h>

/* Most threads a pool starts, whatever it is asked for (-j's limit). */
#define JOBS_MAX_THREADS 64u

/*
 * Run fn(arg, i) for every i in [0, n) on up to @threads threads; returns
 * when all have finished.  With one thread (or one job) everything runs on
 * the caller's thread, in order.  A thread that cannot be started leaves
 * its share to the others.
 */
void jobs_run(unsigned threads, size_t n, void (*fn)(void *arg, size_t i),
	      void *arg);

/* The processors online (at least 1, at most JOBS_MAX_THREADS). */
unsigned jobs_online_cpus(void);

#endif
