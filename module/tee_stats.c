// SPDX-License-Identifier: GPL-2.0
/*
 * tee_stats.c - what the TEE calls add up to: per CPU and command (kept
 * for the preset's driver's commands and OTHER), per thread, per probe
 * (the table of probes tee.c fills); the files that show them
 * (tee_probes, tee_stats, tee_hist, tee_threads, their columns abi.h's),
 * and their reset.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "hist.h"
#include "tee_part.h"

#define TEEPROBE_THREADS		256

/*
 * A command's counters on one CPU: tee_stats' columns, but for the
 * maximum, which is the latency histogram's
 */
#define TEE_PCPU_FIELD(name, kind, ...) TEE_PCPU_FIELD_##kind(name)
#define TEE_PCPU_FIELD_COUNT(name) u64 name;
#define TEE_PCPU_FIELD_NS(name) u64 name;
#define TEE_PCPU_FIELD_MAX(name)
struct teeprobe_cmd_stats {
	TEEPROBE_TEE_STATS_COLS(TEE_PCPU_FIELD)
	struct teeprobe_hist latency;
};

/*
 * Allocated at init, not DEFINE_PER_CPU: a module's static per-CPU data
 * comes out of the kernel's small reserve for all modules (8 KiB on
 * arm64, where OP-TEE's driver takes some too). A command's statistics on
 * each CPU are a block of their own (2 KiB, most of it the histogram),
 * kept for the preset's driver's commands and OTHER (cmd_kept()): a
 * command of the other driver counts as OTHER.
 */
static struct teeprobe_cmd_stats __percpu *cmd_stats[TEEPROBE_TEE_CMDS];
static u64 __percpu *tee_untracked;	/* calls timed without an off-CPU split */

/* The probes of the preset and of wait_symbols (tee.c), and the preset */
struct teeprobe_tee_probe teeprobe_tee_probes[TEEPROBE_MAX_PROBES];
unsigned int teeprobe_tee_nr_probes;
/* the preset's WAIT_BEFORE probe, whose wait its wait_end step ends */
struct teeprobe_tee_probe *teeprobe_tee_wait_before;
static const char *stats_preset;

struct teeprobe_thread {
	pid_t tid;
	pid_t tgid;
	char comm[TASK_COMM_LEN];
	u64 calls;
	u64 total_ns;
	u64 offcpu_ns;
	u64 queue_wait_ns;
};
static struct teeprobe_thread threads[TEEPROBE_THREADS];
static u64 threads_overflow;
static DEFINE_RAW_SPINLOCK(threads_lock);

/* ---- accounting ----------------------------------------------------------- */

/* thread_account - add one finished call to its thread's line */
static void thread_account(const struct teeprobe_tee_call_times *c)
{
	pid_t tid = current->pid;
	unsigned int i, h = hash_32(tid, ilog2(TEEPROBE_THREADS));
	struct teeprobe_thread *t = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&threads_lock, flags);
	for (i = 0; i < TEEPROBE_THREADS; i++) {
		struct teeprobe_thread *slot = &threads[(h + i) % TEEPROBE_THREADS];

		if (slot->tid == tid || !slot->tid) {
			t = slot;
			break;
		}
	}
	if (!t) {
		threads_overflow++;
	} else {
		if (!t->tid) {
			t->tid = tid;
			t->tgid = current->tgid;
		}
		/*
		 * Its own name, as the sched tracepoints copy it: without
		 * get_task_comm()'s task lock (a write from /proc may tear
		 * it, never its final NUL).
		 */
		memcpy(t->comm, current->comm, sizeof(t->comm));
		t->comm[sizeof(t->comm) - 1] = '\0';
		t->calls++;
		t->total_ns += c->duration_ns;
		t->offcpu_ns += c->offcpu_ns;
		t->queue_wait_ns += c->queue_wait_ns;
	}
	raw_spin_unlock_irqrestore(&threads_lock, flags);
}
NOKPROBE_SYMBOL(thread_account);

/*
 * teeprobe_tee_account - a call of @cmd ended on this CPU with @ret; it
 * was @tracked (its off-CPU split known) or timed alone. Preemption off.
 */
