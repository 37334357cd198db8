// SPDX-License-Identifier: GPL-2.0
/*
 * server.c - "hsbench server": W worker threads serving handshakes.
 *
 * Each worker has its own epoll instance holding the shared, non-blocking
 * listening socket with EPOLLEXCLUSIVE and accepts connections itself, one
 * per readiness event, and it does the crypto calls of a handshake inline.
 * So a worker blocked in a TEE ioctl accepts nothing meanwhile: connections
 * queue in the listen backlog, which is what the experiment looks at.
 *
 * The counters of a worker are written by that worker only; the main thread
 * reads the completed-handshake counters every few milliseconds (to stop
 * after --connections N) and sums them all when the workers have exited.
 */
#define _GNU_SOURCE		/* accept4 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "handshake.h"
#include "hsbench.h"
#include "tee.h"

#define SERVER_DEFAULT_LISTEN	"127.0.0.1:7000"
#define SERVER_DEFAULT_WORKERS	10
#define SERVER_MAX_WORKERS	4096
#define SERVER_BACKLOG		4096
#define SERVER_EPOLL_EVENTS	64
#define SERVER_POLL_NS		2000000		/* main thread: 2 ms */
#define SERVER_MAX_STALL_US	10000000	/* 10 s */
#define CACHE_LINE		64

enum server_mode {
	MODE_SOFT,
	MODE_HARD_TEMP,
	MODE_HARD_REG,
	MODE_HARD_ALLOC,
	MODE_HARD_SHARED,
};

static const char *const server_mode_names[] = {
	[MODE_SOFT] = "soft",
	[MODE_HARD_TEMP] = "hard-temp",
	[MODE_HARD_REG] = "hard-reg",
	[MODE_HARD_ALLOC] = "hard-alloc",
	[MODE_HARD_SHARED] = "hard-shared",
};

struct server_config {
	const char *listen;
	unsigned int workers;
	enum server_mode mode;
	unsigned int crypto_calls;
	unsigned int stall_us;		/* blocked per handshake, like a TEE call */
	size_t payload;
	double duration;		/* seconds; 0: no limit */
	unsigned long long connections;	/* handshakes; 0: no limit */
	const char *tee_dev;		/* NULL: auto-detect */
	int json;
	const char *ready_file;
	const char *accept_log;
};

/* struct server_counters - one worker's truth, written by it alone */
struct server_counters {
	uint64_t accepted;
	uint64_t completed;
	uint64_t errors;
	uint64_t crypto_calls;
	struct tee_ioctl_counts ioctls;
};

/*
 * struct conn - one accepted connection of a worker
 * @hello_got: bytes of the hello read so far
 * @reply_sent: bytes of the reply sent so far
 * @in_epoll: the fd has been added to the worker's epoll
 */
struct conn {
	int fd;
	int in_epoll;
	size_t hello_got;
	size_t reply_sent;
	uint8_t hello[HS_HELLO_SIZE];
	uint8_t reply[HS_REPLY_SIZE];
	struct conn *prev;
	struct conn *next;
};

struct server;

/* struct worker - one worker thread, on cache lines of its own */
struct worker {
	struct server_counters counters;
	struct server *srv;
	unsigned int index;
	pthread_t thread;
	int epoll_fd;
	int init_failed;
	int accept_errors_to_show;
	struct tee_client tee;
	uint8_t *work_buf;
	struct conn *conns;
} __attribute__((aligned(CACHE_LINE)));

struct server {
	struct server_config cfg;
	char tee_path[256];
	char listen_name[128];
	int listen_fd;
	int accept_log_fd;	/* --accept-log, or -1 */
	int stop_fd;		/* eventfd: readable once the workers must stop */
	int stopping;
	/* the hard modes' shared-memory pattern now: SIGUSR1 switches it */
	enum tee_shm_pattern pattern;
	unsigned int switches;
	struct worker *workers;
	/* start gate: workers report their set-up, then wait for "go" */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate_cond;
	unsigned int gate_reported;
	int gate_open;
};

/* epoll tags of the two shared fds (connections are tagged by their conn) */
static char listen_tag, stop_tag;

/* server_stopping - whether the main thread asked the workers to stop */
static int server_stopping(struct server *srv)
{
	return __atomic_load_n(&srv->stopping, __ATOMIC_RELAXED);
}

