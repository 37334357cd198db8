/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tee_cmd.h - decoding the ioctl commands of TEE drivers, pure logic shared
 * by the probes, the trace events and KUnit.
 *
 * Mainline TEE core commands (magic 0xa4, <linux/tee.h>) are matched
 * exactly; iTrustee tzdriver commands (magic 't', /dev/tc_ns_client) by
 * number only, since their argument sizes differ between tzdriver versions.
 */
#ifndef TEEPROBE_TEE_CMD_H
#define TEEPROBE_TEE_CMD_H

#include <linux/ioctl.h>
#include <linux/tee.h>
#include <linux/types.h>

#define TEEPROBE_TZ_IOC_MAGIC	't'

/*
 * X(enum, name, mainline command or tzdriver number). Every command but
 * TEEPROBE_TEE_CMD_OTHER, which stands for anything unknown.
 */
#define TEEPROBE_TEE_CMD_LIST(X)					\
	X(TEEPROBE_TEE_VERSION,	"VERSION",		TEE_IOC_VERSION)	\
	X(TEEPROBE_TEE_SHM_ALLOC,	"SHM_ALLOC",		TEE_IOC_SHM_ALLOC)	\
	X(TEEPROBE_TEE_OPEN_SESSION,	"OPEN_SESSION",		TEE_IOC_OPEN_SESSION)	\
	X(TEEPROBE_TEE_INVOKE,	"INVOKE",		TEE_IOC_INVOKE)		\
	X(TEEPROBE_TEE_CANCEL,	"CANCEL",		TEE_IOC_CANCEL)		\
	X(TEEPROBE_TEE_CLOSE_SESSION,	"CLOSE_SESSION",	TEE_IOC_CLOSE_SESSION)	\
	X(TEEPROBE_TEE_SUPPL_RECV,	"SUPPL_RECV",		TEE_IOC_SUPPL_RECV)	\
	X(TEEPROBE_TEE_SUPPL_SEND,	"SUPPL_SEND",		TEE_IOC_SUPPL_SEND)	\
	X(TEEPROBE_TEE_SHM_REGISTER,	"SHM_REGISTER",		TEE_IOC_SHM_REGISTER)	\
	X(TEEPROBE_TZ_SES_OPEN,	"TZ_SES_OPEN",		1)			\
	X(TEEPROBE_TZ_SES_CLOSE,	"TZ_SES_CLOSE",		2)			\
	X(TEEPROBE_TZ_SEND_CMD,	"TZ_SEND_CMD",		3)			\
	X(TEEPROBE_TZ_SHRD_MEM_RELEASE, "TZ_SHRD_MEM_RELEASE", 4)			\
	X(TEEPROBE_TZ_WAIT_EVENT,	"TZ_WAIT_EVENT",	5)			\
	X(TEEPROBE_TZ_SEND_EVENT_RESPONSE, "TZ_SEND_EVENT_RESPONSE", 6)		\
	X(TEEPROBE_TZ_REGISTER_AGENT,	"TZ_REGISTER_AGENT",	7)			\
	X(TEEPROBE_TZ_UNREGISTER_AGENT, "TZ_UNREGISTER_AGENT", 8)			\
	X(TEEPROBE_TZ_LOAD_APP,	"TZ_LOAD_APP",		9)

#define TEEPROBE_TEE_CMD_ENUM(e, name, cmd) e,
enum teeprobe_tee_cmd {
	TEEPROBE_TEE_CMD_LIST(TEEPROBE_TEE_CMD_ENUM)
	TEEPROBE_TEE_CMD_OTHER,
	TEEPROBE_TEE_CMDS
};
#undef TEEPROBE_TEE_CMD_ENUM

/* teeprobe_tee_cmd_name - printable name of a decoded command */
static inline const char *teeprobe_tee_cmd_name(unsigned int cmd)
{
#define TEEPROBE_TEE_CMD_NAME(e, name, c) [e] = name,
	static const char * const names[TEEPROBE_TEE_CMDS] = {
		TEEPROBE_TEE_CMD_LIST(TEEPROBE_TEE_CMD_NAME)
		[TEEPROBE_TEE_CMD_OTHER] = "OTHER",
	};
#undef TEEPROBE_TEE_CMD_NAME
	return cmd < TEEPROBE_TEE_CMDS ? names[cmd] : "OTHER";
}

/* teeprobe_tee_decode - the command a raw ioctl number stands for */
static inline enum teeprobe_tee_cmd teeprobe_tee_decode(unsigned int raw)
{
	if (_IOC_TYPE(raw) == TEE_IOC_MAGIC) {
		switch (raw) {
		case TEE_IOC_VERSION:		return TEEPROBE_TEE_VERSION;
		case TEE_IOC_SHM_ALLOC:		return TEEPROBE_TEE_SHM_ALLOC;
		case TEE_IOC_OPEN_SESSION:	return TEEPROBE_TEE_OPEN_SESSION;
		case TEE_IOC_INVOKE:		return TEEPROBE_TEE_INVOKE;
		case TEE_IOC_CANCEL:		return TEEPROBE_TEE_CANCEL;
		case TEE_IOC_CLOSE_SESSION:	return TEEPROBE_TEE_CLOSE_SESSION;
		case TEE_IOC_SUPPL_RECV:	return TEEPROBE_TEE_SUPPL_RECV;
		case TEE_IOC_SUPPL_SEND:	return TEEPROBE_TEE_SUPPL_SEND;
		case TEE_IOC_SHM_REGISTER:	return TEEPROBE_TEE_SHM_REGISTER;
		}
		return TEEPROBE_TEE_CMD_OTHER;
	}
	if (_IOC_TYPE(raw) == TEEPROBE_TZ_IOC_MAGIC &&
	    _IOC_NR(raw) >= 1 && _IOC_NR(raw) <= 9)
		return TEEPROBE_TZ_SES_OPEN + _IOC_NR(raw) - 1;
	return TEEPROBE_TEE_CMD_OTHER;
}

#endif /* TEEPROBE_TEE_CMD_H */
