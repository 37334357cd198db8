// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_prometheus.c - "teeprobe stat --prometheus"'s formatter
 * (prometheus.c) on debugfs files holding arbitrary text. Each input line
 * is "SOURCE TEXT" (SOURCE a debugfs file name), as in fuzz_derive. The
 * output must stay an exposition Prometheus reads: every line a HELP or
 * TYPE comment or a teeprobe_ sample, printable ASCII only (a label value
 * comes from the input), and newline-terminated.
 */
#include <stdio.h>

#include "fuzz.h"
#include "../../tools/prometheus.h"

/* load - the lines of @text into @s */
static void load(struct snapshot *s, char *text)
{
	char *line, *save = NULL, *sp;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		sp = strchr(line, ' ');
		if (!sp || sp == line)
			continue;
		*sp = '\0';
		snapshot_add_line(s, line, sp + 1);
	}
}

/* check_output - the invariants of one exposition */
static void check_output(const char *out, size_t len)
{
	const char *line = out, *nl;
	size_t i;

	fuzz_check(len > 0 && out[len - 1] == '\n');
	for (i = 0; i < len; i++)
		fuzz_check(out[i] == '\n' || (out[i] >= 0x20 && out[i] <= 0x7e));
	for (; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		fuzz_check(nl);
		fuzz_check(!strncmp(line, "# HELP teeprobe_", 16) ||
			   !strncmp(line, "# TYPE teeprobe_", 16) ||
			   !strncmp(line, "teeprobe_", 9));
		/* a sample has a value after its last space */
		if (line[0] == 't')
			fuzz_check(memchr(line, ' ', nl - line) && nl[-1] != ' ');
	}
}

/*
 * LLVMFuzzerTestOneInput - one input: a snapshot, and its exposition by
 * default and with every option (per-CPU series, the module's buckets)
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct prom_opts all = { .per_cpu = true, .fine_buckets = true };
	const struct prom_opts *opts[] = { NULL, &all };
	struct snapshot s = { 0 };
	char *text = fuzz_text(data, size), *out;
	size_t len, i;
	FILE *f;

	load(&s, text);
	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		out = NULL;
		len = 0;
		f = open_memstream(&out, &len);
		if (!f)
			abort();
		prom_write(f, &s, "0.0.0", opts[i]);
		fclose(f);
		check_output(out, len);
		free(out);
	}
	snapshot_free(&s);
	free(text);
	return 0;
}
