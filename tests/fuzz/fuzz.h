/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h - helpers shared by the libFuzzer targets of tests/fuzz/.
 */
#ifndef TEEPROBE_FUZZ_H
#define TEEPROBE_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* fuzz_text - the input as a NUL-terminated string (free it) */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* fuzz_check - a broken invariant is a crash the fuzzer reports */
#define fuzz_check(cond)	do { if (!(cond)) __builtin_trap(); } while (0)

#endif /* TEEPROBE_FUZZ_H */
