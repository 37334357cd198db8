// SPDX-License-Identifier: GPL-2.0
/*
 * kretprobe.c - the one registrar of teeprobe.ko's kretprobes (see
 * kretprobe.h). A part describes its probes, adds them to a set and
 * attaches the set; one module notifier serves every set: probes that wait
 * for a module are tried again when any module loads, and those inside a
 * module that goes are detached and wait for it again. A registration
 * that fails is said once, not on every module load. For a driver that
 * comes in versions, a probe may be optional or one of alternatives, and
 * a static function is found under its compiler clones' names.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/kprobes.h>
#include <linux/delay.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>

#include "kretprobe.h"
#include "teeprobe.h"

static LIST_HEAD(sets);
static DEFINE_MUTEX(kretprobes_lock);	/* sets, and every probe's state */

/*
 * The suffixes GCC gives the clones of a static function it specialises
 * (tzdriver's smp_smc_send is smp_smc_send.constprop.0 in v1.0.0 and
 * smp_smc_send.constprop.0.isra.0 in the newest tree), tried in turn when
 * the plain name is not in kallsyms: bounded, as a module cannot walk
 * kallsyms.
 */
static const char * const clone_suffixes[] = {
	"", ".constprop.0", ".isra.0", ".part.0", ".constprop.0.isra.0",
	".isra.0.constprop.0", ".part.0.constprop.0", ".constprop.1",
};

/* register_named - register @p under its symbol, or a clone's name */
static int register_named(struct teeprobe_kretprobe *p)
{
	unsigned int i, n = p->clones ? ARRAY_SIZE(clone_suffixes) : 1;
	int ret = -ENOENT;

	for (i = 0; i < n && ret == -ENOENT; i++) {
		if (snprintf(p->name, sizeof(p->name), "%s%s", p->symbol,
			     clone_suffixes[i]) >= sizeof(p->name))
			break;
		memset(&p->rp, 0, sizeof(p->rp));
		p->rp.kp.symbol_name = p->name;
		p->rp.entry_handler = p->entry;
		p->rp.handler = p->ret;
		p->rp.data_size = p->data_size;
		p->rp.maxactive = p->maxactive;
		ret = teeprobe_should_fail(p->name) ? -ENOMEM :
		      register_kretprobe(&p->rp);
	}
	if (ret)
		strscpy(p->name, p->symbol, sizeof(p->name));
	return ret;
}

/* attach_one - register @p; a missing symbol waits if @set waits */
static void attach_one(struct teeprobe_kretprobes *set,
		       struct teeprobe_kretprobe *p)
{
	int ret = register_named(p);

	if (!ret) {
		p->state = TEEPROBE_PROBE_ATTACHED;
		p->error = 0;
		if (set->wait_for_modules)
			pr_info("%sprobing %s\n", set->prefix, p->name);
		return;
	}
	/*
	 * Said once: it is tried again whenever a module loads. A probe that
	 * only some versions of the driver have is said when it is absent.
	 */
	if (ret == -ENOENT && set->wait_for_modules) {
		if (p->error != ret && !p->optional && !p->group)
			pr_info("%s%s not found: waiting for a module that has it\n",
				set->prefix, p->symbol);
	} else if (p->error != ret) {
		pr_warn("%scannot probe %s: error %d\n", set->prefix, p->symbol,
			ret);
	}
	p->error = ret;
	p->state = ret == -ENOENT ? TEEPROBE_PROBE_NOT_FOUND :
				    TEEPROBE_PROBE_FAILED;
}

/*
 * teeprobe_kprobe_quiesce - disable @kp before it is unregistered. On a
 * kprobe at an ftrace site disarming it updates ftrace's filter, which
 * allocates; when that fails inside unregister_kprobe(), the kernel leaves
 * the kprobe in its table (kernel/kprobes.c, __unregister_kprobe_top())
 * while its owner frees it, and the next lookup reads freed memory (t87's
 * fail-nth walk over rmmod found it). disable_kprobe() that fails leaves it
 * armed and intact: it is tried again; once disabled, unregistering
 * disarms nothing.
 */
