/* SPDX-License-Identifier: GPL-2.0 */
/*
 * abi.h - the contract between teeprobe.ko and its readers: the
 * histograms' bucket layout, and every debugfs file, column, "# key value"
 * line and trace event field, named once for the module, the tools, the
 * check of the documentation and the tests' reader, which all include or
 * read this file. Enums, X-macro lists and the histograms' bucket mapping
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

/*
 * ---- The contract: files, columns, "# key value" lines, event fields ----
 *
 * Every file of /sys/kernel/debug/teeprobe/, every column of its table,
 * every "# key value" line and every field of every trace event is named
 * once, below, as an X-macro list: a user expands a list with a macro of
 * its own for X. The module's printers and trace events, the tools' parser
 * and their Prometheus names, and the check of Documentation/ all expand
 * these lists; nothing else spells a file, a column or a field. Readers
 * look columns and fields up by name, so an older module's files stay
 * readable, and a new column only ever goes at the end of its list.
 *
 * The entries of a list stand with no white space between them (a line
 * ends in ")\" and the next one starts in column 0): the trace events
 * stringify their printk arguments, and a space there would show in the
 * events' formats.
 */

/*
 * X(ID, name, mode): the files of /sys/kernel/debug/teeprobe/, in the
 * order Documentation/debugfs.rst describes them
 */
#define TEEPROBE_FILES(X)\
X(VERSION, version, 0400)\
X(GENERATION, generation, 0400)\
X(RESET, reset, 0200)\
X(PID_FILTER, pid_filter, 0600)\
X(TEE_PROBES, tee_probes, 0400)\
X(TEE_STATS, tee_stats, 0400)\
X(TEE_HIST, tee_hist, 0400)\
X(TEE_THREADS, tee_threads, 0400)\
X(NETRX_STATS, netrx_stats, 0400)\
X(NETRX_HIST, netrx_hist, 0400)\
X(HOOKS, hooks, 0400)\
X(MEMORY, memory, 0400)\
X(TCP_PROBES, tcp_probes, 0400)\
X(TCP_STATS, tcp_stats, 0400)\
X(TCP_PHASES, tcp_phases, 0400)\
X(TCP_HIST, tcp_hist, 0400)

#define TEEPROBE_FILE_ENUM(id, name, mode) TEEPROBE_FILE_##id,
enum teeprobe_file_id {
	TEEPROBE_FILES(TEEPROBE_FILE_ENUM)
	TEEPROBE_NR_FILES
};
#undef TEEPROBE_FILE_ENUM

/* teeprobe_file_name - the name of file @id in the directory */
static inline const char *teeprobe_file_name(unsigned int id)
{
#define TEEPROBE_FILE_NAME(id, name, mode) #name,
	static const char *const names[] = { TEEPROBE_FILES(TEEPROBE_FILE_NAME) };
#undef TEEPROBE_FILE_NAME
	return id < TEEPROBE_NR_FILES ? names[id] : "";
}

/* teeprobe_file_mode - the permissions of file @id */
static inline unsigned int teeprobe_file_mode(unsigned int id)
{
#define TEEPROBE_FILE_MODE(id, name, mode) mode,
	static const unsigned int modes[] = { TEEPROBE_FILES(TEEPROBE_FILE_MODE) };
#undef TEEPROBE_FILE_MODE
	return id < TEEPROBE_NR_FILES ? modes[id] : 0;
}

/*
 * The kinds of column (the second argument of a column's entry):
 *   KEY    text that names the row (a CPU, a command, a port, a symbol)
 *   TEXT   other text
 *   INT    a signed number (an errno)
 *   ID     a whole number that names the row (a process id)
 *   NUM    a whole number (a percentile)
 *   COUNT  a count, added over CPUs
 *   NS     a time in ns, added over CPUs
 *   MAX    a time in ns, the largest of the CPUs'
 *   DELAY  a histogram of NET_RX raise -> entry delays: three columns,
 *          name_count (COUNT), name_sum_ns (NS) and name_max_ns (MAX); in
 *          teeprobe_netrx_window also name_p99_ns before the maximum
 * The tools hold KEY, TEXT and INT as text, the others as numbers. An
 * entry X(name, kind, ...) may carry more after the kind: a counter the
 * tools export has its Prometheus metric (a string, without "teeprobe_")
 * and help (no metric when it is ""); a DELAY its "context" label's value.
 */

