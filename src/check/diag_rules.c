/* SPDX-License-Identifier: MIT */
/*
 * What each diagnostic's rule id means, for SARIF (diag.c): the checks
 * (their table, check.h) and the error classes of the stages before them
 * (the table below).  Rules are numbered checks first, in table order,
 * then the classes, then "rackc" for a diagnostic without one.
 */
#include "rackc.h"

#include "check.h"
#include "diag.h"

static const struct diag_rule classes[] = {
	{ "syntax", "syntax error", "The design does not parse.", DIAG_ERROR,
	  false },
	{ "undefined-name", "undefined name",
	  "A name does not refer to a declared object, part, port or "
	  "parameter.",
	  DIAG_ERROR, false },
	{ "duplicate-name", "duplicate name",
	  "Two declarations give an object the same full name.", DIAG_ERROR,
	  false },
	{ "type-mismatch", "type mismatch",
	  "A value is of the wrong type for where it is used.", DIAG_ERROR,
	  false },
	{ "unit-mismatch", "unit mismatch",
	  "A quantity has the wrong dimension for the attribute or operator.",
	  DIAG_ERROR, false },
	{ "value", "value out of range",
	  "A value is outside what the attribute accepts.", DIAG_ERROR, false },
	{ "index", "index out of range", "An index is outside its range.",
	  DIAG_ERROR, false },
	{ "overflow", "arithmetic overflow",
	  "An exact computation does not fit the integer range.", DIAG_ERROR,
	  false },
	{ "limit", "limit exceeded",
	  "The design is beyond one of the compiler's documented limits.",
	  DIAG_ERROR, false },
	{ "recursion", "recursive definition",
	  "A module or part refers to itself.", DIAG_ERROR, false },
	{ "import", "import error", "An imported file cannot be found or read.",
	  DIAG_ERROR, false },
	{ "io", "input or output error",
	  "A file cannot be read or an artifact cannot be written.", DIAG_ERROR,
	  false },
	{ "usage", "usage error", "The command line is not valid.", DIAG_ERROR,
	  false },
	{ "misplaced", "misplaced declaration",
	  "A declaration or attribute appears where it is not allowed.",
	  DIAG_ERROR, false },
	{ "param", "parameter error",
	  "A parameter is declared or overridden in a way that is not "
	  "allowed.",
	  DIAG_ERROR, false },
	{ "part-class", "wrong part class",
	  "A part of the wrong class is used (a switch where a server is "
	  "needed, ...).",
	  DIAG_ERROR, false },
	{ "unknown-attribute", "unknown attribute",
	  "An attribute that the schema does not know for this kind of "
	  "object.",
	  DIAG_ERROR, false },
	{ "unused-define", "unused -D",
	  "A -D option names no parameter of the design.", DIAG_WARNING,
	  false },
	{ "fabric", "fabric generation",
	  "A fabric generator cannot build the fabric as declared.", DIAG_ERROR,
	  false },
	{ "fabric-placement", "fabric placement",
	  "A generated switch finds no room in the racks listed for it.",
	  DIAG_ERROR, false },
	{ "force", "artifacts written despite errors",
	  "--force wrote artifacts although checks reported errors.",
	  DIAG_WARNING, false },
	{ "hostname", "host name",
	  "A host name is invalid or not unique (back-end preflight).",
	  DIAG_ERROR, false },
	{ "ibnet", "InfiniBand subnet",
	  "The ibnet back end cannot write a subnet as declared.", DIAG_ERROR,
	  false },
	{ "nccl", "NCCL topology",
	  "The nccl back end cannot describe a server part.", DIAG_ERROR,
	  false },
	{ "slurm", "Slurm topology",
	  "The slurm back end cannot write the topology as declared.",
	  DIAG_WARNING, false },
	{ "cabling", "cable labels",
	  "A cable label is longer than one line of a cable label, or the "
	  "label template names an unknown field.",
	  DIAG_WARNING, false },
	{ "prices", "price list", "The --prices file cannot be used.",
	  DIAG_ERROR, false },
	{ "rackc", "diagnostic", "A diagnostic without a class of its own.",
	  DIAG_ERROR, false },
};

static void from_check(const struct check *c, struct diag_rule *out)
{
	out->id = c->name;
	out->summary = c->summary;
	out->full = NULL; /* diag.c writes the check's own sentence */
	out->level = c->level == CHECK_ERROR  ? DIAG_ERROR
		     : c->level == CHECK_WARN ? DIAG_WARNING
					      : DIAG_NOTE;
	out->check = true;
}

unsigned diag_rule_count(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < check_table_len; i++)
		n += !check_table[i]->hidden;
	return n + (unsigned)ARRAY_SIZE(classes);
}

bool diag_rule_at(unsigned k, struct diag_rule *out)
{
	for (unsigned i = 0; i < check_table_len; i++) {
		if (check_table[i]->hidden)
			continue;
		if (!k--) {
			from_check(check_table[i], out);
			return true;
		}
	}
	if (k < ARRAY_SIZE(classes)) {
		*out = classes[k];
		return true;
	}
	return false;
}

unsigned diag_rule_index(const char *id)
{
	struct diag_rule r;

	for (unsigned k = 0; diag_rule_at(k, &r); k++)
		if (streq(r.id, id))
			return k;
	return UINT32_MAX;
}
