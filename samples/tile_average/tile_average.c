/*
 * The C++ AMP tiling example, in C: the average of each SAMPLESIZE x
 * SAMPLESIZE tile of an 8x8 matrix, computed with a tile_static array and a
 * barrier.
 *
 * The document's SAMPLESIZE is a #define that one edits from 2 to 4; here
 * the same function runs with both, and a third run uses
 * wait_with_tile_static_memory_fence() instead of wait(). AMP_CONST hands
 * SAMPLESIZE to the kernel as a compile-time constant, as the template
 * argument of tiled_index<SAMPLESIZE, SAMPLESIZE> was in C++.
 */
#include <stdio.h>

#include <amp/amp.h>

#include "../common/sample_check.h"

#define MATRIXSIZE 8

void SamplingExample(const int SAMPLESIZE)
{
    // Create data and array_view for the matrix.
    float rawData[MATRIXSIZE * MATRIXSIZE];
    for (int i = 0; i < MATRIXSIZE * MATRIXSIZE; i++) {
        rawData[i] = (float)i;
    }
    amp_extent dataExtent = amp_extent_2d(MATRIXSIZE, MATRIXSIZE);
    amp_array_view *matrix;
    check(amp_array_view_create(AMP_FLOAT, dataExtent, rawData, &matrix));

    // Create the view for the averages.
    // There is one element in the output for each tile in the data.
    float outputData[MATRIXSIZE * MATRIXSIZE] = {0};
    int outputSize = MATRIXSIZE / SAMPLESIZE;
    amp_extent outputExtent = amp_extent_2d(MATRIXSIZE / SAMPLESIZE, MATRIXSIZE / SAMPLESIZE);
    amp_array_view *averages;
    check(amp_array_view_create(AMP_FLOAT, outputExtent, outputData, &averages));

    // Use tiles that are SAMPLESIZE x SAMPLESIZE.
    // Find the average of the values in each tile.
    check(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(dataExtent, SAMPLESIZE, SAMPLESIZE), t_idx,
                                AMP_CAPTURE(matrix, averages, AMP_CONST(SAMPLESIZE)), {
        // Copy the values of the tile into a tile-sized array.
        tile_static float tileValues[SAMPLESIZE][SAMPLESIZE];
        tileValues[t_idx.local[0]][t_idx.local[1]] = matrix[t_idx];

        // Wait for the tile-sized array to load before you calculate the average.
        t_idx.barrier.wait();

        // If you remove the if statement, then the calculation executes for every
        // thread in the tile, and makes the same assignment to averages each time.
        if (t_idx.local[0] == 0 && t_idx.local[1] == 0) {
            for (int trow = 0; trow < SAMPLESIZE; trow++) {
                for (int tcol = 0; tcol < SAMPLESIZE; tcol++) {
                    averages(t_idx.tile[0], t_idx.tile[1]) += tileValues[trow][tcol];
                }
            }
            averages(t_idx.tile[0], t_idx.tile[1]) /= (float)(SAMPLESIZE * SAMPLESIZE);
        }
    }));

    // Print out the results. Synchronizing copies the averages back to
    // outputData.
    check(amp_array_view_synchronize(averages));
    for (int row = 0; row < outputSize; row++) {
        for (int col = 0; col < outputSize; col++) {
            printf("%g ", outputData[row * outputSize + col]);
        }
        printf("\n");
    }

    check(amp_array_view_release(matrix));
    check(amp_array_view_release(averages));
}

// The same computation, with a barrier that fences only tile_static memory:
// the only memory the threads share before the barrier is tileValues.
void SamplingExampleWithTileStaticFence(const int SAMPLESIZE)
{
    float rawData[MATRIXSIZE * MATRIXSIZE];
    for (int i = 0; i < MATRIXSIZE * MATRIXSIZE; i++) {
        rawData[i] = (float)i;
    }
    amp_extent dataExtent = amp_extent_2d(MATRIXSIZE, MATRIXSIZE);
    amp_array_view *matrix;
    check(amp_array_view_create(AMP_FLOAT, dataExtent, rawData, &matrix));

    float outputData[MATRIXSIZE * MATRIXSIZE] = {0};
    int outputSize = MATRIXSIZE / SAMPLESIZE;
    amp_array_view *averages;
    check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(outputSize, outputSize), outputData,
                                &averages));

    // Using a tile_static memory fence.
    check(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(dataExtent, SAMPLESIZE, SAMPLESIZE), t_idx,
                                AMP_CAPTURE(matrix, averages, AMP_CONST(SAMPLESIZE)), {
        // Copy the values of the tile into a tile-sized array.
        tile_static float tileValues[SAMPLESIZE][SAMPLESIZE];
        tileValues[t_idx.local[0]][t_idx.local[1]] = matrix[t_idx];

        // Wait for the tile-sized array to load before calculating the average.
        t_idx.barrier.wait_with_tile_static_memory_fence();

        // If you remove the if statement, then the calculation executes
        // for every thread in the tile, and makes the same assignment to
        // averages each time.
        if (t_idx.local[0] == 0 && t_idx.local[1] == 0) {
            for (int trow = 0; trow < SAMPLESIZE; trow++) {
                for (int tcol = 0; tcol < SAMPLESIZE; tcol++) {
                    averages(t_idx.tile[0], t_idx.tile[1]) += tileValues[trow][tcol];
                }
            }
            averages(t_idx.tile[0], t_idx.tile[1]) /= (float)(SAMPLESIZE * SAMPLESIZE);
        }
    }));

    check(amp_array_view_synchronize(averages));
    for (int row = 0; row < outputSize; row++) {
        for (int col = 0; col < outputSize; col++) {
            printf("%g ", outputData[row * outputSize + col]);
        }
        printf("\n");
    }

    check(amp_array_view_release(matrix));
    check(amp_array_view_release(averages));
}

int main(void)
{
    printf("SAMPLESIZE 2:\n");
    SamplingExample(2);
    printf("SAMPLESIZE 4:\n");
    SamplingExample(4);
    printf("SAMPLESIZE 2, tile_static memory fence:\n");
    SamplingExampleWithTileStaticFence(2);
    return 0;
}
