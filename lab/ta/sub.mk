# SPDX-License-Identifier: GPL-2.0
global-incdirs-y += . ../include ../crypto
srcs-y += labta.c sm3_ta.c sm4_ta.c
cflags-y += -Wall -Wextra
