# SPDX-License-Identifier: GPL-2.0
# summary.awk - bench/run's table (or, with -v json=1, one JSON object)
# from its results file:
#   info KEY VALUE
#   rate ITEM CONFIG ROUND PER_SECOND
#   memory STAGE module_bytes N sunreclaim_kb N vmalloc_kb N percpu_kb N
#   flood syns N table_size N in_use N full N untracked N
#   percpu static_bytes N dynamic_bytes N
#   trace events N bytes N
#   report TOOL ROUND CPU_NANOSECONDS (user + system)
#   insns ITEM CONFIG ROUND INSTRUCTIONS_PER_UNIT
#   hostcpu ITEM CONFIG ROUND QEMU_CPU_NS_PER_UNIT (kept in microseconds)
#   ops ITEM CONFIG ROUND exits N clocks N cpu_per_insn NS busy FRACTION
#       blocks N block_insns N netrx N
#   opcost guest|host KIND NS
# Rates are summarised as min/median/max over the rounds; a configuration's
# ratio is the median over the rounds of its rate over (a)'s in that round.
# Instruction counts likewise, the ratio taken the other way round ((a)'s
# count over the configuration's): the rate the configuration would keep
# if every instruction cost the same; and QEMU's CPU time per unit: the
# rate it would keep if the guest never waited.

# sort_values - sort v[1..n] in place (n is small)
function sort_values(v, n,   i, j, t) {
	for (i = 2; i <= n; i++) {
		t = v[i]
		for (j = i - 1; j >= 1 && v[j] > t; j--)
			v[j + 1] = v[j]
		v[j + 1] = t
	}
}

# median - of v[1..n], sorted
function median(v, n) {
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}

# median_ci - the distribution-free confidence interval of the median of n
# sorted values: [v[k], v[n - k + 1]] for the largest k with
# P(Binomial(n, 1/2) < k) <= 2.5 %, which covers the true median at least
# 95 % of the time whatever the values' distribution; sets ci_k (0 when n
# is too small for 95 %: below 6) and ci_conf, the interval's coverage
function median_ci(n,   k, p, cdf) {
	ci_k = 0
	p = 0.5 ^ n		# P(X = 0)
	cdf = p
	for (k = 1; 2 * k <= n && cdf <= 0.025; k++) {
		ci_k = k
		p = p * (n - k + 1) / k	# P(X = k)
		cdf += p
	}
	ci_conf = 1
	if (ci_k) {
		# coverage: 1 - 2 P(X <= ci_k - 1)
		p = 0.5 ^ n
		cdf = p
		for (k = 1; k < ci_k; k++) {
			p = p * (n - k + 1) / k
			cdf += p
		}
		ci_conf = 1 - 2 * cdf
	}
}

# stats - min/median/max of the values of key k (the report runs) into
# smin/smed/smax
function stats(k,   v, i) {
	for (i = 1; i <= count[k]; i++)
		v[i] = value[k, i]
	sort_values(v, count[k])
	smin = v[1]; smed = median(v, count[k]); smax = v[count[k]]
}

# kib - bytes to KiB with one decimal
function kib(b) { return sprintf("%.1f", b / 1024) }

# target - record one target line: name, measured value, limit, verdict
# (met, MISSED or unresolved), text; a measure with a spread adds the 95 %
# confidence interval of its median, lo to hi (tci set)
function target(name, value, limit, verdict, text, lo, hi) {
	nt++
	tname[nt] = name; tvalue[nt] = value; tlimit[nt] = limit
	tverdict[nt] = verdict; ttext[nt] = text
	tci[nt] = lo != ""; tlo[nt] = lo; thi[nt] = hi
}

# verdict - met when the whole confidence interval [lo, hi] reaches lim,
# MISSED when none of it does, else unresolved: the rounds cannot tell
function verdict(lo, hi, lim) {
	return lo >= lim ? "met" : hi < lim ? "MISSED" : "unresolved"
}

