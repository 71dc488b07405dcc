/* SPDX-License-Identifier: MIT */
/*
 * Fat trees of three and four tiers built as complete trees with leaves
 * missing: `tiers 3` (by default when the leaves outgrow a spine's ports),
 * `tiers 4` (or by default when they make more pods than a three-tier
 * core reaches), and every plane of a multi-plane fabric.  With spine
 * switches of R fabric ports and h = R/2:
 *
 *   pods      h leaves each, in leaf order (unit by unit: leaf s*rails + r
 *             of unit s), so that added units fill the last pod and then
 *             open new ones; every pod with leaves gets U spines (h ports
 *             down, h up), uplink j of its k-th leaf going to its spine j
 *             on port k (grown out of two tiers, the first pod's leaves
 *             keep their two-tier spines and ports: first_pod());
 *   3 tiers   P pods (at most R); C = ceil(U*h / floor(R/P)) cores of R
 *             ports down, the fewest that take every pod alike (see
 *             uppers(); `core_growth double`: sized to double as the pods
 *             do), the i-th spine of every pod wired alike to them;
 *   4 tiers   groups of h pods (the first built as if full); every
 *             group gets C = h*U cores (h ports down, h up), uplink j of
 *             the group's k-th spine going to its core (k*h + j) mod C;
 *             over G groups (at most R), T top switches (as C above,
 *             over G groups of C*h uplinks), the i-th core of every
 *             group wired alike to them.
 *
 * So every switch of a tier sees every unit below it (pod, group) alike,
 * and the last pod and group are built as if full (their spines and cores
 * have ports left down): the tree keeps the complete tree's bisection for
 * the leaves it has.  Switches are named FABRIC.spine[i], .core[i] and
 * .top[i] (role spine, core, top); cores and top switches are placed by
 * place_cores.  Links are added tier by tier.
 *
 * Growth.  A leaf's pod, its spines and ports are functions of the leaf
 * and the uplink, so added units only add leaf-spine cables (out of two
 * tiers, those the split into pods forces move), and a
 * group's spine-core cables never move.  Above that the uplinks are
 * wired as if the pods (four tiers: the groups) had been added one at a
 * time, the core (top) count growing with them: wire_filled() moves only
 * the spine-core (core-top) cables any tree of the new size must move
 * (`core_growth double`: fabric_deal_uplinks() of src/fabric/fabric.c, round robin over
 * the doubling counts, each step keeping every cable the new spread
 * allows).  With `final_sus N` the tree is sized for N units (P, C, G, T
 * of the final size) and dealt round robin: growing up to N only adds
 * pods, spines and cables, and the places and names of the spines and
 * cores still to come are held.
 */
#include "rackc.h"

#include <stdlib.h>

#include "fabric.h"
#include "fabric_gen.h"

/* ceil(a/b) */
static uint32_t cdiv(uint64_t a, uint32_t b)
{
	return (uint32_t)((a + b - 1) / b);
}

/* the largest power of two at most @n (>= 1) */
static uint32_t pow2_floor(uint32_t n)
{
	uint32_t q = 1;

	while (q <= n / 2)
		q *= 2;
	return q;
}

/*
 * Upper switches of R ports over @units units of @need uplinks each, every
 * unit alike: the fewest whose ports take every unit's share,
 * ceil(need / floor(R/units)); with @dbl (`core_growth double`),
 * ceil(need / q1) * (q1 / q), q1 and q the largest powers of two at most
 * R and floor(R/units): doubling as the units do, so that each lower
 * switch's uplinks on an upper switch only ever split as units are added.
 */
static uint32_t uppers(uint64_t need, uint32_t R, uint32_t units, bool dbl)
{
	uint32_t q1 = pow2_floor(R);

	if (!dbl)
		return cdiv(need, R / units);
	return cdiv(need, q1) * (q1 / pow2_floor(R / units));
}

