/* SPDX-License-Identifier: MIT */
/*
 * rackc command line (GNU conventions): parses the options into struct
 * rackc_options and hands over to rackc_run(), diff_main() or
 * parts_main().  A library function (main.c only sets up the process), so
 * that a test or a fuzz target runs the real command line in process: it
 * may be called again and again, and frees what it allocates on every
 * way out.
 */
#include "rackc.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

#include "backend.h"
#include "check.h"
#include "diff.h"
#include "parts.h"
#include "driver.h"
#include "jobs.h"
#include "lsp.h"
#include "opts.h"
#include "suggest.h"
#include "verify.h"

enum {
	OPT_CHECK = OPT__SHARED,
	OPT_DIAG_FORMAT,
	OPT_MAX_ERRORS,
	OPT_MAX_OUTPUT,
	OPT_LIST_CHECKS,
	OPT_LIST_BACKENDS,
	OPT_VERSION,
	OPT_FORCE,
	OPT_PRICES,
	OPT_NO_SOURCE,
	OPT_STATS,
	OPT_EXPLAIN,
	OPT_SARIF_ROOT,
};

static const struct option long_opts[] = {
	OPTS_DESIGN,
	{ "output", required_argument, NULL, 'o' },
	{ "backend", required_argument, NULL, 'O' },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "diagnostics-format", required_argument, NULL, OPT_DIAG_FORMAT },
	{ "max-errors", required_argument, NULL, OPT_MAX_ERRORS },
	{ "max-output-bytes", required_argument, NULL, OPT_MAX_OUTPUT },
	{ "no-source", no_argument, NULL, OPT_NO_SOURCE },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "jobs", required_argument, NULL, 'j' },
	{ "prices", required_argument, NULL, OPT_PRICES },
	{ "sarif-root", required_argument, NULL, OPT_SARIF_ROOT },
	{ "list-checks", no_argument, NULL, OPT_LIST_CHECKS },
	{ "list-backends", no_argument, NULL, OPT_LIST_BACKENDS },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *fp)
{
	fputs(
	    "Usage: rackc [OPTION]... DESIGN.rack\n"
	    "       rackc diff [OPTION]... OLD NEW   (see rackc diff --help)\n"
	    "       rackc parts [OPTION]... [PATTERN] (see rackc parts "
	    "--help)\n"
	    "       rackc verify [OPTION]... DESIGN OBSERVED... (see rackc "
	    "verify --help)\n"
	    "       rackc lsp [OPTION]...   (the language server; see rackc "
	    "lsp --help)\n"
	    "Compile a rackc hardware design into deployment artifacts.\n"
	    "\n"
	    "  -o, --output=DIR        write artifacts to DIR (default: out)\n"
	    "  -O, --backend=NAME[,NAME...]\n"
	    "                          back ends to run (default: all but\n"
	    "                          the on-request ones; \"all\": every\n"
	    "                          one; see --list-backends)\n"
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
	    "      --sarif-root=DIR    SARIF: file URIs relative to DIR (the\n"
	    "                          repository root; default: the current\n"
	    "                          directory)\n"
	    "      --max-errors=N      show N errors (default 10, 0: "
	    "no limit)\n"
	    "      --max-links=N       allow designs of up to N links\n"
	    "                          (default 5000000, at most 50000000)\n"
	    "      --max-output-bytes=N\n"
	    "                          write at most N bytes of artifacts\n"
	    "                          (default 2147483648)\n"
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

/* Where usage errors go: text on stderr, or a SARIF document when SARIF
 * was asked for (so that the file is always one JSON document). */
struct usage_out {
	bool sarif;
	const char *root;
};

/*
 * A SARIF document on stderr holding @text's lines: "rackc: error: X"
 * lines as usage errors (tool execution notifications), the others as
 * their notes.
 */
static void usage_sarif(const struct usage_out *u, const char *text)
{
	struct arena a;
	struct srcmgr sm;
	struct diag_engine d;
	char *copy = xstrdup(text), *line, *save = NULL;

	arena_init(&a);
	srcmgr_init(&sm, &a);
	diag_init(&d, stderr, &sm, &a);
	d.format = DIAG_SARIF;
	d.sarif_root = u->root;
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "rackc: error: ", 14) == 0)
			diag_error(&d, NULL, "usage", "%s", line + 14);
		else if (d.nrecs)
			diag_note(&d, NULL, "%s", line);
		else
			diag_error(&d, NULL, "usage", "%s", line);
	}
	diag_finish(&d);
	arena_destroy(&a);
	free(copy);
}

static int usage_error(const struct usage_out *u, const char *fmt,
		       const char *arg)
{
	if (u->sarif) {
		int n = snprintf(NULL, 0, fmt, arg);
		char *m = xmalloc((size_t)(n > 0 ? n : 0) + 64);

		strcpy(m, "rackc: error: ");
		sprintf(m + 14, fmt, arg);
		strcat(m, "\nTry 'rackc --help' for more information.");
		usage_sarif(u, m);
		free(m);
		return RK_EXIT_USAGE;
	}
	fputs("rackc: error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'rackc --help' for more information.\n", stderr);
	return RK_EXIT_USAGE;
}

/* SARIF asked for anywhere on the command line, and --sarif-root: known
 * before the options are parsed, for the usage errors among them. */
static void usage_prescan(int argc, char **argv, struct usage_out *u)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (streq(a, "--"))
			break;
		if (streq(a, "--diagnostics-format=sarif") ||
		    (streq(a, "--diagnostics-format") && i + 1 < argc &&
		     streq(argv[i + 1], "sarif")))
			u->sarif = true;
		else if (strncmp(a, "--diagnostics-format=", 21) == 0)
			u->sarif = false;
		if (strncmp(a, "--sarif-root=", 13) == 0)
			u->root = a + 13;
		else if (streq(a, "--sarif-root") && i + 1 < argc)
			u->root = argv[i + 1];
	}
}

