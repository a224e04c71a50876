/*
 * Kernel 5: 2D register blocking (step 6 of Nugteren's tutorial). A tile of
 * 16 x 16 threads computes a 64 x 64 block of C, TSK = 16 deep at a time.
 *
 * What changes: each thread computes a WPTM x WPTN = 4 x 4 block of C. For
 * every k it loads 4 values of A and 4 of B from tile_static memory into
 * registers and does 16 multiply-adds with them: 2 loads per multiply-add
 * in kernel 3, 0.5 here. The threads load the blocks cooperatively, each
 * TSM * TSK / 256 = 4 elements of A and 4 of B, with neighbouring threads
 * on neighbouring addresses; A's block is stored transposed (k first), so
 * that the compute loop reads both blocks along rows of tile_static memory.
 *
 * A thread's rows and columns are RTSM = 16 apart rather than adjacent, so
 * that neighbouring threads read neighbouring elements of B and write
 * neighbouring elements of C. The domain is rounded up to whole tiles by
 * hand, as in kernel 4: every load is guarded already, and a padded domain
 * would check each one against the view's extent a second time.
 */
#include "sgemm.h"

#define TSM 64
#define TSN 64
#define TSK 16
#define WPTM 4
#define WPTN 4

amp_status sgemm_5_register_blocking(const sgemm_operands *op)
{
    amp_array_view *a = op->a, *b = op->b, *c = op->c;
    int M = op->M, N = op->N, K = op->K;
    int rows = (M + TSM - 1) / TSM * (TSM / WPTM);
    int cols = (N + TSN - 1) / TSN * (TSN / WPTN);
    amp_tiled_extent domain =
        amp_extent_tile_2d(amp_extent_2d(rows, cols), TSM / WPTM, TSN / WPTN);
    return AMP_PARALLEL_FOR_EACH(domain, t_idx,
                                 AMP_CAPTURE(a, b, c, M, N, K, AMP_CONST(TSM), AMP_CONST(TSN),
                                             AMP_CONST(TSK), AMP_CONST(WPTM), AMP_CONST(WPTN)), {
        AMP_DEFINE(RTSM (TSM / WPTM))             // threads per tile, down
        AMP_DEFINE(RTSN (TSN / WPTN))             // threads per tile, across
        AMP_DEFINE(THREADS (RTSM * RTSN))
        int tr = t_idx.local[0];
        int tc = t_idx.local[1];
        int tid = tr * RTSN + tc;
        int rowBase = t_idx.tile[0] * TSM;
        int colBase = t_idx.tile[1] * TSN;
        float acc[WPTM][WPTN];
        AMP_PRAGMA(unroll)
        for (int wm = 0; wm < WPTM; wm++) {
            AMP_PRAGMA(unroll)
            for (int wn = 0; wn < WPTN; wn++)
                acc[wm][wn] = 0.0f;
        }

        for (int t = 0; t < K; t += TSK) {
            tile_static float Asub[TSK][TSM];     // transposed: Asub[k][m]
            tile_static float Bsub[TSK][TSN];
            AMP_PRAGMA(unroll)
            for (int l = 0; l < TSM * TSK / THREADS; l++) {
                int id = tid + l * THREADS;
                int k = id % TSK;                 // neighbouring threads: along a row of A
                int m = id / TSK;
                Asub[k][m] = rowBase + m < M && t + k < K ? a(rowBase + m, t + k) : 0.0f;
            }
            AMP_PRAGMA(unroll)
            for (int l = 0; l < TSK * TSN / THREADS; l++) {
                int id = tid + l * THREADS;
                int n = id % TSN;                 // neighbouring threads: along a row of B
                int k = id / TSN;
                Bsub[k][n] = t + k < K && colBase + n < N ? b(t + k, colBase + n) : 0.0f;
            }
            t_idx.barrier.wait();

            AMP_PRAGMA(unroll)
            for (int k = 0; k < TSK; k++) {
                float breg[WPTN];
                AMP_PRAGMA(unroll)
                for (int wn = 0; wn < WPTN; wn++)
                    breg[wn] = Bsub[k][tc + wn * RTSN];
                AMP_PRAGMA(unroll)
                for (int wm = 0; wm < WPTM; wm++) {
                    float areg = Asub[k][tr + wm * RTSM];
                    AMP_PRAGMA(unroll)
                    for (int wn = 0; wn < WPTN; wn++)
                        acc[wm][wn] += areg * breg[wn];
                }
            }
            t_idx.barrier.wait();
        }

        AMP_PRAGMA(unroll)
        for (int wm = 0; wm < WPTM; wm++) {
            int row = rowBase + tr + wm * RTSM;
            AMP_PRAGMA(unroll)
            for (int wn = 0; wn < WPTN; wn++) {
                int col = colBase + tc + wn * RTSN;
                if (row < M && col < N)
                    c(row, col) = acc[wm][wn];
            }
        }
    });
}
