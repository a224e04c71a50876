/*
 * samples/sgemm_progression/sgemm_blas.c - the BLAS a program would call
 * instead of kernel 6, on the same product, so that the table shows the
 * two side by side: OpenBLAS's cblas_sgemm on a CPU device, cuBLAS on an
 * NVIDIA GPU (the CUDA device of the same name), CLBlast on another GPU.
 * Each is compiled in only when the build found it (SGEMM_HAVE_OPENBLAS,
 * SGEMM_HAVE_CUBLAS, SGEMM_HAVE_CLBLAST: samples/progression.cmake); the
 * sample builds and runs without any of them, and says so.
 *
 * Timed as the kernels are: one untimed run, then up to repeat runs with
 * the product finished after each, A and B already where the BLAS computes.
 */
#define _POSIX_C_SOURCE 200809L
/* OpenCL 1.2's calls, which every device here has (CLBlast's queue). */
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS

#include "sgemm_blas.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef SGEMM_HAVE_OPENBLAS
#include <cblas.h>
#endif
#ifdef SGEMM_HAVE_CUBLAS
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#endif
#ifdef SGEMM_HAVE_CLBLAST
#include <clblast_c.h>
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One BLAS: start it on A and B, run one product, fetch C, stop. */
typedef struct blas_ops {
    int (*start)(const amp_accelerator_info *info, const float *A, const float *B, int M, int N,
                 int K);
    int (*run)(void);
    int (*fetch)(float *C);
    void (*stop)(void);
} blas_ops;

#if defined(SGEMM_HAVE_OPENBLAS) || defined(SGEMM_HAVE_CUBLAS) || defined(SGEMM_HAVE_CLBLAST)
static int m, n, k; /* the product's sizes, for the one that runs */
#endif

#ifdef SGEMM_HAVE_OPENBLAS
static const float *host_a, *host_b;
static float *host_c;

static int openblas_start(const amp_accelerator_info *info, const float *A, const float *B, int M,
                          int N, int K)
{
    (void)info;
    host_a = A, host_b = B, m = M, n = N, k = K;
    host_c = malloc((size_t)M * N * sizeof *host_c);
    return host_c ? 0 : -1;
}

static int openblas_run(void)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, host_a, k, host_b, n,
                0.0f, host_c, n);
    return 0;
}

static int openblas_fetch(float *C)
{
    memcpy(C, host_c, (size_t)m * n * sizeof *C);
    return 0;
}

static void openblas_stop(void)
{
    free(host_c);
    host_c = NULL;
}

static const blas_ops openblas = {openblas_start, openblas_run, openblas_fetch, openblas_stop};
#endif

#ifdef SGEMM_HAVE_CUBLAS
static cublasHandle_t handle;
static float *dev_a, *dev_b, *dev_c;

/* The CUDA device with the OpenCL device's name; -1 when none. */
static int cuda_device(const char *name)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess)
        return -1;
    for (int i = 0; i < count; i++) {
        struct cudaDeviceProp prop;
        if (cudaGetDeviceProperties(&prop, i) == cudaSuccess && strcmp(prop.name, name) == 0)
            return i;
    }
    return -1;
}

static void cublas_stop(void)
{
    cudaFree(dev_a);
    cudaFree(dev_b);
    cudaFree(dev_c);
    dev_a = dev_b = dev_c = NULL;
    if (handle)
        cublasDestroy(handle);
    handle = NULL;
}

static int cublas_start(const amp_accelerator_info *info, const float *A, const float *B, int M,
                        int N, int K)
{
    m = M, n = N, k = K;
    size_t as = (size_t)M * K * sizeof(float), bs = (size_t)K * N * sizeof(float);
    int device = cuda_device(info->description);
    if (device < 0 || cudaSetDevice(device) != cudaSuccess ||
        cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS ||
        cudaMalloc((void **)&dev_a, as) != cudaSuccess ||
        cudaMalloc((void **)&dev_b, bs) != cudaSuccess ||
        cudaMalloc((void **)&dev_c, (size_t)M * N * sizeof(float)) != cudaSuccess ||
        cudaMemcpy(dev_a, A, as, cudaMemcpyHostToDevice) != cudaSuccess ||
        cudaMemcpy(dev_b, B, bs, cudaMemcpyHostToDevice) != cudaSuccess) {
        cublas_stop();
        return -1;
    }
    return 0;
}

/* Row-major C = A * B is column-major C^T = B^T * A^T. */
static int cublas_run(void)
{
    const float one = 1.0f, zero = 0.0f;
    if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, dev_b, n, dev_a, k, &zero,
                    dev_c, n) != CUBLAS_STATUS_SUCCESS)
        return -1;
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
}

static int cublas_fetch(float *C)
{
    size_t bytes = (size_t)m * n * sizeof(float);
    return cudaMemcpy(C, dev_c, bytes, cudaMemcpyDeviceToHost) == cudaSuccess ? 0 : -1;
}

static const blas_ops cublas = {cublas_start, cublas_run, cublas_fetch, cublas_stop};
#endif

#ifdef SGEMM_HAVE_CLBLAST
static cl_context context;
static cl_command_queue queue;
static cl_mem buf_a, buf_b, buf_c;

