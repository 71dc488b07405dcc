/* SPDX-License-Identifier: MIT */
/*
 * The "cabling" back end: the cabling plan (src/analysis/cableplan.h) as a cut sheet.
 *
 *   cabling.csv        one row per cabled link, in link order
 *   cabling/pull.csv   the pull list: per rack (column pull_rack, racks in
 *                      declaration order), the links that start or end
 *                      there (a link inside one rack is listed once), each
 *                      seen from that rack: cable id and label, this end
 *                      (U, device, port), the far end (rack, U, device,
 *                      port), media, part number and stock length (a
 *                      length cut to order rounded up to the centimetre,
 *                      be_pull_length, as in the patch schedule)
 *   cabling/patch.csv  the patch schedule: per rack, port by port, every
 *                      cabled port with the far end (both ends by their
 *                      faceplate names); each cable under both its racks
 *
 * Columns: src/analysis/cablecols.def (fixed order; csv.h has the quoting rules).
 *
 * Links between backplane ports are not cabled and not listed.
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "be_common.h"
#include "cableplan.h"
#include "cablecols.h"
#include "cablelabel.h"
#include "metrics.h"
#include "csv.h"
#include "fabric.h"
#include "layout.h"
#include "schema.h"

static const char *const columns[] = {
#define CABLE_COL(id, name) name,
#include "cablecols.def"
#undef CABLE_COL
};

/* Endpoint port names of the fat-tree fabrics, for rails. */
struct rails {
	uint32_t fabric;
	uint32_t *names;
	uint32_t n;
};

/* One formatted length (metres()). */
#define METRES_MEMO 256
struct metres_memo {
	int64_t um;
	size_t n;
	char s[CSV_NUM_MAX];
};

struct sheet {
	const struct rk_design *d;
	const struct cable_plan *p;
	struct rails *rails;
	uint32_t nrails;
	uint32_t *rails_of; /* fabric object -> index in rails, RK_NONE */
	uint32_t cable;	    /* cable_facts() cache */
	int64_t stock;	    /* its stock length */
	uint32_t model, pn; /* interned, 0: none */
	const struct cable_labels *cl; /* labels, faceplates (derived) */
	const uint32_t *rack; /* object -> its rack (cl->rack), RK_NONE */
	const int64_t *at;    /* object -> its U (cl->at), -1 */
	struct loc *loc;      /* object -> its location cells (loc_of) */
	char *locs;	      /* the rendered cells of every struct loc */
	size_t nlocs, locs_cap;
	struct csv scratch;	      /* renders them */
	struct metres_memo *metres;   /* metres() */
	struct diag_engine *diag;     /* label warnings (cut sheet only) */
	struct srcloc *warned;	      /* where a long label was reported: */
	uint32_t nwarned, warned_cap; /* a hash set (warned_at()) */
};

/*
 * A device's location cells, rendered once however many cables it has:
 * "site,row,rack,u,device" from @off in sheet.locs; the pull list uses the
 * suffixes that start at the rack and at the U.
 */
struct loc {
	bool done;
	bool dev_plain; /* the device cell is its name as it is */
	uint32_t len, from_rack, from_u, from_dev;
	size_t off;
};

static void build_rails(struct sheet *s)
{
	const struct rk_design *d = s->d;
	uint32_t cap = 0;

	s->rails_of = xmalloc(((size_t)d->nobjs + 1) * sizeof(*s->rails_of));
	memset(s->rails_of, 0xff,
	       ((size_t)d->nobjs + 1) * sizeof(*s->rails_of));
	for (uint32_t f = 0; f < d->nobjs; f++) {
		const struct rk_obj *o = &d->objs[f];
		struct ir_ep_cursor c = { 0, 0 };
		struct rails *r;

		if (o->kind != K_FABRIC || o->cls != FAB_FAT_TREE)
			continue;
		s->rails_of[f] = s->nrails;
		r = VEC_PUSH(s->rails, s->nrails, cap);
		r->fabric = f;
		r->names = NULL;
		r->n = 0;
		for (const struct rk_value *v;
		     (v = ir_next_endpoint(d, f, &c));) {
			uint32_t nm = d->objs[v->n].local, j;

			for (j = 0; j < r->n && r->names[j] != nm; j++)
				;
			if (j < r->n)
				continue;
			r->names =
			    xrealloc(r->names, (r->n + 1) * sizeof(*r->names));
			r->names[r->n++] = nm;
		}
	}
}

