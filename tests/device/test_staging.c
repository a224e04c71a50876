/*
 * tests/device/test_staging.c - page-locked host memory (amp_host_alloc) and the
 * ways transfers move bytes (runtime/data/staging.h): direct, mapped
 * (a CPU device's buffers, copied on several threads) and staged (through
 * page-locked buffers in chunks, several in flight, as on a GPU).
 *
 * On PoCL the library would pick the mapped path for large transfers and
 * the direct one for small; the tests force each path, with staging buffers
 * of a few KiB, so that small data crosses many chunks: sizes that are not
 * multiples of a chunk, rows wider than a chunk, sections of matrices and
 * of rank-3 views, copies between arrays and strided views. Every path must
 * give the same results and the same ledger: a transfer is counted once,
 * however many chunks carry it. Failures injected at every OpenCL call of a
 * staged or mapped transfer give a status and a message that names the
 * call, leave host data as it was (an upload) or holding only its old or
 * new values (a download), and count nothing in the ledger.
 */
#include <stdint.h>
#include <stdlib.h>

#include "test_util.h"

#include "core/testing.h"

/* Under ThreadSanitizer or valgrind the fault loops, which restart the
 * library for every call, try every 17th call only: the threads and the
 * memory they check are the same at each. FAULT_STRIDE=k in the environment
 * chooses another stride (as for test_faults). */
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#ifndef UNDER_TSAN
#define UNDER_TSAN 0
#endif

/* Staging buffers of this many bytes in the forced tests: rows of the
 * matrices below are 604 bytes (6 to a chunk, 200 rows), and some rows are
 * wider than a chunk. */
#define SLOT 4096

static int restore_policy(void **state)
{
    (void)state;
    amp__test_inject_fault(0, CL_SUCCESS);
    amp__test_set_transfer_path(TEST_PATH_AUTO, 0, 0);
    return 0;
}

static amp_transfer_stats of(const amp_array_view *v)
{
    amp_transfer_stats s;
    assert_amp_ok(amp_array_view_get_transfers(v, &s));
    return s;
}

/* ---- Page-locked memory ---- */

static void host_alloc_gives_aligned_memory_that_views_use(void **state)
{
    (void)state;
    const int n = 10007;
    int *p = NULL;
    assert_amp_ok(amp_host_alloc(n * sizeof *p, NULL, (void **)&p));
    assert_non_null(p);
    assert_int_equal((uintptr_t)p % 64, 0);
    for (int i = 0; i < n; i++)
        p[i] = i;
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(n), p, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(n), idx, AMP_CAPTURE(v),
                                        { v(idx) = 2 * v(idx) + 1; }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < n; i++)
        assert_int_equal(p[i], 2 * i + 1);
    amp_transfer_stats s = of(v);
    assert_int_equal(s.uploads, 1);
    assert_int_equal(s.upload_bytes, n * sizeof *p);
    assert_int_equal(s.downloads, 1);
    assert_int_equal(s.download_bytes, n * sizeof *p);

    /* Not while a view of it is alive; nothing is freed then. */
    assert_amp_fails(amp_host_free(p), AMP_ERROR_INVALID_OPERATION, "release every view");
    assert_int_equal(p[n - 1], 2 * (n - 1) + 1);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_host_free(p));
    assert_amp_fails(amp_host_free(p), AMP_ERROR_INVALID_ARGUMENT, "not memory from amp_host_alloc");
}

