/* SPDX-License-Identifier: MIT */
/*
 * The figure cache of one compilation (struct derived, metrics.h): the
 * figures derived from the finished design that the checks and the back
 * ends share, each computed once, on first use or by the part of the job
 * graph that prepares it (derived_prepare_part), and the guard that keeps
 * a job from computing a figure no part was declared for.
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>

#include "cableplan.h"
#include "cablelabel.h"
#include "cooling_model.h"
#include "loads.h"
#include "metrics.h"
#include "models.h"
#include "power_model.h"

/*
 * A figure of @part is about to be computed: once the jobs started, only
 * the job of a declared part may (derived_start, metrics.h).
 */
static void guard(const struct derived *dv, enum derived_part part)
{
	if (dv->started && !(dv->needed & (1u << part)))
		BUG("a derived figure was asked for after the jobs started, "
		    "and no part that prepares it was declared (derived_need)");
}

void derived_init(struct derived *dv, const struct rk_design *d)
{
	memset(dv, 0, sizeof(*dv));
	dv->d = d;
}

void figure_report_free(struct figure_report *f)
{
	if (!f)
		return;
	free(f->unknown);
	free(f->est);
	free(f->verdicts);
	free(f->refs);
	free(f->on_estimates);
	free(f);
}

void derived_free(struct derived *dv)
{
	for (unsigned i = 0; dv->coverage && i < dv->ncoverage; i++)
		free(dv->coverage[i].verdicts);
	free(dv->coverage);
	dv->coverage = NULL;
	free(dv->check_names);
	figure_report_free(dv->figures);
	dv->figures = NULL;
	if (dv->power)
		pm_free(dv->power);
	free(dv->power);
	if (dv->cooling)
		cm_free(dv->cooling);
	free(dv->cooling);
	if (dv->model_ix)
		model_index_free(dv->model_ix);
	free(dv->model_ix);
	free(dv->feeds);
	free(dv->loops);
	free(dv->rack_air);
	for (uint32_t k = 0; dv->fab && dv->fab_slot && k < dv->d->nobjs; k++)
		if (dv->fab_slot[k] != RK_NONE && dv->fab_done[dv->fab_slot[k]])
			metrics_free(&dv->fab[dv->fab_slot[k]]);
	metrics_shared_free(dv->fg);
	free(dv->fab);
	free(dv->fab_done);
	free(dv->fab_slot);
	if (dv->racks_done)
		rack_totals_free(&dv->racks);
	if (dv->plan)
		cableplan_free(dv->plan);
	if (dv->labels)
		cable_labels_free(dv->labels);
	free(dv->labels);
	if (dv->ports_done)
		port_index_free(&dv->ports);
	memset(dv, 0, sizeof(*dv));
}

/* The fabrics' slots: dv->fab_slot[object] indexes dv->fab. */
static void fab_table(struct derived *dv)
{
	const struct rk_design *d = dv->d;
	uint32_t n = 0;

	dv->fab_slot = xmalloc(((size_t)d->nobjs + 1) * sizeof(*dv->fab_slot));
	for (uint32_t i = 0; i < d->nobjs; i++)
		dv->fab_slot[i] = d->objs[i].kind == K_FABRIC ? n++ : RK_NONE;
	dv->fab = xcalloc((size_t)n + 1, sizeof(*dv->fab));
	dv->fab_done = xcalloc((size_t)n + 1, 1);
}

const struct fabric_metrics *derived_fabric(struct derived *dv, uint32_t fab)
{
	uint32_t k;

	if (!dv->fab)
		fab_table(dv);
	k = dv->fab_slot[fab];
	if (k == RK_NONE)
		BUG("fabric figures asked of an object that is not a fabric");
	if (!dv->fab_done[k]) {
		guard(dv, DERIVED_FABRICS);
		if (!dv->fg)
			dv->fg = metrics_shared_new(dv->d);
		metrics_compute_shared(dv->d, fab, &dv->fab[k], dv->fg);
		dv->fab_done[k] = 1;
	}
	return &dv->fab[k];
}

const struct cable_plan *derived_cableplan(struct derived *dv)
{
	if (!dv->plan) {
		guard(dv, DERIVED_PLAN);
		dv->plan = cableplan_build(dv->d, derived_ports(dv));
	}
	return dv->plan;
}

const struct cable_labels *derived_labels(struct derived *dv)
{
	if (!dv->labels) {
		const struct cable_plan *p = derived_cableplan(dv);

		guard(dv, DERIVED_PLAN);
		if (dv->started && !dv->want_labels)
			BUG("cable labels asked for after the jobs started, "
			    "and no back end declared them "
			    "(derived_want_labels)");
		dv->labels = xmalloc(sizeof(*dv->labels));
		cable_labels_build(dv->d, p, dv->labels);
	}
	return dv->labels;
}

