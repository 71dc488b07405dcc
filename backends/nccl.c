/* SPDX-License-Identifier: MIT */
/*
 * The "nccl" back end: one NCCL topology file (NCCL_TOPO_FILE) per server
 * part that has GPU components and is used by at least one node,
 * nccl/<part>.xml, plus nccl/hosts.csv mapping every node's host name to
 * its file, in the format NCCL's topology reader (graph/xml.cc) takes:
 *
 *   <system version="1">                      no XML declaration, 2 spaces
 *     <cpu numaid="N">                        one per cpu component
 *       <pci busid=.. class="0x060400" link_speed=.. link_width=..>
 *         <pci busid=.. class="0x020700" ..><nic><net .../></nic></pci>
 *         <pci busid=.. class="0x030200" ..><gpu dev sm rank>
 *           <nvlink target="fffffff:ff:ff.0" count=.. tclass="0x068000"/>
 *
 * Rules:
 *  - Bus ids come from the components' `bus` attributes, lower-cased and
 *    written as dddd:bb:dd.f.  A GPU or NIC without one cannot be expressed
 *    (NCCL attaches live devices by exact bus id string).  A PCIe switch
 *    without one becomes a virtual bridge ffff:BB:DD.0, which NCCL accepts
 *    (ref 3.2) and which never matches a real device.
 *  - Parents: a pcie_switch hangs off its `cpu` (or another switch named
 *    by `pcie`); a GPU or NIC off its `pcie` switch, else its `cpu`.  With a
 *    single CPU the `cpu` attribute may be left out.
 *  - link_speed/link_width describe the link to the parent: the lower of
 *    the two ends' pcie_gen/pcie_width, and unknown when the device's own
 *    figure is (none is borrowed from the other end).  A switch that
 *    declares none takes the highest of the devices below it (otherwise
 *    NCCL would rate the bridge at Gen3).  Both are written or neither:
 *    NCCL's converter reads both (graph/topo.cc ncclTopoAddPci), and only
 *    detection on the host fills an absent one (graph/xml.cc
 *    ncclTopoGetXmlFromSys), which completes a GPU's <pci> and those above
 *    it.  A virtual bridge without figures is an error (there is nothing
 *    on the host to fill it from).
 *  - <cpu> carries numaid (the cpu's `numa`, else its position) and, from
 *    the cpu's part, arch (`arch`: x86_64, arm64, ppc64), for x86_64 the
 *    CPUID vendor string (the part's `vendor`: Intel is GenuineIntel, AMD
 *    AuthenticAMD) and familyid/modelid from `cpu_family`/`cpu_model` (the
 *    family and model the vendors' manuals give, AMD's 19h = 25) in
 *    NCCL's encoding of CPUID leaf 1 (graph/xml.cc ncclTopoGetXmlFromCpu):
 *    base family + (extended family << 4), so 19h is 175, which RCCL
 *    classifies as ROME (25 would read as ZEN), so that the file loads on
 *    any host: NCCL's converter needs arch, vendor on x86 and family/model
 *    for Intel (RCCL also for AMD), ref 4.2.  What the part does not give
 *    is left out, with a warning, for NCCL to fill from the host it runs
 *    on.  affinity (SMT and core numbering) is not in the design and is
 *    left to NCCL.
 *  - GPUs are numbered dev = rank = 0.. in bus-id order (NVML's order), sm
 *    from the GPU part; no gdr (GPUDirect RDMA is a fact of the host's
 *    drivers, which NCCL detects unless the file claims it).  When the
 *    server has NVSwitches or its nodes are in an nvlink fabric, each GPU
 *    gets one nvlink row to the NVS node with count = its `nvlinks` (all
 *    NVSwitch targets collapse into one NVS node, ref 3.1); otherwise no
 *    rows, so NCCL detects them.
 *  - NICs are those with at least one port whose role is compute or unset
 *    (storage and in-band cards carry no NCCL traffic).  Each port is a
 *    <net>: name = devname, dev = 0.. in bus-id order, port = 1.. within
 *    the NIC and speed in Mb/s where the catalog states one.  guid,
 *    maxconn, latency, gdr and coll are left to the network plugin: NCCL
 *    believes the file's values over the plugin's (graph/topo.cc
 *    ncclTopoPopulateNics).  class is 0x020700 for InfiniBand ports, else
 *    0x020000.  NCCL never fills the <pci> of a NIC the file names
 *    (graph/xml.cc ncclTopoFillNet), so a NIC whose link (or a link above
 *    it) the catalog does not give is written as a bare <pci busid class>
 *    anchor, which NCCL finds by bus id and fills from sysfs.
 *  - A GPU with `c2c_bw` (Grace-based parts: the NVLink-C2C bandwidth to
 *    its CPU, per direction) gets one <c2c> row, count="1" and bw = that
 *    bandwidth in MB/s: NCCL rates the link bw x count (ref 4.7), and the
 *    catalog gives the total, not the link count.  Without it NCCL routes
 *    GPU to NIC through the CPU (PHB) and turns GPUDirect RDMA off.
 *  - RCCL: a server whose GPUs name an `arch` (AMD's gfx942) and no CUDA
 *    `sm` gets the file RCCL reads through the same NCCL_TOPO_FILE: NCCL's
 *    format at RCCL's version="2" (RCCL src/graph/xml.h), GPUs in their
 *    part's `pci_class` (0x120000 for MI300X), <gpu dev gcn rank> with
 *    gcn = the arch, and <xgmi target= count="1" tclass=> rows in place of
 *    <nvlink>: one to every other GPU of the server, the full
 *    point-to-point mesh of an 8-GPU MI300X board (ref rule 15), as RCCL's
 *    own MI300X model topology (tools/topo_expl/models/topo_8p_942vm.xml)
 *    writes it.  sm and RCCL's numeric arch are HIP device properties,
 *    not catalog data, and are left for RCCL to fill.
 *  - A server part without GPU components gets no file and its nodes are
 *    left out of hosts.csv (NCCL does not run there): every row names a
 *    file.  So does a server part whose GPUs are all Intel's (the GPU
 *    part's `vendor`; Gaudi): Intel's HCCL drives them and reads no NCCL
 *    topology file.
 */
#include "rackc.h"

#include <stdarg.h>
#include <stdlib.h>

#include <libxml/parser.h>
#include <libxml/xmlwriter.h>

#include "backend.h"
#include "be_common.h"
#include "fabric.h"
#include "nccl_nics.h"
#include "schema.h"

#define NCCL_MAX_ELEMENTS 256	     /* NCCL_TOPO_XML_MAX_NODES (ref 3.3) */
#define NVS_TARGET "fffffff:ff:ff.0" /* hidden NVSwitch far end (ref 4.6) */

