/*
 * bench/dispatch.c - what a parallel_for_each costs on top of OpenCL: the
 * same tiny kernel launched through the library (on a kernel-cache hit)
 * and through a raw clEnqueueNDRangeKernel on our own context and queue of
 * the same device.
 *
 * "The same kernel" literally: the raw side builds the source the runtime
 * generated (dumped through AMP_DUMP_KERNELS) and passes the arguments the
 * generated kernel declares: the view's buffer, offset and extent, then
 * the domain. Both launch 1024 threads in groups of 256, as the runtime
 * chooses for this extent. Two ways:
 *   pipelined  - LAUNCHES launches back to back, one wait at the end;
 *   wait each  - a launch and a wait (clFinish) each time.
 * The figure is time per launch, the median of ROUNDS rounds. Pipelined,
 * amp and raw rounds alternate, so that a busy moment of the machine hits
 * both. With a wait each, the sides take turns in a rotating order, in
 * blocks of 25 launches timed on their own, each block after one untimed
 * launch on its own queue: a launch and wait is tens of microseconds,
 * mostly waking the device's threads, and on a shared machine a round of
 * 2000 is slowed by whatever else ran then; in short alternating blocks,
 * the same moment slows every side. A
 * third column sets the four arguments before each raw launch, as a
 * program must when the data changes: the part of the difference that is
 * argument setting.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "device/accel.h"
#include "device/queue.h"

#define ELEMS 1024
#define GROUP 256
#define ROUNDS 7

/* The generated source of the tiny kernel, and its kernel name. */
static char *find_generated(const char *dir, char *name, size_t size)
{
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return NULL;
    char *source = NULL;
    struct dirent *e;
    while (!source && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "amp_dispatch_tiny_", 18) != 0 || len < 4 || len - 3 >= size ||
            strcmp(e->d_name + len - 3, ".cl") != 0)
            continue;
        snprintf(name, size, "%.*s", (int)(len - 3), e->d_name);
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        source = n > 0 ? malloc((size_t)n + 1) : NULL;
        if (source && fread(source, 1, (size_t)n, f) == (size_t)n) {
            source[n] = '\0';
        } else {
            free(source);
            source = NULL;
        }
        fclose(f);
    }
    closedir(d);
    return source;
}

typedef struct raw_kernel {
    bench_cl cl;
    cl_program program;
    cl_kernel kernel;
    cl_mem buffer;
} raw_kernel;

/* The generated kernel's four arguments: the view's buffer, its offset
 * and extent (32-bit for a small view), and the domain. */
static cl_int set_args(raw_kernel *r)
{
    cl_int offset = 0, extent = ELEMS, domain = ELEMS;
    cl_int rc = clSetKernelArg(r->kernel, 0, sizeof r->buffer, &r->buffer);
    if (rc == CL_SUCCESS)
        rc = clSetKernelArg(r->kernel, 1, sizeof offset, &offset);
    if (rc == CL_SUCCESS)
        rc = clSetKernelArg(r->kernel, 2, sizeof extent, &extent);
    if (rc == CL_SUCCESS)
        rc = clSetKernelArg(r->kernel, 3, sizeof domain, &domain);
    return rc;
}

