/* SPDX-License-Identifier: MIT */
/*
 * Exact bisection with the sides of the hub switches enumerated and the
 * leaves placed by a knapsack over classes of equal leaves (BH_SWITCHES).
 */
#include "rackc.h"

#include <stdlib.h>

#include "bisect.h"
#include "arith.h"
#include "bisect_ng.h"

/*
 * A unit is a leaf switch with the devices that hang off it alone (all over
 * links of one capacity c), or a device whose neighbours are all hubs.
 * With the hubs' sides fixed, a leaf with k of its a devices on side A
 * costs min((a - k) c + hB, k c + hA) (leaf on A, or on B; hA, hB: its
 * capacity to the hubs on A, on B), a device on A costs hB and on B hA.
 * Both are concave in k, and the units are independent, so moving devices
 * between two partly split units is concave in the amount moved: some
 * optimum splits at most one unit.  The rest is a knapsack: which units go
 * wholly to A so that, with the split one, A holds exactly K devices.
 */
struct unit {
	uint32_t sw;	/* leaf switch, or RK_NONE for a device unit */
	uint32_t dev;	/* device unit: its device */
	uint32_t a;	/* devices */
	int64_t c;	/* leaf: capacity of each device's link */
	uint32_t first; /* leaf: its devices are ldev[first .. first+a) */
	int64_t hA, hB; /* for the hub sides at hand */
	uint32_t cls;	/* its class for the hub sides at hand */
};

struct ucls {
	uint32_t a, n;
	int64_t c, hA, hB, g0, ga;
	bool leaf;
};

static int64_t unit_g(const struct ucls *k, uint32_t x)
{
	int64_t on_a, on_b;

	if (!k->leaf)
		return x ? k->hB : k->hA;
	on_a = arith_capadd((int64_t)(k->a - x) * k->c, k->hB, BIG);
	on_b = arith_capadd((int64_t)x * k->c, k->hA, BIG);
	return on_a < on_b ? on_a : on_b;
}

struct hubs {
	const struct ng *n;
	uint32_t nh, *hub; /* hub index -> vertex */
	uint32_t *hub_of;  /* vertex -> hub index, RK_NONE */
	struct unit *units;
	uint32_t nu, *ldev; /* leaf devices, grouped by leaf */
	struct ucls *cls;
	uint32_t ncls;
	int64_t *dp0, *dp1;
	uint32_t kmax;
};

static int unit_key_cmp(const struct unit *x, const struct unit *y)
{
	bool lx = x->sw != RK_NONE, ly = y->sw != RK_NONE;

	if (lx != ly)
		return lx ? -1 : 1;
	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	if (x->c != y->c)
		return x->c < y->c ? -1 : 1;
	if (x->hA != y->hA)
		return x->hA < y->hA ? -1 : 1;
	if (x->hB != y->hB)
		return x->hB < y->hB ? -1 : 1;
	return 0;
}

static int unit_cmp(const void *a, const void *b)
{
	const struct unit *p = a, *q = b;
	int r = unit_key_cmp(p, q);
	uint32_t x = p->sw != RK_NONE ? p->sw : p->dev;
	uint32_t y = q->sw != RK_NONE ? q->sw : q->dev;

	return r ? r : (x < y ? -1 : x > y);
}

/* Hub sides from @mask (bit h set: hub h on side B): the hub-hub cut, each
 * unit's hA/hB and the classes. */
