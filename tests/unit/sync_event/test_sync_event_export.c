/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Sync event export descriptors: export rules (locations, state, capability), same-process
 * round trips (the import shares the exporter's value, also for a context waiting on it),
 * and refusal of every truncated, corrupted, foreign, other-process or other-version
 * descriptor. DPA / GPU handles and capability answers.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doca_ctx.h"
#include "doca_log.h"
#include "doca_pe.h"
#include "doca_sync_event.h"
#include "softhw/base/export_desc.h"
#include "common/priv/sync_event_priv.h"
#include "se_test.h"
#include "test.h"

#define ALL UINT64_MAX
/* Payload offsets of the descriptor (lib/common/sync_event_export.c). */
#define OFF_PID (SOFTDOCA_DESC_HEADER_LEN + 0)
#define OFF_ID (SOFTDOCA_DESC_HEADER_LEN + 8)
#define OFF_ADDR (SOFTDOCA_DESC_HEADER_LEN + 16)
#define OFF_CARD (SOFTDOCA_DESC_HEADER_LEN + 24)
#define OFF_TOKEN (SOFTDOCA_DESC_HEADER_LEN + 152)
/* The descriptor format version of this softdoca. */
#define SE_VERSION 2

static struct fake_dev fdev;
static struct doca_dev *dev;
static struct doca_log_backend *sdk_log;

/* Thousands of refusals in a row: keep their (identical) lines out of the test log. */
static void quiet(bool on)
{
	if (sdk_log != NULL)
		(void)doca_log_backend_set_sdk_level(sdk_log, on ? DOCA_LOG_LEVEL_CRIT : DOCA_LOG_LEVEL_WARNING);
}

/* An event configured for a PCIe export (host CPU publisher, DPU subscriber), started. */
static struct doca_sync_event *pci_exporter(uint64_t *addr)
{
	struct doca_sync_event *ev = NULL;

	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_cpu(ev, dev));
	CHECK_OK(doca_sync_event_add_subscriber_location_remote_pci(ev));
	if (addr != NULL)
		CHECK_OK(doca_sync_event_set_addr(ev, addr));
	CHECK_OK(doca_sync_event_start(ev));
	return ev;
}

static uint32_t get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Rewrites a copy's header/checksum after editing it, as a well-formed foreign descriptor. */
static void reseal(uint8_t *d, size_t len, uint16_t version)
{
	uint16_t kind = (uint16_t)(d[6] | d[7] << 8);

	softdoca_desc_seal(d, len, get_u32(d), version, kind);
}

static void test_export_rules(void)
{
	struct fake_dev nf;
	struct doca_dev *nocap = fake_dev_init(&nf, "cx7-0", "unit", false);
	struct doca_sync_event *ev = NULL;
	const uint8_t *data, *data2;
	size_t sz, sz2;
	int dpa_token;

	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_cpu(ev, dev));
	/* no remote PCI location */
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(ev, dev));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_ERR(doca_sync_event_export_to_remote_pci(ev, dev, &data, &sz), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_export_to_remote_net(ev, &data, &sz), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_destroy(ev));

	/* a DPA location does not go over PCIe */
	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_dpa(ev, (struct doca_dpa *)&dpa_token));
	CHECK_OK(doca_sync_event_add_subscriber_location_remote_pci(ev));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_ERR(doca_sync_event_export_to_remote_pci(ev, dev, &data, &sz), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_sync_event_destroy(ev));

	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_cpu(ev, dev));
	CHECK_OK(doca_sync_event_add_subscriber_location_remote_pci(ev));
	/* not started */
	CHECK_ERR(doca_sync_event_export_to_remote_pci(ev, dev, &data, &sz), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_ERR(doca_sync_event_export_to_remote_pci(ev, NULL, &data, &sz), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_export_to_remote_pci(ev, dev, NULL, &sz), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_export_to_remote_pci(ev, dev, &data, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_export_to_remote_pci(ev, nocap, &data, &sz), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_sync_event_export_to_remote_pci(ev, dev, &data, &sz));
	CHECK(data != NULL && sz > SOFTDOCA_DESC_HEADER_LEN);
	/* the same export again: the same bytes, owned by the event */
	CHECK_OK(doca_sync_event_export_to_remote_pci(ev, dev, &data2, &sz2));
	CHECK(data2 == data && sz2 == sz);
	CHECK_OK(doca_sync_event_destroy(ev));

	/* remote net: needs a remote net publisher, and a device able to export */
	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_net(ev));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(ev, nocap));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_ERR(doca_sync_event_export_to_remote_net(ev, &data, &sz), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_OK(doca_sync_event_destroy(ev));
	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_net(ev));
	CHECK_ERR(doca_sync_event_export_to_remote_net(ev, &data, &sz), DOCA_ERROR_BAD_STATE);
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_ERR(doca_sync_event_export_to_remote_net(ev, NULL, &sz), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_export_to_remote_net(ev, &data, &sz)); /* no device: card unknown */
	CHECK_OK(doca_sync_event_destroy(ev));
}

