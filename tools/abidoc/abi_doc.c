// SPDX-License-Identifier: GPL-2.0
/*
 * abi_doc - module/abi.h's contract as reStructuredText, on standard
 * output: Documentation/abi-tables.rst ("make abi-docs" writes it,
 * tests/tools/abi-docs.sh fails while the committed one is stale).
 *
 * Every name below comes from abi.h's lists, expanded here as the module
 * expands them: a file's header line is TEEPROBE_HEADER() (a *_hist
 * file's is teeprobe_seq_hist_header()'s, from abi.h's words), and the
 * window events' fields and formats are trace.h's own macros
 * (abi_doc_trace.h, beside this file: the block of trace.h that defines
 * them, which tools/Makefile copies out of it). A new file, table or column shows by
 * itself; a kind of column or an event this program does not know fails
 * its build or its run, never the page.
 *
 * Not installed: a helper of the source tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module/abi.h"

/* trace.h's TEEPROBE_EV_* macros; they expand to __field() and __array() */
#define __field(type, name) { #type, #name, NULL },
#define __array(type, name, len) { #type, #name, #len },
#include "abi_doc_trace.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- columns ----------------------------------------------------------- */

enum kind { KIND_KEY, KIND_TEXT, KIND_INT, KIND_ID, KIND_NUM, KIND_COUNT,
	    KIND_NS, KIND_MAX, KIND_DELAY, KIND_HIST, NR_KINDS };

static const char *const kind_name[] = {
	[KIND_KEY] = "KEY", [KIND_TEXT] = "TEXT", [KIND_INT] = "INT",
	[KIND_ID] = "ID", [KIND_NUM] = "NUM", [KIND_COUNT] = "COUNT",
	[KIND_NS] = "NS", [KIND_MAX] = "MAX", [KIND_DELAY] = "DELAY",
	[KIND_HIST] = "HIST",
};

/* what a kind holds, abi.h's words; the tools hold the first three as text */
static const char *const kind_doc[] = {
	[KIND_KEY] = "text that names the row (a CPU, a command, a port, a symbol)",
	[KIND_TEXT] = "other text",
	[KIND_INT] = "a signed number (an errno)",
	[KIND_ID] = "a whole number that names the row (a process id)",
	[KIND_NUM] = "a whole number (a percentile)",
	[KIND_COUNT] = "a count, added over CPUs (Prometheus: a counter)",
	[KIND_NS] = "a time in ns, added over CPUs (Prometheus: a counter, in seconds)",
	[KIND_MAX] = "a time in ns, the largest of the CPUs' (Prometheus: a gauge, in seconds)",
	[KIND_DELAY] = "a histogram of NET_RX raise -> entry delays: three columns, name_count (COUNT), name_sum_ns (NS), name_max_ns (MAX); its third field is the value of its \"context\" label",
	[KIND_HIST] = "a histogram of netrx_hist alone, not a column; its third field is the netrx_stats column that holds its sum",
};

_Static_assert(ARRAY_SIZE(kind_name) == NR_KINDS, "a kind without a name");
_Static_assert(ARRAY_SIZE(kind_doc) == NR_KINDS, "a kind without its text");

/*
 * An entry of a list: X(name, kind), X(name, kind, extra) (a DELAY's
 * context, a HIST's sum), X(name, kind, metric, help) or the TCP
 * counters' X(name, kind, metric, help, ID, window); @header is what the
 * entry puts in a header line (TEEPROBE_COL_STR, " name" or a DELAY's
 * three), not set for a HIST
 */
