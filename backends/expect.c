/* SPDX-License-Identifier: MIT */
/*
 * Expected-topology exports for the tools that compare what LLDP sees with
 * a plan (both run only when -O names them):
 *
 *  lldp  lldp/expected.json: for every port at an end of a cabled Ethernet
 *        link, the neighbour its LLDP agent must report: the system (its
 *        host name) and the port, by faceplate name (the names the
 *        switches' OS gives its ports, doc/language.md 9.2), with the
 *        cable ID; one entry per port, sorted by system, then by port (in
 *        the design's order).  `rackc verify` reads it for the host names.
 *  ptm   ptm/FABRIC.dot per fabric with Ethernet links (links outside any
 *        fabric: ptm/links-outside-fabrics.dot): the topology.dot of the
 *        Prescriptive Topology Manager of Cumulus Linux (ptmd), an
 *        undirected Graphviz graph, one edge per cable, `"HOST":"PORT" --
 *        "HOST":"PORT"`, ptmd matching the host against the LLDP system
 *        name and the port against the PortID ifname.
 *  ufm   (with ibnet.c's InfiniBand topo files) ufm/FABRIC.dot: the same
 *        graph as the dot file NVIDIA's UFM Cable Validation Tool loads
 *        for an Ethernet fabric, `graph network`, each switch declared
 *        with its label and role (leaf, spine, super_spine) first.
 *
 * An Ethernet link: a port of protocol eth at one end at least, and at the
 * other eth, any or none.  Host names are the back ends' (be_host_names:
 * `hostname`, or the derived name); a device that has none (not a server
 * or switch) gets the derived one.
 */
#include "rackc.h"

#include <stdlib.h>

#include "backend.h"
#include "be_common.h"
#include "cablelabel.h"
#include "cableplan.h"
#include "expect.h"
#include "metrics.h"
#include "schema.h"

static bool is_eth(const struct rk_design *d, const struct rk_link *l)
{
	const char *a = be_port_protocol(d, l->a_port);
	const char *b = be_port_protocol(d, l->b_port);
	bool ea = streq(a, "eth"), eb = streq(b, "eth");

	return (ea || eb) && (ea || !*a || streq(a, "any")) &&
	       (eb || !*b || streq(b, "any"));
}

struct ex {
	struct backend_ctx *ctx;
	const struct rk_design *d;
	const struct cable_plan *p;
	const struct cable_labels *cl;
	const char *const *host;
};

static const char *host_of(struct ex *x, uint32_t dev)
{
	if (x->host && x->host[dev])
		return x->host[dev];
	return be_derived_name(x->ctx->arena, ir_name(x->d, dev));
}

static const char *face_of(struct ex *x, uint32_t port)
{
	size_t n;
	const char *f = cable_face(x->cl, port, &n);

	return arena_strndup(x->ctx->arena, f, n);
}

static void put_str(FILE *fp, const char *s)
{
	putc('"', fp);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(fp, "\\%c", c);
		else if (c < 0x20)
			fprintf(fp, "\\u%04x", c);
		else
			putc(c, fp);
	}
	putc('"', fp);
}

static bool setup(struct ex *x, struct backend_ctx *ctx)
{
	bool ok;

	x->ctx = ctx;
	x->d = ctx->d;
	x->p = derived_cableplan(ctx->dv);
	x->cl = derived_labels(ctx->dv);
	x->host = be_host_names(ctx, &ok);
	return ok;
}

/* ---- lldp ---- */

struct lend {
	const char *host;
	uint32_t link;
	uint8_t side;
};

static int lend_cmp(const void *a, const void *b)
{
	const struct lend *x = a, *y = b;
	int c = strcmp(x->host, y->host);

	if (c)
		return c;
	if (x->link != y->link)
		return x->link < y->link ? -1 : 1;
	return (int)x->side - (int)y->side;
}

