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
 * while it waits, since the operation's own thread needs the lock; that
 * thread takes it in its turn (below).
 * Internal functions never take it: those that need it say so with
 * LOCK_ASSERT_HELD(), which builds without NDEBUG check (scripts/memory/sanitize.sh
 * builds so).
 */
#ifndef AMP_CORE_LOCK_H
#define AMP_CORE_LOCK_H

#include <assert.h>
#include <stdint.h>

/* Take the lock, after every operation given a turn has taken it. */
void amp__lock_acquire(void);

/* Turns: an operation that a call starts on a thread of its own (an
 * asynchronous copy) takes the lock before any call made after that one,
 * and operations so started take it in the order they were started, so
 * that each runs where the program put it. Under the lock: the next turn,
 * for the operation's thread to pass to amp__lock_acquire_turn. Every turn
 * given must be taken, or no later call gets the lock. */
uint64_t amp__lock_give_turn(void);

/* Take the lock in the turn *turn, which may be written under the lock
 * after this thread starts (it is read once the lock is this thread's). */
void amp__lock_acquire_turn(const uint64_t *turn);

/* Release the lock, then report a failure of the call to the error
 * callback, if one is waiting (error.c): the callback may call the
 * library. */
void amp__lock_release(void);

/* Nonzero when this thread holds the lock. */
int amp__lock_held(void);

/* In debug builds, stop when the calling thread does not hold the lock. */
#define LOCK_ASSERT_HELD() assert(amp__lock_held())

#endif
