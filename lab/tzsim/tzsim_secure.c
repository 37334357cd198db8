// SPDX-License-Identifier: GPL-2.0
/*
 * tzsim_secure.c - the secure side of tzsim: it answers tzdriver's SMCs
 * through the driver's own command queue, as iTrustee's gtask does.
 *
 * The driver puts a command into a slot of its queue (in bit set, doing
 * bit cleared when ready) and issues an SMC: x1 says new work
 * (SMC_OPS_NORMAL) or a re-entry (SMC_OPS_SCHEDTO), x2 the caller's pid.
 * Each SMC takes every ready slot (sets its doing bit). The driver's own
 * commands (REGISTER_MAILBOX, OPEN_SESSION, ...) are answered at once:
 * out[i] written, its out bit set. A TA command needs one of
 * secure_threads; with none free it waits for one. Its TA time is spent
 * either on its caller's CPU inside the SMC (ta_mode 0: the SMC returns
 * SMC_EXIT_PREEMPTED whenever the normal world has work on that CPU, and
 * the driver re-enters), or off it (ta_mode 1: the SMC returns with the
 * command not done, the caller sleeps in the driver's proc_ta_pending, and
 * tzsim completes the command later and wakes it: a WAKEUP entry in the
 * driver's notify page and the driver's interrupt, which runs
 * tc_secure_notify -> smc_wakeup_ca, the path a real secure side takes).
 * A command waiting for a thread leaves its SMC the same way and is woken
 * when a thread is handed to it. The held SET_SERVE_CMD of the driver's
 * smc_svc_thread is completed only when the driver goes (tzsim_main.c).
 */
/* (a header force-included before this one may have set it) */
#undef pr_fmt
#define pr_fmt(fmt) "tzsim: " fmt

#include <linux/bitops.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/irq.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <crypto/skcipher.h>
#include <asm/barrier.h>
#include <asm/io.h>

#include "tzsim.h"
#include "tzsim_abi.h"
/* The driver's headers come last: smc_smp.h redefines bitmap macros. */
#include "teek_client_constants.h"
#include "teek_ns_client.h"
#include "smc_smp.h"

#define TZSIM_SLOTS	MAX_SMC_CMD

/* tzdriver's SMC operations and exit reasons (enum smc_ops_exit) */
#define OPS_NORMAL	0
#define OPS_SCHEDTO	1
#define OPS_ABORT_TASK	5
#define EXIT_NORMAL	0
#define EXIT_PREEMPTED	1

/* The version answer at &queue->in[0] (newest: struct os_version) */
#define TZSIM_VER_MAGIC		0x5A5A5A5A
#define TZSIM_VER_MAJOR		7

/*
 * v1.0.0 (CONFIG_AUTH_ENHANCE): the config SMC's answer is a session root
 * key (struct session_crypto_info, from byte 4) and then, at byte 100, the
 * compat words (magic, major 0, minor 1). Each session's secure parameters
 * (GET_SESSION_SECURE_PARAMS) come back encrypted with that key in AES-256
 * CBC, the IV after the ciphertext; an open session's token (token 32
 * bytes, a timestamp, kernel_api, the sync byte) is the secure side's.
 */
#define V1_ROOT_KEY_LEN		100
#define V1_COMPAT_MAJOR		0
#define V1_COMPAT_MINOR		1
#define V1_MAGIC		"Trusted-magic"
#define V1_TOKEN_LEN		42
#define V1_TOKEN_TIMESTAMP	32
#define V1_TOKEN_SYNC		41
#define V1_IS_SYNCED		0xaa

/*
 * The notify page (tz_spi_notify.c: struct notify_data_entry, 56 bytes;
 * entry_type in bits 0..30 of the first word, filled in bit 31; the
 * wake-up's ca_thread_id at the start of the context, which is 8-byte
 * aligned), its entries, then a meta entry whose stats end with "missed".
 */
#define NOTIFY_ENTRY_SIZE	56
#define NOTIFY_WAKEUP		3
#define NOTIFY_FILLED		BIT(31)
#define NOTIFY_ENTRIES \
	(((PAGE_SIZE << CONFIG_NOTIFY_PAGE_ORDER) / NOTIFY_ENTRY_SIZE) - 1)
