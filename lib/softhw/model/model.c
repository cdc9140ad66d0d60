/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The soft device model of this process: loaded once (built-in default or configuration
 * file), then read-only. The process plays one side of every card (its role) and sees that
 * side's functions; the DPU side also sees representors of the host side's functions.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "softhw/base/sdk_log.h"
#include "model_priv.h"

SDK_LOG_REGISTER(SOFTHW_MODEL);

#define DEFAULT_FUNCS_PER_SIDE 2
#define CONFIG_BUILTIN "builtin"

/* Default addresses: card c's host PFs are on bus b1+c, its DPU PFs on bus 03+c. */
static const unsigned default_bus[MODEL_SIDE_COUNT] = {0xb1, 0x03};

/* Both sides of every card, to check uniqueness across the whole model. */
struct model_views {
	uint32_t num[MODEL_SIDE_COUNT];
	struct softhw_function fn[MODEL_SIDE_COUNT][MODEL_MAX_FUNCS];
	const struct model_card_spec *spec[MODEL_SIDE_COUNT][MODEL_MAX_FUNCS];
	uint32_t first[MODEL_SIDE_COUNT][MODEL_MAX_CARDS]; /* first function of each card */
	uint32_t count[MODEL_SIDE_COUNT][MODEL_MAX_CARDS];
};

static uint32_t side_count(const struct model_card_spec *card, enum model_side side)
{
	if (side == MODEL_SIDE_DPU && !model_profile(card->profile)->has_dpu)
		return 0;
	for (int f = 0; f < MODEL_FIELD_COUNT; f++)
		if (card->side[side].count[f])
			return card->side[side].count[f];
	return DEFAULT_FUNCS_PER_SIDE;
}

/* FNV-1a: a stable, dependency-free hash for instance ids. */
static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static void make_instance(struct softhw_card *card, const char *run_dir)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	h = fnv1a(h, run_dir, strlen(run_dir) + 1);
	h = fnv1a(h, card->name, strlen(card->name));
	/* The hash makes it unique; the name (cut to fit) keeps it readable. */
	snprintf(card->instance, sizeof(card->instance), "%.46s@%016llx", card->name, (unsigned long long)h);
}