/* Rail of a fat-tree endpoint link, or -1. */
static long rail_of(const struct sheet *s, const struct rk_link *l)
{
	const struct rk_design *d = s->d;

	if (l->fabric != RK_NONE && s->rails_of[l->fabric] != RK_NONE) {
		const struct rails *r = &s->rails[s->rails_of[l->fabric]];
		uint32_t port;

		/* the endpoint is the end the fabric did not generate */
		if (d->objs[l->a_dev].parent != l->fabric)
			port = l->a_port;
		else if (d->objs[l->b_dev].parent != l->fabric)
			port = l->b_port;
		else
			return -1;
		for (uint32_t j = 0; j < r->n; j++)
			if (r->names[j] == d->objs[port].local)
				return (long)j;
		return -1;
	}
	return -1;
}

static void cell_name(struct csv *w, const struct rk_design *d, uint32_t obj)
{
	if (obj != RK_NONE)
		csv_cell_str(w, d->arena, d->objs[obj].name);
	else
		csv_cell(w, NULL);
}

/* The U a device sits at, as a cell (empty when not placed). */
static void cell_u(struct csv *w, const struct sheet *s, uint32_t dev,
		   uint32_t rack)
{
	int64_t at = s->at[dev];

	if (rack != RK_NONE && at >= 1)
		csv_cell_u64(w, (uint64_t)at);
	else
		csv_cell(w, NULL);
}

static const struct loc *loc_of(struct sheet *s, uint32_t dev)
{
	const struct rk_design *d = s->d;
	struct loc *l = &s->loc[dev];
	struct csv *t = &s->scratch;
	uint32_t rack = s->rack[dev];

	if (l->done)
		return l;
	t->len = 0;
	t->col = 0;
	cell_name(t, d, ir_ancestor(d, rack, K_SITE));
	cell_name(t, d, ir_ancestor(d, rack, K_ROW));
	l->from_rack = (uint32_t)t->len + 1; /* past the separator */
	cell_name(t, d, rack);
	l->from_u = (uint32_t)t->len + 1;
	cell_u(t, s, dev, rack);
	l->from_dev = (uint32_t)t->len + 1;
	l->dev_plain = csv_str_plain(t, d->arena, d->objs[dev].name);
	cell_name(t, d, dev);
	l->len = (uint32_t)t->len;
	l->off = s->nlocs;
	if (s->nlocs + t->len > s->locs_cap) {
		while (s->nlocs + t->len > s->locs_cap)
			s->locs_cap = s->locs_cap ? 2 * s->locs_cap : 1 << 16;
		s->locs = xrealloc(s->locs, s->locs_cap);
	}
	memcpy(s->locs + s->nlocs, t->buf, t->len);
	s->nlocs += t->len;
	l->done = true;
	return l;
}

/* The cable id of link @li (cableplan.h) into @buf; returns its length. */
static size_t cable_id(const struct sheet *s, uint32_t li, char buf[72])
{
	return cableplan_id_str(s->p->links[li].id - 1, buf);
}

/* csv_metres() of lengths, which repeat: the last few are kept. */
static const char *metres(struct sheet *s, int64_t um, size_t *n)
{
	struct metres_memo *m = &s->metres[(uint64_t)um % METRES_MEMO];

	if (m->um != um || !m->n) {
		char buf[CSV_NUM_MAX];

		csv_metres(um, buf);
		m->um = um;
		m->n = strlen(buf);
		memcpy(m->s, buf, m->n);
	}
	*n = m->n;
	return m->s;
}

/* The characters of a one-line standard cable label: a longer label
 * (cablelabel.h) is a warning naming the cable. */
#define LABEL_LIMIT 40

