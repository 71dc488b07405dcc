/* SPDX-License-Identifier: MIT */
/*
 * One side of `rackc diff` (diff.h): a design is compiled into a temporary
 * directory first (back ends ir, report, bom and cabling, with --force so
 * that a design whose checks fail still has a side); then the output
 * directory is read.  ir.rack is compiled again in this process for the
 * devices and the findings; cabling.csv and bom.csv are read as RFC 4180
 * CSV, report.json with a reader of the JSON that report writes.  Every
 * string of the snapshot lives in the caller's arena.
 */
#include "rackc.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "diff.h"
#include "jobs.h"
#include "layout.h"
#include "metrics.h"
#include "scratch.h"
#include "schema.h"
#include "textread.h"

/* ---- a table under construction ---- */

struct row {
	const char *key;
	uint32_t seq;	   /* input order */
	const char **vals; /* one per field known when it was added */
	uint32_t nvals;
};

struct builder {
	struct arena *a;
	const char **fields;
	uint32_t nf, fcap;
	struct row *rows;
	uint32_t n, cap;
};

static uint32_t field_of(struct builder *b, const char *name)
{
	for (uint32_t i = 0; i < b->nf; i++)
		if (streq(b->fields[i], name))
			return i;
	*VEC_PUSH(b->fields, b->nf, b->fcap) =
	    arena_strndup(b->a, name, strlen(name));
	return b->nf - 1;
}

static struct row *row_new(struct builder *b, const char *key)
{
	struct row *r = VEC_PUSH(b->rows, b->n, b->cap);

	r->key = arena_strndup(b->a, key, strlen(key));
	r->seq = b->n - 1;
	/* room for the fields known so far: one allocation per row */
	r->vals = b->nf ? xmalloc(b->nf * sizeof(*r->vals)) : NULL;
	for (uint32_t i = 0; i < b->nf; i++)
		r->vals[i] = "";
	r->nvals = b->nf;
	return r;
}

static void row_set(struct builder *b, struct row *r, const char *field,
		    const char *val, size_t n)
{
	uint32_t f = field_of(b, field);

	if (f >= r->nvals) {
		r->vals = xrealloc(r->vals, (f + 1) * sizeof(*r->vals));
		for (uint32_t i = r->nvals; i <= f; i++)
			r->vals[i] = "";
		r->nvals = f + 1;
	}
	/* values repeat (parts, racks, lengths, fabrics): one copy each */
	r->vals[f] = str_of(b->a, intern(b->a, val, n));
}

static int row_cmp(const void *x, const void *y)
{
	const struct row *a = x, *b = y;
	int c = dv_keycmp(a->key, b->key);

	/* equal keys stay in the order they came */
	return c ? c : (a->seq < b->seq ? -1 : a->seq > b->seq);
}

/* Sort by key (equal keys: the second gets "/2", and so on, in the
 * order they came) and move into @t. */
static void builder_finish(struct builder *b, struct dv_table *t)
{
	if (b->n)
		qsort(b->rows, b->n, sizeof(*b->rows), row_cmp);
	t->fields = arena_alloc(b->a, (b->nf + 1) * sizeof(*t->fields));
	if (b->nf)
		memcpy(t->fields, b->fields, b->nf * sizeof(*t->fields));
	t->nf = b->nf;
	t->keys = arena_alloc(b->a, (b->n + 1) * sizeof(*t->keys));
	t->vals =
	    arena_alloc(b->a, ((size_t)b->n * b->nf + 1) * sizeof(*t->vals));
	t->n = 0;
	for (uint32_t i = 0, run = 1; i < b->n; i++) {
		struct row *r = &b->rows[i];
		const char **v = t->vals + (size_t)t->n * b->nf;

		run = i && streq(r->key, b->rows[i - 1].key) ? run + 1 : 1;
		t->keys[t->n] = run == 1
				    ? r->key
				    : arena_printf(b->a, "%s/%u", r->key, run);
		for (uint32_t f = 0; f < b->nf; f++)
			v[f] = f < r->nvals ? r->vals[f] : "";
		t->n++;
		free(r->vals);
	}
	free(b->rows);
	free(b->fields);
}

