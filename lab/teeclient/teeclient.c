// SPDX-License-Identifier: GPL-2.0
/*
 * teeclient.c - a small client of the teesim TEE device for integration
 * tests: SM3/SM4 known vectors over registered or driver-allocated shared
 * memory, a raw invoke and a session open that must fail, a session held
 * open, and a loop that counts the ioctls.
 *
 * Device choice, sessions, TEE_IOC_SHM_REGISTER and the SM3/SM4 invokes are
 * hsbench's (../hsbench/tee.c, linked as is). What it lacks is here: the
 * TEE_IOC_SHM_ALLOC buffer, an invoke and an open session that report the
 * TA's ret and origin instead of failing, and hs_err() (hsbench's util.c is
 * not linked: its hs_err() says "hsbench: ").
 *
 * Every argument is checked before the device is opened, so usage errors
 * (exit status 2) can be tested on a host without a TEE.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/tee.h>

#include "hsbench.h"
#include "insn_mark.h"
#include "lab_util.h"
#include "sm.h"
#include "tee.h"
#include "teesim_abi.h"

#define TC_MAX_POSITIONAL	4	/* the command and up to 3 arguments */
#define TC_LOOP_DATA		64	/* bytes hashed by each "loop" invoke */
#define TC_LOOP_MAX		1000000000ull
#define TC_HOLD_MAX		1e7	/* seconds */

/* A UUID that is not teesim's: TEESIM_TA_UUID with its last byte changed */
#define TC_BAD_UUID { 0x5e, 0xec, 0x00, 0x00, 0x7e, 0xe5, 0x4d, 0x00, \
		      0x80, 0x00, 0x73, 0x69, 0x6d, 0x74, 0x65, 0x9a }

/* Where the data of a crypto command lives (--mem) */
enum tc_mem {
	TC_MEM_REG,	/* user memory, TEE_IOC_SHM_REGISTER once */
	TC_MEM_ALLOC,	/* TEE_IOC_SHM_ALLOC from the driver's pool, mmap()ed */
	TC_MEM_TEMP,	/* user memory registered and closed around each invoke */
};

static const char *const tc_mem_names[] = {
	[TC_MEM_REG] = "reg",
	[TC_MEM_ALLOC] = "alloc",
	[TC_MEM_TEMP] = "temp",
};

/*
 * struct tc_args - the command line
 * @pos: positional arguments, the command first
 * @mem_text: --mem as given, NULL if absent; @mem: its value once checked
 */
struct tc_args {
	const char *dev;
	const char *mem_text;
	const char *ready_file;
	const char *pos[TC_MAX_POSITIONAL];
	int npos;
	int help;
	enum tc_mem mem;
};

/*
 * struct tc_command - a subcommand
 * @nargs: its number of positional arguments
 * @mems: bitmask of the --mem values it takes (0: no --mem)
 * @ready_file: whether it takes --ready-file
 */
struct tc_command {
	const char *name;
	int nargs;
	unsigned int mems;
	int ready_file;
	int (*run)(const struct tc_args *args);
};

static const uint8_t tc_bad_uuid[TEE_IOCTL_UUID_LEN] = TC_BAD_UUID;

