/* SPDX-License-Identifier: MIT */
/*
 * The "html" back end: report.html, one self-contained page for a design
 * review (no network access, no external scripts or fonts): the summary,
 * the capacity figures with their sources, the checks' findings with
 * their source lines, sortable tables of the racks, the feeds and the
 * liquid loops (a small inline script sorts them), and the pictures
 * inline (floor plans, fabric diagrams and the first rows' elevations,
 * the other rows linked to elevations/ROW.svg), each with a text
 * alternative.  A print style sheet lays it out for paper.
 */
#include "rackc.h"

#include <stdlib.h>

#include "be_common.h"
#include "capacity.h"
#include "metrics.h"
#include "layout.h"
#include "loads.h"
#include "schema.h"
#include "supply.h"
#include "svg.h"

/* rows whose elevations are drawn inline (the rest are linked) */
#define INLINE_ROWS 2

static const char style[] =
    "body{font-family:sans-serif;margin:1.5em;color:#111;max-width:1800px}"
    "h1{font-size:1.6em}h2{border-bottom:2px solid #4e79a7;margin-top:1.6em}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "th,td{border:1px solid #bbb;padding:2px 6px;font-size:13px;"
    "vertical-align:top}th{background:#e8eef5;text-align:left}"
    "table.sort th{cursor:pointer}table.sort th[data-dir=asc]::after"
    "{content:' \\25B2'}table.sort th[data-dir=desc]::after"
    "{content:' \\25BC'}td.n{text-align:right;font-variant-numeric:"
    "tabular-nums}figure{margin:1em 0;overflow-x:auto}figcaption"
    "{font-size:12px;color:#333;max-width:900px}.error{color:#b00000}"
    ".warning{color:#9a5b00}pre{background:#f4f4f4;padding:4px 8px;"
    "margin:2px 0 10px;overflow-x:auto}nav a{margin-right:1em}"
    ".note{font-size:12px;color:#333}.basis{font-size:10px;color:#555}"
    "@media print{body{margin:0;max-width:none}nav{display:none}"
    "table.sort th{cursor:auto}figure{overflow:visible;"
    "break-inside:avoid}svg{max-width:100%;height:auto}"
    "h2{break-after:avoid}tr{break-inside:avoid}}";

static const char script[] =
    "(function(){var ts=document.querySelectorAll('table.sort');"
    "Array.prototype.forEach.call(ts,function(t){"
    "var hs=t.tHead.rows[0].cells;"
    "Array.prototype.forEach.call(hs,function(th,i){"
    "th.addEventListener('click',function(){"
    "var asc=th.getAttribute('data-dir')!=='asc';"
    "Array.prototype.forEach.call(hs,function(h){"
    "h.removeAttribute('data-dir');});"
    "th.setAttribute('data-dir',asc?'asc':'desc');"
    "var b=t.tBodies[0],rs=Array.prototype.slice.call(b.rows);"
    "rs.sort(function(x,y){var a=x.cells[i],c=y.cells[i];"
    "var p=a.getAttribute('data-v'),q=c.getAttribute('data-v');"
    "var r=(p!==null&&q!==null)?Number(p)-Number(q):"
    "a.textContent.localeCompare(c.textContent);"
    "return asc?r:-r;});"
    "rs.forEach(function(r){b.appendChild(r);});});});});})();";

static void td_text(struct wbuf *w, const char *s)
{
	wb_str(w, "<td>");
	wb_xml(w, s);
	wb_str(w, "</td>");
}

/* a numeric cell: the raw value for sorting, the text to show */
static void td_power(struct wbuf *w, int64_t mw)
{
	wb_printf(w, "<td class=\"n\" data-v=\"%lld\">", (long long)mw);
	wb_power(w, mw);
	wb_str(w, "</td>");
}

/* a total's cell (metrics.h): out of range sorts above every figure */
static void td_total(struct wbuf *w, int64_t mw, bool over)
{
	if (!over) {
		td_power(w, mw);
		return;
	}
	wb_str(w,
	       "<td class=\"n\" data-v=\"Infinity\">" WB_OUT_OF_RANGE "</td>");
}

static void td_total_u(struct wbuf *w, int64_t mw, bool over, bool unknown)
{
	if (unknown && !over) { /* a lower bound: sorts by it */
		wb_printf(w,
			  "<td class=\"n\" data-v=\"%lld\" "
			  "data-basis=\"lower-bound\">",
			  (long long)mw);
		wb_total_u(w, mw, false, true);
		wb_str(w, "</td>");
		return;
	}
	td_total(w, mw, over);
}

static void td_u(struct wbuf *w, uint64_t v)
{
	wb_printf(w, "<td class=\"n\" data-v=\"%llu\">%llu</td>",
		  (unsigned long long)v, (unsigned long long)v);
}

static void wb_q(struct wbuf *w, enum dim dim, int64_t v)
{
	char buf[RK_QFMT_MAX];
	struct quantity q = { dim, v };

	wb_str(w, quantity_human(q, buf));
}

/* one row of the capacity table */
static void cap_row(struct wbuf *w, const char *figure, const char *value,
		    const char *basis)
{
	wb_str(w, "<tr><th scope=\"row\">");
	wb_xml(w, figure);
	wb_str(w, "</th><td class=\"n\">");
	wb_xml(w, value);
	wb_str(w, "</td><td>");
	wb_xml(w, basis);
	wb_str(w, "</td></tr>\n");
}

static const char *time_text(char *buf, size_t n, const struct cap_time *t)
{
	char d[64];

	if (!t->valid) {
		snprintf(buf, n, "n/a");
		return buf;
	}
	snprintf(buf, n, "%s ms%s", u128_dec(d, t->ns, 6),
		 t->bound ? " (lower bound)" : " (estimate)");
	return buf;
}

/* a rate in b/s, in Tb/s from 1 Tb/s up, else in Gb/s */
static const char *rate_text(char *buf, size_t n, unsigned __int128 bps)
{
	char d[64];

	if (bps >= 1000000000000u)
		snprintf(buf, n, "%s Tb/s", u128_dec(d, bps, 12));
	else
		snprintf(buf, n, "%s Gb/s", u128_dec(d, bps, 9));
	return buf;
}

/* clusters shown in full; report.json lists every one */
#define HTML_CLUSTERS 32

/* The cluster's GPUs (by part), dense throughputs, HBM and bandwidth. */
static void cluster_gpu_rows(struct wbuf *w, const struct rk_design *d,
			     const struct capacity *c,
			     const struct cap_cluster *x)
{
	char v[160], b[600], n1[64];

	snprintf(v, sizeof(v), "%llu", (unsigned long long)x->gpus);
	b[0] = '\0';
	for (uint32_t k = 0; k < x->nmodels; k++) {
		const struct cap_count *n = &c->counts[x->models_at + k];
		size_t l = strlen(b);

		snprintf(b + l, sizeof(b) - l, "%s%llu x %s", k ? ", " : "",
			 (unsigned long long)n->count,
			 ir_name(d, c->models[n->model].part));
	}
	cap_row(w, "GPUs", v, b);
	for (unsigned k = 0; k < CAP__PREC; k++) {
		char f[64];

		if (!x->flops_known[k])
			continue;
		snprintf(f, sizeof(f), "dense %s",
			 cap_prec_name((enum cap_prec)k));
		snprintf(v, sizeof(v), "%s PFLOP/s",
			 u128_dec(n1, x->flops[k], 15));
		cap_row(w, f, v, "its GPUs' catalog figures, summed");
	}
	snprintf(v, sizeof(v), "%s TB", u128_dec(n1, x->hbm, 12));
	cap_row(w, "HBM", v, "its GPUs' hbm, summed");
	cap_row(w, "HBM bandwidth", rate_text(v, sizeof(v), x->hbm_bw),
		"its GPUs' hbm_bw, summed");
}

/* Per class of NVLink domain: how many, and AllReduce inside one (@msg
 * the message size, for the basis). */
static void cluster_domain_rows(struct wbuf *w, const struct capacity *c,
				const struct cap_cluster *x, const char *msg)
{
	char v[160], b[600], n1[64], n2[64];

	for (uint32_t k = 0; k < x->nclasses; k++) {
		const struct cap_class *y = &c->classes[x->classes_at + k];
		char f[96];

		snprintf(f, sizeof(f), "NVLink domains of %u GPUs", y->gpus);
		snprintf(v, sizeof(v), "%llu", (unsigned long long)y->count);
		rate_text(n1, sizeof(n1), (uint64_t)y->nvlink_dir);
		snprintf(b, sizeof(b),
			 "%s per GPU per direction (the domain's least "
			 "nvlink_bw), %s TB HBM each",
			 n1, u128_dec(n2, y->hbm, 12));
		cap_row(w, f, v, b);
		snprintf(f, sizeof(f), "AllReduce in a %u-GPU domain, ring",
			 y->gpus);
		snprintf(b, sizeof(b), "%s; ring, alpha-beta", msg);
		cap_row(w, f, time_text(v, sizeof(v), &y->ring), b);
		snprintf(f, sizeof(f), "AllReduce in a %u-GPU domain, tree",
			 y->gpus);
		snprintf(b, sizeof(b), "%s; tree, alpha-beta", msg);
		cap_row(w, f, time_text(v, sizeof(v), &y->tree), b);
	}
}

/* The scale-out fabric's rate per GPU, its exact ratio to each class's
 * NVLink rate, and the collectives across it (@msg as above). */
static void cluster_scaleout_rows(struct wbuf *w, const struct rk_design *d,
				  const struct capacity *c,
				  const struct cap_cluster *x, const char *msg)
{
	char v[160], b[600], n1[64];
	uint64_t rn, ro;

	rate_text(n1, sizeof(n1), (uint64_t)x->scaleout_per_gpu);
	snprintf(v, sizeof(v), "%s%s", n1,
		 x->scaleout_exact ? "" : " (rounded down)");
	snprintf(b, sizeof(b),
		 "fabric %s: link rates of its ports on "
		 "GPU devices / %llu GPUs",
		 ir_name(d, x->scaleout), (unsigned long long)x->scaleout_gpus);
	cap_row(w, "scale-out per GPU", v, b);
	for (uint32_t k = 0; k < x->nclasses; k++) {
		const struct cap_class *y = &c->classes[x->classes_at + k];
		char f[96];

		if (!cap_ratio(y->nvlink_dir, x->scaleout_per_gpu, &rn, &ro))
			continue;
		snprintf(f, sizeof(f),
			 "NVLink : scale-out per GPU (%u-GPU domains)",
			 y->gpus);
		snprintf(v, sizeof(v), "%llu : %llu", (unsigned long long)rn,
			 (unsigned long long)ro);
		cap_row(w, f, v, "exact ratio of the two rates");
	}
	snprintf(b, sizeof(b), "%s; ring over %llu GPUs", msg,
		 (unsigned long long)x->scaleout_gpus);
	cap_row(w, "AllReduce across the fabric, ring",
		time_text(v, sizeof(v), &x->net_ring), b);
	snprintf(b, sizeof(b), "%s; tree over %llu GPUs", msg,
		 (unsigned long long)x->scaleout_gpus);
	cap_row(w, "AllReduce across the fabric, tree",
		time_text(v, sizeof(v), &x->net_tree), b);
	if (x->a2a_cut > 0)
		snprintf(b, sizeof(b),
			 "%s; lower bound through the servers' "
			 "balanced split that cuts least (node "
			 "level): %llu | %llu GPUs, %s across",
			 msg, (unsigned long long)x->a2a_gpus[0],
			 (unsigned long long)x->a2a_gpus[1],
			 rate_text(n1, sizeof(n1), (uint64_t)x->a2a_cut));
	else
		snprintf(b, sizeof(b),
			 "%s; lower bound from the GPUs' own links "
			 "(no cut known)",
			 msg);
	cap_row(w, "All-to-All across the fabric",
		time_text(v, sizeof(v), &x->alltoall), b);
}

/* The largest models the cluster's HBM holds. */
static void cluster_model_rows(struct wbuf *w, const struct cap_cluster *x)
{
	char v[160], n1[64];

	snprintf(v, sizeof(v), "%s billion parameters",
		 u128_dec(n1, x->train_params, 9));
	cap_row(w, "largest model, training", v,
		"its HBM / 16 bytes per parameter (mixed-precision Adam: "
		"BF16 weights and gradients, FP32 master, momentum, "
		"variance); upper bound, no activations");
	snprintf(v, sizeof(v), "%s billion parameters",
		 u128_dec(n1, x->infer_params, 9));
	cap_row(w, "largest model, inference", v,
		"its HBM / 2 bytes per parameter (BF16 weights); upper "
		"bound, no KV cache");
	snprintf(v, sizeof(v), "%s billion parameters",
		 u128_dec(n1, x->infer_params_domain, 9));
	cap_row(w, "largest model, inference in one NVLink domain", v,
		"its largest domain's HBM / 2 bytes per parameter");
}

/* one cluster's figures (doc/language.md, section 10.1) */
static void cap_cluster_table(struct wbuf *w, const struct rk_design *d,
			      const struct capacity *c,
			      const struct cap_cluster *x)
{
	char n1[64], msg[64];

	wb_str(w, "<h3>Cluster ");
	wb_xml(w, ir_name(d, x->name));
	wb_printf(w, "</h3>\n<table><thead><tr><th>figure</th><th>value</th>"
		     "<th>basis</th></tr></thead><tbody>\n");
	cluster_gpu_rows(w, d, c, x);
	snprintf(msg, sizeof(msg), "message %s MiB",
		 u128_dec(n1, (uint64_t)x->message * 1000000 / (1 << 20), 6));
	cluster_domain_rows(w, c, x, msg);
	if (x->scaleout != RK_NONE)
		cluster_scaleout_rows(w, d, c, x, msg);
	cluster_model_rows(w, x);
	wb_str(w, "</tbody></table>\n");
}

static void section_summary(struct wbuf *w, struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	const struct rack_totals *t = derived_racks(ctx->dv);
	uint32_t servers = 0, switches = 0, racks = 0, links, bp;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];

		racks += o->kind == K_RACK;
		if (o->kind == K_DEVICE) {
			servers += o->cls == C_SERVER;
			switches += o->cls == C_SWITCH;
		}
	}
	be_cable_counts(d, derived_cableplan(ctx->dv), &links, &bp);
	wb_str(w, "<section id=\"summary\"><h2>Summary</h2>\n<table>"
		  "<tbody>\n");
	wb_printf(
	    w,
	    "<tr><th scope=\"row\">GPUs</th><td class=\"n\">%u</td></tr>\n"
	    "<tr><th scope=\"row\">servers</th><td class=\"n\">%u</td></tr>\n"
	    "<tr><th scope=\"row\">switches</th><td class=\"n\">%u</td></tr>\n"
	    "<tr><th scope=\"row\">racks</th><td class=\"n\">%u</td></tr>\n"
	    "<tr><th scope=\"row\">cables</th><td class=\"n\">%u</td></tr>\n"
	    "<tr><th scope=\"row\">backplane links (not cables)</th>"
	    "<td class=\"n\">%u</td></tr>\n",
	    metrics_gpu_count(d), servers, switches, racks, links, bp);
	wb_str(w, "<tr><th scope=\"row\">power (sum of power_max)</th>"
		  "<td class=\"n\">");
	wb_total_u(w, t->site_power, t->site_over & TOTAL_POWER,
		   t->site_unknown & TOTAL_POWER);
	wb_str(w,
	       "</td></tr>\n<tr><th scope=\"row\">heat</th><td class=\"n\">");
	wb_total_u(w, t->site_heat, t->site_over & TOTAL_HEAT,
		   t->site_unknown & TOTAL_HEAT);
	wb_printf(w,
		  "</td></tr>\n<tr><th scope=\"row\">check findings</th>"
		  "<td class=\"n\">%u errors, %u warnings</td></tr>\n"
		  "</tbody></table></section>\n",
		  ctx->diag->errors, ctx->diag->warnings);
}

