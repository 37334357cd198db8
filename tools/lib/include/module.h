/* SPDX-License-Identifier: GPL-2.0 */
/*
 * module.h - finding teeprobe.ko's debugfs files and trace events.
 */
#ifndef TEEPROBE_MODULE_H
#define TEEPROBE_MODULE_H

#include <stdbool.h>

#define TEEPROBE_SYSTEM		"teeprobe"
#define TEEPROBE_DEBUGFS	"teeprobe"

const char *teeprobe_tracing_dir(void);
char *teeprobe_debugfs_path(const char *file);
char *teeprobe_module_version(void);
int teeprobe_require_module(void);

#endif /* TEEPROBE_MODULE_H */
