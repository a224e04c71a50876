/*
 * tests/device/test_check.c - AMP_CHECK through the public API: the mistakes seed
 * 002 warns about, caught at the line of this file where they are written,
 * and silence on correct kernels.
 *
 * The process turns AMP_CHECK on before its first OpenCL call, so every
 * kernel here runs on Oclgrind. The tests skip when Oclgrind is not
 * installed (scripts/setup.sh installs it).
 */
#include <stdlib.h>

#include "test_util.h"

#define N 8

/* The line of this file that holds marker (a comment after the statement
 * the checker must point at). */
static int line_of_marker(const char *marker)
{
    FILE *f = fopen(__FILE__, "r");
    assert_non_null(f);
    char text[512];
    int line = 0, found = 0;
    while (!found && fgets(text, sizeof text, f)) {
        line++;
        /* Skip the line that names the marker in a string. */
        found = strstr(text, marker) && !strstr(text, "\"");
    }
    fclose(f);
    assert_true(found);
    return line;
}

/* Assert that the last error reports kind at the marker's line. */
static void assert_reported_at(const char *kind, const char *marker)
{
    char where[64];
    const char *file = strrchr(__FILE__, '/') ? strrchr(__FILE__, '/') + 1 : __FILE__;
    snprintf(where, sizeof where, "%s:%d:", file, line_of_marker(marker));
    const char *msg = amp_last_error();
    const char *at = strstr(msg, where);
    if (!at)
        fail_msg("no report at %s in:\n%s", where, msg);
    const char *eol = strchr(at, '\n');
    if (!strstr(at, kind) || (eol && strstr(at, kind) > eol))
        fail_msg("the report at %s is not a %s:\n%s", where, kind, msg);
}

static int checking(void)
{
    amp_accelerator *acc;
    amp_status st = amp_accelerator_get_default(&acc);
    if (st == AMP_ERROR_UNSUPPORTED_FEATURE && strstr(amp_last_error(), "oclgrind"))
        return 0;
    assert_amp_ok(st);
    amp_accelerator_info info;
    assert_amp_ok(amp_accelerator_get_info(acc, &info));
    assert_non_null(strstr(info.description, "Oclgrind"));
    return 1;
}

static float data[N * N];
static float averages_data[N * N];

static void fill(void)
{
    for (int i = 0; i < N * N; i++)
        data[i] = (float)i;
    memset(averages_data, 0, sizeof averages_data);
}

/* Seed 002: "every thread adds to one tile_static total" is a race. */
static void a_shared_tile_static_total_is_a_race(void **state)
{
    (void)state;
    if (!checking())
        skip();
    fill();
    amp_array_view *matrix, *averages;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(N, N), data, &matrix));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(N / 2, N / 2), averages_data,
                                        &averages));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(N, N), 2, 2),
                                          t_idx, AMP_CAPTURE(matrix, averages), {
        tile_static float total;
        total = 0;
        t_idx.barrier.wait();
        total += matrix(t_idx.global); /* RACE: shared total */
        t_idx.barrier.wait();
        if (t_idx.local[0] == 0 && t_idx.local[1] == 0)
            averages(t_idx.tile) = total / 4;
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    assert_reported_at("data race", "RACE: shared total");
    /* The host data is untouched and the views still work. */
    for (int i = 0; i < N * N; i++)
        assert_true(data[i] == (float)i);
    assert_amp_ok(amp_array_view_release(matrix));
    assert_amp_ok(amp_array_view_release(averages));
}

/* Seed 002's other warning: read the tile before every thread wrote it. */
static void a_missing_barrier_is_a_race(void **state)
{
    (void)state;
    if (!checking())
        skip();
    fill();
    amp_array_view *matrix, *averages;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(N, N), data, &matrix));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(N / 2, N / 2), averages_data,
                                        &averages));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(N, N), 2, 2),
                                          t_idx, AMP_CAPTURE(matrix, averages), {
        tile_static float values[2][2];
        values[t_idx.local[0]][t_idx.local[1]] = matrix(t_idx.global); /* WRITE: tile */
        if (t_idx.local[0] == 0 && t_idx.local[1] == 0) {
            float sum = 0;
            for (int r = 0; r < 2; r++)
                for (int c = 0; c < 2; c++)
                    sum += values[r][c]; /* READ: no barrier */
            averages(t_idx.tile) = sum / 4;
        }
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    /* Oclgrind names either access first; both lines must be there. */
    assert_non_null(strstr(amp_last_error(), "data race"));
    assert_reported_at("", "READ: no barrier");
    assert_reported_at("", "WRITE: tile");
    assert_amp_ok(amp_array_view_release(matrix));
    assert_amp_ok(amp_array_view_release(averages));
}

