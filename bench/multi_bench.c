/*
 * bench/multi_bench.c - one computation across a set of accelerators
 * against one accelerator of it (docs/performance.md, "Across
 * accelerators"):
 *
 *   sgemm      kernel 6 at SIZE (default 8192), by blocks of rows of C
 *              (samples/sgemm_progression/sgemm_set.c), against kernel 6 on
 *              the set's first view alone: with the data resident on the
 *              accelerators, and with A and B uploaded and C downloaded in
 *              each run (A and B written on the host before it, C
 *              discarded, then read on the host after it)
 *   tile       tile averages of an N x N matrix (default 16384) in 16 x 16
 *              tiles, one launch that the runtime splits by rows of tiles,
 *              data resident, against the same launch on a set of one
 *   dispatch   a tiny kernel launched over a set of one view against the
 *              plain launch on that view, pipelined, microseconds per
 *              launch, the two in turns by blocks of 2000 launches, the
 *              ratio the median of the blocks' ratios
 *
 *   links      the bandwidth of host memory to one accelerator alone, and
 *              to each of the set at once (an amp_copy_async each, MiB per
 *              accelerator, default 256), both ways, from memory
 *              page-locked for each accelerator, for the first only, and
 *              from malloc: what bounds SGEMM's transfers (not run unless
 *              asked)
 *
 *   multi_bench [--only sgemm,tile,dispatch,links] [--sgemm n|MxNxK]
 *               [--tile N] [--links MiB] [--repeat R] [--pinned]
 *
 * The set is every accelerator of the default's kind (every GPU; the parts
 * of the CPU under AMP_SPLIT_CPU=N). Each figure is the median of R runs
 * (default 5), each run waited for on every view. Every result is checked:
 * SGEMM's inputs are small integers, so C must match the host's sums
 * exactly; the split tile averages must equal one accelerator's bit for
 * bit. --pinned puts A, B and C in page-locked memory (amp_host_alloc).
 * Prints a Markdown table, one row per figure, with the ratio.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "sgemm.h"

enum { MAX_VIEWS = 16, TILE = 16 };

static amp_accelerator_set *set, *alone;
static size_t views;
static amp_accelerator_view *view[MAX_VIEWS];
static sgemm_tuning tunings[MAX_VIEWS];
static sgemm_workspace workspaces[MAX_VIEWS], alone_workspace;

static void wait_all(void)
{
    for (size_t k = 0; k < views; k++)
        bench_check(amp_accelerator_view_wait(view[k]), "waiting for a view");
}

static void row(const char *what, const char *unit, double one, double many, double scale)
{
    printf("| %s | %.3f %s | %.3f %s | **%.3fx** |\n", what, one * scale, unit, many * scale, unit,
           one / many);
    fflush(stdout);
}

/* ---- SGEMM ---- */

typedef struct product {
    sgemm_operands op;
    float *A, *B, *C;
    int pinned;
} product;

static void product_run(product *p, int on_set)
{
    if (on_set) {
        bench_check(sgemm_6_tuned_on_set(set, &p->op, tunings, workspaces), "kernel 6 on the set");
    } else {
        sgemm_plan plan = sgemm_tuning_pick(&tunings[0], p->op.M, p->op.N, p->op.K);
        bench_check(sgemm_6_tuned_on(view[0], &p->op, &plan, &alone_workspace), "kernel 6");
    }
}

/* One timed run: data resident, or with uploads and the download. */
static double product_time(product *p, int on_set, int transfers)
{
    double t0 = bench_now();
    if (transfers) {
        bench_check(amp_array_view_refresh(p->op.a), "refresh");
        bench_check(amp_array_view_refresh(p->op.b), "refresh");
        bench_check(amp_array_view_discard_data(p->op.c), "discard");
    }
    product_run(p, on_set);
    if (transfers)
        bench_check(amp_array_view_synchronize(p->op.c), "synchronize");
    wait_all();
    return bench_now() - t0;
}

static void *host_alloc(size_t bytes, int pinned)
{
    void *p = NULL;
    if (pinned)
        bench_check(amp_host_alloc(bytes, view[0], &p), "amp_host_alloc");
    else
        p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "error: out of host memory (%zu bytes)\n", bytes);
        exit(EXIT_FAILURE);
    }
    return p;
}

