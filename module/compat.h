/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel-version difference teeprobe.ko deals with.
 *
 * Supported: 6.1 (Debian 12) to 6.12 (Debian 12's newest kernel).
 */
#ifndef TEEPROBE_COMPAT_H
#define TEEPROBE_COMPAT_H

#include <linux/version.h>

/*
 * sched:sched_switch gained prev_state in 5.18; 6.1 and 6.12 both pass
 * (preempt, prev, next, prev_state).
 */
#define TP_SCHED_SWITCH_PROTO	void *data, bool preempt,		\
				struct task_struct *prev,		\
				struct task_struct *next,		\
				unsigned int prev_state

#endif /* TEEPROBE_COMPAT_H */
