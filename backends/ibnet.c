/* SPDX-License-Identifier: MIT */
/*
 * The "ibnet" back end: every InfiniBand subnet of the design as an
 * ibsim/ibnetdiscover net file, ib/<subnet>.net, so that real IB software
 * (ibsim + OpenSM + ibnetdiscover, see ibsim's and OpenSM's documentation)
 * can load, route and rediscover the planned cabling.
 *
 * What a subnet is: the devices joined by InfiniBand links, one file per
 * connected set.  A link is InfiniBand when one end's port has protocol ib
 * and the other end's is ib, any or unset; fabric-generated links and
 * explicit link statements count alike.  Links join into one subnet through
 * a switch or through one HCA, never through a server: a server with a
 * compute HCA and a storage HCA is on two subnets.  A subnet takes the name
 * of the fabric of its first generated link (as a host name: rack[0].ib is
 * rack-0-ib), or else the host name of its first switch (or first device);
 * clashing names get -2, -3, ...
 *
 * Records (ibsim 0.10 grammar, ref section 3):
 *  - switches first, in declaration order: `Switch N "id" # "desc" enhanced
 *    port 0`, N = the part's fabric ports (role not mgmt/console/oob,
 *    protocol ib or unset, as the fat-tree generator counts them), port k
 *    = the k-th of those (1-based);
 *  - then, per device, one `Hca N "id" # "host devname"` per NIC component
 *    with a linked port (N = ports the NIC lists, port k = its k-th), and a
 *    one-port Hca for each linked port that no NIC claims;
 *  - node ids are the rackc names (dev or dev/nic); descriptions are what
 *    the hardware reports: the switch host name, "<host> <devname>" (the
 *    NIC's name when it has no devname), at most 64 bytes;
 *  - every record is preceded by `# [port] rackc-port-name` comment lines
 *    for its connected ports (for comparisons by name) and ends with a blank
 *    line; each link is written at both ends;
 *  - GUIDs are explicit and deterministic: prefix 0x02 and 24 bits of the
 *    subnet name's FNV-1a hash, then 0x1 + switch number or 0x2 + HCA
 *    number << 8 (HCA port p is base + p);
 *  - `# lid 0 4x<SPEED>` from the slower port's rate per lane: SDR..HDR;
 *    NDR and XDR are written as HDR, the fastest ibsim 0.10 parses, and
 *    unknown rates as SDR.
 */
#include "rackc.h"

#include <stdlib.h>

#include "backend.h"
#include "be_common.h"
#include "metrics.h"
#include "portindex.h"
#include "schema.h"
#include "wbuf.h"

#define IB_MAX_PORTS 254 /* ibsim stores the port count in 8 bits */
#define IB_DESC_MAX 64	 /* NodeDescription is 64 bytes */

struct end {
	uint32_t dev, port; /* rackc device and port objects */
	uint32_t node;	    /* ibnode index */
	uint32_t num;	    /* IB port number */
	/* 2 * (index in the subnet's links) + (0 a, 1 b) */
	uint32_t orig;
};

struct ibnode {
	uint32_t dev;
	uint32_t sub; /* NIC component, or port object (standalone) */
	bool sw, standalone;
	uint32_t nports;
	uint64_t guid;
	const char *id, *desc;
	uint32_t idn, descn; /* their lengths */
};

/* What nic_of() knows of a port object, valid when @gen is current. */
struct nic_ent {
	uint32_t gen, comp, k, n;
};

struct ibnet {
	struct backend_ctx *ctx;
	const struct rk_design *d;
	const char *const *host;
	int32_t *port_num;   /* switch port object -> IB port number, 0 none */
	uint8_t *numbered;   /* switch part -> port_num filled */
	uint32_t *sw_nports; /* switch part -> port count */
	int64_t *speed;	     /* port object -> speed (0 unknown) */
	uint8_t *proto;	     /* port object -> PROTO_* */
	struct nic_ent *nic; /* port object -> NIC of part nic_part */
	uint32_t nic_part, nic_gen;
};

/* A port's protocol, as far as InfiniBand is concerned. */
enum { PROTO_NONE, PROTO_IB, PROTO_ANY, PROTO_OTHER };

