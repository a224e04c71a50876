/*
 * runtime/device/completion.c - completion handles: a thread per asynchronous
 * operation, whose status and message are handed to the thread that waits;
 * or an OpenCL event, for markers, which completes on the device.
 *
 * An operation takes the runtime lock in its turn (core/lock.h): after the
 * call that started it and before any later call, so that a kernel
 * launched after an asynchronous copy runs after it, as in C++ AMP, whose
 * copy_async queued its device side at the call. A thread (rather than
 * OpenCL events) lets every kind of copy, including the host-side ones,
 * run on while the caller works. A marker has nothing to run on the host:
 * its event is enough.
 *
 * Waiting cannot hold the runtime lock (the operation's thread needs it),
 * so a wait takes the lock twice: to look the handle up and count itself as
 * a user of it, and, after the wait, to take the outcome and leave. A
 * release ends the handle at once (later calls are refused), waits like any
 * waiter, and the last user to leave frees it: a wait in progress on
 * another thread never finds its handle freed.
 */
#include "device/completion.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/handle.h"
#include "core/lock.h"
#include "core/timeline.h"

struct amp_completion {
    /* A thread's operation. */
    pthread_t thread;
    amp_status (*fn)(void *);
    void *arg;
    uint64_t turn; /* its turn to take the runtime lock */
    pthread_mutex_t mutex;
    pthread_cond_t finished; /* done became 1 */
    int done;
    int joined;
    amp_status status;
    char *message;
    /* Or a device's: the event, and what waiting on it means. */
    cl_event event;
    char *what;
    /* Under the runtime lock: the calls inside a wait (a release counts as
     * one), and whether amp_completion_release() ended the handle. */
    int users;
    int ended;
    pid_t made_in; /* the process whose thread runs the operation */
};

static void *run(void *p)
{
    amp_completion *c = p;
    /* The thread that waits reports the failure, to its own callback. */
    amp__err_hold_callbacks(1);
    amp__lock_acquire_turn(&c->turn);
    amp_status st = c->fn(c->arg); /* lets the lock go */
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

/* A handle with its mutex and condition made; NULL when out of memory. */
static amp_completion *make(void)
{
    amp_completion *c = amp__handle_alloc(HD_COMPLETION, sizeof *c, HD_CALLER);
    if (!c)
        return NULL;
    pthread_mutex_init(&c->mutex, NULL);
    pthread_cond_init(&c->finished, NULL);
    c->made_in = getpid();
    return c;
}

static void destroy(amp_completion *c)
{
    if (c->event)
        amp__clapi.ReleaseEvent(c->event);
    pthread_cond_destroy(&c->finished);
    pthread_mutex_destroy(&c->mutex);
    free(c->message);
    free(c->what);
    amp__handle_free(c);
}

amp_status amp__completion_start(amp_status (*fn)(void *arg), void (*drop)(void *arg), void *arg,
                                 amp_completion **out)
{
    LOCK_ASSERT_HELD();
    amp_status st = AMP_OK;
    amp_completion *c = make();
    if (!c) {
        st = amp__err_set(AMP_ERROR_OUT_OF_MEMORY,
                          "Out of host memory starting an asynchronous operation.");
        goto fail_arg;
    }
    c->fn = fn;
    c->arg = arg;
    int rc = pthread_create(&c->thread, NULL, run, c);
    if (rc != 0) {
        st = amp__err_set(AMP_ERROR_RUNTIME,
                          "Cannot start a thread for an asynchronous operation (%s).",
                          strerror(rc));
        goto fail_handle;
    }
    /* Given once the thread runs: a turn nobody takes would stop every
     * later call. The thread reads it once this call lets the lock go. */
    c->turn = amp__lock_give_turn();
    *out = c;
    return AMP_OK;

fail_handle:
    destroy(c);
fail_arg:
    drop(arg);
    free(arg);
    return st;
}

amp_status amp__completion_from_event(cl_event ev, const char *what, amp_completion **out)
{
    LOCK_ASSERT_HELD();
    amp_completion *c = make();
    char *w = strdup(what);
    if (!c || !w) {
        if (c)
            destroy(c);
        free(w);
        amp__clapi.ReleaseEvent(ev);
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory making a marker.");
    }
    c->event = ev;
    c->what = w;
    *out = c;
    return AMP_OK;
}

/* Under the lock: check the handle and count the caller as a user. An
 * operation of a thread the parent process started before fork() never
 * finishes in the child, which has no such thread: refused, not waited
 * for. */
static amp_status enter(const char *fn, amp_completion *c)
{
    LOCK_ASSERT_HELD();
    amp_status st = amp__handle_check(fn, c, HD_COMPLETION);
    if (st == AMP_OK && !c->event && c->made_in != getpid()) {
        pthread_mutex_lock(&c->mutex);
        int done = c->done;
        pthread_mutex_unlock(&c->mutex);
        if (!done)
            return amp__err_set(AMP_ERROR_INVALID_OPERATION,
                                "%s: the operation was started before this process was forked,"
                                " and runs in the parent only; wait for it there.",
                                fn);
    }
    if (st == AMP_OK)
        c->users++;
    return st;
}

/* Under the lock: the caller is done with the handle; the last user of an
 * ended handle frees it. */
static void leave(amp_completion *c)
{
    LOCK_ASSERT_HELD();
    if (--c->users == 0 && c->ended)
        destroy(c);
}

/* The event's execution status: CL_COMPLETE, a negative error, or a
 * positive stage not reached yet. */
static cl_int event_status(cl_event ev, cl_int *status)
{
    return amp__clapi.GetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof *status, status,
                                   NULL);
}

