/*
 * runtime/core/lock.c - the process-wide lock.
 */
#include "core/lock.h"

#include <pthread.h>
#include <stdint.h>

#include "core/error.h"

static pthread_mutex_t lock_mutex = PTHREAD_MUTEX_INITIALIZER;
/* Whether this thread holds the lock, for the debug checks. */
static _Thread_local int lock_is_held;

/* Turns (lock.h): given to operations that must take the lock next, in
 * order, and taken; a plain acquire waits while any given turn is not
 * taken yet. Both change under the lock. */
static pthread_cond_t turn_taken = PTHREAD_COND_INITIALIZER;
static uint64_t turns_given, turns_taken;

/* fork() while another thread holds the lock would leave it held forever
 * in the child, which has no such thread: the child starts with the lock
 * free. (Taking the lock before a fork instead would hang an OpenCL
 * implementation that forks on its own thread while a call of ours waits
 * for it.) */
static void free_in_child(void)
{
    pthread_mutex_t unlocked = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t fresh = PTHREAD_COND_INITIALIZER;
    lock_mutex = unlocked;
    lock_is_held = 0;
    /* The threads whose turns were given are the parent's. */
    turn_taken = fresh;
    turns_given = turns_taken = 0;
}

static void watch_fork(void)
{
    pthread_atfork(NULL, NULL, free_in_child);
}

static void take_mutex(void)
{
    static pthread_once_t fork_watched = PTHREAD_ONCE_INIT;
    pthread_once(&fork_watched, watch_fork);
    pthread_mutex_lock(&lock_mutex);
}

/* The mutex is this thread's: the lock is. */
static void held(void)
{
    lock_is_held = 1;
    /* A failure inside waits for the release to reach the error callback,
     * which may call the library. */
    amp__err_defer_reports(1);
}

void amp__lock_acquire(void)
{
    take_mutex();
    while (turns_taken != turns_given)
        pthread_cond_wait(&turn_taken, &lock_mutex);
    held();
}

uint64_t amp__lock_give_turn(void)
{
    LOCK_ASSERT_HELD();
    return turns_given++;
}

void amp__lock_acquire_turn(const uint64_t *turn)
{
    take_mutex();
    /* *turn was written under the lock, before the mutex was let go. */
    while (turns_taken != *turn)
        pthread_cond_wait(&turn_taken, &lock_mutex);
    turns_taken++;
    /* The next turn's thread, and plain acquires once the last is taken. */
    pthread_cond_broadcast(&turn_taken);
    held();
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
