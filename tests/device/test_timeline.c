/*
 * tests/device/test_timeline.c - the timeline's switch (amp/timeline.h):
 * start, stop and flush, what each writes and when, the statuses of a
 * timeline that cannot be written, the bound on its events over a long
 * run, and results that are the same with it on. The files' contents
 * against docs/timeline.md are checked by tests/draw/test_runs.py, with
 * check_timeline.py: here the files are only looked at for what they
 * must (or must not) hold.
 *
 * The tests run in this order, in one process: the timeline's state is
 * the process's. AMP_TIMELINE_MAX_EVENTS is set before its first start.
 * What happens as a program ends runs in a child, this program again with
 * --ends-after-shutdown FILE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <amp/timeline.h>

#include "core/lock.h"
#include "core/timeline.h"
#include "test_util.h"

#define MAX_EVENTS 400

static char path[256], other[256];
static const char *dir;

static char *read_all(const char *file)
{
    FILE *f = fopen(file, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)n + 1);
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        text = NULL;
    }
    if (text)
        text[n] = '\0';
    fclose(f);
    return text;
}

/* How many times the file holds text (0 when it cannot be read). */
static int count_in(const char *file, const char *text)
{
    char *all = read_all(file);
    int n = 0;
    for (const char *p = all; p && (p = strstr(p, text)) != NULL; p += strlen(text))
        n++;
    free(all);
    return n;
}

static void counts(uint64_t *kept, uint64_t *dropped)
{
    amp__lock_acquire();
    amp__tl_counts(kept, dropped);
    amp__lock_release();
}

/* One small launch that adds 1 to every element of data. */
static amp_status add_one(float *data, int n)
{
    amp_array_view *v = NULL;
    amp_status st = amp_array_view_create(AMP_FLOAT, amp_extent_1d(n), data, &v);
    if (st != AMP_OK)
        return st;
    st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(n), idx, AMP_CAPTURE(v), { v[idx] += 1.0f; });
    amp_status released = amp_array_view_release(v);
    return st != AMP_OK ? st : released;
}

static void test_flush_without_a_timeline_says_how_to_start_one(void **state)
{
    (void)state;
    assert_int_equal(amp_timeline_is_enabled(), 0);
    assert_amp_fails(amp_timeline_flush(), AMP_ERROR_INVALID_OPERATION, "AMP_TIMELINE=");
    /* Stopping a timeline that is off changes nothing. */
    assert_amp_ok(amp_timeline_stop());
}

static void test_a_start_without_a_file_is_refused(void **state)
{
    (void)state;
    assert_amp_fails(amp_timeline_start(NULL), AMP_ERROR_INVALID_ARGUMENT, "AMP_TIMELINE=");
    assert_amp_fails(amp_timeline_start(""), AMP_ERROR_INVALID_ARGUMENT, "the path is empty");
    assert_int_equal(amp_timeline_is_enabled(), 0);
}

static void test_flush_writes_what_was_recorded(void **state)
{
    (void)state;
    float data[64] = {0};
    assert_amp_ok(amp_timeline_start(path));
    assert_int_equal(amp_timeline_is_enabled(), 1);
    assert_amp_ok(add_one(data, 64));
    assert_amp_ok(amp_timeline_flush());
    assert_int_equal(count_in(path, "\"cat\": \"amp.kernel\""), 1);
    assert_int_equal(count_in(path, "\"name\": \"amp_parallel_for_each\""), 1);
    /* A view released with its data copies it back: one download, and
     * the call that caused it. */
    assert_int_equal(count_in(path, "\"name\": \"download\""), 1);
    assert_int_equal(count_in(path, "\"reason\": \"release\""), 1);
    assert_int_equal(data[5], 1.0f);
}

static void test_each_write_replaces_the_whole_file(void **state)
{
    (void)state;
    float data[64] = {0};
    assert_amp_ok(add_one(data, 64));
    assert_amp_ok(amp_timeline_flush());
    assert_int_equal(count_in(path, "\"cat\": \"amp.kernel\""), 2);
    assert_int_equal(count_in(path, "\"traceEvents\""), 1);
    /* Written beside it and renamed: nothing is left beside it. */
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.%d.tmp", path, (int)getpid());
    assert_int_equal(access(tmp, F_OK), -1);
}

static void test_stop_writes_the_file_and_records_no_more(void **state)
{
    (void)state;
    float data[64] = {0};
    assert_amp_ok(amp_timeline_stop());
    assert_int_equal(amp_timeline_is_enabled(), 0);
    assert_int_equal(count_in(path, "\"name\": \"timeline stopped\""), 1);
    assert_amp_ok(add_one(data, 64));
    assert_amp_ok(amp_timeline_flush());
    assert_int_equal(count_in(path, "\"cat\": \"amp.kernel\""), 2);
}

static void test_a_second_start_goes_on_in_the_same_file(void **state)
{
    (void)state;
    float data[64] = {0};
    assert_amp_ok(amp_timeline_start(NULL));
    assert_amp_ok(add_one(data, 64));
    assert_amp_ok(amp_timeline_stop());
    assert_int_equal(count_in(path, "\"name\": \"timeline started\""), 1);
    assert_int_equal(count_in(path, "\"cat\": \"amp.kernel\""), 3);
}

