/*
 * bench/bench_util.c - timing, statistics, output files, and the raw
 * OpenCL device behind an accelerator.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double bench_warm_seconds(const amp_accelerator_info *info)
{
    return info->is_emulated ? 0.25 : 0;
}

static int compare_doubles(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

double bench_median(double *samples, int n)
{
    if (n <= 0)
        return 0;
    qsort(samples, (size_t)n, sizeof samples[0], compare_doubles);
    return n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

void bench_ratio_quartiles(const double *a, const double *b, int n, double q[3])
{
    q[0] = q[1] = q[2] = 0;
    double *r = n > 0 ? malloc((size_t)n * sizeof *r) : NULL;
    if (!r)
        return;
    for (int i = 0; i < n; i++)
        r[i] = a[i] / b[i];
    q[1] = bench_median(r, n); /* sorts r */
    q[0] = r[n / 4];
    q[2] = r[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1];
    free(r);
}

double bench_min(const double *samples, int n)
{
    double m = n > 0 ? samples[0] : 0;
    for (int i = 1; i < n; i++)
        if (samples[i] < m)
            m = samples[i];
    return m;
}

int bench_parse_sizes(const char *text, int (*sizes)[3], int max)
{
    int n = 0;
    for (const char *p = text;; p++) {
        if (n == max)
            return -1;
        int *s = sizes[n++], d = 0;
        for (;;) {
            char *end;
            long v = strtol(p, &end, 10);
            if (end == p || v < 1 || v > 65536)
                return -1;
            s[d++] = (int)v;
            p = end;
            if (*p != 'x' || d == 3)
                break;
            p++;
        }
        if (d == 1)
            s[1] = s[2] = s[0];
        else if (d != 3)
            return -1;
        if (*p != ',')
            return *p ? -1 : n;
    }
}

void bench_check(amp_status status, const char *what)
{
    if (status != AMP_OK) {
        fprintf(stderr, "error: %s: %s: %s\n", what, amp_status_name(status), amp_last_error());
        exit(EXIT_FAILURE);
    }
}

FILE *bench_csv_open(const bench_options *o, const char *name, const char *header)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", o->out_dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return NULL;
    }
    fprintf(f, "%s\n", header);
    return f;
}

/* Platform and device names as OpenCL gives them. */
static void cl_name(cl_int (*get)(void *, cl_uint, size_t, void *, size_t *), void *object,
                    cl_uint param, char *buf, size_t size)
{
    buf[0] = '\0';
    if (get(object, param, size, buf, NULL) != CL_SUCCESS)
        buf[0] = '\0';
    buf[size - 1] = '\0';
}

static cl_int platform_info(void *p, cl_uint param, size_t size, void *buf, size_t *ret)
{
    return clGetPlatformInfo((cl_platform_id)p, param, size, buf, ret);
}

static cl_int device_info(void *d, cl_uint param, size_t size, void *buf, size_t *ret)
{
    return clGetDeviceInfo((cl_device_id)d, param, size, buf, ret);
}

int bench_cl_open(const amp_accelerator_info *info, bench_cl *out)
{
    /* The library gives no cl_device_id; the names find the same device.
     * Two identical devices on one platform would be told apart by their
     * order, which the library keeps too; the first one is taken. */
    memset(out, 0, sizeof *out);
    cl_platform_id platforms[16];
    cl_uint np = 0;
    if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS)
        np = 0;
    for (cl_uint p = 0; p < np && !out->device; p++) {
        char name[256];
        cl_name(platform_info, platforms[p], CL_PLATFORM_NAME, name, sizeof name);
        if (strcmp(name, info->platform) != 0)
            continue;
        cl_device_id devices[16];
        cl_uint nd = 0;
        if (clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 16, devices, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd; d++) {
            cl_name(device_info, devices[d], CL_DEVICE_NAME, name, sizeof name);
            if (strcmp(name, info->description) == 0) {
                out->platform = platforms[p];
                out->device = devices[d];
                break;
            }
        }
    }
    if (!out->device) {
        fprintf(stderr, "raw OpenCL: no device named '%s' on platform '%s'\n", info->description,
                info->platform);
        return -1;
    }
    cl_int rc;
    out->context = clCreateContext(NULL, 1, &out->device, NULL, NULL, &rc);
    if (rc == CL_SUCCESS)
        out->queue = clCreateCommandQueue(out->context, out->device, 0, &rc);
    if (rc != CL_SUCCESS) {
        fprintf(stderr, "raw OpenCL: cannot open '%s': error %d\n", info->description, rc);
        bench_cl_close(out);
        return -1;
    }
    return 0;
}

void bench_cl_close(bench_cl *cl)
{
    if (cl->queue)
        clReleaseCommandQueue(cl->queue);
    if (cl->context)
        clReleaseContext(cl->context);
    memset(cl, 0, sizeof *cl);
}
