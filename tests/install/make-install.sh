#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make-install.sh - "make install DESTDIR=... PREFIX=/usr" from a clean copy
# of the sources stages the tools, a man page per command, the docs and
# teeprobe.ko (alone) under lib/modules/KVER; "make uninstall" takes them
# all away; nothing lands on the host.
#
# Usage: make-install.sh KERNEL_ID (a stock kernel: 6.1 or 6.12)
. "$(dirname "$0")/../integration/lib.sh"
. "$top/scripts/cache.sh"
. "$top/scripts/kernels.sh"
# at least 300 s a step (a build); more when tests/run runs it at nice 19
[ "$STEP_TIMEOUT" -ge 300 ] || STEP_TIMEOUT=300

kernel_resolve "${1:?usage: make-install.sh KERNEL_ID}"
version=$(sed -n 's/^#define TEEPROBE_VERSION "\(.*\)"/\1/p' "$top/module/teeprobe.h")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/src
stage=$tmp/stage
touch "$tmp/stamp"
# The sources as a release tarball has them: no build products.
rsync -a --exclude=/.git --exclude=/build/ --exclude='*.o' --exclude='*.ko' \
	--exclude='.*.cmd' --exclude='*.mod' --exclude='*.mod.c' \
	--exclude=modules.order --exclude=Module.symvers \
	--exclude=/tools/teeprobe --exclude=/tools/plugin_teeprobe.so "$top/" "$src/"
args=(DESTDIR="$stage" PREFIX=/usr KVER="$KVER" KDIR="$KDIR")

echo "# test: make install"
check "make install DESTDIR=STAGE PREFIX=/usr KVER=$KVER" make -C "$src" -j2 install "${args[@]}"
bin=$stage/usr/bin/teeprobe
check_eq "the tools: usr/bin/teeprobe --version" "teeprobe $version" "$("$bin" --version 2>&1)"
# libtraceevent's plugin directory, where trace-cmd looks, whatever PREFIX
plugin=$stage/usr/lib/$(cc -print-multiarch)/traceevent/plugins/plugin_teeprobe.so
check "the libtraceevent plugin, a shared object with its loader" sh -c \
	"nm -D '$plugin' | grep -qw tep_plugin_loader"

check "bash completion for every command" sh -c \
	"grep -q 'analyze check compare help plot record report stat' '$stage/usr/share/bash-completion/completions/teeprobe'"

man1=$stage/usr/share/man/man1
# The commands as the tool itself lists them, each with its own page
commands=$("$bin" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
check "teeprobe --help lists commands" test -n "$commands"
for page in teeprobe $(printf 'teeprobe-%s\n' $commands); do
	f=$man1/$page.1
	if [ ! -f "$f" ]; then
		tap_result 1 "man page $page(1) is installed"
		continue
	fi
	out=$(MANWIDTH=100 LC_ALL=C.UTF-8 man -l "$f" 2>"$tmp/man.err")
	rc=$?
	if [ $rc = 0 ] && ! grep -Eq 'not defined|error' "$tmp/man.err" &&
		head -n 1 <<<"$out" | grep -q "^${page^^}(1) " &&
		grep -Eq "^ +$page - [^ ]" <<<"$out"; then
		tap_result 0 "man -l renders $page(1): header, NAME"
	else
		tap_result 1 "man -l renders $page(1): header, NAME"
		{ head -n 5 <<<"$out"; cat "$tmp/man.err"; } | diag
	fi
	missing=""
	for sect in SYNOPSIS DESCRIPTION OPTIONS "SEE ALSO"; do
		grep -q "^$sect\$" <<<"$out" || missing="$missing $sect"
	done
	check_eq "$page(1) has SYNOPSIS, DESCRIPTION, OPTIONS, SEE ALSO" "" "$missing"
	# Every long option of the command's --help is in its page (whose
	# troff source spells "-" as "\-"), as a whole word.
	[ "$page" = teeprobe ] && continue
	sed 's/\\-/-/g' "$f" >"$tmp/page.txt"
	missing=""
	for opt in $("$bin" "${page#teeprobe-}" --help | grep -Eo -- '--[a-z][a-z-]*' | sort -u); do
		[ "$opt" = --help ] && continue
		grep -Eq -- "$opt([^a-z-]|\$)" "$tmp/page.txt" || missing="$missing $opt"
	done
	check_eq "$page(1) documents every option of '${page/-/ } --help'" "" "$missing"
done
check "man pages are teeprobe*.1 only" sh -c "! ls '$man1' | grep -v '^teeprobe.*\.1\$'"

doc=$stage/usr/share/doc/teeprobe
check "docs: README, COPYING, Documentation/install.rst" \
	test -f "$doc/README" -a -f "$doc/COPYING" -a -f "$doc/Documentation/install.rst"

kos=$(cd "$stage" && find . -name '*.ko*' | sort)
check_eq "the module alone, under lib/modules/$KVER/extra" \
	"./lib/modules/$KVER/extra/teeprobe.ko" "${kos%.xz}"
ko=$stage/${kos#./}
check_eq "its vermagic is $KVER" "$KVER" "$(modinfo -F vermagic "$ko" 2>&1 | cut -d' ' -f1)"
others=$(cd "$stage" && find . -type f ! -path './usr/*' ! -path "./lib/modules/$KVER/*")
check_eq "nothing outside usr/ and lib/modules/$KVER" "" "$others"
host=$(find /usr/bin /usr/local /usr/share/man/man1 "/lib/modules/$KVER" \
	-newer "$tmp/stamp" -name 'teeprobe*' 2>/dev/null)
check_eq "nothing installed on the host" "" "$host"

echo "# test: make uninstall"
check "make uninstall DESTDIR=STAGE PREFIX=/usr KVER=$KVER" make -C "$src" uninstall "${args[@]}"
left=$(cd "$stage" && find . -type f)
check_eq "no file is left in the stage" "" "$left"
# a kernel without headers (a host running a kernel it cannot build for):
# the error names the fix, KVER= or KDIR=
check_fails "make install for a kernel without headers says to set KVER= or KDIR=" \
	"no kernel build tree at /lib/modules/0\.0\.0-none/build for kernel 0\.0\.0-none: .*KVER=.*KDIR=" \
	env -u KDIR make -C "$src" install DESTDIR="$stage" PREFIX=/usr KVER=0.0.0-none
check_eq "... and stages nothing" "" "$(cd "$stage" && find . -type f)"
done_testing
