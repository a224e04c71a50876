/*
 * tests/unit/test_extent.c - extents, indices and tiled extents.
 */
#include "test_util.h"

static void extent_helpers_set_rank_and_dims(void **state)
{
    (void)state;
    amp_extent e = amp_extent_3d(2, 3, 4);
    assert_int_equal(e.rank, 3);
    assert_int_equal(e.dims[0], 2);
    assert_int_equal(e.dims[2], 4);
    assert_int_equal(amp_extent_1d(7).rank, 1);
    assert_int_equal(amp_extent_2d(7, 8).dims[1], 8);
}

static void extent_size_is_64_bit(void **state)
{
    (void)state;
    assert_int_equal(amp_extent_size(amp_extent_2d(3, 4)), 12);
    /* 65536 x 65536 = 2^32 elements: over what an int can count. */
    assert_true(amp_extent_size(amp_extent_2d(65536, 65536)) == (int64_t)1 << 32);
    assert_true(amp_extent_size(amp_extent_3d(2048, 2048, 2048)) == (int64_t)1 << 33);
}

static void extent_size_is_zero_when_invalid(void **state)
{
    (void)state;
    assert_int_equal(amp_extent_size(amp_extent_2d(0, 4)), 0);
    assert_int_equal(amp_extent_size(amp_extent_2d(-1, 4)), 0);
    amp_extent bad = {4, {1, 1, 1}};
    assert_int_equal(amp_extent_size(bad), 0);
}

static void extent_equal_compares_rank_and_dims(void **state)
{
    (void)state;
    assert_true(amp_extent_equal(amp_extent_2d(3, 4), amp_extent_2d(3, 4)));
    assert_false(amp_extent_equal(amp_extent_2d(3, 4), amp_extent_2d(4, 3)));
    assert_false(amp_extent_equal(amp_extent_1d(3), amp_extent_2d(3, 1)));
}

static void tile_records_its_rank(void **state)
{
    (void)state;
    amp_tiled_extent t = amp_extent_tile_2d(amp_extent_2d(8, 8), 2, 4);
    assert_int_equal(t.tile_rank, 2);
    assert_int_equal(t.tile[0], 2);
    assert_int_equal(t.tile[1], 4);
    assert_true(amp_extent_equal(t.extent, amp_extent_2d(8, 8)));
    assert_int_equal(amp_extent_tile_1d(amp_extent_1d(8), 4).tile_rank, 1);
    assert_int_equal(amp_extent_tile_3d(amp_extent_3d(8, 8, 8), 2, 2, 2).tile_rank, 3);
}

static void index_helpers_set_rank(void **state)
{
    (void)state;
    amp_index i = amp_index_3d(1, 2, 3);
    assert_int_equal(i.rank, 3);
    assert_int_equal(i.i[1], 2);
    assert_int_equal(amp_index_1d(5).i[0], 5);
    assert_int_equal(amp_index_2d(5, 6).rank, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(extent_helpers_set_rank_and_dims),
        cmocka_unit_test(extent_size_is_64_bit),
        cmocka_unit_test(extent_size_is_zero_when_invalid),
        cmocka_unit_test(extent_equal_compares_rank_and_dims),
        cmocka_unit_test(tile_records_its_rank),
        cmocka_unit_test(index_helpers_set_rank),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
