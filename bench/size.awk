# SPDX-License-Identifier: GPL-2.0
# size.awk - bench/size's table from its results.txt, whose lines are
# bench/size-guest.sh's, each led by the guest's CPU count:
#   N info KEY VALUE
#   N memory STAGE module_bytes N sunreclaim_kb N vmalloc_kb N percpu_kb N
#   N module STAGE percpu_bytes N ports N
#   0 percpu static_bytes N          (the module's static per-CPU section)
#   N record readers N processes N pss_kb N buffer_kb N  (teeprobe record)
# STAGE: control_before and control (a handshake run without the module),
# before and loaded in pairs (the loads at rest), port (the last load,
# after the same run under it), unloaded (after rmmod).
#
# At rest, slab (SUnreclaim) and vmalloc (VmallocUsed, which holds the
# module image) are what insmod took: the load whose slab + vmalloc is the
# median. With a port in use they are the same: the module allocates slab
# and vmalloc at load and in debugfs reads only (the handshake table and
# the TEE call pool are there from the load; a port takes a per-CPU block),
# and over the handshakes the kernel's own caches grow by hundreds of KiB
# on many CPUs (sockets, SLUB's per-CPU slabs, thread stacks), with the
# module or without it: both are printed, and what rmmod gave back after
# them. The per-CPU data is what the module counts of its own (debugfs
# memory's percpu_bytes) plus its static section, for every CPU. The
# kernel's Percpu counter moves by whole pages of every CPU, when the
# allocator populates them (and keeps them populated after a free, with a
# few empty ones ahead): it is shown beside, since before the first insmod,
# and not counted in the total. The total is fitted as FIXED + PER_CPU x
# CPUs by least squares over the counts measured; issue 51's goal: PER_CPU
# <= 64 KiB and FIXED <= 512 KiB (under 9 MB at 128 CPUs), and no count
# measured over 512 KiB + 64 KiB per CPU.

function kib(b) { return sprintf("%.1f", b / 1024) }

# lower_median_index - of the loads of CPU count n, the one whose slab +
# vmalloc is the (lower) median
function lower_median_index(n,   i, j, k, t, idx, tmp) {
	k = loads[n]
	for (i = 1; i <= k; i++) {
		idx[i] = i
		t[i] = rest_slab[n, i] + rest_vmal[n, i]
	}
	for (i = 2; i <= k; i++)
		for (j = i; j > 1 && t[idx[j - 1]] > t[idx[j]]; j--) {
			tmp = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = tmp
		}
	return idx[int((k + 1) / 2)]
}

# fit STAGE - least squares of total over the CPU counts: slope[STAGE],
# fixed[STAGE]
function fit(st,   i, sx, sy, sxx, sxy, n, x, y, m) {
	m = ncounts
	for (i = 1; i <= m; i++) {
		x = counts[i]; y = total[x, st]
		sx += x; sy += y; sxx += x * x; sxy += x * y
	}
	slope[st] = (m * sxy - sx * sy) / (m * sxx - sx * sx)
	fixed[st] = (sy - slope[st] * sx) / m
}

# goal STAGE - issue 51's goal for STAGE: "met", or "not met" and why
function goal(st,   why, i, x, bound) {
	why = ""
	if (slope[st] > 65536)
		why = why sprintf(", %s KiB per CPU > 64", kib(slope[st]))
	if (fixed[st] > 524288)
		why = why sprintf(", %s KiB fixed > 512", kib(fixed[st]))
	if (fixed[st] + 128 * slope[st] >= 9e6)
		why = why sprintf(", %.2f MB at 128 CPUs >= 9", (fixed[st] + 128 * slope[st]) / 1e6)
	for (i = 1; i <= ncounts; i++) {
		x = counts[i]
		bound = 524288 + 65536 * x
		if (total[x, st] > bound)
			why = why sprintf(", %s KiB at %d CPUs > %s", kib(total[x, st]), x, kib(bound))
	}
	return why == "" ? "met" : "not met (" substr(why, 3) ")"
}

