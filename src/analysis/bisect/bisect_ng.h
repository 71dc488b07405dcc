/* SPDX-License-Identifier: MIT */
/*
 * Private to the bisection: the normalised graph every method works on and
 * the methods bisect.c's dispatcher runs, one file each (bisect.h gives the
 * order and what each proves).
 *
 * The graph: vertices 0..nd-1 are the devices, the rest switches; parallel
 * edges merged (capacities summed, saturating at BIG), loops and edges of
 * no capacity dropped, u < v; the adjacency of vertex x is off[x]..off[x+1]
 * of to[] and c[] (capacity of that edge).
 */
#ifndef RACKC_BISECT_NG_H
#define RACKC_BISECT_NG_H

#include <stdbool.h>
#include <stdint.h>

#include "bisect.h"

/* capacities saturate here, far from overflow when a few are added */
#define BIG (INT64_MAX / 4)

struct ng {
	uint32_t nd, nv, ne;
	uint32_t *u, *v; /* u < v */
	int64_t *cap;
	uint32_t *off, *to; /* adjacency in compressed rows */
	int64_t *c;
};

struct edge {
	uint32_t u, v;
	int64_t cap;
};

/* a 64-bit key and the vertex it belongs to, sorted by key then vertex */
struct hent {
	uint64_t h;
	uint32_t x;
};

/* bisect_ng.c: the graph */
int bng_edge_cmp(const void *a, const void *b);
int bng_hent_cmp(const void *a, const void *b);
void bng_build(struct ng *n, uint32_t nd, uint32_t nv, struct edge *e,
	       uint32_t m);
void bng_free(struct ng *n);
int64_t bng_cut(const struct ng *n, const uint8_t *side);
uint32_t bng_refine_cells(const struct ng *n, uint32_t *cell, bool sets);
bool bng_equitable_merge(struct ng *n);
uint32_t bng_tree_bfs(const struct ng *n, uint32_t root, uint32_t *par,
		      int64_t *up, uint32_t *q);
void bng_bfs_order(const struct ng *n, uint32_t *order);

/* the exact methods: true with the value in *best and, with @side (nv
 * entries, 1 or 2), a split that cuts it; false when the method does not
 * apply or would exceed its work limit */
bool bisect_tree_solve(const struct ng *n, int64_t *best, uint8_t *side);
bool bisect_nonblocking(const struct ng *n, int64_t *best, uint8_t *side);
bool bisect_hubs_solve(const struct ng *n, int64_t *best, uint8_t *side);
bool bisect_bnb_solve(const struct ng *n, int64_t *lower, int64_t *upper,
		      uint8_t *side);

/* the bounds */
int64_t bisect_search(const struct ng *n, const struct bgraph *g,
		      uint8_t *side);
int64_t bisect_tree_flow_bound(const struct ng *n);
bool bisect_forest_bound(const struct ng *n, int64_t *lb, uint8_t *side,
			 int64_t *cut);
bool bisect_regular_bound(const struct ng *n, int64_t *lb, uint8_t *side,
			  int64_t *cut);

#endif
