/*
 * tests/conformance/conf_tiled.c - C++ AMP 1.2, sections 4.3
 * (tiled_extent), 4.4 (tiled_index) and 4.5 (tile_barrier), and
 * tile_static memory as those sections use it (and Microsoft's reference
 * pages for concurrency::tiled_extent, tiled_index and tile_barrier).
 *
 * Each test, and the section it comes from:
 *
 * tiled_extent_4_3_2_made_from_an_extent_of_each_rank
 *     4.3.2, 4.2.3 extent::tile<D0, D1, D2>()
 * tiled_extent_4_3_3_pad_rounds_each_dimension_up
 *     4.3.3 pad()
 * tiled_extent_4_3_3_truncate_rounds_each_dimension_down
 *     4.3.3 truncate()
 * tiled_extent_4_3_captured_by_value_is_its_extent
 *     4.3 "a tiled_extent is an extent<N>", 7.1
 * tiled_index_4_4_3_members_of_rank_1
 *     4.4.3 global, local, tile, tile_origin
 * tiled_index_4_4_3_members_of_rank_2
 *     4.4.3, for tiled_index<D0, D1>
 * tiled_index_4_4_3_members_of_rank_3
 *     4.4.3, for tiled_index<D0, D1, D2>
 * tiled_index_4_4_3_members_are_index_values
 *     4.4.3 "const index<N> global" ...: values that 4.1's operators take
 * tiled_index_4_4_3_tile_extent_is_an_extent
 *     4.4.3 tile_extent, an extent<N>
 * tiled_index_4_4_3_tile_dims
 *     4.4.3 static const int tile_dim0, 1, 2
 * tiled_index_4_4_3_tile_dims_are_constants
 *     4.4.3 tile_dimN as a constant expression
 * tiled_index_4_4_3_converts_to_its_global_index
 *     4.4.3 operator const index<N>() const
 * tiled_index_4_4_3_converts_to_its_global_index_rank_1
 *     4.4.3, for tiled_index<D0>
 * tiled_index_4_4_passed_to_a_restrict_amp_function
 *     4.4 a tiled_index<D0, D1> value as a restrict(amp) function's parameter
 * tile_barrier_4_5_3_wait_shares_tile_static_memory
 *     4.5.3 wait(), with tile_static memory (chapter 2)
 * tile_barrier_4_5_3_a_barrier_named_barrier_waits
 *     4.5.3 wait() of a tile_barrier kept in a variable and given to a function
 * tile_barrier_4_5_3_wait_with_all_memory_fence
 *     4.5.3 wait_with_all_memory_fence()
 * tile_barrier_4_5_3_wait_with_global_memory_fence
 *     4.5.3 wait_with_global_memory_fence()
 * tile_barrier_4_5_3_wait_with_tile_static_memory_fence
 *     4.5.3 wait_with_tile_static_memory_fence()
 * tile_barrier_4_5_4_fences_without_a_barrier
 *     4.5.4 all_memory_fence, global_memory_fence, tile_static_memory_fence
 * tile_barrier_4_5_3_tiles_of_rank_3_share_memory
 *     4.5.3 wait() in tiles of rank 3
 */
#include "conf_util.h"

/* "template <int D0, int D1, int D2> tiled_extent<D0, D1, D2>
 * extent<3>::tile() const": the extent, and the tile's dimensions. */
