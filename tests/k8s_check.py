#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check `rackc -O k8s,slurm` output in OUT against the consumers' rules.

usage: k8s_check.py OUT CRDDIR

- every YAML file loads; k8s/kueue-topology.yaml validates against Kueue's
  Topology CRD (version v1beta2) and k8s/volcano-hypernodes.yaml against
  Volcano's HyperNode CRD (v1alpha1), both from CRDDIR (the openAPIV3Schema
  subset these CRDs use, unknown fields rejected as a strict server does,
  and their x-kubernetes-validations rules, each known rule by its text);
- node names are RFC 1123 subdomains, label keys qualified names, label
  values valid label values (63 characters at most);
- every Kueue level is a label of every node (Kueue leaves out nodes that
  lack one), kubernetes.io/hostname last;
- HyperNode members name existing Nodes or HyperNodes, each of a lower
  tier, and each HyperNode has at most one parent;
- label-nodes.sh sets exactly the labels of node-labels.yaml;
- the labels say what slurm/topology.conf and slurm/block.conf say: a
  node's tier-0 value is the Slurm switch whose Nodes list it, tier N+1
  the Slurm switch whose Switches list its tier-N switch, its accelerator
  domain the block that lists it; and the leaf HyperNodes hold the same
  nodes as those switches.
Prints one line per problem; exits 1 if there is any.
"""
import os
import re
import sys

import yaml

out, crddir = sys.argv[1], sys.argv[2]
bad = []

SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
LABEL_VALUE = re.compile(r"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$")
NAME_PART = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
TIER = "fabric.topograph.run/tier-"
DOMAIN = "accelerator.topograph.run/domain"
HOST = "kubernetes.io/hostname"


def label_key_ok(k):
    prefix, _, name = k.rpartition("/")
    if prefix and (len(prefix) > 253 or not SUBDOMAIN.match(prefix)):
        return False
    return len(name) <= 63 and bool(NAME_PART.match(name))


def topograph_value(name):
    """topograph's checkLabel: as is up to 63 characters, else x + FNV-1a 64."""
    if len(name) <= 63:
        return name
    h = 0xCBF29CE484222325
    for b in name.encode():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return "x%x" % h


# ---- the openAPIV3Schema subset of the two CRDs ----

# the CEL rules of the CRDs, by their text, as Python on the value
CEL = {
    "self == oldSelf": None,  # on update only
    "self == oldSelf || (self[size(self) - 1].nodeLabel == 'kubernetes.io/hostname'"
    " && oldSelf[size(oldSelf) - 1].nodeLabel == 'kubernetes.io/hostname')": None,
    "size(self.filter(i, size(self.filter(j, j == i)) > 1)) == 0":
        lambda v: all(v.count(i) == 1 for i in v),
    "size(self.filter(i, i.nodeLabel == 'kubernetes.io/hostname')) == 0 || "
    "self[size(self) - 1].nodeLabel == 'kubernetes.io/hostname'":
        lambda v: not any(i["nodeLabel"] == HOST for i in v)
        or v[-1]["nodeLabel"] == HOST,
    "has(self.exactMatch) || has(self.regexMatch) || has(self.labelMatch)":
        lambda v: any(k in v for k in ("exactMatch", "regexMatch", "labelMatch")),
    "(has(self.exactMatch) ? 1 : 0) + (has(self.regexMatch) ? 1 : 0) + "
    "(has(self.labelMatch) ? 1 : 0) <= 1":
        lambda v: sum(k in v for k in ("exactMatch", "regexMatch", "labelMatch")) <= 1,
}


