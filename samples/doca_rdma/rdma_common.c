/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <doca_argp.h>
#include <doca_log.h>

#include "rdma_common.h"

DOCA_LOG_REGISTER(RDMA::COMMON);

/* ---------------------------------------------------------------------------------------- */
/* Flags                                                                                    */
/* ---------------------------------------------------------------------------------------- */

/* Copy a string flag into dst (capacity cap, NUL included), refusing values that do not fit. */
static doca_error_t copy_string_arg(char *dst, size_t cap, const char *value, const char *what)
{
	size_t len = strnlen(value, cap);

	if (len >= cap) {
		DOCA_LOG_ERR("Entered %s exceeded buffer size: %zu", what, cap - 1);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(dst, value, len + 1);
	return DOCA_SUCCESS;
}

static doca_error_t device_address_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;

	return copy_string_arg(cfg->device_name, sizeof(cfg->device_name), param, "IB device name");
}

static doca_error_t local_descriptor_path_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;

	return copy_string_arg(cfg->local_connection_desc_path, sizeof(cfg->local_connection_desc_path), param,
			       "local descriptor file path");
}

static doca_error_t remote_descriptor_path_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;

	return copy_string_arg(cfg->remote_connection_desc_path, sizeof(cfg->remote_connection_desc_path), param,
			       "remote descriptor file path");
}

static doca_error_t remote_resource_descriptor_path_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;

	return copy_string_arg(cfg->remote_resource_desc_path, sizeof(cfg->remote_resource_desc_path), param,
			       "remote resource descriptor file path");
}

static doca_error_t gid_index_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;
	int gid_index = *(int *)param;

	if (gid_index < 0) {
		DOCA_LOG_ERR("GID index for DOCA RDMA must be non-negative");
		return DOCA_ERROR_INVALID_VALUE;
	}
	cfg->is_gid_index_set = true;
	cfg->gid_index = (uint32_t)gid_index;
	return DOCA_SUCCESS;
}

static doca_error_t transport_type_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;
	const char *type = param;

	if (strcasecmp(type, "RC") == 0) {
		cfg->transport_type = DOCA_RDMA_TRANSPORT_TYPE_RC;
	} else if (strcasecmp(type, "DC") == 0) {
		cfg->transport_type = DOCA_RDMA_TRANSPORT_TYPE_DC;
	} else {
		DOCA_LOG_ERR("Entered wrong RDMA transport type \"%s\": the accepted types are \"RC\" and \"DC\"", type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t use_rdma_cm_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;

	cfg->use_rdma_cm = *(bool *)param;
	return DOCA_SUCCESS;
}

static doca_error_t listen_port_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;
	int port = *(int *)param;

	if (port <= 0 || port > UINT16_MAX) {
		DOCA_LOG_ERR("Entered listen port %d is out of range: it must be within 1..%u", port, UINT16_MAX);
		return DOCA_ERROR_INVALID_VALUE;
	}
	cfg->cm_port = (uint16_t)port;
	return DOCA_SUCCESS;
}

static doca_error_t server_address_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;

	return copy_string_arg(cfg->cm_addr, sizeof(cfg->cm_addr), param, "server address");
}

static doca_error_t server_address_type_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;
	const char *type = param;

	if (strcasecmp(type, "ip4") == 0 || strcasecmp(type, "ipv4") == 0) {
		cfg->cm_addr_type = DOCA_RDMA_ADDR_TYPE_IPv4;
	} else if (strcasecmp(type, "ip6") == 0 || strcasecmp(type, "ipv6") == 0) {
		cfg->cm_addr_type = DOCA_RDMA_ADDR_TYPE_IPv6;
	} else if (strcasecmp(type, "gid") == 0) {
		cfg->cm_addr_type = DOCA_RDMA_ADDR_TYPE_GID;
	} else {
		DOCA_LOG_ERR("Entered wrong server address type \"%s\": the accepted types are \"ipv4\", \"ipv6\" and \"gid\"",
			     type);
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

static doca_error_t send_string_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;

	return copy_string_arg(cfg->send_string, sizeof(cfg->send_string), param, "send string");
}

static doca_error_t read_string_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;

	return copy_string_arg(cfg->read_string, sizeof(cfg->read_string), param, "read string");
}

static doca_error_t write_string_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;

	return copy_string_arg(cfg->write_string, sizeof(cfg->write_string), param, "write string");
}

static doca_error_t num_connections_callback(void *param, void *config)
{
	struct rdma_config *cfg = config;
	int num = *(int *)param;

	if (num < 1 || num > MAX_NUM_CONNECTIONS) {
		DOCA_LOG_ERR("Entered number of connections %d is out of range: it must be within 1..%d", num,
			     MAX_NUM_CONNECTIONS);
		return DOCA_ERROR_INVALID_VALUE;
	}
	cfg->num_connections = (uint32_t)num;
	return DOCA_SUCCESS;
}

/* Combinations the flags cannot express one by one. */
static doca_error_t rdma_params_validation(void *config)
{
	struct rdma_config *cfg = config;

	if (cfg->transport_type == DOCA_RDMA_TRANSPORT_TYPE_DC && cfg->use_rdma_cm) {
		DOCA_LOG_ERR("DC transport is supported only with the out-of-band connection flow: drop -cm or use -tt RC");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (cfg->transport_type == DOCA_RDMA_TRANSPORT_TYPE_DC && cfg->num_connections > 1) {
		DOCA_LOG_ERR("DC transport is supported with a single connection only: drop -nc or use -tt RC");
		return DOCA_ERROR_INVALID_VALUE;
	}
	return DOCA_SUCCESS;
}

/* Create, describe and register one flag. */
static doca_error_t register_param(const char *short_name, const char *long_name, const char *arguments,
				   const char *description, enum doca_argp_type type, bool mandatory,
				   doca_argp_param_cb_t callback)
{
	struct doca_argp_param *param;
	doca_error_t result;

	result = doca_argp_param_create(&param);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create ARGP param: %s", doca_error_get_descr(result));
		return result;
	}
	doca_argp_param_set_short_name(param, short_name);
	doca_argp_param_set_long_name(param, long_name);
	if (arguments != NULL)
		doca_argp_param_set_arguments(param, arguments);
	doca_argp_param_set_description(param, description);
	doca_argp_param_set_callback(param, callback);
	doca_argp_param_set_type(param, type);
	if (mandatory)
		doca_argp_param_set_mandatory(param);
	result = doca_argp_register_param(param);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to register program param %s: %s", long_name, doca_error_get_descr(result));
	return result;
}

