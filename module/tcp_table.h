/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcp_table.h - the bounded table of TCP handshakes in flight, pure logic
 * shared by the TCP part's files and tested alone by KUnit.
 *
 * Its memory is one array of buckets allocated once by the caller; nothing
 * is allocated afterwards, so a SYN flood cannot grow it. Each bucket has a
 * raw spinlock and TEEPROBE_TCP_BUCKET_SLOTS slots; a key hashes to one
 * bucket, and when that bucket has no free slot the insert fails and the
 * caller counts the handshake as untracked. Entries that were never taken
 * out (their socket went away by a path teeprobe does not see) are
 * reclaimed once older than the table's timeout: by an insert that needs
 * their slot, and by teeprobe_tcp_table_expire().
 *
 * Keys are opaque non-zero numbers (tcp_part.h makes them from a socket's
 * address and a kind); they are never printed.
 */
#ifndef TEEPROBE_TCP_TABLE_H
#define TEEPROBE_TCP_TABLE_H

#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/types.h>

#define TEEPROBE_TCP_BUCKET_SLOTS	8

/* What is known of one handshake; times are teeprobe_now_ns(), 0 unknown */
struct teeprobe_tcp_hs {
	u64 syn_ns;		/* server: SYN seen; client: SYN_SENT */
	u64 synack_ns;		/* server: first SYN/ACK sent */
	u64 ack_ns;		/* server: final ACK made the child socket;
				 * client: ESTABLISHED
				 */
	u32 synack_retrans;	/* server: SYN/ACK retransmits */
	u32 syn_wait_ns;	/* server: the SYN's and the final ACK's */
	u32 ack_wait_ns;	/* waits for NET_RX (saturated at 4.29 s) */
	u16 port;		/* the port the handshake is counted under */
	bool in_call;		/* client: connect() waits for it */
};

struct teeprobe_tcp_slot {
	unsigned long key;	/* 0: free */
	u64 stamp_ns;		/* when the entry was (re)inserted */
	struct teeprobe_tcp_hs hs;
};

struct teeprobe_tcp_bucket {
	raw_spinlock_t lock;
	u64 expired;		/* entries reclaimed after the timeout */
	u64 full;		/* inserts refused: no free slot */
	struct teeprobe_tcp_slot slot[TEEPROBE_TCP_BUCKET_SLOTS];
};

struct teeprobe_tcp_table {
	struct teeprobe_tcp_bucket *bucket;
	unsigned int bits;	/* 1 << bits buckets */
	u64 timeout_ns;
};

/* Summary of the whole table, for debugfs */
struct teeprobe_tcp_table_stats {
	u64 in_use;
	u64 expired;
	u64 full;
};

enum teeprobe_tcp_insert {
	TEEPROBE_TCP_INSERTED,
	TEEPROBE_TCP_EXISTS,	/* the key is in the table: left unchanged */
	TEEPROBE_TCP_FULL,	/* no free slot in its bucket */
};

/* teeprobe_tcp_table_size_valid - a power of two, at least one bucket */
static inline bool teeprobe_tcp_table_size_valid(unsigned int entries)
{
	return entries >= TEEPROBE_TCP_BUCKET_SLOTS && is_power_of_2(entries);
}

/* teeprobe_tcp_table_buckets - buckets for a table of @entries entries */
static inline unsigned int teeprobe_tcp_table_buckets(unsigned int entries)
{
	return entries / TEEPROBE_TCP_BUCKET_SLOTS;
}

/*
 * teeprobe_tcp_table_init - set up @t over @buckets (zeroed memory of
 * @nr_buckets buckets, a power of two); entries expire after @timeout_ns.
 */
static inline void teeprobe_tcp_table_init(struct teeprobe_tcp_table *t,
					   struct teeprobe_tcp_bucket *buckets,
					   unsigned int nr_buckets,
					   u64 timeout_ns)
{
	unsigned int i;

	t->bucket = buckets;
	t->bits = ilog2(nr_buckets);
	t->timeout_ns = timeout_ns;
	for (i = 0; i < nr_buckets; i++)
		raw_spin_lock_init(&buckets[i].lock);
}