static void host_free(void *p, int pinned)
{
    if (pinned)
        bench_check(amp_host_free(p), "amp_host_free");
    else
        free(p);
}

/* C against the host's sums on 16 rows spread over it. */
static int product_right(const product *p)
{
    int M = p->op.M, N = p->op.N, K = p->op.K;
    for (int s = 0; s < 16; s++) {
        int i = (int)((long long)s * (M - 1) / 15);
        for (int j = 0; j < N; j++) {
            double sum = 0;
            for (int k = 0; k < K; k++)
                sum += (double)p->A[(size_t)i * K + k] * p->B[(size_t)k * N + j];
            if (p->C[(size_t)i * N + j] != (float)sum)
                return 0;
        }
    }
    return 1;
}

static void bench_sgemm(int M, int N, int K, int repeat, int pinned)
{
    product p = {{NULL, NULL, NULL, M, N, K}, NULL, NULL, NULL, pinned};
    p.A = host_alloc((size_t)M * K * sizeof(float), pinned);
    p.B = host_alloc((size_t)K * N * sizeof(float), pinned);
    p.C = host_alloc((size_t)M * N * sizeof(float), pinned);
    unsigned x = 1;
    for (size_t i = 0; i < (size_t)M * K; i++)
        p.A[i] = (float)((int)(((x = x * 1664525u + 1013904223u) >> 16) % 9u) - 4);
    for (size_t i = 0; i < (size_t)K * N; i++)
        p.B[i] = (float)((int)(((x = x * 1664525u + 1013904223u) >> 16) % 9u) - 4);
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(M, K), p.A, &p.op.a), "A");
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(K, N), p.B, &p.op.b), "B");
    bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(M, N), p.C, &p.op.c), "C");
    char what[160];
    double t[2][2]; /* [transfers][on_set] */
    for (int transfers = 0; transfers < 2; transfers++)
        for (int on_set = 0; on_set < 2; on_set++) {
            double samples[64];
            /* The first run compiles and uploads; the timed ones find both done. */
            product_time(&p, on_set, 1);
            bench_check(amp_array_view_synchronize(p.op.c), "synchronize");
            if (!product_right(&p)) {
                fprintf(stderr, "error: SGEMM %d x %d x %d %s gave a wrong C\n", M, N, K,
                        on_set ? "on the set" : "on one accelerator");
                exit(EXIT_FAILURE);
            }
            for (int r = 0; r < repeat && r < 64; r++)
                samples[r] = product_time(&p, on_set, transfers);
            t[transfers][on_set] = bench_median(samples, repeat < 64 ? repeat : 64);
        }
    double flops = 2.0 * M * N * (double)K;
    snprintf(what, sizeof what, "SGEMM %dx%dx%d kernel 6, data resident (ms; %.2f / %.2f TFLOP/s)",
             M, N, K, flops / t[0][0] * 1e-12, flops / t[0][1] * 1e-12);
    row(what, "ms", t[0][0], t[0][1], 1e3);
    snprintf(what, sizeof what, "SGEMM %dx%dx%d kernel 6, with the uploads and the download%s", M,
             N, K, pinned ? " (page-locked)" : "");
    row(what, "ms", t[1][0], t[1][1], 1e3);
    bench_check(amp_array_view_release(p.op.a), "release");
    bench_check(amp_array_view_release(p.op.b), "release");
    bench_check(amp_array_view_release(p.op.c), "release");
    host_free(p.A, pinned);
    host_free(p.B, pinned);
    host_free(p.C, pinned);
}

/* ---- Tile averages ---- */

/* clang-format off */
static amp_status tile_averages(amp_accelerator_set *s, amp_array_view *in, amp_array_view *out,
                                int n)
{
    return AMP_PARALLEL_FOR_EACH_ON(s, amp_extent_tile_2d(amp_extent_2d(n, n), TILE, TILE),
                                              t_idx, AMP_CAPTURE(in, out, AMP_CONST(TILE)), {
        tile_static float sums[TILE * TILE];
        int me = t_idx.local[0] * TILE + t_idx.local[1];
        sums[me] = in(t_idx);
        t_idx.barrier.wait();
        for (int step = TILE * TILE / 2; step > 0; step /= 2) {
            if (me < step)
                sums[me] += sums[me + step];
            t_idx.barrier.wait();
        }
        if (me == 0)
            out(t_idx.tile) = sums[0] / (float)(TILE * TILE);
    });
}
/* clang-format on */