static void host_alloc_refuses_bad_arguments(void **state)
{
    (void)state;
    void *p = (void *)1;
    assert_amp_fails(amp_host_alloc(16, NULL, NULL), AMP_ERROR_INVALID_ARGUMENT, "out is NULL");
    assert_amp_fails(amp_host_alloc(0, NULL, &p), AMP_ERROR_INVALID_ARGUMENT, "bytes is 0");
    assert_null(p);
    amp_accelerator *acc;
    amp_accelerator_info info;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    assert_amp_ok(amp_accelerator_get_info(acc, &info));
    assert_amp_fails(amp_host_alloc(info.max_allocation, NULL, &p), AMP_ERROR_OUT_OF_MEMORY,
                     "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    assert_amp_fails(amp_host_alloc(SIZE_MAX, NULL, &p), AMP_ERROR_OUT_OF_MEMORY,
                     "allocates at once");
    assert_amp_ok(amp_host_free(NULL));
    int local = 0;
    assert_amp_fails(amp_host_free(&local), AMP_ERROR_INVALID_ARGUMENT,
                     "not memory from amp_host_alloc");
    /* A released view is refused by name. */
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_create_view(acc, AMP_QUEUING_AUTOMATIC, &av));
    assert_amp_ok(amp_accelerator_view_release(av));
    assert_amp_fails(amp_host_alloc(16, av, &p), AMP_ERROR_INVALID_ARGUMENT, "released");
}

static void host_memory_outlives_shutdown(void **state)
{
    (void)state;
    const int n = 4096;
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    float *p;
    assert_amp_ok(amp_host_alloc(n * sizeof *p, av, (void **)&p));
    for (int i = 0; i < n; i++)
        p[i] = (float)i;
    amp_shutdown();
    /* Still there, and views over it work with the library started anew. */
    assert_true(p[n - 1] == (float)(n - 1));
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(n), p, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(n), idx, AMP_CAPTURE(v),
                                        { v(idx) = v(idx) * 0.5f; }));
    assert_amp_ok(amp_array_view_release(v));
    assert_true(p[n - 2] == (float)(n - 2) * 0.5f);
    assert_amp_ok(amp_host_free(p));
}

/* Large enough for the library's own choice to go past direct: on a CPU
 * device, mapped. Views over page-locked memory and over malloc memory
 * give the same results and the same ledger. */
static void large_views_over_either_memory_move_exactly(void **state)
{
    (void)state;
    const size_t n = (9u << 20) / sizeof(int) + 17; /* 9 MiB and a bit */
    int *pinned, *plain = malloc(n * sizeof *plain);
    assert_non_null(plain);
    assert_amp_ok(amp_host_alloc(n * sizeof *pinned, NULL, (void **)&pinned));
    int *mems[2] = {pinned, plain};
    for (int k = 0; k < 2; k++) {
        int *p = mems[k];
        for (size_t i = 0; i < n; i++)
            p[i] = (int)(i * 7u);
        amp_array_view *v;
        assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d((int)n), p, &v));
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d((int)n), idx, AMP_CAPTURE(v),
                                            { v(idx) = v(idx) + 3; }));
        assert_amp_ok(amp_array_view_synchronize(v));
        amp_accelerator *acc;
        amp_accelerator_info info;
        assert_amp_ok(amp_accelerator_get_default(&acc));
        assert_amp_ok(amp_accelerator_get_info(acc, &info));
        if (info.is_emulated)
            assert_int_equal(amp__test_last_transfer_path(), TEST_PATH_MAPPED);
        for (size_t i = 0; i < n; i++)
            if (p[i] != (int)(i * 7u) + 3)
                fail_msg("element %zu of the %s view is %d, not %d", i, k ? "malloc" : "pinned",
                         p[i], (int)(i * 7u) + 3);
        amp_transfer_stats s = of(v);
        assert_int_equal(s.uploads, 1);
        assert_int_equal(s.downloads, 1);
        assert_int_equal(s.download_bytes, n * sizeof(int));
        assert_amp_ok(amp_array_view_release(v));
    }
    assert_amp_ok(amp_host_free(pinned));
    free(plain);
}

/* As on a GPU (staging forced): transfers of page-locked memory go
 * direct, those of a part of it too; ordinary memory is staged. */
