/* SPDX-License-Identifier: MIT */
/*
 * The "report" back end: report.json, the machine-readable summary of a
 * design for CI pipelines (documented in doc/results.md, "Machine-readable
 * results").  Powers are watts and rates bits per second, as exact
 * decimal numbers.
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>

#include "arith.h"
#include "backend.h"
#include "be_common.h"
#include "capacity.h"
#include "svg.h"
#include "fabric.h"
#include "layout.h"
#include "loads.h"
#include "metrics.h"
#include "schema.h"
#include "supply.h"

/* milliwatts as an exact number of watts */
static void json_watts(FILE *fp, int64_t mw)
{
	uint64_t m = mw < 0 ? 0 - (uint64_t)mw : (uint64_t)mw;
	char buf[32];
	size_t n;

	if (m % 1000 == 0) {
		fprintf(fp, "%s%llu", mw < 0 ? "-" : "",
			(unsigned long long)(m / 1000));
		return;
	}
	snprintf(buf, sizeof(buf), "%s%llu.%03llu", mw < 0 ? "-" : "",
		 (unsigned long long)(m / 1000),
		 (unsigned long long)(m % 1000));
	n = strlen(buf);
	while (buf[n - 1] == '0')
		buf[--n] = '\0';
	fputs(buf, fp);
}

/*
 * A total (metrics.h) in watts, or null when it is out of range; the
 * object that holds such figures lists their keys in "out_of_range".
 */
static void json_total(FILE *fp, int64_t mw, unsigned over, unsigned bit)
{
	if (over & bit)
		fputs("null", fp);
	else
		json_watts(fp, mw);
}

/* , "out_of_range": [the keys of @keys whose bit (1 << k) is in @over] */
static void json_out_of_range(FILE *fp, unsigned over, const char *const *keys,
			      unsigned n)
{
	bool first = true;

	if (!over)
		return;
	fputs(", \"out_of_range\": [", fp);
	for (unsigned k = 0; k < n; k++) {
		if (!(over & (1u << k)))
			continue;
		fprintf(fp, "%s\"%s\"", first ? "" : ", ", keys[k]);
		first = false;
	}
	fputc(']', fp);
}

/*
 * , "unknown": [the keys of @keys whose bit is in @unk], "at_least": {each
 * of them whose @low[k] >= 0: that lower bound in watts (or as an integer
 * when @milli is false)}: figures with an unknown term (metrics.h), which
 * the object shows as null
 */
static void json_unknown(FILE *fp, unsigned unk, const char *const *keys,
			 const int64_t *low, unsigned n, bool milli)
{
	bool first = true;

	if (!unk)
		return;
	fputs(", \"unknown\": [", fp);
	for (unsigned k = 0; k < n; k++) {
		if (!(unk & (1u << k)))
			continue;
		fprintf(fp, "%s\"%s\"", first ? "" : ", ", keys[k]);
		first = false;
	}
	fputs("], \"at_least\": {", fp);
	first = true;
	for (unsigned k = 0; k < n; k++) {
		if (!(unk & (1u << k)) || low[k] < 0)
			continue;
		fprintf(fp, "%s\"%s\": ", first ? "" : ", ", keys[k]);
		if (milli)
			json_watts(fp, low[k]);
		else
			fprintf(fp, "%lld", (long long)low[k]);
		first = false;
	}
	fputc('}', fp);
}

static const char *rack_cooling(const struct rk_design *d, uint32_t r)
{
	if (ir_attr(d, r, A_LOOP))
		return "liquid";
	if (ir_attr(d, r, A_RDHX))
		return "rdhx";
	if (ir_attr(d, r, A_AIR))
		return "air";
	return "none";
}

/* one PDU or power shelf mounted in a rack */
/* v / 10^k as an exact decimal number */
static void json_scaled(FILE *fp, unsigned __int128 v, unsigned k)
{
	char buf[64];

	fputs(u128_dec(buf, v, k), fp);
}

static void json_time(FILE *fp, const char *key, const struct cap_time *t)
{
	fprintf(fp, "\"%s\": ", key);
	if (!t->valid)
		fputs("null", fp);
	else
		fprintf(fp, "%llu", (unsigned long long)t->ns);
}

static void json_source(void *arg, const char *src, bool first)
{
	FILE *fp = arg;

	fputs(first ? "" : ", ", fp);
	be_json_str(fp, src);
}

/* "KEY": {"fp64": ..., ...}, each null when not known */
static void json_flops(FILE *fp, const char *key, const unsigned __int128 *v,
		       const bool *known)
{
	fprintf(fp, "\"%s\": {", key);
	for (unsigned k = 0; k < CAP__PREC; k++) {
		fprintf(fp, "%s\"%s\": ", k ? ", " : "",
			cap_prec_name((enum cap_prec)k));
		if (known[k])
			json_scaled(fp, v[k], 0);
		else
			fputs("null", fp);
	}
	fputc('}', fp);
}

/* "KEY": "a:b", the two rates reduced, or null */
static void json_ratio(FILE *fp, const char *key, int64_t a, int64_t b)
{
	uint64_t rn, ro;

	fprintf(fp, "\"%s\": ", key);
	if (cap_ratio(a, b, &rn, &ro))
		fprintf(fp, "\"%llu:%llu\"", (unsigned long long)rn,
			(unsigned long long)ro);
	else
		fputs("null", fp);
}

