// SPDX-License-Identifier: GPL-2.0
/*
 * opcost.c - what each kind of instruction the insns.so plugin counts
 * costs where this program runs: in the emulated guest, and on the host's
 * hardware. bench/run runs it in both and prints the two sets of costs
 * beside each configuration's emulator exits and clock reads per unit of
 * work (Documentation/benchmarks.rst, "What the emulator charges").
 *
 * Each kind is a loop of ITERATIONS steps, timed with CLOCK_MONOTONIC; the
 * cost of one operation is the loop's time less that of the same loop
 * without it, over the steps:
 *   insn   8 dependent adds: the time of one plain instruction
 *   exit   pushf; popf: popf ends TCG's translation block and returns to
 *          its main loop, as sti and iret do (they are privileged; popf is
 *          the one of the three a program may run)
 *   clock  rdtsc
 * Each figure is the minimum of REPEATS runs. Prints "opcost KIND NS" lines.
 *
 * Usage: opcost [ITERATIONS [REPEATS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The loops: the same counter and branch, with or without the operation. */
static void loop_base(unsigned long n)
{
	while (n--)
		asm volatile("" : "+r"(n));
}

static void loop_insn(unsigned long n)
{
	unsigned long x = 0;

	while (n--)
		asm volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
			     "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
			     : "+r"(x), "+r"(n));
}

static void loop_exit(unsigned long n)
{
	while (n--)
		asm volatile("pushf\n\tpopf" : "+r"(n) : : "memory", "cc");
}

static void loop_clock(unsigned long n)
{
	unsigned int lo, hi;

	while (n--)
		asm volatile("rdtsc" : "=a"(lo), "=d"(hi), "+r"(n));
}

/* best_ns - the fastest of @repeats runs of @loop over @n steps */
static double best_ns(void (*loop)(unsigned long), unsigned long n, int repeats)
{
	double best = 0;
	int i;

	for (i = 0; i < repeats; i++) {
		double t = now_ns();

		loop(n);
		t = now_ns() - t;
		if (!i || t < best)
			best = t;
	}
	return best;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	int repeats = argc > 2 ? atoi(argv[2]) : 5;
	double base;

	if (!n || repeats < 1 || argc > 3) {
		fprintf(stderr, "usage: opcost [ITERATIONS [REPEATS]]\n");
		return 2;
	}
	base = best_ns(loop_base, n, repeats);
	printf("opcost insn %.3f\n", (best_ns(loop_insn, n, repeats) - base) / n / 8);
	printf("opcost exit %.3f\n", (best_ns(loop_exit, n, repeats) - base) / n);
	printf("opcost clock %.3f\n", (best_ns(loop_clock, n, repeats) - base) / n);
	return 0;
}
