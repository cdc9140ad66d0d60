/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_dev.h against the soft device model, through the public API only: the built-in card in
 * both roles, profiles and several cards from a configuration file, a malformed file, a bad
 * role, PCI address matching, refcounted open/close, representors.
 * Usage: test_dev <scenario>, scenarios listed in main().
 */
#include <pthread.h>
#include <stdint.h>

#include "doca_dev.h"
#include "common/priv/dev_priv.h"
#include "child.h"

static char out[CHILD_OUT_MAX];

static const char *const env_host[] = {"SOFTDOCA_CONFIG=builtin", "SOFTDOCA_ROLE", NULL};
static const char *const env_dpu[] = {"SOFTDOCA_CONFIG=builtin", "SOFTDOCA_ROLE=dpu", NULL};

/* ---- helpers that run inside children ---------------------------------------------------- */

static struct doca_devinfo **list;
static uint32_t nlist;

static void list_open(uint32_t expected)
{
	list = NULL;
	nlist = 0;
	CHECK_OK(doca_devinfo_create_list(&list, &nlist));
	CHECK(nlist == expected);
}

static struct doca_devinfo *find(const char *pci)
{
	for (uint32_t i = 0; i < nlist; i++) {
		uint8_t eq = 0;

		if (doca_devinfo_is_equal_pci_addr(list[i], pci, &eq) == DOCA_SUCCESS && eq)
			return list[i];
	}
	return NULL;
}

static void check_str(doca_error_t (*get)(const struct doca_devinfo *, char *, uint32_t),
		      const struct doca_devinfo *info, const char *want)
{
	char buf[256] = "";

	CHECK_OK(get(info, buf, sizeof(buf)));
	CHECK(strcmp(buf, want) == 0);
	if (strcmp(buf, want) != 0)
		fprintf(stderr, "  got '%s', want '%s'\n", buf, want);
	/* exactly large enough works; one byte less is refused */
	CHECK_OK(get(info, buf, (uint32_t)strlen(want) + 1));
	CHECK_ERR(get(info, buf, (uint32_t)strlen(want)), DOCA_ERROR_INVALID_VALUE);
}

static void check_ipv4(const struct doca_devinfo *info, uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	uint8_t ip[4] = {0};

	CHECK_OK(doca_devinfo_get_ipv4_addr(info, ip, sizeof(ip)));
	CHECK(ip[0] == a && ip[1] == b && ip[2] == c && ip[3] == d);
}

static bool gid_is_v4_mapped(const struct doca_devinfo *info, uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	const uint8_t want[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, a, b, c, d};

	return memcmp(info->fn->gid, want, 16) == 0;
}

static uint8_t cap(doca_error_t (*get)(const struct doca_devinfo *, uint8_t *), const struct doca_devinfo *info)
{
	uint8_t v = 0xee;

	CHECK_OK(get(info, &v));
	CHECK(v == 0 || v == 1);
	return v;
}

/* ---- built-in card, host side -------------------------------------------------------------- */

