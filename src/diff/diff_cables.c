/* SPDX-License-Identifier: MIT */
/*
 * The cables of `rackc diff` (diff.h): a side's cabling.csv read a record
 * at a time into compact records (the cable ID and label in one arena
 * string, every other field an interned id shared by both sides, so that
 * equal fields compare as integers), sorted by cable ID; then the two
 * sides compared in one merge into a work order of small items (rack,
 * action, the cable on each side) whose rows are written out only when the
 * output is, a row at a time.  A million-GPU design has some 3.8 million
 * cables: this keeps about 85 bytes per cable and side (32 for the record,
 * the rest its ID and label), where a table of strings per field took
 * several times that.
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>

#include "cablecols.h"
#include "diff.h"

/* The cabling.csv columns of the fields, in enum dv_cable_field order. */
static const enum cabcol cf_col[DC_NF] = {
	CABCOL_FABRIC,
	CABCOL_A_RACK,
	CABCOL_A_U,
	CABCOL_A_DEVICE,
	CABCOL_A_PORT,
	CABCOL_B_RACK,
	CABCOL_B_U,
	CABCOL_B_DEVICE,
	CABCOL_B_PORT,
	CABCOL_MEDIA,
	CABCOL_PART,
	CABCOL_LENGTH_M,
	CABCOL_COMPUTED_LENGTH_M,
	CABCOL_A_TRANSCEIVER,
	CABCOL_B_TRANSCEIVER,
};

/* ---- tuples of ids ---- */

static uint32_t tuple_hash(const uint32_t *w, uint32_t k)
{
	uint32_t h = 2166136261u;

	for (uint32_t i = 0; i < k; i++)
		h = (h ^ w[i]) * 16777619u;
	return h ^ (h >> 15);
}

/* The index of tuple @w in @t, added if new. */
static uint32_t tuple_id(struct dv_tuples *t, const uint32_t *w)
{
	uint32_t i;

	if ((uint64_t)(t->n + 1) * 2 > t->scap) {
		uint32_t ncap = t->scap ? t->scap * 2 : 1024;

		free(t->slot);
		t->slot = xcalloc(ncap, sizeof(*t->slot));
		t->scap = ncap;
		for (uint32_t x = 0; x < t->n; x++) {
			for (i = tuple_hash(t->w + (size_t)x * t->k, t->k) &
				 (ncap - 1);
			     t->slot[i]; i = (i + 1) & (ncap - 1))
				;
			t->slot[i] = x + 1;
		}
	}
	for (i = tuple_hash(w, t->k) & (t->scap - 1); t->slot[i];
	     i = (i + 1) & (t->scap - 1))
		if (!memcmp(t->w + (size_t)(t->slot[i] - 1) * t->k, w,
			    t->k * sizeof(*w)))
			return t->slot[i] - 1;
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 256;
		t->w = xrealloc(t->w, (size_t)t->cap * t->k * sizeof(*t->w));
	}
	memcpy(t->w + (size_t)t->n * t->k, w, t->k * sizeof(*w));
	t->slot[i] = t->n + 1;
	return t->n++;
}

uint32_t dv_cable_field(const struct dv_cables *t, uint32_t r,
			enum dv_cable_field f)
{
	const struct dv_cable *c = &t->c[r];
	const uint32_t *pa = t->places.w + (size_t)c->place[0] * DV_PLACE_K;
	const uint32_t *pb = t->places.w + (size_t)c->place[1] * DV_PLACE_K;
	const uint32_t *k = t->kinds.w + (size_t)c->kind * DV_KIND_K;

	switch (f) {
	case DC_FABRIC:
		return k[DV_KIND_FABRIC];
	case DC_A_RACK:
		return pa[DV_PLACE_RACK];
	case DC_A_U:
		return pa[DV_PLACE_U];
	case DC_A_DEVICE:
		return pa[DV_PLACE_DEVICE];
	case DC_A_PORT:
		return c->port[0];
	case DC_B_RACK:
		return pb[DV_PLACE_RACK];
	case DC_B_U:
		return pb[DV_PLACE_U];
	case DC_B_DEVICE:
		return pb[DV_PLACE_DEVICE];
	case DC_B_PORT:
		return c->port[1];
	case DC_MEDIA:
		return k[DV_KIND_MEDIA];
	case DC_PART:
		return k[DV_KIND_PART];
	case DC_LENGTH:
		return k[DV_KIND_LENGTH];
	case DC_COMPUTED:
		return c->computed;
	case DC_A_TR:
		return k[DV_KIND_A_TR];
	case DC_B_TR:
		return k[DV_KIND_B_TR];
	default:
		BUG("no such cable field");
	}
}

/* ---- loading ---- */

static int col_of(char **head, uint32_t nh, const char *name)
{
	for (uint32_t i = 0; i < nh; i++)
		if (streq(head[i], name))
			return (int)i;
	return -1;
}

void dv_cables_begin(struct dv_cable_loader *l, struct dv_cables *t,
		     struct arena *a)
{
	memset(l, 0, sizeof(*l));
	memset(t, 0, sizeof(*t));
	l->t = t;
	l->a = a;
	l->id_col = l->label_col = -1;
	t->places.k = DV_PLACE_K;
	t->kinds.k = DV_KIND_K;
}

