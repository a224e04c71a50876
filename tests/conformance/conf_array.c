/*
 * tests/conformance/conf_array.c - C++ AMP 1.2, section 5.1, array<T, N>
 * (and Microsoft's reference page for concurrency::array): construction,
 * members, indexing in kernels and the view operations, with the transfer
 * ledger where the section says what moves.
 *
 * Each test, and the section it comes from:
 *
 * array_5_1_2_made_with_an_extent_moves_nothing
 *     5.1.2 array(const extent<N>&)
 * array_5_1_2_made_from_host_data_copies_it_once
 *     5.1.2 array(extent, InputIterator srcBegin)
 * array_5_1_2_made_from_an_array_view
 *     5.1.2 array(const array_view<const T, N>&)
 * array_5_1_2_copy_constructor_is_a_deep_copy
 *     5.1.2 array(const array&): "a deep copy"
 * array_5_1_2_made_on_an_accelerator_view
 *     5.1.2 array(extent, accelerator_view av)
 * array_5_1_2_bad_extents_are_refused
 *     5.1.2 constructors' requirements
 * array_5_1_3_extent_and_accelerator_view
 *     5.1.3 get_extent(), get_accelerator_view()
 * array_5_1_3_indexing_in_kernels
 *     5.1.3 operator[](index), operator()(i0, ...), operator[](int) then [], extent
 * array_5_1_3_kernels_use_arrays_in_place
 *     5.1 "an array ... resides on an accelerator": kernels there move nothing
 * array_5_1_4_view_of_an_array
 *     5.1.4, 5.2.2 array_view(array&)
 * array_5_1_4_section_of_an_array
 *     5.1.4 section(origin, extent)
 * array_5_1_4_projection_of_an_array
 *     5.1.4 operator[](int): array_view<T, N-1>
 * array_5_1_4_view_as_and_reinterpret_as
 *     5.1.4 view_as(extent<K>), reinterpret_as<U>()
 * array_5_1_given_to_a_restrict_amp_function
 *     5.1 array<T, N>& as a restrict(amp) function's parameter
 */
#include "conf_util.h"

/* "array(const extent<N>& extent): constructs a new array with the
 * supplied extent, located on the default accelerator": device memory,
 * nothing copied. A kernel fills it; copy() reads it out. */
static void array_5_1_2_made_with_an_extent_moves_nothing(void **state)
{
    (void)state;
    static int out[5 * 7];
    amp_array *a;
    amp_transfer_reset_stats();
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_2d(5, 7), NULL, &a));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.uploads + s.downloads + s.device_copies, 0);
    assert_true(amp_extent_equal(amp_array_get_extent(a), amp_extent_2d(5, 7)));
    assert_int_equal(amp_array_get_type(a), AMP_INT);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_array_get_extent(a), idx, AMP_CAPTURE(a),
                                        { a[idx] = idx[0] * 100 + idx[1]; }));
    assert_amp_ok(AMP_COPY(a, out));
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 7; j++)
            assert_int_equal(out[i * 7 + j], i * 100 + j);
    s = transfers_now();
    assert_int_equal(s.uploads, 0);
    assert_int_equal(s.downloads, 1);
    assert_amp_ok(amp_array_release(a));
}

/* "array(const extent<N>& extent, InputIterator srcBegin): ... initialized
 * with the contents of a source container": copied once, when made; the
 * container is the caller's again at once. */
static void array_5_1_2_made_from_host_data_copies_it_once(void **state)
{
    (void)state;
    static int host[24], out[24];
    iota(host, 24, 10);
    amp_array *a;
    amp_transfer_reset_stats();
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_3d(2, 3, 4), host, NULL, &a));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.count[AMP_TO_DEVICE][AMP_REASON_COPY], 1);
    assert_int_equal(s.upload_bytes, sizeof host);
    for (int k = 0; k < 24; k++)
        host[k] = -1; /* the array has its own copy */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_3d(2, 3, 4), idx, AMP_CAPTURE(a),
                                        { a[idx] += 1; }));
    assert_amp_ok(AMP_COPY(a, out));
    for (int k = 0; k < 24; k++)
        assert_int_equal(out[k], 11 + k);
    assert_int_equal(transfers_now().uploads, 1);
    assert_amp_ok(amp_array_release(a));
}

