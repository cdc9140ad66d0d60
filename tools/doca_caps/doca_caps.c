/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_caps: prints the DOCA devices this process sees (the soft device model of the active
 * configuration and role), their representors, and what each library can do on them, with
 * the flags of DOCA's tool of the same name.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doca_comch.h"
#include "doca_comch_consumer.h"
#include "doca_comch_producer.h"
#include "doca_ctx.h"
#include "doca_dev.h"
#include "doca_dma.h"
#include "doca_error.h"
#include "doca_mmap.h"
#include "doca_rdma.h"
#include "doca_sync_event.h"
#include "doca_version.h"
#include "common/priv/dev_priv.h"

#define NAME_WIDTH 40 /* indent + name column */

/* A yes/no capability: a DOCA getter writing 1/0. */
struct flag_cap {
	const char *name;
	doca_error_t (*get)(const struct doca_devinfo *, uint8_t *);
};

/* A yes/no capability answered by DOCA_SUCCESS / DOCA_ERROR_NOT_SUPPORTED. */
struct status_cap {
	const char *name;
	doca_error_t (*get)(const struct doca_devinfo *);
};

static const struct flag_cap common_caps[] = {
	{"hotplug_manager", doca_devinfo_cap_is_hotplug_manager_supported},
	{"notification_moderation", doca_devinfo_cap_is_notification_moderation_supported},
	{"accelerate_resource_reclaim", doca_devinfo_cap_is_accelerate_resource_reclaim_supported},
	{"rep_filter_all", doca_devinfo_rep_cap_is_filter_all_supported},
	{"rep_filter_net", doca_devinfo_rep_cap_is_filter_net_supported},
	{"rep_filter_emulated", doca_devinfo_rep_cap_is_filter_emulated_supported},
};

static const struct flag_cap mmap_caps[] = {
	{"export_pci", doca_mmap_cap_is_export_pci_supported},
	{"create_from_export_pci", doca_mmap_cap_is_create_from_export_pci_supported},
};

static const struct status_cap sync_event_caps[] = {
	{"export_to_remote_pci", doca_sync_event_cap_is_export_to_remote_pci_supported},
	{"create_from_export", doca_sync_event_cap_is_create_from_export_supported},
	{"export_to_remote_net", doca_sync_event_cap_is_export_to_remote_net_supported},
	{"remote_net_create_from_export", doca_sync_event_cap_remote_net_is_create_from_export_supported},
	{"task_get", doca_sync_event_cap_task_get_is_supported},
	{"task_notify_set", doca_sync_event_cap_task_notify_set_is_supported},
	{"task_notify_add", doca_sync_event_cap_task_notify_add_is_supported},
	{"task_wait_eq", doca_sync_event_cap_task_wait_eq_is_supported},
	{"task_wait_neq", doca_sync_event_cap_task_wait_neq_is_supported},
};

/* A limit: a DOCA getter writing a number, NOT_SUPPORTED where the device lacks the feature. */
struct u32_cap {
	const char *name;
	doca_error_t (*get)(const struct doca_devinfo *, uint32_t *);
};

static const struct u32_cap comch_limits[] = {
	{"max_name_len", doca_comch_cap_get_max_name_len},
	{"max_msg_size", doca_comch_cap_get_max_msg_size},
	{"max_recv_queue_size", doca_comch_cap_get_max_recv_queue_size},
	{"max_clients", doca_comch_cap_get_max_clients},
	{"max_send_tasks", doca_comch_cap_get_max_send_tasks},
};

static const struct u32_cap producer_limits[] = {
	{"producer_max_num_tasks", doca_comch_producer_cap_get_max_num_tasks},
	{"producer_max_buf_size", doca_comch_producer_cap_get_max_buf_size},
	{"producer_max_buf_list_len", doca_comch_producer_cap_get_max_buf_list_len},
	{"producer_max_producers", doca_comch_producer_cap_get_max_producers},
};

static const struct u32_cap consumer_limits[] = {
	{"consumer_max_num_tasks", doca_comch_consumer_cap_get_max_num_tasks},
	{"consumer_max_buf_size", doca_comch_consumer_cap_get_max_buf_size},
	{"consumer_max_buf_list_len", doca_comch_consumer_cap_get_max_buf_list_len},
	{"consumer_max_consumers", doca_comch_consumer_cap_get_max_consumers},
	{"consumer_max_imm_data_len", doca_comch_consumer_cap_get_max_imm_data_len},
};