/* How a wait ended: a thread's operation has its own status; a marker's
 * event, an OpenCL code and the call that gave it. */
typedef struct waited {
    cl_int rc;
    const char *call;
} waited;

/* Without the lock: wait until the operation has finished. */
static waited await(amp_completion *c)
{
    waited w = {CL_SUCCESS, NULL};
    if (c->event) {
        w.rc = amp__clapi.WaitForEvents(1, &c->event);
        w.call = "clWaitForEvents";
        cl_int status = CL_COMPLETE;
        if (w.rc == CL_SUCCESS || w.rc == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
            cl_int q = event_status(c->event, &status);
            if (q != CL_SUCCESS) {
                w.rc = q;
                w.call = "clGetEventInfo";
            } else if (status < 0) {
                /* The marker did not complete: a command before it failed,
                 * and the event carries that command's error. */
                w.rc = status;
                w.call = "the queue";
            }
        }
        return w;
    }
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
    pthread_mutex_unlock(&c->mutex);
    return w;
}

/* Under the lock, after the wait: the operation's status, with its message
 * as this thread's last error. */
static amp_status outcome(const amp_completion *c, waited w)
{
    LOCK_ASSERT_HELD();
    if (c->event) {
        if (w.rc == CL_SUCCESS)
            return AMP_OK;
        return amp__err_set(AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                            "%s: %s ended with %s (%d): a command queued before the marker"
                            " failed, so the device is no longer usable (it was lost, or a"
                            " kernel aborted). Host memory keeps what was last copied back;"
                            " choose another accelerator, or call amp_shutdown() and start"
                            " again.",
                            c->what, w.call, amp__err_cl_name(w.rc), (int)w.rc);
    }
    /* status and message are written once, before done, and never again. */
    if (c->status == AMP_OK)
        return AMP_OK;
    return amp__err_set(c->status, "%s",
                        c->message ? c->message : "An asynchronous operation failed.");
}

/* Wait on c as the public call fn; release: end the handle first. */
static amp_status wait_as(const char *fn, amp_completion *c, int release)
{
    amp__lock_acquire();
    /* On the timeline, the call spans the wait, without the lock. */
    tl_call call;
    amp__tl_call_begin(&call);
    amp_status st = enter(fn, c);
    if (st == AMP_OK && release) {
        c->ended = 1;
        amp__handle_end(c);
    }
    if (st != AMP_OK)
        amp__tl_call_end(&call, fn, st, NULL);
    amp__lock_release();
    if (st != AMP_OK)
        return st;
    waited w = await(c);
    amp__lock_acquire();
    st = outcome(c, w);
    leave(c);
    amp__tl_call_end(&call, fn, st, NULL);
    amp__lock_release();
    return st;
}

amp_status amp_completion_wait(amp_completion *c)
{
    return wait_as("amp_completion_wait", c, 0);
}

amp_status amp_completion_release(amp_completion *c)
{
    if (!c)
        return AMP_OK;
    return wait_as("amp_completion_release", c, 1);
}

amp_status amp_completion_is_done(amp_completion *c, int *done)
{
    static const char fn[] = "amp_completion_is_done";
    if (!done)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: done is NULL.", fn);
    amp__lock_acquire();
    amp_status st = amp__handle_check(fn, c, HD_COMPLETION);
    if (st == AMP_OK && c->event) {
        cl_int status = CL_COMPLETE;
        /* A status that cannot be read will not change: done, and the
         * wait says what went wrong. */
        *done = event_status(c->event, &status) != CL_SUCCESS || status <= CL_COMPLETE;
    } else if (st == AMP_OK) {
        pthread_mutex_lock(&c->mutex);
        *done = c->done;
        pthread_mutex_unlock(&c->mutex);
    }
    amp__lock_release();
    return st;
}
