// SPDX-License-Identifier: GPL-2.0
/*
 * utils.c - messages, allocation and parsing helpers.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "utils.h"

bool config_debug;
const char *command_name = "report";

/* err_msg - print an error for the user on stderr */
void err_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("teeprobe: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* debug_msg - print a message only with --debug */
void debug_msg(const char *fmt, ...)
{
	va_list ap;

	if (!config_debug)
		return;
	fputs("teeprobe: debug: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* fatal - print an error and exit with status 1 */
void fatal(const char *fmt, ...)
{
	va_list ap;

	fputs("teeprobe: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	exit(1);
}

/* xzalloc - zeroed allocation that never returns NULL */
void *xzalloc(size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p)
		fatal("out of memory\n");
	return p;
}

/* xstrdup - strdup that never returns NULL */
char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		fatal("out of memory\n");
	return p;
}

/*
 * parse_seconds - parse a duration: a positive number with an optional unit
 * s, m or h ("30", "1.5m"). Returns 0 on success, -EINVAL otherwise.
 */
int parse_seconds(const char *arg, double *seconds)
{
	double value, scale = 1;
	char *end;

	if (!arg || !*arg)
		return -EINVAL;
	errno = 0;
	value = strtod(arg, &end);
	if (errno || end == arg)
		return -EINVAL;
	if (*end) {
		if (end[1])
			return -EINVAL;
		switch (*end) {
		case 's':
			break;
		case 'm':
			scale = 60;
			break;
		case 'h':
			scale = 3600;
			break;
		default:
			return -EINVAL;
		}
	}
	if (!isfinite(value) || value <= 0 || value * scale > 31 * 24 * 3600.0)
		return -EINVAL;
	*seconds = value * scale;
	return 0;
}

/*
 * write_value - write @value to the file @path (a module parameter, a
 * tracefs setting); 0, or -1 after a message that starts with @who
 */
int write_value(const char *who, const char *path, const char *value)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f) {
		err_msg("%scannot open %s: %s\n", who, path, strerror(errno));
		return -1;
	}
	if (fputs(value, f) == EOF)
		ret = -1;
	if (fclose(f) == EOF)
		ret = -1;
	if (ret)
		err_msg("%s%s refused '%s': %s\n", who, path, value, strerror(errno));
	return ret;
}

/*
 * read_text_file - read at most @max bytes of @path into a NUL-terminated
 * string. Returns NULL and sets *err to a positive errno on failure.
 */
