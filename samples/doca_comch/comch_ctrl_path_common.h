/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by softdoca's Comch samples: their flags and the set-up of a Comch server or client
 * with its progress engine. Same names, flags and constants as DOCA's samples.
 */
#ifndef COMCH_CTRL_PATH_COMMON_H_
#define COMCH_CTRL_PATH_COMMON_H_

#include <stdbool.h>
#include <stdint.h>

#include <doca_comch.h>
#include <doca_ctx.h>
#include <doca_dev.h>
#include <doca_error.h>
#include <doca_pe.h>

#define MAX_SAMPLE_TXT_SIZE 4080		       /* longest text a sample sends */
#define MAX_TXT_SIZE (MAX_SAMPLE_TXT_SIZE + 1)	       /* with its NUL */
#define SLEEP_IN_NANOS (10 * 1000)		       /* idle wait between two empty progress calls */
#define CC_REC_QUEUE_SIZE 10			       /* receive queue size of both sides */
#define CC_SEND_TASK_NUM 1024			       /* send tasks of both sides */

struct comch_config {
	char comch_dev_pci_addr[DOCA_DEVINFO_PCI_ADDR_SIZE];	     /* Comch device PCI address */
	char comch_dev_rep_pci_addr[DOCA_DEVINFO_REP_PCI_ADDR_SIZE]; /* representor PCI address (DPU side) */
	char text[MAX_TXT_SIZE];				     /* text sent to the other side */
	uint32_t text_size;					     /* its length */
};

/* What a client sample plugs into the common set-up. */
struct comch_ctrl_path_client_cb_config {
	doca_comch_task_send_completion_cb_t send_task_comp_cb;
	doca_comch_task_send_completion_cb_t send_task_comp_err_cb;
	doca_comch_event_msg_recv_cb_t msg_recv_cb;
	bool data_path_mode; /* register the consumer callbacks below */
	doca_comch_event_consumer_cb_t new_consumer_cb;
	doca_comch_event_consumer_cb_t expired_consumer_cb;
	void *ctx_user_data;
	doca_ctx_state_changed_callback_t ctx_state_changed_cb;
};

/* What a server sample plugs into the common set-up. */
struct comch_ctrl_path_server_cb_config {
	doca_comch_task_send_completion_cb_t send_task_comp_cb;
	doca_comch_task_send_completion_cb_t send_task_comp_err_cb;
	doca_comch_event_msg_recv_cb_t msg_recv_cb;
	doca_comch_event_connection_status_changed_cb_t server_connection_event_cb;
	doca_comch_event_connection_status_changed_cb_t server_disconnection_event_cb;
	bool data_path_mode; /* register the consumer callbacks below */
	doca_comch_event_consumer_cb_t new_consumer_cb;
	doca_comch_event_consumer_cb_t expired_consumer_cb;
	void *ctx_user_data;
	doca_ctx_state_changed_callback_t ctx_state_changed_cb;
};

/* -p/--pci-addr, -r/--rep-pci, -t/--text */
doca_error_t register_comch_params(void);

/* Create a client for server_name on hw_dev with its own PE and start it (IN_PROGRESS expected). */
doca_error_t init_comch_ctrl_path_client(const char *server_name, struct doca_dev *hw_dev,
					 struct comch_ctrl_path_client_cb_config *cb_cfg, struct doca_comch_client **client,
					 struct doca_pe **pe);
/* Destroy the client (stopped first if needed) and its PE. */
void clean_comch_ctrl_path_client(struct doca_comch_client *client, struct doca_pe *pe);

/* Create a server called server_name on hw_dev for representor rep_dev, with its own PE, and start it. */
doca_error_t init_comch_ctrl_path_server(const char *server_name, struct doca_dev *hw_dev, struct doca_dev_rep *rep_dev,
					 struct comch_ctrl_path_server_cb_config *cb_cfg, struct doca_comch_server **server,
					 struct doca_pe **pe);
/* Destroy the server (stopped first if needed) and its PE. */
void clean_comch_ctrl_path_server(struct doca_comch_server *server, struct doca_pe *pe);

#endif /* COMCH_CTRL_PATH_COMMON_H_ */
