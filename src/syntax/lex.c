/* SPDX-License-Identifier: MIT */
/*
 * The scanner's work behind the rules of grammar/lexer.l (lex.h): what
 * each match means, its errors, and the token queue the parser reads.
 *
 * Statements end at ';' or at a newline that follows a token which can end
 * a statement (an identifier, literal, ')', ']' or '}'), as in Go; newlines
 * inside '(' and '[' end nothing.  A statement end is also inserted before a
 * '}' that closes a block, so "{ a 1; b 2 }" needs no final ';'.
 */
#include "rackc.h"

#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "lex.h"
#include "parse.h"
#include "units.h"

_Static_assert(sizeof(RC_YYSTYPE) <= sizeof(((struct parse_ctx *)0)->la_val),
	       "lookahead buffer too small");

static bool ends_statement(int tok)
{
	switch (tok) {
	case IDENT:
	case NUMBER:
	case STRING:
	case FSTRING:
	case RATIO:
	case ')':
	case ']':
	case '}':
		return true;
	default:
		return false;
	}
}

/* The next token: a peeked one, a pending one, or a fresh one. */
static int next_token(struct parse_ctx *ctx, RC_YYSTYPE *lval,
		      struct srcloc *lloc, void *scanner)
{
	int tok;

	if (ctx->la_have) {
		ctx->la_have = false;
		memcpy(lval, ctx->la_val, sizeof(*lval));
		*lloc = ctx->la_loc;
		return ctx->la_tok;
	}
	if (ctx->pending) {
		tok = ctx->pending;
		*lloc = ctx->pending_loc;
		ctx->pending = 0;
		return tok;
	}
	return rk_lex_raw(lval, lloc, scanner);
}

int lex_token(struct parse_ctx *ctx, RC_YYSTYPE *lval, struct srcloc *lloc,
	      void *scanner)
{
	int tok;

	if (ctx->fatal || diag_stop(ctx->diag)) {
		ctx->fatal = true;
		lloc->file = ctx->file;
		lloc->begin = lloc->end = ctx->offset;
		return 0;
	}
	tok = next_token(ctx, lval, lloc, scanner);
	/*
	 * "}\n else {": the statement end after a closing brace gives way to
	 * an else that follows it.  Peek one token (with blank lines not
	 * ending anything meanwhile) instead of scanning ahead in the lexer,
	 * so the cost stays one token per newline.
	 */
	if (tok == TERM && ctx->last_tok == '}' && !ctx->fatal) {
		RC_YYSTYPE v;
		struct srcloc l;
		int saved = ctx->last_tok, peek;

		ctx->last_tok = TERM;
		peek = next_token(ctx, &v, &l, scanner);
		ctx->last_tok = saved;
		if (peek == ELSE) {
			*lval = v;
			*lloc = l;
			tok = ELSE;
		} else {
			ctx->la_have = true;
			ctx->la_tok = peek;
			memcpy(ctx->la_val, &v, sizeof(v));
			ctx->la_loc = l;
		}
	}
	if (ctx->fatal)
		tok = 0;
	ctx->last_tok = tok;
	return tok;
}

int lex_newline(struct parse_ctx *ctx)
{
	if (!ctx->parens && ends_statement(ctx->last_tok))
		return TERM;
	return LEX_NONE;
}

int lex_eof(struct parse_ctx *ctx, struct srcloc *loc)
{
	loc->file = ctx->file;
	loc->begin = loc->end = ctx->offset;
	if (ends_statement(ctx->last_tok))
		return TERM;
	return 0;
}

void lex_comment_begin(struct parse_ctx *ctx, const struct srcloc *loc)
{
	ctx->comment_begin = loc->begin;
	ctx->comment_nl = false;
}

int lex_comment_end(struct parse_ctx *ctx)
{
	if (ctx->comment_nl && !ctx->parens && ends_statement(ctx->last_tok))
		return TERM;
	return LEX_NONE;
}

int lex_comment_eof(struct parse_ctx *ctx, struct srcloc *loc)
{
	struct srcloc at = { ctx->file, ctx->comment_begin,
			     ctx->comment_begin + 2 };

	parse_error(ctx, &at, "unterminated comment");
	return lex_eof(ctx, loc);
}