#ifdef CONFIG_TA_AFFINITY
#define NOTIFY_META_MISSED	6	/* after send/recv s, w, af */
#else
#define NOTIFY_META_MISSED	4
#endif

enum slot_state {
	SLOT_IDLE,		/* not the secure side's */
	SLOT_WAITING,		/* a TA command waiting for a secure thread */
	SLOT_RUNNING,		/* holding a secure thread */
	SLOT_HELD,		/* SET_SERVE_CMD, held until the driver goes */
	SLOT_RESERVED,		/* kept from the driver (queue_slots) */
};

/* struct tzsim_slot - the secure side's view of one queue slot */
struct tzsim_slot {
	enum slot_state state;
	unsigned int mode;		/* the TA mode it started with */
	pid_t ca;
	u64 wait_since_ns;		/* waiting for a thread since */
	u64 pending_since_ns;		/* its caller left without it since */
	u64 left_ns;			/* TA time still to run on the CPU */
	struct list_head node;		/* in waiting, or cpu_running */
	struct hrtimer timer;		/* pending mode: the TA's time */
	struct work_struct done;	/* pending mode: completion */
	struct tc_ns_smc_cmd cmd;	/* the command as taken */
};

static struct tc_ns_smc_queue *queue;
static unsigned int gen;
static u8 *notify_page;
static struct tzsim_slot *slots;
static DEFINE_SPINLOCK(sec_lock);	/* slots, threads_busy, the lists */
static DEFINE_SPINLOCK(notify_lock);
static LIST_HEAD(waiting);		/* TA commands waiting for a thread */
static LIST_HEAD(cpu_running);		/* TA commands run in their callers' SMCs */
static unsigned int threads_busy;
static bool stopping;			/* the driver is going away */
static struct workqueue_struct *done_wq;
static struct irq_work notify_work;
static int notify_irq;
#ifdef TZSIM_V1
static struct session_crypto_info root_key;
static struct crypto_sync_skcipher *cbc_aes;
#endif

/* now_ns - the monotonic clock */
static u64 now_ns(void)
{
	return ktime_get_ns();
}

/* queue_lock - the driver's own lock word over the queue's bitmaps */
static void queue_lock(void)
{
	preempt_disable();
	while (cmpxchg(&queue->smc_lock, 0, 1) != 0)
		cpu_relax();
}

/* queue_unlock - release it */
static void queue_unlock(void)
{
	(void)cmpxchg(&queue->smc_lock, 1, 0);
	preempt_enable();
}

/* qbits - a bitmap of the queue as the driver's bitops see it */
static unsigned long *qbits(uint64_t *map)
{
	return (unsigned long *)map;
}

/* phys_ptr - a kernel pointer to the driver's memory at @lo | @hi << 32 */
static void *phys_ptr(u32 lo, u32 hi)
{
	phys_addr_t pa = (phys_addr_t)lo | (phys_addr_t)hi << 32;

	return pa ? phys_to_virt(pa) : NULL;
}

/* spin_ns - hold this CPU for @ns: time in the secure world */
static void spin_ns(u64 ns)
{
	u64 end = now_ns() + ns;

	while (now_ns() < end)
		cpu_relax();
}

/* operation_of - the operation of command @cmd (v1.0.0 scrambles it) */
static void *operation_of(const struct tc_ns_smc_cmd *cmd)
{
	return phys_ptr(cmd->operation_phys, cmd->operation_h_phys);
}

/* answer - answer slot @idx: write out[idx] and set its out bit */
static void answer(unsigned int idx, const struct tc_ns_smc_cmd *cmd,
		     u32 ret, u32 origin)
{
	struct tc_ns_smc_cmd *out = &queue->out[idx];

	memcpy(out, cmd, sizeof(*out));
	out->ret_val = (int)ret;
	out->err_origin = origin;
	/* the answer before the bit that says it is there */
	smp_wmb();
	queue_lock();
	set_bit(idx, qbits(queue->out_bitmap));
	queue_unlock();
}

/* notify_irq_fn - the driver's interrupt, from hard interrupt context */
static void notify_irq_fn(struct irq_work *work)
{
	generic_handle_irq(notify_irq);
}

