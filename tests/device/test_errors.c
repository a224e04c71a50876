/*
 * tests/device/test_errors.c - bad input gets a status and a message a person can
 * act on, and leaves host data as it was.
 */
#include <stdlib.h>

#include "test_util.h"

#include "core/testing.h"

static void extent_not_divisible_by_tile_names_both(void **state)
{
    (void)state;
    int data[6 * 4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(6, 4), data, &v));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(6, 4), 4, 2), t,
                                           AMP_CAPTURE(v), { v(t.global) = 1; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                     "the extent 6x4 is not divisible by the tile 4x2: dimension 0 has 6 elements,"
                     " which is not a multiple of 4. Pad the domain (amp_tiled_extent_pad, C++"
                     " AMP's pad(): the extra threads lie past the data; test t_idx.global"
                     " against the original extent before writing), truncate it"
                     " (amp_tiled_extent_truncate: the last elements get no thread)");
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(data[0], 0);
}

static void tile_over_the_work_group_limit_is_a_device_limit(void **state)
{
    (void)state;
    amp_accelerator *acc;
    amp_accelerator_info info;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    assert_amp_ok(amp_accelerator_get_info(acc, &info));
    int side = 1;
    while ((size_t)side * (size_t)side <= info.max_tile_size)
        side *= 2;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(side, side), side, side),
                                           t, AMP_NO_CAPTURE, { (void)t; }),
                     AMP_ERROR_DEVICE_LIMIT, "CL_DEVICE_MAX_WORK_GROUP_SIZE");
}

static void bad_domains_are_invalid_compute_domains(void **state)
{
    (void)state;
    amp_extent zero = amp_extent_2d(0, 4), negative = amp_extent_1d(-5), rank9 = {9, {1, 1, 1, 1, 1, 1, 1, 1}};
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(zero, i, AMP_NO_CAPTURE, { (void)i; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "dimension 0 of the extent is 0");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(negative, i, AMP_NO_CAPTURE, { (void)i; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "is -5");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(rank9, i, AMP_NO_CAPTURE, { (void)i; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "rank 9");
    amp_tiled_extent mismatch = amp_extent_tile_1d(amp_extent_2d(4, 4), 2);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(mismatch, t, AMP_NO_CAPTURE, { (void)t; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "the tile has rank 1 and the extent rank 2");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(4), 0), t,
                                           AMP_NO_CAPTURE, { (void)t; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "every tile dimension must be > 0");
}

static void a_kernel_that_does_not_compile_names_the_users_line(void **state)
{
    (void)state;
    int data[4] = {1, 2, 3, 4};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &v));
    int line = __LINE__ + 3;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v), {
        /* a comment, which the preprocessor drops */
        v(idx[0]) = undeclared_name + 1;
    }),
                     AMP_ERROR_KERNEL_BUILD, "did not compile");
    const char *msg = amp_last_error();
    char where[128];
    /* As a C compiler reports it: file:line:column, the line, a caret. */
    snprintf(where, sizeof where, "test_errors.c:%d:21: error: use of undeclared identifier 'undeclared_name'", line);
    if (!strstr(msg, where))
        fail_msg("no \"%s\" in:\n%s", where, msg);
    snprintf(where, sizeof where, "%5d |         v(idx[0]) = undeclared_name + 1;\n      |                     ^", line);
    if (!strstr(msg, where))
        fail_msg("no \"%s\" in:\n%s", where, msg);
    /* Then the driver's log and the numbered generated source. */
    assert_non_null(strstr(msg, "Build log:"));
    assert_non_null(strstr(msg, "    1 | /*"));
    assert_non_null(strstr(msg, "v(idx[0]) = undeclared_name + 1;"));
    /* Nothing moved, and the host data is intact and still usable. */
    assert_int_equal(transfers_now().uploads, 0);
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(data[3], 4);
}

#define HELPER_SCALE 3
#define HELPER_TWICE(x) ((x) * 2)

/* Host macros expand in a helper's body, as in a kernel's. */
AMP_FUNCTION(int, six_times, (int x), { return HELPER_TWICE(x) * HELPER_SCALE; });

static const int broken_helper_line = __LINE__ + 1;
AMP_FUNCTION(int, broken_helper, (int x), {
    int y = HELPER_TWICE(x);
    return y + undeclared_in_helper;
});

static void host_macros_expand_in_helpers(void **state)
{
    (void)state;
    int data[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v, six_times), {
        v(idx[0]) = six_times(idx[0]);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 4; i++)
        assert_int_equal(data[i], 6 * i);
    assert_amp_ok(amp_array_view_release(v));
}

static void expect_at(const char *msg, const char *file_line_col, const char *source_line,
                      int line, int column)
{
    char where[256];
    snprintf(where, sizeof where, "%s", file_line_col);
    if (!strstr(msg, where))
        fail_msg("no \"%s\" in:\n%s", where, msg);
    char caret[160];
    snprintf(caret, sizeof caret, "%5d | %s\n      | %*s^", line, source_line, column - 1, "");
    if (!strstr(msg, caret))
        fail_msg("no \"%s\" in:\n%s", caret, msg);
}

