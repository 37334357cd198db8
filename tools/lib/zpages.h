/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zpages.h - the decompressed pages of a compressed trace.dat given back
 * to the system as the reading child is done with them (zpages.c says
 * why: libtracecmd 1.3 and 1.4 keep every one until the file is closed).
 */
#ifndef TEEPROBE_ZPAGES_H
#define TEEPROBE_ZPAGES_H

#include <stdbool.h>

struct tracecmd_input;
struct tep_record;
struct zpages;

struct zpages *zpages_start(struct tracecmd_input *buf);
void zpages_record(struct zpages *z, const struct tep_record *record, int cpu);
void zpages_end(struct zpages *z);
bool zpages_library_keeps(void);
unsigned long long zpages_given_back(void);
unsigned long long zpages_read(void);
void zpages_set_enabled(bool yes);

#endif /* TEEPROBE_ZPAGES_H */
