/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rest of rdma-core 44's libibverbs API in softdoca's libibverbs, one process on the soft
 * device: the rate conversions both ways for every enum ibv_rate value (and, when rdma-core's
 * own library is installed, value for value against it), the device and P_Key indexes, the fork
 * state, every refusal with its errno, address handle attributes from a completion, and the
 * copies between the kernel's structures and libibverbs' (round trips). Each refusal logs one
 * SDK line naming the function.
 */
#include <dlfcn.h>
#include <endian.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <infiniband/sa.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_sa.h>

#include "doca_log.h"
#include "ibverbs/rdma_core_private.h" /* rdma-core exports these, declares them nowhere installed */
#include "log_test.h"
#include "test.h"


/* A call that must fail with this result and errno. */
#define CHECK_FAILS(call, result, err) \
	do { \
		errno = 0; \
		CHECK((call) == (result)); \
		CHECK(errno == (err)); \
	} while (0)

/* ... and logs an SDK line naming the function */
#define CHECK_REFUSED(call, result, err, name) \
	do { \
		CHECK_FAILS(call, result, err); \
		CHECK(log_take(sdk_log, name)); \
	} while (0)

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static FILE *sdk_log;

/* Every enum ibv_rate value but IBV_RATE_MAX: 2 ... 24 (1 is none). */
#define RATE_FIRST IBV_RATE_2_5_GBPS
#define RATE_LAST IBV_RATE_1200_GBPS

static void test_rates(void)
{
	int with_mult = 0;

	for (int r = RATE_FIRST; r <= RATE_LAST; r++) {
		int mbps = ibv_rate_to_mbps((enum ibv_rate)r), mult = ibv_rate_to_mult((enum ibv_rate)r);

		CHECK(mbps > 0 && mbps_to_ibv_rate(mbps) == (enum ibv_rate)r);
		CHECK(mult == -1 || (mult > 0 && mult_to_ibv_rate(mult) == (enum ibv_rate)r));
		with_mult += mult > 0;
	}
	CHECK(with_mult == 15); /* all but FDR's and EDR's 64b/66b rates */
	CHECK(ibv_rate_to_mult(IBV_RATE_2_5_GBPS) == 1 && ibv_rate_to_mbps(IBV_RATE_2_5_GBPS) == 2500);
	CHECK(ibv_rate_to_mult(IBV_RATE_5_GBPS) == 2 && ibv_rate_to_mbps(IBV_RATE_5_GBPS) == 5000);
	CHECK(ibv_rate_to_mult(IBV_RATE_10_GBPS) == 4 && ibv_rate_to_mbps(IBV_RATE_10_GBPS) == 10000);
	CHECK(ibv_rate_to_mult(IBV_RATE_120_GBPS) == 48 && ibv_rate_to_mbps(IBV_RATE_120_GBPS) == 120000);
	CHECK(ibv_rate_to_mult(IBV_RATE_14_GBPS) == -1 && ibv_rate_to_mbps(IBV_RATE_14_GBPS) == 14062);
	CHECK(ibv_rate_to_mult(IBV_RATE_25_GBPS) == -1 && ibv_rate_to_mbps(IBV_RATE_25_GBPS) == 25781);
	CHECK(ibv_rate_to_mult(IBV_RATE_100_GBPS) == -1 && ibv_rate_to_mbps(IBV_RATE_100_GBPS) == 103125);
	CHECK(ibv_rate_to_mult(IBV_RATE_28_GBPS) == 11 && ibv_rate_to_mbps(IBV_RATE_28_GBPS) == 28125);
	CHECK(ibv_rate_to_mult(IBV_RATE_50_GBPS) == 20 && ibv_rate_to_mbps(IBV_RATE_50_GBPS) == 53125);
	CHECK(ibv_rate_to_mult(IBV_RATE_400_GBPS) == 160 && ibv_rate_to_mbps(IBV_RATE_400_GBPS) == 425000);
	CHECK(ibv_rate_to_mult(IBV_RATE_1200_GBPS) == 480 && ibv_rate_to_mbps(IBV_RATE_1200_GBPS) == 1275000);
	/* outside the table */
	CHECK(ibv_rate_to_mult(IBV_RATE_MAX) == -1 && ibv_rate_to_mbps(IBV_RATE_MAX) == -1);
	CHECK(ibv_rate_to_mult((enum ibv_rate)1) == -1 && ibv_rate_to_mbps((enum ibv_rate)25) == -1);
	CHECK(mult_to_ibv_rate(0) == IBV_RATE_MAX && mult_to_ibv_rate(-1) == IBV_RATE_MAX);
	CHECK(mult_to_ibv_rate(3) == IBV_RATE_MAX && mbps_to_ibv_rate(0) == IBV_RATE_MAX);
	CHECK(mbps_to_ibv_rate(-1) == IBV_RATE_MAX && mbps_to_ibv_rate(14063) == IBV_RATE_MAX);
}

