/* SPDX-License-Identifier: MIT */
/*
 * A proven lower bound on the bisection from a concurrent multicommodity
 * flow (doc/language.md, "Bisection", method 5).
 *
 * Every endpoint device s gets a weight w(s) (its injection over the
 * greatest common divisor of the injections, or 1 for all when those
 * weights would be large).  One round sends w(s) w(t) units from every
 * device s to every other device t, along a shortest-path tree from s
 * (devices hanging off one switch alone share the tree of that switch);
 * P rounds are routed, and the lengths of the arcs grow with their load
 * between trees, so that later trees go round the loaded arcs (in the
 * manner of Garg and Koenemann).  The loads are counted in exact integers
 * per arc, that is per edge and direction; the lengths only steer.
 *
 * Proof.  Let R be the largest load over capacity of any arc.  Scaled by
 * 1/R the routing is a flow within every capacity, per direction, that
 * sends P w(s) w(t) / R from every s to every t.  For any split (A, B)
 * of the devices, switches placed anywhere, every path from A to B
 * crosses the cut from the A side to the B side, so the cut's capacity
 * per direction is at least P W(A) W(B) / R, W(X) the weight of X.  For a
 * balanced split, A holding k = floor(n/2) devices, W(A) lies between
 * lo, the k least weights summed, and hi, the k largest, and W(A) (W -
 * W(A)) is concave in W(A), so it is at least min(lo (W - lo), hi (W -
 * hi)) =: M.  The bisection is at least P M / R, computed exactly and
 * rounded down.
 */
#include "rackc.h"
#include "arith.h"

#include <float.h>
#include <stdlib.h>

#include "bisect_large.h"

#define BIG (INT64_MAX / 4)
#define MAX_WEIGHT 64
#define MAX_ROUNDS 48

struct pedge {
	uint32_t u, v;
	int64_t cap;
};

static int pedge_cmp(const void *a, const void *b)
{
	const struct pedge *x = a, *y = b;

	if (x->u != y->u)
		return x->u < y->u ? -1 : 1;
	return x->v < y->v ? -1 : x->v > y->v;
}

void bisect_csr_build(struct bcsr *c, const struct bgraph *g)
{
	struct pedge *e = xmalloc(((size_t)g->ne + 1) * sizeof(*e));
	uint32_t m = 0, k = 0, *fill;

	memset(c, 0, sizeof(*c));
	c->nd = g->nd;
	c->nv = g->nv;
	for (uint32_t i = 0; i < g->ne; i++) {
		uint32_t a = g->u[i], b = g->v[i];

		if (a == b || g->cap[i] <= 0)
			continue;
		e[m++] =
		    (struct pedge){ a < b ? a : b, a < b ? b : a, g->cap[i] };
	}
	qsort(e, m, sizeof(*e), pedge_cmp);
	c->eu = xmalloc(((size_t)m + 1) * sizeof(*c->eu));
	c->ev = xmalloc(((size_t)m + 1) * sizeof(*c->ev));
	c->ecap = xmalloc(((size_t)m + 1) * sizeof(*c->ecap));
	for (uint32_t i = 0; i < m; i++) {
		if (k && c->eu[k - 1] == e[i].u && c->ev[k - 1] == e[i].v) {
			c->ecap[k - 1] = c->ecap[k - 1] >= BIG - e[i].cap
					     ? BIG
					     : c->ecap[k - 1] + e[i].cap;
			continue;
		}
		c->eu[k] = e[i].u;
		c->ev[k] = e[i].v;
		c->ecap[k++] = e[i].cap > BIG ? BIG : e[i].cap;
	}
	free(e);
	c->ne = k;
	c->off = xcalloc((size_t)c->nv + 2, sizeof(*c->off));
	for (uint32_t i = 0; i < k; i++) {
		c->off[c->eu[i] + 1]++;
		c->off[c->ev[i] + 1]++;
	}
	for (uint32_t x = 0; x < c->nv; x++)
		c->off[x + 1] += c->off[x];
	c->to = xmalloc(((size_t)2 * k + 1) * sizeof(*c->to));
	c->arc_edge = xmalloc(((size_t)2 * k + 1) * sizeof(*c->arc_edge));
	c->arc_cap = xmalloc(((size_t)2 * k + 1) * sizeof(*c->arc_cap));
	fill = xmalloc(((size_t)c->nv + 1) * sizeof(*fill));
	memcpy(fill, c->off, (size_t)c->nv * sizeof(*fill));
	for (uint32_t i = 0; i < k; i++) {
		uint32_t a = fill[c->eu[i]]++, b = fill[c->ev[i]]++;

		c->to[a] = c->ev[i];
		c->to[b] = c->eu[i];
		c->arc_edge[a] = c->arc_edge[b] = i;
		c->arc_cap[a] = c->arc_cap[b] = c->ecap[i];
	}
	free(fill);
}

