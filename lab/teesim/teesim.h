/* SPDX-License-Identifier: GPL-2.0 */
/*
 * teesim.h - declarations shared by the parts of teesim.ko.
 *
 * teesim is a TEE backend registered through the kernel's TEE core, so that
 * user space reaches it through /dev/teeN and mainline tee_ioctl(), as it
 * reaches OP-TEE on a real host. Its "secure world" models what makes a real
 * TEE slow: a fixed pool of secure threads, a world-switch cost per secure
 * call during which the CPU belongs to the secure world (bottom halves off),
 * secure work the caller sleeps through or spins in, shared-memory
 * (un)registration each costing a secure call, and the normal-world
 * driver's own work per call.
 */
#ifndef TEESIM_H
#define TEESIM_H

#include <linux/atomic.h>
#include <linux/types.h>

#include "compat.h"

#define TEESIM_MAX_SECURE_THREADS	64

/* GlobalPlatform TEE Client API return codes and origins */
#define TEEC_SUCCESS			0x00000000
#define TEEC_ERROR_ITEM_NOT_FOUND	0xFFFF0008
#define TEEC_ERROR_BAD_PARAMETERS	0xFFFF0006
#define TEEC_ERROR_NOT_SUPPORTED	0xFFFF000A
#define TEEC_ERROR_OUT_OF_MEMORY	0xFFFF000C
#define TEEC_ERROR_BUSY			0xFFFF000D
#define TEEC_ORIGIN_TEE			3
#define TEEC_ORIGIN_TRUSTED_APP		4

/* Parameters of the model, read-only after load (see main.c) */
struct teesim_params {
	unsigned int secure_threads;	/* secure threads in the pool */
	unsigned int switch_us;		/* CPU time per world switch */
	unsigned int invoke_us;		/* secure work per INVOKE */
	unsigned int invoke_cpu_us;	/* its part on the calling CPU */
	unsigned int shm_us;		/* secure work per (un)register */
	unsigned int shm_cpu_us;	/* its part on the calling CPU */
	unsigned int driver_us;		/* normal-world driver work per INVOKE */
	unsigned int unreg_pct;		/* an unregister's cost, % of those */
	unsigned int pool_kib;		/* size limit of the shm pool */
};
extern struct teesim_params teesim_params;

/* What a secure call is for; each kind is counted on its own. */
enum teesim_call {
	TEESIM_CALL_OPEN_SESSION,
	TEESIM_CALL_CLOSE_SESSION,
	TEESIM_CALL_INVOKE,
	TEESIM_CALL_SHM_REGISTER,
	TEESIM_CALL_SHM_UNREGISTER,
	TEESIM_CALL_KINDS
};

/* Counters in debugfs: the independent truth tests compare teeprobe with */
struct teesim_stats {
	atomic64_t calls[TEESIM_CALL_KINDS];
	atomic64_t call_ns[TEESIM_CALL_KINDS];	/* in the secure world */
	atomic64_t asleep_ns[TEESIM_CALL_KINDS];	/* of that, caller asleep */
	atomic64_t invoke_sm3;
	atomic64_t invoke_sm4;
	atomic64_t invoke_errors;
	atomic64_t shm_pool_allocs;
	atomic64_t shm_pool_frees;
	atomic64_t shm_pool_bytes;
	atomic64_t thread_waits;	/* calls that found no free thread */
	atomic64_t thread_wait_ns;	/* time spent waiting for one */
	atomic64_t secure_ns;		/* time secure threads were busy */
	atomic64_t bh_off_ns;		/* time CPUs spun with bottom halves off */
	atomic64_t driver_ns;		/* normal-world driver work (driver_us) */
	atomic64_t sessions_open;
};
extern struct teesim_stats teesim_stats;

/* A secure thread while a call holds it; bounce is TEESIM_MAX_MEMREF bytes */
struct teesim_thread {
	unsigned int index;
	u8 *bounce;
};

int teesim_secure_init(void);
void teesim_secure_exit(void);
struct teesim_thread *teesim_wait_for_secure_thread(bool killable);
struct teesim_thread *teesim_enter_secure_world(bool killable);
void teesim_leave_secure_world(struct teesim_thread *thread);
int teesim_run_secure(struct teesim_thread *thread, enum teesim_call kind,
		      unsigned int busy_us, unsigned int cpu_us,
		      int (*work)(struct teesim_thread *thread, void *data),
		      void *data);
void teesim_driver_work(unsigned int us);
int teesim_secure_call(enum teesim_call kind, unsigned int busy_us,
		       unsigned int cpu_us,
		       int (*work)(struct teesim_thread *thread, void *data),
		       void *data);

int teesim_ta_invoke(struct teesim_thread *thread, u32 func,
		     struct tee_param *param, u32 num_params, u32 *ret);

int teesim_stats_init(void);
void teesim_stats_exit(void);

#endif /* TEESIM_H */
