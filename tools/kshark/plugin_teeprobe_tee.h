/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plugin_teeprobe_tee.h - KernelShark 2 plugin drawing teeprobe's TEE calls
 * (from their start to their teeprobe_tee_ioctl_exit) as boxes. The C part (plugin_teeprobe_tee.c) finds the calls, the C++ part
 * (plugin_teeprobe_tee_draw.cpp) makes KernelShark's shapes of them.
 */
#ifndef _TEEPROBE_KSHARK_TEE_H
#define _TEEPROBE_KSHARK_TEE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libkshark.h"
#include "libkshark-plugin.h"
#include "libkshark-model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Its start is not known: neither an enter nor the exit's duration */
#define TEE_CALL_OPEN_START	(1 << 0)
/* The call had not ended when the trace did: no exit in the file */
#define TEE_CALL_OPEN_END	(1 << 1)

/* One TEE call of one task; start and end are trace timestamps (ns) */
struct tee_call {
	int64_t		start;
	int64_t		end;
	int32_t		pid;
	/* the CPUs it began (its enter's, else its exit's) and ended on */
	int16_t		cpu_enter;
	int16_t		cpu_exit;
	unsigned int	flags;
};

/* The plugin's state for one data stream */
struct plugin_tee_context {
	int			enter_id;	/* -1: not in the file */
	int			exit_id;
	/* the loaded data the calls were found in (rebuilt when it changes) */
	struct kshark_entry	**data;
	size_t			data_size;
	bool			built;
	/* the calls, by start time */
	struct tee_call		*calls;
	size_t			n_calls;
};

KS_DECLARE_PLUGIN_CONTEXT_METHODS(struct plugin_tee_context)

/* RGB of the boxes: no task colour of KernelShark's has a channel at 0 */
#define TEE_BOX_RED	255
#define TEE_BOX_GREEN	0
#define TEE_BOX_BLUE	255

void plugin_tee_update(struct plugin_tee_context *ctx, int sd,
		       const struct kshark_trace_histo *histo);

void plugin_tee_draw(struct kshark_cpp_argv *argv_c, int sd, int val,
		     int draw_action);

#ifdef __cplusplus
}
#endif

#endif /* _TEEPROBE_KSHARK_TEE_H */
