/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of libtracecmd's writer bigtrace uses. libtracecmd 1.3
 * (trace-cmd 3.1) exports these functions without installing their header
 * (trace-cmd-private.h): the declarations and the numbers (file states,
 * option ids: the trace.dat format's) are as there. bench/bigtrace/Makefile
 * refuses another libtracecmd.
 */
#ifndef BIGTRACE_TRACECMD_OUTPUT_H
#define BIGTRACE_TRACECMD_OUTPUT_H

#include <stdbool.h>

#include <trace-cmd.h>

#define fallthrough	__attribute__((fallthrough))

struct tracecmd_output;

enum { TRACECMD_FILE_CMD_LINES = 7 };
enum {
	TRACECMD_OPTION_TRACECLOCK = 4,
	TRACECMD_OPTION_UNAME = 5,
	TRACECMD_OPTION_VERSION = 9,
};

struct tracecmd_output *tracecmd_copy(struct tracecmd_input *ihandle,
				      const char *file, int state,
				      int file_version, const char *compression);
void tracecmd_set_quiet(struct tracecmd_output *handle, bool set_quiet);
void tracecmd_set_out_clock(struct tracecmd_output *handle, const char *clock);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_version(struct tracecmd_input *handle);
int tracecmd_long_size(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
void *tracecmd_add_option(struct tracecmd_output *handle, unsigned short id,
			  int size, const void *data);
int tracecmd_append_cpu_data(struct tracecmd_output *handle, int cpus,
			     char * const *cpu_data_files);
int tracecmd_append_buffer_cpu_data(struct tracecmd_output *handle,
				    const char *name, int cpus,
				    char * const *cpu_data_files);
void tracecmd_output_close(struct tracecmd_output *handle);

#endif /* BIGTRACE_TRACECMD_OUTPUT_H */
