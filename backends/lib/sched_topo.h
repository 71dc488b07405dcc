/* SPDX-License-Identifier: MIT */
/*
 * The scheduler's view of the network, shared by the back ends that write
 * it for a scheduler (slurm, k8s): the switch tree of the compute fabrics
 * and the NVLink blocks, worked out once by backends/slurm.c.
 *
 * Tree entries are the Slurm switches of slurm/topology.conf: switches of
 * one level with the same children are one entry, named after the first
 * (see slurm.c).  A level-0 entry (leaf) lists node devices; an entry of a
 * higher level lists the devices naming its child entries (the `dev` of
 * each child entry).  Blocks are the NVLink domains, one per nvlink fabric
 * with compute nodes.
 */
#ifndef RACKC_SCHED_H
#define RACKC_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"

struct sched_entry {
	const char *name;     /* host name of the first switch, or block */
	const char *nodes;    /* Slurm host list of nodes, or NULL */
	const char *switches; /* Slurm host list of child switches, or NULL */
	const char *also;     /* merged switches, for a comment, or NULL */
	const char *fabric;   /* the fabric's name */
	uint32_t fab;	      /* the fabric object */
	uint32_t dev;	      /* the first switch (tree), RK_NONE (block) */
	int level;	      /* 0 leaf, 1 spine, 2 core, 3 top; -1 block */
	const uint32_t *kids; /* node devices, or child entries' devs */
	uint32_t nkids;
};

struct sched_topo {
	struct sched_entry *tree, *blocks; /* malloc'ed */
	uint32_t ntree, nblocks;
	uint32_t tree_cap, blocks_cap;
	uint32_t min_block;	 /* nodes in the smallest block */
	const char *const *host; /* be_host_names() */
};

/*
 * Work out the tree and the blocks of ctx->d (allocations of the lists in
 * ctx->arena).  Returns false after an error diagnostic (host names that
 * clash, a node in two NVLink domains); @t is filled either way and must
 * be released with sched_topo_free().
 */
bool sched_topology(struct backend_ctx *ctx, struct sched_topo *t);
void sched_topo_free(struct sched_topo *t);

#endif
