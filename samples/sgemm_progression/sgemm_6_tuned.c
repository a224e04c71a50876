/*
 * Kernel 6: the tuned best. Four steps, in two or three kernels (steps 1
 * and 2 are one launch, which on a CPU does step 2 only; step 4 runs only
 * when K is split):
 *
 * 1. On a GPU, A is repacked into panels of MBW = ty*rm rows, k-major:
 *    panel p holds A(p*MBW + m, k) at ap(p, k, m). The rows a tile needs
 *    for one k are now MBW consecutive floats, and the whole panel one
 *    stream. On a CPU the product reads A where it lies: a thread's rm
 *    rows are rm streams that the caches' prefetchers follow, and the
 *    copy of A took about a third of a 4096 x 256 x 1024 product on two
 *    cores (141 against 202 GFLOP/s without it).
 * 2. B likewise into panels of NBW = tx*nv*vw columns: bp(q, k, j) =
 *    B(k, q*NBW + j).
 *    Both panels are padded with zeros to whole panels and to a multiple of
 *    bk in k, so the product below needs no bounds checks (on a CPU, rows
 *    of A past the last read the last, and their sums are not stored;
 *    there bk is 1, so K needs no padding). Repacking costs
 *    one pass over A and B (O(n^2)). It removes loads that walk down the
 *    columns of B, rows a power of two apart at sizes such as 2048, where
 *    they all land in the same few cache sets: on PoCL the same product
 *    without repacking ran at 40% of its speed at 1920 when n was 2048.
 *    The packs are flushed to the device before the product is queued, so
 *    that it works on them while the host queues the rest.
 * 3. The product: each thread keeps rm x nv vectors of vw sums in
 *    registers, and for every k loads nv vectors of B and rm values of A,
 *    then does rm*nv vector multiply-adds (an outer product).
 * 4. Split K: a product too small to give every compute unit a tile of its
 *    own (a 1000 x 1000 C is 64 tiles of 128 x 128, for a GPU of 132
 *    multiprocessors) is cut along K into `splits` parts, each a tile of
 *    its own. Each part writes its sums into a stack of partial products,
 *    and a last kernel adds them up, in the same order every time.
 *    sgemm_tuning_pick (sgemm_tune.c) chooses the tile and the split by how
 *    many tiles fill the device.
 *
 * The parameters (sgemm_params, as AMP_CONSTs) pick the shape per device:
 * - On a CPU (PoCL), a tile is one thread (ty = tx = 1) that computes, say,
 *   12 rows x 32 columns as 24 float16 sums: PoCL turns float16 into
 *   AVX-512 registers directly, and each multiply-add takes its A value as
 *   a broadcast from memory. Tiles of more threads would make PoCL
 *   vectorize across threads instead, which turns these vector loads into
 *   gathers. B's panel and A are read straight from memory (staged = 0):
 *   the CPU's caches already keep them close.
 * - On a GPU, a tile of 16 x 16 threads copies each bk-deep step of both
 *   panels into tile_static memory as float4s (staged = 1), and each
 *   thread reads its A values as float4s from there (the tile_static arrays
 *   hold float4s, so that the compiler knows those loads are aligned and
 *   makes them single 16-byte loads; the panels are read through float4
 *   pointers for the same reason). A thread's columns are nv vectors,
 *   tx*vw apart, so that neighbouring threads read neighbouring addresses
 *   of tile_static memory and of C.
 *   The next step's floats are loaded into registers before the
 *   multiply-adds of this one, so that they are on their way while the
 *   thread computes. With staged = 2 there are two buffers in tile_static
 *   memory: the threads fill one while they read the other, and meet at
 *   one barrier per step instead of two.
 * sgemm_tune.c has the defaults and the tuner's candidates.
 *
 * Consecutive tiles share their B panel and go down the rows of C
 * (t_idx.tile[2] is the row panel): the B panel stays in cache while A
 * panels stream past it. On a CPU they go across a group of column panels
 * first, as many as have their B panels in 512 KiB, then down: each row of
 * A is read once per group from memory, not once per column panel. At
 * 3000 x 3000 x 3000, where A no longer fits in the L3 cache of the 2-core
 * EPYC, 6 rows x 2 float8 (AVX2) went from 183 to 201 and 204 GFLOP/s with
 * groups of 2 and 4 (at 2048, where it fits, nothing changed); on 2 cores
 * of a Xeon with 2 MiB of L2 a core, groups of 5 (1 MiB of B panels at
 * 3000) ran at 188 to 196 GFLOP/s, of 2 (512 KiB) at 203 to 212, of 8 and
 * 16 at 174 and 159: the group's panels share the L2 with A's rows and C.
 */