/* wake_caller - a WAKEUP entry for @ca in the notify page, then the IRQ */
static void wake_caller(pid_t ca)
{
	u32 *meta, *word;
	unsigned long flags;
	unsigned int i;
	bool put = false;

	if (!notify_page)
		return;
	spin_lock_irqsave(&notify_lock, flags);
	for (i = 0; i < NOTIFY_ENTRIES; i++) {
		word = (u32 *)(notify_page + i * NOTIFY_ENTRY_SIZE);
		if (READ_ONCE(*word) & NOTIFY_FILLED)
			continue;
		word[2] = (u32)ca;	/* the context, 8 bytes in */
		/* before the word that says filled: the driver reads that first */
		smp_wmb();
		WRITE_ONCE(*word, NOTIFY_WAKEUP | NOTIFY_FILLED);
		put = true;
		break;
	}
	if (!put) {
		/* every entry in use: the driver wakes every waiter */
		meta = (u32 *)(notify_page + NOTIFY_ENTRIES * NOTIFY_ENTRY_SIZE);
		atomic_or(BIT(NOTIFY_WAKEUP),
			  (atomic_t *)&meta[2 + NOTIFY_META_MISSED]);
		atomic64_inc(&tzsim_stats.notify_full);
	}
	spin_unlock_irqrestore(&notify_lock, flags);
	atomic64_inc(&tzsim_stats.wakeups);
	irq_work_queue(&notify_work);
}

#ifdef TZSIM_V1
/*
 * wake_consumed - wait (a second at most) until the driver has read every
 * notify entry: its exit frees the notify page right after, with the
 * reading work perhaps still queued (process context: the driver's
 * platform driver unbinding)
 */
static void wake_consumed(void)
{
	unsigned int i, tries;
	bool filled;

	for (tries = 0; notify_page && tries < 100; tries++) {
		filled = false;
		for (i = 0; i < NOTIFY_ENTRIES && !filled; i++)
			filled = READ_ONCE(*(u32 *)(notify_page + i * NOTIFY_ENTRY_SIZE)) &
				 NOTIFY_FILLED;
		if (!filled)
			return;
		usleep_range(10000, 20000);
	}
}
#endif

/* pending_end - @s's caller is woken: its wait for the command ends */
static void pending_end(struct tzsim_slot *s, u64 now)
{
	if (s->pending_since_ns) {
		atomic64_add(now - s->pending_since_ns, &tzsim_stats.pending_ns);
		s->pending_since_ns = 0;
	}
}


/*
 * start_slot - @s gets a secure thread (sec_lock held). Returns the pid to
 * wake once the lock is dropped, or 0.
 */
static pid_t start_slot(struct tzsim_slot *s, u64 now)
{
	u64 ta_ns = (u64)READ_ONCE(tzsim_params.ta_us) * NSEC_PER_USEC;
	pid_t wake = 0;

	if (s->state == SLOT_WAITING) {
		list_del_init(&s->node);
		atomic64_add(now - s->wait_since_ns, &tzsim_stats.thread_wait_ns);
	}
	threads_busy++;
	s->state = SLOT_RUNNING;
	s->mode = READ_ONCE(tzsim_params.ta_mode);
	if (s->mode == TZSIM_TA_CPU) {
		s->left_ns = ta_ns;
		list_add_tail(&s->node, &cpu_running);
		/*
		 * Its caller runs it in its own SMC: wake it unless this is
		 * that SMC (a caller that left without it comes back; one
		 * whose slot another SMC took finds its wake-up waiting)
		 */
		pending_end(s, now);
		if (s->ca != current->pid)
			wake = s->ca;
	} else {
		hrtimer_start(&s->timer, ns_to_ktime(ta_ns), HRTIMER_MODE_REL);
	}
	return wake;
}

/*
 * release_thread - a TA command let go of its thread (sec_lock held):
 * the longest waiting one takes it. Returns a pid to wake, or 0.
 */
static pid_t release_secure_thread(u64 now)
{
	struct tzsim_slot *s;

	threads_busy--;
	if (threads_busy >= READ_ONCE(tzsim_params.secure_threads) ||
	    list_empty(&waiting))
		return 0;
	s = list_first_entry(&waiting, struct tzsim_slot, node);
	return start_slot(s, now);
}

