/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tee_part.h - what the TEE part's files share: tee.c (the parameters, the
 * probes of the preset, init and exit), tee_calls.c (the calls in flight:
 * the pid filter, their table, the TEE clock, sched_switch and the
 * kretprobes' handlers) and tee_stats.c (the counters a call ends in,
 * their debugfs files and their reset).
 */
#ifndef TEEPROBE_TEE_PART_H
#define TEEPROBE_TEE_PART_H

#include <linux/kallsyms.h>
#include <linux/types.h>

#include "compat.h"
#include "kretprobe.h"
#include "tee_cmd.h"
#include "teeprobe.h"

/* the tzdriver preset's fifteen probes and up to ten of wait_symbols */
#define TEEPROBE_MAX_PROBES		25

enum teeprobe_role {
	TEEPROBE_ROLE_IOCTL,	/* the ioctl entry: one call per hit */
	TEEPROBE_ROLE_WAIT,	/* waiting for the TEE: charged to the current call */
	TEEPROBE_ROLE_STEP,	/* a timed step (shared memory set-up or release) */
	/*
	 * one entry into the secure world (an SMC): timed, and charged to the
	 * current call as secure time
	 */
	TEEPROBE_ROLE_SECURE,
	/*
	 * a wait with no function of its own, before the preset's wait_end
	 * step starts: from this function's entry to that step's entry
	 * (tzdriver: tc_ns_send_cmd's session lock, before tc_client_call)
	 */
	TEEPROBE_ROLE_WAIT_BEFORE,
	/*
	 * a wait inlined into this function: the time the caller sleeps in
	 * it, less the waits of the preset's own functions inside it
	 * (tzdriver: proc_ta_pending, inlined into smp_smc_send_func)
	 */
	TEEPROBE_ROLE_WAIT_BLOCKED,
};

/* A probe's own counters, per CPU: its hits, their time, the longest */
struct teeprobe_step_stats {
	u64 calls;
	u64 total_ns;
	u64 max_ns;
};

struct teeprobe_tee_probe {
	char symbol[KSYM_NAME_LEN];
	enum teeprobe_role role;
	bool wait_end;		/* a step whose entry ends the WAIT_BEFORE wait */
	struct teeprobe_kretprobe kp;
	struct teeprobe_step_stats __percpu *stats;
};

/*
 * What a kretprobe instance keeps between entry and return. 16 bytes: with
 * the kernel's 48-byte instance header each of the maxactive instances of
 * every probe fits a 64-byte slab object (a pointer here made it 96).
 */
struct teeprobe_instance {
	u64 start_ns;
	u32 raw_cmd;
	u32 call;	/* 1 + the call's slot in the pool; 0: not tracked */
};


/* tee.c: follow tzdriver's TZ_WAIT_EVENT ioctls (teecd's agents) too */
extern bool teeprobe_tee_agents;

/* tee_calls.c */
int teeprobe_tee_calls_alloc(unsigned int size);
void teeprobe_tee_calls_free(void);
void teeprobe_tee_sched_switch(TEEPROBE_SCHED_SWITCH_PROTO);
int teeprobe_tee_ioctl_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs);
int teeprobe_tee_ioctl_return(struct kretprobe_instance *ri,
			      struct pt_regs *regs);
int teeprobe_tee_timed_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs);
int teeprobe_tee_timed_return(struct kretprobe_instance *ri,
			      struct pt_regs *regs);

/*
 * tee_stats.c: the probes (filled in by tee.c) and their counters, and
 * what an ended call adds to the counters
 */
struct teeprobe_tee_call_times {
	u64 duration_ns;
	u64 offcpu_ns;
	u64 runq_ns;
	u64 queue_wait_ns;
	u64 secure_ns;
	u64 secure_entries;
};

extern struct teeprobe_tee_probe teeprobe_tee_probes[TEEPROBE_MAX_PROBES];
extern unsigned int teeprobe_tee_nr_probes;
extern struct teeprobe_tee_probe *teeprobe_tee_wait_before;
extern struct teeprobe_part teeprobe_tee_part;
int teeprobe_tee_stats_alloc(const char *preset);
void teeprobe_tee_stats_free(void);
void teeprobe_tee_account(enum teeprobe_tee_cmd cmd, long ret, bool tracked,
			  const struct teeprobe_tee_call_times *t);
void teeprobe_tee_step_account(struct teeprobe_tee_probe *p, u64 elapsed);

#endif /* TEEPROBE_TEE_PART_H */
