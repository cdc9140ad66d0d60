/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A doca_graph of three nodes, run as 10 instances at once:
 *
 *     DMA copy 0     DMA copy 1        two context nodes: one source, two destinations
 *           \           /
 *            user node                  compares both destinations with the source
 *
 * The DMA tasks' own callbacks never run (a graph's tasks report to the graph); the graph's
 * completion callback counts instances, its error callback counts failures. Every instance
 * must succeed, the user node must see both copies right, and no task callback may run.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <doca_buf.h>
#include <doca_buf_inventory.h>
#include <doca_ctx.h>
#include <doca_dma.h>
#include <doca_graph.h>
#include <doca_log.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#include "common.h"
#include "pe_common.h"

DOCA_LOG_REGISTER(GRAPH::SAMPLE);

#define NUM_DMA_NODES 2
#define NUM_GRAPH_INSTANCES 10
#define DMA_BUFFER_SIZE 1024
/* Each instance takes a source and one destination per DMA node out of one buffer */
#define INSTANCE_BYTES (DMA_BUFFER_SIZE * (1 + NUM_DMA_NODES))
#define BUFFER_SIZE (INSTANCE_BYTES * NUM_GRAPH_INSTANCES)
#define BUF_INVENTORY_SIZE ((1 + NUM_DMA_NODES) * NUM_GRAPH_INSTANCES)
#define STALL_TIMEOUT_SEC 20

/* What one instance runs on; it outlives the instance (tasks must). */
struct instance_data {
	uint32_t index;
	struct doca_graph_instance *instance;
	struct doca_buf *source;
	uint8_t *source_addr;
	struct doca_dma_task_memcpy *task[NUM_DMA_NODES];
	struct doca_buf *dest[NUM_DMA_NODES];
	uint8_t *dest_addr[NUM_DMA_NODES];
};

struct graph_sample_state {
	uint8_t *buffer;
	uint8_t *next_free; /* first byte of buffer not handed out yet */
	struct doca_dev *device;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *inventory;
	struct doca_pe *pe;
	struct doca_dma *dma[NUM_DMA_NODES];
	struct doca_ctx *ctx[NUM_DMA_NODES];

	struct doca_graph *graph;
	struct doca_graph_node *dma_node[NUM_DMA_NODES];
	struct doca_graph_node *user_node;
	struct instance_data instances[NUM_GRAPH_INSTANCES];

	uint32_t num_completed; /* instances that came back, either way */
	uint32_t num_failed;	/* ... through the error callback */
	uint32_t num_task_callbacks; /* DMA task callbacks: a graph's tasks must not call them */
};

static doca_error_t check_dev_dma_capable(struct doca_devinfo *devinfo)
{
	return doca_dma_cap_task_memcpy_is_supported(devinfo);
}

/* The DMA tasks must have callbacks to be configured; a graph's tasks never call them. */
static void dma_task_callback(struct doca_dma_task_memcpy *task, union doca_data task_user_data,
			      union doca_data ctx_user_data)
{
	struct graph_sample_state *state = ctx_user_data.ptr;

	(void)task;
	(void)task_user_data;
	state->num_task_callbacks++;
}

static doca_error_t create_core_objects_for_graph(struct graph_sample_state *state)
{
	DOCA_LOG_INFO("Allocating buffer");
	state->buffer = malloc(BUFFER_SIZE);
	if (state->buffer == NULL)
		return DOCA_ERROR_NO_MEMORY;
	state->next_free = state->buffer;

	DOCA_LOG_INFO("Opening device");
	EXIT_ON_FAILURE(open_doca_device_with_capabilities(check_dev_dma_capable, &state->device));

	DOCA_LOG_INFO("Creating MMAP");
	EXIT_ON_FAILURE(doca_mmap_create(&state->mmap));
	EXIT_ON_FAILURE(doca_mmap_set_memrange(state->mmap, state->buffer, BUFFER_SIZE));
	EXIT_ON_FAILURE(doca_mmap_add_dev(state->mmap, state->device));
	EXIT_ON_FAILURE(doca_mmap_set_permissions(state->mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE));
	EXIT_ON_FAILURE(doca_mmap_start(state->mmap));

	DOCA_LOG_INFO("Creating buf inventory");
	EXIT_ON_FAILURE(doca_buf_inventory_create(BUF_INVENTORY_SIZE, &state->inventory));
	EXIT_ON_FAILURE(doca_buf_inventory_start(state->inventory));

	DOCA_LOG_INFO("Creating progress engine");
	EXIT_ON_FAILURE(doca_pe_create(&state->pe));
	return DOCA_SUCCESS;
}

