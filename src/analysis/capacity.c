/* SPDX-License-Identifier: MIT */
/*
 * Capacity figures of a design (capacity.h; formulas in doc/language.md,
 * "Capacity figures").
 */
#include "rackc.h"
#include "arith.h"

#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "fabric.h"
#include "schema.h"

static const char *const prec_names[CAP__PREC] = { "fp64", "tf32", "bf16",
						   "fp8", "fp4" };
static const uint32_t prec_attrs[CAP__PREC] = { A_FLOPS_FP64, A_FLOPS_TF32,
						A_FLOPS_BF16, A_FLOPS_FP8,
						A_FLOPS_FP4 };

const char *cap_prec_name(enum cap_prec p)
{
	return (unsigned)p < CAP__PREC ? prec_names[p] : "";
}

static uint64_t alpha_terms(uint64_t steps, int64_t alpha)
{
	u128 t = (u128)steps * (uint64_t)alpha;

	return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}

struct cap_time cap_allreduce_ring(uint64_t p, int64_t s, int64_t b,
				   int64_t alpha)
{
	struct cap_time t = { false, alpha < 0, 0 };

	if (p == 0 || b <= 0 || s < 0)
		return t;
	t.valid = true;
	if (p == 1)
		return t;
	/* 2(p-1)/p * 8S/B seconds = 2(p-1) 8S 1e9 / (p B) ns */
	t.ns = arith_div_u128((u128)(2 * (p - 1)) * (uint64_t)s * 8000000000u,
			      (u128)p * (uint64_t)b, !t.bound);
	if (alpha > 0)
		t.ns = arith_usadd(t.ns, alpha_terms(2 * (p - 1), alpha));
	return t;
}

struct cap_time cap_allreduce_tree(uint64_t p, int64_t s, int64_t b,
				   int64_t alpha)
{
	struct cap_time t = { false, alpha < 0, 0 };
	uint64_t depth = 0;

	if (p == 0 || b <= 0 || s < 0)
		return t;
	t.valid = true;
	if (p == 1)
		return t;
	while (depth < 64 && (UINT64_C(1) << depth) < p)
		depth++;
	t.ns = arith_div_u128((u128)2 * (uint64_t)s * 8000000000u, (uint64_t)b,
			      !t.bound);
	if (alpha > 0)
		t.ns = arith_usadd(t.ns, alpha_terms(2 * depth, alpha));
	return t;
}

struct cap_time cap_alltoall(uint64_t p, int64_t s, int64_t b, uint64_t ga,
			     uint64_t gb, int64_t x)
{
	struct cap_time t = { false, true, 0 };
	uint64_t inj, cut;

	if (p == 0 || b <= 0 || s < 0)
		return t;
	t.valid = true;
	if (p == 1)
		return t;
	/* each GPU sends (p-1)/p of its S bytes out of its own link */
	inj = arith_div_u128((u128)(p - 1) * (uint64_t)s * 8000000000u,
			     (u128)p * (uint64_t)b, false);
	t.ns = inj;
	if (x > 0 && ga && gb) {
		/*
		 * ga gb pairs cross the cut, S/p bytes each way: ga gb S/p
		 * bytes per direction through X.  Floor of a floor is the
		 * floor of the whole, so the two steps keep it exact.
		 */
		u128 pairs = (u128)ga * gb;
		u128 bits = (u128)(uint64_t)s * 8u;

		if (bits && pairs > ~(u128)0 / bits) {
			cut = UINT64_MAX;
		} else {
			u128 q = pairs * bits / p, r = pairs * bits % p;
			/* q 1e9 / X + floor(r 1e9 / p) / X, exactly */
			u128 hi = q / (uint64_t)x, lo = q % (uint64_t)x;

			if (hi > UINT64_MAX / 1000000000u) {
				cut = UINT64_MAX;
			} else {
				u128 rest =
				    lo * 1000000000u + r * 1000000000u / p;

				cut = arith_div_u128((u128)hi * 1000000000u +
							 rest / (uint64_t)x,
						     1, false);
			}
		}
		if (cut > t.ns)
			t.ns = cut;
	}
	return t;
}

/* The GPU parts of a device part's GPU components (up to @cap in @out). */
static uint32_t part_gpus(const struct rk_design *d, uint32_t part,
			  uint32_t *out, uint32_t cap)
{
	uint32_t n = 0;

	for_each_base(d, p, part)
		for_each_child(d, p, c)
			if (d->objs[c].kind == K_COMP &&
			    d->objs[c].cls == COMP_GPU &&
			    ir_member_effective(d, part, c)) {
				if (n < cap)
					out[n] = d->objs[c].part;
				n++;
			}
	return n;
}

struct dev_gpus {
	uint32_t n;	/* GPUs of the device's part */
	uint32_t first; /* index in the per-part list of GPU parts */
};

static int64_t cap_num(const struct rk_design *d, uint32_t obj, uint32_t key)
{
	int64_t v = ir_num(d, obj, key, 0);

	return v > 0 ? v : 0;
}

/* A link end on a device with GPUs: its port, and the link's rate. */
struct gpu_end {
	uint32_t port;
	int64_t rate;
};