static void page_locked_memory_goes_direct_where_others_are_staged(void **state)
{
    (void)state;
    amp__test_set_transfer_path(TEST_PATH_STAGED, SLOT, 0);
    const int n = 5000;
    int *pinned, *plain = malloc(2 * n * sizeof *plain);
    assert_non_null(plain);
    assert_amp_ok(amp_host_alloc(2 * n * sizeof *pinned, NULL, (void **)&pinned));
    for (int i = 0; i < 2 * n; i++)
        pinned[i] = plain[i] = i;
    struct {
        int *data;
        int count;
        test_transfer_path path;
    } cases[] = {{pinned, 2 * n, TEST_PATH_DIRECT},
                 {pinned + n / 2, n, TEST_PATH_DIRECT},
                 {plain, 2 * n, TEST_PATH_STAGED}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        amp_array_view *v;
        assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(cases[k].count), cases[k].data,
                                            &v));
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(cases[k].count), idx, AMP_CAPTURE(v),
                                            { v(idx) = v(idx) * 2; }));
        if (amp__test_last_transfer_path() != cases[k].path)
            fail_msg("case %zu: the upload took path %d, not %d", k, (int)amp__test_last_transfer_path(),
                     (int)cases[k].path);
        assert_amp_ok(amp_array_view_synchronize(v));
        assert_int_equal(amp__test_last_transfer_path(), cases[k].path);
        assert_int_equal(of(v).upload_bytes, cases[k].count * sizeof(int));
        assert_int_equal(of(v).download_bytes, cases[k].count * sizeof(int));
        assert_amp_ok(amp_array_view_release(v));
    }
    for (int i = 0; i < 2 * n; i++) {
        int inside = i >= n / 2 && i < n / 2 + n;
        assert_int_equal(pinned[i], inside ? 4 * i : 2 * i);
        assert_int_equal(plain[i], 2 * i);
    }
    assert_amp_ok(amp_host_free(pinned));
    free(plain);
}

/* ---- The same work on every path ---- */

#define ROWS 300
#define COLS 301
#define D0 4
#define D1 50
#define D2 60
#define WIDE_ROWS 3
#define WIDE_COLS 5000 /* 20000-byte rows, wider than a staging buffer */

typedef struct workload {
    int m[ROWS * COLS];
    int cube[D0 * D1 * D2];
    int wide[WIDE_ROWS * WIDE_COLS];
    int vec[10007];
    int back[10007];
    int sec_copy[200 * 151];
} workload;

/* Sections, a rank-3 box, rows wider than a chunk, uploads of part of a
 * view, and copies between arrays, host memory and strided views; each
 * result checked exactly. Returns the process's ledger for it. */
