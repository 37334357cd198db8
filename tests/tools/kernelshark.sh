#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kernelshark.sh - KernelShark 2 (Debian 12's 2.2.1) opens teeprobe's
# sessions under Xvfb: its window maps and names the file, a grab of it
# holds a drawn timeline (kscheck.py: coloured pixels in several hues, over
# a wide span), it quits with status 0, and it loaded plugin_teeprobe.so,
# whose handshake text libkshark's Info column then prints. The timeline
# check is shown to fail on a window with no file and on trace-cmd's file
# of no events. With plugin-teeprobe_tee.so (make -C tools kshark, run
# here), a recorded session (exits only, each with its duration) shows
# magenta boxes, one call per exit and their time the sum of the exits'
# duration_ns as trace-cmd report prints them; a session of enter/exit
# pairs (ksteefixture.py) as many paired calls as trace-cmd report's
# pairs; without the plugin, none. Skipped, with what is missing,
# without KernelShark, Xvfb, xwd or xdotool (scripts/deps installs them for
# make check); the plugin's part without libkshark-dev.
. "$(dirname "$0")/../integration/lib.sh"

ksc="python3 $top/tests/tools/kscheck.py"
corpus=$top/tests/fuzz/corpus/fuzz_trace
tmp=$(mktemp -d)
xvfb_pid= ks_pid=
# cleanup - end this test's KernelShark and Xvfb (by their ids), remove $tmp
cleanup() {
	[ -z "$ks_pid" ] || kill "$ks_pid" 2>/dev/null
	[ -z "$xvfb_pid" ] || kill "$xvfb_pid" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

missing=
for tool in kernelshark:kernelshark Xvfb:xvfb xwd:x11-apps xdotool:xdotool; do
	command -v "${tool%%:*}" >/dev/null || missing="$missing ${tool#*:}"
done
if [ -n "$missing" ]; then
	skip "KernelShark under Xvfb opens a teeprobe session" \
		"not installed:$missing (scripts/deps installs them for make check)"
	done_testing
	exit
fi

# A display of our own: Xvfb picks a free number and writes it to fd 3
# when it accepts connections (no race with other tests' servers)
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$tmp/display" 2>"$tmp/xvfb.err" &
xvfb_pid=$!
for _ in $(seq 100); do
	[ -s "$tmp/display" ] && break
	sleep 0.2
done
if ! [ -s "$tmp/display" ]; then
	skip "KernelShark under Xvfb opens a teeprobe session" \
		"Xvfb did not start: $(tail -n 1 "$tmp/xvfb.err")"
	done_testing
	exit
fi
export DISPLAY=:$(head -n 1 "$tmp/display")
mkdir -p "$tmp/plugins"
cp "$top/tools/plugin_teeprobe.so" "$tmp/plugins/"

# ks_start NAME [FILE] - KernelShark on FILE (none: no file) in $tmp/NAME:
# a home, cache (its settings: no "running as root" dialog; no last
# session), XDG cache (Mesa's shader cache, which otherwise goes to the
# passwd entry's home whatever HOME says) and empty working directory (no
# ./trace.dat) of its own;
# libtraceevent's plugins from $tmp/plugins; the dynamic loader's log of
# the files it loads in $tmp/NAME/ld.PID; the options in ks_args (an
# array) before FILE. Sets ks_pid and ks_dir.
ks_args=()
ks_start() {
	ks_dir=$tmp/$1
	mkdir -p "$ks_dir/cache" "$ks_dir/cwd" "$ks_dir/run"
	chmod 700 "$ks_dir/run"
	printf '[General]\nnoRootWarn=true\n' >"$ks_dir/cache/setting.ini"
	(cd "$ks_dir/cwd" && exec env HOME="$ks_dir" KS_USER_CACHE_DIR="$ks_dir/cache" \
		XDG_CACHE_HOME="$ks_dir/xdg-cache" \
		XDG_RUNTIME_DIR="$ks_dir/run" TRACEEVENT_PLUGIN_DIR="$tmp/plugins" \
		LD_DEBUG=files LD_DEBUG_OUTPUT="$ks_dir/ld" LIBC_FATAL_STDERR_=1 \
		TEEPROBE_KS_DEBUG=1 \
		kernelshark "${ks_args[@]}" ${2:+"$2"} >"$ks_dir/out" 2>"$ks_dir/err") &
	ks_pid=$!
}

# ks_window TITLE - print the id of KernelShark's main window once it is
# mapped and titled TITLE (KernelShark titles it with the file once the
# file is loaded and drawn); 60 s at most. The display is this test's and
# one KernelShark runs at a time: windows are found by their titles.
ks_window() {
	local w t
	for _ in $(seq 300); do
		for w in $(xdotool search --onlyvisible --name '^Kernel Shark' 2>/dev/null); do
			t=$(xdotool getwindowname "$w" 2>/dev/null)
			[ "$t" = "$1" ] && { echo "$w"; return 0; }
		done
		kill -0 "$ks_pid" 2>/dev/null || { echo "KernelShark exited"; return 1; }
		sleep 0.2
	done
	echo "no window titled '$1' after 60 s"
	return 1
}

# ks_grab WINDOW FILE - a grab of WINDOW (xwd), once two grabs half a second
# apart are the same (the drawing is done); 20 s at most
ks_grab() {
	xwd -silent -id "$1" >"$2" || return 1
	for _ in $(seq 40); do
		sleep 0.5
		xwd -silent -id "$1" >"$2.next" || return 1
		cmp -s "$2" "$2.next" && return 0
		mv "$2.next" "$2"
	done
	echo "the window still changes after 20 s"
	return 1
}

# ks_quit WINDOW - Ctrl+Q, as a user quits; sets ks_status to KernelShark's
# exit status (its destructors close every stream), "timeout" after 30 s
ks_quit() {
	xdotool windowfocus --sync "$1" key --clearmodifiers ctrl+q 2>/dev/null
	for _ in $(seq 150); do
		kill -0 "$ks_pid" 2>/dev/null || break
		sleep 0.2
	done
	if kill -0 "$ks_pid" 2>/dev/null; then
		kill "$ks_pid"
		wait "$ks_pid"
		ks_status=timeout
	else
		wait "$ks_pid"
		ks_status=$?
	fi
	ks_pid=
}

# crashed NAME - KernelShark's stderr tells of no crash (glibc's and the
# sanitizers' words: LIBC_FATAL_STDERR_ sends glibc's there)
crashed() {
	grep -Ei 'segmentation|double free|corrupted|aborted|core dumped|free\(\)' "$tmp/$1/err"
}

# --- teeprobe sessions: the instance buffer, file versions 7 and 6 ---------------------
for f in light-small stall-small light-small-v6; do
	file=$corpus/$f.dat
	ks_start "$f" "$file"
	start=$SECONDS
	if ! w=$(ks_window "Kernel Shark ($file)"); then
		tap_result 1 "$f.dat: KernelShark opens it and titles its window with it"
		{ echo "$w"; tail -n 20 "$ks_dir/err"; } | diag
		kill "$ks_pid" 2>/dev/null
		ks_pid=
		continue
	fi
	tap_result 0 "$f.dat: KernelShark opens it and titles its window with it"
	echo "# titled after $((SECONDS - start)) s"
	grabbed=$(ks_grab "$w" "$ks_dir/window.xwd")
	check "$f.dat: the grab of its window holds a drawn timeline" \
		$ksc timeline "$ks_dir/window.xwd" || echo "$grabbed" | diag
	$ksc stats "$ks_dir/window.xwd" | diag
	ks_quit "$w"
	check_eq "$f.dat: KernelShark quits (Ctrl+Q) with status 0" 0 "$ks_status"
	check_eq "$f.dat: ... and its stderr tells of no crash" "" "$(crashed "$f")"
	check "$f.dat: it loaded plugin_teeprobe.so (the dynamic loader's log)" \
		grep -q "file=$tmp/plugins/plugin_teeprobe.so .*dynamically loaded by" "$ks_dir"/ld.*
	# (libtraceevent looks up the optional TEP_PLUGIN_ALIAS and
	# TEP_PLUGIN_OPTIONS, which the plugin does not define: the log
	# calls those look-ups errors)
	check_eq "$f.dat: ... and found every symbol it needs" "" \
		"$(grep -h 'plugin_teeprobe.so: error' "$ks_dir"/ld.* |
			grep -Ev 'undefined symbol: tep_plugin_(alias|options) ')"
