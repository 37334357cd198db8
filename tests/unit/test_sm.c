// SPDX-License-Identifier: GPL-2.0
/*
 * test_sm.c - unit tests for lab/crypto SM3 and SM4 against the published
 * vectors of GB/T 32905-2016 and GB/T 32907-2016, plus boundary checks.
 */
#include <stdint.h>
#include <string.h>

#include "sm.h"
#include "tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* hex2bin - decode the hex string @hex into @out; return bytes written */
static size_t hex2bin(const char *hex, uint8_t *out, size_t max)
{
	size_t n = 0;

	while (hex[0] && hex[1] && n < max) {
		unsigned int v;

		if (sscanf(hex, "%2x", &v) != 1)
			break;
		out[n++] = (uint8_t)v;
		hex += 2;
	}
	return n;
}

/* bin2hex - encode @len bytes at @in as lower-case hex into @out */
static void bin2hex(const uint8_t *in, size_t len, char *out)
{
	size_t i;

	for (i = 0; i < len; i++)
		sprintf(out + 2 * i, "%02x", in[i]);
	out[2 * len] = '\0';
}

/* check_bytes - a TAP check that @got equals the hex string @want */
static int check_bytes(const uint8_t *got, size_t len, const char *want,
		       const char *name)
{
	char hex[2 * 64 + 1];
	int ok;

	bin2hex(got, len, hex);
	ok = tap_ok(strcmp(hex, want) == 0, "%s", name);
	if (!ok) {
		tap_diag("got  %s", hex);
		tap_diag("want %s", want);
	}
	return ok;
}

/* test_sm3_vectors - the standard's two examples and the empty message */
static void test_sm3_vectors(void)
{
	uint8_t md[LAB_SM3_DIGEST_SIZE];
	uint8_t msg[64];
	int i;

	lab_sm3_digest((const uint8_t *)"abc", 3, md);
	check_bytes(md, sizeof(md),
		    "66c7f0f462eeedd9d1f2d46bdc10e4e2"
		    "4167c4875cf2f7a2297da02b8f4ba8e0",
		    "SM3(\"abc\")");

	for (i = 0; i < 16; i++)
		memcpy(msg + 4 * i, "abcd", 4);
	lab_sm3_digest(msg, sizeof(msg), md);
	check_bytes(md, sizeof(md),
		    "debe9ff92275b8a138604889c18e5a4d"
		    "6fdb70e5387e5765293dcba39c0c5732",
		    "SM3(\"abcd\" x 16)");

	lab_sm3_digest((const uint8_t *)"", 0, md);
	check_bytes(md, sizeof(md),
		    "1ab21d8355cfa17f8e61194831e81a8f"
		    "22bec8c728fefb747ed035eb5082aa2b",
		    "SM3(\"\")");
}

/* test_sm3_padding - lengths around the padding boundaries */
static void test_sm3_padding(void)
{
	static const size_t lens[] = { 55, 56, 63, 64, 65 };
	enum { N = ARRAY_SIZE(lens) };
	uint8_t md[N][LAB_SM3_DIGEST_SIZE];
	uint8_t again[LAB_SM3_DIGEST_SIZE];
	uint8_t msg[65];
	int distinct = 1;
	size_t i, j;

	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(i * 37 + 11);

	for (i = 0; i < N; i++) {
		lab_sm3_digest(msg, lens[i], md[i]);
		lab_sm3_digest(msg, lens[i], again);
		tap_ok(memcmp(md[i], again, sizeof(again)) == 0,
		       "SM3 of %zu bytes is deterministic", lens[i]);
	}
	for (i = 0; i < N; i++)
		for (j = i + 1; j < N; j++)
			if (memcmp(md[i], md[j], LAB_SM3_DIGEST_SIZE) == 0) {
				tap_diag("lengths %zu and %zu collide",
					 lens[i], lens[j]);
				distinct = 0;
			}
	tap_ok(distinct, "SM3 of lengths 55/56/63/64/65 all differ");
}

/* test_sm4_vectors - the standard's single-block and 1,000,000-round cases */
static void test_sm4_vectors(void)
{
	static const char kp[] = "0123456789abcdeffedcba9876543210";
	uint8_t key[LAB_SM4_KEY_SIZE], blk[LAB_SM4_BLOCK_SIZE];
	struct lab_sm4_key ks;
	long i;

	hex2bin(kp, key, sizeof(key));
	hex2bin(kp, blk, sizeof(blk));
	lab_sm4_expand_key(&ks, key);

	lab_sm4_encrypt_ecb(&ks, blk, sizeof(blk));
	check_bytes(blk, sizeof(blk), "681edf34d206965e86b3e94f536e4246",
		    "SM4 single block");

	hex2bin(kp, blk, sizeof(blk));
	for (i = 0; i < 1000000; i++)
		lab_sm4_encrypt_ecb(&ks, blk, sizeof(blk));
	check_bytes(blk, sizeof(blk), "595298c7c6fd271f0402f804c33d3f66",
		    "SM4 1,000,000 iterations");
}

/* test_sm4_ecb - multi-block ECB and the zero-length case */
static void test_sm4_ecb(void)
{
	uint8_t key[LAB_SM4_KEY_SIZE];
	uint8_t buf[3 * LAB_SM4_BLOCK_SIZE], ref[sizeof(buf)];
	uint8_t guard[sizeof(buf) + 16], saved[sizeof(guard)];
	struct lab_sm4_key ks;
	size_t i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0xa5 ^ (i * 13));
	lab_sm4_expand_key(&ks, key);

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + 3);
	memcpy(ref, buf, sizeof(buf));

	lab_sm4_encrypt_ecb(&ks, buf, sizeof(buf));
	for (i = 0; i < 3; i++)
		lab_sm4_encrypt_ecb(&ks, ref + i * LAB_SM4_BLOCK_SIZE,
				    LAB_SM4_BLOCK_SIZE);
	tap_ok(memcmp(buf, ref, sizeof(buf)) == 0,
	       "SM4 ECB over 3 blocks equals 3 single-block calls");

	memset(guard, 0x5c, sizeof(guard));
	memcpy(saved, guard, sizeof(guard));
	lab_sm4_encrypt_ecb(&ks, guard, 0);
	tap_ok(memcmp(guard, saved, sizeof(guard)) == 0,
	       "SM4 ECB with length 0 leaves the buffer untouched");
}

int main(void)
{
	test_sm3_vectors();
	test_sm3_padding();
	test_sm4_vectors();
	test_sm4_ecb();
	return tap_done();
}
