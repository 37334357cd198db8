#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# quickstart.sh - the README's "Quick start on a real host" on a fresh
# Debian 12, as written: a chroot of bookworm (mmdebstrap, its apt variant:
# apt and the essential packages, as a new server has them) gets the
# sources as a release has them, then runs the README's own lines, read
# from the README: its apt-get install, make install-dkms, make
# install-tools install-man. Then what a user does next: DKMS has built
# teeprobe.ko for the kernel (modinfo finds it by name, as modprobe would),
# the command and its man pages are in /usr/local, and teeprobe check says
# clearly that no module is loaded (a chroot cannot load one: the guests'
# tests load it).
#
# One liberty: this host's own kernel is not Debian's, so in the chroot
# "uname -r" answers Debian 12's 6.1 kernel release (the stock guest's),
# whose headers the README's linux-headers-$(uname -r) then installs.
#
# Packages come from Debian's archive (TP_DEBIAN_MIRROR, TP_DEBIAN_SECURITY,
# as scripts/kernel-world reads them); the host's apt configuration and
# package state are not touched: the chroot has its own. Downloaded
# packages are kept in $TEEPROBE_CACHE/quickstart-debs for the next run
# (apt still installs every one of them anew in the new chroot).
#
# Usage: quickstart.sh [KERNEL_ID] (default 6.1: whose release uname
# answers)
. "$(dirname "$0")/../integration/lib.sh"
. "$top/scripts/cache.sh"
. "$top/scripts/kernels.sh"
# at least 600 s a step (apt installs a compiler; a build); more when
# tests/run runs it at nice 19
[ "$STEP_TIMEOUT" -ge 600 ] || STEP_TIMEOUT=600

kernel_resolve "${1:-6.1}"
version=$(sed -n 's/^#define TEEPROBE_VERSION "\(.*\)"/\1/p' "$top/module/teeprobe.h")
mirror=${TP_DEBIAN_MIRROR:-http://deb.debian.org/debian}
security=${TP_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}
debs=$TEEPROBE_CACHE/quickstart-debs
tmp=$(mktemp -d)
root=$tmp/root
# for the steps, which run in a shell of their own under check's timeout
export tmp root mirror security KVER top
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$debs"

if ! command -v mmdebstrap >/dev/null; then
	skip "the README's quick start on a fresh Debian 12" "no mmdebstrap (scripts/deps installs it)"
	done_testing
	exit
fi

# The README's lines: the block of "Quick start on a real host" up to its
# first blank line after the packages, commands only (no comments), each
# command whole (its backslash continuations joined)
readme_cmds() {
	awk '/^Quick start on a real host/ { on = 1; next }
	     on && /^Kernels$/ { exit }
	     on { print }' "$top/README" |
		sed -n '/^  apt-get install/,/^$/p' |
		sed 's/ *#.*$//' |
		awk '/\\$/ { sub(/\\$/, ""); line = line $0; next }
		     { line = line $0; if (line ~ /[^ ]/) print line; line = "" }' |
		sed 's/^ *//; s/  */ /g' | grep -E '^(apt-get|make) '
}
mapfile -t cmds < <(readme_cmds)
echo "# the README's lines:"
printf '%s\n' "${cmds[@]}" | diag
check "the README's quick start has the packages, make install-dkms and make install-tools install-man" \
	test "${#cmds[@]}" -ge 3 -a "${cmds[0]%% *}" = apt-get -a \
	"${cmds[1]}" = "make install-dkms" -a "${cmds[2]}" = "make install-tools install-man"

# in_root CMD - a shell command in the chroot, in a mount namespace of its
# own (proc, dev, the packages' cache), as root in /root/teeprobe
in_root() {
	unshare --mount --propagation private bash -c '
		mount -t proc proc "$root/proc" &&
		mount --rbind /dev "$root/dev" &&
		mount --bind "$1" "$root/var/cache/apt/archives" &&
		chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 \
			bash -c "cd /root/teeprobe && $2"' bash "$debs" "$1"
}
export -f in_root
export debs

# a fresh bookworm, as the project's other chroots are made
fresh() {
	mmdebstrap --mode=root --variant=apt --skip=cleanup/apt/cache \
		--aptopt='Acquire::Check-Valid-Until "false"' bookworm "$root" \
		"deb $mirror bookworm main" "deb $mirror bookworm-updates main" \
		"deb $security bookworm-security main" >"$tmp/mmdebstrap.log" 2>&1 ||
		{ tail -n 15 "$tmp/mmdebstrap.log"; return 1; }
	# a user answers apt's question; the test says yes for them
	echo 'APT::Get::Assume-Yes "true";' >"$root/etc/apt/apt.conf.d/90quickstart"
	# uname -r: the Debian kernel whose headers the README installs
	cat >"$root/usr/local/bin/uname" <<EOF
#!/bin/sh
# quickstart.sh: this host's kernel is not Debian's; Debian 12's $KVER stands in
case "\$1" in
-r) echo $KVER ;;
*) exec /bin/uname "\$@" ;;
esac
EOF
	chmod 755 "$root/usr/local/bin/uname"
	# the sources as a release has them: what git tracks (and new files)
	mkdir -p "$root/root/teeprobe"
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - -cf -) | tar -xf - -C "$root/root/teeprobe"
}
if ! run_step fresh >"$tmp/fresh.out" 2>&1 &&
	grep -qE 'Failed to fetch|Could not resolve|Temporary failure|Unable to connect' "$tmp/mmdebstrap.log"; then
	# as scripts/kernel-world does: no archive, no quick start to follow
	skip "the README's quick start on a fresh Debian 12" \
		"Debian's archive cannot be read ($(grep -m1 -E 'Failed to fetch|Could not resolve|Temporary failure|Unable to connect' "$tmp/mmdebstrap.log" | cut -c1-120))"
	done_testing
	exit