static void tiled_extent_4_3_2_made_from_an_extent_of_each_rank(void **state)
{
    (void)state;
    struct {
        amp_tiled_extent t;
        amp_extent extent;
        int tile[3];
    } cases[] = {
        {amp_extent_tile_1d(amp_extent_1d(48), 16), amp_extent_1d(48), {16, 0, 0}},
        {amp_extent_tile_2d(amp_extent_2d(6, 8), 2, 4), amp_extent_2d(6, 8), {2, 4, 0}},
        {amp_extent_tile_3d(amp_extent_3d(4, 6, 8), 2, 3, 4), amp_extent_3d(4, 6, 8), {2, 3, 4}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        assert_true(amp_extent_equal(cases[c].t.extent, cases[c].extent));
        assert_int_equal(cases[c].t.tile_rank, cases[c].extent.rank);
        for (int d = 0; d < cases[c].extent.rank; d++)
            assert_int_equal(cases[c].t.tile[d], cases[c].tile[d]);
        assert_false(cases[c].t.padded);
    }
}

/* "tiled_extent pad() const: Returns a new tiled_extent with the extents
 * adjusted up to be evenly divisible by the tile dimensions." */
static void tiled_extent_4_3_3_pad_rounds_each_dimension_up(void **state)
{
    (void)state;
    amp_tiled_extent p1 = amp_tiled_extent_pad(amp_extent_tile_1d(amp_extent_1d(10), 4));
    amp_tiled_extent p2 = amp_tiled_extent_pad(amp_extent_tile_2d(amp_extent_2d(5, 8), 4, 4));
    amp_tiled_extent p3 = amp_tiled_extent_pad(amp_extent_tile_3d(amp_extent_3d(1, 7, 9), 2, 2, 3));
    assert_true(amp_extent_equal(p1.extent, amp_extent_1d(12)));
    assert_true(amp_extent_equal(p2.extent, amp_extent_2d(8, 8)));
    assert_true(amp_extent_equal(p3.extent, amp_extent_3d(2, 8, 9)));
    /* the tiles are those of the tiled extent padded */
    assert_int_equal(p2.tile[0], 4);
    assert_int_equal(p2.tile[1], 4);
    assert_int_equal(p3.tile[2], 3);
    /* a dimension already divisible stays as it is */
    amp_tiled_extent whole = amp_tiled_extent_pad(amp_extent_tile_2d(amp_extent_2d(8, 8), 4, 2));
    assert_true(amp_extent_equal(whole.extent, amp_extent_2d(8, 8)));
}

/* "tiled_extent truncate() const: Returns a new tiled_extent with the
 * extents adjusted down to be evenly divisible by the tile dimensions." */
static void tiled_extent_4_3_3_truncate_rounds_each_dimension_down(void **state)
{
    (void)state;
    amp_tiled_extent t1 = amp_tiled_extent_truncate(amp_extent_tile_1d(amp_extent_1d(10), 4));
    amp_tiled_extent t2 = amp_tiled_extent_truncate(amp_extent_tile_2d(amp_extent_2d(5, 8), 4, 3));
    amp_tiled_extent t3 =
        amp_tiled_extent_truncate(amp_extent_tile_3d(amp_extent_3d(3, 7, 9), 2, 2, 3));
    assert_true(amp_extent_equal(t1.extent, amp_extent_1d(8)));
    assert_true(amp_extent_equal(t2.extent, amp_extent_2d(4, 6)));
    assert_true(amp_extent_equal(t3.extent, amp_extent_3d(2, 6, 9)));
    assert_int_equal(t2.tile[1], 3);
    assert_false(t2.padded);
}

/* tiled_extent<D0, D1> derives from extent<2>: captured by [=], it is an
 * extent<2> in the kernel, the padded one after pad(). */
static void tiled_extent_4_3_captured_by_value_is_its_extent(void **state)
{
    (void)state;
    amp_tiled_extent plain = amp_extent_tile_2d(amp_extent_2d(6, 8), 2, 4);
    amp_tiled_extent padded = amp_tiled_extent_pad(amp_extent_tile_1d(amp_extent_1d(10), 4));
    static int out[5];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(5), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(v, plain, padded), {
        v[0] = plain[0];
        v[1] = plain[1];
        v[2] = plain.size();
        v[3] = padded[0];
        v[4] = plain.contains(index<2>(5, 7));
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    int want[5] = {6, 8, 48, 12, 1};
    assert_ints(out, want, 5);
    assert_amp_ok(amp_array_view_release(v));
}

/* "const index<N> global: the global index within an extent"; "local: the
 * relative index within the current tile"; "tile: the coordinates of the
 * current tile"; "tile_origin: the global coordinates of the origin of the
 * current tile". Rank 1: 24 threads in tiles of 8. */
static void tiled_index_4_4_3_members_of_rank_1(void **state)
{
    (void)state;
    enum { N = 24, T = 8 };
    static int out[N * 4];
    memset(out, -1, sizeof out);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(N, 4), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                        AMP_CAPTURE(v), {
        int g = t_idx.global[0];
        v(g, 0) = t_idx.global[0];
        v(g, 1) = t_idx.local[0];
        v(g, 2) = t_idx.tile[0];
        v(g, 3) = t_idx.tile_origin[0];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++) {
        int want[4] = {g, g % T, g / T, g / T * T};
        assert_ints(out + g * 4, want, 4);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* The same for tiled_index<2, 4> over extent<2>(6, 8). */
static void tiled_index_4_4_3_members_of_rank_2(void **state)
{
    (void)state;
    enum { R = 6, C = 8, T0 = 2, T1 = 4 };
    static int out[R * C * 8];
    memset(out, -1, sizeof out);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(R, C, 8), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(R, C), T0, T1),
                                        t_idx, AMP_CAPTURE(v), {
        int i = t_idx.global[0], j = t_idx.global[1];
        v(i, j, 0) = t_idx.global[0];
        v(i, j, 1) = t_idx.global[1];
        v(i, j, 2) = t_idx.local[0];
        v(i, j, 3) = t_idx.local[1];
        v(i, j, 4) = t_idx.tile[0];
        v(i, j, 5) = t_idx.tile[1];
        v(i, j, 6) = t_idx.tile_origin[0];
        v(i, j, 7) = t_idx.tile_origin[1];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            int want[8] = {i, j, i % T0, j % T1, i / T0, j / T1, i / T0 * T0, j / T1 * T1};
            assert_ints(out + (i * C + j) * 8, want, 8);
        }
    assert_amp_ok(amp_array_view_release(v));
}

/* The same for tiled_index<2, 3, 4> over extent<3>(4, 6, 8). */
static void tiled_index_4_4_3_members_of_rank_3(void **state)
{
    (void)state;
    enum { A = 4, B = 6, C = 8, T0 = 2, T1 = 3, T2 = 4 };
    static int out[A * B * C * 12];
    memset(out, -1, sizeof out);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(A * B * C, 12), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(
        amp_extent_tile_3d(amp_extent_3d(A, B, C), T0, T1, T2), t_idx,
        AMP_CAPTURE(v, AMP_CONST(B), AMP_CONST(C)), {
            int row = (t_idx.global[0] * B + t_idx.global[1]) * C + t_idx.global[2];
            for (int d = 0; d < 3; d++) {
                v(row, d) = t_idx.global[d];
                v(row, 3 + d) = t_idx.local[d];
                v(row, 6 + d) = t_idx.tile[d];
                v(row, 9 + d) = t_idx.tile_origin[d];
            }
        }));
    assert_amp_ok(amp_array_view_synchronize(v));
    static int tile[3] = {T0, T1, T2};
    for (int i = 0; i < A; i++)
        for (int j = 0; j < B; j++)
            for (int k = 0; k < C; k++) {
                int g[3] = {i, j, k}, want[12];
                for (int d = 0; d < 3; d++) {
                    want[d] = g[d];
                    want[3 + d] = g[d] % tile[d];
                    want[6 + d] = g[d] / tile[d];
                    want[9 + d] = g[d] / tile[d] * tile[d];
                }
                assert_ints(out + ((i * B + j) * C + k) * 12, want, 12);
            }
    assert_amp_ok(amp_array_view_release(v));
}

/* The members are index<N> values: global == tile_origin + local by
 * 4.1.4's operators, and tile_origin[d] == tile[d] * tile_extent[d], for every
 * thread; and they can be kept in index<N> variables. */
static void tiled_index_4_4_3_members_are_index_values(void **state)
{
    (void)state;
    enum { R = 6, C = 8 };
    static int out[R * C];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(R, C), 3, 2), t_idx,
                                        AMP_CAPTURE(v), {
        index<2> local = t_idx.local;
        index<2> origin = t_idx.tile_origin;
        int ok = t_idx.global == origin + local;
        ok += 2 * (t_idx.tile_origin[0] == t_idx.tile[0] * t_idx.tile_extent[0] &&
                   t_idx.tile_origin[1] == t_idx.tile[1] * t_idx.tile_extent[1]);
        ok += 4 * (t_idx.global - t_idx.local == t_idx.tile_origin);
        v[t_idx.global] = ok;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < R * C; k++)
        if (out[k] != 7)
            fail_msg("thread (%d, %d): the relations between the members gave %d, not 7", k / C,
                     k % C, out[k]);
    assert_amp_ok(amp_array_view_release(v));
}

/* "const extent<N> tile_extent: an extent<N> that captures the values of
 * the tiled_index template arguments D0, D1, D2". */
static void tiled_index_4_4_3_tile_extent_is_an_extent(void **state)
{
    (void)state;
    enum { R = 6, C = 8 };
    static int out[R * C * 5];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(R, C, 5), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(R, C), 3, 4), t_idx,
                                        AMP_CAPTURE(v), {
        extent<2> te = t_idx.tile_extent;
        int i = t_idx.global[0], j = t_idx.global[1];
        v(i, j, 0) = te[0];
        v(i, j, 1) = t_idx.tile_extent[1];
        v(i, j, 2) = t_idx.tile_extent.size();
        v(i, j, 3) = t_idx.tile_extent.contains(t_idx.local);
        v(i, j, 4) = te.contains(t_idx.local + index<2>(0, 4));
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < R * C; k++) {
        int want[5] = {3, 4, 12, 1, 0};
        assert_ints(out + k * 5, want, 5);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* "static const int tile_dim0 = D0; tile_dim1 = D1; tile_dim2 = D2". */
static void tiled_index_4_4_3_tile_dims(void **state)
{
    (void)state;
    enum { A = 4, B = 6, C = 8 };
    static int out[A * B * C];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(A, B, C), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_3d(amp_extent_3d(A, B, C), 2, 3, 4),
                                        t_idx, AMP_CAPTURE(v), {
        v[t_idx.global] = t_idx.tile_dim0 * 100 + t_idx.tile_dim1 * 10 + t_idx.tile_dim2;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < A * B * C; k++)
        assert_int_equal(out[k], 234);
    assert_amp_ok(amp_array_view_release(v));
}

/* tile_dim0 is a static const int: C++ AMP code sizes tile_static arrays
 * with it. */
static void tiled_index_4_4_3_tile_dims_are_constants(void **state)
{
    (void)state;
    enum { N = 16, T = 8 };
    static int out[N];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                        AMP_CAPTURE(v), {
        tile_static int buffer[t_idx.tile_dim0];
        buffer[t_idx.local[0]] = t_idx.global[0];
        t_idx.barrier.wait();
        v[t_idx.global] = buffer[t_idx.tile_dim0 - 1 - t_idx.local[0]];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++)
        assert_int_equal(out[g], g / T * T + (T - 1 - g % T));
    assert_amp_ok(amp_array_view_release(v));
}

/* "operator const index<N>() const: implicit conversion to index<N>; the
 * returned index is the global index": in a declaration, an assignment, a
 * view's subscript (v[t_idx], v(t_idx)) and index arithmetic. */
static void tiled_index_4_4_3_converts_to_its_global_index(void **state)
{
    (void)state;
    enum { R = 4, C = 6 };
    static int a[R * C], b[R * C], c[R * C * 3];
    amp_array_view *av, *bv, *cv;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), a, &av));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), b, &bv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(R, C, 3), c, &cv));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(R, C), 2, 3), t_idx,
                                        AMP_CAPTURE(av, bv, cv), {
        index<2> g = t_idx;
        index<2> h = index<2>(0, 0);
        h = t_idx;
        index<2> next = t_idx + index<2>(0, 1);
        av[t_idx] = g[0] * 100 + g[1];
        bv(t_idx) = h[0] * 100 + h[1] + 1;
        cv(g[0], g[1], 0) = next[1];
        cv(g[0], g[1], 1) = t_idx == index<2>(1, 2);
        cv(g[0], g[1], 2) = t_idx.global == g;
    }));
    assert_amp_ok(amp_array_view_synchronize(av));
    assert_amp_ok(amp_array_view_synchronize(bv));
    assert_amp_ok(amp_array_view_synchronize(cv));
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            assert_int_equal(a[i * C + j], i * 100 + j);
            assert_int_equal(b[i * C + j], i * 100 + j + 1);
            int want[3] = {j + 1, i == 1 && j == 2, 1};
            assert_ints(c + (i * C + j) * 3, want, 3);
        }
    assert_amp_ok(amp_array_view_release(av));
    assert_amp_ok(amp_array_view_release(bv));
    assert_amp_ok(amp_array_view_release(cv));
}