$1 == "info" { info[$2] = $3 }
$1 == "rate" || $1 == "insns" || $1 == "hostcpu" {
	if ($1 == "rate")
		round_rate[$2, $3, $4] = $5
	else if ($1 == "insns")
		round_insns[$2, $3, $4] = $5
	else
		round_hostcpu[$2, $3, $4] = $5 / 1000
	if ($4 > max_round)
		max_round = $4
}
$1 == "ops" {
	for (i = 5; i < NF; i += 2)
		round_ops[$i, $2, $3, $4] = $(i + 1)
}
$1 == "opcost" { opcost[$2, $3] = $4 }
$1 == "memory" {
	# "before" and "loaded" come in pairs, several times: each pair's
	# difference is one reading of the fixed memory
	n = ++nmem[$2]
	for (i = 3; i < NF; i += 2) {
		mem[$2, $i] = $(i + 1)
		memn[$2, n, $i] = $(i + 1)
	}
}
$1 == "flood" || $1 == "percpu" || $1 == "trace" {
	for (i = 2; i < NF; i += 2)
		extra[$1, $i] = $(i + 1)
}
$1 == "report" && $4 > 0 {
	k = "report" SUBSEP $2
	value[k, ++count[k]] = extra["trace", "events"] / ($4 / 1e9)
}

# round_stats - min/median/max over the rounds of config c's figure in
# per_round (round_rate or round_insns) into smin/smed/smax, and the number
# of rounds it ran into sn
function round_stats(per_round, item, c,   r, n, v) {
	n = 0
	for (r = 1; r <= max_round; r++)
		if ((item, c, r) in per_round)
			v[++n] = per_round[item, c, r]
	sort_values(v, n)
	sn = n; smin = v[1]; smed = n ? median(v, n) : 0; smax = v[n]
}

# paired - the median, min and max over the rounds of config c's rate
# divided by (a)'s in the same round (the runs of a round are minutes
# apart, the rounds further: this takes the drift between rounds out)
# into pmed, pmin, pmax, and the median's 95 % confidence interval into
# plo, phi (min and max below 6 rounds, pconf its coverage then). For the
# instruction counts (insns set) the other way round: (a)'s count over
# c's, the rate c would keep if every instruction cost the same.
function paired(per_round, item, c, insns,   r, n, v, x, a) {
	n = 0
	for (r = 1; r <= max_round; r++) {
		if (!((item, c, r) in per_round) || !((item, "a", r) in per_round))
			continue
		x = per_round[item, c, r]; a = per_round[item, "a", r]
		if (insns && x > 0)
			v[++n] = a / x
		else if (!insns && a > 0)
			v[++n] = x / a
	}
	sort_values(v, n)
	pmed = n ? median(v, n) : 0; pmin = v[1]; pmax = v[n]
	median_ci(n)
	plo = ci_k ? v[ci_k] : pmin; phi = ci_k ? v[n - ci_k + 1] : pmax
	pconf = ci_k ? ci_conf : 1 - 2 * 0.5 ^ n
}

# rate_targets - the four rate targets ((b) >= 98 %, (c) >= 96 % of (a) on
# handshakes and packets) on the ratios r of kind (0 rates, 1 instructions,
# 2 QEMU's CPU), judged on the median's confidence interval; fmt names them
# from the configuration, the item's label (from labels: handshakes',
# packets') and the limit
function rate_targets(r, kind, fmt, labels,   i, c, item, label, lim, lo, hi) {
	split("b b c c", c, " "); split("handshake packets handshake packets", item, " ")
	split(labels " " labels, label, " ")
	for (i = 1; i <= 4; i++) {
		lim = c[i] == "b" ? 0.98 : 0.96
		lo = ratio_lo[kind, item[i], c[i]]; hi = ratio_hi[kind, item[i], c[i]]
		target(sprintf(fmt, c[i], label[i], 100 * lim), r[item[i], c[i]], lim,
			verdict(lo, hi, lim),
			sprintf("%.1f%% [%.1f-%.1f%%]", 100 * r[item[i], c[i]], 100 * lo, 100 * hi), lo, hi)
	}
}

# rate_block - one item's configurations: table rows or a JSON member
function rate_block(item, key, title, unit, configs) {
	figure_block(round_rate, 0, item, key, title, unit, configs)
}

# insns_block - the same for the instructions per unit of each run
function insns_block(item, key, title, unit, configs) {
	figure_block(round_insns, 1, item, key, title, unit, configs)
}

# hostcpu_block - the same for QEMU's CPU time per unit of each run (in
# microseconds), into ratio_hostcpu
function hostcpu_block(item, key, title, unit, configs) {
	figure_block(round_hostcpu, 2, item, key, title, unit, configs)
}

