/*
 * amp/extent.h - extents, indices and tiled extents (C++ AMP's extent<N>,
 * index<N> and tiled_extent<D0, D1, D2>).
 *
 * These are plain values: build them with the helpers below and pass them
 * by value. Dimension 0 is the slowest-varying one (the row of a matrix), as
 * in C++ AMP; the last dimension is contiguous in memory.
 */
#ifndef AMP_EXTENT_H
#define AMP_EXTENT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The largest rank of an extent, an index or a tile. */
#define AMP_MAX_RANK 3

/* The shape of a domain or a view: rank 1 to 3, dims[0..rank-1] > 0. */
typedef struct amp_extent {
    int rank;
    int dims[AMP_MAX_RANK];
} amp_extent;

/* A position in an extent: rank 1 to 3, i[0..rank-1]. */
typedef struct amp_index {
    int rank;
    int i[AMP_MAX_RANK];
} amp_index;

/* An extent cut into tiles of tile[0..tile_rank-1] threads each. A padded
 * one (amp_tiled_extent_pad) also keeps the extent it was rounded up from. */
typedef struct amp_tiled_extent {
    amp_extent extent;
    int tile_rank;
    int tile[AMP_MAX_RANK];
    int padded;          /* threads past `original` are guarded */
    amp_extent original; /* the extent before padding, when padded */
} amp_tiled_extent;

/* Extents of rank 1, 2 and 3. No check is made here: a dimension <= 0 is
 * reported by the call that uses the extent. */
amp_extent amp_extent_1d(int d0);
amp_extent amp_extent_2d(int d0, int d1);
amp_extent amp_extent_3d(int d0, int d1, int d2);

/* Indices of rank 1, 2 and 3. */
amp_index amp_index_1d(int i0);
amp_index amp_index_2d(int i0, int i1);
amp_index amp_index_3d(int i0, int i1, int i2);

/*
 * The number of elements of an extent, as a 64-bit count so that extents
 * over 2^31 elements are counted right. Returns 0 for an extent of rank
 * outside 1..3 or with a dimension <= 0, and INT64_MAX for one whose count
 * does not fit in 64 bits.
 */
int64_t amp_extent_size(amp_extent extent);

/* Nonzero when both extents have the same rank and dimensions. */
int amp_extent_equal(amp_extent a, amp_extent b);

/*
 * Tile an extent, as C++ AMP's extent.tile<T0, T1, T2>(): the number of tile
 * dimensions must equal the extent's rank. No check is made here; the
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
 * but are guarded: their reads of views give unspecified values and their
 * writes are dropped, so they can never touch memory outside a view. Test
 * t_idx.global[d] against the original extent to skip their work.
 */
amp_tiled_extent amp_tiled_extent_pad(amp_tiled_extent tiled);

/*
 * C++ AMP's tiled_extent::truncate(): round each dimension down to a
 * multiple of its tile. The elements past it get no thread; a dimension
 * smaller than its tile becomes 0, which parallel_for_each reports as an
 * invalid compute domain.
 */
amp_tiled_extent amp_tiled_extent_truncate(amp_tiled_extent tiled);

#ifdef __cplusplus
}
#endif

#endif