/* Fills function k of one side of card c from its spec, defaulting what was not given. */
static void fill_function(struct softhw_function *fn, const struct softhw_card *card,
			  const struct model_card_spec *spec, enum model_side side, uint32_t k, uint32_t seq)
{
	const struct model_side_spec *ss = &spec->side[side];
	const struct model_profile *prof = model_profile(spec->profile);
	uint32_t c = card->index;
	uint32_t host_n = side_count(spec, MODEL_SIDE_HOST);
	uint32_t dpu_n = side_count(spec, MODEL_SIDE_DPU);

	fn->card = card;
	fn->caps = prof->caps[side];
	fn->active_rate = prof->port_rate;
	fn->vhca_id = (uint16_t)(side == MODEL_SIDE_DPU ? k : dpu_n + k);

	if (ss->count[MODEL_FIELD_PCI])
		memcpy(fn->pci_addr, ss->pci[k], SOFTHW_PCI_ADDR_LEN);
	else
		snprintf(fn->pci_addr, sizeof(fn->pci_addr), "0000:%02x:00.%x", (uint8_t)(default_bus[side] + c),
			 (unsigned)(k & 7));

	if (ss->count[MODEL_FIELD_IBDEV])
		strcpy(fn->ibdev_name, ss->ibdev[k]);
	else
		snprintf(fn->ibdev_name, sizeof(fn->ibdev_name), "mlx5_%u", seq);

	if (ss->count[MODEL_FIELD_IFACE])
		strcpy(fn->iface_name, ss->iface[k]);
	else if (side == MODEL_SIDE_HOST)
		snprintf(fn->iface_name, sizeof(fn->iface_name), "ens%uf%unp%u", c + 1, k, k);
	else
		snprintf(fn->iface_name, sizeof(fn->iface_name), "p%u", seq);

	if (ss->count[MODEL_FIELD_MAC])
		memcpy(fn->mac, ss->mac[k], 6);
	else /* locally administered: 02:5d:0c:<card>:<side>:<function> */
		memcpy(fn->mac, (uint8_t[6]){0x02, 0x5d, 0x0c, (uint8_t)c, (uint8_t)side, (uint8_t)k}, 6);

	/* Loopback addresses, unique per function: 127.0.<card>.<n>, host functions first. */
	fn->has_ipv4 = !(ss->count[MODEL_FIELD_IPV4] && ss->no_ipv4[k]);
	if (ss->count[MODEL_FIELD_IPV4])
		memcpy(fn->ipv4, ss->ipv4[k], 4);
	else
		memcpy(fn->ipv4, (uint8_t[4]){127, 0, (uint8_t)c, (uint8_t)(1 + k + (side == MODEL_SIDE_DPU ? host_n : 0))},
		       4);

	/* IPv6: link-local from the MAC (EUI-64), as a real port would have. */
	fn->has_ipv6 = true;
	if (ss->count[MODEL_FIELD_IPV6]) {
		memcpy(fn->ipv6, ss->ipv6[k], 16);
	} else {
		uint8_t *a = fn->ipv6;

		memset(a, 0, 16);
		a[0] = 0xfe;
		a[1] = 0x80;
		a[8] = fn->mac[0] ^ 0x02;
		a[9] = fn->mac[1];
		a[10] = fn->mac[2];
		a[11] = 0xff;
		a[12] = 0xfe;
		a[13] = fn->mac[3];
		a[14] = fn->mac[4];
		a[15] = fn->mac[5];
	}

	/* RoCE v2 GID: the IPv4-mapped address (::ffff:a.b.c.d), else the IPv6 address. */
	if (ss->count[MODEL_FIELD_GID]) {
		memcpy(fn->gid, ss->gid[k], 16);
	} else if (fn->has_ipv4) {
		memset(fn->gid, 0, 16);
		fn->gid[10] = 0xff;
		fn->gid[11] = 0xff;
		memcpy(&fn->gid[12], fn->ipv4, 4);
	} else {
		memcpy(fn->gid, fn->ipv6, 16);
	}

	fn->func_type = ss->count[MODEL_FIELD_TYPE] ? ss->type[k] : DOCA_PCI_FUNC_TYPE_PF;
	fn->sf_index = ss->count[MODEL_FIELD_SF_INDEX] ? ss->sf_index[k] : 0;
}

/* Where a function's field was set, for messages: the key's line, else its card's. */
static unsigned field_line(const struct model_card_spec *spec, enum model_side side, enum model_field f)
{
	return spec->side[side].count[f] ? spec->side[side].line[f] : spec->line;
}

static const char *const side_key[MODEL_SIDE_COUNT] = {"host", "dpu"};

/* Within one side: PCI addresses, ibdev and interface names are unique. */
static bool check_side(const struct model_views *v, enum model_side s, uint32_t i, const char *file)
{
	const struct softhw_function *a = &v->fn[s][i];

	for (uint32_t j = 0; j < i; j++) {
		const struct softhw_function *b = &v->fn[s][j];
		enum model_field f;
		const char *what, *val;

		if (strcmp(a->pci_addr, b->pci_addr) == 0) {
			f = MODEL_FIELD_PCI, what = "PCI address", val = a->pci_addr;
		} else if (strcmp(a->ibdev_name, b->ibdev_name) == 0) {
			f = MODEL_FIELD_IBDEV, what = "ibdev name", val = a->ibdev_name;
		} else if (strcmp(a->iface_name, b->iface_name) == 0) {
			f = MODEL_FIELD_IFACE, what = "interface name", val = a->iface_name;
		} else {
			continue;
		}
		model_report(file, field_line(v->spec[s][i], s, f), "%s %s of card '%s' (%s side) is already used by card "
			     "'%s'; set %s.%s to distinct values", what, val, a->card->name, side_key[s], b->card->name,
			     side_key[s], f == MODEL_FIELD_PCI ? "pci" : f == MODEL_FIELD_IBDEV ? "ibdev" : "iface");
		return false;
	}
	return true;
}