/* The same conversion for tiled_index<D0>: v[t_idx] and v(t_idx) on views
 * of rank 1, an index<1> kept from it, and index arithmetic. */
static void tiled_index_4_4_3_converts_to_its_global_index_rank_1(void **state)
{
    (void)state;
    enum { N = 24, T = 8 };
    static int a[N], b[N];
    amp_array_view *av, *bv;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), a, &av));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), b, &bv));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                          AMP_CAPTURE(av, bv), {
        index<1> g = t_idx;
        av[t_idx] = g[0] * 10;
        bv(t_idx) = (t_idx == index<1>(3)) + 2 * (g == t_idx.global);
    });
    if (st == AMP_OK)
        st = amp_array_view_synchronize(av);
    if (st == AMP_OK)
        st = amp_array_view_synchronize(bv);
    assert_amp_ok(amp_array_view_release(av));
    assert_amp_ok(amp_array_view_release(bv));
    if (st != AMP_OK)
        fail_msg("v[t_idx] on a rank-1 view: %s: %.500s", amp_status_name(st), amp_last_error());
    for (int g = 0; g < N; g++) {
        assert_int_equal(a[g], g * 10);
        assert_int_equal(b[g], (g == 3) + 2);
    }
}

/* A tiled_index<D0, D1> is a value restrict(amp) functions take, members
 * and all. */
