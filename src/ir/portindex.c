/* SPDX-License-Identifier: MIT */
/* Link ends by device and port (see portindex.h). */
#include "rackc.h"

#include <stdlib.h>

#include "portindex.h"

static bool resolved(const struct rk_link *l)
{
	return l->a_dev != RK_NONE && l->b_dev != RK_NONE &&
	       l->a_port != RK_NONE && l->b_port != RK_NONE;
}

static int cmp_end(const void *pa, const void *pb)
{
	const struct port_end *a = pa, *b = pb;

	if (a->port != b->port)
		return a->port < b->port ? -1 : 1;
	if (a->link != b->link)
		return a->link < b->link ? -1 : 1;
	return a->end < b->end ? -1 : a->end > b->end;
}

void port_index_build(const struct rk_design *d, struct port_index *x)
{
	uint32_t nobjs = d->nobjs, n;
	uint32_t *start = xcalloc((size_t)nobjs + 2, sizeof(*start));
	uint32_t *fill;

	/* by device: count, prefix sums, then the ends in link order */
	for (uint32_t i = 0; i < d->nlinks; i++) {
		const struct rk_link *l = &d->links[i];

		if (!resolved(l))
			continue;
		start[l->a_dev + 1]++;
		start[l->b_dev + 1]++;
	}
	for (uint32_t o = 0; o < nobjs; o++)
		start[o + 1] += start[o];
	n = start[nobjs];
	x->n = n;
	x->e = xmalloc(((size_t)n + 1) * sizeof(*x->e));
	fill = xmalloc(((size_t)nobjs + 1) * sizeof(*fill));
	memcpy(fill, start, (size_t)nobjs * sizeof(*fill));
	for (uint32_t i = 0; i < d->nlinks; i++) {
		const struct rk_link *l = &d->links[i];

		if (!resolved(l))
			continue;
		x->e[fill[l->a_dev]++] = (struct port_end){ l->a_port, i, 0 };
		x->e[fill[l->b_dev]++] = (struct port_end){ l->b_port, i, 1 };
	}
	free(fill);
	/*
	 * then each device's ends by port (link and end break ties, as the
	 * link order they came in): mostly in order already, as generators
	 * and designs wire ports in order
	 */
	for (uint32_t o = 0; o < nobjs; o++) {
		struct port_end *r = x->e + start[o];
		uint32_t m = start[o + 1] - start[o], k;

		for (k = 1; k < m && r[k - 1].port <= r[k].port; k++)
			;
		if (k >= m)
			continue;
		if (m <= 32) {
			for (uint32_t a = 1; a < m; a++) {
				struct port_end t = r[a];
				uint32_t b = a;

				for (; b > 0 && cmp_end(&r[b - 1], &t) > 0; b--)
					r[b] = r[b - 1];
				r[b] = t;
			}
		} else {
			qsort(r, m, sizeof(*r), cmp_end);
		}
	}
	x->start = xrealloc(start, ((size_t)nobjs + 1) * sizeof(*start));
}

void port_index_free(struct port_index *x)
{
	free(x->start);
	free(x->e);
}

uint32_t port_index_find(const struct port_index *x, uint32_t dev,
			 uint32_t port, uint32_t *count)
{
	uint32_t lo = x->start[dev], hi = x->start[dev + 1], end = hi;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (x->e[mid].port < port)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == end || x->e[lo].port != port) {
		if (count)
			*count = 0;
		return RK_NONE;
	}
	if (count) {
		/* the end of the run: first entry with a greater port */
		uint32_t a = lo, b = end;

		while (a < b) {
			uint32_t mid = a + (b - a) / 2;

			if (x->e[mid].port <= port)
				a = mid + 1;
			else
				b = mid;
		}
		*count = a - lo;
	}
	return lo;
}