struct ncomp {
	uint32_t id;  /* K_COMP object */
	uint16_t cls; /* COMP_* */
	bool has_bus; /* bus attribute given */
	bool used;    /* written (GPU, chosen NIC, or holds one) */
	bool bad_up;  /* its pcie names something else than a switch */
	bool nccl;    /* nic: carries NCCL traffic (nccl_nic_carries) */
	bool anchor;  /* nic: written as a bare <pci> for NCCL to fill */
	uint8_t walk; /* depth walk: 0 new, 1 on the path, 2 done */
	uint64_t bus; /* domain << 16 | bus << 8 | device << 3 | function */
	char busid[24];
	uint32_t up;	      /* index of the parent (cpu or switch), RK_NONE */
	uint32_t depth;	      /* parents above it */
	int64_t numa;	      /* cpu: numaid */
	int64_t ogen, owid;   /* its own PCIe figures; 0 = unknown */
	int64_t gen, width;   /* of the link to the parent; 0 = unknown */
	uint32_t dev;	      /* gpu: dev/rank; nic: dev of its first port */
	uint32_t kids, nkids; /* children: kid[kids .. kids + nkids) */
};

/* An object id and its component index, for lookups by object. */
struct nid {
	uint32_t obj, idx;
};

struct npart {
	struct backend_ctx *ctx;
	const struct rk_design *d;
	uint32_t part;
	const char *pname;
	struct ncomp *c;
	uint32_t n;
	struct nid *byid; /* sorted by obj */
	uint32_t *kid;	  /* children of every parent, each run by bus id */
	bool nvswitched;
	bool rccl; /* AMD GPUs: RCCL's flavour of the format */
	bool ok;
	/* writer */
	xmlTextWriterPtr w;
	bool wok;
	uint32_t elements;
};

static void part_error(struct npart *p, uint32_t obj, const struct srcloc *loc,
		       const char *fmt, ...) PRINTF(4, 5);

