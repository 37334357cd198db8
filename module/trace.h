/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - teeprobe's trace events (system "teeprobe").
 *
 * Defined with TRACE_EVENT so they show up under
 * /sys/kernel/tracing/events/teeprobe/ and "trace-cmd record -e teeprobe"
 * records them with their formats; libtraceevent prints them from those
 * formats alone.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM teeprobe

#if !defined(_TEEPROBE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TEEPROBE_TRACE_H

#include <linux/tracepoint.h>

/*
 * teeprobe_reset - the module's counters and histograms were zeroed.
 * Readers of a recording use it to know that debugfs snapshots taken before
 * and after it do not subtract.
 */
TRACE_EVENT(teeprobe_reset,

	TP_PROTO(unsigned int generation),

	TP_ARGS(generation),

	TP_STRUCT__entry(
		__field(unsigned int, generation)
	),

	TP_fast_assign(
		__entry->generation = generation;
	),

	TP_printk("generation=%u", __entry->generation)
);

#endif /* _TEEPROBE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