/*
 * The tables. A file's header line is "# " and its keys' names, then its
 * columns' (a *_hist file's: "bucket_low_ns", "cpuN" a CPU, "all").
 */
#define TEEPROBE_HOOKS_COLS(X)\
X(part, KEY)\
X(tracepoint, KEY)

#define TEEPROBE_TEE_PROBES_COLS(X)\
X(symbol, KEY)\
X(role, TEXT)\
X(state, TEXT)\
X(error, INT)\
X(nmissed, COUNT)\
X(calls, COUNT)\
X(total_ns, NS)\
X(max_ns, MAX)

#define TEEPROBE_TEE_STATS_KEYS(X)\
X(cpu, KEY)\
X(cmd, KEY)

/* tee_stats: a TEE command's counters on a CPU, or on all */
#define TEEPROBE_TEE_STATS_COLS(X)\
X(calls, COUNT, "tee_ioctls_total",\
	"TEE ioctls that ended, by command (and with --per-cpu the CPU they ended on).")\
X(errors, COUNT, "tee_ioctl_errors_total",\
	"TEE ioctls that returned an error.")\
X(total_ns, NS, "tee_ioctl_seconds_total",\
	"Time spent inside TEE ioctls.")\
X(offcpu_ns, NS, "tee_ioctl_blocked_seconds_total",\
	"Part of the TEE ioctls' time their thread was blocked (asleep, off CPU).")\
X(runq_ns, NS, "tee_ioctl_runqueue_seconds_total",\
	"Part of the TEE ioctls' time their thread was preempted, waiting for a CPU.")\
X(queue_wait_ns, NS, "tee_ioctl_queue_wait_seconds_total",\
	"Part of the TEE ioctls' time spent in the driver's wait functions (for a free secure thread).")\
X(max_ns, MAX, "tee_ioctl_max_seconds",\
	"Longest TEE ioctl since the module was loaded or reset.")\
X(secure_entries, COUNT, "", "")\
X(secure_ns, NS, "", "")

#define TEEPROBE_TEE_HIST_KEYS(X)\
X(cmd, KEY)

#define TEEPROBE_TEE_THREADS_COLS(X)\
X(tgid, ID)\
X(tid, ID)\
X(comm, TEXT)\
X(calls, COUNT)\
X(total_ns, NS)\
X(offcpu_ns, NS)\
X(queue_wait_ns, NS)

#define TEEPROBE_NETRX_STATS_KEYS(X)\
X(cpu, KEY)

/* netrx_stats' columns, and teeprobe_netrx_window's fields after its window */
#define TEEPROBE_NETRX_STATS_COLS(X)\
X(raises, COUNT, "netrx_raises_total",\
	"NET_RX softirq raises (irq:softirq_raise).")\
X(runs, COUNT, "netrx_runs_total",\
	"NET_RX softirq runs (irq:softirq_entry, as /proc/softirqs counts them).")\
X(ksoftirqd_runs, COUNT, "netrx_ksoftirqd_runs_total",\
	"NET_RX runs made by ksoftirqd; the others ran inline (irq exit, bh enable).")\
X(run_ns, NS, "netrx_run_seconds_total",\
	"Time spent in net_rx_action.")\
X(run_max_ns, MAX, "netrx_run_max_seconds",\
	"Longest NET_RX run since the module was loaded or reset.")\
X(packets, COUNT, "netrx_packets_total",\
	"Packets napi polls handed to the stack (napi:napi_poll work).")\
X(polls, COUNT, "netrx_polls_total",\
	"Napi polls (napi:napi_poll).")\
X(budget_full, COUNT, "netrx_budget_full_polls_total",\
	"Napi polls that used their whole budget.")\
X(reraises, COUNT, "netrx_reraises_total",\
	"NET_RX runs that left work behind and raised NET_RX again.")\
