/* SPDX-License-Identifier: GPL-2.0 */
/*
 * utils.h - messages, allocation and parsing helpers shared by every
 * teeprobe subcommand.
 */
#ifndef TEEPROBE_UTILS_H
#define TEEPROBE_UTILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

extern bool config_debug;
/* the running command, for messages of shared code ("report", "plot"...) */
extern const char *command_name;

void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void debug_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

void *xzalloc(size_t size);
char *xstrdup(const char *s);

int parse_seconds(const char *arg, double *seconds);
char *utf8_clean(const char *s);	/* valid UTF-8, to free */
const char *tstr(const char *s);	/* text without control bytes */
/*
 * The text outputs: within TEXT_COLS columns; durations from
 * DUR_MS_FROM_NS in ms, below it in us (JSON keeps its keys' units)
 */
#define TEXT_COLS	100
#define DUR_MS_FROM_NS	10e6
#define DUR_STR_LEN	32
#define DUR_SIGN	0x1	/* "+1.5 us": a change */
#define DUR_PER_S	0x2	/* "12.000 ms/s": time per second */
const char *dur_str(double ns, unsigned int flags);
const char *num_str(double v, int decimals);	/* "-" for NAN */
void print_wrapped(const char *text, int indent);
char *read_text_file(const char *path, size_t max, int *err);
bool process_is_teeprobe(int pid);
int write_value(const char *who, const char *path, const char *value);

/*
 * CPU lists ("0-3,8"), as record's -C takes them: up to CPU_LIST_MAX CPUs
 * (the kernel's NR_CPUS on Debian's amd64 and arm64 builds; a host of the
 * case has 128)
 */
#define CPU_LIST_MAX	8192
#define CPU_LIST_MASK_LEN	(CPU_LIST_MAX / 32 * 9)

struct cpu_list {
	unsigned long long w[CPU_LIST_MAX / 64];
};

int cpu_list_parse(const char *text, struct cpu_list *set);
void cpu_list_mask(const struct cpu_list *set, char *mask, size_t len);
bool cpu_list_offline(const struct cpu_list *set);

/* The command line, the same in every command */
int usage_error(const char *cmd, void (*usage)(FILE *out));
int input_arg(const char *cmd, const char *opt, int argc, char **argv,
	      int first, const char **input);

#endif /* TEEPROBE_UTILS_H */
