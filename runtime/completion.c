/*
 * runtime/completion.c - completion handles: a thread per asynchronous
 * operation, whose status and message are handed to the thread that waits.
 *
 * The operations take the runtime lock like any call, so they run after the
 * calls in progress and before later ones; a thread (rather than OpenCL
 * events) lets every kind of copy, including the host-side ones, run on
 * while the caller works.
 */
#include "completion.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

struct amp_completion {
    pthread_t thread;
    amp_status (*fn)(void *);
    void *arg;
    pthread_mutex_t mutex;
    pthread_cond_t finished; /* done became 1 */
    int done;
    int joined;
    amp_status status;
    char *message;
};

static void *run(void *p)
{
    amp_completion *c = p;
    amp_status st = c->fn(c->arg);
    char *msg = st != AMP_OK ? strdup(amp_last_error()) : NULL;
    free(c->arg);
    pthread_mutex_lock(&c->mutex);
    c->status = st;
    c->message = msg;
    c->done = 1;
    pthread_cond_broadcast(&c->finished);
    pthread_mutex_unlock(&c->mutex);
    return NULL;
}

amp_status cmp_start(amp_status (*fn)(void *arg), void *arg, amp_completion **out)
{
    amp_completion *c = calloc(1, sizeof *c);
    if (!c) {
        free(arg);
        return err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory starting an asynchronous"
                                                " operation.");
    }
    c->fn = fn;
    c->arg = arg;
    pthread_mutex_init(&c->mutex, NULL);
    pthread_cond_init(&c->finished, NULL);
    int rc = pthread_create(&c->thread, NULL, run, c);
    if (rc != 0) {
        pthread_cond_destroy(&c->finished);
        pthread_mutex_destroy(&c->mutex);
        free(c);
        free(arg);
        return err_set(AMP_ERROR_RUNTIME,
                       "Cannot start a thread for an asynchronous operation (%s).", strerror(rc));
    }
    *out = c;
    return AMP_OK;
}

amp_status amp_completion_wait(amp_completion *c)
{
    if (!c)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_completion_wait: the handle is NULL.");
    /* The first waiter joins the thread; others, in other threads, wait
     * for it to finish. */
    pthread_mutex_lock(&c->mutex);
    int joined = c->joined;
    c->joined = 1;
    pthread_mutex_unlock(&c->mutex);
    if (!joined)
        pthread_join(c->thread, NULL);
    pthread_mutex_lock(&c->mutex);
    while (!c->done)
        pthread_cond_wait(&c->finished, &c->mutex);
    amp_status st = c->status;
    pthread_mutex_unlock(&c->mutex);
    /* message is written once, before done, and never again. */
    if (st != AMP_OK)
        return err_set(st, "%s", c->message ? c->message : "An asynchronous operation failed.");
    return AMP_OK;
}

amp_status amp_completion_is_done(amp_completion *c, int *done)
{
    if (!c || !done)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_completion_is_done: %s is NULL.",
                       c ? "done" : "the handle");
    pthread_mutex_lock(&c->mutex);
    *done = c->done;
    pthread_mutex_unlock(&c->mutex);
    return AMP_OK;
}

amp_status amp_completion_release(amp_completion *c)
{
    if (!c)
        return AMP_OK;
    amp_status st = amp_completion_wait(c);
    pthread_cond_destroy(&c->finished);
    pthread_mutex_destroy(&c->mutex);
    free(c->message);
    free(c);
    return st;
}
