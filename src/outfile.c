/* SPDX-License-Identifier: MIT */
/*
 * Atomic artifact output: temporary files in the output directory, renamed
 * into place only when the whole run succeeds (see backend.h).
 */
#include "rackc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/magic.h>
#include <sys/vfs.h>
#endif

#include "backend.h"

/* mkdir @dir, remembering it when this run created it. */
static bool make_dir(struct backend_ctx *ctx, const char *dir)
{
	if (mkdir(dir, 0777) == 0) {
		*VEC_PUSH(ctx->dirs, ctx->ndirs, ctx->dirs_cap) = xstrdup(dir);
		return true;
	}
	return errno == EEXIST;
}

/* mkdir -p for the directory part of @path (which is not created). */
static bool make_parents(struct backend_ctx *ctx, char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (!make_dir(ctx, path)) {
			*p = '/';
			return false;
		}
		*p = '/';
	}
	return true;
}

bool out_mkdirs(struct backend_ctx *ctx, const char *dir)
{
	char *p = xstrdup(dir);
	bool ok = make_parents(ctx, p) && make_dir(ctx, p);

	free(p);
	return ok;
}

FILE *out_open(struct backend_ctx *ctx, const char *rel)
{
	size_t n = strlen(ctx->outdir) + strlen(rel) + 2;
	char *final = xmalloc(n), *tmp;
	struct outfile *of;
	const char *base;
	int fd;

	snprintf(final, n, "%s/%s", ctx->outdir, rel);
	if (ctx->dry) {
		/* a preflight: the bytes go nowhere, nothing is created */
		of = VEC_PUSH(ctx->files, ctx->nfiles, ctx->files_cap);
		of->tmp = NULL;
		of->final = final;
		of->fp = fopen("/dev/null", "w");
		if (!of->fp) {
			diag_error(ctx->diag, NULL, "io",
				   "cannot open '%s': %s", "/dev/null",
				   strerror(errno));
			ctx->failed = true;
		}
		return of->fp;
	}
	base = strrchr(final, '/') + 1;
	tmp = xmalloc(n + 16);
	snprintf(tmp, n + 16, "%.*s.%s.XXXXXX", (int)(base - final), final,
		 base);
	if (!make_parents(ctx, tmp) || (fd = mkstemp(tmp)) < 0) {
		diag_error(ctx->diag, NULL, "io", "cannot create '%s': %s",
			   final, strerror(errno));
		free(final);
		free(tmp);
		ctx->failed = true;
		return NULL;
	}
	/* mkstemp makes 0600; artifacts are ordinary files */
	fchmod(fd, 0644);
	of = VEC_PUSH(ctx->files, ctx->nfiles, ctx->files_cap);
	of->tmp = tmp;
	of->final = final;
	of->fp = fdopen(fd, "w");
	if (!of->fp) {
		close(fd);
		diag_error(ctx->diag, NULL, "io", "cannot open '%s': %s", tmp,
			   strerror(errno));
		ctx->failed = true;
		return NULL;
	}
	return of->fp;
}

/*
 * Preallocation.  On ext4 a write into space the file does not have yet
 * reserves it block by block (delayed allocation); into space allocated
 * beforehand (fallocate, unwritten extents) the same write costs about 40%
 * less processor time (bench/RESULTS.md).  Large artifacts are therefore
 * allocated ahead of the writer, PREALLOC_STEP at a time, without changing
 * their size, and what lies past the end is released when the file is
 * closed; from the second step on, so that a file smaller than a step
 * is simply written.  Where that does not pay (tmpfs allocates memory for
 * it) or the call fails, the bytes are simply written.  So is everything once the file
 * system has less than PREALLOC_FREE left: space held ahead by files still
 * being written (a step each at the most) must not make another file's
 * write fail on a nearly full disk.
 */
#define PREALLOC_STEP ((off_t)8 << 20)
#define PREALLOC_MIN ((size_t)64 << 10)
#define PREALLOC_FREE ((uint64_t)512 << 20)

