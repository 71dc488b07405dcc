#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The catalog: `rackc parts` and the completeness of the standard library.
#
#   complete/PART   every std part carries the figures its class needs
#                   (tests/catalog_complete.py holds the definition), marks
#                   the ones no source gives `unknown "FIGURE: reason"`, or
#                   is a known gap of tests/catalog/gaps.txt (a list that
#                   must only shrink)
#   checker/*       the checker fails a part that lacks a figure, naming
#                   it, accepts an unknown mark, refuses a mark without a
#                   reason or on a figure that is set, and a stale gap
#   parts/*         `rackc parts`: pattern matching (substring and glob,
#                   on name, vendor and model), --format=json, --show with
#                   each figure's file, line and source tag, --import, an
#                   unknown name with a suggestion, exit statuses

. "$(dirname "$0")/lib.sh"

cd "$top_srcdir"

py_with json
if [ -z "$py" ]; then
	skip catalog "python3 not installed"
	finish
fi

# ---- completeness of std ----
if rk_run "$tmp/all" parts --format=json && [ "$rc" = 0 ]; then
	"$py" tests/catalog_complete.py "$tmp/all.out" tests/catalog/gaps.txt \
		>"$tmp/complete.txt"
	py_results catalog "$tmp/complete.txt"
else
	fail catalog/complete "rackc parts --format=json: status $rc"
	show "$tmp/all.err"
fi

# ---- the checker can fail ----
mkdir "$tmp/inc"
cat >"$tmp/inc/testcat.rack" <<'EOF'
part t_gpu_base : gpu {
	hbm 80GB
	hbm_bw 3TB/s
	flops_fp64 1TFLOP/s
	flops_tf32 1TFLOP/s
	flops_bf16 1TFLOP/s
	flops_fp8 1TFLOP/s
	nvlinks 18
	pcie_gen 5
	pcie_width 16
}
# a family base: held to the definition through the parts derived from it
part t_gpu_short : t_gpu_base { }
part t_gpu_marked : t_gpu_base {
	unknown "nvlink_bw: no public figure (test)"
}
part t_gpu_noreason : t_gpu_base {
	unknown "nvlink_bw:"
}
part t_gpu_contra : t_gpu_base {
	nvlink_bw 450GB/s
	unknown "nvlink_bw: yet it is set"
}
part t_rack_ok : rack {
	vendor "Example"
	model "Frame 42"
	height 42U
	width 600mm
	depth 1200mm
	max_load 1000kg
}
EOF
printf 't_rack_ok max_load\nno_such_part depth\n' >"$tmp/gaps.txt"
if rk_run "$tmp/t" parts -I "$tmp/inc" --import=testcat --format=json \
	't_*' && [ "$rc" = 0 ]; then
	"$py" tests/catalog_complete.py "$tmp/t.out" "$tmp/gaps.txt" \
		>"$tmp/t.txt"
	check_line() { # NAME WORD PATTERN
		if grep "^$2	complete/$1	" "$tmp/t.txt" | grep -q -- "$3"; then
			pass "checker/$1"
		else
			fail "checker/$1" "want $2 with '$3'"
			show "$tmp/t.txt"
		fi
	}
	check_line t_gpu_short FAIL "part 't_gpu_short' (gpu): lacks nvlink_bw"
	check_line t_gpu_base PASS ""
	check_line t_gpu_marked PASS ""
	check_line t_gpu_noreason FAIL "gives no reason"
	check_line t_gpu_contra FAIL "nvlink_bw is marked unknown but is set"
	check_line t_rack_ok FAIL "max_load is in the gap list but is now set"
	if grep -q "^FAIL	gaps/no_such_part/depth	.*no such part" \
		"$tmp/t.txt"; then
		pass checker/stale-gap
	else
		fail checker/stale-gap "an entry naming no part is not refused"
		show "$tmp/t.txt"
	fi
else
	fail checker "rackc parts --import: status $rc"
	show "$tmp/t.err"
fi

# ---- figures the back ends read ----
# H200 SXM's 18 NVLink4 links reach the NCCL files of the DGX H200 and the
# Supermicro HGX H200 server: one nvlink row of count 18 per GPU (8 GPUs)
if rk_run "$tmp/nccl" --force -O nccl -o "$tmp/nccl.d" tests/std/exercise.rack &&
	[ "$rc" -le 1 ]; then
	for f in dgx_h200 sys_821ge_tnhr_8psu; do
		n=$(grep -c '<nvlink .*count="18"' "$tmp/nccl.d/nccl/$f.xml" || true)
		if [ "$n" = 8 ]; then
			pass "nccl/$f"
		else
			fail "nccl/$f" "$n nvlink rows of count 18, want 8"
		fi
	done
else
	fail nccl "rackc -O nccl: status $rc"
	show "$tmp/nccl.err"
fi

# ---- rackc parts ----
# names (first column) of a text listing
names() { awk 'NR > 1 { print $1 }' "$1" | sort; }

# substring, case-insensitive, on vendor: exactly the two Vertiv CDUs
rk_run "$tmp/v" parts vertiv || true
if [ "$rc" = 0 ] && [ "$(names "$tmp/v.out" | tr '\n' ' ')" = \
	"vertiv_xdu1350 vertiv_xdu450 " ]; then
	pass parts/vendor