/* ---- reading files ---- */

static int col(char **head, uint32_t nh, const char *name)
{
	for (uint32_t i = 0; i < nh; i++)
		if (streq(head[i], name))
			return (int)i;
	return -1;
}

/*
 * A CSV file a record at a time: @each gets each record after the header
 * (its cells in a scratch arena, valid for the call).  The file is read in
 * blocks and parsed up to the last line end outside quotes, so that a
 * record never straddles a block; a NUL byte ends the text, as it would
 * for the file read whole.
 */
typedef void (*csv_each_fn)(void *ctx, char **cells, uint32_t n, char **head,
			    uint32_t nh);

#define CSV_BLOCK (1u << 20)

static bool csv_stream(const char *path, csv_each_fn each, void *ctx,
		       struct arena *a)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, scanned = 0, cut = 0;
	bool inq = false, eof = false, ok = true, have_head = false;
	struct csv_record head = { NULL, 0, 0, 0 }, r = { NULL, 0, 0, 0 };
	uint32_t line = 1;
	const char *err = NULL;
	struct arena cells; /* one record's cells at a time */
	struct arena_mark m;

	if (!fp) {
		fprintf(stderr, "rackc: error: cannot read '%s': %s\n", path,
			strerror(errno));
		return false;
	}
	arena_init(&cells);
	m = arena_mark(&cells);
	while (ok) {
		const char *p, *end;
		char saved;

		/* more text, until a whole record is there or the end */
		while (!eof && cut == 0) {
			size_t got;
			char *nul;

			if (cap - len < CSV_BLOCK + 1)
				buf = xrealloc(buf, cap = len + CSV_BLOCK + 1);
			got = fread(buf + len, 1, CSV_BLOCK, fp);
			if (got < CSV_BLOCK) {
				if (ferror(fp)) {
					fprintf(stderr,
						"rackc: error: cannot read "
						"'%s': %s\n",
						path, strerror(errno));
					ok = false;
					break;
				}
				eof = true;
			}
			if ((nul = memchr(buf + len, '\0', got)) != NULL) {
				got = (size_t)(nul - (buf + len));
				eof = true;
			}
			len += got;
			for (; scanned < len; scanned++) {
				if (buf[scanned] == '"')
					inq = !inq;
				else if (buf[scanned] == '\n' && !inq)
					cut = scanned + 1;
			}
			if (eof)
				cut = len;
		}
		if (!ok || cut == 0)
			break;
		saved = buf[cut];
		buf[cut] = '\0';
		p = buf;
		end = buf + cut;
		if (!have_head) {
			ok = csv_read_record(a, &p, &line, &head, &err);
			have_head = true;
		}
		while (ok && p < end && *p) {
			arena_release(&cells, &m);
			ok = csv_read_record(&cells, &p, &line, &r, &err);
			if (ok)
				each(ctx, r.cell, r.n, head.cell, head.n);
		}
		buf[cut] = saved;
		if (eof && cut == len)
			break;
		/* the rest to the front */
		memmove(buf, buf + cut, len - cut);
		len -= cut;
		scanned -= cut;
		cut = 0;
	}
	if (!ok && err)
		fprintf(stderr, "rackc: error: %s:%u: %s\n", path, line, err);
	arena_destroy(&cells);
	free(head.cell);
	free(r.cell);
	free(buf);
	fclose(fp);
	return ok;
}

/*
 * A CSV file into @t: @key_of makes a record's key from its cells (NULL:
 * the record is skipped); the columns named in @keep become its fields.
 */
typedef char *(*csv_key_fn)(char **cells, uint32_t n, char **head, uint32_t nh);

struct table_load {
	struct builder b;
	const char *const *keep;
	csv_key_fn key_of;
};

static void table_row(void *ctx, char **cells, uint32_t n, char **head,
		      uint32_t nh)
{
	struct table_load *tl = ctx;
	char *key = tl->key_of(cells, n, head, nh);

	if (key) {
		struct row *row = row_new(&tl->b, key);

		for (uint32_t k = 0; tl->keep[k]; k++) {
			int c = col(head, nh, tl->keep[k]);

			if (c >= 0 && (uint32_t)c < n)
				row_set(&tl->b, row, tl->keep[k], cells[c],
					strlen(cells[c]));
		}
		free(key);
	}
}

