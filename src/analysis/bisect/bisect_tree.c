/* SPDX-License-Identifier: MIT */
/*
 * Exact bisection when the switches form a forest and every device hangs
 * off one switch by links of one capacity: a dynamic programme over the
 * forest (BH_TREE in bisect.h).
 */
#include "rackc.h"

#include <stdlib.h>

#include "bisect.h"
#include "arith.h"
#include "bisect_ng.h"

/*
 * When every device hangs off one switch by one link of one capacity c and
 * the switches (merged into cells) form a forest: for fixed switch sides
 * the best balanced split keeps each device with its switch except for
 * |N_A - K| of them (N_A: devices whose switch is on A, K: the devices A
 * must hold), each costing c.  So the bisection is the least, over the
 * switch sides, of the switch edges cut plus c |N_A - K|: a dynamic
 * programme over the forest on N_A (counted in units of the gcd of the
 * switches' device counts), children merged by min-plus convolution.
 */
struct tnode {
	uint32_t parent, a;   /* a: devices on it, in units */
	int64_t w;	      /* capacity of the edge to the parent */
	uint32_t sub;	      /* devices in its subtree, in units */
	int64_t *f[2];	      /* f[s][n]: least cut below, side s, N_A = n */
	uint32_t first_merge; /* its merges: first_merge .. + nchild */
	uint32_t nchild;
};

struct tmerge {
	uint32_t child;
	int64_t *pre[2]; /* the parent's f before this child, length plen */
	uint32_t plen;
};

static int64_t tbest(const struct tnode *c, int s, uint32_t j, int *side)
{
	int64_t same = c->f[s][j], other = c->f[!s][j];

	other = other >= BIG ? BIG : arith_capadd(other, c->w, BIG);
	*side = same <= other ? s : !s;
	return same <= other ? same : other;
}

static void tree_assign(const struct tnode *t, const struct tmerge *mg,
			uint32_t v, int s, uint32_t n, uint8_t *sw_side)
{
	const struct tnode *x = &t[v];
	int64_t target = x->f[s][n];

	sw_side[v] = (uint8_t)(s + 1);
	for (uint32_t k = x->nchild; k-- > 0;) {
		const struct tmerge *m = &mg[x->first_merge + k];
		const struct tnode *c = &t[m->child];
		uint32_t j;
		int cs = s;

		for (j = 0; j <= c->sub && j <= n; j++) {
			int64_t p, b;

			if (n - j >= m->plen)
				continue;
			p = m->pre[s][n - j];
			b = tbest(c, s, j, &cs);
			if (p < BIG && b < BIG &&
			    arith_capadd(p, b, BIG) == target)
				break;
		}
		if (j > c->sub || j > n)
			BUG("bisection tree rebuilt to no value");
		tbest(c, s, j, &cs);
		tree_assign(t, mg, m->child, cs, j, sw_side);
		target = m->pre[s][n - j];
		n -= j;
	}
}

/*
 * Lone switches (roots without switch links, as in a star): each puts all
 * its devices on side A or none, at no cost, so together they reach the
 * sums of their sizes: a bounded subset sum, one pass per size (for each
 * residue, the nearest reachable entry below, within the count of that
 * size).  @acc gets 0 where reachable, BIG elsewhere; returns its length.
 * The counts kept per size rebuild the sides (lone_assign).
 */
