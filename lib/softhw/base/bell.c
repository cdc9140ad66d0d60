/* SPDX-License-Identifier: BSD-3-Clause */
/* Doorbells (bell.h): making one, in softhw, where sockets are opened. */
#include <sys/un.h>
#include <unistd.h>

#include "softhw/base/bell.h"

int softhw_bell_open(int *recv_fd, int *local_fd, int *shared_fd)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	socklen_t len = sizeof(a);
	int fds[3] = {-1, -1, -1}, err;

	for (int i = 0; i < 3; i++)
		if ((fds[i] = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)) < 0)
			goto fail;
	if (bind(fds[0], (struct sockaddr *)&a, sizeof(sa_family_t)) != 0 ||
	    getsockname(fds[0], (struct sockaddr *)&a, &len) != 0 || connect(fds[1], (struct sockaddr *)&a, len) != 0 ||
	    connect(fds[2], (struct sockaddr *)&a, len) != 0)
		goto fail;
	*recv_fd = fds[0];
	*local_fd = fds[1];
	*shared_fd = fds[2];
	return 0;
fail:
	err = errno;
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	errno = err;
	return -1;
}