static bool load_csv(struct dv_table *t, const char *path,
		     const char *const *keep, csv_key_fn key_of,
		     struct arena *a)
{
	struct table_load tl;
	bool ok;

	memset(&tl, 0, sizeof(tl));
	tl.b.a = a;
	tl.keep = keep;
	tl.key_of = key_of;
	for (uint32_t k = 0; keep[k]; k++)
		field_of(&tl.b, keep[k]);
	ok = csv_stream(path, table_row, &tl, a);
	builder_finish(&tl.b, t);
	return ok;
}

static void cable_row(void *ctx, char **cells, uint32_t n, char **head,
		      uint32_t nh)
{
	dv_cables_add(ctx, cells, n, head, nh);
}

/* cabling.csv into the compact table of @s (its array owned by @a). */
static bool load_cables(struct dv_side *s, const char *path, struct arena *a)
{
	struct dv_cable_loader l;
	bool ok;

	dv_cables_begin(&l, &s->cables, a);
	ok = csv_stream(path, cable_row, &l, a);
	dv_cables_finish(&l);
	arena_own(a, (void **)&s->cables.c);
	return ok;
}

/* The faceplate names of the cables' ends, from the patch schedule. */
struct face_ctx {
	struct dv_cables *t;
	struct arena *a;
	int col[4]; /* cable_id, device, port, faceplate */
	bool known;
};

static void face_row(void *ctx, char **cells, uint32_t n, char **head,
		     uint32_t nh)
{
	static const char *const names[4] = { "cable_id", "device", "port",
					      "faceplate" };
	struct face_ctx *f = ctx;
	const struct dv_cables *t = f->t;
	const char *id, *fp;
	uint32_t dev, port, lo = 0, hi = t->n;
	size_t il;

	if (!f->known) {
		for (int k = 0; k < 4; k++)
			f->col[k] = col(head, nh, names[k]);
		f->known = true;
	}
	for (int k = 0; k < 4; k++)
		if (f->col[k] < 0 || (uint32_t)f->col[k] >= n)
			return;
	id = cells[f->col[0]];
	fp = cells[f->col[3]];
	dev = intern_find(f->a, cells[f->col[1]], strlen(cells[f->col[1]]));
	port = intern_find(f->a, cells[f->col[2]], strlen(cells[f->col[2]]));
	if (!*id || !*fp || !dev || !port)
		return;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (dv_keycmp(t->c[mid].key, id) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the cable, or one of its repeats ("ID/2", ...) */
	il = strlen(id);
	for (uint32_t k = lo; k < t->n; k++) {
		const char *key = t->c[k].key;

		if (strncmp(key, id, il) || (key[il] && key[il] != '/'))
			break;
		for (int e = 0; e < 2; e++)
			if (!t->face[2 * (size_t)k + e] &&
			    dv_cable_field(
				t, k, e ? DC_B_DEVICE : DC_A_DEVICE) == dev &&
			    dv_cable_field(t, k, e ? DC_B_PORT : DC_A_PORT) ==
				port) {
				t->face[2 * (size_t)k + e] =
				    intern(f->a, fp, strlen(fp));
				return;
			}
	}
}

/* cabling/patch.csv, when there is one, for the faceplate names. */
static bool load_faces(struct dv_side *s, const char *path, struct arena *a)
{
	struct face_ctx f;

	if (!s->cables.n || access(path, R_OK) != 0)
		return true;
	memset(&f, 0, sizeof(f));
	f.t = &s->cables;
	f.a = a;
	s->cables.face = xcalloc(2 * (size_t)s->cables.n, sizeof(uint32_t));
	arena_own(a, (void **)&s->cables.face);
	return csv_stream(path, face_row, &f, a);
}

static const char *cell(char **cells, uint32_t n, char **head, uint32_t nh,
			const char *name)
{
	int c = col(head, nh, name);

	return c >= 0 && (uint32_t)c < n ? cells[c] : "";
}

static char *bom_key(char **cells, uint32_t n, char **head, uint32_t nh)
{
	const char *kind = cell(cells, n, head, nh, "kind");
	const char *pn = cell(cells, n, head, nh, "part_number");
	const char *len = cell(cells, n, head, nh, "length_m");
	const char *in = cell(cells, n, head, nh, "in_assembly");
	char *k;
	size_t m;

	/* the subtotals and totals are summed again from the lines */
	if (streq(kind, "subtotal") || streq(kind, "total") ||
	    streq(cell(cells, n, head, nh, "category"), "total"))
		return NULL;
	if (!*pn)
		pn = cell(cells, n, head, nh, "part");
	m = strlen(pn) + strlen(len) + strlen(in) + strlen(kind) + 16;
	k = xmalloc(m);
	snprintf(k, m, "%s%s%s%s%s%s%s", pn, *len ? " " : "", len,
		 *len ? "m" : "", *in ? " in " : "", in,
		 streq(kind, "spare") ? " (spares)" : "");
	return k;
}

static const char *const bom_fields[] = {
	"category",	      "part", "length_m", "quantity", "unit_price_usd",
	"extended_price_usd", NULL,
};

/* ---- report.json ---- */

static const char *ws(const char *p)
{
	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
		p++;
	return p;
}

/* The end of the JSON value at @p (NULL if malformed). */
static const char *skip_value(const char *p)
{
	p = ws(p);
	if (*p == '"') {
		for (p++; *p && *p != '"'; p++)
			if (*p == '\\' && p[1])
				p++;
		return *p ? p + 1 : NULL;
	}
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';

		p = ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				p = skip_value(p); /* the key */
				if (!p || *(p = ws(p)) != ':')
					return NULL;
				p++;
			}
			p = skip_value(p);
			if (!p)
				return NULL;
			p = ws(p);
			if (*p == close)
				return p + 1;
			if (*p != ',')
				return NULL;
			p++;
		}
	}
	if (!*p)
		return NULL;
	while (*p && !strchr(",}] \n\t\r", *p))
		p++;
	return p;
}

