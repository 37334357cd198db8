// SPDX-License-Identifier: GPL-2.0
/*
 * cpuhog.c - the lab's CPU hog, a control scenario for "teeprobe analyze":
 * one thread per listed CPU, pinned there, at a SCHED_FIFO priority, that
 * spins BUSY microseconds and sleeps IDLE microseconds in turn until
 * SECONDS pass or SIGINT/SIGTERM arrives. Softirq work the kernel defers
 * to ksoftirqd (a SCHED_OTHER thread) then waits for the hog: NET_RX is
 * starved by the scheduler, with no TEE call involved.
 *
 * usage: cpuhog [--cpus LIST] [--busy-us US] [--idle-us US] [--prio P]
 *               [--seconds S]
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lab_util.h"

#define MAX_CPUS	64

static unsigned long busy_us = 20000, idle_us = 5000;
static double seconds = 3600;
static int prio = 10;

static void *hog(void *arg)
{
	struct sched_param sp = { .sched_priority = prio };
	int cpu = (int)(long)arg;
	double end = lab_now() + seconds, t;
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (err)
		fprintf(stderr, "cpuhog: CPU %d: affinity: %s\n", cpu, strerror(err));
	if (prio > 0) {
		err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
		if (err)
			fprintf(stderr, "cpuhog: CPU %d: SCHED_FIFO %d: %s\n",
				cpu, prio, strerror(err));
	}
	while (!lab_stop && (t = lab_now()) < end) {
		struct timespec idle = {
			.tv_sec = idle_us / 1000000,
			.tv_nsec = (long)(idle_us % 1000000) * 1000,
		};

		while (!lab_stop && lab_now() < t + busy_us / 1e6)
			;
		if (idle_us)
			nanosleep(&idle, NULL);
	}
	return NULL;
}

static int parse_ul(const char *opt, const char *s, unsigned long max,
		    unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || *out > max) {
		fprintf(stderr, "cpuhog: %s: not a number in 0..%lu: '%s'\n",
			opt, max, s);
		return -1;
	}
	return 0;
}

/* parse_cpus - "0,2-3" into a list; returns the count or -1 */
static int parse_cpus(const char *s, int *cpus)
{
	int n = 0;

	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return -1;
		}
		for (; a <= b; a++) {
			if (n == MAX_CPUS || a >= CPU_SETSIZE)
				return -1;
			cpus[n++] = (int)a;
		}
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return n;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "busy-us", required_argument, NULL, 'b' },
		{ "idle-us", required_argument, NULL, 'i' },
		{ "prio", required_argument, NULL, 'p' },
		{ "seconds", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int cpus[MAX_CPUS], n = 0, c, i;
	pthread_t threads[MAX_CPUS];
	unsigned long v;

	while ((c = getopt_long(argc, argv, "c:b:i:p:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			n = parse_cpus(optarg, cpus);
			if (n <= 0) {
				fprintf(stderr, "cpuhog: --cpus: bad CPU list '%s'\n", optarg);
				return 2;
			}
			break;
		case 'b':
			if (parse_ul("--busy-us", optarg, 10000000, &busy_us))
				return 2;
			break;
		case 'i':
			if (parse_ul("--idle-us", optarg, 10000000, &idle_us))
				return 2;
			break;
		case 'p':
			if (parse_ul("--prio", optarg, 99, &v))
				return 2;
			prio = (int)v;
			break;
		case 's':
			if (parse_ul("--seconds", optarg, 86400, &v))
				return 2;
			seconds = v;
			break;
		case 'h':
			printf("usage: cpuhog [--cpus LIST] [--busy-us US] [--idle-us US] [--prio P] [--seconds S]\n"
			       "One SCHED_FIFO thread (priority P, default 10; 0: SCHED_OTHER)\n"
			       "per CPU of LIST (default: all) spins BUSY us (20000) and sleeps\n"
			       "IDLE us (5000) in turn for S seconds (3600) or until SIGINT.\n");
			return 0;
		default:
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "cpuhog: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (!n) {
		long nr = sysconf(_SC_NPROCESSORS_ONLN);

		for (n = 0; n < nr && n < MAX_CPUS; n++)
			cpus[n] = n;
	}
	lab_stop_on_signals();
	for (i = 0; i < n; i++) {
		if (pthread_create(&threads[i], NULL, hog, (void *)(long)cpus[i])) {
			fprintf(stderr, "cpuhog: cannot start a thread\n");
			lab_stop = 1;
			n = i;
			break;
		}
	}
	for (i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	return 0;
}