doca_error_t register_rdma_common_params(void)
{
	static const struct {
		const char *short_name, *long_name, *arguments, *description;
		enum doca_argp_type type;
		bool mandatory;
		doca_argp_param_cb_t callback;
	} params[] = {
		{"d", "device", "<IB device name>", "IB device name", DOCA_ARGP_TYPE_STRING, true,
		 device_address_callback},
		{"ld", "local-descriptor-path", NULL,
		 "Local descriptor file path that includes the local connection descriptor to be copied to the remote "
		 "program (out-of-band connection only)",
		 DOCA_ARGP_TYPE_STRING, false, local_descriptor_path_callback},
		{"re", "remote-descriptor-path", NULL,
		 "Remote descriptor file path that includes the remote connection descriptor to be copied from the "
		 "remote program (out-of-band connection only)",
		 DOCA_ARGP_TYPE_STRING, false, remote_descriptor_path_callback},
		{"m", "remote-resource-descriptor-path", NULL,
		 "Remote descriptor file path that includes the remote mmap or sync event descriptor to be copied from "
		 "the remote program (out-of-band connection only)",
		 DOCA_ARGP_TYPE_STRING, false, remote_resource_descriptor_path_callback},
		{"g", "gid-index", NULL, "GID index for DOCA RDMA (optional)", DOCA_ARGP_TYPE_INT, false,
		 gid_index_callback},
		{"tt", "transport-type", NULL,
		 "Transport type for DOCA RDMA: RC or DC (default RC; DC with the out-of-band flow and one connection "
		 "only)",
		 DOCA_ARGP_TYPE_STRING, false, transport_type_callback},
		{"cm", "use-rdma-cm", NULL, "Whether to use RDMA-CM to set up the connection (default: out-of-band)",
		 DOCA_ARGP_TYPE_BOOLEAN, false, use_rdma_cm_callback},
		{"lp", "listen-port", "<listen-port-num>", "Port the RDMA-CM server listens on (default 13579)",
		 DOCA_ARGP_TYPE_INT, false, listen_port_callback},
		{"sa", "server-addr", "<server address>",
		 "RDMA-CM server address: given, this side is the client; omitted, the server", DOCA_ARGP_TYPE_STRING,
		 false, server_address_callback},
		{"sat", "server-addr-type", "<server address type>",
		 "RDMA-CM server address type: ipv4, ipv6 or gid (default ipv4)", DOCA_ARGP_TYPE_STRING, false,
		 server_address_type_callback},
	};
	doca_error_t result;

	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		result = register_param(params[i].short_name, params[i].long_name, params[i].arguments,
					params[i].description, params[i].type, params[i].mandatory, params[i].callback);
		if (result != DOCA_SUCCESS)
			return result;
	}
	result = doca_argp_register_validation_callback(rdma_params_validation);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to register the RDMA flags' validation: %s", doca_error_get_descr(result));
	return result;
}

doca_error_t register_rdma_send_string_param(void)
{
	return register_param("s", "send-string", NULL, "String to send (optional, at most 256 characters)",
			      DOCA_ARGP_TYPE_STRING, false, send_string_callback);
}

doca_error_t register_rdma_read_string_param(void)
{
	return register_param("r", "read-string", NULL,
			      "String to be read by the requester (optional, at most 256 characters)", DOCA_ARGP_TYPE_STRING,
			      false, read_string_callback);
}

doca_error_t register_rdma_write_string_param(void)
{
	return register_param("w", "write-string", NULL, "String to write (optional, at most 256 characters)",
			      DOCA_ARGP_TYPE_STRING, false, write_string_callback);
}

doca_error_t register_rdma_num_connections_param(void)
{
	return register_param("nc", "num-connections", NULL,
			      "Number of RDMA connections (optional, default 1, at most 8)", DOCA_ARGP_TYPE_INT, false,
			      num_connections_callback);
}

void set_default_config_value(struct rdma_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	strcpy(cfg->send_string, DEFAULT_STRING);
	strcpy(cfg->read_string, DEFAULT_STRING);
	strcpy(cfg->write_string, DEFAULT_STRING);
	strcpy(cfg->local_connection_desc_path, DEFAULT_LOCAL_CONNECTION_DESC_PATH);
	strcpy(cfg->remote_connection_desc_path, DEFAULT_REMOTE_CONNECTION_DESC_PATH);
	strcpy(cfg->remote_resource_desc_path, DEFAULT_REMOTE_RESOURCE_CONNECTION_DESC_PATH);
	cfg->is_gid_index_set = false;
	cfg->num_connections = 1;
	cfg->transport_type = DOCA_RDMA_TRANSPORT_TYPE_RC;
	cfg->use_rdma_cm = false;
	cfg->cm_port = DEFAULT_RDMA_CM_PORT;
	cfg->cm_addr_type = DOCA_RDMA_ADDR_TYPE_IPv4;
}

/* ---------------------------------------------------------------------------------------- */
/* Files and stdin                                                                          */
/* ---------------------------------------------------------------------------------------- */

doca_error_t write_file(const char *path, const char *data, size_t size)
{
	int fd;
	size_t done = 0;

	/* O_EXCL: a descriptor left from an earlier run must not be taken for this run's */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0) {
		if (errno == EEXIST)
			DOCA_LOG_ERR("File %s already exists. Please delete it prior to running the sample", path);
		else
			DOCA_LOG_ERR("Failed to open %s for writing: %s", path, strerror(errno));
		return DOCA_ERROR_IO_FAILED;
	}
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			DOCA_LOG_ERR("Failed to write the file %s: %s", path, strerror(errno));
			(void)close(fd);
			return DOCA_ERROR_IO_FAILED;
		}
		done += (size_t)n;
	}
	if (close(fd) != 0) {
		DOCA_LOG_ERR("Failed to close the file %s: %s", path, strerror(errno));
		return DOCA_ERROR_IO_FAILED;
	}
	return DOCA_SUCCESS;
}

