/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fhook.h - a call to a kernel function, seen at its entry with its
 * arguments: an ftrace callback where the kernel lets a module read the
 * registers (DYNAMIC_FTRACE_WITH_REGS), a kprobe elsewhere.
 *
 * Why not kprobes everywhere: kprobes do not nest. While any kprobe
 * handler runs on a CPU (a kretprobe's return in a connect() or TEE ioctl
 * call, in process context with interrupts on), the hits of every other
 * kprobe on that CPU are missed: the NET_RX softirq that an interrupt runs
 * at its exit then loses whole batches of SYNs and ACKs. ftrace callbacks
 * guard against recursion per context (process, softirq, irq, NMI), so a
 * softirq's callback runs whatever the process it interrupted was doing.
 */
#ifndef TEEPROBE_FHOOK_H
#define TEEPROBE_FHOOK_H

#include <linux/atomic.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/types.h>

#define TEEPROBE_FHOOK_FTRACE	IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS)

struct seq_file;

struct teeprobe_fhook {
	const char *symbol;
	void (*func)(struct pt_regs *regs);	/* at entry; arguments in @regs */
	bool optional;			/* may be missing (a family in a module) */
	bool attached;
	int error;			/* -ENOENT: no such (traceable) function */
	atomic_long_t missed;		/* calls not seen: same-context recursion */
#if TEEPROBE_FHOOK_FTRACE
	struct ftrace_ops ops;
#else
	struct kprobe kp;
#endif
};

void teeprobe_fhook_attach(struct teeprobe_fhook *h);
void teeprobe_fhook_detach(struct teeprobe_fhook *h);
/* a line of tcp_probes: "symbol type state error nmissed" */
void teeprobe_fhook_show(struct seq_file *m, struct teeprobe_fhook *h);

#endif /* TEEPROBE_FHOOK_H */
