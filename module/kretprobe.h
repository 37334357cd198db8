/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kretprobe.h - the one registrar of teeprobe.ko's kretprobes (the TEE
 * part's ioctl, wait and step probes, the TCP part's accept() and
 * connect()): attaching, trying again when a module loads, detaching when
 * it goes, and the state every probes file shows (attached, not-found,
 * failed, absent: abi.h's vocabulary).
 */
#ifndef TEEPROBE_KRETPROBE_H
#define TEEPROBE_KRETPROBE_H

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/types.h>

#include "abi.h"

/* One kretprobe: filled in by its part, then attached by the registrar */
struct teeprobe_kretprobe {
	const char *symbol;
	kretprobe_handler_t entry;	/* may be NULL */
	kretprobe_handler_t ret;
	size_t data_size;
	int maxactive;
	/*
	 * For a driver that comes in versions. @optional: not in every
	 * version of the module that holds its set's first probe, so absent
	 * (not waiting) while that module is loaded without it. @group: 0,
	 * or alternatives of which the first found is attached and the
	 * others are absent. @clones: a static function GCC may have cloned,
	 * also tried under its clones' names (foo.constprop.0, ...).
	 */
	bool optional;
	bool clones;
	unsigned int group;
	/* the registrar's, under its lock */
	enum teeprobe_probe_state state;
	int error;			/* of the last attempt; 0 attached */
	char name[KSYM_NAME_LEN];	/* attached as: @symbol or a clone's */
	struct kretprobe rp;
	struct list_head node;		/* its set's probes */
};

/*
 * A part's kretprobes. With wait_for_modules a probe whose symbol is not
 * found waits: it is tried again whenever a module loads, and goes back
 * to waiting when the module it is in goes. @prefix starts the set's
 * messages ("tcp: ", or "").
 */
struct teeprobe_kretprobes {
	const char *prefix;
	bool wait_for_modules;
	struct list_head probes;
	struct list_head node;		/* the registrar's sets */
};

/* What a probes file shows of one probe */
struct teeprobe_kretprobe_status {
	char name[KSYM_NAME_LEN];	/* as attached (a clone's), or its symbol */
	enum teeprobe_probe_state state;
	int error;
	unsigned long nmissed;
};

void teeprobe_kprobe_quiesce(struct kprobe *kp);
int teeprobe_kretprobes_init(void);
void teeprobe_kretprobes_exit(void);
void teeprobe_kretprobes_prepare(struct teeprobe_kretprobes *set,
				 const char *prefix, bool wait_for_modules);
void teeprobe_kretprobe_add(struct teeprobe_kretprobes *set,
			    struct teeprobe_kretprobe *p);
void teeprobe_kretprobes_attach(struct teeprobe_kretprobes *set);
void teeprobe_kretprobes_detach(struct teeprobe_kretprobes *set);
void teeprobe_kretprobe_status(const struct teeprobe_kretprobe *p,
			       struct teeprobe_kretprobe_status *st);

#endif /* TEEPROBE_KRETPROBE_H */
