/*
 * The C++ AMP bitonic sort, in C: 1<<16 ints sorted on the accelerator and
 * checked against qsort on the CPU.
 *
 * A bitonic sort merges sorted runs of 2, 4, 8, ... elements (the levels).
 * Merging at level L takes steps j = L/2, L/4, ..., 1; at step j every
 * element is compared with the one j places away and the pair is put in
 * order, ascending or descending by bit L of the element's index. Steps
 * with j below the tile size stay within one tile, so a tile can run them
 * all in tile_static memory, with a barrier between steps. Larger steps
 * cross tiles. The program shows two ways to do those:
 *
 *   bitonic_sort_amp          the C++ AMP sample's way (after the DirectX
 *                             SDK's ComputeShaderSort11): view the data as
 *                             a 256 x 256 matrix; the large steps pair
 *                             elements of the same column, so transpose the
 *                             matrix, sort its rows in tiles, and transpose
 *                             back. Every compare is done in a tile.
 *   bitonic_sort_global_steps run each large step as its own untiled kernel
 *                             on global memory (one launch per step), and
 *                             only the small steps in tiles.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <amp/amp.h>

#include "../common/sample_check.h"

#define NUM_ELEMENTS (1 << 16)

// Threads per tile of the sorting kernel. The C++ AMP sample used 512;
// NVIDIA's OpenCL compiler allows this kernel at most 256 threads per tile
// (CL_KERNEL_WORK_GROUP_SIZE, set by its register use), so the port uses 256
// everywhere, to print the same on every device. Made smaller at start-up
// on a device whose tiles cannot hold even that.
static int BITONIC_TILE_SIZE = 256;
static const int TRANSPOSE_TILE_SIZE = 16;

// Sort each tile of data: the steps j = level/2 .. 1 of a merge whose
// direction is given by the bit level_mask of each element's index.
static void bitonic_sort_tiles(amp_array_view *data, unsigned level, unsigned level_mask)
{
    amp_tiled_extent domain = amp_extent_tile_1d(amp_array_view_get_extent(data), BITONIC_TILE_SIZE);
    check(AMP_PARALLEL_FOR_EACH(domain, t_idx,
                                AMP_CAPTURE(data, level, level_mask, AMP_CONST(BITONIC_TILE_SIZE)), {
        tile_static int sh_data[BITONIC_TILE_SIZE];
        unsigned local_idx = t_idx.local[0];
        unsigned global_idx = t_idx.global[0];

        // Read once from global memory; every step after this is in the tile.
        sh_data[local_idx] = data(global_idx);
        t_idx.barrier.wait();

        for (unsigned j = level >> 1; j > 0; j >>= 1) {
            // The pair (local_idx & ~j, local_idx | j) is in order when its
            // first element is the smaller one and this part of the data
            // ascends (its level_mask bit is 0), or the other way round.
            // Out of order, each thread of the pair takes its partner's
            // value: the pair is swapped.
            bool in_order = sh_data[local_idx & ~j] <= sh_data[local_idx | j];
            bool descending = (level_mask & global_idx) != 0;
            int result = in_order == descending ? sh_data[local_idx ^ j] : sh_data[local_idx];
            // Both threads of a pair must read before either writes.
            t_idx.barrier.wait();
            sh_data[local_idx] = result;
            // And every write of this step is done before the next reads.
            t_idx.barrier.wait();
        }

        data(global_idx) = sh_data[local_idx];
    }));
}

// data_in holds height rows of width elements; data_out gets its transpose,
// width rows of height. Through a tile_static tile, as samples/transpose.
static void transpose(amp_array_view *data_in, amp_array_view *data_out, int width, int height)
{
    amp_tiled_extent domain =
        amp_extent_tile_2d(amp_extent_2d(height, width), TRANSPOSE_TILE_SIZE, TRANSPOSE_TILE_SIZE);
    check(AMP_PARALLEL_FOR_EACH(domain, t_idx,
                                AMP_CAPTURE(data_in, data_out, width, height,
                                            AMP_CONST(TRANSPOSE_TILE_SIZE)), {
        tile_static int transpose_shared_data[TRANSPOSE_TILE_SIZE][TRANSPOSE_TILE_SIZE];
        transpose_shared_data[t_idx.local[1]][t_idx.local[0]] =
            data_in(t_idx.global[0] * width + t_idx.global[1]);
        t_idx.barrier.wait();
        int row = t_idx.tile_origin[1] + t_idx.local[0];
        int col = t_idx.tile_origin[0] + t_idx.local[1];
        data_out(row * height + col) = transpose_shared_data[t_idx.local[0]][t_idx.local[1]];
    }));
}

static void bitonic_sort_amp(amp_array_view *a, amp_array_view *b)
{
    const unsigned MATRIX_WIDTH = BITONIC_TILE_SIZE;
    const unsigned MATRIX_HEIGHT = NUM_ELEMENTS / BITONIC_TILE_SIZE;
    int transposes = 0, tiled = 0;

    // First sort the rows for the levels up to the tile size.
    for (unsigned level = 2; level <= (unsigned)BITONIC_TILE_SIZE; level *= 2) {
        bitonic_sort_tiles(a, level, level);
        tiled++;
    }

    // Then the larger levels: transpose, sort the columns (now rows),
    // transpose back, sort the rows.
    for (unsigned level = BITONIC_TILE_SIZE * 2; level <= NUM_ELEMENTS; level *= 2) {
        // The steps j = level/2 .. MATRIX_WIDTH compare rows j/MATRIX_WIDTH
        // apart: after the transpose, they are elements j/MATRIX_WIDTH apart
        // in one row. The direction bit moves the same way; the last level
        // sorts everything ascending (its mask is 0).
        transpose(a, b, MATRIX_WIDTH, MATRIX_HEIGHT);
        bitonic_sort_tiles(b, level / BITONIC_TILE_SIZE, (level & ~NUM_ELEMENTS) / BITONIC_TILE_SIZE);
        transpose(b, a, MATRIX_HEIGHT, MATRIX_WIDTH);
        // The steps j = MATRIX_WIDTH/2 .. 1, within rows.
        bitonic_sort_tiles(a, BITONIC_TILE_SIZE, level);
        transposes += 2;
        tiled += 2;
    }
    printf("  %d tiled sorts, %d transposes\n", tiled, transposes);
}

// One step j of level `level`, on global memory: each pair (i, i ^ j) is
// put in order by its lower thread.
static void bitonic_step_global(amp_array_view *data, unsigned level, unsigned j)
{
    check(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(data), idx, AMP_CAPTURE(data, level, j), {
        unsigned i = idx[0];
        unsigned partner = i ^ j;
        if (partner > i) {
            int low = data(i);
            int high = data(partner);
            bool ascending = (i & level) == 0;
            if ((low > high) == ascending) {
                data(i) = high;
                data(partner) = low;
            }
        }
    }));
}

static void bitonic_sort_global_steps(amp_array_view *a)
{
    int global_steps = 0, tiled = 0;
    for (unsigned level = 2; level <= NUM_ELEMENTS; level *= 2) {
        // Steps that reach across tiles: one launch each, so that the
        // end of a launch is the barrier between steps.
        unsigned j = level / 2;
        for (; j >= (unsigned)BITONIC_TILE_SIZE; j /= 2) {
            bitonic_step_global(a, level, j);
            global_steps++;
        }
        // The rest, j < BITONIC_TILE_SIZE, in one tiled launch. Passed
        // level 2j, the tile kernel starts at step j; the direction still
        // comes from bit `level` of the index.
        bitonic_sort_tiles(a, 2 * j, level);
        tiled++;
    }
    printf("  %d global steps, %d tiled sorts\n", global_steps, tiled);
}

static int compare_ints(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

// Print the ends of the sorted data and compare it with the CPU's sort.
static int report(const int *sorted, const int *expected)
{
    printf("  first: %d %d %d %d, last: %d %d %d %d\n", sorted[0], sorted[1], sorted[2], sorted[3],
           sorted[NUM_ELEMENTS - 4], sorted[NUM_ELEMENTS - 3], sorted[NUM_ELEMENTS - 2],
           sorted[NUM_ELEMENTS - 1]);
    int matches = memcmp(sorted, expected, sizeof(int) * NUM_ELEMENTS) == 0;
    printf("  matches the CPU: %s\n", matches ? "yes" : "no");
    return matches;
}

int main(void)
{
    // The sorting kernel's tile must fit the device, and the C++ AMP
    // sample's matrix must be no taller than it is wide.
    amp_accelerator *acc;
    amp_accelerator_info info;
    check(amp_accelerator_get_default(&acc));
    check(amp_accelerator_get_info(acc, &info));
    while ((size_t)BITONIC_TILE_SIZE > info.max_tile_size) {
        BITONIC_TILE_SIZE /= 2;
    }
    if (NUM_ELEMENTS / BITONIC_TILE_SIZE > BITONIC_TILE_SIZE) {
        fprintf(stderr, "%s allows tiles of %zu threads; this sample needs %d.\n", info.description,
                info.max_tile_size, NUM_ELEMENTS / BITONIC_TILE_SIZE);
        return EXIT_FAILURE;
    }

    int *input = malloc(sizeof(int) * NUM_ELEMENTS);
    int *a_data = malloc(sizeof(int) * NUM_ELEMENTS);
    int *b_data = malloc(sizeof(int) * NUM_ELEMENTS);
    int *expected = malloc(sizeof(int) * NUM_ELEMENTS);
    if (!input || !a_data || !b_data || !expected) {
        fprintf(stderr, "out of memory\n");
        return EXIT_FAILURE;
    }
    // Deterministic pseudo-random ints in 0 .. 999999 (a linear
    // congruential generator); some repeat, which a sort must handle.
    unsigned state = 2011u;
    for (int i = 0; i < NUM_ELEMENTS; i++) {
        state = state * 1664525u + 1013904223u;
        input[i] = (int)((state >> 8) % 1000000u);
    }
    memcpy(expected, input, sizeof(int) * NUM_ELEMENTS);
    qsort(expected, NUM_ELEMENTS, sizeof(int), compare_ints);

    printf("Bitonic sort of %d ints, tiles of %d threads\n", NUM_ELEMENTS, BITONIC_TILE_SIZE);

    // The C++ AMP sample's way: a and b are its two arrays.
    memcpy(a_data, input, sizeof(int) * NUM_ELEMENTS);
    amp_array_view *a, *b;
    check(amp_array_view_create(AMP_INT, amp_extent_1d(NUM_ELEMENTS), a_data, &a));
    check(amp_array_view_create(AMP_INT, amp_extent_1d(NUM_ELEMENTS), b_data, &b));
    check(amp_array_view_discard_data(b));
    printf("transposes for the large steps (%d x %d matrix):\n", NUM_ELEMENTS / BITONIC_TILE_SIZE,
           BITONIC_TILE_SIZE);
    bitonic_sort_amp(a, b);
    check(amp_array_view_synchronize(a));
    int amp_ok = report(a_data, expected);
    check(amp_array_view_discard_data(b));
    check(amp_array_view_release(b));
    check(amp_array_view_release(a));

    // Global steps for the large ones.
    memcpy(a_data, input, sizeof(int) * NUM_ELEMENTS);
    check(amp_array_view_create(AMP_INT, amp_extent_1d(NUM_ELEMENTS), a_data, &a));
    printf("global steps for the large steps:\n");
    bitonic_sort_global_steps(a);
    check(amp_array_view_synchronize(a));
    int global_ok = report(a_data, expected);
    check(amp_array_view_release(a));

    free(input);
    free(a_data);
    free(b_data);
    free(expected);
    return amp_ok && global_ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
