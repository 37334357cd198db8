/* SPDX-License-Identifier: GPL-2.0 */
/*
 * teeprobe.h - the subcommands of the teeprobe command.
 */
#ifndef TEEPROBE_TOOL_H
#define TEEPROBE_TOOL_H

int check_main(int argc, char **argv);
int analyze_main(int argc, char **argv);
int compare_main(int argc, char **argv);
int plot_main(int argc, char **argv);
int record_main(int argc, char **argv);
int report_main(int argc, char **argv);
int stat_main(int argc, char **argv);
int watch_main(int argc, char **argv);

#endif /* TEEPROBE_TOOL_H */
