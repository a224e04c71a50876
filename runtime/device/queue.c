/*
 * runtime/device/queue.c - accelerator views: an accelerator's context, its
 * default view and the views made with amp_accelerator_create_view, their
 * lifetime, waits, flushes, markers, and the bound on work in flight.
 *
 * Every view of an accelerator uses its one context, so a buffer made for
 * one view is usable on all of them; coherence.c orders the work of two
 * views that share data. A created view is a handle (core/handle.h) while
 * the caller has not released it or an array is bound to it; its memory
 * and queue stay while a data copy records it as the last queue that used
 * it (uses), so that coherence.c never waits on a freed queue. The default
 * view is the library's until amp_shutdown().
 */
#include <stdio.h>
#include <stdlib.h>

#include "device/queue.h"

#include "core/env.h"
#include "core/error.h"
#include "core/handle.h"
#include "core/limits.h"
#include "core/lock.h"
#include "core/probe.h"
#include "core/timeline.h"
#include "core/testing.h"
#include "device/completion.h"
#include "device/devtime.h"
#include "device/ending.h"
#include "device/oclcheck.h"
#include "device/profile.h"

static void CL_CALLBACK context_notify(const char *msg, const void *info, size_t n, void *user)
{
    if (amp__ock_installed())
        amp__ock_context_notify(msg, info, n, user);
    if (amp__env_trace_kernels())
        fprintf(stderr, "[amp] OpenCL: %s\n", msg);
}

static amp_status removed_error(const amp_accelerator *acc)
{
    return amp__err_set(AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                        "%s (%s) was removed: an earlier wait found the device lost or a kernel"
                        " aborted (%s). Its device memory is gone; host memory keeps what was"
                        " last copied back. Choose another accelerator, or call amp_shutdown()"
                        " and start again.",
                        acc->name, acc->path, amp__err_cl_name(acc->removed));
}

/* The accelerator's context, made on first use; not once the process has
 * begun to exit, when the OpenCL implementation may be half torn down
 * (device/ending.h). */
static amp_status ensure_context(amp_accelerator *acc)
{
    if (acc->context)
        return AMP_OK;
    if (amp__end_begun()) {
        char what[200];
        snprintf(what, sizeof what, "%s (%s) has no OpenCL context yet", acc->name, acc->path);
        return amp__end_refused(what, "making one now could crash inside the OpenCL"
                                      " implementation, whose exit handlers may have run");
    }
    cl_int rc = CL_SUCCESS;
    int first = amp__end_begin(END_CONTEXT, acc->platform);
    acc->context = amp__clapi.CreateContext(NULL, 1, &acc->device, context_notify, NULL, &rc);
    amp__end_done(END_CONTEXT, acc->platform, first);
    return acc->context ? AMP_OK : amp__err_cl(rc, "clCreateContext", acc->name);
}

static amp_status make_view(amp_accelerator *acc, amp_queuing_mode mode, hd_owner owner,
                            amp_accelerator_view **out)
{
    if (acc->removed)
        return removed_error(acc);
    amp_status st = ensure_context(acc);
    if (st != AMP_OK)
        return st;
    amp_accelerator_view *v = amp__handle_alloc(HD_ACCELERATOR_VIEW, sizeof *v, owner);
    if (!v)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory making a queue.");
    cl_int rc = CL_SUCCESS;
    v->acc = acc;
    v->mode = mode;
    v->queue = amp__clapi.CreateCommandQueue(acc->context, acc->device,
                                             amp__prof_queue_properties(), &rc);
    if (!v->queue) {
        amp__handle_free(v);
        return amp__err_cl(rc, "clCreateCommandQueue", acc->name);
    }
    st = amp__end_queue_made(v->queue, acc->platform);
    if (st != AMP_OK) {
        amp__clapi.ReleaseCommandQueue(v->queue);
        amp__handle_free(v);
        return st;
    }
    *out = v;
    return AMP_OK;
}

/* Release the queue and the view. Its launches' profiling events keep
 * what they need of it (profile.c). */
static void free_view(amp_accelerator_view *v)
{
    if (v->mark)
        amp__clapi.ReleaseEvent(v->mark);
    amp__end_queue_freed(v->queue);
    amp__clapi.ReleaseCommandQueue(v->queue);
    amp__handle_free(v);
}

