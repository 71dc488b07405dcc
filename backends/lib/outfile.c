/* SPDX-License-Identifier: MIT */
/*
 * Atomic artifact output: temporary files in the output directory, renamed
 * into place only when the whole run succeeds, all of them or none (see
 * backend.h).
 *
 * The commit across files.  The output directory may hold files of the
 * user's and artifacts this run does not write, so it is not swapped as a
 * whole; the renames are recorded in a journal instead:
 *
 *   1. every artifact is written to its temporary file and closed;
 *   2. the journal DIR/.rackc-journal is written (to a temporary file,
 *      flushed to disk, renamed into place): for each artifact its path,
 *      its temporary file and, when an artifact of that name exists, the
 *      name of a backup (the temporary name + ".old"); and the directories
 *      the run created;
 *   3. per artifact, the existing file is linked to its backup (renamed
 *      where the file system has no hard links), then the temporary file
 *      renamed over it;
 *   4. the journal is renamed to DIR/.rackc-journal.done: the commit point;
 *   5. the backups and the done journal are removed.
 *
 * When a step of 3 or 4 fails, the run undoes what it did (each backup
 * renamed back, each new artifact without one removed, the temporaries and
 * the new directories removed) and removes the journal.  When the run is
 * killed part-way, or the undo fails too, the journal stays, and the next
 * run that commits into DIR rolls it back first (a done journal: removes
 * the backups left).  Every step of the undo is safe to repeat, so an undo
 * interrupted in turn is finished by the run after.  A lock (flock) on DIR
 * keeps two runs from committing into it at once.  The artifacts are not
 * flushed to disk one by one: the promise is about a run that fails or is
 * killed, not about a machine that loses power.
 */
#include "rackc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
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

/*
 * An artifact's stream: its bytes go to descriptor @fd, each write counted
 * against the run's output budget (a write that would pass it fails, with
 * EFBIG, and marks the budget over), and large blocks preallocated
 * (prealloc above).
 */
struct counted {
	int fd;
	off_t pos;
	struct out_budget *budget;
};