/* How many times needle stands in haystack. */
static int occurrences(const char *haystack, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(haystack, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* A name of the program's used in a body (an enum constant, as the C++ AMP
 * lambda would have captured it): the report says how to bring it in, once,
 * under the first use, though the body uses it and another name twice. */
static void a_name_of_the_programs_own_gets_the_advice_to_capture_it(void **state)
{
    (void)state;
    enum { TILE_ROWS = 4 };
    float data[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(4), data, &v));
    int line = __LINE__ + 2;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v), {
        v(idx[0]) = TILE_ROWS * host_scale + TILE_ROWS * host_scale;
    }),
                     AMP_ERROR_KERNEL_BUILD, "did not compile");
    const char *msg = amp_last_error();
    char first[160];
    snprintf(first, sizeof first,
             "test_errors.c:%d:21: error: use of undeclared identifier 'TILE_ROWS'", line);
    const char *at = strstr(msg, first);
    if (!at)
        fail_msg("no \"%s\" in:\n%s", first, msg);
    const char *hint = strstr(msg, "      = The kernel sees only what AMP_CAPTURE names");
    if (!hint || hint < at || occurrences(msg, "      = ") != 1)
        fail_msg("no one hint under the first report in:\n%s", msg);
    assert_non_null(strstr(hint, "capture 'TILE_ROWS' by name, or as AMP_CONST(TILE_ROWS)"));
    /* The next report follows the hint: the advice sits under the first. */
    assert_true(strstr(hint, "error: use of undeclared identifier") != NULL);
    assert_amp_ok(amp_array_view_release(v));
}

/* A tile_static array sized by a value captured by name: the declaration
 * goes above the captured values in the generated kernel, so the name is
 * undeclared there although it is captured. The advice is AMP_CONST, not
 * "capture it". */
static void a_tile_static_size_captured_by_value_gets_the_advice_of_amp_const(void **state)
{
    (void)state;
    int width = 4;
    float data[8] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(8), data, &v));
    int line = __LINE__ + 3;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(8), 4), t,
                                           AMP_CAPTURE(v, width), {
        tile_static float shared[width];
        shared[t.local[0]] = 1.0f;
        t.barrier.wait();
        v(t.global) = shared[0];
    }),
                     AMP_ERROR_KERNEL_BUILD, "did not compile");
    const char *msg = amp_last_error();
    char where[160];
    snprintf(where, sizeof where, "test_errors.c:%d:34: error: use of undeclared identifier 'width'",
             line);
    expect_at(msg, where, "        tile_static float shared[width];", line, 34);
    assert_non_null(strstr(msg, "      = A tile_static array is made before the kernel's captured"));
    assert_non_null(strstr(msg, "capture 'width' as AMP_CONST(width)"));
    assert_null(strstr(msg, "capture 'width' by name"));
    /* As the advice says. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(8), 4), t,
                                        AMP_CAPTURE(v, AMP_CONST(width)), {
        tile_static float shared[width];
        shared[t.local[0]] = 1.0f;
        t.barrier.wait();
        v(t.global) = shared[0];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_true(data[0] == 1.0f && data[7] == 1.0f);
    assert_amp_ok(amp_array_view_release(v));
}

static float host_square(float x)
{
    return x * x;
}

/* The other names a body may use undeclared, each with its own advice:
 * the index under the name of another kernel's, and a function of the
 * host's called in the body. And a C++ reference declared in a body. */
static void other_undeclared_names_get_their_own_advice(void **state)
{
    (void)state;
    float data[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(4), data, &v));
    amp_tiled_extent domain = amp_extent_tile_1d(amp_extent_1d(4), 2);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(domain, idx, AMP_CAPTURE(v), {
        v(t_idx.global) = 1.0f;
    }),
                     AMP_ERROR_KERNEL_BUILD, "use of undeclared identifier 't_idx'");
    assert_non_null(strstr(amp_last_error(), "      = 't_idx' is not the kernel's index: this"
                                             " kernel names it 'idx'"));
    assert_null(strstr(amp_last_error(), "capture 't_idx'"));
    assert_true(host_square(2.0f) == 4.0f);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v), {
        v(idx) = host_square(v(idx));
    }),
                     AMP_ERROR_KERNEL_BUILD, "'host_square'");
    /* Under the compiler's report of the name, or (NVIDIA's, from its own
     * cache) under its linker's of the call: the advice is AMP_FUNCTION. */
    assert_non_null(strstr(amp_last_error(), "AMP_FUNCTION"));
    assert_null(strstr(amp_last_error(), "AMP_CONST(host_square)"));
    int line = __LINE__ + 3;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v), {
        float x = 1.0f;
        float &alias = x;
        v(idx) = alias;
    }),
                     AMP_ERROR_KERNEL_BUILD, "C has no references: use the variable itself");
    char where[96];
    snprintf(where, sizeof where, "test_errors.c:%d:15: error: C has no references", line);
    assert_non_null(strstr(amp_last_error(), where));
    assert_amp_ok(amp_array_view_release(v));
}

/* Two of the compiler's errors in the generated source's words: a write
 * to a view made const, and a rank-2 view given one integer. Each gets a
 * line that says it in the library's. */
