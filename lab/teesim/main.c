// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - teesim.ko: a simulated secure world registered through the
 * kernel's TEE core (tee_device_alloc/tee_device_register), reached from
 * user space with the standard <linux/tee.h> ioctls on /dev/teeN.
 *
 * Module parameters (all validated; a bad value fails the load with EINVAL):
 *   secure_threads  secure threads in the pool; 0 = one per online CPU, as
 *                   OP-TEE platforms usually size CFG_NUM_THREADS (0..64)
 *   switch_us       CPU time of one world switch, entry and exit, spent
 *                   with bottom halves off on the calling CPU (0..10000)
 *   invoke_us       secure-world work of one INVOKE: the secure thread is
 *                   busy, the caller sleeps (0..100000)
 *   invoke_cpu_us   secure-world work of one INVOKE on the calling CPU,
 *                   bottom halves off, as an OP-TEE TA computes (0..100000)
 *   shm_us          the same for one shared-memory registration or
 *                   unregistration (0..100000)
 *   shm_cpu_us      the part of a registration or unregistration done on
 *                   the calling CPU in the secure world, bottom halves off
 *                   (0..100000)
 *   driver_us       the normal-world driver's own work per INVOKE, on the
 *                   calling CPU outside the secure world (0..100000)
 *   unreg_pct       an unregistration's shm_us and shm_cpu_us, in percent of
 *                   a registration's (0..100; 100: as long)
 *   pool_kib        most memory the SHM_ALLOC pool hands out (64..65536)
 *
 * The defaults and where they come from are in Documentation/lab.rst. In
 * short: times are wall-clock time of the machine teesim runs on (in the lab,
 * a QEMU guest under TCG, some 15 times slower than hardware), and a
 * registration costs twice an invoke because the secure world maps every
 * page of it, and unmaps it with TLB maintenance on every core, while a
 * small crypto invoke touches memory that is already mapped.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/idr.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/uuid.h>

#include "teesim.h"
#include "teesim_abi.h"

struct teesim_params teesim_params = {
	.secure_threads	= 0,
	.switch_us	= 50,
	.invoke_us	= 1000,
	.invoke_cpu_us	= 0,
	.shm_us		= 1500,
	.shm_cpu_us	= 500,
	.driver_us	= 0,
	.unreg_pct	= 100,
	.pool_kib	= 4096,
};

/* Range of each parameter, checked by param_set_ranged() */
struct ranged_param {
	unsigned int *value;
	unsigned int min, max;
	const char *name;
};

/* param_set_ranged - parse an unsigned decimal and check its range */
static int param_set_ranged(const char *val, const struct kernel_param *kp)
{
	const struct ranged_param *rp = kp->arg;
	unsigned int v;

	if (kstrtouint(val, 10, &v) || v < rp->min || v > rp->max) {
		pr_err("%s=%s: must be a number from %u to %u\n", rp->name,
		       val, rp->min, rp->max);
		return -EINVAL;
	}
	*rp->value = v;
	return 0;
}

/* param_get_ranged - print the current value */
static int param_get_ranged(char *buffer, const struct kernel_param *kp)
{
	const struct ranged_param *rp = kp->arg;

	return sysfs_emit(buffer, "%u\n", *rp->value);
}

static const struct kernel_param_ops ranged_ops = {
	.set = param_set_ranged,
	.get = param_get_ranged,
};

