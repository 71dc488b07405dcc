/* SPDX-License-Identifier: MIT */
/*
 * scratch.h - compiling a design into a scratch directory, for the
 * subcommands that read a design's artifacts (`rackc diff`, `rackc verify`)
 */
#ifndef RACKC_SCRATCH_H
#define RACKC_SCRATCH_H

#include <stdbool.h>

#include "arena.h"
#include "context.h"

/*
 * scratch_make - a fresh directory under $TMPDIR (or /tmp) named
 * TAG.XXXXXX, in @a; NULL (with a message that starts with @prog) when it
 * cannot be made
 */
char *scratch_make(struct arena *a, const char *prog, const char *tag);

/* scratch_remove - remove @dir and everything below it */
void scratch_remove(const char *dir);

/*
 * scratch_compile - run the compilation @o (its outdir the scratch
 * directory, forced, text diagnostics kept aside) and say whether it wrote
 * @expect (a file name inside outdir); when it did not, the compilation's
 * own messages are printed, then "PROG: error: 'INPUT' does not compile"
 */
bool scratch_compile(struct rackc_options *o, const char *expect,
		     const char *prog);

#endif