def validate(v, s, path, errs):
    t = s.get("type")
    types = {"object": dict, "array": list, "string": str, "boolean": bool}
    if t == "integer":
        if not isinstance(v, int) or isinstance(v, bool):
            errs.append("%s: not an integer" % path)
            return
    elif t in types and not isinstance(v, types[t]):
        errs.append("%s: not of type %s" % (path, t))
        return
    known = {"type", "description", "properties", "required", "items",
             "minItems", "maxItems", "enum", "pattern", "minLength",
             "maxLength", "minimum", "additionalProperties", "format",
             "x-kubernetes-validations", "x-kubernetes-list-type",
             "x-kubernetes-map-type"}
    for k in s:
        if k not in known:
            errs.append("%s: schema keyword %s not supported" % (path, k))
    if "enum" in s and v not in s["enum"]:
        errs.append("%s: %r not in %r" % (path, v, s["enum"]))
    if isinstance(v, str):
        if "pattern" in s and not re.search(s["pattern"], v):
            errs.append("%s: %r does not match %s" % (path, v, s["pattern"]))
        if len(v) < s.get("minLength", 0) or len(v) > s.get("maxLength", 1 << 30):
            errs.append("%s: length %d out of bounds" % (path, len(v)))
    if isinstance(v, int) and "minimum" in s and v < s["minimum"]:
        errs.append("%s: %d below %d" % (path, v, s["minimum"]))
    if isinstance(v, list):
        if len(v) < s.get("minItems", 0) or len(v) > s.get("maxItems", 1 << 30):
            errs.append("%s: %d items out of bounds" % (path, len(v)))
        for i, x in enumerate(v):
            validate(x, s.get("items", {}), "%s[%d]" % (path, i), errs)
    if isinstance(v, dict) and t == "object":
        props = s.get("properties")
        for r in s.get("required", []):
            if r not in v:
                errs.append("%s: %s is required" % (path, r))
        for k, x in v.items():
            if props is not None and k in props:
                validate(x, props[k], path + "." + k, errs)
            elif isinstance(s.get("additionalProperties"), dict):
                validate(x, s["additionalProperties"], path + "." + k, errs)
            elif props is not None and not (path.endswith(".metadata")):
                errs.append("%s: unknown field %s" % (path, k))
    for rule in s.get("x-kubernetes-validations", []):
        r = " ".join(rule["rule"].split())
        if r not in CEL:
            errs.append("%s: CEL rule not known to this checker: %s" % (path, r))
        elif CEL[r] is not None and not CEL[r](v):
            errs.append("%s: %s" % (path, rule["message"]))


def crd_schema(fname, version):
    crd = yaml.safe_load(open(os.path.join(crddir, fname)))
    for ver in crd["spec"]["versions"]:
        if ver["name"] == version:
            if not ver.get("served"):
                bad.append("%s: %s not served" % (fname, version))
            return crd["spec"]["group"], crd["spec"]["names"]["kind"], \
                ver["schema"]["openAPIV3Schema"]
    bad.append("%s: no version %s" % (fname, version))
    return None, None, {}


def check_objects(docs, fname, version, what):
    group, kind, schema = crd_schema(fname, version)
    for i, doc in enumerate(docs):
        path = "%s[%d]" % (what, i)
        if doc.get("apiVersion") != "%s/%s" % (group, version) or doc.get("kind") != kind:
            bad.append("%s: apiVersion/kind %s %s" % (path, doc.get("apiVersion"), doc.get("kind")))
        name = doc.get("metadata", {}).get("name", "")
        if not SUBDOMAIN.match(name) or len(name) > 253:
            bad.append("%s: bad metadata.name %r" % (path, name))
        errs = []
        validate(doc, schema, path, errs)
        bad.extend(errs)


def load_all(rel):
    return [d for d in yaml.safe_load_all(open(os.path.join(out, rel))) if d is not None]


# ---- node labels ----
nodes = {}
for i, doc in enumerate(load_all("k8s/node-labels.yaml")):
    md = doc.get("metadata", {})
    name = md.get("name", "")
    if doc.get("apiVersion") != "v1" or doc.get("kind") != "Node":
        bad.append("node-labels[%d]: not a v1 Node" % i)
    if set(doc) != {"apiVersion", "kind", "metadata"} or set(md) != {"name", "labels"}:
        bad.append("node-labels[%d]: fields besides name and labels" % i)
    if not SUBDOMAIN.match(name) or len(name) > 253:
        bad.append("node-labels[%d]: bad node name %r" % (i, name))
    if name in nodes:
        bad.append("node %s twice" % name)
    labels = md.get("labels", {})
    for k, v in labels.items():
        if not label_key_ok(k):
            bad.append("%s: bad label key %r" % (name, k))
        if not isinstance(v, str) or not LABEL_VALUE.match(v) or len(v) > 63:
            bad.append("%s: bad label value %r" % (name, v))
    tiers = sorted(int(k[len(TIER):]) for k in labels if k.startswith(TIER))
    if tiers != list(range(len(tiers))):
        bad.append("%s: fabric tiers %s not 0..N" % (name, tiers))
    nodes[name] = dict(labels)

# ---- the script sets the same labels ----
script = open(os.path.join(out, "k8s/label-nodes.sh")).read().replace("\\\n", " ")
seen = {}
for line in script.splitlines():
    if not line.startswith("$kubectl"):
        continue
    w = line.split()
    if w[1:4] != ["label", "--overwrite", "node"]:
        bad.append("script: %s" % line)
        continue
    seen[w[4]] = dict(x.split("=", 1) for x in w[5:])
if seen != nodes:
    bad.append("label-nodes.sh and node-labels.yaml differ")

# ---- Kueue ----
kq = load_all("k8s/kueue-topology.yaml")
if len(kq) != 1:
    bad.append("kueue-topology.yaml: %d objects" % len(kq))