void dv_cables_add(struct dv_cable_loader *l, char **cells, uint32_t n,
		   char **head, uint32_t nh)
{
	struct dv_cables *t = l->t;
	struct dv_cable *c;
	const char *id, *label;
	size_t il, ll;
	char *s;
	uint32_t f[DC_NF];

	if (!l->cols_known) {
		l->id_col = col_of(head, nh, cabcol_name(CABCOL_CABLE_ID));
		l->label_col = col_of(head, nh, cabcol_name(CABCOL_LABEL));
		for (int k = 0; k < DC_NF; k++)
			l->col[k] = col_of(head, nh, cabcol_name(cf_col[k]));
		l->cols_known = true;
	}
	id = l->id_col >= 0 && (uint32_t)l->id_col < n ? cells[l->id_col] : "";
	if (!*id)
		return; /* no ID: not a cable */
	label = l->label_col >= 0 && (uint32_t)l->label_col < n
		    ? cells[l->label_col]
		    : "";
	c = VEC_PUSH(t->c, t->n, l->cap);
	il = strlen(id);
	ll = strlen(label);
	s = arena_alloc(l->a, il + ll + 2);
	memcpy(s, id, il + 1);
	memcpy(s + il + 1, label, ll + 1);
	c->key = s;
	for (int k = 0; k < DC_NF; k++) {
		const char *v = l->col[k] >= 0 && (uint32_t)l->col[k] < n
				    ? cells[l->col[k]]
				    : "";
		size_t len = strlen(v);

		/* most fields repeat from one cable to the next */
		if (l->last[k] && strlen_of(l->a, l->last[k]) == len &&
		    !memcmp(str_of(l->a, l->last[k]), v, len))
			f[k] = l->last[k];
		else
			f[k] = l->last[k] = len ? intern(l->a, v, len) : 0;
	}
	{
		const uint32_t pa[DV_PLACE_K] = { f[DC_A_RACK], f[DC_A_U],
						  f[DC_A_DEVICE] };
		const uint32_t pb[DV_PLACE_K] = { f[DC_B_RACK], f[DC_B_U],
						  f[DC_B_DEVICE] };
		const uint32_t kd[DV_KIND_K] = { f[DC_FABRIC], f[DC_MEDIA],
						 f[DC_PART],   f[DC_LENGTH],
						 f[DC_A_TR],   f[DC_B_TR] };

		c->place[0] = tuple_id(&t->places, pa);
		c->place[1] = tuple_id(&t->places, pb);
		c->kind = tuple_id(&t->kinds, kd);
	}
	c->port[0] = f[DC_A_PORT];
	c->port[1] = f[DC_B_PORT];
	c->computed = f[DC_COMPUTED];
}

struct keyed {
	const char *key;
	uint32_t seq;
};

static int keyed_cmp(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int c = dv_keycmp(a->key, b->key);

	/* equal keys stay in the order they came */
	return c ? c : (a->seq < b->seq ? -1 : a->seq > b->seq);
}

void dv_cables_finish(struct dv_cable_loader *l)
{
	struct dv_cables *t = l->t;
	struct keyed *k;
	uint32_t *perm;
	const char *prev = NULL;

	for (int s = 0; s < 2; s++) {
		struct dv_tuples *tu = s ? &t->kinds : &t->places;

		free(tu->slot);
		tu->slot = NULL;
		tu->scap = 0;
		arena_own(l->a, (void **)&tu->w);
	}
	if (!t->n)
		return;
	/* no room left over from the growth */
	t->c = xrealloc(t->c, (size_t)t->n * sizeof(*t->c));
	k = xmalloc((size_t)t->n * sizeof(*k));
	for (uint32_t i = 0; i < t->n; i++) {
		k[i].key = t->c[i].key;
		k[i].seq = i;
	}
	qsort(k, t->n, sizeof(*k), keyed_cmp);
	perm = xmalloc((size_t)t->n * sizeof(*perm));
	for (uint32_t i = 0; i < t->n; i++)
		perm[i] = k[i].seq;
	free(k);
	/* into key order in place: position i takes record perm[i] */
	for (uint32_t i = 0; i < t->n; i++) {
		struct dv_cable tmp;
		uint32_t j = i;

		if (perm[i] == i)
			continue;
		tmp = t->c[i];
		while (perm[j] != i) {
			uint32_t nx = perm[j];

			t->c[j] = t->c[nx];
			perm[j] = j;
			j = nx;
		}
		t->c[j] = tmp;
		perm[j] = j;
	}
	free(perm);
	/* equal IDs: the second is "ID/2", and so on, in the order they
	 * came */
	for (uint32_t i = 0, run = 1; i < t->n; i++) {
		const char *key = t->c[i].key;

		run = prev && streq(key, prev) ? run + 1 : 1;
		prev = key;
		if (run > 1) {
			const char *label = dv_cable_label(&t->c[i]);
			size_t ll = strlen(label);
			int kl = snprintf(NULL, 0, "%s/%u", key, run);
			char *s = arena_alloc(l->a, (size_t)kl + ll + 2);

			snprintf(s, (size_t)kl + 1, "%s/%u", key, run);
			memcpy(s + kl + 1, label, ll + 1);
			t->c[i].key = s;
		}
	}
}

/* ---- comparing ---- */

enum {
	W_ADD,
	W_KEEP,
	W_REPULL,
	W_RELABEL,
	W_REMOVE,
	W_REPLACE
}; /* strcmp
									  order */
static const char *const w_action[] = { "add",	   "keep",   "re-pull",
					"relabel", "remove", "replace" };

/* kinds of item: how its row is written */
enum { K_MATCHED, K_PAIRED, K_GONE, K_BORN };

struct dv_work {
	uint32_t rack;		    /* interned rack name; becomes its rank */
	uint8_t action, kind, side; /* side: the shared end of a pair */
	uint32_t i, j;		    /* old and new cable, RK_NONE: none */
};

