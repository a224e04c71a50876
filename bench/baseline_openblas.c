/*
 * bench/baseline_openblas.c - OpenBLAS's cblas_sgemm, the vendor-grade BLAS
 * of a CPU, on the same host arrays. Only against a CPU device (PoCL),
 * where both use the same cores; OpenBLAS uses all of them, as PoCL does.
 */
#include "baselines.h"

#include <stdlib.h>
#include <string.h>

#include <cblas.h>

static const float *a, *b;
static float *c;
static int m, n, k;

static const char *open_openblas(const bench_options *o)
{
    return o->info.is_emulated ? NULL : "the device is not the CPU";
}

static int setup(const float *A, const float *B, int M, int N, int K)
{
    a = A, b = B, m = M, n = N, k = K;
    c = malloc((size_t)M * N * sizeof *c);
    return c ? 0 : -1;
}

static int run(void)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
    return 0;
}

static int fetch(float *C)
{
    memcpy(C, c, (size_t)m * n * sizeof *c);
    return 0;
}

static void teardown(void)
{
    free(c);
    c = NULL;
}

static void close_openblas(void)
{
    teardown();
}

const bench_sgemm_impl bench_openblas = {"OpenBLAS", open_openblas, setup, run, fetch, teardown,
                                         close_openblas};
