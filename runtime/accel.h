/*
 * runtime/accel.h - the accelerators: OpenCL devices, their contexts and
 * queues. All functions expect the runtime lock to be held.
 */
#ifndef RT_ACCEL_H
#define RT_ACCEL_H

#include <stddef.h>
#include <stdint.h>

#include "amp/accelerator.h"
#include "clapi.h"

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
    size_t max_work_group;
    size_t max_work_item[3];
    cl_uint address_bits;
    int fp64;
    cl_context context;                   /* made on first use */
    struct amp_accelerator_view *default_view; /* made on first use */
};

struct amp_accelerator_view {
    amp_accelerator *acc;
    cl_command_queue queue;
};

/* Find the devices if not done yet. */
amp_status acc_init(void);
/* The default accelerator (chosen once: first GPU, else CPU, or AMP_DEVICE). */
amp_status acc_default(amp_accelerator **out);
/* The view a call runs on: av itself, or the default view when av is NULL.
 * Makes the context and queue on first use. */
amp_status acc_resolve_view(amp_accelerator_view *av, amp_accelerator_view **out);
/* The accelerator's default view, made on first use. */
amp_status acc_default_view(amp_accelerator *acc, amp_accelerator_view **out);
/* Release every queue and context, and forget the devices. */
void acc_shutdown(void);

#endif