/* hs_err - print "teeclient: <message>" on stderr (also for tee.c) */
void hs_err(const char *fmt, ...)
{
	va_list ap;

	fputs("teeclient: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* tc_usage - the command line summary */
static void tc_usage(FILE *f)
{
	fputs(
"usage: teeclient COMMAND [ARGS] [--dev /dev/teeN]\n"
"\n"
"  version                      print impl_id, impl_caps, gen_caps and\n"
"                               whether gen_caps has REG_MEM and GP\n"
"  sm3 [--mem reg|alloc|temp] HEX\n"
"                               print the SM3 digest of the bytes HEX\n"
"                               (\"\" for none)\n"
"  sm4 [--mem reg|alloc|temp] KEYHEX HEX\n"
"                               print the SM4-ECB encryption of HEX (a\n"
"                               multiple of 16 bytes) under the 16-byte key\n"
"  invoke-raw CMD               invoke TA command CMD (decimal or 0x...)\n"
"                               with no parameters; print \"ret=0x%08x\n"
"                               origin=%u\", exit status 0 whatever ret is\n"
"  open-bad-uuid                open a session to a UUID that is not\n"
"                               teesim's (5eec0000-7ee5-4d00-8000-73696d74659a)\n"
"                               and print \"ret=0x%08x origin=%u\"\n"
"  hold SECONDS [--ready-file PATH]\n"
"                               open a session, write PATH (pid, device)\n"
"                               once it is open, wait SECONDS or until\n"
"                               SIGTERM/SIGINT, close the session\n"
"  loop N [--mem reg|temp]      N SM3 invokes of a 64-byte buffer, each\n"
"                               checked, then print the ioctl counts\n"
"\n"
"--mem reg    data in user memory registered with TEE_IOC_SHM_REGISTER\n"
"             once (the default)\n"
"--mem alloc  data in TEE_IOC_SHM_ALLOC memory, mmap()ed from its fd\n"
"--mem temp   TEE_IOC_SHM_REGISTER, invoke, close, per invoke (with\n"
"             libteec: TEEC_MEMREF_TEMP_* parameters)\n"
"--dev        the TEE device; by default the first /dev/teeN whose impl_id\n"
"             is teesim's (0x7e5e)\n"
"\n"
"Exit status: 0 success, 1 error, 2 bad command line.\n", f);
}

/* tc_usage_error - report a bad command line; returns HS_EXIT_USAGE */
static int __attribute__((format(printf, 1, 2)))
tc_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("teeclient: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(" (see teeclient --help)\n", stderr);
	return HS_EXIT_USAGE;
}

/* tc_hex_digit - the value of hex digit @c, or -1 */
static int tc_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * tc_parse_hex - decode the hex string @text (@what names it in messages)
 * into a new buffer @out of @len bytes; returns 0 or HS_EXIT_USAGE
 */
static int tc_parse_hex(const char *what, const char *text, uint8_t **out,
			size_t *len)
{
	size_t n = strlen(text), i;
	uint8_t *buf;

	for (i = 0; i < n; i++)
		if (tc_hex_digit(text[i]) < 0)
			return tc_usage_error("%s: bad hex digit '%c' at offset %zu",
					      what, text[i], i);
	if (n % 2)
		return tc_usage_error("%s: odd number of hex digits (%zu)",
				      what, n);
	buf = malloc(n / 2 + 1);
	if (!buf) {
		hs_err("out of memory");
		exit(HS_EXIT_FAIL);
	}
	for (i = 0; i < n / 2; i++)
		buf[i] = tc_hex_digit(text[2 * i]) << 4 |
			 tc_hex_digit(text[2 * i + 1]);
	*out = buf;
	*len = n / 2;
	return 0;
}

/* tc_print_hex - print @len bytes as lowercase hex and a newline */
static void tc_print_hex(const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		printf("%02x", buf[i]);
	putchar('\n');
}

/*
 * tc_parse_u32 - parse @text, decimal or 0x-prefixed hex, as a 32-bit
 * value; returns 0 or HS_EXIT_USAGE
 */
static int tc_parse_u32(const char *what, const char *text, uint32_t *out)
{
	const char *digits = text;
	unsigned long long value;
	int base = 10;
	char *end;

	if (!strncmp(text, "0x", 2) || !strncmp(text, "0X", 2)) {
		base = 16;
		digits = text + 2;
	}
	errno = 0;
	value = strtoull(digits, &end, base);
	/* strtoull() would also take spaces, a sign or a second "0x" */
	if (errno || end == digits || *end || tc_hex_digit(*digits) < 0 ||
	    value > UINT32_MAX)
		return tc_usage_error("%s: '%s' is not a number in 0..0xffffffff",
				      what, text);
	*out = value;
	return 0;
}

/* tc_parse_count - parse a decimal count in 0..@max; 0 or HS_EXIT_USAGE */
static int tc_parse_count(const char *what, const char *text,
			  unsigned long long max, unsigned long long *out)
{
	unsigned long long value;
	char *end;

	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno || end == text || *end || text[0] < '0' || text[0] > '9' ||
	    value > max)
		return tc_usage_error("%s: '%s' is not a number in 0..%llu",
				      what, text, max);
	*out = value;
	return 0;
}

/*
 * tc_shm_alloc - give @tc, a client opened TEE_SHM_TEMPORARY (so nothing is
 * registered yet), a buffer for @len data bytes and the SM3 digest from
 * the driver's pool: TEE_IOC_SHM_ALLOC, then mmap() of the returned fd.
 * Its malloc()ed buffer is freed and @tc then works as TEE_SHM_REGISTERED
 * with the allocated shm's id, so tee_sm3() and tee_sm4() use it unchanged
 * and tee_client_close() closes its fd; tc_client_close() unmaps it first.
 */
static int tc_shm_alloc(struct tee_client *tc, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct tee_ioctl_shm_alloc_data alloc;
	size_t want;
	void *map;
	int shm_fd;

	/* whole pages: the TEE core refuses an mmap() past the shm's size */
	want = (len + LAB_SM3_DIGEST_SIZE + page - 1) & ~(page - 1);
	memset(&alloc, 0, sizeof(alloc));
	alloc.size = want;
	shm_fd = ioctl(tc->fd, TEE_IOC_SHM_ALLOC, &alloc);
	if (shm_fd < 0) {
		hs_err("TEE_IOC_SHM_ALLOC of %zu bytes failed: %s", want,
		       strerror(errno));
		return -1;
	}
	if (alloc.size < len + LAB_SM3_DIGEST_SIZE) {
		hs_err("TEE_IOC_SHM_ALLOC of %zu bytes returned only %llu",
		       want, (unsigned long long)alloc.size);
		close(shm_fd);
		return -1;
	}
	map = mmap(NULL, alloc.size, PROT_READ | PROT_WRITE, MAP_SHARED,
		   shm_fd, 0);
	if (map == MAP_FAILED) {
		hs_err("mmap() of TEE_IOC_SHM_ALLOC memory (id %d, %llu bytes) failed: %s",
		       alloc.id, (unsigned long long)alloc.size,
		       strerror(errno));
		close(shm_fd);
		return -1;
	}
	free(tc->buf);
	tc->buf = map;
	tc->buf_size = alloc.size;
	tc->shm_fd = shm_fd;
	tc->shm_id = alloc.id;
	tc->pattern = TEE_SHM_REGISTERED;
	return 0;
}

/*
 * tc_client_open - open @path, a session to the teesim TA and a shared
 * buffer for @len data bytes (and the SM3 digest after them) in memory of
 * kind @mem; prints why on failure and returns -1
 */
static int tc_client_open(struct tee_client *tc, const char *path,
			  enum tc_mem mem, size_t len,
			  struct tee_ioctl_counts *counts)
{
	switch (mem) {
	case TC_MEM_REG:
		return tee_client_open(tc, path, TEE_SHM_REGISTERED, len, counts);
	case TC_MEM_TEMP:
		return tee_client_open(tc, path, TEE_SHM_TEMPORARY, len, counts);
	case TC_MEM_ALLOC:
		if (tee_client_open(tc, path, TEE_SHM_TEMPORARY, len, counts))
			return -1;
		if (tc_shm_alloc(tc, len)) {
			tee_client_close(tc);
			return -1;
		}
		return 0;
	}
	return -1;
}

/* tc_client_close - unmap TEE_IOC_SHM_ALLOC memory, then tee_client_close() */
static void tc_client_close(struct tee_client *tc, enum tc_mem mem)
{
	if (mem == TC_MEM_ALLOC && tc->buf) {
		munmap(tc->buf, tc->buf_size);
		tc->buf = NULL;
	}
	tee_client_close(tc);
}

/* cmd_version - "teeclient version" */
static int cmd_version(const struct tc_args *args)
{
	struct tee_ioctl_version_data ver;
	char path[PATH_MAX];
	int fd, rc;

	if (tee_find_device(args->dev, path, sizeof(path)))
		return HS_EXIT_FAIL;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		hs_err("cannot open %s: %s", path, strerror(errno));
		return HS_EXIT_FAIL;
	}
	memset(&ver, 0, sizeof(ver));
	rc = ioctl(fd, TEE_IOC_VERSION, &ver);
	if (rc < 0)
		hs_err("%s: TEE_IOC_VERSION failed: %s", path, strerror(errno));
	close(fd);
	if (rc < 0)
		return HS_EXIT_FAIL;
	printf("device %s\n", path);
	printf("impl_id 0x%x\n", ver.impl_id);
	printf("impl_caps 0x%x\n", ver.impl_caps);
	printf("gen_caps 0x%x\n", ver.gen_caps);
	printf("reg_mem %s\n", ver.gen_caps & TEE_GEN_CAP_REG_MEM ? "yes" : "no");
	printf("gp %s\n", ver.gen_caps & TEE_GEN_CAP_GP ? "yes" : "no");
	return HS_EXIT_OK;
}

