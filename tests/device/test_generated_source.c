/*
 * tests/device/test_generated_source.c - the generated kernel is correct whatever
 * the call site's file is named, and names the generated kernel owns are
 * refused before it is built, naming the user's identifier.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "test_util.h"

/* A body at a call site whose file name holds a comment's end, quotes,
 * backslashes, spaces and a newline. */
static void any_file_name_makes_a_correct_kernel(void **state)
{
    (void)state;
    static const char body[] = "{ v(idx) = idx[0] * 2; }";
    static const char *const files[] = {"dir with space/odd*/name.c", "q\"uote\\d.c",
                                        "new\nline.c", "*/ #define v oops /*"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        int out[4] = {0};
        amp_array_view *v;
        assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), out, &v));
        amp_kernel_source src = {files[f], 7, "idx", body, sizeof body - 1, 0};
        assert_amp_ok(amp_parallel_for_each(NULL, amp_extent_1d(4), &src, AMP_CAPTURE(v)));
        assert_amp_ok(amp_array_view_release(v));
        for (int i = 0; i < 4; i++)
            assert_int_equal(out[i], 2 * i);
    }
}

/* A build error at such a call site is reported, naming the file. */
static void a_build_error_names_an_odd_file(void **state)
{
    (void)state;
    static const char body[] = "{ v(idx) = undeclared_thing; }";
    int out[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), out, &v));
    amp_kernel_source src = {"odd*/\"name\\.c", 3, "idx", body, sizeof body - 1, 0};
    assert_amp_fails(amp_parallel_for_each(NULL, amp_extent_1d(4), &src, AMP_CAPTURE(v)),
                     AMP_ERROR_KERNEL_BUILD, "odd*/\"name\\.c");
    assert_amp_ok(amp_array_view_release(v));
}

/* A kernel file whose path holds quotes and backslashes: its #line is a
 * correct C string. */
static void a_kernel_file_with_an_odd_name_compiles(void **state)
{
    (void)state;
    char dir[] = "/tmp/amp-odd-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/k\"e\\y.cl", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("v(idx) = 5 * idx[0];\n", f);
    fclose(f);
    amp_kernel_source *src;
    assert_amp_ok(amp_kernel_source_load(path, "idx", &src));
    int out[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), out, &v));
    assert_amp_ok(amp_parallel_for_each(NULL, amp_extent_1d(4), src, AMP_CAPTURE(v)));
    assert_amp_ok(amp_array_view_release(v));
    amp_kernel_source_release(src);
    assert_int_equal(out[3], 15);
    unlink(path);
    rmdir(dir);
}

AMP_STRUCT(point, (float, x), (float, y));
AMP_STRUCT(half, (float, lo), (float, hi));
AMP_STRUCT(sample, (float, kernel), (int, id));

static void names_the_kernel_owns_are_refused(void **state)
{
    (void)state;
    int data[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &v));
    enum { CLK_LOCAL_MEM_FENCE = 1, M_PI = 3 };
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v, AMP_CONST(CLK_LOCAL_MEM_FENCE)),
                                           { v(idx) = 1; }),
                     AMP_ERROR_INVALID_ARGUMENT, "AMP_CONST 'CLK_LOCAL_MEM_FENCE' is a macro OpenCL C defines");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v, AMP_CONST(M_PI)),
                                           { v(idx) = 1; }),
                     AMP_ERROR_INVALID_ARGUMENT, "'M_PI'");
    int barrier = 2;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v, barrier),
                                           { v(idx) = barrier; }),
                     AMP_ERROR_INVALID_ARGUMENT, "capture 'barrier' is a name the generated kernel uses");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v),
                                           { int amp_v_ptr = 1; v(idx) = amp_v_ptr; }),
                     AMP_ERROR_KERNEL_BUILD, "'amp_v_ptr' is a name of the generated kernel");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v),
                                           { AMP_DEFINE(tile_static int) v(idx) = 1; }),
                     AMP_ERROR_KERNEL_BUILD, "AMP_DEFINE(tile_static ...) would redefine");
    /* A struct named like a keyword, or with such a member, is refused
     * when it is registered (and again at a launch, for a description
     * that goes around the registration). */
    amp_elem_type type;
    assert_amp_fails(amp_struct_register(AMP_STRUCT_DESC(half), &type), AMP_ERROR_INVALID_ARGUMENT,
                     "the struct's name 'half' is a keyword or built-in type of OpenCL C");
    assert_amp_fails(amp_struct_register(AMP_STRUCT_DESC(sample), &type),
                     AMP_ERROR_INVALID_ARGUMENT,
                     "member 'kernel' of struct sample is named like a keyword");
    static const amp_struct_member twice[2] = {{"int", "a", 0, 4, 0}, {"int", "a", 4, 4, 0}};
    static const amp_struct_desc pair = {"pair_of_a", 8, 2, twice};
    assert_amp_fails(amp_struct_register(&pair, &type), AMP_ERROR_INVALID_ARGUMENT,
                     "struct pair_of_a has two members named 'a'");
    assert_amp_ok(amp_array_view_release(v));
}

