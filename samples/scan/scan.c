/*
 * A tiled prefix sum (inclusive scan), in C: out[i] = in[0] + ... + in[i]
 * for a million ints, checked against a running sum on the CPU.
 *
 * A tile can scan only its own elements: it loads them into tile_static
 * memory and runs log2(TILE_SIZE) steps, each adding to every element the
 * one `offset` places before it (Hillis and Steele's scan). That leaves each
 * tile's elements short of the sum of all the tiles before it. So:
 *
 *   1. scan every tile, and write each tile's total to tile_sums;
 *   2. scan tile_sums, the same way (a million elements make 3907 tiles of
 *      256, which make 16 tiles, which make 1);
 *   3. add to every element of tile t the scanned total of tiles 0 .. t-1.
 *
 * A million is not a multiple of the tile, so every level runs on a padded
 * domain: the threads past the end load 0 and write nothing.
 */
#include <stdio.h>
#include <stdlib.h>

#include <amp/amp.h>

#include "../common/sample_check.h"

#define ELEMENT_COUNT 1000000

static const int TILE_SIZE = 256;

// Scan n elements of in into out; level counts the recursion, for printing.
static void scan_tiled(amp_array_view *in, amp_array_view *out, int n, int level)
{
    int tile_count = (n + TILE_SIZE - 1) / TILE_SIZE;
    printf("  level %d: %d elements, %d tile%s\n", level, n, tile_count, tile_count > 1 ? "s" : "");

    int *tile_sums_data = malloc(sizeof(int) * tile_count);
    if (!tile_sums_data) {
        fprintf(stderr, "out of memory\n");
        exit(EXIT_FAILURE);
    }
    amp_array_view *tile_sums;
    check(amp_array_view_create(AMP_INT, amp_extent_1d(tile_count), tile_sums_data, &tile_sums));
    check(amp_array_view_discard_data(tile_sums));
    check(amp_array_view_discard_data(out));

    // 1. Scan within each tile.
    amp_tiled_extent domain = amp_tiled_extent_pad(amp_extent_tile_1d(amp_extent_1d(n), TILE_SIZE));
    check(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(in, out, tile_sums, n, AMP_CONST(TILE_SIZE)), {
        tile_static int tile_data[TILE_SIZE];
        int local_idx = t_idx.local[0];
        int global_idx = t_idx.global[0];

        // Threads past the end add nothing to the sums.
        tile_data[local_idx] = global_idx < n ? in(global_idx) : 0;
        t_idx.barrier.wait();

        // After the step with offset d, element i holds the sum of the 2d
        // elements up to i (or of all of them, near the start).
        for (int offset = 1; offset < TILE_SIZE; offset *= 2) {
            int addend = local_idx >= offset ? tile_data[local_idx - offset] : 0;
            // Every thread reads before any thread writes: without this
            // barrier a thread could add a value already updated this step.
            t_idx.barrier.wait();
            tile_data[local_idx] += addend;
            // And every write is done before the next step reads.
            t_idx.barrier.wait();
        }

        if (global_idx < n) {
            out(global_idx) = tile_data[local_idx];
        }
        // The tile's total is its last element. Thread 0 writes it: the
        // first thread of a tile is always inside the extent, and in a
        // padded domain only those threads can write to a view.
        if (local_idx == 0) {
            tile_sums(t_idx.tile[0]) = tile_data[TILE_SIZE - 1];
        }
    }));

    if (tile_count > 1) {
        // 2. Scan the tile totals: scanned_sums(t) is the sum of tiles 0 .. t.
        int *scanned_sums_data = malloc(sizeof(int) * tile_count);
        if (!scanned_sums_data) {
            fprintf(stderr, "out of memory\n");
            exit(EXIT_FAILURE);
        }
        amp_array_view *scanned_sums;
        check(amp_array_view_create(AMP_INT, amp_extent_1d(tile_count), scanned_sums_data,
                                    &scanned_sums));
        scan_tiled(tile_sums, scanned_sums, tile_count, level + 1);

        // 3. Add the total of the tiles before to every element after the
        // first tile. One thread per element; no tiles needed.
        check(AMP_PARALLEL_FOR_EACH(amp_extent_1d(n - TILE_SIZE), idx,
                                    AMP_CAPTURE(out, scanned_sums, AMP_CONST(TILE_SIZE)), {
            int i = idx[0] + TILE_SIZE;
            out(i) += scanned_sums(i / TILE_SIZE - 1);
        }));

        // The device copies are what matters; the host buffers are not read.
        check(amp_array_view_discard_data(scanned_sums));
        check(amp_array_view_release(scanned_sums));
        free(scanned_sums_data);
    }
    check(amp_array_view_discard_data(tile_sums));
    check(amp_array_view_release(tile_sums));
    free(tile_sums_data);
}

int main(void)
{
    int *input = malloc(sizeof(int) * ELEMENT_COUNT);
    int *output = malloc(sizeof(int) * ELEMENT_COUNT);
    int *expected = malloc(sizeof(int) * ELEMENT_COUNT);
    if (!input || !output || !expected) {
        fprintf(stderr, "out of memory\n");
        return EXIT_FAILURE;
    }
    // Small values of both signs, so that the running sum rises and falls;
    // ints, so that the GPU's order of additions gives the CPU's result.
    for (int i = 0; i < ELEMENT_COUNT; i++) {
        input[i] = (i * 7) % 11 - 4;
    }
    int running_sum = 0;
    for (int i = 0; i < ELEMENT_COUNT; i++) {
        running_sum += input[i];
        expected[i] = running_sum;
    }

    amp_array_view *in, *out;
    check(amp_array_view_create_const(AMP_INT, amp_extent_1d(ELEMENT_COUNT), input, &in));
    check(amp_array_view_create(AMP_INT, amp_extent_1d(ELEMENT_COUNT), output, &out));

    printf("Inclusive scan of %d ints, tiles of %d threads\n", ELEMENT_COUNT, TILE_SIZE);
    scan_tiled(in, out, ELEMENT_COUNT, 1);
    check(amp_array_view_synchronize(out));

    int indices[] = {0, 1, 255, 256, 500000, ELEMENT_COUNT - 1};
    for (size_t k = 0; k < sizeof indices / sizeof indices[0]; k++) {
        printf("out[%d] = %d\n", indices[k], output[indices[k]]);
    }
    int mismatches = 0;
    for (int i = 0; i < ELEMENT_COUNT; i++) {
        mismatches += output[i] != expected[i];
    }
    printf("matches the CPU: %s\n", mismatches == 0 ? "yes" : "no");

    check(amp_array_view_release(in));
    check(amp_array_view_release(out));
    free(input);
    free(output);
    free(expected);
    return mismatches == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