static void bench_tile(int n, int repeat)
{
    int tiles = n / TILE;
    size_t cells = (size_t)n * n, outs = (size_t)tiles * tiles;
    float *in = malloc(cells * sizeof *in), *out[2];
    out[0] = malloc(outs * sizeof(float));
    out[1] = malloc(outs * sizeof(float));
    if (!in || !out[0] || !out[1]) {
        fprintf(stderr, "error: out of host memory for %d x %d\n", n, n);
        exit(EXIT_FAILURE);
    }
    for (size_t i = 0; i < cells; i++)
        in[i] = (float)((i * 2654435761u) % 1000u) * 0.01f;
    amp_array_view *vin, *vout[2];
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(n, n), in, &vin), "in");
    double t[2];
    for (int on_set = 0; on_set < 2; on_set++) {
        amp_accelerator_set *s = on_set ? set : alone;
        bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(tiles, tiles), out[on_set],
                                          &vout[on_set]),
                    "out");
        bench_check(tile_averages(s, vin, vout[on_set], n), "tile averages"); /* compile, upload */
        wait_all();
        double samples[64];
        for (int r = 0; r < repeat && r < 64; r++) {
            double t0 = bench_now();
            bench_check(tile_averages(s, vin, vout[on_set], n), "tile averages");
            wait_all();
            samples[r] = bench_now() - t0;
        }
        t[on_set] = bench_median(samples, repeat < 64 ? repeat : 64);
        bench_check(amp_array_view_synchronize(vout[on_set]), "synchronize");
    }
    if (memcmp(out[0], out[1], outs * sizeof(float)) != 0) {
        fprintf(stderr, "error: the split tile averages differ from one accelerator's\n");
        exit(EXIT_FAILURE);
    }
    char what[160];
    double bytes = (double)cells * sizeof(float);
    snprintf(what, sizeof what,
             "tile averages %dx%d, 16x16 tiles, data resident (ms; %.1f / %.1f GB/s)", n, n,
             bytes / t[0] * 1e-9, bytes / t[1] * 1e-9);
    row(what, "ms", t[0], t[1], 1e3);
    bench_check(amp_array_view_release(vin), "release");
    bench_check(amp_array_view_release(vout[0]), "release");
    bench_check(amp_array_view_release(vout[1]), "release");
    free(in);
    free(out[0]);
    free(out[1]);
}

/* ---- The links: host memory to each accelerator, one alone and all at once ---- */

enum { OWN_PINNED, FIRST_PINNED, PAGEABLE };

/* Seconds to copy bytes from hosts[k] into arrays[k] (back: the other way)
 * for the first n views at once: an asynchronous copy each, then every
 * wait. */
static double copies(amp_array **arrays, void **hosts, size_t n, int back)
{
    amp_completion *done[MAX_VIEWS];
    double t0 = bench_now();
    for (size_t k = 0; k < n; k++)
        bench_check(back ? AMP_COPY_ASYNC(arrays[k], hosts[k], &done[k])
                         : AMP_COPY_ASYNC(hosts[k], arrays[k], &done[k]),
                    "amp_copy_async");
    for (size_t k = 0; k < n; k++) {
        bench_check(amp_completion_wait(done[k]), "a copy");
        amp_completion_release(done[k]);
    }
    return bench_now() - t0;
}

/* What bounds SGEMM's transfers on the set: the host-to-device and
 * device-to-host bandwidth of one accelerator alone against that of all at
 * once, from memory page-locked for each accelerator, from memory
 * page-locked for the first only (one amp_host_alloc, as a program that
 * gives a set one matrix has), and from malloc memory. */
