/*
 * bench/transfers.c - moving data between host and device: the library's
 * views against what the device's own APIs give, in the same process, on
 * the same device, at sizes from 1 MiB up to 1 GiB (256 MiB on a CPU
 * device, and less where memory is short).
 *
 *   amp, malloc         a view over malloc memory: its upload
 *                       (amp_array_view_synchronize_to) and its download
 *                       (amp_array_view_synchronize after a kernel wrote it)
 *   amp, amp_host_alloc the same over page-locked memory from amp_host_alloc
 *   OpenCL, malloc      clEnqueueWriteBuffer / ReadBuffer, blocking, from and
 *                       to malloc memory, on a context and queue of our own
 *   OpenCL, pinned      the same from a CL_MEM_ALLOC_HOST_PTR buffer mapped
 *                       (page-locked memory as NVIDIA's OpenCL guide makes it)
 *   CUDA, pageable      cudaMemcpy from and to malloc memory (NVIDIA GPUs,
 *   CUDA, pinned        when CUDA was found), and from cudaMallocHost memory
 *
 * A second table forces each of the library's own ways of moving a view
 * (runtime/data/staging.h: direct, mapped, staged with buffers of three
 * sizes) at 16 MiB and at the largest size, so that one run shows where the
 * library's choice stands on the device; the benchmark links the static
 * library and reaches that switch, a hook for tests (core/testing.h).
 *
 * A third table measures overlap: a kernel on one array, an upload into
 * another, each alone and then the upload issued while the kernel runs.
 *
 * Every transfer is timed to its end (blocking calls, a wait where the call
 * may return before). One untimed round first, then o->repeat rounds; in a
 * round every implementation moves the data up and down in turn, so that
 * a busy moment of the machine hits all of them. The library's transfers are
 * checked in the ledger (each moves exactly the view's bytes) and their
 * data against the values that were uploaded.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "baselines.h"
#include "bench.h"
#include "core/testing.h"

enum { UP, DOWN };
enum { AMP_MALLOC, AMP_PINNED, CL_MALLOC, CL_PINNED, CUDA_PAGEABLE, CUDA_PINNED, IMPLS };

static const char *const names[IMPLS] = {"amp, malloc",    "amp, amp_host_alloc", "OpenCL, malloc",
                                         "OpenCL, pinned", "CUDA, pageable",      "CUDA, pinned"};
static const char *const csv_names[IMPLS] = {"amp_malloc", "amp_pinned",    "cl_malloc",
                                             "cl_pinned",  "cuda_pageable", "cuda_pinned"};

#define MAX_RUNS 64

/* What one size needs: the library's two views, the raw OpenCL buffers. */
typedef struct size_run {
    size_t bytes, n;
    uint32_t *amp_plain, *amp_pinned, *cl_plain, *cl_pinned;
    amp_array_view *view[2]; /* over amp_plain, amp_pinned */
    cl_mem device, pinned_buffer;
    int have[IMPLS];
    double t[IMPLS][2][MAX_RUNS];
    int ok[IMPLS][2];
} size_run;

static uint32_t value(size_t i, size_t bytes)
{
    return (uint32_t)(i * 2654435761u) ^ (uint32_t)bytes;
}

/* A few values spread over the memory are what was uploaded. */
static int spot_check(const uint32_t *p, size_t n, size_t bytes, uint32_t plus)
{
    for (size_t k = 0; k < 1024; k++) {
        size_t i = k == 1023 ? n - 1 : k * (n / 1024);
        if (p[i] != value(i, bytes) + plus)
            return 0;
    }
    return 1;
}

/* The kernel that makes the device copy newer, so that the next
 * synchronize downloads the whole view: it writes one element (the
 * analysis marks the view written) with the value it has. */
static amp_status touch(amp_array_view *v)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(v), { v(idx) = v(idx); });
}

static amp_status add_one(amp_array_view *v, size_t n)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d((int)n), idx, AMP_CAPTURE(v),
                                 { v(idx) = v(idx) + 1u; });
}

static uint64_t moved(amp_array_view *v, int dir)
{
    amp_transfer_stats s;
    bench_check(amp_array_view_get_transfers(v, &s), "transfers");
    return dir == UP ? s.upload_bytes : s.download_bytes;
}

