/*
 * tests/device/test_ranks.c - extents, indices, views and arrays of rank 1 to 8
 * (C++ AMP's extent<N>), untiled kernels over them, sections that cut
 * their inner dimensions; and host access to one element of a view.
 */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* The linear position of idx in a row-major extent. */
static int64_t linear(const int *dims, const int *idx, int rank)
{
    int64_t at = 0;
    for (int d = 0; d < rank; d++)
        at = at * dims[d] + idx[d];
    return at;
}

/* ---- Host values ---- */

static void extents_and_indices_of_any_rank(void **state)
{
    (void)state;
    int dims[8] = {2, 3, 1, 4, 2, 1, 3, 2};
    amp_extent e = amp_extent_nd(8, dims);
    assert_int_equal(e.rank, 8);
    assert_int_equal(amp_extent_size(e), 2 * 3 * 4 * 2 * 3 * 2);
    assert_int_equal(amp_extent_nd(9, dims).rank, 0);
    assert_int_equal(amp_extent_nd(0, dims).rank, 0);
    assert_int_equal(amp_extent_nd(2, NULL).rank, 0);
    assert_int_equal(amp_extent_size(amp_extent_nd(9, dims)), 0);

    int in[8] = {1, 2, 0, 3, 1, 0, 2, 1}, out[8] = {2, 0, 0, 0, 0, 0, 0, 0};
    amp_index i = amp_index_nd(8, in);
    assert_true(amp_extent_contains(e, i));
    assert_false(amp_extent_contains(e, amp_index_nd(8, out)));
    assert_false(amp_extent_contains(e, amp_index_3d(1, 2, 0))); /* another rank */
    amp_index twice = amp_index_add(i, i);
    for (int d = 0; d < 8; d++)
        assert_int_equal(twice.i[d], 2 * in[d]);
    assert_true(amp_index_equal(amp_index_sub(twice, i), i));
    assert_true(amp_index_equal(amp_index_mul(i, 2), twice));
    assert_true(amp_index_equal(amp_index_div(twice, 2), i));
    amp_index m = amp_index_mod(i, 2);
    for (int d = 0; d < 8; d++)
        assert_int_equal(m.i[d], in[d] % 2);
    assert_int_equal(amp_index_div(i, 0).rank, 0);
    assert_int_equal(amp_index_mod(i, 0).rank, 0);
    assert_int_equal(amp_index_add(i, amp_index_2d(1, 1)).rank, 0);
    assert_false(amp_index_equal(i, amp_index_2d(1, 2)));
    amp_extent grown = amp_extent_add(e, i);
    for (int d = 0; d < 8; d++)
        assert_int_equal(grown.dims[d], dims[d] + in[d]);
    assert_true(amp_extent_equal(amp_extent_sub(grown, i), e));
    assert_int_equal(amp_extent_sub(e, amp_index_1d(1)).rank, 0);
}

/* ---- Kernels over every rank ---- */

/* Every thread writes its own row-major position, computed from its index
 * and the view's extent in the kernel; the host finds each at its place. */
static void check_positions(const int *out, int64_t n)
{
    for (int64_t k = 0; k < n; k++)
        assert_int_equal(out[k], (int)k);
}

