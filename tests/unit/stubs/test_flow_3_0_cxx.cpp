/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * doca_flow.h in C++: programs written against DOCA 3.0's entry calls (SHOC, for one) and
 * programs written against 3.3's both build, and each call reaches libdoca_flow's stub.
 */
#include <cstdio>
#include <cstring>

#include "doca_flow.h"

static int failures;

#define EXPECT_NOT_SUPPORTED(expr) \
	do { \
		if ((expr) != DOCA_ERROR_NOT_SUPPORTED) { \
			std::fprintf(stderr, "%s:%d: %s did not return DOCA_ERROR_NOT_SUPPORTED\n", __FILE__, __LINE__, #expr); \
			failures++; \
		} \
	} while (0)

int main()
{
	struct doca_flow_match match;
	struct doca_flow_actions actions;
	struct doca_flow_fwd fwd;
	struct doca_flow_pipe_entry *entry = nullptr;

	std::memset(&match, 0, sizeof(match));
	std::memset(&actions, 0, sizeof(actions));
	std::memset(&fwd, 0, sizeof(fwd));
	actions.action_idx = 0; /* a DOCA 3.0 field */

	/* DOCA 3.0 shapes */
	EXPECT_NOT_SUPPORTED(doca_flow_pipe_control_add_entry(0, 1, nullptr, &match, nullptr, nullptr, &actions, nullptr,
							       nullptr, nullptr, &fwd, nullptr, &entry));
	EXPECT_NOT_SUPPORTED(doca_flow_pipe_acl_add_entry(0, nullptr, &match, &match, 10, &fwd, DOCA_FLOW_NO_WAIT, nullptr, &entry));
	EXPECT_NOT_SUPPORTED(doca_flow_pipe_lpm_add_entry(0, nullptr, &match, &match, &actions, nullptr, &fwd,
							   DOCA_FLOW_WAIT_FOR_BATCH, nullptr, &entry));
	EXPECT_NOT_SUPPORTED(doca_flow_pipe_lpm_update_entry(0, nullptr, &actions, nullptr, &fwd, DOCA_FLOW_NO_WAIT, entry));
	EXPECT_NOT_SUPPORTED(doca_flow_pipe_hash_add_entry(0, nullptr, 3, &actions, nullptr, &fwd, DOCA_FLOW_NO_WAIT, nullptr, &entry));
	EXPECT_NOT_SUPPORTED(doca_flow_pipe_ordered_list_add_entry(0, nullptr, 0, nullptr, &fwd, DOCA_FLOW_NO_WAIT, nullptr, &entry));
	EXPECT_NOT_SUPPORTED(doca_flow_pipe_add_entry(0, nullptr, &match, &actions, nullptr, &fwd, 0, nullptr, &entry));
	/* DOCA 3.3 shapes */
	EXPECT_NOT_SUPPORTED(doca_flow_pipe_control_add_entry(0, nullptr, &match, nullptr, nullptr, &actions, nullptr, nullptr,
							       nullptr, 1, &fwd, nullptr, &entry));
	EXPECT_NOT_SUPPORTED(doca_flow_pipe_acl_add_entry(0, nullptr, &match, &match, 0, &actions, 10, &fwd,
							   DOCA_FLOW_ENTRY_FLAGS_NO_WAIT, nullptr, &entry));
	EXPECT_NOT_SUPPORTED(doca_flow_pipe_hash_add_entry(0, nullptr, 3, 0, &actions, nullptr, &fwd, 0, nullptr, &entry));
	EXPECT_NOT_SUPPORTED(doca_flow_pipe_ordered_list_add_entry(0, nullptr, 0, nullptr, &fwd, DOCA_FLOW_ENTRY_FLAGS_WAIT_FOR_BATCH,
								    nullptr, &entry));
	EXPECT_NOT_SUPPORTED(doca_flow_pipe_basic_add_entry(0, nullptr, &match, 0, &actions, nullptr, &fwd, 0, nullptr, &entry));
	if (entry != nullptr) {
		std::fprintf(stderr, "an entry came back\n");
		failures++;
	}
	std::fprintf(stderr, "%s: 12 calls, %d failed\n", failures ? "FAIL" : "ok", failures);
	return failures ? 1 : 0;
}