# ops_median - the median over the rounds of figure f (exits, clocks,
# cpu_per_insn, busy, blocks, block_insns, netrx) of config c's runs of item
function ops_median(f, item, c,   r, n, v) {
	n = 0
	for (r = 1; r <= max_round; r++)
		if ((f, item, c, r) in round_ops)
			v[++n] = round_ops[f, item, c, r]
	sort_values(v, n)
	return n ? median(v, n) : 0
}

# ops_block - per configuration of item: the medians of its emulator
# exits, clock reads, TCG's translated instructions and NET_RX runs per
# unit, QEMU's CPU ns per guest instruction and the share of the run QEMU
# was on a CPU
function ops_block(item, key, title, configs,   n, c, i, sep) {
	n = split(configs, c, " ")
	if (json)
		printf ",\"%s\":[", key
	else {
		printf "%s\n", title
		printf "  %-36s %9s %9s %9s %9s %9s %9s\n", "medians", "exits", "clocks", "ns/insn", "busy",
			"xlated", "NET_RX"
	}
	for (i = 1; i <= n; i++) {
		if (!(("cpu_per_insn", item, c[i], 1) in round_ops))
			continue
		if (json)
			printf "%s{\"config\":\"%s\",\"exits\":%.2f,\"clocks\":%.2f,\"cpu_ns_per_insn\":%.3f,\"busy\":%.3f,\"blocks_translated\":%.3f,\"insns_translated\":%.2f,\"netrx_runs\":%.3f}",
				sep, c[i], ops_median("exits", item, c[i]), ops_median("clocks", item, c[i]),
				ops_median("cpu_per_insn", item, c[i]), ops_median("busy", item, c[i]),
				ops_median("blocks", item, c[i]), ops_median("block_insns", item, c[i]),
				ops_median("netrx", item, c[i])
		else
			printf "  %-36s %9.1f %9.1f %9.2f %8.0f%% %9.2f %9.2f\n", name[c[i]], ops_median("exits", item, c[i]),
				ops_median("clocks", item, c[i]), ops_median("cpu_per_insn", item, c[i]),
				100 * ops_median("busy", item, c[i]), ops_median("block_insns", item, c[i]),
				ops_median("netrx", item, c[i])
		sep = ","
	}
	if (json)
		printf "]"
}

# figure_block - rate_block, insns_block and hostcpu_block: the table rows
# or JSON member of per_round's figures; ratio[item, c] (ratio_insns with
# insns 1, ratio_hostcpu with insns 2: costs, the ratio (a)'s over c's)
function figure_block(per_round, insns, item, key, title, unit, configs,   n, c, i, sep) {
	n = split(configs, c, " ")
	if (json)
		printf ",\"%s\":{\"unit\":\"%s\",\"configs\":[", key, unit
	else {
		printf "\n%s\n", title
		printf "  %-36s %9s %9s %9s %8s %15s\n", unit, "min", "median", "max", "ratio", "ratio min-max"
	}
	for (i = 1; i <= n; i++) {
		round_stats(per_round, item, c[i])
		if (!sn)
			continue
		paired(per_round, item, c[i], insns)
		ratio_lo[insns, item, c[i]] = plo
		ratio_hi[insns, item, c[i]] = phi
		ratio_conf[insns, item, c[i]] = pconf
		if (insns == 1)
			ratio_insns[item, c[i]] = pmed
		else if (insns == 2)
			ratio_hostcpu[item, c[i]] = pmed
		else
			ratio[item, c[i]] = pmed
		if (json)
			printf "%s{\"config\":\"%s\",\"runs\":%d,\"min\":%.1f,\"median\":%.1f,\"max\":%.1f,\"ratio\":%.4f,\"ratio_min\":%.4f,\"ratio_max\":%.4f}",
				sep, c[i], sn, smin, smed, smax, pmed, pmin, pmax
		else
			printf "  %-36s %9.1f %9.1f %9.1f %7.1f%% %6.1f-%5.1f%%\n", name[c[i]],
				smin, smed, smax, 100 * pmed, 100 * pmin, 100 * pmax
		sep = ","
	}
	if (json)
		printf "]}"
}