#define TEESIM_PARAM(field, lo, hi, desc)				\
	static struct ranged_param rp_##field = {			\
		&teesim_params.field, lo, hi, #field };			\
	module_param_cb(field, &ranged_ops, &rp_##field, 0444);	\
	MODULE_PARM_DESC(field, desc)

TEESIM_PARAM(secure_threads, 0, TEESIM_MAX_SECURE_THREADS,
	     "secure threads; 0 = one per online CPU (0..64, default 0)");
TEESIM_PARAM(switch_us, 0, 10000,
	     "CPU time of one world switch in us, bottom halves off (default 50)");
TEESIM_PARAM(invoke_us, 0, 100000,
	     "secure work of one INVOKE in us, caller asleep (default 1000)");
TEESIM_PARAM(invoke_cpu_us, 0, 100000,
	     "secure work of one INVOKE on the calling CPU in us, bottom halves off (default 0)");
TEESIM_PARAM(shm_us, 0, 100000,
	     "secure work of one shm (un)registration in us, caller asleep (default 1500)");
TEESIM_PARAM(shm_cpu_us, 0, 100000,
	     "CPU time of one shm (un)registration in us, bottom halves off (default 500)");
TEESIM_PARAM(driver_us, 0, 100000,
	     "normal-world driver work per INVOKE in us, on the calling CPU (default 0)");
TEESIM_PARAM(unreg_pct, 0, 100,
	     "an unregistration's cost in % of a registration's (default 100)");
TEESIM_PARAM(pool_kib, 64, 65536,
	     "most memory the SHM_ALLOC pool hands out, KiB (default 4096)");

static struct platform_device *teesim_pdev;
static struct tee_device *teesim_teedev;
static struct tee_shm_pool *teesim_pool;
static atomic64_t pool_used = ATOMIC64_INIT(0);

/* Per open file: the sessions opened through it */
struct teesim_context {
	struct mutex lock;	/* protects sessions */
	struct idr sessions;
};

/* teesim_get_version - what TEE_IOC_VERSION reports */
static void teesim_get_version(struct tee_device *teedev,
			       struct tee_ioctl_version_data *vers)
{
	vers->impl_id = TEESIM_IMPL_ID;
	vers->impl_caps = 0;
	vers->gen_caps = TEE_GEN_CAP_GP | TEE_GEN_CAP_REG_MEM;
}

/* teesim_open - a new context for an open of /dev/teeN */
static int teesim_open(struct tee_context *ctx)
{
	struct teesim_context *sctx = kzalloc(sizeof(*sctx), GFP_KERNEL);

	if (!sctx)
		return -ENOMEM;
	mutex_init(&sctx->lock);
	idr_init(&sctx->sessions);
	ctx->data = sctx;
	return 0;
}

/* close_one - secure call that ends one session */
static int close_one(int id, void *p, void *data)
{
	teesim_secure_call(TEESIM_CALL_CLOSE_SESSION, 0, 0, NULL, NULL);
	atomic64_dec(&teesim_stats.sessions_open);
	return 0;
}

/* teesim_release - the file is closed: end the sessions left open */
static void teesim_release(struct tee_context *ctx)
{
	struct teesim_context *sctx = ctx->data;

	idr_for_each(&sctx->sessions, close_one, NULL);
	idr_destroy(&sctx->sessions);
	mutex_destroy(&sctx->lock);
	kfree(sctx);
	ctx->data = NULL;
}

/* teesim_open_session - sessions exist only for the crypto TA's UUID */
static int teesim_open_session(struct tee_context *ctx,
			       struct tee_ioctl_open_session_arg *arg,
			       struct tee_param *param)
{
	static const u8 ta_uuid[TEE_IOCTL_UUID_LEN] = TEESIM_TA_UUID;
	struct teesim_context *sctx = ctx->data;
	int id, ret;

	if (memcmp(arg->uuid, ta_uuid, TEE_IOCTL_UUID_LEN)) {
		arg->ret = TEEC_ERROR_ITEM_NOT_FOUND;
		arg->ret_origin = TEEC_ORIGIN_TEE;
		return 0;
	}
	ret = teesim_secure_call(TEESIM_CALL_OPEN_SESSION, 0, 0, NULL, NULL);
	if (ret)
		return ret;
	mutex_lock(&sctx->lock);
	id = idr_alloc(&sctx->sessions, sctx, 1, 0, GFP_KERNEL);
	mutex_unlock(&sctx->lock);
	if (id < 0) {
		arg->ret = TEEC_ERROR_OUT_OF_MEMORY;
		arg->ret_origin = TEEC_ORIGIN_TEE;
		return 0;
	}
	atomic64_inc(&teesim_stats.sessions_open);
	arg->session = id;
	arg->ret = TEEC_SUCCESS;
	arg->ret_origin = TEEC_ORIGIN_TEE;
	return 0;
}

/* teesim_close_session - end a session this context opened */
static int teesim_close_session(struct tee_context *ctx, u32 session)
{
	struct teesim_context *sctx = ctx->data;
	void *found;

	mutex_lock(&sctx->lock);
	found = idr_remove(&sctx->sessions, session);
	mutex_unlock(&sctx->lock);
	if (!found)
		return -EINVAL;
	teesim_secure_call(TEESIM_CALL_CLOSE_SESSION, 0, 0, NULL, NULL);
	atomic64_dec(&teesim_stats.sessions_open);
	return 0;
}

struct invoke_work {
	struct tee_ioctl_invoke_arg *arg;
	struct tee_param *param;
};

/* invoke_in_secure_world - the TA's part of an INVOKE */
static int invoke_in_secure_world(struct teesim_thread *thread, void *data)
{
	struct invoke_work *w = data;

	w->arg->ret_origin = TEEC_ORIGIN_TRUSTED_APP;
	return teesim_ta_invoke(thread, w->arg->func, w->param,
				w->arg->num_params, &w->arg->ret);
}

/* teesim_invoke_func - TEE_IOC_INVOKE on an open session */
static int teesim_invoke_func(struct tee_context *ctx,
			      struct tee_ioctl_invoke_arg *arg,
			      struct tee_param *param)
{
	struct teesim_context *sctx = ctx->data;
	struct invoke_work w = { .arg = arg, .param = param };
	bool known;

	mutex_lock(&sctx->lock);
	known = idr_find(&sctx->sessions, arg->session);
	mutex_unlock(&sctx->lock);
	if (!known) {
		arg->ret = TEEC_ERROR_BAD_PARAMETERS;
		arg->ret_origin = TEEC_ORIGIN_TEE;
		return 0;
	}
	teesim_driver_work(teesim_params.driver_us);
	return teesim_secure_call(TEESIM_CALL_INVOKE, teesim_params.invoke_us,
				  teesim_params.invoke_cpu_us,
				  invoke_in_secure_world, &w);
}

/* teesim_shm_register - map user pages into the "secure world" */
static int teesim_shm_register(struct tee_context *ctx, struct tee_shm *shm,
			       struct page **pages, size_t num_pages,
			       unsigned long start)
{
	return teesim_secure_call(TEESIM_CALL_SHM_REGISTER, teesim_params.shm_us,
				  teesim_params.shm_cpu_us, NULL, NULL);
}

/* teesim_shm_unregister - unmap them again; always succeeds */
static int teesim_shm_unregister(struct tee_context *ctx, struct tee_shm *shm)
{
	unsigned int pct = teesim_params.unreg_pct;

	return teesim_secure_call(TEESIM_CALL_SHM_UNREGISTER,
				  teesim_params.shm_us * pct / 100,
				  teesim_params.shm_cpu_us * pct / 100, NULL, NULL);
}

static const struct tee_driver_ops teesim_ops = {
	.get_version	= teesim_get_version,
	.open		= teesim_open,
	.release	= teesim_release,
	.open_session	= teesim_open_session,
	.close_session	= teesim_close_session,
	.invoke_func	= teesim_invoke_func,
	.shm_register	= teesim_shm_register,
	.shm_unregister	= teesim_shm_unregister,
};

static const struct tee_desc teesim_desc = {
	.name	= "teesim",
	.ops	= &teesim_ops,
	.owner	= THIS_MODULE,
};

/* pool_alloc - whole zeroed pages, physically contiguous for mmap() */
static int pool_alloc(struct tee_shm_pool *pool, struct tee_shm *shm,
		      size_t size, size_t align)
{
	size_t bytes = PAGE_ALIGN(size);
	void *va;

	if (!bytes || bytes > (u64)teesim_params.pool_kib * 1024)
		return -ENOMEM;
	if (atomic64_add_return(bytes, &pool_used) >
	    (s64)teesim_params.pool_kib * 1024) {
		atomic64_sub(bytes, &pool_used);
		return -ENOMEM;
	}
	va = alloc_pages_exact(bytes, GFP_KERNEL | __GFP_ZERO);
	if (!va) {
		atomic64_sub(bytes, &pool_used);
		return -ENOMEM;
	}
	shm->kaddr = va;
	shm->paddr = virt_to_phys(va);
	shm->size = bytes;
	atomic64_inc(&teesim_stats.shm_pool_allocs);
	atomic64_add(bytes, &teesim_stats.shm_pool_bytes);
	return 0;
}

/* pool_free - give the pages back */
static void pool_free(struct tee_shm_pool *pool, struct tee_shm *shm)
{
	free_pages_exact(shm->kaddr, shm->size);
	atomic64_sub(shm->size, &pool_used);
	atomic64_inc(&teesim_stats.shm_pool_frees);
	shm->kaddr = NULL;
}

#ifdef TEESIM_POOL_MGRS
/* The pool as two managers of the same memory (compat.h) */
static int mgr_alloc(struct tee_shm_pool_mgr *mgr, struct tee_shm *shm,
		     size_t size)
{
	return pool_alloc(NULL, shm, size, PAGE_SIZE);
}

static void mgr_free(struct tee_shm_pool_mgr *mgr, struct tee_shm *shm)
{
	pool_free(NULL, shm);
}

static void mgr_destroy(struct tee_shm_pool_mgr *mgr)
{
	kfree(mgr);
}

static const struct tee_shm_pool_mgr_ops teesim_mgr_ops = {
	.alloc		= mgr_alloc,
	.free		= mgr_free,
	.destroy_poolmgr = mgr_destroy,
};

/* teesim_pool_create - tee_shm_pool_free() frees what this makes */
static struct tee_shm_pool *teesim_pool_create(void)
{
	struct tee_shm_pool_mgr *priv, *dmabuf;
	struct tee_shm_pool *pool;

	priv = kzalloc(sizeof(*priv), GFP_KERNEL);
	dmabuf = kzalloc(sizeof(*dmabuf), GFP_KERNEL);
	if (!priv || !dmabuf) {
		pool = ERR_PTR(-ENOMEM);
		goto out_free;
	}
	priv->ops = &teesim_mgr_ops;
	dmabuf->ops = &teesim_mgr_ops;
	pool = tee_shm_pool_alloc(priv, dmabuf);
	if (!IS_ERR(pool))
		return pool;
out_free:
	kfree(dmabuf);
	kfree(priv);
	return pool;
}
#else
/* pool_destroy - the pool itself, freed by teesim_exit() */
static void pool_destroy(struct tee_shm_pool *pool)
{
	kfree(pool);
}

static const struct tee_shm_pool_ops teesim_pool_ops = {
	.alloc		= pool_alloc,
	.free		= pool_free,
	.destroy_pool	= pool_destroy,
};

/* teesim_pool_create - tee_shm_pool_free() frees what this makes */
static struct tee_shm_pool *teesim_pool_create(void)
{
	struct tee_shm_pool *pool = kzalloc(sizeof(*pool), GFP_KERNEL);

	if (!pool)
		return ERR_PTR(-ENOMEM);
	pool->ops = &teesim_pool_ops;
	return pool;
}
#endif

/* teesim_init - secure world, debugfs, then the TEE device */
static int __init teesim_init(void)
{
	int ret;

	if (!teesim_params.secure_threads)
		teesim_params.secure_threads = min_t(unsigned int,
						     num_online_cpus(),
						     TEESIM_MAX_SECURE_THREADS);
	ret = teesim_secure_init();
	if (ret)
		return ret;
	ret = teesim_stats_init();
	if (ret)
		goto out_secure_exit;

	teesim_pdev = platform_device_register_simple("teesim",
						      PLATFORM_DEVID_NONE,
						      NULL, 0);
	if (IS_ERR(teesim_pdev)) {
		ret = PTR_ERR(teesim_pdev);
		goto out_stats_exit;
	}
	teesim_pool = teesim_pool_create();
	if (IS_ERR(teesim_pool)) {
		ret = PTR_ERR(teesim_pool);
		goto out_unregister_pdev;
	}
	teesim_teedev = tee_device_alloc(&teesim_desc, &teesim_pdev->dev,
					 teesim_pool, NULL);
	if (IS_ERR(teesim_teedev)) {
		ret = PTR_ERR(teesim_teedev);
		goto out_free_pool;
	}
	ret = tee_device_register(teesim_teedev);
	if (ret)
		goto out_unregister_teedev;

	pr_info("secure world up: %u secure threads, switch %u us, invoke %u+%u us, shm %u+%u us, driver %u us, unregister %u %%\n",
		teesim_params.secure_threads, teesim_params.switch_us,
		teesim_params.invoke_us, teesim_params.invoke_cpu_us,
		teesim_params.shm_us, teesim_params.shm_cpu_us,
		teesim_params.driver_us, teesim_params.unreg_pct);
	return 0;

out_unregister_teedev:
	tee_device_unregister(teesim_teedev);
out_free_pool:
	tee_shm_pool_free(teesim_pool);
out_unregister_pdev:
	platform_device_unregister(teesim_pdev);
out_stats_exit:
	teesim_stats_exit();
out_secure_exit:
	teesim_secure_exit();
	return ret;
}

/*
 * teesim_exit - tear down in reverse. Open /dev/teeN files pin this module
 * (the TEE core's cdev is owned by it). A shared-memory fd that outlives its
 * /dev/teeN file does not: tee_device_unregister() then waits for it to be
 * closed, and its unregistration still finds the secure world up.
 */
static void __exit teesim_exit(void)
{
	tee_device_unregister(teesim_teedev);
	tee_shm_pool_free(teesim_pool);
	platform_device_unregister(teesim_pdev);
	teesim_stats_exit();
	teesim_secure_exit();
}

module_init(teesim_init);
module_exit(teesim_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("teeprobe developers");
MODULE_DESCRIPTION("Simulated TEE secure world for the teeprobe lab");
