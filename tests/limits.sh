#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The worst cases of the limits (doc/language.md section 13): inputs of at
# most 64 bytes that drive one limit as far as it goes, each run to the end
# (every check, and every back end where the design is valid) with its peak
# memory (the largest resident set) and processor time measured and held
# to a bound: the figure the documentation gives, with room for a loaded
# machine.  A change that makes objects, links or attribute values dearer,
# or a limit that lets more through, fails here.
#
# A sanitizer build keeps its own shadow memory and runs 5 to 15 times
# slower, and these inputs would take several GiB there: they are pinned
# on the plain build only (skipped on a sanitizer build).
. "$(dirname "$0")/lib.sh"

if [ "$rk_sanitized" = yes ]; then
	skip limits "worst cases are pinned on the plain build"
	finish
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip limits "python3 not installed (it measures the peak memory)"
	finish
fi

# measure PREFIX ARG...: run the compiler; "STATUS PEAK_KIB CPU_MS" on stdout
measure() {
	python3 - "$RK_TIMEOUT" "$@" <<'EOF'
import resource, subprocess, sys
limit, prefix, args = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
with open(prefix + ".out", "wb") as out, open(prefix + ".err", "wb") as err:
    try:
        st = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=out,
                            stderr=err, timeout=limit).returncode
    except subprocess.TimeoutExpired:
        st = 124
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(st, r.ru_maxrss, int((r.ru_utime + r.ru_stime) * 1000))
EOF
}

# Cases: NAME|MODE|PEAK_MIB|CPU_S|STATUS|STDERR_PATTERN|INPUT
#   MODE     check (--check) or full (every back end, into a directory)
#   PEAK_MIB, CPU_S   the bounds: the documented worst case and a margin
#   INPUT    printf format of the file (at most 64 bytes)
cat >"$tmp/cases" <<'EOF'
# the longest loop: ten million iterations of nothing
loop|full|64|5|0||for i in 0..9999999{}
# the step limit: fifty million steps
steps|check|64|10|1|step limit|for i in 0..9999999{for j in 0..4{}}
# just under the object limit, valid: every check and back end runs
objects|full|1100|30|0||for i in 0..1998{group a[i]{for j in 0..998{group b[j]{}}}}
# one more object than the limit
objects-over|check|600|20|1|more than 2000000 objects|for i in 0..1999{group a[i]{for j in 0..999{group b[j]{}}}}
# the expansion limit, twice over: two million objects, valid
expand|full|950|30|0||group a[0..999999]{group b{}}
# the link limit: the same two ports linked again and again
links|check|1600|20|1|more than 5000000 links|part p:pdu{port q}pdu s:p\nfor i in 0..9999999{link s.q--s.q}
# the attribute limit: one attribute given again and again
attributes|check|600|10|1|more than 4000000 attributes|part p:pdu{for i in 0..9999999{height 1U}}
# list elements: a million attributes of eight elements each
values|check|1100|10|1|given more than once|part p:pdu{for i in 0..999999{lengths 1m,1m,1m,1m,1m,1m,1m,1m}}
EOF

while IFS='|' read -r name mode peak cpu status pattern input; do
	case $name in '' | '#'*) continue ;; esac
	# shellcheck disable=SC2059 # the input is a printf format
	printf "$input" >"$tmp/in.rack"
	size=$(wc -c <"$tmp/in.rack")
	if [ "$size" -gt 64 ]; then
		fail "limits/$name" "the input has $size bytes, more than 64"
		continue
	fi
	rm -rf "$tmp/out"
	if [ "$mode" = full ]; then
		set -- -o "$tmp/out"
	else
		set -- --check
	fi
	# shellcheck disable=SC2046 # the fields of the measurement
	set -- $(measure "$tmp/r" "$RACKC" "$@" "$tmp/in.rack")
	st=$1 kib=$2 ms=$3
	mib=$(((kib + 1023) / 1024))
	what="$size bytes, exit $st, $mib MiB, $ms ms"
	if [ "$st" != "$status" ]; then
		fail "limits/$name" "$what, want exit $status"
		show "$tmp/r.err" 10
	elif [ -n "$pattern" ] && ! grep -E -q "$pattern" "$tmp/r.err"; then
		fail "limits/$name" "$what, no /$pattern/ on stderr"
		show "$tmp/r.err" 10
	elif grep -E -q 'AddressSanitizer|runtime error:' "$tmp/r.err"; then
		fail "limits/$name" "$what, sanitizer report"
	elif [ "$mib" -gt "$peak" ]; then
		fail "limits/$name" "$what: more than $peak MiB"
	elif [ "$ms" -gt $((cpu * 1000)) ]; then
		fail "limits/$name" "$what: more than $cpu s of processor time"
	else
		pass "limits/$name" "$what"
	fi
done <"$tmp/cases"
rm -rf "$tmp/out"
finish
