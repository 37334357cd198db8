/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abi.h - what teeprobe.ko's debugfs files and events show, named once for
 * the module and for the tools, which include this file too
 * (tools/stats.h, tools/modstats.h, tools/report.c): the histograms'
 * bucket count, the TCP counters and handshake phases with their names,
 * tcp_phases' header. Enums, macros and the histograms' bucket mapping
 * (plain C on unsigned long long): no kernel or libc type, so both sides
 * compile it.
 */
#ifndef TEEPROBE_ABI_H
#define TEEPROBE_ABI_H

/*
 * Latency histograms (hist.h), log-linear (HDR-style) in units of
 * 2^TEEPROBE_HIST_UNIT_SHIFT ns (128 ns: the lowest discernible value):
 * values below TEEPROBE_HIST_SUB units (1024 ns) have a bucket a unit;
 * above, each power-of-two range [2^e, 2^(e+1)) is split into
 * TEEPROBE_HIST_SUB buckets of equal width 2^(e - TEEPROBE_HIST_SUB_BITS),
 * so a bucket is at most 1/TEEPROBE_HIST_SUB (12.5 %) of its low edge
 * wide. The last bucket holds everything from 2^TEEPROBE_HIST_TOP_SHIFT ns
 * (about 2.1 s) up. Every *_hist file ends with "# hist_sub_bits N" and
 * "# hist_unit_shift N". teeprobe_hist_index() and teeprobe_hist_low()
 * are the mapping, for the module and the tools alike.
 */
#define TEEPROBE_HIST_UNIT_SHIFT	7
#define TEEPROBE_HIST_SUB_BITS	3
#define TEEPROBE_HIST_SUB	(1 << TEEPROBE_HIST_SUB_BITS)
#define TEEPROBE_HIST_TOP_SHIFT	31
#define TEEPROBE_HIST_BUCKETS \
	((TEEPROBE_HIST_TOP_SHIFT - TEEPROBE_HIST_UNIT_SHIFT - \
	  TEEPROBE_HIST_SUB_BITS + 1) * TEEPROBE_HIST_SUB + 1)

/* teeprobe_hist_index - the bucket that counts @ns */
static inline unsigned int teeprobe_hist_index(unsigned long long ns)
{
	unsigned long long u = ns >> TEEPROBE_HIST_UNIT_SHIFT;
	unsigned int shift;

	if (u < TEEPROBE_HIST_SUB)
		return u;
	if (ns >= 1ULL << TEEPROBE_HIST_TOP_SHIFT)
		return TEEPROBE_HIST_BUCKETS - 1;
	/* u >> shift is in [SUB, 2 * SUB): the sub-bucket, plus SUB */
	shift = 63 - __builtin_clzll(u) - TEEPROBE_HIST_SUB_BITS;
	return shift * TEEPROBE_HIST_SUB + (unsigned int)(u >> shift);
}

/*
 * teeprobe_hist_low - the smallest value (ns) bucket @i counts; past the
 * last bucket, the last bucket's
 */
static inline unsigned long long teeprobe_hist_low(unsigned int i)
{
	if (i >= TEEPROBE_HIST_BUCKETS)
		i = TEEPROBE_HIST_BUCKETS - 1;
	if (i < TEEPROBE_HIST_SUB)
		return (unsigned long long)i << TEEPROBE_HIST_UNIT_SHIFT;
	return (unsigned long long)(TEEPROBE_HIST_SUB + i % TEEPROBE_HIST_SUB) <<
	       (i / TEEPROBE_HIST_SUB - 1 + TEEPROBE_HIST_UNIT_SHIFT);
}

/*
 * The log2 layout of modules before it, which the tools still read (a
 * *_hist file without "# hist_sub_bits"): bucket 0 holds 0 and 1 ns,
 * bucket i [2^i, 2^(i+1)) ns, the last everything from
 * 2^(TEEPROBE_HIST_LOG2_BUCKETS - 1) up.
 */
#define TEEPROBE_HIST_LOG2_BUCKETS	32

/* The counters; TEEPROBE_TCP_COUNTER_NAMES gives their debugfs names. */
enum teeprobe_tcp_counter {
	TEEPROBE_TCP_SYNS,		/* SYNs to a listener (tcp_conn_request) */
	TEEPROBE_TCP_SYNACKS,		/* first SYN/ACKs of request sockets */
	TEEPROBE_TCP_SYNCOOKIES,	/* SYN/ACKs with a syncookie */
	/* SYNs answered by no SYN/ACK: the rest of syns, filled in on output */
	TEEPROBE_TCP_SYN_DROPS,
	TEEPROBE_TCP_LISTEN_OVERFLOWS,	/* SYN or final ACK met a full accept queue */
	TEEPROBE_TCP_SYNACK_RETRANS,	/* SYN/ACK retransmits */
	TEEPROBE_TCP_REQ_DROPS,		/* tracked request socks freed unanswered */
	TEEPROBE_TCP_CHILDREN,		/* final ACKs that made a child socket */
	TEEPROBE_TCP_ACCEPTED,		/* server handshakes accept() handed out */
	TEEPROBE_TCP_UNTRACKED,		/* of those, not timed (no room, missed) */
	TEEPROBE_TCP_CONNECTS,		/* client SYN_SENT */
	TEEPROBE_TCP_CONNECTED,		/* client SYN_SENT -> ESTABLISHED */
	TEEPROBE_TCP_CONNECT_FAILED,	/* client SYN_SENT -> CLOSE */
	TEEPROBE_TCP_CONNECT_UNTRACKED,	/* of the connected, not timed */
	TEEPROBE_TCP_CONNECT_CALLS,	/* blocking connect() calls timed */
	TEEPROBE_TCP_COUNTERS,
};

#define TEEPROBE_TCP_COUNTER_NAMES					\
	"syns", "synacks", "syncookies", "syn_drops", "listen_overflows", \
	"synack_retrans", "req_drops", "children", "accepted", "untracked", \
	"connects", "connected", "connect_failed", "connect_untracked", \
	"connect_calls"

/* The timed phases of a handshake */
enum teeprobe_tcp_phase {
	TEEPROBE_TCP_SYN_SYNACK,	/* server: SYN -> first SYN/ACK */
	TEEPROBE_TCP_SYNACK_ACK,	/* server: SYN/ACK -> final ACK */
	TEEPROBE_TCP_ACK_ACCEPT,	/* server: final ACK -> accept() */
	TEEPROBE_TCP_CONNECT,		/* client: SYN_SENT -> ESTABLISHED */
	TEEPROBE_TCP_CONNECT_CALL,	/* client: a blocking connect() call */
	TEEPROBE_TCP_SYN_WAIT,		/* server: the SYN's wait for NET_RX */
	/* server: the final ACK's wait for NET_RX (a part of synack_ack) */
	TEEPROBE_TCP_ACK_WAIT,
	TEEPROBE_TCP_PHASES,
};

#define TEEPROBE_TCP_PHASE_NAMES \
	"syn_synack", "synack_ack", "ack_accept", "connect", "connect_call", \
	"syn_wait", "ack_wait"

/*
 * tcp_phases' header: a port ("other" for the ports not followed by
 * number), a phase of TEEPROBE_TCP_PHASE_NAMES, then five numbers in ns
 * (p50 and p99 placed within the log-linear buckets that hold them)
 */
#define TEEPROBE_TCP_PHASES_HEADER \
	"port phase count sum_ns max_ns p50_ns p99_ns"

#endif /* TEEPROBE_ABI_H */