static void host_view(void)
{
	struct doca_devinfo *pf0, *pf1;
	char pci[DOCA_DEVINFO_PCI_ADDR_SIZE];
	uint8_t mac[6], ip6[16], eq = 9;
	enum doca_pci_func_type type = DOCA_PCI_FUNC_TYPE_SF;
	uint64_t rate = 0;
	uint16_t vhca = 0, lid;
	uint32_t sf;

	list_open(2);
	pf0 = list[0];
	pf1 = list[1];
	CHECK(list[2] == NULL);
	CHECK_OK(doca_devinfo_get_pci_addr_str(pf0, pci));
	CHECK(strcmp(pci, "0000:b1:00.0") == 0);
	CHECK_OK(doca_devinfo_get_pci_addr_str(pf1, pci));
	CHECK(strcmp(pci, "0000:b1:00.1") == 0);
	check_str(doca_devinfo_get_ibdev_name, pf0, "mlx5_0");
	check_str(doca_devinfo_get_ibdev_name, pf1, "mlx5_1");
	check_str(doca_devinfo_get_iface_name, pf0, "ens1f0np0");
	check_str(doca_devinfo_get_iface_name, pf1, "ens1f1np1");
	CHECK_OK(doca_devinfo_get_mac_addr(pf0, mac, sizeof(mac)));
	CHECK(memcmp(mac, (uint8_t[]){0x02, 0x5d, 0x0c, 0, 0, 0}, 6) == 0);
	CHECK_ERR(doca_devinfo_get_mac_addr(pf0, mac, 5), DOCA_ERROR_INVALID_VALUE);
	check_ipv4(pf0, 127, 0, 0, 1);
	check_ipv4(pf1, 127, 0, 0, 2);
	CHECK_ERR(doca_devinfo_get_ipv4_addr(pf0, mac, 3), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_devinfo_get_ipv6_addr(pf0, ip6, sizeof(ip6)));
	CHECK(ip6[0] == 0xfe && ip6[1] == 0x80 && ip6[11] == 0xff && ip6[12] == 0xfe);
	CHECK_ERR(doca_devinfo_get_ipv6_addr(pf0, ip6, 15), DOCA_ERROR_INVALID_VALUE);
	CHECK(gid_is_v4_mapped(pf0, 127, 0, 0, 1));
	CHECK(gid_is_v4_mapped(pf1, 127, 0, 0, 2));
	CHECK(strcmp(pf0->fn->card->name, "bf3-0") == 0);
	CHECK(pf0->fn->card->profile == SOFTHW_PROFILE_BF3);
	CHECK(strncmp(pf0->fn->card->instance, "bf3-0@", 6) == 0);

	/* PCI addresses: short and long form, any case */
	const char *same[] = {"b1:00.0", "0000:b1:00.0", "B1:00.0", "0000:B1:00.0", "b1:0.0"};
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		eq = 9;
		CHECK_OK(doca_devinfo_is_equal_pci_addr(pf0, same[i], &eq));
		CHECK(eq == 1);
	}
	const char *other[] = {"b1:00.1", "03:00.0", "0001:b1:00.0", "c1:00.0"};
	for (size_t i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		eq = 9;
		CHECK_OK(doca_devinfo_is_equal_pci_addr(pf0, other[i], &eq));
		CHECK(eq == 0);
	}
	const char *bad[] = {"", "zz:00.0", "b1:00", "b1:00.8", "b1:20.0", "1b1:00.0", "0000:b1:00.0:1",
			     "00000:b1:00.0", "b1-00.0", "b1:00.0 "};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_ERR(doca_devinfo_is_equal_pci_addr(pf0, bad[i], &eq), DOCA_ERROR_INVALID_VALUE);
	CHECK(find("c1:00.0") == NULL); /* an unknown PCI address matches no device */
	CHECK(find("b1:00.1") == pf1);

	/* host side of a BlueField-3: DMA, PCIe export; no representors */
	CHECK(softdoca_devinfo_caps(pf0)->dma_memcpy && softdoca_devinfo_caps(pf1)->dma_memcpy);
	CHECK(softdoca_devinfo_caps(pf0)->mmap_export_pci);
	CHECK(cap(doca_devinfo_rep_cap_is_filter_all_supported, pf0) == 0);
	CHECK(cap(doca_devinfo_rep_cap_is_filter_net_supported, pf0) == 0);
	CHECK(cap(doca_devinfo_rep_cap_is_filter_emulated_supported, pf0) == 0);
	CHECK(cap(doca_devinfo_cap_is_hotplug_manager_supported, pf0) == 0);
	CHECK(cap(doca_devinfo_cap_is_notification_moderation_supported, pf0) == 1);
	CHECK(cap(doca_devinfo_cap_is_accelerate_resource_reclaim_supported, pf0) == 1);

	CHECK_ERR(doca_devinfo_get_lid(pf0, &lid), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_devinfo_get_active_rate(pf0, &rate));
	CHECK(rate == 200000000000ULL);
	CHECK_OK(doca_devinfo_get_vhca_id(pf1, &vhca));
	CHECK(vhca == 3);
	CHECK_OK(doca_devinfo_get_pci_func_type(pf0, &type));
	CHECK(type == DOCA_PCI_FUNC_TYPE_PF);
	CHECK_ERR(doca_devinfo_get_sf_index(pf0, &sf), DOCA_ERROR_NOT_SUPPORTED);

	/* representors are a DPU-side thing */
	struct doca_dev *dev = NULL;
	struct doca_devinfo_rep **reps = NULL;
	uint32_t nreps = 7;

	CHECK_OK(doca_dev_open(pf0, &dev));
	CHECK_ERR(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &nreps),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK(reps == NULL && nreps == 7);
	CHECK_OK(doca_dev_close(dev));
	CHECK_OK(doca_devinfo_destroy_list(list));
}

