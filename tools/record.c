// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - "teeprobe record": a trace-cmd style recording session.
 *
 * Debian's libtracecmd only reads trace.dat files, so the file is written
 * by trace-cmd itself: teeprobe runs "trace-cmd record" in a private
 * instance (created by trace-cmd, removed on every exit path; teeprobe
 * removes it with libtracefs if trace-cmd died without doing so), with the
 * teeprobe events and the monotonic trace clock, so the module's windows
 * (start_ns, CLOCK_MONOTONIC) and the events share one time axis.
 * teeprobe configures the module (pid filter, window length) for the
 * session and restores it afterwards, and writes a snapshot of the module's
 * and the host's counters into the trace at the start and at the end (see
 * snapshot.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "lock.h"
#include "module.h"
#include "record.h"
#include "session.h"
#include "snapshot.h"
#include "teeprobe.h"
#include "utils.h"

#define MAX_ARGS	128

/* Events left out unless --raw: one per ioctl entry, one per softirq run. */
static const char *const raw_events[] = {
	"teeprobe_tee_ioctl_enter",
	"teeprobe_netrx_run",
	NULL
};

/* record_raw_event - whether teeprobe event @name is one only --raw records */
bool record_raw_event(const char *name)
{
	int i;

	for (i = 0; raw_events[i]; i++)
		if (!strcmp(name, raw_events[i]))
			return true;
	return false;
}


static volatile sig_atomic_t stop_requested;
/* what the session recorded, for the last line */
static double recorded_s;
static unsigned long long recorded_losses;

/* on_signal - Ctrl-C or SIGTERM: end the session cleanly */
static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* record_usage - help for teeprobe record */
static void record_usage(FILE *out)
{
	fprintf(out,
		"usage: teeprobe record [-d SECONDS] [-p PID]... [-o FILE] [-C CPUS]\n"
		"                       [-b KB] [-w MS] [--raw] [--sched] [--kallsyms]\n"
		"                       [-q] [-h]\n\n"
		"  -d, --duration SEC  record for SEC seconds (default: until Ctrl-C)\n"
		"  -p, --pid PID       follow only the TEE calls of process PID\n"
		"                      (up to %d; default: every process)\n"
		"  -o, --output FILE   trace file to write (default: trace.dat)\n"
		"  -C, --cpus LIST     record only these CPUs, e.g. 0-3,8\n"
		"  -b, --buffer KB     each CPU's ring buffer (as trace-cmd's -b;\n"
		"                      default: the kernel's, 1410 KB a CPU)\n"
		"  -w, --window MS     length of the module's summary windows for\n"
		"                      this session (10..60000; default: as loaded)\n"
		"      --raw           also one event per TEE ioctl entry and per\n"
		"                      NET_RX run (large; for short sessions)\n"
		"      --sched         also sched:sched_switch\n"
		"      --kallsyms      keep trace-cmd's copy of /proc/kallsyms in\n"
		"                      FILE (no teeprobe event needs it: by default\n"
		"                      trace-cmd is shown an empty one)\n"
		"  -q, --quiet         no progress line\n\n"
		"Records the teeprobe events with trace-cmd into FILE, which\n"
		"'teeprobe report' and 'trace-cmd report' read. The module must be\n"
		"loaded; it is configured for the session and restored after. A\n"
		"snapshot of its counters and of the host's (/proc/stat,\n"
		"/proc/softirqs, /proc/net/dev, /proc/net/snmp) is written into the\n"
		"trace at the start and at the end.\n", MAX_PIDS);
}

#define WINDOW_PARAM "/sys/module/teeprobe/parameters/window_ms"

/* record_config_apply - the session's pid filter and window length */
int record_config_apply(const struct record_opts *o)
{
	char buf[128] = "", *path;
	size_t n = 0;
	int i, ret = 0;

	if (o->nr_pids) {
		for (i = 0; i < o->nr_pids; i++)
			n += snprintf(buf + n, sizeof(buf) - n, "%s%d",
				      i ? " " : "", o->pids[i]);
		path = teeprobe_debugfs_path("pid_filter");
		ret = path ? write_value("record: ", path, buf) : -1;
		free(path);
	}
	if (!ret && o->window_ms) {
		snprintf(buf, sizeof(buf), "%u", o->window_ms);
		ret = write_value("record: ", WINDOW_PARAM, buf);
	}
	return ret;
}

