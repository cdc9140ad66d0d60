/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The device model's internals, linked in statically: PCI address parsing, every kind of
 * configuration mistake (each named by file and line), defaults, representor placement,
 * instance ids and the run directory.
 */
#include <errno.h>
#include <time.h>

#include "softhw/model/model_priv.h"
#include "child.h"

/* This test is its own "flavour": the model reads the role from here. */
const enum softhw_role softhw_flavour_role = SOFTHW_ROLE_HOST;

static char out[CHILD_OUT_MAX];

/* Runs fn with stderr captured into `out`. */
static doca_error_t captured(doca_error_t (*fn)(void *), void *arg)
{
	char path[96];
	int fd, saved;
	ssize_t n;
	doca_error_t err;

	snprintf(path, sizeof(path), "%s/stderr-XXXXXX", scratch_dir);
	fd = mkstemp(path);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(fd, STDERR_FILENO);
	err = fn(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, out, sizeof(out) - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	return err;
}

static void test_pci_parse(void)
{
	static const struct {
		const char *in, *want;
	} good[] = {
		{"b1:00.0", "0000:b1:00.0"},      {"0000:b1:00.1", "0000:b1:00.1"}, {"B1:00.0", "0000:b1:00.0"},
		{"0000:B1:1F.7", "0000:b1:1f.7"}, {"3:0.0", "0000:03:00.0"},        {"ABCD:ff:1f.7", "abcd:ff:1f.7"},
	};
	static const char *const bad[] = {"",        "b1",      "b1:00",    "b1:00.",  "b1:00.8",      "b1:20.0",
					  "100:00.0", "x1:00.0", "b1:00.0x", ":00.0",   "0:0:0:00.0",   "10000:b1:00.0",
					  "b1.00.0", " b1:00.0", "b1:00.0 ", "b1::00.0", "b1:00.00"};
	char canon[SOFTHW_PCI_ADDR_LEN];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		CHECK(softhw_pci_addr_parse(good[i].in, canon));
		CHECK(strcmp(canon, good[i].want) == 0);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(!softhw_pci_addr_parse(bad[i], canon));
		if (softhw_pci_addr_parse(bad[i], canon))
			fprintf(stderr, "  accepted '%s'\n", bad[i]);
	}
	CHECK(!softhw_pci_addr_parse(NULL, canon));
}

/* ---- configuration files ------------------------------------------------------------------ */

static struct model_config cfg;
static struct softhw_model model;
static const char *conf_path;
static enum softhw_role build_role;
static const char *build_run_dir = "/tmp/softdoca-test-run";

static doca_error_t load(void *arg)
{
	doca_error_t err = model_config_parse(conf_path, &cfg);

	if (err == DOCA_SUCCESS)
		err = model_build(&cfg, conf_path, build_role, build_run_dir, &model);
	return err;
}

/* Loads `text` as devices.conf for `role`; returns the result, messages in `out`. */
static doca_error_t load_text(const char *text, enum softhw_role role)
{
	conf_path = write_file("devices.conf", text);
	build_role = role;
	return captured(load, NULL);
}

