// SPDX-License-Identifier: GPL-2.0
/*
 * tee_cmd_kunit.c - KUnit suite teeprobe_tee_cmd: decoding a TEE ioctl
 * command to its name (tee_cmd.h).
 */
#include <kunit/test.h>

#include "tee_cmd.h"

/* tee_decode_mainline_commands - every TEE_IOC_* maps to its name */
static void tee_decode_mainline_commands(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(TEE_IOC_VERSION), TEEPROBE_TEE_VERSION);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(TEE_IOC_INVOKE), TEEPROBE_TEE_INVOKE);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(TEE_IOC_SHM_REGISTER),
			TEEPROBE_TEE_SHM_REGISTER);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(TEE_IOC_SHM_ALLOC),
			TEEPROBE_TEE_SHM_ALLOC);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(TEE_IOC_OPEN_SESSION),
			TEEPROBE_TEE_OPEN_SESSION);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(TEE_IOC_CLOSE_SESSION),
			TEEPROBE_TEE_CLOSE_SESSION);
	KUNIT_EXPECT_STREQ(test, teeprobe_tee_cmd_name(TEEPROBE_TEE_INVOKE), "INVOKE");
}

/* tee_decode_wrong_size_is_other - same number, other size: not INVOKE */
static void tee_decode_wrong_size_is_other(struct kunit *test)
{
	unsigned int bad = _IOR(TEE_IOC_MAGIC, TEE_IOC_BASE + 3, u32);

	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(bad), TEEPROBE_TEE_CMD_OTHER);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(0), TEEPROBE_TEE_CMD_OTHER);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(_IO('T', 1)), TEEPROBE_TEE_CMD_OTHER);
	KUNIT_EXPECT_STREQ(test, teeprobe_tee_cmd_name(TEEPROBE_TEE_CMDS + 7), "OTHER");
}

/* tee_decode_tzdriver_by_number - 't' commands whatever their size */
static void tee_decode_tzdriver_by_number(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(_IOW('t', 1, u64[8])),
			TEEPROBE_TZ_SES_OPEN);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(_IOWR('t', 3, u32)),
			TEEPROBE_TZ_SEND_CMD);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(_IOWR('t', 9, u32)),
			TEEPROBE_TZ_LOAD_APP);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(_IOWR('t', 0, u32)),
			TEEPROBE_TEE_CMD_OTHER);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(_IOWR('t', 10, u32)),
			TEEPROBE_TEE_CMD_OTHER);
	KUNIT_EXPECT_STREQ(test, teeprobe_tee_cmd_name(TEEPROBE_TZ_SEND_CMD),
			   "TZ_SEND_CMD");
}

static struct kunit_case teeprobe_tee_cmd_cases[] = {
	KUNIT_CASE(tee_decode_mainline_commands),
	KUNIT_CASE(tee_decode_wrong_size_is_other),
	KUNIT_CASE(tee_decode_tzdriver_by_number),
	{}
};

static struct kunit_suite teeprobe_tee_cmd_suite = {
	.name = "teeprobe_tee_cmd",
	.test_cases = teeprobe_tee_cmd_cases,
};

kunit_test_suite(teeprobe_tee_cmd_suite);
