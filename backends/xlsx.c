/* SPDX-License-Identifier: MIT */
/*
 * The "xlsx" back end: bom.xlsx, a workbook for procurement, written with
 * libxlsxwriter (built only when configure finds it).  Sheets:
 *
 *   BOM       the lines of bom.csv that are not spares (parts, assembly
 *             contents), then its subtotal and total rows; same columns
 *   spares    the spare lines of bom.csv; same columns
 *   cables    one row per cabled link (cabling.csv's rows), some of its
 *             columns (src/analysis/cablecols.def; cable_cols below): the cable
 *             id, each end's rack, U, device and port, fabric, media,
 *             part, part number, stock and computed length
 *   pull list cabling/pull.csv's rows, same order: per rack (declaration
 *             order) the cables that start or end there, seen from it
 *   racks     per rack (declaration order), its devices by U (unplaced
 *             ones last, by name): rack, u, height_u, device, category,
 *             part, part_number, in_assembly
 *
 * Text cells are strings; quantities, U positions and lengths (metres) are
 * numbers, prices numbers in the currency's unit: a spreadsheet keeps them
 * as doubles, which hold these values to the cent and the micrometre (the
 * exact figures are bom.csv's and cabling.csv's).  The workbook's creation
 * time is fixed (2000-01-01T00:00:00Z) so that the bytes do not depend on
 * when rackc ran.  libxlsxwriter writes a file by name: it writes a
 * temporary file beside the artifact, which is then copied into the
 * artifact (out_open), so the workbook is committed with the other
 * artifacts or not at all.
 */
#include "rackc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <xlsxwriter.h>

#include "backend.h"
#include "be_common.h"
#include "bom.h"
#include "cableplan.h"
#include "cablecols.h"
#include "csv.h"
#include "layout.h"
#include "metrics.h"
#include "schema.h"

/* The most columns a sheet has (the BOM's 16). */
#define XLSX_COLS 16

struct book {
	const struct rk_design *d;
	struct arena *a;
	lxw_workbook *wb;
	lxw_format *money;	   /* prices: "#,##0.00" */
	lxw_format *length;	   /* metres: "0.00", the centimetre */
	lxw_format *count;	   /* quantities, U: "0" */
	lxw_format *head;	   /* the header row: bold */
	uint16_t ncols;		   /* the current sheet's columns */
	uint16_t width[XLSX_COLS]; /* its widest cell per column, characters */
	uint32_t *rack;		   /* device -> rack, RK_NONE */
	int64_t *at;		   /* device -> U, -1 */
	bool failed;
};

/* Column @c holds a cell of @n characters. */
static void widen(struct book *k, uint16_t c, size_t n)
{
	if (c < XLSX_COLS && n > k->width[c])
		k->width[c] = (uint16_t)(n < 1000 ? n : 1000);
}

static void put_cell(struct book *k, lxw_worksheet *ws, uint32_t r, uint16_t c,
		     const char *s, lxw_format *f)
{
	if (s && *s) {
		if (worksheet_write_string(ws, r, c, s, f))
			k->failed = true;
		widen(k, c, strlen(s));
	}
}

static void put_str(struct book *k, lxw_worksheet *ws, uint32_t r, uint16_t c,
		    const char *s)
{
	put_cell(k, ws, r, c, s, NULL);
}

/* A number shown with @f's format; @shown: its characters there. */
static void put_num(struct book *k, lxw_worksheet *ws, uint32_t r, uint16_t c,
		    double v, lxw_format *f, size_t shown)
{
	if (worksheet_write_number(ws, r, c, v, f))
		k->failed = true;
	widen(k, c, shown);
}

/* Characters of a whole number @v printed plainly. */
static size_t digits(int64_t v)
{
	size_t n = v < 0 ? 2 : 1;

	for (v = v < 0 ? -(v / 10) : v / 10; v; v /= 10)
		n++;
	return n;
}

static void put_count(struct book *k, lxw_worksheet *ws, uint32_t r, uint16_t c,
		      int64_t v)
{
	put_num(k, ws, r, c, (double)v, k->count, digits(v));
}

/* Metres to the micrometre in the cell, shown to the centimetre. */
static void put_metres(struct book *k, lxw_worksheet *ws, uint32_t r,
		       uint16_t c, int64_t um)
{
	if (um >= 0)
		put_num(k, ws, r, c, (double)um / 1e6, k->length,
			digits(um / 1000000) + 3);
}

static void put_money(struct book *k, lxw_worksheet *ws, uint32_t r, uint16_t c,
		      int64_t cents)
{
	if (cents >= 0) {
		int64_t whole = cents / 100;

		put_num(k, ws, r, c, (double)cents / 100.0, k->money,
			digits(whole) + (digits(whole) - 1) / 3 + 3);
	}
}

