/* SPDX-License-Identifier: MIT */
/*
 * Shared helpers of the front-end unit tests (test_lexer, test_parser,
 * test_elab): compile a design held in a string (or a real file, for
 * imports) and capture the diagnostics with open_memstream(); or only parse
 * it and keep the AST.  Every result owns its compilation and is released
 * with unit_free() / parsed_free(), so the tests stay clean under ASan.
 */
#ifndef RACKC_TEST_HELPERS_H
#define RACKC_TEST_HELPERS_H

#include "rackc.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ast.h"
#include "diag.h"
#include "driver.h"
#include "ir.h"
#include "schema.h"

/**
 * struct unit_opts - what a test may change in the options
 * @name:       input name ("test.rack" when NULL)
 * @defines, @ndefines: -D NAME=VALUE
 * @incdirs, @nincdirs: -I DIR
 * @max_errors: 0 means the default of 10
 */
struct unit_opts {
	const char *name;
	struct rackc_define *defines;
	uint32_t ndefines;
	const char **incdirs;
	uint32_t nincdirs;
	uint32_t max_errors;
};

/**
 * struct unit - one compilation run by a test
 * @opts: the options the compilation points at (must outlive it)
 * @c:    the compilation (arena, sources, diagnostics, design)
 * @d:    &c.design
 * @rc:   what rackc_elaborate_string() / rackc_elaborate() returned
 * @err:  everything written to the diagnostic stream, NUL-terminated
 */
struct unit {
	struct rackc_options opts;
	struct compilation c;
	const struct rk_design *d;
	int rc;
	char *err;
	size_t errlen;
};

/* Elaborate @src (name "test.rack"). */
struct unit *compile(const char *src);
/* Same, with options; @uo may be NULL. */
struct unit *compile_ex(const char *src, const struct unit_opts *uo);
/* Elaborate the file @path with rackc_elaborate() (imports relative to it). */
struct unit *compile_file(const char *path, const struct unit_opts *uo);
void unit_free(struct unit *u);

/* Object by full name (devices, racks, groups...), RK_NONE if absent. */
uint32_t find_obj(const struct unit *u, const char *name);
/* Catalog part, or port/component by "PART.LOCAL", RK_NONE if absent. */
uint32_t find_part(const struct unit *u, const char *name);
/* Interned string, "" for id 0. */
const char *str(const struct unit *u, uint32_t id);
/* Number of objects of kind @k. */
uint32_t count_kind(const struct unit *u, enum rk_kind k);
/* Number of times @needle occurs in the diagnostics. */
unsigned count_in(const char *hay, const char *needle);

/**
 * struct parsed - a parse-only run
 * @ast:    the statement list (possibly partial)
 * @nerr:   what parse_file() returned
 * @err:    the diagnostics text (after diag_finish)
 */
struct parsed {
	struct arena arena;
	struct srcmgr sm;
	struct diag_engine diag;
	struct ast *ast;
	uint32_t file;
	uint32_t nerr;
	char *err;
	size_t errlen;
};

/* Parse @len bytes of @src (embedded NULs allowed), max 10 errors. */
struct parsed *parse_mem(const char *src, size_t len, uint32_t max_errors);
/* Parse a NUL-terminated string. */
struct parsed *parse_str(const char *src);
void parsed_free(struct parsed *p);
/* Interned string of the parse's arena. */
const char *pstr(const struct parsed *p, uint32_t id);
/* The @i-th statement (0-based), or NULL. */
const struct ast *nth(const struct ast *list, unsigned i);
/* 1-based line and column of @loc's start. */
void loc_linecol(const struct parsed *p, const struct srcloc *loc,
		 uint32_t *line, uint32_t *col);
/* The source text @loc covers (arena copy). */
const char *loc_text(struct parsed *p, const struct srcloc *loc);

/* A fresh empty directory under /tmp; rm_tree() removes it again. */
char *make_temp_dir(void);
/* Write @text to DIR/NAME; returns the full path (malloc'ed). */
char *write_file(const char *dir, const char *name, const char *text);
void rm_tree(const char *dir);

#endif
