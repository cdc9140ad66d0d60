/* SPDX-License-Identifier: BSD-3-Clause */
/* doca_error_get_name / doca_error_get_descr: DOCA's names and description strings. */
#include <stddef.h>

#include "doca_error.h"

struct error_str {
	const char *name;
	const char *descr;
};

#define ERR(code, descr) [code] = {#code, descr}

static const struct error_str error_strs[] = {
	ERR(DOCA_SUCCESS, "Success"),
	ERR(DOCA_ERROR_UNKNOWN, "Unknown error"),
	ERR(DOCA_ERROR_NOT_PERMITTED, "Operation not permitted"),
	ERR(DOCA_ERROR_IN_USE, "Resource already in use"),
	ERR(DOCA_ERROR_NOT_SUPPORTED, "Operation not supported"),
	ERR(DOCA_ERROR_AGAIN, "Resource temporarily unavailable, try again"),
	ERR(DOCA_ERROR_INVALID_VALUE, "Invalid input"),
	ERR(DOCA_ERROR_NO_MEMORY, "Memory allocation failure"),
	ERR(DOCA_ERROR_INITIALIZATION, "Resource initialization failure"),
	ERR(DOCA_ERROR_TIME_OUT, "Timer expired waiting for resource"),
	ERR(DOCA_ERROR_SHUTDOWN, "Shut down in process or completed"),
	ERR(DOCA_ERROR_CONNECTION_RESET, "Connection reset by peer"),
	ERR(DOCA_ERROR_CONNECTION_ABORTED, "Connection aborted"),
	ERR(DOCA_ERROR_CONNECTION_INPROGRESS, "Connection in progress"),
	ERR(DOCA_ERROR_NOT_CONNECTED, "Not Connected"),
	ERR(DOCA_ERROR_NO_LOCK, "Unable to acquire required lock"),
	ERR(DOCA_ERROR_NOT_FOUND, "Resource Not Found"),
	ERR(DOCA_ERROR_IO_FAILED, "Input/Output Operation Failed"),
	ERR(DOCA_ERROR_BAD_STATE, "Bad State"),
	ERR(DOCA_ERROR_UNSUPPORTED_VERSION, "Unsupported version"),
	ERR(DOCA_ERROR_OPERATING_SYSTEM, "Operating system call failure"),
	ERR(DOCA_ERROR_DRIVER, "DOCA Driver call failure"),
	ERR(DOCA_ERROR_UNEXPECTED, "An unexpected scenario was detected"),
	ERR(DOCA_ERROR_ALREADY_EXIST, "Resource already exist"),
	ERR(DOCA_ERROR_FULL, "No more space in resource"),
	ERR(DOCA_ERROR_EMPTY, "No entry is available in resource"),
	ERR(DOCA_ERROR_IN_PROGRESS, "Operation is in progress"),
	ERR(DOCA_ERROR_TOO_BIG, "Requested operation too big to be contained"),
	ERR(DOCA_ERROR_AUTHENTICATION, "Authentication failure"),
	ERR(DOCA_ERROR_BAD_CONFIG, "Configuration is not valid"),
	ERR(DOCA_ERROR_SKIPPED, "Result is valid, but some previous output data was dropped"),
	ERR(DOCA_ERROR_DEVICE_FATAL_ERROR, "Device experienced a fatal error"),
};

static const char unrecognized[] = "unrecognized error code";

/* NULL for values outside the enum; the cast also catches negative values. */
static const struct error_str *error_lookup(doca_error_t error)
{
	size_t i = (size_t)(unsigned int)error;

	if (i >= sizeof(error_strs) / sizeof(error_strs[0]) || error_strs[i].name == NULL)
		return NULL;
	return &error_strs[i];
}

const char *doca_error_get_name(doca_error_t error)
{
	const struct error_str *e = error_lookup(error);

	return e ? e->name : unrecognized;
}

const char *doca_error_get_descr(doca_error_t error)
{
	const struct error_str *e = error_lookup(error);

	return e ? e->descr : unrecognized;
}
