/*
 * tests/device/test_accelerator.c - enumeration, the default accelerator, and
 * choosing one through AMP_DEVICE; the error model: each of C++ AMP's
 * exception cases provoked on purpose (through the real device where PoCL
 * can, else through a property of the accelerator set for the test or the
 * amp__clapi fault table), and the error callback.
 */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>

#include "test_util.h"

#include "core/testing.h"

/* Each test starts from a fresh runtime, so that the default is chosen
 * again under the environment the test sets. */
static int fresh(void **state)
{
    (void)state;
    unsetenv("AMP_DEVICE");
    unsetenv("AMP_SPLIT_CPU");
    amp__test_inject_fault(0, CL_SUCCESS);
    amp_set_error_callback(NULL, NULL);
    amp_shutdown();
    amp_transfer_reset_stats(); /* the process ledger outlives a shutdown */
    return 0;
}

static void at_least_one_device_is_listed(void **state)
{
    (void)state;
    size_t n = 0;
    assert_amp_ok(amp_accelerator_count(&n));
    assert_true(n >= 1);
    for (size_t i = 0; i < n; i++) {
        amp_accelerator *acc = NULL;
        amp_accelerator_info info;
        assert_amp_ok(amp_accelerator_get(i, &acc));
        assert_amp_ok(amp_accelerator_get_info(acc, &info));
        assert_true(strlen(info.description) > 0);
        assert_true(strncmp(info.device_path, "opencl:", 7) == 0);
        assert_true(info.dedicated_memory > 0);
        assert_true(info.max_tile_size >= 1);
        assert_true(info.tile_static_size > 0);
    }
}

/* compute_units is the device's own count; a CPU device split in two
 * (AMP_SPLIT_CPU=2, where it has two or more) has parts of half its units
 * each, since OpenCL splits it equally. */
static void compute_units_are_the_devices(void **state)
{
    (void)state;
    size_t n = 0;
    unsigned cpu_units = 0;
    assert_amp_ok(amp_accelerator_count(&n));
    for (size_t i = 0; i < n; i++) {
        amp_accelerator *acc = NULL;
        amp_accelerator_info info;
        assert_amp_ok(amp_accelerator_get(i, &acc));
        assert_amp_ok(amp_accelerator_get_info(acc, &info));
        cl_uint units = 0;
        assert_int_equal(clGetDeviceInfo(amp__test_cl_of_accelerator(acc).device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units,
                                         &units, NULL),
                         CL_SUCCESS);
        assert_true(info.compute_units >= 1);
        assert_int_equal(info.compute_units, units);
        if (info.is_emulated && cpu_units == 0)
            cpu_units = info.compute_units;
    }
    if (cpu_units < 2)
        return;
    setenv("AMP_SPLIT_CPU", "2", 1);
    amp_shutdown();
    assert_amp_ok(amp_accelerator_count(&n));
    for (size_t i = 0; i < n; i++) {
        amp_accelerator *acc = NULL;
        amp_accelerator_info info;
        assert_amp_ok(amp_accelerator_get(i, &acc));
        assert_amp_ok(amp_accelerator_get_info(acc, &info));
        if (info.is_emulated) {
            assert_int_equal(info.compute_units, cpu_units / 2);
            break;
        }
    }
}

static void index_past_the_end_is_refused(void **state)
{
    (void)state;
    size_t n = 0;
    amp_accelerator *acc = (amp_accelerator *)&n;
    assert_amp_ok(amp_accelerator_count(&n));
    assert_amp_fails(amp_accelerator_get(n, &acc), AMP_ERROR_INVALID_ARGUMENT, "out of range");
    assert_null(acc);
}

static void default_is_a_gpu_if_there_is_one_else_the_cpu(void **state)
{
    (void)state;
    size_t n = 0;
    int any_gpu = 0;
    assert_amp_ok(amp_accelerator_count(&n));
    for (size_t i = 0; i < n; i++) {
        amp_accelerator *acc;
        amp_accelerator_info info;
        assert_amp_ok(amp_accelerator_get(i, &acc));
        assert_amp_ok(amp_accelerator_get_info(acc, &info));
        any_gpu |= !info.is_emulated;
    }
    amp_accelerator *def = NULL;
    amp_accelerator_info info;
    assert_amp_ok(amp_accelerator_get_default(&def));
    assert_amp_ok(amp_accelerator_get_info(def, &info));
    assert_true(info.is_default);
    assert_int_equal(!info.is_emulated, any_gpu);
}

