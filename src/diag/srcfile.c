/* SPDX-License-Identifier: MIT */
/*
 * The source manager.  Each file a compilation reads is held whole in memory
 * together with a table of line starts built when the file is added, so
 * turning a byte offset into a line and column is a binary search and
 * printing a source line never touches the disk again.  File texts and line
 * tables are allocated from the compilation's arena at their exact size; the
 * file table is a vector registered with arena_own().  Reading a file of
 * unknown size goes through a scratch buffer that is freed before returning.
 */
#include "rackc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srcfile.h"

/* First buffer size used when reading a file of unknown size. */
#define READ_CHUNK (64u * 1024u)

void srcmgr_init(struct srcmgr *sm, struct arena *a)
{
	memset(sm, 0, sizeof(*sm));
	sm->arena = a;
	sm->max_size = RK_MAX_FILE_SIZE;
}

/*
 * Offsets of the line starts of @text into @lines (when not NULL); returns
 * how many there are.  A newline at the very end starts no line.
 */
static uint32_t line_starts(const char *text, uint32_t len, uint32_t *lines)
{
	uint32_t n = 1, pos = 0;

	if (lines)
		lines[0] = 0;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);

		if (!nl)
			break;
		pos = (uint32_t)(nl - text) + 1;
		if (pos < len) {
			if (lines)
				lines[n] = pos;
			n++;
		}
	}
	return n;
}

/* Register a file whose text is already in the arena; returns its id. */
static uint32_t add_file(struct srcmgr *sm, const char *path, const char *text,
			 uint32_t len, struct srcloc from)
{
	struct arena *a = sm->arena;
	struct srcfile *f = arena_zalloc(a, sizeof(*f));
	bool first = sm->files == NULL;

	f->path = arena_strndup(a, path, strlen(path));
	f->text = text;
	f->len = len;
	f->included_from = from;
	/* Count, then fill: the table is allocated at its exact size. */
	f->nlines = line_starts(text, len, NULL);
	f->lines = arena_alloc(a, f->nlines * sizeof(*f->lines));
	line_starts(text, len, f->lines);

	*VEC_PUSH(sm->files, sm->nfiles, sm->cap) = f;
	if (first)
		arena_own(a, (void **)&sm->files);
	return sm->nfiles;
}

uint32_t srcmgr_add(struct srcmgr *sm, const char *path, const char *text,
		    uint32_t len, struct srcloc from)
{
	char *copy = arena_strndup(sm->arena, len ? text : "", len);

	return add_file(sm, path, copy, len, from);
}

uint32_t srcmgr_load(struct srcmgr *sm, const char *path, struct srcloc from)
{
	FILE *fp;
	char *buf = NULL, *text;
	size_t len = 0, cap = 0;
	int err = 0;

	fp = fopen(path, "rb");
	if (!fp)
		return 0;
	for (;;) {
		size_t want, got;

		if (len == cap) {
			size_t ncap = cap ? cap * 2 : READ_CHUNK;

			/* Holding max_size + 1 bytes means too big. */
			if (cap > sm->max_size) {
				err = EFBIG;
				break;
			}
			if (ncap > (size_t)sm->max_size + 1)
				ncap = (size_t)sm->max_size + 1;
			buf = xrealloc(buf, ncap);
			cap = ncap;
		}
		want = cap - len;
		errno = 0;
		got = fread(buf + len, 1, want, fp);
		len += got;
		if (got < want) {
			/* A directory fails here, with EISDIR from read(2). */
			if (ferror(fp))
				err = errno ? errno : EIO;
			break;
		}
	}
	fclose(fp);
	if (!err && len > sm->max_size)
		err = EFBIG; /* a limit below the first read's size */
	if (err) {
		free(buf);
		errno = err;
		return 0;
	}

	text = arena_strndup(sm->arena, len ? buf : "", len);
	free(buf);
	return add_file(sm, path, text, (uint32_t)len, from);
}

bool srcmgr_parse_max(const char *s, uint32_t *out)
{
	uint64_t n = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		n = n * 10 + (uint64_t)(*s - '0');
		if (n > RK_MAX_FILE_SIZE_OPT)
			return false;
	}
	if (!n)
		return false;
	*out = (uint32_t)n;
	return true;
}

const struct srcfile *srcmgr_file(const struct srcmgr *sm, uint32_t id)
{
	if (!sm || id == 0 || id > sm->nfiles)
		return NULL;
	return sm->files[id - 1];
}

void srcmgr_linecol(const struct srcmgr *sm, uint32_t id, uint32_t offset,
		    uint32_t *line, uint32_t *col)
{
	const struct srcfile *f = srcmgr_file(sm, id);
	uint32_t lo = 0, hi;

	if (!f) {
		*line = 0;
		*col = 0;
		return;
	}
	if (offset > f->len)
		offset = f->len;
	/*
	 * The end of a file that ends in a newline is the place just after
	 * the last character of the last line, not a line of its own.
	 */
	if (offset == f->len && offset > 0 && f->text[offset - 1] == '\n')
		offset--;

	/* Largest lo with lines[lo] <= offset; lines[0] is 0. */
	hi = f->nlines;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (f->lines[mid] <= offset)
			lo = mid;
		else
			hi = mid;
	}
	*line = lo + 1;
	*col = offset - f->lines[lo] + 1;
}