struct lone {
	uint32_t nsz, *size, *count, **used, *who, nwho;
};

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static uint32_t lone_reach(const struct tnode *t, uint32_t ns,
			   const uint8_t *has_child, struct lone *lo,
			   int64_t *acc)
{
	uint32_t len = 1, *last;
	uint8_t *reach;

	memset(lo, 0, sizeof(*lo));
	lo->who = xmalloc(((size_t)ns + 1) * sizeof(*lo->who));
	for (uint32_t v = 0; v < ns; v++)
		if (t[v].parent == RK_NONE && !has_child[v])
			lo->who[lo->nwho++] = (uint32_t)((uint64_t)t[v].sub);
	/* sizes and counts */
	qsort(lo->who, lo->nwho, sizeof(*lo->who), u32_cmp);
	lo->size = xmalloc(((size_t)lo->nwho + 1) * sizeof(*lo->size));
	lo->count = xmalloc(((size_t)lo->nwho + 1) * sizeof(*lo->count));
	lo->used = xcalloc((size_t)lo->nwho + 1, sizeof(*lo->used));
	for (uint32_t i = 0; i < lo->nwho; i++) {
		if (!lo->nsz || lo->size[lo->nsz - 1] != lo->who[i]) {
			lo->size[lo->nsz] = lo->who[i];
			lo->count[lo->nsz++] = 0;
		}
		lo->count[lo->nsz - 1]++;
		len += lo->who[i];
	}
	/* who: the lone switches themselves, for the rebuild */
	lo->nwho = 0;
	for (uint32_t v = 0; v < ns; v++)
		if (t[v].parent == RK_NONE && !has_child[v])
			lo->who[lo->nwho++] = v;
	reach = xcalloc(len, 1);
	last = xmalloc((size_t)len * sizeof(*last));
	reach[0] = 1;
	for (uint32_t z = 0, top = 0; z < lo->nsz; z++) {
		uint32_t w = lo->size[z], m = lo->count[z];

		top += w * m;
		lo->used[z] = xcalloc((size_t)top + 1, sizeof(**lo->used));
		if (!w)
			continue; /* switches without devices: any side */
		for (uint32_t i = 0; i <= top; i++) {
			/* the nearest reachable entry at or below, same residue
			 * (before this size: reach holds the old sums) */
			uint32_t j = i >= w ? last[i - w] : RK_NONE;

			last[i] = reach[i] ? i : j;
		}
		for (uint32_t i = top + 1; i-- > 0;)
			if (last[i] != RK_NONE && (i - last[i]) / w <= m) {
				lo->used[z][i] = (i - last[i]) / w;
				reach[i] = 1;
			}
	}
	for (uint32_t i = 0; i < len; i++)
		acc[i] = reach[i] ? 0 : BIG;
	free(reach);
	free(last);
	return len;
}

/* Sides of the lone switches for the sum @i: @used per size, back to front.
 */
static void lone_assign(const struct lone *lo, const struct tnode *t,
			uint32_t i, uint8_t *sw_side)
{
	for (uint32_t z = lo->nsz; z-- > 0;) {
		uint32_t k = lo->used[z][i];

		for (uint32_t q = 0; q < lo->nwho; q++) {
			uint32_t v = lo->who[q];

			if (t[v].sub != lo->size[z] || sw_side[v])
				continue;
			sw_side[v] = k ? 1 : 2;
			k -= k > 0;
		}
		i -= lo->used[z][i] * lo->size[z];
	}
	if (i != 0)
		BUG("bisection: lone switches rebuilt to a wrong sum");
}

static void lone_free(struct lone *lo)
{
	for (uint32_t z = 0; z < lo->nsz; z++)
		free(lo->used[z]);
	free(lo->used);
	free(lo->size);
	free(lo->count);
	free(lo->who);
}

/* The forest of switches bisect_tree_solve() works on. */
struct tforest {
	const struct ng *n;
	uint32_t nd, ns;     /* devices, switches */
	uint32_t unit;	     /* the gcd of the switches' device counts */
	uint32_t qt, *order; /* the switches in BFS order, roots first */
	struct tnode *t;
	struct tmerge *mg;
	uint8_t *seen; /* a switch has a child (after tf_shape) */
	uint64_t work; /* of the merges of children into parents */
};

/*
 * Devices: one link each, to a switch, all of one capacity (in *@c);
 * false otherwise.
 */
static bool tree_devices(const struct ng *n, uint32_t nd, int64_t *c)
{
	*c = -1;
	for (uint32_t x = 0; x < nd; x++) {
		if (n->off[x + 1] - n->off[x] != 1 || n->to[n->off[x]] < nd)
			return false;
		if (*c >= 0 && n->c[n->off[x]] != *c)
			return false;
		*c = n->c[n->off[x]];
	}
	return true;
}

/*
 * The switches' device counts in units, their parents (BFS from each
 * root; false on a cycle, or when no switch holds a device) and their
 * subtrees' sizes with the work of their merges; tf->seen then marks the
 * switches with a child.
 */
