/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sm.h - SM3 (GB/T 32905-2016) and SM4 (GB/T 32907-2016) for the TEE lab.
 *
 * Plain C with no dependencies, so the same sm3.c/sm4.c build into teesim.ko
 * (the "secure world") and into hsbench (the "soft" user-space mode).
 */
#ifndef LAB_SM_H
#define LAB_SM_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stddef.h>
#include <stdint.h>
#endif

#define LAB_SM3_DIGEST_SIZE	32
#define LAB_SM4_BLOCK_SIZE	16
#define LAB_SM4_KEY_SIZE	16

struct lab_sm4_key {
	uint32_t rk[32];
};

/* lab_sm3_digest - SM3 hash of @len bytes at @data into @out */
void lab_sm3_digest(const uint8_t *data, size_t len,
		    uint8_t out[LAB_SM3_DIGEST_SIZE]);

/* lab_sm4_expand_key - compute the 32 round keys of @key */
void lab_sm4_expand_key(struct lab_sm4_key *ks,
			const uint8_t key[LAB_SM4_KEY_SIZE]);

/* lab_sm4_encrypt_ecb - encrypt @len bytes (a multiple of 16) in place */
void lab_sm4_encrypt_ecb(const struct lab_sm4_key *ks, uint8_t *buf, size_t len);

#endif /* LAB_SM_H */