static uint32_t f_of(const struct dv_cables *t, uint32_t r,
		     enum dv_cable_field f)
{
	return dv_cable_field(t, r, f);
}

/* The rack of end @e (0 a, 1 b): "(not in a rack)" when there is none. */
static uint32_t where(const struct dv_workorder *wo, const struct dv_cables *t,
		      uint32_t r, int e)
{
	uint32_t id = f_of(t, r, e ? DC_B_RACK : DC_A_RACK);

	return id ? id : wo->no_rack;
}

static void add_work(struct dv_workorder *wo, uint32_t r1, uint32_t r2,
		     struct dv_work it)
{
	it.rack = r1;
	*VEC_PUSH(wo->w, wo->n, wo->cap) = it;
	if (r1 != r2) {
		it.rack = r2;
		*VEC_PUSH(wo->w, wo->n, wo->cap) = it;
	}
}

/*
 * An end "device.port" as a pair of ids that are equal exactly when the
 * strings are: the string split at its last dot (a port without a dot:
 * the device and the port as they are).
 */
static uint64_t end_id(struct arena *a, const struct dv_cables *t, uint32_t r,
		       int e)
{
	uint32_t dev = f_of(t, r, e ? DC_B_DEVICE : DC_A_DEVICE);
	uint32_t port = f_of(t, r, e ? DC_B_PORT : DC_A_PORT);
	const char *p = str_of(a, port), *dot = strrchr(p, '.');

	if (dot) {
		char *s = arena_printf(a, "%s.%.*s", str_of(a, dev),
				       (int)(dot - p), p);

		dev = intern(a, s, strlen(s));
		port = intern(a, dot + 1, strlen(dot + 1));
	}
	return (uint64_t)dev << 32 | port;
}

/* A born cable's end, for finding the added cable that shares an end with
 * a removed one. */
struct end_ref {
	uint32_t fabric;
	uint64_t end;
	uint32_t b; /* index into born */
};

static int end_ref_cmp(const void *x, const void *y)
{
	const struct end_ref *p = x, *q = y;

	if (p->fabric != q->fabric)
		return p->fabric < q->fabric ? -1 : 1;
	if (p->end != q->end)
		return p->end < q->end ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

/* The first entry of group (@fabric, @end) whose born cable is not paired
 * yet (advancing the group's cursor), RK_NONE: none. */
static uint32_t first_free(struct end_ref *e, uint32_t ne, uint32_t *cursor,
			   const uint8_t *paired, uint32_t fabric, uint64_t end)
{
	uint32_t lo = 0, hi = ne;
	struct end_ref key = { fabric, end, 0 };

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (end_ref_cmp(&e[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= ne || e[lo].fabric != fabric || e[lo].end != end)
		return RK_NONE;
	/* the group's cursor lives in its first entry's slot */
	for (uint32_t k = lo + cursor[lo]; k < ne; k++, cursor[lo]++) {
		if (e[k].fabric != fabric || e[k].end != end)
			return RK_NONE;
		if (!paired[e[k].b])
			return e[k].b;
	}
	return RK_NONE;
}

struct rack_name {
	const char *name;
	uint32_t id;
};

static int rack_name_cmp(const void *x, const void *y)
{
	return strcmp(((const struct rack_name *)x)->name,
		      ((const struct rack_name *)y)->name);
}

static const char *work_id(const struct dv_workorder *wo,
			   const struct dv_work *w)
{
	return w->kind == K_BORN ? wo->n_->c[w->j].key : wo->o->c[w->i].key;
}

static const char *work_new_id(const struct dv_workorder *wo,
			       const struct dv_work *w)
{
	return w->kind == K_PAIRED ? wo->n_->c[w->j].key : "";
}

/* Items whose racks are ranks: by (rack, action, cable ID, new ID). */
static int work_cmp(const void *x, const void *y, void *ctx)
{
	const struct dv_work *a = x, *b = y;
	const struct dv_workorder *wo = ctx;
	int c;

	if (a->rack != b->rack)
		return a->rack < b->rack ? -1 : 1;
	if (a->action != b->action)
		return a->action < b->action ? -1 : 1;
	if ((c = strcmp(work_id(wo, a), work_id(wo, b))) != 0)
		return c;
	return strcmp(work_new_id(wo, a), work_new_id(wo, b));
}

/* The racks of the items ranked by name, then the items sorted by (rack
 * name, action, cable ID, new cable ID) in place, repeats dropped. */
static void sort_work(struct dv_workorder *wo, const struct arena *a)
{
	struct rack_name *rn = NULL;
	uint32_t nrn = 0, rncap = 0, n = 0;
	/* an interned rack's rank, RK_NONE: not seen */
	uint32_t *rank = xmalloc(((size_t)a->nstrs + 1) * sizeof(*rank));

	memset(rank, 0xff, ((size_t)a->nstrs + 1) * sizeof(*rank));
	for (uint32_t k = 0; k < wo->n; k++) {
		uint32_t id = wo->w[k].rack;

		if (rank[id] == RK_NONE) {
			rank[id] = 0;
			*VEC_PUSH(rn, nrn, rncap) =
			    (struct rack_name){ str_of(a, id), id };
		}
	}
	if (nrn)
		qsort(rn, nrn, sizeof(*rn), rack_name_cmp);
	for (uint32_t k = 0; k < nrn; k++)
		rank[rn[k].id] = k;
	for (uint32_t k = 0; k < wo->n; k++)
		wo->w[k].rack = rank[wo->w[k].rack];
	free(rank);
	if (wo->n)
		qsort_r(wo->w, wo->n, sizeof(*wo->w), work_cmp, wo);
	for (uint32_t k = 0; k < wo->n; k++) {
		/* the same work twice in one rack (both ends there) once */
		if (n && !work_cmp(&wo->w[k], &wo->w[n - 1], wo))
			continue;
		wo->w[n++] = wo->w[k];
	}
	for (uint32_t k = 0; k < n; k++)
		wo->w[k].rack = rn[wo->w[k].rack].id;
	free(rn);
	wo->n = n;
}

/* Decimal metres @s ("7", "6.800275") as micrometres; false if it is not
 * such a figure. */
static bool um_of(const char *s, int64_t *um)
{
	int64_t v = 0, scale = 1000000;

	if (!*s)
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > INT64_MAX / 10 / 1000000)
			return false;
		v = v * 10 + (*s - '0');
	}
	v *= 1000000;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++) {
			scale /= 10;
			if (!scale)
				return false;
			v += (*s - '0') * scale;
		}
	*um = v;
	return !*s;
}

