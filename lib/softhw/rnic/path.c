/* SPDX-License-Identifier: BSD-3-Clause */
/* The registry of the soft NIC's paths (path.h): the one place that lists them. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "softhw/base/sdk_log.h"
#include "softhw/rnic/rnic_int.h"

SDK_LOG_REGISTER(SOFTHW_RNIC_PATH);

/* In the order a work request tries them (and a qp chooses its connection); the last is a connection for every ep. */
const struct rnic_path_ops *const rnic_paths[RNIC_PATH_COUNT] = {
	[RNIC_PATH_RING] = &rnic_ring_path,
	[RNIC_PATH_MSOCK] = &rnic_msock_path,
	[RNIC_PATH_ROCE] = &rnic_roce_path,
	[RNIC_PATH_STREAM] = &rnic_stream_path,
};

const char *rnic_path_check(const struct rnic_path_ops *ops, bool last)
{
	if (ops == NULL)
		return "no table";
	if (ops->name == NULL || ops->name[0] == '\0')
		return "no name";
	if (ops->wants == NULL && ops->open == NULL)
		return "no wants (only a connection takes every work request)";
	if (ops->post == NULL || ops->pump == NULL || ops->off == NULL || ops->free == NULL)
		return "no post, pump, off or free";
	if (ops->timed == NULL || ops->next_time == NULL || ops->timer == NULL)
		return "no timed, next_time or timer";
	if ((ops->poll == NULL) != (ops->arm == NULL))
		return "poll without arm or arm without poll";
	if ((ops->owner_wait == NULL) != (ops->serve == NULL))
		return "owner_wait without serve or serve without owner_wait";
	if ((ops->hello_flag == 0) != (ops->attach == NULL))
		return "hello_flag without attach or attach without hello_flag";
	if ((ops->nic_event == NULL) != (ops->nic_stop == NULL))
		return "nic_event without nic_stop or nic_stop without nic_event";
	if (ops->open != NULL &&
	    (ops->serves == NULL || ops->dial == NULL || ops->answer == NULL || ops->bye == NULL || ops->shut == NULL ||
	     ops->up == NULL || ops->must_end == NULL || ops->nic_listen == NULL || ops->describe == NULL ||
	     ops->cm_listen == NULL || ops->cm_unlisten == NULL || ops->ep_gone == NULL))
		return "a connection (open) lacks one of serves, dial, answer, bye, shut, up, must_end, nic_listen, "
		       "describe, cm_listen, cm_unlisten, ep_gone";
	if (ops->open == NULL && (ops->serves != NULL || ops->dial != NULL || ops->shut != NULL || ops->up != NULL))
		return "connection ops without open";
	if (last && ops->open == NULL)
		return "the last path is not a connection (every ep needs one)";
	return NULL;
}

uint8_t rnic_conn_choose(const struct rnic_ep *ep)
{
	for (int i = 0; i < RNIC_PATH_COUNT - 1; i++)
		if (rnic_paths[i]->open != NULL && rnic_paths[i]->serves(ep))
			return (uint8_t)i;
	return RNIC_PATH_COUNT - 1; /* serves every ep */
}

const char *rnic_wire_name(uint8_t wire)
{
	for (int i = 0; i < RNIC_PATH_COUNT; i++)
		if (rnic_paths[i]->open != NULL && rnic_paths[i]->wire == wire)
			return rnic_paths[i]->name;
	return "unknown";
}

const struct rnic_path_ops *rnic_path_find(const char *name)
{
	char known[128] = "";
	size_t len = 0;

	for (int i = 0; i < RNIC_PATH_COUNT; i++)
		if (name != NULL && strcmp(rnic_paths[i]->name, name) == 0)
			return rnic_paths[i];
	for (int i = 0; i < RNIC_PATH_COUNT && len < sizeof(known); i++)
		len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s", i ? ", " : "", rnic_paths[i]->name);
	SDK_LOG_ERR("soft RDMA NIC: no path named \"%s\"; the registered paths are %s", name != NULL ? name : "(null)",
		    known);
	return NULL;
}
