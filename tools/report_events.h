/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report_events.h - a session's events tallied for "teeprobe report":
 * TEE calls by command and thread, handshake phases, NET_RX windows by
 * CPU (report_events.c); report.c computes its tables from them.
 */
#ifndef TEEPROBE_REPORT_EVENTS_H
#define TEEPROBE_REPORT_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "module/abi.h"
#include "quantile.h"
#include "session.h"

struct cmd_events {
	unsigned int id;
	char name[32];
	struct quantile duration;
	double total_ns, offcpu_ns, runq_ns, queue_wait_ns;
	unsigned long long errors;
};

struct thread_events {
	int tid;
	char comm[32];
	unsigned long long calls;
	double total_ns, offcpu_ns;
};

struct netrx_windows {
	unsigned long long windows;
	double runs, packets, raises, ksoftirqd_runs;
	double first_start, last_end;	/* seconds */
};
/* TCP handshake phases: the module's (module/abi.h), as its files name them */
enum {
	PH_SYN_SYNACK = TEEPROBE_TCP_SYN_SYNACK,
	PH_SYNACK_ACK = TEEPROBE_TCP_SYNACK_ACK,
	PH_ACK_ACCEPT = TEEPROBE_TCP_ACK_ACCEPT,
	PH_CONNECT = TEEPROBE_TCP_CONNECT,
	PH_CONNECT_CALL = TEEPROBE_TCP_CONNECT_CALL,
	PH_SYN_WAIT = TEEPROBE_TCP_SYN_WAIT,
	PH_ACK_WAIT = TEEPROBE_TCP_ACK_WAIT,
	NR_PHASES = TEEPROBE_TCP_PHASES
};

/* phase_server - whether phase @p is a server one */
static inline bool phase_server(int p)
{
	return p != PH_CONNECT && p != PH_CONNECT_CALL;
}

/*
 * A session's events tallied: by command, thread, phase, CPU. Bounded:
 * its size does not grow with the events' count (quantile.h), so the
 * reading child tallies them as they come (session_stream()) and hands
 * over only this.
 */
struct report_events {
	const struct session *s;		/* the parent's */
	const struct snapshot *snap;		/* the session's start, end */
	struct quantile phase[NR_PHASES];
	unsigned long long handshakes[2];	/* server, client events */
	struct cmd_events cmds[SESSION_MAX_CMDS];
	int nr_cmds;
	struct thread_events threads[SESSION_MAX_THREADS];
	int nr_threads;
	unsigned long long threads_overflow;
	struct netrx_windows win[SESSION_MAX_CPUS];
	/* the windows the module says it closed late (abi.h), if it says */
	bool late_known;
	unsigned long long late;
	double late_max_ns;
};

void report_events_build(struct report_events *r, const struct session *s);
void report_events_release(struct report_events *r);

/* The streaming client (session_stream()) that tallies into a report_events */
extern const struct session_visitor report_events_visitor;
void report_events_attach(struct report_events *r, const struct session *s);

#endif /* TEEPROBE_REPORT_EVENTS_H */
