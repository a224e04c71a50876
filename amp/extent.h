/*
 * amp/extent.h - extents, indices and tiled extents (C++ AMP's extent<N>,
 * index<N> and tiled_extent<D0, D1, D2>).
 *
 * These are plain values: build them with the helpers below and pass them
 * by value. Dimension 0 is the slowest-varying one (the row of a matrix), as
 * in C++ AMP; the last dimension is contiguous in memory. Extents and
 * indices have rank 1 to AMP_MAX_RANK (8), as C++ AMP's extent<N> allows;
 * tiles have rank 1 to 3, as in C++ AMP.
 */
#ifndef AMP_EXTENT_H
#define AMP_EXTENT_H

#include <stdint.h>

#include "limits.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The shape of a domain or a view: rank 1 to AMP_MAX_RANK, dims[0..rank-1]
 * > 0; the dimensions past the rank are not part of it. */
typedef struct amp_extent {
    int rank;
    int dims[AMP_MAX_RANK];
} amp_extent;

/* A position in an extent: rank 1 to AMP_MAX_RANK, i[0..rank-1]. */
typedef struct amp_index {
    int rank;
    int i[AMP_MAX_RANK];
} amp_index;

/* An extent cut into tiles of tile[0..tile_rank-1] threads each. A padded
 * one (amp_tiled_extent_pad) also keeps the extent it was rounded up from,
 * and a truncated one (amp_tiled_extent_truncate) the extent it was cut
 * from, which only the timeline reads (to draw the elements left without a
 * thread). */
typedef struct amp_tiled_extent {
    amp_extent extent;
    int tile_rank;
    int tile[AMP_MAX_TILE_RANK];
    int padded;          /* threads past `original` are guarded */
    amp_extent original; /* the extent before padding, when padded; before
                          * truncation, when not padded and cut (rank 0:
                          * neither) */
} amp_tiled_extent;

/* Extents of rank 1, 2 and 3. No check is made here: a dimension <= 0 is
 * reported by the call that uses the extent. */
amp_extent amp_extent_1d(int d0);
amp_extent amp_extent_2d(int d0, int d1);
amp_extent amp_extent_3d(int d0, int d1, int d2);

/* An extent of any rank from its dimensions, as C++ AMP's
 * extent<N>(const int dims[]): dims[0..rank-1]. A rank outside
 * 1..AMP_MAX_RANK or a NULL dims gives rank 0, which every call that takes
 * an extent refuses. */
amp_extent amp_extent_nd(int rank, const int *dims);

/* Indices of rank 1, 2 and 3. */
amp_index amp_index_1d(int i0);
amp_index amp_index_2d(int i0, int i1);
amp_index amp_index_3d(int i0, int i1, int i2);

/* An index of any rank from its components (index<N>(const int[])), as
 * amp_extent_nd(). */
amp_index amp_index_nd(int rank, const int *values);

/*
 * The number of elements of an extent, as a 64-bit count so that extents
 * over 2^31 elements are counted right. Returns 0 for an extent of rank
 * outside 1..AMP_MAX_RANK or with a dimension <= 0, and INT64_MAX for one
 * whose count does not fit in 64 bits.
 */
int64_t amp_extent_size(amp_extent extent);

/* Nonzero when both extents have the same rank and dimensions. */
int amp_extent_equal(amp_extent a, amp_extent b);

/* Nonzero when idx is inside the extent (extent.contains(idx)): the same
 * rank, and 0 <= idx.i[d] < extent.dims[d] in every dimension. */
int amp_extent_contains(amp_extent extent, amp_index idx);

/* Nonzero when both indices have the same rank and components (==). */
int amp_index_equal(amp_index a, amp_index b);

/*
 * index<N>'s arithmetic, component by component: a + b, a - b (indices of
 * the same rank; another rank gives rank 0), and a * k, a / k, a % k by an
 * int (k != 0 for / and %; 0 gives rank 0). C++ AMP's extent + index and
 * extent - index are amp_extent_add and amp_extent_sub.
 */
amp_index amp_index_add(amp_index a, amp_index b);
amp_index amp_index_sub(amp_index a, amp_index b);
amp_index amp_index_mul(amp_index a, int k);
amp_index amp_index_div(amp_index a, int k);
amp_index amp_index_mod(amp_index a, int k);
amp_extent amp_extent_add(amp_extent e, amp_index offset);
amp_extent amp_extent_sub(amp_extent e, amp_index offset);

/*
 * extent<N>'s arithmetic with an int, each dimension: e * k, e / k, e % k
 * (k != 0 for / and %; 0 gives rank 0). C++ AMP's e *= k is
 * e = amp_extent_mul(e, k), and i *= k is i = amp_index_mul(i, k).
 */
amp_extent amp_extent_mul(amp_extent e, int k);
amp_extent amp_extent_div(amp_extent e, int k);
amp_extent amp_extent_mod(amp_extent e, int k);

/*
 * Tile an extent, as C++ AMP's extent.tile<T0, T1, T2>(): the number of tile
 * dimensions must equal the extent's rank (so tiled extents have rank 1 to
 * 3, as in C++ AMP). No check is made here; the
 * parallel_for_each that uses the tiled extent reports an extent that its
 * tile does not divide, or a tile over the device's limits.
 */
amp_tiled_extent amp_extent_tile_1d(amp_extent extent, int t0);
amp_tiled_extent amp_extent_tile_2d(amp_extent extent, int t0, int t1);
amp_tiled_extent amp_extent_tile_3d(amp_extent extent, int t0, int t1, int t2);

/*
 * C++ AMP's tiled_extent::pad(): round each dimension up to a multiple of
 * its tile. The kernel runs over the padded extent; the threads past the
 * original extent take part in barriers and tile_static memory as usual,
 * and read and write inside views as any thread does (loading a tile for
 * the others). They are guarded at a view's edge: an access outside a
 * view's extent lands on a sink, where a read gives an unspecified value
 * and a write is dropped, so they never touch memory outside a view. Test
 * t_idx.global[d] against the original extent before writing a thread's
 * own element. A dimension whose rounding up would pass INT_MAX cannot be
 * padded: a launch over the result is refused with
 * AMP_ERROR_INVALID_COMPUTE_DOMAIN, saying so.
 */
amp_tiled_extent amp_tiled_extent_pad(amp_tiled_extent tiled);

/*
 * C++ AMP's tiled_extent::truncate(): round each dimension down to a
 * multiple of its tile. The elements past it get no thread; a dimension
 * smaller than its tile becomes 0, which parallel_for_each reports as an
 * invalid compute domain. The result keeps the extent it was cut from in
 * `original` (padded 0), for the timeline. Truncating a padded extent
 * (already whole tiles) leaves its extent and makes it unpadded.
 */
amp_tiled_extent amp_tiled_extent_truncate(amp_tiled_extent tiled);

#ifdef __cplusplus
}
#endif

#endif