static void test_a_file_that_cannot_be_written_gives_a_status_and_the_reason(void **state)
{
    (void)state;
    assert_amp_ok(amp_timeline_start("/nonexistent-folder/timeline.json"));
    assert_amp_fails(amp_timeline_flush(), AMP_ERROR_RUNTIME, "/nonexistent-folder/timeline.json");
    assert_amp_fails(amp_timeline_stop(), AMP_ERROR_RUNTIME, "can be written");
    /* A folder's path, with or without its '/'. */
    assert_amp_ok(amp_timeline_start(dir));
    assert_amp_fails(amp_timeline_flush(), AMP_ERROR_RUNTIME, "is a folder, not a file");
    char slash[300];
    snprintf(slash, sizeof slash, "%s/", dir);
    assert_amp_ok(amp_timeline_start(slash));
    assert_amp_fails(amp_timeline_stop(), AMP_ERROR_RUNTIME, "is a folder, not a file");
    /* The records are kept for a file that can be, the next tests' file. */
    assert_amp_ok(amp_timeline_start(other));
    assert_amp_ok(amp_timeline_stop());
    assert_int_equal(count_in(other, "\"cat\": \"amp.kernel\""), 3);
}

static void test_results_are_the_same_with_the_timeline_on(void **state)
{
    (void)state;
    float off[300], on[300];
    for (int i = 0; i < 300; i++)
        off[i] = on[i] = (float)i * 0.5f;
    assert_amp_ok(add_one(off, 300));
    assert_amp_ok(amp_timeline_start(NULL));
    assert_amp_ok(add_one(on, 300));
    assert_amp_ok(amp_timeline_stop());
    assert_memory_equal(off, on, sizeof off);
}

static void test_a_long_run_keeps_at_most_the_bound_and_counts_the_rest(void **state)
{
    (void)state;
    float data[16] = {0};
    amp_array_view *v = NULL;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(16), data, &v));
    assert_amp_ok(amp_timeline_start(NULL));
    uint64_t kept = 0, dropped = 0, kept_before = 0;
    int launches = RUNNING_ON_VALGRIND ? 300 : 3000;
    for (int i = 0; i < launches; i++) {
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(v),
                                            { v[idx] += 1.0f; }));
        if (i == launches / 2)
            counts(&kept_before, &dropped);
    }
    assert_amp_ok(amp_array_view_synchronize(v));
    counts(&kept, &dropped);
    /* Past the bound nothing more is kept: memory stops growing. */
    assert_true(kept <= MAX_EVENTS);
    assert_int_equal(kept, kept_before);
    assert_true(dropped >= (uint64_t)launches);
    assert_amp_ok(amp_timeline_stop());
    counts(&kept, &dropped); /* the stop is one more dropped */
    assert_int_equal(count_in(other, "\"name\": \"events dropped\""), 1);
    char said[64];
    snprintf(said, sizeof said, "\"dropped\": %llu,", (unsigned long long)dropped);
    /* In otherData, and in the last event's args. */
    assert_int_equal(count_in(other, said), 2);
    assert_int_equal(data[3], (float)launches);
    assert_amp_ok(amp_array_view_release(v));
}

/* The child: a timeline, a launch, amp_shutdown (which writes the file),
 * the file's inode on stdout, then the program's end. */
static int ends_after_shutdown(const char *file)
{
    float data[64] = {0};
    struct stat st;
    if (amp_timeline_start(file) != AMP_OK || add_one(data, 64) != AMP_OK ||
        amp_shutdown() != AMP_OK || stat(file, &st) != 0)
        return 1;
    printf("%llu\n", (unsigned long long)st.st_ino);
    return 0;
}

/* A write replaces the file (written beside it, renamed over it), so a
 * new inode says it was written again: amp_shutdown wrote all there was,
 * and the end of the program, the main thread's and exit's, writes
 * nothing more (a large timeline is seconds of writing). */
static void test_nothing_is_written_again_after_amp_shutdown(void **state)
{
    (void)state;
    char self[1024], file[300], command[1500];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        skip();
    self[n] = '\0';
    snprintf(file, sizeof file, "%s/test_timeline_%d_child.json", dir, (int)getpid());
    snprintf(command, sizeof command, "'%s' --ends-after-shutdown '%s'", self, file);
    FILE *child = popen(command, "r");
    assert_non_null(child);
    unsigned long long written = 0;
    int got = fscanf(child, "%llu", &written);
    assert_int_equal(pclose(child), 0);
    assert_int_equal(got, 1);
    struct stat st;
    assert_int_equal(stat(file, &st), 0);
    assert_int_equal((unsigned long long)st.st_ino, written);
    assert_int_equal(count_in(file, "\"name\": \"amp_shutdown\""), 1);
    remove(file);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--ends-after-shutdown") == 0)
        return ends_after_shutdown(argv[2]);
    /* Read at the timeline's first start. */
    setenv("AMP_TIMELINE_MAX_EVENTS", "400", 1);
    dir = getenv("TIMELINE_DIR") ? getenv("TIMELINE_DIR") : "/tmp";
    snprintf(path, sizeof path, "%s/test_timeline_%d.json", dir, (int)getpid());
    snprintf(other, sizeof other, "%s/test_timeline_%d_other.json", dir, (int)getpid());
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flush_without_a_timeline_says_how_to_start_one),
        cmocka_unit_test(test_a_start_without_a_file_is_refused),
        cmocka_unit_test(test_flush_writes_what_was_recorded),
        cmocka_unit_test(test_each_write_replaces_the_whole_file),
        cmocka_unit_test(test_stop_writes_the_file_and_records_no_more),
        cmocka_unit_test(test_a_second_start_goes_on_in_the_same_file),
        cmocka_unit_test(test_a_file_that_cannot_be_written_gives_a_status_and_the_reason),
        cmocka_unit_test(test_results_are_the_same_with_the_timeline_on),
        cmocka_unit_test(test_a_long_run_keeps_at_most_the_bound_and_counts_the_rest),
        cmocka_unit_test(test_nothing_is_written_again_after_amp_shutdown),
    };
    int failed = cmocka_run_group_tests(tests, NULL, shutdown_library);
    if (!failed) {
        remove(path);
        remove(other);
    }
    return failed;
}
