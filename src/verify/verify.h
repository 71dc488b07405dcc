/* SPDX-License-Identifier: MIT */
/*
 * `rackc verify DESIGN OBSERVED...`: the installed cabling, as the fabric
 * reports it, compared cable by cable with the design's cabling plan.
 *
 * The plan is read from an output directory (the design is compiled first
 * into a temporary one, with the back ends cabling, ibnet and lldp):
 *   cabling.csv        the cables: ID, label, both ends by rack, U, device
 *                      and port, fabric
 *   cabling/patch.csv  each cabled port's faceplate name
 *   ib/SUBNET.net      each InfiniBand subnet: the node descriptions and
 *                      IB port numbers of the cabled ports, and the rate
 *                      each link must train at
 *   lldp/expected.json the host names of the devices with cabled Ethernet
 *                      ports (so that a `hostname` is known)
 * The observations (verify_read.c) are ibnetdiscover topology output,
 * ibdiagnet.lst,
 * `lldpcli -f json` output and CSV neighbour lists; names in them are
 * mapped to the design's by the rules of a mapping file, else by the
 * design's own names (devices, host names, node descriptions, ports and
 * faceplate names); a name that maps to nothing is reported, never guessed.
 */
#ifndef RACKC_VERIFY_H
#define RACKC_VERIFY_H

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "arena.h"

/* Interned strings: an open-addressing table of arena strings. */
struct vf_strtab {
	const char **s; /* by id */
	uint32_t n, cap;
	uint32_t *slot; /* id + 1, 0: empty */
	uint32_t scap;
	struct arena *a;
};

/* The id of @s (@len bytes), interned when @add; RK_NONE if absent. */
uint32_t vf_intern(struct vf_strtab *t, const char *s, size_t len, bool add);

/* A string -> value map over interned ids (value RK_NONE: absent). */
struct vf_map {
	uint64_t *key;
	uint32_t *val;
	uint32_t n, cap; /* cap a power of two, at most half full */
};

uint32_t vf_map_get(const struct vf_map *m, uint64_t key);
/* Sets @key to @val and returns the old value (RK_NONE: was absent). */
uint32_t vf_map_put(struct vf_map *m, uint64_t key, uint32_t val);
void vf_map_free(struct vf_map *m);

#define VF_AMBIGUOUS (RK_NONE - 1)

/* The kinds of observation, for coverage. */
enum vf_src { VF_SRC_IB, VF_SRC_LLDP, VF_SRC_CSV };

struct vf_dev {
	const char *name;     /* design name, or the observed one */
	const char *rack, *u; /* "" when unknown */
	bool planned;
	bool seen[3]; /* reported by a source of each kind (enum vf_src) */
};

struct vf_port {
	uint32_t dev;
	const char *name;      /* design port name, or the observed one */
	const char *faceplate; /* "" when the plan gives none */
	uint32_t cable;	       /* RK_NONE: not in the plan */
	uint32_t subnet;       /* IB subnet (net file), RK_NONE: not IB */
	uint8_t width, speed;  /* planned IB rate (0: none) */
};

struct vf_cable {
	const char *id, *label, *fabric;
	uint32_t end[2]; /* ports */
	bool matched;
};

/* An observed link, once per pair of ends. */
struct vf_obs {
	uint32_t end[2]; /* ports */
	const char *file;
	uint32_t line;
	uint8_t width, speed; /* 0: the input does not say */
	bool used;	      /* matched or explained */
};

/* A rule of the mapping file. */
struct vf_rule {
	bool port; /* a port rule, else a device rule */
	bool re;   /* @rx, else @exact */
	const char *exact;
	regex_t rx;
	const char *repl;
	const char *file;
	uint32_t line;
};

enum vf_kind {
	VF_MISSING,
	VF_UNPLANNED,
	VF_SWAPPED,
	VF_WRONG_PORT,
	VF_MOVED,
	VF_WRONG_RATE,
	VF_UNKNOWN_DEVICE,
	VF_KINDS,
};

struct vf_finding {
	enum vf_kind kind;
	uint32_t cable[2]; /* RK_NONE where none */
	uint32_t obs[2];   /* observed links, RK_NONE where none */
	/* unknown device: the observed names and where */
	const char *what, *file;
	uint32_t line;
};

struct vf {
	struct arena *a;
	struct vf_strtab str;
	struct vf_dev *dev;
	uint32_t ndev, devcap;
	struct vf_port *port;
	uint32_t nport, portcap;
	struct vf_cable *cable;
	uint32_t ncable, cablecap;
	struct vf_obs *obs;
	uint32_t nobs, obscap;
	struct vf_finding *fd;
	uint32_t nfd, fdcap;
	struct vf_rule *rule;
	uint32_t nrule, rulecap;
	const char **subnet; /* net file names */
	bool *subnet_seen;
	uint32_t nsubnet;
	struct vf_map dev_by_name;  /* name id -> dev (or VF_AMBIGUOUS) */
	struct vf_map port_by_name; /* dev << 32 | name id -> port */
	struct vf_map ib_node;	    /* description id -> node (ibn) */
	struct vf_map ib_port;	    /* node << 32 | IB port -> port */
	uint32_t *ibn_dev;	    /* IB node -> device */
	uint32_t *ibn_subnet;
	uint32_t nibn, ibncap;
	struct vf_map obs_pair; /* min port << 32 | max port -> obs */
	struct vf_map unknown;	/* observed name id -> finding */
	bool have[3];		/* inputs of each kind were given */
};

/* Pack two 32-bit ids into a map key. */
static inline uint64_t vf_key2(uint32_t hi, uint32_t lo)
{
	return (uint64_t)hi << 32 | lo;
}

/* Name device @d @name too (VF_AMBIGUOUS when it names another). */
void vf_name_dev(struct vf *v, const char *name, uint32_t d);

/* Readers (verify_read.c); each returns false after printing why the
 * input is unreadable. */
bool vf_read_mapping(struct vf *v, const char *path);
bool vf_read_observed(struct vf *v, const char *arg);
/* lldp/expected.json of the plan: each device's system (host) name. */
bool vf_read_lldp_expected(struct vf *v, const char *path);

/* The device an observed name stands for, or RK_NONE (an unknown-device
 * finding is recorded, once per name). */
uint32_t vf_observed_dev(struct vf *v, const char *name, const char *file,
			 uint32_t line);
/* The port @name of device @dev (an observed name, mapped by the port
 * rules; a port the plan does not list is added). */
uint32_t vf_observed_port(struct vf *v, uint32_t dev, const char *name);
/* Record a link seen between two ports. */
void vf_add_obs(struct vf *v, uint32_t p, uint32_t q, const char *file,
		uint32_t line, uint8_t width, uint8_t speed);

/* IB rates: width (1, 2, 4, 8, 12) and speed rank (SDR 1 .. XDR 9) of a
 * token like "4xHDR"; false if it is none. */
bool vf_ib_rate(const char *s, uint8_t *width, uint8_t *speed);
const char *vf_ib_speed_name(uint8_t speed);

/* `rackc verify ...` (argv[0] is "verify"): 0 as planned, 1 differences,
 * 2 trouble. */
int verify_main(int argc, char **argv);

#endif
