/*
 * tests/reliability/test_faults.c - every OpenCL call of a program's work made to fail,
 * one at a time.
 *
 * The work is what a program does with the library: the matrix-multiply
 * sample's two device multiplies (one thread per element, then 2x2 tiles
 * with tile_static memory), a third on arrays with a copy back to the host,
 * an asynchronous copy, and a kernel over a grid of which only a section is
 * synchronized. It runs once to count its OpenCL calls (clapi.c), then once
 * per call N, from a fresh library (amp_shutdown), with call N failing. For
 * every N:
 *
 *   - some call returns a status other than AMP_OK, with a message; or the
 *     library recovered (a failed optional query, a disk-cache miss) and
 *     every result is right;
 *   - every view still alive is readable afterwards (the fault is spent),
 *     and releasing everything works;
 *   - every element of host memory holds its value from before or its
 *     correct result: inputs are never changed, and nothing is garbage;
 *   - the same work run again at once, without a fault, gives every result
 *     exactly.
 *
 * The process surviving, and (under ASan and valgrind) leaking nothing, is
 * the rest of the check. CL_OUT_OF_RESOURCES is tried at every call;
 * CL_MEM_OBJECT_ALLOCATION_FAILURE at the calls that allocate or move
 * memory, and CL_INVALID_COMMAND_QUEUE at those that use a queue.
 *
 * A device that cannot allocate is C++ AMP's out_of_memory: every call
 * failing with CL_MEM_OBJECT_ALLOCATION_FAILURE (at clCreateBuffer, or at
 * a transfer, where drivers that allocate lazily report it) must give
 * AMP_ERROR_OUT_OF_MEMORY, with a message that says how many bytes could
 * not be allocated; and where the call allocates, for what: the view by
 * its name, or the array.
 */
#include <stdlib.h>

#include "test_util.h"

#include "core/testing.h"

/* ---- The work ---- */

#define MAX_VIEWS 8
#define MAX_ARRAYS 4

typedef struct work {
    /* Host memory, and what each element may hold: its value before the
     * work (before_*) or its result (want_*). */
    int a[6], b[6], product[9];                /* 3x2 by 2x3 */
    int ta[16], tb[16], tproduct[16];          /* 4x4 by 4x4, in 2x2 tiles */
    int aa[16], ab[16], aproduct[16];          /* the same on arrays, copied back */
    int async_out[16];                         /* an asynchronous copy of the array product */
    int grid[64];                              /* 8x8, doubled plus one */
    int before_grid[64];
    int want_product[9], want_tproduct[16], want_grid[64];

    /* Handles alive now, released by the work as it goes, or afterwards. */
    amp_array_view *views[MAX_VIEWS];
    int nviews;
    amp_array *arrays[MAX_ARRAYS];
    int narrays;
    amp_completion *pending;

    const char *failed_step; /* the call that returned the failure */
} work;

static void work_init(work *w)
{
    memset(w, 0, sizeof *w);
    static const int a[6] = {1, 4, 2, 5, 3, 6}, b[6] = {7, 8, 9, 10, 11, 12};
    memcpy(w->a, a, sizeof a);
    memcpy(w->b, b, sizeof b);
    for (int i = 0; i < 16; i++) {
        w->ta[i] = w->aa[i] = 1 + i % 8;
        w->tb[i] = w->ab[i] = 1 + (i * 3) % 7;
    }
    for (int i = 0; i < 64; i++)
        w->grid[i] = w->before_grid[i] = i - 20;

    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            for (int k = 0; k < 2; k++)
                w->want_product[r * 3 + c] += a[r * 2 + k] * b[k * 3 + c];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            for (int k = 0; k < 4; k++)
                w->want_tproduct[r * 4 + c] += w->ta[r * 4 + k] * w->tb[k * 4 + c];
    for (int i = 0; i < 64; i++)
        w->want_grid[i] = 2 * w->before_grid[i] + 1;
}

