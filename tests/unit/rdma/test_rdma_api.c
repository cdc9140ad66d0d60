/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_rdma at the API level: every setter and getter, BAD_STATE after start, capabilities,
 * addresses, task pools and accessors. With "caps" as argument (and SOFTDOCA_CONFIG naming
 * caps.conf): the capabilities of each card profile.
 */
#include <stdlib.h>
#include <string.h>

#include "common/priv/dev_priv.h"
#include "rdma_test.h"

static int states[8];

static void on_state(const union doca_data ud, struct doca_ctx *ctx, enum doca_ctx_states prev,
		     enum doca_ctx_states next)
{
	(void)ud;
	(void)ctx;
	(void)prev;
	states[next]++;
}

static void on_send(struct doca_rdma_task_send *task, union doca_data tud, union doca_data cud)
{
	(void)task;
	(void)tud;
	(void)cud;
}

static void on_recv(struct doca_rdma_task_receive *task, union doca_data tud, union doca_data cud)
{
	(void)task;
	(void)tud;
	(void)cud;
}

static void on_est(struct doca_rdma_connection *c, union doca_data u, union doca_data cu)
{
	(void)c;
	(void)u;
	(void)cu;
}

static void test_create_destroy(void)
{
	struct doca_dev *dev = open_rdma_dev();
	struct doca_rdma *rdma;

	CHECK_ERR(doca_rdma_create(NULL, &rdma), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_create(dev, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_create(dev, &rdma));
	CHECK(doca_rdma_as_ctx(rdma) != NULL);
	CHECK(doca_rdma_as_ctx(NULL) == NULL);
	CHECK_ERR(doca_ctx_start(doca_rdma_as_ctx(rdma)), DOCA_ERROR_NOT_CONNECTED); /* no PE */
	CHECK_ERR(doca_rdma_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_destroy(rdma));
	CHECK_OK(doca_dev_close(dev));
}

static void test_setters_getters(void)
{
	struct doca_dev *dev = open_rdma_dev();
	const struct doca_devinfo *info = doca_dev_as_devinfo(dev);
	struct doca_rdma *rdma;
	uint32_t u32 = 0, max = 0;
	uint16_t u16 = 0;
	uint8_t u8 = 0;
	enum doca_rdma_transport_type tt;
	enum doca_mtu_size mtu;

	CHECK_OK(doca_rdma_create(dev, &rdma));
	/* defaults */
	CHECK_OK(doca_rdma_get_permissions(rdma, &u32));
	CHECK(u32 == DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	CHECK_OK(doca_rdma_get_transport_type(rdma, &tt));
	CHECK(tt == DOCA_RDMA_TRANSPORT_TYPE_RC);
	CHECK_OK(doca_rdma_get_rnr_retry_count(rdma, &u8));
	CHECK(u8 == 7);
	CHECK_OK(doca_rdma_get_max_num_connections(rdma, &u16));
	CHECK(u16 == 1);
	CHECK_OK(doca_rdma_get_max_send_buf_list_len(rdma, &u32));
	CHECK(u32 == 1);
	CHECK_OK(doca_rdma_task_receive_get_dst_buf_list_len(rdma, &u32));
	CHECK(u32 == 1);

	/* queue sizes: rounded up to a power of two, bounded by the caps */
	CHECK_OK(doca_rdma_cap_get_max_send_queue_size(info, &max));
	CHECK_OK(doca_rdma_set_send_queue_size(rdma, 100));
	CHECK_OK(doca_rdma_get_send_queue_size(rdma, &u32));
	CHECK(u32 == 128);
	CHECK_ERR(doca_rdma_set_send_queue_size(rdma, max + 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_set_send_queue_size(rdma, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_set_recv_queue_size(rdma, 5));
	CHECK_OK(doca_rdma_get_recv_queue_size(rdma, &u32));
	CHECK(u32 == 8);
	CHECK_OK(doca_rdma_cap_get_max_send_buf_list_len(info, &max));
	CHECK_OK(doca_rdma_set_max_send_buf_list_len(rdma, max));
	CHECK_OK(doca_rdma_get_max_send_buf_list_len(rdma, &u32));
	CHECK(u32 == max);
	CHECK_ERR(doca_rdma_set_max_send_buf_list_len(rdma, max + 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_cap_task_receive_get_max_dst_buf_list_len(info, DOCA_RDMA_TRANSPORT_TYPE_RC, &max));
	CHECK_OK(doca_rdma_task_receive_set_dst_buf_list_len(rdma, max));
	CHECK_ERR(doca_rdma_task_receive_set_dst_buf_list_len(rdma, max + 1), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_task_receive_get_dst_buf_list_len(rdma, &u32));
	CHECK(u32 == max);

	CHECK_OK(doca_rdma_set_transport_type(rdma, DOCA_RDMA_TRANSPORT_TYPE_DC)); /* BlueField-3: has DC */
	CHECK_OK(doca_rdma_get_transport_type(rdma, &tt));
	CHECK(tt == DOCA_RDMA_TRANSPORT_TYPE_DC);
	CHECK_ERR(doca_rdma_set_transport_type(rdma, (enum doca_rdma_transport_type)9), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_set_transport_type(rdma, DOCA_RDMA_TRANSPORT_TYPE_RC));

	CHECK_OK(doca_rdma_set_mtu(rdma, DOCA_MTU_SIZE_4K_BYTES));
	CHECK_OK(doca_rdma_get_mtu(rdma, &mtu));
	CHECK(mtu == DOCA_MTU_SIZE_4K_BYTES);
	CHECK_ERR(doca_rdma_set_mtu(rdma, DOCA_MTU_SIZE_RAW_ETHERNET), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_rdma_set_mtu(rdma, (enum doca_mtu_size)42), DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_rdma_set_permissions(rdma, DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE));
	CHECK_OK(doca_rdma_get_permissions(rdma, &u32));
	CHECK(u32 == (DOCA_ACCESS_FLAG_RDMA_READ | DOCA_ACCESS_FLAG_RDMA_WRITE));
	CHECK_ERR(doca_rdma_set_permissions(rdma, DOCA_ACCESS_FLAG_PCI_READ_WRITE), DOCA_ERROR_INVALID_VALUE);

	CHECK_OK(doca_rdma_set_grh_enabled(rdma, 0));
	CHECK_OK(doca_rdma_get_grh_enabled(rdma, &u8));
	CHECK(u8 == 0);
	CHECK_OK(doca_rdma_cap_get_gid_table_size(info, &max));
	CHECK_OK(doca_rdma_set_gid_index(rdma, max - 1));
	CHECK_OK(doca_rdma_get_gid_index(rdma, &u32));
	CHECK(u32 == max - 1);
	CHECK_ERR(doca_rdma_set_gid_index(rdma, max), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_set_sl(rdma, 3));
	CHECK_OK(doca_rdma_get_sl(rdma, &u32));
	CHECK(u32 == 3);
	CHECK_ERR(doca_rdma_set_sl(rdma, 16), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_set_connection_request_timeout(rdma, 1234));
	CHECK_OK(doca_rdma_get_connection_request_timeout(rdma, &u16));
	CHECK(u16 == 1234);
	CHECK_OK(doca_rdma_set_max_num_connections(rdma, 8));
	CHECK_OK(doca_rdma_get_max_num_connections(rdma, &u16));
	CHECK(u16 == 8);
	CHECK_ERR(doca_rdma_set_max_num_connections(rdma, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_set_rnr_retry_count(rdma, 3));
	CHECK_OK(doca_rdma_get_rnr_retry_count(rdma, &u8));
	CHECK(u8 == 3);
	CHECK_ERR(doca_rdma_set_rnr_retry_count(rdma, 8), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_set_connection_state_callbacks(rdma, NULL, NULL, on_est, on_est), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_set_connection_state_callbacks(rdma, NULL, on_est, on_est, on_est));

	/* NULL outputs */
	CHECK_ERR(doca_rdma_get_sl(rdma, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_get_sl(NULL, &u32), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_set_sl(NULL, 1), DOCA_ERROR_INVALID_VALUE);

	/* no GPU datapath; a DPA handle only for a datapath on the DPA (tests/unit/dpa/test_dpa_rdma.c) */
	{
		doca_dpa_dev_rdma_t h;
		struct doca_gpu_dev_rdma *g;

		CHECK_ERR(doca_rdma_get_dpa_handle(rdma, &h), DOCA_ERROR_BAD_STATE);
		CHECK_ERR(doca_rdma_get_gpu_handle(rdma, &g), DOCA_ERROR_NOT_SUPPORTED);
	}
	CHECK_OK(doca_rdma_destroy(rdma));
	CHECK_OK(doca_dev_close(dev));
}

static void test_bad_state_after_start(void)
{
	struct doca_dev *dev = open_rdma_dev();
	struct doca_rdma *rdma;
	struct doca_pe *pe;
	struct doca_ctx *ctx;
	enum doca_ctx_states st;

	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_rdma_create(dev, &rdma));
	ctx = doca_rdma_as_ctx(rdma);
	CHECK_OK(doca_pe_connect_ctx(pe, ctx));
	CHECK_OK(doca_ctx_set_state_changed_cb(ctx, on_state));
	CHECK_OK(doca_rdma_task_send_set_conf(rdma, on_send, on_send, 4));
	memset(states, 0, sizeof(states));
	CHECK_OK(doca_ctx_start(ctx));
	CHECK_OK(doca_ctx_get_state(ctx, &st));
	CHECK(st == DOCA_CTX_STATE_RUNNING);
	CHECK(states[DOCA_CTX_STATE_RUNNING] == 1);

	CHECK_ERR(doca_rdma_set_send_queue_size(rdma, 8), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_recv_queue_size(rdma, 8), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_max_send_buf_list_len(rdma, 1), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_transport_type(rdma, DOCA_RDMA_TRANSPORT_TYPE_RC), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_mtu(rdma, DOCA_MTU_SIZE_1K_BYTES), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_permissions(rdma, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_grh_enabled(rdma, 1), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_gid_index(rdma, 0), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_sl(rdma, 0), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_connection_request_timeout(rdma, 10), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_max_num_connections(rdma, 2), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_rnr_retry_count(rdma, 1), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_set_connection_state_callbacks(rdma, NULL, on_est, on_est, on_est), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_task_receive_set_dst_buf_list_len(rdma, 1), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_task_send_set_conf(rdma, on_send, on_send, 4), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_task_receive_set_conf(rdma, on_recv, on_recv, 4), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_destroy(rdma), DOCA_ERROR_BAD_STATE);

	CHECK_OK(doca_ctx_stop(ctx));
	CHECK_OK(doca_ctx_get_state(ctx, &st));
	CHECK(st == DOCA_CTX_STATE_IDLE);
	CHECK_OK(doca_rdma_set_sl(rdma, 1)); /* IDLE again */
	CHECK_OK(doca_rdma_destroy(rdma));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_dev_close(dev));
}

static void test_export_limits(void)
{
	struct doca_dev *dev = open_rdma_dev();
	struct doca_rdma *rdma;
	struct doca_pe *pe;
	struct doca_rdma_connection *c1, *c2, *c3;
	const void *d;
	size_t dl = 0;
	uint32_t id1 = 99, id2 = 99;
	union doca_data ud;

	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_rdma_create(dev, &rdma));
	CHECK_OK(doca_rdma_set_max_num_connections(rdma, 2));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_rdma_as_ctx(rdma)));
	CHECK_ERR(doca_rdma_export(rdma, &d, &dl, &c1), DOCA_ERROR_BAD_STATE); /* not started */
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(rdma)));
	CHECK_ERR(doca_rdma_export(rdma, NULL, &dl, &c1), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_export(rdma, &d, &dl, &c1));
	CHECK(d != NULL && dl > 0);
	CHECK_OK(doca_rdma_export(rdma, &d, &dl, &c2));
	CHECK(c1 != c2);
	CHECK_ERR(doca_rdma_export(rdma, &d, &dl, &c3), DOCA_ERROR_FULL);
	CHECK_OK(doca_rdma_connection_get_id(c1, &id1));
	CHECK_OK(doca_rdma_connection_get_id(c2, &id2));
	CHECK(id1 != id2);
	CHECK_OK(doca_rdma_connection_set_user_data(c1, (union doca_data){.u64 = 42}));
	CHECK_OK(doca_rdma_connection_get_user_data(c1, &ud));
	CHECK(ud.u64 == 42);
	/* connect: bad blobs, BAD_STATE when the context is not started */
	CHECK_ERR(doca_rdma_connect(rdma, NULL, 10, c1), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_connect(rdma, "garbage-garbage-garbage", 23, c1), DOCA_ERROR_INVALID_VALUE);
	/* outside a callback, no task: IDLE at once, connections or not (test_rdma_stop.c) */
	CHECK_OK(doca_ctx_stop(doca_rdma_as_ctx(rdma)));
	CHECK_ERR(doca_rdma_connect(rdma, d, dl, c1), DOCA_ERROR_BAD_STATE);
	CHECK_ERR(doca_rdma_start_listen_to_port(rdma, 40000), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_rdma_destroy(rdma));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_dev_close(dev));
}