static void header(struct book *k, lxw_worksheet *ws, const char *const *cols,
		   unsigned n)
{
	memset(k->width, 0, sizeof(k->width));
	k->ncols = (uint16_t)n;
	for (unsigned i = 0; i < n; i++)
		put_cell(k, ws, 0, (uint16_t)i, cols[i], k->head);
}

/*
 * A sheet's last touches, once its @rows rows (the header included) are
 * written: the header row frozen, an autofilter over the table, and each
 * column as wide as its widest cell (plus room for the filter button),
 * within 8 and 60 characters.
 */
static void sheet_done(struct book *k, lxw_worksheet *ws, uint32_t rows)
{
	worksheet_freeze_panes(ws, 1, 0);
	if (worksheet_autofilter(ws, 0, 0, rows ? rows - 1 : 0,
				 (uint16_t)(k->ncols - 1)))
		k->failed = true;
	for (uint16_t c = 0; c < k->ncols && c < XLSX_COLS; c++) {
		unsigned w = k->width[c] + 3u;

		w = w < 8 ? 8 : w > 60 ? 60 : w;
		if (worksheet_set_column(ws, c, c, (double)w, NULL))
			k->failed = true;
	}
}

static const char *const bom_cols[] = {
	"kind",	    "category",	    "part",	   "vendor",
	"model",    "part_number",  "description", "length_m",
	"quantity", "in_assembly",  "unit_price",  "extended_price",
	"currency", "price_source", "missing",	   "estimated",
};

static void bom_row(struct book *k, struct bom *b, lxw_worksheet *ws,
		    uint32_t r, const struct bom_line *l)
{
	const struct rk_design *d = k->d;
	uint32_t part = l->parts[0];

	put_str(k, ws, r, 0, bom_line_kind(l));
	put_str(k, ws, r, 1, rk_class_name(l->cls));
	put_str(k, ws, r, 2, bom_part_names(b, l));
	put_str(k, ws, r, 3, ir_str(d, part, A_VENDOR));
	put_str(k, ws, r, 4, ir_str(d, part, A_MODEL));
	put_str(k, ws, r, 5, l->pn);
	put_str(k, ws, r, 6, ir_str(d, part, A_DESCRIPTION));
	put_metres(k, ws, r, 7, l->length);
	put_count(k, ws, r, 8, (int64_t)l->qty);
	put_str(k, ws, r, 9, l->asm_part != RK_NONE ? l->gkey : NULL);
	put_money(k, ws, r, 10, l->price);
	put_money(k, ws, r, 11, bom_extended(l));
	put_str(k, ws, r, 12, l->cur);
	put_str(k, ws, r, 13, l->psrc);
	put_str(k, ws, r, 14, bom_missing_text(b, l));
	put_str(k, ws, r, 15, bom_estimates_text(d, part, k->a));
}

static void sheets_bom(struct book *k, struct bom *b)
{
	lxw_worksheet *ws = workbook_add_worksheet(k->wb, "BOM");
	lxw_worksheet *sp = workbook_add_worksheet(k->wb, "spares");
	struct totals t = bom_totals(b);
	uint32_t r = 1, rs = 1;

	header(k, ws, bom_cols, ARRAY_SIZE(bom_cols));
	header(k, sp, bom_cols, ARRAY_SIZE(bom_cols));
	for (uint32_t i = 0; i < b->nlines; i++) {
		const struct bom_line *l = &b->lines[i];

		if (l->spare)
			bom_row(k, b, sp, rs++, l);
		else
			bom_row(k, b, ws, r++, l);
	}
	for (uint32_t i = 0; i < t.n; i++, r++) {
		bool grand = t.s[i].cls == C__COUNT;

		put_str(k, ws, r, 0, grand ? "total" : "subtotal");
		if (!grand)
			put_str(k, ws, r, 1, rk_class_name(t.s[i].cls));
		put_money(k, ws, r, 11, t.s[i].total);
		put_str(k, ws, r, 12, t.s[i].cur);
	}
	free(t.s);
	/* the two sheets share the columns and their widths */
	sheet_done(k, ws, r);
	sheet_done(k, sp, rs);
}

/* One end of a cable from column @c on: its rack (when @with_rack), U,
 * device and port (the pull list's). */
