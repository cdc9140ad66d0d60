/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the Comch fast-path samples: memory for producers and consumers, and one message
 * each way (a producer sends the text, a consumer receives it). Same names and constants as
 * DOCA's samples.
 */
#ifndef COMCH_DATA_PATH_HIGH_SPEED_COMMON_H_
#define COMCH_DATA_PATH_HIGH_SPEED_COMMON_H_

#include <stdbool.h>
#include <stdint.h>

#include <doca_buf_inventory.h>
#include <doca_comch.h>
#include <doca_comch_consumer.h>
#include <doca_comch_producer.h>
#include <doca_dev.h>
#include <doca_mmap.h>
#include <doca_pe.h>

#define CC_DATA_PATH_TASK_NUM 2			  /* producer / consumer tasks */
#define CC_DATA_PATH_MAX_MSG_SIZE (1024 * 1024)	  /* consumer buffer */
#define STR_START_DATA_PATH_TEST "start_data_path_test" /* control message: fast path may begin */
#define STR_STOP_DATA_PATH_TEST "stop_data_path_test"	/* control message: fast path is over */
#define INVALID_CONSUMER_ID 0xffff

/* Memory a producer sends from or a consumer receives into. */
struct local_mem_bufs {
	void *mem;
	struct doca_mmap *mmap;
	struct doca_buf_inventory *buf_inv;
	bool need_alloc_mem; /* mem is ours (consumer) or the caller's (producer's text) */
};

struct comch_data_path_objects {
	struct doca_dev *hw_dev;
	struct doca_pe *pe;			 /* the server's / client's PE */
	struct doca_comch_connection *connection;
	const char *text;			 /* what the producer sends */
	uint32_t remote_consumer_id;		 /* 0 until the peer's consumer is announced */
	struct doca_comch_producer *producer;
	struct doca_pe *producer_pe;
	struct local_mem_bufs producer_mem;
	doca_error_t producer_result;
	bool producer_finish;
	struct doca_comch_consumer *consumer;
	struct doca_pe *consumer_pe;
	struct local_mem_bufs consumer_mem;
	doca_error_t consumer_result;
	bool consumer_finish;
};

/* Wait for the peer's consumer, then send data_path->text to it with a producer. */
doca_error_t comch_data_path_send_msg(struct comch_data_path_objects *data_path);

/* Create a consumer, receive one message and print it. */
doca_error_t comch_data_path_recv_msg(struct comch_data_path_objects *data_path);

#endif /* COMCH_DATA_PATH_HIGH_SPEED_COMMON_H_ */
