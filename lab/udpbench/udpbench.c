// SPDX-License-Identifier: GPL-2.0
/*
 * udpbench.c - the lab's small-packet stream: an echo server and a client
 * that keeps a window of datagrams in flight, sending one more for each
 * echo it gets back. Run across the two lab NICs (client in the client
 * namespace), every datagram is NET_RX work on both sides; the rate is set
 * by how fast the machine turns packets around, not by drops, as a sender
 * that only blasts would be (its receive rate swings with how the
 * scheduler shares the CPU between the receiver and ksoftirqd).
 *
 * usage: udpbench echo --listen ADDR:PORT [--timeout SEC] [--ready-file PATH]
 *        udpbench send --to ADDR:PORT [--seconds SEC] [--window N]
 *                      [--burst] [--size BYTES] [--json]
 *        udpbench tick --every MS [--seconds SEC] [--json]
 */
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "insn_mark.h"
#include "lab_endpoint.h"
#include "lab_util.h"

#define BATCH		64	/* datagrams per sendmmsg/recvmmsg */
#define MAX_SIZE	1472	/* one Ethernet frame */
#define MAX_WINDOW	4096
#define STALL_MS	200	/* no echo for this long: refill the window */

/* usage - the command line summary */
static void usage(FILE *f)
{
	fprintf(f,
"usage: udpbench echo --listen ADDR:PORT [--timeout SEC] [--ready-file PATH]\n"
"       udpbench send --to ADDR:PORT [--seconds SEC] [--window N]\n"
"                     [--burst] [--size BYTES] [--json]\n"
"       udpbench tick --every MS [--seconds SEC] [--json]\n"
"\n"
"echo sends every UDP datagram that reaches ADDR:PORT (or [IPV6]:PORT)\n"
"back to its sender, until SIGINT/SIGTERM or SEC seconds (default 3600).\n"
"--ready-file PATH is written once the socket is bound.\n"
"\n"
"send keeps N datagrams (default 64) of BYTES bytes (default 18: 64-byte\n"
"Ethernet frames) in flight to an echo server for SEC seconds (default 5),\n"
"sending one for each echo; after %d ms without an echo it sends the\n"
"window again (counted as a stall). --burst sends the N datagrams at once\n"
"and the next N only when all of them came back (a fixed batch of packets\n"
"for each NET_RX run, where the emulated NICs let it). It prints the\n"
"echoes, their rate, the datagrams sent and the stalls. Exit status 1 if\n"
"no echo came back.\n"
"\n"
"tick runs one process on each CPU it may run on, pinned there, that sends\n"
"itself one datagram over the loopback every MS milliseconds (the CPUs'\n"
"phases spread evenly over MS), so that every CPU has a little NET_RX work\n"
"in every interval of MS: the windows of teeprobe's NET_RX part open on\n"
"every CPU and close by the window work when MS is the window's length.\n"
"After SEC seconds (default 3) it prints the CPUs, the seconds and the\n"
"datagrams that came back. Exit status 1 if one of the processes failed.\n",
		STALL_MS);
}

/* endpoint - @text (--@opt of @cmd) into @sa; 0, or -1 after a message */
static int endpoint(const char *cmd, const char *opt, const char *text,
		    bool passive, struct sockaddr_storage *sa, socklen_t *len)
{
	char err[512];

	if (!text) {
		fprintf(stderr, "udpbench: %s needs --%s ADDR:PORT\n", cmd, opt);
		return -1;
	}
	if (lab_endpoint(text, SOCK_DGRAM, passive, sa, len, err, sizeof(err))) {
		fprintf(stderr, "udpbench: --%s: %s\n", opt, err);
		return -1;
	}
	return 0;
}

/* parse_num - a number from @min to @max, or exit with a message */
static double parse_num(const char *opt, const char *text, double min,
			double max)
{
	char *end;
	double v = strtod(text, &end);

	if (end == text || *end || v < min || v > max) {
		fprintf(stderr, "udpbench: --%s %s: must be a number from %g to %g\n",
			opt, text, min, max);
		exit(2);
	}
	return v;
}

/* udp_socket - a UDP socket with large buffers: a full one drops packets */
static int udp_socket(int family)
{
	int fd = socket(family, SOCK_DGRAM, 0), size = 4 << 20;

	if (fd >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	}
	return fd;
}