/*
 * The link ends on devices with GPUs (@memo), by device, each device's in
 * link order (a counting sort; @off gets nobjs + 1 offsets): what the
 * scale-out figure reads per fabric endpoint.  Read in device order, as
 * the endpoints come; looking each endpoint's link up among the design's
 * link records instead read one record far from the last per endpoint,
 * which missed the cache on every one at a million GPUs (the records are
 * 150 MB there).  Each link's rate is metrics_link_rate()'s, from its ports'
 * speeds, memoised per port object.
 */
static struct gpu_end *gpu_ends(const struct rk_design *d,
				const struct dev_gpus *memo, uint32_t **offp)
{
	uint32_t *off = xcalloc((size_t)d->nobjs + 2, sizeof(*off));
	int64_t *speed = xmalloc(((size_t)d->nobjs + 1) * sizeof(*speed));
	/* per object: 1 of a part with GPUs; 2 a port whose speed is known */
	uint8_t *is = xcalloc((size_t)d->nobjs + 1, 1);
	struct gpu_end *e;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t p = d->objs[i].part;

		is[i] = p != RK_NONE && memo[p].n;
	}
	for (uint32_t i = 0; i < d->nlinks; i++) {
		const struct rk_link *l = &d->links[i];

		if (l->a_port == RK_NONE)
			continue;
		off[l->a_dev + 2] += is[l->a_dev] & 1;
		off[l->b_dev + 2] += is[l->b_dev] & 1;
	}
	for (uint32_t i = 2; i < d->nobjs + 2; i++)
		off[i] += off[i - 1];
	e = xmalloc(((size_t)off[d->nobjs + 1] + 1) * sizeof(*e));
	for (uint32_t i = 0; i < d->nlinks; i++) {
		const struct rk_link *l = &d->links[i];
		const uint32_t port[2] = { l->a_port, l->b_port };
		int64_t sp[2], rate;

		if (l->a_port == RK_NONE ||
		    !((is[l->a_dev] | is[l->b_dev]) & 1))
			continue;
		for (int k = 0; k < 2; k++) {
			if (!(is[port[k]] & 2)) {
				speed[port[k]] = ir_num(d, port[k], A_SPEED, 0);
				is[port[k]] |= 2;
			}
			sp[k] = speed[port[k]];
		}
		/* metrics_link_rate(): the slower end's, or the one that says */
		rate = !sp[0] || (sp[1] && sp[1] < sp[0]) ? sp[1] : sp[0];
		if (is[l->a_dev] & 1)
			e[off[l->a_dev + 1]++] =
			    (struct gpu_end){ l->a_port, rate };
		if (is[l->b_dev] & 1)
			e[off[l->b_dev + 1]++] =
			    (struct gpu_end){ l->b_port, rate };
	}
	free(speed);
	free(is);
	*offp = off;
	return e;
}