done

# libkshark, which KernelShark's table reads, prints an older module's
# handshake (family=2, both addresses) through the plugin, as trace-cmd
# does (host.sh): the family by name and only the IPv4 addresses
check_eq "KernelShark's Info column without the plugin: family=2 and saddrv6" \
	"family=2 saddrv6=::ffff:198.18.0.1" \
	"$($ksc info "$corpus/light-small.dat" teeprobe_tcp_handshake |
		sed -n 's/.* \(family=[^ ]*\) .* \(saddrv6=[^ ]*\) .*/\1 \2/p')"
info=$(TRACEEVENT_PLUGIN_DIR=$tmp/plugins $ksc info "$corpus/light-small.dat" teeprobe_tcp_handshake)
check_eq "... with it, family=AF_INET and the IPv4 addresses only" 1 \
	"$(echo "$info" | grep -E '^side=server family=AF_INET sport=[0-9]+ dport=[0-9]+ saddr=198\.18\.0\.[12] daddr=198\.18\.0\.[12] syn_to_synack_ns=' |
		grep -vc 'v6=')"

# --- plugin-teeprobe_tee.so: TEE calls as boxes ---------------------------------------
# The corpus's sessions hold exits only (record without --raw), each with
# its call's duration_ns; ksteefixture.py makes tee-small.dat's exits into
# enter/exit pairs, as a --raw session has them. The boxes are magenta, a
# colour no task of KernelShark's gets; the plugin's counts of calls and
# their time (TEEPROBE_KS_DEBUG) must be those counted here from trace-cmd
# report, independently.
box_rgb=255,0,255
# grab_boxes XWD RGB KSCHECK - kscheck.py's boxes of colour RGB on a grab,
# its counts kept in XWD.boxes for the comment after the check
grab_boxes() { python3 "$3" boxes "$1" "$2" | tee "$1.boxes"; return "${PIPESTATUS[0]}"; }
kplugin=$top/tools/kshark/plugin-teeprobe_tee.so
# (built here, as make -C tools does not build it: up to date, or not at all
# without libkshark-dev, whose message is the skip's reason)
kbuilt=0
make -s -C "$top/tools" kshark >"$tmp/kshark-make" 2>&1 && kbuilt=1
# ks_boxes NAME FILE TITLE - KernelShark on FILE (ks_args as set), its
# window titled TITLE grabbed to $tmp/NAME/window.xwd; quits it
ks_boxes() {
	local w
	ks_start "$1" "$2"
	if ! w=$(ks_window "$3"); then
		tap_result 1 "$1: KernelShark opens it"
		{ echo "$w"; tail -n 20 "$ks_dir/err"; } | diag
		kill "$ks_pid" 2>/dev/null
		wait "$ks_pid" 2>/dev/null
		ks_pid=
		return 1
	fi
	ks_grab "$w" "$ks_dir/window.xwd" >/dev/null
	$ksc stats "$ks_dir/window.xwd" | diag
	ks_quit "$w"
	check_eq "$1: KernelShark quits with status 0" 0 "$ks_status"
	check_eq "$1: ... and its stderr tells of no crash" "" "$(crashed "$1")"
}
if [ "$kbuilt" = 0 ]; then
	skip "plugin-teeprobe_tee.so draws TEE calls as boxes" \
		"not built: $(tail -n 1 "$tmp/kshark-make")"
