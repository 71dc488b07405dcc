/* SPDX-License-Identifier: MIT */
/*
 * Shared first include of every rackc source file: configuration, exit codes
 * and the small helpers every stage uses.
 */
#ifndef RACKC_H
#define RACKC_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdbool.h>
#include <stdint.h>

#include "util.h"
#include "arena.h"

/* Process exit status (see doc/usage.md, "Exit status"). */
enum rk_exit {
	RK_EXIT_OK = 0,	    /* success; warnings allowed */
	RK_EXIT_ERRORS = 1, /* the design has errors */
	RK_EXIT_USAGE = 2,  /* bad command line, or an I/O failure */
};

#endif