static void test_malformed(void)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{"[card a]\nprofile = bf3\n\nprofle = bf3\n", "devices.conf:4: unknown key 'profle'; known keys: profile,"},
		{"profile = bf3\n", "devices.conf:1: 'profile' is outside any card; start the card with a [card NAME] line"},
		{"[card a]\nprofile bf3\n", "devices.conf:2: 'profile bf3' is neither 'key = value' nor a [card NAME] header"},
		{"[card a\nprofile = bf3\n", "devices.conf:1: section header '[card a' lacks its closing ']'"},
		{"[host a]\n", "devices.conf:1: unknown section '[host a]'; sections are [card NAME]"},
		{"[card]\n", "devices.conf:1: card name '' is not valid"},
		{"[card a b]\n", "devices.conf:1: card name 'a b' is not valid"},
		{"[card a]\nprofile = bf3\n[card a]\nprofile = bf3\n", "devices.conf:3: card 'a' is defined twice (first at line 1)"},
		{"[card a]\nprofile = bf4\n", "devices.conf:2: unknown profile 'bf4'; profiles: cx6dx (ConnectX-6 Dx)"},
		{"[card a]\nprofile = bf3\nprofile = bf2\n", "devices.conf:3: 'profile' is set twice in card 'a'"},
		{"[card a]\nhost.pci = b1:00.0\n", "devices.conf:1: card 'a' has no profile; add e.g. 'profile = bf3'"},
		{"[card a]\nprofile = bf3\nhost.pci = zz:00.0\n",
		 "devices.conf:3: host.pci: 'zz:00.0' is not a PCI address; write BB:DD.F or DDDD:BB:DD.F"},
		{"[card a]\nprofile = bf3\nhost.mac = 02:00:00:00:00\n", "devices.conf:3: host.mac: '02:00:00:00:00' is not a MAC"},
		{"[card a]\nprofile = bf3\ndpu.ipv4 = 127.0.0.300\n", "devices.conf:3: dpu.ipv4: '127.0.0.300' is not an IPv4"},
		{"[card a]\nprofile = bf3\nhost.ipv6 = fe80::g\n", "devices.conf:3: host.ipv6: 'fe80::g' is not an IPv6"},
		{"[card a]\nprofile = bf3\nhost.gid = 1.2.3.4\n", "devices.conf:3: host.gid: '1.2.3.4' is not a GID"},
		{"[card a]\nprofile = bf3\nhost.type = pf xf\n", "devices.conf:3: host.type: 'xf' is not a function type"},
		{"[card a]\nprofile = bf3\nhost.sf_index = -1\n", "devices.conf:3: host.sf_index: '-1' is not a number"},
		{"[card a]\nprofile = bf3\nhost.iface = a_very_long_interface\n",
		 "devices.conf:3: host.iface: 'a_very_long_interface' is not an interface name"},
		{"[card a]\nprofile = bf3\nhost.ibdev =\n", "devices.conf:3: 'host.ibdev' has no value"},
		{"[card a]\nprofile = bf3\nhost.pci = b1:00.0\nhost.pci = b1:00.1\n",
		 "devices.conf:4: 'host.pci' is set twice in card 'a' (first at line 3)"},
		{"[card a]\nprofile = bf3\nhost.pci = 1:0.0 1:0.1 1:0.2 1:0.3 1:0.4 1:0.5 1:0.6 1:0.7 2:0.0\n",
		 "devices.conf:3: host.pci: more than 8 functions"},
		{"[card a]\nprofile = bf3\nhost.ibdev = x\nhost.pci = b1:00.0, b1:00.1\n",
		 "devices.conf:3: host.ibdev has 1 entries but host.pci has 2"},
		{"[card a]\nprofile = cx6dx\n\ndpu.iface = p0\n", "devices.conf:4: dpu.iface: card 'a' is a ConnectX-6 Dx, which has no DPU side"},
		{"[card a]\nprofile = bf3\n[card b]\nprofile = bf3\nhost.pci = b1:00.1\n",
		 "devices.conf:5: PCI address 0000:b1:00.1 of card 'b' (host side) is already used by card 'a'"},
		{"[card a]\nprofile = bf3\n[card b]\nprofile = bf3\ndpu.ibdev = mlx5_1 mlx5_7\n",
		 "devices.conf:5: ibdev name mlx5_1 of card 'b' (dpu side) is already used by card 'a'"},
		{"[card a]\nprofile = bf3\nhost.iface = x x\n", "devices.conf:3: interface name x of card 'a' (host side) is already used by card 'a'"},
		{"[card a]\nprofile = bf3\ndpu.ipv4 = 127.0.0.1 127.0.0.9\n",
		 "devices.conf:3: IPv4 address of 0000:03:00.0 (card 'a', dpu side) equals that of 0000:b1:00.0 (card 'a', host side)"},
		{"[card a]\nprofile = bf3\nhost.mac = 02:00:00:00:00:01 02:00:00:00:00:01\n",
		 "devices.conf:3: MAC address of 0000:b1:00.1 (card 'a', host side) equals that of 0000:b1:00.0"},
		{"[card a]\nprofile = bf3\nhost.gid = ::ffff:127.0.0.3 ::1\n",
		 "devices.conf:1: GID of 0000:03:00.0 (card 'a', dpu side) equals that of 0000:b1:00.0"},
		{"# nothing but comments\n\n", "devices.conf: defines no card; add a [card NAME] section"},
		{"[card a]\nprofile = bf3\nwire = roce\n",
		 "devices.conf:3: wire: unknown value 'roce'; use stream (the default) or rocev2"},
		{"[card a]\nprofile = bf3\nwire = rocev2\nwire = stream\n",
		 "devices.conf:4: 'wire' is set twice in card 'a' (first at line 3)"},
		{"[card a]\nprofile = bf3\nwire = rocev2\nhost.ipv4 = 10.0.0.1 none\n",
		 "devices.conf:4: host.ipv4: card 'a' has wire = rocev2, which needs an IPv4 address on every function"},
	};
	char long_line[4200];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* a mistake fails the load for either role */
		for (int role = 0; role < 2; role++) {
			CHECK_ERR(load_text(cases[i].text, (enum softhw_role)role), DOCA_ERROR_BAD_CONFIG);
			CHECK(strstr(out, cases[i].msg) != NULL);
			if (strstr(out, cases[i].msg) == NULL)
				fprintf(stderr, "  case %zu: expected '%s', got: %s", i, cases[i].msg, out);
			CHECK(strncmp(out, "softdoca: ", 10) == 0 && strchr(out, '\n') == out + strlen(out) - 1);
		}
	}
	memset(long_line, 'x', sizeof(long_line));
	memcpy(long_line, "[card a]\nprofile = bf3\n# ", 25);
	long_line[sizeof(long_line) - 2] = '\n';
	long_line[sizeof(long_line) - 1] = '\0';
	CHECK_ERR(load_text(long_line, SOFTHW_ROLE_HOST), DOCA_ERROR_BAD_CONFIG);
	CHECK(strstr(out, "devices.conf:3: line longer than the limit of 4096 characters") != NULL);

	conf_path = "/nonexistent/devices.conf";
	CHECK_ERR(captured(load, NULL), DOCA_ERROR_BAD_CONFIG);
	CHECK(strstr(out, "/nonexistent/devices.conf: cannot read the device configuration") != NULL);
}

