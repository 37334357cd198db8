/* SPDX-License-Identifier: GPL-2.0 */
/*
 * handshake.h - the hsbench handshake: wire format and the exact crypto
 * sequence both sides compute.
 *
 * Wire format, per TCP connection:
 *   client -> server  HS_HELLO_SIZE (64) bytes "hello":
 *                       bytes  0..31  random
 *                       bytes 32..35  client thread index, big-endian
 *                       bytes 36..39  client pid, big-endian
 *                       bytes 40..47  per-thread connection counter, big-endian
 *                       bytes 48..63  zero
 *                     (the server treats all 64 bytes as opaque input)
 *   server -> client  HS_REPLY_SIZE (32) bytes "reply"
 *   then both sides close.
 *
 * Computation, given the hello, the payload size P and the call count K:
 *   len    = P rounded up to a multiple of 16
 *   buf[i] = hello[i % 64] ^ (uint8_t)(i / 64)          for 0 <= i < len
 *   key[j] = hello[j] ^ hello[16 + j] ^ hello[32 + j] ^ hello[48 + j]
 *                                                        for 0 <= j < 16
 *   for call k = 1..K:
 *     k odd:  d = SM3(buf[0..len)); buf[i % len] ^= d[i] for i = 0..31
 *     k even: buf = SM4-ECB-encrypt(key, buf), in place
 *   reply  = SM3(buf[0..len))
 *
 * The K calls are the "crypto calls" a server mode performs (in user space,
 * or in the TEE); the final reply digest is always computed in user space
 * and is not counted. Because every SM3 result is folded back into the
 * buffer and every SM4 result is the buffer, the reply depends on the output
 * of every one of the K calls: a client that recomputes the sequence in
 * software checks the TEE's crypto end to end.
 */
#ifndef HSBENCH_HANDSHAKE_H
#define HSBENCH_HANDSHAKE_H

#include <stddef.h>
#include <stdint.h>

#include "sm.h"

#define HS_HELLO_SIZE		64
#define HS_REPLY_SIZE		LAB_SM3_DIGEST_SIZE
#define HS_MIN_PAYLOAD		1
#define HS_MAX_PAYLOAD		(64 * 1024)	/* == TEESIM_MAX_MEMREF */
#define HS_MAX_CRYPTO_CALLS	100000

/*
 * struct hs_crypto_ops - how one side performs the K crypto calls
 * @sm3: digest @len bytes at @buf into @digest; 0 or -1 on failure
 * @sm4: SM4-ECB encrypt @len bytes (a multiple of 16) at @buf in place
 *       with @key; 0 or -1 on failure
 */
struct hs_crypto_ops {
	int (*sm3)(void *ctx, const uint8_t *buf, size_t len,
		   uint8_t digest[LAB_SM3_DIGEST_SIZE]);
	int (*sm4)(void *ctx, const uint8_t key[LAB_SM4_KEY_SIZE],
		   uint8_t *buf, size_t len);
};

/* hs_buffer_len - the working buffer length for a payload of @payload bytes */
static inline size_t hs_buffer_len(size_t payload)
{
	return (payload + LAB_SM4_BLOCK_SIZE - 1) & ~(size_t)(LAB_SM4_BLOCK_SIZE - 1);
}

/* hs_derive_buffer - fill the @len byte working buffer from @hello */
static inline void hs_derive_buffer(const uint8_t hello[HS_HELLO_SIZE],
				    uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = hello[i % HS_HELLO_SIZE] ^ (uint8_t)(i / HS_HELLO_SIZE);
}

/* hs_derive_key - the SM4 key of a handshake: the hello folded to 16 bytes */
static inline void hs_derive_key(const uint8_t hello[HS_HELLO_SIZE],
				 uint8_t key[LAB_SM4_KEY_SIZE])
{
	int j;

	for (j = 0; j < LAB_SM4_KEY_SIZE; j++)
		key[j] = hello[j] ^ hello[16 + j] ^ hello[32 + j] ^ hello[48 + j];
}

/* hs_fold_digest - XOR an SM3 result into the working buffer */
static inline void hs_fold_digest(uint8_t *buf, size_t len,
				  const uint8_t digest[LAB_SM3_DIGEST_SIZE])
{
	size_t i;

	for (i = 0; i < LAB_SM3_DIGEST_SIZE; i++)
		buf[i % len] ^= digest[i];
}

/*
 * hs_compute - run the handshake computation with @ops
 * @buf must hold hs_buffer_len(@payload) bytes; it is overwritten.
 * Returns 0, or -1 when a crypto call failed (@reply is then undefined).
 */
static inline int hs_compute(const struct hs_crypto_ops *ops, void *ctx,
			     const uint8_t hello[HS_HELLO_SIZE],
			     size_t payload, unsigned int calls, uint8_t *buf,
			     uint8_t reply[HS_REPLY_SIZE])
{
	size_t len = hs_buffer_len(payload);
	uint8_t key[LAB_SM4_KEY_SIZE];
	uint8_t digest[LAB_SM3_DIGEST_SIZE];
	unsigned int k;

	hs_derive_buffer(hello, buf, len);
	hs_derive_key(hello, key);
	for (k = 1; k <= calls; k++) {
		if (k & 1) {
			if (ops->sm3(ctx, buf, len, digest))
				return -1;
			hs_fold_digest(buf, len, digest);
		} else {
			if (ops->sm4(ctx, key, buf, len))
				return -1;
		}
	}
	lab_sm3_digest(buf, len, reply);
	return 0;
}

/* hs_soft_sm3 - the user-space SM3 crypto call */
static inline int hs_soft_sm3(void *ctx, const uint8_t *buf, size_t len,
			      uint8_t digest[LAB_SM3_DIGEST_SIZE])
{
	(void)ctx;
	lab_sm3_digest(buf, len, digest);
	return 0;
}

/* hs_soft_sm4 - the user-space SM4-ECB crypto call */
static inline int hs_soft_sm4(void *ctx, const uint8_t key[LAB_SM4_KEY_SIZE],
			      uint8_t *buf, size_t len)
{
	struct lab_sm4_key ks;

	(void)ctx;
	lab_sm4_expand_key(&ks, key);
	lab_sm4_encrypt_ecb(&ks, buf, len);
	return 0;
}

/*
 * hs_soft_reply - the whole computation in user space: what the client
 * expects and what the server's soft mode sends
 */
static inline void hs_soft_reply(const uint8_t hello[HS_HELLO_SIZE],
				 size_t payload, unsigned int calls,
				 uint8_t *buf, uint8_t reply[HS_REPLY_SIZE])
{
	static const struct hs_crypto_ops soft_ops = {
		.sm3 = hs_soft_sm3,
		.sm4 = hs_soft_sm4,
	};

	hs_compute(&soft_ops, NULL, hello, payload, calls, buf, reply);
}

#endif /* HSBENCH_HANDSHAKE_H */