/* Across both sides (one network): MACs, IPv4 addresses and GIDs are unique. */
static bool check_network(const struct model_views *v, enum model_side s, uint32_t i, const char *file)
{
	const struct softhw_function *a = &v->fn[s][i];

	for (int t = 0; t <= (int)s; t++) {
		for (uint32_t j = 0; j < (t == (int)s ? i : v->num[t]); j++) {
			const struct softhw_function *b = &v->fn[t][j];
			enum model_field f;
			const char *what;

			if (memcmp(a->mac, b->mac, 6) == 0)
				f = MODEL_FIELD_MAC, what = "MAC address";
			else if (a->has_ipv4 && b->has_ipv4 && memcmp(a->ipv4, b->ipv4, 4) == 0)
				f = MODEL_FIELD_IPV4, what = "IPv4 address";
			else if (memcmp(a->gid, b->gid, 16) == 0)
				f = MODEL_FIELD_GID, what = "GID";
			else
				continue;
			model_report(file, field_line(v->spec[s][i], s, f), "%s of %s (card '%s', %s side) equals that of %s "
				     "(card '%s', %s side); give %s.%s distinct values", what, a->pci_addr, a->card->name,
				     side_key[s], b->pci_addr, b->card->name, side_key[t], side_key[s],
				     f == MODEL_FIELD_MAC ? "mac" : f == MODEL_FIELD_IPV4 ? "ipv4" : "gid");
			return false;
		}
	}
	return true;
}

/* Each host function gets a representor on the DPU side; DPU function k manages host k, k+n, ... */
static void attach_reps(struct softhw_model *m, const struct model_views *v)
{
	uint32_t r = 0;

	for (uint32_t c = 0; c < m->num_cards; c++) {
		uint32_t host_n = v->count[MODEL_SIDE_HOST][c], dpu_n = v->count[MODEL_SIDE_DPU][c];

		for (uint32_t k = 0; k < dpu_n; k++) {
			struct softhw_function *dfn = &m->functions[v->first[MODEL_SIDE_DPU][c] + k];

			dfn->reps = &m->reps[r];
			for (uint32_t j = k; j < host_n; j += dpu_n) {
				const struct softhw_function *hfn = &v->fn[MODEL_SIDE_HOST][v->first[MODEL_SIDE_HOST][c] + j];
				struct softhw_rep *rep = &m->reps[r++];
				char vuid[sizeof(rep->vuid)]; /* a local: GCC would see rep and the name overlap in *m */

				snprintf(vuid, sizeof(vuid), "softdoca-%s-hpf%u", m->cards[c].name, j);
				memcpy(rep->vuid, vuid, sizeof(vuid));
				memcpy(rep->pci_addr, hfn->pci_addr, SOFTHW_PCI_ADDR_LEN);
				if (c == 0)
					snprintf(rep->iface_name, sizeof(rep->iface_name), "pf%uhpf", j);
				else
					snprintf(rep->iface_name, sizeof(rep->iface_name), "c%upf%uhpf", c, j);
				rep->func_type = hfn->func_type;
				rep->vhca_id = hfn->vhca_id;
				rep->index = j;
				dfn->num_reps++;
			}
		}
	}
}

/* Bounded copy (paths are at most PATH_MAX - 1 already). */
static void copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * The card's faults for the side this process plays (NULL: none there): every side unless
 * faults.side names one. The drop generator starts from the seed (1 when not given).
 */
static struct softhw_faults *card_faults(const struct model_fault_spec *spec, enum softhw_role role,
					 struct softhw_faults *out)
{
	const int side = role == SOFTHW_ROLE_DPU ? MODEL_SIDE_DPU : MODEL_SIDE_HOST;
	bool any = spec->drop_ppm != 0 || spec->delay_ms != 0 || spec->jitter_ms != 0;