/* Loads the file at `path` (not written by the test) and says how long that took. */
static doca_error_t load_path(const char *path, double *secs)
{
	struct timespec t0, t1;
	doca_error_t err;

	conf_path = path;
	build_role = SOFTHW_ROLE_HOST;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = captured(load, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	return err;
}

/* A text of exactly `size` bytes: one card, then comment lines of `line_len` characters. */
static char *config_of_size(size_t size, size_t line_len)
{
	static const char head[] = "[card a]\nprofile = bf3\n";
	char *t = malloc(size + 1);
	size_t at = sizeof(head) - 1;

	if (t == NULL)
		return NULL;
	memcpy(t, head, at);
	while (at < size) {
		size_t n = size - at < line_len + 1 ? size - at : line_len + 1;

		memset(t + at, 'x', n);
		t[at] = '#';
		t[at + n - 1] = '\n';
		at += n;
	}
	t[size] = '\0';
	return t;
}

/*
 * What is no configuration file is refused at once, with the limit named: a device that never
 * ends (/dev/zero), a FIFO nobody writes to (given up on after SOFTDOCA_PIPE_WAIT_MS), a directory, a file
 * over the size limit (a sparse 100 MB one), NUL bytes, a line over the line limit. The limits
 * themselves are fine. A hang would end with SIGALRM (a failure).
 */
static void test_file_limits(void)
{
	char fifo[128], *text;
	double secs = 0;

	alarm(30);
	CHECK_ERR(load_path("/dev/zero", &secs), DOCA_ERROR_BAD_CONFIG);
	CHECK(strstr(out, "/dev/zero: the device configuration is a device; SOFTDOCA_CONFIG must name a regular file or a pipe (of at most 1048576 bytes)") != NULL);
	CHECK(secs < 1);

	snprintf(fifo, sizeof(fifo), "%s/fifo.conf", scratch_dir);
	CHECK(mkfifo(fifo, 0600) == 0);
	setenv("SOFTDOCA_PIPE_WAIT_MS", "200", 1);
	CHECK_ERR(load_path(fifo, &secs), DOCA_ERROR_BAD_CONFIG);
	unsetenv("SOFTDOCA_PIPE_WAIT_MS");
	CHECK(strstr(out, "fifo.conf: the device configuration is a pipe, and nothing more came from it for 200 ms") != NULL);
	CHECK(secs < 1);
	unlink(fifo);

	CHECK_ERR(load_path(scratch_dir, &secs), DOCA_ERROR_BAD_CONFIG);
	CHECK(strstr(out, "the device configuration is a directory") != NULL);

	/* 100 MB: a valid card, then (sparse) zeros */
	conf_path = write_file("huge.conf", "[card a]\nprofile = bf3\n");
	CHECK(truncate(conf_path, 100 << 20) == 0);
	CHECK_ERR(load_path(conf_path, &secs), DOCA_ERROR_BAD_CONFIG);
	CHECK(strstr(out, "huge.conf: the device configuration is 104857600 bytes, more than the limit of 1048576 bytes") != NULL);
	CHECK(secs < 1);
	unlink(conf_path);

	/* exactly the size limit is fine, a byte more is not */
	text = config_of_size(1u << 20, 200);
	CHECK(text != NULL);
	if (text != NULL) {
		CHECK_OK(load_text(text, SOFTHW_ROLE_HOST));
		free(text);
	}
	text = config_of_size((1u << 20) + 1, 200);
	if (text != NULL) {
		CHECK_ERR(load_text(text, SOFTHW_ROLE_HOST), DOCA_ERROR_BAD_CONFIG);
		CHECK(strstr(out, "is 1048577 bytes, more than the limit of 1048576 bytes") != NULL);
		free(text);
	}
	/* a line of 4096 characters is fine, one of 4097 is not */
	text = config_of_size(23 + 4097, 4096);
	if (text != NULL) {
		CHECK_OK(load_text(text, SOFTHW_ROLE_HOST));
		free(text);
	}
	text = config_of_size(23 + 4098, 4097);
	if (text != NULL) {
		CHECK_ERR(load_text(text, SOFTHW_ROLE_HOST), DOCA_ERROR_BAD_CONFIG);
		CHECK(strstr(out, "devices.conf:3: line longer than the limit of 4096 characters") != NULL);
		free(text);
	}
	/* a NUL byte: not a text file (and not the end of it) */
	{
		static const char nul_text[] = "[card a]\nprofile = bf3\n# a\0b\n[card b]\n";
		FILE *f;

		conf_path = write_file("nul.conf", "");
		f = fopen(conf_path, "w");
		CHECK(f != NULL && fwrite(nul_text, 1, sizeof(nul_text) - 1, f) == sizeof(nul_text) - 1);
		if (f != NULL)
			fclose(f);
		CHECK_ERR(load_path(conf_path, &secs), DOCA_ERROR_BAD_CONFIG);
		CHECK(strstr(out, "nul.conf:3: holds a NUL byte") != NULL);
	}
	alarm(0);
}

static void test_valid_config(void)
{
	const struct softhw_function *fn;

	/* comments, blank lines, CRLF, commas and blanks, any case */
	CHECK_OK(load_text("; a comment\r\n"
			   "  [ card  edge ]  \r\n"
			   "profile=BlueField-2\r\n"
			   "host.pci = 0000:5E:00.0,0000:5e:00.1 ,5e:00.2   # three host PFs\r\n"
			   "host.type = pf, pf, sf\r\n"
			   "host.sf_index = 0 0 42\r\n"
			   "dpu.pci = 06:00.0 06:00.1\r\n"
			   "dpu.mac = 0a:0b:0c:0d:0e:0f AA:BB:CC:DD:EE:FF\r\n"
			   "dpu.ipv6 = fd00::1 fd00::2\r\n"
			   "dpu.gid = fd00::1 fd00::2\r\n",
			   SOFTHW_ROLE_HOST));
	CHECK(out[0] == '\0');
	CHECK(model.num_cards == 1 && strcmp(model.cards[0].name, "edge") == 0);
	CHECK(model.cards[0].profile == SOFTHW_PROFILE_BF2 && model.cards[0].has_dpu);
	CHECK(model.num_functions == 3);
	fn = &model.functions[2];
	CHECK(strcmp(fn->pci_addr, "0000:5e:00.2") == 0);
	CHECK(fn->func_type == DOCA_PCI_FUNC_TYPE_SF && fn->sf_index == 42);
	CHECK(fn->vhca_id == 4); /* after the two DPU functions */
	CHECK(fn->num_reps == 0 && fn->reps == NULL);
	CHECK(strcmp(softhw_model_source(&model), conf_path) == 0);
	CHECK(model.cards[0].wire == SOFTHW_WIRE_STREAM); /* the default */

	/* wire = rocev2: the card's functions keep their (default) IPv4 addresses and GIDs */
	CHECK_OK(load_text("[card a]\nprofile = bf3\nwire = RoCEv2\n[card b]\nprofile = cx7\nwire = stream\n",
			   SOFTHW_ROLE_HOST));
	CHECK(out[0] == '\0');
	CHECK(model.cards[0].wire == SOFTHW_WIRE_ROCEV2 && model.cards[1].wire == SOFTHW_WIRE_STREAM);
	CHECK(model.functions[0].has_ipv4 && model.functions[0].gid[10] == 0xff &&
	      memcmp(&model.functions[0].gid[12], model.functions[0].ipv4, 4) == 0);

	/* the DPU view: explicit MACs; host PFs 0 and 2 hang off DPU PF 0, host PF 1 off DPU PF 1 */
	CHECK_OK(load_text("[card edge]\nprofile = bf2\nhost.pci = 5e:00.0 5e:00.1 5e:00.2\n"
			   "dpu.mac = 0a:0b:0c:0d:0e:0f AA:BB:CC:DD:EE:FF\n",
			   SOFTHW_ROLE_DPU));
	CHECK(model.num_functions == 2);
	fn = &model.functions[1];
	CHECK(memcmp(fn->mac, (uint8_t[]){0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff}, 6) == 0);
	CHECK(fn->ipv6[8] == (0xaa ^ 0x02) && fn->ipv6[11] == 0xff && fn->ipv6[12] == 0xfe);
	CHECK(model.functions[0].num_reps == 2 && model.functions[1].num_reps == 1);
	CHECK(strcmp(model.functions[0].reps[0].pci_addr, "0000:5e:00.0") == 0);
	CHECK(strcmp(model.functions[0].reps[1].pci_addr, "0000:5e:00.2") == 0);
	CHECK(strcmp(model.functions[1].reps[0].pci_addr, "0000:5e:00.1") == 0);
	CHECK(strcmp(model.functions[0].reps[1].vuid, "softdoca-edge-hpf2") == 0);
	CHECK(model.functions[0].reps[1].vhca_id == 4);
	CHECK(softhw_model_role(&model) == SOFTHW_ROLE_DPU);
	CHECK(softhw_model_num_functions(&model) == 2);
	CHECK(softhw_model_function(&model, 1) == &model.functions[1]);
	CHECK(softhw_model_function(&model, 2) == NULL);
}

/* [access]: who besides this user may reach the rendezvous points (fabric/peer.h). */
static void test_access(void)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{"[card a]\nprofile = bf3\n[access]\nallow = 1\n",
		 "devices.conf:4: unknown key 'allow' in [access]; known keys: allow_uids, allow_group"},
		{"[card a]\nprofile = bf3\n[access]\nallow_uids = 1\nallow_uids = 2\n",
		 "devices.conf:5: 'allow_uids' is set twice in [access] (first at line 4)"},
		{"[card a]\nprofile = bf3\n[access]\n[access]\n", "devices.conf:4: [access] appears twice (first at line 3)"},
		{"[card a]\nprofile = bf3\n[access]\nallow_uids =\n", "devices.conf:4: 'allow_uids' has no value"},
		{"[card a]\nprofile = bf3\n[access]\nallow_uids = 1 no-such-user-here\n",
		 "devices.conf:4: allow_uids: 'no-such-user-here' is neither a number nor a known user"},
		{"[card a]\nprofile = bf3\n[access]\nallow_group = 1 2\n", "devices.conf:4: allow_group takes one group"},
		{"[card a]\nprofile = bf3\n[access]\nallow_group = no-such-group-here\n",
		 "devices.conf:4: allow_group: 'no-such-group-here' is neither a number nor a known group"},
		{"[card a]\nprofile = bf3\n[access]\nallow_uids = 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n",
		 "devices.conf:4: allow_uids: more than 16 users; use allow_group"},
		{"[access]\nallow_uids = 1\nprofile = bf3\n", "devices.conf:3: unknown key 'profile' in [access]"},
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_ERR(load_text(bad[i].text, SOFTHW_ROLE_HOST), DOCA_ERROR_BAD_CONFIG);
		CHECK(strstr(out, bad[i].msg) != NULL);
		if (strstr(out, bad[i].msg) == NULL)
			fprintf(stderr, "  case %zu: expected '%s', got: %s", i, bad[i].msg, out);
	}
	/* numbers and names (root is 0 everywhere), before or after the cards */
	CHECK_OK(load_text("[access]\nallow_uids = 1001, root 65534\nallow_group = root\n[card a]\nprofile = bf3\n",
			   SOFTHW_ROLE_HOST));
	CHECK(model.access.num_uids == 3 && model.access.uids[0] == 1001 && model.access.uids[1] == 0 &&
	      model.access.uids[2] == 65534);
	CHECK(model.access.has_group && model.access.gid == 0);
	CHECK(model.cards[0].access == &model.access);
	CHECK_OK(load_text("[card a]\nprofile = bf3\n[access]\nallow_group = 4242\n", SOFTHW_ROLE_HOST));
	CHECK(model.access.num_uids == 0 && model.access.has_group && model.access.gid == 4242);
	/* none: the same user only */
	CHECK_OK(load_text("[card a]\nprofile = bf3\n", SOFTHW_ROLE_HOST));
	CHECK(model.access.num_uids == 0 && !model.access.has_group);
}

