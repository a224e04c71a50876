/*
 * Kernel 2: tiles in tile_static memory (TS = 16), as in the C++ AMP
 * walkthrough and in step 2 of Cedric Nugteren's OpenCL SGEMM tutorial.
 *
 * What changes: the threads of a 16 x 16 tile copy a 16 x 16 block of A and
 * one of B into tile_static memory together, meet at a barrier, and then
 * each reads 16 values of each block from there. Every element loaded from
 * device memory is now used 16 times, instead of once.
 *
 * Sizes that are not multiples of 16: the domain is rounded up to whole
 * tiles. The threads past the edge still load (zeros) and meet at the
 * barriers, since every thread of a tile must; the guards keep their loads
 * inside A and B and their results out of C.
 *
 * Why not amp_tiled_extent_pad: in a padded domain, a thread past the
 * extent has every view access sent to a spare element. Here such a thread
 * (column 50 of a 37 x 37 C, say) still has to load a real element of A
 * into the tile for its row's neighbours, and with pad it would load the
 * spare element instead: wrong sums along the right edge. Rounding by hand
 * leaves every thread's loads as written, and the guards do the rest.
 */
#include "sgemm.h"

#define TS 16

amp_status sgemm_2_tiles(const sgemm_operands *op)
{
    amp_array_view *a = op->a, *b = op->b, *c = op->c;
    int M = op->M, N = op->N, K = op->K;
    int rows = (M + TS - 1) / TS * TS, cols = (N + TS - 1) / TS * TS;
    amp_tiled_extent domain = amp_extent_tile_2d(amp_extent_2d(rows, cols), TS, TS);
    return AMP_PARALLEL_FOR_EACH_TILED(domain, t_idx, AMP_CAPTURE(a, b, c, M, N, K, AMP_CONST(TS)), {
        int row = t_idx.local[0];
        int col = t_idx.local[1];
        int globalRow = t_idx.global[0];
        int globalCol = t_idx.global[1];
        float sum = 0.0f;

        for (int t = 0; t < K; t += TS) {
            tile_static float Asub[TS][TS];
            tile_static float Bsub[TS][TS];
            // Each thread loads one element of each block; zeros past the edges.
            Asub[row][col] = globalRow < M && t + col < K ? a(globalRow, t + col) : 0.0f;
            Bsub[row][col] = t + row < K && globalCol < N ? b(t + row, globalCol) : 0.0f;
            t_idx.barrier.wait();

            for (int k = 0; k < TS; k++)
                sum += Asub[row][k] * Bsub[k][col];
            // Nobody may overwrite the blocks while others still read them.
            t_idx.barrier.wait();
        }

        if (globalRow < M && globalCol < N)
            c(globalRow, globalCol) = sum;
    });
}