doca_error_t read_file(const char *path, char **data, size_t *size)
{
	FILE *fp;
	char *buf;
	long len;
	size_t got;

	*data = NULL;
	*size = 0;
	fp = fopen(path, "rb");
	if (fp == NULL) {
		DOCA_LOG_ERR("Failed to open the file %s for reading: %s", path, strerror(errno));
		return DOCA_ERROR_IO_FAILED;
	}
	if (fseek(fp, 0, SEEK_END) != 0 || (len = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0) {
		DOCA_LOG_ERR("Failed to find the size of the file %s", path);
		(void)fclose(fp);
		return DOCA_ERROR_IO_FAILED;
	}
	if (len == 0) {
		DOCA_LOG_ERR("The file %s is empty: copy the peer's descriptor into it first", path);
		(void)fclose(fp);
		return DOCA_ERROR_IO_FAILED;
	}
	buf = malloc((size_t)len);
	if (buf == NULL) {
		DOCA_LOG_ERR("Failed to allocate %ld bytes for the file %s", len, path);
		(void)fclose(fp);
		return DOCA_ERROR_NO_MEMORY;
	}
	got = fread(buf, 1, (size_t)len, fp);
	(void)fclose(fp);
	if (got != (size_t)len) {
		DOCA_LOG_ERR("Failed to read the file %s", path);
		free(buf);
		return DOCA_ERROR_IO_FAILED;
	}
	*data = buf;
	*size = got;
	return DOCA_SUCCESS;
}

void delete_file(const char *path)
{
	if (path[0] != '\0' && unlink(path) != 0 && errno != ENOENT)
		DOCA_LOG_WARN("Failed to delete the file %s: %s", path, strerror(errno));
}

void wait_for_enter(void)
{
	int c;

	do {
		c = getchar();
	} while (c != '\n' && c != '\r' && c != EOF);
}

/* ---------------------------------------------------------------------------------------- */
/* Resources                                                                                */
/* ---------------------------------------------------------------------------------------- */

/* The first device named cfg->device_name (any name if empty) that passes func. */
static doca_error_t open_rdma_device(struct rdma_config *cfg, tasks_check func, struct doca_dev **dev)
{
	size_t len = strnlen(cfg->device_name, sizeof(cfg->device_name));

	if (len == 0)
		return open_doca_device_with_capabilities(func, dev);
	return open_doca_device_with_ibdev_name((const uint8_t *)cfg->device_name, len, func, dev);
}

doca_error_t allocate_rdma_resources(struct rdma_config *cfg, uint32_t mmap_permissions, uint32_t rdma_permissions,
				     tasks_check func, struct rdma_resources *resources)
{
	doca_error_t result;

	resources->cfg = cfg;
	resources->first_encountered_error = DOCA_SUCCESS;
	resources->num_expected_connections = cfg->num_connections;

	result = open_rdma_device(cfg, func, &resources->doca_device);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to open DOCA device: %s", doca_error_get_descr(result));
		return result;
	}

	resources->mmap_memrange = calloc(MEM_RANGE_LEN, sizeof(*resources->mmap_memrange));
	if (resources->mmap_memrange == NULL) {
		DOCA_LOG_ERR("Failed to allocate memory for mmap_memrange");
		result = DOCA_ERROR_NO_MEMORY;
		goto fail;
	}

	result = doca_mmap_create(&resources->mmap);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create DOCA mmap: %s", doca_error_get_descr(result));
		goto fail;
	}
	result = doca_mmap_set_permissions(resources->mmap, mmap_permissions);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set permissions for DOCA mmap: %s", doca_error_get_descr(result));
		goto fail;
	}
	result = doca_mmap_set_memrange(resources->mmap, resources->mmap_memrange, MEM_RANGE_LEN);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set memrange for DOCA mmap: %s", doca_error_get_descr(result));
		goto fail;
	}
	result = doca_mmap_add_dev(resources->mmap, resources->doca_device);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to add device to DOCA mmap: %s", doca_error_get_descr(result));
		goto fail;
	}
	result = doca_mmap_start(resources->mmap);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to start DOCA mmap: %s", doca_error_get_descr(result));
		goto fail;
	}

	result = doca_pe_create(&resources->pe);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create DOCA progress engine: %s", doca_error_get_descr(result));
		goto fail;
	}

	result = doca_rdma_create(resources->doca_device, &resources->rdma);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create DOCA RDMA: %s", doca_error_get_descr(result));
		goto fail;
	}
	resources->rdma_ctx = doca_rdma_as_ctx(resources->rdma);
	if (resources->rdma_ctx == NULL) {
		DOCA_LOG_ERR("Failed to convert DOCA RDMA to DOCA context");
		result = DOCA_ERROR_UNEXPECTED;
		goto fail;
	}
	result = doca_rdma_set_permissions(resources->rdma, rdma_permissions);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set permissions for DOCA RDMA: %s", doca_error_get_descr(result));
		goto fail;
	}
	if (cfg->is_gid_index_set) {
		result = doca_rdma_set_gid_index(resources->rdma, cfg->gid_index);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to set gid_index for DOCA RDMA: %s", doca_error_get_descr(result));
			goto fail;
		}
	}
	result = doca_rdma_set_max_num_connections(resources->rdma, (uint16_t)cfg->num_connections);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set max_num_connections for DOCA RDMA: %s", doca_error_get_descr(result));
		goto fail;
	}
	result = doca_rdma_set_transport_type(resources->rdma, cfg->transport_type);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set transport type for DOCA RDMA: %s", doca_error_get_descr(result));
		goto fail;
	}
	result = doca_pe_connect_ctx(resources->pe, resources->rdma_ctx);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to connect the progress engine to the RDMA context: %s",
			     doca_error_get_descr(result));
		goto fail;
	}
	return DOCA_SUCCESS;

fail:
	(void)destroy_rdma_resources(resources, NULL);
	return result;
}

/* Keep the first error in *result, log every one. */
static void teardown_error(doca_error_t *result, doca_error_t err, const char *what)
{
	if (err == DOCA_SUCCESS)
		return;
	DOCA_LOG_ERR("%s: %s", what, doca_error_get_descr(err));
	DOCA_ERROR_PROPAGATE(*result, err);
}

doca_error_t destroy_rdma_resources(struct rdma_resources *resources, struct rdma_config *cfg)
{
	doca_error_t result = DOCA_SUCCESS;
	enum doca_ctx_states state = DOCA_CTX_STATE_IDLE;

	if (resources->rdma_ctx != NULL && resources->pe != NULL &&
	    doca_ctx_get_state(resources->rdma_ctx, &state) == DOCA_SUCCESS && state != DOCA_CTX_STATE_IDLE)
		teardown_error(&result, request_stop_ctx(resources->pe, resources->rdma_ctx),
			       "Failed to stop RDMA context");

	if (resources->remote_se != NULL) {
		teardown_error(&result, doca_sync_event_remote_net_destroy(resources->remote_se),
			       "Failed to destroy the remote sync event");
		resources->remote_se = NULL;
	}
	if (resources->remote_mmap != NULL) {
		teardown_error(&result, doca_mmap_destroy(resources->remote_mmap), "Failed to destroy the remote mmap");
		resources->remote_mmap = NULL;
	}
	if (resources->cm_addr != NULL) {
		teardown_error(&result, doca_rdma_addr_destroy(resources->cm_addr),
			       "Failed to destroy the RDMA-CM address");
		resources->cm_addr = NULL;
	}
	if (resources->rdma != NULL) {
		teardown_error(&result, doca_rdma_destroy(resources->rdma), "Failed to destroy DOCA RDMA");
		resources->rdma = NULL;
		resources->rdma_ctx = NULL;
	}
	if (resources->sync_event != NULL) {
		teardown_error(&result, doca_sync_event_stop(resources->sync_event), "Failed to stop the sync event");
		teardown_error(&result, doca_sync_event_destroy(resources->sync_event),
			       "Failed to destroy the sync event");
		resources->sync_event = NULL;
	}
	if (resources->negotiation_inventory != NULL) {
		teardown_error(&result, doca_buf_inventory_destroy(resources->negotiation_inventory),
			       "Failed to destroy the negotiation buffer inventory");
		resources->negotiation_inventory = NULL;
	}
	if (resources->negotiation_mmap != NULL) {
		teardown_error(&result, doca_mmap_destroy(resources->negotiation_mmap),
			       "Failed to destroy the negotiation mmap");
		resources->negotiation_mmap = NULL;
	}
	if (resources->buf_inventory != NULL) {
		teardown_error(&result, doca_buf_inventory_destroy(resources->buf_inventory),
			       "Failed to destroy DOCA buffer inventory");
		resources->buf_inventory = NULL;
	}
	if (resources->mmap != NULL) {
		teardown_error(&result, doca_mmap_destroy(resources->mmap), "Failed to destroy DOCA mmap");
		resources->mmap = NULL;
	}
	if (resources->pe != NULL) {
		teardown_error(&result, doca_pe_destroy(resources->pe), "Failed to destroy DOCA progress engine");
		resources->pe = NULL;
	}
	if (resources->doca_device != NULL) {
		teardown_error(&result, doca_dev_close(resources->doca_device), "Failed to close DOCA device");
		resources->doca_device = NULL;
	}

	free(resources->negotiation_memrange);
	resources->negotiation_memrange = NULL;
	free(resources->mmap_memrange);
	resources->mmap_memrange = NULL;
	free(resources->remote_rdma_conn_descriptor);
	resources->remote_rdma_conn_descriptor = NULL;
	free(resources->remote_resource_desc);
	resources->remote_resource_desc = NULL;

	/* The descriptors of this run mean nothing to the next one */
	if (cfg != NULL) {
		delete_file(cfg->local_connection_desc_path);
		delete_file(cfg->remote_connection_desc_path);
		delete_file(cfg->remote_resource_desc_path);
	}
	return result;
}