/* One transfer of the library's view k; seconds, or -1 when the ledger or
 * the data is wrong. */
static double amp_transfer(const bench_options *o, size_run *s, int k, int dir)
{
    amp_array_view *v = s->view[k];
    if (dir == UP)
        bench_check(amp_array_view_refresh(v), "refresh");
    else {
        bench_check(touch(v), "kernel");
        bench_check(amp_accelerator_view_wait(o->av), "wait");
    }
    uint64_t before = moved(v, dir);
    double t0 = bench_now();
    /* Both are finished when they return: an upload is blocking. */
    if (dir == UP) {
        bench_check(amp_array_view_synchronize_to(v, o->av), "upload");
    } else {
        bench_check(amp_array_view_synchronize(v), "download");
    }
    double t = bench_now() - t0;
    int ok = moved(v, dir) - before == s->bytes &&
             spot_check(k ? s->amp_pinned : s->amp_plain, s->n, s->bytes, 1);
    return ok ? t : -1;
}

static double cl_transfer(const bench_cl *cl, size_run *s, int pinned, int dir)
{
    uint32_t *host = pinned ? s->cl_pinned : s->cl_plain;
    double t0 = bench_now();
    cl_int rc = dir == UP ? clEnqueueWriteBuffer(cl->queue, s->device, CL_TRUE, 0, s->bytes, host,
                                                 0, NULL, NULL)
                          : clEnqueueReadBuffer(cl->queue, s->device, CL_TRUE, 0, s->bytes, host, 0,
                                                NULL, NULL);
    double t = bench_now() - t0;
    if (rc != CL_SUCCESS) {
        fprintf(stderr, "raw OpenCL transfer of %zu bytes: error %d\n", s->bytes, rc);
        return -1;
    }
    return dir == DOWN && !spot_check(host, s->n, s->bytes, 0) ? -1 : t;
}

static double cuda_transfer(size_run *s, int pinned, int dir)
{
#ifdef BENCH_HAVE_CUDA
    static const bench_cuda_kind kinds[2][2] = {{BENCH_CUDA_UP_PAGEABLE, BENCH_CUDA_DOWN_PAGEABLE},
                                                {BENCH_CUDA_UP_PINNED, BENCH_CUDA_DOWN_PINNED}};
    double t = bench_cuda_copy(kinds[pinned][dir]);
    return dir == DOWN && !pinned && !spot_check(s->cl_plain, s->n, s->bytes, 0) ? -1 : t;
#else
    (void)s, (void)pinned, (void)dir;
    return -1;
#endif
}

/* Make what a size needs; 0, or -1 when memory is short (the size is
 * skipped). */
static int prepare(const bench_options *o, const bench_cl *cl, int cuda, size_run *s)
{
    s->n = s->bytes / sizeof(uint32_t);
    s->amp_plain = malloc(s->bytes);
    s->cl_plain = malloc(s->bytes);
    if (!s->amp_plain || !s->cl_plain)
        return -1;
    if (amp_host_alloc(s->bytes, o->av, (void **)&s->amp_pinned) != AMP_OK) {
        fprintf(stderr, "amp_host_alloc(%zu): %s\n", s->bytes, amp_last_error());
        return -1;
    }
    for (size_t i = 0; i < s->n; i++)
        s->amp_plain[i] = s->amp_pinned[i] = s->cl_plain[i] = value(i, s->bytes);
    uint32_t *mem[2] = {s->amp_plain, s->amp_pinned};
    for (int k = 0; k < 2; k++) {
        bench_check(amp_array_view_create(AMP_UINT, amp_extent_1d((int)s->n), mem[k], &s->view[k]),
                    "view");
        /* Once, checked whole: up, + 1 on the device, down. */
        bench_check(add_one(s->view[k], s->n), "kernel");
        bench_check(amp_array_view_synchronize(s->view[k]), "synchronize");
        for (size_t i = 0; i < s->n; i++)
            if (mem[k][i] != value(i, s->bytes) + 1) {
                fprintf(stderr, "%s: element %zu is wrong after a round trip\n", names[k], i);
                return -1;
            }
        s->have[k] = 1;
    }
    if (cl) {
        cl_int rc;
        s->device = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, s->bytes, NULL, &rc);
        if (rc == CL_SUCCESS)
            s->pinned_buffer = clCreateBuffer(cl->context,
                                              CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, s->bytes,
                                              NULL, &rc);
        if (rc == CL_SUCCESS)
            s->cl_pinned = clEnqueueMapBuffer(cl->queue, s->pinned_buffer, CL_TRUE,
                                              CL_MAP_READ | CL_MAP_WRITE, 0, s->bytes, 0, NULL,
                                              NULL, &rc);
        if (rc == CL_SUCCESS) {
            memcpy(s->cl_pinned, s->cl_plain, s->bytes);
            s->have[CL_MALLOC] = s->have[CL_PINNED] = 1;
        } else {
            fprintf(stderr, "raw OpenCL: %zu bytes: error %d; its columns are left out\n", s->bytes,
                    rc);
        }
    }