/* faults.*: what a card gets wrong on purpose; every mistake named, the side chosen, the counts kept. */
static void test_faults(void)
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{"[card a]\nprofile = bf3\nfaults.dma_errors = 3\n",
		 "devices.conf:3: unknown key 'faults.dma_errors'; the faults keys are faults.<k> with <k> one of dma_error, "
		 "rdma_error, disconnect, drop, delay, jitter, side, seed"},
		{"[card a]\nprofile = bf3\nfaults.dma_error = 0\n", "devices.conf:3: faults.dma_error: '0' is not a count"},
		{"[card a]\nprofile = bf3\nfaults.rdma_error = -2\n", "devices.conf:3: faults.rdma_error: '-2' is not a count"},
		{"[card a]\nprofile = bf3\nfaults.disconnect = 0\n", "devices.conf:3: faults.disconnect: '0' is not a count"},
		{"[card a]\nprofile = bf3\nwire = rocev2\nhost.ipv4 = 127.0.0.9\nfaults.delay = 5s\n",
		 "devices.conf:5: faults.delay: '5s' is not a time; give milliseconds from 0 to 60000"},
		{"[card a]\nprofile = bf3\nwire = rocev2\nhost.ipv4 = 127.0.0.9\nfaults.jitter = 60001\n",
		 "devices.conf:5: faults.jitter: '60001' is not a time"},
		{"[card a]\nprofile = bf3\nfaults.delay = 2ms\n",
		 "devices.conf:3: faults.delay: card 'a' carries RDMA on streams (wire = stream), which have no datagrams"},
		{"[card a]\nprofile = bf3\nfaults.rdma_error = 5x\n", "devices.conf:3: faults.rdma_error: '5x' is not a count"},
		{"[card a]\nprofile = bf3\nfaults.rdma_error = 2000000000\n",
		 "devices.conf:3: faults.rdma_error: '2000000000' is not a count; give N from 1 to 1000000000"},
		{"[card a]\nprofile = bf3\nwire = rocev2\nfaults.drop = 120%\n",
		 "devices.conf:4: faults.drop: '120%' is not a share; give a percentage (2%) or a fraction (0.02)"},
		{"[card a]\nprofile = bf3\nwire = rocev2\nfaults.drop = 1.5\n", "devices.conf:4: faults.drop: '1.5' is not a share"},
		{"[card a]\nprofile = bf3\nwire = rocev2\nfaults.drop = nan\n", "devices.conf:4: faults.drop: 'nan' is not a share"},
		{"[card a]\nprofile = bf3\nwire = rocev2\nfaults.drop = 2%%\n", "devices.conf:4: faults.drop: '2%%' is not a share"},
		{"[card a]\nprofile = bf3\nfaults.drop = 2%\n",
		 "devices.conf:3: faults.drop: card 'a' carries RDMA on reliable streams (wire = stream), which lose nothing; "
		 "set wire = rocev2"},
		{"[card a]\nprofile = bf3\nfaults.side = arm\n",
		 "devices.conf:3: faults.side: unknown side 'arm'; use host, dpu or both (the default)"},
		{"[card a]\nprofile = cx7\nfaults.rdma_error = 2\nfaults.side = dpu\n",
		 "devices.conf:4: faults.side: card 'a' is a ConnectX-7, which has no DPU side; use host or both"},
		{"[card a]\nprofile = bf3\nfaults.seed = x\n", "devices.conf:3: faults.seed: 'x' is not a number"},
		{"[card a]\nprofile = bf3\nfaults.rdma_error = 2\nfaults.rdma_error = 3\n",
		 "devices.conf:4: 'faults.rdma_error' is set twice in card 'a' (first at line 3)"},
	};
	struct softhw_faults *f;
	unsigned hits = 0, first = 0;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_ERR(load_text(bad[i].text, SOFTHW_ROLE_HOST), DOCA_ERROR_BAD_CONFIG);
		CHECK(strstr(out, bad[i].msg) != NULL);
		if (strstr(out, bad[i].msg) == NULL)
			fprintf(stderr, "  case %zu: expected '%s', got: %s", i, bad[i].msg, out);
	}
	/* none: no pointer, and softhw_fault_hit says no */
	CHECK_OK(load_text("[card a]\nprofile = bf3\n", SOFTHW_ROLE_HOST));
	CHECK(model.cards[0].faults == NULL && !softhw_fault_hit(NULL, SOFTHW_FAULT_RDMA_ERROR));

	/* every 3rd DMA copy, every 4th RDMA work request, a cut every 5th; the other card has none */
	CHECK_OK(load_text("[card a]\nprofile = bf3\nfaults.dma_error = 3\nfaults.rdma_error = 4\nfaults.disconnect = 5\n"
			   "[card b]\nprofile = bf3\n", SOFTHW_ROLE_DPU));
	CHECK(out[0] == '\0');
	f = model.cards[0].faults;
	CHECK(f != NULL && model.cards[1].faults == NULL);
	for (unsigned i = 1; i <= 12; i++) {
		CHECK(softhw_fault_hit(f, SOFTHW_FAULT_DMA_ERROR) == (i % 3 == 0));
		CHECK(softhw_fault_hit(f, SOFTHW_FAULT_RDMA_ERROR) == (i % 4 == 0));
		CHECK(softhw_fault_hit(f, SOFTHW_FAULT_DISCONNECT) == (i % 5 == 0));
		CHECK(!softhw_fault_hit(f, SOFTHW_FAULT_DROP)); /* not configured */
	}
	CHECK(f->seen[SOFTHW_FAULT_DMA_ERROR] == 12 && f->hits[SOFTHW_FAULT_DMA_ERROR] == 4);
	CHECK(f->hits[SOFTHW_FAULT_RDMA_ERROR] == 3 && f->hits[SOFTHW_FAULT_DROP] == 0);
	CHECK(f->hits[SOFTHW_FAULT_DISCONNECT] == 2);
	CHECK(strcmp(softhw_fault_key(SOFTHW_FAULT_DROP), "faults.drop") == 0);
	CHECK(strcmp(softhw_fault_key(SOFTHW_FAULT_DISCONNECT), "faults.disconnect") == 0);

	/* faults.side: the other side has none */
	CHECK_OK(load_text("[card a]\nprofile = bf3\nfaults.rdma_error = 4\nfaults.side = DPU\n", SOFTHW_ROLE_HOST));
	CHECK(model.cards[0].faults == NULL);
	CHECK_OK(load_text("[card a]\nprofile = bf3\nfaults.rdma_error = 4\nfaults.side = dpu\n", SOFTHW_ROLE_DPU));
	CHECK(model.cards[0].faults != NULL && model.cards[0].faults->every[SOFTHW_FAULT_RDMA_ERROR] == 4);

	/* drop: 20% of 100000 lands near 20000; the same seed gives the same losses, another seed others */
	CHECK_OK(load_text("[card a]\nprofile = bf3\nwire = rocev2\nfaults.drop = 20%\nfaults.seed = 0x2a\n",
			   SOFTHW_ROLE_HOST));
	f = model.cards[0].faults;
	CHECK(f != NULL && f->drop_ppm == 200000);
	for (unsigned i = 0; i < 100000; i++)
		if (softhw_fault_hit(f, SOFTHW_FAULT_DROP)) {
			hits++;
			first = first == 0 ? i + 1 : first;
		}
	CHECK(hits > 19000 && hits < 21000 && f->hits[SOFTHW_FAULT_DROP] == hits);
	CHECK_OK(load_text("[card a]\nprofile = bf3\nwire = rocev2\nfaults.drop = 0.2\nfaults.seed = 42\n",
			   SOFTHW_ROLE_HOST));
	f = model.cards[0].faults;
	CHECK(f->drop_ppm == 200000);
	for (unsigned i = 0; i < first; i++)
		CHECK(softhw_fault_hit(f, SOFTHW_FAULT_DROP) == (i + 1 == first));
	CHECK_OK(load_text("[card a]\nprofile = bf3\nwire = rocev2\nfaults.drop = 100%\n", SOFTHW_ROLE_HOST));
	CHECK(softhw_fault_hit(model.cards[0].faults, SOFTHW_FAULT_DROP));
	/* delay 2 ms and a jitter of 3: every hold within 2..5 ms, both ends met; the seed repeats them */
	{
		uint32_t seen_lo = 0, seen_hi = 0, firsts[8];

		CHECK_OK(load_text("[card a]\nprofile = bf3\nwire = rocev2\nfaults.delay = 2ms\nfaults.jitter = 3\n",
				   SOFTHW_ROLE_HOST));
		f = model.cards[0].faults;
		CHECK(f != NULL && f->delay_ms == 2 && f->jitter_ms == 3 && f->every[SOFTHW_FAULT_RDMA_ERROR] == 0);
		for (unsigned i = 0; i < 10000; i++) {
			uint32_t ms = softhw_fault_delay_ms(f);

			CHECK(ms >= 2 && ms <= 5);
			seen_lo += ms == 2;
			seen_hi += ms == 5;
			if (i < 8)
				firsts[i] = ms;
		}
		CHECK(seen_lo > 1500 && seen_hi > 1500 && f->delayed == 10000);
		CHECK(!softhw_fault_hit(f, SOFTHW_FAULT_DROP)); /* a delay loses nothing */
		CHECK_OK(load_text("[card a]\nprofile = bf3\nwire = rocev2\nfaults.delay = 2\nfaults.jitter = 3ms\n",
				   SOFTHW_ROLE_HOST));
		for (unsigned i = 0; i < 8; i++)
			CHECK(softhw_fault_delay_ms(model.cards[0].faults) == firsts[i]);
		CHECK_OK(load_text("[card a]\nprofile = bf3\nwire = rocev2\nfaults.delay = 7\n", SOFTHW_ROLE_HOST));
		CHECK(softhw_fault_delay_ms(model.cards[0].faults) == 7);
		CHECK_OK(load_text("[card a]\nprofile = bf3\nwire = rocev2\nfaults.delay = 0ms\n", SOFTHW_ROLE_HOST));
		CHECK(model.cards[0].faults == NULL && softhw_fault_delay_ms(NULL) == 0);
	}
	/* a drop of 0 is no fault at all */
	CHECK_OK(load_text("[card a]\nprofile = bf3\nwire = rocev2\nfaults.drop = 0%\n", SOFTHW_ROLE_HOST));
	CHECK(model.cards[0].faults == NULL);
}