/* Whether old cable @i (only its stock length changed in new cable @j)
 * still reaches: its stock length is at least the new computed length. */
static bool still_reaches(const struct arena *a, const struct dv_cables *to,
			  uint32_t i, const struct dv_cables *tn, uint32_t j)
{
	int64_t have, need;

	return um_of(str_of(a, dv_cable_field(to, i, DC_LENGTH)), &have) &&
	       um_of(str_of(a, dv_cable_field(tn, j, DC_COMPUTED)), &need) &&
	       have >= need;
}

/* What dv_cabling()'s steps share. */
struct cab_diff {
	struct dv_workorder *wo;
	const struct dv_cables *to, *tn; /* old and new cables, by key */
	struct arena *a;
	uint64_t *counts;	     /* as dv_cabling() counts them */
	uint32_t *gone, ngone, gcap; /* old cables with no new one */
	uint32_t *born, nborn, bcap; /* new cables with no old one */
	uint8_t *paired;	     /* per born cable */
};

/*
 * Old cable @i and new cable @j of one key: re-pulled when an end moved,
 * kept (relabelled if need be) when only its stock length changed and it
 * still reaches, replaced when its part or stock length changed,
 * relabelled, or only counted when what changed needs no work.
 */
static void cab_matched(struct cab_diff *cd, uint32_t i, uint32_t j)
{
	const struct dv_cables *to = cd->to, *tn = cd->tn;
	struct dv_workorder *wo = cd->wo;
	uint64_t *counts = cd->counts;
	struct dv_work it = { 0, 0, K_MATCHED, 0, i, j };
	bool moved, part, stock;

#define CHANGED(f) (f_of(to, i, f) != f_of(tn, j, f))
	moved = CHANGED(DC_A_RACK) || CHANGED(DC_A_U) || CHANGED(DC_B_RACK) ||
		CHANGED(DC_B_U);
	part = CHANGED(DC_PART) || CHANGED(DC_A_TR) || CHANGED(DC_B_TR);
	stock = CHANGED(DC_LENGTH);
	if (moved) {
		it.action = W_REPULL;
		counts[2]++;
	} else if (!part && stock && !CHANGED(DC_MEDIA) &&
		   still_reaches(cd->a, to, i, tn, j)) {
		/* the cable in place does: kept, relabelled if its
		 * label changed (side 1: kept) */
		it.side = 1;
		counts[6]++;
		if (!streq(dv_cable_label(&to->c[i]),
			   dv_cable_label(&tn->c[j]))) {
			it.action = W_RELABEL;
			counts[4]++;
		} else {
			it.action = W_KEEP;
		}
	} else if (part || stock) {
		it.action = W_REPLACE;
		it.side = part; /* "crosses stock length" when not */
		counts[3]++;
	} else if (!streq(dv_cable_label(&to->c[i]),
			  dv_cable_label(&tn->c[j]))) {
		it.action = W_RELABEL;
		counts[4]++;
	} else {
		if (CHANGED(DC_COMPUTED) || CHANGED(DC_FABRIC) ||
		    CHANGED(DC_MEDIA))
			counts[5]++;
		return;
	}
#undef CHANGED
	add_work(wo, where(wo, tn, j, 0), where(wo, tn, j, 1), it);
}

/* Both sides' cables walked in key order: matched ones' work, the others
 * listed as gone or born. */
static void cab_walk(struct cab_diff *cd)
{
	const struct dv_cables *to = cd->to, *tn = cd->tn;
	uint32_t i = 0, j = 0;

	while (i < to->n || j < tn->n) {
		int c = i >= to->n   ? 1
			: j >= tn->n ? -1
				     : dv_keycmp(to->c[i].key, tn->c[j].key);

		if (c > 0)
			*VEC_PUSH(cd->born, cd->nborn, cd->bcap) = j++;
		else if (c < 0)
			*VEC_PUSH(cd->gone, cd->ngone, cd->gcap) = i++;
		else
			cab_matched(cd, i++, j++);
	}
}

/*
 * A removed and an added cable of one fabric sharing an end: the cable is
 * re-pulled from the old far end to the new one (the first added cable,
 * in ID order, for each removed one in ID order); the other removed
 * cables are removed.  The added cables so taken are marked in paired.
 */