#include "sgemm.h"

/* The packing on a GPU: tiles of PACK_THREADS threads, each moving
 * PACK_V float4s (pack_on_gpu). */
#define PACK_THREADS 256
#define PACK_V 4
/* The steps of k that one thread packs on a CPU. */
#define PACK_K 64

static int round_up(int n, int m)
{
    return (n + m - 1) / m * m;
}

/* On a CPU, how many column panels the tiles go across before the next
 * rows of A: as many as have their B panels, depth x NBW floats each, in
 * SGEMM_CPU_GROUP_BYTES (at least 1, at most all). */
static int cpu_group(int depth, int NBW, int CB)
{
    long long bytes = (long long)depth * NBW * (long long)sizeof(float);
    long long group = SGEMM_CPU_GROUP_BYTES / (bytes > 0 ? bytes : 1);
    return group < 1 ? 1 : group > CB ? CB : (int)group;
}

void sgemm_workspace_release(sgemm_workspace *ws)
{
    if (!ws)
        return;
    amp_array_view_release(ws->ap);
    amp_array_view_release(ws->bp);
    amp_array_view_release(ws->part);
    *ws = (sgemm_workspace){0};
}

/* One view of the given extent, kept from the last call when the extent is
 * the same. It has no host memory: it lives on the device, and nothing is
 * ever copied to or from it. */
static amp_status device_view(amp_array_view **view, amp_extent *have, amp_extent want)
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

/* 2 on a CPU: tiles of one thread, as in the product, each copying the
 * panel's NBW columns of PACK_K rows of B. A row of a panel that lies inside
 * B is copied in vectors of the product's width (float16 only where vw is
 * 16, on AVX-512): on an AVX2 device, PoCL's compiler warns of every float16
 * passed by value ("2 warnings generated." on the first run, before the
 * sample's table). The panel that crosses B's right edge is copied float by
 * float, zero past it. (On a CPU bk is 1, so Kp is K and no row lies past
 * K; the pack would zero them.) A thread per element, in work-groups that
 * PoCL vectorizes across, made the stores a scatter; tiles of 16 rows were
 * mostly PoCL's cost of starting a work-group. A is not packed on a CPU
 * (the product reads it where it lies). */
static amp_status pack_b_on_cpu(amp_accelerator_view *av, const sgemm_operands *op,
                                amp_array_view *bp, int Np, int Kp, const sgemm_params *p)
{
    amp_array_view *b = op->b;
    int N = op->N, K = op->K;
    const int NBW = p->tx * p->nv * p->vw, VW = p->vw;
    int blocks = (Kp + PACK_K - 1) / PACK_K;
    return AMP_PARALLEL_FOR_EACH_ON(
        av, amp_extent_tile_2d(amp_extent_2d(Np / NBW, blocks), 1, 1), t_idx,
        AMP_CAPTURE(b, bp, N, K, Kp, AMP_CONST(NBW), AMP_CONST(VW), AMP_CONST(PACK_K)), {
        AMP_IF(VW == 16)
        AMP_DEFINE(vloadV vload16)
        AMP_DEFINE(vstoreV vstore16)
        AMP_ELIF(VW == 8)
        AMP_DEFINE(vloadV vload8)
        AMP_DEFINE(vstoreV vstore8)
        AMP_ELIF(VW == 4)
        AMP_DEFINE(vloadV vload4)
        AMP_DEFINE(vstoreV vstore4)
        AMP_ELSE
        AMP_DEFINE(vloadV vload2)
        AMP_DEFINE(vstoreV vstore2)
        AMP_ENDIF
        int q = t_idx.global[0], k0 = t_idx.global[1] * PACK_K, col0 = q * NBW;
        // A row of the panel in whole vectors where it lies inside B (NBW is a
        // whole number of them), else float by float, zero past B's edges.
        for (int k = k0; k < k0 + PACK_K && k < Kp; k++) {
            // restrict: the compiler may load the next vector before it stores this one.
            __global float *restrict to = &bp(q, k, 0);
            if (k < K && col0 + NBW <= N) {
                __global const float *restrict from = &b(k, col0);
                AMP_PRAGMA(unroll)
                for (int j = 0; j < NBW; j += VW)
                    vstoreV(vloadV(0, from + j), 0, to + j);
            } else {
                for (int j = 0; j < NBW; j++)
                    to[j] = k < K && col0 + j < N ? b(k, col0 + j) : 0.0f;
            }
        }
    });
}

