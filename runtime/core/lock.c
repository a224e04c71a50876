/*
 * runtime/core/lock.c - the process-wide lock.
 */
#include "core/lock.h"

#include <pthread.h>

#include "core/error.h"

static pthread_mutex_t lock_mutex = PTHREAD_MUTEX_INITIALIZER;
/* Whether this thread holds the lock, for the debug checks. */
static _Thread_local int lock_is_held;

/* fork() while another thread holds the lock would leave it held forever
 * in the child, which has no such thread: the child starts with the lock
 * free. (Taking the lock before a fork instead would hang an OpenCL
 * implementation that forks on its own thread while a call of ours waits
 * for it.) */
static void free_in_child(void)
{
    pthread_mutex_t unlocked = PTHREAD_MUTEX_INITIALIZER;
    lock_mutex = unlocked;
    lock_is_held = 0;
}

static void watch_fork(void)
{
    pthread_atfork(NULL, NULL, free_in_child);
}

void amp__lock_acquire(void)
{
    static pthread_once_t fork_watched = PTHREAD_ONCE_INIT;
    pthread_once(&fork_watched, watch_fork);
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