static void json_ns(FILE *fp, const char *key, int64_t ns)
{
	fprintf(fp, "\"%s\": ", key);
	if (ns >= 0)
		fprintf(fp, "%lld", (long long)ns);
	else
		fputs("null", fp);
}

/* one entry of "capacity"."clusters" (doc/language.md, section 10.1) */
static void report_cluster(FILE *fp, const struct rk_design *d,
			   const struct capacity *c,
			   const struct cap_cluster *x, uint32_t q)
{
	fputs(q ? ",\n    {\"name\": " : "\n    {\"name\": ", fp);
	be_json_str(fp, ir_name(d, x->name));
	fprintf(fp, ", \"gpus\": %llu, \"gpu_models\": [",
		(unsigned long long)x->gpus);
	for (uint32_t k = 0; k < x->nmodels; k++) {
		const struct cap_count *n = &c->counts[x->models_at + k];

		fputs(k ? ", {\"part\": " : "{\"part\": ", fp);
		be_json_str(fp, ir_name(d, c->models[n->model].part));
		fprintf(fp, ", \"count\": %llu}", (unsigned long long)n->count);
	}
	fputs("], \"fabrics\": [", fp);
	for (uint32_t k = 0; k < x->nfabrics; k++) {
		fputs(k ? ", " : "", fp);
		be_json_str(fp, ir_name(d, c->fabrics[x->fabrics_at + k]));
	}
	fputs("],\n     ", fp);
	json_flops(fp, "flops_dense", x->flops, x->flops_known);
	fputs(", \"hbm_bytes\": ", fp);
	json_scaled(fp, x->hbm, 0);
	fputs(", \"hbm_bps\": ", fp);
	json_scaled(fp, x->hbm_bw, 0);
	fputs(",\n     \"nvlink_domains\": [", fp);
	for (uint32_t k = 0; k < x->nclasses; k++) {
		const struct cap_class *y = &c->classes[x->classes_at + k];

		fprintf(fp,
			"%s{\"gpus\": %u, \"count\": %llu, "
			"\"nvlink_bps_per_gpu\": %lld, \"hbm_bytes\": ",
			k ? ",\n       " : "\n       ", y->gpus,
			(unsigned long long)y->count, (long long)y->nvlink_dir);
		json_scaled(fp, y->hbm, 0);
		fputs(", ", fp);
		json_ratio(fp, "nvlink_to_scaleout", y->nvlink_dir,
			   x->scaleout_per_gpu);
		fputs(", ", fp);
		json_ns(fp, "latency_ns", y->latency);
		fputs(", ", fp);
		json_time(fp, "allreduce_ring_ns", &y->ring);
		fputs(", ", fp);
		json_time(fp, "allreduce_tree_ns", &y->tree);
		fprintf(fp, ", \"basis\": \"%s\"}",
			y->ring.bound ? "lower bound" : "estimate");
	}
	fputs(x->nclasses ? "],\n     \"scaleout_fabric\": "
			  : "], \"scaleout_fabric\": ",
	      fp);
	be_json_str(fp,
		    x->scaleout != RK_NONE ? ir_name(d, x->scaleout) : NULL);
	fprintf(fp,
		", \"scaleout_gpus\": %llu, \"scaleout_bps_per_gpu\": %lld, "
		"\"scaleout_bps_per_gpu_exact\": %s,\n     \"collectives\": "
		"{\"message_bytes\": %lld, ",
		(unsigned long long)x->scaleout_gpus,
		(long long)x->scaleout_per_gpu,
		x->scaleout_exact ? "true" : "false", (long long)x->message);
	json_ns(fp, "fabric_latency_ns", x->fabric_latency);
	fputs(", ", fp);
	json_time(fp, "fabric_allreduce_ring_ns", &x->net_ring);
	fputs(", ", fp);
	json_time(fp, "fabric_allreduce_tree_ns", &x->net_tree);
	fprintf(fp, ", \"fabric_basis\": \"%s\", ",
		x->net_ring.bound ? "lower bound" : "estimate");
	json_time(fp, "alltoall_ns", &x->alltoall);
	if (x->a2a_cut > 0)
		fprintf(fp,
			", \"alltoall_cut_bps\": %lld, "
			"\"alltoall_cut_gpus\": [%llu, %llu]",
			(long long)x->a2a_cut,
			(unsigned long long)x->a2a_gpus[0],
			(unsigned long long)x->a2a_gpus[1]);
	else
		fputs(", \"alltoall_cut_bps\": null, "
		      "\"alltoall_cut_gpus\": null",
		      fp);
	fprintf(fp,
		", \"alltoall_basis\": \"lower bound\"},\n     "
		"\"model_params\": {\"training_bytes_per_param\": %d, "
		"\"training_max\": %llu, \"inference_bytes_per_param\": %d, "
		"\"inference_max\": %llu, \"inference_max_per_domain\": %llu, "
		"\"basis\": \"upper bound (weights and optimizer state "
		"only)\"}}",
		CAP_TRAIN_BYTES, (unsigned long long)x->train_params,
		CAP_INFER_BYTES, (unsigned long long)x->infer_params,
		(unsigned long long)x->infer_params_domain);
}

/*
 * The "capacity" section (doc/results.md, "Machine-readable results"; formulas
 * in doc/language.md, "Capacity figures").
 */