static amp_status make_view(work *w, amp_extent e, int *data, amp_array_view **out)
{
    amp_status st = amp_array_view_create(AMP_INT, e, data, out);
    if (st == AMP_OK)
        w->views[w->nviews++] = *out;
    return st;
}

/* An array from host data (or, for NULL data, with none). */
static amp_status make_array(work *w, amp_extent e, const int *data, amp_array **out)
{
    amp_status st = data ? amp_array_create_from_host(AMP_INT, e, data, NULL, out)
                         : amp_array_create(AMP_INT, e, NULL, out);
    if (st == AMP_OK)
        w->arrays[w->narrays++] = *out;
    return st;
}

/* Release a handle the work made; it is gone whatever the status says. */
static amp_status drop_view(work *w, amp_array_view *v)
{
    for (int i = 0; i < w->nviews; i++)
        if (w->views[i] == v)
            w->views[i] = w->views[--w->nviews];
    return amp_array_view_release(v);
}

static amp_status drop_array(work *w, amp_array *a)
{
    for (int i = 0; i < w->narrays; i++)
        if (w->arrays[i] == a)
            w->arrays[i] = w->arrays[--w->narrays];
    return amp_array_release(a);
}

/* Run a call of the work; at its failure, say which and stop. */
#define STEP(call)                                                                                 \
    do {                                                                                           \
        amp_status st_ = (call);                                                                   \
        if (st_ != AMP_OK) {                                                                       \
            w->failed_step = #call;                                                                \
            return st_;                                                                            \
        }                                                                                          \
    } while (0)

static amp_status multiply(work *w)
{
    amp_array_view *a, *b, *product;
    STEP(make_view(w, amp_extent_2d(3, 2), w->a, &a));
    STEP(make_view(w, amp_extent_2d(2, 3), w->b, &b));
    STEP(make_view(w, amp_extent_2d(3, 3), w->product, &product));
    STEP(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(product), idx, AMP_CAPTURE(a, b, product), {
        for (int inner = 0; inner < 2; inner++)
            product(idx) += a(idx[0], inner) * b(inner, idx[1]);
    }));
    STEP(amp_array_view_synchronize(product));
    STEP(drop_view(w, a));
    STEP(drop_view(w, b));
    STEP(drop_view(w, product));
    return AMP_OK;
}

static amp_status multiply_tiled(work *w)
{
    static const int TS = 2;
    amp_array_view *a, *b, *product;
    STEP(make_view(w, amp_extent_2d(4, 4), w->ta, &a));
    STEP(make_view(w, amp_extent_2d(4, 4), w->tb, &b));
    STEP(make_view(w, amp_extent_2d(4, 4), w->tproduct, &product));
    STEP(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(4, 4), TS, TS), t,
                               AMP_CAPTURE(a, b, product, AMP_CONST(TS)), {
        int row = t.local[0];
        int col = t.local[1];
        int sum = 0;
        for (int i = 0; i < 4; i += TS) {
            tile_static int locA[TS][TS];
            tile_static int locB[TS][TS];
            locA[row][col] = a(t.global[0], col + i);
            locB[row][col] = b(row + i, t.global[1]);
            t.barrier.wait();
            for (int k = 0; k < TS; k++)
                sum += locA[row][k] * locB[k][col];
            t.barrier.wait();
        }
        product(t.global) = sum;
    }));
    STEP(amp_array_view_synchronize(product));
    STEP(drop_view(w, a));
    STEP(drop_view(w, b));
    STEP(drop_view(w, product));
    return AMP_OK;
}