/* echo_main - send every datagram back where it came from */
static int echo_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "timeout", required_argument, NULL, 't' },
		{ "ready-file", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	static char buf[BATCH][MAX_SIZE];
	struct sockaddr_storage from[BATCH], sa;
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	const char *listen = NULL, *ready = NULL;
	unsigned long long echoed = 0;
	double timeout = 3600, end;
	int fd, opt, i, n;
	socklen_t len;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			listen = optarg;
			break;
		case 't':
			timeout = parse_num("timeout", optarg, 0.1, 86400);
			break;
		case 'r':
			ready = optarg;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (endpoint("echo", "listen", listen, true, &sa, &len))
		return 2;
	fd = udp_socket(sa.ss_family);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len)) {
		fprintf(stderr, "udpbench: cannot listen on %s: %s\n", listen,
			strerror(errno));
		return 1;
	}
	if (ready) {
		FILE *f = fopen(ready, "w");

		if (!f || fclose(f)) {
			fprintf(stderr, "udpbench: cannot write %s\n", ready);
			return 1;
		}
	}
	end = lab_now() + timeout;
	while (!lab_stop && lab_now() < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		if (poll(&p, 1, 100) <= 0)
			continue;
		for (i = 0; i < BATCH; i++) {
			iov[i] = (struct iovec){ buf[i], MAX_SIZE };
			msgs[i] = (struct mmsghdr){ .msg_hdr = {
				.msg_name = &from[i], .msg_namelen = sizeof(from[i]),
				.msg_iov = &iov[i], .msg_iovlen = 1 } };
		}
		n = recvmmsg(fd, msgs, BATCH, MSG_DONTWAIT, NULL);
		if (n <= 0)
			continue;
		/* The same messages go back: the sender is in msg_name. */
		for (i = 0; i < n; i++)
			iov[i].iov_len = msgs[i].msg_len;
		n = sendmmsg(fd, msgs, n, 0);
		if (n > 0)
			echoed += n;
	}
	close(fd);
	printf("echoed %llu\n", echoed);
	return 0;
}

/* send_main - keep a window of datagrams in flight, count the echoes */
static int send_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "to", required_argument, NULL, 't' },
		{ "seconds", required_argument, NULL, 's' },
		{ "window", required_argument, NULL, 'w' },
		{ "size", required_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "burst", no_argument, NULL, 'B' },
		{ NULL, 0, NULL, 0 },
	};
	static char payload[MAX_SIZE], buf[BATCH][MAX_SIZE];
	struct mmsghdr out[BATCH], in[BATCH];
	struct iovec out_iov = { payload, 18 }, in_iov[BATCH];
	unsigned long long sent = 0, echoes = 0, stalls = 0;
	double seconds = 5, start, end, last, t, elapsed;
	unsigned int window = 64, want, rest = 0, k;
	const char *to = NULL;
	struct sockaddr_storage sa;
	int fd, opt, i, n, json = 0, burst = 0;
	socklen_t len;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			to = optarg;
			break;
		case 's':
			seconds = parse_num("seconds", optarg, 0.1, 86400);
			break;
		case 'w':
			window = parse_num("window", optarg, 1, MAX_WINDOW);
			break;
		case 'b':
			out_iov.iov_len = parse_num("size", optarg, 1, MAX_SIZE);
			break;
		case 'j':
			json = 1;
			break;
		case 'B':
			burst = 1;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (endpoint("send", "to", to, false, &sa, &len))
		return 2;
	fd = udp_socket(sa.ss_family);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, len)) {
		fprintf(stderr, "udpbench: cannot send to %s: %s\n", to,
			strerror(errno));
		return 1;
	}
	for (i = 0; i < BATCH; i++) {
		out[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &out_iov,
							 .msg_iovlen = 1 } };
		in_iov[i] = (struct iovec){ buf[i], MAX_SIZE };
		in[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &in_iov[i],
							.msg_iovlen = 1 } };
	}
	insn_mark();
	start = last = lab_now();
	end = start + seconds;
	want = window;
	while (!lab_stop && (t = lab_now()) < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		/*
		 * Send what the window allows, a batch at a time; with
		 * --burst, a whole window once all of the last came back.
		 */
		if (burst && !rest && want >= window)
			rest = window;
		while (burst ? rest : want) {
			k = burst ? rest : want;
			n = sendmmsg(fd, out, k < BATCH ? k : BATCH, 0);
			if (n <= 0)
				break;	/* a full queue: the echoes will free it */
			sent += n;
			want -= n;
			if (burst)
				rest -= n;
		}
		if (t - last > STALL_MS / 1e3) {
			/* Lost datagrams shrink the window: start it anew. */
			stalls++;
			want = window;
			rest = 0;
			last = t;
			continue;
		}
		if (poll(&p, 1, STALL_MS / 4) <= 0)
			continue;
		n = recvmmsg(fd, in, BATCH, MSG_DONTWAIT, NULL);
		if (n <= 0)
			continue;
		echoes += n;
		want += n;
		last = lab_now();
	}
	elapsed = lab_now() - start;
	insn_mark();
	close(fd);
	if (json)
		printf("{\"echoes\":%llu,\"seconds\":%.6f,\"echoes_per_s\":%.1f,\"sent\":%llu,\"window\":%u,\"burst\":%s,\"stalls\":%llu}\n",
		       echoes, elapsed, echoes / elapsed, sent, window,
		       burst ? "true" : "false", stalls);
	else
		printf("echoes %llu\nseconds %.6f\nechoes_per_s %.1f\nsent %llu\nwindow %u\nburst %d\nstalls %llu\n",
		       echoes, elapsed, echoes / elapsed, sent, window, burst, stalls);
	return echoes ? 0 : 1;
}

