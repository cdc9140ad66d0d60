/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rest of the libibverbs API programs link: strings, rates, fork support (nothing to do:
 * no pinned pages), async events (none), address handle attributes from a completion, and
 * what the soft NIC does not offer (UD address handles, multicast, re-registration, imported
 * objects, sysfs, ECE): those fail with EOPNOTSUPP (or ENOENT) and a log line.
 */
#include <endian.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ibv_int.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(IBV_MISC);

const char *ibv_wc_status_str(enum ibv_wc_status status)
{
	static const char *const s[] = {
		"success", "local length error", "local QP operation error", "local EE context operation error",
		"local protection error", "Work Request Flushed Error", "memory management operation error",
		"bad response error", "local access error", "remote invalid request error", "remote access error",
		"remote operation error", "transport retry counter exceeded", "RNR retry counter exceeded",
		"local RDD violation error", "remote invalid RD request", "aborted error", "invalid EE context number",
		"invalid EE context state", "fatal error", "response timeout error", "general error",
		"TM error", "TM rendezvous error",
	};

	return (unsigned int)status < sizeof(s) / sizeof(s[0]) ? s[status] : "unknown";
}

const char *ibv_node_type_str(enum ibv_node_type t)
{
	return t == IBV_NODE_CA ? "InfiniBand channel adapter" : "unknown";
}

const char *ibv_port_state_str(enum ibv_port_state s)
{
	static const char *const n[] = {"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"};

	return (unsigned int)s < 6 ? n[s] : "unknown";
}

const char *ibv_event_type_str(enum ibv_event_type e)
{
	return e == IBV_EVENT_COMM_EST ? "communication established" : "asynchronous event";
}

/*
 * enum ibv_rate against the link's data rate. mult: the rate in units of SDR's 2.5 Gb/s as the
 * kernel's ib_rate_to_mult defines it (rdma-core's too): the 8b/10b rates and the nominal 28,
 * 50, 400 ... 1200 Gb/s ones; FDR's and EDR's 64b/66b rates (14, 25, 56, 100 ...) have none, -1.
 * mbps: the data rate in Mb/s (FDR's 14.0625 Gb/s is 14062, EDR's 25.78125 is 25781 ...).
 */
static const struct {
	enum ibv_rate rate;
	int mult, mbps;
} rates[] = {
	{IBV_RATE_2_5_GBPS, 1, 2500},      {IBV_RATE_5_GBPS, 2, 5000},       {IBV_RATE_10_GBPS, 4, 10000},
	{IBV_RATE_20_GBPS, 8, 20000},      {IBV_RATE_30_GBPS, 12, 30000},    {IBV_RATE_40_GBPS, 16, 40000},
	{IBV_RATE_60_GBPS, 24, 60000},     {IBV_RATE_80_GBPS, 32, 80000},    {IBV_RATE_120_GBPS, 48, 120000},
	{IBV_RATE_14_GBPS, -1, 14062},     {IBV_RATE_56_GBPS, -1, 56250},    {IBV_RATE_112_GBPS, -1, 112500},
	{IBV_RATE_168_GBPS, -1, 168750},   {IBV_RATE_25_GBPS, -1, 25781},    {IBV_RATE_100_GBPS, -1, 103125},
	{IBV_RATE_200_GBPS, -1, 206250},   {IBV_RATE_300_GBPS, -1, 309375},  {IBV_RATE_28_GBPS, 11, 28125},
	{IBV_RATE_50_GBPS, 20, 53125},     {IBV_RATE_400_GBPS, 160, 425000}, {IBV_RATE_600_GBPS, 240, 637500},
	{IBV_RATE_800_GBPS, 320, 850000},  {IBV_RATE_1200_GBPS, 480, 1275000},
};
#define NRATES (sizeof(rates) / sizeof(rates[0]))

int ibv_rate_to_mult(enum ibv_rate rate)
{
	for (size_t i = 0; i < NRATES; i++)
		if (rates[i].rate == rate)
			return rates[i].mult;
	return -1; /* IBV_RATE_MAX or unknown */
}

enum ibv_rate mult_to_ibv_rate(int mult)
{
	for (size_t i = 0; i < NRATES && mult > 0; i++)
		if (rates[i].mult == mult)
			return rates[i].rate;
	return IBV_RATE_MAX;
}

int ibv_rate_to_mbps(enum ibv_rate rate)
{
	for (size_t i = 0; i < NRATES; i++)
		if (rates[i].rate == rate)
			return rates[i].mbps;
	return -1;
}

enum ibv_rate mbps_to_ibv_rate(int mbps)
{
	for (size_t i = 0; i < NRATES; i++)
		if (rates[i].mbps == mbps)
			return rates[i].rate;
	return IBV_RATE_MAX;
}

