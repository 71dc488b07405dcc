/* SPDX-License-Identifier: MIT */
/*
 * Capacity figures of a design (capacity.h; formulas in doc/language.md,
 * "Capacity figures").
 */
#include "rackc.h"

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

/* ceil(num / den) for den > 0, saturating at UINT64_MAX */
static uint64_t ceil_div128(unsigned __int128 num, unsigned __int128 den)
{
	unsigned __int128 q = num / den + (num % den != 0);

	return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t alpha_terms(uint64_t steps, int64_t alpha)
{
	unsigned __int128 t = (unsigned __int128)steps * (uint64_t)alpha;

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
	t.ns = ceil_div128((unsigned __int128)(2 * (p - 1)) * (uint64_t)s *
			       8000000000u,
			   (unsigned __int128)p * (uint64_t)b);
	if (alpha > 0)
		t.ns = sat_add(t.ns, alpha_terms(2 * (p - 1), alpha));
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
	t.ns = ceil_div128((unsigned __int128)2 * (uint64_t)s * 8000000000u,
			   (uint64_t)b);
	if (alpha > 0)
		t.ns = sat_add(t.ns, alpha_terms(2 * depth, alpha));
	return t;
}

struct cap_time cap_alltoall(uint64_t p, int64_t s, int64_t b, int64_t x)
{
	struct cap_time t = { false, true, 0 };
	uint64_t inj, cut;

	if (p == 0 || b <= 0 || s < 0)
		return t;
	t.valid = true;
	if (p == 1)
		return t;
	/* each GPU sends (p-1)/p of its S bytes out of its own link */
	inj =
	    ceil_div128((unsigned __int128)(p - 1) * (uint64_t)s * 8000000000u,
			(unsigned __int128)p * (uint64_t)b);
	t.ns = inj;
	if (x > 0) {
		/* floor(p/2) ceil(p/2) pairs cross the cut, S/p bytes each */
		unsigned __int128 pairs =
		    (unsigned __int128)(p / 2) * (p - p / 2);

		cut = ceil_div128(pairs * (uint64_t)s * 8000000000u,
				  (unsigned __int128)p * (uint64_t)x);
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
 * 150 MB there).  Each link's rate is link_rate()'s, from its ports'
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
		/* link_rate(): the slower end's, or the one that says */
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

void capacity_compute(struct derived *dv, struct capacity *c)
{
	const struct rk_design *d = dv->d;
	uint32_t *slot = xmalloc((d->nobjs + 1) * sizeof(*slot));
	uint32_t *dom = xmalloc((d->nobjs + 1) * sizeof(*dom));
	uint32_t *seen = xmalloc((d->nobjs + 1) * sizeof(*seen));
	uint32_t *gp = NULL; /* GPU parts, per device part, memoised */
	struct dev_gpus *memo = xcalloc(d->nobjs + 1, sizeof(*memo));
	uint8_t *memo_done = xcalloc(d->nobjs + 1, 1);
	uint32_t ngp = 0, gp_cap = 0, *eoff;
	struct gpu_end *ends;
	int64_t best = 0;
	const struct rack_totals *rt;

	memset(c, 0, sizeof(*c));
	memset(slot, 0xff, (d->nobjs + 1) * sizeof(*slot));
	memset(dom, 0xff, (d->nobjs + 1) * sizeof(*dom));
	memset(seen, 0xff, (d->nobjs + 1) * sizeof(*seen));
	c->scaleout = RK_NONE;
	c->nvlink_latency = -1;
	c->fabric_latency = -1;
	c->pue = -1;
	c->pue_site = RK_NONE;
	c->message = CAP_DEFAULT_MESSAGE;

	/* the GPU parts of every device, memoised per device part */
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
			gp = xrealloc(gp, gp_cap * sizeof(*gp));
		}
		memo[p].first = ngp;
		memo[p].n = part_gpus(d, p, gp + ngp, n);
		ngp += n;
	}
	/* models, in part-id order */
	for (uint32_t k = 0; k < ngp; k++)
		if (gp[k] != RK_NONE && slot[gp[k]] == RK_NONE)
			slot[gp[k]] = 0;
	for (uint32_t p = 0; p < d->nobjs; p++)
		if (slot[p] != RK_NONE)
			slot[p] = c->nmodels++;
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

		if (d->objs[i].kind != K_DEVICE || p == RK_NONE)
			continue;
		for (uint32_t k = 0; k < memo[p].n; k++) {
			uint32_t g = gp[memo[p].first + k];

			if (g != RK_NONE)
				c->models[slot[g]].count++;
		}
		c->gpus += memo[p].n;
	}

	/* totals */
	for (unsigned k = 0; k < CAP__PREC; k++)
		c->flops_known[k] = c->nmodels > 0;
	c->nvlink_latency = c->nmodels ? 0 : -1;
	for (uint32_t j = 0; j < c->nmodels; j++) {
		const struct cap_model *m = &c->models[j];

		for (unsigned k = 0; k < CAP__PREC; k++) {
			if (!m->flops[k])
				c->flops_known[k] = false;
			c->flops[k] +=
			    (unsigned __int128)m->count * (uint64_t)m->flops[k];
		}
		c->hbm += (unsigned __int128)m->count * (uint64_t)m->hbm;
		c->hbm_bw += (unsigned __int128)m->count * (uint64_t)m->hbm_bw;
		if (m->nvlink_bw &&
		    (!c->nvlink_dir || m->nvlink_bw < c->nvlink_dir))
			c->nvlink_dir = m->nvlink_bw;
		if (m->latency < 0)
			c->nvlink_latency = -1;
		else if (c->nvlink_latency >= 0 &&
			 m->latency > c->nvlink_latency)
			c->nvlink_latency = m->latency;
	}
	for (unsigned k = 0; k < CAP__PREC; k++)
		if (!c->flops_known[k])
			c->flops[k] = 0;

	/* NVLink domains: the nvlink fabrics first, then one per server */
	c->domain_min = UINT32_MAX;
	for (uint32_t f = 0; f < d->nobjs; f++) {
		struct ir_ep_cursor cur = { 0, 0 };
		uint32_t n = 0;
		unsigned __int128 hbm = 0;

		if (d->objs[f].kind != K_FABRIC || d->objs[f].cls != FAB_NVLINK)
			continue;
		for (const struct rk_value *v;
		     (v = ir_next_endpoint(d, f, &cur));) {
			uint32_t dev = v->a, p = d->objs[dev].part;

			if (dom[dev] != RK_NONE || p == RK_NONE)
				continue;
			dom[dev] = f;
			n += memo[p].n;
			for (uint32_t k = 0; k < memo[p].n; k++) {
				uint32_t g = gp[memo[p].first + k];

				if (g != RK_NONE)
					hbm += (uint64_t)c->models[slot[g]].hbm;
			}
		}
		if (!n)
			continue;
		c->domains++;
		c->domain_max = n > c->domain_max ? n : c->domain_max;
		c->domain_min = n < c->domain_min ? n : c->domain_min;
		if (hbm > c->domain_hbm_max)
			c->domain_hbm_max = hbm;
	}
	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t p = d->objs[i].part, n, per;
		unsigned __int128 hbm = 0;
		bool nv = true;

		if (d->objs[i].kind != K_DEVICE || p == RK_NONE ||
		    dom[i] != RK_NONE || !memo[p].n)
			continue;
		n = memo[p].n;
		for (uint32_t k = 0; k < n; k++) {
			uint32_t g = gp[memo[p].first + k];

			if (g == RK_NONE || !c->models[slot[g]].nvlink_bw)
				nv = false;
			else
				hbm += (uint64_t)c->models[slot[g]].hbm;
		}
		/* GPUs without scale-up links are domains of one */
		per = nv ? n : 1;
		if (!nv && n) {
			uint32_t g = gp[memo[p].first];

			hbm =
			    g != RK_NONE ? (uint64_t)c->models[slot[g]].hbm : 0;
		}
		c->domains += n / per;
		c->domain_max = per > c->domain_max ? per : c->domain_max;
		c->domain_min = per < c->domain_min ? per : c->domain_min;
		if (hbm > c->domain_hbm_max)
			c->domain_hbm_max = hbm;
	}
	if (c->domain_min == UINT32_MAX)
		c->domain_min = 0;

	/*
	 * scale-out: the fabric whose endpoint ports on GPU devices inject
	 * the most; per GPU, that injection over those devices' GPUs
	 */
	ends = gpu_ends(d, memo, &eoff);
	for (uint32_t f = 0; f < d->nobjs; f++) {
		struct ir_ep_cursor cur = { 0, 0 };
		uint64_t n = 0;
		int64_t inj = 0;

		if (d->objs[f].kind != K_FABRIC || d->objs[f].cls == FAB_NVLINK)
			continue;
		for (const struct rk_value *v;
		     (v = ir_next_endpoint(d, f, &cur));) {
			uint32_t dev = v->a, p = d->objs[dev].part;

			if (p == RK_NONE || !memo[p].n)
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
		if (!n || inj <= 0 || inj <= best)
			continue;
		best = inj;
		c->scaleout = f;
		c->scaleout_gpus = n;
		c->scaleout_per_gpu = (int64_t)((uint64_t)inj / n);
		c->scaleout_exact = (uint64_t)inj % n == 0;
		/*
		 * The least cut found, a balanced cut that exists: the
		 * All-to-All time through it is a lower bound; through the
		 * bisection's lower bound (less than any cut when it is not
		 * exact) it would not be.
		 */
		c->bisection = derived_fabric(dv, f)->bisection_upper;
	}
	free(eoff);
	free(ends);
	if (c->scaleout != RK_NONE) {
		const struct rk_value *v;

		v = ir_attr(d, c->scaleout, A_LATENCY);
		if (v && v->type == VT_NUM)
			c->fabric_latency = v->n;
		v = ir_attr(d, c->scaleout, A_MESSAGE_SIZE);
		if (v && v->type == VT_NUM && v->n > 0)
			c->message = v->n;
	}

	/* collectives */
	c->nv_ring = cap_allreduce_ring(c->domain_max, c->message,
					c->nvlink_dir, c->nvlink_latency);
	c->nv_tree = cap_allreduce_tree(c->domain_max, c->message,
					c->nvlink_dir, c->nvlink_latency);
	c->net_ring =
	    cap_allreduce_ring(c->scaleout_gpus, c->message,
			       c->scaleout_per_gpu, c->fabric_latency);
	c->net_tree =
	    cap_allreduce_tree(c->scaleout_gpus, c->message,
			       c->scaleout_per_gpu, c->fabric_latency);
	c->alltoall = cap_alltoall(c->scaleout_gpus, c->message,
				   c->scaleout_per_gpu, c->bisection);

	/* models that fit */
	{
		unsigned __int128 t = c->hbm / CAP_TRAIN_BYTES,
				  i = c->hbm / CAP_INFER_BYTES,
				  id = c->domain_hbm_max / CAP_INFER_BYTES;

		c->train_params = t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
		c->infer_params = i > UINT64_MAX ? UINT64_MAX : (uint64_t)i;
		c->infer_params_domain =
		    id > UINT64_MAX ? UINT64_MAX : (uint64_t)id;
	}

	/* power: the racks' power_max, and the first site's PUE */
	rt = derived_racks(dv);
	c->it_power = rt->site_power;
	c->it_power_over = rt->site_over & TOTAL_POWER;
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
		c->facility_nw =
		    (unsigned __int128)(uint64_t)c->it_power * (uint64_t)c->pue;
	free(slot);
	free(dom);
	free(seen);
	free(gp);
	free(memo);
	free(memo_done);
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

bool cap_ratio(const struct capacity *c, uint64_t *nv, uint64_t *out)
{
	uint64_t a, b;

	if (c->nvlink_dir <= 0 || c->scaleout_per_gpu <= 0)
		return false;
	a = (uint64_t)c->nvlink_dir;
	b = (uint64_t)c->scaleout_per_gpu;
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	*nv = (uint64_t)c->nvlink_dir / a;
	*out = (uint64_t)c->scaleout_per_gpu / a;
	return true;
}

void capacity_free(struct capacity *c)
{
	free(c->models);
	c->models = NULL;
}