$2 == "info" { info[$1, $3] = $4; next }
$2 == "percpu" { static = $4; next }
$2 == "memory" {
	n = $1
	if (!(n in seen)) {
		seen[n] = 1
		counts[++ncounts] = n
	}
	for (i = 4; i < NF; i += 2)
		v[$i] = $(i + 1)
	if ($3 == "before") {
		b = ++nbefore[n]
		bslab[n, b] = v["sunreclaim_kb"]; bvmal[n, b] = v["vmalloc_kb"]
		if (b == 1)
			percpu0[n] = v["percpu_kb"]
	} else if ($3 == "loaded") {
		l = ++loads[n]
		rest_slab[n, l] = (v["sunreclaim_kb"] - bslab[n, l]) * 1024
		rest_vmal[n, l] = (v["vmalloc_kb"] - bvmal[n, l]) * 1024
		image[n] = v["module_bytes"]
		last_loaded[n, "sunreclaim_kb"] = v["sunreclaim_kb"]
		last_loaded[n, "vmalloc_kb"] = v["vmalloc_kb"]
		if (l == 1)
			kpercpu[n, "loaded"] = (v["percpu_kb"] - percpu0[n]) * 1024
	} else {
		for (k in v)
			at[n, $3, k] = v[k]
	}
	next
}
$2 == "module" { pbytes[$1, $3] = $5; ports[$1, $3] = $7; next }
$2 == "record" { rec[$1] = 1; readers[$1] = $4; procs[$1] = $6; pss[$1] = $8; ringkb[$1] = $10; next }