/* 1 and 2 on a GPU, in one launch, so that the two run side by side: a
 * small product's packs are too short to fill the GPU one after the other.
 *
 * The pack only moves bytes, so it runs as fast as the memory brings them:
 * a GPU nears its bandwidth only with megabytes on their way at once (a
 * load takes about a microsecond; an H100 moves some 3 MB in that time).
 * So each thread loads all its PACK_V float4s first, and only then stores
 * them: the compiler cannot move a load of B ahead of a store into bp,
 * which as far as it knows may be the same memory, so a loop that loads
 * and stores a float at a time has one load on its way per thread. That
 * was the pack before, 4 floats a thread in tiles of 32 x 32 floats: on an
 * H100 11 to 12.6 us at 1000^3 (16 MB, which the bandwidth moves in about
 * 5) and 34 to 35 us at 2048^3; this one takes 9.6 to 11.5 and 28.5 to 28.7
 * (a few us of each are the launch's start and end, whatever it moves).
 * Tiles of 256 threads move 16 KiB each (512 tiles at 1000^3 where the
 * 32 x 32 blocks made 2048), and every load and store moves 16 bytes:
 * - a load takes four floats of a row of A or B in one piece where all
 *   four lie inside the row and their address is a multiple of 16 (a
 *   view's offset, or rows whose length is not a multiple of 4, can make it
 *   not); float by float otherwise, with zeros past the edges;
 * - the panels take whole float4s: MBW and NBW are multiples of 4 (a
 *   float4 lies inside one panel), and the panels start their buffers.
 * The first tiles transpose blocks of A of PACK_AM = 128 rows by PACK_AK =
 * 32 steps of k through tile_static memory. Thread (x, y) of 8 x 32 reads
 * float4 x along k of rows y, y + 32, ...; after the barrier it writes
 * float4s along m (rows 4x, 4(x + 8), ... of the block) of step y. A warp
 * (32 threads) so reads 4 rows of A, 128 bytes of each, and writes 128
 * bytes of 4 steps of the panel; and with rows of 33 floats in block its
 * threads use 32 different banks of tile_static memory both when they
 * store (rows y to y + 3, columns 4x + c) and when they read (columns y to
 * y + 3, rows 4x + c). The other tiles copy blocks of B, PACK_BK = 32 rows
 * by PACK_BN = 128 columns, a row's 512 bytes per warp. Every tile meets
 * the barrier, outside the branches, though only A's need it: with it
 * inside the branch of A, PoCL 3.1 stored past the panels (that pack's
 * tests then failed with heap corruption on the CPU device). */