static void part_error(struct npart *p, uint32_t obj, const struct srcloc *loc,
		       const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_error(p->ctx->diag, loc ? loc : &p->d->objs[obj].loc, "nccl",
		   "cannot express part '%s' in NCCL topology XML: %s",
		   p->pname, msg);
	p->ok = false;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Read exactly @digits hex digits (or 1..@digits when @digits < 0). */
static bool hex_field(const char **s, int digits, uint64_t *v)
{
	int max = digits < 0 ? -digits : digits, k = 0;

	*v = 0;
	while (k < max && hexval(**s) >= 0) {
		*v = *v * 16 + (uint64_t)hexval(**s);
		(*s)++;
		k++;
	}
	return digits < 0 ? k > 0 : k == digits;
}

/*
 * Parse a PCI address "dddd:bb:dd.f" (domain 1 to 8 hex digits) or
 * "bb:dd.f"; write NCCL's spelling (lower case, at least 4 domain digits).
 */
static bool parse_bus(const char *s, uint64_t *val, char *out, size_t len)
{
	uint64_t dom = 0, bus, dev, fn;
	const char *p = s;
	int colons = 0;

	for (const char *q = s; *q; q++)
		colons += *q == ':';
	if (colons == 2 && (!hex_field(&p, -8, &dom) || *p++ != ':'))
		return false;
	if (colons != 1 && colons != 2)
		return false;
	if (!hex_field(&p, 2, &bus) || *p++ != ':' || !hex_field(&p, 2, &dev) ||
	    *p++ != '.' || !hex_field(&p, 1, &fn) || *p || dev > 0x1f || fn > 7)
		return false;
	*val = dom << 16 | bus << 8 | dev << 3 | fn;
	snprintf(out, len, "%04llx:%02llx:%02llx.%llx", (unsigned long long)dom,
		 (unsigned long long)bus, (unsigned long long)dev,
		 (unsigned long long)fn);
	return true;
}

static int nid_cmp(const void *a, const void *b)
{
	const struct nid *x = a, *y = b;

	return x->obj < y->obj ? -1 : x->obj > y->obj;
}

static uint32_t index_of(const struct npart *p, uint32_t obj)
{
	struct nid key = { obj, 0 };
	const struct nid *f =
	    p->n ? bsearch(&key, p->byid, p->n, sizeof(*p->byid), nid_cmp)
		 : NULL;

	return f ? f->idx : RK_NONE;
}

static uint32_t ref_comp(struct npart *p, uint32_t i, uint32_t key)
{
	const struct rk_value *v = ir_attr(p->d, p->c[i].id, key);

	return v && v->type == VT_OBJ ? index_of(p, v->a) : RK_NONE;
}

static const char *nic_class(const struct rk_design *d, uint32_t nic)
{
	const struct rk_value *pv = ir_attr_inh(d, nic, A_PORTS);

	for (uint32_t k = 0; pv && pv->type == VT_LIST && k < (uint32_t)pv->n;
	     k++) {
		const struct rk_value *e = ir_list_at(d, pv, k);

		if (e->type == VT_PORT &&
		    streq(be_port_protocol(d, (uint32_t)e->n), "ib"))
			return "0x020700";
	}
	return "0x020000";
}

/* A sort key: a group (parent, NUMA node, ...), then the bus id, then the
 * component's index, so that every order is total and repeatable. */
struct nkey {
	uint64_t group, bus;
	uint32_t idx;
};

static int nkey_cmp(const void *a, const void *b)
{
	const struct nkey *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->bus != y->bus)
		return x->bus < y->bus ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Sort component indices by bus id: n log n. */
static void sort_by_bus(const struct npart *p, uint32_t *v, uint32_t n)
{
	struct nkey *k = xmalloc((n + 1) * sizeof(*k));

	for (uint32_t i = 0; i < n; i++) {
		k[i].group = 0;
		k[i].bus = p->c[v[i]].bus;
		k[i].idx = v[i];
	}
	qsort(k, n, sizeof(*k), nkey_cmp);
	for (uint32_t i = 0; i < n; i++)
		v[i] = k[i].idx;
	free(k);
}

static int64_t min_known(int64_t a, int64_t b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	return a < b ? a : b;
}

/*
 * Depths of every component: each walk up stops at a component already
 * done, so the whole takes time linear in the components; a walk that
 * meets its own path is a cycle of switches.  False after an error.
 */
static bool depths(struct npart *p)
{
	uint32_t *path = xmalloc((p->n + 1) * sizeof(*path));
	bool ok = true;

	for (uint32_t i = 0; i < p->n && ok; i++) {
		uint32_t np = 0, j = i, base;

		while (j != RK_NONE && p->c[j].walk == 0) {
			p->c[j].walk = 1;
			path[np++] = j;
			j = p->c[j].up;
		}
		if (j != RK_NONE && p->c[j].walk == 1) {
			part_error(p, p->c[i].id, NULL,
				   "its pcie switches form a cycle");
			ok = false;
			break;
		}
		base = j == RK_NONE ? 0 : p->c[j].depth + 1;
		while (np--) {
			p->c[path[np]].depth = base++;
			p->c[path[np]].walk = 2;
		}
	}
	free(path);
	return ok;
}

/* Read each component's bus id and mark the NICs that carry NCCL traffic;
 * the number of cpu components, *@onecpu the last of them. */
static uint32_t read_buses(struct npart *p, uint32_t *onecpu)
{
	const struct rk_design *d = p->d;
	uint32_t ncpu = 0;

	for (uint32_t i = 0; i < p->n; i++) {
		struct ncomp *c = &p->c[i];
		const struct rk_value *b = ir_attr(d, c->id, A_BUS);

		c->bus = UINT64_MAX;
		c->up = RK_NONE;
		c->nccl = c->cls == COMP_NIC && nccl_nic_carries(d, c->id);
		if (c->cls == COMP_CPU) {
			*onecpu = i;
			ncpu++;
		}
		if (b && b->type == VT_STR) {
			const char *s = str_of(p->ctx->d->arena, b->a);

			if (!parse_bus(s, &c->bus, c->busid,
				       sizeof(c->busid))) {
				part_error(p, c->id, &b->loc,
					   "%s has bus \"%s\", which is not a "
					   "PCI address dddd:bb:dd.f",
					   str_of(p->ctx->d->arena,
						  d->objs[c->id].local),
					   s);
				continue;
			}
			c->has_bus = true;
		}
	}
	return ncpu;
}

/* Each component's parent: its `pcie` switch, else its `cpu`, else the
 * part's only cpu (@onecpu when @ncpu is 1); a `pcie` that names no switch
 * is marked bad_up. */
static void resolve_parents(struct npart *p, uint32_t ncpu, uint32_t onecpu)
{
	for (uint32_t i = 0; i < p->n; i++) {
		struct ncomp *c = &p->c[i];

		if (c->cls == COMP_CPU || (c->cls == COMP_NIC && !c->nccl))
			continue;
		c->up = ref_comp(p, i, A_PCIE);
		if (c->up != RK_NONE && p->c[c->up].cls != COMP_PCIE_SWITCH) {
			c->bad_up = true;
			c->up = RK_NONE;
			continue;
		}
		if (c->up == RK_NONE)
			c->up = ref_comp(p, i, A_CPU);
		if (c->up == RK_NONE && ncpu == 1)
			c->up = onecpu;
	}
}

/* Mark what is written: the GPUs, the NCCL NICs and everything above
 * them (each walk up stops at a component already marked). */
static void mark_used(struct npart *p)
{
	for (uint32_t i = 0; i < p->n; i++)
		if (p->c[i].cls == COMP_GPU || p->c[i].nccl)
			for (uint32_t j = i; j != RK_NONE && !p->c[j].used;
			     j = p->c[j].up)
				p->c[j].used = true;
}

/* Errors for the used components that cannot be placed: behind something
 * else than a switch, under no switch or cpu (when the part has @ncpu
 * cpus), or without a bus id (the first four named in one error). */
static void check_placed(struct npart *p, uint32_t ncpu)
{
	const struct rk_design *d = p->d;
	uint32_t nobus = 0;
	char names[300];
	size_t nb = 0;

	for (uint32_t i = 0; i < p->n; i++) {
		const struct ncomp *c = &p->c[i];
		const char *nm = str_of(d->arena, d->objs[c->id].local);
		const struct rk_value *pv = ir_attr(d, c->id, A_PCIE);

		if (!c->used || c->cls == COMP_CPU)
			continue;
		/* the names are the design's strings (d->arena) */
		if (c->bad_up)
			part_error(p, c->id, &pv->loc,
				   "%s sits behind '%s', which is not a "
				   "pcie_switch",
				   nm, str_of(d->arena, d->objs[pv->a].local));
		else if (c->up == RK_NONE && ncpu)
			part_error(p, c->id, NULL,
				   "%s names no pcie switch or cpu, so its "
				   "NUMA node is unknown",
				   nm);
		if (c->cls != COMP_PCIE_SWITCH && !c->has_bus &&
		    !ir_attr(d, c->id, A_BUS)) {
			if (++nobus <= 4)
				nb += (size_t)snprintf(
				    names + nb, sizeof(names) - nb, "%s%s",
				    nobus > 1 ? ", " : "", nm);
		}
	}
	if (nobus)
		part_error(p, p->part, NULL,
			   "%u GPU%s or NIC%s %s no PCI bus id ('bus'), which "
			   "NCCL needs to find the device: %s%s",
			   nobus, nobus == 1 ? "" : "s", nobus == 1 ? "" : "s",
			   nobus == 1 ? "has" : "have", names,
			   nobus > 4 ? ", ..." : "");
}

/* Virtual bridge ids ffff:BB:DD.0 for the used switches without a bus
 * attribute; false after an error (more than there are). */
static bool virtual_bridges(struct npart *p)
{
	uint32_t nvirt = 0;

	for (uint32_t i = 0; i < p->n; i++) {
		struct ncomp *c = &p->c[i];

		if (c->cls != COMP_PCIE_SWITCH || !c->used || c->has_bus)
			continue;
		if (nvirt >= 0x100 * 32) {
			part_error(p, c->id, NULL,
				   "more than %u pcie switches without a bus "
				   "id, the virtual bridge ids ffff:BB:DD.0 "
				   "NCCL accepts",
				   0x100 * 32);
			return false;
		}
		c->bus = (uint64_t)0xffff << 16 |
			 (uint64_t)(0xff - nvirt / 32) << 8 | (nvirt % 32) << 3;
		snprintf(c->busid, sizeof(c->busid), "ffff:%02x:%02x.0",
			 0xff - nvirt / 32, nvirt % 32);
		nvirt++;
	}
	return true;
}

/*
 * Own figures: a GPU's or NIC's from the catalog (unknown stays
 * unknown: no figure is borrowed from the other end), a switch's its
 * own, else the highest of the devices below it (otherwise NCCL would
 * rate the bridge at Gen3).  Switches are done deepest first (a
 * counting sort by depth), so each has all its children's figures.
 */
static void own_figures(struct npart *p)
{
	const struct rk_design *d = p->d;
	uint32_t *cnt = xcalloc(p->n + 1, sizeof(*cnt));
	uint32_t *order = xmalloc((p->n + 1) * sizeof(*order));

	for (uint32_t i = 0; i < p->n; i++) {
		struct ncomp *c = &p->c[i];

		if (c->used && (c->cls == COMP_GPU || c->cls == COMP_NIC)) {
			c->ogen = ir_num(d, c->id, A_PCIE_GEN, 0);
			c->owid = ir_num(d, c->id, A_PCIE_WIDTH, 0);
		}
		cnt[c->depth]++;
	}
	for (uint32_t k = p->n; k-- > 0;)
		cnt[k] += cnt[k + 1]; /* components at depth > k - 1 */
	for (uint32_t i = p->n; i-- > 0;)
		order[--cnt[p->c[i].depth]] = i; /* deepest first */
	for (uint32_t k = 0; k < p->n; k++) {
		struct ncomp *c = &p->c[order[k]];

		if (!c->used || c->cls == COMP_CPU)
			continue;
		if (c->cls == COMP_PCIE_SWITCH) {
			c->ogen = ir_num(d, c->id, A_PCIE_GEN, c->ogen);
			c->owid = ir_num(d, c->id, A_PCIE_WIDTH, c->owid);
		}
		if (c->up != RK_NONE && p->c[c->up].cls == COMP_PCIE_SWITCH) {
			struct ncomp *u = &p->c[c->up];

			u->ogen = c->ogen > u->ogen ? c->ogen : u->ogen;
			u->owid = c->owid > u->owid ? c->owid : u->owid;
		}
	}
	free(cnt);
	free(order);
}

/* Each link is as fast as its slower end, and unknown when this end is
 * (the catalog does not know the link then). */
static void link_figures(struct npart *p)
{
	const struct rk_design *d = p->d;

	for (uint32_t i = 0; i < p->n; i++) {
		struct ncomp *c = &p->c[i];
		const struct ncomp *u;
		int64_t ug, uw;

		if (!c->used || c->up == RK_NONE)
			continue;
		u = &p->c[c->up];
		if (u->cls == COMP_PCIE_SWITCH) {
			ug = u->ogen;
			uw = u->owid;
		} else {
			ug = ir_num(d, u->id, A_PCIE_GEN, 0);
			uw = ir_num(d, u->id, A_PCIE_WIDTH, 0);
		}
		c->gen = c->ogen ? min_known(c->ogen, ug) : 0;
		c->width = c->owid ? min_known(c->owid, uw) : 0;
		if (c->gen > 6 || c->gen < 0) {
			const struct rk_value *v =
			    ir_attr_inh(d, c->id, A_PCIE_GEN);

			part_error(
			    p, c->id, v ? &v->loc : NULL,
			    "PCIe generation %lld of %s has no NCCL "
			    "link_speed spelling (Gen1 to Gen6)",
			    (long long)c->gen,
			    str_of(p->ctx->d->arena, d->objs[c->id].local));
		}
	}
}

/* Resolve parents, bus ids and link figures; false after an error. */
static bool analyse(struct npart *p)
{
	uint32_t onecpu = RK_NONE, ncpu;

	ncpu = read_buses(p, &onecpu);
	if (!ncpu)
		part_error(p, p->part, NULL,
			   "it declares no cpu components, so its GPUs and "
			   "NICs have no NUMA node");
	resolve_parents(p, ncpu, onecpu);
	/* depth (detects switch cycles) */
	if (!depths(p))
		return false;
	mark_used(p);
	check_placed(p, ncpu);
	if (!virtual_bridges(p))
		return false;
	own_figures(p);
	link_figures(p);
	return p->ok;
}

/* The CPUID vendor string NCCL's converter knows, from a part's vendor. */
static const char *cpuid_vendor(const char *vendor)
{
	if (!vendor)
		return NULL;
	if (streq(vendor, "Intel"))
		return "GenuineIntel";
	if (streq(vendor, "AMD"))
		return "AuthenticAMD";
	return NULL;
}

/*
 * What the <cpu> elements need for a load that does not depend on the
 * host (ref 4.2): an error for a value NCCL would misread, a warning (once
 * per part) for one it would have to fill from the host it runs on.
 */
static void check_cpus(struct npart *p)
{
	const struct rk_design *d = p->d;
	bool warned = false;

	for (uint32_t i = 0; i < p->n; i++) {
		const struct ncomp *c = &p->c[i];
		const char *nm = str_of(d->arena, d->objs[c->id].local);
		const char *arch, *vendor;
		const struct rk_value *av;
		const char *missing = NULL;

		if (c->cls != COMP_CPU)
			continue;
		av = ir_attr_inh(d, c->id, A_ARCH);
		arch = ir_str(d, c->id, A_ARCH);
		vendor = ir_str(d, c->id, A_VENDOR);
		if (arch && !streq(arch, "x86_64") && !streq(arch, "arm64") &&
		    !streq(arch, "ppc64")) {
			part_error(p, c->id, av ? &av->loc : NULL,
				   "cpu %s has arch \"%s\"; NCCL knows x86_64, "
				   "arm64 and ppc64",
				   nm, arch);
			continue;
		}
		if (arch && streq(arch, "x86_64") && vendor &&
		    !cpuid_vendor(vendor)) {
			part_error(p, c->id, NULL,
				   "cpu %s is x86_64 from vendor \"%s\", which "
				   "NCCL does not know (it would assume 5000 "
				   "GB/s between sockets)",
				   nm, vendor);
			continue;
		}
		if (!arch)
			missing = "'arch'";
		else if (streq(arch, "x86_64") && !vendor)
			missing = "'vendor'";
		else if (streq(arch, "x86_64") &&
			 (streq(vendor, "Intel") ||
			  (p->rccl && streq(vendor, "AMD"))) &&
			 (!ir_attr_inh(d, c->id, A_CPU_FAMILY) ||
			  !ir_attr_inh(d, c->id, A_CPU_MODEL)))
			missing = "'cpu_family' and 'cpu_model'";
		if (missing && !warned) {
			warned = true;
			diag_warning(p->ctx->diag, &d->objs[c->id].loc, "nccl",
				     "cpu %s of part '%s' has no %s (of its "
				     "part): the topology file leaves it to "
				     "NCCL to fill from the host it runs on",
				     nm, p->pname, missing);
		}
	}
}

/* ---- writing ---- */

static void xstart(struct npart *p, const char *el)
{
	if (p->wok && xmlTextWriterStartElement(p->w, (const xmlChar *)el) < 0)
		p->wok = false;
	p->elements++;
}

static void xend(struct npart *p)
{
	if (p->wok && xmlTextWriterEndElement(p->w) < 0)
		p->wok = false;
}

static void xattr(struct npart *p, const char *k, const char *fmt, ...)
    PRINTF(3, 4);

static void xattr(struct npart *p, const char *k, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (p->wok && xmlTextWriterWriteAttribute(p->w, (const xmlChar *)k,
						  (const xmlChar *)buf) < 0)
		p->wok = false;
}

static const char *const gen_speed[] = {
	NULL,
	"2.5 GT/s PCIe",
	"5.0 GT/s PCIe",
	"8.0 GT/s PCIe",
	"16.0 GT/s PCIe",
	"32.0 GT/s PCIe",
	"64.0 GT/s PCIe",
};

/* Does the file give the link to the parent: both figures, or neither. */
static bool link_known(const struct ncomp *c)
{
	return c->gen > 0 && c->gen < (int64_t)ARRAY_SIZE(gen_speed) &&
	       c->width > 0;
}

/*
 * Speed and width together or not at all: NCCL's converter reads both
 * (graph/topo.cc ncclTopoAddPci), and only detection on the host fills a
 * missing one (graph/xml.cc ncclTopoGetXmlFromSys), so a file with one of
 * them loads only where the other can be detected.
 */
static void pci_attrs(struct npart *p, const struct ncomp *c, const char *cls)
{
	xattr(p, "busid", "%s", c->busid);
	xattr(p, "class", "%s", cls);
	if (link_known(c)) {
		xattr(p, "link_speed", "%s", gen_speed[c->gen]);
		xattr(p, "link_width", "%lld", (long long)c->width);
	}
}

static const char *gpu_class(const struct rk_design *d, uint32_t gpu)
{
	const char *cls = ir_str(d, gpu, A_PCI_CLASS);

	return cls ? cls : "0x030200";
}

/* Rows under a <gpu>: xGMI peers, the NVSwitch row, the C2C row. */
static uint32_t gpu_rows(const struct npart *p, const struct ncomp *c,
			 uint32_t ngpu)
{
	if (p->rccl)
		return ngpu - 1;
	return (ir_num(p->d, c->id, A_NVLINKS, 0) > 0 && p->nvswitched) +
	       (ir_num(p->d, c->id, A_C2C_BW, 0) > 0);
}

/*
 * <gpu>: dev, sm (or RCCL's gcn) and rank.  gdr is left out: whether
 * GPUDirect RDMA works is a fact of the host's drivers, which NCCL detects
 * when the attribute is absent (graph/xml.cc ncclTopoGetXmlFromGpu sets it
 * only then) and believes when the file gives it.
 */
static void write_gpu(struct npart *p, const struct ncomp *c,
		      const uint32_t *gpus, uint32_t ng)
{
	const struct rk_design *d = p->d;
	int64_t links = ir_num(d, c->id, A_NVLINKS, 0);
	int64_t c2c = ir_num(d, c->id, A_C2C_BW, 0);

	xstart(p, "pci");
	pci_attrs(p, c, gpu_class(d, c->id));
	xstart(p, "gpu");
	xattr(p, "dev", "%u", c->dev);
	if (p->rccl)
		xattr(p, "gcn", "%s", ir_str(d, c->id, A_ARCH));
	else
		xattr(p, "sm", "%lld", (long long)ir_num(d, c->id, A_SM, 0));
	xattr(p, "rank", "%u", c->dev);
	if (p->rccl) {
		/* the full xGMI mesh: one row per peer, in bus order */
		for (uint32_t k = 0; k < ng; k++) {
			const struct ncomp *o = &p->c[gpus[k]];

			if (o == c)
				continue;
			xstart(p, "xgmi");
			xattr(p, "target", "%s", o->busid);
			xattr(p, "count", "1");
			xattr(p, "tclass", "%s", gpu_class(d, o->id));
			xend(p);
		}
	} else if (links > 0 && p->nvswitched) {
		xstart(p, "nvlink");
		xattr(p, "target", NVS_TARGET);
		xattr(p, "count", "%lld", (long long)links);
		xattr(p, "tclass", "0x068000");
		xend(p);
	}
	if (!p->rccl && c2c > 0) {
		/* bits/s per direction -> MB/s (checked exact in emit_part) */
		xstart(p, "c2c");
		xattr(p, "bw", "%lld", (long long)(c2c / 8000000));
		xattr(p, "count", "1");
		xend(p);
	}
	xend(p);
	xend(p);
}

/*
 * A NIC: its <pci>, and unless it is an anchor, <nic> with one <net> per
 * port: name, dev, port and, where the catalog states it, speed.  NCCL
 * takes a <net> it finds by name as it is, never filling its <pci>
 * (graph/xml.cc ncclTopoFillNet), and believes every value the file gives
 * over what the network plugin reports (graph/topo.cc
 * ncclTopoPopulateNics sets latency, speed, port, guid, maxconn, gdr and
 * coll only where absent), so GUIDs, connection counts, latency and
 * GPUDirect support, facts of the host, are left to the plugin.  An
 * anchor (a NIC whose link the catalog does not give) is a bare <pci>:
 * NCCL finds it by bus id and fills it from sysfs.
 */
static void write_nic(struct npart *p, const struct ncomp *c)
{
	const struct rk_design *d = p->d;
	const struct rk_value *pv = ir_attr_inh(d, c->id, A_PORTS);
	uint32_t dev = c->dev;

	xstart(p, "pci");
	pci_attrs(p, c, nic_class(d, c->id));
	if (c->anchor) {
		xend(p);
		return;
	}
	xstart(p, "nic");
	for (uint32_t k = 0; k < (uint32_t)pv->n; k++) {
		const struct rk_value *e = ir_list_at(d, pv, k);
		int64_t speed;

		if (e->type != VT_PORT)
			continue;
		speed = ir_num(d, (uint32_t)e->n, A_SPEED, 0);
		if (!speed)
			speed = ir_num(d, c->id, A_SPEED, 0);
		xstart(p, "net");
		xattr(p, "name", "%s", ir_str(d, c->id, A_DEVNAME));
		xattr(p, "dev", "%u", dev++);
		if (speed >= 1000000)
			xattr(p, "speed", "%lld", (long long)(speed / 1000000));
		xattr(p, "port", "%u", k + 1);
		xend(p);
	}
	xend(p);
	xend(p);
}

static uint32_t nic_ports(const struct rk_design *d, const struct ncomp *c)
{
	return (uint32_t)ir_attr_inh(d, c->id, A_PORTS)->n;
}

static void write_children(struct npart *p, uint32_t parent,
			   const uint32_t *gpus, uint32_t ng)
{
	const struct ncomp *pc = &p->c[parent];

	for (uint32_t k = 0; k < pc->nkids; k++) {
		uint32_t i = p->kid[pc->kids + k];
		const struct ncomp *c = &p->c[i];

		switch (c->cls) {
		case COMP_PCIE_SWITCH:
			xstart(p, "pci");
			pci_attrs(p, c, "0x060400");
			write_children(p, i, gpus, ng);
			xend(p);
			break;
		case COMP_GPU:
			write_gpu(p, c, gpus, ng);
			break;
		default:
			write_nic(p, c);
			break;
		}
	}
}

/*
 * Children of every parent, each parent's run in bus order: one sort of
 * (parent, bus id, index).  Fills kid, kids and nkids.
 */
static void build_children(struct npart *p)
{
	struct nkey *k = xmalloc((p->n + 1) * sizeof(*k));
	uint32_t n = 0;

	for (uint32_t i = 0; i < p->n; i++) {
		const struct ncomp *c = &p->c[i];

		if (!c->used || c->cls == COMP_CPU || c->up == RK_NONE)
			continue;
		k[n].group = c->up;
		k[n].bus = c->bus;
		k[n].idx = i;
		n++;
	}
	qsort(k, n, sizeof(*k), nkey_cmp);
	p->kid = xmalloc((n + 1) * sizeof(*p->kid));
	for (uint32_t j = 0; j < n; j++) {
		struct ncomp *u = &p->c[k[j].group];

		if (!u->nkids)
			u->kids = j;
		u->nkids++;
		p->kid[j] = k[j].idx;
	}
	free(k);
}

/* NCCL's encoding of a CPUID family (graph/xml.cc ncclTopoGetXmlFromCpu):
 * base family + (extended family << 4), where the family a vendor's manual
 * gives (AMD's 19h, Intel's 6) is the base family below 0Fh and base 0Fh
 * plus the extended family from 0Fh on.  Zen 4 (19h) is 175. */
static int64_t nccl_family(int64_t family)
{
	return family < 0xf ? family : 0xf + ((family - 0xf) << 4);
}

/*
 * Links the catalog does not give.  A GPU's and a switch's (with a real bus
 * id) are left to NCCL's detection, which completes a GPU's <pci> and every
 * <pci> above it on the host (graph/xml.cc ncclTopoFillGpu,
 * ncclTopoGetXmlFromSys).  NCCL never fills the <pci> of a NIC whose <net>
 * the file names (graph/xml.cc ncclTopoFillNet), so such a NIC, or one
 * below such a link, is written as a bare <pci busid class> anchor, which
 * NCCL finds by bus id and fills from sysfs: the file loads either way.  A
 * virtual bridge has nothing on the host to fill it from: an error.
 */
static void check_links(struct npart *p)
{
	const struct rk_design *d = p->d;

	for (uint32_t i = 0; i < p->n; i++) {
		const struct ncomp *c = &p->c[i];

		if (c->used && c->cls == COMP_PCIE_SWITCH && !c->has_bus &&
		    !link_known(c))
			part_error(p, c->id, NULL,
				   "pcie switch %s has no bus id and no PCIe "
				   "figures ('pcie_gen' and 'pcie_width', of "
				   "it or of a device below it): NCCL cannot "
				   "detect a virtual bridge's link",
				   str_of(d->arena, d->objs[c->id].local));
	}
	for (uint32_t i = 0; i < p->n; i++) {
		struct ncomp *c = &p->c[i];

		if (!c->nccl || !c->used)
			continue;
		for (uint32_t j = i; j != RK_NONE && p->c[j].cls != COMP_CPU;
		     j = p->c[j].up)
			if (!link_known(&p->c[j]))
				c->anchor = true;
	}
}

/* Elements of the file, counted before it is written. */
static uint64_t count_elements(const struct npart *p, uint32_t nc, uint32_t ng)
{
	uint64_t n = 1 + (uint64_t)nc;

	for (uint32_t i = 0; i < p->n; i++) {
		const struct ncomp *c = &p->c[i];

		if (!c->used || c->cls == COMP_CPU || c->up == RK_NONE)
			continue;
		n++; /* <pci> */
		if (c->cls == COMP_GPU)
			n += 1 + gpu_rows(p, c, ng);
		else if (c->cls == COMP_NIC && !c->anchor)
			n += 1 + nic_ports(p->d, c);
	}
	return n;
}

/* A server part's CPUs, GPUs and used NICs, as indexes into p->c. */
struct nlists {
	uint32_t *cpus, nc;
	uint32_t *gpus, ng;
	uint32_t *nics, nn;
	uint32_t nsm; /* GPUs without `sm` (one error for all) */
};

/* What NCCL needs of GPU @c (named @nm): `sm`, a C2C bandwidth in whole
 * MB/s, a well-formed pci_class. */
static void check_gpu(struct npart *p, const struct ncomp *c, const char *nm,
		      struct nlists *l)
{
	const struct rk_design *d = p->d;
	int64_t c2c = ir_num(d, c->id, A_C2C_BW, 0);
	const char *cls = ir_str(d, c->id, A_PCI_CLASS);

	/* one error for all GPUs without sm */
	if (!p->rccl && ir_num(d, c->id, A_SM, 0) <= 0 && !l->nsm++)
		part_error(p, c->id, NULL,
			   "GPU %s has no CUDA compute capability ('sm' of "
			   "its part)",
			   nm);
	if (c2c % 8000000)
		part_error(p, c->id, NULL,
			   "the NVLink-C2C bandwidth of GPU %s is not a whole "
			   "number of MB/s",
			   nm);
	if (cls && (strlen(cls) != 8 || cls[0] != '0' || cls[1] != 'x' ||
		    strspn(cls + 2, "0123456789abcdef") != 6))
		part_error(p, c->id, NULL,
			   "GPU %s has pci_class \"%s\", not 0x and six "
			   "lower-case hex digits",
			   nm, cls);
}

/* What NCCL needs of NIC @c (named @nm): an RDMA device name its XML
 * reader decodes. */
static void check_nic(struct npart *p, const struct ncomp *c, const char *nm)
{
	const struct rk_design *d = p->d;
	const char *dn = ir_str(d, c->id, A_DEVNAME);

	if (!dn || !dn[0]) {
		part_error(p, c->id, NULL,
			   "NIC %s has no RDMA device name ('devname'), which "
			   "NCCL matches <net> elements by",
			   nm);
		return;
	}
	for (const char *s = dn; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' ||
		      *s == '.' || *s == ':')) {
			part_error(p, c->id, &ir_attr(d, c->id, A_DEVNAME)->loc,
				   "devname \"%s\" of %s has characters "
				   "NCCL's XML reader would not decode",
				   dn, nm);
			break;
		}
}