static int64_t hubs_sides(struct hubs *H, uint32_t mask)
{
	const struct ng *n = H->n;
	int64_t cut = 0;

	for (uint32_t h = 0; h < H->nh; h++) {
		uint32_t x = H->hub[h];

		for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++) {
			uint32_t y = n->to[i], g = H->hub_of[y];

			if (g != RK_NONE && g > h &&
			    ((mask >> h) & 1) != ((mask >> g) & 1))
				cut = arith_capadd(cut, n->c[i], BIG);
		}
	}
	for (uint32_t k = 0; k < H->nu; k++) {
		struct unit *u = &H->units[k];
		uint32_t x = u->sw != RK_NONE ? u->sw : u->dev;

		u->hA = u->hB = 0;
		for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++) {
			uint32_t g = H->hub_of[n->to[i]];

			if (g == RK_NONE)
				continue;
			if ((mask >> g) & 1)
				u->hB = arith_capadd(u->hB, n->c[i], BIG);
			else
				u->hA = arith_capadd(u->hA, n->c[i], BIG);
		}
	}
	qsort(H->units, H->nu, sizeof(*H->units), unit_cmp);
	H->ncls = 0;
	for (uint32_t k = 0; k < H->nu; k++) {
		struct unit *u = &H->units[k];
		struct ucls *c;

		if (!k || unit_key_cmp(u, &H->units[k - 1])) {
			c = &H->cls[H->ncls++];
			c->a = u->a;
			c->n = 0;
			c->c = u->c;
			c->hA = u->hA;
			c->hB = u->hB;
			c->leaf = u->sw != RK_NONE;
			c->g0 = unit_g(c, 0);
			c->ga = unit_g(c, c->a);
		}
		H->cls[H->ncls - 1].n++;
		u->cls = H->ncls - 1;
	}
	return cut;
}

/*
 * The knapsack: dp0[t] / dp1[t] = least extra cost (over every unit wholly
 * on B) with t devices on A, without / with the one split unit.  With
 * @choice (steps x (kmax + 1) entries) the choices are kept for
 * hubs_rebuild.  Returns false if the work is over budget.
 */
#define CH_TAKE0 1u
#define CH_TAKE1 2u
static void dp_item(struct hubs *H, uint32_t size, int64_t cost, uint32_t *ch)
{
	for (uint32_t t = H->kmax + 1; t-- > size;) {
		uint32_t w = 0;

		if (H->dp1[t - size] < BIG &&
		    arith_capadd(H->dp1[t - size], cost, BIG) < H->dp1[t]) {
			H->dp1[t] = arith_capadd(H->dp1[t - size], cost, BIG);
			w |= CH_TAKE1;
		}
		if (H->dp0[t - size] < BIG &&
		    arith_capadd(H->dp0[t - size], cost, BIG) < H->dp0[t]) {
			H->dp0[t] = arith_capadd(H->dp0[t - size], cost, BIG);
			w |= CH_TAKE0;
		}
		if (ch)
			ch[t] = w;
	}
	if (ch)
		for (uint32_t t = 0; t < size && t <= H->kmax; t++)
			ch[t] = 0;
}

/* The special unit of a class: whole (0 or a) or, into dp1, split. */
static void dp_special(struct hubs *H, const struct ucls *k, uint32_t *ch)
{
	int64_t delta = k->ga - k->g0;

	for (uint32_t t = H->kmax + 1; t-- > 0;) {
		int64_t best = H->dp1[t];
		uint32_t w = 0;

		if (t >= k->a && H->dp1[t - k->a] < BIG &&
		    H->dp1[t - k->a] + delta < best) {
			best = H->dp1[t - k->a] + delta;
			w = 1;
		}
		for (uint32_t x = 1; k->leaf && x < k->a && x <= t; x++)
			if (H->dp0[t - x] < BIG &&
			    H->dp0[t - x] + unit_g(k, x) - k->g0 < best) {
				best = H->dp0[t - x] + unit_g(k, x) - k->g0;
				w = 2 + x;
			}
		H->dp1[t] = best;
		if (ch)
			ch[t] = w << 1;
	}
	for (uint32_t t = H->kmax + 1; t-- > k->a;)
		if (H->dp0[t - k->a] < BIG &&
		    H->dp0[t - k->a] + delta < H->dp0[t]) {
			H->dp0[t] = H->dp0[t - k->a] + delta;
			if (ch)
				ch[t] |= 1;
		}
}

/* Steps of the knapsack for the classes at hand. */
static uint32_t dp_steps(const struct hubs *H)
{
	uint32_t s = 0;

	for (uint32_t c = 0; c < H->ncls; c++) {
		uint32_t left = H->cls[c].n - 1;

		for (uint32_t q = 1; left; q *= 2) {
			uint32_t take = q < left ? q : left;

			left -= take;
			s++;
		}
		s++;
	}
	return s;
}