void teeprobe_kprobe_quiesce(struct kprobe *kp)
{
	unsigned int tries;
	int ret;

	for (tries = 0; tries < 100; tries++) {
		ret = disable_kprobe(kp);
		if (ret != -ENOMEM)
			break;
		msleep(20);
	}
	if (ret)
		pr_err("cannot disable the probe at %pS before unregistering it: error %d\n",
		       kp->addr, ret);
}

/* detach_one - unregister @p if attached; calls in flight finish unaccounted */
static void detach_one(struct teeprobe_kretprobe *p)
{
	if (p->state == TEEPROBE_PROBE_ATTACHED) {
		teeprobe_kprobe_quiesce(&p->rp.kp);
		unregister_kretprobe(&p->rp);
	}
	p->state = TEEPROBE_PROBE_NOT_FOUND;
	p->error = -ENOENT;
}

/* group_attached - is another probe of @p's group attached? */
static bool group_attached(struct teeprobe_kretprobes *set,
			   const struct teeprobe_kretprobe *p)
{
	const struct teeprobe_kretprobe *q;

	list_for_each_entry(q, &set->probes, node)
		if (q != p && q->group == p->group &&
		    q->state == TEEPROBE_PROBE_ATTACHED)
			return true;
	return false;
}

/* mark_absent - @p is not in the version of the driver that is loaded */
static void mark_absent(struct teeprobe_kretprobes *set,
			struct teeprobe_kretprobe *p)
{
	if (p->state != TEEPROBE_PROBE_ABSENT)
		pr_info("%s%s: not in this version of the driver\n",
			set->prefix, p->symbol);
	p->state = TEEPROBE_PROBE_ABSENT;
	p->error = -ENOENT;
}

/*
 * attach_waiting - try every probe of @set not attached nor absent (lock
 * held). The set's first probe goes first: once its module is there (it
 * attached, or was found and refused), an optional probe not found is
 * absent from that version; so is the rest of a group one of which is
 * attached.
 */
static void attach_waiting(struct teeprobe_kretprobes *set)
{
	struct teeprobe_kretprobe *p, *first;
	bool driver;

	if (list_empty(&set->probes))
		return;
	first = list_first_entry(&set->probes, struct teeprobe_kretprobe, node);
	if (first->state != TEEPROBE_PROBE_ATTACHED)
		attach_one(set, first);
	driver = first->state != TEEPROBE_PROBE_NOT_FOUND;
	list_for_each_entry(p, &set->probes, node) {
		if (p->state == TEEPROBE_PROBE_ATTACHED ||
		    p->state == TEEPROBE_PROBE_ABSENT || p == first)
			continue;
		if (p->group && group_attached(set, p)) {
			mark_absent(set, p);
			continue;
		}
		attach_one(set, p);
		if (p->state == TEEPROBE_PROBE_NOT_FOUND && p->optional && driver)
			mark_absent(set, p);
	}
	/* a group's member not found before a later one was attached */
	list_for_each_entry(p, &set->probes, node)
		if (p->group && p->state == TEEPROBE_PROBE_NOT_FOUND &&
		    group_attached(set, p))
			mark_absent(set, p);
}

/*
 * module_going - detach the probes of every set that are inside @mod;
 * what a set's driver lacked may be in the version that loads next
 */
static void module_going(struct module *mod)
{
	struct teeprobe_kretprobes *set;
	struct teeprobe_kretprobe *p;
	bool gone;

	list_for_each_entry(set, &sets, node) {
		gone = false;
		list_for_each_entry(p, &set->probes, node) {
			if (p->state != TEEPROBE_PROBE_ATTACHED ||
			    !within_module((unsigned long)p->rp.kp.addr, mod))
				continue;
			detach_one(p);
			gone = true;
			pr_info("%s%s went away with module %s: waiting for it again\n",
				set->prefix, p->name, mod->name);
		}
		list_for_each_entry(p, &set->probes, node)
			if (gone && p->state == TEEPROBE_PROBE_ABSENT)
				p->state = TEEPROBE_PROBE_NOT_FOUND;
	}
}

