/* SPDX-License-Identifier: GPL-2.0 */
/*
 * user_ta_header_defines.h - what OP-TEE's TA dev kit needs to know of
 * labta: its UUID (teesim's TA's, TEESIM_TA_UUID) and flags.
 *
 * No TA_FLAG_SINGLE_INSTANCE: every session is an instance of its own, so
 * the sessions of a worker pool run at once, as many as the secure world
 * has threads (a single instance would take one call at a time). The
 * counts TEESIM_CMD_STATS returns are therefore the session's.
 */
#ifndef USER_TA_HEADER_DEFINES_H
#define USER_TA_HEADER_DEFINES_H

#define TA_UUID { 0x5eec0000, 0x7ee5, 0x4d00, \
		  { 0x80, 0x00, 0x73, 0x69, 0x6d, 0x74, 0x65, 0x65 } }

#define TA_FLAGS		0
#define TA_STACK_SIZE		(8 * 1024)
#define TA_DATA_SIZE		(32 * 1024)
#define TA_VERSION		"1.0"
#define TA_DESCRIPTION		"teeprobe lab crypto TA: SM3, SM4 and its own counts"

#endif /* USER_TA_HEADER_DEFINES_H */