/* union-find over objects: the root of @x, halving the path */
static uint32_t uf_find(uint32_t *up, uint32_t x)
{
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

/* join the sets of @a and @b (by size: the walks stay logarithmic) */
static void uf_join(uint32_t *up, uint32_t *size, uint32_t a, uint32_t b)
{
	a = uf_find(up, a);
	b = uf_find(up, b);
	if (a == b)
		return;
	if (size[a] < size[b]) {
		uint32_t t = a;

		a = b;
		b = t;
	}
	up[b] = a;
	size[a] += size[b];
}

/*
 * Whether a port joins its device's cluster through a fabric: a port
 * whose role is compute or nvlink, or that has none; memoised in @pj
 * (0: not yet, 1: joins, 2: does not).
 */
static bool port_joins(const struct rk_design *d, uint8_t *pj, uint32_t port)
{
	if (!pj[port]) {
		const char *r = ir_str(d, port, A_ROLE);

		pj[port] =
		    !r || !strcmp(r, "compute") || !strcmp(r, "nvlink") ? 1 : 2;
	}
	return pj[port] == 1;
}

static int u32_cmp(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return a < b ? -1 : a > b;
}

/* one NVLink domain, before the domains are grouped into classes */
struct dom_rec {
	uint32_t cluster, gpus;
	int64_t rate, latency;
	u128 hbm;
};

static int dom_cmp(const void *pa, const void *pb)
{
	const struct dom_rec *a = pa, *b = pb;

	if (a->cluster != b->cluster)
		return a->cluster < b->cluster ? -1 : 1;
	if (a->gpus != b->gpus)
		return a->gpus > b->gpus ? -1 : 1;
	if (a->rate != b->rate)
		return a->rate > b->rate ? -1 : 1;
	if (a->latency != b->latency)
		return a->latency < b->latency ? -1 : 1;
	if (a->hbm != b->hbm)
		return a->hbm > b->hbm ? -1 : 1;
	return 0;
}

/* a GPU whose part is not in the catalog */
static const struct cap_model no_model = { 0, 0, { 0 }, 0, 0, 0, -1 };

/* the figures of a domain's GPUs, added one GPU at a time */
static void dom_add(struct dom_rec *r, const struct cap_model *m)
{
	r->gpus++;
	r->hbm += (uint64_t)m->hbm;
	if (!m->nvlink_bw || (r->gpus > 1 && !r->rate))
		r->rate = 0;
	else if (r->gpus == 1 || m->nvlink_bw < r->rate)
		r->rate = m->nvlink_bw;
	if (m->latency < 0 || (r->gpus > 1 && r->latency < 0))
		r->latency = -1;
	else if (r->gpus == 1 || m->latency > r->latency)
		r->latency = m->latency;
}

/*
 * The cut each cluster's All-to-All bound goes through (doc/language.md
 * §10.1).  Its scale-out fabric's node-level witness splits the servers
 * (each forwards between its own ports, as NCCL's PXN does) and cuts
 * node.bisection_upper of the fabric's links, its switches on the sides
 * the max-flow put them; @a2a_gpus counts the GPUs of the cluster's
 * scale-out devices on either side.  The cluster's other joining fabrics
 * (NVLink domains, a second compute fabric) can carry traffic across the
 * same split, so their links that may cross are added.  Each such fabric
 * puts its *free* vertices (neither a node of the witness nor a vertex
 * of the scale-out fabric) all on one side, the cheaper: with them on
 * side 1 its links with an end on a node of side 2 and the other end
 * elsewhere cross (R2), on side 2 those of side 1 (R1), so it adds
 * min(R1, R2).  A link with an end on a vertex of the scale-out fabric
 * that is no node (its switches, whose side the witness fixed), or on a
 * free vertex that two such fabrics share, may cross either way and is
 * added whole.  A link of unknown rate that may cross leaves the cluster
 * without a cut (a2a_cut 0).  Linear in the objects and links.
 */
static void alltoall_cuts(struct derived *dv, struct capacity *c,
			  const uint32_t *cl, const uint32_t *fdev, uint8_t *pj,
			  const struct dev_gpus *memo)
{
	const struct rk_design *d = dv->d;
	const size_t n1 = (size_t)d->nobjs + 1;
	/* per object: the cluster whose cut places it, and its class there
	 * (1, 2: a node on that side; 3: a vertex of the scale-out fabric
	 * that is no node) */
	uint32_t *owner = xmalloc(n1 * sizeof(*owner));
	uint8_t *cls = xcalloc(n1, 1);
	/* per object: the scale-out fabric whose GPUs it counts; per free
	 * vertex, the one other fabric that reaches it (RK_NONE - 1: more) */
	uint32_t *mark = xmalloc(n1 * sizeof(*mark));
	/* per fabric object: R1, R2; per cluster: the links added whole */
	u128(*rf)[2] = xcalloc(n1, sizeof(*rf));
	u128 *whole = xcalloc((size_t)c->nclusters + 1, sizeof(*whole));
	bool *unknown = xcalloc((size_t)c->nclusters + 1, sizeof(*unknown));

	memset(owner, 0xff, n1 * sizeof(*owner));
	memset(mark, 0xff, n1 * sizeof(*mark));
	for (uint32_t q = 0; q < c->nclusters; q++) {
		struct cap_cluster *x = &c->clusters[q];
		const struct fabric_level *lv;
		struct ir_ep_cursor cur = { 0, 0 };

		x->a2a_cut = 0;
		if (x->scaleout == RK_NONE)
			continue;
		lv = &derived_fabric(dv, x->scaleout)->node;
		if (lv->method == BISECT_NONE || !lv->witness ||
		    lv->bisection_upper <= 0)
			continue;
		x->a2a_cut = lv->bisection_upper;
		/* the devices whose GPUs take part (scaleout_gpus's) */
		for (const struct rk_value *v;
		     (v = ir_next_endpoint(d, x->scaleout, &cur));) {
			uint32_t dev = v->a, p = d->objs[dev].part;

			if (p != RK_NONE && memo[p].n &&
			    port_joins(d, pj, (uint32_t)v->n))
				mark[dev] = x->scaleout;
		}
		for (uint32_t k = 0; k < lv->devices; k++) {
			uint32_t dev = lv->dev_obj[k], p = d->objs[dev].part;
			uint8_t s = lv->witness[k];

			owner[dev] = q;
			cls[dev] = s;
			if (mark[dev] == x->scaleout && p != RK_NONE)
				x->a2a_gpus[s - 1] += memo[p].n;
		}
	}
	memset(mark, 0xff, n1 * sizeof(*mark));
	/*
	 * Pass 0: the scale-out fabrics' other vertices; pass 1: the free
	 * vertices' fabrics; pass 2: the other fabrics' links that may cross.
	 */
	for (int pass = 0; pass < 3; pass++)
		for (uint32_t i = 0; i < d->nlinks; i++) {
			const struct rk_link *l = &d->links[i];
			const uint32_t f = l->fabric,
				       e[2] = { l->a_dev, l->b_dev };
			uint32_t q;
			uint8_t ce[2];
			int64_t rate;
			bool all = false;

			if (l->a_port == RK_NONE || f == RK_NONE ||
			    fdev[f] == RK_NONE)
				continue;
			q = cl[fdev[f]];
			if (!c->clusters[q].a2a_cut)
				continue;
			if ((c->clusters[q].scaleout == f) != (pass == 0))
				continue;
			for (int k = 0; k < 2; k++) {
				if (pass == 0 && owner[e[k]] == RK_NONE) {
					owner[e[k]] = q;
					cls[e[k]] = 3;
				}
				ce[k] = owner[e[k]] == q ? cls[e[k]] : 0;
				if (pass == 1 && !ce[k])
					mark[e[k]] = mark[e[k]] == RK_NONE ||
							     mark[e[k]] == f
							 ? f
							 : RK_NONE - 1;
				if (ce[k] == 3 || (!ce[k] && mark[e[k]] != f))
					all = true;
			}
			if (pass < 2 || (ce[0] == ce[1] && !all))
				continue; /* one side, or both free */
			rate = metrics_link_rate(d, l);
			if (rate <= 0)
				unknown[q] = true;
			else if (all)
				whole[q] += (uint64_t)rate;
			else
				for (int s = 1; s <= 2; s++)
					if (ce[0] == s || ce[1] == s)
						rf[f][s - 1] += (uint64_t)rate;
		}
	for (uint32_t f = 0; f < d->nobjs; f++)
		if (d->objs[f].kind == K_FABRIC && fdev[f] != RK_NONE)
			whole[cl[fdev[f]]] +=
			    rf[f][0] < rf[f][1] ? rf[f][0] : rf[f][1];
	for (uint32_t q = 0; q < c->nclusters; q++) {
		struct cap_cluster *x = &c->clusters[q];
		u128 t = (u128)(uint64_t)x->a2a_cut + whole[q];

		if (unknown[q])
			x->a2a_cut = 0;
		else if (x->a2a_cut)
			x->a2a_cut = t > INT64_MAX ? INT64_MAX : (int64_t)t;
	}
	free(owner);
	free(cls);
	free(mark);
	free(rf);
	free(whole);
	free(unknown);
}

/* The working arrays of capacity_compute(), indexed by object id. */
struct cap_work {
	const struct rk_design *d;
	struct capacity *c;
	size_t n1;	 /* objects + 1 */
	uint32_t *slot;	 /* a GPU part's model */
	uint32_t *dom;	 /* a GPU device's first nvlink fabric */
	uint32_t *seen;	 /* scratch: a root's cluster, a device's fabric */
	uint32_t *up;	 /* union-find of the devices a fabric joins */
	uint32_t *usize; /* its set sizes */
	uint32_t *cl;	 /* cluster of a device */
	uint32_t *fdev;	 /* a fabric's first joining GPU device */
	uint8_t *pj;	 /* port_joins()' memo */
	uint32_t *gp;	 /* GPU parts, per device part, memoised */
	struct dev_gpus *memo;
};

/* The GPU parts of every device, memoised per device part (w->gp, w->memo). */
static void cap_gpu_parts(struct cap_work *w)
{
	const struct rk_design *d = w->d;
	uint8_t *memo_done = xcalloc(w->n1, 1);
	uint32_t ngp = 0, gp_cap = 0;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t p = d->objs[i].part, n;

		if (d->objs[i].kind != K_DEVICE || p == RK_NONE || memo_done[p])
			continue;
		memo_done[p] = 1;
		n = part_gpus(d, p, NULL, 0);
		if (!n)
			continue;
		if (ngp + n > gp_cap) {
			gp_cap = (ngp + n) * 2;
			w->gp = xrealloc(w->gp, gp_cap * sizeof(*w->gp));
		}
		w->memo[p].first = ngp;
		w->memo[p].n = part_gpus(d, p, w->gp + ngp, n);
		ngp += n;
	}
	free(memo_done);
	/* models, in part-id order */
	for (uint32_t k = 0; k < ngp; k++)
		if (w->gp[k] != RK_NONE && w->slot[w->gp[k]] == RK_NONE)
			w->slot[w->gp[k]] = 0;
}