static void line(int indent, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "<indent><name padded> " before a value */
static void label(int indent, const char *name)
{
	printf("%*s%-*s ", indent, "", NAME_WIDTH - indent, name);
}

static void line(int indent, const char *name, const char *fmt, ...)
{
	va_list ap;

	label(indent, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static const char *yes_no(bool v)
{
	return v ? "supported" : "unsupported";
}

static const char *func_type_name(enum doca_pci_func_type t)
{
	return t == DOCA_PCI_FUNC_TYPE_PF ? "PF" : t == DOCA_PCI_FUNC_TYPE_VF ? "VF" : "SF";
}

/* softhw_profile_name() is internal to the libraries; the tool names profiles itself. */
static const char *profile_name(enum softhw_profile p)
{
	static const char *const names[SOFTHW_PROFILE_COUNT] = {
		[SOFTHW_PROFILE_CX6DX] = "ConnectX-6 Dx",
		[SOFTHW_PROFILE_CX7] = "ConnectX-7",
		[SOFTHW_PROFILE_BF2] = "BlueField-2",
		[SOFTHW_PROFILE_BF3] = "BlueField-3",
	};

	return (unsigned)p < SOFTHW_PROFILE_COUNT ? names[p] : "unknown";
}

static void print_hex16(const uint8_t a[16])
{
	for (int i = 0; i < 16; i += 2)
		printf("%s%02x%02x", i ? ":" : "", a[i], a[i + 1]);
}

/* ---- devices ------------------------------------------------------------------------------ */

static void print_dev_attrs(const struct doca_devinfo *info)
{
	char name[DOCA_DEVINFO_IFACE_NAME_SIZE];
	uint8_t mac[DOCA_DEVINFO_MAC_ADDR_SIZE], ip4[DOCA_DEVINFO_IPV4_ADDR_SIZE], ip6[DOCA_DEVINFO_IPV6_ADDR_SIZE];
	enum doca_pci_func_type type;
	uint64_t rate;
	uint16_t vhca;
	const struct softhw_card *card = info->fn->card;

	if (doca_devinfo_get_ibdev_name(info, name, DOCA_DEVINFO_IBDEV_NAME_SIZE) == DOCA_SUCCESS)
		line(8, "ibdev_name", "%s", name);
	if (doca_devinfo_get_iface_name(info, name, sizeof(name)) == DOCA_SUCCESS)
		line(8, "iface_name", "%s", name);
	if (doca_devinfo_get_pci_func_type(info, &type) == DOCA_SUCCESS)
		line(8, "pci_func_type", "%s", func_type_name(type));
	if (doca_devinfo_get_mac_addr(info, mac, sizeof(mac)) == DOCA_SUCCESS)
		line(8, "mac_addr", "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
	if (doca_devinfo_get_ipv4_addr(info, ip4, sizeof(ip4)) == DOCA_SUCCESS)
		line(8, "ipv4_addr", "%u.%u.%u.%u", ip4[0], ip4[1], ip4[2], ip4[3]);
	else
		line(8, "ipv4_addr", "0.0.0.0");
	if (doca_devinfo_get_ipv6_addr(info, ip6, sizeof(ip6)) == DOCA_SUCCESS) {
		label(8, "ipv6_addr");
		print_hex16(ip6);
		putchar('\n');
	}
	/* RoCE v2 GIDs are read from the model until doca_rdma's getters exist */
	line(8, "gid_table_size", "1");
	label(8, "GID[0]");
	print_hex16(info->fn->gid);
	putchar('\n');
	if (doca_devinfo_get_vhca_id(info, &vhca) == DOCA_SUCCESS)
		line(8, "vhca_id", "%u", vhca);
	if (doca_devinfo_get_active_rate(info, &rate) == DOCA_SUCCESS)
		line(8, "active_rate", "%" PRIu64, rate);
	/* softdoca's own line: which emulated card this is; only a DPU side lists representors */
	line(8, "soft_card", "%s (%s, %s side)", card->name, profile_name(card->profile),
	     card->has_dpu && info->fn->caps.rep_filter_all ? "DPU" : "host");
}

static void print_reps(struct doca_devinfo *info)
{
	struct doca_devinfo_rep **reps = NULL;
	struct doca_dev *dev = NULL;
	uint8_t can = 0;
	uint32_t n = 0;

	if (doca_devinfo_rep_cap_is_filter_all_supported(info, &can) != DOCA_SUCCESS || !can) {
		line(4, "representors", "none (representors are listed on the DPU side)");
		return;
	}
	if (doca_dev_open(info, &dev) != DOCA_SUCCESS ||
	    doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_ALL, &reps, &n) != DOCA_SUCCESS) {
		line(4, "representors", "cannot be listed");
		doca_dev_close(dev);
		return;
	}
	line(4, "representors", "%u", n);
	for (uint32_t i = 0; i < n; i++) {
		char pci[DOCA_DEVINFO_REP_PCI_ADDR_SIZE], vuid[DOCA_DEVINFO_REP_VUID_SIZE];
		char iface[DOCA_DEVINFO_IFACE_NAME_SIZE];
		enum doca_pci_func_type type;
		uint8_t hotplug = 0;
		uint16_t vhca = 0;

		if (doca_devinfo_rep_get_pci_addr_str(reps[i], pci) != DOCA_SUCCESS)
			continue;
		printf("    PCI: %s\n", pci);
		if (doca_devinfo_rep_get_vuid(reps[i], vuid, sizeof(vuid)) == DOCA_SUCCESS)
			line(8, "vuid", "%s", vuid);
		if (doca_devinfo_rep_get_iface_name(reps[i], iface, sizeof(iface)) == DOCA_SUCCESS)
			line(8, "iface_name", "%s", iface);
		if (doca_devinfo_rep_get_pci_func_type(reps[i], &type) == DOCA_SUCCESS)
			line(8, "pci_func_type", "%s", func_type_name(type));
		if (doca_devinfo_rep_get_is_hotplug(reps[i], &hotplug) == DOCA_SUCCESS)
			line(8, "is_hotplug", "%s", hotplug ? "yes" : "no");
		if (doca_devinfo_rep_get_vhca_id(reps[i], &vhca) == DOCA_SUCCESS)
			line(8, "vhca_id", "%u", vhca);
	}
	doca_devinfo_rep_destroy_list(reps);
	doca_dev_close(dev);
}

/* ---- capabilities per library --------------------------------------------------------- */

static void print_flags(const struct doca_devinfo *info, const struct flag_cap *caps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t v = 0;

		line(8, caps[i].name, "%s", yes_no(caps[i].get(info, &v) == DOCA_SUCCESS && v));
	}
}

static void print_statuses(const struct doca_devinfo *info, const struct status_cap *caps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		line(8, caps[i].name, "%s", yes_no(caps[i].get(info) == DOCA_SUCCESS));
	}
}

/* Limits the device does not have (NOT_SUPPORTED) are left out rather than printed as 0. */
static void print_limits(const struct doca_devinfo *info, const struct u32_cap *caps, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t v = 0;

		if (caps[i].get(info, &v) == DOCA_SUCCESS)
			line(8, caps[i].name, "%u", v);
	}
}

