/*
 * bench/baselines.h - the SGEMMs the library's kernels are measured
 * against, behind one interface. Each lives in its own file, compiled only
 * when CMake found its library (bench/CMakeLists.txt).
 *
 * All take row-major A (M x K), B (K x N) and compute C = A * B (alpha 1,
 * beta 0) with the data already on the device, as the library's kernels
 * are timed: run() returns when the product is finished.
 */
#ifndef BENCH_BASELINES_H
#define BENCH_BASELINES_H

#include "bench.h"

typedef struct bench_sgemm_impl {
    const char *name;
    /* NULL when it can run on this device (opening what it needs once), else why not. */
    const char *(*open)(const bench_options *o);
    /* Copy A and B to the device, make room for C. Returns 0, or -1. */
    int (*setup)(const float *A, const float *B, int M, int N, int K);
    /* One product, finished on return. Returns 0, or -1. */
    int (*run)(void);
    /* C back to the host. Returns 0, or -1. */
    int (*fetch)(float *C);
    void (*teardown)(void); /* after each size */
    void (*close)(void);    /* at the end */
} bench_sgemm_impl;

#ifdef BENCH_HAVE_CLBLAST
extern const bench_sgemm_impl bench_clblast;
#endif
#ifdef BENCH_HAVE_OPENBLAS
extern const bench_sgemm_impl bench_openblas;
#endif
#ifdef BENCH_HAVE_CUBLAS
extern const bench_sgemm_impl bench_cublas;
#endif

#endif
