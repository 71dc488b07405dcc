/* SPDX-License-Identifier: MIT */
/*
 * The ends of the links, grouped by device and port: which links use port
 * p of device d.  Built by a counting sort by device of the link ends taken
 * in link order, then each device's run ordered by port (mostly in order
 * already), so it is linear in links plus objects and sequential in
 * memory; a hash table keyed by device and port costs a cache miss per end
 * on a 100,000-GPU design.  Built once per
 * compilation (derived_ports, metrics.h) for the port checks and the
 * cabling plan; links with an unresolved end are left out.
 */
#ifndef RACKC_PORTINDEX_H
#define RACKC_PORTINDEX_H

#include <stdint.h>

#include "ir.h"

/**
 * struct port_end - one end of a link on a device port
 * @port:  the port object
 * @link:  the link
 * @end:   0 a, 1 b
 */
struct port_end {
	uint32_t port;
	uint32_t link;
	uint32_t end;
};

/**
 * struct port_index - link ends by device and port
 * @start: device -> its first entry in @e (nobjs + 1 offsets)
 * @e:     the ends, ordered by (device, port object, link, end)
 * @n:     number of ends
 */
struct port_index {
	uint32_t *start;
	struct port_end *e;
	uint32_t n;
};

void port_index_build(const struct rk_design *d, struct port_index *x);
void port_index_free(struct port_index *x);
/*
 * The first entry for port @port of device @dev (its links follow in link
 * order), or RK_NONE; *@count (if given) gets the number of entries.
 */
uint32_t port_index_find(const struct port_index *x, uint32_t dev,
			 uint32_t port, uint32_t *count);

#endif
