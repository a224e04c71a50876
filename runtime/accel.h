/*
 * runtime/accel.h - the accelerators: OpenCL devices (accel.c), their
 * contexts and queues (queue.c). All functions expect the runtime lock to
 * be held.
 */
#ifndef RT_ACCEL_H
#define RT_ACCEL_H

#include <stddef.h>
#include <stdint.h>

#include "amp/accelerator.h"
#include "clapi.h"
#include "profile.h"

struct amp_accelerator {
    size_t index;
    cl_platform_id platform;
    cl_device_id device;
    cl_device_type type;
    char *name;          /* CL_DEVICE_NAME */
    char *platform_name; /* CL_PLATFORM_NAME */
    char *path;          /* "opencl:<platform>/<device>" */
    char *version;       /* device version and driver version */
    uint64_t global_mem;
    uint64_t local_mem;
    uint64_t max_alloc;    /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    size_t max_work_group;
    size_t max_work_item[3];
    size_t max_arg_bytes;  /* CL_DEVICE_MAX_PARAMETER_SIZE: all arguments of a kernel */
    cl_uint address_bits;
    int fp64;
    int atomics;           /* 32-bit global and local atomics */
    int sub_device;        /* device is a part of a CPU device (AMP_SPLIT_CPU), kept for the process */
    int removed;           /* a wait found the device lost or a kernel aborted */
    cl_context context;                   /* made on first use */
    struct amp_accelerator_view *default_view; /* made on first use */
    struct amp_accelerator_view *views;        /* created views, newest first */
};

struct amp_accelerator_view {
    amp_accelerator *acc;
    cl_command_queue queue;
    amp_queuing_mode mode;
    int holds;             /* created views: the caller's reference and each bound array's;
                            * the handle is valid while there is one */
    int uses;              /* created views: data copies whose last queue this is */
    struct amp_accelerator_view *next; /* in acc->views */
    prof_pending pending;  /* AMP_PROFILE: kernels whose events are not read yet */
};

/* ---- accel.c: devices ---- */

/* Find the devices if not done yet. */
amp_status acc_init(void);
/* The default accelerator (chosen once: first GPU, else CPU, or AMP_DEVICE). */
amp_status acc_default(amp_accelerator **out);
/* Nonzero when acc is one of the listed accelerators. */
int acc_is_known(const amp_accelerator *acc);
/* The number of listed accelerators, and the ith (for walking every queue). */
size_t acc_listed(void);
amp_accelerator *acc_at(size_t i);
/* Release every queue and context, and forget the devices. */
void acc_shutdown(void);

/* ---- queue.c: contexts and views ---- */

/* The view a call runs on: av itself, or the default view when av is NULL.
 * Makes the context and queue on first use. Refuses a released view and an
 * accelerator that was removed. */
amp_status acc_resolve_view(amp_accelerator_view *av, amp_accelerator_view **out);
/* The accelerator's default view, made on first use. */
amp_status acc_default_view(amp_accelerator *acc, amp_accelerator_view **out);
/* Nonzero when av is a view that exists now (a default view, or a created
 * view not yet released). */
int acc_view_is_live(const amp_accelerator_view *av);
/* One more hold on a created view (an array bound to it), and one fewer;
 * nothing for a default view, or a view no longer there. */
void acc_view_retain(amp_accelerator_view *av);
void acc_view_release(amp_accelerator_view *av);
/* A data copy records av as the last queue that used it, and stops doing
 * so: the queue must stay until then (coherence.c waits on it). */
void acc_view_use(amp_accelerator_view *av);
void acc_view_unuse(amp_accelerator_view *av);
/* A wait or submission of av failed with rc in call: record the failure
 * (a lost device or an aborted kernel removes the accelerator) and return
 * its status. */
amp_status acc_queue_failed(amp_accelerator_view *av, cl_int rc, const char *call,
                            const char *what);
/* Wait for every queue of every accelerator and read their profiling
 * events. */
amp_status acc_finish_all(void);
/* Release the accelerator's views, queues and context (acc_shutdown). */
void acc_release_queues(amp_accelerator *acc);

#endif
