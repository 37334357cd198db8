/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcp_counts.h - the TCP handshake counters and phases teeprobe keeps per
 * CPU and per port, per session (since load or reset) and per time
 * window; shared by the TCP part's files, the trace events and KUnit.
 */
#ifndef TEEPROBE_TCP_COUNTS_H
#define TEEPROBE_TCP_COUNTS_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/string.h>
#include <linux/types.h>

#include "abi.h"
#include "hist.h"

/* Counters and phase histograms of one port, all CPUs added */
struct teeprobe_tcp_counts {
	u64 count[TEEPROBE_TCP_COUNTERS];
	struct teeprobe_hist phase[TEEPROBE_TCP_PHASES];
};

/* The phases teeprobe_tcp_window carries: those before the NET_RX waits */
#define TEEPROBE_TCP_WINDOW_PHASES	TEEPROBE_TCP_SYN_WAIT

/* Counters and phase histograms of one CPU's window, all ports together */
struct teeprobe_tcp_window_counts {
	u64 count[TEEPROBE_TCP_COUNTERS];
	struct teeprobe_hist phase[TEEPROBE_TCP_WINDOW_PHASES];
};

/*
 * teeprobe_tcp_window_count - counter @i of a window as teeprobe_tcp_window
 * shows it: its untracked counts the client's handshakes not timed too
 */
static inline u64 teeprobe_tcp_window_count(const struct teeprobe_tcp_window_counts *c,
					    unsigned int i)
{
	if (i == TEEPROBE_TCP_UNTRACKED)
		return c->count[i] + c->count[TEEPROBE_TCP_CONNECT_UNTRACKED];
	return c->count[i];
}

/*
 * teeprobe_tcp_slot_of - the slot of @port among the @n slots of @ports:
 * its own, or 0 ("every other port") when @port is 0 or all slots are
 * taken. Slots 1 to @n - 1 are taken in order on first sight, by a
 * compare-and-exchange, so that callers on several CPUs at once agree;
 * *@taken says whether this call took the slot. Any context.
 */
static inline unsigned int teeprobe_tcp_slot_of(u32 *ports, unsigned int n,
						u16 port, bool *taken)
{
	unsigned int i;
	u32 v;

	*taken = false;
	if (!port)
		return 0;
	for (i = 1; i < n; i++) {
		v = READ_ONCE(ports[i]);
		if (v == port)
			return i;
		if (!v) {
			v = cmpxchg(&ports[i], 0, port);
			if (!v) {
				*taken = true;
				return i;
			}
			if (v == port)
				return i;
		}
	}
	return 0;
}

/* The endpoints of a handshake, as sock:inet_sock_set_state stores them */
struct teeprobe_tcp_addrs {
	u16 family;
	u16 sport;		/* local port */
	u16 dport;		/* remote port */
	u8 saddr[4];
	u8 daddr[4];
	u8 saddr_v6[16];	/* IPv4 as v4-mapped */
	u8 daddr_v6[16];
};

/*
 * teeprobe_tcp_store_sockaddrs - @a's addresses as a sockaddr_in or a
 * sockaddr_in6 by family, in buffers of sizeof(struct sockaddr_in6): the
 * layout %pISc prints (ports left 0, the event has its own fields).
 */
static inline void teeprobe_tcp_store_sockaddrs(const struct teeprobe_tcp_addrs *a,
						u8 *saddr_sa, u8 *daddr_sa)
{
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)saddr_sa;
	struct sockaddr_in6 *d6 = (struct sockaddr_in6 *)daddr_sa;
	struct sockaddr_in *s4 = (struct sockaddr_in *)saddr_sa;
	struct sockaddr_in *d4 = (struct sockaddr_in *)daddr_sa;

	memset(saddr_sa, 0, sizeof(struct sockaddr_in6));
	memset(daddr_sa, 0, sizeof(struct sockaddr_in6));
	if (a->family == AF_INET6) {
		s6->sin6_family = AF_INET6;
		d6->sin6_family = AF_INET6;
		memcpy(&s6->sin6_addr, a->saddr_v6, sizeof(s6->sin6_addr));
		memcpy(&d6->sin6_addr, a->daddr_v6, sizeof(d6->sin6_addr));
	} else {
		s4->sin_family = AF_INET;
		d4->sin_family = AF_INET;
		memcpy(&s4->sin_addr, a->saddr, sizeof(s4->sin_addr));
		memcpy(&d4->sin_addr, a->daddr, sizeof(d4->sin_addr));
	}
}

#endif /* TEEPROBE_TCP_COUNTS_H */
