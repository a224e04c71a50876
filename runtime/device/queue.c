/*
 * runtime/device/queue.c - accelerator views: an accelerator's context, its
 * default view and the views made with amp_accelerator_create_view, their
 * lifetime, waits, flushes and markers.
 *
 * Every view of an accelerator uses its one context, so a buffer made for
 * one view is usable on all of them; coherence.c orders the work of two
 * views that share data. A created view is kept while the caller or an
 * array holds it (holds) and while a data copy records it as the last
 * queue that used it (uses), so that coherence.c never waits on a freed
 * queue; the default view is the library's until amp_shutdown().
 */
#include <stdio.h>
#include <stdlib.h>

#include "device/queue.h"

#include "core/env.h"
#include "core/error.h"
#include "core/lock.h"
#include "device/completion.h"
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
                   " aborted (%s). Its device memory is gone; host memory keeps what was last"
                   " copied back. Choose another accelerator, or call amp_shutdown() and start"
                   " again.",
                   acc->name, acc->path, amp__err_cl_name(acc->removed));
}

static amp_status ensure_context(amp_accelerator *acc)
{
    if (acc->context)
        return AMP_OK;
    cl_int rc = CL_SUCCESS;
    acc->context = amp__clapi.CreateContext(NULL, 1, &acc->device, context_notify, NULL, &rc);
    return acc->context ? AMP_OK : amp__err_cl(rc, "clCreateContext", acc->name);
}

static amp_status make_view(amp_accelerator *acc, amp_queuing_mode mode,
                            amp_accelerator_view **out)
{
    if (acc->removed)
        return removed_error(acc);
    amp_status st = ensure_context(acc);
    if (st != AMP_OK)
        return st;
    amp_accelerator_view *v = calloc(1, sizeof *v);
    if (!v)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory making a queue.");
    cl_int rc = CL_SUCCESS;
    v->acc = acc;
    v->mode = mode;
    v->queue = amp__clapi.CreateCommandQueue(acc->context, acc->device, amp__prof_queue_properties(), &rc);
    if (!v->queue) {
        free(v);
        return amp__err_cl(rc, "clCreateCommandQueue", acc->name);
    }
    *out = v;
    return AMP_OK;
}

/* Release the queue and the view. Its launches' profiling events keep
 * what they need of it (profile.c). */
static void free_view(amp_accelerator_view *v)
{
    amp__clapi.ReleaseCommandQueue(v->queue);
    free(v);
}

amp_status amp__queue_default_view(amp_accelerator *acc, amp_accelerator_view **out)
{
    if (acc->default_view) {
        *out = acc->default_view;
        return AMP_OK;
    }
    amp_status st = make_view(acc, AMP_QUEUING_AUTOMATIC, &acc->default_view);
    if (st == AMP_OK)
        *out = acc->default_view;
    return st;
}

/* The created view av of some accelerator, live or not, or NULL. */
static amp_accelerator_view *find_created(const amp_accelerator_view *av)
{
    for (size_t i = 0, n = amp__acc_listed(); i < n; i++)
        for (amp_accelerator_view *v = amp__acc_at(i)->views; v; v = v->next)
            if (v == av)
                return v;
    return NULL;
}

static int is_default_view(const amp_accelerator_view *av)
{
    for (size_t i = 0, n = amp__acc_listed(); i < n; i++)
        if (amp__acc_at(i)->default_view == av)
            return 1;
    return 0;
}

int amp__queue_is_live(const amp_accelerator_view *av)
{
    if (!av)
        return 0;
    if (is_default_view(av))
        return 1;
    const amp_accelerator_view *v = find_created(av);
    return v && v->holds > 0;
}

/* fn names the public call, or is NULL where the call is a kernel's or an
 * array's (the view is one of their arguments). */
static amp_status released_view(const char *fn, const amp_accelerator_view *av)
{
    return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                   "%s%s accelerator view %p was released (or was never created, or"
                   " amp_shutdown() ended it). Use a view from amp_accelerator_create_view() or"
                   " amp_accelerator_get_default_view().",
                   fn ? fn : "", fn ? ": the" : "The", (const void *)av);
}