static void assert_message_has(const char *text);

/* A barrier between the write and the read orders one turn of the loop;
 * the next turn's write races with this turn's read. The advice is a
 * barrier at the end of the turn, not one between the two lines, where
 * there is one already. */
static void a_race_between_turns_of_a_loop_asks_for_a_barrier_at_its_end(void **state)
{
    (void)state;
    if (!checking())
        skip();
    fill();
    amp_array_view *matrix;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), data, &matrix));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), 4), t_idx,
                                          AMP_CAPTURE(matrix), {
        tile_static float step[4];
        float sum = 0.0f;
        for (int k = 0; k < 3; k++) {
            step[t_idx.local[0]] = matrix[t_idx] * (float)k; /* TURN: write */
            t_idx.barrier.wait();
            sum += step[(t_idx.local[0] + 1) % 4]; /* TURN: read */
        }
        matrix[t_idx] = sum;
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    assert_reported_at("", "TURN: write");
    assert_message_has("A barrier already stands between the two lines: the race is between"
                       " turns of the loop");
    assert_message_has("Add a t_idx.barrier.wait() at the end of the loop's body");
    for (int i = 0; i < N; i++)
        assert_true(data[i] == (float)i);
    assert_amp_ok(amp_array_view_release(matrix));
}

/* A barrier between the lines whose fence leaves tile_static memory out:
 * the advice is its fence, not another barrier. */
static void a_race_across_a_global_fence_names_the_fence(void **state)
{
    (void)state;
    if (!checking())
        skip();
    fill();
    amp_array_view *matrix;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), data, &matrix));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), 4), t_idx,
                                          AMP_CAPTURE(matrix), {
        tile_static float step[4];
        step[t_idx.local[0]] = matrix[t_idx];
        t_idx.barrier.wait_with_global_memory_fence();
        matrix[t_idx] = step[(t_idx.local[0] + 1) % 4];
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    assert_message_has("The barrier between the two lines waits with"
                       " wait_with_global_memory_fence, whose fence leaves tile_static memory"
                       " out: make it t_idx.barrier.wait()");
    assert_amp_ok(amp_array_view_release(matrix));
}

/* A scan's pattern: every thread of a tile zeroes a tile_static base, one
 * thread updates it after a barrier. Optimised, the other threads may never
 * see the update; the report names the fix: one thread writes, then a
 * barrier. */
static void every_thread_writing_a_tile_static_scalar_is_a_race_with_its_fix(void **state)
{
    (void)state;
    if (!checking())
        skip();
    static int in[64], out[64];
    for (int i = 0; i < 64; i++)
        in[i] = 1;
    amp_array_view *a, *b;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(64), in, &a));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(64), out, &b));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(64), 16), t_idx,
                                          AMP_CAPTURE(a, b), {
        tile_static int scanBaseValue;
        tile_static int values[16];
        scanBaseValue = 0; /* SHARED: every thread */
        values[t_idx.local[0]] = a(t_idx.global);
        t_idx.barrier.wait();
        if (t_idx.local[0] == 15)
            scanBaseValue += values[15];
        t_idx.barrier.wait();
        b(t_idx.global) = values[t_idx.local[0]] + scanBaseValue;
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    assert_reported_at("Write-write data race", "SHARED: every thread");
    assert_message_has("let one thread write it");
    assert_message_has("then t_idx.barrier.wait() before any thread reads it");
    assert_amp_ok(amp_array_view_release(a));
    assert_amp_ok(amp_array_view_release(b));
}

/* A barrier that only some threads of a tile reach. */
static void a_barrier_in_a_branch_is_reported(void **state)
{
    (void)state;
    if (!checking())
        skip();
    fill();
    amp_array_view *matrix;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), data, &matrix));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), 4), t_idx,
                                          AMP_CAPTURE(matrix), {
        if (t_idx.local[0] < 2) {
            t_idx.barrier.wait(); /* DIVERGENT */
        }
        matrix(t_idx.global) += 1;
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    assert_reported_at("barrier not reached", "DIVERGENT");
    assert_amp_ok(amp_array_view_release(matrix));
}

