/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel-version difference teesim deals with, in one place.
 */
#ifndef TEESIM_COMPAT_H
#define TEESIM_COMPAT_H

#include <linux/version.h>

/*
 * Since 6.10 the driver-side TEE API (tee_device_alloc, struct tee_desc,
 * struct tee_driver_ops, struct tee_shm_pool_ops) lives in <linux/tee_core.h>;
 * before, everything was in <linux/tee_drv.h>.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#include <linux/tee_core.h>
#endif
#include <linux/tee_drv.h>

#endif /* TEESIM_COMPAT_H */