X(inline_delay, DELAY, inline)\
X(ksoftirqd_delay, DELAY, ksoftirqd)\
X(tee_runs, COUNT, "netrx_tee_runs_total",\
	"NET_RX runs whose wait overlapped a followed TEE ioctl running on their CPU.")\
X(tee_delay_sum_ns, NS, "netrx_tee_delay_seconds_total",\
	"The part of NET_RX waits during which TEE ioctls held the CPU.")\
X(squeezes, COUNT, "netrx_squeezed_runs_total",\
	"NET_RX runs that reached their budget or time limit, where net_rx_action stops (softnet_stat's time_squeeze).")

#define TEEPROBE_NETRX_HIST_KEYS(X)\
X(hist, KEY)

/*
 * netrx_hist's histograms, in its order: those of netrx_stats' DELAY
 * columns, then X(run, HIST, run_ns), the runs' durations (entry -> exit),
 * whose sum is netrx_stats' run_ns: a user takes the DELAY and HIST
 * entries
 */
#define TEEPROBE_NETRX_HISTS(X)\
TEEPROBE_NETRX_STATS_COLS(X)\
X(run, HIST, run_ns)

#define TEEPROBE_TCP_PROBES_COLS(X)\
X(symbol, KEY)\
X(type, TEXT)\
X(state, TEXT)\
X(error, INT)\
X(nmissed, COUNT)

#define TEEPROBE_TCP_STATS_KEYS(X)\
X(cpu, KEY)\
X(port, KEY)

/*
 * X(name, COUNT, metric, help, ID, window): the TCP counters, tcp_stats'
 * columns after cpu and port; those with WIN are teeprobe_tcp_window's
 * fields too (its untracked counts the client's connect_untracked too)
 */
#define TEEPROBE_TCP_COUNTER_LIST(X)\
X(syns, COUNT, "tcp_syns_total",\
	"SYNs that reached a listener (tcp_conn_request), by port.",\
	SYNS, WIN)\
X(synacks, COUNT, "tcp_synacks_total",\
	"SYNs answered by a first SYN/ACK.",\
	SYNACKS, WIN)\
X(syncookies, COUNT, "tcp_syncookies_total",\
	"SYNs answered by a syncookie.",\
	SYNCOOKIES, NOWIN)\
X(syn_drops, COUNT, "tcp_syn_drops_total",\
	"SYNs answered by nothing.",\
	SYN_DROPS, WIN)\
X(listen_overflows, COUNT, "tcp_listen_overflows_total",\
	"Handshakes that met a full accept queue (as TcpExt ListenOverflows).",\
	LISTEN_OVERFLOWS, WIN)\
X(synack_retrans, COUNT, "tcp_synack_retransmits_total",\
	"SYN/ACK retransmits.",\
	SYNACK_RETRANS, WIN)\
X(req_drops, COUNT, "tcp_request_drops_total",\
	"Followed request sockets freed without a child (timed out, reset, listener closed).",\
	REQ_DROPS, WIN)\
X(children, COUNT, "tcp_children_total",\
	"Final ACKs that made a child socket of a followed request.",\
	CHILDREN, NOWIN)\
X(accepted, COUNT, "tcp_accepted_total",\
	"Children handed out by accept().",\
	ACCEPTED, WIN)\
X(untracked, COUNT, "tcp_accepted_untracked_total",\
	"Accepted children that could not be timed (table full, or a probe missed a step).",\
	UNTRACKED, WIN)\
X(connects, COUNT, "tcp_connects_total",\
	"Client sockets that entered SYN_SENT.",\
	CONNECTS, NOWIN)\
X(connected, COUNT, "tcp_connected_total",\
	"Client sockets that reached ESTABLISHED.",\
	CONNECTED, WIN)\
X(connect_failed, COUNT, "tcp_connect_failures_total",\
	"Client sockets that went from SYN_SENT back to CLOSE.",\
	CONNECT_FAILED, WIN)\
X(connect_untracked, COUNT, "tcp_connected_untracked_total",\
	"Client connections that reached ESTABLISHED but could not be timed.",\
	CONNECT_UNTRACKED, NOWIN)\
