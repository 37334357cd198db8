// SPDX-License-Identifier: GPL-2.0
/*
 * events.c - teeprobe's trace events (trace.h): their one definition
 * (CREATE_TRACE_POINTS), and what enabling one does to the module.
 */
#include <linux/module.h>

#define CREATE_TRACE_POINTS
#include "trace.h"

#include "teeprobe.h"

/*
 * teeprobe_event_reg - one of teeprobe's trace events is enabled (its
 * tracepoint gets its first probe): the module stays until it is disabled
 */
int teeprobe_event_reg(void)
{
	return try_module_get(THIS_MODULE) ? 0 : -ENODEV;
}

/* teeprobe_event_unreg - the event's last probe is gone */
void teeprobe_event_unreg(void)
{
	module_put(THIS_MODULE);
}