static void report_capacity(FILE *fp, struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	struct capacity c;

	capacity_compute(ctx->dv, &c);
	fprintf(fp, ",\n  \"capacity\": {\"gpus\": %llu, \"gpu_models\": [",
		(unsigned long long)c.gpus);
	for (uint32_t j = 0; j < c.nmodels; j++) {
		const struct cap_model *m = &c.models[j];

		fputs(j ? ",\n    {\"part\": " : "\n    {\"part\": ", fp);
		be_json_str(fp, ir_name(d, m->part));
		fputs(", \"model\": ", fp);
		be_json_str(fp, ir_str(d, m->part, A_MODEL));
		fprintf(fp, ", \"count\": %llu, \"flops_dense\": {",
			(unsigned long long)m->count);
		for (unsigned k = 0; k < CAP__PREC; k++) {
			fprintf(fp, "%s\"%s\": ", k ? ", " : "",
				cap_prec_name((enum cap_prec)k));
			if (m->flops[k])
				fprintf(fp, "%lld", (long long)m->flops[k]);
			else
				fputs("null", fp);
		}
		fprintf(fp,
			"}, \"hbm_bytes\": %lld, \"hbm_bps\": %lld, "
			"\"nvlink_bps_bidirectional\": %lld, "
			"\"nvlink_bps_per_direction\": %lld, \"sources\": [",
			(long long)m->hbm, (long long)m->hbm_bw,
			(long long)m->nvlink_bw * 2, (long long)m->nvlink_bw);
		cap_sources(d, m->part, json_source, fp);
		fputs("]}", fp);
	}
	fputs(c.nmodels ? "\n  ],\n  " : "],\n  ", fp);
	json_flops(fp, "flops_dense_total", c.flops, c.flops_known);
	fputs(",\n  \"hbm_bytes_total\": ", fp);
	json_scaled(fp, c.hbm, 0);
	fputs(", \"hbm_bps_total\": ", fp);
	json_scaled(fp, c.hbm_bw, 0);
	fputs(",\n  \"clusters\": [", fp);
	for (uint32_t q = 0; q < c.nclusters; q++)
		report_cluster(fp, d, &c, &c.clusters[q], q);
	fputs(c.nclusters ? "\n  ],\n  \"power\": {\"it_w\": "
			  : "],\n  \"power\": {\"it_w\": ",
	      fp);
	if (c.it_power_over || c.it_power_unknown) {
		/* out of range or a lower bound: no figure made from it */
		static const char *const keys[] = { "it_w", "facility_w",
						    "energy_per_year_wh",
						    "it_energy_per_year_wh" };
		int64_t low[4] = { c.it_power, -1, -1, -1 };

		fputs("null, \"pue\": ", fp);
		if (c.pue >= 0) {
			fputc('"', fp);
			json_scaled(fp, (uint64_t)c.pue, 4);
			fputs("%\"", fp);
		} else {
			fputs("null", fp);
		}
		fputs(", \"facility_w\": null, \"energy_per_year_wh\": null, "
		      "\"it_energy_per_year_wh\": null",
		      fp);
		if (c.it_power_over)
			json_out_of_range(fp, c.pue >= 0 ? 15 : 9, keys, 4);
		else
			json_unknown(fp, c.pue >= 0 ? 15 : 9, keys, low, 4,
				     true);
		fprintf(fp, ", \"hours_per_year\": %d}}", CAP_HOURS_PER_YEAR);
		capacity_free(&c);
		return;
	}
	json_watts(fp, c.it_power);
	fputs(", \"pue\": ", fp);
	if (c.pue >= 0) {
		fputc('"', fp);
		json_scaled(fp, (uint64_t)c.pue, 4);
		fputs("%\", \"facility_w\": ", fp);
		json_scaled(fp, c.facility_nw, 9);
		fprintf(fp, ", \"energy_per_year_wh\": ");
		json_scaled(fp, c.facility_nw * CAP_HOURS_PER_YEAR, 9);
	} else {
		fputs(
		    "null, \"facility_w\": null, \"energy_per_year_wh\": null",
		    fp);
	}
	fprintf(fp, ", \"it_energy_per_year_wh\": ");
	json_scaled(
	    fp,
	    (unsigned __int128)(uint64_t)(c.it_power > 0 ? c.it_power : 0) *
		CAP_HOURS_PER_YEAR,
	    3);
	fprintf(fp, ", \"hours_per_year\": %d}}", CAP_HOURS_PER_YEAR);
	capacity_free(&c);
}

/*
 * A fabric's bisection: the interval (bisection_bps, the exact value or a
 * proven lower bound; bisection_upper_bps, the least cut found), how each
 * was obtained, and the figures it is measured against; null without two
 * endpoint devices.
 */
static void report_bisection(FILE *fp, const struct fabric_metrics *m)
{
	char how[160];

	metrics_bisection_method(m, how, sizeof(how));
	if (m->method == BISECT_NONE)
		fputs(
		    "\"bisection_bps\": null, \"bisection_upper_bps\": null, ",
		    fp);
	else
		fprintf(fp,
			"\"bisection_bps\": %lld, \"bisection_upper_bps\": "
			"%lld, ",
			(long long)m->bisection, (long long)m->bisection_upper);
	fputs("\"bisection_method\": ", fp);
	be_json_str(fp, how);
	fprintf(fp,
		", \"bisection_exact\": %s, \"endpoint_devices\": %u, "
		"\"full_bisection_bps\": %lld",
		m->method == BISECT_EXACT ? "true" : "false", m->devices,
		(long long)m->full_bisection);
}

