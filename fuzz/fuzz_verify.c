/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the readers of `rackc verify`.  Two plans are
 * compiled once, at the first input, into output directories:
 * tests/verify/ib-small.rack (an InfiniBand fat tree: cabling and ib/*.net)
 * and tests/verify/eth-small.rack (an Ethernet leaf-spine: cabling and
 * lldp/expected.json).  The input's first byte selects what the rest is:
 * bits 0-1 the reader (0 InfiniBand, against the InfiniBand plan:
 * ibnetdiscover output, ibdiagnet.lst or ibdiagnet2.db_csv, which the
 * text selects; 1 `lldpcli -f json` output, 2 a neighbour CSV, 3 a
 * mapping file (--map) with the fixture tests/verify/lldp/h-2.json
 * observed, all three against the Ethernet plan), bits 2-3 the format
 * (text, json, markdown), bit 4 a Markdown work order written too, bit 5
 * a HOST= before the observed file.  `rackc verify` then runs through
 * rackc_cli() in process.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fuzz_common.h"
#include "util.h"

static char plans[2][256];

static void setup(void)
{
	static const char *const designs[2] = { "tests/verify/ib-small.rack",
						"tests/verify/eth-small.rack" };
	static const char *const backends[2] = { "cabling,ibnet",
						 "cabling,lldp" };
	struct rackc_options o;

	if (plans[0][0])
		return;
	for (unsigned k = 0; k < 2; k++) {
		if (!fuzz_prepare(&o, (const uint8_t *)"", 0))
			die("fuzz: cannot write the input");
		o.input = fuzz_srcfile(designs[k]);
		o.backends = backends[k];
		if (rackc_run(&o) != 0)
			die("fuzz: %s does not compile", o.input);
		/* the output directory is emptied for each input: the plan
		 * moves next to it */
		snprintf(plans[k], sizeof(plans[k]), "%s/plan%u", fuzz_dir(),
			 k);
		if (rename(fuzz_outdir(), plans[k]) != 0)
			die("fuzz: cannot keep the plan of %s", designs[k]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const fmts[] = { "text", "json", "markdown",
					    "text" };
	static const char *const names[] = { "obs.disc", "obs.json", "obs.csv",
					     "obs.map" };
	char store[8][512];
	char *argv[8];
	int argc = 0;
	unsigned kind, sel;
	const char *file;

	if (size < 1)
		return 0;
	setup();
	sel = data[0];
	kind = sel % 4;
	file = fuzz_file(names[kind], data + 1, size - 1);
	if (!file)
		return 0;
#define ARG(...)                                               \
	(snprintf(store[argc], sizeof(store[0]), __VA_ARGS__), \
	 argv[argc] = store[argc], argc++)
	ARG("rackc");
	ARG("verify");
	ARG("--format=%s", fmts[(sel >> 2) % 4]);
	if (sel & 16)
		ARG("--work-order=%s/wo.md", fuzz_dir());
	if (kind == 3)
		ARG("--map=%s", file);
	ARG("%s", plans[kind != 0]);
	if (kind == 3)
		ARG("%s", fuzz_srcfile("tests/verify/lldp/h-2.json"));
	else if (sel & 32)
		ARG("h[2]=%s", file);
	else
		ARG("%s", file);
#undef ARG
	(void)rackc_cli(argc, argv);
	fuzz_clean();
	return 0;
}