static ssize_t counted_write(void *cookie, const char *buf, size_t n)
{
	struct counted *c = cookie;
	size_t done = 0;

	if (c->budget) {
		uint64_t used = atomic_fetch_add(&c->budget->used, n) + n;

		if (used > c->budget->limit || used < n) {
			atomic_store(&c->budget->over, true);
			errno = EFBIG;
			return 0;
		}
	}
	if (n >= PREALLOC_MIN)
		prealloc(c->fd, c->pos, c->pos + (off_t)n);
	while (done < n) {
		ssize_t w = write(c->fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	c->pos += (off_t)done;
	return (ssize_t)done;
}

static int counted_close(void *cookie)
{
	struct counted *c = cookie;
	int rc = close(c->fd);

	free(c);
	return rc;
}

/* A stream writing to @fd (closed with it), counted against @budget. */
static FILE *counted_stream(int fd, struct out_budget *budget)
{
	struct counted *c = xmalloc(sizeof(*c));
	cookie_io_functions_t io = { .write = counted_write,
				     .close = counted_close };
	FILE *fp;

	c->fd = fd;
	c->pos = 0;
	c->budget = budget;
	fp = fopencookie(c, "w", io);
	if (!fp)
		free(c);
	return fp;
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
		of->fd = -1;
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
	of->fd = fd;
	of->fp = counted_stream(fd, ctx->budget);
	if (!of->fp) {
		close(fd);
		diag_error(ctx->diag, NULL, "io", "cannot open '%s': %s", tmp,
			   strerror(errno));
		ctx->failed = true;
		return NULL;
	}
	return of->fp;
}

void out_write(FILE *fp, const void *buf, size_t n)
{
	/* a block this large goes past the stream's buffer to
	 * counted_write, which preallocates for it */
	fwrite(buf, 1, n, fp);
}

/* Release what out_write allocated past the end of the file. */
static bool release_tail(int fd)
{
	struct stat st;

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
	if (ferror(of->fp) || fflush(of->fp) != 0 ||
	    (of->tmp && !release_tail(of->fd)))
		ok = false;
	if (fclose(of->fp) != 0)
		ok = false;
	of->fp = NULL;
	if (!ok && ctx->budget &&
	    atomic_load_explicit(&ctx->budget->over, memory_order_relaxed)) {
		/* past the output limit: the run says so once (driver.c) */
		ctx->failed = true;
	} else if (!ok) {
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

#define JOURNAL ".rackc-journal"
#define JOURNAL_DONE ".rackc-journal.done"
#define JOURNAL_MAGIC "rackc-journal 1\n"

/* One replacement of the journal: full paths; @bak NULL when no artifact
 * of that name existed. */
struct jentry {
	const char *final, *tmp;
	char *bak;
};

static char *join(const char *dir, const char *rel)
{
	size_t n = strlen(dir) + strlen(rel) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s", dir, rel);
	return p;
}

/* @path relative to @dir, which it starts with (out_open makes them so). */
static const char *rel_to(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	return strncmp(path, dir, n) == 0 && path[n] == '/' ? path + n + 1
							    : NULL;
}

/* A path a journal may name: relative, no empty or ".." component. */
static bool safe_rel(const char *rel)
{
	const char *p = rel;

	if (!*p || *p == '/')
		return false;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += n;
		if (*p)
			p++;
	}
	return true;
}

static bool gone(int rc)
{
	return rc == 0 || errno == ENOENT;
}

/*
 * Undo one replacement, whatever step it reached; safe to repeat.  With a
 * backup: the backup renamed back (when the link was made but the new file
 * not renamed in yet, both names are the same file, a rename does nothing,
 * and the backup is unlinked instead).  Without one: the new artifact is
 * removed once its temporary file has been renamed to it.
 */
static bool restore(const char *final, const char *tmp, const char *bak)
{
	struct stat st;
	bool ok = true;

	if (bak) {
		if (!gone(rename(bak, final)) || !gone(unlink(bak)))
			ok = false;
	} else if (lstat(tmp, &st) != 0 && errno == ENOENT &&
		   !gone(unlink(final))) {
		ok = false;
	}
	if (!gone(unlink(tmp)))
		ok = false;
	return ok;
}

/* rmdir @dirs (those made inside others first); one not empty stays. */
static void remove_dirs(char **dirs, uint32_t n)
{
	if (n > 1)
		qsort(dirs, n, sizeof(*dirs), longer_first);
	for (uint32_t i = 0; i < n; i++)
		rmdir(dirs[i]);
}

/* Read the whole of file @path (NUL-terminated; length in @len). */
static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!fp)
		return NULL;
	do {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = xrealloc(buf, cap + 1);
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
	} while (got > 0);
	if (ferror(fp)) {
		free(buf);
		buf = NULL;
	} else {
		buf[n] = '\0';
		*len = n;
	}
	fclose(fp);
	return buf;
}

/*
 * Walk the records of journal @buf (@len bytes): 'f' FINAL \0 TMP \0 BAK
 * (empty: none) \0, 'd' DIR \0, then 'e'.  With @act false only checks
 * that it is well formed; with @act undoes each replacement (@committed:
 * removes what is left of the backups) and collects the directories in
 * @dirs.  False when malformed or an undo failed.
 */
static bool walk_journal(struct diag_engine *diag, const char *dir,
			 const char *buf, size_t len, bool act, bool committed,
			 char ***dirs, uint32_t *ndirs, uint32_t *dirs_cap)
{
	const char *end = buf + len, *p = buf + strlen(JOURNAL_MAGIC);
	bool ok = true;

	if (len < strlen(JOURNAL_MAGIC) ||
	    memcmp(buf, JOURNAL_MAGIC, strlen(JOURNAL_MAGIC)) != 0)
		return false;
	while (p < end && *p != 'e') {
		const char *f[3] = { "", "", "" };
		char type = *p++;
		int nf = type == 'f' ? 3 : type == 'd' ? 1 : 0;

		if (!nf)
			return false;
		for (int k = 0; k < nf; k++) {
			const char *z = memchr(p, '\0', (size_t)(end - p));

			if (!z || (!(k == 2 && z == p) && !safe_rel(p)))
				return false;
			f[k] = p;
			p = z + 1;
		}
		if (!act)
			continue;
		if (type == 'd') {
			*VEC_PUSH(*dirs, *ndirs, *dirs_cap) = join(dir, f[0]);
		} else {
			char *final = join(dir, f[0]), *tmp = join(dir, f[1]);
			char *bak = *f[2] ? join(dir, f[2]) : NULL;

			if (committed) {
				if ((bak && !gone(unlink(bak))) ||
				    !gone(unlink(tmp)))
					ok = false;
			} else if (!restore(final, tmp, bak)) {
				diag_error(diag, NULL, "io",
					   "cannot restore '%s' after an "
					   "interrupted run: %s",
					   final, strerror(errno));
				ok = false;
			}
			free(final);
			free(tmp);
			free(bak);
		}
	}
	return p < end && ok;
}

/*
 * Roll back (or, when it reached its commit point, clean up after) the
 * commit that a journal in @dir records.  True when none is left.
 */
static bool recover(struct diag_engine *diag, const char *dir)
{
	char *jpath = join(dir, JOURNAL), *done = join(dir, JOURNAL_DONE);
	char *buf, **dirs = NULL;
	const char *which = jpath;
	uint32_t ndirs = 0, dirs_cap = 0;
	bool committed = false, ok = true;
	size_t len = 0;

	buf = slurp(jpath, &len);
	if (!buf && errno == ENOENT) {
		buf = slurp(done, &len);
		committed = buf != NULL;
		which = done;
	}
	if (!buf) {
		ok = errno == ENOENT;
		if (!ok)
			diag_error(diag, NULL, "io", "cannot read '%s': %s",
				   which, strerror(errno));
	} else if (!walk_journal(diag, dir, buf, len, false, committed, &dirs,
				 &ndirs, &dirs_cap)) {
		diag_error(diag, NULL, "io",
			   "'%s' is not a journal of rackc's; remove it once "
			   "the directory's files are as they should be",
			   which);
		ok = false;
	} else {
		ok = walk_journal(diag, dir, buf, len, true, committed, &dirs,
				  &ndirs, &dirs_cap);
		if (ok && !committed)
			remove_dirs(dirs, ndirs);
		if (ok && !gone(unlink(which))) {
			diag_error(diag, NULL, "io", "cannot remove '%s': %s",
				   which, strerror(errno));
			ok = false;
		}
	}
	for (uint32_t i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
	free(buf);
	free(jpath);
	free(done);
	return ok;
}

static void put_rel(FILE *fp, const char *dir, const char *path)
{
	const char *r = path ? rel_to(dir, path) : "";

	fputs(r ? r : "", fp);
	fputc('\0', fp);
}

/* Write the journal of @e (@n entries) and the directories the run made;
 * true once it is in place. */
static bool write_journal(struct backend_ctx *ctx, const struct jentry *e,
			  uint32_t n)
{
	const char *dir = ctx->outdir;
	char *jpath = join(dir, JOURNAL);
	char *tmp = join(dir, JOURNAL ".XXXXXX");
	int fd = mkstemp(tmp);
	FILE *fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
	bool ok = fp != NULL;

	if (fp) {
		fputs(JOURNAL_MAGIC, fp);
		for (uint32_t i = 0; i < n; i++) {
			fputc('f', fp);
			put_rel(fp, dir, e[i].final);
			put_rel(fp, dir, e[i].tmp);
			put_rel(fp, dir, e[i].bak);
		}
		for (uint32_t i = 0; i < ctx->ndirs; i++)
			if (rel_to(dir, ctx->dirs[i])) {
				fputc('d', fp);
				put_rel(fp, dir, ctx->dirs[i]);
			}
		fputc('e', fp);
		ok = !ferror(fp) && fflush(fp) == 0 && fsync(fd) == 0;
		if (fclose(fp) != 0)
			ok = false;
		if (ok && rename(tmp, jpath) != 0)
			ok = false;
	} else if (fd >= 0) {
		close(fd);
	}
	if (!ok) {
		diag_error(ctx->diag, NULL, "io", "cannot write '%s': %s",
			   jpath, strerror(errno));
		if (fd >= 0)
			unlink(tmp);
	}
	free(tmp);
	free(jpath);
	return ok;
}

/* Steps 3 to 5 above, for the journal's @n entries @e. */
static bool replace_all(struct backend_ctx *ctx, struct jentry *e, uint32_t n)
{
	char *jpath = join(ctx->outdir, JOURNAL);
	char *done = join(ctx->outdir, JOURNAL_DONE);
	bool ok = true;

	for (uint32_t i = 0; i < n && ok; i++) {
		if (e[i].bak && link(e[i].final, e[i].bak) != 0 &&
		    rename(e[i].final, e[i].bak) != 0) {
			diag_error(ctx->diag, NULL, "io",
				   "cannot keep '%s' as '%s': %s", e[i].final,
				   e[i].bak, strerror(errno));
			ok = false;
		} else if (rename(e[i].tmp, e[i].final) != 0) {
			diag_error(ctx->diag, NULL, "io",
				   "cannot rename '%s' to '%s': %s", e[i].tmp,
				   e[i].final, strerror(errno));
			ok = false;
		}
	}
	if (ok && rename(jpath, done) != 0) {
		diag_error(ctx->diag, NULL, "io", "cannot rename '%s': %s",
			   jpath, strerror(errno));
		ok = false;
	}
	if (ok) {
		for (uint32_t i = 0; i < n; i++)
			if (e[i].bak)
				unlink(e[i].bak);
		unlink(done);
	} else {
		/* undo, the last first: the old files back, the new gone */
		bool undone = true;

		for (uint32_t i = n; i-- > 0;)
			if (!restore(e[i].final, e[i].tmp, e[i].bak))
				undone = false;
		if (undone && gone(unlink(jpath))) {
			remove_dirs(ctx->dirs, ctx->ndirs);
		} else {
			diag_error(ctx->diag, NULL, "io",
				   "cannot undo the partial commit in '%s': "
				   "%s; the next run into it rolls it back "
				   "(journal '%s')",
				   ctx->outdir, strerror(errno), jpath);
		}
	}
	free(jpath);
	free(done);
	return ok;
}

static void release_lists(struct backend_ctx *ctx)
{
	for (uint32_t i = 0; i < ctx->nfiles; i++) {
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
}

bool out_commit(struct backend_ctx *ctx)
{
	struct jentry *e;
	bool ok = !ctx->failed;
	int lock;

	for (uint32_t i = 0; i < ctx->nfiles; i++)
		if (!close_one(ctx, &ctx->files[i]))
			ok = false;
	if (!ok) {
		out_discard(ctx);
		return false;
	}
	/* one run at a time commits into the directory (where the file
	 * system has no locks, the journal still protects a single run) */
	lock = open(ctx->outdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lock >= 0)
		(void)flock(lock, LOCK_EX);
	if (!recover(ctx->diag, ctx->outdir)) {
		if (lock >= 0)
			close(lock);
		out_discard(ctx);
		return false;
	}
	e = xcalloc(ctx->nfiles + 1, sizeof(*e));
	for (uint32_t i = 0; i < ctx->nfiles; i++) {
		struct stat st;
		size_t n = strlen(ctx->files[i].tmp) + 5;

		e[i].final = ctx->files[i].final;
		e[i].tmp = ctx->files[i].tmp;
		if (lstat(e[i].final, &st) == 0 &&
		    (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))) {
			e[i].bak = xmalloc(n);
			snprintf(e[i].bak, n, "%s.old", e[i].tmp);
		}
	}
	if (!write_journal(ctx, e, ctx->nfiles)) {
		ok = false;
		for (uint32_t i = 0; i < ctx->nfiles; i++)
			unlink(e[i].tmp);
		remove_dirs(ctx->dirs, ctx->ndirs);
	} else {
		ok = replace_all(ctx, e, ctx->nfiles);
	}
	if (lock >= 0)
		close(lock);
	for (uint32_t i = 0; i < ctx->nfiles; i++)
		free(e[i].bak);
	free(e);
	release_lists(ctx);
	return ok;
}