void teeprobe_tee_account(enum teeprobe_tee_cmd cmd, long ret, bool tracked,
			  const struct teeprobe_tee_call_times *t)
{
	struct teeprobe_cmd_stats *s;

	if (!tracked)
		this_cpu_inc(*tee_untracked);
	s = this_cpu_ptr(cmd_stats[cmd] ?: cmd_stats[TEEPROBE_TEE_CMD_OTHER]);
	s->calls++;
	if (ret < 0)
		s->errors++;
	s->total_ns += t->duration_ns;
	s->offcpu_ns += t->offcpu_ns;
	s->runq_ns += t->runq_ns;
	s->queue_wait_ns += t->queue_wait_ns;
	s->secure_entries += t->secure_entries;
	s->secure_ns += t->secure_ns;
	teeprobe_hist_add(&s->latency, t->duration_ns);
	thread_account(t);
}
NOKPROBE_SYMBOL(teeprobe_tee_account);

/* teeprobe_tee_step_account - count one return of @p, which took @elapsed ns */
void teeprobe_tee_step_account(struct teeprobe_tee_probe *p, u64 elapsed)
{
	struct teeprobe_step_stats *s = this_cpu_ptr(p->stats);

	s->calls++;
	s->total_ns += elapsed;
	if (elapsed > s->max_ns)
		s->max_ns = elapsed;
}
NOKPROBE_SYMBOL(teeprobe_tee_step_account);

/* ---- debugfs output ------------------------------------------------------ */

static const char * const role_names[] = {
	[TEEPROBE_ROLE_IOCTL] = "ioctl", [TEEPROBE_ROLE_WAIT] = "wait", [TEEPROBE_ROLE_STEP] = "step",
	[TEEPROBE_ROLE_SECURE] = "secure", [TEEPROBE_ROLE_WAIT_BEFORE] = "wait-before",
	[TEEPROBE_ROLE_WAIT_BLOCKED] = "wait-blocked",
};

/* tee_show_probes - tee_probes: one line per probe, its state and counters */
static void tee_show_probes(struct seq_file *m)
{
	struct teeprobe_kretprobe_status st;
	unsigned int i;
	int cpu;

	teeprobe_seq_key_str(m, TEEPROBE_KEY_PRESET, stats_preset);
	seq_puts(m, TEEPROBE_HEADER(TEEPROBE_NONE, TEEPROBE_TEE_PROBES_COLS));
	for (i = 0; i < teeprobe_tee_nr_probes; i++) {
		struct teeprobe_tee_probe *p = &teeprobe_tee_probes[i];
		struct teeprobe_step_stats sum = {};

		for_each_possible_cpu(cpu) {
			struct teeprobe_step_stats *s = per_cpu_ptr(p->stats, cpu);

			sum.calls += s->calls;
			sum.total_ns += s->total_ns;
			sum.max_ns = max(sum.max_ns, s->max_ns);
		}
		teeprobe_kretprobe_status(&p->kp, &st);
		seq_printf(m, "%s %s %s %d %lu %llu %llu %llu\n", st.name,
			   role_names[p->role], teeprobe_probe_state_name(st.state),
			   st.error, st.nmissed, sum.calls, sum.total_ns,
			   sum.max_ns);
	}
}

/* A command's counters summed over CPUs: tee_stats' columns */
#define TEE_SUM_FIELD(name, kind, ...) u64 name;
struct cmd_sum {
	TEEPROBE_TEE_STATS_COLS(TEE_SUM_FIELD)
};

/* cmd_sum_add - add @one into @all: counts and times, the largest maximum */
static void cmd_sum_add(struct cmd_sum *all, const struct cmd_sum *one)
{
#define TEE_SUM_ADD(name, kind, ...) TEE_SUM_ADD_##kind(name)
#define TEE_SUM_ADD_COUNT(name) all->name += one->name;
#define TEE_SUM_ADD_NS(name) all->name += one->name;
#define TEE_SUM_ADD_MAX(name) all->name = max(all->name, one->name);
	TEEPROBE_TEE_STATS_COLS(TEE_SUM_ADD)
}

