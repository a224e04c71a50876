/*
 * tests/device/test_coherence.c - data moves only when it must: proven with the
 * transfer ledger.
 */
#include "test_util.h"

#define N 1024

static int reset(void **state)
{
    (void)state;
    amp_transfer_reset_stats();
    return 0;
}

/* data[i] += 1 for every element. */
static amp_status increment(amp_array_view *data)
{
    return AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(data), idx, AMP_CAPTURE(data),
                                 { data(idx[0]) += 1; });
}

/* out[i] = in[i] * 2: in is only read. */
static amp_status doubled(amp_array_view *in, amp_array_view *out)
{
    return AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(out), idx, AMP_CAPTURE(in, out),
                                 { out(idx[0]) = in(idx[0]) * 2; });
}

static void two_kernels_upload_once_and_download_only_on_synchronize(void **state)
{
    (void)state;
    int data[N] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    assert_int_equal(transfers_now().uploads, 0); /* creating a view moves nothing */

    assert_amp_ok(increment(v));
    assert_amp_ok(increment(v));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.uploads, 1);
    assert_int_equal(s.upload_bytes, sizeof data);
    assert_int_equal(s.count[AMP_TO_DEVICE][AMP_REASON_KERNEL], 1);
    assert_int_equal(s.downloads, 0);

    assert_amp_ok(amp_array_view_synchronize(v));
    s = transfers_now();
    assert_int_equal(s.downloads, 1);
    assert_int_equal(s.download_bytes, sizeof data);
    assert_int_equal(s.count[AMP_TO_HOST][AMP_REASON_SYNCHRONIZE], 1);
    for (int i = 0; i < N; i++)
        assert_int_equal(data[i], 2);

    /* Synchronizing again, or releasing, moves nothing more. */
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_amp_ok(amp_array_view_release(v));
    s = transfers_now();
    assert_int_equal(s.uploads, 1);
    assert_int_equal(s.downloads, 1);
}

static void a_view_kernels_only_read_is_never_downloaded(void **state)
{
    (void)state;
    int in[N], out[N] = {0};
    for (int i = 0; i < N; i++)
        in[i] = i;
    amp_array_view *vin, *vout;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), in, &vin));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &vout));
    assert_amp_ok(doubled(vin, vout));
    assert_amp_ok(amp_array_view_synchronize(vin));
    assert_amp_ok(amp_array_view_synchronize(vout));
    amp_transfer_stats sin;
    assert_amp_ok(amp_array_view_get_transfers(vin, &sin));
    assert_int_equal(sin.uploads, 1);
    assert_int_equal(sin.downloads, 0);
    assert_amp_ok(amp_array_view_release(vin));
    assert_amp_ok(amp_array_view_release(vout));
    assert_int_equal(transfers_now().downloads, 1); /* out only */
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], 2 * i);
}

static void a_const_view_is_never_downloaded_and_cannot_be_written(void **state)
{
    (void)state;
    int in[N], out[N] = {0};
    for (int i = 0; i < N; i++)
        in[i] = i;
    amp_array_view *vin, *vout;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_1d(N), in, &vin));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &vout));
    assert_true(amp_array_view_is_const(vin));
    assert_amp_ok(doubled(vin, vout));
    /* Writing to a const view does not compile. */
    assert_amp_fails(increment(vin), AMP_ERROR_KERNEL_BUILD, "did not compile");
    assert_amp_ok(amp_array_view_release(vin));
    assert_amp_ok(amp_array_view_release(vout));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.uploads, 2);
    assert_int_equal(s.downloads, 1);
    assert_int_equal(out[N - 1], 2 * (N - 1));
}

static void release_copies_back_like_a_destructor(void **state)
{
    (void)state;
    int data[N] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    assert_amp_ok(increment(v));
    assert_amp_ok(amp_array_view_release(v));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.count[AMP_TO_HOST][AMP_REASON_RELEASE], 1);
    assert_int_equal(data[0], 1);
    assert_int_equal(data[N - 1], 1);
}

static void discarded_data_is_not_uploaded_nor_downloaded(void **state)
{
    (void)state;
    int data[N] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    assert_amp_ok(amp_array_view_discard_data(v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(v), idx, AMP_CAPTURE(v),
                                        { v(idx[0]) = 7; }));
    assert_int_equal(transfers_now().uploads, 0);
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_int_equal(transfers_now().downloads, 1);
    assert_int_equal(data[5], 7);
    /* Discarding again, then releasing: nothing comes back. */
    assert_amp_ok(increment(v));
    assert_amp_ok(amp_array_view_discard_data(v));
    assert_amp_ok(amp_array_view_release(v));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.downloads, 1);
    assert_int_equal(s.uploads, 0);
}

