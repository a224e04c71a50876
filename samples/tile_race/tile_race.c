/*
 * The race that the C++ AMP tiling document warns about ("Do not do
 * this"): every thread of a tile adds its element to one tile_static
 * total. The additions of different threads are not ordered, so on a GPU
 * some are lost, and the averages come out wrong, differently from run to
 * run. On a CPU device the threads of a tile often take turns and the
 * answer is right: the race is there all the same, and AMP_CHECK=1 finds
 * it.
 *
 *   tile_race           the fix the checker's message suggests: the same
 *                       shared total, added to with an atomic; prints the
 *                       averages, which match the CPU's on every device
 *   tile_race --race    the racy kernel; prints its averages and how many
 *                       differ from the CPU's. Under AMP_CHECK=1 the call
 *                       fails with the report at the racy line instead.
 *   tile_race --wrong-fence
 *                       the document's own kernel (each thread writes its
 *                       element of a tile_static array, one thread adds
 *                       them up), with a barrier that fences only global
 *                       memory: the tile_static writes are not ordered
 *                       before the reads, another race, which AMP_CHECK=1
 *                       reports too.
 *
 * The matrix holds the integers 0..63 (as ints, since C++ AMP's atomics
 * take int and unsigned), so the sums are exact in any order.
 */
#include <stdio.h>
#include <string.h>

#include <amp/amp.h>

#include "../common/sample_check.h"

#define MATRIXSIZE 8

/* The average of each SAMPLESIZE x SAMPLESIZE tile of a matrix on the
 * CPU. */
static void cpu_averages(const int *matrix, int SAMPLESIZE, float *averages)
{
    int tiles = MATRIXSIZE / SAMPLESIZE;
    for (int tr = 0; tr < tiles; tr++) {
        for (int tc = 0; tc < tiles; tc++) {
            int total = 0;
            for (int r = 0; r < SAMPLESIZE; r++)
                for (int c = 0; c < SAMPLESIZE; c++)
                    total += matrix[(tr * SAMPLESIZE + r) * MATRIXSIZE + tc * SAMPLESIZE + c];
            averages[tr * tiles + tc] = (float)total / (float)(SAMPLESIZE * SAMPLESIZE);
        }
    }
}

enum mode { ATOMIC, RACE, WRONG_FENCE };

/* Run one of the kernels over the matrix and store the averages in
 * outputData. */
static void tile_averages(enum mode mode, const int SAMPLESIZE, const int *rawData,
                          float *outputData)
{
    amp_extent dataExtent = amp_extent_2d(MATRIXSIZE, MATRIXSIZE);
    amp_array_view *matrix, *averages;
    check(amp_array_view_create_const(AMP_INT, dataExtent, rawData, &matrix));
    int outputSize = MATRIXSIZE / SAMPLESIZE;
    check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(outputSize, outputSize), outputData,
                                &averages));
    amp_tiled_extent tiles = amp_extent_tile_2d(dataExtent, SAMPLESIZE, SAMPLESIZE);

    if (mode == RACE) {
        // Do not do this: every thread adds to the same tile_static total.
        check(AMP_PARALLEL_FOR_EACH(tiles, t_idx,
                                    AMP_CAPTURE(matrix, averages, AMP_CONST(SAMPLESIZE)), {
            // tile_static variables cannot have an initializer: one thread sets it.
            tile_static int total;
            if (t_idx.local[0] == 0 && t_idx.local[1] == 0)
                total = 0;
            t_idx.barrier.wait();

            total += matrix[t_idx];
            t_idx.barrier.wait();

            if (t_idx.local[0] == 0 && t_idx.local[1] == 0)
                averages(t_idx.tile) = (float)total / (SAMPLESIZE * SAMPLESIZE);
        }));
    } else if (mode == WRONG_FENCE) {
        // The tile's values are shared in tile_static memory, but the
        // barrier fences only global memory.
        check(AMP_PARALLEL_FOR_EACH(tiles, t_idx,
                                    AMP_CAPTURE(matrix, averages, AMP_CONST(SAMPLESIZE)), {
            tile_static int tileValues[SAMPLESIZE][SAMPLESIZE];
            tileValues[t_idx.local[0]][t_idx.local[1]] = matrix[t_idx];
            t_idx.barrier.wait_with_global_memory_fence();

            if (t_idx.local[0] == 0 && t_idx.local[1] == 0) {
                int total = 0;
                for (int trow = 0; trow < SAMPLESIZE; trow++)
                    for (int tcol = 0; tcol < SAMPLESIZE; tcol++)
                        total += tileValues[trow][tcol];
                averages(t_idx.tile) = (float)total / (SAMPLESIZE * SAMPLESIZE);
            }
        }));
    } else {
        // The same total, added to with an atomic: no addition is lost.
        check(AMP_PARALLEL_FOR_EACH(tiles, t_idx,
                                    AMP_CAPTURE(matrix, averages, AMP_CONST(SAMPLESIZE)), {
            tile_static int total;
            if (t_idx.local[0] == 0 && t_idx.local[1] == 0)
                total = 0;
            t_idx.barrier.wait();

            atomic_fetch_add(&total, matrix[t_idx]);
            t_idx.barrier.wait();

            if (t_idx.local[0] == 0 && t_idx.local[1] == 0)
                averages(t_idx.tile) = (float)total / (SAMPLESIZE * SAMPLESIZE);
        }));
    }

    check(amp_array_view_release(matrix));
    check(amp_array_view_release(averages)); /* copies the averages back */
}

static void run(enum mode mode, int SAMPLESIZE)
{
    int rawData[MATRIXSIZE * MATRIXSIZE];
    for (int i = 0; i < MATRIXSIZE * MATRIXSIZE; i++)
        rawData[i] = i;
    float outputData[MATRIXSIZE * MATRIXSIZE] = {0};
    float expected[MATRIXSIZE * MATRIXSIZE];
    tile_averages(mode, SAMPLESIZE, rawData, outputData);
    cpu_averages(rawData, SAMPLESIZE, expected);

    int outputSize = MATRIXSIZE / SAMPLESIZE, wrong = 0;
    static const char *const what[] = {"atomic_fetch_add to one total",
                                       "every thread adds to one total",
                                       "a barrier with a global memory fence"};
    printf("SAMPLESIZE %d, %s:\n", SAMPLESIZE, what[mode]);
    for (int row = 0; row < outputSize; row++) {
        for (int col = 0; col < outputSize; col++) {
            printf("%g ", outputData[row * outputSize + col]);
            wrong += outputData[row * outputSize + col] != expected[row * outputSize + col];
        }
        printf("\n");
    }
    printf("%d of %d averages differ from the CPU's\n", wrong, outputSize * outputSize);
}

int main(int argc, char **argv)
{
    enum mode mode = ATOMIC;
    if (argc == 2 && strcmp(argv[1], "--race") == 0)
        mode = RACE;
    else if (argc == 2 && strcmp(argv[1], "--wrong-fence") == 0)
        mode = WRONG_FENCE;
    else if (argc != 1) {
        fprintf(stderr, "usage: %s [--race | --wrong-fence]\n", argv[0]);
        return 2;
    }
    run(mode, 2);
    run(mode, 4);
    return 0;
}
