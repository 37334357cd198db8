// SPDX-License-Identifier: GPL-2.0
/*
 * kunit.c - teeprobe_kunit.ko, the module teeprobe's KUnit suites are
 * loaded in: one suite per part, each in <part>_kunit.c beside this file.
 *
 * Loaded as a module on the lab kernel; the results are read from
 * /sys/kernel/debug/kunit/<suite>/results and parsed by kunit.py.
 */
#include <linux/module.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for teeprobe");