doca_error_t rdma_task_send_supported(struct doca_devinfo *devinfo)
{
	return doca_rdma_cap_task_send_is_supported(devinfo);
}

doca_error_t rdma_task_send_imm_supported(struct doca_devinfo *devinfo)
{
	return doca_rdma_cap_task_send_imm_is_supported(devinfo);
}

doca_error_t rdma_task_receive_supported(struct doca_devinfo *devinfo)
{
	return doca_rdma_cap_task_receive_is_supported(devinfo);
}

doca_error_t rdma_task_read_supported(struct doca_devinfo *devinfo)
{
	return doca_rdma_cap_task_read_is_supported(devinfo);
}

doca_error_t rdma_task_write_supported(struct doca_devinfo *devinfo)
{
	return doca_rdma_cap_task_write_is_supported(devinfo);
}

doca_error_t rdma_task_write_imm_supported(struct doca_devinfo *devinfo)
{
	return doca_rdma_cap_task_write_imm_is_supported(devinfo);
}

doca_error_t rdma_create_inventory(struct rdma_resources *resources)
{
	doca_error_t result;

	result = doca_buf_inventory_create(INVENTORY_NUM_INITIAL_ELEMENTS, &resources->buf_inventory);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create DOCA buffer inventory: %s", doca_error_get_descr(result));
		return result;
	}
	result = doca_buf_inventory_start(resources->buf_inventory);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to start DOCA buffer inventory: %s", doca_error_get_descr(result));
	return result;
}

doca_error_t check_received_string(const char *data, size_t len, size_t *str_len)
{
	size_t n = strnlen(data, len);

	if (n > MAX_USER_ARG_SIZE) {
		DOCA_LOG_ERR("The received string is %zu characters long: more than the %d a sample sends", n,
			     MAX_USER_ARG_SIZE);
		return DOCA_ERROR_INVALID_VALUE;
	}
	*str_len = n;
	return DOCA_SUCCESS;
}

/* ---------------------------------------------------------------------------------------- */
/* Running the sample                                                                       */
/* ---------------------------------------------------------------------------------------- */

void rdma_stop(struct rdma_resources *resources)
{
	doca_error_t result;

	if (resources->stop_requested)
		return;
	resources->stop_requested = true;

	/* RDMA-CM: tell the peers before the ctx goes away */
	if (resources->cfg->use_rdma_cm) {
		for (uint32_t i = 0; i < MAX_NUM_CONNECTIONS; i++) {
			if (!resources->connection_up[i])
				continue;
			resources->connection_up[i] = false;
			result = doca_rdma_connection_disconnect(resources->connections[i]);
			if (result != DOCA_SUCCESS)
				DOCA_LOG_WARN("Failed to disconnect RDMA connection [%u]: %s", i,
					      doca_error_get_descr(result));
		}
	}

	result = doca_ctx_stop(resources->rdma_ctx);
	if (result != DOCA_SUCCESS && result != DOCA_ERROR_IN_PROGRESS) {
		DOCA_LOG_ERR("Failed to stop RDMA context: %s", doca_error_get_descr(result));
		DOCA_ERROR_PROPAGATE(resources->first_encountered_error, result);
		/* The ctx will not reach IDLE by itself: leave the loop, the teardown stops it */
		resources->run_pe_progress = false;
	}
}

void rdma_fail(struct rdma_resources *resources, doca_error_t err)
{
	DOCA_ERROR_PROPAGATE(resources->first_encountered_error, err);
	rdma_stop(resources);
}

void rdma_task_done(struct rdma_resources *resources)
{
	if (resources->num_remaining_tasks > 0)
		resources->num_remaining_tasks--;
	if (resources->num_remaining_tasks == 0)
		rdma_stop(resources);
}

doca_error_t rdma_export_connection(struct rdma_resources *resources, uint32_t index, bool write_local)
{
	doca_error_t result;

	result = doca_rdma_export(resources->rdma, &resources->rdma_conn_descriptor,
				  &resources->rdma_conn_descriptor_size, &resources->connections[index]);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to export DOCA RDMA: %s", doca_error_get_descr(result));
		return result;
	}
	if (!write_local)
		return DOCA_SUCCESS;
	result = write_file(resources->cfg->local_connection_desc_path, resources->rdma_conn_descriptor,
			    resources->rdma_conn_descriptor_size);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to write the RDMA connection details: %s", doca_error_get_descr(result));
	return result;
}

doca_error_t rdma_connect_connection(struct rdma_resources *resources, uint32_t index)
{
	doca_error_t result;

	free(resources->remote_rdma_conn_descriptor);
	resources->remote_rdma_conn_descriptor = NULL;
	result = read_file(resources->cfg->remote_connection_desc_path, (char **)&resources->remote_rdma_conn_descriptor,
			   &resources->remote_rdma_conn_descriptor_size);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to read the remote RDMA connection details: %s", doca_error_get_descr(result));
		return result;
	}
	result = doca_rdma_connect(resources->rdma, resources->remote_rdma_conn_descriptor,
				   resources->remote_rdma_conn_descriptor_size, resources->connections[index]);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to connect the RDMA connection with the peer's descriptor %s: %s",
			     resources->cfg->remote_connection_desc_path, doca_error_get_descr(result));
		return result;
	}
	resources->connection_up[index] = true;
	resources->num_established_connections++;
	return DOCA_SUCCESS;
}

doca_error_t rdma_read_remote_resource(struct rdma_resources *resources)
{
	doca_error_t result;

	free(resources->remote_resource_desc);
	resources->remote_resource_desc = NULL;
	result = read_file(resources->cfg->remote_resource_desc_path, (char **)&resources->remote_resource_desc,
			   &resources->remote_resource_desc_size);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to read the remote resource descriptor: %s", doca_error_get_descr(result));
	return result;
}

doca_error_t rdma_write_local_resource(struct rdma_resources *resources)
{
	doca_error_t result;

	result = write_file(resources->cfg->remote_resource_desc_path, resources->local_resource_desc,
			    resources->local_resource_desc_size);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to write the exported resource descriptor: %s", doca_error_get_descr(result));
	return result;
}

doca_error_t rdma_import_remote_mmap(struct rdma_resources *resources)
{
	doca_error_t result;

	result = doca_mmap_create_from_export(NULL, resources->remote_resource_desc, resources->remote_resource_desc_size,
					      resources->doca_device, &resources->remote_mmap);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to create mmap from export: %s", doca_error_get_descr(result));
	return result;
}

