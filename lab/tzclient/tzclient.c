// SPDX-License-Identifier: GPL-2.0
/*
 * tzclient.c - a client application of the lab TA on iTrustee, through
 * itrustee_client's libteec (teecd hands it /dev/tc_ns_client), for the
 * integration tests and the lab: THREADS threads each invoke SM3 (or SM4)
 * on SIZE bytes CALLS times, in the memory a real CA passes:
 *
 *   temp    TEEC_MEMREF_TEMP_* parameters on the thread's own buffer
 *   reg     the buffer registered once (TEEC_RegisterSharedMemory,
 *           TEEC_MEM_INOUT): libteec passes it to the driver as temporary
 *           memory at each invoke
 *   alloc   TEEC_AllocateSharedMemory (TEEC_MEM_INOUT): memory the driver
 *           maps (/dev/tc_ns_client's mmap), passed as a partial memref
 *   shared  TEEC_AllocateSharedMemory with TEEC_MEM_SHARED_INOUT: the
 *           driver pins its pages at each invoke, no copy (newer libteecs
 *           only: v1.0.0's has no such kind, and tzclient built on it
 *           refuses "-m shared"; the Makefile sets TZC_SHARED_INOUT)
 *
 * Every result is checked against the lab's own SM3/SM4. With -S the
 * threads share one session (and so the driver's per-session lock). At the
 * end each session's TA counts are read (TEESIM_CMD_STATS) and everything
 * is printed as "name value" lines: the libteec calls made, their errors,
 * the TA's counts, the time.
 *
 * Usage: tzclient [-t THREADS] [-n CALLS] [-s SIZE] [-m temp|reg|alloc|shared]
 *                 [-c sm3|sm4] [-S]
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tee_client_api.h>

#include "sm.h"
#include "teesim_abi.h"

#define TZC_MAX_THREADS	64

enum tzc_mem { MEM_TEMP, MEM_REG, MEM_ALLOC, MEM_SHARED };
static const char *const mem_names[] = { "temp", "reg", "alloc", "shared" };

static const TEEC_UUID lab_ta_uuid = {
	0x5eec0000, 0x7ee5, 0x4d00,
	{ 0x80, 0x00, 0x73, 0x69, 0x6d, 0x74, 0x65, 0x65 }
};

static struct {
	unsigned int threads, calls;
	size_t size;
	enum tzc_mem mem;
	int sm4, shared_session;
} cfg = { 10, 100, 1024, MEM_TEMP, 0, 0 };

/* What the threads did: the libteec calls and their outcome */
static atomic_ulong n_open, n_close, n_invoke, n_invoke_err, n_wrong;
static atomic_ulong n_register, n_allocate, n_release;
static atomic_ulong ta_sm3, ta_sm4, ta_refused, ta_sessions, ta_read;

static TEEC_Context ctx;
static TEEC_Session shared_sess;
static const uint8_t sm4_key[LAB_SM4_KEY_SIZE] = {
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10
};

/* key_word - four key bytes, little-endian */
static uint32_t key_word(const uint8_t *k)
{
	return k[0] | k[1] << 8 | k[2] << 16 | (uint32_t)k[3] << 24;
}

/* open_session - a session to the lab TA, counted */
static int open_session(TEEC_Session *s)
{
	uint32_t origin = 0;
	TEEC_Result r;

	atomic_fetch_add(&n_open, 1);
	r = TEEC_OpenSession(&ctx, s, &lab_ta_uuid, TEEC_LOGIN_IDENTIFY, NULL,
			     NULL, &origin);
	if (r != TEEC_SUCCESS) {
		fprintf(stderr, "tzclient: TEEC_OpenSession: 0x%08x, origin %u\n", r, origin);
		return -1;
	}
	return 0;
}

/* read_stats - add the TA's counts of session @s */
static void read_stats(TEEC_Session *s)
{
	TEEC_Operation op;
	uint32_t origin;

	memset(&op, 0, sizeof(op));
	op.started = 1;	/* iTrustee's libteec refuses 0 (no cancellation) */
	op.paramTypes = TEEC_PARAM_TYPES(TEEC_VALUE_OUTPUT, TEEC_VALUE_OUTPUT,
					 TEEC_NONE, TEEC_NONE);
	atomic_fetch_add(&n_invoke, 1);
	if (TEEC_InvokeCommand(s, TEESIM_CMD_STATS, &op, &origin) != TEEC_SUCCESS) {
		atomic_fetch_add(&n_invoke_err, 1);
		return;
	}
	atomic_fetch_add(&ta_read, 1);
	atomic_fetch_add(&ta_sm3, op.params[0].value.a);
	atomic_fetch_add(&ta_sm4, op.params[0].value.b);
	atomic_fetch_add(&ta_refused, op.params[1].value.a);
	atomic_fetch_add(&ta_sessions, op.params[1].value.b);
}

