// SPDX-License-Identifier: GPL-2.0
/*
 * labta.c - the lab's crypto TA on OP-TEE: SM3 digests and SM4 encryption
 * of the caller's shared memory with the lab's own code (../crypto), the
 * commands of teesim's TA (teesim_abi.h), and TEESIM_CMD_STATS, the TA's
 * own count of what it did: the secure side's truth, for the tests to hold
 * against the client's and teeprobe's counts.
 *
 * OP-TEE maps a memref's shared memory into the TA; the TA reads and writes
 * it in place.
 */
#include <string.h>
#include <tee_internal_api.h>

#include "sm.h"
#include "teesim_abi.h"

/* This instance's (this session's) counts */
static struct {
	uint32_t sm3;
	uint32_t sm4;
	uint32_t refused;
	uint32_t sessions;
} counts;

TEE_Result TA_CreateEntryPoint(void)
{
	return TEE_SUCCESS;
}

void TA_DestroyEntryPoint(void)
{
}

TEE_Result TA_OpenSessionEntryPoint(uint32_t param_types __unused,
				    TEE_Param params[TEE_NUM_PARAMS] __unused,
				    void **session __unused)
{
	counts.sessions++;
	return TEE_SUCCESS;
}

void TA_CloseSessionEntryPoint(void *session __unused)
{
}

/* sm3_digest - param[0] data (input), param[1] 32 bytes out */
static TEE_Result sm3_digest(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	uint8_t digest[LAB_SM3_DIGEST_SIZE];
	uint32_t out_type = TEE_PARAM_TYPE_GET(types, 1);

	if (TEE_PARAM_TYPE_GET(types, 0) != TEE_PARAM_TYPE_MEMREF_INPUT &&
	    TEE_PARAM_TYPE_GET(types, 0) != TEE_PARAM_TYPE_MEMREF_INOUT)
		return TEE_ERROR_BAD_PARAMETERS;
	if (out_type != TEE_PARAM_TYPE_MEMREF_OUTPUT &&
	    out_type != TEE_PARAM_TYPE_MEMREF_INOUT)
		return TEE_ERROR_BAD_PARAMETERS;
	if (p[0].memref.size > TEESIM_MAX_MEMREF ||
	    (p[0].memref.size && !p[0].memref.buffer))
		return TEE_ERROR_BAD_PARAMETERS;
	if (p[1].memref.size < LAB_SM3_DIGEST_SIZE || !p[1].memref.buffer) {
		p[1].memref.size = LAB_SM3_DIGEST_SIZE;
		return TEE_ERROR_SHORT_BUFFER;
	}
	lab_sm3_digest(p[0].memref.buffer, p[0].memref.size, digest);
	memcpy(p[1].memref.buffer, digest, sizeof(digest));
	p[1].memref.size = LAB_SM3_DIGEST_SIZE;
	counts.sm3++;
	return TEE_SUCCESS;
}

/* key_bytes - four little-endian key bytes from a 32-bit value */
static void key_bytes(uint8_t *key, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		key[i] = v >> (8 * i);
}

/* sm4_encrypt - param[0] n * 16 bytes in place, param[1..2] the key */
static TEE_Result sm4_encrypt(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	struct lab_sm4_key ks;
	uint8_t key[LAB_SM4_KEY_SIZE];
	size_t len = p[0].memref.size;

	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_MEMREF_INOUT,
				     TEE_PARAM_TYPE_VALUE_INPUT,
				     TEE_PARAM_TYPE_VALUE_INPUT,
				     TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	if (len > TEESIM_MAX_MEMREF || len % LAB_SM4_BLOCK_SIZE ||
	    (len && !p[0].memref.buffer))
		return TEE_ERROR_BAD_PARAMETERS;
	key_bytes(key, p[1].value.a);
	key_bytes(key + 4, p[1].value.b);
	key_bytes(key + 8, p[2].value.a);
	key_bytes(key + 12, p[2].value.b);
	lab_sm4_expand_key(&ks, key);
	lab_sm4_encrypt_ecb(&ks, p[0].memref.buffer, len);
	memset(&ks, 0, sizeof(ks));
	memset(key, 0, sizeof(key));
	counts.sm4++;
	return TEE_SUCCESS;
}

/* stats - the instance's counts (teesim_abi.h) */
static TEE_Result stats(uint32_t types, TEE_Param p[TEE_NUM_PARAMS])
{
	if (types != TEE_PARAM_TYPES(TEE_PARAM_TYPE_VALUE_OUTPUT,
				     TEE_PARAM_TYPE_VALUE_OUTPUT,
				     TEE_PARAM_TYPE_NONE, TEE_PARAM_TYPE_NONE))
		return TEE_ERROR_BAD_PARAMETERS;
	p[0].value.a = counts.sm3;
	p[0].value.b = counts.sm4;
	p[1].value.a = counts.refused;
	p[1].value.b = counts.sessions;
	return TEE_SUCCESS;
}

TEE_Result TA_InvokeCommandEntryPoint(void *session __unused, uint32_t cmd,
				      uint32_t types,
				      TEE_Param params[TEE_NUM_PARAMS])
{
	TEE_Result res;

	switch (cmd) {
	case TEESIM_CMD_SM3_DIGEST:
		res = sm3_digest(types, params);
		break;
	case TEESIM_CMD_SM4_ENCRYPT:
		res = sm4_encrypt(types, params);
		break;
	case TEESIM_CMD_STATS:
		return stats(types, params);
	default:
		res = TEE_ERROR_NOT_SUPPORTED;
		break;
	}
	if (res != TEE_SUCCESS && res != TEE_ERROR_SHORT_BUFFER)
		counts.refused++;
	return res;
}
