/*
 * A 2D convolution with a tile_static halo, in C: a 5x5 blur of a 640x480
 * image of ints, computed on the accelerator two ways and checked against
 * a plain loop on the CPU.
 *
 *   convolution_simple  one thread per output pixel, reading its 25
 *                       neighbours from global memory. Every input pixel is
 *                       read 25 times, by 25 different threads.
 *   convolution_tiled   tiles of 16x16 threads. A tile first copies the
 *                       input it needs into tile_static memory: its own
 *                       16x16 pixels plus a 2-pixel border, the halo, that
 *                       its edge pixels reach into (20x20 in all). After a
 *                       barrier, every thread computes from that copy.
 *
 * The filter is the 5x5 binomial blur (1 4 6 4 1 times itself, sum 256);
 * pixels past the image's edge take the value of the nearest edge pixel.
 * Integer pixels and weights keep every result exact.
 */
#include <stdio.h>
#include <stdlib.h>

#include <amp/amp.h>

#include "../common/sample_check.h"

#define ROWS 480
#define COLS 640

// The filter reaches RADIUS pixels each way: 5x5.
enum { RADIUS = 2, FILTER_SIZE = 2 * RADIUS + 1 };
static const int TILE_SIZE = 16;

void convolution_simple(amp_array_view *image, amp_array_view *filter, amp_array_view *result)
{
    check(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(result), idx,
                                AMP_CAPTURE(image, filter, result, AMP_CONST(RADIUS)), {
        int sum = 0;
        for (int dr = -RADIUS; dr <= RADIUS; dr++) {
            for (int dc = -RADIUS; dc <= RADIUS; dc++) {
                // Past the edge: the nearest edge pixel. image_extent is
                // C++ AMP's image.extent.
                int r = clamp(idx[0] + dr, 0, image_extent[0] - 1);
                int c = clamp(idx[1] + dc, 0, image_extent[1] - 1);
                sum += filter(dr + RADIUS, dc + RADIUS) * image(r, c);
            }
        }
        result(idx) = sum / 256;
    }));
}

void convolution_tiled(amp_array_view *image, amp_array_view *filter, amp_array_view *result)
{
    amp_tiled_extent domain = amp_extent_tile_2d(amp_array_view_get_extent(result), TILE_SIZE, TILE_SIZE);
    check(AMP_PARALLEL_FOR_EACH(domain, t_idx,
                                AMP_CAPTURE(image, filter, result, AMP_CONST(RADIUS),
                                            AMP_CONST(FILTER_SIZE), AMP_CONST(TILE_SIZE)), {
        // The tile's pixels and the halo around them.
        tile_static int region[TILE_SIZE + 2 * RADIUS][TILE_SIZE + 2 * RADIUS];

        // The region has more pixels than the tile has threads (20x20 for
        // 16x16), so each thread copies the region's pixels at its own
        // position and at that position plus multiples of TILE_SIZE: up to
        // four for the threads near the tile's top left corner, one for most.
        for (int rr = t_idx.local[0]; rr < TILE_SIZE + 2 * RADIUS; rr += TILE_SIZE) {
            for (int rc = t_idx.local[1]; rc < TILE_SIZE + 2 * RADIUS; rc += TILE_SIZE) {
                int r = clamp(t_idx.tile_origin[0] - RADIUS + rr, 0, image_extent[0] - 1);
                int c = clamp(t_idx.tile_origin[1] - RADIUS + rc, 0, image_extent[1] - 1);
                region[rr][rc] = image(r, c);
            }
        }
        // The halo pixels a thread needs were copied by other threads.
        t_idx.barrier.wait();

        // Output pixel (local[0], local[1]) is centred on region pixel
        // (local[0] + RADIUS, local[1] + RADIUS).
        int sum = 0;
        for (int fr = 0; fr < FILTER_SIZE; fr++) {
            for (int fc = 0; fc < FILTER_SIZE; fc++) {
                sum += filter(fr, fc) * region[t_idx.local[0] + fr][t_idx.local[1] + fc];
            }
        }
        result(t_idx.global) = sum / 256;
    }));
}

