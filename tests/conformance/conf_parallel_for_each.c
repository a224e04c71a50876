/*
 * tests/conformance/conf_parallel_for_each.c - C++ AMP 1.2, chapter 7,
 * launching computations with parallel_for_each (and Microsoft's reference
 * pages for concurrency::parallel_for_each and invalid_compute_domain):
 * every index once over extents and tiled extents, padded and truncated
 * domains, invalid domains and their statuses, captures by value, chosen
 * accelerator views, the order of kernels, and functions for both sides.
 *
 * Each test, and the section it comes from:
 *
 * parallel_for_each_7_every_index_once_rank_1
 *     7 parallel_for_each(extent<1>, kernel)
 * parallel_for_each_7_every_index_once_rank_2
 *     7 parallel_for_each(extent<2>, kernel)
 * parallel_for_each_7_every_index_once_rank_3
 *     7 parallel_for_each(extent<3>, kernel)
 * parallel_for_each_7_tiled_every_index_once_rank_1
 *     7 parallel_for_each(tiled_extent<D0>, ...)
 * parallel_for_each_7_tiled_every_index_once_rank_2
 *     7 parallel_for_each(tiled_extent<D0, D1>, ...)
 * parallel_for_each_7_tiled_every_index_once_rank_3
 *     7 parallel_for_each(tiled_extent<D0, D1, D2>, ...)
 * parallel_for_each_7_padded_domain_runs_whole_tiles
 *     4.3.3 pad() and 7: a thread per index of the padded extent, whole tiles at barriers
 * parallel_for_each_7_truncated_domain_leaves_the_rest
 *     4.3.3 truncate() and 7
 * parallel_for_each_7_2_extents_not_positive_are_invalid
 *     7.2 invalid_compute_domain: a dimension <= 0
 * parallel_for_each_7_2_tiles_that_do_not_divide_are_invalid
 *     7.2 invalid_compute_domain: the extent is not divisible by the tile
 * parallel_for_each_7_2_tile_rank_and_size_must_fit
 *     7.2, 4.3: a tile of the extent's rank, of positive dimensions
 * parallel_for_each_7_2_a_domain_truncated_to_nothing_is_invalid
 *     4.3.3 truncate(), 7.2
 * parallel_for_each_7_2_a_tile_over_the_device_limit
 *     7.2 (the tile's thread limit; here the device's, AMP_ERROR_DEVICE_LIMIT)
 * parallel_for_each_7_1_scalars_are_captured_by_value
 *     7.1 capture by value ([=]) of scalars
 * parallel_for_each_7_1_pointers_are_not_captured
 *     7.1 and chapter 2: a restrict(amp) lambda captures no pointer
 * parallel_for_each_7_runs_on_a_chosen_accelerator_view
 *     7 parallel_for_each(accelerator_view, ...)
 * parallel_for_each_7_later_kernels_see_earlier_results
 *     7, 8: kernels on one view run in order
 * parallel_for_each_7_a_failed_launch_moves_no_data
 *     7.2: a launch that fails leaves the data as it was
 * parallel_for_each_7_calls_a_restrict_cpu_amp_function
 *     chapter 2, restrict(cpu, amp) functions, called by the kernel and by the host
 */
#include "conf_util.h"

/* "parallel_for_each(const extent<N>& compute_domain, const Kernel& f):
 * invokes f once for every index<N> in compute_domain". Each thread adds
 * one to its own element (so an index run twice shows as 2) and writes its
 * index. Extents that are not multiples of any work-group size. */
static void parallel_for_each_7_every_index_once_rank_1(void **state)
{
    (void)state;
    enum { N = 1009 };
    static int count[N], where[N];
    memset(count, 0, sizeof count);
    amp_array_view *c, *w;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), count, &c));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), where, &w));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(c, w), {
        atomic_fetch_add(&c[idx], 1);
        w[idx] = idx[0];
    }));
    assert_amp_ok(amp_array_view_synchronize(c));
    assert_amp_ok(amp_array_view_synchronize(w));
    for (int k = 0; k < N; k++) {
        assert_int_equal(count[k], 1);
        assert_int_equal(where[k], k);
    }
    assert_amp_ok(amp_array_view_release(c));
    assert_amp_ok(amp_array_view_release(w));
}

