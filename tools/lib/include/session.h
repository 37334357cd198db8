/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - a recorded session read back: the library behind "teeprobe
 * report", analyze, compare, plot and the fuzzers, as libtracecmd is behind
 * trace-cmd's report.
 *
 * session_read() opens a trace.dat through libtracecmd in a guarded child
 * (readguard.h), dispatches each record by its event id, and gives one
 * struct session: the start and end snapshots that "teeprobe record"
 * writes as markers (snapshot.h), and every teeprobe event once. Figures
 * and tables are the clients' (report.c and the others).
 *
 * Times are the trace clock's (record uses CLOCK_MONOTONIC, the module's
 * window clock), in nanoseconds.
 */
#ifndef TEEPROBE_SESSION_H
#define TEEPROBE_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "snapshot.h"

#define SESSION_MAX_KINDS	64
#define SESSION_MAX_CMDS	32
#define SESSION_MAX_THREADS	1024
#define SESSION_MAX_CPUS	256	/* NET_RX windows of CPUs beyond: not kept */

/* One TEE ioctl, from its exit event */
struct tee_call {
	unsigned long long end_ns, dur_ns, offcpu_ns, runq_ns, queue_wait_ns;
	unsigned long long secure_ns;	/* in the secure world's entries */
	long long ret;
	unsigned int cmd;	/* the command's id: session's cmds[] names it */
	int cpu, tid;
	bool setup;		/* SHM_REGISTER or SHM_ALLOC */
	bool setup_once;	/* set-up before its thread's first call into a TA */
	bool invoke;		/* a call into a TA: INVOKE (tzdriver's TZ_SEND_CMD) */
	bool secure_known;	/* the event has secure_ns (earlier modules' had not) */
};

/* One CPU's NET_RX window (teeprobe_netrx_window) */
struct netrx_win {
	int cpu;
	unsigned long long start_ns, len_ns;
	double raises, runs, ksoftirqd_runs, run_ns, packets, reraises;
	double inline_n, inline_sum_ns, inline_p99_ns;
	double ksoftirqd_n, ksoftirqd_sum_ns, ksoftirqd_p99_ns;
	double tee_runs, tee_sum_ns;	/* inline runs inside TEE calls */
	unsigned long long late_ns;	/* closed that long after its end */
	bool late_known;		/* the event has late_ns (older: not) */
};

/* One handshake (teeprobe_tcp_handshake) */
struct hs_event {
	unsigned long long ts;
	int tid;		/* server: the thread that accepted it */
	int port;		/* server: the listening port; client: the remote */
	bool client;
	bool has_waits;		/* the event carries syn_wait_ns and ack_wait_ns */
	unsigned long long syn_synack_ns, synack_ack_ns, ack_accept_ns;
	unsigned long long syn_wait_ns, ack_wait_ns;	/* its own packets' */
	unsigned long long connect_ns;
	unsigned long long connect_call_ns;	/* 0: connect() did not wait */
};

/* The scheduler states of accepting threads (teeprobe_acceptor_state) */
enum acc_state { ACC_RUNNING, ACC_RUNNABLE, ACC_ASLEEP, ACC_UNKNOWN };

struct acc_event {
	unsigned long long ts;
	int tid;
	enum acc_state state;
};

/* The session's events, in the order the file holds them */
struct session_events {
	struct tee_call *tee;
	size_t ntee, cap_tee;
	struct netrx_win *netrx;
	size_t nnetrx, cap_netrx;
	struct hs_event *hs;
	size_t nhs, cap_hs;
	struct acc_event *acc;
	size_t nacc, cap_acc;
	unsigned long long end_ns;	/* the last event's time */
};

/* A TEE command as the events name it ("INVOKE"), by its id */
struct session_cmd {
	unsigned int id;
	char name[32];
};

/* A thread that called the TEE, with its name in the file's comm list */
struct session_thread {
	int tid;
	char comm[32];
};

/* A kind of teeprobe event and how many the file holds */
struct session_kind {
	int id;
	char name[64];
	unsigned long long count;
};

struct session {
	struct snapshot snap[2];		/* start, end */
	struct snap_source pending[2];		/* a snapshot line in pieces */
	struct session_events ev;
	struct session_cmd cmds[SESSION_MAX_CMDS];	/* in order of appearance */
	int nr_cmds;
	struct session_thread threads[SESSION_MAX_THREADS];
	int nr_threads;
	struct session_kind kinds[SESSION_MAX_KINDS];
	int nr_kinds;
	unsigned long long teeprobe_events, other_events, missed_events;
	unsigned long long markers;		/* snapshot lines and pieces */
	unsigned long long first_ts, last_ts;	/* of teeprobe events */
	/*
	 * A capture of "teeprobe watch" (its start snapshot's "capture"
	 * source): its ring holds events from before its start snapshot,
	 * which are not the session's; how many were left out
	 */
	unsigned long long from_ns, before_start;
};

/*
 * A client that takes the events as they are read (session_stream()),
 * none kept: each callback is called in the reading child, in the file's
 * order, with the session as read so far (a call's command and thread are
 * in it); @finish after the last record, still in the child, leaves in
 * @acc figures of @size bytes that hold no pointer, which go to the parent
 * after the session's own; there @taken checks them (false: not
 * consistent) and clears what pointed into the child. A streamed TEE
 * call's setup_once is not known (false).
 */
struct session_visitor {
	void (*tee)(void *acc, const struct session *s, const struct tee_call *c);
	void (*netrx)(void *acc, const struct netrx_win *w);
	void (*hs)(void *acc, const struct hs_event *h);
	void (*acc)(void *acc, const struct acc_event *a);
	void (*finish)(void *acc, const struct session *s);
	size_t size;
	bool (*taken)(void *acc);
	/*
	 * Any order will do (figures that do not depend on it): each CPU's
	 * events in turn, not merged by time; the session's own (snapshots,
	 * commands and threads in order of appearance) may then differ
	 */
	bool any_order;
};

struct session *session_read(const char *input);
struct session *session_stream(const char *input,
			       const struct session_visitor *v, void *acc);
void session_free(struct session *s);
void session_events_free(struct session_events *ev);
void session_mark_setup_once(struct session_events *ev);

bool session_has_snapshots(const struct session *s);
const char *session_counters_note(const struct session *s);
double session_seconds(const struct session *s);
const char *session_cmd_name(const struct session *s, unsigned int id);
const char *session_comm(const struct session *s, int tid);

/* For the tests and the fuzzers: the child's hand-over, and reading here */
void session_read_in_parent(bool yes);
bool session_put(int fd, const struct session *s);
bool session_take(int fd, struct session *s);
bool session_take_part(int fd, struct session *s);

#endif /* TEEPROBE_SESSION_H */
