/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device-model configuration file: INI-like, one "key = value" per line, one [card NAME]
 * section per card. Any mistake stops the whole load with "<file>:<line>: <what to fix>", so a
 * process never starts with half a model. Format: docs/device-model.md.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "softhw/base/sdk_log.h"
#include "softhw/base/small_file.h"
#include "model_priv.h"

SDK_LOG_REGISTER(SOFTHW_MODEL_CONFIG);

/* Limits of the file: far above any real configuration, so that a wrong path fails at once. */
#define CONFIG_MAX_BYTES (1u << 20)
#define CONFIG_MAX_LINE 4096 /* characters, the line end not counted */
#define IFACE_NAME_MAX 15 /* Linux IFNAMSIZ - 1 */

void model_report(const char *file, unsigned line, const char *fmt, ...)
{
	char msg[1024];
	char where[PATH_MAX + 16];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (file == NULL)
		snprintf(where, sizeof(where), "device model");
	else if (line == 0)
		snprintf(where, sizeof(where), "%s", file);
	else
		snprintf(where, sizeof(where), "%s:%u", file, line);
	/* Straight to stderr as well: the model may load before any log backend exists. */
	fprintf(stderr, "softdoca: %s: %s\n", where, msg);
	SDK_LOG_ERR("%s: %s", where, msg);
}

static const char *const field_keys[MODEL_FIELD_COUNT] = {
	[MODEL_FIELD_PCI] = "pci",
	[MODEL_FIELD_IBDEV] = "ibdev",
	[MODEL_FIELD_IFACE] = "iface",
	[MODEL_FIELD_MAC] = "mac",
	[MODEL_FIELD_IPV4] = "ipv4",
	[MODEL_FIELD_IPV6] = "ipv6",
	[MODEL_FIELD_GID] = "gid",
	[MODEL_FIELD_TYPE] = "type",
	[MODEL_FIELD_SF_INDEX] = "sf_index",
};

static const char *const side_prefix[MODEL_SIDE_COUNT] = {"host", "dpu"};

#define KNOWN_KEYS \
	"profile, wire, host.<f> and dpu.<f> with <f> one of pci, ibdev, iface, mac, ipv4, ipv6, gid, " \
	"type, sf_index, and faults.<k> with <k> one of " FAULT_KEYS
#define FAULT_KEYS "dma_error, rdma_error, disconnect, drop, delay, jitter, side, seed"

static const char *const fault_keys[MODEL_FAULT_KEY_COUNT] = {
	[MODEL_FAULT_DMA_ERROR] = "dma_error",
	[MODEL_FAULT_RDMA_ERROR] = "rdma_error",
	[MODEL_FAULT_DISCONNECT] = "disconnect",
	[MODEL_FAULT_DROP] = "drop",
	[MODEL_FAULT_DELAY] = "delay",
	[MODEL_FAULT_JITTER] = "jitter",
	[MODEL_FAULT_SIDE] = "side",
	[MODEL_FAULT_SEED] = "seed",
};

/* The kind each every-Nth key counts. */
static const enum softhw_fault every_kind[MODEL_FAULT_KEY_COUNT] = {
	[MODEL_FAULT_DMA_ERROR] = SOFTHW_FAULT_DMA_ERROR,
	[MODEL_FAULT_RDMA_ERROR] = SOFTHW_FAULT_RDMA_ERROR,
	[MODEL_FAULT_DISCONNECT] = SOFTHW_FAULT_DISCONNECT,
};

struct parser {
	const char *path;
	unsigned line;
	struct model_config *cfg;
	struct model_card_spec *card; /* current section */
	unsigned profile_line;
	bool in_access;               /* inside [access] */
};

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

static bool valid_name(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n == 0 || n > max)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
			return false;
	return true;
}

static bool parse_mac(const char *s, uint8_t mac[6])
{
	unsigned v[6];
	int end = 0;

	if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%n", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &end) != 6 ||
	    s[end] != '\0' || end != 17)
		return false;
	for (int i = 0; i < 6; i++)
		mac[i] = (uint8_t)v[i];
	return true;
}

