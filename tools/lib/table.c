// SPDX-License-Identifier: GPL-2.0
/*
 * modstats.c - parse the module's debugfs files (see modstats.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "snapshot.h"
#include "utils.h"

/*
 * struct modstats_schema - what the tools know of one file: the first
 * column of its header (how the header is told from the "# key value"
 * lines, tee_probes' "# preset tee" before it among them) and its text
 * columns; every other column is a count or a time, a whole number
 */
struct modstats_schema {
	const char *file;
	const char *first_col;
	const char *const *text_cols;
	bool hist;		/* rows of histogram buckets */
};

#define TEXT(...) ((const char *const []){ __VA_ARGS__, NULL })

static const struct modstats_schema schemas[] = {
	{ "tee_probes", "symbol", TEXT("symbol", "role", "state", "error"), false },
	{ "tee_stats", "cpu", TEXT("cpu", "cmd"), false },
	{ "tee_hist", "cmd", TEXT("cmd"), true },
	{ "tee_threads", "tgid", TEXT("comm"), false },
	{ "netrx_stats", "cpu", TEXT("cpu"), false },
	{ "netrx_hist", "hist", TEXT("hist"), true },
	{ "hooks", "part", TEXT("part", "tracepoint"), false },
	{ "tcp_probes", "symbol", TEXT("symbol", "type", "state", "error"), false },
	{ "tcp_stats", "cpu", TEXT("cpu", "port"), false },
	{ "tcp_phases", "port", TEXT("port", "phase"), false },
	{ "tcp_hist", "port", TEXT("port", "phase"), true },
};

/*
 * modstats_generation - the generation file, "load ID reset N" (ID hex
 * digits); false for any other text
 */
bool modstats_generation(const char *text, struct modstats_generation *g)
{
	char load[33], end[2];
	int n;

	memset(g, 0, sizeof(*g));
	if (!text || sscanf(text, "load %32s reset %u%n", load, &g->reset, &n) != 2 ||
	    strlen(load) >= sizeof(g->load) ||
	    strspn(load, "0123456789abcdef") != strlen(load) ||
	    sscanf(text + n, "%1s", end) == 1) {
		memset(g, 0, sizeof(*g));
		return false;
	}
	strcpy(g->load, load);
	return true;
}

/* modstats_phase_of - the phase called @name, or -1 */
int modstats_phase_of(const char *name)
{
	int i;

	for (i = 0; i < TEEPROBE_TCP_PHASES; i++)
		if (!strcmp(teeprobe_tcp_phase_name(i), name))
			return i;
	return -1;
}

/* modstats_phase_name - the debugfs name of @phase */
const char *modstats_phase_name(enum teeprobe_tcp_phase phase)
{
	return teeprobe_tcp_phase_name(phase);
}

/* schema_of - @file's schema, or NULL */
static const struct modstats_schema *schema_of(const char *file)
{
	size_t i;

	for (i = 0; file && i < ARRAY_SIZE(schemas); i++)
		if (!strcmp(schemas[i].file, file))
			return &schemas[i];
	return NULL;
}

/* is_text_col - whether column @name of @sc holds text, not a number */
static bool is_text_col(const struct modstats_schema *sc, const char *name)
{
	const char *const *t;

	for (t = sc->text_cols; *t; t++)
		if (!strcmp(*t, name))
			return true;
	return false;
}

/* split - the space-separated fields of @line (modified in place) */
static char **split(char *line, int *n)
{
	char **f = NULL, *tok, *save = NULL;
	int cap = 0;

	*n = 0;
	for (tok = strtok_r(line, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			f = realloc(f, cap * sizeof(*f));
			if (!f)
				fatal("out of memory\n");
		}
		f[(*n)++] = tok;
	}
	return f;
}

/*
 * parse_u64 - @s as a whole number: digits only, no sign, within 64 bits.
 * strtoull alone takes "-1", "12abc" and an overflow as numbers.
 */
static bool parse_u64(const char *s, unsigned long long *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !*end && !errno;
}

