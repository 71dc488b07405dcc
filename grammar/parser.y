/* SPDX-License-Identifier: MIT */
/*
 * The rackc grammar.  Generic by design: apart from a few keywords, every
 * statement is "WORD [ARG, ...] [: TYPE] [{ BODY }]", and the schema tables
 * (src/ir/schema.c) give it meaning during elaboration, so a new attribute or
 * kind is a table row, not a grammar change.  Actions only build AST nodes.
 *
 * Error recovery: a bad statement is skipped up to the next statement end,
 * and parsing continues; after --max-errors errors the parser gives up.
 */
%require "3.6"
%define api.pure full
%define api.prefix {rc_yy}
%define api.location.type {struct srcloc}
%define parse.error detailed
%define parse.lac full
%locations
%expect 0
%param {void *scanner}
%parse-param {struct parse_ctx *ctx}

%code requires {
#include "rackc.h"
#include "ast.h"
#include "parse.h"

struct ast_list {
	struct ast *head, *tail;
};
}

%code provides {
int rc_yylex(RC_YYSTYPE *lval, RC_YYLTYPE *lloc, void *scanner);
void rc_yyerror(RC_YYLTYPE *loc, void *scanner, struct parse_ctx *ctx,
		const char *msg);
}

%code {
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                           \
	do {                                                                  \
		if (N) {                                                      \
			(Cur).file = YYRHSLOC(Rhs, 1).file;                   \
			(Cur).begin = YYRHSLOC(Rhs, 1).begin;                 \
			(Cur).end = YYRHSLOC(Rhs, N).end;                     \
		} else {                                                      \
			(Cur).file = YYRHSLOC(Rhs, 0).file;                   \
			(Cur).begin = (Cur).end = YYRHSLOC(Rhs, 0).end;       \
		}                                                             \
	} while (0)

/* Bison's own stack limit: deeper right-nested input is an error. */
#define YYMAXDEPTH 20000

static struct ast *node(struct parse_ctx *ctx, enum ast_kind kind,
			const struct srcloc *loc)
{
	/* only as large as the kind needs (see struct ast) */
	size_t size = ast_size(kind);
	struct ast *n = memset(arena_alloc_ptr(ctx->nodes, size), 0, size);

	n->kind = kind;
	n->loc = *loc;
	n->depth = 1;
	return n;
}

static void set_depth(struct parse_ctx *ctx, struct ast *n, uint32_t d)
{
	n->depth = d + 1;
	if (n->depth == RK_MAX_EXPR_DEPTH + 1 && !ctx->fatal) {
		/* the parse stops: a chain such as 1+1+1... would otherwise
		 * grow the tree by a node per byte to the end of the file */
		parse_error(ctx, &n->loc,
			    "expression nested deeper than %u levels",
			    RK_MAX_EXPR_DEPTH);
		ctx->fatal = true;
	}
}

static struct ast *binary(struct parse_ctx *ctx, enum ast_op op,
			  struct ast *l, struct ast *r,
			  const struct srcloc *loc)
{
	struct ast *n = node(ctx, AST_BINARY, loc);

	n->op = op;
	n->lhs = l;
	n->rhs = r;
	set_depth(ctx, n, l->depth > r->depth ? l->depth : r->depth);
	return n;
}

static struct ast *unary(struct parse_ctx *ctx, enum ast_kind kind,
			 enum ast_op op, struct ast *e,
			 const struct srcloc *loc)
{
	struct ast *n = node(ctx, kind, loc);

	n->op = op;
	n->lhs = e;
	set_depth(ctx, n, e->depth);
	return n;
}

static struct ast *named(struct parse_ctx *ctx, enum ast_kind kind,
			 uint32_t id, const struct srcloc *wloc,
			 struct ast *value, const struct srcloc *loc)
{
	struct ast *n = node(ctx, kind, loc);

	n->str = id;
	n->wloc = *wloc;
	n->lhs = value;
	return n;
}

static struct ast_list list1(struct ast *n)
{
	struct ast_list l = { n, n };
	return l;
}

static struct ast_list append(struct ast_list l, struct ast *n)
{
	if (!n)
		return l;
	if (l.tail)
		l.tail->next = n;
	else
		l.head = n;
	l.tail = n;
	return l;
}

/*
 * A statement of the file's top level: appended to the file's list, or
 * with ctx->each given to it now; when it does not keep the statement,
 * its nodes (everything allocated in ctx->nodes since the statement
 * before it) are released.
 */
static struct ast_list top_stmt(struct parse_ctx *ctx, struct ast_list l,
				struct ast *n)
{
	if (!ctx->each)
		return append(l, n);
	if (n && !ctx->each(ctx->each_arg, n))
		arena_release(ctx->nodes, &ctx->mark);
	ctx->mark = arena_mark(ctx->nodes);
	return l;
}

static struct ast *stmt(struct parse_ctx *ctx, uint32_t word,
			const struct srcloc *wloc, struct ast *args,
			struct ast *type, struct ast *body, bool has_body,
			const struct srcloc *loc)
{
	struct ast *n = node(ctx, AST_STMT, loc);

	n->str = word;
	n->wloc = *wloc;
	n->list = args;
	n->rhs = type;
	n->body = body;
	n->has_body = has_body;
	return n;
}

static struct ast *if_stmt(struct parse_ctx *ctx, struct ast *cond,
			   struct ast *then, struct ast *els, bool has_else,
			   const struct srcloc *loc)
{
	struct ast *n = node(ctx, AST_IF, loc);

	n->lhs = cond;
	n->body = then;
	n->else_body = els;
	n->has_body = has_else;
	return n;
}
}

