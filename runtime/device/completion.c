/*
 * runtime/device/completion.c - completion handles: a thread per asynchronous
 * operation, whose status and message are handed to the thread that waits;
 * or an OpenCL event, for markers, which completes on the device.
 *
 * The operations take the runtime lock like any call, so they run after the
 * calls in progress and before later ones; a thread (rather than OpenCL
 * events) lets every kind of copy, including the host-side ones, run on
 * while the caller works. A marker has nothing to run on the host: its
 * event is enough, and waiting on it holds no lock.
 */
#include "device/completion.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

struct amp_completion {
    /* A thread's operation. */
    pthread_t thread;
    amp_status (*fn)(void *);
    void *arg;
    pthread_mutex_t mutex;
    pthread_cond_t finished; /* done became 1 */
    int done;
    int joined;
    amp_status status;
    char *message;
    /* Or a device's: the event, and what waiting on it means. */
    cl_event event;
    char *what;
};

static void *run(void *p)
{
    amp_completion *c = p;
    /* The thread that waits reports the failure, to its own callback. */
    amp__err_hold_callbacks(1);
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

amp_status amp__completion_start(amp_status (*fn)(void *arg), void *arg, amp_completion **out)
{
    amp_completion *c = calloc(1, sizeof *c);
    if (!c) {
        free(arg);
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory starting an asynchronous"
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
        return amp__err_set(AMP_ERROR_RUNTIME,
                       "Cannot start a thread for an asynchronous operation (%s).", strerror(rc));
    }
    *out = c;
    return AMP_OK;
}

amp_status amp__completion_from_event(cl_event ev, const char *what, amp_completion **out)
{
    amp_completion *c = calloc(1, sizeof *c);
    char *w = strdup(what);
    if (!c || !w) {
        free(c);
        free(w);
        amp__clapi.ReleaseEvent(ev);
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory making a marker.");
    }
    pthread_mutex_init(&c->mutex, NULL);
    pthread_cond_init(&c->finished, NULL);
    c->event = ev;
    c->what = w;
    *out = c;
    return AMP_OK;
}

/* The event's execution status: CL_COMPLETE, a negative error, or a
 * positive stage not reached yet. */
static cl_int event_status(cl_event ev, cl_int *status)
{
    return amp__clapi.GetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof *status, status,
                              NULL);
}

static amp_status wait_event(amp_completion *c)
{
    cl_int rc = amp__clapi.WaitForEvents(1, &c->event);
    cl_int status = CL_COMPLETE;
    const char *call = "clWaitForEvents";
    if (rc == CL_SUCCESS || rc == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
        cl_int q = event_status(c->event, &status);
        if (q != CL_SUCCESS) {
            rc = q;
            call = "clGetEventInfo";
        } else if (status < 0) {
            /* The marker did not complete: a command before it failed, and
             * the event carries that command's error. */
            rc = status;
            call = "the queue";
        }
    }
    if (rc == CL_SUCCESS)
        return AMP_OK;
    return amp__err_set(AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                   "%s: %s ended with %s (%d): a command queued before the marker failed, so"
                   " the device is no longer usable (it was lost, or a kernel aborted). Host"
                   " memory keeps what was last copied back; choose another accelerator, or"
                   " call amp_shutdown() and start again.",
                   c->what, call, amp__err_cl_name(rc), (int)rc);
}

amp_status amp_completion_wait(amp_completion *c)
{
    if (!c)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_completion_wait: the handle is NULL.");
    if (c->event)
        return wait_event(c);
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
        return amp__err_set(st, "%s", c->message ? c->message : "An asynchronous operation failed.");
    return AMP_OK;
}

amp_status amp_completion_is_done(amp_completion *c, int *done)
{
    if (!c || !done)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_completion_is_done: %s is NULL.",
                       c ? "done" : "the handle");
    if (c->event) {
        cl_int status = CL_COMPLETE;
        /* A status that cannot be read will not change: done, and the
         * wait says what went wrong. */
        *done = event_status(c->event, &status) != CL_SUCCESS || status <= CL_COMPLETE;
        return AMP_OK;
    }
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
    if (c->event)
        amp__clapi.ReleaseEvent(c->event);
    pthread_cond_destroy(&c->finished);
    pthread_mutex_destroy(&c->mutex);
    free(c->message);
    free(c->what);
    free(c);
    return st;
}
