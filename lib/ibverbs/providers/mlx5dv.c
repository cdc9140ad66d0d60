/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libmlx5.so.1 for programs linked against rdma-core's mlx5 provider (perftest's ib_send_bw and
 * friends bind mlx5dv_* at link time). rdma-core's own libmlx5 cannot load beside softdoca's
 * libibverbs: it needs libibverbs' private provider ABI. The soft NIC is not an mlx5 device, so
 * every direct-verbs call fails as rdma-core's libmlx5 fails on a device of another provider:
 * NULL or EOPNOTSUPP, errno EOPNOTSUPP. Here with a log line that names the call.
 */
#include <errno.h>
#include <infiniband/mlx5dv.h>

#include "softhw/base/sdk_log.h"

SDK_LOG_REGISTER(SOFTDOCA_MLX5DV);

static int not_mlx5(const char *what)
{
	SDK_LOG_ERR("%s: the soft NIC is not an mlx5 device (no direct verbs; docs/compatibility.md)", what);
	errno = EOPNOTSUPP;
	return EOPNOTSUPP;
}

struct mlx5dv_context_attr;

struct ibv_context *mlx5dv_open_device(struct ibv_device *device, struct mlx5dv_context_attr *attr)
{
	(void)device;
	(void)attr;
	not_mlx5("mlx5dv_open_device");
	return NULL;
}

struct ibv_qp *mlx5dv_create_qp(struct ibv_context *context, struct ibv_qp_init_attr_ex *qp_attr,
				struct mlx5dv_qp_init_attr *mlx5_qp_attr)
{
	(void)context;
	(void)qp_attr;
	(void)mlx5_qp_attr;
	not_mlx5("mlx5dv_create_qp");
	return NULL;
}

struct mlx5dv_qp_ex *mlx5dv_qp_ex_from_ibv_qp_ex(struct ibv_qp_ex *qp)
{
	(void)qp;
	not_mlx5("mlx5dv_qp_ex_from_ibv_qp_ex");
	return NULL;
}

int mlx5dv_devx_general_cmd(struct ibv_context *context, const void *in, size_t inlen, void *out, size_t outlen)
{
	(void)context;
	(void)in;
	(void)inlen;
	(void)out;
	(void)outlen;
	return not_mlx5("mlx5dv_devx_general_cmd");
}

struct mlx5dv_mkey *mlx5dv_create_mkey(struct mlx5dv_mkey_init_attr *mkey_init_attr)
{
	(void)mkey_init_attr;
	not_mlx5("mlx5dv_create_mkey");
	return NULL;
}

int mlx5dv_destroy_mkey(struct mlx5dv_mkey *mkey)
{
	(void)mkey;
	return not_mlx5("mlx5dv_destroy_mkey");
}

int mlx5dv_crypto_login(struct ibv_context *context, struct mlx5dv_crypto_login_attr *login_attr)
{
	(void)context;
	(void)login_attr;
	return not_mlx5("mlx5dv_crypto_login");
}

struct mlx5dv_dek *mlx5dv_dek_create(struct ibv_context *context, struct mlx5dv_dek_init_attr *init_attr)
{
	(void)context;
	(void)init_attr;
	not_mlx5("mlx5dv_dek_create");
	return NULL;
}

int mlx5dv_dek_destroy(struct mlx5dv_dek *dek)
{
	(void)dek;
	return not_mlx5("mlx5dv_dek_destroy");
}