static uint8_t proto_of(const struct rk_design *d, uint32_t port)
{
	const char *p = be_port_protocol(d, port);

	return !p[0]		 ? PROTO_NONE
	       : streq(p, "ib")	 ? PROTO_IB
	       : streq(p, "any") ? PROTO_ANY
				 : PROTO_OTHER;
}

/* An InfiniBand link: one end says ib, the other ib, any or nothing. */
static bool ib_link(const struct ibnet *x, const struct rk_link *l)
{
	uint8_t a = x->proto[l->a_port], b = x->proto[l->b_port];

	return a != PROTO_OTHER && b != PROTO_OTHER &&
	       (a == PROTO_IB || b == PROTO_IB);
}

static uint32_t uf_find(uint32_t *up, uint32_t x)
{
	while (up[x] != x) {
		up[x] = up[up[x]];
		x = up[x];
	}
	return x;
}

static void uf_union(uint32_t *up, uint32_t a, uint32_t b)
{
	a = uf_find(up, a);
	b = uf_find(up, b);
	if (a != b)
		up[a < b ? b : a] = a < b ? a : b;
}

static void number_switch_ports(struct ibnet *x, uint32_t part)
{
	const struct rk_design *d = x->d;
	uint32_t chain[RK_MAX_PART_DEPTH + 1], nc, n = 0;

	if (x->numbered[part])
		return;
	x->numbered[part] = 1;
	nc = ir_part_chain(d, part, chain);
	/* base first; a port a derived part declares again (same name) is
	 * that one port, numbered where the base has it */
	while (nc--) {
		for_each_child(d, chain[nc], c) {
			const char *role, *pr;
			uint32_t t = c;

			if (d->objs[c].kind != K_PORT || x->port_num[c])
				continue;
			for (uint32_t k = 0; k < nc && t == c; k++)
				for_each_child(d, chain[k], c2) {
					if (d->objs[c2].kind == K_PORT &&
					    d->objs[c2].local ==
						d->objs[c].local) {
						t = c2;
						break;
					}
				}
			role = be_port_role(d, t);
			pr = be_port_protocol(d, t);
			if (streq(role, "mgmt") || streq(role, "console") ||
			    streq(role, "oob") || (pr[0] && !streq(pr, "ib")))
				continue;
			x->port_num[t] = (int32_t)++n;
		}
	}
	x->sw_nports[part] = n;
}

static const char *local(const struct ibnet *x, uint32_t obj)
{
	return str_of(x->d->arena, x->d->objs[obj].local);
}

/* "@a@sep@b" (@na and @nb bytes) in the arena; *n gets its length. */
static const char *join(struct arena *ar, const char *a, size_t na, char sep,
			const char *b, size_t nb, uint32_t *n)
{
	char *s = arena_alloc(ar, na + nb + 2), *o;

	o = rk_put(s, a, na);
	*o++ = sep;
	o = rk_put(o, b, nb);
	*o = '\0';
	*n = (uint32_t)(na + 1 + nb);
	return s;
}

static void wb_name(struct wbuf *w, const struct rk_design *d, uint32_t id)
{
	wb_mem(w, str_of(d->arena, id), strlen_of(d->arena, id));
}

/* "# [num] device.port" (a record when it fits the buffer). */
static void port_comment(struct wbuf *w, const struct rk_design *d,
			 const struct end *e)
{
	uint32_t dn = d->objs[e->dev].name, pn = d->objs[e->port].local;
	size_t a = strlen_of(d->arena, dn), b = strlen_of(d->arena, pn);
	char *o;

	if (a + b + 32 > WBUF_SIZE) {
		wb_str(w, "# [");
		wb_u64(w, e->num);
		wb_str(w, "] ");
		wb_name(w, d, dn);
		wb_ch(w, '.');
		wb_name(w, d, pn);
		wb_ch(w, '\n');
		return;
	}
	o = wb_room(w, a + b + 32);
	o = rk_put(o, "# [", 3);
	o = wb_put_u64(o, e->num);
	o = rk_put(o, "] ", 2);
	o = rk_put(o, str_of(d->arena, dn), a);
	*o++ = '.';
	o = rk_put(o, str_of(d->arena, pn), b);
	*o++ = '\n';
	wb_end(w, o);
}