static void html_source(void *arg, const char *src, bool first)
{
	struct wbuf *w = arg;

	wb_str(w, first ? "" : "<br>");
	wb_xml(w, src);
}

/* The design's GPUs, dense throughputs, HBM and clusters. */
static void capacity_totals(struct wbuf *w, const struct capacity *c)
{
	char v[160], n1[64];

	snprintf(v, sizeof(v), "%llu", (unsigned long long)c->gpus);
	cap_row(w, "GPUs", v, "gpu components of every device's part");
	for (unsigned k = 0; k < CAP__PREC; k++) {
		char f[64];

		snprintf(f, sizeof(f), "dense %s, total",
			 cap_prec_name((enum cap_prec)k));
		if (c->flops_known[k])
			snprintf(v, sizeof(v), "%s PFLOP/s",
				 u128_dec(n1, c->flops[k], 15));
		else
			snprintf(v, sizeof(v), "n/a");
		cap_row(w, f, v,
			c->flops_known[k]
			    ? "sum over GPU parts of count x catalog figure"
			    : "not every GPU part has this figure");
	}
	snprintf(v, sizeof(v), "%s TB", u128_dec(n1, c->hbm, 12));
	cap_row(w, "HBM, total", v, "sum of the GPU parts' hbm");
	cap_row(w, "HBM bandwidth, total", rate_text(v, sizeof(v), c->hbm_bw),
		"sum of the GPU parts' hbm_bw");
	snprintf(v, sizeof(v), "%u", c->nclusters);
	cap_row(w, "clusters", v,
		"GPU devices joined by NVLink domains and compute fabrics "
		"(management, storage and in-band networks do not join); "
		"each is listed below");
}