static void end_cells(struct book *k, lxw_worksheet *ws, uint32_t r, uint16_t c,
		      bool with_rack, uint32_t dev, uint32_t port)
{
	const struct rk_design *d = k->d;
	uint32_t rack = k->rack[dev];

	if (with_rack) {
		if (rack != RK_NONE)
			put_str(k, ws, r, c, ir_name(d, rack));
		c++;
	}
	if (rack != RK_NONE && k->at[dev] >= 1)
		put_count(k, ws, r, c, k->at[dev]);
	put_str(k, ws, r, c + 1, ir_name(d, dev));
	put_str(k, ws, r, c + 2, str_of(d->arena, d->objs[port].local));
}

static const char *part_number_of(const struct rk_design *d,
				  const struct cp_link *r)
{
	uint32_t pn =
	    r->cable != RK_NONE ? be_part_number(d, r->cable, r->stock) : 0;

	return pn ? str_of(d->arena, pn) : NULL;
}

/*
 * The cables sheet's columns: those of cabling.csv (src/analysis/cablecols.def),
 * in its order, that the workbook shows, each with how its cells are
 * written.  XC_NONE (0): not on the sheet.
 */
enum xcell { XC_NONE, XC_TEXT, XC_COUNT, XC_METRES };

static const uint8_t cable_cols[CABCOL__N] = {
	[CABCOL_CABLE_ID] = XC_TEXT,
	[CABCOL_A_RACK] = XC_TEXT,
	[CABCOL_A_U] = XC_COUNT,
	[CABCOL_A_DEVICE] = XC_TEXT,
	[CABCOL_A_PORT] = XC_TEXT,
	[CABCOL_B_RACK] = XC_TEXT,
	[CABCOL_B_U] = XC_COUNT,
	[CABCOL_B_DEVICE] = XC_TEXT,
	[CABCOL_B_PORT] = XC_TEXT,
	[CABCOL_FABRIC] = XC_TEXT,
	[CABCOL_MEDIA] = XC_TEXT,
	[CABCOL_PART] = XC_TEXT,
	[CABCOL_PART_NUMBER] = XC_TEXT,
	[CABCOL_LENGTH_M] = XC_METRES,
	[CABCOL_COMPUTED_LENGTH_M] = XC_METRES,
};

/* A cell's value: text (NULL: empty) or a number (negative: empty). */
struct xval {
	const char *s;
	int64_t n;
};

/*
 * The value of column @c of link @li's row, as cabling.csv has it (the
 * columns the sheet shows; @id: room for the cable id).
 */
static struct xval cable_cell(const struct book *k, const struct cable_plan *p,
			      uint32_t li, enum cabcol c,
			      char id[CP_ID_CHARS + 8])
{
	const struct rk_design *d = k->d;
	const struct rk_link *l = &d->links[li];
	const struct cp_link *r = &p->links[li];
	bool b = c >= CABCOL_B_SITE && c <= CABCOL_B_PORT;
	uint32_t dev = b ? l->b_dev : l->a_dev;
	uint32_t port = b ? l->b_port : l->a_port;
	uint32_t rack = k->rack[dev];
	struct xval v = { NULL, -1 };

	switch (c) {
	case CABCOL_CABLE_ID:
		cableplan_id_str(r->id - 1, id);
		v.s = id;
		break;
	case CABCOL_A_RACK:
	case CABCOL_B_RACK:
		v.s = rack != RK_NONE ? ir_name(d, rack) : NULL;
		break;
	case CABCOL_A_U:
	case CABCOL_B_U:
		v.n = rack != RK_NONE && k->at[dev] >= 1 ? k->at[dev] : -1;
		break;
	case CABCOL_A_DEVICE:
	case CABCOL_B_DEVICE:
		v.s = ir_name(d, dev);
		break;
	case CABCOL_A_PORT:
	case CABCOL_B_PORT:
		v.s = str_of(d->arena, d->objs[port].local);
		break;
	case CABCOL_FABRIC:
		v.s = l->fabric != RK_NONE ? ir_name(d, l->fabric) : NULL;
		break;
	case CABCOL_MEDIA:
		v.s = r->media ? str_of(d->arena, r->media) : NULL;
		break;
	case CABCOL_PART:
		v.s = r->cable != RK_NONE ? ir_name(d, r->cable) : NULL;
		break;
	case CABCOL_PART_NUMBER:
		v.s = part_number_of(d, r);
		break;
	case CABCOL_LENGTH_M:
		v.n = r->stock;
		break;
	case CABCOL_COMPUTED_LENGTH_M:
		v.n = r->length;
		break;
	default: /* not on the sheet (cable_cols) */
		break;
	}
	return v;
}

