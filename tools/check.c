// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - "teeprobe check": is this host ready to trace?
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernelreq.h"
#include "lock.h"
#include "table.h"
#include "module.h"
#include "teeprobe.h"
#include "utils.h"

/* check_usage - help for teeprobe check */
static void check_usage(FILE *out)
{
	fprintf(out,
		"usage: teeprobe check [-h]\n\n"
		"Checks that the running kernel has what teeprobe.ko needs\n"
		"(Linux 5.10 or newer, module loading, kprobes, the\n"
		"tracepoints and TCP functions it hooks: each one missing is\n"
		"named), that teeprobe.ko is loaded, its debugfs files are\n"
		"readable and its events are in tracefs; prints the module\n"
		"version, the state of each TEE probe (attached,\n"
		"not-found until a module with the symbol loads, or absent\n"
		"from the loaded driver's version) and the kernel\n"
		"tracepoints it is attached to. Mounts\n"
		"debugfs and tracefs if they are not mounted, as trace-cmd\n"
		"does. Cleans up what a recording session that did not end\n"
		"left (its tracefs instance and trace-cmd, the module's\n"
		"window and pid filter), and says so.\n"
		"Exit status 0 when ready, 1 otherwise: not ready when the\n"
		"kernel lacks something, or the TEE driver's ioctl probe\n"
		"failed to attach.\n");
}

/*
 * read_table - debugfs file @file of the module, parsed into @m; false,
 * with the reason printed after @what, when it cannot be read or parsed
 */
static bool read_table(const char *file, const char *what, struct modstats *m)
{
	char *path = teeprobe_debugfs_path(file);
	char *text, why[256];
	int err = 0;

	text = path ? read_text_file(path, 64 * 1024, &err) : NULL;
	free(path);
	if (!text) {
		printf("%s: unreadable (%s)\n", what, strerror(err));
		return false;
	}
	if (modstats_parse(m, file, text, why, sizeof(why))) {
		printf("%s: unreadable (%s: %s)\n", what, file, why);
		free(text);
		return false;
	}
	free(text);
	return true;
}

/*
 * print_tee_probes - each TEE probe's symbol and state, from debugfs.
 * Returns -1 when the ioctl probe failed to attach (it was found, and
 * refused): no TEE call would be seen. Not found yet is fine: the driver
 * may load later.
 */
static int print_tee_probes(void)
{
	int symbol, role, state, error, r, ret = 0;
	const char *preset, *st, *er;
	struct modstats m;

	if (!read_table("tee_probes", "tee probes", &m))
		return -1;
	preset = modstats_kv(&m, "preset");
	if (preset)
		printf("tee preset: %s\n", preset);
	symbol = modstats_col(&m, "symbol");
	role = modstats_col(&m, "role");
	state = modstats_col(&m, "state");
	error = modstats_col(&m, "error");
	for (r = 0; symbol >= 0 && role >= 0 && state >= 0 && r < m.nrows; r++) {
		/* fields as they are: a symbol may be as long as KSYM_NAME_LEN */
		st = m.rows[r].field[state];
		er = error >= 0 ? m.rows[r].field[error] : NULL;
		printf("tee probe: %s (%s) %s%s%s\n", m.rows[r].field[symbol],
		       m.rows[r].field[role], st,
		       !strcmp(st, "failed") && er ? ", error " : "",
		       !strcmp(st, "failed") && er ? er : "");
		if (!strcmp(m.rows[r].field[role], "ioctl") && !strcmp(st, "failed")) {
			err_msg("check: the TEE driver's ioctl probe %s failed (error %s): no TEE call would be seen\n",
				m.rows[r].field[symbol], er ? er : "?");
			ret = -1;
		}
	}
	modstats_free(&m);
	return ret;
}

/* print_hooks - the kernel tracepoints the module is attached to */
static void print_hooks(void)
{
	int part, name, r;
	struct modstats m;

	if (!read_table("hooks", "kernel hooks", &m))
		return;
	part = modstats_col(&m, "part");
	name = modstats_col(&m, "tracepoint");
	for (r = 0; part >= 0 && name >= 0 && r < m.nrows; r++)
		printf("kernel hook: %s (%s) attached\n", m.rows[r].field[name],
		       m.rows[r].field[part]);
	modstats_free(&m);
}

/* check_main - entry point of teeprobe check */
int check_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *version;
	int c, ready = 0, owner, lacks = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			check_usage(stdout);
			return 0;
		default:
			return usage_error("check", check_usage);
		}
	}
	if (optind < argc) {
		err_msg("check: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (geteuid() == 0) {
		lacks = kernel_requirements();
		if (lacks < 0)
			return 1;
	}
	if (teeprobe_require_module())
		return 1;
	owner = session_sweep("check");
	version = teeprobe_module_version();
	printf("module: %s\n", version);
	printf("tracefs: %s\n", teeprobe_tracing_dir());
	if (owner > 0)
		printf("session: pid %d is recording\n", owner);
	ready |= print_tee_probes();
	if (lacks)
		ready = -1;
	print_hooks();
	printf(ready ? "not ready\n" : "ready\n");
	free(version);
	return ready ? 1 : 0;
}