/*
 * worker_pattern - the worker's TEE client in the pattern the server is in
 * now (SIGUSR1 switches it between calls); 0, or -1 when it cannot be
 */
static int worker_pattern(struct worker *w)
{
	enum tee_shm_pattern p = __atomic_load_n(&w->srv->pattern, __ATOMIC_RELAXED);

	return p == w->tee.pattern ? 0 : tee_client_set_pattern(&w->tee, p);
}

/* worker_sm3 - one SM3 crypto call of a handshake, in the configured mode */
static int worker_sm3(void *ctx, const uint8_t *buf, size_t len,
		      uint8_t digest[LAB_SM3_DIGEST_SIZE])
{
	struct worker *w = ctx;

	counter_inc(&w->counters.crypto_calls);
	if (w->srv->cfg.mode == MODE_SOFT)
		return hs_soft_sm3(NULL, buf, len, digest);
	if (worker_pattern(w))
		return -1;
	return tee_sm3(&w->tee, buf, len, digest);
}

/* worker_sm4 - one SM4 crypto call of a handshake, in the configured mode */
static int worker_sm4(void *ctx, const uint8_t key[LAB_SM4_KEY_SIZE],
		      uint8_t *buf, size_t len)
{
	struct worker *w = ctx;

	counter_inc(&w->counters.crypto_calls);
	if (w->srv->cfg.mode == MODE_SOFT)
		return hs_soft_sm4(NULL, key, buf, len);
	if (worker_pattern(w))
		return -1;
	return tee_sm4(&w->tee, key, buf, len);
}

static const struct hs_crypto_ops worker_crypto_ops = {
	.sm3 = worker_sm3,
	.sm4 = worker_sm4,
};

/* conn_close - close and forget a connection */
static void conn_close(struct worker *w, struct conn *c)
{
	close(c->fd);
	if (c->prev)
		c->prev->next = c->next;
	else
		w->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	free(c);
}

/* conn_fail - count a failed handshake and close its connection */
static void conn_fail(struct worker *w, struct conn *c)
{
	counter_inc(&w->counters.errors);
	conn_close(w, c);
}

/* conn_wait_for - make the worker's epoll report @events of @c */
static int conn_wait_for(struct worker *w, struct conn *c, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = c };
	int op = c->in_epoll ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;

	if (epoll_ctl(w->epoll_fd, op, c->fd, &ev) < 0)
		return -1;
	c->in_epoll = 1;
	return 0;
}

/* conn_send_reply - send (the rest of) the reply; done: the handshake is */
static void conn_send_reply(struct worker *w, struct conn *c)
{
	ssize_t n;

	while (c->reply_sent < HS_REPLY_SIZE) {
		n = send(c->fd, c->reply + c->reply_sent,
			 HS_REPLY_SIZE - c->reply_sent, MSG_NOSIGNAL);
		if (n > 0) {
			c->reply_sent += n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (conn_wait_for(w, c, EPOLLOUT))
				conn_fail(w, c);
			return;
		}
		conn_fail(w, c);
		return;
	}
	counter_inc(&w->counters.completed);
	conn_close(w, c);
}

/* conn_read_hello - read (the rest of) the hello; complete: answer it */
static void conn_read_hello(struct worker *w, struct conn *c)
{
	const struct server_config *cfg = &w->srv->cfg;
	ssize_t n;

	while (c->hello_got < HS_HELLO_SIZE) {
		n = read(c->fd, c->hello + c->hello_got,
			 HS_HELLO_SIZE - c->hello_got);
		if (n > 0) {
			c->hello_got += n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (conn_wait_for(w, c, EPOLLIN))
				conn_fail(w, c);
			return;
		}
		/* EOF or error before a whole hello */
		conn_fail(w, c);
		return;
	}
	/* --stall-us: the worker blocks, as in a slow TEE ioctl */
	if (cfg->stall_us) {
		struct timespec stall = {
			.tv_sec = cfg->stall_us / 1000000,
			.tv_nsec = (long)(cfg->stall_us % 1000000) * 1000,
		};

		while (nanosleep(&stall, &stall) < 0 && errno == EINTR)
			;
	}
	if (hs_compute(&worker_crypto_ops, w, c->hello, cfg->payload,
		       cfg->crypto_calls, w->work_buf, c->reply)) {
		conn_fail(w, c);
		return;
	}
	conn_send_reply(w, c);
}