static void a_function_like_define_is_a_function_like_macro(void **state)
{
    (void)state;
    int out[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v), {
        AMP_DEFINE(SQ(x) ((x) * (x)))
        AMP_DEFINE(TWO (2))
        v(idx) = SQ(idx[0] + TWO);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 4; i++)
        assert_int_equal(out[i], (i + 2) * (i + 2));
    assert_amp_ok(amp_array_view_release(v));
}

/* A moved tile_static declaration may use an AMP_DEFINE written before it:
 * the definition moves with it. */
static void a_tile_static_size_may_be_an_amp_define(void **state)
{
    (void)state;
    int out[8] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(8), 4), t_idx,
                                        AMP_CAPTURE(v), {
        AMP_DEFINE(N 4)
        AMP_DEFINE(ELEMENT int)
        for (int pass = 0; pass < 1; pass++) {
            tile_static ELEMENT buffer[N];
            buffer[t_idx.local[0]] = t_idx.global[0];
            t_idx.barrier.wait();
            v[t_idx] = buffer[N - 1 - t_idx.local[0]];
        }
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 8; i++)
        assert_int_equal(out[i], i / 4 * 4 + 3 - i % 4);
    assert_amp_ok(amp_array_view_release(v));
}

/* A definition under AMP_IF moves with its conditions: the size of a moved
 * tile_static array is the one of the branch the constants take. */
static void a_tile_static_size_defined_under_amp_if_is_the_branch_taken(void **state)
{
    (void)state;
    int out[8] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), out, &v));
    for (int WIDE = 0; WIDE <= 1; WIDE++) {
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(8), 4), t_idx,
                                            AMP_CAPTURE(v, AMP_CONST(WIDE)), {
            AMP_IF(WIDE)
            AMP_DEFINE(N 8)
            AMP_ELSE
            AMP_DEFINE(N 2)
            AMP_ENDIF
            tile_static int buffer[N];
            buffer[N - 1] = N;
            t_idx.barrier.wait();
            v[t_idx] = (int)(sizeof buffer / sizeof buffer[0]) * 100 + buffer[N - 1];
        }));
        assert_amp_ok(amp_array_view_synchronize(v));
        for (int i = 0; i < 8; i++)
            assert_int_equal(out[i], WIDE ? 808 : 202);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* An array declared in each branch of an AMP_IF, of another type or shape
 * in each: at the top of the kernel it keeps one name for both, so the
 * uses after the branches name the one the constants keep. `barrier` is a
 * name the generated kernel uses, so that one is renamed, both branches
 * alike. */
static void a_tile_static_declared_in_each_branch_is_one_array(void **state)
{
    (void)state;
    int out[8] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), out, &v));
    for (int WIDE = 0; WIDE <= 1; WIDE++) {
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(8), 4), t_idx,
                                            AMP_CAPTURE(v, AMP_CONST(WIDE)), {
            AMP_IF(WIDE)
            tile_static int4 stage[4][2];
            tile_static float barrier[8];
            AMP_ELSE
            tile_static int4 stage[2][1];
            tile_static int barrier[2];
            AMP_ENDIF
            stage[0][0] = (int4)(t_idx.local[0]);
            barrier[1] = 3;
            t_idx.barrier.wait();
            v[t_idx] = (int)(sizeof stage / sizeof(int4)) * 100 +
                       (int)(sizeof barrier / sizeof barrier[0]) * 10 + (int)barrier[1];
        }));
        assert_amp_ok(amp_array_view_synchronize(v));
        for (int i = 0; i < 8; i++)
            assert_int_equal(out[i], WIDE ? 883 : 223);
    }
    assert_amp_ok(amp_array_view_release(v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(any_file_name_makes_a_correct_kernel),
        cmocka_unit_test(a_build_error_names_an_odd_file),
        cmocka_unit_test(a_kernel_file_with_an_odd_name_compiles),
        cmocka_unit_test(names_the_kernel_owns_are_refused),
        cmocka_unit_test(a_function_like_define_is_a_function_like_macro),
        cmocka_unit_test(a_tile_static_size_may_be_an_amp_define),
        cmocka_unit_test(a_tile_static_size_defined_under_amp_if_is_the_branch_taken),
        cmocka_unit_test(a_tile_static_declared_in_each_branch_is_one_array),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