static const struct u32_cap rdma_limits[] = {
	{"max_send_queue_size", doca_rdma_cap_get_max_send_queue_size},
	{"max_recv_queue_size", doca_rdma_cap_get_max_recv_queue_size},
	{"max_send_buf_list_len", doca_rdma_cap_get_max_send_buf_list_len},
	{"max_message_size", doca_rdma_cap_get_max_message_size},
	{"gid_table_size", doca_rdma_cap_get_gid_table_size},
};

static const struct status_cap rdma_tasks[] = {
	{"task_receive", doca_rdma_cap_task_receive_is_supported},
	{"task_send", doca_rdma_cap_task_send_is_supported},
	{"task_send_imm", doca_rdma_cap_task_send_imm_is_supported},
	{"task_read", doca_rdma_cap_task_read_is_supported},
	{"task_write", doca_rdma_cap_task_write_is_supported},
	{"task_write_imm", doca_rdma_cap_task_write_imm_is_supported},
	{"task_atomic_cmp_swp", doca_rdma_cap_task_atomic_cmp_swp_is_supported},
	{"task_atomic_fetch_add", doca_rdma_cap_task_atomic_fetch_add_is_supported},
	{"task_remote_net_se_get", doca_rdma_cap_task_remote_net_sync_event_get_is_supported},
	{"task_remote_net_se_notify_set", doca_rdma_cap_task_remote_net_sync_event_notify_set_is_supported},
	{"task_remote_net_se_notify_add", doca_rdma_cap_task_remote_net_sync_event_notify_add_is_supported},
};