/* kretprobes_module_notify - attach to modules that load, detach from those that go */
static int kretprobes_module_notify(struct notifier_block *nb,
				    unsigned long action, void *data)
{
	struct teeprobe_kretprobes *set;

	mutex_lock(&kretprobes_lock);
	if (action == MODULE_STATE_LIVE) {
		list_for_each_entry(set, &sets, node)
			if (set->wait_for_modules)
				attach_waiting(set);
	} else if (action == MODULE_STATE_GOING) {
		module_going(data);
	}
	mutex_unlock(&kretprobes_lock);
	return NOTIFY_DONE;
}

static struct notifier_block kretprobes_module_nb = {
	.notifier_call = kretprobes_module_notify,
};

/* teeprobe_kretprobes_prepare - an empty set of kretprobes */
void teeprobe_kretprobes_prepare(struct teeprobe_kretprobes *set,
				 const char *prefix, bool wait_for_modules)
{
	set->prefix = prefix;
	set->wait_for_modules = wait_for_modules;
	INIT_LIST_HEAD(&set->probes);
	INIT_LIST_HEAD(&set->node);
}

/* teeprobe_kretprobe_add - @p joins @set, not attached yet */
void teeprobe_kretprobe_add(struct teeprobe_kretprobes *set,
			    struct teeprobe_kretprobe *p)
{
	p->state = TEEPROBE_PROBE_NOT_FOUND;
	p->error = 0;
	strscpy(p->name, p->symbol, sizeof(p->name));
	list_add_tail(&p->node, &set->probes);
}

/*
 * teeprobe_kretprobes_attach - attach every probe of @set that can be, and
 * follow the modules for it from now on. A probe that failed is not an
 * error here: its part decides (its state says why).
 */
void teeprobe_kretprobes_attach(struct teeprobe_kretprobes *set)
{
	mutex_lock(&kretprobes_lock);
	list_add_tail(&set->node, &sets);
	attach_waiting(set);
	mutex_unlock(&kretprobes_lock);
}

/*
 * teeprobe_kretprobes_detach - detach every probe of @set, last first; no
 * handler of theirs runs after this
 */
void teeprobe_kretprobes_detach(struct teeprobe_kretprobes *set)
{
	struct teeprobe_kretprobe *p;

	mutex_lock(&kretprobes_lock);
	list_del_init(&set->node);
	list_for_each_entry_reverse(p, &set->probes, node)
		detach_one(p);
	mutex_unlock(&kretprobes_lock);
}

/* teeprobe_kretprobe_status - @p's state, last error and missed hits */
void teeprobe_kretprobe_status(const struct teeprobe_kretprobe *p,
			       struct teeprobe_kretprobe_status *st)
{
	mutex_lock(&kretprobes_lock);
	strscpy(st->name, p->state == TEEPROBE_PROBE_ATTACHED ? p->name : p->symbol,
		sizeof(st->name));
	st->state = p->state;
	st->error = p->error;
	st->nmissed = p->state == TEEPROBE_PROBE_ATTACHED ?
		      p->rp.nmissed + p->rp.kp.nmissed : 0;
	mutex_unlock(&kretprobes_lock);
}

/* teeprobe_kretprobes_init - follow the modules that load and go */
int teeprobe_kretprobes_init(void)
{
	return register_module_notifier(&kretprobes_module_nb);
}

/* teeprobe_kretprobes_exit - after every set is detached */
void teeprobe_kretprobes_exit(void)
{
	unregister_module_notifier(&kretprobes_module_nb);
}
