/*
 * runtime/device/queue.h - accelerator views: an accelerator's context, its
 * default view and the views made with amp_accelerator_create_view, their
 * lifetime, waits, flushes, markers, and the bound on the work in flight
 * on each queue. All functions expect the runtime lock to be held.
 */
#ifndef AMP_DEVICE_QUEUE_H
#define AMP_DEVICE_QUEUE_H

#include <stdint.h>

#include "amp/kernel.h"
#include "device/accel.h"

struct amp_accelerator_view {
    amp_accelerator *acc;
    cl_command_queue queue;
    amp_queuing_mode mode;
    /* Created views: the handle lives while the caller has not released
     * it (caller_holds) or an array is bound to it (holds); the view and
     * its queue stay while a data copy records it as its last queue
     * (uses). */
    int caller_holds;
    int holds;
    int uses;
    /* Back-pressure (amp__queue_launch): launches since the last marker,
     * and that marker. */
    unsigned launched;
    cl_event mark;
    struct amp_accelerator_view *next; /* in acc->views */
};

/* The view a call runs on: av itself, checked as the public call fn would
 * (a released, foreign or removed view is refused), or the default view
 * when av is NULL. Makes the context and queue on first use. */
amp_status amp__queue_resolve_in(const char *fn, amp_accelerator_view *av,
                                 amp_accelerator_view **out);
/* The same, for a kernel's view (messages name parallel_for_each). */
amp_status amp__queue_resolve(amp_accelerator_view *av, amp_accelerator_view **out);
/* The checks of a call on one view: a live view whose accelerator was not
 * removed. */
amp_status amp__queue_check(const char *fn, const amp_accelerator_view *av);
/* The accelerator's default view, made on first use. */
amp_status amp__queue_default_view(amp_accelerator *acc, amp_accelerator_view **out);
/* Nonzero when av is a view that exists now (a default view, or a created
 * view not yet released). */
int amp__queue_is_live(const amp_accelerator_view *av);
/* One more hold on a created view (an array bound to it), and one fewer;
 * nothing for a default view, or a view no longer there. */
void amp__queue_retain(amp_accelerator_view *av);
void amp__queue_release(amp_accelerator_view *av);
/* A data copy records av as the last queue that used it, and stops doing
 * so: the queue must stay until then (coherence.c waits on it). */
void amp__queue_use(amp_accelerator_view *av);
void amp__queue_unuse(amp_accelerator_view *av);
/* A kernel launch, as a queue takes it. */
typedef struct queue_kernel {
    cl_kernel kernel;
    cl_uint dims; /* the work sizes, as clEnqueueNDRangeKernel takes them */
    size_t global[3], local[3];
    const char *name;              /* the kernel's, for messages and AMP_PROFILE */
    const amp_kernel_source *site; /* its call site, likewise */
} queue_kernel;

/* Queue the kernel k on av: first make room (count the launch, and every
 * LIMIT_QUEUE_SPAN launches wait until the device has run all but the last span,
 * so that a program that never waits does not pile up commands, and their
 * host memory, without bound; a wait that fails leaves nothing queued),
 * then enqueue it, and under AMP_PROFILE hand its event to the list of
 * launches not read yet (device/profile.h) with moved, the bytes moved to
 * run it (to the device, to the host). AMP_OK when it is queued. */
amp_status amp__queue_launch(amp_accelerator_view *av, const queue_kernel *k,
                             const uint64_t moved[2]);

/* Submit what is queued on av now (clFlush): amp__queue_submit's work on
 * an immediate view. */
amp_status amp__queue_submit_now(amp_accelerator_view *av, const queue_kernel *k);

/* Submit what is queued on av at once when av is an immediate view, after
 * the kernel k was queued (amp__queue_launch); a deferred view submits
 * when it is waited for or flushed. A failure (a lost device) is
 * recorded as amp__queue_failed does. */
static inline amp_status amp__queue_submit(amp_accelerator_view *av, const queue_kernel *k)
{
    return av->mode == AMP_QUEUING_IMMEDIATE ? amp__queue_submit_now(av, k) : AMP_OK;
}
/* A wait or submission of av failed with rc in call: record the failure
 * (a lost device or an aborted kernel removes the accelerator) and return
 * its status. */
amp_status amp__queue_failed(amp_accelerator_view *av, cl_int rc, const char *call,
                             const char *what);
/* Wait for every queue of every usable accelerator, even after one wait
 * failed; returns the first failure. */
amp_status amp__queue_finish_all(void);
/* Release every accelerator's views, queues and context (amp_shutdown,
 * before amp__acc_shutdown). */
void amp__queue_shutdown(void);

#endif
