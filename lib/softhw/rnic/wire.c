/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The qp descriptor (doca_rdma_export's blob) and host identity.
 *
 * Descriptor payload, version 1 (144 bytes, little-endian, inside softdoca_desc_seal's frame;
 * kind 1 = RC, 2 = DC):
 *        0    16  boot id of the host        16   8  inode of the network namespace
 *       24     4  pid                        28   4  the ep's access flags
 *       32     8  qp id                      40   8  qp token (random, never 0)
 *       48    64  card instance (unix rendezvous "rnic"/"<pid>", memory service)
 *      112    16  TCP listener address       128  2  its port
 *      130     1  its family (4 / 6)         131  1  rnr retry count
 *      132     1  wire: 0 stream, 1 RoCEv2   133  1  RoCEv2: path MTU, log2
 *      134     4  RoCEv2: IPv4 address (GID ::ffff:a.b.c.d)
 *      138     3  RoCEv2: QPN                141  3  RoCEv2: first PSN
 * (132..143 were reserved, 0: an older descriptor is a stream's.)
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "softhw/base/export_desc.h"
#include "softhw/rnic/rnic_int.h"

enum { DESC_RC = 1, DESC_DC = 2 };

static void put(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

void rnic_host_self(struct rnic_host *host)
{
	char text[64] = "";
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	struct stat st;
	int n = 0;

	memset(host, 0, sizeof(*host));
	if (f != NULL) {
		if (fgets(text, sizeof(text), f) == NULL)
			text[0] = '\0';
		fclose(f);
	}
	/* "xxxxxxxx-xxxx-...": 32 hex digits */
	for (const char *c = text; *c != '\0' && n < 32; c++) {
		int v = hexval(*c);

		if (v < 0)
			continue;
		host->boot_id[n / 2] |= (uint8_t)(n % 2 == 0 ? v << 4 : v);
		n++;
	}
	if (stat("/proc/self/ns/net", &st) == 0)
		host->netns = (uint64_t)st.st_ino;
}

bool rnic_same_peer(const struct rnic_peer *a, const struct rnic_peer *b)
{
	return a->pid == b->pid && a->qp_id == b->qp_id && a->qp_token == b->qp_token &&
	       memcmp(&a->host, &b->host, sizeof(a->host)) == 0;
}

bool rnic_same_host(const struct rnic_host *a, const struct rnic_host *b)
{
	static const uint8_t zero[16];

	/* Without a boot id (no /proc) nothing proves two processes share a host. */
	return memcmp(a->boot_id, zero, sizeof(zero)) != 0 && memcmp(a->boot_id, b->boot_id, 16) == 0 &&
	       a->netns == b->netns;
}

char rnic_transport_forced(void)
{
	const char *v = getenv("SOFTDOCA_RDMA_TRANSPORT");

	if (v == NULL)
		return 0;
	if (strcmp(v, "tcp") == 0)
		return 't';
	if (strcmp(v, "unix") == 0)
		return 'u';
	return 0;
}

void rnic_desc_encode(const struct rnic_peer *p, uint8_t out[RNIC_DESC_LEN])
{
	uint8_t *b = out + SOFTDOCA_DESC_HEADER_LEN;

	memset(out, 0, RNIC_DESC_LEN);
	memcpy(b, p->host.boot_id, 16);
	put(b + 16, p->host.netns, 8);
	put(b + 24, (uint32_t)p->pid, 4);
	put(b + 28, p->access, 4);
	put(b + 32, p->qp_id, 8);
	put(b + 40, p->qp_token, 8);
	memcpy(b + 48, p->instance, strnlen(p->instance, 63));
	memcpy(b + 112, p->tcp_ip, 16);
	put(b + 128, p->tcp_port, 2);
	b[130] = p->family == AF_INET6 ? 6 : p->family == AF_INET ? 4 : 0;
	b[131] = p->rnr_retry;
	b[132] = p->wire;
	b[133] = p->roce_mtu_log;
	put(b + 134, p->roce_ip, 4);
	put(b + 138, p->roce_qpn & 0xffffff, 3);
	put(b + 141, p->roce_psn & 0xffffff, 3);
	softdoca_desc_seal(out, RNIC_DESC_LEN, RNIC_DESC_MAGIC, RNIC_DESC_VERSION, p->dc ? DESC_DC : DESC_RC);
}

doca_error_t rnic_desc_decode(const void *buf, size_t len, struct rnic_peer *p, const char **why)
{
	const uint8_t *b = (const uint8_t *)buf + SOFTDOCA_DESC_HEADER_LEN;
	uint16_t kind;
	doca_error_t err;

	if (buf == NULL || len != RNIC_DESC_LEN) {
		*why = len < RNIC_DESC_LEN ? "the descriptor is truncated" : "the descriptor has trailing bytes";
		return DOCA_ERROR_INVALID_VALUE;
	}
	err = softdoca_desc_open(buf, len, RNIC_DESC_MAGIC, RNIC_DESC_VERSION, &kind, why);
	if (err != DOCA_SUCCESS)
		return DOCA_ERROR_INVALID_VALUE;
	if (kind != DESC_RC && kind != DESC_DC) {
		*why = "unknown transport kind";
		return DOCA_ERROR_INVALID_VALUE;
	}
	memset(p, 0, sizeof(*p));
	memcpy(p->host.boot_id, b, 16);
	p->host.netns = get(b + 16, 8);
	p->pid = (int32_t)get(b + 24, 4);
	p->access = (uint32_t)get(b + 28, 4);
	p->qp_id = get(b + 32, 8);
	p->qp_token = get(b + 40, 8);
	memcpy(p->instance, b + 48, 63);
	memcpy(p->tcp_ip, b + 112, 16);
	p->tcp_port = (uint16_t)get(b + 128, 2);
	p->family = b[130] == 6 ? AF_INET6 : b[130] == 4 ? AF_INET : 0;
	p->rnr_retry = b[131];
	p->dc = kind == DESC_DC;
	p->wire = b[132];
	p->roce_mtu_log = b[133];
	p->roce_ip = (uint32_t)get(b + 134, 4);
	p->roce_qpn = (uint32_t)get(b + 138, 3);
	p->roce_psn = (uint32_t)get(b + 141, 3);
	if (p->pid <= 0 || p->qp_id == 0 || p->qp_token == 0) {
		*why = "the descriptor names no queue pair";
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

void rnic_self_peer(const struct rnic_ep *ep, const struct rnic_qp *qp, struct rnic_peer *p)
{
	memset(p, 0, sizeof(*p));
	p->host = rnic_nic.host;
	p->pid = (int32_t)getpid();
	p->access = ep->attr.access;
	p->qp_id = qp->id;
	p->qp_token = qp->token;
	snprintf(p->instance, sizeof(p->instance), "%s", rnic_nic.instance);
	RNIC_PATHS_EACH(describe, p); /* where dialers reach us */
	p->wire = rnic_conn_of(qp)->wire;
	if (rnic_conn_of(qp)->describe_qp != NULL)
		rnic_conn_of(qp)->describe_qp(qp, p); /* what only this qp's connection knows */
	p->rnr_retry = ep->attr.rnr_retry_count;
	p->dc = ep->attr.dc;
}

void rnic_peer_name(const struct sockaddr_storage *from, const struct rnic_hello *h, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN] = "?";

	if (from->ss_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)from;

		inet_ntop(AF_INET, &sin->sin_addr, ip, sizeof(ip));
		snprintf(buf, len, "%s:%u", ip, (unsigned)ntohs(sin->sin_port));
	} else if (from->ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)from;

		inet_ntop(AF_INET6, &sin6->sin6_addr, ip, sizeof(ip));
		snprintf(buf, len, "[%s]:%u", ip, (unsigned)ntohs(sin6->sin6_port));
	} else {
		snprintf(buf, len, "a local process (it says pid %d)", (int)h->self.pid);
	}
}
