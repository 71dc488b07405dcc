#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Slurm topology back end.  For every tests/deploy/slurm-*.rack and
# tests/deploy/ib-*.rack:
#
#   NAME/slurm   `rackc -O slurm` writes exactly tests/golden/deploy/NAME/
#                slurm/ (and the messages in slurm.stderr), see
#                golden_designs.sh
#   NAME/syntax  every SwitchName/BlockName line is one "Key=value" list
#                with a known key, every name a switch line lists is defined
#                as a switch, no switch has both Nodes and Switches, no node
#                is in two blocks, and topology.yaml loads as YAML (when
#                python3 has the yaml module)
#
# `tests/slurm.sh --regen` (or RACKC_REGEN=1) rewrites the golden files.

. "$(dirname "$0")/lib.sh"

cd "$top_srcdir"
. tests/golden_designs.sh

# syntax DIR: the structural rules above, in python3
syntax() {
	python3 - "$1" <<'PYEOF'
import os, re, sys

d = sys.argv[1]
bad = []


def expand(hl):
    """Expand a Slurm host list (prefix[a-b,c]suffix, comma separated)."""
    out, i, cur = [], 0, ""
    parts, depth = [], 0
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
            out.append(p)
            continue
        for r in m.group(2).split(","):
            a, _, b = r.partition("-")
            w = len(a) if a.startswith("0") and len(a) > 1 else 0
            for v in range(int(a), int(b or a) + 1):
                out.append("%s%0*d%s" % (m.group(1), w, v, m.group(3)))
    return out


def conf(path, first, keys):
    rows = []
    for n, line in enumerate(open(path), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        kv = {}
        for tok in line.split():
            k, eq, v = tok.partition("=")
            if not eq or not v or k not in keys:
                bad.append("%s:%d: bad token %r" % (path, n, tok))
            kv[k] = v
        rows.append((n, kv))
    return rows


p = os.path.join(d, "topology.conf")
if os.path.exists(p):
    rows = conf(p, "SwitchName", {"SwitchName", "Nodes", "Switches"})
    names = [kv.get("SwitchName") for _, kv in rows]
    if len(set(names)) != len(names):
        bad.append("%s: a switch name twice" % p)
    for n, kv in rows:
        if "SwitchName" not in kv or len(kv["SwitchName"]) > 64:
            bad.append("%s:%d: bad SwitchName" % (p, n))
        if ("Nodes" in kv) == ("Switches" in kv):
            bad.append("%s:%d: needs Nodes or Switches, not both" % (p, n))
        for s in expand(kv.get("Switches", "")) if "Switches" in kv else []:
            if s not in names:
                bad.append("%s:%d: unknown switch %s" % (p, n, s))
p = os.path.join(d, "block.conf")
if os.path.exists(p):
    rows = conf(p, "BlockName", {"BlockName", "Nodes", "BlockSizes"})
    seen = {}
    sizes = [kv for _, kv in rows if "BlockSizes" in kv]
    if len(sizes) != 1:
        bad.append("%s: needs one BlockSizes line" % p)
    for n, kv in rows:
        if "BlockSizes" in kv:
            continue
        nodes = expand(kv.get("Nodes", ""))
        if sizes and len(nodes) < int(sizes[0]["BlockSizes"].split(",")[0]):
            bad.append("%s:%d: block smaller than BlockSizes" % (p, n))
        for x in nodes:
            if x in seen:
                bad.append("%s:%d: %s also in block %s" % (p, n, x, seen[x]))
            seen[x] = kv.get("BlockName")
p = os.path.join(d, "topology.yaml")
if os.path.exists(p):
    try:
        import yaml
    except ImportError:
        yaml = None
    if yaml is not None:
        doc = yaml.safe_load(open(p))
        if not isinstance(doc, list) or not all("topology" in t for t in doc):
            bad.append("%s: not a list of topologies" % p)
        elif sum(bool(t.get("cluster_default")) for t in doc) != 1:
            bad.append("%s: needs exactly one cluster_default" % p)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PYEOF
}

for d in tests/deploy/slurm-*.rack tests/deploy/ib-*.rack; do
	if [ ! -f "$d" ]; then
		continue
	fi
	name=${d##*/}
	name=${name%.rack}
	if design_golden "$d" slurm slurm && [ -d "$dg_out/slurm" ]; then
		if ! command -v python3 >/dev/null 2>&1; then
			skip "$name/syntax" "python3 not installed"
		elif syntax "$dg_out/slurm" >"$tmp/syntax.out" 2>&1; then
			pass "$name/syntax"
		else
			fail "$name/syntax"
			show "$tmp/syntax.out"
		fi
	fi
done

finish
