/* SPDX-License-Identifier: MIT */
/*
 * The elaborated design: what checks and back ends read.
 *
 * Everything is a flat table indexed by 32-bit ids (RK_NONE for "none"):
 *   objs[]   every named thing: catalog parts and their ports and components,
 *            sites, rows, racks, devices (servers, switches, PDUs, CDUs...),
 *            feeds, cooling zones, liquid loops, fabrics, groups;
 *   attrs[]  attribute values, contiguous per object, in schema order;
 *   vals[]   elements of list and pair values;
 *   links[]  point-to-point connections between device ports;
 *   reqs[]   `require` assertions.
 * Names are interned strings; full hierarchical names (su[2].dgx[17]) are
 * unique and found through a hash table, so lookups are O(1).  Tables keep
 * declaration order, which is deterministic; back ends that need a sorted
 * view sort ids, never the tables.
 *
 * After elaboration the design is read-only: checks and back ends take a
 * const struct rk_design *.
 */
#ifndef RACKC_IR_H
#define RACKC_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "ast.h"
#include "srcfile.h"
#include "units.h"

struct arena;

enum rk_kind {
	K_NONE,
	K_PART,	  /* catalog part (class in cls) */
	K_PORT,	  /* port of a part */
	K_COMP,	  /* component inside a part: cpu, pcie_switch, gpu, nic */
	K_SITE,
	K_ROW,
	K_RACK,	  /* rack instance (part class rack) */
	K_DEVICE, /* instance of a part: server, switch, pdu, cdu, ... */
	K_FEED,	  /* power feed / UPS */
	K_AIR,	  /* air-cooling zone of a site */
	K_LOOP,	  /* liquid-cooling loop */
	K_FABRIC, /* fabric generator */
	K_GROUP,  /* namespace: group or module instance */
	K__COUNT
};

/* Part classes (the base after ':' in a part definition). */
enum rk_class {
	C_NONE,
	C_SERVER,
	C_SWITCH,
	C_GPU,
	C_CPU,
	C_NIC,
	C_TRANSCEIVER,
	C_CABLE,
	C_PDU,
	C_CDU,
	C_RACK,
	C_RDHX,
	C_POWER_SHELF,
	C_DEVICE,
	C__COUNT
};

/* Component kinds inside a part (K_COMP objects, in obj.cls). */
enum rk_comp {
	COMP_CPU = 1,
	COMP_PCIE_SWITCH,
	COMP_GPU,
	COMP_NIC,
};

enum rk_vtype {
	VT_NONE,
	VT_NUM,	  /* dim, n */
	VT_BOOL,  /* n */
	VT_STR,	  /* a: string id */
	VT_WORD,  /* a: string id of a bare word (OSFP, air, ib) */
	VT_RATIO, /* n : a */
	VT_REF,	  /* a: unresolved path (only during elaboration) */
	VT_OBJ,	  /* a: object id */
	VT_PORT,  /* a: device (or part) object id, n: port object id */
	VT_LIST,  /* a: first index in vals, n: count */
	VT_PAIR,  /* a: index of two elements in vals (x -> y) */
};

/**
 * struct rk_value - one attribute value
 * @type: VT_*
 * @dim:  dimension of a VT_NUM
 * @a:    string id, object id, or index into vals (see enum rk_vtype)
 * @n:    number, boolean, ratio numerator, port object or list length
 * @loc:  where the value was written
 */
struct rk_value {
	uint8_t type;
	uint8_t dim;
	uint32_t a;
	int64_t n;
	struct srcloc loc;
};

/**
 * struct rk_attr - an attribute of an object
 * @key: schema attribute id (enum rk_attr_id in schema.h)
 * @val: the value
 */
struct rk_attr {
	uint32_t key;
	struct rk_value val;
};

/**
 * struct rk_obj - one named object
 * @kind:       K_*
 * @cls:        part class (K_PART, K_DEVICE, K_RACK) or component kind
 * @name:       full hierarchical name (interned)
 * @local:      name relative to @parent (interned)
 * @parent:     enclosing object, or RK_NONE
 * @part:       K_DEVICE/K_RACK/K_COMP: its catalog part; K_PART: base part
 * @attr_first, @attr_count: range in attrs[]
 * @first_child, @next_sibling: tree links, in declaration order
 * @loc:        the declaring statement
 * @tloc:       the type expression after ':' (or @loc)
 */
struct rk_obj {
	uint16_t kind;
	uint16_t cls;
	uint32_t name;
	uint32_t local;
	uint32_t parent;
	uint32_t part;
	uint32_t attr_first, attr_count;
	uint32_t first_child, last_child, next_sibling;
	struct srcloc loc;
	struct srcloc tloc;
};

/**
 * struct rk_link - a connection between two ports
 * @a_dev, @a_port, @b_dev, @b_port: device objects and port objects
 * @attr_first, @attr_count: link attributes (media, length, part, ...)
 * @scope:  enclosing group, RK_NONE at top level
 * @fabric: generating fabric, RK_NONE for an explicit link
 * @loc:    the link statement (or the generator)
 */
