#!/bin/sh
# SPDX-License-Identifier: MIT
# A second opinion on rackc's bisection from networkx (python3-networkx):
# random hand-wired fabrics (switch meshes with missing links, rings, paths,
# servers on one or two switches, mixed rates) are written as designs,
# compiled with --explain, and the graph is rebuilt in Python from the
# same random draw.  networkx's max-flow (super source and sink joined to
# the two halves) must give the witness split's cut as rackc's upper
# bound, and the least such cut over every balanced split of the servers
# (the true bisection) must lie between rackc's bounds, equal to both when
# rackc says exact.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null 2>&1 ||
	! python3 -c 'import networkx' 2>/dev/null; then
	skip bisect-nx "python3-networkx not installed"
	finish
fi

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

for seed in 1 2 3 4 5 6 7 8 9 10 11 12; do
	name=bisect-nx/seed-$seed
	python3 - "$seed" "$tmp/f$seed.rack" "$tmp/f$seed.json" <<'EOF'
import json, random, sys
seed, rack, js = int(sys.argv[1]), sys.argv[2], sys.argv[3]
r = random.Random(seed)
rates = [100, 200, 400, 800]
nsw = r.randint(1, 6)
nsrv = r.randint(2, 12)
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
for a, b, g in edges:
    def pn(dev):
        if dev.startswith("s["):
            return "p[%d]" % port(dev)
        used[(dev, g)] = used.get((dev, g), 0) + 1
        return "q%d[%d]" % (g, used[(dev, g)] - 1)
    pa, pb = pn(a), pn(b)
    if a.startswith("s["):
        eps.append("%s.%s" % (a, pa))
    out.append("link %s.%s -- %s.%s" % (a, pa, b, pb))
out.append("fabric f : fat_tree { endpoints %s }" % ", ".join(eps))
open(rack, "w").write("\n".join(out) + "\n")
json.dump({"n": nsrv, "edges": edges}, open(js, "w"))
EOF
	explain "$name" "$tmp/r$seed" "$tmp/f$seed.rack" || continue
	if got=$(python3 - "$tmp/f$seed.json" "$tmp/r$seed.out" <<'EOF'
import itertools, json, re, sys
import networkx as nx
g = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
n = g["n"]
G = nx.Graph()
for a, b, gb in g["edges"]:
    c = gb * 10**9
    if G.has_edge(a, b):
        G[a][b]["capacity"] += c
    else:
        G.add_edge(a, b, capacity=c)
def cut(side_a):
    H = nx.DiGraph()
    for a, b, d in G.edges(data=True):
        H.add_edge(a, b, capacity=d["capacity"])
        H.add_edge(b, a, capacity=d["capacity"])
    for i in range(n):
        s = "s[%d]" % i
        if s not in H:
            H.add_node(s)
        if s in side_a:
            H.add_edge("SRC", s)          # no capacity: unbounded
        else:
            H.add_edge(s, "SNK")
    return nx.maximum_flow_value(H, "SRC", "SNK")
m = re.search(r"bisection: (?:at least (\d+) b/s, at most (\d+)|(\d+)) b/s", text)
lo = int(m.group(1) or m.group(3)); hi = int(m.group(2) or m.group(3))
side_a = set(re.search(r"side A \(\d+\):(.*)", text).group(1).split())
truth = None
names = ["s[%d]" % i for i in range(n)]
for k in {n // 2, n - n // 2}:
    for a in itertools.combinations(names[1:], k - 1):
        c = cut(set(a) | {names[0]})
        truth = c if truth is None else min(truth, c)
w = cut(side_a)
ok = lo <= truth <= hi and w == hi and (lo != hi or lo == truth)
print("ok" if ok else "bad", lo, truth, hi, w)
EOF
	) && [ "${got%% *}" = ok ]; then
		pass "$name" "$got"
	else
		fail "$name" "lower, networkx truth, upper, witness cut: $got"
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
import json, re, sys
import networkx as nx
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
def cut(side_a):
    F = H.copy()
    for s in names:
        if s in side_a:
            F.add_edge("SRC", s)
        else:
            F.add_edge(s, "SNK")
    return nx.maximum_flow_value(F, "SRC", "SNK")
m = re.search(r"bisection: (?:at least (\d+) b/s, at most (\d+)|(\d+)) b/s", text)
lo = int(m.group(1) or m.group(3)); hi = int(m.group(2) or m.group(3))
side_a = set(re.search(r"side A \(\d+\):(.*)", text).group(1).split())
w, k = cut(side_a), cut(set(g["half"]))
ok = lo <= g["known"] <= hi and w == hi and k == g["known"]
print("ok" if ok else "bad", lo, g["known"], hi, w, k)
EOF
	) && [ "${got%% *}" = ok ]; then
		pass "$name" "lower, closed form, upper: $got"
	else
		fail "$name" "lower, closed form, upper, witness cut, closed-form split's cut: $got"
		show "$tmp/mr$shape.out"
	fi
done
finish
