// SPDX-License-Identifier: GPL-2.0
/*
 * teec.c - hsbench's client of the lab TA through libteec, the
 * GlobalPlatform client API of a real secure world (OP-TEE's optee_client):
 * tee.h's interface, built instead of tee.c's ioctl client when hsbench is
 * made with TEEC=<optee_client export> (HSBENCH_TEEC).
 *
 * TEE_SHM_TEMPORARY passes the data as TEEC_MEMREF_TEMP_* parameters, as a
 * service that hands libteec its buffers on every call does: for each one
 * libteec registers the caller's memory (TEE_IOC_SHM_REGISTER; OP-TEE's
 * driver then registers it with the secure world) and closes it after the
 * call (the driver unregisters it). TEE_SHM_REGISTERED registers the
 * buffer once with TEEC_RegisterSharedMemory and passes TEEC_MEMREF_PARTIAL_*
 * parameters into it. The counts are of the ioctls each libteec call makes:
 * one TEE_IOC_SHM_REGISTER and one close per temporary memref.
 *
 * Built with HSBENCH_ITEEC, on iTrustee's libteec (itrustee_client), whose
 * context gets /dev/tc_ns_client's fd from teecd: no libteec call there
 * makes an ioctl of its own for memory (the driver copies temporary and
 * registered memory into its mailbox inside each invoke), so no shm ioctl
 * is counted; TEE_SHM_ALLOCATED passes TEEC_AllocateSharedMemory memory
 * (the driver's, mapped) as partial memrefs, TEE_SHM_SHARED the same
 * allocated with TEEC_MEM_SHARED_INOUT (the caller's own pages, pinned by
 * the driver at each invoke) as TEEC_MEMREF_SHARED_INOUT.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "hsbench.h"
#include "tee.h"

static const TEEC_UUID lab_ta_uuid = {
	0x5eec0000, 0x7ee5, 0x4d00,
	{ 0x80, 0x00, 0x73, 0x69, 0x6d, 0x74, 0x65, 0x65 }
};

/* teec_invoke - TEEC_InvokeCommand of @func; @what names it in messages */
static int teec_invoke(struct tee_client *tc, uint32_t func, TEEC_Operation *op,
		       const char *what)
{
	uint32_t origin = 0;
	TEEC_Result res;

	counter_inc(&tc->counts->invoke);
	res = TEEC_InvokeCommand(&tc->sess, func, op, &origin);
	if (res != TEEC_SUCCESS) {
		tee_client_error(tc, "TEEC_InvokeCommand(%s): 0x%08x, origin %u (%s)",
				 what, res, origin, tee_origin_name(origin));
		return -1;
	}
	return 0;
}

/* teec_count_temp - the ioctls libteec makes for @n temporary memrefs */
static void teec_count_temp(struct tee_client *tc, unsigned int n)
{
#ifdef HSBENCH_ITEEC
	return;	/* none: the memory goes inside the invoke */
#endif
	if (tc->pattern != TEE_SHM_TEMPORARY)
		return;
	tc->counts->shm_register += n;
	tc->counts->shm_close += n;
}

/*
 * teec_memref_type - @partial, or for TEE_SHM_SHARED memory (iTrustee)
 * TEEC_MEMREF_SHARED_INOUT, its only type
 */
static uint32_t teec_memref_type(const struct tee_client *tc, uint32_t partial)
{
#ifdef HSBENCH_ITEEC_SHARED
	if (tc->pattern == TEE_SHM_SHARED)
		return TEEC_MEMREF_SHARED_INOUT;
#endif
	(void)tc;
	return partial;
}

/* tee_check_buffer - the data must be tc->buf, with room for the digest */
static int teec_check_buffer(struct tee_client *tc, const uint8_t *buf,
			     size_t len)
{
	if (buf != tc->buf || len + LAB_SM3_DIGEST_SIZE > tc->buf_size) {
		tee_client_error(tc, "internal error: crypto data outside the shared buffer");
		return -1;
	}
	return 0;
}

/* tee_sm3 - TEESIM_CMD_SM3_DIGEST (see tee.h) */
int tee_sm3(void *ctx, const uint8_t *buf, size_t len,
	    uint8_t digest[LAB_SM3_DIGEST_SIZE])
{
	struct tee_client *tc = ctx;
	uint8_t *out = tc->buf + len;	/* a multiple of 16, after the data */
	TEEC_Operation op;

	if (teec_check_buffer(tc, buf, len))
		return -1;
	memset(&op, 0, sizeof(op));
	op.started = 1;	/* iTrustee's libteec refuses 0: no cancellation */
	if (tc->pattern == TEE_SHM_TEMPORARY) {
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INPUT,
						 TEEC_MEMREF_TEMP_OUTPUT,
						 TEEC_NONE, TEEC_NONE);
		op.params[0].tmpref.buffer = tc->buf;
		op.params[0].tmpref.size = len;
		op.params[1].tmpref.buffer = out;
		op.params[1].tmpref.size = LAB_SM3_DIGEST_SIZE;
	} else {
		op.paramTypes = TEEC_PARAM_TYPES(teec_memref_type(tc, TEEC_MEMREF_PARTIAL_INPUT),
						 teec_memref_type(tc, TEEC_MEMREF_PARTIAL_OUTPUT),
						 TEEC_NONE, TEEC_NONE);
		op.params[0].memref.parent = &tc->shm;
		op.params[0].memref.offset = 0;
		op.params[0].memref.size = len;
		op.params[1].memref.parent = &tc->shm;
		op.params[1].memref.offset = len;
		op.params[1].memref.size = LAB_SM3_DIGEST_SIZE;
	}
	teec_count_temp(tc, 2);
	if (teec_invoke(tc, TEESIM_CMD_SM3_DIGEST, &op, "SM3_DIGEST"))
		return -1;
	if ((tc->pattern == TEE_SHM_TEMPORARY ? op.params[1].tmpref.size :
	     op.params[1].memref.size) != LAB_SM3_DIGEST_SIZE) {
		tee_client_error(tc, "SM3_DIGEST returned a digest of another size than %d",
				 LAB_SM3_DIGEST_SIZE);
		return -1;
	}
	memcpy(digest, out, LAB_SM3_DIGEST_SIZE);
	return 0;
}

