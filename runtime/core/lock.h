/*
 * runtime/core/lock.h - the process-wide lock.
 *
 * Every public entry point follows one pattern: check the arguments that
 * need no state; amp__lock_acquire(); look its handles up in the registry
 * (core/handle.h); do the work; amp__lock_release(); return the status. No
 * helper returns with the lock held. So the caches, the data sources and
 * the OpenCL objects (a cl_kernel's arguments are not thread-safe) are
 * changed by one thread at a time. One exception: a wait on a completion
 * takes the lock to look the handle up and again to take the outcome, not
 * while it waits, since the operation's own thread needs the lock.
 * Internal functions never take it: those that need it say so with
 * LOCK_ASSERT_HELD(), which builds without NDEBUG check (scripts/memory/sanitize.sh
 * builds so).
 */
#ifndef AMP_CORE_LOCK_H
#define AMP_CORE_LOCK_H

#include <assert.h>

void amp__lock_acquire(void);

/* Release the lock, then report a failure of the call to the error
 * callback, if one is waiting (error.c): the callback may call the
 * library. */
void amp__lock_release(void);

/* Nonzero when this thread holds the lock. */
int amp__lock_held(void);

/* In debug builds, stop when the calling thread does not hold the lock. */
#define LOCK_ASSERT_HELD() assert(amp__lock_held())

#endif