/* The same at the node level (the servers as terminals, doc/language.md
 * §9.11): node_bisection_bps, node_bisection_upper_bps, ... */
static void report_node_bisection(FILE *fp, const struct fabric_metrics *m)
{
	struct fabric_metrics n;
	char how[240];

	metrics_node_view(m, &n);
	metrics_bisection_method(&n, how, sizeof(how));
	if (n.method == BISECT_NONE)
		fputs(", \"node_bisection_bps\": null, "
		      "\"node_bisection_upper_bps\": null",
		      fp);
	else
		fprintf(fp,
			", \"node_bisection_bps\": %lld, "
			"\"node_bisection_upper_bps\": %lld",
			(long long)n.bisection, (long long)n.bisection_upper);
	fputs(", \"node_bisection_method\": ", fp);
	be_json_str(fp, how);
	fprintf(fp,
		", \"node_bisection_exact\": %s, \"nodes\": %u, "
		"\"node_full_bisection_bps\": %lld",
		n.method == BISECT_EXACT ? "true" : "false", n.devices,
		(long long)n.full_bisection);
}

/* "KEY": [names of the objects of @group in @m], from *@at on */
static void json_members(FILE *fp, const struct rk_design *d, const char *key,
			 const struct load_member *m, uint32_t n, uint32_t *at,
			 uint32_t group)
{
	uint32_t c = load_members_of(m, n, at, group);

	fprintf(fp, ", \"%s\": [", key);
	for (uint32_t k = 0; k < c; k++, (*at)++) {
		fputs(k ? ", " : "", fp);
		be_json_str(fp, ir_name(d, m[*at].obj));
	}
	fputc(']', fp);
}

/* "KEY": v in thousandths (watts of mW, kelvin of mK), or null */
static void json_milli(FILE *fp, const char *key, bool known, int64_t v)
{
	fprintf(fp, ", \"%s\": ", key);
	if (known)
		json_watts(fp, v);
	else
		fputs("null", fp);
}

static void json_int(FILE *fp, const char *key, bool known, int64_t v)
{
	fprintf(fp, ", \"%s\": ", key);
	if (known)
		fprintf(fp, "%lld", (long long)v);
	else
		fputs("null", fp);
}

/*
 * The "feeds" section: per feed the racks and supplies (PDUs, power
 * shelves) on it, its capacity as power-feed-capacity computes it, its
 * load in normal operation and after the worst loss of one other feed,
 * and the headroom left in each case.
 */
static void report_feeds(FILE *fp, const struct rk_design *d,
			 struct derived *dv)
{
	uint32_t nf, np = 0, nr = 0, ap = 0, ar = 0;
	const struct feed_load *f = derived_feed_loads(dv, &nf);
	struct load_member *pdus = NULL, *racks = NULL;
	static const char *const feed_keys[] = { "load_w", "headroom_w",
						 "load_after_loss_w",
						 "headroom_after_loss_w" };

	if (nf) {
		pdus = load_feed_supplies(d, &np);
		racks = load_feed_racks(d, &nr);
	}
	fputs(",\n  \"feeds\": [", fp);
	for (uint32_t k = 0; k < nf; k++) {
		const struct feed_load *x = &f[k];
		bool known = x->cap_known, lost = x->lost_load >= 0;
		bool unk = x->load_unknown;

		fputs(k ? ",\n    {\"name\": " : "\n    {\"name\": ", fp);
		be_json_str(fp, ir_name(d, x->feed));
		json_members(fp, d, "racks", racks, nr, &ar, x->feed);
		json_members(fp, d, "supplies", pdus, np, &ap, x->feed);
		json_milli(fp, "capacity_w", known, x->capacity);
		fprintf(fp, ", \"capacity_exact\": %s",
			known && x->cap_exact ? "true" : "false");
		json_milli(fp, "load_w", !x->load_over && !unk, x->load);
		json_milli(fp, "headroom_w", known && !x->load_over && !unk,
			   x->capacity - x->load);
		json_milli(fp, "load_after_loss_w",
			   lost && !x->lost_over && !unk, x->lost_load);
		fputs(", \"worst_loss\": ", fp);
		be_json_str(fp, x->lost_feed != RK_NONE
				    ? ir_name(d, x->lost_feed)
				    : NULL);
		json_milli(fp, "headroom_after_loss_w",
			   known && lost && !x->lost_over && !unk,
			   x->capacity - x->lost_load);
		json_out_of_range(
		    fp,
		    (x->load_over ? 1u | (known ? 2u : 0) : 0) |
			(x->lost_over ? 4u | (known ? 8u : 0) : 0),
		    feed_keys, 4);
		if (unk) {
			int64_t low[4] = { x->load_over ? -1 : x->load, -1,
					   lost && !x->lost_over ? x->lost_load
								 : -1,
					   -1 };

			json_unknown(
			    fp,
			    (x->load_over ? 0 : 1u | (known ? 2u : 0)) |
				(lost && !x->lost_over ? 4u | (known ? 8u : 0)
						       : 0),
			    feed_keys, low, 4, true);
		}
		fputc('}', fp);
	}
	fputs(nf ? "\n  ]" : "]", fp);
	free(pdus);
	free(racks);
}

/*
 * The "loops" section: per liquid loop its racks and CDUs, the heat it
 * takes to liquid, the CDUs' capacity less redundancy and the coolant
 * flow, as the cooling checks compute them, with the headroom left.
 */