static void test_profiles(void)
{
	enum softhw_profile p;

	CHECK(model_profile_lookup("cx6dx", &p) && p == SOFTHW_PROFILE_CX6DX);
	CHECK(model_profile_lookup("ConnectX-6 Dx", &p) && p == SOFTHW_PROFILE_CX6DX);
	CHECK(model_profile_lookup("CONNECTX-7", &p) && p == SOFTHW_PROFILE_CX7);
	CHECK(model_profile_lookup("bluefield2", &p) && p == SOFTHW_PROFILE_BF2);
	CHECK(model_profile_lookup("BlueField-3", &p) && p == SOFTHW_PROFILE_BF3);
	CHECK(!model_profile_lookup("bf4", &p));
	CHECK(strcmp(softhw_profile_name(SOFTHW_PROFILE_CX7), "ConnectX-7") == 0);
	CHECK(strcmp(softhw_profile_name(SOFTHW_PROFILE_COUNT), "unknown") == 0);
	/* every side that exists can run DMA memcpy: the PE samples need it on the host side */
	for (int i = 0; i < SOFTHW_PROFILE_COUNT; i++) {
		const struct model_profile *prof = model_profile((enum softhw_profile)i);

		CHECK(prof->caps[MODEL_SIDE_HOST].dma_memcpy);
		CHECK(!prof->caps[MODEL_SIDE_HOST].rep_filter_all);
		CHECK(prof->has_dpu == prof->caps[MODEL_SIDE_DPU].dma_memcpy);
		CHECK(prof->has_dpu == prof->caps[MODEL_SIDE_DPU].rep_filter_net);
		CHECK(prof->has_dpu == prof->caps[MODEL_SIDE_HOST].mmap_export_pci);
	}
}