/* cmd_sm3 - "teeclient sm3 [--mem reg|alloc] HEX" */
static int cmd_sm3(const struct tc_args *args)
{
	struct tee_ioctl_counts counts = { 0 };
	uint8_t digest[LAB_SM3_DIGEST_SIZE];
	struct tee_client tc;
	char path[PATH_MAX];
	uint8_t *data;
	size_t len;
	int rc;

	rc = tc_parse_hex("sm3: HEX", args->pos[1], &data, &len);
	if (rc)
		return rc;
	rc = HS_EXIT_FAIL;
	if (tee_find_device(args->dev, path, sizeof(path)) ||
	    tc_client_open(&tc, path, args->mem, len, &counts))
		goto out;
	memcpy(tc.buf, data, len);
	if (!tee_sm3(&tc, tc.buf, len, digest)) {
		tc_print_hex(digest, sizeof(digest));
		rc = HS_EXIT_OK;
	}
	tc_client_close(&tc, args->mem);
out:
	free(data);
	return rc;
}

/* cmd_sm4 - "teeclient sm4 [--mem reg|alloc] KEYHEX HEX" */
static int cmd_sm4(const struct tc_args *args)
{
	struct tee_ioctl_counts counts = { 0 };
	uint8_t *key, *data = NULL;
	struct tee_client tc;
	char path[PATH_MAX];
	size_t key_len, len;
	int rc;

	rc = tc_parse_hex("sm4: KEYHEX", args->pos[1], &key, &key_len);
	if (rc)
		return rc;
	if (key_len != LAB_SM4_KEY_SIZE) {
		rc = tc_usage_error("sm4: KEYHEX is %zu bytes, not %d", key_len,
				    LAB_SM4_KEY_SIZE);
		goto out;
	}
	rc = tc_parse_hex("sm4: HEX", args->pos[2], &data, &len);
	if (rc)
		goto out;
	if (len % LAB_SM4_BLOCK_SIZE) {
		rc = tc_usage_error("sm4: HEX is %zu bytes, not a multiple of %d",
				    len, LAB_SM4_BLOCK_SIZE);
		goto out;
	}
	rc = HS_EXIT_FAIL;
	if (tee_find_device(args->dev, path, sizeof(path)) ||
	    tc_client_open(&tc, path, args->mem, len, &counts))
		goto out;
	memcpy(tc.buf, data, len);
	if (!tee_sm4(&tc, key, tc.buf, len)) {
		tc_print_hex(tc.buf, len);
		rc = HS_EXIT_OK;
	}
	tc_client_close(&tc, args->mem);
out:
	free(data);
	free(key);
	return rc;
}