static void parallel_for_each_7_every_index_once_rank_2(void **state)
{
    (void)state;
    enum { R = 37, C = 29 };
    static int count[R * C], where[R * C];
    memset(count, 0, sizeof count);
    amp_array_view *c, *w;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), count, &c));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), where, &w));
    /* The element by its index, by its subscripts, and by one subscript
     * at a time: 1 + 2 + 1 each. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(c, w), {
        atomic_fetch_add(&c[idx], 1);
        atomic_fetch_add(&c(idx[0], idx[1]), 2);
        atomic_fetch_inc(&c[idx[0]][idx[1]]);
        w[idx] = idx[0] * 1000 + idx[1];
    }));
    assert_amp_ok(amp_array_view_synchronize(c));
    assert_amp_ok(amp_array_view_synchronize(w));
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            assert_int_equal(count[i * C + j], 4);
            assert_int_equal(where[i * C + j], i * 1000 + j);
        }
    assert_amp_ok(amp_array_view_release(c));
    assert_amp_ok(amp_array_view_release(w));
}

static void parallel_for_each_7_every_index_once_rank_3(void **state)
{
    (void)state;
    enum { A = 5, B = 7, C = 11 };
    static int count[A * B * C], where[A * B * C];
    memset(count, 0, sizeof count);
    amp_array_view *c, *w;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(A, B, C), count, &c));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(A, B, C), where, &w));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_3d(A, B, C), idx, AMP_CAPTURE(c, w), {
        atomic_fetch_add(&c[idx], 1);
        atomic_fetch_sub(&c(idx[0], idx[1], idx[2]), -2);
        atomic_fetch_inc(&c[idx[0]][idx[1]][idx[2]]);
        w[idx] = idx[0] * 10000 + idx[1] * 100 + idx[2];
    }));
    assert_amp_ok(amp_array_view_synchronize(c));
    assert_amp_ok(amp_array_view_synchronize(w));
    for (int i = 0; i < A; i++)
        for (int j = 0; j < B; j++)
            for (int k = 0; k < C; k++) {
                int at = (i * B + j) * C + k;
                assert_int_equal(count[at], 4);
                assert_int_equal(where[at], i * 10000 + j * 100 + k);
            }
    assert_amp_ok(amp_array_view_release(c));
    assert_amp_ok(amp_array_view_release(w));
}

/* "parallel_for_each(const tiled_extent<D0>& compute_domain, const Kernel&
 * f): invokes f once for every tiled_index<D0> in compute_domain". */
static void parallel_for_each_7_tiled_every_index_once_rank_1(void **state)
{
    (void)state;
    enum { N = 96, T = 32 };
    static int count[N], tiles[N];
    memset(count, 0, sizeof count);
    amp_array_view *c, *t;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), count, &c));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), tiles, &t));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                        AMP_CAPTURE(c, t), {
        atomic_fetch_add(&c[t_idx.global], 1);
        t[t_idx.global] = t_idx.tile[0] * 100 + t_idx.local[0];
    }));
    assert_amp_ok(amp_array_view_synchronize(c));
    assert_amp_ok(amp_array_view_synchronize(t));
    for (int k = 0; k < N; k++) {
        assert_int_equal(count[k], 1);
        assert_int_equal(tiles[k], k / T * 100 + k % T);
    }
    assert_amp_ok(amp_array_view_release(c));
    assert_amp_ok(amp_array_view_release(t));
}