/* "[num]\t"peer"[pnum]\t# lid 0 4xSPEED" (a record when it fits). */
static void port_line(struct wbuf *w, uint32_t num, const struct ibnode *peer,
		      uint32_t pnum, const char *speed)
{
	size_t sn = strlen(speed), n = peer->idn + sn + 64;
	char *o;

	if (n > WBUF_SIZE) {
		wb_ch(w, '[');
		wb_u64(w, num);
		wb_str(w, "]\t\"");
		wb_mem(w, peer->id, peer->idn);
		wb_str(w, "\"[");
		wb_u64(w, pnum);
		wb_str(w, "]\t# lid 0 4x");
		wb_str(w, speed);
		wb_ch(w, '\n');
		return;
	}
	o = wb_room(w, n);
	*o++ = '[';
	o = wb_put_u64(o, num);
	o = rk_put(o, "]\t\"", 3);
	o = rk_put(o, peer->id, peer->idn);
	o = rk_put(o, "\"[", 2);
	o = wb_put_u64(o, pnum);
	o = rk_put(o, "]\t# lid 0 4x", 12);
	o = rk_put(o, speed, sn);
	*o++ = '\n';
	wb_end(w, o);
}

static const char *speed_word(int64_t rate)
{
	int64_t lane = rate / 4;

	if (lane >= 50000000000LL)
		return "HDR";
	if (lane >= 25000000000LL)
		return "EDR";
	if (lane >= 14000000000LL)
		return "FDR";
	if (lane >= 10000000000LL)
		return "QDR";
	if (lane >= 5000000000LL)
		return "DDR";
	return "SDR";
}

/*
 * The NIC component of device part @part (or a base) listing @port, its
 * 1-based index there (*@k_out) and the NIC's port count (*@n_out); RK_NONE
 * when no NIC lists it.  The first NIC (in component order) wins.  The
 * map of the last part asked for is kept: devices come in runs of one part.
 */
static uint32_t nic_of(struct ibnet *x, uint32_t part, uint32_t port,
		       uint32_t *k_out, uint32_t *n_out)
{
	const struct rk_design *d = x->d;

	if (part == RK_NONE)
		return RK_NONE;
	if (part != x->nic_part) {
		uint32_t *comps = NULL, nc = be_part_comps(d, part, &comps);

		x->nic_part = part;
		x->nic_gen++;
		for (uint32_t i = 0; i < nc; i++) {
			const struct rk_value *pv;

			if (d->objs[comps[i]].cls != COMP_NIC)
				continue;
			pv = ir_attr_inh(d, comps[i], A_PORTS);
			if (!pv || pv->type != VT_LIST)
				continue;
			for (uint32_t k = 0; k < (uint32_t)pv->n; k++) {
				const struct rk_value *e = ir_list_at(d, pv, k);
				struct nic_ent *ne;

				if (e->type != VT_PORT)
					continue;
				ne = &x->nic[e->n];
				if (ne->gen == x->nic_gen)
					continue;
				ne->gen = x->nic_gen;
				ne->comp = comps[i];
				ne->k = k + 1;
				ne->n = (uint32_t)pv->n;
			}
		}
		free(comps);
	}
	if (x->nic[port].gen != x->nic_gen)
		return RK_NONE;
	*k_out = x->nic[port].k;
	*n_out = x->nic[port].n;
	return x->nic[port].comp;
}

/*
 * The HCA that port @port of device @dev (not a switch) belongs to: the
 * NIC component listing it, or the port itself when no NIC does.
 */
