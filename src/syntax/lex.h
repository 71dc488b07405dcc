/* SPDX-License-Identifier: MIT */
/*
 * The scanner's work (src/syntax/lex.c), called from the rules of
 * grammar/lexer.l: automatic statement ends, the nesting of brackets and
 * blocks, string and format-string literals, numbers with their units,
 * ratios, identifiers, stray bytes, and the token queue between the
 * scanner and the parser.  The flex file keeps what needs flex itself
 * (the matched text, the start conditions, the buffer) and passes the
 * rest here, so that this code is built with the full warning set.
 * Internal to the syntax layer: the stages after it see parse.h only.
 *
 * A function returning a token may return LEX_NONE: the match makes no
 * token, and the scanner reads on.  Token 0 ends the input.
 */
#ifndef RACKC_LEX_H
#define RACKC_LEX_H

#include <stdbool.h>
#include <stddef.h>

#include "parse.h"
#include "grammar/parser.h"

/* No token: the scanner reads on. */
#define LEX_NONE (-1)

/*
 * The scanner proper (flex's, grammar/lexer.l): the next token of the
 * input @scanner reads, the matched bytes' place in *@lloc.
 */
int rk_lex_raw(RC_YYSTYPE *lval, struct srcloc *lloc, void *scanner);

/*
 * The token the parser gets (rc_yylex() in grammar/lexer.l passes its
 * scanner's context): one read ahead to join "}\n else" into one
 * statement, a pending one, or a fresh one from rk_lex_raw(); 0 once a
 * limit was hit or the diagnostics stopped.
 */
int lex_token(struct parse_ctx *ctx, RC_YYSTYPE *lval, struct srcloc *lloc,
	      void *scanner);

/* A newline outside strings and comments: TERM where it ends a statement. */
int lex_newline(struct parse_ctx *ctx);

/* The end of the input (@loc set to it): TERM first where it ends one. */
int lex_eof(struct parse_ctx *ctx, struct srcloc *loc);

/* A block comment opens at @loc. */
void lex_comment_begin(struct parse_ctx *ctx, const struct srcloc *loc);

/* The comment closes: TERM where a newline inside it ended a statement. */
int lex_comment_end(struct parse_ctx *ctx);

/* The input ends inside a block comment: reported, then as lex_eof(). */
int lex_comment_eof(struct parse_ctx *ctx, struct srcloc *loc);

/* '{', '(' or '[' (@tok) at @loc: @tok, or 0 past RK_MAX_NESTING. */
int lex_open(struct parse_ctx *ctx, const struct srcloc *loc, int tok);

/* ')' or ']' (@tok) pops the innermost open delimiter: @tok. */
int lex_close(struct parse_ctx *ctx, int tok);

/*
 * '}' at *@loc: '}', or first a statement end (TERM, at the brace's start)
 * with the brace pending.
 */
int lex_close_brace(struct parse_ctx *ctx, struct srcloc *loc);

/* A string literal ('"', or 'f"' when @fstr) opens at @loc. */
void lex_string_begin(struct parse_ctx *ctx, const struct srcloc *loc,
		      bool fstr);

/* @n bytes @s of the open string literal, after escapes. */
void lex_string_add(struct parse_ctx *ctx, const char *s, size_t n);

/* A backslash at @loc that starts no escape of the language. */
void lex_string_bad_escape(struct parse_ctx *ctx, const struct srcloc *loc);

/*
 * The closing '"' at *@loc: STRING or FSTRING, *@lval its text (and the
 * format string's pieces), *@loc the whole literal.
 */
int lex_string_end(struct parse_ctx *ctx, RC_YYSTYPE *lval, struct srcloc *loc);

/*
 * A newline at *@loc inside a string: reported as unterminated, then as
 * lex_string_end(), a statement end pending outside brackets.
 */
int lex_string_newline(struct parse_ctx *ctx, RC_YYSTYPE *lval,
		       struct srcloc *loc);

/* The input ends inside a string: the same, @loc set to the end. */
int lex_string_eof(struct parse_ctx *ctx, RC_YYSTYPE *lval, struct srcloc *loc);

/* A number literal, units included, @n bytes @text at @loc: NUMBER. */
int lex_number(struct parse_ctx *ctx, const char *text, size_t n,
	       RC_YYSTYPE *lval, const struct srcloc *loc);

/* A ratio "A:B" (digits only), NUL-terminated @text at @loc: RATIO. */
int lex_ratio(struct parse_ctx *ctx, const char *text, RC_YYSTYPE *lval,
	      const struct srcloc *loc);

/*
 * An identifier of @n bytes @text at @loc: IDENT, or LEX_NONE when it is a
 * unit standing apart from its number (reported).
 */
int lex_ident(struct parse_ctx *ctx, const char *text, size_t n,
	      RC_YYSTYPE *lval, const struct srcloc *loc);

/*
 * Bytes @text at @loc that start no token (reported by their first byte):
 * LEX_NONE, or 0 once a limit was hit.
 */
int lex_stray(struct parse_ctx *ctx, const char *text,
	      const struct srcloc *loc);

#endif
