// SPDX-License-Identifier: GPL-2.0
/*
 * client.c - "hsbench client": T threads making C handshakes in total.
 *
 * Each thread runs a blocking loop: socket, connect, send the hello, read
 * the reply, compare it with the reply computed in software, close. It
 * times connect() (the TCP handshake as a client sees it) and the whole
 * exchange from the start of connect() to the verified reply, on
 * CLOCK_MONOTONIC. The expected reply is computed before connect(), so the
 * client's own crypto is not in the measurements. The rate (and the
 * instruction counter's markers) span the handshakes alone: the threads
 * start, and wait at a gate, before the interval begins.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "handshake.h"
#include "hsbench.h"
#include "insn_mark.h"
#include "stats.h"

#define CLIENT_DEFAULT_THREADS		10
#define CLIENT_DEFAULT_CONNECTIONS	1000
#define CLIENT_DEFAULT_TIMEOUT		10.0
#define CLIENT_MAX_THREADS		4096
#define CLIENT_MAX_CONNECTIONS		100000000ull

/* Kinds of failed handshakes; the first of each kind is shown */
enum client_error {
	ERR_CONNECT,		/* connect() failed (refused, unreachable...) */
	ERR_TIMEOUT,		/* connect, send or receive timed out */
	ERR_VERIFY,		/* the reply differs from the expected one */
	ERR_IO,			/* socket error, reset, or early close */
	ERR_KINDS,
};

struct client_config {
	const char *connect;
	struct sockaddr_storage addr;
	socklen_t addr_len;
	unsigned int threads;
	unsigned long long connections;
	double timeout;
	unsigned int crypto_calls;
	size_t payload;
	int json;
};

/* struct client_thread - one client thread; samples are in nanoseconds */
struct client_thread {
	const struct client_config *cfg;
	pthread_t thread;
	unsigned int index;
	size_t todo;
	uint64_t *connect_ns;
	size_t connect_count;
	uint64_t *handshake_ns;
	size_t handshake_count;
	uint64_t errors[ERR_KINDS];
	uint64_t rng_state;
};

static int client_error_shown[ERR_KINDS];

/*
 * The start gate: the threads' start-up (a stack, a malloc arena, their
 * first page faults: under THP a 2 MiB page zeroed for a stack or not,
 * depending on where it was mapped) is kept out of the measured interval,
 * which holds handshakes only. The main thread opens the gate once every
 * started thread is waiting at it.
 */
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static unsigned int gate_waiting;
static int gate_open;

/* gate_wait - a thread is ready: wait until the gate opens */
static void gate_wait(void)
{
	pthread_mutex_lock(&gate_lock);
	gate_waiting++;
	pthread_cond_broadcast(&gate_cond);
	while (!gate_open)
		pthread_cond_wait(&gate_cond, &gate_lock);
	pthread_mutex_unlock(&gate_lock);
}

/* gate_all_waiting - wait until @threads threads wait at the gate */
static void gate_all_waiting(unsigned int threads)
{
	pthread_mutex_lock(&gate_lock);
	while (gate_waiting < threads)
		pthread_cond_wait(&gate_cond, &gate_lock);
	pthread_mutex_unlock(&gate_lock);
}

/* gate_release - open the gate */
static void gate_release(void)
{
	pthread_mutex_lock(&gate_lock);
	gate_open = 1;
	pthread_cond_broadcast(&gate_cond);
	pthread_mutex_unlock(&gate_lock);
}

/* client_report - count an error of @kind; show it if first of its kind */
static void __attribute__((format(printf, 3, 4)))
client_report(struct client_thread *ct, enum client_error kind,
	      const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	ct->errors[kind]++;
	if (__atomic_exchange_n(&client_error_shown[kind], 1, __ATOMIC_RELAXED))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	hs_err("%s (only the first error of this kind is shown)", msg);
}

