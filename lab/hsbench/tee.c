// SPDX-License-Identifier: GPL-2.0
/*
 * tee.c - hsbench's client of the teesim crypto TA (see tee.h).
 *
 * Every OPEN_SESSION and INVOKE carries TEE_NUM_PARAMS parameters, unused
 * ones TEE_IOCTL_PARAM_ATTR_TYPE_NONE, as libteec does. A call succeeds only
 * if the ioctl returns 0 and the TA's ret is 0 (TEEC_SUCCESS).
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/tee.h>

#include "hsbench.h"
#include "teesim_abi.h"
#include "tee.h"

#define TEE_ERRORS_SHOWN	3	/* per client; the rest are only counted */

/* GlobalPlatform TEEC_ORIGIN_* values of ret_origin */
static const char *const tee_origin_names[] = {
	[1] = "API", [2] = "COMMS", [3] = "TEE", [4] = "TRUSTED_APP",
};

#ifndef HSBENCH_TEEC
static const uint8_t teesim_ta_uuid[TEE_IOCTL_UUID_LEN] = TEESIM_TA_UUID;
#endif

/* The argument of TEE_IOC_OPEN_SESSION: the arg, then its params */
union tee_open_session_buf {
	struct tee_ioctl_open_session_arg arg;
	uint8_t raw[sizeof(struct tee_ioctl_open_session_arg) +
		    TEE_NUM_PARAMS * sizeof(struct tee_ioctl_param)];
};

/* The argument of TEE_IOC_INVOKE: the arg, then its params */
union tee_invoke_buf {
	struct tee_ioctl_invoke_arg arg;
	uint8_t raw[sizeof(struct tee_ioctl_invoke_arg) +
		    TEE_NUM_PARAMS * sizeof(struct tee_ioctl_param)];
};

/* tee_origin_name - the name of a ret_origin value (see tee.h) */
const char *tee_origin_name(uint32_t origin)
{
	if (origin < ARRAY_SIZE(tee_origin_names) &&
	    tee_origin_names[origin])
		return tee_origin_names[origin];
	return "unknown";
}

/* tee_client_error - report an error of @tc, the first few only (tee.h) */
void tee_client_error(struct tee_client *tc, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (tc->errors_to_show <= 0)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	hs_err("%s%s", msg, --tc->errors_to_show ? "" :
	       " (further TEE errors of this thread are only counted)");
}

#ifdef HSBENCH_ITEEC
/*
 * tee_find_device - iTrustee: libteec gets /dev/tc_ns_client's fd from
 * teecd; the node must be there (see tee.h)
 */
int tee_find_device(const char *wanted, char *path, size_t path_size)
{
	const char *dev = wanted ? wanted : TEE_LAB_DEVICE;

	if (access(dev, F_OK)) {
		hs_err("%s: %s; %s", dev, strerror(errno), TEE_LAB_HINT);
		return -1;
	}
	snprintf(path, path_size, "%s", dev);
	return 0;
}
#else
/*
 * tee_probe - open @path and query its version; returns the fd, or -1 with
 * a reason in @why
 */
