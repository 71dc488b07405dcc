/* SPDX-License-Identifier: MIT */
/*
 * `rackc parts [OPTIONS] [PATTERN]`: list the catalog parts (the standard
 * library's modules and any module named with --import) whose name, vendor
 * or model matches PATTERN, as a table or as JSON; `--show NAME` prints one
 * part in full, every figure with the file and line it comes from and the
 * source tag of that line's comment.  The catalog is compiled like a design
 * that imports the modules, so inheritance is the compiler's own.
 */
#include "rackc.h"

#include <ctype.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "driver.h"
#include "metrics.h"
#include "parts.h"
#include "schema.h"
#include "suggest.h"
#include "util.h"

/* The standard library's modules (std/nvidia imports std/linkx). */
static const char *const std_modules[] = { "std/facility", "std/linkx",
					   "std/nvidia",   "std/amd",
					   "std/ethernet", "std/dell",
					   "std/storage",  "std/intel",
					   "std/lenovo",   "std/hpe" };

struct pctx {
	struct compilation *c;
	const struct rk_design *d;
	const char *stddir; /* the standard library's directory */
	bool json;
};

static const char *S(const struct pctx *x, uint32_t id)
{
	return str_of(x->d->arena, id);
}

/* The nearest value of @key on @part or its bases, or NULL. */
static const struct rk_value *part_attr(const struct pctx *x, uint32_t part,
					uint32_t key, uint32_t *from)
{
	for_each_base(x->d, p, part) {
		const struct rk_value *v = ir_attr(x->d, p, key);

		if (v) {
			if (from)
				*from = p;
			return v;
		}
	}
	return NULL;
}

static void format_value(const struct pctx *x, const struct rk_value *v,
			 char *buf, size_t n);

static void format_list(const struct pctx *x, const struct rk_value *v,
			char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < (uint32_t)v->n && k + 1 < n; i++) {
		char one[256];

		format_value(x, ir_list_at(x->d, v, i), one, sizeof(one));
		k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? ", " : "",
				      one);
		if (k >= n)
			k = n - 1;
	}
}

/* A value as a design writes it (strings without quotes). */
static void format_value(const struct pctx *x, const struct rk_value *v,
			 char *buf, size_t n)
{
	char q[RK_QFMT_MAX];

	switch (v->type) {
	case VT_NUM: {
		struct quantity qu = { (enum dim)v->dim, v->n };

		snprintf(buf, n, "%s", quantity_format(qu, q));
		break;
	}
	case VT_BOOL:
		snprintf(buf, n, "%s", v->n ? "true" : "false");
		break;
	case VT_STR:
	case VT_WORD:
	case VT_REF:
		snprintf(buf, n, "%s", S(x, v->a));
		break;
	case VT_RATIO:
		snprintf(buf, n, "%lld:%u", (long long)v->n, v->a);
		break;
	case VT_OBJ:
		snprintf(buf, n, "%s", S(x, x->d->objs[v->a].local));
		break;
	case VT_PORT:
		snprintf(buf, n, "%s", S(x, x->d->objs[v->n].local));
		break;
	case VT_LIST:
		format_list(x, v, buf, n);
		break;
	default:
		snprintf(buf, n, "...");
	}
}

static void json_str(FILE *fp, const char *s)
{
	putc('"', fp);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(fp, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(fp, "\\u%04x", ch);
		else
			putc(ch, fp);
	}
	putc('"', fp);
}

/* Case-insensitive match of @pat against @s: a glob when @pat has one of
 * * ? [, else a substring. */
static bool matches(const char *pat, const char *s)
{
	if (!s)
		return false;
	if (strpbrk(pat, "*?["))
		return fnmatch(pat, s, FNM_CASEFOLD) == 0;
	for (; *s; s++) {
		size_t i = 0;

		while (pat[i] && s[i] &&
		       tolower((unsigned char)pat[i]) ==
			   tolower((unsigned char)s[i]))
			i++;
		if (!pat[i])
			return true;
	}
	return !*pat;
}

/* ---- ports ---- */

struct pgroup {
	const char *form, *speed;
	uint32_t count;
};