/* run_ta - run the TA's command of @s: its answer and origin */
static u32 run_ta(struct tzsim_slot *s, u32 *origin)
{
	return tzsim_ta_invoke_session(s->cmd.context_id, s->cmd.cmd_id,
				       operation_of(&s->cmd), origin);
}

/*
 * done_work_fn - pending mode: the TA's time is up. The slot is the
 * driver's again once its out bit is set (it may take it for its next
 * command at once): the secure side lets go of it first.
 */
static void done_work_fn(struct work_struct *work)
{
	struct tzsim_slot *s = container_of(work, struct tzsim_slot, done);
	struct tc_ns_smc_cmd cmd;
	unsigned int idx = s - slots;
	unsigned long flags;
	u32 ret, origin;
	pid_t next, ca;
	u64 now;

	ret = run_ta(s, &origin);
	cmd = s->cmd;
	ca = s->ca;
	now = now_ns();
	spin_lock_irqsave(&sec_lock, flags);
	s->state = SLOT_IDLE;
	pending_end(s, now);
	next = release_secure_thread(now);
	spin_unlock_irqrestore(&sec_lock, flags);
	answer(idx, &cmd, ret, origin);
	wake_caller(ca);
	if (next)
		wake_caller(next);
}

/* ta_timer_fn - pending mode: a TA finished its time (hard irq) */
static enum hrtimer_restart ta_timer_fn(struct hrtimer *t)
{
	struct tzsim_slot *s = container_of(t, struct tzsim_slot, timer);

	queue_work(done_wq, &s->done);
	return HRTIMER_NORESTART;
}

#ifdef TZSIM_V1
/*
 * v1_secure_params - a session's secure parameters, encrypted with the root
 * key: scrambling words (the operation's, which v1.0.0 XORs into every TA
 * command's operation address, is 0, so the address reads as it is) and a
 * session key of its own
 */
static u32 v1_secure_params(const struct tc_ns_smc_cmd *cmd)
{
	size_t plain = ALIGN(sizeof(struct session_secure_params), 16);
	u8 *buf = phys_ptr(cmd->params_phys, cmd->params_h_phys);
	struct session_secure_params *p;
	struct scatterlist sg;
	u8 iv[IV_BYTESIZE];
	int ret;

	SYNC_SKCIPHER_REQUEST_ON_STACK(req, cbc_aes);
	if (!buf || !cbc_aes)
		return TEEC_ERROR_BAD_PARAMETERS;
	p = (struct session_secure_params *)buf;
	memset(buf, 0, plain);
	strscpy((char *)p->head.magic, V1_MAGIC, sizeof(p->head.magic));
	p->head.payload_len = sizeof(p->payload);
	get_random_bytes(&p->payload.tee2ree.scrambling[0], sizeof(u32));
	p->payload.tee2ree.scrambling[1] = 0;
	get_random_bytes(&p->payload.tee2ree.scrambling[2], sizeof(u32));
	get_random_bytes(&p->payload.tee2ree.crypto_info,
			 sizeof(p->payload.tee2ree.crypto_info));
	/* CMS padding to the block */
	memset(buf + sizeof(*p), plain - sizeof(*p), plain - sizeof(*p));
	get_random_bytes(iv, sizeof(iv));
	memcpy(buf + plain, iv, sizeof(iv));	/* the IV after the text */
	sg_init_one(&sg, buf, plain);
	skcipher_request_set_sync_tfm(req, cbc_aes);
	skcipher_request_set_callback(req, 0, NULL, NULL);
	skcipher_request_set_crypt(req, &sg, &sg, plain, iv);
	ret = crypto_skcipher_encrypt(req);
	skcipher_request_zero(req);
	return ret ? TEEC_ERROR_GENERIC : TEEC_SUCCESS;
}

/* v1_give_token - an open session's token: the driver keeps it from now */
static void v1_give_token(const struct tc_ns_smc_cmd *cmd)
{
	u8 *token = phys_ptr(cmd->token_phys, cmd->token_h_phys);

	if (!token)
		return;
	get_random_bytes(token, V1_TOKEN_TIMESTAMP + 8);
	token[V1_TOKEN_SYNC] = V1_IS_SYNCED;
}
#endif