void derived_want_labels(struct derived *dv)
{
	dv->want_labels = true;
}

const struct port_index *derived_ports(struct derived *dv)
{
	if (!dv->ports_done) {
		guard(dv, DERIVED_PLAN);
		port_index_build(dv->d, &dv->ports);
		dv->ports_done = true;
	}
	return &dv->ports;
}

const struct rack_totals *derived_racks(struct derived *dv)
{
	if (!dv->racks_done) {
		guard(dv, DERIVED_RACKS);
		rack_totals_compute(dv->d, &dv->racks);
		dv->racks_done = true;
	}
	return &dv->racks;
}

void derived_prepare_init(struct derived *dv)
{
	if (!dv->fab)
		fab_table(dv);
}

void derived_need(struct derived *dv, enum derived_part part)
{
	dv->needed |= 1u << part;
}

void derived_start(struct derived *dv)
{
	dv->started = true;
}

/* the kinds of object the power and cooling models keep figures for */
static bool model_kind(uint8_t kind)
{
	return kind == K_DEVICE || kind == K_RACK || kind == K_FEED ||
	       kind == K_AIR || kind == K_LOOP;
}

void model_index_build(struct model_index *ix, const struct rk_design *d)
{
	uint32_t nw = d->nobjs / 64 + 1, n = 0;

	ix->bits = xcalloc(nw, sizeof(*ix->bits));
	ix->rank = xmalloc(nw * sizeof(*ix->rank));
	for (uint32_t w = 0; w < nw; w++) {
		ix->rank[w] = n;
		for (uint32_t b = 0; b < 64 && 64 * w + b < d->nobjs; b++)
			if (model_kind(d->objs[64 * w + b].kind)) {
				ix->bits[w] |= (uint64_t)1 << b;
				n++;
			}
	}
	ix->at = xcalloc((size_t)n + 1, sizeof(*ix->at));
	ix->n = 1;
}

void model_index_free(struct model_index *ix)
{
	free(ix->bits);
	free(ix->rank);
	free(ix->at);
	memset(ix, 0, sizeof(*ix));
}

/* The power and cooling models, and the figures loads.h gives of them. */
static void models(struct derived *dv)
{
	if (dv->models_done)
		return;
	guard(dv, DERIVED_MODELS);
	dv->model_ix = xmalloc(sizeof(*dv->model_ix));
	model_index_build(dv->model_ix, dv->d);
	dv->power = xmalloc(sizeof(*dv->power));
	pm_build(dv->power, dv->d, dv->model_ix);
	dv->cooling = xmalloc(sizeof(*dv->cooling));
	cm_build(dv->cooling, dv->d, dv->model_ix);
	dv->feeds = pm_feed_loads(dv->power, &dv->nfeeds);
	dv->loops = cm_loop_loads(dv->cooling, &dv->nloops);
	dv->rack_air = cm_rack_air(dv->cooling);
	dv->models_done = true;
}

const struct pmodel *derived_power(struct derived *dv)
{
	models(dv);
	return dv->power;
}

const struct cmodel *derived_cooling(struct derived *dv)
{
	models(dv);
	return dv->cooling;
}

const struct feed_load *derived_feed_loads(struct derived *dv, uint32_t *n)
{
	models(dv);
	*n = dv->nfeeds;
	return dv->feeds;
}

const struct loop_load *derived_loop_loads(struct derived *dv, uint32_t *n)
{
	models(dv);
	*n = dv->nloops;
	return dv->loops;
}

const int64_t *derived_rack_air(struct derived *dv)
{
	models(dv);
	return dv->rack_air;
}

void derived_prepare_part(struct derived *dv, unsigned part)
{
	const struct rk_design *d = dv->d;

	switch (part) {
	case DERIVED_FABRICS: /* they share one scratch index: one part */
		for (uint32_t f = 0; f < d->nobjs; f++)
			if (d->objs[f].kind == K_FABRIC)
				derived_fabric(dv, f);
		break;
	case DERIVED_PLAN:
		derived_cableplan(dv);
		if (dv->want_labels)
			derived_labels(dv);
		break;
	case DERIVED_RACKS:
		derived_racks(dv);
		break;
	default: /* DERIVED_MODELS */
		models(dv);
		break;
	}
}

void derived_fabric_explain(FILE *fp, const struct rk_design *d,
			    struct derived *dv)
{
	for (uint32_t f = 0; f < d->nobjs; f++)
		if (d->objs[f].kind == K_FABRIC)
			metrics_explain_one(fp, d, f, derived_fabric(dv, f));
}
