#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# modinfo.sh - what "modinfo teeprobe" tells an administrator, for each
# built teeprobe.ko given: every parameter typed and described, with its
# default and, for a number, its range; the module's description, author,
# licence, and a version equal to the tools'.
#
# Usage: modinfo.sh KO...
# The parameters are listed from the module's own __param_str_* symbols (the
# kernel's parameter table), not from the descriptions being checked.
. "$(dirname "$0")/../integration/lib.sh"

[ $# -gt 0 ] || { echo "usage: modinfo.sh KO..." >&2; exit 2; }
version=$(sed -n 's/^#define TEEPROBE_VERSION "\(.*\)"/\1/p' "$top/module/teeprobe.h")
make -s -C "$top/tools" >/dev/null 2>&1
tools_version=$("$TEEPROBE" --version 2>/dev/null)

for ko in "$@"; do
	name=$(basename "$(dirname "$(dirname "$ko")")")
	echo "# test: modinfo $name"
	if [ ! -f "$ko" ]; then
		tap_result 1 "$ko exists"
		continue
	fi
	check_eq "version is TEEPROBE_VERSION" "$version" "$(modinfo -F version "$ko")"
	check_eq "version is the tools' (teeprobe --version)" "$tools_version" \
		"teeprobe $(modinfo -F version "$ko")"
	check_eq "license is GPL" "GPL" "$(modinfo -F license "$ko")"
	check "has a description" test -n "$(modinfo -F description "$ko")"
	check "has an author" test -n "$(modinfo -F author "$ko")"

	params=$(nm "$ko" | sed -n 's/.* __param_str_\(.*\)$/\1/p' | sort)
	typed=$(modinfo -F parmtype "$ko" | cut -d: -f1 | sort)
	check "has parameters (from its symbol table)" test -n "$params"
	check_eq "every parameter has a type (modinfo -F parmtype)" "$params" "$typed"
	for p in $(printf '%s\n%s\n' "$params" "$typed" | sort -u); do
		type=$(modinfo -F parmtype "$ko" | sed -n "s/^$p://p")
		desc=$(modinfo -F parm "$ko" | sed -n "s/^$p://p")
		# modinfo appends " (TYPE)" to the description of a typed parameter
		[ -z "$type" ] || desc=${desc%"($type)"}
		desc=${desc% }
		check "parameter $p is described (modinfo -F parm)" test -n "$desc"
		check "parameter $p: its description gives the default" \
			grep -q 'default' <<<"$desc"
		case $type in
		int|uint|long|ulong|short|ushort|byte)
			check "parameter $p ($type): its description gives the range" \
				grep -Eq '[0-9]+ to [0-9]+' <<<"$desc" ;;
		esac
	done
done
done_testing