char *read_text_file(const char *path, size_t max, int *err)
{
	size_t len = 0, cap = max < 4096 ? max : 4096;
	char *buf;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return NULL;
	}
	/*
	 * Grown as the text comes, not @max at once: a megabyte for every
	 * file of a snapshot is a fresh mapping each (teeprobe watch takes
	 * one every few seconds)
	 */
	buf = xzalloc(cap + 1);
	while (len < max) {
		if (len == cap) {
			cap = cap * 2 < max ? cap * 2 : max;
			buf = realloc(buf, cap + 1);
			if (!buf)
				fatal("out of memory\n");
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			*err = errno;
			close(fd);
			free(buf);
			return NULL;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;
}

/*
 * utf8_len - the length of the valid UTF-8 sequence at @s (1 to 4), or 0
 * when it is not one (a stray continuation byte, an overlong or cut
 * sequence, a surrogate, beyond U+10FFFF)
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned int c = s[0], n, i, cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

/*
 * struct str_ring - the buffers of tstr: a result lives until the
 * eighth call after its own, so that several can go into one printf
 */
struct str_ring {
	char *buf[8];
	unsigned int next;
};

/* ring_take - a buffer of @size bytes from @r, freeing the oldest */
static char *ring_take(struct str_ring *r, size_t size)
{
	char *out;

	free(r->buf[r->next]);
	out = malloc(size);
	if (!out)
		fatal("out of memory\n");
	r->buf[r->next] = out;
	r->next = (r->next + 1) % 8;
	return out;
}

/*
 * dur_str - @ns as the text outputs print a duration, in the unit that
 * reads (as perf and trace-cmd do): "265.018 ms" from 10 ms up, "1595.4 us"
 * below, "-" for NAN. DUR_SIGN adds the sign (a change), DUR_PER_S "/s" (a
 * duration per second). From a ring of buffers, as tstr.
 */
const char *dur_str(double ns, unsigned int flags)
{
	static struct str_ring ring;
	const char *sign = "";
	char *out;

	if (isnan(ns))
		return "-";
	out = ring_take(&ring, DUR_STR_LEN);
	if (flags & DUR_SIGN)
		sign = ns < 0 ? "-" : "+";
	else if (ns < 0)
		sign = "-";
	ns = fabs(ns);
	/* what rounds to 10000.0 us reads 10.000 ms */
	if (ns >= DUR_MS_FROM_NS - 50)
		snprintf(out, DUR_STR_LEN, "%s%.3f ms%s", sign, ns / 1e6,
			 flags & DUR_PER_S ? "/s" : "");
	else
		snprintf(out, DUR_STR_LEN, "%s%.1f us%s", sign, ns / 1e3,
			 flags & DUR_PER_S ? "/s" : "");
	return out;
}

/* num_str - @v with @decimals decimals, or "-" for a value not measured */
const char *num_str(double v, int decimals)
{
	static struct str_ring ring;
	char *out;

	if (isnan(v))
		return "-";
	out = ring_take(&ring, 32);
	snprintf(out, 32, "%.*f", decimals, v);
	return out;
}

/* unit_follows - is the space at @q that between a number and its unit? */
static bool unit_follows(const char *q)
{
	if (q[-1] < '0' || q[-1] > '9')
		return false;
	/* a percent sign: "46 %" stays on one line */
	if (q[1] == '%')
		return true;
	return (!strncmp(q + 1, "us", 2) || !strncmp(q + 1, "ms", 2)) &&
	       !((q[3] >= 'a' && q[3] <= 'z') || (q[3] >= 'A' && q[3] <= 'Z'));
}

/*
 * print_wrapped - @text within TEXT_COLS columns: broken at the last space
 * that fits, never between a number and its unit, the lines after the
 * first indented by @indent spaces (a word longer than a line stays whole); its own spacing kept, and its newlines
 * start indented lines too
 */
void print_wrapped(const char *text, int indent)
{
	const char *p = text, *eol, *brk, *q;
	int col = 0;

	while (*p) {
		eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		if (eol - p <= TEXT_COLS - col) {
			brk = eol;
		} else {
			/* the last space that fits, past the line's first word */
			brk = NULL;
			for (q = p + 1; q <= p + TEXT_COLS - col; q++)
				if (*q == ' ' && q[-1] != ' ' && !unit_follows(q))
					brk = q;
			if (!brk)
				for (q = p + 1; q < eol && !brk; q++)
					if (*q == ' ')
						brk = q;
			if (!brk)
				brk = eol;
		}
		printf("%.*s", (int)(brk - p), p);
		p = brk;
		if (!*p)
			break;
		if (*p == '\n')
			p++;
		else
			while (*p == ' ')
				p++;
		printf("\n%*s", indent, "");
		col = indent;
	}
	putchar('\n');
}

/*
 * utf8_clean - a copy of @s (to free) with every byte that is not part of
 * valid UTF-8 as U+FFFD: what goes into JSON, which must be UTF-8 (a file
 * or thread name is whatever bytes its owner chose)
 */
char *utf8_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out, *o;
	size_t n;

	/* at most 3 bytes out (U+FFFD) for a byte in */
	out = malloc(strlen(s) * 3 + 1);
	if (!out)
		fatal("out of memory\n");
	o = out;
	while (*p) {
		n = utf8_len(p);
		if (n) {
			memcpy(o, p, n);
			o += n;
			p += n;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			p++;
		}
	}
	*o = '\0';
	return out;
}

/*
 * tstr - @s for a line of text: bytes other than printable ASCII (and the
 * backslash) as \xHH
 * (a task's name is its own choice: a newline in it must not start a line
 * of teeprobe's output). A ring of buffers, so that several can go into
 * one printf.
 */
const char *tstr(const char *s)
{
	static struct str_ring ring;
	const unsigned char *p = (const unsigned char *)s;
	char *out, *o;

	if (!s)
		return "-";
	out = ring_take(&ring, strlen(s) * 4 + 1);
	for (o = out; *p; p++) {
		if (*p >= ' ' && *p < 0x7f && *p != '\\')
			*o++ = *p;
		else
			o += sprintf(o, "\\x%02x", *p);
	}
	*o = '\0';
	return out;
}

