/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the readers of `rackc diff`.  Two output directories
 * hold the artifacts of tests/designs/nocatalog.rack (compiled once, at
 * the first input); the input's first byte selects one file (report.json,
 * bom.csv, cabling.csv or ir.rack: bits 0-1), the side it replaces (old or
 * new: bit 2) and the diff's format (text, json or markdown: bits 3-4),
 * and the rest of the input is that file.  `rackc diff -f FORMAT OLD NEW`
 * then runs through rackc_cli() in process (ir.rack is compiled again, the
 * other files read), and the file is put back.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "fuzz_common.h"
#include "textread.h"
#include "util.h"

static const char *const files[] = { "report.json", "bom.csv", "cabling.csv",
				     "ir.rack" };

/* The base artifacts, read once (the harness's own state). */
static char *base[4];
static size_t base_len[4];
static char sides[2][128];

static bool put(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	bool ok;

	if (!f)
		return false;
	ok = fwrite(text, 1, len, f) == len;
	return fclose(f) == 0 && ok;
}

static void free_base(void)
{
	for (unsigned i = 0; i < 4; i++)
		free(base[i]);
}

static void setup(void)
{
	struct rackc_options o;
	char path[256];

	if (base[0])
		return;
	if (!fuzz_prepare(&o, (const uint8_t *)"", 0))
		die("fuzz: cannot write the input");
	o.input = fuzz_srcfile("tests/designs/nocatalog.rack");
	o.backends = "ir,report,bom,cabling";
	if (rackc_run(&o) != 0)
		die("fuzz: %s does not compile", o.input);
	for (unsigned i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", fuzz_outdir(), files[i]);
		base[i] = rk_slurp(path, &base_len[i]);
		if (!base[i])
			die("fuzz: cannot read %s", path);
	}
	fuzz_clean();
	atexit(free_base);
	for (unsigned k = 0; k < 2; k++) {
		snprintf(sides[k], sizeof(sides[k]), "%s/%s", fuzz_dir(),
			 k ? "new" : "old");
		if (mkdir(sides[k], 0700) != 0)
			die("fuzz: cannot make %s", sides[k]);
		for (unsigned i = 0; i < 4; i++) {
			snprintf(path, sizeof(path), "%s/%s", sides[k],
				 files[i]);
			if (!put(path, base[i], base_len[i]))
				die("fuzz: cannot write %s", path);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const fmts[] = { "text", "json", "markdown", "md" };
	char path[256], a0[] = "rackc", a1[] = "diff", a2[] = "-f", a3[16];
	char *argv[6];
	unsigned f, side;

	if (size < 1)
		return 0;
	setup();
	f = data[0] % 4;
	side = (data[0] >> 2) & 1;
	snprintf(a3, sizeof(a3), "%s", fmts[(data[0] >> 3) % 4]);
	snprintf(path, sizeof(path), "%s/%s", sides[side], files[f]);
	if (!put(path, (const char *)data + 1, size - 1))
		return 0;
	argv[0] = a0;
	argv[1] = a1;
	argv[2] = a2;
	argv[3] = a3;
	argv[4] = sides[0];
	argv[5] = sides[1];
	(void)rackc_cli(6, argv);
	if (!put(path, base[f], base_len[f]))
		die("fuzz: cannot restore %s", path);
	return 0;
}
