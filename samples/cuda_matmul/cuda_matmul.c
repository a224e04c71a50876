/*
 * CUDA matrix multiplication, three ways (seed 001: a Chinese blog post
 * that ports a CPU matrix product to CUDA), in C with this library:
 * C (m x s) = A (m x n) * B (n x s) for ints, with m, n, s over 1000 and not
 * multiples of any tile, computed
 *
 *   1. on the CPU, the post's triple loop, as the reference;
 *   2. naive: one thread per element of C, reading A and B from global
 *      memory (the post's gpumatmultkernel);
 *   3. tiled: 16 x 16 tiles of A and B staged in tile_static memory, two
 *      barriers per step (the post's shared-memory kernel);
 *   4. textures: A and B as 2D int textures, read through the texture cache
 *      (the post's texture kernel, which bound A and B to texture
 *      references and read them with tex1Dfetch).
 *
 * Each result is compared with the CPU's, element by element.
 *
 *   cuda_matmul [--check] [--repeat R] [MxNxS]
 *
 * --check runs each variant once at 150 x 110 x 130 and prints only
 * whether it matched (the ctest, whose output must not hold timings).
 * Without it, the default 1500 x 1100 x 1300 is timed and a table printed.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <amp/amp.h>

#include "../common/sample_check.h"

// The post's tile width (its template parameter BLOCK_SIZE).
#define TS 16

typedef struct problem {
    int m, n, s;
    int *a, *b;   // the host matrices, row-major: a[m][n], b[n][s]
    int *result;  // C from the device, row-major m x s
} problem;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// The post's cpumatmultiply: result[i][j] = sum over k of a[i][k] * b[k][j].
static void cpu_mat_multiply(const int *a, const int *b, int *result, int m, int n, int s)
{
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < s; j++) {
            int temp = 0;
            for (int k = 0; k < n; k++) {
                temp += a[i * n + k] * b[k * s + j];
            }
            result[i * s + j] = temp;
        }
    }
}

// 2. One thread per element of C.
static void naive(amp_array_view *A, amp_array_view *B, amp_array_view *C, int n)
{
    check(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(C), idx, AMP_CAPTURE(A, B, C, n), {
        int temp = 0;
        for (int k = 0; k < n; k++) {
            temp += A(idx[0], k) * B(k, idx[1]);
        }
        C(idx) = temp;
    }));
}

// 3. TS x TS tiles of A and B in tile_static memory. The domain is C's
// extent rounded up to whole tiles: the threads past the edge of C still
// load elements of A and B that their tile needs, so each load is guarded
// (0 past the edge adds nothing) and so is the store.
static void tiled(amp_array_view *A, amp_array_view *B, amp_array_view *C, int m, int n, int s)
{
    amp_extent padded = amp_extent_2d((m + TS - 1) / TS * TS, (s + TS - 1) / TS * TS);
    check(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(padded, TS, TS), t_idx,
                                AMP_CAPTURE(A, B, C, m, n, s, AMP_CONST(TS)), {
        const int row = t_idx.local[0];
        const int col = t_idx.local[1];
        const int globalRow = t_idx.global[0];
        const int globalCol = t_idx.global[1];
        tile_static int tileA[TS][TS];
        tile_static int tileB[TS][TS];
        int temp = 0;
        for (int base = 0; base < n; base += TS) {
            tileA[row][col] = globalRow < m && base + col < n ? A(globalRow, base + col) : 0;
            tileB[row][col] = base + row < n && globalCol < s ? B(base + row, globalCol) : 0;
            t_idx.barrier.wait_with_tile_static_memory_fence();
            for (int k = 0; k < TS; k++) {
                temp += tileA[row][k] * tileB[k][col];
            }
            t_idx.barrier.wait_with_tile_static_memory_fence();
        }
        if (globalRow < m && globalCol < s) {
            C(globalRow, globalCol) = temp;
        }
    }));
}

// 4. The naive kernel, reading A and B from textures.
static void textures(amp_texture *texA, amp_texture *texB, amp_array_view *C, int n)
{
    check(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(C), idx,
                                AMP_CAPTURE(texA, texB, C, n), {
        int temp = 0;
        for (int k = 0; k < n; k++) {
            temp += texA(idx[0], k) * texB(k, idx[1]);
        }
        C(idx) = temp;
    }));
}

typedef struct timing {
    double first_ms; // the first call: compile, upload, kernel, download
    double best_ms;  // the best of the repeats: kernel only, data in place
} timing;

enum { NAIVE, TILED, TEXTURES, VARIANTS };
static const char *const names[VARIANTS] = {"naive (global memory)", "tile_static 16 x 16",
                                            "textures"};

// Run one variant: once from scratch (its data uploaded, its kernel compiled
// unless cached), then `repeat` more times with everything in place.
// Returns the number of elements that differ from the CPU's.
static long run_variant(int which, problem *p, const int *expected, int repeat, timing *t)
{
    size_t bytes_c = (size_t)p->m * (size_t)p->s * sizeof(int);
    memset(p->result, 0, bytes_c);
    amp_accelerator *acc;
    amp_accelerator_view *av;
    check(amp_accelerator_get_default(&acc));
    check(amp_accelerator_get_default_view(acc, &av));

    double start = now_ms();
    amp_array_view *A = NULL, *B = NULL, *C;
    amp_texture *texA = NULL, *texB = NULL;
    if (which == TEXTURES) {
        check(amp_texture_create(AMP_INT, 1, amp_extent_2d(p->m, p->n), p->a, NULL, &texA));
        check(amp_texture_create(AMP_INT, 1, amp_extent_2d(p->n, p->s), p->b, NULL, &texB));
    } else {
        check(amp_array_view_create_const(AMP_INT, amp_extent_2d(p->m, p->n), p->a, &A));
        check(amp_array_view_create_const(AMP_INT, amp_extent_2d(p->n, p->s), p->b, &B));
    }
    check(amp_array_view_create(AMP_INT, amp_extent_2d(p->m, p->s), p->result, &C));
    check(amp_array_view_discard_data(C));

    for (int r = 0; r <= repeat; r++) {
        double kernel_start = now_ms();
        if (which == NAIVE) {
            naive(A, B, C, p->n);
        } else if (which == TILED) {
            tiled(A, B, C, p->m, p->n, p->s);
        } else {
            textures(texA, texB, C, p->n);
        }
        if (r == 0) {
            check(amp_array_view_synchronize(C));
            t->first_ms = now_ms() - start;
            t->best_ms = t->first_ms;
        } else {
            check(amp_accelerator_view_wait(av));
            double ms = now_ms() - kernel_start;
            if (r == 1 || ms < t->best_ms) {
                t->best_ms = ms;
            }
        }
    }
    check(amp_array_view_synchronize(C));

    long mismatches = 0;
    for (size_t i = 0; i < (size_t)p->m * (size_t)p->s; i++) {
        mismatches += p->result[i] != expected[i];
    }
    check(amp_array_view_release(C));
    check(amp_array_view_release(A));
    check(amp_array_view_release(B));
    check(amp_texture_release(texA));
    check(amp_texture_release(texB));
    return mismatches;
}

static void usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s [--check] [--repeat R] [MxNxS]\n"
            "  C (M x S) = A (M x N) * B (N x S); default 1500x1100x1300\n"
            "  --check     150x110x130, each variant once, no timings\n"
            "  --repeat R  time the best of R runs of each kernel (default 5)\n",
            argv0);
    exit(EXIT_FAILURE);
}

int main(int argc, char **argv)
{
    int check_only = 0, repeat = 5;
    problem p = {1500, 1100, 1300, NULL, NULL, NULL};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0) {
            check_only = 1;
            p.m = 150;
            p.n = 110;
            p.s = 130;
        } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            repeat = atoi(argv[++i]);
            if (repeat < 1) {
                usage(argv[0]);
            }
        } else if (sscanf(argv[i], "%dx%dx%d", &p.m, &p.n, &p.s) != 3 || p.m < 1 || p.n < 1 ||
                   p.s < 1) {
            usage(argv[0]);
        }
    }
    if (check_only) {
        repeat = 0;
    }

    size_t na = (size_t)p.m * (size_t)p.n, nb = (size_t)p.n * (size_t)p.s;
    size_t nc = (size_t)p.m * (size_t)p.s;
    p.a = malloc(na * sizeof(int));
    p.b = malloc(nb * sizeof(int));
    p.result = malloc(nc * sizeof(int));
    int *expected = malloc(nc * sizeof(int));
    if (!p.a || !p.b || !p.result || !expected) {
        fprintf(stderr, "out of memory\n");
        return EXIT_FAILURE;
    }
    // Small ints (-4 .. 4), so every sum is exact and fits an int.
    for (size_t i = 0; i < na; i++) {
        p.a[i] = (int)((i * 7 + i / (size_t)p.n * 3) % 9) - 4;
    }
    for (size_t i = 0; i < nb; i++) {
        p.b[i] = (int)((i * 5 + i / (size_t)p.s * 2) % 9) - 4;
    }

    printf("C (%d x %d) = A (%d x %d) * B (%d x %d), ints\n", p.m, p.s, p.m, p.n, p.n, p.s);
    double cpu_start = now_ms();
    cpu_mat_multiply(p.a, p.b, expected, p.m, p.n, p.s);
    double cpu_ms = now_ms() - cpu_start;
    printf("CPU reference: C(0, 0) = %d, C(%d, %d) = %d\n", expected[0], p.m - 1, p.s - 1,
           expected[nc - 1]);

    timing t[VARIANTS];
    long bad = 0;
    for (int v = 0; v < VARIANTS; v++) {
        long mismatches = run_variant(v, &p, expected, repeat, &t[v]);
        bad += mismatches;
        if (mismatches == 0) {
            printf("%-22s matches the CPU\n", names[v]);
        } else {
            printf("%-22s differs from the CPU in %ld elements\n", names[v], mismatches);
        }
    }

    if (!check_only) {
        amp_accelerator *acc;
        amp_accelerator_info info;
        check(amp_accelerator_get_default(&acc));
        check(amp_accelerator_get_info(acc, &info));
        printf("\ndevice: %s\n", info.description);
        printf("ms: the best of %d runs, data in place; first call: compile, upload,\n"
               "kernel and download\n\n",
               repeat);
        printf("| variant | ms | vs CPU | first call ms |\n");
        printf("|---|---:|---:|---:|\n");
        printf("| CPU (triple loop, one thread) | %.1f | 1.0 | |\n", cpu_ms);
        for (int v = 0; v < VARIANTS; v++) {
            printf("| %s | %.1f | %.1f | %.1f |\n", names[v], t[v].best_ms,
                   cpu_ms / t[v].best_ms, t[v].first_ms);
        }
    }

    free(p.a);
    free(p.b);
    free(p.result);
    free(expected);
    return bad == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
