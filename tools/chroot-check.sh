#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The release's chroot check, run by hand (as root, with network access)
# before a release and by the nightly run (RACKC_NIGHTLY=1 .ci/run): the
# tarball builds and passes its tests in a pristine Debian 12 system that
# holds only what doc/usage.md names for building from a tarball.
#
#   1. a clean clone of the committed tree (HEAD), configured, and
#      `make dist`: the release tarball;
#   2. `debootstrap --variant=minbase bookworm`: a minimal Debian 12 root,
#      into which go only $CHROOT_PACKAGES (default: build-essential,
#      pkg-config and libxml2-dev; no bison, flex or autotools: the check
#      fails if any of them is there, and the build fails if it needs
#      them, since they cannot run);
#   3. inside the root, as an unprivileged user: the tarball unpacked,
#      `./configure && make && make check` (the plain suite, every test
#      driver); the check fails if a case fails or errs;
#   4. the optional dependencies behave alike: configure's summary says
#      that each optional library it did not find is off (criterion,
#      xlsxwriter, metis, jansson), and the tests that need one report
#      their cases skipped (tests/no-criterion.sh, tests/xlsx.sh,
#      tests/lsp.sh), not failed.
#
# It prints the wall time of each step and the suite's case counts.
# /proc and a private /dev (a tmpfs with the usual device nodes, never the
# host's /dev) are mounted in the root and always unmounted on exit; the
# working folder is removed only when nothing is mounted under it any
# longer, and kept when something failed.
#
# Usage: tools/chroot-check.sh [WORKDIR]  (default: a fresh temporary
# folder, removed afterwards unless something failed)
# Environment: CHROOT_MIRROR (default http://deb.debian.org/debian),
# CHROOT_PACKAGES (the packages installed in the root), CHROOT_CACHE (a
# folder that keeps downloaded .deb files between runs), JOBS (-j2).
# Needs root, debootstrap (Debian package `debootstrap`) and network
# access to the mirror; about 20-40 minutes on two cores, most of it the
# suite.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${JOBS:--j2}
MIRROR=${CHROOT_MIRROR:-http://deb.debian.org/debian}
PACKAGES=${CHROOT_PACKAGES:-build-essential pkg-config libxml2-dev}
SUITE=bookworm
# what a tarball must build without
FORBIDDEN="bison flex yacc lex autoconf autoreconf automake aclocal"

log() {
	printf '==> %s\n' "$*"
}
die() {
	printf 'chroot-check: %s (in %s)\n' "$*" "$work" >&2
	exit 1
}

if [ "$(id -u)" -ne 0 ]; then
	echo "chroot-check: must run as root (debootstrap, chroot, mount)" >&2
	exit 2
fi
command -v debootstrap >/dev/null 2>&1 || {
	echo "chroot-check: debootstrap is not installed" \
		"(apt-get install debootstrap)" >&2
	exit 2
}

work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/rackc-chroot.XXXXXX")}
mkdir -p "$work"
work=$(cd "$work" && pwd)
root=$work/root
user=builder

# mounts_under DIR: the mount points at or below DIR, deepest first
mounts_under() {
	awk -v r="$1" '$5 == r || index($5, r "/") == 1 { print $5 }' \
		/proc/self/mountinfo | sort -r
}

unmount_all() {
	for m in $(mounts_under "$root"); do
		umount "$m" 2>/dev/null || umount -l "$m" ||
			echo "chroot-check: cannot unmount $m" >&2
	done
}

status=1
cleanup() {
	unmount_all
	if [ -n "$(mounts_under "$root")" ]; then
		echo "chroot-check: still mounted under $root; left in place" >&2
	elif [ "$status" -eq 0 ] && [ "$keep" = no ]; then
		rm -rf "$work"
	elif [ "$status" -ne 0 ]; then
		echo "chroot-check: logs and root kept in $work" >&2
	fi
}
if [ $# -eq 0 ]; then
	keep=no
else
	keep=yes
fi
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

t0=$(date +%s)
step=$t0
lap() {
	now=$(date +%s)
	log "$1: $((now - step)) s"
	step=$now
}

in_root() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		LC_ALL=C DEBIAN_FRONTEND=noninteractive "$@"
}

#### 1. the tarball
log "clean clone of HEAD in $work/src; make dist"
rm -rf "$work/src"
git clone -q --no-local "$top" "$work/src"
(cd "$work/src" && autoreconf -fi && ./configure && make "$JOBS" dist) \
	>"$work/dist.log" 2>&1 || {
	tail -n 30 "$work/dist.log"
	die "make dist failed: $work/dist.log"
}
tarball=$(ls "$work"/src/rackc-*.tar.gz)
name=$(basename "$tarball" .tar.gz)
lap "tarball $name.tar.gz"

#### 2. the root
log "debootstrap --variant=minbase $SUITE $root $MIRROR"
unmount_all
rm -rf "$root"
set -- --variant=minbase
if [ -n "${CHROOT_CACHE:-}" ]; then
	mkdir -p "$CHROOT_CACHE"
	set -- "$@" --cache-dir="$(cd "$CHROOT_CACHE" && pwd)"
fi
debootstrap "$@" "$SUITE" "$root" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
	tail -n 20 "$work/debootstrap.log"
	die "debootstrap failed: $work/debootstrap.log"
}
unmount_all # whatever debootstrap left mounted