check_objects(kq, "kueue.x-k8s.io_topologies.yaml", "v1beta2", "kueue")
levels = [lv["nodeLabel"] for lv in kq[0]["spec"]["levels"]] if kq else []
for n, labels in nodes.items():
    for lv in levels:
        if lv != HOST and lv not in labels:
            bad.append("kueue: node %s has no label %s" % (n, lv))
tier_levels = [int(lv[len(TIER):]) for lv in levels if lv.startswith(TIER)]
if tier_levels != sorted(tier_levels, reverse=True):
    bad.append("kueue: tiers not from the coarsest down: %s" % tier_levels)

# ---- Volcano ----
hn = load_all("k8s/volcano-hypernodes.yaml")
check_objects(hn, "topology.volcano.sh_hypernodes.yaml", "v1alpha1", "volcano")
tier_of = {h["metadata"]["name"]: h["spec"]["tier"] for h in hn}
parents = {}
leaf_nodes = {}
for h in hn:
    name = h["metadata"]["name"]
    for m in h["spec"]["members"]:
        target = m["selector"]["exactMatch"]["name"]
        if m["type"] == "Node":
            if target not in nodes:
                bad.append("hypernode %s: unknown node %s" % (name, target))
            leaf_nodes.setdefault(name, set()).add(target)
        elif target not in tier_of:
            bad.append("hypernode %s: unknown hypernode %s" % (name, target))
        elif tier_of[target] >= tier_of[name]:
            bad.append("hypernode %s: member %s not of a lower tier" % (name, target))
        if target in parents and parents[target] != name:
            bad.append("%s in hypernodes %s and %s" % (target, parents[target], name))
        parents[target] = name


# ---- against Slurm ----
def expand(hl):
    out_, parts, cur, depth = [], [], "", 0
    for ch in hl:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "["
        depth -= ch == "]"
        cur += ch
    parts.append(cur)
    for p in parts:
        m = re.match(r"^([^\[]*)\[([^\]]*)\](.*)$", p)
        if not m:
            out_.append(p)
            continue
        for r in m.group(2).split(","):
            a, _, b = r.partition("-")
            w = len(a) if a.startswith("0") and len(a) > 1 else 0
            for v in range(int(a), int(b or a) + 1):
                out_.append("%s%0*d%s" % (m.group(1), w, v, m.group(3)))
    return out_


def conf(rel):
    p = os.path.join(out, rel)
    rows = []
    if os.path.exists(p):
        for line in open(p):
            line = line.split("#", 1)[0].split()
            if line:
                rows.append(dict(t.split("=", 1) for t in line))
    return rows


expect = {}  # node -> labels the Slurm files imply
below = {}   # switch -> nodes under it
tier = {}
for row in conf("slurm/topology.conf"):
    sw = row["SwitchName"]
    if "Nodes" in row:
        below[sw] = [x.lower() for x in expand(row["Nodes"])]
        tier[sw] = 0
    else:
        kids = expand(row["Switches"])
        below[sw] = [n for k in kids for n in below[k]]
        tier[sw] = 1 + max(tier[k] for k in kids)
    for n in below[sw]:
        key = TIER + str(tier[sw])
        if expect.setdefault(n, {}).setdefault(key, topograph_value(sw)) != topograph_value(sw):
            bad.append("slurm: %s under two tier switches at %s" % (n, key))
for row in conf("slurm/block.conf"):
    if "BlockName" in row:
        for n in expand(row["Nodes"]):
            expect.setdefault(n.lower(), {})[DOMAIN] = topograph_value(row["BlockName"])
if expect != nodes:
    for n in sorted(set(expect) | set(nodes)):
        if expect.get(n) != nodes.get(n):
            bad.append("node %s: labels %s, Slurm says %s" % (n, nodes.get(n), expect.get(n)))
            break


def nodes_of(h):
    """The nodes under HyperNode h."""
    got, stack = set(), [h]
    while stack:
        x = stack.pop()
        got |= leaf_nodes.get(x, set())
        stack.extend(m for m, p in parents.items() if p == x and m in tier_of)
    return got


leaf_hn = [h["metadata"]["name"] for h in hn if h["spec"]["tierName"] == "leaf"]
for sw, t in tier.items():
    if t == 0 and below[sw]:
        mine = [h for h in leaf_hn if below[sw][0] in nodes_of(h)]
        if len(mine) != 1 or nodes_of(mine[0]) != set(below[sw]):
            bad.append("leaf hypernode of Slurm switch %s: nodes differ" % sw)

for b in bad:
    print(b)
sys.exit(1 if bad else 0)
