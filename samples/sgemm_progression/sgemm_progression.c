/*
 * The SGEMM teaching progression: C = A * B in single precision, six
 * kernels, each a step faster than the one before (sgemm.h lists them, and
 * each kernel's file says what it changes and why).
 *
 *   sgemm_progression [--check] [--set] [--repeat R] [--only 1,5,6] [SIZE ...]
 *
 * SIZE is n (an n x n x n product) or MxNxK; the default is 1024. Each
 * kernel runs once to compile and upload, then R times (default 5, fewer
 * past 3 seconds) with a wait after each; the table gives the median.
 * Every kernel's result is checked against a product on the CPU: the
 * inputs are small integers, so every sum is exact and a result must match
 * to the last bit (up to K = 2^20; beyond, to a relative 1e-5).
 *
 * --check runs each kernel once and prints only whether it was right,
 * which is the same on every device: the sample's test uses it.
 *
 * --set runs every kernel across the set of every accelerator of the
 * default's kind (every GPU; every part of the CPU under AMP_SPLIT_CPU=N),
 * by blocks of rows of C (sgemm_set.c), each accelerator with its own
 * tuning for kernel 6.
 *
 * The table ends with the device's BLAS on the same product, timed and
 * checked the same way (sgemm_blas.c: OpenBLAS on a CPU device, cuBLAS on
 * an NVIDIA GPU, CLBlast on another GPU; "n/a" where the build found none),
 * so that kernel 6 is seen beside what a program would call instead.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <amp/amp.h>

#include "../common/sample_check.h"
#include "sgemm.h"
#include "sgemm_blas.h"

/* The most timed runs of a kernel (--repeat). */
#define MAX_REPEAT 64

/* Kernel 6 runs with the device's plan for the size, and a workspace kept
 * between calls; the table calls every kernel the same way. With --set,
 * each view of the set has its own tuning and workspace. */
enum { MAX_VIEWS = 16 };
static sgemm_tuning tuning;
static sgemm_workspace workspace;
static amp_accelerator_set *set;
static sgemm_tuning set_tunings[MAX_VIEWS];
static sgemm_workspace set_workspaces[MAX_VIEWS];

static amp_status run_tuned_on(amp_accelerator_view *av, const sgemm_operands *op)
{
    if (set)
        return sgemm_6_tuned_on_set(set, op, set_tunings, set_workspaces);
    sgemm_plan plan = sgemm_tuning_pick(&tuning, op->M, op->N, op->K);
    return sgemm_6_tuned_on(av, op, &plan, &workspace);
}

static const struct {
    const char *name;
    amp_status (*run_on)(amp_accelerator_view *av, const sgemm_operands *op);
} kernels[] = {
    {"1 naive", sgemm_1_naive_on},
    {"2 tiles in tile_static", sgemm_2_tiles_on},
    {"3 more work per thread", sgemm_3_work_per_thread_on},
    {"4 float4 loads", sgemm_4_vector_loads_on},
    {"5 2D register blocking", sgemm_5_register_blocking_on},
    {"6 tuned: packed panels", run_tuned_on},
};
enum { KERNELS = sizeof kernels / sizeof kernels[0] };

/* Kernel i on the view av, or across the set. */
static amp_status run_kernel(int i, amp_accelerator_view *av, const sgemm_operands *op)
{
    if (set && i < KERNELS - 1)
        return sgemm_rows_on_set(set, op, kernels[i].run_on);
    return kernels[i].run_on(av, op);
}

/* Wait for the view av, or for every view of the set. */
static amp_status wait_for(amp_accelerator_view *av)
{
    amp_status st = AMP_OK;
    size_t n = set ? amp_accelerator_set_size(set) : 1;
    for (size_t k = 0; k < n && st == AMP_OK; k++)
        if (!set || (st = amp_accelerator_set_get_view(set, k, &av)) == AMP_OK)
            st = amp_accelerator_view_wait(av);
    return st;
}

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

/* Small integers in [-4, 4] from a fixed sequence: products and their sums
 * stay exact in float while |sum| <= 2^24. */
static void fill(float *p, size_t n, unsigned seed)
{
    unsigned x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (float)((int)((x >> 16) % 9u) - 4);
    }
}

/* The rows of C that are checked: all of them for products up to 2^31
 * multiply-adds, else 64 spread over C, the first and the last included. */
static int rows_to_check(int M, long long N, long long K, int *rows)
{
    if ((long long)M * N * K <= (1ll << 31)) {
        for (int i = 0; i < M; i++)
            rows[i] = i;
        return M;
    }
    int n = M < 64 ? M : 64;
    for (int i = 0; i < n; i++)
        rows[i] = (int)((long long)i * (M - 1) / (n - 1 > 0 ? n - 1 : 1));
    return n;
}