static bool parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* Parses one list entry of a side field; false after reporting what is wrong. */
static bool parse_entry(struct parser *p, enum model_field field, struct model_side_spec *side, uint32_t i,
			const char *key, const char *tok)
{
	switch (field) {
	case MODEL_FIELD_PCI:
		if (softhw_pci_addr_parse(tok, side->pci[i]))
			return true;
		model_report(p->path, p->line, "%s: '%s' is not a PCI address; write BB:DD.F or DDDD:BB:DD.F", key, tok);
		return false;
	case MODEL_FIELD_IBDEV:
		if (valid_name(tok, SOFTHW_MAX_STR - 1)) {
			strcpy(side->ibdev[i], tok);
			return true;
		}
		model_report(p->path, p->line, "%s: '%s' is not a device name (letters, digits, '-', '_', '.'; at most %d)",
			     key, tok, SOFTHW_MAX_STR - 1);
		return false;
	case MODEL_FIELD_IFACE:
		if (valid_name(tok, IFACE_NAME_MAX)) {
			strcpy(side->iface[i], tok);
			return true;
		}
		model_report(p->path, p->line, "%s: '%s' is not an interface name (letters, digits, '-', '_', '.'; at most %d)",
			     key, tok, IFACE_NAME_MAX);
		return false;
	case MODEL_FIELD_MAC:
		if (parse_mac(tok, side->mac[i]))
			return true;
		model_report(p->path, p->line, "%s: '%s' is not a MAC address; write xx:xx:xx:xx:xx:xx", key, tok);
		return false;
	case MODEL_FIELD_IPV4:
		if (strcasecmp(tok, "none") == 0) {
			side->no_ipv4[i] = true;
			return true;
		}
		if (inet_pton(AF_INET, tok, side->ipv4[i]) == 1)
			return true;
		model_report(p->path, p->line, "%s: '%s' is not an IPv4 address (or 'none')", key, tok);
		return false;
	case MODEL_FIELD_IPV6:
		if (inet_pton(AF_INET6, tok, side->ipv6[i]) == 1)
			return true;
		model_report(p->path, p->line, "%s: '%s' is not an IPv6 address", key, tok);
		return false;
	case MODEL_FIELD_GID:
		if (inet_pton(AF_INET6, tok, side->gid[i]) == 1)
			return true;
		model_report(p->path, p->line, "%s: '%s' is not a GID; write it as an IPv6 address, e.g. ::ffff:127.0.0.1",
			     key, tok);
		return false;
	case MODEL_FIELD_TYPE:
		if (strcasecmp(tok, "pf") == 0)
			side->type[i] = DOCA_PCI_FUNC_TYPE_PF;
		else if (strcasecmp(tok, "vf") == 0)
			side->type[i] = DOCA_PCI_FUNC_TYPE_VF;
		else if (strcasecmp(tok, "sf") == 0)
			side->type[i] = DOCA_PCI_FUNC_TYPE_SF;
		else {
			model_report(p->path, p->line, "%s: '%s' is not a function type; use pf, vf or sf", key, tok);
			return false;
		}
		return true;
	case MODEL_FIELD_SF_INDEX:
		if (parse_u32(tok, &side->sf_index[i]))
			return true;
		model_report(p->path, p->line, "%s: '%s' is not a number", key, tok);
		return false;
	default:
		return false;
	}
}

