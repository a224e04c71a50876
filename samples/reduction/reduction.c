/*
 * The C++ AMP tiled reduction, in C: the sum of 1<<20 ints, computed in
 * passes on the accelerator and checked against a plain loop on the CPU.
 *
 * Each pass gives every tile of TILE_SIZE threads TILE_SIZE elements. The
 * tile copies them into a tile_static array, adds them pairwise in a tree
 * (log2(TILE_SIZE) steps, a barrier after each), and its first thread
 * writes the tile's partial sum. The partial sums are the next pass's
 * input; passes go on while the count still divides into whole tiles, and
 * the CPU adds the few sums left at the end.
 *
 * The tree is written two ways, as in the C++ AMP sample's successive
 * versions:
 *   interleaved  at step s, thread i adds element i + s when i is a
 *                multiple of 2s: the active threads are scattered;
 *   sequential   at step s, the first s threads add element i + s: the
 *                active threads are contiguous, and no modulo is needed.
 * Both give the same sum; they differ in which threads work at each step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <amp/amp.h>

#include "../common/sample_check.h"

#define ELEMENT_COUNT (1 << 20)

// A constant rather than a macro, so that the generated kernel shows the
// name: the preprocessor would replace a macro inside the kernel body.
static const int TILE_SIZE = 256;

enum tree { INTERLEAVED, SEQUENTIAL };

// One pass: every tile of src writes its sum to dst(tile).
static void reduce_pass(enum tree tree, amp_array_view *src, amp_array_view *dst, int element_count)
{
    amp_tiled_extent domain = amp_extent_tile_1d(amp_extent_1d(element_count), TILE_SIZE);

    if (tree == INTERLEAVED) {
        check(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(src, dst, AMP_CONST(TILE_SIZE)), {
            // Use tile_static memory as the tile's scratchpad.
            tile_static int tile_data[TILE_SIZE];
            int local_idx = t_idx.local[0];
            tile_data[local_idx] = src(t_idx.global[0]);
            t_idx.barrier.wait();

            // Step s adds pairs s apart; only every (2s)th thread works.
            for (int s = 1; s < TILE_SIZE; s *= 2) {
                if (local_idx % (2 * s) == 0) {
                    tile_data[local_idx] += tile_data[local_idx + s];
                }
                // The next step reads what this one wrote.
                t_idx.barrier.wait();
            }

            // Thread 0 holds the tile's sum.
            if (local_idx == 0) {
                dst(t_idx.tile[0]) = tile_data[0];
            }
        }));
    } else {
        check(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(src, dst, AMP_CONST(TILE_SIZE)), {
            tile_static int tile_data[TILE_SIZE];
            int local_idx = t_idx.local[0];
            tile_data[local_idx] = src(t_idx.global[0]);
            t_idx.barrier.wait();

            // Step s folds the upper half of the live range onto the lower
            // half: threads 0 .. s-1 work, side by side.
            for (int s = TILE_SIZE / 2; s > 0; s /= 2) {
                if (local_idx < s) {
                    tile_data[local_idx] += tile_data[local_idx + s];
                }
                t_idx.barrier.wait();
            }

            if (local_idx == 0) {
                dst(t_idx.tile[0]) = tile_data[0];
            }
        }));
    }
}

// The whole reduction; prints the sizes of the passes and returns the sum.
static long long reduction_tiled(enum tree tree, const int *source, int element_count)
{
    // Work on copies, as the C++ AMP sample copies its vector into an array:
    // the passes overwrite their buffers.
    int *buffer_1 = malloc(sizeof(int) * element_count);
    int *buffer_2 = malloc(sizeof(int) * (element_count / TILE_SIZE ? element_count / TILE_SIZE : 1));
    if (!buffer_1 || !buffer_2) {
        fprintf(stderr, "out of memory\n");
        exit(EXIT_FAILURE);
    }
    memcpy(buffer_1, source, sizeof(int) * element_count);

    amp_array_view *src, *dst;
    check(amp_array_view_create(AMP_INT, amp_extent_1d(element_count), buffer_1, &src));
    check(amp_array_view_create(AMP_INT,
                                amp_extent_1d(element_count / TILE_SIZE ? element_count / TILE_SIZE : 1),
                                buffer_2, &dst));
    // dst is only written: its host contents need not go to the device.
    check(amp_array_view_discard_data(dst));

    printf("  %d", element_count);
    // Reduce on the accelerator while the count divides into whole tiles.
    while (element_count % TILE_SIZE == 0) {
        reduce_pass(tree, src, dst, element_count);
        element_count /= TILE_SIZE;
        printf(" -> %d", element_count);

        // The partial sums are the next pass's input; the old input is
        // overwritten next, so its contents are not needed any more.
        amp_array_view *swap = src;
        src = dst;
        dst = swap;
        check(amp_array_view_discard_data(dst));
    }
    printf(" partial sums; the CPU adds the last %d\n", element_count);

    // Add what is left on the CPU.
    const void *partial;
    check(amp_array_view_data_const(src, &partial));
    long long sum = 0;
    for (int i = 0; i < element_count; i++) {
        sum += ((const int *)partial)[i];
    }

    check(amp_array_view_release(src));
    check(amp_array_view_release(dst));
    free(buffer_1);
    free(buffer_2);
    return sum;
}

int main(void)
{
    int *source = malloc(sizeof(int) * ELEMENT_COUNT);
    if (!source) {
        fprintf(stderr, "out of memory\n");
        return EXIT_FAILURE;
    }
    // Deterministic values 0 .. 1023 (a multiplicative hash of the index):
    // integers, so that every order of addition gives the same sum.
    for (int i = 0; i < ELEMENT_COUNT; i++) {
        source[i] = (int)(((unsigned)i * 2654435761u) >> 22);
    }

    long long cpu_sum = 0;
    for (int i = 0; i < ELEMENT_COUNT; i++) {
        cpu_sum += source[i];
    }

    printf("Sum of %d ints, tiles of %d threads\n", ELEMENT_COUNT, TILE_SIZE);
    printf("interleaved tree:\n");
    long long interleaved_sum = reduction_tiled(INTERLEAVED, source, ELEMENT_COUNT);
    printf("  sum: %lld\n", interleaved_sum);
    printf("sequential tree:\n");
    long long sequential_sum = reduction_tiled(SEQUENTIAL, source, ELEMENT_COUNT);
    printf("  sum: %lld\n", sequential_sum);
    printf("CPU sum: %lld\n", cpu_sum);

    int matches = interleaved_sum == cpu_sum && sequential_sum == cpu_sum;
    printf("matches the CPU: %s\n", matches ? "yes" : "no");
    free(source);
    return matches ? EXIT_SUCCESS : EXIT_FAILURE;
}