#ifdef BENCH_HAVE_CUDA
    if (cuda && bench_cuda_prepare(s->bytes, s->cl_plain) == 0)
        s->have[CUDA_PAGEABLE] = s->have[CUDA_PINNED] = 1;
#else
    (void)cuda;
#endif
    return 0;
}

static void release(const bench_cl *cl, size_run *s)
{
    for (int k = 0; k < 2; k++)
        if (s->view[k]) {
            bench_check(amp_array_view_discard_data(s->view[k]), "discard");
            bench_check(amp_array_view_release(s->view[k]), "release");
        }
    if (s->amp_pinned)
        bench_check(amp_host_free(s->amp_pinned), "amp_host_free");
    if (s->cl_pinned)
        clEnqueueUnmapMemObject(cl->queue, s->pinned_buffer, s->cl_pinned, 0, NULL, NULL);
    if (cl)
        clFinish(cl->queue);
    if (s->pinned_buffer)
        clReleaseMemObject(s->pinned_buffer);
    if (s->device)
        clReleaseMemObject(s->device);
#ifdef BENCH_HAVE_CUDA
    if (s->have[CUDA_PAGEABLE])
        bench_cuda_release();
#endif
    free(s->amp_plain);
    free(s->cl_plain);
    memset(s, 0, sizeof *s);
}

static void force(test_transfer_path path, size_t slot)
{
    amp__test_set_transfer_path(path, slot, 0);
}

/* Each of the library's paths, forced, on a view of bytes of malloc
 * memory; one untimed round, then repeat rounds in which the paths take
 * turns. */
static void paths_table(const bench_options *o, size_t bytes, FILE *csv)
{
    static const struct {
        const char *name;
        test_transfer_path path;
        size_t slot;
    } paths[] = {{"the library's choice", TEST_PATH_AUTO, 0},
                 {"direct (clEnqueueWrite/ReadBuffer)", TEST_PATH_DIRECT, 0},
                 {"mapped, copies on several threads", TEST_PATH_MAPPED, 0},
                 {"staged, 4 MiB buffers", TEST_PATH_STAGED, (size_t)4 << 20},
                 {"staged, 16 MiB buffers", TEST_PATH_STAGED, (size_t)16 << 20},
                 {"staged, 64 MiB buffers", TEST_PATH_STAGED, (size_t)64 << 20}};
    enum { NPATHS = sizeof paths / sizeof paths[0] };
    size_run s;
    memset(&s, 0, sizeof s);
    s.bytes = bytes;
    s.n = bytes / sizeof(uint32_t);
    s.amp_plain = malloc(bytes);
    if (!s.amp_plain)
        return;
    for (size_t i = 0; i < s.n; i++)
        s.amp_plain[i] = value(i, bytes) + 1;
    bench_check(amp_array_view_create(AMP_UINT, amp_extent_1d((int)s.n), s.amp_plain, &s.view[0]),
                "view");
    int runs = o->repeat < MAX_RUNS ? o->repeat : MAX_RUNS;
    double t[NPATHS][2][MAX_RUNS];
    int ok[NPATHS][2];
    for (int p = 0; p < NPATHS; p++)
        ok[p][UP] = ok[p][DOWN] = 1;
    for (int r = -1; r < runs; r++)
        for (int p = 0; p < NPATHS; p++) {
            force(paths[p].path, paths[p].slot);
            for (int dir = UP; dir <= DOWN; dir++) {
                double x = amp_transfer(o, &s, 0, dir);
                if (x < 0)
                    ok[p][dir] = 0;
                if (r >= 0)
                    t[p][dir][r] = x < 0 ? 0 : x;
            }
        }
    force(TEST_PATH_AUTO, 0);
    printf("\n### The library's ways of moving a view, forced: %zu MiB of malloc memory\n\n",
           bytes >> 20);
    printf("| path | upload GB/s | download GB/s |\n|---|---:|---:|\n");
    for (int p = 0; p < NPATHS; p++) {
        printf("| %s |", paths[p].name);
        for (int dir = UP; dir <= DOWN; dir++) {
            double median = bench_median(t[p][dir], runs), best = bench_min(t[p][dir], runs);
            double gbps = median > 0 ? bytes / median * 1e-9 : 0;
            printf(" %.2f%s |", gbps, ok[p][dir] ? "" : "!");
            if (csv)
                fprintf(csv, "\"%s\",\"%s\",%s,%zu,%.4f,%.4f,%.3f,%.3f,%d,%d\n",
                        o->info.description, paths[p].name, dir == UP ? "upload" : "download",
                        bytes, median * 1e3, best * 1e3, gbps, best > 0 ? bytes / best * 1e-9 : 0,
                        runs, ok[p][dir]);
        }
        printf("\n");
    }
    bench_check(amp_array_view_discard_data(s.view[0]), "discard");
    bench_check(amp_array_view_release(s.view[0]), "release");
    free(s.amp_plain);
}