/*
 * Fork: the soft NIC reaches registered memory by the process's virtual addresses (its own
 * threads, process_vm_readv / writev, shared windows that a fork copies for the child), never
 * through pinned physical pages, so a child's copy-on-write cannot take a page from under an
 * MR. Nothing to madvise: as rdma-core on a kernel with copy-on-fork for pinned pages,
 * ibv_fork_init does nothing and the state is IBV_FORK_UNNEEDED.
 */
int ibv_fork_init(void)
{
	return 0;
}

enum ibv_fork_status ibv_is_fork_initialized(void)
{
	return IBV_FORK_UNNEEDED;
}

/* (what providers call around their queue buffers: nothing to protect, above) */
int ibv_dontfork_range(void *base, size_t size)
{
	(void)base;
	(void)size;
	return 0;
}

int ibv_dofork_range(void *base, size_t size)
{
	(void)base;
	(void)size;
	return 0;
}

/* No sysfs: the soft devices are no kernel devices (their dev_path and ibdev_path are empty). */
const char *ibv_get_sysfs_path(void)
{
	SDK_LOG_ERR("ibv_get_sysfs_path: the soft devices have no sysfs");
	errno = ENOENT;
	return NULL;
}

int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size)
{
	(void)buf;
	(void)size;
	SDK_LOG_ERR("ibv_read_sysfs_file %s/%s: the soft devices have no sysfs files", dir != NULL ? dir : "",
		    file != NULL ? file : "");
	errno = ENOENT;
	return -1;
}

/* The provider interface before rdma-core 13 (old binaries still bind it): no provider loads here. */
void ibv_register_driver(const char *name, sv_driver_init_fn init_func)
{
	(void)name;
	(void)init_func;
}

int ibv_get_async_event(struct ibv_context *context, struct ibv_async_event *event)
{
	(void)context;
	(void)event;
	SDK_LOG_ERR("ibv_get_async_event: the soft NIC has no asynchronous events");
	errno = EOPNOTSUPP;
	return -1;
}

void ibv_ack_async_event(struct ibv_async_event *event)
{
	(void)event;
}

static void *unsupported(const char *what)
{
	SDK_LOG_ERR("%s: not supported by softdoca's libibverbs (docs/compatibility.md)", what);
	errno = EOPNOTSUPP;
	return NULL;
}

struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	(void)pd;
	(void)attr;
	return unsupported("ibv_create_ah");
}

struct ibv_ah *ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc, struct ibv_grh *grh, uint8_t port_num)
{
	(void)pd;
	(void)wc;
	(void)grh;
	(void)port_num;
	return unsupported("ibv_create_ah_from_wc (UD address handles)");
}

/* Bytes 20..39 of a RoCE v2 GRH buffer hold an IPv4 header (version 4, no options, a valid sum). */
static bool ipv4_header(const uint8_t *h)
{
	uint32_t sum = 0;

	if (h[0] != 0x45)
		return false;
	for (int i = 0; i < 20; i += 2)
		sum += (uint32_t)h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum == 0xffff;
}

static int ah_fail(int err, const char *why)
{
	SDK_LOG_ERR("ibv_init_ah_from_wc: %s", why);
	errno = err;
	return -1;
}

/*
 * The attributes of a reply to a completion's sender. With a GRH (UD; RoCE v2: an IPv6 header,
 * or an IPv4 one in its last 20 bytes), the sender's address is the destination and the
 * packet's destination names the source GID, which must be the port's (index 0). 0, or -1 and
 * errno.
 */
int ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num, struct ibv_wc *wc, struct ibv_grh *grh,
			struct ibv_ah_attr *ah_attr)
{
	union ibv_gid dst = {0}, own;
	const uint8_t *ip4;

