// SPDX-License-Identifier: GPL-2.0
/*
 * ta.c - the crypto trusted application inside teesim's secure world:
 * SM3 digests and SM4 encryption of the caller's shared memory (see
 * teesim_abi.h for the commands and their parameters).
 *
 * Memrefs are copied through the secure thread's bounce buffer: from the
 * pool's kernel mapping for SHM_ALLOC memory, page by page for registered
 * user memory.
 */
#include <linux/highmem.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "sm.h"
#include "teesim.h"
#include "teesim_abi.h"

/* memref_copy - copy between a memref and @buf; @to_shm picks the direction */
static int memref_copy(struct tee_param_memref *ref, u8 *buf, size_t len,
		       bool to_shm)
{
	struct tee_shm *shm = ref->shm;
	size_t done = 0, pos, chunk;
	unsigned long index;
	u8 *page_va;

	if (!shm || len > ref->size || ref->shm_offs + len > shm->size)
		return -EINVAL;
	if (shm->kaddr) {
		if (to_shm)
			memcpy((u8 *)shm->kaddr + ref->shm_offs, buf, len);
		else
			memcpy(buf, (u8 *)shm->kaddr + ref->shm_offs, len);
		return 0;
	}
	if (!shm->pages)
		return -EINVAL;
	pos = shm->offset + ref->shm_offs;
	while (done < len) {
		index = (pos + done) >> PAGE_SHIFT;
		if (index >= shm->num_pages)
			return -EINVAL;
		chunk = min_t(size_t, len - done,
			      PAGE_SIZE - offset_in_page(pos + done));
		page_va = kmap_local_page(shm->pages[index]);
		if (to_shm)
			memcpy(page_va + offset_in_page(pos + done), buf + done,
			       chunk);
		else
			memcpy(buf + done, page_va + offset_in_page(pos + done),
			       chunk);
		kunmap_local(page_va);
		done += chunk;
	}
	return 0;
}

/* is_memref - does @param carry a memref of one of the allowed @types? */
static bool is_memref(const struct tee_param *param, u64 type1, u64 type2)
{
	u64 type = param->attr & TEE_IOCTL_PARAM_ATTR_TYPE_MASK;

	return (type == type1 || type == type2) && param->u.memref.shm;
}

/* ta_sm3_digest - param[0] input memref, param[1] 32-byte output memref */
static u32 ta_sm3_digest(struct teesim_thread *thread, struct tee_param *param,
			 u32 num_params)
{
	u8 digest[LAB_SM3_DIGEST_SIZE];
	size_t len;

	if (num_params < 2 ||
	    !is_memref(&param[0], TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INPUT,
		       TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INOUT) ||
	    !is_memref(&param[1], TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_OUTPUT,
		       TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INOUT))
		return TEEC_ERROR_BAD_PARAMETERS;
	len = param[0].u.memref.size;
	if (len > TEESIM_MAX_MEMREF ||
	    param[1].u.memref.size < LAB_SM3_DIGEST_SIZE)
		return TEEC_ERROR_BAD_PARAMETERS;
	if (memref_copy(&param[0].u.memref, thread->bounce, len, false))
		return TEEC_ERROR_BAD_PARAMETERS;
	lab_sm3_digest(thread->bounce, len, digest);
	if (memref_copy(&param[1].u.memref, digest, sizeof(digest), true))
		return TEEC_ERROR_BAD_PARAMETERS;
	param[1].u.memref.size = LAB_SM3_DIGEST_SIZE;
	atomic64_inc(&teesim_stats.invoke_sm3);
	return TEEC_SUCCESS;
}

/* ta_sm4_encrypt - param[0] in/out memref (n * 16 bytes), param[1] key */
static u32 ta_sm4_encrypt(struct teesim_thread *thread, struct tee_param *param,
			  u32 num_params)
{
	struct lab_sm4_key ks;
	u8 key[LAB_SM4_KEY_SIZE];
	size_t len;
	int i;

	if (num_params < 2 ||
	    !is_memref(&param[0], TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INOUT,
		       TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INOUT) ||
	    (param[1].attr & TEE_IOCTL_PARAM_ATTR_TYPE_MASK) !=
	    TEE_IOCTL_PARAM_ATTR_TYPE_VALUE_INPUT)
		return TEEC_ERROR_BAD_PARAMETERS;
	len = param[0].u.memref.size;
	if (len > TEESIM_MAX_MEMREF || len % LAB_SM4_BLOCK_SIZE)
		return TEEC_ERROR_BAD_PARAMETERS;
	for (i = 0; i < 8; i++) {
		key[i] = param[1].u.value.a >> (8 * i);
		key[8 + i] = param[1].u.value.b >> (8 * i);
	}
	if (memref_copy(&param[0].u.memref, thread->bounce, len, false))
		return TEEC_ERROR_BAD_PARAMETERS;
	lab_sm4_expand_key(&ks, key);
	lab_sm4_encrypt_ecb(&ks, thread->bounce, len);
	memzero_explicit(&ks, sizeof(ks));
	memzero_explicit(key, sizeof(key));
	if (memref_copy(&param[0].u.memref, thread->bounce, len, true))
		return TEEC_ERROR_BAD_PARAMETERS;
	atomic64_inc(&teesim_stats.invoke_sm4);
	return TEEC_SUCCESS;
}

/*
 * teesim_ta_invoke - run TA command @func; runs inside a secure call with
 * bottom halves off, so it must not sleep. Sets *@ret to a TEEC code.
 */
int teesim_ta_invoke(struct teesim_thread *thread, u32 func,
		     struct tee_param *param, u32 num_params, u32 *ret)
{
	switch (func) {
	case TEESIM_CMD_SM3_DIGEST:
		*ret = ta_sm3_digest(thread, param, num_params);
		break;
	case TEESIM_CMD_SM4_ENCRYPT:
		*ret = ta_sm4_encrypt(thread, param, num_params);
		break;
	default:
		*ret = TEEC_ERROR_NOT_SUPPORTED;
		break;
	}
	if (*ret != TEEC_SUCCESS)
		atomic64_inc(&teesim_stats.invoke_errors);
	return 0;
}