static amp_transfer_stats run_workload(workload *w, const char *path)
{
    amp_transfer_reset_stats();
    for (int i = 0; i < ROWS * COLS; i++)
        w->m[i] = i;
    for (int i = 0; i < D0 * D1 * D2; i++)
        w->cube[i] = -i;
    for (int i = 0; i < WIDE_ROWS * WIDE_COLS; i++)
        w->wide[i] = i % 1000;
    for (int i = 0; i < 10007; i++)
        w->vec[i] = 3 * i, w->back[i] = 0;
    memset(w->sec_copy, 0, sizeof w->sec_copy);

    /* A matrix, doubled on the device; a section of it synchronized. */
    amp_array_view *m, *sec;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, COLS), w->m, &m));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(m),
                                        { m(idx) = 2 * m(idx) + 1; }));
    assert_amp_ok(amp_array_view_section(m, amp_index_2d(17, 5), amp_extent_2d(200, 151), &sec));
    assert_amp_ok(amp_array_view_synchronize(sec));
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) {
            int i = r * COLS + c;
            int inside = r >= 17 && r < 217 && c >= 5 && c < 156;
            if (w->m[i] != (inside ? 2 * i + 1 : i))
                fail_msg("%s: m[%d][%d] is %d after the section's synchronize", path, r, c,
                         w->m[i]);
        }
    /* The host writes the section; the next kernel uploads its rows. */
    int *p;
    assert_amp_ok(amp_array_view_data(sec, (void **)&p));
    for (int r = 0; r < 200; r++)
        for (int c = 0; c < 151; c++)
            p[r * COLS + c] = 7;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(m),
                                        { m(idx) += 1; }));
    /* The section into host memory, strided to packed, from the device. */
    assert_amp_ok(AMP_COPY(sec, w->sec_copy));
    for (int i = 0; i < 200 * 151; i++)
        assert_int_equal(w->sec_copy[i], 8);
    assert_amp_ok(amp_array_view_synchronize(m));
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) {
            int i = r * COLS + c;
            int inside = r >= 17 && r < 217 && c >= 5 && c < 156;
            if (w->m[i] != (inside ? 8 : 2 * i + 2))
                fail_msg("%s: m[%d][%d] is %d at the end", path, r, c, w->m[i]);
        }

    /* A rank-3 view; a box of it uploaded on its own, then synchronized. */
    amp_array_view *cube, *box;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(D0, D1, D2), w->cube, &cube));
    assert_amp_ok(amp_array_view_section(cube, amp_index_3d(1, 3, 5), amp_extent_3d(2, 40, 50),
                                         &box));
    assert_amp_ok(amp_array_view_synchronize_to(box, NULL));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_3d(2, 40, 50), idx, AMP_CAPTURE(box),
                                        { box(idx) = box(idx) * 10; }));
    assert_amp_ok(amp_array_view_synchronize(box));
    for (int a = 0; a < D0; a++)
        for (int b = 0; b < D1; b++)
            for (int c = 0; c < D2; c++) {
                int i = (a * D1 + b) * D2 + c;
                int inside = a >= 1 && a < 3 && b >= 3 && b < 43 && c >= 5 && c < 55;
                if (w->cube[i] != (inside ? -10 * i : -i))
                    fail_msg("%s: cube[%d][%d][%d] is %d", path, a, b, c, w->cube[i]);
            }

    /* Rows wider than a chunk: part of each row, on the device and back. */
    amp_array_view *wide, *cols;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(WIDE_ROWS, WIDE_COLS), w->wide,
                                        &wide));
    assert_amp_ok(amp_array_view_section(wide, amp_index_2d(0, 333), amp_extent_2d(3, 4111),
                                         &cols));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 4111), idx, AMP_CAPTURE(cols),
                                        { cols(idx) = cols(idx) + 5000; }));
    assert_amp_ok(amp_array_view_synchronize(cols));
    for (int r = 0; r < WIDE_ROWS; r++)
        for (int c = 0; c < WIDE_COLS; c++) {
            int i = r * WIDE_COLS + c;
            int inside = c >= 333 && c < 333 + 4111;
            if (w->wide[i] != i % 1000 + (inside ? 5000 : 0))
                fail_msg("%s: wide[%d][%d] is %d", path, r, c, w->wide[i]);
        }

    /* An array from host memory, a kernel, and back to other memory; and
     * a strided section copied into an array and out again. */
    amp_array *arr, *sarr;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_1d(10007), w->vec, NULL, &arr));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(10007), idx, AMP_CAPTURE(arr),
                                        { arr(idx) = arr(idx) - 1; }));
    assert_amp_ok(AMP_COPY(arr, w->back));
    for (int i = 0; i < 10007; i++)
        assert_int_equal(w->back[i], 3 * i - 1);
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_2d(200, 151), NULL, &sarr));
    assert_amp_ok(amp_array_view_refresh(m));
    assert_amp_ok(AMP_COPY(sec, sarr));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(200, 151), idx, AMP_CAPTURE(sarr),
                                        { sarr(idx) = sarr(idx) * 3; }));
    assert_amp_ok(AMP_COPY(sarr, sec));
    assert_amp_ok(amp_array_view_synchronize(m));
    for (int r = 17; r < 217; r++)
        for (int c = 5; c < 156; c++)
            assert_int_equal(w->m[r * COLS + c], 24);

    assert_amp_ok(amp_array_release(arr));
    assert_amp_ok(amp_array_release(sarr));
    assert_amp_ok(amp_array_view_release(cols));
    assert_amp_ok(amp_array_view_release(wide));
    assert_amp_ok(amp_array_view_release(box));
    assert_amp_ok(amp_array_view_release(cube));
    assert_amp_ok(amp_array_view_release(sec));
    assert_amp_ok(amp_array_view_release(m));
    return transfers_now();
}

