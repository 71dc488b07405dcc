/* SPDX-License-Identifier: MIT */
/*
 * The only entry point of the front end that the rest of rackc sees:
 * parse_file() turns one loaded source file into an AST.  The lexer and the
 * parser share a struct parse_ctx; nothing is global, so several files (and
 * several compilations) can be parsed in one process.
 */
#ifndef RACKC_PARSE_H
#define RACKC_PARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "ast.h"
#include "diag.h"
#include "srcfile.h"

/**
 * struct parse_ctx - state shared by the lexer and the parser
 * @arena:       where strings are interned
 * @nodes:       where AST nodes go (@arena, or an arena of their own)
 * @each, @each_arg: NULL: the file's statements are collected in
 *               @result; else each top-level statement is given to
 *               each(@each_arg, statement) as soon as it is parsed, and its
 *               nodes are released unless that returns true
 * @mark:        @nodes where the next top-level statement begins
 * @diag:        where syntax errors go
 * @file:        id of the file being parsed
 * @result:      the statements of the file, set by the start rule
 * @nesting:     current depth of open '{', '(' and '[': the height of @open
 * @open:        the open delimiters, outermost first: each one's offset
 *               and byte; a closer pops the innermost whatever its kind
 *               (the parser reports a mismatch), so the depth, the count
 *               of parentheses and the stack never disagree
 * @parens:      open '(' and '[' in @open: newlines inside them end nothing
 * @last_tok:    last token returned, for automatic statement ends
 * @pending:     a token to return before reading more input (0: none)
 * @pending_loc: its location
 * @fatal:       a limit was hit: stop, and report nothing more
 * @comment_begin, @string_begin: where an open comment or string started
 * @comment_nl:  the open block comment spans a newline
 * @sbuf, @slen, @scap: string literal being built (malloc'ed, freed at end)
 * @errors:      syntax and lexical errors reported in this file
 */
struct parse_ctx {
	struct arena *arena;
	struct arena *nodes;
	bool (*each)(void *arg, struct ast *st);
	void *each_arg;
	struct arena_mark mark;
	struct diag_engine *diag;
	uint32_t file;
	struct ast *result;
	uint32_t nesting;
	struct {
		uint32_t at;
		char tok;
	} open[RK_MAX_NESTING];
	uint32_t parens;
	int last_tok;
	int pending;
	struct srcloc pending_loc;
	/* one token read ahead (to join an else to its if) */
	bool la_have;
	int la_tok;
	unsigned char la_val[32];
	struct srcloc la_loc;
	bool fatal;
	uint32_t comment_begin, string_begin;
	bool comment_nl;
	char *sbuf;
	bool string_long; /* the open string passed RK_MAX_STRING */
	bool fstr;	  /* the open string is a format string (f"...") */
	uint32_t string_errors; /* @errors when the open string began */
	uint32_t slen, scap;
	uint32_t errors;
	uint32_t offset;
	const char *text;	     /* the file's bytes */
	uint32_t num_begin, num_end; /* the last number literal */
};

/* Longest identifier and string literal accepted, in bytes. */
#define RK_MAX_IDENT 256
#define RK_MAX_STRING 4096

/*
 * Parse file @file of @sm.  Returns the number of syntax errors; *out gets
 * the statement list (possibly partial when there were errors).
 */
uint32_t parse_file(struct arena *a, struct diag_engine *d,
		    const struct srcmgr *sm, uint32_t file, struct ast **out);

/*
 * The same, but each top-level statement is given to @each as soon as it
 * is parsed, its nodes allocated in @nodes (an arena that does not intern)
 * and released when @each returns false, so that a file's statements are
 * never all held at once.  Returns the number of syntax errors.
 */
uint32_t parse_file_each(struct arena *a, struct arena *nodes,
			 struct diag_engine *d, const struct srcmgr *sm,
			 uint32_t file, bool (*each)(void *arg, struct ast *st),
			 void *arg);

/*
 * Parse the expression in bytes [@begin, @begin + @len) of the file that
 * @outer scans (a field of a format string), with @outer's arenas and
 * diagnostics; locations are the file's.  NULL after a syntax error (it
 * is reported and counted in @outer).
 */
struct ast *parse_expr_at(struct parse_ctx *outer, uint32_t begin,
			  uint32_t len);

/* Report a syntax or lexical error at @loc (used by lexer and parser). */
void parse_error(struct parse_ctx *ctx, const struct srcloc *loc,
		 const char *fmt, ...) PRINTF(3, 4);

#endif
