/* SPDX-License-Identifier: MIT */
/*
 * Derived figures of a design, computed from the read-only IR and shared by
 * the checks, the requirements and the report back end: per-fabric graphs,
 * injection and bisection bandwidth, per-tier oversubscription, and per-rack
 * power and heat.
 *
 * Bisection bandwidth is the least capacity crossing a balanced split of
 * a fabric's endpoint devices (a device's ports stay together; switches go
 * to either side), per direction.  It is an interval: @bisection is the
 * exact value or a proven lower bound (what checks and requirements read),
 * @bisection_upper the least cut found, with its split as the witness;
 * bisect.h says how each is obtained.
 */
#ifndef RACKC_METRICS_H
#define RACKC_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "ir.h"
#include "portindex.h"

enum bisect_method {
	BISECT_NONE,  /* fewer than two endpoint devices */
	BISECT_EXACT, /* lower == upper, both proven */
	BISECT_BOUNDS /* a proven lower bound below the least cut found */
};

/**
 * struct fabric_metrics - figures of one fabric
 * @fabric:      the fabric object
 * @endpoints:   endpoint ports that are connected
 * @declared:    endpoint ports listed (connected or not)
 * @switches:    switches reached from the endpoints
 * @links:       links in the fabric graph
 * @tiers:       switch tiers (longest switch path from an endpoint)
 * @injection:   sum of the endpoints' link rates, b/s
 * @devices:     endpoint devices with a link (the bisection's vertices)
 * @full_bisection: what one non-blocking switch would give the same
 *               devices: the sum of the floor(@devices/2) least device
 *               injections, b/s
 * @bisection:   bisection bandwidth, exact or a proven lower bound, b/s
 * @bisection_upper: the least cut found, b/s (== @bisection when exact)
 * @method:      exact, bounds or none; @lower_how, @upper_how: bisect.h
 * @witness:     per device, 1 or 2: a split whose cut is @bisection_upper
 * @dev_obj, @dev_comp: per device, its object and the component that owns
 *               its ports, or the port itself when no component claims it
 *               (a terminal of its own); RK_NONE: the device itself (a
 *               switch, which forwards between its ports)
 * @tier_down, @tier_up: per tier (0 = leaf), capacity towards the
 *               endpoints and away from them, b/s
 * @tier_switches: switches per tier; @tier_links: links from the tier below
 *               (0: endpoint to leaf, 1: leaf to spine, 2: spine to core)
 * @leaf_worst_down, @leaf_worst_up: the most oversubscribed leaf
 * @leaf_worst:  that leaf (RK_NONE when none)
 * @rail_mixed:  a leaf that serves more than one rail (RK_NONE: none)
 * @parts:       planes (parts of the fabric that share no switch but meet
 *               every endpoint device) bisected one by one and added up;
 *               0 when the fabric was bisected as one graph
 * @node:        the same figures at the node level (doc/language.md
 *               §9.11): the devices that hold endpoint ports (servers) are
 *               the terminals and forward between their own ports
 */
struct fabric_level {
	int64_t bisection, bisection_upper, full_bisection;
	enum bisect_method method;
	unsigned lower_how, upper_how; /* enum bisect_how */
	uint32_t parts, devices;
	uint8_t *witness;
	uint32_t *dev_obj, *dev_comp;
};

struct fabric_metrics {
	uint32_t fabric;
	uint32_t endpoints, declared, switches, links, tiers;
	int64_t injection, bisection, full_bisection;
	enum bisect_method method;
	uint32_t devices;
	int64_t bisection_upper;
	unsigned lower_how, upper_how; /* enum bisect_how */
	uint8_t *witness;
	uint32_t *dev_obj, *dev_comp;
	uint32_t parts;
	struct fabric_level node;
	int64_t tier_down[4], tier_up[4];
	uint32_t tier_switches[4]; /* switches per tier (0 = leaf) */
	uint32_t tier_links[4];	   /* links into tier t from below */
	int64_t leaf_worst_down, leaf_worst_up;
	uint32_t leaf_worst;
	uint32_t rail_mixed;
};