static void sheet_cables(struct book *k, const struct cable_plan *p)
{
	const char *cols[CABCOL__N];
	enum cabcol shown[CABCOL__N];
	const struct rk_design *d = k->d;
	lxw_worksheet *ws = workbook_add_worksheet(k->wb, "cables");
	uint32_t row = 1;
	unsigned n = 0;
	char id[CP_ID_CHARS + 8];

	for (unsigned c = 0; c < CABCOL__N; c++)
		if (cable_cols[c] != XC_NONE) {
			shown[n] = (enum cabcol)c;
			cols[n++] = cabcol_name((enum cabcol)c);
		}
	header(k, ws, cols, n);
	for (uint32_t i = 0; i < d->nlinks && !k->failed; i++) {
		if (!p->links[i].label_no)
			continue;
		for (uint16_t j = 0; j < n; j++) {
			struct xval v = cable_cell(k, p, i, shown[j], id);

			switch (cable_cols[shown[j]]) {
			case XC_COUNT:
				if (v.n >= 0)
					put_count(k, ws, row, j, v.n);
				break;
			case XC_METRES:
				put_metres(k, ws, row, j, v.n);
				break;
			default:
				put_str(k, ws, row, j, v.s);
				break;
			}
		}
		row++;
	}
	sheet_done(k, ws, row);
}

/* The pull list: racks in object order, each rack's cables in link order
 * (a cable inside one rack once), seen from that rack. */
static void sheet_pull(struct book *k, const struct cable_plan *p)
{
	/* pull.csv's columns that the sheet shows (pullcols.def) */
#define PULL_ON_SHEET_1(name) name,
#define PULL_ON_SHEET_0(name)
#define PULL_COL(id, name, sheet) PULL_ON_SHEET_##sheet(name)
	static const char *const cols[] = {
#include "pullcols.def"
	};
#undef PULL_COL
#undef PULL_ON_SHEET_0
#undef PULL_ON_SHEET_1
	const struct rk_design *d = k->d;
	lxw_worksheet *ws = workbook_add_worksheet(k->wb, "pull list");
	uint32_t *start, *ent, row = 1;
	char id[CP_ID_CHARS + 8];

	header(k, ws, cols, ARRAY_SIZE(cols));
	be_pull_index(d, p, k->rack, &start, &ent);
	for (uint32_t rk = 0; rk < d->nobjs && !k->failed; rk++) {
		for (uint32_t s = start[rk]; s < start[rk + 1]; s++) {
			const struct rk_link *l = &d->links[ent[s]];
			const struct cp_link *r = &p->links[ent[s]];
			bool a_here = k->rack[l->a_dev] == rk;

			put_str(k, ws, row, 0, ir_name(d, rk));
			cableplan_id_str(r->id - 1, id);
			put_str(k, ws, row, 1, id);
			end_cells(k, ws, row, 2, false,
				  a_here ? l->a_dev : l->b_dev,
				  a_here ? l->a_port : l->b_port);
			end_cells(k, ws, row, 5, true,
				  a_here ? l->b_dev : l->a_dev,
				  a_here ? l->b_port : l->a_port);
			if (r->media)
				put_str(k, ws, row, 9,
					str_of(d->arena, r->media));
			put_str(k, ws, row, 10, part_number_of(d, r));
			put_metres(k, ws, row, 11, be_pull_length(r->stock));
			row++;
		}
	}
	sheet_done(k, ws, row);
	free(ent);
	free(start);
}

/* A rack's devices in U order (unplaced last), then object order. */
struct placed {
	uint32_t rack;
	int64_t at; /* INT64_MAX when not placed */
	uint32_t dev;
};