/* Run the knapsack; @ch: NULL, or dp_steps() rows of kmax + 1. */
static void dp_run(struct hubs *H, uint32_t *ch)
{
	uint32_t step = 0, row = H->kmax + 1;

	for (uint32_t t = 0; t <= H->kmax; t++)
		H->dp0[t] = H->dp1[t] = BIG;
	H->dp0[0] = 0;
	for (uint32_t c = 0; c < H->ncls; c++) {
		const struct ucls *k = &H->cls[c];
		uint32_t left = k->n - 1;

		for (uint32_t q = 1; left; q *= 2) {
			uint32_t take = q < left ? q : left;

			left -= take;
			if ((uint64_t)take * k->a <= H->kmax)
				dp_item(H, take * k->a, (k->ga - k->g0) * take,
					ch ? ch + (size_t)step * row : NULL);
			else if (ch)
				memset(ch + (size_t)step * row, 0,
				       row * sizeof(*ch));
			step++;
		}
		dp_special(H, k, ch ? ch + (size_t)step * row : NULL);
		step++;
	}
}

/* The sides of the devices for the knapsack's choices, walking back. */
static void hubs_rebuild(struct hubs *H, const uint32_t *ch, uint32_t t,
			 bool flag, uint8_t *side)
{
	uint32_t row = H->kmax + 1, step = dp_steps(H);
	uint32_t *full = xcalloc((size_t)H->ncls + 1, sizeof(*full));
	uint32_t split_cls = RK_NONE, split_k = 0;

	for (uint32_t c = H->ncls; c-- > 0;) {
		const struct ucls *k = &H->cls[c];
		uint32_t left = k->n - 1, nq = 0, qs[40];

		for (uint32_t q = 1; left; q *= 2) {
			qs[nq] = q < left ? q : left;
			left -= qs[nq++];
		}
		/* the special unit came last */
		{
			uint32_t w = ch[(size_t)--step * row + t];
			uint32_t s1 = w >> 1;

			if (!flag) {
				if (w & 1) {
					full[c]++;
					t -= k->a;
				}
			} else if (s1 == 1) {
				full[c]++;
				t -= k->a;
			} else if (s1 >= 2) {
				split_cls = c;
				split_k = s1 - 2;
				t -= split_k;
				flag = false;
			}
		}
		while (nq-- > 0) {
			uint32_t w = ch[(size_t)--step * row + t];

			if (w & (flag ? CH_TAKE1 : CH_TAKE0)) {
				full[c] += qs[nq];
				t -= qs[nq] * k->a;
			}
		}
	}
	if (t != 0)
		BUG("bisection knapsack rebuilt to a wrong count");
	for (uint32_t i = 0; i < H->nu; i++) {
		const struct unit *u = &H->units[i];
		uint32_t on_a = 0;

		if (full[u->cls]) {
			full[u->cls]--;
			on_a = u->a;
		} else if (u->cls == split_cls) {
			split_cls = RK_NONE;
			on_a = split_k;
		}
		if (u->sw == RK_NONE) {
			side[u->dev] = on_a ? 1 : 2;
			continue;
		}
		for (uint32_t j = 0; j < u->a; j++)
			side[H->ldev[u->first + j]] = j < on_a ? 1 : 2;
	}
	free(full);
}

/* Sum over the units' distinct profiles (size, rate, capacity to each
 * hub) of 40 + size: a bound on a pattern's knapsack rows, per entry. */
static uint64_t unit_profiles(const struct hubs *H)
{
	const struct ng *n = H->n;
	struct hent *k = xmalloc(((size_t)H->nu + 1) * sizeof(*k));
	uint64_t sum = 0;

	for (uint32_t q = 0; q < H->nu; q++) {
		const struct unit *u = &H->units[q];
		uint32_t x = u->sw != RK_NONE ? u->sw : u->dev;
		uint64_t h = hash_mix64((uint64_t)u->c ^ (u->sw != RK_NONE));

		for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++)
			if (H->hub_of[n->to[i]] != RK_NONE)
				h = hash_mix64(h ^ (uint64_t)n->c[i] ^
					       (uint64_t)H->hub_of[n->to[i]]
						   << 44);
		k[q] = (struct hent){ h, u->a };
	}
	qsort(k, H->nu, sizeof(*k), bng_hent_cmp);
	for (uint32_t q = 0; q < H->nu; q++)
		if (!q || bng_hent_cmp(&k[q], &k[q - 1]))
			sum += 40 + k[q].x;
	free(k);
	return sum;
}