static amp_status multiply_arrays(work *w)
{
    amp_array *a, *b, *product;
    amp_extent e = amp_extent_2d(4, 4);
    STEP(make_array(w, e, w->aa, &a));
    STEP(make_array(w, e, w->ab, &b));
    STEP(make_array(w, e, NULL, &product));
    STEP(AMP_PARALLEL_FOR_EACH(e, idx, AMP_CAPTURE(a, b, product), {
        int sum = 0;
        for (int k = 0; k < 4; k++)
            sum += a(idx[0], k) * b(k, idx[1]);
        product(idx) = sum;
    }));
    STEP(AMP_COPY(product, w->aproduct));
    STEP(amp_copy_async(amp_data_of(product), amp_data_of(w->async_out), &w->pending));
    amp_completion *c = w->pending;
    w->pending = NULL;
    STEP(amp_completion_release(c));
    STEP(drop_array(w, a));
    STEP(drop_array(w, b));
    STEP(drop_array(w, product));
    return AMP_OK;
}

static amp_status section_synchronize(work *w)
{
    amp_array_view *g, *section;
    STEP(make_view(w, amp_extent_2d(8, 8), w->grid, &g));
    STEP(AMP_PARALLEL_FOR_EACH(amp_extent_2d(8, 8), idx, AMP_CAPTURE(g), {
        g(idx) = 2 * g(idx) + 1;
    }));
    STEP(amp_array_view_section(g, amp_index_2d(2, 1), amp_extent_2d(3, 5), &section));
    w->views[w->nviews++] = section;
    STEP(amp_array_view_synchronize(section));
    STEP(drop_view(w, section));
    STEP(drop_view(w, g));
    return AMP_OK;
}

static amp_status work_run(work *w)
{
    amp_status st = multiply(w);
    if (st == AMP_OK)
        st = multiply_tiled(w);
    if (st == AMP_OK)
        st = multiply_arrays(w);
    if (st == AMP_OK)
        st = section_synchronize(w);
    return st;
}

/* ---- Checks ---- */

/* Each element is its value from before or its result: into why, the
 * first that is neither. */
static int check_ints(const char *name, const int *have, const int *before, const int *want,
                      int n, char *why, size_t size)
{
    for (int i = 0; i < n; i++)
        if (have[i] != before[i] && have[i] != want[i]) {
            snprintf(why, size, "%s[%d] is %d: neither %d from before nor the result %d", name,
                     i, have[i], before[i], want[i]);
            return 1;
        }
    return 0;
}

/* Host memory after the work, whether it finished or not; every result
 * exact when exact is set. Returns 0 when all is well. */
static int check_host(const work *w, int exact, char *why, size_t size)
{
    static const int zeros[64];
    work f;
    work_init(&f);
    /* What a result may still hold instead: nothing, when exact. */
    const int *no_product = exact ? f.want_product : zeros;
    const int *no_tproduct = exact ? f.want_tproduct : zeros;
    const int *no_grid = exact ? f.want_grid : f.before_grid;
    /* Inputs never change. */
    return check_ints("a", w->a, f.a, f.a, 6, why, size) ||
           check_ints("b", w->b, f.b, f.b, 6, why, size) ||
           check_ints("ta", w->ta, f.ta, f.ta, 16, why, size) ||
           check_ints("tb", w->tb, f.tb, f.tb, 16, why, size) ||
           check_ints("aa", w->aa, f.aa, f.aa, 16, why, size) ||
           check_ints("ab", w->ab, f.ab, f.ab, 16, why, size) ||
           check_ints("product", w->product, no_product, f.want_product, 9, why, size) ||
           check_ints("tproduct", w->tproduct, no_tproduct, f.want_tproduct, 16, why, size) ||
           check_ints("aproduct", w->aproduct, no_tproduct, f.want_tproduct, 16, why, size) ||
           check_ints("async_out", w->async_out, no_tproduct, f.want_tproduct, 16, why, size) ||
           check_ints("grid", w->grid, no_grid, f.want_grid, 64, why, size);
}

/* After a failure: wait for what is pending, read every view still alive
 * (the host copy must come back), then release everything. */