/* cmd_invoke_raw - "teeclient invoke-raw CMD" */
static int cmd_invoke_raw(const struct tc_args *args)
{
	struct tee_ioctl_param params[TEE_NUM_PARAMS];
	struct tee_ioctl_counts counts = { 0 };
	struct tee_client tc;
	char path[PATH_MAX];
	uint32_t func = 0, ret, origin;
	int rc;

	rc = tc_parse_u32("invoke-raw: CMD", args->pos[1], &func);
	if (rc)
		return rc;
	if (tee_find_device(args->dev, path, sizeof(path)) ||
	    tc_client_open(&tc, path, TC_MEM_TEMP, 0, &counts))
		return HS_EXIT_FAIL;
	rc = HS_EXIT_FAIL;
	memset(params, 0, sizeof(params));
	if (!tee_invoke_raw(tc.fd, tc.session, func, params, &ret, &origin)) {
		printf("ret=0x%08x origin=%u\n", ret, origin);
		rc = HS_EXIT_OK;
	} else {
		hs_err("TEE_IOC_INVOKE of command %u failed: %s", func,
		       strerror(errno));
	}
	tc_client_close(&tc, TC_MEM_TEMP);
	return rc;
}

/* cmd_open_bad_uuid - "teeclient open-bad-uuid" */
static int cmd_open_bad_uuid(const struct tc_args *args)
{
	char path[PATH_MAX];
	uint32_t session, ret, origin;
	int fd, rc = HS_EXIT_FAIL;

	if (tee_find_device(args->dev, path, sizeof(path)))
		return HS_EXIT_FAIL;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		hs_err("cannot open %s: %s", path, strerror(errno));
		return HS_EXIT_FAIL;
	}
	if (tee_open_session_raw(fd, tc_bad_uuid, &session, &ret, &origin)) {
		hs_err("TEE_IOC_OPEN_SESSION failed: %s", strerror(errno));
	} else {
		printf("ret=0x%08x origin=%u\n", ret, origin);
		rc = HS_EXIT_OK;
		if (!ret) {
			struct tee_ioctl_close_session_arg arg = {
				.session = session,
			};

			hs_err("note: the session to the bad UUID opened (id %u); closing it",
			       session);
			if (ioctl(fd, TEE_IOC_CLOSE_SESSION, &arg) < 0)
				hs_err("TEE_IOC_CLOSE_SESSION failed: %s",
				       strerror(errno));
		}
	}
	close(fd);
	return rc;
}