static uint32_t hca_of(struct ibnet *x, uint32_t dev, uint32_t port)
{
	uint32_t num, np;
	uint32_t sub = nic_of(x, x->d->objs[dev].part, port, &num, &np);

	return sub != RK_NONE ? sub : port;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/*
 * The @n ends in (node, num) order, stably (ties keep their index order):
 * their indices counting-sorted by node (@nb nodes; an end without one, after
 * an error, sorts last), then each node's run by num where it is not in
 * order already (a node's ends mostly are): an insertion sort for a short
 * run, a sort of (num, index) keys for a long one.
 */
static uint32_t *order_ends(const struct end *ends, uint32_t n, uint32_t nb)
{
	uint32_t *start = xcalloc((size_t)nb + 2, sizeof(*start));
	uint32_t *ord = xmalloc(((size_t)n + 1) * sizeof(*ord));

	for (uint32_t i = 0; i < n; i++)
		start[(ends[i].node < nb ? ends[i].node : nb) + 1]++;
	for (uint32_t b = 0; b <= nb; b++)
		start[b + 1] += start[b];
	for (uint32_t i = 0; i < n; i++)
		ord[start[ends[i].node < nb ? ends[i].node : nb]++] = i;
	free(start);
	for (uint32_t i = 0; i < n;) {
		uint32_t node = ends[ord[i]].node, j = i + 1;
		bool in_order = true;

		for (; j < n && ends[ord[j]].node == node; j++)
			if (ends[ord[j]].num < ends[ord[j - 1]].num)
				in_order = false;
		if (!in_order && j - i <= 32) {
			for (uint32_t a = i + 1; a < j; a++) {
				uint32_t v = ord[a], b = a;

				for (; b > i &&
				       ends[ord[b - 1]].num > ends[v].num;
				     b--)
					ord[b] = ord[b - 1];
				ord[b] = v;
			}
		} else if (!in_order) {
			uint64_t *key = xmalloc((j - i) * sizeof(*key));

			for (uint32_t a = i; a < j; a++)
				key[a - i] =
				    (uint64_t)ends[ord[a]].num << 32 | ord[a];
			qsort(key, j - i, sizeof(*key), cmp_u64);
			for (uint32_t a = i; a < j; a++)
				ord[a] = (uint32_t)key[a - i];
			free(key);
		}
		i = j;
	}
	return ord;
}

/* One subnet as emit_subnet() writes it. */
struct subnet {
	struct ibnet *x;
	const char *name;
	const uint32_t *links; /* its IB links */
	uint32_t nl;
	struct end *ends; /* 2 * nl, ordered by (dev, port, link) */
	struct ibnode *nodes;
	uint32_t nn, ncap, nsw; /* nodes, the first nsw switches */
};

/*
 * End @e of device @dev (a switch when @sw) onto its node, one made when
 * none of the device's nodes (from @first) is its: a switch's one node,
 * an HCA's per NIC (or per port of a standalone one).  False when a
 * switch's port is not one of its InfiniBand ports.
 */
static bool sn_end(struct subnet *s, uint32_t dev, bool sw, uint32_t first,
		   struct end *e)
{
	struct ibnet *x = s->x;
	const struct rk_design *d = x->d;
	uint32_t sub = RK_NONE, num = 0, np = 0, m;

	if (sw) {
		number_switch_ports(x, d->objs[dev].part);
		num = (uint32_t)x->port_num[e->port];
		np = x->sw_nports[d->objs[dev].part];
		if (!num) {
			diag_error(x->ctx->diag,
				   &d->links[s->links[e->orig >> 1]].loc,
				   "ibnet",
				   "cannot express subnet '%s' as an ibsim net "
				   "file: port %s of switch %s is not one of "
				   "its InfiniBand ports",
				   s->name, local(x, e->port), ir_name(d, dev));
			return false;
		}
	} else {
		sub = nic_of(x, d->objs[dev].part, e->port, &num, &np);
	}
	for (m = first; m < s->nn; m++)
		if (sw || s->nodes[m].sub == (sub != RK_NONE ? sub : e->port))
			break;
	if (m == s->nn) {
		struct ibnode *in = VEC_PUSH(s->nodes, s->nn, s->ncap);

		memset(in, 0, sizeof(*in));
		in->dev = dev;
		in->sw = sw;
		in->sub = sub != RK_NONE ? sub : e->port;
		in->standalone = !sw && sub == RK_NONE;
		in->nports = in->standalone ? 1 : np;
	}
	if (!sw && sub == RK_NONE)
		num = 1;
	e->node = m;
	e->num = num;
	return true;
}

/* The nodes: switches first (pass 0), then HCAs (pass 1); each end's
 * node and port number. */
static bool sn_nodes(struct subnet *s)
{
	const struct rk_design *d = s->x->d;
	struct end *ends = s->ends;
	bool ok = true;

	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < 2 * s->nl;) {
			uint32_t dev = ends[i].dev, j = i, first = s->nn;
			bool sw = d->objs[dev].cls == C_SWITCH;

			while (j < 2 * s->nl && ends[j].dev == dev)
				j++;
			if (sw != (pass == 0)) {
				i = j;
				continue;
			}
			for (uint32_t k = i; k < j; k++)
				if (!sn_end(s, dev, sw, first, &ends[k]))
					ok = false;
			i = j;
		}
		if (pass == 0)
			s->nsw = s->nn;
	}
	return ok;
}