AMP_FUNCTION(int, tile_code, (tiled_index<2, 4> t), {
    return t.tile[0] * 1000 + t.tile[1] * 100 + t.local[0] * 10 + t.local[1];
});

static void tiled_index_4_4_passed_to_a_restrict_amp_function(void **state)
{
    (void)state;
    enum { R = 4, C = 8 };
    static int out[R * C];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), out, &v));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(R, C), 2, 4),
                                          t_idx, AMP_CAPTURE(v, tile_code),
                                          { v[t_idx.global] = tile_code(t_idx); });
    if (st == AMP_OK)
        st = amp_array_view_synchronize(v);
    assert_amp_ok(amp_array_view_release(v));
    if (st != AMP_OK)
        fail_msg("a tiled_index given to a function: %s: %.500s", amp_status_name(st),
                 amp_last_error());
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            assert_int_equal(out[i * C + j], i / 2 * 1000 + j / 4 * 100 + i % 2 * 10 + j % 4);
}

/* "void wait() const: Blocks execution of all threads in a tile until all
 * threads in the tile have reached this call", with a fence on tile_static
 * and global memory: each tile reads what its other threads wrote. */
static void tile_barrier_4_5_3_wait_shares_tile_static_memory(void **state)
{
    (void)state;
    enum { N = 64, TS = 16 };
    static int data[N];
    iota(data, N, 0);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), TS), t_idx,
                                        AMP_CAPTURE(v, AMP_CONST(TS)), {
        tile_static int buffer[TS];
        buffer[t_idx.local[0]] = v[t_idx.global];
        t_idx.barrier.wait();
        v[t_idx.global] = buffer[TS - 1 - t_idx.local[0]];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++)
        assert_int_equal(data[g], g / TS * TS + (TS - 1 - g % TS));
    assert_amp_ok(amp_array_view_release(v));
}

