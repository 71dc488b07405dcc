/* SPDX-License-Identifier: MIT */
/*
 * `rackc diff OLD NEW`: what a change to a design does, by stable
 * identity.  Each side is a design (compiled here, with its own -D/-I, into
 * a temporary directory) or the output directory of an earlier run; either
 * way the comparison reads an output directory:
 *
 *   ir.rack       the elaborated design, compiled again here for the
 *                 devices (part, rack, U) and the findings (every
 *                 diagnostic of elaboration and the checks)
 *   cabling.csv   the cables by ID (cableplan.h), ends, part and lengths
 *   bom.csv       the bill of materials by part number and length
 *   report.json   per rack, feed and loop power, heat and cooling; per
 *                 fabric its figures
 *
 * so a diff between output directories is the diff between the designs
 * that made them.  diff_load.c makes a side's snapshot (struct dv_side:
 * tables of keyed records of text fields), diff.c compares two snapshots
 * and writes the result as text, JSON or Markdown.
 */
#ifndef RACKC_DIFF_H
#define RACKC_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"
#include "driver.h"

/* The tables of a snapshot. */
enum dv_table_id {
	DV_DEVICES,  /* key: device; part, class, rack, u */
	DV_CABLES,   /* key: cable ID; the cabling.csv columns below */
	DV_BOM,	     /* key: part number (or part) and length */
	DV_RACKS,    /* key: rack; report.json racks[] fields */
	DV_FEEDS,    /* key: feed; report.json feeds[] fields */
	DV_LOOPS,    /* key: loop; report.json loops[] fields */
	DV_FABRICS,  /* key: fabric; report.json fabrics[] fields */
	DV_FINDINGS, /* key: "level [check] message"; count */
	DV_TABLES,
};

/**
 * struct dv_table - records sorted by key, each with @nf text fields
 * @fields:  field names
 * @keys:    one per record, sorted (dv_keycmp), unique
 * @vals:    @n * @nf values ("" when absent)
 */
struct dv_table {
	const char **fields;
	uint32_t nf;
	const char **keys;
	const char **vals;
	uint32_t n;
};

struct dv_side {
	const char *what; /* the path the user gave */
	struct dv_table t[DV_TABLES];
};

/**
 * struct dv_source - how to get one side
 * @path:    a design file or an output directory
 * @defines, @incdirs: its -D and -I (designs only)
 * @prices:  its --prices file, NULL: none (designs only)
 */
struct dv_source {
	const char *path;
	const char *prices;
	struct rackc_define *defines;
	uint32_t ndefines;
	const char **incdirs;
	uint32_t nincdirs;
	uint32_t max_source; /* --max-source-bytes, 0: the default */
};

/* Load a side into @s (allocations in @a); @stddir as --stdlib.  Returns
 * false after printing why to stderr. */
bool diff_load(struct dv_side *s, const struct dv_source *src,
	       const char *stddir, struct arena *a);

/* Key order: bytes, but runs of digits by their value ("dgx[9]" before
 * "dgx[10]"); keys equal but for leading zeros by their bytes. */
int dv_keycmp(const char *a, const char *b);

/* The field index of @name in table @t, or -1. */
int dv_field(const struct dv_table *t, const char *name);

/* `rackc diff ...` (argv[0] is "diff"); returns the exit status: 0 no
 * difference, 1 differences, 2 trouble. */
int diff_main(int argc, char **argv);

#endif