// The CPU's convolution, with the same edge rule.
static void convolution_cpu(const int *image, const int *filter, int *result)
{
    for (int row = 0; row < ROWS; row++) {
        for (int col = 0; col < COLS; col++) {
            int sum = 0;
            for (int dr = -RADIUS; dr <= RADIUS; dr++) {
                for (int dc = -RADIUS; dc <= RADIUS; dc++) {
                    int r = row + dr < 0 ? 0 : row + dr >= ROWS ? ROWS - 1 : row + dr;
                    int c = col + dc < 0 ? 0 : col + dc >= COLS ? COLS - 1 : col + dc;
                    sum += filter[(dr + RADIUS) * FILTER_SIZE + dc + RADIUS] * image[r * COLS + c];
                }
            }
            result[row * COLS + col] = sum / 256;
        }
    }
}

// Run one version into a zeroed result, print four pixels and compare.
static int run_and_check(const char *name,
                         void (*convolve)(amp_array_view *, amp_array_view *, amp_array_view *),
                         amp_array_view *image, amp_array_view *filter, const int *expected)
{
    int *pixels = calloc(ROWS * COLS, sizeof(int));
    if (!pixels) {
        fprintf(stderr, "out of memory\n");
        exit(EXIT_FAILURE);
    }
    amp_array_view *result;
    check(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, COLS), pixels, &result));

    convolve(image, filter, result);

    check(amp_array_view_synchronize(result));
    printf("%s:\n  (0, 0) = %d, (15, 16) = %d, (240, 320) = %d, (%d, %d) = %d\n", name, pixels[0],
           pixels[15 * COLS + 16], pixels[240 * COLS + 320], ROWS - 1, COLS - 1,
           pixels[(ROWS - 1) * COLS + COLS - 1]);
    int mismatches = 0;
    for (int i = 0; i < ROWS * COLS; i++) {
        mismatches += pixels[i] != expected[i];
    }
    printf("  matches the CPU: %s\n", mismatches == 0 ? "yes" : "no");

    check(amp_array_view_release(result));
    free(pixels);
    return mismatches == 0;
}

int main(void)
{
    int *pixels = malloc(sizeof(int) * ROWS * COLS);
    int *expected = malloc(sizeof(int) * ROWS * COLS);
    if (!pixels || !expected) {
        fprintf(stderr, "out of memory\n");
        return EXIT_FAILURE;
    }
    // A deterministic image: diagonal stripes plus a checkerboard of 8x8
    // squares, values 0 .. 254, with sharp edges for the blur to soften.
    for (int row = 0; row < ROWS; row++) {
        for (int col = 0; col < COLS; col++) {
            int stripes = (row + 2 * col) % 128;
            int squares = ((row / 8 + col / 8) % 2) * 127;
            pixels[row * COLS + col] = stripes + squares;
        }
    }
    // The binomial filter: the outer product of 1 4 6 4 1 with itself.
    static const int binomial[FILTER_SIZE] = {1, 4, 6, 4, 1};
    int weights[FILTER_SIZE * FILTER_SIZE];
    for (int i = 0; i < FILTER_SIZE; i++) {
        for (int j = 0; j < FILTER_SIZE; j++) {
            weights[i * FILTER_SIZE + j] = binomial[i] * binomial[j];
        }
    }
    convolution_cpu(pixels, weights, expected);

    amp_array_view *image, *filter;
    check(amp_array_view_create_const(AMP_INT, amp_extent_2d(ROWS, COLS), pixels, &image));
    check(amp_array_view_create_const(AMP_INT, amp_extent_2d(FILTER_SIZE, FILTER_SIZE), weights,
                                      &filter));

    printf("%dx%d blur of a %d x %d image\n", FILTER_SIZE, FILTER_SIZE, COLS, ROWS);
    int simple_ok = run_and_check("simple", convolution_simple, image, filter, expected);
    int tiled_ok = run_and_check("tiled, with a tile_static halo", convolution_tiled, image, filter,
                                 expected);

    check(amp_array_view_release(image));
    check(amp_array_view_release(filter));
    free(pixels);
    free(expected);
    return simple_ok && tiled_ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
