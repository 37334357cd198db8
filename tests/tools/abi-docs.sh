#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# abi-docs.sh - Documentation/abi-tables.rst, which tools/abidoc/abi_doc
# prints from module/abi.h (and trace.h's window events) and which is
# committed, is what it prints now: a file, column, metric or event field
# added to abi.h without "make abi-docs" fails here, with the difference.
# The check is itself checked: abi_doc built on a copy of abi.h with a
# column more at the end of netrx_stats' must print another page.
. "$(dirname "$0")/../integration/lib.sh"

page=$top/Documentation/abi-tables.rst
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check "tools/abidoc/abi_doc builds (make -C tools abidoc)" make -C "$top/tools" abidoc
check "tools/abidoc/abi_doc prints the page" \
	sh -c '"$1" >"$2"' sh "$top/tools/abidoc/abi_doc" "$tmp/abi-tables.rst"
diff -u "$page" "$tmp/abi-tables.rst" >"$tmp/diff"
check "Documentation/abi-tables.rst is what tools/abidoc/abi_doc prints from module/abi.h" \
	test ! -s "$tmp/diff" ||
	{ cat "$tmp/diff"; echo "Documentation/abi-tables.rst is stale: run make abi-docs"; } | diag

# --- a column added to abi.h shows as a difference ----------------------------
mkdir -p "$tmp/mutated/module"
awk '/^#define TEEPROBE_NETRX_STATS_COLS\(X\)/ { block = 1 }
	block && !/\\$/ { print $0 "\\"; print "X(abi_doc_check, COUNT)"; block = 0; next }
	{ print }' "$top/module/abi.h" >"$tmp/mutated/module/abi.h"
check "abi_doc builds on abi.h with a column more in netrx_stats" \
	cc -std=gnu11 -Wall -Wextra -Werror -I"$tmp/mutated" -I"$top" \
	-o "$tmp/abi_doc" "$top/tools/abidoc/abi_doc.c"
"$tmp/abi_doc" >"$tmp/mutated.rst"
check "... its page has the column at the end of netrx_stats' header" \
	grep -q '^  # cpu raises .* abi_doc_check$' "$tmp/mutated.rst"
check "... and in teeprobe_netrx_window's fields" \
	grep -q '^  u64 abi_doc_check$' "$tmp/mutated.rst"
check "... and differs from the committed page (the check above would fail)" \
	sh -c '! diff -q "$1" "$2" >/dev/null' sh "$page" "$tmp/mutated.rst"

done_testing
