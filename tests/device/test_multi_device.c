/*
 * tests/device/test_multi_device.c - one launch across a set of
 * accelerators, on two accelerators made of one CPU (AMP_SPLIT_CPU=2, set
 * here before the first call): sets made and refused; launches split only
 * where each part provably writes its own rows, with results equal bit for
 * bit to one accelerator's; every form the proof does not take run whole,
 * with the reason traced; and the ledger's count of each move: nothing for
 * the same split again, the stale parts alone for a host read, the rows
 * that change hands for a new split.
 */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "test_util.h"

#include "core/clapi.h"

static amp_accelerator_view *parts[2];
static amp_accelerator_info part_info[2];
static amp_accelerator_set *set;

/* The two parts of the CPU, and the set of both; skips where the CPU
 * cannot be split. */
static int two_accelerators(void **state)
{
    (void)state;
    size_t n = 0;
    amp_status st = amp_accelerator_count(&n);
    if (st != AMP_OK) {
        print_message("[  NOTE    ] no CPU device to split here: %s\n", amp_last_error());
        return 0;
    }
    int found = 0;
    for (size_t i = 0; i < n && found < 2; i++) {
        amp_accelerator *acc;
        amp_accelerator_info info;
        if (amp_accelerator_get(i, &acc) != AMP_OK || amp_accelerator_get_info(acc, &info) != AMP_OK)
            return -1;
        if (info.is_emulated && strrchr(info.device_path, '.')) {
            part_info[found] = info;
            if (amp_accelerator_get_default_view(acc, &parts[found++]) != AMP_OK)
                return -1;
        }
    }
    if (found == 2 && amp_accelerator_set_create(parts, 2, NULL, &set) != AMP_OK)
        return -1;
    return 0;
}

static void need_two(void)
{
    if (!set) {
        print_message("[  NOTE    ] no CPU device was split in two here\n");
        skip();
    }
}

static int release_all(void **state)
{
    amp_accelerator_set_release(set);
    set = NULL;
    return shutdown_library(state);
}

/* ---- What the kernels write, and the trace ---- */

/* stderr into a file while a launch runs, then read back into trace_text. */
static char trace_text[16384];
static int saved_stderr = -1;
static FILE *trace_file;

static void trace_begin(void)
{
    fflush(stderr);
    trace_file = tmpfile();
    assert_non_null(trace_file);
    saved_stderr = dup(2);
    dup2(fileno(trace_file), 2);
}

static const char *trace_end(void)
{
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    rewind(trace_file);
    size_t n = fread(trace_text, 1, sizeof trace_text - 1, trace_file);
    trace_text[n] = '\0';
    fclose(trace_file);
    fputs(trace_text, stderr); /* still in the test's log */
    return trace_text;
}

static void assert_traced(const char *text)
{
    if (!strstr(trace_text, text))
        fail_msg("the trace lacks \"%s\":\n%s", text, trace_text);
}

/* Inputs that make every bit of a float result matter. */
static void fill(float *x, size_t n, float seed)
{
    for (size_t i = 0; i < n; i++)
        x[i] = sinf(seed + (float)i * 0.37f) * 100.0f + (float)(i % 7) / 3.0f;
}

enum { ROWS = 96, COLS = 50 };

/* c = f(a, b) at each index, on target av (one view) or the set. */
static amp_status pointwise(amp_accelerator_view *av, amp_array_view *a, amp_array_view *b,
                            amp_array_view *c)
{
    amp_extent e = amp_extent_2d(ROWS, COLS);
    if (av)
        return AMP_PARALLEL_FOR_EACH_ON(av, e, idx, AMP_CAPTURE(a, b, c), {
            c(idx) = sin(a(idx)) * cos(b[idx]) + a(idx[0], idx[1]) / (b(idx) + 1.5f);
        });
    return AMP_PARALLEL_FOR_EACH_ON(set, e, idx, AMP_CAPTURE(a, b, c), {
        c(idx) = sin(a(idx)) * cos(b[idx]) + a(idx[0], idx[1]) / (b(idx) + 1.5f);
    });
}

/* ---- Sets ---- */