void metrics_compute(const struct rk_design *d, uint32_t fabric,
		     struct fabric_metrics *m);
/*
 * The same with scratch shared by all the fabrics of a design (the links
 * by device, maps over objects and links), so that each fabric costs its
 * own size: derived_fabric() keeps one for the compilation.
 */
struct fg_shared;
struct fg_shared *metrics_shared_new(const struct rk_design *d);
void metrics_shared_free(struct fg_shared *sh);
void metrics_compute_shared(const struct rk_design *d, uint32_t fabric,
			    struct fabric_metrics *m, struct fg_shared *sh);
/* "exact (how)", "lower bound: how; upper bound: how" or "none" */
const char *metrics_bisect_method_name(enum bisect_method m);
void metrics_bisection_method(const struct fabric_metrics *m, char *buf,
			      size_t n);
/* The name of endpoint device @k of @m ("node[3].cx[1]" or "node[3]"). */
void metrics_device_name(const struct rk_design *d,
			 const struct fabric_metrics *m, uint32_t k, char *buf,
			 size_t n);
void metrics_free(struct fabric_metrics *m);
/*
 * @v: a copy of @m whose bisection figures (bisection, bisection_upper,
 * full_bisection, method, lower_how, upper_how, parts, devices, witness,
 * dev_obj, dev_comp) are the node level's: what reads the endpoint level
 * reads the node level through it.  It shares @m's arrays (never freed).
 */
void metrics_node_view(const struct fabric_metrics *m,
		       struct fabric_metrics *v);
/* --explain: every fabric's bisection interval, methods and witness. */
struct derived;
/* --explain: every fabric's figures (derived.c, through the cache) */
void derived_fabric_explain(FILE *fp, const struct rk_design *d,
			    struct derived *dv);
/* the same for fabric @f, whose figures are @m */
void metrics_explain_one(FILE *fp, const struct rk_design *d, uint32_t f,
			 const struct fabric_metrics *m);

/**
 * struct fabric_graph_view - a fabric's graph, for tests and tools
 * @ne:     endpoint vertices are 0..ne-1; switches follow
 * @nv:     vertices
 * @nedges: edges (u[i], v[i], cap[i])
 */
struct fabric_graph_view {
	uint32_t ne, nv, nedges;
	uint32_t nd, *dev;  /* endpoint -> its device 0..nd-1, RK_NONE */
	uint32_t nn, *node; /* endpoint -> its node 0..nn-1 (the node
			       level's terminals), RK_NONE */
	uint32_t *u, *v;
	int64_t *cap;
};
void metrics_graph_export(const struct rk_design *d, uint32_t fabric,
			  struct fabric_graph_view *out);
void metrics_graph_view_free(struct fabric_graph_view *g);

/* Rate of a link: the lower of its two ports' speeds (0 if unknown). */
int64_t metrics_link_rate(const struct rk_design *d, const struct rk_link *l);

/* GPUs in the design: effective gpu components of every device's part. */
uint32_t metrics_gpu_count(const struct rk_design *d);

/*
 * Power and heat of the devices in each rack, indexed by object id, and
 * of the whole site (every rack).  Each sum saturates: a total whose true
 * value does not fit 64 bits holds INT64_MAX, a lower bound, and is marked
 * out of range (enum total_fig bits); it is never shown or compared as a
 * figure (the total-overflow check reports it, back ends print it as out
 * of range).
 */
