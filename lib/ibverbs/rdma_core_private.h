/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Functions rdma-core's libibverbs exports but declares only in headers it does not install
 * (driver.h, marshall.h): their ABI, declared once for softdoca's libibverbs and its tests. The
 * kernel's structures are the kernel's <rdma/ib_user_verbs.h> (<infiniband/verbs.h> includes it)
 * and <rdma/ib_user_sa.h>.
 */
#ifndef SOFTDOCA_IBV_RDMA_CORE_PRIVATE_H
#define SOFTDOCA_IBV_RDMA_CORE_PRIVATE_H

#include <stddef.h>
#include <infiniband/verbs.h>

struct ibv_sa_path_rec;
struct ib_user_path_rec;
typedef struct ibv_device *(*sv_driver_init_fn)(const char *uverbs_sys_path, int abi_version);
void ibv_register_driver(const char *name, sv_driver_init_fn init_func);
int ibv_dontfork_range(void *base, size_t size);
int ibv_dofork_range(void *base, size_t size);
const char *ibv_get_sysfs_path(void);
int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size);
void ibv_copy_qp_attr_from_kern(struct ibv_qp_attr *dst, struct ib_uverbs_qp_attr *src);
void ibv_copy_ah_attr_from_kern(struct ibv_ah_attr *dst, struct ib_uverbs_ah_attr *src);
void ibv_copy_path_rec_from_kern(struct ibv_sa_path_rec *dst, struct ib_user_path_rec *src);
void ibv_copy_path_rec_to_kern(struct ib_user_path_rec *dst, struct ibv_sa_path_rec *src);
/* driver.h's enum ibv_gid_type_sysfs: what sysfs says of a GID */
enum sv_gid_type_sysfs { SV_GID_TYPE_SYSFS_IB_ROCE_V1, SV_GID_TYPE_SYSFS_ROCE_V2 };
int ibv_query_gid_type(struct ibv_context *context, uint8_t port_num, unsigned int index,
		       enum sv_gid_type_sysfs *type);

#endif /* SOFTDOCA_IBV_RDMA_CORE_PRIVATE_H */
