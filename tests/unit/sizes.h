/* SPDX-License-Identifier: MIT */
/*
 * The sizes of the unit tests' heaviest sweeps (brute force over every
 * split, the largest closed-form fabrics), as the shell drivers choose
 * theirs (tests/lib.sh): full on a plain build, reduced on a sanitizer
 * build, where the same code runs 5-15 times slower and the plain build
 * has already run the full sweep; RACKC_TEST_SIZES=full or =reduced
 * overrides (the nightly run sets full).
 */
#ifndef RACKC_TEST_SIZES_H
#define RACKC_TEST_SIZES_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define RK_TEST_SANITIZED true
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define RK_TEST_SANITIZED true
#endif
#endif
#ifndef RK_TEST_SANITIZED
#define RK_TEST_SANITIZED false
#endif

/* true when the sweeps run at their reduced sizes */
static inline bool rk_test_reduced(void)
{
	const char *s = getenv("RACKC_TEST_SIZES");

	if (s && strcmp(s, "full") == 0)
		return false;
	if (s && strcmp(s, "reduced") == 0)
		return true;
	return RK_TEST_SANITIZED;
}

/* @full, or @reduced when the sweeps are reduced */
static inline unsigned rk_test_size(unsigned full, unsigned reduced)
{
	return rk_test_reduced() ? reduced : full;
}

#endif
