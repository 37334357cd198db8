#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t87-faults - teeprobe.ko's error paths taken on purpose, on a kernel built
# with fault injection (the lab kernel: tests/vm/lab-kernel.config).
#
# The walks: for N = 1, 2, 3, ... a system call runs with the task's N-th
# fault injected (/proc/thread-self/fail-nth: failslab, fail_page_alloc and
# teeprobe's own points, module/fault.c), until it passes with no fault
# left to inject. Three walks: insmod teeprobe (the load), insmod teesim
# with teeprobe loaded (the late attach of its probes) and rmmod teeprobe
# while hsbench calls the TEE (the unload). Each failed load must fail with
# ENOMEM, say why when the fault fell in teeprobe's code, and leave nothing
# behind; a load that took a fault and went on must say so and unload
# cleanly; a plain insmod must work after. kmemleak is asked at the end.
#
# TP_FAULTS_RUNS=N stops each fail-nth walk after N runs (default 3, make
# check's short form; 0: to its end, make stress).
# TP_FAULTS_PARTS names the parts to run (default all: "points load attach
# unload session"), to take one of make stress's long walks alone.
# Each walk's table (N, where the fault fell, outcome, errno, its site,
# what is wrong) goes to $TP_OUT/faults/.
. "$(dirname "$0")/lib.sh"

ko=$TP_MODULES/module/teeprobe.ko
teesim=$LAB_MODULES/lab/teesim/teesim.ko
FAILNTH=$top/lab/failnth/failnth
res=${TP_OUT:-/tmp}/faults
FI=/sys/kernel/debug

if [ ! -e /proc/self/fail-nth ] || [ ! -d $FI/failslab ] || [ ! -d $FI/fail_page_alloc ]; then
	skip "fault injection walks" "kernel $TP_KERNEL has no fault injection (CONFIG_FAULT_INJECTION, FAILSLAB, FAIL_PAGE_ALLOC)"
	done_testing
	exit
fi
mkdir -p "$res"
# The suite's earlier tests may leave teeprobe or teesim loaded: each walk
# starts from neither
[ ! -d /sys/module/teeprobe ] || rmmod teeprobe
[ ! -d /sys/module/teesim ] || rmmod teesim

# leftovers - whatever of teeprobe is still in the kernel, and the kernel's
# lists of kprobes and ftrace hooks: the same before and after a failed load
leftovers() {
	local f

	for f in /sys/module/teeprobe $DEBUGFS $FI/fail_teeprobe $TRACEFS/events/teeprobe; do
		[ -e "$f" ] && echo "left: $f"
	done
	cat $FI/kprobes/list $TRACEFS/enabled_functions 2>&1
}

# left_behind - what leftovers shows now and not before (three lines at most)
left_behind() { diff <(echo "$base") <(leftovers) | grep '^>' | head -n 3 | tr '\n' ' '; }

# phases_lost - the module's count of handshakes' phases without a histogram
phases_lost() { tp_key tcp_phases phases_lost; }
# blocks_missing - the slots that want a phase block and have none now
blocks_missing() { tp_key tcp_phases blocks_missing; }
# blocks_all_there - every slot that wants a phase block has one
blocks_all_there() { [ "$(blocks_missing)" = 0 ]; }
export -f blocks_missing blocks_all_there

# since MARK - the kernel's log since the line MARK was written to it
since() { dmesg | awk -v m="$1" 'on; index($0, m) { on = 1 }'; }

# fell_in_teeprobe - did the fault of the log on stdin fall in teeprobe's
# code (a frame of the module on its stack, or one of its own points)?
# Only the reliable frames count ("? " marks a word that only looks like a
# return address): the kernel's kprobes notifier that walks teeprobe's
# NOKPROBE list as it comes has its symbols about, not its code.
fell_in_teeprobe() {
	grep -qE '^\[[^]]*\]  [A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+ \[teeprobe\]|teeprobe: fault injected at'
}

# Every allocation counts, those that may sleep and order 0 too; each fault
# is said with its stack (verbose 2), in the log only.
for a in failslab fail_page_alloc; do
	echo N >$FI/$a/ignore-gfp-wait
	echo 2 >$FI/$a/verbose