/* Make @n switches of @tier into @sw (from name index @base). */
static bool make(struct elab *e, const struct ft_build *b, const char *tier,
		 uint32_t n, uint32_t *sw, struct placer *pl)
{
	uint32_t role = intern_cstr(e->a, tier);

	for (uint32_t i = 0; i < n && !e->stopped; i++)
		if ((sw[i] = fabric_new_switch(e, b->fab, tier,
					       fabric_ft_name(b->fp, i), b->spw,
					       role, pl)) == RK_NONE)
			return false;
	return !e->stopped;
}

/*
 * The first pod of a tree grown out of two tiers (b->grown: the default
 * tiers, no final_sus).  The largest two-tier tree, M = floor(R / rails)
 * units of n = M*rails leaves (the default has two tiers while the
 * leaves are at most R), has S = Uf spines: ceil(n*Uf/R) raised to a
 * divisor of Uf, where n > R/2 = h (n > R - rails >= h when rails <= h,
 * else n = rails > h) makes it more than Uf/2, so Uf.  Each of its
 * leaves sends one uplink to each spine, and its first h leaves, the
 * first pod, reach every spine once: a pod.  So the first pod's leaf k
 * sends uplink j < Uf to the spine and port the two-tier deal gives it
 * there (s[k*Uf + j], q[k*Uf + j]; the spines spine[0 .. Uf-1], the
 * first pod's), and that spine's uplinks to the tier above take the
 * ports its downlinks leave free, in order (up[x*h + i]).  Growing out of
 * two tiers then keeps every cable of the first pod's leaves that the
 * two-tier growth had kept (doc/language.md, "Growth (two tiers to
 * three)").
 * n: Uf, or 0 where the plain rule holds (not grown; a deal that is not
 * such a pod, which the above rules out).
 */
struct first_pod {
	uint32_t *s, *q, *up;
	uint32_t n;
};

static void first_pod(const struct ft_build *b, struct first_pod *f)
{
	const uint32_t R = b->sp->n, h = R / 2, Uf = b->Uf;
	const uint32_t M = R / b->nrails, n = M * b->nrails;
	uint32_t *mark;
	uint8_t *used;
	bool ok;

	memset(f, 0, sizeof(*f));
	if (!b->grown || !M || n <= h || !Uf || Uf > b->U)
		return;
	f->s = xmalloc(((size_t)n * Uf + 1) * sizeof(*f->s));
	f->q = xmalloc(((size_t)n * Uf + 1) * sizeof(*f->q));
	f->up = xmalloc(((size_t)Uf * h + 1) * sizeof(*f->up));
	mark = xcalloc((size_t)Uf + 1, sizeof(*mark));
	used = xcalloc((size_t)Uf * R + 1, 1);
	ok = fabric_deal_two_tier(M, b->nrails, Uf, R, 0, f->s, f->q) == Uf;
	/* every leaf of the pod on every spine once */
	for (uint32_t k = 0; k < h && ok; k++)
		for (uint32_t j = 0; j < Uf && ok; j++) {
			uint32_t x = f->s[(size_t)k * Uf + j];
			uint32_t q = f->q[(size_t)k * Uf + j];

			ok = x < Uf && mark[x] != k + 1 && q < R &&
			     !used[(size_t)x * R + q];
			if (ok) {
				mark[x] = k + 1;
				used[(size_t)x * R + q] = 1;
			}
		}
	for (uint32_t x = 0; x < Uf && ok; x++)
		for (uint32_t p = 0, i = 0; p < R && i < h; p++)
			if (!used[(size_t)x * R + p])
				f->up[(size_t)x * h + i++] = p;
	free(mark);
	free(used);
	if (ok) {
		f->n = Uf;
		return;
	}
	free(f->s);
	free(f->q);
	free(f->up);
	memset(f, 0, sizeof(*f));
}

/* The port (index into sp) of uplink @i of lower switch @x: h + i, or in
 * @f's first pod the @i-th its downlinks leave free. */
static uint32_t up_port(const struct first_pod *f, uint32_t x, uint32_t i,
			uint32_t h)
{
	return f && x < f->n ? f->up[(size_t)x * h + i] : h + i;
}

/*
 * Wire @dl's lower switches @lo (their uplinks: spine ports h..R-1, or
 * those @f gives its first pod's spines) to the upper switches @hi, dealt
 * growth-stably; a port of @hi is sp[q].
 */