/*
 * tc_write_ready_file - create @path holding our pid and the device; written
 * under a temporary name and renamed, so a reader never sees it half written
 */
static int tc_write_ready_file(const char *path, const char *dev)
{
	char tmp[PATH_MAX];
	FILE *f;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp)) {
		hs_err("--ready-file: path too long");
		return -1;
	}
	f = fopen(tmp, "we");
	if (!f) {
		hs_err("cannot create %s: %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(f, "%d\n%s\n", (int)getpid(), dev);
	if (fclose(f) || rename(tmp, path) < 0) {
		hs_err("cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/*
 * tc_wait - wait up to @seconds for one of @signals (blocked); returns the
 * signal's number, or 0 when the time is up
 */
static int tc_wait(const sigset_t *signals, double seconds)
{
	double deadline = lab_now() + seconds, left;
	struct timespec ts;
	int sig;

	for (;;) {
		left = deadline - lab_now();
		if (left <= 0)
			return 0;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - ts.tv_sec) * 1e9);
		sig = sigtimedwait(signals, NULL, &ts);
		if (sig > 0)
			return sig;
		if (errno == EAGAIN)
			return 0;
		/* EINTR: another signal (SIGCONT...); wait on */
	}
}

/* cmd_hold - "teeclient hold SECONDS [--ready-file PATH]" */
static int cmd_hold(const struct tc_args *args)
{
	struct tee_ioctl_counts counts = { 0 };
	struct tee_client tc;
	char path[PATH_MAX];
	double seconds, start;
	sigset_t signals;
	char *end;
	int sig, rc = HS_EXIT_OK;

	errno = 0;
	seconds = strtod(args->pos[1], &end);
	if (errno || end == args->pos[1] || *end || !isfinite(seconds) ||
	    seconds < 0 || seconds > TC_HOLD_MAX)
		return tc_usage_error("hold: SECONDS: '%s' is not a number of seconds in 0..%.0f",
				      args->pos[1], TC_HOLD_MAX);
	if (args->ready_file)
		unlink(args->ready_file);	/* a stale one must not count */

	/* Taken synchronously by tc_wait(); one sent early is kept pending */
	sigemptyset(&signals);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGINT);
	sigprocmask(SIG_BLOCK, &signals, NULL);

	if (tee_find_device(args->dev, path, sizeof(path)) ||
	    tc_client_open(&tc, path, TC_MEM_TEMP, 0, &counts))
		return HS_EXIT_FAIL;
	start = lab_now();
	if (args->ready_file && tc_write_ready_file(args->ready_file, path)) {
		rc = HS_EXIT_FAIL;
		goto out;
	}
	sig = tc_wait(&signals, seconds);
	printf("held a session on %s for %.1f s, until %s\n", path,
	       lab_now() - start, !sig ? "the time was up" :
	       sig == SIGTERM ? "SIGTERM" : "SIGINT");
out:
	tc_client_close(&tc, TC_MEM_TEMP);
	return rc;
}

/* cmd_loop - "teeclient loop N [--mem reg|temp]" */
static int cmd_loop(const struct tc_args *args)
{
	struct tee_ioctl_counts counts = { 0 };
	uint8_t want[LAB_SM3_DIGEST_SIZE], got[LAB_SM3_DIGEST_SIZE];
	unsigned long long n = 0, i;
	struct tee_client tc;
	char path[PATH_MAX];
	int rc;

	rc = tc_parse_count("loop: N", args->pos[1], TC_LOOP_MAX, &n);
	if (rc)
		return rc;
	if (tee_find_device(args->dev, path, sizeof(path)) ||
	    tc_client_open(&tc, path, args->mem, TC_LOOP_DATA, &counts))
		return HS_EXIT_FAIL;
	for (i = 0; i < TC_LOOP_DATA; i++)
		tc.buf[i] = (uint8_t)(i * 7 + 1);
	lab_sm3_digest(tc.buf, TC_LOOP_DATA, want);
	insn_mark();
	for (i = 0; i < n; i++) {
		if (tee_sm3(&tc, tc.buf, TC_LOOP_DATA, got)) {
			hs_err("loop: invoke %llu of %llu failed", i + 1, n);
			rc = HS_EXIT_FAIL;
			break;
		}
		if (memcmp(got, want, sizeof(want))) {
			hs_err("loop: invoke %llu of %llu returned a wrong SM3 digest",
			       i + 1, n);
			rc = HS_EXIT_FAIL;
			break;
		}
	}
	insn_mark();
#ifdef HSBENCH_TEEC
	/* the TA's own count (TEESIM_CMD_STATS): one more invoke */
	if (tee_ta_stats(&tc))
		rc = HS_EXIT_FAIL;
#endif
	tc_client_close(&tc, args->mem);
	if (counts.ta_known)
		printf("ta_sm3 %llu ta_sm4 %llu ta_refused %llu ta_sessions %llu\n",
		       (unsigned long long)counts.ta_sm3,
		       (unsigned long long)counts.ta_sm4,
		       (unsigned long long)counts.ta_refused,
		       (unsigned long long)counts.ta_sessions);
	printf("open_session %llu invoke %llu shm_register %llu shm_close %llu close_session %llu\n",
	       (unsigned long long)counts.open_session,
	       (unsigned long long)counts.invoke,
	       (unsigned long long)counts.shm_register,
	       (unsigned long long)counts.shm_close,
	       (unsigned long long)counts.close_session);
	return rc;
}

#ifdef HSBENCH_TEEC
/* libteec has no TEE_IOC_SHM_ALLOC memory of the client's to hand over */
#define TC_MEMS_CRYPTO	(1u << TC_MEM_REG | 1u << TC_MEM_TEMP)
#else
#define TC_MEMS_CRYPTO	(1u << TC_MEM_REG | 1u << TC_MEM_ALLOC | 1u << TC_MEM_TEMP)
#endif
#define TC_MEMS_LOOP	(1u << TC_MEM_REG | 1u << TC_MEM_TEMP)

static const struct tc_command tc_commands[] = {
	{ "version", 0, 0, 0, cmd_version },
	{ "sm3", 1, TC_MEMS_CRYPTO, 0, cmd_sm3 },
	{ "sm4", 2, TC_MEMS_CRYPTO, 0, cmd_sm4 },
	{ "invoke-raw", 1, 0, 0, cmd_invoke_raw },
	{ "open-bad-uuid", 0, 0, 0, cmd_open_bad_uuid },
	{ "hold", 1, 0, 1, cmd_hold },
	{ "loop", 1, TC_MEMS_LOOP, 0, cmd_loop },
};

/*
 * tc_parse_args - split the command line into options ("--name VALUE" or
 * "--name=VALUE", anywhere; "--" ends them) and positional arguments.
 * Returns 0 or HS_EXIT_USAGE.
 */
static int tc_parse_args(int argc, char **argv, struct tc_args *args)
{
	int i, only_positional = 0;

	memset(args, 0, sizeof(*args));
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *name, *eq;
		const char **slot;
		size_t name_len;

		if (only_positional || arg[0] != '-' || !arg[1]) {
			if (args->npos == TC_MAX_POSITIONAL)
				return tc_usage_error("unexpected argument '%s'",
						      arg);
			args->pos[args->npos++] = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			only_positional = 1;
			continue;
		}
		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			args->help = 1;
			continue;
		}
		if (strncmp(arg, "--", 2))
			return tc_usage_error("unknown option '%s'", arg);
		name = arg + 2;
		eq = strchr(name, '=');
		name_len = eq ? (size_t)(eq - name) : strlen(name);
		if (name_len == 3 && !strncmp(name, "dev", 3))
			slot = &args->dev;
		else if (name_len == 3 && !strncmp(name, "mem", 3))
			slot = &args->mem_text;
		else if (name_len == 10 && !strncmp(name, "ready-file", 10))
			slot = &args->ready_file;
		else
			return tc_usage_error("unknown option '%s'", arg);
		if (eq)
			*slot = eq + 1;
		else if (i + 1 < argc)
			*slot = argv[++i];
		else
			return tc_usage_error("option '%s' needs a value", arg);
		if (!**slot)
			return tc_usage_error("option '--%.*s' has an empty value",
					      (int)name_len, name);
	}
	return 0;
}