X(connect_calls, COUNT, "tcp_connect_calls_total",\
	"Blocking connect() calls timed.",\
	CONNECT_CALLS, NOWIN)

/*
 * The counters, as the module counts them: SYNs to a listener
 * (tcp_conn_request); first SYN/ACKs of request sockets; SYN/ACKs with a
 * syncookie; SYNs answered by no SYN/ACK (the rest of syns, filled in on
 * output); a SYN or final ACK that met a full accept queue; SYN/ACK
 * retransmits; tracked request socks freed unanswered; final ACKs that
 * made a child socket; server handshakes accept() handed out, and of
 * those the ones not timed (no room, missed); client SYN_SENT, SYN_SENT
 * -> ESTABLISHED and SYN_SENT -> CLOSE, of the connected the ones not
 * timed; blocking connect() calls timed.
 */
#define TEEPROBE_TCP_COUNTER_ENUM(name, kind, metric, help, id, window) \
	TEEPROBE_TCP_##id,
enum teeprobe_tcp_counter {
	TEEPROBE_TCP_COUNTER_LIST(TEEPROBE_TCP_COUNTER_ENUM)
	TEEPROBE_TCP_COUNTERS,
};
#undef TEEPROBE_TCP_COUNTER_ENUM

/*
 * X(ID, name, window): the timed phases of a handshake (tcp_phases' and
 * tcp_hist's phase column); those with WIN are in teeprobe_tcp_window,
 * and come first. Server: SYN -> first SYN/ACK, SYN/ACK -> final ACK,
 * final ACK -> accept(); client: SYN_SENT -> ESTABLISHED, a blocking
 * connect() call; server: the SYN's wait for NET_RX, the final ACK's
 * wait for NET_RX (a part of synack_ack).
 */
#define TEEPROBE_TCP_PHASE_LIST(X)\
X(SYN_SYNACK, syn_synack, WIN)\
X(SYNACK_ACK, synack_ack, WIN)\
X(ACK_ACCEPT, ack_accept, WIN)\
X(CONNECT, connect, WIN)\
X(CONNECT_CALL, connect_call, WIN)\
X(SYN_WAIT, syn_wait, NOWIN)\
X(ACK_WAIT, ack_wait, NOWIN)

#define TEEPROBE_TCP_PHASE_ENUM(id, name, window) TEEPROBE_TCP_##id,
enum teeprobe_tcp_phase {
	TEEPROBE_TCP_PHASE_LIST(TEEPROBE_TCP_PHASE_ENUM)
	TEEPROBE_TCP_PHASES,
};
#undef TEEPROBE_TCP_PHASE_ENUM

/* teeprobe_tcp_phase_name - the name of @phase in the files */
static inline const char *teeprobe_tcp_phase_name(unsigned int phase)
{
#define TEEPROBE_TCP_PHASE_NAME(id, name, window) #name,
	static const char *const names[] = {
		TEEPROBE_TCP_PHASE_LIST(TEEPROBE_TCP_PHASE_NAME)
	};
#undef TEEPROBE_TCP_PHASE_NAME
	return phase < TEEPROBE_TCP_PHASES ? names[phase] : "?";
}

/* teeprobe_tcp_counter_name - the name of @counter's column */
static inline const char *teeprobe_tcp_counter_name(unsigned int counter)
{
#define TEEPROBE_TCP_COUNTER_NAME(name, ...) #name,
	static const char *const names[] = {
		TEEPROBE_TCP_COUNTER_LIST(TEEPROBE_TCP_COUNTER_NAME)
	};
#undef TEEPROBE_TCP_COUNTER_NAME
	return counter < TEEPROBE_TCP_COUNTERS ? names[counter] : "?";
}

/*
 * tcp_phases: a port ("other" for the ports not followed by number), a
 * phase, then five numbers in ns (p50 and p99 placed within the
 * log-linear buckets that hold them)
 */