mount -t proc proc "$root/proc"
# a private /dev: the host's is never bound in, so that removing the root
# cannot touch it
mount -t tmpfs -o mode=0755,nosuid dev "$root/dev"
for n in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
	d=${n%%:*}
	maj=${n#*:}
	min=${maj#*:}
	maj=${maj%%:*}
	mknod -m 0666 "$root/dev/$d" c "$maj" "$min"
done
mkdir -m 1777 "$root/dev/shm"
ln -s /proc/self/fd "$root/dev/fd"
ln -s /proc/self/fd/0 "$root/dev/stdin"
ln -s /proc/self/fd/1 "$root/dev/stdout"
ln -s /proc/self/fd/2 "$root/dev/stderr"
cp /etc/resolv.conf "$root/etc/resolv.conf"

log "apt-get install $PACKAGES"
# shellcheck disable=SC2086 # PACKAGES is a list
in_root sh -c "apt-get update -q && apt-get install -y -q \
	--no-install-recommends $PACKAGES" >"$work/apt.log" 2>&1 || {
	tail -n 20 "$work/apt.log"
	die "installing the packages failed: $work/apt.log"
}
if [ -n "${CHROOT_CACHE:-}" ]; then
	cp "$root"/var/cache/apt/archives/*.deb "$CHROOT_CACHE/" 2>/dev/null || :
fi
for t in $FORBIDDEN; do
	if in_root sh -c "command -v $t" >/dev/null 2>&1; then
		die "$t is installed in the root: the check proves nothing"
	fi
done
in_root useradd -m -s /bin/sh "$user"
uid=$(in_root id -u "$user")
gid=$(in_root id -g "$user")
home=$root/home/$user
cp "$tarball" "$home/"
chown "$uid:$gid" "$home/$name.tar.gz"
lap "root with $(in_root dpkg-query -W -f='.\n' | wc -l) packages"

#### 3. build and test as $user
# as_user LOG CMD: run the shell command CMD in the unpacked tarball as
# $user, its output into $work/LOG
as_user() {
	chroot --userspec="$uid:$gid" "$root" /usr/bin/env -i \
		HOME="/home/$user" USER="$user" PATH=/usr/local/bin:/usr/bin:/bin \
		LC_ALL=C /bin/sh -c "cd \"\$HOME/$name\" && $2" >"$work/$1" 2>&1
}
chroot --userspec="$uid:$gid" "$root" /bin/tar -xzf \
	"/home/$user/$name.tar.gz" -C "/home/$user"
as_user configure.log ./configure || {
	tail -n 20 "$work/configure.log"
	die "configure failed in the root: $work/configure.log"
}
lap configure
as_user make.log "make $JOBS" || {
	tail -n 30 "$work/make.log"
	die "make failed in the root: $work/make.log"
}
lap make
suite=ok
as_user check.log "make $JOBS check" || suite=failed
cp "$home/$name/test-suite.log" "$work/test-suite.log" 2>/dev/null || :
lap "make check ($suite)"

#### 4. report: case counts, failures, optional libraries
if ! grep -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):' "$work/check.log"; then
	# a suite that stopped part-way: the cases reported so far
	for w in PASS SKIP XFAIL FAIL XPASS ERROR; do
		echo "# $w (so far): $(grep -c "^$w:" "$work/check.log")"
	done
	grep -E '^(FAIL|ERROR|XPASS):' "$work/check.log" || :
	die "no test summary in $work/check.log (the suite stopped)"
fi
log "skipped cases, by driver:"
sed -n 's/^SKIP: \([^ ]*\).*/\1/p' "$work/check.log" | sort | uniq -c
if [ "$suite" != ok ] ||
	grep -E -q '^(FAIL|ERROR|XPASS):' "$work/check.log"; then
	grep -E '^(FAIL|ERROR|XPASS):' "$work/check.log" || :
	die "the suite failed in the root: $work/check.log, $work/test-suite.log"
fi

log "optional libraries (configure's summary, and their tests)"
bad=
for f in criterion:tests/no-criterion.sh xlsxwriter:tests/xlsx.sh \
	metis: jansson:tests/lsp.sh; do
	lib=${f%%:*}
	drv=${f#*:}
	ans=$(sed -n "s/^  $lib: *//p" "$work/configure.log")
	printf '  %-11s %s\n' "$lib:" "${ans:-(not in the summary)}"
	case $ans in
	yes) continue ;;
	no) ;;
	*)
		bad="$bad $lib"
		continue
		;;
	esac
	# without the library, its test's cases are all skipped
	if [ -n "$drv" ]; then
		if ! grep -q "^SKIP: $drv" "$work/check.log" ||
			grep -q "^PASS: $drv" "$work/check.log"; then
			echo "  $drv does not report its cases skipped without $lib"
			bad="$bad $drv"
		fi
	fi
done
[ -z "$bad" ] || die "optional libraries do not behave alike:$bad"
grep -q '^  grammar: *shipped$' "$work/configure.log" ||
	die "configure did not use the shipped parser and lexer"

log "total wall time: $(($(date +%s) - t0)) s"
log "chroot check passed"
status=0
