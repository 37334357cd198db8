#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dkms.sh - teeprobe.ko through DKMS for each stock kernel's headers, with
# every tree DKMS writes (its own, the sources, the installed modules, its
# signing key) in a temporary directory: add, build, install, status,
# remove; then "make install-dkms" and "make uninstall-dkms" the same way.
# The host's /var/lib/dkms, /usr/src and /lib/modules are checked untouched.
#
# Usage: dkms.sh KERNEL_ID... (stock kernels: 6.1 6.12)
. "$(dirname "$0")/../integration/lib.sh"
. "$top/scripts/cache.sh"
. "$top/scripts/kernels.sh"
# at least 300 s a step (a build); more when tests/run runs it at nice 19
[ "$STEP_TIMEOUT" -ge 300 ] || STEP_TIMEOUT=300

[ $# -gt 0 ] || { echo "usage: dkms.sh KERNEL_ID..." >&2; exit 2; }
version=$(sed -n 's/^#define TEEPROBE_VERSION "\(.*\)"/\1/p' "$top/module/teeprobe.h")
tmp=$(mktemp -d)
export tmp	# for dkms_tmp under check's timeout
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/stamp"
mv=teeprobe/$version

# dkms_tmp TAG CMD... - dkms with all its trees under $tmp/TAG. Debian's
# dkms signs each module and creates its key on first use: the key's
# location comes from the environment when framework.conf sets none.
dkms_tmp() {
	local t=$tmp/$1
	shift
	mkdir -p "$t/dkms" "$t/src" "$t/modules"
	mok_signing_key=$t/mok.key mok_certificate=$t/mok.pub \
		dkms --dkmstree "$t/dkms" --sourcetree "$t/src" \
		--installtree "$t/modules" --no-depmod "$@"
}

# check_line NAME LINE TEXT - pass when TEXT has LINE as one of its lines
check_line() {
	if grep -qxF -- "$2" <<<"$3"; then
		tap_result 0 "$1"
	else
		tap_result 1 "$1"
		diag <<<"$3"
	fi
}

# installed_ko TAG KVER - the module DKMS installed for KVER, if any
installed_ko() { ls "$tmp/$1/modules/$2"/updates/dkms/teeprobe.ko* 2>/dev/null; }

echo "# test: dkms source"
check_eq "dkms.conf's PACKAGE_VERSION is TEEPROBE_VERSION" "$version" \
	"$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/module/dkms.conf")"
check "make dkms-source DESTDIR=... stages usr/src/teeprobe-$version" \
	make -C "$top" dkms-source DESTDIR="$tmp/stage"
srcdir=$tmp/stage/usr/src/teeprobe-$version
check "it has dkms.conf, Kbuild and the module's sources" \
	test -f "$srcdir/dkms.conf" -a -f "$srcdir/Kbuild" -a -f "$srcdir/main.c" -a -f "$srcdir/teeprobe.h"
check_eq "and no build product" "" \
	"$(cd "$srcdir" && ls | grep -E '\.(o|ko|mod|mod\.c|cmd)$|^modules\.order$')"
mkdir -p "$tmp/a"
mv "$tmp/stage/usr/src" "$tmp/a/src"

echo "# test: dkms"
check "dkms add $mv" dkms_tmp a add "$mv"
kvers=()
for kid in "$@"; do
	kernel_resolve "$kid"
	kvers+=("$KVER")
	# dkms installs only for a kernel its install tree has
	mkdir -p "$tmp/a/modules/$KVER" "$tmp/b/modules/$KVER"
	check "dkms build $mv -k $KVER" \
		dkms_tmp a build "$mv" -k "$KVER" --kernelsourcedir "$KDIR"
done
for kid in "$@"; do
	kernel_resolve "$kid"
	check "dkms install $mv -k $KVER" \
		dkms_tmp a install "$mv" -k "$KVER" --kernelsourcedir "$KDIR"
	ko=$(installed_ko a "$KVER")
	check "$KVER: teeprobe.ko installed under updates/dkms" test -f "$ko"
	check_eq "$KVER: its vermagic is $KVER" "$KVER" \
		"$(modinfo -F vermagic "$ko" 2>&1 | cut -d' ' -f1)"
	check_eq "$KVER: its version is $version" "$version" "$(modinfo -F version "$ko" 2>&1)"
	check_eq "$KVER: signed with the temporary DKMS key" "DKMS module signing key" \
		"$(modinfo -F signer "$ko" 2>&1)"
	status=$(dkms_tmp a status "$mv" -k "$KVER" 2>&1)
	check_line "$KVER: dkms status says installed" "$mv, $KVER, $(uname -m): installed" "$status"
done
check "dkms remove $mv --all" dkms_tmp a remove "$mv" --all
check_eq "no module is left in the install tree" "" \
	"$(find "$tmp/a/modules" -name 'teeprobe.ko*')"
check_eq "nor in the DKMS tree" "" "$(ls "$tmp/a/dkms" 2>&1)"
check_eq "dkms status is empty" "" "$(dkms_tmp a status 2>&1)"

echo "# test: make install-dkms"
kver=${kvers[0]}
make_dkms=(DKMS="mok_signing_key=$tmp/b/mok.key mok_certificate=$tmp/b/mok.pub \
dkms --dkmstree $tmp/b/dkms --sourcetree $tmp/b/src --installtree $tmp/b/modules --no-depmod"
	DKMS_SRCTREE="$tmp/b/src" DKMS_KERNELS="$kver")
mkdir -p "$tmp/b/dkms"
check "make install-dkms DKMS_KERNELS=$kver" make -C "$top" install-dkms "${make_dkms[@]}"
check_eq "$kver: the module's vermagic is $kver" "$kver" \
	"$(modinfo -F vermagic "$(installed_ko b "$kver")" 2>&1 | cut -d' ' -f1)"
check "make uninstall-dkms" make -C "$top" uninstall-dkms "${make_dkms[@]}"
check_eq "nothing is left in the trees" "" \
	"$(cd "$tmp/b" && find . -name 'teeprobe*' ! -name 'mok.*')"

echo "# test: dkms host"
# DKMS's defaults on this host, which none of the above may have used
host=$(find /var/lib/dkms /usr/src /lib/modules -maxdepth 3 -newer "$tmp/stamp" 2>/dev/null)
check_eq "the host's /var/lib/dkms, /usr/src and /lib/modules are untouched" "" "$host"
done_testing
