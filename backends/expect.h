/* SPDX-License-Identifier: MIT */
/* Shared by the expected-topology exports (expect.c and ibnet.c). */
#ifndef RACKC_EXPECT_H
#define RACKC_EXPECT_H

#include "backend.h"

/* ufm/FABRIC.dot for every Ethernet fabric (the ufm back end's half) */
bool expect_ufm_dot(struct backend_ctx *ctx);

#endif