/* The IT power: out of range, a lower bound, or the sum. */
static void capacity_power(struct wbuf *w, const struct capacity *c)
{
	char v[160], n1[64];

	snprintf(v, sizeof(v), "%s kW", u128_dec(n1, (uint64_t)c->it_power, 6));
	if (c->it_power_over) {
		/* no figure, nor any made from it */
		cap_row(w, "IT power", WB_OUT_OF_RANGE,
			"sum of the racks' power_max: more than 64 bits hold "
			"(total-overflow)");
	} else if (c->it_power_unknown) {
		char lb[256];

		snprintf(lb, sizeof(lb), "at least %s" WB_UNKNOWN, v);
		cap_row(w, "IT power", lb,
			"sum of the racks' power_max: a lower bound, some "
			"devices give none (power-figure-unknown)");
	} else {
		cap_row(w, "IT power", v, "sum of the racks' power_max");
	}
}

/* The facility power (with a site's pue) and the energy per year: none
 * made from an IT power out of range or only a lower bound. */
static void capacity_energy(struct wbuf *w, const struct rk_design *d,
			    const struct capacity *c)
{
	char v[160], b[512], n1[64];

	if (c->it_power_over && c->pue >= 0) {
		cap_row(w, "facility power", WB_OUT_OF_RANGE,
			"IT power x PUE: the IT power is out of range");
		cap_row(w, "energy per year", WB_OUT_OF_RANGE,
			"facility power x 8,760 h: the IT power is out of "
			"range");
	} else if (c->it_power_over) {
		cap_row(w, "IT energy per year", WB_OUT_OF_RANGE,
			"IT power x 8,760 h: the IT power is out of range");
	} else if (c->it_power_unknown && c->pue >= 0) {
		cap_row(w, "facility power", "unknown",
			"IT power x PUE: the IT power is only a lower bound");
		cap_row(w, "energy per year", "unknown",
			"facility power x 8,760 h: the IT power is only a "
			"lower bound");
	} else if (c->it_power_unknown) {
		cap_row(w, "IT energy per year", "unknown",
			"IT power x 8,760 h: the IT power is only a lower "
			"bound");
	} else if (c->pue >= 0) {
		char p[64];

		snprintf(v, sizeof(v), "%s kW",
			 u128_dec(n1, c->facility_nw, 12));
		snprintf(b, sizeof(b), "IT power x PUE %s%% (site %s)",
			 u128_dec(p, (uint64_t)c->pue, 4),
			 ir_name(d, c->pue_site));
		cap_row(w, "facility power", v, b);
		snprintf(v, sizeof(v), "%s MWh",
			 u128_dec(n1, c->facility_nw * CAP_HOURS_PER_YEAR, 15));
		cap_row(w, "energy per year", v,
			"facility power x 8,760 h (at power_max: upper bound)");
	} else {
		uint64_t it = (uint64_t)(c->it_power > 0 ? c->it_power : 0);

		snprintf(v, sizeof(v), "%s MWh",
			 u128_dec(n1,
				  (unsigned __int128)it * CAP_HOURS_PER_YEAR,
				  9));
		cap_row(
		    w, "IT energy per year", v,
		    "IT power x 8,760 h; no site sets a pue, so no facility "
		    "figure");
	}
}