/* The part's CPUs, GPUs and used NICs into @l, each GPU and NIC checked. */
static void list_comps(struct npart *p, struct nlists *l)
{
	const struct rk_design *d = p->d;

	l->gpus = xmalloc((p->n + 1) * sizeof(*l->gpus));
	l->nics = xmalloc((p->n + 1) * sizeof(*l->nics));
	l->cpus = xmalloc((p->n + 1) * sizeof(*l->cpus));
	for (uint32_t i = 0; i < p->n; i++) {
		const struct ncomp *c = &p->c[i];
		const char *nm = str_of(p->ctx->d->arena, d->objs[c->id].local);

		if (c->cls == COMP_CPU) {
			l->cpus[l->nc++] = i;
		} else if (c->cls == COMP_GPU) {
			l->gpus[l->ng++] = i;
			check_gpu(p, c, nm, l);
		} else if (c->cls == COMP_NIC && c->used) {
			l->nics[l->nn++] = i;
			check_nic(p, c, nm);
		}
	}
}

/*
 * CPUs in NUMA order (n log n; numaid must be unique), and under RCCL the
 * full xGMI mesh of the GPUs; @keys has room for every component.
 */
static void order_cpus(struct npart *p, struct nlists *l, struct nkey *keys)
{
	const struct rk_design *d = p->d;
	uint32_t *cpus = l->cpus, nc = l->nc, ng = l->ng;

	for (uint32_t k = 0; k < nc; k++) {
		struct ncomp *c = &p->c[cpus[k]];

		c->numa = ir_num(d, c->id, A_NUMA, (int64_t)k);
		/* offset so that negative NUMA ids sort first */
		keys[k].group = (uint64_t)c->numa ^ (UINT64_C(1) << 63);
		keys[k].bus = 0;
		keys[k].idx = cpus[k];
	}
	qsort(keys, nc, sizeof(*keys), nkey_cmp);
	for (uint32_t k = 0; k < nc; k++)
		cpus[k] = keys[k].idx;
	for (uint32_t k = 1; k < nc; k++)
		if (p->c[cpus[k]].numa == p->c[cpus[k - 1]].numa)
			part_error(p, p->c[cpus[k]].id, NULL,
				   "cpus %s and %s are both NUMA node %lld",
				   str_of(p->ctx->d->arena,
					  d->objs[p->c[cpus[k - 1]].id].local),
				   str_of(p->ctx->d->arena,
					  d->objs[p->c[cpus[k]].id].local),
				   (long long)p->c[cpus[k]].numa);
	if (p->rccl && ng > 1) {
		const struct ncomp *g = &p->c[l->gpus[0]];
		int64_t links = ir_num(d, g->id, A_NVLINKS, 0);

		if (links && links < (int64_t)ng - 1)
			part_error(p, g->id, NULL,
				   "its %u GPUs form a full xGMI mesh, which "
				   "takes %u links per GPU, but %s has %lld",
				   ng, ng - 1,
				   str_of(d->arena, d->objs[g->id].local),
				   (long long)links);
	}
}

