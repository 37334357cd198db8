// SPDX-License-Identifier: GPL-2.0
/*
 * test_analyze_full.c - test_analyze.c's checks, built with the first
 * read's tables of 2 slots (FACT_SLOTS, in the Makefile): every session
 * overflows them, and analysis_read() reads it again with every event
 * kept (its fallback): the same analysis, to the bit.
 */
#define TEST_FALLBACK
#include "test_analyze.c"