/* global_cmd - answer one of the driver's own commands in slot @idx */
static void global_cmd(unsigned int idx, struct tc_ns_smc_cmd *cmd)
{
	struct tc_ns_operation *op = operation_of(cmd);
	u32 ret = TEEC_SUCCESS, origin = TEEC_ORIGIN_TEE, session;
	int *need_load;

	atomic64_inc(&tzsim_stats.global_cmds);
	switch (cmd->cmd_id) {
	case GLOBAL_CMD_ID_SET_SERVE_CMD:
		/* smc_svc_thread's standing command: held (tzsim_secure_stop) */
		if (!READ_ONCE(stopping)) {
			slots[idx].state = SLOT_HELD;
			slots[idx].cmd = *cmd;
			return;
		}
		break;
	case GLOBAL_CMD_ID_REGISTER_MAILBOX:
		/* params[1].value.a: bytes of pool descriptors in, pools out */
#ifdef MAILBOX_POOL_COUNT
		if (op)
			op->params[1].value.a = MAILBOX_POOL_COUNT;
#endif
		break;
	case GLOBAL_CMD_ID_REGISTER_NOTIFY_MEMORY:
		if (op)
			notify_page = phys_ptr(op->params[0].value.a,
					       op->params[0].value.b);
		break;
	case GLOBAL_CMD_ID_NEED_LOAD_APP:
		/* the lab TA is always there: no image to load */
		atomic64_inc(&tzsim_stats.need_load_app);
		need_load = op ? phys_ptr(op->params[0].memref.buffer,
					  op->buffer_h_addr[0]) : NULL;
		if (need_load)
			*need_load = 0;
		break;
	case GLOBAL_CMD_ID_OPEN_SESSION:
		atomic64_inc(&tzsim_stats.open_session);
		ret = tzsim_session_open(cmd->uuid, &session);
		if (ret == TEEC_SUCCESS)
			cmd->context_id = session;
#ifdef TZSIM_V1
		if (ret == TEEC_SUCCESS)
			v1_give_token(cmd);
#endif
		break;
#ifdef TZSIM_V1
	case GLOBAL_CMD_ID_GET_SESSION_SECURE_PARAMS:
		ret = v1_secure_params(cmd);
		break;
#endif
	case GLOBAL_CMD_ID_CLOSE_SESSION:
		atomic64_inc(&tzsim_stats.close_session);
		tzsim_session_close(cmd->context_id);
		break;
	case GLOBAL_CMD_ID_REGISTER_AGENT:
		atomic64_inc(&tzsim_stats.register_agent);
		break;
	default:
		/* log memory, agents, time, versions: nothing to keep */
		break;
	}
	answer(idx, cmd, ret, origin);
}

/* take_slot - the secure side takes ready slot @idx (its doing bit set) */
static pid_t take_slot(unsigned int idx, u64 now)
{
	struct tzsim_slot *s = &slots[idx];
	struct tc_ns_smc_cmd cmd;
	unsigned long flags;
	pid_t wake = 0;

	memcpy(&cmd, &queue->in[idx], sizeof(cmd));
	if (cmd.cmd_type != CMD_TYPE_TA) {
		global_cmd(idx, &cmd);
		return 0;
	}
	atomic64_inc(&tzsim_stats.ta_cmds);
	spin_lock_irqsave(&sec_lock, flags);
	s->cmd = cmd;
	s->ca = cmd.ca_pid;
	s->pending_since_ns = 0;
	if (threads_busy < READ_ONCE(tzsim_params.secure_threads)) {
		wake = start_slot(s, now);
	} else {
		s->state = SLOT_WAITING;
		s->wait_since_ns = now;
		list_add_tail(&s->node, &waiting);
		atomic64_inc(&tzsim_stats.thread_waits);
	}
	spin_unlock_irqrestore(&sec_lock, flags);
	return wake;
}

/*
 * reserve_slots - keep the queue's slots from queue_slots on from the
 * driver (queue lock held): a free one gets its in and doing bits, as if
 * the secure side held it; one it held goes back when the limit grows
 */