/* "array(const array_view<const T, N>& src): ... initialized with the
 * contents of the array_view src", wherever its newest copy is; the two
 * are separate afterwards. */
static void array_5_1_2_made_from_an_array_view(void **state)
{
    (void)state;
    static float data[4 * 4], out[4 * 4];
    for (int k = 0; k < 16; k++)
        data[k] = (float)k;
    amp_array_view *v;
    amp_array *a;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(4, 4), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 4), idx, AMP_CAPTURE(v),
                                        { v[idx] = v[idx] * 2.0f; }));
    assert_amp_ok(amp_array_create_from_view(v, NULL, &a));
    assert_true(amp_extent_equal(amp_array_get_extent(a), amp_extent_2d(4, 4)));
    assert_int_equal(amp_array_get_type(a), AMP_FLOAT);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 4), idx, AMP_CAPTURE(v),
                                        { v[idx] = -1.0f; }));
    assert_amp_ok(AMP_COPY(a, out));
    for (int k = 0; k < 16; k++)
        assert_true(out[k] == 2.0f * (float)k);
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < 16; k++)
        assert_true(data[k] == -1.0f);
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_array_view_release(v));
}

/* "array(const array& other): copy constructor ... The new array is
 * located on the same accelerator_view as the source array. A deep copy
 * is performed." */
static void array_5_1_2_copy_constructor_is_a_deep_copy(void **state)
{
    (void)state;
    static int host[32], out_a[32], out_b[32];
    iota(host, 32, 0);
    amp_array *a, *b;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_1d(32), host, NULL, &a));
    amp_transfer_reset_stats();
    assert_amp_ok(amp_array_create_from_array(a, NULL, &b));
    assert_true(amp_array_get_accelerator_view(a) == amp_array_get_accelerator_view(b));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.uploads + s.downloads, 0); /* on the device */
    assert_int_equal(s.device_copies, 1);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(32), idx, AMP_CAPTURE(a),
                                        { a[idx] = 1000; }));
    assert_amp_ok(AMP_COPY(a, out_a));
    assert_amp_ok(AMP_COPY(b, out_b));
    for (int k = 0; k < 32; k++) {
        assert_int_equal(out_a[k], 1000);
        assert_int_equal(out_b[k], k);
    }
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_array_release(b));
}

/* "array(const extent<N>& extent, accelerator_view av)": located on av;
 * a kernel on av uses it. */
static void array_5_1_2_made_on_an_accelerator_view(void **state)
{
    (void)state;
    static int out[64];
    amp_accelerator *acc;
    amp_accelerator_view *av;
    amp_array *a;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    assert_amp_ok(amp_accelerator_create_view(acc, AMP_QUEUING_IMMEDIATE, &av));
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(64), av, &a));
    assert_true(amp_array_get_accelerator_view(a) == av);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(av, amp_extent_1d(64), idx, AMP_CAPTURE(a),
                                           { a[idx] = idx[0] * idx[0]; }));
    assert_amp_ok(AMP_COPY(a, out));
    for (int k = 0; k < 64; k++)
        assert_int_equal(out[k], k * k);
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_accelerator_view_release(av));
}

