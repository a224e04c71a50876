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

static void the_old_getters_give_what_the_new_ones_give(void **state)
{
    (void)state;
    int data[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &v));
    amp_reset_transfers();
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v), { v(i) = i[0]; }));
    assert_amp_ok(amp_array_view_synchronize(v));
    amp_transfer_stats old_stats, new_stats;
    assert_amp_ok(amp_get_transfers(&old_stats));
    assert_amp_ok(amp_transfer_get_stats(&new_stats));
    assert_int_equal(old_stats.uploads, 1);
    assert_memory_equal(&old_stats, &new_stats, sizeof old_stats);
    amp_reset_transfers();
    assert_amp_ok(amp_transfer_get_stats(&new_stats));
    assert_int_equal(new_stats.uploads + new_stats.downloads, 0);
    assert_amp_fails(amp_get_transfers(NULL), AMP_ERROR_INVALID_ARGUMENT, "out is NULL");

    amp_kernel_stats old_kernels, new_kernels;
    assert_amp_ok(amp_get_kernel_stats(&old_kernels));
    assert_amp_ok(amp_kernel_get_stats(&new_kernels));
    assert_true(old_kernels.builds >= 1);
    assert_memory_equal(&old_kernels, &new_kernels, sizeof old_kernels);

    /* AMP_PROFILE is not set here: both say so alike. */
    assert_int_equal(amp_profile_enabled(), amp_profile_is_enabled());
    size_t count = 99;
    assert_amp_fails(amp_get_profile(NULL, 0, &count), AMP_ERROR_INVALID_OPERATION, "AMP_PROFILE");
    amp_reset_profile();

    assert_int_equal(amp_elem_size(AMP_DOUBLE), 8);
    assert_int_equal(amp_elem_size((amp_elem_type)42), 0);
    amp_accelerator *acc;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    assert_string_equal(amp_accelerator_default_reason(), amp_accelerator_get_default_reason());
    assert_true(amp_accelerator_default_reason()[0] != '\0');
    assert_amp_ok(amp_array_view_release(v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_tiled_macros_launch_tiled_kernels),
        cmocka_unit_test(amp_struct_max_members_is_the_limit),
        cmocka_unit_test(the_ends_of_a_copy_by_kind_copy),
        cmocka_unit_test(the_old_getters_give_what_the_new_ones_give),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