/*
 * GPUs and NICs numbered in bus order (a NIC's number its first port's);
 * then two devices on one bus id are neighbours in bus order: an error.
 */
static void number_devices(struct npart *p, struct nlists *l, struct nkey *keys)
{
	const struct rk_design *d = p->d;
	const uint32_t ng = l->ng, nn = l->nn;
	uint32_t nk = 0;

	sort_by_bus(p, l->gpus, ng);
	sort_by_bus(p, l->nics, nn);
	for (uint32_t k = 0; k < ng; k++)
		p->c[l->gpus[k]].dev = k;
	for (uint32_t k = 0, dev = 0; k < nn; k++) {
		p->c[l->nics[k]].dev = dev;
		dev += p->c[l->nics[k]].anchor
			   ? 0
			   : nic_ports(d, &p->c[l->nics[k]]);
	}
	for (uint32_t k = 0; k < ng + nn; k++) {
		uint32_t i = k < ng ? l->gpus[k] : l->nics[k - ng];

		if (!p->c[i].has_bus)
			continue;
		keys[nk].group = 0;
		keys[nk].bus = p->c[i].bus;
		keys[nk].idx = i;
		nk++;
	}
	qsort(keys, nk, sizeof(*keys), nkey_cmp);
	for (uint32_t k = 1; k < nk; k++) {
		const struct ncomp *a = &p->c[keys[k].idx];
		const struct ncomp *b = &p->c[keys[k - 1].idx];

		if (a->bus == b->bus)
			part_error(
			    p, a->id, NULL, "%s and %s have the same bus id %s",
			    str_of(p->ctx->d->arena, d->objs[b->id].local),
			    str_of(p->ctx->d->arena, d->objs[a->id].local),
			    a->busid);
	}
}

