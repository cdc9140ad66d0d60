/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Devices and contexts: the soft devices with an RDMA NIC, as ibv_devices; a context holds
 * the opened doca_dev. No kernel: cmd_fd and async_fd are -1, no async events.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/priv/dev_priv.h"
#include "doca_dev.h"
#include "ibv_int.h"
#include "softhw/base/sdk_log.h"
#include "softhw/softhw.h"

SDK_LOG_REGISTER(IBV_DEVICE);

#undef ibv_get_device_list
#undef ibv_query_port

struct sv_lib sv = {.lock = PTHREAD_MUTEX_INITIALIZER, .ev_lock = PTHREAD_MUTEX_INITIALIZER, .next_key = 0x1000};

struct ibv_device **ibv_get_device_list(int *num_devices)
{
	struct doca_devinfo **list;
	struct ibv_device **out;
	uint32_t n = 0, k = 0;

	/* one list for the process: devices and contexts point into it, so it is never destroyed */
	pthread_mutex_lock(&sv.lock);
	if (sv.devinfos == NULL && doca_devinfo_create_list(&sv.devinfos, &sv.ndevinfos) != DOCA_SUCCESS) {
		SDK_LOG_ERR("libibverbs: no soft device (is the soft card configured?)");
		sv.devinfos = NULL;
		sv.ndevinfos = 0;
	}
	list = sv.devinfos;
	n = sv.ndevinfos;
	pthread_mutex_unlock(&sv.lock);
	out = calloc(n + 1, sizeof(*out));
	if (out == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct doca_dev *dev;
		struct sv_dev *d;
		bool nic;

		if (doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			continue;
		nic = dev->rnic != NULL;
		doca_dev_close(dev);
		d = nic ? calloc(1, sizeof(*d)) : NULL;
		if (d == NULL)
			continue;
		d->pub.node_type = IBV_NODE_CA;
		d->pub.transport_type = IBV_TRANSPORT_IB;
		(void)doca_devinfo_get_ibdev_name(list[i], d->pub.name, sizeof(d->pub.name));
		snprintf(d->pub.dev_name, sizeof(d->pub.dev_name), "uverbs%u", k);
		d->devinfo = list[i];
		d->index = (int)k;
		out[k++] = &d->pub;
	}
	if (num_devices != NULL)
		*num_devices = (int)k;
	return out;
}

void ibv_free_device_list(struct ibv_device **list)
{
	if (list == NULL)
		return;
	for (struct ibv_device **d = list; *d != NULL; d++)
		free(*d);
	free(list);
}

const char *ibv_get_device_name(struct ibv_device *device)
{
	return device != NULL ? device->name : NULL;
}

__be64 ibv_get_device_guid(struct ibv_device *device)
{
	uint64_t g = 0;

	if (device != NULL)
		for (const char *c = device->name; *c != '\0'; c++)
			g = g * 131 + (unsigned char)*c;
	return htobe64(g | 0x0200000000000000ull);
}

/* The kernel's device index there; here the device's place in the list, as its uverbs<N> name. */
int ibv_get_device_index(struct ibv_device *device)
{
	return device != NULL ? ((struct sv_dev *)device)->index : -1;
}

static const struct soft_ibv_hooks *hooks(void)
{
	return &sv_hooks;
}

struct ibv_context *ibv_open_device(struct ibv_device *device)
{
	struct sv_dev *d = (struct sv_dev *)device;
	struct sv_ctx *c;

