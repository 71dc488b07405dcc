/* SPDX-License-Identifier: MIT */
/*
 * The columns of cabling.csv (cablecols.def): their enum and names, for
 * the back end that writes the file and the subcommands that read it.
 */
#ifndef RACKC_CABLECOLS_H
#define RACKC_CABLECOLS_H

enum cabcol {
#define CABLE_COL(id, name) CABCOL_##id,
#include "cablecols.def"
#undef CABLE_COL
	CABCOL__N
};

/* The header name of column @c. */
static inline const char *cabcol_name(enum cabcol c)
{
	static const char *const names[CABCOL__N] = {
#define CABLE_COL(id, name) name,
#include "cablecols.def"
#undef CABLE_COL
	};

	return names[c];
}

#endif