/* The <cpu> elements, in NUMA order, each with its subtree. */
static void write_cpus(struct npart *p, const struct nlists *l)
{
	const struct rk_design *d = p->d;

	for (uint32_t k = 0; k < l->nc; k++) {
		const uint32_t id = p->c[l->cpus[k]].id;
		const char *arch = ir_str(d, id, A_ARCH);
		const char *vendor = cpuid_vendor(ir_str(d, id, A_VENDOR));

		xstart(p, "cpu");
		xattr(p, "numaid", "%lld", (long long)p->c[l->cpus[k]].numa);
		if (arch)
			xattr(p, "arch", "%s", arch);
		if (arch && streq(arch, "x86_64") && vendor)
			xattr(p, "vendor", "%s", vendor);
		if (arch && streq(arch, "x86_64") &&
		    ir_attr_inh(d, id, A_CPU_FAMILY) &&
		    ir_attr_inh(d, id, A_CPU_MODEL)) {
			xattr(p, "familyid", "%lld",
			      (long long)nccl_family(
				  ir_num(d, id, A_CPU_FAMILY, 0)));
			xattr(p, "modelid", "%lld",
			      (long long)ir_num(d, id, A_CPU_MODEL, 0));
		}
		write_children(p, l->cpus[k], l->gpus, l->ng);
		xend(p);
	}
}

