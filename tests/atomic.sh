#!/bin/sh
# SPDX-License-Identifier: MIT
#
# A run's artifacts appear all together or not at all (backends/lib/outfile.c, the
# journal).  The output directory first holds the artifacts of an old run
# (the minimal example, report and ir); a new run (the DGX H100 SU, six
# back ends, more files and new directories) then commits over them:
#
#   atomic/reference         the new run, undisturbed: exit 0, no journal,
#                            backup or temporary file left
#   atomic/eio-at-rename-K   the K-th rename of the commit fails (EIO,
#                            injected with strace): exit 2, and the
#                            directory holds exactly the old files
#   atomic/killed-before-journal  killed at its first rename (the journal's):
#                            the artifacts are the old ones (temporary
#                            files stay: nothing names them yet)
#   atomic/killed-at-rename-K  the run is killed at its K-th rename; the
#                            next run into the directory (the old design,
#                            -O ir) rolls the interrupted commit back: the
#                            old files, exactly
#   atomic/killed-after-commit  killed at its first unlink (the backups,
#                            after the commit point): the next run keeps the
#                            new files and removes what was left
#
# Skipped where strace is not installed or cannot trace.
. "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 99

if ! command -v strace >/dev/null 2>&1 ||
	! strace -f -o /dev/null true >/dev/null 2>&1; then
	skip atomic "strace is not installed or cannot trace here"
	finish
fi

# LeakSanitizer cannot run under ptrace: a sanitizer build's leak check is
# off for the traced runs here (every other test keeps it)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

old() {
	"$RACKC" -j2 -O report,ir -o "$1" examples/minimal.rack
}
NEW_BE=report,cabling,nccl,slurm,ir,bom
NEW=examples/dgx-h100-su.rack

# snap DIR: every file under DIR (hidden ones too) with its checksum
snap() {
	(cd "$1" && find . -type f -exec cksum {} + | sort -k3)
}

# same NAME DIR REF: pass when DIR holds exactly the files of snapshot REF
same() {
	snap "$2" >"$tmp/now"
	if cmp -s "$tmp/now" "$3"; then
		pass "$1"
	else
		fail "$1" "the directory differs from $(basename "$3")"
		diff "$3" "$tmp/now" | sed 's/^/    | /' | head -20
	fi
}

# the old state, and the new one (the new run over the old files)
old "$tmp/ref" >"$tmp/old.err" 2>&1 || {
	fail atomic/old-run "exit $?"
	show "$tmp/old.err"
	finish
}
snap "$tmp/ref" >"$tmp/old.snap"
cp -R "$tmp/ref" "$tmp/new"
strace -f -o "$tmp/trace" -e trace=rename,renameat,renameat2 \
	"$RACKC" -j2 -O "$NEW_BE" -o "$tmp/new" "$NEW" >"$tmp/new.err" 2>&1 &&
	rc=0 || rc=$?
snap "$tmp/new" >"$tmp/new.snap"
nren=$(grep -c 'rename' "$tmp/trace" || :)
if [ "$rc" -eq 0 ] && ! grep -q '\.old\|rackc-journal\|/\.[^/]*\.[A-Za-z0-9]\{6\}$' \
	"$tmp/new.snap" && ! cmp -s "$tmp/old.snap" "$tmp/new.snap" &&
	[ "$nren" -gt 2 ]; then
	pass atomic/reference "$nren renames"
else
	fail atomic/reference "exit $rc, $nren renames"
	show "$tmp/new.err"
	show "$tmp/new.snap"
	finish
fi

# the renames of the commit are those of the journal, the artifacts and
# the commit point: a failure at each of them
k=1
while [ "$k" -le "$nren" ]; do
	w=$tmp/eio$k
	cp -R "$tmp/ref" "$w"
	strace -f -o /dev/null -e trace=rename,renameat,renameat2 \
		-e "inject=rename,renameat,renameat2:error=EIO:when=$k" \
		"$RACKC" -j2 -O "$NEW_BE" -o "$w" "$NEW" >"$w.err" 2>&1 &&
		rc=0 || rc=$?
	if [ "$rc" -ne 2 ] || ! grep -q 'Input/output error' "$w.err"; then
		fail "atomic/eio-at-rename-$k" "exit $rc"
		show "$w.err"
	else
		same "atomic/eio-at-rename-$k" "$w" "$tmp/old.snap"
	fi
	rm -rf "$w"
	k=$((k + 1))
done

# killed at its first rename, the journal's, the run has changed nothing
# (its temporary files stay: no journal names them yet)
w=$tmp/kill1
cp -R "$tmp/ref" "$w"
strace -f -o /dev/null -e trace=rename,renameat,renameat2 \
	-e inject=rename,renameat,renameat2:signal=KILL:when=1 \
	"$RACKC" -j2 -O "$NEW_BE" -o "$w" "$NEW" >"$w.err" 2>&1 && rc=0 || rc=$?
snap "$w" | grep -v ' \./\([^/]*/\)*\.[^/]*$' >"$tmp/now" || :
grep -v ' \./\([^/]*/\)*\.[^/]*$' "$tmp/old.snap" >"$tmp/old-visible" || :
if [ "$rc" -eq 0 ]; then
	fail atomic/killed-before-journal "the run was not killed"
elif cmp -s "$tmp/now" "$tmp/old-visible"; then
	pass atomic/killed-before-journal
else
	fail atomic/killed-before-journal "the artifacts changed"
	diff "$tmp/old-visible" "$tmp/now" | sed 's/^/    | /' | head -20
fi

# killed at a later rename (second, middle, last): the next run rolls back
for k in 2 $(((nren + 1) / 2)) "$nren"; do
	w=$tmp/kill$k
	rm -rf "$w"
	cp -R "$tmp/ref" "$w"
	strace -f -o /dev/null -e trace=rename,renameat,renameat2 \
		-e "inject=rename,renameat,renameat2:signal=KILL:when=$k" \
		"$RACKC" -j2 -O "$NEW_BE" -o "$w" "$NEW" >"$w.err" 2>&1 &&
		rc=0 || rc=$?
	if [ "$rc" -eq 0 ]; then
		fail "atomic/killed-at-rename-$k" "the run was not killed"
		continue
	fi
	if ! old "$w" >"$w.err2" 2>&1; then
		fail "atomic/killed-at-rename-$k" "the next run failed"
		show "$w.err2"
		continue
	fi
	same "atomic/killed-at-rename-$k" "$w" "$tmp/old.snap"
done

# killed after the commit point: the new files stay, the leftovers go
w=$tmp/killdone
cp -R "$tmp/ref" "$w"
strace -f -o /dev/null -e trace=unlink,unlinkat \
	-e inject=unlink,unlinkat:signal=KILL:when=1 \
	"$RACKC" -j2 -O "$NEW_BE" -o "$w" "$NEW" >"$w.err" 2>&1 && rc=0 || rc=$?
if [ "$rc" -eq 0 ]; then
	fail atomic/killed-after-commit "the run was not killed"
elif ! "$RACKC" -j2 -O ir -o "$w" "$NEW" >"$w.err2" 2>&1; then
	fail atomic/killed-after-commit "the next run failed"
	show "$w.err2"
else
	same atomic/killed-after-commit "$w" "$tmp/new.snap"
fi
finish
