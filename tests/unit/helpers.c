/* SPDX-License-Identifier: MIT */
/* Shared helpers of the front-end unit tests (see helpers.h). */
#include "rackc.h"

#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "parse.h"

static void init_opts(struct unit *u, const char *input,
		      const struct unit_opts *uo)
{
	memset(&u->opts, 0, sizeof(u->opts));
	u->opts.input = input;
	u->opts.outdir = "out";
	u->opts.stddir = RACKC_SRCDIR; /* the source tree's std/ */
	u->opts.max_errors = 10;
	u->opts.show_source = true;
	if (uo) {
		u->opts.defines = uo->defines;
		u->opts.ndefines = uo->ndefines;
		u->opts.incdirs = uo->incdirs;
		u->opts.nincdirs = uo->nincdirs;
		if (uo->max_errors)
			u->opts.max_errors = uo->max_errors;
	}
}

/* Run one compilation; @src NULL means "read opts.input from disk". */
static struct unit *run(const char *input, const char *src,
			const struct unit_opts *uo)
{
	struct unit *u = xcalloc(1, sizeof(*u));
	FILE *out = open_memstream(&u->err, &u->errlen);

	cr_assert_not_null(out, "open_memstream failed");
	init_opts(u, input, uo);
	compilation_init(&u->c, &u->opts, out);
	if (src)
		u->rc = rackc_elaborate_string(&u->c, input, src);
	else
		u->rc = rackc_elaborate(&u->c);
	diag_finish(&u->c.diag);
	fclose(out);
	u->d = &u->c.design;
	return u;
}

struct unit *compile_ex(const char *src, const struct unit_opts *uo)
{
	return run(uo && uo->name ? uo->name : "test.rack", src, uo);
}

struct unit *compile(const char *src)
{
	return compile_ex(src, NULL);
}

struct unit *compile_file(const char *path, const struct unit_opts *uo)
{
	return run(path, NULL, uo);
}

void unit_free(struct unit *u)
{
	if (!u)
		return;
	compilation_fini(&u->c);
	free(u->err);
	free(u);
}

uint32_t find_obj(const struct unit *u, const char *name)
{
	uint32_t id = intern_find(&u->c.arena, name, strlen(name));

	return id ? ir_find_name(u->d, id) : RK_NONE;
}

uint32_t find_part(const struct unit *u, const char *name)
{
	uint32_t id = intern_find(&u->c.arena, name, strlen(name));

	return id ? ir_find_part(u->d, id) : RK_NONE;
}

const char *str(const struct unit *u, uint32_t id)
{
	return str_of(&u->c.arena, id);
}

uint32_t count_kind(const struct unit *u, enum rk_kind k)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < u->d->nobjs; i++)
		n += u->d->objs[i].kind == k;
	return n;
}

unsigned count_in(const char *hay, const char *needle)
{
	unsigned n = 0;
	size_t len = strlen(needle);

	if (!hay || !len)
		return 0;
	for (const char *p = strstr(hay, needle); p;
	     p = strstr(p + len, needle))
		n++;
	return n;
}

/* ---- parse only ---- */

struct parsed *parse_mem(const char *src, size_t len, uint32_t max_errors)
{
	struct parsed *p = xcalloc(1, sizeof(*p));
	struct srcloc none = { 0, 0, 0 };
	FILE *out = open_memstream(&p->err, &p->errlen);

	cr_assert_not_null(out, "open_memstream failed");
	arena_init(&p->arena);
	srcmgr_init(&p->sm, &p->arena);
	diag_init(&p->diag, out, &p->sm, &p->arena);
	p->diag.max_errors = max_errors;
	p->diag.show_source = true;
	p->file = srcmgr_add(&p->sm, "test.rack", src, (uint32_t)len, none);
	p->nerr = parse_file(&p->arena, &p->diag, &p->sm, p->file, &p->ast);
	diag_finish(&p->diag);
	fclose(out);
	return p;
}

struct parsed *parse_str(const char *src)
{
	return parse_mem(src, strlen(src), 10);
}

void parsed_free(struct parsed *p)
{
	if (!p)
		return;
	arena_destroy(&p->arena);
	free(p->err);
	free(p);
}

const char *pstr(const struct parsed *p, uint32_t id)
{
	return str_of(&p->arena, id);
}

const struct ast *nth(const struct ast *list, unsigned i)
{
	while (list && i--)
		list = list->next;
	return list;
}

void loc_linecol(const struct parsed *p, const struct srcloc *loc,
		 uint32_t *line, uint32_t *col)
{
	srcmgr_linecol(&p->sm, loc->file, loc->begin, line, col);
}

const char *loc_text(struct parsed *p, const struct srcloc *loc)
{
	const struct srcfile *f = srcmgr_file(&p->sm, loc->file);

	cr_assert_not_null(f);
	cr_assert(loc->begin <= loc->end && loc->end <= f->len);
	return arena_strndup(&p->arena, f->text + loc->begin,
			     loc->end - loc->begin);
}

/* ---- temporary files ---- */

char *make_temp_dir(void)
{
	char *dir = xstrdup("/tmp/rackc-unit-XXXXXX");

	cr_assert_not_null(mkdtemp(dir), "mkdtemp failed");
	return dir;
}

char *write_file(const char *dir, const char *name, const char *text)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *path = xmalloc(n);
	FILE *f;

	snprintf(path, n, "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
	return path;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void rm_tree(const char *dir)
{
	if (dir && strncmp(dir, "/tmp/rackc-unit-", 16) == 0)
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}