static void cab_pair(struct cab_diff *cd)
{
	const struct dv_cables *to = cd->to, *tn = cd->tn;
	struct dv_workorder *wo = cd->wo;
	struct arena *a = cd->a;
	struct end_ref *er = NULL;
	uint32_t ner = 0, ercap = 0, *cursor;

	for (uint32_t b = 0; b < cd->nborn; b++) {
		uint64_t ea = end_id(a, tn, cd->born[b], 0),
			 eb = end_id(a, tn, cd->born[b], 1);
		uint32_t fab = f_of(tn, cd->born[b], DC_FABRIC);

		*VEC_PUSH(er, ner, ercap) = (struct end_ref){ fab, ea, b };
		if (eb != ea)
			*VEC_PUSH(er, ner, ercap) =
			    (struct end_ref){ fab, eb, b };
	}
	if (ner)
		qsort(er, ner, sizeof(*er), end_ref_cmp);
	cursor = xcalloc((size_t)ner + 1, sizeof(*cursor));
	for (uint32_t g = 0; g < cd->ngone; g++) {
		uint32_t gi = cd->gone[g], fab = f_of(to, gi, DC_FABRIC);
		uint64_t ea = end_id(a, to, gi, 0), eb = end_id(a, to, gi, 1);
		uint32_t ha = first_free(er, ner, cursor, cd->paired, fab, ea);
		uint32_t hb = first_free(er, ner, cursor, cd->paired, fab, eb);
		uint32_t hit = ha < hb ? ha : hb;

		if (hit != RK_NONE) {
			uint32_t nj = cd->born[hit];
			struct dv_work it = {
				0, W_REPULL, K_PAIRED, 0, gi, nj
			};

			/* the shared end: a when it is one of the new
			 * cable's ends */
			it.side = ea == end_id(a, tn, nj, 0) ||
					  ea == end_id(a, tn, nj, 1)
				      ? 0
				      : 1;
			cd->paired[hit] = 1;
			add_work(wo, where(wo, to, gi, 0), where(wo, to, gi, 1),
				 it);
			add_work(wo, where(wo, tn, nj, 0), where(wo, tn, nj, 1),
				 it);
			cd->counts[2]++;
			continue;
		}
		{
			struct dv_work it = { 0, W_REMOVE, K_GONE,
					      0, gi,	   RK_NONE };

			add_work(wo, where(wo, to, gi, 0), where(wo, to, gi, 1),
				 it);
			cd->counts[1]++;
		}
	}
	free(cursor);
	free(er);
}

void dv_cabling(struct dv_workorder *wo, const struct dv_cables *to,
		const struct dv_cables *tn, struct arena *a, uint64_t counts[8])
{
	struct cab_diff cd = {
		.wo = wo, .to = to, .tn = tn, .a = a, .counts = counts
	};

	memset(wo, 0, sizeof(*wo));
	wo->o = to;
	wo->n_ = tn;
	wo->no_rack = intern_cstr(a, "(not in a rack)");
	cab_walk(&cd);
	cd.paired = xcalloc((size_t)cd.nborn + 1, 1);
	cab_pair(&cd);
	/* the added cables no removed one was re-pulled to */
	for (uint32_t b = 0; b < cd.nborn; b++) {
		struct dv_work it = {
			0, W_ADD, K_BORN, 0, RK_NONE, cd.born[b]
		};

		if (cd.paired[b])
			continue;
		add_work(wo, where(wo, tn, cd.born[b], 0),
			 where(wo, tn, cd.born[b], 1), it);
		counts[0]++;
	}
	free(cd.paired);
	free(cd.gone);
	free(cd.born);
	sort_work(wo, a);
}

/* ---- writing a row ---- */

static const char *fs(const struct arena *a, const struct dv_cables *t,
		      uint32_t r, enum dv_cable_field f)
{
	return str_of(a, f_of(t, r, f));
}

static const char *ends(struct arena *s, const struct arena *a,
			const struct dv_cables *t, uint32_t r)
{
	return arena_printf(s, "%s.%s -- %s.%s", fs(a, t, r, DC_A_DEVICE),
			    fs(a, t, r, DC_A_PORT), fs(a, t, r, DC_B_DEVICE),
			    fs(a, t, r, DC_B_PORT));
}

static const char *end_of(struct arena *s, const struct arena *a,
			  const struct dv_cables *t, uint32_t r, int e)
{
	return arena_printf(s, "%s.%s",
			    fs(a, t, r, e ? DC_B_DEVICE : DC_A_DEVICE),
			    fs(a, t, r, e ? DC_B_PORT : DC_A_PORT));
}

/* "PART L m still reaches: now N m shorter" for kept cable @w (N: the
 * old stock length less the new one; "still reaches" alone when the new
 * one is not shorter), after @pre. */
static const char *kept(struct arena *s, const struct arena *a,
			const struct dv_workorder *wo, const struct dv_work *w,
			const char *pre)
{
	const char *have = fs(a, wo->o, w->i, DC_LENGTH);
	int64_t o = 0, n = 0;
	char by[32];

	if (!um_of(have, &o) || !um_of(fs(a, wo->n_, w->j, DC_LENGTH), &n) ||
	    n >= o)
		return arena_printf(s, "%s%s %s m still reaches", pre,
				    fs(a, wo->o, w->i, DC_PART), have);
	o -= n;
	snprintf(by, sizeof(by), "%lld", (long long)(o / 1000000));
	if (o % 1000000) {
		size_t l = strlen(by);

		snprintf(by + l, sizeof(by) - l, ".%06lld",
			 (long long)(o % 1000000));
		for (l = strlen(by); by[l - 1] == '0'; l--)
			by[l - 1] = '\0';
	}
	return arena_printf(s, "%s%s %s m still reaches: now %s m shorter", pre,
			    fs(a, wo->o, w->i, DC_PART), have, by);
}