static void amp_device_picks_by_index(void **state)
{
    (void)state;
    size_t n = 0;
    assert_amp_ok(amp_accelerator_count(&n));
    amp_accelerator *last = NULL, *def = NULL;
    assert_amp_ok(amp_accelerator_get(n - 1, &last));
    char idx[16];
    snprintf(idx, sizeof idx, "%zu", n - 1);
    setenv("AMP_DEVICE", idx, 1);
    amp_shutdown();
    assert_amp_ok(amp_accelerator_get_default(&def));
    amp_accelerator_info a, b;
    assert_amp_ok(amp_accelerator_get(n - 1, &last));
    assert_amp_ok(amp_accelerator_get_info(def, &a));
    assert_amp_ok(amp_accelerator_get_info(last, &b));
    assert_string_equal(a.device_path, b.device_path);
}

static void amp_device_picks_by_name_substring_in_any_case(void **state)
{
    (void)state;
    amp_accelerator *first = NULL, *def = NULL;
    amp_accelerator_info info, chosen;
    assert_amp_ok(amp_accelerator_get(0, &first));
    assert_amp_ok(amp_accelerator_get_info(first, &info));
    /* Three letters of the device name, upper-cased. */
    char part[4] = {0};
    for (int i = 0; i < 3 && info.description[i]; i++)
        part[i] = (char)((info.description[i] >= 'a' && info.description[i] <= 'z')
                             ? info.description[i] - 32
                             : info.description[i]);
    /* The strings of info die with the runtime: keep the path. */
    char path[256];
    snprintf(path, sizeof path, "%s", info.device_path);
    setenv("AMP_DEVICE", part, 1);
    amp_shutdown();
    assert_amp_ok(amp_accelerator_get_default(&def));
    assert_amp_ok(amp_accelerator_get_info(def, &chosen));
    /* Device 0 matches, and it comes first. */
    assert_string_equal(chosen.device_path, path);
}

/* The docs' own example: AMP_DEVICE=pocl finds PoCL, whose platform is
 * called "Portable Computing Language", through its vendor ("The pocl
 * project"), version ("OpenCL 3.0 PoCL 3.1 ...") or ICD suffix ("POCL"). */
static void amp_device_pocl_finds_pocl_by_its_other_names(void **state)
{
    (void)state;
    size_t n = 0;
    assert_amp_ok(amp_accelerator_count(&n));
    char path[256] = "";
    for (size_t i = 0; i < n && !path[0]; i++) {
        amp_accelerator *acc;
        assert_amp_ok(amp_accelerator_get(i, &acc));
        char vendor[256] = "";
        clGetPlatformInfo(amp__test_cl_of_accelerator(acc).platform, CL_PLATFORM_VENDOR, sizeof vendor - 1, vendor, NULL);
        amp_accelerator_info info;
        assert_amp_ok(amp_accelerator_get_info(acc, &info));
        if (strstr(vendor, "pocl") && !strstr(info.platform, "pocl") &&
            !strstr(info.platform, "PoCL"))
            snprintf(path, sizeof path, "%s", info.device_path);
    }
    if (!path[0]) {
        print_message("no PoCL platform here whose name lacks \"pocl\": nothing to check\n");
        skip();
    }
    static const char *const spellings[] = {"pocl", "POCL", "PoCL"};
    for (int k = 0; k < 3; k++) {
        setenv("AMP_DEVICE", spellings[k], 1);
        amp_shutdown();
        amp_accelerator *def = NULL;
        amp_accelerator_info chosen;
        assert_amp_ok(amp_accelerator_get_default(&def));
        assert_amp_ok(amp_accelerator_get_info(def, &chosen));
        assert_string_equal(chosen.device_path, path);
        char reason[32];
        snprintf(reason, sizeof reason, "AMP_DEVICE=%s", spellings[k]);
        assert_string_equal(amp_accelerator_get_default_reason(), reason);
    }
}