static void refresh_makes_the_next_kernel_upload_again(void **state)
{
    (void)state;
    int data[N] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    assert_amp_ok(increment(v));
    assert_amp_ok(amp_array_view_synchronize(v));
    data[3] = 100; /* the host writes the memory directly */
    assert_amp_ok(amp_array_view_refresh(v));
    assert_amp_ok(increment(v));
    assert_amp_ok(amp_array_view_synchronize(v));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.uploads, 2);
    assert_int_equal(s.downloads, 2);
    assert_int_equal(data[3], 101);
    assert_int_equal(data[4], 2);
    assert_amp_ok(amp_array_view_release(v));
}

static void host_access_for_writing_makes_device_copies_stale(void **state)
{
    (void)state;
    int data[N] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    assert_amp_ok(increment(v));
    int *p = NULL;
    assert_amp_ok(amp_array_view_data(v, (void **)&p));
    assert_ptr_equal(p, data);
    assert_int_equal(p[0], 1);
    assert_int_equal(transfers_now().count[AMP_TO_HOST][AMP_REASON_HOST_ACCESS], 1);
    p[0] = 50;
    assert_amp_ok(increment(v));
    assert_int_equal(transfers_now().uploads, 2);
    /* Reading only keeps the device copy current. */
    const int *q = NULL;
    assert_amp_ok(amp_array_view_data_const(v, (const void **)&q));
    assert_int_equal(q[0], 51);
    assert_amp_ok(increment(v));
    assert_int_equal(transfers_now().uploads, 2);
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(data[0], 52);
}

static void views_of_the_same_memory_share_their_data(void **state)
{
    (void)state;
    int data[N] = {0};
    amp_array_view *v1, *v2;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v1));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(N / 2, 2), data, &v2));
    assert_amp_ok(increment(v1));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(v2), idx, AMP_CAPTURE(v2),
                                        { v2(idx) *= 10; }));
    assert_int_equal(transfers_now().uploads, 1);
    const int *p = NULL;
    assert_amp_ok(amp_array_view_data_const(v1, (const void **)&p));
    assert_int_equal(p[N - 1], 10);
    amp_transfer_stats a, b;
    assert_amp_ok(amp_array_view_get_transfers(v1, &a));
    assert_amp_ok(amp_array_view_get_transfers(v2, &b));
    assert_memory_equal(&a, &b, sizeof a);
    /* Releasing one view keeps the data for the other. */
    assert_amp_ok(amp_array_view_release(v1));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(v2), idx, AMP_CAPTURE(v2),
                                        { v2(idx) += 1; }));
    assert_amp_ok(amp_array_view_release(v2));
    assert_int_equal(data[0], 11);
}

static void a_larger_view_of_wrapped_memory_is_refused(void **state)
{
    (void)state;
    int data[N] = {0};
    amp_array_view *small, *big = NULL;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N / 2), data, &small));
    assert_amp_fails(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &big),
                     AMP_ERROR_INVALID_ARGUMENT, "already wrapped");
    assert_null(big);
    /* Another element type over the same bytes is the same data source
     * (as amp_array_view_reinterpret_as makes it); void *: meant. */
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N / 2), (void *)data, &big));
    assert_amp_ok(amp_array_view_release(big));
    assert_amp_ok(amp_array_view_release(small));
}

static void every_reason_has_a_name(void **state)
{
    (void)state;
    /* AMP_TRACE=transfers itself is tested on a sample (tests/device). */
    for (int r = 0; r < AMP_REASON_COUNT; r++)
        assert_string_not_equal(amp_transfer_reason_name((amp_transfer_reason)r), "unknown");
    assert_string_equal(amp_transfer_reason_name(AMP_REASON_KERNEL), "kernel");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(two_kernels_upload_once_and_download_only_on_synchronize, reset),
        cmocka_unit_test_setup(a_view_kernels_only_read_is_never_downloaded, reset),
        cmocka_unit_test_setup(a_const_view_is_never_downloaded_and_cannot_be_written, reset),
        cmocka_unit_test_setup(release_copies_back_like_a_destructor, reset),
        cmocka_unit_test_setup(discarded_data_is_not_uploaded_nor_downloaded, reset),
        cmocka_unit_test_setup(refresh_makes_the_next_kernel_upload_again, reset),
        cmocka_unit_test_setup(host_access_for_writing_makes_device_copies_stale, reset),
        cmocka_unit_test_setup(views_of_the_same_memory_share_their_data, reset),
        cmocka_unit_test_setup(a_larger_view_of_wrapped_memory_is_refused, reset),
        cmocka_unit_test_setup(every_reason_has_a_name, reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
