/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the front end.  The input is a design; it is scanned,
 * parsed, elaborated, its fabrics generated and its names resolved
 * (rackc_elaborate()), and nothing more.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rackc_options o;
	struct compilation c;

	if (!fuzz_prepare(&o, data, size))
		return 0;
	compilation_init(&c, &o, o.diag_out);
	(void)rackc_elaborate(&c);
	diag_finish(&c.diag);
	compilation_fini(&c);
	return 0;
}
