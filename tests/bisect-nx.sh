#!/bin/sh
# SPDX-License-Identifier: MIT
# A second opinion on rackc's bisection from networkx (python3-networkx),
# at both levels of doc/language.md §9.11: random hand-wired fabrics
# (switch meshes with missing links, rings, paths, servers on one or two
# switches, mixed rates; from seed 13 on also a switch whose port is listed
# as an endpoint, one vertex that is both a terminal and a transit switch)
# are written as designs, compiled with --explain, and the graph is rebuilt
# in Python from the same random draw.  The endpoint level's terminals are
# the servers' ports (no component claims them, so each is a terminal of
# its own) and the switch; the node level's the servers and the switch.
# At each level (tests/bisect_check.py) the witness must be balanced, name
# every terminal once and cut, by networkx's max-flow, rackc's upper bound,
# and the least cut over every balanced split (the true bisection, by brute
# force over the switches' sides or the terminals' splits) must lie between
# rackc's bounds, equal to both when rackc says exact.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1 ||
	! python3 -c 'import networkx' 2>/dev/null; then
	skip bisect-nx "python3-networkx not installed"
	finish
fi
PYTHONPATH="$top_srcdir/tests${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

# explain NAME PREFIX RACK: RACK compiled with --explain into PREFIX.out;
# a problem or a non-zero exit fails NAME and returns 1
explain() {
	if ! rk_run "$2" --check --explain -Wno-fabric-endpoints \
		-Wno-port-speed "$3"; then
		fail "$1" "$rk_problem"
		show "$2.err"
		return 1
	fi
	if [ "$rc" -ne 0 ]; then
		fail "$1" "exit $rc"
		show "$2.err"
		return 1
	fi
}

for seed in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18; do
	name=bisect-nx/seed-$seed
	python3 - "$seed" "$tmp/f$seed.rack" "$tmp/f$seed.json" <<'EOF'
import json, random, sys
seed, rack, js = int(sys.argv[1]), sys.argv[2], sys.argv[3]
r = random.Random(seed)
rates = [100, 200, 400, 800]
nsw = r.randint(1, 6)
nsrv = r.randint(2, 12)
# from seed 13 on, a switch's port listed as an endpoint; its links to
# servers join terminals, and the brute force then splits the terminals
swep = seed >= 13
if swep:
    nsrv = r.randint(2, 6)
edges = []                      # (a, b, Gb/s); servers "s[i]", switches "x[k]"
ports = {}                      # device -> next port
def port(dev):
    ports[dev] = ports.get(dev, 0) + 1
    return ports[dev] - 1
lines = []
shape = r.choice(["mesh", "ring", "path"])
for k in range(nsw):
    for j in range(k + 1, nsw):
        if shape == "ring" and j != k + 1 and not (k == 0 and j == nsw - 1):
            continue
        if shape == "path" and j != k + 1:
            continue
        for _ in range(r.randint(1, 2) if shape == "mesh" else 1):
            if shape == "mesh" and r.random() < 0.3:
                continue
            edges.append(("x[%d]" % k, "x[%d]" % j, r.choice(rates)))
for i in range(nsrv):
    for k in r.sample(range(nsw), min(nsw, r.choice([1, 1, 2]))):
        edges.append(("s[%d]" % i, "x[%d]" % k, r.choice(rates)))
out = ["part srv%d : server { height 1U; port p[0..7] { speed %dGb/s; protocol ib } }" % (g, g) for g in rates]
out += ["part sw%d : switch { height 1U; port p[0..63] { speed %dGb/s; protocol ib } }" % (g, g) for g in rates]
out.append("part swx : switch { height 1U")
for g in rates:
    out.append("  port q%d[0..47] { speed %dGb/s; protocol ib }" % (g, g))
out.append("}")
for i in range(nsrv):
    out.append("node s[%d] : srv800 {}" % i)
for k in range(nsw):
    out.append("switch x[%d] : swx {}" % k)