/* "host.pci = b1:00.0, b1:00.1": entries separated by commas and/or blanks. */
static bool parse_side_key(struct parser *p, const char *key, char *value)
{
	const char *dot = strchr(key, '.');
	struct model_card_spec *card = p->card;
	enum model_side s;
	enum model_field f;
	uint32_t n = 0;

	for (s = 0; s < MODEL_SIDE_COUNT; s++)
		if (dot && (size_t)(dot - key) == strlen(side_prefix[s]) && strncmp(key, side_prefix[s], dot - key) == 0)
			break;
	for (f = 0; f < MODEL_FIELD_COUNT && s < MODEL_SIDE_COUNT; f++)
		if (strcmp(dot + 1, field_keys[f]) == 0)
			break;
	if (s == MODEL_SIDE_COUNT || f == MODEL_FIELD_COUNT) {
		model_report(p->path, p->line, "unknown key '%s'; known keys: %s", key, KNOWN_KEYS);
		return false;
	}
	if (card->side[s].count[f]) {
		model_report(p->path, p->line, "'%s' is set twice in card '%s' (first at line %u); keep one", key,
			     card->name, card->side[s].line[f]);
		return false;
	}
	for (char *save = NULL, *tok = strtok_r(value, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		if (n == MODEL_MAX_SIDE_FUNCS) {
			model_report(p->path, p->line, "%s: more than %d functions; a side has at most %d", key,
				     MODEL_MAX_SIDE_FUNCS, MODEL_MAX_SIDE_FUNCS);
			return false;
		}
		if (!parse_entry(p, f, &card->side[s], n, key, tok))
			return false;
		n++;
	}
	if (n == 0) {
		model_report(p->path, p->line, "'%s' has no value; give one entry per function", key);
		return false;
	}
	card->side[s].count[f] = n;
	card->side[s].line[f] = p->line;
	return true;
}

/* ---- [access]: who besides this user may reach the card's rendezvous points ---- */

#define ACCESS_KEYS "allow_uids, allow_group"

/* A user or group: a number, or a name looked up in the system's databases. */
static bool lookup_id(const char *tok, bool group, uint32_t *id)
{
	char buf[4096];

	if (parse_u32(tok, id))
		return true;
	if (group) {
		struct group gr, *res = NULL;

		if (getgrnam_r(tok, &gr, buf, sizeof(buf), &res) != 0 || res == NULL)
			return false;
		*id = (uint32_t)res->gr_gid;
	} else {
		struct passwd pw, *res = NULL;

		if (getpwnam_r(tok, &pw, buf, sizeof(buf), &res) != 0 || res == NULL)
			return false;
		*id = (uint32_t)res->pw_uid;
	}
	return true;
}

static bool parse_access_section(struct parser *p)
{
	if (p->cfg->access_line != 0) {
		model_report(p->path, p->line, "[access] appears twice (first at line %u); keep one", p->cfg->access_line);
		return false;
	}
	p->cfg->access_line = p->line;
	p->card = NULL;
	p->in_access = true;
	return true;
}

/* "allow_uids = 1001, alice" and "allow_group = softdoca" (or a gid). */
static bool parse_access_key(struct parser *p, const char *key, char *value)
{
	struct softhw_access *a = &p->cfg->access;
	bool group = strcmp(key, "allow_group") == 0;
	unsigned *line = group ? &p->cfg->group_line : &p->cfg->uids_line;
	uint32_t n = 0;

	if (!group && strcmp(key, "allow_uids") != 0) {
		model_report(p->path, p->line, "unknown key '%s' in [access]; known keys: %s", key, ACCESS_KEYS);
		return false;
	}
	if (*line != 0) {
		model_report(p->path, p->line, "'%s' is set twice in [access] (first at line %u); keep one", key, *line);
		return false;
	}
	for (char *save = NULL, *tok = strtok_r(value, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		uint32_t id;

		if (group && n == 1) {
			model_report(p->path, p->line, "allow_group takes one group; give the others' users in allow_uids");
			return false;
		}
		if (!group && n == SOFTHW_ACCESS_MAX_UIDS) {
			model_report(p->path, p->line, "allow_uids: more than %d users; use allow_group", SOFTHW_ACCESS_MAX_UIDS);
			return false;
		}
		if (!lookup_id(tok, group, &id)) {
			model_report(p->path, p->line, "%s: '%s' is neither a number nor a known %s", key, tok,
				     group ? "group" : "user");
			return false;
		}
		if (group) {
			a->has_group = true;
			a->gid = (gid_t)id;
		} else {
			a->uids[a->num_uids++] = (uid_t)id;
		}
		n++;
	}
	if (n == 0) {
		model_report(p->path, p->line, "'%s' has no value; give %s", key, group ? "a group name or gid" :
			     "user names or uids");
		return false;
	}
	*line = p->line;
	return true;
}

static bool parse_section(struct parser *p, char *s)
{
	size_t len = strlen(s);
	char *name;

	if (s[len - 1] != ']') {
		model_report(p->path, p->line, "section header '%s' lacks its closing ']'", s);
		return false;
	}
	s[len - 1] = '\0';
	s = trim(s + 1);
	if (strcmp(s, "access") == 0)
		return parse_access_section(p);
	if (strncmp(s, "card", 4) != 0 || (s[4] != '\0' && !isspace((unsigned char)s[4]))) {
		model_report(p->path, p->line, "unknown section '[%s]'; sections are [card NAME] and [access]", s);
		return false;
	}
	p->in_access = false;
	name = trim(s + 4);
	if (!valid_name(name, MODEL_CARD_NAME_MAX)) {
		model_report(p->path, p->line, "card name '%s' is not valid; use 1 to %d letters, digits, '-', '_' or '.'",
			     name, MODEL_CARD_NAME_MAX);
		return false;
	}
	for (uint32_t i = 0; i < p->cfg->num_cards; i++) {
		if (strcmp(p->cfg->cards[i].name, name) == 0) {
			model_report(p->path, p->line, "card '%s' is defined twice (first at line %u); rename one", name,
				     p->cfg->cards[i].line);
			return false;
		}
	}
	if (p->cfg->num_cards == MODEL_MAX_CARDS) {
		model_report(p->path, p->line, "more than %d cards; remove some", MODEL_MAX_CARDS);
		return false;
	}
	p->card = &p->cfg->cards[p->cfg->num_cards++];
	strcpy(p->card->name, name);
	p->card->line = p->line;
	return true;
}

/* "wire = stream" (default) or "wire = rocev2": how the card's soft NIC reaches its peers. */
static bool parse_wire(struct parser *p, const char *value)
{
	if (p->card->wire_line != 0) {
		model_report(p->path, p->line, "'wire' is set twice in card '%s' (first at line %u); keep one",
			     p->card->name, p->card->wire_line);
		return false;
	}
	if (strcasecmp(value, "stream") == 0) {
		p->card->wire = SOFTHW_WIRE_STREAM;
	} else if (strcasecmp(value, "rocev2") == 0) {
		p->card->wire = SOFTHW_WIRE_ROCEV2;
	} else {
		model_report(p->path, p->line, "wire: unknown value '%s'; use stream (the default) or rocev2", value);
		return false;
	}
	p->card->wire_line = p->line;
	return true;
}

/* "faults.dma_error = N", "faults.rdma_error = N", "faults.disconnect = N": every Nth (1 to 10^9). */
static bool parse_fault_every(struct parser *p, const char *key, const char *value, uint32_t *out)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = isdigit((unsigned char)value[0]) ? strtoull(value, &end, 10) : 0;
	if (n == 0 || errno != 0 || *end != '\0' || n > 1000000000ull) {
		model_report(p->path, p->line, "%s: '%s' is not a count; give N from 1 to 1000000000 (every Nth occurrence)",
			     key, value);
		return false;
	}
	*out = (uint32_t)n;
	return true;
}

/* "faults.drop = 2%" or "= 0.02": the share of datagrams lost, 0 to 100%, to a part per million. */
static bool parse_fault_share(struct parser *p, const char *key, const char *value, uint32_t *ppm)
{
	char *end;
	double v;

	errno = 0;
	v = isdigit((unsigned char)value[0]) || value[0] == '.' ? strtod(value, &end) : -1.0;
	if (v >= 0.0 && errno == 0 && *end == '%' && end[1] == '\0') {
		v /= 100.0;
		end++;
	}
	if (!(v >= 0.0 && v <= 1.0) || errno != 0 || *end != '\0') {
		model_report(p->path, p->line, "%s: '%s' is not a share; give a percentage (2%%) or a fraction (0.02) "
			     "from 0 to 100%%", key, value);
		return false;
	}
	*ppm = (uint32_t)(v * 1000000.0 + 0.5);
	return true;
}

/* "faults.delay = 5ms" (or "5"): a time in milliseconds, 0 to 60000. */
static bool parse_fault_ms(struct parser *p, const char *key, const char *value, uint32_t *ms)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = isdigit((unsigned char)value[0]) ? strtoull(value, &end, 10) : ULLONG_MAX;
	if (v != ULLONG_MAX && errno == 0 && strcmp(end, "ms") == 0)
		end += 2;
	if (v > 60000 || errno != 0 || *end != '\0') {
		model_report(p->path, p->line, "%s: '%s' is not a time; give milliseconds from 0 to 60000 (5ms or 5)", key,
			     value);
		return false;
	}
	*ms = (uint32_t)v;
	return true;
}

