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

#endif