struct col {
	const char *name;
	enum kind kind;
	const char *extra, *metric, *help;
	const char *header;
};

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define NARG_(a1, a2, a3, a4, a5, a6, n, ...) n
#define NARG(...) NARG_(__VA_ARGS__, 6, 5, 4, 3, 2, 1, 0)
#define COL(...) CAT(COL_, NARG(__VA_ARGS__))(__VA_ARGS__)
#define COL_2(name, kind) \
	{ #name, KIND_##kind, NULL, NULL, NULL, TEEPROBE_COL_STR(name, kind) },
#define COL_3(name, kind, extra) CAT(COL_3_, kind)(name, extra)
#define COL_3_DELAY(name, extra) \
	{ #name, KIND_DELAY, #extra, NULL, NULL, \
	  TEEPROBE_COL_STR(name, DELAY, extra) },
#define COL_3_HIST(name, extra) \
	{ #name, KIND_HIST, #extra, NULL, NULL, NULL },
#define COL_4(name, kind, metric, help) \
	{ #name, KIND_##kind, NULL, metric, help, \
	  TEEPROBE_COL_STR(name, kind, metric, help) },
#define COL_6(name, kind, metric, help, id, window) \
	{ #name, KIND_##kind, NULL, metric, help, \
	  TEEPROBE_COL_STR(name, kind, metric, help, id, window) },

/* ---- files ------------------------------------------------------------- */

/* a file of the directory; a table's header line and lists when it has one */
struct file {
	const char *name;
	unsigned int mode;
	const char *header;		/* "# ...\n"; a *_hist file's: its keys */
	const struct col *keys, *cols;	/* ended by an entry without name */
};

/* the files that hold a table (TEEPROBE_TABLES), by their enum */
static const struct table_def {
	unsigned int file;
	const char *header;
	const struct col *keys, *cols;
} tables[] = {
#define TABLE_DEF(id, klist, clist) \
	{ TEEPROBE_FILE_##id, TEEPROBE_HEADER(klist, clist), \
	  (const struct col[]){ klist(COL) { .name = NULL } }, \
	  (const struct col[]){ clist(COL) { .name = NULL } } },
	TEEPROBE_TABLES(TABLE_DEF)
#undef TABLE_DEF
};

/* file_of - file @id (abi.h's name and mode), with its table's lists */
static struct file file_of(unsigned int id)
{
	struct file f = {
		.name = teeprobe_file_name(id), .mode = teeprobe_file_mode(id)
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tables); i++) {
		if (tables[i].file != id)
			continue;
		f.header = tables[i].header;
		f.keys = tables[i].keys;
		f.cols = tables[i].cols;
	}
	return f;
}

/* netrx_hist's histograms, in its order (its hist column) */
static const struct col netrx_hists[] = {
	TEEPROBE_NETRX_HISTS(COL) { .name = NULL }
};

/* the CPUs a *_hist header shows here: one column each */
#define HIST_CPUS 2

/* is_hist - a histogram file: a table whose columns are its buckets' */
static int is_hist(const struct file *f)
{
	return f->cols && !f->cols[0].name;
}

/* hist_header - a *_hist file's header line on a host of HIST_CPUS CPUs */
static void hist_header(char *buf, size_t len, const struct file *f)
{
	size_t n;
	int cpu;

	/* f->header is "#" and the keys' names, then "\n" */
	n = snprintf(buf, len, "%.*s " TEEPROBE_HIST_LOW_COL,
		     (int)strlen(f->header) - 1, f->header);
	for (cpu = 0; cpu < HIST_CPUS && n < len; cpu++)
		n += snprintf(buf + n, len - n, " " TEEPROBE_HIST_CPU_COL "%d", cpu);
	if (n < len)
		snprintf(buf + n, len - n, " " TEEPROBE_HIST_ALL_COL);
}

/* ---- events ------------------------------------------------------------ */

struct field {
	const char *type, *name, *len;	/* len: an array's, else NULL */
};

/* the fields of each event, as trace.h's TP_STRUCT__entry() lists them */
#define FIELDS(list) \
	.fields = (const struct field[]){ TEEPROBE_EV_ENTRY(list) { .name = NULL } }
static const struct event {
	const char *name;
	const struct field *fields;
	const char *format;		/* a window event's TP_printk format */
} events[] = {
	{ .name = "reset", FIELDS(TEEPROBE_EV_RESET) },
	{ .name = "tee_ioctl_enter", FIELDS(TEEPROBE_EV_TEE_IOCTL_ENTER) },
	{ .name = "tee_ioctl_exit", FIELDS(TEEPROBE_EV_TEE_IOCTL_EXIT) },
	{ .name = "netrx_window", .fields = (const struct field[]){
		TEEPROBE_EV_ENTRY(TEEPROBE_EV_WINDOW)
		TEEPROBE_NETRX_STATS_COLS(TEEPROBE_EV_NETRX)
		{ .name = NULL } },
	  .format = TEEPROBE_EV_WINDOW_FMT
	  TEEPROBE_NETRX_STATS_COLS(TEEPROBE_EV_NETRX_FMT) },
	{ .name = "netrx_run", FIELDS(TEEPROBE_EV_NETRX_RUN) },
	{ .name = "tcp_handshake", FIELDS(TEEPROBE_EV_TCP_HANDSHAKE) },
	{ .name = "acceptor_state", FIELDS(TEEPROBE_EV_ACCEPTOR_STATE) },
	{ .name = "tcp_window", .fields = (const struct field[]){
		TEEPROBE_EV_ENTRY(TEEPROBE_EV_WINDOW)
		TEEPROBE_TCP_COUNTER_LIST(TEEPROBE_EV_TCPC)
		TEEPROBE_TCP_PHASE_LIST(TEEPROBE_EV_TCPP)
		{ .name = NULL } },
	  .format = TEEPROBE_EV_WINDOW_FMT
	  TEEPROBE_TCP_COUNTER_LIST(TEEPROBE_EV_TCPC_FMT)
	  TEEPROBE_TCP_PHASE_LIST(TEEPROBE_EV_TCPP_FMT) },
};

/* TEEPROBE_EVENTS' names, each after a space */
#define EVENT_NAME(name) " " #name
static const char event_names[] = TEEPROBE_EVENTS(EVENT_NAME);
#undef EVENT_NAME

/* find_event - events[]' entry for TEEPROBE_EVENTS' @name, or NULL */
static const struct event *find_event(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(events); i++)
		if (!strcmp(events[i].name, name))
			return &events[i];
	return NULL;
}