/*
 * accept_log - one line of --accept-log: when accept() returned the
 * connection from @peer, on CLOCK_REALTIME (the clock tcpdump stamps
 * packets with), and the peer's port. One write() of a short line to an
 * O_APPEND file: the workers' lines do not interleave.
 */
static void accept_log(struct server *srv, const struct sockaddr_storage *peer)
{
	struct timespec now;
	char line[64];
	int port = 0, n;

	clock_gettime(CLOCK_REALTIME, &now);
	if (peer->ss_family == AF_INET)
		port = ntohs(((const struct sockaddr_in *)peer)->sin_port);
	else if (peer->ss_family == AF_INET6)
		port = ntohs(((const struct sockaddr_in6 *)peer)->sin6_port);
	n = snprintf(line, sizeof(line), "%lld%09ld %d\n", (long long)now.tv_sec,
		     now.tv_nsec, port);
	if (write(srv->accept_log_fd, line, n) != n)
		hs_err("--accept-log: write: %s", strerror(errno));
}

/* worker_accept - accept one connection, if another worker did not */
static void worker_accept(struct worker *w)
{
	struct sockaddr_storage peer;
	socklen_t peer_len = sizeof(peer);
	struct conn *c;
	int fd;

	fd = accept4(w->srv->listen_fd, (struct sockaddr *)&peer, &peer_len,
		     SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
		    errno != ECONNABORTED && w->accept_errors_to_show > 0) {
			w->accept_errors_to_show--;
			hs_err("worker %u: accept4: %s", w->index, strerror(errno));
		}
		return;
	}
	if (w->srv->accept_log_fd >= 0)
		accept_log(w->srv, &peer);
	counter_inc(&w->counters.accepted);
	c = calloc(1, sizeof(*c));
	if (!c) {
		counter_inc(&w->counters.errors);
		close(fd);
		return;
	}
	c->fd = fd;
	c->next = w->conns;
	if (w->conns)
		w->conns->prev = c;
	w->conns = c;
	/* The hello usually arrives with the connection: try it at once */
	conn_read_hello(w, c);
}

/* worker_event - a readiness event of connection @c */
static void worker_event(struct worker *w, struct conn *c)
{
	if (c->hello_got < HS_HELLO_SIZE)
		conn_read_hello(w, c);
	else
		conn_send_reply(w, c);
}

/* worker_loop - serve until the main thread says stop */
static void worker_loop(struct worker *w)
{
	struct epoll_event events[SERVER_EPOLL_EVENTS];
	int n, i;

	while (!server_stopping(w->srv)) {
		n = epoll_wait(w->epoll_fd, events, SERVER_EPOLL_EVENTS, -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			hs_err("worker %u: epoll_wait: %s", w->index,
			       strerror(errno));
			return;
		}
		for (i = 0; i < n; i++) {
			void *tag = events[i].data.ptr;

			if (tag == &stop_tag)
				return;
			if (tag == &listen_tag)
				worker_accept(w);
			else
				worker_event(w, tag);
		}
	}
}

/* worker_setup - epoll instance, and the TEE session of the hard modes */
static int worker_setup(struct worker *w)
{
	struct server *srv = w->srv;
	struct epoll_event ev;
	size_t len = hs_buffer_len(srv->cfg.payload);

	w->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (w->epoll_fd < 0) {
		hs_err("worker %u: epoll_create1: %s", w->index, strerror(errno));
		return -1;
	}
	ev.events = EPOLLIN | EPOLLEXCLUSIVE;
	ev.data.ptr = &listen_tag;
	if (epoll_ctl(w->epoll_fd, EPOLL_CTL_ADD, srv->listen_fd, &ev) < 0) {
		hs_err("worker %u: adding the listener to epoll: %s", w->index,
		       strerror(errno));
		return -1;
	}
	ev.events = EPOLLIN;
	ev.data.ptr = &stop_tag;
	if (epoll_ctl(w->epoll_fd, EPOLL_CTL_ADD, srv->stop_fd, &ev) < 0) {
		hs_err("worker %u: adding the stop eventfd to epoll: %s",
		       w->index, strerror(errno));
		return -1;
	}

	if (srv->cfg.mode == MODE_SOFT) {
		w->work_buf = malloc(len);
		if (!w->work_buf) {
			hs_err("worker %u: out of memory", w->index);
			return -1;
		}
		return 0;
	}
	if (tee_client_open(&w->tee, srv->tee_path, srv->pattern, len,
			    &w->counters.ioctls))
		return -1;
	w->work_buf = w->tee.buf;	/* the memrefs point into it */
	return 0;
}