/* A string value at @p (decoded: \" \\ \/ \n \t; others kept) into a
 * malloc'ed buffer. */
static char *json_str(const char *p, const char *end)
{
	char *o = xmalloc((size_t)(end - p) + 1), *q = o;

	for (p++, end--; p < end; p++) {
		if (*p == '\\' && p + 1 < end && strchr("\"\\/nt", p[1])) {
			p++;
			*q++ = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
		} else {
			*q++ = *p;
		}
	}
	*q = '\0';
	return o;
}

/* A value as a field: strings decoded, null empty, the rest as written
 * with the blanks outside strings taken out. */
static char *json_text(const char *p, const char *end)
{
	char *o, *q;
	bool in = false;

	if (*p == '"')
		return json_str(p, end);
	if (end - p == 4 && !strncmp(p, "null", 4))
		return xstrdup("");
	o = q = xmalloc((size_t)(end - p) + 1);
	for (; p < end; p++) {
		if (*p == '"' && (q == o || q[-1] != '\\'))
			in = !in;
		if (in || !strchr(" \n\t\r", *p))
			*q++ = *p;
	}
	*q = '\0';
	return o;
}

static bool read_report_array(struct builder *b, const char *text,
			      const char *name);

/* report.json's array @name (of objects with "name") into @t. */
static bool load_report_array(struct dv_table *t, const char *text,
			      const char *name, struct arena *a)
{
	struct builder b;
	bool ok;

	memset(&b, 0, sizeof(b));
	b.a = a;
	ok = read_report_array(&b, text, name);
	builder_finish(&b, t); /* frees the builder either way */
	return ok;
}

