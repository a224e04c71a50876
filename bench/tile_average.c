/*
 * bench/tile_average.c - the tiling document's tile averages at sizes where
 * memory bandwidth decides, against a plain copy kernel on the same device.
 *
 * The average of each T x T tile of an n x n matrix reads n^2 floats and
 * writes (n/T)^2; a copy reads and writes n^2. Both are timed the same way
 * (data resident on the device, a wait after each run), and the tile
 * average's bandwidth (bytes it must move / time) is compared with the
 * copy's. A memory-bound kernel that is written well moves its bytes as
 * fast as a copy does. The library's copy kernel runs three ways: over the
 * 2D extent and over a 1D view of the same memory, since the runtime's
 * work-group shapes for the two differ, one float per thread; and over
 * the 1D view a float4 per thread, which keeps four times the bytes in
 * flight per thread (a GPU needs that many to reach its bandwidth, the
 * device's own copy does the same). The reference for all of them is
 * the device's own copy of the same bytes, what the driver does at full
 * speed: clEnqueueCopyBuffer, and cudaMemcpy from device to device on an
 * NVIDIA GPU when CUDA is there (the faster of the two).
 *
 * Two shapes of the tile average, both computing what samples/tile_average
 * does (there, one thread of each T x T tile adds up its tile_static copy):
 *   tile_static - a tile is a row of 256 threads; each sums T elements down
 *                 its column, and after a barrier one in T adds up T column
 *                 sums from tile_static memory. GPU-shaped: every load is
 *                 one float, neighbouring threads read neighbouring floats.
 *   float4 rows - one thread per T x T tile, reading its T rows as float4s,
 *                 no tile_static memory and no barrier. CPU-shaped: PoCL
 *                 runs a work-group as a loop over its work-items, and a
 *                 barrier splits that loop in two; here each work-item is
 *                 a few wide loads and one store.
 */
#include <stdlib.h>
#include <string.h>

#include "baselines.h"
#include "bench.h"

/* Threads per tile along a row: each sums T elements down its column,
 * then one in T sums T of those from tile_static memory. */
#define ROW_THREADS 256

static amp_status tile_average(amp_array_view *in, amp_array_view *out, int n, int T)
{
    amp_tiled_extent domain = amp_extent_tile_2d(amp_extent_2d(n / T, n), 1, ROW_THREADS);
    return AMP_PARALLEL_FOR_EACH(domain, t_idx,
                                 AMP_CAPTURE(in, out, AMP_CONST(T),
                                             AMP_CONST(ROW_THREADS)), {
        int band = t_idx.global[0];   // the row of tiles
        int col = t_idx.global[1];
        // Down the column: neighbouring threads read neighbouring floats.
        float sum = 0.0f;
        AMP_PRAGMA(unroll)
        for (int r = 0; r < T; r++)
            sum += in(band * T + r, col);
        // Kept transposed, columns[q][t] for column t * T + q, so that below
        // neighbouring threads read neighbouring elements (+ 1: no bank conflicts).
        tile_static float columns[T][ROW_THREADS / T + 1];
        int l = t_idx.local[1];
        columns[l % T][l / T] = sum;
        t_idx.barrier.wait();
        // Across: ROW_THREADS / T threads add up T column sums each.
        if (l < ROW_THREADS / T) {
            float total = 0.0f;
            AMP_PRAGMA(unroll)
            for (int q = 0; q < T; q++)
                total += columns[q][l];
            out(band, t_idx.tile_origin[1] / T + l) = total / (float)(T * T);
        }
    });
}

static amp_status tile_average_float4(amp_array_view *in, amp_array_view *out, int n, int T)
{
    /* Rows of 64 tiles; fewer where the matrix has fewer (--quick). */
    int across = n / T < 64 ? n / T : 64;
    amp_tiled_extent domain = amp_extent_tile_2d(amp_extent_2d(n / T, n / T), 1, across);
    return AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(in, out, AMP_CONST(T)), {
        int row = t_idx.global[0] * T;
        int col = t_idx.global[1] * T;
        // T rows of T floats, four at a time (T is a multiple of 4).
        float4 sum = (float4)(0.0f);
        AMP_PRAGMA(unroll)
        for (int r = 0; r < T; r++)
            AMP_PRAGMA(unroll)
            for (int q = 0; q < T; q += 4)
                sum += vload4(0, &in(row + r, col + q));
        out(t_idx.global[0], t_idx.global[1]) = (sum.x + sum.y + sum.z + sum.w) / (float)(T * T);
    });
}