static void reserve_slots(void)
{
	unsigned int limit = READ_ONCE(tzsim_params.queue_slots), i;

	if (!limit || limit > TZSIM_SLOTS)
		limit = TZSIM_SLOTS;
	for (i = 0; i < TZSIM_SLOTS; i++) {
		bool in = test_bit(i, qbits(queue->in_bitmap));

		if (i >= limit && !in) {
			set_bit(i, qbits(queue->in_bitmap));
			set_bit(i, qbits(queue->doing_bitmap));
			slots[i].state = SLOT_RESERVED;
		} else if (i < limit && slots[i].state == SLOT_RESERVED) {
			clear_bit(i, qbits(queue->doing_bitmap));
			clear_bit(i, qbits(queue->in_bitmap));
			slots[i].state = SLOT_IDLE;
		}
	}
}

/* take_ready - take every ready slot; wake callers handed a thread */
static void take_ready(u64 now)
{
	unsigned long ready[BITS_TO_LONGS(TZSIM_SLOTS)];
	unsigned int idx, used = 0;
	pid_t wake;

	memset(ready, 0, sizeof(ready));
	queue_lock();
	for_each_set_bit(idx, qbits(queue->in_bitmap), TZSIM_SLOTS) {
		if (slots[idx].state == SLOT_RESERVED)
			continue;
		used++;
		if (test_bit(idx, qbits(queue->doing_bitmap)) ||
		    test_bit(idx, qbits(queue->out_bitmap)))
			continue;
		set_bit(idx, qbits(queue->doing_bitmap));
		__set_bit(idx, ready);
	}
	if (READ_ONCE(tzsim_params.queue_slots))
		reserve_slots();
	queue_unlock();
	if (used > atomic64_read(&tzsim_stats.queue_max_used))
		atomic64_set(&tzsim_stats.queue_max_used, used);
	/* the doing bits before reading what the slots hold */
	smp_rmb();
	for_each_set_bit(idx, ready, TZSIM_SLOTS) {
		wake = take_slot(idx, now);
		if (wake)
			wake_caller(wake);
	}
}

/* mine - the caller's TA command run on its own CPU, if any (sec_lock held) */
static struct tzsim_slot *mine(pid_t ca)
{
	struct tzsim_slot *s;

	list_for_each_entry(s, &cpu_running, node)
		if (s->ca == ca)
			return s;
	return NULL;
}

/* has_pending - does @ca have a TA command not done? (sec_lock held) */
static bool has_pending(pid_t ca, u64 now)
{
	bool any = false;
	unsigned int i;

	for (i = 0; i < TZSIM_SLOTS; i++) {
		struct tzsim_slot *s = &slots[i];

		if (s->ca != ca || (s->state != SLOT_WAITING &&
				    s->state != SLOT_RUNNING))
			continue;
		if (!s->pending_since_ns)
			s->pending_since_ns = now;
		any = true;
	}
	return any;
}

/*
 * run_on_cpu - spend the TA time of @ca's command on this CPU, with bottom
 * halves off as in the secure world; leave early (returns false) when the
 * normal world has work here: a softirq or another task to run. The
 * driver then re-enters with SMC_OPS_SCHEDTO and the TA goes on.
 */
static bool run_on_cpu(pid_t ca)
{
	struct tc_ns_smc_cmd cmd;
	struct tzsim_slot *s;
	unsigned long flags;
	u64 start, now, left;
	unsigned int idx;
	u32 ret, origin;
	pid_t next;

	spin_lock_irqsave(&sec_lock, flags);
	s = mine(ca);
	spin_unlock_irqrestore(&sec_lock, flags);
	if (!s)
		return true;
	left = s->left_ns;
	local_bh_disable();
	start = now = now_ns();
	while (now - start < left) {
		if (need_resched() || local_softirq_pending())
			break;
		cpu_relax();
		now = now_ns();
	}
	local_bh_enable();
	atomic64_add(min(now - start, left), &tzsim_stats.secure_ns);
	if (now - start < left) {
		s->left_ns = left - (now - start);
		return false;
	}
	idx = s - slots;
	ret = run_ta(s, &origin);
	cmd = s->cmd;
	spin_lock_irqsave(&sec_lock, flags);
	list_del_init(&s->node);
	s->state = SLOT_IDLE;
	next = release_secure_thread(now_ns());
	spin_unlock_irqrestore(&sec_lock, flags);
	answer(idx, &cmd, ret, origin);
	if (next)
		wake_caller(next);
	return true;
}

