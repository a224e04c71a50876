/*
 * runtime/view.h - array_view handles: a window (element type, extent,
 * offset, strides) onto a data source.
 */
#ifndef RT_VIEW_H
#define RT_VIEW_H

#include <stdint.h>

#include "amp/array_view.h"
#include "coherence.h"

struct amp_array_view {
    coh_source *src;
    amp_elem_type type;
    amp_extent extent;
    int is_const;
    int64_t offset;     /* elements from the start of the data source */
    int64_t strides[2]; /* elements between consecutive indices of dims 0 and 1 */
};

/* Nonzero when v is a handle that was created and not yet released. Expects
 * the runtime lock. */
int view_is_live(const amp_array_view *v);

#endif
