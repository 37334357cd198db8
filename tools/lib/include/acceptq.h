/* SPDX-License-Identifier: GPL-2.0 */
/*
 * acceptq.h - what the accepting threads did while connections waited in
 * the accept queue. Pure (no I/O): the unit tests drive it with made-up
 * events.
 *
 * A server handshake waits in its listener's accept queue from its final
 * ACK to accept(). Over each such wait, every thread that accepts on that
 * port is looked at: inside a TEE call (on a CPU, waiting for one, asleep;
 * the calls' shared-memory set-up, waits for a secure thread and time in
 * the secure world apart), or
 * outside (running its own code, waiting for a CPU, asleep waiting for
 * work). The TEE calls come from teeprobe_tee_ioctl_exit, the scheduler
 * states from teeprobe_acceptor_state; without the latter (an older file)
 * the time outside TEE calls is unknown, and inside them the calls' own
 * off-CPU share splits it.
 */
#ifndef TEEPROBE_ACCEPTQ_H
#define TEEPROBE_ACCEPTQ_H

#include "series.h"

enum acceptq_part {
	AQ_TEE_ONCPU,		/* in a TEE call, on a CPU */
	AQ_TEE_RUNNABLE,	/* in a TEE call, waiting for a CPU */
	AQ_TEE_ASLEEP,		/* in a TEE call, asleep */
	AQ_RUNNING,		/* outside TEE calls, on a CPU */
	AQ_RUNNABLE,		/* outside TEE calls, waiting for a CPU */
	AQ_ASLEEP,		/* outside TEE calls, asleep (waiting for work) */
	AQ_UNKNOWN,		/* outside TEE calls, state not recorded */
	NR_AQ_PARTS
};

struct acceptq {
	double handshakes;		/* server handshakes looked at */
	double acceptors;		/* threads that accept, all ports */
	double wait_ns;			/* their accept-queue waits, summed */
	double thread_ns;		/* waits x the port's acceptors */
	double part_ns[NR_AQ_PARTS];	/* thread_ns split; adds up to it */
	/* the TEE parts' time by where it went (verdict.h, struct tee_split) */
	double tee_setup_ns;		/* in SHM set-up calls, whole */
	double tee_setup_asleep_ns;	/* of that, asleep */
	double tee_setup_oncpu_ns;	/* of that, on a CPU */
	double tee_setup_once_ns;	/* in one-time set-up calls, whole */
	double tee_queue_ns;		/* other calls, waiting for a secure thread */
	double tee_secure_ns;		/* other calls, in the secure world */
	bool states;			/* the file has acceptor states */
};

/* acceptq_measure - the split of the waits of @ev's server handshakes */
void acceptq_measure(const struct session_events *ev, struct acceptq *q);

/*
 * The same split from events that come one by one in time order, none
 * kept but those of the last max_call_ns + max_wait_ns (the longest TEE
 * call, the longest wait: a first read of the session finds them, and the
 * accepting threads). Each thread's time line is added up as
 * acceptq_measure()'s, in the same order: the same doubles. A TEE call's
 * setup_once is the caller's. acceptq_stream_finish() is false when the
 * events were not in time order after all (then measure them otherwise).
 */
struct acceptq_stream;

/* @ports and @tids: the @npairs (port, thread) accepting, by port then tid */
struct acceptq_stream *acceptq_stream_new(const int *ports, const int *tids,
					  size_t npairs,
					  unsigned long long max_call_ns,
					  unsigned long long max_wait_ns,
					  unsigned long long end_ns);
void acceptq_stream_tee(struct acceptq_stream *s, const struct tee_call *c);
void acceptq_stream_acc(struct acceptq_stream *s, const struct acc_event *a);
void acceptq_stream_hs(struct acceptq_stream *s, const struct hs_event *h);
bool acceptq_stream_finish(struct acceptq_stream *s, struct acceptq *q);
size_t acceptq_stream_most(const struct acceptq_stream *s);
void acceptq_stream_free(struct acceptq_stream *s);

const char *acceptq_part_name(enum acceptq_part p);
const char *acceptq_part_key(enum acceptq_part p);

#endif /* TEEPROBE_ACCEPTQ_H */
