/*
 * runtime/data/view.h - array_view handles: a window (element type, extent,
 * offset, strides) onto a data source.
 */
#ifndef AMP_DATA_VIEW_H
#define AMP_DATA_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "amp/array_view.h"
#include "data/coherence.h"

struct amp_array_view {
    coh_source *src;
    amp_elem_type type;
    amp_extent extent;
    int is_const;
    int64_t offset;     /* elements from the start of the data source */
    int64_t strides[2]; /* elements between consecutive indices of dims 0 and 1 */
    const char *label;  /* for traces: the capture name of the last kernel, or NULL */
    struct amp_array *array; /* the array this is the whole view of, for arrays' captures */
};

/* The bytes of its data source the view covers. */
rg_box amp__view_box(const amp_array_view *v);

/* Make a view handle over src (taking over one reference of it), with
 * row-major strides, and register it. Expects the runtime lock. */
amp_status amp__view_make(coh_source *src, amp_elem_type type, amp_extent extent, int is_const,
                     amp_array_view **out);

/* As the public functions do: check the handle and take the runtime lock;
 * on failure, the lock is not held. */
amp_status amp__view_lock_live(const char *fn, const amp_array_view *v);

/* The element type and extent checks of every new view or array, with the
 * element count in *n. fn names the public call in messages. */
amp_status amp__view_check_shape(const char *fn, amp_elem_type type, amp_extent extent, int64_t *n);

/* Unregister and free a handle made by amp__view_make(), releasing its
 * reference to the source. Expects the runtime lock. */
amp_status amp__view_unmake(amp_array_view *v);

/* Nonzero when v is a handle that was created and not yet released. Expects
 * the runtime lock. */
int amp__view_is_live(const amp_array_view *v);

/* The extent as "(d0)", "(d0, d1)" or "(d0, d1, d2)", in buf, for messages. */
const char *amp__view_extent_text(amp_extent e, char *buf, size_t n);

/* What a capture of a NULL or released array holds instead of the array's
 * whole view (amp__array_view_of): "NULL" or "released (or was never
 * created)" for those stand-ins, NULL for any other view. Never live, so
 * parallel_for_each refuses them, and names them as arrays. */
const char *amp__view_array_stand_in(const amp_array_view *v);

#endif