/*
 * The GPU models with their figures, how many GPUs of each the design
 * has, and the design's totals, the figures that add up over clusters.
 */
static void cap_models(struct cap_work *w)
{
	const struct rk_design *d = w->d;
	struct capacity *c = w->c;
	const uint32_t *slot = w->slot, *gp = w->gp;
	const struct dev_gpus *memo = w->memo;

	for (uint32_t p = 0; p < d->nobjs; p++)
		if (slot[p] != RK_NONE)
			w->slot[p] = c->nmodels++;
	c->models = xcalloc(c->nmodels + 1, sizeof(*c->models));
	for (uint32_t p = 0; p < d->nobjs; p++) {
		struct cap_model *m;
		const struct rk_value *lv;

		if (slot[p] == RK_NONE)
			continue;
		m = &c->models[slot[p]];
		m->part = p;
		for (unsigned k = 0; k < CAP__PREC; k++)
			m->flops[k] = cap_num(d, p, prec_attrs[k]);
		m->hbm = cap_num(d, p, A_HBM);
		m->hbm_bw = cap_num(d, p, A_HBM_BW);
		m->nvlink_bw = cap_num(d, p, A_NVLINK_BW);
		lv = ir_attr_inh(d, p, A_LATENCY);
		m->latency = lv && lv->type == VT_NUM ? lv->n : -1;
	}
	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t p = d->objs[i].part;

		w->up[i] = i;
		w->usize[i] = 1;
		if (d->objs[i].kind != K_DEVICE || p == RK_NONE)
			continue;
		for (uint32_t k = 0; k < memo[p].n; k++) {
			uint32_t g = gp[memo[p].first + k];

			if (g != RK_NONE)
				c->models[slot[g]].count++;
		}
		c->gpus += memo[p].n;
	}

	for (unsigned k = 0; k < CAP__PREC; k++)
		c->flops_known[k] = c->nmodels > 0;
	for (uint32_t j = 0; j < c->nmodels; j++) {
		const struct cap_model *m = &c->models[j];

		for (unsigned k = 0; k < CAP__PREC; k++) {
			if (!m->flops[k])
				c->flops_known[k] = false;
			c->flops[k] += (u128)m->count * (uint64_t)m->flops[k];
		}
		c->hbm += (u128)m->count * (uint64_t)m->hbm;
		c->hbm_bw += (u128)m->count * (uint64_t)m->hbm_bw;
	}
	for (unsigned k = 0; k < CAP__PREC; k++)
		if (!c->flops_known[k])
			c->flops[k] = 0;
}

