/*
 * OpenCL tiled matrix multiplication (after Cedric Nugteren's SGEMM
 * tutorial, as a Chinese blog post walks through it), in C with this
 * library: C = A * B for int matrices in column-major order, where each
 * work-group stages TS x TS blocks of A and B in local memory (tile_static)
 * and meets at barriers, checked against a plain triple loop on the CPU.
 *
 * The OpenCL original hard-codes TS = 16 and notes that a work-group of
 * TS x TS items must not exceed CL_DEVICE_MAX_WORK_GROUP_SIZE (256 on the
 * author's device). Here the limit comes from the library's accelerator
 * info, and TS is halved until TS x TS fits; a compiled kernel can allow
 * fewer work-items than the device (CL_KERNEL_WORK_GROUP_SIZE: registers,
 * local memory), which the library reports as AMP_ERROR_DEVICE_LIMIT, and
 * then TS is halved again. --max-work-group N takes N as the device's
 * limit if it is lower, to see the halving on any device. The original also assumes
 * sizes that are multiples of TS; here none is (C is 1000 x 700 and the
 * inner dimension is 500), so the domain is rounded up to whole tiles and
 * every load and store is guarded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <amp/amp.h>

#include "../common/sample_check.h"

// C (M x N) = A (M x K) * B (K x N). None of them is a multiple of 16.
#define M 1000
#define N 700
#define K 500

// Round n up to a multiple of ts.
static int round_up(int n, int ts)
{
    return (n + ts - 1) / ts * ts;
}

// The tile size: 16, as in the original, unless the device's work-groups
// cannot hold 16 x 16 work-items.
static int choose_tile_size(size_t max_work_group)
{
    amp_accelerator *acc;
    amp_accelerator_info info;
    check(amp_accelerator_get_default(&acc));
    check(amp_accelerator_get_info(acc, &info));
    // The original printed this (maxWorkItemPerGroup); it differs from
    // device to device, so it goes to stderr and the checked output stays
    // the same everywhere.
    fprintf(stderr, "%s: at most %zu work-items per work-group\n", info.description,
            info.max_tile_size);
    if (max_work_group > 0 && max_work_group < info.max_tile_size) {
        info.max_tile_size = max_work_group;
    }

    int ts = 16;
    while (ts > 1 && (size_t)(ts * ts) > info.max_tile_size) {
        ts /= 2;
    }
    if (ts == 16) {
        printf("TS = 16: 16 x 16 = 256 work-items per work-group, within the device's maximum\n");
    } else {
        printf("TS = %d: 16 x 16 work-items exceed the device's maximum of %zu per work-group\n", ts,
               info.max_tile_size);
    }
    return ts;
}

// The tiled kernel. In the OpenCL original, dimension 0 (get_local_id(0),
// the one neighbouring work-items share) is the row of C, which is
// contiguous in column-major storage. A C++ AMP extent lists its slowest
// dimension first, so the same layout is extent (columns, rows): local[1]
// here is get_local_id(0) there, and the views are indexed (column, row).
static amp_status matmul_tiled(amp_array_view *A, amp_array_view *B, amp_array_view *C, int TS)
{
    int m = M, n = N, k = K;
    // Round the domain up to whole tiles; the kernel guards what is past
    // the matrices. (amp_tiled_extent_pad would round up too, but there the
    // threads past the extent cannot load: every work-item here loads one
    // element of A and one of B for the whole work-group.)
    amp_extent domain = amp_extent_2d(round_up(N, TS), round_up(M, TS));
    printf("work-groups: %d x %d, each %d x %d\n", domain.dims[1] / TS, domain.dims[0] / TS, TS, TS);

    return (AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(domain, TS, TS), t_idx,
                                      AMP_CAPTURE(A, B, C, m, n, k, AMP_CONST(TS)), {
        // Thread identifiers
        const int row = t_idx.local[1];                  // Local row ID (max: TS)
        const int col = t_idx.local[0];                  // Local col ID (max: TS)
        const int globalRow = TS * t_idx.tile[1] + row;  // Row ID of C (0..M)
        const int globalCol = TS * t_idx.tile[0] + col;  // Col ID of C (0..N)

        // Local memory to fit a tile of TS*TS elements of A and B
        tile_static int Asub[TS][TS];
        tile_static int Bsub[TS][TS];

        // Initialise the accumulation register
        int acc = 0;

        // Loop over all tiles, the last one partly past K
        const int numTiles = (k + TS - 1) / TS;
        for (int t = 0; t < numTiles; t++) {
            // Load one tile of A and B into local memory. A(i, j) is
            // A[i*M + j] of the original: column i, row j. Past the edge of
            // A or B, load 0, which adds nothing to acc.
            const int tiledRow = TS * t + row;
            const int tiledCol = TS * t + col;
            Asub[col][row] = globalRow < m && tiledCol < k ? A(tiledCol, globalRow) : 0;
            Bsub[col][row] = globalCol < n && tiledRow < k ? B(globalCol, tiledRow) : 0;

            // Synchronise to make sure the tile is loaded
            t_idx.barrier.wait_with_tile_static_memory_fence();

            // Perform the computation for a single tile
            for (int kk = 0; kk < TS; kk++) {
                acc += Asub[kk][row] * Bsub[col][kk];
            }

            // Synchronise before loading the next tile
            t_idx.barrier.wait_with_tile_static_memory_fence();
        }

        // Store the final result in C, if this work-item is inside it
        if (globalRow < m && globalCol < n) {
            C(globalCol, globalRow) = acc;
        }
    }));
}

int main(int argc, char **argv)
{
    size_t max_work_group = 0;
    if (argc == 3 && strcmp(argv[1], "--max-work-group") == 0 && atoi(argv[2]) > 0) {
        max_work_group = (size_t)atoi(argv[2]);
    } else if (argc != 1) {
        fprintf(stderr, "usage: %s [--max-work-group N]\n", argv[0]);
        return EXIT_FAILURE;
    }
    int *a = malloc(sizeof(int) * M * K);
    int *b = malloc(sizeof(int) * K * N);
    int *c = malloc(sizeof(int) * M * N);
    int *expected = malloc(sizeof(int) * M * N);
    if (!a || !b || !c || !expected) {
        fprintf(stderr, "out of memory\n");
        return EXIT_FAILURE;
    }
    // Column-major: element (row, col) of the M x K matrix A is a[col * M + row].
    // Small ints (-4 .. 4), so every sum is exact.
    for (int col = 0; col < K; col++) {
        for (int row = 0; row < M; row++) {
            a[col * M + row] = (row * 3 + col * 7) % 9 - 4;
        }
    }
    for (int col = 0; col < N; col++) {
        for (int row = 0; row < K; row++) {
            b[col * K + row] = (row * 5 + col * 2) % 9 - 4;
        }
    }
    for (int col = 0; col < N; col++) {
        for (int row = 0; row < M; row++) {
            int sum = 0;
            for (int i = 0; i < K; i++) {
                sum += a[i * M + row] * b[col * K + i];
            }
            expected[col * M + row] = sum;
        }
    }

    printf("C (%d x %d) = A (%d x %d) * B (%d x %d), column-major ints\n", M, N, M, K, K, N);
    int TS = choose_tile_size(max_work_group);

    // Each view is the column-major matrix as C lays it out: an array of
    // columns. A has K columns of M elements.
    amp_array_view *A, *B, *C;
    check(amp_array_view_create_const(AMP_INT, amp_extent_2d(K, M), a, &A));
    check(amp_array_view_create_const(AMP_INT, amp_extent_2d(N, K), b, &B));
    check(amp_array_view_create(AMP_INT, amp_extent_2d(N, M), c, &C));
    check(amp_array_view_discard_data(C));

    amp_status st = matmul_tiled(A, B, C, TS);
    // The compiled kernel may allow fewer work-items than the device.
    while (st == AMP_ERROR_DEVICE_LIMIT && TS > 1) {
        fprintf(stderr, "%s\n", amp_last_error());
        TS /= 2;
        printf("TS = %d: the compiled kernel allows fewer work-items than the device\n", TS);
        st = matmul_tiled(A, B, C, TS);
    }
    check(st);
    check(amp_array_view_synchronize(C));

    printf("C(0, 0) = %d, C(%d, %d) = %d, C(%d, %d) = %d\n", c[0], M / 2, N / 3,
           c[(N / 3) * M + M / 2], M - 1, N - 1, c[(N - 1) * M + M - 1]);
    int mismatches = 0;
    for (int i = 0; i < M * N; i++) {
        mismatches += c[i] != expected[i];
    }
    printf("matches the CPU: %s\n", mismatches == 0 ? "yes" : "no");

    check(amp_array_view_release(A));
    check(amp_array_view_release(B));
    check(amp_array_view_release(C));
    free(a);
    free(b);
    free(c);
    free(expected);
    return mismatches == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
