/* SPDX-License-Identifier: MIT */
/* The compilation context (context.h): set-up, clocks, the stdlib path. */
#include "rackc.h"

#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
	if (o->stddir) {
		c->diag.stdlib_dir = o->stddir;
	} else {
		char buf[4096];

		c->diag.stdlib_dir = arena_printf(
		    &c->arena, "%s", rackc_default_stddir(buf, sizeof(buf)));
	}
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

/*
 * The build tree's library: an uninstalled rackc runs from the top of a
 * configured build tree (config.status beside it), which holds std/ (the
 * source tree, or in a VPATH build a link to its std/ that make creates).
 * Found from the running program's path, so that no build path is compiled
 * into the binary.  @buf (@n bytes) receives the directory.
 */
static bool build_tree_stddir(char *buf, size_t n)
{
#ifdef __linux__
	char probe[4096];
	struct stat st;
	ssize_t len = readlink("/proc/self/exe", buf, n - 1);
	char *slash;

	if (len <= 0 || (size_t)len >= n - 1)
		return false;
	buf[len] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return false;
	*slash = '\0';
	snprintf(probe, sizeof(probe), "%s/config.status", buf);
	if (stat(probe, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	snprintf(probe, sizeof(probe), "%s/std", buf);
	return stat(probe, &st) == 0 && S_ISDIR(st.st_mode);
#else
	(void)buf;
	(void)n;
	return false;
#endif
}

const char *rackc_default_stddir(char *buf, size_t n)
{
	struct stat st;
	const char *dir = ".";

#ifdef RACKC_STDDIR
	dir = RACKC_STDDIR;
	snprintf(buf, n, "%s/std", dir);
	if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
		return dir;
#endif
	if (build_tree_stddir(buf, n))
		return buf;
#ifdef RACKC_SRCDIR
	/* a build that names its source tree (the fuzzing harnesses) */
	snprintf(buf, n, "%s/std", RACKC_SRCDIR);
	if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
		return RACKC_SRCDIR;
#endif
	(void)st;
	return dir;
}
