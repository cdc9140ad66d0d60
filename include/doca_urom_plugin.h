/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_urom_plugin.h — DOCA UROM worker plugin interface (pkg-config doca-urom), from
 * the DOCA interface facts: the structures a UROM worker plugin (a shared object loaded by the
 * worker on the DPU) exchanges with the worker, and the worker's domain look-ups. The command and
 * notification descriptors are UCX list entries: with UCX's headers installed they come from
 * UCX; without them an identical two-pointer link is declared here, so the header (and softdoca)
 * builds without UCX. softdoca runs no UROM worker (docs/compatibility.md).
 */
#ifndef SOFTDOCA_DOCA_UROM_PLUGIN_H
#define SOFTDOCA_DOCA_UROM_PLUGIN_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__has_include)
#if __has_include(<ucs/datastruct/list.h>)
#include <ucs/datastruct/list.h>
#define SOFTDOCA_UROM_HAVE_UCX 1
#endif
#endif

#include "doca_compat.h"
#include "doca_error.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef SOFTDOCA_UROM_HAVE_UCX
/* UCX's list link (prev, next), for programs built without UCX's headers */
typedef struct ucs_list_link {
	struct ucs_list_link *prev;
	struct ucs_list_link *next;
} ucs_list_link_t;
#endif

#define DOCA_UROM_PLUGIN_NAME_MAX_LEN 48

struct urom_worker_ctx;

/* a plugin a UROM service offers: the id to send its commands to, its version, its .so name */
struct doca_urom_service_plugin_info {
	uint64_t id;
	uint64_t version;
	char plugin_name[DOCA_UROM_PLUGIN_NAME_MAX_LEN];
};

/* a command for a plugin: the plugin's id, UROM's own context, the plugin's bytes */
struct urom_worker_cmd {
	uint64_t type;
	uint64_t urom_context;
	uint64_t len;
	uint8_t plugin_cmd[];
};

#ifdef __clang__
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wflexible-array-extensions"
#endif

struct urom_worker_cmd_desc {
	ucs_list_link_t entry;
	uint64_t dest_id;
	struct urom_worker_cmd worker_cmd;
};

/* a plugin's answer; urom_context repeats the command's */
struct urom_worker_notify {
	uint64_t type;
	uint64_t urom_context;
	uint64_t len;
	doca_error_t status;
	uint32_t reserved;
	uint8_t plugin_notif[];
};

struct urom_worker_notif_desc {
	ucs_list_link_t entry;
	uint64_t dest_id;
	struct urom_worker_notify worker_notif;
};

#ifdef __clang__
#pragma clang diagnostic pop
#endif

/* what a plugin gives the worker */
struct urom_plugin_iface {
	DOCA_STRUCT_START;
	doca_error_t (*open)(struct urom_worker_ctx *ctx);
	void (*close)(struct urom_worker_ctx *ctx);
	doca_error_t (*addr)(struct urom_worker_ctx *ctx, void *addr, size_t *addr_len);
	/* takes the urom_worker_cmd_desc entries off cmd_list and frees them */
	doca_error_t (*worker_cmd)(struct urom_worker_ctx *ctx, ucs_list_link_t *cmd_list);
	/* appends urom_worker_notif_desc entries to notif_list; DOCA_ERROR_EMPTY when there are none */
	doca_error_t (*progress)(struct urom_worker_ctx *ctx, ucs_list_link_t *notif_list);
	doca_error_t (*notif_pack)(struct urom_worker_notify *notif, size_t *packed_notif_len, void *packed_notif);
};

/* what the worker gives a plugin: look-ups in the domain the worker belongs to */
struct urom_domain_lookups_iface {
	doca_error_t (*addr_lookup)(struct urom_worker_ctx *ctx, uint64_t domain_id, void **addr);
	doca_error_t (*seg_lookup)(struct urom_worker_ctx *ctx, uint64_t domain_id, uint64_t va, int *seg);
	doca_error_t (*memh_lookup)(struct urom_worker_ctx *ctx, uint64_t domain_id, int seg, size_t *len, void **memh);
	doca_error_t (*mkey_lookup)(struct urom_worker_ctx *ctx, uint64_t domain_id, int seg, size_t *len, void **rkey);
};

struct urom_worker_ctx {
	struct urom_plugin_iface iface;
	struct urom_domain_lookups_iface domain_iface;
	void *plugin_ctx;
};

/* the look-ups are inline calls through the worker's interface, as in DOCA */
static inline doca_error_t doca_urom_worker_domain_addr_lookup(struct urom_worker_ctx *ctx, uint64_t domain_id, void **addr)
{
	return ctx->domain_iface.addr_lookup(ctx, domain_id, addr);
}

static inline doca_error_t doca_urom_worker_domain_seg_lookup(struct urom_worker_ctx *ctx, uint64_t domain_id, uint64_t va, int *seg)
{
	return ctx->domain_iface.seg_lookup(ctx, domain_id, va, seg);
}

static inline doca_error_t doca_urom_worker_domain_memh_lookup(struct urom_worker_ctx *ctx, uint64_t domain_id, int seg, size_t *len, void **memh)
{
	return ctx->domain_iface.memh_lookup(ctx, domain_id, seg, len, memh);
}

static inline doca_error_t doca_urom_worker_domain_mkey_lookup(struct urom_worker_ctx *ctx, uint64_t domain_id, int seg, size_t *len, void **rkey)
{
	return ctx->domain_iface.mkey_lookup(ctx, domain_id, seg, len, rkey);
}

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_UROM_PLUGIN_H */
