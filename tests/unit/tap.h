/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - a minimal TAP producer for the userspace unit tests.
 *
 * Each test program prints "1..N" at the end (a trailing plan, so the count
 * is never maintained by hand) and one "ok"/"not ok" line per check; the
 * test runner counts them. Exit status is non-zero when any check failed.
 */
#ifndef TEEPROBE_TAP_H
#define TEEPROBE_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count;
static int tap_failed;

/* tap_ok - record one check; @cond true means pass */
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return cond;
}

/* tap_diag - a diagnostic line, shown by the runner on failure */
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* tap_done - print the plan; return the exit status for main() */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif /* TEEPROBE_TAP_H */