/*
 * Clusters: the NVLink fabrics join their GPU devices (each device
 * in the first that lists it is in that domain), the other fabrics
 * the GPU devices of their joining ports; w->fdev keeps a fabric's
 * first such device.  Clusters are numbered in the order of their first
 * GPU device (w->cl).
 */
static void cap_clusters(struct cap_work *w)
{
	const struct rk_design *d = w->d;
	struct capacity *c = w->c;
	const struct dev_gpus *memo = w->memo;
	uint32_t *dom = w->dom, *fdev = w->fdev, *seen = w->seen;
	size_t ccap = 0;

	for (uint32_t f = 0; f < d->nobjs; f++) {
		struct ir_ep_cursor cur = { 0, 0 };
		bool nvl;

		if (d->objs[f].kind != K_FABRIC)
			continue;
		nvl = d->objs[f].cls == FAB_NVLINK;
		for (const struct rk_value *v;
		     (v = ir_next_endpoint(d, f, &cur));) {
			uint32_t dev = v->a, p = d->objs[dev].part;

			if (p == RK_NONE || !memo[p].n)
				continue;
			if (nvl && dom[dev] == RK_NONE)
				dom[dev] = f;
			if (!nvl && !port_joins(d, w->pj, (uint32_t)v->n))
				continue;
			if (fdev[f] == RK_NONE)
				fdev[f] = dev;
			else
				uf_join(w->up, w->usize, fdev[f], dev);
		}
	}
	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t p = d->objs[i].part, r;

		if (d->objs[i].kind != K_DEVICE || p == RK_NONE || !memo[p].n)
			continue;
		r = uf_find(w->up, i);
		if (seen[r] == RK_NONE) {
			if (c->nclusters == ccap) {
				ccap = ccap ? ccap * 2 : 16;
				c->clusters = xrealloc(
				    c->clusters, ccap * sizeof(*c->clusters));
			}
			seen[r] = c->nclusters++;
			memset(&c->clusters[seen[r]], 0, sizeof(*c->clusters));
			c->clusters[seen[r]].first_dev = i;
			c->clusters[seen[r]].name = i;
			c->clusters[seen[r]].scaleout = RK_NONE;
		}
		w->cl[i] = seen[r];
	}
}

/*
 * Per cluster, its GPUs by model: the devices in cluster order (a
 * counting sort), each cluster's counts gathered in @cnt, the models
 * it touched in @touch.
 */
static void cap_cluster_models(struct cap_work *w)
{
	const struct rk_design *d = w->d;
	struct capacity *c = w->c;
	const uint32_t *cl = w->cl, *slot = w->slot, *gp = w->gp;
	const struct dev_gpus *memo = w->memo;
	uint32_t *off = xcalloc((size_t)c->nclusters + 2, sizeof(*off));
	uint32_t *order = xmalloc(w->n1 * sizeof(*order));
	uint64_t *cnt = xcalloc((size_t)c->nmodels + 1, sizeof(*cnt));
	uint32_t *touch = xmalloc(((size_t)c->nmodels + 1) * sizeof(*touch));
	uint32_t ncounts = 0;

	for (uint32_t i = 0; i < d->nobjs; i++)
		if (cl[i] != RK_NONE)
			off[cl[i] + 2]++;
	for (uint32_t k = 2; k < c->nclusters + 2; k++)
		off[k] += off[k - 1];
	for (uint32_t i = 0; i < d->nobjs; i++)
		if (cl[i] != RK_NONE)
			order[off[cl[i] + 1]++] = i;
	{
		/* at most one count per GPU part of each device */
		size_t cap = 1;

		for (uint32_t k = 0; k < off[c->nclusters]; k++)
			cap += memo[d->objs[order[k]].part].n;
		c->counts = xmalloc(cap * sizeof(*c->counts));
	}
	for (uint32_t q = 0; q < c->nclusters; q++) {
		struct cap_cluster *x = &c->clusters[q];
		uint32_t nt = 0;

		for (uint32_t k = off[q]; k < off[q + 1]; k++) {
			uint32_t p = d->objs[order[k]].part;

			for (uint32_t g = 0; g < memo[p].n; g++) {
				uint32_t gpart = gp[memo[p].first + g];

				x->gpus++;
				if (gpart == RK_NONE)
					continue;
				if (!cnt[slot[gpart]]++)
					touch[nt++] = slot[gpart];
			}
		}
		x->models_at = ncounts;
		for (unsigned k = 0; k < CAP__PREC; k++)
			x->flops_known[k] = true;
		/* in model order */
		qsort(touch, nt, sizeof(*touch), u32_cmp);
		for (uint32_t t = 0; t < nt; t++) {
			const struct cap_model *m = &c->models[touch[t]];
			uint64_t n = cnt[touch[t]];

			c->counts[ncounts++] =
			    (struct cap_count){ touch[t], n };
			for (unsigned k = 0; k < CAP__PREC; k++) {
				if (!m->flops[k])
					x->flops_known[k] = false;
				x->flops[k] += (u128)n * (uint64_t)m->flops[k];
			}
			x->hbm += (u128)n * (uint64_t)m->hbm;
			x->hbm_bw += (u128)n * (uint64_t)m->hbm_bw;
			cnt[touch[t]] = 0;
		}
		x->nmodels = ncounts - x->models_at;
		if (x->gpus > (uint64_t)0 && !x->nmodels)
			for (unsigned k = 0; k < CAP__PREC; k++)
				x->flops_known[k] = false;
		for (unsigned k = 0; k < CAP__PREC; k++)
			if (!x->flops_known[k])
				x->flops[k] = 0;
	}
	free(off);
	free(order);
	free(cnt);
	free(touch);
}