static void a_set_is_made_of_views_of_different_accelerators(void **state)
{
    (void)state;
    need_two();
    assert_int_equal(amp_accelerator_set_size(set), 2);
    amp_accelerator_view *v;
    assert_amp_ok(amp_accelerator_set_get_view(set, 1, &v));
    assert_ptr_equal(v, parts[1]);
    /* The default weights: compute units x clock, equal for equal parts. */
    double w[2];
    assert_amp_ok(amp_accelerator_set_get_weights(set, w));
    assert_true(w[0] > 0 && w[0] == w[1]);
    int64_t starts[3];
    assert_amp_ok(amp_accelerator_set_partition(set, 101, starts));
    assert_true(starts[0] == 0 && starts[2] == 101 && (starts[1] == 50 || starts[1] == 51));
    /* The set of every accelerator of the default's kind is both parts
     * where the default is the CPU (elsewhere, a GPU say, it is the GPUs). */
    amp_accelerator_set *all;
    amp_accelerator *default_acc;
    amp_accelerator_info default_info;
    assert_amp_ok(amp_accelerator_get_default(&default_acc));
    assert_amp_ok(amp_accelerator_get_info(default_acc, &default_info));
    assert_amp_ok(amp_accelerator_set_create(NULL, 0, NULL, &all));
    if (default_info.is_emulated)
        assert_int_equal(amp_accelerator_set_size(all), 2);
    else
        assert_true(amp_accelerator_set_size(all) >= 1);
    assert_amp_ok(amp_accelerator_set_release(all));

    amp_accelerator_view *same[2] = {parts[0], parts[0]};
    amp_accelerator_view *one_null[2] = {parts[0], NULL};
    double bad[2] = {1, -1}, zero[2] = {0, 0}, nan_w[2] = {NAN, 1};
    assert_amp_fails(amp_accelerator_set_create(same, 2, NULL, &all), AMP_ERROR_INVALID_ARGUMENT,
                     "are both of");
    assert_amp_fails(amp_accelerator_set_create(one_null, 2, NULL, &all),
                     AMP_ERROR_INVALID_ARGUMENT, "view 1 is NULL");
    assert_amp_fails(amp_accelerator_set_create(parts, 2, bad, &all), AMP_ERROR_INVALID_ARGUMENT,
                     "weight 1 is -1");
    assert_amp_fails(amp_accelerator_set_create(parts, 2, zero, &all), AMP_ERROR_INVALID_ARGUMENT,
                     "add up to 0");
    assert_amp_fails(amp_accelerator_set_create(parts, 2, nan_w, &all), AMP_ERROR_INVALID_ARGUMENT,
                     "weight 0 is nan");
    assert_amp_fails(amp_accelerator_set_create(parts, 0, NULL, &all), AMP_ERROR_INVALID_ARGUMENT,
                     "with a count of 0");
    assert_amp_fails(amp_accelerator_set_create(parts, 2, NULL, NULL), AMP_ERROR_INVALID_ARGUMENT,
                     "out is NULL");
    assert_amp_fails(amp_accelerator_set_get_view(set, 2, &v), AMP_ERROR_INVALID_ARGUMENT,
                     "view 2 of a set of 2");
    assert_amp_fails(amp_accelerator_set_set_weights(set, bad), AMP_ERROR_INVALID_ARGUMENT,
                     "weight 1 is -1");
    assert_amp_ok(amp_accelerator_set_get_weights(set, w));
    assert_true(w[1] > 0);
    assert_amp_fails(amp_accelerator_set_release((amp_accelerator_set *)parts[0]),
                     AMP_ERROR_INVALID_ARGUMENT, "amp_accelerator_set_release");
    assert_amp_ok(amp_accelerator_set_release(NULL));
}

/* The set holds its views: a created view released by the caller stays
 * usable through the set, until the set goes. */
static void a_set_holds_its_created_views(void **state)
{
    (void)state;
    need_two();
    amp_accelerator_view *mine[2];
    amp_accelerator_set *s;
    for (int k = 0; k < 2; k++)
        assert_amp_ok(amp_accelerator_create_view(amp_accelerator_view_get_accelerator(parts[k]),
                                                  AMP_QUEUING_IMMEDIATE, &mine[k]));
    assert_amp_ok(amp_accelerator_set_create(mine, 2, NULL, &s));
    for (int k = 0; k < 2; k++)
        assert_amp_ok(amp_accelerator_view_release(mine[k]));
    int x[64] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(64), x, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(s, amp_extent_1d(64), i, AMP_CAPTURE(v), { v(i) = i[0] * 3; }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 64; i++)
        assert_int_equal(x[i], 3 * i);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_accelerator_set_release(s));
}

/* ---- Split launches: the same bits as one accelerator ---- */

static void a_launch_that_writes_at_the_threads_index_is_split_and_equals_one_accelerator(void **state)
{
    (void)state;
    need_two();
    static float a[ROWS * COLS], b[ROWS * COLS], one[ROWS * COLS], split[ROWS * COLS];
    fill(a, ROWS * COLS, 1.0f);
    fill(b, ROWS * COLS, 2.0f);
    amp_extent e = amp_extent_2d(ROWS, COLS);
    amp_array_view *va, *vb, *v1, *vs;
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, e, a, &va));
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, e, b, &vb));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, e, one, &v1));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, e, split, &vs));
    assert_amp_ok(pointwise(parts[0], va, vb, v1));
    trace_begin();
    amp_status st = pointwise(NULL, va, vb, vs);
    trace_end();
    assert_amp_ok(st);
    char want[512];
    snprintf(want, sizeof want, "is split across the set: rows 0-47 on %s, rows 48-95 on %s",
             part_info[0].description, part_info[1].description);
    assert_traced(want);
    assert_amp_ok(amp_array_view_synchronize(v1));
    assert_amp_ok(amp_array_view_synchronize(vs));
    assert_memory_equal(one, split, sizeof one);
    /* Each part wrote its own rows: the host read took half from each. */
    amp_transfer_stats t;
    assert_amp_ok(amp_array_view_get_transfers(vs, &t));
    assert_int_equal(t.count[AMP_TO_HOST][AMP_REASON_SYNCHRONIZE], 2);
    assert_int_equal(t.bytes[AMP_TO_HOST][AMP_REASON_SYNCHRONIZE], sizeof split);
    assert_amp_ok(amp_array_view_release(va));
    assert_amp_ok(amp_array_view_release(vb));
    assert_amp_ok(amp_array_view_release(v1));
    assert_amp_ok(amp_array_view_release(vs));
}

