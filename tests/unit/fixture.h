/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixture.h - snapshots for the unit tests from text written in the test:
 * a made-up debugfs or /proc file, whole, as one source of a snapshot.
 */
#ifndef TEEPROBE_TEST_FIXTURE_H
#define TEEPROBE_TEST_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "../../tools/lib/include/snapshot.h"

/* fixture_add - the lines of @text (a file's text) as source @name of @s */
static inline void fixture_add(struct snapshot *s, const char *name,
			       const char *text)
{
	char *copy = strdup(text), *line, *save = NULL;

	if (!copy)
		abort();
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		snapshot_add_line(s, name, line);
	free(copy);
}

#endif /* TEEPROBE_TEST_FIXTURE_H */