	if (context == NULL || wc == NULL || ah_attr == NULL)
		return ah_fail(EINVAL, "no context, completion or attributes");
	memset(ah_attr, 0, sizeof(*ah_attr));
	ah_attr->dlid = wc->slid;
	ah_attr->sl = wc->sl;
	ah_attr->src_path_bits = wc->dlid_path_bits;
	ah_attr->port_num = port_num;
	if (!(wc->wc_flags & IBV_WC_GRH))
		return 0;
	if (grh == NULL)
		return ah_fail(EINVAL, "the completion has a GRH but none was given");
	ah_attr->is_global = 1;
	ip4 = (const uint8_t *)grh + 20;
	if (ipv4_header(ip4)) { /* IPv4-mapped GIDs: ::ffff:address */
		dst.raw[10] = dst.raw[11] = 0xff;
		memcpy(&dst.raw[12], ip4 + 16, 4);
		ah_attr->grh.dgid.raw[10] = ah_attr->grh.dgid.raw[11] = 0xff;
		memcpy(&ah_attr->grh.dgid.raw[12], ip4 + 12, 4);
		ah_attr->grh.hop_limit = ip4[8];     /* TTL */
		ah_attr->grh.traffic_class = ip4[1]; /* TOS */
		if (ip4[16] >= 224 && ip4[16] <= 239)
			return ah_fail(EINVAL, "a multicast destination (the soft NIC has no multicast)");
	} else if (be32toh(grh->version_tclass_flow) >> 28 == 6) {
		uint32_t vtf = be32toh(grh->version_tclass_flow);

		if (grh->next_hdr != IPPROTO_UDP)
			return ah_fail(EPROTONOSUPPORT, "not RoCE v2 (UDP), the only GID type of the soft port");
		if (grh->dgid.raw[0] == 0xff)
			return ah_fail(EINVAL, "a multicast destination (the soft NIC has no multicast)");
		dst = grh->dgid;
		ah_attr->grh.dgid = grh->sgid;
		ah_attr->grh.flow_label = vtf & 0xfffff;
		ah_attr->grh.traffic_class = (uint8_t)(vtf >> 20);
		ah_attr->grh.hop_limit = grh->hop_limit;
	} else {
		return ah_fail(EPROTONOSUPPORT, "the GRH holds neither an IPv6 nor an IPv4 header");
	}
	if (ibv_query_gid(context, port_num, 0, &own) != 0 || memcmp(&own, &dst, sizeof(own)) != 0)
		return ah_fail(ENOENT, "the packet's destination is not the port's GID");
	ah_attr->grh.sgid_index = 0;
	return 0;
}

/*
 * The Ethernet address of a destination GID: the soft NIC's RoCE v2 runs over the kernel's UDP
 * sockets, which resolve (and own) the link layer; it has no neighbour table of its own.
 * Returns a negative errno, as rdma-core's.
 */
int ibv_resolve_eth_l2_from_gid(struct ibv_context *context, struct ibv_ah_attr *attr,
				uint8_t eth_mac[ETHERNET_LL_SIZE], uint16_t *vid)
{
	(void)context;
	(void)attr;
	(void)eth_mac;
	(void)vid;
	unsupported("ibv_resolve_eth_l2_from_gid (the kernel's UDP sockets resolve the soft NIC's link layer)");
	return -EOPNOTSUPP;
}

int ibv_destroy_ah(struct ibv_ah *ah)
{
	(void)ah;
	return EINVAL;
}

int ibv_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	(void)qp;
	(void)gid;
	(void)lid;
	unsupported("ibv_attach_mcast");
	return EOPNOTSUPP;
}

int ibv_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)
{
	(void)qp;
	(void)gid;
	(void)lid;
	return EOPNOTSUPP;
}

int ibv_rereg_mr(struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr, size_t length, int access)
{
	(void)mr;
	(void)flags;
	(void)pd;
	(void)addr;
	(void)length;
	(void)access;
	unsupported("ibv_rereg_mr");
	return EOPNOTSUPP;
}

/*
 * Importing shares another process's kernel verbs objects (its command fd, a PD, MR or DM
 * handle): the soft NIC's objects live in their own process, no kernel object to share.
 */
struct ibv_context *ibv_import_device(int cmd_fd)
{
	(void)cmd_fd;
	return unsupported("ibv_import_device (no kernel verbs objects to share)");
}

struct ibv_pd *ibv_import_pd(struct ibv_context *context, uint32_t pd_handle)
{
	(void)context;
	(void)pd_handle;
	return unsupported("ibv_import_pd (no kernel verbs objects to share)");
}

struct ibv_mr *ibv_import_mr(struct ibv_pd *pd, uint32_t mr_handle)
{
	(void)pd;
	(void)mr_handle;
	return unsupported("ibv_import_mr (no kernel verbs objects to share)");
}

struct ibv_dm *ibv_import_dm(struct ibv_context *context, uint32_t dm_handle)
{
	(void)context;
	(void)dm_handle;
	return unsupported("ibv_import_dm (no kernel verbs objects to share)");
}

/* Nothing is ever imported: an object given here is not one, and is left as it is. */
static void unimport(const char *what, const void *obj)
{
	if (obj != NULL)
		SDK_LOG_ERR("%s: %p was not imported (softdoca imports nothing), left as it is", what, obj);
}

void ibv_unimport_pd(struct ibv_pd *pd)
{
	unimport("ibv_unimport_pd", pd);
}

void ibv_unimport_mr(struct ibv_mr *mr)
{
	unimport("ibv_unimport_mr", mr);
}

void ibv_unimport_dm(struct ibv_dm *dm)
{
	unimport("ibv_unimport_dm", dm);
}
