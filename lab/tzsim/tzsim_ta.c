// SPDX-License-Identifier: GPL-2.0
/*
 * tzsim_ta.c - the lab's crypto TA inside tzsim's secure side, with the
 * UUID and commands of teesim_abi.h (SM3, SM4, STATS), reached through
 * tzdriver's operations: a memref is a buffer the driver made for the call
 * in its mailbox (temporary, registered and allocated shared memory alike:
 * the driver copies every one of them there), or, for
 * TEEC_MEMREF_SHARED_INOUT, a list of the caller's own pages the driver
 * pinned; values come in the operation itself. Sessions are counted as an
 * OP-TEE TA instance counts its own (one instance per session).
 */
/* (a header force-included before this one may have set it) */
#undef pr_fmt
#define pr_fmt(fmt) "tzsim: " fmt

#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <asm/io.h>

#include "sm.h"
#include "teesim_abi.h"
#include "tzsim.h"
#include "teek_client_constants.h"
#include "teek_ns_client.h"
#include "tc_ns_client.h"

/*
 * TEEC_MEMREF_SHARED_INOUT and TEEC_MEMREF_REGISTER_INOUT, the newest
 * tree's (v1.0.0 has neither)
 */
#define TZSIM_MEMREF_SHARED_INOUT	0x0a
#define TZSIM_MEMREF_REGISTER_INOUT	0x0b

/* A page list as transfer_shared_mem() leaves it (core/shared_mem.h) */
struct tzsim_pagelist {
	u64 page_num;
	u64 page_size;
	u64 offset;
	u64 size;
	u64 phys[];
};

/* struct tzsim_session - one open session of the lab TA */
struct tzsim_session {
	bool open;
	u32 sm3, sm4, refused;
};

static struct tzsim_session sessions[TZSIM_MAX_SESSIONS];
/* a bounce buffer per secure thread: a TA runs only holding a thread */
static u8 *bounces;
static unsigned long bounce_used[BITS_TO_LONGS(TZSIM_MAX_THREADS)];
static DEFINE_SPINLOCK(sessions_lock);
/*
 * The lab TA's UUID as iTrustee's libteec passes it: its TEEC_UUID as it
 * lies in memory (time_low, time_mid and time_hi_and_version in the CPU's
 * byte order), not the RFC 4122 octets of teesim_abi.h
 */
static const struct {
	__le32 time_low;
	__le16 time_mid;
	__le16 time_hi;
	u8 clock_seq_node[8];
} __packed lab_ta_uuid = {
	cpu_to_le32(0x5eec0000), cpu_to_le16(0x7ee5), cpu_to_le16(0x4d00),
	{ 0x80, 0x00, 0x73, 0x69, 0x6d, 0x74, 0x65, 0x65 }
};

/* struct memref - where a memref parameter's bytes are */
struct memref {
	u8 *buf;			/* mailbox memory, or NULL */
	struct tzsim_pagelist *pages;	/* the caller's pinned pages */
	u32 size;
	u32 *size_out;			/* where the size goes back */
};

/* get_memref - parameter @i of @op as a memref of one of @types' kinds */
static int get_memref(struct tc_ns_operation *op, unsigned int i, bool out,
		      struct memref *m)
{
	u32 type = teec_param_type_get(op->paramtypes, i);
	phys_addr_t pa = (phys_addr_t)op->params[i].memref.buffer |
			 (phys_addr_t)op->buffer_h_addr[i] << 32;

	memset(m, 0, sizeof(*m));
	if (!pa)
		return -EINVAL;
	switch (type) {
	case TEE_PARAM_TYPE_MEMREF_INPUT:
	case TEE_PARAM_TYPE_MEMREF_OUTPUT:
	case TEE_PARAM_TYPE_MEMREF_INOUT:
		if ((type == TEE_PARAM_TYPE_MEMREF_INPUT) == out)
			return -EINVAL;
		m->buf = phys_to_virt(pa);
		m->size = op->params[i].memref.size;
		m->size_out = &op->params[i].memref.size;
		atomic64_inc(&tzsim_stats.memref_temp);
		return 0;
	case TZSIM_MEMREF_SHARED_INOUT:
	case TZSIM_MEMREF_REGISTER_INOUT:
		m->pages = phys_to_virt(pa);
		if (m->pages->page_size != PAGE_SIZE ||
		    m->pages->offset >= PAGE_SIZE ||
		    m->pages->page_num * PAGE_SIZE <
		    m->pages->offset + m->pages->size)
			return -EINVAL;
		m->size = m->pages->size;
		atomic64_inc(&tzsim_stats.memref_pages);
		return 0;
	}
	return -EINVAL;
}

