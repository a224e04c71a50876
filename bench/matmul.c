/*
 * bench/matmul.c - SGEMM: the six kernels of samples/sgemm_progression
 * against CLBlast and the vendor's BLAS (OpenBLAS on a CPU device, cuBLAS
 * on an NVIDIA GPU), on the same data in the same process.
 *
 * Each product runs untimed first (it compiles and uploads; on a CPU
 * device it runs for a quarter of a second: warm_seconds), then up to
 * o->repeat times with a wait after each; data stays on the device
 * between runs, for every implementation alike. Every result is checked
 * against rows computed on the CPU. A kernel of the progression whose
 * previous size predicts more than SLOW_SECONDS per run is skipped at
 * larger sizes (the naive kernels on a CPU); the baselines never are.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "baselines.h"
#include "bench.h"
#include "sgemm.h"

#define SLOW_SECONDS 4.0
#define MAX_IMPLS 12

typedef struct size3 {
    int M, N, K;
} size3;

/* Square sizes, tile multiples and not, and non-square shapes. */
static const size3 cpu_sizes[] = {{256, 256, 256},    {512, 512, 512},    {1000, 1000, 1000},
                                  {1024, 1024, 1024}, {1500, 1500, 1500}, {2048, 2048, 2048},
                                  {2049, 2049, 2049}, {2000, 500, 1500},  {1024, 2048, 512},
                                  {4096, 256, 1024},  {3000, 3000, 3000}};
static const size3 gpu_sizes[] = {{1000, 1000, 1000}, {1024, 1024, 1024}, {1500, 1500, 1500},
                                  {2048, 2048, 2048}, {2049, 2049, 2049}, {4096, 4096, 4096},
                                  {8192, 8192, 8192}, {2000, 6000, 1500}, {8192, 1024, 4096},
                                  {4096, 4096, 512}};
static const size3 quick_sizes[] = {{64, 64, 64}, {100, 37, 129}};

/* One column of the table: a kernel of the library, or a baseline. */
typedef struct impl {
    const char *name;
    int kernel; /* 1..6, or 0 for a baseline */
    const bench_sgemm_impl *base;
    double last_gflops; /* at the previous size, to predict slow runs */
} impl;

static sgemm_tuning tuning;
static sgemm_workspace workspace;

static amp_status run_kernel(int kernel, const sgemm_operands *op)
{
    switch (kernel) {
    case 1: return sgemm_1_naive(op);
    case 2: return sgemm_2_tiles(op);
    case 3: return sgemm_3_work_per_thread(op);
    case 4: return sgemm_4_vector_loads(op);
    case 5: return sgemm_5_register_blocking(op);
    default: {
        sgemm_plan plan = sgemm_tuning_pick(&tuning, op->M, op->N, op->K);
        return sgemm_6_tuned(op, &plan, &workspace);
    }
    }
}

static const char *kernel_names[] = {"",         "1 naive",       "2 tiles", "3 work/thread",
                                     "4 float4", "5 2D blocking", "6 tuned"};

/* The inputs of samples/sgemm_progression: small integers, exact sums. */
static void fill(float *p, size_t n, unsigned seed)
{
    unsigned x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (float)((int)((x >> 16) % 9u) - 4);
    }
}

#define CHECK_ROWS 16

/* Reference rows (first, last and spread between), in double: exact. */
static int reference(const float *A, const float *B, size3 s, int *rows, double *ref)
{
    int n = s.M < CHECK_ROWS ? s.M : CHECK_ROWS;
    for (int r = 0; r < n; r++) {
        rows[r] = n > 1 ? (int)((long long)r * (s.M - 1) / (n - 1)) : 0;
        double *out = ref + (size_t)r * s.N;
        memset(out, 0, (size_t)s.N * sizeof *out);
        for (int k = 0; k < s.K; k++) {
            double a = A[(size_t)rows[r] * s.K + k];
            const float *b = B + (size_t)k * s.N;
            for (int j = 0; j < s.N; j++)
                out[j] += a * b[j];
        }
    }
    return n;
}