static int finish_after_failure(work *w, char *why, size_t size)
{
    if (w->pending) {
        amp_status st = amp_completion_release(w->pending);
        w->pending = NULL;
        if (st != AMP_OK) {
            snprintf(why, size, "the pending copy, waited for after the fault: %s: %s",
                     amp_status_name(st), amp_last_error());
            return 1;
        }
    }
    for (int i = 0; i < w->nviews; i++) {
        const void *p = NULL;
        amp_status st = amp_array_view_data_const(w->views[i], &p);
        if (st != AMP_OK || !p) {
            snprintf(why, size, "view %d is not readable after the fault: %s: %s", i,
                     amp_status_name(st), amp_last_error());
            return 1;
        }
    }
    while (w->nviews > 0) {
        amp_status st = drop_view(w, w->views[w->nviews - 1]);
        if (st != AMP_OK) {
            snprintf(why, size, "releasing a view after the fault: %s: %s", amp_status_name(st),
                     amp_last_error());
            return 1;
        }
    }
    while (w->narrays > 0) {
        amp_status st = drop_array(w, w->arrays[w->narrays - 1]);
        if (st != AMP_OK) {
            snprintf(why, size, "releasing an array after the fault: %s: %s",
                     amp_status_name(st), amp_last_error());
            return 1;
        }
    }
    return 0;
}

/* ---- The loop ---- */

/* What a run with one fault came to. */
enum outcome { FAILED_CLEANLY, RECOVERED };

/* The calls of the work, in the mode counted last: kernels compiled from
 * source (AMP_CACHE=0), or loaded from the disk cache. */
static const char *call_names[4096];
static long ncalls;
static const char *mode;
static int failed_cleanly, recovered, injected;

/* Every call is tried, except under valgrind, where each run of the work
 * takes seconds instead of milliseconds: there every STRIDE-th call of the
 * disk-cache mode only (its leak checks need the failure paths, not all of
 * them). FAULT_STRIDE=k in the environment chooses another stride. */
#define VALGRIND_STRIDE 3
static long stride(void)
{
    const char *s = getenv("FAULT_STRIDE");
    long k = s ? strtol(s, NULL, 10) : RUNNING_ON_VALGRIND ? VALGRIND_STRIDE : 1;
    return k > 0 ? k : 1;
}

/* A check of the status and message a fault gave, beyond the checks every
 * fault has; into why, what is wrong. Set by the test that needs it. */
typedef int (*status_check)(const char *call, amp_status st, const char *msg, char *why,
                            size_t size);
static status_check check_status;
static int allocations_named; /* faults at calls that allocate that named what */

/* The name of a code the test makes a call fail with. */
static const char *code_name(cl_int code)
{
    switch (code) {
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
    default: return "an OpenCL error";
    }
}

/* The work with the nth call failing with code, from a fresh library; then
 * again without a fault. Fails the test with the reason when a check does
 * not hold. */
static enum outcome one_fault(long n, cl_int code)
{
    static work w;
    char why[512] = "";
    amp_shutdown();
    amp__test_inject_fault(n, code);
    work_init(&w);
    amp_clear_error();
    amp_status st = work_run(&w);
    const char *call = amp__test_call_name(n);
    injected++;
    if (!call || strcmp(call, call_names[n]) != 0)
        fail_msg("call %ld was %s when counted and is %s now: the work's calls must not change"
                 " from run to run",
                 n, call_names[n], call ? call : "not made");

    enum outcome out = st != AMP_OK ? FAILED_CLEANLY : RECOVERED;
    if (st != AMP_OK && amp_last_error()[0] == '\0')
        fail_msg("call %ld (%s) failing with %s: %s returned %s with no message", n, call,
                 code_name(code), w.failed_step, amp_status_name(st));
    if (check_status && check_status(call, st, amp_last_error(), why, sizeof why))
        fail_msg("call %ld (%s) failing with %s: %s returned %s: %s", n, call, code_name(code),
                 st != AMP_OK ? w.failed_step : "no call failed", amp_status_name(st), why);
    int wrong = finish_after_failure(&w, why, sizeof why) ||
                check_host(&w, out == RECOVERED, why, sizeof why);
    if (wrong)
        fail_msg("call %ld (%s) failing with %s (%s: %s): %s", n, call, code_name(code),
                 st != AMP_OK ? w.failed_step : "no call failed", amp_status_name(st), why);

