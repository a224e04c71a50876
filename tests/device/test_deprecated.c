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

static void the_ends_of_a_copy_by_kind_copy(void **state)
{
    (void)state;
    int host[4] = {1, 2, 3, 4}, out[4] = {0}, back[4] = {0};
    amp_array *a;
    amp_array_view *v;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(4), NULL, &a));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), out, &v));
    assert_amp_ok(amp_copy(amp_data_host(host), amp_data_array(a)));
    assert_amp_ok(amp_copy(amp_data_array(a), amp_data_view(v)));
    assert_amp_ok(amp_copy(amp_data_view(v), amp_data_host(back)));
    assert_memory_equal(back, host, sizeof host);
    /* The same ends as amp_data_of's. */
    assert_int_equal(amp_data_host(host).kind, amp_data_of(host).kind);
    assert_ptr_equal(amp_data_array(a).as.array, amp_data_of(a).as.array);
    assert_ptr_equal(amp_data_view(v).as.view, amp_data_of(v).as.view);
    assert_amp_fails(amp_copy(amp_data_host(host), amp_data_host(back)),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(a));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_tiled_macros_launch_tiled_kernels),
        cmocka_unit_test(amp_struct_max_members_is_the_limit),
        cmocka_unit_test(the_ends_of_a_copy_by_kind_copy),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