doca_error_t rdma_export_local_mmap(struct rdma_resources *resources)
{
	doca_error_t result;

	result = doca_mmap_export_rdma(resources->mmap, resources->doca_device, &resources->local_resource_desc,
				       &resources->local_resource_desc_size);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to export DOCA mmap for RDMA: %s", doca_error_get_descr(result));
	return result;
}

doca_error_t rdma_responder_export_and_connect(struct rdma_resources *resources)
{
	struct rdma_config *cfg = resources->cfg;
	doca_error_t result;

	result = rdma_export_connection(resources, 0, true);
	if (result != DOCA_SUCCESS)
		return result;
	result = rdma_write_local_resource(resources);
	if (result != DOCA_SUCCESS)
		return result;
	DOCA_LOG_INFO("You can now copy %s and %s to the requester", cfg->local_connection_desc_path,
		      cfg->remote_resource_desc_path);
	/* DC: the requester connects to us; we need nothing from it */
	if (cfg->transport_type == DOCA_RDMA_TRANSPORT_TYPE_DC)
		return DOCA_SUCCESS;
	DOCA_LOG_INFO("Please copy %s from the requester and then press enter", cfg->remote_connection_desc_path);
	wait_for_enter();
	return rdma_connect_connection(resources, 0);
}

doca_error_t rdma_requester_export_and_connect(struct rdma_resources *resources)
{
	struct rdma_config *cfg = resources->cfg;
	bool is_dc = cfg->transport_type == DOCA_RDMA_TRANSPORT_TYPE_DC;
	doca_error_t result;

	/* DC: the responder needs nothing from the requester */
	result = rdma_export_connection(resources, 0, !is_dc);
	if (result != DOCA_SUCCESS)
		return result;
	if (!is_dc)
		DOCA_LOG_INFO("You can now copy %s to the responder", cfg->local_connection_desc_path);
	DOCA_LOG_INFO("Please copy %s and %s from the responder and then press enter after pressing enter in the "
		      "responder side",
		      cfg->remote_connection_desc_path, cfg->remote_resource_desc_path);
	wait_for_enter();
	result = rdma_connect_connection(resources, 0);
	if (result != DOCA_SUCCESS)
		return result;
	return rdma_read_remote_resource(resources);
}

/* ---------------------------------------------------------------------------------------- */
/* RDMA-CM and the descriptor negotiation                                                   */
/* ---------------------------------------------------------------------------------------- */

/* Every connection is up and the descriptor (if any) went across: the sample's work. */
static void maybe_connected(struct rdma_resources *resources, bool negotiation_done)
{
	doca_error_t result;

	if (resources->num_established_connections < resources->num_expected_connections || !negotiation_done)
		return;
	if (resources->on_connected == NULL)
		return;
	result = resources->on_connected(resources);
	if (result != DOCA_SUCCESS)
		rdma_fail(resources, result);
}

static void negotiation_send_completed(struct doca_rdma_task_send *task, union doca_data task_user_data,
				       union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *buf = task_user_data.ptr;

	doca_task_free(doca_rdma_task_send_as_task(task));
	(void)doca_buf_dec_refcount(buf, NULL);
	maybe_connected(resources, true);
}

static void negotiation_send_failed(struct doca_rdma_task_send *task, union doca_data task_user_data,
				    union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *buf = task_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_rdma_task_send_as_task(task));

	/* Flushed by our own stop: not a new failure */
	if (!resources->stop_requested)
		DOCA_LOG_ERR("Sending the descriptor to the peer failed: %s", doca_error_get_descr(status));
	doca_task_free(doca_rdma_task_send_as_task(task));
	(void)doca_buf_dec_refcount(buf, NULL);
	if (!resources->stop_requested)
		rdma_fail(resources, status);
}

static void negotiation_receive_completed(struct doca_rdma_task_receive *task, union doca_data task_user_data,
					  union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *buf = task_user_data.ptr;
	uint32_t len = doca_rdma_task_receive_get_result_len(task);

	doca_task_free(doca_rdma_task_receive_as_task(task));
	(void)doca_buf_dec_refcount(buf, NULL);

	if (len == 0 || len > MAX_NEGOTIATION_LEN) {
		DOCA_LOG_ERR("The peer sent a descriptor of %u bytes: expected 1..%d", len, MAX_NEGOTIATION_LEN);
		rdma_fail(resources, DOCA_ERROR_UNEXPECTED);
		return;
	}
	free(resources->remote_resource_desc);
	resources->remote_resource_desc = malloc(len);
	if (resources->remote_resource_desc == NULL) {
		DOCA_LOG_ERR("Failed to allocate %u bytes for the peer's descriptor", len);
		rdma_fail(resources, DOCA_ERROR_NO_MEMORY);
		return;
	}
	memcpy(resources->remote_resource_desc, resources->negotiation_memrange, len);
	resources->remote_resource_desc_size = len;
	maybe_connected(resources, true);
}

static void negotiation_receive_failed(struct doca_rdma_task_receive *task, union doca_data task_user_data,
				       union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	struct doca_buf *buf = task_user_data.ptr;
	doca_error_t status = doca_task_get_status(doca_rdma_task_receive_as_task(task));

	/* Flushed by our own stop: not a new failure */
	if (!resources->stop_requested)
		DOCA_LOG_ERR("Receiving the peer's descriptor failed: %s", doca_error_get_descr(status));
	doca_task_free(doca_rdma_task_receive_as_task(task));
	(void)doca_buf_dec_refcount(buf, NULL);
	if (!resources->stop_requested)
		rdma_fail(resources, status);
}

/* Memory and inventory of the negotiation message. */
static doca_error_t prepare_negotiation(struct rdma_resources *resources)
{
	doca_error_t result;

	resources->negotiation_memrange = calloc(1, MAX_NEGOTIATION_LEN);
	if (resources->negotiation_memrange == NULL) {
		DOCA_LOG_ERR("Failed to allocate the negotiation memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	result = doca_mmap_create(&resources->negotiation_mmap);
	if (result == DOCA_SUCCESS)
		result = doca_mmap_set_permissions(resources->negotiation_mmap, DOCA_ACCESS_FLAG_LOCAL_READ_WRITE);
	if (result == DOCA_SUCCESS)
		result = doca_mmap_set_memrange(resources->negotiation_mmap, resources->negotiation_memrange,
						MAX_NEGOTIATION_LEN);
	if (result == DOCA_SUCCESS)
		result = doca_mmap_add_dev(resources->negotiation_mmap, resources->doca_device);
	if (result == DOCA_SUCCESS)
		result = doca_mmap_start(resources->negotiation_mmap);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create the negotiation mmap: %s", doca_error_get_descr(result));
		return result;
	}
	result = doca_buf_inventory_create(NUM_NEGOTIATION_RDMA_TASKS, &resources->negotiation_inventory);
	if (result == DOCA_SUCCESS)
		result = doca_buf_inventory_start(resources->negotiation_inventory);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to create the negotiation buffer inventory: %s", doca_error_get_descr(result));
		return result;
	}

	if (resources->negotiation == RDMA_NEGOTIATION_SEND_DESC)
		result = doca_rdma_task_send_set_conf(resources->rdma, negotiation_send_completed, negotiation_send_failed,
						      NUM_NEGOTIATION_RDMA_TASKS);
	else
		result = doca_rdma_task_receive_set_conf(resources->rdma, negotiation_receive_completed,
							 negotiation_receive_failed, NUM_NEGOTIATION_RDMA_TASKS);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to configure the negotiation task: %s", doca_error_get_descr(result));
	return result;
}