static void assert_same_ledger(const amp_transfer_stats *a, const amp_transfer_stats *b,
                               const char *path)
{
    for (int d = 0; d < AMP_DIRECTION_COUNT; d++)
        for (int r = 0; r < AMP_REASON_COUNT; r++)
            if (a->count[d][r] != b->count[d][r] || a->bytes[d][r] != b->bytes[d][r])
                fail_msg("%s: direction %d, reason %s: %llu transfers of %llu bytes, where the"
                         " direct path counts %llu of %llu",
                         path, d, amp_transfer_reason_name((amp_transfer_reason)r),
                         (unsigned long long)b->count[d][r], (unsigned long long)b->bytes[d][r],
                         (unsigned long long)a->count[d][r], (unsigned long long)a->bytes[d][r]);
}

static void every_path_gives_the_same_results_and_ledger(void **state)
{
    (void)state;
    workload *w = malloc(sizeof *w);
    assert_non_null(w);
    amp__test_set_transfer_path(TEST_PATH_DIRECT, 0, 0);
    amp_transfer_stats direct = run_workload(w, "direct");
    assert_true(direct.uploads > 200 && direct.downloads > 5);

    amp__test_set_transfer_path(TEST_PATH_STAGED, SLOT, 0);
    amp_transfer_stats staged = run_workload(w, "staged");
    assert_int_equal(amp__test_last_transfer_path(), TEST_PATH_STAGED);
    assert_same_ledger(&direct, &staged, "staged");

    /* Chunks larger than some rows and smaller than others. */
    amp__test_set_transfer_path(TEST_PATH_STAGED, 65536 + 12, 0);
    staged = run_workload(w, "staged, 64 KiB buffers");
    assert_same_ledger(&direct, &staged, "staged, 64 KiB buffers");

    amp__test_set_transfer_path(TEST_PATH_MAPPED, 0, 0);
    amp_transfer_stats mapped = run_workload(w, "mapped");
    assert_int_equal(amp__test_last_transfer_path(), TEST_PATH_MAPPED);
    assert_same_ledger(&direct, &mapped, "mapped");

    amp__test_set_transfer_path(TEST_PATH_AUTO, 0, 0);
    amp_transfer_stats chosen = run_workload(w, "the library's choice");
    assert_same_ledger(&direct, &chosen, "the library's choice");
    free(w);
}

/* ---- Ordering on the transfer queue ---- */

/* With staging forced, large uploads run on the device's transfer queue
 * (as on a GPU): an upload into an array a kernel is writing waits for the
 * kernel, and a kernel after an upload sees the uploaded data. */
static void uploads_on_the_transfer_queue_keep_the_order_of_work(void **state)
{
    (void)state;
    amp__test_set_transfer_path(TEST_PATH_STAGED, SLOT, 0);
    const int n = 1 << 16;
    int *twos = malloc(n * sizeof *twos), *out = malloc(n * sizeof *out);
    assert_non_null(twos);
    assert_non_null(out);
    for (int i = 0; i < n; i++)
        twos[i] = 2;
    amp_array *x, *y;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(n), NULL, &x));
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(n), NULL, &y));
    for (int round = 0; round < 3; round++) {
        /* A slow kernel writes x; then the host's twos go into x. */
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(n), idx, AMP_CAPTURE(x), {
            int v = idx[0];
            for (int k = 0; k < 2000; k++)
                v = (v * 1103515245 + 12345) & 0x7fffffff;
            x(idx) = 1 + (v & 0);
        }));
        assert_amp_ok(AMP_COPY(twos, x));
        /* y, never used before, uploaded while x's kernel may run. */
        amp_completion *done;
        assert_amp_ok(AMP_COPY_ASYNC(twos, y, &done));
        assert_amp_ok(amp_completion_release(done));
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(n), idx, AMP_CAPTURE(x, y),
                                            { x(idx) = x(idx) * 10 + y(idx); }));
        assert_amp_ok(AMP_COPY(x, out));
        for (int i = 0; i < n; i++)
            if (out[i] != 22)
                fail_msg("round %d: x[%d] is %d, not 22", round, i, out[i]);
    }
    assert_amp_ok(amp_array_release(x));
    assert_amp_ok(amp_array_release(y));
    free(twos);
    free(out);
}

