/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_graph.h and doca_mmap_advise.h (DOCA 3.0 Doxygen facts), doca_clock.h (DOCA 3.3) and the
 * buf inventory reuse functions: each prototype declared again after our headers, so that any
 * difference in return or parameter types fails the build of this test; the DOCA_CLOCK_*
 * values and the callback types are checked at compile time too.
 */
#include "doca_buf_inventory.h"
#include "doca_clock.h"
#include "doca_graph.h"
#include "doca_mmap_advise.h"
#include "test.h"

/* doca_graph.h */
doca_error_t doca_graph_create(struct doca_pe *pe, struct doca_graph **graph);
doca_error_t doca_graph_destroy(struct doca_graph *graph);
doca_error_t doca_graph_set_conf(struct doca_graph *graph, doca_graph_completion_cb_t graph_completion_cb,
				 doca_graph_completion_cb_t graph_error_cb, uint32_t num_instances);
doca_error_t doca_graph_set_user_data(struct doca_graph *graph, union doca_data user_data);
doca_error_t doca_graph_get_user_data(const struct doca_graph *graph, union doca_data *user_data);
doca_error_t doca_graph_node_create_from_ctx(struct doca_graph *graph, const struct doca_ctx *ctx,
					     struct doca_graph_node **node);
doca_error_t doca_graph_node_create_from_user(struct doca_graph *graph, doca_graph_user_node_cb_t cb,
					      struct doca_graph_node **node);
doca_error_t doca_graph_node_create_from_graph(struct doca_graph *graph, struct doca_graph *sub_graph,
					       struct doca_graph_node **node);
doca_error_t doca_graph_add_dependency(struct doca_graph *graph, struct doca_graph_node *from,
				       struct doca_graph_node *to);
doca_error_t doca_graph_start(struct doca_graph *graph);
doca_error_t doca_graph_stop(struct doca_graph *graph);
doca_error_t doca_graph_instance_create(const struct doca_graph *graph, struct doca_graph_instance **graph_instance);
doca_error_t doca_graph_instance_destroy(struct doca_graph_instance *graph_instance);
doca_error_t doca_graph_instance_set_user_data(struct doca_graph_instance *graph_instance, union doca_data user_data);
doca_error_t doca_graph_instance_get_user_data(const struct doca_graph_instance *graph_instance,
					       union doca_data *user_data);
doca_error_t doca_graph_instance_set_ctx_node_data(struct doca_graph_instance *graph_instance,
						   struct doca_graph_node *node, struct doca_task *task);
doca_error_t doca_graph_instance_set_user_node_data(struct doca_graph_instance *graph_instance,
						    struct doca_graph_node *node, void *cookie);
doca_error_t doca_graph_instance_set_sub_graph_node_data(struct doca_graph_instance *graph_instance,
							 struct doca_graph_node *node,
							 struct doca_graph_instance *sub_graph_instance);
doca_error_t doca_graph_instance_submit(struct doca_graph_instance *graph_instance);
typedef void (*doca_graph_completion_cb_t)(struct doca_graph_instance *instance, union doca_data instance_user_data,
					   union doca_data graph_user_data);
typedef doca_error_t (*doca_graph_user_node_cb_t)(void *cookie);

/* doca_mmap_advise.h */
doca_error_t doca_mmap_advise_create(struct doca_dev *dev, struct doca_mmap_advise **mmap_advise);
doca_error_t doca_mmap_advise_destroy(struct doca_mmap_advise *mmap_advise);
struct doca_ctx *doca_mmap_advise_as_ctx(struct doca_mmap_advise *mmap_advise);
doca_error_t doca_mmap_advise_cap_task_cache_invalidate_is_supported(const struct doca_devinfo *devinfo);
doca_error_t doca_mmap_advise_task_cache_invalidate_get_max_buf_size(const struct doca_devinfo *devinfo,
								   uint64_t *buf_size);
