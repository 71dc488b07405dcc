#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check NCCL topology files (NCCL_TOPO_FILE) against the rules NCCL's own
reader and converter impose, as collected in
NCCL's topology XML reader (graph/xml.cc, graph/topo.cc).

    nccl_check.py [--allow-trusted] [--strict] FILE.xml... [--hosts hosts.csv]

Re-reads every file twice: as raw text (NCCL's reader is not a conforming
XML parser: no declaration, no tabs, one tag per line, ...) and with
xml.etree (structure and attribute values).  Prints one line per problem,
FILE: rule: detail, and exits 1 when there is any.

A file whose root says version="2" is RCCL's flavour of the format (RCCL
src/graph/xml.h NCCL_TOPO_XML_VERSION 2): <xgmi> rows in place of <nvlink>
and <c2c>, GPUs named by gcn (gfx942) instead of a CUDA sm, and AMD CPUs
that need familyid/modelid too (RCCL graph/topo.cc ncclTopoAddCpu).

The <cpu> rules are those of a strict load (no live host to fill from):
arch always, vendor on x86_64, familyid and modelid for Intel (and for AMD
under RCCL); NCCL's converter fails with "Attribute arch of node cpu not
found" otherwise.  familyid and modelid are in NCCL's encoding of CPUID
leaf 1 (graph/xml.cc ncclTopoGetXmlFromCpu): family = base family +
(extended family << 4), model = base model + (extended model << 4).  The
extended family is non-zero only on base family 0Fh (AMD), so a familyid
is 0..15 or 15 + 16k: AMD's family 19h (Zen 3/Zen 4) is 175, which RCCL
classifies as ROME (graph/topo.cc ncclTopoAddCpu: familyId == 175, or 143
from model 49 on); the manuals' "display family" 25 would read as ZEN.