static void test_pci_round_trip(void)
{
	uint64_t word = 0, v = 0;
	struct doca_sync_event *ex, *im = NULL, *im2 = NULL;
	const uint8_t *data;
	size_t sz;

	ex = pci_exporter(&word);
	CHECK_OK(doca_sync_event_export_to_remote_pci(ex, dev, &data, &sz));
	CHECK_OK(doca_sync_event_create_from_export(dev, data, sz, &im));
	/* an import cannot be configured nor exported again */
	CHECK_ERR(doca_sync_event_add_publisher_location_cpu(im, dev), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_sync_event_add_subscriber_location_remote_pci(im), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_sync_event_set_addr(im, &v), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_sync_event_get(im, &v), DOCA_ERROR_BAD_STATE); /* not started yet */
	CHECK_OK(doca_sync_event_start(im));
	CHECK_ERR(doca_sync_event_export_to_remote_pci(im, dev, &data, &sz), DOCA_ERROR_NOT_PERMITTED);

	/* updates on one are seen by the other */
	CHECK_OK(doca_sync_event_update_set(ex, 11));
	CHECK_OK(doca_sync_event_get(im, &v));
	CHECK(v == 11);
	CHECK_OK(doca_sync_event_update_add(im, 4, &v));
	CHECK(v == 11 && word == 15);
	CHECK_OK(doca_sync_event_wait_eq(ex, 15, ALL));

	/* the import outlives the exporter (exporter's internal storage stays with the value) */
	CHECK_OK(doca_sync_event_stop(im));
	CHECK_OK(doca_sync_event_destroy(im));
	CHECK_OK(doca_sync_event_destroy(ex));
	ex = pci_exporter(NULL);
	CHECK_OK(doca_sync_event_update_set(ex, 3));
	CHECK_OK(doca_sync_event_export_to_remote_pci(ex, dev, &data, &sz));
	CHECK_OK(doca_sync_event_create_from_export(dev, data, sz, &im));
	CHECK_OK(doca_sync_event_create_from_export(dev, data, sz, &im2));
	{
		uint8_t copy[256];

		memcpy(copy, data, sz);
		CHECK_OK(doca_sync_event_destroy(ex));
		/* a descriptor of a destroyed event whose value still lives (imports hold it) */
		CHECK_OK(doca_sync_event_start(im));
		CHECK_OK(doca_sync_event_get(im, &v));
		CHECK(v == 3);
		CHECK_OK(doca_sync_event_destroy(im));
		CHECK_OK(doca_sync_event_destroy(im2));
		/* now the value is gone: the descriptor is stale */
		CHECK_ERR(doca_sync_event_create_from_export(dev, copy, sz, &im), DOCA_ERROR_INVALID_VALUE);
	}
}

/* ---- a context on the imported event, woken by an update of the exporter ---- */

static int waits_done;

static void wait_ok(struct doca_sync_event_task_wait_eq *task, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	waits_done++;
	doca_task_free(doca_sync_event_task_wait_eq_as_doca_task(task));
}

static void wait_err(struct doca_sync_event_task_wait_eq *task, union doca_data tud, union doca_data cud)
{
	(void)tud;
	(void)cud;
	doca_task_free(doca_sync_event_task_wait_eq_as_doca_task(task));
}

struct setter {
	struct doca_sync_event *ev;
	doca_error_t result;
};

