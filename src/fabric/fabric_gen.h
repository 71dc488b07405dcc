/* SPDX-License-Identifier: MIT */
/*
 * What the fabric generators share: the dispatcher src/fabric/fabric.c (with
 * nvlink and star), the fat tree src/fabric/fabric_fattree.c and the files that
 * extend it, src/fabric/fabric_planes.c (parallel planes) and src/fabric/fabric_tiers.c
 * (three and four tiers), all on the building blocks of
 * src/fabric/fabric_build.c, which calls none of them.  Internal to the fabric
 * expansion stage.
 */
#ifndef RACKC_FABRIC_GEN_H
#define RACKC_FABRIC_GEN_H

#include "elab.h"

struct swport_list {
	uint32_t *ports;
	uint32_t n;
};

struct placer {
	/* copies: the attribute table grows while switches are placed */
	struct rk_value list;	      /* VT_LIST of racks */
	const struct rk_value *racks; /* &list, or NULL */
	const struct rk_value *where; /* &list, for messages */
	uint32_t next;		      /* rack index to try first */
	int64_t per_rack;	      /* most devices per rack (0: any) */
	bool up;		      /* fill from the bottom (a star) */
	uint32_t *count;	      /* switches placed per listed rack */
	uint8_t **used;		      /* per listed rack: U bitmap */
	int64_t *units;
	/* leaf_band: a band of band_n places from U band in every listed
	 * rack, switch j at place j mod band_n of rack j / band_n (0: none) */
	int64_t band, band_n;
	uint64_t band_next; /* the switch index a reservation takes next */
};

/*
 * One plane of a fat tree: the endpoints whose rail r (rails numbered in
 * order of first appearance) has r mod nplanes == plane; its i-th switch
 * of a tier is named TIER[i*nplanes + plane] (fabric_ft_name()).  nplanes 1: the
 * whole fabric.  With more planes the leaves of all planes are made
 * first, in name order (fabric_planes.c): fabric_gen_fat_tree() is run once per
 * plane with @count set, to say how many leaves the plane has and how
 * many its final size adds, then again with @made, the plane's leaves.
 */
struct ft_plane {
	uint32_t plane, nplanes;
	uint32_t *count, *future; /* per plane: leaves built, still to come */
	uint32_t **made;	  /* per plane: its leaves, made */
	/* every endpoint of the fabric, gathered once, by plane: plane p's
	 * devices and ports at [poff[p], poff[p + 1]) of @ped and @pep */
	uint32_t *ped, *pep, *poff;
};

/* A fat tree's leaves, built, and what the tiers above them need. */
struct ft_build {
	uint32_t fab;
	const struct srcloc *loc;
	uint32_t spw;			   /* spine (and core) switch part */
	const struct swport_list *lp, *sp; /* leaf and spine part ports */
	const uint32_t *leaf;		   /* L leaves, index s*nrails+r */
	uint32_t L, Lf, D, U, nrails, nsu; /* Lf: leaves of final_sus units */
	uint32_t tiers;			   /* 3 or 4 */
	bool provisioned; /* final_sus given: sized for Lf leaves */
	struct ft_plane *fp;
	struct placer *pl_spine, *pl_core; /* zeroed; initialised here */
	/* grown: the tiers are the default and the fabric is not
	 * provisioned, so smaller sizes were two tiers of leaves cabling Uf
	 * uplinks (the first pod keeps their spines and ports) */
	uint32_t Uf;
	bool grown;
};

/* U positions held for switches a provisioned fabric adds as it grows
 * (e->resv, a list in the compilation's arena) */
struct placer_resv {
	uint32_t rack;
	int64_t lo, hi;
	struct placer_resv *next;
};

/*
 * Fabric expansion's own state, for the length of fabric_expand() (struct
 * elab's @fab): incremental indexes over the first @ix_nobjs objects and
 * @ix_nlinks links (fabric_build.c, index_update), the places held for
 * switches of provisioned fabrics, and the run of attributes that the
 * links of the fabric being expanded share (fabric.c, link_attrs).
 */
struct fabric_state {
	uint32_t *ix_link_head, *ix_link_next; /* device -> 2 * link + end */
	uint32_t *ix_dev_head, *ix_dev_next;   /* rack -> mounted devices */
	uint8_t *ix_seen;		       /* all 0 between uses */
	uint32_t ix_nobjs, ix_nlinks, ix_cap, ix_seen_n;
	uint64_t ix_link_cap;
	struct placer_resv *resv;
	uint32_t link_attr_first, link_attr_count;
};