/* show_cmd_line - one line of tee_stats */
static void show_cmd_line(struct seq_file *m, const char *cpu, unsigned int c,
			  const struct cmd_sum *s)
{
#define TEE_SUM_SHOW(name, kind, ...) seq_printf(m, " %llu", s->name);
	seq_printf(m, "%s %s", cpu, teeprobe_tee_cmd_name(c));
	TEEPROBE_TEE_STATS_COLS(TEE_SUM_SHOW)
	seq_putc(m, '\n');
}

/* tee_show_stats - tee_stats: per CPU and in all, one line per used command */
static void tee_show_stats(struct seq_file *m)
{
	struct cmd_sum *all, one;
	u64 untracked = 0;
	char name[16];
	unsigned int c;
	int cpu;

	all = teeprobe_should_fail("tee_stats") ? NULL :
	      kcalloc(TEEPROBE_TEE_CMDS, sizeof(*all), GFP_KERNEL);
	if (!all) {
		teeprobe_seq_enomem(m);
		return;
	}
	seq_puts(m, TEEPROBE_HEADER(TEEPROBE_TEE_STATS_KEYS, TEEPROBE_TEE_STATS_COLS));
	for_each_possible_cpu(cpu) {
		untracked += *per_cpu_ptr(tee_untracked, cpu);
		snprintf(name, sizeof(name), "%d", cpu);
		for (c = 0; c < TEEPROBE_TEE_CMDS; c++) {
			struct teeprobe_cmd_stats *s;

			if (!cmd_stats[c])
				continue;
			s = per_cpu_ptr(cmd_stats[c], cpu);
			if (!s->calls)
				continue;
#define TEE_SUM_OF(name, kind, ...) TEE_SUM_OF_##kind(name)
#define TEE_SUM_OF_COUNT(name) .name = s->name,
#define TEE_SUM_OF_NS(name) .name = s->name,
#define TEE_SUM_OF_MAX(name) .name = s->latency.max,
			one = (struct cmd_sum){ TEEPROBE_TEE_STATS_COLS(TEE_SUM_OF) };
			show_cmd_line(m, name, c, &one);
			cmd_sum_add(&all[c], &one);
		}
	}
	for (c = 0; c < TEEPROBE_TEE_CMDS; c++)
		if (all[c].calls)
			show_cmd_line(m, TEEPROBE_ALL, c, &all[c]);
	teeprobe_seq_key_u64(m, TEEPROBE_KEY_UNTRACKED, untracked);
	kfree(all);
}

/* tee_show_hist - tee_hist: latency histograms per command, a column per CPU */
static void tee_show_hist(struct seq_file *m)
{
	unsigned int c;

	teeprobe_seq_hist_header(m, TEEPROBE_COLS_STR(TEEPROBE_TEE_HIST_KEYS));
	for (c = 0; c < TEEPROBE_TEE_CMDS; c++)
		if (cmd_stats[c])
			teeprobe_seq_hist_rows(m, teeprobe_tee_cmd_name(c),
					       cmd_stats[c],
					       offsetof(struct teeprobe_cmd_stats, latency));
	teeprobe_seq_hist_trailer(m);
}

/* cmp_thread - sort threads by time spent in TEE ioctls, longest first */
static int cmp_thread(const void *a, const void *b)
{
	const struct teeprobe_thread *x = a, *y = b;

	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	return x->tid - y->tid;
}

/* tee_show_threads - tee_threads: threads by time in TEE ioctls */
static void tee_show_threads(struct seq_file *m)
{
	struct teeprobe_thread *copy;
	unsigned long flags;
	unsigned int i, n = 0;

	copy = vmalloc(sizeof(threads));
	if (!copy) {
		teeprobe_seq_enomem(m);
		return;
	}
	raw_spin_lock_irqsave(&threads_lock, flags);
	for (i = 0; i < TEEPROBE_THREADS; i++)
		if (threads[i].tid)
			copy[n++] = threads[i];
	raw_spin_unlock_irqrestore(&threads_lock, flags);
	sort(copy, n, sizeof(*copy), cmp_thread, NULL);
	seq_puts(m, TEEPROBE_HEADER(TEEPROBE_NONE, TEEPROBE_TEE_THREADS_COLS));
	for (i = 0; i < n; i++) {
		seq_printf(m, "%d %d ", copy[i].tgid, copy[i].tid);
		teeprobe_seq_comm(m, copy[i].comm);
		seq_printf(m, " %llu %llu %llu %llu\n", copy[i].calls,
			   copy[i].total_ns, copy[i].offcpu_ns,
			   copy[i].queue_wait_ns);
	}
	teeprobe_seq_key_u64(m, TEEPROBE_KEY_OVERFLOW, threads_overflow);
	vfree(copy);
}

