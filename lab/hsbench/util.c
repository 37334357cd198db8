// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - small helpers of hsbench: messages, clock, option values,
 * ADDR:PORT endpoints, JSON strings.
 */
#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hsbench.h"
#include "lab_endpoint.h"

/* hs_err - print "hsbench: <message>" on stderr */
void hs_err(const char *fmt, ...)
{
	va_list ap;

	fputs("hsbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* hs_now_ns - CLOCK_MONOTONIC in nanoseconds */
uint64_t hs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* hs_parse_uint - parse the decimal value of option @opt within [min, max] */
int hs_parse_uint(const char *opt, const char *text, unsigned long long min,
		  unsigned long long max, unsigned long long *out)
{
	unsigned long long value;
	char *end;

	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno || end == text || *end || text[0] == '-' ||
	    value < min || value > max) {
		hs_err("%s: '%s' is not a number in %llu..%llu", opt, text,
		       min, max);
		return -1;
	}
	*out = value;
	return 0;
}

/* hs_parse_seconds - parse a positive number of seconds (fractions allowed) */
int hs_parse_seconds(const char *opt, const char *text, double *out)
{
	double value;
	char *end;

	errno = 0;
	value = strtod(text, &end);
	if (errno || end == text || *end || !isfinite(value) || value <= 0 ||
	    value > 1e7) {
		hs_err("%s: '%s' is not a positive number of seconds", opt, text);
		return -1;
	}
	*out = value;
	return 0;
}

/*
 * hs_resolve_endpoint - resolve "ADDR:PORT" or "[IPV6]:PORT" into @addr.
 * @passive: for a listening socket (port 0 allowed: the kernel picks one).
 */
int hs_resolve_endpoint(const char *text, int passive,
			struct sockaddr_storage *addr, socklen_t *addr_len)
{
	char err[512];

	if (lab_endpoint(text, SOCK_STREAM, passive, addr, addr_len, err,
			 sizeof(err))) {
		hs_err("%s", err);
		return -1;
	}
	return 0;
}

/* hs_format_endpoint - "ADDR:PORT", or "[IPV6]:PORT", of a socket address */
void hs_format_endpoint(const struct sockaddr *addr, socklen_t addr_len,
			char *out, size_t out_size)
{
	char host[NI_MAXHOST], port[NI_MAXSERV];

	if (getnameinfo(addr, addr_len, host, sizeof(host), port, sizeof(port),
			NI_NUMERICHOST | NI_NUMERICSERV)) {
		snprintf(out, out_size, "?");
		return;
	}
	if (addr->sa_family == AF_INET6)
		snprintf(out, out_size, "[%s]:%s", host, port);
	else
		snprintf(out, out_size, "%s:%s", host, port);
}

/* hs_json_string - print @text as a quoted, escaped JSON string */
void hs_json_string(FILE *f, const char *text)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)text; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}
