// SPDX-License-Identifier: GPL-2.0
/*
 * zpages.c - give back the decompressed pages of a compressed trace.dat
 * once the reading child has read past them.
 *
 * libtracecmd 1.3 and 1.4 (trace-cmd 3.1 and 3.2) decompress a compressed
 * file's CPU data a chunk at a time (10 pages, as trace-cmd writes them)
 * into a buffer of its own, and mean to free the buffer when its last page
 * is released; but the test that finds the buffer of a page never matches
 * (free_zpage() in lib/trace-cmd/trace-input.c compares the page's address
 * the wrong way round), so every buffer stays until the file is closed: a
 * reader's memory grows by the decompressed size of everything it read
 * (trace-cmd report's own does). libtracecmd 1.5 finds and frees them.
 *
 * The library never reads a page again once its CPU's records have moved
 * past it, and never frees or reuses the buffer before the file is closed:
 * so where the library is 1.3 or 1.4 and the file compressed, the reading
 * child hands the memory of the pages behind each CPU's current page back
 * to the system (madvise(MADV_DONTNEED): the mapping stays, its pages are
 * dropped). Only whole pages of memory that lie inside the pages read are
 * given back, never the allocator's words between two buffers; a page's
 * start is computed from each record (its offset in the page and its
 * header's length), and records of one page that disagree about it stop
 * the giving back for the rest of the file. What stays: the memory page
 * where two buffers meet, about one in eleven, and a record of each page
 * (zpages_record() says why).
 */
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "utils.h"
#include "zpages.h"

/* Exported by libtracecmd, but in none of the headers it installs */
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle,
				     const char **name, const char **version);
int tracecmd_page_size(struct tracecmd_input *handle);
void tracecmd_record_ref(struct tep_record *record);

/* One CPU's pages: the last record's, and where its buffer was given back to */
struct cpu_pages {
	unsigned long long page;	/* the page's number in the CPU's data */
	uintptr_t start;		/* where it is in memory */
	uintptr_t kept;			/* the first byte not given back */
	bool seen;
};

struct zpages {
	struct cpu_pages *cpu;
	int ncpus;
	unsigned long page_size, mem_page;
	bool stopped;			/* the records disagreed: nothing more */
};

static unsigned long long given_back, pages_read;
static bool disabled;

#define PAGE_MARGIN	16	/* bytes, at a page's end, never given back */

/*
 * zpages_library_keeps - whether the libtracecmd this process runs keeps
 * every decompressed buffer: 1.3 or 1.4, by the file the loader mapped
 * (libtracecmd.so.1 is a link to libtracecmd.so.1.MINOR.PATCH)
 */
bool zpages_library_keeps(void)
{
	static int keeps = -1;
	char real[PATH_MAX];
	const char *base;
	Dl_info info;

	if (keeps >= 0)
		return keeps;
	keeps = 0;
	if (dladdr((void *)tracecmd_iterate_events, &info) && info.dli_fname &&
	    realpath(info.dli_fname, real)) {
		base = strrchr(real, '/');
		base = base ? base + 1 : real;
		keeps = !strncmp(base, "libtracecmd.so.1.3.", 19) ||
			!strncmp(base, "libtracecmd.so.1.4.", 19);
	}
	return keeps;
}

/* zpages_given_back - bytes given back so far (for the tests) */
unsigned long long zpages_given_back(void)
{
	return given_back;
}

/* zpages_read - bytes of the pages read where pages could be given back */
unsigned long long zpages_read(void)
{
	return pages_read;
}

/* zpages_set_enabled - whether to give pages back at all (for the tests) */
void zpages_set_enabled(bool yes)
{
	disabled = !yes;
}

/*
 * zpages_start - for buffer @buf of the file: NULL when there is nothing
 * to give back (not compressed, or a library that frees its buffers)
 */
struct zpages *zpages_start(struct tracecmd_input *buf)
{
	struct tep_handle *tep = tracecmd_get_tep(buf);
	const char *name = NULL;
	struct zpages *z;
	long mem_page = sysconf(_SC_PAGESIZE);
	int page_size = tracecmd_page_size(buf);

	if (disabled || !zpages_library_keeps() || mem_page <= 0 || page_size <= 0 ||
	    (page_size & (page_size - 1)) ||
	    tracecmd_get_file_compress_proto(buf, &name, NULL) || !name ||
	    !strcmp(name, "none"))
		return NULL;
	z = xzalloc(sizeof(*z));
	z->ncpus = tep_get_cpus(tep);
	if (z->ncpus < 1)
		z->ncpus = 1;
	z->cpu = xzalloc(z->ncpus * sizeof(*z->cpu));
	z->page_size = page_size;
	z->mem_page = mem_page;
	return z;
}

/* give_back - the whole memory pages inside [@from, @to); the new start */
static uintptr_t give_back(const struct zpages *z, uintptr_t from, uintptr_t to)
{
	uintptr_t lo = (from + z->mem_page - 1) & ~(z->mem_page - 1);
	uintptr_t hi = to & ~(z->mem_page - 1);

	if (hi <= lo)
		return from;
	if (!madvise((void *)lo, hi - lo, MADV_DONTNEED))
		given_back += hi - lo;
	return hi;
}

/* zpages_record - @record of @cpu was read: give back what is behind it */
void zpages_record(struct zpages *z, const struct tep_record *record, int cpu)
{
	unsigned long long page, hdr;
	struct cpu_pages *c;
	uintptr_t start, end;

	if (!z || z->stopped || cpu < 0 || cpu >= z->ncpus)
		return;
	c = &z->cpu[cpu];
	/* the event's header: 4 bytes, or 8 with its length apart */
	hdr = (unsigned long long)record->record_size - record->size;
	if (record->record_size <= record->size || (hdr != 4 && hdr != 8)) {
		z->stopped = true;
		return;
	}
	page = record->offset / z->page_size;
	start = (uintptr_t)record->data - hdr - record->offset % z->page_size;
	if (page != c->page || !c->seen) {
		pages_read += z->page_size;
		/*
		 * A page of a record still referenced is not released:
		 * released, it has the library look for its buffer among
		 * every buffer the CPU has read (free_zpage(), which never
		 * finds it), a walk that grows with the session. One record
		 * a page is kept (about 140 bytes with its page's own).
		 */
		tracecmd_record_ref((struct tep_record *)record);
	}
	if (!c->seen) {
		c->seen = true;
		c->page = page;
		c->start = c->kept = start;
		return;
	}
	if (page <= c->page) {
		/* a CPU's records go forward, each page's agree */
		if (page < c->page || start != c->start)
			z->stopped = true;
		return;
	}
	/*
	 * the CPU left its page: that page is done (a margin of a page
	 * header before its end, were the start not exact)
	 */
	end = c->start + z->page_size - PAGE_MARGIN;
	if (page == c->page + 1 && start == end + PAGE_MARGIN) {
		/* the next page of the same buffer */
		c->kept = give_back(z, c->kept, end);
	} else {
		/* another buffer: this one is done to its last page's end */
		give_back(z, c->kept, end);
		c->kept = start;
	}
	c->page = page;
	c->start = start;
}

/* zpages_end - the buffer is read */
void zpages_end(struct zpages *z)
{
	if (!z)
		return;
	free(z->cpu);
	free(z);
}
