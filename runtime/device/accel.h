/*
 * runtime/device/accel.h - the accelerators: the OpenCL devices, listed
 * once, and the default one. Their contexts and queues are queue.h's.
 * Accelerators are handles of the registry (core/handle.h), owned by the
 * library until amp_shutdown(). All functions expect the runtime lock to
 * be held.
 */
#ifndef AMP_DEVICE_ACCEL_H
#define AMP_DEVICE_ACCEL_H

#include <stddef.h>
#include <stdint.h>

#include "amp/accelerator.h"
#include "core/clapi.h"

struct amp_accelerator {
    size_t index;
    cl_platform_id platform;
    cl_device_id device;
    cl_device_type type;
    char *name;          /* CL_DEVICE_NAME */
    char *platform_name; /* CL_PLATFORM_NAME */
    char *also_known_as; /* the platform's vendor / version / ICD suffix, for AMP_DEVICE */
    char *path;          /* "opencl:<platform>/<device>" */
    char *version;       /* device version and driver version */
    uint64_t global_mem;
    uint64_t local_mem;
    uint64_t max_alloc; /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    size_t max_work_group;
    cl_uint compute_units; /* CL_DEVICE_MAX_COMPUTE_UNITS */
    size_t max_work_item[3];
    size_t max_arg_bytes; /* CL_DEVICE_MAX_PARAMETER_SIZE: all arguments of a kernel */
    cl_uint address_bits;
    int fp64;
    int atomics;        /* 32-bit global and local atomics */
    int image3d_writes; /* kernels may write 3D images (cl_khr_3d_image_writes) */
    /* Kernels may read and write one image (OpenCL 2.0's __read_write): the
     * build option of the OpenCL C that has them ("-cl-std=CL2.0" or
     * "-cl-std=CL3.0"), or NULL where the device has none. */
    const char *rw_images_std;
    /* Kernels read images of half floats right: 0 not known yet, 1 yes, -1
     * no (PoCL 3.1 reads every texel of one as 234; data/texture.c asks). */
    int half_image_reads;
    int sub_device;     /* device is a part of a CPU device (AMP_SPLIT_CPU), kept for the process */
    int removed;        /* a wait found the device lost or a kernel aborted */
    cl_context context; /* made on first use */
    struct amp_accelerator_view *default_view; /* made on first use */
    struct amp_accelerator_view *views;        /* created views, newest first */
};

/* ---- accel.c: devices ---- */

/* Find the devices if not done yet. */
amp_status amp__acc_init(void);
/* The default accelerator (chosen once: first GPU, else CPU, or AMP_DEVICE). */
amp_status amp__acc_default(amp_accelerator **out);
/* The accelerator a call names: acc, checked as the public call fn (a
 * released or foreign handle is refused), or the default when acc is NULL. */
amp_status amp__acc_resolve(const char *fn, amp_accelerator *acc, amp_accelerator **out);
/* The number of listed accelerators, and the ith (for walking every queue). */
size_t amp__acc_listed(void);
amp_accelerator *amp__acc_at(size_t i);
/* Forget the devices. Their queues and contexts must be released first
 * (amp__queue_shutdown). */
void amp__acc_shutdown(void);


#endif
