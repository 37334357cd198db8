// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_trace.c - the whole trace.dat reader: the input as a file, read by
 * report_read() (libtracecmd, libtraceevent, then the markers and events),
 * summarised, and cut into windows by series_build().
 */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "../../tools/report.h"
#include "../../tools/series.h"

static int fd = -1;
static char path[64];

/* input_file - the input in a memory file; its path, NULL on failure */
static const char *input_file(const uint8_t *data, size_t size)
{
	if (fd < 0) {
		fd = memfd_create("fuzz_trace.dat", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	return path;
}

/* LLVMFuzzerTestOneInput - read, summarise and cut one trace.dat */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session_summary sum;
	struct series ser = { 0 };
	struct report *r;

	/* the child's read is not seen by the fuzzer's coverage: read again here */
	report_read_in_parent(true);
	r = report_read(input_file(data, size));
	if (!r)
		return 0;
	report_summarize(r, &sum);
	if (!series_build(report_events(r), &ser))
		series_free(&ser);
	report_release(r);
	return 0;
}
