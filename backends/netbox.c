/* SPDX-License-Identifier: MIT */
/*
 * The "netbox" back end: the design as NetBox bulk-import CSV files, one
 * per object type, under netbox/, named with the import order in front
 * (01-sites.csv to 13-cables.csv): nb_files below has a row per file with
 * its name, its columns and the function that writes its rows.
 *
 * Mapping (doc/results.md, "NetBox export", has the full table): a device, rack or
 * feed is named by its full rackc name (unique in the design, so unique in
 * NetBox's scopes); a device type's model is the catalog part's name; a
 * device's power ports are its part's supplies psu[0..psus-1] (type from
 * the part's inlet); a device with a `feed` gets one power port "inlet",
 * cabled from that feed; a PDU part's outlets_c13 / outlets_c19 become
 * outlets C13-1.., C19-1..; each supply wired by `power psu[..] -> PDU` is
 * cabled to the PDU's next free outlet of the mating type (C14 -> C13,
 * C20 -> C19).  Each rackc feed is a power panel (its full name), and each
 * device with a `feed` a power feed of that panel, named after the device.
 * Everything is "planned".  Devices outside any site are not exported
 * (warning), nor are links without a cable (backplane); a port that
 * carries several links (a splitter's fan-out end) keeps its first, as a
 * NetBox interface takes one cable (warning).
 */
#include "rackc.h"

#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "be_common.h"
#include "cableplan.h"
#include "csv.h"
#include "layout.h"
#include "metrics.h"
#include "schema.h"

#define NB_COLS(...)                          \
	(const char *const[]){ __VA_ARGS__ }, \
	    sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(char *)

struct nb {
	struct backend_ctx *ctx;
	const struct rk_design *d;
	struct arena *a;
	uint32_t *site;	   /* device/rack -> site, RK_NONE: not exported */
	uint32_t *rack;	   /* device -> rack, RK_NONE */
	const char **slug; /* object -> slug (sites, rows, parts, roles) */
	uint32_t *mfr;	   /* part -> interned vendor name */
	uint8_t *seen;	   /* scratch marks per object */
	uint32_t *outlet_next13, *outlet_next19; /* per PDU: next free */
	bool ok;
	/* the file being written: slugs it gave, manufacturers it wrote,
	 * roles it wrote (reset for each file) */
	const char **taken;
	uint32_t ntaken, taken_cap;
	const char **vendors;
	uint32_t nvendors, vendors_cap;
	bool role_seen[C__COUNT];
};

/* A NetBox slug ([a-z0-9_-]) made from @s, not among @taken[0..nt). */
static const char *make_slug(struct nb *n, const char *s, const char **taken,
			     uint32_t nt)
{
	size_t len = strlen(s), k = 0;
	char *b = arena_alloc(n->a, len + 2);
	const char *out;

	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      c == '_'))
			c = '-';
		if (c == '-' && (k == 0 || b[k - 1] == '-'))
			continue;
		b[k++] = c;
	}
	while (k && b[k - 1] == '-')
		k--;
	if (!k)
		b[k++] = 'x';
	b[k] = '\0';
	out = b;
	for (unsigned sfx = 2;; sfx++) {
		uint32_t i;

		for (i = 0; i < nt && strcmp(taken[i], out); i++)
			;
		if (i == nt)
			return out;
		out = arena_printf(n->a, "%s-%u", b, sfx);
	}
}

static const char *name_of(const struct nb *n, uint32_t o)
{
	return ir_name(n->d, o);
}

/* Whether object @o is a device exported to NetBox (it is in a site). */
static bool exported(const struct nb *n, uint32_t o)
{
	return n->d->objs[o].kind == K_DEVICE && n->site[o] != RK_NONE;
}

/* A component row: device, name, type (NULL or "": empty). */
static void comp_row(struct nb *n, struct csv *w, uint32_t dev,
		     const char *name, const char *type)
{
	csv_cell(w, name_of(n, dev));
	csv_cell(w, name);
	csv_cell(w, type && *type ? type : NULL);
	csv_end_row(w);
}

static const char *vendor_of(const struct nb *n, uint32_t part)
{
	const char *v = ir_str(n->d, part, A_VENDOR);

	return v && *v ? v : "unspecified";
}

static const char *word_of(const struct rk_design *d, uint32_t obj,
			   uint32_t key)
{
	const struct rk_value *v = ir_attr_inh(d, obj, key);

	return v && v->type == VT_WORD ? str_of(d->arena, v->a) : "";
}

/* NetBox power port type of an inlet form, "" when it has no match. */
static const char *inlet_type(const char *form)
{
	if (streq(form, "C14"))
		return "iec-60320-c14";
	if (streq(form, "C20"))
		return "iec-60320-c20";
	return "";
}

/* NetBox interface type of a port (form and speed), else "other". */
static const char *iface_type(const struct rk_design *d, uint32_t port)
{
	static const struct {
		const char *form;
		int64_t gbps;
		const char *type;
	} map[] = {
		{ "OSFP", 400, "400gbase-x-osfp" },
		{ "OSFP", 800, "800gbase-x-osfp" },
		{ "QSFP112", 400, "400gbase-x-qsfp112" },
		{ "QSFP56", 200, "200gbase-x-qsfp56" },
		{ "QSFP28", 100, "100gbase-x-qsfp28" },
		{ "SFP28", 25, "25gbase-x-sfp28" },
		{ "RJ45", 1, "1000base-t" },
		{ "RJ45", 10, "10gbase-t" },
	};
	const char *form = word_of(d, port, A_FORM);
	int64_t bps = ir_num(d, port, A_SPEED, -1);

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (streq(form, map[i].form) && bps == map[i].gbps * 1000000000)
			return map[i].type;
	return "other";
}

