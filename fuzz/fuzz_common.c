/* SPDX-License-Identifier: MIT */
#define _XOPEN_SOURCE 700
#include "fuzz_common.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/*
 * Process-wide, made once: a libFuzzer process runs one input at a time
 * (this is the harness, not the compiler, which keeps no global state).
 */
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

static int remove_any(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* The private directory and everything in it. */
static void remove_dir(void)
{
	nftw(dir, remove_any, 16, FTW_DEPTH | FTW_PHYS);
}

static void setup(void)
{
	const char *t = getenv("TMPDIR");

	if (dir[0])
		return;
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

const char *fuzz_dir(void)
{
	setup();
	return dir;
}

const char *fuzz_outdir(void)
{
	setup();
	return outdir;
}

const char *fuzz_srcfile(const char *rel)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/%s", RACKC_SRCDIR, rel);
	return path;
}

static bool write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		return false;
	if (size && fwrite(data, 1, size, f) != size) {
		fclose(f);
		return false;
	}
	return fclose(f) == 0;
}

const char *fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	/* a few names, each its own path buffer */
	static char paths[8][160];
	static unsigned n;
	char path[160];
	unsigned i;

	setup();
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (i = 0; i < n && strcmp(paths[i], path); i++)
		;
	if (i == n) {
		if (n == sizeof(paths) / sizeof(paths[0]))
			die("fuzz: too many files");
		memcpy(paths[n++], path, sizeof(path));
	}
	return write_file(paths[i], data, size) ? paths[i] : NULL;
}

int fuzz_prepare(struct rackc_options *o, const uint8_t *data, size_t size)
{
	setup();
	if (!write_file(input, data, size))
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
