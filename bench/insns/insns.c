// SPDX-License-Identifier: GPL-2.0
/*
 * insns.c - a QEMU TCG plugin that counts the instructions the guest
 * executes, for bench/run's instruction item: an instruction count does
 * not depend on how fast the emulator runs each kind of instruction, as
 * the guest's clock does.
 *
 * Every time a guest program executes the marker of lab/include/insn_mark.h,
 * an 8-byte no-op no compiler emits, the plugin appends
 * "mark N INSTRUCTIONS" to FILE: N counts the markers from 1, INSTRUCTIONS
 * all the vCPUs' instructions so far. The guest logs what its N-th marker
 * meant; the difference between two markers is the work in between.
 *
 * Usage: qemu-system-x86_64 -accel tcg,thread=single -plugin insns.so,out=FILE
 * Single-threaded TCG only: one counter, no lock.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "qemu_plugin_api.h"
#include "insn_mark.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

static uint64_t insns;
static unsigned long marks;
static FILE *out;

/* mark_exec - the guest executed the marker */
static void mark_exec(unsigned int vcpu_index, void *userdata)
{
	(void)vcpu_index;
	(void)userdata;
	fprintf(out, "mark %lu %llu\n", ++marks, (unsigned long long)insns);
	fflush(out);
}

/* tb_trans - count a translation block's instructions each time it runs */
static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &insns, n);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (qemu_plugin_insn_size(insn) == sizeof(insn_mark_bytes) &&
		    !memcmp(qemu_plugin_insn_data(insn), insn_mark_bytes,
			    sizeof(insn_mark_bytes)))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_exec,
							       QEMU_PLUGIN_CB_NO_REGS,
							       NULL);
	}
}

/* at_exit - the total, and close FILE */
static void at_exit(qemu_plugin_id_t id, void *userdata)
{
	(void)id;
	(void)userdata;
	fprintf(out, "total %llu\n", (unsigned long long)insns);
	fclose(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const struct qemu_info_t *info,
					   int argc, char **argv)
{
	(void)info;
	if (argc != 1 || strncmp(argv[0], "out=", 4) || !argv[0][4]) {
		fprintf(stderr, "insns.so: one argument, out=FILE\n");
		return -1;
	}
	out = fopen(argv[0] + 4, "w");
	if (!out) {
		fprintf(stderr, "insns.so: %s: %s\n", argv[0] + 4, strerror(errno));
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
