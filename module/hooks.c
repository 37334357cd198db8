// SPDX-License-Identifier: GPL-2.0
/*
 * hooks.c - attach to the kernel's own tracepoints by name.
 *
 * An out-of-tree module cannot use register_trace_<name>() for tracepoints
 * the kernel does not export, so, as lttng-modules does, each part of
 * teeprobe names the tracepoints it needs and this file finds them with
 * for_each_kernel_tracepoint() and registers probes with
 * tracepoint_probe_register(). A part attaches all of its hooks or none.
 * The "hooks" debugfs file lists every hook and its state.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "teeprobe.h"

#define TEEPROBE_HOOK_PARTS	8

struct teeprobe_hook_part {
	const char *part;
	struct teeprobe_hook *hooks;
	unsigned int n;
};

static struct teeprobe_hook_part parts[TEEPROBE_HOOK_PARTS];
static DEFINE_MUTEX(parts_lock);

struct teeprobe_find {
	const char *name;
	struct tracepoint *tp;
};

/* find_one - for_each_kernel_tracepoint() callback matching a name */
static void find_one(struct tracepoint *tp, void *priv)
{
	struct teeprobe_find *f = priv;

	if (!strcmp(tp->name, f->name))
		f->tp = tp;
}

/* teeprobe_find_tracepoint - the kernel's tracepoint called @name, or NULL */
struct tracepoint *teeprobe_find_tracepoint(const char *name)
{
	struct teeprobe_find f = { .name = name };

	for_each_kernel_tracepoint(find_one, &f);
	return f.tp;
}

/* unregister_n - unregister the first @n hooks (no synchronisation) */
static void unregister_n(struct teeprobe_hook *hooks, unsigned int n)
{
	while (n--) {
		if (hooks[n].tp && !hooks[n].error)
			tracepoint_probe_unregister(hooks[n].tp, hooks[n].probe,
						    hooks[n].data);
	}
}

/*
 * teeprobe_hooks_attach - register every hook of @part or none.
 * On failure the hooks already registered are unregistered and the
 * tracepoints synchronised, and the error is returned.
 */
int teeprobe_hooks_attach(const char *part, struct teeprobe_hook *hooks,
			  unsigned int n)
{
	unsigned int i, slot;
	int ret = 0;

	mutex_lock(&parts_lock);
	for (slot = 0; slot < TEEPROBE_HOOK_PARTS && parts[slot].part; slot++)
		;
	if (WARN_ON_ONCE(slot == TEEPROBE_HOOK_PARTS)) {
		ret = -ENOSPC;
		goto out_unlock;
	}
	for (i = 0; i < n; i++) {
		hooks[i].tp = teeprobe_find_tracepoint(hooks[i].name);
		if (!hooks[i].tp) {
			pr_err("%s: no %s tracepoint in this kernel\n", part,
			       hooks[i].name);
			hooks[i].error = -ENOENT;
			ret = -ENOENT;
			break;
		}
		hooks[i].error = teeprobe_should_fail(hooks[i].name) ? -ENOMEM :
				 tracepoint_probe_register(hooks[i].tp,
							   hooks[i].probe,
							   hooks[i].data);
		if (hooks[i].error) {
			pr_err("%s: cannot attach to %s: %d\n", part,
			       hooks[i].name, hooks[i].error);
			ret = hooks[i].error;
			break;
		}
	}
	if (ret) {
		unregister_n(hooks, i);
		tracepoint_synchronize_unregister();
		goto out_unlock;
	}
	parts[slot] = (struct teeprobe_hook_part){ part, hooks, n };
out_unlock:
	mutex_unlock(&parts_lock);
	return ret;
}

/*
 * teeprobe_hooks_detach - unregister the hooks of @part. The caller waits
 * with tracepoint_synchronize_unregister() before freeing what they use.
 */
void teeprobe_hooks_detach(struct teeprobe_hook *hooks, unsigned int n)
{
	unsigned int slot;

	mutex_lock(&parts_lock);
	for (slot = 0; slot < TEEPROBE_HOOK_PARTS; slot++)
		if (parts[slot].hooks == hooks)
			parts[slot] = (struct teeprobe_hook_part){};
	unregister_n(hooks, n);
	mutex_unlock(&parts_lock);
}

/* teeprobe_hooks_show - the "hooks" debugfs file */
void teeprobe_hooks_show(struct seq_file *m)
{
	unsigned int slot, i;

	seq_puts(m, TEEPROBE_HEADER(TEEPROBE_NONE, TEEPROBE_HOOKS_COLS));
	mutex_lock(&parts_lock);
	for (slot = 0; slot < TEEPROBE_HOOK_PARTS; slot++) {
		for (i = 0; i < parts[slot].n; i++) {
			const struct teeprobe_hook *h = &parts[slot].hooks[i];

			seq_printf(m, "%s %s\n", parts[slot].part, h->name);
		}
	}
	mutex_unlock(&parts_lock);
}
