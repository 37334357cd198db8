// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_teeprobe.c - a libtraceevent plugin for the teeprobe events, which
 * trace-cmd and KernelShark load from libtraceevent's plugin directory.
 *
 * teeprobe_tcp_handshake printed "family=2" and both the IPv4 and the
 * v4-mapped IPv6 addresses until the module printed the family by name
 * (files recorded with those modules keep that text); the plugin prints
 * every file's handshakes from the fields, as the module now does: the
 * family by name and only that family's addresses. The event's other
 * fields follow as "name=value", those a file's format has.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <sys/socket.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#define TEEPROBE_SYSTEM		"teeprobe"
#define TCP_HANDSHAKE		"teeprobe_tcp_handshake"

/* The numeric fields after the addresses, in the module's order */
static const char *const handshake_numbers[] = {
	"syn_to_synack_ns", "synack_to_ack_ns", "ack_to_accept_ns",
	"connect_ns", "connect_call_ns", "synack_retrans", "syn_wait_ns",
	"ack_wait_ns", NULL
};

/* family_name - AF_INET and AF_INET6 by name, others as the number */
static const char *family_name(unsigned long long family, char *buf, size_t len)
{
	if (family == AF_INET)
		return "AF_INET";
	if (family == AF_INET6)
		return "AF_INET6";
	snprintf(buf, len, "%llu", family);
	return buf;
}

/* print_addr - the address in field @name (@size bytes) of @family */
static void print_addr(struct trace_seq *s, struct tep_event *event,
		       struct tep_record *record, const char *label,
		       const char *name, int family, int size)
{
	char text[INET6_ADDRSTRLEN];
	unsigned char *raw;
	int len;

	raw = tep_get_field_raw(s, event, name, record, &len, 0);
	if (!raw || len < size || !inet_ntop(family, raw, text, sizeof(text))) {
		trace_seq_printf(s, " %s=?", label);
		return;
	}
	trace_seq_printf(s, " %s=%s", label, text);
}

/* tcp_handshake_handler - one teeprobe_tcp_handshake event, from its fields */
static int tcp_handshake_handler(struct trace_seq *s, struct tep_record *record,
				 struct tep_event *event,
				 void *context __attribute__((unused)))
{
	unsigned long long side, family, sport, dport, val;
	char buf[24];
	int i;

	if (tep_get_field_val(s, event, "side", record, &side, 1) ||
	    tep_get_field_val(s, event, "family", record, &family, 1) ||
	    tep_get_field_val(s, event, "sport", record, &sport, 1) ||
	    tep_get_field_val(s, event, "dport", record, &dport, 1))
		return 0;
	trace_seq_printf(s, "side=%s family=%s sport=%llu dport=%llu",
			 side == 0 ? "server" : side == 1 ? "client" : "?",
			 family_name(family, buf, sizeof(buf)), sport, dport);
	if (family == AF_INET6) {
		print_addr(s, event, record, "saddr", "saddr_v6", AF_INET6, 16);
		print_addr(s, event, record, "daddr", "daddr_v6", AF_INET6, 16);
	} else {
		print_addr(s, event, record, "saddr", "saddr", AF_INET, 4);
		print_addr(s, event, record, "daddr", "daddr", AF_INET, 4);
	}
	for (i = 0; handshake_numbers[i]; i++) {
		if (!tep_find_field(event, handshake_numbers[i]))
			continue;
		if (tep_get_field_val(s, event, handshake_numbers[i], record, &val, 1))
			return 0;
		trace_seq_printf(s, " %s=%llu", handshake_numbers[i], val);
	}
	return 0;
}

/* TEP_PLUGIN_LOADER - register the handlers when libtraceevent loads us */
int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	tep_register_event_handler(tep, -1, TEEPROBE_SYSTEM, TCP_HANDSHAKE,
				   tcp_handshake_handler, NULL);
	return 0;
}

/* TEP_PLUGIN_UNLOADER - unregister them */
void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	tep_unregister_event_handler(tep, -1, TEEPROBE_SYSTEM, TCP_HANDSHAKE,
				     tcp_handshake_handler, NULL);
}