amp_status amp__queue_resolve(amp_accelerator_view *av, amp_accelerator_view **out)
{
    if (av) {
        if (!amp__queue_is_live(av))
            return released_view(NULL, av);
        if (av->acc->removed)
            return removed_error(av->acc);
        *out = av;
        return AMP_OK;
    }
    amp_accelerator *acc = NULL;
    amp_status st = amp__acc_default(&acc);
    if (st == AMP_OK && acc->removed)
        st = removed_error(acc);
    if (st != AMP_OK)
        return st;
    return amp__queue_default_view(acc, out);
}

/* Free a created view that nothing holds or uses any more. */
static void drop_if_unused(amp_accelerator_view *v)
{
    if (v->holds > 0 || v->uses > 0)
        return;
    amp_accelerator_view **link = &v->acc->views;
    while (*link != v)
        link = &(*link)->next;
    *link = v->next;
    free_view(v);
}

void amp__queue_retain(amp_accelerator_view *av)
{
    amp_accelerator_view *v = find_created(av);
    if (v)
        v->holds++;
}

void amp__queue_release(amp_accelerator_view *av)
{
    amp_accelerator_view *v = find_created(av);
    if (v && v->holds > 0) {
        v->holds--;
        drop_if_unused(v);
    }
}

void amp__queue_use(amp_accelerator_view *av)
{
    if (av && av != av->acc->default_view)
        av->uses++;
}

void amp__queue_unuse(amp_accelerator_view *av)
{
    if (av && av != av->acc->default_view && av->uses > 0) {
        av->uses--;
        drop_if_unused(av);
    }
}

amp_status amp__queue_failed(amp_accelerator_view *av, cl_int rc, const char *call,
                            const char *what)
{
    /* A wait that ends in CL_OUT_OF_RESOURCES means a kernel went wrong on
     * the device (NVIDIA's answer to an aborted kernel): the queue and its
     * context are unusable, as for a lost device. */
    int removed = rc == CL_OUT_OF_RESOURCES || rc == CL_DEVICE_NOT_AVAILABLE ||
                  rc == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST || rc < -1000 ||
                  amp__err_status_of_cl(rc) == AMP_ERROR_ACCELERATOR_VIEW_REMOVED;
    /* Codes below -1000 are extensions' (NVIDIA's, among others), and only
     * a device in trouble answers a wait with one. */
    if (!removed)
        return amp__err_cl(rc, call, what);
    amp_accelerator *acc = av->acc;
    acc->removed = rc;
    return amp__err_set(AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                   "%s: %s failed with %s (%d): %s (%s) is no longer usable (the device was lost,"
                   " or a kernel aborted). Its device memory is gone; host memory keeps what was"
                   " last copied back. Choose another accelerator, or call amp_shutdown() and"
                   " start again.",
                   what, call, amp__err_cl_name(rc), (int)rc, acc->name, acc->path);
}

/* Wait for one view and read its profiling events. */
static amp_status finish(amp_accelerator_view *v, const char *what)
{
    cl_int rc = amp__clapi.Finish(v->queue);
    if (rc != CL_SUCCESS)
        return amp__queue_failed(v, rc, "clFinish", what);
    amp__prof_collect();
    return AMP_OK;
}

amp_status amp__queue_finish_all(void)
{
    amp_status st = AMP_OK;
    for (size_t i = 0, n = amp__acc_listed(); i < n; i++) {
        amp_accelerator *acc = amp__acc_at(i);
        if (acc->removed)
            continue;
        if (acc->default_view && st == AMP_OK)
            st = finish(acc->default_view, "Waiting for the queues");
        for (amp_accelerator_view *v = acc->views; v && st == AMP_OK; v = v->next)
            st = finish(v, "Waiting for the queues");
    }
    return st;
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
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "amp_accelerator_get_default_view: out is NULL.");
    *out = NULL;
    amp__lock_acquire();
    amp_status st = AMP_OK;
    if (!acc)
        st = amp__acc_default(&acc);
    else if ((st = amp__acc_init()) == AMP_OK && !amp__acc_is_known(acc))
        st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                     "amp_accelerator_get_default_view: the handle is not an accelerator from"
                     " amp_accelerator_get().");
    if (st == AMP_OK)
        st = amp__queue_default_view(acc, out);
    amp__lock_release();
    return st;
}

