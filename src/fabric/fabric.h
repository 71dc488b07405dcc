/* SPDX-License-Identifier: MIT */
/* Fabric generators (see fabric.c); fabric kinds are in obj.cls. */
#ifndef RACKC_FABRIC_H
#define RACKC_FABRIC_H

#include <stdint.h>

enum rk_fabric_type {
	FAB_NONE,
	FAB_FAT_TREE,
	FAB_NVLINK,
	FAB_STAR,
};

struct elab;
void fabric_expand(struct elab *e);

/*
 * The rails of a fat tree's @n endpoint ports @ep (in endpoint order):
 * rail[i] is the number of ep[i]'s name in order of first appearance; the
 * count of rails is returned.  A fabric of `planes N` has rail r on plane
 * r mod N (fabric_planes.c).
 */
struct rk_design;
uint32_t fabric_rails(const struct rk_design *d, const uint32_t *ep, uint32_t n,
		      uint32_t *rail);

#endif
