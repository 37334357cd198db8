/* SPDX-License-Identifier: GPL-2.0 */
/*
 * teeprobe.h - declarations shared between the parts of teeprobe.ko.
 */
#ifndef TEEPROBE_H
#define TEEPROBE_H

#include <linux/atomic.h>
#include <linux/types.h>

#define TEEPROBE_VERSION "0.1.0"

/* Incremented on every counter reset; carried by the teeprobe_reset event. */
extern atomic_t teeprobe_reset_generation;

void teeprobe_reset_all(void);

struct seq_file;

/* tee.c: the TEE driver's ioctl path */
#define TEEPROBE_MAX_PIDS	8
int teeprobe_tee_init(void);
void teeprobe_tee_exit(void);
void teeprobe_tee_reset(void);
void teeprobe_tee_set_pids(const pid_t *pids, unsigned int n);
void teeprobe_tee_show_pids(struct seq_file *m);
void teeprobe_tee_show_probes(struct seq_file *m);
void teeprobe_tee_show_stats(struct seq_file *m);
void teeprobe_tee_show_hist(struct seq_file *m);
void teeprobe_tee_show_threads(struct seq_file *m);

int teeprobe_debugfs_init(void);
void teeprobe_debugfs_exit(void);

#endif /* TEEPROBE_H */
