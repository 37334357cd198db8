/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - "teeprobe report": a session's tables printed (the headline
 * figures of a session are figures.h's).
 */
#ifndef TEEPROBE_REPORT_H
#define TEEPROBE_REPORT_H

#include <stdbool.h>

struct session;

struct report_opts {
	const char *input;	/* the file's name, as the report shows it */
	bool json;
	bool hist;
	bool header;
};

void report_print(const struct session *s, const struct report_opts *o);

#endif /* TEEPROBE_REPORT_H */
