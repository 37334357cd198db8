// SPDX-License-Identifier: GPL-2.0
/*
 * tzsim_glue.c - built into tzdriver.ko by scripts/tzdriver: where the
 * driver issues an SMC, it calls tzsim.ko's simulated secure side instead.
 *
 * Newest tree: every SMC goes through smc_req() (core/smc_abi.c, which is
 * compiled with that function renamed): this is smc_req(), the same
 * registers in and out, the same loop on TSP_REQUEST.
 *
 * v1.0.0 (TZSIM_V1): "smc #0" is inline in five compiled asm blocks. An
 * assembler macro named smc, defined for every object of the driver
 * (tzsim_v1.h, force-included), makes each instruction a call of
 * tzsim_smc_insn below: it keeps every register but x0..x3, which it sets
 * as the SMC would, and the caller's frame record. So the driver's code is
 * not changed, and the registers its asm blocks did not declare clobbered
 * survive, as they survive a real SMC.
 */
#include <linux/linkage.h>
#include <linux/module.h>
#include <linux/types.h>

#include "tzsim_abi.h"

#ifndef TZSIM_V1
#include "smc_call.h"

/* smc_req - one SMC, answered by tzsim (core/smc_abi.c's contract) */
void smc_req(struct smc_in_params *in, struct smc_out_params *out, uint8_t wait)
{
	struct tzsim_regs r;

	do {
		r.x[0] = in->x0;
		r.x[1] = in->x1;
		r.x[2] = in->x2;
		r.x[3] = in->x3;
		r.x[4] = in->x4;
		r.x[5] = in->x5;
		r.x[6] = in->x6;
		r.x[7] = in->x7;
		tzsim_smc(&r, TZSIM_GEN_NEWEST);
		out->ret = r.x[0];
		out->exit_reason = r.x[1];
		out->ta = r.x[2];
		out->target = r.x[3];
	} while (out->ret == 0xB2000008 /* TSP_REQUEST */ && wait);
}
#else
/* tzsim_smc_regs - the C side of tzsim_smc_insn: x0..x7 in, x0..x3 out */
void tzsim_smc_regs(struct tzsim_regs *r);
void tzsim_smc_regs(struct tzsim_regs *r)
{
	tzsim_smc(r, TZSIM_GEN_V1);
}

/*
 * tzsim_smc_insn - what "smc #0" became. On entry x29/x30 are saved by the
 * macro (tzsim_v1.h); this saves x4..x18 and x0..x7 as the argument block,
 * calls tzsim_smc_regs() with it, and returns with x0..x3 its answer.
 */
asm(
"	.pushsection .text\n"
"	.globl tzsim_smc_insn\n"
"	.type tzsim_smc_insn, %function\n"
"tzsim_smc_insn:\n"
"	stp	x29, x30, [sp, #-208]!\n"
"	mov	x29, sp\n"
"	stp	x0, x1, [sp, #16]\n"
"	stp	x2, x3, [sp, #32]\n"
"	stp	x4, x5, [sp, #48]\n"
"	stp	x6, x7, [sp, #64]\n"
"	stp	x8, x9, [sp, #80]\n"
"	stp	x10, x11, [sp, #96]\n"
"	stp	x12, x13, [sp, #112]\n"
"	stp	x14, x15, [sp, #128]\n"
"	stp	x16, x17, [sp, #144]\n"
"	str	x18, [sp, #160]\n"
"	add	x0, sp, #16\n"
"	bl	tzsim_smc_regs\n"
"	ldp	x0, x1, [sp, #16]\n"
"	ldp	x2, x3, [sp, #32]\n"
"	ldp	x4, x5, [sp, #48]\n"
"	ldp	x6, x7, [sp, #64]\n"
"	ldp	x8, x9, [sp, #80]\n"
"	ldp	x10, x11, [sp, #96]\n"
"	ldp	x12, x13, [sp, #112]\n"
"	ldp	x14, x15, [sp, #128]\n"
"	ldp	x16, x17, [sp, #144]\n"
"	ldr	x18, [sp, #160]\n"
"	ldp	x29, x30, [sp], #208\n"
"	ret\n"
"	.size tzsim_smc_insn, . - tzsim_smc_insn\n"
"	.popsection\n");
#endif
