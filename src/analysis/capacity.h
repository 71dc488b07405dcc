/* SPDX-License-Identifier: MIT */
/*
 * What a design can do: peak dense throughput per precision and HBM, for
 * the design and per cluster (the GPUs that NVLink domains and compute
 * fabrics join); per cluster its NVLink domain classes and scale-out
 * bandwidth per GPU, alpha-beta bounds and estimates of collectives and
 * the largest model that fits in its HBM; and facility power and energy.
 * Computed from the read-only IR, the GPU parts' catalog
 * figures and the fabric figures (metrics.h); read by the report and html
 * back ends.  The formulas are in doc/language.md, section "Capacity
 * figures".
 *
 * Every quantity is an exact integer in base units (FLOP/s, bytes, b/s
 * for every rate, memory bandwidth included, ns, mW) or an exact rational
 * written as one; totals are 128-bit.  Linear in the design but for the
 * sort of the NVLink domains into classes (n log n).
 * Rates are per direction, as a GPU part's `nvlink_bw` is (std halves the
 * catalog's bidirectional total).
 */
#ifndef RACKC_CAPACITY_H
#define RACKC_CAPACITY_H

#include <stdbool.h>
#include <stdint.h>
#include "arith.h"

#include "ir.h"
#include "metrics.h"

enum cap_prec { CAP_FP64, CAP_TF32, CAP_BF16, CAP_FP8, CAP_FP4, CAP__PREC };

/* "fp64", "tf32", ... */
const char *cap_prec_name(enum cap_prec p);

/* The GPUs of one part, with its figures (0: not in the catalog). */
struct cap_model {
	uint32_t part;
	uint64_t count;
	int64_t flops[CAP__PREC]; /* FLOP/s, dense */
	int64_t hbm;		  /* bytes */
	int64_t hbm_bw;		  /* b/s */
	int64_t nvlink_bw;	  /* b/s, per direction */
	int64_t latency;	  /* ns, alpha over NVLink; -1: not given */
};

/*
 * One collective time in ns.  @bound: a lower bound (bandwidth terms
 * only), rounded down, else an estimate (alpha-beta model with the
 * design's latency), rounded up.  @valid: false when a term is missing (no bandwidth).
 */
struct cap_time {
	bool valid, bound;
	uint64_t ns;
};

/*
 * One class of NVLink domains of a cluster: the domains with the same
 * number of GPUs, per-GPU rate, latency and HBM.  A domain is the GPU
 * devices of one nvlink fabric, or the GPUs of one server outside every
 * nvlink fabric (all of them when every GPU part has nvlink_bw, else each
 * GPU alone).  The collective times are of this class's figures only, so
 * a lower bound is below the time of every domain of the class.
 */
struct cap_class {
	uint32_t gpus;	    /* GPUs per domain */
	uint64_t count;	    /* domains */
	int64_t nvlink_dir; /* b/s per GPU per direction, the domain's
				 * least; 0: a GPU without nvlink_bw */
	int64_t latency;    /* ns, alpha over NVLink; -1: not given */
	u128 hbm;	    /* bytes, of one domain */
	struct cap_time ring, tree;
};

/* GPUs of one GPU part (capacity.models index) in one cluster */
struct cap_count {
	uint32_t model;
	uint64_t count;
};

/*
 * A cluster: a connected component of the graph whose nodes are the GPU
 * devices and whose edges are the NVLink domains and the joining fabrics
 * (a fabric joins the GPU devices of its endpoint ports whose role is
 * compute, nvlink or not given: management, out-of-band, console, storage
 * and in-band networks do not).  Its figures add up over its GPUs only.
 */