enum total_fig {
	TOTAL_POWER = 1,
	TOTAL_HEAT = 2,
	TOTAL_HEAT_LIQUID = 4,
	TOTAL_HEAT_AIR = 8,
};
struct rack_totals {
	int64_t *power;	      /* sum of power_max, mW */
	int64_t *heat;	      /* sum of max(heat, power_max), mW */
	int64_t *heat_liquid; /* its liquid share, as the cooling checks */
	int64_t *heat_air;    /* air side after the rear door, as checks */
	uint32_t *devices;
	/* NULL unless a rack's total ran out of range: per object its
	 * enum total_fig bits, and the device whose figure pushed the first
	 * of them over */
	uint8_t *over;
	uint32_t *over_by;
	/* the site: sums of the racks' power and heat, mW */
	int64_t site_power, site_heat;
	unsigned site_over; /* TOTAL_POWER, TOTAL_HEAT: out of range */
	/* per figure (0 power, 1 heat), the rack whose total pushed the
	 * site's over; RK_NONE when none did (in range, or out of range
	 * because a rack's own total is) */
	uint32_t site_over_by[2];
	/* NULL unless a rack holds a device whose figure is unknown
	 * (device_power_known): per object its enum total_fig bits whose
	 * sum lacks a term, so that the sum is a lower bound ("at least"),
	 * and the first such device; never compared as if complete */
	uint8_t *unknown;
	uint32_t *unknown_by;
	unsigned site_unknown; /* TOTAL_POWER, TOTAL_HEAT: a lower bound */
};
void rack_totals_compute(const struct rk_design *d, struct rack_totals *t);
/* The enum total_fig bits of rack @r's totals that lack a term. */
static inline unsigned rack_total_unknown(const struct rack_totals *t,
					  uint32_t r)
{
	return t->unknown ? t->unknown[r] : 0;
}

/*
 * Unknown figures.  A device draws power that the budgets count when its
 * part is a server or a switch, declares psus, or has supplies wired
 * (`power psu[..] -> PDU`); PDUs and power shelves are the supply side and
 * draw nothing in the model.  Such a device needs power_max: without it
 * its power is unknown (never zero, and power_typ never stands in), and so
 * is its heat unless the part gives `heat`.
 */
bool metrics_draws_power(const struct rk_design *d, uint32_t dev);
/* enum total_fig bits of @dev's figures that are unknown (0: all known) */
unsigned metrics_figures_unknown(const struct rk_design *d, uint32_t dev);
void rack_totals_free(struct rack_totals *t);
/*
 * The reason the part @part (or a part it derives from) gives for a figure
 * it marks unknown, `unknown "NAME: reason"` or `unknown "A, NAME: reason"`
 * (the text after the colon, blanks skipped), or NULL when it marks no
 * figure @name so; *@loc and *@from (when not NULL) are the mark's place
 * and the part that writes it.
 */
const char *metrics_unknown_reason(const struct rk_design *d, uint32_t part,
				   const char *name, const struct srcloc **loc,
				   uint32_t *from);
/* The enum total_fig bits of rack @r's totals that are out of range. */
static inline unsigned rack_total_over(const struct rack_totals *t, uint32_t r)
{
	return t->over ? t->over[r] : 0;
}

/**
 * struct derived - lazily computed figures shared by the checks and the
 * back ends of one compilation (never part of the IR, which stays const)
 */
struct cable_plan;
struct fg_shared;

/**
 * struct check_coverage - what one check judged (report.json "coverage"),
 * for the checks that judge budgets: objects whose verdict is proven (the
 * figures complete, or a lower bound already past the limit), and those
 * it could not prove, by reason
 * @tracked: the check counts its objects (check_cover); @ran: it ran
 * @proved:  verdict known (passed, or failed with a finding)
 * @unknown: a figure it needs is unknown (a lower bound within the limit)
 * @waived:  its finding there was waived
 * @prereq:  skipped, a prerequisite failed there
 */
