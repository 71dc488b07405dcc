/* SPDX-License-Identifier: MIT */
/*
 * Schema tables: which statement words declare which kind of object, where
 * each kind may appear, and which attributes each kind takes with their
 * types and units.  The grammar is generic; this file gives it meaning.  A
 * new attribute is one row in attr_table (schema.c) and one enum entry here.
 */
#ifndef RACKC_SCHEMA_H
#define RACKC_SCHEMA_H

#include <stdint.h>

#include "ir.h"
#include "units.h"

/* Attribute value types. */
enum attr_type {
	T_NUM,	   /* quantity of attr.dim (DIM_NONE: plain integer) */
	T_STR,	   /* string literal */
	T_WORD,	   /* one of the words in attr.words */
	T_BOOL,	   /* true or false */
	T_RATIO,   /* a:b */
	T_REF,	   /* reference to one object of kind attr.ref_kind */
	T_REFS,	   /* one or more references (list or range) */
	T_PORTS,   /* one or more port references */
	T_NUMS,	   /* list of quantities of attr.dim */
	T_PSUMAP,  /* psu[i..j] -> pdu, ... (PSU to PDU wiring) */
	T_WAIVER,  /* "check-name", "reason" */
	T_PARTREF, /* reference to a catalog part */
	T_ANY,	   /* any value, kept as written */
	T_STRS,	   /* list of string literals */
	T_SPARES,  /* category, percent, minimum (a spares policy) */
};

/* Where a kind or attribute may appear: one bit per context. */
enum ctx_bit {
	X_TOP = 1u << 0,  /* file or module body, group */
	X_PART = 1u << 1, /* part definition (any class) */
	X_SITE = 1u << 2,
	X_ROW = 1u << 3,
	X_RACK = 1u << 4,   /* rack instance, or rack part template */
	X_DEVICE = 1u << 5, /* device instance */
	X_FEED = 1u << 6,
	X_AIR = 1u << 7,
	X_LOOP = 1u << 8,
	X_FABRIC = 1u << 9,
	X_PORT = 1u << 10,
	X_COMP = 1u << 11,
	X_LINK = 1u << 12,
	X_GROUP = 1u << 13,
};

/**
 * struct kind_info - a statement word that declares an object
 * @word:     the keyword as written
 * @kind:     object kind created
 * @cls:      expected part class of the type (C_NONE: any or none)
 * @comp:     component kind for K_COMP
 * @where:    contexts it may appear in
 * @ctx:      the context its body opens
 * @type:     0 no ':' type allowed, 1 optional, 2 required
 * @summary:  one line for the language reference
 */
struct kind_info {
	const char *word;
	enum rk_kind kind;
	enum rk_class cls;
	enum rk_comp comp;
	uint32_t where;
	uint32_t ctx;
	int type;
	const char *summary;
};

/**
 * struct attr_info - an attribute
 * @name:     the word as written
 * @type:     T_*
 * @dim:      dimension for T_NUM / T_NUMS
 * @words:    allowed words for T_WORD, '|'-separated
 * @ref_kind: kind that a T_REF / T_REFS must name (K_NONE: any)
 * @where:    contexts it may appear in
 * @multi:    may be given several times (values accumulate)
 * @summary:  one line for the language reference
 */
struct attr_info {
	const char *name;
	enum attr_type type;
	enum dim dim;
	const char *words;
	enum rk_kind ref_kind;
	uint32_t where;
	int multi;
	const char *summary;
};

enum rk_attr_id {
	A_NONE,
#define ATTR(id, name, type, dim, words, ref, where, multi, summary) id,
#include "schema_attrs.def"
#undef ATTR
	A__COUNT
};

extern const struct kind_info kind_table[];
extern const uint32_t kind_table_len;
extern const struct attr_info attr_table[];

/* Attribute by name (any context), or NULL. */
uint32_t schema_attr(const char *name);
/* Part class by its word (server, switch, ...), or C_NONE. */
enum rk_class schema_class(const char *word);
/* The word that names a context, for messages ("part", "rack", ...). */
const char *schema_ctx_name(uint32_t ctx_bit);

#endif