static void parallel_for_each_7_tiled_every_index_once_rank_2(void **state)
{
    (void)state;
    enum { R = 12, C = 20, T0 = 4, T1 = 5 };
    static int count[R * C], tiles[R * C];
    memset(count, 0, sizeof count);
    amp_array_view *c, *t;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), count, &c));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), tiles, &t));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(R, C), T0, T1),
                                        t_idx, AMP_CAPTURE(c, t), {
        atomic_fetch_add(&c[t_idx], 1);
        t[t_idx.global] = t_idx.tile[0] * 10 + t_idx.tile[1];
    }));
    assert_amp_ok(amp_array_view_synchronize(c));
    assert_amp_ok(amp_array_view_synchronize(t));
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            assert_int_equal(count[i * C + j], 1);
            assert_int_equal(tiles[i * C + j], i / T0 * 10 + j / T1);
        }
    assert_amp_ok(amp_array_view_release(c));
    assert_amp_ok(amp_array_view_release(t));
}

static void parallel_for_each_7_tiled_every_index_once_rank_3(void **state)
{
    (void)state;
    enum { A = 4, B = 6, C = 8 };
    static int count[A * B * C], tiles[A * B * C];
    memset(count, 0, sizeof count);
    amp_array_view *c, *t;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(A, B, C), count, &c));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(A, B, C), tiles, &t));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_3d(amp_extent_3d(A, B, C), 2, 3, 4),
                                        t_idx, AMP_CAPTURE(c, t), {
        atomic_fetch_add(&c[t_idx.global], 1);
        t[t_idx] = t_idx.tile[0] * 100 + t_idx.tile[1] * 10 + t_idx.tile[2];
    }));
    assert_amp_ok(amp_array_view_synchronize(c));
    assert_amp_ok(amp_array_view_synchronize(t));
    for (int i = 0; i < A; i++)
        for (int j = 0; j < B; j++)
            for (int k = 0; k < C; k++) {
                int at = (i * B + j) * C + k;
                assert_int_equal(count[at], 1);
                assert_int_equal(tiles[at], i / 2 * 100 + j / 3 * 10 + k / 4);
            }
    assert_amp_ok(amp_array_view_release(c));
    assert_amp_ok(amp_array_view_release(t));
}

/* After pad(), the kernel runs once for every index of the padded extent:
 * whole tiles, every thread of which meets at the barrier. Threads past
 * the original extent test their index before writing their element. */
static void parallel_for_each_7_padded_domain_runs_whole_tiles(void **state)
{
    (void)state;
    enum { N = 10, T = 4, R = 5, C = 7 };
    static int total[2], members[N], grid[R * C];
    memset(total, 0, sizeof total);
    memset(members, 0, sizeof members);
    memset(grid, 0, sizeof grid);
    amp_array_view *tv, *mv, *gv;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(2), total, &tv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), members, &mv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), grid, &gv));
    amp_tiled_extent padded = amp_tiled_extent_pad(amp_extent_tile_1d(amp_extent_1d(N), T));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(padded, t_idx, AMP_CAPTURE(tv, mv, AMP_CONST(N)), {
        tile_static int present;
        if (t_idx.local[0] == 0)
            present = 0;
        t_idx.barrier.wait();
        atomic_fetch_add(&present, 1);
        atomic_fetch_add(&tv[0], 1);
        t_idx.barrier.wait();
        if (t_idx.global[0] < N)
            mv[t_idx.global] = present;
    }));
    amp_tiled_extent padded2 = amp_tiled_extent_pad(amp_extent_tile_2d(amp_extent_2d(R, C), 4, 4));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(padded2, t_idx,
                                        AMP_CAPTURE(tv, gv, AMP_CONST(R), AMP_CONST(C)), {
        atomic_fetch_add(&tv[1], 1);
        if (t_idx.global[0] < R && t_idx.global[1] < C)
            gv[t_idx.global] += 1;
    }));
    assert_amp_ok(amp_array_view_synchronize(tv));
    assert_amp_ok(amp_array_view_synchronize(mv));
    assert_amp_ok(amp_array_view_synchronize(gv));
    assert_int_equal(total[0], 12); /* 10 padded to 12 */
    assert_int_equal(total[1], 64); /* 5 x 7 padded to 8 x 8 */
    for (int k = 0; k < N; k++)
        assert_int_equal(members[k], T); /* the last tile is whole too */
    for (int k = 0; k < R * C; k++)
        assert_int_equal(grid[k], 1);
    assert_amp_ok(amp_array_view_release(tv));
    assert_amp_ok(amp_array_view_release(mv));
    assert_amp_ok(amp_array_view_release(gv));
}

