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

struct ref_ent {
	uint64_t h;
	const char *key;
	int i;
};

static int ref_cmp(const void *a, const void *b)
{
	const struct ref_ent *x = a, *y = b;
	int c;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	c = strcmp(x->key, y->key);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/*
 * The rule of cableplan.h done plainly, as the reference: every round
 * sorts all the entries by (hash, key); in each group of equal hashes
 * the first keeps its hash and the others are hashed again, the r-th
 * copy of a key with r more salt (after the first round, r times the
 * number of copies of its key), until no two are equal.
 */
static void ref_resolve(uint64_t *h, char **keys, int n, unsigned bits)
{
	struct ref_ent *e = xmalloc((size_t)n * sizeof(*e));
	uint32_t *salt = xcalloc((size_t)n, sizeof(*salt));
	uint32_t *copies = xcalloc((size_t)n, sizeof(*copies));
	bool again = true;
	int round = 0;

	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			copies[i] += !strcmp(keys[i], keys[j]);
	while (again) {
		round++;
		again = false;
		for (int i = 0; i < n; i++)
			e[i] = (struct ref_ent){ h[i], keys[i], i };
		qsort(e, (size_t)n, sizeof(*e), ref_cmp);
		for (int k = 1, r = 0; k < n; k++) {
			const char *kp = e[k].key;
			size_t len = strlen(kp);

			if (e[k].h != e[k - 1].h) {
				r = 0;
				continue;
			}
			r = !strcmp(e[k].key, e[k - 1].key) ? r + 1 : 1;
			salt[e[k].i] +=
			    (uint32_t)r * (round > 1 ? copies[e[k].i] : 1);
			h[e[k].i] =
			    cableplan_id_hash(&kp, &len, 1, salt[e[k].i], bits);
			again = true;
		}
	}
	free(e);
	free(salt);
	free(copies);
}

/*
 * @n keys hashed into @bits bits must collide (and do: checked);
 * resolution makes them distinct, gives what the reference gives, and
 * depends on the set of keys only, not on their order.
 */
static void check_collisions(int n, unsigned bits)
{
	char **keys = xmalloc((size_t)n * sizeof(*keys));
	char **rev = xmalloc((size_t)n * sizeof(*rev));
	uint64_t *h = xmalloc((size_t)n * sizeof(*h));
	uint64_t *hr = xmalloc((size_t)n * sizeof(*hr));
	uint64_t *raw = xmalloc((size_t)n * sizeof(*raw));
	int collided = 0;

	for (int i = 0; i < n; i++) {
		char b[32];

		snprintf(b, sizeof(b), "f.leaf[%d].p[%d]", i, i);
		keys[i] = xstrdup(b);
		rev[n - 1 - i] = keys[i];
	}
	for (int i = 0; i < n; i++) {
		h[i] = hash_of(keys[i], bits);
		hr[n - 1 - i] = h[i];
	}
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			collided += h[i] == h[j];
	cr_assert_gt(collided, 0, "the keys must collide in %u bits", bits);

	memcpy(raw, h, (size_t)n * sizeof(*raw));
	cableplan_resolve_ids(h, (uint32_t)n, bits, key_of, keys);
	cableplan_resolve_ids(hr, (uint32_t)n, bits, key_of, rev);
	for (int i = 0; i < n; i++) {
		cr_assert_lt(h[i], 1ull << bits);
		cr_assert_eq(h[i], hr[n - 1 - i], "order-dependent");
		for (int j = i + 1; j < n; j++)
			cr_assert_neq(h[i], h[j], "%d and %d collide", i, j);
	}
	ref_resolve(raw, keys, n, bits);
	for (int i = 0; i < n; i++)
		cr_assert_eq(h[i], raw[i], "key %s: not the reference's ID",
			     keys[i]);
	for (int i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	free(rev);
	free(h);
	free(hr);
	free(raw);
}

Test(cableid, forced_collisions)
{
	check_collisions(NKEYS, 4);
}

/* Enough keys that the search for shared hashes splits them into
 * buckets by their top bits (more than 4,096), with collisions in each. */
Test(cableid, forced_collisions_in_buckets, .timeout = 600)
{
	check_collisions(12000, 16);
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

/*
 * Copies of a few keys hashed into few bits: a copy that collides after
 * the first round moves past its copies' salts, not onto the next copy's
 * (which moved it one copy further each round: 600,000 copies of one
 * link never finished), so that a few rounds part them all; the IDs are
 * the reference's.
 */
Test(cableid, copies_cascade_like_the_reference, .timeout = 600)
{
	enum { KEYS = 5, COPIES = 600, N = KEYS * COPIES };
	char **keys = xmalloc(N * sizeof(*keys));
	uint64_t *h = xmalloc(N * sizeof(*h)), *raw = xmalloc(N * sizeof(*raw));
	unsigned bits = 14;

	for (int i = 0; i < N; i++) {
		char b[32];

		/* interleaved, so that copies of a key are not neighbours */
		snprintf(b, sizeof(b), "f.s[%d].q", i % KEYS);
		keys[i] = xstrdup(b);
		h[i] = raw[i] = hash_of(keys[i], bits);
	}
	cableplan_resolve_ids(h, N, bits, key_of, keys);
	ref_resolve(raw, keys, N, bits);
	for (int i = 0; i < N; i++)
		cr_assert_eq(h[i], raw[i],
			     "copy %d of %s: not the reference's ID", i,
			     keys[i]);
	qsort(raw, N, sizeof(*raw), u64_cmp);
	for (int i = 1; i < N; i++)
		cr_assert_neq(raw[i], raw[i - 1], "two copies share an ID");
	for (int i = 0; i < N; i++)
		free(keys[i]);
	free(keys);
	free(h);
	free(raw);
}