static bool read_report_array(struct builder *bp, const char *text,
			      const char *name)
{
	const char *p = ws(text);

	if (*p != '{')
		return false;
	p = ws(p + 1);
	while (*p == '"') {
		const char *k = p, *ke = skip_value(p), *v, *ve;

		if (!ke || *(v = ws(ke)) != ':')
			return false;
		v = ws(v + 1);
		if (!(ve = skip_value(v)))
			return false;
		if (ke - k == (ptrdiff_t)strlen(name) + 2 &&
		    !strncmp(k + 1, name, strlen(name)) && *v == '[') {
			const char *q = ws(v + 1);

			while (*q == '{') {
				const char *oe = skip_value(q), *f;
				struct row *r = NULL;

				if (!oe)
					return false;
				/* "name" first, for the key */
				for (int pass = 0; pass < 2; pass++)
					for (f = ws(q + 1); *f == '"';) {
						const char *fe = skip_value(f);
						const char *fv = ws(fe) + 1;
						const char *fve =
						    skip_value(fv);
						char *fn = json_str(f, fe);
						char *val;

						fv = ws(fv);
						val = json_text(fv, fve);
						if (pass == 0 &&
						    streq(fn, "name"))
							r = row_new(bp, val);
						else if (pass == 1 && r &&
							 !streq(fn, "name"))
							row_set(bp, r, fn, val,
								strlen(val));
						free(fn);
						free(val);
						f = ws(fve);
						if (*f == ',')
							f = ws(f + 1);
					}
				q = ws(oe);
				if (*q == ',')
					q = ws(q + 1);
			}
		}
		p = ws(ve);
		if (*p == ',')
			p = ws(p + 1);
	}
	return true;
}

/* ---- ir.rack: devices, places and findings ---- */

/* @um micrometres as metres, "2.4" (no trailing zeros). */
static const char *metres(struct arena *a, int64_t um)
{
	uint64_t v = um < 0 ? -(uint64_t)um : (uint64_t)um;
	char frac[8];
	int n;

	snprintf(frac, sizeof(frac), "%06llu",
		 (unsigned long long)(v % 1000000));
	for (n = 6; n && frac[n - 1] == '0'; n--)
		frac[n - 1] = '\0';
	return arena_printf(a, "%s%llu%s%s", um < 0 ? "-" : "",
			    (unsigned long long)(v / 1000000), n ? "." : "",
			    frac);
}

/* Where every row stands, and every rack or unit in a row: a row by its
 * x, y and pitch, a rack or unit by its row and slot (layout.h). */
static void load_places(struct builder *b, const struct rk_design *d)
{
	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *ob = &d->objs[i];
		uint32_t par = ob->parent;
		struct row *r;
		const char *v;

		if (ob->kind == K_ROW) {
			r = row_new(b, ir_name(d, i));
			row_set(b, r, "kind", "row", 3);
			v = metres(b->a, ir_num(d, i, A_X, 0));
			row_set(b, r, "x", v, strlen(v));
			v = metres(b->a, ir_num(d, i, A_Y, 0));
			row_set(b, r, "y", v, strlen(v));
			v = metres(b->a,
				   ir_num(d, i, A_PITCH, RK_DEFAULT_PITCH_UM));
			row_set(b, r, "pitch", v, strlen(v));
			continue;
		}
		if ((ob->kind != K_RACK && ob->kind != K_DEVICE) ||
		    par == RK_NONE || d->objs[par].kind != K_ROW)
			continue;
		r = row_new(b, ir_name(d, i));
		row_set(b, r, "kind", ob->kind == K_RACK ? "rack" : "unit", 4);
		row_set(b, r, "row", ir_name(d, par), strlen(ir_name(d, par)));
		v = arena_printf(b->a, "%lld",
				 (long long)ir_num(d, i, A_SLOT, 0));
		row_set(b, r, "slot", v, strlen(v));
	}
}