/* The launches of one shape: on a view, or (av NULL) on the set. */
#define ON(av, domain, idx, captures, ...)                                                         \
    ((av) ? AMP_PARALLEL_FOR_EACH_ON((av), domain, idx, captures, __VA_ARGS__)                     \
          : AMP_PARALLEL_FOR_EACH_ON(set, domain, idx, captures, __VA_ARGS__))
#define TILED_ON(av, domain, idx, captures, ...)                                                   \
    ((av) ? AMP_PARALLEL_FOR_EACH_ON((av), domain, idx, captures, __VA_ARGS__)               \
          : AMP_PARALLEL_FOR_EACH_ON(set, domain, idx, captures, __VA_ARGS__))

/* Each shape once on part 0 and once on the set: the same bits. */
static amp_status shapes(amp_accelerator_view *av, amp_array_view *in, amp_array_view *out,
                         int shape)
{
    switch (shape) {
    case 0: { /* rank 1: 4800 rows of one thread */
        amp_array_view *i1, *o1;
        amp_array_view_view_as(in, amp_extent_1d(ROWS * COLS), &i1);
        amp_array_view_view_as(out, amp_extent_1d(ROWS * COLS), &o1);
        amp_status st = ON(av, amp_extent_1d(ROWS * COLS), idx, AMP_CAPTURE(i1, o1), {
            o1(idx) = sqrt(fabs(i1(idx))) * 3.25f - i1[idx];
        });
        amp_array_view_release(i1);
        amp_array_view_release(o1);
        return st;
    }
    case 1: { /* rank 3 */
        amp_array_view *i3, *o3;
        amp_extent e = amp_extent_3d(ROWS / 4, 4, COLS);
        amp_array_view_view_as(in, e, &i3);
        amp_array_view_view_as(out, e, &o3);
        amp_status st = ON(av, e, idx, AMP_CAPTURE(i3, o3), {
            o3(idx[0], idx[1], idx[2]) = exp(i3(idx) * 0.01f) + idx[2];
        });
        amp_array_view_release(i3);
        amp_array_view_release(o3);
        return st;
    }
    case 2: { /* rank 4: counted in OpenCL's dimension 2 with the others */
        amp_array_view *i4, *o4;
        int dims[4] = {ROWS / 8, 2, 4, COLS};
        amp_extent e = amp_extent_nd(4, dims);
        amp_array_view_view_as(in, e, &i4);
        amp_array_view_view_as(out, e, &o4);
        amp_status st = ON(av, e, idx, AMP_CAPTURE(i4, o4), {
            o4(idx) = i4(idx) * (idx[0] + 2 * idx[1] + 3 * idx[2]) - idx[3];
        });
        amp_array_view_release(i4);
        amp_array_view_release(o4);
        return st;
    }
    case 3: /* tiled, at the global index, with tile_static memory */
        return TILED_ON(av, amp_extent_tile_2d(amp_extent_2d(ROWS, COLS), 8, 10), t_idx,
                        AMP_CAPTURE(in, out), {
            tile_static float row[8][10];
            row[t_idx.local[0]][t_idx.local[1]] = in(t_idx);
            t_idx.barrier.wait();
            out(t_idx.global) = row[t_idx.local[0]][9 - t_idx.local[1]] + t_idx.tile[0] * 1000.0f +
                                t_idx.tile_origin[1];
        });
    default: /* padded: 96 x 50 in tiles of 16 x 16, its last tiles guarded */
        return TILED_ON(av, amp_tiled_extent_pad(amp_extent_tile_2d(amp_extent_2d(ROWS, COLS), 16, 16)),
                        t_idx, AMP_CAPTURE(in, out), {
            out(t_idx) = in(t_idx) + t_idx.tile[0] * 100.0f + t_idx.tile[1];
        });
    }
}

static void every_rank_and_tiling_splits_to_the_same_bits(void **state)
{
    (void)state;
    need_two();
    static float in[ROWS * COLS], one[ROWS * COLS], split[ROWS * COLS];
    fill(in, ROWS * COLS, 3.0f);
    amp_extent e = amp_extent_2d(ROWS, COLS);
    for (int shape = 0; shape < 5; shape++) {
        for (int k = 0; k < ROWS * COLS; k++)
            one[k] = split[k] = -1.0f;
        amp_array_view *vi, *v1, *vs;
        assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, e, in, &vi));
        assert_amp_ok(amp_array_view_create(AMP_FLOAT, e, one, &v1));
        assert_amp_ok(amp_array_view_create(AMP_FLOAT, e, split, &vs));
        assert_amp_ok(shapes(parts[0], vi, v1, shape));
        trace_begin();
        amp_status st = shapes(NULL, vi, vs, shape);
        trace_end();
        assert_amp_ok(st);
        assert_traced("is split across the set");
        assert_amp_ok(amp_array_view_synchronize(v1));
        assert_amp_ok(amp_array_view_synchronize(vs));
        if (memcmp(one, split, sizeof one) != 0)
            fail_msg("shape %d: the split result differs from one accelerator's", shape);
        assert_amp_ok(amp_array_view_release(vi));
        assert_amp_ok(amp_array_view_release(v1));
        assert_amp_ok(amp_array_view_release(vs));
    }
}

