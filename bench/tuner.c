/*
 * bench/tuner.c - the per-device tuner of SGEMM kernel 6: measure each
 * candidate configuration (sgemm_params_candidates) on a large and a small
 * square product, keep the fastest correct one of each, and store both
 * where the kernel looks for them (sgemm_tune_path). A few candidates, not
 * a search: each costs a compile and a few runs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "sgemm.h"

static void fill(float *p, size_t n, unsigned seed)
{
    unsigned x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (float)((int)((x >> 16) % 9u) - 4);
    }
}

/* Exact check of a few rows: the inputs are small integers. */
static int rows_match(const float *A, const float *B, const float *C, int n)
{
    const int rows[] = {0, n / 3, n - 1};
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += (double)A[(size_t)rows[r] * n + k] * B[(size_t)k * n + j];
            if ((double)C[(size_t)rows[r] * n + j] != s)
                return 0;
        }
    return 1;
}

/* Measure every candidate on an n x n x n product and print a table.
 * Returns the index of the fastest correct one (its figure in *best_gflops),
 * or -1. */
static int measure(const amp_accelerator_info *info, amp_accelerator_view *av,
                   const sgemm_params *cand, int count, int n, int repeat, double *best_gflops)
{
    size_t e = (size_t)n * n;
    float *A = malloc(e * sizeof *A), *B = malloc(e * sizeof *B), *C = malloc(e * sizeof *C);
    if (!A || !B || !C) {
        fprintf(stderr, "out of host memory for the tuner at n = %d\n", n);
        free(A), free(B), free(C);
        return -1;
    }
    fill(A, e, 1);
    fill(B, e, 2);
    sgemm_operands op = {NULL, NULL, NULL, n, n, n};
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(n, n), A, &op.a), "A");
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(n, n), B, &op.b), "B");
    bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(n, n), C, &op.c), "C");
    bench_check(amp_array_view_discard_data(op.c), "discard");

    printf("\n%d x %d x %d, GFLOP/s of the best of %d runs after a warm-up:\n\n", n, n, n,
           repeat);
    printf("| candidate | GFLOP/s | result |\n|---|---:|---|\n");
    int best = -1;
    *best_gflops = 0;
    for (int i = 0; i < count; i++) {
        char text[128];
        sgemm_params_format(&cand[i], text, sizeof text);
        const char *why = sgemm_params_check(&cand[i], info);
        if (why) {
            printf("| %s | - | not for this device: %s |\n", text, why);
            continue;
        }
        sgemm_workspace ws = {0};
        double fastest = INFINITY;
        amp_status st = AMP_OK;
        for (int r = -1; r < repeat && st == AMP_OK; r++) {
            double t0 = bench_now();
            st = sgemm_6_tuned(&op, &cand[i], &ws);
            if (st == AMP_OK)
                st = amp_accelerator_view_wait(av);
            double t = bench_now() - t0;
            if (r >= 0 && t < fastest)
                fastest = t;
        }
        int ok = 0;
        if (st == AMP_OK) {
            bench_check(amp_array_view_synchronize(op.c), "synchronize");
            ok = rows_match(A, B, C, n);
        }
        sgemm_workspace_release(&ws);
        if (st != AMP_OK) {
            printf("| %s | - | failed: %s |\n", text, amp_status_name(st));
            continue;
        }
        double gflops = 2.0 * n * n * (double)n / fastest * 1e-9;
        printf("| %s | %.1f | %s |\n", text, gflops, ok ? "ok" : "WRONG");
        if (ok && gflops > *best_gflops) {
            *best_gflops = gflops;
            best = i;
        }
    }
    bench_check(amp_array_view_release(op.a), "release");
    bench_check(amp_array_view_release(op.b), "release");
    bench_check(amp_array_view_discard_data(op.c), "discard");
    bench_check(amp_array_view_release(op.c), "release");
    free(A);
    free(B);
    free(C);
    return best;
}

int bench_tune(amp_accelerator *acc, amp_accelerator_view *av, int n_large, int n_small,
               int repeat, int dry_run)
{
    amp_accelerator_info info;
    bench_check(amp_accelerator_get_info(acc, &info), "info");
    int count = 0;
    const sgemm_params *cand = sgemm_params_candidates(&info, &count);
    printf("\n## Tuning SGEMM kernel 6 on %s\n\n", info.description);
    printf("- the fastest correct candidate at %d for large products, at %d for small ones "
           "(compile in the warm-up)\n",
           n_large, n_small);
    double g_large, g_small;
    int large = measure(&info, av, cand, count, n_large, repeat, &g_large);
    int small = n_small > 0 ? measure(&info, av, cand, count, n_small, repeat, &g_small) : -1;
    if (large < 0) {
        printf("\nNo candidate ran correctly; nothing stored.\n");
        return -1;
    }
    sgemm_tuning t = {cand[large], cand[small >= 0 ? small : large], 0};
    /* Between the two sizes measured, on a logarithmic scale. */
    if (small >= 0 && memcmp(&t.small, &t.large, sizeof t.large) != 0)
        t.small_below = (int)(sqrt((double)n_large * n_small) + 0.5);
    char lt[128], st[128], note[512];
    sgemm_params_format(&t.large, lt, sizeof lt);
    sgemm_params_format(&t.small, st, sizeof st);
    int len = snprintf(note, sizeof note, "large: %s, %.1f GFLOP/s at %d", lt, g_large, n_large);
    if (small >= 0)
        snprintf(note + len, sizeof note - (size_t)len, "\nsmall: %s, %.1f GFLOP/s at %d", st,
                 g_small, n_small);
    printf("\nBest %s\n", note);
    if (t.small_below > 0)
        printf("Products below %d x %d use the small one.\n", t.small_below, t.small_below);
    if (dry_run)
        return 0;
    char path[1400];
    if (sgemm_tune_save(&info, &t, note) != 0 || !sgemm_tune_path(&info, path, sizeof path)) {
        perror("storing the tuned parameters");
        return -1;
    }
    printf("Stored in %s.\n", path);
    return 0;
}