#define E(d) v.extent[d]
static void untiled_kernels_run_over_ranks_4_to_8(void **state)
{
    (void)state;
    static const int shapes[5][8] = {
        {3, 5, 7, 2},          {2, 3, 4, 5, 6},         {2, 1, 3, 2, 5, 3},
        {1, 2, 2, 3, 2, 2, 4}, {2, 2, 1, 3, 2, 2, 2, 3},
    };
    for (int rank = 4; rank <= 8; rank++) {
        amp_extent e = amp_extent_nd(rank, shapes[rank - 4]);
        int64_t n = amp_extent_size(e);
        int *out = calloc((size_t)n, sizeof *out);
        assert_non_null(out);
        amp_array_view *v;
        assert_amp_ok(amp_array_view_create(AMP_INT, e, out, &v));
        amp_status st = AMP_ERROR_RUNTIME;
        if (rank == 4)
            st = AMP_PARALLEL_FOR_EACH(e, idx, AMP_CAPTURE(v), {
                v[idx] = ((idx[0] * E(1) + idx[1]) * E(2) + idx[2]) * E(3) + idx[3];
            });
        else if (rank == 5)
            st = AMP_PARALLEL_FOR_EACH(e, idx, AMP_CAPTURE(v), {
                v[idx] = (((idx[0] * E(1) + idx[1]) * E(2) + idx[2]) * E(3) + idx[3]) * E(4) + idx[4];
            });
        else if (rank == 6)
            st = AMP_PARALLEL_FOR_EACH(e, idx, AMP_CAPTURE(v), {
                v(idx) = ((((idx[0] * E(1) + idx[1]) * E(2) + idx[2]) * E(3) + idx[3]) * E(4) +
                          idx[4]) * E(5) + idx[5];
            });
        else if (rank == 7)
            st = AMP_PARALLEL_FOR_EACH(e, idx, AMP_CAPTURE(v), {
                v(idx) = (((((idx[0] * E(1) + idx[1]) * E(2) + idx[2]) * E(3) + idx[3]) * E(4) +
                           idx[4]) * E(5) + idx[5]) * E(6) + idx[6];
            });
        else
            st = AMP_PARALLEL_FOR_EACH(e, idx, AMP_CAPTURE(v), {
                v(idx[0], idx[1], idx[2], idx[3], idx[4], idx[5], idx[6], idx[7]) =
                    ((((((idx[0] * E(1) + idx[1]) * E(2) + idx[2]) * E(3) + idx[3]) * E(4) +
                       idx[4]) * E(5) + idx[5]) * E(6) + idx[6]) * E(7) + idx[7];
            });
        assert_amp_ok(st);
        assert_amp_ok(amp_array_view_synchronize(v));
        check_positions(out, n);
        assert_amp_ok(amp_array_view_release(v));
        free(out);
    }
}
#undef E

