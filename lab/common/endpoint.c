// SPDX-License-Identifier: GPL-2.0
/*
 * endpoint.c - "ADDR:PORT" and "[IPV6]:PORT" endpoints for the lab's
 * programs (see lab_endpoint.h).
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_endpoint.h"

int lab_endpoint(const char *text, int socktype, bool passive,
		 struct sockaddr_storage *addr, socklen_t *addr_len,
		 char *err, size_t err_len)
{
	const char *host_start, *port, *colon, *close;
	struct addrinfo hints, *res;
	unsigned long long port_num;
	size_t host_len;
	char host[256], *end;
	int rc;

	if (text[0] == '[') {
		close = strchr(text, ']');
		if (!close || close[1] != ':') {
			snprintf(err, err_len, "bad address '%.100s': want [IPV6]:PORT", text);
			return -1;
		}
		host_start = text + 1;
		host_len = close - host_start;
		port = close + 2;
	} else {
		colon = strrchr(text, ':');
		if (!colon) {
			snprintf(err, err_len, "bad address '%.100s': want ADDR:PORT", text);
			return -1;
		}
		host_start = text;
		host_len = colon - text;
		if (memchr(text, ':', host_len)) {
			snprintf(err, err_len,
				 "bad address '%.100s': put IPv6 addresses in brackets, e.g. [::1]:7000",
				 text);
			return -1;
		}
		port = colon + 1;
	}
	if (host_len == 0 || host_len >= sizeof(host)) {
		snprintf(err, err_len, "bad address '%.100s': empty or too long host part",
			 text);
		return -1;
	}
	memcpy(host, host_start, host_len);
	host[host_len] = '\0';
	errno = 0;
	port_num = strtoull(port, &end, 10);
	if (errno || port[0] < '0' || port[0] > '9' || *end ||
	    port_num < (passive ? 0 : 1) || port_num > 65535) {
		snprintf(err, err_len, "port: '%.20s' is not a number in %d..65535",
			 port, passive ? 0 : 1);
		return -1;
	}

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = socktype;
	hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc) {
		snprintf(err, err_len, "cannot resolve '%s': %s", host,
			 gai_strerror(rc));
		return -1;
	}
	memcpy(addr, res->ai_addr, res->ai_addrlen);
	*addr_len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}