static void a_const_view_written_and_an_index_of_another_rank_are_explained(void **state)
{
    (void)state;
    float data[4] = {0}, grid[2][2] = {{0}};
    amp_array_view *in, *m;
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_1d(4), data, &in));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(2, 2), grid, &m));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(in), {
        in(idx) = 2.0f;
    }),
                     AMP_ERROR_KERNEL_BUILD, "read-only variable is not assignable");
    assert_non_null(strstr(amp_last_error(), "it was made with amp_array_view_create_const"));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(2), idx, AMP_CAPTURE(m), {
        m(idx[0]) = 1.0f;
    }),
                     AMP_ERROR_KERNEL_BUILD, "did not compile");
    assert_non_null(strstr(amp_last_error(), "      = A view of rank 2 takes 2 integers, v(i, j)"));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(2), idx, AMP_CAPTURE(m), {
        m(idx[0], 0, 1) = 1.0f;
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "a view of rank 2 takes 2 integers, v(i, j), or an index<2>, and 3 are given");
    /* A component past an index's rank: C reads another, or nothing. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(2, 2), 2, 2), t_idx,
                                           AMP_CAPTURE(m), { m[t_idx] = (float)t_idx.local[2]; }),
                     AMP_ERROR_KERNEL_BUILD,
                     "an index of rank 2 has the components [0] to [1], and [2] is past them");
    /* sizeof of a 3-vector the kernel holds: 16 bytes in OpenCL C, 12 in
     * C++ AMP. A view's element keeps C++ AMP's 12. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(m), {
        float_3 p = float_3(1.0f);
        m(0, 0) = (float)sizeof(p) + p.x;
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "sizeof of a 3-vector is 16 bytes in a kernel (OpenCL C keeps a float3 in a"
                     " float4's room) and 12 in C++ AMP: write 3 * sizeof(float)");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(m),
                                           { m(0, 0) = (float)sizeof(int_3[2]); }),
                     AMP_ERROR_KERNEL_BUILD, "write 3 * sizeof(int)");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(m),
                                           { m(0, 0) = (float)sizeof(const float_3); }),
                     AMP_ERROR_KERNEL_BUILD, "write 3 * sizeof(float)");
    /* A pointer without the address space of what it points into: an
     * OpenCL 1.2 compiler refuses it (PoCL's), and the advice says what to
     * write; NVIDIA's takes it (and writes the element). */
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(m), {
        float *q = &m(0, 0);
        *q = 1.0f;
    });
    if (st != AMP_OK) {
        assert_int_equal(st, AMP_ERROR_KERNEL_BUILD);
        assert_non_null(strstr(amp_last_error(), "      = A pointer in a kernel says which memory"
                                                 " it points into"));
    }
    /* A tiled index has no subscript; OpenCL C says only that a struct is
     * no number. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(2, 2), 2, 2), t_idx,
                                           AMP_CAPTURE(m), { m[t_idx] = (float)t_idx[0]; }),
                     AMP_ERROR_KERNEL_BUILD,
                     "a tiled_index has no subscript: write t_idx.global[k] for the thread's place"
                     " in the extent, t_idx.local[k] for its place in its tile");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(in), {
        float x = in[idx];
        (void)x;
        int e = in.extent[1];
        (void)e;
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "an extent of rank 1 has the components [0] to [0], and [1] is past them");
    /* A tile_static variable's initializer: OpenCL C's message is about
     * '__local'. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(2, 2), 2, 2), t_idx,
                                           AMP_CAPTURE(m), {
        tile_static float total = 0.0f;
        m[t_idx] = total;
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "a tile_static variable takes no initializer (in C++ AMP neither)");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(2, 2), 2, 2), t_idx,
                                           AMP_CAPTURE(m), {
        tile_static int count(0);
        m[t_idx] = (float)count;
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "a tile_static variable takes no initializer (in C++ AMP neither)");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(2), idx, AMP_CAPTURE(m), {
        m[idx[0]][0] = (float)idx[0x1];
    }),
                     AMP_ERROR_KERNEL_BUILD, "and [0x1] is past them");
    /* m[i] of a rank-2 view is a row (a projection), which takes no value;
     * m[i][j] is an element. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(2), idx, AMP_CAPTURE(m), {
        m[idx[0]] = 1.0f;
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "this assigns to a view of rank 1 made by [] from a view of rank 2 (C++ AMP's"
                     " projection), not to an element: index it down to an element");
    /* The same through a view the body keeps. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(2), idx, AMP_CAPTURE(m), {
        array_view<float, 2> rows = m;
        rows[idx[0]] = 1.0f;
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "this assigns to a view of rank 1 made by [] from a view of rank 2 (C++ AMP's"
                     " projection), not to an element: index it down to an element");
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(2), idx, AMP_CAPTURE(m), {
        array_view<float, 2> rows = m;
        rows[idx[0]][0] = 2.0f;
        m[idx[0]][1] = 1.0f;
    }));
    assert_amp_ok(amp_array_view_synchronize(m));
    assert_true(grid[0][1] == 1.0f && grid[1][1] == 1.0f && grid[0][0] == 2.0f &&
                grid[1][0] == 2.0f);
    assert_amp_ok(amp_array_view_release(in));
    assert_amp_ok(amp_array_view_release(m));
}

/* A barrier that only the threads of a branch on their own index reach:
 * refused before it runs (PoCL's threads crashed on it; a GPU's tile may
 * hang), at the barrier's line, in every branch of the chain and in loops
 * whose condition depends on the thread. Barriers under conditions every
 * thread of a tile shares (a capture, the tile's own index, a loop
 * counter) run. Under AMP_CHECK the checker reports it instead. */