/* The barrier kept in a variable, and given to a helper, under the name C++
 * AMP code often gives it (barrier, which is also the name of OpenCL C's
 * function that wait() calls): the kernel calls the variable and the
 * parameter by names of its own. */
AMP_FUNCTION(void, meet_at, (const tile_barrier &barrier), { barrier.wait(); });

static void tile_barrier_4_5_3_a_barrier_named_barrier_waits(void **state)
{
    (void)state;
    enum { N = 32, TS = 8 };
    static int data[N];
    iota(data, N, 0);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), TS), t_idx,
                                        AMP_CAPTURE(v, meet_at, AMP_CONST(TS)), {
        tile_static int buffer[TS];
        tile_barrier barrier = t_idx.barrier;
        buffer[t_idx.local[0]] = v[t_idx.global];
        barrier.wait();
        int mirrored = buffer[TS - 1 - t_idx.local[0]];
        all_memory_fence(barrier);
        meet_at(barrier);
        buffer[t_idx.local[0]] = mirrored * 2;
        barrier.wait_with_tile_static_memory_fence();
        v[t_idx.global] = buffer[t_idx.local[0]];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++)
        assert_int_equal(data[g], 2 * (g / TS * TS + (TS - 1 - g % TS)));
    assert_amp_ok(amp_array_view_release(v));
}

/* "void wait_with_all_memory_fence() const": a 2-D tile transposed through
 * tile_static memory. */
