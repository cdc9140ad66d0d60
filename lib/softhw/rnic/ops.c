/* SPDX-License-Identifier: BSD-3-Clause */
/* The soft NIC's ops table: what libdoca_rdma reaches through doca_dev->rnic. */
#include "softhw/rnic/rnic_int.h"

const struct softhw_rnic_ops softhw_rnic_ops = {
	.ep_create = rnic_ep_create,
	.ep_destroy = rnic_ep_destroy,
	.ep_poll = rnic_ep_poll,
	.ep_arm = rnic_ep_arm,
	.ep_wait_fd = rnic_ep_wait_fd,
	.ep_owner_wait = rnic_ep_owner_wait,
	.ep_serve = rnic_ep_serve,
	.ep_post_recv = rnic_ep_post_recv,
	.ep_flush_recv = rnic_ep_flush_recv,
	.qp_create = rnic_qp_create,
	.qp_export = rnic_qp_export,
	.qp_connect = rnic_qp_connect,
	.listen = rnic_cm_listen,
	.unlisten = rnic_cm_unlisten,
	.connect_addr = rnic_cm_connect,
	.qp_accept = rnic_cm_accept,
	.qp_reject = rnic_cm_reject,
	.qp_peer_addr = rnic_cm_peer_addr,
	.connect_addr_data = rnic_cm_connect_data,
	.qp_accept_data = rnic_cm_accept_data,
	.qp_reject_data = rnic_cm_reject_data,
	.qp_cm_info = rnic_cm_info,
	.qp_wire_num = rnic_qp_wire_num,
	.qp_wire_rtr = rnic_qp_wire_rtr,
	.qp_wire_rts = rnic_qp_wire_rts,
	.qp_post = rnic_qp_post,
	.qp_disconnect = rnic_qp_disconnect,
	.qp_destroy = rnic_qp_destroy,
};
