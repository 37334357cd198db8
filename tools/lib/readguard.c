// SPDX-License-Identifier: GPL-2.0
/*
 * readguard.c - a trace.dat read in a child that may crash or loop: the
 * child, its guard (a CPU-time budget between records and to open the file,
 * and a check that each CPU's records come at increasing offsets), and the
 * pipe that brings what it read to the parent.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>

#include "readguard.h"
#include "utils.h"

/*
 * Opening the file, before the first record, gets more than the budget
 * between records: its headers may hold the kernel's kallsyms (9 MB on
 * Debian's 7.2, in a 1.8 MB compressed file), which libtraceevent parses.
 * In a QEMU guest that took 1.7 s of CPU, and 6.3 s under a SCHED_FIFO hog
 * on the other vCPU (single-threaded TCG runs one vCPU at a time and the
 * guest charges the wait to the task on the other): READGUARD_STALL_S alone
 * failed one read in six there. So opening gets READGUARD_OPEN_S_PER_MB more
 * for each MB of the file (23 s for that one), at most READGUARD_OPEN_S: a
 * small damaged file on which libtracecmd loops is still stopped within
 * about READGUARD_STALL_S.
 */
static unsigned int stall_ms = READGUARD_STALL_S * 1000;
/* 0: by the file's size (readguard_open_budget()); else what was set */
static unsigned int open_fixed_ms;
/* the budget of the last open, for the caller's message */
static unsigned int open_ms = READGUARD_STALL_S * 1000;

/*
 * readguard_set_stall - the reading child's CPU time without a record, and
 * to open the file, in ms, instead of READGUARD_STALL_S s and the
 * size-scaled budget (0: those again). For the fuzzer, whose inputs are
 * small and which makes the libraries loop often: each loop cost it
 * READGUARD_STALL_S s of CPU.
 */
void readguard_set_stall(unsigned int ms)
{
	stall_ms = ms ? ms : READGUARD_STALL_S * 1000;
	open_fixed_ms = ms;
}

/* readguard_stall_ms - the budget between records */
unsigned int readguard_stall_ms(void)
{
	return stall_ms;
}

/* readguard_open_ms - the budget the last open had */
unsigned int readguard_open_ms(void)
{
	return open_ms;
}

/* readguard_open_budget - the ms of CPU time the child may take to open @size bytes */
unsigned int readguard_open_budget(unsigned long long size)
{
	unsigned long long ms;

	if (open_fixed_ms)
		return open_fixed_ms;
	ms = READGUARD_STALL_S * 1000ULL +
	     size * READGUARD_OPEN_S_PER_MB * 1000 / (1024 * 1024);
	return ms < READGUARD_OPEN_S * 1000 ? ms : READGUARD_OPEN_S * 1000;
}

/* stall_arm - (re)start the reading child's guard: @ms of CPU time */
static void stall_arm(unsigned int ms)
{
	struct itimerval stall = {
		.it_value.tv_sec = ms / 1000,
		.it_value.tv_usec = ms % 1000 * 1000,
	};

	setitimer(ITIMER_PROF, &stall, NULL);
}

/* The reading child's guard: per CPU, the offset of the last record */
static struct {
	unsigned long long *last;
	int ncpus;
	unsigned long records;
} guard;

/* readguard_buffer - a new buffer starts: its CPUs' offsets start again */
void readguard_buffer(void)
{
	if (guard.ncpus)
		memset(guard.last, 0, guard.ncpus * sizeof(*guard.last));
	stall_arm(stall_ms);
}

/*
 * readguard_record - end the reading child at the first record that shows
 * the library going round in circles. On a page whose event length is
 * damaged (negative), libtracecmd 3.1.6 walks back to an earlier event and
 * yields the same records for ever (trace-cmd report prints them until the
 * disk is full), and it ignores the callback's return value. In a sound
 * file each CPU's records come at increasing offsets.
 */
void readguard_record(const struct tep_record *record, int cpu)
{
	if (cpu < 0 || record->size < 0)
		_exit(1);
	if (cpu >= guard.ncpus) {
		int n = cpu + 1;

		guard.last = realloc(guard.last, n * sizeof(*guard.last));
		if (!guard.last)
			_exit(1);
		memset(guard.last + guard.ncpus, 0,
		       (n - guard.ncpus) * sizeof(*guard.last));
		guard.ncpus = n;
	}
	if (guard.last[cpu] && record->offset <= guard.last[cpu])
		_exit(1);
	guard.last[cpu] = record->offset;
	if (!(++guard.records % 4096))
		stall_arm(stall_ms);
}

