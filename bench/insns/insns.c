// SPDX-License-Identifier: GPL-2.0
/*
 * insns.c - a QEMU TCG plugin that counts the instructions the guest
 * executes, for bench/run's instruction item: an instruction count does
 * not depend on how fast the emulator runs each kind of instruction, as
 * the guest's clock does.
 *
 * Every time a guest program executes the marker of lab/include/insn_mark.h,
 * an 8-byte no-op no compiler emits, the plugin appends
 * "mark N INSTRUCTIONS EXITS CLOCKS CPU_NS WALL_NS BLOCKS BLOCK_INSNS" to
 * FILE: N counts the markers from 1, then come all the vCPUs' counts so far
 * of
 *   INSTRUCTIONS  instructions executed;
 *   EXITS         instructions after which TCG leaves its translated code
 *                 for its main loop: popf and sti, which may unmask an
 *                 interrupt, iret, and int3 (a trap: an int3-based kprobe);
 *                 a count of instructions weighs them as any other;
 *   CLOCKS        time-stamp counter reads (rdtsc, rdtscp), each a call
 *                 into QEMU to read the host's clock;
 * and the host's clocks: CPU_NS, the CPU time of the whole QEMU process
 * (all its threads: the vCPUs and the emulated devices), which is what the
 * work cost the emulator, whatever kinds of instructions it was made of,
 * and does not run while the guest waits; WALL_NS, the monotonic clock;
 * and what TCG translated so far: BLOCKS translation blocks, of
 * BLOCK_INSNS instructions (code run for the first time, or again after
 * its translation was thrown away: written to, or the code buffer full),
 * work hardware does not do.
 * The guest logs what its N-th marker meant; the difference between two
 * markers is the work in between.
 *
 * With a second argument, profile=PROFILE, the plugin also counts each
 * translated block's executions and, at every marker, appends to PROFILE
 * "p N ADDRESS INSNS EXECUTIONS" for each block that ran since the marker
 * before (N the marker, ADDRESS the block's guest virtual address in hex,
 * INSNS its length in instructions): where the instructions between two
 * markers went, for bench/profile.
 *
 * Usage: qemu-system-x86_64 -accel tcg,thread=single
 *            -plugin insns.so,out=FILE[,profile=PROFILE]
 * Single-threaded TCG only: one counter, no lock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qemu_plugin_api.h"
#include "insn_mark.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

static uint64_t insns, exits, clocks, blocks, block_insns;
static unsigned long marks;
static FILE *out;

/*
 * The profile: a record per translated block, in chunks that never move
 * (TCG's inline counters point into them). A block translated again (its
 * code written to, or the code buffer flushed) gets a new record; the
 * reader adds them up by address.
 */
#define PROF_CHUNK	65536
struct prof_block {
	uint64_t execs;		/* inline counter */
	uint64_t seen;		/* execs at the last marker */
	uint64_t vaddr;
	uint64_t insns;
};
static struct prof_block **prof_chunks;
static size_t prof_nchunks, prof_used;
static FILE *prof;

/* prof_new - a new record for a block at @vaddr of @n instructions */
static struct prof_block *prof_new(uint64_t vaddr, size_t n)
{
	struct prof_block *b;

	if (prof_used == prof_nchunks * PROF_CHUNK) {
		struct prof_block **chunks;

		chunks = realloc(prof_chunks, (prof_nchunks + 1) * sizeof(*chunks));
		if (!chunks)
			return NULL;
		prof_chunks = chunks;
		prof_chunks[prof_nchunks] = calloc(PROF_CHUNK, sizeof(**chunks));
		if (!prof_chunks[prof_nchunks])
			return NULL;
		prof_nchunks++;
	}
	b = &prof_chunks[prof_used / PROF_CHUNK][prof_used % PROF_CHUNK];
	prof_used++;
	b->vaddr = vaddr;
	b->insns = n;
	return b;
}