/* Append a domain record to *@doms (*@n of *@cap used). */
static void dom_push(struct dom_rec **doms, size_t *n, size_t *cap,
		     struct dom_rec r)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*doms = xrealloc(*doms, *cap * sizeof(**doms));
	}
	(*doms)[(*n)++] = r;
}

/*
 * NVLink domains: the nvlink fabrics first, then one per server (GPUs
 * without scale-up links are domains of one); in *@ndoms records,
 * unsorted.
 */
static struct dom_rec *cap_domains(struct cap_work *w, size_t *ndoms)
{
	const struct rk_design *d = w->d;
	const struct capacity *c = w->c;
	const uint32_t *slot = w->slot, *gp = w->gp, *cl = w->cl;
	const struct dev_gpus *memo = w->memo;
	uint32_t *dom = w->dom;
	struct dom_rec *doms = NULL;
	size_t doms_cap = 0;

	*ndoms = 0;
	for (uint32_t f = 0; f < d->nobjs; f++) {
		struct ir_ep_cursor cur = { 0, 0 };
		struct dom_rec r = { RK_NONE, 0, 0, -1, 0 };

		if (d->objs[f].kind != K_FABRIC || d->objs[f].cls != FAB_NVLINK)
			continue;
		for (const struct rk_value *v;
		     (v = ir_next_endpoint(d, f, &cur));) {
			uint32_t dev = v->a, p = d->objs[dev].part;

			/* each device once, in its first nvlink fabric */
			if (dom[dev] != f || p == RK_NONE || !memo[p].n)
				continue;
			dom[dev] = RK_NONE - 1;
			r.cluster = cl[dev];
			for (uint32_t k = 0; k < memo[p].n; k++) {
				uint32_t g = gp[memo[p].first + k];
				dom_add(&r, g != RK_NONE ? &c->models[slot[g]]
							 : &no_model);
			}
		}
		if (r.gpus)
			dom_push(&doms, ndoms, &doms_cap, r);
	}
	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t p = d->objs[i].part, n;
		bool nv = true;

		if (d->objs[i].kind != K_DEVICE || p == RK_NONE ||
		    dom[i] != RK_NONE || !memo[p].n)
			continue;
		n = memo[p].n;
		for (uint32_t k = 0; k < n; k++) {
			uint32_t g = gp[memo[p].first + k];

			if (g == RK_NONE || !c->models[slot[g]].nvlink_bw)
				nv = false;
		}
		/* GPUs without scale-up links are domains of one */
		for (uint32_t k = 0; k < n; k++) {
			uint32_t g = gp[memo[p].first + k];
			const struct cap_model *m =
			    g != RK_NONE ? &c->models[slot[g]] : &no_model;

			if (!nv || !k)
				dom_push(
				    &doms, ndoms, &doms_cap,
				    (struct dom_rec){ cl[i], 0, 0, -1, 0 });
			dom_add(&doms[*ndoms - 1], m);
			if (!nv)
				doms[*ndoms - 1].rate = 0;
		}
	}
	return doms;
}

/* Each cluster's classes of equal NVLink domains (c->classes). */
static void cap_classes(struct cap_work *w)
{
	struct capacity *c = w->c;
	size_t ndoms;
	struct dom_rec *doms = cap_domains(w, &ndoms);
	uint32_t nclasses = 0;

	if (ndoms)
		qsort(doms, ndoms, sizeof(*doms), dom_cmp);
	c->classes = xmalloc((ndoms + 1) * sizeof(*c->classes));
	for (size_t k = 0; k < ndoms; k++) {
		struct cap_cluster *x = &c->clusters[doms[k].cluster];
		struct cap_class *y;

		if (!k || dom_cmp(&doms[k - 1], &doms[k])) {
			if (!x->nclasses)
				x->classes_at = nclasses;
			x->nclasses++;
			y = &c->classes[nclasses++];
			memset(y, 0, sizeof(*y));
			y->gpus = doms[k].gpus;
			y->nvlink_dir = doms[k].rate;
			y->latency = doms[k].latency;
			y->hbm = doms[k].hbm;
			if (y->hbm > x->domain_hbm_max)
				x->domain_hbm_max = y->hbm;
		}
		c->classes[nclasses - 1].count++;
	}
	free(doms);
}