/* RDMA: transports, limits, the receive list length per transport, the tasks. */
static void print_rdma_caps(const struct doca_devinfo *info)
{
	bool rc = doca_rdma_cap_transport_type_is_supported(info, DOCA_RDMA_TRANSPORT_TYPE_RC) == DOCA_SUCCESS;
	bool dc = doca_rdma_cap_transport_type_is_supported(info, DOCA_RDMA_TRANSPORT_TYPE_DC) == DOCA_SUCCESS;
	uint32_t len = 0;

	puts("    rdma");
	line(8, "transport_rc", "%s", yes_no(rc));
	line(8, "transport_dc", "%s", yes_no(dc));
	if (!rc)
		return;
	print_limits(info, rdma_limits, sizeof(rdma_limits) / sizeof(rdma_limits[0]));
	if (doca_rdma_cap_task_receive_get_max_dst_buf_list_len(info, DOCA_RDMA_TRANSPORT_TYPE_RC, &len) ==
	    DOCA_SUCCESS)
		line(8, "receive_max_dst_buf_list_len_rc", "%u", len);
	if (doca_rdma_cap_task_receive_get_max_dst_buf_list_len(info, DOCA_RDMA_TRANSPORT_TYPE_DC, &len) ==
	    DOCA_SUCCESS)
		line(8, "receive_max_dst_buf_list_len_dc", "%u", len);
	print_statuses(info, rdma_tasks, sizeof(rdma_tasks) / sizeof(rdma_tasks[0]));
}

/* Comch: a server on the DPU side, a client on the host side, and the fast path on both. */
static void print_comch_caps(const struct doca_devinfo *info)
{
	bool producer = doca_comch_producer_cap_is_supported(info) == DOCA_SUCCESS;
	bool consumer = doca_comch_consumer_cap_is_supported(info) == DOCA_SUCCESS;

	puts("    comch");
	line(8, "server", "%s", yes_no(doca_comch_cap_server_is_supported(info) == DOCA_SUCCESS));
	line(8, "client", "%s", yes_no(doca_comch_cap_client_is_supported(info) == DOCA_SUCCESS));
	print_limits(info, comch_limits, sizeof(comch_limits) / sizeof(comch_limits[0]));
	line(8, "producer", "%s", yes_no(producer));
	if (producer)
		print_limits(info, producer_limits, sizeof(producer_limits) / sizeof(producer_limits[0]));
	line(8, "consumer", "%s", yes_no(consumer));
	if (consumer)
		print_limits(info, consumer_limits, sizeof(consumer_limits) / sizeof(consumer_limits[0]));
}

static void print_caps(const struct doca_devinfo *info)
{
	uint32_t vectors = 0, list_len = 0;
	uint64_t buf_size = 0;

	puts("    common");
	print_flags(info, common_caps, sizeof(common_caps) / sizeof(common_caps[0]));
	if (doca_ctx_cap_get_num_completion_vectors(info, &vectors) == DOCA_SUCCESS)
		line(8, "num_completion_vectors", "%u", vectors);

	puts("    mmap");
	print_flags(info, mmap_caps, sizeof(mmap_caps) / sizeof(mmap_caps[0]));

	puts("    sync_event");
	print_statuses(info, sync_event_caps, sizeof(sync_event_caps) / sizeof(sync_event_caps[0]));

	puts("    dma");
	line(8, "task_memcpy", "%s", yes_no(doca_dma_cap_task_memcpy_is_supported(info) == DOCA_SUCCESS));
	if (doca_dma_cap_task_memcpy_is_supported(info) == DOCA_SUCCESS) {
		if (doca_dma_cap_task_memcpy_get_max_buf_size(info, &buf_size) == DOCA_SUCCESS)
			line(8, "task_memcpy_max_buf_size", "%" PRIu64, buf_size);
		if (doca_dma_cap_task_memcpy_get_max_buf_list_len(info, &list_len) == DOCA_SUCCESS)
			line(8, "task_memcpy_max_buf_list_len", "%u", list_len);
	}

	print_comch_caps(info);
	print_rdma_caps(info);
}