elif ! python3 "$top/tests/tools/ksteefixture.py" "$corpus/tee-small.dat" "$tmp/tee-pairs.dat" \
	>"$tmp/fixture.err" 2>&1; then
	tap_result 1 "ksteefixture.py makes a session with enter/exit pairs"
	diag <"$tmp/fixture.err"
else
	pairs=$(trace-cmd report "$tmp/tee-pairs.dat" 2>/dev/null | awk '
		/ teeprobe_tee_ioctl_(enter|exit):/ {
			# the task: "comm-PID" before "[CPU]"
			for (i = 1; i < NF; i++)
				if ($(i + 1) ~ /^\[[0-9]+\]$/)
					break
			pid = $i; sub(/.*-/, "", pid)
			if ($0 ~ / teeprobe_tee_ioctl_enter:/) {
				open[pid] = 1
			} else if (open[pid]) {
				n++
				open[pid] = 0
			}
		}
		END { print n + 0 }')
	check "the session with pairs holds enters and exits" test "$pairs" -gt 100
	echo "# $pairs enter/exit pairs (trace-cmd report)"
	ks_args=(-p "$kplugin")
	if ks_boxes tee-pairs "$tmp/tee-pairs.dat" "Kernel Shark ($tmp/tee-pairs.dat)"; then
		check "tee-pairs.dat with the plugin: the grab holds its boxes" \
			grab_boxes "$ks_dir/window.xwd" "$box_rgb" "$top/tests/tools/kscheck.py"
		diag <"$ks_dir/window.xwd.boxes"
		check "... and a drawn timeline" $ksc timeline "$ks_dir/window.xwd"
		built=$(sed -n 's/^teeprobe_tee: stream [0-9]*: [0-9]* intervals: \([0-9]*\) paired,.*/\1/p' \
			"$ks_dir/err" | sort -n | tail -n 1)
		grep '^teeprobe_tee:' "$ks_dir/err" | sort -u | diag
		check_eq "... the plugin paired as many calls as trace-cmd report shows" \
			"$pairs" "$built"
		check "... and drew the exits before any enter from their duration" \
			grep -q '^teeprobe_tee: stream [0-9]*: [0-9]* intervals: [0-9]* paired, [1-9][0-9]* from their exit.s duration, 0 open at the start' \
			"$ks_dir/err"
	fi
	ks_args=()
	if ks_boxes tee-pairs-noplugin "$tmp/tee-pairs.dat" "Kernel Shark ($tmp/tee-pairs.dat)"; then
		check_fails "tee-pairs.dat without the plugin: no boxes" "^no boxes" \
			grab_boxes "$ks_dir/window.xwd" "$box_rgb" "$top/tests/tools/kscheck.py"
		diag <"$ks_dir/window.xwd.boxes"
	fi
	# a recorded session: exits only, each call from its duration
	read -r nexit sumdur <<<"$(trace-cmd report "$corpus/tee-small.dat" 2>/dev/null | awk '
		/ teeprobe_tee_ioctl_exit:/ {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^duration_ns=/) {
					n++
					s += substr($i, 13)
				}
		}
		END { printf "%d %.0f\n", n, s }')"
	echo "# tee-small.dat: $nexit exits, $sumdur ns of calls (trace-cmd report)"
	ks_args=(-p "$kplugin")
	if ks_boxes tee-small "$corpus/tee-small.dat" "Kernel Shark ($corpus/tee-small.dat)"; then
		check "tee-small.dat (exits only) with the plugin: the grab holds its boxes" \
			grab_boxes "$ks_dir/window.xwd" "$box_rgb" "$top/tests/tools/kscheck.py"
		diag <"$ks_dir/window.xwd.boxes"
		grep '^teeprobe_tee:' "$ks_dir/err" | sort -u | diag
		check_eq "... a call per exit, drawn from its duration, and their time as trace-cmd report's" \
			"$nexit $nexit $sumdur" \
			"$(sed -n 's/^teeprobe_tee: stream [0-9]*: \([0-9]*\) intervals: 0 paired, \([0-9]*\) from their exit.s duration, 0 open at the start, 0 open at the end; 0 events skipped; \([0-9]*\) ns in closed calls$/\1 \2 \3/p' \
				"$ks_dir/err" | sort -u | tail -n 1)"
	fi
	# (a session cut short in its instance's data is no case here:
	# KernelShark 2.2.1 dies of SIGSEGV on it with or without plugins,
	# after libtracecmd's "failed to read sub buffer")
	ks_args=()