static void report_loops(FILE *fp, const struct rk_design *d,
			 struct derived *dv)
{
	uint32_t nl, nr = 0, ar = 0;
	const struct loop_load *l = derived_loop_loads(dv, &nl);
	struct load_member *racks = nl ? load_loop_racks(d, &nr) : NULL;
	static const char *const loop_keys[] = { "heat_w", "headroom_w",
						 "flow_ml_per_min",
						 "flow_headroom_ml_per_min" };

	fputs(",\n  \"loops\": [", fp);
	for (uint32_t k = 0; k < nl; k++) {
		const struct loop_load *x = &l[k];
		const struct rk_value *cdu = ir_attr(d, x->loop, A_CDU);
		const struct rk_value *dt = ir_attr(d, x->loop, A_DELTA_T);
		uint32_t n = cdu && cdu->type == VT_LIST ? (uint32_t)cdu->n : 0;
		bool unk = x->heat_unknown;

		fputs(k ? ",\n    {\"name\": " : "\n    {\"name\": ", fp);
		be_json_str(fp, ir_name(d, x->loop));
		json_members(fp, d, "racks", racks, nr, &ar, x->loop);
		fputs(", \"cdus\": [", fp);
		for (uint32_t i = 0, first = 1; i < n; i++) {
			const struct rk_value *e = ir_list_at(d, cdu, i);

			if (e->type != VT_OBJ)
				continue;
			fputs(first ? "" : ", ", fp);
			first = 0;
			be_json_str(fp, ir_name(d, e->a));
		}
		fputs("], \"redundancy\": ", fp);
		be_json_str(fp, ir_str(d, x->loop, A_REDUNDANCY));
		json_milli(fp, "heat_w", !x->heat_over && !unk, x->heat);
		json_milli(fp, "capacity_w", x->capacity >= 0, x->capacity);
		json_milli(fp, "headroom_w",
			   x->capacity >= 0 && !x->heat_over && !unk,
			   x->capacity - x->heat);
		fputs(", \"coolant\": ", fp);
		be_json_str(fp, ir_str(d, x->loop, A_COOLANT));
		json_milli(fp, "delta_t_k", dt && dt->type == VT_NUM,
			   dt ? dt->n : 0);
		json_int(fp, "flow_ml_per_min",
			 x->flow >= 0 && !x->heat_over && !unk, x->flow);
		json_int(fp, "max_flow_ml_per_min", x->max_flow >= 0,
			 x->max_flow);
		json_int(fp, "flow_headroom_ml_per_min",
			 x->flow >= 0 && x->max_flow >= 0 && !x->heat_over &&
			     !unk,
			 x->max_flow - x->flow);
		json_out_of_range(
		    fp,
		    x->heat_over
			? 1u | (x->capacity >= 0 ? 2u : 0) |
			      (x->flow >= 0 ? 4u : 0) |
			      (x->flow >= 0 && x->max_flow >= 0 ? 8u : 0)
			: 0,
		    loop_keys, 4);
		if (unk && !x->heat_over) {
			bool fl = x->flow >= 0, mf = fl && x->max_flow >= 0;

			/* keys in the order of loop_keys; the heat's lower
			 * bound in watts, the flow's in mL/min */
			fprintf(fp, ", \"unknown\": [\"heat_w\"%s%s%s]",
				x->capacity >= 0 ? ", \"headroom_w\"" : "",
				fl ? ", \"flow_ml_per_min\"" : "",
				mf ? ", \"flow_headroom_ml_per_min\"" : "");
			fputs(", \"at_least\": {\"heat_w\": ", fp);
			json_watts(fp, x->heat);
			if (fl)
				fprintf(fp, ", \"flow_ml_per_min\": %lld",
					(long long)x->flow);
			fputc('}', fp);
		}
		fputc('}', fp);
	}
	fputs(nl ? "\n  ]" : "]", fp);
	free(racks);
}

/*
 * "unknown_figures": the figures budgets need that parts lack (loads.h),
 * each with the devices that need it and, for power_max, the part's
 * typical power when it gives one (a separate figure, never the maximum).
 */
static void report_unknown(FILE *fp, const struct rk_design *d,
			   const struct figure_report *fr)
{
	uint32_t n = fr ? fr->nunknown : 0;
	const struct unknown_fig *u = fr ? fr->unknown : NULL;

	fputs(",\n  \"unknown_figures\": [", fp);
	for (uint32_t k = 0; k < n; k++) {
		fputs(k ? ",\n    {\"part\": " : "\n    {\"part\": ", fp);
		be_json_str(fp, ir_name(d, u[k].part));
		fprintf(fp, ", \"attribute\": \"%s\", \"devices\": %u",
			attr_table[u[k].key].name, u[k].objects);
		if (u[k].key == A_POWER_MAX)
			json_milli(fp, "power_typ_w", u[k].typ >= 0, u[k].typ);
		fputc('}', fp);
	}
	fputs(n ? "\n  ]" : "]", fp);
}

/*
 * The part an estimated figure is on; for a coolant whose properties are
 * rackc's estimates, null and the coolant ("part": null, "coolant": "pg25").
 */
static void json_est_part(FILE *fp, const struct rk_design *d,
			  const struct estimated_fig *e)
{
	if (e->coolant) {
		fputs("null, \"coolant\": ", fp);
		be_json_str(fp, e->coolant);
	} else {
		be_json_str(fp, ir_name(d, e->part));
	}
}

