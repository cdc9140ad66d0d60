/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Card profiles: what each emulated card can do, per side. The values are plausible, not
 * measured; docs/device-model.md has them as a table (keep both in step).
 */
#include <strings.h>

#include "model_priv.h"

#define GiB (1ULL << 30)
#define Gbps 1000000000ULL

/* Capabilities every profile shares; profiles below override the rest. */
#define COMMON_CAPS \
	.dma_memcpy = true, \
	.mmap_export_rdma = true, \
	.mmap_max_num_devices = 16, \
	.sync_event_export_remote_net = true, \
	.sync_event_remote_net_create_from_export = true, \
	.sync_event_tasks = true, \
	.rdma = true, \
	.rdma_tasks = SOFTHW_RDMA_TASK_ALL, \
	.rdma_max_send_queue_size = 32768, \
	.rdma_max_recv_queue_size = 32768, \
	.rdma_max_message_size = 1u << 30, \
	.rdma_gid_table_size = 256, \
	.rdma_max_num_connections = 1024, \
	.rdma_max_num_tasks = 65536, \
	.clock_nic_free_running = true, \
	.clock_nic_real_time = true

/* Per generation: ConnectX-7 / BlueField-3 have a DPA (and its timer) and the cache-invalidate
 * task of doca_mmap_advise, up to the DMA engine's largest buffer. Their DPA: 16 cores of 16
 * EUs, 190 of them available to applications (as observed on a BlueField-3). */
#define GEN_CAPS(newer, buf_size) \
	.clock_nic_dpa_timer = (newer), \
	.dpa = (newer), \
	.dpa_num_cores = (newer) ? 16 : 0, \
	.dpa_eus_per_core = (newer) ? 16 : 0, \
	.dpa_eus_available = (newer) ? 190 : 0, \
	.dpa_max_threads_per_kernel = (newer) ? 190 : 0, \
	.dpa_kernel_max_run_time_sec = (newer) ? 60 : 0, \
	.dpa_mem_size = (newer) ? 256ULL << 20 : 0, \
	.mmap_advise_cache_invalidate = (newer), \
	.mmap_advise_max_buf_size = (newer) ? (buf_size) : 0

/* RDMA per generation: ConnectX-7 / BlueField-3 have DC and 32-entry lists, the older ones
 * RC only and 16 entries. */
#define RDMA_CAPS(newer) \
	.rdma_dc = (newer), \
	.rdma_max_send_buf_list_len = (newer) ? 32 : 16, \
	.rdma_max_recv_buf_list_len = (newer) ? 32 : 16

/* ConnectX NICs: one host side, no PCIe export to a peer, no representors. */
#define NIC_CAPS(buf_size, list_len, tasks, moderation, vectors) \
	{ \
		COMMON_CAPS, \
		RDMA_CAPS(moderation), \
		GEN_CAPS(moderation, buf_size), \
		.dma_max_buf_size = (buf_size), \
		.dma_max_buf_list_len = (list_len), \
		.dma_max_num_tasks = (tasks), \
		.notification_moderation = (moderation), \
		.accelerate_resource_reclaim = (moderation), \
		.num_completion_vectors = (vectors), \
	}

/* Comch on a BlueField: servers on the DPU side, clients on the host side, the fast path on both
 * (its largest buffer is what one slot of a consumer's shared ring holds). */
#define COMCH_CAPS(dpu, queue, clients, fp_buf_size) \
	.comch_server = (dpu), \
	.comch_client = !(dpu), \
	.comch_max_name_len = 120, \
	.comch_max_msg_size = 4080, \
	.comch_max_recv_queue_size = (queue), \
	.comch_max_clients = (clients), \
	.comch_max_send_tasks = (queue), \
	.comch_fast_path = true, \
	.comch_fp_max_num_tasks = (queue), \
	.comch_fp_max_buf_size = (fp_buf_size), \
	.comch_fp_max_buf_list_len = 1, \
	.comch_max_producers = 64, \
	.comch_max_consumers = 64, \
	.comch_max_imm_data_len = 32

/* STA: the NVMe-oF target offload runs on a BlueField-3's DPA (either side); the older cards
 * and the ConnectX NICs have none. Limits are plausible, not measured: 64-byte command
 * capsules plus up to 8 KiB in-capsule data, 16-byte responses, 128 KiB I/Os. */