/*
 * Scale-out, per cluster: the joining fabric whose joining endpoint
 * ports on GPU devices inject the most (the first of equals); per
 * GPU, that injection over those devices' GPUs.
 */
static void cap_scaleout(struct cap_work *w)
{
	const struct rk_design *d = w->d;
	struct capacity *c = w->c;
	const uint32_t *cl = w->cl, *fdev = w->fdev;
	const struct dev_gpus *memo = w->memo;
	uint32_t *seen = w->seen, *eoff;
	int64_t *best = xcalloc((size_t)c->nclusters + 1, sizeof(*best));
	struct gpu_end *ends = gpu_ends(d, memo, &eoff);

	memset(seen, 0xff, w->n1 * sizeof(*seen));
	for (uint32_t f = 0; f < d->nobjs; f++) {
		struct ir_ep_cursor cur = { 0, 0 };
		uint64_t n = 0;
		int64_t inj = 0;
		struct cap_cluster *x;

		if (d->objs[f].kind != K_FABRIC || fdev[f] == RK_NONE ||
		    d->objs[f].cls == FAB_NVLINK)
			continue;
		x = &c->clusters[cl[fdev[f]]];
		for (const struct rk_value *v;
		     (v = ir_next_endpoint(d, f, &cur));) {
			uint32_t dev = v->a, p = d->objs[dev].part;

			if (p == RK_NONE || !memo[p].n ||
			    !port_joins(d, w->pj, (uint32_t)v->n))
				continue;
			/* the rate of the first link on the port */
			for (uint32_t k = eoff[dev]; k < eoff[dev + 1]; k++)
				if (ends[k].port == (uint32_t)v->n) {
					inj += ends[k].rate;
					break;
				}
			/* count each device's GPUs once */
			if (seen[dev] != f) {
				seen[dev] = f;
				n += memo[p].n;
			}
		}
		if (!n || inj <= 0 || inj <= best[cl[fdev[f]]])
			continue;
		best[cl[fdev[f]]] = inj;
		x->scaleout = f;
		x->scaleout_gpus = n;
		x->scaleout_per_gpu = (int64_t)((uint64_t)inj / n);
		x->scaleout_exact = (uint64_t)inj % n == 0;
	}
	free(eoff);
	free(ends);
	free(best);
}

/* Each cluster's fabrics, in object order (c->fabrics). */
static void cap_cluster_fabrics(struct cap_work *w)
{
	const struct rk_design *d = w->d;
	struct capacity *c = w->c;
	const uint32_t *cl = w->cl, *fdev = w->fdev;
	uint32_t *off = xcalloc((size_t)c->nclusters + 2, sizeof(*off));
	uint32_t nfab = 0;

	for (uint32_t f = 0; f < d->nobjs; f++)
		if (d->objs[f].kind == K_FABRIC && fdev[f] != RK_NONE) {
			off[cl[fdev[f]] + 2]++;
			nfab++;
		}
	for (uint32_t k = 2; k < c->nclusters + 2; k++)
		off[k] += off[k - 1];
	c->fabrics = xmalloc(((size_t)nfab + 1) * sizeof(*c->fabrics));
	for (uint32_t f = 0; f < d->nobjs; f++)
		if (d->objs[f].kind == K_FABRIC && fdev[f] != RK_NONE)
			c->fabrics[off[cl[fdev[f]] + 1]++] = f;
	for (uint32_t q = 0; q < c->nclusters; q++) {
		struct cap_cluster *x = &c->clusters[q];

		x->fabrics_at = off[q];
		x->nfabrics = off[q + 1] - off[q];
	}
	free(off);
}

/* Per cluster: its name, the collectives and the models that fit. */
static void cap_collectives(const struct rk_design *d, struct capacity *c)
{
	for (uint32_t q = 0; q < c->nclusters; q++) {
		struct cap_cluster *x = &c->clusters[q];

		x->fabric_latency = -1;
		x->message = CAP_DEFAULT_MESSAGE;
		if (x->scaleout != RK_NONE) {
			const struct rk_value *v;

			x->name = x->scaleout;
			v = ir_attr(d, x->scaleout, A_LATENCY);
			if (v && v->type == VT_NUM)
				x->fabric_latency = v->n;
			v = ir_attr(d, x->scaleout, A_MESSAGE_SIZE);
			if (v && v->type == VT_NUM && v->n > 0)
				x->message = v->n;
		} else if (x->nfabrics) {
			x->name = c->fabrics[x->fabrics_at];
		}
		for (uint32_t k = 0; k < x->nclasses; k++) {
			struct cap_class *y = &c->classes[x->classes_at + k];

			y->ring = cap_allreduce_ring(y->gpus, x->message,
						     y->nvlink_dir, y->latency);
			y->tree = cap_allreduce_tree(y->gpus, x->message,
						     y->nvlink_dir, y->latency);
		}
		x->net_ring =
		    cap_allreduce_ring(x->scaleout_gpus, x->message,
				       x->scaleout_per_gpu, x->fabric_latency);
		x->net_tree =
		    cap_allreduce_tree(x->scaleout_gpus, x->message,
				       x->scaleout_per_gpu, x->fabric_latency);
		x->alltoall = cap_alltoall(x->scaleout_gpus, x->message,
					   x->scaleout_per_gpu, x->a2a_gpus[0],
					   x->a2a_gpus[1], x->a2a_cut);
		x->train_params = arith_sat_u64(x->hbm / CAP_TRAIN_BYTES);
		x->infer_params = arith_sat_u64(x->hbm / CAP_INFER_BYTES);
		x->infer_params_domain =
		    arith_sat_u64(x->domain_hbm_max / CAP_INFER_BYTES);
	}
}