amp_status amp__queue_default_view(amp_accelerator *acc, amp_accelerator_view **out)
{
    LOCK_ASSERT_HELD();
    if (acc->default_view) {
        *out = acc->default_view;
        return AMP_OK;
    }
    amp_status st = make_view(acc, AMP_QUEUING_AUTOMATIC, HD_LIBRARY, &acc->default_view);
    if (st == AMP_OK)
        *out = acc->default_view;
    return st;
}

int amp__queue_is_live(const amp_accelerator_view *av)
{
    LOCK_ASSERT_HELD();
    return amp__handle_is(av, HD_ACCELERATOR_VIEW);
}

static int is_default(const amp_accelerator_view *av)
{
    return av == av->acc->default_view;
}

amp_status amp__queue_check(const char *fn, const amp_accelerator_view *av)
{
    LOCK_ASSERT_HELD();
    amp_status st = amp__handle_check(fn, av, HD_ACCELERATOR_VIEW);
    if (st == AMP_OK && av->acc->removed)
        st = removed_error(av->acc);
    return st;
}

amp_status amp__queue_resolve_in(const char *fn, amp_accelerator_view *av,
                                 amp_accelerator_view **out)
{
    LOCK_ASSERT_HELD();
    amp_status st = AMP_OK;
    if (av) {
        st = amp__queue_check(fn, av);
        if (st == AMP_OK)
            *out = av;
        return st;
    }
    amp_accelerator *acc = NULL;
    st = amp__acc_default(&acc);
    if (st == AMP_OK && acc->removed)
        st = removed_error(acc);
    if (st != AMP_OK)
        return st;
    return amp__queue_default_view(acc, out);
}

amp_status amp__queue_resolve(amp_accelerator_view *av, amp_accelerator_view **out)
{
    return amp__queue_resolve_in("parallel_for_each", av, out);
}

/* A created view that neither the caller nor an array holds is no longer a
 * handle; once no data copy uses its queue either, it is freed. */
static void drop_if_unused(amp_accelerator_view *v)
{
    if (v->caller_holds || v->holds > 0)
        return;
    amp__handle_end(v);
    if (v->uses > 0)
        return;
    amp_accelerator_view **link = &v->acc->views;
    while (*link != v)
        link = &(*link)->next;
    *link = v->next;
    free_view(v);
}

void amp__queue_retain(amp_accelerator_view *av)
{
    LOCK_ASSERT_HELD();
    if (amp__queue_is_live(av) && !is_default(av))
        av->holds++;
}

void amp__queue_release(amp_accelerator_view *av)
{
    LOCK_ASSERT_HELD();
    /* After amp_shutdown() the view is gone, and nothing is held. */
    if (amp__queue_is_live(av) && !is_default(av) && av->holds > 0) {
        av->holds--;
        drop_if_unused(av);
    }
}

void amp__queue_use(amp_accelerator_view *av)
{
    LOCK_ASSERT_HELD();
    if (av && !is_default(av))
        av->uses++;
}

void amp__queue_unuse(amp_accelerator_view *av)
{
    LOCK_ASSERT_HELD();
    if (av && !is_default(av) && av->uses > 0) {
        av->uses--;
        drop_if_unused(av);
    }
}

/* Whether rc, from a wait or submission on av, says the device was lost
 * or a kernel aborted; if so, the accelerator is removed. */
static int removes(amp_accelerator_view *av, cl_int rc)
{
    /* A wait that ends in CL_OUT_OF_RESOURCES means a kernel went wrong on
     * the device (NVIDIA's answer to an aborted kernel): the queue and its
     * context are unusable, as for a lost device. Codes below -1000 are
     * extensions' (NVIDIA's, among others), and only a device in trouble
     * answers a wait with one. */
    int removed = rc == CL_OUT_OF_RESOURCES || rc == CL_DEVICE_NOT_AVAILABLE ||
                  rc == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST || rc < -1000 ||
                  amp__err_status_of_cl(rc) == AMP_ERROR_ACCELERATOR_VIEW_REMOVED;
    if (removed)
        av->acc->removed = rc;
    return removed;
}

amp_status amp__queue_failed(amp_accelerator_view *av, cl_int rc, const char *call,
                             const char *what)
{
    LOCK_ASSERT_HELD();
    if (!removes(av, rc))
        return amp__err_cl(rc, call, what);
    amp_accelerator *acc = av->acc;
    return amp__err_set(AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                        "%s: %s failed with %s (%d): %s (%s) is no longer usable (the device"
                        " was lost, or a kernel aborted). Its device memory is gone; host"
                        " memory keeps what was last copied back. Choose another accelerator,"
                        " or call amp_shutdown() and start again.",
                        what, call, amp__err_cl_name(rc), (int)rc, acc->name, acc->path);
}

