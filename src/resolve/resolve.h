/* SPDX-License-Identifier: MIT */
/*
 * Name resolution (resolve.c): the stage after elaboration, on the same
 * state (struct elab).
 */
#ifndef RACKC_RESOLVE_H
#define RACKC_RESOLVE_H

#include <stdint.h>

struct elab;
struct srcloc;

void resolve_design(struct elab *e);
/*
 * References to objects a fabric generates ("compute.leaf[*].mgmt", a
 * fabric's name and then a name under it) cannot be resolved before that
 * fabric is expanded: resolve_design leaves the fabric attributes and the
 * links that hold one.  resolve_fabric_waits_for() gives the first fabric not yet
 * expanded (@done) that fabric @fab's references wait for (RK_NONE when
 * none; @loc the reference), resolve_fabric_refs() resolves them once it
 * is, and resolve_deferred_links() the links after all fabrics.
 */
uint32_t resolve_fabric_waits_for(struct elab *e, uint32_t fab,
				  const uint8_t *done, struct srcloc *loc);
void resolve_fabric_refs(struct elab *e, uint32_t fab);
void resolve_deferred_links(struct elab *e);
/* Free resolution's state (struct elab's @res): once, after the last
 * resolve_* call of a compilation. */
void resolve_fini(struct elab *e);

#endif