/* Power: the racks' power_max, and the first site's PUE. */
static void cap_power(struct derived *dv, struct capacity *c)
{
	const struct rk_design *d = dv->d;
	const struct rack_totals *rt = derived_racks(dv);

	c->it_power = rt->site_power;
	c->it_power_over = rt->site_over & TOTAL_POWER;
	c->it_power_unknown =
	    !c->it_power_over && (rt->site_unknown & TOTAL_POWER);
	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_value *v;

		if (d->objs[i].kind != K_SITE || c->pue >= 0)
			continue;
		v = ir_attr(d, i, A_PUE);
		if (v && v->type == VT_NUM && v->n > 0) {
			c->pue = v->n;
			c->pue_site = i;
		}
	}
	if (c->pue >= 0 && c->it_power > 0)
		c->facility_nw = (u128)(uint64_t)c->it_power * (uint64_t)c->pue;
}

void capacity_compute(struct derived *dv, struct capacity *c)
{
	const struct rk_design *d = dv->d;
	const size_t n1 = (size_t)d->nobjs + 1;
	struct cap_work w = {
		.d = d,
		.c = c,
		.n1 = n1,
		.slot = xmalloc(n1 * sizeof(*w.slot)),
		.dom = xmalloc(n1 * sizeof(*w.dom)),
		.seen = xmalloc(n1 * sizeof(*w.seen)),
		.up = xmalloc(n1 * sizeof(*w.up)),
		.usize = xmalloc(n1 * sizeof(*w.usize)),
		.cl = xmalloc(n1 * sizeof(*w.cl)),
		.fdev = xmalloc(n1 * sizeof(*w.fdev)),
		.pj = xcalloc(n1, 1),
		.gp = NULL,
		.memo = xcalloc(n1, sizeof(*w.memo)),
	};

	memset(c, 0, sizeof(*c));
	memset(w.slot, 0xff, n1 * sizeof(*w.slot));
	memset(w.dom, 0xff, n1 * sizeof(*w.dom));
	memset(w.seen, 0xff, n1 * sizeof(*w.seen));
	memset(w.cl, 0xff, n1 * sizeof(*w.cl));
	memset(w.fdev, 0xff, n1 * sizeof(*w.fdev));
	c->pue = -1;
	c->pue_site = RK_NONE;

	cap_gpu_parts(&w);
	cap_models(&w);
	cap_clusters(&w);
	cap_cluster_models(&w);
	cap_classes(&w);
	cap_scaleout(&w);
	cap_cluster_fabrics(&w);
	alltoall_cuts(dv, c, w.cl, w.fdev, w.pj, w.memo);
	cap_collectives(d, c);
	cap_power(dv, c);
	free(w.slot);
	free(w.dom);
	free(w.seen);
	free(w.up);
	free(w.usize);
	free(w.cl);
	free(w.fdev);
	free(w.pj);
	free(w.gp);
	free(w.memo);
}

void cap_sources(const struct rk_design *d, uint32_t part,
		 void (*fn)(void *arg, const char *src, bool first), void *arg)
{
	bool first = true;

	for_each_base(d, p, part)
		for (uint32_t a = 0; a < d->objs[p].attr_count; a++) {
			const struct rk_attr *at =
			    &d->attrs[d->objs[p].attr_first + a];

			if (at->key != A_SOURCE || at->val.type != VT_STR)
				continue;
			fn(arg, str_of(d->arena, at->val.a), first);
			first = false;
		}
}

bool cap_ratio(int64_t nv_bps, int64_t out_bps, uint64_t *nv, uint64_t *out)
{
	uint64_t a, b;

	if (nv_bps <= 0 || out_bps <= 0)
		return false;
	a = (uint64_t)nv_bps;
	b = (uint64_t)out_bps;
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	*nv = (uint64_t)nv_bps / a;
	*out = (uint64_t)out_bps / a;
	return true;
}

void capacity_free(struct capacity *c)
{
	free(c->models);
	free(c->clusters);
	free(c->counts);
	free(c->classes);
	free(c->fabrics);
	c->models = NULL;
	c->clusters = NULL;
	c->counts = NULL;
	c->classes = NULL;
	c->fabrics = NULL;
}
