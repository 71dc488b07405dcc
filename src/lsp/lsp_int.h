/* SPDX-License-Identifier: MIT */
/*
 * The language server's own declarations, shared by lsp.c and
 * lsp_query.c only.  Positions are LSP's: 0-based lines, and columns in
 * UTF-16 code units of the line's text.
 */
#ifndef RACKC_LSP_INT_H
#define RACKC_LSP_INT_H

#include <jansson.h>

#include "context.h"

/* Largest message accepted, and most documents held open. */
#define LSP_MAX_MESSAGE (64u * 1024u * 1024u)
#define LSP_MAX_DOCS 256u
/* Most items one answer lists (symbols, completions, hover lines). */
#define LSP_MAX_ITEMS 5000u

/* One compilation of a buffer, with the options it points to. */
struct lsp_unit {
	struct rackc_options o;
	struct compilation c;
	int rc;
};

/**
 * struct lsp_doc - an open document
 * @uri:  as the client named it
 * @path: the file name it compiles as (imports are found beside it)
 * @text, @len: the buffer (NUL-terminated)
 * @cur:  its latest compilation
 * @good: the latest one that got past the parser (completion's parts when
 *        the buffer does not parse), or NULL when that is @cur
 */
struct lsp_doc {
	char *uri;
	char *path;
	char *text;
	size_t len;
	struct lsp_unit *cur, *good;
};

/* Byte offset of a position in @text (clamped to its line and text). */
uint32_t lsp_offset(const char *text, size_t len, int64_t line, int64_t ch);
/* The position of byte @off of file @file of @c. */
json_t *lsp_pos(const struct compilation *c, uint32_t file, uint32_t off);
json_t *lsp_range(const struct compilation *c, struct srcloc loc);
/* A Location: @loc in @doc's file or in the file it names. */
json_t *lsp_location(const struct lsp_doc *doc, const struct compilation *c,
		     struct srcloc loc);

json_t *lsp_hover(const struct lsp_doc *doc, uint32_t off);
json_t *lsp_definition(const struct lsp_doc *doc, uint32_t off);
json_t *lsp_completion(const struct lsp_doc *doc, uint32_t off);
json_t *lsp_symbols(const struct lsp_doc *doc);

#endif