int lex_open(struct parse_ctx *ctx, const struct srcloc *loc, int tok)
{
	if (ctx->nesting >= RK_MAX_NESTING) {
		parse_error(ctx, loc,
			    "brackets and blocks nested deeper than %u levels "
			    "(the nesting limit)",
			    RK_MAX_NESTING);
		ctx->fatal = true;
		return 0;
	}
	ctx->open[ctx->nesting].at = loc->begin;
	/* '{', '(' or '[': the rules pass nothing else */
	ctx->open[ctx->nesting].tok = (char)tok;
	ctx->nesting++;
	if (tok != '{')
		ctx->parens++;
	return tok;
}

/*
 * A closer pops the innermost open delimiter, whether or not it matches
 * (the parser reports "{)" and its kin as syntax errors): one stack, so
 * the depth and the count of open parentheses always describe it.
 */
int lex_close(struct parse_ctx *ctx, int tok)
{
	if (ctx->nesting) {
		ctx->nesting--;
		if (ctx->open[ctx->nesting].tok != '{')
			ctx->parens--;
	}
	return tok;
}

int lex_close_brace(struct parse_ctx *ctx, struct srcloc *loc)
{
	lex_close(ctx, '}');
	if (ends_statement(ctx->last_tok)) {
		ctx->pending = '}';
		ctx->pending_loc = *loc;
		loc->end = loc->begin;
		return TERM;
	}
	return '}';
}

void lex_string_begin(struct parse_ctx *ctx, const struct srcloc *loc,
		      bool fstr)
{
	ctx->string_begin = loc->begin;
	ctx->string_errors = ctx->errors;
	ctx->slen = 0;
	ctx->fstr = fstr;
}

void lex_string_add(struct parse_ctx *ctx, const char *s, size_t n)
{
	if (ctx->slen + n > RK_MAX_STRING) {
		ctx->string_long = true; /* reported when it closes */
		return;
	}
	while (ctx->slen + n + 1 > ctx->scap) {
		ctx->scap = ctx->scap ? ctx->scap * 2 : 64;
		ctx->sbuf = xrealloc(ctx->sbuf, ctx->scap);
	}
	memcpy(ctx->sbuf + ctx->slen, s, n);
	/* at most RK_MAX_STRING in all (above) */
	ctx->slen += (uint32_t)n;
}

void lex_string_bad_escape(struct parse_ctx *ctx, const struct srcloc *loc)
{
	parse_error(ctx, loc, "unknown escape sequence in string");
}

