/* SPDX-License-Identifier: MIT */
/*
 * Max-flow (Dinic, iterative) between two vertex sets of an undirected
 * capacitated graph: the exact cut the bisection methods and their unit
 * tests rely on (see maxflow.h).  A leaf of the analysis stage: it calls
 * nothing of the compiler but the allocation helpers.
 */
#include "rackc.h"
#include "arith.h"

#include <stdlib.h>

#include "maxflow.h"

#define INF_CAP (INT64_MAX / 4)

/*
 * The residual graph in compressed rows: the arcs out of vertex v are
 * arcs[head[v] .. head[v + 1]), so that BFS and DFS read memory in order;
 * each arc knows the index of its reverse.
 */
struct arc {
	uint32_t to, rev;
	int64_t cap;
};

struct flow {
	uint32_t n;
	uint32_t *head; /* n + 1 offsets */
	struct arc *arcs;
	int32_t *level;
	uint32_t *it, *queue, *stack;
};

/* Undirected edges (u[i], v[i]) of capacity c[i] both ways. */
static void flow_init(struct flow *f, uint32_t n, uint32_t m, const uint32_t *u,
		      const uint32_t *v, const int64_t *c)
{
	uint32_t *fill;

	memset(f, 0, sizeof(*f));
	f->n = n;
	f->head = xcalloc((size_t)n + 1, sizeof(*f->head));
	for (uint32_t i = 0; i < m; i++) {
		f->head[u[i] + 1]++;
		f->head[v[i] + 1]++;
	}
	for (uint32_t x = 0; x < n; x++)
		f->head[x + 1] += f->head[x];
	f->arcs = xmalloc(((size_t)2 * m + 1) * sizeof(*f->arcs));
	fill = xmalloc(((size_t)n + 1) * sizeof(*fill));
	memcpy(fill, f->head, (size_t)n * sizeof(*fill));
	for (uint32_t i = 0; i < m; i++) {
		uint32_t p = fill[u[i]]++, q = fill[v[i]]++;

		f->arcs[p] = (struct arc){ v[i], q, c[i] };
		f->arcs[q] = (struct arc){ u[i], p, c[i] };
	}
	free(fill);
	f->level = xmalloc((size_t)n * sizeof(*f->level));
	f->it = xmalloc((size_t)n * sizeof(*f->it));
	f->queue = xmalloc((size_t)n * sizeof(*f->queue));
	f->stack = xmalloc(((size_t)n + 1) * sizeof(*f->stack));
}

static void flow_free(struct flow *f)
{
	free(f->head);
	free(f->arcs);
	free(f->level);
	free(f->it);
	free(f->queue);
	free(f->stack);
}

static bool flow_bfs(struct flow *f, uint32_t s, uint32_t t)
{
	uint32_t qh = 0, qt = 0;

	for (uint32_t i = 0; i < f->n; i++)
		f->level[i] = -1;
	f->level[s] = 0;
	f->queue[qt++] = s;
	while (qh < qt) {
		uint32_t v = f->queue[qh++];

		/* the vertices the queue holds now lie no nearer to s than t
		 * does: no shortest path goes through them */
		if (f->level[t] >= 0 && f->level[v] >= f->level[t])
			break;
		for (uint32_t a = f->head[v]; a < f->head[v + 1]; a++)
			if (f->arcs[a].cap > 0 && f->level[f->arcs[a].to] < 0) {
				f->level[f->arcs[a].to] = f->level[v] + 1;
				f->queue[qt++] = f->arcs[a].to;
			}
	}
	return f->level[t] >= 0;
}

/* Blocking flow by iterative DFS over the level graph. */
static int64_t flow_dfs(struct flow *f, uint32_t s, uint32_t t)
{
	int64_t total = 0;

	for (;;) {
		uint32_t depth = 0, v = s;

		while (v != t) {
			uint32_t a, end = f->head[v + 1];

			for (a = f->it[v]; a < end; a++)
				if (f->arcs[a].cap > 0 &&
				    f->level[f->arcs[a].to] == f->level[v] + 1)
					break;
			f->it[v] = a;
			if (a == end) {
				if (depth == 0)
					return total;
				f->level[v] = -1; /* dead end */
				v = f->arcs[f->arcs[f->stack[--depth]].rev].to;
				continue;
			}
			f->stack[depth++] = a;
			v = f->arcs[a].to;
		}
		{
			int64_t b = INF_CAP;

			for (uint32_t i = 0; i < depth; i++)
				if (f->arcs[f->stack[i]].cap < b)
					b = f->arcs[f->stack[i]].cap;
			for (uint32_t i = 0; i < depth; i++) {
				struct arc *x = &f->arcs[f->stack[i]];

				x->cap -= b;
				f->arcs[x->rev].cap += b;
			}
			total = arith_capadd(total, b, INF_CAP);
		}
	}
}

