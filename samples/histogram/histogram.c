/*
 * A 256-bin histogram with atomics, in C: 1<<20 byte values counted on the
 * accelerator two ways and checked against a plain loop on the CPU.
 *
 *   histogram_global  every thread adds its elements straight to the global
 *                     histogram with atomic_fetch_inc. Correct, but all the
 *                     threads of the device queue up on the same 256
 *                     counters.
 *   histogram_tiled   every tile first counts into its own tile_static
 *                     histogram (atomics again, but only the tile's threads
 *                     compete for them, in fast memory), then adds each of
 *                     its 256 counts to the global histogram with one
 *                     atomic_fetch_add: 256 global atomics per tile instead
 *                     of one per element.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <amp/amp.h>

#include "../common/sample_check.h"

#define ELEMENT_COUNT (1 << 20)

// Constants rather than macros, so that the generated kernels show their
// names; an enum, where the host also sizes arrays with it.
enum { BIN_COUNT = 256 };
static const int TILE_SIZE = 256;
// Each thread counts this many elements, so that a tile's tile_static
// histogram gathers 4096 elements before it is merged.
static const int ITEMS_PER_THREAD = 16;

void histogram_global(amp_array_view *data, amp_array_view *histogram)
{
    int element_count = ELEMENT_COUNT;
    int thread_count = element_count / ITEMS_PER_THREAD;
    check(AMP_PARALLEL_FOR_EACH(amp_extent_1d(thread_count), idx,
                                AMP_CAPTURE(data, histogram, element_count, thread_count), {
        // Thread t counts elements t, t + thread_count, ...: neighbouring
        // threads read neighbouring elements.
        for (int i = idx[0]; i < element_count; i += thread_count) {
            atomic_fetch_inc(&histogram(data(i)));
        }
    }));
}

void histogram_tiled(amp_array_view *data, amp_array_view *histogram)
{
    int element_count = ELEMENT_COUNT;
    int thread_count = element_count / ITEMS_PER_THREAD;
    amp_tiled_extent domain = amp_extent_tile_1d(amp_extent_1d(thread_count), TILE_SIZE);
    check(AMP_PARALLEL_FOR_EACH(domain, t_idx,
                                AMP_CAPTURE(data, histogram, element_count, thread_count,
                                            AMP_CONST(BIN_COUNT), AMP_CONST(TILE_SIZE)), {
        tile_static unsigned tile_histogram[BIN_COUNT];

        // tile_static memory starts undefined: the tile clears its bins,
        // each thread a share of them, and waits until all are clear.
        for (int bin = t_idx.local[0]; bin < BIN_COUNT; bin += TILE_SIZE) {
            tile_histogram[bin] = 0;
        }
        t_idx.barrier.wait();

        // Count into the tile's histogram. Threads of the tile that meet on
        // the same bin are serialized by the atomic; no thread outside the
        // tile sees these counters.
        for (int i = t_idx.global[0]; i < element_count; i += thread_count) {
            atomic_fetch_inc(&tile_histogram[data(i)]);
        }
        // Every count of the tile must be in before any is merged.
        t_idx.barrier.wait();

        // Merge: one atomic add per bin and tile. Other tiles merge into the
        // same bins at the same time, so this add must be atomic too.
        for (int bin = t_idx.local[0]; bin < BIN_COUNT; bin += TILE_SIZE) {
            atomic_fetch_add(&histogram(bin), tile_histogram[bin]);
        }
    }));
}

// Run one version into a zeroed histogram and compare it with the CPU's.
static int run_and_check(const char *name, void (*compute)(amp_array_view *, amp_array_view *),
                         amp_array_view *data, const unsigned *expected)
{
    unsigned counts[BIN_COUNT] = {0};
    amp_array_view *histogram;
    check(amp_array_view_create(AMP_UINT, amp_extent_1d(BIN_COUNT), counts, &histogram));

    compute(data, histogram);

    check(amp_array_view_synchronize(histogram));
    unsigned total = 0;
    for (int bin = 0; bin < BIN_COUNT; bin++) {
        total += counts[bin];
    }
    printf("%s:\n  bins 0, 64, 128, 192, 255: %u %u %u %u %u; total %u\n", name, counts[0],
           counts[64], counts[128], counts[192], counts[255], total);
    int matches = memcmp(counts, expected, sizeof counts) == 0;
    printf("  matches the CPU: %s\n", matches ? "yes" : "no");

    check(amp_array_view_release(histogram));
    return matches;
}

int main(void)
{
    unsigned *values = malloc(sizeof(unsigned) * ELEMENT_COUNT);
    if (!values) {
        fprintf(stderr, "out of memory\n");
        return EXIT_FAILURE;
    }
    // Deterministic pseudo-random bytes (a linear congruential generator),
    // each the mean of two, so that the middle bins fill up more than the
    // outer ones and the histogram has a shape.
    unsigned state = 12345u;
    for (int i = 0; i < ELEMENT_COUNT; i++) {
        state = state * 1664525u + 1013904223u;
        unsigned a = state >> 24;
        state = state * 1664525u + 1013904223u;
        unsigned b = state >> 24;
        values[i] = (a + b) / 2;
    }

    unsigned expected[BIN_COUNT] = {0};
    for (int i = 0; i < ELEMENT_COUNT; i++) {
        expected[values[i]]++;
    }

    amp_array_view *data;
    check(amp_array_view_create_const(AMP_UINT, amp_extent_1d(ELEMENT_COUNT), values, &data));

    printf("Histogram of %d values in %d bins\n", ELEMENT_COUNT, BIN_COUNT);
    int global_ok = run_and_check("global atomics", histogram_global, data, expected);
    int tiled_ok = run_and_check("tile_static histograms, merged with atomics", histogram_tiled, data,
                                 expected);
    printf("CPU:\n  bins 0, 64, 128, 192, 255: %u %u %u %u %u\n", expected[0], expected[64],
           expected[128], expected[192], expected[255]);

    check(amp_array_view_release(data));
    free(values);
    return global_ok && tiled_ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
