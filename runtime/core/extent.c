/*
 * runtime/core/extent.c - extent, index and tiled-extent values.
 */
#include "amp/extent.h"

amp_extent amp_extent_1d(int d0)
{
    amp_extent e = {1, {d0, 0, 0}};
    return e;
}

amp_extent amp_extent_2d(int d0, int d1)
{
    amp_extent e = {2, {d0, d1, 0}};
    return e;
}

amp_extent amp_extent_3d(int d0, int d1, int d2)
{
    amp_extent e = {3, {d0, d1, d2}};
    return e;
}

amp_index amp_index_1d(int i0)
{
    amp_index i = {1, {i0, 0, 0}};
    return i;
}

amp_index amp_index_2d(int i0, int i1)
{
    amp_index i = {2, {i0, i1, 0}};
    return i;
}

amp_index amp_index_3d(int i0, int i1, int i2)
{
    amp_index i = {3, {i0, i1, i2}};
    return i;
}

int64_t amp_extent_size(amp_extent extent)
{
    if (extent.rank < 1 || extent.rank > AMP_MAX_RANK)
        return 0;
    int64_t n = 1;
    for (int d = 0; d < extent.rank; d++) {
        if (extent.dims[d] <= 0)
            return 0;
        /* Three dimensions of up to 2^31 - 1 can pass 2^63: saturate rather
         * than overflow, so that callers see "too large" and refuse it. */
        if (n > INT64_MAX / extent.dims[d])
            return INT64_MAX;
        n *= extent.dims[d];
    }
    return n;
}

int amp_extent_equal(amp_extent a, amp_extent b)
{
    if (a.rank != b.rank)
        return 0;
    for (int d = 0; d < a.rank && d < AMP_MAX_RANK; d++)
        if (a.dims[d] != b.dims[d])
            return 0;
    return 1;
}

amp_tiled_extent amp_extent_tile_1d(amp_extent extent, int t0)
{
    amp_tiled_extent t = {extent, 1, {t0, 0, 0}, 0, {0, {0, 0, 0}}};
    return t;
}

amp_tiled_extent amp_extent_tile_2d(amp_extent extent, int t0, int t1)
{
    amp_tiled_extent t = {extent, 2, {t0, t1, 0}, 0, {0, {0, 0, 0}}};
    return t;
}

amp_tiled_extent amp_extent_tile_3d(amp_extent extent, int t0, int t1, int t2)
{
    amp_tiled_extent t = {extent, 3, {t0, t1, t2}, 0, {0, {0, 0, 0}}};
    return t;
}

/* Round one dimension to a multiple of its tile; tiles <= 0 and ranks that
 * do not match are left for parallel_for_each to report. */
static amp_tiled_extent round_to_tiles(amp_tiled_extent t, int up)
{
    if (t.tile_rank != t.extent.rank || t.extent.rank < 1 || t.extent.rank > AMP_MAX_RANK)
        return t;
    amp_extent before = t.padded ? t.original : t.extent;
    for (int d = 0; d < t.extent.rank; d++) {
        int tile = t.tile[d];
        if (tile <= 0 || t.extent.dims[d] <= 0)
            continue;
        int64_t n = t.extent.dims[d];
        n = up ? (n + tile - 1) / tile * tile : n / tile * tile;
        t.extent.dims[d] = n > INT32_MAX ? n - tile : (int)n;
    }
    if (up && !amp_extent_equal(before, t.extent)) {
        t.padded = 1;
        t.original = before;
    } else if (!up) {
        t.padded = 0;
    }
    return t;
}

amp_tiled_extent amp_tiled_extent_pad(amp_tiled_extent tiled)
{
    return round_to_tiles(tiled, 1);
}

amp_tiled_extent amp_tiled_extent_truncate(amp_tiled_extent tiled)
{
    return round_to_tiles(tiled, 0);
}
