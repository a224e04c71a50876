/*
 * runtime/core/extent.c - extent, index and tiled-extent values.
 */
#include "amp/extent.h"

#include <stddef.h>

#include "core/extent.h"

const char *amp__extent_rank_note(int rank)
{
    /* AMP_MAX_RANK is 8: the text is a literal, as messages keep no state. */
    _Static_assert(AMP_MAX_RANK == 8, "the note names the largest rank");
    return rank == 0 ? " (rank 0 is what amp_extent_nd() gives for a rank outside 1 to 8 or NULL"
                       " dimensions, what the extent arithmetic gives for operands it refuses"
                       " (another rank, a division by 0), and an amp_extent of zeros)"
                     : "";
}

amp_extent amp_extent_1d(int d0)
{
    amp_extent e = {1, {d0}};
    return e;
}

amp_extent amp_extent_2d(int d0, int d1)
{
    amp_extent e = {2, {d0, d1}};
    return e;
}

amp_extent amp_extent_3d(int d0, int d1, int d2)
{
    amp_extent e = {3, {d0, d1, d2}};
    return e;
}

amp_extent amp_extent_nd(int rank, const int *dims)
{
    amp_extent e = {0, {0}};
    if (rank < 1 || rank > AMP_MAX_RANK || !dims)
        return e;
    e.rank = rank;
    for (int d = 0; d < rank; d++)
        e.dims[d] = dims[d];
    return e;
}

amp_index amp_index_1d(int i0)
{
    amp_index i = {1, {i0}};
    return i;
}

amp_index amp_index_2d(int i0, int i1)
{
    amp_index i = {2, {i0, i1}};
    return i;
}

amp_index amp_index_3d(int i0, int i1, int i2)
{
    amp_index i = {3, {i0, i1, i2}};
    return i;
}

amp_index amp_index_nd(int rank, const int *values)
{
    amp_index i = {0, {0}};
    if (rank < 1 || rank > AMP_MAX_RANK || !values)
        return i;
    i.rank = rank;
    for (int d = 0; d < rank; d++)
        i.i[d] = values[d];
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
        /* Dimensions of up to 2^31 - 1 each can pass 2^63: saturate rather
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

int amp_extent_contains(amp_extent extent, amp_index idx)
{
    if (extent.rank != idx.rank || extent.rank < 1 || extent.rank > AMP_MAX_RANK)
        return 0;
    for (int d = 0; d < extent.rank; d++)
        if (idx.i[d] < 0 || idx.i[d] >= extent.dims[d])
            return 0;
    return 1;
}

int amp_index_equal(amp_index a, amp_index b)
{
    if (a.rank != b.rank || a.rank < 1 || a.rank > AMP_MAX_RANK)
        return 0;
    for (int d = 0; d < a.rank; d++)
        if (a.i[d] != b.i[d])
            return 0;
    return 1;
}

/* Component-wise arithmetic on index values: the operation applied to each
 * pair, or to each component and k; rank 0 for a rank that does not match
 * or a division by 0. Wrapping, not overflowing: computed in unsigned. */
enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD };

static int apply(int op, int a, int b)
{
    switch (op) {
    case OP_ADD: return (int)((unsigned)a + (unsigned)b);
    case OP_SUB: return (int)((unsigned)a - (unsigned)b);
    case OP_MUL: return (int)((unsigned)a * (unsigned)b);
    case OP_DIV: return b == -1 ? (int)(0u - (unsigned)a) : a / b;
    default: return b == -1 ? 0 : a % b;
    }
}

static amp_index index_op(int op, amp_index a, const int *b, int rank, int scalar, int k)
{
    amp_index r = {0, {0}};
    if (a.rank < 1 || a.rank > AMP_MAX_RANK || (!scalar && rank != a.rank) ||
        (scalar && (op == OP_DIV || op == OP_MOD) && k == 0))
        return r;
    r.rank = a.rank;
    for (int d = 0; d < a.rank; d++)
        r.i[d] = apply(op, a.i[d], scalar ? k : b[d]);
    return r;
}

amp_index amp_index_add(amp_index a, amp_index b)
{
    return index_op(OP_ADD, a, b.i, b.rank, 0, 0);
}

amp_index amp_index_sub(amp_index a, amp_index b)
{
    return index_op(OP_SUB, a, b.i, b.rank, 0, 0);
}

amp_index amp_index_mul(amp_index a, int k)
{
    return index_op(OP_MUL, a, NULL, 0, 1, k);
}

amp_index amp_index_div(amp_index a, int k)
{
    return index_op(OP_DIV, a, NULL, 0, 1, k);
}

amp_index amp_index_mod(amp_index a, int k)
{
    return index_op(OP_MOD, a, NULL, 0, 1, k);
}

/* An extent moved by an index (scalar 0), or its dimensions and k: the
 * same arithmetic as an index's on its dimensions. */
static amp_extent extent_op(int op, amp_extent e, amp_index offset, int scalar, int k)
{
    amp_index as_index = {e.rank, {0}};
    for (int d = 0; d < e.rank && d < AMP_MAX_RANK; d++)
        as_index.i[d] = e.dims[d];
    amp_index r = index_op(op, as_index, offset.i, offset.rank, scalar, k);
    amp_extent out = {r.rank, {0}};
    for (int d = 0; d < r.rank; d++)
        out.dims[d] = r.i[d];
    return out;
}

static const amp_index no_index = {0, {0}};

amp_extent amp_extent_mul(amp_extent e, int k)
{
    return extent_op(OP_MUL, e, no_index, 1, k);
}

amp_extent amp_extent_div(amp_extent e, int k)
{
    return extent_op(OP_DIV, e, no_index, 1, k);
}

amp_extent amp_extent_mod(amp_extent e, int k)
{
    return extent_op(OP_MOD, e, no_index, 1, k);
}

amp_extent amp_extent_add(amp_extent e, amp_index offset)
{
    return extent_op(OP_ADD, e, offset, 0, 0);
}

amp_extent amp_extent_sub(amp_extent e, amp_index offset)
{
    return extent_op(OP_SUB, e, offset, 0, 0);
}

amp_tiled_extent amp_extent_tile_1d(amp_extent extent, int t0)
{
    amp_tiled_extent t = {extent, 1, {t0, 0, 0}, 0, {0, {0}}};
    return t;
}

amp_tiled_extent amp_extent_tile_2d(amp_extent extent, int t0, int t1)
{
    amp_tiled_extent t = {extent, 2, {t0, t1, 0}, 0, {0, {0}}};
    return t;
}

amp_tiled_extent amp_extent_tile_3d(amp_extent extent, int t0, int t1, int t2)
{
    amp_tiled_extent t = {extent, 3, {t0, t1, t2}, 0, {0, {0}}};
    return t;
}

/* Round one dimension to a multiple of its tile; tiles <= 0 and ranks that
 * do not match are left for parallel_for_each to report. */
static amp_tiled_extent round_to_tiles(amp_tiled_extent t, int up)
{
    if (t.tile_rank != t.extent.rank || t.extent.rank < 1 || t.extent.rank > AMP_MAX_TILE_RANK)
        return t;
    amp_extent before = t.padded ? t.original : t.extent;
    amp_extent cut_from = t.extent;
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
        /* A cut keeps what it cut from (the timeline draws the elements left
         * without a thread); an extent that needed no cut keeps the record of
         * an earlier one, and a padded one's original is no longer its. */
        if (!amp_extent_equal(cut_from, t.extent))
            t.original = cut_from;
        else if (t.padded)
            t.original = (amp_extent){0, {0}};
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
