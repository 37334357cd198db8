/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcp.h - the TCP handshake counters and phases teeprobe keeps per CPU and
 * per port, per session (since load or reset) and per time window; shared
 * by tcp.c and the trace events.
 */
#ifndef TEEPROBE_TCP_H
#define TEEPROBE_TCP_H

#include <linux/types.h>

#include "abi.h"
#include "hist.h"

enum teeprobe_tcp_side {
	TEEPROBE_TCP_SERVER,
	TEEPROBE_TCP_CLIENT,
};

/* Counters and phase histograms of one port (or one window) on one CPU */
struct teeprobe_tcp_counts {
	u64 count[TEEPROBE_TCP_COUNTERS];
	struct teeprobe_hist phase[TEEPROBE_TCP_PHASES];
};

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

#endif /* TEEPROBE_TCP_H */
