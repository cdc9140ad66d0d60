/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Runs the doca_caps tool with each of its flags, for the built-in card in both roles and for
 * configured cards, and checks its exit code and output. Usage: test_doca_caps <doca_caps path>
 */
#include "child.h"

static const char *doca_caps;
static char out[CHILD_OUT_MAX];

/* Runs "env <env> doca_caps <args>" with stdout and stderr in `out`; returns the exit code. */
static int caps(const char *env, const char *args)
{
	char cmd[1024];
	size_t n;
	FILE *p;
	int status;

	snprintf(cmd, sizeof(cmd), "env SOFTDOCA_CONFIG=builtin SOFTDOCA_ROLE=host %s '%s' %s 2>&1", env, doca_caps,
		 args);
	p = popen(cmd, "r");
	if (p == NULL) {
		perror("popen");
		exit(EXIT_FAILURE);
	}
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Is there a line "<spaces><name><spaces><value>"? */
static bool has(const char *name, const char *value)
{
	for (const char *l = out; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		const char *p = l;
		size_t nl = strlen(name);

		while (*p == ' ')
			p++;
		if (strncmp(p, name, nl) != 0 || p[nl] != ' ')
			continue;
		p += nl;
		while (*p == ' ')
			p++;
		if (strncmp(p, value, strlen(value)) == 0 && (p[strlen(value)] == '\n' || p[strlen(value)] == '\0'))
			return true;
	}
	return false;
}

#define CHECK_HAS(name, value) \
	do { \
		CHECK(has(name, value)); \
		if (!has(name, value)) \
			fprintf(stderr, "  missing line '%s  %s' in:\n%s", name, value, out); \
	} while (0)

#define CHECK_OUT(text) \
	do { \
		CHECK(strstr(out, text) != NULL); \
		if (strstr(out, text) == NULL) \
			fprintf(stderr, "  missing '%s' in:\n%s", text, out); \
	} while (0)

static void full_print(void)
{
	CHECK(caps("", "") == 0);
	CHECK_OUT("PCI: 0000:b1:00.0\n");
	CHECK_OUT("PCI: 0000:b1:00.1\n");
	CHECK_HAS("ibdev_name", "mlx5_0");
	CHECK_HAS("iface_name", "ens1f0np0");
	CHECK_HAS("mac_addr", "02:5d:0c:00:00:00");
	CHECK_HAS("ipv4_addr", "127.0.0.1");
	CHECK_HAS("GID[0]", "0000:0000:0000:0000:0000:ffff:7f00:0001");
	CHECK_HAS("representors", "none (representors are listed on the DPU side)");
	CHECK_HAS("rep_filter_net", "unsupported");
	CHECK_HAS("export_pci", "supported");
	CHECK_HAS("export_to_remote_pci", "supported");
	CHECK_HAS("task_memcpy", "supported");
	CHECK_HAS("task_memcpy_max_buf_size", "2147483648");
	CHECK_HAS("task_memcpy_max_buf_list_len", "32");
	CHECK_HAS("soft_card", "bf3-0 (BlueField-3, host side)");
	/* Comch on the host side: a client, not a server, and the fast path */
	CHECK_OUT("    comch\n        server ");
	CHECK_HAS("server", "unsupported");
	CHECK_HAS("client", "supported");
	CHECK_HAS("max_msg_size", "4080");
	CHECK_HAS("producer", "supported");
	CHECK_HAS("consumer", "supported");
}

/* The DPU side of the default card (BlueField-3) hosts Comch servers. */
static void comch_dpu(void)
{
	CHECK(caps("SOFTDOCA_ROLE=dpu", "--pci-addr 03:00.0") == 0);
	CHECK_OUT("PCI: 0000:03:00.0\n");
	CHECK_HAS("server", "supported");
	CHECK_HAS("client", "unsupported");
	CHECK_HAS("max_name_len", "120");
	CHECK_HAS("max_msg_size", "4080");
	CHECK_HAS("max_recv_queue_size", "8192");
	CHECK_HAS("max_clients", "512");
	CHECK_HAS("max_send_tasks", "8192");
	CHECK_HAS("producer", "supported");
	CHECK_HAS("producer_max_num_tasks", "8192");
	CHECK_HAS("producer_max_buf_size", "33554432");
	CHECK_HAS("producer_max_buf_list_len", "1");
	CHECK_HAS("producer_max_producers", "64");
	CHECK_HAS("consumer", "supported");
	CHECK_HAS("consumer_max_num_tasks", "8192");
	CHECK_HAS("consumer_max_buf_size", "33554432");
	CHECK_HAS("consumer_max_buf_list_len", "1");
	CHECK_HAS("consumer_max_consumers", "64");
	CHECK_HAS("consumer_max_imm_data_len", "32");
	/* --list-devs prints attributes only */
	CHECK(caps("SOFTDOCA_ROLE=dpu", "--list-devs") == 0);
	CHECK(strstr(out, "comch") == NULL);
}

static void list_devs(void)
{
	CHECK(caps("", "--list-devs") == 0);
	CHECK_OUT("PCI: 0000:b1:00.0\n");
	CHECK_HAS("ibdev_name", "mlx5_1");
	CHECK(strstr(out, "task_memcpy") == NULL); /* attributes only */
	CHECK(strstr(out, "representors") == NULL);

	CHECK(caps("SOFTDOCA_ROLE=dpu", "--list-devs") == 0);
	CHECK_OUT("PCI: 0000:03:00.0\n");
	CHECK_OUT("PCI: 0000:03:00.1\n");
	CHECK_HAS("iface_name", "p0");
	CHECK(strstr(out, "b1:00") == NULL);
}

static void list_rep_devs(void)
{
	CHECK(caps("", "--list-rep-devs") == 0);
	CHECK_HAS("representors", "none (representors are listed on the DPU side)");
	CHECK(caps("SOFTDOCA_ROLE=dpu", "--list-rep-devs") == 0);
	CHECK_OUT("PCI: 0000:03:00.0\n    representors");
	CHECK_OUT("    PCI: 0000:b1:00.0\n");
	CHECK_HAS("vuid", "softdoca-bf3-0-hpf0");
	CHECK_HAS("iface_name", "pf0hpf");
	CHECK_HAS("is_hotplug", "no");
	CHECK(strstr(out, "ibdev_name") == NULL); /* representors only */
}

static void list_libs_and_version(void)
{
	CHECK(caps("", "--list-libs") == 0);
	CHECK_HAS("common", "supported");
	CHECK_HAS("argp", "supported");
	CHECK_HAS("dma", "supported");
	CHECK_HAS("comch", "supported");
	CHECK(strstr(out, "PCI:") == NULL);
	CHECK(caps("", "-v") == 0);
	CHECK_OUT("doca_caps version 3.0.0058");
	CHECK(caps("", "--version") == 0);
	CHECK_OUT("doca_caps version 3.0.0058");
	CHECK(caps("", "-h") == 0);
	CHECK_OUT("Usage: doca_caps");
	CHECK_OUT("--pci-addr");
}

static void pci_addr(void)
{
	CHECK(caps("", "--pci-addr b1:00.1") == 0);
	CHECK_OUT("PCI: 0000:b1:00.1\n");
	CHECK(strstr(out, "0000:b1:00.0") == NULL);
	CHECK_HAS("task_memcpy", "supported");
	CHECK(caps("", "--list-devs --pci-addr=0000:B1:00.0") == 0);
	CHECK_OUT("PCI: 0000:b1:00.0\n");
	CHECK(strstr(out, "0000:b1:00.1") == NULL);
	/* unknown or malformed addresses fail */
	CHECK(caps("", "--pci-addr c1:00.0") == 1);
	CHECK_OUT("no DOCA device with PCI address 'c1:00.0'");
	CHECK(caps("", "--pci-addr 03:00.0") == 1); /* a DPU address, on the host side */
	CHECK(caps("", "--pci-addr zz") == 1);
	CHECK_OUT("'zz' is not a PCI address");
	CHECK(caps("", "--pci-addr") == 1);
}

static void bad_usage(void)
{
	CHECK(caps("", "--bogus") == 1);
	CHECK_OUT("Usage: doca_caps");
	CHECK(caps("", "extra") == 1);
	CHECK_OUT("unexpected argument 'extra'");
	CHECK(caps("SOFTDOCA_ROLE=banana", "--list-devs") == 1);
	CHECK_OUT("SOFTDOCA_ROLE='banana' is not a role");
	CHECK_OUT("cannot list DOCA devices");
}

static void configured(void)
{
	char env[300];

	snprintf(env, sizeof(env), "SOFTDOCA_CONFIG=%s",
		 write_file("devices.conf", "[card nic]\nprofile = cx7\nhost.pci = 0000:c1:00.0\n"));
	CHECK(caps(env, "") == 0);
	CHECK_OUT("PCI: 0000:c1:00.0\n");
	CHECK(strstr(out, "PCI: 0000:b1:00.0") == NULL);
	CHECK_HAS("export_pci", "unsupported");
	CHECK_HAS("export_to_remote_pci", "unsupported");
	CHECK_HAS("task_memcpy_max_buf_list_len", "32");
	CHECK_HAS("soft_card", "nic (ConnectX-7, host side)");
	/* no Comch on a NIC: every part unsupported, no limits printed */
	CHECK_OUT("    comch\n");
	CHECK_HAS("server", "unsupported");
	CHECK_HAS("client", "unsupported");
	CHECK_HAS("producer", "unsupported");
	CHECK_HAS("consumer", "unsupported");
	CHECK(strstr(out, "max_msg_size") == NULL);
	CHECK(strstr(out, "max_clients") == NULL);
	CHECK(strstr(out, "producer_max") == NULL);
	CHECK(strstr(out, "consumer_max") == NULL);
	CHECK(caps(env, "--pci-addr c1:00.0") == 0);
	/* a DPU-side process on a plain NIC sees no device */
	snprintf(env + strlen(env), sizeof(env) - strlen(env), " SOFTDOCA_ROLE=dpu");
	CHECK(caps(env, "") == 0);
	CHECK(strstr(out, "PCI:") == NULL);

	/* the libraries' capability getters agree with the profile table */
	snprintf(env, sizeof(env), "SOFTDOCA_CONFIG=%s", write_file("devices.conf", "[card old]\nprofile = bf2\n"));
	CHECK(caps(env, "--pci-addr b1:00.0") == 0);
	CHECK_HAS("task_memcpy_max_buf_size", "1073741824");
	CHECK_HAS("task_memcpy_max_buf_list_len", "16");
	CHECK_HAS("create_from_export_pci", "unsupported");
	CHECK_HAS("notification_moderation", "unsupported");
	CHECK_HAS("num_completion_vectors", "8");
	snprintf(env + strlen(env), sizeof(env) - strlen(env), " SOFTDOCA_ROLE=dpu");
	CHECK(caps(env, "--pci-addr 03:00.0") == 0);
	CHECK_HAS("create_from_export_pci", "supported");
	CHECK_HAS("rep_filter_net", "supported");
	CHECK_HAS("server", "supported");
	CHECK_HAS("max_clients", "256"); /* BlueField-2 */
	CHECK_HAS("max_recv_queue_size", "4096");

	snprintf(env, sizeof(env), "SOFTDOCA_CONFIG=%s", write_file("devices.conf", "[card a]\nprofle = bf3\n"));
	CHECK(caps(env, "--list-devs") == 1);
	CHECK_OUT("devices.conf:2: unknown key 'profle'");
	CHECK_OUT("cannot list DOCA devices");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s <path of doca_caps>\n", argv[0]);
		return EXIT_FAILURE;
	}
	doca_caps = argv[1];
	scratch_init();
	TEST_RUN(full_print);
	TEST_RUN(comch_dpu);
	TEST_RUN(list_devs);
	TEST_RUN(list_rep_devs);
	TEST_RUN(list_libs_and_version);
	TEST_RUN(pci_addr);
	TEST_RUN(bad_usage);
	TEST_RUN(configured);
	scratch_cleanup();
	TEST_EXIT();
}