/* worker_teardown - close connections, TEE session and epoll instance */
static void worker_teardown(struct worker *w)
{
	while (w->conns)
		conn_close(w, w->conns);
	if (w->srv->cfg.mode == MODE_SOFT) {
		free(w->work_buf);
	} else if (w->tee.counts) {
#ifdef HSBENCH_TEEC
		/* The TA's own counts of this session, before it closes
		 * (ta_sessions_read says of how many sessions they are).
		 */
		tee_ta_stats(&w->tee);
#endif
		tee_client_close(&w->tee);
	}
	w->work_buf = NULL;
	if (w->epoll_fd >= 0)
		close(w->epoll_fd);
}

/* worker_main - a worker thread: set up, wait for all, serve, tear down */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct server *srv = w->srv;
	int init_failed = worker_setup(w) != 0;

	pthread_mutex_lock(&srv->gate_lock);
	w->init_failed = init_failed;
	srv->gate_reported++;
	pthread_cond_broadcast(&srv->gate_cond);
	while (!srv->gate_open)
		pthread_cond_wait(&srv->gate_cond, &srv->gate_lock);
	pthread_mutex_unlock(&srv->gate_lock);

	if (!init_failed && !server_stopping(srv))
		worker_loop(w);
	worker_teardown(w);
	return NULL;
}

/*
 * server_open_gate - wait until the @started workers have set up, then let
 * them run; returns -1 if any failed (they are then told to stop at once)
 */
static int server_open_gate(struct server *srv, unsigned int started)
{
	int failed = started < srv->cfg.workers;
	unsigned int i;

	pthread_mutex_lock(&srv->gate_lock);
	while (srv->gate_reported < started)
		pthread_cond_wait(&srv->gate_cond, &srv->gate_lock);
	for (i = 0; i < started; i++)
		failed |= srv->workers[i].init_failed;
	if (failed)
		__atomic_store_n(&srv->stopping, 1, __ATOMIC_RELAXED);
	srv->gate_open = 1;
	pthread_cond_broadcast(&srv->gate_cond);
	pthread_mutex_unlock(&srv->gate_lock);
	return failed ? -1 : 0;
}

