#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t88-packages - the Debian packages end to end, on Debian's stock 6.1: "dpkg
# -i" of teeprobe and teeprobe-dkms (made by "make deb" on the host, in
# build/deb) into this guest's root (the host's, read-only under a tmpfs
# overlay: dpkg writes to the tmpfs), DKMS builds teeprobe.ko for the running
# kernel in the package's postinst, modprobe loads it, the installed
# "teeprobe check" passes; "dpkg --purge" removes the module, DKMS's tree,
# the sources, the command and every file the packages installed.
# Only in the 6.1 guest, and only when named (not in make check: some 9
# minutes under TCG, 6.5 of them in dpkg -i: dpkg reads its database over
# 9p and DKMS compiles in the guest); the other guests skip it:
#   make deb && scripts/build-modules 6.1 && make -C tools && make -C lab
#   tests/vm/vm-run -q -k 6.1 -t 1500 -o build/vm/t88 -- \
#	tests/integration/suite tests/integration/t88-packages.sh
. "$(dirname "$0")/lib.sh"
# dpkg -i: 6.5 to 11 minutes here, with the host busy or not
STEP_TIMEOUT=1200
version=$(sed -n 's/^#define TEEPROBE_VERSION "\(.*\)"/\1/p' "$top/module/teeprobe.h")
kver=$(uname -r)
deb=$top/build/deb/teeprobe_${version}-1_$(dpkg --print-architecture).deb
dkms_deb=$top/build/deb/teeprobe-dkms_${version}-1_all.deb

only_on_61 "the packages install and purge" "in the 6.1 guest only"
if [ -n "$TP_SUITE_ALL" ]; then
	skip "the packages install and purge" "not in the whole suite: run it alone"
	done_testing
	exit
fi
if [ ! -f "$deb" ] || [ ! -f "$dkms_deb" ]; then
	skip "the packages install and purge" "no packages in build/deb: make deb"
	done_testing
	exit
fi

# leftovers - what of the packages, DKMS's builds and dpkg's records is
# on this root (globs, not a find over 9p: that takes a minute here)
leftovers() {
	ls -d /usr/bin/teeprobe /usr/src/teeprobe-* /usr/share/man/man1/teeprobe*.1* \
		/usr/share/doc/teeprobe /usr/share/doc/teeprobe-dkms \
		/usr/share/bash-completion/completions/teeprobe \
		/lib/systemd/system/teeprobe-prometheus.* /etc/systemd/system/*/teeprobe-prometheus.* \
		/var/lib/systemd/deb-systemd-helper-*/*teeprobe* \
		/var/lib/systemd/deb-systemd-helper-*/*/*teeprobe* \
		/var/lib/dkms/teeprobe /lib/modules/*/updates/dkms/teeprobe.ko* \
		/var/lib/dpkg/info/teeprobe* 2>/dev/null
	dpkg-query -W -f '${Package} ${Status}\n' 'teeprobe*' 2>/dev/null |
		grep -v ' not-installed$'
}
export -f leftovers

check_eq "no teeprobe package or file before" "" "$(leftovers)"
check "teeprobe.ko is not loaded" sh -c '! test -e /sys/module/teeprobe'

# DKMS's <(...) needs /dev/fd, which udev makes on a booted system and
# this guest's devtmpfs lacks
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd

# A host with Debian's stock 6.1 alone: this root (the host's) also has the
# 6.12 kernel's modules and headers, for which DKMS's postinst would build
# too (it builds for the running kernel and the newest), minutes more under
# TCG. An empty tmpfs over each other kernel's directory hides it (DKMS
# skips a kernel without headers).
hidden=()
for d in /lib/modules/*; do
	[ "${d##*/}" = "$kver" ] || ! mount -t tmpfs -o size=1m,mode=755 none "$d" || hidden+=("$d")
done

# a copy in the guest's tmpfs: dpkg reads it twice, and the host may be
# making new ones (tests/install/packages.sh)
mkdir -p /tmp/t88
cp "$deb" "$dkms_deb" /tmp/t88/ || { echo "# cannot copy the packages"; exit 1; }
deb=/tmp/t88/${deb##*/} dkms_deb=/tmp/t88/${dkms_deb##*/}

# man-db's trigger rebuilds its index of every page under TCG: minutes
echo 'man-db man-db/auto-update boolean false' | debconf-set-selections
export DEBIAN_FRONTEND=noninteractive
check "dpkg -i teeprobe teeprobe-dkms (DKMS builds the module in the postinst)" \
	dpkg -i "$deb" "$dkms_deb"
check_eq "both packages are installed" "install ok installed
install ok installed" "$(dpkg-query -W -f '${Status}\n' teeprobe teeprobe-dkms 2>&1)"
check "dkms status: teeprobe/$version installed for $kver" sh -c \
	"dkms status teeprobe/$version -k $kver | grep -q ': installed'"
ko=$(modinfo -n teeprobe 2>/dev/null)
check_eq "modprobe finds the DKMS build under updates/dkms" \
	"/lib/modules/$kver/updates/dkms/teeprobe.ko" "$ko"
check_eq "its vermagic is the running kernel's" "$kver" \
	"$(modinfo -F vermagic teeprobe 2>&1 | cut -d' ' -f1)"
check "the timer ships disabled" sh -c \
	'! test -e /etc/systemd/system/timers.target.wants/teeprobe-prometheus.timer'
# every file the packages installed, from dpkg's own lists
files=$(dpkg -L teeprobe teeprobe-dkms 2>/dev/null | while read -r f; do [ -f "$f" ] && echo "$f"; done)
check "modprobe teeprobe" modprobe teeprobe
check_eq "the module's debugfs version" "teeprobe $version kernel $kver" \
	"$(cat $DEBUGFS/version 2>&1)"
check "the installed teeprobe check passes" /usr/bin/teeprobe check
unit=/lib/systemd/system/teeprobe-prometheus.service
check "the unit's commands write the textfile collector's file" sh -c \
	"$(sed -n 's/^ExecStartPre=//p' $unit) && $(sed -n 's/^ExecStart=//p' $unit) &&
	 grep -qx 'teeprobe_up 1' /var/lib/prometheus/node-exporter/teeprobe.prom"
rm -f /var/lib/prometheus/node-exporter/teeprobe.prom
rmdir /var/lib/prometheus/node-exporter /var/lib/prometheus 2>/dev/null
check "rmmod teeprobe" rmmod teeprobe

check "dpkg --purge teeprobe teeprobe-dkms" dpkg --purge teeprobe teeprobe-dkms
check_eq "nothing is left: files, DKMS tree, module, dpkg's records" "" "$(leftovers)"
check_eq "and none of the files dpkg had listed" "" \
	"$(for f in $files; do [ ! -e "$f" ] || echo "$f"; done)"
check_eq "dkms status is empty" "" "$(dkms status teeprobe 2>&1)"
check "modprobe no longer finds teeprobe" sh -c '! modinfo teeprobe >/dev/null 2>&1'
for d in "${hidden[@]}"; do umount "$d"; done
done_testing