/* After truncate(), the kernel runs for the truncated extent only: the
 * elements past it get no thread. */
static void parallel_for_each_7_truncated_domain_leaves_the_rest(void **state)
{
    (void)state;
    enum { N = 10, R = 5, C = 7 };
    static int line[N], grid[R * C], total[1];
    memset(line, 0, sizeof line);
    memset(grid, 0, sizeof grid);
    total[0] = 0;
    amp_array_view *lv, *gv, *tv;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), line, &lv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), grid, &gv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(1), total, &tv));
    amp_tiled_extent t1 = amp_tiled_extent_truncate(amp_extent_tile_1d(amp_extent_1d(N), 4));
    amp_tiled_extent t2 = amp_tiled_extent_truncate(amp_extent_tile_2d(amp_extent_2d(R, C), 2, 3));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(t1, t_idx, AMP_CAPTURE(lv, tv), {
        lv[t_idx.global] = 1;
        atomic_fetch_add(&tv[0], 1);
    }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(t2, t_idx, AMP_CAPTURE(gv), { gv[t_idx] = 1; }));
    assert_amp_ok(amp_array_view_synchronize(lv));
    assert_amp_ok(amp_array_view_synchronize(gv));
    assert_amp_ok(amp_array_view_synchronize(tv));
    assert_int_equal(total[0], 8);
    for (int k = 0; k < N; k++)
        assert_int_equal(line[k], k < 8);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++)
            assert_int_equal(grid[i * C + j], i < 4 && j < 6);
    assert_amp_ok(amp_array_view_release(lv));
    assert_amp_ok(amp_array_view_release(gv));
    assert_amp_ok(amp_array_view_release(tv));
}

/* invalid_compute_domain: "the extent of dimension d of the compute domain
 * cannot be smaller than or equal to 0". Nothing runs; nothing moves. */
static void parallel_for_each_7_2_extents_not_positive_are_invalid(void **state)
{
    (void)state;
    static int data[4] = {1, 2, 3, 4};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &v));
    amp_extent bad[] = {amp_extent_1d(0),       amp_extent_1d(-120),      amp_extent_2d(4, 0),
                        amp_extent_2d(-1, 4),   amp_extent_3d(2, 2, 0),   amp_extent_3d(0, 2, 2),
                        amp_extent_3d(2, -3, 2)};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        amp_clear_error();
        amp_status st = AMP_PARALLEL_FOR_EACH(bad[k], idx, AMP_CAPTURE(v), { v[0] = 99; });
        if (st != AMP_ERROR_INVALID_COMPUTE_DOMAIN)
            fail_msg("extent %zu gave %s: %s", k, amp_status_name(st), amp_last_error());
        assert_true(strlen(amp_last_error()) > 0);
    }
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(0), 4), t_idx,
                                           AMP_CAPTURE(v), { v[0] = 99; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "");
    assert_int_equal(ledger_of(v).uploads, 0);
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < 4; k++)
        assert_int_equal(data[k], k + 1);
    assert_amp_ok(amp_array_view_release(v));
}

/* invalid_compute_domain: "the extent of dimension d of the compute domain
 * cannot be evenly divided by the extent of dimension d of the tile"; the
 * message names both. */
static void parallel_for_each_7_2_tiles_that_do_not_divide_are_invalid(void **state)
{
    (void)state;
    static int data[32 * 32];
    memset(data, 0, sizeof data);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(32, 32), data, &v));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(32, 32), 6, 6),
                                           t_idx, AMP_CAPTURE(v), { v[t_idx] = 1; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "6");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(10), 4), t_idx,
                                           AMP_CAPTURE(v), { v[0][t_idx.global[0]] = 1; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "10");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(
                         amp_extent_tile_3d(amp_extent_3d(4, 4, 6), 2, 2, 4), t_idx,
                         AMP_CAPTURE(v), { v[t_idx.global[0]][t_idx.global[1]] = 1; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "");
    assert_int_equal(ledger_of(v).uploads, 0);
    for (int k = 0; k < 32 * 32; k++)
        assert_int_equal(data[k], 0);
    assert_amp_ok(amp_array_view_release(v));
}