static void tile_barrier_4_5_3_wait_with_all_memory_fence(void **state)
{
    (void)state;
    enum { N = 16, TS = 4 };
    static int in[N * N], out[N * N];
    iota(in, N * N, 0);
    amp_array_view *iv, *ov;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_2d(N, N), in, &iv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(N, N), out, &ov));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(N, N), TS, TS),
                                        t_idx, AMP_CAPTURE(iv, ov, AMP_CONST(TS)), {
        tile_static int tile[TS][TS];
        int r = t_idx.local[0], c = t_idx.local[1];
        tile[r][c] = iv[t_idx.global];
        t_idx.barrier.wait_with_all_memory_fence();
        /* the element of this tile mirrored along its diagonal */
        ov[t_idx.global] = tile[c][r];
    }));
    assert_amp_ok(amp_array_view_synchronize(ov));
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int oi = i / TS * TS + j % TS, oj = j / TS * TS + i % TS;
            assert_int_equal(out[i * N + j], in[oi * N + oj]);
        }
    assert_amp_ok(amp_array_view_release(iv));
    assert_amp_ok(amp_array_view_release(ov));
}

/* "void wait_with_global_memory_fence() const": the threads of a tile
 * exchange values through a view. */
static void tile_barrier_4_5_3_wait_with_global_memory_fence(void **state)
{
    (void)state;
    enum { N = 32, TS = 8 };
    static int in[N], scratch[N], out[N];
    iota(in, N, 1);
    amp_array_view *iv, *sv, *ov;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_1d(N), in, &iv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), scratch, &sv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &ov));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), TS), t_idx,
                                        AMP_CAPTURE(iv, sv, ov, AMP_CONST(TS)), {
        sv[t_idx.global] = iv[t_idx.global] * 3;
        t_idx.barrier.wait_with_global_memory_fence();
        int next = t_idx.tile_origin[0] + (t_idx.local[0] + 1) % TS;
        ov[t_idx.global] = sv[t_idx.global] + sv[next];
    }));
    assert_amp_ok(amp_array_view_synchronize(ov));
    for (int g = 0; g < N; g++) {
        int next = g / TS * TS + (g % TS + 1) % TS;
        assert_int_equal(out[g], 3 * in[g] + 3 * in[next]);
    }
    assert_amp_ok(amp_array_view_release(iv));
    assert_amp_ok(amp_array_view_release(sv));
    assert_amp_ok(amp_array_view_release(ov));
}

/* "void wait_with_tile_static_memory_fence() const": a tree sum of each
 * tile in tile_static memory, one barrier per level. */
static void tile_barrier_4_5_3_wait_with_tile_static_memory_fence(void **state)
{
    (void)state;
    enum { N = 256, TS = 64 };
    static int in[N], sums[N / TS];
    for (int k = 0; k < N; k++)
        in[k] = k * 7 % 13;
    amp_array_view *iv, *sv;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_1d(N), in, &iv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N / TS), sums, &sv));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), TS), t_idx,
                                        AMP_CAPTURE(iv, sv, AMP_CONST(TS)), {
        tile_static int partial[TS];
        int l = t_idx.local[0];
        partial[l] = iv[t_idx.global];
        t_idx.barrier.wait_with_tile_static_memory_fence();
        for (int stride = TS / 2; stride > 0; stride /= 2) {
            if (l < stride)
                partial[l] += partial[l + stride];
            t_idx.barrier.wait_with_tile_static_memory_fence();
        }
        if (l == 0)
            sv[t_idx.tile] = partial[0];
    }));
    assert_amp_ok(amp_array_view_synchronize(sv));
    for (int t = 0; t < N / TS; t++) {
        int want = 0;
        for (int k = t * TS; k < (t + 1) * TS; k++)
            want += in[k];
        assert_int_equal(sums[t], want);
    }
    assert_amp_ok(amp_array_view_release(iv));
    assert_amp_ok(amp_array_view_release(sv));
}

/* "void all_memory_fence(const tile_barrier&)", global_memory_fence and
 * tile_static_memory_fence: each orders this thread's accesses without
 * waiting for the others. Each thread writes, fences, and reads back its
 * own elements; the barrier after them lets a neighbour read. */