/* Send the local descriptor over connection 0. */
static doca_error_t send_descriptor(struct rdma_resources *resources)
{
	struct doca_rdma_task_send *task = NULL;
	struct doca_buf *buf = NULL;
	union doca_data user_data;
	doca_error_t result;

	if (resources->local_resource_desc_size == 0 || resources->local_resource_desc_size > MAX_NEGOTIATION_LEN) {
		DOCA_LOG_ERR("The descriptor to send is %zu bytes: expected 1..%d", resources->local_resource_desc_size,
			     MAX_NEGOTIATION_LEN);
		return DOCA_ERROR_INVALID_VALUE;
	}
	memcpy(resources->negotiation_memrange, resources->local_resource_desc, resources->local_resource_desc_size);
	result = doca_buf_inventory_buf_get_by_data(resources->negotiation_inventory, resources->negotiation_mmap,
						    resources->negotiation_memrange, resources->local_resource_desc_size,
						    &buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the descriptor's DOCA buffer: %s", doca_error_get_descr(result));
		return result;
	}
	user_data.ptr = buf;
	result = doca_rdma_task_send_allocate_init(resources->rdma, rdma_connection(resources), buf, user_data, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the descriptor's RDMA send task: %s", doca_error_get_descr(result));
		(void)doca_buf_dec_refcount(buf, NULL);
		return result;
	}
	result = doca_task_submit(doca_rdma_task_send_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit the descriptor's RDMA send task: %s", doca_error_get_descr(result));
		doca_task_free(doca_rdma_task_send_as_task(task));
		(void)doca_buf_dec_refcount(buf, NULL);
	}
	return result;
}

/* Post the receive of the peer's descriptor (before connecting: it must be there first). */
static doca_error_t post_descriptor_receive(struct rdma_resources *resources)
{
	struct doca_rdma_task_receive *task = NULL;
	struct doca_buf *buf = NULL;
	union doca_data user_data;
	doca_error_t result;

	result = doca_buf_inventory_buf_get_by_addr(resources->negotiation_inventory, resources->negotiation_mmap,
						    resources->negotiation_memrange, MAX_NEGOTIATION_LEN, &buf);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the descriptor's DOCA buffer: %s", doca_error_get_descr(result));
		return result;
	}
	user_data.ptr = buf;
	result = doca_rdma_task_receive_allocate_init(resources->rdma, buf, user_data, &task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to allocate the descriptor's RDMA receive task: %s", doca_error_get_descr(result));
		(void)doca_buf_dec_refcount(buf, NULL);
		return result;
	}
	result = doca_task_submit(doca_rdma_task_receive_as_task(task));
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit the descriptor's RDMA receive task: %s", doca_error_get_descr(result));
		doca_task_free(doca_rdma_task_receive_as_task(task));
		(void)doca_buf_dec_refcount(buf, NULL);
	}
	return result;
}

static void rdma_cm_connect_request_cb(struct doca_rdma_connection *connection, union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	uint32_t index = resources->num_requested_connections;
	union doca_data conn_user_data;
	doca_error_t result;

	if (index >= resources->num_expected_connections) {
		DOCA_LOG_WARN("Rejecting an RDMA-CM connection request: all %u connections are taken",
			      resources->num_expected_connections);
		(void)doca_rdma_connection_reject(connection);
		return;
	}
	if (resources->log_connections)
		DOCA_LOG_INFO("Start to establish RDMA connection [%u]", index);

	/* The index comes back in the established and disconnection callbacks */
	conn_user_data.u64 = index;
	result = doca_rdma_connection_set_user_data(connection, conn_user_data);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set the RDMA connection's user data: %s", doca_error_get_descr(result));
		DOCA_ERROR_PROPAGATE(resources->first_encountered_error, result);
		resources->run_pe_progress = false;
		return;
	}
	result = doca_rdma_connection_accept(connection, NULL, 0);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to accept RDMA connection: %s", doca_error_get_descr(result));
		DOCA_ERROR_PROPAGATE(resources->first_encountered_error, result);
		resources->run_pe_progress = false;
		return;
	}
	resources->connections[index] = connection;
	resources->num_requested_connections++;
}

static void rdma_cm_connect_established_cb(struct doca_rdma_connection *connection,
					   union doca_data connection_user_data, union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	uint64_t index = connection_user_data.u64;
	doca_error_t result;

	if (index >= MAX_NUM_CONNECTIONS) {
		DOCA_LOG_ERR("An RDMA connection with unknown user data %" PRIu64 " was established", index);
		rdma_fail(resources, DOCA_ERROR_UNEXPECTED);
		return;
	}
	resources->connections[index] = connection;
	resources->connection_up[index] = true;
	resources->num_established_connections++;
	if (resources->log_connections)
		DOCA_LOG_INFO("RDMA connection [%" PRIu64 "] is establshed", index);
	if (resources->num_established_connections < resources->num_expected_connections)
		return;
	if (resources->log_connections)
		DOCA_LOG_INFO("All [%u] RDMA connections have been establshed", resources->num_established_connections);

	switch (resources->negotiation) {
	case RDMA_NEGOTIATION_NONE:
		maybe_connected(resources, true);
		break;
	case RDMA_NEGOTIATION_SEND_DESC:
		result = send_descriptor(resources);
		if (result != DOCA_SUCCESS)
			rdma_fail(resources, result);
		break;
	case RDMA_NEGOTIATION_RECV_DESC:
		/* The receive completion goes on once the descriptor has arrived */
		break;
	}
}

static void rdma_cm_connect_failure_cb(struct doca_rdma_connection *connection, union doca_data connection_user_data,
				       union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;

	(void)connection;
	(void)connection_user_data;
	DOCA_LOG_ERR("Failed to establish the RDMA-CM connection");
	DOCA_ERROR_PROPAGATE(resources->first_encountered_error, DOCA_ERROR_CONNECTION_ABORTED);
	resources->run_pe_progress = false;
}

static void rdma_cm_disconnect_cb(struct doca_rdma_connection *connection, union doca_data connection_user_data,
				  union doca_data ctx_user_data)
{
	struct rdma_resources *resources = ctx_user_data.ptr;
	uint64_t index = connection_user_data.u64;
	doca_error_t result;

	if (index < MAX_NUM_CONNECTIONS && resources->connection_up[index]) {
		resources->connection_up[index] = false;
		result = doca_rdma_connection_disconnect(connection);
		if (result != DOCA_SUCCESS)
			DOCA_LOG_WARN("Failed to disconnect RDMA connection: %s", doca_error_get_descr(result));
	}
	DOCA_LOG_INFO("The peer disconnected RDMA connection [%" PRIu64 "]", index);
}