/* server_listen - the shared non-blocking listening socket */
static int server_listen(struct server *srv)
{
	struct sockaddr_storage addr;
	socklen_t addr_len;
	int one = 1;

	if (hs_resolve_endpoint(srv->cfg.listen, 1, &addr, &addr_len))
		return -1;
	srv->listen_fd = socket(addr.ss_family,
				SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (srv->listen_fd < 0) {
		hs_err("socket: %s", strerror(errno));
		return -1;
	}
	if (setsockopt(srv->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one,
		       sizeof(one)) < 0) {
		hs_err("SO_REUSEADDR: %s", strerror(errno));
		return -1;
	}
	if (bind(srv->listen_fd, (struct sockaddr *)&addr, addr_len) < 0) {
		hs_err("cannot bind %s: %s", srv->cfg.listen, strerror(errno));
		return -1;
	}
	if (listen(srv->listen_fd, SERVER_BACKLOG) < 0) {
		hs_err("listen: %s", strerror(errno));
		return -1;
	}
	addr_len = sizeof(addr);
	if (getsockname(srv->listen_fd, (struct sockaddr *)&addr, &addr_len) < 0) {
		hs_err("getsockname: %s", strerror(errno));
		return -1;
	}
	hs_format_endpoint((struct sockaddr *)&addr, addr_len,
			   srv->listen_name, sizeof(srv->listen_name));
	return 0;
}

/*
 * server_write_ready_file - create @path holding the listening address (a
 * first line usable with --connect) and the pid; written under a temporary
 * name and renamed, so a reader never sees it half written
 */
static int server_write_ready_file(struct server *srv, const char *path)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f) {
		hs_err("cannot create %s: %s", tmp, strerror(errno));
		return -1;
	}
	fprintf(f, "%s\n%d\n", srv->listen_name, (int)getpid());
	if (fclose(f) || rename(tmp, path) < 0) {
		hs_err("cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* server_completed - handshakes completed so far, over all workers */
static uint64_t server_completed(struct server *srv)
{
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < srv->cfg.workers; i++)
		total += counter_read(&srv->workers[i].counters.completed);
	return total;
}

/*
 * server_switch - SIGUSR1: a hard mode becomes the other (hard-reg <->
 * hard-temp), from each worker's next crypto call on; said on stderr
 */
static void server_switch(struct server *srv)
{
	enum tee_shm_pattern p;

	if (srv->cfg.mode == MODE_SOFT) {
		hs_err("SIGUSR1: soft mode has nothing to switch");
		return;
	}
	if (srv->cfg.mode == MODE_HARD_ALLOC || srv->cfg.mode == MODE_HARD_SHARED) {
		/* the crypto data lives in libteec's memory: no other kind */
		hs_err("SIGUSR1: %s has nothing to switch (hard-reg and hard-temp switch)",
		       server_mode_names[srv->cfg.mode]);
		return;
	}
	p = srv->pattern == TEE_SHM_REGISTERED ? TEE_SHM_TEMPORARY : TEE_SHM_REGISTERED;
	__atomic_store_n(&srv->pattern, p, __ATOMIC_RELAXED);
	srv->switches++;
	hs_err("SIGUSR1: now %s, after %llu handshakes",
	       p == TEE_SHM_REGISTERED ? "hard-reg" : "hard-temp",
	       (unsigned long long)server_completed(srv));
}

/*
 * server_wait_for_stop - wait for SIGINT/SIGTERM (blocked in every thread),
 * N handshakes or the duration; returns why it stopped. SIGUSR1 switches
 * the hard mode meanwhile.
 */
static const char *server_wait_for_stop(struct server *srv, uint64_t start_ns)
{
	const struct server_config *cfg = &srv->cfg;
	struct timespec poll = { 0, SERVER_POLL_NS };
	sigset_t signals;
	int sig;

	sigemptyset(&signals);
	sigaddset(&signals, SIGINT);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGUSR1);
	for (;;) {
		sig = sigtimedwait(&signals, NULL, &poll);
		if (sig == SIGUSR1)
			server_switch(srv);
		if (sig == SIGINT)
			return "SIGINT";
		if (sig == SIGTERM)
			return "SIGTERM";
		if (cfg->connections && server_completed(srv) >= cfg->connections)
			return "connections";
		if (cfg->duration > 0 &&
		    (double)(hs_now_ns() - start_ns) / 1e9 >= cfg->duration)
			return "duration";
	}
}

/* server_stop_workers - tell every worker to stop, wait for them to exit */
static void server_stop_workers(struct server *srv, unsigned int started)
{
	uint64_t one = 1;
	unsigned int i;

	__atomic_store_n(&srv->stopping, 1, __ATOMIC_RELAXED);
	if (write(srv->stop_fd, &one, sizeof(one)) != sizeof(one))
		hs_err("eventfd write: %s", strerror(errno));
	for (i = 0; i < started; i++)
		pthread_join(srv->workers[i].thread, NULL);
}

/* server_sum_counters - the counters of all workers added up */
static void server_sum_counters(struct server *srv, struct server_counters *sum)
{
	unsigned int i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < srv->cfg.workers; i++) {
		const struct server_counters *c = &srv->workers[i].counters;

		sum->accepted += c->accepted;
		sum->completed += c->completed;
		sum->errors += c->errors;
		sum->crypto_calls += c->crypto_calls;
		sum->ioctls.open_session += c->ioctls.open_session;
		sum->ioctls.invoke += c->ioctls.invoke;
		sum->ioctls.shm_register += c->ioctls.shm_register;
		sum->ioctls.shm_close += c->ioctls.shm_close;
		sum->ioctls.close_session += c->ioctls.close_session;
		sum->ioctls.ta_known += c->ioctls.ta_known;
		sum->ioctls.ta_sm3 += c->ioctls.ta_sm3;
		sum->ioctls.ta_sm4 += c->ioctls.ta_sm4;
		sum->ioctls.ta_refused += c->ioctls.ta_refused;
		sum->ioctls.ta_sessions += c->ioctls.ta_sessions;
	}
}