/* memref_copy - @len bytes between @m and @buf; @to_ref picks the way */
static void memref_copy(struct memref *m, u8 *buf, size_t len, bool to_ref)
{
	size_t done = 0, pos, chunk;
	u8 *va;

	if (m->buf) {
		if (to_ref)
			memcpy(m->buf, buf, len);
		else
			memcpy(buf, m->buf, len);
		return;
	}
	while (done < len) {
		pos = m->pages->offset + done;
		chunk = min_t(size_t, len - done, PAGE_SIZE - offset_in_page(pos));
		/* arm64 has no high memory: every page is in the linear map */
		va = page_address(pfn_to_page(PHYS_PFN(m->pages->phys[pos >> PAGE_SHIFT])));
		if (to_ref)
			memcpy(va + offset_in_page(pos), buf + done, chunk);
		else
			memcpy(buf + done, va + offset_in_page(pos), chunk);
		done += chunk;
	}
}

/* value_of - value parameter @i of @op, if it is one */
static bool value_of(struct tc_ns_operation *op, unsigned int i, u32 *a, u32 *b)
{
	u32 type = teec_param_type_get(op->paramtypes, i);

	if (type != TEE_PARAM_TYPE_VALUE_INPUT && type != TEE_PARAM_TYPE_VALUE_INOUT)
		return false;
	*a = op->params[i].value.a;
	*b = op->params[i].value.b;
	return true;
}

/* ta_sm3 - param 0 the data, param 1 the 32-byte digest */
static u32 ta_sm3(struct tc_ns_operation *op, u8 *bounce)
{
	u8 digest[LAB_SM3_DIGEST_SIZE];
	struct memref in, out;

	if (get_memref(op, 0, false, &in) || get_memref(op, 1, true, &out) ||
	    in.size > TEESIM_MAX_MEMREF || out.size < LAB_SM3_DIGEST_SIZE)
		return TEEC_ERROR_BAD_PARAMETERS;
	memref_copy(&in, bounce, in.size, false);
	lab_sm3_digest(bounce, in.size, digest);
	memref_copy(&out, digest, sizeof(digest), true);
	if (out.size_out)
		*out.size_out = LAB_SM3_DIGEST_SIZE;
	atomic64_inc(&tzsim_stats.ta_sm3);
	return TEEC_SUCCESS;
}

/* ta_sm4 - param 0 encrypted in place, params 1 and 2 the key's words */
static u32 ta_sm4(struct tc_ns_operation *op, u8 *bounce)
{
	struct lab_sm4_key ks;
	u8 key[LAB_SM4_KEY_SIZE];
	u32 w[4];
	struct memref buf;
	int i;

	if (get_memref(op, 0, true, &buf) || buf.size > TEESIM_MAX_MEMREF ||
	    buf.size % LAB_SM4_BLOCK_SIZE ||
	    !value_of(op, 1, &w[0], &w[1]) || !value_of(op, 2, &w[2], &w[3]))
		return TEEC_ERROR_BAD_PARAMETERS;
	for (i = 0; i < LAB_SM4_KEY_SIZE; i++)
		key[i] = w[i / 4] >> (8 * (i % 4));
	memref_copy(&buf, bounce, buf.size, false);
	lab_sm4_expand_key(&ks, key);
	lab_sm4_encrypt_ecb(&ks, bounce, buf.size);
	memzero_explicit(&ks, sizeof(ks));
	memzero_explicit(key, sizeof(key));
	memref_copy(&buf, bounce, buf.size, true);
	atomic64_inc(&tzsim_stats.ta_sm4);
	return TEEC_SUCCESS;
}

/* session_of - the open session @id, or NULL */
static struct tzsim_session *session_of(u32 id)
{
	if (!id || id > TZSIM_MAX_SESSIONS || !sessions[id - 1].open)
		return NULL;
	return &sessions[id - 1];
}

/* ta_stats - param 0: a SM3, b SM4 calls; param 1: a refused, b 1 */
static u32 ta_stats(struct tc_ns_operation *op, struct tzsim_session *s)
{
	u32 t0 = teec_param_type_get(op->paramtypes, 0);
	u32 t1 = teec_param_type_get(op->paramtypes, 1);

	if ((t0 != TEE_PARAM_TYPE_VALUE_OUTPUT && t0 != TEE_PARAM_TYPE_VALUE_INOUT) ||
	    (t1 != TEE_PARAM_TYPE_VALUE_OUTPUT && t1 != TEE_PARAM_TYPE_VALUE_INOUT))
		return TEEC_ERROR_BAD_PARAMETERS;
	op->params[0].value.a = s->sm3;
	op->params[0].value.b = s->sm4;
	op->params[1].value.a = s->refused;
	op->params[1].value.b = 1;
	atomic64_inc(&tzsim_stats.ta_stats);
	return TEEC_SUCCESS;
}

