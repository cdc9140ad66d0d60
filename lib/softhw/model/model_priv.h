/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the soft device model: profiles (profiles.c), the configuration file (config.c) and
 * the assembly of one process's view of the cards (model.c).
 */
#ifndef SOFTHW_MODEL_PRIV_H
#define SOFTHW_MODEL_PRIV_H

#include <limits.h>
#include <stdarg.h>

#include "softhw/softhw.h"

#define MODEL_MAX_CARDS 16
#define MODEL_MAX_SIDE_FUNCS 8 /* functions per side of one card */
#define MODEL_MAX_FUNCS (MODEL_MAX_CARDS * MODEL_MAX_SIDE_FUNCS)
#define MODEL_CARD_NAME_MAX 32

enum model_side {
	MODEL_SIDE_HOST = 0,
	MODEL_SIDE_DPU = 1,
	MODEL_SIDE_COUNT,
};

/* What one card profile looks like and can do. */
struct model_profile {
	const char *name;       /* "BlueField-3" */
	const char *aliases[3]; /* accepted in the configuration file, e.g. "bf3" */
	bool has_dpu;
	uint64_t port_rate;     /* bits per second */
	struct softhw_caps caps[MODEL_SIDE_COUNT];
};

const struct model_profile *model_profile(enum softhw_profile profile);
/* Looks a profile up by name or alias, case-insensitively; false if unknown. */
bool model_profile_lookup(const char *name, enum softhw_profile *profile);
/* "cx6dx, connectx-6dx, ..." for error messages. */
const char *model_profile_names(void);

/* Per-function settings of one side of a card, as given in the configuration file. */
enum model_field {
	MODEL_FIELD_PCI,
	MODEL_FIELD_IBDEV,
	MODEL_FIELD_IFACE,
	MODEL_FIELD_MAC,
	MODEL_FIELD_IPV4,
	MODEL_FIELD_IPV6,
	MODEL_FIELD_GID,
	MODEL_FIELD_TYPE,
	MODEL_FIELD_SF_INDEX,
	MODEL_FIELD_COUNT,
};

struct model_side_spec {
	uint32_t count[MODEL_FIELD_COUNT]; /* entries given per field; 0 = default */
	unsigned line[MODEL_FIELD_COUNT];  /* where each field was set, for messages */
	char pci[MODEL_MAX_SIDE_FUNCS][SOFTHW_PCI_ADDR_LEN];
	char ibdev[MODEL_MAX_SIDE_FUNCS][SOFTHW_MAX_STR];
	char iface[MODEL_MAX_SIDE_FUNCS][SOFTHW_MAX_STR];
	uint8_t mac[MODEL_MAX_SIDE_FUNCS][6];
	bool no_ipv4[MODEL_MAX_SIDE_FUNCS];
	uint8_t ipv4[MODEL_MAX_SIDE_FUNCS][4];
	uint8_t ipv6[MODEL_MAX_SIDE_FUNCS][16];
	uint8_t gid[MODEL_MAX_SIDE_FUNCS][16];
	enum doca_pci_func_type type[MODEL_MAX_SIDE_FUNCS];
	uint32_t sf_index[MODEL_MAX_SIDE_FUNCS];
};

/* The faults.* keys of one card (docs/device-model.md "Faults"). */
enum model_fault_key {
	MODEL_FAULT_DMA_ERROR,
	MODEL_FAULT_RDMA_ERROR,
	MODEL_FAULT_DISCONNECT,
	MODEL_FAULT_DROP,
	MODEL_FAULT_DELAY,
	MODEL_FAULT_JITTER,
	MODEL_FAULT_SIDE,
	MODEL_FAULT_SEED,
	MODEL_FAULT_KEY_COUNT,
};

struct model_fault_spec {
	unsigned line[MODEL_FAULT_KEY_COUNT]; /* where each key was set; 0: not */
	uint32_t every[SOFTHW_FAULT_COUNT];   /* dma_error, rdma_error, disconnect: every Nth */
	uint32_t drop_ppm;
	uint32_t delay_ms, jitter_ms;
	uint64_t seed;
	bool side_set[MODEL_SIDE_COUNT];      /* faults.side (both when not given) */
};

/* One card as the configuration (or the built-in default) describes it. */
struct model_card_spec {
	char name[MODEL_CARD_NAME_MAX + 1];
	unsigned line;          /* of its [card ...] header */
	bool has_profile;
	enum softhw_profile profile;
	unsigned wire_line;     /* where `wire` was set; 0: not (the stream) */
	enum softhw_wire wire;
	struct model_side_spec side[MODEL_SIDE_COUNT];
	struct model_fault_spec faults;
};

struct model_config {
	uint32_t num_cards;
	struct model_card_spec cards[MODEL_MAX_CARDS];
	unsigned access_line;          /* of its [access] header; 0: none */
	unsigned uids_line, group_line; /* where allow_uids / allow_group were set; 0: not */
	struct softhw_access access;
};

/*
 * Parses a configuration file into `cfg`. On error, reports "<path>:<line>: <what>" through
 * model_report() and returns DOCA_ERROR_BAD_CONFIG.
 */
doca_error_t model_config_parse(const char *path, struct model_config *cfg);

/* Reports a configuration problem: on stderr (a log backend may not exist yet) and SDK log. */
void model_report(const char *file, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The model of one process: every card, and the functions of the side it plays. */
struct softhw_model {
	enum softhw_role role;
	char source[PATH_MAX];
	char run_dir[PATH_MAX];
	uint32_t num_cards;
	struct softhw_card cards[MODEL_MAX_CARDS];
	uint32_t num_functions;
	struct softhw_function functions[MODEL_MAX_FUNCS];
	struct softhw_rep reps[MODEL_MAX_FUNCS];
	struct softhw_access access;   /* every card's `access` points here */
	struct softhw_faults faults[MODEL_MAX_CARDS]; /* the cards' `faults` point here (those that have any) */
};

/*
 * Builds the model for `role` from parsed cards: fills defaults, checks names and addresses
 * are unique, derives instance ids from `run_dir`. `file` names the configuration in messages
 * (NULL for the built-in default).
 */
doca_error_t model_build(const struct model_config *cfg, const char *file, enum softhw_role role,
			 const char *run_dir, struct softhw_model *model);

/* The built-in configuration: one BlueField-3 card, "bf3-0", every field defaulted. */
void model_config_default(struct model_config *cfg);

#endif /* SOFTHW_MODEL_PRIV_H */