/* ---- main ------------------------------------------------------------------------------- */

enum { OPT_LIST_DEVS = 256, OPT_LIST_REP_DEVS, OPT_LIST_LIBS, OPT_PCI_ADDR };

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: doca_caps [options]\n"
		"Prints the DOCA devices, their representors and their capabilities per DOCA library.\n"
		"With no option: every device with its attributes, representors and capabilities.\n"
		"\n"
		"  --list-devs          list the devices and their attributes\n"
		"  --list-rep-devs      list the representors of every device (DPU side)\n"
		"  --list-libs          list the DOCA libraries of this installation\n"
		"  --pci-addr <addr>    only the device with this PCI address (BB:DD.F or DDDD:BB:DD.F)\n"
		"  -v, --version        print the DOCA version\n"
		"  -h, --help           print this help\n"
		"\n"
		"The devices come from the softdoca device model: SOFTDOCA_CONFIG selects a configuration\n"
		"file (see docs/device-model.md), SOFTDOCA_ROLE=host|dpu the side of the cards.\n");
}

static void list_libs(void)
{
	/* The DOCA libraries softdoca builds so far; each later library adds its line. */
	static const char *const libs[] = {"common", "argp", "dma", "comch", "rdma"};

	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++)
		line(0, libs[i], "supported");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"list-devs", no_argument, NULL, OPT_LIST_DEVS},
		{"list-rep-devs", no_argument, NULL, OPT_LIST_REP_DEVS},
		{"list-libs", no_argument, NULL, OPT_LIST_LIBS},
		{"pci-addr", required_argument, NULL, OPT_PCI_ADDR},
		{"version", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	bool devs = false, reps = false, libs = false;
	const char *pci = NULL;
	struct doca_devinfo **list;
	uint32_t n = 0, shown = 0;
	doca_error_t err;
	int c;

	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case OPT_LIST_DEVS:
			devs = true;
			break;
		case OPT_LIST_REP_DEVS:
			reps = true;
			break;
		case OPT_LIST_LIBS:
			libs = true;
			break;
		case OPT_PCI_ADDR:
			pci = optarg;
			break;
		case 'v':
			printf("doca_caps version %s (softdoca)\n", doca_version_runtime());
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "doca_caps: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 1;
	}
	if (libs) {
		list_libs();
		if (!devs && !reps && pci == NULL)
			return 0;
	}
	err = doca_devinfo_create_list(&list, &n);
	if (err != DOCA_SUCCESS) {
		fprintf(stderr, "doca_caps: cannot list DOCA devices: %s\n", doca_error_get_descr(err));
		return 1;
	}
	for (uint32_t i = 0; i < n; i++) {
		char addr[DOCA_DEVINFO_PCI_ADDR_SIZE];
		uint8_t eq = 1;

		if (pci && doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) != DOCA_SUCCESS) {
			fprintf(stderr, "doca_caps: '%s' is not a PCI address; write BB:DD.F or DDDD:BB:DD.F\n", pci);
			doca_devinfo_destroy_list(list);
			return 1;
		}
		if (!eq || doca_devinfo_get_pci_addr_str(list[i], addr) != DOCA_SUCCESS)
			continue;
		shown++;
		printf("PCI: %s\n", addr);
		if (devs || !reps)
			print_dev_attrs(list[i]);
		if (reps || !devs)
			print_reps(list[i]);
		if (!devs && !reps)
			print_caps(list[i]);
	}
	doca_devinfo_destroy_list(list);
	if (pci && shown == 0) {
		fprintf(stderr, "doca_caps: no DOCA device with PCI address '%s'; run doca_caps --list-devs to see them\n",
			pci);
		return 1;
	}
	return 0;
}
