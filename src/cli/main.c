/* SPDX-License-Identifier: MIT */
/*
 * rackc's main(): sets the process up (the allocator, standard error's
 * buffer) and runs the command line (cli.c); nothing else lives here.
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli.h"

int main(int argc, char **argv)
{
#ifdef M_MMAP_THRESHOLD
	/*
	 * A compilation allocates and frees tables of tens of MiB one after
	 * another (sort scratch, port indexes, row buffers).  Kept in the heap
	 * instead of mmap'ed and unmapped each time, freed memory is reused
	 * without faulting fresh pages in again: about 5% of a 100,000-GPU
	 * compile (bench/RESULTS.md).  32 MiB is the largest threshold glibc
	 * accepts (a larger one is refused and leaves its default in place).
	 */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
#ifdef M_ARENA_MAX
	/*
	 * One heap for every thread: the jobs after elaboration free large
	 * tables that a job on another thread can then reuse (with a heap per
	 * thread it would fault fresh pages in: 22 MiB more at 100,000 GPUs).
	 * The jobs allocate in large blocks, so they seldom wait for the lock.
	 */
	mallopt(M_ARENA_MAX, 1);
#endif
	/*
	 * Standard error fully buffered: a diagnostic is some 200 putc and
	 * fprintf calls, each a write(2) on an unbuffered stream.  Everything
	 * rackc says on standard error goes through this one stream, so the
	 * order stays; diag_finish(), die() and bug() flush it, and exit()
	 * flushes it on every other way out.
	 */
	static char errbuf[1 << 16]; /* the process's one stderr buffer */
	setvbuf(stderr, errbuf, _IOFBF, sizeof(errbuf));
	return rackc_cli(argc, argv);
}