/* Tile averaging: each tile's first thread writes the tile's element: the
 * tiles' rows split, two rows of tiles each. */
static amp_status tile_sums(amp_accelerator_view *av, amp_array_view *in, amp_array_view *sums)
{
    return TILED_ON(av, amp_extent_tile_2d(amp_extent_2d(ROWS, COLS), 24, 10), t_idx,
                    AMP_CAPTURE(in, sums), {
        tile_static float tile[24][10];
        tile[t_idx.local[0]][t_idx.local[1]] = in[t_idx];
        t_idx.barrier.wait();
        if (t_idx.local[0] == 0 && t_idx.local[1] == 0) {
            for (int r = 0; r < 24; r++)
                for (int c = 0; c < 10; c++)
                    sums(t_idx.tile) += tile[r][c];
            sums(t_idx.tile[0], t_idx.tile[1]) /= 240.0f;
        }
    });
}

static void a_write_at_the_tiles_index_is_split_by_rows_of_tiles(void **state)
{
    (void)state;
    need_two();
    static float in[ROWS * COLS];
    float one[4 * 5] = {0}, split[4 * 5] = {0};
    fill(in, ROWS * COLS, 4.0f);
    amp_array_view *vi, *v1, *vs;
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(ROWS, COLS), in, &vi));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(4, 5), one, &v1));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(4, 5), split, &vs));
    assert_amp_ok(tile_sums(parts[0], vi, v1));
    trace_begin();
    amp_status st = tile_sums(NULL, vi, vs);
    trace_end();
    assert_amp_ok(st);
    assert_traced("rows 0-47 on");
    assert_traced("rows 48-95 on");
    assert_amp_ok(amp_array_view_synchronize(v1));
    assert_amp_ok(amp_array_view_synchronize(vs));
    assert_memory_equal(one, split, sizeof one);
    /* Two rows of sums from each accelerator. */
    amp_transfer_stats t;
    assert_amp_ok(amp_array_view_get_transfers(vs, &t));
    assert_int_equal(t.count[AMP_TO_HOST][AMP_REASON_SYNCHRONIZE], 2);
    assert_amp_ok(amp_array_view_release(vi));
    assert_amp_ok(amp_array_view_release(v1));
    assert_amp_ok(amp_array_view_release(vs));
}

/* ---- What the proof does not take: whole, and why ---- */

AMP_FUNCTION(void, store, (array_view<float, 2> v, index<2> i, float x), { v[i] = x; });

/* Kernel k of the forms that cannot be proved, on the set. Each result is
 * one the host can check. */
static amp_status unprovable(int k, amp_array_view *in, amp_array_view *out, amp_array_view *alias,
                             amp_array_view *section, amp_array_view *counts, amp_array *arr)
{
    amp_extent e = amp_extent_2d(ROWS, COLS);
    switch (k) {
    case 0: /* an atomic */
        return AMP_PARALLEL_FOR_EACH_ON(set, e, idx, AMP_CAPTURE(in, counts, AMP_CONST(COLS)), {
            atomic_fetch_add(&counts((idx[0] * COLS + idx[1]) % 16), 1);
        });
    case 1: /* a write at a computed (scattered) index */
        return AMP_PARALLEL_FOR_EACH_ON(set, e, idx, AMP_CAPTURE(in, out, AMP_CONST(ROWS)), {
            out(ROWS - 1 - idx[0], idx[1]) = in(idx);
        });
    case 2: /* index arithmetic */
        return AMP_PARALLEL_FOR_EACH_ON(set, amp_extent_2d(ROWS - 1, COLS), idx,
                                            AMP_CAPTURE(in, out), {
            out(idx[0] + 1, idx[1]) = in(idx);
        });
    case 3: /* read and written at different indices (row 0 is only read) */
        return AMP_PARALLEL_FOR_EACH_ON(set, e, idx, AMP_CAPTURE(out), {
            if (idx[0] > 0)
                out(idx) = out(0, idx[1]) + 1.0f;
        });
    case 4: /* written through a helper */
        return AMP_PARALLEL_FOR_EACH_ON(set, e, idx, AMP_CAPTURE(store, in, out), {
            store(out, idx, in(idx) * 2.0f);
        });
    case 5: /* a section of the data */
        return AMP_PARALLEL_FOR_EACH_ON(set, amp_extent_2d(ROWS / 2, COLS), idx,
                                            AMP_CAPTURE(section), { section(idx) = 7.0f; });
    case 6: /* another view of the same data */
        return AMP_PARALLEL_FOR_EACH_ON(set, e, idx, AMP_CAPTURE(out, alias), {
            out(idx) = alias(idx) + 1.0f;
        });
    case 7: /* the index changed by the body */
        return AMP_PARALLEL_FOR_EACH_ON(set, amp_extent_2d(ROWS - 1, COLS), idx,
                                            AMP_CAPTURE(in, out), {
            idx[0] += 1;
            out(idx) = in(idx);
        });
    default: /* an array, which lives on one accelerator */
        return AMP_PARALLEL_FOR_EACH_ON(set, amp_extent_1d(16), idx, AMP_CAPTURE(arr), {
            arr(idx) = idx[0] * 2;
        });
    }
}