static void wire_dealt(struct elab *e, const struct ft_build *b,
		       const struct deal *dl, const uint32_t *lo,
		       const uint32_t *hi, const struct first_pod *f)
{
	const uint32_t *sp = b->sp->ports, h = b->sp->n / 2;
	size_t n = (size_t)dl->units * dl->per * dl->up;
	uint32_t *up_s = xmalloc((n + 1) * sizeof(*up_s));
	uint32_t *up_p = xmalloc((n + 1) * sizeof(*up_p));

	fabric_deal_uplinks(dl, up_s, up_p);
	for (size_t k = 0; k < n && !e->stopped; k++)
		fabric_add_link(e, b->fab, lo[k / dl->up],
				sp[up_port(f, (uint32_t)(k / dl->up),
					   (uint32_t)(k % dl->up), h)],
				hi[up_s[k]], sp[up_p[k]]);
	free(up_s);
	free(up_p);
}

/*
 * Of the entries @eu[0..nu) on one upper switch (RK_NONE: taken off), the
 * one to take off: the youngest, then the one whose lower switch has most
 * uplinks there (@lc: the entries still there per lower switch, i / h),
 * then the highest.
 */
static uint32_t youngest(const uint32_t *eu, uint32_t nu, const uint32_t *age,
			 const uint32_t *lc, uint32_t h)
{
	uint32_t best = RK_NONE, bs = 0;

	for (uint32_t a = 0; a < nu; a++) {
		uint32_t i = eu[a], sc;

		if (i == RK_NONE)
			continue;
		sc = lc[i / h];
		if (best == RK_NONE || age[i] > age[best] ||
		    (age[i] == age[best] &&
		     (sc > bs || (sc == bs && i > best)))) {
			best = i;
			bs = sc;
		}
	}
	return best;
}

/* What wire_filled()'s steps share: the pattern as the units are added. */
struct wfill {
	uint32_t R, h, N;    /* upper switch ports, uplinks, entries per unit */
	uint32_t S, k;	     /* upper switches in use, units so far */
	uint32_t *pat, *age; /* per entry: upper switch, unit it moved at */
	uint32_t *cnt, *want, *off, *hint; /* per upper switch */
	uint32_t *ent, *rm, *was, nrm;	   /* entries taken off, and from */
	uint32_t *port;			   /* per unit and entry */
	uint8_t *occ;			   /* per upper switch port */
	uint32_t *lc;			   /* per lower switch */
};

/*
 * Each upper switch holding more than @m gives up what is over, youngest
 * first (youngest()), into rm (the entries) and was (their switches).
 */
static void wf_take_over(struct wfill *w, uint32_t m)
{
	const uint32_t N = w->N, S = w->S, h = w->h;
	uint32_t *off = w->off, *ent = w->ent, *cnt = w->cnt, *lc = w->lc;

	/* the entries by upper switch */
	memset(off, 0, ((size_t)S + 2) * sizeof(*off));
	for (uint32_t i = 0; i < N; i++)
		off[w->pat[i] + 2]++;
	for (uint32_t u = 0; u < S; u++)
		off[u + 2] += off[u + 1];
	for (uint32_t i = 0; i < N; i++)
		ent[off[w->pat[i] + 1]++] = i;
	w->nrm = 0;
	for (uint32_t u = 0; u < S; u++) {
		uint32_t *eu = ent + off[u], nu = cnt[u];

		if (cnt[u] <= m)
			continue;
		for (uint32_t a = 0; a < nu; a++)
			lc[eu[a] / h]++;
		while (cnt[u] > m) {
			uint32_t best = youngest(eu, nu, w->age, lc, h);

			for (uint32_t a = 0; a < nu; a++)
				if (eu[a] == best)
					eu[a] = RK_NONE;
			lc[best / h]--;
			w->was[w->nrm] = u;
			w->rm[w->nrm++] = best;
			cnt[u]--;
		}
		for (uint32_t a = 0; a < nu; a++)
			if (eu[a] != RK_NONE)
				lc[eu[a] / h] = 0;
	}
}

/* What was taken off in entry order, so that a lower switch's cables
 * taken off go round the switches one by one. */