static amp_status pack_on_gpu(amp_accelerator_view *av, const sgemm_operands *op,
                              amp_array_view *ap, amp_array_view *bp, int Mp, int Np, int Kp,
                              const sgemm_params *p)
{
    amp_array_view *a = op->a, *b = op->b;
    int M = op->M, N = op->N, K = op->K;
    const int MBW = p->ty * p->rm, NBW = p->tx * p->nv * p->vw;
    const int PACK_AM = 32 * PACK_V, PACK_AK = 32; /* a block of A: rows, steps of k */
    const int PACK_BK = 8 * PACK_V, PACK_BN = 128; /* a block of B: rows, columns */
    int a_cols = (Kp + PACK_AK - 1) / PACK_AK; /* A's blocks along k */
    int a_tiles = (Mp + PACK_AM - 1) / PACK_AM * a_cols;
    int b_cols = (Np + PACK_BN - 1) / PACK_BN; /* B's blocks along its rows */
    int b_tiles = (Kp + PACK_BK - 1) / PACK_BK * b_cols;
    amp_tiled_extent domain =
        amp_extent_tile_1d(amp_extent_1d((a_tiles + b_tiles) * PACK_THREADS), PACK_THREADS);
    return AMP_PARALLEL_FOR_EACH_ON(av, domain, t_idx,
                                    AMP_CAPTURE(a, b, ap, bp, M, N, K, Mp, Np, Kp, a_cols,
                                                a_tiles, b_cols, AMP_CONST(MBW), AMP_CONST(NBW),
                                                AMP_CONST(PACK_V), AMP_CONST(PACK_AM),
                                                AMP_CONST(PACK_AK), AMP_CONST(PACK_BK),
                                                AMP_CONST(PACK_BN)), {
        // Four floats of a row of A or B in one 16-byte load where their address
        // allows it, else one by one; an element of A or B, zero past its edges;
        // and four of a row, in one load where all four lie inside it.
        AMP_DEFINE(LOAD4(p) (((size_t)(p) & 15) == 0 ? *(__global const float4 *)(p)  \
                                                     : vload4(0, (p))))
        AMP_DEFINE(A_AT(row, k) ((row) < M && (k) < K ? a(row, k) : 0.0f))
        AMP_DEFINE(B_AT(k, col) ((k) < K && (col) < N ? b(k, col) : 0.0f))
        AMP_DEFINE(A4(row, k) ((row) < M && (k) + 4 <= K                               \
                                   ? LOAD4(&a(row, k))                                 \
                                   : (float4)(A_AT(row, k), A_AT(row, (k) + 1),        \
                                              A_AT(row, (k) + 2), A_AT(row, (k) + 3))))
        AMP_DEFINE(B4(k, col) ((k) < K && (col) + 4 <= N                               \
                                   ? LOAD4(&b(k, col))                                 \
                                   : (float4)(B_AT(k, col), B_AT(k, (col) + 1),        \
                                              B_AT(k, (col) + 2), B_AT(k, (col) + 3))))
        AMP_DEFINE(STORE4(place, value) (*(__global float4 *)&(place) = (value)))
        int t = t_idx.tile[0], tid = t_idx.local[0];
        tile_static float block[PACK_AM][PACK_AK + 1]; // + 1: no bank conflicts
        float4 v[PACK_V];
        // In a tile of A: thread (x, y) of 8 x 32, and where its block starts.
        int x = tid % 8, y = tid / 8;
        int row0 = t / a_cols * PACK_AM, k0 = t % a_cols * PACK_AK;
        if (t < a_tiles) {
            AMP_PRAGMA(unroll)
            for (int i = 0; i < PACK_V; i++)
                v[i] = A4(row0 + y + 32 * i, k0 + 4 * x);
            AMP_PRAGMA(unroll)
            for (int i = 0; i < PACK_V; i++) {
                int r = y + 32 * i;
                block[r][4 * x + 0] = v[i].x;
                block[r][4 * x + 1] = v[i].y;
                block[r][4 * x + 2] = v[i].z;
                block[r][4 * x + 3] = v[i].w;
            }
        } else {
            // A tile of B: thread (bx, by) of 32 x 8.
            int bx = tid % 32, by = tid / 32;
            int bk0 = (t - a_tiles) / b_cols * PACK_BK;
            int col = (t - a_tiles) % b_cols * PACK_BN + 4 * bx;
            AMP_PRAGMA(unroll)
            for (int i = 0; i < PACK_V; i++)
                v[i] = B4(bk0 + by + 8 * i, col);
            AMP_PRAGMA(unroll)
            for (int i = 0; i < PACK_V; i++) {
                int k = bk0 + by + 8 * i;
                if (k < Kp && col < Np)
                    STORE4(bp(col / NBW, k, col % NBW), v[i]);
            }
        }
        t_idx.barrier.wait();
        if (t < a_tiles) {
            // Swap the roles of the two indices: write along m.
            int k = k0 + y;
            AMP_PRAGMA(unroll)
            for (int i = 0; i < PACK_V; i++) {
                int r = 4 * (x + 8 * i), m = row0 + r;
                if (m < Mp && k < Kp)
                    STORE4(ap(m / MBW, k, m % MBW),
                           (float4)(block[r][y], block[r + 1][y], block[r + 2][y],
                                    block[r + 3][y]));
            }
        }
    });
}