#define TEEPROBE_TCP_PHASES_COLS(X)\
X(port, KEY)\
X(phase, KEY)\
X(count, COUNT)\
X(sum_ns, NS)\
X(max_ns, MAX)\
X(p50_ns, NUM)\
X(p99_ns, NUM)

#define TEEPROBE_TCP_HIST_KEYS(X)\
X(port, KEY)\
X(phase, KEY)

/*
 * The words a table's rows and columns share: the row of all CPUs (the
 * cpu key "all"), the port of every port not followed by number
 * ("other"), and a *_hist file's columns after its keys: the bucket's low
 * edge, "cpuN" a CPU, "all"
 */
#define TEEPROBE_ALL			"all"
#define TEEPROBE_TCP_OTHER_PORT		"other"
#define TEEPROBE_HIST_LOW_COL		"bucket_low_ns"
#define TEEPROBE_HIST_CPU_COL		"cpu"
#define TEEPROBE_HIST_ALL_COL		"all"

/*
 * TEEPROBE_COLS_STR(list) - the names of a list's columns as one string,
 * each after a space; TEEPROBE_HEADER(keys, columns) - a table's header
 * line ("# cpu cmd calls ...\n")
 */
#define TEEPROBE_COL_STR(name, kind, ...) TEEPROBE_COL_STR_##kind(name)
#define TEEPROBE_COL_STR_KEY(name)	" " #name
#define TEEPROBE_COL_STR_TEXT(name)	" " #name
#define TEEPROBE_COL_STR_INT(name)	" " #name
#define TEEPROBE_COL_STR_ID(name)	" " #name
#define TEEPROBE_COL_STR_NUM(name)	" " #name
#define TEEPROBE_COL_STR_COUNT(name)	" " #name
#define TEEPROBE_COL_STR_NS(name)	" " #name
#define TEEPROBE_COL_STR_MAX(name)	" " #name
#define TEEPROBE_COL_STR_DELAY(name) \
	" " #name "_count " #name "_sum_ns " #name "_max_ns"
#define TEEPROBE_COLS_STR(list)		list(TEEPROBE_COL_STR)
#define TEEPROBE_HEADER(keys, columns) \
	"#" TEEPROBE_COLS_STR(keys) TEEPROBE_COLS_STR(columns) "\n"

/*
 * X(file, keys, columns): every file that holds a table, with the lists
 * of its keys and of its columns (TEEPROBE_NONE: a histogram file, whose
 * bucket columns follow the keys; a file without keys)
 */
#define TEEPROBE_NONE(X)
#define TEEPROBE_TABLES(X)\
X(TEE_PROBES, TEEPROBE_NONE, TEEPROBE_TEE_PROBES_COLS)\
X(TEE_STATS, TEEPROBE_TEE_STATS_KEYS, TEEPROBE_TEE_STATS_COLS)\
X(TEE_HIST, TEEPROBE_TEE_HIST_KEYS, TEEPROBE_NONE)\
X(TEE_THREADS, TEEPROBE_NONE, TEEPROBE_TEE_THREADS_COLS)\
X(NETRX_STATS, TEEPROBE_NETRX_STATS_KEYS, TEEPROBE_NETRX_STATS_COLS)\
X(NETRX_HIST, TEEPROBE_NETRX_HIST_KEYS, TEEPROBE_NONE)\
X(HOOKS, TEEPROBE_NONE, TEEPROBE_HOOKS_COLS)\
X(TCP_PROBES, TEEPROBE_NONE, TEEPROBE_TCP_PROBES_COLS)\
X(TCP_STATS, TEEPROBE_TCP_STATS_KEYS, TEEPROBE_TCP_COUNTER_LIST)\
X(TCP_PHASES, TEEPROBE_NONE, TEEPROBE_TCP_PHASES_COLS)\
X(TCP_HIST, TEEPROBE_TCP_HIST_KEYS, TEEPROBE_NONE)

/*
 * X(ID, key): the "# key value" lines (memory's "key value" lines too),
 * every file's in one list: the preset (tee_probes); calls timed without
 * an off-CPU split (tee_stats); calls of threads beyond tee_threads'
 * (tee_threads); the handshakes' table and its timeout (tcp_stats); the
 * threads that accept (tcp_stats); phases of a port without histograms
 * yet (tcp_phases); the window length (netrx_stats, tcp_stats); the
 * histograms' layout (every *_hist file); what a file could not show
 * (any); per-CPU memory (memory)
 */