/*
 * A task names its connection by pointer: every one of a context's connections is accepted,
 * the thousandth as the first (a set, not a walk of the list), and a pointer kept from an
 * earlier start, whose object is gone, is refused without being read (ASan would see it).
 */
static void test_connection_set(void)
{
	struct doca_dev *dev = open_rdma_dev();
	struct doca_rdma *rdma;
	struct doca_pe *pe;
	struct doca_rdma_connection **c;
	struct doca_rdma_task_send *t;
	const void *d;
	size_t dl;
	const uint16_t max = 1024; /* the soft cards' limit (profiles.c) */

	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_rdma_create(dev, &rdma));
	c = calloc(max, sizeof(*c));
	CHECK(c != NULL);
	CHECK_OK(doca_rdma_set_max_num_connections(rdma, max));
	CHECK_OK(doca_rdma_task_send_set_conf(rdma, on_send, on_send, 4));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_rdma_as_ctx(rdma)));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(rdma)));
	for (uint16_t i = 0; i < max; i++)
		CHECK_OK(doca_rdma_export(rdma, &d, &dl, &c[i]));
	/* exported, not connected: past the connection check, refused by the connection's state */
	for (uint16_t i = 0; i < max; i += (uint16_t)(max - 1)) {
		CHECK_OK(doca_rdma_task_send_allocate_init(rdma, c[i], NULL, (union doca_data){0}, &t));
		CHECK_ERR(doca_task_submit(doca_rdma_task_send_as_task(t)), DOCA_ERROR_NOT_CONNECTED);
		doca_task_free(doca_rdma_task_send_as_task(t));
	}
	CHECK_OK(doca_ctx_stop(doca_rdma_as_ctx(rdma)));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(rdma))); /* the connections of the first run are freed */
	CHECK_OK(doca_rdma_task_send_allocate_init(rdma, c[0], NULL, (union doca_data){0}, &t));
	CHECK_ERR(doca_task_submit(doca_rdma_task_send_as_task(t)), DOCA_ERROR_INVALID_VALUE);
	doca_task_free(doca_rdma_task_send_as_task(t));
	CHECK_OK(doca_ctx_stop(doca_rdma_as_ctx(rdma)));
	CHECK_OK(doca_rdma_destroy(rdma));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_dev_close(dev));
	free(c);
}