static int64_t flow_run(struct flow *f, uint32_t s, uint32_t t)
{
	int64_t total = 0;

	while (flow_bfs(f, s, t)) {
		memcpy(f->it, f->head, f->n * sizeof(*f->it));
		total = arith_capadd(total, flow_dfs(f, s, t), INF_CAP);
		if (total >= INF_CAP)
			break;
	}
	return total;
}

/*
 * The graph is first reduced, exactly: every source is merged into one
 * vertex S and every sink into T (a vertex joined to s by an unbounded
 * edge is never cut from it), edges inside S or inside T vanish, S-T edges
 * carry their capacity straight across, and parallel edges merge into one
 * of the summed capacity.  On a fat tree this leaves the switches alone:
 * Dinic then runs on thousands of vertices instead of every endpoint port.
 */
int64_t maxflow_bipartition(uint32_t nv, uint32_t ne, const uint32_t *u,
			    const uint32_t *v, const int64_t *cap,
			    const uint8_t *side)
{
	return maxflow_bipartition_cut(nv, ne, u, v, cap, side, NULL);
}

int64_t maxflow_bipartition_cut(uint32_t nv, uint32_t ne, const uint32_t *u,
				const uint32_t *v, const int64_t *cap,
				const uint8_t *side, uint8_t *reach)
{
	struct flow f;
	uint32_t *map = xmalloc(((size_t)nv + 1) * sizeof(*map));
	uint32_t n = 2, m = 0, k;
	uint32_t *start, *other, *mark, *pos, *mu, *mv;
	int64_t *c, *mc, direct = 0, r;

	for (uint32_t x = 0; x < nv; x++)
		map[x] = side[x] == 1 ? 0 : side[x] == 2 ? 1 : n++;
	start = xcalloc((size_t)n + 1, sizeof(*start));
	for (uint32_t i = 0; i < ne; i++) {
		uint32_t a = map[u[i]], b = map[v[i]];

		if (cap[i] <= 0 || a == b)
			continue;
		if ((a | b) == 1) /* S-T */
			direct = arith_capadd(direct, cap[i], INF_CAP);
		else
			start[(a < b ? a : b) + 1]++;
	}
	for (uint32_t x = 0; x < n; x++)
		start[x + 1] += start[x];
	other = xmalloc(((size_t)start[n] + 1) * sizeof(*other));
	c = xmalloc(((size_t)start[n] + 1) * sizeof(*c));
	for (uint32_t i = 0; i < ne; i++) {
		uint32_t a = map[u[i]], b = map[v[i]], lo, hi;

		if (cap[i] <= 0 || a == b || (a | b) == 1)
			continue;
		lo = a < b ? a : b;
		hi = a < b ? b : a;
		k = start[lo]++;
		other[k] = hi;
		c[k] = cap[i];
	}
	/* start[x] is now the end of x's bucket: merge parallel edges */
	mark = xmalloc(((size_t)n + 1) * sizeof(*mark));
	pos = xmalloc(((size_t)n + 1) * sizeof(*pos));
	mu = xmalloc(((size_t)start[n - 1] + 1) * sizeof(*mu));
	mv = xmalloc(((size_t)start[n - 1] + 1) * sizeof(*mv));
	mc = xmalloc(((size_t)start[n - 1] + 1) * sizeof(*mc));
	memset(mark, 0xff, ((size_t)n + 1) * sizeof(*mark));
	k = 0;
	for (uint32_t lo = 0; lo < n; lo++) {
		for (; k < start[lo]; k++) {
			uint32_t hi = other[k];

			if (mark[hi] == lo) {
				mc[pos[hi]] =
				    arith_capadd(mc[pos[hi]], c[k], INF_CAP);
				continue;
			}
			mark[hi] = lo;
			pos[hi] = m;
			mu[m] = lo;
			mv[m] = hi;
			mc[m++] = c[k];
		}
	}
	flow_init(&f, n, m, mu, mv, mc);
	r = arith_capadd(direct, flow_run(&f, 0, 1), INF_CAP);
	/* the last search found no path: its levels mark the vertices the
	 * sources still reach, the source side of a least cut */
	for (uint32_t x = 0; reach && x < nv; x++)
		reach[x] = f.level[map[x]] >= 0;
	flow_free(&f);
	free(map);
	free(start);
	free(other);
	free(c);
	free(mark);
	free(pos);
	free(mu);
	free(mv);
	free(mc);
	return r;
}