/* A row of a site and its code in labels (cable_row_code()). */
struct row_code {
	uint32_t site, row;
	const char *s;
	size_t n;
};

static int row_code_cmp(const void *x, const void *y)
{
	const struct row_code *a = x, *b = y;
	int c;

	if (a->site != b->site)
		return a->site < b->site ? -1 : 1;
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	c = memcmp(a->s, b->s, a->n);
	if (c)
		return c;
	return a->row < b->row ? -1 : a->row > b->row;
}

/* Two rows of a site whose labels name them alike ({a.row}, and {a.rack}
 * of the default template): a warning at the later one.  Sorted once:
 * O(r log r) in the rows. */
static void check_row_codes(struct sheet *s)
{
	const struct rk_design *d = s->d;
	struct row_code *rc = NULL;
	char(*num)[CABLE_CODE_MAX] = NULL;
	uint32_t n = 0, cap = 0, nrows = 0;

	for (uint32_t i = 0; i < d->nobjs; i++)
		nrows += d->objs[i].kind == K_ROW;
	if (nrows < 2)
		return;
	num = xmalloc((size_t)nrows * sizeof(*num));
	for (uint32_t i = 0; i < d->nobjs; i++) {
		uint32_t site;
		const char *t;
		struct row_code *r;

		if (d->objs[i].kind != K_ROW)
			continue;
		site = ir_ancestor(d, i, K_SITE);
		t = site != RK_NONE ? ir_str(d, site, A_LABEL) : NULL;
		if (!t)
			t = CABLE_LABEL_DEFAULT;
		if (!strstr(t, ".row}") && !strstr(t, ".rack}"))
			continue;
		r = VEC_PUSH(rc, n, cap);
		r->site = site;
		r->row = i;
		r->s = cable_row_code(d, i, num[n - 1], &r->n);
	}
	if (n > 1)
		qsort(rc, n, sizeof(*rc), row_code_cmp);
	for (uint32_t k = 1; k < n; k++) {
		const struct row_code *a = &rc[k - 1], *b = &rc[k];

		if (a->site != b->site || a->n != b->n ||
		    memcmp(a->s, b->s, a->n))
			continue;
		diag_warning(s->diag, &d->objs[b->row].loc, "cabling",
			     "rows %s and %s both read '%.*s' in cable labels, "
			     "which then do not say which row a cable ends "
			     "in; give one a label_code",
			     ir_name(d, a->row), ir_name(d, b->row), (int)b->n,
			     b->s);
	}
	free(rc);
	free(num);
}

/* Every site's label template names known fields only (an error at the
 * template otherwise); false if one does not. */
static bool check_templates(struct sheet *s)
{
	const struct rk_design *d = s->d;
	bool ok = true;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_value *v;
		const char *t;

		if (d->objs[i].kind != K_SITE ||
		    !(v = ir_attr_inh(d, i, A_LABEL)) || v->type != VT_STR)
			continue;
		t = str_of(d->arena, v->a);
		for (const char *q = strchr(t, '{'); q;
		     q = strchr(q + 1, '{')) {
			const char *e = strchr(q, '}');

			if (!e)
				break;
			if (!cable_label_field_known(q + 1,
						     (size_t)(e - q - 1))) {
				if (s->diag)
					diag_error(
					    s->diag, &v->loc, "cabling",
					    "unknown field '%.*s' in the label "
					    "template (known: {id}, and {a.X} "
					    "or {b.X} for X in row, rack, u, "
					    "device, port)",
					    (int)(e - q + 1), q);
				ok = false;
			}
		}
	}
	return ok;
}

/*
 * Whether a long label was reported at @loc already (and note it if not):
 * the cables one statement makes (a fabric's thousands) share its place,
 * and after the first the others count as repeats (diag_repeat), so a
 * million-GPU hall whose rack numbers make every label one character too
 * long gives one warning, not one per cable to format and keep.
 */
