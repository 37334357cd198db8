// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_snapshot.c - snapshot_parse_marker() on arbitrary marker lines, and
 * what it parsed added to a snapshot and read back (snapshot_add_line,
 * snapshot_text).
 */
#include "fuzz.h"
#include "../../tools/lib/include/snapshot.h"

/* ends_with_line - does @text end in @line (to its first newline) + '\n'? */
static int ends_with_line(const char *text, const char *line)
{
	size_t n = strcspn(line, "\n"), len = strlen(text);

	return len >= n + 1 && !memcmp(text + len - n - 1, line, n) &&
	       text[len - 1] == '\n';
}

/* one_marker - parse one marker line into @s; check the round trip */
static void one_marker(struct snapshot *s, const char *marker,
		       size_t phase_len, size_t source_len)
{
	char phase[16], source[64];
	const char *line, *text;
	int nr = s->nr;

	if (snapshot_parse_marker(marker, phase, phase_len, source, source_len,
				  &line))
		return;
	fuzz_check(strlen(phase) < phase_len && strlen(source) < source_len);
	fuzz_check(*source && !strchr(source, ' ') && !strchr(phase, ' '));
	fuzz_check(line > marker && line <= marker + strlen(marker));
	snapshot_add_line(s, source, line);
	text = snapshot_text(s, source);
	if (!text) {
		/* only when every source slot is taken */
		fuzz_check(nr == SNAP_MAX_SOURCES && s->nr == nr);
		return;
	}
	fuzz_check(ends_with_line(text, line));
	fuzz_check(strlen(text) == s->src[0].len || strcmp(source, s->src[0].name));
}

/*
 * LLVMFuzzerTestOneInput - the first byte picks the phase and source
 * buffer sizes; the rest is marker lines, one per '\n'.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t phase_len = 16, source_len = 64;
	struct snapshot s = { 0 };
	char *text, *line, *save = NULL;

	if (size && data[0] < 0x20) {
		phase_len = 1 + data[0] % 16;
		source_len = 1 + (data[0] * 7) % 64;
		data++;
		size--;
	}
	text = fuzz_text(data, size);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		one_marker(&s, line, phase_len, source_len);
	fuzz_check(s.nr <= SNAP_MAX_SOURCES);
	snapshot_free(&s);
	free(text);
	return 0;
}