static int placed_cmp(const void *pa, const void *pb)
{
	const struct placed *x = pa, *y = pb;

	if (x->rack != y->rack)
		return x->rack < y->rack ? -1 : 1;
	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

static void sheet_racks(struct book *k)
{
	static const char *const cols[] = {
		"rack",	    "u",    "height_u",	   "device",
		"category", "part", "part_number", "in_assembly",
	};
	const struct rk_design *d = k->d;
	lxw_worksheet *ws = workbook_add_worksheet(k->wb, "racks");
	struct placed *dev = NULL;
	uint32_t n = 0, cap = 0, row = 1;

	header(k, ws, cols, ARRAY_SIZE(cols));
	for (uint32_t i = 0; i < d->nobjs; i++)
		if (d->objs[i].kind == K_DEVICE && k->rack[i] != RK_NONE) {
			struct placed *x = VEC_PUSH(dev, n, cap);

			x->rack = k->rack[i];
			x->at = k->at[i] >= 1 ? k->at[i] : INT64_MAX;
			x->dev = i;
		}
	if (n)
		qsort(dev, n, sizeof(*dev), placed_cmp);
	for (uint32_t j = 0; j < n && !k->failed; j++, row++) {
		uint32_t i = dev[j].dev, part = d->objs[i].part;
		uint32_t asm_part = layout_assembly_of(d, i);
		uint32_t pn = part != RK_NONE ? be_part_number(d, part, -1) : 0;
		int64_t h = ir_num(d, i, A_HEIGHT, -1);

		put_str(k, ws, row, 0, ir_name(d, k->rack[i]));
		if (k->at[i] >= 1)
			put_count(k, ws, row, 1, k->at[i]);
		if (h >= 0)
			put_count(k, ws, row, 2, h);
		put_str(k, ws, row, 3, ir_name(d, i));
		put_str(k, ws, row, 4, rk_class_name(d->objs[i].cls));
		if (part != RK_NONE)
			put_str(k, ws, row, 5, ir_name(d, part));
		if (pn)
			put_str(k, ws, row, 6, str_of(d->arena, pn));
		if (asm_part != RK_NONE)
			put_str(k, ws, row, 7, ir_name(d, asm_part));
	}
	sheet_done(k, ws, row);
	free(dev);
}

/* Copy file @path into @fp; false on an I/O error. */
static bool copy_into(const char *path, FILE *fp)
{
	FILE *in = fopen(path, "rb");
	char buf[65536];
	size_t n;
	bool ok = in != NULL;

	while (ok && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ok = fwrite(buf, 1, n, fp) == n;
	if (in) {
		ok = ok && !ferror(in);
		fclose(in);
	}
	return ok;
}

static bool emit_xlsx(struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	lxw_workbook_options opts = { .constant_memory = LXW_TRUE,
				      .tmpdir = NULL };
	lxw_doc_properties props;
	char title[] = "Bill of materials";
	struct book k;
	struct bom b;
	FILE *fp;
	char *tmp;
	size_t n;
	lxw_error err;
	bool ok;

	if (!bom_build(ctx, &b))
		return false;
	fp = out_open(ctx, "bom.xlsx");
	if (!fp) {
		bom_free(&b);
		return false;
	}
	n = strlen(ctx->outdir) + 32;
	tmp = xmalloc(n);
	snprintf(tmp, n, "%s/.bom.xlsx.lxw.%ld", ctx->outdir, (long)getpid());
	memset(&k, 0, sizeof(k));
	k.d = d;
	k.a = ctx->arena;
	k.rack = xmalloc(((size_t)d->nobjs + 1) * sizeof(*k.rack));
	k.at = xmalloc(((size_t)d->nobjs + 1) * sizeof(*k.at));
	for (uint32_t i = 0; i < d->nobjs; i++) {
		k.rack[i] = layout_rack_of(d, i);
		k.at[i] = layout_at(d, i);
	}
	k.wb = workbook_new_opt(tmp, &opts);
	ok = k.wb != NULL;
	if (ok) {
		memset(&props, 0, sizeof(props));
		props.title = title;
		props.created = 946684800; /* 2000-01-01T00:00:00Z: fixed */
		workbook_set_properties(k.wb, &props);
		k.money = workbook_add_format(k.wb);
		format_set_num_format(k.money, "#,##0.00");
		k.length = workbook_add_format(k.wb);
		format_set_num_format(k.length, "0.00");
		k.count = workbook_add_format(k.wb);
		format_set_num_format(k.count, "0");
		k.head = workbook_add_format(k.wb);
		format_set_bold(k.head);
		sheets_bom(&k, &b);
		sheet_cables(&k, derived_cableplan(ctx->dv));
		sheet_pull(&k, derived_cableplan(ctx->dv));
		sheet_racks(&k);
		err = workbook_close(k.wb);
		ok = err == LXW_NO_ERROR && !k.failed;
		if (!ok)
			diag_error(ctx->diag, NULL, "io",
				   "cannot write bom.xlsx: %s",
				   err ? lxw_strerror(err) : "a cell failed");
		ok = ok && copy_into(tmp, fp);
	} else {
		diag_error(ctx->diag, NULL, "io", "cannot create '%s': %s", tmp,
			   strerror(errno));
	}
	if (!ok)
		ctx->failed = true;
	remove(tmp);
	free(tmp);
	free(k.rack);
	free(k.at);
	bom_free(&b);
	return out_close(ctx, fp) && ok;
}

const struct backend backend_xlsx = {
	.name = "xlsx",
	.summary = "bom.xlsx: the BOM, spares, cables, pull list and rack "
		   "contents as a workbook (only when -O names it)",
	.emit = emit_xlsx,
	.needs = BE_NEEDS_PLAN,
	.weight = 20,
	.on_request = true, /* the slowest back end: only when asked for */
};