/* Unknown -O names are usage errors even with --check (exit 2). */
static bool backends_validate(const char *list, FILE *err)
{
	char *copy, *tok, *save = NULL;
	bool ok = true;

	if (!list)
		return true;
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok && ok;
	     tok = strtok_r(NULL, ",", &save)) {
		struct suggest sg;

		if (backend_find(tok) || streq(tok, "all"))
			continue;
		suggest_init(&sg, tok);
		for (unsigned i = 0; i < backend_table_len; i++)
			suggest_offer(&sg, backend_table[i]->name);
		if (suggest_result(&sg))
			fprintf(err,
				"rackc: error: unknown back end '%s'; did you "
				"mean '%s'?\n",
				tok, suggest_result(&sg));
		else
			fprintf(err,
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

/* A usage error while the options are parsed: leave the loop. */
#define USAGE_FAIL(...)                            \
	do {                                       \
		rc = usage_error(&u, __VA_ARGS__); \
		goto out;                          \
	} while (0)

int rackc_cli(int argc, char **argv)
{
	struct rackc_options o;
	struct usage_out u = { false, NULL };
	int c, rc = RK_EXIT_OK;

	if (argc > 1 && streq(argv[1], "diff"))
		return diff_main(argc - 1, argv + 1);
	if (argc > 1 && streq(argv[1], "verify"))
		return verify_main(argc - 1, argv + 1);
	if (argc > 1 && streq(argv[1], "parts"))
		return parts_main(argc - 1, argv + 1);
	if (argc > 1 && streq(argv[1], "lsp"))
		return lsp_main(argc - 1, argv + 1);
	usage_prescan(argc, argv, &u);
	memset(&o, 0, sizeof(o));
	o.outdir = "out";
	o.max_errors = 10;
	o.show_source = true;
	o.diag_format = DIAG_TEXT;
	opterr = 0;
	optind = 0; /* GNU: start again, every state of the last call dropped */
	while ((c = getopt_long(argc, argv, ":o:O:" OPTS_DESIGN_SHORT "W:E:j:",
				long_opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.outdir = optarg;
			break;
		case 'O':
			o.backends = optarg;
			break;
		case 'D':
			o.defines = xrealloc(o.defines, (o.ndefines + 1) *
							    sizeof(*o.defines));
			if (!opts_define(optarg, &o.defines[o.ndefines]))
				USAGE_FAIL(OPTS_DEFINE_ERR, optarg);
			o.ndefines++;
			break;
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
				USAGE_FAIL("unknown diagnostics format '%s' "
					   "(text, json or sarif)",
					   optarg);
			break;
		case OPT_MAX_ERRORS: {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);

			if (*end || !*optarg || n > UINT32_MAX ||
			    optarg[0] == '-')
				USAGE_FAIL("--max-errors needs a number, not "
					   "'%s'",
					   optarg);
			o.max_errors = (uint32_t)n;
			break;
		}
		case OPT_MAX_SOURCE:
			if (!srcmgr_parse_max(optarg, &o.max_source))
				USAGE_FAIL(OPTS_MAX_SOURCE_ERR, optarg);
			break;
		case OPT_MAX_LINKS:
			if (!opts_max_links(optarg, &o.max_links))
				USAGE_FAIL(OPTS_MAX_LINKS_ERR, optarg);
			break;
		case OPT_MAX_OUTPUT: {
			char *end;
			unsigned long long n;

			errno = 0;
			n = strtoull(optarg, &end, 10);
			if (*end || !*optarg || optarg[0] == '-' || n < 1 ||
			    errno == ERANGE || n > INT64_MAX)
				USAGE_FAIL("--max-output-bytes needs a number "
					   "from 1 to 9223372036854775807, "
					   "not '%s'",
					   optarg);
			o.max_output = (uint64_t)n;
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
				USAGE_FAIL("--jobs needs a number from 1 to "
					   "64, not '%s'",
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
		case OPT_SARIF_ROOT:
			o.sarif_root = optarg;
			break;
		case OPT_LIST_CHECKS:
			checks_list(stdout);
			goto out;
		case OPT_LIST_BACKENDS:
			for (unsigned i = 0; i < backend_table_len; i++)
				printf("%-10s %s\n", backend_table[i]->name,
				       backend_table[i]->summary);
			goto out;
		case OPT_HELP:
			usage(stdout);
			goto out;
		case OPT_VERSION:
			printf("rackc %s\n", PACKAGE_VERSION);
			goto out;
		case ':':
			USAGE_FAIL("option '%s' needs an argument",
				   argv[optind - 1]);
		default:
			USAGE_FAIL("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1) {
		rc = usage_error(&u, "%s",
				 optind >= argc ? "no design file given"
						: "more than one design file "
						  "given");
	} else if (u.sarif) {
		char *text = NULL;
		size_t len = 0;
		FILE *err = open_memstream(&text, &len);
		bool ok = err && checks_validate(o.checks, o.nchecks, err) &&
			  backends_validate(o.backends, err);

		if (err)
			fclose(err);
		if (!ok) {
			usage_sarif(&u,
				    text ? text : "cannot check the options");
			rc = RK_EXIT_USAGE;
		} else {
			o.input = argv[optind];
			rc = rackc_run(&o);
		}
		free(text);
	} else if (!checks_validate(o.checks, o.nchecks, stderr) ||
		   !backends_validate(o.backends, stderr)) {
		rc = RK_EXIT_USAGE;
	} else {
		o.input = argv[optind];
		rc = rackc_run(&o);
	}
out:
	free(o.defines);
	free(o.incdirs);
	free(o.checks);
	return rc;
}
