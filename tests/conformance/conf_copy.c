/*
 * tests/conformance/conf_copy.c - C++ AMP 1.2, section 5.3, copying data
 * (and Microsoft's reference pages for concurrency::copy and copy_async):
 * every direction between arrays, array_views and host memory, each once
 * in the ledger, synchronously and asynchronously.
 *
 * Each test, and the section it comes from:
 *
 * copy_5_3_2_array_to_array
 *     5.3.2 copy(const array&, array&)
 * copy_5_3_2_array_to_array_view
 *     5.3.2 copy(const array&, array_view&)
 * copy_5_3_2_array_view_to_array
 *     5.3.2 copy(const array_view&, array&)
 * copy_5_3_2_array_view_newest_on_the_device_to_array
 *     5.3.2 copy(const array_view&, array&), of data a kernel wrote
 * copy_5_3_2_array_view_to_array_view
 *     5.3.2 copy(const array_view<const T>&, array_view&)
 * copy_5_3_2_section_to_array_and_array_to_section
 *     5.3.2 copy() with sections at either end
 * copy_5_3_3_host_to_array
 *     5.3.3 copy(InputIterator, array&)
 * copy_5_3_3_host_to_array_view
 *     5.3.3 copy(InputIterator, array_view&)
 * copy_5_3_4_array_to_host
 *     5.3.4 copy(const array&, OutputIterator)
 * copy_5_3_4_array_view_to_host
 *     5.3.4 copy(const array_view&, OutputIterator)
 * copy_5_3_2_extents_must_match
 *     5.3.2 "src and dest ... the same extent"
 * copy_5_3_2_a_const_view_is_no_destination
 *     5.3.1 dest is array_view<T, N>, not const T
 * copy_5_3_1_two_host_ends_are_refused
 *     5.3.1 one end is an array or array_view
 * copy_async_5_3_every_direction_completes
 *     5.3.1 copy_async(...), completion_future
 * copy_async_5_3_reports_the_copys_status
 *     5.3.1 copy_async; its errors come through completion_future::get()
 */
#include "conf_util.h"

enum { R = 6, C = 5, N = R * C };

/* "copy(const array<T, N>& src, array<T, N>& dest)": on one accelerator,
 * one copy on the device and nothing to or from the host. */
static void copy_5_3_2_array_to_array(void **state)
{
    (void)state;
    static int host[N], out[N];
    iota(host, N, 0);
    amp_array *a, *b;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(R, C), host, NULL, &a));
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_2d(R, C), NULL, &b));
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_COPY(a, b));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.count[AMP_ON_DEVICE][AMP_REASON_COPY], 1);
    assert_int_equal(s.device_copy_bytes, sizeof host);
    assert_int_equal(s.uploads + s.downloads, 0);
    assert_amp_ok(AMP_COPY(b, out));
    assert_ints(out, host, N);
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_array_release(b));
}

/* "copy(const array<T, N>& src, array_view<T, N>& dest)": the view's
 * container holds the data afterwards, with no synchronize. */
static void copy_5_3_2_array_to_array_view(void **state)
{
    (void)state;
    static int host[N], dest[N];
    iota(host, N, 100);
    memset(dest, 0, sizeof dest);
    amp_array *a;
    amp_array_view *v;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(R, C), host, NULL, &a));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), dest, &v));
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_COPY(a, v));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.count[AMP_TO_HOST][AMP_REASON_COPY], 1);
    assert_int_equal(s.uploads + s.device_copies, 0);
    assert_ints(dest, host, N);
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_int_equal(transfers_now().downloads, 1);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(a));
}

/* "copy(const array_view<T, N>& src, array<T, N>& dest)": from the view's
 * container, one upload. */
static void copy_5_3_2_array_view_to_array(void **state)
{
    (void)state;
    static int src[N], out[N];
    iota(src, N, 7);
    amp_array_view *v;
    amp_array *a;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), src, &v));
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_2d(R, C), NULL, &a));
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_COPY(v, a));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.count[AMP_TO_DEVICE][AMP_REASON_COPY], 1);
    assert_int_equal(s.upload_bytes, sizeof src);
    assert_int_equal(s.downloads, 0);
    assert_amp_ok(AMP_COPY(a, out));
    assert_ints(out, src, N);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(a));
}