fi

# --- what a window without a timeline looks like: the check must fail ------------------
# no_timeline WHAT WINDOW - the grab of WINDOW holds no timeline, and
# KernelShark quits with status 0
no_timeline() {
	ks_grab "$2" "$ks_dir/window.xwd" >/dev/null
	check_fails "$1: the grab holds no timeline" "^no timeline" $ksc timeline "$ks_dir/window.xwd"
	$ksc stats "$ks_dir/window.xwd" | diag
	ks_quit "$2"
	check_eq "$1: KernelShark quits with status 0" 0 "$ks_status"
}
# no file at all
ks_start nofile
if w=$(ks_window "Kernel Shark"); then
	no_timeline "no file" "$w"
else
	tap_result 1 "no file: KernelShark maps its window"
	echo "$w" | diag
fi
# a file trace-cmd wrote with no events: the first second of a session,
# before anything was recorded (trace-cmd split; no tracing needed)
trace-cmd split -i "$corpus/stall-small.dat" -o "$tmp/empty.dat" 1.0 2.0 >/dev/null 2>&1
check_eq "trace-cmd's empty file holds no event" "" \
	"$(trace-cmd report "$tmp/empty.dat.1" 2>/dev/null | grep -v '^cpus=')"
ks_start empty "$tmp/empty.dat.1"
# KernelShark says the file holds no data, in a modal message, before it
# titles its window: Return closes the message (the user's Close)
for _ in $(seq 150); do
	grep -q 'contains no data' "$ks_dir/err" && break
	sleep 0.2
done
check "empty file: KernelShark says it contains no data" grep -q 'contains no data' "$ks_dir/err"
for _ in $(seq 50); do
	# (the message's title is in _NET_WM_NAME only: found by its class)
	for d in $(xdotool search --onlyvisible --classname '^kernelshark$' 2>/dev/null); do
		[ "$(xdotool getwindowname "$d" 2>/dev/null)" = kernelshark ] &&
			xdotool windowfocus --sync "$d" key Return 2>/dev/null
	done
	xdotool search --onlyvisible --name '^Kernel Shark \(' >/dev/null 2>&1 && break
	sleep 0.2
done
if w=$(ks_window "Kernel Shark ($tmp/empty.dat.1)"); then
	no_timeline "empty file" "$w"
else
	tap_result 1 "empty file: KernelShark titles its window with it once the message is closed"
	echo "$w" | diag
	kill "$ks_pid" 2>/dev/null
	wait "$ks_pid" 2>/dev/null
	ks_pid=
fi

done_testing