%union {
	uint32_t id;
	struct quantity q;
	struct {
		int64_t a, b;
	} ratio;
	struct ast *node;
	struct ast_list list;
}

%initial-action {
	@$.file = ctx->file;
	@$.begin = @$.end = 0;
}

%token <id> IDENT "identifier"
%token <id> STRING "string"
%token <node> FSTRING "format string"
%token START_EXPR "start of an expression"
%token <q> NUMBER "number"
%token <ratio> RATIO "ratio"
%token TERM "end of statement"
%token IMPORT "import" PARAM "param" LET "let" FOR "for" IN "in" IF "if"
%token ELSE "else" MODULE "module" REQUIRE "require"
%token DOTDOT ".." LINK "--" ARROW "->" EQ "==" NE "!=" LE "<=" GE ">="
%token AND "&&" OR "||"

%nonassoc LINK
%right ARROW
%left OR
%left AND
%nonassoc EQ NE '<' LE '>' GE
%nonassoc DOTDOT
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%type <list> top items args callargs params list_items
%type <node> stmt_simple stmt_block block if_stmt expr postfix primary
%type <node> index callarg param type_opt
%type <list> args_opt

%%

/* A file, and the inside of every block, is a list of statements. */
file
	: top			{ ctx->result = $1.head; }
	| START_EXPR expr TERM	{ ctx->result = $2; }
	;

/* The file's own statements: as items, but each one given to ctx->each
 * as soon as it is parsed (top_stmt) */
top
	: %empty		{ $$.head = $$.tail = NULL; }
	| top TERM		{ $$ = $1; }
	| top stmt_simple TERM	{ $$ = top_stmt(ctx, $1, $2); }
	| top stmt_block	{ $$ = top_stmt(ctx, $1, $2); }
	| top error TERM	{
			$$ = $1;
			yyerrok;
			if (ctx->fatal || diag_stop(ctx->diag))
				YYABORT;
		}
	;

items
	: %empty		{ $$.head = $$.tail = NULL; }
	| items TERM		{ $$ = $1; }
	| items stmt_simple TERM	{ $$ = append($1, $2); }
	| items stmt_block	{ $$ = append($1, $2); }
	| items error TERM	{
			$$ = $1;
			yyerrok;
			if (ctx->fatal || diag_stop(ctx->diag))
				YYABORT;
		}
	;

