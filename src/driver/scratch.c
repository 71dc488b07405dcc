/* SPDX-License-Identifier: MIT */
/*
 * scratch.c - compiling a design into a scratch directory (scratch.h)
 */
#include "rackc.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver.h"
#include "jobs.h"
#include "scratch.h"

char *scratch_make(struct arena *a, const char *prog, const char *tag)
{
	const char *td = getenv("TMPDIR");
	char *dir =
	    arena_printf(a, "%s/%s.XXXXXX", td && *td ? td : "/tmp", tag);

	if (!mkdtemp(dir)) {
		fprintf(stderr,
			"%s: error: cannot make a temporary directory: %s\n",
			prog, strerror(errno));
		return NULL;
	}
	return dir;
}

static int rm_entry(const char *p, const struct stat *st, int flag,
		    struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

void scratch_remove(const char *dir)
{
	nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

bool scratch_compile(struct rackc_options *o, const char *expect,
		     const char *prog)
{
	FILE *msgs = tmpfile();
	char path[4096];
	bool ok;

	o->force = true;
	o->diag_format = DIAG_TEXT;
	o->max_errors = 10;
	o->show_source = true;
	o->diag_out = msgs;
	rackc_run(o);
	jobs_release_free_memory();
	snprintf(path, sizeof(path), "%s/%s", o->outdir, expect);
	ok = access(path, R_OK) == 0;
	if (!ok) {
		/* why: the compilation's own messages */
		int ch;

		if (msgs) {
			rewind(msgs);
			while ((ch = getc(msgs)) != EOF)
				putc(ch, stderr);
		}
		fprintf(stderr, "%s: error: '%s' does not compile\n", prog,
			o->input);
	}
	if (msgs)
		fclose(msgs);
	return ok;
}