/* Is port @m of @part (or a base) the one in effect?  Ports of a part
 * are its own and its bases' not redeclared. */
#define for_each_port(x, part, m)                             \
	for_each_base((x)->d, p_, (part))                     \
		for_each_child((x)->d, p_, m)                 \
			if ((x)->d->objs[m].kind == K_PORT && \
			    ir_member_effective((x)->d, (part), m))

static const char *port_str(const struct pctx *x, uint32_t port, uint32_t key,
			    char *buf, size_t n)
{
	const struct rk_value *v = ir_attr(x->d, port, key);

	if (!v)
		return NULL;
	format_value(x, v, buf, n);
	return buf;
}

/* "64x800Gb/s OSFP, 2xSFP28" (in order of first appearance). */
static char *ports_summary(const struct pctx *x, uint32_t part)
{
	struct pgroup *g = NULL;
	uint32_t ng = 0, cap = 0;
	char *out;
	size_t k = 0, n = 1;

	for_each_port(x, part, m)
	{
		char fb[64], sb[64];
		const char *f = port_str(x, m, A_FORM, fb, sizeof(fb));
		const char *sp = port_str(x, m, A_SPEED, sb, sizeof(sb));
		uint32_t i;

		f = f ? arena_strndup(x->d->arena, f, strlen(f)) : "";
		sp = sp ? arena_strndup(x->d->arena, sp, strlen(sp)) : "";
		for (i = 0; i < ng; i++)
			if (streq(g[i].form, f) && streq(g[i].speed, sp))
				break;
		if (i == ng) {
			struct pgroup *e = VEC_PUSH(g, ng, cap);

			e->form = f;
			e->speed = sp;
			e->count = 0;
			n += strlen(f) + strlen(sp) + 16;
		}
		g[i].count++;
	}
	out = arena_alloc(x->d->arena, n);
	out[0] = '\0';
	for (uint32_t i = 0; i < ng; i++)
		k += (size_t)snprintf(out + k, n - k, "%s%ux%s%s%s",
				      i ? ", " : "", g[i].count, g[i].speed,
				      *g[i].speed && *g[i].form ? " " : "",
				      g[i].form);
	free(g);
	return out;
}

/* ---- the catalog ---- */

static bool is_part(const struct pctx *x, uint32_t id)
{
	return x->d->objs[id].kind == K_PART;
}

/* A file's path as shown: the standard library's relative to its
 * directory (std/nvidia.rack), others as found. */
static const char *shown_path(const struct pctx *x, uint32_t file)
{
	const char *p = srcmgr_file(&x->c->sm, file)->path;
	size_t n = strlen(x->stddir);

	if (strncmp(p, x->stddir, n) == 0 && p[n] == '/')
		return p + n + 1;
	return p;
}

static const char *part_file(const struct pctx *x, uint32_t part)
{
	return shown_path(x, x->d->objs[part].loc.file);
}

static uint32_t line_of(const struct pctx *x, const struct srcloc *l)
{
	uint32_t line, col;

	srcmgr_linecol(&x->c->sm, l->file, l->begin, &line, &col);
	return line;
}

/* The comment on the line of @l ("N15: 141 GB HBM3e"), or "". */
static const char *line_comment(const struct pctx *x, const struct srcloc *l,
				char *buf, size_t n)
{
	const struct srcfile *f = srcmgr_file(&x->c->sm, l->file);
	const char *s = f->text + l->begin, *end = f->text + f->len;
	const char *e = memchr(s, '\n', (size_t)(end - s));
	const char *h;
	bool in_str = false;

	if (!e)
		e = end;
	for (h = s; h < e; h++) {
		if (*h == '"')
			in_str = !in_str;
		else if (*h == '#' && !in_str)
			break;
	}
	buf[0] = '\0';
	if (h >= e)
		return buf;
	for (h++; h < e && *h == ' '; h++)
		;
	snprintf(buf, n, "%.*s", (int)(e - h), h);
	return buf;
}

