/* SPDX-License-Identifier: MIT */
/*
 * The option values shared by the subcommands (opts.h).
 */
#include "rackc.h"

#include <stdlib.h>
#include <string.h>

#include "opts.h"

bool opts_define(char *arg, struct rackc_define *out)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg)
		return false;
	*eq = '\0';
	out->name = arg;
	out->value = eq + 1;
	return true;
}

bool opts_max_links(const char *arg, uint32_t *n)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (*end || !*arg || arg[0] == '-' || v < 1 || v > RK_MAX_LINKS_OPT)
		return false;
	*n = (uint32_t)v;
	return true;
}

bool opts_format(const char *arg, enum opts_format *f)
{
	if (streq(arg, "text"))
		*f = OPTS_TEXT;
	else if (streq(arg, "json"))
		*f = OPTS_JSON;
	else if (streq(arg, "markdown") || streq(arg, "md"))
		*f = OPTS_MARKDOWN;
	else
		return false;
	return true;
}

/* OPTS_MAX_LINKS_ERR states the limit in words */
_Static_assert(RK_MAX_LINKS_OPT == 50000000u, "OPTS_MAX_LINKS_ERR");
