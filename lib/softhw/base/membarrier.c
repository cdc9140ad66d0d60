/* SPDX-License-Identifier: BSD-3-Clause */
/* Registrations for membarrier's expedited barriers (membarrier.h). */
#include <time.h>

#include "softhw/base/membarrier.h"

/* Per registration command: the pid that registered, or that was refused. */
static struct {
	pid_t done, refused;
} regs[2];

bool softhw_membarrier_registered(int reg)
{
	int i = reg == MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED;
	pid_t self = getpid();

	if (__atomic_load_n(&regs[i].done, __ATOMIC_ACQUIRE) == self)
		return true;
	if (__atomic_load_n(&regs[i].refused, __ATOMIC_RELAXED) == self)
		return false;
	if (softhw_membarrier(reg) != 0) { /* (EINVAL where the kernel lacks the command) */
		__atomic_store_n(&regs[i].refused, self, __ATOMIC_RELAXED);
		return false;
	}
	__atomic_store_n(&regs[i].done, self, __ATOMIC_RELEASE);
	return true;
}

void softhw_membarrier_settle(void)
{
	const struct timespec drain = {0, 1000 * 1000};

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	(void)nanosleep(&drain, NULL);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}