/* tcp_table_bucket - the bucket of @key */
static inline struct teeprobe_tcp_bucket *
tcp_table_bucket(const struct teeprobe_tcp_table *t, unsigned long key)
{
	return &t->bucket[t->bits ? hash_long(key, t->bits) : 0];
}

/* tcp_slot_expired - whether a used slot is older than the timeout */
static inline bool tcp_slot_expired(const struct teeprobe_tcp_table *t,
				    const struct teeprobe_tcp_slot *s, u64 now)
{
	return now > s->stamp_ns && now - s->stamp_ns > t->timeout_ns;
}

/*
 * teeprobe_tcp_table_insert - add @hs under @key (non-zero) at @now.
 * A slot whose entry expired is reclaimed (and counted) when no slot is
 * free. An existing entry for @key is left as it is.
 */
static inline enum teeprobe_tcp_insert
teeprobe_tcp_table_insert(struct teeprobe_tcp_table *t, unsigned long key,
			  u64 now, const struct teeprobe_tcp_hs *hs)
{
	struct teeprobe_tcp_bucket *b = tcp_table_bucket(t, key);
	struct teeprobe_tcp_slot *free = NULL, *old = NULL;
	enum teeprobe_tcp_insert ret = TEEPROBE_TCP_INSERTED;
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&b->lock, flags);
	for (i = 0; i < TEEPROBE_TCP_BUCKET_SLOTS; i++) {
		struct teeprobe_tcp_slot *s = &b->slot[i];

		if (s->key == key) {
			ret = TEEPROBE_TCP_EXISTS;
			goto out;
		}
		if (!s->key && !free)
			free = s;
		else if (s->key && !old && tcp_slot_expired(t, s, now))
			old = s;
	}
	if (!free && old) {
		b->expired++;
		free = old;
	}
	if (!free) {
		b->full++;
		ret = TEEPROBE_TCP_FULL;
		goto out;
	}
	free->key = key;
	free->stamp_ns = now;
	free->hs = *hs;
out:
	raw_spin_unlock_irqrestore(&b->lock, flags);
	return ret;
}

/*
 * teeprobe_tcp_table_take - remove the entry of @key; true and a copy in
 * *@hs when there was one. An entry past its timeout is still returned: it
 * is only reclaimed when its slot is needed or by an expiry pass.
 */
static inline bool teeprobe_tcp_table_take(struct teeprobe_tcp_table *t,
					   unsigned long key,
					   struct teeprobe_tcp_hs *hs)
{
	struct teeprobe_tcp_bucket *b = tcp_table_bucket(t, key);
	unsigned long flags;
	bool found = false;
	unsigned int i;

	raw_spin_lock_irqsave(&b->lock, flags);
	for (i = 0; i < TEEPROBE_TCP_BUCKET_SLOTS; i++) {
		struct teeprobe_tcp_slot *s = &b->slot[i];

		if (s->key == key) {
			*hs = s->hs;
			s->key = 0;
			found = true;
			break;
		}
	}
	raw_spin_unlock_irqrestore(&b->lock, flags);
	return found;
}

/*
 * teeprobe_tcp_table_find_lock - the entry of @key with its bucket locked
 * (interrupts off, saved in *@flags), or NULL and nothing locked. The
 * caller may change the entry, or free it by zeroing its key, then calls
 * teeprobe_tcp_table_unlock().
 */
static inline struct teeprobe_tcp_slot *
teeprobe_tcp_table_find_lock(struct teeprobe_tcp_table *t, unsigned long key,
			     unsigned long *flags)
{
	struct teeprobe_tcp_bucket *b = tcp_table_bucket(t, key);
	unsigned int i;

	raw_spin_lock_irqsave(&b->lock, *flags);
	for (i = 0; i < TEEPROBE_TCP_BUCKET_SLOTS; i++)
		if (b->slot[i].key == key)
			return &b->slot[i];
	raw_spin_unlock_irqrestore(&b->lock, *flags);
	return NULL;
}