/* The nodes' names, descriptions and GUIDs, within ibsim's limits. */
static bool sn_names(struct subnet *s)
{
	struct ibnet *x = s->x;
	const struct rk_design *d = x->d;
	uint64_t base = (uint64_t)0x02 << 56 | (be_fnv1a(s->name) & 0xffffff)
						   << 32;
	bool ok = true;

	for (uint32_t m = 0; m < s->nn; m++) {
		struct ibnode *in = &s->nodes[m];
		const char *h = x->host[in->dev];

		if (in->sw) {
			in->id = ir_name(d, in->dev);
			in->idn = strlen_of(d->arena, d->objs[in->dev].name);
			in->desc = h;
			in->descn = (uint32_t)strlen(h);
			in->guid = base | 0x10000000 | (m + 1);
		} else {
			const char *dn = in->standalone
					     ? NULL
					     : ir_str(d, in->sub, A_DEVNAME);

			const char *sub = local(x, in->sub);
			size_t subn =
			    strlen_of(d->arena, d->objs[in->sub].local);

			in->id =
			    join(x->ctx->arena, ir_name(d, in->dev),
				 strlen_of(d->arena, d->objs[in->dev].name),
				 '/', sub, subn, &in->idn);
			in->desc = join(x->ctx->arena, h, strlen(h), ' ',
					dn ? dn : sub, dn ? strlen(dn) : subn,
					&in->descn);
			in->guid =
			    base | 0x20000000 | (uint64_t)(m - s->nsw + 1) << 8;
		}
		if (in->nports > IB_MAX_PORTS || in->descn > IB_DESC_MAX) {
			diag_error(x->ctx->diag, &d->objs[in->dev].loc, "ibnet",
				   "cannot express subnet '%s' as an ibsim net "
				   "file: %s %s",
				   s->name, in->id,
				   in->nports > IB_MAX_PORTS
				       ? "has more than 254 ports"
				       : "has a node description longer "
					 "than 64 bytes");
			ok = false;
		}
	}
	return ok;
}

/* No port carries two links (ends in written order @ord). */
static bool sn_ports_once(const struct subnet *s, const uint32_t *ord)
{
	const struct rk_design *d = s->x->d;

	for (uint32_t i = 1; i < 2 * s->nl; i++) {
		const struct end *a = &s->ends[ord[i - 1]];
		const struct end *b = &s->ends[ord[i]];

		if (a->node == b->node && a->num == b->num) {
			diag_error(s->x->ctx->diag,
				   &d->links[s->links[b->orig >> 1]].loc,
				   "ibnet",
				   "cannot express subnet '%s' as an ibsim net "
				   "file: port %u of %s carries two links",
				   s->name, b->num, s->nodes[b->node].id);
			return false;
		}
	}
	return true;
}

/* peer[i]: the other end of the link of the i-th end written (an index
 * into ends), found through orig -> written position. */
static uint32_t *sn_peers(const struct subnet *s, const uint32_t *ord)
{
	const uint32_t n = 2 * s->nl;
	uint32_t *pos = xmalloc((size_t)n * sizeof(*pos));
	uint32_t *peer = xmalloc((size_t)n * sizeof(*peer));

	for (uint32_t i = 0; i < n; i++)
		pos[s->ends[ord[i]].orig] = i;
	for (uint32_t i = 0; i < n; i++)
		peer[i] = ord[pos[s->ends[ord[i]].orig ^ 1]];
	free(pos);
	return peer;
}