The rules about what a file may leave to detection (NCCL 2.30,
graph/xml.cc and graph/topo.cc):
  - a <pci> has both link_speed and link_width or neither: the converter
    reads both (topo.cc ncclTopoAddPci) and only detection on the host
    fills an absent one (xml.cc ncclTopoGetXmlFromSys, each attribute only
    when absent);
  - a <pci> holding a <nic>, and every <pci> above it, has both: NCCL
    takes a <net> it finds by name as it is and never fills its <pci>
    (xml.cc ncclTopoFillNet returns at once), so the file fails on the
    host too ("Attribute link_width of node pci not found");
  - a virtual bridge (bus id ffff:..., no such device in sysfs) has both,
    as detection has nothing to read for it;
  - no value that NCCL believes over detection and that only the host
    knows: gdr on <gpu> (xml.cc ncclTopoGetXmlFromGpu sets it only when
    absent, so a file's gdr="1" claims GPUDirect RDMA on any host), and
    on <net> gdr, guid, maxconn, latency and coll (topo.cc
    ncclTopoPopulateNics fills each only when absent).  --allow-trusted
    lifts this rule for files written from a real host (dumps).

Nested <pci> elements (a PCIe switch's levels): NCCL reads the sub-<pci>
elements only of a <pci> that is neither a GPU nor a NIC and whose class
reads as a bridge (graph/topo.cc ncclTopoAddPci, kvDictPciClass matched by
prefix), so a <pci> holding <pci> elements has a busid and class 0x0604..,
and none holding a <gpu> or <nic> (its other children would be dropped).

--strict checks the file as NCCL's converter reads it with no host to fill
it from (what the catalog knows must be in the file): every <pci> that
becomes a node (a bridge, a GPU's, a NIC's) has busid, class, link_speed
and link_width (graph/topo.cc ncclTopoAddPci reads both link attributes
with xmlGetAttrInt/xmlGetAttrStr, which fail with "Attribute link_width of
node pci not found"), and no NIC is a bare <pci> anchor without <nic>
(NCCL drops it, so the file names no network device).
--strict-but-gpus is --strict but for the link figures of a GPU's own
<pci>, for catalogs that mark a GPU's host link unknown (B200, GB200):
NCCL's detection fills those on the host.
"""

import csv
import os
import re
import sys
import xml.etree.ElementTree as ET

MAX_ELEMENTS = 256  # NCCL_TOPO_XML_MAX_NODES
MAX_ATTRS = 16  # MAX_ATTR_COUNT
MAX_CHILDREN = 640  # MAX_SUBS
MAX_VALUE = 253  # MAX_STR_LEN - 2

# element -> allowed children (graph/xml.cc ncclTopoXmlLoad*)
GRAMMAR = {
    "system": {"cpu"},
    "cpu": {"pci", "nic"},
    "pci": {"pci", "gpu", "nic", "pcilink"},
    "gpu": {"nvlink", "c2c"},
    "xgmi": set(),
    "nic": {"net"},
    "net": set(),
    "nvlink": set(),
    "c2c": set(),
    "pcilink": set(),
}
LINK_SPEEDS = {
    "2.5 GT/s", "5 GT/s", "8 GT/s", "16 GT/s", "32 GT/s",
    "2.5 GT/s PCIe", "5.0 GT/s PCIe", "8.0 GT/s PCIe", "16.0 GT/s PCIe",
    "32.0 GT/s PCIe", "64.0 GT/s PCIe",
}
ARCHES = {"x86_64", "arm64", "ppc64"}
VENDORS = {"GenuineIntel", "AuthenticAMD", "CentaurHauls", "  Shanghai  "}
BUSID = re.compile(r"^[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$")
CLASS = re.compile(r"^0x[0-9a-f]{6}$")
# decimal without leading zeros: a leading 0 makes strtol read octal
INT = re.compile(r"^(0|-?[1-9][0-9]*)$")
GUID = re.compile(r"^0x[0-9a-f]{1,16}$")
CPUMAP = re.compile(r"^[0-9a-f]{8}(,[0-9a-f]{8})*$")

problems = []
ALLOW_TRUSTED = False
STRICT = False
STRICT_GPUS = True


def bad(path, rule, detail):
    problems.append("%s: %s: %s" % (path, rule, detail))


def check_text(path, text):
    if text.startswith("\ufeff"):
        bad(path, "no-bom", "file starts with a byte-order mark")
    if "<?xml" in text:
        bad(path, "no-declaration", "NCCL rejects <?xml ...?>")
    if "<!DOCTYPE" in text:
        bad(path, "no-doctype", "NCCL rejects <!DOCTYPE>")
    if "\t" in text:
        bad(path, "no-tabs", "NCCL's reader skips only spaces and newlines")
    body = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    for m in re.finditer(r"<[^>]*>", body):
        tag = m.group(0)
        bare = re.sub(r'"[^"]*"', '""', tag)
        if "\n" in tag or "\r" in tag:
            bad(path, "one-line-tags", "tag spans lines: %r" % tag[:60])
        if re.search(r"\s/?>$", bare):
            bad(path, "no-space-before-close", repr(tag[:60]))
        if tag.startswith("</") and re.search(r"\s", tag):
            bad(path, "closing-tag", repr(tag))
        if re.search(r"=\s*'", bare) or re.search(r"=[^\"' ]", bare):
            bad(path, "double-quotes", "values must be in double quotes: %r"
                % tag[:60])
        if "  " in bare:
            bad(path, "single-spaces", repr(tag[:60]))
        for v in re.findall(r'"([^"]*)"', tag):
            if len(v) > MAX_VALUE:
                bad(path, "value-length", "%d characters" % len(v))
            if "&" in v:
                bad(path, "no-entities", "NCCL does not decode %r" % v)
    rest = re.sub(r"<[^>]*>", "", body)
    if rest.strip():
        bad(path, "no-text", "text outside tags: %r" % rest.strip()[:40])


def is_int(v):
    return v is not None and INT.match(v) is not None


def check_tree(path, root):
    if root.tag != "system":
        bad(path, "root", "root is <%s>, NCCL ignores the file" % root.tag)
        return
    rccl = root.get("version") == "2"
    if root.get("version") not in ("1", "2"):
        bad(path, "version", 'root needs version="1" (NCCL) or "2" (RCCL), '
            'has %r' % root.get("version"))
    gpu_links = {"xgmi"} if rccl else {"nvlink", "c2c"}
    elements = list(root.iter())
    if len(elements) > MAX_ELEMENTS:
        bad(path, "element-count", "%d elements, NCCL reads %d"
            % (len(elements), MAX_ELEMENTS))
    for el in elements:
        if len(el.attrib) > MAX_ATTRS:
            bad(path, "attribute-count", "<%s> has %d attributes"
                % (el.tag, len(el.attrib)))
        if len(el) > MAX_CHILDREN:
            bad(path, "children", "<%s> has %d children" % (el.tag, len(el)))
        if el.tag not in GRAMMAR:
            bad(path, "grammar", "unknown element <%s>" % el.tag)
            continue
        allowed = gpu_links if el.tag == "gpu" else GRAMMAR[el.tag]
        for child in el:
            if child.tag not in allowed:
                bad(path, "grammar", "<%s> inside <%s>" % (child.tag, el.tag))
        if (el.text or "").strip() or (el.tail or "").strip():
            bad(path, "no-text", "text in or after <%s>" % el.tag)

    numaids = set()
    for cpu in root.iter("cpu"):
        n = cpu.get("numaid")
        if not is_int(n):
            bad(path, "cpu-numaid", "numaid %r is not a decimal integer" % n)
        elif n in numaids:
            bad(path, "cpu-numaid", "numaid %s twice" % n)
        numaids.add(n)
        arch = cpu.get("arch")
        if arch is None:
            bad(path, "cpu-arch", "numaid %s: no arch (a strict load fails: "
                "Attribute arch of node cpu not found)" % n)
        elif arch not in ARCHES:
            bad(path, "cpu-arch", "arch %r" % arch)
        if arch == "x86_64" and cpu.get("vendor") is None:
            bad(path, "cpu-vendor", "numaid %s: x86_64 without vendor" % n)
        if (cpu.get("vendor") == "GenuineIntel" or
                (rccl and cpu.get("vendor") == "AuthenticAMD")):
            for a in ("familyid", "modelid"):
                if cpu.get(a) is None:
                    bad(path, "cpu-" + a, "numaid %s: %s CPU without %s"
                        % (n, cpu.get("vendor"), a))
        vendor = cpu.get("vendor")
        if vendor is not None and vendor not in VENDORS:
            bad(path, "cpu-vendor", "vendor %r (NCCL then assumes 5000 GB/s "
                "between sockets)" % vendor)
        if vendor is not None and arch != "x86_64":
            bad(path, "cpu-vendor", "vendor without arch x86_64")
        for a in ("familyid", "modelid"):
            if cpu.get(a) is not None and not is_int(cpu.get(a)):
                bad(path, "cpu-" + a, "%s %r" % (a, cpu.get(a)))
        fam, mod = cpu.get("familyid"), cpu.get("modelid")
        # base family (4 bits) + extended family (8 bits) << 4, the latter
        # only on base family 0Fh
        if is_int(fam) and not (0 <= int(fam) <= 15 or
                                (int(fam) - 15) % 16 == 0 and
                                15 <= int(fam) <= 15 + (255 << 4)):
            bad(path, "cpu-familyid", "numaid %s: familyid %s is not in "
                "NCCL's encoding base + (extended << 4) (AMD family 19h "
                "is 175)" % (n, fam))
        if is_int(mod) and not 0 <= int(mod) <= 255:
            bad(path, "cpu-modelid", "numaid %s: modelid %s is not base + "
                "(extended << 4), 0..255" % (n, mod))
        aff = cpu.get("affinity")
        if aff is not None and not CPUMAP.match(aff):
            bad(path, "cpu-affinity", "affinity %r is not a cpumap" % aff)

    busids = set()
    for pci in root.iter("pci"):
        b, c = pci.get("busid"), pci.get("class")
        if b is None:
            bad(path, "pci-busid", "<pci> without busid")
        elif not BUSID.match(b):
            bad(path, "pci-busid", "busid %r is not lowercase dddd:bb:dd.f"
                % b)
        elif b in busids:
            bad(path, "pci-busid", "busid %s twice" % b)
        busids.add(b)
        if c is None or not CLASS.match(c):
            bad(path, "pci-class", "%s: class %r is not 0x + 6 lowercase hex "
                "digits" % (b, c))
            continue
        ls, lw = pci.get("link_speed"), pci.get("link_width")
        if ls is not None and ls not in LINK_SPEEDS:
            bad(path, "pci-link-speed", "%s: link_speed %r is not in NCCL's "
                "table (it would read as Gen3)" % (b, ls))
        if (ls is None) != (lw is None):
            bad(path, "pci-link-pair", "%s: link_speed and link_width go "
                "together (NCCL's converter needs both; only detection "
                "fills the other)" % b)
        if (c == "0x060400" and b.startswith("ffff:") and
                (ls is None or lw is None)):
            bad(path, "pci-link-speed", "%s: virtual bridge without "
                "link_speed and link_width (no sysfs entry to fill them)"
                % b)
        if lw is not None and lw not in ("1", "2", "4", "8", "16", "32"):
            bad(path, "pci-link-width", "%s: link_width %r" % (b, lw))
        kids = {k.tag for k in pci}
        if "pci" in kids and not c.startswith("0x0604"):
            bad(path, "pci-nested", "%s holds <pci> elements but has class "
                "%s: NCCL reads sub-<pci> elements of a bridge (0x0604..) "
                "only" % (b, c))
        if "pci" in kids and kids & {"gpu", "nic"}:
            bad(path, "pci-nested", "%s holds <pci> elements beside a <gpu> "
                "or <nic>, which NCCL never reads" % b)
        if STRICT and (STRICT_GPUS or "gpu" not in kids):
            for a in ("link_speed", "link_width"):
                if pci.get(a) is None:
                    bad(path, "strict-link", "%s: no %s (with no host to "
                        "fill it: Attribute %s of node pci not found)"
                        % (b, a, a))
            if c.startswith("0x02") and "nic" not in kids:
                bad(path, "strict-anchor", "%s: a NIC without <nic> is "
                    "dropped: the file names no network device there" % b)
        # RCCL's MI300X model files put GPUs in class 0x120000
        if "gpu" in kids and not (c.startswith("0x03") or
                                  (rccl and c.startswith("0x12"))):
            bad(path, "pci-class", "%s holds a <gpu> but has class %s"
                % (b, c))
        if "nic" in kids and not c.startswith("0x02"):
            bad(path, "pci-class", "%s holds a <nic> but has class %s"
                % (b, c))

    devs, ranks = set(), set()
    gpu_bus = {pci.get("busid") for pci in root.iter("pci")
               if pci.find("gpu") is not None}
    gpu_of = {id(g): pci.get("busid") for pci in root.iter("pci")
              for g in pci.findall("gpu")}
    links = set()
    for gpu in root.iter("gpu"):
        for a in ("dev", "rank") if rccl else ("dev", "sm", "rank"):
            if not is_int(gpu.get(a)):
                bad(path, "gpu-" + a, "<gpu> %s is %r" % (a, gpu.get(a)))
        if rccl and not re.match(r"^gfx[0-9a-f]+$", gpu.get("gcn") or ""):
            bad(path, "gpu-gcn", "<gpu> gcn %r" % gpu.get("gcn"))
        for c2c in gpu.iter("c2c"):
            for a in ("bw", "count"):
                if not is_int(c2c.get(a)) or int(c2c.get(a)) < 1:
                    bad(path, "c2c-" + a, "%s %r" % (a, c2c.get(a)))
        targets = []
        for x in gpu.iter("xgmi"):
            t = x.get("target")
            if not is_int(x.get("count")) or int(x.get("count")) < 1:
                bad(path, "xgmi-count", "count %r" % x.get("count"))
            if t not in gpu_bus:
                bad(path, "xgmi-target", "target %r is no GPU of the file"
                    % t)
            targets.append(t)
        if len(set(targets)) != len(targets):
            bad(path, "xgmi-target", "a peer twice: %r" % targets)
        links.update((gpu_of[id(gpu)], t) for t in targets)
        if gpu.get("gdr") is not None and gpu.get("gdr") not in ("0", "1"):
            bad(path, "gpu-gdr", "gdr %r" % gpu.get("gdr"))
        if gpu.get("gdr") is not None and not ALLOW_TRUSTED:
            bad(path, "trusted-gdr", "<gpu> dev %s: gdr=%s is believed over "
                "detection on any host" % (gpu.get("dev"), gpu.get("gdr")))
        if gpu.get("dev") in devs:
            bad(path, "gpu-dev", "dev %s twice" % gpu.get("dev"))
        if gpu.get("rank") in ranks:
            bad(path, "gpu-rank", "rank %s twice" % gpu.get("rank"))
        devs.add(gpu.get("dev"))
        ranks.add(gpu.get("rank"))
        for nv in gpu.iter("nvlink"):
            t, tc = nv.get("target"), nv.get("tclass")
            if not is_int(nv.get("count")) or int(nv.get("count")) < 1:
                bad(path, "nvlink-count", "count %r" % nv.get("count"))
            if tc is None or not CLASS.match(tc):
                bad(path, "nvlink-tclass", "tclass %r" % tc)
            elif tc.startswith("0x03") and (t is None or t not in busids
                                             and not BUSID.match(t)):
                bad(path, "nvlink-target", "GPU target %r" % t)
            if t is not None and t != t.lower():
                bad(path, "nvlink-target", "target %r is not lowercase" % t)

    for a, b in sorted(links):
        if (b, a) not in links:
            bad(path, "xgmi-mirror", "%s -> %s has no row back: RCCL fails "
                "with \"Failed to find reverse path\"" % (a, b))

    # a <net> found by name is never filled: its <pci> and every <pci>
    # above it carry both link figures
    parent = {ch: el for el in root.iter() for ch in el}
    for pci in root.iter("pci"):
        if pci.find("nic") is None:
            continue
        el = pci
        while el is not None and el.tag == "pci":
            if el.get("link_speed") is None or el.get("link_width") is None:
                bad(path, "nic-link", "%s: <pci> %s above a named <net> has "
                    "no link_speed/link_width, which NCCL never fills for "
                    "a NIC the file names" % (pci.get("busid"),
                                              el.get("busid")))
            el = parent.get(el)
        for net in pci.iter("net"):
            for a in ("gdr", "guid", "maxconn", "latency", "coll"):
                if net.get(a) is not None and not ALLOW_TRUSTED:
                    bad(path, "trusted-" + a, "%s: <net %s> %s=%s is "
                        "believed over the network plugin" % (
                            pci.get("busid"), net.get("name"), a,
                            net.get(a)))

    netdevs, ports, names = set(), set(), set()
    guid_owner = {}
    for pci in root.iter("pci"):
        for nic in pci.findall("nic"):
            for net in nic.findall("net"):
                name, dev = net.get("name"), net.get("dev")
                if not name:
                    bad(path, "net-name", "<net> without name")
                if not is_int(dev):
                    bad(path, "net-dev", "dev %r" % dev)
                elif dev in netdevs:
                    bad(path, "net-dev", "dev %s twice" % dev)
                netdevs.add(dev)
                sp = net.get("speed")
                if sp is not None and (not is_int(sp) or
                                       not 1000 <= int(sp) <= 10000000):
                    bad(path, "net-speed", "speed %r is not in Mb/s" % sp)
                port = net.get("port")
                if port is not None and (not is_int(port) or int(port) < 1):
                    bad(path, "net-port", "port %r" % port)
                g = net.get("guid")
                if g is not None and not GUID.match(g):
                    bad(path, "net-guid", "guid %r needs a 0x prefix and "
                        "lowercase hex" % g)
                if g is not None:
                    key = (int(g, 16), port)
                    if key in ports:
                        bad(path, "net-guid", "guid %s port %s twice: NCCL "
                            "would share one port's bandwidth" % (g, port))
                    ports.add(key)
                    owner = guid_owner.setdefault(int(g, 16), pci.get("busid"))
                    if owner != pci.get("busid"):
                        bad(path, "net-guid", "NICs %s and %s share guid %s"
                            % (owner, pci.get("busid"), g))
                if (name, port) in names:
                    bad(path, "net-name", "%s port %s twice" % (name, port))
                names.add((name, port))
                for a in ("maxconn",):
                    if net.get(a) is not None and not is_int(net.get(a)):
                        bad(path, "net-" + a, "%s %r" % (a, net.get(a)))
                for a in ("gdr", "coll"):
                    if net.get(a) is not None and net.get(a) not in ("0", "1"):
                        bad(path, "net-" + a, "%s %r" % (a, net.get(a)))
                lat = net.get("latency")
                if lat is not None and not re.match(r"^[0-9]+(\.[0-9]+)?$",
                                                    lat):
                    bad(path, "net-latency", "latency %r" % lat)


def check_hosts(path):
    here = os.path.dirname(path)
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows or rows[0] != ["host", "file"]:
        bad(path, "hosts-header", "first row must be host,file")
        return
    seen = set()
    for row in rows[1:]:
        if len(row) != 2:
            bad(path, "hosts-row", repr(row))
            continue
        host, fname = row
        if not re.match(r"^[A-Za-z0-9._-]+$", host):
            bad(path, "hosts-name", "host %r" % host)
        if host in seen:
            bad(path, "hosts-name", "host %s twice" % host)
        seen.add(host)
        if not fname:
            bad(path, "hosts-file", "%s: empty file name" % host)
        elif not os.path.isfile(os.path.join(here, fname)):
            bad(path, "hosts-file", "%s: no file %s" % (host, fname))


def main(argv):
    global ALLOW_TRUSTED, STRICT, STRICT_GPUS
    files, hosts = [], []
    it = iter(argv)
    for a in it:
        if a == "--hosts":
            hosts.append(next(it))
        elif a == "--allow-trusted":
            ALLOW_TRUSTED = True
        elif a == "--strict":
            STRICT = True
        elif a == "--strict-but-gpus":
            STRICT, STRICT_GPUS = True, False
        else:
            files.append(a)
    for path in files:
        with open(path, "rb") as f:
            raw = f.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            bad(path, "utf-8", str(e))
            continue
        check_text(path, text)
        try:
            root = ET.fromstring(text)
        except ET.ParseError as e:
            bad(path, "well-formed", str(e))
            continue
        check_tree(path, root)
    for path in hosts:
        check_hosts(path)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
