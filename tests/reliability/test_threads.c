/*
 * tests/reliability/test_threads.c - several host threads using the library at once,
 * as docs/reliability.md's thread-safety contract allows.
 *
 * THREADS threads each make ROUNDS calls, all at one call site: on one view
 * they share, on views of their own, and on sections of one view with
 * synchronizes and host writes in between. The results are exact, each call
 * site is compiled once (kernel cache), and the transfer ledger counts
 * exactly the copies the calls need. scripts/memory/tsan.sh runs this test under
 * ThreadSanitizer.
 */
#include <pthread.h>
#include <stdlib.h>

#include "test_util.h"

#define THREADS 4
#define ROUNDS 100
#define ROW 64 /* elements of a thread's row */

/* Start THREADS threads on fn, each given its number, and wait for them;
 * each returns NULL or a malloc'ed reason it failed. */
static void run_threads(void *(*fn)(void *))
{
    pthread_t t[THREADS];
    static int ids[THREADS];
    for (int i = 0; i < THREADS; i++) {
        ids[i] = i;
        assert_int_equal(pthread_create(&t[i], NULL, fn, &ids[i]), 0);
    }
    char *failures[THREADS];
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_join(t[i], (void **)&failures[i]), 0);
    for (int i = 0; i < THREADS; i++)
        if (failures[i]) {
            char why[600];
            snprintf(why, sizeof why, "thread %d: %s", i, failures[i]);
            for (int j = 0; j < THREADS; j++)
                free(failures[j]);
            fail_msg("%s", why);
        }
}

/* A thread's failure, as the value it returns. */
static void *failure(const char *what, amp_status st)
{
    char *s = malloc(512);
    if (s)
        snprintf(s, 512, "%s: %s: %s", what, amp_status_name(st), amp_last_error());
    return s;
}

#define THREAD_OK(call)                                                                            \
    do {                                                                                           \
        amp_status st_ = (call);                                                                   \
        if (st_ != AMP_OK)                                                                         \
            return failure(#call, st_);                                                            \
    } while (0)

/* One call site for every thread of a test: add one to each element. */
static amp_status add_one(amp_array_view *v)
{
    return AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(v), idx, AMP_CAPTURE(v),
                                 { v(idx) += 1; });
}

static amp_kernel_stats kernels_before;
static amp_transfer_stats transfers_before;

static void start_counting(void)
{
    kernels_before = kernels_now();
    transfers_before = transfers_now();
}

/* The kernel cache compiled the one call site `builds` times (once in the
 * first test, then never) and found it every other time; the ledger saw
 * exactly the uploads and downloads given. */
static void check_counts(uint64_t builds, uint64_t calls, uint64_t uploads, uint64_t downloads)
{
    amp_kernel_stats k = kernels_now();
    amp_transfer_stats t = transfers_now();
    assert_int_equal(k.builds + k.disk_hits - kernels_before.builds - kernels_before.disk_hits,
                     builds);
    assert_int_equal(k.cache_hits - kernels_before.cache_hits, calls - builds);
    assert_int_equal(t.uploads - transfers_before.uploads, uploads);
    assert_int_equal(t.downloads - transfers_before.downloads, downloads);
    assert_int_equal(t.device_copies - transfers_before.device_copies, 0);
}

/* ---- One view, shared ---- */

static int shared_data[ROW];
static amp_array_view *shared_view;

static void *add_to_shared(void *arg)
{
    (void)arg;
    for (int r = 0; r < ROUNDS; r++)
        THREAD_OK(add_one(shared_view));
    return NULL;
}

static void threads_share_one_view_and_call_site(void **state)
{
    (void)state;
    for (int i = 0; i < ROW; i++)
        shared_data[i] = 1000 * i;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(ROW), shared_data, &shared_view));
    start_counting();
    run_threads(add_to_shared);
    assert_amp_ok(amp_array_view_synchronize(shared_view));
    /* Calls on one queue run in the order they were made: every one of
     * them added its one. */
    for (int i = 0; i < ROW; i++)
        assert_int_equal(shared_data[i], 1000 * i + THREADS * ROUNDS);
    /* One upload, by whichever call came first; one download. */
    check_counts(1, THREADS * ROUNDS, 1, 1);
    assert_amp_ok(amp_array_view_release(shared_view));
}

/* ---- A view each ---- */

static int own_data[THREADS][ROW];

static void *add_to_own(void *arg)
{
    int id = *(int *)arg;
    amp_array_view *v;
    THREAD_OK(amp_array_view_create(AMP_INT, amp_extent_1d(ROW), own_data[id], &v));
    for (int r = 1; r <= ROUNDS; r++) {
        THREAD_OK(add_one(v));
        /* Every tenth round, read it back: exact so far. */
        if (r % 10 == 0) {
            const void *p;
            THREAD_OK(amp_array_view_data_const(v, &p));
            const int *h = p;
            for (int i = 0; i < ROW; i++)
                if (h[i] != id * 100000 + i + r) {
                    char *s = malloc(160);
                    if (s)
                        snprintf(s, 160, "element %d is %d after %d rounds, not %d", i, h[i], r,
                                 id * 100000 + i + r);
                    amp_array_view_release(v);
                    return s;
                }
        }
    }
    THREAD_OK(amp_array_view_release(v));
    return NULL;
}