/* A tiled extent keeps C++ AMP's ranks 1 to 3. */
static void a_tiled_extent_of_rank_4_is_refused(void **state)
{
    (void)state;
    int dims[4] = {2, 2, 2, 2};
    amp_tiled_extent t = {amp_extent_nd(4, dims), 3, {2, 2, 2}, 0, {0, {0}}};
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(t, t_idx, AMP_NO_CAPTURE, { (void)t_idx; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "tiles have rank 1 to 3");
}

/* The index's components, each checked: thread idx writes 1 when idx[d]
 * equals what its place says, for every d. */
static void each_thread_gets_its_own_index(void **state)
{
    (void)state;
    int dims[6] = {3, 2, 4, 1, 5, 3};
    amp_extent e = amp_extent_nd(6, dims);
    int64_t n = amp_extent_size(e);
    int *code = calloc((size_t)n, sizeof *code);
    assert_non_null(code);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, e, code, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(e, idx, AMP_CAPTURE(v), {
        v(idx[0], idx[1], idx[2], idx[3], idx[4], idx[5]) =
            ((((idx[0] * 10 + idx[1]) * 10 + idx[2]) * 10 + idx[3]) * 10 + idx[4]) * 10 + idx[5];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    int idx[6];
    for (int64_t k = 0; k < n; k++) {
        int64_t rest = k;
        int expect = 0;
        for (int d = 5; d >= 0; d--) {
            idx[d] = (int)(rest % dims[d]);
            rest /= dims[d];
        }
        for (int d = 0; d < 6; d++)
            expect = expect * 10 + idx[d];
        assert_int_equal(code[k], expect);
    }
    assert_amp_ok(amp_array_view_release(v));
    free(code);
}

/* A rank-5 section that cuts the inner dimensions covers several boxes:
 * only its elements change, and only they move. */
static void a_section_of_rank_5_writes_only_its_elements(void **state)
{
    (void)state;
    int dims[5] = {2, 3, 4, 5, 6};
    amp_extent e = amp_extent_nd(5, dims);
    enum { N = 2 * 3 * 4 * 5 * 6 };
    static int a[N];
    for (int i = 0; i < N; i++)
        a[i] = i;
    amp_array_view *v, *s;
    assert_amp_ok(amp_array_view_create(AMP_INT, e, a, &v));
    int origin[5] = {1, 1, 1, 1, 1}, sdims[5] = {1, 2, 2, 3, 4};
    assert_amp_ok(amp_array_view_section(v, amp_index_nd(5, origin), amp_extent_nd(5, sdims), &s));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_nd(5, sdims), idx, AMP_CAPTURE(s),
                                        { s[idx] = -s[idx]; }));
    assert_amp_ok(amp_array_view_synchronize(v));
    int idx[5];
    for (int k = 0; k < N; k++) {
        int rest = k, inside = 1;
        for (int d = 4; d >= 0; d--) {
            idx[d] = rest % dims[d];
            rest /= dims[d];
            inside &= idx[d] >= origin[d] && idx[d] < origin[d] + sdims[d];
        }
        assert_int_equal(a[k], inside ? -k : k);
    }
    /* Only the section's 48 elements came up and went down. */
    amp_transfer_stats t;
    assert_amp_ok(amp_array_view_get_transfers(v, &t));
    assert_int_equal(t.upload_bytes, 48 * sizeof(int));
    assert_int_equal(t.download_bytes, 48 * sizeof(int));
    /* Its strides are its parent's. */
    int64_t strides[AMP_MAX_RANK];
    assert_amp_ok(amp_array_view_get_strides(s, strides));
    assert_int_equal(strides[0], 3 * 4 * 5 * 6);
    assert_int_equal(strides[3], 6);
    assert_int_equal(strides[4], 1);
    assert_int_equal(strides[5], 0);
    assert_amp_ok(amp_array_view_release(s));
    assert_amp_ok(amp_array_view_release(v));
}

/* Projections, reshaping, copies and discard at rank 6. */
static void views_and_arrays_of_rank_6_project_reshape_and_copy(void **state)
{
    (void)state;
    int dims[6] = {2, 2, 3, 2, 2, 3};
    amp_extent e = amp_extent_nd(6, dims);
    enum { N = 2 * 2 * 3 * 2 * 2 * 3 };
    static int host[N], back[N], part[N];
    for (int i = 0; i < N; i++)
        host[i] = 3 * i + 1;
    amp_array *arr;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, e, host, NULL, &arr));
    assert_int_equal(amp_array_get_extent(arr).rank, 6);
    /* The array's data back through a copy of rank 6. */
    assert_amp_ok(amp_copy(amp_data_of(arr), amp_data_of(back)));
    assert_memory_equal(back, host, sizeof host);
    /* A projection is a view of rank 5: its elements are the second half. */
    amp_array_view *whole, *p, *flat;
    assert_amp_ok(amp_array_view_create_from_array(arr, &whole));
    assert_amp_ok(amp_array_view_project(whole, 1, &p));
    assert_int_equal(amp_array_view_get_extent(p).rank, 5);
    const void *data;
    assert_amp_ok(amp_array_view_data_const(p, &data));
    assert_memory_equal(data, host + N / 2, sizeof host / 2);
    /* Reshaped to rank 1 and back. */
    assert_amp_ok(amp_array_view_view_as(whole, amp_extent_1d(N), &flat));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), i, AMP_CAPTURE(flat),
                                        { flat[i] = flat[i] * 2; }));
    /* A section that cuts inner dimensions, copied out to the host. */
    int origin[6] = {0, 1, 1, 0, 1, 1}, sdims[6] = {2, 1, 2, 2, 1, 2};
    amp_array_view *s;
    assert_amp_ok(amp_array_view_section(whole, amp_index_nd(6, origin), amp_extent_nd(6, sdims), &s));
    assert_amp_ok(amp_copy(amp_data_of(s), amp_data_of(part)));
    int k = 0, idx[6];
    for (int at = 0; at < N; at++) {
        int rest = at, inside = 1;
        for (int d = 5; d >= 0; d--) {
            idx[d] = rest % dims[d];
            rest /= dims[d];
            inside &= idx[d] >= origin[d] && idx[d] < origin[d] + sdims[d];
        }
        if (inside)
            assert_int_equal(part[k++], 2 * host[at]);
    }
    assert_int_equal(k, 2 * 1 * 2 * 2 * 1 * 2);
    /* And copied into from the host: only the section changes. */
    for (int i = 0; i < k; i++)
        part[i] = -i;
    assert_amp_ok(amp_copy(amp_data_of(part), amp_data_of(s)));
    assert_amp_ok(amp_copy(amp_data_of(arr), amp_data_of(back)));
    k = 0;
    for (int at = 0; at < N; at++) {
        int rest = at, inside = 1;
        for (int d = 5; d >= 0; d--) {
            idx[d] = rest % dims[d];
            rest /= dims[d];
            inside &= idx[d] >= origin[d] && idx[d] < origin[d] + sdims[d];
        }
        assert_int_equal(back[at], inside ? -(k++) : 2 * host[at]);
    }
    assert_amp_ok(amp_array_view_release(s));
    assert_amp_ok(amp_array_view_release(flat));
    assert_amp_ok(amp_array_view_release(p));
    assert_amp_ok(amp_array_view_release(whole));
    assert_amp_ok(amp_array_release(arr));
}