/* tc_check_options - the options of @args against what @cmd takes */
static int tc_check_options(const struct tc_command *cmd, struct tc_args *args)
{
	char allowed[64] = "";
	size_t m;

	if (args->npos - 1 != cmd->nargs)
		return tc_usage_error("%s takes %d argument%s, not %d", cmd->name,
				      cmd->nargs, cmd->nargs == 1 ? "" : "s",
				      args->npos - 1);
	if (args->ready_file && !cmd->ready_file)
		return tc_usage_error("%s does not take --ready-file", cmd->name);
	args->mem = TC_MEM_REG;
	if (!args->mem_text)
		return 0;
	if (!cmd->mems)
		return tc_usage_error("%s does not take --mem", cmd->name);
	for (m = 0; m < ARRAY_SIZE(tc_mem_names); m++) {
		if (!(cmd->mems & (1u << m)))
			continue;
		if (!strcmp(args->mem_text, tc_mem_names[m])) {
			args->mem = m;
			return 0;
		}
		snprintf(allowed + strlen(allowed), sizeof(allowed) - strlen(allowed),
			 "%s%s", allowed[0] ? " or " : "", tc_mem_names[m]);
	}
	return tc_usage_error("%s: --mem '%s': want %s", cmd->name,
			      args->mem_text, allowed);
}

int main(int argc, char **argv)
{
	const struct tc_command *cmd = NULL;
	struct tc_args args;
	size_t i;
	int rc;

	rc = tc_parse_args(argc, argv, &args);
	if (rc)
		return rc;
	if (args.help) {
		tc_usage(stdout);
		return HS_EXIT_OK;
	}
	if (!args.npos) {
		tc_usage(stderr);
		return HS_EXIT_USAGE;
	}
	for (i = 0; i < ARRAY_SIZE(tc_commands); i++)
		if (!strcmp(args.pos[0], tc_commands[i].name))
			cmd = &tc_commands[i];
	if (!cmd)
		return tc_usage_error("unknown command '%s'", args.pos[0]);
	rc = tc_check_options(cmd, &args);
	if (rc)
		return rc;

	rc = cmd->run(&args);
	if (fflush(stdout) || ferror(stdout)) {
		hs_err("cannot write the output: %s", strerror(errno));
		rc = HS_EXIT_FAIL;
	}
	return rc;
}