void dv_work_row(const struct dv_workorder *wo, uint32_t r,
		 const struct arena *a, struct arena *s, const char *v[6])
{
	const struct dv_work *w = &wo->w[r];
	const struct dv_cables *to = wo->o, *tn = wo->n_;
	uint32_t i = w->i, j = w->j;

	v[0] = str_of(a, w->rack);
	v[1] = w_action[w->action];
	v[2] = w->kind == K_BORN ? tn->c[j].key : to->c[i].key;
	v[3] = w->kind == K_PAIRED ? tn->c[j].key : "";
	switch (w->kind) {
	case K_GONE:
		v[4] = ends(s, a, to, i);
		v[5] = arena_printf(s, "%s %s m", fs(a, to, i, DC_PART),
				    fs(a, to, i, DC_LENGTH));
		return;
	case K_BORN:
		v[4] = ends(s, a, tn, j);
		v[5] = arena_printf(s, "%s %s m", fs(a, tn, j, DC_PART),
				    fs(a, tn, j, DC_LENGTH));
		return;
	case K_PAIRED: {
		const char *shared = end_of(s, a, to, i, w->side);

		v[4] = ends(s, a, tn, j);
		v[5] = arena_printf(s, "%s: far end %s -> %s", shared,
				    end_of(s, a, to, i, !w->side),
				    streq(end_of(s, a, tn, j, 0), shared)
					? end_of(s, a, tn, j, 1)
					: end_of(s, a, tn, j, 0));
		return;
	}
	default:
		break;
	}
	v[4] = ends(s, a, tn, j);
	if (w->action == W_REPULL)
		v[5] = arena_printf(
		    s, "route changed: %s U%s, %s U%s -> %s U%s, %s U%s",
		    fs(a, to, i, DC_A_RACK), fs(a, to, i, DC_A_U),
		    fs(a, to, i, DC_B_RACK), fs(a, to, i, DC_B_U),
		    fs(a, tn, j, DC_A_RACK), fs(a, tn, j, DC_A_U),
		    fs(a, tn, j, DC_B_RACK), fs(a, tn, j, DC_B_U));
	else if (w->action == W_REPLACE)
		v[5] = arena_printf(
		    s, "%s%s %s m -> %s %s m (computed %s -> %s m)",
		    !w->side ? "crosses stock length: " : "",
		    fs(a, to, i, DC_PART), fs(a, to, i, DC_LENGTH),
		    fs(a, tn, j, DC_PART), fs(a, tn, j, DC_LENGTH),
		    fs(a, to, i, DC_COMPUTED), fs(a, tn, j, DC_COMPUTED));
	else if (w->action == W_KEEP)
		v[5] = kept(s, a, wo, w, "");
	else
		v[5] = arena_printf(s, "\"%s\" -> \"%s\"%s",
				    dv_cable_label(&to->c[i]),
				    dv_cable_label(&tn->c[j]),
				    w->side ? kept(s, a, wo, w, "; ") : "");
}

void dv_workorder_free(struct dv_workorder *wo)
{
	free(wo->w);
	memset(wo, 0, sizeof(*wo));
}

/* ---- a review's view: ends by place, groups of like changes ---- */

/* End @e of cable @r: "rack U<u> faceplate (device.port)" (the port's
 * name when its faceplate name is not known). */
static const char *end_placed(struct arena *s, const struct arena *a,
			      const struct dv_cables *t, uint32_t r, int e)
{
	const char *rack = fs(a, t, r, e ? DC_B_RACK : DC_A_RACK);
	const char *u = fs(a, t, r, e ? DC_B_U : DC_A_U);
	const char *dev = fs(a, t, r, e ? DC_B_DEVICE : DC_A_DEVICE);
	const char *port = fs(a, t, r, e ? DC_B_PORT : DC_A_PORT);
	uint32_t face = t->face ? t->face[2 * (size_t)r + e] : 0;

	return arena_printf(s, "%s%s%s %s (%s.%s)",
			    *rack ? rack : "(not in a rack)", *u ? " U" : "", u,
			    face ? str_of(a, face) : port, dev, port);
}

const char *dv_work_ends(const struct dv_workorder *wo, uint32_t r,
			 const struct arena *a, struct arena *s)
{
	const struct dv_work *w = &wo->w[r];
	const struct dv_cables *t = w->kind == K_GONE ? wo->o : wo->n_;
	uint32_t c = w->kind == K_GONE ? w->i : w->j;

	return arena_printf(s, "%s -- %s", end_placed(s, a, t, c, 0),
			    end_placed(s, a, t, c, 1));
}

/* A cable of the work order for grouping: interned ids. */
struct grec {
	uint32_t rank, op, ol, np, nl, pa, pb, da, db;
	uint32_t qa, qb, fa, fb; /* port and faceplate name of each end */
};

static int grec_cmp(const void *x, const void *y)
{
	const uint32_t *p = x, *q = y;

	for (size_t k = 0; k < sizeof(struct grec) / sizeof(uint32_t); k++)
		if (p[k] != q[k])
			return p[k] < q[k] ? -1 : 1;
	return 0;
}

static int u32_cmp(const void *x, const void *y)
{
	uint32_t p = *(const uint32_t *)x, q = *(const uint32_t *)y;

	return p < q ? -1 : p > q;
}

/* The device group of interned name @d: the name with every bracketed
 * number emptied ("compute.leaf[]"), cached in @pat. */
