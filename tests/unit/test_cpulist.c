// SPDX-License-Identifier: GPL-2.0
/*
 * test_cpulist.c - unit tests for the CPU lists of record's -C
 * (tools/lib/utils.c): parsed up to CPU 8191, and written as a cpumask
 * file takes them, hex in comma-separated groups of 32 bits, the highest
 * first (a host of the case has 128 CPUs: four groups).
 */
#include <string.h>

#include "../../tools/lib/include/utils.h"
#include "tap.h"

/* mask_is - @text parses, and its mask is @want */
static void mask_is(const char *text, const char *want)
{
	static char mask[CPU_LIST_MASK_LEN];
	struct cpu_list set;
	int ok;

	if (!tap_ok(!cpu_list_parse(text, &set), "'%s' is a CPU list", text))
		return;
	cpu_list_mask(&set, mask, sizeof(mask));
	ok = !strcmp(mask, want);
	tap_ok(ok, "'%s' is the mask %s", text, want);
	if (!ok)
		tap_diag("got %s", mask);
}

int main(void)
{
	static const char *const bad[] = {
		"", "x", "-1", "3-1", "0-", "1,,2", "8192", "0-8192", "1 2",
		"2x", "99999999999999999999",
	};
	static char top[CPU_LIST_MASK_LEN] = "80000000";
	struct cpu_list set;
	size_t i;

	mask_is("0", "1");
	mask_is("0-3,8", "10f");
	mask_is("31", "80000000");
	mask_is("32", "1,00000000");
	mask_is("0-63", "ffffffff,ffffffff");
	mask_is("64-127", "ffffffff,ffffffff,00000000,00000000");
	mask_is("0,127", "80000000,00000000,00000000,00000001");
	for (i = 1; i < CPU_LIST_MAX / 32; i++)
		strcat(top, ",00000000");
	mask_is("8191", top);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		tap_ok(cpu_list_parse(bad[i], &set) == -1, "'%s' is refused", bad[i]);
	return tap_done();
}
