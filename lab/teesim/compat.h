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
#include <linux/highmem.h>

/*
 * Before 5.18 a shared-memory pool is two managers (private and dma-buf
 * memory), each with its own struct tee_shm_pool_mgr_ops, that
 * tee_shm_pool_alloc() joins; since, one struct tee_shm_pool with its
 * struct tee_shm_pool_ops. main.c builds the one this kernel has.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 18, 0)
#define TEESIM_POOL_MGRS	1
#endif

/* kmap_local_page() came in 5.11; kmap_atomic() before (no highmem on x86-64) */
#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 11, 0)
#define kmap_local_page(page)	kmap_atomic(page)
#define kunmap_local(addr)	kunmap_atomic(addr)
#endif

#endif /* TEESIM_COMPAT_H */