block
	: '{' items error '}'	{
			/* a bad last statement: the '}' still closes */
			$$ = $2.head;
			yyerrok;
			if (ctx->fatal || diag_stop(ctx->diag))
				YYABORT;
		}
	| '{' items '}'		{ $$ = $2.head; }
	;

/* Statements that end at ';' or a newline. */
stmt_simple
	: IMPORT STRING		{
			$$ = node(ctx, AST_IMPORT, &@$);
			$$->str = $2;
			$$->wloc = @2;
		}
	| PARAM IDENT '=' expr	{ $$ = named(ctx, AST_PARAM, $2, &@2, $4, &@$); }
	| LET IDENT '=' expr	{ $$ = named(ctx, AST_LET, $2, &@2, $4, &@$); }
	| REQUIRE expr		{
			$$ = node(ctx, AST_REQUIRE, &@$);
			$$->lhs = $2;
		}
	| REQUIRE expr ',' expr	{
			$$ = node(ctx, AST_REQUIRE, &@$);
			$$->lhs = $2;
			$$->rhs = $4;
		}
	| IDENT args_opt type_opt	{
			$$ = stmt(ctx, $1, &@1, $2.head, $3, NULL, false, &@$);
		}
	;

/* Statements that end with a block. */
stmt_block
	: IDENT args_opt type_opt block	{
			$$ = stmt(ctx, $1, &@1, $2.head, $3, $4, true, &@$);
		}
	| FOR IDENT IN expr block	{
			$$ = named(ctx, AST_FOR, $2, &@2, $4, &@$);
			$$->body = $5;
		}
	| if_stmt		{ $$ = $1; }
	| MODULE IDENT '(' params ')' block	{
			$$ = named(ctx, AST_MODULE, $2, &@2, NULL, &@$);
			$$->list = $4.head;
			$$->body = $6;
		}
	| MODULE IDENT '(' ')' block	{
			$$ = named(ctx, AST_MODULE, $2, &@2, NULL, &@$);
			$$->body = $5;
		}
	;

if_stmt
	: IF expr block		{ $$ = if_stmt(ctx, $2, $3, NULL, false, &@$); }
	| IF expr block ELSE block	{
			$$ = if_stmt(ctx, $2, $3, $5, true, &@$);
		}
	| IF expr block ELSE if_stmt	{
			$$ = if_stmt(ctx, $2, $3, $5, true, &@$);
		}
	;

params
	: param			{ $$ = list1($1); }
	| params ',' param	{ $$ = append($1, $3); }
	;

param
	: IDENT			{ $$ = named(ctx, AST_NAMED, $1, &@1, NULL, &@$); }
	| IDENT '=' expr	{ $$ = named(ctx, AST_NAMED, $1, &@1, $3, &@$); }
	;

args_opt
	: %empty		{ $$.head = $$.tail = NULL; }
	| args			{ $$ = $1; }
	;

args
	: expr			{ $$ = list1($1); }
	| args ',' expr		{ $$ = append($1, $3); }
	;

type_opt
	: %empty		{ $$ = NULL; }
	| ':' expr		{ $$ = $2; }
	;

