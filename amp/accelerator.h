/*
 * amp/accelerator.h - devices (C++ AMP's accelerator) and their queues
 * (accelerator_view).
 *
 * Every device of every OpenCL platform on the machine is an accelerator.
 * The library owns accelerators: they live until amp_shutdown() and are
 * never released by the caller; after amp_shutdown() a handle from before
 * is refused (AMP_ERROR_INVALID_ARGUMENT), and amp_accelerator_get() gives
 * the new ones. Each accelerator has a default view (its
 * first queue), also the library's. More views (queues) of one accelerator
 * come from amp_accelerator_create_view(); they share the accelerator's
 * OpenCL context, so data moves between them without a host round trip,
 * and each lives until the caller and every array and texture bound to it
 * have released it (amp_accelerator_view_release), or until amp_shutdown().
 *
 * The default accelerator is the first GPU found, else the first CPU device
 * (PoCL). The environment variable AMP_DEVICE picks another one, by its index
 * in the enumeration order or by a case-insensitive part of "platform name /
 * device name", or, when no name has it, of the platform's vendor, version
 * or ICD suffix: AMP_DEVICE=pocl finds PoCL, whose platform is called
 * "Portable Computing Language", through its vendor and version.
 *
 * AMP_SPLIT_CPU=N (N >= 2) presents each CPU device as N accelerators, its
 * sub-devices made with clCreateSubDevices(CL_DEVICE_PARTITION_EQUALLY), each
 * with its own context: a way to use and test more than one accelerator on
 * a machine with one CPU. It is read when the devices are listed (the first
 * call, or the first after amp_shutdown()).
 *
 * docs/accelerators.md describes choosing and using accelerators.
 */
#ifndef AMP_ACCELERATOR_H
#define AMP_ACCELERATOR_H

#include <stddef.h>
#include <stdint.h>

#include "completion.h"
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
    unsigned compute_units;    /* a GPU's multiprocessors, a CPU device's cores
                                  (CL_DEVICE_MAX_COMPUTE_UNITS, at least 1): a domain of
                                  fewer tiles than this leaves part of the device idle */
    uint64_t max_allocation;   /* the largest single array or view, in bytes */
    int supports_double;       /* double precision in kernels */
    int supports_atomics;      /* 32-bit atomics on views and tile_static memory */
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
 * Until then a later call replaces an earlier one. Setting the default it
 * already is returns AMP_OK. Returns
 * AMP_ERROR_INVALID_ARGUMENT for NULL or a handle not from
 * amp_accelerator_get() (made up, or from before amp_shutdown()),
 * AMP_ERROR_INVALID_OPERATION (naming the current default) once it is in
 * use, AMP_ERROR_NO_DEVICE when there are no devices.
 */
amp_status amp_accelerator_set_default(amp_accelerator *acc);

/*
 * Why the default accelerator is the one it is ("the first GPU",
 * "AMP_DEVICE=pocl", "set by amp_accelerator_set_default", ...), or "" while
 * none has been chosen. A static string, valid until amp_shutdown().
 */
const char *amp_accelerator_get_default_reason(void);

/*
 * Fill *info with what the accelerator is; its strings belong to the
 * library and stay valid until amp_shutdown(). Returns
 * AMP_ERROR_INVALID_ARGUMENT, with *info untouched, for a NULL argument or
 * an acc that is not a listed accelerator (made up, or released by
 * amp_shutdown()).
 */
amp_status amp_accelerator_get_info(const amp_accelerator *acc, amp_accelerator_info *info);

/*
 * Store the accelerator's default view (its first queue) in *out. A NULL
 * acc means the default accelerator. Returns the statuses of
 * amp_accelerator_get_default, AMP_ERROR_RUNTIME when the queue cannot be
 * made, AMP_ERROR_INVALID_ARGUMENT for a NULL out or an acc not from
 * amp_accelerator_get() (made up, or from before amp_shutdown()).
 */
amp_status amp_accelerator_get_default_view(amp_accelerator *acc, amp_accelerator_view **out);

/* How a view sends queued work to its device (C++ AMP's queuing_mode). */
typedef enum amp_queuing_mode {
    /* Each kernel is submitted to the device as soon as it is queued
     * (clFlush after every enqueue): the lowest latency for one kernel. */
    AMP_QUEUING_IMMEDIATE = 1,
    /* The driver submits queued work when it chooses, and at the latest
     * when the view is flushed or waited on, or its data is read: fewer,
     * larger submissions. Default views use this mode, as in C++ AMP. */
    AMP_QUEUING_AUTOMATIC = 2
} amp_queuing_mode;

/*
 * Make a new view (queue) of acc (NULL: the default accelerator) with the
 * given queuing mode, and store it in *out (C++ AMP's
 * accelerator::create_view). Kernels and copies given this view run on its
 * queue, in order; work on different views of one accelerator may run at
 * the same time, and the runtime orders it where they share data (a kernel
 * that reads what another view's kernel wrote waits for it on the device,
 * not on the host). The caller holds one reference: release it with
 * amp_accelerator_view_release(). Returns AMP_ERROR_INVALID_ARGUMENT for a
 * NULL out, an unknown mode or a handle not from amp_accelerator_get(); the
 * statuses of amp_accelerator_get_default() for a NULL acc;
 * AMP_ERROR_ACCELERATOR_VIEW_REMOVED when the accelerator was lost;
 * AMP_ERROR_RUNTIME (or AMP_ERROR_OUT_OF_MEMORY) when the queue cannot be
 * made.
 */