static int tee_probe(const char *path, struct tee_ioctl_version_data *ver,
		     char *why, size_t why_size)
{
	int fd;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, why_size, "cannot open: %s", strerror(errno));
		return -1;
	}
	memset(ver, 0, sizeof(*ver));
	if (ioctl(fd, TEE_IOC_VERSION, ver) < 0) {
		snprintf(why, why_size, "TEE_IOC_VERSION failed: %s",
			 strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* compare_tee_paths - order /dev/teeN paths by N */
static int compare_tee_paths(const void *a, const void *b)
{
	const char *x = *(char *const *)a + strlen("/dev/tee");
	const char *y = *(char *const *)b + strlen("/dev/tee");
	unsigned long nx = strtoul(x, NULL, 10), ny = strtoul(y, NULL, 10);

	return (nx > ny) - (nx < ny);
}

/* tee_find_device - pick the lab TA's device (see tee.h) */
int tee_find_device(const char *wanted, char *path, size_t path_size)
{
	struct tee_ioctl_version_data ver;
	char why[128], seen[512] = "";
	size_t seen_len = 0, i;
	glob_t paths;
	int fd, found = 0;

	if (wanted) {
		fd = tee_probe(wanted, &ver, why, sizeof(why));
		if (fd < 0) {
			hs_err("%s: %s", wanted, why);
			return -1;
		}
		close(fd);
		if (ver.impl_id != TEE_LAB_IMPL_ID) {
			hs_err("%s is not a%s device (impl_id %u, not 0x%x)",
			       wanted, TEE_LAB_DEVICE, ver.impl_id, TEE_LAB_IMPL_ID);
			return -1;
		}
		snprintf(path, path_size, "%s", wanted);
		return 0;
	}

	if (glob("/dev/tee[0-9]*", GLOB_NOSORT, NULL, &paths)) {
		hs_err("no%s device: no /dev/tee[0-9]* exists; %s",
		       TEE_LAB_DEVICE, TEE_LAB_HINT);
		return -1;
	}
	qsort(paths.gl_pathv, paths.gl_pathc, sizeof(char *), compare_tee_paths);
	for (i = 0; i < paths.gl_pathc; i++) {
		const char *candidate = paths.gl_pathv[i];

		fd = tee_probe(candidate, &ver, why, sizeof(why));
		if (fd >= 0) {
			close(fd);
			if (ver.impl_id == TEE_LAB_IMPL_ID) {
				snprintf(path, path_size, "%s", candidate);
				found = 1;
				break;
			}
			snprintf(why, sizeof(why), "impl_id %u", ver.impl_id);
		}
		if (seen_len < sizeof(seen))
			seen_len += snprintf(seen + seen_len, sizeof(seen) - seen_len,
					     "%s%s (%s)", seen_len ? ", " : "",
					     candidate, why);
	}
	globfree(&paths);
	if (!found) {
		hs_err("no%s device among %s: %s", TEE_LAB_DEVICE, seen,
		       TEE_LAB_HINT);
		return -1;
	}
	return 0;
}
#endif /* HSBENCH_ITEEC */

/* tee_open_session_raw - TEE_IOC_OPEN_SESSION (see tee.h) */
int tee_open_session_raw(int fd, const uint8_t uuid[TEE_IOCTL_UUID_LEN],
			 uint32_t *session, uint32_t *ret, uint32_t *origin)
{
	union tee_open_session_buf osb;
	struct tee_ioctl_buf_data data;

	memset(&osb, 0, sizeof(osb));
	memcpy(osb.arg.uuid, uuid, sizeof(osb.arg.uuid));
	osb.arg.clnt_login = TEE_IOCTL_LOGIN_PUBLIC;
	osb.arg.num_params = TEE_NUM_PARAMS;
	data.buf_ptr = (uintptr_t)&osb;
	data.buf_len = sizeof(osb);
	if (ioctl(fd, TEE_IOC_OPEN_SESSION, &data) < 0)
		return -1;
	*session = osb.arg.session;
	*ret = osb.arg.ret;
	*origin = osb.arg.ret_origin;
	return 0;
}

#ifndef HSBENCH_TEEC
/* tee_open_session - open a session to the teesim TA on tc->fd */
static int tee_open_session(struct tee_client *tc, const char *path)
{
	uint32_t session, ret, origin;

	counter_inc(&tc->counts->open_session);
	if (tee_open_session_raw(tc->fd, teesim_ta_uuid, &session, &ret,
				 &origin)) {
		hs_err("%s: TEE_IOC_OPEN_SESSION to the teesim TA failed: %s",
		       path, strerror(errno));
		return -1;
	}
	if (ret) {
		hs_err("%s: opening a session to the teesim TA: ret 0x%08x, origin %u (%s)",
		       path, ret, origin, tee_origin_name(origin));
		return -1;
	}
	tc->session = session;
	tc->session_open = 1;
	return 0;
}

/* tee_shm_register - register tc->buf; returns the shm fd and sets @id */
static int tee_shm_register(struct tee_client *tc, int32_t *id)
{
	struct tee_ioctl_shm_register_data reg;
	int shm_fd;

	memset(&reg, 0, sizeof(reg));
	reg.addr = (uintptr_t)tc->buf;
	reg.length = tc->buf_size;

	counter_inc(&tc->counts->shm_register);
	shm_fd = ioctl(tc->fd, TEE_IOC_SHM_REGISTER, &reg);
	if (shm_fd < 0) {
		tee_client_error(tc, "TEE_IOC_SHM_REGISTER of %zu bytes failed: %s",
				 tc->buf_size, strerror(errno));
		return -1;
	}
	*id = reg.id;
	return shm_fd;
}

/* tee_shm_close - close a shm fd: the driver unregisters the memory */
static void tee_shm_close(struct tee_client *tc, int shm_fd)
{
	counter_inc(&tc->counts->shm_close);
	close(shm_fd);
}

#endif /* !HSBENCH_TEEC */

/* tee_invoke_raw - TEE_IOC_INVOKE (see tee.h) */
int tee_invoke_raw(int fd, uint32_t session, uint32_t func,
		   struct tee_ioctl_param *params, uint32_t *ret,
		   uint32_t *origin)
{
	union tee_invoke_buf ivb;
	struct tee_ioctl_buf_data data;

	memset(&ivb, 0, sizeof(ivb));
	ivb.arg.func = func;
	ivb.arg.session = session;
	ivb.arg.num_params = TEE_NUM_PARAMS;
	memcpy(ivb.arg.params, params, TEE_NUM_PARAMS * sizeof(*params));
	data.buf_ptr = (uintptr_t)&ivb;
	data.buf_len = sizeof(ivb);
	if (ioctl(fd, TEE_IOC_INVOKE, &data) < 0)
		return -1;
	memcpy(params, ivb.arg.params, TEE_NUM_PARAMS * sizeof(*params));
	*ret = ivb.arg.ret;
	*origin = ivb.arg.ret_origin;
	return 0;
}

#ifndef HSBENCH_TEEC
/*
 * tee_invoke - TEE_IOC_INVOKE @func with @params (TEE_NUM_PARAMS of them,
 * updated on return); @what names the command in messages
 */
static int tee_invoke(struct tee_client *tc, uint32_t func,
		      struct tee_ioctl_param *params, const char *what)
{
	uint32_t ret, origin;

	counter_inc(&tc->counts->invoke);
	if (tee_invoke_raw(tc->fd, tc->session, func, params, &ret, &origin)) {
		tee_client_error(tc, "TEE_IOC_INVOKE(%s) failed: %s", what,
				 strerror(errno));
		return -1;
	}
	if (ret) {
		tee_client_error(tc, "TEE_IOC_INVOKE(%s): ret 0x%08x, origin %u (%s)",
				 what, ret, origin, tee_origin_name(origin));
		return -1;
	}
	return 0;
}

/* tee_call_shm - the shm id for one call: registered now if temporary */
static int tee_call_shm(struct tee_client *tc, int *shm_fd, int32_t *id)
{
	if (tc->pattern == TEE_SHM_REGISTERED) {
		*shm_fd = -1;
		*id = tc->shm_id;
		return 0;
	}
	*shm_fd = tee_shm_register(tc, id);
	return *shm_fd < 0 ? -1 : 0;
}

/* tee_call_shm_done - close the shm of one call if it was temporary */
static void tee_call_shm_done(struct tee_client *tc, int shm_fd)
{
	if (shm_fd >= 0)
		tee_shm_close(tc, shm_fd);
}

/* tee_check_buffer - the data must be tc->buf, with room for the digest */
static int tee_check_buffer(struct tee_client *tc, const uint8_t *buf,
			    size_t len)
{
	if (buf != tc->buf || len + LAB_SM3_DIGEST_SIZE > tc->buf_size) {
		tee_client_error(tc, "internal error: crypto data outside the shared buffer");
		return -1;
	}
	return 0;
}

/* tee_sm3 - TEESIM_CMD_SM3_DIGEST (see tee.h) */
int tee_sm3(void *ctx, const uint8_t *buf, size_t len,
	    uint8_t digest[LAB_SM3_DIGEST_SIZE])
{
	struct tee_client *tc = ctx;
	struct tee_ioctl_param params[TEE_NUM_PARAMS];
	size_t out_offset = len;	/* a multiple of 16, after the data */
	int32_t shm_id;
	int shm_fd, rc;

	if (tee_check_buffer(tc, buf, len) || tee_call_shm(tc, &shm_fd, &shm_id))
		return -1;
	memset(params, 0, sizeof(params));
	params[0].attr = TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INPUT;
	params[0].a = 0;
	params[0].b = len;
	params[0].c = shm_id;
	params[1].attr = TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_OUTPUT;
	params[1].a = out_offset;
	params[1].b = LAB_SM3_DIGEST_SIZE;
	params[1].c = shm_id;
	rc = tee_invoke(tc, TEESIM_CMD_SM3_DIGEST, params, "SM3_DIGEST");
	tee_call_shm_done(tc, shm_fd);
	if (rc)
		return -1;
	if (params[1].b != LAB_SM3_DIGEST_SIZE) {
		tee_client_error(tc, "SM3_DIGEST returned %llu digest bytes, not %d",
				 (unsigned long long)params[1].b,
				 LAB_SM3_DIGEST_SIZE);
		return -1;
	}
	memcpy(digest, tc->buf + out_offset, LAB_SM3_DIGEST_SIZE);
	return 0;
}

/* tee_key_half - 8 key bytes as a little-endian VALUE parameter */
static uint64_t tee_key_half(const uint8_t *key)
{
	uint64_t value = 0;
	int i;

	for (i = 0; i < 8; i++)
		value |= (uint64_t)key[i] << (8 * i);
	return value;
}

/* tee_sm4 - TEESIM_CMD_SM4_ENCRYPT (see tee.h) */
int tee_sm4(void *ctx, const uint8_t key[LAB_SM4_KEY_SIZE],
	    uint8_t *buf, size_t len)
{
	struct tee_client *tc = ctx;
	struct tee_ioctl_param params[TEE_NUM_PARAMS];
	int32_t shm_id;
	int shm_fd, rc;

	if (tee_check_buffer(tc, buf, len) || tee_call_shm(tc, &shm_fd, &shm_id))
		return -1;
	memset(params, 0, sizeof(params));
	params[0].attr = TEE_IOCTL_PARAM_ATTR_TYPE_MEMREF_INOUT;
	params[0].a = 0;
	params[0].b = len;
	params[0].c = shm_id;
	params[1].attr = TEE_IOCTL_PARAM_ATTR_TYPE_VALUE_INPUT;
	params[1].a = tee_key_half(key);
	params[1].b = tee_key_half(key + 8);
	rc = tee_invoke(tc, TEESIM_CMD_SM4_ENCRYPT, params, "SM4_ENCRYPT");
	tee_call_shm_done(tc, shm_fd);
	if (rc)
		return -1;
	if (params[0].b != len) {
		tee_client_error(tc, "SM4_ENCRYPT returned %llu bytes, not %zu",
				 (unsigned long long)params[0].b, len);
		return -1;
	}
	return 0;
}

/* tee_client_open - fd, session and buffer of one thread (see tee.h) */
int tee_client_open(struct tee_client *tc, const char *path,
		    enum tee_shm_pattern pattern, size_t data_len,
		    struct tee_ioctl_counts *counts)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *buf;
	int err;

	memset(tc, 0, sizeof(*tc));
	tc->fd = -1;
	tc->shm_fd = -1;
	tc->pattern = pattern;
	tc->counts = counts;
	tc->errors_to_show = TEE_ERRORS_SHOWN;
	tc->buf_size = (data_len + LAB_SM3_DIGEST_SIZE + page - 1) & ~(page - 1);
	err = posix_memalign(&buf, page, tc->buf_size);
	if (err) {
		hs_err("cannot allocate the shared buffer: %s", strerror(err));
		return -1;
	}
	memset(buf, 0, tc->buf_size);
	tc->buf = buf;

	tc->fd = open(path, O_RDWR | O_CLOEXEC);
	if (tc->fd < 0) {
		hs_err("cannot open %s: %s", path, strerror(errno));
		goto fail;
	}
	if (tee_open_session(tc, path))
		goto fail;
	if (pattern == TEE_SHM_REGISTERED) {
		tc->shm_fd = tee_shm_register(tc, &tc->shm_id);
		if (tc->shm_fd < 0)
			goto fail;
	}
	return 0;

fail:
	tee_client_close(tc);
	return -1;
}

/* tee_client_set_pattern - temporary or registered memory from now on */
int tee_client_set_pattern(struct tee_client *tc, enum tee_shm_pattern pattern)
{
	if (pattern == TEE_SHM_REGISTERED && tc->shm_fd < 0) {
		tc->shm_fd = tee_shm_register(tc, &tc->shm_id);
		if (tc->shm_fd < 0)
			return -1;
	}
	tc->pattern = pattern;
	return 0;
}

/* tee_client_close - release the buffer, session and fd (see tee.h) */
void tee_client_close(struct tee_client *tc)
{
	if (tc->shm_fd >= 0) {
		tee_shm_close(tc, tc->shm_fd);
		tc->shm_fd = -1;
	}
	if (tc->session_open) {
		struct tee_ioctl_close_session_arg arg = { .session = tc->session };

		counter_inc(&tc->counts->close_session);
		if (ioctl(tc->fd, TEE_IOC_CLOSE_SESSION, &arg) < 0)
			hs_err("TEE_IOC_CLOSE_SESSION failed: %s", strerror(errno));
		tc->session_open = 0;
	}
	if (tc->fd >= 0) {
		close(tc->fd);
		tc->fd = -1;
	}
	free(tc->buf);
	tc->buf = NULL;
}
#endif /* !HSBENCH_TEEC */