/* config - the first SMC: the queue's address; answer the version */
static void config(struct tzsim_regs *r, unsigned int g)
{
	phys_addr_t pa = (phys_addr_t)r->x[1];
	u32 *ver;
	unsigned int i;

	if (g == TZSIM_GEN_NEWEST)
		pa = (phys_addr_t)(u32)r->x[1] | (phys_addr_t)r->x[3] << 32;
	queue = phys_to_virt(pa);
	gen = g;
	notify_page = NULL;
	WRITE_ONCE(stopping, false);
	for (i = 0; i < TZSIM_SLOTS; i++) {
		hrtimer_cancel(&slots[i].timer);
		slots[i].state = SLOT_IDLE;
		slots[i].ca = 0;
		INIT_LIST_HEAD(&slots[i].node);
	}
	INIT_LIST_HEAD(&waiting);
	INIT_LIST_HEAD(&cpu_running);
	threads_busy = 0;
	tzsim_sessions_reset();
	ver = (u32 *)&queue->in[0];
#ifdef TZSIM_V1
	/* the session root key, then the compat words after 100 bytes */
	get_random_bytes(&root_key, sizeof(root_key));
	memcpy(ver + 1, &root_key, sizeof(root_key));
	if (cbc_aes)
		crypto_sync_skcipher_setkey(cbc_aes, root_key.key, sizeof(root_key.key));
	ver = (u32 *)((u8 *)&queue->in[0] + V1_ROOT_KEY_LEN);
	ver[1] = V1_COMPAT_MAJOR;
	ver[2] = V1_COMPAT_MINOR;
#else
	/* struct os_version: magic, major, minor, reserved, features */
	ver[1] = TZSIM_VER_MAJOR;
	ver[2] = 0;
	ver[11] = 0;	/* not a confidential-computing OS */
#endif
	/* the answer before the magic that says it is there */
	smp_wmb();
	WRITE_ONCE(ver[0], TZSIM_VER_MAGIC);
	pr_info("tzdriver's command queue at %pa, %u slots\n", &pa, TZSIM_SLOTS);
}

/* tzsim_smc - one SMC of tzdriver (tzsim_abi.h) */
void tzsim_smc(struct tzsim_regs *r, unsigned int g)
{
	u64 switch_ns = (u64)READ_ONCE(tzsim_params.switch_us) * NSEC_PER_USEC;
	unsigned long ops = r->x[1], flags;
	pid_t ca = (pid_t)r->x[2];
	bool done, pending;
	u64 now;

	atomic64_inc(&tzsim_stats.smc);
	if (r->x[0] != TSP_REQUEST) {
		/* TSP_REE_SIQ (a dump request) and the like */
		atomic64_inc(&tzsim_stats.smc_other);
		r->x[0] = TSP_RESPONSE;
		r->x[1] = EXIT_NORMAL;
		r->x[2] = r->x[3] = 0;
		return;
	}
	if (r->x[2] == TC_NS_CMD_TYPE_SECURE_CONFIG && ops > OPS_ABORT_TASK) {
		config(r, g);
		r->x[0] = TSP_RESPONSE;
		r->x[1] = EXIT_NORMAL;
		r->x[2] = r->x[3] = 0;
		return;
	}
	if (!queue) {
		r->x[0] = TSP_CRASH;
		return;
	}
	if (ops == OPS_NORMAL)
		atomic64_inc(&tzsim_stats.smc_normal);
	else if (ops == OPS_SCHEDTO)
		atomic64_inc(&tzsim_stats.smc_schedto);
	else
		atomic64_inc(&tzsim_stats.smc_other);
	if (switch_ns) {
		spin_ns(switch_ns);
		atomic64_add(switch_ns, &tzsim_stats.switch_ns);
	}
	now = now_ns();
	take_ready(now);
	done = run_on_cpu(ca);
	r->x[0] = TSP_RESPONSE;
	r->x[2] = 0;	/* the driver then sleeps in 15 s steps */
	r->x[3] = 0;
	if (!done) {
		atomic64_inc(&tzsim_stats.exit_preempted);
		r->x[1] = EXIT_PREEMPTED;
		return;
	}
	r->x[1] = EXIT_NORMAL;
	spin_lock_irqsave(&sec_lock, flags);
	pending = has_pending(ca, now_ns());
	spin_unlock_irqrestore(&sec_lock, flags);
	if (pending)
		atomic64_inc(&tzsim_stats.exit_pending);
}
EXPORT_SYMBOL_GPL(tzsim_smc);

