/*
 * tests/device/test_profile.c - AMP_PROFILE: per-kernel calls, device time and
 * bytes moved, read from the launches' events without a wait per launch;
 * amp_profile_get_entries and amp_profile_reset_entries; nothing of it when it is off.
 */
#include <stdlib.h>

#include "test_util.h"

#include "core/testing.h"

static int profiling_on(void **state)
{
    (void)state;
    unsetenv("AMP_SPLIT_CPU");
    setenv("AMP_PROFILE", "1", 1);
    amp_shutdown();
    amp_profile_reset_entries();
    amp_transfer_reset_stats();
    return 0;
}

static int profiling_off(void **state)
{
    (void)state;
    unsetenv("AMP_SPLIT_CPU");
    unsetenv("AMP_PROFILE");
    amp_shutdown();
    return 0;
}

/* The entry of the kernel named after this file and line, or fail. */
static amp_profile_entry entry_at(const amp_profile_entry *e, size_t n, int line)
{
    char name[64];
    snprintf(name, sizeof name, "amp_test_profile_%d", line);
    for (size_t i = 0; i < n; i++)
        if (strcmp(e[i].kernel, name) == 0)
            return e[i];
    fail_msg("no profile entry %s among %zu", name, n);
    return e[0];
}

static void each_kernel_gets_its_calls_time_and_bytes(void **state)
{
    (void)state;
    enum { N = 256 };
    int a[N] = {0};
    float b[N] = {0};
    amp_array_view *va, *vb;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), a, &va));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), b, &vb));
    int line_a = 0, line_b = 0;
    for (int k = 0; k < 3; k++) {
        line_a = __LINE__ + 1;
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), i, AMP_CAPTURE(va), { va(i) += i[0]; }));
    }
    for (int k = 0; k < 2; k++) {
        line_b = __LINE__ + 1;
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), i, AMP_CAPTURE(va, vb), { vb(i) = va(i) * 0.5f; }));
    }
    size_t n = 0;
    amp_profile_entry e[4];
    assert_amp_ok(amp_profile_get_entries(e, 4, &n));
    assert_int_equal(n, 2);
    /* In the order of their first launch. */
    assert_string_equal(e[0].kernel, entry_at(e, n, line_a).kernel);
    amp_profile_entry ka = entry_at(e, n, line_a), kb = entry_at(e, n, line_b);
    assert_non_null(strstr(ka.file, "test_profile.c"));
    assert_int_equal(ka.line, line_a);
    assert_int_equal(kb.line, line_b);
    assert_int_equal(ka.calls, 3);
    assert_int_equal(kb.calls, 2);
    assert_true(ka.device_ns > 0);
    assert_true(kb.device_ns > 0);
    assert_int_equal(ka.mean_ns, ka.device_ns / 3);
    assert_int_equal(kb.mean_ns, kb.device_ns / 2);
    /* va went up for a's first launch only; vb for b's first. */
    assert_int_equal(ka.bytes_to_device, sizeof a);
    assert_int_equal(kb.bytes_to_device, sizeof b);
    assert_int_equal(ka.bytes_to_host, 0);
    assert_int_equal(kb.bytes_to_host, 0);
    assert_amp_ok(amp_array_view_release(va));
    assert_amp_ok(amp_array_view_release(vb));
    for (int i = 0; i < N; i++) {
        assert_int_equal(a[i], 3 * i);
        assert_true(b[i] == (float)(3 * i) * 0.5f);
    }
}

static void events_are_read_when_the_queue_is_waited_on_not_at_launch(void **state)
{
    (void)state;
    int a[64] = {0};
    amp_array_view *v;
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    cl_command_queue_properties props = 0;
    clGetCommandQueueInfo(amp__test_cl_of_view(av).queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    assert_true(props & CL_QUEUE_PROFILING_ENABLE);
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(64), a, &v));
    for (int k = 0; k < 5; k++)
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(64), i, AMP_CAPTURE(v), { v(i) += 1; }));
    /* Five launches, five events, none read yet. */
    assert_int_equal(amp__test_profile_pending(), 5);
    assert_amp_ok(amp_accelerator_view_wait(av));
    assert_int_equal(amp__test_profile_pending(), 0);
    size_t n = 0;
    amp_profile_entry e;
    assert_amp_ok(amp_profile_get_entries(&e, 1, &n));
    assert_int_equal(n, 1);
    assert_int_equal(e.calls, 5);
    assert_true(e.device_ns > 0);
    assert_amp_ok(amp_array_view_release(v));
}

