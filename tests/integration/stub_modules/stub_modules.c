/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Probes every device for the accelerators of the stub libraries the way DOCA samples do, then
 * creates each library's object anyway: every probe and create must say NOT_SUPPORTED (the
 * libraries log why on the SDK log). Prints one line and exits 0 when they all do.
 */
#include <stdio.h>

#include "doca_aes_gcm.h"
#include "doca_apsh.h"
#include "doca_compress.h"
#include "doca_dev.h"
#include "doca_devemu_pci.h"
#include "doca_devemu_vfs_dev.h"
#include "doca_devemu_vfs_type.h"
#include "doca_dpdk.h"
#include "doca_erasure_coding.h"
#include "doca_eth_rxq.h"
#include "doca_eth_txq.h"
#include "doca_flow.h"
#include "doca_log.h"
#include "doca_mgmt.h"
#include "doca_rmax.h"
#include "doca_sha.h"
#include "doca_telemetry_exporter.h"
#include "doca_telemetry_pcc.h"
#include "doca_uar.h"
#include "doca_urom.h"
#include "doca_verbs.h"
#include "doca_gpunetio.h"
#include "doca_umem.h"

static int failures;

static void expect_not_supported(const char *what, doca_error_t err)
{
	if (err != DOCA_ERROR_NOT_SUPPORTED) {
		fprintf(stderr, "%s returned %s, expected DOCA_ERROR_NOT_SUPPORTED\n", what, doca_error_get_name(err));
		failures++;
	}
}

int main(void)
{
	struct doca_log_backend *sdk_log;
	struct doca_devinfo **list;
	uint32_t n = 0, i;
	struct doca_dev *dev = NULL;

	if (doca_log_backend_create_with_file_sdk(stderr, &sdk_log) == DOCA_SUCCESS)
		(void)doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);
	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS || n == 0) {
		fprintf(stderr, "no device\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		expect_not_supported("compress probe", doca_compress_cap_task_compress_deflate_is_supported(list[i]));
		expect_not_supported("erasure coding probe", doca_ec_cap_task_create_is_supported(list[i]));
		expect_not_supported("AES-GCM probe", doca_aes_gcm_cap_task_encrypt_is_supported(list[i]));
		expect_not_supported("SHA probe", doca_sha_cap_task_hash_get_supported(list[i], DOCA_SHA_ALGORITHM_SHA256));
	}
	if (doca_dev_open(list[0], &dev) != DOCA_SUCCESS) {
		fprintf(stderr, "cannot open the first device\n");
		return 1;
	}
	{
		struct doca_compress *compress;
		struct doca_ec *ec;
		struct doca_sha *sha;
		struct doca_aes_gcm *aes;
		struct doca_eth_rxq *rxq;
		struct doca_eth_txq *txq;
		struct doca_devemu_vfs_type *vfs_type;
		struct doca_telemetry_pcc *pcc;
		struct doca_flow_cfg *flow_cfg;
		struct doca_mgmt_dev_ctx *mgmt;
		struct doca_urom_service *urom;
		struct doca_verbs_context *verbs;
		struct doca_uar *uar;
		struct doca_gpu *gpu;
		struct doca_umem *umem;

		expect_not_supported("doca_compress_create", doca_compress_create(dev, &compress));
		expect_not_supported("doca_ec_create", doca_ec_create(dev, &ec));
		expect_not_supported("doca_sha_create", doca_sha_create(dev, &sha));
		expect_not_supported("doca_aes_gcm_create", doca_aes_gcm_create(dev, &aes));
		expect_not_supported("doca_eth_rxq_create", doca_eth_rxq_create(dev, 32, 1500, &rxq));
		expect_not_supported("doca_eth_txq_create", doca_eth_txq_create(dev, 32, &txq));
		expect_not_supported("doca_devemu_vfs_find_default_vfs_type_by_dev",
				     doca_devemu_vfs_find_default_vfs_type_by_dev(dev, &vfs_type));
		expect_not_supported("doca_telemetry_pcc_create", doca_telemetry_pcc_create(dev, &pcc));
		expect_not_supported("doca_flow_cfg_create", doca_flow_cfg_create(&flow_cfg));
		expect_not_supported("doca_dpdk_port_probe", doca_dpdk_port_probe(dev, "dv_flow_en=2"));
		expect_not_supported("doca_mgmt_dev_ctx_create", doca_mgmt_dev_ctx_create(dev, &mgmt));
		expect_not_supported("doca_rmax_init", doca_rmax_init());
		expect_not_supported("doca_urom_service_create", doca_urom_service_create(&urom));
		expect_not_supported("doca_verbs_context_create", doca_verbs_context_create(list[0], 0, &verbs));
		expect_not_supported("doca_uar_create", doca_uar_create(dev, DOCA_UAR_ALLOCATION_TYPE_NONCACHE, &uar));
		expect_not_supported("doca_gpu_create", doca_gpu_create("17:00.0", &gpu));
		expect_not_supported("doca_umem_create", doca_umem_create(dev, &gpu, sizeof(gpu), 0, &umem));
		if (doca_apsh_create() != NULL) {
			fprintf(stderr, "doca_apsh_create returned an object\n");
			failures++;
		}
	}
	doca_dev_close(dev);
	doca_devinfo_destroy_list(list);
	if (failures)
		return 1;
	printf("stub modules: every probe and create on %u devices returned DOCA_ERROR_NOT_SUPPORTED\n", n);
	return 0;
}
