/*
 * One computation across several accelerators: a set of accelerator views
 * (amp/accelerator_set.h) with SGEMM and tile averaging, each checked, and
 * timed against one accelerator of the set.
 *
 *   multi_device [--check] [--sgemm SIZE] [--tile N] [--repeat R]
 *
 * The set is every accelerator of the default's kind: every GPU, or the
 * parts of the CPU under AMP_SPLIT_CPU=N (two halves of a CPU are about as
 * fast as the whole, so expect a speed-up near 1 there).
 *
 * - Tile averages of an N x N matrix (default 4096) in 16 x 16 tiles: each
 *   tile sums its elements in tile_static memory, and its first thread
 *   writes the tile's own element of the averages, out(t_idx.tile). The
 *   runtime proves from the body that the parts write apart, and splits
 *   the one launch by rows of tiles.
 * - SGEMM kernel 6 at SIZE (n or MxNxK, default 1024): the kernel writes C
 *   at indices it computes, which the runtime cannot prove apart, so the
 *   progression's sgemm_set.c splits it by blocks of rows of C instead.
 *
 * Before timing, each accelerator runs the product alone once, and the set
 * takes the speeds measured as its weights (amp_accelerator_set_set_weights).
 * Times are with the data resident on the accelerators (after a first run
 * that compiles and uploads), a wait on every view after each run; the
 * median of R runs (default 5).
 *
 * --check runs each once on a small size and prints only whether the
 * results were right and equal to one accelerator's, bit for bit: the
 * sample's test, on two halves of the CPU.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <amp/amp.h>

#include "../common/sample_check.h"
#include "../sgemm_progression/sgemm.h"

enum { MAX_VIEWS = 16, TILE = 16 };

static amp_accelerator_set *set;
static size_t views;
static amp_accelerator_view *view[MAX_VIEWS];

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int compare_doubles(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static void wait_all(void)
{
    for (size_t k = 0; k < views; k++)
        check(amp_accelerator_view_wait(view[k]));
}

/* The median time of repeat runs of run(arg), each waited for. */
static double median_time(void (*run)(void *), void *arg, int repeat)
{
    double times[64];
    int n = repeat < 64 ? repeat : 64;
    for (int i = 0; i < n; i++) {
        double t0 = now();
        run(arg);
        wait_all();
        times[i] = now() - t0;
    }
    qsort(times, (size_t)n, sizeof times[0], compare_doubles);
    return times[n / 2];
}

/* ---- Tile averages: one launch, split by the runtime ---- */

/* The average of each TILE x TILE tile of in, into out, over the set s
 * (a set of one view: that view). */
static amp_status tile_averages(amp_accelerator_set *s, amp_array_view *in, amp_array_view *out,
                                int n)
{
    return AMP_PARALLEL_FOR_EACH_ON(s, amp_extent_tile_2d(amp_extent_2d(n, n), TILE, TILE),
                                              t_idx, AMP_CAPTURE(in, out, AMP_CONST(TILE)), {
        tile_static float sums[TILE * TILE];
        int me = t_idx.local[0] * TILE + t_idx.local[1];
        sums[me] = in(t_idx);
        t_idx.barrier.wait();
        // A tree: half the threads add the other half's sums, and so on.
        for (int step = TILE * TILE / 2; step > 0; step /= 2) {
            if (me < step)
                sums[me] += sums[me + step];
            t_idx.barrier.wait();
        }
        if (me == 0)
            out(t_idx.tile) = sums[0] / (float)(TILE * TILE);
    });
}

typedef struct tile_run {
    amp_accelerator_set *target;
    amp_array_view *in, *out;
    int n;
} tile_run;

static void run_tiles(void *arg)
{
    tile_run *r = arg;
    check(tile_averages(r->target, r->in, r->out, r->n));
}

/* Nonzero when out holds in's tile averages (the host adds in double). */
static int averages_right(const float *in, const float *out, int n)
{
    int tiles = n / TILE;
    for (int tr = 0; tr < tiles; tr++)
        for (int tc = 0; tc < tiles; tc++) {
            double sum = 0;
            for (int r = 0; r < TILE; r++)
                for (int c = 0; c < TILE; c++)
                    sum += in[(size_t)(tr * TILE + r) * n + tc * TILE + c];
            double want = sum / (TILE * TILE), got = out[(size_t)tr * tiles + tc];
            if (fabs(got - want) > 1e-4 * (1.0 + fabs(want)))
                return 0;
        }
    return 1;
}