    /* The library is still sound: the same work, without a fault. */
    amp__test_inject_fault(0, CL_SUCCESS);
    work_init(&w);
    st = work_run(&w);
    if (st != AMP_OK)
        fail_msg("after call %ld (%s) failed with %s, the work without a fault: %s returned %s:"
                 " %s",
                 n, call, code_name(code), w.failed_step, amp_status_name(st),
                 amp_last_error());
    if (check_host(&w, 1, why, sizeof why))
        fail_msg("after call %ld (%s) failed with %s, the work without a fault: %s", n, call,
                 code_name(code), why);

    if (out == FAILED_CLEANLY) {
        failed_cleanly++;
    } else {
        recovered++;
        print_message("%s: call %ld (%s) failing with %s: recovered from, every result right\n",
                      mode, n, call, code_name(code));
    }
    return out;
}

/* Run the work without a fault, and keep the names of its calls. */
static void count_calls(const char *mode_name, int disk_cache)
{
    static work w;
    mode = mode_name;
    setenv("AMP_CACHE", disk_cache ? "1" : "0", 1);
    /* The test's own folder, unless the environment names one. */
    setenv("AMP_CACHE_DIR", "test_faults_cache", 0);
    /* A first run fills the disk cache, so that the counted one loads every
     * kernel from it, as every later run will. */
    for (int run = 0; run < 1 + disk_cache; run++) {
        amp_shutdown();
        amp__test_inject_fault(0, CL_SUCCESS);
        work_init(&w);
        amp_status st = work_run(&w);
        if (st != AMP_OK)
            fail_msg("%s returned %s: %s", w.failed_step, amp_status_name(st), amp_last_error());
        char why[512];
        if (check_host(&w, 1, why, sizeof why))
            fail_msg("%s", why);
    }
    ncalls = amp__test_calls_counted();
    print_message("%s: the work makes %ld OpenCL calls\n", mode, ncalls);
    assert_true(ncalls > 20);
    assert_true(ncalls < (long)(sizeof call_names / sizeof call_names[0]));
    for (long n = 1; n <= ncalls; n++) {
        call_names[n] = amp__test_call_name(n);
        assert_non_null(call_names[n]);
    }
}

static void every_call_fails(cl_int code)
{
    assert_true(ncalls > 0);
    check_status = NULL;
    if (stride() > 1)
        print_message("every %ld-th call only (under valgrind, or FAULT_STRIDE)\n", stride());
    for (long n = 1; n <= ncalls; n += stride())
        one_fault(n, code);
}

static void from_source_every_call_fails(void **state)
{
    (void)state;
    if (RUNNING_ON_VALGRIND && !getenv("FAULT_STRIDE")) {
        print_message("skipped under valgrind: compiling from source there takes minutes per"
                      " run (the disk-cache runs below cover the same paths but the build)\n");
        skip();
    }
    count_calls("from source", 0);
    every_call_fails(CL_OUT_OF_RESOURCES);
}

static void from_disk_cache_every_call_fails(void **state)
{
    (void)state;
    count_calls("from the disk cache", 1);
    every_call_fails(CL_OUT_OF_RESOURCES);
}

static int allocates_or_moves(const char *call)
{
    return call && (strstr(call, "Buffer") != NULL || strstr(call, "Image") != NULL);
}

/* The calls that allocate device memory: buffers and images. */
static int allocates(const char *call)
{
    return call && (strcmp(call, "clCreateBuffer") == 0 || strcmp(call, "clCreateSubBuffer") == 0 ||
                    strncmp(call, "clCreateImage", 13) == 0);
}

/* CL_MEM_OBJECT_ALLOCATION_FAILURE from any call is AMP_ERROR_OUT_OF_MEMORY,
 * and the message says "<what> needs <n> bytes on <device>", n the size of
 * one of the work's views or arrays; where the call allocates, <what> names
 * the view ("View 'a'") or says it is an array. */
