#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Developer entry points, run from anywhere inside the checkout:
#
#   tools/dev.sh deps    install the build dependencies (Debian/Ubuntu; only
#                        when something is missing, and only as root or
#                        through sudo)
#   tools/dev.sh build   deps, autoreconf -fi, ./configure --enable-werror,
#                        make, then compile examples/dgx-h100-su.rack (or a
#                        minimal design when it does not exist yet) into out/
#   tools/dev.sh test    build, `make check` (test-suite.log printed on
#                        failure), then the same suite again in build-san/,
#                        a second build with --enable-sanitizers; fails if
#                        either suite fails
#   tools/dev.sh test-clang  deps, then the sanitizer suite built with clang
#                        (CC=clang --enable-sanitizers --enable-werror) in
#                        build-clang/
#   tools/dev.sh test-quick  build, then `make check-quick` (the unit tests,
#                        error cases, goldens, layers and CLI)
#   tools/dev.sh test-clang-quick  as test-clang, with `make check-quick`
#                        (what CI runs; the whole clang suite is nightly)
#   tools/dev.sh deps-nightly  deps, and what only the nightly run needs:
#                        debootstrap, for tools/chroot-check.sh (the release
#                        tarball built and tested in a Debian 12 chroot)
#   tools/dev.sh test-tsan  deps, then a ThreadSanitizer build with clang
#                        (--enable-sanitizers=thread) in build-tsan/, and
#                        the tests that run the job graph on threads: every
#                        example on one thread and on eight (tests/golden.sh's
#                        deterministic cases) and tests/cli.sh (its -j1/-j8
#                        cases); not the Criterion unit tests, which cannot
#                        start under ThreadSanitizer (Criterion issue 274)
#
# Environment: MAKEFLAGS as usual (default -j2 here); CONFIGURE_FLAGS are
# added to both configure runs; RACKC_TEST_SIZES=full runs the heaviest
# sweeps at full size in the sanitizer builds too (tests/lib.sh; reduced
# there by default, the plain build runs them in full).
#
# The sanitizer builds live in build-san/, build-clang/ and build-tsan/
# (ignored by git).  Automake refuses an out-of-tree build while the source directory
# is itself configured, so when it is, build-san/src/ (build-clang/src/)
# gets a copy of the sources (the files git tracks plus untracked ones it
# does not ignore) and is configured in place.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
JOBS=${JOBS:--j2}

log() {
	printf '==> %s\n' "$*"
}

# Debian package names of the build and test dependencies
DEPS="build-essential autoconf automake autoconf-archive pkg-config bison
flex libxml2-dev libxml2-utils libcriterion-dev clang-format shellcheck
python3 ibsim-utils libumad2sim0 opensm infiniband-diags ibutils
graphviz chromium python3-yaml python3-jsonschema git
python3-networkx clang libclang-rt-14-dev strace libxlsxwriter-dev
python3-openpyxl libmetis-dev lldpd iproute2 libjansson-dev neovim
groff-base mandoc bash-completion vim python3-fonttools
fonts-dejavu-core"
# optional: only the nightly run's chroot check (tools/chroot-check.sh)
NIGHTLY_DEPS="debootstrap"

deps_missing() {
	if ! command -v dpkg-query >/dev/null 2>&1; then
		return 1 # not Debian: assume the tools are there
	fi
	for p in $DEPS ${WANT_NIGHTLY:+$NIGHTLY_DEPS}; do
		if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q 'install ok installed'; then
			return 0
		fi
	done
	return 1
}

deps() {
	if ! deps_missing; then
		log "dependencies installed"
		return 0
	fi
	if [ "$(id -u)" -eq 0 ]; then
		sudo=
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo=sudo
	else
		log "some dependencies are missing and I cannot install them" \
			"(not root, no sudo); trying anyway"
		return 0
	fi
	log "installing dependencies"
	# shellcheck disable=SC2086 # $sudo is empty or one word; $DEPS a list
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
	# shellcheck disable=SC2086
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $DEPS \
		${WANT_NIGHTLY:+$NIGHTLY_DEPS}
}

# configure_here [FLAG...]: autoreconf and configure the current directory
# (chained with &&: it also runs where set -e does not apply)
# shellcheck disable=SC2086 # CONFIGURE_FLAGS is a list of flags
configure_here() {
	log "autoreconf -fi" &&
		autoreconf -fi &&
		log "./configure --enable-werror $*" &&
		./configure --enable-werror ${CONFIGURE_FLAGS:-} "$@"
}

build() {
	deps
	configure_here
	log "make $JOBS"
	make "$JOBS"
	mkdir -p out
	if [ -f examples/dgx-h100-su.rack ]; then
		log "rackc -o out examples/dgx-h100-su.rack"
		./rackc -o out examples/dgx-h100-su.rack
	else
		log "no examples/dgx-h100-su.rack yet: compiling a minimal design"
		printf '%s\n' '# minimal design (tools/dev.sh)' \
			'part srv : server { height 2U }' >out/minimal.rack
		./rackc -o out out/minimal.rack
	fi
	log "artifacts in out/:"
	ls -l out
}