/* Ports of @part and its bases (base first), effective ones only. */
static uint32_t part_ports(const struct rk_design *d, uint32_t part,
			   uint32_t **out)
{
	uint32_t chain[RK_MAX_PART_DEPTH + 1], n = 0, cap = 0;
	uint32_t nc = ir_part_chain(d, part, chain);

	*out = NULL;
	while (nc--)
		for_each_child(d, chain[nc], c)
			if (d->objs[c].kind == K_PORT &&
			    ir_member_effective(d, part, c))
				*VEC_PUSH(*out, n, cap) = c;
	return n;
}

static void cell_num(struct csv *w, int64_t v)
{
	if (v < 0)
		csv_cell(w, NULL);
	else
		csv_cell_u64(w, (uint64_t)v);
}

/* A slug for @s, unique among those the file being written gave. */
static const char *file_slug(struct nb *n, const char *s)
{
	const char *slug = make_slug(n, s, n->taken, n->ntaken);

	*VEC_PUSH(n->taken, n->ntaken, n->taken_cap) = slug;
	return slug;
}

static void site_rows(struct nb *n, struct csv *w, uint32_t o)
{
	if (n->d->objs[o].kind != K_SITE)
		return;
	n->slug[o] = file_slug(n, name_of(n, o));
	csv_cell(w, name_of(n, o));
	csv_cell(w, n->slug[o]);
	csv_cell(w, "planned");
	csv_end_row(w);
}

static void location_rows(struct nb *n, struct csv *w, uint32_t o)
{
	const struct rk_design *d = n->d;
	uint32_t s;

	if (d->objs[o].kind != K_ROW ||
	    (s = ir_ancestor(d, o, K_SITE)) == RK_NONE)
		return;
	/* slugs are unique per site; rows are few, so one list */
	n->slug[o] = file_slug(n, name_of(n, o));
	csv_cell(w, name_of(n, s));
	csv_cell(w, name_of(n, o));
	csv_cell(w, n->slug[o]);
	csv_cell(w, "planned");
	csv_end_row(w);
}

static void rack_rows(struct nb *n, struct csv *w, uint32_t o)
{
	const struct rk_design *d = n->d;
	uint32_t row;

	if (d->objs[o].kind != K_RACK || n->site[o] == RK_NONE)
		return;
	row = ir_ancestor(d, o, K_ROW);
	csv_cell(w, name_of(n, n->site[o]));
	csv_cell(w, row != RK_NONE ? name_of(n, row) : NULL);
	csv_cell(w, name_of(n, o));
	csv_cell(w, "planned");
	/* rail to rail, in inches: rackc mounts in U on EIA-310 rails */
	csv_cell(w, "19");
	cell_num(w, layout_rack_units(d, o) > 0 ? layout_rack_units(d, o) : -1);
	csv_end_row(w);
}

static void manufacturer_rows(struct nb *n, struct csv *w, uint32_t o)
{
	const char *v;
	uint32_t i;

	if (!exported(n, o))
		return;
	v = vendor_of(n, n->d->objs[o].part);
	for (i = 0; i < n->nvendors && strcmp(n->vendors[i], v); i++)
		;
	if (i < n->nvendors)
		return;
	*VEC_PUSH(n->vendors, n->nvendors, n->vendors_cap) = v;
	csv_cell(w, v);
	csv_cell(w, file_slug(n, v));
	csv_end_row(w);
}

static void role_rows(struct nb *n, struct csv *w, uint32_t o)
{
	uint16_t c = n->d->objs[o].cls;

	if (!exported(n, o) || c >= C__COUNT || n->role_seen[c])
		return;
	n->role_seen[c] = true;
	/* class names are lower-case words: their own slugs */
	csv_cell(w, rk_class_name((enum rk_class)c));
	csv_cell(w, make_slug(n, rk_class_name((enum rk_class)c), NULL, 0));
	csv_cell(w, "9e9e9e");
	csv_end_row(w);
}

static void type_rows(struct nb *n, struct csv *w, uint32_t o)
{
	const struct rk_design *d = n->d;
	uint32_t p = d->objs[o].part;
	uint32_t pn;

	if (!exported(n, o) || n->seen[p])
		return;
	n->seen[p] = 1;
	n->slug[p] = file_slug(n, name_of(n, p));
	pn = be_part_number(d, p, -1);
	csv_cell(w, vendor_of(n, p));
	csv_cell(w, name_of(n, p));
	csv_cell(w, n->slug[p]);
	csv_cell(w, pn ? str_of(d->arena, pn) : NULL);
	cell_num(w, layout_height_u(d, o));
	csv_end_row(w);
}

static void device_rows(struct nb *n, struct csv *w, uint32_t o)
{
	const struct rk_design *d = n->d;
	uint32_t r = n->rack[o], row;
	int64_t at;

	if (!exported(n, o))
		return;
	row = r != RK_NONE ? ir_ancestor(d, r, K_ROW) : RK_NONE;
	/* NetBox places only devices of 1U or more at a position */
	at = r != RK_NONE && layout_height_u(d, o) > 0 ? layout_at(d, o) : -1;
	csv_cell(w, name_of(n, o));
	csv_cell(w, rk_class_name((enum rk_class)d->objs[o].cls));
	csv_cell(w, vendor_of(n, d->objs[o].part));
	csv_cell(w, name_of(n, d->objs[o].part));
	csv_cell(w, "planned");
	csv_cell(w, name_of(n, n->site[o]));
	csv_cell(w, row != RK_NONE ? name_of(n, row) : NULL);
	csv_cell(w, r != RK_NONE ? name_of(n, r) : NULL);
	cell_num(w, at);
	csv_cell(w, at > 0 ? "front" : NULL);
	csv_end_row(w);
}