/* Allocate the steps that begin inside [from, to) of file @fd. */
static void prealloc(int fd, off_t from, off_t to)
{
#if defined(__linux__) && defined(FALLOC_FL_KEEP_SIZE) && \
    defined(EXT4_SUPER_MAGIC)
	off_t k = (from + PREALLOC_STEP - 1) / PREALLOC_STEP;
	struct statfs fs;

	/*
	 * Not the first step: most files end inside it (an elevation page,
	 * a few hundred KiB), and 8 MiB allocated for them and released at
	 * close cost more than their write saves (each release a discard
	 * where the file system is mounted with it).
	 */
	if (k < 1)
		k = 1;
	if (k * PREALLOC_STEP >= to || fstatfs(fd, &fs) != 0 ||
	    fs.f_type != EXT4_SUPER_MAGIC ||
	    (uint64_t)fs.f_bavail * (uint64_t)fs.f_bsize < PREALLOC_FREE)
		return;
	for (; k * PREALLOC_STEP < to; k++)
		(void)fallocate(fd, FALLOC_FL_KEEP_SIZE, k * PREALLOC_STEP,
				PREALLOC_STEP);
#else
	(void)fd;
	(void)from;
	(void)to;
#endif
}

void out_write(FILE *fp, const void *buf, size_t n)
{
	off_t pos;

	if (n >= PREALLOC_MIN && (pos = ftello(fp)) >= 0)
		prealloc(fileno(fp), pos, pos + (off_t)n);
	fwrite(buf, 1, n, fp);
}

/* Release what out_write allocated past the end of the file. */
static bool release_tail(FILE *fp)
{
	struct stat st;
	int fd = fileno(fp);

	if (fstat(fd, &st) != 0)
		return false;
	if ((off_t)st.st_blocks * 512 <=
	    (st.st_size + st.st_blksize - 1) / st.st_blksize * st.st_blksize)
		return true;
	return ftruncate(fd, st.st_size) == 0;
}

static bool close_one(struct backend_ctx *ctx, struct outfile *of)
{
	bool ok = true;

	if (!of->fp)
		return true;
	if (ferror(of->fp) || fflush(of->fp) != 0 || !release_tail(of->fp))
		ok = false;
	if (fclose(of->fp) != 0)
		ok = false;
	of->fp = NULL;
	if (!ok) {
		diag_error(ctx->diag, NULL, "io", "cannot write '%s': %s",
			   of->final, strerror(errno));
		ctx->failed = true;
	}
	return ok;
}

bool out_close(struct backend_ctx *ctx, FILE *fp)
{
	for (uint32_t i = ctx->nfiles; i-- > 0;)
		if (ctx->files[i].fp == fp)
			return close_one(ctx, &ctx->files[i]);
	return true;
}

bool out_commit(struct backend_ctx *ctx)
{
	bool ok = !ctx->failed;

	for (uint32_t i = 0; i < ctx->nfiles; i++)
		if (!close_one(ctx, &ctx->files[i]))
			ok = false;
	if (!ok) {
		out_discard(ctx);
		return false;
	}
	for (uint32_t i = 0; i < ctx->nfiles; i++) {
		if (rename(ctx->files[i].tmp, ctx->files[i].final) != 0) {
			diag_error(ctx->diag, NULL, "io",
				   "cannot rename '%s' to '%s': %s",
				   ctx->files[i].tmp, ctx->files[i].final,
				   strerror(errno));
			ok = false;
			unlink(ctx->files[i].tmp);
		}
		free(ctx->files[i].tmp);
		free(ctx->files[i].final);
	}
	free(ctx->files);
	ctx->files = NULL;
	ctx->nfiles = ctx->files_cap = 0;
	for (uint32_t i = 0; i < ctx->ndirs; i++)
		free(ctx->dirs[i]);
	free(ctx->dirs);
	ctx->dirs = NULL;
	ctx->ndirs = ctx->dirs_cap = 0;
	return ok;
}

static int longer_first(const void *pa, const void *pb)
{
	size_t a = strlen(*(char *const *)pa), b = strlen(*(char *const *)pb);

	return a > b ? -1 : a < b;
}

void out_discard(struct backend_ctx *ctx)
{
	for (uint32_t i = 0; i < ctx->nfiles; i++) {
		if (ctx->files[i].fp)
			fclose(ctx->files[i].fp);
		if (ctx->files[i].tmp)
			unlink(ctx->files[i].tmp);
		free(ctx->files[i].tmp);
		free(ctx->files[i].final);
	}
	free(ctx->files);
	ctx->files = NULL;
	ctx->nfiles = ctx->files_cap = 0;
	/* the directories this run made, longest path first (so each after
	 * those made inside it); one that is not empty stays */
	if (ctx->ndirs > 1)
		qsort(ctx->dirs, ctx->ndirs, sizeof(*ctx->dirs), longer_first);
	for (uint32_t i = 0; i < ctx->ndirs; i++) {
		rmdir(ctx->dirs[i]);
		free(ctx->dirs[i]);
	}
	free(ctx->dirs);
	ctx->dirs = NULL;
	ctx->ndirs = ctx->dirs_cap = 0;
}