/* ---- Failures in the middle of a transfer ---- */

#define FAULT_N 100003 /* ints: 400012 bytes, about 98 chunks of 4 KiB */

typedef struct fault_run {
    int host[FAULT_N];
    int out[FAULT_N];
} fault_run;

/* The calls of the last upload counted without a fault. */
#define MAX_CALLS 4096
static const char *upload_call_names[MAX_CALLS];

static int before_value(int i)
{
    return 3 * i + 1;
}

static int result_value(int i)
{
    return 5 * i - 2;
}

/* An upload with the nth call failing (0: none), from a fresh library:
 * returns the upload's status. The host memory must be as before whatever
 * happened, and a kernel then sees all of it. */
static amp_status upload_with_fault(fault_run *r, long n, cl_int code, long *calls)
{
    amp_shutdown();
    for (int i = 0; i < FAULT_N; i++)
        r->host[i] = before_value(i);
    amp_array_view *v, *out;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(FAULT_N), r->host, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(FAULT_N), r->out, &out));
    assert_amp_ok(amp_array_view_discard_data(out));
    /* The queue exists before the count starts. */
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    amp_clear_error();
    amp__test_inject_fault(n, code);
    amp_status st = amp_array_view_synchronize_to(v, NULL);
    *calls = amp__test_calls_counted();
    if (n == 0)
        for (long k = 1; k <= *calls && k < MAX_CALLS; k++)
            upload_call_names[k] = amp__test_call_name(k);
    const char *failed = n > 0 ? amp__test_call_name(n) : NULL;
    amp__test_inject_fault(0, CL_SUCCESS);
    if (st != AMP_OK) {
        if (!failed || !strstr(amp_last_error(), failed))
            fail_msg("upload, call %ld (%s) failing: the message does not name it: %s", n,
                     failed ? failed : "?", amp_last_error());
        /* Counted only when it happened: the failure came after it, in
         * ordering the view's queue after the transfer queue. */
        if (of(v).uploads != 0 && !strstr(failed, "Marker") && !strstr(failed, "Barrier") &&
            strcmp(failed, "clFlush") != 0)
            fail_msg("upload, call %ld (%s) failing: %s, and an upload counted", n, failed,
                     amp_last_error());
    }
    for (int i = 0; i < FAULT_N; i++)
        if (r->host[i] != before_value(i))
            fail_msg("upload, call %ld failing: host[%d] changed to %d", n, i, r->host[i]);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(FAULT_N), idx, AMP_CAPTURE(v, out),
                                        { out(idx) = v(idx) + 1; }));
    assert_amp_ok(amp_array_view_synchronize(out));
    for (int i = 0; i < FAULT_N; i++)
        if (r->out[i] != before_value(i) + 1)
            fail_msg("upload, after call %ld failed: a kernel saw %d at %d", n, r->out[i] - 1, i);
    assert_int_equal(of(v).uploads, 1);
    assert_int_equal(of(v).upload_bytes, sizeof r->host);
    assert_amp_ok(amp_array_view_release(out));
    assert_amp_ok(amp_array_view_release(v));
    return st;
}

/* A download with the nth call failing: every element holds its old value
 * or the kernel's; a second synchronize brings all of it, and the ledger
 * counts one download. */