END {
	name["a"] = "(a) no instrumentation"
	name["b"] = "(b) teeprobe.ko loaded"
	name["c"] = "(c) teeprobe.ko + teeprobe record"
	name["d"] = "(d) bpftrace, the same signals"
	name["e"] = "(e) trace-cmd, the raw events"
	name["f"] = "(f) teeprobe.ko + teeprobe watch"
	cpus = info["cpus"]
	# Items 6 and 7 come from TCG's instruction counter; under KVM
	# (bench/run -a kvm) there is none, and the rates are real CPUs'.
	accel = ("accel" in info) ? info["accel"] : "tcg"
	counted = accel != "kvm"

	# Memory: what rmmod gives back at each stage (loaded: against before
	# insmod), in slab and vmalloc (the module image is vmalloc'ed); the
	# per-CPU data from the module's ELF and structure sizes, as the
	# kernel's Percpu counter only moves when a chunk is (de)populated.
	percpu_data = extra["percpu", "static_bytes"] + extra["percpu", "dynamic_bytes"]
	split("loaded connections flood", fp, " ")
	against["loaded"] = "before"
	against["connections"] = "connections_unloaded"
	against["flood"] = "flood_unloaded"
	for (s = 1; s <= 3; s++) {
		st = fp[s]
		slab[st] = (mem[st, "sunreclaim_kb"] - mem[against[st], "sunreclaim_kb"]) * 1024
		vmal[st] = (mem[st, "vmalloc_kb"] - mem[against[st], "vmalloc_kb"]) * 1024
		total[st] = slab[st] + vmal[st] + percpu_data * cpus
	}
	# loaded: the median of the pairs' totals, and its slab and vmalloc
	loads = nmem["loaded"] < nmem["before"] ? nmem["loaded"] : nmem["before"]
	for (i = 1; i <= loads; i++) {
		ls[i] = (memn["loaded", i, "sunreclaim_kb"] - memn["before", i, "sunreclaim_kb"]) * 1024
		lv[i] = (memn["loaded", i, "vmalloc_kb"] - memn["before", i, "vmalloc_kb"]) * 1024
		lt[i] = ls[i] + lv[i]
		lsort[i] = lt[i]
	}
	sort_values(lsort, loads)
	load_min = lsort[1]; load_max = lsort[loads]
	for (i = 1; i <= loads; i++)
		if (lt[i] == median(lsort, loads)) {
			slab["loaded"] = ls[i]; vmal["loaded"] = lv[i]
		}
	total["loaded"] = median(lsort, loads) + percpu_data * cpus
	fixed = total["loaded"]
	flood_growth = total["flood"] - total["loaded"]
	if (json) {
		printf "{\"kernel\":\"%s\",\"clocksource\":\"%s\",\"accel\":\"%s\",\"aslr\":%s,\"cpus\":%d,\"rounds\":%d", info["kernel"], info["clocksource"],
			accel, ("aslr" in info) ? info["aslr"] + 0 : "null", cpus, info["repeats"]
		printf ",\"sizes\":{\"connections\":%d,\"packet_seconds\":%d,\"packet_window\":%d,\"invokes\":%d,\"memory_connections\":%d,\"syns\":%d,\"trace_seconds\":%d}",
			info["connections"], info["packet_seconds"], info["packet_window"], info["invokes"], info["memory_connections"], info["syns"], info["trace_seconds"]
	} else {
		printf "teeprobe bench: kernel %s, clocksource %s, address-space randomisation %s, %d CPUs, %s, %d rounds; ratio = median over the rounds of the rate against (a)'s in the same round\n",
			info["kernel"], info["clocksource"], ("aslr" in info) ? (info["aslr"] ? "on" : "off") : "?", cpus,
			counted ? "emulated (TCG)" : "KVM", info["repeats"]
	}
	rate_block("handshake", "handshake_rate", "1. handshake rate: hsbench soft, 10 client threads, " info["connections"] " connections a run",
		"connections/s", "a b c d e f")
	rate_block("packets", "packet_rate", "2. packet rate: 18-byte UDP datagrams echoed across the lab NICs, " info["packet_window"] " in flight, " info["packet_seconds"] " s a run",
		"echoes/s (a packet each way)", "a b c d e f")
	rate_block("tee", "tee_ioctl_rate", "3. TEE ioctl rate: INVOKE loop on teesim, zero simulated cost, " info["invokes"] " a run",
		"invokes/s", "a b d")

	label["loaded"] = "loaded (median of " loads ")"
	label["connections"] = "after " info["memory_connections"] " connections"
	label["flood"] = "under " info["syns"] " SYNs (flood)"
	if (json) {
		printf ",\"memory\":{\"stages\":["
		for (s = 1; s <= 3; s++) {
			st = fp[s]
			printf "%s{\"stage\":\"%s\",\"module_bytes\":%d,\"slab_bytes\":%d,\"vmalloc_bytes\":%d,\"percpu_bytes\":%d,\"total_bytes\":%d}",
				(s > 1 ? "," : ""), st, mem[st, "module_bytes"], slab[st], vmal[st], percpu_data * cpus, total[st]
		}
		printf "],\"percpu_static_bytes\":%d,\"percpu_dynamic_bytes\":%d,\"fixed_bytes\":%d,\"fixed_per_cpu_bytes\":%d",
			extra["percpu", "static_bytes"], extra["percpu", "dynamic_bytes"], fixed, fixed / cpus
		printf ",\"fixed_loads\":%d,\"fixed_slab_vmalloc_min_bytes\":%d,\"fixed_slab_vmalloc_max_bytes\":%d",
			loads, load_min, load_max
		printf ",\"flood\":{\"syns\":%d,\"table_size\":%d,\"in_use\":%d,\"full\":%d,\"untracked\":%d,\"growth_bytes\":%d}}",
			extra["flood", "syns"], extra["flood", "table_size"], extra["flood", "in_use"],
			extra["flood", "full"], extra["flood", "untracked"], flood_growth
	} else {
		printf "\n4. memory: what rmmod gives back (KiB; the module image is in vmalloc)\n"
		printf "  %-30s %9s %9s %9s %9s %9s %9s\n", "stage", "image", "slab", "vmalloc", "per-CPU", "total", "per CPU"
		for (s = 1; s <= 3; s++) {
			st = fp[s]
			printf "  %-30s %9s %9s %9s %9s %9s %9s\n", label[st], kib(mem[st, "module_bytes"]),
				kib(slab[st]), kib(vmal[st]), kib(percpu_data * cpus), kib(total[st]), kib(total[st] / cpus)
		}
		printf "  loaded at rest %d times: slab + vmalloc from %s to %s KiB\n", loads, kib(load_min), kib(load_max)
		printf "  per-CPU data: %s KiB static + %s KiB allocated = %s KiB per CPU\n",
			kib(extra["percpu", "static_bytes"]), kib(extra["percpu", "dynamic_bytes"]), kib(percpu_data)
		printf "  SYN flood: handshake table %d entries, %d in use, %d inserts refused, %d accepts untracked\n",
			extra["flood", "table_size"], extra["flood", "in_use"], extra["flood", "full"], extra["flood", "untracked"]
	}

	stats("report" SUBSEP "trace-cmd"); tc_med = smed
	if (json) {
		printf ",\"report_speed\":{\"events\":%d,\"trace_bytes\":%d,\"unit\":\"events per CPU second\",\"tools\":[",
			extra["trace", "events"], extra["trace", "bytes"]
		printf "{\"tool\":\"trace-cmd\",\"runs\":%d,\"min\":%.0f,\"median\":%.0f,\"max\":%.0f,\"ratio\":1}",
			count["report" SUBSEP "trace-cmd"], smin, smed, smax
		stats("report" SUBSEP "teeprobe")
		printf ",{\"tool\":\"teeprobe\",\"runs\":%d,\"min\":%.0f,\"median\":%.0f,\"max\":%.0f,\"ratio\":%.3f}]}",
			count["report" SUBSEP "teeprobe"], smin, smed, smax, smed / tc_med
	} else {
		printf "\n5. analysis speed on the host: a %d-event trace.dat (%.1f MB) read to /dev/null (CPU time)\n",
			extra["trace", "events"], extra["trace", "bytes"] / 1e6
		printf "  %-36s %11s %11s %11s %8s\n", "events per CPU second", "min", "median", "max", "ratio"
		printf "  %-36s %11.0f %11.0f %11.0f %7.2fx\n", "trace-cmd report", smin, smed, smax, 1
		stats("report" SUBSEP "teeprobe")
		printf "  %-36s %11.0f %11.0f %11.0f %7.2fx\n", "teeprobe report", smin, smed, smax, smed / tc_med
	}
	report_ratio = smed / tc_med

	if (counted)
		counted_items()
	else if (!json)
		printf "\n6, 7. (no instruction counter under KVM: the rates above are the real CPUs')\n"
	if (json)
		printf ",\"opcost_ns\":{\"guest\":{\"insn\":%.3f,\"exit\":%.3f,\"clock\":%.3f},\"host\":{\"insn\":%.3f,\"exit\":%.3f,\"clock\":%.3f}}",
			opcost["guest", "insn"], opcost["guest", "exit"], opcost["guest", "clock"],
			opcost["host", "insn"], opcost["host", "exit"], opcost["host", "clock"]
	else
		printf "  one operation (bench/insns/opcost), ns in the guest / on the host: add %.2f / %.2f,\n  exit (popf) %.1f / %.1f, clock read (rdtsc) %.1f / %.1f\n",
			opcost["guest", "insn"], opcost["host", "insn"], opcost["guest", "exit"],
			opcost["host", "exit"], opcost["guest", "clock"], opcost["host", "clock"]

	rate_targets(ratio, 0, "(%s) %s rate >= %d%% of (a)", "handshake packet")
	if (counted) {
		rate_targets(ratio_insns, 1, "(%s) %s, by instructions >= %d%%", "handshake packets")
		watch_target()
		rate_targets(ratio_hostcpu, 2, "(%s) %s, by QEMU's CPU >= %d%%", "handshake packets")
	}
	memory_targets()
	print_targets()
}