doca_error_t doca_mmap_advise_task_invalidate_cache_set_conf(
	struct doca_mmap_advise *mmap_advise, doca_mmap_advise_task_invalidate_cache_completion_cb_t completion_cb,
	doca_mmap_advise_task_invalidate_cache_completion_cb_t error_cb, uint32_t num_tasks);
doca_error_t doca_mmap_advise_task_invalidate_cache_alloc_init(struct doca_mmap_advise *mmap_advise,
							       struct doca_buf *buf, union doca_data user_data,
							       struct doca_mmap_advise_task_invalidate_cache **task);
struct doca_task *doca_mmap_advise_task_invalidate_cache_as_doca_task(struct doca_mmap_advise_task_invalidate_cache *task);
void doca_mmap_advise_task_invalidate_cache_set_buf(struct doca_mmap_advise_task_invalidate_cache *task,
						    struct doca_buf *buf);
struct doca_buf *doca_mmap_advise_task_invalidate_cache_get_buf(const struct doca_mmap_advise_task_invalidate_cache *task);
typedef void (*doca_mmap_advise_task_invalidate_cache_completion_cb_t)(
	struct doca_mmap_advise_task_invalidate_cache *task, union doca_data task_user_data,
	union doca_data ctx_user_data);

/* doca_clock.h (3.3) */
doca_error_t doca_clock_cap_nic_free_running_is_supported(const struct doca_devinfo *devinfo);
doca_error_t doca_clock_cap_nic_real_time_is_supported(const struct doca_devinfo *devinfo);
doca_error_t doca_clock_cap_nic_dpa_timer_is_supported(const struct doca_devinfo *devinfo);
doca_error_t doca_clock_create(const struct doca_dev *dev, struct doca_clock **clock);
doca_error_t doca_clock_destroy(struct doca_clock *clock);
doca_error_t doca_clock_get_timestamp(const struct doca_clock *clock, uint64_t clock_type,
				      union doca_clock_timespec_t *clock_ts);
doca_error_t doca_clock_get_crosstimestamp(const struct doca_clock *clock, uint64_t primary_clock_type,
					   uint64_t nic_clock_type, union doca_clock_timespec_t *primary_clock_ts,
					   union doca_clock_timespec_t *nic_clock_ts, uint64_t *error_margin_nsecs);
_Static_assert(DOCA_CLOCK_NIC_FREE_RUNNING == 0x1, "DOCA_CLOCK_NIC_FREE_RUNNING");
_Static_assert(DOCA_CLOCK_NIC_REAL_TIME == 0x2, "DOCA_CLOCK_NIC_REAL_TIME");
_Static_assert(DOCA_CLOCK_NIC_DPA_TIMER == 0x100, "DOCA_CLOCK_NIC_DPA_TIMER");
_Static_assert(DOCA_CLOCK_HOST_COUNTER_CYCLES == 0x10000, "DOCA_CLOCK_HOST_COUNTER_CYCLES");
_Static_assert(DOCA_CLOCK_HOST_REAL_TIME == 0x20000, "DOCA_CLOCK_HOST_REAL_TIME");
_Static_assert(DOCA_CLOCK_HOST_MONOTONIC == 0x40000, "DOCA_CLOCK_HOST_MONOTONIC");
_Static_assert(DOCA_CLOCK_HOST_MONOTONIC_RAW == 0x80000, "DOCA_CLOCK_HOST_MONOTONIC_RAW");
_Static_assert(sizeof(union doca_clock_timespec_t) == sizeof(struct timespec), "doca_clock_timespec_t");

/* doca_buf_inventory.h, 3.1+ ([inferred] from their use) */
doca_error_t doca_buf_inventory_buf_reuse_by_args(struct doca_buf *buf, void *addr, size_t len, void *data,
						  size_t data_len);
doca_error_t doca_buf_inventory_buf_reuse_by_addr(struct doca_buf *buf, void *addr, size_t len);
doca_error_t doca_buf_inventory_buf_reuse_by_data(struct doca_buf *buf, void *data, size_t data_len);

int main(void)
{
	/* The checks above are compile-time; count them so the run reports what was checked. */
	test_checks = 50;
	TEST_EXIT();
}