static void amp_device_that_matches_nothing_lists_the_devices(void **state)
{
    (void)state;
    setenv("AMP_DEVICE", "no-such-device-anywhere", 1);
    amp_shutdown();
    amp_accelerator *def = NULL;
    assert_amp_fails(amp_accelerator_get_default(&def), AMP_ERROR_NO_DEVICE,
                     "AMP_DEVICE=\"no-such-device-anywhere\" matches no device");
    assert_non_null(strstr(amp_last_error(), "0: "));
    setenv("AMP_DEVICE", "999", 1);
    amp_shutdown();
    assert_amp_fails(amp_accelerator_get_default(&def), AMP_ERROR_NO_DEVICE, "matches no device");
}

static void default_view_belongs_to_default_accelerator(void **state)
{
    (void)state;
    amp_accelerator *def = NULL;
    amp_accelerator_view *view = NULL;
    assert_amp_ok(amp_accelerator_get_default(&def));
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &view));
    assert_ptr_equal(amp_accelerator_view_get_accelerator(view), def);
    assert_amp_ok(amp_accelerator_view_wait(view));
    assert_null(amp_accelerator_view_get_accelerator(NULL));
}

static void null_arguments_are_refused(void **state)
{
    (void)state;
    amp_accelerator_info info;
    assert_amp_fails(amp_accelerator_count(NULL), AMP_ERROR_INVALID_ARGUMENT, "count is NULL");
    assert_amp_fails(amp_accelerator_get(0, NULL), AMP_ERROR_INVALID_ARGUMENT, "out is NULL");
    assert_amp_fails(amp_accelerator_get_default(NULL), AMP_ERROR_INVALID_ARGUMENT, "out is NULL");
    assert_amp_fails(amp_accelerator_get_info(NULL, &info), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    assert_amp_fails(amp_accelerator_get_default_view(NULL, NULL), AMP_ERROR_INVALID_ARGUMENT,
                     "out is NULL");
    assert_amp_fails(amp_accelerator_view_wait(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
}

/* Two accelerators to choose between: the CPU device split in two
 * (AMP_SPLIT_CPU=2) when there is no second device; skips where neither. */
static void two_accelerators(amp_accelerator **a, amp_accelerator **b)
{
    setenv("AMP_SPLIT_CPU", "2", 1);
    amp_shutdown();
    size_t n = 0;
    assert_amp_ok(amp_accelerator_count(&n));
    if (n < 2) {
        print_message("[  NOTE    ] one accelerator only, even with AMP_SPLIT_CPU=2\n");
        skip();
    }
    assert_amp_ok(amp_accelerator_get(0, a));
    assert_amp_ok(amp_accelerator_get(1, b));
}

static void set_default_works_only_before_first_use(void **state)
{
    (void)state;
    amp_accelerator *a, *b, *def;
    two_accelerators(&a, &b);
    assert_string_equal(amp_accelerator_get_default_reason(), "");
    assert_amp_ok(amp_accelerator_set_default(a));
    assert_string_equal(amp_accelerator_get_default_reason(), "set by amp_accelerator_set_default");
    /* Not used yet: a later call replaces the choice. */
    assert_amp_ok(amp_accelerator_set_default(b));
    assert_amp_ok(amp_accelerator_set_default(b)); /* the same one again: fine */
    assert_amp_fails(amp_accelerator_set_default(NULL), AMP_ERROR_INVALID_ARGUMENT,
                     "the accelerator is NULL");
    assert_amp_ok(amp_accelerator_get_default(&def));
    assert_ptr_equal(def, b);
    /* Used now: fixed. */
    assert_amp_fails(amp_accelerator_set_default(a), AMP_ERROR_INVALID_OPERATION,
                     "already");
    assert_non_null(strstr(amp_last_error(), "has been used"));
    assert_amp_ok(amp_accelerator_set_default(b));
    assert_amp_ok(amp_accelerator_get_default(&def));
    assert_ptr_equal(def, b);
}

static void a_kernel_on_the_default_fixes_it(void **state)
{
    (void)state;
    amp_accelerator *a, *b;
    two_accelerators(&a, &b);
    assert_amp_ok(amp_accelerator_set_default(a));
    int data[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v), { v(i[0]) = 1; }));
    assert_amp_fails(amp_accelerator_set_default(b), AMP_ERROR_INVALID_OPERATION, "has been used");
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(data[3], 1);
}

/* AMP_DEVICE's choice is made the first time the default is asked for,
 * and is then fixed like any other. */
static void amp_devices_choice_is_fixed_once_used(void **state)
{
    (void)state;
    amp_accelerator *a, *b, *def;
    two_accelerators(&a, &b);
    setenv("AMP_DEVICE", "1", 1);
    assert_amp_ok(amp_accelerator_get_default(&def));
    assert_ptr_equal(def, b);
    assert_amp_fails(amp_accelerator_set_default(a), AMP_ERROR_INVALID_OPERATION,
                     "AMP_DEVICE=1");
}

static void the_default_says_why_it_was_chosen(void **state)
{
    (void)state;
    amp_accelerator *def;
    assert_amp_ok(amp_accelerator_get_default(&def));
    const char *why = amp_accelerator_get_default_reason();
    assert_true(strstr(why, "GPU") || strstr(why, "CPU") || strstr(why, "AMP_DEVICE"));
}


/* ---- The error model: one status per C++ AMP exception ---- */

/* The default accelerator's record, to set a property for one test. */
static amp_accelerator *default_acc(void)
{
    amp_accelerator *acc = NULL;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    return acc;
}

static void no_device_says_how_to_install_pocl(void **state)
{
    (void)state;
    /* What the ICD loader answers when no platform is installed. */
    amp__test_inject_fault(1, CL_PLATFORM_NOT_FOUND_KHR);
    size_t n = 9;
    assert_amp_fails(amp_accelerator_count(&n), AMP_ERROR_NO_DEVICE, "No OpenCL device was found");
    amp__test_inject_fault(0, CL_SUCCESS);
    assert_int_equal(n, 0);
    assert_non_null(strstr(amp_last_error(), "apt-get install pocl-opencl-icd"));
    amp_accelerator *acc;
    assert_amp_fails(amp_accelerator_get_default(&acc), AMP_ERROR_NO_DEVICE, "pocl-opencl-icd");
    amp_shutdown();
    assert_amp_ok(amp_accelerator_count(&n));
    assert_true(n >= 1);
}

static void an_array_over_the_largest_allocation_is_out_of_memory(void **state)
{
    (void)state;
    amp_accelerator_info info;
    assert_amp_ok(amp_accelerator_get_info(default_acc(), &info));
    assert_true(info.max_allocation > 0 && info.max_allocation <= info.dedicated_memory);
    /* One row of 4096 ints more than the largest allocation: device memory
     * only, nothing of that size on the host. */
    int rows = (int)(info.max_allocation / (4096 * sizeof(int))) + 1;
    amp_array *a = (amp_array *)&rows;
    char want[160];
    snprintf(want, sizeof want, "An array needs %zu bytes on %s", (size_t)rows * 4096 * sizeof(int),
             info.description);
    assert_amp_fails(amp_array_create(AMP_INT, amp_extent_2d(rows, 4096), NULL, &a),
                     AMP_ERROR_OUT_OF_MEMORY, want);
    assert_null(a);
    if (info.max_allocation < info.dedicated_memory)
        assert_non_null(strstr(amp_last_error(), "CL_DEVICE_MAX_MEM_ALLOC_SIZE"));
}

static void each_cause_of_an_invalid_compute_domain(void **state)
{
    (void)state;
    int data[16] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), data, &v));
    /* A dimension <= 0. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 0), i, AMP_CAPTURE(v), { v(i[0]) = 1; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "dimension 1 of the extent is 0");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(-16), i, AMP_CAPTURE(v), { v(i) = 1; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "dimension 0 of the extent is -16");
    /* An extent its tile does not divide. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(16), 5), t,
                                           AMP_CAPTURE(v), { v(t.global[0]) = 1; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                     "the extent 16 is not divisible by the tile 5");
    /* More threads than the device can index: 2^93 on any device... */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_3d(INT_MAX, INT_MAX, INT_MAX), i,
                                           AMP_CAPTURE(v), { v(0) = i[0]; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "threads are more than");
    /* ...and 2^32 on a device of 32-bit addresses (this one, for the test). */
    amp_accelerator *acc = default_acc();
    test_device_caps caps = amp__test_device_caps(acc), narrow = caps;
    narrow.address_bits = 32;
    amp__test_set_device_caps(acc, narrow);
    amp_clear_error();
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_2d(65536, 65536), i, AMP_CAPTURE(v), { v(0) = i[0]; });
    amp__test_set_device_caps(acc, caps);
    assert_int_equal(st, AMP_ERROR_INVALID_COMPUTE_DOMAIN);
    assert_non_null(strstr(amp_last_error(), "4294967296 threads are more than"));
    assert_non_null(strstr(amp_last_error(), "(32-bit addresses)"));
    assert_int_equal(transfers_now().uploads, 0);
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(data[0], 0);
}

