/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The out-of-tree DPA check (out_of_tree_build.sh): a host program built against an installed
 * softdoca with pkg-config, linked with the archive the installed dpacc made; it runs one RPC
 * on the first device with a DPA and prints what it returned.
 */
#include <stdio.h>

#include <doca_dev.h>
#include <doca_dpa.h>

extern struct doca_dpa_app *dpa_sample_app;
extern doca_dpa_func_t add_rpc;

int main(void)
{
	struct doca_devinfo **list = NULL;
	struct doca_dev *dev = NULL;
	struct doca_dpa *dpa = NULL;
	uint32_t n = 0;
	uint64_t ret = 0;
	doca_error_t err;

	if (doca_devinfo_create_list(&list, &n) != DOCA_SUCCESS)
		return 1;
	for (uint32_t i = 0; i < n && dev == NULL; i++)
		if (doca_dpa_cap_is_supported(list[i]) == DOCA_SUCCESS && doca_dev_open(list[i], &dev) != DOCA_SUCCESS)
			dev = NULL;
	doca_devinfo_destroy_list(list);
	if (dev == NULL) {
		fprintf(stderr, "no device with a DPA\n");
		return 1;
	}
	err = doca_dpa_create(dev, &dpa);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_set_app(dpa, dpa_sample_app);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_start(dpa);
	if (err == DOCA_SUCCESS)
		err = doca_dpa_rpc(dpa, &add_rpc, &ret, (uint64_t)2, (uint64_t)3);
	printf("add_rpc returned %llu (%s)\n", (unsigned long long)ret, doca_error_get_name(err));
	if (dpa != NULL)
		doca_dpa_destroy(dpa);
	doca_dev_close(dev);
	return err == DOCA_SUCCESS && ret == 5 ? 0 : 1;
}