static void interface_rows(struct nb *n, struct csv *w, uint32_t o)
{
	const struct rk_design *d = n->d;
	uint32_t *ports, np;

	if (!exported(n, o))
		return;
	np = part_ports(d, d->objs[o].part, &ports);
	for (uint32_t i = 0; i < np; i++) {
		comp_row(n, w, o, str_of(d->arena, d->objs[ports[i]].local),
			 iface_type(d, ports[i]));
	}
	free(ports);
}

static uint32_t feed_of(const struct nb *n, uint32_t o);

static void power_port_rows(struct nb *n, struct csv *w, uint32_t o)
{
	const struct rk_design *d = n->d;
	int64_t psus;
	const char *t;

	if (!exported(n, o))
		return;
	psus = ir_num(d, o, A_PSUS, 0);
	t = inlet_type(word_of(d, o, A_INLET));
	for (int64_t k = 0; k < psus; k++) {
		char nm[32];

		snprintf(nm, sizeof(nm), "psu[%lld]", (long long)k);
		comp_row(n, w, o, nm, t);
	}
	if (feed_of(n, o) != RK_NONE) {
		comp_row(n, w, o, "inlet", NULL);
	}
}

static void outlet_rows(struct nb *n, struct csv *w, uint32_t o)
{
	const struct rk_design *d = n->d;
	int64_t c13, c19;

	if (!exported(n, o))
		return;
	c13 = ir_num(d, o, A_OUTLETS_C13, 0);
	c19 = ir_num(d, o, A_OUTLETS_C19, 0);
	for (int64_t k = 1; k <= c19 + c13; k++) {
		char nm[32];
		bool is19 = k <= c19;

		snprintf(nm, sizeof(nm), "%s-%lld", is19 ? "C19" : "C13",
			 (long long)(is19 ? k : k - c19));
		comp_row(n, w, o, nm, is19 ? "iec-60320-c19" : "iec-60320-c13");
	}
}

static void panel_rows(struct nb *n, struct csv *w, uint32_t o)
{
	const struct rk_design *d = n->d;
	uint32_t s;

	if (d->objs[o].kind != K_FEED ||
	    (s = ir_ancestor(d, o, K_SITE)) == RK_NONE)
		return;
	csv_cell(w, name_of(n, s));
	csv_cell(w, name_of(n, o));
	csv_end_row(w);
}

/* A whole number of base units @v / @per, or -1 when it is not. */
static int64_t whole(int64_t v, int64_t per)
{
	return v >= 0 && v % per == 0 ? v / per : -1;
}

/* The rackc feed of device @o when it is exported as a NetBox power
 * feed (RK_NONE otherwise). */
static uint32_t feed_of(const struct nb *n, uint32_t o)
{
	const struct rk_value *v;

	if (n->d->objs[o].kind != K_DEVICE || n->site[o] == RK_NONE ||
	    !(v = ir_attr(n->d, o, A_FEED)) || v->type != VT_OBJ ||
	    ir_ancestor(n->d, v->a, K_SITE) != n->site[o])
		return RK_NONE;
	return v->a;
}

/*
 * The NetBox rating of the power feed of device @o (a PDU or power shelf
 * with a `feed`): its inlet's rating (the part's), else the rackc feed's.
 * Volts and amps as NetBox's integer fields take them (-1: unknown, not a
 * whole number, or out of the field's range); max utilization in whole
 * percent from the derating (floored: no more than the design allows;
 * 100 without one, as rackc's power model then uses the full rating).
 */
struct nb_rating {
	int64_t phases, volts, amps, util;
	const struct rk_value *vloc, *aloc; /* where each came from */
};

static int64_t nb_small(int64_t v, int64_t per)
{
	v = whole(v, per);
	return v >= 1 && v <= 32767 ? v : -1;
}

static void feed_rating(const struct nb *n, uint32_t o, uint32_t f,
			struct nb_rating *r)
{
	const struct rk_design *d = n->d;
	int64_t der;

	r->phases = ir_num(d, o, A_PHASES, ir_num(d, f, A_PHASES, 1));
	r->vloc = ir_attr_inh(d, o, A_VOLTAGE);
	if (!r->vloc || r->vloc->type != VT_NUM)
		r->vloc = ir_attr_inh(d, f, A_VOLTAGE);
	r->aloc = ir_attr_inh(d, o, A_CURRENT);
	if (!r->aloc || r->aloc->type != VT_NUM)
		r->aloc = ir_attr_inh(d, f, A_CURRENT);
	r->volts = r->vloc && r->vloc->type == VT_NUM
		       ? nb_small(r->vloc->n, 1000)
		       : -1;
	r->amps = r->aloc && r->aloc->type == VT_NUM
		      ? nb_small(r->aloc->n, 1000)
		      : -1;
	der = ir_num(d, o, A_DERATE, ir_num(d, f, A_DERATE, 0));
	r->util = der > 0 && der < RK_RATIO_ONE ? der / 10000 : 100;
	if (r->util < 1)
		r->util = 1;
}

/*
 * NetBox requires a power feed's voltage and amperage (the import form
 * has no default for them): a feed the design gives neither is an error,
 * located at the device's `feed`, rather than a file that fails import.
 */