static void a_barrier_under_a_condition_on_the_thread_is_refused(void **state)
{
    (void)state;
    if (getenv("AMP_CHECK"))
        skip();
    enum { LEN = 16 };
    float data[LEN] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(LEN), data, &v));
    amp_tiled_extent domain = amp_extent_tile_1d(amp_extent_1d(LEN), 4);
    const char *advice = "move the barrier out of the branch";
    int rounds = 3;
    int line = __LINE__ + 3;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v), {
        if (t_idx.local[0] < 2) {
            t_idx.barrier.wait();
        }
        v(t_idx.global) = 1;
    }),
                     AMP_ERROR_KERNEL_BUILD, advice);
    char where[96];
    snprintf(where, sizeof where, "test_errors.c:%d:19: error: this barrier is inside a branch",
             line);
    expect_at(amp_last_error(), where, "            t_idx.barrier.wait();", line, 19);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v), {
        if (t_idx.global[0] % 2 == 0)
            v(t_idx.global) = 1;
        else if (v(t_idx.global) > 0)
            v(t_idx.global) = 2;
        else
            t_idx.barrier.wait_with_tile_static_memory_fence();
    }),
                     AMP_ERROR_KERNEL_BUILD, advice);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v), {
        int i = 0;
        while (i < t_idx.local[0]) {
            t_idx.barrier.wait();
            i++;
        }
    }),
                     AMP_ERROR_KERNEL_BUILD, advice);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v), {
        for (int i = 0; i < t_idx.local[0]; i++)
            t_idx.barrier.wait();
    }),
                     AMP_ERROR_KERNEL_BUILD, advice);
    /* Through variables set from the index, or set under such a branch. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v), {
        int lid = t_idx.local[0];
        int pair = lid / 2;
        if (pair == 0)
            t_idx.barrier.wait();
    }),
                     AMP_ERROR_KERNEL_BUILD, advice);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v), {
        int skip = 0;
        if (t_idx.global[0] > 2)
            skip = 1;
        while (!skip) {
            t_idx.barrier.wait();
            skip = 1;
        }
    }),
                     AMP_ERROR_KERNEL_BUILD, advice);
    /* Threads that leave for good before a barrier: a return, a break or
     * continue out of a loop that waits, a do ... while's condition. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v), {
        if (t_idx.local[0] == 0)
            return;
        t_idx.barrier.wait();
        v(t_idx.global) = 1;
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "a return (or goto) under a condition on the thread's global or local index"
                     " comes before this barrier");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v), {
        for (int i = 0; i < 4; i++) {
            if (i == t_idx.local[0])
                break;
            t_idx.barrier.wait();
        }
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "a break, continue or return under a condition on the thread's global or"
                     " local index comes before this barrier in its loop or switch");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v), {
        for (int i = 0; i < 4; i++) {
            if (t_idx.global[0] == i)
                continue;
            t_idx.barrier.wait();
        }
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "a break, continue or return under a condition on the thread's global or"
                     " local index comes before this barrier in its loop or switch");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v, rounds), {
        switch (rounds) {
        case 3:
            if (t_idx.local[0] == 0)
                break;
            t_idx.barrier.wait();
        }
    }),
                     AMP_ERROR_KERNEL_BUILD, "comes before this barrier in its loop or switch");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v), {
        if (t_idx.global[0] > 5)
            goto done;
        t_idx.barrier.wait();
        v(t_idx.global) = 1;
    done:;
    }),
                     AMP_ERROR_KERNEL_BUILD, "comes before this barrier");
    /* A loop's condition on a variable the loop sets from the index. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v), {
        int i = 0;
        while (i < 4) {
            t_idx.barrier.wait();
            i += t_idx.local[0] + 1;
        }
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "this loop's condition reads 'i', which the loop sets from the thread's"
                     " global or local index");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v), {
        int i = 0;
        do {
            t_idx.barrier.wait();
            i++;
        } while (i < t_idx.local[0]);
    }),
                     AMP_ERROR_KERNEL_BUILD, "this do ... while's condition depends on the thread");
    assert_int_equal(data[0], 0); /* nothing ran */
    /* Leaving where no barrier follows, a break out of a switch, a continue
     * after the barriers of its turn, and exits under conditions every
     * thread shares: these run. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v, rounds), {
        for (int r = 0; r < 4; r++) {
            t_idx.barrier.wait();
            if (t_idx.local[0] == r)
                continue;
            if (r == rounds)
                break;
            switch (t_idx.local[0]) {
            case 0:
                break;
            default:
                v(t_idx.global) += 0;
            }
        }
        int i = 0;
        do {
            t_idx.barrier.wait();
        } while (++i < rounds);
        if (t_idx.local[0] == 3)
            return;
        v(t_idx.global) = 0;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_int_equal(data[0], 0);
    /* Conditions every thread of a tile shares, and a branch on the
     * thread with the barrier after it: these run. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(v, rounds), {
        tile_static float shared[4];
        int r;
        /* r set from the index, then set again for all threads alike. */
        for (r = t_idx.local[0]; r < 4; r += 4)
            shared[r] = 0.0f;
        t_idx.barrier.wait();
        for (r = 0; r < rounds; r++) {
            if (t_idx.local[0] == 0)
                shared[0] = (float)(r + 1);
            t_idx.barrier.wait();
            if (t_idx.tile[0] >= 0 && rounds > 0)
                t_idx.barrier.wait();
            v(t_idx.global) += shared[0];
            t_idx.barrier.wait();
        }
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < LEN; i++)
        assert_true(data[i] == 6.0f);
    assert_amp_ok(amp_array_view_release(v));
}

/* Helpers that wait at the tile's barrier, and helpers given a tiled
 * index: what C++ AMP's compiler refuses is refused before the kernel runs,
 * where PoCL's threads crashed on the barrier and the helper's tile_static
 * arrays, sized by its declared tile, were indexed by the launch's. */
AMP_FUNCTION(int, shared_first, (const tiled_index<4> &t_idx, tile_static int *s), {
    t_idx.barrier.wait();
    return s[0];
});
AMP_FUNCTION(int, wait_then_first, (tile_barrier &barrier, tile_static int *s), {
    barrier.wait_with_tile_static_memory_fence();
    return s[0];
});
AMP_FUNCTION(int, through_a_waiting_helper, (const tiled_index<4> &t_idx, tile_static int *s), {
    return shared_first(t_idx, s) + 1;
});
AMP_FUNCTION(int, pair_sum, (const tiled_index<2> &t, int value), {
    tile_static int pair[2];
    pair[t.local[0]] = value;
    t.barrier.wait();
    return pair[0] + pair[1];
});
AMP_FUNCTION(int, takes_the_barrier, (tile_barrier &barrier, int x), { return x; });
AMP_FUNCTION(int, wait_if, (tile_barrier &barrier, int x), {
    int twice = 2 * x;
    if (twice > 0)
        barrier.wait();
    return x;
});
AMP_FUNCTION(int, guarded_wait, (tile_barrier &barrier, int i, int n), {
    if (i >= n)
        return 0;
    barrier.wait();
    return 1;
});
AMP_FUNCTION(int, tile_reduce_4, (const tiled_index<4> &t, int value, int width), {
    tile_static int sums[4];
    sums[t.local[0]] = value;
    t.barrier.wait();
    for (int stride = width / 2; stride > 0; stride /= 2) {
        if (t.local[0] < stride)
            sums[t.local[0]] += sums[t.local[0] + stride];
        t.barrier.wait();
    }
    return sums[0];
});
AMP_FUNCTION(int, passes_a_tile_of_4_on, (const tiled_index<4> &t, int value),
             { return pair_sum(t, value); });
