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

#include "tee_cmd.h"

/* Tell user space (libtraceevent) the values of the command names. */
#ifndef TP_TEE_CMD_SYMBOL
#define TP_TEE_CMD_SYMBOL(e, name, cmd) { e, name },
#define TP_TEE_CMD_DEFINE(e, name, cmd) TRACE_DEFINE_ENUM(e);
#endif
TEEPROBE_TEE_CMD_LIST(TP_TEE_CMD_DEFINE)
TRACE_DEFINE_ENUM(TP_TEE_CMD_OTHER);

#define show_tee_cmd(cmd)						\
	__print_symbolic(cmd, TEEPROBE_TEE_CMD_LIST(TP_TEE_CMD_SYMBOL)	\
			 { TP_TEE_CMD_OTHER, "OTHER" })

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

/*
 * teeprobe_tee_ioctl_enter - a thread entered the TEE driver's ioctl.
 * @cmd: the decoded command; @raw_cmd: the ioctl number as passed.
 */
TRACE_EVENT(teeprobe_tee_ioctl_enter,

	TP_PROTO(unsigned int cmd, unsigned int raw_cmd),

	TP_ARGS(cmd, raw_cmd),

	TP_STRUCT__entry(
		__field(unsigned int, cmd)
		__field(unsigned int, raw_cmd)
	),

	TP_fast_assign(
		__entry->cmd = cmd;
		__entry->raw_cmd = raw_cmd;
	),

	TP_printk("cmd=%s raw_cmd=0x%x", show_tee_cmd(__entry->cmd),
		  __entry->raw_cmd)
);

/*
 * teeprobe_tee_ioctl_exit - the thread left the TEE driver's ioctl.
 * @duration_ns: time inside the ioctl; @offcpu_ns: the part of it the thread
 * was blocked (asleep); @runq_ns: the part it was preempted and waiting for
 * a CPU; @queue_wait_ns: the part spent waiting for a free secure thread
 * (where the driver shows it); @ret: the ioctl's return value.
 */
TRACE_EVENT(teeprobe_tee_ioctl_exit,

	TP_PROTO(unsigned int cmd, u64 duration_ns, u64 offcpu_ns, u64 runq_ns,
		 u64 queue_wait_ns, long ret),

	TP_ARGS(cmd, duration_ns, offcpu_ns, runq_ns, queue_wait_ns, ret),

	TP_STRUCT__entry(
		__field(unsigned int, cmd)
		__field(u64, duration_ns)
		__field(u64, offcpu_ns)
		__field(u64, runq_ns)
		__field(u64, queue_wait_ns)
		__field(long, ret)
	),

	TP_fast_assign(
		__entry->cmd = cmd;
		__entry->duration_ns = duration_ns;
		__entry->offcpu_ns = offcpu_ns;
		__entry->runq_ns = runq_ns;
		__entry->queue_wait_ns = queue_wait_ns;
		__entry->ret = ret;
	),

	TP_printk("cmd=%s duration_ns=%llu offcpu_ns=%llu runq_ns=%llu queue_wait_ns=%llu ret=%ld",
		  show_tee_cmd(__entry->cmd), __entry->duration_ns,
		  __entry->offcpu_ns, __entry->runq_ns, __entry->queue_wait_ns,
		  __entry->ret)
);

#endif /* _TEEPROBE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
