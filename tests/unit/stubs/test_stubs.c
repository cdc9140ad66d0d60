/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stub libraries (lib/stubs): a call returns DOCA_ERROR_NOT_SUPPORTED (or NULL / 0 / nothing
 * when the DOCA function returns no doca_error_t), writes nothing through its out-parameters, and
 * logs one SDK line naming the function and the library. One call of each kind per library.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "doca_aes_gcm.h"
#include "doca_apsh.h"
#include "doca_compress.h"
#include "doca_devemu_pci.h"
#include "doca_devemu_pci_ep.h"
#include "doca_devemu_pci_type.h"
#include "doca_devemu_vfs.h"
#include "doca_devemu_vfs_dev.h"
#include "doca_devemu_vfs_io.h"
#include "doca_devemu_vfs_type.h"
#include "doca_dpdk.h"
#include "doca_erasure_coding.h"
#include "doca_eth_rxq.h"
#include "doca_eth_txq.h"
#include "doca_flow.h"
#include "doca_flow_crypto.h"
#include "doca_flow_ct.h"
#include "doca_flow_custom_header.h"
#include "doca_flow_custom_header_graph.h"
#include "doca_eth_rxq_gpu_data_path.h"
#include "doca_eth_txq_gpu_data_path.h"
#include "doca_gpunetio.h"
#include "doca_comch_consumer.h"
#include "doca_comch_producer.h"
#include "doca_gpunetio_eth_def.h"
#include "doca_log.h"
#include "doca_mmap.h"
#include "doca_mgmt.h"
#include "doca_mgmt_cc_global_status.h"
#include "doca_mgmt_device_caps_general.h"
#include "doca_mgmt_icm_quota.h"
#include "doca_rdma_bridge.h"
#include "doca_rmax.h"
#include "doca_sha.h"
#include "doca_telemetry_diag.h"
#include "doca_telemetry_exporter.h"
#include "doca_telemetry_adp_retx.h"
#include "doca_telemetry_pcc.h"
#include "doca_telemetry_pci.h"
#include "doca_telemetry_phy.h"
#include "doca_uar.h"
#include "doca_umem.h"
#include "doca_urom.h"
#include "doca_verbs.h"
#include "doca_verbs_bridge.h"
#include "test.h"

static FILE *sdk_file;
static char sdk_text[4096];

