/* SPDX-License-Identifier: BSD-3-Clause */
/* Doorbells (bell.h): making one, in softhw, where sockets are opened. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/un.h>
#include <unistd.h>

#include "softhw/base/bell.h"

static const char *tmp_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp != NULL && tmp[0] == '/' ? tmp : "/tmp";
}

/*
 * Binds `fd` where no other user can reach it: a name in a fresh directory of mode 0700,
 * unlinked (the directory removed) once the caller connected the senders it needs
 * (softhw_bell_unname). Senders already connected keep their peer; nobody can connect or send
 * to a name that is gone. The directory names our pid, for sweep_dead. false when no
 * temporary directory takes it (the caller autobinds instead).
 */
static bool bind_private(int fd, struct sockaddr_un *a, socklen_t *len, char *dir, size_t room)
{
	int n = snprintf(dir, room, "%s/.softdoca-bell-%d-XXXXXX", tmp_dir(), (int)getpid());

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

/* Does a socket still receive at path (a connect that sends nothing: no ring)? */
static bool bound_live(const char *path)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	int fd, rc, err;

	if (strlen(path) >= sizeof(a.sun_path))
		return true; /* (not ours to judge) */
	memcpy(a.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return true;
	rc = connect(fd, (struct sockaddr *)&a, sizeof(a));
	err = errno;
	close(fd);
	return rc == 0 || (err != ECONNREFUSED && err != ENOENT);
}

/*
 * Is entry e of d a name kept by a process of ours that is gone, with nothing receiving there?
 * Another user's entries, and symlinks, cost one fstatat and are never followed: anyone can
 * fill /tmp with such names, and each one judged costs a kill and a connect.
 */
static bool dead_name(DIR *d, const struct dirent *e, pid_t self, uid_t me, char *path, size_t room)
{
	struct stat st;
	int pid;
	char c;

	if (sscanf(e->d_name, ".softdoca-bell-%d-%c", &pid, &c) != 2 || pid <= 0 || pid == self ||
	    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != me)
		return false;
	if (kill(pid, 0) == 0 || errno != ESRCH)
		return false;
	/* (the pid may be of another pid namespace sharing this /tmp) */
	return (size_t)snprintf(path, room, "%s/%s/b", tmp_dir(), e->d_name) < room && !bound_live(path);
}

/*
 * A name kept for a PE's life stays behind when its process ends without destroying the PE
 * (an exit, a crash): the first doorbell of each process removes those of our user whose
 * receiving end is gone (dead_name).
 */
static void sweep_dead(void)
{
	static pid_t swept;
	const pid_t self = getpid();
	const uid_t me = geteuid();
	char path[PATH_MAX];
	DIR *d;
	struct dirent *e;

	if (__atomic_exchange_n(&swept, self, __ATOMIC_RELAXED) == self || (d = opendir(tmp_dir())) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		int dfd;

		if (!dead_name(d, e, self, me, path, sizeof(path)))
			continue;
		dfd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0)
			continue;
		/* ours alone: in a sticky /tmp nobody else can swap the entry before its removal */
		if (fstat(dfd, &st) == 0 && st.st_uid == me) {
			(void)unlinkat(dfd, "b", 0);
			(void)unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
		}
		close(dfd);
	}
	closedir(d);
}

/* The receiving end, bound privately when it can be, else to an abstract name of the kernel's choosing. */
static int bell_bind(struct softhw_bell_name *name)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), err;

	memset(name, 0, sizeof(*name));
	name->owner = getpid();
	if (fd < 0)
		return -1;
	name->len = sizeof(name->addr);
	if (bind_private(fd, &name->addr, &name->len, name->dir, sizeof(name->dir)))
		return fd;
	name->dir[0] = '\0';
	memset(&name->addr, 0, sizeof(name->addr));
	name->addr.sun_family = AF_UNIX;
	name->len = sizeof(name->addr);
	if (bind(fd, (struct sockaddr *)&name->addr, sizeof(sa_family_t)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&name->addr, &name->len) == 0)
		return fd;
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

int softhw_bell_ringer(const struct softhw_bell_name *name)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), err;

	if (fd < 0 || connect(fd, (const struct sockaddr *)&name->addr, name->len) == 0)
		return fd;
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

void softhw_bell_unname(struct softhw_bell_name *name)
{
	if (name->dir[0] == '\0' || name->owner != getpid())
		return;
	unlink(name->addr.sun_path);
	rmdir(name->dir);
	name->dir[0] = '\0';
}

int softhw_bell_open_named(int *recv_fd, int *local_fd, struct softhw_bell_name *name)
{
	int r, l, err;

	sweep_dead();
	r = bell_bind(name);
	l = r >= 0 ? softhw_bell_ringer(name) : -1;
	err = errno;

	if (l < 0) {
		if (r >= 0)
			close(r);
		softhw_bell_unname(name);
		errno = err;
		return -1;
	}
	*recv_fd = r;
	*local_fd = l;
	return 0;
}

int softhw_bell_open(int *recv_fd, int *local_fd, int *shared_fd)
{
	struct softhw_bell_name name;
	int s = -1, err;

	if (softhw_bell_open_named(recv_fd, local_fd, &name) != 0)
		return -1;
	s = softhw_bell_ringer(&name);
	err = errno;
	softhw_bell_unname(&name); /* the name goes at once, connected or not */
	if (s < 0) {
		close(*recv_fd);
		close(*local_fd);
		errno = err;
		return -1;
	}
	*shared_fd = s;
	return 0;
}