/* Reading far past a view's end, past its buffer too. */
static void an_access_out_of_bounds_is_reported(void **state)
{
    (void)state;
    if (!checking())
        skip();
    fill();
    amp_array_view *in, *out;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), data, &in));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), averages_data, &out));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(in, out), {
        out(idx) = in(idx[0] + 64); /* OUT OF BOUNDS */
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    assert_reported_at("out of bounds", "OUT OF BOUNDS");
    assert_amp_ok(amp_array_view_release(in));
    assert_amp_ok(amp_array_view_release(out));
}

/* Assert that the last error holds text. */
static void assert_message_has(const char *text)
{
    if (!strstr(amp_last_error(), text))
        fail_msg("the report lacks \"%s\":\n%s", text, amp_last_error());
}

/* The spare bytes past a buffer's data used to hide this: one element past
 * the end, read by the last thread only. */
static void one_past_the_end_of_a_view_is_reported(void **state)
{
    (void)state;
    if (!checking())
        skip();
    enum { LEN = 16 };
    float a_data[LEN], out_data[LEN];
    for (int i = 0; i < LEN; i++)
        a_data[i] = (float)i;
    amp_array_view *a, *out;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(LEN), a_data, &a));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(LEN), out_data, &out));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(LEN), idx, AMP_CAPTURE(a, out), {
        out(idx) = a(idx[0] + 1); /* ONE PAST THE END */
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    assert_reported_at("out of bounds", "ONE PAST THE END");
    assert_message_has("view 'a' read at index (16), outside its extent (16), by thread (15)");
    assert_amp_ok(amp_array_view_release(a));
    assert_amp_ok(amp_array_view_release(out));
}

/* A section's extent is its own: the elements of its parent around it are
 * in the same buffer, and still outside the section. */
static void outside_a_section_inside_its_parent_is_reported(void **state)
{
    (void)state;
    if (!checking())
        skip();
    fill();
    amp_array_view *parent, *part, *out;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N * N), data, &parent));
    assert_amp_ok(amp_array_view_section(parent, amp_index_1d(4), amp_extent_1d(N), &part));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), averages_data, &out));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(part, out), {
        out(idx) = part(idx[0] + 4); /* PAST THE SECTION */
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    assert_reported_at("out of bounds", "PAST THE SECTION");
    /* Threads 4 to 7 read past it: the first is named. */
    assert_message_has("view 'part' read at index (8), outside its extent (8) (4 times; the first"
                       " by thread (4))");
    assert_amp_ok(amp_array_view_release(part));
    assert_amp_ok(amp_array_view_release(parent));
    assert_amp_ok(amp_array_view_release(out));
}

/* In a matrix, a column past the end of a row is the next row's first
 * element, inside the buffer. */
static void a_column_past_the_end_of_a_row_is_reported(void **state)
{
    (void)state;
    if (!checking())
        skip();
    fill();
    amp_array_view *matrix, *out;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(N, N), data, &matrix));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(N, N), averages_data, &out));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_2d(N, N), idx, AMP_CAPTURE(matrix, out), {
        out(idx) = matrix(idx[0], idx[1] + 1); /* NEXT ROW */
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    assert_reported_at("out of bounds", "NEXT ROW");
    assert_message_has("view 'matrix' read at index (0, 8), outside its extent (8, 8) (8 times;"
                       " the first by thread (0, 7))");
    assert_amp_ok(amp_array_view_release(matrix));
    assert_amp_ok(amp_array_view_release(out));
}

/* A write before a section's first element: reported, and its parent's
 * element there keeps its value. */
static void a_write_outside_a_section_is_reported_and_dropped(void **state)
{
    (void)state;
    if (!checking())
        skip();
    fill();
    amp_array_view *parent, *part;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(N, N), data, &parent));
    assert_amp_ok(amp_array_view_section(parent, amp_index_2d(2, 2), amp_extent_2d(4, 4), &part));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 4), idx, AMP_CAPTURE(part), {
        if (idx[1] == 0)
            part(idx[0], idx[1] - 1) = -1; /* WRITE BEFORE THE ROW */
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    assert_reported_at("out of bounds", "WRITE BEFORE THE ROW");
    assert_message_has("view 'part' written at index (0, -1), outside its extent (4, 4) (4 times;"
                       " the first by thread (0, 0))");
    assert_amp_ok(amp_array_view_release(part));
    assert_amp_ok(amp_array_view_synchronize(parent));
    for (int i = 0; i < N * N; i++)
        assert_true(data[i] == (float)i);
    assert_amp_ok(amp_array_view_release(parent));
}

