/* SPDX-License-Identifier: BSD-3-Clause */
/* Doorbells (bell.h): making one, in softhw, where sockets are opened. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>

#include "softhw/base/bell.h"

/*
 * Binds `fd` where nobody else can ever reach it: a name in a fresh directory of mode 0700,
 * unlinked (the directory removed) once the senders are connected by the caller. Senders
 * already connected keep their peer; nobody can connect or send to a name that is gone.
 * false when no temporary directory takes it (the caller autobinds instead).
 */
static bool bind_private(int fd, struct sockaddr_un *a, socklen_t *len, char *dir, size_t room)
{
	const char *tmp = getenv("TMPDIR");
	int n;

	if (tmp == NULL || tmp[0] != '/')
		tmp = "/tmp";
	n = snprintf(dir, room, "%s/.softdoca-bell-XXXXXX", tmp);
	if (n < 0 || (size_t)n >= room || (size_t)n + 3 > sizeof(a->sun_path) || mkdtemp(dir) == NULL)
		return false;
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	memcpy(a->sun_path, dir, (size_t)n); /* (n + 3 fits: checked above) */
	memcpy(a->sun_path + n, "/b", 3);
	*len = (socklen_t)sizeof(*a);
	if (bind(fd, (struct sockaddr *)a, *len) == 0)
		return true;
	rmdir(dir);
	return false;
}

int softhw_bell_open(int *recv_fd, int *local_fd, int *shared_fd)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	socklen_t len = sizeof(a);
	int fds[3] = {-1, -1, -1}, err;
	char dir[sizeof(a.sun_path)];
	bool named, ok;

	for (int i = 0; i < 3; i++)
		if ((fds[i] = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0)) < 0)
			goto fail;
	named = bind_private(fds[0], &a, &len, dir, sizeof(dir));
	if (!named && (bind(fds[0], (struct sockaddr *)&a, sizeof(sa_family_t)) != 0 ||
		       getsockname(fds[0], (struct sockaddr *)&a, &len) != 0))
		goto fail;
	ok = connect(fds[1], (struct sockaddr *)&a, len) == 0 && connect(fds[2], (struct sockaddr *)&a, len) == 0;
	err = errno;
	if (named) { /* the name goes at once, connected or not */
		unlink(a.sun_path);
		rmdir(dir);
	}
	errno = err;
	if (!ok)
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
