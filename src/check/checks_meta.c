/* SPDX-License-Identifier: MIT */
/*
 * Checks about the check machinery itself.  always-fail is off by default
 * and hidden from --list-checks: -Walways-fail makes it report one finding
 * per run, which the tests use to exercise levels, -Werror and --force.
 */
#include "rackc.h"
#include "checks.h"

static void run_always_fail(struct check_ctx *c)
{
	check_fail(c, RK_NONE, NULL, "this check always fails");
}

const struct check check_always_fail = {
	.name = "always-fail",
	.summary = "test hook: always reports one finding",
	.level = CHECK_OFF,
	.run = run_always_fail,
	.hidden = true,
};