/* The GPU parts: count, catalog figures and their sources. */
static void capacity_models(struct wbuf *w, const struct rk_design *d,
			    const struct capacity *c)
{
	wb_str(w, "<h3>GPU parts</h3>\n<table><thead><tr>"
		  "<th>part</th><th>GPUs</th><th>FP64</th><th>TF32</th>"
		  "<th>BF16</th><th>FP8</th><th>FP4</th><th>HBM</th>"
		  "<th>HBM bandwidth</th><th>NVLink (both ways)</th>"
		  "<th>sources</th></tr></thead><tbody>\n");
	for (uint32_t j = 0; j < c->nmodels; j++) {
		const struct cap_model *m = &c->models[j];

		wb_str(w, "<tr><td>");
		wb_xml(w, ir_name(d, m->part));
		if (ir_str(d, m->part, A_MODEL)) {
			wb_str(w, " (");
			wb_xml(w, ir_str(d, m->part, A_MODEL));
			wb_ch(w, ')');
		}
		wb_str(w, "</td>");
		td_u(w, m->count);
		for (unsigned k = 0; k < CAP__PREC; k++) {
			wb_str(w, "<td class=\"n\">");
			if (m->flops[k])
				wb_q(w, DIM_FLOPS, m->flops[k]);
			else
				wb_str(w, "n/a");
			wb_str(w, "</td>");
		}
		wb_str(w, "<td class=\"n\">");
		wb_q(w, DIM_BYTES, m->hbm);
		wb_str(w, "</td><td class=\"n\">");
		wb_q(w, DIM_RATE, m->hbm_bw);
		wb_str(w, "</td><td class=\"n\">");
		wb_q(w, DIM_RATE, m->nvlink_bw * 2);
		wb_str(w, "</td><td>");
		cap_sources(d, m->part, html_source, w);
		wb_str(w, "</td></tr>\n");
	}
	wb_str(w, "</tbody></table>");
}

static void section_capacity(struct wbuf *w, struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	struct capacity c;

	capacity_compute(ctx->dv, &c);
	wb_str(w,
	       "<section id=\"capacity\"><h2>Capacity</h2>\n"
	       "<p class=\"note\">Throughput figures are dense peaks (vendor "
	       "tensor figures with 2:4 sparsity halved); rates are per "
	       "direction; the formulas are in the language reference, "
	       "section 10.1.</p>\n<table><thead><tr><th>figure</th>"
	       "<th>value</th><th>basis</th></tr></thead><tbody>\n");
	capacity_totals(w, &c);
	capacity_power(w, &c);
	capacity_energy(w, d, &c);
	wb_str(w, "</tbody></table>\n");
	for (uint32_t q = 0; q < c.nclusters && q < HTML_CLUSTERS; q++)
		cap_cluster_table(w, d, &c, &c.clusters[q]);
	if (c.nclusters > HTML_CLUSTERS)
		wb_printf(w,
			  "<p class=\"note\">%u more clusters: see "
			  "report.json's capacity.clusters.</p>\n",
			  c.nclusters - HTML_CLUSTERS);
	capacity_models(w, d, &c);
	wb_str(w, "</section>\n");
	capacity_free(&c);
}

static void section_findings(struct wbuf *w, struct backend_ctx *ctx)
{
	const struct diag_engine *f = ctx->checks;
	uint32_t shown = 0;

	wb_str(w, "<section id=\"findings\"><h2>Findings</h2>\n");
	for (uint32_t i = 0; f && i < f->nrecs; i++) {
		const struct diag_record *r = &f->recs[i];
		const struct srcfile *sf;
		uint32_t line = 0, col = 0;

		if (r->level == DIAG_NOTE) {
			/* a finding's own notes (not the text output's
			 * "more like this": every finding is listed) */
			if ((!shown && r->kind == DIAG_NOTE_OWN) ||
			    r->kind == DIAG_NOTE_GROUP)
				continue;
			wb_str(w, r->kind == DIAG_NOTE_ALONE
				      ? "<p class=\"note\">"
				      : "<p class=\"note\">&#8627; note ");
			sf = r->loc.file && f->sm
				 ? srcmgr_file(f->sm, r->loc.file)
				 : NULL;
			if (sf) {
				srcmgr_linecol(f->sm, r->loc.file, r->loc.begin,
					       &line, &col);
				wb_str(w, "<code>");
				wb_xml(w, sf->path);
				wb_printf(w, ":%u:%u</code> ", line, col);
			}
			wb_xml(w, r->message);
			wb_str(w, "</p>\n");
			continue;
		}
		shown++;
		wb_printf(w, "<p class=\"%s\"><b>%s</b> ",
			  r->level == DIAG_ERROR ? "error" : "warning",
			  r->level == DIAG_ERROR ? "error" : "warning");
		sf = r->loc.file && f->sm ? srcmgr_file(f->sm, r->loc.file)
					  : NULL;
		if (sf) {
			srcmgr_linecol(f->sm, r->loc.file, r->loc.begin, &line,
				       &col);
			wb_str(w, "<code>");
			wb_xml(w, sf->path);
			wb_printf(w, ":%u:%u</code> ", line, col);
		}
		wb_xml(w, r->message);
		if (r->check) {
			wb_str(w, " [");
			wb_xml(w, r->check);
			wb_ch(w, ']');
		}
		if (r->repeats)
			wb_printf(w, " (and %u identical, not listed)",
				  r->repeats);
		wb_str(w, "</p>\n");
		if (sf && line >= 1 && line <= sf->nlines) {
			uint32_t b = sf->lines[line - 1], e = b;

			while (e < sf->len && sf->text[e] != '\n')
				e++;
			wb_printf(w, "<pre>%5u | ", line);
			{
				char *s = xmalloc(e - b + 1);

				memcpy(s, sf->text + b, e - b);
				s[e - b] = '\0';
				wb_xml(w, s);
				free(s);
			}
			wb_str(w, "</pre>\n");
		}
	}
	if (!shown)
		wb_str(w, "<p>The checks found nothing to report.</p>\n");
	wb_str(w, "</section>\n");
}

