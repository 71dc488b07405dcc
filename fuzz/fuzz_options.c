/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the command line.  The first byte says how many
 * options follow (0 to 8), each two bytes (a kind and a value): -D values,
 * -W/-E with a check name, -Werror, --max-errors, --explain, -j 2 to 4,
 * --diagnostics-format text/json/sarif, --force, --check, -O with a back
 * end, --prices, --max-links, --max-source-bytes, -I, --no-source.  The
 * rest of the input is the design.  The options go through rackc_cli(),
 * the real option parsing and compilation, in process, with -o a
 * temporary directory emptied after each input; diagnostics and --explain
 * go to standard error and output (closed by fuzz/run.sh).
 */
#include <string.h>

#include "backend.h"
#include "check.h"
#include "cli.h"
#include "fuzz_common.h"

#define MAX_OPTS 8
/* "rackc" and "-j1", up to two arguments an option (the SARIF format with
 * its root), then "-o DIR -- DESIGN" */
#define MAX_ARGS (2 + 2 * MAX_OPTS + 4)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "n", "m", "gpus", "racks", "x" };
	static const char *const vals[] = { "0",  "1",	   "7",	    "100",
					    "-1", "99999", "1.5kW", "\"s\"" };
	static const char *const errs[] = { "0", "1", "3", "10" };
	static const char *const jobs[] = { "2", "3", "4" };
	static const char *const fmts[] = { "text", "json", "sarif" };
	static const char *const links[] = { "1", "10", "1000" };
	char store[MAX_ARGS][512];
	char *argv[MAX_ARGS + 1];
	int argc = 0;
	unsigned nopt;
	const char *input;
	struct rackc_options dummy;

	if (size < 1)
		return 0;
	nopt = data[0] % (MAX_OPTS + 1);
	if (size < 1 + 2 * (size_t)nopt)
		return 0;
#define ARG(...)                                               \
	(snprintf(store[argc], sizeof(store[0]), __VA_ARGS__), \
	 argv[argc] = store[argc], argc++)
	ARG("rackc");
	ARG("-j1"); /* unless an option says otherwise: one thread */
	for (unsigned i = 0; i < nopt; i++) {
		unsigned k = data[1 + 2 * i] % 16, v = data[2 + 2 * i];
		const char *check = check_table[v % check_table_len]->name;

		switch (k) {
		case 0:
			ARG("-D%s=%s", names[v % 5], vals[(v / 5) % 8]);
			break;
		case 1:
			ARG("-W%s", check);
			break;
		case 2:
			ARG("-Wno-%s", check);
			break;
		case 3:
			ARG("-E%s", check);
			break;
		case 4:
			ARG("-Eno-%s", check);
			break;
		case 5:
			ARG("%s", v % 2 ? "-Werror" : "-Wnosuch-check");
			break;
		case 6:
			ARG("--max-errors=%s", errs[v % 4]);
			break;
		case 7:
			ARG("--explain");
			break;
		case 8:
			ARG("-j%s", jobs[v % 3]);
			break;
		case 9:
			ARG("--diagnostics-format=%s", fmts[v % 3]);
			if (v % 3 == 2 && v & 8)
				ARG("--sarif-root=%s", fuzz_dir());
			break;
		case 10:
			ARG("--force");
			break;
		case 11:
			if (v % 16 < backend_table_len)
				ARG("-O%s", backend_table[v % 16]->name);
			else
				ARG("-O%s",
				    v % 2 ? "ir,report,cabling" : "nosuch");
			break;
		case 12:
			ARG("--check");
			break;
		case 13:
			if (v % 2)
				ARG("--no-source");
			else
				ARG("-I%s", fuzz_srcfile("examples"));
			break;
		case 14:
			ARG("--prices=%s",
			    fuzz_srcfile("tests/bom/prices.csv"));
			break;
		default:
			if (v % 2)
				ARG("--max-links=%s", links[(v / 2) % 3]);
			else
				ARG("--max-source-bytes=64");
			break;
		}
	}
	/* the design, after the option bytes */
	if (!fuzz_prepare(&dummy, data + 1 + 2 * nopt,
			  size - 1 - 2 * (size_t)nopt))
		return 0;
	input = dummy.input;
	ARG("-o");
	ARG("%s", fuzz_outdir());
	ARG("--");
	ARG("%s", input);
#undef ARG
	argv[argc] = NULL;
	(void)rackc_cli(argc, argv);
	fuzz_clean();
	return 0;
}
