/* SPDX-License-Identifier: MIT */
/* Fabric generators (see fabric.c); fabric kinds are in obj.cls. */
#ifndef RACKC_FABRIC_H
#define RACKC_FABRIC_H

enum rk_fabric_type {
	FAB_NONE,
	FAB_FAT_TREE,
	FAB_NVLINK,
	FAB_STAR,
};

struct elab;
void fabric_expand(struct elab *e);

#endif