void fabric_placer_init(struct elab *e, struct placer *p, uint32_t fab,
			uint32_t key);
void fabric_placer_reserve(struct elab *e, struct placer *p, uint32_t n,
			   uint32_t part);
void fabric_placer_fini(struct placer *p);
uint32_t fabric_new_switch(struct elab *e, uint32_t fab, const char *tier,
			   uint64_t idx, uint32_t part, uint32_t role,
			   struct placer *pl);
/* Add a generated link; false at the link limit (the compilation stops). */
bool fabric_add_link(struct elab *e, uint32_t fab, uint32_t ad, uint32_t ap,
		     uint32_t bd, uint32_t bp);
/* The endpoint devices and ports of @fab in order (the caller frees). */
uint32_t fabric_endpoints(struct elab *e, uint32_t fab, uint32_t **devs,
			  uint32_t **ports);
/* Fabric-capable ports of a switch part (and its bases), in order. */
void fabric_switch_ports(struct elab *e, uint32_t part, uint32_t proto,
			 struct swport_list *out);
/* A hand-wired fabric owns the explicit links reachable from its endpoint
 * ports (@ed, @ep, @ne of them) through switches. */
void fabric_adopt_links(struct elab *e, uint32_t fab, const uint32_t *ed,
			const uint32_t *ep, uint32_t ne);
/* The switch part @fab's attribute @key names (RK_NONE: none). */
uint32_t fabric_switch_part(struct elab *e, uint32_t fab, uint32_t key);
/* The spines for @need spine ports' worth of uplinks, U per leaf and P
 * ports per spine (fabric_build.c says how). */
uint32_t fabric_spines_for(uint64_t need, uint32_t U, uint32_t P);
/* fabric_fattree.c: a fat tree, or one plane of it */
void fabric_gen_fat_tree(struct elab *e, uint32_t fab, struct ft_plane *fp);

/*
 * Growth-stable uplinks (fabric_build.c): @units units are added one at a time,
 * each of @per lower switches with @up uplinks; once k+1 units are in
 * there are sk[k] upper switches (never fewer than before) of @ports
 * ports.  Lower switch l spreads its uplinks as spread(x, s, up, S) with x
 * = l (period 0) or l mod period (so every unit alike).
 */
struct deal {
	uint32_t units, per, up, ports, period;
	const uint32_t *sk;
};
uint32_t fabric_spread(uint32_t l, uint32_t s, uint32_t U, uint32_t S);
uint32_t fabric_deal_uplinks(const struct deal *dl, uint32_t *sp, uint32_t *pt);
/*
 * The two-tier deal (fabric_build.c): @units units of @rails leaves with @Uf
 * uplinks each, on spines of @P ports, as many as each size needs (or
 * @Sfix when not 0); spine and port of uplink j of leaf l at [l*Uf + j]
 * of @up_s and @up_p.  Returns the number of spines.
 */
uint32_t fabric_deal_two_tier(uint32_t units, uint32_t rails, uint32_t Uf,
			      uint32_t P, uint32_t Sfix, uint32_t *up_s,
			      uint32_t *up_p);

/* fabric_build.c: plane fp->plane's endpoints (devices and ports, in
 * order) into @ed and @ep, for the caller to free; their count */
uint32_t fabric_ft_plane_take(const struct ft_plane *fp, uint32_t **ed,
			      uint32_t **ep);
/* fabric_build.c: the name index of the @i-th switch of a tier of plane
 * fp->plane: i*nplanes + plane, a function of the plane and i alone */
uint64_t fabric_ft_name(const struct ft_plane *fp, uint32_t i);
/* fabric_planes.c: a fat tree, in as many planes as it asks for */
void fabric_gen_fat_tree_planes(struct elab *e, uint32_t fab);
/* fabric_planes.c: `planes` on a fabric that is no fat tree: an error */
void fabric_planes_check(struct elab *e, uint32_t fab);
/* fabric_tiers.c: pods, spines, cores (and a top tier) above @b's leaves,
 * as a complete tree with leaves missing */
void fabric_gen_upper_tiers(struct elab *e, const struct ft_build *b);

#endif