/* client_random64 - next value of the thread's splitmix64 generator */
static uint64_t client_random64(struct client_thread *ct)
{
	uint64_t z = (ct->rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* put_be - store the low @bytes bytes of @value big-endian at @p */
static void put_be(uint8_t *p, uint64_t value, int bytes)
{
	int i;

	for (i = bytes - 1; i >= 0; i--, value >>= 8)
		p[i] = (uint8_t)value;
}

/* client_make_hello - random part, then thread index, pid and counter */
static void client_make_hello(struct client_thread *ct, uint64_t counter,
			      uint8_t hello[HS_HELLO_SIZE])
{
	int i;

	for (i = 0; i < 32; i += 8)
		put_be(hello + i, client_random64(ct), 8);
	put_be(hello + 32, ct->index, 4);
	put_be(hello + 36, (uint32_t)getpid(), 4);
	put_be(hello + 40, counter, 8);
	memset(hello + 48, 0, 16);
}

/* is_timeout - whether a failed socket call's errno means it timed out */
static int is_timeout(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK || err == EINPROGRESS ||
	       err == ETIMEDOUT;
}

/* client_set_timeouts - SO_SNDTIMEO (also bounds connect) and SO_RCVTIMEO */
static int client_set_timeouts(int fd, double timeout)
{
	struct timeval tv;

	tv.tv_sec = (time_t)timeout;
	tv.tv_usec = (suseconds_t)((timeout - (double)tv.tv_sec) * 1e6);
	if (tv.tv_sec == 0 && tv.tv_usec == 0)
		tv.tv_usec = 1;
	if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0)
		return -1;
	return 0;
}

/* client_send_all - send @len bytes; 0, or -1 with errno (0: peer closed) */
static int client_send_all(int fd, const uint8_t *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= n;
	}
	return 0;
}

