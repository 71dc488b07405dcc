/* SPDX-License-Identifier: MIT */
/*
 * rackc command line (GNU conventions).  Parses options into struct
 * rackc_options and hands over to rackc_run(); nothing else lives here.
 */
#include "rackc.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "backend.h"
#include "check.h"
#include "diff.h"
#include "driver.h"
#include "jobs.h"
#include "suggest.h"

enum {
	OPT_CHECK = 256,
	OPT_DIAG_FORMAT,
	OPT_MAX_ERRORS,
	OPT_MAX_SOURCE,
	OPT_MAX_LINKS,
	OPT_LIST_CHECKS,
	OPT_LIST_BACKENDS,
	OPT_HELP,
	OPT_VERSION,
	OPT_FORCE,
	OPT_STDLIB,
	OPT_PRICES,
	OPT_NO_SOURCE,
	OPT_STATS,
	OPT_EXPLAIN,
};

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "backend", required_argument, NULL, 'O' },
	{ "define", required_argument, NULL, 'D' },
	{ "include", required_argument, NULL, 'I' },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "diagnostics-format", required_argument, NULL, OPT_DIAG_FORMAT },
	{ "max-errors", required_argument, NULL, OPT_MAX_ERRORS },
	{ "max-source-bytes", required_argument, NULL, OPT_MAX_SOURCE },
	{ "max-links", required_argument, NULL, OPT_MAX_LINKS },
	{ "no-source", no_argument, NULL, OPT_NO_SOURCE },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "jobs", required_argument, NULL, 'j' },
	{ "stdlib", required_argument, NULL, OPT_STDLIB },
	{ "prices", required_argument, NULL, OPT_PRICES },
	{ "list-checks", no_argument, NULL, OPT_LIST_CHECKS },
	{ "list-backends", no_argument, NULL, OPT_LIST_BACKENDS },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *fp)
{
	fputs(
	    "Usage: rackc [OPTION]... DESIGN.rack\n"
	    "       rackc diff [OPTION]... OLD NEW   (see rackc diff --help)\n"
	    "Compile a rackc hardware design into deployment artifacts.\n"
	    "\n"
	    "  -o, --output=DIR        write artifacts to DIR (default: out)\n"
	    "  -O, --backend=NAME[,NAME...]\n"
	    "                          back ends to run (default: all; see\n"
	    "                          --list-backends)\n"
	    "      --check             validate only; write nothing\n"
	    "      --force             write artifacts despite check errors\n"
	    "  -D, --define=NAME=VALUE override param NAME\n"
	    "  -I, --include=DIR       search DIR for imports\n"
	    "      --stdlib=DIR        standard library directory\n"
	    "      --prices=FILE.csv   unit prices for the bill of materials\n"
	    "  -W NAME, -Wno-NAME      enable / disable check NAME\n"
	    "  -E NAME, -Eno-NAME      make check NAME an error / a warning\n"
	    "  -Werror                 treat warnings as errors\n"
	    "      --diagnostics-format=text|json|sarif\n"
	    "      --max-errors=N      show N errors (default 10, 0: "
	    "no limit)\n"
	    "      --max-links=N       allow designs of up to N links\n"
	    "                          (default 5000000, at most 50000000)\n"
	    "      --max-source-bytes=N\n"
	    "                          read source files of up to N bytes\n"
	    "                          (default 16777216, at most 1073741824)\n"
	    "      --no-source         no source line and caret in messages\n"
	    "      --explain           print every fabric's bisection: its "
	    "bounds,\n"
	    "                          how each was found, and the split (the\n"
	    "                          two halves of endpoint devices) that "
	    "cuts\n"
	    "                          the upper one\n"
	    "      --stats             print the time each stage takes\n"
	    "  -j, --jobs=N            run checks and back ends on N threads\n"
	    "                          (default: the processors online; the\n"
	    "                          output is the same for every N)\n"
	    "      --list-checks       list the checks and exit\n"
	    "      --list-backends     list the back ends and exit\n"
	    "      --help              show this help and exit\n"
	    "      --version           show the version and exit\n"
	    "\n"
	    "Exit status: 0 success (warnings allowed), 1 the design has "
	    "errors,\n"
	    "2 usage or I/O error.\n",
	    fp);
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("rackc: error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'rackc --help' for more information.\n", stderr);
	return RK_EXIT_USAGE;
}