done
echo N >$FI/fail_page_alloc/ignore-gfp-highmem
echo 0 >$FI/fail_page_alloc/min-order
printk_level=$(awk '{ print $1 }' /proc/sys/kernel/printk)
dmesg -n 1
[ -w $FI/kmemleak ] && echo clear >$FI/kmemleak
base=$(leftovers)
insmod "$ko" maxactive=1 && files0=$(ls "$DEBUGFS" | wc -l) &&
	states0=$(tp_col tee_probes symbol,state) && rmmod teeprobe

# --- the walks ------------------------------------------------------------------
# A kretprobe's instances are allocated one by one (256 each for TCP's),
# the loader allocates alike for each trace event's fields: thousands of N
# whose fault falls at a site already taken, down the same error path. The
# walk steps over them: while the fault's site (its call stack's
# functions) is one it has seen the step doubles; when a new one comes
# after a step over more than one N, the walk goes back to just after the
# N before it and goes on from there one N at a time. The largest N is
# found exactly (the walk ends only on the N after the last that
# injected); a new site is found where it begins, unless it lies wholly
# inside a stretch stepped over. TP_FAULTS_RUNS bounds the runs.
runs_max=${TP_FAULTS_RUNS:-3}
parts=${TP_FAULTS_PARTS:-points load attach unload session}
# part NAME - whether the part NAME runs; a skip line when it does not
part() {
	case " $parts " in *" $1 "*) return 0 ;; esac
	skip "the part '$1' of the fault injection" "TP_FAULTS_PARTS=\"$parts\" leaves it out"
	return 1
}
# TP_FAULTS_STEP=S fails every S-th of teeprobe's points at load (default 5,
# make check's: every kind of point at least once; 1: each, make stress)
points_step=${TP_FAULTS_STEP:-5}

# fault_site - the functions of the dumped fault's stack on stdin (frames
# marked "?" left out), joined by commas; "-" when no fault was dumped
fault_site() {
	awk '/FAULT_INJECTION: forcing a failure/ { on = 1; s = ""; next }
	on && /<\/TASK>/ { on = 0; done = 1 }
	on {
		sub(/^\[[^]]*\] */, "")
		if ($0 ~ /^\? /) next
		if (match($0, /^[A-Za-z_][A-Za-z0-9_.]*\+0x/))
			s = s (s == "" ? "" : ",") substr($0, 1, RLENGTH - 3)
	}
	END { print (s == "" ? "-" : s) }'
}

# short_site - the first frames of a site past the fault machinery
short_site() {
	tr ',' '\n' | grep -vE '^(dump_stack|should_fail|__should_fail|fail_dump|should_failslab|slab_pre_alloc_hook|kmem_cache_alloc|__kmem_cache_alloc|kmalloc|__kmalloc|kzalloc|kvmalloc|__kvmalloc|__alloc_pages|alloc_pages|__get_free_pages|prepare_alloc_pages|should_fail_alloc_page|__vmalloc|vmalloc|vzalloc|teeprobe_should_fail|__alloc_percpu|pcpu)' |
		head -n 3 | paste -sd, -
}