AMP_FUNCTION(int, tile_sum_of_4, (const tiled_index<4> &t_idx, int value), {
    tile_static int values[4];
    values[t_idx.local[0]] = value;
    t_idx.barrier.wait();
    return values[0] + values[1] + values[2] + values[3];
});

static void helpers_that_wait_or_take_a_tiled_index_are_checked(void **state)
{
    (void)state;
    if (getenv("AMP_CHECK"))
        skip();
    enum { LEN = 16 };
    int data[LEN] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(LEN), data, &v));
    amp_tiled_extent by4 = amp_extent_tile_1d(amp_extent_1d(LEN), 4);
    /* A helper that waits, called under a condition on the thread. */
    int line = __LINE__ + 5;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(by4, t_idx, AMP_CAPTURE(v, shared_first), {
        tile_static int s[4];
        s[t_idx.local[0]] = t_idx.local[0] + 1;
        if (t_idx.local[0] < 2)
            v[t_idx] = shared_first(t_idx, s);
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "shared_first waits at the tile's barrier, and this call is inside a branch");
    char where[96];
    snprintf(where, sizeof where, "test_errors.c:%d:24: error: shared_first waits", line);
    assert_non_null(strstr(amp_last_error(), where));
    /* Through another helper, through a tile_barrier, and a tile_barrier's
     * own wait under such a branch. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(by4, t_idx,
                                           AMP_CAPTURE(v, shared_first, through_a_waiting_helper), {
        tile_static int s[4];
        s[t_idx.local[0]] = 1;
        v[t_idx] = t_idx.local[0] == 0 ? 0 : through_a_waiting_helper(t_idx, s);
    }),
                     AMP_ERROR_KERNEL_BUILD, "through_a_waiting_helper waits at the tile's barrier");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(by4, t_idx, AMP_CAPTURE(v, shared_first), {
        tile_static int s[4];
        s[t_idx.local[0]] = 1;
        v[t_idx] = t_idx.local[0] > 0 && shared_first(t_idx, s) > 0;
    }),
                     AMP_ERROR_KERNEL_BUILD, "shared_first waits at the tile's barrier");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(by4, t_idx, AMP_CAPTURE(v, wait_then_first), {
        tile_static int s[4];
        tile_barrier barrier = t_idx.barrier;
        s[t_idx.local[0]] = 1;
        for (int i = 0; i < t_idx.local[0]; i++)
            v[t_idx] += wait_then_first(barrier, s);
    }),
                     AMP_ERROR_KERNEL_BUILD, "wait_then_first waits at the tile's barrier");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(by4, t_idx, AMP_CAPTURE(v), {
        tile_barrier barrier = t_idx.barrier;
        if (t_idx.global[0] > 3)
            barrier.wait();
        v[t_idx] = 1;
    }),
                     AMP_ERROR_KERNEL_BUILD, "this barrier is inside a branch or loop");
    /* A for's step runs where its condition holds, as its body does. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(by4, t_idx, AMP_CAPTURE(v), {
        for (int i = 0; i < t_idx.local[0]; t_idx.barrier.wait(), i++)
            v[t_idx] += 1;
    }),
                     AMP_ERROR_KERNEL_BUILD, "this barrier is inside a branch or loop");
    /* A helper that waits under a condition on its parameter, given a
     * value that differs between threads (directly, or through a helper
     * of the caller's); a value they share, and a per-thread value the
     * condition does not read, run. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(by4, t_idx, AMP_CAPTURE(v, wait_if), {
        tile_barrier barrier = t_idx.barrier;
        v[t_idx] = wait_if(barrier, t_idx.local[0]);
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "wait_if waits at the tile's barrier under a condition on its parameter 2,"
                     " and this value differs from thread to thread");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(by4, t_idx, AMP_CAPTURE(v, guarded_wait), {
        tile_barrier barrier = t_idx.barrier;
        v[t_idx] = guarded_wait(barrier, t_idx.global[0], 6);
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "guarded_wait waits at the tile's barrier under a condition on its"
                     " parameter 2");
    /* A helper that takes the barrier and does not wait is no barrier. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(by4, t_idx, AMP_CAPTURE(v, takes_the_barrier), {
        tile_barrier barrier = t_idx.barrier;
        if (t_idx.local[0] == 0)
            v[t_idx] = takes_the_barrier(barrier, 0);
    }));
    /* A helper's tiled_index of another tile or rank, or given an index. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(LEN), 8), t_idx,
                                           AMP_CAPTURE(v, tile_sum_of_4), {
        v[t_idx] = tile_sum_of_4(t_idx, 1);
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "tile_sum_of_4 takes a tiled_index<4>, and this kernel's index is"
                     " tiled_index<8> (the launch's tile): declare the parameter as the launch's"
                     " tile, or launch over the tile the parameter declares");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(4, 4), 2, 2), t_idx,
                                           AMP_CAPTURE(v, tile_sum_of_4), {
        v[t_idx.global[0] * 4 + t_idx.global[1]] = tile_sum_of_4(t_idx, 1);
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "tile_sum_of_4 takes a tiled_index<4>, and this kernel's index is"
                     " tiled_index<2, 2>");
    /* A helper's tiled_index<4> given to one that takes tiled_index<2>. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(by4, t_idx,
                                           AMP_CAPTURE(v, pair_sum, passes_a_tile_of_4_on), {
        v[t_idx] = passes_a_tile_of_4_on(t_idx, 1);
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "pair_sum takes a tiled_index<2>, and the tiled index given to it is"
                     " tiled_index<4>");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(LEN), idx, AMP_CAPTURE(v, tile_sum_of_4), {
        v[idx] = tile_sum_of_4(idx, 1);
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "tile_sum_of_4 takes a tiled_index<4>, the index of a tiled kernel");
    assert_int_equal(data[0], 0); /* nothing ran */
    int four = 4;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(by4, t_idx, AMP_CAPTURE(v, wait_if, tile_reduce_4, four), {
        tile_barrier barrier = t_idx.barrier;
        v[t_idx] = wait_if(barrier, four) + tile_reduce_4(t_idx, t_idx.local[0], four);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < LEN; i++)
        assert_int_equal(data[i], 4 + 6);
    /* Called where every thread is, with its own tile: it runs. So does an
     * untiled kernel that captures such a helper and does not call it. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(by4, t_idx, AMP_CAPTURE(v, tile_sum_of_4), {
        v[t_idx] = tile_sum_of_4(t_idx, t_idx.global[0]);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < LEN; i++)
        assert_int_equal(data[i], 4 * (i / 4 * 4) + 6);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(LEN), idx, AMP_CAPTURE(v, tile_sum_of_4), {
        v[idx] = idx[0] + 1;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < LEN; i++)
        assert_int_equal(data[i], i + 1);
    assert_amp_ok(amp_array_view_release(v));
}

static void a_build_error_in_a_helper_names_the_helpers_line(void **state)
{
    (void)state;
    int data[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &v));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v, broken_helper), {
        v(idx[0]) = broken_helper(idx[0]);
    }),
                     AMP_ERROR_KERNEL_BUILD, "did not compile");
    char where[160];
    snprintf(where, sizeof where,
             "test_errors.c:%d:16: error: use of undeclared identifier 'undeclared_in_helper'",
             broken_helper_line + 2);
    expect_at(amp_last_error(), where, "    return y + undeclared_in_helper;",
              broken_helper_line + 2, 16);
    /* A helper's advice is its own: the kernel's captures are not its. */
    assert_non_null(strstr(amp_last_error(), "      = A helper sees only its parameters"));
    assert_non_null(strstr(amp_last_error(), "pass 'undeclared_in_helper' to it as a parameter"));
    /* The generated source says where the helper is written: at the line
     * of the macro's __LINE__, which is where the call starts with gcc and
     * where it ends with clang. */
    char where_end[160];
    snprintf(where, sizeof where, "Helper function broken_helper (AMP_FUNCTION at %s:%d)",
             __FILE__, broken_helper_line);
    snprintf(where_end, sizeof where_end, "Helper function broken_helper (AMP_FUNCTION at %s:%d)",
             __FILE__, broken_helper_line + 3);
    assert_true(strstr(amp_last_error(), where) || strstr(amp_last_error(), where_end));
    assert_amp_ok(amp_array_view_release(v));
}

static void a_build_error_after_a_host_macro_names_the_users_column(void **state)
{
    (void)state;
    int data[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &v));
    int line = __LINE__ + 2;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v), {
        v(idx[0]) = HELPER_TWICE(idx[0]) + HELPER_SCALE + not_declared_here;
    }),
                     AMP_ERROR_KERNEL_BUILD, "did not compile");
    char where[160];
    snprintf(where, sizeof where,
             "test_errors.c:%d:59: error: use of undeclared identifier 'not_declared_here'", line);
    expect_at(amp_last_error(), where,
              "        v(idx[0]) = HELPER_TWICE(idx[0]) + HELPER_SCALE + not_declared_here;", line,
              59);
    assert_amp_ok(amp_array_view_release(v));
}

