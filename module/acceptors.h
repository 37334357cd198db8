/* SPDX-License-Identifier: GPL-2.0 */
/*
 * acceptors.h - the threads that accept connections, and the scheduler
 * states teeprobe reports for them (teeprobe_acceptor_state).
 */
#ifndef TEEPROBE_ACCEPTORS_H
#define TEEPROBE_ACCEPTORS_H

enum teeprobe_acceptor_state {
	TEEPROBE_ACCEPTOR_RUNNING,	/* on a CPU */
	TEEPROBE_ACCEPTOR_RUNNABLE,	/* woken or preempted: wants a CPU */
	TEEPROBE_ACCEPTOR_ASLEEP,	/* blocked: in epoll, accept, a TEE call... */
};

/* the event's register and unregister functions (acceptors.c) */
int teeprobe_acceptors_event_reg(void);
void teeprobe_acceptors_event_unreg(void);

#endif /* TEEPROBE_ACCEPTORS_H */