/* 3. The product. Tile (ks, cb, rb): part ks of K, column panel cb, row
 * panel rb; rb varies fastest, so that the tiles that run one after
 * another share a B panel. Part ks covers per_part of K, from k0 to k1.
 * Sums go to C, or with a split K to part(ks, row, col). */
static amp_status product(amp_accelerator_view *av, amp_array_view *a, amp_array_view *ap,
                          amp_array_view *bp, amp_array_view *c, amp_array_view *part, int M,
                          int N, int Kp, int MB, int CB, int splits, int per_part, int group,
                          const sgemm_params *p)
{
    const int TY = p->ty, TX = p->tx, RM = p->rm, NV = p->nv, VW = p->vw, BK = p->bk;
    const int STAGED = p->staged, SPLIT = splits > 1;
    const int MBW = TY * RM, NBW = TX * NV * VW;
    amp_tiled_extent domain =
        amp_extent_tile_3d(amp_extent_3d(splits, CB * TY, MB * TX), 1, TY, TX);
    return AMP_PARALLEL_FOR_EACH_ON(av, domain, t_idx,
                                    AMP_CAPTURE(a, ap, bp, c, part, M, N, Kp, per_part, MB, CB,
                                                group, AMP_CONST(TY), AMP_CONST(TX), AMP_CONST(RM),
                                                AMP_CONST(NV), AMP_CONST(VW), AMP_CONST(BK),
                                                AMP_CONST(STAGED), AMP_CONST(SPLIT),
                                                AMP_CONST(MBW), AMP_CONST(NBW)), {
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
        int ty = t_idx.local[1];
        int tx = t_idx.local[2];
        int ks = t_idx.tile[0];                   // part of K
        int cb = t_idx.tile[1];                   // column panel
        int rb = t_idx.tile[2];                   // row panel
        AMP_IF(!STAGED)
        {
            // Groups of `group` column panels: within a group the column panel
            // varies fastest, so that the tiles one after another read the same
            // rows of A, while the group's B panels stay in the cache.
            int t = cb * MB + rb, first = t / (group * MB) * group;
            int width = min(group, CB - first), in_group = t - first * MB;
            rb = in_group / width;
            cb = first + in_group % width;
        }
        AMP_ENDIF
        int k0 = ks * per_part;
        int k1 = min(Kp, k0 + per_part);

        floatV acc[RM][NV];
        AMP_PRAGMA(unroll)
        for (int r = 0; r < RM; r++) {
            AMP_PRAGMA(unroll)
            for (int v = 0; v < NV; v++)
                acc[r][v] = (floatV)(0.0f);
        }

        AMP_IF(STAGED)
        AMP_DEFINE(THREADS (TY * TX))
        AMP_DEFINE(LA (BK * MBW / 4 / THREADS)) // float4s of A each thread copies per step
        AMP_DEFINE(LB (BK * NBW / 4 / THREADS)) // and of B
        tile_static float4 As[STAGED][BK][MBW / 4];
        tile_static float4 Bs[STAGED][BK][NBW / 4];
        int tid = ty * TX + tx;
        // A step of a panel is BK * width consecutive floats: float4s.
        __global const float4 *pa = (__global const float4 *)&ap(rb, 0, 0);
        __global const float4 *pb = (__global const float4 *)&bp(cb, 0, 0);
        float4 na[LA], nb[LB];                    // the next step, on its way
        AMP_DEFINE(LOAD_STEP(t)                                                       \
            for (int l = 0; l < LA; l++)                                              \
                na[l] = pa[(t) * (MBW / 4) + tid + l * THREADS];                      \
            for (int l = 0; l < LB; l++)                                              \
                nb[l] = pb[(t) * (NBW / 4) + tid + l * THREADS];)
        AMP_DEFINE(STORE_STEP(as, bs)                                                 \
            for (int l = 0; l < LA; l++)                                              \
                ((__local float4 *)(as))[tid + l * THREADS] = na[l];                  \
            for (int l = 0; l < LB; l++)                                              \
                ((__local float4 *)(bs))[tid + l * THREADS] = nb[l];)
        LOAD_STEP(k0);
        AMP_IF(STAGED == 2)
        STORE_STEP(As[0], Bs[0]);
        t_idx.barrier.wait();
        AMP_ENDIF
        for (int t = k0; t < k1; t += BK) {
            int s = STAGED == 2 ? (t - k0) / BK % 2 : 0; // the buffer of this step
            AMP_IF(STAGED == 1)
            STORE_STEP(As[0], Bs[0]);
            t_idx.barrier.wait();
            AMP_ENDIF
            if (t + BK < k1) {
                LOAD_STEP(t + BK);
            }
            AMP_PRAGMA(unroll)
            for (int k = 0; k < BK; k++) {
                floatV bv[NV];
                AMP_PRAGMA(unroll)
                for (int v = 0; v < NV; v++)
                    bv[v] = vloadV(v * TX + tx, (__local float *)Bs[s][k]);
                AMP_PRAGMA(unroll)
                for (int w = 0; w < RM / 4; w++) {
                    float4 a4 = As[s][k][w * TY + ty];
                    AMP_PRAGMA(unroll)
                    for (int v = 0; v < NV; v++) {
                        acc[4 * w + 0][v] = fma((floatV)(a4.x), bv[v], acc[4 * w + 0][v]);
                        acc[4 * w + 1][v] = fma((floatV)(a4.y), bv[v], acc[4 * w + 1][v]);
                        acc[4 * w + 2][v] = fma((floatV)(a4.z), bv[v], acc[4 * w + 2][v]);
                        acc[4 * w + 3][v] = fma((floatV)(a4.w), bv[v], acc[4 * w + 3][v]);
                    }
                }
            }
            AMP_IF(STAGED == 2)
            if (t + BK < k1) {
                STORE_STEP(As[1 - s], Bs[1 - s]);
            }
            AMP_ENDIF
            t_idx.barrier.wait();
        }
        AMP_ELSE
        // A where it lies, a pointer per row: rows past the last read the last (their
        // sums are not stored). With a(row, k) in the loop instead, LLVM kept the rows'
        // offsets in a vector register and took each out of it at every k: 37
        // instructions per k for 6 x 2 float8 on AVX2 (12 multiply-adds), 25 this way.
        __global const float *arow[RM];
        AMP_PRAGMA(unroll)
        for (int r = 0; r < RM; r++)
            arow[r] = &a(min(rb * MBW + r * TY + ty, M - 1), 0);
        for (int k = k0; k < k1; k++) {
            floatV bv[NV];
            AMP_PRAGMA(unroll)
            for (int v = 0; v < NV; v++)
                bv[v] = vloadV(v * TX + tx, &bp(cb, k, 0));
            AMP_PRAGMA(unroll)
            for (int r = 0; r < RM; r++) {
                floatV av = (floatV)(arow[r][k]);
                AMP_PRAGMA(unroll)
                for (int v = 0; v < NV; v++)
                    acc[r][v] = fma(av, bv[v], acc[r][v]);
            }
        }
        AMP_ENDIF

        // Store what lies inside C: whole vectors, or lane by lane at the right edge.
        AMP_IF(SPLIT)
        AMP_DEFINE(OUT(row, col) part(ks, row, col))
        AMP_ELSE
        AMP_DEFINE(OUT(row, col) c(row, col))
        AMP_ENDIF
        AMP_PRAGMA(unroll)
        for (int r = 0; r < RM; r++) {
            int row = rb * MBW + ((r / VM) * TY + ty) * VM + r % VM;
            if (row < M) {
                AMP_PRAGMA(unroll)
                for (int v = 0; v < NV; v++) {
                    int col = cb * NBW + (v * TX + tx) * VW;
                    if (col + VW <= N) {
                        vstoreV(acc[r][v], 0, &OUT(row, col));
                    } else if (col < N) {
                        float lanes[VW];
                        vstoreV(acc[r][v], 0, lanes);
                        for (int j = 0; col + j < N; j++)
                            OUT(row, col + j) = lanes[j];
                    }
                }
            }
        }
    });
}