	for (int k = 0; k < SOFTHW_FAULT_COUNT; k++)
		any = any || spec->every[k] != 0;
	if (!any || (spec->line[MODEL_FAULT_SIDE] != 0 && !spec->side_set[side]))
		return NULL;
	memset(out, 0, sizeof(*out));
	memcpy(out->every, spec->every, sizeof(out->every));
	out->drop_ppm = spec->drop_ppm;
	out->delay_ms = spec->delay_ms;
	out->jitter_ms = spec->jitter_ms;
	out->rng = spec->line[MODEL_FAULT_SEED] != 0 ? spec->seed : 1;
	out->rng_delay = ~out->rng; /* its own sequence: a jitter does not move the drops */
	return out;
}

doca_error_t model_build(const struct model_config *cfg, const char *file, enum softhw_role role,
			 const char *run_dir, struct softhw_model *m)
{
	struct model_views *v = calloc(1, sizeof(*v));
	doca_error_t err = DOCA_SUCCESS;

	if (v == NULL)
		return DOCA_ERROR_NO_MEMORY;
	memset(m, 0, sizeof(*m));
	m->role = role;
	copy_str(m->run_dir, sizeof(m->run_dir), run_dir);
	copy_str(m->source, sizeof(m->source), file ? file : "built-in default");
	m->num_cards = cfg->num_cards;
	m->access = cfg->access;
	for (uint32_t c = 0; c < cfg->num_cards; c++) {
		struct softhw_card *card = &m->cards[c];

		strcpy(card->name, cfg->cards[c].name);
		card->profile = cfg->cards[c].profile;
		card->wire = cfg->cards[c].wire;
		card->profile_name = softhw_profile_name(card->profile);
		card->index = c;
		card->has_dpu = model_profile(card->profile)->has_dpu;
		card->faults = card_faults(&cfg->cards[c].faults, role, &m->faults[c]);
		make_instance(card, m->run_dir);
	}
	for (uint32_t c = 0; c < cfg->num_cards; c++)
		m->cards[c].access = &m->access;
	for (int s = 0; s < MODEL_SIDE_COUNT && err == DOCA_SUCCESS; s++) {
		for (uint32_t c = 0; c < cfg->num_cards && err == DOCA_SUCCESS; c++) {
			uint32_t n = side_count(&cfg->cards[c], s);

			v->first[s][c] = v->num[s];
			v->count[s][c] = n;
			for (uint32_t k = 0; k < n; k++) {
				uint32_t i = v->num[s]++;

				v->spec[s][i] = &cfg->cards[c];
				fill_function(&v->fn[s][i], &m->cards[c], &cfg->cards[c], s, k, i);
				v->fn[s][i].index = i;
				if (!check_side(v, s, i, file) || !check_network(v, s, i, file)) {
					err = DOCA_ERROR_BAD_CONFIG;
					break;
				}
			}
		}
	}
	if (err == DOCA_SUCCESS) {
		int s = role == SOFTHW_ROLE_DPU ? MODEL_SIDE_DPU : MODEL_SIDE_HOST;

		m->num_functions = v->num[s];
		memcpy(m->functions, v->fn[s], sizeof(v->fn[s][0]) * v->num[s]);
		if (s == MODEL_SIDE_DPU)
			attach_reps(m, v);
	}
	free(v);
	return err;
}

/* ---- the process's model ---------------------------------------------------------------- */

static pthread_once_t model_once = PTHREAD_ONCE_INIT;
static struct softhw_model *the_model;
static doca_error_t the_error = DOCA_ERROR_INITIALIZATION;