/*
 * format_matches - do the names of @e's format ("name=%..." words) name
 * its fields, in their order?
 */
static int format_matches(const struct event *e)
{
	const struct field *f = e->fields;
	const char *p = e->format;
	size_t n;

	for (; *p; f++) {
		p += strspn(p, " ");
		n = strcspn(p, "=");
		if (!f->name || !p[n] || strlen(f->name) != n ||
		    strncmp(f->name, p, n))
			return 0;
		p += n + strcspn(p + n, " ");
	}
	return !f->name;
}

/* ---- output ------------------------------------------------------------ */

/* heading - a section title underlined with @c */
static void heading(const char *title, char c)
{
	size_t i, n = strlen(title);

	printf("%s\n", title);
	for (i = 0; i < n; i++)
		putchar(c);
	printf("\n\n");
}

/* marker - the comment line other pages include a piece between */
static void marker(const char *name, const char *piece, int end)
{
	printf(".. <%s%s-%s>\n\n", end ? "/" : "", name, piece);
}

/*
 * literal_wrapped - @text as a literal block, broken at spaces into lines
 * of at most @width
 */
static void literal_wrapped(const char *text, size_t width)
{
	const char *p = text;
	size_t col = 0, n;

	printf("::\n\n ");
	while (*p) {
		n = strcspn(p, " ");
		if (col && col + 1 + n > width) {
			printf("\n ");
			col = 0;
		}
		printf(" %.*s", (int)n, p);
		col += (col ? 1 : 0) + n;
		p += n;
		p += strspn(p, " ");
	}
	printf("\n\n");
}

/* rule - a simple table's border for columns of widths @w */
static void rule(const size_t *w, int n)
{
	int i;
	size_t k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < w[i]; k++)
			putchar('=');
		printf(i < n - 1 ? "  " : "\n");
	}
}

/* row - one row of a simple table, without white space at its end */
static void row(const size_t *w, int n, const char *const *cell)
{
	int i, last = n - 1;

	while (last > 0 && !cell[last][0])
		last--;
	for (i = 0; i <= last; i++) {
		if (i == last)
			printf("%s\n", cell[i]);
		else
			printf("%-*s  ", (int)w[i], cell[i]);
	}
}

#define NCELLS 4
#define CELL 512

/* col_cells - the cells of header column @word of entry @c */
static void col_cells(char cell[NCELLS][CELL], const struct col *c,
		      const char *word)
{
	snprintf(cell[0], CELL, "``%s``", word);
	snprintf(cell[1], CELL, "%s", kind_name[c->kind]);
	cell[2][0] = 0;
	if (c->metric && c->metric[0])
		snprintf(cell[2], CELL, "``teeprobe_%s``", c->metric);
	if (c->kind == KIND_DELAY)
		snprintf(cell[3], CELL, "a part of DELAY ``%s``, context ``%s``",
			 c->name, c->extra);
	else
		snprintf(cell[3], CELL, "%s", c->help ? c->help : "");
}

/* a table of columns being measured, then printed */
struct table {
	size_t w[NCELLS];
	int ncells;
	int print;
};

static const char *const table_head[NCELLS] = {
	"column", "kind", "Prometheus metric", "help"
};

/* table_word - header column @word of entry @c: measured, or printed */
static void table_word(struct table *t, const struct col *c, const char *word)
{
	char cell[NCELLS][CELL];
	const char *cells[NCELLS];
	int i;

	col_cells(cell, c, word);
	for (i = 0; i < t->ncells; i++) {
		cells[i] = cell[i];
		if (!t->print && strlen(cell[i]) > t->w[i])
			t->w[i] = strlen(cell[i]);
	}
	if (t->print)
		row(t->w, t->ncells, cells);
}

