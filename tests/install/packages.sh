#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# packages.sh - the distribution packages: "make deb" builds teeprobe and
# teeprobe-dkms into build/deb, lintian finds no error in them, and they
# hold the command, its man pages, the bash completion, the Prometheus unit
# and timer and the DKMS source tree; "make rpm" builds the RPMs of
# rpm/teeprobe.spec into build/rpm with the same files. Nothing is installed
# here: tests/integration/t88-packages.sh installs and purges the .debs in
# a 6.1 guest.
#
# Usage: packages.sh
. "$(dirname "$0")/../integration/lib.sh"
STEP_TIMEOUT=600

version=$(sed -n 's/^#define TEEPROBE_VERSION "\(.*\)"/\1/p' "$top/module/teeprobe.h")
arch=$(dpkg --print-architecture)
deb=$top/build/deb/teeprobe_${version}-1_$arch.deb
dkms_deb=$top/build/deb/teeprobe-dkms_${version}-1_all.deb
rpmarch=$(uname -m)
rpm=$top/build/rpm/RPMS/$rpmarch/teeprobe-$version-1.$rpmarch.rpm
dkms_rpm=$top/build/rpm/RPMS/noarch/teeprobe-dkms-$version-1.noarch.rpm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/stamp"
pages=$(cd "$top/Documentation" && ls teeprobe*.rst | sed 's/\.rst$/.1/')

# has_files NAME LISTING PATH... - pass when LISTING has a line for each PATH
has_files() {
	local name=$1 listing=$2 missing="" f
	shift 2
	for f in "$@"; do
		grep -qxF -- "$f" <<<"$listing" || missing="$missing $f"
	done
	if [ -z "$missing" ]; then
		tap_result 0 "$name"
	else
		tap_result 1 "$name"
		echo "missing:$missing" | diag
	fi
}

echo "# test: packages deb"
check_eq "debian/changelog's upstream version is TEEPROBE_VERSION" "$version" \
	"$(cd "$top" && dpkg-parsechangelog -S Version | sed 's/-[^-]*$//')"
check "make deb" make -C "$top" deb
check "it made teeprobe and teeprobe-dkms in build/deb" test -f "$deb" -a -f "$dkms_deb"
check_eq "and left nothing in the tree's parent directory" "" \
	"$(find "$top/.." -maxdepth 1 -name 'teeprobe*_*' -newer "$tmp/stamp")"
lint=$(run_step lintian "$deb" "$dkms_deb" 2>&1)
check_eq "lintian: no error" "" "$(grep '^E:' <<<"$lint")"
[ -z "$lint" ] || diag <<<"$lint"
listing=$(dpkg-deb --contents "$deb" | awk '{ sub(/^\./, "", $6); print $6 }')
has_files "teeprobe has the command, its trace-cmd plugin, completion, unit, timer and examples" "$listing" \
	/usr/bin/teeprobe /usr/share/bash-completion/completions/teeprobe \
	"/usr/lib/$(gcc -print-multiarch)/traceevent/plugins/plugin_teeprobe.so" \
	/usr/share/doc/teeprobe/examples/teeprobe-rules.yml \
	/usr/share/doc/teeprobe/examples/teeprobe.json \
	/lib/systemd/system/teeprobe-prometheus.service \
	/lib/systemd/system/teeprobe-prometheus.timer \
	/lib/systemd/system/teeprobe-watch.service /etc/default/teeprobe-watch \
	/usr/share/doc/teeprobe/copyright
has_files "and a man page for each Documentation/teeprobe*.rst" "$listing" \
	$(sed 's|^|/usr/share/man/man1/|; s|$|.gz|' <<<"$pages")
check_eq "teeprobe depends on trace-cmd, the tracing libraries and json-c" \
	"libjson-c5 libtracecmd1 libtraceevent1 libtracefs1 trace-cmd" \
	"$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | awk '{ print $1 }' | grep -E 'trace|json' | sort | xargs)"
listing=$(dpkg-deb --contents "$dkms_deb" | awk '{ sub(/^\./, "", $6); print $6 }')
has_files "teeprobe-dkms has /usr/src/teeprobe-$version with dkms.conf and the sources" \
	"$listing" /usr/src/teeprobe-$version/dkms.conf /usr/src/teeprobe-$version/Kbuild \
	$(cd "$top/module" && ls *.c *.h | grep -v '\.mod\.c$' | sed "s|^|/usr/src/teeprobe-$version/|")
check "teeprobe-dkms depends on dkms" sh -c "dpkg-deb -f '$dkms_deb' Depends | grep -q '^dkms'"
dpkg-deb -e "$dkms_deb" "$tmp/dkms-control"
check "its postinst and prerm run DKMS" sh -c \
	"grep -q common.postinst '$tmp/dkms-control/postinst' && grep -q 'dkms remove' '$tmp/dkms-control/prerm'"

echo "# test: packages rpm"
check_eq "rpm/teeprobe.spec's Version is TEEPROBE_VERSION" "$version" \
	"$(sed -n 's/^Version:[[:space:]]*//p' "$top/rpm/teeprobe.spec")"
check "make rpm (rpmbuild -bb --nodeps)" make -C "$top" rpm
check "it made teeprobe and teeprobe-dkms in build/rpm/RPMS" test -f "$rpm" -a -f "$dkms_rpm"
listing=$(rpm -qpl "$rpm" 2>&1)
has_files "teeprobe has the command, its plugin, completion, unit, timer and man pages" "$listing" \
	/usr/bin/teeprobe /usr/share/bash-completion/completions/teeprobe \
	/usr/lib64/traceevent/plugins/plugin_teeprobe.so \
	/usr/lib/systemd/system/teeprobe-prometheus.service \
	/usr/lib/systemd/system/teeprobe-prometheus.timer \
	/usr/lib/systemd/system/teeprobe-watch.service /etc/sysconfig/teeprobe-watch \
	$(sed 's|^|/usr/share/man/man1/|' <<<"$pages")
listing=$(rpm -qpl "$dkms_rpm" 2>&1)
has_files "teeprobe-dkms has /usr/src/teeprobe-$version with dkms.conf" "$listing" \
	/usr/src/teeprobe-$version/dkms.conf /usr/src/teeprobe-$version/Kbuild \
	/usr/src/teeprobe-$version/main.c
check "its scriptlets run dkms add, install and remove" sh -c \
	"rpm -qp --scripts '$dkms_rpm' | grep -q 'dkms add' &&
	 rpm -qp --scripts '$dkms_rpm' | grep -q 'dkms install' &&
	 rpm -qp --scripts '$dkms_rpm' | grep -q 'dkms remove'"
done_testing