/*
 * tzsim_secure_stop - the driver is going (its platform driver unbinds,
 * before it frees the queue): answer the held SET_SERVE_CMD, and from now
 * on answer every new one at once, so that smc_svc_thread can stop
 */
void tzsim_secure_stop(void)
{
	unsigned int i;

	WRITE_ONCE(stopping, true);
	if (!queue)
		return;
	for (i = 0; i < TZSIM_SLOTS; i++) {
		if (slots[i].state != SLOT_HELD)
			continue;
		slots[i].state = SLOT_IDLE;
		answer(i, &slots[i].cmd, TEEC_SUCCESS, TEEC_ORIGIN_TEE);
#ifdef TZSIM_V1
		/* v1.0.0's kernel threads wait for it without a timeout */
		wake_caller(slots[i].cmd.ca_pid);
#endif
	}
#ifdef TZSIM_V1
	wake_consumed();
#endif
}

/* tzsim_params_changed - a parameter was written: apply it now */
void tzsim_params_changed(void)
{
	struct tzsim_slot *s;
	unsigned long flags;
	pid_t wake[TZSIM_MAX_THREADS];
	unsigned int n = 0, i;
	u64 now = now_ns();

	if (!queue)
		return;
	queue_lock();
	reserve_slots();
	queue_unlock();
	/* more threads: the waiting commands take them */
	spin_lock_irqsave(&sec_lock, flags);
	while (!list_empty(&waiting) && n < ARRAY_SIZE(wake) &&
	       threads_busy < READ_ONCE(tzsim_params.secure_threads)) {
		s = list_first_entry(&waiting, struct tzsim_slot, node);
		wake[n] = start_slot(s, now);
		if (wake[n])
			n++;
	}
	spin_unlock_irqrestore(&sec_lock, flags);
	for (i = 0; i < n; i++)
		wake_caller(wake[i]);
}

/* tzsim_irq_set - the driver's interrupt line, raised by wake_caller */
void tzsim_irq_set(int irq)
{
	notify_irq = irq;
}

/* tzsim_secure_init - the slots and the completion queue */
int tzsim_secure_init(void)
{
	unsigned int i;

	slots = vzalloc(array_size(TZSIM_SLOTS, sizeof(*slots)));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < TZSIM_SLOTS; i++) {
		INIT_LIST_HEAD(&slots[i].node);
		hrtimer_init(&slots[i].timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		slots[i].timer.function = ta_timer_fn;
		INIT_WORK(&slots[i].done, done_work_fn);
	}
	done_wq = alloc_workqueue("tzsim_done", WQ_UNBOUND | WQ_HIGHPRI, 0);
	if (!done_wq) {
		vfree(slots);
		return -ENOMEM;
	}
	init_irq_work(&notify_work, notify_irq_fn);
#ifdef TZSIM_V1
	/* the guest loads cbc and aes first (tests/vm/guest-run) */
	cbc_aes = crypto_alloc_sync_skcipher("cbc(aes)", 0, 0);
	if (IS_ERR(cbc_aes)) {
		pr_err("no cbc(aes) for v1.0.0's session parameters: %ld\n", PTR_ERR(cbc_aes));
		cbc_aes = NULL;
	}
#endif
	return 0;
}

/* tzsim_secure_exit - nothing of the driver's is left by now */
void tzsim_secure_exit(void)
{
	unsigned int i;

	for (i = 0; i < TZSIM_SLOTS; i++)
		hrtimer_cancel(&slots[i].timer);
	destroy_workqueue(done_wq);
	irq_work_sync(&notify_work);
#ifdef TZSIM_V1
	if (cbc_aes)
		crypto_free_sync_skcipher(cbc_aes);
#endif
	vfree(slots);
}