static void clblast_stop(void)
{
    if (buf_a)
        clReleaseMemObject(buf_a);
    if (buf_b)
        clReleaseMemObject(buf_b);
    if (buf_c)
        clReleaseMemObject(buf_c);
    if (queue)
        clReleaseCommandQueue(queue);
    if (context)
        clReleaseContext(context);
    buf_a = buf_b = buf_c = NULL;
    queue = NULL;
    context = NULL;
}

/* The OpenCL device of the accelerator, found by its platform's and its
 * own name (the library does not hand out its cl_device_id). */
static cl_device_id cl_device(const amp_accelerator_info *info)
{
    cl_platform_id platforms[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS)
        return NULL;
    for (cl_uint p = 0; p < np && p < 16; p++) {
        char name[256] = "";
        clGetPlatformInfo(platforms[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
        cl_device_id devices[16];
        cl_uint nd = 0;
        if (strcmp(name, info->platform) != 0 ||
            clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && d < 16; d++) {
            clGetDeviceInfo(devices[d], CL_DEVICE_NAME, sizeof name, name, NULL);
            if (strcmp(name, info->description) == 0)
                return devices[d];
        }
    }
    return NULL;
}

static int clblast_start(const amp_accelerator_info *info, const float *A, const float *B, int M,
                         int N, int K)
{
    m = M, n = N, k = K;
    cl_device_id device = cl_device(info);
    cl_int rc = device ? CL_SUCCESS : CL_DEVICE_NOT_FOUND;
    if (rc == CL_SUCCESS)
        context = clCreateContext(NULL, 1, &device, NULL, NULL, &rc);
    if (rc == CL_SUCCESS)
        queue = clCreateCommandQueue(context, device, 0, &rc);
    if (rc == CL_SUCCESS)
        buf_a = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               (size_t)M * K * sizeof(float), (void *)A, &rc);
    if (rc == CL_SUCCESS)
        buf_b = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               (size_t)K * N * sizeof(float), (void *)B, &rc);
    if (rc == CL_SUCCESS)
        buf_c = clCreateBuffer(context, CL_MEM_READ_WRITE, (size_t)M * N * sizeof(float), NULL,
                               &rc);
    if (rc != CL_SUCCESS) {
        clblast_stop();
        return -1;
    }
    return 0;
}

static int clblast_run(void)
{
    if (CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, (size_t)m,
                     (size_t)n, (size_t)k, 1.0f, buf_a, 0, (size_t)k, buf_b, 0, (size_t)n, 0.0f,
                     buf_c, 0, (size_t)n, &queue, NULL) != CLBlastSuccess)
        return -1;
    return clFinish(queue) == CL_SUCCESS ? 0 : -1;
}

static int clblast_fetch(float *C)
{
    return clEnqueueReadBuffer(queue, buf_c, CL_TRUE, 0, (size_t)m * n * sizeof(float), C, 0,
                               NULL, NULL) == CL_SUCCESS
               ? 0
               : -1;
}

static const blas_ops clblast = {clblast_start, clblast_run, clblast_fetch, clblast_stop};
#endif

/* The BLAS for the device and its name, or NULL with why in name. */
static const blas_ops *choose(const amp_accelerator_info *info, char *name, size_t size)
{
    if (info->is_emulated) {
#ifdef SGEMM_HAVE_OPENBLAS
        snprintf(name, size, "OpenBLAS (%s, %d threads)", openblas_get_corename(),
                 openblas_get_num_threads());
        return &openblas;
#else
        snprintf(name, size, "OpenBLAS: not built in (libopenblas-dev)");
        return NULL;
#endif
    }
#ifdef SGEMM_HAVE_CUBLAS
    if (cuda_device(info->description) >= 0) {
        snprintf(name, size, "cuBLAS");
        return &cublas;
    }
#endif
#ifdef SGEMM_HAVE_CLBLAST
    snprintf(name, size, "CLBlast");
    return &clblast;
#else
    snprintf(name, size, "a GPU BLAS: none built in (CUDA's cuBLAS, libclblast-dev)");
    return NULL;
#endif
}

int sgemm_blas_time(const amp_accelerator_info *info, const float *A, const float *B, float *C,
                    int M, int N, int K, int repeat, double *seconds, int *runs, char *name,
                    size_t size)
{
    *runs = 0;
    const blas_ops *blas = choose(info, name, size);
    if (!blas)
        return 1;
    if (blas->start(info, A, B, M, N, K) != 0) {
        snprintf(name + strlen(name), size - strlen(name), ": could not start");
        return -1;
    }
    /* The first run untimed, as each kernel's. */
    int rc = blas->run();
    double spent = 0;
    while (rc == 0 && *runs < repeat && *runs < 64 && (*runs == 0 || spent < 3.0)) {
        double t0 = now();
        rc = blas->run();
        seconds[*runs] = now() - t0;
        spent += seconds[(*runs)++];
    }
    if (rc == 0)
        rc = blas->fetch(C);
    blas->stop();
    if (rc != 0) {
        snprintf(name + strlen(name), size - strlen(name), ": a product failed");
        return -1;
    }
    return 0;
}
