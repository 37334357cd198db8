// SPDX-License-Identifier: GPL-2.0
/*
 * kernelreq.c - what teeprobe.ko needs of the running kernel, as the
 * kernel itself shows it (teeprobe check): a release from 5.10 on, module
 * loading, kprobes, the tracepoints it attaches to and the TCP functions it
 * hooks (module/compat.h names each). The module refuses to load without
 * them; this says which before anyone tries, or after it was refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <tracefs.h>

#include "kernelreq.h"
#include "module.h"
#include "utils.h"

static const struct {
	const char *system, *event, *why;
} kernel_events[] = {
	{ "sched", "sched_switch", "time off CPU in TEE calls" },
	{ "sched", "sched_wakeup", "the acceptors' run queue wait" },
	{ "irq", "softirq_raise", "NET_RX wait" },
	{ "irq", "softirq_entry", "NET_RX wait" },
	{ "irq", "softirq_exit", "NET_RX run time" },
	{ "napi", "napi_poll", "packets per NET_RX" },
	{ "tcp", "tcp_retransmit_synack", "SYN/ACK retransmits" },
	{ "sock", "inet_sock_set_state", "the client's handshakes" },
};

/* the functions tcp.c hooks (module/compat.h), IPv4's and the common ones */
static const char *const kernel_functions[] = {
	"tcp_conn_request", "tcp_v4_send_synack", "tcp_v4_syn_recv_sock",
	"inet_csk_complete_hashdance", "tcp_v4_reqsk_destructor",
	"inet_csk_accept", "inet_stream_connect",
};

/* release_at_least - is "MAJOR.MINOR..." at least @major.@minor? */
static bool release_at_least(const char *release, int major, int minor)
{
	int ma = 0, mi = 0;

	if (sscanf(release, "%d.%d", &ma, &mi) != 2)
		return true;	/* unknown form: the module's build decides */
	return ma > major || (ma == major && mi >= minor);
}

/*
 * functions_missing - mark which of kernel_functions[] the kernel cannot
 * hook: not among ftrace's traceable functions (or, without them, not in
 * kallsyms). Returns -1 when neither list can be read.
 */
static int functions_missing(bool missing[])
{
	const char *tracing = teeprobe_tracing_dir();
	char path[4096], line[512], name[256];
	size_t i, n = ARRAY_SIZE(kernel_functions);
	bool found[ARRAY_SIZE(kernel_functions)] = { false };
	FILE *f = NULL;
	int field = 0;

	if (tracing) {
		snprintf(path, sizeof(path), "%s/available_filter_functions", tracing);
		f = fopen(path, "r");
	}
	if (!f) {
		f = fopen("/proc/kallsyms", "r");
		field = 2;
	}
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line;
		int k;

		for (k = 0; k < field && p; k++) {
			p = strchr(p, ' ');
			if (p)
				p++;
		}
		if (!p || sscanf(p, "%255s", name) != 1)
			continue;
		for (i = 0; i < n; i++)
			if (!found[i] && !strcmp(name, kernel_functions[i]))
				found[i] = true;
	}
	fclose(f);
	for (i = 0; i < n; i++)
		missing[i] = !found[i];
	return 0;
}

/*
 * kernel_requirements - print what the running kernel has of what
 * teeprobe.ko needs; each missing thing goes to stderr with what it is
 * for. Returns the number of things missing; -1 when this kernel cannot
 * load modules at all (nothing else is looked at then).
 */
int kernel_requirements(void)
{
	bool fn_missing[ARRAY_SIZE(kernel_functions)];
	size_t i, nev = 0, nfn = 0;
	struct utsname u;
	int missing = 0;

	if (uname(&u) < 0)
		strcpy(u.release, "?");
	if (access("/proc/modules", F_OK) < 0) {
		err_msg("check: kernel %s cannot load modules (no /proc/modules: built without CONFIG_MODULES): teeprobe.ko cannot run on it\n",
			u.release);
		return -1;
	}
	if (!release_at_least(u.release, 5, 10)) {
		err_msg("check: kernel %s: teeprobe needs Linux 5.10 or newer\n",
			u.release);
		missing++;
	}
	if (!teeprobe_tracing_dir()) {
		err_msg("check: no tracefs: the kernel needs CONFIG_FTRACE and CONFIG_TRACEPOINTS\n");
		return missing + 1;
	}
	if (!tracefs_file_exists(NULL, "kprobe_events")) {
		err_msg("check: kernel %s has no kprobes (CONFIG_KPROBES, CONFIG_KPROBE_EVENTS): the TEE probes need them\n",
			u.release);
		missing++;
	}
	for (i = 0; i < ARRAY_SIZE(kernel_events); i++) {
		if (tracefs_event_file_exists(NULL, kernel_events[i].system,
					      kernel_events[i].event, "format")) {
			nev++;
			continue;
		}
		err_msg("check: kernel %s has no tracepoint %s:%s (for %s)\n",
			u.release, kernel_events[i].system,
			kernel_events[i].event, kernel_events[i].why);
		missing++;
	}
	if (functions_missing(fn_missing) < 0) {
		err_msg("check: cannot read the kernel's functions (available_filter_functions, /proc/kallsyms)\n");
		missing++;
	} else {
		for (i = 0; i < ARRAY_SIZE(kernel_functions); i++) {
			if (!fn_missing[i]) {
				nfn++;
				continue;
			}
			err_msg("check: kernel %s has no traceable function %s (the TCP handshake's phases are timed there)\n",
				u.release, kernel_functions[i]);
			missing++;
		}
	}
	printf("kernel: %s: %s; %zu of %zu tracepoints, %zu of %zu TCP functions\n",
	       u.release, missing ? "not everything teeprobe.ko needs" :
	       "5.10 or newer, modules, kprobes",
	       nev, ARRAY_SIZE(kernel_events), nfn, ARRAY_SIZE(kernel_functions));
	return missing;
}
