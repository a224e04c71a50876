/*
 * runtime/core/lock.c - the process-wide lock.
 */
#include "core/lock.h"

#include <pthread.h>

#include "core/error.h"

static pthread_mutex_t lock_mutex = PTHREAD_MUTEX_INITIALIZER;
/* Whether this thread holds the lock, for the debug checks. */
static _Thread_local int lock_is_held;

void amp__lock_acquire(void)
{
    pthread_mutex_lock(&lock_mutex);
    lock_is_held = 1;
    /* A failure inside waits for the release to reach the error callback,
     * which may call the library. */
    amp__err_defer_reports(1);
}

void amp__lock_release(void)
{
    lock_is_held = 0;
    pthread_mutex_unlock(&lock_mutex);
    amp__err_defer_reports(0);
}

int amp__lock_held(void)
{
    return lock_is_held;
}