/* 4. The parts of a split K, added in order. */
static amp_status add_parts(amp_accelerator_view *av, amp_array_view *part, amp_array_view *c,
                            int M, int N, int splits)
{
    return AMP_PARALLEL_FOR_EACH_ON(av, amp_extent_2d(M, N), idx, AMP_CAPTURE(part, c, splits), {
        int row = idx[0], col = idx[1];
        float sum = part(0, row, col);
        for (int s = 1; s < splits; s++)
            sum += part(s, row, col);
        c(row, col) = sum;
    });
}

amp_status sgemm_6_tuned_on(amp_accelerator_view *av, const sgemm_operands *op,
                            const sgemm_plan *plan, sgemm_workspace *ws)
{
    const sgemm_params *p = &plan->p;
    int M = op->M, N = op->N, K = op->K;
    const int MBW = p->ty * p->rm, NBW = p->tx * p->nv * p->vw;
    int MB = (M + MBW - 1) / MBW, CB = (N + NBW - 1) / NBW;
    int Kp = round_up(K, p->bk), steps = Kp / p->bk;
    /* Parts of whole steps, none of them empty. */
    int splits = plan->splits < 1 ? 1 : plan->splits > steps ? steps : plan->splits;
    int per_part = (steps + splits - 1) / splits * p->bk;
    splits = (Kp + per_part - 1) / per_part;

    /* A's panels; one element on a CPU, where the product reads A itself
     * and the kernel captures the panels all the same. */
    amp_status st = device_view(&ws->ap, &ws->a_extent,
                                p->staged ? amp_extent_3d(MB, Kp, MBW) : amp_extent_3d(1, 1, 1));
    if (st == AMP_OK)
        st = device_view(&ws->bp, &ws->b_extent, amp_extent_3d(CB, Kp, NBW));
    /* The stack of partial products; one element when K is not split,
     * since the product's kernel captures it either way. */
    if (st == AMP_OK)
        st = device_view(&ws->part, &ws->part_extent,
                         splits > 1 ? amp_extent_3d(splits, M, N) : amp_extent_3d(1, 1, 1));
    if (st == AMP_OK)
        st = p->staged ? pack_on_gpu(av, op, ws->ap, ws->bp, MB * MBW, CB * NBW, Kp, p)
                       : pack_b_on_cpu(av, op, ws->bp, CB * NBW, Kp, p);
    /* The packs go to the device now. The default view queues kernels
     * until a wait (C++ AMP's automatic queuing mode): without this, the
     * device would sit idle while the host queues the product, which on a
     * GPU takes as long as a small product runs. */
    amp_accelerator_view *queue = av;
    if (st == AMP_OK && !queue)
        st = amp_accelerator_get_default_view(NULL, &queue);
    if (st == AMP_OK)
        st = amp_accelerator_view_flush(queue);
    if (st == AMP_OK)
        st = product(av, op->a, ws->ap, ws->bp, op->c, ws->part, M, N, Kp, MB, CB, splits,
                     per_part, p->staged ? 1 : cpu_group(per_part, NBW, CB), p);
    if (st == AMP_OK && splits > 1)
        st = add_parts(av, ws->part, op->c, M, N, splits);
    return st;
}

amp_status sgemm_6_tuned(const sgemm_operands *op, const sgemm_plan *plan, sgemm_workspace *ws)
{
    return sgemm_6_tuned_on(NULL, op, plan, ws);
}