/* build_argv - the trace-cmd command line for this session */
static int build_argv(const struct record_opts *o, const char *instance,
		      const char *mask, char **argv)
{
	char **events = tracefs_system_events(NULL, "teeprobe");
	int n = 0, i;

	if (!events) {
		err_msg("record: no teeprobe events in tracefs\n");
		return -1;
	}
	argv[n++] = "trace-cmd";
	argv[n++] = "record";
	argv[n++] = "-q";
	argv[n++] = "-o";
	argv[n++] = (char *)o->output;
	argv[n++] = "-B";
	argv[n++] = (char *)instance;
	argv[n++] = "-C";
	argv[n++] = "mono";
	/*
	 * trace-cmd's readers wake every millisecond by default, a cost of
	 * its own on a busy host; the summary events come some tens a second
	 * per CPU, so a read every 100 ms is plenty. --raw keeps the default.
	 */
	if (!o->raw) {
		argv[n++] = "-s";
		argv[n++] = "100000";
	}
	if (mask) {
		argv[n++] = "-M";
		argv[n++] = (char *)mask;
	}
	if (o->buffer_kb) {
		argv[n++] = "-b";
		if (asprintf(&argv[n++], "%u", o->buffer_kb) < 0)
			fatal("out of memory\n");
	}
	for (i = 0; events[i] && n < MAX_ARGS - 6; i++) {
		if (record_raw_event(events[i]) && !o->raw)
			continue;
		argv[n++] = "-e";
		if (asprintf(&argv[n++], "teeprobe:%s", events[i]) < 0)
			fatal("out of memory\n");
	}
	if (o->sched) {
		argv[n++] = "-e";
		argv[n++] = "sched:sched_switch";
	}
	argv[n] = NULL;
	tracefs_list_free(events);
	return 0;
}

/*
 * instance_ready - trace-cmd created instance @name and turned it on;
 * *@inst is allocated once the instance exists.
 */
static bool instance_ready(const char *name, struct tracefs_instance **inst)
{
	char *on;
	bool ready;

	if (!*inst) {
		if (!tracefs_instance_exists(name))
			return false;
		*inst = tracefs_instance_alloc(NULL, name);
		if (!*inst)
			return false;
	}
	on = tracefs_instance_file_read(*inst, "events/teeprobe/teeprobe_reset/enable",
					NULL);
	ready = on && on[0] == '1';
	free(on);
	if (!ready)
		return false;
	on = tracefs_instance_file_read(*inst, "tracing_on", NULL);
	ready = on && on[0] == '1';
	free(on);
	return ready;
}

/* ring_losses - events the instance's ring buffers overwrote or dropped */
static unsigned long long ring_losses(struct tracefs_instance *inst)
{
	unsigned long long total = 0, v;
	char file[64], *text, *p;
	int cpu, ncpu = sysconf(_SC_NPROCESSORS_CONF);

	for (cpu = 0; cpu < ncpu; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(inst, file, NULL);
		if (!text)
			continue;
		p = strstr(text, "overrun:");
		if (p && sscanf(p, "overrun: %llu", &v) == 1)
			total += v;
		p = strstr(text, "dropped events:");
		if (p && sscanf(p, "dropped events: %llu", &v) == 1)
			total += v;
		free(text);
	}
	return total;
}

/* now_s - monotonic seconds */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * hide_kallsyms - called in trace-cmd's process before it starts: it sees an
 * empty /proc/kallsyms. trace-cmd copies that file into every trace.dat (7 to
 * 9 MB, some 170k symbols on a distribution kernel, read twice when it stops
 * and parsed again by every reader), and no teeprobe event holds a kernel
 * address: /dev/null is bound over it in a mount namespace of trace-cmd's own,
 * so the host's mounts are not touched and nothing is left when it ends. The
 * file then holds no kernel addresses either. Returns 0 when hidden; where it
 * cannot be done (no CAP_SYS_ADMIN, no mount namespaces) trace-cmd copies the
 * symbols as before and nothing but time is lost.
 */
static int hide_kallsyms(void)
{
	if (unshare(CLONE_NEWNS))
		return -1;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -1;
	return mount("/dev/null", "/proc/kallsyms", NULL, MS_BIND, NULL);
}