static bool load_ir(struct dv_side *s, const char *path, const char *stddir,
		    uint32_t max_source, uint32_t max_links, struct arena *a)
{
	struct rackc_options o;
	struct compilation c;
	struct derived dv;
	struct builder dev, fnd, plc;
	struct stat st;
	bool usage = false;
	int rc;

	memset(&o, 0, sizeof(o));
	o.input = path;
	o.stddir = stddir;
	o.max_source = max_source;
	o.max_links = max_links;
	o.diag_format = DIAG_TEXT;
	o.show_source = false;
	o.jobs = 1;
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "rackc: error: cannot read '%s': %s\n", path,
			strerror(errno));
		return false;
	}
	if (stat(path, &st) == 0 &&
	    st.st_size > (off_t)(max_source ? max_source : RK_MAX_FILE_SIZE)) {
		fprintf(stderr,
			"rackc: error: '%s' is larger than %u bytes (the "
			"source size limit; --max-source-bytes raises it)\n",
			path, max_source ? max_source : RK_MAX_FILE_SIZE);
		return false;
	}
	compilation_init(&c, &o, stderr);
	c.diag.defer = true; /* every diagnostic is a finding */
	rc = rackc_elaborate(&c);
	if (rc == RK_EXIT_USAGE || c.syntax_errors || c.resolve_errors) {
		fprintf(stderr,
			"rackc: error: '%s' does not compile; it is not the "
			"ir.rack of a run\n",
			path);
		compilation_fini(&c);
		return false;
	}
	derived_init(&dv, &c.design);
	if (rc == RK_EXIT_OK) {
		derived_prepare_init(&dv);
		for (unsigned p = 0; p < DERIVED_PARTS; p++)
			derived_prepare_part(&dv, p);
		checks_run(&c.design, &dv, &c.diag, &c.arena, NULL, 0, &usage);
	}
	memset(&dev, 0, sizeof(dev));
	dev.a = a;
	memset(&fnd, 0, sizeof(fnd));
	fnd.a = a;
	memset(&plc, 0, sizeof(plc));
	plc.a = a;
	load_places(&plc, &c.design);
	for (uint32_t i = 0; i < c.design.nobjs; i++) {
		const struct rk_design *d = &c.design;
		const struct rk_obj *ob = &d->objs[i];
		uint32_t rack;
		int64_t at;
		struct row *r;
		char u[24];

		if (ob->kind != K_DEVICE)
			continue;
		r = row_new(&dev, ir_name(d, i));
		if (ob->part != RK_NONE)
			row_set(&dev, r, "part", ir_name(d, ob->part),
				strlen(ir_name(d, ob->part)));
		else
			row_set(&dev, r, "part", "", 0);
		rack = layout_rack_of(d, i);
		row_set(&dev, r, "rack",
			rack == RK_NONE ? "" : ir_name(d, rack),
			rack == RK_NONE ? 0 : strlen(ir_name(d, rack)));
		at = layout_at(d, i);
		snprintf(u, sizeof(u), "%lld", (long long)at);
		row_set(&dev, r, "u", at >= 0 ? u : "",
			at >= 0 ? strlen(u) : 0);
	}
	for (uint32_t i = 0; i < c.diag.nrecs; i++) {
		const struct diag_record *dr = &c.diag.recs[i];
		char *k;
		struct row *r;

		if (dr->level == DIAG_NOTE)
			continue;
		/* identity: the check and the object, not the text (a
		 * figure that moves, a name in the message) */
		k = dr->object
			? arena_printf(a, "%s %s", dr->check ? dr->check : "-",
				       dr->object)
			: arena_printf(a, "%s - %s",
				       dr->check ? dr->check : "-",
				       dr->message);
		r = row_new(&fnd, k);
		row_set(&fnd, r, "level",
			dr->level == DIAG_ERROR ? "error" : "warning",
			dr->level == DIAG_ERROR ? 5 : 7);
		row_set(&fnd, r, "check", dr->check ? dr->check : "-",
			dr->check ? strlen(dr->check) : 1);
		row_set(&fnd, r, "message", dr->message, strlen(dr->message));
		row_set(&fnd, r, "figures", dr->figures ? dr->figures : "",
			dr->figures ? strlen(dr->figures) : 0);
	}
	builder_finish(&dev, &s->t[DV_DEVICES]);
	builder_finish(&fnd, &s->t[DV_FINDINGS]);
	builder_finish(&plc, &s->t[DV_PLACES]);
	derived_free(&dv);
	compilation_fini(&c);
	jobs_release_free_memory(); /* for the next side's */
	return true;
}