static amp_status download_with_fault(fault_run *r, long n, cl_int code, long *calls)
{
    amp_shutdown();
    for (int i = 0; i < FAULT_N; i++)
        r->host[i] = before_value(i);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(FAULT_N), r->host, &v));
    assert_amp_ok(amp_array_view_discard_data(v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(FAULT_N), idx, AMP_CAPTURE(v),
                                        { v(idx) = 5 * idx[0] - 2; }));
    amp_clear_error();
    amp__test_inject_fault(n, code);
    amp_status st = amp_array_view_synchronize(v);
    *calls = amp__test_calls_counted();
    const char *failed = n > 0 ? amp__test_call_name(n) : NULL;
    amp__test_inject_fault(0, CL_SUCCESS);
    if (st != AMP_OK) {
        if (!failed || !strstr(amp_last_error(), failed))
            fail_msg("download, call %ld (%s) failing: the message does not name it: %s", n,
                     failed ? failed : "?", amp_last_error());
        assert_int_equal(of(v).downloads, 0);
    }
    for (int i = 0; i < FAULT_N; i++)
        if (r->host[i] != before_value(i) && r->host[i] != result_value(i))
            fail_msg("download, call %ld failing: host[%d] is %d, neither old nor new", n, i,
                     r->host[i]);
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < FAULT_N; i++)
        if (r->host[i] != result_value(i))
            fail_msg("download, after call %ld failed: host[%d] is %d", n, i, r->host[i]);
    assert_int_equal(of(v).downloads, 1);
    assert_int_equal(of(v).download_bytes, sizeof r->host);
    assert_amp_ok(amp_array_view_release(v));
    return st;
}

typedef amp_status (*faulty_fn)(fault_run *r, long n, cl_int code, long *calls);

/* Every call of the transfer failing in turn (every stride-th under
 * valgrind); at least the given number must fail with a status. */
static void every_call_of(const char *what, faulty_fn fn, cl_int code, long min_calls)
{
    fault_run *r = malloc(sizeof *r);
    assert_non_null(r);
    long calls = 0;
    assert_amp_ok(fn(r, 0, CL_SUCCESS, &calls));
    assert_true(calls >= min_calls);
    const char *every = getenv("FAULT_STRIDE");
    long stride = every ? strtol(every, NULL, 10) : RUNNING_ON_VALGRIND || UNDER_TSAN ? 17 : 1;
    if (stride < 1)
        stride = 1;
    int failed = 0, recovered = 0;
    for (long n = 1; n <= calls; n += stride) {
        long again = 0;
        if (fn(r, n, code, &again) != AMP_OK)
            failed++;
        else
            recovered++;
    }
    print_message("%s: %ld calls; %d failures gave a status, %d were recovered from\n", what,
                  calls, failed, recovered);
    assert_true(failed > 0);
    free(r);
}

static void a_staged_upload_fails_cleanly_at_every_call(void **state)
{
    (void)state;
    amp__test_set_transfer_path(TEST_PATH_STAGED, SLOT, 0);
    every_call_of("staged upload", upload_with_fault, CL_OUT_OF_RESOURCES, 200);
}

static void a_staged_download_fails_cleanly_at_every_call(void **state)
{
    (void)state;
    amp__test_set_transfer_path(TEST_PATH_STAGED, SLOT, 0);
    every_call_of("staged download", download_with_fault, CL_OUT_OF_RESOURCES, 200);
}

static void a_mapped_transfer_fails_cleanly_at_every_call(void **state)
{
    (void)state;
    amp__test_set_transfer_path(TEST_PATH_MAPPED, 0, 0);
    every_call_of("mapped upload", upload_with_fault, CL_OUT_OF_RESOURCES, 3);
    every_call_of("mapped download", download_with_fault, CL_OUT_OF_RESOURCES, 3);
}

/* A device that cannot lock staging memory: the transfer goes direct, and
 * nothing fails. Only the view's own buffer, which the upload makes too,
 * fails the call (naming the bytes it needed). */