/*
 * Leaf candidates: switches whose devices hang off them alone, over links
 * of one capacity (in @lcap), and that no other leaf touches; @leafc is 2
 * for each leaf kept.
 */
static void hubs_leaves(const struct ng *n, uint32_t *leafc, int64_t *lcap)
{
	for (uint32_t s = n->nd; s < n->nv; s++) {
		bool cand = false;

		for (uint32_t i = n->off[s]; i < n->off[s + 1]; i++) {
			uint32_t x = n->to[i];

			if (x >= n->nd)
				continue;
			if (n->off[x + 1] - n->off[x] != 1 ||
			    (cand && n->c[i] != lcap[s])) {
				cand = false;
				lcap[s] = -1;
				break;
			}
			cand = true;
			lcap[s] = n->c[i];
		}
		leafc[s] = cand;
	}
	for (uint32_t s = n->nd; s < n->nv; s++) {
		if (!leafc[s])
			continue;
		for (uint32_t i = n->off[s]; i < n->off[s + 1]; i++)
			if (n->to[i] >= n->nd && leafc[n->to[i]] == 2) {
				leafc[s] = 0;
				break;
			}
		if (leafc[s])
			leafc[s] = 2; /* kept */
	}
}

/* The hubs: the switches that are not leaves kept, numbered in order. */
static void hubs_number(struct hubs *H, const uint32_t *leafc)
{
	const struct ng *n = H->n;

	H->hub_of = xmalloc((size_t)n->nv * sizeof(*H->hub_of));
	H->hub = xmalloc(((size_t)n->nv + 1) * sizeof(*H->hub));
	for (uint32_t x = 0; x < n->nv; x++) {
		H->hub_of[x] = RK_NONE;
		if (x >= n->nd && leafc[x] != 2) {
			H->hub_of[x] = H->nh;
			H->hub[H->nh++] = x;
		}
	}
}

/* The units: each leaf kept with its devices, then each device on none. */
static void hubs_units(struct hubs *H, const uint32_t *leafc,
		       const int64_t *lcap)
{
	const struct ng *n = H->n;
	uint32_t *nsw = xcalloc((size_t)n->nv + 1, sizeof(*nsw));
	uint32_t nleaf = 0;

	H->units = xmalloc(((size_t)n->nv + 1) * sizeof(*H->units));
	H->ldev = xmalloc(((size_t)n->nd + 1) * sizeof(*H->ldev));
	for (uint32_t s = n->nd; s < n->nv; s++) {
		struct unit *u;

		if (leafc[s] != 2)
			continue;
		u = &H->units[H->nu++];
		memset(u, 0, sizeof(*u));
		u->sw = s;
		u->c = lcap[s];
		u->first = nleaf;
		for (uint32_t i = n->off[s]; i < n->off[s + 1]; i++)
			if (n->to[i] < n->nd) {
				H->ldev[nleaf++] = n->to[i];
				u->a++;
				nsw[n->to[i]] = 1;
			}
	}
	for (uint32_t x = 0; x < n->nd; x++) {
		struct unit *u;

		if (nsw[x])
			continue;
		u = &H->units[H->nu++];
		memset(u, 0, sizeof(*u));
		u->sw = RK_NONE;
		u->dev = x;
		u->a = 1;
	}
	free(nsw);
}

/*
 * Work: every hub side pattern costs a pass over the units and the
 * knapsack, a row of kmax + 1 per class of units and about the class's
 * size more for its split unit; units alike (size, rate and capacity to
 * each hub) share a class whatever the sides, so their profiles bound the
 * classes.  Whether it is small enough (the bound is loose: 4e9 of it
 * takes about a second).
 */
static bool hubs_affordable(const struct hubs *H)
{
	uint64_t work = ((uint64_t)1 << (H->nh ? H->nh - 1 : 0)) *
			((uint64_t)H->n->ne + (uint64_t)H->nu * 16 +
			 (uint64_t)(H->kmax + 1) * unit_profiles(H));

	return work <= 4000000000ull;
}

