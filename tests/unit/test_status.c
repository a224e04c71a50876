/*
 * tests/unit/test_status.c - status names and the thread-local last error.
 */
#include <pthread.h>

#include "test_util.h"

static void every_status_has_a_name(void **state)
{
    (void)state;
    assert_string_equal(amp_status_name(AMP_OK), "AMP_OK");
    assert_string_equal(amp_status_name(AMP_ERROR_INVALID_COMPUTE_DOMAIN),
                        "AMP_ERROR_INVALID_COMPUTE_DOMAIN");
    for (int s = AMP_ERROR_KERNEL_CHECK; s <= AMP_OK; s++)
        assert_string_not_equal(amp_status_name((amp_status)s), "AMP_STATUS_UNKNOWN");
    assert_string_equal(amp_status_name((amp_status)42), "AMP_STATUS_UNKNOWN");
}

static void failed_call_sets_message_and_clear_empties_it(void **state)
{
    (void)state;
    amp_clear_error();
    assert_string_equal(amp_last_error(), "");
    assert_int_equal(amp_array_view_synchronize(NULL), AMP_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(amp_last_error(), "amp_array_view_synchronize"));
    amp_clear_error();
    assert_string_equal(amp_last_error(), "");
}

static void *fail_in_thread(void *arg)
{
    (void)arg;
    amp_array_view *v = NULL;
    amp_status st = amp_array_view_create((amp_elem_type)99, amp_extent_1d(4), &v, &v);
    return (void *)(intptr_t)(st == AMP_ERROR_INVALID_ARGUMENT &&
                              strstr(amp_last_error(), "element type") != NULL);
}

static void last_error_is_per_thread(void **state)
{
    (void)state;
    amp_clear_error();
    pthread_t t;
    void *ok = NULL;
    assert_int_equal(pthread_create(&t, NULL, fail_in_thread, NULL), 0);
    pthread_join(t, &ok);
    assert_true(ok != NULL);
    /* The other thread's failure left this thread's message alone. */
    assert_string_equal(amp_last_error(), "");
}

static void version_matches_header(void **state)
{
    (void)state;
    assert_string_equal(amp_version(), AMP_VERSION_STRING);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_status_has_a_name),
        cmocka_unit_test(failed_call_sets_message_and_clear_empties_it),
        cmocka_unit_test(last_error_is_per_thread),
        cmocka_unit_test(version_matches_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
