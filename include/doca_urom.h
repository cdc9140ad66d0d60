/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * softdoca: doca_urom.h — DOCA UROM (pkg-config doca-urom), declarations from the DOCA interface
 * facts. UROM offloads work to worker processes on the DPU that a UROM service (a daemon there)
 * spawns; softdoca has no UROM service, so the library is a stub: every call returns
 * DOCA_ERROR_NOT_SUPPORTED, NULL / 0 or nothing (docs/compatibility.md). The CPU set type is
 * UCX's when UCX's headers are installed (as in DOCA), else a structure of the same layout.
 */
#ifndef SOFTDOCA_DOCA_UROM_H
#define SOFTDOCA_DOCA_UROM_H

#include <stddef.h>
#include <stdint.h>

#include "doca_compat.h"
#include "doca_error.h"
#include "doca_types.h"
#include "doca_urom_plugin.h"

#ifdef SOFTDOCA_UROM_HAVE_UCX
#include <ucs/type/cpu_set.h>
typedef ucs_cpu_set_t doca_cpu_set_t;
#define DOCA_CPU_ZERO(_cpusetp) UCS_CPU_ZERO(_cpusetp)
#define DOCA_CPU_SET(_cpu, _cpusetp) UCS_CPU_SET(_cpu, _cpusetp)
#define doca_cpu_is_set(_cpu, _cpusetp) ucs_cpu_is_set(_cpu, _cpusetp)
#else
/* UCX's CPU set: 1024 bits in unsigned longs */
#define SOFTDOCA_UROM_NCPUBITS (8 * sizeof(unsigned long))
typedef struct {
	unsigned long ucs_bits[1024 / (8 * sizeof(unsigned long))];
} doca_cpu_set_t;
#define DOCA_CPU_ZERO(_cpusetp) \
	do { \
		for (size_t i_ = 0; i_ < sizeof((_cpusetp)->ucs_bits) / sizeof((_cpusetp)->ucs_bits[0]); i_++) \
			(_cpusetp)->ucs_bits[i_] = 0; \
	} while (0)
#define DOCA_CPU_SET(_cpu, _cpusetp) \
	((_cpusetp)->ucs_bits[(_cpu) / SOFTDOCA_UROM_NCPUBITS] |= (1UL << ((_cpu) % SOFTDOCA_UROM_NCPUBITS)))
#define doca_cpu_is_set(_cpu, _cpusetp) \
	(((_cpusetp)->ucs_bits[(_cpu) / SOFTDOCA_UROM_NCPUBITS] >> ((_cpu) % SOFTDOCA_UROM_NCPUBITS)) & 1UL)
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct doca_buf;
struct doca_ctx;
struct doca_dev;
struct doca_task;

/* Service: manages the workers on one DOCA device (a DOCA context) */
struct doca_urom_service;
struct doca_urom_service_get_workers_by_gid_task;
typedef void (*doca_urom_service_get_workers_by_gid_task_completion_cb_t)(struct doca_urom_service_get_workers_by_gid_task *task, union doca_data task_user_data, union doca_data ctx_user_data);