	if (d == NULL) {
		errno = EINVAL;
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	if (doca_dev_open(d->devinfo, &c->dev) != DOCA_SUCCESS || c->dev->rnic == NULL) {
		SDK_LOG_ERR("libibverbs: could not open soft device %s", d->pub.name);
		if (c->dev != NULL)
			doca_dev_close(c->dev);
		free(c);
		errno = ENODEV;
		return NULL;
	}
	c->nic = c->dev->rnic;
	c->devcopy = *d;
	c->vx.context.device = &c->devcopy.pub;
	c->vx.context.ops = sv_ops;
	c->vx.context.cmd_fd = -1;
	c->vx.context.async_fd = -1;
	c->vx.context.num_comp_vectors = 1;
	pthread_mutex_init(&c->vx.context.mutex, NULL);
	/* extended: the inlines find the ops set here (the others stay NULL: EOPNOTSUPP or the legacy call) */
	c->vx.context.abi_compat = __VERBS_ABI_IS_EXTENDED;
	c->vx.sz = sizeof(c->vx);
	c->vx.create_qp_ex = sv_create_qp_ex;
	c->vx.create_cq_ex = sv_create_cq_ex;
	c->tag.magic = SOFT_IBV_MAGIC;
	c->tag.hooks = hooks();
	return &c->vx.context;
}

int ibv_close_device(struct ibv_context *context)
{
	struct sv_ctx *c;

	if (context == NULL)
		return EINVAL;
	c = sv_ctx_of(context);
	doca_dev_close(c->dev);
	pthread_mutex_destroy(&c->vx.context.mutex);
	free(c);
	return 0;
}

struct doca_dev *sv_dev_of(struct ibv_context *ctx)
{
	return ctx != NULL ? sv_ctx_of(ctx)->dev : NULL;
}

bool sv_ctx_wire(struct ibv_context *ctx)
{
	const struct softhw_function *fn = sv_ctx_of(ctx)->dev->devinfo->fn;

	return fn != NULL && fn->card != NULL && fn->card->wire == SOFTHW_WIRE_ROCEV2 && fn->has_ipv4;
}

int ibv_query_device(struct ibv_context *context, struct ibv_device_attr *a)
{
	if (context == NULL || a == NULL)
		return EINVAL;
	memset(a, 0, sizeof(*a));
	snprintf(a->fw_ver, sizeof(a->fw_ver), "softdoca");
	a->node_guid = ibv_get_device_guid(context->device);
	a->sys_image_guid = a->node_guid;
	a->max_mr_size = UINT64_MAX;
	a->page_size_cap = 0xfffff000;
	a->vendor_id = 0x02c9; /* Mellanox */
	a->vendor_part_id = 41692; /* BlueField-3 */
	a->max_qp = 4096;
	a->max_qp_wr = SV_MAX_WR;
	a->device_cap_flags = IBV_DEVICE_RC_RNR_NAK_GEN;
	a->max_sge = SV_MAX_SGE;
	a->max_sge_rd = SV_MAX_SGE;
	a->max_cq = 65536;
	a->max_cqe = 4194303;
	a->max_mr = 1 << 20;
	a->max_pd = 1 << 20;
	a->max_qp_rd_atom = SOFT_IBV_MAX_RD_ATOM;
	a->max_qp_init_rd_atom = SOFT_IBV_MAX_RD_ATOM;
	a->max_res_rd_atom = 1 << 20;
	a->atomic_cap = IBV_ATOMIC_HCA;
	a->max_srq = 4096; /* no limit of its own: one soft NIC endpoint each, as many as QPs */
	a->max_srq_wr = SV_MAX_WR;
	a->max_srq_sge = SV_MAX_SGE;
	a->max_pkeys = 1;
	a->phys_port_cnt = 1;
	return 0;
}

int ibv_query_port(struct ibv_context *context, uint8_t port_num, struct _compat_ibv_port_attr *out)
{
	struct ibv_port_attr a = {0};

	if (context == NULL || out == NULL || port_num != 1)
		return EINVAL;
	a.state = IBV_PORT_ACTIVE;
	a.max_mtu = IBV_MTU_4096;
	/* as rxe's: the interface's MTU less the headers (RoCEv2 cards; 1024 on the others) */
	a.active_mtu = (enum ibv_mtu)(sv_ctx_of(context)->nic->port_mtu_log(sv_ctx_of(context)->dev->devinfo->fn) - 7);
	a.gid_tbl_len = 1;
	a.port_cap_flags = IBV_PORT_CM_SUP;
	a.max_msg_sz = 1u << 31;
	a.pkey_tbl_len = 1;
	a.active_width = 2;  /* 4x */
	a.active_speed = 32; /* EDR */
	a.phys_state = 5;    /* LinkUp */
	a.link_layer = IBV_LINK_LAYER_ETHERNET;
	/* the caller's structure may be the old, shorter one: only the fields up to flags */
	memcpy(out, &a, offsetof(struct ibv_port_attr, port_cap_flags2));
	return 0;
}

int ibv_query_gid(struct ibv_context *context, uint8_t port_num, int index, union ibv_gid *gid)
{
	if (context == NULL || gid == NULL || port_num != 1 || index != 0)
		return EINVAL;
	if (sv_ctx_wire(context)) { /* RoCEv2: the function's address, IPv4-mapped, as rxe's GID 1 */
		memcpy(gid->raw, sv_ctx_of(context)->dev->devinfo->fn->gid, sizeof(gid->raw));
		return 0;
	}
	/* ::ffff:127.0.0.1, the IPv4-mapped GID of the loopback address the soft NIC answers on */
	memset(gid, 0, sizeof(*gid));
	gid->raw[10] = gid->raw[11] = 0xff;
	gid->raw[12] = 127;
	gid->raw[15] = 1;
	return 0;
}

/* rdma-core's sysfs reading of a GID's type (ibv_devinfo -v): the one GID is RoCE v2. */
int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num, unsigned int index,
		       enum sv_gid_type_sysfs *type)
{
	if (context == NULL || type == NULL || port_num != 1 || index != 0) {
		errno = EINVAL;
		return -1;
	}
	*type = SV_GID_TYPE_SYSFS_ROCE_V2;
	return 0;
}

/* The one GID (index 0) as a table entry: RoCE v2 (UDP), the only kind the soft NIC speaks. */
int _ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num, uint32_t gid_index,
		      struct ibv_gid_entry *entry, uint32_t flags, size_t entry_size)
{
	if (context == NULL || entry == NULL || flags != 0 || entry_size < sizeof(*entry) || port_num != 1)
		return EINVAL;
	if (gid_index != 0)
		return ENODATA; /* as rdma-core for an empty entry */
	memset(entry, 0, sizeof(*entry));
	(void)ibv_query_gid(context, 1, 0, &entry->gid);
	entry->port_num = 1;
	entry->gid_type = IBV_GID_TYPE_ROCE_V2;
	return 0;
}