/* A driver that refuses every program and whose log holds only its
 * linker's line, with no position: NVIDIA's for a call of a function
 * nothing defines, once its own cache holds the front end's output for
 * the source. The program is not compiled, so a kernel may declare what it
 * never defines. */
static cl_int(CL_API_CALL *real_build_info)(cl_program, cl_device_id, cl_program_build_info,
                                            size_t, void *, size_t *);
static cl_int(CL_API_CALL *real_build)(cl_program, cl_uint, const cl_device_id *, const char *,
                                       void(CL_CALLBACK *)(cl_program, void *), void *);

static cl_int CL_API_CALL linker_only_log(cl_program p, cl_device_id d,
                                          cl_program_build_info what, size_t size, void *value,
                                          size_t *size_ret)
{
    static const char log[] = "ptxas fatal   : Unresolved extern function 'not_a_function'\n";
    if (what != CL_PROGRAM_BUILD_LOG)
        return real_build_info(p, d, what, size, value, size_ret);
    if (size_ret)
        *size_ret = sizeof log;
    if (value && size < sizeof log)
        return CL_INVALID_VALUE;
    if (value)
        memcpy(value, log, sizeof log);
    return CL_SUCCESS;
}

static cl_int CL_API_CALL build_refused(cl_program p, cl_uint n, const cl_device_id *d,
                                        const char *options,
                                        void(CL_CALLBACK *notify)(cl_program, void *), void *user)
{
    (void)p, (void)n, (void)d, (void)options, (void)notify, (void)user;
    return CL_BUILD_PROGRAM_FAILURE;
}

static void linker_refuses(int on)
{
    if (on) {
        real_build_info = amp__clapi.GetProgramBuildInfo;
        real_build = amp__clapi.BuildProgram;
        amp__clapi.GetProgramBuildInfo = linker_only_log;
        amp__clapi.BuildProgram = build_refused;
    } else {
        amp__clapi.GetProgramBuildInfo = real_build_info;
        amp__clapi.BuildProgram = real_build;
    }
}

/* The message's report of not_a_function, at line and at the column where
 * `call` begins in source_line. */
static void expect_undefined_at(int line, const char *source_line, const char *call)
{
    int column = (int)(strstr(source_line, call) - source_line) + 1;
    char where[200];
    snprintf(where, sizeof where,
             "test_errors.c:%d:%d: error: call to 'not_a_function', which is not defined", line,
             column);
    expect_at(amp_last_error(), where, source_line, line, column);
    assert_non_null(strstr(amp_last_error(), "Unresolved extern function 'not_a_function'"));
}

