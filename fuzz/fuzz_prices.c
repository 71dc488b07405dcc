/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the --prices CSV reader.  The input is a price list; a
 * small design whose switches, PDU and cables carry part numbers (those
 * of fuzz/corpus/prices/) is compiled with -O bom --force --prices=INPUT
 * (in process, on one thread), so the list is read, checked and matched
 * with the bill of materials' lines, priced in its currencies and summed,
 * into a temporary directory emptied after each input.
 */
#include <string.h>

#include "fuzz_common.h"

static const char design[] =
    "part sw : switch { height 1U; part_number \"MQM9700-NS2F\"; port p[0..1] "
    "{ form OSFP; speed 400Gb/s } }\n"
    "part pd : pdu { part_number \"PX3-5878I2R-P1Q2R1A15D5\"; port q }\n"
    "part cab : cable { part_number \"MFP7E10-N003\"; media mmf; form OSFP; "
    "lengths [3m] }\n"
    "part srv : server { height 2U; port ib { form OSFP; speed 400Gb/s } }\n"
    "switch a : sw { }\n"
    "switch b : sw { }\n"
    "pdu s : pd { }\n"
    "node n : srv { }\n"
    "link a.p[0] -- b.p[0] { cable cab }\n"
    "link n.ib -- a.p[1]\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *path;
	struct rackc_options o;
	const char *prices = fuzz_file("prices.csv", data, size);

	if (!path)
		path = fuzz_file("design.rack", (const uint8_t *)design,
				 strlen(design));
	if (!prices || !path || !fuzz_prepare(&o, (const uint8_t *)"", 0))
		return 0;
	o.input = path;
	o.backends = "bom";
	o.force = true;
	o.prices = prices;
	(void)rackc_run(&o);
	fuzz_clean();
	return 0;
}
