/*
 * Kernel 6: the tuned best. Three kernels in a row:
 *
 * 1. A is repacked into panels of MBW = ty*rm rows, k-major: panel p holds
 *    A(p*MBW + m, k) at ap(p, k, m). The rows a tile needs for one k are
 *    now MBW consecutive floats, and the whole panel one stream.
 * 2. B likewise into panels of NBW = tx*nv*vw columns: bp(q, k, j) =
 *    B(k, q*NBW + j).
 *    Both panels are padded with zeros to whole panels and to a multiple of
 *    bk in k, so the product below needs no bounds checks. Repacking costs
 *    one pass over A and B (O(n^2)). It removes loads that walk down the
 *    columns of B, rows a power of two apart at sizes such as 2048, where
 *    they all land in the same few cache sets: on PoCL the same product
 *    without repacking ran at 40% of its speed at 1920 when n was 2048.
 * 3. The product: each thread keeps rm x nv vectors of vw sums in
 *    registers, and for every k loads nv vectors of B and rm values of A,
 *    then does rm*nv vector multiply-adds (an outer product).
 *
 * The parameters (sgemm_params, as AMP_CONSTs) pick the shape per device:
 * - On a CPU (PoCL), a tile is one thread (ty = tx = 1) that computes, say,
 *   12 rows x 32 columns as 24 float16 sums: PoCL turns float16 into
 *   AVX-512 registers directly, and each multiply-add takes its A value as
 *   a broadcast from memory. Tiles of more threads would make PoCL
 *   vectorize across threads instead, which turns these vector loads into
 *   gathers. Panels are read straight from memory (staged = 0): the CPU's
 *   caches already keep them close.
 * - On a GPU, a tile of 16 x 16 threads copies each bk-deep step of both
 *   panels into tile_static memory with float4 loads (staged = 1), and each
 *   thread reads its A values as float4s from there (the tile_static arrays
 *   hold float4s, so that the compiler knows those loads are aligned and
 *   makes them single 16-byte loads). A thread's columns are nv vectors,
 *   tx*vw apart, so that neighbouring threads read neighbouring addresses
 *   of tile_static memory and of C.
 * sgemm_tune.c has the defaults and the tuner's candidates.
 *
 * Consecutive tiles share their B panel and go down the rows of C
 * (t_idx.tile[1] is the row panel): the B panel stays in cache while A
 * panels stream past it.
 */
#include "sgemm.h"

/* The transpose through tile_static memory that repacks A. */
#define PACK_TS 16

static int round_up(int n, int m)
{
    return (n + m - 1) / m * m;
}

void sgemm_workspace_release(sgemm_workspace *ws)
{
    if (!ws)
        return;
    amp_array_view_release(ws->ap);
    amp_array_view_release(ws->bp);
    *ws = (sgemm_workspace){0};
}

/* One panel view of the given extent, kept from the last call when the
 * extent is the same. It has no host memory: it lives on the device, and
 * nothing is ever copied to or from it. */
static amp_status panel(amp_array_view **view, amp_extent *have, amp_extent want)
{
    if (*view && amp_extent_equal(*have, want))
        return AMP_OK;
    amp_array_view_release(*view);
    *view = NULL;
    amp_status st = amp_array_view_create_extent(AMP_FLOAT, want, view);
    if (st == AMP_OK)
        *have = want;
    return st;
}