/* how a figure is known: report.json's capacity_exact and the like */
enum basis { B_EXACT, B_LOWER, B_UPPER, B_ESTIMATE, B_OVER };

static const char *const basis_key[] = { "exact", "lower-bound", "upper-bound",
					 "estimate", "out-of-range" };
static const char *const basis_text[] = { "exact", "lower bound", "upper bound",
					  "estimate", "out of range" };

/*
 * A figure of the feeds and loops tables: the raw value (mW, mL/min) for
 * sorting and for tools, how it is known, and the quantity with that
 * label; "n/a" where the model has no figure (null in report.json).
 */
static void td_fig(struct wbuf *w, enum dim dim, bool known, int64_t v,
		   enum basis b)
{
	if (!known) {
		wb_str(w, "<td class=\"n\" data-basis=\"none\">n/a</td>");
		return;
	}
	if (b == B_OVER) { /* past 64 bits (loads.h): no figure */
		wb_str(w,
		       "<td class=\"n\" data-v=\"Infinity\" "
		       "data-basis=\"out-of-range\">" WB_OUT_OF_RANGE "</td>");
		return;
	}
	wb_printf(w, "<td class=\"n\" data-v=\"%lld\" data-basis=\"%s\">",
		  (long long)v, basis_key[b]);
	wb_q(w, dim, v);
	wb_printf(w, " <span class=\"basis\">%s</span></td>", basis_text[b]);
}

static void section_racks(struct wbuf *w, struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	const struct rack_totals *t = derived_racks(ctx->dv);
	const int64_t *air_heat = derived_rack_air(ctx->dv);

	wb_str(w, "<section id=\"racks\"><h2>Racks</h2>\n<p class=\"note\">"
		  "Click a column heading to sort. Heat to air is what "
		  "cooling-air-limit judges against the air zone's rack_limit: "
		  "the air-side heat of the rack's devices less what its rear "
		  "door takes.</p>\n<table class=\"sort\">"
		  "<thead><tr><th>rack</th><th>devices</th><th>power max</th>"
		  "<th>heat</th><th>heat to liquid</th><th>cooling</th>"
		  "<th>heat to air</th><th>air limit</th><th>air headroom</th>"
		  "</tr></thead><tbody>\n");
	for (uint32_t r = 0; r < d->nobjs; r++) {
		const struct rk_value *air, *loop, *lim = NULL;
		unsigned over, unk;

		if (d->objs[r].kind != K_RACK)
			continue;
		air = ir_attr_inh(d, r, A_AIR);
		loop = ir_attr_inh(d, r, A_LOOP);
		wb_str(w, "<tr>");
		td_text(w, ir_name(d, r));
		td_u(w, t->devices[r]);
		over = rack_total_over(t, r);
		unk = rack_total_unknown(t, r);
		td_total_u(w, t->power[r], over & TOTAL_POWER,
			   unk & TOTAL_POWER);
		td_total_u(w, t->heat[r], over & TOTAL_HEAT, unk & TOTAL_HEAT);
		td_total_u(w, t->heat_liquid[r], over & TOTAL_HEAT_LIQUID,
			   unk & TOTAL_HEAT_LIQUID);
		wb_str(w, "<td>");
		if (loop && loop->type == VT_OBJ) {
			wb_str(w, "loop ");
			wb_xml(w, ir_name(d, loop->a));
			wb_str(w, " ");
		}
		if (air && air->type == VT_OBJ) {
			wb_str(w, "air ");
			wb_xml(w, ir_name(d, air->a));
			lim = ir_attr(d, air->a, A_RACK_LIMIT);
		}
		wb_str(w, "</td>");
		td_total_u(w, air_heat[r], over & TOTAL_HEAT_AIR,
			   unk & TOTAL_HEAT_AIR);
		if (lim && lim->type == VT_NUM && (over & TOTAL_HEAT_AIR)) {
			td_power(w, lim->n);
			td_total(w, 0, true);
		} else if (lim && lim->type == VT_NUM &&
			   (unk & TOTAL_HEAT_AIR)) {
			td_power(w, lim->n);
			td_fig(w, DIM_POWER, true, lim->n - air_heat[r],
			       B_UPPER);
		} else if (lim && lim->type == VT_NUM) {
			td_power(w, lim->n);
			td_power(w, lim->n - air_heat[r]);
		} else {
			wb_str(w, "<td></td><td></td>");
		}
		wb_str(w, "</tr>\n");
	}
	wb_str(w, "</tbody></table></section>\n");
}

/* an input quantity of @obj, empty when not given */
static void td_attr(struct wbuf *w, const struct rk_design *d, uint32_t obj,
		    uint32_t key, enum dim dim)
{
	const struct rk_value *v = ir_attr(d, obj, key);

	if (!v || v->type != VT_NUM) {
		wb_str(w, "<td></td>");
		return;
	}
	wb_printf(w, "<td class=\"n\" data-v=\"%lld\">", (long long)v->n);
	wb_q(w, dim, v->n);
	wb_str(w, "</td>");
}

/*
 * The feeds with the figures power-feed-capacity judges and report.json's
 * "feeds" section gives (derived_feed_loads(), load_feed_racks() and
 * load_feed_supplies() of loads.h).
 */