/* Two DMA contexts on the PE, each with a task per instance, then started. */
static doca_error_t create_and_start_dmas(struct graph_sample_state *state)
{
	union doca_data ctx_user_data = {.ptr = state};

	for (uint32_t i = 0; i < NUM_DMA_NODES; i++) {
		struct doca_ctx *ctx;

		DOCA_LOG_INFO("Creating DMA %u", i);
		EXIT_ON_FAILURE(doca_dma_create(state->device, &state->dma[i]));
		ctx = doca_dma_as_ctx(state->dma[i]);
		EXIT_ON_FAILURE(doca_pe_connect_ctx(state->pe, ctx));
		EXIT_ON_FAILURE(doca_ctx_set_user_data(ctx, ctx_user_data));
		EXIT_ON_FAILURE(doca_dma_task_memcpy_set_conf(state->dma[i], dma_task_callback, dma_task_callback,
							      NUM_GRAPH_INSTANCES));
		state->ctx[i] = ctx;
	}

	/* A graph starts only once the contexts of its nodes run */
	DOCA_LOG_INFO("Starting contexts");
	for (uint32_t i = 0; i < NUM_DMA_NODES; i++)
		EXIT_ON_FAILURE(doca_ctx_start(state->ctx[i]));
	return DOCA_SUCCESS;
}

/* The user node: both destinations must now hold the source. */
static doca_error_t compare_copies(void *cookie)
{
	struct instance_data *inst = cookie;

	DOCA_LOG_INFO("Instance %u user callback", inst->index);
	for (uint32_t i = 0; i < NUM_DMA_NODES; i++) {
		size_t len = 0;

		EXIT_ON_FAILURE(doca_buf_get_data_len(inst->dest[i], &len));
		if (len != DMA_BUFFER_SIZE) {
			DOCA_LOG_ERR("DMA destination buffer length %zu should be %d", len, DMA_BUFFER_SIZE);
			return DOCA_ERROR_BAD_STATE;
		}
		if (memcmp(inst->dest_addr[i], inst->source_addr, len) != 0) {
			DOCA_LOG_ERR("DMA source and destination mismatch");
			return DOCA_ERROR_BAD_STATE;
		}
	}
	return DOCA_SUCCESS;
}

static void instance_completed(struct doca_graph_instance *instance, union doca_data instance_user_data,
			       union doca_data graph_user_data)
{
	struct graph_sample_state *state = graph_user_data.ptr;

	(void)instance;
	(void)instance_user_data;
	state->num_completed++;
}

static void instance_failed(struct doca_graph_instance *instance, union doca_data instance_user_data,
			    union doca_data graph_user_data)
{
	struct graph_sample_state *state = graph_user_data.ptr;
	const struct instance_data *inst = instance_user_data.ptr;

	(void)instance;
	DOCA_LOG_ERR("Graph instance %u failed", inst->index);
	state->num_completed++;
	state->num_failed++;
}

/* Nodes first, then dependencies; a node is a root until something points to it. */
static doca_error_t create_graph(struct graph_sample_state *state)
{
	union doca_data graph_user_data = {.ptr = state};

	DOCA_LOG_INFO("Creating graph");
	EXIT_ON_FAILURE(doca_graph_create(state->pe, &state->graph));
	EXIT_ON_FAILURE(doca_graph_node_create_from_user(state->graph, compare_copies, &state->user_node));
	for (uint32_t i = 0; i < NUM_DMA_NODES; i++) {
		EXIT_ON_FAILURE(doca_graph_node_create_from_ctx(state->graph, state->ctx[i], &state->dma_node[i]));
		EXIT_ON_FAILURE(doca_graph_add_dependency(state->graph, state->dma_node[i], state->user_node));
	}
	EXIT_ON_FAILURE(doca_graph_set_conf(state->graph, instance_completed, instance_failed, NUM_GRAPH_INSTANCES));
	EXIT_ON_FAILURE(doca_graph_set_user_data(state->graph, graph_user_data));
	/* Start checks the graph (a context node, running contexts); no node can be added after */
	EXIT_ON_FAILURE(doca_graph_start(state->graph));
	return DOCA_SUCCESS;
}

/* Instance i: a source full of the byte i + 1, two empty destinations, a task per DMA node. */
static doca_error_t create_instance(struct graph_sample_state *state, uint32_t index)
{
	struct instance_data *inst = &state->instances[index];
	union doca_data instance_user_data = {.ptr = inst};

	inst->index = index;
	EXIT_ON_FAILURE(doca_graph_instance_create(state->graph, &inst->instance));

	inst->source_addr = state->next_free;
	memset(inst->source_addr, (int)(index + 1), DMA_BUFFER_SIZE);
	EXIT_ON_FAILURE(doca_buf_inventory_buf_get_by_data(state->inventory, state->mmap, inst->source_addr,
							   DMA_BUFFER_SIZE, &inst->source));
	state->next_free += DMA_BUFFER_SIZE;

	for (uint32_t i = 0; i < NUM_DMA_NODES; i++) {
		inst->dest_addr[i] = state->next_free;
		memset(inst->dest_addr[i], 0, DMA_BUFFER_SIZE);
		EXIT_ON_FAILURE(doca_buf_inventory_buf_get_by_addr(state->inventory, state->mmap, inst->dest_addr[i],
								   DMA_BUFFER_SIZE, &inst->dest[i]));
		state->next_free += DMA_BUFFER_SIZE;
		EXIT_ON_FAILURE(doca_dma_task_memcpy_alloc_init(state->dma[i], inst->source, inst->dest[i],
								(union doca_data){.u64 = 0}, &inst->task[i]));
		EXIT_ON_FAILURE(doca_graph_instance_set_ctx_node_data(inst->instance, state->dma_node[i],
								      doca_dma_task_memcpy_as_task(inst->task[i])));
	}
	/* The user node gets the whole instance as its cookie */
	EXIT_ON_FAILURE(doca_graph_instance_set_user_node_data(inst->instance, state->user_node, inst));
	EXIT_ON_FAILURE(doca_graph_instance_set_user_data(inst->instance, instance_user_data));
	return DOCA_SUCCESS;
}