static void test_instances(void)
{
	char a[SOFTHW_MAX_STR], b[SOFTHW_MAX_STR];

	model_config_default(&cfg);
	CHECK_OK(model_build(&cfg, NULL, SOFTHW_ROLE_HOST, "/tmp/run-a", &model));
	strcpy(a, model.cards[0].instance);
	CHECK(strcmp(softhw_model_source(&model), "built-in default") == 0);
	CHECK(strcmp(softhw_model_run_dir(&model), "/tmp/run-a") == 0);
	CHECK_OK(model_build(&cfg, NULL, SOFTHW_ROLE_DPU, "/tmp/run-a", &model));
	CHECK(strcmp(a, model.cards[0].instance) == 0); /* both sides of a card agree */
	CHECK_OK(model_build(&cfg, NULL, SOFTHW_ROLE_HOST, "/tmp/run-b", &model));
	strcpy(b, model.cards[0].instance);
	CHECK(strcmp(a, b) != 0);
	CHECK(strncmp(a, "bf3-0@", 6) == 0 && strlen(a) == 6 + 16);
	/* two cards in one run directory are two instances */
	CHECK_OK(load_text("[card x]\nprofile = bf3\n[card y]\nprofile = bf3\n", SOFTHW_ROLE_HOST));
	CHECK(strcmp(model.cards[0].instance, model.cards[1].instance) != 0);
	CHECK(model.functions[2].card == &model.cards[1] && model.cards[1].index == 1);
}

