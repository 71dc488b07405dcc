/* SPDX-License-Identifier: MIT */
/* Bump allocator and string interning (FNV-1a, open addressing). */
#include "rackc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;
	/* followed by payload, max-aligned */
	max_align_t data[];
};

#define CHUNK_MIN (256u * 1024u)

/* Memory released to a mark is poisoned for AddressSanitizer, so that a
 * pointer kept past its release is reported where it is used. */
#if defined(__SANITIZE_ADDRESS__)
#define RK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RK_ASAN 1
#endif
#endif
#ifdef RK_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

void arena_init(struct arena *a)
{
	memset(a, 0, sizeof(*a));
	/* id 0 is the empty string */
	intern(a, "", 0);
}

void arena_destroy(struct arena *a)
{
	struct arena_chunk *c = a->chunks;

	/* owned slots may live in arena memory: free them first */
	for (uint32_t i = 0; i < a->nowned; i++) {
		void **slot = a->owned[i];
		free(*slot);
		*slot = NULL;
	}
	while (c) {
		struct arena_chunk *n = c->next;

		UNPOISON(c->data, c->size);
		free(c);
		c = n;
	}
	if (a->spare) {
		UNPOISON(a->spare->data, a->spare->size);
		free(a->spare);
	}
	free(a->owned);
	free(a->strs);
	free(a->str_len);
	free(a->str_fnv);
	free(a->htab);
	memset(a, 0, sizeof(*a));
}

/* A chunk of at least @need bytes: the spare one a release kept, or new. */
static void new_chunk(struct arena *a, size_t need)
{
	size_t size = need > CHUNK_MIN ? need : CHUNK_MIN;
	struct arena_chunk *c;

	if (a->spare && a->spare->size >= size) {
		c = a->spare;
		a->spare = NULL;
	} else {
		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		POISON(c->data, size);
	}
	c->next = a->chunks;
	a->chunks = c;
	a->cur = (char *)c->data;
	a->left = c->size;
}

/* @n bytes at @align (a power of two, at most max_align_t's). */
static void *alloc_aligned(struct arena *a, size_t n, size_t align)
{
	size_t pad = (size_t)(-(uintptr_t)a->cur & (align - 1));
	char *p;

	if (n > SIZE_MAX - 2 * _Alignof(max_align_t))
		die("allocation too large");
	if (!a->cur || n + pad > a->left) {
		new_chunk(a, n);
		pad = 0;
	}
	p = a->cur + pad;
	UNPOISON(p, n);
	a->cur = p + n;
	a->left -= pad + n;
	a->total += pad + n;
	return p;
}

void *arena_alloc(struct arena *a, size_t n)
{
	return alloc_aligned(a, n, _Alignof(max_align_t));
}

void *arena_alloc_ptr(struct arena *a, size_t n)
{
	return alloc_aligned(a, n, _Alignof(void *));
}

void *arena_zalloc(struct arena *a, size_t n)
{
	return memset(arena_alloc(a, n), 0, n);
}

struct arena_mark arena_mark(const struct arena *a)
{
	struct arena_mark m = { a->chunks, a->cur, a->left, a->total };

	return m;
}

