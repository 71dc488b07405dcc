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
#include <string.h>

#include "arena.h"
#include "driver.h"

/* The tables of a snapshot. */
enum dv_table_id {
	DV_DEVICES,  /* key: device; part, class, rack, u */
	DV_BOM,	     /* key: part number (or part) and length */
	DV_RACKS,    /* key: rack; report.json racks[] fields */
	DV_FEEDS,    /* key: feed; report.json feeds[] fields */
	DV_LOOPS,    /* key: loop; report.json loops[] fields */
	DV_FABRICS,  /* key: fabric; report.json fabrics[] fields */
	DV_FINDINGS, /* key: "check object" (no object: "check - message",
		      * the second of a key "/2"...); level, check, message,
		      * figures (diag_record.figures) */
	DV_PLACES,   /* key: row, or rack or unit standing in a row; kind,
		      * row, slot (racks and units), x, y, pitch (rows) */
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

/* The fields of a cable (cabling.csv columns) but its ID and label. */
enum dv_cable_field {
	DC_FABRIC,
	DC_A_RACK,
	DC_A_U,
	DC_A_DEVICE,
	DC_A_PORT,
	DC_B_RACK,
	DC_B_U,
	DC_B_DEVICE,
	DC_B_PORT,
	DC_MEDIA,
	DC_PART,
	DC_LENGTH,   /* length_m: the stock length */
	DC_COMPUTED, /* computed_length_m */
	DC_A_TR,     /* a_transceiver */
	DC_B_TR,     /* b_transceiver */
	DC_NF,
};

/*
 * Tuples of interned ids, each stored once (diff_cables.c): a cable's
 * place at each end (rack, U, device) and its kind (fabric, media, part,
 * stock length, transceivers) repeat from cable to cable, so a cable keeps
 * the index of each tuple instead of its fields.
 */
struct dv_tuples {
	uint32_t *w; /* @n tuples of @k ids */
	uint32_t n, cap, k;
	uint32_t *slot; /* hash table: tuple index + 1, 0: empty */
	uint32_t scap;
};

enum { DV_PLACE_RACK, DV_PLACE_U, DV_PLACE_DEVICE, DV_PLACE_K };
enum {
	DV_KIND_FABRIC,
	DV_KIND_MEDIA,
	DV_KIND_PART,
	DV_KIND_LENGTH,
	DV_KIND_A_TR,
	DV_KIND_B_TR,
	DV_KIND_K
};

/**
 * struct dv_cable - one cable, compact (diff_cables.c): 32 bytes
 * @key:      the cable ID ("ID/2" and so on for a repeated one), a NUL,
 *            then the label: one arena string
 * @place:    each end's place (a tuple of the side's @places)
 * @port:     each end's port, interned
 * @kind:     its kind (a tuple of the side's @kinds)
 * @computed: computed_length_m, interned
 * Ids are interned in the diff's arena ("": 0), so that equal fields of
 * the two sides have equal ids; dv_cable_field() gives each field's.
 */
struct dv_cable {
	const char *key;
	uint32_t place[2], port[2];
	uint32_t kind, computed;
};

static inline const char *dv_cable_label(const struct dv_cable *c)
{
	return c->key + strlen(c->key) + 1;
}

/* A side's cables sorted by key (dv_keycmp); @c malloc'ed.  @face: each
 * cable's faceplate name of end a and of end b (interned, 0: unknown;
 * from cabling/patch.csv), NULL: none known. */
struct dv_cables {
	struct dv_cable *c;
	uint32_t n;
	uint32_t *face;
	struct dv_tuples places, kinds;
};

/* Field @f (an interned id) of cable @r of @t. */
uint32_t dv_cable_field(const struct dv_cables *t, uint32_t r,
			enum dv_cable_field f);

/* Reading cabling.csv into a struct dv_cables a record at a time. */
struct dv_cable_loader {
	struct dv_cables *t;
	struct arena *a;
	uint32_t cap;
	bool cols_known;
	int id_col, label_col, col[DC_NF];
	uint32_t last[DC_NF]; /* the previous record's ids */
};

void dv_cables_begin(struct dv_cable_loader *l, struct dv_cables *t,
		     struct arena *a);
/* One record: its cells and the header's. */
void dv_cables_add(struct dv_cable_loader *l, char **cells, uint32_t n,
		   char **head, uint32_t nh);
/* Sort by key; repeated IDs renamed.  The records and tuples are
 * malloc'ed, owned by the loader's arena from here on. */
void dv_cables_finish(struct dv_cable_loader *l);

struct dv_work;

/* The cabling work order: items sorted by rack, action and IDs. */
struct dv_workorder {
	struct dv_work *w;
	uint32_t n, cap;
	const struct dv_cables *o, *n_;
	uint32_t no_rack; /* "(not in a rack)" */
};

/* Compare the cables of two sides; counts[0..6] += cables to add, remove,
 * re-pull, replace, relabel, with a new computed length only, and kept
 * (their stock length changed, but the old one still reaches; relabelled
 * or not). */
void dv_cabling(struct dv_workorder *wo, const struct dv_cables *to,
		const struct dv_cables *tn, struct arena *a,
		uint64_t counts[8]);
/* Row @r of the work order (rack, action, cable_id, new_cable_id, cable,
 * detail), its strings in @s. */
void dv_work_row(const struct dv_workorder *wo, uint32_t r,
		 const struct arena *a, struct arena *s, const char *v[6]);
void dv_workorder_free(struct dv_workorder *wo);

/* Row @r's cable with each end as rack, U and port, the logical name
 * beside it ("lab.r1.rk[0] U2 ib[0] (dgx[0].ib[0]) -- ..."), in @s. */
const char *dv_work_ends(const struct dv_workorder *wo, uint32_t r,
			 const struct arena *a, struct arena *s);

/**
 * struct dv_group - like changes of the work order, one line of a review
 * @action: "add", "remove", "replace", "re-pull" or "relabel"
 * @what:   the cable: part and stock length ("mfp7e10 7 m"; for a
 *          replace "old -> new")
 * @a, @b:  the devices of each end, index ranges compressed
 *          (dv_compress_names)
 * @n:      cables (each once, however many racks list it)
 * @ports_a, @ports_b: the ports of each end when every device of it has
 *          a cable of the group on every port of one index range
 *          ("ports p[32-63] (17/1-32/2)": with the faceplate names of
 *          its first and last port where known and not the ports' own
 *          names; "port mgmt" for one), else NULL
 */
struct dv_group {
	const char *action, *what, *a, *b;
	const char *ports_a, *ports_b;
	uint64_t n;
};

/* The work order's cables grouped by (action, part and stock length, the
 * device group of each end: its name without indexes); in action order
 * (add, remove, replace, re-pull, relabel), then the most cables first.
 * Returns the number of groups; *@out malloc'ed, strings in @a.  n log n
 * in the cables. */
uint32_t dv_work_groups(const struct dv_workorder *wo, struct arena *a,
			struct dv_group **out);

/* @n distinct names as one string: names that differ in one bracketed
 * index only merged into ranges ("leaf[8-15]", "su[0-3].leaf[0-7]"), at
 * most @max items, then "and N more".  n log n. */
const char *dv_compress_names(struct arena *a, const char **names, uint32_t n,
			      uint32_t max);

struct dv_side {
	const char *what; /* the path the user gave */
	struct dv_table t[DV_TABLES];
	struct dv_cables cables;
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
	struct rackc_define *defines; /* the side's own first (@nown) */
	uint32_t ndefines, nown;
	const char **incdirs;
	uint32_t nincdirs;
	uint32_t max_source; /* --max-source-bytes, 0: the default */
	uint32_t max_links;  /* --max-links, 0: the default */
};

/* Load both sides into @s (allocations in @a); @stddir as --stdlib.
 * Returns false after printing why to stderr. */
bool diff_load(struct dv_side s[2], const struct dv_source src[2],
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
