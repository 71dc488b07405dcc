/* SPDX-License-Identifier: MIT */
/* Every check descriptor, defined in the checks_*.c family files. */
#ifndef RACKC_CHECKS_H
#define RACKC_CHECKS_H

#include "check.h"

#define CHECK(id) extern const struct check check_##id;
#include "checks.def"
#undef CHECK

#endif
