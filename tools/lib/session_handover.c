// SPDX-License-Identifier: GPL-2.0
/*
 * session_handover.c - a session through a pipe, from the guarded child
 * that read it (session.c, readguard.c) to the parent: session_put()
 * writes it, session_take() reads it back and checks that it adds up.
 */
#include <string.h>

#include "readguard.h"
#include "session.h"

/*
 * The reading child hands its session to the parent through a pipe: the
 * struct as it is (its pointers mean nothing to the parent), then what each
 * pointer points to, in the order of session_put() and session_take().
 */

/* session_put - @s down @fd; false on failure */
bool session_put(int fd, const struct session *s)
{
	bool ok = readguard_put(fd, s, sizeof(*s));
	int i, p;

	for (p = 0; p < 2; p++)
		for (i = 0; i < s->snap[p].nr; i++)
			ok = ok && readguard_put_string(fd, s->snap[p].src[i].name) &&
			     readguard_put_string(fd, s->snap[p].src[i].text);
	return ok &&
	       readguard_put(fd, s->ev.tee, s->ev.ntee * sizeof(*s->ev.tee)) &&
	       readguard_put(fd, s->ev.netrx, s->ev.nnetrx * sizeof(*s->ev.netrx)) &&
	       readguard_put(fd, s->ev.hs, s->ev.nhs * sizeof(*s->ev.hs)) &&
	       readguard_put(fd, s->ev.acc, s->ev.nacc * sizeof(*s->ev.acc));
}

/*
 * session_take - the session the child sent down @fd, into @s (zeroed);
 * false when the stream is short, longer, or does not add up. Whatever
 * was allocated stays in @s for session_free().
 */
bool session_take(int fd, struct session *s)
{
	/* and nothing after it */
	return session_take_part(fd, s) && readguard_get_end(fd);
}

/*
 * session_take_part - session_take() where more may follow (a streaming
 * client's figures, session_stream())
 */
bool session_take_part(int fd, struct session *s)
{
	struct snap_source *src;
	bool ok;
	int i, p;

	ok = readguard_get(fd, s, sizeof(*s));
	/* The pointers are the child's: none of them is the parent's. */
	for (p = 0; p < 2; p++) {
		for (i = 0; i < SNAP_MAX_SOURCES; i++) {
			s->snap[p].src[i].name = NULL;
			s->snap[p].src[i].text = NULL;
			s->snap[p].src[i].parsed = NULL;
		}
		memset(&s->pending[p], 0, sizeof(s->pending[p]));
	}
	s->ev.tee = NULL;
	s->ev.netrx = NULL;
	s->ev.hs = NULL;
	s->ev.acc = NULL;
	if (!ok || s->nr_cmds < 0 || s->nr_cmds > SESSION_MAX_CMDS ||
	    s->nr_kinds < 0 || s->nr_kinds > SESSION_MAX_KINDS ||
	    s->nr_threads < 0 || s->nr_threads > SESSION_MAX_THREADS) {
		s->nr_cmds = s->nr_kinds = s->nr_threads = 0;
		s->snap[0].nr = s->snap[1].nr = 0;
		s->ev.ntee = s->ev.nnetrx = s->ev.nhs = s->ev.nacc = 0;
		return false;
	}
	for (i = 0; i < s->nr_cmds; i++)
		s->cmds[i].name[sizeof(s->cmds[i].name) - 1] = '\0';
	for (i = 0; i < s->nr_threads; i++)
		s->threads[i].comm[sizeof(s->threads[i].comm) - 1] = '\0';
	for (i = 0; i < s->nr_kinds; i++)
		s->kinds[i].name[sizeof(s->kinds[i].name) - 1] = '\0';
	for (p = 0; p < 2; p++) {
		if (s->snap[p].nr < 0 || s->snap[p].nr > SNAP_MAX_SOURCES) {
			s->snap[p].nr = 0;
			ok = false;
		}
		for (i = 0; ok && i < s->snap[p].nr; i++) {
			src = &s->snap[p].src[i];
			ok = readguard_get_string(fd, &src->name) &&
			     readguard_get_string(fd, &src->text);
			src->len = src->text ? strlen(src->text) : 0;
			src->cap = src->text ? src->len + 1 : 0;
		}
	}
	ok = ok &&
	     readguard_get_array(fd, &s->ev.tee, s->ev.ntee, sizeof(*s->ev.tee)) &&
	     readguard_get_array(fd, &s->ev.netrx, s->ev.nnetrx, sizeof(*s->ev.netrx)) &&
	     readguard_get_array(fd, &s->ev.hs, s->ev.nhs, sizeof(*s->ev.hs)) &&
	     readguard_get_array(fd, &s->ev.acc, s->ev.nacc, sizeof(*s->ev.acc));
	/* an array that did not come is not the session's */
	if (!s->ev.tee)
		s->ev.ntee = 0;
	if (!s->ev.netrx)
		s->ev.nnetrx = 0;
	if (!s->ev.hs)
		s->ev.nhs = 0;
	if (!s->ev.acc)
		s->ev.nacc = 0;
	s->ev.cap_tee = s->ev.ntee;
	s->ev.cap_netrx = s->ev.nnetrx;
	s->ev.cap_hs = s->ev.nhs;
	s->ev.cap_acc = s->ev.nacc;
	return ok;
}