static void wf_entry_order(struct wfill *w)
{
	uint32_t *ent = w->ent;

	for (uint32_t i = 0; i < w->N; i++)
		ent[i] = RK_NONE;
	for (uint32_t r = 0; r < w->nrm; r++)
		ent[w->rm[r]] = w->was[r];
	w->nrm = 0;
	for (uint32_t i = 0; i < w->N; i++)
		if (ent[i] != RK_NONE) {
			w->was[w->nrm] = ent[i];
			w->rm[w->nrm++] = i;
		}
}

/*
 * What was taken off onto @Sn upper switches of at most @m each: water
 * filling (the level every switch is raised to, then one more each, in
 * order, for what is left), dealt round the switches.
 */
static void wf_refill(struct wfill *w, uint32_t Sn, uint32_t m)
{
	uint32_t *cnt = w->cnt, *want = w->want, lvl = 0, got = 0;

	for (uint32_t u = w->S; u < Sn; u++)
		cnt[u] = 0;
	w->S = Sn;
	for (;;) {
		uint64_t need = 0;

		for (uint32_t u = 0; u < w->S; u++)
			need += cnt[u] <= lvl ? lvl + 1 - cnt[u] : 0;
		if (lvl >= m || need > w->nrm)
			break;
		lvl++;
	}
	for (uint32_t u = 0; u < w->S; u++) {
		want[u] = cnt[u] < lvl ? lvl - cnt[u] : 0;
		got += want[u];
	}
	for (uint32_t u = 0; u < w->S && got < w->nrm; u++)
		if (cnt[u] + want[u] == lvl && lvl < m) {
			want[u]++;
			got++;
		}
	/* deal what was taken off round the switches */
	for (uint32_t r = 0, u = 0; r < w->nrm; u = (u + 1) % w->S)
		if (want[u]) {
			want[u]--;
			w->pat[w->rm[r]] = u;
			w->age[w->rm[r++]] = w->k;
			cnt[u]++;
		}
}

/* Upper switch @u's lowest free port from its hint on, taken. */
static uint32_t wf_port(struct wfill *w, uint32_t u)
{
	uint32_t q = w->hint[u];

	while (w->occ[(size_t)u * w->R + q])
		q++;
	w->occ[(size_t)u * w->R + q] = 1;
	w->hint[u] = q + 1;
	return q;
}

/* The old units' moved cables: off their ports, then onto the lowest
 * free ones. */
static void wf_move_ports(struct wfill *w)
{
	const uint32_t N = w->N;

	for (uint32_t p = 0; p + 1 < w->k; p++)
		for (uint32_t r = 0; r < w->nrm; r++) {
			uint32_t u = w->was[r],
				 q = w->port[(size_t)p * N + w->rm[r]];

			w->occ[(size_t)u * w->R + q] = 0;
			if (q < w->hint[u])
				w->hint[u] = q;
		}
	for (uint32_t p = 0; p + 1 < w->k; p++)
		for (uint32_t r = 0; r < w->nrm; r++)
			w->port[(size_t)p * N + w->rm[r]] =
			    wf_port(w, w->pat[w->rm[r]]);
}

/*
 * The uplinks of @units units of @per lower switches (h uplinks each, on
 * spine ports h..R-1) to the upper switches @hi, built as if the units had
 * been added one at a time, without final_sus.  Every unit is wired alike:
 * a pattern gives uplink j of a unit's x-th switch (entry i = x*h + j) its
 * upper switch.  With k units an upper switch takes at most m_k =
 * floor(R/k) cables of each unit, and there are S_k = ceil(per*h / m_k)
 * (the fewest).  At one unit the pattern is the round robin, entry i on
 * switch i mod S_1.  When m falls, each upper switch holding more than m
 * gives up what is over (youngest first, then from the lower switch with
 * most uplinks there), which any tree of k units must, and what is taken
 * off fills the upper switches holding least, new ones first (water
 * filling, in entry order, one at a time round the switches).  So a
 * switch's count only rises until it is first over m, and then only
 * falls, by what m forces:
 * from a units to b, exactly sum over old switches u of max(0, c_a(u) -
 * m_b) cables of each old unit move (c_a(u): a unit's cables on u), each
 * kept cable on its port (doc/language.md, "Growth (three and four
 * tiers)").  A lower switch's uplink ports are as in wire_dealt().
 */