/* The same when a kernel wrote the view last: the array gets the kernel's
 * data, copied where it is, and the view's container is not written. */
static void copy_5_3_2_array_view_newest_on_the_device_to_array(void **state)
{
    (void)state;
    static int src[N], out[N], want[N];
    iota(src, N, 0);
    for (int k = 0; k < N; k++)
        want[k] = 3 * k;
    amp_array_view *v;
    amp_array *a;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), src, &v));
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_2d(R, C), NULL, &a));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(v),
                                        { v[idx] *= 3; }));
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_COPY(v, a));
    assert_int_equal(transfers_now().downloads, 0);
    assert_amp_ok(AMP_COPY(a, out));
    assert_ints(out, want, N);
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_ints(src, want, N);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(a));
}

/* "copy(const array_view<const T, N>& src, array_view<T, N>& dest)". */
static void copy_5_3_2_array_view_to_array_view(void **state)
{
    (void)state;
    static int src[N], dest[N], seen[N];
    iota(src, N, 50);
    memset(dest, 0, sizeof dest);
    amp_array_view *cv, *dv, *sv;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_2d(R, C), src, &cv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), dest, &dv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), seen, &sv));
    assert_amp_ok(AMP_COPY(cv, dv));
    assert_ints(dest, src, N);
    /* a kernel that reads dest after the copy sees the copied data */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(dv, sv),
                                        { sv[idx] = dv[idx] + 1; }));
    assert_amp_ok(amp_array_view_synchronize(sv));
    for (int k = 0; k < N; k++)
        assert_int_equal(seen[k], src[k] + 1);
    assert_int_equal(ledger_of(cv).downloads, 0);
    assert_amp_ok(amp_array_view_release(cv));
    assert_amp_ok(amp_array_view_release(dv));
    assert_amp_ok(amp_array_view_release(sv));
}

/* A section is an array_view: it can be either end of a copy, and only its
 * own elements are read or written. */
static void copy_5_3_2_section_to_array_and_array_to_section(void **state)
{
    (void)state;
    static int big[8 * 8], out[3 * 4], back[8 * 8];
    iota(big, 64, 0);
    amp_array_view *v, *s;
    amp_array *a;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(8, 8), big, &v));
    assert_amp_ok(amp_array_view_section(v, amp_index_2d(2, 3), amp_extent_2d(3, 4), &s));
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_2d(3, 4), NULL, &a));
    assert_amp_ok(AMP_COPY(s, a));
    assert_amp_ok(AMP_COPY(a, out));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            assert_int_equal(out[i * 4 + j], (i + 2) * 8 + (j + 3));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 4), idx, AMP_CAPTURE(a),
                                        { a[idx] = -1; }));
    assert_amp_ok(AMP_COPY(a, s));
    assert_amp_ok(amp_array_view_synchronize(v));
    memcpy(back, big, sizeof back);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int inside = i >= 2 && i < 5 && j >= 3 && j < 7;
            assert_int_equal(back[i * 8 + j], inside ? -1 : i * 8 + j);
        }
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_array_view_release(s));
    assert_amp_ok(amp_array_view_release(v));
}

/* "copy(InputIterator srcBegin, array<T, N>& dest)": host memory in, one
 * upload. */
static void copy_5_3_3_host_to_array(void **state)
{
    (void)state;
    static float host[N], out[N];
    for (int k = 0; k < N; k++)
        host[k] = 0.25f * (float)k;
    amp_array *a;
    assert_amp_ok(amp_array_create(AMP_FLOAT, amp_extent_2d(R, C), NULL, &a));
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_COPY(host, a));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.count[AMP_TO_DEVICE][AMP_REASON_COPY], 1);
    assert_int_equal(s.upload_bytes, sizeof host);
    assert_amp_ok(AMP_COPY(a, out));
    for (int k = 0; k < N; k++)
        assert_true(out[k] == host[k]);
    assert_amp_ok(amp_array_release(a));
}

/* "copy(InputIterator srcBegin, array_view<T, N>& dest)": the view's data
 * is the host's afterwards, for the host and for kernels. */