/*
 * The topology XML into @buf: a comment naming the part, then <system>
 * (no xmlTextWriterStartDocument: NCCL rejects <?xml ...?>).  False when
 * the writer failed.
 */
static bool write_xml(struct npart *p, const struct nlists *l, xmlBufferPtr buf)
{
	p->w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	p->wok = p->w != NULL;
	if (p->wok &&
	    (xmlTextWriterSetIndent(p->w, 1) < 0 ||
	     xmlTextWriterSetIndentString(p->w, (const xmlChar *)"  ") < 0))
		p->wok = false;
	{
		char *c = arena_printf(p->ctx->arena,
				       " rackc: NCCL topology of server part "
				       "%s (%s) ",
				       p->pname, p->ctx->input);

		/* "--" may not appear in a comment */
		for (char *s = c; *s; s++)
			if (s[0] == '-' && s[1] == '-')
				s[1] = '_';
		if (p->wok &&
		    xmlTextWriterWriteComment(p->w, (const xmlChar *)c) < 0)
			p->wok = false;
	}
	xstart(p, "system");
	xattr(p, "version", p->rccl ? "2" : "1");
	write_cpus(p, l);
	xend(p);
	if (p->w) {
		if (p->wok && xmlTextWriterFlush(p->w) < 0)
			p->wok = false;
		xmlFreeTextWriter(p->w);
		p->w = NULL;
	}
	return p->wok;
}

/* Number devices, check what NCCL needs, write the file. */
static bool emit_part(struct npart *p)
{
	struct nlists l;
	struct nkey *keys = NULL;
	xmlBufferPtr buf = NULL;
	uint64_t elements;
	FILE *fp;

	memset(&l, 0, sizeof(l));
	analyse(p);
	list_comps(p, &l);
	keys = xmalloc((p->n + 1) * sizeof(*keys));
	order_cpus(p, &l, keys);
	check_cpus(p);
	if (!p->ok)
		goto out;
	check_links(p);
	if (!p->ok)
		goto out;
	number_devices(p, &l, keys);
	if (!p->ok)
		goto out;
	elements = count_elements(p, l.nc, l.ng);
	if (elements > NCCL_MAX_ELEMENTS) {
		part_error(p, p->part, NULL,
			   "the file would have %llu elements, but NCCL reads "
			   "at most %u",
			   (unsigned long long)elements, NCCL_MAX_ELEMENTS);
		goto out;
	}
	build_children(p);
	buf = xmlBufferCreate();
	if (!write_xml(p, &l, buf) || p->elements != elements) {
		diag_error(p->ctx->diag, NULL, "io",
			   "cannot build the NCCL topology XML of part '%s'",
			   p->pname);
		p->ctx->failed = true;
		p->ok = false;
		goto out;
	}
	fp = out_open(p->ctx,
		      arena_printf(p->ctx->arena, "nccl/%s.xml",
				   be_file_name(p->ctx->arena, p->pname)));
	if (!fp) {
		p->ok = false;
		goto out;
	}
	fwrite(xmlBufferContent(buf), 1, (size_t)xmlBufferLength(buf), fp);
	if (xmlBufferLength(buf) > 0 &&
	    xmlBufferContent(buf)[xmlBufferLength(buf) - 1] != '\n')
		fputc('\n', fp);
out:
	if (buf)
		xmlBufferFree(buf);
	free(keys);
	free(l.gpus);
	free(l.nics);
	free(l.cpus);
	return p->ok;
}

/* The nccl back end's view of the design's server parts (emit_nccl and
 * its phases), each array indexed by part object. */
struct nccl_run {
	struct backend_ctx *ctx;
	uint32_t *nodes;       /* server devices of the part */
	uint32_t *first;       /* the first of them, or RK_NONE */
	uint8_t *nvfab;	       /* its servers are in an nvlink fabric */
	const char **file;     /* its file under nccl/, NULL when none */
	bool ok, any_gpu;      /* no part failed; a part has a file */
	uint32_t gpuless_part; /* first GPU-less server part, + 1 */
	uint32_t hccl_part;    /* first Intel Gaudi server part, + 1 */
};

/* The server devices of each part, and the first of them; and the parts
 * whose servers are endpoints of an NVLink fabric. */
static void count_servers(struct nccl_run *r)
{
	const struct rk_design *d = r->ctx->d;

	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];

		if (o->kind != K_DEVICE || o->cls != C_SERVER ||
		    o->part == RK_NONE)
			continue;
		if (!r->nodes[o->part]++)
			r->first[o->part] = i;
	}
	for (uint32_t l = 0; l < d->nlinks; l++) {
		const struct rk_link *k = &d->links[l];

		if (k->fabric == RK_NONE ||
		    d->objs[k->fabric].cls != FAB_NVLINK)
			continue;
		if (d->objs[k->a_dev].part != RK_NONE)
			r->nvfab[d->objs[k->a_dev].part] = 1;
		if (d->objs[k->b_dev].part != RK_NONE)
			r->nvfab[d->objs[k->b_dev].part] = 1;
	}
}

