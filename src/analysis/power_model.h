/* SPDX-License-Identifier: MIT */
/*
 * The power model (power_model.c): devices' PSU figures, the wiring of
 * their supplies to PDUs and power shelves, the normal load of each supply
 * and feed, and the load changes when one feed fails.  Built once per
 * compilation (derived_power); the power checks and loads.h read it.
 * Powers are mW, exact integers; sums saturate at INT64_MAX (models.h).
 */
#ifndef RACKC_POWER_MODEL_H
#define RACKC_POWER_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"
#include "models.h"

enum scheme_kind { SCH_NONE, SCH_BAD, SCH_FIXED, SCH_NN, SCH_NK, SCH_N };

enum full_why { FULL_ANY, FULL_SCHEME, FULL_RATING };

/**
 * struct psu_info - the PSU figures of a device (from its part)
 * @pmax:    power_max, mW
 * @psus:    supplies declared
 * @rating:  psu_rating, mW (0: unknown)
 * @full:    supplies needed for full power
 * @min_run: fewest supplies it runs on (throttled below @full)
 * @why:     where @full comes from
 * @min_given: psu_min_run was given
 * @scheme:  psu_redundancy text, or NULL
 */
struct psu_info {
	int64_t pmax, psus, rating, full, min_run;
	enum full_why why;
	bool min_given;
	const char *scheme;
};

enum pstate { PS_FULL, PS_THROTTLED, PS_DOWN };

/**
 * struct pm_wire - supplies of one device plugged into one PDU
 * @dev, @pdu: the two ends
 * @n:    how many supplies
 * @next: next wire into the same PDU (RK_NONE ends)
 * @loc:  the first 'power' pair that names the PDU
 */
struct pm_wire {
	uint32_t dev, pdu, n, next;
	const struct srcloc *loc;
};

/* load change on a PDU (or feed) when a feed fails */
struct pm_scen {
	uint32_t feed, next;
	int64_t delta;
};

/*
 * The model's figures of one object (a device, PDU, feed or rack; lists
 * end with RK_NONE).  Only the objects the model touches have one (struct
 * pmodel's index map): the others read as the defaults, pm_at().
 */
struct pm_obj {
	uint32_t dev_w;	   /* first wire of a device, RK_NONE */
	uint32_t dev_nw;   /* its wire count (wires are contiguous) */
	uint32_t dev_k;	   /* supplies plugged in */
	uint32_t pdu_w;	   /* first wire into a PDU */
	uint32_t pdu_s;	   /* first scenario of a PDU */
	uint32_t feed_s;   /* first scenario of a feed */
	uint32_t feed_p;   /* first PDU on a feed (chained by pdu_next) */
	uint32_t pdu_next; /* next PDU on the same feed */
	uint32_t rack_f0, rack_f1; /* first two feeds seen in a rack */
	int64_t load;		   /* normal load of a PDU (or feed), mW */
	/* a PDU (or feed): a device on it has no power_max, so every load
	 * figure of it (normal or after a loss) is a lower bound */
	uint8_t unk;
};

/*
 * The model's figures are kept only for the objects it touches, so that
 * its memory follows the devices, not every object: @ix (models.h, shared
 * with the cooling model) maps an object to its entry in @o (0: none, and
 * an entry past @no is one only the cooling model holds; o[0] holds the
 * defaults, never written).
 */
struct pmodel {
	const struct rk_design *d;
	struct pm_wire *w;
	uint32_t nw, wcap;
	struct pm_scen *s;
	uint32_t ns, scap;
	struct model_index *ix;
	struct pm_obj *o;
	uint32_t no, ocap;
};

/* The figures of object @obj (the defaults when the model has none). */
static inline const struct pm_obj *pm_at(const struct pmodel *m, uint32_t obj)
{
	uint32_t k = model_at(m->ix, obj);

	return &m->o[k < m->no ? k : 0];
}

/* ceil(a * n / k) for a >= 0, k > 0, saturated */
int64_t pm_share_of(int64_t a, int64_t n, int64_t k);
/* A PDU or power shelf (a device that supplies others). */
bool pm_is_source(const struct rk_design *d, uint32_t obj);
/* The feed a supply names, RK_NONE when none. */
uint32_t pm_feed_of(const struct rk_design *d, uint32_t pdu);
/*
 * Parse psu_redundancy: "A+B", "N+N", "2N", "N+K" or "N" (blanks around
 * '+' allowed).  *active: supplies that carry full power; *spare: the rest.
 */
enum scheme_kind pm_scheme_parse(const char *s, int64_t psus, int64_t *active,
				 int64_t *spare);
/* The PSU figures of @dev (from its part). */
void pm_psu_info(const struct rk_design *d, uint32_t dev, struct psu_info *pi);
/* State and draw of a device left with @s working supplies. */
enum pstate pm_psu_state(const struct psu_info *pi, int64_t s, int64_t *draw);
/* Supplies of @dev plugged into PDUs on feed @f. */
int64_t pm_on_feed(const struct pmodel *m, uint32_t dev, uint32_t f);
/* Does a failure of one feed concern @dev (its rack or it uses two)? */
bool pm_multi_feed(const struct pmodel *m, uint32_t dev);

/*
 * Build the model, its entries in @ix: wires, normal loads and the load
 * changes of every single-feed failure.  One pass over the objects and
 * their attributes, then passes over the wires.
 */
void pm_build(struct pmodel *m, const struct rk_design *d,
	      struct model_index *ix);
void pm_free(struct pmodel *m);

/* The per-feed figures of loads.h, from the model. */
struct feed_load;
struct feed_load *pm_feed_loads(const struct pmodel *m, uint32_t *n);

struct derived;
/* The compilation's power model, built on first use (metrics.h). */
const struct pmodel *derived_power(struct derived *dv);

#endif