static void copy_5_3_3_host_to_array_view(void **state)
{
    (void)state;
    static int host[N], dest[N], seen[N];
    iota(host, N, 900);
    memset(dest, 0, sizeof dest);
    amp_array_view *dv, *sv;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), dest, &dv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), seen, &sv));
    /* a kernel first, so that dest has a device copy the copy makes stale */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(dv),
                                        { dv[idx] = -5; }));
    assert_amp_ok(AMP_COPY(host, dv));
    const void *p;
    assert_amp_ok(amp_array_view_data_const(dv, &p));
    assert_ints((const int *)p, host, N);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(dv, sv),
                                        { sv[idx] = dv[idx]; }));
    assert_amp_ok(amp_array_view_synchronize(sv));
    assert_ints(seen, host, N);
    assert_amp_ok(amp_array_view_release(dv));
    assert_amp_ok(amp_array_view_release(sv));
}

/* "copy(const array<T, N>& src, OutputIterator destBegin)". */
static void copy_5_3_4_array_to_host(void **state)
{
    (void)state;
    static int out[N];
    memset(out, 0, sizeof out);
    amp_array *a;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_3d(2, 3, 5), NULL, &a));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_3d(2, 3, 5), idx, AMP_CAPTURE(a),
                                        { a[idx] = idx[0] * 100 + idx[1] * 10 + idx[2]; }));
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_COPY(a, out));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.count[AMP_TO_HOST][AMP_REASON_COPY], 1);
    assert_int_equal(s.download_bytes, sizeof out);
    for (int k = 0; k < N; k++)
        assert_int_equal(out[k], k / 15 * 100 + k / 5 % 3 * 10 + k % 5);
    assert_amp_ok(amp_array_release(a));
}

/* "copy(const array_view<T, N>& src, OutputIterator destBegin)": the
 * view's newest data, wherever it is. */
static void copy_5_3_4_array_view_to_host(void **state)
{
    (void)state;
    static int src[N], out[N];
    iota(src, N, 0);
    memset(out, 0, sizeof out);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), src, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(v),
                                        { v[idx] = v[idx] * v[idx]; }));
    assert_amp_ok(AMP_COPY(v, out));
    for (int k = 0; k < N; k++)
        assert_int_equal(out[k], k * k);
    assert_int_equal(ledger_of(v).downloads, 1);
    assert_amp_ok(amp_array_view_release(v));
}

/* Source and destination have the same extent; a copy between extents
 * that differ is refused and changes nothing. */
static void copy_5_3_2_extents_must_match(void **state)
{
    (void)state;
    static int src[12], dest[12], out[12];
    iota(src, 12, 1);
    memset(dest, 0, sizeof dest);
    amp_array *a, *b;
    amp_array_view *v;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(3, 4), src, NULL, &a));
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(4, 3), dest, NULL, &b));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(12), dest, &v));
    assert_amp_fails(AMP_COPY(a, b), AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_fails(AMP_COPY(a, v), AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_fails(AMP_COPY(v, a), AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_ok(AMP_COPY(b, out));
    for (int k = 0; k < 12; k++) {
        assert_int_equal(out[k], 0);
        assert_int_equal(dest[k], 0);
    }
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_array_release(b));
}

/* The destination of a copy is written: an array_view<const T, N> is no
 * destination, and its container is left as it was. */
static void copy_5_3_2_a_const_view_is_no_destination(void **state)
{
    (void)state;
    static int src[N], dest[N];
    iota(src, N, 1);
    memset(dest, 0, sizeof dest);
    amp_array *a;
    amp_array_view *c;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(R, C), src, NULL, &a));
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_2d(R, C), dest, &c));
    assert_amp_fails(AMP_COPY(a, c), AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_fails(AMP_COPY(src, c), AMP_ERROR_INVALID_ARGUMENT, "");
    for (int k = 0; k < N; k++)
        assert_int_equal(dest[k], 0);
    assert_amp_ok(amp_array_view_release(c));
    assert_amp_ok(amp_array_release(a));
}

/* Every form of copy has an array or an array_view at one end at least;
 * two host ends have no shape to copy. */
static void copy_5_3_1_two_host_ends_are_refused(void **state)
{
    (void)state;
    static int a[4] = {1, 2, 3, 4}, b[4] = {0};
    assert_amp_fails(amp_copy(amp_data_of(a), amp_data_of(b)), AMP_ERROR_INVALID_ARGUMENT, "");
    assert_int_equal(b[0], 0);
}

