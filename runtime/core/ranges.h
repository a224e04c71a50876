/*
 * runtime/core/ranges.h - sets of byte ranges, and the boxes views cover.
 *
 * The coherence module keeps, for each copy of a data source, the set of
 * bytes in which that copy is older than another: a sorted list of disjoint
 * half-open ranges. A view covers a box of its source: up to two levels of
 * rows (rank 3: slices of rows) of contiguous bytes. Adding, removing and
 * intersecting boxes with such sets is all the coherence module needs to
 * move exactly the bytes that are both stale and wanted.
 */
#ifndef AMP_CORE_RANGES_H
#define AMP_CORE_RANGES_H

#include <stddef.h>
#include <stdint.h>

#include "amp/limits.h"

/* The bytes a view covers: for s < rows[0] and r < rows[1], the width bytes
 * at offset + s * pitch[0] + r * pitch[1]. A rank-1 view has rows {1, 1}. */
typedef struct rg_box {
    int64_t offset;
    int64_t rows[2];
    int64_t pitch[2];
    int64_t width;
} rg_box;

/* Sorted, disjoint, non-adjacent half-open ranges [lo, hi). */
typedef struct rg_set {
    int64_t *lo, *hi;
    size_t count, capacity;
} rg_set;

/* clang-format off */
#define RG_SET_INIT {NULL, NULL, 0, 0}
/* clang-format on */

/* The number of bytes a box covers. */
int64_t amp__rg_box_bytes(const rg_box *b);

/* Whether a box's bytes are one run: its rows follow one another. */
int amp__rg_box_contiguous(const rg_box *b);

/* A box of n contiguous bytes at offset. */
rg_box amp__rg_box_linear(int64_t offset, int64_t n);

/* Room for n ranges, so that changes that leave at most n ranges cannot
 * run out of memory. Returns 0 when out of memory (the set is unchanged). */
int amp__rg_reserve(rg_set *s, size_t n);

/* Add [lo, hi) to the set. Returns 0 when out of memory (the set is then
 * unchanged). */
int amp__rg_add(rg_set *s, int64_t lo, int64_t hi);
/* Remove [lo, hi) from the set. Returns 0 when out of memory. */
int amp__rg_remove(rg_set *s, int64_t lo, int64_t hi);
/* Every row of the box, added or removed. Return 0 when out of memory. */
int amp__rg_add_box(rg_set *s, const rg_box *b);
int amp__rg_remove_box(rg_set *s, const rg_box *b);

/* The bytes of the box that are in the set. */
int64_t amp__rg_box_overlap(const rg_set *s, const rg_box *b);

/* Call fn for each maximal range of the set inside the box, in order (rows
 * of the box are visited one by one). Stops and returns fn's value when it
 * is nonzero; returns 0 after the last range. */
typedef int (*rg_range_fn)(int64_t lo, int64_t hi, void *user);
int amp__rg_each_in_box(const rg_set *s, const rg_box *b, rg_range_fn fn, void *user);

/* Remove from s the bytes of `which` that lie inside the box (s and which
 * must differ). Returns 0 when out of memory. */
int amp__rg_remove_in_box(rg_set *s, const rg_set *which, const rg_box *b);

void amp__rg_clear(rg_set *s);
void amp__rg_free(rg_set *s);

/* ---- Shapes of any rank as boxes ---- */

/*
 * A shape of up to AMP_MAX_RANK dimensions laid out in one memory (a view)
 * or two (the two ends of a copy): its elements as boxes, one box per index
 * of the dimensions outside the box. Adjacent dimensions that are
 * contiguous in every layout are joined first, so a shape of rank 3 or
 * less, and any contiguous shape, is one box. Boxes of a plan with two
 * layouts have the same rows and width in both.
 */
typedef struct rg_plan {
    int levels;                         /* dimensions after joining, innermost first */
    int64_t size[AMP_MAX_RANK + 1];     /* indices of each level */
    int64_t pitch[2][AMP_MAX_RANK + 1]; /* bytes between consecutive indices, per layout */
    int64_t offset[2];                  /* bytes from the start of each memory */
} rg_plan;

/* Plan rank dims (C++ AMP's order: the last is the innermost) of elements of
 * elem bytes, in nlayouts (1 or 2) layouts, each an offset and strides in
 * elements (the last stride 1). Dimensions must be > 0. */
void amp__rg_plan(rg_plan *p, int rank, const int *dims, int64_t elem, int nlayouts,
                  const int64_t *offsets, const int64_t *const *strides);

/* How many boxes the plan's elements take (1 when the shape is one box). */
int64_t amp__rg_plan_count(const rg_plan *p);

/* Box k (0 <= k < count) of the plan, in layout (0 or 1). Boxes are in the
 * order of their addresses. */
rg_box amp__rg_plan_box(const rg_plan *p, int layout, int64_t k);

#endif