static bool warned_at(struct sheet *s, const struct srcloc *loc)
{
	uint32_t i, mask;

	if (2 * (s->nwarned + 1) > s->warned_cap) {
		uint32_t ncap = s->warned_cap ? 2 * s->warned_cap : 64;
		struct srcloc *t = xmalloc(ncap * sizeof(*t));

		memset(t, 0xff, ncap * sizeof(*t));
		for (uint32_t k = 0; k < s->warned_cap; k++) {
			const struct srcloc *o = &s->warned[k];

			if (o->file == UINT32_MAX)
				continue;
			for (i = (o->file * 31 + o->begin) & (ncap - 1);
			     t[i].file != UINT32_MAX; i = (i + 1) & (ncap - 1))
				;
			t[i] = *o;
		}
		free(s->warned);
		s->warned = t;
		s->warned_cap = ncap;
	}
	mask = s->warned_cap - 1;
	for (i = (loc->file * 31 + loc->begin) & mask;
	     s->warned[i].file != UINT32_MAX; i = (i + 1) & mask)
		if (s->warned[i].file == loc->file &&
		    s->warned[i].begin == loc->begin &&
		    s->warned[i].end == loc->end)
			return true;
	s->warned[i] = *loc;
	s->nwarned++;
	return false;
}

/* A string or word attribute as its interned id, 0 when there is none. */
static uint32_t str_id(const struct rk_design *d, uint32_t obj, uint32_t key)
{
	const struct rk_value *v = ir_attr_inh(d, obj, key);

	return v && (v->type == VT_STR || v->type == VT_WORD) ? v->a : 0;
}

/* A cable part's model and the part number of its stock length (the last
 * one asked for is kept: consecutive links mostly share their cable). */
static void cable_facts(struct sheet *s, uint32_t cable, int64_t stock,
			uint32_t *model, uint32_t *pn)
{
	if (cable != s->cable || stock != s->stock) {
		s->cable = cable;
		s->stock = stock;
		s->model = str_id(s->d, cable, A_MODEL);
		s->pn = be_part_number(s->d, cable, stock);
	}
	*model = s->model;
	*pn = s->pn;
}

/* A cell of interned string or word @id (0: empty) at @o. */
static char *put_word(struct csv *w, const struct rk_design *d, uint32_t id,
		      char *o)
{
	return id ? csv_put_str(w, o, d->arena, id) : o;
}

/* Length @um at @o (negative: an empty cell); returns the end. */
static char *put_metres(struct sheet *s, int64_t um, char *o)
{
	size_t n;
	const char *t;

	if (um < 0)
		return o;
	t = metres(s, um, &n);
	return rk_put(o, t, n); /* digits and a point */
}

/* The full name of object @obj (RK_NONE: an empty cell) at @o. */
static char *put_name(struct csv *w, const struct rk_design *d, uint32_t obj,
		      char *o)
{
	return obj != RK_NONE ? csv_put_str(w, o, d->arena, d->objs[obj].name)
			      : o;
}

/* The longest a put_name() cell can be. */
static size_t name_max(const struct rk_design *d, uint32_t obj)
{
	return obj != RK_NONE
		   ? CSV_CELL_MAX(strlen_of(d->arena, d->objs[obj].name))
		   : 1;
}