/* An array's extent must have positive dimensions. */
static void array_5_1_2_bad_extents_are_refused(void **state)
{
    (void)state;
    static int host[4];
    amp_array *a = NULL;
    assert_amp_fails(amp_array_create(AMP_INT, amp_extent_2d(0, 4), NULL, &a),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_fails(amp_array_create(AMP_FLOAT, amp_extent_1d(-1), NULL, &a),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_fails(amp_array_create_from_host(AMP_INT, amp_extent_3d(1, 0, 1), host, NULL, &a),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_null(a);
}

/* "extent<N> get_extent() const", "accelerator_view get_accelerator_view()
 * const": without one given, the default accelerator's default view. */
static void array_5_1_3_extent_and_accelerator_view(void **state)
{
    (void)state;
    amp_array *a;
    assert_amp_ok(amp_array_create(AMP_UINT, amp_extent_3d(2, 3, 5), NULL, &a));
    assert_true(amp_extent_equal(amp_array_get_extent(a), amp_extent_3d(2, 3, 5)));
    assert_int_equal(amp_array_get_extent(a).rank, 3);
    assert_int_equal(amp_array_get_type(a), AMP_UINT);
    amp_accelerator_view *av = amp_array_get_accelerator_view(a);
    assert_non_null(av);
    assert_true(amp_accelerator_view_is_default(av));
    amp_accelerator *def;
    assert_amp_ok(amp_accelerator_get_default(&def));
    assert_true(amp_accelerator_view_get_accelerator(av) == def);
    assert_amp_ok(amp_array_release(a));
}

/* "T& operator[](const index<N>&)", "T& operator()(int i0, int i1)",
 * "array_view<T, N-1> operator[](int)" in restrict(amp) code, and the
 * array's extent there. */
static void array_5_1_3_indexing_in_kernels(void **state)
{
    (void)state;
    static int h1[6], h2[3 * 4], h3[2 * 3 * 4], out[8];
    iota(h1, 6, 0);
    iota(h2, 12, 0);
    iota(h3, 24, 0);
    amp_array *a1, *a2, *a3;
    amp_array_view *o;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_1d(6), h1, NULL, &a1));
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(3, 4), h2, NULL, &a2));
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_3d(2, 3, 4), h3, NULL, &a3));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(a1, a2, a3, o), {
        o[0] = a1[index<1>(5)];
        o[1] = a1(4);
        o[2] = a2[index<2>(2, 1)];
        o[3] = a2(1, 3);
        o[4] = a2[2][3];
        o[5] = a3[1][2][3] + a3(0, 1, 2) * 100;
        o[6] = a3.extent.size() * 10 + a2.extent[1];
        o[7] = a3.get_extent()[1];
    }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 4), idx, AMP_CAPTURE(a2),
                                        { a2[idx] = -a2(idx[0], idx[1]); }));
    assert_amp_ok(amp_array_view_synchronize(o));
    int want[8] = {5, 4, 9, 7, 11, 23 + 600, 244, 3};
    assert_ints(out, want, 8);
    static int back[12];
    assert_amp_ok(AMP_COPY(a2, back));
    for (int k = 0; k < 12; k++)
        assert_int_equal(back[k], -k);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_array_release(a1));
    assert_amp_ok(amp_array_release(a2));
    assert_amp_ok(amp_array_release(a3));
}

/* An array lives on its accelerator: kernels there read and write it with
 * no transfer at all. */
static void array_5_1_3_kernels_use_arrays_in_place(void **state)
{
    (void)state;
    static float host[256];
    for (int k = 0; k < 256; k++)
        host[k] = (float)k;
    amp_array *a, *b;
    assert_amp_ok(amp_array_create_from_host(AMP_FLOAT, amp_extent_1d(256), host, NULL, &a));
    assert_amp_ok(amp_array_create(AMP_FLOAT, amp_extent_1d(256), NULL, &b));
    amp_transfer_reset_stats();
    for (int round = 0; round < 3; round++) {
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(256), idx, AMP_CAPTURE(a, b),
                                            { b[idx] = a[idx] + 1.0f; }));
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(256), idx, AMP_CAPTURE(a, b),
                                            { a[idx] = b[idx] * 2.0f; }));
    }
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.uploads + s.downloads + s.device_copies, 0);
    assert_amp_ok(AMP_COPY(a, host));
    for (int k = 0; k < 256; k++) {
        float x = (float)k;
        for (int round = 0; round < 3; round++)
            x = (x + 1.0f) * 2.0f;
        assert_true(host[k] == x);
    }
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_array_release(b));
}

