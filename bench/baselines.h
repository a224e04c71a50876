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
#ifdef BENCH_HAVE_OPENBLAS
/* OpenBLAS with the kernels of the instruction set the OpenCL device
 * compiles for, when it chose others (a generic or SSE core on a CPU with
 * AVX2 or AVX-512; AVX-512 kernels where PoCL targets AVX2): the same
 * product in a child process started with OPENBLAS_CORETYPE set, since
 * OpenBLAS reads it only as it loads. Its open() says why it is not
 * needed. */
extern const bench_sgemm_impl bench_openblas_core;
/* The child: amp_bench --openblas-child FD M N K (baseline_openblas.c). */
int bench_openblas_child(int argc, char **argv);
#endif

/* The CUDA runtime's copies (baseline_cuda.c), when CMake found the CUDA
 * toolkit: the reference for transfers and memory-bound kernels on an
 * NVIDIA GPU. */
#ifdef BENCH_HAVE_CUDA
typedef enum bench_cuda_kind {
    BENCH_CUDA_UP_PAGEABLE,   /* cudaMemcpy host to device, from malloc memory */
    BENCH_CUDA_UP_PINNED,     /* ... from cudaMallocHost memory */
    BENCH_CUDA_DOWN_PAGEABLE, /* device to host, into malloc memory */
    BENCH_CUDA_DOWN_PINNED,   /* ... into cudaMallocHost memory */
    BENCH_CUDA_DEVICE         /* device to device */
} bench_cuda_kind;
/* NULL when a CUDA device has the OpenCL device's name (it is made
 * current), else why not. */
const char *bench_cuda_open(const bench_options *o);
/* Buffers of n bytes for the copies: two on the device, one pinned; host is
 * the pageable memory, filled by the caller (its bytes go to the device
 * buffers first). Returns 0, or -1 after a message. */
int bench_cuda_prepare(size_t n, void *host);
/* Seconds of one copy of the n bytes, finished; -1 on failure. */
double bench_cuda_copy(bench_cuda_kind kind);
void bench_cuda_release(void);
#endif

#endif
