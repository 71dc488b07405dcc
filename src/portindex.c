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

void port_index_build(const struct rk_design *d, struct port_index *x)
{
	uint32_t nobjs = d->nobjs, n = 0;
	uint32_t *cnt = xcalloc((size_t)nobjs + 1, sizeof(*cnt));
	uint32_t *devs, *tdev;
	struct port_end *tmp;

	for (uint32_t i = 0; i < d->nlinks; i++)
		if (resolved(&d->links[i]))
			n += 2;
	tmp = xmalloc(((size_t)n + 1) * sizeof(*tmp));
	tdev = xmalloc(((size_t)n + 1) * sizeof(*tdev));
	x->e = xmalloc(((size_t)n + 1) * sizeof(*x->e));
	devs = xmalloc(((size_t)n + 1) * sizeof(*devs));
	x->n = n;
	/* the ends in link order, counted by port */
	n = 0;
	for (uint32_t i = 0; i < d->nlinks; i++) {
		const struct rk_link *l = &d->links[i];

		if (!resolved(l))
			continue;
		for (uint32_t end = 0; end < 2; end++) {
			tmp[n] = (struct port_end){ end ? l->b_port : l->a_port,
						    i, end };
			tdev[n] = end ? l->b_dev : l->a_dev;
			cnt[tmp[n].port + 1]++;
			n++;
		}
	}
	/* stable by port */
	for (uint32_t o = 0; o < nobjs; o++)
		cnt[o + 1] += cnt[o];
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = cnt[tmp[i].port]++;

		x->e[k] = tmp[i];
		devs[k] = tdev[i];
	}
	/* stable by device: (device, port, link, end) */
	memset(cnt, 0, ((size_t)nobjs + 1) * sizeof(*cnt));
	for (uint32_t i = 0; i < n; i++)
		cnt[devs[i] + 1]++;
	for (uint32_t o = 0; o < nobjs; o++)
		cnt[o + 1] += cnt[o];
	x->start = xmalloc(((size_t)nobjs + 1) * sizeof(*x->start));
	memcpy(x->start, cnt, ((size_t)nobjs + 1) * sizeof(*cnt));
	for (uint32_t i = 0; i < n; i++)
		tmp[cnt[devs[i]]++] = x->e[i];
	free(x->e);
	x->e = tmp;
	free(devs);
	free(tdev);
	free(cnt);
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