static void forms_that_cannot_be_proved_run_whole_and_say_why(void **state)
{
    (void)state;
    need_two();
    static const char *const why[] = {
        "view 'counts' has an element's address taken (an atomic, or a pointer that may write"
        " anywhere): 'counts((idx[0] * COLS + idx[1]) % 16)'",
        "view 'out' is used at an index other than the thread's own: 'out(ROWS - 1 - idx[0], idx[1])'",
        "view 'out' is used at an index other than the thread's own: 'out(idx[0] + 1, idx[1])'",
        "view 'out' is used at an index other than the thread's own: 'out(0, idx[1])'",
        "view 'out' is used as a view value (given to a helper function, or a section or"
        " projection of it): 'out'",
        "view 'section' is a section of its data",
        "view 'out' shares its data with view 'alias'",
        "view 'out' is used at the thread's index, and the body may change the index: 'out(idx)'",
        "array 'arr' lives on one accelerator",
    };
    static float in[ROWS * COLS], out[ROWS * COLS];
    int counts[16];
    int arr_host[16];
    fill(in, ROWS * COLS, 5.0f);
    amp_extent e = amp_extent_2d(ROWS, COLS);
    for (int k = 0; k < (int)(sizeof why / sizeof why[0]); k++) {
        for (int i = 0; i < ROWS * COLS; i++)
            out[i] = (float)(i % COLS);
        memset(counts, 0, sizeof counts);
        amp_array_view *vi, *vo, *alias, *section, *vc;
        amp_array *arr;
        assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, e, in, &vi));
        assert_amp_ok(amp_array_view_create(AMP_FLOAT, e, out, &vo));
        assert_amp_ok(amp_array_view_create(AMP_FLOAT, e, out, &alias));
        assert_amp_ok(amp_array_view_section(vo, amp_index_2d(ROWS / 4, 0),
                                             amp_extent_2d(ROWS / 2, COLS), &section));
        assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), counts, &vc));
        assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(16), parts[1], &arr));
        trace_begin();
        amp_status st = unprovable(k, vi, vo, alias, section, vc, arr);
        trace_end();
        assert_amp_ok(st);
        /* The answer is right (split, most of these forms would not be)... */
        assert_amp_ok(amp_array_view_synchronize(vo));
        assert_amp_ok(amp_array_view_synchronize(vc));
        for (int r = 0; r < ROWS; r++)
            for (int c = 0; c < COLS; c++) {
                float o = out[r * COLS + c], want_o = (float)c;
                if (k == 1)
                    want_o = in[(ROWS - 1 - r) * COLS + c];
                if (k == 2)
                    want_o = r == 0 ? (float)c : in[(r - 1) * COLS + c];
                if (k == 7)
                    want_o = r == 0 ? (float)c : in[r * COLS + c];
                if (k == 3)
                    want_o = r == 0 ? (float)c : (float)c + 1.0f;
                if (k == 4)
                    want_o = in[r * COLS + c] * 2.0f;
                if (k == 5)
                    want_o = r >= ROWS / 4 && r < ROWS / 4 + ROWS / 2 ? 7.0f : (float)c;
                if (k == 6)
                    want_o = (float)c + 1.0f;
                if (o != want_o)
                    fail_msg("form %d: out(%d, %d) is %g, not %g", k, r, c, o, want_o);
            }
        if (k == 0)
            for (int i = 0; i < 16; i++)
                assert_int_equal(counts[i], ROWS * COLS / 16);
        if (k == 8) {
            assert_amp_ok(AMP_COPY(arr, arr_host));
            for (int i = 0; i < 16; i++)
                assert_int_equal(arr_host[i], 2 * i);
        }
        /* ...and the launch ran whole, for the reason given. */
        char want[600];
        snprintf(want, sizeof want, "runs whole on %s, not split across the set: %s",
                 part_info[k == 8 ? 1 : 0].description, why[k]);
        assert_traced(want);
        assert_amp_ok(amp_array_view_release(vi));
        assert_amp_ok(amp_array_view_release(section));
        assert_amp_ok(amp_array_view_release(vo));
        assert_amp_ok(amp_array_view_release(alias));
        assert_amp_ok(amp_array_view_release(vc));
        assert_amp_ok(amp_array_release(arr));
    }
}

static void a_domain_of_fewer_rows_than_accelerators_runs_whole(void **state)
{
    (void)state;
    need_two();
    float x[COLS] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(1, COLS), x, &v));
    trace_begin();
    amp_status st = AMP_PARALLEL_FOR_EACH_ON(set, amp_extent_2d(1, COLS), idx, AMP_CAPTURE(v), {
        v(idx) = idx[1];
    });
    trace_end();
    assert_amp_ok(st);
    assert_traced("its 1 row of threads go to one accelerator by weight");
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int c = 0; c < COLS; c++)
        assert_true(x[c] == (float)c);
    assert_amp_ok(amp_array_view_release(v));
}