/* Nothing queued on v is in flight any more: forget its marker. */
static void drained(amp_accelerator_view *v)
{
    if (v->mark)
        amp__clapi.ReleaseEvent(v->mark);
    v->mark = NULL;
    v->launched = 0;
}

/* Before a kernel is queued on av: count it, and every LIMIT_QUEUE_SPAN
 * launches wait for the marker of the span before (queue.h). */
static amp_status make_room(amp_accelerator_view *av)
{
    LOCK_ASSERT_HELD();
    amp__end_launching(av->queue, av->acc->platform);
    if (++av->launched < LIMIT_QUEUE_SPAN)
        return AMP_OK;
    av->launched = 0;
    cl_int rc = CL_SUCCESS;
    const char *call = "clWaitForEvents";
    if (av->mark) {
        rc = amp__clapi.WaitForEvents(1, &av->mark);
        amp__clapi.ReleaseEvent(av->mark);
        av->mark = NULL;
        if (rc == CL_SUCCESS)
            amp__end_ran(av->acc->platform);
    }
    /* Flushed, so that the marker, and the span before it, reach the
     * device without waiting for the next wait. */
    if (rc == CL_SUCCESS &&
        (rc = amp__clapi.EnqueueMarkerWithWaitList(av->queue, 0, NULL, &av->mark)) != CL_SUCCESS)
        call = "clEnqueueMarkerWithWaitList";
    if (rc == CL_SUCCESS && (rc = amp__clapi.Flush(av->queue)) != CL_SUCCESS)
        call = "clFlush";
    if (rc == CL_SUCCESS)
        return AMP_OK;
    drained(av);
    return amp__queue_failed(av, rc, call, "Waiting for the queue to run what is queued");
}

/* "Running kernel NAME from FILE:LINE", for a failure's message. */
static void kernel_what(char *what, size_t size, const char *step, const queue_kernel *k)
{
    snprintf(what, size, "%s kernel %s from %s:%d", step, k->name, k->site->file, k->site->line);
}

amp_status amp__queue_launch(amp_accelerator_view *av, const queue_kernel *k,
                             const uint64_t moved[2], cl_event *event)
{
    amp_status st = make_room(av);
    AMP__PROBE("5 back-pressure (make_room)");
    if (st != AMP_OK)
        return st;
    cl_event ev = NULL;
    const size_t *offset = k->offset[0] | k->offset[1] | k->offset[2] ? k->offset : NULL;
    cl_int rc = amp__clapi.EnqueueNDRangeKernel(av->queue, k->kernel, k->dims, offset, k->global,
                                                k->local, 0, NULL, amp__prof_on() ? &ev : event);
    AMP__PROBE("5 clEnqueueNDRangeKernel");
    if (rc != CL_SUCCESS) {
        char what[160];
        kernel_what(what, sizeof what, "Running", k);
        return amp__err_cl(rc, "clEnqueueNDRangeKernel", what);
    }
    if (ev) {
        /* Both want the event: the timeline holds its own reference. */
        if (event && amp__clapi.RetainEvent(ev) == CL_SUCCESS)
            *event = ev;
        amp__prof_launched(k->name, k->site, ev, moved[0], moved[1]);
    }
    return AMP_OK;
}

void amp__queue_submit_now(amp_accelerator_view *av, const queue_kernel *k)
{
    LOCK_ASSERT_HELD();
    cl_int rc = amp__clapi.Flush(av->queue);
    if (rc == CL_SUCCESS)
        return;
    /* The kernel is queued and its views marked written: the launch
     * happened, and says so (a caller that retried a failed launch would
     * apply it twice). What is queued reaches the device with the next
     * flush or wait of the view, which reports a failure that lasts; a
     * device lost is reported by the next call that needs it. */
    int removed = removes(av, rc);
    if (amp__env_trace_kernels())
        fprintf(stderr, "[amp] submitting kernel %s from %s:%d failed with %s: %s\n", k->name,
                k->site->file, k->site->line, amp__err_cl_name(rc),
                removed ? "the accelerator is removed, and the next call on it says so"
                        : "it stays queued, and the next flush or wait of the view submits it");
}