/* One cut-sheet row, written as a whole like pull_row(). */
static void row(struct sheet *s, struct csv *w, uint32_t li)
{
	const struct rk_design *d = s->d;
	const struct arena *a = d->arena;
	const struct rk_link *l = &d->links[li];
	const struct cp_link *r = &s->p->links[li];
	const struct loc *la = loc_of(s, l->a_dev), *lb = loc_of(s, l->b_dev);
	char id[72]; /* roomy: rk_put may copy it in words */
	size_t idn = cable_id(s, li, id);
	long rail = rail_of(s, l);
	uint32_t model = 0, pn = 0;
	const char *note = cableplan_reason(r);
	size_t nn = note ? strlen(note) : 0, ln;
	const char *lab = cable_label(s->cl, li, &ln);
	char *o;

	if (ln > LABEL_LIMIT && s->diag && warned_at(s, &l->loc))
		diag_repeat(s->diag, DIAG_WARNING);
	else if (ln > LABEL_LIMIT && s->diag)
		diag_warning(s->diag, &l->loc, "cabling",
			     "the label of cable %.*s is %zu characters, "
			     "longer than the %d of a one-line cable label: "
			     "\"%.*s\"",
			     (int)idn, id, ln, LABEL_LIMIT, (int)ln, lab);
	if (r->cable != RK_NONE)
		cable_facts(s, r->cable, r->stock, &model, &pn);
	o = csv_room(
	    w, idn + 1 + CSV_CELL_MAX(ln) + la->len + 1 +
		   CSV_CELL_MAX(strlen_of(a, d->objs[l->a_port].local)) +
		   lb->len + 1 +
		   CSV_CELL_MAX(strlen_of(a, d->objs[l->b_port].local)) +
		   name_max(d, l->fabric) + CSV_NUM_MAX /* rail */ +
		   CSV_CELL_MAX(strlen_of(a, r->media)) +
		   name_max(d, r->cable) + CSV_CELL_MAX(strlen_of(a, model)) +
		   CSV_CELL_MAX(strlen_of(a, pn)) + 2 * CSV_NUM_MAX +
		   name_max(d, r->xcvr[0]) + name_max(d, r->xcvr[1]) +
		   CSV_CELL_MAX(nn) + 1);
	o = rk_put(o, id, idn); /* "C" and digits */
	*o++ = ',';
	o = csv_put_cell(o, lab, ln);
	/* each end: site, row, rack, U and device, then the port */
	*o++ = ',';
	o = rk_put(o, s->locs + la->off, la->len);
	*o++ = ',';
	o = csv_put_str(w, o, a, d->objs[l->a_port].local);
	*o++ = ',';
	o = rk_put(o, s->locs + lb->off, lb->len);
	*o++ = ',';
	o = csv_put_str(w, o, a, d->objs[l->b_port].local);
	*o++ = ',';
	o = put_name(w, d, l->fabric, o);
	*o++ = ',';
	if (rail >= 0)
		o = u64_put(o, (uint64_t)rail);
	*o++ = ',';
	o = put_word(w, d, r->media, o);
	*o++ = ',';
	o = put_name(w, d, r->cable, o);
	*o++ = ',';
	o = put_word(w, d, model, o);
	*o++ = ',';
	o = put_word(w, d, pn, o);
	*o++ = ',';
	o = put_metres(s, r->stock, o);
	*o++ = ',';
	o = put_metres(s, r->length, o);
	*o++ = ',';
	o = put_name(w, d, r->xcvr[0], o);
	*o++ = ',';
	o = put_name(w, d, r->xcvr[1], o);
	*o++ = ',';
	o = csv_put_cell(o, note, nn);
	csv_row_end(w, o);
}

/* Pull-list columns (pullcols.def): what a technician at the rack needs. */
static const char *const pull_columns[] = {
#define PULL_COL(id, name, sheet) [PULLCOL_##id] = name,
#include "pullcols.def"
#undef PULL_COL
};

/*
 * One pull-list row: link @li seen from rack @rack, written as a whole
 * (room for its longest form first, then the cells one after another).
 */