/* parse_state - the parser's place in one file, and where errors go */
struct parse_state {
	struct modstats *m;
	const struct modstats_schema *sc;
	int line;
	bool old_phases;		/* past tcp_stats' old "# port phase" */
	char *err;
	size_t err_len;
};

/* fail - set the error, with the line it is on; returns -1 */
static int __attribute__((format(printf, 2, 3)))
fail(struct parse_state *ps, const char *fmt, ...)
{
	int n = 0;
	va_list ap;

	if (ps->line)
		n = snprintf(ps->err, ps->err_len, "line %d: ", ps->line);
	if (n < 0 || (size_t)n >= ps->err_len)
		return -1;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->err_len - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* add_kv - one "# key value"; a key may repeat, the last one counts */
static int add_kv(struct parse_state *ps, const char *key, const char *value)
{
	struct modstats *m = ps->m;

	m->kv = realloc(m->kv, (m->nkv + 1) * sizeof(*m->kv));
	if (!m->kv)
		fatal("out of memory\n");
	m->kv[m->nkv].key = xstrdup(key);
	m->kv[m->nkv].value = xstrdup(value);
	m->nkv++;
	return 0;
}

/* add_numeric_kv - add_kv, its value checked to be a whole number */
static int add_numeric_kv(struct parse_state *ps, const char *key,
			  const char *value)
{
	unsigned long long v;

	if (!parse_u64(value, &v))
		return fail(ps, "# %s: '%s' is not a number", key, value);
	return add_kv(ps, key, value);
}

/*
 * old_trailer - the module's older '#' lines, as the "# key value" ones it
 * now prints: "# table size N in_use N expired N full N timeout_s N",
 * "# acceptors N of M overflow K", "# out of memory". 1 when @f was one.
 */
static int old_trailer(struct parse_state *ps, char **f, int n)
{
	char key[64];
	int i;

	if (n >= 3 && n % 2 && !strcmp(f[0], "table")) {
		for (i = 1; i + 1 < n; i += 2) {
			snprintf(key, sizeof(key), "%s%s",
				 strcmp(f[i], "timeout_s") ? "table_" : "", f[i]);
			if (add_numeric_kv(ps, key, f[i + 1]))
				return -1;
		}
		return 1;
	}
	if (n == 6 && !strcmp(f[0], "acceptors") && !strcmp(f[2], "of") &&
	    !strcmp(f[4], "overflow")) {
		if (add_numeric_kv(ps, "acceptors", f[1]) ||
		    add_numeric_kv(ps, "acceptors_max", f[3]) ||
		    add_numeric_kv(ps, "acceptors_overflow", f[5]))
			return -1;
		return 1;
	}
	if (n == 3 && !strcmp(f[0], "out") && !strcmp(f[1], "of") &&
	    !strcmp(f[2], "memory"))
		return add_kv(ps, "error", "ENOMEM") ? -1 : 1;
	return 0;
}

/* is_phases_header - whether @f is tcp_phases' header */
static bool is_phases_header(char **f, int n)
{
	char want[] = TEEPROBE_COLS_STR(TEEPROBE_TCP_PHASES_COLS), **w;
	bool same;
	int nw, i;

	w = split(want, &nw);
	same = nw == n;
	for (i = 0; same && i < n; i++)
		same = !strcmp(w[i], f[i]);
	free(w);
	return same;
}

/* comment_line - a '#' line: the header, or a "# key value" */
static int comment_line(struct parse_state *ps, char **f, int n)
{
	struct modstats *m = ps->m;
	int i, ret;

	if (n >= 1 && !strcmp(f[0], ps->sc->first_col)) {
		if (m->cols)
			return fail(ps, "a second header");
		m->cols = calloc(n, sizeof(*m->cols));
		if (!m->cols)
			fatal("out of memory\n");
		for (i = 0; i < n; i++)
			m->cols[i] = xstrdup(f[i]);
		m->ncols = n;
		return 0;
	}
	/* the older tcp_stats: its phase table after the counters */
	if (m->cols && !strcmp(ps->sc->file, "tcp_stats") &&
	    is_phases_header(f, n)) {
		ps->old_phases = true;
		return 0;
	}
	ret = old_trailer(ps, f, n);
	if (ret)
		return ret < 0 ? -1 : 0;
	if (n == 2)
		return add_kv(ps, f[0], f[1]);
	return fail(ps, "a '#' line that is neither the header nor \"# key value\"");
}

/*
 * add_phase - a phase row: PORT PHASE count sum_ns max_ns p50_ns p99_ns.
 * A phase this build does not know (a newer module's) is left out.
 */
static int add_phase(struct parse_state *ps, char **f, int n)
{
	struct modstats *m = ps->m;
	struct modstats_phase ph = { 0 };
	unsigned long long *v[] = { &ph.count, &ph.sum_ns, &ph.max_ns,
				    &ph.p50_ns, &ph.p99_ns };
	int i, phase;

	if (n != 7)
		return fail(ps, "a phase row of %d fields, not 7", n);
	if (strlen(f[0]) >= sizeof(ph.port))
		return fail(ps, "port '%.20s...' too long", f[0]);
	strcpy(ph.port, f[0]);
	for (i = 0; i < 5; i++)
		if (!parse_u64(f[2 + i], v[i]))
			return fail(ps, "phase %s: '%s' is not a number", f[1],
				    f[2 + i]);
	phase = modstats_phase_of(f[1]);
	if (phase < 0)
		return 0;
	ph.phase = phase;
	m->phases = realloc(m->phases, (m->nphases + 1) * sizeof(*m->phases));
	if (!m->phases)
		fatal("out of memory\n");
	m->phases[m->nphases++] = ph;
	return 0;
}

/* table_row - a row of the file's table, every numeric field checked */
static int table_row(struct parse_state *ps, char **f, int n)
{
	struct modstats *m = ps->m;
	struct modstats_row *r;
	int c;

	if (n != m->ncols)
		return fail(ps, "%d fields, the header names %d", n, m->ncols);
	m->rows = realloc(m->rows, (m->nrows + 1) * sizeof(*m->rows));
	if (!m->rows)
		fatal("out of memory\n");
	r = &m->rows[m->nrows];
	r->field = calloc(n, sizeof(*r->field));
	r->num = calloc(n, sizeof(*r->num));
	if (!r->field || !r->num)
		fatal("out of memory\n");
	m->nrows++;
	for (c = 0; c < n; c++) {
		r->field[c] = xstrdup(f[c]);
		if (!is_text_col(ps->sc, m->cols[c]) &&
		    !parse_u64(f[c], &r->num[c]))
			return fail(ps, "%s: '%s' is not a number", m->cols[c],
				    f[c]);
	}
	if (!strcmp(ps->sc->file, "tcp_phases"))
		return add_phase(ps, f, n);
	return 0;
}

/* parse_line - one line of the file */
static int parse_line(struct parse_state *ps, char *line)
{
	char **f;
	int n, ret;

	if (line[0] == '#') {
		f = split(line + 1, &n);
		ret = comment_line(ps, f, n);
	} else {
		f = split(line, &n);
		if (!n)
			ret = 0;
		else if (!ps->m->cols)
			ret = fail(ps, "a row before the header");
		else if (!strcmp(ps->sc->file, "tcp_stats") &&
			 !strcmp(f[0], "phase"))
			/* the older tcp_stats: "phase PORT PHASE ..." */
			ret = add_phase(ps, f + 1, n - 1);
		else if (ps->old_phases)
			ret = fail(ps, "a row after tcp_stats' phases that is no phase");
		else
			ret = table_row(ps, f, n);
	}
	free(f);
	return ret;
}

/*
 * parse_hist_layout - a histogram file's bucket layout: "# hist_sub_bits
 * N" and "# hist_unit_shift N" with the log-linear layout's numbers
 * (abi.h) are that layout, no such lines the log2 layout of older
 * modules, any other numbers an error (a module this teeprobe cannot read)
 */
static int parse_hist_layout(struct parse_state *ps)
{
	unsigned long long bits, unit;

	ps->m->hist_layout = HIST_LOG2;
	if (!modstats_kv(ps->m, "hist_sub_bits"))
		return 0;
	if (!modstats_kv_u64(ps->m, "hist_sub_bits", &bits))
		return fail(ps, "\"# hist_sub_bits\" without a number");
	if (!modstats_kv_u64(ps->m, "hist_unit_shift", &unit))
		return fail(ps, "\"# hist_sub_bits\" without \"# hist_unit_shift N\"");
	if (bits != TEEPROBE_HIST_SUB_BITS || unit != TEEPROBE_HIST_UNIT_SHIFT)
		return fail(ps, "histogram layout hist_sub_bits %llu hist_unit_shift %llu, this teeprobe reads %u and %u",
			    bits, unit, TEEPROBE_HIST_SUB_BITS, TEEPROBE_HIST_UNIT_SHIFT);
	ps->m->hist_layout = HIST_LOGLIN;
	return 0;
}

/*
 * modstats_parse - @text of debugfs file @file into @m. Returns 0, or -1
 * with the reason in @err (and @m empty): an unknown file, text cut
 * inside a line, no header, a row of the wrong width, a field that should
 * be a number and is not.
 */
int modstats_parse(struct modstats *m, const char *file, const char *text,
		   char *err, size_t err_len)
{
	struct parse_state ps = { .m = m, .err = err, .err_len = err_len };
	char *copy, *line, *next;
	const char *e;
	int ret = 0;

	memset(m, 0, sizeof(*m));
	ps.sc = schema_of(file);
	if (!ps.sc)
		return fail(&ps, "not a file of the module's that has a table");
	if (!text)
		return fail(&ps, "not read");
	/* the module ends every line: a last one without its end was cut */
	if (*text && text[strlen(text) - 1] != '\n')
		return fail(&ps, "cut short: the last line has no end");
	copy = xstrdup(text);
	for (line = copy; !ret && *line; line = next) {
		next = strchr(line, '\n');
		*next++ = '\0';
		ps.line++;
		ret = parse_line(&ps, line);
	}
	free(copy);
	ps.line = 0;
	e = modstats_kv(m, "error");
	if (!ret && e)
		ret = fail(&ps, "the module could not show it (%s)", e);
	if (!ret && !m->cols)
		ret = fail(&ps, "no header line (\"# %s ...\")", ps.sc->first_col);
	if (!ret && ps.sc->hist)
		ret = parse_hist_layout(&ps);
	if (ret)
		modstats_free(m);
	return ret;
}

/* modstats_free - release everything modstats_parse allocated */
void modstats_free(struct modstats *m)
{
	int i, j;

	for (i = 0; i < m->nrows; i++) {
		for (j = 0; j < m->ncols; j++)
			free(m->rows[i].field[j]);
		free(m->rows[i].field);
		free(m->rows[i].num);
	}
	for (i = 0; i < m->ncols; i++)
		free(m->cols[i]);
	for (i = 0; i < m->nkv; i++) {
		free(m->kv[i].key);
		free(m->kv[i].value);
	}
	free(m->cols);
	free(m->rows);
	free(m->kv);
	free(m->phases);
	memset(m, 0, sizeof(*m));
}

/*
 * struct modstats_cached - a snapshot source's parse, kept with it
 * (snapshot_free frees it): each file is parsed once however many figures
 * read it, and a bad one is reported once
 */
struct modstats_cached {
	struct modstats m;
	bool ok;
};

/* modstats_cache_free - free a source's parse (snapshot.c calls it) */
void modstats_cache_free(void *cached)
{
	struct modstats_cached *c = cached;

	if (!c)
		return;
	modstats_free(&c->m);
	free(c);
}

/*
 * modstats_of - debugfs file @file of snapshot @s, parsed; NULL when the
 * snapshot does not hold it or it does not parse (said once, on stderr:
 * its figures are then unknown, not wrong)
 */
const struct modstats *modstats_of(const struct snapshot *s, const char *file)
{
	struct snap_source *src = NULL;
	struct modstats_cached *c;
	char err[256];
	int i;

	for (i = 0; s && i < s->nr; i++)
		if (!strcmp(s->src[i].name, file))
			src = (struct snap_source *)&s->src[i];
	if (!src || !src->text)
		return NULL;
	if (!src->parsed) {
		c = xzalloc(sizeof(*c));
		c->ok = !modstats_parse(&c->m, file, src->text, err, sizeof(err));
		if (!c->ok)
			err_msg("%s: %s\n", file, err);
		src->parsed = c;
	}
	c = src->parsed;
	return c->ok ? &c->m : NULL;
}

/* modstats_col - index of column @name, or -1 */
int modstats_col(const struct modstats *m, const char *name)
{
	int i;

	for (i = 0; m && i < m->ncols; i++)
		if (!strcmp(m->cols[i], name))
			return i;
	return -1;
}

/* modstats_find - the row whose first fields are @key0 (and @key1), or -1 */
int modstats_find(const struct modstats *m, const char *key0, const char *key1)
{
	int i;

	for (i = 0; m && i < m->nrows; i++) {
		if (m->ncols < 1 || strcmp(m->rows[i].field[0], key0))
			continue;
		if (key1 && (m->ncols < 2 || strcmp(m->rows[i].field[1], key1)))
			continue;
		return i;
	}
	return -1;
}

/* modstats_u64 - a number of the table; 0 for a row or column it has not */
unsigned long long modstats_u64(const struct modstats *m, int row, int col)
{
	if (!m || row < 0 || col < 0 || row >= m->nrows || col >= m->ncols)
		return 0;
	return m->rows[row].num[col];
}

/* modstats_num - modstats_u64 as a double */
double modstats_num(const struct modstats *m, int row, int col)
{
	return modstats_u64(m, row, col);
}

/* modstats_get - the value of column @col in the row keyed @key0, @key1 */
double modstats_get(const struct modstats *m, const char *key0,
		    const char *key1, const char *col)
{
	return modstats_num(m, modstats_find(m, key0, key1),
			    modstats_col(m, col));
}

/* modstats_kv - the value of "# @key value" (the last one), or NULL */
const char *modstats_kv(const struct modstats *m, const char *key)
{
	const char *v = NULL;
	int i;

	for (i = 0; m && i < m->nkv; i++)
		if (!strcmp(m->kv[i].key, key))
			v = m->kv[i].value;
	return v;
}

/* modstats_kv_u64 - "# @key N" as a number; false when absent or no number */
bool modstats_kv_u64(const struct modstats *m, const char *key,
		     unsigned long long *v)
{
	const char *s = modstats_kv(m, key);

	return s && parse_u64(s, v);
}

/*
 * modstats_phases - the handshake phases of @s: tcp_phases, or the phase
 * rows of tcp_stats in a snapshot of the older module. Returns their
 * number, or -1 when the file that holds them does not parse or is absent.
 */
int modstats_phases(const struct snapshot *s,
		    const struct modstats_phase **phases)
{
	const char *file = snapshot_text(s, "tcp_phases") ? "tcp_phases" :
			   "tcp_stats";
	const struct modstats *m = modstats_of(s, file);

	*phases = m ? m->phases : NULL;
	return m ? m->nphases : -1;
}

/* modstats_phase - @port's @phase in @s, or NULL when it has no line */
const struct modstats_phase *modstats_phase(const struct snapshot *s,
					    const char *port,
					    enum teeprobe_tcp_phase phase)
{
	const struct modstats_phase *p;
	int i, n = modstats_phases(s, &p);

	for (i = 0; i < n; i++)
		if (p[i].phase == phase && !strcmp(p[i].port, port))
			return &p[i];
	return NULL;
}