static bool tf_shape(struct tforest *tf)
{
	const struct ng *n = tf->n;
	const uint32_t nd = tf->nd, ns = tf->ns;
	struct tnode *t = tf->t;
	uint8_t *seen = tf->seen;

	for (uint32_t v = 0; v < ns; v++) {
		uint32_t x = nd + v;

		for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++)
			if (n->to[i] < nd)
				t[v].a++;
		tf->unit = (uint32_t)arith_gcd64(tf->unit, t[v].a);
	}
	if (!tf->unit)
		return false;
	/* switch edges: a forest has fewer edges than switches, and BFS must
	 * meet no switch twice */
	for (uint32_t r = 0; r < ns; r++) {
		uint32_t qh = tf->qt;

		if (seen[r])
			continue;
		seen[r] = 1;
		t[r].parent = RK_NONE;
		tf->order[tf->qt++] = r;
		while (qh < tf->qt) {
			uint32_t v = tf->order[qh++], x = nd + v;

			for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++) {
				uint32_t y = n->to[i];

				if (y < nd || y - nd == t[v].parent)
					continue;
				if (seen[y - nd])
					return false; /* a cycle */
				seen[y - nd] = 1;
				t[y - nd].parent = v;
				t[y - nd].w = n->c[i];
				tf->order[tf->qt++] = y - nd;
			}
		}
	}
	for (uint32_t v = 0; v < ns; v++) {
		t[v].a /= tf->unit;
		t[v].sub = t[v].a;
	}
	memset(seen, 0, (size_t)ns + 1); /* now: has a child */
	for (uint32_t k = tf->qt; k-- > 0;) {
		uint32_t v = tf->order[k], p = t[v].parent;

		if (p == RK_NONE)
			continue;
		tf->work += (uint64_t)(t[p].sub + 1) * (t[v].sub + 1);
		t[p].sub += t[v].sub;
		seen[p] = 1;
	}
	return true;
}

/*
 * The work of the programme: the merges of children into parents, the
 * lone switches (a star's) by reachability, a pass per size, and the
 * roots convolved.
 */
static uint64_t tf_work(const struct tforest *tf)
{
	const struct tnode *t = tf->t;
	uint64_t work = tf->work, nlone = 0, sizes = 1;
	uint32_t cum = 0;

	for (uint32_t v = 0; v < tf->ns; v++)
		if (t[v].parent == RK_NONE && !tf->seen[v]) {
			cum += t[v].sub;
			nlone++;
		}
	/* distinct sizes summing to cum: fewer than sqrt(2 cum) + 1 */
	while (sizes * sizes <= 2ull * cum && sizes < nlone)
		sizes++;
	work += (uint64_t)(cum + 1) * sizes;
	for (uint32_t v = 0; v < tf->ns; v++)
		if (t[v].parent == RK_NONE && tf->seen[v]) {
			work += (uint64_t)(cum + 1) * (t[v].sub + 1);
			cum += t[v].sub;
		}
	return work;
}

/* Each switch's merges of its children, in BFS order, grouped by parent. */
static void tf_merges(struct tforest *tf)
{
	struct tnode *t = tf->t;
	uint32_t nm = 0;

	for (uint32_t v = 0; v < tf->ns; v++)
		t[v].nchild = 0;
	for (uint32_t k = 0; k < tf->qt; k++)
		if (t[tf->order[k]].parent != RK_NONE)
			t[t[tf->order[k]].parent].nchild++;
	for (uint32_t v = 0; v < tf->ns; v++) {
		t[v].first_merge = nm;
		nm += t[v].nchild;
		t[v].nchild = 0;
	}
	for (uint32_t k = 0; k < tf->qt; k++) {
		uint32_t v = tf->order[k], p = t[v].parent;

		if (p != RK_NONE)
			tf->mg[t[p].first_merge + t[p].nchild++].child = v;
	}
}

/*
 * The tables, bottom up: f[s][n], the least cut below a switch on side s
 * with n units of devices on side A, its children merged in one at a time
 * (each merge keeping the table before it, for the witness).
 */