/* A call its checks refuse fails over a set as on one view, with the same
 * status and message, and moves nothing. */
static void a_call_its_checks_refuse_fails_over_a_set_as_on_one_view(void **state)
{
    (void)state;
    need_two();
    float x[64] = {0};
    amp_array_view *v, *gone = NULL;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(64), x, &v));
    amp_transfer_reset_stats();
    assert_amp_fails(AMP_PARALLEL_FOR_EACH_ON(set, amp_extent_1d(64), i, AMP_CAPTURE(v, gone),
                                                  { v(i) = gone(i); }),
                     AMP_ERROR_INVALID_ARGUMENT, "view 'gone' is NULL");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH_ON(set, amp_extent_tile_1d(amp_extent_1d(64), 24),
                                                        t, AMP_CAPTURE(v), { v(t) = 1.0f; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "is not divisible by the tile");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH_ON(set, amp_extent_1d(0), i, AMP_CAPTURE(v), { v(i) = 1.0f; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "every dimension must be > 0");
    assert_amp_fails(amp_parallel_for_each_set(set, amp_extent_1d(64), NULL, AMP_CAPTURE(v)),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    amp_transfer_stats t = transfers_now();
    assert_int_equal(t.uploads + t.downloads, 0);
    assert_amp_ok(amp_array_view_release(v));
}

/* ---- The ledger ---- */

static amp_status bump(amp_array_view *a, amp_array_view *c)
{
    return AMP_PARALLEL_FOR_EACH_ON(set, amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(a, c), {
        c(idx) += a(idx);
    });
}

/* The same split again moves nothing; a host read gathers each part from
 * the accelerator that holds it, once; a new split moves the rows that
 * change hands, through the host, and nothing else. */
static void each_move_follows_the_split(void **state)
{
    (void)state;
    need_two();
    static float a[ROWS * COLS], c[ROWS * COLS];
    for (int i = 0; i < ROWS * COLS; i++) {
        a[i] = 1.0f;
        c[i] = (float)i;
    }
    const uint64_t row = COLS * sizeof(float), all = ROWS * row;
    amp_array_view *va, *vc;
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(ROWS, COLS), a, &va));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(ROWS, COLS), c, &vc));
    amp_transfer_reset_stats();
    /* The first launch: a, only read, whole to each; c, each part's rows. */
    assert_amp_ok(bump(va, vc));
    amp_transfer_stats t = transfers_now();
    assert_int_equal(t.bytes[AMP_TO_DEVICE][AMP_REASON_KERNEL], 2 * all + all);
    assert_int_equal(t.count[AMP_TO_DEVICE][AMP_REASON_KERNEL], 4);
    /* The same split again: nothing moves. */
    amp_transfer_reset_stats();
    assert_amp_ok(bump(va, vc));
    assert_amp_ok(bump(va, vc));
    t = transfers_now();
    assert_int_equal(t.uploads + t.downloads, 0);
    /* A host read: each half from its accelerator, once. */
    assert_amp_ok(amp_array_view_synchronize(vc));
    assert_amp_ok(amp_array_view_synchronize(vc));
    t = transfers_now();
    assert_int_equal(t.downloads, 2);
    assert_int_equal(t.download_bytes, all);
    assert_int_equal(t.uploads, 0);
    for (int i = 0; i < ROWS * COLS; i++)
        assert_true(c[i] == (float)i + 3.0f);
    /* Again, with no host read in between, then a new split of 3 to 1:
     * rows 48 to 71 change hands from part 2 to part 1, and nothing else
     * moves. */
    assert_amp_ok(bump(va, vc));
    double w[2] = {3, 1};
    assert_amp_ok(amp_accelerator_set_set_weights(set, w));
    amp_transfer_reset_stats();
    assert_amp_ok(bump(va, vc));
    t = transfers_now();
    assert_int_equal(t.download_bytes, 24 * row);
    assert_int_equal(t.upload_bytes, 24 * row);
    /* And back: the same rows back to part 2, nothing else. */
    w[0] = w[1] = 1;
    assert_amp_ok(amp_accelerator_set_set_weights(set, w));
    amp_transfer_reset_stats();
    assert_amp_ok(bump(va, vc));
    t = transfers_now();
    assert_int_equal(t.download_bytes, 24 * row);
    assert_int_equal(t.upload_bytes, 24 * row);
    amp_transfer_reset_stats();
    assert_amp_ok(amp_array_view_synchronize(vc));
    t = transfers_now();
    assert_int_equal(t.download_bytes, all);
    for (int i = 0; i < ROWS * COLS; i++)
        assert_true(c[i] == (float)i + 6.0f);
    assert_amp_ok(amp_array_view_release(va));
    assert_amp_ok(amp_array_view_release(vc));
}

/* A kernel launched again on the same views skips making them current
 * while nothing changed their data since its last launch (the launch
 * record). A write on the other accelerator changes it, though the writer
 * found its own copy ready: the next launch here must bring that write. */
