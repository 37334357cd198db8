/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernelreq.h - what teeprobe.ko needs of the running kernel (kernelreq.c).
 */
#ifndef TEEPROBE_KERNELREQ_H
#define TEEPROBE_KERNELREQ_H

int kernel_requirements(void);

#endif /* TEEPROBE_KERNELREQ_H */