/* A tiled_extent has the rank of its extent and tiles of positive
 * dimensions (in C++ AMP the compiler says so; here the call does). */
static void parallel_for_each_7_2_tile_rank_and_size_must_fit(void **state)
{
    (void)state;
    static int data[16];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), data, &v));
    amp_tiled_extent wrong_rank = amp_extent_tile_2d(amp_extent_1d(16), 4, 4);
    amp_tiled_extent zero_tile = amp_extent_tile_1d(amp_extent_1d(16), 0);
    amp_tiled_extent negative_tile = amp_extent_tile_2d(amp_extent_2d(4, 4), -2, 2);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(wrong_rank, t_idx, AMP_CAPTURE(v), { v[0] = 1; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(zero_tile, t_idx, AMP_CAPTURE(v), { v[0] = 1; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(negative_tile, t_idx, AMP_CAPTURE(v),
                                           { v[0] = 1; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "");
    assert_int_equal(ledger_of(v).uploads, 0);
    assert_amp_ok(amp_array_view_release(v));
}

/* truncate() of an extent smaller than its tile leaves no thread: that
 * domain is invalid, as an extent of 0 is. */
static void parallel_for_each_7_2_a_domain_truncated_to_nothing_is_invalid(void **state)
{
    (void)state;
    static int data[3] = {1, 2, 3};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(3), data, &v));
    amp_tiled_extent none = amp_tiled_extent_truncate(amp_extent_tile_1d(amp_extent_1d(3), 4));
    assert_int_equal(none.extent.dims[0], 0);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(none, t_idx, AMP_CAPTURE(v), { v[t_idx] = 0; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "");
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_int_equal(data[0] + data[1] + data[2], 6);
    assert_amp_ok(amp_array_view_release(v));
}

/* C++ AMP limits a tile to 1024 threads; here the device states its own
 * limit, and a tile over it is refused before anything runs. */
static void parallel_for_each_7_2_a_tile_over_the_device_limit(void **state)
{
    (void)state;
    amp_accelerator *acc;
    amp_accelerator_info info;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    assert_amp_ok(amp_accelerator_get_info(acc, &info));
    int too_many = (int)info.max_tile_size * 2;
    static int data[1];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(1), data, &v));
    amp_tiled_extent one_big_tile = amp_extent_tile_1d(amp_extent_1d(too_many), too_many);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(one_big_tile, t_idx, AMP_CAPTURE(v),
                                           { if (t_idx.global[0] == 0) v[0] = 1; }),
                     AMP_ERROR_DEVICE_LIMIT, "");
    assert_amp_ok(amp_array_view_release(v));
}

/* 7.1: "the kernel function object captures by value": each launch sees
 * the values its scalars had at the call, whatever the host does with them
 * afterwards. */
static void parallel_for_each_7_1_scalars_are_captured_by_value(void **state)
{
    (void)state;
    enum { N = 8 };
    static float first[N], second[N];
    static double doubles[N];
    amp_array_view *a, *b;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), first, &a));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), second, &b));
    int k = 3;
    unsigned u = 7u;
    float f = 0.5f;
    static const int SCALE = 1000;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx,
                                        AMP_CAPTURE(a, k, u, f, AMP_CONST(SCALE)), {
        int scratch[SCALE / 250];
        scratch[idx[0] % 4] = k;
        a[idx] = scratch[idx[0] % 4] * 100 + u * 10 + f + SCALE * idx[0];
    }));
    k = 4;
    u = 9u;
    f = 0.25f;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(b, k, u, f),
                                        { b[idx] = k * 100 + u * 10 + f; }));
    k = 5;
    assert_amp_ok(amp_array_view_synchronize(a));
    assert_amp_ok(amp_array_view_synchronize(b));
    for (int i = 0; i < N; i++) {
        assert_true(first[i] == 370.5f + 1000.0f * (float)i);
        assert_true(second[i] == 490.25f);
    }
    if (device_has_double()) {
        double d = 1.0 / 3.0;
        amp_array_view *dv;
        assert_amp_ok(amp_array_view_create(AMP_DOUBLE, amp_extent_1d(N), doubles, &dv));
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(dv, d),
                                            { dv[idx] = d * idx[0]; }));
        d = 0.0;
        assert_amp_ok(amp_array_view_synchronize(dv));
        for (int i = 0; i < N; i++)
            assert_true(doubles[i] == (1.0 / 3.0) * i);
        assert_amp_ok(amp_array_view_release(dv));
    }
    assert_amp_ok(amp_array_view_release(a));
    assert_amp_ok(amp_array_view_release(b));
}