/* teec_key_word - four key bytes as a little-endian 32-bit value */
static uint32_t teec_key_word(const uint8_t *key)
{
	return key[0] | key[1] << 8 | key[2] << 16 | (uint32_t)key[3] << 24;
}

/* tee_sm4 - TEESIM_CMD_SM4_ENCRYPT (see tee.h, teesim_abi.h: GP layout) */
int tee_sm4(void *ctx, const uint8_t key[LAB_SM4_KEY_SIZE],
	    uint8_t *buf, size_t len)
{
	struct tee_client *tc = ctx;
	TEEC_Operation op;

	if (teec_check_buffer(tc, buf, len))
		return -1;
	memset(&op, 0, sizeof(op));
	op.started = 1;	/* iTrustee's libteec refuses 0: no cancellation */
	if (tc->pattern == TEE_SHM_TEMPORARY) {
		op.paramTypes = TEEC_PARAM_TYPES(TEEC_MEMREF_TEMP_INOUT,
						 TEEC_VALUE_INPUT,
						 TEEC_VALUE_INPUT, TEEC_NONE);
		op.params[0].tmpref.buffer = tc->buf;
		op.params[0].tmpref.size = len;
	} else {
		op.paramTypes = TEEC_PARAM_TYPES(teec_memref_type(tc, TEEC_MEMREF_PARTIAL_INOUT),
						 TEEC_VALUE_INPUT,
						 TEEC_VALUE_INPUT, TEEC_NONE);
		op.params[0].memref.parent = &tc->shm;
		op.params[0].memref.offset = 0;
		op.params[0].memref.size = len;
	}
	op.params[1].value.a = teec_key_word(key);
	op.params[1].value.b = teec_key_word(key + 4);
	op.params[2].value.a = teec_key_word(key + 8);
	op.params[2].value.b = teec_key_word(key + 12);
	teec_count_temp(tc, 1);
	if (teec_invoke(tc, TEESIM_CMD_SM4_ENCRYPT, &op, "SM4_ENCRYPT"))
		return -1;
	if ((tc->pattern == TEE_SHM_TEMPORARY ? op.params[0].tmpref.size :
	     op.params[0].memref.size) != len) {
		tee_client_error(tc, "SM4_ENCRYPT returned another length than %zu", len);
		return -1;
	}
	return 0;
}

/* tee_ta_stats - TEESIM_CMD_STATS: add the TA's counts (see tee.h) */
int tee_ta_stats(struct tee_client *tc)
{
	TEEC_Operation op;

	memset(&op, 0, sizeof(op));
	op.started = 1;	/* iTrustee's libteec refuses 0: no cancellation */
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_VALUE_OUTPUT,
					 TEEC_NONE, TEEC_NONE);
	if (teec_invoke(tc, TEESIM_CMD_STATS, &op, "STATS"))
		return -1;
	tc->counts->ta_known++;
	tc->counts->ta_sm3 += op.params[0].value.a;
	tc->counts->ta_sm4 += op.params[0].value.b;
	tc->counts->ta_refused += op.params[1].value.a;
	tc->counts->ta_sessions += op.params[1].value.b;
	return 0;
}

/* teec_register - @tc's buffer registered once (TEEC_RegisterSharedMemory) */
static int teec_register(struct tee_client *tc)
{
	TEEC_Result res;

	tc->shm.buffer = tc->buf;
	tc->shm.size = tc->buf_size;
	tc->shm.flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT;
	counter_inc(&tc->counts->shm_register);
	res = TEEC_RegisterSharedMemory(&tc->ctx, &tc->shm);
	if (res != TEEC_SUCCESS) {
		hs_err("TEEC_RegisterSharedMemory of %zu bytes: 0x%08x",
		       tc->buf_size, res);
		return -1;
	}
	tc->shm_registered = 1;
	return 0;
}