/* Every value of multi-valued @key on @part and its bases, own first. */
#define for_each_multi(x, part, akey, v)                                      \
	for_each_base((x)->d, p_, (part))                                     \
		for (uint32_t i_ = 0; i_ < (x)->d->objs[p_].attr_count; i_++) \
			for (const struct rk_value *v =                       \
				 &(x)->d->attrs[(x)->d->objs[p_].attr_first + \
						i_]                           \
				      .val;                                   \
			     v &&                                             \
			     (x)->d->attrs[(x)->d->objs[p_].attr_first + i_]  \
				     .key == (akey);                          \
			     v = NULL)

static bool part_matches(const struct pctx *x, uint32_t part, const char *pat)
{
	const struct rk_value *v;

	if (!pat)
		return true;
	if (matches(pat, S(x, x->d->objs[part].local)))
		return true;
	v = part_attr(x, part, A_VENDOR, NULL);
	if (v && matches(pat, S(x, v->a)))
		return true;
	v = part_attr(x, part, A_MODEL, NULL);
	return v && matches(pat, S(x, v->a));
}

static const char *figure(const struct pctx *x, uint32_t part, uint32_t key,
			  char *buf, size_t n)
{
	const struct rk_value *v = part_attr(x, part, key, NULL);

	if (!v)
		return NULL;
	format_value(x, v, buf, n);
	return buf;
}

/*
 * Whether @part's power_max is unknown: not given, and either marked
 * unknown (`unknown "power_max: reason"`, *@why the reason) or needed, the
 * part drawing power (a server or a switch, or a part that declares psus;
 * metrics.h, metrics_draws_power); *@why NULL without a mark.
 */
static bool power_max_unknown(const struct pctx *x, uint32_t part,
			      const char **why)
{
	const struct rk_value *v = part_attr(x, part, A_PSUS, NULL);
	enum rk_class cls = (enum rk_class)x->d->objs[part].cls;

	*why = NULL;
	if (part_attr(x, part, A_POWER_MAX, NULL))
		return false;
	*why = metrics_unknown_reason(x->d, part, "power_max", NULL, NULL);
	return *why || cls == C_SERVER || cls == C_SWITCH ||
	       (v && v->type == VT_NUM && v->n > 0 && cls != C_PDU &&
		cls != C_POWER_SHELF);
}

static void json_field(FILE *fp, const char *k, const char *v, bool comma)
{
	fprintf(fp, "%s", comma ? ", " : "");
	json_str(fp, k);
	fputs(": ", fp);
	if (v)
		json_str(fp, v);
	else
		fputs("null", fp);
}

static void json_multi(const struct pctx *x, FILE *fp, uint32_t part,
		       uint32_t key)
{
	bool first = true;

	fprintf(fp, ", \"%s\": [", attr_table[key].name);
	for_each_multi(x, part, key, v)
	{
		fputs(first ? "" : ", ", fp);
		json_str(fp, S(x, v->a));
		first = false;
	}
	fputc(']', fp);
}

static bool has_multi(const struct pctx *x, uint32_t part, uint32_t key)
{
	for_each_multi(x, part, key, v) return true;
	return false;
}

/* One part as a JSON object: the summary, then every figure set (own or
 * inherited) and every port with its form, speed and faceplate. */