fi
if ! check "a fresh Debian 12 (mmdebstrap bookworm, apt variant) with the sources" \
	test -x "$root/usr/local/bin/uname" -a -f "$root/root/teeprobe/README"; then
	cat "$tmp/fresh.out" | tail -n 20 | diag
	done_testing
	exit
fi

check "in it, uname -r answers Debian 12's kernel, $KVER" \
	test "$(in_root 'uname -r')" = "$KVER"
check "it has no compiler, headers, DKMS or trace-cmd yet" \
	in_root '! command -v cc && ! command -v dkms && ! command -v trace-cmd && ! ls /lib/modules/*/build'
check "README: ${cmds[0]}" in_root "apt-get update -qq && ${cmds[0]}"
check "README: ${cmds[1]}" in_root "${cmds[1]}"
check_eq "DKMS built and installed teeprobe for $KVER" \
	"teeprobe/$version, $KVER, x86_64: installed" \
	"$(in_root 'dkms status teeprobe' 2>&1 | grep -F "$KVER")"
check_eq "modinfo finds it by name for $KVER, as modprobe teeprobe would" "$KVER" \
	"$(in_root "modinfo -k $KVER -F vermagic teeprobe" 2>&1 | cut -d' ' -f1)"
check "README: ${cmds[2]}" in_root "${cmds[2]}"
check_eq "teeprobe --version, from /usr/local/bin" "teeprobe $version" \
	"$(in_root 'command -v teeprobe >/dev/null && teeprobe --version' 2>&1)"
check "a man page per command in /usr/local/share/man/man1" in_root \
	'for c in "" -check -record -report -analyze -compare -plot -stat; do test -f /usr/local/share/man/man1/teeprobe$c.1 || exit 1; done'
check_fails "teeprobe check, without the module loaded, says so" \
	"cannot load modules|not loaded|modprobe" in_root 'teeprobe check'

done_testing
