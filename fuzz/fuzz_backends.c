/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the whole compiler.  The input is a design, compiled
 * as `rackc --force -j1 -o DIR` would: the checks, then every back end
 * (with --force they run even when checks fail), writing into a temporary
 * directory that is emptied after each input.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rackc_options o;

	if (!fuzz_prepare(&o, data, size))
		return 0;
	o.force = 1;
	(void)rackc_run(&o);
	fuzz_clean();
	return 0;
}