/* tick_child - on @cpu, a datagram to itself each @every_ns from @t0_ns */
static int tick_child(int cpu, long long t0_ns, long long every_ns, int ready,
		      int result)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	unsigned long long got = 0;
	struct timespec ts;
	long long next;
	char c = 0;
	cpu_set_t set;
	int fd;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (sched_setaffinity(0, sizeof(set), &set) || fd < 0 ||
	    bind(fd, (struct sockaddr *)&sa, len) ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) ||
	    connect(fd, (struct sockaddr *)&sa, len)) {
		fprintf(stderr, "udpbench: tick on CPU %d: %s\n", cpu,
			strerror(errno));
		return 1;
	}
	if (write(ready, &c, 1) != 1)
		return 1;
	for (next = t0_ns; !lab_stop; next += every_ns) {
		ts.tv_sec = next / 1000000000;
		ts.tv_nsec = next % 1000000000;
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			continue;	/* a signal: lab_stop says whether to end */
		if (send(fd, &c, 1, 0) == 1 && recv(fd, &c, 1, 0) == 1)
			got++;
	}
	return write(result, &got, sizeof(got)) == sizeof(got) ? 0 : 1;
}

/* tick_main - every CPU sends itself a datagram each --every ms */
static int tick_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "every", required_argument, NULL, 'e' },
		{ "seconds", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	int ready[2], result[2], opt, cpu, n = 0, i, json = 0, failed = 0;
	double every = 0, seconds = 3, start, elapsed = 0;
	unsigned long long got = 0, one;
	long long t0, every_ns;
	pid_t pids[CPU_SETSIZE];
	struct timespec ts;
	cpu_set_t set;
	char c;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'e':
			every = parse_num("every", optarg, 1, 60000);
			break;
		case 's':
			seconds = parse_num("seconds", optarg, 0.1, 86400);
			break;
		case 'j':
			json = 1;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!every) {
		fprintf(stderr, "udpbench: tick needs --every MS\n");
		return 2;
	}
	if (sched_getaffinity(0, sizeof(set), &set) || pipe(ready) ||
	    pipe(result)) {
		fprintf(stderr, "udpbench: tick: %s\n", strerror(errno));
		return 1;
	}
	every_ns = every * 1e6;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* the first datagrams a second away: time for every child to start */
	t0 = ts.tv_sec * 1000000000LL + ts.tv_nsec + 1000000000LL;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			n++;
	for (cpu = 0, i = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		pids[i] = fork();
		if (pids[i] < 0) {
			fprintf(stderr, "udpbench: tick: fork: %s\n",
				strerror(errno));
			failed = 1;
			break;
		}
		if (!pids[i])
			_exit(tick_child(cpu, t0 + every_ns * i / n, every_ns,
					 ready[1], result[1]));
		i++;
	}
	n = i;
	close(ready[1]);
	close(result[1]);
	for (i = 0; i < n && !failed; i++)
		if (read(ready[0], &c, 1) != 1)
			failed = 1;	/* a child ended before it was ready */
	if (!failed) {
		/* from the first CPU's first datagram, SEC seconds */
		ts.tv_sec = t0 / 1000000000;
		ts.tv_nsec = t0 % 1000000000;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
				       NULL) == EINTR && !lab_stop)
			;
		insn_mark();
		start = lab_now();
		ts.tv_sec = (time_t)seconds;
		ts.tv_nsec = (seconds - ts.tv_sec) * 1e9;
		while (nanosleep(&ts, &ts) && errno == EINTR && !lab_stop)
			;
		elapsed = lab_now() - start;
		insn_mark();
	}
	for (i = 0; i < n; i++)
		kill(pids[i], SIGTERM);
	while (read(result[0], &one, sizeof(one)) == sizeof(one))
		got += one;
	for (i = 0; i < n; i++) {
		int status;

		if (waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed = 1;
	}
	if (failed) {
		fprintf(stderr, "udpbench: tick: a CPU's process failed\n");
		return 1;
	}
	if (json)
		printf("{\"cpus\":%d,\"seconds\":%.6f,\"every_ms\":%g,\"datagrams\":%llu}\n",
		       n, elapsed, every, got);
	else
		printf("cpus %d\nseconds %.6f\nevery_ms %g\ndatagrams %llu\n",
		       n, elapsed, every, got);
	return 0;
}

int main(int argc, char **argv)
{
	lab_stop_on_signals();
	if (argc >= 2 && !strcmp(argv[1], "echo"))
		return echo_main(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "send"))
		return send_main(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "tick"))
		return tick_main(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 2;
}
