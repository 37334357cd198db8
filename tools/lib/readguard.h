/* SPDX-License-Identifier: GPL-2.0 */
/*
 * readguard.h - a trace.dat read in a child process that may crash or loop
 * without harm to the caller: libtracecmd 3.1.6 and libtraceevent 1.7.1
 * crash or loop for ever on damaged files (found by tests/fuzz; the cases
 * are listed over readguard_run() in readguard.c). The child reads, its
 * guard ends it when it stops making progress, and it hands what it read to
 * the parent down a pipe (the put/get helpers here; what goes down the pipe
 * is the caller's: session.c).
 */
#ifndef TEEPROBE_READGUARD_H
#define TEEPROBE_READGUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct tep_record;

/* Seconds of CPU time the child may spend without a record in between */
#define READGUARD_STALL_S	5
/*
 * ... and opening the file, before the first record: READGUARD_STALL_S plus
 * READGUARD_OPEN_S_PER_MB for each MB of the file, at most READGUARD_OPEN_S
 * (readguard.c says why).
 */
#define READGUARD_OPEN_S_PER_MB	10
#define READGUARD_OPEN_S	60

/*
 * What is read, and how it crosses: @read reads @input into @arg (in the
 * child, under the guard; 0 when it could), @put writes @arg down @fd (in
 * the child), @take reads it from @fd into @arg (in the parent; false if it
 * was not whole, or not consistent).
 */
struct readguard_ops {
	int (*read)(const char *input, void *arg);
	bool (*put)(int fd, const void *arg);
	bool (*take)(int fd, void *arg);
};

int readguard_run(const char *input, unsigned long long size,
		  const struct readguard_ops *ops, void *child_arg,
		  void *parent_arg, bool take_it);
pid_t readguard_last_child(int *status);
void readguard_forget_child(void);

/* The guard, for the child's reader */
void readguard_buffer(void);
void readguard_record(const struct tep_record *record, int cpu);

/* The budgets, in ms of CPU time */
void readguard_set_stall(unsigned int ms);
unsigned int readguard_stall_ms(void);
unsigned int readguard_open_ms(void);
unsigned int readguard_open_budget(unsigned long long size);

/* The hand-over: raw bytes, strings, arrays that grow with what comes */
bool readguard_put(int fd, const void *p, size_t len);
bool readguard_put_string(int fd, const char *s);
bool readguard_get(int fd, void *p, size_t len);
bool readguard_get_array(int fd, void *v, size_t n, size_t size);
bool readguard_get_string(int fd, char **str);
bool readguard_get_end(int fd);

#endif /* TEEPROBE_READGUARD_H */