struct rk_link {
	uint32_t a_dev, a_port, b_dev, b_port;
	uint32_t attr_first, attr_count;
	uint32_t scope;
	uint32_t fabric;
	struct srcloc loc;
};

/**
 * struct rk_req - a require assertion, evaluated by the requirements check
 * @expr:  the condition (AST, arena-owned)
 * @msg:   optional message expression, or NULL
 * @scope: enclosing group, RK_NONE at top level
 * @loc:   the require statement
 */
struct rk_req {
	const struct ast *expr;
	const struct ast *msg;
	uint32_t scope;
	struct srcloc loc;
};

/**
 * struct rk_design - the whole elaborated design
 * @arena:  owner of everything below
 * @objs, @attrs, @vals, @links, @reqs: the tables (with counts and caps)
 * @name_tab, @name_cap: open-addressing hash of full names -> object id
 * @parts_by_name: same for catalog parts, keyed by part name
 * @part_ports: for each object id of a part, the index in port_ids of its
 *         first port; ports of a part are contiguous there
 * @roots:  first top-level object (chain through next_sibling)
 */
struct rk_design {
	struct arena *arena;
	struct rk_obj *objs;
	uint32_t nobjs, objs_cap;
	struct rk_attr *attrs;
	uint32_t nattrs, attrs_cap;
	struct rk_value *vals;
	uint32_t nvals, vals_cap;
	struct rk_link *links;
	uint32_t nlinks, links_cap;
	struct rk_req *reqs;
	uint32_t nreqs, reqs_cap;
	uint32_t *name_tab;
	uint32_t name_cap, name_count;
	uint32_t *part_tab;
	uint32_t part_cap, part_count;
	uint32_t first_root, last_root;
};

void ir_init(struct rk_design *d, struct arena *a);
/* Append an object; links it under parent (or the roots).  Returns its id. */
uint32_t ir_add_obj(struct rk_design *d, enum rk_kind kind, uint32_t parent,
		    uint32_t local, uint32_t name, const struct srcloc *loc);
/* Register a full name; returns the id already holding it, or RK_NONE. */
uint32_t ir_bind_name(struct rk_design *d, uint32_t name, uint32_t obj);
uint32_t ir_find_name(const struct rk_design *d, uint32_t name);
uint32_t ir_bind_part(struct rk_design *d, uint32_t name, uint32_t obj);
uint32_t ir_find_part(const struct rk_design *d, uint32_t name);

static inline const struct rk_obj *ir_obj(const struct rk_design *d,
					  uint32_t id)
{
	return &d->objs[id];
}
const char *ir_name(const struct rk_design *d, uint32_t id);

/* Attribute lookup on an object only (no inheritance). */
const struct rk_value *ir_attr(const struct rk_design *d, uint32_t obj,
			       uint32_t key);
/*
 * Attribute of an instance or part, falling back to its part and the part's
 * bases (a device inherits every attribute of its catalog part).
 */
const struct rk_value *ir_attr_inh(const struct rk_design *d, uint32_t obj,
				   uint32_t key);
/* Numeric attribute (inherited) or @dflt when absent. */
int64_t ir_num(const struct rk_design *d, uint32_t obj, uint32_t key,
	       int64_t dflt);
/* String/word attribute (inherited) or NULL. */
const char *ir_str(const struct rk_design *d, uint32_t obj, uint32_t key);
static inline const struct rk_value *ir_list_at(const struct rk_design *d,
						const struct rk_value *list,
						uint32_t i)
{
	return &d->vals[list->a + i];
}

/* Iterate the children of an object (or the roots when obj is RK_NONE). */
#define for_each_child(d, obj, c)                                             \
	for (uint32_t c = (obj) == RK_NONE ? (d)->first_root                  \
					   : (d)->objs[obj].first_child;      \
	     c != RK_NONE; c = (d)->objs[c].next_sibling)

/* The part an instance was made from (RK_NONE for non-instances). */
static inline uint32_t ir_part_of(const struct rk_design *d, uint32_t obj)
{
	const struct rk_obj *o = &d->objs[obj];

	return o->kind == K_DEVICE || o->kind == K_RACK || o->kind == K_COMP
		       ? o->part
		       : RK_NONE;
}

/* Port lookup in a part (following bases): port object id or RK_NONE. */
uint32_t ir_part_port(const struct rk_design *d, uint32_t part,
		      uint32_t local_name);

/*
 * Member (port or component) named @local_name of a part, the derived
 * part's own first, then its bases': RK_NONE if none.
 */
uint32_t ir_part_member(const struct rk_design *d, uint32_t part,
			uint32_t local_name);
/*
 * Is member @m (a child of @part or of one of its bases) in effect for
 * @part, i.e. not redeclared by a more derived part?
 */
bool ir_member_effective(const struct rk_design *d, uint32_t part,
			 uint32_t m);
/* Effective GPU components of a part and its bases. */
uint32_t ir_part_gpu_count(const struct rk_design *d, uint32_t part);

const char *rk_kind_name(enum rk_kind k);
const char *rk_class_name(enum rk_class c);

#endif