typedef amp_status (*average_fn)(amp_array_view *in, amp_array_view *out, int n, int T);

/* The copy, over the matrix's own 2D extent, or over a 1D view of the same
 * memory, one float or one float4 (wide) per thread: whichever is faster
 * on the device is the reference. */
static amp_status copy(amp_array_view *in, amp_array_view *out, int wide)
{
    if (wide) {
        int quads = amp_array_view_get_extent(in).dims[0] / 4;
        return AMP_PARALLEL_FOR_EACH(amp_extent_1d(quads), idx, AMP_CAPTURE(in, out),
                                     { vstore4(vload4(idx[0], &in(0)), idx[0], &out(0)); });
    }
    if (amp_array_view_get_extent(in).rank == 1)
        return AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(in), idx, AMP_CAPTURE(in, out),
                                     { out(idx[0]) = in(idx[0]); });
    return AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(in), idx, AMP_CAPTURE(in, out),
                                 { out(idx) = in(idx); });
}

/* Seconds per run of average (NULL: the copy, a float4 per thread when T
 * is 4): one untimed, then the median of repeat. */
static double time_it(const bench_options *o, amp_array_view *in, amp_array_view *out, int n, int T,
                      average_fn average, double *best)
{
    double times[64];
    int runs = o->repeat < 64 ? o->repeat : 64;
    for (int r = -1; r < runs; r++) {
        double t0 = bench_now();
        bench_check(average ? average(in, out, n, T) : copy(in, out, T == 4), "tile average bench");
        bench_check(amp_accelerator_view_wait(o->av), "wait");
        if (r >= 0)
            times[r] = bench_now() - t0;
    }
    *best = bench_min(times, runs);
    return bench_median(times, runs);
}

/* gbps as a fraction of the device's copy, as text ("" when unmeasured). */
static const char *device_ratio(double gbps, double device_gbps)
{
    static char text[8][16];
    static int next;
    char *s = text[next++ % 8];
    if (device_gbps > 0)
        snprintf(s, 16, "%.3f", gbps / device_gbps);
    else
        s[0] = '\0';
    return s;
}

/* Seconds of the device's own copy of bytes from one buffer to another
 * (median of repeat after one untimed); 0 when it cannot be measured. */
static double cl_copy(const bench_options *o, const void *data, size_t bytes, double *best)
{
    bench_cl cl;
    if (bench_cl_open(&o->info, &cl) != 0)
        return 0;
    cl_int rc;
    cl_mem src = clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                                (void *)data, &rc);
    cl_mem dst = rc == CL_SUCCESS ? clCreateBuffer(cl.context, CL_MEM_READ_WRITE, bytes, NULL, &rc)
                                  : NULL;
    double times[64], t = 0;
    int runs = o->repeat < 64 ? o->repeat : 64;
    for (int r = -1; r < runs && rc == CL_SUCCESS; r++) {
        double t0 = bench_now();
        rc = clEnqueueCopyBuffer(cl.queue, src, dst, 0, 0, bytes, 0, NULL, NULL);
        if (rc == CL_SUCCESS)
            rc = clFinish(cl.queue);
        if (r >= 0)
            times[r] = bench_now() - t0;
    }
    if (rc == CL_SUCCESS) {
        *best = bench_min(times, runs);
        t = bench_median(times, runs);
    } else {
        fprintf(stderr, "clEnqueueCopyBuffer of %zu bytes: error %d\n", bytes, rc);
    }
    if (src)
        clReleaseMemObject(src);
    if (dst)
        clReleaseMemObject(dst);
    bench_cl_close(&cl);
    return t;
}