static bool check_feeds(struct nb *n)
{
	const struct rk_design *d = n->d;
	bool ok = true;

	for (uint32_t o = 0; o < d->nobjs; o++) {
		uint32_t f = feed_of(n, o);
		struct nb_rating r;
		const struct rk_value *at;

		if (f == RK_NONE)
			continue;
		feed_rating(n, o, f, &r);
		if (r.volts > 0 && r.amps > 0)
			continue;
		at = ir_attr(d, o, A_FEED);
		diag_error(n->ctx->diag, &at->loc, "netbox",
			   "%s: NetBox needs the %s of its power feed: "
			   "%s (give `%s` to the part or to feed %s, in "
			   "whole %s up to 32767)",
			   name_of(n, o), r.volts > 0 ? "amperage" : "voltage",
			   (r.volts > 0 ? r.aloc : r.vloc)
			       ? "not a whole number "
				 "in range"
			       : "unknown",
			   r.volts > 0 ? "current" : "voltage", name_of(n, f),
			   r.volts > 0 ? "amperes" : "volts");
		ok = false;
	}
	return ok;
}

static void feed_rows(struct nb *n, struct csv *w, uint32_t o)
{
	const struct rk_design *d = n->d;
	uint32_t f = feed_of(n, o);
	uint32_t row;
	struct nb_rating r;

	if (f == RK_NONE)
		return;
	feed_rating(n, o, f, &r);
	/* NetBox looks the rack up within the row's location (an empty one
	 * matches no rack): a rack in no row is not named */
	row =
	    n->rack[o] != RK_NONE ? ir_ancestor(d, n->rack[o], K_ROW) : RK_NONE;
	csv_cell(w, name_of(n, n->site[o]));
	csv_cell(w, name_of(n, f));
	csv_cell(w, row != RK_NONE ? name_of(n, row) : NULL);
	csv_cell(w, row != RK_NONE ? name_of(n, n->rack[o]) : NULL);
	csv_cell(w, name_of(n, o));
	csv_cell(w, "planned");
	csv_cell(w, "primary");
	csv_cell(w, "ac");
	csv_cell(w, r.phases == 3 ? "three-phase" : "single-phase");
	cell_num(w, r.volts);
	cell_num(w, r.amps);
	cell_num(w, r.util);
	csv_end_row(w);
}