static void tile_barrier_4_5_4_fences_without_a_barrier(void **state)
{
    (void)state;
    enum { N = 32, TS = 8 };
    static int scratch[N], out[N];
    amp_array_view *sv, *ov;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), scratch, &sv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &ov));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), TS), t_idx,
                                        AMP_CAPTURE(sv, ov, AMP_CONST(TS)), {
        tile_static int mine[TS];
        int l = t_idx.local[0];
        mine[l] = l * 10;
        tile_static_memory_fence(t_idx.barrier);
        sv[t_idx.global] = mine[l] + 1;
        global_memory_fence(t_idx.barrier);
        mine[l] = sv[t_idx.global] + 1;
        all_memory_fence(t_idx.barrier);
        t_idx.barrier.wait();
        ov[t_idx.global] = mine[(l + 1) % TS];
    }));
    assert_amp_ok(amp_array_view_synchronize(ov));
    for (int g = 0; g < N; g++)
        assert_int_equal(out[g], (g % TS + 1) % TS * 10 + 2);
    assert_amp_ok(amp_array_view_release(sv));
    assert_amp_ok(amp_array_view_release(ov));
}

/* wait() in tiles of rank 3: every thread of a 2 x 2 x 4 tile adds up the
 * whole tile from tile_static memory. */
static void tile_barrier_4_5_3_tiles_of_rank_3_share_memory(void **state)
{
    (void)state;
    enum { A = 4, B = 4, C = 8 };
    static int in[A * B * C], out[A * B * C];
    for (int k = 0; k < A * B * C; k++)
        in[k] = k % 11;
    amp_array_view *iv, *ov;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_3d(A, B, C), in, &iv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(A, B, C), out, &ov));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_3d(amp_extent_3d(A, B, C), 2, 2, 4),
                                        t_idx, AMP_CAPTURE(iv, ov), {
        tile_static int cube[2][2][4];
        cube[t_idx.local[0]][t_idx.local[1]][t_idx.local[2]] = iv[t_idx.global];
        t_idx.barrier.wait();
        int sum = 0;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                for (int k = 0; k < 4; k++)
                    sum += cube[i][j][k];
        ov[t_idx.global] = sum;
    }));
    assert_amp_ok(amp_array_view_synchronize(ov));
    for (int i = 0; i < A; i++)
        for (int j = 0; j < B; j++)
            for (int k = 0; k < C; k++) {
                int want = 0;
                for (int a = i / 2 * 2; a < i / 2 * 2 + 2; a++)
                    for (int b = j / 2 * 2; b < j / 2 * 2 + 2; b++)
                        for (int c = k / 4 * 4; c < k / 4 * 4 + 4; c++)
                            want += in[(a * B + b) * C + c];
                assert_int_equal(out[(i * B + j) * C + k], want);
            }
    assert_amp_ok(amp_array_view_release(iv));
    assert_amp_ok(amp_array_view_release(ov));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tiled_extent_4_3_2_made_from_an_extent_of_each_rank),
        cmocka_unit_test(tiled_extent_4_3_3_pad_rounds_each_dimension_up),
        cmocka_unit_test(tiled_extent_4_3_3_truncate_rounds_each_dimension_down),
        cmocka_unit_test(tiled_extent_4_3_captured_by_value_is_its_extent),
        cmocka_unit_test(tiled_index_4_4_3_members_of_rank_1),
        cmocka_unit_test(tiled_index_4_4_3_members_of_rank_2),
        cmocka_unit_test(tiled_index_4_4_3_members_of_rank_3),
        cmocka_unit_test(tiled_index_4_4_3_members_are_index_values),
        cmocka_unit_test(tiled_index_4_4_3_tile_extent_is_an_extent),
        cmocka_unit_test(tiled_index_4_4_3_tile_dims),
        cmocka_unit_test(tiled_index_4_4_3_tile_dims_are_constants),
        cmocka_unit_test(tiled_index_4_4_3_converts_to_its_global_index),
        cmocka_unit_test(tiled_index_4_4_3_converts_to_its_global_index_rank_1),
        cmocka_unit_test(tiled_index_4_4_passed_to_a_restrict_amp_function),
        cmocka_unit_test(tile_barrier_4_5_3_wait_shares_tile_static_memory),
        cmocka_unit_test(tile_barrier_4_5_3_a_barrier_named_barrier_waits),
        cmocka_unit_test(tile_barrier_4_5_3_wait_with_all_memory_fence),
        cmocka_unit_test(tile_barrier_4_5_3_wait_with_global_memory_fence),
        cmocka_unit_test(tile_barrier_4_5_3_wait_with_tile_static_memory_fence),
        cmocka_unit_test(tile_barrier_4_5_4_fences_without_a_barrier),
        cmocka_unit_test(tile_barrier_4_5_3_tiles_of_rank_3_share_memory),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
