/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lab_endpoint.h - "ADDR:PORT" and "[IPV6]:PORT" endpoints, as the lab's
 * programs (hsbench, udpbench) take them on their command lines
 * (lab/common/endpoint.c).
 */
#ifndef LAB_ENDPOINT_H
#define LAB_ENDPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/*
 * lab_endpoint - @text ("ADDR:PORT", "[IPV6]:PORT"; a numeric port, and a
 * name or a numeric address) into @addr for a socket of @socktype;
 * @passive: for bind() (port 0 allowed: the kernel picks one). 0, or -1
 * with the reason in @err.
 */
int lab_endpoint(const char *text, int socktype, bool passive,
		 struct sockaddr_storage *addr, socklen_t *addr_len,
		 char *err, size_t err_len);

#endif /* LAB_ENDPOINT_H */