/* server_print_text - the final counters as "name value" lines */
static void server_print_text(struct server *srv, const char *reason,
			      double elapsed)
{
	const struct server_config *cfg = &srv->cfg;
	struct server_counters sum;
	unsigned int i;

	server_sum_counters(srv, &sum);
	printf("mode                  %s\n", server_mode_names[cfg->mode]);
	printf("listen                %s\n", srv->listen_name);
	printf("tee_dev               %s\n", cfg->mode == MODE_SOFT ? "-" : srv->tee_path);
	printf("workers               %u\n", cfg->workers);
	printf("crypto_calls_per_hs   %u\n", cfg->crypto_calls);
	printf("payload               %zu\n", cfg->payload);
	printf("stall_us              %u\n", cfg->stall_us);
	printf("stop_reason           %s\n", reason);
	printf("mode_switches         %u\n", srv->switches);
	printf("elapsed_s             %.3f\n", elapsed);
	printf("connections_accepted  %llu\n", (unsigned long long)sum.accepted);
	printf("handshakes_completed  %llu\n", (unsigned long long)sum.completed);
	printf("handshake_errors      %llu\n", (unsigned long long)sum.errors);
	printf("crypto_calls          %llu\n", (unsigned long long)sum.crypto_calls);
	printf("ioctl_open_session    %llu\n", (unsigned long long)sum.ioctls.open_session);
	printf("ioctl_invoke          %llu\n", (unsigned long long)sum.ioctls.invoke);
	printf("ioctl_shm_register    %llu\n", (unsigned long long)sum.ioctls.shm_register);
	printf("ioctl_shm_close       %llu\n", (unsigned long long)sum.ioctls.shm_close);
	printf("ioctl_close_session   %llu\n", (unsigned long long)sum.ioctls.close_session);
	if (sum.ioctls.ta_known) {
		printf("ta_sessions_read      %llu\n", (unsigned long long)sum.ioctls.ta_known);
		printf("ta_sm3                %llu\n", (unsigned long long)sum.ioctls.ta_sm3);
		printf("ta_sm4                %llu\n", (unsigned long long)sum.ioctls.ta_sm4);
		printf("ta_refused            %llu\n", (unsigned long long)sum.ioctls.ta_refused);
		printf("ta_sessions           %llu\n", (unsigned long long)sum.ioctls.ta_sessions);
	}
	printf("per_worker_handshakes");
	for (i = 0; i < cfg->workers; i++)
		printf(" %llu", (unsigned long long)srv->workers[i].counters.completed);
	printf("\n");
}

/* server_print_json - the final counters as one JSON object */
static void server_print_json(struct server *srv, const char *reason,
			      double elapsed)
{
	const struct server_config *cfg = &srv->cfg;
	struct server_counters sum;
	unsigned int i;

	server_sum_counters(srv, &sum);
	printf("{\"mode\":\"%s\",\"listen\":", server_mode_names[cfg->mode]);
	hs_json_string(stdout, srv->listen_name);
	printf(",\"tee_dev\":");
	if (cfg->mode == MODE_SOFT)
		printf("null");
	else
		hs_json_string(stdout, srv->tee_path);
	printf(",\"workers\":%u,\"crypto_calls_per_handshake\":%u,\"payload\":%zu"
	       ",\"stall_us\":%u",
	       cfg->workers, cfg->crypto_calls, cfg->payload, cfg->stall_us);
	printf(",\"stop_reason\":\"%s\",\"elapsed_s\":%.6f", reason, elapsed);
	printf(",\"connections_accepted\":%llu,\"handshakes_completed\":%llu"
	       ",\"handshake_errors\":%llu,\"crypto_calls\":%llu",
	       (unsigned long long)sum.accepted,
	       (unsigned long long)sum.completed,
	       (unsigned long long)sum.errors,
	       (unsigned long long)sum.crypto_calls);
	printf(",\"ioctls\":{\"open_session\":%llu,\"invoke\":%llu"
	       ",\"shm_register\":%llu,\"shm_close\":%llu,\"close_session\":%llu}",
	       (unsigned long long)sum.ioctls.open_session,
	       (unsigned long long)sum.ioctls.invoke,
	       (unsigned long long)sum.ioctls.shm_register,
	       (unsigned long long)sum.ioctls.shm_close,
	       (unsigned long long)sum.ioctls.close_session);
	if (sum.ioctls.ta_known)
		printf(",\"ta\":{\"sessions_read\":%llu,\"sm3\":%llu,\"sm4\":%llu"
		       ",\"refused\":%llu,\"sessions\":%llu}",
		       (unsigned long long)sum.ioctls.ta_known,
		       (unsigned long long)sum.ioctls.ta_sm3,
		       (unsigned long long)sum.ioctls.ta_sm4,
		       (unsigned long long)sum.ioctls.ta_refused,
		       (unsigned long long)sum.ioctls.ta_sessions);
	printf(",\"per_worker_handshakes\":[");
	for (i = 0; i < cfg->workers; i++)
		printf("%s%llu", i ? "," : "",
		       (unsigned long long)srv->workers[i].counters.completed);
	printf("]}\n");
}

