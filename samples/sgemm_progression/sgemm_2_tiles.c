/*
 * Kernel 2: tiles in tile_static memory (TS = 16), as in the C++ AMP
 * walkthrough and in step 2 of Cedric Nugteren's OpenCL SGEMM tutorial.
 *
 * What changes: the threads of a 16 x 16 tile copy a 16 x 16 block of A and
 * one of B into tile_static memory together, meet at a barrier, and then
 * each reads 16 values of each block from there. Every element loaded from
 * device memory is now used 16 times, instead of once.
 *
 * Sizes that are not multiples of 16: amp_tiled_extent_pad rounds the
 * domain up to whole tiles, as C++ AMP's pad() did. The threads past the
 * edge still run: they load their share of each tile (zeros where the tile
 * hangs over the edge of A or B) and meet at every barrier, as every thread
 * of a tile must; the guard keeps their sums out of C.
 */
#include "sgemm.h"

#define TS 16

amp_status sgemm_2_tiles(const sgemm_operands *op)
{
    amp_array_view *a = op->a, *b = op->b, *c = op->c;
    int M = op->M, N = op->N, K = op->K;
    amp_tiled_extent domain = amp_tiled_extent_pad(amp_extent_tile_2d(amp_extent_2d(M, N), TS, TS));
    return AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(a, b, c, M, N, K, AMP_CONST(TS)), {
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
