/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DOCA Core's RDMA bridge (doca_rdma_bridge.h): the rdma-core objects behind a DOCA device or
 * memory. DOCA ships these in libdoca_common (the header is in the DOCA Core group, and
 * NVIDIA's 3.3 Verbs samples call doca_rdma_bridge_get_dev_pd linking only doca-common and
 * doca-verbs). A soft device has no ibv_pd and soft memory no mkey: NOT_SUPPORTED, logged.
 */
#include "doca_dev.h"
#include "doca_rdma_bridge.h"
#include "common/priv/soft_verbs.h"
#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(DOCA_RDMA_BRIDGE);

doca_error_t doca_rdma_bridge_get_dev_pd(const struct doca_dev *dev, struct ibv_pd **pd)
{
	if (dev == NULL || pd == NULL) {
		SDK_LOG_ERR("doca_rdma_bridge_get_dev_pd: %s is NULL", dev == NULL ? "dev" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("doca_rdma_bridge_get_dev_pd: a soft device has no ibv_pd"
		    "; DOCA Core's RDMA bridge (libdoca_common) is not implemented by softdoca (docs/compatibility.md)");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_bridge_open_dev_from_pd(struct ibv_pd *pd, struct doca_dev **dev)
{
	if (pd == NULL || dev == NULL) {
		SDK_LOG_ERR("doca_rdma_bridge_open_dev_from_pd: %s is NULL", pd == NULL ? "pd" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	/* the pd of an rdma_cm_id of softdoca's librdmacm: its soft device */
	if (softdoca_verbs_tag_of_pd(pd) != NULL)
		return doca_dev_open(softdoca_verbs_tag_of_pd(pd)->devinfo, dev);
	SDK_LOG_ERR("doca_rdma_bridge_open_dev_from_pd: softdoca cannot open a device on an rdma-core ibv_pd"
		    "; DOCA Core's RDMA bridge (libdoca_common) is not implemented by softdoca (docs/compatibility.md); "
		    "open a device with doca_dev_open(), or use softdoca's librdmacm");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_bridge_get_buf_mkey(const struct doca_buf *buf, struct doca_dev *dev, uint32_t *mkey)
{
	if (buf == NULL || dev == NULL || mkey == NULL) {
		SDK_LOG_ERR("doca_rdma_bridge_get_buf_mkey: %s is NULL", buf == NULL ? "buf" : dev == NULL ? "dev" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("doca_rdma_bridge_get_buf_mkey: soft memory has no mlx5 mkey"
		    "; DOCA Core's RDMA bridge (libdoca_common) is not implemented by softdoca (docs/compatibility.md)");
	return DOCA_ERROR_NOT_SUPPORTED;
}

doca_error_t doca_rdma_bridge_get_mmap_mkey_from_pd(const struct doca_mmap *mmap, struct ibv_pd *pd, uint32_t *mkey)
{
	if (mmap == NULL || pd == NULL || mkey == NULL) {
		SDK_LOG_ERR("doca_rdma_bridge_get_mmap_mkey_from_pd: %s is NULL",
			    mmap == NULL ? "mmap" : pd == NULL ? "pd" : "output");
		return DOCA_ERROR_INVALID_VALUE;
	}
	SDK_LOG_ERR("doca_rdma_bridge_get_mmap_mkey_from_pd: soft memory has no mlx5 mkey"
		    "; DOCA Core's RDMA bridge (libdoca_common) is not implemented by softdoca (docs/compatibility.md)");
	return DOCA_ERROR_NOT_SUPPORTED;
}