static void pull_row(struct sheet *s, struct csv *w, uint32_t rack, uint32_t li)
{
	const struct rk_design *d = s->d;
	const struct arena *a = d->arena;
	const struct rk_link *l = &d->links[li];
	const struct cp_link *r = &s->p->links[li];
	bool a_here = s->rack[l->a_dev] == rack;
	uint32_t here = a_here ? l->a_dev : l->b_dev;
	uint32_t hport = a_here ? l->a_port : l->b_port;
	uint32_t far = a_here ? l->b_dev : l->a_dev;
	uint32_t fport = a_here ? l->b_port : l->a_port;
	const struct loc *lh = loc_of(s, here), *lf = loc_of(s, far);
	uint32_t pn = 0, media = r->media, model = 0;
	char id[72]; /* roomy: rk_put may copy it in words */
	size_t idn = cable_id(s, li, id), mn = 0, ln;
	const char *m =
	    r->stock >= 0 ? metres(s, be_pull_length(r->stock), &mn) : NULL;
	const char *lab = cable_label(s->cl, li, &ln);
	char *o;

	if (r->cable != RK_NONE)
		cable_facts(s, r->cable, r->stock, &model, &pn);
	o = csv_room(w, CSV_CELL_MAX(strlen_of(a, d->objs[rack].name)) + idn +
			    1 + CSV_CELL_MAX(ln) + (lh->len - lh->from_u) + 1 +
			    CSV_CELL_MAX(strlen_of(a, d->objs[hport].local)) +
			    (lf->len - lf->from_rack) + 1 +
			    CSV_CELL_MAX(strlen_of(a, d->objs[fport].local)) +
			    CSV_CELL_MAX(strlen_of(a, media)) +
			    CSV_CELL_MAX(strlen_of(a, pn)) + mn + 1);
	o = csv_put_str(w, o, a, d->objs[rack].name);
	*o++ = ',';
	o = rk_put(o, id, idn); /* "C" and digits */
	*o++ = ',';
	o = csv_put_cell(o, lab, ln);
	/* this end: U and device (its rack is the pull rack) */
	*o++ = ',';
	o = rk_put(o, s->locs + lh->off + lh->from_u, lh->len - lh->from_u);
	*o++ = ',';
	o = csv_put_str(w, o, a, d->objs[hport].local);
	/* the far end: rack, U and device */
	*o++ = ',';
	o = rk_put(o, s->locs + lf->off + lf->from_rack,
		   lf->len - lf->from_rack);
	*o++ = ',';
	o = csv_put_str(w, o, a, d->objs[fport].local);
	*o++ = ',';
	o = put_word(w, d, media, o);
	*o++ = ',';
	o = put_word(w, d, pn, o);
	*o++ = ',';
	if (m)
		o = rk_put(o, m, mn); /* digits and a point */
	csv_row_end(w, o);
}

/*
 * The pull list: one file, grouped by rack (racks in declaration order),
 * each rack's rows being the links that start or end there.  One file
 * rather than one per rack: a hall of thousands of racks would otherwise
 * cost thousands of file creations; a spreadsheet filters by pull_rack.
 */
static bool emit_pull(struct backend_ctx *ctx, struct sheet *s)
{
	const struct rk_design *d = s->d;
	uint32_t *start, *entry;
	FILE *fp;
	struct csv w;
	bool ok;

	be_pull_index(d, s->p, s->rack, &start, &entry);
	fp = out_open(ctx, "cabling/pull.csv");
	ok = fp != NULL;
	if (ok) {
		csv_init(&w, fp);
		csv_header(&w, pull_columns, ARRAY_SIZE(pull_columns));
		for (uint32_t r = 0; r < d->nobjs && !be_cancelled(ctx); r++)
			for (uint32_t k = start[r]; k < start[r + 1]; k++)
				pull_row(s, &w, r, entry[k]);
		csv_fini(&w);
		ok = out_close(ctx, fp) && !be_cancelled(ctx);
	}
	free(entry);
	free(start);
	return ok;
}

/* Patch-schedule columns: every port of a rack that is cabled. */
static const char *const patch_columns[] = {
	"rack",		 "u",	     "device",	 "port",       "faceplate",
	"cable_id",	 "far_rack", "far_u",	 "far_device", "far_port",
	"far_faceplate", "media",    "length_m",
};

/* One end of a cable in the patch schedule, as its rack's ends are
 * sorted. */
struct patch_end {
	int64_t u;
	uint32_t dev, port, link;
};

static int patch_cmp(const void *x, const void *y)
{
	const struct patch_end *a = x, *b = y;

	if (a->u != b->u)
		return a->u < b->u ? -1 : 1;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->port != b->port)
		return a->port < b->port ? -1 : 1;
	return a->link < b->link ? -1 : a->link > b->link;
}

/* One patch-schedule row: end @e of its link, written as a whole like
 * pull_row(). */
