#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Memory that must not grow with what a back end says.  A design whose
# every cable label is too long for a one-line label (the cabling back end
# warns about each of its 100,000 cables) must peak within a few MiB of the
# same design with short labels: a back end's deferred diagnostics go to a
# temporary file once there are more than a few (diag_spill), and are read
# back only to be printed.  Held in memory until the end, as they were,
# they cost some 20 MiB here (a million GPUs of bench/synth.rack give 1.2
# million such warnings: 250 MiB).
#
# The plain build only: a sanitizer build's allocator holds freed memory
# in quarantine, so its peak says little about what is kept.
. "$(dirname "$0")/lib.sh"

if [ "$rk_sanitized" = yes ]; then
	skip memory "peaks are measured on the plain build"
	finish
fi

cat >"$tmp/warn.rack" <<'EOF'
param RACKS = 10
param LONG = 0

part w_rack : rack { height 42U; estimated "synthetic part" }
part w_server : server {
	height 1U
	estimated "synthetic part"
	port mgmt { speed 1Gb/s; protocol eth }
}
part w_switch : switch {
	height 1U
	estimated "synthetic part"
	port p[0..7] { speed 1Gb/s; protocol eth }
}

site s {
	if LONG > 0 {
		label "{id} {a.device} {a.port} {a.rack} {a.u} to {b.device} {b.port} {b.rack} {b.u} (of {a.device} and {b.device})"
	}
	row r {
		for i in 0 .. RACKS - 1 {
			rack rk[i] : w_rack
		}
	}
}

for i in 0 .. RACKS - 1 {
	group g[i] {
		for j in 0 .. 7 {
			device n[j] : w_server { rack s.r.rk[i]; at (j + 1) * 1U }
		}
		device sw : w_switch { rack s.r.rk[i]; at 20U }
		for j in 0 .. 7 {
			link n[j].mgmt -- sw.p[j]
		}
	}
}
EOF

# each run alone, so that the peak is its own
# each run alone, so that the peak is its own (rackc --stats prints it)
ok=yes
for long in 0 1; do
	if ! rk_run "$tmp/w$long" --stats --no-source -D RACKS=12500 \
		-D LONG=$long -O cabling -o "$tmp/out$long" "$tmp/warn.rack"; then
		fail memory/warnings "$rk_problem"
		ok=no
	elif [ "$rc" -ne 0 ]; then
		fail memory/warnings "exit $rc"
		show "$tmp/w$long.err" 5
		ok=no
	fi
done
if [ $ok = yes ]; then
	kib0=$(sed -n 's/^rackc: stats: peak memory \([0-9]*\) KiB$/\1/p' "$tmp/w0.err")
	kib1=$(sed -n 's/^rackc: stats: peak memory \([0-9]*\) KiB$/\1/p' "$tmp/w1.err")
	warned=$(grep -c 'warning: the label of cable' "$tmp/w1.err" || true)
	if [ -z "$kib0" ] || [ -z "$kib1" ] || grep -q 'warning:' "$tmp/w0.err"; then
		fail memory/warnings "no peak from --stats, or a warning with short labels"
		show "$tmp/w0.err" 5
	elif [ "$warned" -ne 100000 ]; then
		fail memory/warnings "$warned label warnings, not 100000"
		show "$tmp/w1.err" 5
	elif [ $((kib1 - kib0)) -gt 6144 ]; then
		fail memory/warnings "100,000 warnings cost $((kib1 - kib0)) KiB more at the peak ($kib0 -> $kib1 KiB)"
	else
		pass memory/warnings "peak $kib0 KiB without, $kib1 KiB with 100,000 warnings"
	fi
fi
finish