static void section_feeds(struct wbuf *w, struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	uint32_t nf, np = 0, nr = 0, ap = 0, ar = 0;
	const struct feed_load *f = derived_feed_loads(ctx->dv, &nf);
	struct load_member *pdus = NULL, *racks = NULL;

	wb_str(w, "<section id=\"feeds\"><h2>Feeds</h2>\n");
	if (!nf) {
		wb_str(w, "<p>The design has no power feeds.</p></section>\n");
		return;
	}
	pdus = load_feed_supplies(d, &np);
	racks = load_feed_racks(d, &nr);
	wb_str(w, "<p class=\"note\">The figures power-feed-capacity judges: "
		  "every device at power_max, spread evenly over its "
		  "supplies, in normal operation and after the loss of the "
		  "one other feed that loads this one most. A capacity "
		  "rounded down to the milliwatt is a lower bound, and so "
		  "are the headrooms computed from it.</p>\n"
		  "<table class=\"sort\"><thead><tr><th>feed</th>"
		  "<th>voltage</th><th>current</th><th>phases</th>"
		  "<th>racks</th><th>supplies</th><th>redundancy</th>"
		  "<th>capacity</th><th>load</th><th>headroom</th>"
		  "<th>load after loss of one feed</th><th>worst loss</th>"
		  "<th>headroom after loss</th></tr></thead><tbody>\n");
	for (uint32_t k = 0; k < nf; k++) {
		const struct feed_load *x = &f[k];
		enum basis cb = x->cap_exact ? B_EXACT : B_LOWER;
		bool lost = x->lost_load >= 0;

		wb_str(w, "<tr>");
		td_text(w, ir_name(d, x->feed));
		td_attr(w, d, x->feed, A_VOLTAGE, DIM_VOLTAGE);
		td_attr(w, d, x->feed, A_CURRENT, DIM_CURRENT);
		if (ir_attr(d, x->feed, A_PHASES))
			td_u(w, (uint64_t)ir_num(d, x->feed, A_PHASES, 1));
		else
			wb_str(w, "<td></td>");
		td_u(w, load_members_of(racks, nr, &ar, x->feed));
		td_u(w, load_members_of(pdus, np, &ap, x->feed));
		td_text(w, ir_str(d, x->feed, A_REDUNDANCY)
			       ? ir_str(d, x->feed, A_REDUNDANCY)
			       : "");
		td_fig(w, DIM_POWER, x->cap_known, x->capacity, cb);
		/* a device without power_max: loads are lower bounds, the
		 * headrooms upper bounds */
		td_fig(w, DIM_POWER, true, x->load,
		       x->load_over	 ? B_OVER
		       : x->load_unknown ? B_LOWER
					 : B_EXACT);
		td_fig(w, DIM_POWER, x->cap_known, x->capacity - x->load,
		       x->load_over	 ? B_OVER
		       : x->load_unknown ? B_UPPER
					 : cb);
		td_fig(w, DIM_POWER, lost, x->lost_load,
		       x->lost_over	 ? B_OVER
		       : x->load_unknown ? B_LOWER
					 : B_EXACT);
		td_text(w, x->lost_feed != RK_NONE ? ir_name(d, x->lost_feed)
						   : "");
		td_fig(w, DIM_POWER, x->cap_known && lost,
		       x->capacity - x->lost_load,
		       x->lost_over	 ? B_OVER
		       : x->load_unknown ? B_UPPER
					 : cb);
		wb_str(w, "</tr>\n");
	}
	wb_str(w, "</tbody></table></section>\n");
	free(pdus);
	free(racks);
}

/*
 * The liquid loops with the figures cooling-cdu-capacity and cooling-flow
 * judge and report.json's "loops" section gives (derived_loop_loads() and
 * load_loop_racks() of loads.h): heat of devices and rear doors, CDUs
 * less redundancy.
 */
static void section_loops(struct wbuf *w, struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	uint32_t nl, nr = 0, ar = 0;
	const struct loop_load *l = derived_loop_loads(ctx->dv, &nl);
	struct load_member *racks = NULL;

	wb_str(w, "<section id=\"loops\"><h2>Liquid loops</h2>\n");
	if (!nl) {
		wb_str(w, "<p>The design has no liquid loops.</p></section>\n");
		return;
	}
	racks = load_loop_racks(d, &nr);
	wb_str(w, "<p class=\"note\">The figures cooling-cdu-capacity and "
		  "cooling-flow judge: the heat to liquid of the loop's "
		  "devices and of its racks' rear doors, against its CDUs "
		  "less the largest ones its redundancy lets fail. The flow "
		  "needed is rounded up to the mL/min (an upper bound, and "
		  "the flow headroom a lower bound, unless exact).</p>\n"
		  "<table class=\"sort\"><thead><tr><th>loop</th>"
		  "<th>racks</th><th>CDUs</th><th>redundancy</th>"
		  "<th>heat to liquid</th><th>capacity</th><th>headroom</th>"
		  "<th>coolant</th><th>delta_t</th><th>flow needed</th>"
		  "<th>flow available</th><th>flow headroom</th></tr>"
		  "</thead><tbody>\n");
	for (uint32_t k = 0; k < nl; k++) {
		const struct loop_load *x = &l[k];
		const struct rk_value *cdu = ir_attr(d, x->loop, A_CDU);
		const struct rk_value *dt = ir_attr(d, x->loop, A_DELTA_T);
		uint64_t ncdu = 0;
		enum basis fb = x->flow_estimate ? B_ESTIMATE
				: x->flow_exact	 ? B_EXACT
						 : B_UPPER;
		enum basis hb = x->flow_estimate ? B_ESTIMATE
				: x->flow_exact	 ? B_EXACT
						 : B_LOWER;
		bool cap = x->capacity >= 0, flow = x->flow >= 0,
		     max = x->max_flow >= 0;

		for (uint32_t i = 0;
		     cdu && cdu->type == VT_LIST && i < (uint32_t)cdu->n; i++)
			ncdu += ir_list_at(d, cdu, i)->type == VT_OBJ;
		wb_str(w, "<tr>");
		td_text(w, ir_name(d, x->loop));
		td_u(w, load_members_of(racks, nr, &ar, x->loop));
		td_u(w, ncdu);
		td_text(w, ir_str(d, x->loop, A_REDUNDANCY)
			       ? ir_str(d, x->loop, A_REDUNDANCY)
			       : "");
		td_fig(w, DIM_POWER, true, x->heat,
		       x->heat_over	 ? B_OVER
		       : x->heat_unknown ? B_LOWER
					 : B_EXACT);
		td_fig(w, DIM_POWER, cap, x->capacity, B_EXACT);
		td_fig(w, DIM_POWER, cap, x->capacity - x->heat,
		       x->heat_over	 ? B_OVER
		       : x->heat_unknown ? B_UPPER
					 : B_EXACT);
		td_text(w, ir_str(d, x->loop, A_COOLANT)
			       ? ir_str(d, x->loop, A_COOLANT)
			       : "");
		if (dt && dt->type == VT_NUM) {
			char buf[RK_QFMT_MAX];
			struct quantity q = { DIM_TEMP, dt->n };

			wb_printf(w, "<td class=\"n\" data-v=\"%lld\">",
				  (long long)dt->n);
			wb_xml(w, quantity_format_in(q, "K", buf));
			wb_str(w, "</td>");
		} else {
			wb_str(w, "<td></td>");
		}
		td_fig(w, DIM_FLOW, flow, x->flow,
		       x->heat_over	 ? B_OVER
		       : x->heat_unknown ? B_LOWER
					 : fb);
		td_fig(w, DIM_FLOW, max, x->max_flow, B_EXACT);
		td_fig(w, DIM_FLOW, flow && max, x->max_flow - x->flow,
		       x->heat_over	 ? B_OVER
		       : x->heat_unknown ? B_UPPER
					 : hb);
		wb_str(w, "</tr>\n");
	}
	wb_str(w, "</tbody></table></section>\n");
	free(racks);
}

