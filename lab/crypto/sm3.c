// SPDX-License-Identifier: GPL-2.0
/*
 * sm3.c - SM3 cryptographic hash (GB/T 32905-2016).
 *
 * One-shot digest only. Written from the text of the standard; builds both
 * in the kernel (with __KERNEL__) and in user space. No mutable static
 * state, so it is reentrant.
 */
#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#else
#include <string.h>
#endif

#include "sm.h"

#define SM3_BLOCK_SIZE	64

/* Initial value IV (standard, section 4.1) */
static const uint32_t sm3_iv[8] = {
	0x7380166f, 0x4914b2b9, 0x172442d7, 0xda8a0600,
	0xa96f30bc, 0x163138aa, 0xe38dee4d, 0xb0fb0e4e,
};

/* sm3_rotl - rotate @x left by @n bits, 0 <= n < 32 */
static inline uint32_t sm3_rotl(uint32_t x, unsigned int n)
{
	n &= 31;
	return n ? (x << n) | (x >> (32 - n)) : x;
}

/* sm3_load_be32 - read a big-endian 32-bit word from @p */
static inline uint32_t sm3_load_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

/* sm3_store_be32 - write @v to @p as a big-endian 32-bit word */
static inline void sm3_store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* sm3_p0 - permutation P0 used in the compression function */
static inline uint32_t sm3_p0(uint32_t x)
{
	return x ^ sm3_rotl(x, 9) ^ sm3_rotl(x, 17);
}

/* sm3_p1 - permutation P1 used in the message expansion */
static inline uint32_t sm3_p1(uint32_t x)
{
	return x ^ sm3_rotl(x, 15) ^ sm3_rotl(x, 23);
}

/* sm3_compress - fold one 64-byte block @blk into the state @v */
static void sm3_compress(uint32_t v[8], const uint8_t *blk)
{
	uint32_t w[68];
	uint32_t a, b, c, d, e, f, g, h;
	uint32_t ss1, ss2, tt1, tt2, t, a12;
	int j;

	/* Message expansion: W0..W67; W'j = Wj ^ Wj+4 is formed inline */
	for (j = 0; j < 16; j++)
		w[j] = sm3_load_be32(blk + 4 * j);
	for (j = 16; j < 68; j++)
		w[j] = sm3_p1(w[j - 16] ^ w[j - 9] ^ sm3_rotl(w[j - 3], 15)) ^
		       sm3_rotl(w[j - 13], 7) ^ w[j - 6];

	a = v[0];
	b = v[1];
	c = v[2];
	d = v[3];
	e = v[4];
	f = v[5];
	g = v[6];
	h = v[7];

	for (j = 0; j < 64; j++) {
		t = j < 16 ? 0x79cc4519 : 0x7a879d8a;
		a12 = sm3_rotl(a, 12);
		ss1 = sm3_rotl(a12 + e + sm3_rotl(t, (unsigned int)j), 7);
		ss2 = ss1 ^ a12;
		if (j < 16) {
			tt1 = (a ^ b ^ c) + d + ss2 + (w[j] ^ w[j + 4]);
			tt2 = (e ^ f ^ g) + h + ss1 + w[j];
		} else {
			tt1 = ((a & b) | (a & c) | (b & c)) + d + ss2 +
			      (w[j] ^ w[j + 4]);
			tt2 = ((e & f) | (~e & g)) + h + ss1 + w[j];
		}
		d = c;
		c = sm3_rotl(b, 9);
		b = a;
		a = tt1;
		h = g;
		g = sm3_rotl(f, 19);
		f = e;
		e = sm3_p0(tt2);
	}

	v[0] ^= a;
	v[1] ^= b;
	v[2] ^= c;
	v[3] ^= d;
	v[4] ^= e;
	v[5] ^= f;
	v[6] ^= g;
	v[7] ^= h;
}

/* lab_sm3_digest - SM3 hash of @len bytes at @data into @out */
void lab_sm3_digest(const uint8_t *data, size_t len,
		    uint8_t out[LAB_SM3_DIGEST_SIZE])
{
	uint8_t tail[2 * SM3_BLOCK_SIZE];
	uint64_t bits = (uint64_t)len << 3;
	size_t rem = len % SM3_BLOCK_SIZE;
	size_t full = len - rem;
	size_t tlen, i;
	uint32_t v[8];

	memcpy(v, sm3_iv, sizeof(v));

	for (i = 0; i < full; i += SM3_BLOCK_SIZE)
		sm3_compress(v, data + i);

	/*
	 * Padding: a single 1 bit, zeros up to 56 mod 64 bytes, then the
	 * message length in bits as a 64-bit big-endian integer. That needs
	 * a second block when fewer than 9 bytes are left in the last one.
	 */
	tlen = rem < SM3_BLOCK_SIZE - 8 ? SM3_BLOCK_SIZE : 2 * SM3_BLOCK_SIZE;
	memset(tail, 0, sizeof(tail));
	if (rem)
		memcpy(tail, data + full, rem);
	tail[rem] = 0x80;
	sm3_store_be32(tail + tlen - 8, (uint32_t)(bits >> 32));
	sm3_store_be32(tail + tlen - 4, (uint32_t)bits);

	for (i = 0; i < tlen; i += SM3_BLOCK_SIZE)
		sm3_compress(v, tail + i);

	for (i = 0; i < 8; i++)
		sm3_store_be32(out + 4 * i, v[i]);
}