/* tee_reset - zero the statistics (not the calls in flight) */
static void tee_reset(void)
{
	unsigned long flags;
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu) {
		*per_cpu_ptr(tee_untracked, cpu) = 0;
		for (i = 0; i < TEEPROBE_TEE_CMDS; i++)
			if (cmd_stats[i])
				memset(per_cpu_ptr(cmd_stats[i], cpu), 0,
				       sizeof(struct teeprobe_cmd_stats));
		for (i = 0; i < teeprobe_tee_nr_probes; i++)
			memset(per_cpu_ptr(teeprobe_tee_probes[i].stats, cpu), 0,
			       sizeof(struct teeprobe_step_stats));
	}
	raw_spin_lock_irqsave(&threads_lock, flags);
	memset(threads, 0, sizeof(threads));
	threads_overflow = 0;
	raw_spin_unlock_irqrestore(&threads_lock, flags);
}

static struct teeprobe_file tee_files[] = {
	{ .id = TEEPROBE_FILE_TEE_PROBES, .show = tee_show_probes },
	{ .id = TEEPROBE_FILE_TEE_STATS, .show = tee_show_stats },
	{ .id = TEEPROBE_FILE_TEE_HIST, .show = tee_show_hist },
	{ .id = TEEPROBE_FILE_TEE_THREADS, .show = tee_show_threads },
};

struct teeprobe_part teeprobe_tee_part = {
	.name = "tee",
	.reset = tee_reset,
	.files = tee_files,
	.nr_files = ARRAY_SIZE(tee_files),
};

/* ---- allocation ---------------------------------------------------------- */

/*
 * cmd_kept - whether command @c has statistics of its own: OTHER, and the
 * commands of the preset's driver (every command with preset=custom)
 */
static bool cmd_kept(unsigned int c)
{
	if (c == TEEPROBE_TEE_CMD_OTHER || !strcmp(stats_preset, "custom"))
		return true;
	return (c >= TEEPROBE_TZ_SES_OPEN) == !strcmp(stats_preset, "tzdriver");
}

/*
 * teeprobe_tee_stats_alloc - the counters of the commands @preset's
 * driver has, per CPU
 */
int teeprobe_tee_stats_alloc(const char *preset)
{
	unsigned int i;

	stats_preset = preset;
	tee_untracked = teeprobe_alloc_percpu(sizeof(u64), __alignof__(u64));
	if (!tee_untracked) {
		pr_err("tee: cannot allocate the per-CPU count of untracked calls\n");
		return -ENOMEM;
	}
	for (i = 0; i < TEEPROBE_TEE_CMDS; i++) {
		if (!cmd_kept(i))
			continue;
		cmd_stats[i] = teeprobe_alloc_percpu(sizeof(struct teeprobe_cmd_stats),
						     __alignof__(struct teeprobe_cmd_stats));
		if (!cmd_stats[i]) {
			pr_err("tee: cannot allocate the per-CPU counters of %s\n",
			       teeprobe_tee_cmd_name(i));
			return -ENOMEM;
		}
	}
	return 0;
}

/* teeprobe_tee_stats_free - free them (those never allocated are NULL) */
void teeprobe_tee_stats_free(void)
{
	teeprobe_free_percpu_n((void __percpu **)cmd_stats, TEEPROBE_TEE_CMDS,
			       sizeof(struct teeprobe_cmd_stats));
	teeprobe_free_percpu(tee_untracked, sizeof(u64));
	tee_untracked = NULL;
}
