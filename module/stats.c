// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - per-CPU memory and debugfs lines shared by the parts of
 * teeprobe.ko: allocations counted for debugfs "memory", "# key value"
 * lines, the lines of the *_hist files (one column per CPU), a task's name
 * as a field.
 */
#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include "hist.h"
#include "teeprobe.h"

/* The bytes each CPU holds in teeprobe's per-CPU allocations */
static atomic_long_t percpu_bytes = ATOMIC_LONG_INIT(0);

/*
 * teeprobe_alloc_percpu - @size zeroed bytes per CPU, counted in debugfs
 * "memory". alloc_percpu's unit is PCPU_MIN_UNIT_SIZE (32 KiB): parts with
 * more per CPU allocate it in pieces, a block per command or port.
 */
void __percpu *teeprobe_alloc_percpu(size_t size, size_t align)
{
	void __percpu *p;

	if (WARN_ON_ONCE(size > PCPU_MIN_UNIT_SIZE))
		return NULL;
	if (teeprobe_should_fail("alloc_percpu"))
		return NULL;
	p = __alloc_percpu(size, align);
	if (p)
		atomic_long_add(size, &percpu_bytes);
	return p;
}

/* teeprobe_free_percpu - free @p (NULL is fine), allocated with @size */
void teeprobe_free_percpu(void __percpu *p, size_t size)
{
	if (!p)
		return;
	free_percpu(p);
	atomic_long_sub(size, &percpu_bytes);
}

/*
 * teeprobe_free_percpu_n - free the @n blocks of @blocks, each of @size
 * (those never allocated are NULL), and forget them
 */
void teeprobe_free_percpu_n(void __percpu **blocks, unsigned int n,
			    size_t size)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		teeprobe_free_percpu(blocks[i], size);
		blocks[i] = NULL;
	}
}

/* teeprobe_show_memory - debugfs "memory": what teeprobe holds per CPU */
void teeprobe_show_memory(struct seq_file *m)
{
	seq_printf(m, "%s %ld\n", teeprobe_key_name(TEEPROBE_KEY_PERCPU_BYTES),
		   atomic_long_read(&percpu_bytes));
}

/* teeprobe_seq_key_u64 - a "# key value" line of a table's file */
void teeprobe_seq_key_u64(struct seq_file *m, enum teeprobe_key key, u64 v)
{
	seq_printf(m, "# %s %llu\n", teeprobe_key_name(key), v);
}

/* teeprobe_seq_key_str - a "# key value" line whose value is a word */
void teeprobe_seq_key_str(struct seq_file *m, enum teeprobe_key key,
			  const char *v)
{
	seq_printf(m, "# %s %s\n", teeprobe_key_name(key), v);
}

/* teeprobe_seq_enomem - "# error ENOMEM": the table could not be made */
void teeprobe_seq_enomem(struct seq_file *m)
{
	teeprobe_seq_key_str(m, TEEPROBE_KEY_ERROR, "ENOMEM");
}

/*
 * teeprobe_seq_hist_header - the header line of a *_hist file: "#" @keys
 * (what names a row, TEEPROBE_COLS_STR()), bucket_low_ns, a column per
 * CPU, all
 */
void teeprobe_seq_hist_header(struct seq_file *m, const char *keys)
{
	int cpu;

	seq_printf(m, "#%s " TEEPROBE_HIST_LOW_COL, keys);
	for_each_possible_cpu(cpu)
		seq_printf(m, " " TEEPROBE_HIST_CPU_COL "%d", cpu);
	seq_puts(m, " " TEEPROBE_HIST_ALL_COL "\n");
}

/*
 * teeprobe_seq_hist_rows - the non-empty buckets of one histogram kept per
 * CPU at @offset in the per-CPU block @base: "@label bucket_low_ns", each
 * CPU's count, their sum
 */
void teeprobe_seq_hist_rows(struct seq_file *m, const char *label,
			    const void __percpu *base, size_t offset)
{
	const struct teeprobe_hist *h;
	unsigned int b;
	int cpu;

	for (b = 0; b < TEEPROBE_HIST_BUCKETS; b++) {
		u64 total = 0;

		for_each_possible_cpu(cpu) {
			h = (const void *)per_cpu_ptr(base, cpu) + offset;
			total += h->bucket[b];
		}
		if (!total)
			continue;
		seq_printf(m, "%s %llu", label, teeprobe_hist_bucket_low(b));
		for_each_possible_cpu(cpu) {
			h = (const void *)per_cpu_ptr(base, cpu) + offset;
			seq_printf(m, " %llu", h->bucket[b]);
		}
		seq_printf(m, " %llu\n", total);
	}
}

/* teeprobe_seq_hist_trailer - the layout lines every *_hist file ends with */
void teeprobe_seq_hist_trailer(struct seq_file *m)
{
	teeprobe_seq_key_u64(m, TEEPROBE_KEY_HIST_SUB_BITS, TEEPROBE_HIST_SUB_BITS);
	teeprobe_seq_key_u64(m, TEEPROBE_KEY_HIST_UNIT_SHIFT,
			     TEEPROBE_HIST_UNIT_SHIFT);
}

/*
 * teeprobe_seq_comm - a task's name as one field of a debugfs line: bytes
 * other than printable ASCII, and the backslash, as \xHH. A task names
 * itself: a space would break the fields, a newline start a line of its
 * own ("\n# overflow 99" forging a trailer); an empty name is \x00.
 */
void teeprobe_seq_comm(struct seq_file *m, const char *comm)
{
	const unsigned char *c = (const unsigned char *)comm;

	if (!*c) {
		seq_puts(m, "\\x00");
		return;
	}
	for (; *c; c++) {
		if (*c > ' ' && *c < 0x7f && *c != '\\')
			seq_putc(m, *c);
		else
			seq_printf(m, "\\x%02x", *c);
	}
}