void arena_release(struct arena *a, const struct arena_mark *m)
{
	/* nothing allocated since the mark (an empty loop body, most
	 * statements): nothing to release, nor to poison for the sanitizer */
	if (a->chunks == m->chunk && a->cur == m->cur)
		return;
	while (a->chunks != m->chunk) {
		struct arena_chunk *c = a->chunks;

		a->chunks = c->next;
		POISON(c->data, c->size);
		/* one chunk is kept: a loop would otherwise malloc and free
		 * one on every iteration */
		if (!a->spare || a->spare->size < c->size) {
			if (a->spare) {
				UNPOISON(a->spare->data, a->spare->size);
				free(a->spare);
			}
			a->spare = c;
		} else {
			UNPOISON(c->data, c->size);
			free(c);
		}
	}
	if (m->cur)
		POISON(m->cur, m->left);
	a->cur = m->cur;
	a->left = m->left;
	a->total = m->total;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		BUG("vsnprintf failed");
	p = arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void arena_own(struct arena *a, void **slot)
{
	*VEC_PUSH(a->owned, a->nowned, a->owned_cap) = slot;
}

/* FNV-1a over @n more bytes from state @h. */
static uint32_t fnv_more(uint32_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

#define FNV_START 2166136261u

/* The table's hash of a string whose FNV-1a state is @fnv: FNV-1a leaves
 * names that differ only in their last bytes close together in the low
 * bits the table uses. */
static uint32_t hash_of(uint32_t fnv)
{
	return hash_mix32(fnv);
}

static void rehash(struct arena *a)
{
	uint32_t ncap = a->hcap ? a->hcap * 2 : 1024;
	uint64_t *t = xcalloc(ncap, sizeof(*t));

	for (uint32_t k = 0; k < a->hcap; k++) {
		uint32_t i;

		if (!a->htab[k])
			continue;
		i = (uint32_t)(a->htab[k] >> 32) & (ncap - 1);
		while (t[i])
			i = (i + 1) & (ncap - 1);
		t[i] = a->htab[k];
	}
	free(a->htab);
	a->htab = t;
	a->hcap = ncap;
}

/*
 * The slot of the string @pre @sep @s (@n bytes; without @pre and @sep when
 * @pre is 0) whose table hash is @h, or the empty slot where it would go.
 */
static uint32_t lookup_slot(const struct arena *a, uint32_t pre, char sep,
			    const char *s, size_t n, uint32_t h)
{
	uint32_t i = h & (a->hcap - 1);
	size_t pn = pre ? a->str_len[pre] + 1 : 0;

	while (a->htab[i]) {
		uint64_t e = a->htab[i];

		if ((uint32_t)(e >> 32) == h) {
			uint32_t id = (uint32_t)e - 1;
			const char *t = a->strs[id];

			if (a->str_len[id] == pn + n &&
			    (!pre || (memcmp(t, a->strs[pre], pn - 1) == 0 &&
				      t[pn - 1] == sep)) &&
			    memcmp(t + pn, s, n) == 0)
				return i;
		}
		i = (i + 1) & (a->hcap - 1);
	}
	return i;
}

/* The FNV-1a state of @pre @sep @s (see lookup_slot). */
static uint32_t fnv_join(const struct arena *a, uint32_t pre, char sep,
			 const char *s, size_t n)
{
	uint32_t h = pre ? fnv_more(a->str_fnv[pre], &sep, 1) : FNV_START;

	return fnv_more(h, s, n);
}

uint32_t intern_find_join(const struct arena *a, uint32_t pre, char sep,
			  const char *s, size_t n)
{
	uint32_t i;

	if (!a->hcap)
		return 0;
	i = lookup_slot(a, pre, sep, s, n,
			hash_of(fnv_join(a, pre, sep, s, n)));
	return a->htab[i] ? (uint32_t)a->htab[i] - 1 : 0;
}

uint32_t intern_find(const struct arena *a, const char *s, size_t n)
{
	return intern_find_join(a, 0, 0, s, n);
}

uint32_t intern_join(struct arena *a, uint32_t pre, char sep, const char *s,
		     size_t n)
{
	uint32_t fnv, h, i, id;
	size_t pn = pre ? a->str_len[pre] + 1 : 0;
	char *t;

	if (n > UINT32_MAX / 2 || pn + n > UINT32_MAX / 2)
		die("string too long");
	if ((uint64_t)(a->nstrs + 1) * 2 > a->hcap)
		rehash(a);
	fnv = fnv_join(a, pre, sep, s, n);
	h = hash_of(fnv);
	i = lookup_slot(a, pre, sep, s, n, h);
	if (a->htab[i])
		return (uint32_t)a->htab[i] - 1;
	if (a->nstrs == a->strs_cap) {
		uint32_t cap = a->strs_cap;
		vec_grow((void **)&a->strs, &cap, a->nstrs + 1,
			 sizeof(*a->strs));
		a->str_len = xrealloc(a->str_len, cap * sizeof(*a->str_len));
		a->str_fnv = xrealloc(a->str_fnv, cap * sizeof(*a->str_fnv));
		a->strs_cap = cap;
	}
	/* strings never move: @s may lie in this arena; packed, unaligned */
	t = alloc_aligned(a, pn + n + 1, 1);
	if (pre) {
		memcpy(t, a->strs[pre], pn - 1);
		t[pn - 1] = sep;
	}
	memcpy(t + pn, s, n);
	t[pn + n] = '\0';
	id = a->nstrs++;
	a->strs[id] = t;
	a->str_len[id] = (uint32_t)(pn + n);
	a->str_fnv[id] = fnv;
	a->htab[i] = (uint64_t)h << 32 | (id + 1);
	return id;
}

uint32_t intern(struct arena *a, const char *s, size_t n)
{
	return intern_join(a, 0, 0, s, n);
}

uint32_t intern_cstr(struct arena *a, const char *s)
{
	return intern(a, s, strlen(s));
}