/* A kernel that works on a for a while: iters rounds of arithmetic per
 * element, no memory traffic beyond one read and one write. */
static amp_status busy(amp_array *a, int n, int iters)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(n), idx, AMP_CAPTURE(a, iters), {
        float x = a(idx);
        for (int k = 0; k < iters; k++)
            x = x * 0.999f + 1.0f;
        a(idx) = x;
    });
}

static double time_busy(const bench_options *o, amp_array *a, int n, int iters)
{
    double t0 = bench_now();
    bench_check(busy(a, n, iters), "kernel");
    bench_check(amp_accelerator_view_wait(o->av), "wait");
    return bench_now() - t0;
}

/* An upload into array b from host memory h while a kernel works on array
 * a: nothing orders the two, so the upload may run beside the kernel
 * (staging.h: large uploads go on the device's transfer queue). The kernel
 * is made to take about as long as the upload; the overlap is the part of
 * the shorter one that the two together save: (kernel + upload - both) /
 * the shorter, 0 when one waits for the other, 1 when the shorter is
 * hidden. */
static void overlap_table(const bench_options *o, size_t bytes)
{
    int n = (int)(bytes / sizeof(float));
    float *plain = malloc(bytes), *pinned = NULL, *out = malloc(bytes);
    if (!plain || !out || amp_host_alloc(bytes, o->av, (void **)&pinned) != AMP_OK) {
        free(plain);
        free(out);
        return;
    }
    for (int i = 0; i < n; i++)
        plain[i] = pinned[i] = (float)(i % 1000);
    amp_array *a, *b;
    bench_check(amp_array_create(AMP_FLOAT, amp_extent_1d(n), o->av, &a), "array a");
    bench_check(amp_array_create(AMP_FLOAT, amp_extent_1d(n), o->av, &b), "array b");
    int runs = o->repeat < MAX_RUNS ? o->repeat : MAX_RUNS;
    printf("\n### Overlap: an upload of %zu MiB into one array while a kernel works on another\n\n"
           "| host memory | kernel alone, ms | upload alone, ms | both, ms | overlap |\n"
           "|---|---:|---:|---:|---:|\n",
           bytes >> 20);
    float *hosts[2] = {plain, pinned};
    static const char *const host_names[2] = {"malloc", "amp_host_alloc"};
    for (int k = 0; k < 2; k++) {
        /* The upload alone; then a kernel as long. */
        double tc[MAX_RUNS], tk[MAX_RUNS], tb[MAX_RUNS];
        for (int r = -1; r < runs; r++) {
            double t0 = bench_now();
            bench_check(AMP_COPY(hosts[k], b), "upload");
            if (r >= 0)
                tc[r] = bench_now() - t0;
        }
        double copy = bench_median(tc, runs);
        int iters = 16;
        double t = time_busy(o, a, n, iters);
        for (int step = 0; step < 3 && t > 0; step++) {
            double scale = copy / t;
            iters = (int)(iters * scale) < 1           ? 1
                    : (int)(iters * scale) > (1 << 20) ? 1 << 20
                                                       : (int)(iters * scale);
            t = time_busy(o, a, n, iters);
        }
        int ok = 1;
        for (int r = -1; r < runs; r++) {
            double t0 = bench_now();
            bench_check(busy(a, n, iters), "kernel");
            bench_check(amp_accelerator_view_wait(o->av), "wait");
            double t1 = bench_now();
            bench_check(busy(a, n, iters), "kernel");
            bench_check(AMP_COPY(hosts[k], b), "upload");
            bench_check(amp_accelerator_view_wait(o->av), "wait");
            double t2 = bench_now();
            if (r >= 0) {
                tk[r] = t1 - t0;
                tb[r] = t2 - t1;
            }
        }
        bench_check(AMP_COPY(b, out), "download");
        for (int i = 0; i < n && ok; i += 4097)
            ok = out[i] == hosts[k][i];
        double kernel = bench_median(tk, runs), both = bench_median(tb, runs);
        double shorter = kernel < copy ? kernel : copy;
        printf("| %s | %.2f | %.2f | %.2f | %.2f%s |\n", host_names[k], kernel * 1e3, copy * 1e3,
               both * 1e3, shorter > 0 ? (kernel + copy - both) / shorter : 0,
               ok ? "" : " (WRONG)");
    }
    bench_check(amp_array_release(a), "release");
    bench_check(amp_array_release(b), "release");
    bench_check(amp_host_free(pinned), "amp_host_free");
    free(plain);
    free(out);
}

