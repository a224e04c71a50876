/*
 * tests/unit/test_clock.c - the timeline's clock (runtime/core/clock.h),
 * compiled in here: its readings are CLOCK_MONOTONIC's, within a few
 * microseconds, never go back in a thread, and come from the time-stamp
 * counter exactly where the kernel's clocksource is "tsc" (on x86-64),
 * whichever way they are read.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

#include "core/clock.h"
#include "core/testing.h"

/* A reading may be this far from the system's clock: the anchor's pair
 * and the rate's error, with room for an interrupt between readings. */
#define SLACK_NS 5000

static int64_t system_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void sleep_ns(long ns)
{
    struct timespec t = {ns / 1000000000, ns % 1000000000};
    nanosleep(&t, NULL);
}

/* The test's own file that stands for the kernel's clocksource. */
static const char *source_path(void)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/amp-test-clocksource-%d", (int)getpid());
    return path;
}

/* A file that says what the kernel's clocksource is. */
static const char *clocksource(const char *name)
{
    const char *path = source_path();
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%s\n", name);
    fclose(f);
    return path;
}

/* Readings over some 60 ms, in bursts and after sleeps that cross the
 * measurement's 20 ms and the anchors' millisecond: each between the
 * system's clock before and after it, never before the one before. */
static void *check_readings(void *unused)
{
    (void)unused;
    int64_t last = 0;
    for (int step = 0; step < 300; step++) {
        for (int i = 0; i < 200; i++) {
            int64_t before = system_ns();
            int64_t now = amp__clock_ns();
            int64_t after = system_ns();
            if (now < last || now < before - SLACK_NS || now > after + SLACK_NS) {
                fprintf(stderr, "reading %lld: last %lld, the system's clock %lld to %lld\n",
                        (long long)now, (long long)last, (long long)before, (long long)after);
                return (void *)1;
            }
            last = now;
        }
        sleep_ns(step % 7 == 0 ? 1500000 : 100000);
    }
    return NULL;
}

static void readings_follow_the_system_clock(void)
{
    assert_null(check_readings(NULL));
}

static void with_the_counter_where_the_kernel_keeps_its_clock_by_it(void **state)
{
    (void)state;
    amp__test_clock_source_file(clocksource("tsc"));
    readings_follow_the_system_clock();
#if defined(__x86_64__)
    assert_string_equal(amp__clock_way(), "tsc");
#else
    assert_string_equal(amp__clock_way(), "clock_gettime");
#endif
}

static void with_clock_gettime_where_the_kernel_uses_another_clocksource(void **state)
{
    (void)state;
    amp__test_clock_source_file(clocksource("kvm-clock"));
    readings_follow_the_system_clock();
    assert_string_equal(amp__clock_way(), "clock_gettime");
    amp__test_clock_source_file("/nonexistent/current_clocksource");
    readings_follow_the_system_clock();
    assert_string_equal(amp__clock_way(), "clock_gettime");
}

static void threads_read_it_each_from_anchors_of_their_own(void **state)
{
    (void)state;
    amp__test_clock_source_file(clocksource("tsc"));
    pthread_t threads[4];
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&threads[i], NULL, check_readings, NULL), 0);
    for (int i = 0; i < 4; i++) {
        void *failed = (void *)1;
        assert_int_equal(pthread_join(threads[i], &failed), 0);
        assert_null(failed);
    }
}

static int remove_file(void **state)
{
    (void)state;
    remove(source_path());
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(with_the_counter_where_the_kernel_keeps_its_clock_by_it),
        cmocka_unit_test(with_clock_gettime_where_the_kernel_uses_another_clocksource),
        cmocka_unit_test(threads_read_it_each_from_anchors_of_their_own),
    };
    return cmocka_run_group_tests(tests, NULL, remove_file);
}