/*
 * tzsim_ta_invoke_session - TA command @cmd_id of session @id with
 * operation @op; the answer, and *@origin where it came from
 */
u32 tzsim_ta_invoke_session(u32 id, u32 cmd_id, void *op, u32 *origin)
{
	struct tzsim_session *s = session_of(id);
	unsigned int i;
	u8 *bounce;
	u32 ret;

	*origin = TEEC_ORIGIN_TRUSTED_APP;
	if (!s) {
		*origin = TEEC_ORIGIN_TEE;
		atomic64_inc(&tzsim_stats.ta_refused);
		return TEEC_ERROR_BAD_PARAMETERS;
	}
	if (!op && cmd_id != TEESIM_CMD_STATS) {
		ret = TEEC_ERROR_BAD_PARAMETERS;
		goto out;
	}
	switch (cmd_id) {
	case TEESIM_CMD_SM3_DIGEST:
	case TEESIM_CMD_SM4_ENCRYPT:
		for (i = 0; i < TZSIM_MAX_THREADS; i++)
			if (!test_and_set_bit_lock(i, bounce_used))
				break;
		if (i == TZSIM_MAX_THREADS) {
			ret = TEEC_ERROR_OUT_OF_MEMORY;
			break;
		}
		bounce = bounces + i * TEESIM_MAX_MEMREF;
		ret = cmd_id == TEESIM_CMD_SM3_DIGEST ? ta_sm3(op, bounce) :
							ta_sm4(op, bounce);
		clear_bit_unlock(i, bounce_used);
		if (ret == TEEC_SUCCESS && cmd_id == TEESIM_CMD_SM3_DIGEST)
			s->sm3++;
		else if (ret == TEEC_SUCCESS)
			s->sm4++;
		break;
	case TEESIM_CMD_STATS:
		ret = op ? ta_stats(op, s) : TEEC_ERROR_BAD_PARAMETERS;
		break;
	default:
		ret = TEEC_ERROR_NOT_SUPPORTED;
		break;
	}
out:
	if (ret != TEEC_SUCCESS) {
		s->refused++;
		atomic64_inc(&tzsim_stats.ta_refused);
	}
	return ret;
}

/* tzsim_session_open - a session to the lab TA (its id in *@id) */
u32 tzsim_session_open(const u8 *uuid, u32 *id)
{
	unsigned long flags;
	unsigned int i;

	if (memcmp(uuid, &lab_ta_uuid, sizeof(lab_ta_uuid)))
		return TEEC_ERROR_ITEM_NOT_FOUND;
	spin_lock_irqsave(&sessions_lock, flags);
	for (i = 0; i < TZSIM_MAX_SESSIONS; i++) {
		if (sessions[i].open)
			continue;
		memset(&sessions[i], 0, sizeof(sessions[i]));
		sessions[i].open = true;
		*id = i + 1;
		spin_unlock_irqrestore(&sessions_lock, flags);
		atomic64_inc(&tzsim_stats.sessions_open);
		return TEEC_SUCCESS;
	}
	spin_unlock_irqrestore(&sessions_lock, flags);
	return TEEC_ERROR_OUT_OF_MEMORY;
}

/* tzsim_session_close - close session @id (unknown ids are ignored) */
void tzsim_session_close(u32 id)
{
	unsigned long flags;

	spin_lock_irqsave(&sessions_lock, flags);
	if (session_of(id)) {
		sessions[id - 1].open = false;
		atomic64_dec(&tzsim_stats.sessions_open);
	}
	spin_unlock_irqrestore(&sessions_lock, flags);
}

/* tzsim_sessions_reset - a driver starts anew: no session is open */
void tzsim_sessions_reset(void)
{
	unsigned long flags;

	spin_lock_irqsave(&sessions_lock, flags);
	memset(sessions, 0, sizeof(sessions));
	atomic64_set(&tzsim_stats.sessions_open, 0);
	spin_unlock_irqrestore(&sessions_lock, flags);
}

/* tzsim_ta_init - the secure threads' bounce buffers */
int tzsim_ta_init(void)
{
	bounces = vmalloc(array_size(TZSIM_MAX_THREADS, TEESIM_MAX_MEMREF));
	return bounces ? 0 : -ENOMEM;
}

/* tzsim_ta_exit - free them */
void tzsim_ta_exit(void)
{
	vfree(bounces);
}