static void wire_filled(struct elab *e, const struct ft_build *b,
			uint32_t units, uint32_t per, const uint32_t *lo,
			const uint32_t *hi, const struct first_pod *f)
{
	const uint32_t *sp = b->sp->ports, R = b->sp->n, h = R / 2;
	const uint32_t N = per * h, Smax = cdiv(N, R / units);
	struct wfill w = { .R = R, .h = h, .N = N };
	uint32_t mprev = 0;

	w.pat = xmalloc(((size_t)N + 1) * sizeof(*w.pat));
	w.age = xmalloc(((size_t)N + 1) * sizeof(*w.age));
	w.cnt = xcalloc((size_t)Smax + 1, sizeof(*w.cnt));
	w.want = xcalloc((size_t)Smax + 1, sizeof(*w.want));
	w.off = xcalloc((size_t)Smax + 2, sizeof(*w.off));
	w.ent = xmalloc(((size_t)N + 1) * sizeof(*w.ent));
	w.rm = xmalloc(((size_t)N + 1) * sizeof(*w.rm));
	w.was = xmalloc(((size_t)N + 1) * sizeof(*w.was));
	w.hint = xcalloc((size_t)Smax + 1, sizeof(*w.hint));
	w.port = xmalloc(((size_t)units * N + 1) * sizeof(*w.port));
	w.occ = xcalloc((size_t)Smax * R + 1, 1);
	w.lc = xcalloc((size_t)per + 1, sizeof(*w.lc));
	for (w.k = 1; w.k <= units; w.k++) {
		uint32_t m = R / w.k;

		if (w.k == 1) {
			/* the round robin */
			w.S = cdiv(N, m);
			for (uint32_t i = 0; i < N; i++) {
				w.pat[i] = i % w.S;
				w.age[i] = 1;
				w.cnt[w.pat[i]]++;
			}
		} else if (m < mprev) {
			wf_take_over(&w, m);
			wf_entry_order(&w);
			wf_refill(&w, cdiv(N, m), m);
			wf_move_ports(&w);
		}
		mprev = m;
		/* the new unit, on the lowest free ports */
		for (uint32_t i = 0; i < N; i++)
			w.port[(size_t)(w.k - 1) * N + i] =
			    wf_port(&w, w.pat[i]);
	}
	for (uint32_t p = 0; p < units; p++)
		for (uint32_t i = 0; i < N; i++)
			fabric_add_link(
			    e, b->fab, lo[(size_t)p * per + i / h],
			    sp[up_port(f, p * per + i / h, i % h, h)],
			    hi[w.pat[i]], sp[w.port[(size_t)p * N + i]]);
	free(w.pat);
	free(w.age);
	free(w.cnt);
	free(w.want);
	free(w.off);
	free(w.ent);
	free(w.rm);
	free(w.was);
	free(w.hint);
	free(w.port);
	free(w.occ);
	free(w.lc);
}