enum cover_outcome { COVER_PROVED, COVER_UNKNOWN, COVER_WAIVED, COVER_PREREQ };
struct cover_verdict {
	uint32_t obj;
	uint32_t outcome; /* enum cover_outcome */
};
struct check_coverage {
	bool tracked, ran;
	uint32_t proved, unknown, waived, prereq;
	/* every verdict in the order judged: the object and its outcome */
	struct cover_verdict *verdicts;
	uint32_t nverdicts, vcap;
};

/*
 * What the report back ends say about the figures verdicts rest on
 * (loads.h, struct figure_report), computed once after the checks
 * (checks_run) and freed with the derived figures.
 */
struct figure_report;
struct pmodel;
struct cmodel;
struct feed_load;
struct loop_load;

/*
 * The parts the derived figures are prepared in (derived_prepare_part),
 * each on any thread.
 */
enum derived_part {
	DERIVED_FABRICS, /* every fabric's figures */
	DERIVED_PLAN,	 /* the port index and the cable plan (and the
			    labels if wanted) */
	DERIVED_RACKS,	 /* rack totals */
	DERIVED_MODELS,	 /* the power and cooling models, and the per-feed,
			    per-loop and per-rack figures of loads.h */
	DERIVED_PARTS,
};

struct derived {
	const struct rk_design *d;
	struct port_index ports; /* portindex.h, built on first use */
	bool ports_done;
	struct cable_plan *plan;    /* cableplan.h, built on first use */
	struct fabric_metrics *fab; /* one per fabric, see fab_slot */
	uint32_t *fab_slot;	    /* object -> its index in fab, RK_NONE */
	struct fg_shared *fg;	    /* what the fabric graphs share */
	uint8_t *fab_done;
	struct rack_totals racks;
	bool racks_done;
	struct cable_labels *labels; /* cablelabel.h, built on first use */
	bool want_labels;	     /* DERIVED_PLAN builds them too */
	/* DERIVED_MODELS: power_model.h, cooling_model.h, loads.h */
	struct model_index *model_ix; /* their entries (models.h) */
	struct pmodel *power;
	struct cmodel *cooling;
	struct feed_load *feeds;
	uint32_t nfeeds;
	struct loop_load *loops;
	uint32_t nloops;
	int64_t *rack_air;
	bool models_done;
	/* derived_start: jobs run from now on; a figure not computed yet may
	 * be computed only by a part declared with derived_need (@needed,
	 * one bit per enum derived_part) */
	bool started;
	unsigned needed;
	/* per entry of check_table (check.h), filled in by checks_run;
	 * NULL until the checks ran */
	struct check_coverage *coverage;
	unsigned ncoverage;	  /* its entries */
	const char **check_names; /* the names of those checks */
	struct figure_report *figures;
};

void derived_init(struct derived *dv, const struct rk_design *d);
void derived_free(struct derived *dv);
const struct fabric_metrics *derived_fabric(struct derived *dv, uint32_t fab);
const struct rack_totals *derived_racks(struct derived *dv);
const struct cable_plan *derived_cableplan(struct derived *dv);
const struct port_index *derived_ports(struct derived *dv);
struct cable_labels;
const struct cable_labels *derived_labels(struct derived *dv);
/* Have DERIVED_PLAN build the labels as well (a back end prints them). */
void derived_want_labels(struct derived *dv);
/*
 * All of the above at once, in parts for a caller with its own threads:
 * derived_prepare_init on one thread, then each enum derived_part on any
 * thread, at the same time or not.  Afterwards every derived_*() call only
 * reads, so the checks and the back ends may call them from any thread.
 *
 * Before its jobs start, such a caller declares each part it will
 * prepare (derived_need) and then derived_start: from then on a getter
 * whose figure is not computed yet computes it only when its part was
 * declared (its job does), and otherwise stops with an internal error, as
 * two threads could otherwise compute (and write) the same figure at once.
 */
void derived_prepare_init(struct derived *dv);
void derived_prepare_part(struct derived *dv, unsigned part);
void derived_need(struct derived *dv, enum derived_part part);
void derived_start(struct derived *dv);

#endif
