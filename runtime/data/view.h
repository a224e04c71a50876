/*
 * runtime/data/view.h - array_view handles: a window (element type, extent,
 * offset, strides) onto a data source.
 */
#ifndef AMP_DATA_VIEW_H
#define AMP_DATA_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "amp/array_view.h"
#include "core/handle.h"
#include "core/timeline.h"
#include "data/coherence.h"

struct amp_array_view {
    coh_source *src;
    amp_elem_type type;
    amp_extent extent;
    int is_const;
    int64_t offset;                /* elements from the start of the data source */
    int64_t strides[AMP_MAX_RANK]; /* elements between consecutive indices of each
                                      dimension; the last is 1 */
    const char *label;             /* for traces: the capture name of the last kernel, or NULL */
    struct amp_array *array;       /* the array this is the whole view of, for arrays' captures */
    int of_array; /* a view of an array's data (its whole view, or one made from it) */
};

/* The bytes of its data source the view covers, as boxes: one, unless the
 * view has rank 4 or more and is a section that cuts its inner dimensions
 * (core/ranges.h). */
void amp__view_plan(const amp_array_view *v, rg_plan *plan);

/* Make a view handle over src (taking over one reference of it), with
 * row-major strides; owner says who releases it (an array's own view is
 * the library's). Expects the runtime lock. What a view is (its source,
 * type, extent, offset and strides) is fixed from its making, right after
 * this call, to its release: the dispatch's launch record relies on it. */
amp_status amp__view_make(coh_source *src, amp_elem_type type, amp_extent extent, int is_const,
                          hd_owner owner, amp_array_view **out);

/* The timeline's record of a public call about view v (core/timeline.h),
 * begun right after the lock is taken and ended right before it is
 * released: v, when it is a live view, is the one its transfers name. */
void amp__view_call_begin(tl_call *c, const amp_array_view *v);
void amp__view_call_end(tl_call *c, const char *fn, amp_status st, const amp_array_view *v);

/* AMP_OK when v is a live view; else the registry's message for the public
 * call fn (core/handle.h). Expects the runtime lock. */
amp_status amp__view_check(const char *fn, const amp_array_view *v);

/* Nonzero when v looks into an array's data that amp_shutdown() released
 * with the device (the only place an array keeps it). Expects the lock. */
int amp__view_data_lost(const amp_array_view *v);

/* AMP_OK, or AMP_ERROR_ACCELERATOR_VIEW_REMOVED when v's data was lost:
 * the message names the call fn and which of its arguments ("view",
 * "source array"). Expects the runtime lock. */
amp_status amp__view_check_data(const char *fn, const char *which, const amp_array_view *v);

/* The element type and extent checks of every new view or array, with the
 * element count in *n. fn names the public call in messages. */
amp_status amp__view_check_shape(const char *fn, amp_elem_type type, amp_extent extent, int64_t *n);

/* What an asynchronous operation keeps of the view v past its release:
 * its shape in *held (no handle: it is in no registry) and a reference to
 * its data source, which amp__view_unhold() lets go of. Expects the
 * runtime lock. */
void amp__view_hold(const amp_array_view *v, amp_array_view *held);
amp_status amp__view_unhold(amp_array_view *held);

/* amp_array_view_synchronize() of a held view, reported as the call fn.
 * Expects the runtime lock. */
amp_status amp__view_synchronize_held(const char *fn, amp_array_view *held);

/* amp_array_view_synchronize_to() of a held view onto av, resolved (and
 * held by the caller), reported as the call fn. Expects the runtime lock. */
amp_status amp__view_synchronize_to_held(const char *fn, amp_array_view *held,
                                         amp_accelerator_view *av);

/* Unregister and free a handle made by amp__view_make(), releasing its
 * reference to the source. Expects the runtime lock. */
amp_status amp__view_unmake(amp_array_view *v);

/* Make v's bytes current on av's device (each box of its data source,
 * data/coherence.h), with that device's buffer of its data source in
 * *mem; label names the view in traces and messages. Also makes room for
 * amp__view_device_written on av. Expects the runtime lock. */
amp_status amp__view_device_ready(const amp_array_view *v, amp_accelerator_view *av,
                                  const char *label, cl_mem *mem);

/* The parts of a launch split across accelerators: their direct uploads
 * (page-locked host memory, small boxes) are queued without waiting until
 * amp__view_uploads_wait, so that each device takes its own while the next
 * part's are queued (data/staging.h). The wait comes before the launch
 * returns: the caller's memory may change after it. A failed upload
 * removes its accelerator (AMP_ERROR_ACCELERATOR_VIEW_REMOVED). Expects
 * the runtime lock. */
void amp__view_uploads_defer(void);
amp_status amp__view_uploads_wait(void);

/* v restricted to the rows lo .. hi - 1 of its dimension 0, clamped to its
 * extent, in *rows: not a handle, for amp__view_device_ready and
 * amp__view_device_written of a part of a launch split across
 * accelerators. Returns 0 when no row is left. */
int amp__view_rows(const amp_array_view *v, int64_t lo, int64_t hi, amp_array_view *rows);

/* A kernel queued on av writes v: every other copy of its bytes is stale
 * now. Every box is marked, even after a failure; the first failure is
 * the status. Expects the runtime lock. */
amp_status amp__view_device_written(const amp_array_view *v, amp_accelerator_view *av);

/* Copy back to the caller's memory every stale byte of every live view's
 * data (amp_shutdown, before the devices go). Returns the first failure;
 * the others are tried all the same. Expects the runtime lock. */
amp_status amp__view_write_back_all(void);

/* Nonzero when v is a handle that was created and not yet released. Expects
 * the runtime lock. */
int amp__view_is_live(const amp_array_view *v);

/* The extent as "(d0)", "(d0, d1)", ... in buf, for messages. */
const char *amp__view_extent_text(amp_extent e, char *buf, size_t n);

/* What a capture of a NULL or released array holds instead of the array's
 * whole view (amp__array_view_of): "NULL" or "released (or was never
 * created)" for those stand-ins, NULL for any other view. Never live, so
 * parallel_for_each refuses them, and names them as arrays. */
const char *amp__view_array_stand_in(const amp_array_view *v);

#endif