# attempt KIND N - one run of the walk KIND with the N-th fault: sets inj
# (yes/no) and site, appends "N where outcome errno site problem" (tabs)
# to $res/KIND; status 1 when the walk cannot go on
attempt() {
	local kind=$1 n=$2 out ret err log where outcome bad=

	echo "t87: $kind n=$n." >/dev/kmsg
	case $kind in
	load) out=$("$FAILNTH" "$n" load "$ko" maxactive=1 2>&1) ;;
	attach) out=$("$FAILNTH" "$n" load "$teesim" secure_threads=1 2>&1) ;;
	unload)
		if [ ! -d /sys/module/teeprobe ] && ! insmod "$ko" maxactive=1; then
			printf '%s\t-\t-\t-\t-\tinsmod failed\n' "$n" >>"$res/$kind"
			return 1
		fi
		sleep 1	# calls in flight
		echo "t87: $kind n=$n (rmmod)." >/dev/kmsg
		out=$("$FAILNTH" "$n" unload teeprobe 2>&1) ;;
	esac || { printf '%s\t-\t-\t-\t-\t%s\n' "$n" "$out" >>"$res/$kind"; return 1; }
	read -r _ ret _ err _ inj <<<"$out"
	[ "$kind" = unload ] && log=$(since "t87: $kind n=$n (rmmod).") || log=$(since "t87: $kind n=$n.")
	site=$(echo "$log" | fault_site)
	where=kernel
	echo "$log" | fell_in_teeprobe && where=teeprobe
	# a fault that was not dumped, in teeprobe's load all the same
	echo "$log" | grep -qE 'teeprobe: (not loaded|cannot)' && where=teeprobe
	if [ "$inj" = no ]; then
		outcome=passed-no-fault-left
		[ "$ret" = 0 ] || bad="failed with no fault injected"
	elif [ "$ret" != 0 ]; then
		outcome=failed
	else
		outcome=passed-fault-taken
	fi
	case $kind in
	load)
		if [ "$outcome" = failed ]; then
			[ "$err" = ENOMEM ] || bad="errno $err"
			[ "$where" = kernel ] ||
				echo "$log" | grep -q "teeprobe: not loaded: its [a-z]* part failed (error -12)" ||
				bad="${bad:+$bad; }not said"
		elif [ "$outcome" = passed-fault-taken ] && [ "$where" = teeprobe ]; then
			echo "$log" | grep -qE "teeprobe: .*(cannot|error -12)" || bad="a fault in teeprobe not said"
		fi
		[ "$ret" != 0 ] || rmmod teeprobe || bad="${bad:+$bad; }rmmod failed"
		;;
	attach)
		[ -d /sys/module/teeprobe ] || bad="teeprobe went"
		[ "$outcome" != failed ] || [ "$err" = ENOMEM ] || bad="errno $err"
		if [ "$ret" = 0 ]; then
			# each of teesim's probes attached, or failed and said so
			if probe_states | grep -qv ' attached 0$'; then
				probe_states | grep -q ' failed -12$' &&
					echo "$log" | grep -q "teeprobe: cannot probe teesim_" ||
					bad="${bad:+$bad; }probes: $(probe_states | tr '\n' ' ')"
			fi
			rmmod teesim || bad="${bad:+$bad; }rmmod teesim failed"
		fi
		! probe_states | grep -q ' attached ' ||
			bad="${bad:+$bad; }left attached: $(probe_states | tr '\n' ' ')"
		;;
	unload)
		if [ "$outcome" = failed ]; then
			cat "$DEBUGFS/version" >/dev/null || bad="still loaded but not working"
			rmmod teeprobe || bad="${bad:+$bad; }a plain rmmod failed"
		fi
		;;
	esac
	if [ "$kind" != attach ] && [ "$(leftovers)" != "$base" ]; then
		bad="${bad:+$bad; }left: $(left_behind)"
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$where" "$outcome" "$err" \
		"$(echo "$site" | short_site)" "${bad:--}" >>"$res/$kind"
	echo "$n $site" >>"$res/$kind.sites"
	return 0
}

# walk KIND - the walk; status 0 when it found its end, 2 when it ran out
# of runs
walk() {
	local kind=$1 n=1 last=0 last_site= step=1 runs=0

	: >"$res/$kind"
	: >"$res/$kind.sites"
	: >"$res/$kind.seen"
	while [ "$runs_max" = 0 ] || [ $runs -lt "$runs_max" ]; do
		runs=$((runs + 1))
		attempt "$kind" $n || return 1
		if [ "$inj" = no ]; then
			[ $((n - last)) -le 1 ] && return 0
			n=$((last + 1))	# stepped past the end: back
			step=1
			continue
		fi
		# a fault of an allocation that asked for no warning is not dumped:
		# its site unknown, taken as the last one
		if [ "$site" = "$last_site" ] || [ "$site" = - ] ||
		   grep -qxF -- "$site" "$res/$kind.seen"; then
			step=$((step * 2))
		elif [ $((n - last)) -gt 1 ]; then
			n=$((last + 1))	# the site changed in the gap: back
			step=1
			continue
		else
			step=1
		fi
		last=$n
		if [ "$site" != - ]; then
			last_site=$site
			grep -qxF -- "$site" "$res/$kind.seen" || echo "$site" >>"$res/$kind.seen"
		fi
		n=$((n + step))
	done
	return 2
}