else
	fail parts/vendor "status $rc"
	show "$tmp/v.out"
fi

# on model: qm9790's model is its orderable name, MQM9790-NS2F
rk_run "$tmp/m" parts 'mqm9790-ns2f' || true
if [ "$rc" = 0 ] && [ "$(names "$tmp/m.out")" = qm9790 ]; then
	pass parts/model
else
	fail parts/model "status $rc"
	show "$tmp/m.out"
fi

# glob on the name: every part whose name, vendor or model matches
# mcp4*; the names found by grep over the catalog's part lines
rk_run "$tmp/g" parts 'mcp4*' || true
want=$(sed -n 's/^part \(mcp4[a-z0-9_]*\) :.*/\1/p' std/*.rack | sort)
if [ "$rc" = 0 ] && [ "$(names "$tmp/g.out")" = "$want" ] &&
	[ -n "$want" ]; then
	pass parts/glob
else
	fail parts/glob "status $rc; want: $want"
	show "$tmp/g.out"
fi

# the whole catalog: one line per part line of std/*.rack
rk_run "$tmp/a" parts || true
want=$(grep -c '^part ' std/*.rack | awk -F: '{ n += $2 } END { print n }')
if [ "$rc" = 0 ] && [ "$(names "$tmp/a.out" | wc -l)" -eq "$want" ]; then
	pass parts/all
else
	fail parts/all "status $rc; want $want parts"
fi

# JSON shape: a list of objects with the documented keys
if "$py" - "$tmp/all.out" >"$tmp/json.txt" 2>&1 <<'EOF'; then
import json, sys
parts = json.load(open(sys.argv[1]))
keys = {"name", "class", "base", "file", "line", "vendor", "model", "height",
        "power_max", "ports", "part_number", "estimated", "unknown",
        "figures", "port_list"}
assert isinstance(parts, list) and parts
for p in parts:
    assert set(p) == keys, (p["name"], sorted(set(p) ^ keys))
    assert isinstance(p["estimated"], list) and isinstance(p["unknown"], list)
    for port in p["port_list"]:
        assert set(port) == {"name", "form", "speed", "faceplate"}
by = {p["name"]: p for p in parts}
q = by["qm9700"]
assert q["class"] == "switch" and q["height"] == "1U", q
assert q["part_number"] == "MQM9700-NS2F", q
# 32 twin-port OSFP cages of 2 x 400G, and the management ports
assert q["ports"].startswith("64x400Gb/s OSFP"), q["ports"]
assert by["h200_sxm"]["figures"]["nvlinks"] == "18"
EOF
	pass parts/json
else
	fail parts/json
	show "$tmp/json.txt"
fi

# --show: each figure with its file, line and the tag of its comment
rk_run "$tmp/s" parts --show h200_sxm || true
line=$(awk '/^part h200_sxm /{ p = 1 } p && /^}/ { exit }
	p && /^\tnvlinks /{ print NR; exit }' \
	std/nvidia.rack)
if [ "$rc" = 0 ] && [ -n "$line" ] &&
	grep -q "^  nvlinks  *18  *std/nvidia.rack:$line  # S-MLC" "$tmp/s.out"; then
	pass parts/show
else
	fail parts/show "status $rc; want nvlinks at line '$line'"
	show "$tmp/s.out"
fi
# an inherited figure names the part it comes from
rk_run "$tmp/si" parts --show dgx_h200 || true
if [ "$rc" = 0 ] && grep -q "^  height .*(from dgx_hopper_chassis)" \
	"$tmp/si.out"; then
	pass parts/show-inherited
else
	fail parts/show-inherited "status $rc"
	show "$tmp/si.out"
fi
# an unknown mark shows in the listing and in --show
rk_run "$tmp/u" parts -I "$tmp/inc" --import=testcat t_gpu_marked || true
if [ "$rc" = 0 ] && grep -q "^t_gpu_marked .* unknown$" "$tmp/u.out"; then
	pass parts/unknown-flag
else
	fail parts/unknown-flag "status $rc"
	show "$tmp/u.out"
fi

# errors: an unknown name (with a suggestion), no match, usage
rk_run "$tmp/e1" parts --show h200sxm || true
if [ "$rc" = 1 ] && grep -q "unknown part 'h200sxm'; did you mean 'h200_sxm'?" \
	"$tmp/e1.err"; then
	pass parts/unknown-name
else
	fail parts/unknown-name "status $rc"
	show "$tmp/e1.err"
fi
rk_run "$tmp/e2" parts zzzz-no-such-part || true
if [ "$rc" = 1 ] && grep -q "no part matches" "$tmp/e2.err"; then
	pass parts/no-match
else
	fail parts/no-match "status $rc"
fi
for args in "--format=xml" "--bogus" "a b" "--show"; do
	# shellcheck disable=SC2086 # split on purpose
	rk_run "$tmp/e3" parts $args || true
	if [ "$rc" = 2 ]; then
		pass "parts/usage $args"
	else
		fail "parts/usage $args" "status $rc, want 2"
	fi
done
rk_run "$tmp/e4" parts --import=no/such/module || true
if [ "$rc" = 1 ] || [ "$rc" = 2 ]; then
	pass parts/bad-import
else
	fail parts/bad-import "status $rc"
fi

finish