static doca_error_t create_and_submit_instances(struct graph_sample_state *state)
{
	DOCA_LOG_INFO("Creating graph instances");
	for (uint32_t i = 0; i < NUM_GRAPH_INSTANCES; i++)
		EXIT_ON_FAILURE(create_instance(state, i));

	DOCA_LOG_INFO("Submitting all graph instances");
	for (uint32_t i = 0; i < NUM_GRAPH_INSTANCES; i++)
		EXIT_ON_FAILURE(doca_graph_instance_submit(state->instances[i].instance));
	return DOCA_SUCCESS;
}

/* Progress the PE until every instance came back (or it stays silent too long). */
static doca_error_t wait_for_instances(struct graph_sample_state *state)
{
	static const struct timespec idle = {.tv_sec = 0, .tv_nsec = 10 * 1000};
	time_t last_progress = time(NULL);

	DOCA_LOG_INFO("Waiting until all instances are complete");
	while (state->num_completed < NUM_GRAPH_INSTANCES) {
		if (doca_pe_progress(state->pe) != 0) {
			last_progress = time(NULL);
			continue;
		}
		if (time(NULL) - last_progress > STALL_TIMEOUT_SEC) {
			DOCA_LOG_ERR("The PE made no progress for %d s with %u of %d instances complete",
				     STALL_TIMEOUT_SEC, state->num_completed, NUM_GRAPH_INSTANCES);
			return DOCA_ERROR_TIME_OUT;
		}
		nanosleep(&idle, NULL);
	}
	DOCA_LOG_INFO("All instances completed");

	if (state->num_failed != 0 || state->num_task_callbacks != 0) {
		DOCA_LOG_ERR("%u instances failed and %u DMA task callbacks ran (a graph's tasks report to the graph)",
			     state->num_failed, state->num_task_callbacks);
		return DOCA_ERROR_UNEXPECTED;
	}
	return DOCA_SUCCESS;
}

/* Reverse order of creation: instances, their tasks and bufs, the graph, contexts, core objects. */
static void cleanup(struct graph_sample_state *state)
{
	for (uint32_t i = 0; i < NUM_GRAPH_INSTANCES; i++) {
		struct instance_data *inst = &state->instances[i];

		if (inst->instance != NULL)
			(void)doca_graph_instance_destroy(inst->instance);
		for (uint32_t j = 0; j < NUM_DMA_NODES; j++) {
			if (inst->task[j] != NULL)
				doca_task_free(doca_dma_task_memcpy_as_task(inst->task[j]));
			if (inst->dest[j] != NULL)
				(void)doca_buf_dec_refcount(inst->dest[j], NULL);
		}
		if (inst->source != NULL)
			(void)doca_buf_dec_refcount(inst->source, NULL);
	}
	if (state->graph != NULL) {
		(void)doca_graph_stop(state->graph);
		(void)doca_graph_destroy(state->graph);
	}
	for (uint32_t i = 0; i < NUM_DMA_NODES; i++) {
		if (state->ctx[i] != NULL)
			(void)doca_ctx_stop(state->ctx[i]);
		if (state->dma[i] != NULL)
			(void)doca_dma_destroy(state->dma[i]);
	}
	if (state->pe != NULL)
		(void)doca_pe_destroy(state->pe);
	if (state->inventory != NULL) {
		(void)doca_buf_inventory_stop(state->inventory);
		(void)doca_buf_inventory_destroy(state->inventory);
	}
	if (state->mmap != NULL) {
		(void)doca_mmap_stop(state->mmap);
		(void)doca_mmap_destroy(state->mmap);
	}
	if (state->device != NULL)
		(void)doca_dev_close(state->device);
	free(state->buffer);
}

static doca_error_t run(struct graph_sample_state *state)
{
	EXIT_ON_FAILURE(create_core_objects_for_graph(state));
	EXIT_ON_FAILURE(create_and_start_dmas(state));
	EXIT_ON_FAILURE(create_graph(state));
	EXIT_ON_FAILURE(create_and_submit_instances(state));
	EXIT_ON_FAILURE(wait_for_instances(state));
	return DOCA_SUCCESS;
}

doca_error_t run_graph_sample(void)
{
	struct graph_sample_state *state = calloc(1, sizeof(*state));
	doca_error_t status;

	if (state == NULL)
		return DOCA_ERROR_NO_MEMORY;
	status = run(state);
	cleanup(state);
	free(state);
	return status;
}