static void part_json(const struct pctx *x, FILE *fp, uint32_t part)
{
	const struct rk_obj *o = &x->d->objs[part];
	char b[1024];
	bool first = true;

	fputs("  {", fp);
	json_field(fp, "name", S(x, o->local), false);
	json_field(fp, "class", rk_class_name((enum rk_class)o->cls), true);
	json_field(fp, "base",
		   o->part == RK_NONE ? NULL : S(x, x->d->objs[o->part].local),
		   true);
	json_field(fp, "file", part_file(x, part), true);
	fprintf(fp, ", \"line\": %u", line_of(x, &o->loc));
	json_field(fp, "vendor", figure(x, part, A_VENDOR, b, sizeof(b)), true);
	json_field(fp, "model", figure(x, part, A_MODEL, b, sizeof(b)), true);
	json_field(fp, "height", figure(x, part, A_HEIGHT, b, sizeof(b)), true);
	json_field(fp, "power_max", figure(x, part, A_POWER_MAX, b, sizeof(b)),
		   true);
	{
		const char *why;
		bool unk = power_max_unknown(x, part, &why);

		fprintf(fp, ", \"power_max_unknown\": %s",
			unk ? "true" : "false");
		json_field(fp, "power_max_reason", why, true);
	}
	json_field(fp, "ports", ports_summary(x, part), true);
	json_field(fp, "part_number",
		   figure(x, part, A_PART_NUMBER, b, sizeof(b)), true);
	json_multi(x, fp, part, A_ESTIMATED);
	json_multi(x, fp, part, A_UNKNOWN);
	fputs(", \"figures\": {", fp);
	for (uint32_t k = 1; k < A__COUNT; k++) {
		const struct rk_value *v;

		if (attr_table[k].multi || !(v = part_attr(x, part, k, NULL)))
			continue;
		format_value(x, v, b, sizeof(b));
		json_field(fp, attr_table[k].name, b, !first);
		first = false;
	}
	fputs("}, \"port_list\": [", fp);
	first = true;
	for_each_port(x, part, m)
	{
		char fb[64], sb[64], pb[256];

		fputs(first ? "{" : ", {", fp);
		json_field(fp, "name", S(x, x->d->objs[m].local), false);
		json_field(fp, "form", port_str(x, m, A_FORM, fb, sizeof(fb)),
			   true);
		json_field(fp, "speed", port_str(x, m, A_SPEED, sb, sizeof(sb)),
			   true);
		json_field(fp, "faceplate",
			   port_str(x, m, A_FACEPLATE, pb, sizeof(pb)), true);
		fputc('}', fp);
		first = false;
	}
	fputs("]}", fp);
}

static int list_parts(const struct pctx *x, const char *pat)
{
	uint32_t shown = 0;
	bool first = true;

	if (x->json)
		fputs("[\n", stdout);
	else
		printf("%-24s %-12s %-10s %-34s %-6s %-9s %-20s %-36s %s\n",
		       "NAME", "CLASS", "VENDOR", "MODEL", "HEIGHT",
		       "POWER_MAX", "PART_NUMBER", "PORTS", "FIGURES");
	for (uint32_t id = 0; id < x->d->nobjs; id++) {
		char h[64], pw[64], pn[128], ve[128], mo[256];
		const char *flag, *why;

		if (!is_part(x, id) || !part_matches(x, id, pat))
			continue;
		shown++;
		if (x->json) {
			fputs(first ? "" : ",\n", stdout);
			part_json(x, stdout, id);
			first = false;
			continue;
		}
		flag =
		    has_multi(x, id, A_UNKNOWN)
			? (has_multi(x, id, A_ESTIMATED) ? "estimated,unknown"
							 : "unknown")
			: (has_multi(x, id, A_ESTIMATED) ? "estimated" : "-");
		printf("%-24s %-12s %-10s %-34s %-6s %-9s %-20s %-36s %s\n",
		       S(x, x->d->objs[id].local),
		       rk_class_name((enum rk_class)x->d->objs[id].cls),
		       figure(x, id, A_VENDOR, ve, sizeof(ve)) ? ve : "-",
		       figure(x, id, A_MODEL, mo, sizeof(mo)) ? mo : "-",
		       figure(x, id, A_HEIGHT, h, sizeof(h)) ? h : "-",
		       figure(x, id, A_POWER_MAX, pw, sizeof(pw))
			   ? pw
			   : (power_max_unknown(x, id, &why) ? "unknown" : "-"),
		       figure(x, id, A_PART_NUMBER, pn, sizeof(pn)) ? pn : "-",
		       *ports_summary(x, id) ? ports_summary(x, id) : "-",
		       flag);
	}
	if (x->json)
		fputs(first ? "]\n" : "\n]\n", stdout);
	if (!shown && pat) {
		fprintf(stderr, "rackc parts: no part matches '%s'\n", pat);
		return RK_EXIT_ERRORS;
	}
	return RK_EXIT_OK;
}

/* ---- --show ---- */