/* The reference rows, in double: exact for these inputs. */
static void reference(const float *A, const float *B, int N, int K, const int *rows, int nrows,
                      double *ref)
{
    for (int r = 0; r < nrows; r++) {
        double *out = ref + (size_t)r * N;
        const float *arow = A + (size_t)rows[r] * K;
        memset(out, 0, (size_t)N * sizeof *out);
        for (int k = 0; k < K; k++) {
            double aik = arow[k];
            const float *brow = B + (size_t)k * N;
            for (int j = 0; j < N; j++)
                out[j] += aik * brow[j];
        }
    }
}

/* NULL when C matches the reference rows; else a message, in msg. */
static const char *verify(const float *C, int N, int K, const int *rows, int nrows,
                          const double *ref, char *msg, size_t size)
{
    double tolerance = K <= (1 << 20) ? 0.0 : 1e-5;
    for (int r = 0; r < nrows; r++)
        for (int j = 0; j < N; j++) {
            double want = ref[(size_t)r * N + j];
            double got = C[(size_t)rows[r] * N + j];
            if (!(fabs(got - want) <= tolerance * fabs(want))) {
                snprintf(msg, size, "C(%d, %d) = %g, expected %g", rows[r], j, got, want);
                return msg;
            }
        }
    return NULL;
}

typedef struct size3 {
    int M, N, K;
} size3;

/* A whole number from 1 to INT_MAX at *s, up to the next 'x' or the end;
 * 0 for anything else (a sign, a letter, a number too large for an int). */
static int parse_dimension(const char **s)
{
    char *end;
    errno = 0;
    long v = **s >= '0' && **s <= '9' ? strtol(*s, &end, 10) : 0;
    if (v < 1 || v > INT_MAX || errno != 0 || (*end != '\0' && *end != 'x'))
        return 0;
    *s = end;
    return (int)v;
}

/* "n" (n x n x n) or "MxNxK", each from 1 to INT_MAX. */
static int parse_size(const char *s, size3 *out)
{
    int d[3], count = 0;
    for (;;) {
        if ((d[count++] = parse_dimension(&s)) == 0)
            return 0;
        if (*s == '\0')
            break;
        if (count == 3)
            return 0; /* an 'x' after the third */
        s++;          /* the 'x' */
    }
    if (count != 1 && count != 3)
        return 0;
    *out = count == 1 ? (size3){d[0], d[0], d[0]} : (size3){d[0], d[1], d[2]};
    return 1;
}

/* Run the chosen kernels on one size; returns the number that were wrong. */
/* The device's BLAS on the same product (sgemm_blas.c), a row of the table,
 * and kernel 6 against it when six (its GFLOP/s) is not 0; first is kernel
 * 1's or the first kernel's. Returns 1 when the BLAS was wrong. */
static int run_blas(const amp_accelerator_info *info, const float *A, const float *B, float *C,
                    size3 s, int repeat, const int *rows, int nrows, const double *ref,
                    double first, double six)
{
    double times[MAX_REPEAT];
    int runs = 0;
    char name[160];
    for (size_t e = 0; e < (size_t)s.M * s.N; e++)
        C[e] = NAN;
    int rc = sgemm_blas_time(info, A, B, C, s.M, s.N, s.K, repeat, times, &runs, name,
                             sizeof name);
    if (rc != 0) {
        printf("| the BLAS | - | n/a | - | - | %s |\n", name);
        return rc < 0;
    }
    char msg[160];
    const char *bad = verify(C, s.N, s.K, rows, nrows, ref, msg, sizeof msg);
    qsort(times, (size_t)runs, sizeof times[0], compare_doubles);
    double t = times[runs / 2];
    double gflops = 2.0 * s.M * s.N * (double)s.K / t * 1e-9;
    printf("| %s | %.2f | %.1f | %.2fx | - | %s%s |\n", name, t * 1e3, gflops,
           first > 0 ? gflops / first : 1.0, bad ? "WRONG: " : "ok", bad ? bad : "");
    if (six > 0)
        printf("\nKernel 6 runs at %.2fx the BLAS here (one after the other; `amp_bench --only "
               "matmul --kernels 6` takes them in turn).\n",
               six / gflops);
    return bad != NULL;
}