/* "completion_future copy_async(...)": every direction of copy, each
 * complete once its handle is waited for. */
static void copy_async_5_3_every_direction_completes(void **state)
{
    (void)state;
    static int host[N], view_data[N], view2_data[N], out[N];
    iota(host, N, 10);
    memset(view_data, 0, sizeof view_data);
    memset(view2_data, 0, sizeof view2_data);
    amp_array *a, *b;
    amp_array_view *v, *w;
    amp_completion *done;
    int ready;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_2d(R, C), NULL, &a));
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_2d(R, C), NULL, &b));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), view_data, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), view2_data, &w));

#define STEP(src, dst)                                                                             \
    do {                                                                                           \
        assert_amp_ok(AMP_COPY_ASYNC(src, dst, &done));                                            \
        assert_amp_ok(amp_completion_wait(done));                                                  \
        assert_amp_ok(amp_completion_is_done(done, &ready));                                       \
        assert_true(ready);                                                                        \
        assert_amp_ok(amp_completion_release(done));                                              \
    } while (0)

    STEP(host, a); /* host to array */
    STEP(a, b);    /* array to array */
    STEP(b, v);    /* array to view */
    assert_ints(view_data, host, N);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(v),
                                        { v[idx] += 1; }));
    STEP(v, w);    /* view to view, from where the kernel left it */
    STEP(w, a);    /* view to array */
    memset(out, 0, sizeof out);
    STEP(a, out);  /* array to host */
    for (int k = 0; k < N; k++)
        assert_int_equal(out[k], host[k] + 1);
    memset(out, 0, sizeof out);
    STEP(w, out);  /* view to host */
    for (int k = 0; k < N; k++)
        assert_int_equal(out[k], host[k] + 1);
    STEP(host, w); /* host to view */
    assert_amp_ok(amp_array_view_synchronize(w));
    assert_ints(view2_data, host, N);
#undef STEP
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(w));
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_array_release(b));
}

/* An asynchronous copy that cannot be done says so through its handle
 * (C++ AMP's completion_future::get() rethrows), and writes nothing. */
static void copy_async_5_3_reports_the_copys_status(void **state)
{
    (void)state;
    static int src[12], dest[12];
    iota(src, 12, 1);
    memset(dest, 0, sizeof dest);
    amp_array *a;
    amp_array_view *v;
    amp_completion *done = NULL;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(3, 4), src, NULL, &a));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(4, 3), dest, &v));
    amp_status launched = AMP_COPY_ASYNC(a, v, &done);
    if (launched == AMP_OK) {
        assert_int_equal(amp_completion_wait(done), AMP_ERROR_INVALID_ARGUMENT);
        assert_int_equal(amp_completion_release(done), AMP_ERROR_INVALID_ARGUMENT);
    } else {
        assert_int_equal(launched, AMP_ERROR_INVALID_ARGUMENT);
    }
    for (int k = 0; k < 12; k++)
        assert_int_equal(dest[k], 0);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(a));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(copy_5_3_2_array_to_array),
        cmocka_unit_test(copy_5_3_2_array_to_array_view),
        cmocka_unit_test(copy_5_3_2_array_view_to_array),
        cmocka_unit_test(copy_5_3_2_array_view_newest_on_the_device_to_array),
        cmocka_unit_test(copy_5_3_2_array_view_to_array_view),
        cmocka_unit_test(copy_5_3_2_section_to_array_and_array_to_section),
        cmocka_unit_test(copy_5_3_3_host_to_array),
        cmocka_unit_test(copy_5_3_3_host_to_array_view),
        cmocka_unit_test(copy_5_3_4_array_to_host),
        cmocka_unit_test(copy_5_3_4_array_view_to_host),
        cmocka_unit_test(copy_5_3_2_extents_must_match),
        cmocka_unit_test(copy_5_3_2_a_const_view_is_no_destination),
        cmocka_unit_test(copy_5_3_1_two_host_ends_are_refused),
        cmocka_unit_test(copy_async_5_3_every_direction_completes),
        cmocka_unit_test(copy_async_5_3_reports_the_copys_status),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