static doca_error_t resolve_role(enum softhw_role *role)
{
	const char *env = getenv("SOFTDOCA_ROLE");

	*role = softhw_flavour_role;
	if (env == NULL || *env == '\0')
		return DOCA_SUCCESS;
	if (strcasecmp(env, "host") == 0) {
		*role = SOFTHW_ROLE_HOST;
	} else if (strcasecmp(env, "dpu") == 0) {
		*role = SOFTHW_ROLE_DPU;
	} else {
		model_report(NULL, 0, "SOFTDOCA_ROLE='%s' is not a role; set SOFTDOCA_ROLE=host or SOFTDOCA_ROLE=dpu, "
			     "or unset it to play the side of the build flavour (%s)", env,
			     softhw_flavour_role == SOFTHW_ROLE_DPU ? "dpu" : "host");
		return DOCA_ERROR_BAD_CONFIG;
	}
	return DOCA_SUCCESS;
}

/* SOFTDOCA_CONFIG, else the first existing default location; NULL means built-in. */
static const char *config_path(char buf[PATH_MAX])
{
	const char *env = getenv("SOFTDOCA_CONFIG");
	const char *base = getenv("XDG_CONFIG_HOME");

	if (env && *env)
		return strcmp(env, CONFIG_BUILTIN) == 0 ? NULL : env;
	if (base && *base)
		snprintf(buf, PATH_MAX, "%s/softdoca/devices.conf", base);
	else if ((base = getenv("HOME")) && *base)
		snprintf(buf, PATH_MAX, "%s/.config/softdoca/devices.conf", base);
	else
		buf[0] = '\0';
	if (buf[0] && access(buf, F_OK) == 0)
		return buf;
	if (access("/etc/softdoca/devices.conf", F_OK) == 0)
		return "/etc/softdoca/devices.conf";
	return NULL;
}

/* SOFTDOCA_RUN_DIR (made absolute), else /tmp/softdoca-<uid>. */
static void resolve_run_dir(char buf[PATH_MAX])
{
	const char *env = getenv("SOFTDOCA_RUN_DIR");
	char cwd[PATH_MAX];
	size_t len;

	if (env == NULL || *env == '\0')
		snprintf(buf, PATH_MAX, "/tmp/softdoca-%u", (unsigned)getuid());
	else if (env[0] == '/' || getcwd(cwd, sizeof(cwd)) == NULL ||
		 snprintf(buf, PATH_MAX, "%s/%s", cwd, env) >= PATH_MAX)
		snprintf(buf, PATH_MAX, "%s", env);
	len = strlen(buf);
	while (len > 1 && buf[len - 1] == '/')
		buf[--len] = '\0';
}

/* Faults are on purpose, but nobody should meet them unawares: one warning per card. */
static void log_faults(const struct softhw_model *m, const struct softhw_card *card)
{
	const struct softhw_faults *f = card->faults;
	char what[160] = "";
	size_t n = 0;

	if (f->delay_ms != 0 || f->jitter_ms != 0)
		n += (size_t)snprintf(what, sizeof(what), "faults.delay %u ms + up to %u ms", f->delay_ms, f->jitter_ms);
	for (int k = 0; k < SOFTHW_FAULT_COUNT && n < sizeof(what); k++) {
		if (k == SOFTHW_FAULT_DROP && f->drop_ppm != 0)
			n += (size_t)snprintf(what + n, sizeof(what) - n, "%s%s %.4g%%", n ? ", " : "",
					      softhw_fault_key(k), f->drop_ppm / 10000.0);
		else if (k != SOFTHW_FAULT_DROP && f->every[k] != 0)
			n += (size_t)snprintf(what + n, sizeof(what) - n, "%s%s every %u", n ? ", " : "",
					      softhw_fault_key(k), f->every[k]);
	}
	/* on stderr too, as the model's own messages: a program may have no SDK log backend */
	fprintf(stderr, "softdoca: %s: card '%s' injects faults on purpose on this (%s) side: %s\n", m->source,
		card->name, m->role == SOFTHW_ROLE_DPU ? "DPU" : "host", what);
	SDK_LOG_WARN("%s: card '%s' injects faults on purpose on this (%s) side: %s", m->source, card->name,
		     m->role == SOFTHW_ROLE_DPU ? "DPU" : "host", what);
}

