// SPDX-License-Identifier: GPL-2.0
/*
 * prometheus_format.c - the Prometheus text format (0.0.4), see
 * prometheus_format.h; what the metrics are is prometheus.c's.
 */
#include <string.h>

#include "prometheus.h"
#include "prometheus_format.h"

/*
 * put_label_value - @v with backslash, double quote and newline escaped.
 * Bytes outside printable ASCII become '?': Prometheus wants UTF-8, and
 * one bad byte would make node_exporter drop the whole file. The module
 * writes ASCII names; this guards against a damaged file.
 */
static void put_label_value(FILE *out, const char *v)
{
	const unsigned char *c;

	for (c = (const unsigned char *)v; *c; c++) {
		if (*c == '\\' || *c == '"')
			fprintf(out, "\\%c", *c);
		else if (*c == '\n')
			fputs("\\n", out);
		else if (*c < 0x20 || *c > 0x7e)
			fputc('?', out);
		else
			fputc(*c, out);
	}
}

/*
 * prom_sample - one sample of family @f (@suffix: "", "_bucket", "_sum" or
 * "_count"). The family's HELP and TYPE lines come before its first
 * sample; callers write a family's samples together, so it stays one
 * contiguous group as the format requires.
 */
void prom_sample(struct prom *p, const struct family *f, const char *suffix,
		 const struct label *l, int nl, const char *value)
{
	int i;

	if (p->open != f) {
		fprintf(p->out, "# HELP %s %s\n# TYPE %s %s\n", f->name,
			f->help, f->name, f->type);
		p->open = f;
	}
	fprintf(p->out, "%s%s", f->name, suffix);
	for (i = 0; i < nl; i++) {
		fprintf(p->out, "%s%s=\"", i ? "," : "{", l[i].name);
		put_label_value(p->out, l[i].value);
		fputc('"', p->out);
	}
	fprintf(p->out, "%s %s\n", nl ? "}" : "", value);
}

/* prom_fmt_seconds - @ns as exact decimal seconds ("0.000001024") */
const char *prom_fmt_seconds(char *buf, size_t len, unsigned long long ns)
{
	char *end;

	snprintf(buf, len, "%llu.%09llu", ns / NSEC_PER_SEC, ns % NSEC_PER_SEC);
	end = buf + strlen(buf) - 1;
	while (*end == '0')
		*end-- = '\0';
	if (*end == '.')
		*end = '\0';
	return buf;
}

/* prom_sample_u64 - a sample whose value is a count, or ns when @ns */
void prom_sample_u64(struct prom *p, const struct family *f,
		     const char *suffix, const struct label *l, int nl,
		     unsigned long long v, bool ns)
{
	char buf[48];

	if (ns)
		prom_fmt_seconds(buf, sizeof(buf), v);
	else
		snprintf(buf, sizeof(buf), "%llu", v);
	prom_sample(p, f, suffix, l, nl, buf);
}

/*
 * prom_le_is_coarse - is @ns one of the default exposition's "le" edges
 * (a power of two from 2^PROM_LE_FIRST_SHIFT to 2^PROM_LE_LAST_SHIFT)?
 */
bool prom_le_is_coarse(unsigned long long ns)
{
	return ns >= 1ULL << PROM_LE_FIRST_SHIFT &&
	       ns <= 1ULL << PROM_LE_LAST_SHIFT && !(ns & (ns - 1));
}

/*
 * prom_hist_samples - one histogram series: cumulative buckets whose "le"
 * is the top edge of a module bucket in the series' layout (2^k ns in the
 * older log2 one, the next bucket's low edge in the log-linear one:
 * exclusive there, as the module counts that value in the bucket above,
 * a 1 ns difference), "+Inf" counting everything, then _sum (only when
 * the module sums the same values) and _count. The "le" are the coarse
 * edges (prom_le_is_coarse()) by default: the module's buckets are summed
 * up to each, never split, so each count is the module's own at that
 * edge. With fine_buckets every module bucket's top from 2^(PROM_FIRST_BUCKET
 * + 1) ns up.
 */
void prom_hist_samples(struct prom *p, const struct family *f,
		       const struct label *labels, int nl,
		       const struct hseries *s)
{
	unsigned int i, last = hist_buckets_in(s->layout) - 1;
	struct label l[MAX_LABELS + 1];
	unsigned long long cumulative = 0, top;
	bool shown;
	char le[48];

	memcpy(l, labels, nl * sizeof(*l));
	l[nl].name = "le";
	l[nl].value = le;
	for (i = 0; i < last; i++) {
		cumulative += s->bucket[i];
		top = hist_low_in(s->layout, i + 1);
		shown = p->opts.fine_buckets ? top >= 2ULL << PROM_FIRST_BUCKET :
					       prom_le_is_coarse(top);
		if (!shown)
			continue;
		prom_fmt_seconds(le, sizeof(le), top);
		prom_sample_u64(p, f, "_bucket", l, nl + 1, cumulative, false);
	}
	cumulative += s->bucket[last];
	l[nl].value = "+Inf";
	prom_sample_u64(p, f, "_bucket", l, nl + 1, cumulative, false);
	if (s->has_sum)
		prom_sample_u64(p, f, "_sum", labels, nl, s->sum_ns, true);
	prom_sample_u64(p, f, "_count", labels, nl, cumulative, false);
}