/* rdma-core's own library, loaded beside ours (by path: its soname is ours), or NULL. */
static void *system_libibverbs(void)
{
	static const char *const paths[] = {"/usr/lib/x86_64-linux-gnu/libibverbs.so.1",
					    "/usr/lib/aarch64-linux-gnu/libibverbs.so.1", "/usr/lib64/libibverbs.so.1"};

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		void *h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);

		if (h != NULL && dlsym(h, "ibv_rate_to_mult") != NULL && dlsym(h, "ibv_rate_to_mult") != (void *)ibv_rate_to_mult)
			return h;
		if (h != NULL)
			dlclose(h);
	}
	return NULL;
}

static void test_rates_as_rdma_core(void)
{
	void *h = system_libibverbs();
	int (*to_mult)(enum ibv_rate), (*to_mbps)(enum ibv_rate);
	enum ibv_rate (*from_mult)(int), (*from_mbps)(int);
	long compared = 0, differ = 0;

	if (h == NULL) {
		fprintf(stderr, "rdma-core's libibverbs.so.1 is not installed: rates not compared with it\n");
		return;
	}
	*(void **)&to_mult = dlsym(h, "ibv_rate_to_mult");
	*(void **)&to_mbps = dlsym(h, "ibv_rate_to_mbps");
	*(void **)&from_mult = dlsym(h, "mult_to_ibv_rate");
	*(void **)&from_mbps = dlsym(h, "mbps_to_ibv_rate");
	CHECK(to_mult != NULL && to_mbps != NULL && from_mult != NULL && from_mbps != NULL);
	if (to_mult == NULL || to_mbps == NULL || from_mult == NULL || from_mbps == NULL) {
		dlclose(h);
		return;
	}
	for (int r = -1; r <= RATE_LAST + 8; r++, compared += 2)
		differ += (ibv_rate_to_mult((enum ibv_rate)r) != to_mult((enum ibv_rate)r)) +
			  (ibv_rate_to_mbps((enum ibv_rate)r) != to_mbps((enum ibv_rate)r));
	for (int m = -1; m <= 1000; m++, compared++)
		differ += mult_to_ibv_rate(m) != from_mult(m);
	for (int m = -1; m <= 1300000; m++, compared++) /* every Mb/s up to 1.3 Tb/s */
		differ += mbps_to_ibv_rate(m) != from_mbps(m);
	fprintf(stderr, "rates: %ld values compared with rdma-core's libibverbs, %ld differ\n", compared, differ);
	CHECK(differ == 0);
	dlclose(h);
}

static void test_indexes(void)
{
	int n = 0;
	struct ibv_device **list = ibv_get_device_list(&n);

	CHECK(list != NULL && n >= 1);
	for (int i = 0; i < n; i++)
		CHECK(ibv_get_device_index(list[i]) == i);
	CHECK(ibv_get_device_index(NULL) == -1);
	ibv_free_device_list(list);
	CHECK(ibv_get_device_index(ctx->device) == 0); /* the context's device outlives the list */

	CHECK(ibv_get_pkey_index(ctx, 1, htobe16(0xffff)) == 0);
	CHECK_FAILS(ibv_get_pkey_index(ctx, 1, htobe16(0x8001)), -1, ENOENT);
	CHECK_FAILS(ibv_get_pkey_index(ctx, 2, htobe16(0xffff)), -1, EINVAL);
}