/*
 * usage_error - a command line mistake of @cmd: the usage's first line (the
 * synopsis @usage prints first) and where the rest is, not the whole help;
 * returns 2, the exit status of a usage error
 */
int usage_error(const char *cmd, void (*usage)(FILE *out))
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (mem) {
		usage(mem);
		fclose(mem);
	}
	if (text)
		fprintf(stderr, "%.*s\n", (int)strcspn(text, "\n"), text);
	fprintf(stderr, "(see 'teeprobe help %s')\n", cmd);
	free(text);
	return 2;
}

/*
 * input_arg - the one input file of @cmd: -i's (@opt, NULL when not given)
 * or the one positional argument left in @argv from @first, trace-cmd's
 * way; *@input keeps its default when neither is there. 0, or -1 after a
 * message when both are given or more than one positional.
 */
int input_arg(const char *cmd, const char *opt, int argc, char **argv,
	      int first, const char **input)
{
	if (first < argc - 1) {
		err_msg("%s: unexpected argument '%s'\n", cmd, argv[first + 1]);
		return -1;
	}
	if (first == argc - 1 && opt) {
		err_msg("%s: give the input once, as -i FILE or as FILE, not both ('%s' and '%s')\n",
			cmd, opt, argv[first]);
		return -1;
	}
	if (opt)
		*input = opt;
	else if (first == argc - 1)
		*input = argv[first];
	return 0;
}

/*
 * process_is_teeprobe - whether process @pid is alive and a teeprobe
 * command (the session lock's owner, a watch)
 */
bool process_is_teeprobe(int pid)
{
	char path[64], *comm;
	bool yes;
	int err;

	if (pid <= 0 || (kill(pid, 0) && errno == ESRCH))
		return false;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	comm = read_text_file(path, 64, &err);
	yes = comm && !strncmp(comm, "teeprobe", 8);
	free(comm);
	return yes;
}

/* cpu_list_parse - "0-3,8" into @set (emptied first); 0, or -1 */
int cpu_list_parse(const char *text, struct cpu_list *set)
{
	const char *p = text;
	bool any = false;
	char *end;
	long a, b;

	memset(set, 0, sizeof(*set));
	while (*p) {
		errno = 0;
		a = strtol(p, &end, 10);
		if (end == p || errno || a < 0 || a >= CPU_LIST_MAX)
			return -1;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || errno || b < a || b >= CPU_LIST_MAX)
				return -1;
			p = end;
		}
		for (; a <= b; a++)
			set->w[a / 64] |= 1ULL << (a % 64);
		any = true;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return any ? 0 : -1;
}

/* cpu_list_word - the @i-th group of 32 CPUs of @set */
static unsigned long long cpu_list_word(const struct cpu_list *set, int i)
{
	return (set->w[i / 2] >> (i % 2 * 32)) & 0xffffffffULL;
}

/*
 * cpu_list_mask - @set as a cpumask file (tracing_cpumask, trace-cmd's -M)
 * takes it: hex in groups of 32 bits, the highest first, separated by
 * commas (the kernel's bitmap_parse() takes no group of more than 32 bits)
 */
void cpu_list_mask(const struct cpu_list *set, char *mask, size_t len)
{
	int top = CPU_LIST_MAX / 32 - 1, i;
	size_t n = 0;

	while (top > 0 && !cpu_list_word(set, top))
		top--;
	mask[0] = '\0';
	for (i = top; i >= 0 && n < len; i--)
		n += snprintf(mask + n, len - n, i == top ? "%llx" : ",%08llx",
			      cpu_list_word(set, i));
}

/*
 * cpu_list_offline - whether @set holds a CPU that is not online (all are
 * taken as online when the kernel's list cannot be read)
 */
bool cpu_list_offline(const struct cpu_list *set)
{
	struct cpu_list online;
	bool outside = false;
	char *text;
	size_t i;
	int err;

	text = read_text_file("/sys/devices/system/cpu/online", 65536, &err);
	if (!text)
		return false;
	text[strcspn(text, "\n")] = '\0';
	if (!cpu_list_parse(text, &online))
		for (i = 0; i < ARRAY_SIZE(online.w); i++)
			outside |= (set->w[i] & ~online.w[i]) != 0;
	free(text);
	return outside;
}