/*
 * record_tracecmd_start - trace-cmd with @argv, in a child: the writer of
 * every trace.dat teeprobe makes (record's, and watch's captures). Its own
 * process group (Ctrl-C reaches teeprobe only), @deathsig when teeprobe
 * dies, a umask of 077 (the trace holds task names: root's only),
 * /proc/kallsyms hidden unless @kallsyms, its prompts on stdout to
 * /dev/null; its stderr into @err_fd (-1: teeprobe's). Returns its pid,
 * or -1 after a message.
 */
pid_t record_tracecmd_start(char **argv, bool kallsyms, int deathsig, int err_fd)
{
	pid_t child, parent = getpid();

	child = fork();
	if (child < 0) {
		err_msg("%s: fork: %s\n", command_name, strerror(errno));
		return -1;
	}
	if (child)
		return child;
	setpgid(0, 0);
	if (prctl(PR_SET_PDEATHSIG, deathsig) || getppid() != parent)
		_exit(127);
	umask(077);
	if (!kallsyms)
		hide_kallsyms();
	if (!freopen("/dev/null", "w", stdout))
		_exit(127);
	if (err_fd >= 0 && dup2(err_fd, STDERR_FILENO) < 0)
		_exit(127);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	execvp(argv[0], argv);
	fprintf(stderr, "teeprobe: cannot run trace-cmd: %s (apt-get install trace-cmd)\n",
		strerror(errno));
	_exit(127);
}

/*
 * markers_pin - with -C's @cpus, run this thread on those CPUs while it
 * writes a snapshot's markers: trace-cmd -M turns the other CPUs' rings
 * off, and the kernel refuses a marker written on one of them (EBADF).
 * Returns the affinity to restore (markers_unpin), or NULL: no list, or
 * it could not be changed (the write then says so).
 */
static cpu_set_t *markers_pin(const struct cpu_list *cpus, size_t *size)
{
	cpu_set_t *old, *set;
	int cpu;

	if (!cpus)
		return NULL;
	*size = CPU_ALLOC_SIZE(CPU_LIST_MAX);
	old = CPU_ALLOC(CPU_LIST_MAX);
	set = CPU_ALLOC(CPU_LIST_MAX);
	if (!old || !set || sched_getaffinity(0, *size, old)) {
		CPU_FREE(old);
		CPU_FREE(set);
		return NULL;
	}
	CPU_ZERO_S(*size, set);
	for (cpu = 0; cpu < CPU_LIST_MAX; cpu++)
		if (cpus->w[cpu / 64] & (1ULL << (cpu % 64)))
			CPU_SET_S(cpu, *size, set);
	if (sched_setaffinity(0, *size, set)) {
		CPU_FREE(old);
		old = NULL;
	}
	CPU_FREE(set);
	return old;
}

/* markers_unpin - the affinity markers_pin() changed, back */
static void markers_unpin(cpu_set_t *old, size_t size)
{
	if (old) {
		sched_setaffinity(0, size, old);
		CPU_FREE(old);
	}
}

/*
 * session_markers - write @snap's markers as "@which", on one of @cpus
 * (-C's, NULL: any)
 */
static int session_markers(const struct cpu_list *cpus,
			   struct tracefs_instance *inst, const char *which,
			   const struct snapshot *snap)
{
	size_t size = 0;
	cpu_set_t *old = markers_pin(cpus, &size);
	int ret = snapshot_write_markers(inst, which, snap);

	markers_unpin(old, size);
	return ret;
}

/*
 * run_session - start trace-cmd, snapshot, wait, snapshot, stop it; its
 * markers written on one of @cpus (-C's, NULL: any)
 */
static int run_session(const struct record_opts *o, char **argv,
		       const struct cpu_list *cpus, const char *name,
		       struct tracefs_instance **instp)
{
	struct tracefs_instance *inst;
	struct snapshot start = { 0 }, end = { 0 };
	bool tty = !o->quiet && isatty(STDERR_FILENO);
	unsigned long long losses;
	double t0, deadline;
	int status, ret = 0;
	char line[64];
	pid_t child;

