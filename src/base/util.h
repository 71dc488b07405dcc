/* SPDX-License-Identifier: MIT */
/*
 * Small helpers shared by every stage: allocation that dies on exhaustion,
 * attribute macros and string predicates.  rackc is a batch compiler, so
 * running out of memory ends the process with a message (exit 2).
 */
#ifndef RACKC_UTIL_H
#define RACKC_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PRINTF(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))
/* A case that falls through on purpose (gcc and clang both check). */
#define FALLTHROUGH __attribute__((fallthrough))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Sentinel for "no object" in every id-indexed table. */
#define RK_NONE UINT32_MAX

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
NORETURN void die(const char *fmt, ...) PRINTF(1, 2);
NORETURN void bug(const char *file, int line, const char *what);
#define BUG(what) bug(__FILE__, __LINE__, what)

static inline bool streq(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

/*
 * Natural order of two names: compared piece by piece, a run of decimal
 * digits as the number it writes (k[2] < k[10], r9 < r10) and any other
 * byte as itself; names equal that way (k[07], k[7]) are ordered byte by
 * byte, so that the order is total.  <0, 0 or >0 as strcmp.  Linear in
 * the names' lengths; no number overflows (runs compare by their digits).
 */
int name_natcmp(const char *a, size_t an, const char *b, size_t bn);

/*
 * Grow *pp (an array of elem bytes per item, *cap items) so that it holds at
 * least need items.  Capacities double, so appends are amortised O(1).
 */
void vec_grow(void **pp, uint32_t *cap, uint32_t need, size_t elem);

/*
 * Hash finalisers for the open-addressing tables (MurmurHash3's fmix32 and
 * fmix64): every input bit reaches the low bits a table masks with.
 */
static inline uint32_t hash_mix32(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

static inline uint64_t hash_mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/*
 * The decimal digits of @v written backwards from @end (exclusive), with no
 * terminator; returns the first digit.  20 bytes hold any uint64_t.
 */
static inline char *u64_digits(uint64_t v, char *end)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}
/*
 * @v in decimal at @o; returns the end.  The digits go straight to @o: a
 * copy from a buffer just written byte by byte would read them back as a
 * word, which the processor cannot forward from the byte stores (a stall
 * on every number of a large artifact).
 */
static inline char *u64_put(char *o, uint64_t v)
{
	size_t n = 1;

	for (uint64_t t = v; t >= 10; t /= 10)
		n++;
	u64_digits(v, o + n);
	return o + n;
}
/*
 * memcpy for the short strings of the output loops (names, numbers, a few
 * to a few dozen bytes), inline: there a library call costs more than the
 * copy.  Copies whole words, the last one overlapping the one before;
 * reads and writes only [s, s + n) and [o, o + n).  Returns o + n.
 */
static inline char *rk_put(char *o, const char *s, size_t n)
{
	char *end = o + n;

	if (n >= 8) {
		if (n > 64) {
			memcpy(o, s, n);
			return end;
		}
		for (size_t i = 0; i + 8 < n; i += 8)
			memcpy(o + i, s + i, 8);
		memcpy(end - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(o, s, 4);
		memcpy(end - 4, s + n - 4, 4);
	} else if (n >= 2) {
		memcpy(o, s, 2);
		memcpy(end - 2, s + n - 2, 2);
	} else if (n) {
		*o = *s;
	}
	return end;
}
/*
 * Room for @more further elements of a vector at once, so that a loop that
 * knows how many it will push copies the vector at most once.
 */
#define VEC_RESERVE(arr, len, cap, more)                            \
	((uint64_t)(len) + (more) > (cap)                           \
	     ? vec_grow((void **)&(arr), &(cap),                    \
			(uint64_t)(len) + (more) > UINT32_MAX       \
			    ? UINT32_MAX                            \
			    : (uint32_t)((uint64_t)(len) + (more)), \
			sizeof(*(arr)))                             \
	     : (void)0)
#define VEC_PUSH(arr, len, cap)                                              \
	(((len) >= (cap)                                                     \
	      ? vec_grow((void **)&(arr), &(cap), (len) + 1, sizeof(*(arr))) \
	      : (void)0),                                                    \
	 &(arr)[(len)++])

#endif