amp_status amp_accelerator_create_view(amp_accelerator *acc, amp_queuing_mode mode,
                                       amp_accelerator_view **out);

/*
 * Drop the caller's reference to a view from amp_accelerator_create_view().
 * Arrays and textures bound to the view hold references of their own; when
 * the last one goes, the view's queued work is left to finish and its queue
 * is released.
 * A default view belongs to the library: releasing it does nothing. NULL
 * is a no-op. Returns AMP_ERROR_INVALID_ARGUMENT for a view the caller
 * released already (also while arrays or textures bound to it keep it:
 * their references stay theirs), never created, or ended by amp_shutdown().
 */
amp_status amp_accelerator_view_release(amp_accelerator_view *view);

/* The accelerator a view belongs to, or NULL for a NULL or released view. */
amp_accelerator *amp_accelerator_view_get_accelerator(const amp_accelerator_view *view);

/* The view's queuing mode, or 0 for a NULL or released view. */
amp_queuing_mode amp_accelerator_view_get_queuing_mode(const amp_accelerator_view *view);

/* 1 when the view is its accelerator's default view, else 0 (also for a
 * NULL or released view). */
int amp_accelerator_view_is_default(const amp_accelerator_view *view);

/*
 * Wait until everything queued on the view has finished. Returns
 * AMP_ERROR_INVALID_ARGUMENT for a NULL or released view (or one from
 * before amp_shutdown());
 * AMP_ERROR_ACCELERATOR_VIEW_REMOVED when the device was lost or a kernel
 * aborted (after that, every call on the accelerator returns it, until
 * amp_shutdown()); AMP_ERROR_RUNTIME for other OpenCL failures.
 */
amp_status amp_accelerator_view_wait(amp_accelerator_view *view);

/*
 * Submit everything queued on the view to the device now, without waiting
 * for it (C++ AMP's accelerator_view::flush). Returns the statuses of
 * amp_accelerator_view_wait().
 */
amp_status amp_accelerator_view_flush(amp_accelerator_view *view);

/*
 * Put a marker at the end of the view's queue and store in *out a handle
 * that completes when the queue reaches it: when everything queued before
 * it has finished (C++ AMP's accelerator_view::create_marker). The queue is
 * flushed, so that waiting on the marker never waits for a flush. The
 * handle follows the device, not a thread of the library; wait on it and
 * release it with the functions of amp/completion.h. Its wait returns
 * AMP_ERROR_ACCELERATOR_VIEW_REMOVED when a command before the marker
 * failed. Returns the statuses of amp_accelerator_view_wait(), and
 * AMP_ERROR_INVALID_ARGUMENT for a NULL out.
 */
amp_status amp_accelerator_view_create_marker(amp_accelerator_view *view, amp_completion **out);

/*
 * Release everything the library holds: kernels, device memory, queues
 * (created views too) and contexts. Array views still alive are
 * synchronized back to host memory and lose their device copies; they stay
 * valid and usable. Then every queue is waited for, so that nothing queued
 * is still running, or being built, once it returns. Arrays and textures
 * stay valid handles whose data was lost with the device: calls that read
 * or write it return AMP_ERROR_ACCELERATOR_VIEW_REMOVED, and they can be
 * released. Accelerator and accelerator view handles obtained before are
 * released: calls given one return AMP_ERROR_INVALID_ARGUMENT. Completions
 * and kernel sources stay valid. Calling any other function afterwards
 * starts the library afresh.
 *
 * Optional: a process may exit without it; the library then waits for the
 * queues as the main thread ends, before any exit handler (glibc). A
 * process that calls exit() on another thread should call it, or wait,
 * first: PoCL crashes in a process that exits while it builds a queued
 * kernel (docs/accelerators.md).
 *
 * Returns AMP_OK when every view's data is in host memory and everything
 * queued ran; else the status of a copy back that failed
 * (AMP_ERROR_ACCELERATOR_VIEW_REMOVED when its device was lost), with its
 * message, or, when every copy succeeded, of a wait that failed (a kernel
 * that aborted, a lost device). A copy that fails is tried once more as the
 * device copies are released, and the status is that last try's: a failure
 * means data that only the device held is gone; the host memory holds the
 * newest data that could be copied, and never anything else. Everything is
 * released either way.
 */
amp_status amp_shutdown(void);

/* The functions above that make a handle, as macros that also record the
 * caller's file and line for the leak report (AMP__MADE_AT, amp/status.h). */
#define amp_accelerator_create_view(...) AMP__MADE_AT(amp_accelerator_create_view, __VA_ARGS__)
#define amp_accelerator_view_create_marker(...)                                                    \
    AMP__MADE_AT(amp_accelerator_view_create_marker, __VA_ARGS__)

/* ---- Deprecated spellings (docs/api.md, "Deprecated spellings") ---- */

/* Deprecated: amp_accelerator_get_default_reason(), the same call. */
AMP__DEPRECATED("amp_accelerator_get_default_reason")
const char *amp_accelerator_default_reason(void);

#ifdef __cplusplus
}
#endif

#endif
