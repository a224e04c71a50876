/*
 * tests/unit/test_probes.c - the timing probes (runtime/core/probe.h), compiled
 * in here as cmake -DAMP_TIMING_PROBES=ON compiles them into the library:
 * each probe sums the time since the mark before it and counts its
 * passes, and the print lists them in the order first passed.
 */
#include <stdlib.h>
#include <time.h>

#include "test_util.h"

#include "core/probe.h"

static void pause_a_little(void)
{
    struct timespec t = {0, 200000}; /* 0.2 ms */
    nanosleep(&t, NULL);
}

static void probes_sum_each_step_and_print_in_the_order_first_passed(void **state)
{
    (void)state;
    for (int i = 0; i < 3; i++) {
        AMP__PROBE_START();
        pause_a_little();
        AMP__PROBE("first step");
        if (i == 2)
            AMP__PROBE("a step passed once");
        pause_a_little();
        AMP__PROBE("last step");
    }
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    amp__probe_print(out);
    fclose(out);
    const char *first = strstr(text, "first step");
    const char *once = strstr(text, "a step passed once");
    const char *last = strstr(text, "last step");
    assert_non_null(first);
    assert_non_null(once);
    assert_non_null(last);
    assert_true(first < last && last < once);
    /* Three passes of 0.2 ms or more each: the mean is at least 0.2 ms. */
    unsigned long long passes = 0;
    double ns = 0;
    assert_int_equal(sscanf(first + strlen("first step"), "%llu %lf", &passes, &ns), 2);
    assert_int_equal(passes, 3);
    assert_true(ns >= 200000.0);
    assert_int_equal(sscanf(once + strlen("a step passed once"), "%llu", &passes), 1);
    assert_int_equal(passes, 1);
    /* The sum of the probes that every pass passed leaves out the one. */
    assert_non_null(strstr(text, "the probes every pass passed"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(probes_sum_each_step_and_print_in_the_order_first_passed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
