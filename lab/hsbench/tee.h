/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tee.h - hsbench's client of the teesim crypto TA over the TEE driver
 * ioctls (<linux/tee.h>), in the two patterns a server thread can use:
 *
 *   TEE_SHM_TEMPORARY   per crypto call: TEE_IOC_SHM_REGISTER the buffer,
 *                       TEE_IOC_INVOKE, close() the shm fd (what libteec
 *                       does for a temporary memref)
 *   TEE_SHM_REGISTERED  the buffer is registered once when the client
 *                       opens; a crypto call is one TEE_IOC_INVOKE
 *
 * Built with HSBENCH_TEEC (make TEEC=<optee_client export>), the same
 * interface goes through libteec, the GlobalPlatform client API of a real
 * secure world (teec.c): TEMPORARY passes TEEC_MEMREF_TEMP_* parameters,
 * for each of which libteec registers the caller's memory around the call
 * (TEE_IOC_SHM_REGISTER, then close()), REGISTERED registers the buffer
 * once with TEEC_RegisterSharedMemory.
 */
#ifndef HSBENCH_TEE_H
#define HSBENCH_TEE_H

#include <stddef.h>
#include <stdint.h>

#include <linux/tee.h>

#ifdef HSBENCH_TEEC
#include <tee_client_api.h>
#endif

#include "sm.h"
#include "teesim_abi.h"

enum tee_shm_pattern {
	TEE_SHM_TEMPORARY,
	TEE_SHM_REGISTERED,
	/* libteec only: TEEC_AllocateSharedMemory memory (iTrustee: the
	 * driver's, mapped; TEEC_MEM_SHARED_INOUT: the caller's own pages,
	 * pinned by the driver at each call, iTrustee only) */
	TEE_SHM_ALLOCATED,
	TEE_SHM_SHARED,
};

/* struct tee_ioctl_counts - ioctls issued (and shm fds closed), by type */
struct tee_ioctl_counts {
	uint64_t open_session;
	uint64_t invoke;
	uint64_t shm_register;
	uint64_t shm_close;
	uint64_t close_session;
	/* TEESIM_CMD_STATS (libteec build): the TA's own counts, summed */
	uint64_t ta_known;	/* sessions whose counts were read */
	uint64_t ta_sm3;
	uint64_t ta_sm4;
	uint64_t ta_refused;
	uint64_t ta_sessions;
};

/*
 * struct tee_client - one thread's fd, session and shared buffer
 * @buf: page-aligned; crypto data at offset 0, the SM3 output after it
 * @buf_size: bytes of @buf registered as shared memory (whole pages)
 * @counts: where the ioctls are counted; written only by the owning thread
 */
struct tee_client {
	int fd;
	uint32_t session;
	int session_open;
	enum tee_shm_pattern pattern;
	uint8_t *buf;
	size_t buf_size;
	int shm_fd;
	int32_t shm_id;
	int errors_to_show;
	struct tee_ioctl_counts *counts;
#ifdef HSBENCH_TEEC
	TEEC_Context ctx;
	TEEC_Session sess;
	TEEC_SharedMemory shm;
	int ctx_open;
	int shm_registered;
	int buf_is_shm;		/* buf is TEEC_AllocateSharedMemory's */
#endif
};

/* The device the lab TA runs behind: teesim's, or OP-TEE's (libteec build) */
#ifdef HSBENCH_ITEEC
#define TEE_LAB_DEVICE		"/dev/tc_ns_client"
#define TEE_LAB_HINT		"is tzdriver loaded, and teecd running?"
#elif defined(HSBENCH_TEEC)
#define TEE_LAB_IMPL_ID		TEE_IMPL_ID_OPTEE
#define TEE_LAB_DEVICE		"n OP-TEE"
#define TEE_LAB_HINT		"is optee.ko loaded, over a secure world running OP-TEE?"
#else
#define TEE_LAB_IMPL_ID		TEESIM_IMPL_ID
#define TEE_LAB_DEVICE		" teesim"
#define TEE_LAB_HINT		"is teesim.ko loaded?"
#endif

/*
 * tee_find_device - pick the lab TA's device into @path: @wanted if not
 * NULL (checked), else the first /dev/tee[0-9]* whose impl_id is
 * TEE_LAB_IMPL_ID. Prints why on failure and returns -1.
 */
int tee_find_device(const char *wanted, char *path, size_t path_size);

/* tee_origin_name - the name of a GlobalPlatform ret_origin value */
const char *tee_origin_name(uint32_t origin);

/* tee_client_error - report an error of @tc; only the first few are shown */
void tee_client_error(struct tee_client *tc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Parameters of every OPEN_SESSION and INVOKE, unused ones NONE, as libteec */
#define TEE_NUM_PARAMS		4

/*
 * tee_open_session_raw - TEE_IOC_OPEN_SESSION to @uuid on @fd (public
 * login, TEE_NUM_PARAMS unused parameters). Returns -1 with errno if the
 * ioctl fails, else 0 with the TA's @ret and @origin, and @session.
 */
int tee_open_session_raw(int fd, const uint8_t uuid[TEE_IOCTL_UUID_LEN],
			 uint32_t *session, uint32_t *ret, uint32_t *origin);

/*
 * tee_invoke_raw - TEE_IOC_INVOKE of @func in @session on @fd with
 * @params (TEE_NUM_PARAMS of them, updated on return). Returns -1 with
 * errno if the ioctl fails, else 0 with the TA's @ret and @origin.
 */
int tee_invoke_raw(int fd, uint32_t session, uint32_t func,
		   struct tee_ioctl_param *params, uint32_t *ret,
		   uint32_t *origin);

/*
 * tee_client_open - open @path, a session to the teesim TA and a buffer for
 * crypto data of up to @data_len bytes; registered now if @pattern is
 * TEE_SHM_REGISTERED. Prints why on failure and returns -1.
 */
int tee_client_open(struct tee_client *tc, const char *path,
		    enum tee_shm_pattern pattern, size_t data_len,
		    struct tee_ioctl_counts *counts);

/*
 * tee_client_set_pattern - @tc's calls in @pattern from now on: for
 * TEE_SHM_REGISTERED, its buffer is registered now if it was not yet.
 * Prints why on failure and returns -1 (the pattern unchanged).
 */
int tee_client_set_pattern(struct tee_client *tc, enum tee_shm_pattern pattern);

/* tee_client_close - release the buffer, session and fd of @tc */
void tee_client_close(struct tee_client *tc);

/*
 * tee_sm3 - TEESIM_CMD_SM3_DIGEST of @len bytes at @buf, which must be
 * tc->buf; @ctx is the struct tee_client. Returns 0 or -1.
 */
int tee_sm3(void *ctx, const uint8_t *buf, size_t len,
	    uint8_t digest[LAB_SM3_DIGEST_SIZE]);

/* tee_sm4 - TEESIM_CMD_SM4_ENCRYPT of @len bytes at @buf (tc->buf) in place */
int tee_sm4(void *ctx, const uint8_t key[LAB_SM4_KEY_SIZE],
	    uint8_t *buf, size_t len);

/*
 * tee_ta_stats - TEESIM_CMD_STATS on tc's session (libteec build, lab/ta):
 * adds the TA's counts to tc->counts. Returns 0 or -1.
 */
int tee_ta_stats(struct tee_client *tc);

#endif /* HSBENCH_TEE_H */