/* The net file: a head, then each node and its ports in written order. */
static bool sn_write(const struct subnet *s, const uint32_t *ord,
		     const uint32_t *peer)
{
	struct ibnet *x = s->x;
	const struct rk_design *d = x->d;
	const struct end *ends = s->ends;
	const uint32_t nl = s->nl, nsw = s->nsw, nhca = s->nn - s->nsw;
	struct wbuf *wb;
	FILE *fp =
	    out_open(x->ctx, arena_printf(x->ctx->arena, "ib/%s.net", s->name));

	if (!fp)
		return false;
	wb = xmalloc(sizeof(*wb));
	wb_init(wb, fp);
	wb_str(wb, "# rackc: InfiniBand subnet ");
	wb_str(wb, s->name);
	wb_str(wb, " (");
	wb_str(wb, x->ctx->input);
	wb_str(wb, "), ");
	wb_u64(wb, nsw);
	wb_str(wb, nsw == 1 ? " switch, " : " switches, ");
	wb_u64(wb, nhca);
	wb_str(wb, nhca == 1 ? " HCA, " : " HCAs, ");
	wb_u64(wb, nl);
	wb_str(wb, nl == 1 ? " link\n" : " links\n");
	wb_str(wb, "# ibsim/ibnetdiscover net file; rates above HDR are "
		   "written as 4xHDR\n\n");
	for (uint32_t i = 0, m = 0; m < s->nn && !be_cancelled(x->ctx); m++) {
		const struct ibnode *in = &s->nodes[m];
		uint32_t k;

		for (k = i; k < 2 * nl && ends[ord[k]].node == m; k++)
			port_comment(wb, d, &ends[ord[k]]);
		wb_str(wb, in->sw ? "switchguid=0x" : "caguid=0x");
		wb_hex(wb, in->guid, 16);
		wb_str(wb, in->sw ? "\nSwitch\t" : "\nHca\t");
		wb_u64(wb, in->nports);
		wb_str(wb, " \"");
		wb_mem(wb, in->id, in->idn);
		wb_str(wb, "\"\t# \"");
		wb_mem(wb, in->desc, in->descn);
		wb_str(wb, in->sw ? "\" enhanced port 0\n" : "\"\n");
		for (; i < k; i++) {
			const struct end *e = &ends[ord[i]];
			const struct end *p = &ends[peer[i]];
			int64_t ra = x->speed[e->port];
			int64_t rb = x->speed[p->port];
			int64_t r = !ra ? rb : !rb ? ra : ra < rb ? ra : rb;

			port_line(wb, e->num, &s->nodes[p->node], p->num,
				  speed_word(r));
		}
		wb_ch(wb, '\n');
	}
	wb_flush(wb);
	free(wb);
	return true;
}

/*
 * Write one subnet: the IB links @links[0..n) joining its devices, whose
 * 2 * @nl ends @ends come ordered by (dev, port, link), as the port index
 * has them.  They are written in (node, num) order (order_ends), ties in
 * link order; equal (node, num) means the same port.
 */
static bool emit_subnet(struct ibnet *x, const char *name,
			const uint32_t *links, uint32_t nl, struct end *ends)
{
	struct subnet s = { x, name, links, nl, ends, NULL, 0, 0, 0 };
	uint32_t *ord = NULL, *peer = NULL;
	bool ok = sn_nodes(&s);

	ok &= sn_names(&s);
	ord = order_ends(ends, 2 * nl, s.nn);
	if (ok && sn_ports_once(&s, ord)) {
		peer = sn_peers(&s, ord);
		ok = sn_write(&s, ord, peer);
	} else {
		ok = false;
	}
	free(s.nodes);
	free(ord);
	free(peer);
	return ok;
}

/*
 * The subnet names given so far: an open-addressing set (at most half
 * full), each name with the next suffix to try when it comes up again as
 * a base, so that naming n subnets after one fabric takes time linear in
 * n rather than a scan of every name per suffix tried.
 */
struct name_slot {
	const char *name;
	uint32_t next;
};