amp_status amp_accelerator_create_view(amp_accelerator *acc, amp_queuing_mode mode,
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
    amp_status st = AMP_OK;
    if (!acc)
        st = amp__acc_default(&acc);
    else if ((st = amp__acc_init()) == AMP_OK && !amp__acc_is_known(acc))
        st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                     "%s: the handle is not an accelerator from amp_accelerator_get().", fn);
    amp_accelerator_view *v = NULL;
    if (st == AMP_OK)
        st = make_view(acc, mode, &v);
    if (st == AMP_OK) {
        v->holds = 1;
        v->next = acc->views;
        acc->views = v;
        *out = v;
    }
    amp__lock_release();
    return st;
}

amp_status amp_accelerator_view_release(amp_accelerator_view *view)
{
    if (!view)
        return AMP_OK;
    amp__lock_acquire();
    amp_status st = AMP_OK;
    if (!amp__queue_is_live(view))
        st = released_view("amp_accelerator_view_release", view);
    else
        amp__queue_release(view); /* a default view: nothing */
    amp__lock_release();
    return st;
}

amp_accelerator *amp_accelerator_view_get_accelerator(const amp_accelerator_view *view)
{
    amp__lock_acquire();
    amp_accelerator *acc = amp__queue_is_live(view) ? view->acc : NULL;
    amp__lock_release();
    return acc;
}

amp_queuing_mode amp_accelerator_view_get_queuing_mode(const amp_accelerator_view *view)
{
    amp__lock_acquire();
    amp_queuing_mode mode = amp__queue_is_live(view) ? view->mode : (amp_queuing_mode)0;
    amp__lock_release();
    return mode;
}

int amp_accelerator_view_is_default(const amp_accelerator_view *view)
{
    amp__lock_acquire();
    int yes = view && is_default_view(view);
    amp__lock_release();
    return yes;
}

/* The checks of every call on one view; on success the lock is held. */
static amp_status lock_view(const char *fn, amp_accelerator_view *view)
{
    if (!view)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: view is NULL.", fn);
    amp__lock_acquire();
    amp_status st = AMP_OK;
    if (!amp__queue_is_live(view))
        st = released_view(fn, view);
    else if (view->acc->removed)
        st = removed_error(view->acc);
    if (st != AMP_OK)
        amp__lock_release();
    return st;
}

amp_status amp_accelerator_view_wait(amp_accelerator_view *view)
{
    amp_status st = lock_view("amp_accelerator_view_wait", view);
    if (st != AMP_OK)
        return st;
    st = finish(view, "Waiting for the queue");
    amp__lock_release();
    return st;
}

amp_status amp_accelerator_view_flush(amp_accelerator_view *view)
{
    amp_status st = lock_view("amp_accelerator_view_flush", view);
    if (st != AMP_OK)
        return st;
    cl_int rc = amp__clapi.Flush(view->queue);
    if (rc != CL_SUCCESS)
        st = amp__queue_failed(view, rc, "clFlush", "Submitting the queue");
    amp__lock_release();
    return st;
}

amp_status amp_accelerator_view_create_marker(amp_accelerator_view *view, amp_completion **out)
{
    static const char fn[] = "amp_accelerator_view_create_marker";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    amp_status st = lock_view(fn, view);
    if (st != AMP_OK)
        return st;
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
        st = amp__queue_failed(view, rc, call, "Putting a marker on the queue");
    } else {
        char what[200];
        snprintf(what, sizeof what, "Waiting for a marker on %s (%s)", view->acc->name,
                 view->acc->path);
        st = amp__completion_from_event(ev, what, out);
    }
    amp__lock_release();
    return st;
}
