/* SPDX-License-Identifier: GPL-2.0 */
/*
 * offcpu.h - where the time of one call goes when it is not on a CPU, as a
 * pure state machine fed by sched_switch and tested by KUnit.
 *
 * A call starts on-CPU. When its thread is switched out it is either
 * blocked (it went to sleep: waiting for the TEE, a lock, memory) or
 * preempted (still runnable, waiting for a CPU); the time until it is
 * switched in again is charged to off_ns or runq_ns accordingly. The rest
 * of the call is on-CPU. A switch-in without a switch-out (tracing started
 * mid-call) is ignored, and time never runs backwards.
 */
#ifndef TEEPROBE_OFFCPU_H
#define TEEPROBE_OFFCPU_H

#include <linux/types.h>

struct teeprobe_offcpu {
	u64 off_since;	/* when the task was switched out, 0 when on-CPU */
	bool blocked;	/* it went to sleep (not preempted) */
	u64 off_ns;	/* blocked time so far */
	u64 runq_ns;	/* preempted (runnable) time so far */
};

/* teeprobe_offcpu_out - switched out at @now, asleep if @blocked */
static inline void teeprobe_offcpu_out(struct teeprobe_offcpu *o, u64 now,
				       bool blocked)
{
	if (o->off_since)
		return;
	o->off_since = now ? now : 1;
	o->blocked = blocked;
}

/* teeprobe_offcpu_in - switched in at @now */
static inline void teeprobe_offcpu_in(struct teeprobe_offcpu *o, u64 now)
{
	if (!o->off_since)
		return;
	if (now > o->off_since) {
		if (o->blocked)
			o->off_ns += now - o->off_since;
		else
			o->runq_ns += now - o->off_since;
	}
	o->off_since = 0;
}

/* teeprobe_offcpu_end - the call ended at @now: close any open interval */
static inline void teeprobe_offcpu_end(struct teeprobe_offcpu *o, u64 now)
{
	teeprobe_offcpu_in(o, now);
}

#endif /* TEEPROBE_OFFCPU_H */
