// SPDX-License-Identifier: GPL-2.0
/*
 * tee.c - the first link of the chain: time spent in the TEE driver's ioctl,
 * per command, split into on-CPU, off-CPU and waiting for a secure thread.
 *
 * A kretprobe on the driver's ioctl entry (tee_ioctl for the mainline TEE
 * core, tc_client_ioctl for iTrustee's tzdriver, or a named symbol) times
 * each call and decodes its command. While a call is in flight its thread is
 * in a bounded hash table; a sched:sched_switch probe charges the time the
 * thread is switched out to the call. Kretprobes on the driver's "waiting
 * for the TEE" functions add the time spent there, and on its shared-memory
 * paths time those steps. Probes on symbols of a module that is not loaded
 * yet attach when it loads and detach when it goes (kretprobe.c).
 *
 * This file holds the parameters, the probes each preset sets, and the
 * part's init and exit; tee_calls.c follows the calls in flight, and
 * tee_stats.c keeps what they add up to and shows it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/tracepoint.h>

#include "tee_part.h"

/* ---- parameters ------------------------------------------------------ */

#define TEEPROBE_MAX_WAIT_SYMBOLS	10
#define TEEPROBE_MAX_MAXACTIVE	4096

static char preset[16] = "tee";
static char wait_symbols[256];
static unsigned int maxactive;

/*
 * teeprobe_symbol_list_valid - comma-separated C identifiers, at most
 * @max_items, none listed twice
 */