/* Wait for one view and read its profiling events. */
static amp_status finish(amp_accelerator_view *v, const char *what)
{
    int launched = v->launched || v->mark;
    cl_int rc = amp__clapi.Finish(v->queue);
    if (rc != CL_SUCCESS)
        return amp__queue_failed(v, rc, "clFinish", what);
    if (launched)
        amp__end_ran(v->acc->platform);
    drained(v);
    amp__prof_collect();
    return AMP_OK;
}

amp_status amp__queue_finish_all(void)
{
    LOCK_ASSERT_HELD();
    amp_status st = AMP_OK;
    for (size_t i = 0, n = amp__acc_listed(); i < n; i++) {
        amp_accelerator *acc = amp__acc_at(i);
        if (acc->default_view && !acc->removed) {
            amp_status one = finish(acc->default_view, "Waiting for the queues");
            st = st == AMP_OK ? one : st;
        }
        /* A wait that finds the device lost removes the accelerator: its
         * other queues are not waited for. */
        for (amp_accelerator_view *v = acc->views; v && !acc->removed; v = v->next) {
            amp_status one = finish(v, "Waiting for the queues");
            st = st == AMP_OK ? one : st;
        }
    }
    return st;
}

int amp__queue_timeline(amp_accelerator_view *av, int *profiled)
{
    LOCK_ASSERT_HELD();
    int number = amp__dtime_queue_seen(av, profiled);
    if (number)
        return number;
    /* The library's own view, neither a handle nor a default view, is a
     * device's transfer queue (data/staging.c). */
    int is_default = av == av->acc->default_view;
    int transfer = !is_default && !amp__handle_is(av, HD_ACCELERATOR_VIEW);
    const char *kind = is_default                          ? "default, automatic"
                       : av->mode == AMP_QUEUING_IMMEDIATE ? "immediate"
                                                           : "automatic";
    return amp__dtime_queue(av, av->queue, av->acc->index, av->acc->name, kind, transfer, profiled);
}

void amp__queue_shutdown(void)
{
    LOCK_ASSERT_HELD();
    for (size_t i = 0, n = amp__acc_listed(); i < n; i++) {
        amp_accelerator *acc = amp__acc_at(i);
        while (acc->views) {
            amp_accelerator_view *v = acc->views;
            acc->views = v->next;
            free_view(v);
        }
        if (acc->default_view)
            free_view(acc->default_view);
        acc->default_view = NULL;
        if (acc->context)
            amp__clapi.ReleaseContext(acc->context);
        acc->context = NULL;
    }
}

/* ---- Public API ---- */

amp_status amp_accelerator_get_default_view(amp_accelerator *acc, amp_accelerator_view **out)
{
    static const char fn[] = "amp_accelerator_get_default_view";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    amp__lock_acquire();
    amp_status st = amp__acc_resolve(fn, acc, &acc);
    if (st == AMP_OK)
        st = amp__queue_default_view(acc, out);
    amp__lock_release();
    return st;
}

/* Defined as (name): amp/accelerator.h also makes it a macro that records
 * the caller's line for the leak report. */
amp_status(amp_accelerator_create_view)(amp_accelerator *acc, amp_queuing_mode mode,
                                        amp_accelerator_view **out)
{
    static const char fn[] = "amp_accelerator_create_view";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    if (mode != AMP_QUEUING_IMMEDIATE && mode != AMP_QUEUING_AUTOMATIC)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: queuing mode %d is neither AMP_QUEUING_IMMEDIATE nor"
                            " AMP_QUEUING_AUTOMATIC.",
                            fn, (int)mode);
    amp__lock_acquire();
    amp_status st = amp__acc_resolve(fn, acc, &acc);
    amp_accelerator_view *v = NULL;
    if (st == AMP_OK)
        st = make_view(acc, mode, HD_CALLER, &v);
    if (st == AMP_OK) {
        v->caller_holds = 1;
        v->next = acc->views;
        acc->views = v;
        *out = v;
    }
    amp__lock_release();
    return st;
}

