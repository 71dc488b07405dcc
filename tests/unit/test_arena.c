/* SPDX-License-Identifier: MIT */
/*
 * The arena's marks: a release frees what was allocated after the mark
 * and the next allocations reuse it (a loop of temporaries runs in
 * constant memory), nested marks release like a stack, and interned
 * strings keep their ids and bytes across allocations of every size.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "rackc.h"

#if defined(__SANITIZE_ADDRESS__)
#define T_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define T_ASAN 1
#endif
#endif
#ifdef T_ASAN
#include <sanitizer/asan_interface.h>
#endif

Test(arena, release_reuses_the_memory)
{
	struct arena a;
	struct arena_mark m;
	char *first = NULL;

	arena_init(&a);
	m = arena_mark(&a);
	for (int i = 0; i < 1000; i++) {
		char *small = arena_alloc(&a, 100);
		/* larger than a chunk: a chunk of its own */
		char *big = arena_alloc(&a, 1u << 20);

		memset(small, i, 100);
		memset(big, i, 1u << 20);
		if (!first)
			first = small;
		cr_assert_eq(small, first, "iteration %d got new memory", i);
		cr_assert_geq(a.total, m.total + 100 + (1u << 20));
		arena_release(&a, &m);
		cr_assert_eq(a.total, m.total);
	}
	arena_destroy(&a);
}

Test(arena, nested_marks)
{
	struct arena a;
	struct arena_mark outer, inner;
	char *x, *y, *z;

	arena_init(&a);
	outer = arena_mark(&a);
	x = arena_alloc(&a, 64);
	memset(x, 'x', 64);
	inner = arena_mark(&a);
	y = arena_alloc(&a, 300000);
	memset(y, 'y', 300000);
	arena_release(&a, &inner);
	/* what the outer level holds is intact */
	for (int i = 0; i < 64; i++)
		cr_assert_eq(x[i], 'x');
	z = arena_alloc(&a, 16);
	cr_assert(z >= x + 64 || z + 16 <= x, "z overlaps x");
	arena_release(&a, &outer);
	cr_assert_eq(arena_alloc(&a, 64), x);
	arena_destroy(&a);
}

#ifdef T_ASAN
Test(arena, released_memory_is_poisoned)
{
	struct arena a;
	struct arena_mark m;
	char *p;

	arena_init(&a);
	m = arena_mark(&a);
	p = arena_alloc(&a, 32);
	cr_assert(!__asan_address_is_poisoned(p + 31));
	arena_release(&a, &m);
	cr_assert(__asan_address_is_poisoned(p));
	arena_destroy(&a);
}
#endif

Test(arena, strings_packed_and_aligned_blocks)
{
	struct arena a;
	uint32_t ids[100];

	arena_init(&a);
	for (int i = 0; i < 100; i++) {
		char b[32];
		int n = snprintf(b, sizeof(b), "name%d", i * 7);
		void *blk = arena_alloc(&a, (size_t)i + 1);

		cr_assert_eq((uintptr_t)blk % _Alignof(max_align_t), 0);
		ids[i] = intern(&a, b, (size_t)n);
	}
	for (int i = 0; i < 100; i++) {
		char b[32];

		snprintf(b, sizeof(b), "name%d", i * 7);
		cr_assert_str_eq(str_of(&a, ids[i]), b);
		cr_assert_eq(intern_cstr(&a, b), ids[i]);
	}
	arena_destroy(&a);
}
