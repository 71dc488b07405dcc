/* SPDX-License-Identifier: MIT */
/*
 * The command-line options that `rackc`, `rackc diff` and `rackc verify`
 * share: one table of their long names and codes, one parser of each
 * option's value and one wording of each complaint, so that an option
 * means and checks the same under every subcommand.  Each subcommand
 * adds its own options after OPTS_DESIGN in its table, with codes from
 * OPT__SHARED on, and reports a complaint in its own voice ("rackc:" or
 * "rackc diff:").
 */
#ifndef RACKC_OPTS_H
#define RACKC_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "context.h"

/* The codes of the shared long options that have no short form. */
enum opt_code {
	OPT_STDLIB = 256,
	OPT_MAX_SOURCE,
	OPT_MAX_LINKS,
	OPT_HELP,
	OPT__SHARED /* the first code of a subcommand's own options */
};

/* The options of every subcommand that compiles a design. */
// clang-format off
#define OPTS_DESIGN \
	{ "define", required_argument, NULL, 'D' }, \
	{ "include", required_argument, NULL, 'I' }, \
	{ "stdlib", required_argument, NULL, OPT_STDLIB }, \
	{ "max-source-bytes", required_argument, NULL, OPT_MAX_SOURCE }, \
	{ "max-links", required_argument, NULL, OPT_MAX_LINKS }, \
	{ "help", no_argument, NULL, OPT_HELP }
// clang-format on

/* The short options of OPTS_DESIGN, for getopt_long's option string. */
#define OPTS_DESIGN_SHORT "D:I:"

/* The complaints, each with the offending value as its one %s. */
#define OPTS_DEFINE_ERR "-D needs NAME=VALUE, not '%s'"
#define OPTS_MAX_SOURCE_ERR \
	"--max-source-bytes needs a number from 1 to 1073741824, not '%s'"
#define OPTS_MAX_LINKS_ERR \
	"--max-links needs a number from 1 to 50000000, not '%s'"
#define OPTS_FORMAT_ERR "unknown format '%s' (text, json or markdown)"

/*
 * -D NAME=VALUE: @arg cut at its first '=' (written to) into @out; false,
 * @arg untouched, when there is no '=' or no NAME before it.
 */
bool opts_define(char *arg, struct rackc_define *out);
/* --max-links=N, 1 <= N <= RK_MAX_LINKS_OPT, into @n; false otherwise. */
bool opts_max_links(const char *arg, uint32_t *n);

/* The report formats of `rackc diff` and `rackc verify` (-f, --format). */
enum opts_format { OPTS_TEXT, OPTS_JSON, OPTS_MARKDOWN };
/* "text", "json", "markdown" or "md" into @f; false otherwise. */
bool opts_format(const char *arg, enum opts_format *f);

#endif
