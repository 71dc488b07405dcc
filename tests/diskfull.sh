#!/bin/sh
# SPDX-License-Identifier: MIT
# A full disk is an I/O error (exit 2) that leaves the previous artifacts
# as they were and no temporary files behind.  Needs root to mount a tiny
# tmpfs; skipped (77) where that is not possible.
. "$(dirname "$0")/lib.sh"

full=$tmp/full
mkdir -p "$full"
if [ "$(id -u)" -ne 0 ] || ! mount -t tmpfs -o size=64k tmpfs "$full" 2>/dev/null; then
	skip diskfull "cannot mount a small tmpfs here (needs root)"
	finish
fi
trap 'umount "$full" 2>/dev/null; rm -rf "$tmp"' EXIT

# a small artifact fits
if rk_run "$tmp/a" -o "$full/out" -O report "$top_srcdir/examples/minimal.rack" &&
	[ "$rc" -eq 0 ]; then
	pass diskfull/first-run
else
	fail diskfull/first-run "exit $rc"
	show "$tmp/a.err"
	finish
fi
cp "$full/out/report.json" "$tmp/before.json"

# every back end of a bigger design does not
rk_run "$tmp/b" -o "$full/out" "$top_srcdir/examples/dgx-h100-su.rack" || :
if [ "$rc" -eq 2 ] && grep -q "No space left on device" "$tmp/b.err"; then
	pass diskfull/exit-2
else
	fail diskfull/exit-2 "exit $rc"
	show "$tmp/b.err"
fi
if cmp -s "$tmp/before.json" "$full/out/report.json"; then
	pass diskfull/previous-artifact-kept
else
	fail diskfull/previous-artifact-kept "report.json changed or is gone"
fi
left=$(find "$full/out" -name '.*' -type f | wc -l)
if [ "$left" -eq 0 ] && [ "$(find "$full/out" -type f | wc -l)" -eq 1 ]; then
	pass diskfull/no-temporaries
else
	fail diskfull/no-temporaries "$(find "$full/out" -type f | head -5)"
fi
finish
