#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernel-world.sh - scripts/kernel-world when Debian's archive cannot be
# read (make check's "newest" leg must be skipped with the reason then,
# not fail, and never use a kernel it does not have), in a cache of its own.
top=$(cd "$(dirname "$0")/../.." && pwd)
n=0 fails=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fails=$((fails + 1)); fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TEEPROBE_CACHE=$tmp/cache TP_DEBIAN_MIRROR=http://127.0.0.1:9/debian
kw=$top/scripts/kernel-world

# no world yet, the archive unreachable: exit 3, the reason kept
"$kw" newest --refresh >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $((rc != 3)) "newest, archive unreachable, nothing cached: exit 3 (got $rc)"
grep -q "cannot be fetched" "$TEEPROBE_CACHE/kernels/newest.why" 2>/dev/null
ok $? "the reason is kept for tests/run: $(cat "$TEEPROBE_CACHE/kernels/newest.why" 2>/dev/null)"
grep -q "newest: Debian sid's package lists cannot be fetched" "$tmp/err"
ok $? "and said on stderr"
test ! -s "$tmp/out"
ok $? "no directory printed"
# without --refresh it is the same: nothing is invented
"$kw" newest >"$tmp/out" 2>/dev/null
rc=$?
ok $((rc != 3)) "newest without --refresh, nothing cached: exit 3 (got $rc)"

# a world made earlier is kept, and printed, when the archive cannot be read
w=$TEEPROBE_CACHE/kernels/newest-7.0.1-amd64-000000000000
mkdir -p "$w"
echo 7.0.1-amd64 >"$w/kver"
touch "$w/.made"
ln -sfn "$(basename "$w")" "$TEEPROBE_CACHE/kernels/newest"
out=$("$kw" newest --refresh 2>"$tmp/err")
rc=$?
ok $(( rc != 0 )) "newest, archive unreachable, one cached: exit 0 (got $rc)"
test "$out" = "$w"
ok $? "the cached world is printed"
grep -q "keeping 7.0.1-amd64" "$tmp/err"
ok $? "and the message says it is kept"
out=$("$kw" newest 2>/dev/null)
test "$out" = "$w"
ok $? "without --refresh the cached world is used at once"

# bad input
"$kw" 4.19 >/dev/null 2>"$tmp/err"
rc=$?
ok $(( rc != 1 )) "an unknown id is refused (exit $rc)"
grep -q "usage: kernel-world 5.10|newest" "$tmp/err"
ok $? "with the usage"
echo "1..$n"
[ "$fails" = 0 ]