static void bench_links(int mib, int repeat)
{
    size_t bytes = (size_t)mib << 20, count = bytes / sizeof(float);
    amp_array *arrays[MAX_VIEWS];
    void *mem[3][MAX_VIEWS];
    for (size_t k = 0; k < views; k++) {
        bench_check(amp_array_create(AMP_FLOAT, amp_extent_1d((int)count), view[k], &arrays[k]),
                    "an array");
        bench_check(amp_host_alloc(bytes, view[k], &mem[OWN_PINNED][k]), "amp_host_alloc");
        bench_check(amp_host_alloc(bytes, view[0], &mem[FIRST_PINNED][k]), "amp_host_alloc");
        mem[PAGEABLE][k] = host_alloc(bytes, 0);
    }
    static const char *const kinds[3] = {"page-locked for each", "page-locked for the first",
                                         "malloc"};
    static const char *const ways[2] = {"host to device", "device to host"};
    float value = 0;
    int ok = 1;
    for (int kind = 0; kind < 3; kind++)
        for (int back = 0; back < 2; back++) {
            double samples[2][64];
            int runs = repeat < 64 ? repeat : 64;
            for (int r = 0; r < runs; r++)
                for (int all = 0; all < 2; all++) {
                    size_t n = all ? views : 1;
                    /* Uploads write a new value first; downloads overwrite
                     * the host's copy, to find the last value uploaded. */
                    value += back ? 0 : 1;
                    for (size_t k = 0; k < n; k++)
                        for (size_t i = 0; i < count; i++)
                            ((float *)mem[kind][k])[i] = back ? -1.0f : value;
                    samples[all][r] = copies(arrays, mem[kind], n, back) / (double)n;
                    for (size_t k = 0; back && k < n; k++)
                        ok &= ((float *)mem[kind][k])[0] == value &&
                              ((float *)mem[kind][k])[count - 1] == value;
                }
            /* Per accelerator's bytes: one alone, and all at once. */
            double one = bench_median(samples[0], runs), each = bench_median(samples[1], runs);
            printf("| %d MiB %s, %s: GB/s of one alone, and of all %zu at once | %.1f GB/s | %.1f "
                   "GB/s | **%.2fx** |\n",
                   mib, ways[back], kinds[kind], views, bytes / one / 1e9, bytes / each / 1e9,
                   one / each);
        }
    if (!ok) {
        fprintf(stderr, "error: a copy did not move what it was given\n");
        exit(EXIT_FAILURE);
    }
    for (size_t k = 0; k < views; k++) {
        bench_check(amp_array_release(arrays[k]), "release");
        bench_check(amp_host_free(mem[OWN_PINNED][k]), "amp_host_free");
        bench_check(amp_host_free(mem[FIRST_PINNED][k]), "amp_host_free");
        host_free(mem[PAGEABLE][k], 0);
    }
}

/* ---- A set of one against a plain launch ---- */

/* clang-format off */
static amp_status tiny_plain(amp_array_view *v)
{
    return AMP_PARALLEL_FOR_EACH_ON(view[0], amp_extent_1d(256), idx, AMP_CAPTURE(v), {
        v(idx[0]) += 1.0f;
    });
}

static amp_status tiny_set(amp_array_view *v)
{
    return AMP_PARALLEL_FOR_EACH_ON(alone, amp_extent_1d(256), idx, AMP_CAPTURE(v), {
        v(idx[0]) += 1.0f;
    });
}
/* clang-format on */

/* Launches alternate between the two in short blocks, each block after one
 * untimed launch of its side, and the figure is the median of the
 * block-by-block ratios (as bench/dispatch.c takes its own): on the GPU
 * machine the time of a long run moves by more than the difference asked
 * about, and blocks next to each other see the same moment of it. */
