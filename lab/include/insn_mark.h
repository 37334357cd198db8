/* SPDX-License-Identifier: GPL-2.0 */
/*
 * insn_mark.h - the marker of bench/run's instruction count: nopl
 * 0x4b4d5054(%rax,%rax,1), an 8-byte x86 no-op whose displacement spells
 * "TPMK" (compilers pad with the same opcode and a zero displacement).
 * Under QEMU with bench/insns/insns.so, each execution logs the guest's
 * instruction count; anywhere else it does nothing.
 *
 * The lab's load programs execute it just before and just after the
 * interval their rate is measured over (hsbench client, udpbench send,
 * teeclient loop), when LAB_INSN_MARK is set in their environment.
 */
#ifndef INSN_MARK_H
#define INSN_MARK_H

#include <stdlib.h>

#define INSN_MARK_BYTES		0x0f, 0x1f, 0x84, 0x00, 0x54, 0x50, 0x4d, 0x4b
#define INSN_MARK_STR_(...)	#__VA_ARGS__
#define INSN_MARK_STR(...)	INSN_MARK_STR_(__VA_ARGS__)

/* the bytes the plugin looks for: the same list as the asm below emits */
static const unsigned char insn_mark_bytes[] = { INSN_MARK_BYTES };

/* insn_mark - execute the marker if LAB_INSN_MARK is set */
static inline void insn_mark(void)
{
#if defined(__x86_64__) || defined(__i386__)
	static int on = -1;

	if (on < 0)
		on = getenv("LAB_INSN_MARK") != NULL;
	if (on)
		asm volatile(".byte " INSN_MARK_STR(INSN_MARK_BYTES));
#endif
}

#endif /* INSN_MARK_H */
