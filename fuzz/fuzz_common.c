/* SPDX-License-Identifier: MIT */
#define _XOPEN_SOURCE 700
#include "fuzz_common.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/* Process-wide, made once: a libFuzzer process runs one input at a time. */
static char dir[64], input[96], outdir[96];
static FILE *devnull;

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level > 0)
		remove(path);
	return 0;
}

void fuzz_clean(void)
{
	nftw(outdir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void remove_dir(void)
{
	fuzz_clean();
	remove(outdir);
	remove(input);
	remove(dir);
}

int fuzz_prepare(struct rackc_options *o, const uint8_t *data, size_t size)
{
	FILE *f;

	if (!dir[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(dir, sizeof(dir), "%s/rackc-fuzz.XXXXXX",
			 t && strlen(t) < 32 ? t : "/tmp");
		if (!mkdtemp(dir))
			die("cannot make a temporary directory");
		snprintf(input, sizeof(input), "%s/input.rack", dir);
		snprintf(outdir, sizeof(outdir), "%s/out", dir);
		devnull = fopen("/dev/null", "w");
		if (!devnull)
			die("cannot open /dev/null");
		atexit(remove_dir);
	}
	f = fopen(input, "wb");
	if (!f)
		return 0;
	if (size && fwrite(data, 1, size, f) != size) {
		fclose(f);
		return 0;
	}
	if (fclose(f))
		return 0;
	memset(o, 0, sizeof(*o));
	o->input = input;
	o->outdir = outdir;
	o->max_errors = 10;
	o->show_source = true;
	o->diag_format = DIAG_TEXT;
	o->jobs = 1;
	o->diag_out = devnull;
	return 1;
}