/* client_recv_all - read @len bytes; 0, or -1 with errno (0: peer closed) */
static int client_recv_all(int fd, uint8_t *buf, size_t len, size_t *got)
{
	ssize_t n;

	*got = 0;
	while (*got < len) {
		n = recv(fd, buf + *got, len - *got, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			errno = 0;
		if (n <= 0)
			return -1;
		*got += n;
	}
	return 0;
}

/*
 * client_handshake - one connection; records its samples, or counts its
 * error. @buf is the thread's working buffer for the expected reply.
 */
static void client_handshake(struct client_thread *ct, uint64_t counter,
			     uint8_t *buf)
{
	const struct client_config *cfg = ct->cfg;
	uint8_t hello[HS_HELLO_SIZE];
	uint8_t expected[HS_REPLY_SIZE], reply[HS_REPLY_SIZE];
	uint64_t start_ns, connected_ns, done_ns;
	size_t got;
	int fd;

	client_make_hello(ct, counter, hello);
	hs_soft_reply(hello, cfg->payload, cfg->crypto_calls, buf, expected);

	fd = socket(cfg->addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		client_report(ct, ERR_CONNECT, "socket: %s", strerror(errno));
		return;
	}
	if (client_set_timeouts(fd, cfg->timeout)) {
		client_report(ct, ERR_CONNECT, "setting socket timeouts: %s",
			      strerror(errno));
		goto out;
	}

	start_ns = hs_now_ns();
	if (connect(fd, (struct sockaddr *)&cfg->addr, cfg->addr_len) < 0) {
		if (is_timeout(errno))
			client_report(ct, ERR_TIMEOUT, "connect to %s timed out",
				      cfg->connect);
		else
			client_report(ct, ERR_CONNECT, "connect to %s: %s",
				      cfg->connect, strerror(errno));
		goto out;
	}
	connected_ns = hs_now_ns();
	ct->connect_ns[ct->connect_count++] = connected_ns - start_ns;

	if (client_send_all(fd, hello, sizeof(hello))) {
		if (is_timeout(errno))
			client_report(ct, ERR_TIMEOUT, "sending the hello timed out");
		else
			client_report(ct, ERR_IO, "sending the hello: %s",
				      strerror(errno));
		goto out;
	}
	if (client_recv_all(fd, reply, sizeof(reply), &got)) {
		if (is_timeout(errno))
			client_report(ct, ERR_TIMEOUT,
				      "no reply within %g s (got %zu of %d bytes)",
				      cfg->timeout, got, HS_REPLY_SIZE);
		else if (errno == 0)
			client_report(ct, ERR_IO,
				      "server closed the connection after %zu of %d reply bytes",
				      got, HS_REPLY_SIZE);
		else
			client_report(ct, ERR_IO, "reading the reply: %s",
				      strerror(errno));
		goto out;
	}
	if (memcmp(reply, expected, sizeof(reply))) {
		client_report(ct, ERR_VERIFY,
			      "reply verification failed (do --crypto-calls and --payload match the server's?)");
		goto out;
	}
	done_ns = hs_now_ns();
	ct->handshake_ns[ct->handshake_count++] = done_ns - start_ns;
out:
	close(fd);
}

/* client_thread_main - the blocking handshake loop of one thread */
static void *client_thread_main(void *arg)
{
	struct client_thread *ct = arg;
	uint8_t *buf = malloc(hs_buffer_len(ct->cfg->payload));
	size_t i;

	gate_wait();
	if (!buf) {
		for (i = 0; i < ct->todo; i++)
			client_report(ct, ERR_IO, "out of memory");
		return NULL;
	}
	for (i = 0; i < ct->todo; i++)
		client_handshake(ct, i, buf);
	free(buf);
	return NULL;
}

/* client_parse_args - the client's command line into @cfg */
static int client_parse_args(int argc, char **argv, struct client_config *cfg)
{
	static const struct option options[] = {
		{ "connect", required_argument, NULL, 'c' },
		{ "threads", required_argument, NULL, 'T' },
		{ "connections", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "timeout", required_argument, NULL, 't' },
		{ "crypto-calls", required_argument, NULL, 'k' },
		{ "payload", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long value;
	int opt;

	memset(cfg, 0, sizeof(*cfg));
	cfg->threads = CLIENT_DEFAULT_THREADS;
	cfg->connections = CLIENT_DEFAULT_CONNECTIONS;
	cfg->timeout = CLIENT_DEFAULT_TIMEOUT;
	cfg->crypto_calls = 4;
	cfg->payload = 256;

	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			cfg->connect = optarg;
			break;
		case 'T':
			if (hs_parse_uint("--threads", optarg, 1,
					  CLIENT_MAX_THREADS, &value))
				return -1;
			cfg->threads = value;
			break;
		case 'n':
			if (hs_parse_uint("--connections", optarg, 1,
					  CLIENT_MAX_CONNECTIONS, &value))
				return -1;
			cfg->connections = value;
			break;
		case 'j':
			cfg->json = 1;
			break;
		case 't':
			if (hs_parse_seconds("--timeout", optarg, &cfg->timeout))
				return -1;
			break;
		case 'k':
			if (hs_parse_uint("--crypto-calls", optarg, 0,
					  HS_MAX_CRYPTO_CALLS, &value))
				return -1;
			cfg->crypto_calls = value;
			break;
		case 'p':
			if (hs_parse_uint("--payload", optarg, HS_MIN_PAYLOAD,
					  HS_MAX_PAYLOAD, &value))
				return -1;
			cfg->payload = value;
			break;
		case 'h':
			hs_usage(stdout);
			exit(HS_EXIT_OK);
		default:
			return -1;
		}
	}
	if (optind < argc) {
		hs_err("client: unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (!cfg->connect) {
		hs_err("client: --connect ADDR:PORT is required");
		return -1;
	}
	if (hs_resolve_endpoint(cfg->connect, 0, &cfg->addr, &cfg->addr_len))
		return -1;
	if (cfg->threads > cfg->connections)
		cfg->threads = cfg->connections;
	return 0;
}

/* ns_to_us - nanoseconds to microseconds */
static double ns_to_us(double ns)
{
	return ns / 1000.0;
}

/* client_print_summary_text - one latency line */
static void client_print_summary_text(const char *name,
				      const struct stats_summary *s)
{
	printf("%-17s count %zu mean %.1f p50 %.1f p90 %.1f p99 %.1f max %.1f\n",
	       name, s->count, ns_to_us(s->mean), ns_to_us(s->p50),
	       ns_to_us(s->p90), ns_to_us(s->p99), ns_to_us(s->max));
}

/* client_print_summary_json - one latency object */
static void client_print_summary_json(const char *name,
				      const struct stats_summary *s)
{
	printf(",\"%s\":{\"count\":%zu,\"mean\":%.3f,\"p50\":%.3f,\"p90\":%.3f"
	       ",\"p99\":%.3f,\"max\":%.3f}",
	       name, s->count, ns_to_us(s->mean), ns_to_us(s->p50),
	       ns_to_us(s->p90), ns_to_us(s->p99), ns_to_us(s->max));
}

/* client_main - "hsbench client ..." */
int client_main(int argc, char **argv)
{
	struct client_config cfg;
	struct client_thread *threads;
	struct stats_summary connect_stats, handshake_stats;
	uint64_t errors[ERR_KINDS] = { 0 }, total_errors = 0;
	uint64_t *connect_ns, *handshake_ns, start_ns;
	size_t connect_count = 0, handshake_count = 0;
	unsigned int i, started = 0;
	double elapsed, rate;
	int k;

	if (client_parse_args(argc, argv, &cfg))
		return HS_EXIT_USAGE;
	signal(SIGPIPE, SIG_IGN);

	threads = calloc(cfg.threads, sizeof(*threads));
	connect_ns = malloc(cfg.connections * sizeof(*connect_ns));
	handshake_ns = malloc(cfg.connections * sizeof(*handshake_ns));
	if (!threads || !connect_ns || !handshake_ns) {
		hs_err("out of memory");
		return HS_EXIT_FAIL;
	}

	/* Split the connections; thread i fills its own part of each array */
	for (i = 0; i < cfg.threads; i++) {
		struct client_thread *ct = &threads[i];
		size_t first = cfg.connections * i / cfg.threads;

		ct->cfg = &cfg;
		ct->index = i;
		ct->todo = cfg.connections * (i + 1) / cfg.threads - first;
		ct->connect_ns = connect_ns + first;
		ct->handshake_ns = handshake_ns + first;
		if (getrandom(&ct->rng_state, sizeof(ct->rng_state), 0) !=
		    sizeof(ct->rng_state))
			ct->rng_state = hs_now_ns() ^ ((uint64_t)i << 32);
	}

	for (i = 0; i < cfg.threads; i++) {
		int err = pthread_create(&threads[i].thread, NULL,
					 client_thread_main, &threads[i]);

		if (err) {
			hs_err("cannot start client thread %u: %s", i,
			       strerror(err));
			break;
		}
		started++;
	}
	gate_all_waiting(started);
	insn_mark();
	start_ns = hs_now_ns();
	gate_release();
	for (i = 0; i < started; i++)
		pthread_join(threads[i].thread, NULL);
	elapsed = (hs_now_ns() - start_ns) / 1e9;
	insn_mark();

	/* Gather the per-thread samples at the front of the arrays */
	for (i = 0; i < cfg.threads; i++) {
		struct client_thread *ct = &threads[i];

		if (i >= started)
			ct->errors[ERR_CONNECT] += ct->todo;	/* never ran */
		memmove(connect_ns + connect_count, ct->connect_ns,
			ct->connect_count * sizeof(*connect_ns));
		connect_count += ct->connect_count;
		memmove(handshake_ns + handshake_count, ct->handshake_ns,
			ct->handshake_count * sizeof(*handshake_ns));
		handshake_count += ct->handshake_count;
		for (k = 0; k < ERR_KINDS; k++)
			errors[k] += ct->errors[k];
	}
	for (k = 0; k < ERR_KINDS; k++)
		total_errors += errors[k];
	stats_summarize(connect_ns, connect_count, &connect_stats);
	stats_summarize(handshake_ns, handshake_count, &handshake_stats);
	rate = elapsed > 0 ? handshake_count / elapsed : 0;

	if (cfg.json) {
		printf("{\"connect\":");
		hs_json_string(stdout, cfg.connect);
		printf(",\"threads\":%u,\"connections\":%llu,\"completed\":%zu"
		       ",\"errors\":%llu,\"connect_failures\":%llu"
		       ",\"timeouts\":%llu,\"verify_failures\":%llu"
		       ",\"io_errors\":%llu",
		       cfg.threads, cfg.connections, handshake_count,
		       (unsigned long long)total_errors,
		       (unsigned long long)errors[ERR_CONNECT],
		       (unsigned long long)errors[ERR_TIMEOUT],
		       (unsigned long long)errors[ERR_VERIFY],
		       (unsigned long long)errors[ERR_IO]);
		client_print_summary_json("connect_us", &connect_stats);
		client_print_summary_json("handshake_us", &handshake_stats);
		printf(",\"elapsed_s\":%.6f,\"connections_per_s\":%.1f}\n",
		       elapsed, rate);
	} else {
		printf("connect           %s\n", cfg.connect);
		printf("threads           %u\n", cfg.threads);
		printf("connections       %llu\n", cfg.connections);
		printf("completed         %zu\n", handshake_count);
		printf("errors            %llu "
		       "(connect %llu, timeout %llu, verify %llu, io %llu)\n",
		       (unsigned long long)total_errors,
		       (unsigned long long)errors[ERR_CONNECT],
		       (unsigned long long)errors[ERR_TIMEOUT],
		       (unsigned long long)errors[ERR_VERIFY],
		       (unsigned long long)errors[ERR_IO]);
		client_print_summary_text("connect_us", &connect_stats);
		client_print_summary_text("handshake_us", &handshake_stats);
		printf("elapsed_s         %.3f\n", elapsed);
		printf("connections_per_s %.1f\n", rate);
	}

	free(handshake_ns);
	free(connect_ns);
	free(threads);
	return total_errors ? HS_EXIT_FAIL : HS_EXIT_OK;
}