static void double_and_atomics_missing_are_unsupported_features(void **state)
{
    (void)state;
    /* PoCL has both: the accelerator is told it has neither, for the test. */
    amp_accelerator *acc = default_acc();
    test_device_caps caps = amp__test_device_caps(acc), without = caps;
    int data[8] = {0};
    double scale = 2.0;
    amp_array_view *v;
    amp_array *d = NULL;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), data, &v));
    without.fp64 = 0;
    amp__test_set_device_caps(acc, without);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), i, AMP_CAPTURE(v, scale),
                                           { v(i) = (int)scale; }),
                     AMP_ERROR_UNSUPPORTED_FEATURE, "'scale' is double");
    assert_non_null(strstr(amp_last_error(), "has no double precision"));
    assert_amp_fails(amp_array_create(AMP_DOUBLE, amp_extent_1d(8), NULL, &d),
                     AMP_ERROR_UNSUPPORTED_FEATURE, "cannot hold an array of double");
    without.fp64 = caps.fp64;
    without.atomics = 0;
    amp__test_set_device_caps(acc, without);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), i, AMP_CAPTURE(v),
                                           { atomic_fetch_add(&v(0), 1); }),
                     AMP_ERROR_UNSUPPORTED_FEATURE, "uses atomics");
    assert_non_null(strstr(amp_last_error(), "cl_khr_global_int32_base_atomics"));
    amp__test_set_device_caps(acc, caps);
    amp_accelerator_info info;
    assert_amp_ok(amp_accelerator_get_info(acc, &info));
    assert_int_equal(info.supports_atomics, 1);
    /* With them back, the same kernel runs. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), i, AMP_CAPTURE(v),
                                        { atomic_fetch_add(&v(0), 1); }));
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(data[0], 8);
}

static void device_limits_each_get_their_own_message(void **state)
{
    (void)state;
    amp_accelerator *acc = default_acc();
    amp_accelerator_info info;
    assert_amp_ok(amp_accelerator_get_info(acc, &info));
    float out[16] = {0};
    amp_array_view *o, *m;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(16), out, &o));
    /* A tile over the largest work-group. */
    int side = 1;
    while ((size_t)side * (size_t)side <= info.max_tile_size)
        side *= 2;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(side, side), side, side),
                                           t, AMP_CAPTURE(o), { o(0) = t.local[0]; }),
                     AMP_ERROR_DEVICE_LIMIT, "CL_DEVICE_MAX_WORK_GROUP_SIZE");
    /* tile_static memory over the device's local memory: twice it. */
    const long long WORDS = (long long)(info.tile_static_size / sizeof(float)) * 2;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(16), 16), t,
                                           AMP_CAPTURE(o, AMP_CONST(WORDS)), {
                                               tile_static float big[WORDS];
                                               big[t.local[0]] = 1.0f;
                                               t.barrier.wait();
                                               o(t.global[0]) = big[WORDS - 1 - t.local[0]];
                                           }),
                     AMP_ERROR_DEVICE_LIMIT, "bytes of tile_static memory");
    /* Arguments over CL_DEVICE_MAX_PARAMETER_SIZE (47 bytes here, for the
     * test): each view's buffer, 8 bytes, and the launch's values, 32: a
     * rank-2 view's offset, stride and extent (4 + 4 + 2 x 4), a rank-1
     * view's offset and extent (4 + 4), and the domain (2 x 4). */
    float grid[16] = {0};
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(4, 4), grid, &m));
    test_device_caps caps = amp__test_device_caps(acc), small = caps;
    small.max_arg_bytes = 47;
    amp__test_set_device_caps(acc, small);
    amp_clear_error();
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 4), i, AMP_CAPTURE(m, o), { m(i) = o(i[0]); });
    amp__test_set_device_caps(acc, caps);
    assert_int_equal(st, AMP_ERROR_DEVICE_LIMIT);
    assert_non_null(strstr(amp_last_error(), "the kernel's 2 captures take 48 bytes of arguments"));
    assert_non_null(strstr(amp_last_error(), "more than the 47 bytes"));
    assert_non_null(strstr(amp_last_error(), "CL_DEVICE_MAX_PARAMETER_SIZE"));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 4), i, AMP_CAPTURE(m, o), { m(i) = o(i[0]) + 1.0f; }));
    /* The values are counted as the kernel declares them, padding too:
     * the index<2> (an int2) first, the view's offset and extent and the
     * int after it, 20 bytes, the whole rounded up to a multiple of 8: 24,
     * and 32 with the view's buffer, where the fields alone take 28. */
    int n = 3;
    amp_index at = amp_index_2d(1, 2);
    for (int limit = 31; limit <= 32; limit++) {
        small.max_arg_bytes = (size_t)limit;
        amp__test_set_device_caps(acc, small);
        amp_clear_error();
        st = AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(16), 16), t,
                                   AMP_CAPTURE(o, n, at), { o(t.global) = n + at[0] * at[1]; });
        amp__test_set_device_caps(acc, caps);
        if (limit == 31) {
            assert_int_equal(st, AMP_ERROR_DEVICE_LIMIT);
            assert_non_null(strstr(amp_last_error(), "take 32 bytes of arguments"));
        } else {
            assert_amp_ok(st);
        }
    }
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_true(out[15] == 5.0f);
    assert_amp_ok(amp_array_view_release(m));
    assert_amp_ok(amp_array_view_release(o));
    assert_true(grid[15] == 1.0f);
}

