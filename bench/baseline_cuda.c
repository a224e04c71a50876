/*
 * bench/baseline_cuda.c - the CUDA runtime's own copies on the GPU that the
 * OpenCL device is (matched by name): cudaMemcpy between host and device,
 * from pageable (malloc) and from pinned (cudaMallocHost) memory, and from
 * device to device. What a CUDA program would get on the same GPU, the
 * reference of the transfer section and of the memory-bound kernels.
 *
 * Every copy is timed to its end: cudaMemcpy may return before a copy
 * from pageable memory reaches the device, and a device-to-device copy
 * runs on while the host goes on, so each is followed by
 * cudaDeviceSynchronize.
 */
#include "baselines.h"

#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

static int opened;
static char *device, *device2, *pinned;
static void *pageable;
static size_t bytes;

const char *bench_cuda_open(const bench_options *o)
{
    static char why[160];
    if (opened)
        return NULL;
    if (o->info.is_emulated)
        return "the device is not a GPU";
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return "no CUDA device";
    /* The CUDA device with the OpenCL device's name. */
    int chosen = -1;
    for (int i = 0; i < count && chosen < 0; i++) {
        struct cudaDeviceProp prop;
        if (cudaGetDeviceProperties(&prop, i) == cudaSuccess &&
            strcmp(prop.name, o->info.description) == 0)
            chosen = i;
    }
    if (chosen < 0) {
        snprintf(why, sizeof why, "no CUDA device is named '%s'", o->info.description);
        return why;
    }
    if (cudaSetDevice(chosen) != cudaSuccess)
        return "cudaSetDevice failed";
    opened = 1;
    return NULL;
}

int bench_cuda_prepare(size_t n, void *host)
{
    bench_cuda_release();
    bytes = n;
    pageable = host;
    if (cudaMalloc((void **)&device, n) != cudaSuccess ||
        cudaMalloc((void **)&device2, n) != cudaSuccess ||
        cudaMallocHost((void **)&pinned, n) != cudaSuccess) {
        fprintf(stderr, "CUDA: %zu bytes on the device or pinned on the host failed\n", n);
        bench_cuda_release();
        return -1;
    }
    memcpy(pinned, host, n);
    if (cudaMemcpy(device2, pinned, n, cudaMemcpyHostToDevice) != cudaSuccess) {
        bench_cuda_release();
        return -1;
    }
    return 0;
}

double bench_cuda_copy(bench_cuda_kind kind)
{
    double t0 = bench_now();
    cudaError_t rc;
    switch (kind) {
    case BENCH_CUDA_UP_PAGEABLE:
        rc = cudaMemcpy(device, pageable, bytes, cudaMemcpyHostToDevice);
        break;
    case BENCH_CUDA_UP_PINNED:
        rc = cudaMemcpy(device, pinned, bytes, cudaMemcpyHostToDevice);
        break;
    case BENCH_CUDA_DOWN_PAGEABLE:
        rc = cudaMemcpy(pageable, device, bytes, cudaMemcpyDeviceToHost);
        break;
    case BENCH_CUDA_DOWN_PINNED:
        rc = cudaMemcpy(pinned, device, bytes, cudaMemcpyDeviceToHost);
        break;
    default: rc = cudaMemcpy(device, device2, bytes, cudaMemcpyDeviceToDevice); break;
    }
    if (rc == cudaSuccess)
        rc = cudaDeviceSynchronize();
    if (rc != cudaSuccess) {
        fprintf(stderr, "cudaMemcpy: %s\n", cudaGetErrorString(rc));
        return -1;
    }
    return bench_now() - t0;
}

void bench_cuda_release(void)
{
    if (device)
        cudaFree(device);
    if (device2)
        cudaFree(device2);
    if (pinned)
        cudaFreeHost(pinned);
    device = device2 = pinned = NULL;
    pageable = NULL;
    bytes = 0;
}