static void patch_row(struct sheet *s, struct csv *w, const struct patch_end *e)
{
	const struct rk_design *d = s->d;
	const struct arena *a = d->arena;
	const struct rk_link *l = &d->links[e->link];
	const struct cp_link *r = &s->p->links[e->link];
	bool a_here = e->dev == l->a_dev && e->port == l->a_port;
	uint32_t far = a_here ? l->b_dev : l->a_dev;
	uint32_t fport = a_here ? l->b_port : l->a_port;
	const struct loc *lh = loc_of(s, e->dev), *lf = loc_of(s, far);
	char id[72]; /* roomy: rk_put may copy it in words */
	size_t idn = cable_id(s, e->link, id), hn, fn, mn = 0;
	const char *hf = cable_face(s->cl, e->port, &hn);
	const char *ff = cable_face(s->cl, fport, &fn);
	const char *m =
	    r->stock >= 0 ? metres(s, be_pull_length(r->stock), &mn) : NULL;
	char *o;

	o = csv_room(w, (lh->len - lh->from_rack) +
			    CSV_CELL_MAX(strlen_of(a, d->objs[e->port].local)) +
			    CSV_CELL_MAX(hn) + idn + (lf->len - lf->from_rack) +
			    CSV_CELL_MAX(strlen_of(a, d->objs[fport].local)) +
			    CSV_CELL_MAX(fn) +
			    CSV_CELL_MAX(strlen_of(a, r->media)) + mn +
			    8 /* the commas between */);
	/* this end: rack, U and device (loc_of()), port and faceplate */
	o = rk_put(o, s->locs + lh->off + lh->from_rack,
		   lh->len - lh->from_rack);
	*o++ = ',';
	o = csv_put_str(w, o, a, d->objs[e->port].local);
	*o++ = ',';
	o = csv_put_cell(o, hf, hn);
	*o++ = ',';
	o = rk_put(o, id, idn); /* "C" and digits */
	/* the far end the same way */
	*o++ = ',';
	o = rk_put(o, s->locs + lf->off + lf->from_rack,
		   lf->len - lf->from_rack);
	*o++ = ',';
	o = csv_put_str(w, o, a, d->objs[fport].local);
	*o++ = ',';
	o = csv_put_cell(o, ff, fn);
	*o++ = ',';
	o = put_word(w, d, r->media, o);
	*o++ = ',';
	if (m)
		o = rk_put(o, m, mn); /* digits and a point */
	csv_row_end(w, o);
}

/*
 * The patch schedule: per rack (racks in declaration order), port by port
 * (devices by U, then ports in declaration order), each cabled port of
 * the rack with the far end of its cable.  Each cable appears twice, once
 * under the rack of each end, that end first (a cable inside one rack
 * appears twice under it).  The ends are bucketed by rack as the pull
 * list's links are (a counting sort, in link order), and only each rack's
 * few ends are sorted, by U, device, port and link: one sort of every end
 * of a million-GPU hall (7.6 million) cost more than the rows it ordered.
 */
