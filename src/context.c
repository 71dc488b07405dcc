/* SPDX-License-Identifier: MIT */
/* The compilation context (context.h): set-up, clocks, the stdlib path. */
#include "rackc.h"

#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

#include "context.h"

void compilation_init(struct compilation *c, const struct rackc_options *o,
		      FILE *diag_out)
{
	memset(c, 0, sizeof(*c));
	c->opts = o;
	arena_init(&c->arena);
	srcmgr_init(&c->sm, &c->arena);
	if (o->max_source)
		c->sm.max_size = o->max_source;
	diag_init(&c->diag, diag_out, &c->sm, &c->arena);
	c->diag.format = o->diag_format;
	c->diag.max_errors = o->max_errors;
	c->diag.werror = o->werror;
	c->diag.show_source = o->show_source;
	c->diag.stdlib_dir = o->stddir ? o->stddir : rackc_default_stddir();
	c->diag.sarif_root = o->sarif_root;
	ir_init(&c->design, &c->arena);
}

void compilation_fini(struct compilation *c)
{
	arena_destroy(&c->arena);
}

uint64_t rk_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t rk_cpu_ns(bool process)
{
	struct timespec ts;

	clock_gettime(
	    process ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const char *rackc_default_stddir(void)
{
#ifdef RACKC_SRCDIR
	/* an uninstalled build uses the source tree's library */
	static const char *const dirs[] = { RACKC_STDDIR, RACKC_SRCDIR };
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		char probe[4096];

		snprintf(probe, sizeof(probe), "%s/std", dirs[i]);
		if (stat(probe, &st) == 0 && S_ISDIR(st.st_mode))
			return dirs[i];
	}
	return RACKC_STDDIR;
#elif defined(RACKC_STDDIR)
	return RACKC_STDDIR;
#else
	return ".";
#endif
}
