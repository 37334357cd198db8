// SPDX-License-Identifier: GPL-2.0
/*
 * fhook.c - entry hooks on kernel functions (see fhook.h): one ftrace_ops
 * per function, filtered on that function alone, or a kprobe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/ftrace.h>
#include <linux/irqflags.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include "abi.h"
#include "compat.h"
#include "fhook.h"
#include "kretprobe.h"
#include "teeprobe.h"

#if TEEPROBE_FHOOK_FTRACE

/* fhook_ftrace - ftrace: the hooked function is entered */
static void fhook_ftrace(unsigned long ip, unsigned long parent_ip,
			 struct ftrace_ops *op, TEEPROBE_FTRACE_REGS *fregs)
{
	struct teeprobe_fhook *h = container_of(op, struct teeprobe_fhook, ops);
	struct pt_regs *regs = teeprobe_ftrace_get_regs(fregs);
	int bit;

	bit = teeprobe_ftrace_trylock(ip, parent_ip);
	if (bit < 0 || !regs) {
		atomic_long_inc(&h->missed);
		if (bit >= 0)
			teeprobe_ftrace_unlock(bit);
		return;
	}
	h->func(regs);
	teeprobe_ftrace_unlock(bit);
}

/* teeprobe_fhook_attach - filter on the symbol, then register */
void teeprobe_fhook_attach(struct teeprobe_fhook *h)
{
	/* ftrace_set_filter takes a writable buffer */
	char name[KSYM_NAME_LEN];
	int ret;

	memset(&h->ops, 0, sizeof(h->ops));
	h->ops.func = fhook_ftrace;
	h->ops.flags = FTRACE_OPS_FL_SAVE_REGS;
	atomic_long_set(&h->missed, 0);
	strscpy(name, h->symbol, sizeof(name));
	/* No match: the function does not exist here, or is not traceable. */
	ret = ftrace_set_filter(&h->ops, name, strlen(name), 0) ? -ENOENT :
	      teeprobe_should_fail(h->symbol) ? -ENOMEM :
	      register_ftrace_function(&h->ops);
	h->error = ret;
	h->attached = !ret;
	if (ret) {
		teeprobe_ftrace_free_filter(&h->ops);
		pr_warn("cannot hook %s: error %d\n", h->symbol, ret);
	}
}

/* teeprobe_fhook_detach - unregister; no callback runs after this */
void teeprobe_fhook_detach(struct teeprobe_fhook *h)
{
	if (!h->attached)
		return;
	unregister_ftrace_function(&h->ops);
	teeprobe_ftrace_free_filter(&h->ops);
	h->attached = false;
}

static const char *fhook_type(void)
{
	return "ftrace";
}

static unsigned long fhook_missed(struct teeprobe_fhook *h)
{
	return atomic_long_read(&h->missed);
}

#else /* !TEEPROBE_FHOOK_FTRACE */

/* fhook_kprobe - kprobe: the hooked function is entered */
static int fhook_kprobe(struct kprobe *kp, struct pt_regs *regs)
{
	struct teeprobe_fhook *h = container_of(kp, struct teeprobe_fhook, kp);
	unsigned long flags;

	/* Process context too: keep softirqs, and their kprobe hits, out. */
	local_irq_save(flags);
	h->func(regs);
	local_irq_restore(flags);
	return 0;
}
NOKPROBE_SYMBOL(fhook_kprobe);

void teeprobe_fhook_attach(struct teeprobe_fhook *h)
{
	int ret;

	memset(&h->kp, 0, sizeof(h->kp));
	h->kp.symbol_name = h->symbol;
	h->kp.pre_handler = fhook_kprobe;
	atomic_long_set(&h->missed, 0);
	ret = teeprobe_should_fail(h->symbol) ? -ENOMEM :
	      register_kprobe(&h->kp);
	h->error = ret;
	h->attached = !ret;
	if (ret)
		pr_warn("cannot probe %s: error %d\n", h->symbol, ret);
}

void teeprobe_fhook_detach(struct teeprobe_fhook *h)
{
	if (!h->attached)
		return;
	teeprobe_kprobe_quiesce(&h->kp);
	unregister_kprobe(&h->kp);
	h->attached = false;
}

static const char *fhook_type(void)
{
	return "kprobe";
}

static unsigned long fhook_missed(struct teeprobe_fhook *h)
{
	return h->kp.nmissed;
}

#endif /* TEEPROBE_FHOOK_FTRACE */

/* teeprobe_fhook_show - the hook's line of tcp_probes */
void teeprobe_fhook_show(struct seq_file *m, struct teeprobe_fhook *h)
{
	enum teeprobe_probe_state state = h->attached ? TEEPROBE_PROBE_ATTACHED :
		h->error == -ENOENT ? TEEPROBE_PROBE_NOT_FOUND : TEEPROBE_PROBE_FAILED;

	seq_printf(m, "%s %s %s %d %lu\n", h->symbol, fhook_type(),
		   teeprobe_probe_state_name(state), h->error,
		   h->attached ? fhook_missed(h) : 0UL);
}
