/*
 * bench/tuner.c - the per-device tuner of SGEMM kernel 6: measure each
 * candidate configuration (sgemm_params_candidates) on one square product,
 * keep the fastest correct one, and store it where the kernel looks for
 * it (sgemm_tune_path). A few candidates, not a search: each costs a
 * compile and a few runs.
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

int bench_tune(amp_accelerator *acc, amp_accelerator_view *av, int n, int repeat, int dry_run)
{
    amp_accelerator_info info;
    bench_check(amp_accelerator_get_info(acc, &info), "info");
    int count = 0;
    const sgemm_params *cand = sgemm_params_candidates(&info, &count);
    size_t e = (size_t)n * n;
    float *A = malloc(e * sizeof *A), *B = malloc(e * sizeof *B), *C = malloc(e * sizeof *C);
    if (!A || !B || !C) {
        fprintf(stderr, "out of host memory for the tuner at n = %d\n", n);
        return -1;
    }
    fill(A, e, 1);
    fill(B, e, 2);
    sgemm_operands op = {NULL, NULL, NULL, n, n, n};
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(n, n), A, &op.a), "A");
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(n, n), B, &op.b), "B");
    bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(n, n), C, &op.c), "C");
    bench_check(amp_array_view_discard_data(op.c), "discard");

    printf("\n## Tuning SGEMM kernel 6 on %s, %d x %d x %d\n\n", info.description, n, n, n);
    printf("- GFLOP/s of the best of %d runs after a warm-up (compile included in the "
           "warm-up)\n\n| candidate | GFLOP/s | result |\n|---|---:|---|\n",
           repeat);
    int best = -1;
    double best_gflops = 0;
    sgemm_params defaults = sgemm_params_default(&info);
    double default_gflops = 0;
    for (int i = 0; i < count; i++) {
        char text[128];
        sgemm_params_format(&cand[i], text, sizeof text);
        const char *why = sgemm_params_check(&cand[i], &info);
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
        fflush(stdout);
        if (memcmp(&cand[i], &defaults, sizeof defaults) == 0)
            default_gflops = gflops;
        if (ok && gflops > best_gflops) {
            best_gflops = gflops;
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
    if (best < 0) {
        printf("\nNo candidate ran correctly; nothing stored.\n");
        return -1;
    }
    char text[128], path[1400];
    sgemm_params_format(&cand[best], text, sizeof text);
    printf("\nBest: %s, %.1f GFLOP/s", text, best_gflops);
    if (default_gflops > 0)
        printf(" (the defaults: %.1f)", default_gflops);
    printf(".\n");
    if (dry_run)
        return 0;
    if (sgemm_tune_save(&info, &cand[best], best_gflops, n) != 0 ||
        !sgemm_tune_path(&info, path, sizeof path)) {
        perror("storing the tuned parameters");
        return -1;
    }
    printf("Stored in %s.\n", path);
    return 0;
}