/*
 * What the verdicts rest on: the figures budgets need that parts lack, the
 * figures marked estimated that verdicts read, and per budget check the
 * objects it proved and those it could not (report.json's
 * "unknown_figures", "estimated" and "coverage").
 */
/* The figures a budget needs that a part lacks (report @fr). */
static void coverage_unknown(struct wbuf *w, const struct rk_design *d,
			     const struct figure_report *fr)
{
	const struct unknown_fig *u = fr->unknown;

	wb_str(w, "<h3>Unknown figures</h3>\n<table class=\"sort\">"
		  "<thead><tr><th>part</th><th>attribute</th>"
		  "<th>devices</th><th>typical power (not used)</th>"
		  "</tr></thead><tbody>\n");
	for (uint32_t k = 0; k < fr->nunknown; k++) {
		wb_str(w, "<tr>");
		td_text(w, ir_name(d, u[k].part));
		td_text(w, attr_table[u[k].key].name);
		td_u(w, u[k].objects);
		if (u[k].typ >= 0)
			td_power(w, u[k].typ);
		else
			wb_str(w, "<td></td>");
		wb_str(w, "</tr>\n");
	}
	wb_str(w, "</tbody></table>\n");
}

/* The estimated figures: the parts' (or rackc's own, for a coolant), with
 * the checks that read them. */
static void coverage_estimated(struct wbuf *w, const struct rk_design *d,
			       const struct figure_report *fr)
{
	const struct estimated_fig *e = fr->est;

	wb_str(w, "<h3>Estimated figures</h3>\n"
		  "<table class=\"sort\"><thead><tr><th>part</th>"
		  "<th>attribute</th><th>objects</th><th>checks</th>"
		  "<th>estimate</th></tr></thead><tbody>\n");
	for (uint32_t k = 0; k < fr->nest; k++) {
		char cool[64];

		wb_str(w, "<tr>");
		if (e[k].coolant) { /* rackc's own estimate */
			snprintf(cool, sizeof(cool), "coolant %s",
				 e[k].coolant);
			td_text(w, cool);
		} else {
			td_text(w, ir_name(d, e[k].part));
		}
		td_text(w, attr_table[e[k].attr].name);
		td_u(w, e[k].objects);
		td_text(w, e[k].checks);
		td_text(w, e[k].text);
		wb_str(w, "</tr>\n");
	}
	wb_str(w, "</tbody></table>\n");
}

/* The checks' verdicts that rest on estimated figures, each with them. */
static void coverage_verdicts(struct wbuf *w, struct backend_ctx *ctx,
			      const struct figure_report *fr)
{
	static const char *const outcome[] = {
		[COVER_PROVED] = "proved",
		[COVER_UNKNOWN] = "not proved: missing figure",
		[COVER_WAIVED] = "not proved: waived",
		[COVER_PREREQ] = "not proved: prerequisite failed",
	};
	const struct rk_design *d = ctx->d;

	wb_str(w, "<h3>Verdicts resting on estimated figures</h3>\n"
		  "<table class=\"sort\"><thead><tr><th>check</th>"
		  "<th>object</th><th>verdict</th><th>estimated "
		  "figures</th></tr></thead><tbody>\n");
	for (uint32_t k = 0; k < fr->nverdicts; k++) {
		const struct est_verdict *v = &fr->verdicts[k];

		wb_str(w, "<tr>");
		td_text(w, ctx->dv->check_names[v->check]);
		td_text(w, ir_name(d, v->obj));
		td_text(w, v->outcome < ARRAY_SIZE(outcome)
			       ? outcome[v->outcome]
			       : "?");
		wb_str(w, "<td>");
		for (uint32_t i = 0; i < v->n; i++) {
			const struct estimated_fig *x =
			    &fr->est[fr->refs[v->first + i]];

			if (i)
				wb_str(w, ", ");
			if (x->coolant) {
				wb_str(w, "coolant ");
				wb_xml(w, x->coolant);
				continue;
			}
			wb_xml(w, ir_name(d, x->part));
			wb_str(w, ".");
			wb_xml(w, attr_table[x->attr].name);
		}
		wb_str(w, "</td></tr>\n");
	}
	wb_str(w, "</tbody></table>\n");
}

/* Each budget check that ran and is tracked: its outcomes counted (@fr,
 * when there is one, for those proved on estimated figures). */
static void coverage_budgets(struct wbuf *w, struct backend_ctx *ctx,
			     const struct figure_report *fr)
{
	const struct check_coverage *cv = ctx->dv ? ctx->dv->coverage : NULL;
	bool any = false;

	for (unsigned i = 0; cv && i < ctx->dv->ncoverage; i++) {
		const struct check_coverage *x = &cv[i];

		if (!x->ran || !x->tracked)
			continue;
		if (!any)
			wb_str(w, "<h3>Budget checks</h3>\n<table "
				  "class=\"sort\"><thead><tr><th>check</th>"
				  "<th>proved</th><th>not proved: missing "
				  "figure</th><th>waived</th><th>prerequisite "
				  "failed</th><th>proved on estimated "
				  "figures</th></tr></thead><tbody>\n");
		any = true;
		wb_str(w, "<tr>");
		td_text(w, ctx->dv->check_names[i]);
		td_u(w, x->proved);
		td_u(w, x->unknown);
		td_u(w, x->waived);
		td_u(w, x->prereq);
		td_u(w, fr ? fr->on_estimates[i] : 0);
		wb_str(w, "</tr>\n");
	}
	if (any)
		wb_str(w, "</tbody></table>\n");
}

