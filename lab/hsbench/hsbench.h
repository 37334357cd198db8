/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hsbench.h - shared declarations of the hsbench handshake load generator.
 */
#ifndef HSBENCH_H
#define HSBENCH_H

#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#define HSBENCH_VERSION		"0.1"

/* Exit statuses */
#define HS_EXIT_OK		0
#define HS_EXIT_FAIL		1	/* run-time failure, or errors counted */
#define HS_EXIT_USAGE		2	/* bad command line */

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/*
 * counter_inc - add one to a counter that only the calling thread writes.
 * Relaxed atomics: no lock and no locked instruction on the hot path, but
 * other threads may read the counter (counter_read) while it runs.
 */
static inline void counter_inc(uint64_t *counter)
{
	__atomic_store_n(counter, __atomic_load_n(counter, __ATOMIC_RELAXED) + 1,
			 __ATOMIC_RELAXED);
}

/* counter_read - read a counter that another thread may be writing */
static inline uint64_t counter_read(const uint64_t *counter)
{
	return __atomic_load_n(counter, __ATOMIC_RELAXED);
}

/* util.c */
void hs_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
uint64_t hs_now_ns(void);
int hs_parse_uint(const char *opt, const char *text, unsigned long long min,
		  unsigned long long max, unsigned long long *out);
int hs_parse_seconds(const char *opt, const char *text, double *out);
int hs_resolve_endpoint(const char *text, int passive,
			struct sockaddr_storage *addr, socklen_t *addr_len);
void hs_format_endpoint(const struct sockaddr *addr, socklen_t addr_len,
			char *out, size_t out_size);
void hs_json_string(FILE *f, const char *text);

/* main.c */
void hs_usage(FILE *f);

/* server.c, client.c */
int server_main(int argc, char **argv);
int client_main(int argc, char **argv);

#endif /* HSBENCH_H */