static void test_fork(void)
{
	static char buf[8192];

	CHECK(ibv_is_fork_initialized() == IBV_FORK_UNNEEDED);
	CHECK(ibv_fork_init() == 0);
	CHECK(ibv_is_fork_initialized() == IBV_FORK_UNNEEDED);
	CHECK(ibv_dontfork_range(buf, sizeof(buf)) == 0);
	CHECK(ibv_dofork_range(buf, sizeof(buf)) == 0);
}

static void test_refusals(void)
{
	struct ibv_cq *cq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	struct ibv_qp_init_attr qa = {.cap = {.max_send_wr = 2, .max_recv_wr = 2, .max_send_sge = 1, .max_recv_sge = 1},
				      .qp_type = IBV_QPT_RC};
	struct ibv_ece ece = {.vendor_id = 0x15b3};
	struct ibv_ah_attr ah = {.is_global = 1, .port_num = 1};
	static char mem[4096];
	struct ibv_mr *mr = ibv_reg_mr(pd, mem, sizeof(mem), IBV_ACCESS_LOCAL_WRITE);
	struct ibv_qp *qp;
	uint8_t mac[ETHERNET_LL_SIZE];
	uint16_t vid;
	char text[64];

	CHECK(cq != NULL && mr != NULL);
	qa.send_cq = qa.recv_cq = cq;
	qp = ibv_create_qp(pd, &qa);
	CHECK(qp != NULL);

	CHECK_REFUSED(ibv_reg_dmabuf_mr(pd, 0, 4096, 0, 3, IBV_ACCESS_LOCAL_WRITE), NULL, EOPNOTSUPP, "ibv_reg_dmabuf_mr");
	CHECK_REFUSED(ibv_import_device(3), NULL, EOPNOTSUPP, "ibv_import_device");
	CHECK_REFUSED(ibv_import_pd(ctx, 1), NULL, EOPNOTSUPP, "ibv_import_pd");
	CHECK_REFUSED(ibv_import_mr(pd, 1), NULL, EOPNOTSUPP, "ibv_import_mr");
	CHECK_REFUSED(ibv_import_dm(ctx, 1), NULL, EOPNOTSUPP, "ibv_import_dm");
	/* nothing was imported: NULL and our own objects are left alone (still usable, then freed) */
	ibv_unimport_pd(NULL);
	ibv_unimport_mr(NULL);
	ibv_unimport_dm(NULL);
	CHECK(strstr(log_read(sdk_log), "ibv_unimport") == NULL); /* (NULL: nothing to say) */
	ibv_unimport_mr(mr);
	CHECK(log_take(sdk_log, "ibv_unimport_mr"));
	ibv_unimport_pd(pd);
	CHECK(log_take(sdk_log, "ibv_unimport_pd"));
	CHECK(mr->pd == pd && mr->lkey != 0);

	if (qp != NULL) {
		CHECK_REFUSED(ibv_query_ece(qp, &ece), EOPNOTSUPP, EOPNOTSUPP, "ibv_query_ece");
		CHECK_REFUSED(ibv_set_ece(qp, &ece), EOPNOTSUPP, EOPNOTSUPP, "ibv_set_ece");
		/* the soft NIC's copies promise no store order within a message */
		CHECK(ibv_query_qp_data_in_order(qp, IBV_WR_RDMA_WRITE, 0) == 0);
		CHECK(ibv_query_qp_data_in_order(qp, IBV_WR_SEND, 0) == 0);
		CHECK(ibv_destroy_qp(qp) == 0);
	}
	CHECK_REFUSED(ibv_get_sysfs_path(), NULL, ENOENT, "ibv_get_sysfs_path");
	CHECK_REFUSED(ibv_read_sysfs_file("/sys/class/infiniband/mlx5_0", "board_id", text, sizeof(text)), -1, ENOENT,
		      "ibv_read_sysfs_file");
	ibv_register_driver("soft", NULL); /* (nothing to register, nothing to fail) */
	CHECK_REFUSED(ibv_resolve_eth_l2_from_gid(ctx, &ah, mac, &vid), -EOPNOTSUPP, EOPNOTSUPP,
		      "ibv_resolve_eth_l2_from_gid");

	CHECK(ibv_dereg_mr(mr) == 0);
	CHECK(ibv_destroy_cq(cq) == 0);
}