	/*
	 * It ends as Ctrl-C would end it when teeprobe dies, SIGKILL
	 * included: no trace-cmd recording on for nobody.
	 */
	child = record_tracecmd_start(argv, o->kallsyms, SIGINT, -1);
	if (child < 0)
		return -1;
	t0 = now_s();
	while (!instance_ready(name, instp)) {
		if (waitpid(child, &status, WNOHANG) == child) {
			err_msg("record: trace-cmd exited before recording (status %d)\n",
				WIFEXITED(status) ? WEXITSTATUS(status) : -1);
			return -1;
		}
		/* Enabling events patches kernel text: slow on a debug kernel. */
		if (now_s() - t0 > 120 || stop_requested) {
			err_msg("record: trace-cmd did not start recording in %s\n",
				stop_requested ? "time" : "120 s");
			kill(child, SIGINT);
			waitpid(child, &status, 0);
			return -1;
		}
		usleep(20000);
	}
	inst = *instp;
	snapshot_take(&start);
	if (session_markers(cpus, inst, "start", &start) < 0) {
		err_msg("record: cannot write the start snapshot into the trace\n");
		ret = -1;
	}
	if (!ret && !o->quiet && !tty)
		fprintf(stderr, "teeprobe: recording to %s%s\n", o->output,
			o->duration > 0 ? "" : " until SIGINT");
	t0 = now_s();
	deadline = o->duration > 0 ? t0 + o->duration : 0;
	while (!ret && !stop_requested && (!deadline || now_s() < deadline)) {
		if (waitpid(child, &status, WNOHANG) == child) {
			err_msg("record: trace-cmd stopped unexpectedly\n");
			child = 0;
			ret = -1;
			break;
		}
		if (tty) {
			if (deadline)
				snprintf(line, sizeof(line), "%.0f s left",
					 deadline - now_s());
			else
				snprintf(line, sizeof(line), "%.0f s, Ctrl-C stops",
					 now_s() - t0);
			fprintf(stderr, "\rteeprobe: recording to %s: %s   ",
				o->output, line);
		}
		usleep(100000);
	}
	if (tty)
		fprintf(stderr, "\n");
	losses = ring_losses(inst);
	snapshot_take(&end);
	snprintf(line, sizeof(line), "%llu", losses);
	snapshot_add_line(&end, "ring_losses", line);
	if (child && session_markers(cpus, inst, "end", &end) < 0) {
		err_msg("record: cannot write the end snapshot into the trace\n");
		ret = -1;
	}
	if (child) {
		kill(child, SIGINT);
		if (waitpid(child, &status, 0) == child &&
		    (!WIFEXITED(status) || WEXITSTATUS(status))) {
			err_msg("record: trace-cmd failed (status %d)\n",
				WIFEXITED(status) ? WEXITSTATUS(status) : -1);
			ret = -1;
		}
	}
	/* said by record_main once the file is read back */
	recorded_s = end.time - start.time;
	recorded_losses = losses;
	snapshot_free(&start);
	snapshot_free(&end);
	return ret;
}

/*
 * module_pin - hold one of the module's debugfs files open for the session.
 * An open debugfs file takes a reference on its module, so rmmod says
 * "in use" until the session ends. Without it, a module removed while
 * trace-cmd opens the instance's event files races with the kernel's
 * removal of those events (6.1's tracing core then reads a freed
 * trace_event_file: KASAN use-after-free in tracing_open_file_tr).
 * Returns the descriptor, or -1 when the module is gone.
 */
int module_pin(void)
{
	char *path = teeprobe_debugfs_path("version");
	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;

	if (fd < 0)
		err_msg("%s: the teeprobe module went away (%s): load it again\n", command_name,
			path ? strerror(errno) : "no debugfs");
	free(path);
	return fd;
}

/*
 * record_dir_usable - whether directory @dir can take a session's file:
 * this user can write into it, and its file system has the room a session
 * needs at the least (RECORD_MIN_FREE_BYTES); @opt names what the user
 * gave ("-o FILE") in the messages
 */
int record_dir_usable(const char *opt, const char *dir)
{
	struct statvfs fs;

	if (access(dir, W_OK)) {
		err_msg("%s: %s: cannot write into %s: %s\n", command_name, opt, dir,
			strerror(errno));
		return -1;
	}
	if (!statvfs(dir, &fs) &&
	    (double)fs.f_bavail * fs.f_frsize < RECORD_MIN_FREE_BYTES) {
		err_msg("%s: %s: %s has %.0f KiB free: not enough for a session\n",
			command_name, opt, dir, (double)fs.f_bavail * fs.f_frsize / 1024);
		return -1;
	}
	return 0;
}

