/* SPDX-License-Identifier: MIT */
/*
 * The compilation context: the options and the per-compilation state that
 * every stage receives.  It sits below the stages (elaboration, resolution,
 * fabric expansion, checks, back ends) and above only the IR and the
 * support code, so that any stage can take a struct compilation without
 * reaching up to the driver.  There is no global state: everything a
 * compilation owns hangs off struct compilation and is released with its
 * arena.
 */
#ifndef RACKC_CONTEXT_H
#define RACKC_CONTEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "diag.h"
#include "ir.h"
#include "srcfile.h"

/**
 * struct rackc_define - one -D NAME=VALUE
 */
struct rackc_define {
	const char *name;
	const char *value;
};

/**
 * struct check_setting - one -W/-E option, in command-line order
 * @name:  check name, or "error" for -Werror
 * @level: requested level: 0 off, 1 warning, 2 error; -1 for -Eno-NAME
 */
struct check_setting {
	const char *name;
	int level;
};

/* The most --max-links allows (the default is RK_MAX_LINKS, src/elab/elab.h). */
#define RK_MAX_LINKS_OPT 50000000u

/**
 * struct rackc_options - everything the command line says
 */
struct rackc_options {
	const char *input;
	const char *outdir;
	const char *backends; /* comma-separated -O list, NULL: default */
	bool check_only;
	bool force;
	struct rackc_define *defines;
	uint32_t ndefines;
	const char **incdirs;
	uint32_t nincdirs;
	const char *stddir;	/* --stdlib DIR, NULL: built-in default */
	const char *sarif_root; /* --sarif-root DIR, NULL: the cwd */
	enum diag_format diag_format;
	uint32_t max_errors;
	uint32_t max_source; /* --max-source-bytes, 0: RK_MAX_FILE_SIZE */
	uint32_t max_links;  /* --max-links, 0: RK_MAX_LINKS (elab.h) */
	uint64_t max_output; /* --max-output-bytes, 0: RK_MAX_OUTPUT_BYTES */
	bool werror;
	bool show_source;
	struct check_setting *checks;
	uint32_t nchecks;
	bool stats;	    /* --stats: print stage timings */
	bool explain;	    /* --explain: every fabric's bisection */
	unsigned jobs;	    /* -j: back-end threads, 0: the processors online */
	const char *prices; /* --prices FILE.csv, NULL: none */
	FILE *diag_out;	    /* where diagnostics go, NULL: standard error */
};

/**
 * struct compilation - one compilation's state
 */
struct compilation {
	struct arena arena;
	struct srcmgr sm;
	struct diag_engine diag;
	struct rk_design design;
	const struct rackc_options *opts;
	uint32_t root_file;
	bool syntax_errors;  /* stop before checks, even with --force */
	bool resolve_errors; /* likewise */
	uint64_t parse_ns;   /* time spent parsing (for --stats) */
	uint64_t fabric_ns;  /* time spent in fabric generators */
	uint64_t fabric_cpu; /* processor time of the same */
};

/* Monotonic clock in nanoseconds. */
uint64_t rk_now_ns(void);
/* Processor time of the calling thread (@process: of the whole process). */
uint64_t rk_cpu_ns(bool process);

void compilation_init(struct compilation *c, const struct rackc_options *o,
		      FILE *diag_out);
void compilation_fini(struct compilation *c);

/*
 * Directory of the bundled standard library (std/...): the installed one,
 * else the build tree's when rackc runs uninstalled.  The result is @buf
 * (@n bytes) or a constant.
 */
const char *rackc_default_stddir(char *buf, size_t n);

#endif