/* A faults.<k> key of the card. */
static bool parse_fault_key(struct parser *p, const char *key, const char *value)
{
	struct model_fault_spec *f = &p->card->faults;
	const char *k = key + strlen("faults.");
	int i;

	for (i = 0; i < MODEL_FAULT_KEY_COUNT; i++)
		if (strcmp(k, fault_keys[i]) == 0)
			break;
	if (i == MODEL_FAULT_KEY_COUNT) {
		model_report(p->path, p->line, "unknown key '%s'; the faults keys are faults.<k> with <k> one of %s", key,
			     FAULT_KEYS);
		return false;
	}
	if (f->line[i] != 0) {
		model_report(p->path, p->line, "'%s' is set twice in card '%s' (first at line %u); keep one", key,
			     p->card->name, f->line[i]);
		return false;
	}
	switch ((enum model_fault_key)i) {
	case MODEL_FAULT_DMA_ERROR:
	case MODEL_FAULT_RDMA_ERROR:
	case MODEL_FAULT_DISCONNECT:
		if (!parse_fault_every(p, key, value, &f->every[every_kind[i]]))
			return false;
		break;
	case MODEL_FAULT_DROP:
		if (!parse_fault_share(p, key, value, &f->drop_ppm))
			return false;
		break;
	case MODEL_FAULT_DELAY:
	case MODEL_FAULT_JITTER:
		if (!parse_fault_ms(p, key, value, i == MODEL_FAULT_DELAY ? &f->delay_ms : &f->jitter_ms))
			return false;
		break;
	case MODEL_FAULT_SIDE:
		if (strcasecmp(value, "host") != 0 && strcasecmp(value, "dpu") != 0 && strcasecmp(value, "both") != 0) {
			model_report(p->path, p->line, "%s: unknown side '%s'; use host, dpu or both (the default)", key,
				     value);
			return false;
		}
		f->side_set[MODEL_SIDE_HOST] = strcasecmp(value, "dpu") != 0;
		f->side_set[MODEL_SIDE_DPU] = strcasecmp(value, "host") != 0;
		break;
	case MODEL_FAULT_SEED: {
		char *end;

		errno = 0;
		f->seed = isdigit((unsigned char)value[0]) ? strtoull(value, &end, 0) : 0;
		if (!isdigit((unsigned char)value[0]) || errno != 0 || *end != '\0') {
			model_report(p->path, p->line, "%s: '%s' is not a number; give the generator's seed (0 to 2^64-1)",
				     key, value);
			return false;
		}
		break;
	}
	default:
		return false;
	}
	f->line[i] = p->line;
	return true;
}