static uint32_t dev_pattern(struct arena *a, uint32_t *pat, uint32_t npat,
			    uint32_t d)
{
	const char *s = str_of(a, d);
	size_t n = strlen(s), o = 0;
	char *buf;
	uint32_t id;

	if (d < npat && pat[d])
		return pat[d] - 1;
	buf = xmalloc(n + 1);
	for (size_t k = 0; k < n; k++) {
		buf[o++] = s[k];
		if (s[k] == '[') {
			size_t e = k + 1;

			while (e < n && s[e] >= '0' && s[e] <= '9')
				e++;
			if (e > k + 1 && e < n && s[e] == ']')
				k = e - 1;
		}
	}
	id = intern(a, buf, o);
	free(buf);
	if (d < npat)
		pat[d] = id + 1;
	return id;
}

/* Display order of the actions: what to buy and pull first. */
static const uint8_t w_rank[] = { 0, 5, 3, 4, 1, 2 }; /* by W_* */
static const uint8_t rank_w[] = { W_ADD,    W_REMOVE,  W_REPLACE,
				  W_REPULL, W_RELABEL, W_KEEP };
#define N_ACTIONS (sizeof(w_action) / sizeof(*w_action))

static int action_rank(const char *action)
{
	for (size_t k = 0; k < N_ACTIONS; k++)
		if (streq(action, w_action[k]))
			return w_rank[k];
	return (int)N_ACTIONS;
}

static int group_cmp(const void *x, const void *y)
{
	const struct dv_group *p = x, *q = y;
	int rp = action_rank(p->action), rq = action_rank(q->action), c;

	if (rp != rq)
		return rp < rq ? -1 : 1;
	if (p->n != q->n)
		return p->n > q->n ? -1 : 1;
	if ((c = dv_keycmp(p->a, q->a)) != 0)
		return c;
	if ((c = dv_keycmp(p->b, q->b)) != 0)
		return c;
	return strcmp(p->what, q->what);
}

/* A cable's part and stock length, "(no part)" without one. */
static const char *cable_what(struct arena *a, uint32_t part, uint32_t len)
{
	return arena_printf(a, "%s%s%s%s", part ? str_of(a, part) : "(no part)",
			    len ? " " : "", len ? str_of(a, len) : "",
			    len ? " m" : "");
}

/* Port name @s split around its last bracketed number: false when it
 * has none. */
static bool port_index(const char *s, size_t *pre, size_t *post, uint64_t *v)
{
	size_t n = strlen(s);

	for (size_t k = n; k-- > 0;) {
		size_t e = k + 1;

		if (s[k] != '[')
			continue;
		*v = 0;
		while (e < n && s[e] >= '0' && s[e] <= '9' && e - k < 10)
			*v = *v * 10 + (uint64_t)(s[e++] - '0');
		if (e == k + 1 || e >= n || s[e] != ']' ||
		    (s[k + 1] == '0' && e > k + 2))
			return false;
		*pre = k + 1;
		*post = e;
		return true;
	}
	return false;
}

static int u64_cmp(const void *x, const void *y)
{
	uint64_t p = *(const uint64_t *)x, q = *(const uint64_t *)y;

	return p < q ? -1 : p > q;
}

/*
 * The ports end @e of the @n cables @g land on, when they are one run on
 * every device: each of the group's @ndev devices has a cable on each
 * port of one contiguous index range (or on one port of one name), so
 * the devices and the range stand for exactly the group's cable ends.
 * "ports p[32-63] (17/1-32/2)": the range, and the faceplate names of
 * its first and last port where every device gives them alike and they
 * are not the ports' own names ("port mgmt" for one); NULL when the
 * ends are no such run.  n log n.
 */
static const char *port_run(struct arena *a, const struct grec *g, uint32_t n,
			    int e, uint32_t ndev)
{
	const char *first = str_of(a, e ? g[0].qb : g[0].qa), *res = NULL;
	size_t pre = 0, post = 0;
	uint64_t lo = UINT64_MAX, hi = 0, v, *pairs, np = 0;
	uint32_t *face;
	bool indexed = port_index(first, &pre, &post, &v), faces = true;

	if (!indexed) {
		/* one port name on every device, each once */
		for (uint32_t m = 0; m < n; m++)
			if ((e ? g[m].qb : g[m].qa) != (e ? g[0].qb : g[0].qa))
				return NULL;
		if (n != ndev)
			return NULL;
		for (uint32_t m = 1; m < n; m++)
			if ((e ? g[m].fb : g[m].fa) != (e ? g[0].fb : g[0].fa))
				faces = false;
		v = e ? g[0].fb : g[0].fa;
		return faces && v && !streq(str_of(a, (uint32_t)v), first)
			   ? arena_printf(a, "port %s (%s)", first,
					  str_of(a, (uint32_t)v))
			   : arena_printf(a, "port %s", first);
	}
	pairs = xmalloc((size_t)n * sizeof(*pairs));
	for (uint32_t m = 0; m < n; m++) {
		const char *s = str_of(a, e ? g[m].qb : g[m].qa);
		size_t p2, q2;

		if (!port_index(s, &p2, &q2, &v) || p2 != pre ||
		    memcmp(s, first, pre) || strcmp(s + q2, first + post)) {
			free(pairs);
			return NULL;
		}
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		/* the device's rank among the group's (sorted by id) comes
		 * later; its id will do for counting distinct pairs */
		pairs[m] = ((uint64_t)(e ? g[m].db : g[m].da) << 32) | v;
	}
	qsort(pairs, n, sizeof(*pairs), u64_cmp);
	for (uint32_t m = 0; m < n; m++)
		np += !m || pairs[m] != pairs[m - 1];
	free(pairs);
	/* every device on every port of lo..hi: the ends are the product */
	if (hi - lo + 1 > n || np != (uint64_t)ndev * (hi - lo + 1)) {
		return NULL;
	}
	face = xcalloc(hi - lo + 1, sizeof(*face));
	for (uint32_t m = 0; m < n && faces; m++) {
		const char *s = str_of(a, e ? g[m].qb : g[m].qa);
		uint32_t f = e ? g[m].fb : g[m].fa;
		size_t p2, q2;

		port_index(s, &p2, &q2, &v);
		if (!f || (face[v - lo] && face[v - lo] != f))
			faces = false;
		face[v - lo] = f;
	}
	{
		/* the faceplate names where they are not the ports' own */
		const char *nlo =
		    arena_printf(a, "%.*s%llu%s", (int)pre, first,
				 (unsigned long long)lo, first + post);
		const char *nhi =
		    arena_printf(a, "%.*s%llu%s", (int)pre, first,
				 (unsigned long long)hi, first + post);

		faces = faces && !(streq(str_of(a, face[0]), nlo) &&
				   streq(str_of(a, face[hi - lo]), nhi));
		res = hi == lo
			  ? arena_printf(a, "port %s", nlo)
			  : arena_printf(a, "ports %.*s%llu-%llu%s", (int)pre,
					 first, (unsigned long long)lo,
					 (unsigned long long)hi, first + post);
		if (faces && hi > lo)
			res = arena_printf(a, "%s (%s-%s)", res,
					   str_of(a, face[0]),
					   str_of(a, face[hi - lo]));
		else if (faces)
			res =
			    arena_printf(a, "%s (%s)", res, str_of(a, face[0]));
	}
	free(face);
	return res;
}

