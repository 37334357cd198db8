#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# plot.sh - "teeprobe plot" on recorded sessions of the corpus: a compare
# of two on the same axes, the TEE histogram per command against report's
# counts, --same-axes, the CSV against the pictures, titles without paths.
# The pictures are read back by plotcheck.py (through their axes, not
# through plot's own numbers).
. "$(dirname "$0")/../integration/lib.sh"

pc="python3 $top/tests/tools/plotcheck.py"
corpus=$top/tests/fuzz/corpus/fuzz_trace
before=$corpus/stall-small.dat
after=$corpus/tee-small.dat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# report_cmds FILE - "NAME calls" per TEE command, from report's table
report_cmds() {
	"$TEEPROBE" report "$1" | awk '/^TEE ioctls by command/ { t = 1; next }
		t && /^  cmd / { next }
		t && /^  [A-Z_]+ +[0-9]+ / { print $1, $2; next }
		t { exit }' | sort
}

# --- a compare: BEFORE and AFTER overlaid --------------------------------------------
"$TEEPROBE" plot --csv -o "$tmp/cmp" "$before" "$after" >"$tmp/cmp.out"
check_eq "a compare writes its two pictures and two CSV files" \
	"$(printf '%s\n' "$tmp"/cmp-{timeline,hist}.{svg,csv} | sort)" \
	"$(sed -n 's/^teeprobe plot: wrote //p' "$tmp/cmp.out" | sort)"
for panel in tee netrx tcp; do
	check_eq "compare timeline, $panel panel: one line of each session" "before after" \
		"$($pc series "$tmp/cmp-timeline.svg" | awk -v p=$panel '$1 == p { printf "%s%s", s, $2; s = " " }')"
done
check "compare timeline: every value of both sessions inside the one set of axes" \
	$pc covers "$tmp/cmp-timeline.svg" "$tmp/cmp-timeline.csv"
check "compare histograms: the steps drawn are the CSV's counts, both sessions" \
	$pc steps "$tmp/cmp-hist.svg" "$tmp/cmp-hist.csv"
for panel in netrx tcp; do
	check_eq "compare histograms, $panel panel: a series of each session" "after before" \
		"$($pc series "$tmp/cmp-hist.svg" | awk -v p=$panel '$1 == p { print $2 }' | sort -u | xargs)"
done
check_eq "compare histograms, TEE panel: AFTER's commands only (report: BEFORE has no TEE call)" \
	"$(report_cmds "$before" | wc -l) after" \
	"$(report_cmds "$before" | wc -l) $($pc series "$tmp/cmp-hist.svg" | awk '$1 == "tee" { print $2 }' | sort -u | xargs)"
"$TEEPROBE" plot -o "$tmp/cmpi" -i "$before" -i "$after" >/dev/null
check "plot takes BEFORE AFTER and -i BEFORE -i AFTER alike" \
	cmp -s "$tmp/cmp-hist.svg" "$tmp/cmpi-hist.svg"

# --- the TEE histogram, one series per command, against report ----------------------
"$TEEPROBE" plot --csv -o "$tmp/one" "$after" >/dev/null
want=$(report_cmds "$after")
check "report names TEE commands in $after (the reference)" test "$(echo "$want" | wc -l)" -ge 2
check_eq "the TEE histogram has one series per command, with report's counts" "$want" \
	"$($pc series "$tmp/one-hist.svg" | awk '$1 == "tee" { print $4, $3 }' | sort)"
check_eq "... and so has its CSV" "$want" \
	"$(awk -F, '$2 == "tee" { n[$3] += $7 } END { for (c in n) print c, n[c] }' "$tmp/one-hist.csv" | sort)"
check_eq "... and so has the compare's AFTER" "$want" \
	"$($pc series "$tmp/cmp-hist.svg" | awk '$1 == "tee" && $2 == "after" { print $4, $3 }' | sort)"
check "one session's histograms: the steps drawn are the CSV's counts" \
	$pc steps "$tmp/one-hist.svg" "$tmp/one-hist.csv"
servers=$("$TEEPROBE" report "$after" | sed -n 's/.*from \([0-9]*\) server and .*/\1/p')
check "report counts server handshakes in $after (the reference)" test "${servers:-0}" -gt 0
check_eq "CSV: the handshake histogram counts report's server handshakes" "$servers" \
	"$(awk -F, '$2 == "tcp" { n += $7 } END { print n }' "$tmp/one-hist.csv")"
check_eq "CSV: handshakes/s times the window length, summed, is that count too" "$servers" \
	"$(awk -F, '$3 == "handshakes/s" { n += $7 * ($5 - $4) } END { printf "%.0f\n", n }' \
	   "$tmp/one-timeline.csv")"

# --- --same-axes -----------------------------------------------------------------------
"$TEEPROBE" plot --separate -o "$tmp/sep" "$before" "$after" >/dev/null
"$TEEPROBE" plot --separate --same-axes --csv -o "$tmp/same" "$before" "$after" >/dev/null
for pic in timeline hist; do
	a=$($pc ranges "$tmp/sep-before-$pic.svg")
	b=$($pc ranges "$tmp/sep-after-$pic.svg")
	check "--separate alone: the two ${pic}s have their own axes (else this proves nothing)" \
		test -n "$a" -a "$a" != "$b"
	check_eq "--same-axes: the two ${pic}s have equal axis ranges" \
		"$($pc ranges "$tmp/same-before-$pic.svg")" "$($pc ranges "$tmp/same-after-$pic.svg")"
