#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The nccl-figure-unknown check and the NCCL topology back end agree on
# which NICs carry NCCL traffic (one rule, src/analysis/nccl_nics.c).  In
# tests/nccl-nics/roles.rack every NIC part lacks its PCIe figures and
# names its bus id after itself; the NIC parts the check reports and the
# NIC bus ids the back end writes must be the same NICs, and the ones the
# rule gives by hand (compute, no role, storage and compute: yes; storage
# only, no ports: no).
. "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 99

# part -> bus id, as roles.rack declares them
bus_of() {
	case $1 in
	n_comp) echo 0000:a0:00.0 ;;
	n_stor) echo 0000:b0:00.0 ;;
	n_unset) echo 0000:e0:00.0 ;;
	n_mixed) echo 0000:f0:00.0 ;;
	n_none) echo 0000:d0:00.0 ;;
	esac
}

if ! rk_run "$tmp/r" -O nccl -o "$tmp/out" tests/nccl-nics/roles.rack; then
	fail nccl-nics/run "$rk_problem"
	finish
fi
if [ "$rc" != 0 ]; then
	fail nccl-nics/run "exit $rc"
	show "$tmp/r.err"
	finish
fi
pass nccl-nics/run

# the check: the NIC parts it reports, as bus ids
sed -n 's/.*warning: NIC part \([a-z_]*\) gives no.*/\1/p' "$tmp/r.err" |
    while read -r part; do bus_of "$part"; done | sort >"$tmp/check.txt"
# the back end: the bus ids of NIC class (0x0207..) written
sed -n 's/.*<pci busid="\([0-9a-f:.]*\)" class="0x0207.*/\1/p' \
    "$tmp/out/nccl/s.xml" | sort >"$tmp/backend.txt"
printf '%s\n' 0000:a0:00.0 0000:e0:00.0 0000:f0:00.0 >"$tmp/want.txt"

for who in check backend; do
	if cmp -s "$tmp/want.txt" "$tmp/$who.txt"; then
		pass "nccl-nics/$who"
	else
		fail "nccl-nics/$who" "NICs other than compute, no role, mixed"
		show "$tmp/$who.txt"
	fi
done
if cmp -s "$tmp/check.txt" "$tmp/backend.txt"; then
	pass nccl-nics/agree
else
	fail nccl-nics/agree "the check and the back end name other NICs"
fi

finish