ssize_t _ibv_query_gid_table(struct ibv_context *context, struct ibv_gid_entry *entries, size_t max_entries,
			     uint32_t flags, size_t entry_size)
{
	int err;

	if (max_entries == 0)
		return -EINVAL;
	err = _ibv_query_gid_ex(context, 1, 0, entries, flags, entry_size);
	return err != 0 ? -err : 1;
}

int ibv_query_pkey(struct ibv_context *context, uint8_t port_num, int index, __be16 *pkey)
{
	if (context == NULL || pkey == NULL || port_num != 1 || index != 0)
		return EINVAL;
	*pkey = htobe16(0xffff);
	return 0;
}

/* The index of a P_Key in the port's table (one entry, 0xffff at 0), or -1. */
int ibv_get_pkey_index(struct ibv_context *context, uint8_t port_num, __be16 pkey)
{
	__be16 p;
	int i;

	for (i = 0; ibv_query_pkey(context, port_num, i, &p) == 0; i++)
		if (p == pkey)
			return i;
	errno = i == 0 ? EINVAL : ENOENT; /* no such port (or context), or not in its table */
	return -1;
}

struct ibv_pd *ibv_alloc_pd(struct ibv_context *context)
{
	struct sv_pd *pd;

	if (context == NULL) {
		errno = EINVAL;
		return NULL;
	}
	pd = calloc(1, sizeof(*pd));
	if (pd == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	_Static_assert(offsetof(struct sv_pd, tag) == SOFTDOCA_VERBS_TAG_OFFSET, "the tag follows the ibv_pd");
	_Static_assert(offsetof(struct ibv_pd, handle) == SOFTDOCA_VERBS_PD_HANDLE_OFFSET, "the handle says ours");
	pd->pub.context = context;
	pd->pub.handle = SOFTDOCA_VERBS_PD_HANDLE; /* (no kernel object: nobody else reads it) */
	pd->tag.magic = SOFTDOCA_VERBS_TAG_MAGIC;
	pd->tag.devinfo = sv_ctx_of(context)->dev->devinfo;
	return &pd->pub;
}

int ibv_dealloc_pd(struct ibv_pd *pd)
{
	if (pd == NULL)
		return EINVAL;
	pthread_mutex_lock(&sv.lock);
	for (struct sv_mr *m = sv.mrs; m != NULL; m = m->next)
		if (m->pub.pd == pd) {
			pthread_mutex_unlock(&sv.lock);
			return EBUSY;
		}
	pthread_mutex_unlock(&sv.lock);
	free(pd);
	return 0;
}