/* Chapter 2 and 7.1: a restrict(amp) lambda cannot capture pointers. A capture
 * of a type kernels cannot take is refused, by name. */
static void parallel_for_each_7_1_pointers_are_not_captured(void **state)
{
    (void)state;
    static int data[4];
    int *pointer = data;
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &v));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v, pointer),
                                           { v[idx] = 1; }),
                     AMP_ERROR_INVALID_ARGUMENT, "pointer");
    assert_amp_ok(amp_array_view_release(v));
}

/* "parallel_for_each(const accelerator_view& accl_view, const extent<N>&
 * compute_domain, const Kernel& f)" and its tiled form: on a view made
 * with immediate queuing and on the default view. */
static void parallel_for_each_7_runs_on_a_chosen_accelerator_view(void **state)
{
    (void)state;
    enum { N = 64 };
    static int data[N];
    memset(data, 0, sizeof data);
    amp_accelerator *acc;
    amp_accelerator_view *mine, *def;
    amp_array_view *v;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    assert_amp_ok(amp_accelerator_create_view(acc, AMP_QUEUING_IMMEDIATE, &mine));
    assert_amp_ok(amp_accelerator_get_default_view(acc, &def));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(mine, amp_extent_1d(N), idx, AMP_CAPTURE(v),
                                           { v[idx] = idx[0]; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(mine, amp_extent_tile_1d(amp_extent_1d(N), 16),
                                           t_idx, AMP_CAPTURE(v),
                                           { v[t_idx.global] += t_idx.tile[0] * 1000; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(def, amp_extent_1d(N), idx, AMP_CAPTURE(v),
                                           { v[idx] *= 2; }));
    assert_amp_ok(amp_accelerator_view_wait(mine));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < N; k++)
        assert_int_equal(data[k], 2 * (k + k / 16 * 1000));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_accelerator_view_release(mine));
}

/* Kernels on one view run in the order they were called: each sees what
 * the ones before it wrote, with no synchronize between them. */
static void parallel_for_each_7_later_kernels_see_earlier_results(void **state)
{
    (void)state;
    enum { N = 128 };
    static int a[N], b[N];
    amp_array_view *av, *bv;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), a, &av));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), b, &bv));
    assert_amp_ok(amp_array_view_discard_data(av));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(av),
                                        { av[idx] = idx[0]; }));
    for (int round = 0; round < 5; round++)
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(av),
                                            { av[idx] = av[idx] * 2 + 1; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(av, bv, AMP_CONST(N)),
                                        { bv[idx] = av[(idx[0] + 1) % N]; }));
    assert_amp_ok(amp_array_view_synchronize(bv));
    assert_amp_ok(amp_array_view_synchronize(av));
    for (int k = 0; k < N; k++) {
        int want = k;
        for (int round = 0; round < 5; round++)
            want = want * 2 + 1;
        assert_int_equal(a[k], want);
        int next = (k + 1) % N;
        for (int round = 0; round < 5; round++)
            next = next * 2 + 1;
        assert_int_equal(b[k], next);
    }
    assert_amp_ok(amp_array_view_release(av));
    assert_amp_ok(amp_array_view_release(bv));
}