/* set_memref - parameter @i: @len bytes at @off of the thread's memory */
static void set_memref(TEEC_Operation *op, unsigned int i, TEEC_SharedMemory *shm,
		       uint8_t *buf, size_t off, size_t len)
{
	if (cfg.mem == MEM_TEMP) {
		op->params[i].tmpref.buffer = buf + off;
		op->params[i].tmpref.size = len;
	} else {
		op->params[i].memref.parent = shm;
		op->params[i].memref.offset = off;
		op->params[i].memref.size = len;
	}
}

/* memref_type - the parameter type of a memref of direction @dir (1 in, 2 out, 3 both) */
static uint32_t memref_type(int dir)
{
	switch (cfg.mem) {
	case MEM_TEMP:
		return dir == 1 ? TEEC_MEMREF_TEMP_INPUT :
		       dir == 2 ? TEEC_MEMREF_TEMP_OUTPUT : TEEC_MEMREF_TEMP_INOUT;
#ifdef TZC_SHARED_INOUT
	case MEM_SHARED:
		return TEEC_MEMREF_SHARED_INOUT;
#endif
	default:
		return dir == 1 ? TEEC_MEMREF_PARTIAL_INPUT :
		       dir == 2 ? TEEC_MEMREF_PARTIAL_OUTPUT : TEEC_MEMREF_PARTIAL_INOUT;
	}
}

/* invoke_one - one SM3 or SM4 call on @buf, checked */
static void invoke_one(TEEC_Session *s, TEEC_SharedMemory *shm, uint8_t *buf,
		       const uint8_t *data)
{
	uint8_t want[LAB_SM3_DIGEST_SIZE];
	TEEC_Operation op;
	uint32_t origin = 0;
	TEEC_Result r;

	memset(&op, 0, sizeof(op));
	op.started = 1;
	memcpy(buf, data, cfg.size);
	if (!cfg.sm4) {
		op.paramTypes = TEEC_PARAM_TYPES(memref_type(1), memref_type(2),
						 TEEC_NONE, TEEC_NONE);
		set_memref(&op, 0, shm, buf, 0, cfg.size);
		set_memref(&op, 1, shm, buf, cfg.size, LAB_SM3_DIGEST_SIZE);
	} else {
		op.paramTypes = TEEC_PARAM_TYPES(memref_type(3), TEEC_VALUE_INPUT,
						 TEEC_VALUE_INPUT, TEEC_NONE);
		set_memref(&op, 0, shm, buf, 0, cfg.size);
		op.params[1].value.a = key_word(sm4_key);
		op.params[1].value.b = key_word(sm4_key + 4);
		op.params[2].value.a = key_word(sm4_key + 8);
		op.params[2].value.b = key_word(sm4_key + 12);
	}
	atomic_fetch_add(&n_invoke, 1);
	r = TEEC_InvokeCommand(s, cfg.sm4 ? TEESIM_CMD_SM4_ENCRYPT :
			       TEESIM_CMD_SM3_DIGEST, &op, &origin);
	if (r != TEEC_SUCCESS) {
		if (atomic_fetch_add(&n_invoke_err, 1) < 3)
			fprintf(stderr, "tzclient: TEEC_InvokeCommand: 0x%08x, origin %u\n",
				r, origin);
		return;
	}
	if (!cfg.sm4) {
		lab_sm3_digest(data, cfg.size, want);
		if (memcmp(want, buf + cfg.size, sizeof(want)))
			atomic_fetch_add(&n_wrong, 1);
	} else {
		struct lab_sm4_key ks;
		uint8_t *copy = malloc(cfg.size);

		if (!copy)
			return;
		memcpy(copy, data, cfg.size);
		lab_sm4_expand_key(&ks, sm4_key);
		lab_sm4_encrypt_ecb(&ks, copy, cfg.size);
		if (memcmp(copy, buf, cfg.size))
			atomic_fetch_add(&n_wrong, 1);
		free(copy);
	}
}

/* worker - one thread: its memory (and session), CALLS invokes */
static void *worker(void *arg)
{
	size_t len = cfg.size + LAB_SM3_DIGEST_SIZE;
	TEEC_SharedMemory shm;
	TEEC_Session own, *s = &shared_sess;
	uint8_t *buf = NULL, *data;
	unsigned int i;
	TEEC_Result r;

	(void)arg;
	data = malloc(cfg.size);
	if (!data)
		return NULL;
	for (i = 0; i < cfg.size; i++)
		data[i] = (uint8_t)rand();
	memset(&shm, 0, sizeof(shm));
	if (cfg.mem == MEM_TEMP || cfg.mem == MEM_REG) {
		buf = malloc(len);
		if (!buf)
			goto out;
	}
	if (cfg.mem == MEM_REG) {
		shm.buffer = buf;
		shm.size = len;
		shm.flags = TEEC_MEM_INOUT;
		atomic_fetch_add(&n_register, 1);
		r = TEEC_RegisterSharedMemory(&ctx, &shm);
		if (r != TEEC_SUCCESS) {
			fprintf(stderr, "tzclient: TEEC_RegisterSharedMemory: 0x%08x\n", r);
			goto out;
		}
	} else if (cfg.mem != MEM_TEMP) {
		shm.size = len;
		shm.flags = TEEC_MEM_INOUT;
#ifdef TZC_SHARED_INOUT
		if (cfg.mem == MEM_SHARED)
			shm.flags = TEEC_MEM_SHARED_INOUT;
#endif
		atomic_fetch_add(&n_allocate, 1);
		r = TEEC_AllocateSharedMemory(&ctx, &shm);
		if (r != TEEC_SUCCESS) {
			fprintf(stderr, "tzclient: TEEC_AllocateSharedMemory: 0x%08x\n", r);
			goto out;
		}
		buf = shm.buffer;
	}
	if (!cfg.shared_session) {
		if (open_session(&own))
			goto out_release;
		s = &own;
	}
	for (i = 0; i < cfg.calls; i++)
		invoke_one(s, &shm, buf, data);
	if (!cfg.shared_session) {
		read_stats(s);
		atomic_fetch_add(&n_close, 1);
		TEEC_CloseSession(s);
	}
out_release:
	if (cfg.mem != MEM_TEMP) {
		atomic_fetch_add(&n_release, 1);
		TEEC_ReleaseSharedMemory(&shm);
	}
out:
	if (cfg.mem == MEM_TEMP || cfg.mem == MEM_REG)
		free(buf);
	free(data);
	return NULL;
}

