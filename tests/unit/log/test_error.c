/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_error_get_name / doca_error_get_descr for every code, unknown codes, the runtime version. */
#include "doca_error.h"
#include "doca_version.h"
#include "test.h"

static const struct {
	doca_error_t code;
	const char *name;
	const char *descr;
} expected[] = {
	{DOCA_SUCCESS, "DOCA_SUCCESS", "Success"},
	{DOCA_ERROR_UNKNOWN, "DOCA_ERROR_UNKNOWN", "Unknown error"},
	{DOCA_ERROR_NOT_PERMITTED, "DOCA_ERROR_NOT_PERMITTED", "Operation not permitted"},
	{DOCA_ERROR_IN_USE, "DOCA_ERROR_IN_USE", "Resource already in use"},
	{DOCA_ERROR_NOT_SUPPORTED, "DOCA_ERROR_NOT_SUPPORTED", "Operation not supported"},
	{DOCA_ERROR_AGAIN, "DOCA_ERROR_AGAIN", "Resource temporarily unavailable, try again"},
	{DOCA_ERROR_INVALID_VALUE, "DOCA_ERROR_INVALID_VALUE", "Invalid input"},
	{DOCA_ERROR_NO_MEMORY, "DOCA_ERROR_NO_MEMORY", "Memory allocation failure"},
	{DOCA_ERROR_INITIALIZATION, "DOCA_ERROR_INITIALIZATION", "Resource initialization failure"},
	{DOCA_ERROR_TIME_OUT, "DOCA_ERROR_TIME_OUT", "Timer expired waiting for resource"},
	{DOCA_ERROR_SHUTDOWN, "DOCA_ERROR_SHUTDOWN", "Shut down in process or completed"},
	{DOCA_ERROR_CONNECTION_RESET, "DOCA_ERROR_CONNECTION_RESET", "Connection reset by peer"},
	{DOCA_ERROR_CONNECTION_ABORTED, "DOCA_ERROR_CONNECTION_ABORTED", "Connection aborted"},
	{DOCA_ERROR_CONNECTION_INPROGRESS, "DOCA_ERROR_CONNECTION_INPROGRESS", "Connection in progress"},
	{DOCA_ERROR_NOT_CONNECTED, "DOCA_ERROR_NOT_CONNECTED", "Not Connected"},
	{DOCA_ERROR_NO_LOCK, "DOCA_ERROR_NO_LOCK", "Unable to acquire required lock"},
	{DOCA_ERROR_NOT_FOUND, "DOCA_ERROR_NOT_FOUND", "Resource Not Found"},
	{DOCA_ERROR_IO_FAILED, "DOCA_ERROR_IO_FAILED", "Input/Output Operation Failed"},
	{DOCA_ERROR_BAD_STATE, "DOCA_ERROR_BAD_STATE", "Bad State"},
	{DOCA_ERROR_UNSUPPORTED_VERSION, "DOCA_ERROR_UNSUPPORTED_VERSION", "Unsupported version"},
	{DOCA_ERROR_OPERATING_SYSTEM, "DOCA_ERROR_OPERATING_SYSTEM", "Operating system call failure"},
	{DOCA_ERROR_DRIVER, "DOCA_ERROR_DRIVER", "DOCA Driver call failure"},
	{DOCA_ERROR_UNEXPECTED, "DOCA_ERROR_UNEXPECTED", "An unexpected scenario was detected"},
	{DOCA_ERROR_ALREADY_EXIST, "DOCA_ERROR_ALREADY_EXIST", "Resource already exist"},
	{DOCA_ERROR_FULL, "DOCA_ERROR_FULL", "No more space in resource"},
	{DOCA_ERROR_EMPTY, "DOCA_ERROR_EMPTY", "No entry is available in resource"},
	{DOCA_ERROR_IN_PROGRESS, "DOCA_ERROR_IN_PROGRESS", "Operation is in progress"},
	{DOCA_ERROR_TOO_BIG, "DOCA_ERROR_TOO_BIG", "Requested operation too big to be contained"},
	{DOCA_ERROR_AUTHENTICATION, "DOCA_ERROR_AUTHENTICATION", "Authentication failure"},
	{DOCA_ERROR_BAD_CONFIG, "DOCA_ERROR_BAD_CONFIG", "Configuration is not valid"},
	{DOCA_ERROR_SKIPPED, "DOCA_ERROR_SKIPPED", "Result is valid, but some previous output data was dropped"},
	{DOCA_ERROR_DEVICE_FATAL_ERROR, "DOCA_ERROR_DEVICE_FATAL_ERROR", "Device experienced a fatal error"},
};

#define N_CODES (sizeof(expected) / sizeof(expected[0]))

static void test_every_code(void)
{
	size_t i;

	CHECK(N_CODES == 32);
	for (i = 0; i < N_CODES; i++) {
		CHECK((size_t)expected[i].code == i);
		CHECK(strcmp(doca_error_get_name(expected[i].code), expected[i].name) == 0);
		CHECK(strcmp(doca_error_get_descr(expected[i].code), expected[i].descr) == 0);
	}
}

static void test_unknown_codes(void)
{
	static const int unknown[] = {32, 33, 100, -1, -32, 0x7fffffff};
	size_t i;

	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
		CHECK(strcmp(doca_error_get_name((doca_error_t)unknown[i]), "unrecognized error code") == 0);
		CHECK(strcmp(doca_error_get_descr((doca_error_t)unknown[i]), "unrecognized error code") == 0);
	}
}

static void test_version(void)
{
	CHECK(doca_version_runtime() != NULL);
	CHECK(strcmp(doca_version_runtime(), DOCA_VERSION_STRING) == 0);
	CHECK(strcmp(doca_version_runtime(), doca_version()) == 0);
}

int main(void)
{
	TEST_RUN(test_every_code);
	TEST_RUN(test_unknown_codes);
	TEST_RUN(test_version);
	TEST_EXIT();
}
