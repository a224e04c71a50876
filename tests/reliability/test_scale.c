/*
 * tests/reliability/test_scale.c - domains and views past 2^31 elements, as far as the
 * device allows.
 *
 * Every device can run a domain of more than 2^31 threads: the kernel is
 * then built with 64-bit offsets, and each thread must still get its own
 * index. Views of more than 2^31 elements need that much device memory
 * (8 GiB of int); here one wraps a read-only mapping of /dev/zero, which
 * costs no memory, and everything the host does with it (extent, sections
 * past 2^31 elements, host access) is checked. A kernel over it runs where
 * the device can hold it, and elsewhere must give AMP_ERROR_OUT_OF_MEMORY
 * naming it. tests/reliability/large_view.c runs kernels over such views on a GPU.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test_util.h"

/* 65536 x 32769 = 2^31 + 2^16 elements. */
#define ROWS 65536
#define COLS 32769
#define ELEMENTS ((int64_t)ROWS * COLS)

static int rows_seen[ROWS], last_row[COLS];

static void skip_under_valgrind(void)
{
    /* PoCL runs kernels inside the process, so valgrind would run 2^31
     * threads on its simulated CPU: hours. */
    if (RUNNING_ON_VALGRIND) {
        print_message("skipped under valgrind: 2^31 kernel threads on its simulated CPU\n");
        skip();
    }
}

static void domain_of_more_than_2_to_the_31_threads_runs_every_thread(void **state)
{
    (void)state;
    skip_under_valgrind();
    memset(rows_seen, 0, sizeof rows_seen);
    memset(last_row, 0, sizeof last_row);
    amp_array_view *r, *l;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(ROWS), rows_seen, &r));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(COLS), last_row, &l));
    /* The last thread of each row, and every thread of the last row, say
     * where they are. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(r, l), {
        if (idx[1] == COLS - 1)
            r(idx[0]) = idx[0] + 1;
        if (idx[0] == ROWS - 1)
            l(idx[1]) = idx[1] + 1;
    }));
    assert_amp_ok(amp_array_view_release(r));
    assert_amp_ok(amp_array_view_release(l));
    for (int i = 0; i < ROWS; i++)
        if (rows_seen[i] != i + 1)
            fail_msg("row %d: %d", i, rows_seen[i]);
    for (int j = 0; j < COLS; j++)
        if (last_row[j] != j + 1)
            fail_msg("last row, column %d: %d", j, last_row[j]);
}

static void tiled_domain_of_more_than_2_to_the_31_threads_runs_every_tile(void **state)
{
    (void)state;
    skip_under_valgrind();
    /* 65537 x 32768 threads in tiles of 1 x 256: 8388736 tiles. */
#define TROWS 65537
#define TCOLS 32768
#define TILE 256
    static int first_of_row[TROWS];
    memset(first_of_row, 0, sizeof first_of_row);
    amp_array_view *f;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(TROWS), first_of_row, &f));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(
        amp_extent_tile_2d(amp_extent_2d(TROWS, TCOLS), 1, TILE), t, AMP_CAPTURE(f), {
            /* The last thread of the last tile of each row. */
            if (t.tile[1] == TCOLS / TILE - 1 && t.local[1] == TILE - 1)
                f(t.global[0]) = t.tile[0] * 2 + (t.global[1] == TCOLS - 1);
        }));
    assert_amp_ok(amp_array_view_release(f));
    for (int i = 0; i < TROWS; i++)
        if (first_of_row[i] != 2 * i + 1)
            fail_msg("row %d: %d, not %d", i, first_of_row[i], 2 * i + 1);
}

static void view_of_more_than_2_to_the_31_elements(void **state)
{
    (void)state;
    size_t bytes = (size_t)ELEMENTS * sizeof(int);
    int fd = open("/dev/zero", O_RDONLY);
    assert_true(fd >= 0);
    /* Read-only and private: no memory is committed, and nothing (the
     * library included) can write it. */
    const int *zeros = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    assert_true(zeros != MAP_FAILED);

    amp_array_view *v, *row;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_2d(ROWS, COLS), zeros, &v));
    assert_int_equal(amp_extent_size(amp_array_view_get_extent(v)), ELEMENTS);
    /* The last row starts 2^31 - 1 elements in: its offset, and the host
     * address of its data, need 64 bits. */
    assert_amp_ok(amp_array_view_section(v, amp_index_2d(ROWS - 1, 0), amp_extent_2d(1, COLS),
                                         &row));
    const void *p;
    assert_amp_ok(amp_array_view_data_const(row, &p));
    assert_ptr_equal(p, zeros + (int64_t)(ROWS - 1) * COLS);
    assert_int_equal(((const int *)p)[COLS - 1], 0);
    amp_array_view *line;
    assert_amp_ok(amp_array_view_view_as(row, amp_extent_1d(COLS), &line));
    assert_amp_ok(amp_array_view_data_const(line, &p));
    assert_ptr_equal(p, zeros + ELEMENTS - COLS);

    /* A kernel reads the last row through the whole view: v(i, j) with
     * 64-bit offsets. */
    amp_accelerator *acc;
    amp_accelerator_info info;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    assert_amp_ok(amp_accelerator_get_info(acc, &info));
    uint64_t max_alloc = info.max_allocation;
    static int out[COLS];
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(COLS), out, &o));
    amp_clear_error();
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(COLS), j, AMP_CAPTURE(v, o), {
        o(j) = v(ROWS - 1, j[0]) + j[0];
    });
    if (max_alloc >= bytes + 64 && !RUNNING_ON_VALGRIND) {
        assert_amp_ok(st);
        assert_amp_ok(amp_array_view_synchronize(o));
        for (int j = 0; j < COLS; j++)
            assert_int_equal(out[j], j);
        print_message("a kernel ran over the %zu-byte view\n", bytes);
    } else {
        if (st != AMP_ERROR_OUT_OF_MEMORY || !strstr(amp_last_error(), "View 'v' needs"))
            fail_msg("a %zu-byte view on a device that allocates at most %llu bytes: %s: %s",
                     bytes, (unsigned long long)max_alloc, amp_status_name(st),
                     amp_last_error());
        print_message("the device allocates at most %llu bytes, so a kernel over the %zu-byte"
                      " view gives AMP_ERROR_OUT_OF_MEMORY\n",
                      (unsigned long long)max_alloc, bytes);
    }
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_array_view_release(line));
    assert_amp_ok(amp_array_view_release(row));
    assert_amp_ok(amp_array_view_release(v));
    munmap((void *)zeros, bytes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(domain_of_more_than_2_to_the_31_threads_runs_every_thread),
        cmocka_unit_test(tiled_domain_of_more_than_2_to_the_31_threads_runs_every_tile),
        cmocka_unit_test(view_of_more_than_2_to_the_31_elements),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