/* usage - the synopsis, exit 2 */
static void usage(void)
{
	fprintf(stderr, "usage: tzclient [-t THREADS 1..64] [-n CALLS] [-s SIZE 16..%d, sm4: a multiple of 16]\n"
		"                [-m temp|reg|alloc|shared] [-c sm3|sm4] [-S]\n",
		TEESIM_MAX_MEMREF - LAB_SM3_DIGEST_SIZE);
	exit(2);
}

/* number - a decimal argument from @lo to @hi, or usage() */
static unsigned long number(const char *s, unsigned long lo, unsigned long hi)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || !*s || *end || v < lo || v > hi)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	pthread_t tid[TZC_MAX_THREADS];
	struct timespec t0, t1;
	unsigned int i;
	TEEC_Result r;
	int opt;

	while ((opt = getopt(argc, argv, "t:n:s:m:c:S")) != -1) {
		switch (opt) {
		case 't': cfg.threads = number(optarg, 1, TZC_MAX_THREADS); break;
		case 'n': cfg.calls = number(optarg, 0, 100000000); break;
		case 's': cfg.size = number(optarg, 16, TEESIM_MAX_MEMREF - LAB_SM3_DIGEST_SIZE); break;
		case 'm':
			for (i = 0; i < 4 && strcmp(optarg, mem_names[i]); i++)
				;
			if (i == 4)
				usage();
			cfg.mem = i;
#ifndef TZC_SHARED_INOUT
			if (cfg.mem == MEM_SHARED) {
				fprintf(stderr, "tzclient: this libteec has no TEEC_MEM_SHARED_INOUT (itrustee_client v1.0.0)\n");
				return 2;
			}
#endif
			break;
		case 'c':
			if (strcmp(optarg, "sm3") && strcmp(optarg, "sm4"))
				usage();
			cfg.sm4 = !strcmp(optarg, "sm4");
			break;
		case 'S': cfg.shared_session = 1; break;
		default: usage();
		}
	}
	if (optind != argc || (cfg.sm4 && cfg.size % LAB_SM4_BLOCK_SIZE))
		usage();
	r = TEEC_InitializeContext(NULL, &ctx);
	if (r != TEEC_SUCCESS) {
		fprintf(stderr, "tzclient: TEEC_InitializeContext: 0x%08x (is teecd running?)\n", r);
		return 1;
	}
	if (cfg.shared_session && open_session(&shared_sess))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < cfg.threads; i++)
		if (pthread_create(&tid[i], NULL, worker, NULL)) {
			fprintf(stderr, "tzclient: pthread_create failed\n");
			return 1;
		}
	for (i = 0; i < cfg.threads; i++)
		pthread_join(tid[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (cfg.shared_session) {
		read_stats(&shared_sess);
		atomic_fetch_add(&n_close, 1);
		TEEC_CloseSession(&shared_sess);
	}
	TEEC_FinalizeContext(&ctx);
	printf("mem %s\ncmd %s\nthreads %u\nsize %zu\n", mem_names[cfg.mem],
	       cfg.sm4 ? "sm4" : "sm3", cfg.threads, cfg.size);
	printf("open_session %lu\nclose_session %lu\ninvoke %lu\ninvoke_errors %lu\n",
	       n_open, n_close, n_invoke, n_invoke_err);
	printf("wrong_results %lu\nregister %lu\nallocate %lu\nrelease %lu\n",
	       n_wrong, n_register, n_allocate, n_release);
	printf("ta_sessions_read %lu\nta_sm3 %lu\nta_sm4 %lu\nta_refused %lu\nta_sessions %lu\n",
	       ta_read, ta_sm3, ta_sm4, ta_refused, ta_sessions);
	printf("elapsed_s %.3f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return n_invoke_err || n_wrong || n_open != n_close ? 1 : 0;
}