/*
 * table_words - table_word() for each header column of the entries of
 * @list (the words of their TEEPROBE_COL_STR)
 */
static void table_words(struct table *t, const struct col *list)
{
	char word[128];
	const struct col *c;
	const char *p;
	size_t n;

	for (c = list; c->name; c++) {
		for (p = c->header + strspn(c->header, " "); *p; p += n) {
			n = strcspn(p, " ");
			snprintf(word, sizeof(word), "%.*s", (int)n, p);
			table_word(t, c, word);
			n += strspn(p + n, " ");
		}
	}
}

/*
 * columns_table - a table's columns with their kind, and their metric
 * and help when one of them has any
 */
static void columns_table(const struct file *f)
{
	struct table t = { .ncells = 2 };
	const struct col *c;
	int i;

	for (c = f->cols; c->name; c++)
		if (c->metric || c->kind == KIND_DELAY)
			t.ncells = NCELLS;
	/* 8 at least: a border of 7 "=" would read as a merge conflict's */
	for (i = 0; i < t.ncells; i++)
		t.w[i] = strlen(table_head[i]) < 8 ? 8 : strlen(table_head[i]);
	table_words(&t, f->keys);
	table_words(&t, f->cols);
	t.print = 1;
	/* the last column's text may run past its border */
	t.w[t.ncells - 1] = strlen(table_head[t.ncells - 1]);
	rule(t.w, t.ncells);
	row(t.w, t.ncells, table_head);
	rule(t.w, t.ncells);
	table_words(&t, f->keys);
	table_words(&t, f->cols);
	rule(t.w, t.ncells);
	printf("\n");
}

/* metrics_list - the Prometheus metrics of a file's columns */
static void metrics_list(const struct file *f)
{
	const struct col *c;

	for (c = f->cols; c->name; c++) {
		if (!c->metric || !c->metric[0])
			continue;
		printf("``teeprobe_%s`` (%s, ``%s``)\n  %s\n", c->metric,
		       c->kind == KIND_MAX ? "gauge" : "counter", c->name,
		       c->help);
	}
	printf("\n");
}

/* file_section - @f's mode, and its header line, columns and metrics */
static void file_section(const struct file *f)
{
	char title[64], hist[512];
	const struct col *c;
	int i;

	snprintf(title, sizeof(title), "``%s`` (%04o)", f->name, f->mode);
	heading(title, '-');
	if (!f->header) {
		printf("No table.\n\n");
		return;
	}
	if (is_hist(f)) {
		hist_header(hist, sizeof(hist), f);
		printf("A histogram file: its keys, then the bucket's low edge, a column per\n"
		       "possible CPU and their sum. Its header on a host of %d CPUs:\n\n",
		       HIST_CPUS);
		marker(f->name, "header", 0);
		printf("::\n\n  %s\n\n", hist);
		marker(f->name, "header", 1);
		if (!strcmp(f->name, "netrx_hist")) {
			printf("Its histograms, the values of its ``hist`` column:");
			for (c = netrx_hists, i = 0; c->name; c++) {
				if (c->kind != KIND_DELAY && c->kind != KIND_HIST)
					continue;
				printf("%s\n``%s`` (%s)", i++ ? "," : "", c->name,
				       kind_name[c->kind]);
			}
			printf(".\n\n");
		}
	} else {
		printf("Its header:\n\n");
		marker(f->name, "header", 0);
		printf("::\n\n  %.*s\n\n", (int)strlen(f->header) - 1, f->header);
		marker(f->name, "header", 1);
	}
	printf(is_hist(f) ? "Its keys:\n\n" : "Its columns:\n\n");
	marker(f->name, "columns", 0);
	columns_table(f);
	marker(f->name, "columns", 1);
	for (c = f->cols; c->name; c++)
		if (c->metric && c->metric[0])
			break;
	if (!c->name)
		return;
	printf("The Prometheus metrics of its columns (``teeprobe stat --prometheus``):\n\n");
	marker(f->name, "metrics", 0);
	metrics_list(f);
	marker(f->name, "metrics", 1);
}

/* event_section - @e's format and fields; @last: the page's last section */
static void event_section(const struct event *e, int last)
{
	char name[64], title[80];
	const struct field *f;

	snprintf(name, sizeof(name), "teeprobe_%s", e->name);
	snprintf(title, sizeof(title), "``%s``", name);
	heading(title, '-');
	if (e->format) {
		printf("Its format (``TP_printk``):\n\n");
		marker(name, "format", 0);
		literal_wrapped(e->format, 72);
		marker(name, "format", 1);
	}
	printf("Its fields, in order:\n\n");
	marker(name, "fields", 0);
	printf("::\n\n");
	for (f = e->fields; f->name; f++) {
		if (f->len)
			printf("  %s %s[%s]\n", f->type, f->name, f->len);
		else
			printf("  %s %s\n", f->type, f->name);
	}
	printf("\n");
	if (last)
		printf(".. </%s-fields>\n", name);
	else
		marker(name, "fields", 1);
}