static amp_status plus_one(amp_accelerator_view *av, amp_array_view *from, amp_array_view *to)
{
    return AMP_PARALLEL_FOR_EACH_ON(av, amp_extent_1d(64), idx, AMP_CAPTURE(from, to),
                                    { to(idx[0]) = from(idx[0]) + 1.0f; });
}

static amp_status add_ten(amp_accelerator_view *av, amp_array_view *v)
{
    return AMP_PARALLEL_FOR_EACH_ON(av, amp_extent_1d(64), idx, AMP_CAPTURE(v),
                                    { v(idx[0]) += 10.0f; });
}

static void a_launch_again_sees_a_write_on_the_other_accelerator(void **state)
{
    (void)state;
    need_two();
    float a[64], b[64], c[64];
    for (int i = 0; i < 64; i++)
        a[i] = (float)i; /* sums exact in float */
    amp_array_view *va, *vb, *vc;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(64), a, &va));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(64), b, &vb));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(64), c, &vc));
    /* a current on both; the second's last use of it is its own view's. */
    assert_amp_ok(plus_one(parts[1], va, vc));
    assert_amp_ok(plus_one(parts[0], va, vb));
    assert_amp_ok(plus_one(parts[0], va, vb));
    /* Written on the second accelerator, where it was ready already: the
     * first's copy is stale now. */
    assert_amp_ok(add_ten(parts[1], va));
    assert_amp_ok(plus_one(parts[0], va, vb));
    assert_amp_ok(amp_array_view_synchronize(vb));
    assert_true(b[5] == 16.0f);
    /* And the host's write, seen by both. */
    assert_amp_ok(amp_array_view_synchronize(va));
    a[5] = -1.0f;
    assert_amp_ok(amp_array_view_refresh(va));
    assert_amp_ok(plus_one(parts[0], va, vb));
    assert_amp_ok(plus_one(parts[1], va, vc));
    assert_amp_ok(amp_array_view_synchronize(vb));
    assert_amp_ok(amp_array_view_synchronize(vc));
    assert_true(b[5] == 0.0f && c[5] == 0.0f);
    assert_amp_ok(amp_array_view_release(va));
    assert_amp_ok(amp_array_view_release(vb));
    assert_amp_ok(amp_array_view_release(vc));
}

/* ---- A set of one, and after shutdown ---- */

static void a_set_of_one_is_a_launch_on_its_view(void **state)
{
    (void)state;
    need_two();
    amp_accelerator_set *one;
    assert_amp_ok(amp_accelerator_set_create(&parts[1], 1, NULL, &one));
    int x[32] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(32), x, &v));
    amp_kernel_stats before = kernels_now();
    for (int k = 0; k < 3; k++)
        assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(one, amp_extent_1d(32), i, AMP_CAPTURE(v), { v(i) += 1; }));
    amp_kernel_stats after = kernels_now();
    /* Its launch record answers the repeats, as for a launch on the view. */
    assert_int_equal(after.cache_hits - before.cache_hits, 2);
    amp_transfer_reset_stats();
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_int_equal(transfers_now().downloads, 1);
    for (int i = 0; i < 32; i++)
        assert_int_equal(x[i], 3);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_accelerator_set_release(one));
}

static void a_set_refuses_launches_once_shutdown_ended_its_views(void **state)
{
    (void)state;
    need_two();
    amp_accelerator_set *s;
    assert_amp_ok(amp_accelerator_set_create(parts, 2, NULL, &s));
    assert_amp_ok(amp_shutdown());
    int x[4];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), x, &v));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH_ON(s, amp_extent_1d(4), i, AMP_CAPTURE(v), { v(i) = 1; }),
                     AMP_ERROR_INVALID_ARGUMENT, "ended by amp_shutdown()");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH_ON((amp_accelerator_set *)NULL, amp_extent_1d(4), i, AMP_CAPTURE(v), { v(i) = 1; }),
                     AMP_ERROR_INVALID_ARGUMENT, "amp_parallel_for_each_set: the accelerator set");
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_accelerator_set_release(s));
    /* The views of the shared set went with it too: make them again. */
    amp_accelerator_set_release(set);
    set = NULL;
    assert_int_equal(two_accelerators(NULL), 0);
}

/* ---- Uploads of the parts at the same time ---- */

typedef cl_int (*write_fn)(cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *,
                           cl_uint, const cl_event *, cl_event *);
static write_fn real_write;
static int writes_waited, writes_not_waited;

static cl_int counting_write(cl_command_queue q, cl_mem mem, cl_bool blocking, size_t offset,
                             size_t n, const void *host, cl_uint nwait, const cl_event *wait,
                             cl_event *ev)
{
    if (blocking)
        writes_waited++;
    else
        writes_not_waited++;
    return real_write(q, mem, blocking, offset, n, host, nwait, wait, ev);
}

/* The parts' uploads are queued without waiting, one device after the
 * other, and have all read the caller's memory when the launch returns. */