static void reset_starts_every_figure_from_zero(void **state)
{
    (void)state;
    int a[16] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), a, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), i, AMP_CAPTURE(v), { v(i) = 1; }));
    size_t n = 0;
    assert_amp_ok(amp_profile_get_entries(NULL, 0, &n));
    assert_int_equal(n, 1);
    amp_profile_reset_entries();
    assert_amp_ok(amp_profile_get_entries(NULL, 0, &n));
    assert_int_equal(n, 0);
    int line = __LINE__ + 1;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), i, AMP_CAPTURE(v), { v(i) += 2; }));
    amp_profile_entry e[2];
    assert_amp_ok(amp_profile_get_entries(e, 2, &n));
    assert_int_equal(n, 1);
    assert_int_equal(e[0].line, line);
    assert_int_equal(e[0].calls, 1);
    assert_int_equal(e[0].bytes_to_device, 0); /* the data was on the device already */
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(a[5], 3);
}

static void fewer_entries_than_kernels_are_filled_and_all_counted(void **state)
{
    (void)state;
    int a[8] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), a, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), i, AMP_CAPTURE(v), { v(i) = 1; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), i, AMP_CAPTURE(v), { v(i) += 1; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), i, AMP_CAPTURE(v), { v(i) *= 5; }));
    amp_profile_entry e[2];
    memset(e, 0, sizeof e);
    size_t n = 0;
    assert_amp_ok(amp_profile_get_entries(e, 1, &n));
    assert_int_equal(n, 3);
    assert_non_null(e[0].kernel);
    assert_null(e[1].kernel);
    assert_amp_fails(amp_profile_get_entries(e, 2, NULL), AMP_ERROR_INVALID_ARGUMENT,
                     "count is NULL");
    assert_amp_fails(amp_profile_get_entries(NULL, 2, &n), AMP_ERROR_INVALID_ARGUMENT,
                     "entries is NULL");
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(a[7], 10);
}

static void data_from_another_accelerator_counts_as_bytes_to_host(void **state)
{
    (void)state;
    setenv("AMP_SPLIT_CPU", "2", 1);
    amp_shutdown();
    size_t count = 0;
    if (amp_accelerator_count(&count) != AMP_OK || count < 2) {
        print_message("[  NOTE    ] no second accelerator here: %s\n", amp_last_error());
        skip();
    }
    amp_accelerator *acc0, *acc1;
    amp_accelerator_view *v0, *v1;
    assert_amp_ok(amp_accelerator_get(0, &acc0));
    assert_amp_ok(amp_accelerator_get(1, &acc1));
    assert_amp_ok(amp_accelerator_get_default_view(acc0, &v0));
    assert_amp_ok(amp_accelerator_get_default_view(acc1, &v1));
    int a[32] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(32), a, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(v0, amp_extent_1d(32), i, AMP_CAPTURE(v), { v(i) = 4; }));
    int line = __LINE__ + 1;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(v1, amp_extent_1d(32), i, AMP_CAPTURE(v), { v(i) += 1; }));
    amp_profile_entry e[2];
    size_t n = 0;
    assert_amp_ok(amp_profile_get_entries(e, 2, &n));
    assert_int_equal(n, 2);
    amp_profile_entry k = entry_at(e, n, line);
    assert_int_equal(k.bytes_to_host, sizeof a);
    assert_int_equal(k.bytes_to_device, sizeof a);
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(a[31], 5);
}

static void with_profiling_off_nothing_is_kept(void **state)
{
    (void)state;
    int a[8] = {0};
    amp_array_view *v;
    amp_accelerator_view *av;
    assert_int_equal(amp_profile_is_enabled(), 0);
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    cl_command_queue_properties props = CL_QUEUE_PROFILING_ENABLE;
    clGetCommandQueueInfo(amp__test_cl_of_view(av).queue, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL);
    assert_int_equal(props & CL_QUEUE_PROFILING_ENABLE, 0);
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), a, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), i, AMP_CAPTURE(v), { v(i) = 2; }));
    assert_int_equal(amp__test_profile_pending(), 0);
    size_t n = 7;
    assert_amp_fails(amp_profile_get_entries(NULL, 0, &n), AMP_ERROR_INVALID_OPERATION,
                     "Set AMP_PROFILE=1 in the environment");
    assert_int_equal(n, 0);
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(a[0], 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(each_kernel_gets_its_calls_time_and_bytes, profiling_on),
        cmocka_unit_test_setup(events_are_read_when_the_queue_is_waited_on_not_at_launch, profiling_on),
        cmocka_unit_test_setup(reset_starts_every_figure_from_zero, profiling_on),
        cmocka_unit_test_setup(fewer_entries_than_kernels_are_filled_and_all_counted, profiling_on),
        cmocka_unit_test_setup(data_from_another_accelerator_counts_as_bytes_to_host, profiling_on),
        cmocka_unit_test_setup(with_profiling_off_nothing_is_kept, profiling_off),
    };
    return cmocka_run_group_tests(tests, NULL, profiling_off);
}