/* Listen (server) or connect to the server (client), as the flags say. */
static doca_error_t rdma_cm_connect(struct rdma_resources *resources)
{
	struct rdma_config *cfg = resources->cfg;
	bool is_client = cfg->cm_addr[0] != '\0';
	const char *role = is_client ? CLIENT_NAME : SERVER_NAME;
	union doca_data conn_user_data = {.u64 = 0};
	doca_error_t result;

	DOCA_LOG_INFO("Using RDMA_CM to setup RDMA connection");
	DOCA_LOG_INFO("RDMA_CM connection params:");
	DOCA_LOG_INFO("-- Connection Role: %s", role);
	DOCA_LOG_INFO("-- Addr_type : %d", (int)cfg->cm_addr_type);
	DOCA_LOG_INFO("-- Addr: %s", is_client ? cfg->cm_addr : "NULL");
	DOCA_LOG_INFO("-- Port: %u", cfg->cm_port);
	DOCA_LOG_INFO("-- Num_connections: %u", resources->num_expected_connections);

	if (!is_client) {
		DOCA_LOG_INFO("Server calling doca_rdma_start_listen_to_port");
		result = doca_rdma_start_listen_to_port(resources->rdma, cfg->cm_port);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Server failed to call doca_rdma_start_listen_to_port: %s",
				     doca_error_get_descr(result));
			return result;
		}
		resources->listening = true;
	} else {
		result = doca_rdma_addr_create(cfg->cm_addr_type, cfg->cm_addr, cfg->cm_port, &resources->cm_addr);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to create the RDMA-CM address of %s: %s", cfg->cm_addr,
				     doca_error_get_descr(result));
			return result;
		}
		DOCA_LOG_INFO("Client calling doca_rdma_connect_to_addr");
		result = doca_rdma_connect_to_addr(resources->rdma, resources->cm_addr, conn_user_data);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Client failed to call doca_rdma_connect_to_addr: %s",
				     doca_error_get_descr(result));
			return result;
		}
	}
	DOCA_LOG_INFO("[%s] started connection successfully", role);
	return DOCA_SUCCESS;
}

static void rdma_state_changed_callback(const union doca_data user_data, struct doca_ctx *ctx,
					enum doca_ctx_states prev_state, enum doca_ctx_states next_state)
{
	struct rdma_resources *resources = user_data.ptr;
	doca_error_t result;

	(void)ctx;
	(void)prev_state;
	switch (next_state) {
	case DOCA_CTX_STATE_STARTING:
		DOCA_LOG_INFO("RDMA context entered starting state");
		break;
	case DOCA_CTX_STATE_RUNNING:
		DOCA_LOG_INFO("RDMA context is running");
		if (resources->before_connect != NULL) {
			result = resources->before_connect(resources);
			if (result != DOCA_SUCCESS) {
				rdma_fail(resources, result);
				break;
			}
		}
		if (resources->cfg->use_rdma_cm) {
			if (resources->negotiation == RDMA_NEGOTIATION_RECV_DESC) {
				result = post_descriptor_receive(resources);
				if (result != DOCA_SUCCESS) {
					rdma_fail(resources, result);
					break;
				}
			}
			result = rdma_cm_connect(resources);
			if (result != DOCA_SUCCESS) {
				rdma_fail(resources, result);
				break;
			}
			DOCA_LOG_INFO("RDMA context finished initialization");
			break;
		}
		DOCA_LOG_INFO("Using Out-Of-Band to setup RDMA connection");
		result = resources->oob_connect(resources);
		if (result != DOCA_SUCCESS) {
			rdma_fail(resources, result);
			break;
		}
		DOCA_LOG_INFO("RDMA context finished initialization");
		result = resources->on_connected(resources);
		if (result != DOCA_SUCCESS)
			rdma_fail(resources, result);
		break;
	case DOCA_CTX_STATE_STOPPING:
		DOCA_LOG_INFO("RDMA context entered into stopping state. Any inflight tasks will be flushed");
		break;
	case DOCA_CTX_STATE_IDLE:
		DOCA_LOG_INFO("RDMA context has been stopped");
		resources->run_pe_progress = false;
		break;
	default:
		break;
	}
}

doca_error_t rdma_sample_run(struct rdma_resources *resources)
{
	struct timespec ts = {.tv_sec = 0, .tv_nsec = SLEEP_IN_NANOS};
	union doca_data ctx_user_data;
	doca_error_t result;

	if (resources->cfg->use_rdma_cm) {
		result = doca_rdma_set_connection_state_callbacks(resources->rdma, rdma_cm_connect_request_cb,
								  rdma_cm_connect_established_cb,
								  rdma_cm_connect_failure_cb, rdma_cm_disconnect_cb);
		if (result != DOCA_SUCCESS) {
			DOCA_LOG_ERR("Failed to set the RDMA-CM callbacks: %s", doca_error_get_descr(result));
			return result;
		}
		/* An RDMA-CM client makes one connection: more clients make more */
		if (resources->cfg->cm_addr[0] != '\0')
			resources->num_expected_connections = 1;
		if (resources->negotiation != RDMA_NEGOTIATION_NONE) {
			result = prepare_negotiation(resources);
			if (result != DOCA_SUCCESS)
				return result;
		}
	}

	result = doca_ctx_set_state_changed_cb(resources->rdma_ctx, rdma_state_changed_callback);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Unable to set state change callback for RDMA context: %s", doca_error_get_descr(result));
		return result;
	}
	ctx_user_data.ptr = resources;
	result = doca_ctx_set_user_data(resources->rdma_ctx, ctx_user_data);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to set context user data: %s", doca_error_get_descr(result));
		return result;
	}

	resources->run_pe_progress = true;
	result = doca_ctx_start(resources->rdma_ctx);
	if (result != DOCA_SUCCESS && result != DOCA_ERROR_IN_PROGRESS) {
		DOCA_LOG_ERR("Failed to start RDMA context: %s", doca_error_get_descr(result));
		return result;
	}

	while (resources->run_pe_progress) {
		if (doca_pe_progress(resources->pe) == 0)
			nanosleep(&ts, NULL);
	}
	return resources->first_encountered_error;
}

/* ---- Plumbing every sample shares: main, set-up/teardown, task bookkeeping ---- */

static doca_error_t (*rdma_sample_fn)(struct rdma_config *cfg);
static unsigned int rdma_sample_params;

static doca_error_t rdma_sample_register_params(void)
{
	doca_error_t result = register_rdma_common_params();

	if (result == DOCA_SUCCESS && (rdma_sample_params & RDMA_PARAM_SEND_STRING))
		result = register_rdma_send_string_param();
	if (result == DOCA_SUCCESS && (rdma_sample_params & RDMA_PARAM_READ_STRING))
		result = register_rdma_read_string_param();
	if (result == DOCA_SUCCESS && (rdma_sample_params & RDMA_PARAM_WRITE_STRING))
		result = register_rdma_write_string_param();
	if (result == DOCA_SUCCESS && (rdma_sample_params & RDMA_PARAM_NUM_CONNECTIONS))
		result = register_rdma_num_connections_param();
	return result;
}

static doca_error_t rdma_sample_run_cfg(void *config)
{
	return rdma_sample_fn(config);
}