/* Every index inside the section: no report, and the right answer. */
static void a_correct_kernel_over_a_section_is_silent(void **state)
{
    (void)state;
    if (!checking())
        skip();
    fill();
    amp_array_view *parent, *part, *out;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(N, N), data, &parent));
    assert_amp_ok(amp_array_view_section(parent, amp_index_2d(1, 2), amp_extent_2d(3, 5), &part));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(3, 5), averages_data, &out));
    /* Each element plus its mirror image in the section. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 5), idx, AMP_CAPTURE(part, out), {
        out(idx) = part(idx) + part(part_extent[0] - 1 - idx[0], part_extent[1] - 1 - idx[1]);
    }));
    assert_amp_ok(amp_array_view_synchronize(out));
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 5; c++)
            assert_true(averages_data[r * 5 + c] ==
                        (float)((1 + r) * N + 2 + c) + (float)((3 - r) * N + 6 - c));
    assert_amp_ok(amp_array_view_release(out));
    assert_amp_ok(amp_array_view_release(part));
    assert_amp_ok(amp_array_view_release(parent));
}

/* One call site, run on a view, then on a new view over the same memory
 * after the first was released: the new view's buffer may get the old
 * one's handle, and the kernel must still be given it (it was once not,
 * and the simulator read the released buffer: bitonic_sort under
 * AMP_CHECK). */
static amp_status add_one(amp_array_view *v)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(N * N), idx, AMP_CAPTURE(v), { v(idx) += 1.0f; });
}

static void a_view_made_again_over_the_same_memory_is_given_to_the_kernel(void **state)
{
    (void)state;
    if (!checking())
        skip();
    fill();
    for (int round = 1; round <= 4; round++) {
        amp_array_view *v;
        assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N * N), data, &v));
        assert_amp_ok(add_one(v));
        assert_amp_ok(add_one(v));
        assert_amp_ok(amp_array_view_release(v));
        assert_true(data[0] == (float)(2 * round));
        assert_true(data[N * N - 1] == (float)(N * N - 1 + 2 * round));
    }
}

/* In a padded domain the threads past the original extent are the
 * runtime's: they may read outside a view (an unspecified value), as the
 * transpose sample's do, and their writes there are dropped. Reads are not
 * reported; writes are, as the race they make on the one spare element.
 * A thread inside the extent gets no such pass. */
static void a_padded_domain_reports_writes_past_the_extent(void **state)
{
    (void)state;
    if (!checking())
        skip();
    enum { LEN = 6 };
    int in_data[LEN] = {10, 11, 12, 13, 14, 15}, out_data[LEN] = {0};
    amp_array_view *in, *out;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(LEN), in_data, &in));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(LEN), out_data, &out));
    amp_tiled_extent padded = amp_tiled_extent_pad(amp_extent_tile_1d(amp_extent_1d(LEN), 4));
    /* Threads 6 and 7 read past the end, unguarded, and write nothing. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(padded, t_idx, AMP_CAPTURE(in, out), {
        int value = in(t_idx.global) + 1;
        if (t_idx.global[0] < out_extent[0])
            out(t_idx.global) = value;
    }));
    assert_amp_ok(amp_array_view_synchronize(out));
    for (int i = 0; i < LEN; i++)
        assert_int_equal(out_data[i], 11 + i);

    /* Threads 6 and 7 write past the end. */
    amp_status st = AMP_PARALLEL_FOR_EACH(padded, t_idx, AMP_CAPTURE(in, out), {
        out(t_idx.global[0]) = in(t_idx.global) + 1; /* PADDED, UNGUARDED */
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    assert_reported_at("data race", "PADDED, UNGUARDED");
    assert_message_has("threads past the extent of the padded domain access view 'out' outside"
                       " its extent (6), the first at index (6) by thread (6)");
    assert_message_has("Guard the write");

    /* Thread 5 is inside the extent, and reads in(6). */
    st = AMP_PARALLEL_FOR_EACH(padded, t_idx, AMP_CAPTURE(in, out), {
        if (t_idx.global[0] < in_extent[0])
            out(t_idx.global[0]) = in(t_idx.global[0] + 1); /* PADDED, INSIDE */
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    assert_reported_at("out of bounds", "PADDED, INSIDE");
    assert_message_has("view 'in' read at index (6), outside its extent (6), by thread (5)");
    assert_amp_ok(amp_array_view_release(in));
    assert_amp_ok(amp_array_view_release(out));
}

/* An array captured by name is named an array, as the program calls it;
 * a view beside it stays a view. The first body is the same string as
 * one_past_the_end_of_a_view_is_reported's (comments go before the macro
 * makes it a string, and the compiler merges equal strings): the two call
 * sites share a kernel, and the report is still at this one's line. */
static void one_past_the_end_of_an_array_names_the_array(void **state)
{
    (void)state;
    if (!checking())
        skip();
    enum { LEN = 16 };
    float a_data[LEN], out_data[LEN];
    for (int i = 0; i < LEN; i++)
        a_data[i] = (float)i;
    amp_array *a;
    amp_array_view *out;
    assert_amp_ok(
        amp_array_create_from_host(AMP_FLOAT, amp_extent_1d(LEN), a_data, NULL, &a));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(LEN), out_data, &out));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(LEN), idx, AMP_CAPTURE(a, out), {
        out(idx) = a(idx[0] + 1); /* ONE PAST THE ARRAY'S END */
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    assert_reported_at("out of bounds", "ONE PAST THE ARRAY'S END");
    assert_message_has("array 'a' read at index (16), outside its extent (16), by thread (15)");
    st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(LEN), idx, AMP_CAPTURE(a, out), {
        out(idx[0] + 1) = a(idx); /* ONE PAST THE VIEW'S END */
    });
    assert_int_equal(st, AMP_ERROR_KERNEL_CHECK);
    assert_message_has("view 'out' written at index (16), outside its extent (16), by thread (15)");
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_array_view_release(out));
}