static void *setter_thread(void *arg)
{
	struct setter *s = arg;

	s->result = doca_sync_event_update_set(s->ev, 0xd0ca);
	return NULL;
}

static void test_import_as_ctx(void)
{
	struct doca_sync_event *ex = pci_exporter(NULL), *im = NULL;
	struct doca_sync_event_task_wait_eq *t;
	union doca_data ud = {.u64 = 0};
	struct setter s = {.result = DOCA_ERROR_UNKNOWN};
	struct doca_pe *pe = NULL;
	const uint8_t *data;
	pthread_t th;
	size_t sz;

	CHECK_OK(doca_sync_event_export_to_remote_pci(ex, dev, &data, &sz));
	CHECK_OK(doca_sync_event_create_from_export(dev, data, sz, &im));
	CHECK_OK(doca_pe_create(&pe));
	CHECK_OK(doca_pe_connect_ctx(pe, doca_sync_event_as_ctx(im)));
	CHECK_OK(doca_sync_event_task_wait_eq_set_conf(im, wait_ok, wait_err, 1));
	CHECK_OK(doca_ctx_start(doca_sync_event_as_ctx(im)));
	CHECK_OK(doca_sync_event_task_wait_eq_alloc_init(im, 0xd0ca, ALL, ud, &t));
	CHECK_OK(doca_task_submit(doca_sync_event_task_wait_eq_as_doca_task(t)));
	CHECK(doca_pe_progress(pe) == 0);
	s.ev = ex;
	CHECK(pthread_create(&th, NULL, setter_thread, &s) == 0);
	CHECK(progress_until(pe, &waits_done, 5.0));
	pthread_join(th, NULL);
	CHECK_OK(s.result);
	CHECK_OK(doca_ctx_stop(doca_sync_event_as_ctx(im)));
	CHECK_OK(doca_sync_event_destroy(im));
	CHECK_OK(doca_sync_event_destroy(ex));
	CHECK_OK(doca_pe_destroy(pe));
}

/* ---- malformed and foreign descriptors ---- */

