/* SPDX-License-Identifier: GPL-2.0 */
/*
 * teesim_abi.h - the interface between the lab's crypto TA and its clients
 * (hsbench, teeclient, tests). The TA runs in teesim.ko (the simulated
 * secure world) or, on a real secure world, as an OP-TEE TA (lab/ta, the
 * same UUID and commands). Shared by kernel, TA and user space.
 *
 * A client opens /dev/teeN (the device whose TEE_IOC_VERSION reports
 * impl_id TEESIM_IMPL_ID), opens a session to TEESIM_TA_UUID with
 * TEE_IOCTL_LOGIN_PUBLIC, and invokes the commands below.
 */
#ifndef TEESIM_ABI_H
#define TEESIM_ABI_H

/* impl_id reported in struct tee_ioctl_version_data (not used by mainline drivers) */
#define TEESIM_IMPL_ID		0x7e5e

/* UUID of the crypto trusted application: 5eec0000-7ee5-4d00-8000-73696d746565 */
#define TEESIM_TA_UUID { 0x5e, 0xec, 0x00, 0x00, 0x7e, 0xe5, 0x4d, 0x00, \
			 0x80, 0x00, 0x73, 0x69, 0x6d, 0x74, 0x65, 0x65 }

/*
 * TEESIM_CMD_SM3_DIGEST
 *   param[0] MEMREF_INPUT  data to hash (any length, may be 0)
 *   param[1] MEMREF_OUTPUT 32 bytes: SM3 digest
 * The two memrefs may point into the same shared memory at different offsets.
 */
#define TEESIM_CMD_SM3_DIGEST	1

/*
 * TEESIM_CMD_SM4_ENCRYPT
 *   param[0] MEMREF_INOUT  buffer, length a multiple of 16: encrypted in place
 *   param[1] VALUE_INPUT   key: bytes 0..7 in a, bytes 8..15 in b, each
 *                          little-endian (byte i of the key is bits 8*i..8*i+7)
 * SM4 in ECB mode (each 16-byte block on its own).
 * Over the GlobalPlatform client API (libteec, lab/ta), whose values are
 * 32-bit, the key takes two VALUE_INPUT parameters: param[1] a, b = key
 * bytes 0..3, 4..7 and param[2] a, b = bytes 8..11, 12..15, each
 * little-endian.
 */
#define TEESIM_CMD_SM4_ENCRYPT	2

/*
 * TEESIM_CMD_STATS (lab/ta only: the TA's own count, for a test to hold
 * against the normal world's)
 *   param[0] VALUE_OUTPUT  a: SM3_DIGEST calls done, b: SM4_ENCRYPT calls
 *   param[1] VALUE_OUTPUT  a: calls refused (bad parameters or command),
 *                          b: sessions this TA instance has opened
 * An OP-TEE user TA is one instance per session (lab/ta's flags), so the
 * counts are the session's; a client sums them over its sessions.
 */
#define TEESIM_CMD_STATS	3

/* Largest memref a TA command accepts */
#define TEESIM_MAX_MEMREF	(64 * 1024)

#endif /* TEESIM_ABI_H */