/*
 * next_event - the event of TEEPROBE_EVENTS after *@p (a position in
 * event_names), NULL after the last; prints why and exits when this
 * program does not know it, or its format does not name its fields
 */
static const struct event *next_event(const char **p)
{
	const struct event *e;
	char name[64];
	size_t n;

	*p += strspn(*p, " ");
	n = strcspn(*p, " ");
	if (!n)
		return NULL;
	snprintf(name, sizeof(name), "%.*s", (int)n, *p);
	*p += n;
	e = find_event(name);
	if (!e) {
		fprintf(stderr, "abi_doc: event teeprobe_%s of TEEPROBE_EVENTS is not in abi_doc's events[]\n",
			name);
		exit(1);
	}
	if (e->format && !format_matches(e)) {
		fprintf(stderr, "abi_doc: teeprobe_%s's format does not name its fields in order\n",
			name);
		exit(1);
	}
	return e;
}

int main(void)
{
	const struct event *e;
	const char *p;
	size_t i, n = 0;

	/* every event of abi.h's list is known, and none else */
	for (p = event_names; next_event(&p); )
		n++;
	if (n != ARRAY_SIZE(events)) {
		fprintf(stderr, "abi_doc: events[] holds an event TEEPROBE_EVENTS does not\n");
		return 1;
	}

	/* the page's license line (as an argument: not this file's own) */
	printf(".. %s: GPL-2.0\n\n", "SPDX-License-Identifier");
	printf(".. Generated by tools/abidoc/abi_doc from module/abi.h and the\n"
	       "   window events' macros of module/trace.h: do not edit. After a\n"
	       "   change there run \"make abi-docs\" and commit the result;\n"
	       "   tests/tools/abi-docs.sh fails while this file is stale. Other pages\n"
	       "   include the pieces between the markers \".. <NAME-PIECE>\" and\n"
	       "   \".. </NAME-PIECE>\".\n\n");
	heading("The contract of module/abi.h", '=');
	printf("Every debugfs file, table column and trace event field of teeprobe.ko,\n"
	       "as ``module/abi.h`` names them once for the module, the tools and these\n"
	       "pages (debugfs.rst, tracepoints.rst and teeprobe-stat.rst include the\n"
	       "pieces below). Generated by ``make abi-docs``: new columns go at the end\n"
	       "of their lists, and show here.\n\n");

	heading("Kinds of column", '=');
	printf("The second field of a column's entry in abi.h. An entry may carry more:\n"
	       "a counter the tools export its Prometheus metric and help, a DELAY or\n"
	       "HIST a third field.\n\n");
	printf("=====  ====\nkind   what the column holds\n=====  ====\n");
	for (i = 0; i < NR_KINDS; i++)
		printf("%-5s  %s\n", kind_name[i], kind_doc[i]);
	printf("=====  ====\n\n");

	heading("Files", '=');
	printf("The files of ``/sys/kernel/debug/teeprobe/`` in abi.h's order, each with\n"
	       "its mode; a file that holds a table, its header line as the module\n"
	       "prints it (the names of its keys, then of its columns) and its columns.\n\n");
	for (i = 0; i < TEEPROBE_NR_FILES; i++) {
		struct file f = file_of(i);

		file_section(&f);
	}

	heading("\"# key value\" lines", '=');
	printf("The keys of every file's ``# key value`` lines (``memory``'s ``key value``\n"
	       "lines):\n\n");
	marker("keys", "list", 0);
	for (i = 0; i < TEEPROBE_NR_KEYS; i++)
		printf("%s``%s``", i ? ", " : "", teeprobe_key_name(i));
	printf(".\n\n");
	marker("keys", "list", 1);

	heading("Trace events", '=');
	printf("The events of system ``teeprobe``, each field as ``TP_STRUCT__entry()``\n"
	       "declares it; the window events' fields and formats are built from the\n"
	       "lists of the tables (a DELAY as name_count, name_sum_ns, name_p99_ns,\n"
	       "name_max_ns; a handshake phase as phase_count, phase_p50_ns,\n"
	       "phase_p99_ns, phase_max_ns).\n\n");
	for (p = event_names, i = 0; (e = next_event(&p)); )
		event_section(e, ++i == n);
	return 0;
}
