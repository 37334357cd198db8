// SPDX-License-Identifier: GPL-2.0
/*
 * failnth - load or unload a module with the calling task's N-th fault
 * injected (the kernel's /proc/thread-self/fail-nth, on kernels built with
 * CONFIG_FAULT_INJECTION), and say whether the fault was injected.
 *
 * Usage: failnth N load MODULE.ko [PARAMS]
 *        failnth N unload NAME
 *
 * Prints one line, "ret R errno E injected yes|no", and exits 0 when the
 * system call ran, whatever it returned; 2 on a usage error, 1 when
 * fail-nth or the module cannot be opened. The file of fail-nth is opened
 * and the module opened before N is written, so that the first fault
 * counted is the load's (or the unload's) own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void usage(void)
{
	fprintf(stderr, "usage: failnth N load MODULE.ko [PARAMS]\n"
			"       failnth N unload NAME\n");
	exit(2);
}

/* set_nth - write @n to fail-nth (0 stops it); -1 on error */
static int set_nth(int fd, unsigned long n)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%lu", n);

	return pwrite(fd, buf, len, 0) == len ? 0 : -1;
}

int main(int argc, char **argv)
{
	unsigned long n, left;
	int nth_fd, mod_fd = -1, err;
	char buf[32], *end;
	ssize_t len;
	long ret;

	if (argc < 4)
		usage();
	errno = 0;
	n = strtoul(argv[1], &end, 10);
	if (errno || *end || !n || n > 1000000)
		usage();
	if (strcmp(argv[2], "load") && strcmp(argv[2], "unload"))
		usage();
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0) {
		fprintf(stderr, "failnth: /proc/thread-self/fail-nth: %s (a kernel without CONFIG_FAULT_INJECTION?)\n",
			strerror(errno));
		return 1;
	}
	if (!strcmp(argv[2], "load")) {
		mod_fd = open(argv[3], O_RDONLY | O_CLOEXEC);
		if (mod_fd < 0) {
			fprintf(stderr, "failnth: %s: %s\n", argv[3], strerror(errno));
			return 1;
		}
	}
	if (set_nth(nth_fd, n)) {
		fprintf(stderr, "failnth: writing fail-nth: %s\n", strerror(errno));
		return 1;
	}
	if (mod_fd >= 0)
		ret = syscall(SYS_finit_module, mod_fd, argc > 4 ? argv[4] : "", 0);
	else
		ret = syscall(SYS_delete_module, argv[3], O_NONBLOCK);
	err = ret ? errno : 0;
	/* what is left of N: 0 once the N-th fault was injected */
	len = pread(nth_fd, buf, sizeof(buf) - 1, 0);
	set_nth(nth_fd, 0);
	if (len <= 0) {
		fprintf(stderr, "failnth: reading fail-nth: %s\n", strerror(errno));
		return 1;
	}
	buf[len] = '\0';
	left = strtoul(buf, NULL, 10);
	printf("ret %ld errno %s injected %s\n", ret, err ? strerrorname_np(err) : "0",
	       left ? "no" : "yes");
	return 0;
}