#define TEEPROBE_KEYS(X)\
X(PRESET, preset)\
X(UNTRACKED, untracked)\
X(OVERFLOW, overflow)\
X(TABLE_SIZE, table_size)\
X(TABLE_IN_USE, table_in_use)\
X(TABLE_EXPIRED, table_expired)\
X(TABLE_FULL, table_full)\
X(TIMEOUT_S, timeout_s)\
X(ACCEPTORS, acceptors)\
X(ACCEPTORS_MAX, acceptors_max)\
X(ACCEPTORS_OVERFLOW, acceptors_overflow)\
X(PHASES_LOST, phases_lost)\
X(BLOCKS_MISSING, blocks_missing)\
X(WINDOW_MS, window_ms)\
X(HIST_SUB_BITS, hist_sub_bits)\
X(HIST_UNIT_SHIFT, hist_unit_shift)\
X(ERROR, error)\
X(PERCPU_BYTES, percpu_bytes)

#define TEEPROBE_KEY_ENUM(id, key) TEEPROBE_KEY_##id,
enum teeprobe_key {
	TEEPROBE_KEYS(TEEPROBE_KEY_ENUM)
	TEEPROBE_NR_KEYS
};
#undef TEEPROBE_KEY_ENUM

/* teeprobe_key_name - the word of "# key value" line @key */
static inline const char *teeprobe_key_name(unsigned int key)
{
#define TEEPROBE_KEY_NAME(id, key) #key,
	static const char *const names[] = { TEEPROBE_KEYS(TEEPROBE_KEY_NAME) };
#undef TEEPROBE_KEY_NAME
	return key < TEEPROBE_NR_KEYS ? names[key] : "";
}

/*
 * X(ID, name): the state of a probe (tee_probes, tcp_probes): attached;
 * not found (not in the kernel or a loaded module: a TEE probe attaches
 * when a module that has it loads); failed (found, and refused); absent
 * (not in the version of the driver that is loaded: a function only some
 * versions have, or one of alternatives whose other is attached)
 */
#define TEEPROBE_PROBE_STATES(X)\
X(ATTACHED, "attached")\
X(NOT_FOUND, "not-found")\
X(FAILED, "failed")\
X(ABSENT, "absent")

#define TEEPROBE_PROBE_STATE_ENUM(id, name) TEEPROBE_PROBE_##id,
enum teeprobe_probe_state {
	TEEPROBE_PROBE_STATES(TEEPROBE_PROBE_STATE_ENUM)
	TEEPROBE_NR_PROBE_STATES
};
#undef TEEPROBE_PROBE_STATE_ENUM

/* teeprobe_probe_state_name - @state as the files show it */
static inline const char *teeprobe_probe_state_name(unsigned int state)
{
#define TEEPROBE_PROBE_STATE_NAME(id, name) name,
	static const char *const names[] = {
		TEEPROBE_PROBE_STATES(TEEPROBE_PROBE_STATE_NAME)
	};
#undef TEEPROBE_PROBE_STATE_NAME
	return state < TEEPROBE_NR_PROBE_STATES ? names[state] : "?";
}

/*
 * X(ID, name): what teeprobe_acceptor_state's state field holds: on a CPU;
 * woken or preempted, wanting a CPU; blocked (in epoll, accept, a TEE
 * call...)
 */
#define TEEPROBE_ACCEPTOR_STATES(X)\
X(RUNNING, running)\
X(RUNNABLE, runnable)\
X(ASLEEP, asleep)

#define TEEPROBE_ACCEPTOR_STATE_ENUM(id, name) TEEPROBE_ACCEPTOR_##id,
enum teeprobe_acceptor_state {
	TEEPROBE_ACCEPTOR_STATES(TEEPROBE_ACCEPTOR_STATE_ENUM)
};
#undef TEEPROBE_ACCEPTOR_STATE_ENUM