static bool valid_utf8(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i], need;
		uint32_t cp;

		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			need = 1;
			cp = c & 0x1f;
		} else if ((c & 0xf0) == 0xe0) {
			need = 2;
			cp = c & 0x0f;
		} else if ((c & 0xf8) == 0xf0) {
			need = 3;
			cp = c & 0x07;
		} else {
			return false;
		}
		for (unsigned k = 1; k <= need; k++) {
			if (i + k >= n || (s[i + k] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if ((need == 1 && cp < 0x80) || (need == 2 && cp < 0x800) ||
		    (need == 3 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += need + 1;
	}
	return true;
}

static struct ast *fnode(struct parse_ctx *ctx, enum ast_kind kind,
			 uint32_t begin, uint32_t end)
{
	size_t size = ast_size(kind);
	struct ast *n = memset(arena_alloc_ptr(ctx->nodes, size), 0, size);

	n->kind = (uint8_t)kind;
	n->loc.file = ctx->file;
	n->loc.begin = begin;
	n->loc.end = end;
	n->depth = 1;
	return n;
}

static void fappend(struct ast **tail, struct ast *n, struct ast *whole)
{
	*tail = n;
	if (n->depth >= whole->depth)
		whole->depth = n->depth + 1;
}

static void fstr_error(struct parse_ctx *ctx, uint32_t begin, uint32_t end,
		       const char *msg)
{
	struct srcloc at = { ctx->file, begin, end };

	parse_error(ctx, &at, "%s", msg);
}

/*
 * A literal piece of a format string, bytes [@begin, @end) of the file,
 * @len bytes @buf after escapes: appended at **@tail to @whole.
 */
static struct ast **fstr_piece(struct parse_ctx *ctx, struct ast *whole,
			       struct ast **tail, uint32_t begin, uint32_t end,
			       const char *buf, size_t len)
{
	struct ast *p = fnode(ctx, AST_STR, begin, end);

	p->str = intern(ctx->arena, buf, len);
	fappend(tail, p, whole);
	return &p->next;
}

/*
 * Where the field that opens at @open ('{') of text @t stops, looking no
 * further than @end: its '}', or the '{', '\\' or '"' it may not hold, or
 * @end.  *@colon: its first ':' outside brackets (0: none).
 */
static uint32_t fstr_field_end(const char *t, uint32_t open, uint32_t end,
			       uint32_t *colon)
{
	uint32_t j, depth = 0;

	*colon = 0;
	for (j = open + 1; j < end; j++) {
		char d = t[j];

		if (d == '(' || d == '[')
			depth++;
		else if ((d == ')' || d == ']') && depth)
			depth--;
		else if (d == ':' && !depth && !*colon)
			*colon = j;
		else if ((d == '}' && !depth) || d == '{' || d == '\\' ||
			 d == '"')
			break;
	}
	return j;
}

/*
 * The field of a format string from its '{' at @open to its '}' at
 * @close, its spec after the ':' at @colon (0: none): an AST_FMT over its
 * expression, parsed from the file, or NULL when it has none (an empty
 * field, or a syntax error: reported).
 */
static struct ast *fstr_field(struct parse_ctx *ctx, uint32_t open,
			      uint32_t colon, uint32_t close)
{
	const char *t = ctx->text;
	struct ast *f = fnode(ctx, AST_FMT, open, close + 1), *x = NULL;
	uint32_t xe = colon ? colon : close, xb = open + 1;

	while (xb < xe && (t[xb] == ' ' || t[xb] == '\t'))
		xb++;
	if (xb == xe)
		fstr_error(ctx, open, close + 1,
			   "empty field in a format string (write '{{' for a "
			   "brace)");
	else
		x = parse_expr_at(ctx, open + 1, xe - open - 1);
	if (colon) {
		struct fmt_spec sp;
		size_t bad = 0;
		const char *why =
		    fmt_spec_parse(t + colon + 1, close - colon - 1, &sp, &bad);

		f->wloc.file = ctx->file;
		f->wloc.begin = colon + 1;
		f->wloc.end = close;
		if (why) {
			/* @bad is an offset within the spec: it fits */
			uint32_t from = colon + 1 + (uint32_t)bad;
			struct srcloc sl = { ctx->file, from,
					     close > from ? close : close + 1 };

			parse_error(ctx, &sl,
				    "%s in a format field (a spec is "
				    "[<|>][0][WIDTH][.DIGITS][UNIT|x|X])",
				    why);
		} else {
			f->str = intern(ctx->arena, t + colon + 1,
					close - colon - 1);
		}
	}
	if (!x)
		return NULL;
	f->lhs = x;
	f->depth = x->depth + 1;
	return f;
}

/*
 * The format string f"..." at @at (its escapes and length already
 * checked, its text after escapes @id): an AST_FSTR of the literal pieces
 * (AST_STR) and the fields (AST_FMT, each with its expression parsed from
 * the source), read again from the file's bytes so that every field and
 * every error has its place.  After an error in the literal itself, a
 * plain string.
 */
static struct ast *format_string(struct parse_ctx *ctx, const struct srcloc *at,
				 uint32_t id)
{
	const char *t = ctx->text;
	uint32_t i = at->begin + 2, end = at->end - 1, lit = i;
	struct ast *whole = fnode(ctx, AST_FSTR, at->begin, at->end);
	struct ast **tail = &whole->list;
	char *buf = NULL;
	size_t len = 0;

	if (ctx->errors != ctx->string_errors || !t || at->end < i + 1 ||
	    t[end] != '"') {
		whole->kind = AST_STR; /* the error is reported */
		whole->str = id;
		return whole;
	}
	buf = xmalloc(end - i + 1);
	while (i < end) {
		char c = t[i];
		uint32_t open = i, colon, j;
		struct ast *f;

		if (c == '\\') {
			char e = t[i + 1];

			buf[len++] = e == 'n' ? '\n' : e == 't' ? '\t' : e;
			i += 2;
			continue;
		}
		if ((c == '{' || c == '}') && i + 1 < end && t[i + 1] == c) {
			buf[len++] = c;
			i += 2;
			continue;
		}
		if (c == '}') {
			fstr_error(ctx, i, i + 1,
				   "single '}' in a format string (write "
				   "'}}' for a brace)");
			i++;
			continue;
		}
		if (c != '{') {
			buf[len++] = c;
			i++;
			continue;
		}
		j = fstr_field_end(t, open, end, &colon);
		if (j == end || t[j] != '}') {
			fstr_error(ctx, open, j < end ? j + 1 : end,
				   "unterminated '{' in a format string (a "
				   "field holds an expression and no string "
				   "or brace; write '{{' for a brace)");
			break;
		}
		if (len) {
			tail =
			    fstr_piece(ctx, whole, tail, lit, open, buf, len);
			len = 0;
		}
		f = fstr_field(ctx, open, colon, j);
		if (f) {
			fappend(tail, f, whole);
			tail = &f->next;
		}
		i = j + 1;
		lit = i;
	}
	if (len)
		fstr_piece(ctx, whole, tail, lit, end, buf, len);
	free(buf);
	return whole;
}

/* Close the string literal being built; report problems at its start. */
int lex_string_end(struct parse_ctx *ctx, RC_YYSTYPE *lval, struct srcloc *loc)
{
	struct srcloc at = { ctx->file, ctx->string_begin, loc->end };

	*loc = at;
	if (ctx->string_long) {
		parse_error(ctx, &at, "string longer than %u bytes",
			    RK_MAX_STRING);
		ctx->slen = 0;
	} else if (memchr(ctx->sbuf ? ctx->sbuf : "", '\0', ctx->slen)) {
		parse_error(ctx, &at, "string contains a NUL byte");
		ctx->slen = 0;
	} else if (!valid_utf8((const unsigned char *)ctx->sbuf, ctx->slen)) {
		parse_error(ctx, &at, "string is not valid UTF-8");
		ctx->slen = 0;
	}
	lval->id = intern(ctx->arena, ctx->sbuf ? ctx->sbuf : "", ctx->slen);
	ctx->slen = 0;
	ctx->string_long = false;
	if (ctx->fstr) {
		ctx->fstr = false;
		lval->node = format_string(ctx, &at, lval->id);
		return FSTRING;
	}
	return STRING;
}

static void unterminated_string(struct parse_ctx *ctx)
{
	struct srcloc at = { ctx->file, ctx->string_begin,
			     ctx->string_begin + 1 };

	parse_error(ctx, &at, "unterminated string");
}

int lex_string_newline(struct parse_ctx *ctx, RC_YYSTYPE *lval,
		       struct srcloc *loc)
{
	unterminated_string(ctx);
	if (!ctx->parens) {
		ctx->pending = TERM;
		ctx->pending_loc = *loc;
	}
	return lex_string_end(ctx, lval, loc);
}

int lex_string_eof(struct parse_ctx *ctx, RC_YYSTYPE *lval, struct srcloc *loc)
{
	unterminated_string(ctx);
	ctx->pending = TERM;
	loc->file = ctx->file;
	loc->begin = loc->end = ctx->offset;
	ctx->pending_loc = *loc;
	return lex_string_end(ctx, lval, loc);
}

/* Offset of the unit suffix of a number literal (n when it has none). */
static size_t unit_start(const char *text, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		char c = text[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      c == '%'))
			continue;
		/* an exponent: e or E between digits, with an optional sign */
		if ((c == 'e' || c == 'E') && text[i - 1] >= '0' &&
		    text[i - 1] <= '9' && i + 1 < n &&
		    ((text[i + 1] >= '0' && text[i + 1] <= '9') ||
		     ((text[i + 1] == '+' || text[i + 1] == '-') && i + 2 < n &&
		      text[i + 2] >= '0' && text[i + 2] <= '9')))
			continue;
		return i;
	}
	return n;
}

/*
 * @n bytes @text, a number not a whole number of its unit's base units:
 * the error names the base unit where the suffix is one of a dimension.
 */
static void inexact_number(struct parse_ctx *ctx, const char *text, size_t n,
			   const struct srcloc *loc)
{
	size_t u = unit_start(text, n);
	struct quantity one;
	char buf[64];
	size_t at;

	if (u < n && n - u + 1 < sizeof(buf)) {
		buf[0] = '1';
		memcpy(buf + 1, text + u, n - u);
		if (unit_parse(buf, n - u + 1, &one, &at) == UNIT_OK &&
		    one.dim != DIM_NONE) {
			parse_error(ctx, loc,
				    "%.*s is not a whole number of %s, "
				    "the smallest %s unit",
				    (int)n, text, dim_base_unit(one.dim),
				    one.dim == DIM_RACKU ? "rack-unit"
							 : dim_name(one.dim));
			return;
		}
	}
	parse_error(ctx, loc,
		    "number is not a whole number (plain numbers must "
		    "be integers; use a unit such as %% for "
		    "fractions)");
}

int lex_number(struct parse_ctx *ctx, const char *text, size_t n,
	       RC_YYSTYPE *lval, const struct srcloc *loc)
{
	size_t at = 0;
	enum unit_status st;
	struct srcloc sl = *loc;
	const char *hint;

	ctx->num_begin = loc->begin;
	ctx->num_end = loc->end;
	st = unit_parse(text, n, &lval->q, &at);
	switch (st) {
	case UNIT_OK:
		break;
	case UNIT_UNKNOWN:
		/* @at is within the literal, shorter than the file */
		sl.begin += (uint32_t)at;
		hint = unit_suggest(text + at, n - at);
		if (hint)
			parse_error(ctx, &sl,
				    "unknown unit '%.*s'; did you mean '%s'?",
				    (int)(n - at), text + at, hint);
		else
			parse_error(ctx, &sl, "unknown unit '%.*s'",
				    (int)(n - at), text + at);
		break;
	case UNIT_OVERFLOW:
		parse_error(ctx, &sl,
			    "number out of range (quantities are 64-bit "
			    "integers in base units)");
		break;
	case UNIT_INEXACT:
		inexact_number(ctx, text, n, &sl);
		break;
	case UNIT_BAD_NUMBER:
		parse_error(ctx, &sl, "malformed number");
		break;
	}
	if (st != UNIT_OK) {
		lval->q.dim = DIM_NONE;
		lval->q.v = 0;
	}
	return NUMBER;
}

int lex_ratio(struct parse_ctx *ctx, const char *text, RC_YYSTYPE *lval,
	      const struct srcloc *loc)
{
	int64_t a = 0, b = 0;
	const char *p = text;
	bool ok = true;

	while (*p != ':') {
		if (a > (INT64_MAX - 9) / 10)
			ok = false;
		else
			a = a * 10 + (*p - '0');
		p++;
	}
	for (p++; *p; p++) {
		if (b > (INT64_MAX - 9) / 10)
			ok = false;
		else
			b = b * 10 + (*p - '0');
	}
	if (!ok)
		parse_error(ctx, loc, "ratio term out of range");
	else if (a == 0 || b == 0)
		parse_error(ctx, loc, "ratio terms must be positive");
	lval->ratio.a = ok && a ? a : 1;
	lval->ratio.b = ok && b ? b : 1;
	return RATIO;
}

int lex_ident(struct parse_ctx *ctx, const char *text, size_t n,
	      RC_YYSTYPE *lval, const struct srcloc *loc)
{
	if (n > RK_MAX_IDENT) {
		parse_error(ctx, loc, "identifier longer than %u bytes",
			    RK_MAX_IDENT);
		n = RK_MAX_IDENT;
	}
	/* "10 kW": a unit suffix standing apart from its number */
	if (ctx->last_tok == NUMBER && ctx->num_end < loc->begin && n < 16 &&
	    ctx->text) {
		char buf[24];
		struct quantity q;
		size_t at;

		buf[0] = '1';
		memcpy(buf + 1, text, n);
		if (unit_parse(buf, n + 1, &q, &at) == UNIT_OK &&
		    q.dim != DIM_NONE) {
			parse_error(ctx, loc,
				    "a unit must touch its number: write "
				    "'%.*s%.*s'",
				    (int)(ctx->num_end - ctx->num_begin),
				    ctx->text + ctx->num_begin, (int)n, text);
			return LEX_NONE;
		}
	}
	lval->id = intern(ctx->arena, text, n);
	return IDENT;
}

int lex_stray(struct parse_ctx *ctx, const char *text, const struct srcloc *loc)
{
	unsigned char c = (unsigned char)text[0];

	if (c >= 0x80)
		parse_error(ctx, loc,
			    "stray non-ASCII bytes outside a string or "
			    "comment");
	else if (c < 0x20 || c == 0x7f)
		parse_error(ctx, loc, "stray control byte 0x%02x", c);
	else
		parse_error(ctx, loc, "stray '%c' in design", c);
	return ctx->fatal ? 0 : LEX_NONE;
}