static bool emit_lldp(struct backend_ctx *ctx)
{
	struct ex x;
	const struct rk_design *d = ctx->d;
	struct lend *e = NULL;
	uint32_t n = 0, cap = 0;
	FILE *fp;
	bool ok;

	if (!setup(&x, ctx))
		return false;
	for (uint32_t i = 0; i < d->nlinks; i++) {
		const struct rk_link *l = &d->links[i];

		if (!x.p->links[i].label_no || !is_eth(d, l))
			continue;
		for (uint8_t s = 0; s < 2; s++) {
			struct lend *y = VEC_PUSH(e, n, cap);

			y->host = host_of(&x, s ? l->b_dev : l->a_dev);
			y->link = i;
			y->side = s;
		}
	}
	if (n > 1)
		qsort(e, n, sizeof(*e), lend_cmp);
	fp = out_open(ctx, "lldp/expected.json");
	ok = fp != NULL;
	if (ok) {
		fputs("{\n  \"design\": ", fp);
		put_str(fp, ctx->input);
		fputs(",\n  \"ports\": [", fp);
		for (uint32_t k = 0; k < n && !be_cancelled(ctx); k++) {
			const struct rk_link *l = &d->links[e[k].link];
			uint32_t me = e[k].side ? l->b_dev : l->a_dev;
			uint32_t mp = e[k].side ? l->b_port : l->a_port;
			uint32_t far = e[k].side ? l->a_dev : l->b_dev;
			uint32_t fp_ = e[k].side ? l->a_port : l->b_port;
			char id[32];

			cableplan_id_str(x.p->links[e[k].link].id - 1, id);
			fputs(k ? ",\n    {\"system\": "
				: "\n    {\"system\": ",
			      fp);
			put_str(fp, e[k].host);
			fputs(", \"port\": ", fp);
			put_str(fp, face_of(&x, mp));
			fputs(", \"device\": ", fp);
			put_str(fp, ir_name(d, me));
			fputs(", \"neighbor\": {\"system\": ", fp);
			put_str(fp, host_of(&x, far));
			fputs(", \"port\": ", fp);
			put_str(fp, face_of(&x, fp_));
			fputs(", \"device\": ", fp);
			put_str(fp, ir_name(d, far));
			fputs("}, \"cable_id\": ", fp);
			put_str(fp, id);
			fputs("}", fp);
		}
		fputs(n ? "\n  ]\n}\n" : "]\n}\n", fp);
		ok = out_close(ctx, fp) && !be_cancelled(ctx);
	}
	free(e);
	return ok;
}

/* ---- ptm ---- */

struct plink {
	uint32_t fabric; /* RK_NONE: outside fabrics */
	uint32_t link;
};

static int plink_cmp(const void *a, const void *b)
{
	const struct plink *x = a, *y = b;

	if (x->fabric != y->fabric)
		return x->fabric < y->fabric ? -1 : 1;
	return (x->link > y->link) - (x->link < y->link);
}

/* a switch's role as the UFM Cable Validation Tool's dot file spells it */
static const char *ufm_role(const struct rk_design *d, uint32_t dev)
{
	const char *r = ir_str(d, dev, A_ROLE);

	if (!r)
		return NULL;
	return streq(r, "leaf")	   ? "leaf"
	       : streq(r, "spine") ? "spine"
	       : streq(r, "core")  ? "super_spine"
				   : NULL;
}

/*
 * ptm/FABRIC.dot (@ufm false) or ufm/FABRIC.dot (@ufm true: the graph is
 * named network and each switch is declared first, with its label and,
 * where the design gives it, its role).
 */
