/* SPDX-License-Identifier: MIT */
/* Allocation wrappers and fatal-error helpers. */
#include "rackc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

NORETURN void die(const char *fmt, ...)
{
	va_list ap;

	fputs("rackc: fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(RK_EXIT_USAGE);
}

NORETURN void bug(const char *file, int line, const char *what)
{
	fprintf(stderr, "rackc: internal error at %s:%d: %s\n", file, line,
		what);
	fflush(stderr); /* abort() flushes no stream */
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

/*
 * Zeroed by writing, not by calloc(): calloc leaves fresh pages untouched,
 * and the tables here are mostly read before they are written (hash slots,
 * "done" flags, memos), so each such page would first be mapped to the
 * shared zero page and then copied on the first write -- a second fault,
 * and a TLB flush on every other processor running this compilation's
 * jobs.  Written at once, each page faults once (bench/RESULTS.md: 6% of a
 * 100,000-GPU compile).
 */
void *xcalloc(size_t n, size_t m)
{
	void *p;

	if (m && n > SIZE_MAX / m)
		die("out of memory allocating %zu x %zu bytes", n, m);
	p = malloc(n && m ? n * m : 1);
	if (!p)
		die("out of memory allocating %zu x %zu bytes", n, m);
	return memset(p, 0, n * m);
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die("out of memory allocating %zu bytes", n);
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

void vec_grow(void **pp, uint32_t *cap, uint32_t need, size_t elem)
{
	uint64_t ncap = *cap ? *cap : 8;

	while (ncap < need)
		ncap *= 2;
	if (ncap > UINT32_MAX || ncap * elem / elem != ncap)
		die("table too large");
	*pp = xrealloc(*pp, (size_t)ncap * elem);
	*cap = (uint32_t)ncap;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int name_natcmp(const char *a, size_t an, const char *b, size_t bn)
{
	size_t i = 0, j = 0, n;
	int c;

	while (i < an && j < bn) {
		size_t ie = i, je = j;

		if (!is_digit(a[i]) || !is_digit(b[j])) {
			if (a[i] != b[j])
				return (unsigned char)a[i] < (unsigned char)b[j]
					   ? -1
					   : 1;
			i++, j++;
			continue;
		}
		/* two runs of digits: the longer number (less its leading
		 * zeros) is the larger, else the first digit that differs */
		while (i < an && a[i] == '0')
			i++;
		while (j < bn && b[j] == '0')
			j++;
		ie = i, je = j;
		while (ie < an && is_digit(a[ie]))
			ie++;
		while (je < bn && is_digit(b[je]))
			je++;
		if (ie - i != je - j)
			return ie - i < je - j ? -1 : 1;
		c = memcmp(a + i, b + j, ie - i);
		if (c)
			return c < 0 ? -1 : 1;
		i = ie, j = je;
	}
	if (i < an || j < bn)
		return i < an ? 1 : -1;
	n = an < bn ? an : bn;
	c = memcmp(a, b, n);
	if (c)
		return c < 0 ? -1 : 1;
	return an == bn ? 0 : an < bn ? -1 : 1;
}
