/*
 * tests/test_accelerator.c - enumeration, the default accelerator, and
 * choosing one through AMP_DEVICE.
 */
#include <stdlib.h>

#include "test_util.h"

/* Each test starts from a fresh runtime, so that the default is chosen
 * again under the environment the test sets. */
static int fresh(void **state)
{
    (void)state;
    unsetenv("AMP_DEVICE");
    amp_shutdown();
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

static void set_default_works_only_before_first_use(void **state)
{
    (void)state;
    amp_accelerator *acc, *def;
    assert_amp_ok(amp_accelerator_get(0, &acc));
    assert_string_equal(amp_accelerator_default_reason(), "");
    assert_amp_ok(amp_accelerator_set_default(acc));
    assert_amp_ok(amp_accelerator_get_default(&def));
    assert_ptr_equal(def, acc);
    assert_string_equal(amp_accelerator_default_reason(), "set by amp_accelerator_set_default");
    assert_amp_ok(amp_accelerator_set_default(acc)); /* the same one again: fine */
    assert_amp_fails(amp_accelerator_set_default(NULL), AMP_ERROR_INVALID_ARGUMENT,
                     "not an accelerator");
    size_t n = 0;
    assert_amp_ok(amp_accelerator_count(&n));
    if (n > 1) {
        amp_accelerator *other;
        assert_amp_ok(amp_accelerator_get(1, &other));
        assert_amp_fails(amp_accelerator_set_default(other), AMP_ERROR_INVALID_OPERATION,
                         "already");
    }
}

static void the_default_says_why_it_was_chosen(void **state)
{
    (void)state;
    amp_accelerator *def;
    assert_amp_ok(amp_accelerator_get_default(&def));
    const char *why = amp_accelerator_default_reason();
    assert_true(strstr(why, "GPU") || strstr(why, "CPU") || strstr(why, "AMP_DEVICE"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(at_least_one_device_is_listed, fresh),
        cmocka_unit_test_setup(index_past_the_end_is_refused, fresh),
        cmocka_unit_test_setup(default_is_a_gpu_if_there_is_one_else_the_cpu, fresh),
        cmocka_unit_test_setup(amp_device_picks_by_index, fresh),
        cmocka_unit_test_setup(amp_device_picks_by_name_substring_in_any_case, fresh),
        cmocka_unit_test_setup(amp_device_that_matches_nothing_lists_the_devices, fresh),
        cmocka_unit_test_setup(default_view_belongs_to_default_accelerator, fresh),
        cmocka_unit_test_setup(null_arguments_are_refused, fresh),
        cmocka_unit_test_setup(set_default_works_only_before_first_use, fresh),
        cmocka_unit_test_setup(the_default_says_why_it_was_chosen, fresh),
    };
    return cmocka_run_group_tests(tests, NULL, fresh);
}