/* "array_view(array<T, N>& src)": a view of the array's data. Kernels use
 * it in place; the host reads it through the view; what the host writes
 * through it reaches the array. */
static void array_5_1_4_view_of_an_array(void **state)
{
    (void)state;
    static int host[10], out[10];
    iota(host, 10, 0);
    amp_array *a;
    amp_array_view *v;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_1d(10), host, NULL, &a));
    assert_amp_ok(amp_array_view_create_from_array(a, &v));
    assert_true(amp_extent_equal(amp_array_view_get_extent(v), amp_extent_1d(10)));
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(10), idx, AMP_CAPTURE(v),
                                        { v[idx] *= 3; }));
    assert_int_equal(transfers_now().uploads + transfers_now().downloads, 0);
    const void *p;
    assert_amp_ok(amp_array_view_data_const(v, &p));
    for (int k = 0; k < 10; k++)
        assert_int_equal(((const int *)p)[k], 3 * k);
    void *w;
    assert_amp_ok(amp_array_view_data(v, &w));
    ((int *)w)[4] = 77;
    /* the array sees the host's write through its view */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(10), idx, AMP_CAPTURE(a),
                                        { a[idx] += 1; }));
    assert_amp_ok(AMP_COPY(a, out));
    for (int k = 0; k < 10; k++)
        assert_int_equal(out[k], k == 4 ? 78 : 3 * k + 1);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(a));
}

/* "array_view<T, N> section(const index<N>& origin, const extent<N>& ext)"
 * of an array: made on the host through a view of the array, and in a
 * kernel from the captured array. */
static void array_5_1_4_section_of_an_array(void **state)
{
    (void)state;
    static int host[6 * 6], out[36];
    memset(host, 0, sizeof host);
    amp_array *a;
    amp_array_view *v, *s;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(6, 6), host, NULL, &a));
    assert_amp_ok(amp_array_view_create_from_array(a, &v));
    assert_amp_ok(amp_array_view_section(v, amp_index_2d(0, 0), amp_extent_2d(2, 6), &s));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(2, 6), idx, AMP_CAPTURE(s),
                                        { s[idx] = 1; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(a), {
        array_view<int, 2> corner = a.section(index<2>(3, 3), extent<2>(3, 3));
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                corner(i, j) = 2;
    }));
    assert_amp_ok(AMP_COPY(a, out));
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            assert_int_equal(out[i * 6 + j], i < 2 ? 1 : i >= 3 && j >= 3 ? 2 : 0);
    assert_amp_ok(amp_array_view_release(s));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(a));
}

/* "array_view<T, N-1> operator[](int i)" of an array: a row. */
static void array_5_1_4_projection_of_an_array(void **state)
{
    (void)state;
    static int host[4 * 3], out[12];
    iota(host, 12, 0);
    amp_array *a;
    amp_array_view *v, *row;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(4, 3), host, NULL, &a));
    assert_amp_ok(amp_array_view_create_from_array(a, &v));
    assert_amp_ok(amp_array_view_project(v, 1, &row));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(3), idx, AMP_CAPTURE(row),
                                        { row[idx] = 100; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(3), idx, AMP_CAPTURE(a), {
        array_view<int, 1> last = a[3];
        last[idx] = -last[idx];
    }));
    assert_amp_ok(AMP_COPY(a, out));
    for (int k = 0; k < 12; k++)
        assert_int_equal(out[k], k / 3 == 1 ? 100 : k / 3 == 3 ? -k : k);
    assert_amp_ok(amp_array_view_release(row));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(a));
}

/* "view_as(const extent<K>&)" and "reinterpret_as<ElementType>()" of an
 * array: array_views of its data, of another shape or element type. */