static void a_call_only_the_linker_refuses_names_the_users_line(void **state)
{
    (void)state;
    int data[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &v));
    linker_refuses(1);
    /* Not the string, nor the names that begin or end with the name. */
    int line = __LINE__ + 3;
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v), {
        printf("not_a_function(%d)\n", idx[0]);
        v(idx[0]) = my_not_a_function(1) + not_a_function_2(2) + not_a_function(idx[0]);
    });
    linker_refuses(0);
    assert_int_equal(st, AMP_ERROR_KERNEL_BUILD);
    expect_undefined_at(
        line, "        v(idx[0]) = my_not_a_function(1) + not_a_function_2(2) + not_a_function(idx[0]);",
        "not_a_function(idx");
    assert_amp_ok(amp_array_view_release(v));
}

/* A helper that declares what nothing defines: the call is named, not the
 * declaration. */
static const int through_a_prototype_line = __LINE__ + 1;
AMP_FUNCTION(int, through_a_prototype, (int x), {
    int not_a_function(int);
    return not_a_function(x) + 1;
});

static void a_helpers_call_only_the_linker_refuses_names_the_helpers_line(void **state)
{
    (void)state;
    int data[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &v));
    linker_refuses(1);
    amp_status st =
        AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v, through_a_prototype),
                              { v(idx[0]) = through_a_prototype(idx[0]); });
    linker_refuses(0);
    assert_int_equal(st, AMP_ERROR_KERNEL_BUILD);
    expect_undefined_at(through_a_prototype_line + 2, "    return not_a_function(x) + 1;",
                        "not_a_function(x)");
    assert_amp_ok(amp_array_view_release(v));
}

/* C++ AMP's C++ that C cannot take: the message names the C to write, at
 * the user's line and column. */
static amp_status cxx_body(int which, amp_array_view *v)
{
    switch (which) {
    case 0: return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v),
                                         { v[idx] = std::max(v[idx], 1); });
    case 1: return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v),
                                         { v[idx] = static_cast<int>(1.5f); });
    case 2: return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v), {
        int *p = nullptr;
        v[idx] = p != 0;
    });
    case 3: return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v),
                                         { v[idx] = [=](int x) { return x; }(1); });
    case 4: return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v),
                                         { v[idx] = direct3d::abs(-4); });
    case 5: return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v),
                                         { v[idx] = MathHelpers::norm(v[idx]); });
    default: return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v),
                                          { throw 1; });
    }
}

AMP_FUNCTION(void, by_reference, (int &x), { x = 1; });
AMP_FUNCTION(float, mix, (float a, float b), { return a + b; });

static void cxx_spellings_name_what_to_write_in_c(void **state)
{
    (void)state;
    static const char *const expect[] = {
        "std::max is max", "C has no named casts: write (T)x", "C has no nullptr: write 0",
        "C has no lambdas: write the function with AMP_FUNCTION",
        "direct3d's functions are not offered",
        "C has no namespaces: call the function by its own name",
        "restrict(amp) code has no exceptions",
    };
    int data[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &v));
    for (int i = 0; i < 7; i++) {
        assert_int_equal(cxx_body(i, v), AMP_ERROR_KERNEL_BUILD);
        if (!strstr(amp_last_error(), expect[i]))
            fail_msg("no \"%s\" in:\n%s", expect[i], amp_last_error());
        /* and where, as a compiler says it */
        if (!strstr(amp_last_error(), "test_errors.c:") || !strstr(amp_last_error(), ": error: ") ||
            !strstr(amp_last_error(), "^"))
            fail_msg("no line, column and caret in:\n%s", amp_last_error());
    }
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v, by_reference),
                                           { by_reference(&v[idx]); }),
                     AMP_ERROR_KERNEL_BUILD, "C has no references: take a pointer");
    /* A helper named like a built-in of OpenCL C is refused by name. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v, mix),
                                           { v[idx] = (int)mix(1.0f, 2.0f); }),
                     AMP_ERROR_INVALID_ARGUMENT,
                     "function 'mix' has the name of one of OpenCL C's built-in functions");
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(data[0], 0);
}

static void null_and_released_views_are_refused(void **state)
{
    (void)state;
    int data[4] = {0};
    amp_array_view *v = NULL, *gone;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v), { v(i[0]) = 1; }),
                     AMP_ERROR_INVALID_ARGUMENT, "view 'v' is NULL");
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &gone));
    assert_amp_ok(amp_array_view_release(gone));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(gone), { gone(i[0]) = 1; }),
                     AMP_ERROR_INVALID_ARGUMENT, "view 'gone' is released");
    assert_amp_fails(amp_array_view_release(gone), AMP_ERROR_INVALID_ARGUMENT, "already released");
    assert_amp_fails(amp_array_view_synchronize(gone), AMP_ERROR_INVALID_ARGUMENT, "already released");
    assert_int_equal(amp_array_view_release(NULL), AMP_OK);
}

AMP_SHARED_FUNCTION(int, shared_twice, (int x), { return 2 * x; });
AMP_FUNCTION(int, widen, (int x, int width), { return x * width; });

static void captures_kernels_cannot_take_are_named(void **state)
{
    (void)state;
    long wide = 5;
    char letter = 'x';
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(wide), { (void)i; }),
                     AMP_ERROR_INVALID_ARGUMENT,
                     "capture 'wide' is a long or long long (a size_t is one), which kernels"
                     " cannot take");
    assert_non_null(strstr(amp_last_error(), "Copy it into an int or unsigned"));
    /* A function of both sides captured by its bare name: the message says how. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(shared_twice),
                                           { (void)i; }),
                     AMP_ERROR_INVALID_ARGUMENT, "as AMP_SHARED(shared_twice)");
    int twice[4] = {0};
    amp_array_view *t;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), twice, &t));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(t, AMP_SHARED(shared_twice)),
                                        { t[i] = shared_twice(i[0]); }));
    assert_amp_ok(amp_array_view_release(t));
    assert_int_equal(twice[3], shared_twice(3));
    /* A helper's parameter named like an AMP_CONST: the #define would put
     * the value in its place ("int 4"). Refused at the parameter. */
    const int width = 4;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), twice, &t));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i,
                                           AMP_CAPTURE(t, widen, AMP_CONST(width)),
                                           { t[i] = widen(i[0], width); }),
                     AMP_ERROR_KERNEL_BUILD,
                     "widen's 'width' has the name of the kernel's capture AMP_CONST(width)");
    assert_amp_ok(amp_array_view_release(t));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(letter), { (void)i; }),
                     AMP_ERROR_INVALID_ARGUMENT, "capture 'letter'");
