/* SPDX-License-Identifier: MIT */
/*
 * The compilation pipeline: the stages in order (load -> parse ->
 * elaborate -> resolve -> fabrics -> checks -> back ends).  The options
 * and the per-compilation state are in context.h.
 */
#ifndef RACKC_DRIVER_H
#define RACKC_DRIVER_H

#include "context.h"

/*
 * Front end: load, parse and elaborate the input into c->design.  Returns
 * RK_EXIT_OK, RK_EXIT_ERRORS (syntax or name errors) or RK_EXIT_USAGE
 * (the input could not be read).
 */
int rackc_elaborate(struct compilation *c);
/* Same, from a string (unit tests). */
int rackc_elaborate_string(struct compilation *c, const char *name,
			   const char *text);

/*
 * What --check does, for a buffer held in memory (the language server):
 * elaborate @text as the file @name (its imports found from @name's
 * directory, -I and the standard library as usual), then run the checks
 * and the selected back ends' preflights, writing nothing.  @c, set up by
 * the caller with compilation_init(), keeps the design and, with the
 * options' diagnostics format json or sarif, every diagnostic as a record
 * (c->diag.recs) until compilation_fini().  Returns the exit status
 * --check would have.
 */
int rackc_check_buffer(struct compilation *c, const char *name,
		       const char *text);

/* The whole pipeline for the command line; returns the exit status. */
int rackc_run(const struct rackc_options *o);

#endif
