// SPDX-License-Identifier: GPL-2.0
/* sm3_ta.c - the lab's SM3 (../crypto/sm3.c), compiled into the TA */
#include "../crypto/sm3.c"