/* tee_client_open - context, session and buffer of one thread (tee.h) */
int tee_client_open(struct tee_client *tc, const char *path,
		    enum tee_shm_pattern pattern, size_t data_len,
		    struct tee_ioctl_counts *counts)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint32_t origin = 0;
	TEEC_Result res;
	void *buf;
	int err;

	memset(tc, 0, sizeof(*tc));
	tc->fd = -1;
	tc->shm_fd = -1;
	tc->pattern = pattern;
	tc->counts = counts;
	tc->errors_to_show = 3;
	tc->buf_size = (data_len + LAB_SM3_DIGEST_SIZE + page - 1) & ~(page - 1);
	err = posix_memalign(&buf, page, tc->buf_size);
	if (err) {
		hs_err("cannot allocate the shared buffer: %s", strerror(err));
		return -1;
	}
	memset(buf, 0, tc->buf_size);
	tc->buf = buf;

#ifdef HSBENCH_ITEEC
	/* libteec asks teecd for the device (@path was checked) */
	res = TEEC_InitializeContext(NULL, &tc->ctx);
#else
	/* libteec opens the first OP-TEE device itself (@path was found so) */
	res = TEEC_InitializeContext("optee-tz", &tc->ctx);
#endif
	if (res != TEEC_SUCCESS) {
		hs_err("TEEC_InitializeContext(\"optee-tz\") for %s: 0x%08x",
		       path, res);
		goto fail;
	}
	tc->ctx_open = 1;
#ifdef HSBENCH_ITEEC
	tc->fd = tc->ctx.fd;
#else
	tc->fd = tc->ctx.imp.fd;
#endif
	counter_inc(&counts->open_session);
#ifdef HSBENCH_ITEEC
	/* iTrustee's libteec takes TEEC_LOGIN_IDENTIFY only (BAD_PARAMETERS) */
	res = TEEC_OpenSession(&tc->ctx, &tc->sess, &lab_ta_uuid,
			       TEEC_LOGIN_IDENTIFY, NULL, NULL, &origin);
#else
	res = TEEC_OpenSession(&tc->ctx, &tc->sess, &lab_ta_uuid,
			       TEEC_LOGIN_PUBLIC, NULL, NULL, &origin);
#endif
	if (res != TEEC_SUCCESS) {
		hs_err("%s: opening a session to the lab TA (lab/ta, 5eec0000-7ee5-4d00-8000-73696d746565): 0x%08x, origin %u (%s); is its .ta where tee-supplicant looks?",
		       path, res, origin, tee_origin_name(origin));
		goto fail;
	}
	tc->session_open = 1;
#ifdef HSBENCH_ITEEC
	tc->session = tc->sess.session_id;
#else
	tc->session = tc->sess.imp.session_id;
#endif
	if (pattern == TEE_SHM_ALLOCATED || pattern == TEE_SHM_SHARED) {
		/* the memory is libteec's: the crypto data goes there */
		tc->shm.size = tc->buf_size;
		tc->shm.flags = TEEC_MEM_INPUT | TEEC_MEM_OUTPUT;
#ifdef HSBENCH_ITEEC_SHARED
		if (pattern == TEE_SHM_SHARED)
			tc->shm.flags = TEEC_MEM_SHARED_INOUT;
#else
		if (pattern == TEE_SHM_SHARED) {
			hs_err("TEEC_MEM_SHARED_INOUT is iTrustee's, after v1.0.0 (hsbench built with ITEEC)");
			goto fail;
		}
#endif
		res = TEEC_AllocateSharedMemory(&tc->ctx, &tc->shm);
		if (res != TEEC_SUCCESS) {
			hs_err("TEEC_AllocateSharedMemory of %zu bytes: 0x%08x",
			       tc->buf_size, res);
			goto fail;
		}
		tc->shm_registered = 1;
		free(tc->buf);
		tc->buf = tc->shm.buffer;
		tc->buf_is_shm = 1;
		memset(tc->buf, 0, tc->buf_size);
	}
	if (pattern == TEE_SHM_REGISTERED && teec_register(tc))
		goto fail;
	return 0;

fail:
	tee_client_close(tc);
	return -1;
}

/* tee_client_set_pattern - temporary or registered memory from now on */
int tee_client_set_pattern(struct tee_client *tc, enum tee_shm_pattern pattern)
{
	if (pattern == TEE_SHM_REGISTERED && !tc->shm_registered &&
	    teec_register(tc))
		return -1;
	tc->pattern = pattern;
	return 0;
}

/* tee_client_close - release the buffer, session and context (tee.h) */
void tee_client_close(struct tee_client *tc)
{
	if (tc->shm_registered) {
		if (!tc->buf_is_shm)
			counter_inc(&tc->counts->shm_close);
		TEEC_ReleaseSharedMemory(&tc->shm);
		tc->shm_registered = 0;
		if (tc->buf_is_shm)
			tc->buf = NULL;	/* it was libteec's */
	}
	if (tc->session_open) {
		counter_inc(&tc->counts->close_session);
		TEEC_CloseSession(&tc->sess);
		tc->session_open = 0;
	}
	if (tc->ctx_open) {
		TEEC_FinalizeContext(&tc->ctx);
		tc->ctx_open = 0;
		tc->fd = -1;
	}
	free(tc->buf);
	tc->buf = NULL;
}
