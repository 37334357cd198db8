/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tzsim.h - declarations shared by the parts of tzsim.ko, the lab's
 * simulated iTrustee secure side.
 *
 * tzsim is built by scripts/tzdriver in the tree of the tzdriver version it
 * serves, beside tzdriver.ko, so that it reads the driver's command queue,
 * commands and operations through the driver's own headers. What a caller
 * waits for on a real iTrustee host is modelled with a few parameters
 * (tzsim_main.c): how many commands the secure side runs at once, a TA's
 * time per command (spent in the secure world on the caller's CPU, or off
 * it and completed later through the driver's wake-up path), and how many
 * slots of the driver's command queue the secure side leaves it.
 */
#ifndef TZSIM_H
#define TZSIM_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#define TZSIM_MAX_THREADS	64
#define TZSIM_MAX_SESSIONS	4096

/* Where a TA spends its time per command */
enum tzsim_ta_mode {
	TZSIM_TA_CPU,		/* in the SMC, holding the caller's CPU */
	TZSIM_TA_PENDING,	/* off it; completed later, caller woken */
};

/* The model's parameters, writable at run time (tzsim_main.c) */
struct tzsim_params {
	unsigned int secure_threads;	/* TA commands run at once */
	unsigned int ta_us;		/* a TA's time per command */
	unsigned int ta_mode;		/* enum tzsim_ta_mode */
	unsigned int queue_slots;	/* queue slots left to the driver, 0 all */
	unsigned int switch_us;		/* CPU time of each world switch */
};
extern struct tzsim_params tzsim_params;

/* The secure side's own counts: the truth the tests hold teeprobe to */
struct tzsim_stats {
	atomic64_t smc;			/* SMCs from the driver */
	atomic64_t smc_normal;		/* new commands (SMC_OPS_NORMAL) */
	atomic64_t smc_schedto;		/* re-entries (SMC_OPS_SCHEDTO) */
	atomic64_t smc_other;
	atomic64_t exit_preempted;	/* left for the normal world's CPU */
	atomic64_t exit_pending;	/* left with the caller's command not done */
	atomic64_t global_cmds;		/* driver's global commands answered */
	atomic64_t open_session;
	atomic64_t close_session;
	atomic64_t need_load_app;
	atomic64_t register_agent;
	atomic64_t ta_cmds;		/* TA commands (an INVOKE each) */
	atomic64_t ta_sm3;
	atomic64_t ta_sm4;
	atomic64_t ta_stats;
	atomic64_t ta_refused;		/* bad parameters, unknown command */
	atomic64_t memref_temp;		/* memrefs by what the driver sent */
	atomic64_t memref_pages;	/* TEEC_MEMREF_SHARED_INOUT: page lists */
	atomic64_t secure_ns;		/* TA time spent on callers' CPUs */
	atomic64_t switch_ns;		/* world switches' time on them */
	atomic64_t pending_ns;		/* from a pending exit to the wake-up */
	atomic64_t thread_waits;	/* commands that found no free thread */
	atomic64_t thread_wait_ns;
	atomic64_t wakeups;		/* notify entries + interrupts raised */
	atomic64_t notify_full;		/* no free notify entry: broadcast */
	atomic64_t queue_max_used;	/* most driver slots in use at once */
	atomic64_t sessions_open;	/* now */
};
extern struct tzsim_stats tzsim_stats;

int tzsim_secure_init(void);
void tzsim_secure_exit(void);
void tzsim_secure_stop(void);
void tzsim_params_changed(void);
void tzsim_irq_set(int irq);

/* The lab TA: @op is the driver's struct tc_ns_operation, or NULL */
u32 tzsim_ta_invoke_session(u32 session, u32 cmd_id, void *op, u32 *origin);
u32 tzsim_session_open(const u8 *uuid, u32 *session);
void tzsim_session_close(u32 session);
void tzsim_sessions_reset(void);
int tzsim_ta_init(void);
void tzsim_ta_exit(void);

int tzsim_debugfs_init(void);
void tzsim_debugfs_exit(void);

#endif /* TZSIM_H */