static int run_size(size3 s, int check_only, int repeat, const int *chosen,
                    amp_accelerator_view *av, const amp_accelerator_info *info)
{
    int M = s.M, N = s.N, K = s.K;
    float *A = malloc((size_t)M * K * sizeof *A);
    float *B = malloc((size_t)K * N * sizeof *B);
    float *C = malloc((size_t)M * N * sizeof *C);
    int *rows = malloc((size_t)M * sizeof *rows);
    if (!A || !B || !C || !rows) {
        fprintf(stderr, "error: out of host memory for %d x %d x %d\n", M, N, K);
        exit(EXIT_FAILURE);
    }
    fill(A, (size_t)M * K, 1);
    fill(B, (size_t)K * N, 2);
    int nrows = rows_to_check(M, N, K, rows);
    double *ref = malloc((size_t)nrows * N * sizeof *ref);
    if (!ref) {
        fprintf(stderr, "error: out of host memory for the reference\n");
        exit(EXIT_FAILURE);
    }
    reference(A, B, N, K, rows, nrows, ref);

    sgemm_operands op = {NULL, NULL, NULL, M, N, K};
    check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(M, K), A, &op.a));
    check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(K, N), B, &op.b));
    check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(M, N), C, &op.c));

    double flops = 2.0 * M * N * (double)K;
    if (check_only) {
        printf("sgemm %d x %d x %d\n", M, N, K);
    } else {
        printf("\nSGEMM %d x %d x %d (M x N x K), %s of up to %d runs\n", M, N, K, "median",
               repeat);
        if (chosen[KERNELS - 1]) {
            sgemm_plan plan = sgemm_tuning_pick(&tuning, M, N, K);
            char text[128];
            sgemm_params_format(&plan.p, text, sizeof text);
            printf("Kernel 6 here: %s", text);
            if (plan.splits > 1)
                printf(", K in %d parts", plan.splits);
            const sgemm_size_plan *e = sgemm_tuning_measured(&tuning, M, N, K);
            if (e)
                printf(" (the fastest at %d x %d x %d, measured)", e->M, e->N, e->K);
            printf("\n");
        }
        printf("\n");
        printf("| kernel | ms | GFLOP/s | vs 1 | vs previous | result |\n");
        printf("|---|---:|---:|---:|---:|---|\n");
    }
    int wrong = 0;
    double first = 0, previous = 0, six = 0;
    for (int i = 0; i < KERNELS; i++) {
        if (!chosen[i])
            continue;
        /* NaN in C: a kernel that skips an element cannot pass. */
        for (size_t e = 0; e < (size_t)M * N; e++)
            C[e] = NAN;
        check(amp_array_view_refresh(op.c));

        /* The first call compiles and uploads; the timed ones find both done. */
        check(run_kernel(i, av, &op));
        check(wait_for(av));
        double times[MAX_REPEAT];
        int runs = 0;
        double spent = 0;
        while (!check_only && runs < repeat && (runs == 0 || spent < 3.0)) {
            double t0 = now();
            check(run_kernel(i, av, &op));
            check(wait_for(av));
            times[runs] = now() - t0;
            spent += times[runs++];
        }
        check(amp_array_view_synchronize(op.c));
        char msg[160];
        const char *bad = verify(C, N, K, rows, nrows, ref, msg, sizeof msg);
        wrong += bad != NULL;
        if (check_only) {
            printf("  %-24s %s%s\n", kernels[i].name, bad ? "WRONG: " : "ok", bad ? bad : "");
            continue;
        }
        qsort(times, (size_t)runs, sizeof times[0], compare_doubles);
        double t = times[runs / 2];
        double gflops = flops / t * 1e-9;
        if (first == 0)
            first = gflops;
        printf("| %s | %.2f | %.1f | %.2fx | ", kernels[i].name, t * 1e3, gflops, gflops / first);
        if (previous > 0)
            printf("%.2fx", gflops / previous);
        else
            printf("-");
        printf(" | %s%s%s |\n", bad ? "WRONG: " : "ok", bad ? bad : "",
               nrows < M ? " (64 rows checked)" : "");
        previous = gflops;
        if (i == KERNELS - 1 && !bad)
            six = gflops;
    }

    check(amp_array_view_release(op.a));
    check(amp_array_view_release(op.b));
    check(amp_array_view_discard_data(op.c));
    check(amp_array_view_release(op.c));
    if (!check_only)
        wrong += run_blas(info, A, B, C, s, repeat, rows, nrows, ref, first, six);
    free(A);
    free(B);
    free(C);
    free(rows);
    free(ref);
    return wrong;
}

/* The usage, after what was wrong (NULL for --help, which succeeds). */
static void usage(const char *prog, const char *wrong, const char *arg)
{
    if (wrong)
        fprintf(stderr, "%s: %s: '%s'\n", prog, wrong, arg);
    fprintf(wrong ? stderr : stdout,
            "usage: %s [--check] [--set] [--repeat R] [--only 1,5,6] [SIZE ...]\n"
            "  SIZE: n (n x n x n) or MxNxK, each from 1; default 1024\n"
            "  --check   run each kernel once and print only whether it was right\n"
            "  --set     run across every accelerator of the default's kind, by rows\n"
            "  --repeat  timed runs per kernel, 1 to %d (default 5; fewer past 3 s)\n"
            "  --only    the kernels to run, numbers 1 to %d (default all)\n",
            prog, MAX_REPEAT, KERNELS);
    exit(wrong ? EXIT_FAILURE : EXIT_SUCCESS);
}