done
check "--same-axes: each session's timeline values inside the shared axes (before)" \
	$pc covers "$tmp/same-before-timeline.svg" "$tmp/same-before-timeline.csv"
check "... (after)" $pc covers "$tmp/same-after-timeline.svg" "$tmp/same-after-timeline.csv"

# --- the demo's case, when "make demo" has run: temporary memory (a
# SHM_REGISTER per call) before, registered memory after
lab=${TEEPROBE_DEMO:-$top/build/demo}/guest/lab
if [ -e "$lab/hard-temp-1000/trace.dat" ] && [ -e "$lab/hard-reg-1000/trace.dat" ]; then
	"$TEEPROBE" plot --csv -o "$tmp/demo" "$lab/hard-temp-1000/trace.dat" \
		"$lab/hard-reg-1000/trace.dat" >/dev/null
	for s in before:hard-temp after:hard-reg; do
		check_eq "demo compare: ${s%%:*}'s TEE series are report's commands of ${s#*:}" \
			"$(report_cmds "$lab/${s#*:}-1000/trace.dat")" \
			"$($pc series "$tmp/demo-hist.svg" | awk -v s=${s%%:*} '$1 == "tee" && $2 == s { print $4, $3 }' | sort)"
	done
	# the finding: a SHM_REGISTER per INVOKE before, one per session after
	check_eq "demo compare: SHM_REGISTER per INVOKE, before and after" "before 1.00 after 0.00" \
		"$($pc series "$tmp/demo-hist.svg" |
		   awk '$1 == "tee" { n[$2 " " $4] = $3 }
			END { printf "before %.2f after %.2f\n",
			      n["before SHM_REGISTER"] / n["before INVOKE"],
			      n["after SHM_REGISTER"] / n["after INVOKE"] }')"
	check "demo compare: the steps drawn are the CSV's counts" \
		$pc steps "$tmp/demo-hist.svg" "$tmp/demo-hist.csv"
	check "demo compare: both timelines inside the one set of axes" \
		$pc covers "$tmp/demo-timeline.svg" "$tmp/demo-timeline.csv"
else
	skip "demo compare of hard-temp and hard-reg" "no $lab/hard-{temp,reg}-1000/trace.dat (make demo)"
fi

# --- titles from the session, never a path ---------------------------------------------
mkdir -p "$tmp/run/tp-out"
cp "$after" "$tmp/run/tp-out/guestfile.dat"
"$TEEPROBE" plot --csv "$tmp/run/tp-out/guestfile.dat" >/dev/null
for f in "$tmp"/run/tp-out/guestfile-{timeline,hist}.svg; do
	check "$(basename "$f"): no path or file name in its texts" \
		sh -c "! $pc texts '$f' | grep -E 'tp-out|guestfile|\\.dat|$tmp'"
	check "$(basename "$f"): the title says the command, length, kernel and CPUs" \
		sh -c "$pc texts '$f' | grep -E '^hsbench, [0-9.]+ s, Linux [^ ]+ [^ ]+, 2 CPUs$'"
done
check "the CSV holds no path either" \
	sh -c "! grep -E 'tp-out|guestfile|\\.dat' '$tmp'/run/tp-out/guestfile-*.csv"

# --- every option of plot's help in the bash completion and the man page ---
for opt in $("$TEEPROBE" plot --help | grep -oE -- '--[a-z-]+' | sort -u); do
	check "plot $opt: in the bash completion and in teeprobe-plot.rst" sh -c \
		"grep -E '^	plot\) opts=.*(\"| )$opt( |\")' '$top/tools/completion/teeprobe' &&
		 grep -qE -- '^\`\`(-[a-z], )?$opt' '$top/Documentation/teeprobe-plot.rst'"
done

# --- usage -------------------------------------------------------------------------------
"$TEEPROBE" plot -i "$after" -i "$after" -i "$after" >/dev/null 2>&1
check_eq "plot refuses a third session (exit 2)" 2 $?
"$TEEPROBE" plot --same-axes -o "$tmp/x" "$before" "$after" >/dev/null 2>&1
check_eq "--same-axes without --separate is a usage error (a compare has them)" 2 $?
"$TEEPROBE" plot --separate -o "$tmp/x" "$after" >/dev/null 2>&1
check_eq "--separate of one session is a usage error" 2 $?
"$TEEPROBE" plot -i "$before" -i "$after" "$after" >/dev/null 2>&1
check_eq "plot refuses -i twice with a file argument" 2 $?
"$TEEPROBE" plot -o "$tmp/bad" "$before" /etc/os-release >/dev/null 2>&1
check_eq "a compare with an unreadable AFTER exits 1" 1 $?
check "... and writes no picture" test ! -e "$tmp/bad-timeline.svg"
done_testing