/* server_parse_mode - the mode named @name */
static int server_parse_mode(const char *name, enum server_mode *mode)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(server_mode_names); i++) {
		if (strcmp(name, server_mode_names[i]))
			continue;
#ifndef HSBENCH_TEEC
		/* the ioctl client has temporary and registered memory only */
		if (i == MODE_HARD_ALLOC || i == MODE_HARD_SHARED) {
			hs_err("--mode %s: only on libteec (hsbench built with TEEC= or ITEEC=)", name);
			return -1;
		}
#endif
		*mode = i;
		return 0;
	}
	hs_err("--mode: '%s' is not soft, hard-temp, hard-reg, hard-alloc or hard-shared", name);
	return -1;
}

/* server_parse_args - the server's command line into @cfg */
static int server_parse_args(int argc, char **argv, struct server_config *cfg)
{
	static const struct option options[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "workers", required_argument, NULL, 'w' },
		{ "mode", required_argument, NULL, 'm' },
		{ "crypto-calls", required_argument, NULL, 'k' },
		{ "payload", required_argument, NULL, 'p' },
		{ "stall-us", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "connections", required_argument, NULL, 'n' },
		{ "tee-dev", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "ready-file", required_argument, NULL, 'r' },
		{ "accept-log", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long value;
	int opt;

	memset(cfg, 0, sizeof(*cfg));
	cfg->listen = SERVER_DEFAULT_LISTEN;
	cfg->workers = SERVER_DEFAULT_WORKERS;
	cfg->mode = MODE_SOFT;
	cfg->crypto_calls = 4;
	cfg->payload = 256;

	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 'l':
			cfg->listen = optarg;
			break;
		case 'w':
			if (hs_parse_uint("--workers", optarg, 1,
					  SERVER_MAX_WORKERS, &value))
				return -1;
			cfg->workers = value;
			break;
		case 'm':
			if (server_parse_mode(optarg, &cfg->mode))
				return -1;
			break;
		case 'k':
			if (hs_parse_uint("--crypto-calls", optarg, 0,
					  HS_MAX_CRYPTO_CALLS, &value))
				return -1;
			cfg->crypto_calls = value;
			break;
		case 's':
			if (hs_parse_uint("--stall-us", optarg, 0,
					  SERVER_MAX_STALL_US, &value))
				return -1;
			cfg->stall_us = value;
			break;
		case 'p':
			if (hs_parse_uint("--payload", optarg, HS_MIN_PAYLOAD,
					  HS_MAX_PAYLOAD, &value))
				return -1;
			cfg->payload = value;
			break;
		case 'd':
			if (hs_parse_seconds("--duration", optarg, &cfg->duration))
				return -1;
			break;
		case 'n':
			if (hs_parse_uint("--connections", optarg, 1,
					  ~0ull >> 1, &value))
				return -1;
			cfg->connections = value;
			break;
		case 't':
			cfg->tee_dev = optarg;
			break;
		case 'j':
			cfg->json = 1;
			break;
		case 'r':
			cfg->ready_file = optarg;
			break;
		case 'a':
			cfg->accept_log = optarg;
			break;
		case 'h':
			hs_usage(stdout);
			exit(HS_EXIT_OK);
		default:
			return -1;
		}
	}
	if (optind < argc) {
		hs_err("server: unexpected argument '%s'", argv[optind]);
		return -1;
	}
	if (cfg->tee_dev && cfg->mode == MODE_SOFT)
		hs_err("note: --tee-dev is not used in soft mode");
	return 0;
}