static void a_split_launch_has_read_the_callers_memory_when_it_returns(void **state)
{
    (void)state;
    need_two();
    static float in[ROWS * COLS], out[ROWS * COLS];
    fill(in, ROWS * COLS, 6.0f);
    amp_array_view *vi, *vo;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(ROWS, COLS), in, &vi));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(ROWS, COLS), out, &vo));
    assert_amp_ok(amp_array_view_discard_data(vo));
    real_write = amp__clapi.EnqueueWriteBuffer;
    amp__clapi.EnqueueWriteBuffer = counting_write;
    writes_waited = writes_not_waited = 0;
    amp_status st = AMP_PARALLEL_FOR_EACH_ON(set, amp_extent_2d(ROWS, COLS), idx,
                                                 AMP_CAPTURE(vi, vo), { vo(idx) = vi(idx) + 0.5f; });
    amp__clapi.EnqueueWriteBuffer = real_write;
    /* The caller's memory is its own again: changing it changes nothing. */
    for (int i = 0; i < ROWS * COLS; i++)
        in[i] = -1.0f;
    assert_amp_ok(st);
    assert_int_equal(writes_not_waited, 2); /* in, to each part */
    assert_int_equal(writes_waited, 0);
    assert_amp_ok(amp_array_view_synchronize(vo));
    fill(in, ROWS * COLS, 6.0f);
    for (int i = 0; i < ROWS * COLS; i++)
        if (out[i] != in[i] + 0.5f)
            fail_msg("out[%d] is %g, not %g", i, out[i], in[i] + 0.5f);
    assert_amp_ok(amp_array_view_release(vi));
    assert_amp_ok(amp_array_view_release(vo));
}

typedef cl_int (*wait_fn)(cl_uint, const cl_event *);
static wait_fn real_wait;

/* The wait for a device's work finds it failed, as a lost device's does. */
static cl_int failing_wait(cl_uint n, const cl_event *events)
{
    real_wait(n, events);
    return CL_OUT_OF_RESOURCES;
}

/* A part's upload that fails when it is waited for removes its
 * accelerator: the records count that copy as current, and nothing may
 * read it. The host keeps its data. Last: it ends the set's accelerators. */
static void an_upload_that_fails_at_its_wait_removes_its_accelerator(void **state)
{
    (void)state;
    need_two();
    static float in[ROWS * COLS], out[ROWS * COLS];
    fill(in, ROWS * COLS, 7.0f);
    amp_array_view *vi, *vo;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(ROWS, COLS), in, &vi));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(ROWS, COLS), out, &vo));
    assert_amp_ok(amp_array_view_discard_data(vo));
    real_wait = amp__clapi.WaitForEvents;
    amp__clapi.WaitForEvents = failing_wait;
    amp_status st = AMP_PARALLEL_FOR_EACH_ON(set, amp_extent_2d(ROWS, COLS), idx,
                                                 AMP_CAPTURE(vi, vo), { vo(idx) = vi(idx) * 3.0f; });
    amp__clapi.WaitForEvents = real_wait;
    assert_int_equal(st, AMP_ERROR_ACCELERATOR_VIEW_REMOVED);
    assert_non_null(strstr(amp_last_error(), "launch split across accelerators"));
    /* The accelerators are gone for good; the host's data is as it was. */
    for (int k = 0; k < 2; k++)
        assert_amp_fails(AMP_PARALLEL_FOR_EACH_ON(parts[k], amp_extent_1d(4), i, AMP_CAPTURE(vi),
                                                  { vi(i) = 1.0f; }),
                         AMP_ERROR_ACCELERATOR_VIEW_REMOVED, "was removed: an earlier wait");
    float first = in[0];
    fill(in, 1, 7.0f);
    assert_true(first == in[0]);
    amp_array_view_release(vi);
    amp_array_view_release(vo);
    amp_accelerator_set_release(set);
    set = NULL;
    amp_shutdown();
}

int main(void)
{
    /* Before the first call: the CPU as two accelerators, and the
     * decisions of launches over a set on stderr. */
    setenv("AMP_SPLIT_CPU", "2", 1);
    setenv("AMP_TRACE", "kernels", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_set_is_made_of_views_of_different_accelerators),
        cmocka_unit_test(a_set_holds_its_created_views),
        cmocka_unit_test(a_launch_that_writes_at_the_threads_index_is_split_and_equals_one_accelerator),
        cmocka_unit_test(every_rank_and_tiling_splits_to_the_same_bits),
        cmocka_unit_test(a_write_at_the_tiles_index_is_split_by_rows_of_tiles),
        cmocka_unit_test(forms_that_cannot_be_proved_run_whole_and_say_why),
        cmocka_unit_test(a_domain_of_fewer_rows_than_accelerators_runs_whole),
        cmocka_unit_test(a_call_its_checks_refuse_fails_over_a_set_as_on_one_view),
        cmocka_unit_test(each_move_follows_the_split),
        cmocka_unit_test(a_launch_again_sees_a_write_on_the_other_accelerator),
        cmocka_unit_test(a_set_of_one_is_a_launch_on_its_view),
        cmocka_unit_test(a_set_refuses_launches_once_shutdown_ended_its_views),
        cmocka_unit_test(a_split_launch_has_read_the_callers_memory_when_it_returns),
        cmocka_unit_test(an_upload_that_fails_at_its_wait_removes_its_accelerator),
    };
    return cmocka_run_group_tests(tests, two_accelerators, release_all);
}