/* Expressions, lowest precedence first (see doc/language.md). */
expr
	: expr LINK expr	{ $$ = binary(ctx, OP_LINK, $1, $3, &@$); }
	| expr ARROW expr	{ $$ = binary(ctx, OP_ARROW, $1, $3, &@$); }
	| expr OR expr		{ $$ = binary(ctx, OP_OR, $1, $3, &@$); }
	| expr AND expr		{ $$ = binary(ctx, OP_AND, $1, $3, &@$); }
	| expr EQ expr		{ $$ = binary(ctx, OP_EQ, $1, $3, &@$); }
	| expr NE expr		{ $$ = binary(ctx, OP_NE, $1, $3, &@$); }
	| expr '<' expr		{ $$ = binary(ctx, OP_LT, $1, $3, &@$); }
	| expr LE expr		{ $$ = binary(ctx, OP_LE, $1, $3, &@$); }
	| expr '>' expr		{ $$ = binary(ctx, OP_GT, $1, $3, &@$); }
	| expr GE expr		{ $$ = binary(ctx, OP_GE, $1, $3, &@$); }
	| expr DOTDOT expr	{ $$ = binary(ctx, OP_RANGE, $1, $3, &@$); }
	| expr '+' expr		{ $$ = binary(ctx, OP_ADD, $1, $3, &@$); }
	| expr '-' expr		{ $$ = binary(ctx, OP_SUB, $1, $3, &@$); }
	| expr '*' expr		{ $$ = binary(ctx, OP_MUL, $1, $3, &@$); }
	| expr '/' expr		{ $$ = binary(ctx, OP_DIV, $1, $3, &@$); }
	| expr '%' expr		{ $$ = binary(ctx, OP_MOD, $1, $3, &@$); }
	| '-' expr %prec UNARY	{ $$ = unary(ctx, AST_UNARY, OP_NEG, $2, &@$); }
	| '!' expr %prec UNARY	{ $$ = unary(ctx, AST_UNARY, OP_NOT, $2, &@$); }
	| postfix		{ $$ = $1; }
	;

postfix
	: primary		{ $$ = $1; }
	| postfix '.' IDENT	{
			$$ = unary(ctx, AST_MEMBER, OP_NONE, $1, &@$);
			$$->str = $3;
			$$->wloc = @3;
		}
	| postfix '[' index ']'	{
			$$ = unary(ctx, AST_INDEX, OP_NONE, $1, &@$);
			$$->rhs = $3;
			if ($3->depth >= $$->depth)
				set_depth(ctx, $$, $3->depth);
		}
	| IDENT '(' ')'		{
			$$ = node(ctx, AST_CALL, &@$);
			$$->str = $1;
			$$->wloc = @1;
		}
	| IDENT '(' callargs ')'	{
			$$ = node(ctx, AST_CALL, &@$);
			$$->str = $1;
			$$->wloc = @1;
			$$->list = $3.head;
			for (struct ast *a = $$->list; a; a = a->next)
				if (a->depth >= $$->depth)
					set_depth(ctx, $$, a->depth);
		}
	;

index
	: expr			{ $$ = $1; }
	| '*'			{ $$ = node(ctx, AST_WILD, &@$); }
	;

callargs
	: callarg		{ $$ = list1($1); }
	| callargs ',' callarg	{ $$ = append($1, $3); }
	;

callarg
	: expr			{ $$ = $1; }
	| IDENT '=' expr	{
			$$ = named(ctx, AST_NAMED, $1, &@1, $3, &@$);
			$$->depth = $3->depth;
		}
	;

primary
	: NUMBER		{
			$$ = node(ctx, AST_NUM, &@$);
			$$->num = $1;
		}
	| STRING		{
			$$ = node(ctx, AST_STR, &@$);
			$$->str = $1;
		}
	| FSTRING		{ $$ = $1; }
	| RATIO			{
			$$ = node(ctx, AST_RATIO, &@$);
			$$->num.v = $1.a;
			$$->num2 = $1.b;
		}
	| IDENT			{
			$$ = node(ctx, AST_IDENT, &@$);
			$$->str = $1;
		}
	| '(' expr ')'		{ $$ = $2; $$->loc = @$; }
	| '[' ']'		{ $$ = node(ctx, AST_LIST, &@$); }
	| '[' list_items ']'	{
			$$ = node(ctx, AST_LIST, &@$);
			$$->list = $2.head;
			for (struct ast *a = $$->list; a; a = a->next)
				if (a->depth >= $$->depth)
					set_depth(ctx, $$, a->depth);
		}
	;

list_items
	: expr			{ $$ = list1($1); }
	| list_items ',' expr	{ $$ = append($1, $3); }
	;

%%