static struct name_slot *name_slot(struct name_slot *set, uint32_t mask,
				   const char *nm)
{
	uint64_t h = 14695981039346656037ULL; /* FNV-1a */

	for (const char *c = nm; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ULL;
	for (uint32_t i = (uint32_t)hash_mix64(h) & mask;; i = (i + 1) & mask)
		if (!set[i].name || streq(set[i].name, nm))
			return &set[i];
}

static bool emit_ibnet(struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	struct ibnet x;
	uint32_t n = d->nobjs ? d->nobjs : 1, nl = d->nlinks ? d->nlinks : 1;
	uint32_t *up = xmalloc(nl * sizeof(*up));
	uint32_t *first = xmalloc(nl * sizeof(*first)); /* root -> subnet */
	uint32_t *sub_of = NULL, *cnt = NULL, *start = NULL, *links = NULL;
	uint32_t *last, *pos, *fill, nsub = 0, nib = 0;
	uint8_t *isib; /* link -> InfiniBand (ib_link) */
	const struct port_index *pi = derived_ports(ctx->dv);
	struct end *ends;
	const char **names = NULL;
	struct name_slot *set;
	uint32_t mask;
	bool ok;

	memset(&x, 0, sizeof(x));
	x.ctx = ctx;
	x.d = d;
	x.host = be_host_names(ctx, &ok);
	x.port_num = xcalloc(n, sizeof(*x.port_num));
	x.numbered = xcalloc(n, 1);
	x.sw_nports = xcalloc(n, sizeof(*x.sw_nports));
	x.speed = xcalloc(n, sizeof(*x.speed));
	x.proto = xcalloc(n, sizeof(*x.proto));
	x.nic = xcalloc(n, sizeof(*x.nic));
	x.nic_part = RK_NONE;
	for (uint32_t i = 0; i < d->nobjs; i++)
		if (d->objs[i].kind == K_PORT) {
			x.speed[i] = ir_num(d, i, A_SPEED, 0);
			x.proto[i] = proto_of(d, i);
		}
	for (uint32_t i = 0; i < nl; i++) {
		up[i] = i;
		first[i] = RK_NONE;
	}
	/*
	 * Subnets: links are joined through a switch, or through one HCA
	 * (a NIC component of a device, or a port no NIC claims).  A server
	 * with a compute HCA and a storage HCA is on two subnets.  The port
	 * index has each device's link ends together; @last holds, per HCA
	 * (its NIC or port object), the last link seen on the device at hand.
	 */
	isib = xmalloc(nl);
	for (uint32_t l = 0; l < d->nlinks; l++)
		isib[l] = ib_link(&x, &d->links[l]);
	last = xmalloc(n * sizeof(*last));
	memset(last, 0xff, n * sizeof(*last));
	for (uint32_t dev = 0; dev < d->nobjs; dev++) {
		uint32_t lo = pi->start[dev], hi = pi->start[dev + 1];
		bool sw = d->objs[dev].cls == C_SWITCH;
		uint32_t swl = RK_NONE;

		for (uint32_t k = lo; k < hi; k++) {
			uint32_t l = pi->e[k].link, *prev;

			if (!isib[l])
				continue;
			prev =
			    sw ? &swl : &last[hca_of(&x, dev, pi->e[k].port)];
			if (*prev != RK_NONE)
				uf_union(up, *prev, l);
			*prev = l;
		}
		for (uint32_t k = lo; k < hi && !sw; k++)
			if (isib[pi->e[k].link])
				last[hca_of(&x, dev, pi->e[k].port)] = RK_NONE;
	}
	free(last);
	/* subnets numbered by their first link */
	sub_of = xmalloc(nl * sizeof(*sub_of));
	for (uint32_t l = 0; l < d->nlinks; l++) {
		uint32_t r;

		sub_of[l] = RK_NONE;
		if (!isib[l])
			continue;
		nib++;
		r = uf_find(up, l);
		if (first[r] == RK_NONE)
			first[r] = nsub++;
		sub_of[l] = first[r];
	}
	cnt = xcalloc(nsub + 1, sizeof(*cnt));
	start = xcalloc(nsub + 1, sizeof(*start));
	links = xmalloc((nib + 1) * sizeof(*links));
	names = xcalloc(nsub + 1, sizeof(*names));
	for (uint32_t l = 0; l < d->nlinks; l++)
		if (sub_of[l] != RK_NONE)
			cnt[sub_of[l]]++;
	for (uint32_t s = 1; s <= nsub; s++)
		start[s] = start[s - 1] + cnt[s - 1];
	memset(cnt, 0, (nsub + 1) * sizeof(*cnt));
	pos = xmalloc(nl * sizeof(*pos));
	for (uint32_t l = 0; l < d->nlinks; l++)
		if (sub_of[l] != RK_NONE) {
			pos[l] = cnt[sub_of[l]]++;
			links[start[sub_of[l]] + pos[l]] = l;
		}
	/*
	 * Each subnet's link ends, 2 * start[s] onwards, in port-index order
	 * (device, port, link, end); orig numbers them within the subnet.
	 */
	ends = xmalloc(((size_t)2 * nib + 1) * sizeof(*ends));
	fill = xmalloc((nsub + 1) * sizeof(*fill));
	for (uint32_t s = 0; s < nsub; s++)
		fill[s] = 2 * start[s];
	for (uint32_t dev = 0; dev < d->nobjs; dev++)
		for (uint32_t k = pi->start[dev]; k < pi->start[dev + 1]; k++) {
			const struct port_end *pe = &pi->e[k];
			uint32_t sb = sub_of[pe->link];

			if (sb != RK_NONE)
				ends[fill[sb]++] =
				    (struct end){ dev, pe->port, RK_NONE, 0,
						  2 * pos[pe->link] + pe->end };
		}
	free(fill);
	free(pos);
	/* names: the first generating fabric, else the first switch/device */
	for (mask = 1; mask < 2 * nsub + 2; mask *= 2)
		;
	set = xcalloc(mask, sizeof(*set));
	mask--;
	for (uint32_t s = 0; s < nsub; s++) {
		uint32_t best = RK_NONE, sw = RK_NONE;
		const char *nm, *base;
		struct name_slot *slot;

		for (uint32_t i = start[s]; i < start[s] + cnt[s]; i++) {
			const struct rk_link *k = &d->links[links[i]];

			if (k->fabric != RK_NONE) {
				best = k->fabric;
				break;
			}
			for (int e = 0; e < 2; e++) {
				uint32_t dv = e ? k->b_dev : k->a_dev;

				if (d->objs[dv].cls == C_SWITCH &&
				    (sw == RK_NONE || dv < sw))
					sw = dv;
				if (best == RK_NONE || dv < best)
					best = dv;
			}
		}
		if (d->objs[best].kind != K_FABRIC && sw != RK_NONE)
			best = sw;
		base = d->objs[best].kind == K_FABRIC
			   ? be_derived_name(ctx->arena, ir_name(d, best))
			   : x.host[best];
		if (!base || !base[0])
			base = "subnet";
		nm = base;
		slot = name_slot(set, mask, base);
		if (slot->name) {
			/* base-2, base-3, ...: the first one not given */
			struct name_slot *b = slot;
			uint32_t k = b->next;

			do {
				nm = arena_printf(ctx->arena, "%s-%u", base,
						  k++);
				slot = name_slot(set, mask, nm);
			} while (slot->name);
			b->next = k;
		}
		slot->name = nm;
		slot->next = 2;
		names[s] = nm;
	}
	free(set);
	if (ok)
		for (uint32_t s = 0; s < nsub && !ctx->failed; s++)
			if (!emit_subnet(&x, names[s], links + start[s], cnt[s],
					 ends + (size_t)2 * start[s]))
				ok = false;
	free(up);
	free(first);
	free(sub_of);
	free(isib);
	free(ends);
	free(cnt);
	free(start);
	free(links);
	free(names);
	free(x.port_num);
	free(x.numbered);
	free(x.sw_nports);
	free(x.speed);
	free(x.proto);
	free(x.nic);
	return ok && !ctx->failed;
}

const struct backend backend_ibnet = {
	.name = "ibnet",
	.summary = "ib/<subnet>.net: each InfiniBand subnet as an ibsim / "
		   "ibnetdiscover net file",
	.emit = emit_ibnet,
	.needs = BE_NEEDS_PLAN, /* the port index */
	.weight = 9,
	.preflight = emit_ibnet, /* dry: nothing is written */
};
