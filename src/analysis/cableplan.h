/* SPDX-License-Identifier: MIT */
/*
 * The cabling plan: for every link of a checked design, the cable part, its
 * stock length and the transceivers it needs, computed from the read-only
 * IR.  The cable-reach checks and the cabling and bom back ends all read the
 * same plan, so what the checks accept is exactly what the artifacts list.
 *
 * Length.  A link's `length` if forced; else layout_cable_run(): up from
 * each device to its rack top and the overhead tray, along the trays and
 * down again, plus the site's slack (layout.h).  When an end is not in a
 * rack and no length is forced, the length is unknown: the plan still picks
 * a part (ignoring reach and stock lengths) but no stock length.
 *
 * Speed.  The slower of the two ports' `speed` (a port without one does not
 * limit it; neither port: unknown, any part fits).
 *
 * Part.  The link's `cable` if forced (used even if it does not fit: the
 * user said so; the checks report what does not hold).  Otherwise the
 * cheapest catalog part of class cable that fits, among those of the link's
 * `media` if forced:
 *   - media: not `power`; the forced media if any;
 *   - speed: link speed <= the part's `speed` <= the faster port's speed
 *     (a part without `speed` fits any rate).  Parts never run above the
 *     ports' rate: 200G-PAM4 parts cannot downshift (N10);
 *   - length: `reach` >= length, and a stock length >= length when the part
 *     has `lengths`;
 *   - ends: a part plugs straight into a port whose form is its own (or
 *     when either form is unknown), with its `top` equal to the port's where
 *     both are given; a `cage twin` part needs twin cages and a `cage single`
 *     part single ones.  A part of optical media (mmf, smf) plugs into any
 *     other port form through a transceiver (below);
 *   - a twin-port straight cable (cage twin, split 1) carries both ports of
 *     a cage to both ports of one far cage, so it is only a choice when the
 *     cage's other port is unused or linked to the far cage's other port;
 *   - splitters (`split` > 1) are only used when forced: which links share
 *     one is a wiring decision the design must make.
 * "Cheapest" compares the cost per link: the cable's `price` (halved for a
 * twin-port cable, which serves two links) plus the transceivers it needs
 * (a twin-port module's price halved likewise).  Candidates with every
 * price known rank first; ties go to the shorter `reach` (the least
 * capable part that does the job; no reach ranks last), then to the part
 * name, so the choice is deterministic.
 *
 * Stock length.  The smallest of the part's `lengths` >= the length; a part
 * without `lengths` is cut to length (stock = length).
 *
 * Transceivers.  At an end where an optical cable meets a port of another
 * form: the cheapest part of class transceiver with the port's form, the
 * port's cage type (twin or single), its top where both are given, the
 * cable's media, link speed <= `speed` <= port speed, and `reach` >= length
 * (ties: shorter reach, then name).
 *
 * Cages.  A `cage twin` port range declares two ports per cage: the pairs
 * (lo, lo+1), (lo+2, lo+3), ... counted from the first index lo of the
 * range (for ib[0..7]: (0,1), (2,3), ...; a trailing odd port has a cage to
 * itself).  Twin-port modules are counted per cage, as NVIDIA's bills of
 * materials do: the links of one cage that use the same module part share
 * one module.  Twin-port cables and splitters are counted the same way:
 * one per head cage (a twin straight cable per cage pair).  A port that
 * carries several links (the fan-out end of a splitter, as port-reuse
 * allows: "each p[i] is one 800G cage") is a cage by itself.
 *
 * Links between `backplane` ports, or with media backplane or pcb, are not
 * cabled.  The plan is deterministic and linear in the number of links
 * (catalog sizes are small constants).
 */
#ifndef RACKC_CABLEPLAN_H
#define RACKC_CABLEPLAN_H

#include <stdint.h>

#include "ir.h"

/* What the plan could do for a link. */
enum cp_status {
	CP_OK,	       /* a part, and a stock length if the length is known */
	CP_NOT_CABLED, /* backplane or pcb: no cable */
	CP_NO_CATALOG, /* the design has no cable parts at all */
	CP_NO_FIT,     /* no catalog cable fits (speed, media, form, reach) */
	CP_TOO_SHORT,  /* the forced cable's reach is below the length */
	CP_NO_STOCK,   /* the forced cable is not sold that long */
};

/* How the part was chosen (cp_link.how). */
enum cp_how {
	CP_HOW_NONE,
	CP_HOW_FORCED,	 /* the link's `cable` */
	CP_HOW_MEDIA,	 /* cheapest of the link's forced `media` */
	CP_HOW_CHEAPEST, /* cheapest that fits */
};