# a link's rate is the lower of its ports': switch ports of the link's rate
used = {}
eps = []
wired = []                      # (a, a's port, b, b's port, Gb/s)
for a, b, g in edges:
    def pn(dev):
        if dev.startswith("s["):
            return "p[%d]" % port(dev)
        used[(dev, g)] = used.get((dev, g), 0) + 1
        return "q%d[%d]" % (g, used[(dev, g)] - 1)
    pa, pb = pn(a), pn(b)
    if a.startswith("s["):
        eps.append("%s.%s" % (a, pa))
    wired.append((a, pa, b, pb, g))
    out.append("link %s.%s -- %s.%s" % (a, pa, b, pb))
# the switch endpoint: x[0]'s first linked port
swends = ["%s.%s" % (w[0], w[1]) if w[0] == "x[0]" else
          "%s.%s" % (w[2], w[3]) for w in wired if "x[0]" in (w[0], w[2])]
swep = swep and bool(swends)
if swep:
    eps.append(swends[0])
out.append("fabric f : fat_tree { endpoints %s }" % ", ".join(eps))
open(rack, "w").write("\n".join(out) + "\n")
json.dump({"n": nsrv, "wired": wired, "swep": swep}, open(js, "w"))
EOF
	explain "$name" "$tmp/r$seed" "$tmp/f$seed.rack" || continue
	if got=$(python3 - "$tmp/f$seed.json" "$tmp/r$seed.out" <<'EOF'
import json, sys
import networkx as nx
from bisect_check import check_level, parse_explain
g = json.load(open(sys.argv[1]))
lv = parse_explain(open(sys.argv[2]).read())["f"]
def ep(dev, port):   # a server's port is a terminal of its own
    return dev + "." + port if dev.startswith("s[") else dev
def node(dev, port):
    return dev
out, bad = [], []
for level, name in (("", ep), ("node ", node)):
    G = nx.Graph()
    for a, pa, b, pb, gb in g["wired"]:
        u, v, c = name(a, pa), name(b, pb), gb * 10**9
        if G.has_edge(u, v):
            G[u][v]["capacity"] += c
        else:
            G.add_edge(u, v, capacity=c)
    terms = {name(a, pa) for a, pa, b, pb, gb in g["wired"]
             if a.startswith("s[")}
    if g["swep"]:
        terms.add("x[0]")
    b, true = check_level(level + "level", G, terms, lv[level])
    bad += b
    out.append("%s%d..%d truth %s (%d terminals)" % (
        level, lv[level]["lo"], lv[level]["hi"], true, len(terms)))
print("ok" if not bad else "bad", "; ".join(out + bad))
EOF
	) && [ "${got%% *}" = ok ]; then
		pass "$name" "$got"
	else
		fail "$name" "$got"
		show "$tmp/r$seed.out"
	fi
done
# Medium fabrics beyond the exact methods (48 to 64 servers on tori,
# hypercubes and dragonflies of switches), where the flow bound and the
# partitioner run: networkx gives the witness's cut, which must be the
# upper bound, and the cut of the split the closed form names (half the
# torus columns, half the cube, half the groups), which must be the closed
# form's value and lie within rackc's bounds.  (The servers' links are of
# the fabric's rate, so the cube is near full bisection and its flow bound
# only half the closed form; doc/language.md §9.11.)
for shape in torus hypercube dragonfly; do
	name=bisect-nx/medium-$shape
	python3 - "$shape" "$tmp/m$shape.rack" "$tmp/m$shape.json" <<'EOF'