static double cuda_copy(const bench_options *o, void *data, size_t bytes, double *best)
{
#ifdef BENCH_HAVE_CUDA
    if (bench_cuda_open(o) != NULL || bench_cuda_prepare(bytes, data) != 0)
        return 0;
    double times[64], t = 0;
    int runs = o->repeat < 64 ? o->repeat : 64, ok = 1;
    for (int r = -1; r < runs && ok; r++) {
        double x = bench_cuda_copy(BENCH_CUDA_DEVICE);
        ok = x >= 0;
        if (r >= 0)
            times[r] = x;
    }
    if (ok) {
        *best = bench_min(times, runs);
        t = bench_median(times, runs);
    }
    bench_cuda_release();
    return t;
#else
    (void)o, (void)data, (void)bytes, (void)best;
    return 0;
#endif
}

void bench_tile_average(const bench_options *o)
{
    int n = o->quick ? 512 : o->info.is_emulated ? 8192 : 16384;
    printf("\n## Tile averaging (memory-bound), %d x %d floats\n\n", n, n);
    printf("- GB/s = bytes the kernel must move / median time of %d runs after a warm-up; data "
           "resident on the device\n- tile average: reads n^2 floats, writes (n/T)^2; copy: reads "
           "and writes n^2\n- vs device copy: against the device's own copy of the n^2 floats "
           "(the faster of clEnqueueCopyBuffer and, on NVIDIA, cudaMemcpy device to device); "
           "vs copy kernel: against the faster of the library's two copy kernels\n\n",
           o->repeat);
    size_t elems = (size_t)n * n;
    float *in_data = malloc(elems * sizeof *in_data);
    float *copy_data = malloc(elems * sizeof *copy_data);
    float *avg_data = malloc(elems / 16 * sizeof *avg_data);
    if (!in_data || !copy_data || !avg_data) {
        fprintf(stderr, "out of host memory for %d x %d\n", n, n);
        exit(EXIT_FAILURE);
    }
    /* Small integers: every tile sum is exact, and so is its division by T*T. */
    for (size_t i = 0; i < elems; i++)
        in_data[i] = (float)((i * 2654435761u >> 20) % 17);

    amp_array_view *in, *out;
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(n, n), in_data, &in), "in");

    FILE *csv = bench_csv_open(o, "tile_average.csv",
                               "device,kernel,n,tile,median_ms,best_ms,gbps_median,gbps_best,"
                               "vs_copy,correct,vs_device_copy");
    printf("| kernel | ms | GB/s | vs copy kernel | vs device copy | result |\n"
           "|---|---:|---:|---:|---:|---|\n");
    /* The device's own copies first, each on buffers of its own, released
     * before the library's kernels run. */
    double device_gbps = 0, best, t;
    size_t bytes = elems * sizeof(float);
    static const char *const device_names[] = {"device copy: clEnqueueCopyBuffer",
                                               "device copy: cudaMemcpy device to device"};
    static const char *const device_csv[] = {"device_copy_cl", "device_copy_cuda"};
    for (int k = 0; k < 2; k++) {
        best = 0;
        t = k == 0 ? cl_copy(o, in_data, bytes, &best) : cuda_copy(o, in_data, bytes, &best);
        if (t <= 0)
            continue;
        double gbps = 2.0 * bytes / t * 1e-9;
        printf("| %s | %.2f | %.1f | - | - | - |\n", device_names[k], t * 1e3, gbps);
        if (csv)
            fprintf(csv, "\"%s\",%s,%d,0,%.4f,%.4f,%.2f,%.2f,,1,\n", o->info.description,
                    device_csv[k], n, t * 1e3, best * 1e3, gbps, 2.0 * bytes / best * 1e-9);
        if (gbps > device_gbps)
            device_gbps = gbps;
    }
    if (device_gbps == 0)
        printf("| device copy | - | - | - | - | not measured |\n");
    /* Three copies: over the 2D extent (32 x 8 work-groups) and over a 1D
     * view of the same memory (groups of 256), a float per thread; over the
     * 1D view, a float4 per thread. The fastest is the reference. */
    double copy_gbps = 0;
    for (int way = 0; way < 3; way++) {
        int rank = way == 0 ? 2 : 1, wide = way == 2;
        amp_extent e = rank == 2 ? amp_extent_2d(n, n) : amp_extent_1d(n * n);
        amp_array_view *src = in;
        if (rank == 1)
            bench_check(amp_array_view_create_const(AMP_FLOAT, e, in_data, &src), "in, 1D");
        bench_check(amp_array_view_create(AMP_FLOAT, e, copy_data, &out), "out");
        bench_check(amp_array_view_discard_data(out), "discard");
        t = time_it(o, src, out, n, wide ? 4 : 0, NULL, &best);
        double gbps = 2.0 * elems * sizeof(float) / t * 1e-9;
        bench_check(amp_array_view_synchronize(out), "synchronize copy");
        int ok = 1;
        for (size_t i = 0; i < elems && ok; i++)
            ok = copy_data[i] == in_data[i];
        memset(copy_data, 0, elems * sizeof *copy_data);
        printf("| copy kernel, %dD domain%s | %.2f | %.1f | - | %s | %s |\n", rank,
               wide ? ", float4 per thread" : "", t * 1e3, gbps, device_ratio(gbps, device_gbps),
               ok ? "ok" : "WRONG");
        if (csv)
            fprintf(csv, "\"%s\",copy_%dd%s,%d,0,%.4f,%.4f,%.2f,%.2f,,%d,%s\n", o->info.description,
                    rank, wide ? "_float4" : "", n, t * 1e3, best * 1e3, gbps,
                    2.0 * elems * sizeof(float) / best * 1e-9, ok, device_ratio(gbps, device_gbps));
        if (gbps > copy_gbps)
            copy_gbps = gbps;
        bench_check(amp_array_view_discard_data(out), "discard");
        bench_check(amp_array_view_release(out), "release");
        if (rank == 1)
            bench_check(amp_array_view_release(src), "release");
    }
    int ok;

    static const int tiles[] = {4, 8, 16};
    static const average_fn kernels[] = {tile_average, tile_average_float4};
    static const char *kernel_names[] = {"tile_static", "float4 rows"};
    static const char *csv_names[] = {"tile_average", "tile_average_float4"};
    for (int i = 0; i < 6; i++) {
        int k = i / 3, T = tiles[i % 3], m = n / T;
        amp_array_view *avg;
        bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(m, m), avg_data, &avg), "avg");
        bench_check(amp_array_view_discard_data(avg), "discard");
        t = time_it(o, in, avg, n, T, kernels[k], &best);
        double moved = ((double)elems + (double)m * m) * sizeof(float);
        double gbps = moved / t * 1e-9;
        bench_check(amp_array_view_synchronize(avg), "synchronize averages");
        ok = 1;
        /* Every 7th row of tiles and the last one, against sums on the CPU. */
        for (int ti = 0; ti < m && ok; ti = ti == m - 1 ? m : ti + 7 < m ? ti + 7 : m - 1)
            for (int tj = 0; tj < m && ok; tj++) {
                double s = 0;
                for (int r = 0; r < T; r++)
                    for (int c = 0; c < T; c++)
                        s += in_data[(size_t)(ti * T + r) * n + (size_t)tj * T + c];
                ok = avg_data[(size_t)ti * m + tj] == (float)(s / (T * T));
            }
        printf("| tile average (%s), T = %d | %.2f | %.1f | %.2f | %s | %s |\n", kernel_names[k], T,
               t * 1e3, gbps, gbps / copy_gbps, device_ratio(gbps, device_gbps),
               ok ? "ok" : "WRONG");
        if (csv)
            fprintf(csv, "\"%s\",%s,%d,%d,%.4f,%.4f,%.2f,%.2f,%.3f,%d,%s\n", o->info.description,
                    csv_names[k], n, T, t * 1e3, best * 1e3, gbps, moved / best * 1e-9,
                    gbps / copy_gbps, ok, device_ratio(gbps, device_gbps));
        bench_check(amp_array_view_discard_data(avg), "discard");
        bench_check(amp_array_view_release(avg), "release");
    }
    if (csv)
        fclose(csv);
    bench_check(amp_array_view_release(in), "release");
    free(in_data);
    free(copy_data);
    free(avg_data);
}