static int out_of_memory_named(const char *call, amp_status st, const char *msg, char *why,
                               size_t size)
{
    static const size_t sizes[] = {sizeof(int[6]), sizeof(int[9]), sizeof(int[16]),
                                   sizeof(int[64])};
    if (st != AMP_ERROR_OUT_OF_MEMORY) {
        snprintf(why, size, "expected AMP_ERROR_OUT_OF_MEMORY: %s", msg);
        return 1;
    }
    const char *needs = strstr(msg, " needs ");
    unsigned long long bytes = 0;
    char on[4] = "";
    if (!needs || sscanf(needs, " needs %llu bytes %3s", &bytes, on) != 2 ||
        strcmp(on, "on") != 0) {
        snprintf(why, size, "the message does not say how many bytes could not be allocated: %s",
                 msg);
        return 1;
    }
    int known = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        known |= bytes == sizes[i];
    if (!known) {
        snprintf(why, size, "%llu bytes is the size of none of the work's views or arrays: %s",
                 bytes, msg);
        return 1;
    }
    if (!allocates(call))
        return 0;
    /* What needed the memory: the text before " needs". */
    char what[128];
    size_t len = (size_t)(needs - msg) < sizeof what - 1 ? (size_t)(needs - msg) : sizeof what - 1;
    memcpy(what, msg, len);
    what[len] = '\0';
    const char *name = strstr(what, "View '");
    int named = name && name[6] != '\'' && strchr(name + 6, '\'') != NULL &&
                strstr(what, "(unnamed)") == NULL;
    if (!named && !strstr(what, "array")) {
        snprintf(why, size, "the message does not name what could not be allocated (\"%s\"): %s",
                 what, msg);
        return 1;
    }
    allocations_named++;
    return 0;
}

static int uses_a_queue(const char *call)
{
    return call && (strncmp(call, "clEnqueue", 9) == 0 || strcmp(call, "clFinish") == 0 ||
                    strcmp(call, "clFlush") == 0);
}

/* The calls of one kind, every stride-th of them, failing with code; each
 * fault's status and message checked by check too, unless it is NULL. */
static void calls_of_a_kind_fail(int (*kind)(const char *), const char *what, cl_int code,
                                 status_check check)
{
    int seen = 0, tried = 0;
    check_status = check;
    for (long n = 1; n <= ncalls; n++)
        if (kind(call_names[n]) && seen++ % stride() == 0) {
            one_fault(n, code);
            tried++;
        }
    check_status = NULL;
    print_message("%s: %d of the %d calls that %s, failing with %s\n", mode, tried, seen, what,
                  code_name(code));
    assert_true(seen > 5 && tried > 0);
}

static void memory_calls_fail_with_allocation_failure(void **state)
{
    (void)state;
    calls_of_a_kind_fail(allocates_or_moves, "allocate or move memory",
                         CL_MEM_OBJECT_ALLOCATION_FAILURE, out_of_memory_named);
    print_message("%s: each gave AMP_ERROR_OUT_OF_MEMORY and the bytes it needed; the %d at calls"
                  " that allocate named the view or the array\n",
                  mode, allocations_named);
    assert_true(allocations_named > 0);
}

static void queue_calls_fail_with_invalid_queue(void **state)
{
    (void)state;
    calls_of_a_kind_fail(uses_a_queue, "use a queue", CL_INVALID_COMMAND_QUEUE, NULL);
}

static int teardown(void **state)
{
    (void)state;
    amp__test_inject_fault(0, CL_SUCCESS);
    print_message("%d faults injected: %d gave a status and a message, %d were recovered from"
                  " with every result right\n",
                  injected, failed_cleanly, recovered);
    amp_shutdown();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(from_source_every_call_fails),
        cmocka_unit_test(from_disk_cache_every_call_fails),
        cmocka_unit_test(memory_calls_fail_with_allocation_failure),
        cmocka_unit_test(queue_calls_fail_with_invalid_queue),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