static void show_line(const struct pctx *x, const char *key, const char *val,
		      uint32_t part, uint32_t from, const struct srcloc *l)
{
	char cm[512];

	printf("  %-16s %-28s %s:%u", key, val, shown_path(x, l->file),
	       line_of(x, l));
	if (from != part)
		printf(" (from %s)", S(x, x->d->objs[from].local));
	line_comment(x, l, cm, sizeof(cm));
	if (*cm)
		printf("  # %s", cm);
	putchar('\n');
}

static int show_part(const struct pctx *x, const char *name)
{
	uint32_t part = RK_NONE;
	struct suggest sg;

	suggest_init(&sg, name);
	for (uint32_t id = 0; id < x->d->nobjs; id++) {
		if (!is_part(x, id))
			continue;
		if (streq(S(x, x->d->objs[id].local), name)) {
			part = id;
			break;
		}
		suggest_offer(&sg, S(x, x->d->objs[id].local));
	}
	if (part == RK_NONE) {
		fprintf(stderr,
			"rackc parts: error: unknown part '%s'" SUGGEST_FMT
			"\n",
			name, SUGGEST_ARGS(&sg));
		return RK_EXIT_ERRORS;
	}
	if (x->json) {
		fputs("[\n", stdout);
		part_json(x, stdout, part);
		fputs("\n]\n", stdout);
		return RK_EXIT_OK;
	}
	printf("part %s : %s  (%s:%u)\n", name,
	       x->d->objs[part].part == RK_NONE
		   ? rk_class_name((enum rk_class)x->d->objs[part].cls)
		   : S(x, x->d->objs[x->d->objs[part].part].local),
	       part_file(x, part), line_of(x, &x->d->objs[part].loc));
	for (uint32_t k = 1; k < A__COUNT; k++) {
		char b[1024];
		uint32_t from = part;
		const struct rk_value *v;

		if (attr_table[k].multi) {
			for_each_multi(x, part, k, mv)
			{
				show_line(x, attr_table[k].name, S(x, mv->a),
					  part, p_, &mv->loc);
			}
			continue;
		}
		if (!(v = part_attr(x, part, k, &from)))
			continue;
		format_value(x, v, b, sizeof(b));
		show_line(x, attr_table[k].name, b, part, from, &v->loc);
	}
	printf("ports: %s\n",
	       *ports_summary(x, part) ? ports_summary(x, part) : "none");
	for_each_port(x, part, m)
	{
		char fb[64], sb[64], pb[256];
		const char *f = port_str(x, m, A_FORM, fb, sizeof(fb));
		const char *sp = port_str(x, m, A_SPEED, sb, sizeof(sb));
		const char *fp = port_str(x, m, A_FACEPLATE, pb, sizeof(pb));

		printf("  port %-12s %-10s %-10s faceplate %s\n",
		       S(x, x->d->objs[m].local), f ? f : "-", sp ? sp : "-",
		       fp ? fp : "(none)");
	}
	return RK_EXIT_OK;
}

/* ---- command line ---- */

enum { O_FORMAT = 256, O_SHOW, O_IMPORT, O_STDLIB, O_HELP };

static const struct option parts_opts[] = {
	{ "format", required_argument, NULL, O_FORMAT },
	{ "show", required_argument, NULL, O_SHOW },
	{ "import", required_argument, NULL, O_IMPORT },
	{ "include", required_argument, NULL, 'I' },
	{ "stdlib", required_argument, NULL, O_STDLIB },
	{ "help", no_argument, NULL, O_HELP },
	{ NULL, 0, NULL, 0 },
};

static void parts_usage(FILE *fp)
{
	fputs("Usage: rackc parts [OPTION]... [PATTERN]\n"
	      "List the catalog parts whose name, vendor or model matches "
	      "PATTERN\n(a case-insensitive substring, or a glob with * ? "
	      "[]): class, vendor,\nmodel, height, power_max, ports, part "
	      "number and whether a figure is\nestimated or unknown.\n\n"
	      "  --show=NAME        print part NAME in full, each figure with "
	      "its source\n"
	      "  --format=text|json output format (default text)\n"
	      "  --import=MODULE    also load MODULE (as a design imports "
	      "it; repeatable)\n"
	      "  -I DIR, --include=DIR  search DIR for imports\n"
	      "  --stdlib=DIR       standard library directory\n"
	      "  --help             print this help\n",
	      fp);
}

