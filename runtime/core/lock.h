/*
 * runtime/core/lock.h - the process-wide lock.
 *
 * Every public entry point takes the lock for its whole duration, in one
 * pattern: check the arguments that need no state, lock_acquire(), do the
 * work, lock_release(), return the status. So the caches, the data sources
 * and the OpenCL objects (a cl_kernel's arguments are not thread-safe) are
 * changed by one thread at a time. Internal functions never take it: those
 * that need it say so with LOCK_ASSERT_HELD(), which debug builds check.
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