static void array_5_1_4_view_as_and_reinterpret_as(void **state)
{
    (void)state;
    static float host[12], out[12];
    for (int k = 0; k < 12; k++)
        host[k] = (float)k;
    amp_array *a;
    amp_array_view *v, *m, *bits;
    assert_amp_ok(amp_array_create_from_host(AMP_FLOAT, amp_extent_1d(12), host, NULL, &a));
    assert_amp_ok(amp_array_view_create_from_array(a, &v));
    assert_amp_ok(amp_array_view_view_as(v, amp_extent_2d(3, 4), &m));
    assert_amp_ok(amp_array_view_reinterpret_as(v, AMP_UINT, &bits));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 4), idx, AMP_CAPTURE(m),
                                        { m[idx] = m[idx] + (float)(idx[0] * 100); }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(12), idx, AMP_CAPTURE(bits), {
        if (idx[0] % 2 == 1)
            bits[idx] |= 0x80000000u; /* negates the float */
    }));
    assert_amp_ok(AMP_COPY(a, out));
    for (int k = 0; k < 12; k++) {
        float want = (float)k + (float)(k / 4 * 100);
        assert_true(out[k] == (k % 2 ? -want : want));
    }
    assert_amp_ok(amp_array_view_release(bits));
    assert_amp_ok(amp_array_view_release(m));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(a));
}

/* An array is passed to restrict(amp) functions by reference. */
AMP_FUNCTION(int, column_sum, (array<int, 2>& a, int j), {
    int s = 0;
    for (int i = 0; i < a.extent[0]; i++)
        s += a(i, j);
    return s;
});

AMP_FUNCTION(void, negate_row, (array<int, 2>& a, int i), {
    for (int j = 0; j < a.extent[1]; j++)
        a[i][j] = -a[i][j];
});

static void array_5_1_given_to_a_restrict_amp_function(void **state)
{
    (void)state;
    static int host[3 * 4], sums[4], back[12];
    iota(host, 12, 1);
    amp_array *a;
    amp_array_view *s;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(3, 4), host, NULL, &a));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), sums, &s));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(a, s, column_sum),
                                        { s[idx] = column_sum(a, idx[0]); }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(a, negate_row),
                                        { negate_row(a, 2); }));
    assert_amp_ok(amp_array_view_synchronize(s));
    for (int j = 0; j < 4; j++)
        assert_int_equal(sums[j], (1 + j) + (5 + j) + (9 + j));
    assert_amp_ok(AMP_COPY(a, back));
    for (int k = 0; k < 12; k++)
        assert_int_equal(back[k], k >= 8 ? -(k + 1) : k + 1);
    assert_amp_ok(amp_array_view_release(s));
    assert_amp_ok(amp_array_release(a));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(array_5_1_2_made_with_an_extent_moves_nothing),
        cmocka_unit_test(array_5_1_2_made_from_host_data_copies_it_once),
        cmocka_unit_test(array_5_1_2_made_from_an_array_view),
        cmocka_unit_test(array_5_1_2_copy_constructor_is_a_deep_copy),
        cmocka_unit_test(array_5_1_2_made_on_an_accelerator_view),
        cmocka_unit_test(array_5_1_2_bad_extents_are_refused),
        cmocka_unit_test(array_5_1_3_extent_and_accelerator_view),
        cmocka_unit_test(array_5_1_3_indexing_in_kernels),
        cmocka_unit_test(array_5_1_3_kernels_use_arrays_in_place),
        cmocka_unit_test(array_5_1_4_view_of_an_array),
        cmocka_unit_test(array_5_1_4_section_of_an_array),
        cmocka_unit_test(array_5_1_4_projection_of_an_array),
        cmocka_unit_test(array_5_1_4_view_as_and_reinterpret_as),
        cmocka_unit_test(array_5_1_given_to_a_restrict_amp_function),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
