/* SPDX-License-Identifier: MIT */
/*
 * Names and keys, a leaf of the diff that its loader, its cable tables
 * and its printer share: the order of keys (diff.h: dv_keycmp), and lists
 * of names for people (dv_compress_names): names that differ in one
 * bracketed index merged into ranges, a pass per index from the last, so
 * that "su[0].leaf[0]" .. "su[3].leaf[7]" read "su[0-3].leaf[0-7]".
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

int dv_keycmp(const char *a, const char *b)
{
	const char *a0 = a, *b0 = b;

	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			const char *x = a, *y = b;
			size_t nx, ny;

			while (*x == '0' && x[1] >= '0' && x[1] <= '9')
				x++;
			while (*y == '0' && y[1] >= '0' && y[1] <= '9')
				y++;
			for (a = x; *a >= '0' && *a <= '9'; a++)
				;
			for (b = y; *b >= '0' && *b <= '9'; b++)
				;
			nx = (size_t)(a - x);
			ny = (size_t)(b - y);
			if (nx != ny)
				return nx < ny ? -1 : 1;
			if (memcmp(x, y, nx))
				return memcmp(x, y, nx) < 0 ? -1 : 1;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	if (*a || *b)
		return *a ? 1 : -1;
	return strcmp(a0, b0); /* equal but for leading zeros */
}

/* A name split around its last bracketed plain number. */
struct nm {
	const char *s;
	size_t pre;  /* bytes before the number */
	size_t post; /* where the text after it starts */
	uint64_t num;
	bool has;
};

/* Split @s at its @depth-th index from the last (0: the last): a
 * bracket of digits, '-' and ','; it has a number when the bracket holds
 * a plain one (no leading zero). */
static void split(struct nm *m, const char *s, int depth)
{
	size_t n = strlen(s);

	memset(m, 0, sizeof(*m));
	m->s = s;
	for (size_t k = n; k-- > 0;) {
		size_t e = k + 1;
		uint64_t v = 0;
		bool plain = true;

		if (s[k] != '[')
			continue;
		while (e < n && ((s[e] >= '0' && s[e] <= '9') || s[e] == '-' ||
				 s[e] == ',')) {
			if (s[e] == '-' || s[e] == ',' || e - k > 18)
				plain = false;
			else
				v = v * 10 + (uint64_t)(s[e] - '0');
			e++;
		}
		if (e == k + 1 || e >= n || s[e] != ']')
			continue;
		if (depth-- > 0)
			continue;
		if (plain && (s[k + 1] != '0' || e == k + 2)) {
			m->pre = k + 1;
			m->post = e;
			m->num = v;
			m->has = true;
		}
		return;
	}
}

static int nm_cmp(const void *x, const void *y)
{
	const struct nm *p = x, *q = y;
	size_t l = p->pre < q->pre ? p->pre : q->pre;
	int c;

	if (p->has != q->has)
		return p->has ? -1 : 1;
	if (!p->has)
		return dv_keycmp(p->s, q->s);
	if ((c = memcmp(p->s, q->s, l)) != 0)
		return c;
	if (p->pre != q->pre)
		return p->pre < q->pre ? -1 : 1;
	if ((c = strcmp(p->s + p->post, q->s + q->post)) != 0)
		return c;
	return p->num < q->num ? -1 : p->num > q->num;
}

static int key_cmp(const void *x, const void *y)
{
	return dv_keycmp(*(const char *const *)x, *(const char *const *)y);
}

/* Growing text. */
struct sb {
	char *p;
	size_t n, cap;
};

static void sb_put(struct sb *b, const char *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

/* One pass: runs of equal text around the number merged; returns the
 * new count of @v (strings in @a). */
static uint32_t pass(struct arena *a, const char **v, uint32_t n, int depth)
{
	struct nm *m = xmalloc(((size_t)n + 1) * sizeof(*m));
	struct sb b = { NULL, 0, 0 };
	uint32_t out = 0;

	for (uint32_t k = 0; k < n; k++)
		split(&m[k], v[k], depth);
	qsort(m, n, sizeof(*m), nm_cmp);
	for (uint32_t k = 0, end; k < n; k = end) {
		char num[48];

		for (end = k + 1;
		     end < n && m[k].has && m[end].has &&
		     m[end].pre == m[k].pre &&
		     !memcmp(m[end].s, m[k].s, m[k].pre) &&
		     streq(m[end].s + m[end].post, m[k].s + m[k].post);
		     end++)
			;
		if (end == k + 1) {
			v[out++] = m[k].s;
			continue;
		}
		b.n = 0;
		sb_put(&b, m[k].s, m[k].pre);
		for (uint32_t r = k, re; r < end; r = re) {
			for (re = r + 1;
			     re < end && m[re].num == m[re - 1].num + 1; re++)
				;
			if (re - 1 == r)
				snprintf(num, sizeof(num), "%s%llu",
					 r > k ? "," : "",
					 (unsigned long long)m[r].num);
			else
				snprintf(num, sizeof(num), "%s%llu-%llu",
					 r > k ? "," : "",
					 (unsigned long long)m[r].num,
					 (unsigned long long)m[re - 1].num);
			sb_put(&b, num, strlen(num));
		}
		sb_put(&b, m[k].s + m[k].post, strlen(m[k].s + m[k].post));
		v[out++] = arena_strndup(a, b.p, b.n);
	}
	free(b.p);
	free(m);
	return out;
}

const char *dv_compress_names(struct arena *a, const char **names, uint32_t n,
			      uint32_t max)
{
	const char **v = xmalloc(((size_t)n + 1) * sizeof(*v));
	struct sb b = { NULL, 0, 0 };
	const char *res;

	memcpy(v, names, (size_t)n * sizeof(*v));
	/* a pass per index, from the last; at most four */
	for (int k = 0; k < 4 && n > 1; k++)
		n = pass(a, v, n, k);
	if (n)
		qsort(v, n, sizeof(*v), key_cmp);
	sb_put(&b, "", 0);
	for (uint32_t k = 0; k < n && k < max; k++) {
		if (k)
			sb_put(&b, ", ", 2);
		sb_put(&b, v[k], strlen(v[k]));
	}
	if (n > max) {
		char more[48];

		snprintf(more, sizeof(more), " and %u more", n - max);
		sb_put(&b, more, strlen(more));
	}
	res = arena_strndup(a, b.p, b.n);
	free(b.p);
	free(v);
	return res;
}
