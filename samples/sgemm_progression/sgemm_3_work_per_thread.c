/*
 * Kernel 3: more work per thread (step 3 of Nugteren's tutorial), with
 * tiles of TS = 32.
 *
 * What changes: each thread computes WPT = 8 elements of C, in one column,
 * rows RTS = TS / WPT apart, so a 32 x 32 block of C takes 4 x 32 threads
 * instead of 32 x 32. Each value read from the B block in tile_static
 * memory now feeds 8 sums held in registers, and each thread loads 8
 * elements of each block. Fewer threads doing more each: less time in
 * tile_static loads and in index arithmetic per multiply-add.
 *
 * Neighbouring threads still take neighbouring columns, so their loads from
 * B and stores to C touch consecutive addresses.
 */
#include "sgemm.h"

#define TS 32
#define WPT 8
#define RTS (TS / WPT)

amp_status sgemm_3_work_per_thread(const sgemm_operands *op)
{
    amp_array_view *a = op->a, *b = op->b, *c = op->c;
    int M = op->M, N = op->N, K = op->K;
    // One row of threads per WPT rows of C; padded to whole tiles as in kernel 2.
    int threadRows = (M + TS - 1) / TS * RTS;
    amp_tiled_extent domain =
        amp_tiled_extent_pad(amp_extent_tile_2d(amp_extent_2d(threadRows, N), RTS, TS));
    return AMP_PARALLEL_FOR_EACH(domain, t_idx,
                                 AMP_CAPTURE(a, b, c, M, N, K, AMP_CONST(TS), AMP_CONST(WPT),
                                             AMP_CONST(RTS)), {
        int row = t_idx.local[0];             // 0 .. RTS-1
        int col = t_idx.local[1];             // 0 .. TS-1
        int rowBase = t_idx.tile[0] * TS;     // the first row of this block of C
        int globalCol = t_idx.global[1];
        float acc[WPT];
        for (int w = 0; w < WPT; w++)
            acc[w] = 0.0f;

        for (int t = 0; t < K; t += TS) {
            tile_static float Asub[TS][TS];
            tile_static float Bsub[TS][TS];
            AMP_PRAGMA(unroll)
            for (int w = 0; w < WPT; w++) {
                int r = row + w * RTS;
                Asub[r][col] = rowBase + r < M && t + col < K ? a(rowBase + r, t + col) : 0.0f;
                Bsub[r][col] = t + r < K && globalCol < N ? b(t + r, globalCol) : 0.0f;
            }
            t_idx.barrier.wait();

            for (int k = 0; k < TS; k++) {
                float bk = Bsub[k][col];
                AMP_PRAGMA(unroll)
                for (int w = 0; w < WPT; w++)
                    acc[w] += Asub[row + w * RTS][k] * bk;
            }
            t_idx.barrier.wait();
        }

        for (int w = 0; w < WPT; w++) {
            int globalRow = rowBase + row + w * RTS;
            if (globalRow < M && globalCol < N)
                c(globalRow, globalCol) = acc[w];
        }
    });
}