VISIBLE_IF_KUNIT bool teeprobe_symbol_list_valid(const char *s,
						 unsigned int max_items)
{
	unsigned int items = 0, len = 0, i;
	const char *start[TEEPROBE_MAX_PROBES + 1], *p = s;
	size_t size[TEEPROBE_MAX_PROBES + 1];

	for (; *p && *p != '\n'; p++) {
		if (*p == ',') {
			if (!len)
				return false;
			len = 0;
			continue;
		}
		if (!isalnum(*p) && *p != '_' && *p != '.')
			return false;
		if (!len++) {
			if (items == max_items || items > TEEPROBE_MAX_PROBES)
				return false;
			start[items++] = p;
		}
		size[items - 1] = len;
		if (len >= KSYM_NAME_LEN)
			return false;
	}
	if (items && !len)
		return false;
	for (i = 0; i < items; i++) {
		unsigned int j;

		for (j = 0; j < i; j++)
			if (size[i] == size[j] && !memcmp(start[i], start[j], size[i]))
				return false;
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(teeprobe_symbol_list_valid);

/* param_set_preset - one of tee, tzdriver, custom */
static int param_set_preset(const char *val, const struct kernel_param *kp)
{
	if (sysfs_streq(val, "tee") || sysfs_streq(val, "tzdriver") ||
	    sysfs_streq(val, "custom"))
		return param_set_copystring(val, kp);
	pr_err("preset=%s: must be tee, tzdriver or custom\n", val);
	return -EINVAL;
}

/* param_set_symbols - a symbol name (or a list of them), checked */
static char ioctl_symbol[KSYM_NAME_LEN];
static int param_set_symbols(const char *val, const struct kernel_param *kp)
{
	unsigned int max = kp->str->string == ioctl_symbol ? 1 : TEEPROBE_MAX_WAIT_SYMBOLS;

	if (!teeprobe_symbol_list_valid(val, max)) {
		if (max == 1)
			pr_err("%s: must be one C symbol name\n", kp->name);
		else
			pr_err("%s: must be up to %u comma-separated C symbol names, none twice\n",
			       kp->name, max);
		return -EINVAL;
	}
	return param_set_copystring(val, kp);
}

/* param_set_maxactive - 0 (automatic) or 1..TEEPROBE_MAX_MAXACTIVE */
static int param_set_maxactive(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 10, &v) || v > TEEPROBE_MAX_MAXACTIVE) {
		pr_err("maxactive=%s: must be a number from 0 to %d\n", val,
		       TEEPROBE_MAX_MAXACTIVE);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

static const struct kernel_param_ops preset_ops = {
	.set = param_set_preset,
	.get = param_get_string,
};
static const struct kernel_param_ops symbols_ops = {
	.set = param_set_symbols,
	.get = param_get_string,
};
static const struct kernel_param_ops maxactive_ops = {
	.set = param_set_maxactive,
	.get = param_get_uint,
};

static struct kparam_string preset_str = {
	.maxlen = sizeof(preset), .string = preset };
static struct kparam_string ioctl_symbol_str = {
	.maxlen = sizeof(ioctl_symbol), .string = ioctl_symbol };
static struct kparam_string wait_symbols_str = {
	.maxlen = sizeof(wait_symbols), .string = wait_symbols };

/*
 * The _cb parameters carry no type for modinfo by themselves;
 * __MODULE_PARM_TYPE adds it, as module_param() does for the plain ones.
 */
module_param_cb(preset, &preset_ops, &preset_str, 0444);
__MODULE_PARM_TYPE(preset, "string");
MODULE_PARM_DESC(preset, "TEE driver to probe: tee (mainline TEE core: OP-TEE, AMD-TEE), tzdriver (iTrustee) or custom (default tee)");
module_param_cb(ioctl_symbol, &symbols_ops, &ioctl_symbol_str, 0444);
__MODULE_PARM_TYPE(ioctl_symbol, "string");
MODULE_PARM_DESC(ioctl_symbol, "the driver's ioctl entry symbol, replacing the preset's; needed by preset=custom (default: the preset's, tee_ioctl or tc_client_ioctl)");
module_param_cb(wait_symbols, &symbols_ops, &wait_symbols_str, 0444);
__MODULE_PARM_TYPE(wait_symbols, "string");
MODULE_PARM_DESC(wait_symbols, "up to 10 comma-separated symbols where callers wait for the TEE, added to the preset's (default none)");
module_param_cb(maxactive, &maxactive_ops, &maxactive, 0444);
__MODULE_PARM_TYPE(maxactive, "uint");
MODULE_PARM_DESC(maxactive, "calls each kretprobe can follow at once, 0 to 4096; 0 = max(256, 16 per CPU) (default 0)");

bool teeprobe_tee_agents;
module_param_named(agents, teeprobe_tee_agents, bool, 0444);
MODULE_PARM_DESC(agents, "follow tzdriver's TZ_WAIT_EVENT ioctls too: teecd's agents wait in them for the secure world's requests, for ever (default no: they are no caller's blocking)");

static int pid_param[TEEPROBE_MAX_PIDS];
static unsigned int nr_pid_param;
module_param_array_named(pid, pid_param, int, &nr_pid_param, 0444);
MODULE_PARM_DESC(pid, "follow only the TEE calls of these processes, up to 8 comma-separated pids (default: every process)");

/* ---- the probes of the preset ------------------------------------------ */

static struct teeprobe_kretprobes tee_kretprobes;

/*
 * effective_maxactive - calls one kretprobe (and the table of calls in
 * flight) can follow at once: the parameter, or max(256, 16 per CPU)
 */
static unsigned int effective_maxactive(void)
{
	return maxactive ? maxactive :
	       max_t(unsigned int, 256, 16 * num_possible_cpus());
}

/*
 * add_probe - describe a probe; attached later with the others. A symbol
 * probed already (a wait symbol the preset has) or one probe too many is
 * an error: the load fails with a message rather than probe less.
 */
static int add_probe(const char *symbol, enum teeprobe_role role)
{
	struct teeprobe_tee_probe *p;
	unsigned int i;

	if (!*symbol)
		return 0;
	for (i = 0; i < teeprobe_tee_nr_probes; i++) {
		if (!strcmp(teeprobe_tee_probes[i].symbol, symbol)) {
			pr_err("%s is probed twice (the preset %s probes it already)\n",
			       symbol, preset);
			return -EINVAL;
		}
	}
	if (teeprobe_tee_nr_probes >= TEEPROBE_MAX_PROBES) {
		pr_err("%s: more than %d TEE probes in all\n", symbol, TEEPROBE_MAX_PROBES);
		return -EINVAL;
	}
	p = &teeprobe_tee_probes[teeprobe_tee_nr_probes++];
	strscpy(p->symbol, symbol, sizeof(p->symbol));
	p->role = role;
	p->wait_end = false;
	/*
	 * A static function the compiler cloned is found under the clone's
	 * name, but for the mainline TEE core's exported ones (a missing
	 * symbol would be looked up under every clone's name in vain on
	 * each module load)
	 */
	p->kp.clones = strcmp(preset, "tee") != 0;
	p->kp.optional = false;
	p->kp.group = 0;
	return 0;
}

/*
 * add_probe_opt - add_probe() of a symbol only some versions of the driver
 * have (@optional), or one of alternatives @group (the first found is
 * used), or a step that ends the WAIT_BEFORE wait (@wait_end)
 */
static int add_probe_opt(const char *symbol, enum teeprobe_role role,
			 bool optional, unsigned int group, bool wait_end)
{
	struct teeprobe_tee_probe *p;
	int ret = add_probe(symbol, role);

	if (ret)
		return ret;
	p = &teeprobe_tee_probes[teeprobe_tee_nr_probes - 1];
	p->kp.optional = optional;
	p->kp.group = group;
	p->wait_end = wait_end;
	if (role == TEEPROBE_ROLE_WAIT_BEFORE)
		teeprobe_tee_wait_before = p;
	return 0;
}

/* add_probe_list - one probe per comma-separated symbol of @list */
static int add_probe_list(const char *list, enum teeprobe_role role)
{
	char name[KSYM_NAME_LEN];
	const char *end;
	size_t len;
	int ret;

	while (*list) {
		end = strchrnul(list, ',');
		len = min_t(size_t, end - list, sizeof(name) - 1);
		memcpy(name, list, len);
		name[len] = '\0';
		ret = add_probe(strim(name), role);
		if (ret)
			return ret;
		list = *end ? end + 1 : end;
	}
	return 0;
}

/* describe_probes - the probes of the chosen preset, and wait_symbols */
static int describe_probes(void)
{
	int ret = 0;

	teeprobe_tee_nr_probes = 0;
	teeprobe_tee_wait_before = NULL;
	if (!strcmp(preset, "tee")) {
		ret = add_probe(*ioctl_symbol ? ioctl_symbol : "tee_ioctl", TEEPROBE_ROLE_IOCTL) ?:
		      add_probe("optee_cq_wait_for_completion", TEEPROBE_ROLE_WAIT) ?:
		      add_probe("teesim_wait_for_secure_thread", TEEPROBE_ROLE_WAIT) ?:
		      add_probe(TEEPROBE_TEE_SHM_REGISTER_SYMBOL, TEEPROBE_ROLE_STEP) ?:
		      add_probe(TEEPROBE_TEE_SHM_ALLOC_SYMBOL, TEEPROBE_ROLE_STEP) ?:
		      add_probe("tee_shm_fop_release", TEEPROBE_ROLE_STEP) ?:
		      add_probe("optee_smccc_smc", TEEPROBE_ROLE_SECURE) ?:
		      add_probe("optee_smccc_hvc", TEEPROBE_ROLE_SECURE) ?:
		      add_probe("teesim_run_secure", TEEPROBE_ROLE_SECURE);
	} else if (!strcmp(preset, "tzdriver")) {
		/*
		 * iTrustee's tzdriver, from its code (v1.0.0 and the newest
		 * tree; Documentation/tee-probes.rst): both device nodes, the
		 * SMC (smc_req, or v1.0.0's smp_smc_send around its inline
		 * one), the waits (the session lock before tc_client_call,
		 * a full command queue, the TA not done, the teecd agent) and
		 * the per-call mailbox set-up and copies
		 */
		ret = add_probe(*ioctl_symbol ? ioctl_symbol : "tc_client_ioctl",
				TEEPROBE_ROLE_IOCTL) ?:
		      add_probe_opt("tc_private_ioctl", TEEPROBE_ROLE_IOCTL, true, 0, false) ?:
		      add_probe_opt("smc_req", TEEPROBE_ROLE_SECURE, false, 1, false) ?:
		      add_probe_opt("smp_smc_send", TEEPROBE_ROLE_SECURE, false, 1, false) ?:
		      add_probe_opt("tc_ns_send_cmd", TEEPROBE_ROLE_WAIT_BEFORE, false, 0, false) ?:
		      add_probe_opt("tc_client_call", TEEPROBE_ROLE_STEP, false, 0, true) ?:
		      add_probe_opt("occupy_free_smc_in_entry", TEEPROBE_ROLE_WAIT, true, 0, false) ?:
		      add_probe("smp_smc_send_func", TEEPROBE_ROLE_WAIT_BLOCKED) ?:
		      add_probe("agent_process_work", TEEPROBE_ROLE_WAIT) ?:
		      add_probe("mailbox_alloc", TEEPROBE_ROLE_STEP) ?:
		      add_probe("mailbox_copy_alloc", TEEPROBE_ROLE_STEP) ?:
		      add_probe("mailbox_free", TEEPROBE_ROLE_STEP) ?:
		      add_probe("read_from_client", TEEPROBE_ROLE_STEP) ?:
		      add_probe("write_to_client", TEEPROBE_ROLE_STEP) ?:
		      add_probe_opt("fill_shared_mem_info", TEEPROBE_ROLE_STEP, true, 0, false);
	} else {
		if (!*ioctl_symbol) {
			pr_err("preset=custom needs ioctl_symbol=\n");
			return -EINVAL;
		}
		ret = add_probe(ioctl_symbol, TEEPROBE_ROLE_IOCTL);
	}
	return ret ?: add_probe_list(wait_symbols, TEEPROBE_ROLE_WAIT);
}

/*
 * probes_prepare - each probe's counters, and its kretprobe in the set,
 * which waits for the modules that have its symbol
 */
static int probes_prepare(void)
{
	unsigned int i;

	teeprobe_kretprobes_prepare(&tee_kretprobes, "", true);
	for (i = 0; i < teeprobe_tee_nr_probes; i++) {
		struct teeprobe_tee_probe *p = &teeprobe_tee_probes[i];

		p->stats = teeprobe_alloc_percpu(sizeof(struct teeprobe_step_stats),
						 __alignof__(struct teeprobe_step_stats));
		if (!p->stats) {
			pr_err("tee: cannot allocate %s's per-CPU counters\n",
			       p->symbol);
			return -ENOMEM;
		}
		p->kp.symbol = p->symbol;
		p->kp.data_size = sizeof(struct teeprobe_instance);
		p->kp.maxactive = effective_maxactive();
		if (p->role == TEEPROBE_ROLE_IOCTL) {
			p->kp.entry = teeprobe_tee_ioctl_entry;
			p->kp.ret = teeprobe_tee_ioctl_return;
		} else {
			p->kp.entry = teeprobe_tee_timed_entry;
			p->kp.ret = teeprobe_tee_timed_return;
		}
		teeprobe_kretprobe_add(&tee_kretprobes, &p->kp);
	}
	return 0;
}

/* ---- init and exit ---------------------------------------------------------- */

static struct teeprobe_hook tee_hooks[] = {
	{ .name = "sched_switch", .probe = teeprobe_tee_sched_switch },
};

/* tee_free - free what teeprobe_tee_init allocated (NULL or not) */
static void tee_free(void)
{
	unsigned int i;

	for (i = 0; i < teeprobe_tee_nr_probes; i++) {
		teeprobe_free_percpu(teeprobe_tee_probes[i].stats,
				     sizeof(struct teeprobe_step_stats));
		teeprobe_tee_probes[i].stats = NULL;
	}
	teeprobe_tee_stats_free();
	teeprobe_tee_calls_free();
}

/* teeprobe_tee_init - allocate, hook sched_switch, attach what exists */
int teeprobe_tee_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < nr_pid_param; i++) {
		if (pid_param[i] <= 0 || pid_param[i] >= PID_MAX_LIMIT) {
			pr_err("pid=%d: must be a process id from 1 to %d\n",
			       pid_param[i], (int)PID_MAX_LIMIT - 1);
			return -EINVAL;
		}
	}
	ret = describe_probes();
	if (ret)
		return ret;
	teeprobe_tee_set_pids(pid_param, nr_pid_param);
	ret = teeprobe_tee_calls_alloc(effective_maxactive()) ?:
	      teeprobe_tee_stats_alloc(preset) ?: probes_prepare() ?:
	      teeprobe_hooks_attach("tee", tee_hooks, ARRAY_SIZE(tee_hooks));
	if (ret) {
		tee_free();
		return ret;
	}
	teeprobe_kretprobes_attach(&tee_kretprobes);
	teeprobe_part_register(&teeprobe_tee_part);
	return 0;
}

/* teeprobe_tee_exit - detach everything, then free */
void teeprobe_tee_exit(void)
{
	teeprobe_part_unregister(&teeprobe_tee_part);
	teeprobe_kretprobes_detach(&tee_kretprobes);
	teeprobe_hooks_detach(tee_hooks, ARRAY_SIZE(tee_hooks));
	/* No handler runs any more once both have drained. */
	tracepoint_synchronize_unregister();
	synchronize_rcu();
	tee_free();
}
