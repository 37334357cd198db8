/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tzsim_v1.h - force-included into every object of tzdriver v1.0.0 by
 * scripts/tzdriver: an assembler macro named "smc" takes the place of the
 * instruction in the driver's inline asm (GNU as looks a macro up before
 * an instruction of the same name), and calls tzsim_smc_insn
 * (tzsim_glue.c), keeping the frame record the call would overwrite.
 */
#ifndef TZSIM_V1_H
#define TZSIM_V1_H
#ifndef __ASSEMBLY__
asm(".macro smc imm\n"
	"	stp	x29, x30, [sp, #-16]!\n"
	"	bl	tzsim_smc_insn\n"
	"	ldp	x29, x30, [sp], #16\n"
	".endm\n");
#endif
#endif /* TZSIM_V1_H */