static bool emit_patch(struct backend_ctx *ctx, struct sheet *s)
{
	const struct rk_design *d = s->d;
	uint32_t *start = xcalloc((size_t)d->nobjs + 2, sizeof(*start));
	uint32_t *fill = xmalloc(((size_t)d->nobjs + 1) * sizeof(*fill));
	uint32_t *entry = NULL, total = 0, most = 0;
	struct patch_end *e;
	FILE *fp;
	struct csv w;
	bool ok;

	/* pass 0 counts each rack's ends, pass 1 fills the buckets (a link
	 * with both ends in one rack twice, one entry after the other) */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < d->nlinks; i++) {
			const struct rk_link *l = &d->links[i];

			if (!s->p->links[i].label_no)
				continue;
			for (int k = 0; k < 2; k++) {
				uint32_t r = s->rack[k ? l->b_dev : l->a_dev];

				if (r == RK_NONE)
					continue;
				if (pass)
					entry[fill[r]++] = i;
				else
					start[r + 1]++;
			}
		}
		if (pass)
			break;
		for (uint32_t i = 0; i < d->nobjs; i++) {
			if (start[i + 1] > most)
				most = start[i + 1];
			total += start[i + 1];
			start[i + 1] = total;
		}
		entry = xmalloc(((size_t)total + 1) * sizeof(*entry));
		memcpy(fill, start, (size_t)d->nobjs * sizeof(*fill));
	}
	free(fill);
	e = xmalloc(((size_t)most + 1) * sizeof(*e));
	fp = out_open(ctx, "cabling/patch.csv");
	ok = fp != NULL;
	if (ok) {
		csv_init(&w, fp);
		csv_header(&w, patch_columns, ARRAY_SIZE(patch_columns));
		for (uint32_t r = 0; r < d->nobjs && !be_cancelled(ctx); r++) {
			uint32_t n = 0;

			for (uint32_t k = start[r]; k < start[r + 1]; k++) {
				const struct rk_link *l = &d->links[entry[k]];
				/* the second entry of a link is its b end */
				bool b = (k > start[r] &&
					  entry[k - 1] == entry[k]) ||
					 s->rack[l->a_dev] != r;

				e[n].dev = b ? l->b_dev : l->a_dev;
				e[n].port = b ? l->b_port : l->a_port;
				e[n].link = entry[k];
				e[n].u = s->at[e[n].dev];
				n++;
			}
			if (n > 1)
				qsort(e, n, sizeof(*e), patch_cmp);
			for (uint32_t k = 0; k < n; k++)
				patch_row(s, &w, &e[k]);
		}
		csv_fini(&w);
		ok = out_close(ctx, fp) && !be_cancelled(ctx);
	}
	free(e);
	free(entry);
	free(start);
	return ok;
}

/* The sheet (part 0: cabling.csv), the pull list (part 1) or the patch
 * schedule (part 2). */
static bool emit_cabling(struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	struct sheet s;
	bool ok;

	memset(&s, 0, sizeof(s));
	s.d = d;
	s.p = derived_cableplan(ctx->dv);
	s.cable = RK_NONE;
	s.cl = derived_labels(ctx->dv);
	s.rack = s.cl->rack;
	s.at = s.cl->at;
	s.loc = xcalloc((size_t)d->nobjs + 1, sizeof(*s.loc));
	s.metres = xcalloc(METRES_MEMO, sizeof(*s.metres));
	csv_init(&s.scratch, NULL);
	if (ctx->part == 0)
		s.diag =
		    ctx->diag; /* the cut sheet reports, the pull list not */
	ok = check_templates(&s);
	if (ok && s.diag)
		check_row_codes(&s);
	if (!ok) {
		/* nothing written: the template is in error */
	} else if (ctx->part == 0) {
		FILE *fp = out_open(ctx, "cabling.csv");
		struct csv w;

		ok = fp != NULL;
		if (ok) {
			build_rails(&s);
			csv_init(&w, fp);
			csv_header(&w, columns, ARRAY_SIZE(columns));
			for (uint32_t i = 0; i < d->nlinks; i++) {
				if (s.p->links[i].label_no)
					row(&s, &w, i);
				if (!(i & 4095) && be_cancelled(ctx))
					break;
			}
			csv_fini(&w);
			ok = out_close(ctx, fp) && !be_cancelled(ctx);
		}
	} else if (ctx->part == 1) {
		ok = emit_pull(ctx, &s);
	} else {
		ok = emit_patch(ctx, &s);
	}
	for (uint32_t i = 0; i < s.nrails; i++)
		free(s.rails[i].names);
	free(s.rails);
	free(s.rails_of);
	free(s.loc);
	free(s.locs);
	free(s.metres);
	free(s.warned);
	s.scratch.len = 0; /* rendered cells only: nothing to write */
	csv_fini(&s.scratch);
	return ok;
}

static const char *const cabling_parts[] = { "cabling", "cabling (pull)",
					     "cabling (patch)" };

const struct backend backend_cabling = {
	.name = "cabling",
	.summary = "cabling.csv, cabling/pull.csv and cabling/patch.csv: the "
		   "cable plan, one row per cable, and per rack",
	.emit = emit_cabling,
	.needs = BE_NEEDS_PLAN | BE_NEEDS_LABELS,
	.parts = 3,
	.part_names = cabling_parts,
	.weight = 8,
};
