/* SPDX-License-Identifier: GPL-2.0 */
/*
 * window.h - fixed-length time windows for summary events, pure logic
 * shared by the parts of teeprobe and tested alone by KUnit.
 *
 * Windows are aligned to multiples of their length on the monotonic clock
 * (teeprobe_now_ns()), so the windows of every CPU, and of every part of the
 * module, start at the same instants and a reader can line them up without
 * knowing when tracing started. A window opens at the first event that falls
 * in it and is closed by the first later event that falls outside it, by a
 * change of the window length, or by a flush when its CPU went quiet.
 */
#ifndef TEEPROBE_WINDOW_H
#define TEEPROBE_WINDOW_H

#include <linux/math64.h>
#include <linux/types.h>

struct teeprobe_window {
	u64 start_ns;	/* start of the open window */
	u64 len_ns;	/* its length */
	bool open;
};

/* teeprobe_window_align - start of the window of length @len holding @now */
static inline u64 teeprobe_window_align(u64 now, u64 len)
{
	return div64_u64(now, len) * len;
}

/*
 * teeprobe_window_expired - whether the open window must be closed at @now
 * with windows of @len ns: it ended, or the length changed.
 */
static inline bool teeprobe_window_expired(const struct teeprobe_window *w,
					   u64 now, u64 len)
{
	if (!w->open)
		return false;
	return w->len_ns != len || now >= w->start_ns + w->len_ns;
}

/*
 * teeprobe_window_late - how long after its end the window @w was closed
 * at @now (0 when it closed before its end: a new length, an unload)
 */
static inline u64 teeprobe_window_late(const struct teeprobe_window *w,
				       u64 now)
{
	u64 end = w->start_ns + w->len_ns;

	return now > end ? now - end : 0;
}

/*
 * teeprobe_window_current - whether an event at @now, windows @len ns,
 * falls in the open window (no roll needed): the probes' straight line
 * asks this alone, and leaves the roll to a function out of line
 */
static inline bool teeprobe_window_current(const struct teeprobe_window *w,
					   u64 now, u64 len)
{
	return w->open && !teeprobe_window_expired(w, now, len);
}

/*
 * teeprobe_window_roll - an event happened at @now, windows are @len ns.
 *
 * Returns true when the open window ended before @now; it is copied to
 * *@closed for the caller to report, and the window holding @now is opened.
 * An event that is older than the open window's start (another CPU's clock
 * read a little earlier) is counted in the open window.
 */
static inline bool teeprobe_window_roll(struct teeprobe_window *w, u64 now,
					u64 len, struct teeprobe_window *closed)
{
	bool expired = teeprobe_window_expired(w, now, len);

	if (teeprobe_window_current(w, now, len))
		return false;
	if (expired)
		*closed = *w;
	w->start_ns = teeprobe_window_align(now, len);
	w->len_ns = len;
	w->open = true;
	return expired;
}

/*
 * teeprobe_window_flush - close the open window if it ended by @now,
 * without opening another (no event happened). Returns true and fills
 * *@closed when a window was closed.
 */
static inline bool teeprobe_window_flush(struct teeprobe_window *w, u64 now,
					 u64 len, struct teeprobe_window *closed)
{
	if (!teeprobe_window_expired(w, now, len))
		return false;
	*closed = *w;
	w->open = false;
	return true;
}

#endif /* TEEPROBE_WINDOW_H */
