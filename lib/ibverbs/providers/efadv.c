/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libefa.so.1 for programs linked against rdma-core's EFA provider (perftest binds efadv_* at
 * link time). As mlx5dv.c: the soft NIC is not an EFA device, so each call fails as rdma-core's
 * libefa fails on another provider's device (EOPNOTSUPP), with a log line.
 */
#include <errno.h>
#include <infiniband/efadv.h>

#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(SOFTDOCA_EFADV);

int efadv_query_device(struct ibv_context *ibvctx, struct efadv_device_attr *attr, uint32_t inlen)
{
	(void)ibvctx;
	(void)attr;
	(void)inlen;
	SDK_LOG_ERR("efadv_query_device: the soft NIC is not an EFA device (docs/compatibility.md)");
	return EOPNOTSUPP;
}

struct ibv_qp *efadv_create_qp_ex(struct ibv_context *ibvctx, struct ibv_qp_init_attr_ex *attr_ex,
				  struct efadv_qp_init_attr *efa_attr, uint32_t inlen)
{
	(void)ibvctx;
	(void)attr_ex;
	(void)efa_attr;
	(void)inlen;
	SDK_LOG_ERR("efadv_create_qp_ex: the soft NIC is not an EFA device (docs/compatibility.md)");
	errno = EOPNOTSUPP;
	return NULL;
}