static bool parse_key_value(struct parser *p, char *s)
{
	char *eq = strchr(s, '=');
	char *key, *value;

	if (eq == NULL) {
		model_report(p->path, p->line, "'%s' is neither 'key = value' nor a [card NAME] header", s);
		return false;
	}
	*eq = '\0';
	key = trim(s);
	value = trim(eq + 1);
	if (p->in_access)
		return parse_access_key(p, key, value);
	if (p->card == NULL) {
		model_report(p->path, p->line, "'%s' is outside any card; start the card with a [card NAME] line", key);
		return false;
	}
	if (strcmp(key, "wire") == 0)
		return parse_wire(p, value);
	if (strncmp(key, "faults.", strlen("faults.")) == 0)
		return parse_fault_key(p, key, value);
	if (strcmp(key, "profile") != 0)
		return parse_side_key(p, key, value);
	if (p->card->has_profile) {
		model_report(p->path, p->line, "'profile' is set twice in card '%s'; keep one", p->card->name);
		return false;
	}
	if (!model_profile_lookup(value, &p->card->profile)) {
		model_report(p->path, p->line, "unknown profile '%s'; profiles: %s", value, model_profile_names());
		return false;
	}
	p->card->has_profile = true;
	return true;
}

/* Checks what only a whole card shows: its profile, a DPU side only on BlueField, list lengths. */
static bool check_card(const char *path, const struct model_card_spec *card)
{
	const struct model_profile *prof;

	if (!card->has_profile) {
		model_report(path, card->line, "card '%s' has no profile; add e.g. 'profile = bf3' (%s)", card->name,
			     model_profile_names());
		return false;
	}
	prof = model_profile(card->profile);
	if (card->faults.drop_ppm != 0 && card->wire != SOFTHW_WIRE_ROCEV2) {
		/* the stream paths are unix and TCP streams: nothing on them is lost to retry */
		model_report(path, card->faults.line[MODEL_FAULT_DROP],
			     "faults.drop: card '%s' carries RDMA on reliable streams (wire = stream), which lose nothing; "
			     "set wire = rocev2 to lose datagrams, or use faults.rdma_error", card->name);
		return false;
	}
	if ((card->faults.delay_ms != 0 || card->faults.jitter_ms != 0) && card->wire != SOFTHW_WIRE_ROCEV2) {
		int k = card->faults.delay_ms != 0 ? MODEL_FAULT_DELAY : MODEL_FAULT_JITTER;

		model_report(path, card->faults.line[k],
			     "faults.%s: card '%s' carries RDMA on streams (wire = stream), which have no datagrams to "
			     "hold; set wire = rocev2", k == MODEL_FAULT_DELAY ? "delay" : "jitter", card->name);
		return false;
	}
	if (card->faults.line[MODEL_FAULT_SIDE] != 0 && card->faults.side_set[MODEL_SIDE_DPU] &&
	    !card->faults.side_set[MODEL_SIDE_HOST] && !prof->has_dpu) {
		model_report(path, card->faults.line[MODEL_FAULT_SIDE],
			     "faults.side: card '%s' is a %s, which has no DPU side; use host or both", card->name, prof->name);
		return false;
	}
	for (int s = 0; s < MODEL_SIDE_COUNT && card->wire == SOFTHW_WIRE_ROCEV2; s++)
		for (uint32_t k = 0; k < card->side[s].count[MODEL_FIELD_IPV4]; k++)
			if (card->side[s].no_ipv4[k]) {
				/* RoCEv2 over UDP: the GID and the socket address are the IPv4 one */
				model_report(path, card->side[s].line[MODEL_FIELD_IPV4],
					     "%s.ipv4: card '%s' has wire = rocev2, which needs an IPv4 address on every "
					     "function; give one instead of 'none'", side_prefix[s], card->name);
				return false;
			}
	for (int s = 0; s < MODEL_SIDE_COUNT; s++) {
		const struct model_side_spec *side = &card->side[s];
		uint32_t n = 0;
		int first = -1;

		for (int f = 0; f < MODEL_FIELD_COUNT; f++) {
			if (side->count[f] == 0)
				continue;
			if (s == MODEL_SIDE_DPU && !prof->has_dpu) {
				model_report(path, side->line[f], "dpu.%s: card '%s' is a %s, which has no DPU side; "
					     "remove the dpu.* keys or use a BlueField profile", field_keys[f], card->name,
					     prof->name);
				return false;
			}
			if (first < 0) {
				first = f;
				n = side->count[f];
			} else if (side->count[f] != n) {
				model_report(path, side->line[f], "%s.%s has %u entries but %s.%s has %u; give one entry per "
					     "function", side_prefix[s], field_keys[f], side->count[f], side_prefix[s],
					     field_keys[first], n);
				return false;
			}
		}
	}
	return true;
}