static void test_addr(void)
{
	struct doca_rdma_addr *a;
	enum doca_rdma_addr_type t;
	const char *s;
	uint16_t port = 0;

	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "10.1.2.3", 13579, &a));
	CHECK_OK(doca_rdma_addr_get_params(a, &t, &s, &port));
	CHECK(t == DOCA_RDMA_ADDR_TYPE_IPv4 && strcmp(s, "10.1.2.3") == 0 && port == 13579);
	CHECK_OK(doca_rdma_addr_destroy(a));
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv6, "fe80::1", 1, &a));
	CHECK_OK(doca_rdma_addr_destroy(a));
	CHECK_OK(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_GID, "::ffff:127.0.0.1", 2, &a));
	CHECK_OK(doca_rdma_addr_get_params(a, &t, &s, &port));
	CHECK(t == DOCA_RDMA_ADDR_TYPE_GID && port == 2);
	CHECK_OK(doca_rdma_addr_destroy(a));
	CHECK_ERR(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "10.1.2", 1, &a), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "::1", 1, &a), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv6, "1.2.3.4", 1, &a), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_GID, "not-a-gid", 1, &a), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_addr_create((enum doca_rdma_addr_type)7, "1.2.3.4", 1, &a), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, NULL, 1, &a), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_addr_create(DOCA_RDMA_ADDR_TYPE_IPv4, "1.2.3.4", 1, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_addr_destroy(NULL), DOCA_ERROR_INVALID_VALUE);
}

