/* SPDX-License-Identifier: MIT */
/*
 * Source files and locations.  Every file a compilation reads is kept whole
 * in memory (arena-owned) with a table of line starts, so diagnostics can
 * print the source line without re-opening the file.  A location is a file id
 * plus a half-open byte range; line and column are computed only when a
 * diagnostic is printed.
 */
#ifndef RACKC_SRCFILE_H
#define RACKC_SRCFILE_H

#include <stdbool.h>
#include <stdint.h>

struct arena;

/**
 * struct srcloc - a range of bytes in one source file
 * @file:  file id (1-based index in the srcmgr); 0 means "no location"
 * @begin: offset of the first byte
 * @end:   offset one past the last byte (end >= begin)
 */
struct srcloc {
	uint32_t file;
	uint32_t begin, end;
};

/**
 * struct srcfile - one loaded source file
 * @path:          the path as it was opened (printed in diagnostics)
 * @text:          the bytes, NUL-terminated (embedded NULs are possible)
 * @len:           number of bytes, without the terminating NUL
 * @lines:         offsets of the first byte of each line
 * @nlines:        number of entries in @lines (at least 1)
 * @included_from: location of the import that loaded it, file 0 for the root
 */
struct srcfile {
	const char *path;
	const char *text;
	uint32_t len;
	uint32_t *lines;
	uint32_t nlines;
	struct srcloc included_from;
};

struct srcmgr {
	struct arena *arena;
	struct srcfile **files;
	uint32_t nfiles, cap;
	uint32_t max_size; /* largest file accepted (RK_MAX_FILE_SIZE) */
};

/* Largest source file accepted by default (--max-source-bytes), in bytes,
 * and the most that option may allow. */
#define RK_MAX_FILE_SIZE (16u * 1024u * 1024u)
#define RK_MAX_FILE_SIZE_OPT (1024u * 1024u * 1024u)

void srcmgr_init(struct srcmgr *sm, struct arena *a);
/* Add a file from memory; returns its id.  The text is copied. */
uint32_t srcmgr_add(struct srcmgr *sm, const char *path, const char *text,
		    uint32_t len, struct srcloc from);
/*
 * Read a file from disk.  Returns its id, or 0 with errno set; a file larger
 * than @sm's max_size fails with EFBIG.
 */
uint32_t srcmgr_load(struct srcmgr *sm, const char *path, struct srcloc from);
/* The value of --max-source-bytes: a decimal number from 1 to
 * RK_MAX_FILE_SIZE_OPT into @out; false if @s is not one. */
bool srcmgr_parse_max(const char *s, uint32_t *out);
const struct srcfile *srcmgr_file(const struct srcmgr *sm, uint32_t id);
/* 1-based line and byte column of @offset in file @id. */
void srcmgr_linecol(const struct srcmgr *sm, uint32_t id, uint32_t offset,
		    uint32_t *line, uint32_t *col);

#endif