/* ---- Values of rank 5 in kernels and helpers ---- */

AMP_FUNCTION(int, total_of_5, (array_view<const int, 5> v), {
    int s = 0;
    for (int a = 0; a < v.extent[0]; a++)
        for (int b = 0; b < v.extent[1]; b++)
            for (int c = 0; c < v.extent[2]; c++)
                for (int d = 0; d < v.extent[3]; d++)
                    for (int e = 0; e < v.extent[4]; e++)
                        s += v(a, b, c, d, e);
    return s;
});

static void kernels_take_index_extent_and_view_values_of_rank_5(void **state)
{
    (void)state;
    int dims[5] = {2, 2, 2, 2, 3};
    static int a[48], r[5];
    for (int i = 0; i < 48; i++)
        a[i] = i;
    amp_array_view *av, *rv;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_nd(5, dims), a, &av));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(5), r, &rv));
    int o[5] = {1, 0, 0, 0, 0};
    amp_index origin = amp_index_nd(5, o);
    amp_extent shape = amp_extent_nd(5, dims);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx,
                                        AMP_CAPTURE(av, rv, total_of_5, origin, shape), {
        rv[0] = total_of_5(av);
        rv[1] = total_of_5(av.section(origin, extent<5>(1, 2, 2, 2, 3)));
        index<5> p = index<5>(1, 1, 1, 1, 2);
        rv[2] = av[p] + (p == origin ? 1000 : 0);
        rv[3] = av.extent.contains(p) && shape == av.extent ? av.extent.size() : -1;
        array_view<int, 4> row = av[1];
        rv[4] = row(1, 1, 1, 2) + row.extent[3];
    }));
    assert_amp_ok(amp_array_view_synchronize(rv));
    assert_int_equal(r[0], 47 * 48 / 2);
    assert_int_equal(r[1], (24 + 47) * 24 / 2);
    assert_int_equal(r[2], 47);
    assert_int_equal(r[3], 48);
    assert_int_equal(r[4], 47 + 3);
    assert_amp_ok(amp_array_view_release(av));
    assert_amp_ok(amp_array_view_release(rv));
}

/* ---- One element on the host ---- */