static void test_task_pool_and_accessors(void)
{
	struct doca_dev *dev = open_rdma_dev();
	struct doca_rdma *rdma;
	struct doca_pe *pe;
	struct doca_rdma_connection *c;
	struct doca_rdma_task_send *s[3];
	struct doca_rdma_task_receive *r;
	struct doca_rdma_task_write_imm *wi;
	struct doca_rdma_task_atomic_cmp_swp *cs;
	const void *d;
	size_t dl;
	char mem[64];
	struct doca_mmap *m = make_mmap(dev, mem, sizeof(mem), DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	struct doca_buf_inventory *inv;
	struct doca_buf *b;

	CHECK_OK(doca_buf_inventory_create(4, &inv));
	CHECK_OK(doca_buf_inventory_start(inv));
	CHECK_OK(doca_buf_inventory_buf_get_by_addr(inv, m, mem, sizeof(mem), &b));
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_rdma_create(dev, &rdma));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_rdma_as_ctx(rdma)));
	CHECK_ERR(doca_rdma_task_send_set_conf(rdma, on_send, on_send, 0), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_task_send_set_conf(rdma, NULL, on_send, 2), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_task_send_set_conf(rdma, on_send, on_send, 2));
	CHECK_OK(doca_rdma_task_receive_set_conf(rdma, on_recv, on_recv, 1));
	CHECK_OK(doca_rdma_task_write_imm_set_conf(rdma, (doca_rdma_task_write_imm_completion_cb_t)on_send,
						   (doca_rdma_task_write_imm_completion_cb_t)on_send, 1));
	CHECK_OK(doca_rdma_task_atomic_cmp_swp_set_conf(rdma, (doca_rdma_task_atomic_cmp_swp_completion_cb_t)on_send,
							(doca_rdma_task_atomic_cmp_swp_completion_cb_t)on_send, 1));
	CHECK_OK(doca_ctx_start(doca_rdma_as_ctx(rdma)));
	CHECK_OK(doca_rdma_export(rdma, &d, &dl, &c));

	CHECK_ERR(doca_rdma_task_send_allocate_init(rdma, NULL, b, (union doca_data){0}, &s[0]),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_task_send_allocate_init(rdma, c, b, (union doca_data){.u64 = 5}, &s[0]));
	CHECK_OK(doca_rdma_task_send_allocate_init(rdma, c, NULL, (union doca_data){0}, &s[1]));
	CHECK_ERR(doca_rdma_task_send_allocate_init(rdma, c, b, (union doca_data){0}, &s[2]), DOCA_ERROR_NO_MEMORY);
	CHECK(doca_rdma_task_send_get_src_buf(s[0]) == b);
	CHECK(doca_rdma_task_send_get_rdma_connection(s[0]) == c);
	CHECK(doca_task_get_user_data(doca_rdma_task_send_as_task(s[0])).u64 == 5);
	doca_rdma_task_send_set_src_buf(s[1], b);
	CHECK(doca_rdma_task_send_get_src_buf(s[1]) == b);
	/* a connection that was exported but never connected: submit refuses at once */
	CHECK_ERR(doca_task_submit(doca_rdma_task_send_as_task(s[0])), DOCA_ERROR_NOT_CONNECTED);
	doca_task_free(doca_rdma_task_send_as_task(s[0]));
	CHECK_OK(doca_rdma_task_send_allocate_init(rdma, c, b, (union doca_data){0}, &s[2]));
	doca_task_free(doca_rdma_task_send_as_task(s[1]));
	doca_task_free(doca_rdma_task_send_as_task(s[2]));

	CHECK_OK(doca_rdma_task_receive_allocate_init(rdma, NULL, (union doca_data){0}, &r));
	CHECK(doca_rdma_task_receive_get_dst_buf(r) == NULL);
	doca_rdma_task_receive_set_dst_buf(r, b);
	CHECK(doca_rdma_task_receive_get_dst_buf(r) == b);
	CHECK(doca_rdma_task_receive_get_result_len(r) == 0);
	CHECK(doca_rdma_task_receive_get_result_rdma_connection(r) == NULL);
	doca_task_free(doca_rdma_task_receive_as_task(r));

	CHECK_OK(doca_rdma_task_write_imm_allocate_init(rdma, c, b, b, 0xABCD, (union doca_data){0}, &wi));
	CHECK(doca_rdma_task_write_imm_get_immediate_data(wi) == 0xABCD);
	doca_rdma_task_write_imm_set_immediate_data(wi, 7);
	CHECK(doca_rdma_task_write_imm_get_immediate_data(wi) == 7);
	CHECK(doca_rdma_task_write_imm_get_dst_buf(wi) == b);
	/* the destination must be remote memory */
	CHECK_ERR(doca_task_try_submit(doca_rdma_task_write_imm_as_task(wi)), DOCA_ERROR_INVALID_VALUE);
	doca_task_free(doca_rdma_task_write_imm_as_task(wi));

	CHECK_OK(doca_rdma_task_atomic_cmp_swp_allocate_init(rdma, c, b, b, 1, 2, (union doca_data){0}, &cs));
	CHECK(doca_rdma_task_atomic_cmp_swp_get_cmp_data(cs) == 1);
	CHECK(doca_rdma_task_atomic_cmp_swp_get_swap_data(cs) == 2);
	doca_rdma_task_atomic_cmp_swp_set_swap_data(cs, 3);
	CHECK(doca_rdma_task_atomic_cmp_swp_get_swap_data(cs) == 3);
	CHECK(doca_rdma_task_atomic_cmp_swp_get_result_buf(cs) == b);
	doca_task_free(doca_rdma_task_atomic_cmp_swp_as_task(cs));

	/* not configured */
	{
		struct doca_rdma_task_read *rd;

		CHECK_ERR(doca_rdma_task_read_allocate_init(rdma, c, b, b, (union doca_data){0}, &rd),
			  DOCA_ERROR_BAD_STATE);
	}
	CHECK_OK(doca_ctx_stop(doca_rdma_as_ctx(rdma)));
	CHECK_OK(doca_rdma_destroy(rdma));
	CHECK_OK(doca_pe_destroy(pe));
	CHECK_OK(doca_buf_dec_refcount(b, NULL));
	CHECK_OK(doca_buf_inventory_destroy(inv));
	CHECK_OK(doca_mmap_destroy(m));
	CHECK_OK(doca_dev_close(dev));
}

