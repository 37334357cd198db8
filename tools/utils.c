// SPDX-License-Identifier: GPL-2.0
/*
 * utils.c - messages, allocation and parsing helpers.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "utils.h"

bool config_debug;

/* err_msg - print an error for the user on stderr */
void err_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("teeprobe: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* debug_msg - print a message only with --debug */
void debug_msg(const char *fmt, ...)
{
	va_list ap;

	if (!config_debug)
		return;
	fputs("teeprobe: debug: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* fatal - print an error and exit with status 1 */
void fatal(const char *fmt, ...)
{
	va_list ap;

	fputs("teeprobe: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	exit(1);
}

/* xzalloc - zeroed allocation that never returns NULL */
void *xzalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p)
		fatal("out of memory\n");
	return p;
}

/* xstrdup - strdup that never returns NULL */
char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		fatal("out of memory\n");
	return p;
}

/*
 * parse_seconds - parse a duration: a positive number with an optional unit
 * s, m or h ("30", "1.5m"). Returns 0 on success, -EINVAL otherwise.
 */
int parse_seconds(const char *arg, double *seconds)
{
	double value, scale = 1;
	char *end;

	if (!arg || !*arg)
		return -EINVAL;
	errno = 0;
	value = strtod(arg, &end);
	if (errno || end == arg)
		return -EINVAL;
	if (*end) {
		if (end[1])
			return -EINVAL;
		switch (*end) {
		case 's':
			break;
		case 'm':
			scale = 60;
			break;
		case 'h':
			scale = 3600;
			break;
		default:
			return -EINVAL;
		}
	}
	if (!isfinite(value) || value <= 0 || value * scale > 31 * 24 * 3600.0)
		return -EINVAL;
	*seconds = value * scale;
	return 0;
}

/*
 * read_text_file - read at most @max bytes of @path into a NUL-terminated
 * string. Returns NULL and sets *err to a positive errno on failure.
 */
char *read_text_file(const char *path, size_t max, int *err)
{
	size_t len = 0;
	char *buf;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return NULL;
	}
	buf = xzalloc(max + 1);
	while (len < max) {
		n = read(fd, buf + len, max - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			*err = errno;
			close(fd);
			free(buf);
			return NULL;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}