static void tiles(amp_accelerator_set *alone, int n, int check_only, int repeat)
{
    int tiles = n / TILE;
    size_t cells = (size_t)n * n, outs = (size_t)tiles * tiles;
    float *in = malloc(cells * sizeof *in);
    float *one = malloc(outs * sizeof *one), *split = malloc(outs * sizeof *split);
    if (!in || !one || !split) {
        fprintf(stderr, "error: out of host memory for %d x %d\n", n, n);
        exit(EXIT_FAILURE);
    }
    for (size_t i = 0; i < cells; i++)
        in[i] = (float)((i * 2654435761u) % 1000u) * 0.01f;
    amp_array_view *vin, *vone, *vsplit;
    check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(n, n), in, &vin));
    check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(tiles, tiles), one, &vone));
    check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(tiles, tiles), split, &vsplit));
    tile_run r1 = {alone, vin, vone, n}, rs = {set, vin, vsplit, n};
    /* The first runs compile and upload. */
    run_tiles(&r1);
    run_tiles(&rs);
    wait_all();
    double t1 = check_only ? 0 : median_time(run_tiles, &r1, repeat);
    double ts = check_only ? 0 : median_time(run_tiles, &rs, repeat);
    check(amp_array_view_synchronize(vone));
    check(amp_array_view_synchronize(vsplit));
    int right = averages_right(in, split, n);
    int same = memcmp(one, split, outs * sizeof *one) == 0;
    printf("Tile averages of %d x %d in %d x %d tiles: %s, %s one accelerator's bit for bit\n", n,
           n, TILE, TILE, right ? "right" : "WRONG", same ? "equal to" : "NOT equal to");
    if (!check_only) {
        double bytes = (double)cells * sizeof(float);
        printf("  one accelerator %.3f ms (%.1f GB/s), the set %.3f ms (%.1f GB/s): %.2fx\n",
               t1 * 1e3, bytes / t1 * 1e-9, ts * 1e3, bytes / ts * 1e-9, t1 / ts);
    }
    check(amp_array_view_release(vin));
    check(amp_array_view_release(vone));
    check(amp_array_view_release(vsplit));
    free(in);
    free(one);
    free(split);
    if (!right || !same)
        exit(EXIT_FAILURE);
}

/* ---- SGEMM kernel 6: split by blocks of rows of C ---- */

static sgemm_tuning tunings[MAX_VIEWS];
static sgemm_workspace workspaces[MAX_VIEWS], alone_workspace;

typedef struct sgemm_run {
    const sgemm_operands *op;
    int on_set;
} sgemm_run;

static void run_sgemm(void *arg)
{
    sgemm_run *r = arg;
    if (r->on_set) {
        check(sgemm_6_tuned_on_set(set, r->op, tunings, workspaces));
    } else {
        sgemm_plan plan = sgemm_tuning_pick(&tunings[0], r->op->M, r->op->N, r->op->K);
        check(sgemm_6_tuned_on(view[0], r->op, &plan, &alone_workspace));
    }
}

/* Small integers: every sum is exact in float. */
static void fill_ints(float *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        p[i] = (float)((int)((seed >> 16) % 9u) - 4);
    }
}

/* Each accelerator's speed at the product, alone: the set's weights. */
static void measure_weights(const sgemm_operands *op)
{
    double weights[MAX_VIEWS];
    for (size_t k = 0; k < views; k++) {
        sgemm_plan plan = sgemm_tuning_pick(&tunings[k], op->M, op->N, op->K);
        check(sgemm_6_tuned_on(view[k], op, &plan, &workspaces[k])); /* compile, upload */
        check(amp_accelerator_view_wait(view[k]));
        double t0 = now();
        check(sgemm_6_tuned_on(view[k], op, &plan, &workspaces[k]));
        check(amp_accelerator_view_wait(view[k]));
        weights[k] = 1.0 / (now() - t0);
    }
    check(amp_accelerator_set_set_weights(set, weights));
    printf("Weights measured (each accelerator alone, products per second):");
    for (size_t k = 0; k < views; k++)
        printf(" %.2f", weights[k]);
    printf("\n");
}

