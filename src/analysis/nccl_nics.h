/* SPDX-License-Identifier: MIT */
/*
 * Which NICs carry NCCL traffic: the one rule that the nccl-figure-unknown
 * check (checks_nccl.c) and the NCCL topology back end (backends/nccl.c)
 * both apply, so that the check reports the very NICs the back end writes.
 */
#ifndef RACKC_NCCL_NICS_H
#define RACKC_NCCL_NICS_H

#include <stdbool.h>
#include <stdint.h>

#include "ir.h"

/*
 * Does NIC component @nic carry NCCL traffic: one of the ports it lists
 * (`ports`) has the role compute or none.  A NIC that lists no port
 * carries none.
 */
bool nccl_nic_carries(const struct rk_design *d, uint32_t nic);

#endif
