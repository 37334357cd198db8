// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - hsbench, the handshake load generator of the teeprobe lab:
 * command dispatch, --help and --version.
 */
#include <string.h>

#include "handshake.h"
#include "hsbench.h"

/* hs_usage - the command line summary */
void hs_usage(FILE *f)
{
	fprintf(f,
"usage:\n"
"  hsbench server [--listen ADDR:PORT] [--workers W] [--mode soft|hard-temp|hard-reg|hard-alloc|hard-shared]\n"
"                 [--crypto-calls K] [--payload BYTES] [--duration SEC] [--connections N]\n"
"                 [--tee-dev /dev/teeN] [--json] [--ready-file PATH] [--stall-us US]\n"
"                 [--accept-log PATH]\n"
"  hsbench client --connect ADDR:PORT [--threads T] [--connections C] [--json]\n"
"                 [--timeout SEC] [--crypto-calls K] [--payload BYTES]\n"
"  hsbench --help | --version\n"
"\n"
"server: W worker threads (default 10), each with its own epoll instance,\n"
"accept connections on one shared listening socket (default 127.0.0.1:7000;\n"
"IPv6 as [::1]:7000; port 0 picks a free port). Per connection it reads a\n"
"%d-byte hello, does K crypto calls (default 4) over a buffer of BYTES\n"
"(default 256, rounded up to a multiple of 16) derived from it, and replies\n"
"with a %d-byte SM3 digest. --mode:\n"
"  soft       crypto in user space (default)\n"
"  hard-temp  in the teesim TA; per call: TEE_IOC_SHM_REGISTER, TEE_IOC_INVOKE,\n"
"             close the shm fd (the libteec temporary memref pattern)\n"
"  hard-reg   in the teesim TA; each worker registers its buffer once, then\n"
"             a call is one TEE_IOC_INVOKE\n"
"  hard-alloc  (libteec builds) TEEC_AllocateSharedMemory memory, partial memrefs\n"
"  hard-shared (iTrustee's libteec) allocated with TEEC_MEM_SHARED_INOUT: the\n"
"             driver pins the pages at each call instead of copying\n"
"The TEE device is the first /dev/teeN reporting teesim's impl_id, unless\n"
"--tee-dev names it. The server stops after N completed handshakes, SEC\n"
"seconds, or SIGINT/SIGTERM (whichever comes first), then prints its counters.\n"
"--ready-file PATH is written once the server listens and every worker is\n"
"set up: the listening ADDR:PORT on the first line, the pid on the second.\n"
"--stall-us US makes a worker block US microseconds (at most 10 s) in each\n"
"handshake before its crypto, as a worker stuck in a TEE call does.\n"
"--accept-log PATH writes a line per accepted connection: when accept()\n"
"returned it (CLOCK_REALTIME, in ns) and the client's port.\n"
"SIGUSR1 switches hard-reg and hard-temp to the other from each worker's\n"
"next crypto call: one server whose load turns slow part-way (hard-alloc\n"
"and hard-shared have no other).\n"
"\n"
"client: T threads (default 10) make C connections (default 1000) in total,\n"
"each: connect, send hello, read reply, verify it against the same crypto\n"
"done in software (--crypto-calls and --payload must match the server's),\n"
"close. Prints latency statistics in microseconds of connect() and of the\n"
"whole handshake. Every socket call times out after SEC (default 10).\n"
"Exit status 1 if any handshake failed.\n"
"\n"
"--json prints one JSON object instead of text lines.\n",
		HS_HELLO_SIZE, HS_REPLY_SIZE);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		hs_usage(stderr);
		return HS_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "server"))
		return server_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "client"))
		return client_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		hs_usage(stdout);
		return HS_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("hsbench %s\n", HSBENCH_VERSION);
		return HS_EXIT_OK;
	}
	hs_err("unknown command '%s' (want server or client; see --help)",
	       argv[1]);
	return HS_EXIT_USAGE;
}
