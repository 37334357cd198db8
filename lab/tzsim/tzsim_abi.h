/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tzsim_abi.h - the one call between iTrustee's tzdriver and tzsim, the
 * lab's simulated iTrustee secure side, where the hardware has an SMC.
 *
 * tzdriver issues its SMCs with eight argument registers (x0..x7) and reads
 * four results back (x0..x3); tzsim_smc() takes and gives them in a struct
 * tzsim_regs. scripts/tzdriver builds tzsim_glue.c into tzdriver.ko to call
 * it: in the newest tree as smc_req(), the function every SMC goes through,
 * and in v1.0.0, whose "smc #0" is inline in several functions, as the
 * target of the instruction itself (an assembler macro turns it into a call
 * that keeps every other register, as the SMC calling convention does).
 */
#ifndef TZSIM_ABI_H
#define TZSIM_ABI_H

/* The generations of tzdriver's protocol tzsim answers */
#define TZSIM_GEN_NEWEST	2	/* 09dbb3b: compat words 7.0, smc_req */
#define TZSIM_GEN_V1		1	/* v1.0.0: root key, compat 0.1, tokens */

/* struct tzsim_regs - one SMC: x[0..7] going in, x[0..3] coming back */
struct tzsim_regs {
	unsigned long x[8];
};

/*
 * tzsim_smc - the secure side's answer to one SMC of tzdriver generation
 * @gen (TZSIM_GEN_*), issued by the current thread. Never sleeps: it may
 * be called with preemption off; it may spin for a TA's time.
 */
void tzsim_smc(struct tzsim_regs *regs, unsigned int gen);

#endif /* TZSIM_ABI_H */