/* @p set up for @part: its components and their index by object; *@ngpu
 * its GPUs, *@nintel those of them that are Intel's. */
static void load_part(struct npart *p, struct backend_ctx *ctx, uint32_t part,
		      uint32_t *ngpu, uint32_t *nintel)
{
	const struct rk_design *d = ctx->d;
	uint32_t *comps;

	memset(p, 0, sizeof(*p));
	p->ctx = ctx;
	p->d = d;
	p->part = part;
	p->pname = ir_name(d, part);
	p->ok = true;
	p->n = be_part_comps(d, part, &comps);
	p->c = xcalloc(p->n + 1, sizeof(*p->c));
	*ngpu = *nintel = 0;
	for (uint32_t i = 0; i < p->n; i++) {
		p->c[i].id = comps[i];
		p->c[i].cls = d->objs[comps[i]].cls;
		if (p->c[i].cls == COMP_GPU) {
			const char *v = ir_str(d, comps[i], A_VENDOR);

			(*ngpu)++;
			*nintel += v && streq(v, "Intel");
		}
	}
	free(comps);
	p->byid = xmalloc((p->n + 1) * sizeof(*p->byid));
	for (uint32_t i = 0; i < p->n; i++) {
		p->byid[i].obj = p->c[i].id;
		p->byid[i].idx = i;
	}
	qsort(p->byid, p->n, sizeof(*p->byid), nid_cmp);
}

/* AMD GPUs (an `arch`, no CUDA `sm`): RCCL's flavour. */
static bool part_is_rccl(const struct npart *p)
{
	for (uint32_t i = 0; i < p->n; i++)
		if (p->c[i].cls == COMP_GPU &&
		    (ir_num(p->d, p->c[i].id, A_SM, 0) ||
		     !ir_str(p->d, p->c[i].id, A_ARCH)))
			return false;
	return true;
}

/* The file of server part @part, when NCCL runs on its servers. */
static void nccl_part(struct nccl_run *r, uint32_t part)
{
	struct backend_ctx *ctx = r->ctx;
	const struct rk_design *d = ctx->d;
	struct npart p;
	uint32_t ngpu, nintel;

	load_part(&p, ctx, part, &ngpu, &nintel);
	if (!ngpu || nintel == ngpu) {
		/*
		 * Servers without GPUs (UFM, management nodes) take no
		 * part in NCCL: hosts.csv lists them with no file.
		 * Nor do servers whose accelerators are all Intel's
		 * (Gaudi): HCCL drives them and reads no NCCL topology
		 * file.  Only a design with no NCCL server at all is
		 * reported (no_nccl_host), as NCCL output cannot describe
		 * it.
		 */
		if (ngpu && !r->hccl_part)
			r->hccl_part = part + 1;
		else if (!ngpu && !r->gpuless_part)
			r->gpuless_part = part + 1;
		free(p.c);
		free(p.byid);
		return;
	}
	p.rccl = part_is_rccl(&p);
	r->any_gpu = true;
	p.nvswitched = ir_num(d, part, A_NVSWITCHES, 0) > 0 || r->nvfab[part];
	if (emit_part(&p)) {
		r->file[part] = arena_printf(ctx->arena, "%s.xml",
					     be_file_name(ctx->arena, p.pname));
	} else {
		r->ok = false;
		if (!ctx->failed)
			diag_note(ctx->diag, &d->objs[r->first[part]].loc,
				  r->nodes[part] == 1
				      ? "part '%s' is used by %s"
				      : "part '%s' is used by %s "
					"and %u more node(s)",
				  p.pname, ir_name(d, r->first[part]),
				  r->nodes[part] - 1);
	}
	free(p.c);
	free(p.byid);
	free(p.kid);
}

/* A warning when no server part got a file: its servers' accelerators
 * are Intel's, or it has no GPUs. */
static void no_nccl_host(const struct nccl_run *r)
{
	struct backend_ctx *ctx = r->ctx;
	const struct rk_design *d = ctx->d;

	if (r->any_gpu || ctx->dry)
		return;
	if (r->hccl_part) {
		uint32_t part = r->hccl_part - 1;

		diag_warning(ctx->diag, &d->objs[part].loc, "nccl",
			     "the GPU server parts of the design carry Intel "
			     "accelerators, which HCCL drives without an NCCL "
			     "topology file: NCCL topology output describes no "
			     "host");
		diag_note(ctx->diag, &d->objs[r->first[part]].loc,
			  "part '%s' is used by %s", ir_name(d, part),
			  ir_name(d, r->first[part]));
	} else if (r->gpuless_part) {
		uint32_t part = r->gpuless_part - 1;

		diag_warning(ctx->diag, &d->objs[part].loc, "nccl",
			     "no server part of the design has gpu components: "
			     "NCCL topology output describes no host");
		diag_note(ctx->diag, &d->objs[r->first[part]].loc,
			  "part '%s' is used by %s", ir_name(d, part),
			  ir_name(d, r->first[part]));
	}
}

/* nccl/hosts.csv: each server with a file, by host name. */
static void write_hosts(const struct nccl_run *r, const char *const *host)
{
	const struct rk_design *d = r->ctx->d;
	FILE *fp = out_open(r->ctx, "nccl/hosts.csv");

	if (!fp)
		return;
	fputs("host,file\n", fp);
	for (uint32_t i = 0; i < d->nobjs; i++) {
		const struct rk_obj *o = &d->objs[i];

		/* servers without a file (no GPUs) are left out */
		if (o->kind != K_DEVICE || o->cls != C_SERVER ||
		    o->part == RK_NONE || !r->file[o->part])
			continue;
		fprintf(fp, "%s,%s\n", host[i], r->file[o->part]);
	}
}

static bool emit_nccl(struct backend_ctx *ctx)
{
	const struct rk_design *d = ctx->d;
	size_t n = d->nobjs ? d->nobjs : 1;
	struct nccl_run r = {
		.ctx = ctx,
		.nodes = xcalloc(n, sizeof(*r.nodes)),
		.first = xmalloc(n * sizeof(*r.first)),
		.nvfab = xcalloc(n, 1),
		.file = xcalloc(n, sizeof(*r.file)),
	};
	const char *const *host;

	memset(r.first, 0xff, n * sizeof(*r.first));
	host = be_host_names(ctx, &r.ok);
	count_servers(&r);
	for (uint32_t part = 0; part < d->nobjs; part++) {
		if (!r.nodes[part])
			continue;
		nccl_part(&r, part);
		if (ctx->failed)
			break;
	}
	no_nccl_host(&r);
	if (r.ok && !ctx->failed)
		write_hosts(&r, host);
	free(r.nodes);
	free(r.first);
	free(r.nvfab);
	free(r.file);
	return r.ok && !ctx->failed;
}

/* libxml2 sets up its global tables once, before threads use it. */
static void prepare_nccl(struct backend_ctx *ctx)
{
	(void)ctx;
	xmlInitParser();
}

const struct backend backend_nccl = {
	.name = "nccl",
	.summary = "nccl/<part>.xml: NCCL topology per GPU server part, and "
		   "nccl/hosts.csv",
	.emit = emit_nccl,
	.prepare = prepare_nccl,
	.preflight = emit_nccl, /* dry: nothing is written */
};
