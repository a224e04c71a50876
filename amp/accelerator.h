/*
 * amp/accelerator.h - devices (C++ AMP's accelerator) and their queues
 * (accelerator_view).
 *
 * Every device of every OpenCL platform on the machine is an accelerator.
 * The library owns accelerators and views: they live until amp_shutdown()
 * and are never released by the caller.
 *
 * The default accelerator is the first GPU found, else the first CPU device
 * (PoCL). The environment variable AMP_DEVICE picks another one, by its index
 * in the enumeration order or by a case-insensitive substring of
 * "platform name / device name".
 */
#ifndef AMP_ACCELERATOR_H
#define AMP_ACCELERATOR_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct amp_accelerator amp_accelerator;
typedef struct amp_accelerator_view amp_accelerator_view;

/* What an accelerator is and what it can do. Strings belong to the library
 * and live as long as the accelerator. */
typedef struct amp_accelerator_info {
    const char *description;   /* the device name, e.g. "NVIDIA H200" */
    const char *device_path;   /* "opencl:<platform>/<device>", stable across runs */
    const char *platform;      /* the OpenCL platform name */
    const char *version;       /* the device's OpenCL version and driver version */
    uint64_t dedicated_memory; /* global memory, in bytes */
    uint64_t tile_static_size; /* local memory per tile, in bytes */
    size_t max_tile_size;      /* threads in one tile (work-group) at most */
    int supports_double;       /* double precision in kernels */
    int is_emulated;           /* a CPU device rather than an accelerator */
    int is_default;            /* the default accelerator of this process */
} amp_accelerator_info;

/*
 * Find the OpenCL devices, if not done yet, and store how many there are in
 * *count. Returns AMP_ERROR_NO_DEVICE (with a message that says how to
 * install PoCL) when there are none, AMP_ERROR_INVALID_ARGUMENT when count
 * is NULL.
 */
amp_status amp_accelerator_count(size_t *count);

/*
 * Store the accelerator with the given index (0 .. count-1) in *out.
 * Returns AMP_ERROR_INVALID_ARGUMENT for an index out of range or a NULL
 * out, AMP_ERROR_NO_DEVICE when there are no devices.
 */
amp_status amp_accelerator_get(size_t index, amp_accelerator **out);

/*
 * Store the default accelerator in *out (see the top of this header for how
 * it is chosen). Returns AMP_ERROR_NO_DEVICE when there is no device, or
 * when AMP_DEVICE names none; the message lists the devices there are.
 */
amp_status amp_accelerator_get_default(amp_accelerator **out);

/*
 * Make acc the default accelerator (C++ AMP's accelerator::set_default).
 * As in C++ AMP, only before the default is first used: by a kernel or view
 * on the default, amp_accelerator_get_default() or AMP_DEVICE's choice.
 * Setting the default it already is returns AMP_OK. Returns
 * AMP_ERROR_INVALID_ARGUMENT for a handle not from amp_accelerator_get(),
 * AMP_ERROR_INVALID_OPERATION (naming the current default) once it is in
 * use, AMP_ERROR_NO_DEVICE when there are no devices.
 */
amp_status amp_accelerator_set_default(amp_accelerator *acc);

/*
 * Why the default accelerator is the one it is ("the first GPU",
 * "AMP_DEVICE=pocl", "set by amp_accelerator_set_default", ...), or "" while
 * none has been chosen. A static string, valid until amp_shutdown().
 */
const char *amp_accelerator_default_reason(void);

/*
 * Fill *info with what the accelerator is. Returns AMP_ERROR_INVALID_ARGUMENT
 * for a NULL argument.
 */
amp_status amp_accelerator_get_info(const amp_accelerator *acc, amp_accelerator_info *info);

/*
 * Store the accelerator's default view (its first queue) in *out. A NULL
 * acc means the default accelerator. Returns the statuses of
 * amp_accelerator_get_default, AMP_ERROR_RUNTIME when the queue cannot be
 * made, AMP_ERROR_INVALID_ARGUMENT for a NULL out.
 */
amp_status amp_accelerator_get_default_view(amp_accelerator *acc, amp_accelerator_view **out);

/* The accelerator a view belongs to, or NULL for a NULL view. */
amp_accelerator *amp_accelerator_view_get_accelerator(const amp_accelerator_view *view);

/*
 * Wait until everything queued on the view has finished. Returns
 * AMP_ERROR_ACCELERATOR_VIEW_REMOVED when the device was lost or a kernel
 * aborted, AMP_ERROR_RUNTIME for other OpenCL failures.
 */
amp_status amp_accelerator_view_wait(amp_accelerator_view *view);

/*
 * Release everything the library holds: kernels, device memory, queues and
 * contexts. Array views still alive are synchronized back to host memory
 * and lose their device copies; they stay valid and usable. Accelerator and
 * view handles obtained before are invalid afterwards. Calling any other
 * function afterwards starts the library afresh. Optional: a process may
 * exit without it.
 */
void amp_shutdown(void);

#ifdef __cplusplus
}
#endif

#endif