static void bench_dispatch_set(int repeat)
{
    enum { PER_BLOCK = 2000, MAX_BLOCKS = 201 };
    static float data[256];
    amp_array_view *v;
    bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_1d(256), data, &v), "view");
    amp_status (*const launch[2])(amp_array_view *) = {tiny_plain, tiny_set};
    static double t[2][MAX_BLOCKS];
    int blocks = 20 * repeat + 1 < MAX_BLOCKS ? 20 * repeat + 1 : MAX_BLOCKS;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < 100; i++)
            bench_check(launch[k](v), "first launches");
    wait_all();
    long launches = 200;
    for (int b = 0; b < blocks; b++)
        for (int j = 0; j < 2; j++) {
            int k = (b + j) % 2;
            bench_check(launch[k](v), "launch");
            wait_all();
            double t0 = bench_now();
            for (int i = 0; i < PER_BLOCK; i++)
                bench_check(launch[k](v), "launch");
            wait_all();
            t[k][b] = (bench_now() - t0) / PER_BLOCK;
            launches += PER_BLOCK + 1;
        }
    bench_check(amp_array_view_synchronize(v), "synchronize");
    if (data[0] != (float)launches || data[255] != (float)launches) {
        fprintf(stderr, "error: the tiny launches counted %g, not %ld\n", data[0], launches);
        exit(EXIT_FAILURE);
    }
    double q[3];
    bench_ratio_quartiles(t[1], t[0], blocks, q);
    double plain = bench_median(t[0], blocks), one = bench_median(t[1], blocks);
    row("a tiny launch over a set of one view, pipelined (us per launch; plain | set)", "us", plain,
        one, 1e6);
    printf("(a set of one costs %.3fx a plain launch: the median of %d block-by-block ratios, "
           "quartiles %.3f to %.3f)\n",
           q[1], blocks, q[0], q[2]);
    bench_check(amp_array_view_release(v), "release");
}

int main(int argc, char **argv)
{
    const char *only = "sgemm,tile,dispatch";
    int link_mib = 256;
    int M = 8192, N = 8192, K = 8192, n_tile = 16384, repeat = 5, pinned = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "--sgemm") == 0 && i + 1 < argc) {
            const char *s = argv[++i];
            if (sscanf(s, "%dx%dx%d", &M, &N, &K) != 3 && sscanf(s, "%d", &M) == 1)
                N = K = M;
        } else if (strcmp(argv[i], "--tile") == 0 && i + 1 < argc) {
            n_tile = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--links") == 0 && i + 1 < argc) {
            link_mib = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            repeat = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--pinned") == 0) {
            pinned = 1;
        } else {
            fprintf(stderr,
                    "usage: %s [--only sgemm,tile,dispatch,links] [--sgemm n|MxNxK] [--tile N]"
                    " [--links MiB] [--repeat R] [--pinned]\n",
                    argv[0]);
            return EXIT_FAILURE;
        }
    }
    if (repeat < 1 || link_mib < 1 || link_mib > 4096 || n_tile < TILE || n_tile % TILE || M < 1 ||
        N < 1 || K < 1)
        return EXIT_FAILURE;
    bench_check(amp_accelerator_set_create(NULL, 0, NULL, &set), "the set");
    views = amp_accelerator_set_size(set);
    if (views > MAX_VIEWS)
        return EXIT_FAILURE;
    for (size_t k = 0; k < views; k++) {
        amp_accelerator_info info;
        bench_check(amp_accelerator_set_get_view(set, k, &view[k]), "a view");
        bench_check(amp_accelerator_get_info(amp_accelerator_view_get_accelerator(view[k]), &info),
                    "info");
        sgemm_tune_load(&info, &tunings[k], NULL);
        printf("accelerator %zu of %zu: %s (%s)\n", k + 1, views, info.description, info.version);
    }
    bench_check(amp_accelerator_set_create(&view[0], 1, NULL, &alone), "a set of one");
    printf("\n| what | one accelerator | the set of %zu | speed-up |\n|---|---:|---:|---:|\n",
           views);
    if (strstr(only, "sgemm"))
        bench_sgemm(M, N, K, repeat, pinned);
    if (strstr(only, "tile"))
        bench_tile(n_tile, repeat);
    if (strstr(only, "dispatch"))
        bench_dispatch_set(repeat);
    if (strstr(only, "links"))
        bench_links(link_mib, repeat);
    for (size_t k = 0; k < views; k++)
        sgemm_workspace_release(&workspaces[k]);
    sgemm_workspace_release(&alone_workspace);
    bench_check(amp_accelerator_set_release(alone), "release");
    bench_check(amp_accelerator_set_release(set), "release");
    return EXIT_SUCCESS;
}