/*
 * The whole file, NUL-terminated, into *text (to free): softhw_small_file_read's rule (a regular
 * file, at most CONFIG_MAX_BYTES), and no NUL byte. Reports why and returns BAD_CONFIG.
 */
static doca_error_t config_read(const char *path, char **text)
{
	struct softhw_small_file f = {0};
	const char *nul;
	char *buf;
	size_t got;

	switch (softhw_small_file_read(path, CONFIG_MAX_BYTES, &f)) {
	case SOFTHW_SMALL_FILE_OK:
		break;
	case SOFTHW_SMALL_FILE_OPEN:
		model_report(path, 0, "cannot read the device configuration (%s); fix SOFTDOCA_CONFIG or the file",
			     strerror(errno));
		return DOCA_ERROR_BAD_CONFIG;
	case SOFTHW_SMALL_FILE_NOT_REGULAR:
		model_report(path, 0, "the device configuration is %s; SOFTDOCA_CONFIG must name a regular file or a pipe (of at most %u bytes)",
			     softhw_file_kind(f.mode), CONFIG_MAX_BYTES);
		return DOCA_ERROR_BAD_CONFIG;
	case SOFTHW_SMALL_FILE_TOO_BIG:
		model_report(path, 0, "the device configuration is %lld bytes%s, more than the limit of %u bytes; fix SOFTDOCA_CONFIG or the file",
			     f.size, S_ISFIFO(f.mode) ? " or more (a pipe)" : "", CONFIG_MAX_BYTES);
		return DOCA_ERROR_BAD_CONFIG;
	case SOFTHW_SMALL_FILE_TIMEOUT:
		model_report(path, 0, "the device configuration is a pipe, and nothing more came from it for %d ms; its writer must write the configuration and close it",
			     softhw_small_file_pipe_ms());
		return DOCA_ERROR_BAD_CONFIG;
	case SOFTHW_SMALL_FILE_NO_MEMORY:
		model_report(path, 0, "out of memory for the device configuration");
		return DOCA_ERROR_NO_MEMORY;
	case SOFTHW_SMALL_FILE_READ:
		model_report(path, 0, "read error (%s)", strerror(errno));
		return DOCA_ERROR_BAD_CONFIG;
	case SOFTHW_SMALL_FILE_CHANGED:
		model_report(path, 0, "the device configuration changed while it was read; load it again once it is written");
		return DOCA_ERROR_BAD_CONFIG;
	}
	buf = f.text;
	got = f.len;
	nul = memchr(buf, '\0', got);
	if (nul != NULL) {
		unsigned line = 1;

		for (const char *c = buf; c < nul; c++)
			line += *c == '\n';
		model_report(path, line, "holds a NUL byte: not a text file; fix SOFTDOCA_CONFIG or the file");
		free(buf);
		return DOCA_ERROR_BAD_CONFIG;
	}
	*text = buf;
	return DOCA_SUCCESS;
}

