# SPDX-License-Identifier: GPL-2.0
# memory.sh - teeprobe's memory as bench/guest.sh's item 4, bench/size and
# t12-cpus read it (sourced in a guest; bench/host.sh sources it for the
# static section's size on the host).
#
#   memory_stage STAGE  one line: "memory STAGE module_bytes N sunreclaim_kb N
#                       vmalloc_kb N percpu_kb N" (teeprobe's size in
#                       /proc/modules, 0 when it is not loaded;
#                       /proc/meminfo's SUnreclaim, VmallocUsed and Percpu)
#   bench_percpu_static KO
#                       the bytes of KO's static per-CPU section

# memory_stage STAGE - the kernel's accounting now, as one "memory" line
memory_stage() {
	local module
	sync
	sleep 2		# RCU-deferred frees
	module=$(awk '$1 == "teeprobe" { print $2 }' /proc/modules)
	awk -v stage="$1" -v module="${module:-0}" '
		$1 == "SUnreclaim:" { s = $2 } $1 == "VmallocUsed:" { v = $2 }
		$1 == "Percpu:" { p = $2 }
		END { printf "memory %s module_bytes %d sunreclaim_kb %d vmalloc_kb %d percpu_kb %d\n",
			stage, module, s, v, p }' /proc/meminfo
}

# bench_percpu_static KO - the size of the module's static per-CPU section
# (.data..percpu), which every CPU holds a copy of; 0 without one
bench_percpu_static() {
	local size
	size=$(readelf -SW "$1" | awk '{ for (i = 1; i < NF; i++) if ($i == ".data..percpu") print $(i + 4) }')
	echo $((16#${size:-0}))
}