/* teeprobe_tcp_table_unlock - release what find_lock returned for @key */
static inline void teeprobe_tcp_table_unlock(struct teeprobe_tcp_table *t,
					     unsigned long key,
					     unsigned long flags)
{
	raw_spin_unlock_irqrestore(&tcp_table_bucket(t, key)->lock, flags);
}

/* teeprobe_tcp_table_contains - whether @key has an entry */
static inline bool teeprobe_tcp_table_contains(struct teeprobe_tcp_table *t,
					       unsigned long key)
{
	unsigned long flags;

	if (!teeprobe_tcp_table_find_lock(t, key, &flags))
		return false;
	teeprobe_tcp_table_unlock(t, key, flags);
	return true;
}

/* teeprobe_tcp_table_count_retrans - one more SYN/ACK retransmit of @key */
static inline bool teeprobe_tcp_table_count_retrans(struct teeprobe_tcp_table *t,
						    unsigned long key)
{
	struct teeprobe_tcp_bucket *b = tcp_table_bucket(t, key);
	unsigned long flags;
	bool found = false;
	unsigned int i;

	raw_spin_lock_irqsave(&b->lock, flags);
	for (i = 0; i < TEEPROBE_TCP_BUCKET_SLOTS; i++) {
		if (b->slot[i].key == key) {
			b->slot[i].hs.synack_retrans++;
			found = true;
			break;
		}
	}
	raw_spin_unlock_irqrestore(&b->lock, flags);
	return found;
}

/* teeprobe_tcp_table_expire - reclaim every entry older than the timeout */
static inline unsigned int teeprobe_tcp_table_expire(struct teeprobe_tcp_table *t,
						     u64 now)
{
	unsigned int i, j, n = 0;
	unsigned long flags;

	for (i = 0; i < (1U << t->bits); i++) {
		struct teeprobe_tcp_bucket *b = &t->bucket[i];

		raw_spin_lock_irqsave(&b->lock, flags);
		for (j = 0; j < TEEPROBE_TCP_BUCKET_SLOTS; j++) {
			struct teeprobe_tcp_slot *s = &b->slot[j];

			if (s->key && tcp_slot_expired(t, s, now)) {
				s->key = 0;
				b->expired++;
				n++;
			}
		}
		raw_spin_unlock_irqrestore(&b->lock, flags);
	}
	return n;
}

/* teeprobe_tcp_table_stats - entries in use and the counters, summed */
static inline void teeprobe_tcp_table_stats(struct teeprobe_tcp_table *t,
					    struct teeprobe_tcp_table_stats *st)
{
	unsigned int i, j;
	unsigned long flags;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < (1U << t->bits); i++) {
		struct teeprobe_tcp_bucket *b = &t->bucket[i];

		raw_spin_lock_irqsave(&b->lock, flags);
		for (j = 0; j < TEEPROBE_TCP_BUCKET_SLOTS; j++)
			st->in_use += !!b->slot[j].key;
		st->expired += b->expired;
		st->full += b->full;
		raw_spin_unlock_irqrestore(&b->lock, flags);
	}
}

/* teeprobe_tcp_table_reset_counts - zero the counters, keep the entries */
static inline void teeprobe_tcp_table_reset_counts(struct teeprobe_tcp_table *t)
{
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < (1U << t->bits); i++) {
		struct teeprobe_tcp_bucket *b = &t->bucket[i];

		raw_spin_lock_irqsave(&b->lock, flags);
		b->expired = 0;
		b->full = 0;
		raw_spin_unlock_irqrestore(&b->lock, flags);
	}
}

#endif /* TEEPROBE_TCP_TABLE_H */