#define SIZE 8
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(SIZE), { (void)i; }),
                     AMP_ERROR_INVALID_ARGUMENT, "capture '8' is not a variable name");
    assert_non_null(strstr(amp_last_error(), "AMP_CONST(NAME)"));
#undef SIZE
    int n = 1;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(n, n), { (void)i; }),
                     AMP_ERROR_INVALID_ARGUMENT, "'n' is captured twice");
}

static void null_kernel_source_is_refused(void **state)
{
    (void)state;
    assert_amp_fails(amp_parallel_for_each(NULL, amp_extent_1d(4), NULL, AMP_NO_CAPTURE),
                     AMP_ERROR_INVALID_ARGUMENT, "kernel source is NULL");
    amp_kernel_source bad = {"f.c", 1, "not an id", "{}", 2, 0};
    assert_amp_fails(amp_parallel_for_each(NULL, amp_extent_1d(4), &bad, AMP_NO_CAPTURE),
                     AMP_ERROR_INVALID_ARGUMENT, "not an identifier");
    amp_capture_list too_many = {AMP_MAX_CAPTURES + 1, NULL};
    amp_kernel_source ok = {"f.c", 1, "i", "{}", 2, 0};
    assert_amp_fails(amp_parallel_for_each(NULL, amp_extent_1d(4), &ok, too_many),
                     AMP_ERROR_INVALID_ARGUMENT, "a kernel takes 0 to 32");
}

static void bad_view_arguments_are_refused(void **state)
{
    (void)state;
    int data[4];
    amp_array_view *v = (amp_array_view *)data;
    assert_amp_fails(amp_array_view_create(AMP_INT, amp_extent_1d(4), NULL, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "data is NULL");
    assert_null(v);
    assert_amp_fails(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, NULL),
                     AMP_ERROR_INVALID_ARGUMENT, "out is NULL");
    assert_amp_fails(amp_array_view_create((amp_elem_type)0, amp_extent_1d(4), data, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "element type 0");
    assert_amp_fails(amp_array_view_create(AMP_INT, amp_extent_2d(2, 0), data, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "dimension 1 of the extent is 0");
    amp_extent rank0 = {0, {0, 0, 0}};
    assert_amp_fails(amp_array_view_create(AMP_INT, rank0, data, &v), AMP_ERROR_INVALID_ARGUMENT,
                     "rank 0");
    assert_amp_fails(amp_array_view_data(NULL, (void **)&v), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    assert_amp_fails(amp_array_view_discard_data(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    assert_amp_fails(amp_array_view_refresh(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
    assert_amp_fails(amp_transfer_get_stats(NULL), AMP_ERROR_INVALID_ARGUMENT, "out is NULL");
    assert_amp_fails(amp_kernel_get_stats(NULL), AMP_ERROR_INVALID_ARGUMENT, "out is NULL");
    assert_int_equal(amp_array_view_get_extent(NULL).rank, 0);
    assert_int_equal(amp_array_view_get_type(NULL), 0);
}

static void const_views_refuse_writable_host_access(void **state)
{
    (void)state;
    const int data[4] = {1, 2, 3, 4};
    amp_array_view *v;
    void *p = NULL;
    const void *q = NULL;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_1d(4), data, &v));
    assert_amp_fails(amp_array_view_data(v, &p), AMP_ERROR_INVALID_OPERATION, "data_const");
    assert_null(p);
    assert_amp_ok(amp_array_view_data_const(v, &q));
    assert_ptr_equal(q, data);
    assert_amp_ok(amp_array_view_release(v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(extent_not_divisible_by_tile_names_both),
        cmocka_unit_test(tile_over_the_work_group_limit_is_a_device_limit),
        cmocka_unit_test(bad_domains_are_invalid_compute_domains),
        cmocka_unit_test(a_kernel_that_does_not_compile_names_the_users_line),
        cmocka_unit_test(host_macros_expand_in_helpers),
        cmocka_unit_test(a_name_of_the_programs_own_gets_the_advice_to_capture_it),
        cmocka_unit_test(a_tile_static_size_captured_by_value_gets_the_advice_of_amp_const),
        cmocka_unit_test(a_barrier_under_a_condition_on_the_thread_is_refused),
        cmocka_unit_test(helpers_that_wait_or_take_a_tiled_index_are_checked),
        cmocka_unit_test(other_undeclared_names_get_their_own_advice),
        cmocka_unit_test(a_const_view_written_and_an_index_of_another_rank_are_explained),
        cmocka_unit_test(a_build_error_in_a_helper_names_the_helpers_line),
        cmocka_unit_test(a_call_only_the_linker_refuses_names_the_users_line),
        cmocka_unit_test(a_helpers_call_only_the_linker_refuses_names_the_helpers_line),
        cmocka_unit_test(a_build_error_after_a_host_macro_names_the_users_column),
        cmocka_unit_test(cxx_spellings_name_what_to_write_in_c),
        cmocka_unit_test(null_and_released_views_are_refused),
        cmocka_unit_test(captures_kernels_cannot_take_are_named),
        cmocka_unit_test(null_kernel_source_is_refused),
        cmocka_unit_test(bad_view_arguments_are_refused),
        cmocka_unit_test(const_views_refuse_writable_host_access),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