void fabric_gen_upper_tiers(struct elab *e, const struct ft_build *b)
{
	const struct rk_design *d = e->d;
	const uint32_t *sp = b->sp->ports, R = b->sp->n, h = R / 2;
	uint32_t L = b->L, Lf = b->Lf, U = b->U;
	uint32_t pods = cdiv(L, h), podsf = cdiv(Lf, h);
	uint32_t groups = cdiv(pods, h), groupsf = cdiv(podsf, h);
	bool tight = b->provisioned;
	const char *cg = ir_str(d, b->fab, A_CORE_GROWTH);
	bool dbl = !tight && cg && streq(cg, "double");
	uint32_t S = pods * U, CG = h * U; /* a group's cores, as if full */
	uint32_t C, T = 0, *sk = NULL;
	uint32_t *spine = NULL, *core = NULL, *top = NULL;
	struct deal dl;
	struct first_pod f;

	if (b->tiers == 3 ? podsf > R : groupsf > R) {
		elab_error(e, b->loc, "fabric",
			   "%u leaves make %u %s, more than a %u-port %s "
			   "switch can reach: the fabric is beyond %s tiers of "
			   "'%s' (%s)",
			   Lf, b->tiers == 3 ? podsf : groupsf,
			   b->tiers == 3 ? "pods" : "groups of pods", R,
			   b->tiers == 3 ? "core" : "top",
			   b->tiers == 3 ? "three" : "four", ir_name(d, b->spw),
			   b->tiers == 3 ? "tiers 4 or more planes go further"
					 : "planes N go further");
		return;
	}
	first_pod(b, &f);
	C = b->tiers == 3 ? uppers((uint64_t)U * h, R, podsf, dbl)
			  : groups * CG;
	if (b->tiers == 4)
		T = uppers((uint64_t)CG * h, R, groupsf, dbl);
	spine = xcalloc(S, sizeof(*spine));
	core = xcalloc(C, sizeof(*core));
	top = xcalloc(T + 1, sizeof(*top));
	sk = xcalloc((size_t)(pods > groups ? pods : groups) + 1, sizeof(*sk));
	fabric_placer_init(e, b->pl_spine, b->fab, A_PLACE_SPINES);
	if (!make(e, b, "spine", S, spine, b->pl_spine))
		goto out;
	fabric_placer_reserve(e, b->pl_spine, (podsf - pods) * U, b->spw);
	fabric_placer_init(e, b->pl_core, b->fab, A_PLACE_CORES);
	if (!make(e, b, "core", C, core, b->pl_core))
		goto out;
	if (b->tiers == 4)
		fabric_placer_reserve(e, b->pl_core, (groupsf - groups) * CG,
				      b->spw);
	if (!make(e, b, "top", T, top, b->pl_core))
		goto out;
	/* leaf l: pod l / h, port l mod h of the pod's spines (the first
	 * pod's first Uf spines grown out of two tiers: first_pod()) */
	for (uint32_t l = 0; l < L && !e->stopped; l++)
		for (uint32_t j = 0; j < U; j++) {
			size_t k = (size_t)l * b->Uf + j;

			if (l < h && j < f.n)
				fabric_add_link(e, b->fab, b->leaf[l],
						b->lp->ports[b->D + j],
						spine[f.s[k]], sp[f.q[k]]);
			else
				fabric_add_link(e, b->fab, b->leaf[l],
						b->lp->ports[b->D + j],
						spine[l / h * U + j],
						sp[l % h]);
		}
	if (b->tiers == 3) {
		/* the pods' spines to the cores, as if added pod by pod */
		if (!tight && !dbl) {
			wire_filled(e, b, pods, U, spine, core, &f);
			goto out;
		}
		for (uint32_t p = 0; p < pods; p++)
			sk[p] =
			    tight ? C : uppers((uint64_t)U * h, R, p + 1, dbl);
		dl = (struct deal){ pods, U, h, R, U, sk };
		wire_dealt(e, b, &dl, spine, core, &f);
		goto out;
	}
	/* each group's spines to its cores, as if added pod by pod */
	for (uint32_t g = 0; g < groups; g++) {
		uint32_t pg = pods - g * h < h ? pods - g * h : h;

		for (uint32_t p = 0; p < pg; p++)
			sk[p] = CG;
		dl = (struct deal){ pg, U, h, h, 0, sk };
		wire_dealt(e, b, &dl, spine + (size_t)g * h * U,
			   core + (size_t)g * CG, g ? NULL : &f);
	}
	/* the groups' cores to the top switches, as if added group by group */
	if (!tight && !dbl) {
		wire_filled(e, b, groups, CG, core, top, NULL);
		goto out;
	}
	for (uint32_t g = 0; g < groups; g++)
		sk[g] = tight ? T : uppers((uint64_t)CG * h, R, g + 1, dbl);
	dl = (struct deal){ groups, CG, h, R, CG, sk };
	wire_dealt(e, b, &dl, core, top, NULL);
out:
	free(f.s);
	free(f.q);
	free(f.up);
	free(sk);
	free(spine);
	free(core);
	free(top);
}
