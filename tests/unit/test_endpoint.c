// SPDX-License-Identifier: GPL-2.0
/*
 * test_endpoint.c - unit tests for lab/common/endpoint.c, the ADDR:PORT
 * parser of hsbench and udpbench: IPv4 and bracketed IPv6, the port's
 * range for bind() and connect(), and every malformed form with its
 * reason.
 */
#include <netdb.h>
#include <netinet/in.h>

#include "lab_endpoint.h"
#include "tap.h"

/*
 * ok - @text (for a socket of @socktype) gives an address of @family,
 * read back by getnameinfo() as @ip and @port
 */
static void ok(const char *text, int socktype, bool passive, int family,
	       const char *ip, const char *port)
{
	char err[256] = "", host[NI_MAXHOST] = "?", serv[NI_MAXSERV] = "?";
	struct sockaddr_storage ss = { 0 };
	socklen_t len = 0;
	int rc = lab_endpoint(text, socktype, passive, &ss, &len, err,
			      sizeof(err));

	if (!rc)
		getnameinfo((struct sockaddr *)&ss, len, host, sizeof(host),
			    serv, sizeof(serv), NI_NUMERICHOST | NI_NUMERICSERV);
	tap_ok(!rc && ss.ss_family == family &&
	       len == (family == AF_INET ? sizeof(struct sockaddr_in) :
					   sizeof(struct sockaddr_in6)) &&
	       !strcmp(host, ip) && !strcmp(serv, port),
	       "'%s'%s -> %s port %s (%s)", text, passive ? " (bind)" : "",
	       host, serv, err);
}

/* bad - @text is refused, and the reason contains @why */
static void bad(const char *text, bool passive, const char *why)
{
	struct sockaddr_storage ss;
	char err[256] = "";
	socklen_t len = 0;
	int rc = lab_endpoint(text, SOCK_STREAM, passive, &ss, &len, err,
			      sizeof(err));

	tap_ok(rc == -1 && strstr(err, why), "'%s'%s refused: %s", text,
	       passive ? " (bind)" : "", err);
}

int main(void)
{
	char longhost[400];

	ok("127.0.0.1:7000", SOCK_DGRAM, false, AF_INET, "127.0.0.1", "7000");
	ok("10.0.0.2:1", SOCK_DGRAM, false, AF_INET, "10.0.0.2", "1");
	ok("10.0.0.2:65535", SOCK_DGRAM, false, AF_INET, "10.0.0.2", "65535");
	ok("0.0.0.0:0", SOCK_DGRAM, true, AF_INET, "0.0.0.0", "0");
	ok("[::1]:7000", SOCK_STREAM, false, AF_INET6, "::1", "7000");
	ok("[fd00::2]:443", SOCK_STREAM, false, AF_INET6, "fd00::2", "443");

	bad("127.0.0.1", false, "want ADDR:PORT");
	bad("", false, "want ADDR:PORT");
	bad("[::1", false, "want [IPV6]:PORT");
	bad("[::1]7000", false, "want [IPV6]:PORT");
	bad("::1:7000", false, "in brackets");
	bad(":7000", false, "empty or too long host part");
	bad("[]:7000", false, "empty or too long host part");
	memset(longhost, 'a', sizeof(longhost));
	strcpy(longhost + 300, ":80");
	bad(longhost, false, "empty or too long host part");
	bad("127.0.0.1:0", false, "not a number in 1..65535");
	bad("127.0.0.1:65536", true, "not a number in 0..65535");
	bad("127.0.0.1:99999999999999999999999", false, "not a number");
	bad("127.0.0.1:", false, "not a number");
	bad("127.0.0.1:-1", false, "not a number");
	bad("127.0.0.1:+80", false, "not a number");
	bad("127.0.0.1: 80", false, "not a number");
	bad("127.0.0.1:80x", false, "not a number");
	bad("999.1.1.1:80", false, "cannot resolve");
	bad("nosuchhost.invalid:80", false, "cannot resolve");
	return tap_done();
}