static void tf_tables(struct tforest *tf)
{
	struct tnode *t = tf->t;

	for (uint32_t k = tf->qt; k-- > 0;) {
		struct tnode *x = &t[tf->order[k]];
		uint32_t len = x->a + 1;

		for (int s = 0; s < 2; s++) {
			x->f[s] =
			    xmalloc(((size_t)x->sub + 1) * sizeof(int64_t));
			for (uint32_t i = 0; i < len; i++)
				x->f[s][i] = BIG;
		}
		x->f[0][x->a] = 0; /* side A: its devices count for N_A */
		x->f[1][0] = 0;
		for (uint32_t ci = 0; ci < x->nchild; ci++) {
			struct tmerge *m = &tf->mg[x->first_merge + ci];
			const struct tnode *ch = &t[m->child];
			uint32_t nlen = len + ch->sub;

			m->plen = len;
			for (int s = 0; s < 2; s++) {
				int64_t *nf;

				m->pre[s] =
				    xmalloc((size_t)len * sizeof(int64_t));
				memcpy(m->pre[s], x->f[s],
				       len * sizeof(int64_t));
				nf = x->f[s];
				for (uint32_t i = len; i < nlen; i++)
					nf[i] = BIG;
				for (uint32_t i = nlen; i-- > 0;) {
					int64_t b = BIG;
					int cs;

					for (uint32_t j = 0;
					     j <= ch->sub && j <= i; j++) {
						int64_t p, q;

						if (i - j >= len)
							continue;
						p = m->pre[s][i - j];
						q = tbest(ch, s, j, &cs);
						if (p < BIG && q < BIG &&
						    arith_capadd(p, q, BIG) < b)
							b = arith_capadd(p, q,
									 BIG);
					}
					nf[i] = b;
				}
			}
			len = nlen;
		}
	}
}

/* The roots combined so far (@acc, @alen entries) convolved with @r's
 * best side; the new length in *@alen. */
static int64_t *tf_convolve(const struct tnode *r, int64_t *acc, uint32_t *alen)
{
	uint32_t nlen = *alen + r->sub;
	int64_t *na = xmalloc((size_t)nlen * sizeof(*na));

	for (uint32_t i = 0; i < nlen; i++) {
		na[i] = BIG;
		for (uint32_t j = 0; j <= r->sub && j <= i; j++) {
			int64_t q =
			    r->f[0][j] < r->f[1][j] ? r->f[0][j] : r->f[1][j];

			if (i - j < *alen && acc[i - j] < BIG && q < BIG &&
			    acc[i - j] + q < na[i])
				na[i] = acc[i - j] + q;
		}
	}
	free(acc);
	*alen = nlen;
	return na;
}

/*
 * The roots combined (each root's best side, convolved, after the lone
 * switches), the best cut into *@best with the unbalance of devices
 * costing @c each, and the witness: the switches' sides, roots back to
 * front, then each tree.
 */
