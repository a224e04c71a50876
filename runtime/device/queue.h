/*
 * runtime/device/queue.h - accelerator views: an accelerator's context, its
 * default view and the views made with amp_accelerator_create_view, their
 * lifetime, waits, flushes and markers. All functions expect the runtime
 * lock to be held.
 */
#ifndef AMP_DEVICE_QUEUE_H
#define AMP_DEVICE_QUEUE_H

#include "device/accel.h"

struct amp_accelerator_view {
    amp_accelerator *acc;
    cl_command_queue queue;
    amp_queuing_mode mode;
    int holds;             /* created views: the caller's reference and each bound array's;
                            * the handle is valid while there is one */
    int uses;              /* created views: data copies whose last queue this is */
    struct amp_accelerator_view *next; /* in acc->views */
};

/* The view a call runs on: av itself, or the default view when av is NULL.
 * Makes the context and queue on first use. Refuses a released view and an
 * accelerator that was removed. */
amp_status amp__queue_resolve(amp_accelerator_view *av, amp_accelerator_view **out);
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
/* A wait or submission of av failed with rc in call: record the failure
 * (a lost device or an aborted kernel removes the accelerator) and return
 * its status. */
amp_status amp__queue_failed(amp_accelerator_view *av, cl_int rc, const char *call,
                            const char *what);
/* Wait for every queue of every accelerator. */
amp_status amp__queue_finish_all(void);
/* Release every accelerator's views, queues and context (amp_shutdown,
 * before amp__acc_shutdown). */
void amp__queue_shutdown(void);

#endif
