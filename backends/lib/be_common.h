/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the deployment back ends (nccl, ibnet, slurm): host
 * names, the components of a server part, port protocols and a stable
 * string hash for identifiers such as GUIDs.
 */
#ifndef RACKC_BE_COMMON_H
#define RACKC_BE_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "backend.h"
#include "ir.h"

/*
 * Host names of devices, indexed by object id (NULL for objects that are
 * not servers or switches).  A device's name is its `hostname` attribute,
 * or else its full name with every character outside [A-Za-z0-9-] mapped
 * to '-', runs of '-' squeezed to one and '-' trimmed at both ends, so
 * su[0].dgx[3] becomes su-0-dgx-3 (a valid RFC 1123 label whose trailing
 * digits a host list can compress).  Names that clash, and hostname
 * attributes that a host list, a CSV field or an InfiniBand node
 * description cannot carry, are reported as errors; *ok is then false.
 * Computed once per run (ctx->shared) and shared: do not free or change
 * it; each caller gets the diagnostics in its own engine.
 */
const char *const *be_host_names(struct backend_ctx *ctx, bool *ok);

/* The derived form alone: "su[0].dgx[3]" -> "su-0-dgx-3" (may be ""). */
const char *be_derived_name(struct arena *a, const char *full);

/*
 * Components (K_COMP objects) of a part and of its bases, base first, in
 * declaration order.  Returns the count; *out is malloc'ed (free it).
 */
uint32_t be_part_comps(const struct rk_design *d, uint32_t part,
		       uint32_t **out);

/* Protocol word of a port object (inherited), or "" when it has none. */
const char *be_port_protocol(const struct rk_design *d, uint32_t port);

/* Role word of a port object, or "" when it has none. */
const char *be_port_role(const struct rk_design *d, uint32_t port);

/*
 * The orderable part number of @part sold at stock length @length (um; -1:
 * no length) as an interned string id, 0 when there is none: the entry of
 * `part_numbers` at the position of @length in `lengths` when the part has
 * `part_numbers`, else its `part_number`.
 */
uint32_t be_part_number(const struct rk_design *d, uint32_t part,
			int64_t length);

/*
 * A cable length (um) as the pull list and the patch schedule print it for
 * the installer: rounded up to the centimetre (a stock length in whole
 * centimetres is unchanged), never down, so the printed cable reaches.
 */
int64_t be_pull_length(int64_t um);

/*
 * The pull list's cables by rack (cabling/pull.csv and the workbook's
 * sheet alike): rack r's cables are entry[start[r] .. start[r + 1]), in
 * link order; a cable between two racks is in both, one inside a rack
 * once, one without a cut-sheet row (label_no 0) in none.  @rack maps a
 * device to its rack (RK_NONE: none).  start[] has nobjs + 1 entries;
 * free both.
 */
struct cable_plan;
void be_pull_index(const struct rk_design *d, const struct cable_plan *p,
		   const uint32_t *rack, uint32_t **start, uint32_t **entry);

/* The pull list's columns (pullcols.def) */
enum pullcol {
#define PULL_COL(id, name, sheet) PULLCOL_##id,
#include "pullcols.def"
#undef PULL_COL
	PULLCOL__N
};

/* 64-bit FNV-1a hash of a string (stable across runs and hosts). */
uint64_t be_fnv1a(const char *s);

/* A file name made from an object name: [A-Za-z0-9_.-] kept, else '-'. */
char *be_file_name(struct arena *a, const char *name);

/*
 * The physical cables of the cable plan (report.json's totals.cables):
 * one per cable the plan numbers (the legs of a twin-port cable or a
 * splitter once), and one per link that needs a cable the catalog cannot
 * give; and, apart, the links that are not cabled (backplane ports, media
 * backplane or pcb: an NVL72 rack's NVLink spine and bus bar).
 */
void be_cable_counts(const struct rk_design *d, const struct cable_plan *p,
		     uint32_t *cables, uint32_t *backplane);

/* A JSON string literal (NULL: null), escaped; bytes >= 0x80 as they are. */
void be_json_str(FILE *fp, const char *s);

#endif
