#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The release check, run by hand before a release (it builds three times:
# several minutes on two cores):
#
#   1. a clean clone of the committed tree (HEAD), configured, and
#      `make distcheck`: the tarball builds out of tree, passes the quick
#      tier of tests (AM_DISTCHECK_CONFIGURE_FLAGS), installs, uninstalls
#      and cleans up after itself;
#   2. the tarball ships no build output: every file in it is tracked by
#      git or is one that autotools, bison or flex generate, and every
#      file git tracks under the shipped folders is in it;
#   3. the tarball builds with bison and flex unusable (they fail if run:
#      the generated parser and lexer ship), and its installed rackc holds
#      no path of the build or source directory (`strings`).
#
# Usage: tools/distcheck.sh [WORKDIR]  (default: a fresh temporary folder,
# removed afterwards unless something failed)

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${JOBS:--j2}
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/rackc-dist.XXXXXX")}
mkdir -p "$work"
work=$(cd "$work" && pwd)

log() {
	printf '==> %s\n' "$*"
}
die() {
	printf 'distcheck: %s (in %s)\n' "$*" "$work" >&2
	exit 1
}

log "clean clone of HEAD in $work/src"
rm -rf "$work/src"
git clone -q --no-local "$top" "$work/src"
cd "$work/src"
log "autoreconf -fi && ./configure && make $JOBS distcheck"
autoreconf -fi >"$work/autoreconf.log" 2>&1 ||
	die "autoreconf failed: $work/autoreconf.log"
./configure >"$work/configure.log" 2>&1 ||
	die "configure failed: $work/configure.log"
make "$JOBS" distcheck >"$work/distcheck.log" 2>&1 || {
	tail -n 40 "$work/distcheck.log"
	die "make distcheck failed: $work/distcheck.log"
}
tarball=$(ls "$work"/src/rackc-*.tar.gz)
name=$(basename "$tarball" .tar.gz)
log "$(basename "$tarball"): $(tar -tzf "$tarball" | grep -vc '/$') files"

log "no build output in the tarball"
tar -tzf "$tarball" | grep -v '/$' | sed "s|^$name/||" | sort >"$work/shipped"
git ls-files | sort >"$work/tracked"
# what autotools, bison and flex generate, and nothing else
comm -23 "$work/shipped" "$work/tracked" |
	grep -v -x -E 'configure|Makefile\.in|aclocal\.m4|config\.h\.in|build-aux/[^/]+|grammar/(parser\.c|parser\.h|lexer\.c)' \
		>"$work/extra" || :
if [ -s "$work/extra" ]; then
	cat "$work/extra"
	die "the tarball ships files git does not track (above)"
fi
for f in grammar/parser.c grammar/parser.h grammar/lexer.c; do
	grep -q -x "$f" "$work/shipped" || die "the tarball lacks $f"
done
# every tracked file ships, but the repository's own (git, CI set-up)
comm -13 "$work/shipped" "$work/tracked" |
	grep -v -x -E '\.gitignore|\.clang-format|m4/\.gitkeep' \
		>"$work/missing" || :
if [ -s "$work/missing" ]; then
	cat "$work/missing"
	die "tracked files missing from the tarball (above): add them to EXTRA_DIST"
fi

log "the tarball builds without bison and flex; no build path installed"
rm -rf "$work/b" "$work/dest" "$work/shim"
mkdir -p "$work/b" "$work/shim"
for t in bison flex yacc lex; do
	printf '#!/bin/sh\necho "%s must not run from a tarball" >&2\nexit 1\n' \
		"$t" >"$work/shim/$t"
	chmod +x "$work/shim/$t"
done
tar -xzf "$tarball" -C "$work/b"
(cd "$work/b/$name" &&
	PATH=$work/shim:$PATH ./configure --prefix=/usr/local \
		>"$work/b-configure.log" 2>&1 &&
	PATH=$work/shim:$PATH make "$JOBS" >"$work/b-make.log" 2>&1 &&
	make install DESTDIR="$work/dest" >"$work/b-install.log" 2>&1) ||
	die "the tarball did not build without bison and flex: $work/b-*.log"
bin=$work/dest/usr/local/bin/rackc
[ -x "$bin" ] || die "no installed rackc"
if strings "$bin" | grep -F -e "$work" -e "$top"; then
	die "the installed rackc holds a build path (above)"
fi
"$bin" --stdlib="$work/dest/usr/local/share/rackc" \
	--check "$work/b/$name/examples/dgx-h100-su.rack" ||
	die "the installed rackc cannot check an example with the installed library"
log "distcheck passed"
if [ $# -eq 0 ]; then
	rm -rf "$work"
fi