/* The best hub side pattern and the knapsack's count and flag in it. */
struct hub_best {
	int64_t cut;
	uint32_t mask, t;
	bool flag;
};

/*
 * Every hub side pattern with hub 0 on A (the other half mirror these),
 * the knapsack over the units' classes for each: the least cut into @b.
 * False when a pattern's knapsack would take too long.
 */
static bool hubs_search(struct hubs *H, uint32_t kmin, struct hub_best *b)
{
	const uint32_t kmax = H->kmax;

	b->cut = BIG;
	for (uint32_t mask = 0; mask < (1u << H->nh); mask += 2) {
		int64_t base, cut = hubs_sides(H, mask);
		uint64_t steps = 0;

		for (uint32_t c = 0; c < H->ncls; c++)
			steps += 40 + H->cls[c].a;
		if (steps * (kmax + 1) > 200000000ull)
			return false;
		base = cut;
		for (uint32_t c = 0; c < H->ncls; c++)
			base = arith_capadd(
			    base, (int64_t)H->cls[c].n * H->cls[c].g0, BIG);
		dp_run(H, NULL);
		for (uint32_t t = kmin; t <= kmax; t++)
			for (int f = 0; f < 2; f++) {
				int64_t v = f ? H->dp1[t] : H->dp0[t];

				if (v >= BIG ||
				    arith_capadd(base, v, BIG) >= b->cut)
					continue;
				b->cut = arith_capadd(base, v, BIG);
				b->mask = mask;
				b->t = t;
				b->flag = f;
			}
		if (H->nh == 0)
			break;
	}
	return true;
}

/* The best pattern's knapsack again, keeping the choices, for the
 * witness in @side; false when the table would be too large. */
static bool hubs_witness(struct hubs *H, const struct hub_best *b,
			 uint8_t *side)
{
	uint32_t *ch;
	uint64_t cells;

	hubs_sides(H, b->mask);
	cells = (uint64_t)dp_steps(H) * (H->kmax + 1);
	if (cells > 100000000ull)
		return false;
	ch = xmalloc((size_t)(cells + 1) * sizeof(*ch));
	dp_run(H, ch);
	hubs_rebuild(H, ch, b->t, b->flag, side);
	free(ch);
	return true;
}

/*
 * Returns true with the exact value in *@best and a witness in @side, or
 * false when the graph has no such shape or is too large for it.
 */
bool bisect_hubs_solve(const struct ng *n, int64_t *best, uint8_t *side)
{
	struct hubs H;
	struct hub_best b = { 0 };
	uint32_t *leafc, kmin = n->nd / 2, kmax = n->nd - n->nd / 2;
	int64_t *lcap;
	bool ok = false;

	memset(&H, 0, sizeof(H));
	H.n = n;
	/* devices: no device-device links */
	for (uint32_t x = 0; x < n->nd; x++)
		for (uint32_t i = n->off[x]; i < n->off[x + 1]; i++)
			if (n->to[i] < n->nd)
				return false;
	leafc = xcalloc((size_t)n->nv + 1, sizeof(*leafc));
	lcap = xcalloc((size_t)n->nv + 1, sizeof(*lcap));
	hubs_leaves(n, leafc, lcap);
	hubs_number(&H, leafc);
	H.kmax = kmax;
	if (H.nh <= BISECT_MAX_HUBS) {
		hubs_units(&H, leafc, lcap);
		ok = hubs_affordable(&H);
	}
	if (ok) {
		H.cls = xmalloc(((size_t)H.nu + 1) * sizeof(*H.cls));
		H.dp0 = xmalloc(((size_t)kmax + 1) * sizeof(*H.dp0));
		H.dp1 = xmalloc(((size_t)kmax + 1) * sizeof(*H.dp1));
		ok = hubs_search(&H, kmin, &b);
		*best = b.cut;
	}
	ok = ok && hubs_witness(&H, &b, side);
	free(leafc);
	free(lcap);
	free(H.hub_of);
	free(H.hub);
	free(H.units);
	free(H.ldev);
	free(H.cls);
	free(H.dp0);
	free(H.dp1);
	return ok;
}
