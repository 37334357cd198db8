/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lab_util.h - helpers the lab's small programs (cpuhog, udpbench,
 * teeclient) share: the monotonic clock in seconds and a stop flag that
 * SIGINT and SIGTERM set.
 */
#ifndef LAB_UTIL_H
#define LAB_UTIL_H

#include <signal.h>
#include <string.h>
#include <time.h>

/* lab_stop - set once SIGINT or SIGTERM came (after lab_stop_on_signals) */
static volatile sig_atomic_t lab_stop;

static void lab_on_signal(int sig)
{
	(void)sig;
	lab_stop = 1;
}

/*
 * lab_stop_on_signals - SIGINT and SIGTERM set lab_stop instead of ending
 * the program, so it can finish and print what it measured
 */
static inline void lab_stop_on_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = lab_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* lab_now - CLOCK_MONOTONIC in seconds */
static inline double lab_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* LAB_UTIL_H */
