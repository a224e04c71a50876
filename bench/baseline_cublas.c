/*
 * bench/baseline_cublas.c - cuBLAS's SGEMM, NVIDIA's own, on the GPU that
 * the OpenCL device is (matched by name). FP32 throughout: the default math
 * mode, which does not use TF32 tensor cores for cublasSgemm.
 *
 * cuBLAS is column-major. A row-major C = A * B is the column-major
 * C^T = B^T * A^T, which is cublasSgemm with the operands swapped and no
 * transposes.
 */
#include "baselines.h"

#include <string.h>

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

static cublasHandle_t handle;
static int opened;
static float *a_dev, *b_dev, *c_dev;
static int m, n, k;

static const char *open_cublas(const bench_options *o)
{
    if (opened)
        return NULL;
    /* The CUDA device with the OpenCL device's name (baseline_cuda.c). */
    const char *why = bench_cuda_open(o);
    if (why)
        return why;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
        return "cuBLAS could not start";
    cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
    opened = 1;
    return NULL;
}

static int setup(const float *A, const float *B, int M, int N, int K)
{
    m = M, n = N, k = K;
    size_t as = (size_t)M * K * sizeof(float), bs = (size_t)K * N * sizeof(float);
    if (cudaMalloc((void **)&a_dev, as) != cudaSuccess ||
        cudaMalloc((void **)&b_dev, bs) != cudaSuccess ||
        cudaMalloc((void **)&c_dev, (size_t)M * N * sizeof(float)) != cudaSuccess ||
        cudaMemcpy(a_dev, A, as, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy(b_dev, B, bs, cudaMemcpyHostToDevice) != cudaSuccess) {
        fprintf(stderr, "cuBLAS: device memory for %d x %d x %d failed\n", M, N, K);
        return -1;
    }
    return 0;
}

static int run(void)
{
    const float one = 1.0f, zero = 0.0f;
    cublasStatus_t st = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b_dev, n,
                                    a_dev, k, &zero, c_dev, n);
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cublasSgemm: status %d\n", (int)st);
        return -1;
    }
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
}

static int fetch(float *C)
{
    return cudaMemcpy(C, c_dev, (size_t)m * n * sizeof(float), cudaMemcpyDeviceToHost) ==
                   cudaSuccess
               ? 0
               : -1;
}

static void teardown(void)
{
    cudaFree(a_dev);
    cudaFree(b_dev);
    cudaFree(c_dev);
    a_dev = b_dev = c_dev = NULL;
}

static void close_cublas(void)
{
    teardown();
    if (opened)
        cublasDestroy(handle);
    opened = 0;
}

const bench_sgemm_impl bench_cublas = {"cuBLAS", open_cublas, setup,       run,
                                       fetch,    teardown,    close_cublas};