/* prof_dump - the blocks that ran since the last marker, as of marker @n */
static void prof_dump(unsigned long n)
{
	size_t i;

	for (i = 0; i < prof_used; i++) {
		struct prof_block *b = &prof_chunks[i / PROF_CHUNK][i % PROF_CHUNK];

		if (b->execs == b->seen)
			continue;
		fprintf(prof, "p %lu %llx %llu %llu\n", n,
			(unsigned long long)b->vaddr, (unsigned long long)b->insns,
			(unsigned long long)(b->execs - b->seen));
		b->seen = b->execs;
	}
	fflush(prof);
}

/* clock_ns - clock @id in ns */
static unsigned long long clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return 0;
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* mark_exec - the guest executed the marker */
static void mark_exec(unsigned int vcpu_index, void *userdata)
{
	(void)vcpu_index;
	(void)userdata;
	fprintf(out, "mark %lu %llu %llu %llu %llu %llu %llu %llu\n", ++marks,
		(unsigned long long)insns, (unsigned long long)exits,
		(unsigned long long)clocks, clock_ns(CLOCK_PROCESS_CPUTIME_ID),
		clock_ns(CLOCK_MONOTONIC), (unsigned long long)blocks,
		(unsigned long long)block_insns);
	fflush(out);
	if (prof)
		prof_dump(marks);
}

/*
 * insn_class - the counter an x86 instruction's kind goes to (exits or
 * clocks), or NULL. Legacy and REX prefixes are skipped; popf, sti, iret and
 * int3 are one-byte opcodes, rdtsc is 0f 31 and rdtscp 0f 01 f9.
 */
static uint64_t *insn_class(const unsigned char *b, size_t len)
{
	size_t i = 0;

	while (i < len && (b[i] == 0x66 || b[i] == 0x67 || b[i] == 0xf2 ||
			   b[i] == 0xf3 || (b[i] & 0xf0) == 0x40))
		i++;
	if (i >= len)
		return NULL;
	switch (b[i]) {
	case 0x9d:	/* popf */
	case 0xfb:	/* sti */
	case 0xcf:	/* iret */
	case 0xcc:	/* int3 */
		return &exits;
	case 0x0f:
		if (i + 1 < len && b[i + 1] == 0x31)
			return &clocks;
		if (i + 2 < len && b[i + 1] == 0x01 && b[i + 2] == 0xf9)
			return &clocks;
		return NULL;
	default:
		return NULL;
	}
}

/*
 * tb_trans - TCG translated a block: count it, and its instructions each
 * time it runs
 */
static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	blocks++;
	block_insns += n;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &insns, n);
	if (prof) {
		struct prof_block *b = prof_new(qemu_plugin_tb_vaddr(tb), n);

		if (!b) {
			fprintf(stderr, "insns.so: out of memory for the profile\n");
			abort();
		}
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							 &b->execs, 1);
	}
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const unsigned char *data = qemu_plugin_insn_data(insn);
		size_t size = qemu_plugin_insn_size(insn);
		uint64_t *class = insn_class(data, size);

		if (class)
			qemu_plugin_register_vcpu_insn_exec_inline(insn,
								   QEMU_PLUGIN_INLINE_ADD_U64,
								   class, 1);

		if (size == sizeof(insn_mark_bytes) &&
		    !memcmp(data, insn_mark_bytes, sizeof(insn_mark_bytes)))
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
	fprintf(out, "total %llu %llu %llu %llu %llu\n",
		(unsigned long long)insns, (unsigned long long)exits,
		(unsigned long long)clocks, (unsigned long long)blocks,
		(unsigned long long)block_insns);
	fclose(out);
	if (prof)
		fclose(prof);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const struct qemu_info_t *info,
					   int argc, char **argv)
{
	(void)info;
	if (argc < 1 || argc > 2 || strncmp(argv[0], "out=", 4) || !argv[0][4] ||
	    (argc == 2 && (strncmp(argv[1], "profile=", 8) || !argv[1][8]))) {
		fprintf(stderr, "insns.so: arguments out=FILE[,profile=PROFILE]\n");
		return -1;
	}
	if (argc == 2) {
		prof = fopen(argv[1] + 8, "w");
		if (!prof) {
			fprintf(stderr, "insns.so: %s: %s\n", argv[1] + 8, strerror(errno));
			return -1;
		}
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