static void staging_memory_that_cannot_be_made_is_not_an_error(void **state)
{
    (void)state;
    amp__test_set_transfer_path(TEST_PATH_STAGED, SLOT, 0);
    fault_run *r = malloc(sizeof *r);
    assert_non_null(r);
    long calls = 0;
    assert_amp_ok(upload_with_fault(r, 0, CL_SUCCESS, &calls));
    int tried = 0, recovered = 0;
    for (long n = 1; n <= calls; n++) {
        const char *name = upload_call_names[n];
        if (strcmp(name, "clCreateBuffer") != 0 && strcmp(name, "clEnqueueMapBuffer") != 0)
            continue;
        tried++;
        long again = 0;
        amp_status st = upload_with_fault(r, n, CL_MEM_OBJECT_ALLOCATION_FAILURE, &again);
        if (st == AMP_OK)
            recovered++;
        else
            assert_int_equal(st, AMP_ERROR_OUT_OF_MEMORY);
    }
    print_message("%d of %d failures to allocate were recovered from\n", recovered, tried);
    assert_true(tried >= 4 && recovered >= 3);
    free(r);
}

/* amp_host_alloc with each of its calls failing: a status, a message, and
 * nothing left behind; afterwards it works. */
static void host_alloc_fails_cleanly_at_every_call(void **state)
{
    (void)state;
    amp_shutdown();
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    amp__test_inject_fault(0, CL_SUCCESS);
    void *p;
    assert_amp_ok(amp_host_alloc(1 << 20, av, &p));
    long calls = amp__test_calls_counted();
    assert_amp_ok(amp_host_free(p));
    assert_true(calls >= 3);
    for (long n = 1; n <= calls; n++) {
        cl_int codes[2] = {CL_OUT_OF_RESOURCES, CL_MEM_OBJECT_ALLOCATION_FAILURE};
        for (int k = 0; k < 2; k++) {
            p = (void *)1;
            amp_clear_error();
            amp__test_inject_fault(n, codes[k]);
            amp_status st = amp_host_alloc(1 << 20, av, &p);
            const char *call = amp__test_call_name(n);
            amp__test_inject_fault(0, CL_SUCCESS);
            assert_int_not_equal(st, AMP_OK);
            assert_null(p);
            if (!call || !strstr(amp_last_error(), call))
                fail_msg("call %ld (%s) failing: %s", n, call ? call : "?", amp_last_error());
            if (codes[k] == CL_MEM_OBJECT_ALLOCATION_FAILURE)
                assert_int_equal(st, AMP_ERROR_OUT_OF_MEMORY);
        }
    }
    assert_amp_ok(amp_host_alloc(1 << 20, av, &p));
    assert_amp_ok(amp_host_free(p));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(host_alloc_gives_aligned_memory_that_views_use, restore_policy),
        cmocka_unit_test_teardown(host_alloc_refuses_bad_arguments, restore_policy),
        cmocka_unit_test_teardown(host_memory_outlives_shutdown, restore_policy),
        cmocka_unit_test_teardown(large_views_over_either_memory_move_exactly, restore_policy),
        cmocka_unit_test_teardown(page_locked_memory_goes_direct_where_others_are_staged,
                                  restore_policy),
        cmocka_unit_test_teardown(every_path_gives_the_same_results_and_ledger, restore_policy),
        cmocka_unit_test_teardown(uploads_on_the_transfer_queue_keep_the_order_of_work,
                                  restore_policy),
        cmocka_unit_test_teardown(a_staged_upload_fails_cleanly_at_every_call, restore_policy),
        cmocka_unit_test_teardown(a_staged_download_fails_cleanly_at_every_call, restore_policy),
        cmocka_unit_test_teardown(a_mapped_transfer_fails_cleanly_at_every_call, restore_policy),
        cmocka_unit_test_teardown(staging_memory_that_cannot_be_made_is_not_an_error,
                                  restore_policy),
        cmocka_unit_test_teardown(host_alloc_fails_cleanly_at_every_call, restore_policy),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