/*
 * output_usable - whether @path can take a session: a regular file or none
 * yet, in a directory this user can write, on a file system with some
 * room. Said before the session starts, not after its whole -d.
 */
static int output_usable(const char *path)
{
	char *copy = xstrdup(path), *slash = strrchr(copy, '/');
	const char *dir = slash ? (slash == copy ? "/" : copy) : ".";
	char opt[4200];
	struct stat st;
	int ret = -1;

	if (slash && slash != copy)
		*slash = '\0';
	snprintf(opt, sizeof(opt), "-o %s", path);
	if (!*path || strchr(path, '\n')) {
		err_msg("record: -o '%s': give a file name (no newline in it)\n", path);
	} else if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		err_msg("record: -o %s: not a regular file\n", path);
	} else {
		ret = record_dir_usable(opt, dir);
	}
	free(copy);
	return ret;
}

/*
 * remove_temp_files - trace-cmd's per-CPU files (@output.@instance.cpuN,
 * and @output.cpuN of the top instance), which it leaves when it cannot
 * finish the merge into @output
 */
void record_remove_temp_files(const char *output, const char *instance)
{
	char path[4096];
	int cpu;

	for (cpu = 0; cpu < 1024; cpu++) {
		snprintf(path, sizeof(path), "%s.%s.cpu%d", output, instance, cpu);
		unlink(path);
		snprintf(path, sizeof(path), "%s.cpu%d", output, cpu);
		unlink(path);
	}
}

/*
 * record_output_read - what trace-cmd wrote into @output, read back: a
 * trace.dat that the reader takes, holding the start and end snapshots (a
 * full disk during the merge left trace-cmd exiting 0 with a file of no
 * data), made root's alone (0600). The session, or NULL after a message.
 */
struct session *record_output_read(const char *output)
{
	struct session *r;

	r = session_read(output);
	if (!r) {
		err_msg("%s: %s is not a readable trace (a full disk?): nothing was recorded\n",
			command_name, output);
		return NULL;
	}
	if (!session_has_snapshots(r)) {
		err_msg("%s: %s lacks the session's snapshots (a full disk?): it is incomplete\n",
			command_name, output);
		session_free(r);
		return NULL;
	}
	if (chmod(output, 0600)) {
		err_msg("%s: chmod 0600 %s: %s\n", command_name, output, strerror(errno));
		session_free(r);
		return NULL;
	}
	return r;
}

/* output_verified - record_output_read(), for record: 0 or -1 */
static int output_verified(const char *output)
{
	struct session *r = record_output_read(output);

	session_free(r);
	return r ? 0 : -1;
}

/*
 * number_opt - @arg of option -@opt, a whole number from @lo to @hi, into
 * *@v; 0, or 2 after a message saying what it must be (@what)
 */
static int number_opt(int opt, const char *arg, unsigned long lo,
		      unsigned long hi, const char *what, unsigned int *v)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || *end || n < lo || n > hi) {
		err_msg("%s: -%c '%s': %s\n", command_name, opt, arg, what);
		return 2;
	}
	*v = n;
	return 0;
}

/*
 * record_option - one of record's options (short letter @opt, its @arg)
 * into @o; 0, or 2 (a usage error) after a message. analyze -d takes its
 * -p and -w through here too.
 */
int record_option(struct record_opts *o, int opt, const char *arg)
{
	unsigned long v;
	char *end;

	switch (opt) {
	case 'd':
		if (parse_seconds(arg, &o->duration) || o->duration <= 0) {
			err_msg("%s: -d '%s': give a positive duration (30, 30s, 2m)\n",
				command_name, arg);
			return 2;
		}
		break;
	case 'p':
		errno = 0;
		v = strtoul(arg, &end, 10);
		if (errno || *end || !v || v > 4194304) {
			err_msg("%s: -p '%s' is not a process id\n", command_name, arg);
			return 2;
		}
		if (o->nr_pids == MAX_PIDS) {
			err_msg("%s: at most %d -p options\n", command_name, MAX_PIDS);
			return 2;
		}
		o->pids[o->nr_pids++] = v;
		break;
	case 'w':
		return number_opt('w', arg, 10, 60000, "a window from 10 to 60000 ms",
				  &o->window_ms);
	case 'o':
		o->output = arg;
		break;
	case 'b':
		return number_opt('b', arg, 4, 4194304, "a ring of 4 to 4194304 KB a CPU",
				  &o->buffer_kb);
	case 'C':
		o->cpus = arg;
		break;
	case 'r':
		o->raw = true;
		break;
	case 's':
		o->sched = true;
		break;
	case 'k':
		o->kallsyms = true;
		break;
	case 'q':
		o->quiet = true;
		break;
	default:
		return 2;
	}
	return 0;
}