amp_status sgemm_6_tuned(const sgemm_operands *op, const sgemm_params *p, sgemm_workspace *ws)
{
    amp_array_view *a = op->a, *b = op->b, *c = op->c;
    int M = op->M, N = op->N, K = op->K;
    const int TY = p->ty, TX = p->tx, RM = p->rm, NV = p->nv, VW = p->vw, BK = p->bk;
    const int STAGED = p->staged;
    const int MBW = TY * RM, NBW = TX * NV * VW;
    int MB = (M + MBW - 1) / MBW, CB = (N + NBW - 1) / NBW;
    int Kp = round_up(K, BK);
    int Mp = MB * MBW;

    amp_status st = panel(&ws->ap, &ws->a_extent, amp_extent_3d(MB, Kp, MBW));
    if (st == AMP_OK)
        st = panel(&ws->bp, &ws->b_extent, amp_extent_3d(CB, Kp, NBW));
    if (st != AMP_OK)
        return st;
    amp_array_view *ap = ws->ap, *bp = ws->bp;

    /* 1. A into row panels: a transpose of 16 x 16 blocks through
     * tile_static memory, so that both the reads of A (along its rows) and
     * the writes of the panel (along m) go to neighbouring addresses. */
    amp_tiled_extent packA = amp_extent_tile_2d(
        amp_extent_2d(round_up(Mp, PACK_TS), round_up(Kp, PACK_TS)), PACK_TS, PACK_TS);
    st = AMP_PARALLEL_FOR_EACH_TILED(packA, t_idx,
                                     AMP_CAPTURE(a, ap, M, K, Mp, Kp, AMP_CONST(MBW),
                                                 AMP_CONST(PACK_TS)), {
        tile_static float block[PACK_TS][PACK_TS + 1]; // + 1: no bank conflicts on GPUs
        int row = t_idx.global[0], k = t_idx.global[1];
        block[t_idx.local[0]][t_idx.local[1]] = row < M && k < K ? a(row, k) : 0.0f;
        t_idx.barrier.wait();
        // Swap the roles of the two local indices: write along m.
        int m = t_idx.tile_origin[0] + t_idx.local[1];
        int kk = t_idx.tile_origin[1] + t_idx.local[0];
        if (m < Mp && kk < Kp)
            ap(m / MBW, kk, m % MBW) = block[t_idx.local[1]][t_idx.local[0]];
    });
    if (st != AMP_OK)
        return st;

    /* 2. B into column panels: rows of B are already along j. */
    st = AMP_PARALLEL_FOR_EACH(amp_extent_2d(Kp, CB * NBW), idx,
                               AMP_CAPTURE(b, bp, N, K, AMP_CONST(NBW)), {
        int k = idx[0], col = idx[1];
        bp(col / NBW, k, col % NBW) = k < K && col < N ? b(k, col) : 0.0f;
    });
    if (st != AMP_OK)
        return st;

    /* 3. The product. Tile (cb, rb): dimension 0 of the domain counts
     * column panels and dimension 1 row panels, so that the tiles that run
     * one after another (dimension 1 varies fastest) share a B panel. */
    amp_tiled_extent domain = amp_extent_tile_2d(amp_extent_2d(CB * TY, MB * TX), TY, TX);
    return AMP_PARALLEL_FOR_EACH_TILED(domain, t_idx,
                                       AMP_CAPTURE(ap, bp, c, M, N, Kp, AMP_CONST(TY), AMP_CONST(TX),
                                                   AMP_CONST(RM), AMP_CONST(NV), AMP_CONST(VW),
                                                   AMP_CONST(BK), AMP_CONST(STAGED), AMP_CONST(MBW),
                                                   AMP_CONST(NBW)), {
        AMP_IF(VW == 16)
        AMP_DEFINE(floatV float16)
        AMP_DEFINE(vloadV vload16)
        AMP_DEFINE(vstoreV vstore16)
        AMP_ELIF(VW == 8)
        AMP_DEFINE(floatV float8)
        AMP_DEFINE(vloadV vload8)
        AMP_DEFINE(vstoreV vstore8)
        AMP_ELIF(VW == 4)
        AMP_DEFINE(floatV float4)
        AMP_DEFINE(vloadV vload4)
        AMP_DEFINE(vstoreV vstore4)
        AMP_ELSE
        AMP_DEFINE(floatV float2)
        AMP_DEFINE(vloadV vload2)
        AMP_DEFINE(vstoreV vstore2)
        AMP_ENDIF
        // A thread's rows: groups of VM adjacent rows, TY*VM apart.
        AMP_IF(STAGED)
        AMP_DEFINE(VM 4)
        AMP_ELSE
        AMP_DEFINE(VM 1)
        AMP_ENDIF
        int ty = t_idx.local[0];
        int tx = t_idx.local[1];
        int cb = t_idx.tile[0];                   // column panel
        int rb = t_idx.tile[1];                   // row panel

        floatV acc[RM][NV];
        AMP_PRAGMA(unroll)
        for (int r = 0; r < RM; r++) {
            AMP_PRAGMA(unroll)
            for (int v = 0; v < NV; v++)
                acc[r][v] = (floatV)(0.0f);
        }

        AMP_IF(STAGED)
        int tid = ty * TX + tx;
        for (int t = 0; t < Kp; t += BK) {
            // float4 elements: every read below is an aligned 16-byte load.
            tile_static float4 As[BK][MBW / 4];
            tile_static float4 Bs[BK][NBW / 4];
            // Each step of a panel is BK * width consecutive floats: copy them as float4s.
            for (int i = tid; i < BK * MBW / 4; i += TY * TX)
                ((__local float4 *)As)[i] = vload4(i, &ap(rb, t, 0));
            for (int i = tid; i < BK * NBW / 4; i += TY * TX)
                ((__local float4 *)Bs)[i] = vload4(i, &bp(cb, t, 0));
            t_idx.barrier.wait();
            AMP_PRAGMA(unroll)
            for (int k = 0; k < BK; k++) {
                floatV bv[NV];
                AMP_PRAGMA(unroll)
                for (int v = 0; v < NV; v++)
                    bv[v] = vloadV(v * TX + tx, (__local float *)Bs[k]);
                AMP_PRAGMA(unroll)
                for (int w = 0; w < RM / 4; w++) {
                    float4 a4 = As[k][w * TY + ty];
                    AMP_PRAGMA(unroll)
                    for (int v = 0; v < NV; v++) {
                        acc[4 * w + 0][v] = fma((floatV)(a4.x), bv[v], acc[4 * w + 0][v]);
                        acc[4 * w + 1][v] = fma((floatV)(a4.y), bv[v], acc[4 * w + 1][v]);
                        acc[4 * w + 2][v] = fma((floatV)(a4.z), bv[v], acc[4 * w + 2][v]);
                        acc[4 * w + 3][v] = fma((floatV)(a4.w), bv[v], acc[4 * w + 3][v]);
                    }
                }
            }
            t_idx.barrier.wait();
        }
        AMP_ELSE
        for (int k = 0; k < Kp; k++) {
            floatV bv[NV];
            AMP_PRAGMA(unroll)
            for (int v = 0; v < NV; v++)
                bv[v] = vloadV(v * TX + tx, &bp(cb, k, 0));
            AMP_PRAGMA(unroll)
            for (int r = 0; r < RM; r++) {
                floatV av = (floatV)(ap(rb, k, r * TY + ty));
                AMP_PRAGMA(unroll)
                for (int v = 0; v < NV; v++)
                    acc[r][v] = fma(av, bv[v], acc[r][v]);
            }
        }
        AMP_ENDIF

        // Store what lies inside C: whole vectors, or lane by lane at the right edge.
        AMP_PRAGMA(unroll)
        for (int r = 0; r < RM; r++) {
            int row = rb * MBW + ((r / VM) * TY + ty) * VM + r % VM;
            if (row < M) {
                AMP_PRAGMA(unroll)
                for (int v = 0; v < NV; v++) {
                    int col = cb * NBW + (v * TX + tx) * VW;
                    if (col + VW <= N) {
                        vstoreV(acc[r][v], 0, &c(row, col));
                    } else if (col < N) {
                        float lanes[VW];
                        vstoreV(acc[r][v], 0, lanes);
                        for (int j = 0; col + j < N; j++)
                            c(row, col + j) = lanes[j];
                    }
                }
            }
        }
    });
}