static void model_load(void)
{
	struct model_config *cfg = calloc(1, sizeof(*cfg));
	struct softhw_model *m = calloc(1, sizeof(*m));
	char path_buf[PATH_MAX], run_dir[PATH_MAX];
	enum softhw_role role;
	const char *path = NULL;
	doca_error_t err;

	if (cfg == NULL || m == NULL) {
		err = DOCA_ERROR_NO_MEMORY;
		goto out;
	}
	err = resolve_role(&role);
	if (err != DOCA_SUCCESS)
		goto out;
	resolve_run_dir(run_dir);
	path = config_path(path_buf);
	if (path)
		err = model_config_parse(path, cfg);
	else
		model_config_default(cfg);
	if (err == DOCA_SUCCESS)
		err = model_build(cfg, path, role, run_dir, m);
out:
	free(cfg);
	if (err != DOCA_SUCCESS) {
		free(m);
		m = NULL;
	} else {
		SDK_LOG_DBG("device model from %s: %u card(s), %u function(s) on the %s side, run directory %s",
			    m->source, m->num_cards, m->num_functions, role == SOFTHW_ROLE_DPU ? "DPU" : "host",
			    m->run_dir);
		for (uint32_t c = 0; c < m->num_cards; c++)
			if (m->cards[c].faults != NULL)
				log_faults(m, &m->cards[c]);
	}
	the_model = m;
	the_error = err;
}

const struct softhw_model *softhw_model_get(doca_error_t *err)
{
	pthread_once(&model_once, model_load);
	if (err)
		*err = the_error;
	return the_model;
}

const struct softhw_access *softhw_access_policy(void)
{
	const struct softhw_model *m = softhw_model_get(NULL);

	return m != NULL ? &m->access : NULL;
}

enum softhw_role softhw_model_role(const struct softhw_model *model)
{
	return model->role;
}

uint32_t softhw_model_num_functions(const struct softhw_model *model)
{
	return model->num_functions;
}

const struct softhw_function *softhw_model_function(const struct softhw_model *model, uint32_t i)
{
	return i < model->num_functions ? &model->functions[i] : NULL;
}

const char *softhw_model_run_dir(const struct softhw_model *model)
{
	return model->run_dir;
}

const char *softhw_model_source(const struct softhw_model *model)
{
	return model->source;
}

doca_error_t softhw_model_run_dir_create(const struct softhw_model *model)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s", model->run_dir);
	/* mkdir -p, each call (set-up paths only): only the last component is ours (0700). */
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			model_report(NULL, 0, "cannot create %s (%s); set SOFTDOCA_RUN_DIR to a writable directory", path,
				     strerror(errno));
			return DOCA_ERROR_OPERATING_SYSTEM;
		}
		*p = '/';
	}
	if (mkdir(path, 0700) != 0 && errno != EEXIST) {
		model_report(NULL, 0, "cannot create run directory %s (%s); set SOFTDOCA_RUN_DIR to a writable directory",
			     path, strerror(errno));
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	fd = softhw_private_dir_open(AT_FDCWD, path);
	if (fd < 0) {
		model_report(NULL, 0, "run directory %s is not a directory of this user's alone (it is a symlink, "
			     "another user's, or writable by group or others); set SOFTDOCA_RUN_DIR to a directory "
			     "of your own, mode 0700", path);
		return DOCA_ERROR_OPERATING_SYSTEM;
	}
	close(fd);
	return DOCA_SUCCESS;
}

int softhw_private_dir_open(int at, const char *path)
{
	struct stat st;
	int fd = openat(at, path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ELOOP || errno == ENOTDIR)
			errno = EPERM; /* a symlink, or no directory */
		return -1;
	}
	/* fstat of what was opened, not of the name again: nobody can swap it in between. */
	if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}