/* X(ID, name): teeprobe_tcp_handshake's side */
#define TEEPROBE_TCP_SIDES(X)\
X(SERVER, server)\
X(CLIENT, client)

#define TEEPROBE_TCP_SIDE_ENUM(id, name) TEEPROBE_TCP_##id,
enum teeprobe_tcp_side {
	TEEPROBE_TCP_SIDES(TEEPROBE_TCP_SIDE_ENUM)
};
#undef TEEPROBE_TCP_SIDE_ENUM

/*
 * X(name): the trace events, system "teeprobe", each "teeprobe_" name.
 * The fields of each: TEEPROBE_EV_<NAME>(F, A), F(type, name) a number
 * and A(type, name, length) an array; the two window events are
 * TEEPROBE_EV_WINDOW(F, A), then, as u64 each:
 *   teeprobe_netrx_window: netrx_stats' columns in their order, a DELAY
 *     as name_count, name_sum_ns, name_p99_ns, name_max_ns;
 *   teeprobe_tcp_window: the WIN counters of TEEPROBE_TCP_COUNTER_LIST,
 *     then for each WIN phase of TEEPROBE_TCP_PHASE_LIST phase_count,
 *     phase_p50_ns, phase_p99_ns, phase_max_ns.
 * trace.h declares each event's entry from these; the tools read the
 * fields by these names.
 */
#define TEEPROBE_EVENTS(X)\
X(reset)\
X(tee_ioctl_enter)\
X(tee_ioctl_exit)\
X(netrx_window)\
X(netrx_run)\
X(tcp_handshake)\
X(acceptor_state)\
X(tcp_window)

#define TEEPROBE_EV_RESET(F, A)\
F(unsigned int, generation)

#define TEEPROBE_EV_TEE_IOCTL_ENTER(F, A)\
F(unsigned int, cmd)\
F(unsigned int, raw_cmd)

#define TEEPROBE_EV_TEE_IOCTL_EXIT(F, A)\
F(unsigned int, cmd)\
F(u64, duration_ns)\
F(u64, offcpu_ns)\
F(u64, runq_ns)\
F(u64, queue_wait_ns)\
F(u64, secure_ns)\
F(long, ret)\
A(char, comm, TASK_COMM_LEN)

/*
 * the window of a *_window event: its CPU, start and length (ns), and how
 * long after its end it was closed (late_ns, window.h). A quiet CPU's
 * window is closed by the windows' work an eighth of a window after its
 * end; one closed more than len_ns / TEEPROBE_WINDOW_LATE_DIV after it was
 * late: its CPU could not run that work in time.
 */
#define TEEPROBE_WINDOW_LATE_DIV	4
#define TEEPROBE_EV_WINDOW(F, A)\
F(int, cpu)\
F(u64, start_ns)\
F(u64, len_ns)\
F(u64, late_ns)

#define TEEPROBE_EV_NETRX_RUN(F, A)\
F(s64, delay_ns)\
F(u64, run_ns)\
F(u64, packets)\
F(u8, ksoftirqd)\
F(u8, reraised)

#define TEEPROBE_EV_TCP_HANDSHAKE(F, A)\
F(u8, side)\
F(u16, family)\
F(u16, sport)\
F(u16, dport)\
A(u8, saddr, 4)\
A(u8, daddr, 4)\
A(u8, saddr_v6, 16)\
A(u8, daddr_v6, 16)\
A(u8, saddr_sa, sizeof(struct sockaddr_in6))\
A(u8, daddr_sa, sizeof(struct sockaddr_in6))\
F(u64, syn_to_synack_ns)\
F(u64, synack_to_ack_ns)\
F(u64, ack_to_accept_ns)\
F(u64, connect_ns)\
F(u64, connect_call_ns)\
F(u32, synack_retrans)\
F(u32, syn_wait_ns)\
F(u32, ack_wait_ns)

#define TEEPROBE_EV_ACCEPTOR_STATE(F, A)\
F(pid_t, tid)\
F(u8, state)

#endif /* TEEPROBE_ABI_H */
