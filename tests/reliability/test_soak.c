/*
 * tests/reliability/test_soak.c - a long run: many dispatches of one small cached kernel,
 * with views made and released along the way, in flat resident memory.
 *
 * DISPATCHES calls (a million; SOAK_DISPATCHES=n in the environment for
 * another count, and a tenth of it under valgrind, where each call is some
 * fifty times slower) add one to every element of a 256-element view. A new
 * view, of the next of VIEWS host buffers, replaces the current one every
 * 100 calls, and the view is synchronized every 50. Resident memory
 * (VmRSS) is read after the first tenth of the calls, when caches and pools
 * have reached their size, and at the end; it may not grow by more than
 * RSS_SLACK_KIB. Every buffer then holds exactly the number of calls made
 * on its views.
 *
 * A quarter as many calls again on one view with no synchronize and no
 * wait at all: the queue's back-pressure (device/queue.c) bounds the
 * commands in flight, and with them the memory the OpenCL implementation
 * holds for them (PoCL: about 0.7 KB each, and it runs a small kernel more
 * slowly than the host queues it).
 */
#include <stdlib.h>

#include "test_util.h"

/* AddressSanitizer keeps freed memory in quarantine (256 MiB) and valgrind
 * keeps its own queue of freed blocks, so resident memory says nothing about
 * leaks there; their own leak checks do, at exit. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#else
#define UNDER_ASAN 0
#endif

#define DISPATCHES 1000000L
#define ELEMENTS 256
#define VIEWS 7            /* host buffers, used in turn */
#define PER_VIEW 100       /* calls on one view before the next replaces it */
#define PER_SYNC 50        /* calls between synchronizes */
#define RSS_SLACK_KIB 1024 /* growth allowed after the warm-up */
/* Growth allowed without a wait: the commands in flight may go from one
 * span of the queue's bound to two between the readings. */
#define RSS_SLACK_UNWAITED_KIB 4096

static long dispatches(void)
{
    const char *s = getenv("SOAK_DISPATCHES");
    long n = s ? strtol(s, NULL, 10) : RUNNING_ON_VALGRIND ? DISPATCHES / 10 : DISPATCHES;
    return n > 0 ? n : DISPATCHES;
}

/* Resident memory of this process, in KiB, from /proc/self/status. */
static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld kB", &kib) == 1)
            break;
    fclose(f);
    return kib;
}

static int buffers[VIEWS][ELEMENTS];

static amp_status add_one(amp_array_view *v)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(ELEMENTS), idx, AMP_CAPTURE(v), { v(idx) += 1; });
}

static void resident_memory_stays_flat_over_many_dispatches(void **state)
{
    (void)state;
    long n = dispatches(), warm = n / 10;
    long calls_on[VIEWS] = {0};
    amp_kernel_stats k0 = kernels_now();
    amp_transfer_stats t0 = transfers_now();
    long rss_warm = -1, views_made = 0;
    amp_array_view *v = NULL;

    for (long i = 0; i < n; i++) {
        int b = (int)(i / PER_VIEW % VIEWS);
        if (i % PER_VIEW == 0) {
            /* The previous view is copied back as it goes. */
            assert_amp_ok(amp_array_view_release(v));
            assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(ELEMENTS), buffers[b], &v));
            views_made++;
        }
        assert_amp_ok(add_one(v));
        calls_on[b]++;
        if ((i + 1) % PER_SYNC == 0)
            assert_amp_ok(amp_array_view_synchronize(v));
        if (i + 1 == warm)
            rss_warm = rss_kib();
    }
    assert_amp_ok(amp_array_view_release(v));
    long rss_end = rss_kib();

    for (int b = 0; b < VIEWS; b++)
        for (int e = 0; e < ELEMENTS; e++)
            if (buffers[b][e] != calls_on[b])
                fail_msg("buffer %d element %d is %d after %ld calls on it", b, e, buffers[b][e],
                         calls_on[b]);
    /* One compile; every other call found it in the cache. */
    amp_kernel_stats k = kernels_now();
    assert_int_equal(k.builds + k.disk_hits - k0.builds - k0.disk_hits, 1);
    assert_int_equal(k.cache_hits - k0.cache_hits, (uint64_t)n - 1);
    /* Each view: one upload; a download at each synchronize, and at the
     * last release when the last calls were not synchronized. */
    amp_transfer_stats t = transfers_now();
    assert_int_equal(t.uploads - t0.uploads, (uint64_t)views_made);
    assert_int_equal(t.downloads - t0.downloads, (uint64_t)(n / PER_SYNC + (n % PER_SYNC != 0)));

    print_message("%ld dispatches, %ld views made and released; resident memory %ld KiB after"
                  " %ld, %ld KiB at the end (%+ld KiB)\n",
                  n, views_made, rss_warm, warm, rss_end, rss_end - rss_warm);
    assert_true(rss_warm > 0 && rss_end > 0);
    if (UNDER_ASAN || RUNNING_ON_VALGRIND) {
        print_message("resident memory not checked under %s, which keeps freed memory\n",
                      UNDER_ASAN ? "AddressSanitizer" : "valgrind");
        return;
    }
    if (rss_end - rss_warm > RSS_SLACK_KIB)
        fail_msg("resident memory grew by %ld KiB after the warm-up (more than %d KiB)",
                 rss_end - rss_warm, RSS_SLACK_KIB);
}

static int unwaited[ELEMENTS];

static void resident_memory_stays_flat_without_a_wait(void **state)
{
    (void)state;
    long n = dispatches() / 4, warm = n / 10;
    amp_array_view *v = NULL;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(ELEMENTS), unwaited, &v));
    long rss_warm = -1;
    for (long i = 0; i < n; i++) {
        assert_amp_ok(add_one(v));
        if (i + 1 == warm)
            rss_warm = rss_kib();
    }
    long rss_end = rss_kib();
    assert_amp_ok(amp_array_view_release(v));
    for (int e = 0; e < ELEMENTS; e++)
        if (unwaited[e] != n)
            fail_msg("element %d is %d after %ld calls", e, unwaited[e], n);
    print_message("%ld dispatches without a wait; resident memory %ld KiB after %ld, %ld KiB"
                  " at the last (%+ld KiB)\n",
                  n, rss_warm, warm, rss_end, rss_end - rss_warm);
    assert_true(rss_warm > 0 && rss_end > 0);
    if (UNDER_ASAN || RUNNING_ON_VALGRIND) {
        print_message("resident memory not checked under %s, which keeps freed memory\n",
                      UNDER_ASAN ? "AddressSanitizer" : "valgrind");
        return;
    }
    if (rss_end - rss_warm > RSS_SLACK_UNWAITED_KIB)
        fail_msg("resident memory grew by %ld KiB after the warm-up, with no wait (more than %d"
                 " KiB): the commands in flight are not bounded",
                 rss_end - rss_warm, RSS_SLACK_UNWAITED_KIB);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(resident_memory_stays_flat_over_many_dispatches),
        cmocka_unit_test(resident_memory_stays_flat_without_a_wait),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