uint32_t dv_work_groups(const struct dv_workorder *wo, struct arena *a,
			struct dv_group **out)
{
	const struct dv_cables *to = wo->o, *tn = wo->n_;
	uint8_t *seen_o = xcalloc((size_t)to->n + 1, 1);
	uint8_t *seen_n = xcalloc((size_t)tn->n + 1, 1);
	uint32_t npat = a->nstrs + 1;
	uint32_t *pat = xcalloc(npat, sizeof(*pat));
	struct grec *g = NULL;
	uint32_t ng = 0, gcap = 0, nout = 0, ocap = 0;
	struct dv_group *grp = NULL;
	uint32_t *ids = NULL;
	const char **names = NULL;

	for (uint32_t r = 0; r < wo->n; r++) {
		const struct dv_work *w = &wo->w[r];
		bool gone = w->kind == K_GONE;
		const struct dv_cables *t = gone ? to : tn;
		uint32_t c = gone ? w->i : w->j;
		uint8_t *seen =
		    w->kind == K_BORN ? &seen_n[w->j] : &seen_o[w->i];
		struct grec *e;

		if (*seen)
			continue; /* the same cable in its other rack */
		*seen = 1;
		e = VEC_PUSH(g, ng, gcap);
		memset(e, 0, sizeof(*e));
		e->rank = w_rank[w->action];
		e->np = f_of(t, c, DC_PART);
		e->nl = f_of(t, c, DC_LENGTH);
		if (w->action == W_REPLACE) {
			e->op = f_of(to, w->i, DC_PART);
			e->ol = f_of(to, w->i, DC_LENGTH);
		}
		e->da = f_of(t, c, DC_A_DEVICE);
		e->db = f_of(t, c, DC_B_DEVICE);
		e->pa = dev_pattern(a, pat, npat, e->da);
		e->pb = dev_pattern(a, pat, npat, e->db);
		e->qa = f_of(t, c, DC_A_PORT);
		e->qb = f_of(t, c, DC_B_PORT);
		e->fa = t->face ? t->face[2 * (size_t)c] : 0;
		e->fb = t->face ? t->face[2 * (size_t)c + 1] : 0;
	}
	free(seen_o);
	free(seen_n);
	free(pat);
	if (ng)
		qsort(g, ng, sizeof(*g), grec_cmp);
	ids = xmalloc(((size_t)ng + 1) * sizeof(*ids));
	names = xmalloc(((size_t)ng + 1) * sizeof(*names));
	for (uint32_t k = 0, end; k < ng; k = end) {
		struct dv_group *d;
		uint32_t nid = 0, nn = 0;

		for (end = k + 1;
		     end < ng &&
		     !memcmp(&g[end], &g[k], offsetof(struct grec, da));
		     end++)
			;
		d = VEC_PUSH(grp, nout, ocap);
		d->action = w_action[rank_w[g[k].rank]];
		d->n = end - k;
		d->what = cable_what(a, g[k].np, g[k].nl);
		if (g[k].rank == w_rank[W_REPLACE])
			d->what = arena_printf(a, "%s -> %s",
					       cable_what(a, g[k].op, g[k].ol),
					       d->what);
		for (int e = 0; e < 2; e++) {
			nid = nn = 0;
			for (uint32_t m = k; m < end; m++)
				ids[nid++] = e ? g[m].db : g[m].da;
			qsort(ids, nid, sizeof(*ids), u32_cmp);
			for (uint32_t m = 0; m < nid; m++)
				if (!m || ids[m] != ids[m - 1])
					names[nn++] = str_of(a, ids[m]);
			*(e ? &d->b : &d->a) =
			    dv_compress_names(a, names, nn, 6);
			*(e ? &d->ports_b : &d->ports_a) =
			    port_run(a, g + k, end - k, e, nn);
		}
	}
	free(ids);
	free(names);
	free(g);
	if (nout)
		qsort(grp, nout, sizeof(*grp), group_cmp);
	*out = grp;
	return nout;
}