int main(int argc, char **argv)
{
    int check_only = 0, across = 0, repeat = 5;
    int chosen[KERNELS];
    for (int i = 0; i < KERNELS; i++)
        chosen[i] = 1;
    size3 sizes[32];
    int nsizes = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0) {
            check_only = 1;
        } else if (strcmp(argv[i], "--set") == 0) {
            across = 1;
        } else if (strcmp(argv[i], "--help") == 0) {
            usage(argv[0], NULL, NULL);
        } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            const char *s = argv[++i];
            char rule[64];
            snprintf(rule, sizeof rule, "--repeat takes a number of runs from 1 to %d",
                     MAX_REPEAT);
            repeat = parse_dimension(&s);
            if (repeat < 1 || repeat > MAX_REPEAT || *s != '\0')
                usage(argv[0], rule, argv[i]);
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            int any = 0;
            char rule[64];
            snprintf(rule, sizeof rule, "--only takes kernel numbers from 1 to %d, as 1,5,6",
                     KERNELS);
            for (int k = 0; k < KERNELS; k++)
                chosen[k] = 0;
            for (const char *s = argv[++i]; *s; s++) {
                if (*s >= '1' && *s < '1' + KERNELS)
                    any = chosen[*s - '1'] = 1;
                else if (*s != ',')
                    usage(argv[0], rule, argv[i]);
            }
            if (!any)
                usage(argv[0], "--only names no kernel", argv[i]);
        } else if (argv[i][0] == '-') {
            usage(argv[0], "no such option, or it lacks its value", argv[i]);
        } else if (nsizes == 32) {
            usage(argv[0], "at most 32 sizes", argv[i]);
        } else if (parse_size(argv[i], &sizes[nsizes])) {
            nsizes++;
        } else {
            usage(argv[0], "a size is n or MxNxK, each a whole number from 1", argv[i]);
        }
    }
    if (nsizes == 0)
        sizes[nsizes++] = (size3){1024, 1024, 1024};

    amp_accelerator *acc;
    amp_accelerator_view *av;
    amp_accelerator_info info;
    check(amp_accelerator_get_default(&acc));
    check(amp_accelerator_get_default_view(acc, &av));
    check(amp_accelerator_get_info(acc, &info));
    sgemm_tuning_source source;
    int from_file = sgemm_tune_load(&info, &tuning, &source);
    if (across) {
        check(amp_accelerator_set_create(NULL, 0, NULL, &set));
        size_t n = amp_accelerator_set_size(set);
        if (n > MAX_VIEWS) {
            fprintf(stderr, "error: a set of %zu accelerators; this sample takes %d\n", n,
                    MAX_VIEWS);
            return EXIT_FAILURE;
        }
        for (size_t k = 0; k < n; k++) {
            amp_accelerator_view *v;
            amp_accelerator_info vi;
            check(amp_accelerator_set_get_view(set, k, &v));
            check(amp_accelerator_get_info(amp_accelerator_view_get_accelerator(v), &vi));
            sgemm_tune_load(&vi, &set_tunings[k], NULL);
        }
        if (!check_only)
            printf("Across %zu accelerators, by blocks of rows of C\n", n);
    }
    if (!check_only) {
        char large[128], small[128];
        sgemm_params_format(&tuning.large, large, sizeof large);
        sgemm_params_format(&tuning.small, small, sizeof small);
        printf("Device: %s (%s)\n", info.description, info.version);
        printf("Kernel 6: %s; smaller tiles: %s; %u compute units", large, small,
               tuning.compute_units);
        if (from_file)
            printf("\n  (tuned, from %s%s)\n", source.path,
                   tuning.nplans > 0 ? ", with plans measured at some sizes" : "");
        else
            printf("\n  (the defaults; bench/sgemm_tune stores a device's best)\n");
        if (source.refused[0])
            printf("  (%s)\n", source.refused);
    }

    int wrong = 0;
    for (int i = 0; i < nsizes; i++)
        wrong += run_size(sizes[i], check_only, repeat, chosen, av, &info);
    sgemm_workspace_release(&workspace);
    for (int k = 0; k < MAX_VIEWS; k++)
        sgemm_workspace_release(&set_workspaces[k]);
    check(amp_accelerator_set_release(set));
    return wrong ? EXIT_FAILURE : EXIT_SUCCESS;
}