# walk_report NAME KIND STATUS - the checks of one walk's table
walk_report() {
	local name=$1 t=$res/$2 rc=$3 points sites tp

	points=$(awk -F'\t' '$3 != "passed-no-fault-left" { n = $1 } END { print n + 0 }' "$t")
	sites=$(awk '{ print $2 }' "$t.sites" | sort -u | wc -l)
	tp=$(awk -F'\t' '$2 == "teeprobe"' "$t" | wc -l)
	if [ "$rc" = 2 ]; then
		skip "$name: the walk's end ($(wc -l <"$t") runs reached N = $points)" \
			"TP_FAULTS_RUNS=$runs_max bounds it; make stress walks to the end"
	else
		check "$name: the walk ended on a pass with no fault left: $points points, $sites sites, $(wc -l <"$t") runs, $tp in teeprobe's code" \
			test "$rc" = 0
	fi
	check "$name: every run came out clean (table: $t)" \
		sh -c "! awk -F'\t' '\$6 != \"-\"' '$t' | grep ." || awk -F'\t' '$6 != "-"' "$t" | head -n 10 | diag
	awk -F'\t' '{ print $2, $3, $5 }' "$t" | sort | uniq -c | sort -rn | head -n 40 | sed "s/^/$name: /" | diag
}


# --- teeprobe's own points, one by one ------------------------------------------
# fault=1,100,K,1 fails the K-th of teeprobe's own points alone (module/
# fault.c): every percpu allocation, registration and debugfs file of a
# load, for K = 1, 2, ... until a load passes with no fault injected; then
# the same over a late attach (teesim loading with teeprobe there, the
# attribute set through fail_teeprobe/). A line per K in $res/points and
# $res/attach-points: K, the point, the outcome, what is wrong ("-").
probe_states() { tp_col tee_probes symbol,state,error 'teesim_.*'; }

# points_run KIND K - one run with the K-th point failing; status 1 once
# no fault was left to inject
points_run() {
	local kind=$1 k=$2 log rc point outcome st bad=

	echo "t87: $kind k=$k." >/dev/kmsg
	if [ "$kind" = points ]; then
		insmod "$ko" maxactive=1 "fault=1,100,$k,1" 2>"$res/insmod.err"
	else
		echo 100 >$FI/fail_teeprobe/probability
		echo 1 >$FI/fail_teeprobe/interval
		echo "$k" >$FI/fail_teeprobe/space
		echo 1 >$FI/fail_teeprobe/times
		insmod "$teesim" secure_threads=1 2>"$res/insmod.err"
	fi
	rc=$?
	log=$(since "t87: $kind k=$k.")
	point=$(echo "$log" | sed -n 's/.*teeprobe: fault injected at //p' | head -n 1)
	if [ -z "$point" ]; then
		outcome=passed-no-fault-left
		[ $rc = 0 ] || bad="failed with no fault injected: $(head -c 200 "$res/insmod.err")"
	elif [ $rc != 0 ]; then
		outcome=failed
		[ "$kind" = points ] || bad="teesim failed on teeprobe's fault"
		grep -q "Cannot allocate memory" "$res/insmod.err" ||
			bad="${bad:+$bad; }not ENOMEM: $(head -c 200 "$res/insmod.err")"
		echo "$log" | grep -q "teeprobe: not loaded: its [a-z]* part failed (error -12)" ||
			bad="${bad:+$bad; }not said"
	else
		outcome=passed-fault-taken
		echo "$log" | grep -qE "teeprobe: .*(cannot|error -12)" || bad="a fault in teeprobe not said"
		# a TEE probe that could not register shows it in tee_probes; at
		# load it is tried again as the module goes live (a module
		# loaded) and ends as on a plain load, unless that last try was
		# the one that failed
		st=$(tp_col tee_probes state,error "$point" 2>/dev/null)
		if [ -n "$st" ] && [ "$kind" = points ]; then
			[ "$st" = "failed -12" ] ||
				[ "${st% *}" = "$(echo "$states0" | awk -v p="$point" '$1 == p { print $2 }')" ] ||
				bad="${bad:+$bad; }$point shown as $st"
		elif [ -n "$st" ] && [ "$st" != "failed -12" ]; then
			bad="${bad:+$bad; }$point shown as $st"
		fi
	fi
	if [ "$kind" = points ]; then
		[ $rc != 0 ] || rmmod teeprobe || bad="${bad:+$bad; }rmmod failed"
		[ "$(leftovers)" = "$base" ] ||
			bad="${bad:+$bad; }left: $(left_behind)"
	else
		echo 0 >$FI/fail_teeprobe/probability
		[ $rc != 0 ] || rmmod teesim || bad="${bad:+$bad; }rmmod teesim failed"
		# nothing attached into a module that went (a probe whose last
		# try failed stays "failed" until a module loads again)
		! probe_states | grep -q ' attached ' ||
			bad="${bad:+$bad; }left attached: $(probe_states | tr '\n' ' ')"
	fi
	printf '%s\t%s\t%s\t%s\n' "$k" "${point:--}" "$outcome" "${bad:--}" >>"$res/$kind"
	[ "$outcome" != passed-no-fault-left ]
}