/* The sizes: 1 MiB to 1 GiB by fours, up to what the device allocates at
 * once (half of it: two views live at a time) and an eighth of the host's
 * memory (six buffers of the size at a time); 256 MiB at most on a CPU
 * device, whose transfers are host copies. */
static size_t largest(const bench_options *o)
{
    size_t max = o->quick              ? (size_t)4 << 20
                 : o->info.is_emulated ? (size_t)256 << 20
                                       : (size_t)1 << 30;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && (size_t)pages * (size_t)page / 8 < max)
        max = (size_t)pages * (size_t)page / 8;
    if (o->info.max_allocation / 2 < max)
        max = (size_t)(o->info.max_allocation / 2);
    return max;
}

void bench_transfers(const bench_options *o)
{
    printf("\n## Transfers between host and device\n\n");
    bench_cl cl;
    int raw = bench_cl_open(&o->info, &cl) == 0;
    int cuda = 0;
#ifdef BENCH_HAVE_CUDA
    const char *why = bench_cuda_open(o);
    cuda = why == NULL;
    if (why)
        printf("- cudaMemcpy: not measured (%s)\n", why);
#else
    if (!o->info.is_emulated)
        printf("- cudaMemcpy: not measured (no CUDA toolkit at build time)\n");
#endif
    const char *page_ref = cuda ? "CUDA, pageable" : "OpenCL, malloc";
    const char *pin_ref = cuda ? "CUDA, pinned" : "OpenCL, pinned";
    printf(
        "- GB/s = bytes / median time of %d runs after a warm-up, each to its end; the "
        "implementations take turns in every run\n"
        "- amp: a view's upload (amp_array_view_synchronize_to) and download "
        "(amp_array_view_synchronize after a kernel wrote it); each checked in the ledger "
        "(exactly the view's bytes) and its data (`!` marks a wrong one)\n"
        "- malloc / pageable: amp, malloc against %s; pinned: amp, amp_host_alloc against %s\n\n",
        o->repeat, page_ref, pin_ref);
    printf("| MiB | direction |");
    for (int i = 0; i < IMPLS; i++)
        if (i < CUDA_PAGEABLE || cuda)
            printf(" %s |", names[i]);
    printf(" malloc / pageable | pinned / pinned |\n|---:|---|");
    for (int i = 0; i < IMPLS + 2; i++)
        if (i < CUDA_PAGEABLE || i >= IMPLS || cuda)
            printf("---:|");
    printf("\n");
    FILE *csv = bench_csv_open(o, "transfers.csv",
                               "device,impl,direction,bytes,median_ms,best_ms,gbps_median,"
                               "gbps_best,runs,correct");
    int runs = o->repeat < MAX_RUNS ? o->repeat : MAX_RUNS;
    size_t max = largest(o);
    static size_run s;
    for (size_t bytes = (size_t)1 << 20; bytes <= max; bytes *= 4) {
        memset(&s, 0, sizeof s);
        s.bytes = bytes;
        if (prepare(o, raw ? &cl : NULL, cuda, &s) != 0) {
            printf("| %zu | - | not measured: out of memory |\n", bytes >> 20);
            release(raw ? &cl : NULL, &s);
            break;
        }
        for (int i = 0; i < IMPLS; i++)
            s.ok[i][UP] = s.ok[i][DOWN] = 1;
        for (int r = -1; r < runs; r++)
            for (int i = 0; i < IMPLS; i++)
                for (int dir = UP; dir <= DOWN; dir++) {
                    if (!s.have[i])
                        continue;
                    double t = i <= AMP_PINNED  ? amp_transfer(o, &s, i, dir)
                               : i <= CL_PINNED ? cl_transfer(&cl, &s, i == CL_PINNED, dir)
                                                : cuda_transfer(&s, i == CUDA_PINNED, dir);
                    if (t < 0)
                        s.ok[i][dir] = 0;
                    if (r >= 0)
                        s.t[i][dir][r] = t < 0 ? 0 : t;
                }
        for (int dir = UP; dir <= DOWN; dir++) {
            double gbps[IMPLS] = {0};
            printf("| %zu | %s |", bytes >> 20, dir == UP ? "upload" : "download");
            for (int i = 0; i < IMPLS; i++) {
                if (i >= CUDA_PAGEABLE && !cuda)
                    continue;
                if (!s.have[i]) {
                    printf(" - |");
                    continue;
                }
                double best = bench_min(s.t[i][dir], runs);
                double median = bench_median(s.t[i][dir], runs);
                gbps[i] = median > 0 ? bytes / median * 1e-9 : 0;
                printf(" %.2f%s |", gbps[i], s.ok[i][dir] ? "" : "!");
                if (csv)
                    fprintf(csv, "\"%s\",%s,%s,%zu,%.4f,%.4f,%.3f,%.3f,%d,%d\n",
                            o->info.description, csv_names[i], dir == UP ? "upload" : "download",
                            bytes, median * 1e3, best * 1e3, gbps[i],
                            best > 0 ? bytes / best * 1e-9 : 0, runs, s.ok[i][dir]);
            }
            int page = cuda ? CUDA_PAGEABLE : CL_MALLOC, pin = cuda ? CUDA_PINNED : CL_PINNED;
            if (gbps[page] > 0)
                printf(" %.2f |", gbps[AMP_MALLOC] / gbps[page]);
            else
                printf(" - |");
            if (gbps[pin] > 0)
                printf(" %.2f |\n", gbps[AMP_PINNED] / gbps[pin]);
            else
                printf(" - |\n");
        }
        release(raw ? &cl : NULL, &s);
    }
    if (max < ((size_t)1 << 30))
        printf("\nSizes stop at %zu MiB here (%s).\n", max >> 20,
               o->quick ? "--quick"
               : o->info.is_emulated
                   ? "a CPU device: 256 MiB at most, or less where memory is short"
                   : "half the largest allocation, or an eighth of host memory");
    if (csv)
        fclose(csv);
    if (raw)
        bench_cl_close(&cl);

    FILE *paths = bench_csv_open(o, "transfer_paths.csv",
                                 "device,path,direction,bytes,median_ms,best_ms,gbps_median,"
                                 "gbps_best,runs,correct");
    size_t sizes[2] = {(size_t)16 << 20, max};
    for (int i = 0; i < 2; i++)
        if (sizes[i] <= max && (i == 0 || sizes[1] > sizes[0]))
            paths_table(o, sizes[i], paths);
    if (paths)
        fclose(paths);
    overlap_table(o, max / 4 > ((size_t)16 << 20) ? max / 4 : max);
}
