#!/bin/sh
# SPDX-License-Identifier: MIT
# Artifacts on ext4, where large ones are allocated ahead of the writer
# (out_write): on a loop-mounted image, a compile writes the same bytes as
# anywhere else and leaves no artifact holding space past its end; on the
# same file system nearly full (less free than the 512 MiB below which
# nothing is allocated ahead) it still succeeds, and then a compile that
# does not fit fails cleanly.  Needs root, loop devices and mkfs.ext4;
# skipped (77) where that is not possible.
. "$(dirname "$0")/lib.sh"

img=$tmp/ext4.img
mnt=$tmp/ext4
mkdir -p "$mnt"
if [ "$(id -u)" -ne 0 ] || ! command -v mkfs.ext4 >/dev/null 2>&1 ||
	! truncate -s 1200M "$img" 2>/dev/null ||
	! mkfs.ext4 -q -F -m 0 "$img" >/dev/null 2>&1 ||
	! mount -o loop "$img" "$mnt" 2>/dev/null; then
	skip prealloc "cannot mount an ext4 image here (needs root and loop devices)"
	finish
fi
trap 'umount "$mnt" 2>/dev/null; rm -rf "$tmp"' EXIT

# no_tail DIR: the artifacts under DIR that hold blocks past their end
no_tail() {
	bs=$(stat -f -c %S "$1")
	find "$1" -type f -exec stat -c '%s %b %n' {} + |
		awk -v bs="$bs" '$2 * 512 > int(($1 + bs - 1) / bs) * bs { print $3 }'
}

design=$top_srcdir/bench/synth.rack
for g in 1000 10000; do
	if ! rk_run "$tmp/ref$g" -D GPUS=$g -o "$tmp/ref$g" "$design" ||
		[ "$rc" -ne 0 ]; then
		fail prealloc/reference "exit $rc $rk_problem"
		show "$tmp/ref$g.err"
		finish
	fi
done
# space is allocated ahead from a file's second 8 MiB on: at 10k GPUs
# cabling/pull.csv gets there
if [ "$(find "$tmp/ref10000" -type f -size +8192k | wc -l)" -eq 0 ]; then
	fail prealloc/reference "no artifact of 10k GPUs passes 8 MiB"
fi

# plenty of room: allocated ahead, then trimmed
if rk_run "$tmp/a" -D GPUS=10000 -o "$mnt/out" "$design" && [ "$rc" -eq 0 ]; then
	pass prealloc/compile
else
	fail prealloc/compile "exit $rc $rk_problem"
	show "$tmp/a.err"
fi
if diff -r "$tmp/ref10000" "$mnt/out" >/dev/null; then
	pass prealloc/same-bytes
else
	fail prealloc/same-bytes "artifacts differ from those written elsewhere"
fi
held=$(no_tail "$mnt/out")
if [ -z "$held" ]; then
	pass prealloc/no-space-past-the-end
else
	fail prealloc/no-space-past-the-end "$held"
fi

# nearly full: about 8 MiB left, nothing allocated ahead; the 1.6 MiB of
# artifacts still fit
rm -rf "$mnt/out"
free=$(df -P -k "$mnt" | awk 'NR == 2 { print $4 }')
if ! fallocate -l "$(((free - 8192) * 1024))" "$mnt/filler" 2>/dev/null; then
	skip prealloc/nearly-full "cannot fill the image (fallocate)"
	finish
fi
if rk_run "$tmp/b" -D GPUS=1000 -o "$mnt/out" "$design" && [ "$rc" -eq 0 ] &&
	diff -r "$tmp/ref1000" "$mnt/out" >/dev/null && [ -z "$(no_tail "$mnt/out")" ]; then
	pass prealloc/nearly-full
else
	fail prealloc/nearly-full "exit $rc $rk_problem"
	show "$tmp/b.err"
fi

# full: 10k GPUs (25 MiB of artifacts) do not fit; an I/O error, nothing left
rm -rf "$mnt/out"
rk_run "$tmp/c" -D GPUS=10000 -o "$mnt/out" "$design" || :
if [ "$rc" -eq 2 ] && grep -q "No space left on device" "$tmp/c.err" &&
	[ ! -e "$mnt/out" ]; then
	pass prealloc/full
else
	fail prealloc/full "exit $rc; $(find "$mnt/out" -type f 2>/dev/null | head -3)"
	show "$tmp/c.err"
fi
finish
