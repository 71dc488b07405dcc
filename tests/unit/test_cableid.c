/* SPDX-License-Identifier: MIT */
/*
 * Cable identities (cableplan.h): the hash, the printed form, and the
 * collision resolution, forced by hashing into 4 bits.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rackc.h"
#include "cableplan.h"

#define NKEYS 12

static char *key_of(void *ctx, uint32_t i, size_t *len)
{
	const char *const *keys = ctx;
	char *k = xstrdup(keys[i]);

	*len = strlen(k);
	return k;
}

static uint64_t hash_of(const char *k, unsigned bits)
{
	size_t n = strlen(k);

	return cableplan_id_hash(&k, &n, 1, 0, bits);
}

Test(cableid, printed_form)
{
	char b[CP_ID_CHARS + 1];

	cr_assert_eq(cableplan_id_str(0, b), CP_ID_CHARS);
	cr_assert_str_eq(b, "C00000000");
	cableplan_id_str((1ull << CP_ID_BITS) - 1, b);
	cr_assert_str_eq(b, "CZZZZZZZZ");
	/* Crockford: 18 -> J (no I, L, O, U) */
	cableplan_id_str(18, b);
	cr_assert_str_eq(b, "C0000000J");
}

Test(cableid, parts_hash_like_the_joined_key)
{
	const char *p[3] = { "compute", "dgx[0]", "ib[0]" };
	size_t n[3] = { 7, 6, 5 };
	const char joined[] = "compute\0dgx[0]\0ib[0]";
	const char *j = joined;
	size_t jn = sizeof(joined) - 1;

	cr_assert_eq(cableplan_id_hash(p, n, 3, 0, CP_ID_BITS),
		     cableplan_id_hash(&j, &jn, 1, 0, CP_ID_BITS));
	cr_assert_neq(cableplan_id_hash(p, n, 3, 0, CP_ID_BITS),
		      cableplan_id_hash(p, n, 3, 1, CP_ID_BITS));
	cr_assert_lt(cableplan_id_hash(p, n, 3, 0, CP_ID_BITS),
		     1ull << CP_ID_BITS);
}

/* In 4 bits, 12 keys must collide (and do: checked); resolution makes
 * them distinct, keeps the first key of each group on its hash, and
 * depends on the set of keys only, not on their order. */
Test(cableid, forced_collisions)
{
	char *keys[NKEYS], *rev[NKEYS];
	uint64_t h[NKEYS], hr[NKEYS];
	int collided = 0;

	for (int i = 0; i < NKEYS; i++) {
		char b[32];

		snprintf(b, sizeof(b), "f.leaf[%d].p[%d]", i, i);
		keys[i] = xstrdup(b);
		rev[NKEYS - 1 - i] = keys[i];
	}
	for (int i = 0; i < NKEYS; i++) {
		h[i] = hash_of(keys[i], 4);
		hr[NKEYS - 1 - i] = h[i];
	}
	for (int i = 0; i < NKEYS; i++)
		for (int j = i + 1; j < NKEYS; j++)
			collided += h[i] == h[j];
	cr_assert_gt(collided, 0, "the keys must collide in 4 bits");

	uint64_t raw[NKEYS];

	memcpy(raw, h, sizeof(raw));
	cableplan_resolve_ids(h, NKEYS, 4, key_of, keys);
	cableplan_resolve_ids(hr, NKEYS, 4, key_of, rev);
	for (int i = 0; i < NKEYS; i++) {
		cr_assert_lt(h[i], 16);
		cr_assert_eq(h[i], hr[NKEYS - 1 - i], "order-dependent");
		for (int j = i + 1; j < NKEYS; j++)
			cr_assert_neq(h[i], h[j], "%d and %d collide", i, j);
	}
	/* the least key of each group of equal raw hashes keeps it */
	for (int i = 0; i < NKEYS; i++) {
		bool least = true;

		for (int j = 0; j < NKEYS; j++)
			if (raw[j] == raw[i] && strcmp(keys[j], keys[i]) < 0)
				least = false;
		if (least)
			cr_assert_eq(h[i], raw[i], "key %s lost its hash",
				     keys[i]);
	}
	for (int i = 0; i < NKEYS; i++)
		free(keys[i]);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static char *same_key(void *ctx, uint32_t i, size_t *len)
{
	char *k = xmalloc(9);

	(void)ctx;
	(void)i;
	memcpy(k, "s.q\0\0s.q\0", 9);
	*len = 9;
	return k;
}

/*
 * Many copies of one key (the same two ports linked again and again, an
 * error the checks report but the cable plan still numbers): each copy
 * gets a distinct ID in a few rounds.  Resolving them one copy per round
 * took minutes for 100,000 links.
 */
Test(cableid, copies_of_one_key, .timeout = 600)
{
	enum { N = 200000 };
	uint64_t *h = xmalloc(N * sizeof(*h)), *s;
	const char *k = "s.q\0\0s.q\0";
	size_t n = 9;

	for (uint32_t i = 0; i < N; i++)
		h[i] = cableplan_id_hash(&k, &n, 1, 0, CP_ID_BITS);
	cableplan_resolve_ids(h, N, CP_ID_BITS, same_key, NULL);
	s = xmalloc(N * sizeof(*s));
	memcpy(s, h, N * sizeof(*s));
	/* the first copy keeps its hash */
	cr_assert_eq(h[0], cableplan_id_hash(&k, &n, 1, 0, CP_ID_BITS));
	for (uint32_t i = 0; i < N; i++)
		cr_assert_lt(h[i], 1ull << CP_ID_BITS);
	qsort(s, N, sizeof(*s), u64_cmp);
	for (uint32_t i = 1; i < N; i++)
		cr_assert_neq(s[i], s[i - 1], "two copies share an ID");
	free(s);
	free(h);
}