/* server_main - "hsbench server ..." */
int server_main(int argc, char **argv)
{
	struct server srv;
	const char *reason;
	sigset_t signals;
	unsigned int started = 0, i;
	uint64_t start_ns;
	double elapsed;
	int status = HS_EXIT_FAIL;

	memset(&srv, 0, sizeof(srv));
	srv.listen_fd = -1;
	srv.stop_fd = -1;
	srv.accept_log_fd = -1;
	if (server_parse_args(argc, argv, &srv.cfg))
		return HS_EXIT_USAGE;
	if (srv.cfg.accept_log) {
		srv.accept_log_fd = open(srv.cfg.accept_log, O_WRONLY | O_CREAT |
					 O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
		if (srv.accept_log_fd < 0) {
			hs_err("--accept-log %s: %s", srv.cfg.accept_log,
			       strerror(errno));
			return HS_EXIT_FAIL;
		}
	}
	if (srv.cfg.ready_file)
		unlink(srv.cfg.ready_file);	/* a stale one must not count */

	/* Signals are taken synchronously by the main thread only */
	sigemptyset(&signals);
	sigaddset(&signals, SIGINT);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &signals, NULL);
	srv.pattern = srv.cfg.mode == MODE_HARD_REG ? TEE_SHM_REGISTERED :
		      srv.cfg.mode == MODE_HARD_ALLOC ? TEE_SHM_ALLOCATED :
		      srv.cfg.mode == MODE_HARD_SHARED ? TEE_SHM_SHARED :
							 TEE_SHM_TEMPORARY;
	signal(SIGPIPE, SIG_IGN);

	if (srv.cfg.mode != MODE_SOFT &&
	    tee_find_device(srv.cfg.tee_dev, srv.tee_path, sizeof(srv.tee_path)))
		return HS_EXIT_FAIL;
	if (server_listen(&srv))
		goto out;
	srv.stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (srv.stop_fd < 0) {
		hs_err("eventfd: %s", strerror(errno));
		goto out;
	}
	srv.workers = aligned_alloc(CACHE_LINE, srv.cfg.workers * sizeof(*srv.workers));
	if (!srv.workers) {
		hs_err("out of memory");
		goto out;
	}
	memset(srv.workers, 0, srv.cfg.workers * sizeof(*srv.workers));

	pthread_mutex_init(&srv.gate_lock, NULL);
	pthread_cond_init(&srv.gate_cond, NULL);
	for (i = 0; i < srv.cfg.workers; i++) {
		struct worker *w = &srv.workers[i];
		int err;

		w->srv = &srv;
		w->index = i;
		w->epoll_fd = -1;
		w->accept_errors_to_show = 3;
		err = pthread_create(&w->thread, NULL, worker_main, w);
		if (err) {
			hs_err("cannot start worker %u: %s", i, strerror(err));
			break;
		}
		started++;
	}
	if (server_open_gate(&srv, started)) {
		server_stop_workers(&srv, started);
		hs_err("server not started: a worker could not be set up");
		goto out_gate;
	}

	if (srv.cfg.ready_file &&
	    server_write_ready_file(&srv, srv.cfg.ready_file)) {
		server_stop_workers(&srv, started);
		goto out_gate;
	}
	hs_err("server on %s: %u workers, mode %s%s%s, %u crypto calls of %zu bytes per handshake",
	       srv.listen_name, srv.cfg.workers, server_mode_names[srv.cfg.mode],
	       srv.cfg.mode == MODE_SOFT ? "" : " on ",
	       srv.cfg.mode == MODE_SOFT ? "" : srv.tee_path,
	       srv.cfg.crypto_calls, hs_buffer_len(srv.cfg.payload));

	start_ns = hs_now_ns();
	reason = server_wait_for_stop(&srv, start_ns);
	elapsed = (hs_now_ns() - start_ns) / 1e9;
	server_stop_workers(&srv, started);
	if (srv.cfg.json)
		server_print_json(&srv, reason, elapsed);
	else
		server_print_text(&srv, reason, elapsed);
	status = HS_EXIT_OK;

out_gate:
	pthread_cond_destroy(&srv.gate_cond);
	pthread_mutex_destroy(&srv.gate_lock);
out:
	free(srv.workers);
	if (srv.accept_log_fd >= 0)
		close(srv.accept_log_fd);
	if (srv.stop_fd >= 0)
		close(srv.stop_fd);
	if (srv.listen_fd >= 0)
		close(srv.listen_fd);
	return status;
}