static doca_error_t make_run_dir(void *arg)
{
	return softhw_model_run_dir_create(arg);
}

static void test_run_dir_create(void)
{
	char dir[256];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s/run/nested/dir", scratch_dir);
	model_config_default(&cfg);
	CHECK_OK(model_build(&cfg, NULL, SOFTHW_ROLE_HOST, dir, &model));
	CHECK(stat(dir, &st) != 0); /* nothing created before it is needed */
	CHECK_OK(captured(make_run_dir, &model));
	CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700);
	CHECK_OK(captured(make_run_dir, &model)); /* again: already there */
	/* a file in the way is reported, naming the variable to change */
	write_file("notadir", "");
	snprintf(dir, sizeof(dir), "%s/notadir", scratch_dir);
	CHECK_OK(model_build(&cfg, NULL, SOFTHW_ROLE_HOST, dir, &model));
	CHECK_ERR(captured(make_run_dir, &model), DOCA_ERROR_OPERATING_SYSTEM);
	CHECK(strstr(out, "set SOFTDOCA_RUN_DIR") != NULL);
	snprintf(dir, sizeof(dir), "%s/notadir/below", scratch_dir);
	CHECK_OK(model_build(&cfg, NULL, SOFTHW_ROLE_HOST, dir, &model));
	CHECK_ERR(captured(make_run_dir, &model), DOCA_ERROR_OPERATING_SYSTEM);
	/* one others can write, or a symlink (its target can change under us), is not ours alone */
	snprintf(dir, sizeof(dir), "%s/run/nested/dir", scratch_dir);
	CHECK_OK(model_build(&cfg, NULL, SOFTHW_ROLE_HOST, dir, &model));
	CHECK(chmod(dir, 0777) == 0);
	CHECK_ERR(captured(make_run_dir, &model), DOCA_ERROR_OPERATING_SYSTEM);
	CHECK(strstr(out, "set SOFTDOCA_RUN_DIR") != NULL);
	CHECK(chmod(dir, 0700) == 0);
	CHECK_OK(captured(make_run_dir, &model));
	snprintf(dir, sizeof(dir), "%s/run/link", scratch_dir);
	CHECK(symlink("nested/dir", dir) == 0);
	CHECK_OK(model_build(&cfg, NULL, SOFTHW_ROLE_HOST, dir, &model));
	CHECK_ERR(captured(make_run_dir, &model), DOCA_ERROR_OPERATING_SYSTEM);
}