amp_status amp_accelerator_view_release(amp_accelerator_view *view)
{
    static const char fn[] = "amp_accelerator_view_release";
    if (!view)
        return AMP_OK;
    amp__lock_acquire();
    amp_status st = amp__handle_check(fn, view, HD_ACCELERATOR_VIEW);
    if (st == AMP_OK && !is_default(view) && !view->caller_holds)
        st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                          "%s: the accelerator view %p was already released (by"
                          " amp_accelerator_view_release()); the arrays bound to it keep it"
                          " usable until they are released. Release a view once.",
                          fn, (void *)view);
    else if (st == AMP_OK && !is_default(view)) {
        /* A default view belongs to the library: nothing to release. */
        view->caller_holds = 0;
        drop_if_unused(view);
    }
    amp__lock_release();
    return st;
}

/* What the getters read: a live view's accelerator, mode and whether it is
 * the default, taken under the lock; zeros for any other pointer. */
typedef struct view_facts {
    amp_accelerator *acc;
    amp_queuing_mode mode;
    int is_default;
} view_facts;

static view_facts facts_of(const amp_accelerator_view *view)
{
    view_facts f = {NULL, (amp_queuing_mode)0, 0};
    amp__lock_acquire();
    if (amp__queue_is_live(view))
        f = (view_facts){view->acc, view->mode, is_default(view)};
    amp__lock_release();
    return f;
}

amp_accelerator *amp_accelerator_view_get_accelerator(const amp_accelerator_view *view)
{
    return facts_of(view).acc;
}

amp_queuing_mode amp_accelerator_view_get_queuing_mode(const amp_accelerator_view *view)
{
    return facts_of(view).mode;
}

int amp_accelerator_view_is_default(const amp_accelerator_view *view)
{
    return facts_of(view).is_default;
}

amp_status amp_accelerator_view_wait(amp_accelerator_view *view)
{
    amp__lock_acquire();
    tl_call call;
    amp__tl_call_begin(&call);
    amp_status st = amp__queue_check("amp_accelerator_view_wait", view);
    if (st == AMP_OK)
        st = finish(view, "Waiting for the queue");
    amp__tl_call_end(&call, "amp_accelerator_view_wait", st, NULL);
    amp__lock_release();
    return st;
}

amp_status amp_accelerator_view_flush(amp_accelerator_view *view)
{
    amp__lock_acquire();
    tl_call call;
    amp__tl_call_begin(&call);
    amp_status st = amp__queue_check("amp_accelerator_view_flush", view);
    cl_int rc = CL_SUCCESS;
    if (st == AMP_OK && (rc = amp__clapi.Flush(view->queue)) != CL_SUCCESS)
        st = amp__queue_failed(view, rc, "clFlush", "Submitting the queue");
    amp__tl_call_end(&call, "amp_accelerator_view_flush", st, NULL);
    amp__lock_release();
    return st;
}

/* A marker at the end of view's queue, flushed, as a completion handle. */
static amp_status put_marker(amp_accelerator_view *view, amp_completion **out)
{
    cl_event ev = NULL;
    cl_int rc = amp__clapi.EnqueueMarkerWithWaitList(view->queue, 0, NULL, &ev);
    const char *call = "clEnqueueMarkerWithWaitList";
    /* Submitted now, so that a wait on the marker cannot wait for ever on
     * work that no one flushes. */
    if (rc == CL_SUCCESS && (rc = amp__clapi.Flush(view->queue)) != CL_SUCCESS)
        call = "clFlush";
    if (rc != CL_SUCCESS) {
        if (ev)
            amp__clapi.ReleaseEvent(ev);
        return amp__queue_failed(view, rc, call, "Putting a marker on the queue");
    }
    char what[200];
    snprintf(what, sizeof what, "Waiting for a marker on %s (%s)", view->acc->name,
             view->acc->path);
    return amp__completion_from_event(ev, what, out);
}

amp_status(amp_accelerator_view_create_marker)(amp_accelerator_view *view, amp_completion **out)
{
    static const char fn[] = "amp_accelerator_view_create_marker";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    amp__lock_acquire();
    amp_status st = amp__queue_check(fn, view);
    if (st == AMP_OK)
        st = put_marker(view, out);
    amp__lock_release();
    return st;
}

/* ---- Hooks for tests (core/testing.h) ---- */

test_cl_objects amp__test_cl_of_accelerator(const amp_accelerator *acc)
{
    return (test_cl_objects){acc->platform, acc->device, acc->context, NULL};
}

test_cl_objects amp__test_cl_of_view(const amp_accelerator_view *av)
{
    test_cl_objects o = amp__test_cl_of_accelerator(av->acc);
    o.queue = av->queue;
    return o;
}