/* Unknown -O names are usage errors even with --check (exit 2). */
static bool backends_validate(const char *list)
{
	char *copy, *tok, *save = NULL;
	bool ok = true;

	if (!list)
		return true;
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok && ok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct suggest sg;

		if (backend_find(tok))
			continue;
		suggest_init(&sg, tok);
		for (unsigned i = 0; i < backend_table_len; i++)
			suggest_offer(&sg, backend_table[i]->name);
		if (suggest_result(&sg))
			fprintf(stderr,
				"rackc: error: unknown back end '%s'; did you "
				"mean '%s'?\n",
				tok, suggest_result(&sg));
		else
			fprintf(stderr,
				"rackc: error: unknown back end '%s' (see "
				"--list-backends)\n",
				tok);
		ok = false;
	}
	free(copy);
	return ok;
}

static void push_setting(struct rackc_options *o, const char *name, int level)
{
	o->checks = xrealloc(o->checks, (o->nchecks + 1) * sizeof(*o->checks));
	o->checks[o->nchecks].name = name;
	o->checks[o->nchecks].level = level;
	o->nchecks++;
}

int main(int argc, char **argv)
{
	struct rackc_options o;
	int c, rc;

#ifdef M_MMAP_THRESHOLD
	/*
	 * A compilation allocates and frees tables of tens of MiB one after
	 * another (sort scratch, port indexes, row buffers).  Kept in the heap
	 * instead of mmap'ed and unmapped each time, freed memory is reused
	 * without faulting fresh pages in again: about 5% of a 100,000-GPU
	 * compile (bench/RESULTS.md).  32 MiB is the largest threshold glibc
	 * accepts (a larger one is refused and leaves its default in place).
	 */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
#ifdef M_ARENA_MAX
	/*
	 * One heap for every thread: the jobs after elaboration free large
	 * tables that a job on another thread can then reuse (with a heap per
	 * thread it would fault fresh pages in: 22 MiB more at 100,000 GPUs).
	 * The jobs allocate in large blocks, so they seldom wait for the lock.
	 */
	mallopt(M_ARENA_MAX, 1);
#endif
	/*
	 * Standard error fully buffered: a diagnostic is some 200 putc and
	 * fprintf calls, each a write(2) on an unbuffered stream.  Everything
	 * rackc says on standard error goes through this one stream, so the
	 * order stays; diag_finish(), die() and bug() flush it, and exit()
	 * flushes it on every other way out.
	 */
	static char errbuf[1 << 16]; /* the process's one stderr buffer */
	setvbuf(stderr, errbuf, _IOFBF, sizeof(errbuf));
	if (argc > 1 && streq(argv[1], "diff"))
		return diff_main(argc - 1, argv + 1);
	memset(&o, 0, sizeof(o));
	o.outdir = "out";
	o.max_errors = 10;
	o.show_source = true;
	o.diag_format = DIAG_TEXT;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:O:D:I:W:E:j:", long_opts,
				NULL)) != -1) {
		switch (c) {
		case 'o':
			o.outdir = optarg;
			break;
		case 'O':
			o.backends = optarg;
			break;
		case 'D': {
			char *eq = strchr(optarg, '=');

			if (!eq || eq == optarg)
				return usage_error("-D needs NAME=VALUE, not "
						   "'%s'",
						   optarg);
			*eq = '\0';
			o.defines = xrealloc(o.defines, (o.ndefines + 1) *
							    sizeof(*o.defines));
			o.defines[o.ndefines].name = optarg;
			o.defines[o.ndefines].value = eq + 1;
			o.ndefines++;
			break;
		}
		case 'I':
			o.incdirs = xrealloc(o.incdirs, (o.nincdirs + 1) *
							    sizeof(*o.incdirs));
			o.incdirs[o.nincdirs++] = optarg;
			break;
		case 'W':
			if (streq(optarg, "error"))
				o.werror = true;
			else if (strncmp(optarg, "no-", 3) == 0)
				push_setting(&o, optarg + 3, 0);
			else
				push_setting(&o, optarg, 1);
			break;
		case 'E':
			if (strncmp(optarg, "no-", 3) == 0)
				push_setting(&o, optarg + 3, -1);
			else
				push_setting(&o, optarg, 2);
			break;
		case OPT_CHECK:
			o.check_only = true;
			break;
		case OPT_FORCE:
			o.force = true;
			break;
		case OPT_DIAG_FORMAT:
			if (streq(optarg, "text"))
				o.diag_format = DIAG_TEXT;
			else if (streq(optarg, "json"))
				o.diag_format = DIAG_JSON;
			else if (streq(optarg, "sarif"))
				o.diag_format = DIAG_SARIF;
			else
				return usage_error("unknown diagnostics format "
						   "'%s' (text, json or sarif)",
						   optarg);
			break;
		case OPT_MAX_ERRORS: {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);

			if (*end || !*optarg || n > UINT32_MAX ||
			    optarg[0] == '-')
				return usage_error("--max-errors needs a "
						   "number, not '%s'",
						   optarg);
			o.max_errors = (uint32_t)n;
			break;
		}
		case OPT_MAX_SOURCE:
			if (!srcmgr_parse_max(optarg, &o.max_source))
				return usage_error(
				    "--max-source-bytes needs a number from 1 "
				    "to 1073741824, not '%s'",
				    optarg);
			break;
		case OPT_MAX_LINKS: {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);

			if (*end || !*optarg || optarg[0] == '-' || n < 1 ||
			    n > RK_MAX_LINKS_OPT)
				return usage_error(
				    "--max-links needs a number "
				    "from 1 to 50000000, not '%s'",
				    optarg);
			o.max_links = (uint32_t)n;
			break;
		}
		case OPT_NO_SOURCE:
			o.show_source = false;
			break;
		case OPT_STATS:
			o.stats = true;
			break;
		case OPT_EXPLAIN:
			o.explain = true;
			break;
		case 'j': {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);

			if (*end || !*optarg || optarg[0] == '-' || n < 1 ||
			    n > JOBS_MAX_THREADS)
				return usage_error("--jobs needs a number from "
						   "1 to 64, not '%s'",
						   optarg);
			o.jobs = (unsigned)n;
			break;
		}
		case OPT_STDLIB:
			o.stddir = optarg;
			break;
		case OPT_PRICES:
			o.prices = optarg;
			break;
		case OPT_LIST_CHECKS:
			checks_list(stdout);
			return RK_EXIT_OK;
		case OPT_LIST_BACKENDS:
			for (unsigned i = 0; i < backend_table_len; i++)
				printf("%-10s %s\n", backend_table[i]->name,
				       backend_table[i]->summary);
			return RK_EXIT_OK;
		case OPT_HELP:
			usage(stdout);
			return RK_EXIT_OK;
		case OPT_VERSION:
			printf("rackc %s\n", PACKAGE_VERSION);
			return RK_EXIT_OK;
		case ':':
			return usage_error("option '%s' needs an argument",
					   argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (optind != argc - 1) {
		rc = usage_error("%s", optind >= argc
					   ? "no design file given"
					   : "more than one design file "
					     "given");
	} else if (!checks_validate(o.checks, o.nchecks, stderr) ||
		   !backends_validate(o.backends)) {
		rc = RK_EXIT_USAGE;
	} else {
		o.input = argv[optind];
		rc = rackc_run(&o);
	}
	free(o.defines);
	free(o.incdirs);
	free(o.checks);
	return rc;
}