static int parts_usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "rackc parts: error: %s%s%s'\n", msg, arg ? " '" : "",
		arg ? arg : "");
	fputs("Try 'rackc parts --help'.\n", stderr);
	return RK_EXIT_USAGE;
}

int parts_main(int argc, char **argv)
{
	struct rackc_options o;
	struct compilation c;
	struct pctx x;
	const char **imports = NULL;
	uint32_t nimports = 0;
	const char *show = NULL, *stddir;
	char stdbuf[4096];
	bool json = false;
	char *text;
	size_t tn = 1, k = 0;
	int ch, rc;

	memset(&o, 0, sizeof(o));
	o.max_errors = 10;
	o.show_source = true;
	o.diag_format = DIAG_TEXT;
	optind = 0; /* GNU: start again (the command line may run again) */
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":I:", parts_opts, NULL)) != -1) {
		switch (ch) {
		case O_FORMAT:
			if (streq(optarg, "json"))
				json = true;
			else if (streq(optarg, "text"))
				json = false;
			else {
				rc =
				    parts_usage_error("unknown format", optarg);
				goto out;
			}
			break;
		case O_SHOW:
			show = optarg;
			break;
		case O_IMPORT:
			imports = xrealloc(imports,
					   (nimports + 1) * sizeof(*imports));
			imports[nimports++] = optarg;
			break;
		case 'I':
			o.incdirs = xrealloc(o.incdirs, (o.nincdirs + 1) *
							    sizeof(*o.incdirs));
			o.incdirs[o.nincdirs++] = optarg;
			break;
		case O_STDLIB:
			o.stddir = optarg;
			break;
		case O_HELP:
			parts_usage(stdout);
			rc = RK_EXIT_OK;
			goto out;
		case ':':
			rc = parts_usage_error("option needs an argument",
					       argv[optind - 1]);
			goto out;
		default:
			rc = parts_usage_error("unknown option",
					       argv[optind - 1]);
			goto out;
		}
	}
	if (argc - optind > 1 || (show && argc - optind > 0)) {
		rc = parts_usage_error(show ? "--show takes no PATTERN"
					    : "more than one PATTERN given",
				       NULL);
		goto out;
	}
	/*
	 * The standard library's modules by their path in --stdlib (the
	 * default directory without it), not by a name that a std/ folder
	 * in the working directory would answer first.
	 */
	stddir =
	    o.stddir ? o.stddir : rackc_default_stddir(stdbuf, sizeof(stdbuf));
	for (size_t i = 0; i < sizeof(std_modules) / sizeof(*std_modules); i++)
		tn += strlen(stddir) + strlen(std_modules[i]) + 12;
	for (uint32_t i = 0; i < nimports; i++) {
		if (strchr(imports[i], '"') || strchr(imports[i], '\n')) {
			rc = parts_usage_error("bad module name", imports[i]);
			goto out;
		}
		tn += strlen(imports[i]) + 10;
	}
	text = xmalloc(tn);
	text[0] = '\0';
	for (size_t i = 0; i < sizeof(std_modules) / sizeof(*std_modules); i++)
		k += (size_t)snprintf(text + k, tn - k, "import \"%s/%s\"\n",
				      stddir, std_modules[i]);
	for (uint32_t i = 0; i < nimports; i++)
		k += (size_t)snprintf(text + k, tn - k, "import \"%s\"\n",
				      imports[i]);
	compilation_init(&c, &o, stderr);
	rc = rackc_elaborate_string(&c, "<parts>", text);
	free(text);
	if (rc == RK_EXIT_OK) {
		x.c = &c;
		x.d = &c.design;
		x.stddir = stddir;
		x.json = json;
		rc = show ? show_part(&x, show)
			  : list_parts(&x, optind < argc ? argv[optind] : NULL);
	}
	diag_finish(&c.diag);
	compilation_fini(&c);
out:
	fflush(stdout);
	free(imports);
	free(o.incdirs);
	return rc;
}