static int raw_open(const bench_options *o, const char *source, const char *name, raw_kernel *r)
{
    memset(r, 0, sizeof *r);
    /* AMP_BENCH_RAW_ON_LIBRARY_QUEUE=1: the raw side launches in the
     * library's own context and on its default queue, to tell the driver's
     * cost in the library's context from the library's own steps
     * (docs/performance.md). */
    if (getenv("AMP_BENCH_RAW_ON_LIBRARY_QUEUE")) {
        amp_accelerator_view *av = NULL;
        bench_check(amp_accelerator_get_default_view(NULL, &av), "default view");
        r->cl.device = av->acc->device;
        r->cl.context = av->acc->context;
        r->cl.queue = av->queue;
        clRetainContext(r->cl.context);
        clRetainCommandQueue(r->cl.queue);
        fprintf(stderr, "raw OpenCL: on the library's own context and queue\n");
    } else if (bench_cl_open(&o->info, &r->cl) != 0)
        return -1;
    cl_int rc;
    r->program = clCreateProgramWithSource(r->cl.context, 1, &source, NULL, &rc);
    if (rc == CL_SUCCESS)
        rc = clBuildProgram(r->program, 1, &r->cl.device, "", NULL, NULL);
    if (rc == CL_SUCCESS)
        r->kernel = clCreateKernel(r->program, name, &rc);
    cl_uint nargs = 0;
    if (rc == CL_SUCCESS)
        rc = clGetKernelInfo(r->kernel, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
    if (rc == CL_SUCCESS && nargs != 4) {
        fprintf(stderr,
                "raw OpenCL: %s has %u parameters; expected buffer, offset, extent and"
                " domain\n",
                name, nargs);
        return -1;
    }
    float zeros[ELEMS] = {0};
    if (rc == CL_SUCCESS)
        r->buffer = clCreateBuffer(r->cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   sizeof zeros, zeros, &rc);
    if (rc == CL_SUCCESS)
        rc = set_args(r);
    if (rc != CL_SUCCESS) {
        fprintf(stderr, "raw OpenCL: building %s: error %d\n", name, rc);
        return -1;
    }
    return 0;
}

static void raw_close(raw_kernel *r)
{
    if (r->buffer)
        clReleaseMemObject(r->buffer);
    if (r->kernel)
        clReleaseKernel(r->kernel);
    if (r->program)
        clReleaseProgram(r->program);
    bench_cl_close(&r->cl);
}

/* Seconds per launch over n launches; wait_each: clFinish after each;
 * with_args: set the four arguments before each launch too, as a program
 * that launches a kernel on changing data must (the library does). */
static double raw_round(raw_kernel *r, int n, int wait_each, int with_args)
{
    size_t global = ELEMS, local = GROUP;
    double t0 = bench_now();
    for (int i = 0; i < n; i++) {
        if (with_args && set_args(r) != CL_SUCCESS) {
            fprintf(stderr, "raw OpenCL: clSetKernelArg failed\n");
            exit(EXIT_FAILURE);
        }
        if (clEnqueueNDRangeKernel(r->cl.queue, r->kernel, 1, NULL, &global, &local, 0, NULL,
                                   NULL) != CL_SUCCESS) {
            fprintf(stderr, "raw OpenCL: clEnqueueNDRangeKernel failed\n");
            exit(EXIT_FAILURE);
        }
        if (wait_each)
            clFinish(r->cl.queue);
    }
    clFinish(r->cl.queue);
    return (bench_now() - t0) / n;
}

static double amp_round(const bench_options *o, amp_array_view *v, int n, int wait_each)
{
    double t0 = bench_now();
    for (int i = 0; i < n; i++) {
        bench_check(bench_tiny_kernel(v), "tiny kernel");
        if (wait_each)
            bench_check(amp_accelerator_view_wait(o->av), "wait");
    }
    bench_check(amp_accelerator_view_wait(o->av), "wait");
    return (bench_now() - t0) / n;
}

/* n launches with a wait each, of each of the three sides (amp, raw, raw
 * setting its arguments) in blocks of BLOCK, the sides taking turns block
 * by block in a rotating order; the seconds per launch of each side go to
 * per_launch[0..2]. Blocks rather than single launches, and each block
 * after one untimed launch: the first launch after the other queue was
 * used costs more (the device's threads or the driver move to the other
 * queue), the library's side always comes after the other queue and the
 * raw sides share one, and a program that waits after each launch
 * launches on one queue. */
#define BLOCK 25
/* One side's round: seconds per launch of n launches with a wait each. */
static double side_round(const bench_options *o, amp_array_view *v, raw_kernel *r, int side, int n)
{
    return side == 0 ? amp_round(o, v, n, 1) : raw_round(r, n, 1, side == 2);
}

static void paired_round(const bench_options *o, amp_array_view *v, raw_kernel *r, int n,
                         double per_launch[3])
{
    double sum[3] = {0, 0, 0};
    for (int b = 0; b < n / BLOCK; b++)
        for (int k = 0; k < 3; k++) {
            int side = (b + k) % 3;
            side_round(o, v, r, side, 1); /* untimed: the queue's switch */
            sum[side] += side_round(o, v, r, side, BLOCK) * BLOCK;
        }
    for (int k = 0; k < 3; k++)
        per_launch[k] = sum[k] / (n / BLOCK * BLOCK);
}


void bench_dispatch(const bench_options *o)
{
    printf("\n## Dispatch overhead: a tiny kernel (%d threads, v(i) += 1)\n\n", ELEMS);
    float host[ELEMS] = {0};
    amp_array_view *v;
    bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_1d(ELEMS), host, &v), "view");
    /* Compile, upload and dump the generated source; later calls are cache hits. */
    bench_check(bench_tiny_kernel(v), "tiny kernel");
    bench_check(amp_accelerator_view_wait(o->av), "wait");
    long amp_launches = 1, raw_launches = 0;

    char name[256];
    char *source = find_generated(o->dump_dir, name, sizeof name);
    raw_kernel raw;
    if (!source || raw_open(o, source, name, &raw) != 0) {
        printf("Not measured: the generated kernel could not be %s.\n",
               source ? "built through raw OpenCL" : "found (AMP_DUMP_KERNELS)");
        free(source);
        amp_array_view_release(v);
        return;
    }
    free(source);

    int pipelined = o->quick ? 200 : 20000, waited = o->quick ? 50 : 2000;
    static const char *mode_names[2] = {"pipelined", "wait each"};
    int counts[2] = {pipelined, waited};
    double amp_t[2][ROUNDS], raw_t[2][ROUNDS], args_t[2][ROUNDS];
    /* A round of each first, untimed: queues and threads warm. */
    amp_round(o, v, 100, 0);
    raw_round(&raw, 100, 0, 0);
    amp_launches += 100;
    raw_launches += 100;
    for (int r = 0; r < ROUNDS; r++) {
        amp_t[0][r] = amp_round(o, v, counts[0], 0);
        raw_t[0][r] = raw_round(&raw, counts[0], 0, 0);
        args_t[0][r] = raw_round(&raw, counts[0], 0, 1);
        double per_launch[3];
        paired_round(o, v, &raw, counts[1], per_launch);
        amp_t[1][r] = per_launch[0];
        raw_t[1][r] = per_launch[1];
        args_t[1][r] = per_launch[2];
        amp_launches += counts[0] + counts[1] + counts[1] / BLOCK;
        raw_launches += 2 * (counts[0] + counts[1] + counts[1] / BLOCK);
    }

    /* Both sides did what they were asked: every element counts its launches. */
    float back[ELEMS];
    bench_check(amp_array_view_synchronize(v), "synchronize");
    clEnqueueReadBuffer(raw.cl.queue, raw.buffer, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL);
    int ok = host[0] == (float)amp_launches && host[ELEMS - 1] == (float)amp_launches &&
             back[0] == (float)raw_launches && back[ELEMS - 1] == (float)raw_launches;

    FILE *csv = bench_csv_open(o, "dispatch.csv",
                               "device,mode,launches,amp_us_median,raw_us_median,amp_us_best,"
                               "raw_us_best,ratio_median,raw_args_us_median,raw_args_us_best");
    printf("- microseconds per launch, median of %d rounds (best in brackets); pipelined, amp and\n"
           "  raw rounds alternate; with a wait each, blocks of %d launches alternate;\n"
           "  amp / raw compares medians\n"
           "- results %s: every element counts its launches\n\n",
           ROUNDS, BLOCK, ok ? "checked" : "WRONG");
    printf("| mode | launches per round | amp_parallel_for_each | raw clEnqueueNDRangeKernel | "
           "amp / raw | raw, clSetKernelArg x4 each time |\n|---|---:|---:|---:|---:|---:|\n");
    for (int m = 0; m < 2; m++) {
        double ab = bench_min(amp_t[m], ROUNDS), rb = bench_min(raw_t[m], ROUNDS);
        double xb = bench_min(args_t[m], ROUNDS);
        double am = bench_median(amp_t[m], ROUNDS), rm = bench_median(raw_t[m], ROUNDS);
        double xm = bench_median(args_t[m], ROUNDS);
        printf("| %s | %d | %.2f (%.2f) | %.2f (%.2f) | %.2f | %.2f (%.2f) |\n", mode_names[m],
               counts[m], am * 1e6, ab * 1e6, rm * 1e6, rb * 1e6, am / rm, xm * 1e6, xb * 1e6);
        if (csv)
            fprintf(csv, "\"%s\",%s,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n", o->info.description,
                    mode_names[m], counts[m], am * 1e6, rm * 1e6, ab * 1e6, rb * 1e6, am / rm,
                    xm * 1e6, xb * 1e6);
    }
    if (csv)
        fclose(csv);
    raw_close(&raw);
    bench_check(amp_array_view_release(v), "release");
}