static void threads_each_have_a_view(void **state)
{
    (void)state;
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < ROW; i++)
            own_data[t][i] = t * 100000 + i;
    start_counting();
    run_threads(add_to_own);
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < ROW; i++)
            assert_int_equal(own_data[t][i], t * 100000 + i + ROUNDS);
    /* Each view: one upload; a download every tenth round (the last one
     * leaves nothing for the release to copy back). */
    check_counts(0, THREADS * ROUNDS, THREADS, THREADS * (ROUNDS / 10));
}

/* ---- Sections of one view, with host access ---- */

static int grid[THREADS * ROW];
static amp_array_view *grid_view;

/* A row of the grid: a kernel adds one, a synchronize brings it back, and
 * the host adds one more through amp_array_view_data; other threads do
 * the same to their rows of the same memory at the same time. */
static void *work_on_own_row(void *arg)
{
    int id = *(int *)arg;
    amp_array_view *row, *line;
    THREAD_OK(amp_array_view_section(grid_view, amp_index_2d(id, 0), amp_extent_2d(1, ROW),
                                     &row));
    THREAD_OK(amp_array_view_view_as(row, amp_extent_1d(ROW), &line));
    THREAD_OK(amp_array_view_release(row));
    for (int r = 0; r < ROUNDS; r++) {
        THREAD_OK(add_one(line));
        THREAD_OK(amp_array_view_synchronize(line));
        void *p;
        THREAD_OK(amp_array_view_data(line, &p));
        int *h = p;
        for (int i = 0; i < ROW; i++) {
            if (h[i] != id * ROW + i + 2 * r + 1) {
                char *s = malloc(160);
                if (s)
                    snprintf(s, 160, "row %d, element %d is %d in round %d, not %d", id, i, h[i],
                             r, id * ROW + i + 2 * r + 1);
                amp_array_view_release(line);
                return s;
            }
            h[i] += 1;
        }
    }
    THREAD_OK(amp_array_view_release(line));
    return NULL;
}

static void threads_work_on_sections_with_host_access(void **state)
{
    (void)state;
    for (int i = 0; i < THREADS * ROW; i++)
        grid[i] = i;
    assert_amp_ok(
        amp_array_view_create(AMP_INT, amp_extent_2d(THREADS, ROW), grid, &grid_view));
    start_counting();
    run_threads(work_on_own_row);
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < ROW; i++)
            assert_int_equal(grid[t * ROW + i], t * ROW + i + 2 * ROUNDS);
    /* Each round of each thread: its row up (the host wrote it), its row
     * down; nothing else moved. */
    check_counts(0, THREADS * ROUNDS, THREADS * ROUNDS, THREADS * ROUNDS);
    amp_transfer_stats mine;
    assert_amp_ok(amp_array_view_get_transfers(grid_view, &mine));
    assert_int_equal(mine.uploads, THREADS * ROUNDS);
    assert_int_equal(mine.upload_bytes, (uint64_t)THREADS * ROUNDS * ROW * sizeof(int));
    assert_int_equal(mine.downloads, THREADS * ROUNDS);
    assert_amp_ok(amp_array_view_release(grid_view));
}

/* ---- One completion, many waiters ---- */

/* Large enough that the waiters come while the copy is still going. */
#define COPIED (1 << 20)
static amp_completion *pending;
static int source[COPIED], copied[COPIED];

static void *wait_for_copy(void *arg)
{
    (void)arg;
    THREAD_OK(amp_completion_wait(pending));
    /* The copy is complete for every waiter, not only the first. */
    for (int i = 0; i < COPIED; i++)
        if (copied[i] != 7 * i) {
            char *s = malloc(100);
            if (s)
                snprintf(s, 100, "element %d is %d after the wait, not %d", i, copied[i], 7 * i);
            return s;
        }
    return NULL;
}

static void threads_wait_on_one_completion(void **state)
{
    (void)state;
    for (int i = 0; i < COPIED; i++) {
        source[i] = 7 * i;
        copied[i] = -1;
    }
    amp_array *a;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_1d(COPIED), source,
                                             NULL, &a));
    assert_amp_ok(amp_copy_async(amp_data_of(a), amp_data_of(copied), &pending));
    run_threads(wait_for_copy);
    assert_amp_ok(amp_completion_release(pending));
    assert_amp_ok(amp_array_release(a));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(threads_share_one_view_and_call_site),
        cmocka_unit_test(threads_each_have_a_view),
        cmocka_unit_test(threads_work_on_sections_with_host_access),
        cmocka_unit_test(threads_wait_on_one_completion),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