static int matches(const float *C, size3 s, const int *rows, int nrows, const double *ref)
{
    for (int r = 0; r < nrows; r++)
        for (int j = 0; j < s.N; j++)
            if ((double)C[(size_t)rows[r] * s.N + j] != ref[(size_t)r * s.N + j])
                return 0;
    return 1;
}

/* How long each side runs untimed before it is timed (bench_warm_seconds). */
static double warm_seconds(const bench_options *o)
{
    return bench_warm_seconds(&o->info);
}

/* Time fn (one finished product per call): untimed calls for warm seconds
 * (at least one), then up to repeat timed ones within a few seconds.
 * Returns the number of timed runs, 0 on failure. */
static int time_runs(int (*fn)(void *), void *arg, double warm, int repeat, double *times)
{
    double start = bench_now();
    do {
        if (fn(arg) != 0)
            return 0;
    } while (bench_now() - start < warm);
    int runs = 0;
    double spent = 0;
    while (runs < repeat && (runs == 0 || spent < 2 * SLOW_SECONDS)) {
        double t0 = bench_now();
        if (fn(arg) != 0)
            return 0;
        times[runs] = bench_now() - t0;
        spent += times[runs++];
    }
    return runs;
}

typedef struct amp_run {
    int kernel;
    const sgemm_operands *op;
    amp_accelerator_view *av;
} amp_run;

static int amp_once(void *arg)
{
    amp_run *r = arg;
    amp_status st = run_kernel(r->kernel, r->op);
    if (st == AMP_OK)
        st = amp_accelerator_view_wait(r->av);
    if (st != AMP_OK) {
        fprintf(stderr, "kernel %d: %s: %s\n", r->kernel, amp_status_name(st), amp_last_error());
        return -1;
    }
    return 0;
}

static int base_once(void *arg)
{
    const bench_sgemm_impl *b = arg;
    return b->run();
}

/*
 * Kernel 6 against the vendor's BLAS, run by run: the two take turns (the
 * first of each pair alternating), and the figure is the median of the
 * pairs' ratios. On a machine shared with other work, such as a CPU device
 * whose cores also run everything else, the speed moves by a third from
 * one second to the next; the columns, each a median of runs in a row,
 * then compare different moments. A pair's two runs are next to each
 * other, and see the same one. Each timed run follows untimed runs of its
 * own side (warm_seconds), as a run in the columns follows the one before,
 * so that its operands are in the caches and not the other side's: on an
 * H100, with each side timed right after the other, kernel 6 came out at
 * 1.01x cuBLAS at 1000 against 0.77x in the columns of the same run
 * (cuBLAS lost more to a cold L2 cache than kernel 6), where warm pairs
 * give 0.80x to 0.84x. Each pair's two times go to csv when it is not NULL.
 * Returns 0 when either side fails.
 */
#define MAX_PAIRS 15
static int pairs_wanted(const bench_options *o)
{
    return 2 * o->repeat + 1 < MAX_PAIRS ? 2 * o->repeat + 1 : MAX_PAIRS;
}

static double paired_ratio(const bench_options *o, amp_run *six, const bench_sgemm_impl *base,
                           const float *A, const float *B, size3 s, FILE *csv)
{
    if (base->setup(A, B, s.M, s.N, s.K) != 0)
        return 0;
    double ratios[MAX_PAIRS], spent = 0;
    int pairs = 0, failed = 0;
    int want = pairs_wanted(o);
    double warm = warm_seconds(o);
    while (!failed && pairs < want && (pairs < 3 || spent < 2 * SLOW_SECONDS)) {
        double t[2] = {0, 0};
        for (int k = 0; k < 2 && !failed; k++) {
            int side = (pairs + k) % 2; /* 0: kernel 6, 1: the baseline */
            /* Untimed runs, then the timed one (time_runs). */
            int runs = side == 0 ? time_runs(amp_once, six, warm, 1, &t[0])
                                 : time_runs(base_once, (void *)base, warm, 1, &t[1]);
            failed = runs != 1;
        }
        if (!failed) {
            if (csv)
                fprintf(csv, "\"%s\",\"%s\",%d,%d,%d,%d,%s,%.4f,%.4f\n", o->info.description,
                        base->name, s.M, s.N, s.K, pairs, pairs % 2 ? "baseline" : "kernel 6",
                        t[0] * 1e3, t[1] * 1e3);
            ratios[pairs++] = t[1] / t[0];
            spent += t[0] + t[1];
        }
    }
    base->teardown();
    return failed || pairs == 0 ? 0 : bench_median(ratios, pairs);
}