DOCA_EXPERIMENTAL doca_error_t doca_urom_service_create(struct doca_urom_service **service_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_urom_service_destroy(struct doca_urom_service *service_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_urom_service_set_max_comm_msg_size(struct doca_urom_service *service_ctx, size_t msg_size);
DOCA_EXPERIMENTAL doca_error_t doca_urom_service_set_max_workers(struct doca_urom_service *service_ctx, uint32_t max_workers);
DOCA_EXPERIMENTAL doca_error_t doca_urom_service_set_dev(struct doca_urom_service *service_ctx, struct doca_dev *dev);
DOCA_EXPERIMENTAL struct doca_ctx *doca_urom_service_as_ctx(struct doca_urom_service *service_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_urom_service_get_plugins_list(struct doca_urom_service *service_ctx, const struct doca_urom_service_plugin_info **plugins, size_t *plugins_count);
DOCA_EXPERIMENTAL doca_error_t doca_urom_service_get_cpuset(struct doca_urom_service *service_ctx, doca_cpu_set_t *cpuset);
DOCA_EXPERIMENTAL doca_error_t doca_urom_service_get_workers_by_gid_task_allocate(struct doca_urom_service *service_ctx, struct doca_urom_service_get_workers_by_gid_task **task);
DOCA_EXPERIMENTAL doca_error_t doca_urom_service_get_workers_by_gid_task_allocate_init(struct doca_urom_service *service_ctx, uint32_t gid, doca_urom_service_get_workers_by_gid_task_completion_cb_t cb, struct doca_urom_service_get_workers_by_gid_task **task);
DOCA_EXPERIMENTAL doca_error_t doca_urom_service_get_workers_by_gid_task_release(struct doca_urom_service_get_workers_by_gid_task *task);
DOCA_EXPERIMENTAL void doca_urom_service_get_workers_by_gid_task_set_gid(struct doca_urom_service_get_workers_by_gid_task *task, uint32_t gid);
DOCA_EXPERIMENTAL void doca_urom_service_get_workers_by_gid_task_set_cb(struct doca_urom_service_get_workers_by_gid_task *task, doca_urom_service_get_workers_by_gid_task_completion_cb_t cb);
DOCA_EXPERIMENTAL struct doca_task *doca_urom_service_get_workers_by_gid_task_as_task(struct doca_urom_service_get_workers_by_gid_task *task);
DOCA_EXPERIMENTAL size_t doca_urom_service_get_workers_by_gid_task_get_workers_count(struct doca_urom_service_get_workers_by_gid_task *task);
DOCA_EXPERIMENTAL const uint64_t *doca_urom_service_get_workers_by_gid_task_get_worker_ids(struct doca_urom_service_get_workers_by_gid_task *task);

/* Worker: a process on the DPU that runs plugins (a DOCA context) */
struct doca_urom_worker;
struct doca_urom_worker_cmd_task;
typedef void (*doca_urom_worker_cmd_task_completion_cb_t)(struct doca_urom_worker_cmd_task *task, union doca_data task_user_data, union doca_data ctx_user_data);

/* let the service pick the worker's id */
#define DOCA_UROM_WORKER_ID_ANY -1ULL

DOCA_EXPERIMENTAL doca_error_t doca_urom_worker_create(struct doca_urom_worker **worker_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_urom_worker_destroy(struct doca_urom_worker *worker_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_urom_worker_set_service(struct doca_urom_worker *worker_ctx, struct doca_urom_service *service_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_urom_worker_set_id(struct doca_urom_worker *worker_ctx, uint64_t worker_id);
/* plugins: a bit mask of plugin ids */
DOCA_EXPERIMENTAL doca_error_t doca_urom_worker_set_plugins(struct doca_urom_worker *worker_ctx, uint64_t plugins);
DOCA_EXPERIMENTAL doca_error_t doca_urom_worker_set_cpuset(struct doca_urom_worker *worker_ctx, doca_cpu_set_t cpuset);
DOCA_EXPERIMENTAL doca_error_t doca_urom_worker_set_gid(struct doca_urom_worker *worker_ctx, uint32_t gid);
DOCA_EXPERIMENTAL doca_error_t doca_urom_worker_set_max_inflight_tasks(struct doca_urom_worker *worker_ctx, uint32_t max_tasks);
/* env: count "name=value" strings for the worker's environment */
DOCA_EXPERIMENTAL doca_error_t doca_urom_worker_set_env(struct doca_urom_worker *worker_ctx, char *const env[], size_t count);
DOCA_EXPERIMENTAL doca_error_t doca_urom_worker_get_id(struct doca_urom_worker *worker_ctx, uint64_t *worker_id);
DOCA_EXPERIMENTAL doca_error_t doca_urom_worker_get_gid(struct doca_urom_worker *worker_ctx, uint32_t *worker_gid);
DOCA_EXPERIMENTAL struct doca_ctx *doca_urom_worker_as_ctx(struct doca_urom_worker *worker_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_urom_worker_cmd_task_allocate(struct doca_urom_worker *worker_ctx, struct doca_urom_worker_cmd_task **task);
DOCA_EXPERIMENTAL doca_error_t doca_urom_worker_cmd_task_allocate_init(struct doca_urom_worker *worker_ctx, uint64_t plugin, struct doca_urom_worker_cmd_task **task);
DOCA_EXPERIMENTAL doca_error_t doca_urom_worker_cmd_task_release(struct doca_urom_worker_cmd_task *task);
DOCA_EXPERIMENTAL void doca_urom_worker_cmd_task_set_plugin(struct doca_urom_worker_cmd_task *task, uint64_t plugin);
DOCA_EXPERIMENTAL void doca_urom_worker_cmd_task_set_cb(struct doca_urom_worker_cmd_task *task, doca_urom_worker_cmd_task_completion_cb_t cb);
DOCA_EXPERIMENTAL struct doca_buf *doca_urom_worker_cmd_task_get_payload(struct doca_urom_worker_cmd_task *task);
DOCA_EXPERIMENTAL struct doca_buf *doca_urom_worker_cmd_task_get_response(struct doca_urom_worker_cmd_task *task);
/* up to 32 bytes of the caller's own */
DOCA_EXPERIMENTAL void *doca_urom_worker_cmd_task_get_user_data(struct doca_urom_worker_cmd_task *task);
DOCA_EXPERIMENTAL struct doca_task *doca_urom_worker_cmd_task_as_task(struct doca_urom_worker_cmd_task *task);

/* Domain: workers that exchange memory descriptors through the caller's out-of-band allgather */
struct doca_urom_domain;
typedef doca_error_t (*doca_urom_domain_allgather_cb_t)(void *sbuf, void *rbuf, size_t msglen, void *coll_info, void **req);
typedef doca_error_t (*doca_urom_domain_req_test_cb_t)(void *req);
typedef doca_error_t (*doca_urom_domain_req_free_cb_t)(void *req);

struct doca_urom_domain_oob_coll {
	doca_urom_domain_allgather_cb_t allgather;
	doca_urom_domain_req_test_cb_t req_test;
	doca_urom_domain_req_free_cb_t req_free;
	void *coll_info;
	/* number of participants, and this one's place among them (its block in rbuf) */
	uint32_t n_oob_indexes;
	uint32_t oob_index;
};

DOCA_EXPERIMENTAL doca_error_t doca_urom_domain_create(struct doca_urom_domain **domain_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_urom_domain_destroy(struct doca_urom_domain *domain_ctx);
DOCA_EXPERIMENTAL doca_error_t doca_urom_domain_set_buffers_count(struct doca_urom_domain *domain_ctx, size_t buffers_cnt);
DOCA_EXPERIMENTAL doca_error_t doca_urom_domain_add_buffer(struct doca_urom_domain *domain_ctx, void *buffer, size_t buf_len, void *memh, size_t memh_len, void *mkey, size_t mkey_len);
DOCA_EXPERIMENTAL doca_error_t doca_urom_domain_set_oob(struct doca_urom_domain *domain_ctx, struct doca_urom_domain_oob_coll *oob);
DOCA_EXPERIMENTAL doca_error_t doca_urom_domain_set_workers(struct doca_urom_domain *domain_ctx, uint64_t *domain_worker_ids, struct doca_urom_worker **workers, size_t workers_cnt);
DOCA_EXPERIMENTAL struct doca_ctx *doca_urom_domain_as_ctx(struct doca_urom_domain *domain_ctx);

#ifdef __cplusplus
}
#endif

#endif /* SOFTDOCA_DOCA_UROM_H */