static bool emit_dot(struct backend_ctx *ctx, bool ufm)
{
	struct ex x;
	const struct rk_design *d = ctx->d;
	struct plink *e = NULL;
	uint32_t n = 0, cap = 0, *seen = NULL;
	const char *dir = ufm ? "ufm" : "ptm";
	bool ok = true;

	if (!setup(&x, ctx))
		return false;
	for (uint32_t i = 0; i < d->nlinks; i++) {
		const struct rk_link *l = &d->links[i];
		struct plink *y;

		/* a twin cable's second leg is a link of its own to LLDP */
		if (!x.p->links[i].label_no || !is_eth(d, l))
			continue;
		y = VEC_PUSH(e, n, cap);
		y->fabric = l->fabric;
		y->link = i;
	}
	if (n > 1)
		qsort(e, n, sizeof(*e), plink_cmp);
	if (ufm && n)
		seen = xcalloc(d->nobjs ? d->nobjs : 1, sizeof(*seen));
	for (uint32_t k = 0; k < n && ok && !be_cancelled(ctx);) {
		uint32_t f = e[k].fabric, k0 = k;
		const char *name =
		    f == RK_NONE ? "links-outside-fabrics"
				 : be_file_name(ctx->arena, ir_name(d, f));
		FILE *fp = out_open(
		    ctx, arena_printf(ctx->arena, "%s/%s.dot", dir, name));

		if (!fp)
			return free(e), free(seen), false;
		fputs("// ", fp);
		fputs(f == RK_NONE ? "Ethernet links outside fabrics"
				   : ir_name(d, f),
		      fp);
		fprintf(fp, " (%s): %s, one edge per cable\n", ctx->input,
			ufm ? "UFM Cable Validation Tool dot file"
			    : "PTM topology.dot");
		fputs(ufm ? "graph network {\n" : "graph G {\n", fp);
		for (uint32_t j = k0; ufm && j < n && e[j].fabric == f; j++)
			for (int s = 0; s < 2; s++) {
				const struct rk_link *l = &d->links[e[j].link];
				uint32_t dev = s ? l->b_dev : l->a_dev;
				const char *role;

				if (d->objs[dev].cls != C_SWITCH ||
				    seen[dev] == k0 + 1)
					continue;
				seen[dev] = k0 + 1;
				fputs("\t", fp);
				put_str(fp, host_of(&x, dev));
				fputs(" [label=", fp);
				put_str(fp, host_of(&x, dev));
				role = ufm_role(d, dev);
				if (role)
					fprintf(fp, " role=\"%s\"", role);
				fputs("]\n", fp);
			}
		for (; k < n && e[k].fabric == f; k++) {
			const struct rk_link *l = &d->links[e[k].link];
			char id[32];

			cableplan_id_str(x.p->links[e[k].link].id - 1, id);
			fputs("\t", fp);
			put_str(fp, host_of(&x, l->a_dev));
			putc(':', fp);
			put_str(fp, face_of(&x, l->a_port));
			fputs(" -- ", fp);
			put_str(fp, host_of(&x, l->b_dev));
			putc(':', fp);
			put_str(fp, face_of(&x, l->b_port));
			fprintf(fp, " // %s\n", id);
		}
		fputs("}\n", fp);
		ok = out_close(ctx, fp);
	}
	free(e);
	free(seen);
	return ok && !be_cancelled(ctx);
}

static bool emit_ptm(struct backend_ctx *ctx)
{
	return emit_dot(ctx, false);
}

bool expect_ufm_dot(struct backend_ctx *ctx)
{
	return emit_dot(ctx, true);
}

const struct backend backend_lldp = {
	.name = "lldp",
	.summary = "lldp/expected.json: every cabled Ethernet port's expected "
		   "LLDP neighbour (system and port) (only when -O names it)",
	.emit = emit_lldp,
	.needs = BE_NEEDS_PLAN | BE_NEEDS_LABELS,
	.weight = 1,
	.preflight = NULL,
	.on_request = true,
};

const struct backend backend_ptm = {
	.name = "ptm",
	.summary = "ptm/FABRIC.dot: each Ethernet fabric's cabling as a "
		   "Cumulus PTM topology.dot; run only when named",
	.emit = emit_ptm,
	.needs = BE_NEEDS_PLAN | BE_NEEDS_LABELS,
	.weight = 1,
	.preflight = NULL,
	.on_request = true,
};