static void section_coverage(struct wbuf *w, struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	const struct figure_report *fr = ctx->dv ? ctx->dv->figures : NULL;

	wb_str(w, "<section id=\"coverage\"><h2>Coverage</h2>\n"
		  "<p class=\"note\">What the checks could and could not "
		  "prove. A figure a budget needs and a part lacks is never "
		  "counted as zero: the totals that hold it are lower bounds "
		  "(\"at least\"), and a check passes nothing on them.</p>\n");
	if (fr && fr->nunknown)
		coverage_unknown(w, d, fr);
	if (fr && fr->nest)
		coverage_estimated(w, d, fr);
	if (fr && fr->nverdicts)
		coverage_verdicts(w, ctx, fr);
	coverage_budgets(w, ctx, fr);
	wb_str(w, "</section>\n");
}

static void section_pictures(struct wbuf *w, struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	struct rack_index ix;
	struct rack_pages pg;
	struct fdiag_scratch *sc;

	svg_rack_index(d, &ix);
	svg_rack_pages(d, &pg);
	wb_str(w, "<section id=\"floor\"><h2>Floor plans</h2>\n");
	for (uint32_t s = 0; s < d->nobjs; s++) {
		if (d->objs[s].kind != K_SITE)
			continue;
		wb_str(w, "<figure>");
		svg_floor(w, d, ctx->dv, &ix, s);
		wb_str(w, "<figcaption>Floor plan of site ");
		wb_xml(w, ir_name(d, s));
		wb_str(w, ": racks shaded by power per rack, outlined by air "
			  "zone; liquid loops in blue (also floor/");
		wb_xml(w, be_derived_name(ctx->arena, ir_name(d, s)));
		wb_str(w, ".svg).</figcaption></figure>\n");
	}
	wb_str(w, "</section>\n<section id=\"fabrics\"><h2>Fabrics</h2>\n");
	sc = fdiag_scratch_new(d);
	for (uint32_t f = 0; f < d->nobjs; f++) {
		if (d->objs[f].kind != K_FABRIC)
			continue;
		wb_str(w, "<figure>");
		svg_fabric(w, d, f, sc);
		wb_str(w, "<figcaption>Fabric ");
		wb_xml(w, ir_name(d, f));
		wb_str(w, ": switch groups by tier over the endpoints by rail, "
			  "with the link bundles between them (also fabrics/");
		wb_xml(w, be_derived_name(ctx->arena, ir_name(d, f)));
		wb_str(w, ".svg and .dot).</figcaption></figure>\n");
	}
	fdiag_scratch_free(sc);
	wb_str(w, "</section>\n<section id=\"elevations\"><h2>Rack "
		  "elevations</h2>\n<ul>\n");
	for (uint32_t p = 0; p < pg.n; p++) {
		const char *base =
		    pg.row[p] != RK_NONE
			? be_derived_name(ctx->arena, ir_name(d, pg.row[p]))
			: "unrowed";

		wb_str(w, "<li><a href=\"elevations/");
		wb_xml(w, base);
		wb_str(w, ".svg\">");
		wb_xml(w, pg.row[p] != RK_NONE ? ir_name(d, pg.row[p])
					       : "racks outside rows");
		wb_printf(w, "</a>: %u racks%s</li>\n",
			  pg.off[p + 1] - pg.off[p],
			  p < INLINE_ROWS ? " (below)" : "");
	}
	wb_str(w, "</ul>\n");
	for (uint32_t p = 0; p < pg.n && p < INLINE_ROWS; p++) {
		char title[512], idp[32];

		if (be_cancelled(ctx))
			break;
		snprintf(title, sizeof(title), "Rack elevations: %s",
			 pg.row[p] != RK_NONE ? ir_name(d, pg.row[p])
					      : "racks outside rows");
		snprintf(idp, sizeof(idp), "el%u", p);
		wb_str(w, "<figure>");
		svg_elevation(w, d, ctx->dv, &ix, pg.racks + pg.off[p],
			      pg.off[p + 1] - pg.off[p], title, idp);
		wb_str(w, "<figcaption>");
		wb_xml(w, title);
		wb_str(w, ": front and rear, on a U scale.</figcaption>"
			  "</figure>\n");
	}
	wb_str(w, "</section>\n");
	svg_rack_pages_free(&pg);
	svg_rack_index_free(&ix);
}

static bool emit_html(struct backend_ctx *ctx)
{
	struct wbuf *w = svg_file_open(ctx, "report.html");
	bool ok;

	if (!w)
		return false;
	wb_str(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		  "<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
		  "content=\"width=device-width, initial-scale=1\">\n<title>"
		  "Design review: ");
	wb_xml(w, ctx->input);
	wb_printf(w,
		  "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>"
		  "Design review: ",
		  style);
	wb_xml(w, ctx->input);
	wb_str(w, "</h1>\n<nav><a href=\"#summary\">summary</a><a "
		  "href=\"#capacity\">capacity</a><a href=\"#findings\">"
		  "findings</a><a href=\"#coverage\">coverage</a><a "
		  "href=\"#racks\">racks</a><a href=\"#feeds\">"
		  "feeds</a><a href=\"#loops\">loops</a><a href=\"#floor\">"
		  "floor</a><a href=\"#fabrics\">fabrics</a><a "
		  "href=\"#elevations\">elevations</a></nav>\n");
	section_summary(w, ctx);
	section_capacity(w, ctx);
	section_findings(w, ctx);
	section_coverage(w, ctx);
	section_racks(w, ctx);
	section_feeds(w, ctx);
	section_loops(w, ctx);
	section_pictures(w, ctx);
	wb_printf(w, "<script>%s</script>\n</body>\n</html>\n", script);
	ok = svg_file_close(ctx, w);
	return ok;
}

const struct backend backend_html = {
	.name = "html",
	.summary = "report.html: summary, capacity, findings, tables and "
		   "pictures in one page",
	.emit = emit_html,
	.needs = BE_NEEDS_FABRICS | BE_NEEDS_PLAN | BE_NEEDS_RACKS |
		 BE_NEEDS_CHECKS | BE_NEEDS_MODELS,
};