int rdma_sample_main(int argc, char **argv, doca_error_t (*sample)(struct rdma_config *cfg), unsigned int params,
		     const char *run_error)
{
	struct rdma_config cfg;
	struct sample_main_desc desc = {.config = &cfg,
					.register_params = rdma_sample_register_params,
					.params_name = "RDMA sample",
					.run = rdma_sample_run_cfg,
					.run_error = run_error};

	rdma_sample_fn = sample;
	rdma_sample_params = params;
	set_default_config_value(&cfg);
	return sample_main(argc, argv, &desc);
}

doca_error_t rdma_sample_allocate(struct rdma_config *cfg, uint32_t mmap_permissions, uint32_t rdma_permissions,
				  tasks_check func, struct rdma_resources *resources)
{
	doca_error_t result = allocate_rdma_resources(cfg, mmap_permissions, rdma_permissions, func, resources);

	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to allocate RDMA resources: %s", doca_error_get_descr(result));
	return result;
}

doca_error_t rdma_sample_finish(struct rdma_resources *resources, doca_error_t result)
{
	doca_error_t tmp = destroy_rdma_resources(resources, resources->cfg);

	if (tmp != DOCA_SUCCESS) {
		DOCA_ERROR_PROPAGATE(result, tmp);
		DOCA_LOG_ERR("Failed to destroy DOCA RDMA resources: %s", doca_error_get_descr(tmp));
	}
	return result;
}

doca_error_t rdma_step_wait(struct rdma_resources *resources)
{
	(void)resources;
	return DOCA_SUCCESS;
}

void rdma_task_release(struct rdma_resources *resources, struct doca_task *task, struct doca_buf *buf1,
		       struct doca_buf *buf2)
{
	doca_task_free(task);
	if (buf1 != NULL)
		(void)doca_buf_dec_refcount(buf1, NULL);
	if (buf2 != NULL)
		(void)doca_buf_dec_refcount(buf2, NULL);
	rdma_task_done(resources);
}

void rdma_task_failed(struct rdma_resources *resources, struct doca_task *task, const char *task_name,
		      struct doca_buf *buf1, struct doca_buf *buf2)
{
	doca_error_t status = doca_task_get_status(task);

	DOCA_LOG_ERR("%s failed: %s", task_name, doca_error_get_descr(status));
	DOCA_ERROR_PROPAGATE(resources->first_encountered_error, status);
	rdma_task_release(resources, task, buf1, buf2);
}

doca_error_t rdma_submit_task(struct rdma_resources *resources, struct doca_task *task, const char *task_name,
			      struct doca_buf *buf1, struct doca_buf *buf2)
{
	doca_error_t result;

	resources->num_remaining_tasks++;
	result = doca_task_submit(task);
	if (result != DOCA_SUCCESS) {
		DOCA_LOG_ERR("Failed to submit %s: %s", task_name, doca_error_get_descr(result));
		resources->num_remaining_tasks--;
		doca_task_free(task);
		if (buf1 != NULL)
			(void)doca_buf_dec_refcount(buf1, NULL);
		if (buf2 != NULL)
			(void)doca_buf_dec_refcount(buf2, NULL);
	}
	return result;
}

doca_error_t rdma_get_buf(struct rdma_resources *resources, struct doca_mmap *mmap, void *addr, size_t len,
			  bool with_data, const char *role, struct doca_buf **buf)
{
	doca_error_t result;

	if (with_data)
		result = doca_buf_inventory_buf_get_by_data(resources->buf_inventory, mmap, addr, len, buf);
	else
		result = doca_buf_inventory_buf_get_by_addr(resources->buf_inventory, mmap, addr, len, buf);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to allocate DOCA buffer to DOCA buffer representing %s buffer: %s", role,
			     doca_error_get_descr(result));
	return result;
}

doca_error_t rdma_remote_memrange(struct rdma_resources *resources, void **addr, size_t *len)
{
	doca_error_t result = rdma_import_remote_mmap(resources);

	if (result != DOCA_SUCCESS)
		return result;
	result = doca_mmap_get_memrange(resources->remote_mmap, addr, len);
	if (result != DOCA_SUCCESS)
		DOCA_LOG_ERR("Failed to get the remote mmap's memory range: %s", doca_error_get_descr(result));
	return result;
}

doca_error_t rdma_received_string(struct doca_buf *buf, void **data, size_t *str_len)
{
	size_t len = 0;
	doca_error_t result = doca_buf_get_data(buf, data);

	if (result == DOCA_SUCCESS)
		result = doca_buf_get_data_len(buf, &len);
	if (result == DOCA_SUCCESS)
		result = check_received_string(*data, len, str_len);
	return result;
}

/*
 * One OOB round for connections[index]: export, descriptor files, Enter, connect. A receiver
 * always writes -ld; with DC it needs nothing from the sender (*finished: no more rounds). A
 * sender writes -ld with RC only.
 */
static doca_error_t oob_connect_one(struct rdma_resources *resources, uint32_t index, bool sender, bool *finished)
{
	struct rdma_config *cfg = resources->cfg;
	bool is_dc = cfg->transport_type == DOCA_RDMA_TRANSPORT_TYPE_DC;
	doca_error_t result;

	*finished = false;
	result = rdma_export_connection(resources, index, !(sender && is_dc));
	if (result != DOCA_SUCCESS)
		return result;
	if (!sender) {
		DOCA_LOG_INFO("You can now copy %s to the sender", cfg->local_connection_desc_path);
		/* DC: the sender connects to us; we need nothing from it */
		if (is_dc) {
			*finished = true;
			return DOCA_SUCCESS;
		}
		DOCA_LOG_INFO("Please copy %s from the sender and then press enter", cfg->remote_connection_desc_path);
	} else {
		if (!is_dc)
			DOCA_LOG_INFO("You can now copy %s to the receiver", cfg->local_connection_desc_path);
		DOCA_LOG_INFO(
			"Please copy %s from the receiver and then press enter after pressing enter in the receiver side",
			cfg->remote_connection_desc_path);
	}
	wait_for_enter();
	return rdma_connect_connection(resources, index);
}

doca_error_t rdma_receiver_export_and_connect(struct rdma_resources *resources)
{
	bool finished;

	return oob_connect_one(resources, 0, false, &finished);
}

doca_error_t rdma_sender_export_and_connect(struct rdma_resources *resources)
{
	bool finished;

	return oob_connect_one(resources, 0, true, &finished);
}

doca_error_t rdma_multi_conn_export_and_connect(struct rdma_resources *resources, bool sender)
{
	struct rdma_config *cfg = resources->cfg;
	bool finished;
	doca_error_t result;

	for (uint32_t i = 0; i < cfg->num_connections; i++) {
		DOCA_LOG_INFO("Start to establish RDMA connection [%u]", i);
		result = oob_connect_one(resources, i, sender, &finished);
		if (result != DOCA_SUCCESS || finished)
			return result;
		DOCA_LOG_INFO("RDMA connection [%u] is establshed", i);
		/* This round's descriptors are spent: the next round writes and reads new ones */
		delete_file(cfg->local_connection_desc_path);
		delete_file(cfg->remote_connection_desc_path);
	}
	DOCA_LOG_INFO("All [%u] RDMA connections have been establshed", cfg->num_connections);
	return DOCA_SUCCESS;
}