/* "estimated": the figures marked estimated that verdicts rest on. */
static void report_estimated(FILE *fp, const struct rk_design *d,
			     const struct figure_report *fr)
{
	uint32_t n = fr ? fr->nest : 0;
	const struct estimated_fig *e = fr ? fr->est : NULL;

	fputs(",\n  \"estimated\": [", fp);
	for (uint32_t k = 0; k < n; k++) {
		const char *c = e[k].checks;

		fputs(k ? ",\n    {\"part\": " : "\n    {\"part\": ", fp);
		json_est_part(fp, d, &e[k]);
		fprintf(fp,
			", \"attribute\": \"%s\", \"objects\": %u, "
			"\"note\": ",
			attr_table[e[k].attr].name, e[k].objects);
		be_json_str(fp, e[k].text);
		fputs(", \"checks\": [", fp);
		/* "a, b, c" as a list */
		for (bool first = true; *c;) {
			const char *end = strchr(c, ',');
			size_t len = end ? (size_t)(end - c) : strlen(c);

			fprintf(fp, "%s\"%.*s\"", first ? "" : ", ", (int)len,
				c);
			first = false;
			c += len;
			while (*c == ',' || *c == ' ')
				c++;
		}
		fputs("]}", fp);
	}
	fputs(n ? "\n  ]" : "]", fp);
}

/* report.json's name of an enum cover_outcome */
static const char *outcome_name(uint32_t o)
{
	static const char *const names[] = {
		[COVER_PROVED] = "proved",
		[COVER_UNKNOWN] = "missing_figure",
		[COVER_WAIVED] = "waived",
		[COVER_PREREQ] = "prerequisite_failed",
	};

	return o < ARRAY_SIZE(names) ? names[o] : "?";
}

/*
 * "estimated_verdicts": each budget verdict that reads a figure marked
 * estimated: the check, the object judged, its outcome and the estimated
 * figures it rests on (loads.h, struct figure_report).
 */
static void report_est_verdicts(FILE *fp, const struct rk_design *d,
				const struct derived *dv)
{
	const struct figure_report *fr = dv ? dv->figures : NULL;
	uint32_t n = fr ? fr->nverdicts : 0;

	fputs(",\n  \"estimated_verdicts\": [", fp);
	for (uint32_t k = 0; k < n; k++) {
		const struct est_verdict *v = &fr->verdicts[k];

		fprintf(fp, "%s{\"check\": \"%s\", \"object\": ",
			k ? ",\n    " : "\n    ", dv->check_names[v->check]);
		be_json_str(fp, ir_name(d, v->obj));
		fprintf(fp, ", \"verdict\": \"%s\", \"figures\": [",
			outcome_name(v->outcome));
		for (uint32_t i = 0; i < v->n; i++) {
			const struct estimated_fig *e =
			    &fr->est[fr->refs[v->first + i]];

			fputs(i ? ", {\"part\": " : "{\"part\": ", fp);
			json_est_part(fp, d, e);
			fprintf(fp, ", \"attribute\": \"%s\"}",
				attr_table[e->attr].name);
		}
		fputs("]}", fp);
	}
	fputs(n ? "\n  ]" : "]", fp);
}

/*
 * "coverage": per check that judges a budget and ran, the objects it
 * proved and those it could not, by reason (metrics.h, check_coverage).
 */
static void report_coverage(FILE *fp, struct backend_ctx *ctx)
{
	const struct check_coverage *cv = ctx->dv ? ctx->dv->coverage : NULL;
	const struct figure_report *fr = ctx->dv ? ctx->dv->figures : NULL;
	bool first = true;

	fputs(",\n  \"coverage\": {", fp);
	for (unsigned i = 0; cv && i < ctx->dv->ncoverage; i++) {
		const struct check_coverage *x = &cv[i];

		if (!x->ran || !x->tracked)
			continue;
		fprintf(fp,
			"%s\n    \"%s\": {\"proved\": %u, \"not_proved\": %u, "
			"\"missing_figure\": %u, \"waived\": %u, "
			"\"prerequisite_failed\": %u, "
			"\"proved_on_estimates\": %u}",
			first ? "" : ",", ctx->dv->check_names[i], x->proved,
			x->unknown + x->waived + x->prereq, x->unknown,
			x->waived, x->prereq, fr ? fr->on_estimates[i] : 0);
		first = false;
	}
	fputs(first ? "}" : "\n  }", fp);
}

/* "file", "line" and "column" of @loc, when it has a place. */
static void json_place(FILE *fp, const struct diag_engine *f,
		       const struct srcloc *loc)
{
	const struct srcfile *sf =
	    loc->file && f->sm ? srcmgr_file(f->sm, loc->file) : NULL;
	uint32_t line = 0, col = 0;

	if (!sf)
		return;
	srcmgr_linecol(f->sm, loc->file, loc->begin, &line, &col);
	fputs("\"file\": ", fp);
	be_json_str(fp, sf->path);
	fprintf(fp, ", \"line\": %u, \"column\": %u, ", line, col);
}

/*
 * Every finding of the checks, whatever --max-errors showed on the
 * terminal and whatever the diagnostics format: level, check, object,
 * place, message, how many identical ones it stands for (repeats) and
 * its notes; then the notes about the run (a check skipped).  The
 * "more like this" notes of the text output are left out: the findings
 * they stand for are all here.
 */