/* A RoCE v2 GRH buffer carrying an IPv4 header in its last 20 bytes, with a valid sum. */
static void ipv4_grh(struct ibv_grh *g, const uint8_t src[4], const uint8_t dst[4])
{
	uint8_t *ip = (uint8_t *)g + 20;
	uint32_t sum = 0;

	memset(g, 0, sizeof(*g));
	ip[0] = 0x45;
	ip[1] = 0x10; /* TOS */
	ip[3] = 60;   /* total length */
	ip[8] = 64;   /* TTL */
	ip[9] = IPPROTO_UDP;
	memcpy(ip + 12, src, 4);
	memcpy(ip + 16, dst, 4);
	for (int i = 0; i < 20; i += 2)
		sum += (uint32_t)ip[i] << 8 | ip[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	ip[10] = (uint8_t)(~sum >> 8);
	ip[11] = (uint8_t)~sum;
}

static void test_ah_from_wc(void)
{
	static const uint8_t peer4[4] = {10, 1, 2, 3}, other4[4] = {10, 9, 9, 9};
	struct ibv_wc wc = {.slid = 7, .sl = 3, .dlid_path_bits = 1};
	struct ibv_ah_attr ah;
	union ibv_gid own, peer = {.raw = {0xfe, 0x80, [15] = 0x21}}, mapped = {.raw = {[10] = 0xff, [11] = 0xff}};
	struct ibv_grh g;

	CHECK(ibv_query_gid(ctx, 1, 0, &own) == 0);
	CHECK(own.raw[10] == 0xff && own.raw[11] == 0xff); /* IPv4-mapped: the soft NIC's RoCE v2 */
	/* no GRH (RC): the generic fields */
	CHECK(ibv_init_ah_from_wc(ctx, 1, &wc, NULL, &ah) == 0);
	CHECK(ah.dlid == 7 && ah.sl == 3 && ah.src_path_bits == 1 && ah.port_num == 1 && ah.is_global == 0);

	/* IPv4: the sender's address is the reply's destination, the port's GID its source */
	wc.wc_flags = IBV_WC_GRH;
	ipv4_grh(&g, peer4, own.raw + 12);
	memcpy(mapped.raw + 12, peer4, 4);
	CHECK(ibv_init_ah_from_wc(ctx, 1, &wc, &g, &ah) == 0);
	CHECK(ah.is_global == 1 && ah.grh.sgid_index == 0 && ah.grh.hop_limit == 64 && ah.grh.traffic_class == 0x10);
	CHECK(memcmp(&ah.grh.dgid, &mapped, sizeof(mapped)) == 0 && ah.dlid == 7);
	ipv4_grh(&g, peer4, other4);
	CHECK_REFUSED(ibv_init_ah_from_wc(ctx, 1, &wc, &g, &ah), -1, ENOENT, "ibv_init_ah_from_wc");

	/* IPv6 (UDP: RoCE v2) */
	memset(&g, 0, sizeof(g));
	g.version_tclass_flow = htobe32(6u << 28 | 0x22u << 20 | 0x12345u);
	g.next_hdr = IPPROTO_UDP;
	g.hop_limit = 9;
	g.sgid = peer;
	g.dgid = own;
	CHECK(ibv_init_ah_from_wc(ctx, 1, &wc, &g, &ah) == 0);
	CHECK(ah.is_global == 1 && ah.grh.flow_label == 0x12345 && ah.grh.traffic_class == 0x22 && ah.grh.hop_limit == 9);
	CHECK(memcmp(&ah.grh.dgid, &peer, sizeof(peer)) == 0 && ah.grh.sgid_index == 0);
	g.next_hdr = 0x1b; /* RoCE v1 / IB: no such GID on the soft port */
	CHECK_REFUSED(ibv_init_ah_from_wc(ctx, 1, &wc, &g, &ah), -1, EPROTONOSUPPORT, "ibv_init_ah_from_wc");
	CHECK_REFUSED(ibv_init_ah_from_wc(ctx, 1, &wc, NULL, &ah), -1, EINVAL, "ibv_init_ah_from_wc");
}

static void test_copies(void)
{
	struct ibv_sa_path_rec a = {.dlid = htobe16(0x1234), .slid = htobe16(0x5678), .raw_traffic = 1,
				    .flow_label = htobe32(0xabcde), .hop_limit = 3, .traffic_class = 4, .reversible = 1,
				    .numb_path = 5, .pkey = htobe16(0xffff), .sl = 6, .mtu_selector = 2, .mtu = IBV_MTU_4096,
				    .rate_selector = 1, .rate = IBV_RATE_100_GBPS, .packet_life_time_selector = 2,
				    .packet_life_time = 18, .preference = 7};
	struct ibv_sa_path_rec b;
	struct ib_user_path_rec k;
	struct ib_uverbs_qp_attr kq = {
		.qp_state = IBV_QPS_RTS, .cur_qp_state = IBV_QPS_RTR, .path_mtu = IBV_MTU_1024, .path_mig_state = IBV_MIG_ARMED,
		.qkey = 0x11111111, .rq_psn = 0x222222, .sq_psn = 0x333333, .dest_qp_num = 0x444444, .qp_access_flags = 7,
		.ah_attr = {.grh = {.dgid = {1, 2, 3}, .flow_label = 0x55555, .sgid_index = 1, .hop_limit = 2, .traffic_class = 3},
			    .dlid = 0x66, .sl = 4, .src_path_bits = 5, .static_rate = IBV_RATE_40_GBPS, .is_global = 1, .port_num = 1},
		.alt_ah_attr = {.grh = {.dgid = {[15] = 9}, .flow_label = 0x77777}, .dlid = 0x88, .port_num = 2},
		.max_send_wr = 10, .max_recv_wr = 11, .max_send_sge = 12, .max_recv_sge = 13, .max_inline_data = 14,
		.pkey_index = 15, .alt_pkey_index = 16, .en_sqd_async_notify = 1, .sq_draining = 1, .max_rd_atomic = 17,
		.max_dest_rd_atomic = 18, .min_rnr_timer = 19, .port_num = 1, .timeout = 20, .retry_cnt = 6, .rnr_retry = 7,
		.alt_port_num = 2, .alt_timeout = 21};
	struct ibv_qp_attr q;
	struct ibv_ah_attr ah;

	for (int i = 0; i < 16; i++) {
		a.dgid.raw[i] = (uint8_t)(0xa0 + i);
		a.sgid.raw[i] = (uint8_t)(0x10 + i);
	}
	/* path record: to the kernel's layout and back, every field as it was */
	memset(&k, 0x5a, sizeof(k));
	ibv_copy_path_rec_to_kern(&k, &a);
	CHECK(memcmp(k.dgid, a.dgid.raw, 16) == 0 && memcmp(k.sgid, a.sgid.raw, 16) == 0);
	CHECK(k.dlid == a.dlid && k.slid == a.slid && k.flow_label == a.flow_label && k.pkey == a.pkey);
	CHECK(k.mtu == IBV_MTU_4096 && k.reversible == 1 && k.raw_traffic == 1 && k.rate == IBV_RATE_100_GBPS);
	memset(&b, 0xa5, sizeof(b));
	ibv_copy_path_rec_from_kern(&b, &k);
	CHECK(memcmp(&b.dgid, &a.dgid, 16) == 0 && memcmp(&b.sgid, &a.sgid, 16) == 0);
	CHECK(b.dlid == a.dlid && b.slid == a.slid && b.raw_traffic == a.raw_traffic && b.flow_label == a.flow_label);
	CHECK(b.hop_limit == a.hop_limit && b.traffic_class == a.traffic_class && b.reversible == a.reversible);
	CHECK(b.numb_path == a.numb_path && b.pkey == a.pkey && b.sl == a.sl && b.mtu_selector == a.mtu_selector);
	CHECK(b.mtu == a.mtu && b.rate_selector == a.rate_selector && b.rate == a.rate);
	CHECK(b.packet_life_time_selector == a.packet_life_time_selector && b.packet_life_time == a.packet_life_time);
	CHECK(b.preference == a.preference);

	/* address handle and QP attributes from the kernel's */
	memset(&ah, 0, sizeof(ah));
	ibv_copy_ah_attr_from_kern(&ah, &kq.ah_attr);
	CHECK(memcmp(ah.grh.dgid.raw, kq.ah_attr.grh.dgid, 16) == 0 && ah.grh.flow_label == 0x55555);
	CHECK(ah.grh.sgid_index == 1 && ah.grh.hop_limit == 2 && ah.grh.traffic_class == 3 && ah.dlid == 0x66);
	CHECK(ah.sl == 4 && ah.src_path_bits == 5 && ah.static_rate == IBV_RATE_40_GBPS);
	CHECK(ah.is_global == 1 && ah.port_num == 1);
	memset(&q, 0, sizeof(q));
	ibv_copy_qp_attr_from_kern(&q, &kq);
	CHECK(q.qp_state == IBV_QPS_RTS && q.cur_qp_state == IBV_QPS_RTR && q.path_mtu == IBV_MTU_1024);
	CHECK(q.path_mig_state == IBV_MIG_ARMED && q.qkey == 0x11111111 && q.rq_psn == 0x222222 && q.sq_psn == 0x333333);
	CHECK(q.dest_qp_num == 0x444444 && q.qp_access_flags == 7);
	CHECK(q.cap.max_send_wr == 10 && q.cap.max_recv_wr == 11 && q.cap.max_send_sge == 12 && q.cap.max_recv_sge == 13);
	CHECK(q.cap.max_inline_data == 14 && q.pkey_index == 15 && q.alt_pkey_index == 16);
	CHECK(q.en_sqd_async_notify == 1 && q.sq_draining == 1 && q.max_rd_atomic == 17 && q.max_dest_rd_atomic == 18);
	CHECK(q.min_rnr_timer == 19 && q.port_num == 1 && q.timeout == 20 && q.retry_cnt == 6 && q.rnr_retry == 7);
	CHECK(q.alt_port_num == 2 && q.alt_timeout == 21);
	CHECK(memcmp(&q.ah_attr, &ah, sizeof(ah)) == 0);
	CHECK(q.alt_ah_attr.grh.dgid.raw[15] == 9 && q.alt_ah_attr.grh.flow_label == 0x77777 && q.alt_ah_attr.dlid == 0x88);
	CHECK(q.alt_ah_attr.port_num == 2);
}

int main(void)
{
	struct doca_log_backend *sdk;
	struct ibv_device **list;

	sdk_log = tmpfile();
	if (sdk_log == NULL || doca_log_backend_create_with_file_sdk(sdk_log, &sdk) != DOCA_SUCCESS) {
		fprintf(stderr, "no SDK log\n");
		return EXIT_FAILURE;
	}
	list = ibv_get_device_list(NULL);

	if (list == NULL || list[0] == NULL || (ctx = ibv_open_device(list[0])) == NULL || (pd = ibv_alloc_pd(ctx)) == NULL) {
		fprintf(stderr, "no soft RDMA device\n");
		return EXIT_FAILURE;
	}
	ibv_free_device_list(list);
	TEST_RUN(test_rates);
	TEST_RUN(test_rates_as_rdma_core);
	TEST_RUN(test_indexes);
	TEST_RUN(test_fork);
	TEST_RUN(test_refusals);
	TEST_RUN(test_ah_from_wc);
	TEST_RUN(test_copies);
	CHECK(ibv_dealloc_pd(pd) == 0);
	CHECK(ibv_close_device(ctx) == 0);
	TEST_EXIT();
}