static void test_bad_descriptors(void)
{
	struct fake_dev of, nf;
	struct doca_dev *other_instance = fake_dev_init(&of, "bf3-0", "elsewhere", true);
	struct doca_dev *nocap = fake_dev_init(&nf, "bf3-0", "unit", false);
	struct doca_sync_event *ex = pci_exporter(NULL), *im = NULL;
	struct doca_sync_event_remote_net *rn = NULL;
	const uint8_t *data;
	uint8_t *copy;
	size_t sz;
	int bad = 0;

	CHECK_OK(doca_sync_event_export_to_remote_pci(ex, dev, &data, &sz));
	copy = malloc(sz + 1);
	CHECK(copy != NULL);
	if (copy == NULL)
		return;
	CHECK_ERR(doca_sync_event_create_from_export(NULL, data, sz, &im), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_create_from_export(dev, NULL, sz, &im), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_create_from_export(dev, data, sz, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_create_from_export(nocap, data, sz, &im), DOCA_ERROR_NOT_SUPPORTED);

	/* every truncation, and one byte too many */
	quiet(true);
	for (size_t len = 0; len < sz; len++)
		if (doca_sync_event_create_from_export(dev, data, len, &im) != DOCA_ERROR_INVALID_VALUE)
			bad++;
	memcpy(copy, data, sz);
	copy[sz] = 0;
	if (doca_sync_event_create_from_export(dev, copy, sz + 1, &im) != DOCA_ERROR_INVALID_VALUE)
		bad++;
	CHECK(bad == 0);

	/* every byte flipped, one bit at a time */
	for (size_t i = 0; i < sz; i++) {
		for (int bit = 0; bit < 8; bit++) {
			memcpy(copy, data, sz);
			copy[i] ^= (uint8_t)(1u << bit);
			if (doca_sync_event_create_from_export(dev, copy, sz, &im) != DOCA_ERROR_INVALID_VALUE)
				bad++;
		}
	}
	quiet(false);
	CHECK(bad == 0);

	/* well-formed but foreign: another card instance */
	CHECK_ERR(doca_sync_event_create_from_export(other_instance, data, sz, &im), DOCA_ERROR_INVALID_VALUE);
	/* well-formed, another card name */
	memcpy(copy, data, sz);
	memcpy(copy + OFF_CARD, "cx7-9", 6);
	reseal(copy, sz, SE_VERSION);
	CHECK_ERR(doca_sync_event_create_from_export(dev, copy, sz, &im), DOCA_ERROR_INVALID_VALUE);
	/* well-formed, another process that exported nothing: no such value */
	memcpy(copy, data, sz);
	copy[OFF_PID] ^= 0x55;
	copy[OFF_PID + 2] ^= 0x01;
	reseal(copy, sz, SE_VERSION);
	CHECK_ERR(doca_sync_event_create_from_export(dev, copy, sz, &im), DOCA_ERROR_NOT_FOUND);
	/* well-formed, this process, another token: not this value */
	memcpy(copy, data, sz);
	copy[OFF_TOKEN + 3] ^= 0x20;
	reseal(copy, sz, SE_VERSION);
	CHECK_ERR(doca_sync_event_create_from_export(dev, copy, sz, &im), DOCA_ERROR_INVALID_VALUE);
	/* well-formed, other format versions (the previous one and a later one) */
	memcpy(copy, data, sz);
	reseal(copy, sz, SE_VERSION - 1);
	CHECK_ERR(doca_sync_event_create_from_export(dev, copy, sz, &im), DOCA_ERROR_NOT_SUPPORTED);
	memcpy(copy, data, sz);
	reseal(copy, sz, SE_VERSION + 1);
	CHECK_ERR(doca_sync_event_create_from_export(dev, copy, sz, &im), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_remote_net_create_from_export(dev, copy, sz, &rn), DOCA_ERROR_NOT_SUPPORTED);
	/* well-formed, names an event that never existed */
	memcpy(copy, data, sz);
	copy[OFF_ID + 5] ^= 0x40;
	reseal(copy, sz, SE_VERSION);
	CHECK_ERR(doca_sync_event_create_from_export(dev, copy, sz, &im), DOCA_ERROR_INVALID_VALUE);
	/* well-formed, misaligned value address */
	memcpy(copy, data, sz);
	copy[OFF_ADDR] ^= 0x04;
	reseal(copy, sz, SE_VERSION);
	CHECK_ERR(doca_sync_event_create_from_export(dev, copy, sz, &im), DOCA_ERROR_INVALID_VALUE);
	/* a PCIe descriptor is no remote net descriptor */
	CHECK_ERR(doca_sync_event_remote_net_create_from_export(dev, data, sz, &rn), DOCA_ERROR_INVALID_VALUE);
	/* an mmap descriptor is no sync event descriptor */
	{
		static const char zeros[SOFTDOCA_MMAP_DESC_LEN];

		memcpy(copy, zeros, sz < sizeof(zeros) ? sz : sizeof(zeros));
		softdoca_desc_seal(copy, sz, SOFTDOCA_MMAP_DESC_MAGIC, 1, 1);
		CHECK_ERR(doca_sync_event_create_from_export(dev, copy, sz, &im), DOCA_ERROR_INVALID_VALUE);
	}
	free(copy);
	CHECK_OK(doca_sync_event_destroy(ex));
}

/* Did the SDK log say `needle` since the last call? (a second backend, into a file) */
static FILE *log_capture;

static bool log_says(const char *needle)
{
	static long seen;
	char text[4096];
	size_t n;

	if (log_capture == NULL)
		return false;
	fflush(log_capture);
	fseek(log_capture, seen, SEEK_SET);
	n = fread(text, 1, sizeof(text) - 1, log_capture);
	text[n] = '\0';
	fseek(log_capture, 0, SEEK_END); /* (a longer text between two calls is not looked at) */
	seen = ftell(log_capture);
	if (strstr(text, needle) == NULL)
		fprintf(stderr, "the log lacks \"%s\"; it says: %s\n", needle, text);
	return strstr(text, needle) != NULL;
}

/* Forged descriptors of a live event of this process: refused, and the log says which claim. */
static void test_forged_in_process(void)
{
	struct doca_sync_event *ex = pci_exporter(NULL), *im = NULL;
	struct doca_sync_event_remote_net *rn = NULL;
	struct doca_sync_event *net = NULL;
	const uint8_t *data;
	uint8_t copy[512];
	size_t sz;

	CHECK_OK(doca_sync_event_export_to_remote_pci(ex, dev, &data, &sz));
	CHECK(sz <= sizeof(copy));
	(void)log_says(""); /* skip what came before */
	memcpy(copy, data, sz);
	copy[OFF_ADDR + 1] ^= 0x01; /* another (aligned) value address */
	reseal(copy, sz, SE_VERSION);
	CHECK_ERR(doca_sync_event_create_from_export(dev, copy, sz, &im), DOCA_ERROR_INVALID_VALUE);
	CHECK(log_says("value address differs"));
	memcpy(copy, data, sz);
	copy[OFF_TOKEN] ^= 0x01;
	reseal(copy, sz, SE_VERSION);
	CHECK_ERR(doca_sync_event_create_from_export(dev, copy, sz, &im), DOCA_ERROR_INVALID_VALUE);
	CHECK(log_says("token differs"));
	memcpy(copy, data, sz);
	copy[OFF_ID + 2] ^= 0x01;
	reseal(copy, sz, SE_VERSION);
	CHECK_ERR(doca_sync_event_create_from_export(dev, copy, sz, &im), DOCA_ERROR_INVALID_VALUE);
	CHECK(log_says("no event of this process has that value id"));
	CHECK(im == NULL);
	/* a remote-PCI descriptor re-sealed as remote net: the value was never exported to the net */
	memcpy(copy, data, sz);
	copy[6] = 2; /* kind: remote net */
	copy[7] = 0;
	reseal(copy, sz, SE_VERSION);
	CHECK_ERR(doca_sync_event_remote_net_create_from_export(dev, copy, sz, &rn), DOCA_ERROR_INVALID_VALUE);
	CHECK(log_says("not to remote net"));
	CHECK(rn == NULL);
	CHECK_OK(doca_sync_event_destroy(ex));

	/* the same for a remote net descriptor imported in its own process */
	CHECK_OK(doca_sync_event_create(&net));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_net(net));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(net, dev));
	CHECK_OK(doca_sync_event_start(net));
	CHECK_OK(doca_sync_event_export_to_remote_net(net, &data, &sz));
	memcpy(copy, data, sz);
	copy[OFF_ADDR + 1] ^= 0x01;
	reseal(copy, sz, SE_VERSION);
	CHECK_ERR(doca_sync_event_remote_net_create_from_export(dev, copy, sz, &rn), DOCA_ERROR_INVALID_VALUE);
	CHECK(log_says("value address differs"));
	CHECK(rn == NULL);
	CHECK_OK(doca_sync_event_destroy(net));
}