doca_error_t model_config_parse(const char *path, struct model_config *cfg)
{
	struct parser p = {.path = path, .cfg = cfg};
	char *text = NULL, *next;
	bool ok = true;
	doca_error_t err;

	memset(cfg, 0, sizeof(*cfg));
	err = config_read(path, &text);
	if (err != DOCA_SUCCESS)
		return err;
	for (char *buf = text; ok && *buf != '\0'; buf = next) {
		char *s = strchr(buf, '\n');

		next = s != NULL ? s + 1 : buf + strlen(buf);
		if (s != NULL)
			*s = '\0';
		p.line++;
		if (strlen(buf) > CONFIG_MAX_LINE) {
			model_report(path, p.line, "line longer than the limit of %d characters; split the list",
				     CONFIG_MAX_LINE);
			ok = false;
			break;
		}
		s = strchr(buf, '#');
		if (s)
			*s = '\0';
		s = trim(buf);
		if (*s == '\0' || *s == ';')
			continue;
		ok = (*s == '[') ? parse_section(&p, s) : parse_key_value(&p, s);
	}
	free(text);
	if (ok && cfg->num_cards == 0) {
		model_report(path, 0, "defines no card; add a [card NAME] section with a 'profile = ...' line");
		ok = false;
	}
	for (uint32_t i = 0; ok && i < cfg->num_cards; i++)
		ok = check_card(path, &cfg->cards[i]);
	return ok ? DOCA_SUCCESS : DOCA_ERROR_BAD_CONFIG;
}

void model_config_default(struct model_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->num_cards = 1;
	strcpy(cfg->cards[0].name, "bf3-0");
	cfg->cards[0].has_profile = true;
	cfg->cards[0].profile = SOFTHW_PROFILE_BF3;
}