static const char *cable_type(const char *media)
{
	static const char *const map[][2] = {
		{ "dac", "dac-passive" }, { "acc", "dac-active" },
		{ "aoc", "aoc" },	  { "mmf", "mmf" },
		{ "smf", "smf" },	  { "cat5e", "cat5e" },
		{ "cat6", "cat6" },	  { "power", "power" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (streq(media, map[i][0]))
			return map[i][1];
	return NULL;
}

/* One end of a cable: site, device (or panel), type, name. */
static void cable_end(struct csv *w, const char *site, const char *dev,
		      const char *panel, const char *type, const char *name,
		      bool with_panel)
{
	csv_cell(w, site);
	csv_cell(w, dev);
	if (with_panel)
		csv_cell(w, panel);
	csv_cell(w, type);
	csv_cell(w, name);
}

/*
 * The rest of a cable row: type, status, label and the length @um (-1:
 * none).  NetBox keeps a cable's length to two decimals of its unit: a
 * length that is no whole number of centimetres (a cable cut to length)
 * is rounded up to one, which the cable is no shorter than.
 */
static void cable_tail(struct csv *w, const char *type, const char *label,
		       int64_t um)
{
	char buf[CSV_NUM_MAX];

	if (um > 0 && um % 10000)
		um += 10000 - um % 10000;
	csv_cell(w, type);
	csv_cell(w, "planned");
	csv_cell(w, label);
	csv_cell(w, um >= 0 ? csv_metres(um, buf) : NULL);
	csv_cell(w, um >= 0 ? "m" : NULL);
	csv_end_row(w);
}

/* The power cables of device @o: from its feed, and from its supplies to
 * the PDUs they plug into. */
static void power_cable_rows(struct nb *n, struct csv *w, uint32_t o)
{
	const struct rk_design *d = n->d;
	const struct rk_obj *ob = &d->objs[o];
	const char *inlet;

	if (!exported(n, o))
		return;
	if (feed_of(n, o) != RK_NONE) {
		cable_end(w, name_of(n, n->site[o]), NULL,
			  name_of(n, feed_of(n, o)), "dcim.powerfeed",
			  name_of(n, o), true);
		cable_end(w, name_of(n, n->site[o]), name_of(n, o), NULL,
			  "dcim.powerport", "inlet", false);
		cable_tail(w, "power", NULL, -1);
	}
	inlet = word_of(d, o, A_INLET);
	for (uint32_t k = 0; k < ob->attr_count; k++) {
		const struct rk_attr *at = &d->attrs[ob->attr_first + k];
		const struct rk_value *l, *p;

		if (at->key != A_POWER || at->val.type != VT_PAIR)
			continue;
		l = &d->vals[at->val.a];
		p = &d->vals[at->val.a + 1];
		if (l->type != VT_LIST || p->type != VT_OBJ ||
		    n->site[p->a] == RK_NONE || streq(inlet, "busbar"))
			continue;
		if (!*inlet) {
			/* unknown, never a form of its own */
			diag_warning(n->ctx->diag, &l->loc, "netbox",
				     "%s: its supplies' inlet is unknown "
				     "(its part gives none): no power "
				     "cables to %s exported",
				     name_of(n, o), name_of(n, p->a));
			continue;
		}
		if (!streq(inlet, "C14") && !streq(inlet, "C20")) {
			diag_warning(n->ctx->diag, &l->loc, "netbox",
				     "%s: supplies with inlet '%s' plug "
				     "into no C13/C19 outlet of %s: no "
				     "power cables exported",
				     name_of(n, o), inlet, name_of(n, p->a));
			continue;
		}
		for (int64_t i = 0; i < l->n; i++) {
			int64_t psu = d->vals[l->a + (uint32_t)i].n;
			bool is19 = streq(inlet, "C20");
			int64_t max = ir_num(
			    d, p->a, is19 ? A_OUTLETS_C19 : A_OUTLETS_C13, 0);
			uint32_t *next =
			    is19 ? n->outlet_next19 : n->outlet_next13;
			char pn[32], on[32];

			if (next[p->a] >= max) {
				diag_warning(n->ctx->diag, &l->loc, "netbox",
					     "%s psu[%lld]: no free %s outlet "
					     "left on %s: no power cable "
					     "exported",
					     name_of(n, o), (long long)psu,
					     is19 ? "C19" : "C13",
					     name_of(n, p->a));
				continue;
			}
			snprintf(pn, sizeof(pn), "psu[%lld]", (long long)psu);
			snprintf(on, sizeof(on), "%s-%u", is19 ? "C19" : "C13",
				 ++next[p->a]);
			cable_end(w, name_of(n, n->site[o]), name_of(n, o),
				  NULL, "dcim.powerport", pn, true);
			cable_end(w, name_of(n, n->site[p->a]),
				  name_of(n, p->a), NULL, "dcim.poweroutlet",
				  on, false);
			cable_tail(w, "power", NULL, -1);
		}
	}
}

/* Whether link @li is exported as a cable. */
static bool cabled(const struct nb *n, const struct cable_plan *p, uint32_t li)
{
	const struct rk_link *l = &n->d->links[li];

	return p->links[li].status != CP_NOT_CABLED &&
	       n->site[l->a_dev] != RK_NONE && n->site[l->b_dev] != RK_NONE;
}

/* One cabled link end: (device, port) and the link. */
struct nb_end {
	uint64_t key;
	uint32_t li;
};

static uint64_t end_key(uint32_t dev, uint32_t port)
{
	return (uint64_t)dev << 32 | port;
}

static int cmp_end(const void *x, const void *y)
{
	const struct nb_end *a = x, *b = y;

	if (a->key != b->key)
		return (a->key > b->key) - (a->key < b->key);
	return (a->li > b->li) - (a->li < b->li);
}

/* Whether link @li is the first (in link order) on port @key. */
static bool first_use(const struct nb_end *ends, uint32_t n, uint64_t key,
		      uint32_t li)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ends[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && ends[lo].key == key && ends[lo].li == li;
}

/* The cables of the cabled links, in link order. */
static void link_cable_rows(struct nb *n, struct csv *w)
{
	const struct rk_design *d = n->d;
	const struct cable_plan *p = derived_cableplan(n->ctx->dv);
	struct nb_end *ends;
	uint32_t nends = 0;

	/* a port takes one cable: the ends of the cabled links, sorted by
	 * (device, port, link); a link that is not the first on one of its
	 * ports is not exported */
	ends = xmalloc(((size_t)d->nlinks * 2 + 1) * sizeof(*ends));
	for (uint32_t li = 0; li < d->nlinks; li++) {
		const struct rk_link *l = &d->links[li];

		if (!cabled(n, p, li))
			continue;
		ends[nends].key = end_key(l->a_dev, l->a_port);
		ends[nends++].li = li;
		ends[nends].key = end_key(l->b_dev, l->b_port);
		ends[nends++].li = li;
	}
	qsort(ends, nends, sizeof(*ends), cmp_end);
	for (uint32_t li = 0; li < d->nlinks; li++) {
		const struct rk_link *l = &d->links[li];
		char id[CP_ID_CHARS + 1];

		if (!cabled(n, p, li))
			continue;
		if (!first_use(ends, nends, end_key(l->a_dev, l->a_port), li) ||
		    !first_use(ends, nends, end_key(l->b_dev, l->b_port), li)) {
			diag_warning(n->ctx->diag, &l->loc, "netbox",
				     "a port of this link has an earlier link "
				     "(a NetBox interface takes one cable): "
				     "link not exported");
			continue;
		}
		cable_end(w, name_of(n, n->site[l->a_dev]),
			  name_of(n, l->a_dev), NULL, "dcim.interface",
			  str_of(d->arena, d->objs[l->a_port].local), true);
		cable_end(w, name_of(n, n->site[l->b_dev]),
			  name_of(n, l->b_dev), NULL, "dcim.interface",
			  str_of(d->arena, d->objs[l->b_port].local), false);
		cableplan_id_str(p->links[li].id - 1, id);
		cable_tail(
		    w,
		    p->links[li].media
			? cable_type(str_of(d->arena, p->links[li].media))
			: NULL,
		    p->links[li].id ? id : NULL, p->links[li].stock);
	}
	free(ends);
}

/* ---- device types for the community device-type library ---- */

/*
 * netbox/device-types/<Manufacturer>/<model>.yaml: the part of each
 * exported device as a device type in the schema of
 * netbox-community/devicetype-library (doc/netbox.md lists what is written
 * and how each value is derived).  The model is the part's name, as in
 * 06-device-types.csv, so 07-devices.csv finds the type either way.
 */

/* @s with every @from replaced by @to, left to right (Python's
 * str.replace). */
static char *replace_all(struct arena *a, const char *s, const char *from,
			 const char *to)
{
	size_t lf = strlen(from), lt = strlen(to), n = 0, k = 0;
	const char *p = s, *q;
	char *out;

	for (q = strstr(s, from); q; q = strstr(q + lf, from))
		n++;
	out = arena_alloc(a, strlen(s) + n * lt + 1);
	while ((q = strstr(p, from))) {
		memcpy(out + k, p, (size_t)(q - p));
		k += (size_t)(q - p);
		memcpy(out + k, to, lt);
		k += lt;
		p = q + lf;
	}
	strcpy(out + k, p);
	return out;
}

/*
 * The library's slug of a manufacturer (@mfr) or of a model: lower case,
 * then its replacements in its order (the library's tests/device_types.py,
 * doc/netbox.md); a model's loses one trailing '-'.
 */
static char *dt_slugify(struct arena *a, const char *s, bool mfr)
{
	static const char *const model_rep[][2] = {
		{ " ", "-" },	   { "sfp+", "sfpp" }, { "poe+", "poep" },
		{ "-+", "-plus" }, { "+", "-plus-" },  { "_", "-" },
		{ "&", "-and-" },  { "!", "" },	       { "/", "-" },
		{ ",", "" },	   { "'", "" },	       { "*", "-" },
	};
	static const char *const mfr_rep[][2] = {
		{ " ", "-" },	    { "sfp+", "sfpp" }, { "poe+", "poep" },
		{ "-+", "-plus-" }, { "+", "-plus" },	{ "_", "-" },
		{ "!", "" },	    { "/", "-" },	{ ",", "" },
		{ "'", "" },	    { "*", "-" },	{ "&", "and" },
	};
	const char *const(*rep)[2] = mfr ? mfr_rep : model_rep;
	size_t nrep = mfr ? ARRAY_SIZE(mfr_rep) : ARRAY_SIZE(model_rep);
	char *b = arena_printf(a, "%s", s);
	size_t len;

	for (char *p = b; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	for (size_t i = 0; i < nrep; i++)
		b = replace_all(a, b, rep[i][0], rep[i][1]);
	len = strlen(b);
	if (!mfr && len && b[len - 1] == '-')
		b[len - 1] = '\0';
	return b;
}

/* A YAML scalar for @s: plain where YAML reads it back as that string,
 * else double-quoted. */
static void yaml_str(FILE *fp, const char *s)
{
	static const char *const special[] = { "true", "false", "yes",
					       "no",   "on",	"off",
					       "null", "y",	"n" };
	bool plain = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z');

	for (const char *p = s; plain && *p; p++)
		plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			(*p >= '0' && *p <= '9') || strchr("_.-+/()[]", *p);
	for (size_t i = 0; plain && i < ARRAY_SIZE(special); i++) {
		size_t k = 0;

		while (s[k] && (s[k] | 0x20) == special[i][k])
			k++;
		plain = s[k] || special[i][k];
	}
	if (plain) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (const char *p = s; *p; p++) {
		if ((unsigned char)*p < 0x20) {
			fprintf(fp, "\\x%02x", (unsigned)(unsigned char)*p);
			continue;
		}
		if (*p == '"' || *p == '\\')
			fputc('\\', fp);
		fputc(*p, fp);
	}
	fputc('"', fp);
}

/* "key: value" after @lead (value a string). */
static void yaml_kv(FILE *fp, const char *lead, const char *key, const char *v)
{
	fprintf(fp, "%s%s: ", lead, key);
	yaml_str(fp, v);
	fputc('\n', fp);
}

/* The library's power port type of an inlet form ("other": none of its
 * types, or no inlet given). */
static const char *dt_inlet_type(const char *form)
{
	if (streq(form, "C22"))
		return "iec-60320-c22";
	return *inlet_type(form) ? inlet_type(form) : "other";
}

/* What the part does not say, for the file's opening comment. */
struct dt_gaps {
	const char *item[8];
	unsigned n;
};

static void gap(struct dt_gaps *g, const char *what)
{
	if (g->n < ARRAY_SIZE(g->item))
		g->item[g->n++] = what;
}

/*
 * The most one supply of @part draws, in whole watts rounded up (-1:
 * unknown): the part's power_max, and no more than one supply's rating
 * (psu_rating) where the part gives it.  rackc's power model takes the
 * power factor as 1 and does not model efficiency.
 */
static int64_t dt_max_draw(const struct rk_design *d, uint32_t part)
{
	int64_t pmax = ir_num(d, part, A_POWER_MAX, -1);
	int64_t rating = ir_num(d, part, A_PSU_RATING, -1);

	if (pmax <= 0)
		return -1;
	if (rating > 0 && rating < pmax)
		pmax = rating;
	return pmax / 1000 + (pmax % 1000 != 0);
}

/* A weight of @g grams as the library takes it (at most two decimals of
 * its unit): kg when it is a whole number of 10 g, else g. */
static void dt_weight(FILE *fp, int64_t g)
{
	if (g % 10 == 0)
		fprintf(fp, "weight: %lld.%02lld\nweight_unit: kg\n",
			(long long)(g / 1000), (long long)(g % 1000 / 10));
	else
		fprintf(fp, "weight: %lld\nweight_unit: g\n", (long long)g);
}

/* The component templates of device type @part (device @o is one). */
static void dt_components(struct nb *n, FILE *fp, uint32_t o, uint32_t part,
			  struct dt_gaps *g)
{
	const struct rk_design *d = n->d;
	uint32_t *ports, np = part_ports(d, part, &ports);
	int64_t psus = ir_num(d, part, A_PSUS, 0);
	int64_t draw = dt_max_draw(d, part);
	int64_t c13 = ir_num(d, part, A_OUTLETS_C13, 0);
	int64_t c19 = ir_num(d, part, A_OUTLETS_C19, 0);
	const char *inlet = word_of(d, part, A_INLET);
	const char *ptype = dt_inlet_type(inlet);
	bool any = false, pdu = d->objs[o].cls == C_PDU;

	for (uint32_t i = 0; i < np; i++) {
		if (!streq(word_of(d, ports[i], A_ROLE), "console"))
			continue;
		if (!any)
			fputs("console-ports:\n", fp);
		any = true;
		yaml_kv(fp, "  - ", "name",
			str_of(d->arena, d->objs[ports[i]].local));
		yaml_kv(fp, "    ", "type",
			streq(word_of(d, ports[i], A_FORM), "RJ45") ? "rj-45"
								    : "other");
	}
	if (psus > 0 || pdu)
		fputs("power-ports:\n", fp);
	if ((psus > 0 || pdu) && streq(ptype, "other"))
		gap(g, "power port type (no inlet of the library's types)");
	if (psus > 0 && draw < 0)
		gap(g, "maximum_draw (no power_max)");
	if (psus <= 0 && !pdu)
		gap(g, "power ports (the part gives no psus)");
	for (int64_t k = 0; k < psus; k++) {
		fprintf(fp, "  - name: psu[%lld]\n", (long long)k);
		yaml_kv(fp, "    ", "type", ptype);
		if (draw > 0)
			fprintf(fp, "    maximum_draw: %lld\n",
				(long long)draw);
	}
	if (pdu) {
		/* a PDU's input, named as 09-power-ports.csv names it */
		fputs("  - name: inlet\n", fp);
		yaml_kv(fp, "    ", "type", ptype);
	}
	if (c13 + c19 > 0)
		fputs("power-outlets:\n", fp);
	for (int64_t k = 1; k <= c19 + c13; k++) {
		bool is19 = k <= c19;

		fprintf(fp, "  - name: %s-%lld\n", is19 ? "C19" : "C13",
			(long long)(is19 ? k : k - c19));
		yaml_kv(fp, "    ", "type",
			is19 ? "iec-60320-c19" : "iec-60320-c13");
		if (pdu)
			fputs("    power_port: inlet\n", fp);
	}
	any = false;
	for (uint32_t i = 0; i < np; i++) {
		const char *role = word_of(d, ports[i], A_ROLE);

		if (streq(role, "console"))
			continue;
		if (!any)
			fputs("interfaces:\n", fp);
		any = true;
		yaml_kv(fp, "  - ", "name",
			str_of(d->arena, d->objs[ports[i]].local));
		yaml_kv(fp, "    ", "type", iface_type(d, ports[i]));
		if (streq(role, "mgmt"))
			fputs("    mgmt_only: true\n", fp);
	}
	free(ports);
}

/* The body of the device type of @part (device @o is one), into @m. */
static void dt_body(struct nb *n, FILE *m, uint32_t o, uint32_t part,
		    const char *slug, struct dt_gaps *g)
{
	const struct rk_design *d = n->d;
	const char *vmodel = ir_str(d, part, A_MODEL);
	uint32_t pn = be_part_number(d, part, -1);
	int64_t u = layout_height_u(d, o), wt = ir_num(d, part, A_WEIGHT, -1);

	yaml_kv(m, "", "manufacturer", vendor_of(n, part));
	yaml_kv(m, "", "model", name_of(n, part));
	yaml_kv(m, "", "slug", slug);
	if (vmodel && *vmodel)
		yaml_kv(m, "", "description",
			arena_printf(n->a, "%.200s", vmodel));
	if (pn && strlen(str_of(d->arena, pn)) <= 50)
		yaml_kv(m, "", "part_number", str_of(d->arena, pn));
	else
		gap(g, pn ? "part_number (longer than the library's 50 "
			    "characters)"
			  : "part_number");
	fprintf(m, "u_height: %lld\n", (long long)(u > 0 ? u : 0));
	/* rackc gives a device its rack units on both faces: full depth; a
	 * device of no height takes none */
	fprintf(m, "is_full_depth: %s\n", u > 0 ? "true" : "false");
	if (wt > 0)
		dt_weight(m, wt);
	else
		gap(g, "weight");
	gap(g, "airflow (not in rackc's catalog)");
	dt_components(n, m, o, part, g);
}

/* Write the device type of device @o's part, once per part. */
static void type_file(struct nb *n, uint32_t o)
{
	const struct rk_design *d = n->d;
	uint32_t p = d->objs[o].part;
	const char *mfr, *model, *dir;
	struct dt_gaps g = { .n = 0 };
	char *slug, *buf = NULL;
	size_t blen = 0, k = 0;
	FILE *fp, *m;

	if (!exported(n, o) || n->seen[p])
		return;
	n->seen[p] = 1;
	mfr = vendor_of(n, p);
	model = name_of(n, p);
	slug = arena_printf(n->a, "%s-%s", dt_slugify(n->a, mfr, true),
			    dt_slugify(n->a, model, false));
	/* the schema's slug pattern: a vendor name of other characters
	 * keeps the rest */
	for (const char *s = slug; *s && k < 100; s++)
		if ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    *s == '-' || *s == '_')
			slug[k++] = *s;
	slug[k] = '\0';
	dir = replace_all(n->a, mfr, "/", "-");
	if (dir[0] == '.')
		dir = arena_printf(n->a, "_%s", dir + 1);
	/* the body first, into memory: the opening comment lists the gaps
	 * found while writing it */
	m = open_memstream(&buf, &blen);
	if (!m) {
		n->ok = false;
		return;
	}
	dt_body(n, m, o, p, slug, &g);
	if (fclose(m)) {
		free(buf);
		n->ok = false;
		return;
	}
	fp = out_open(n->ctx,
		      arena_printf(n->a, "netbox/device-types/%s/%s.yaml", dir,
				   dt_slugify(n->a, model, false)));
	if (!fp) {
		free(buf);
		n->ok = false;
		return;
	}
	fprintf(fp,
		"---\n# rackc part %s as a device type of the NetBox "
		"device-type library\n",
		model);
	if (layout_height_u(d, o) <= 0)
		fputs("# u_height 0: the part gives no height (rackc mounts it "
		      "in no rack unit)\n",
		      fp);
	fputs("# not in the catalog, left out:", fp);
	for (unsigned i = 0; i < g.n; i++)
		fprintf(fp, "%s %s", i ? ";" : "", g.item[i]);
	fputc('\n', fp);
	fwrite(buf, 1, blen, fp);
	free(buf);
	if (!out_close(n->ctx, fp))
		n->ok = false;
}

/*
 * One file per row, in import order: its name, its columns, and where its
 * rows come from: @rows once, then @obj_rows for every object in order.
 */
struct nb_file {
	const char *name;
	const char *const *cols;
	unsigned ncols;
	void (*rows)(struct nb *n, struct csv *w);
	void (*obj_rows)(struct nb *n, struct csv *w, uint32_t o);
};

static const struct nb_file nb_files[] = {
	{ "01-sites.csv", NB_COLS("name", "slug", "status"), NULL, site_rows },
	{ "02-locations.csv", NB_COLS("site", "name", "slug", "status"), NULL,
	  location_rows },
	{ "03-racks.csv",
	  NB_COLS("site", "location", "name", "status", "width", "u_height"),
	  NULL, rack_rows },
	{ "04-manufacturers.csv", NB_COLS("name", "slug"), NULL,
	  manufacturer_rows },
	{ "05-device-roles.csv", NB_COLS("name", "slug", "color"), NULL,
	  role_rows },
	{ "06-device-types.csv",
	  NB_COLS("manufacturer", "model", "slug", "part_number", "u_height"),
	  NULL, type_rows },
	{ "07-devices.csv",
	  NB_COLS("name", "role", "manufacturer", "device_type", "status",
		  "site", "location", "rack", "position", "face"),
	  NULL, device_rows },
	{ "08-interfaces.csv", NB_COLS("device", "name", "type"), NULL,
	  interface_rows },
	{ "09-power-ports.csv", NB_COLS("device", "name", "type"), NULL,
	  power_port_rows },
	{ "10-power-outlets.csv", NB_COLS("device", "name", "type"), NULL,
	  outlet_rows },
	{ "11-power-panels.csv", NB_COLS("site", "name"), NULL, panel_rows },
	{ "12-power-feeds.csv",
	  NB_COLS("site", "power_panel", "location", "rack", "name", "status",
		  "type", "supply", "phase", "voltage", "amperage",
		  "max_utilization"),
	  NULL, feed_rows },
	{ "13-cables.csv",
	  NB_COLS("side_a_site", "side_a_device", "side_a_power_panel",
		  "side_a_type", "side_a_name", "side_b_site", "side_b_device",
		  "side_b_type", "side_b_name", "type", "status", "label",
		  "length", "length_unit"),
	  link_cable_rows, power_cable_rows },
};

/* Write file @f under netbox/; a failure is remembered in n->ok. */
static void write_file(struct nb *n, const struct nb_file *f)
{
	FILE *fp = out_open(n->ctx, arena_printf(n->a, "netbox/%s", f->name));
	struct csv w;

	if (!fp) {
		n->ok = false;
		return;
	}
	n->ntaken = n->nvendors = 0;
	memset(n->role_seen, 0, sizeof(n->role_seen));
	memset(n->seen, 0, n->d->nobjs);
	csv_init(&w, fp);
	csv_header(&w, f->cols, f->ncols);
	if (f->rows)
		f->rows(n, &w);
	if (f->obj_rows)
		for (uint32_t o = 0; o < n->d->nobjs; o++)
			f->obj_rows(n, &w, o);
	csv_fini(&w);
	if (!out_close(n->ctx, fp))
		n->ok = false;
}

static bool emit_netbox(struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	struct nb n = { .ctx = ctx, .d = d, .a = ctx->arena, .ok = true };
	size_t no = (size_t)d->nobjs + 1;

	n.site = arena_alloc(n.a, no * sizeof(*n.site));
	n.rack = arena_alloc(n.a, no * sizeof(*n.rack));
	n.slug = arena_zalloc(n.a, no * sizeof(*n.slug));
	n.seen = arena_zalloc(n.a, no);
	n.outlet_next13 = arena_zalloc(n.a, no * sizeof(uint32_t));
	n.outlet_next19 = arena_zalloc(n.a, no * sizeof(uint32_t));
	for (uint32_t o = 0; o < d->nobjs; o++) {
		uint8_t k = d->objs[o].kind;

		n.site[o] = n.rack[o] = RK_NONE;
		if (k == K_RACK) {
			n.site[o] = ir_ancestor(d, o, K_SITE);
		} else if (k == K_DEVICE) {
			n.rack[o] = layout_rack_of(d, o);
			n.site[o] = n.rack[o] != RK_NONE
					? ir_ancestor(d, n.rack[o], K_SITE)
					: ir_ancestor(d, o, K_SITE);
			if (n.site[o] == RK_NONE)
				diag_warning(ctx->diag, &d->objs[o].loc,
					     "netbox",
					     "%s is in no site: not exported "
					     "to NetBox",
					     name_of(&n, o));
		}
	}
	if (!check_feeds(&n))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(nb_files); i++)
		write_file(&n, &nb_files[i]);
	memset(n.seen, 0, d->nobjs);
	for (uint32_t o = 0; o < d->nobjs && n.ok; o++)
		type_file(&n, o);
	free(n.taken);
	free(n.vendors);
	return n.ok;
}

const struct backend backend_netbox = {
	.name = "netbox",
	.summary = "netbox/*.csv: NetBox bulk-import files (sites to cables), "
		   "numbered in import order; netbox/device-types/: the "
		   "parts as device-type library YAML",
	.emit = emit_netbox,
	.preflight = emit_netbox, /* dry: nothing is written */
	.needs = BE_NEEDS_PLAN,
	.on_request = true,
};