/* ---- remote net ---- */

static void test_remote_net(void)
{
	uint64_t word = 0;
	struct fake_dev of, nf;
	struct doca_dev *other_card = fake_dev_init(&of, "cx7-3", "far-away", true);
	struct doca_dev *nocap = fake_dev_init(&nf, "bf3-0", "unit", false);
	struct doca_sync_event *ev = NULL, *im = NULL;
	struct doca_sync_event_remote_net *rn = NULL, *rn2 = NULL;
	const uint8_t *data;
	uint8_t copy[512];
	size_t sz;
	int bad = 0, dpa_token;
	doca_dpa_dev_sync_event_remote_net_t dh;
	doca_gpu_dev_sync_event_remote_net_t gh;

	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_remote_net(ev));
	CHECK_OK(doca_sync_event_add_subscriber_location_cpu(ev, dev));
	CHECK_OK(doca_sync_event_set_addr(ev, &word));
	CHECK_OK(doca_sync_event_start(ev));
	CHECK_OK(doca_sync_event_export_to_remote_net(ev, &data, &sz));
	CHECK(sz <= sizeof(copy));

	CHECK_ERR(doca_sync_event_remote_net_create_from_export(NULL, data, sz, &rn), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_remote_net_create_from_export(dev, NULL, sz, &rn), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_remote_net_create_from_export(dev, data, sz, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_remote_net_create_from_export(nocap, data, sz, &rn), DOCA_ERROR_NOT_SUPPORTED);
	/* a remote net descriptor is no PCIe descriptor */
	CHECK_ERR(doca_sync_event_create_from_export(dev, data, sz, &im), DOCA_ERROR_INVALID_VALUE);

	/* any card may import it; the handle names the exporter and its value */
	CHECK_OK(doca_sync_event_remote_net_create_from_export(other_card, data, sz, &rn));
	CHECK(rn->exporter_pid == (int32_t)getpid());
	CHECK(rn->value_addr == (uint64_t)(uintptr_t)&word);
	CHECK(strcmp(rn->card, "bf3-0") == 0 && strcmp(rn->instance, "unit") == 0);
	CHECK(rn->dev == other_card);
	/* (DPA handles of remote net events: tests/unit/dpa/test_dpa_rdma.c) */
	CHECK_ERR(doca_sync_event_remote_net_get_dpa_handle(rn, (struct doca_dpa *)&dpa_token, NULL),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_remote_net_get_gpu_handle(rn, (struct doca_gpu *)&dpa_token, &gh),
		  DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_remote_net_get_dpa_handle(NULL, (struct doca_dpa *)&dpa_token, &dh),
		  DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_remote_net_destroy(rn));
	CHECK_ERR(doca_sync_event_remote_net_destroy(NULL), DOCA_ERROR_INVALID_VALUE);

	/* another process's export is kept as a handle on it (RDMA reaches it later) */
	memcpy(copy, data, sz);
	copy[OFF_PID + 1] ^= 0x10;
	reseal(copy, sz, SE_VERSION);
	CHECK_OK(doca_sync_event_remote_net_create_from_export(dev, copy, sz, &rn2));
	CHECK(rn2->exporter_pid != (int32_t)getpid() && rn2->local == NULL);
	CHECK_OK(doca_sync_event_remote_net_destroy(rn2));

	/* every truncation and flipped bit refused */
	quiet(true);
	for (size_t len = 0; len < sz; len++)
		if (doca_sync_event_remote_net_create_from_export(dev, data, len, &rn) != DOCA_ERROR_INVALID_VALUE)
			bad++;
	for (size_t i = 0; i < sz; i++) {
		for (int bit = 0; bit < 8; bit++) {
			memcpy(copy, data, sz);
			copy[i] ^= (uint8_t)(1u << bit);
			if (doca_sync_event_remote_net_create_from_export(dev, copy, sz, &rn) != DOCA_ERROR_INVALID_VALUE)
				bad++;
		}
	}
	quiet(false);
	CHECK(bad == 0);

	/* same process, exporter destroyed: the value is gone */
	memcpy(copy, data, sz);
	CHECK_OK(doca_sync_event_destroy(ev));
	CHECK_ERR(doca_sync_event_remote_net_create_from_export(dev, copy, sz, &rn), DOCA_ERROR_INVALID_VALUE);
}

