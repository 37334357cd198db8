// SPDX-License-Identifier: GPL-2.0
/*
 * test_endpoint.c - unit tests for lab/common/endpoint.c, the ADDR:PORT
 * parser of hsbench and udpbench: IPv4 and bracketed IPv6, the port's
 * range for bind() and connect(), and every malformed form with its
 * reason.
 */
#include <arpa/inet.h>
#include <netinet/in.h>

#include "lab_endpoint.h"
#include "tap.h"

/* ok_v4 - @text gives AF_INET @ip:@port */
static void ok_v4(const char *text, bool passive, const char *ip, int port)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	char err[256] = "", got[INET_ADDRSTRLEN] = "?";
	socklen_t len = 0;
	int rc = lab_endpoint(text, SOCK_DGRAM, passive, &ss, &len, err,
			      sizeof(err));

	if (!rc)
		inet_ntop(AF_INET, &in->sin_addr, got, sizeof(got));
	tap_ok(!rc && in->sin_family == AF_INET && len == sizeof(*in) &&
	       !strcmp(got, ip) && ntohs(in->sin_port) == port,
	       "'%s'%s -> %s port %d (%s)", text, passive ? " (bind)" : "",
	       got, rc ? -1 : ntohs(in->sin_port), err);
}

/* ok_v6 - @text gives AF_INET6 @ip:@port */
static void ok_v6(const char *text, const char *ip, int port)
{
	struct sockaddr_storage ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	char err[256] = "", got[INET6_ADDRSTRLEN] = "?";
	socklen_t len = 0;
	int rc = lab_endpoint(text, SOCK_STREAM, false, &ss, &len, err,
			      sizeof(err));

	if (!rc)
		inet_ntop(AF_INET6, &in6->sin6_addr, got, sizeof(got));
	tap_ok(!rc && in6->sin6_family == AF_INET6 && len == sizeof(*in6) &&
	       !strcmp(got, ip) && ntohs(in6->sin6_port) == port,
	       "'%s' -> [%s] port %d (%s)", text, got,
	       rc ? -1 : ntohs(in6->sin6_port), err);
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

	ok_v4("127.0.0.1:7000", false, "127.0.0.1", 7000);
	ok_v4("10.0.0.2:1", false, "10.0.0.2", 1);
	ok_v4("10.0.0.2:65535", false, "10.0.0.2", 65535);
	ok_v4("0.0.0.0:0", true, "0.0.0.0", 0);
	ok_v6("[::1]:7000", "::1", 7000);
	ok_v6("[fd00::2]:443", "fd00::2", 443);

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