/* The sample's correct tile average: no report, and the right answer. */
static void a_correct_tiled_kernel_is_silent(void **state)
{
    (void)state;
    if (!checking())
        skip();
    fill();
    amp_array_view *matrix, *averages;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(N, N), data, &matrix));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(N / 2, N / 2), averages_data,
                                        &averages));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(N, N), 2, 2), t_idx,
                                        AMP_CAPTURE(matrix, averages), {
        tile_static float values[2][2];
        values[t_idx.local[0]][t_idx.local[1]] = matrix(t_idx.global);
        t_idx.barrier.wait();
        if (t_idx.local[0] == 0 && t_idx.local[1] == 0) {
            float sum = 0;
            for (int r = 0; r < 2; r++)
                for (int c = 0; c < 2; c++)
                    sum += values[r][c];
            averages(t_idx.tile) = sum / 4;
        }
    }));
    assert_amp_ok(amp_array_view_synchronize(averages));
    assert_true(averages_data[0] == 4.5f);
    assert_true(averages_data[N / 2 * N / 2 - 1] == 58.5f);
    assert_amp_ok(amp_array_view_release(matrix));
    assert_amp_ok(amp_array_view_release(averages));
}

int main(void)
{
    setenv("AMP_CHECK", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_shared_tile_static_total_is_a_race),
        cmocka_unit_test(a_missing_barrier_is_a_race),
        cmocka_unit_test(every_thread_writing_a_tile_static_scalar_is_a_race_with_its_fix),
        cmocka_unit_test(a_race_between_turns_of_a_loop_asks_for_a_barrier_at_its_end),
        cmocka_unit_test(a_race_across_a_global_fence_names_the_fence),
        cmocka_unit_test(a_barrier_in_a_branch_is_reported),
        cmocka_unit_test(an_access_out_of_bounds_is_reported),
        cmocka_unit_test(one_past_the_end_of_a_view_is_reported),
        cmocka_unit_test(one_past_the_end_of_an_array_names_the_array),
        cmocka_unit_test(outside_a_section_inside_its_parent_is_reported),
        cmocka_unit_test(a_column_past_the_end_of_a_row_is_reported),
        cmocka_unit_test(a_write_outside_a_section_is_reported_and_dropped),
        cmocka_unit_test(a_correct_kernel_over_a_section_is_silent),
        cmocka_unit_test(a_padded_domain_reports_writes_past_the_extent),
        cmocka_unit_test(a_correct_tiled_kernel_is_silent),
        cmocka_unit_test(a_view_made_again_over_the_same_memory_is_given_to_the_kernel),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    amp_shutdown();
    return failed;
}