# counted_items - items 6 and 7, from TCG's instruction counter
function counted_items() {
	if (!json)
		printf "\n6. instructions the guest executed per unit of work in items 1-3 (QEMU's count,\n   not its clock: every instruction weighs the same; ratio = (a)'s count over the configuration's)\n"
	insns_block("handshake", "handshake_insns", "  per handshake", "instructions/handshake", "a b c d e f")
	insns_block("packets", "packet_insns", "  per echo", "instructions/echo", "a b c d e f")
	insns_block("tee", "tee_ioctl_insns", "  per invoke", "instructions/invoke", "a b d")
	added_block()

	if (!json)
		printf "\n7. QEMU's CPU time per unit of work in items 1-3 (its process, all threads: every\n   instruction at the emulator's price, the guest's waits left out; ratio = (a)'s over the configuration's)\n"
	hostcpu_block("handshake", "handshake_qemu_cpu", "  per handshake", "microseconds/handshake", "a b c d e f")
	hostcpu_block("packets", "packet_qemu_cpu", "  per echo", "microseconds/echo", "a b c d e f")
	hostcpu_block("tee", "tee_ioctl_qemu_cpu", "  per invoke", "microseconds/invoke", "a b d")
	if (!json)
		printf "\n  per unit: emulator exits (popf, sti, iret, int3), clock reads (rdtsc), QEMU's CPU\n  ns per guest instruction, the share of the run QEMU was on a CPU (busy), and the\n  guest instructions TCG translated (xlated: code new to it, or translated again);\n  NET_RX: the NET_RX softirq runs of the whole run per unit (how the packets were\n  batched: fewer runs, more packets each)\n"
	ops_block("handshake", "handshake_ops", "  per handshake", "a b c d e f")
	ops_block("packets", "packet_ops", "  per echo", "a b c d e f")
	ops_block("tee", "tee_ioctl_ops", "  per invoke", "a b d")
}