/* transfer - all of @len bytes to (@out) or from @fd; false when it ends first */
static bool transfer(int fd, void *p, size_t len, bool out)
{
	char *c = p;
	ssize_t n;

	while (len) {
		n = out ? write(fd, c, len) : read(fd, c, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		c += n;
		len -= n;
	}
	return true;
}

/* readguard_put - write all of @len bytes; false on failure */
bool readguard_put(int fd, const void *p, size_t len)
{
	return transfer(fd, (void *)p, len, true);
}

/* readguard_put_string - a string and its length (SIZE_MAX for none) */
bool readguard_put_string(int fd, const char *s)
{
	size_t len = s ? strlen(s) : SIZE_MAX;

	return readguard_put(fd, &len, sizeof(len)) &&
	       (!s || readguard_put(fd, s, len));
}

/* readguard_get - the next @len bytes from @fd into @p; false when the stream ends first */
bool readguard_get(int fd, void *p, size_t len)
{
	return transfer(fd, p, len, false);
}

/* readguard_get_end - whether the stream on @fd ends here */
bool readguard_get_end(int fd)
{
	char extra;

	return !readguard_get(fd, &extra, 1);
}

/* Most that readguard_get_array() allocates ahead of what came */
#define GET_CHUNK	(1 << 20)

/*
 * readguard_get_array - @n elements of @size from @fd into a new array at
 * @v. The array grows with what comes, so a count larger than the stream
 * costs no more memory than the stream.
 */
bool readguard_get_array(int fd, void *v, size_t n, size_t size)
{
	size_t total = n * size, have = 0, cap = 0, want;
	char *a = NULL, *b;

	if (n && total / n != size)
		return false;
	while (have < total) {
		want = total - have < GET_CHUNK ? total - have : GET_CHUNK;
		if (have + want > cap) {
			cap = 2 * cap > have + want ? 2 * cap : have + want;
			cap = cap < total ? cap : total;
			b = realloc(a, cap);
			if (!b)
				break;
			a = b;
		}
		if (!readguard_get(fd, a + have, want))
			break;
		have += want;
	}
	if (have < total) {
		free(a);
		return false;
	}
	*(void **)v = a;
	return true;
}

/* readguard_get_string - a string that readguard_put_string() wrote, into @str */
bool readguard_get_string(int fd, char **str)
{
	size_t n;

	*str = NULL;
	if (!readguard_get(fd, &n, sizeof(n)))
		return false;
	if (n == SIZE_MAX)
		return true;
	if (!readguard_get_array(fd, str, n, 1))
		return false;
	*str = realloc(*str, n + 1);
	if (!*str)
		fatal("out of memory\n");
	(*str)[n] = '\0';
	return true;
}

static pid_t last_child;
static int last_status;

/*
 * readguard_last_child - the pid and wait status of the child that read the
 * last file; 0 when none was started. For the fuzzer, which tells a child
 * the libraries killed from one its sanitizers stopped.
 */
pid_t readguard_last_child(int *status)
{
	*status = last_status;
	return last_child;
}

/* readguard_forget_child - no child read the next file (yet) */
void readguard_forget_child(void)
{
	last_child = 0;
	last_status = 0;
}

/*
 * child_read - read @input in a child, which sends what it read down @fd
 * when @send; does not return: exits 0 when done, 1 otherwise.
 */
static void child_read(const char *input, int fd,
		       const struct readguard_ops *ops, void *arg, bool send)
{
	struct itimerval off = { 0 };
	int null;

	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGPROF, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	/*
	 * Nothing the child says is for the user: where the libraries fail,
	 * glibc's words ("free(): double free detected in tcache 2") would
	 * come before the parent's message. (The fuzzer's sanitizers write
	 * their reports to files: log_path.)
	 */
	null = open("/dev/null", O_WRONLY);
	if (null >= 0) {
		dup2(null, STDERR_FILENO);
		close(null);
	}
	/* libtracecmd can loop in its reads while it opens a damaged file */
	stall_arm(open_ms);
	if (ops->read(input, arg))
		_exit(1);
	setitimer(ITIMER_PROF, &off, NULL);
	if (send && !ops->put(fd, arg))
		_exit(1);
	_exit(0);
}

/*
 * readguard_run - read @input (of @size bytes) in a child into @child_arg,
 * and, when @take_it, take what it read into @parent_arg; 1 when the child
 * read it, 0 when it could not (it died, or its guard stopped it: the
 * caller gives the message), -1 when the child could not be started. The
 * child dies, quietly, where the libraries would crash or loop on a damaged
 * file: libtracecmd 3.1.6 in the error path of
 * tracecmd_buffer_instance_handle() (it closes a shallow copy of the handle)
 * and in tracecmd_alloc_fd() on a damaged version 7 header (it frees a
 * string twice: glibc aborts), libtraceevent 1.7.1 in tracecmd_open() on a
 * damaged event format and in kbuffer_load_subbuffer() on a damaged page
 * (in a compressed file the page is only seen once decompressed, so it
 * cannot be checked beforehand); libtracecmd loops for ever on a page with
 * a negative event length (readguard_record() ends it), and anything else
 * that spins without a record, or in its reads while it opens the file, is
 * ended by SIGPROF after READGUARD_STALL_S s of CPU time between records,
 * or readguard_open_budget() to open the file (user and system: the loops
 * are often in read() or page faults; readguard_set_stall() changes the
 * times). trace-cmd report crashes or loops on all of them.
 */
int readguard_run(const char *input, unsigned long long size,
		  const struct readguard_ops *ops, void *child_arg,
		  void *parent_arg, bool take_it)
{
	int fds[2], status;
	bool ok = true, got;
	pid_t pid;

	readguard_forget_child();
	open_ms = readguard_open_budget(size);
	if (pipe(fds))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		close(fds[0]);
		child_read(input, fds[1], ops, child_arg, take_it);
	}
	close(fds[1]);
	/* taken as it comes, and kept only if the child exits 0 */
	got = !take_it || ops->take(fds[0], parent_arg);
	close(fds[0]);		/* a child still writing gets SIGPIPE */
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			ok = false;
			break;
		}
	if (ok) {
		last_child = pid;
		last_status = status;
	}
	ok = ok && WIFEXITED(status) && !WEXITSTATUS(status);
	if (ok && !got) {
		err_msg("%s: the reading child's report of %s is incomplete\n", command_name,
			input);
		ok = false;
	}
	return ok;
}