#define STA_CAPS(newer) \
	.sta = (newer), \
	.sta_max_devs = (newer) ? 4 : 0, \
	.sta_max_io_threads = (newer) ? 32 : 0, \
	.sta_max_subsys = (newer) ? 128 : 0, \
	.sta_max_ns_per_subsys = (newer) ? 32 : 0, \
	.sta_max_qps = (newer) ? 2048 : 0, \
	.sta_max_io_size = (newer) ? 128u << 10 : 0, \
	.sta_max_io_queue_size = (newer) ? 128 : 0, \
	.sta_max_be = (newer) ? 64 : 0, \
	.sta_max_qs_per_be = (newer) ? 64 : 0, \
	.sta_max_eus = (newer) ? 96 : 0, \
	.sta_max_qps_per_eu = (newer) ? 64 : 0, \
	.sta_max_io_per_eu = (newer) ? 4096 : 0, \
	.sta_min_ioccsz = (newer) ? 64 : 0, \
	.sta_max_ioccsz = (newer) ? 64 + 8192 : 0, \
	.sta_min_iorcsz = (newer) ? 16 : 0, \
	.sta_max_iorcsz = (newer) ? 16 : 0, \
	.sta_max_icdoff = 0

/* BlueField: both sides export over PCIe; only the DPU side manages representors. */
#define BF_CAPS(dpu, buf_size, list_len, tasks, import, newer, vectors) \
	{ \
		COMMON_CAPS, \
		RDMA_CAPS(newer), \
		GEN_CAPS(newer, buf_size), \
		STA_CAPS(newer), \
		COMCH_CAPS(dpu, (newer) ? 8192 : 4096, (newer) ? 512 : 256, (newer) ? 32u << 20 : 16u << 20), \
		.dma_max_buf_size = (buf_size), \
		.dma_max_buf_list_len = (list_len), \
		.dma_max_num_tasks = (tasks), \
		.mmap_export_pci = true, \
		.mmap_create_from_export_pci = (import), \
		.sync_event_export_remote_pci = true, \
		.sync_event_create_from_export = true, \
		.rep_filter_all = (dpu), \
		.rep_filter_net = (dpu), \
		.rep_filter_emulated = (dpu), \
		.hotplug_manager = (dpu), \
		.notification_moderation = (newer), \
		.accelerate_resource_reclaim = (newer), \
		.num_completion_vectors = (vectors), \
	}

static const struct model_profile profiles[SOFTHW_PROFILE_COUNT] = {
	[SOFTHW_PROFILE_CX6DX] = {
		.name = "ConnectX-6 Dx",
		.aliases = {"cx6dx", "connectx-6dx", "connectx6dx"},
		.has_dpu = false,
		.port_rate = 100 * Gbps,
		.caps = {
			[MODEL_SIDE_HOST] = NIC_CAPS(1 * GiB, 16, 8192, false, 8),
		},
	},
	[SOFTHW_PROFILE_CX7] = {
		.name = "ConnectX-7",
		.aliases = {"cx7", "connectx-7", "connectx7"},
		.has_dpu = false,
		.port_rate = 400 * Gbps,
		.caps = {
			[MODEL_SIDE_HOST] = NIC_CAPS(2 * GiB, 32, 16384, true, 16),
		},
	},
	[SOFTHW_PROFILE_BF2] = {
		.name = "BlueField-2",
		.aliases = {"bf2", "bluefield-2", "bluefield2"},
		.has_dpu = true,
		.port_rate = 100 * Gbps,
		.caps = {
			/* BlueField-2 hosts cannot map memory the DPU exported over PCIe. */
			[MODEL_SIDE_HOST] = BF_CAPS(false, 1 * GiB, 16, 16384, false, false, 8),
			[MODEL_SIDE_DPU] = BF_CAPS(true, 1 * GiB, 16, 16384, true, false, 8),
		},
	},
	[SOFTHW_PROFILE_BF3] = {
		.name = "BlueField-3",
		.aliases = {"bf3", "bluefield-3", "bluefield3"},
		.has_dpu = true,
		.port_rate = 200 * Gbps,
		.caps = {
			[MODEL_SIDE_HOST] = BF_CAPS(false, 2 * GiB, 32, 65536, true, true, 16),
			[MODEL_SIDE_DPU] = BF_CAPS(true, 2 * GiB, 32, 65536, true, true, 16),
		},
	},
};

const struct model_profile *model_profile(enum softhw_profile profile)
{
	if ((unsigned)profile >= SOFTHW_PROFILE_COUNT)
		return NULL;
	return &profiles[profile];
}

static bool profile_matches(const struct model_profile *p, const char *name)
{
	if (strcasecmp(name, p->name) == 0)
		return true;
	for (unsigned a = 0; a < 3 && p->aliases[a]; a++)
		if (strcasecmp(name, p->aliases[a]) == 0)
			return true;
	return false;
}

bool model_profile_lookup(const char *name, enum softhw_profile *profile)
{
	for (unsigned p = 0; p < SOFTHW_PROFILE_COUNT; p++) {
		if (profile_matches(&profiles[p], name)) {
			*profile = (enum softhw_profile)p;
			return true;
		}
	}
	return false;
}

const char *model_profile_names(void)
{
	return "cx6dx (ConnectX-6 Dx), cx7 (ConnectX-7), bf2 (BlueField-2), bf3 (BlueField-3)";
}

const char *softhw_profile_name(enum softhw_profile profile)
{
	const struct model_profile *p = model_profile(profile);

	return p ? p->name : "unknown";
}