static void host_reads_make_the_view_current_once(void **state)
{
    (void)state;
    float data[4][6];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++)
            data[i][j] = (float)(i * 6 + j);
    amp_array_view *v, *s;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(4, 6), data, &v));
    assert_amp_ok(amp_array_view_section(v, amp_index_2d(1, 2), amp_extent_2d(2, 3), &s));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(2, 3), idx, AMP_CAPTURE(s),
                                        { s[idx] = s[idx] * 10.0f; }));
    amp_transfer_stats before = transfers_now();
    float x = 0;
    /* Element (1, 1) of the section is element (2, 3) of its parent. */
    assert_amp_ok(amp_array_view_get(s, amp_index_2d(1, 1), &x));
    assert_true(x == 150.0f);
    amp_transfer_stats after_first = transfers_now();
    assert_true(after_first.downloads > before.downloads);
    /* The section is current on the host now: more reads move nothing. */
    assert_amp_ok(amp_array_view_get(s, amp_index_2d(0, 0), &x));
    assert_true(x == 80.0f);
    assert_amp_ok(amp_array_view_get(v, amp_index_2d(1, 2), &x));
    assert_true(x == 80.0f);
    assert_int_equal(transfers_now().downloads, after_first.downloads);
    /* Outside the section's own extent, another rank, NULL: refused. */
    assert_amp_fails(amp_array_view_get(s, amp_index_2d(2, 0), &x), AMP_ERROR_INVALID_ARGUMENT,
                     "index (2, 0) is outside the view's extent (2, 3)");
    assert_amp_fails(amp_array_view_get(s, amp_index_1d(0), &x), AMP_ERROR_INVALID_ARGUMENT,
                     "the index has rank 1 and the view rank 2");
    assert_amp_fails(amp_array_view_get(s, amp_index_2d(0, 0), NULL), AMP_ERROR_INVALID_ARGUMENT,
                     "element is NULL");
    assert_amp_ok(amp_array_view_release(s));
    assert_amp_ok(amp_array_view_release(v));
}

static void a_host_write_makes_only_that_element_stale_on_the_device(void **state)
{
    (void)state;
    int data[64];
    for (int i = 0; i < 64; i++)
        data[i] = i;
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(64), data, &v));
    /* On the device, then read there again after one host write. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(64), i, AMP_CAPTURE(v), { v[i] += 1; }));
    amp_transfer_stats before = transfers_now();
    int value = -5;
    assert_amp_ok(amp_array_view_set(v, amp_index_1d(10), &value));
    amp_transfer_stats mid = transfers_now();
    /* The kernel wrote element 10: the write may make it ready first (4
     * bytes), never the rest of the view. */
    assert_true(mid.download_bytes - before.download_bytes <= sizeof(int));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(64), i, AMP_CAPTURE(v), { v[i] *= 2; }));
    amp_transfer_stats after = transfers_now();
    assert_int_equal(after.upload_bytes - mid.upload_bytes, sizeof(int));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 64; i++)
        assert_int_equal(data[i], i == 10 ? -10 : 2 * (i + 1));
    assert_amp_ok(amp_array_view_release(v));
}

static void host_element_access_at_rank_5_and_on_const_views(void **state)
{
    (void)state;
    int dims[5] = {2, 3, 2, 2, 3};
    static int a[72];
    for (int i = 0; i < 72; i++)
        a[i] = i;
    amp_array_view *v, *c;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_nd(5, dims), a, &v));
    int at[5] = {1, 2, 1, 0, 2};
    int x = 0;
    assert_amp_ok(amp_array_view_get(v, amp_index_nd(5, at), &x));
    assert_int_equal(x, (int)linear(dims, at, 5));
    x = 1000;
    assert_amp_ok(amp_array_view_set(v, amp_index_nd(5, at), &x));
    assert_int_equal(a[linear(dims, at, 5)], 1000);
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_1d(72), a, &c));
    assert_amp_fails(amp_array_view_set(c, amp_index_1d(0), &x), AMP_ERROR_INVALID_OPERATION,
                     "the view is const");
    assert_amp_ok(amp_array_view_get(c, amp_index_1d(0), &x));
    assert_int_equal(x, 0);
    assert_amp_ok(amp_array_view_release(c));
    assert_amp_ok(amp_array_view_release(v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(extents_and_indices_of_any_rank),
        cmocka_unit_test(untiled_kernels_run_over_ranks_4_to_8),
        cmocka_unit_test(a_tiled_extent_of_rank_4_is_refused),
        cmocka_unit_test(each_thread_gets_its_own_index),
        cmocka_unit_test(a_section_of_rank_5_writes_only_its_elements),
        cmocka_unit_test(views_and_arrays_of_rank_6_project_reshape_and_copy),
        cmocka_unit_test(kernels_take_index_extent_and_view_values_of_rank_5),
        cmocka_unit_test(host_reads_make_the_view_current_once),
        cmocka_unit_test(a_host_write_makes_only_that_element_stale_on_the_device),
        cmocka_unit_test(host_element_access_at_rank_5_and_on_const_views),
    };
    return cmocka_run_group_tests(tests, shutdown_library, NULL);
}
