/* SPDX-License-Identifier: GPL-2.0 */
/*
 * teeprobe.h - declarations shared between the parts of teeprobe.ko.
 */
#ifndef TEEPROBE_H
#define TEEPROBE_H

#include <linux/atomic.h>

#define TEEPROBE_VERSION "0.1.0"

/* Incremented on every counter reset; carried by the teeprobe_reset event. */
extern atomic_t teeprobe_reset_generation;

void teeprobe_reset_all(void);

int teeprobe_debugfs_init(void);
void teeprobe_debugfs_exit(void);

#endif /* TEEPROBE_H */