# CHECK: the make target of the suite, check (all) or check-quick;
# CHECK_TESTS: when set, the TESTS it runs
CHECK=check
CHECK_TESTS=

# check_in DIR: make $CHECK in DIR, printing the test logs on failure
check_in() {
	log "make $JOBS $CHECK${CHECK_TESTS:+ TESTS=$CHECK_TESTS} (in $1)"
	if [ -n "$CHECK_TESTS" ]; then
		set -- "$1" TESTS="$CHECK_TESTS"
	fi
	if ! (d=$1 && shift && cd "$d" && make "$JOBS" "$CHECK" "$@"); then
		if [ -f "$1/test-suite.log" ]; then
			log "$1/test-suite.log"
			cat "$1/test-suite.log"
		fi
		return 1
	fi
}

# sanitizer_check [DIR [CC]]: the suite again, built with the sanitizers
# ($SANFLAG: --enable-sanitizers, or =thread), in DIR (build-san/), with
# the C compiler CC (the default one)
# (called in an || list, where set -e does not apply: every step checks)
sanitizer_check() {
	dir=${1:-build-san}
	cc=${2:+CC=$2}
	sanflag=${SANFLAG:---enable-sanitizers}
	if [ ! -f config.status ]; then
		# the source tree is not configured: a plain VPATH build
		mkdir -p "$dir" || return 1
		log "../configure $sanflag --enable-werror $cc (in $dir)"
		# shellcheck disable=SC2086 # CONFIGURE_FLAGS is a list of flags
		(cd "$dir" && ../configure "$sanflag" --enable-werror \
			${CONFIGURE_FLAGS:-} $cc && make "$JOBS") || return 1
		check_in "$dir"
		return
	fi
	log "copying the sources to $dir/src (source tree is configured)"
	rm -rf "$dir/src" && mkdir -p "$dir/src" || return 1
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		# tracked files and untracked ones git does not ignore
		git ls-files -z -c -o --exclude-standard |
			tar -cf - --null -T - | (cd "$dir/src" && tar -xf -) ||
			return 1
	else
		# a tarball: copy everything but the build products
		tar -cf - --exclude=./build-san --exclude=./build-clang \
			--exclude=./build-tsan \
			--exclude=./out \
			--exclude=./config.status --exclude=./config.log \
			--exclude=./Makefile --exclude='*.o' --exclude='*.a' \
			--exclude=./rackc --exclude=./config.h . |
			(cd "$dir/src" && tar -xf -) || return 1
	fi
	# shellcheck disable=SC2086 # $cc is empty or one word
	(cd "$dir/src" && configure_here "$sanflag" $cc &&
		make "$JOBS") || return 1
	check_in "$dir/src"
}

# clang_check: the sanitizer suite built with clang (whose UBSan also
# catches what gcc's does not, e.g. arithmetic on a null pointer), in
# build-clang/
clang_check() {
	if ! command -v clang >/dev/null 2>&1; then
		log "clang is not installed"
		return 1
	fi
	sanitizer_check build-clang clang
}

# tsan_check: ThreadSanitizer over what runs on threads (the job graph of
# the derived figures, the checks and the back ends): every example at -j1
# and -j8, and the CLI's cases, built with clang in build-tsan/; a data
# race stops the run (TSAN_OPTIONS=halt_on_error=1) and fails its case.
# The Criterion unit tests are left out: Criterion cannot set up its
# shared arena under ThreadSanitizer (Criterion issue 274).
tsan_check() {
	if ! command -v clang >/dev/null 2>&1; then
		log "clang is not installed"
		return 1
	fi
	SANFLAG=--enable-sanitizers=thread
	CHECK_TESTS='tests/golden.sh tests/cli.sh'
	RACKC_GOLDEN_ONLY=deterministic
	export RACKC_GOLDEN_ONLY
	sanitizer_check build-tsan clang
}

test_all() {
	plain=ok
	san=ok
	build
	check_in . || plain=FAILED
	sanitizer_check || san=FAILED
	log "plain build: $plain; sanitizer build: $san"
	[ $plain = ok ] && [ $san = ok ]
}

case ${1:-} in
deps) deps ;;
build) build ;;
test) test_all ;;
test-clang)
	deps
	clang_check
	;;
test-quick)
	build
	CHECK=check-quick
	check_in .
	;;
test-clang-quick)
	deps
	CHECK=check-quick
	clang_check
	;;
test-tsan)
	deps
	tsan_check
	;;
deps-nightly)
	WANT_NIGHTLY=yes
	deps
	;;
*)
	echo "usage: tools/dev.sh deps|deps-nightly|build|test|test-clang|test-quick|test-clang-quick|test-tsan" >&2
	exit 2
	;;
esac