/* The tables of an output directory but the devices and findings. */
static bool load_tables(struct dv_side *s, const char *dir, struct arena *a)
{
	static const char *const names[] = { "racks", "feeds", "loops",
					     "fabrics" };
	static const enum dv_table_id ids[] = { DV_RACKS, DV_FEEDS, DV_LOOPS,
						DV_FABRICS };
	char *path;
	char *text;
	size_t len;
	bool ok;

	if (!load_cables(s, arena_printf(a, "%s/cabling.csv", dir), a) ||
	    !load_faces(s, arena_printf(a, "%s/cabling/patch.csv", dir), a) ||
	    !load_csv(&s->t[DV_BOM], arena_printf(a, "%s/bom.csv", dir),
		      bom_fields, bom_key, a))
		return false;
	path = arena_printf(a, "%s/report.json", dir);
	if (!(text = rk_slurp(path, &len))) {
		fprintf(stderr, "rackc: error: cannot read '%s': %s\n", path,
			strerror(errno));
		return false;
	}
	ok = true;
	for (unsigned i = 0; i < 4 && ok; i++)
		ok = load_report_array(&s->t[ids[i]], text, names[i], a);
	free(text);
	if (!ok)
		fprintf(stderr, "rackc: error: '%s' is not a report of rackc\n",
			path);
	return ok;
}

/* ---- designs ---- */

static bool compile_design(const struct dv_source *src, const char *stddir,
			   const char *dir)
{
	struct rackc_options o;

	memset(&o, 0, sizeof(o));
	o.input = src->path;
	o.outdir = dir;
	o.backends = "ir,report,bom,cabling";
	o.defines = src->defines;
	o.ndefines = src->ndefines;
	o.incdirs = src->incdirs;
	o.nincdirs = src->nincdirs;
	o.stddir = stddir;
	o.max_source = src->max_source;
	o.max_links = src->max_links;
	o.prices = src->prices;
	/* on one thread: a side's peak memory is the diff's */
	o.jobs = 1;
	return scratch_compile(&o, "ir.rack", "rackc");
}

int dv_field(const struct dv_table *t, const char *name)
{
	for (uint32_t i = 0; i < t->nf; i++)
		if (streq(t->fields[i], name))
			return (int)i;
	return -1;
}

/*
 * Both sides a stage at a time, so that no side's tables are held while
 * the other compiles: the designs into temporary directories, then each
 * side's ir.rack (its compilation released before the next), then the
 * tables.  The first failure stops.
 */
bool diff_load(struct dv_side s[2], const struct dv_source src[2],
	       const char *stddir, struct arena *a)
{
	const char *dir[2] = { NULL, NULL };
	char *tmp[2] = { NULL, NULL };
	bool ok = true;

	for (int k = 0; k < 2 && ok; k++) {
		struct stat st;

		memset(&s[k], 0, sizeof(s[k]));
		s[k].what = src[k].path;
		if (stat(src[k].path, &st) != 0) {
			fprintf(stderr, "rackc: error: cannot read '%s': %s\n",
				src[k].path, strerror(errno));
			ok = false;
		} else if (S_ISDIR(st.st_mode)) {
			if (src[k].ndefines || src[k].nincdirs || src[k].prices)
				fprintf(stderr,
					"rackc: warning: '%s' is an output "
					"directory: its -D, -I and --prices "
					"options are not used\n",
					src[k].path);
			dir[k] = src[k].path;
		} else {
			tmp[k] = scratch_make(a, "rackc", "rackc-diff");
			if (!tmp[k]) {
				ok = false;
			} else {
				dir[k] = tmp[k];
				ok = compile_design(&src[k], stddir, tmp[k]);
			}
		}
	}
	for (int k = 0; k < 2 && ok; k++)
		ok = load_ir(&s[k], arena_printf(a, "%s/ir.rack", dir[k]),
			     stddir, src[k].max_source, src[k].max_links, a);
	for (int k = 0; k < 2 && ok; k++)
		ok = load_tables(&s[k], dir[k], a);
	for (int k = 0; k < 2; k++)
		if (tmp[k])
			scratch_remove(tmp[k]);
	return ok;
}
