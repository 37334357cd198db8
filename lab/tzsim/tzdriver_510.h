/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tzdriver_510.h - force-included into every object of tzdriver v1.0.0 by
 * scripts/tzdriver: what Debian 11's 5.10 kernel no longer gives a module
 * that v1.0.0 (written against openEuler's 5.10, which kept them) uses. No
 * file of the driver is changed for these.
 */
#ifndef TZDRIVER_510_H
#define TZDRIVER_510_H
#ifndef __ASSEMBLY__
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/string.h>

/* 5.8: mm->mmap_sem became mm->mmap_lock (the same rw_semaphore) */
#define mmap_sem mmap_lock
/* 5.9: get_user_pages_remote() lost its task argument */
#define get_user_pages_remote(task, ...) get_user_pages_remote(__VA_ARGS__)
/*
 * vfs_read() and vfs_write() are not exported: the driver calls them on
 * kernel buffers under set_fs(KERNEL_DS) (a TA image, the last log), which
 * is what kernel_read() and kernel_write() do
 */
#define vfs_read(f, b, c, p) kernel_read((f), (void *)(b), (c), (p))
#define vfs_write(f, b, c, p) kernel_write((f), (const void *)(b), (c), (p))

/*
 * tzdriver_510_ksym - kallsyms_lookup_name() (unexported since 5.7), for
 * ko_adapt.c's six look-ups: the two that start-up and sessions need are
 * exported; the others (kthread_bind_mask: the siq thread stays unbound;
 * sys_chown: the last log keeps its owner; workqueue attributes) answer 0,
 * which the driver logs and goes on without
 */
static inline unsigned long tzdriver_510_ksym(const char *name)
{
	if (!strcmp(name, "get_task_cred"))
		return (unsigned long)get_task_cred;
	if (!strcmp(name, "alloc_pages_current"))
		return (unsigned long)alloc_pages_current;
	return 0;
}
#define kallsyms_lookup_name(name) tzdriver_510_ksym(name)
#endif
#endif /* TZDRIVER_510_H */