/* Every getter refuses NULL and foreign pointers with INVALID_VALUE. */
static void bad_args(void)
{
	struct doca_devinfo fake = {0};
	struct doca_devinfo_rep fake_rep = {0};
	char s[256];
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;
	enum doca_pci_func_type t;
	const struct doca_devinfo *infos[] = {NULL, &fake};

	list_open(2);
	for (size_t i = 0; i < 2; i++) {
		const struct doca_devinfo *d = infos[i];

		CHECK_ERR(doca_devinfo_get_pci_addr_str(d, s), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_is_equal_pci_addr(d, "b1:00.0", &u8), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_ipv4_addr(d, (uint8_t *)s, 4), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_ipv6_addr(d, (uint8_t *)s, 16), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_mac_addr(d, (uint8_t *)s, 6), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_iface_name(d, s, 256), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_ibdev_name(d, s, 64), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_lid(d, &u16), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_active_rate(d, &u64), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_vhca_id(d, &u16), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_pci_func_type(d, &t), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_get_sf_index(d, &u32), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_cap_is_hotplug_manager_supported(d, &u8), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_cap_is_notification_moderation_supported(d, &u8), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_rep_cap_is_filter_all_supported(d, &u8), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_rep_cap_is_filter_net_supported(d, &u8), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_rep_cap_is_filter_emulated_supported(d, &u8), DOCA_ERROR_INVALID_VALUE);
		CHECK_ERR(doca_devinfo_cap_is_accelerate_resource_reclaim_supported(d, &u8), DOCA_ERROR_INVALID_VALUE);
	}
	/* a real devinfo with a NULL result pointer */
	CHECK_ERR(doca_devinfo_get_pci_addr_str(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_is_equal_pci_addr(list[0], NULL, &u8), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_is_equal_pci_addr(list[0], "b1:00.0", NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_get_ibdev_name(list[0], NULL, 64), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_get_vhca_id(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_cap_is_hotplug_manager_supported(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	/* representor getters */
	CHECK_ERR(doca_devinfo_rep_get_vuid(NULL, s, 128), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_get_vuid(&fake_rep, s, 128), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_get_pci_addr_str(NULL, s), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_get_pci_func_type(NULL, &t), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_get_is_hotplug(NULL, &u8), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_get_iface_name(NULL, s, 256), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_get_vhca_id(NULL, &u16), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_is_equal_pci_addr(NULL, "b1:00.0", &u8), DOCA_ERROR_INVALID_VALUE);
	/* lists and devices */
	CHECK_ERR(doca_devinfo_create_list(NULL, &u32), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_create_list(&list, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_destroy_list(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_destroy_list(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_destroy_list((struct doca_devinfo_rep **)list), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dev_open(NULL, &(struct doca_dev *){NULL}), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dev_open(&fake, &(struct doca_dev *){NULL}), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dev_open(list[0], NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_create_list(NULL, 0, &(struct doca_devinfo_rep **){NULL}, &u32),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dev_rep_open(NULL, &(struct doca_dev_rep *){NULL}), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dev_rep_open(&fake_rep, &(struct doca_dev_rep *){NULL}), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dev_rep_close(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_dev_accelerate_resource_reclaim(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK(doca_dev_as_devinfo(NULL) == NULL);
	CHECK(doca_dev_rep_as_devinfo(NULL) == NULL);
	CHECK_OK(doca_devinfo_destroy_list(list));
}

/* ---- open / close ---------------------------------------------------------------------------- */

static void *open_close_loop(void *arg)
{
	struct doca_devinfo *info = arg;

	for (int i = 0; i < 2000; i++) {
		struct doca_dev *dev = NULL;

		if (doca_dev_open(info, &dev) != DOCA_SUCCESS || doca_dev_close(dev) != DOCA_SUCCESS)
			return (void *)1;
	}
	return NULL;
}

static void refcount(void)
{
	struct doca_dev *a = NULL, *b = NULL, *c = NULL;
	struct doca_devinfo *info;
	pthread_t th[4];

	CHECK_OK(doca_dev_close(NULL)); /* samples rely on it */
	list_open(2);
	info = list[0];
	CHECK_OK(doca_dev_open(info, &a));
	CHECK_OK(doca_dev_open(info, &b));
	CHECK(a != NULL && a == b);
	CHECK(a->refcount == 2);
	CHECK(doca_dev_as_devinfo(a) == info);
	CHECK_OK(doca_dev_accelerate_resource_reclaim(a));

	/* destroying the list keeps the device and its devinfo */
	CHECK_OK(doca_devinfo_destroy_list(list));
	CHECK(doca_dev_as_devinfo(a) == info);
	check_str(doca_devinfo_get_ibdev_name, doca_dev_as_devinfo(a), "mlx5_0");

	/* a new list shows the same devinfo; opening it again gives the same device */
	list_open(2);
	CHECK(list[0] == info);
	CHECK_OK(doca_dev_open(list[0], &c));
	CHECK(c == a && a->refcount == 3);
	CHECK_OK(doca_devinfo_destroy_list(list));

	CHECK_OK(doca_dev_close(c));
	CHECK_OK(doca_dev_close(b));
	CHECK(info->open_dev == a && a->refcount == 1);
	/* a device held by an mmap or a context cannot be closed for the last time */
	softdoca_dev_hold(a);
	CHECK_ERR(doca_dev_close(a), DOCA_ERROR_IN_USE);
	CHECK(info->open_dev == a);
	softdoca_dev_release(a);
	CHECK_OK(doca_dev_close(a));
	CHECK(info->open_dev == NULL);

	/* concurrent opens and closes of one device keep the count exact */
	for (int i = 0; i < 4; i++)
		CHECK(pthread_create(&th[i], NULL, open_close_loop, info) == 0);
	for (int i = 0; i < 4; i++) {
		void *ret = (void *)1;

		CHECK(pthread_join(th[i], &ret) == 0);
		CHECK(ret == NULL);
	}
	CHECK(info->open_dev == NULL);
}

/* ---- built-in card, DPU side ------------------------------------------------------------- */

static void dpu_view(void)
{
	struct doca_devinfo_rep **reps = NULL, **none = NULL, **all = NULL;
	struct doca_dev_rep *r = NULL, *r2 = NULL;
	struct doca_dev *dev = NULL, *dev1 = NULL;
	uint32_t nreps = 0, nnone = 9, nall = 0;
	char s[256], pci[DOCA_DEVINFO_REP_PCI_ADDR_SIZE];
	enum doca_pci_func_type type = DOCA_PCI_FUNC_TYPE_SF;
	uint8_t u8 = 9;
	uint16_t vhca = 0;

	list_open(2);
	check_str(doca_devinfo_get_ibdev_name, list[0], "mlx5_0");
	check_str(doca_devinfo_get_iface_name, list[0], "p0");
	check_str(doca_devinfo_get_iface_name, list[1], "p1");
	CHECK(find("03:00.0") == list[0]);
	CHECK(find("0000:03:00.1") == list[1]);
	CHECK(find("b1:00.0") == NULL);
	check_ipv4(list[0], 127, 0, 0, 3);
	check_ipv4(list[1], 127, 0, 0, 4);
	CHECK(cap(doca_devinfo_rep_cap_is_filter_all_supported, list[0]) == 1);
	CHECK(cap(doca_devinfo_rep_cap_is_filter_net_supported, list[0]) == 1);
	CHECK(cap(doca_devinfo_rep_cap_is_filter_emulated_supported, list[0]) == 1);
	CHECK(cap(doca_devinfo_cap_is_hotplug_manager_supported, list[0]) == 1);
	CHECK(softdoca_devinfo_caps(list[0])->mmap_create_from_export_pci);

	CHECK_OK(doca_dev_open(list[0], &dev));
	CHECK_OK(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &nreps));
	CHECK(nreps == 1 && reps[1] == NULL);
	CHECK_OK(doca_devinfo_rep_get_pci_addr_str(reps[0], pci));
	CHECK(strcmp(pci, "0000:b1:00.0") == 0);
	CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(reps[0], "b1:00.0", &u8));
	CHECK(u8 == 1);
	CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(reps[0], "B1:00.1", &u8));
	CHECK(u8 == 0);
	CHECK_ERR(doca_devinfo_rep_is_equal_pci_addr(reps[0], "b1", &u8), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_devinfo_rep_get_vuid(reps[0], s, DOCA_DEVINFO_REP_VUID_SIZE));
	CHECK(strcmp(s, "softdoca-bf3-0-hpf0") == 0);
	CHECK_ERR(doca_devinfo_rep_get_vuid(reps[0], s, 4), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_devinfo_rep_get_iface_name(reps[0], s, sizeof(s)));
	CHECK(strcmp(s, "pf0hpf") == 0);
	CHECK_OK(doca_devinfo_rep_get_pci_func_type(reps[0], &type));
	CHECK(type == DOCA_PCI_FUNC_TYPE_PF);
	CHECK_OK(doca_devinfo_rep_get_is_hotplug(reps[0], &u8));
	CHECK(u8 == 0);
	CHECK_OK(doca_devinfo_rep_get_vhca_id(reps[0], &vhca));
	CHECK(vhca == 2); /* the host PF's vhca id */

	/* filters: EMULATED lists none here, ALL lists the network one, unknown bits are refused */
	CHECK_OK(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_EMULATED, &none, &nnone));
	CHECK(nnone == 0 && none[0] == NULL);
	CHECK_OK(doca_devinfo_rep_destroy_list(none));
	CHECK_OK(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_ALL, &all, &nall));
	CHECK(nall == 1);
	CHECK_ERR(doca_devinfo_destroy_list((struct doca_devinfo **)all), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_devinfo_rep_destroy_list(all));
	CHECK_ERR(doca_devinfo_rep_create_list(dev, 1, &all, &nall), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_devinfo_rep_create_list(dev, 0x40, &all, &nall), DOCA_ERROR_INVALID_VALUE);

	/* rep open is refcounted and outlives its list */
	CHECK_OK(doca_dev_rep_open(reps[0], &r));
	CHECK_OK(doca_dev_rep_open(reps[0], &r2));
	CHECK(r != NULL && r == r2 && r->refcount == 2);
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
	CHECK_OK(doca_devinfo_rep_get_pci_addr_str(doca_dev_rep_as_devinfo(r), pci));
	CHECK(strcmp(pci, "0000:b1:00.0") == 0);
	CHECK(doca_dev_rep_as_devinfo(r)->parent == dev);
	CHECK_OK(doca_dev_rep_close(r2));
	CHECK_OK(doca_dev_rep_close(r));

	/* the second DPU PF manages the second host PF */
	CHECK_OK(doca_dev_open(list[1], &dev1));
	CHECK_OK(doca_devinfo_rep_create_list(dev1, DOCA_DEVINFO_REP_FILTER_NET, &reps, &nreps));
	CHECK(nreps == 1);
	CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(reps[0], "b1:00.1", &u8));
	CHECK(u8 == 1);
	CHECK_OK(doca_devinfo_rep_get_iface_name(reps[0], s, sizeof(s)));
	CHECK(strcmp(s, "pf1hpf") == 0);
	/* a representor cannot be opened once its local device is closed */
	CHECK_OK(doca_dev_close(dev1));
	CHECK_ERR(doca_dev_rep_open(reps[0], &r), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));

	CHECK_OK(doca_dev_close(dev));
	CHECK_OK(doca_devinfo_destroy_list(list));
}

/* ---- configuration files ------------------------------------------------------------------- */

static const char four_cards[] =
	"# one card of each profile\n"
	"[card cx6]\n"
	"profile = cx6dx\n"
	"\n"
	"[card cx7]\n"
	"profile = ConnectX-7\n"
	"host.pci = 0000:C1:00.0\n"
	"host.ibdev = mlx5_7\n"
	"\n"
	"[card bf2]\n"
	"profile = bluefield-2   # aliases are case-insensitive\n"
	"\n"
	"[card bf3]\n"
	"profile = BF3\n"
	"host.ipv4 = 10.9.8.7, none\n"
	"dpu.pci = 0000:07:00.0 0000:07:00.1\n";

static void four_cards_host(void)
{
	struct doca_devinfo *cx6, *cx7, *bf2, *bf3, *bf3b;
	uint8_t ip[4];

	list_open(7); /* 2 + 1 + 2 + 2 host functions */
	cx6 = find("b1:00.0");
	cx7 = find("c1:00.0");
	bf2 = find("b3:00.0");
	bf3 = find("b4:00.0");
	bf3b = find("b4:00.1");
	CHECK(cx6 && cx7 && bf2 && bf3 && bf3b);
	if (!(cx6 && cx7 && bf2 && bf3 && bf3b))
		return;
	CHECK(cx6->fn->card->profile == SOFTHW_PROFILE_CX6DX && strcmp(cx6->fn->card->name, "cx6") == 0);
	CHECK(cx7->fn->card->profile == SOFTHW_PROFILE_CX7);
	CHECK(bf2->fn->card->profile == SOFTHW_PROFILE_BF2);
	CHECK(bf3->fn->card->profile == SOFTHW_PROFILE_BF3);
	check_str(doca_devinfo_get_ibdev_name, cx7, "mlx5_7");
	check_str(doca_devinfo_get_ibdev_name, bf2, "mlx5_3");
	check_str(doca_devinfo_get_iface_name, bf2, "ens3f0np0");
	check_ipv4(cx7, 127, 0, 1, 1);
	check_ipv4(bf3, 10, 9, 8, 7);
	CHECK(gid_is_v4_mapped(bf3, 10, 9, 8, 7));
	CHECK_ERR(doca_devinfo_get_ipv4_addr(bf3b, ip, sizeof(ip)), DOCA_ERROR_NOT_FOUND);
	CHECK(memcmp(bf3b->fn->gid, bf3b->fn->ipv6, 16) == 0); /* no IPv4: the GID is the IPv6 address */
	/* every card has its own instance */
	CHECK(strcmp(cx6->fn->card->instance, bf3->fn->card->instance) != 0);

	/* capabilities differ per profile */
	const struct softhw_caps *c6 = softdoca_devinfo_caps(cx6), *c7 = softdoca_devinfo_caps(cx7);
	const struct softhw_caps *b2 = softdoca_devinfo_caps(bf2), *b3 = softdoca_devinfo_caps(bf3);

	CHECK(c6->dma_memcpy && c7->dma_memcpy && b2->dma_memcpy && b3->dma_memcpy);
	CHECK(c6->dma_max_buf_size == (1ULL << 30) && c7->dma_max_buf_size == (2ULL << 30));
	CHECK(b2->dma_max_buf_size == (1ULL << 30) && b3->dma_max_buf_size == (2ULL << 30));
	CHECK(c6->dma_max_buf_list_len == 16 && c7->dma_max_buf_list_len == 32);
	CHECK(b2->dma_max_buf_list_len == 16 && b3->dma_max_buf_list_len == 32);
	CHECK(!c6->mmap_export_pci && !c7->mmap_export_pci && b2->mmap_export_pci && b3->mmap_export_pci);
	CHECK(!b2->mmap_create_from_export_pci && b3->mmap_create_from_export_pci);
	CHECK(c6->mmap_export_rdma && b3->mmap_export_rdma);
	CHECK(!c7->sync_event_export_remote_pci && b2->sync_event_export_remote_pci);
	CHECK(c7->sync_event_export_remote_net && c6->sync_event_remote_net_create_from_export);
	CHECK(!c6->notification_moderation && c7->notification_moderation && !b2->notification_moderation);
	CHECK(c6->num_completion_vectors == 8 && b3->num_completion_vectors == 16);
	CHECK(!c6->rep_filter_all && !b2->rep_filter_all && !b3->rep_filter_net && !b3->hotplug_manager);
	CHECK(cx6->fn->active_rate == 100000000000ULL && cx7->fn->active_rate == 400000000000ULL);
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static void four_cards_dpu(void)
{
	struct doca_devinfo *bf2, *bf3;
	struct doca_devinfo_rep **reps = NULL;
	struct doca_dev *dev = NULL;
	uint32_t n = 0;
	uint8_t eq = 0;
	char s[64];

	list_open(4); /* the ConnectX cards have no DPU side */
	bf2 = find("05:00.0");
	bf3 = find("07:00.1");
	CHECK(bf2 && bf3);
	if (!(bf2 && bf3))
		return;
	check_str(doca_devinfo_get_ibdev_name, bf3, "mlx5_3");
	check_str(doca_devinfo_get_iface_name, bf3, "p3");
	CHECK(softdoca_devinfo_caps(bf2)->mmap_create_from_export_pci);
	CHECK(softdoca_devinfo_caps(bf3)->rep_filter_net);
	CHECK_OK(doca_dev_open(bf3, &dev));
	CHECK_OK(doca_devinfo_rep_create_list(dev, DOCA_DEVINFO_REP_FILTER_NET, &reps, &n));
	CHECK(n == 1);
	CHECK_OK(doca_devinfo_rep_is_equal_pci_addr(reps[0], "b4:00.1", &eq));
	CHECK(eq == 1);
	CHECK_OK(doca_devinfo_rep_get_iface_name(reps[0], s, sizeof(s)));
	CHECK(strcmp(s, "c3pf1hpf") == 0);
	CHECK_OK(doca_devinfo_rep_destroy_list(reps));
	CHECK_OK(doca_dev_close(dev));
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static void nic_only_dpu(void)
{
	list_open(0); /* a DPU-side process on ConnectX-only cards sees nothing, but nothing failed */
	CHECK(list[0] == NULL);
	CHECK_OK(doca_devinfo_destroy_list(list));
}

/* ---- failures: the process starts with no model at all ----------------------------------- */

static doca_error_t expected_failure;

static void model_fails(void)
{
	struct doca_devinfo **l = (struct doca_devinfo **)&l;
	uint32_t n = 77;

	alarm(10); /* a load that hangs (a FIFO, /dev/zero) ends the child: a failure */
	/* twice: the failure sticks, there is never half a model */
	for (int i = 0; i < 2; i++) {
		CHECK_ERR(doca_devinfo_create_list(&l, &n), expected_failure);
		CHECK(n == 77 && l == (struct doca_devinfo **)&l);
	}
}

static void expect_fail(const char *name, const char *const *env, doca_error_t err, const char *msg)
{
	expected_failure = err;
	CHECK(run_child(name, model_fails, env, out, sizeof(out)));
	CHECK(strstr(out, msg) != NULL);
	if (strstr(out, msg) == NULL)
		fprintf(stderr, "%s: expected '%s' in:\n%s", name, msg, out);
}

/* ---- scenarios --------------------------------------------------------------------------- */

static void test_default_host(void)
{
	CHECK(run_child("host_view", host_view, env_host, out, sizeof(out)));
	CHECK(run_child("bad_args", bad_args, env_host, out, sizeof(out)));
	/* no role variable: the role is the flavour's (these tests link the host flavour) */
	CHECK(run_child("host_view_empty_role", host_view,
			(const char *const[]){"SOFTDOCA_CONFIG=builtin", "SOFTDOCA_ROLE=", NULL}, out, sizeof(out)));
	CHECK(run_child("host_view_explicit", host_view,
			(const char *const[]){"SOFTDOCA_CONFIG=builtin", "SOFTDOCA_ROLE=host", NULL}, out, sizeof(out)));
}

static void test_default_dpu(void)
{
	CHECK(run_child("dpu_view", dpu_view, env_dpu, out, sizeof(out)));
	CHECK(run_child("dpu_view_upper", dpu_view,
			(const char *const[]){"SOFTDOCA_CONFIG=builtin", "SOFTDOCA_ROLE=DPU", NULL}, out, sizeof(out)));
}

static void test_refcount(void)
{
	CHECK(run_child("refcount", refcount, env_host, out, sizeof(out)));
	CHECK(run_child("refcount_dpu", refcount, env_dpu, out, sizeof(out)));
}

static void test_config(void)
{
	char cfg[300], cx[300];

	snprintf(cfg, sizeof(cfg), "SOFTDOCA_CONFIG=%s", write_file("devices.conf", four_cards));
	CHECK(run_child("four_cards_host", four_cards_host, (const char *const[]){cfg, "SOFTDOCA_ROLE=host", NULL},
			out, sizeof(out)));
	CHECK(run_child("four_cards_dpu", four_cards_dpu, (const char *const[]){cfg, "SOFTDOCA_ROLE=dpu", NULL}, out,
			sizeof(out)));
	snprintf(cx, sizeof(cx), "SOFTDOCA_CONFIG=%s", write_file("nic.conf", "[card n]\nprofile = cx7\n"));
	CHECK(run_child("nic_only_dpu", nic_only_dpu, (const char *const[]){cx, "SOFTDOCA_ROLE=dpu", NULL}, out,
			sizeof(out)));
	/* the default location is used when SOFTDOCA_CONFIG is unset */
	char xdg[300];

	snprintf(xdg, sizeof(xdg), "XDG_CONFIG_HOME=%s", scratch_dir);
	snprintf(cfg, sizeof(cfg), "%s/softdoca", scratch_dir);
	mkdir(cfg, 0700);
	write_file("softdoca/devices.conf", four_cards);
	CHECK(run_child("xdg_default", four_cards_host,
			(const char *const[]){"SOFTDOCA_CONFIG", xdg, "SOFTDOCA_ROLE=host", NULL}, out, sizeof(out)));
}

static void test_malformed(void)
{
	char env[300];
	const char *const e[] = {env, "SOFTDOCA_ROLE=host", NULL};

	snprintf(env, sizeof(env), "SOFTDOCA_CONFIG=%s",
		 write_file("devices.conf", "[card a]\nprofile = bf3\n\n# comment\nhost.pci = b1:00.0\n\nprofle = bf3\n"));
	expect_fail("unknown_key", e, DOCA_ERROR_BAD_CONFIG, "devices.conf:7: unknown key 'profle'");

	snprintf(env, sizeof(env), "SOFTDOCA_CONFIG=%s",
		 write_file("devices.conf", "[card a]\nprofile = bf3\n[card b]\nprofile = bf2\nhost.pci = b1:00.0\n"));
	expect_fail("duplicate_pci", e, DOCA_ERROR_BAD_CONFIG,
		    "devices.conf:5: PCI address 0000:b1:00.0 of card 'b' (host side) is already used by card 'a'");

	snprintf(env, sizeof(env), "SOFTDOCA_CONFIG=%s/missing.conf", scratch_dir);
	expect_fail("missing_file", e, DOCA_ERROR_BAD_CONFIG, "missing.conf: cannot read the device configuration");

	/* what is no configuration file is refused at once, the limit named */
	expect_fail("dev_zero", (const char *const[]){"SOFTDOCA_CONFIG=/dev/zero", "SOFTDOCA_ROLE=host", NULL},
		    DOCA_ERROR_BAD_CONFIG, "/dev/zero: the device configuration is a device; SOFTDOCA_CONFIG must name a regular file");
	/* a FIFO (or SOFTDOCA_CONFIG=<(...)) is read to its end; one nobody writes to is given up on */
	snprintf(env, sizeof(env), "SOFTDOCA_CONFIG=%s/fifo.conf", scratch_dir);
	CHECK(mkfifo(env + strlen("SOFTDOCA_CONFIG="), 0600) == 0);
	expect_fail("fifo", (const char *const[]){env, "SOFTDOCA_ROLE=host", "SOFTDOCA_PIPE_WAIT_MS=200", NULL},
		    DOCA_ERROR_BAD_CONFIG, "fifo.conf: the device configuration is a pipe, and nothing more came from it for 200 ms");
	{
		static const char text[] = "[card a]\nprofile = cx7\ndpu.pci = 03:00.0\n";
		pid_t w = fork();
		int st = -1;

		if (w == 0) {
			int fd;

			alarm(10); /* no reader: a failure, not a hang */
			fd = open(env + strlen("SOFTDOCA_CONFIG="), O_WRONLY);
			_exit(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : 1);
		}
		expect_fail("fifo_written", e, DOCA_ERROR_BAD_CONFIG,
			    "fifo.conf:3: dpu.pci: card 'a' is a ConnectX-7, which has no DPU side");
		CHECK(w > 0 && waitpid(w, &st, 0) == w && WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}

	/* a malformed file is refused whatever the role */
	snprintf(env, sizeof(env), "SOFTDOCA_CONFIG=%s", write_file("devices.conf", "[card a]\nprofile = cx7\ndpu.pci = 03:00.0\n"));
	expect_fail("dpu_keys_on_nic", (const char *const[]){env, "SOFTDOCA_ROLE=dpu", NULL}, DOCA_ERROR_BAD_CONFIG,
		    "devices.conf:3: dpu.pci: card 'a' is a ConnectX-7, which has no DPU side");
}

static void test_role(void)
{
	expect_fail("bad_role", (const char *const[]){"SOFTDOCA_CONFIG=builtin", "SOFTDOCA_ROLE=banana", NULL},
		    DOCA_ERROR_BAD_CONFIG, "SOFTDOCA_ROLE='banana' is not a role; set SOFTDOCA_ROLE=host or SOFTDOCA_ROLE=dpu");
}

static void run_dir_instance_child(void)
{
	FILE *f = fopen(getenv("TEST_OUT"), "w");

	list_open(2);
	CHECK(f != NULL);
	if (f) {
		fputs(list[0]->fn->card->instance, f);
		fclose(f);
	}
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static void instance_for(const char *run_dir, char *inst, size_t len)
{
	char rd[300], to[300];
	FILE *f;

	snprintf(rd, sizeof(rd), "SOFTDOCA_RUN_DIR=%s", run_dir);
	snprintf(to, sizeof(to), "TEST_OUT=%s/instance", scratch_dir);
	inst[0] = '\0';
	CHECK(run_child("instance", run_dir_instance_child,
			(const char *const[]){"SOFTDOCA_CONFIG=builtin", rd, to, NULL}, out, sizeof(out)));
	f = fopen(to + strlen("TEST_OUT="), "r");
	CHECK(f != NULL);
	if (f) {
		CHECK(fgets(inst, (int)len, f) != NULL);
		fclose(f);
	}
}

/* Run directories isolate instances: the same directory gives the same id in every process. */
static void test_run_dir(void)
{
	char a1[80], a2[80], b[80], dpu[80];
	char rd[300], to[300];
	FILE *f;

	instance_for("/tmp/softdoca-test-run-a", a1, sizeof(a1));
	instance_for("/tmp/softdoca-test-run-a/", a2, sizeof(a2));
	instance_for("/tmp/softdoca-test-run-b", b, sizeof(b));
	CHECK(strncmp(a1, "bf3-0@", 6) == 0);
	CHECK(strcmp(a1, a2) == 0);
	CHECK(strcmp(a1, b) != 0);
	/* the DPU side of the card in the same run directory is the same instance */
	snprintf(rd, sizeof(rd), "SOFTDOCA_RUN_DIR=%s", "/tmp/softdoca-test-run-a");
	snprintf(to, sizeof(to), "TEST_OUT=%s/instance", scratch_dir);
	CHECK(run_child("instance_dpu", run_dir_instance_child,
			(const char *const[]){"SOFTDOCA_CONFIG=builtin", "SOFTDOCA_ROLE=dpu", rd, to, NULL}, out,
			sizeof(out)));
	f = fopen(to + strlen("TEST_OUT="), "r");
	dpu[0] = '\0';
	if (f) {
		CHECK(fgets(dpu, sizeof(dpu), f) != NULL);
		fclose(f);
	}
	CHECK(strcmp(a1, dpu) == 0);
	/* loading the model does not create the run directory: that is lazy */
	struct stat st;

	CHECK(stat("/tmp/softdoca-test-run-b", &st) != 0);
}

/* With no SOFTDOCA_ROLE the process plays the side of the flavour it was linked with. */
static void flavour_child(void)
{
#ifdef TEST_FLAVOUR_DPU
	const char *want = "03:00.0", *other = "b1:00.0";
#else
	const char *want = "b1:00.0", *other = "03:00.0";
#endif
	const char *role = getenv("SOFTDOCA_ROLE");

	list_open(2);
	if (role && *role) /* overridden: the other side */
		want = other;
	CHECK(find(want) == list[0]);
	CHECK_OK(doca_devinfo_destroy_list(list));
}

static void test_flavour(void)
{
#ifdef TEST_FLAVOUR_DPU
	const char *override = "SOFTDOCA_ROLE=host";
#else
	const char *override = "SOFTDOCA_ROLE=dpu";
#endif
	CHECK(run_child("flavour", flavour_child, env_host, out, sizeof(out)));
	CHECK(run_child("flavour_override", flavour_child,
			(const char *const[]){"SOFTDOCA_CONFIG=builtin", override, NULL}, out, sizeof(out)));
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} scenarios[] = {
		{"default_host", test_default_host}, {"default_dpu", test_default_dpu}, {"refcount", test_refcount},
		{"config", test_config},             {"malformed", test_malformed},     {"role", test_role},
		{"run_dir", test_run_dir},           {"flavour", test_flavour},
	};

	scratch_init();
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		if (argc > 1 && strcmp(argv[1], scenarios[i].name) != 0)
			continue;
		TEST_RUN(scenarios[i].fn);
	}
	scratch_cleanup();
	TEST_EXIT();
}