# added_cost - what configuration c adds per handshake over base: the
# median over the rounds of the difference of their instruction counts in
# the same round (into added), and of that difference as a share of (a)'s
# handshake in the round (into added_share, with its range)
function added_cost(c, base,   r, n, v, w) {
	n = 0
	for (r = 1; r <= max_round; r++) {
		if (!(("handshake", c, r) in round_insns) || !(("handshake", base, r) in round_insns) ||
		    !(("handshake", "a", r) in round_insns) || !round_insns["handshake", "a", r])
			continue
		n++
		v[n] = round_insns["handshake", c, r] - round_insns["handshake", base, r]
		w[n] = v[n] / round_insns["handshake", "a", r]
	}
	sort_values(v, n)
	sort_values(w, n)
	added = n ? median(v, n) : 0
	added_share = n ? median(w, n) : 0
	added_min = n ? w[1] : 0
	added_max = n ? w[n] : 0
	# the share's median's 95 % interval, as the rate targets'
	median_ci(n)
	added_lo = ci_k ? w[ci_k] : added_min
	added_hi = ci_k ? w[n - ci_k + 1] : added_max
	return n
}

# added_block - per handshake, what teeprobe's parts add: the module over
# nothing (b - a), record over the module (c - b), watch over the module
# (f - b), in instructions and as a share of a handshake; the watch's
# target: within 0.5 % of a handshake of the module alone
function added_block(   i, n, c, base, what) {
	split("b c f", c, " "); split("a b b", base, " ")
	what["b"] = "the module (b - a)"; what["c"] = "record (c - b)"; what["f"] = "watch (f - b)"
	if (json)
		printf ",\"handshake_added_insns\":["
	else {
		printf "\n  per handshake, what each part adds: instructions, and as a share of (a)'s handshake\n"
		printf "  %-36s %12s %9s %17s\n", "(medians over the rounds)", "instructions", "share", "share min-max"
	}
	for (i = 1; i <= 3; i++) {
		if (!added_cost(c[i], base[i]))
			continue
		if (json)
			printf "%s{\"config\":\"%s\",\"over\":\"%s\",\"insns\":%.1f,\"share\":%.5f,\"share_min\":%.5f,\"share_max\":%.5f}",
				(n++ ? "," : ""), c[i], base[i], added, added_share, added_min, added_max
		else
			printf "  %-36s %12.0f %8.2f%% %7.2f-%6.2f%%\n", what[c[i]], added,
				100 * added_share, 100 * added_min, 100 * added_max
		if (c[i] == "f")
			watch_share = added_share
	}
	if (json)
		printf "]"
}