# points_report NAME KIND - the checks of one walk over teeprobe's points
points_report() {
	local t=$res/$2 n total

	n=$(awk -F'\t' '$3 != "passed-no-fault-left"' "$t" | wc -l)
	total=$(awk -F'\t' '$3 != "passed-no-fault-left" && $1 > k { k = $1 } END { print k + 0 }' "$t")
	check "$1: $n of teeprobe's $total points failed in turn; the walk ended on a pass" \
		awk -F'\t' 'END { exit !($3 == "passed-no-fault-left") }' "$t"
	check "$1: each came out clean: ENOMEM and said, or taken and said; nothing left (table: $t)" \
		sh -c "! awk -F'\t' '\$4 != \"-\"' '$t' | grep ." || awk -F'\t' '$4 != "-"' "$t" | head -n 10 | diag
	awk -F'\t' '{ print $3 }' "$t" | sort | uniq -c | sed "s/^/$1: /" | diag
}

if part points; then
	: >"$res/points"
	k=1
	while [ $k -lt 1000 ] && points_run points $k; do k=$((k + points_step)); done
	# stepped past the last point: the ones after the last that failed
	if [ "$points_step" -gt 1 ]; then
		k=$(awk -F'\t' '$3 != "passed-no-fault-left" { k = $1 } END { print k + 1 }' "$res/points")
		sed -i '$d' "$res/points"
		while [ $k -lt 1000 ] && points_run points $k; do k=$((k + 1)); done
	fi
	points_report "teeprobe's points at load" points
	check "insmod teeprobe for the late attach" insmod "$ko" maxactive=1
	: >"$res/attach-points"
	k=0
	while [ $k -lt 1000 ] && points_run attach-points $((k += 1)); do :; done
	points_report "teeprobe's points at a late attach" attach-points
	check "rmmod teeprobe after the walks over its points" rmmod teeprobe
fi

# --- the load ---------------------------------------------------------------
if part load; then
	walk load
	walk_report "load" load $?
fi
check "a plain insmod after the walk" insmod "$ko" maxactive=1
check_eq "... every debugfs file there" "$files0" "$(ls "$DEBUGFS" | wc -l)"
check "... the fault injection point's files too" test -f $FI/fail_teeprobe/probability

# --- the late attach ----------------------------------------------------------
# teeprobe loaded, insmod teesim with the N-th fault: its probes attach as it
# comes, or say why; a teesim that failed leaves none attached
if part attach; then
	walk attach
	walk_report "late attach" attach $?
fi
check "teesim loads plainly after the walk, its probes attached" bash -c \
	"insmod '$teesim' secure_threads=1 && s=\$(tp_col tee_probes state 'teesim_.*') &&
	! grep -vx attached <<<\"\$s\" | grep ."