static void test_bridge(void)
{
	struct doca_dev *dev = open_rdma_dev();
	struct doca_rdma *rdma;
	struct doca_rdma_connection *c;

	CHECK_OK(doca_rdma_create(dev, &rdma));
	CHECK_ERR(doca_rdma_bridge_prepare_connection(rdma, NULL, &c), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_rdma_bridge_prepare_connection(NULL, NULL, &c), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_rdma_destroy(rdma));
	CHECK_OK(doca_dev_close(dev));
}

/* caps.conf: one card of each profile */
static void test_caps_per_profile(void)
{
	struct doca_devinfo **list;
	uint32_t n = 0, seen = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	CHECK(n >= 4);
	for (uint32_t i = 0; i < n; i++) {
		enum softhw_profile p = list[i]->fn->card->profile;
		bool newer = p == SOFTHW_PROFILE_CX7 || p == SOFTHW_PROFILE_BF3;
		struct doca_rdma_gid gids[2];
		uint32_t v = 0;

		seen |= 1u << p;
		CHECK_OK(doca_rdma_cap_transport_type_is_supported(list[i], DOCA_RDMA_TRANSPORT_TYPE_RC));
		CHECK_ERR(doca_rdma_cap_transport_type_is_supported(list[i], DOCA_RDMA_TRANSPORT_TYPE_DC),
			  newer ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED);
		CHECK_OK(doca_rdma_cap_get_max_send_buf_list_len(list[i], &v));
		CHECK(v == (newer ? 32u : 16u));
		CHECK_OK(doca_rdma_cap_task_receive_get_max_dst_buf_list_len(list[i], DOCA_RDMA_TRANSPORT_TYPE_RC, &v));
		CHECK(v == (newer ? 32u : 16u));
		CHECK_ERR(doca_rdma_cap_task_receive_get_max_dst_buf_list_len(list[i], DOCA_RDMA_TRANSPORT_TYPE_DC, &v),
			  newer ? DOCA_SUCCESS : DOCA_ERROR_NOT_SUPPORTED);
		CHECK_OK(doca_rdma_cap_get_max_message_size(list[i], &v));
		CHECK(v == 1u << 30);
		CHECK_OK(doca_rdma_cap_get_max_send_queue_size(list[i], &v));
		CHECK(v >= 1024);
		CHECK_OK(doca_rdma_cap_get_max_recv_queue_size(list[i], &v));
		CHECK(v >= 1024);
		CHECK_OK(doca_rdma_cap_get_gid_table_size(list[i], &v));
		CHECK(v == 256);
		CHECK_OK(doca_rdma_cap_get_gid(list[i], 0, 2, gids));
		CHECK(memcmp(gids[0].raw, list[i]->fn->gid, 16) == 0);
		CHECK_ERR(doca_rdma_cap_get_gid(list[i], 255, 2, gids), DOCA_ERROR_INVALID_VALUE);
		CHECK_OK(doca_rdma_cap_task_send_is_supported(list[i]));
		CHECK_OK(doca_rdma_cap_task_receive_is_supported(list[i]));
		CHECK_OK(doca_rdma_cap_task_send_imm_is_supported(list[i]));
		CHECK_OK(doca_rdma_cap_task_read_is_supported(list[i]));
		CHECK_OK(doca_rdma_cap_task_write_is_supported(list[i]));
		CHECK_OK(doca_rdma_cap_task_write_imm_is_supported(list[i]));
		CHECK_OK(doca_rdma_cap_task_atomic_cmp_swp_is_supported(list[i]));
		CHECK_OK(doca_rdma_cap_task_atomic_fetch_add_is_supported(list[i]));
		CHECK_OK(doca_rdma_cap_task_remote_net_sync_event_get_is_supported(list[i]));
		CHECK_OK(doca_rdma_cap_task_remote_net_sync_event_notify_set_is_supported(list[i]));
		CHECK_OK(doca_rdma_cap_task_remote_net_sync_event_notify_add_is_supported(list[i]));
		if (!newer) {
			struct doca_dev *dev;
			struct doca_rdma *rdma;

			CHECK_OK(doca_dev_open(list[i], &dev));
			CHECK_OK(doca_rdma_create(dev, &rdma));
			CHECK_ERR(doca_rdma_set_transport_type(rdma, DOCA_RDMA_TRANSPORT_TYPE_DC), DOCA_ERROR_NOT_SUPPORTED);
			CHECK_OK(doca_rdma_destroy(rdma));
			CHECK_OK(doca_dev_close(dev));
		}
	}
	CHECK(seen == 0xf);
	CHECK_ERR(doca_rdma_cap_task_send_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_rdma_cap_get_max_message_size(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_devinfo_destroy_list(list));
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "caps") == 0) {
		TEST_RUN(test_caps_per_profile);
		TEST_EXIT();
	}
	TEST_RUN(test_create_destroy);
	TEST_RUN(test_setters_getters);
	TEST_RUN(test_bad_state_after_start);
	TEST_RUN(test_export_limits);
	TEST_RUN(test_connection_set);
	TEST_RUN(test_addr);
	TEST_RUN(test_task_pool_and_accessors);
	TEST_RUN(test_bridge);
	TEST_EXIT();
}