/**
 * struct cp_link - the plan for one link (same index as d->links)
 * @cable:     cable part, or RK_NONE
 * @xcvr:      transceiver part at end a / b, or RK_NONE
 * @length:    computed or forced length in um, -1 when unknown (the
 *             breakdown of a computed one: layout_cable_run())
 * @stock:     stock length of the physical cable in um, -1 when none
 * @media:     string id of the media word, 0 when none
 * @near:      CP_NO_FIT: the longest-reach part that fits all but the
 *             length, or RK_NONE
 * @cable_no:  physical cable number (0-based, in link order), RK_NONE
 * @label_no:  ordinal of the cable's cut-sheet row (1-based, in link
 *             order, over the links that are cabled; the legs of one
 *             physical cable share their first leg's), 0 when not cabled
 * @id:        one more than the cable's stable identity (below; written
 *             by cableplan_id_str(id - 1)), 0 when not cabled; the legs
 *             of one physical cable share their first leg's
 * @status:    enum cp_status
 * @how:       enum cp_how
 * @forced_length: the length is the link's `length`
 * @first_leg: this link is the first of its physical cable (counted here)
 * @xcvr_first: the module at this end is counted here (first link of its
 *             cage with that part)
 * @xcvr_missing: bit 0/1: end a/b needs a transceiver and none fits
 */
struct cp_link {
	uint64_t id;
	int64_t length;
	int64_t stock;
	uint32_t cable;
	uint32_t xcvr[2];
	uint32_t media;
	uint32_t near;
	uint32_t cable_no;
	uint32_t label_no;
	uint8_t status;
	uint8_t how;
	uint8_t forced_length;
	uint8_t first_leg;
	uint8_t xcvr_first[2];
	uint8_t xcvr_missing;
};

/**
 * struct cp_count - how many of one part (and stock length) the plan needs
 * @part:   catalog part
 * @length: stock length in um (cables), -1 for transceivers, cables of
 *          unknown length and cut-to-length cables (parts without
 *          `lengths`: one line per part)
 * @qty:    count
 */
struct cp_count {
	uint32_t part;
	int64_t length;
	uint64_t qty;
};

/**
 * struct cable_plan - the whole plan
 * @links:     one record per d->links entry
 * @ncables:   physical cables (distinct cable_no)
 * @cables, @ncable_lines:  counts by (cable part, stock length), sorted by
 *             part name, then length
 * @xcvrs, @nxcvr_lines:    counts by transceiver part, sorted by name
 * @nxcvrs:    transceiver modules in all
 * @ncatalog:  cable parts in the catalog (0: nothing was planned)
 */
struct cable_plan {
	struct cp_link *links;
	uint32_t ncables;
	struct cp_count *cables;
	uint32_t ncable_lines;
	struct cp_count *xcvrs;
	uint32_t nxcvr_lines;
	uint64_t nxcvrs;
	uint32_t ncatalog;
};

/*
 * Cable identities.  A cable's ID is "C" and 8 characters of Crockford
 * base 32 (0-9, A-Z without I, L, O, U): 40 bits of a hash of its key,
 * the fabric's full name (empty for a link outside any fabric) and its two
 * ends, each the device's full hierarchical name and the port's local name,
 * in byte order of (device, port) so that writing a link the other way
 * round does not change it.  The legs of a twin-port cable or splitter
 * take their first leg's.  Nothing else enters the key, so a change
 * elsewhere in the design leaves the ID as it was.
 *
 * Collisions.  Cables whose hashes are equal are put in byte order of
 * their keys: the first keeps its hash, each later one is hashed again
 * with a salt (1, 2, ...) until it is unique among all the cables; this
 * repeats until every ID is distinct, so the IDs depend only on the set
 * of keys.  With 40 bits a collision is rare (about one in 2,200 designs
 * of a million cables); when one happens, the cable whose key sorts later
 * may change ID when the other appears.
 */
#define CP_ID_CHARS 9 /* "C" and 8 digits */
#define CP_ID_BITS 40

/* The hash of the @n strings @part (@len bytes each; a NUL byte is hashed
 * between two), with @salt (0: none), in @bits bits. */
uint64_t cableplan_id_hash(const char *const *part, const size_t *len,
			   uint32_t n, uint32_t salt, unsigned bits);
/* Write @id as "C" and 8 characters to @buf (CP_ID_CHARS + 1 bytes);
 * returns CP_ID_CHARS. */
size_t cableplan_id_str(uint64_t id, char *buf);
/* The key of entry @i (NUL bytes between its parts), malloc'ed, its length
 * in *@len. */
typedef char *(*cp_key_fn)(void *ctx, uint32_t i, size_t *len);
/* Make the @n hashes @h distinct as described above, in @bits bits
 * (CP_ID_BITS; fewer in tests to force collisions; @n must be well below
 * 2^@bits).  Keys are asked of @key only for entries that collide. */
void cableplan_resolve_ids(uint64_t *h, uint32_t n, unsigned bits,
			   cp_key_fn key, void *ctx);

/* Compute the plan (malloc'ed; free with cableplan_free) from the design
 * and its link ends by port (portindex.h). */
struct port_index;
struct cable_plan *cableplan_build(const struct rk_design *d,
				   const struct port_index *ports);
void cableplan_free(struct cable_plan *p);
/* One line on how the link's part was chosen, for artifacts. */
const char *cableplan_reason(const struct cp_link *l);
/* The first value of a link attribute, or NULL. */
const struct rk_value *cableplan_link_attr(const struct rk_design *d,
					   const struct rk_link *l,
					   uint32_t key);

#endif
