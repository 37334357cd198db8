// SPDX-License-Identifier: GPL-2.0
/* sm4_ta.c - the lab's SM4 (../crypto/sm4.c), compiled into the TA */
#include "../crypto/sm4.c"