/* A finding's exact figures (diag_record.figures), where its check gives
 * them: name, value in base units and unit, the value as a quantity
 * (exact), and whether it is exact or a bound. */
static void report_figures(FILE *fp, const char *figs)
{
	struct diag_figure g;
	const char *p = figs;
	bool first = true;

	if (!figs)
		return;
	fputs(", \"figures\": [", fp);
	while (diag_figure_next(&p, &g)) {
		char q[RK_QFMT_MAX];

		fprintf(
		    fp,
		    "%s{\"name\": \"%.*s\", \"value\": %lld, "
		    "\"unit\": \"%s\", \"text\": \"%s\", \"bound\": \"%s\"}",
		    first ? "" : ", ", (int)g.name_len, g.name, (long long)g.v,
		    dim_base_unit((enum dim)g.dim),
		    quantity_format((struct quantity){ (enum dim)g.dim, g.v },
				    q),
		    g.bound == '>'   ? "at least"
		    : g.bound == '<' ? "at most"
				     : "exact");
		first = false;
	}
	fputc(']', fp);
}

static void report_findings(FILE *fp, const struct diag_engine *f)
{
	bool first = true, in = false, any_alone = false;
	uint32_t nf = 0;

	fputs(",\n    \"findings\": [", fp);
	for (uint32_t i = 0; f && i < f->nrecs; i++) {
		const struct diag_record *r = &f->recs[i];

		if (r->level == DIAG_NOTE) {
			if (r->kind == DIAG_NOTE_ALONE)
				any_alone = true;
			if (r->kind != DIAG_NOTE_OWN || !in)
				continue;
			fputs(first ? "{" : ", {", fp);
			first = false;
			json_place(fp, f, &r->loc);
			fputs("\"message\": ", fp);
			be_json_str(fp, r->message);
			fputc('}', fp);
			continue;
		}
		if (in)
			fputs("]}", fp);
		fputs(nf++ ? ",\n      {" : "\n      {", fp);
		fprintf(fp, "\"level\": \"%s\", \"check\": ",
			r->level == DIAG_ERROR ? "error" : "warning");
		if (r->check)
			be_json_str(fp, r->check);
		else
			fputs("null", fp);
		fputs(", \"object\": ", fp);
		if (r->object)
			be_json_str(fp, r->object);
		else
			fputs("null", fp);
		fputs(", ", fp);
		json_place(fp, f, &r->loc);
		fputs("\"message\": ", fp);
		be_json_str(fp, r->message);
		report_figures(fp, r->figures);
		fprintf(fp, ", \"repeats\": %u, \"notes\": [", r->repeats);
		in = true;
		first = true;
	}
	if (in)
		fputs("]}\n    ", fp);
	fputs("],\n    \"notes\": [", fp);
	first = true;
	for (uint32_t i = 0; any_alone && i < f->nrecs; i++) {
		const struct diag_record *r = &f->recs[i];

		if (r->level != DIAG_NOTE || r->kind != DIAG_NOTE_ALONE)
			continue;
		fputs(first ? "\n      " : ",\n      ", fp);
		first = false;
		be_json_str(fp, r->message);
	}
	fputs(first ? "]" : "\n    ]", fp);
}

/* The keys of a rack's (and the site's) totals, in the bit order of
 * TOTAL_POWER, TOTAL_HEAT, TOTAL_HEAT_LIQUID. */
static const char *const total_keys[] = { "power_max_w", "heat_w",
					  "heat_liquid_w" };

/* "totals": the design's counts and the site's power and heat. */
static void report_totals(FILE *fp, struct backend_ctx *ctx,
			  const struct rack_totals *t)
{
	const struct rk_design *d = ctx->d;
	uint32_t servers = 0, switches = 0, racks = 0, gpus, cables, bp;
	int64_t low[2] = { t->site_power, t->site_heat };

	gpus = metrics_gpu_count(d);
	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];

		racks += o->kind == K_RACK;
		if (o->kind != K_DEVICE)
			continue;
		servers += o->cls == C_SERVER;
		switches += o->cls == C_SWITCH;
	}
	be_cable_counts(d, derived_cableplan(ctx->dv), &cables, &bp);
	fprintf(fp,
		",\n  \"totals\": {\"gpus\": %u, \"servers\": %u, "
		"\"switches\": %u, \"racks\": %u, \"cables\": %u, "
		"\"backplane_links\": %u, \"power_max_w\": ",
		gpus, servers, switches, racks, cables, bp);
	json_total(fp, t->site_power, t->site_over | t->site_unknown,
		   TOTAL_POWER);
	fputs(", \"heat_w\": ", fp);
	json_total(fp, t->site_heat, t->site_over | t->site_unknown,
		   TOTAL_HEAT);
	json_out_of_range(fp, t->site_over, total_keys, 2);
	json_unknown(fp, t->site_unknown & ~t->site_over, total_keys, low, 2,
		     true);
	fputc('}', fp);
}

