// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_trace.c - the whole trace.dat reader: the input as a file, read by
 * session_read() (libtracecmd, libtraceevent, then the markers and events),
 * summarised, cut into windows by series_build(), and its accept-queue
 * waits split by acceptq_measure().
 *
 * session_read() reads the file in a child first, which may die where the
 * libraries crash on a damaged file: that is the reader's guard working,
 * not a finding. A child that its sanitizers stop (exit status
 * SANITIZER_EXIT) is a finding: this process aborts, so that libFuzzer
 * keeps the input. The child's report is in ASan's log_path.PID (the
 * child's stderr is /dev/null, readguard.c), which tests/fuzz/run sets, and
 * passes here as FUZZ_TRACE_CHILD_LOG. One kind is not: a report whose
 * first frame outside the sanitizer runtime is in libtracecmd or
 * libtraceevent (a double free in the library, say) is the library's bug,
 * which the child is there to contain, as asan.supp's interceptor_via_lib
 * does in this process. The log counts them ("library reports").
 *
 * The child's coverage is the fuzzer's too: libFuzzer counts the edges in
 * this process's counters, which the child has a copy of. The child
 * leaves what it counted in a shared page as it exits (_exit() is
 * wrapped: -Wl,--wrap=_exit), and this process adds it to its own, so the
 * file is read once, not again here for coverage. A child that dies on a
 * signal gives none.
 *
 * FUZZ_TRACE_PLANT=1 in the environment plants a heap overflow in every
 * reading child, to show that such a finding fails the run
 * (tests/fuzz/run -P). It fires as the child starts, before the reader
 * arms its stall guard: a guard is a timer, which a loaded host can make
 * end the child before a later plant is reached (seen once: the planted
 * run exited 0, no report). FUZZ_TRACE_STALL_MS sets the guard (0: the
 * reader's own, seconds), for the self-tests that must read a whole file.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <trace-cmd/trace-cmd.h>

#include "fuzz.h"
#include "../../tools/lib/include/acceptq.h"
#include "../../tools/lib/readguard.h"
#include "../../tools/lib/include/figures.h"
#include "../../tools/lib/include/session.h"
#include "../../tools/lib/include/series.h"
#include "../../tools/lib/include/utils.h"

/*
 * The reading child's stall guard here: readguard_set_stall(), unless
 * FUZZ_TRACE_STALL_MS says otherwise
 */
#define STALL_MS	100

/* What the sanitizers exit with; the reader's own child exits 0 or 1 */
#define SANITIZER_EXIT	86
#define STR(x)		#x
#define XSTR(x)		STR(x)

const char *__asan_default_options(void)
{
	return "exitcode=" XSTR(SANITIZER_EXIT);
}

const char *__ubsan_default_options(void)
{
	return "exitcode=" XSTR(SANITIZER_EXIT);
}

/*
 * __asan_on_error - ASan found an error and starts its report: the
 * reading child's stall guard (readguard_set_stall(), a short one here)
 * must not end the child before the report is written and the child
 * exits SANITIZER_EXIT
 */
void __asan_on_error(void)
{
	signal(SIGPROF, SIG_IGN);
}

static int fd = -1;
static char path[64];
static pid_t fuzzer;
static bool plant;

/*
 * libFuzzer's 8-bit edge counters, as the instrumented objects hand them
 * to it (their section, one for the whole program): @cntrs_n from
 * @cntrs.
 */
static uint8_t *cntrs;
static size_t cntrs_n;

/*
 * Shared with the reading child: the counters as it was forked (@at_fork)
 * and as it exits (@at_exit), written by the child whose pid is @pid
 */
struct child_cover {
	pid_t pid;
	uint8_t *at_fork;
	uint8_t *at_exit;
};
static struct child_cover *cover;

void __real___sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop);
/*
 * __wrap___sanitizer_cov_8bit_counters_init - each instrumented object
 * tells libFuzzer where the counters are, before main(); noted here too.
 * (Not the linker's __start___sancov_cntrs: declared in an instrumented
 * file, clang 14 then hands libFuzzer no counters at all.)
 */
void __wrap___sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *stop)
{
	if (start < stop && !cntrs) {
		cntrs = start;
		cntrs_n = stop - start;
	}
	__real___sanitizer_cov_8bit_counters_init(start, stop);
}