/* The process model: environment variables, checked in children (it loads once). */
static void run_dir_default_child(void)
{
	doca_error_t err = DOCA_ERROR_UNKNOWN;
	const struct softhw_model *m = softhw_model_get(&err);
	char want[64];

	snprintf(want, sizeof(want), "/tmp/softdoca-%u", (unsigned)getuid());
	CHECK_OK(err);
	CHECK(m && strcmp(softhw_model_run_dir(m), want) == 0);
	CHECK(m && softhw_model_role(m) == SOFTHW_ROLE_HOST);
	CHECK(m && softhw_model_get(NULL) == m); /* loaded once */
}

static void run_dir_relative_child(void)
{
	const struct softhw_model *m = softhw_model_get(NULL);
	char cwd[512], want[600];

	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	snprintf(want, sizeof(want), "%s/rel/run", cwd);
	CHECK(m && strcmp(softhw_model_run_dir(m), want) == 0);
}

static void role_child(void)
{
	doca_error_t err = DOCA_SUCCESS;

	CHECK(softhw_model_get(&err) == NULL);
	CHECK_ERR(err, DOCA_ERROR_BAD_CONFIG);
}

static void test_process_model(void)
{
	CHECK(run_child("run_dir_default", run_dir_default_child,
			(const char *const[]){"SOFTDOCA_RUN_DIR", "SOFTDOCA_CONFIG=builtin", "SOFTDOCA_ROLE", NULL}, out,
			sizeof(out)));
	CHECK(run_child("run_dir_relative", run_dir_relative_child,
			(const char *const[]){"SOFTDOCA_RUN_DIR=rel/run/", "SOFTDOCA_CONFIG=builtin", NULL}, out,
			sizeof(out)));
	CHECK(run_child("bad_role", role_child,
			(const char *const[]){"SOFTDOCA_CONFIG=builtin", "SOFTDOCA_ROLE=arm", NULL}, out, sizeof(out)));
	CHECK(strstr(out, "softdoca: device model: SOFTDOCA_ROLE='arm' is not a role") != NULL);
}

int main(void)
{
	scratch_init();
	TEST_RUN(test_pci_parse);
	TEST_RUN(test_malformed);
	TEST_RUN(test_file_limits);
	TEST_RUN(test_valid_config);
	TEST_RUN(test_access);
	TEST_RUN(test_faults);
	TEST_RUN(test_profiles);
	TEST_RUN(test_instances);
	TEST_RUN(test_run_dir_create);
	TEST_RUN(test_process_model);
	scratch_cleanup();
	TEST_EXIT();
}
