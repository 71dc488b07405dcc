/* SPDX-License-Identifier: MIT */
/*
 * Shared by the libFuzzer targets: each input is written to a file in a
 * private temporary directory (made once per process), compiled, and every
 * file the compilation wrote is removed again before the next input.
 */
#ifndef RACKC_FUZZ_COMMON_H
#define RACKC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "driver.h"

/*
 * Set up @o for one input of @size bytes at @data: the input file, an
 * output directory, diagnostics to /dev/null, one job.  False if the
 * input could not be written (the run is skipped).
 */
int fuzz_prepare(struct rackc_options *o, const uint8_t *data, size_t size);
/* Remove everything the last run wrote under the output directory. */
void fuzz_clean(void);
/*
 * Write @size bytes at @data to the file @name (a plain name) in the
 * private directory, replacing it; its path, or NULL if it could not be
 * written.  The path stays valid until the next call with the same name.
 */
const char *fuzz_file(const char *name, const uint8_t *data, size_t size);
/* The private directory and the output directory in it (made on first
 * use). */
const char *fuzz_dir(void);
const char *fuzz_outdir(void);
/* A design of the source tree (RACKC_SRCDIR/@rel): its path. */
const char *fuzz_srcfile(const char *rel);

#endif