/*
 * record_session - record the session @o describes into o->output; 0, 1
 * when it could not (after a message), 2 for a CPU list that is not one
 */
int record_session(const struct record_opts *o)
{
	struct module_config saved = { 0 };
	struct session_lock lock = { .fd = -1 };
	struct tracefs_instance *inst = NULL;
	int pin;
	char *targv[MAX_ARGS], name[64];
	static char mask[CPU_LIST_MASK_LEN];
	struct cpu_list cpus;
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	int ret;

	if (o->cpus && cpu_list_parse(o->cpus, &cpus)) {
		err_msg("record: -C '%s' is not a CPU list (e.g. 0-3,8; CPUs 0 to %d)\n",
			o->cpus, CPU_LIST_MAX - 1);
		return 2;
	}
	if (o->cpus && cpu_list_offline(&cpus)) {
		err_msg("record: -C '%s': not every one of those CPUs is online\n",
			o->cpus);
		return 2;
	}
	if (o->cpus)
		cpu_list_mask(&cpus, mask, sizeof(mask));
	if (output_usable(o->output))
		return 1;
	if (teeprobe_require_module())
		return 1;
	if (session_lock_take(&lock, "record"))
		return 1;
	module_config_read(&saved);
	if (session_lock_note(&lock, o->output, &saved)) {
		session_lock_release(&lock);
		module_config_free(&saved);
		return 1;
	}
	pin = module_pin();
	if (pin < 0) {
		session_lock_release(&lock);
		module_config_free(&saved);
		return 1;
	}
	snprintf(name, sizeof(name), "teeprobe-record-%d", (int)getpid());
	if (tracefs_instance_exists(name) || build_argv(o, name, o->cpus ? mask : NULL, targv)) {
		if (tracefs_instance_exists(name))
			err_msg("record: a tracefs instance %s already exists\n", name);
		close(pin);
		session_lock_release(&lock);
		module_config_free(&saved);
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = record_config_apply(o) ? -1 : run_session(o, targv, o->cpus ? &cpus : NULL, name, &inst);
	module_config_put_back(&saved);
	/* trace-cmd removes its instance; make sure, whatever happened. */
	if (tracefs_instance_exists(name)) {
		debug_msg("record: removing the instance trace-cmd left\n");
		if (!inst)
			inst = tracefs_instance_alloc(NULL, name);
		if (inst)
			tracefs_instance_destroy(inst);
	}
	tracefs_instance_free(inst);
	if (!ret)
		ret = output_verified(o->output);
	if (ret)
		record_remove_temp_files(o->output, name);
	else if (!o->quiet)
		fprintf(stderr, "teeprobe: recorded %.1f s to %s; %llu events lost in the ring buffer\n"
			"teeprobe: read it with: teeprobe report -i %s\n",
			recorded_s, o->output, recorded_losses, o->output);
	close(pin);	/* the module may go now */
	session_lock_release(&lock);
	module_config_free(&saved);
	return ret ? 1 : 0;
}

/* record_main - entry point of teeprobe record */
int record_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "pid", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "cpus", required_argument, NULL, 'C' },
		{ "buffer", required_argument, NULL, 'b' },
		{ "window", required_argument, NULL, 'w' },
		{ "raw", no_argument, NULL, 'r' },
		{ "sched", no_argument, NULL, 's' },
		{ "kallsyms", no_argument, NULL, 'k' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct record_opts o = { .output = "trace.dat" };
	int c;

	while ((c = getopt_long(argc, argv, "d:p:o:C:b:w:qh", opts, NULL)) != -1) {
		if (c == 'h') {
			record_usage(stdout);
			return 0;
		}
		if (c == '?' || c == ':')
			return usage_error("record", record_usage);
		if (record_option(&o, c, optarg))
			return 2;
	}
	if (optind < argc) {
		err_msg("record: unexpected argument '%s'\n", argv[optind]);
		return usage_error("record", record_usage);
	}
	return record_session(&o);
}