# --- the unload under load -------------------------------------------------------
# hsbench calls teesim meanwhile; teeprobe loaded plainly, then rmmod with
# the N-th fault: it goes, or stays and works and a plain rmmod takes it
lab_loop() { while :; do lab_run hard-temp 40 4 >/dev/null 2>&1 || sleep 1; done; }
if part unload; then
	lab_loop &
	loop_pid=$!
	walk unload
	rc=$?
	kill $loop_pid 2>/dev/null
	wait $loop_pid 2>/dev/null
	pkill -f "$HSBENCH" 2>/dev/null
	walk_report "unload under load" unload $rc
	lab_wait 30 sh -c "! pgrep -f '$HSBENCH' >/dev/null"
fi
[ -d /sys/module/teeprobe ] && rmmod teeprobe
check "rmmod teesim after the walks" lab_unload

# --- faults during a recorded lab session ------------------------------------------
# fail_teeprobe fails every third of teeprobe's points in any context
# (TP_FAULTS_INTERVAL; make stress: TP_FAULTS_INTERVAL=0, 3 % of them at
# random, TP_FAULTS_PROBABILITY another share): the buffers
# its files' reads allocate, read by the operator's commands meanwhile
# (every file, pid filters, window changes, stat --prometheus, check), and
# the per-CPU phase blocks a worker allocates as hsbench's new ports come.
# The kernel's failslab is not used here: failing a read's buffers at
# random fails the 9p root the guests run from too, whose client then
# answers every later request with EINVAL. "times" counts down the faults.
fault_interval=${TP_FAULTS_INTERVAL:-3}
# op WHAT CMD... - one operator's command: "RC WHAT | its stderr" in $res/ops
op() {
	local what=$1 rc

	shift
	"$@" >"$res/op.out" 2>"$res/op.err"
	rc=$?
	echo "$rc $what | $(head -c 300 "$res/op.err" | tr '\n' ' ')" >>"$res/ops"
	return $rc
}
operator() {
	local f n=0

	while [ -e "$res/operating" ]; do
		n=$((n + 1))
		for f in "$DEBUGFS"/*; do
			case $(stat -c %a "$f") in 4*) op "cat ${f##*/}" cat "$f" ;; esac
		done
		op "pid_filter $$" sh -c "echo $$ >$DEBUGFS/pid_filter"
		op "pid_filter 0" sh -c "echo 0 >$DEBUGFS/pid_filter"
		op "window_ms 50" sh -c "echo 50 >/sys/module/teeprobe/parameters/window_ms"
		op "window_ms 100" sh -c "echo 100 >/sys/module/teeprobe/parameters/window_ms"
		if op "stat --prometheus" "$TEEPROBE" stat --prometheus -o "$res/op.prom"; then
			python3 "$top/tests/tools/promparse.py" --expect teeprobe_tcp_phases_lost_total \
				"$res/op.prom" >"$res/op.parse" 2>&1 ||
				{ echo "stat --prometheus exited 0 with a broken exposition:"; cat "$res/op.parse"; } >>"$res/ops-wrong"
		fi
		op "check" "$TEEPROBE" check
	done
	echo "$n rounds" >"$res/operator-rounds"
}