void bench_matmul(const bench_options *o)
{
    impl impls[MAX_IMPLS];
    int nimpl = 0;
    int six = -1; /* kernel 6's column, for the ratios */
    for (int k = 1; k <= 6; k++)
        if (o->kernels & (1u << (k - 1))) {
            if (k == 6)
                six = nimpl;
            impls[nimpl++] = (impl){kernel_names[k], k, NULL, 0};
        }
    const bench_sgemm_impl *bases[] = {
#ifdef BENCH_HAVE_CLBLAST
        &bench_clblast,
#endif
#ifdef BENCH_HAVE_OPENBLAS
        &bench_openblas,
        &bench_openblas_core, /* the right core, where OpenBLAS chose another one */
#endif
#ifdef BENCH_HAVE_CUBLAS
        &bench_cublas,
#endif
        NULL};
    printf("\n## Matmul (SGEMM, row-major, C = A * B)\n\n");
    for (int i = 0; bases[i]; i++) {
        const char *why = bases[i]->open(o);
        if (why)
            printf("- %s: not measured (%s)\n", bases[i]->name, why);
        else
            impls[nimpl++] = (impl){bases[i]->name, 0, bases[i], 0};
    }
#ifndef BENCH_HAVE_CLBLAST
    printf("- CLBlast: not measured (not found at build time: libclblast-dev)\n");
#endif
#ifndef BENCH_HAVE_OPENBLAS
    if (o->info.is_emulated)
        printf("- OpenBLAS: not measured (not found at build time: libopenblas-dev)\n");
#endif
#ifndef BENCH_HAVE_CUBLAS
    if (!o->info.is_emulated)
        printf("- cuBLAS: not measured (no CUDA toolkit at build time)\n");
#endif
    sgemm_tuning_source source;
    int from_file = sgemm_tune_load(&o->info, &tuning, &source);
    char large[128], small[128];
    sgemm_params_format(&tuning.large, large, sizeof large);
    sgemm_params_format(&tuning.small, small, sizeof small);
    printf("- kernel 6 (%s%s): %s; smaller tiles: %s; chosen by how many tiles fill %u compute "
           "units, K split when they are too few",
           from_file ? "tuned for this device, " : "defaults", source.path, large, small,
           tuning.compute_units);
    if (tuning.nplans > 0)
        printf("; the plans measured at %d sizes for products near them", tuning.nplans);
    if (source.refused[0])
        printf(" (%s)", source.refused);
    printf("\n");
    printf("- GFLOP/s = 2*M*N*K / median time of up to %d runs after a warm-up; data resident "
           "on the device;\n  every result checked against CPU rows (`!` marks a wrong one, "
           "`-` a kernel skipped as too slow)\n",
           o->repeat);
    printf("- 6 / CLBlast: the ratio of the columns; 6 / the vendor's BLAS: kernel 6 and the "
           "BLAS take turns\n  run by run (up to %d pairs), and the figure is the median of "
           "the pairs' ratios\n\n",
           pairs_wanted(o));

    /* The baselines the ratios are taken against. */
    int clblast = -1, vendor = -1;
    for (int i = 0; i < nimpl; i++) {
        if (impls[i].base && strcmp(impls[i].name, "CLBlast") == 0)
            clblast = i;
        if (impls[i].base && strcmp(impls[i].name, "CLBlast") != 0)
            vendor = i;
    }

    printf("| M x N x K |");
    for (int i = 0; i < nimpl; i++)
        printf(" %s |", impls[i].name);
    if (clblast >= 0)
        printf(" 6 / CLBlast |");
    if (vendor >= 0)
        printf(" 6 / %s |", impls[vendor].name);
    printf("\n|---|");
    for (int i = 0; i < nimpl + (clblast >= 0) + (vendor >= 0); i++)
        printf("---:|");
    printf("\n");
    fflush(stdout);

    FILE *csv = bench_csv_open(o, "matmul.csv",
                               "device,impl,M,N,K,median_ms,best_ms,gflops_median,gflops_best,"
                               "runs,correct");
    /* Kernel 6 against the vendor's BLAS, taking turns (paired_ratio). */
    FILE *paired_csv = vendor >= 0 && six >= 0 ? bench_csv_open(o, "matmul_paired.csv",
                                                                "device,against,M,N,K,ratio_median")
                                               : NULL;
    FILE *pairs_csv = paired_csv ? bench_csv_open(o, "matmul_pairs.csv",
                                                  "device,against,M,N,K,pair,first,kernel6_ms,"
                                                  "baseline_ms")
                                 : NULL;
    const size3 *sizes = o->quick ? quick_sizes : o->info.is_emulated ? cpu_sizes : gpu_sizes;
    int nsizes = o->quick              ? (int)(sizeof quick_sizes / sizeof quick_sizes[0])
                 : o->info.is_emulated ? (int)(sizeof cpu_sizes / sizeof cpu_sizes[0])
                                       : (int)(sizeof gpu_sizes / sizeof gpu_sizes[0]);
    size3 asked[sizeof o->sizes / sizeof o->sizes[0]];
    if (o->nsizes > 0) {
        for (int i = 0; i < o->nsizes; i++)
            asked[i] = (size3){o->sizes[i][0], o->sizes[i][1], o->sizes[i][2]};
        sizes = asked;
        nsizes = o->nsizes;
    }
    for (int si = 0; si < nsizes; si++) {
        size3 s = sizes[si];
        double flops = 2.0 * s.M * s.N * (double)s.K;
        float *A = malloc((size_t)s.M * s.K * sizeof *A);
        float *B = malloc((size_t)s.K * s.N * sizeof *B);
        float *C = malloc((size_t)s.M * s.N * sizeof *C);
        double *ref = malloc((size_t)CHECK_ROWS * s.N * sizeof *ref);
        int rows[CHECK_ROWS];
        if (!A || !B || !C || !ref) {
            fprintf(stderr, "out of host memory at %d x %d x %d\n", s.M, s.N, s.K);
            exit(EXIT_FAILURE);
        }
        fill(A, (size_t)s.M * s.K, 1);
        fill(B, (size_t)s.K * s.N, 2);
        int nrows = reference(A, B, s, rows, ref);

        sgemm_operands op = {NULL, NULL, NULL, s.M, s.N, s.K};
        bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(s.M, s.K), A, &op.a),
                    "view of A");
        bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(s.K, s.N), B, &op.b),
                    "view of B");
        bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(s.M, s.N), C, &op.c),
                    "view of C");

        double gflops[MAX_IMPLS];
        printf("| %d x %d x %d |", s.M, s.N, s.K);
        for (int i = 0; i < nimpl; i++) {
            impl *im = &impls[i];
            gflops[i] = 0;
            /* The baselines always run: the ratios need them. */
            if (im->kernel && im->last_gflops > 0 &&
                flops / (im->last_gflops * 1e9) > SLOW_SECONDS) {
                printf(" - |");
                fflush(stdout);
                continue;
            }
            double times[64];
            int runs = 0, correct = 0;
            for (size_t e = 0; e < (size_t)s.M * s.N; e++)
                C[e] = NAN;
            if (im->kernel) {
                bench_check(amp_array_view_refresh(op.c), "refresh C");
                amp_run r = {im->kernel, &op, o->av};
                runs = time_runs(amp_once, &r, warm_seconds(o), o->repeat, times);
                bench_check(amp_array_view_synchronize(op.c), "synchronize C");
                correct = runs > 0 && matches(C, s, rows, nrows, ref);
            } else if (im->base->setup(A, B, s.M, s.N, s.K) == 0) {
                runs = time_runs(base_once, (void *)im->base, warm_seconds(o), o->repeat, times);
                correct = runs > 0 && im->base->fetch(C) == 0 && matches(C, s, rows, nrows, ref);
                im->base->teardown();
            }
            if (runs == 0) {
                printf(" failed |");
                continue;
            }
            double best = bench_min(times, runs), median = bench_median(times, runs);
            gflops[i] = flops / median * 1e-9;
            im->last_gflops = gflops[i];
            printf(" %.1f%s |", gflops[i], correct ? "" : "!");
            fflush(stdout);
            if (csv)
                fprintf(csv, "\"%s\",\"%s\",%d,%d,%d,%.4f,%.4f,%.2f,%.2f,%d,%d\n",
                        o->info.description, im->name, s.M, s.N, s.K, median * 1e3, best * 1e3,
                        gflops[i], flops / best * 1e-9, runs, correct);
        }
        if (clblast >= 0) {
            if (six >= 0 && gflops[clblast] > 0 && gflops[six] > 0)
                printf(" %.2f |", gflops[six] / gflops[clblast]);
            else
                printf(" - |");
        }
        if (vendor >= 0) {
            double paired = 0;
            if (six >= 0 && gflops[vendor] > 0 && gflops[six] > 0) {
                amp_run r = {6, &op, o->av};
                paired = paired_ratio(o, &r, impls[vendor].base, A, B, s, pairs_csv);
            }
            if (paired > 0)
                printf(" %.2f |", paired);
            else
                printf(" - |");
            if (paired_csv && paired > 0)
                fprintf(paired_csv, "\"%s\",\"%s\",%d,%d,%d,%.4f\n", o->info.description,
                        impls[vendor].name, s.M, s.N, s.K, paired);
        }
        printf("\n");
        fflush(stdout);

        bench_check(amp_array_view_release(op.a), "release A");
        bench_check(amp_array_view_release(op.b), "release B");
        bench_check(amp_array_view_discard_data(op.c), "discard C");
        bench_check(amp_array_view_release(op.c), "release C");
        free(A);
        free(B);
        free(C);
        free(ref);
    }
    if (csv)
        fclose(csv);
    if (paired_csv)
        fclose(paired_csv);
    if (pairs_csv)
        fclose(pairs_csv);
    if (six >= 0) {
        printf("\nKernel 6's plan at each size (sgemm_tuning_pick):\n\n");
        for (int si = 0; si < nsizes; si++) {
            size3 s = sizes[si];
            sgemm_plan plan = sgemm_tuning_pick(&tuning, s.M, s.N, s.K);
            char text[128];
            sgemm_params_format(&plan.p, text, sizeof text);
            printf("- %d x %d x %d: %s, %d x %d tiles%s", s.M, s.N, s.K, text,
                   plan.p.ty * plan.p.rm, plan.p.tx * plan.p.nv * plan.p.vw,
                   plan.splits > 1 ? ", K in " : "");
            if (plan.splits > 1)
                printf("%d parts", plan.splits);
            const sgemm_size_plan *e = sgemm_tuning_measured(&tuning, s.M, s.N, s.K);
            if (e)
                printf(" (measured fastest at %d x %d x %d: %.1f GFLOP/s)", e->M, e->N, e->K,
                       e->gflops);
            else
                printf(" (the model)");
            printf("\n");
        }
    }
    sgemm_workspace_release(&workspace);
    for (int i = 0; bases[i]; i++)
        bases[i]->close();
}