import json, sys
shape, rack, js = sys.argv[1], sys.argv[2], sys.argv[3]
edges, half = [], []            # switch-switch edges; switches of side A
if shape == "torus":
    k = 8
    nsw = k * k
    for i in range(nsw):
        x, y = i % k, i // k
        edges.append((i, y * k + (x + 1) % k))
        edges.append((i, ((y + 1) % k) * k + x))
    half = [i for i in range(nsw) if i % k < k // 2]
    known = 2 * k
    per = 1
elif shape == "hypercube":
    d = 6
    nsw = 1 << d
    edges = [(i, i | 1 << b) for i in range(nsw) for b in range(d)
             if not i >> b & 1]
    half = [i for i in range(nsw) if not i >> (d - 1) & 1]
    known = nsw // 2
    per = 1
else:
    G, a, per = 6, 4, 2
    nsw = G * a
    for g in range(G):
        for i in range(a):
            for j in range(i + 1, a):
                for _ in range(2 * per):   # local links wider
                    edges.append((g * a + i, g * a + j))
    for x in range(G):
        for y in range(x + 1, G):
            edges.append((x * a + y % a, y * a + x % a))
    half = [s for s in range(nsw) if s // a < G // 2]
    known = (G // 2) ** 2
servers = [(s * per + i, s) for s in range(nsw) for i in range(per)]
out = ["part srv : server { height 1U; port p[0..7] { speed 400Gb/s; protocol ib } }",
       "part swx : switch { height 1U; port q[0..63] { speed 400Gb/s; protocol ib } }"]
for i, _ in servers:
    out.append("node s[%d] : srv {}" % i)
for k in range(nsw):
    out.append("switch x[%d] : swx {}" % k)
used = {}
def q(sw):
    used[sw] = used.get(sw, 0) + 1
    return "x[%d].q[%d]" % (sw, used[sw] - 1)
for a, b in edges:
    out.append("link %s -- %s" % (q(a), q(b)))
for i, s in servers:
    out.append("link s[%d].p[0] -- %s" % (i, q(s)))
out.append("fabric f : fat_tree { endpoints %s }" %
           ", ".join("s[%d].p[0]" % i for i, _ in servers))
open(rack, "w").write("\n".join(out) + "\n")
json.dump({"edges": edges, "servers": servers, "known": known * 400 * 10**9,
           "half": ["s[%d]" % i for i, s in servers if s in half]},
          open(js, "w"))
EOF
	explain "$name" "$tmp/mr$shape" "$tmp/m$shape.rack" || continue
	if got=$(python3 - "$tmp/m$shape.json" "$tmp/mr$shape.out" <<'EOF'
import json, sys
import networkx as nx
from bisect_check import check_level, cut, parse_explain
g = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
c = 400 * 10**9
H = nx.DiGraph()
def add(a, b):
    for u, v in ((a, b), (b, a)):
        if H.has_edge(u, v):
            H[u][v]["capacity"] += c
        else:
            H.add_edge(u, v, capacity=c)
for a, b in g["edges"]:
    add("x[%d]" % a, "x[%d]" % b)
for i, s in g["servers"]:
    add("s[%d]" % i, "x[%d]" % s)
names = ["s[%d]" % i for i, _ in g["servers"]]
G = nx.Graph(H)      # one level's graph: the servers' one port each
lv = parse_explain(text)["f"]
bad, out = [], []
for level in ("", "node "):
    x = dict(lv[level])
    # a server has one port, p[0]: at the endpoint level the port is the
    # terminal, at the node level the server, and the two levels agree
    x["a"] = [n.replace(".p[0]", "") for n in x["a"]]
    x["b"] = [n.replace(".p[0]", "") for n in x["b"]]
    b, _ = check_level(level + "level", G, names, x, want=g["known"])
    bad += b
    out.append("%s%d %d %d" % (level, x["lo"], g["known"], x["hi"]))
k = cut(G, set(g["half"]), set(names) - set(g["half"]))
if k != g["known"]:
    bad.append("the closed form's split cuts %d" % k)
print("ok" if not bad else "bad", "; ".join(out + bad))
EOF
	) && [ "${got%% *}" = ok ]; then
		pass "$name" "lower, closed form, upper: $got"
	else
		fail "$name" "$got"
		show "$tmp/mr$shape.out"
	fi
done
finish