static void a_lost_device_removes_the_accelerator_until_shutdown(void **state)
{
    (void)state;
    int data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    amp_accelerator_view *av, *other;
    amp_array_view *v;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), data, &v));
    /* A wait that ends in CL_OUT_OF_RESOURCES: NVIDIA's answer after a
     * kernel aborted. */
    amp__test_inject_fault(1, CL_OUT_OF_RESOURCES);
    assert_amp_fails(amp_accelerator_view_wait(av), AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                     "clFinish failed with CL_OUT_OF_RESOURCES");
    amp__test_inject_fault(0, CL_SUCCESS);
    assert_non_null(strstr(amp_last_error(), "is no longer usable"));
    /* From now on, every call on the accelerator says so. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), i, AMP_CAPTURE(v), { v(i) = 0; }),
                     AMP_ERROR_ACCELERATOR_VIEW_REMOVED, "was removed: an earlier wait");
    assert_amp_fails(amp_accelerator_view_wait(av), AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                     "CL_OUT_OF_RESOURCES");
    assert_amp_fails(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &other),
                     AMP_ERROR_ACCELERATOR_VIEW_REMOVED, "was removed");
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(data[7], 8);
    /* A device that is no longer available, seen at a flush. */
    amp_shutdown();
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    amp__test_inject_fault(1, CL_DEVICE_NOT_AVAILABLE);
    assert_amp_fails(amp_accelerator_view_flush(av), AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                     "clFlush failed with CL_DEVICE_NOT_AVAILABLE");
    amp__test_inject_fault(0, CL_SUCCESS);
    amp_shutdown();
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    assert_amp_ok(amp_accelerator_view_wait(av));
}