/* ---- DPA / GPU and capabilities ---- */

static void test_dpa_gpu_and_caps(void)
{
	struct fake_dev nf;
	struct doca_dev *nocap = fake_dev_init(&nf, "cx6dx-0", "unit", false);
	const struct doca_devinfo *yes = dev->devinfo, *no = nocap->devinfo;
	struct doca_sync_event *ev = NULL;
	doca_dpa_dev_sync_event_t dh;
	doca_gpu_dev_sync_event_t *gh;
	int token;

	CHECK_OK(doca_sync_event_create(&ev));
	CHECK_OK(doca_sync_event_add_publisher_location_gpu(ev, (struct doca_gpu *)&token));
	CHECK_OK(doca_sync_event_start(ev));
	/* DPA handles need a DPA location (tests/unit/dpa covers the handles themselves) */
	CHECK_ERR(doca_sync_event_get_dpa_handle(ev, (struct doca_dpa *)&token, &dh), DOCA_ERROR_NOT_PERMITTED);
	CHECK_ERR(doca_sync_event_get_gpu_handle(ev, (struct doca_gpu *)&token, &gh), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_get_dpa_handle(ev, NULL, &dh), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_get_gpu_handle(ev, (struct doca_gpu *)&token, NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_OK(doca_sync_event_destroy(ev));

	CHECK_OK(doca_sync_event_cap_is_create_from_export_supported(yes));
	CHECK_OK(doca_sync_event_cap_remote_net_is_create_from_export_supported(yes));
	CHECK_OK(doca_sync_event_cap_is_export_to_remote_pci_supported(yes));
	CHECK_OK(doca_sync_event_cap_is_export_to_remote_net_supported(yes));
	CHECK_OK(doca_sync_event_cap_task_get_is_supported(yes));
	CHECK_OK(doca_sync_event_cap_task_notify_set_is_supported(yes));
	CHECK_OK(doca_sync_event_cap_task_notify_add_is_supported(yes));
	CHECK_OK(doca_sync_event_cap_task_wait_eq_is_supported(yes));
	CHECK_OK(doca_sync_event_cap_task_wait_neq_is_supported(yes));
	CHECK_ERR(doca_sync_event_cap_is_create_from_export_supported(no), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_remote_net_is_create_from_export_supported(no), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_is_export_to_remote_pci_supported(no), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_is_export_to_remote_net_supported(no), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_task_get_is_supported(no), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_task_notify_set_is_supported(no), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_task_notify_add_is_supported(no), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_task_wait_eq_is_supported(no), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_task_wait_neq_is_supported(no), DOCA_ERROR_NOT_SUPPORTED);
	/* a DPA where the profile has one; no GPU, on any device */
	CHECK_OK(doca_sync_event_cap_is_export_to_dpa_supported(yes));
	CHECK_ERR(doca_sync_event_cap_is_export_to_dpa_supported(no), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_is_export_to_gpu_supported(yes), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_remote_net_is_export_to_dpa_supported(yes), DOCA_ERROR_NOT_SUPPORTED);
	CHECK_ERR(doca_sync_event_cap_remote_net_is_export_to_gpu_supported(yes), DOCA_ERROR_NOT_SUPPORTED);
	/* NULL devinfo */
	CHECK_ERR(doca_sync_event_cap_is_create_from_export_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_cap_remote_net_is_create_from_export_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_cap_is_export_to_remote_pci_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_cap_is_export_to_remote_net_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_cap_is_export_to_dpa_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_cap_is_export_to_gpu_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_cap_remote_net_is_export_to_dpa_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_cap_remote_net_is_export_to_gpu_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_cap_task_get_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_cap_task_notify_set_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_cap_task_notify_add_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_cap_task_wait_eq_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
	CHECK_ERR(doca_sync_event_cap_task_wait_neq_is_supported(NULL), DOCA_ERROR_INVALID_VALUE);
}

/* The devices of the soft model answer from their profile (BlueField: PCIe export). */
static void test_model_devices(void)
{
	struct doca_devinfo **list = NULL;
	uint32_t n = 0, pci = 0;

	CHECK_OK(doca_devinfo_create_list(&list, &n));
	CHECK(n > 0);
	for (uint32_t i = 0; i < n; i++) {
		CHECK_OK(doca_sync_event_cap_task_wait_eq_is_supported(list[i]));
		CHECK_OK(doca_sync_event_cap_is_export_to_remote_net_supported(list[i]));
		if (doca_sync_event_cap_is_export_to_remote_pci_supported(list[i]) == DOCA_SUCCESS)
			pci++;
	}
	CHECK(pci > 0); /* the built-in card is a BlueField-3 */
	if (list != NULL)
		CHECK_OK(doca_devinfo_destroy_list(list));
}

int main(void)
{
	if (doca_log_backend_create_with_file_sdk(stderr, &sdk_log) == DOCA_SUCCESS)
		(void)doca_log_backend_set_sdk_level(sdk_log, DOCA_LOG_LEVEL_WARNING);
	log_capture = tmpfile();
	if (log_capture != NULL) {
		struct doca_log_backend *capture;

		if (doca_log_backend_create_with_file_sdk(log_capture, &capture) == DOCA_SUCCESS)
			(void)doca_log_backend_set_sdk_level(capture, DOCA_LOG_LEVEL_ERROR);
	}
	dev = fake_dev_init(&fdev, "bf3-0", "unit", true);
	TEST_RUN(test_export_rules);
	TEST_RUN(test_pci_round_trip);
	TEST_RUN(test_import_as_ctx);
	TEST_RUN(test_bad_descriptors);
	TEST_RUN(test_forged_in_process);
	TEST_RUN(test_remote_net);
	TEST_RUN(test_dpa_gpu_and_caps);
	TEST_RUN(test_model_devices);
	TEST_EXIT();
}