static void sgemm(int M, int N, int K, int check_only, int repeat)
{
    float *A = malloc((size_t)M * K * sizeof *A), *B = malloc((size_t)K * N * sizeof *B);
    float *one = malloc((size_t)M * N * sizeof *one), *split = malloc((size_t)M * N * sizeof *split);
    if (!A || !B || !one || !split) {
        fprintf(stderr, "error: out of host memory for %d x %d x %d\n", M, N, K);
        exit(EXIT_FAILURE);
    }
    fill_ints(A, (size_t)M * K, 1);
    fill_ints(B, (size_t)K * N, 2);
    sgemm_operands op1 = {NULL, NULL, NULL, M, N, K}, ops;
    check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(M, K), A, &op1.a));
    check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(K, N), B, &op1.b));
    ops = op1;
    check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(M, N), one, &op1.c));
    check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(M, N), split, &ops.c));
    if (!check_only && views > 1)
        measure_weights(&ops);
    sgemm_run r1 = {&op1, 0}, rs = {&ops, 1};
    run_sgemm(&r1);
    run_sgemm(&rs);
    wait_all();
    double t1 = check_only ? 0 : median_time(run_sgemm, &r1, repeat);
    double ts = check_only ? 0 : median_time(run_sgemm, &rs, repeat);
    check(amp_array_view_synchronize(op1.c));
    check(amp_array_view_synchronize(ops.c));
    /* Rows of C against the host, 16 of them spread over C. */
    int right = 1;
    for (int s = 0; s < 16 && right; s++) {
        int i = (int)((long long)s * (M - 1) / 15);
        for (int j = 0; j < N && right; j++) {
            double sum = 0;
            for (int k = 0; k < K; k++)
                sum += (double)A[(size_t)i * K + k] * B[(size_t)k * N + j];
            right = split[(size_t)i * N + j] == (float)sum;
        }
    }
    int same = memcmp(one, split, (size_t)M * N * sizeof *one) == 0;
    printf("SGEMM %d x %d x %d, kernel 6 by blocks of rows: %s, %s one accelerator's bit for bit\n",
           M, N, K, right ? "right" : "WRONG", same ? "equal to" : "NOT equal to");
    if (!check_only) {
        double flops = 2.0 * M * N * (double)K;
        printf("  one accelerator %.3f ms (%.1f GFLOP/s), the set %.3f ms (%.1f GFLOP/s): %.2fx\n",
               t1 * 1e3, flops / t1 * 1e-9, ts * 1e3, flops / ts * 1e-9, t1 / ts);
    }
    check(amp_array_view_release(op1.a));
    check(amp_array_view_release(op1.b));
    check(amp_array_view_release(op1.c));
    check(amp_array_view_release(ops.c));
    free(A);
    free(B);
    free(one);
    free(split);
    if (!right || !same)
        exit(EXIT_FAILURE);
}

static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s [--check] [--sgemm n|MxNxK] [--tile N] [--repeat R]\n", prog);
    exit(EXIT_FAILURE);
}

int main(int argc, char **argv)
{
    int check_only = 0, repeat = 5, n_tile = 4096;
    int M = 1024, N = 1024, K = 1024;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0) {
            check_only = 1;
            n_tile = 512;
            M = 130, N = 201, K = 77;
        } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            repeat = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--tile") == 0 && i + 1 < argc) {
            n_tile = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--sgemm") == 0 && i + 1 < argc) {
            const char *s = argv[++i];
            if (sscanf(s, "%dx%dx%d", &M, &N, &K) != 3 && sscanf(s, "%d", &M) == 1)
                N = K = M;
        } else {
            usage(argv[0]);
        }
    }
    if (repeat < 1 || n_tile < TILE || n_tile % TILE || M < 1 || N < 1 || K < 1)
        usage(argv[0]);

    check(amp_accelerator_set_create(NULL, 0, NULL, &set));
    views = amp_accelerator_set_size(set);
    if (views > MAX_VIEWS) {
        fprintf(stderr, "error: a set of %zu accelerators; this sample takes %d\n", views,
                MAX_VIEWS);
        return EXIT_FAILURE;
    }
    double weights[MAX_VIEWS];
    check(amp_accelerator_set_get_weights(set, weights));
    for (size_t k = 0; k < views; k++) {
        amp_accelerator_info info;
        check(amp_accelerator_set_get_view(set, k, &view[k]));
        check(amp_accelerator_get_info(amp_accelerator_view_get_accelerator(view[k]), &info));
        sgemm_tune_load(&info, &tunings[k], NULL);
        if (!check_only)
            printf("Accelerator %zu of %zu: %s (weight %g: compute units x clock)\n", k + 1, views,
                   info.description, weights[k]);
    }
    /* One accelerator, the first of the set, as a set of its own. */
    amp_accelerator_set *alone;
    check(amp_accelerator_set_create(&view[0], 1, NULL, &alone));

    tiles(alone, n_tile, check_only, repeat);
    sgemm(M, N, K, check_only, repeat);

    for (size_t k = 0; k < views; k++)
        sgemm_workspace_release(&workspaces[k]);
    sgemm_workspace_release(&alone_workspace);
    check(amp_accelerator_set_release(alone));
    check(amp_accelerator_set_release(set));
    return EXIT_SUCCESS;
}
