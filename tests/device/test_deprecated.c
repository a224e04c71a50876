/*
 * tests/device/test_deprecated.c - every deprecated spelling of the API
 * still compiles and does what it did (docs/api.md, "Deprecated
 * spellings"). Built with -Wno-deprecated-declarations: the warnings are
 * what a program that uses them gets, and the test deprecation_warnings
 * (tests/lint) checks that the compiler gives each one.
 */
#include "test_util.h"

static void the_tiled_macros_launch_tiled_kernels(void **state)
{
    (void)state;
    int data[8] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), data, &v));
    amp_tiled_extent tiles = amp_extent_tile_1d(amp_extent_1d(8), 4);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_TILED(tiles, t_idx, AMP_CAPTURE(v), {
        v(t_idx.global[0]) = t_idx.tile[0] * 10 + t_idx.local[0];
    }));
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_IMMEDIATE, &av));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_TILED_ON(av, tiles, t_idx, AMP_CAPTURE(v), {
        v(t_idx) += 100;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    const int want[8] = {100, 101, 102, 103, 110, 111, 112, 113};
    assert_memory_equal(data, want, sizeof want);
    /* Their statuses are the call's: a tile that does not divide the extent. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH_TILED(amp_extent_tile_1d(amp_extent_1d(6), 4), t_idx,
                                                 AMP_CAPTURE(v), { v(t_idx) = 0; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN, "not divisible by the tile 4");
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_accelerator_view_release(av));
}

static void amp_struct_max_members_is_the_limit(void **state)
{
    (void)state;
    _Static_assert(AMP_STRUCT_MAX_MEMBERS == AMP_MAX_STRUCT_MEMBERS, "the same limit");
    amp_struct_member members[AMP_STRUCT_MAX_MEMBERS + 1];
    for (int i = 0; i <= AMP_STRUCT_MAX_MEMBERS; i++)
        members[i] = (amp_struct_member){"int", "m", (size_t)i * 4, 4};
    amp_struct_desc too_many = {"too_many", 4 * (AMP_STRUCT_MAX_MEMBERS + 1),
                                AMP_STRUCT_MAX_MEMBERS + 1, members};
    amp_elem_type type;
    assert_amp_fails(amp_struct_register(&too_many, &type), AMP_ERROR_INVALID_ARGUMENT,
                     "it must have 1 to 16");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_tiled_macros_launch_tiled_kernels),
        cmocka_unit_test(amp_struct_max_members_is_the_limit),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
