/*
 * bench/baseline_clblast.c - CLBlast's SGEMM on the same OpenCL device,
 * through a context and queue of our own.
 *
 * CLBlast compiles its kernels for a context on first use and keeps them,
 * so one context serves every size; the first call of each size is the
 * untimed warm-up.
 */
#include "baselines.h"

#include <clblast_c.h>

static bench_cl cl;
static int opened;
static cl_mem a_buf, b_buf, c_buf;
static int m, n, k;

static const char *open_clblast(const bench_options *o)
{
    if (!opened && bench_cl_open(&o->info, &cl) != 0)
        return "the device could not be opened through raw OpenCL";
    opened = 1;
    return NULL;
}

static int setup(const float *A, const float *B, int M, int N, int K)
{
    cl_int rc;
    m = M, n = N, k = K;
    a_buf = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                           (size_t)M * K * sizeof(float), (void *)A, &rc);
    if (rc == CL_SUCCESS)
        b_buf = clCreateBuffer(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               (size_t)K * N * sizeof(float), (void *)B, &rc);
    if (rc == CL_SUCCESS)
        c_buf = clCreateBuffer(cl.context, CL_MEM_READ_WRITE, (size_t)M * N * sizeof(float), NULL,
                               &rc);
    if (rc != CL_SUCCESS) {
        fprintf(stderr, "CLBlast: buffers of %d x %d x %d: error %d\n", M, N, K, rc);
        return -1;
    }
    return 0;
}

static int run(void)
{
    CLBlastStatusCode st = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo,
                                        CLBlastTransposeNo, (size_t)m, (size_t)n, (size_t)k, 1.0f,
                                        a_buf, 0, (size_t)k, b_buf, 0, (size_t)n, 0.0f, c_buf, 0,
                                        (size_t)n, &cl.queue, NULL);
    if (st != CLBlastSuccess) {
        fprintf(stderr, "CLBlastSgemm: status %d\n", (int)st);
        return -1;
    }
    return clFinish(cl.queue) == CL_SUCCESS ? 0 : -1;
}

static int fetch(float *C)
{
    return clEnqueueReadBuffer(cl.queue, c_buf, CL_TRUE, 0, (size_t)m * n * sizeof(float), C, 0,
                               NULL, NULL) == CL_SUCCESS
               ? 0
               : -1;
}

static void teardown(void)
{
    if (a_buf)
        clReleaseMemObject(a_buf);
    if (b_buf)
        clReleaseMemObject(b_buf);
    if (c_buf)
        clReleaseMemObject(c_buf);
    a_buf = b_buf = c_buf = NULL;
}

static void close_clblast(void)
{
    teardown();
    if (opened) {
        CLBlastClearCache();
        bench_cl_close(&cl);
    }
    opened = 0;
}

const bench_sgemm_impl bench_clblast = {"CLBlast", open_clblast, setup,        run,
                                        fetch,     teardown,     close_clblast};
