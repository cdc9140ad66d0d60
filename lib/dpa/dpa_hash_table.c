/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DPA hash tables: uint32 keys to uint64 values that device code adds, removes and finds by
 * handle. The table lives on the host (open addressing, linear probing, size a power of two
 * at least num_entries) under a lock, since any EU may call. Adding to a full table is
 * undefined in DOCA: here it is refused with a log line and the context turns fatal; adding a
 * key that is there replaces its value.
 */
#include <pthread.h>
#include <stdlib.h>

#include "dpa_priv.h"
#include "common/priv/dev_priv.h"
#include "softhw/base/sdk_log.h"
#include "softhw/dpa/dpa.h"

SDK_LOG_REGISTER(DPA_HASH_TABLE);

enum slot_state { SLOT_FREE = 0, SLOT_USED, SLOT_GONE };

struct slot {
	uint32_t key;
	uint8_t state;
	uint64_t value;
};

struct doca_dpa_hash_table {
	struct doca_dpa *dpa;
	uint64_t handle;
	pthread_mutex_t lock;
	uint32_t size;  /* power of two */
	uint32_t used;
	struct slot *slots;
};

doca_error_t doca_dpa_hash_table_create(struct doca_dpa *dpa, unsigned int num_entries, struct doca_dpa_hash_table **ht)
{
	struct doca_dpa_hash_table *t;
	doca_error_t err;
	uint32_t size = 1;

	if (dpa == NULL || ht == NULL || num_entries == 0 || num_entries > (1U << 24)) {
		SDK_LOG_ERR("Failed to create DPA hash table: %s",
			    dpa == NULL ? "dpa is NULL" : ht == NULL ? "ht is NULL" :
			    "num_entries must be in [1, 2^24]");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (!dpa->started) {
		SDK_LOG_ERR("Failed to create DPA hash table: the DPA context is not started; call doca_dpa_start() first");
		return DOCA_ERROR_BAD_STATE;
	}
	while (size < num_entries)
		size <<= 1;
	t = calloc(1, sizeof(*t));
	if (t != NULL)
		t->slots = calloc(size, sizeof(*t->slots));
	if (t == NULL || t->slots == NULL) {
		free(t);
		SDK_LOG_ERR("Failed to create DPA hash table: out of memory");
		return DOCA_ERROR_NO_MEMORY;
	}
	t->dpa = dpa;
	t->size = size;
	pthread_mutex_init(&t->lock, NULL);
	err = dpa->base.dev->dpa->handle_add(dpa->base.hw, SOFTDOCA_DPA_HANDLE_HASH_TABLE, t, &t->handle);
	if (err != DOCA_SUCCESS) {
		pthread_mutex_destroy(&t->lock);
		free(t->slots);
		free(t);
		SDK_LOG_ERR("Failed to create DPA hash table: %s", doca_error_get_descr(err));
		return err;
	}
	dpa->num_comps++;
	*ht = t;
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_hash_table_destroy(struct doca_dpa_hash_table *ht)
{
	if (ht == NULL) {
		SDK_LOG_ERR("Failed to destroy DPA hash table: ht is NULL");
		return DOCA_ERROR_INVALID_VALUE;
	}
	if (ht->dpa->base.hw != NULL)
		ht->dpa->base.dev->dpa->handle_remove(ht->dpa->base.hw, ht->handle);
	ht->dpa->num_comps--;
	pthread_mutex_destroy(&ht->lock);
	free(ht->slots);
	free(ht);
	return DOCA_SUCCESS;
}

doca_error_t doca_dpa_hash_table_get_dpa_handle(struct doca_dpa_hash_table *ht, doca_dpa_dev_hash_table_t *ht_handle)
{
	if (ht == NULL || ht_handle == NULL) {
		SDK_LOG_ERR("Failed to get DPA handle of hash table: %s is NULL", ht == NULL ? "ht" : "ht_handle");
		return DOCA_ERROR_INVALID_VALUE;
	}
	*ht_handle = ht->handle;
	return DOCA_SUCCESS;
}

/* The slot of key, or (when absent) the first reusable slot on its probe path; NULL when neither. */
static struct slot *probe(struct doca_dpa_hash_table *t, uint32_t key, bool *found)
{
	struct slot *reuse = NULL;
	uint32_t h = (key * 2654435761U) & (t->size - 1);

	*found = false;
	for (uint32_t i = 0; i < t->size; i++) {
		struct slot *s = &t->slots[(h + i) & (t->size - 1)];

		if (s->state == SLOT_USED && s->key == key) {
			*found = true;
			return s;
		}
		if (s->state != SLOT_USED && reuse == NULL)
			reuse = s;
		if (s->state == SLOT_FREE)
			break;
	}
	return reuse;
}

int softdoca_dpa_hash_table_op(struct doca_dpa *dpa, uint64_t handle, uint32_t op, uint32_t key, uint64_t *value)
{
	struct doca_dpa_hash_table *t =
		dpa->base.dev->dpa->handle_lookup(dpa->base.hw, SOFTDOCA_DPA_HANDLE_HASH_TABLE, handle);
	struct slot *s;
	bool found, full = false;
	int ret = 0;

	if (t == NULL) {
		SDK_LOG_ERR("DPA device code passed 0x%llx to a doca_dpa_dev_hash_table_*() call: not a hash table of "
			    "this DPA context (doca_dpa_hash_table_get_dpa_handle()); the DPA context is now in error",
			    (unsigned long long)handle);
		softdoca_dpa_set_fatal(dpa, DOCA_ERROR_INVALID_VALUE);
		return 0;
	}
	pthread_mutex_lock(&t->lock);
	s = probe(t, key, &found);
	switch (op) {
	case SOFTDOCA_DPA_HT_ADD:
		if (s == NULL) {
			full = true;
			break;
		}
		if (!found)
			t->used++;
		s->key = key;
		s->value = *value;
		s->state = SLOT_USED;
		break;
	case SOFTDOCA_DPA_HT_REMOVE:
		if (found) {
			s->state = SLOT_GONE;
			t->used--;
		}
		break;
	case SOFTDOCA_DPA_HT_FIND:
		if (found) {
			*value = s->value;
			ret = 1;
		}
		break;
	}
	pthread_mutex_unlock(&t->lock);
	if (full) {
		SDK_LOG_ERR("DPA device code added key %u to a full hash table (%u entries); create it larger; the DPA "
			    "context is now in error",
			    key, t->size);
		softdoca_dpa_set_fatal(dpa, DOCA_ERROR_FULL);
	}
	return ret;
}
