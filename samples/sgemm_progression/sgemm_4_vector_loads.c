/*
 * Kernel 4: wider loads with vector types (step 4 of Nugteren's tutorial),
 * tiles of TS = 32, WIDTH = 4.
 *
 * What changes: each thread computes 4 neighbouring elements of a row of C
 * as one float4, and moves A and B in float4s: one 16-byte load instead of
 * four 4-byte ones, from device memory into tile_static memory and from
 * there into registers. Each float4 of the A block feeds 16 multiply-adds.
 *
 * The views are read through the address of an element, vload4(0, &a(i, j)),
 * which needs only the alignment of a float, so any N and K work. The loads
 * near the right and bottom edges, where a float4 would run past the end of
 * a row, go element by element and put zeros past the edge.
 *
 * The domain is rounded up to whole tiles by hand rather than with
 * amp_tiled_extent_pad. A padded domain checks every view access against
 * the view's extent, and sends one outside it to a spare element; a vload4
 * from there would read past that element. The guards below keep every
 * access in range already, so the checks would only cost time.
 */
#include "sgemm.h"

#define TS 32
#define WIDTH 4

amp_status sgemm_4_vector_loads(const sgemm_operands *op)
{
    amp_array_view *a = op->a, *b = op->b, *c = op->c;
    int M = op->M, N = op->N, K = op->K;
    int rows = (M + TS - 1) / TS * TS;
    int cols = (N + TS - 1) / TS * (TS / WIDTH); // one thread per float4 of C
    amp_tiled_extent domain = amp_extent_tile_2d(amp_extent_2d(rows, cols), TS, TS / WIDTH);
    return AMP_PARALLEL_FOR_EACH(domain, t_idx,
                                 AMP_CAPTURE(a, b, c, M, N, K, AMP_CONST(TS), AMP_CONST(WIDTH)), {
        int row = t_idx.local[0];                 // 0 .. TS-1
        int vcol = t_idx.local[1];                // 0 .. TS/WIDTH-1: which float4 of the row
        int globalRow = t_idx.global[0];
        int globalCol = t_idx.global[1] * WIDTH;  // the first of this thread's 4 columns
        float4 acc = (float4)(0.0f);

        for (int t = 0; t < K; t += TS) {
            tile_static float4 Asub[TS][TS / WIDTH];
            tile_static float4 Bsub[TS][TS / WIDTH];
            int ak = t + vcol * WIDTH;            // the A float4 this thread loads
            if (globalRow < M && ak + WIDTH <= K) {
                Asub[row][vcol] = vload4(0, &a(globalRow, ak));
            } else {
                float4 v = (float4)(0.0f);
                if (globalRow < M) {
                    v.x = ak < K ? a(globalRow, ak) : 0.0f;
                    v.y = ak + 1 < K ? a(globalRow, ak + 1) : 0.0f;
                    v.z = ak + 2 < K ? a(globalRow, ak + 2) : 0.0f;
                    v.w = ak + 3 < K ? a(globalRow, ak + 3) : 0.0f;
                }
                Asub[row][vcol] = v;
            }
            int bk = t + row;                     // the B float4 this thread loads
            if (bk < K && globalCol + WIDTH <= N) {
                Bsub[row][vcol] = vload4(0, &b(bk, globalCol));
            } else {
                float4 v = (float4)(0.0f);
                if (bk < K) {
                    v.x = globalCol < N ? b(bk, globalCol) : 0.0f;
                    v.y = globalCol + 1 < N ? b(bk, globalCol + 1) : 0.0f;
                    v.z = globalCol + 2 < N ? b(bk, globalCol + 2) : 0.0f;
                    v.w = globalCol + 3 < N ? b(bk, globalCol + 3) : 0.0f;
                }
                Bsub[row][vcol] = v;
            }
            t_idx.barrier.wait();

            AMP_PRAGMA(unroll)
            for (int kv = 0; kv < TS / WIDTH; kv++) {
                float4 a4 = Asub[row][kv];        // A(row, 4kv .. 4kv+3) of the block
                acc += a4.x * Bsub[WIDTH * kv + 0][vcol];
                acc += a4.y * Bsub[WIDTH * kv + 1][vcol];
                acc += a4.z * Bsub[WIDTH * kv + 2][vcol];
                acc += a4.w * Bsub[WIDTH * kv + 3][vcol];
            }
            t_idx.barrier.wait();
        }

        if (globalRow < M) {
            if (globalCol + WIDTH <= N) {
                vstore4(acc, 0, &c(globalRow, globalCol));
            } else {
                if (globalCol < N) c(globalRow, globalCol) = acc.x;
                if (globalCol + 1 < N) c(globalRow, globalCol + 1) = acc.y;
                if (globalCol + 2 < N) c(globalRow, globalCol + 2) = acc.z;
            }
        }
    });
}
