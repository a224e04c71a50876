/*
 * runtime/data/staging.h - moving bytes between host memory and a device
 * buffer as fast as the device allows.
 *
 * Every transfer of coherence.c comes here, with the box of bytes on each
 * side. By size, device and host memory, one of these moves it:
 *
 *   direct  - one blocking clEnqueueWrite/ReadBuffer(Rect): small boxes,
 *             and host memory from amp_host_alloc (page-locked, so the
 *             driver moves it straight to the device at the link's speed);
 *   mapped  - on a CPU device, whose buffers are host memory: map the
 *             buffer and copy on several threads (memcopy.h);
 *   staged  - on other devices, from ordinary (pageable) host memory:
 *             through a ring of page-locked buffers in chunks, copied in on
 *             several threads while the device moves the chunk before
 *             (triple buffering, with events).
 *
 * Every path is finished when amp__stg_move returns: an upload has read
 * the host memory, a download has written it, and the device's side is
 * done. Large uploads may run on the device's transfer queue, beside
 * kernels of other queues (amp__stg_upload_view).
 *
 * All functions expect the runtime lock to be held.
 */
#ifndef AMP_DATA_STAGING_H
#define AMP_DATA_STAGING_H

#include <stddef.h>
#include <stdint.h>

#include "core/ranges.h"
#include "device/queue.h"

/* OpenCL's rectangle arguments for a box: origin (x bytes, y rows, z
 * slices), region, and pitches. */
typedef struct stg_rect {
    size_t origin[3], region[3], row_pitch, slice_pitch;
} stg_rect;

stg_rect amp__stg_rect_of(const rg_box *b);

/* A page-locked host allocation (amp_host_alloc): its buffer, created with
 * CL_MEM_ALLOC_HOST_PTR in context and mapped on queue for its lifetime,
 * and the part of the mapping the caller got. It keeps its own queue, so
 * that it outlives amp_shutdown(). */
typedef struct stg_pinned {
    char *user;
    size_t bytes;
    cl_context context;
    cl_mem mem;
    cl_command_queue queue;
    void *mapped;
    struct stg_pinned *next;
} stg_pinned;

/* Register an allocation; take one out by the caller's pointer (NULL when
 * it is not one). */
void amp__stg_pinned_add(stg_pinned *p);
stg_pinned *amp__stg_pinned_take(const void *user);

/* One transfer between host memory and a device buffer: the box dbox of mem
 * and the box hbox of host memory at host, of the same rows and width. */
typedef struct stg_move {
    amp_accelerator_view *av; /* whose queue carries it */
    cl_mem mem;
    const rg_box *dbox;
    char *host;
    const rg_box *hbox;
    int to_device;
} stg_move;

/* Move the bytes, and return CL_SUCCESS, or the error of the OpenCL call
 * that failed, named in *call. On failure, the destination box may be
 * partly written (never the host memory of an upload), and nothing is left
 * running. */
cl_int amp__stg_move(const stg_move *m, const char **call);

/* The view whose queue should carry an upload of `bytes` to av's device:
 * the device's transfer queue for large uploads that go through page-locked
 * memory, so that they may run while av's queue runs kernels; else av. */
amp_accelerator_view *amp__stg_upload_view(amp_accelerator_view *av, int64_t bytes);

/* Release the transfer queues, staging buffers and copy threads
 * (amp_shutdown, before the contexts). Page-locked allocations stay. */
void amp__stg_shutdown(void);

#endif
