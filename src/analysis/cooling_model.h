/* SPDX-License-Identifier: MIT */
/*
 * The cooling model (cooling_model.c): the heat of each device and where
 * it goes, the air side of each rack and its rear door, the liquid heat of
 * each loop, its CDUs and the coolant flow it needs.  Built once per
 * compilation (derived_cooling); the cooling checks and loads.h read it.
 * Heat is mW, flows mL/min, exact integers; sums saturate at INT64_MAX
 * (models.h).
 */
#ifndef RACKC_COOLING_MODEL_H
#define RACKC_COOLING_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"
#include "models.h"

/* A coolant rackc has figures for. */
struct coolant {
	const char *name;
	int64_t cp;  /* J/(kg K) */
	int64_t rho; /* g/L */
	const char *src;
	bool estimate;	  /* the figures are estimates (tag E) */
	const char *note; /* for an estimate: what is estimated, and whence */
};

enum hrule {
	HR_AIR,	     /* all to air */
	HR_FRACTION, /* liquid_fraction */
	HR_LIQUID,   /* cooling liquid, all to liquid */
	HR_HYBRID,   /* hybrid without a fraction: in full on both sides */
};

struct heat {
	int64_t pmax, given, heat, air, liq, frac;
	enum hrule rule;
};

/*
 * The model's figures of one object (a device, rack, air zone or loop;
 * lists end with RK_NONE).  Only the objects the model touches have one
 * (struct cmodel's index map): the others read as the defaults, cm_at().
 */
struct cm_obj {
	uint32_t loop_of;		/* device: its loop */
	uint32_t rack_dev, dev_next;	/* devices of a rack */
	uint32_t loop_dev, loop_next;	/* devices on a loop */
	uint32_t zone_rack, rack_next;	/* racks of an air zone */
	uint32_t loop_rack, rack_lnext; /* racks on a loop (doors) */
	int64_t air;			/* rack: air-side heat, before door */
	int64_t door;			/* rack: heat its door takes */
	int64_t liq;			/* loop: heat to liquid */
	/* rack: its air side, loop: its liquid heat, has a term that is
	 * unknown (a device without power_max or heat, metrics.h): the sum
	 * is a lower bound */
	uint8_t air_unk, liq_unk;
};

/*
 * As struct pmodel: @ix (models.h, shared with the power model) maps an
 * object to its entry in @o (0: none, and an entry past @no is one only
 * the power model holds; o[0] holds the defaults, never written), so that
 * the model's memory follows the devices, racks and loops, not every
 * object.
 */
struct cmodel {
	const struct rk_design *d;
	struct model_index *ix;
	struct cm_obj *o;
	uint32_t no, ocap;
};

/* The figures of object @obj (the defaults when the model has none). */
static inline const struct cm_obj *cm_at(const struct cmodel *m, uint32_t obj)
{
	uint32_t k = model_at(m->ix, obj);

	return &m->o[k < m->no ? k : 0];
}

/* liquid or hybrid: a part that needs a loop */
bool cm_needs_liquid(const struct rk_design *d, uint32_t dev);
/* The heat of @dev and its split between air and liquid. */
void cm_heat_of(const struct rk_design *d, uint32_t dev, bool on_loop,
		struct heat *h);
/* Where @dev's heat goes: bit HEAT_AIR when some of it reaches the air
 * side of its rack, HEAT_LIQUID when some reaches its loop. */
enum { HEAT_AIR = 1, HEAT_LIQUID = 2 };
unsigned cm_heat_sides(const struct rk_design *d, uint32_t dev);
/* The rear door of @rack: its part and capacity (-1 when not given). */
uint32_t cm_door_of(const struct rk_design *d, uint32_t rack, int64_t *cap);

/* Build the model, its entries in @ix (models.h). */
void cm_build(struct cmodel *m, const struct rk_design *d,
	      struct model_index *ix);
void cm_free(struct cmodel *m);

/* The heat of @rack's air side that reaches its air zone (after the door). */
static inline int64_t cm_air_after(const struct cmodel *m, uint32_t rack)
{
	return cm_at(m, rack)->air - cm_at(m, rack)->door;
}

/*
 * CDUs that may fail on @loop: 0 for "N" or none, K for "N+K", half for
 * "N+N"/"2N"; -1 when the text cannot be read.
 */
int64_t cm_loop_spares(const struct rk_design *d, uint32_t loop, uint32_t ncdu);
/*
 * Sum of @key over the CDUs of @loop less the @spares largest; false if a
 * CDU lacks the figure.
 */
bool cm_cdu_sum(const struct rk_design *d, uint32_t loop, uint32_t key,
		int64_t spares, int64_t *total, int64_t *usable);
/* The coolant named by loop @l, NULL when rackc has no figures for it. */
const struct coolant *cm_coolant_of(const struct rk_design *d, uint32_t l);
/*
 * Flow [mL/min] that carries @heat [mW] at a @dt [mK] rise, rounded up;
 * cm_flow_exact: whether it did not round.
 */
int64_t cm_flow_needed(const struct coolant *co, int64_t heat, int64_t dt);
bool cm_flow_exact(const struct coolant *co, int64_t heat, int64_t dt);

/* The per-loop and per-rack figures of loads.h, from the model. */
struct loop_load;
struct loop_load *cm_loop_loads(const struct cmodel *m, uint32_t *n);
int64_t *cm_rack_air(const struct cmodel *m);

struct derived;
/* The compilation's cooling model, built on first use (metrics.h). */
const struct cmodel *derived_cooling(struct derived *dv);

#endif