void bisect_csr_free(struct bcsr *c)
{
	free(c->eu);
	free(c->ev);
	free(c->ecap);
	free(c->off);
	free(c->to);
	free(c->arc_edge);
	free(c->arc_cap);
	memset(c, 0, sizeof(*c));
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* ---- Dijkstra on arc lengths, a binary heap with stale entries ---- */

struct hitem {
	double d;
	uint32_t x;
};

struct dheap {
	struct hitem *h;
	uint32_t n;
};

static bool hless(const struct hitem *a, const struct hitem *b)
{
	return a->d < b->d || (a->d == b->d && a->x < b->x);
}

static void hpush(struct dheap *q, double d, uint32_t x)
{
	uint32_t i = q->n++;

	q->h[i] = (struct hitem){ d, x };
	while (i && hless(&q->h[i], &q->h[(i - 1) / 2])) {
		struct hitem t = q->h[i];

		q->h[i] = q->h[(i - 1) / 2];
		q->h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static struct hitem hpop(struct dheap *q)
{
	struct hitem top = q->h[0];
	uint32_t i = 0;

	q->h[0] = q->h[--q->n];
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < q->n && hless(&q->h[l], &q->h[m]))
			m = l;
		if (r < q->n && hless(&q->h[r], &q->h[m]))
			m = r;
		if (m == i)
			break;
		{
			struct hitem t = q->h[i];

			q->h[i] = q->h[m];
			q->h[m] = t;
		}
		i = m;
	}
	return top;
}

struct router {
	const struct bcsr *c;
	double *len;   /* per arc */
	u128 *load;    /* per arc: units routed along it, times SCALE */
	uint32_t *rev; /* per arc: the arc back */
	double *dist;
	uint32_t *order, nord;
	uint8_t *done;
	u128 *amount;
	struct dheap q;
};

/* Shortest distances from @r: order[0..nord) in settling order. */
static void dist_from(struct router *R, uint32_t r)
{
	const struct bcsr *c = R->c;

	for (uint32_t x = 0; x < c->nv; x++) {
		R->dist[x] = DBL_MAX;
		R->done[x] = 0;
	}
	R->nord = 0;
	R->q.n = 0;
	R->dist[r] = 0;
	hpush(&R->q, 0, r);
	while (R->q.n) {
		struct hitem it = hpop(&R->q);
		uint32_t x = it.x;

		if (R->done[x])
			continue;
		R->done[x] = 1;
		R->order[R->nord++] = x;
		for (uint32_t a = c->off[x]; a < c->off[x + 1]; a++) {
			uint32_t y = c->to[a];
			double d = it.d + R->len[a];

			if (!R->done[y] && d < R->dist[y]) {
				R->dist[y] = d;
				hpush(&R->q, d, y);
			}
		}
	}
}

/*
 * What each vertex takes (R->amount, set by the caller) flows back from
 * the root along the shortest paths: in reverse settling order a vertex's
 * amount is split over the arcs into it that lie on a shortest path, in
 * equal integer shares (the remainder one unit each to the first), and
 * handed on to their tails.  Conservation is exact.
 */
static void route_back(struct router *R)
{
	const struct bcsr *c = R->c;

	for (uint32_t j = R->nord; j-- > 1;) {
		uint32_t y = R->order[j], q = 0, i = 0;
		u128 a, share, rem;

		if (!R->amount[y])
			continue;
		for (uint32_t b = c->off[y]; b < c->off[y + 1]; b++) {
			uint32_t in = R->rev[b], x = c->to[b];

			q += R->done[x] && R->dist[x] < R->dist[y] &&
			     R->dist[x] + R->len[in] == R->dist[y];
		}
		if (!q)
			BUG("bisection flow: a vertex off every shortest path");
		a = R->amount[y];
		share = a / q;
		rem = a % q;
		for (uint32_t b = c->off[y]; b < c->off[y + 1]; b++) {
			uint32_t in = R->rev[b], x = c->to[b];
			u128 put;

			if (!(R->done[x] && R->dist[x] < R->dist[y] &&
			      R->dist[x] + R->len[in] == R->dist[y]))
				continue;
			put = share + (i++ < rem ? 1 : 0);
			R->load[in] += put;
			R->amount[x] += put;
		}
	}
}

/*
 * Units: every demand is counted SCALE times, so that the equal shares
 * of route_back() divide exactly on most fabrics (SCALE is divisible by
 * 2^26, 3^12 and every number up to 16: the shares of a torus's paths,
 * two or three ways at each step).
 */
#define SCALE ((u128)67108864 * 531441 * 25 * 49 * 11 * 13)
#define SCALE_SMALL ((u128)720720)

/* What flow_rounds()'s steps share: one choice of weights. */
struct flow_run {
	struct router *R;
	const uint64_t *w;	 /* per device */
	const uint32_t *root_of; /* per device: the root of its tree */
	int64_t gc;		 /* the arcs' capacities' common divisor */
	u128 scale;
	uint64_t W;   /* the weights summed */
	u128 M;	      /* the least W(A) W(B) over balanced splits */
	int64_t cmax; /* the largest arc capacity */
	uint32_t *roots, nroots;
	uint64_t *root_w; /* per root: its devices' weights */
};

/* The roots of the trees with a weight on them, each root's weight and W. */
static void flow_roots(struct flow_run *F)
{
	const struct bcsr *c = F->R->c;

	F->roots = xmalloc(((size_t)c->nv + 1) * sizeof(*F->roots));
	F->root_w = xcalloc((size_t)c->nv + 1, sizeof(*F->root_w));
	for (uint32_t x = 0; x < c->nd; x++) {
		uint32_t r = F->root_of[x];

		if (!F->root_w[r] && F->w[x])
			F->roots[F->nroots++] = r;
		F->root_w[r] += F->w[x];
		F->W += F->w[x];
	}
}

/* M: the least W(A) W(B) over balanced splits (see the proof above). */
static u128 flow_least_product(const struct bcsr *c, const uint64_t *w,
			       uint64_t W)
{
	uint64_t *wsort, lo = 0, hi = 0;
	uint32_t k = c->nd / 2;
	u128 M;

	wsort = xmalloc(((size_t)c->nd + 1) * sizeof(*wsort));
	memcpy(wsort, w, (size_t)c->nd * sizeof(*w));
	qsort(wsort, c->nd, sizeof(*wsort), u64_cmp);
	for (uint32_t i = 0; i < k; i++) {
		lo += wsort[i];
		hi += wsort[c->nd - 1 - i];
	}
	free(wsort);
	M = (u128)lo * (W - lo);
	if ((u128)hi * (W - hi) < M)
		M = (u128)hi * (W - hi);
	return M;
}

/* The loads cleared and the first round's lengths: whole numbers (the
 * largest capacity over the arc's), so that equal paths tie exactly and
 * share the load. */
static void flow_first_lengths(struct flow_run *F)
{
	struct router *R = F->R;
	const struct bcsr *c = R->c;
	uint32_t narcs = c->off[c->nv];

	F->cmax = 1;
	for (uint32_t a = 0; a < narcs; a++)
		if (c->arc_cap[a] > F->cmax)
			F->cmax = c->arc_cap[a];
	for (uint32_t a = 0; a < narcs; a++) {
		int64_t q = F->cmax / c->arc_cap[a];

		R->len[a] = (double)(q > 1 << 20 ? 1 << 20 : q);
		R->load[a] = 0;
	}
}

/*
 * One root's tree: every device takes its own weight times the weight
 * sent from @r's devices, routed back along the shortest paths from @r;
 * @r's own devices send along their link to @r what they send in all.
 * False when a device with demand is unreachable.
 */
static bool flow_route_root(struct flow_run *F, uint32_t r)
{
	struct router *R = F->R;
	const struct bcsr *c = R->c;
	const uint64_t *w = F->w, wr = F->root_w[r];
	const uint32_t *root_of = F->root_of;

	dist_from(R, r);
	for (uint32_t j = 0; j < R->nord; j++)
		R->amount[R->order[j]] = 0;
	for (uint32_t x = 0; x < c->nd; x++) {
		uint64_t d = w[x] * (wr - (root_of[x] == r ? w[x] : 0));

		if (!d)
			continue;
		if (!R->done[x])
			return false; /* unreachable */
		R->amount[x] = (u128)d * F->scale;
	}
	route_back(R);
	for (uint32_t x = 0; r >= c->nd && x < c->nd; x++)
		if (root_of[x] == r && w[x])
			R->load[c->off[x]] +=
			    (u128)w[x] * (F->W - w[x]) * F->scale;
	return true;
}

/* Later rounds: lengths (1 + relative load)^8, the loads over the
 * largest, steer round the loaded arcs. */
static void flow_relength(struct flow_run *F)
{
	struct router *R = F->R;
	const struct bcsr *c = R->c;
	uint32_t narcs = c->off[c->nv];
	double rmax = 0;

	for (uint32_t a = 0; a < narcs; a++) {
		double rel = (double)R->load[a] / (double)c->arc_cap[a];

		if (rel > rmax)
			rmax = rel;
	}
	for (uint32_t a = 0; a < narcs && rmax > 0; a++) {
		double x =
		    1 + (double)R->load[a] / (double)c->arc_cap[a] / rmax;

		x *= x;
		x *= x;
		R->len[a] = (double)F->cmax / (double)c->arc_cap[a] * x * x;
	}
}

/*
 * The bound of the first @t + 1 rounds: the arc of largest load over
 * capacity, exactly; then gc floor((t + 1) M scale capn / load), capn =
 * cap / gc: rounded down, raising *@lower.  Returns -1 when no arc has a
 * load, 0 when the figure would overflow, 1 when it was proven.
 */
static int flow_bound(const struct flow_run *F, uint32_t t, int64_t *lower)
{
	const struct router *R = F->R;
	const struct bcsr *c = R->c;
	const int64_t gc = F->gc;
	uint32_t narcs = c->off[c->nv], best = RK_NONE;
	u128 num, v;
	uint64_t capn;

	for (uint32_t a = 0; a < narcs; a++) {
		if (!R->load[a])
			continue;
		if (best == RK_NONE ||
		    R->load[a] * (uint64_t)(c->arc_cap[best] / gc) >
			R->load[best] * (uint64_t)(c->arc_cap[a] / gc))
			best = a;
	}
	if (best == RK_NONE)
		return -1;
	capn = (uint64_t)(c->arc_cap[best] / gc);
	num = F->M * (t + 1);
	if (num / (t + 1) != F->M || num > ~(u128)0 / F->scale)
		return 0;
	num *= F->scale;
	if (num > ~(u128)0 / capn)
		return 0;
	v = num * capn / R->load[best];
	if (v > (u128)(BIG / gc))
		v = (u128)(BIG / gc);
	if ((int64_t)v * gc > *lower)
		*lower = (int64_t)v * gc;
	return 1;
}

/*
 * The rounds for one choice of weights @w (root_of fixed): returns the
 * best bound after any number of rounds in *lower (raised only), false
 * when none was proven (unreachable demand, or beyond the budget).
 */
static bool flow_rounds(struct router *R, const uint64_t *w,
			const uint32_t *root_of, int64_t gc, u128 scale,
			uint64_t budget, int64_t *lower)
{
	const struct bcsr *c = R->c;
	struct flow_run F = {
		.R = R, .w = w, .root_of = root_of, .gc = gc, .scale = scale
	};
	uint32_t narcs = c->off[c->nv], rounds;
	uint64_t per_round;
	bool ok = false;

	flow_roots(&F);
	F.M = flow_least_product(c, w, F.W);
	per_round = (uint64_t)F.nroots * ((uint64_t)narcs * 6 + c->nv * 2 + 16);
	if (F.M == 0 || per_round > budget)
		goto out;
	rounds = (uint32_t)(budget / per_round);
	if (rounds > MAX_ROUNDS)
		rounds = MAX_ROUNDS;
	flow_first_lengths(&F);
	for (uint32_t t = 0; t < rounds; t++) {
		int got;

		for (uint32_t i = 0; i < F.nroots; i++) {
			if (!flow_route_root(&F, F.roots[i]))
				goto out;
			if (t > 0)
				flow_relength(&F);
		}
		got = flow_bound(&F, t, lower);
		if (got < 0)
			goto out;
		ok = ok || got > 0;
	}
out:
	free(F.roots);
	free(F.root_w);
	return ok;
}

/*
 * Second weights: a switch whose links beyond its own devices are narrow
 * for them (links failed) holds every pair's flow down, so its devices
 * send and take less: their weights times q in 1..8, eighths of the
 * switch's ratio of those links to its devices' links over the median
 * ratio.  False when every q is 8 (nothing to gain).
 */
static bool narrow_weights(const struct bcsr *c, const uint32_t *root_of,
			   const uint64_t *w, uint64_t *w2)
{
	uint32_t nr = 0;
	double *rho = xmalloc(((size_t)c->nv + 1) * sizeof(*rho));
	double *srt = xmalloc(((size_t)c->nv + 1) * sizeof(*srt));
	double med;
	bool differ = false;

	for (uint32_t r = c->nd; r < c->nv; r++) {
		int64_t out = 0, in = 0;

		for (uint32_t a = c->off[r]; a < c->off[r + 1]; a++)
			if (c->to[a] < c->nd && root_of[c->to[a]] == r)
				in += c->arc_cap[a];
			else
				out += c->arc_cap[a];
		rho[r] = in ? (double)out / (double)in : 0;
		if (in)
			srt[nr++] = rho[r];
	}
	for (uint32_t i = 1; i < nr; i++) {
		double t = srt[i];
		uint32_t j = i;

		for (; j > 0 && srt[j - 1] > t; j--)
			srt[j] = srt[j - 1];
		srt[j] = t;
	}
	med = nr ? srt[nr / 2] : 0;
	for (uint32_t x = 0; x < c->nd; x++) {
		uint32_t r = root_of[x];
		uint64_t q = 8;

		if (r >= c->nd && med > 0 && rho[r] < med) {
			q = (uint64_t)(8 * rho[r] / med);
			q = q < 1 ? 1 : q;
		}
		differ |= q != 8 && w[x];
		w2[x] = w[x] * q;
	}
	free(rho);
	free(srt);
	return differ;
}

bool bisect_flow_lower(const struct bgraph *g, uint64_t budget, int64_t *lower)
{
	struct bcsr c;
	struct router R;
	uint64_t *w, *w2, maxw = 0;
	uint32_t *root_of, narcs;
	int64_t gw = 0, gc = 0, cmax = 1;
	bool ok;

	*lower = 0;
	if (g->nd < 2)
		return false;
	bisect_csr_build(&c, g);
	narcs = c.off[c.nv];
	/* weights: injections over their gcd, or 1 each */
	w = xcalloc((size_t)c.nd + 1, sizeof(*w));
	w2 = xcalloc((size_t)c.nd + 1, sizeof(*w2));
	for (uint32_t x = 0; x < c.nd; x++) {
		int64_t inj = 0;

		for (uint32_t a = c.off[x]; a < c.off[x + 1]; a++)
			inj = inj >= BIG - c.arc_cap[a] ? BIG
							: inj + c.arc_cap[a];
		w[x] = (uint64_t)inj;
		gw = arith_gcd64(gw, inj);
	}
	for (uint32_t x = 0; x < c.nd; x++) {
		w[x] = gw ? w[x] / (uint64_t)gw : 0;
		if (w[x] > maxw)
			maxw = w[x];
	}
	for (uint32_t x = 0; maxw > MAX_WEIGHT && x < c.nd; x++)
		w[x] = w[x] ? 1 : 0;
	/* sources: a device whose only neighbour is a switch is routed
	 * from that switch, together with the switch's other such devices */
	root_of = xmalloc(((size_t)c.nv + 1) * sizeof(*root_of));
	for (uint32_t x = 0; x < c.nd; x++) {
		root_of[x] = x;
		if (c.off[x + 1] - c.off[x] == 1 && c.to[c.off[x]] >= c.nd)
			root_of[x] = c.to[c.off[x]];
	}
	/* capacities in units of their gcd; the scale that keeps the
	 * products within 128 bits */
	for (uint32_t i = 0; i < c.ne; i++) {
		gc = arith_gcd64(gc, c.ecap[i]);
		if (c.ecap[i] > cmax)
			cmax = c.ecap[i];
	}
	memset(&R, 0, sizeof(R));
	R.c = &c;
	R.len = xmalloc(((size_t)narcs + 1) * sizeof(*R.len));
	R.load = xcalloc((size_t)narcs + 1, sizeof(*R.load));
	R.rev = xmalloc(((size_t)narcs + 1) * sizeof(*R.rev));
	R.dist = xmalloc(((size_t)c.nv + 1) * sizeof(*R.dist));
	R.order = xmalloc(((size_t)c.nv + 1) * sizeof(*R.order));
	R.done = xmalloc((size_t)c.nv + 1);
	R.amount = xmalloc(((size_t)c.nv + 1) * sizeof(*R.amount));
	R.q.h = xmalloc(((size_t)narcs + c.nv + 2) * sizeof(*R.q.h));
	{
		uint32_t *first = xmalloc(((size_t)c.ne + 1) * sizeof(*first));

		for (uint32_t i = 0; i < c.ne; i++)
			first[i] = RK_NONE;
		for (uint32_t a = 0; a < narcs; a++) {
			uint32_t e = c.arc_edge[a];

			if (first[e] == RK_NONE) {
				first[e] = a;
			} else {
				R.rev[a] = first[e];
				R.rev[first[e]] = a;
			}
		}
		free(first);
	}
	/* the injections as weights; then, if they differ, the narrowed
	 * ones, each on half the budget */
	if (narrow_weights(&c, root_of, w, w2)) {
		ok = flow_rounds(&R, w, root_of, gc,
				 cmax / gc <= 65536 ? SCALE : SCALE_SMALL,
				 budget / 2, lower);
		ok |= flow_rounds(&R, w2, root_of, gc,
				  cmax / gc <= 65536 ? SCALE : SCALE_SMALL,
				  budget / 2, lower);
	} else {
		ok = flow_rounds(&R, w, root_of, gc,
				 cmax / gc <= 65536 ? SCALE : SCALE_SMALL,
				 budget, lower);
	}
	free(R.len);
	free(R.load);
	free(R.rev);
	free(R.dist);
	free(R.order);
	free(R.done);
	free(R.amount);
	free(R.q.h);
	free(w);
	free(w2);
	free(root_of);
	bisect_csr_free(&c);
	if (!ok)
		*lower = 0;
	return ok;
}