void rc_yyerror(RC_YYLTYPE *loc, void *scanner, struct parse_ctx *ctx,
		const char *msg)
{
	(void)scanner;
	if (ctx->fatal)
		return;
	if (streq(msg, "memory exhausted")) {
		parse_error(ctx, loc,
			    "input nested too deeply for the parser");
		ctx->fatal = true;
		return;
	}
	/* the end of the file inside a block: say which '{' is open */
	if (streq(msg, "syntax error, unexpected end of file")) {
		uint32_t i = ctx->nesting;

		while (i && ctx->open[i - 1].tok != '{')
			i--;
		if (i) {
			struct srcloc open = { ctx->file, ctx->open[i - 1].at,
					       ctx->open[i - 1].at + 1 };

			parse_error(ctx, loc, "%s, expecting '}'", msg);
			diag_emit(ctx->diag, DIAG_NOTE, &open, NULL,
				  "to match this '{'");
			return;
		}
	}
	parse_error(ctx, loc, "%s", msg);
}

void *rk_lex_begin(struct parse_ctx *ctx, const char *text, uint32_t len);
void rk_lex_end(void *scanner);

static uint32_t parse(struct parse_ctx *ctx, const struct srcmgr *sm,
		      uint32_t file)
{
	const struct srcfile *f = srcmgr_file(sm, file);
	void *scanner;

	ctx->file = file;
	scanner = rk_lex_begin(ctx, f->text, f->len);
	rc_yyparse(scanner, ctx);
	rk_lex_end(scanner);
	free(ctx->sbuf);
	return ctx->errors;
}

uint32_t parse_file(struct arena *a, struct diag_engine *d,
		    const struct srcmgr *sm, uint32_t file, struct ast **out)
{
	struct parse_ctx ctx;
	uint32_t errors;

	memset(&ctx, 0, sizeof(ctx));
	ctx.arena = ctx.nodes = a;
	ctx.diag = d;
	errors = parse(&ctx, sm, file);
	*out = ctx.result;
	return errors;
}

uint32_t parse_file_each(struct arena *a, struct arena *nodes,
			 struct diag_engine *d, const struct srcmgr *sm,
			 uint32_t file, bool (*each)(void *arg, struct ast *st),
			 void *arg)
{
	struct parse_ctx ctx;

	memset(&ctx, 0, sizeof(ctx));
	ctx.arena = a;
	ctx.nodes = nodes;
	ctx.diag = d;
	ctx.each = each;
	ctx.each_arg = arg;
	ctx.mark = arena_mark(nodes);
	return parse(&ctx, sm, file);
}

struct ast *parse_expr_at(struct parse_ctx *outer, uint32_t begin,
			  uint32_t len)
{
	struct parse_ctx ctx;
	void *scanner;

	memset(&ctx, 0, sizeof(ctx));
	ctx.arena = outer->arena;
	ctx.nodes = outer->nodes;
	ctx.diag = outer->diag;
	ctx.file = outer->file;
	ctx.pending = START_EXPR;
	ctx.pending_loc.file = outer->file;
	ctx.pending_loc.begin = ctx.pending_loc.end = begin;
	scanner = rk_lex_begin(&ctx, outer->text + begin, len);
	/* locations and messages are the file's */
	ctx.text = outer->text;
	ctx.offset = begin;
	rc_yyparse(scanner, &ctx);
	rk_lex_end(scanner);
	free(ctx.sbuf);
	outer->errors += ctx.errors;
	if (ctx.fatal)
		outer->fatal = true;
	return ctx.errors ? NULL : ctx.result;
}

void parse_error(struct parse_ctx *ctx, const struct srcloc *loc,
		 const char *fmt, ...)
{
	va_list ap;

	ctx->errors++;
	va_start(ap, fmt);
	diag_vemit(ctx->diag, DIAG_ERROR, loc, "syntax", fmt, ap);
	va_end(ap);
	if (diag_stop(ctx->diag))
		ctx->fatal = true;
}