static void other_opencl_failures_are_runtime_errors(void **state)
{
    (void)state;
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    amp__test_inject_fault(1, CL_INVALID_COMMAND_QUEUE);
    assert_amp_fails(amp_accelerator_view_flush(av), AMP_ERROR_RUNTIME,
                     "Submitting the queue: clFlush failed with CL_INVALID_COMMAND_QUEUE (-36)");
    amp__test_inject_fault(0, CL_SUCCESS);
    /* Not a removal: the view goes on. */
    assert_amp_ok(amp_accelerator_view_wait(av));
}

/* ---- The error callback ---- */

static struct {
    int calls;
    amp_status status;
    char message[512];
    pthread_t thread;
    size_t devices; /* what a call of the library from the callback gave */
} seen;

static void record(amp_status status, const char *message, void *user)
{
    seen.calls++;
    seen.status = status;
    snprintf(seen.message, sizeof seen.message, "%s", message);
    seen.thread = pthread_self();
    /* The library is usable from the callback: it runs after the lock. */
    amp_accelerator_count(&seen.devices);
    *(int *)user += 1;
}

static void the_callback_hears_each_failed_call_once(void **state)
{
    (void)state;
    int mine = 0;
    memset(&seen, 0, sizeof seen);
    amp_set_error_callback(record, &mine);
    size_t n = 0;
    assert_amp_ok(amp_accelerator_count(&n));
    assert_int_equal(seen.calls, 0);

    /* A failure found before the lock is taken... */
    assert_amp_fails(amp_accelerator_count(NULL), AMP_ERROR_INVALID_ARGUMENT, "count is NULL");
    assert_int_equal(seen.calls, 1);
    assert_int_equal(seen.status, AMP_ERROR_INVALID_ARGUMENT);
    assert_string_equal(seen.message, amp_last_error());
    assert_true(pthread_equal(seen.thread, pthread_self()));
    assert_int_equal(mine, 1);

    /* ...and one found under it, reported after, to a callback that calls
     * the library. */
    int data[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &v));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(4), 3), t,
                                           AMP_CAPTURE(v), { v(t.global[0]) = 1; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "not divisible");
    assert_int_equal(seen.calls, 2);
    assert_int_equal(seen.status, AMP_ERROR_INVALID_COMPUTE_DOMAIN);
    assert_string_equal(seen.message, amp_last_error());
    assert_int_equal(seen.devices, n);

    /* An asynchronous copy's failure, once, on the thread that waits: the
     * download its own thread makes fails. */
    int other[4] = {0};
    amp_array_view *w;
    amp_completion *c;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), other, &w));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v), { v(idx) = 7; }));
    amp__test_inject_fault(1, CL_OUT_OF_HOST_MEMORY);
    assert_amp_ok(AMP_COPY_ASYNC(v, w, &c));
    amp_status failed = amp_completion_wait(c);
    amp__test_inject_fault(0, CL_SUCCESS);
    assert_int_equal(failed, AMP_ERROR_OUT_OF_MEMORY);
    assert_int_equal(seen.calls, 3);
    assert_true(pthread_equal(seen.thread, pthread_self()));
    assert_int_equal(amp_completion_release(c), AMP_ERROR_OUT_OF_MEMORY);
    assert_int_equal(seen.calls, 4);

    /* Off again: nothing more. */
    amp_set_error_callback(NULL, NULL);
    assert_amp_fails(amp_accelerator_count(NULL), AMP_ERROR_INVALID_ARGUMENT, "count is NULL");
    assert_int_equal(seen.calls, 4);
    assert_int_equal(mine, 4);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(w));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(at_least_one_device_is_listed, fresh),
        cmocka_unit_test_setup(compute_units_are_the_devices, fresh),
        cmocka_unit_test_setup(index_past_the_end_is_refused, fresh),
        cmocka_unit_test_setup(default_is_a_gpu_if_there_is_one_else_the_cpu, fresh),
        cmocka_unit_test_setup(amp_device_picks_by_index, fresh),
        cmocka_unit_test_setup(amp_device_picks_by_name_substring_in_any_case, fresh),
        cmocka_unit_test_setup(amp_device_pocl_finds_pocl_by_its_other_names, fresh),
        cmocka_unit_test_setup(amp_device_that_matches_nothing_lists_the_devices, fresh),
        cmocka_unit_test_setup(default_view_belongs_to_default_accelerator, fresh),
        cmocka_unit_test_setup(null_arguments_are_refused, fresh),
        cmocka_unit_test_setup(set_default_works_only_before_first_use, fresh),
        cmocka_unit_test_setup(a_kernel_on_the_default_fixes_it, fresh),
        cmocka_unit_test_setup(amp_devices_choice_is_fixed_once_used, fresh),
        cmocka_unit_test_setup(the_default_says_why_it_was_chosen, fresh),
        cmocka_unit_test_setup(no_device_says_how_to_install_pocl, fresh),
        cmocka_unit_test_setup(an_array_over_the_largest_allocation_is_out_of_memory, fresh),
        cmocka_unit_test_setup(each_cause_of_an_invalid_compute_domain, fresh),
        cmocka_unit_test_setup(double_and_atomics_missing_are_unsupported_features, fresh),
        cmocka_unit_test_setup(device_limits_each_get_their_own_message, fresh),
        cmocka_unit_test_setup(a_lost_device_removes_the_accelerator_until_shutdown, fresh),
        cmocka_unit_test_setup(other_opencl_failures_are_runtime_errors, fresh),
        cmocka_unit_test_setup(the_callback_hears_each_failed_call_once, fresh),
    };
    return cmocka_run_group_tests(tests, NULL, fresh);
}