static uint8_t *tf_roots(const struct tforest *tf, int64_t c, int64_t *best)
{
	const struct tnode *t = tf->t;
	const uint32_t ns = tf->ns, nd = tf->nd, unit = tf->unit;
	const uint32_t kmin = nd / 2, kmax = nd - nd / 2;
	int64_t *acc = xmalloc(((size_t)nd / unit + 2) * sizeof(*acc));
	uint32_t alen, nroots = 0, bestn = 0;
	uint32_t *roots = xmalloc(((size_t)ns + 1) * sizeof(*roots));
	int64_t **pick = xmalloc(((size_t)ns + 1) * sizeof(*pick));
	uint32_t *pick_len = xmalloc(((size_t)ns + 1) * sizeof(*pick_len));
	uint8_t *sw_side;
	struct lone lo;

	*best = BIG;
	alen = lone_reach(t, ns, tf->seen, &lo, acc);
	for (uint32_t v = 0; v < ns; v++) {
		if (t[v].parent != RK_NONE || !tf->seen[v])
			continue;
		roots[nroots] = v;
		pick[nroots] = xmalloc((size_t)alen * sizeof(int64_t));
		memcpy(pick[nroots], acc, alen * sizeof(int64_t));
		pick_len[nroots++] = alen;
		acc = tf_convolve(&t[v], acc, &alen);
	}
	for (uint32_t i = 0; i < alen; i++) {
		uint64_t na_dev = (uint64_t)i * unit;
		uint64_t dist = na_dev < kmin	? kmin - na_dev
				: na_dev > kmax ? na_dev - kmax
						: 0;
		int64_t v;

		if (acc[i] >= BIG)
			continue;
		v = arith_capadd(acc[i], (int64_t)dist * c, BIG);
		if (v < *best) {
			*best = v;
			bestn = i;
		}
	}
	sw_side = xcalloc((size_t)ns + 1, 1);
	{
		int64_t target = acc[bestn];
		uint32_t i = bestn;

		for (uint32_t k = nroots; k-- > 0;) {
			const struct tnode *r = &t[roots[k]];
			uint32_t j;
			int s = 0;

			for (j = 0; j <= r->sub && j <= i; j++) {
				int64_t q;

				if (i - j >= pick_len[k] ||
				    pick[k][i - j] >= BIG)
					continue;
				s = r->f[0][j] < r->f[1][j] ? 0 : 1;
				q = r->f[s][j];
				if (q < BIG && pick[k][i - j] + q == target)
					break;
			}
			if (j > r->sub || j > i)
				BUG("bisection forest rebuilt to no value");
			tree_assign(t, tf->mg, roots[k], s, j, sw_side);
			target = pick[k][i - j];
			i -= j;
		}
		lone_assign(&lo, t, i, sw_side);
	}
	lone_free(&lo);
	for (uint32_t k = 0; k < nroots; k++)
		free(pick[k]);
	free(pick);
	free(pick_len);
	free(roots);
	free(acc);
	return sw_side;
}

/*
 * Devices follow their switch (@sw_side); then the fewest moves to
 * balance the @nd devices.
 */
static void tree_balance(const struct ng *n, uint32_t nd,
			 const uint8_t *sw_side, uint8_t *side)
{
	const uint32_t kmin = nd / 2, kmax = nd - nd / 2;
	uint32_t na = 0, want;

	for (uint32_t x = 0; x < nd; x++) {
		side[x] = sw_side[n->to[n->off[x]] - nd];
		na += side[x] == 1;
	}
	want = na < kmin ? kmin : na > kmax ? kmax : na;
	for (uint32_t x = 0; x < nd && na != want; x++) {
		if (na > want && side[x] == 1) {
			side[x] = 2;
			na--;
		} else if (na < want && side[x] == 2) {
			side[x] = 1;
			na++;
		}
	}
}

/* With @side NULL: only whether the programme would run (shape and work). */
bool bisect_tree_solve(const struct ng *n, int64_t *best, uint8_t *side)
{
	struct tforest tf = { .n = n, .nd = n->nd, .ns = n->nv - n->nd };
	const uint32_t ns = tf.ns;
	int64_t c;
	bool ok = false;

	if (ns == 0 || !tree_devices(n, tf.nd, &c))
		return false;
	tf.t = xcalloc((size_t)ns + 1, sizeof(*tf.t));
	tf.order = xmalloc(((size_t)ns + 1) * sizeof(*tf.order));
	tf.seen = xcalloc((size_t)ns + 1, 1);
	tf.mg = xcalloc((size_t)ns + 1, sizeof(*tf.mg));
	if (!tf_shape(&tf) || tf_work(&tf) > 100000000ull)
		goto out;
	ok = true;
	if (!side)
		goto out;
	tf_merges(&tf);
	tf_tables(&tf);
	{
		uint8_t *sw_side = tf_roots(&tf, c, best);

		tree_balance(n, tf.nd, sw_side, side);
		free(sw_side);
	}
out:
	for (uint32_t v = 0; v < ns; v++) {
		free(tf.t[v].f[0]);
		free(tf.t[v].f[1]);
	}
	for (uint32_t k = 0; k < ns; k++) {
		free(tf.mg[k].pre[0]);
		free(tf.mg[k].pre[1]);
	}
	free(tf.t);
	free(tf.mg);
	free(tf.order);
	free(tf.seen);
	return ok;
}
