/* SPDX-License-Identifier: MIT */
/*
 * One arena per compilation.  Every AST node, IR table, interned string and
 * source buffer of a compilation is owned by its arena and released at once
 * by arena_destroy().  Nothing that comes from an arena is ever freed on its
 * own.  Growable IR tables (see ir.h) are the exception: they live in
 * malloc'ed vectors registered with the arena, which frees them with the rest.
 *
 * Strings are interned: equal strings share one id, so names compare as
 * integers and hash lookups never touch the characters twice.
 */
#ifndef RACKC_ARENA_H
#define RACKC_ARENA_H

#include <stddef.h>
#include <stdint.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *chunks;
	struct arena_chunk *spare; /* kept by arena_release() for reuse */
	char *cur;
	size_t left;
	size_t total; /* bytes handed out, for --stats and limits */
	/* owned malloc'ed blocks (vectors), freed by arena_destroy() */
	void **owned;
	uint32_t nowned, owned_cap;
	/* string interning: open addressing table of ids */
	const char **strs; /* id -> string */
	uint32_t *str_len; /* id -> length */
	uint32_t *str_fnv; /* id -> FNV-1a state, to hash joined names */
	uint32_t nstrs, strs_cap;
	/* slot -> hash << 32 | (id + 1), 0 = empty: probes compare the hash
	 * before touching the string */
	uint64_t *htab;
	uint32_t hcap;
};

void arena_init(struct arena *a);
void arena_destroy(struct arena *a);
void *arena_alloc(struct arena *a, size_t n);
void *arena_zalloc(struct arena *a, size_t n);
/* @n bytes aligned for a pointer only (small records packed tightly). */
void *arena_alloc_ptr(struct arena *a, size_t n);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_printf(struct arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/*
 * Marks: arena_release(a, &m) frees everything allocated since
 * m = arena_mark(a), for an arena of temporaries (never one that interns:
 * the intern table would keep pointers into the released memory).
 * Releases nest like a stack.
 */
struct arena_mark {
	struct arena_chunk *chunk;
	char *cur;
	size_t left, total;
};
struct arena_mark arena_mark(const struct arena *a);
void arena_release(struct arena *a, const struct arena_mark *m);

/* Register a malloc'ed pointer slot to be freed at arena_destroy(). */
void arena_own(struct arena *a, void **slot);

/* Interning: ids are dense, starting at 1; id 0 is the empty string. */
uint32_t intern(struct arena *a, const char *s, size_t n);
uint32_t intern_cstr(struct arena *a, const char *s);
/* Returns the id of s if it was interned already, else 0 (never interns). */
uint32_t intern_find(const struct arena *a, const char *s, size_t n);
/*
 * The same for the string "<@pre><@sep><@s>" (@pre an interned id; 0: just
 * @s), without assembling it first: a full name from its parent's.
 */
uint32_t intern_join(struct arena *a, uint32_t pre, char sep, const char *s,
		     size_t n);
uint32_t intern_find_join(const struct arena *a, uint32_t pre, char sep,
			  const char *s, size_t n);
static inline const char *str_of(const struct arena *a, uint32_t id)
{
	return a->strs[id];
}
static inline uint32_t strlen_of(const struct arena *a, uint32_t id)
{
	return a->str_len[id];
}

#endif