END {
	# sort the counts
	for (i = 2; i <= ncounts; i++)
		for (j = i; j > 1 && counts[j - 1] > counts[j]; j--) {
			t = counts[j]; counts[j] = counts[j - 1]; counts[j - 1] = t
		}
	if (ncounts < 2) {
		print "size: fewer than two CPU counts measured" >"/dev/stderr"
		exit 1
	}
	for (i = 1; i <= ncounts; i++) {
		n = counts[i]
		m = lower_median_index(n)
		slab[n, "loaded"] = rest_slab[n, m]
		vmal[n, "loaded"] = rest_vmal[n, m]
		slab[n, "port"] = slab[n, "loaded"]
		vmal[n, "port"] = vmal[n, "loaded"]
		# the kernel's growth over the handshakes, under the module
		# (from the last load) and without it; rmmod after them
		l = loads[n]
		grow_slab[n, "port"] = (at[n, "port", "sunreclaim_kb"] - last_loaded[n, "sunreclaim_kb"]) * 1024
		grow_vmal[n, "port"] = (at[n, "port", "vmalloc_kb"] - last_loaded[n, "vmalloc_kb"]) * 1024
		grow_slab[n, "control"] = (at[n, "control", "sunreclaim_kb"] - at[n, "control_before", "sunreclaim_kb"]) * 1024
		grow_vmal[n, "control"] = (at[n, "control", "vmalloc_kb"] - at[n, "control_before", "vmalloc_kb"]) * 1024
		back_slab[n] = (at[n, "port", "sunreclaim_kb"] - at[n, "unloaded", "sunreclaim_kb"]) * 1024
		back_vmal[n] = (at[n, "port", "vmalloc_kb"] - at[n, "unloaded", "vmalloc_kb"]) * 1024
		kpercpu[n, "port"] = (at[n, "port", "percpu_kb"] - percpu0[n]) * 1024
		for (s = 1; s <= 2; s++) {
			st = s == 1 ? "loaded" : "port"
			pcpu[n, st] = (pbytes[n, st] + static) * n
			total[n, st] = slab[n, st] + vmal[n, st] + pcpu[n, st]
		}
	}
	fit("loaded")
	fit("port")
	n = counts[1]
	printf "teeprobe.ko's memory by CPU count: kernel %s, one guest boot per count;\n", info[n, "kernel"]
	printf "at rest: the median of %d loads; one port: after %d handshakes (hsbench soft)\n\n", loads[n], info[n, "connections"]
	printf "%5s %-9s %8s %12s %14s %9s %9s %9s %9s %8s\n", "CPUs", "stage", "image", "percpu_bytes",
		"kernel Percpu", "slab", "vmalloc", "per-CPU", "total", "per CPU"
	printf "%5s %-9s %8s %12s %14s %9s %9s %9s %9s %8s\n", "", "", "bytes", "per CPU", "KiB, per CPU",
		"KiB", "KiB", "KiB", "KiB", "KiB"
	for (i = 1; i <= ncounts; i++) {
		n = counts[i]
		for (s = 1; s <= 2; s++) {
			st = s == 1 ? "loaded" : "port"
			printf "%5d %-9s %8d %12d %14s %9s %9s %9s %9s %8s\n", n,
				st == "loaded" ? "at rest" : "one port", image[n], pbytes[n, st],
				sprintf("%s, %s", kib(kpercpu[n, st]), kib(kpercpu[n, st] / n)),
				kib(slab[n, st]), kib(vmal[n, st]), kib(pcpu[n, st]), kib(total[n, st]),
				kib(total[n, st] / n)
		}
	}
	printf "\nslab and vmalloc: what insmod took (vmalloc holds the image), the same with a port in\n"
	printf "use; per-CPU: (percpu_bytes + the %d-byte static section) x CPUs; kernel Percpu:\n", static
	printf "/proc/meminfo's growth since before the first insmod, whole pages of every CPU (not in\n"
	printf "the total); TCP ports in use: %d, then %d\n", ports[counts[1], "loaded"], ports[counts[1], "port"]
	printf "\nthe kernel's slab and vmalloc over %d handshakes, KiB: its own caches, not the module's\n",
		info[counts[1], "connections"]
	printf "%5s %22s %22s %22s\n", "CPUs", "under the module", "without it", "rmmod gave back after"
	for (i = 1; i <= ncounts; i++) {
		n = counts[i]
		printf "%5d %22s %22s %22s\n", n,
			sprintf("%+.1f, %+.1f", grow_slab[n, "port"] / 1024, grow_vmal[n, "port"] / 1024),
			sprintf("%+.1f, %+.1f", grow_slab[n, "control"] / 1024, grow_vmal[n, "control"] / 1024),
			sprintf("%.1f, %.1f", back_slab[n] / 1024, back_vmal[n] / 1024)
	}
	printf "\nleast squares over"
	for (i = 1; i <= ncounts; i++)
		printf " %d", counts[i]
	printf " CPUs: total = fixed + per CPU x CPUs\n"
	printf "%-10s %12s %12s %16s\n", "stage", "per CPU KiB", "fixed KiB", "at 128 CPUs KiB"
	for (s = 1; s <= 2; s++) {
		st = s == 1 ? "loaded" : "port"
		printf "%-10s %12s %12s %16s (%.2f MB)\n", st == "loaded" ? "at rest" : "one port",
			kib(slope[st]), kib(fixed[st]), kib(fixed[st] + 128 * slope[st]),
			(fixed[st] + 128 * slope[st]) / 1e6
	}
	printf "\nteeprobe record while it records (trace-cmd record in an instance of its own)\n"
	printf "%5s %8s %10s %12s %12s %14s\n", "CPUs", "readers", "processes", "PSS MiB", "ring MiB", "ring KiB/CPU"
	for (i = 1; i <= ncounts; i++) {
		n = counts[i]
		if (!(n in rec))
			continue
		printf "%5d %8d %10d %12.1f %12.1f %14.0f\n", n, readers[n], procs[n], pss[n] / 1024,
			ringkb[n] / 1024, ringkb[n] / n
	}
	printf "\ngoal (issue 51): <= 64 KiB per CPU, <= 512 KiB fixed, under 9 MB at 128 CPUs\n"
	printf "  at rest:  %s\n", goal("loaded")
	printf "  one port: %s\n", goal("port")
}