struct cap_cluster {
	uint32_t name;	    /* the object it is named after (below) */
	uint32_t first_dev; /* its first GPU device */
	uint64_t gpus;
	uint32_t models_at, nmodels;   /* in capacity.counts, by model */
	uint32_t classes_at, nclasses; /* in capacity.classes */
	uint32_t fabrics_at, nfabrics; /* in capacity.fabrics, by object */
	u128 flops[CAP__PREC];
	bool flops_known[CAP__PREC];
	u128 hbm, hbm_bw, domain_hbm_max;
	/* scale-out: its joining non-NVLink fabric with the most injection */
	uint32_t scaleout;	  /* fabric object, RK_NONE: none */
	uint64_t scaleout_gpus;	  /* GPUs of its joined devices */
	int64_t scaleout_per_gpu; /* b/s, floor(injection / GPUs) */
	bool scaleout_exact;	  /* injection divisible by the GPUs */
	/* All-to-All: the cut its bound goes through (capacity.c) */
	int64_t a2a_cut;	/* b/s, 0: none */
	uint64_t a2a_gpus[2];	/* the GPUs on either side of it */
	int64_t fabric_latency; /* ns, -1: not given */
	int64_t message;	/* bytes */
	struct cap_time net_ring, net_tree, alltoall;
	/* models that fit: HBM / bytes per parameter, rounded down */
	uint64_t train_params, infer_params, infer_params_domain;
};

struct capacity {
	uint64_t gpus;
	uint32_t nmodels;
	struct cap_model *models; /* by part id */
	/* sums over every GPU; known only when every model has the figure */
	u128 flops[CAP__PREC];
	bool flops_known[CAP__PREC];
	u128 hbm, hbm_bw;
	/* clusters, in the order of their first GPU device */
	uint32_t nclusters;
	struct cap_cluster *clusters;
	struct cap_count *counts;
	struct cap_class *classes;
	uint32_t *fabrics;
	/* power; it_power_over: it_power is out of range (metrics.h), and
	 * so are the figures made from it */
	bool it_power_over;
	/* it_power lacks a device without power_max (metrics.h): a lower
	 * bound, shown as "at least", with nothing made from it */
	bool it_power_unknown;
	int64_t it_power;  /* mW, sum of the racks' power_max */
	int64_t pue;	   /* ppm, -1: not set */
	uint32_t pue_site; /* the site that sets it */
	u128 facility_nw;  /* it_power (mW) x pue (ppm) = nW */
};

/* Bytes per parameter: mixed-precision Adam training, BF16 inference. */
#define CAP_TRAIN_BYTES 16
#define CAP_INFER_BYTES 2
/* Default message size of the collective estimates: 1 GiB. */
#define CAP_DEFAULT_MESSAGE (INT64_C(1) << 30)
#define CAP_HOURS_PER_YEAR 8760

void capacity_compute(struct derived *dv, struct capacity *c);
/*
 * The `source` strings of a part and of its bases, in order: calls @fn
 * with each (the figures of a GPU model trace to them).
 */
void cap_sources(const struct rk_design *d, uint32_t part,
		 void (*fn)(void *arg, const char *src, bool first), void *arg);
/* @nv : @out (b/s each) reduced; false if either is 0 */
bool cap_ratio(int64_t nv_bps, int64_t out_bps, uint64_t *nv, uint64_t *out);
void capacity_free(struct capacity *c);

/*
 * The closed forms (exposed for the unit tests): p GPUs, message S bytes,
 * per-direction bandwidth B b/s, alpha ns (< 0: none, a lower bound).
 *   ring:  2(p-1) alpha + 2(p-1)/p * 8S/B
 *   tree:  2 ceil(log2 p) alpha + 2 * 8S/B
 */
struct cap_time cap_allreduce_ring(uint64_t p, int64_t s, int64_t b,
				   int64_t alpha);
struct cap_time cap_allreduce_tree(uint64_t p, int64_t s, int64_t b,
				   int64_t alpha);
/*
 * All-to-All of S bytes per GPU among p GPUs, each with B b/s, through a
 * cut of X b/s per direction with @ga GPUs on one side and @gb on the
 * other (ga + gb <= p): at least max((p-1)/p * 8S/B, ga gb / p * 8S/X).
 * X <= 0: no cut term.
 */
struct cap_time cap_alltoall(uint64_t p, int64_t s, int64_t b, uint64_t ga,
			     uint64_t gb, int64_t x);

#endif