/* "racks": each rack's totals against its power capacity. */
static void report_racks(FILE *fp, const struct rk_design *d,
			 const struct rack_totals *t)
{
	int64_t *cap = supply_rack_capacities(d);
	bool first = true;

	fputs(",\n  \"racks\": [", fp);
	for (uint32_t i = 0; i < d->nobjs; i++) {
		unsigned over, unk;

		if (d->objs[i].kind != K_RACK)
			continue;
		fputs(first ? "\n    {\"name\": " : ",\n    {\"name\": ", fp);
		first = false;
		be_json_str(fp, ir_name(d, i));
		over = rack_total_over(t, i);
		unk = rack_total_unknown(t, i) & ~over &
		      (TOTAL_POWER | TOTAL_HEAT | TOTAL_HEAT_LIQUID);
		fputs(", \"power_max_w\": ", fp);
		json_total(fp, t->power[i], over | unk, TOTAL_POWER);
		fputs(", \"power_capacity_w\": ", fp);
		json_watts(fp, cap[i]);
		fputs(", \"heat_w\": ", fp);
		json_total(fp, t->heat[i], over | unk, TOTAL_HEAT);
		fputs(", \"heat_liquid_w\": ", fp);
		json_total(fp, t->heat_liquid[i], over | unk,
			   TOTAL_HEAT_LIQUID);
		fprintf(fp, ", \"devices\": %u, \"cooling\": \"%s\"",
			t->devices[i], rack_cooling(d, i));
		json_out_of_range(fp, over, total_keys, 3);
		{
			int64_t low[3] = { t->power[i], t->heat[i],
					   t->heat_liquid[i] };

			json_unknown(fp, unk, total_keys, low, 3, true);
		}
		fputc('}', fp);
	}
	fputs(first ? "]" : "\n  ]", fp);
	free(cap);
}

/* A fabric's worst leaf oversubscription as "down:up" in lowest terms,
 * null when either side is zero. */
static void report_oversubscription(FILE *fp, const struct fabric_metrics *m)
{
	int64_t dn = m->leaf_worst_down, up = m->leaf_worst_up, g;

	if (!dn || !up) {
		fputs("null", fp);
		return;
	}
	g = arith_gcd64(dn, up);
	fprintf(fp, "\"%lld:%lld\"", (long long)(dn / g), (long long)(up / g));
}

/* One fabric's entry of "fabrics": its figures (metrics.h). */
static void report_fabric(FILE *fp, const struct rk_design *d, uint32_t fab,
			  const struct fabric_metrics *m)
{
	static const char *const types[] = { "", "fat_tree", "nvlink", "star" };

	be_json_str(fp, ir_name(d, fab));
	fprintf(fp,
		", \"type\": \"%s\", \"endpoints\": %u, "
		"\"switches\": %u, \"links\": %u, \"tiers\": %u, "
		"\"injection_bps\": %lld, ",
		d->objs[fab].cls < 4 ? types[d->objs[fab].cls] : "",
		m->endpoints, m->switches, m->links, m->tiers,
		(long long)m->injection);
	report_bisection(fp, m);
	report_node_bisection(fp, m);
	fputs(", \"oversubscription\": ", fp);
	report_oversubscription(fp, m);
	fputs(", \"tier_switches\": [", fp);
	for (uint32_t k = 0; k < m->tiers && k < 4; k++)
		fprintf(fp, "%s%u", k ? ", " : "", m->tier_switches[k]);
	fputs("], \"tier_links\": [", fp);
	for (uint32_t k = 0; k < m->tiers && k < 4; k++)
		fprintf(fp, "%s%u", k ? ", " : "", m->tier_links[k]);
	fputs("], \"tier_bps\": [", fp);
	for (uint32_t k = 0; k < m->tiers && k < 4; k++)
		fprintf(fp, "%s{\"down\": %lld, \"up\": %lld}", k ? ", " : "",
			(long long)m->tier_down[k], (long long)m->tier_up[k]);
	fputs("]}", fp);
}

/* "fabrics": each fabric's entry. */
static void report_fabrics(FILE *fp, struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	bool first = true;

	fputs(",\n  \"fabrics\": [", fp);
	for (uint32_t i = 0; i < d->nobjs; i++) {
		if (d->objs[i].kind != K_FABRIC)
			continue;
		fputs(first ? "\n    {\"name\": " : ",\n    {\"name\": ", fp);
		first = false;
		report_fabric(fp, d, i, derived_fabric(ctx->dv, i));
	}
	fputs(first ? "]" : "\n  ]", fp);
}

static bool emit_report(struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	const struct rack_totals *t = derived_racks(ctx->dv);
	FILE *fp = out_open(ctx, "report.json");

	if (!fp)
		return false;
	fputs("{\n  \"design\": ", fp);
	be_json_str(fp, ctx->input);
	report_totals(fp, ctx, t);
	report_racks(fp, d, t);
	report_fabrics(fp, ctx);
	report_feeds(fp, d, ctx->dv);
	report_loops(fp, d, ctx->dv);
	report_capacity(fp, ctx);
	report_unknown(fp, d, ctx->dv ? ctx->dv->figures : NULL);
	report_estimated(fp, d, ctx->dv ? ctx->dv->figures : NULL);
	report_est_verdicts(fp, d, ctx->dv);
	report_coverage(fp, ctx);
	fprintf(fp, ",\n  \"checks\": {\"errors\": %u, \"warnings\": %u",
		ctx->diag->errors, ctx->diag->warnings);
	report_findings(fp, ctx->checks);
	fputs("}\n}\n", fp);
	return true;
}

const struct backend backend_report = {
	.name = "report",
	.summary = "report.json: totals, racks, fabrics (bisection), checks",
	.emit = emit_report,
	.needs = BE_NEEDS_FABRICS | BE_NEEDS_PLAN | BE_NEEDS_RACKS |
		 BE_NEEDS_CHECKS | BE_NEEDS_MODELS,
};