/* cover_init - the shared page(s) for the child's counters; aborts */
static void cover_init(void)
{
	char *p;

	if (!cntrs_n)
		abort();
	p = mmap(NULL, sizeof(*cover) + 2 * cntrs_n, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		abort();
	cover = (struct child_cover *)p;
	cover->at_fork = (uint8_t *)p + sizeof(*cover);
	cover->at_exit = cover->at_fork + cntrs_n;
}

/*
 * cover_take - add to this process's counters what child @pid counted;
 * they wrap at 256 as libFuzzer's own do
 */
static void cover_take(pid_t pid)
{
	size_t i;

	if (!pid || cover->pid != pid)
		return;
	for (i = 0; i < cntrs_n; i++)
		cntrs[i] += cover->at_exit[i] - cover->at_fork[i];
	cover->pid = 0;
}

void __real__exit(int status);
/* __wrap__exit - a reading child leaves what it counted for the fuzzer */
void __wrap__exit(int status)
{
	if (getpid() != fuzzer) {
		memcpy(cover->at_exit, cntrs, cntrs_n);
		cover->pid = getpid();
	}
	__real__exit(status);
}

/*
 * plant_overflow - FUZZ_TRACE_PLANT=1: write one byte past a heap block, in
 * the reading child before it reads (no timer of the reader's runs yet)
 */
static void plant_overflow(void)
{
	volatile size_t n = 16;	/* not seen through by the compiler */
	char *p = malloc(n);

	if (p)
		p[n] = 1;
	free(p);
}

/*
 * in_child - a forked child is the reader's, not the fuzzer's: libFuzzer's
 * death callback and crash handlers, inherited, would write the input to
 * build/crashes/ for every child that dies. It dies as it would in
 * teeprobe report.
 */
static void in_child(void)
{
	static const int sigs[] = { SIGABRT, SIGILL, SIGFPE, SIGUSR1, SIGUSR2 };
	size_t i;

	__sanitizer_set_death_callback(NULL);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], SIG_DFL);
	cover->pid = 0;
	memcpy(cover->at_fork, cntrs, cntrs_n);
	if (plant)
		plant_overflow();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *p = getenv("FUZZ_TRACE_PLANT");
	const char *stall = getenv("FUZZ_TRACE_STALL_MS");

	(void)argc;
	(void)argv;
	fuzzer = getpid();
	plant = p && *p == '1';
	/*
	 * The fuzzer makes the libraries loop often: with the reader's 5 s
	 * guard, 7 reading children in 30 s took more than half of both CPUs
	 * here, with 500 ms a quarter, with 200 ms a fifth (1 % of the
	 * inputs). An input (at most 256 KiB) is read in under 40 ms of CPU.
	 */
	readguard_set_stall(stall ? (unsigned int)strtoul(stall, NULL, 10) : STALL_MS);
	cover_init();
	if (pthread_atfork(NULL, NULL, in_child))
		abort();
	return 0;
}

/* input_file - the input in a memory file; its path, NULL on failure */
static const char *input_file(const uint8_t *data, size_t size)
{
	if (fd < 0) {
		fd = memfd_create("fuzz_trace.dat", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	return path;
}

/* runtime_frame - is this stack line a frame of the sanitizers' own? */
static bool runtime_frame(const char *line)
{
	static const char *const names[] = {
		" in __interceptor_", " in __asan_", " in __sanitizer_",
		" in __ubsan_", " in __lsan_", " in malloc ", " in free ",
		" in calloc ", " in realloc ",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (strstr(line, names[i]))
			return true;
	return false;
}

/*
 * library_report - is the report of child @pid (FUZZ_TRACE_CHILD_LOG.PID)
 * one raised in libtracecmd or libtraceevent? false when it cannot be read
 */
static bool library_report(pid_t pid)
{
	const char *prefix = getenv("FUZZ_TRACE_CHILD_LOG");
	char name[4096], line[1024];
	bool lib = false, seen = false;
	FILE *f;

	if (!prefix)
		return false;
	snprintf(name, sizeof(name), "%s.%d", prefix, (int)pid);
	f = fopen(name, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (!seen) {
			seen = strstr(line, "ERROR: AddressSanitizer") ||
			       strstr(line, "runtime error");
			continue;
		}
		if (strncmp(line, "    #", 5) || runtime_frame(line))
			continue;
		lib = strstr(line, "/libtracecmd.so") ||
		      strstr(line, "/libtraceevent.so");
		break;
	}
	fclose(f);
	return lib;
}

static unsigned long library_reports;

/*
 * child_check - abort when the reading child @pid (0: none) stopped on a
 * sanitizer report; @status is its wait status
 */
static void child_check(pid_t pid, int status)
{
	char msg[128];

	if (!pid || !WIFEXITED(status) || WEXITSTATUS(status) != SANITIZER_EXIT)
		return;
	if (library_report(pid)) {
		/* the 1st, 2nd, 4th, 8th...: the log says how many */
		library_reports++;
		if (!(library_reports & (library_reports - 1))) {
			snprintf(msg, sizeof(msg),
				 "fuzz_trace: library reports: %lu (the last: child %d)",
				 library_reports, (int)pid);
			__sanitizer_report_error_summary(msg);
		}
		return;
	}
	/* stderr is closed: this goes where libFuzzer reports */
	snprintf(msg, sizeof(msg),
		 "fuzz_trace: the reading child %d stopped on a sanitizer report (log_path.%d)",
		 (int)pid, (int)pid);
	__sanitizer_report_error_summary(msg);
	abort();
}

/* LLVMFuzzerTestOneInput - read, summarise and cut one trace.dat */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session_summary sum;
	struct series ser = { 0 };
	struct acceptq q;
	struct session *r;
	int status;
	pid_t pid;

	r = session_read(input_file(data, size));
	pid = readguard_last_child(&status);
	child_check(pid, status);
	cover_take(pid);
	if (!r)
		return 0;
	figures_summarize(r, &sum);
	if (!series_build(&r->ev, &ser))
		series_free(&ser);
	acceptq_measure(&r->ev, &q);
	session_free(r);
	return 0;
}