# watch_target - the watch's goal: it adds at most 0.5 % of a handshake to
# the module alone, met when the whole interval stays within it, MISSED
# when none of it does
function watch_target() {
	if (added_cost("f", "b"))
		target("(f) watch adds <= 0.5% of a handshake to (b)", added_share, 0.005,
		       added_hi <= 0.005 ? "met" : added_lo > 0.005 ? "MISSED" : "unresolved",
		       sprintf("%.2f%% [%.2f-%.2f%%]", 100 * added_share, 100 * added_lo, 100 * added_hi),
		       added_lo, added_hi)
}

# memory_targets - the memory and report targets
function memory_targets() {
	target("fixed memory <= 256 KiB per CPU", fixed / cpus, 262144, fixed / cpus <= 262144 ? "met" : "MISSED", kib(fixed / cpus) " KiB")
	target("per-CPU data <= 256 KiB per CPU", percpu_data, 262144, percpu_data <= 262144 ? "met" : "MISSED", kib(percpu_data) " KiB")
	# Bounded: a SYN flood may not grow it; 64 KiB is the slack of the
	# kernel's own counters, far below the SYNs' count times an entry.
	target("bounded under SYN flood (growth <= 64 KiB)", flood_growth, 65536, flood_growth <= 65536 && extra["flood", "in_use"] <= extra["flood", "table_size"] ? "met" : "MISSED", kib(flood_growth) " KiB")
	target("teeprobe report >= 2x trace-cmd report", report_ratio, 2, report_ratio >= 2 ? "met" : "MISSED", sprintf("%.2fx", report_ratio))
}

# print_targets - every target's line, or the JSON's targets and its end
function print_targets(   i) {
	if (json) {
		printf ",\"targets\":["
		for (i = 1; i <= nt; i++) {
			printf "%s{\"target\":\"%s\",\"value\":%.4f,\"limit\":%s,\"met\":%s,\"verdict\":\"%s\"", (i > 1 ? "," : ""),
				tname[i], tvalue[i], tlimit[i], tverdict[i] == "met" ? "true" : "false", tolower(tverdict[i])
			if (tci[i])
				printf ",\"ci_low\":%.4f,\"ci_high\":%.4f", tlo[i], thi[i]
			printf "}"
		}
		printf "]}\n"
	} else {
		printf "\ntargets (rates: the median, and in brackets its 95 %% confidence interval over the rounds:\n"
		printf "  met when all of it reaches the target, MISSED when none does, else unresolved)\n"
		for (i = 1; i <= nt; i++)
			printf "  %-44s %22s  %s\n", tname[i], ttext[i], tverdict[i]
	}
}