if part session; then
	: >"$res/ops"
	: >"$res/ops-wrong"
	check "insmod teeprobe for the faults during a session" insmod "$ko"
	check "teesim loads" lab_load secure_threads=2
	"$TEEPROBE" record -w 100 -o "$res/random.dat" 2>"$res/record.log" &
	rec_pid=$!
	check "teeprobe record starts" wait_recording "$res/record.log"
	lost0=$(phases_lost)
	echo "t87: random starts." >/dev/kmsg
	faults_t0=$(date +%s)
	if [ "$fault_interval" = 0 ]; then
		echo "${TP_FAULTS_PROBABILITY:-3}" >$FI/fail_teeprobe/probability
		echo 1 >$FI/fail_teeprobe/interval
	else
		echo 100 >$FI/fail_teeprobe/probability
		echo "$fault_interval" >$FI/fail_teeprobe/interval
	fi
	echo 100000 >$FI/fail_teeprobe/times
	echo 0 >$FI/fail_teeprobe/space
	echo 1 >$FI/fail_teeprobe/verbose
	touch "$res/operating"
	operator &
	op_pid=$!
	# new ports, one after another: each takes a slot whose block is allocated
	ports=${TP_FAULTS_PORTS:-2}
	for p in $(seq 1 $ports); do
		LAB_PORT=$((LAB_PORT + p)) check "hsbench hard-temp on port $((LAB_PORT + p)) under faults" \
			lab_run hard-temp 40 4
	done
	rm -f "$res/operating"
	wait $op_pid
	echo 0 >$FI/fail_teeprobe/probability
	faults_s=$(($(date +%s) - faults_t0))
	tp_faults=$((100000 - $(cat $FI/fail_teeprobe/times)))
	said=$(since "t87: random starts." | grep -c "teeprobe: fault injected at")
	lost=$(phases_lost)
	{
		echo "faults injected at teeprobe's points: $tp_faults in $faults_s s of load; $(wc -l <"$res/ops") operator's commands, $(awk '$1 != 0' "$res/ops" | wc -l) failed; $(cat "$res/operator-rounds"); phases lost $lost0 -> $lost"
		since "t87: random starts." | sed -n 's/.*teeprobe: fault injected at //p' | sort | uniq -c
	} | diag
	check "faults were injected at teeprobe's points ($tp_faults)" test "$tp_faults" -gt 0
	check_eq "teeprobe's log names each of them" "$tp_faults" "$said"
	check "every operator's command that failed said why (table: $res/ops)" \
		sh -c "! awk -F' [|] ' '\$1 !~ /^0 / && \$2 ~ /^ *\$/' '$res/ops' | grep ." ||
		awk -F' [|] ' '$1 !~ /^0 / && $2 ~ /^ *$/' "$res/ops" | head -n 5 | diag
	check "every stat --prometheus that exited 0 wrote a whole exposition" test ! -s "$res/ops-wrong" ||
		head -n 10 "$res/ops-wrong" | diag
	check "stat --prometheus failed when a file could not be shown, naming it" \
		sh -c "! grep -q '^0 stat' '$res/ops' || ! grep -q 'could not show' '$res/ops' || grep -q '^1 stat --prometheus | .*could not show' '$res/ops'"
	# A port whose block could not be allocated loses its handshakes' phases,
	# counted; the module tries the allocation again every 100 ms and at the
	# next loss. Once the faults stop, every slot that wants a block has it
	# (blocks_missing 0: an event awaited, not a time), and a new port, which
	# takes a spare slot, loses nothing from its first handshake on
	missing=$(blocks_missing)
	check "the phase blocks the faults left missing ($missing) are allocated again once they stop" \
		lab_wait 30 blocks_all_there ||
		grep '^#' "$DEBUGFS/tcp_phases" | diag
	lost1=$(phases_lost)
	LAB_PORT=$((LAB_PORT + ports + 1)) check "hsbench on a new port after the faults" \
		lab_run hard-temp 40 4
	lost2=$(phases_lost)
	check_eq "... no phase lost once the faults stopped (phases_lost stays $lost1)" "$lost1" "$lost2"
	kill -INT $rec_pid
	wait $rec_pid
	check "teeprobe record under faults ended cleanly" test $? = 0 || tail -n 5 "$res/record.log" | diag
	check "teeprobe report of the session under faults" sh -c "'$TEEPROBE' report -i '$res/random.dat' >'$res/random.txt'"
	check "... says the phases lost as the module counted them ($lost0 -> $lost2)" \
		grep -q ", $((lost2 - lost0)) handshakes' phases without a histogram" "$res/random.txt" ||
		grep -A1 '^  lost:' "$res/random.txt" | diag
	check "rmmod teesim after the session" lab_unload
	check "rmmod teeprobe after the session" rmmod teeprobe
fi

# --- kmemleak ------------------------------------------------------------------
if [ -w $FI/kmemleak ]; then
	echo scan >$FI/kmemleak
	sleep 6
	echo scan >$FI/kmemleak
	cat $FI/kmemleak >"$res/kmemleak"
	check "kmemleak: nothing leaked by the walks" test ! -s "$res/kmemleak" ||
		head -n 30 "$res/kmemleak" | diag
else
	skip "kmemleak after the walks" "no kmemleak in kernel $TP_KERNEL"
fi

dmesg -n "$printk_level"
done_testing