/* The SDK lines logged since the previous call. */
static const char *sdk_lines(void)
{
	size_t n;

	fflush(sdk_file);
	rewind(sdk_file);
	n = fread(sdk_text, 1, sizeof(sdk_text) - 1, sdk_file);
	sdk_text[n] = '\0';
	rewind(sdk_file);
	if (ftruncate(fileno(sdk_file), 0) != 0)
		sdk_text[0] = '\0';
	return sdk_text;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* One line that names the function, the library (its title and its .so name) and the result. */
#define CHECK_LOGGED_AS(func, title, lib, result) \
	do { \
		const char *l_ = sdk_lines(); \
		CHECK(count_lines(l_) == 1); \
		CHECK(strstr(l_, #func ": ") != NULL); \
		CHECK(strstr(l_, title " (" lib ") is not implemented by softdoca") != NULL); \
		CHECK(strstr(l_, result) != NULL); \
	} while (0)
#define CHECK_LOGGED(func, title, lib) CHECK_LOGGED_AS(func, title, lib, "returning DOCA_ERROR_NOT_SUPPORTED")
#define CHECK_LOGGED_ZERO(func, title, lib) CHECK_LOGGED_AS(func, title, lib, "returning NULL / 0")
#define CHECK_LOGGED_VOID(func, title, lib) CHECK_LOGGED_AS(func, title, lib, "the call has no effect")

static void test_error_returning_calls(void)
{
	struct doca_compress *compress = (struct doca_compress *)0x1;
	struct doca_ec *ec = (struct doca_ec *)0x1;
	struct doca_aes_gcm *aes = (struct doca_aes_gcm *)0x1;
	struct doca_sha *sha = (struct doca_sha *)0x1;
	struct doca_eth_rxq *rxq = (struct doca_eth_rxq *)0x1;
	struct doca_devemu_pci_type *pci_type = (struct doca_devemu_pci_type *)0x1;
	struct doca_telemetry_exporter_schema *schema = (struct doca_telemetry_exporter_schema *)0x1;
	struct doca_telemetry_pcc *pcc = (struct doca_telemetry_pcc *)0x1;

	CHECK_ERR(doca_compress_create(NULL, &compress), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(compress == (struct doca_compress *)0x1); /* out-parameters untouched */
	CHECK_LOGGED(doca_compress_create, "DOCA Compress", "libdoca_compress");
	CHECK_ERR(doca_ec_create(NULL, &ec), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_ec_create, "DOCA Erasure Coding", "libdoca_erasure_coding");
	CHECK_ERR(doca_aes_gcm_create(NULL, &aes), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_aes_gcm_create, "DOCA AES-GCM", "libdoca_aes_gcm");
	CHECK_ERR(doca_sha_create(NULL, &sha), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_sha_create, "DOCA SHA", "libdoca_sha");
	CHECK_ERR(doca_eth_rxq_create(NULL, 32, 1500, &rxq), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_eth_rxq_create, "DOCA Ethernet", "libdoca_eth");
	CHECK_ERR(doca_flow_init(NULL), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_flow_init, "DOCA Flow", "libdoca_flow");
	CHECK_ERR(doca_devemu_pci_type_create("t", &pci_type), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_devemu_pci_type_create, "DOCA DevEmu", "libdoca_devemu");
	CHECK_ERR(doca_telemetry_exporter_schema_init("s", &schema), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_schema_init, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_pcc_create(NULL, &pcc), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_pcc_create, "DOCA Telemetry", "libdoca_telemetry");
	CHECK(compress == (struct doca_compress *)0x1 && ec == (struct doca_ec *)0x1 && pcc == (struct doca_telemetry_pcc *)0x1);
}

/* A program probes capabilities before it opens anything: the probe says "not supported". */
static void test_capability_probes(void)
{
	uint64_t max_size = 7;

	CHECK_ERR(doca_compress_cap_task_compress_deflate_is_supported(NULL), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_compress_cap_task_compress_deflate_is_supported, "DOCA Compress", "libdoca_compress");
	CHECK_ERR(doca_ec_cap_task_create_is_supported(NULL), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_ec_cap_task_create_is_supported, "DOCA Erasure Coding", "libdoca_erasure_coding");
	CHECK_ERR(doca_sha_cap_task_hash_get_supported(NULL, DOCA_SHA_ALGORITHM_SHA256), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_sha_cap_task_hash_get_supported, "DOCA SHA", "libdoca_sha");
	CHECK_ERR(doca_compress_cap_task_compress_deflate_get_max_buf_size(NULL, &max_size), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(max_size == 7);
	sdk_lines();
}

static void test_pointer_and_value_returning_calls(void)
{
	CHECK(doca_compress_as_ctx((struct doca_compress *)0x1) == NULL);
	CHECK_LOGGED_ZERO(doca_compress_as_ctx, "DOCA Compress", "libdoca_compress");
	CHECK(doca_ec_as_ctx((struct doca_ec *)0x1) == NULL);
	CHECK_LOGGED_ZERO(doca_ec_as_ctx, "DOCA Erasure Coding", "libdoca_erasure_coding");
	CHECK(doca_eth_txq_as_doca_ctx((struct doca_eth_txq *)0x1) == NULL);
	CHECK_LOGGED_ZERO(doca_eth_txq_as_doca_ctx, "DOCA Ethernet", "libdoca_eth");
	CHECK(doca_apsh_create() == NULL);
	CHECK_LOGGED_ZERO(doca_apsh_create, "DOCA App Shield", "libdoca_apsh");
	CHECK(doca_flow_port_switch_get(NULL) == NULL);
	CHECK_LOGGED_ZERO(doca_flow_port_switch_get, "DOCA Flow", "libdoca_flow");
	CHECK(doca_flow_aging_handle(NULL, 0, 0, 0) == 0);
	CHECK_LOGGED_ZERO(doca_flow_aging_handle, "DOCA Flow", "libdoca_flow");
	CHECK(doca_compress_task_compress_deflate_get_crc_cs((struct doca_compress_task_compress_deflate *)0x1) == 0);
	CHECK_LOGGED_ZERO(doca_compress_task_compress_deflate_get_crc_cs, "DOCA Compress", "libdoca_compress");
}

static void test_void_calls(void)
{
	doca_flow_destroy();
	CHECK_LOGGED_VOID(doca_flow_destroy, "DOCA Flow", "libdoca_flow");
	doca_compress_task_compress_deflate_set_src((struct doca_compress_task_compress_deflate *)0x1, NULL);
	CHECK_LOGGED_VOID(doca_compress_task_compress_deflate_set_src, "DOCA Compress", "libdoca_compress");
	CHECK_ERR(doca_sha_task_hash_set_src((struct doca_sha_task_hash *)0x1, NULL), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_sha_task_hash_set_src, "DOCA SHA", "libdoca_sha");
}

/* The calls newer DOCA added, whose prototypes are inferred from NVIDIA's 3.3 samples, exist too. */
static void test_newer_calls(void)
{
	struct doca_devemu_vfs_type *vfs_type = NULL;
	struct doca_dev_rep *rep = NULL;

	CHECK_ERR(doca_eth_rxq_apply_queue_id((struct doca_eth_rxq *)0x1, 0), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_eth_rxq_apply_queue_id, "DOCA Ethernet", "libdoca_eth");
	CHECK_ERR(doca_flow_pipe_basic_add_entry(0, NULL, NULL, 0, NULL, NULL, NULL, DOCA_FLOW_ENTRY_FLAGS_NO_WAIT, NULL, NULL),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_flow_pipe_basic_add_entry, "DOCA Flow", "libdoca_flow");
	CHECK_ERR(doca_flow_port_crypto_ipsec_update_sn(NULL, 3, UINT64_C(1) << 32), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_flow_port_crypto_ipsec_update_sn, "DOCA Flow", "libdoca_flow");
	CHECK_ERR(doca_devemu_vfs_find_default_vfs_type_by_dev(NULL, &vfs_type), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_devemu_vfs_find_default_vfs_type_by_dev, "DOCA DevEmu", "libdoca_devemu");
	CHECK_ERR(doca_devemu_pci_type_create_rep(NULL, &rep), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_devemu_pci_type_create_rep, "DOCA DevEmu", "libdoca_devemu");
	CHECK(vfs_type == NULL && rep == NULL);
}

/* A FUSE_READ handler of DOCA 3.3's type: the handler types name the kernel's FUSE structures. */
static void on_fuse_read(struct doca_devemu_vfs_fuse_req *req, void *req_user_data, struct fuse_in_header *in,
			 struct fuse_read_in *read_in, struct fuse_out_header *out, struct doca_buf *dataout)
{
	(void)req;
	(void)req_user_data;
	(void)in;
	(void)read_in;
	(void)out;
	(void)dataout;
}

/* DOCA 3.3's virtio-fs FUSE API (NVIDIA's virtiofs application): device settings, one handler
 * registration per FUSE opcode, the request accessors. */
static void test_devemu_vfs_fuse(void)
{
	struct doca_devemu_vfs_cfg *cfg = (struct doca_devemu_vfs_cfg *)0x1;
	struct doca_devemu_vfs_fuse_req *req = (struct doca_devemu_vfs_fuse_req *)0x1;
	enum doca_devemu_vfs_fuse_client_arch arch = DOCA_DEVEMU_VFS_FUSE_CLIENT_ARCH_UNKNOWN;
	uint32_t major = 7, minor = 31;

	CHECK(DOCA_DEVEMU_VFS_FUSE_CLIENT_ARCH_X86_64 == 2 && DOCA_DEVEMU_VFS_FUSE_CLIENT_ARCH_AARCH_64 == 4);
	CHECK(sizeof(struct fuse_in_header) == 40 && FUSE_READ == 15);
	CHECK_ERR(doca_devemu_vfs_cfg_set_vfs_fuse_req_user_data_size(cfg, 64), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_devemu_vfs_cfg_set_vfs_fuse_req_user_data_size, "DOCA DevEmu", "libdoca_devemu");
	CHECK_ERR(doca_devemu_vfs_cfg_add_dev(cfg, NULL), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_devemu_vfs_cfg_add_dev, "DOCA DevEmu", "libdoca_devemu");
	CHECK_ERR(doca_devemu_vfs_get_minimal_fuse_version_supported(&major, &minor), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_devemu_vfs_get_minimal_fuse_version_supported, "DOCA DevEmu", "libdoca_devemu");
	CHECK(major == 7 && minor == 31); /* out-parameters untouched */
	CHECK_ERR(doca_devemu_vfs_dev_set_fuse_client_arch(NULL, DOCA_DEVEMU_VFS_FUSE_CLIENT_ARCH_X86_64),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_devemu_vfs_dev_set_fuse_client_arch, "DOCA DevEmu", "libdoca_devemu");
	CHECK_ERR(doca_devemu_vfs_dev_get_fuse_client_arch(NULL, &arch), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_devemu_vfs_dev_get_fuse_client_arch, "DOCA DevEmu", "libdoca_devemu");
	CHECK(arch == DOCA_DEVEMU_VFS_FUSE_CLIENT_ARCH_UNKNOWN);
	CHECK_ERR(doca_devemu_vfs_io_event_vfs_fuse_read_req_handler_register(NULL, on_fuse_read),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_devemu_vfs_io_event_vfs_fuse_read_req_handler_register, "DOCA DevEmu", "libdoca_devemu");
	CHECK_ERR(doca_devemu_vfs_io_event_vfs_fuse_statx_req_handler_register(NULL, NULL), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_devemu_vfs_io_event_vfs_fuse_statx_req_handler_register, "DOCA DevEmu", "libdoca_devemu");
	CHECK(doca_devemu_vfs_fuse_req_get_datain_data_len(req) == 0);
	CHECK_LOGGED_ZERO(doca_devemu_vfs_fuse_req_get_datain_data_len, "DOCA DevEmu", "libdoca_devemu");
	CHECK(doca_devemu_vfs_fuse_req_get_vfs_io(req) == NULL);
	CHECK_LOGGED_ZERO(doca_devemu_vfs_fuse_req_get_vfs_io, "DOCA DevEmu", "libdoca_devemu");
	doca_devemu_vfs_fuse_req_complete(req, DOCA_SUCCESS);
	CHECK_LOGGED_VOID(doca_devemu_vfs_fuse_req_complete, "DOCA DevEmu", "libdoca_devemu");
}

/* DOCA 3.3's PCI endpoint (the DPU halves of NVIDIA's devemu_pci_device_db, _dma, _msix samples) */
static void test_devemu_pci_ep(void)
{
	struct doca_devemu_pci_db *db = (struct doca_devemu_pci_db *)0x1;
	struct doca_mmap *mmap = (struct doca_mmap *)0x1;

	CHECK(doca_devemu_pci_dev_as_ep(NULL) == NULL);
	CHECK_LOGGED_ZERO(doca_devemu_pci_dev_as_ep, "DOCA DevEmu", "libdoca_devemu");
	CHECK_ERR(doca_devemu_pci_ep_create_db_on_dpa(NULL, NULL, 0, 0x1000, 0, 7, &db), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_devemu_pci_ep_create_db_on_dpa, "DOCA DevEmu", "libdoca_devemu");
	CHECK_ERR(doca_devemu_pci_ep_mmap_create(NULL, &mmap), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_devemu_pci_ep_mmap_create, "DOCA DevEmu", "libdoca_devemu");
	CHECK(db == (struct doca_devemu_pci_db *)0x1 && mmap == (struct doca_mmap *)0x1);
}

/* DOCA 3.3's CT declarations that NVIDIA's CT samples use: ct_meta, the iterator, get_entry's hashes. */
static void iterate_cb(uint16_t queue, struct doca_flow_pipe *pipe, struct doca_flow_pipe_entry *entry, void *ctx)
{
	(void)queue;
	(void)pipe;
	(void)entry;
	(void)ctx;
}

static void test_flow_ct_3_3(void)
{
	struct doca_flow_ct_meta modify_mask = {.flow = {.pkt_meta = UINT32_MAX}, .mark = UINT32_MAX};
	struct doca_flow_ct_actions actions = {.data = {.meta = modify_mask}};
	uint32_t hash_origin = 7, hash_reply = 7;
	uint64_t entry_flags = 7;

	CHECK(DOCA_FLOW_CT_FLAG_ITERATOR == (1u << 5) && DOCA_FLOW_CT_FLAG_REPLY_WIRE == (1u << 8));
	CHECK(actions.data.meta.mark == UINT32_MAX);
	CHECK_ERR(doca_flow_ct_cfg_set_direction(NULL, false, false, NULL, &modify_mask), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_flow_ct_cfg_set_direction, "DOCA Flow", "libdoca_flow");
	CHECK_ERR(doca_flow_ct_get_entry(0, NULL, 0, NULL, NULL, NULL, &entry_flags, &hash_origin, &hash_reply),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_flow_ct_get_entry, "DOCA Flow", "libdoca_flow");
	CHECK(entry_flags == 7 && hash_origin == 7 && hash_reply == 7);
	CHECK_ERR(doca_flow_ct_pipe_iterate(NULL, iterate_cb, NULL), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_flow_ct_pipe_iterate, "DOCA Flow", "libdoca_flow");
}

/* DOCA 3.3's Flow custom headers and parse graph (NVIDIA's flow_custom_header sample) */
static void test_flow_custom_header(void)
{
	struct doca_flow_custom_header *hdr = (struct doca_flow_custom_header *)0x1;
	struct doca_flow_custom_header_graph_arc *arc = (struct doca_flow_custom_header_graph_arc *)0x1;
	const char *opcode = "x";

	CHECK_ERR(doca_flow_custom_header_create(&hdr), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_flow_custom_header_create, "DOCA Flow", "libdoca_flow");
	CHECK_ERR(doca_flow_custom_header_sampler_get_match_definition(NULL, &opcode), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_flow_custom_header_sampler_get_match_definition, "DOCA Flow", "libdoca_flow");
	CHECK_ERR(doca_flow_custom_header_graph_arc_set_src(arc, DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_UDP, 4789, NULL),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_flow_custom_header_graph_arc_set_src, "DOCA Flow", "libdoca_flow");
	CHECK(hdr == (struct doca_flow_custom_header *)0x1 && opcode[0] == 'x');
	CHECK(DOCA_FLOW_CUSTOM_HEADER_GRAPH_NODE_FLEX == 55 && DOCA_FLOW_CUSTOM_HEADER_SAMPLER_TUNNEL_MODE_FIRST == 2);
}

/* The DPDK bridge (NVIDIA's Flow samples and DPDK applications probe their ports through it). */
static void test_dpdk_bridge(void)
{
	struct doca_dev *dev = (struct doca_dev *)0x1;
	struct doca_dev_rep *reps[1] = {NULL};
	uint8_t supported = 7;

	CHECK_ERR(doca_dpdk_port_probe(NULL, "dv_flow_en=2"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_dpdk_port_probe, "DOCA DPDK Bridge", "libdoca_dpdk_bridge");
	CHECK_ERR(doca_dpdk_port_probe_with_representors(NULL, "dv_flow_en=2", reps, 1), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_dpdk_port_probe_with_representors, "DOCA DPDK Bridge", "libdoca_dpdk_bridge");
	CHECK_ERR(doca_dpdk_port_as_dev(0, &dev), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_dpdk_port_as_dev, "DOCA DPDK Bridge", "libdoca_dpdk_bridge");
	CHECK_ERR(doca_dpdk_cap_is_rep_port_supported(NULL, &supported), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_dpdk_cap_is_rep_port_supported, "DOCA DPDK Bridge", "libdoca_dpdk_bridge");
	CHECK(dev == (struct doca_dev *)0x1 && supported == 7);
}

/*
 * The DOCA 3.3 Telemetry PCI, Adaptive Retransmission and PHY readers (NVIDIA's telemetry_pci,
 * telemetry_adp_retx and telemetry_phy samples): structures passed by value and out-parameters stay untouched.
 */
static void test_telemetry_3_3(void)
{
	struct doca_telemetry_pci *pci = (struct doca_telemetry_pci *)0x1;
	struct doca_telemetry_pci_dpn dpn = {.depth = 0, .pci_index = 0, .node = 0};
	struct doca_telemetry_pci_management_info info = {.num_of_pfs = 7};
	struct doca_telemetry_adp_retx *adp = (struct doca_telemetry_adp_retx *)0x1;
	uint32_t time_units = 7, populated = 7;
	uint64_t bins[2] = {7, 7};
	struct doca_telemetry_phy *phy = (struct doca_telemetry_phy *)0x1;
	struct doca_telemetry_phy_module_info module = {.number_of_lanes = 7};

	CHECK_ERR(doca_telemetry_pci_create(NULL, &pci), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_pci_create, "DOCA Telemetry", "libdoca_telemetry");
	CHECK_ERR(doca_telemetry_pci_read_management_info(pci, dpn, &info), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_pci_read_management_info, "DOCA Telemetry", "libdoca_telemetry");
	CHECK_ERR(doca_telemetry_adp_retx_cap_get_hist_time_units(NULL, &time_units), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_adp_retx_cap_get_hist_time_units, "DOCA Telemetry", "libdoca_telemetry");
	CHECK_ERR(doca_telemetry_adp_retx_set_hist_time_unit(adp, DOCA_TELEMETRY_ADP_RETX_HIST_TIME_UNIT_USEC_100),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_adp_retx_set_hist_time_unit, "DOCA Telemetry", "libdoca_telemetry");
	CHECK_ERR(doca_telemetry_adp_retx_read_hist_bins(adp, &populated, bins), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_adp_retx_read_hist_bins, "DOCA Telemetry", "libdoca_telemetry");
	CHECK_ERR(doca_telemetry_phy_create(NULL, &phy), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_phy_create, "DOCA Telemetry", "libdoca_telemetry");
	CHECK_ERR(doca_telemetry_phy_get_module_info(phy, &module), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_phy_get_module_info, "DOCA Telemetry", "libdoca_telemetry");
	CHECK(phy == (struct doca_telemetry_phy *)0x1 && module.number_of_lanes == 7);
	CHECK(pci == (struct doca_telemetry_pci *)0x1 && info.num_of_pfs == 7 && time_units == 7 && populated == 7 &&
	      bins[0] == 7 && bins[1] == 7);
	/* values programs test as bits or print as sizes */
	CHECK(DOCA_TELEMETRY_ADP_RETX_HIST_TIME_UNIT_MSEC == 0x8 && DOCA_TELEMETRY_PCI_DATA_SIZE_4096B == 4096 &&
	      DOCA_TELEMETRY_PCI_PORT_TYPE_PCIE_DOWNSTREAM == 6 && DOCA_TELEMETRY_PHY_PROTOCOL_ETH == 0x4 &&
	      DOCA_TELEMETRY_PHY_ETH_LINK_SPEED_400G == 0x100000);
}

/*
 * DOCA 3.x Telemetry Exporter Metrics and OTLP logs calls, called the way NVIDIA's
 * telemetry_export_metrics / telemetry_export_otlp_logs samples and NIXL's DOCA plug-in call
 * them (so the inferred types accept those calls); ids are printed with %zu as the samples do.
 */
static void test_telemetry_exporter_metrics_otlp(void)
{
	struct doca_telemetry_exporter_source *src = (struct doca_telemetry_exporter_source *)0x1;
	const char *label_names[] = {"interface"};
	const char *label_values[2][1] = {{"eth0"}, {"eth1"}};
	const double buckets[] = {1.0, 10.0, 100.0};
	doca_telemetry_exporter_label_set_id_t label_set = 7;
	doca_telemetry_exporter_base_histogram_id_t base = 7;
	doca_telemetry_exporter_histogram_id_t hist = 7;
	doca_telemetry_exporter_otlp_logs_resource_id_t resource = 7;
	doca_telemetry_exporter_otlp_logs_scope_id_t scope = 7;
	doca_telemetry_exporter_otlp_attribute_type_t types[2] = {DOCA_TELEMETRY_EXPORTER_OTLP_ATTRIBUTE_TYPE_STRING,
								   DOCA_TELEMETRY_EXPORTER_OTLP_ATTRIBUTE_TYPE_INT};
	const char *keys[2] = {"message", "error_code"};
	doca_telemetry_exporter_otlp_attribute_value_t values[2];
	uint64_t timestamp = 1;
	char ids[64];

	values[0].string_value = "link down";
	values[1].int_value = 2001;
	CHECK_ERR(doca_telemetry_exporter_metrics_create_context(src), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_metrics_create_context, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_metrics_set_flush_interval_ms(src, 1000), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_metrics_set_flush_interval_ms, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_metrics_add_constant_label(src, "hostname", "h"), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_metrics_add_constant_label, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_metrics_add_label_names(src, label_names, 1, &label_set), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_metrics_add_label_names, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_metrics_add_counter(src, timestamp, "pkts", UINT64_C(1) << 40, label_set, label_values[1]),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_metrics_add_counter, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_metrics_add_counter_increment(src, timestamp, "pkts_inc", 5, label_set, label_values[0]),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_metrics_add_counter_increment, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_metrics_add_gauge(src, timestamp, "mbps", 55.5, label_set, label_values[0]),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_metrics_add_gauge, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_metrics_add_gauge_uint64(src, timestamp, "depth", 3, label_set, label_values[0]),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_metrics_add_gauge_uint64, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_metrics_add_base_histogram(src, "lat_us", buckets, 3, label_set, 1000, &base),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_metrics_add_base_histogram, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_metrics_base_histogram_observe(src, base, label_values[0], 2.5, &hist),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_metrics_base_histogram_observe, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_metrics_histogram_flush(src, hist, DOCA_TELEMETRY_EXPORTER_HISTOGRAM_TIMESTAMP_UPDATE, false),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_metrics_histogram_flush, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_metrics_flush(src), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_metrics_flush, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_metrics_destroy_context(src), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_metrics_destroy_context, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");

	CHECK_ERR(doca_telemetry_exporter_otlp_logs_create_context(src), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_otlp_logs_create_context, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_otlp_logs_add_resource(src, &resource), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_otlp_logs_add_resource, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_otlp_logs_add_resource_attribute_string(src, resource, "host.name", "h"),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_otlp_logs_add_resource_attribute_string, "DOCA Telemetry Exporter",
		     "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_otlp_logs_add_resource_attribute_int(src, resource, "device.port", 1),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_otlp_logs_add_resource_attribute_int, "DOCA Telemetry Exporter",
		     "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_otlp_logs_add_scope(src, "lib", "1.0", "event", "INFO", keys, types, 2, &scope),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_otlp_logs_add_scope, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_otlp_logs_write_event(src, resource, scope, values), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_otlp_logs_write_event, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_otlp_logs_write_event_with_severity(src, resource, scope, values, "WARN"),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_otlp_logs_write_event_with_severity, "DOCA Telemetry Exporter",
		     "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_otlp_logs_flush(src), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_otlp_logs_flush, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");
	CHECK_ERR(doca_telemetry_exporter_otlp_logs_destroy_context(src), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_telemetry_exporter_otlp_logs_destroy_context, "DOCA Telemetry Exporter", "libdoca_telemetry_exporter");

	/* out-parameters untouched */
	snprintf(ids, sizeof(ids), "%zu %zu %zu %zu %zu", label_set, base, hist, resource, scope);
	CHECK(strcmp(ids, "7 7 7 7 7") == 0);
}

/* DOCA Management (NVIDIA's 3.3 mgmt_* samples): the device context is where they stop. */
static void test_mgmt(void)
{
	struct doca_mgmt_dev_ctx *ctx = (struct doca_mgmt_dev_ctx *)0x1;
	struct doca_mgmt_icm_quota *quota = (struct doca_mgmt_icm_quota *)0x1;
	struct doca_mgmt_cc_global_status *cc = (struct doca_mgmt_cc_global_status *)0x1;
	struct doca_mgmt_device_caps_general *caps = (struct doca_mgmt_device_caps_general *)0x1;
	uint32_t max_limit = 7;
	uint8_t out[4] = {7, 7, 7, 7};

	CHECK_ERR(doca_mgmt_dev_ctx_create(NULL, &ctx), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_mgmt_dev_ctx_create, "DOCA Management", "libdoca_mgmt");
	CHECK_ERR(doca_mgmt_cap_icm_quota_get_max_limit(ctx, &max_limit), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_mgmt_cap_icm_quota_get_max_limit, "DOCA Management", "libdoca_mgmt");
	CHECK_ERR(doca_mgmt_icm_quota_create_for_dev(ctx, &quota), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_mgmt_icm_quota_create_for_dev, "DOCA Management", "libdoca_mgmt");
	CHECK_ERR(doca_mgmt_cc_global_status_create(&cc), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_mgmt_cc_global_status_create, "DOCA Management", "libdoca_mgmt");
	CHECK_ERR(doca_mgmt_device_caps_general_create(&caps), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_mgmt_device_caps_general_create, "DOCA Management", "libdoca_mgmt");
	CHECK_ERR(doca_mgmt_raw_cmd(ctx, "q", DOCA_MGMT_CMD_SCOPE_DEBUG_READ_ONLY, "in", 2, out, sizeof(out)),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_mgmt_raw_cmd, "DOCA Management", "libdoca_mgmt");
	CHECK(doca_mgmt_dev_ctx_get_doca_dev(ctx) == NULL);
	CHECK_LOGGED_ZERO(doca_mgmt_dev_ctx_get_doca_dev, "DOCA Management", "libdoca_mgmt");
	CHECK(ctx == (struct doca_mgmt_dev_ctx *)0x1 && quota == (struct doca_mgmt_icm_quota *)0x1 &&
	      cc == (struct doca_mgmt_cc_global_status *)0x1 && caps == (struct doca_mgmt_device_caps_general *)0x1);
	CHECK(max_limit == 7 && out[0] == 7 && out[3] == 7);
	CHECK(DOCA_MGMT_ICM_QUOTA_LIMIT_UNLIMITED == UINT32_MAX && DOCA_MGMT_CC_GLOBAL_STATUS_PROTOCOL_NP == 1 &&
	      DOCA_MGMT_CMD_SCOPE_DEBUG_WRITE_FULL == 3);
}

/* DOCA Rivermax (NVIDIA's rmax_* samples): init is where they stop; the 3.3 calls exist. */
static void test_rmax(void)
{
	struct doca_rmax_cpu_affinity *affinity = (struct doca_rmax_cpu_affinity *)0x1;
	struct doca_rmax_in_stream *stream = (struct doca_rmax_in_stream *)0x1;
	uint16_t stride = 7;

	CHECK_ERR(doca_rmax_init(), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_rmax_init, "DOCA Rivermax", "libdoca_rmax");
	CHECK_ERR(doca_rmax_cpu_affinity_create(&affinity), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_rmax_cpu_affinity_create, "DOCA Rivermax", "libdoca_rmax");
	CHECK_ERR(doca_rmax_in_stream_create(NULL, &stream), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_rmax_in_stream_create, "DOCA Rivermax", "libdoca_rmax");
	CHECK_ERR(doca_rmax_in_stream_set_scatter_type_ulp(stream), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_rmax_in_stream_set_scatter_type_ulp, "DOCA Rivermax", "libdoca_rmax");
	CHECK_ERR(doca_rmax_in_stream_get_memblk_stride_size(stream, &stride), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_rmax_in_stream_get_memblk_stride_size, "DOCA Rivermax", "libdoca_rmax");
	CHECK_ERR(doca_rmax_get_packet_placement_order_rtp_seqn_supported(NULL), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_rmax_get_packet_placement_order_rtp_seqn_supported, "DOCA Rivermax", "libdoca_rmax");
	CHECK(doca_rmax_in_stream_as_ctx(stream) == NULL);
	CHECK_LOGGED_ZERO(doca_rmax_in_stream_as_ctx, "DOCA Rivermax", "libdoca_rmax");
	CHECK(doca_rmax_in_stream_event_rx_data_get_result(NULL) == NULL);
	CHECK_LOGGED_ZERO(doca_rmax_in_stream_event_rx_data_get_result, "DOCA Rivermax", "libdoca_rmax");
	doca_rmax_interrupt();
	CHECK_LOGGED_VOID(doca_rmax_interrupt, "DOCA Rivermax", "libdoca_rmax");
	CHECK(affinity == (struct doca_rmax_cpu_affinity *)0x1 && stream == (struct doca_rmax_in_stream *)0x1 &&
	      stride == 7);
	CHECK(DOCA_RMAX_IN_STREAM_SCATTER_TYPE_PAYLOAD == 2 && DOCA_RMAX_IN_STREAM_TS_FMT_TYPE_SYNCED == 2);
}

/* DOCA UROM (NVIDIA's urom_* samples and plugins): the service is where they stop. */
static void test_urom(void)
{
	struct doca_urom_service *service = (struct doca_urom_service *)0x1;
	struct doca_urom_worker *worker = (struct doca_urom_worker *)0x1;
	doca_cpu_set_t cpus;
	uint64_t id = 7;

	DOCA_CPU_ZERO(&cpus);
	DOCA_CPU_SET(3, &cpus);
	CHECK(doca_cpu_is_set(3, &cpus) && !doca_cpu_is_set(2, &cpus));
	CHECK_ERR(doca_urom_service_create(&service), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_urom_service_create, "DOCA UROM", "libdoca_urom");
	CHECK_ERR(doca_urom_service_get_cpuset(service, &cpus), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_urom_service_get_cpuset, "DOCA UROM", "libdoca_urom");
	CHECK_ERR(doca_urom_worker_create(&worker), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_urom_worker_create, "DOCA UROM", "libdoca_urom");
	CHECK_ERR(doca_urom_worker_set_cpuset(worker, cpus), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_urom_worker_set_cpuset, "DOCA UROM", "libdoca_urom");
	CHECK_ERR(doca_urom_worker_get_id(worker, &id), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_urom_worker_get_id, "DOCA UROM", "libdoca_urom");
	CHECK(doca_urom_service_get_workers_by_gid_task_get_workers_count(NULL) == 0);
	CHECK_LOGGED_ZERO(doca_urom_service_get_workers_by_gid_task_get_workers_count, "DOCA UROM", "libdoca_urom");
	doca_urom_worker_cmd_task_set_plugin(NULL, 1);
	CHECK_LOGGED_VOID(doca_urom_worker_cmd_task_set_plugin, "DOCA UROM", "libdoca_urom");
	CHECK(service == (struct doca_urom_service *)0x1 && worker == (struct doca_urom_worker *)0x1 && id == 7);
	CHECK(doca_cpu_is_set(3, &cpus));
	CHECK(sizeof(struct doca_urom_service_plugin_info) == 16 + DOCA_UROM_PLUGIN_NAME_MAX_LEN);
}

/* DOCA Verbs (NVIDIA's verbs_server_client and verbs_wait_cq_wr): the context is where they stop. */
static void test_verbs(void)
{
	struct doca_verbs_context *ctx = (struct doca_verbs_context *)0x1;
	struct doca_verbs_qp_init_attr *init_attr = (struct doca_verbs_qp_init_attr *)0x1;
	struct doca_verbs_gid gid = {{0}};

	CHECK_ERR(doca_verbs_context_create(NULL, DOCA_VERBS_CONTEXT_CREATE_FLAGS_NONE, &ctx), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_verbs_context_create, "DOCA Verbs", "libdoca_verbs");
	CHECK_ERR(doca_verbs_bridge_verbs_context_import(NULL, 0, &ctx), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_verbs_bridge_verbs_context_import, "DOCA Verbs", "libdoca_verbs");
	CHECK_ERR(doca_verbs_qp_init_attr_create(&init_attr), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_verbs_qp_init_attr_create, "DOCA Verbs", "libdoca_verbs");
	CHECK_ERR(doca_verbs_ah_attr_set_gid(NULL, gid), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_verbs_ah_attr_set_gid, "DOCA Verbs", "libdoca_verbs");
	CHECK(doca_verbs_qp_get_qpn(NULL) == 0);
	CHECK_LOGGED_ZERO(doca_verbs_qp_get_qpn, "DOCA Verbs", "libdoca_verbs");
	gid = doca_verbs_ah_attr_get_gid(NULL);
	CHECK(gid.raw[0] == 0 && gid.raw[DOCA_GID_BYTE_LENGTH - 1] == 0);
	CHECK_LOGGED_ZERO(doca_verbs_ah_attr_get_gid, "DOCA Verbs", "libdoca_verbs");
	doca_verbs_ack_cq_events(NULL, 1);
	CHECK_LOGGED_VOID(doca_verbs_ack_cq_events, "DOCA Verbs", "libdoca_verbs");
	CHECK(ctx == (struct doca_verbs_context *)0x1 && init_attr == (struct doca_verbs_qp_init_attr *)0x1);
	CHECK(DOCA_VERBS_QP_ATTR_CC_GROUP == (1 << 18) && DOCA_VERBS_QP_STATE_RTS == 3 &&
	      DOCA_VERBS_ADDR_TYPE_IB_NO_GRH == 3 && DOCA_VERBS_CQ_ENTRY_SIZE_128 == 1);
}

/* The bridge's data path never answers 0 (success, or "no completion" that a poll loop would spin on). */
static void test_verbs_bridge_data_path(void)
{
	CHECK(doca_verbs_bridge_post_send(NULL, NULL, NULL) == EOPNOTSUPP);
	CHECK_LOGGED_AS(doca_verbs_bridge_post_send, "DOCA Verbs", "libdoca_verbs", "returning EOPNOTSUPP");
	CHECK(doca_verbs_bridge_post_recv(NULL, NULL, NULL) == EOPNOTSUPP);
	CHECK_LOGGED_AS(doca_verbs_bridge_post_recv, "DOCA Verbs", "libdoca_verbs", "returning EOPNOTSUPP");
	CHECK(doca_verbs_bridge_poll_cq(NULL, 1, NULL) < 0);
	CHECK_LOGGED_AS(doca_verbs_bridge_poll_cq, "DOCA Verbs", "libdoca_verbs", "returning -EOPNOTSUPP");
	CHECK(doca_verbs_bridge_set_wait_cq_pi_wr(NULL, 1, NULL) == EOPNOTSUPP);
	CHECK_LOGGED_AS(doca_verbs_bridge_set_wait_cq_pi_wr, "DOCA Verbs", "libdoca_verbs", "returning EOPNOTSUPP");
}

/* DOCA Core UAR lives in libdoca_common, as in DOCA, and says NOT_SUPPORTED the same way. */
static void test_uar(void)
{
	struct doca_uar *uar = (struct doca_uar *)0x1;
	uint32_t id = 7;

	CHECK_ERR(doca_uar_create(NULL, DOCA_UAR_ALLOCATION_TYPE_NONCACHE, &uar), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_uar_create, "DOCA Core UAR", "libdoca_common");
	CHECK_ERR(doca_uar_id_get(uar, &id), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_uar_id_get, "DOCA Core UAR", "libdoca_common");
	CHECK(uar == (struct doca_uar *)0x1 && id == 7);
}

/*
 * DOCA GPUNetIO (NVIDIA's 14 GPUNetIO samples, gpu_packet_processing): with a GPU, a program stops
 * at doca_gpu_create; the other calls say the same. The Ethernet GPU calls are in libdoca_eth.
 */
static void test_gpunetio(void)
{
	struct doca_gpu *gpu = (struct doca_gpu *)0x1;
	struct doca_gpu_semaphore *sem = (struct doca_gpu_semaphore *)0x1;
	enum doca_gpu_semaphore_status status = DOCA_GPU_SEMAPHORE_STATUS_HOLD;
	struct doca_gpu_verbs_qp *qp = (struct doca_gpu_verbs_qp *)0x1;
	void *mem_gpu = (void *)0x1, *mem_cpu = (void *)0x1;
	int fd = -7;

	CHECK_ERR(doca_gpu_create("17:00.0", &gpu), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_gpu_create, "DOCA GPUNetIO", "libdoca_gpunetio");
	CHECK_ERR(doca_gpu_mem_alloc(gpu, 4096, 4096, DOCA_GPU_MEM_TYPE_GPU_CPU, &mem_gpu, &mem_cpu), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_gpu_mem_alloc, "DOCA GPUNetIO", "libdoca_gpunetio");
	CHECK_ERR(doca_gpu_dmabuf_fd(gpu, mem_gpu, 4096, &fd), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_gpu_dmabuf_fd, "DOCA GPUNetIO", "libdoca_gpunetio");
	CHECK_ERR(doca_gpu_semaphore_create(gpu, &sem), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_gpu_semaphore_create, "DOCA GPUNetIO", "libdoca_gpunetio");
	CHECK_ERR(doca_gpu_semaphore_get_status(sem, 0, &status), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_gpu_semaphore_get_status, "DOCA GPUNetIO", "libdoca_gpunetio");
	CHECK_ERR(doca_gpu_verbs_export_qp(gpu, NULL, NULL, DOCA_GPUNETIO_VERBS_NIC_HANDLER_AUTO, NULL, NULL, NULL, &qp),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_gpu_verbs_export_qp, "DOCA GPUNetIO", "libdoca_gpunetio");
	CHECK_ERR(doca_gpu_verbs_cpu_proxy_progress(qp), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_gpu_verbs_cpu_proxy_progress, "DOCA GPUNetIO", "libdoca_gpunetio");
	CHECK_ERR(doca_gpu_destroy(gpu), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_gpu_destroy, "DOCA GPUNetIO", "libdoca_gpunetio");
	CHECK(gpu == (struct doca_gpu *)0x1 && sem == (struct doca_gpu_semaphore *)0x1 && qp == (struct doca_gpu_verbs_qp *)0x1);
	CHECK(mem_gpu == (void *)0x1 && mem_cpu == (void *)0x1 && fd == -7 && status == DOCA_GPU_SEMAPHORE_STATUS_HOLD);

	CHECK_ERR(doca_eth_rxq_gpu_enable_mcst_qp(NULL), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_eth_rxq_gpu_enable_mcst_qp, "DOCA Ethernet", "libdoca_eth");
	CHECK_ERR(doca_eth_txq_gpu_set_uar_on_cpu(NULL), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_eth_txq_gpu_set_uar_on_cpu, "DOCA Ethernet", "libdoca_eth");
	/* dpu_gpu_remote_offload's orchestrator: the Comch GPU handles are in libdoca_comch */
	CHECK_ERR(doca_comch_consumer_get_gpu_handle(NULL, NULL), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_comch_consumer_get_gpu_handle, "DOCA Comch GPU data path", "libdoca_comch");
	CHECK_ERR(doca_comch_producer_get_gpu_handle(NULL, NULL), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_comch_producer_get_gpu_handle, "DOCA Comch GPU data path", "libdoca_comch");
}

/* DOCA Core UMEM and the mmap's NIC memory key: libdoca_common, as in DOCA. */
static void test_umem_and_mkey(void)
{
	struct doca_umem *umem = (struct doca_umem *)0x1;
	uint32_t mkey = 7;

	CHECK_ERR(doca_umem_gpu_create(NULL, NULL, NULL, 4096, 0, &umem), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_umem_gpu_create, "DOCA Core UMEM", "libdoca_common");
	CHECK_ERR(doca_umem_create(NULL, NULL, 4096, 0, &umem), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_umem_create, "DOCA Core UMEM", "libdoca_common");
	CHECK_ERR(doca_mmap_get_mkey(NULL, NULL, &mkey), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_LOGGED(doca_mmap_get_mkey, "DOCA Core memory keys", "libdoca_common");
	CHECK(umem == (struct doca_umem *)0x1 && mkey == 7);
}

/* DOCA Core's RDMA bridge is in libdoca_common (this test does not link libdoca_rdma). */
static void test_rdma_bridge_in_common(void)
{
	struct ibv_pd *pd = (struct ibv_pd *)0x1;

	CHECK_ERR(doca_rdma_bridge_get_dev_pd((const struct doca_dev *)0x1, &pd), DOCA_ERROR_NOT_SUPPORTED);
	CHECK(pd == (struct ibv_pd *)0x1);
	CHECK(strstr(sdk_lines(), "doca_rdma_bridge_get_dev_pd: a soft device has no ibv_pd; DOCA Core's RDMA bridge (libdoca_common)") != NULL);
	{
		/*
		 * An rdma-core provider's pd may be a bare 16-byte struct ibv_pd on the heap (rxe's
		 * is): its handle, a kernel index, says it is not softdoca's, and nothing past it is
		 * read (ASan would see a read of the tag behind it).
		 */
		struct {
			void *context;
			uint32_t handle;
		} *bare = calloc(1, 16);
		struct doca_dev *dev = NULL;

		CHECK(bare != NULL);
		if (bare != NULL) {
			bare->handle = 3;
			CHECK_ERR(doca_rdma_bridge_open_dev_from_pd((struct ibv_pd *)bare, &dev), DOCA_ERROR_NOT_SUPPORTED);
			CHECK(dev == NULL && strstr(sdk_lines(), "cannot open a device on an rdma-core ibv_pd") != NULL);
			free(bare);
		}
	}
}

int main(void)
{
	struct doca_log_backend *sdk_log = NULL;

	sdk_file = tmpfile();
	if (sdk_file == NULL || doca_log_backend_create_with_file_sdk(sdk_file, &sdk_log) != DOCA_SUCCESS ||
	    doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING) != DOCA_SUCCESS) {
		fprintf(stderr, "cannot set up the SDK log file\n");
		return 1;
	}
	TEST_RUN(test_error_returning_calls);
	TEST_RUN(test_capability_probes);
	TEST_RUN(test_pointer_and_value_returning_calls);
	TEST_RUN(test_void_calls);
	TEST_RUN(test_newer_calls);
	TEST_RUN(test_devemu_pci_ep);
	TEST_RUN(test_devemu_vfs_fuse);
	TEST_RUN(test_dpdk_bridge);
	TEST_RUN(test_flow_ct_3_3);
	TEST_RUN(test_flow_custom_header);
	TEST_RUN(test_telemetry_3_3);
	TEST_RUN(test_telemetry_exporter_metrics_otlp);
	TEST_RUN(test_mgmt);
	TEST_RUN(test_rmax);
	TEST_RUN(test_urom);
	TEST_RUN(test_verbs);
	TEST_RUN(test_verbs_bridge_data_path);
	TEST_RUN(test_uar);
	TEST_RUN(test_gpunetio);
	TEST_RUN(test_umem_and_mkey);
	TEST_RUN(test_rdma_bridge_in_common);
	TEST_EXIT();
}
