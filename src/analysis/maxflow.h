/* SPDX-License-Identifier: MIT */
/*
 * Max-flow between two vertex sets (maxflow.c), a leaf of the analysis
 * stage that the bisection methods share.
 */
#ifndef RACKC_MAXFLOW_H
#define RACKC_MAXFLOW_H

#include <stdint.h>

/*
 * Max-flow between two vertex sets of an undirected capacitated graph
 * (exposed for the unit tests' brute-force comparison).  Edges are
 * (u[i], v[i], cap[i]); side[x] is 1 for sources, 2 for sinks, 0 free.
 */
int64_t maxflow_bipartition(uint32_t nv, uint32_t ne, const uint32_t *u,
			    const uint32_t *v, const int64_t *cap,
			    const uint8_t *side);
/* The same; reach[x] (nv entries) is set to 1 for the vertices on the
 * sources' side of a least cut, 0 for the others (reach may be NULL). */
int64_t maxflow_bipartition_cut(uint32_t nv, uint32_t ne, const uint32_t *u,
				const uint32_t *v, const int64_t *cap,
				const uint8_t *side, uint8_t *reach);

#endif