/* A call that fails (here, a kernel that does not compile) leaves every
 * view's data where it was: nothing uploaded, nothing written. */
static void parallel_for_each_7_a_failed_launch_moves_no_data(void **state)
{
    (void)state;
    static int data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), data, &v));
    amp_transfer_reset_stats();
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), idx, AMP_CAPTURE(v),
                                           { v[idx] = no_such_name * 2; }),
                     AMP_ERROR_KERNEL_BUILD, "no_such_name");
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.uploads + s.downloads + s.device_copies, 0);
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < 8; k++)
        assert_int_equal(data[k], k + 1);
    assert_amp_ok(amp_array_view_release(v));
}

/* Chapter 2: a restrict(cpu, amp) function is written once and called from both
 * sides, with the same results. */
AMP_SHARED_FUNCTION(int, collatz_steps, (int n), {
    int steps = 0;
    while (n != 1) {
        n = n % 2 ? 3 * n + 1 : n / 2;
        steps++;
    }
    return steps;
});

AMP_SHARED_FUNCTION(float, blend, (float a, float b, float t), { return a + (b - a) * t; });

static void parallel_for_each_7_calls_a_restrict_cpu_amp_function(void **state)
{
    (void)state;
    enum { N = 200 };
    static int steps[N];
    static float mixed[N];
    amp_array_view *sv, *mv;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), steps, &sv));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), mixed, &mv));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx,
                                        AMP_CAPTURE(sv, mv, AMP_SHARED(collatz_steps),
                                                    AMP_SHARED(blend)), {
        sv[idx] = collatz_steps(idx[0] + 1);
        mv[idx] = blend(1.0f, 3.0f, idx[0] / 8.0f);
    }));
    assert_amp_ok(amp_array_view_synchronize(sv));
    assert_amp_ok(amp_array_view_synchronize(mv));
    for (int k = 0; k < N; k++) {
        assert_int_equal(steps[k], collatz_steps(k + 1));
        assert_true(mixed[k] == blend(1.0f, 3.0f, k / 8.0f));
    }
    assert_int_equal(steps[26], 111); /* 27 takes 111 steps */
    assert_amp_ok(amp_array_view_release(sv));
    assert_amp_ok(amp_array_view_release(mv));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parallel_for_each_7_every_index_once_rank_1),
        cmocka_unit_test(parallel_for_each_7_every_index_once_rank_2),
        cmocka_unit_test(parallel_for_each_7_every_index_once_rank_3),
        cmocka_unit_test(parallel_for_each_7_tiled_every_index_once_rank_1),
        cmocka_unit_test(parallel_for_each_7_tiled_every_index_once_rank_2),
        cmocka_unit_test(parallel_for_each_7_tiled_every_index_once_rank_3),
        cmocka_unit_test(parallel_for_each_7_padded_domain_runs_whole_tiles),
        cmocka_unit_test(parallel_for_each_7_truncated_domain_leaves_the_rest),
        cmocka_unit_test(parallel_for_each_7_2_extents_not_positive_are_invalid),
        cmocka_unit_test(parallel_for_each_7_2_tiles_that_do_not_divide_are_invalid),
        cmocka_unit_test(parallel_for_each_7_2_tile_rank_and_size_must_fit),
        cmocka_unit_test(parallel_for_each_7_2_a_domain_truncated_to_nothing_is_invalid),
        cmocka_unit_test(parallel_for_each_7_2_a_tile_over_the_device_limit),
        cmocka_unit_test(parallel_for_each_7_1_scalars_are_captured_by_value),
        cmocka_unit_test(parallel_for_each_7_1_pointers_are_not_captured),
        cmocka_unit_test(parallel_for_each_7_runs_on_a_chosen_accelerator_view),
        cmocka_unit_test(parallel_for_each_7_later_kernels_see_earlier_results),
        cmocka_unit_test(parallel_for_each_7_a_failed_launch_moves_no_data),
        cmocka_unit_test(parallel_for_each_7_calls_a_restrict_cpu_amp_function),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
