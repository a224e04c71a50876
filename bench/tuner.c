/*
 * bench/tuner.c - the per-device tuner of SGEMM kernel 6: measure each
 * candidate configuration (sgemm_params_candidates, or a wider generated
 * family) on a large and a small square product, keep the fastest correct
 * one of each, and store both, with their speeds, where the kernel looks
 * for them (sgemm_tune_path). sgemm_tuning_pick then chooses between them
 * for each product, and whether to split K, by how many tiles fill the
 * device.
 *
 * It can also explore: measure the best candidates at other sizes with K
 * split in every way, to see what the choice gives away (a CSV file, and
 * with AMP_PROFILE=1 each kernel's device time).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "sgemm.h"

static void fill(float *p, size_t n, unsigned seed)
{
    unsigned x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (float)((int)((x >> 16) % 9u) - 4);
    }
}

/* One product's operands, host arrays and views. */
typedef struct problem {
    int M, N, K;
    float *A, *B, *C;
    sgemm_operands op;
} problem;

static int problem_open(problem *pr, int M, int N, int K)
{
    *pr = (problem){M, N, K, NULL, NULL, NULL, {NULL, NULL, NULL, M, N, K}};
    pr->A = malloc((size_t)M * K * sizeof *pr->A);
    pr->B = malloc((size_t)K * N * sizeof *pr->B);
    pr->C = malloc((size_t)M * N * sizeof *pr->C);
    if (!pr->A || !pr->B || !pr->C) {
        fprintf(stderr, "out of host memory for the tuner at %d x %d x %d\n", M, N, K);
        free(pr->A), free(pr->B), free(pr->C);
        return -1;
    }
    fill(pr->A, (size_t)M * K, 1);
    fill(pr->B, (size_t)K * N, 2);
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(M, K), pr->A, &pr->op.a), "A");
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(K, N), pr->B, &pr->op.b), "B");
    bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(M, N), pr->C, &pr->op.c), "C");
    bench_check(amp_array_view_discard_data(pr->op.c), "discard");
    return 0;
}

static void problem_close(problem *pr)
{
    bench_check(amp_array_view_release(pr->op.a), "release");
    bench_check(amp_array_view_release(pr->op.b), "release");
    bench_check(amp_array_view_discard_data(pr->op.c), "discard");
    bench_check(amp_array_view_release(pr->op.c), "release");
    free(pr->A);
    free(pr->B);
    free(pr->C);
}

/* Exact check of a few rows: the inputs are small integers. */
static int rows_match(const problem *pr)
{
    const int rows[] = {0, pr->M / 3, pr->M - 1};
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < pr->N; j++) {
            double s = 0;
            for (int k = 0; k < pr->K; k++)
                s += (double)pr->A[(size_t)rows[r] * pr->K + k] * pr->B[(size_t)k * pr->N + j];
            if ((double)pr->C[(size_t)rows[r] * pr->N + j] != s)
                return 0;
        }
    return 1;
}

/* The device time of each of kernel 6's kernels in the last runs, in
 * microseconds per call, from the profile (AMP_PROFILE=1), each named by
 * its line in sgemm_6_tuned.c: the two packs, the product and the sum of
 * the parts. */
static void kernel_times(char *buf, size_t size)
{
    buf[0] = '\0';
    amp_profile_entry e[64];
    size_t n = 0;
    if (!amp_profile_is_enabled() || amp_profile_get_entries(e, 64, &n) != AMP_OK)
        return;
    size_t len = 0;
    for (size_t i = 0; i < n && i < 64 && len + 32 < size; i++)
        if (e[i].calls > 0 && strstr(e[i].kernel, "sgemm_6"))
            len += (size_t)snprintf(buf + len, size - len, "%sline %d: %.1f", len ? ", " : "",
                                    e[i].line, e[i].mean_ns * 1e-3);
}

/* GFLOP/s of the best of repeat runs after a warm-up, 0 when the plan
 * failed or gave a wrong result (*why says which). */
static double measure_plan(problem *pr, const sgemm_plan *plan, amp_accelerator_view *av,
                           int repeat, const char **why, char *times, size_t times_size)
{
    sgemm_workspace ws = {0};
    double fastest = INFINITY;
    amp_status st = AMP_OK;
    *why = NULL;
    if (times_size)
        times[0] = '\0';
    for (int r = -1; r < repeat && st == AMP_OK; r++) {
        if (r == 0 && amp_profile_is_enabled())
            amp_profile_reset_entries();
        double t0 = bench_now();
        st = sgemm_6_tuned(&pr->op, plan, &ws);
        if (st == AMP_OK)
            st = amp_accelerator_view_wait(av);
        double t = bench_now() - t0;
        if (r >= 0 && t < fastest)
            fastest = t;
    }
    if (st == AMP_OK && times_size)
        kernel_times(times, times_size);
    int ok = 0;
    if (st == AMP_OK) {
        bench_check(amp_array_view_synchronize(pr->op.c), "synchronize");
        ok = rows_match(pr);
    }
    sgemm_workspace_release(&ws);
    if (st != AMP_OK) {
        *why = amp_status_name(st);
        fprintf(stderr, "kernel 6: %s\n", amp_last_error());
        return 0;
    }
    if (!ok) {
        *why = "WRONG";
        return 0;
    }
    return 2.0 * pr->M * pr->N * (double)pr->K / fastest * 1e-9;
}

/* Measure every candidate on an n x n x n product, K not split, and print
 * a table; gflops[i] gets each one's figure (0: failed or not for this
 * device). */
static void measure_all(const amp_accelerator_info *info, amp_accelerator_view *av,
                        const sgemm_params *cand, int count, int n, int repeat, double *gflops,
                        FILE *csv)
{
    problem pr;
    for (int i = 0; i < count; i++)
        gflops[i] = 0;
    if (problem_open(&pr, n, n, n) != 0)
        return;
    printf("\n%d x %d x %d, GFLOP/s of the best of %d runs after a warm-up:\n\n", n, n, n, repeat);
    printf("| candidate | GFLOP/s | result |\n|---|---:|---|\n");
    for (int i = 0; i < count; i++) {
        char text[128];
        sgemm_params_format(&cand[i], text, sizeof text);
        const char *why = sgemm_params_check(&cand[i], info);
        if (why) {
            printf("| %s | - | not for this device: %s |\n", text, why);
            continue;
        }
        sgemm_plan plan = {cand[i], 1};
        char times[256];
        gflops[i] = measure_plan(&pr, &plan, av, repeat, &why, times, sizeof times);
        if (why)
            printf("| %s | - | %s |\n", text, why);
        else
            printf("| %s | %.1f | ok%s%s |\n", text, gflops[i], times[0] ? "; us: " : "", times);
        if (csv)
            fprintf(csv, "\"%s\",%d,%d,%d,1,%.1f,%s,\"%s\"\n", text, n, n, n, gflops[i],
                    why ? why : "ok", times);
        fflush(stdout);
    }
    problem_close(&pr);
}

/* The wider family that --all measures: blocks of 32 to 256 rows and
 * columns per tile, 64 to 256 threads, 16 to 128 sums per thread, steps
 * 8, 16 or 32 deep in one buffer or two, float4 or float8 columns; only
 * what the device accepts. */
static sgemm_params *generated_family(const amp_accelerator_info *info, int *count)
{
    static const int threads[][2] = {{16, 16}, {8, 16}, {16, 8}, {8, 8},
                                     {32, 8},  {8, 32}, {16, 4}, {4, 16}};
    static const int rms[] = {4, 8, 12, 16};
    static const int nvs[] = {1, 2, 4};
    static const int vws[] = {4, 8};
    static const int bks[] = {8, 16, 32};
    int cap = 4096, n = 0;
    sgemm_params *out = malloc((size_t)cap * sizeof *out);
    if (!out) {
        *count = 0;
        return NULL;
    }
    for (int staged = 1; staged <= 2; staged++)
        for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++)
            for (size_t r = 0; r < sizeof rms / sizeof rms[0]; r++)
                for (size_t v = 0; v < sizeof nvs / sizeof nvs[0]; v++)
                    for (size_t w = 0; w < sizeof vws / sizeof vws[0]; w++)
                        for (size_t b = 0; b < sizeof bks / sizeof bks[0]; b++) {
                            sgemm_params p = {staged, threads[t][0], threads[t][1], rms[r],
                                              nvs[v], vws[w],        bks[b]};
                            int rows = p.ty * p.rm, cols = p.tx * p.nv * p.vw;
                            int sums = p.rm * p.nv * p.vw;
                            int nthreads = p.ty * p.tx;
                            if (sums < 16 || sums > 128 || rows < 32 || rows > 256 || cols < 32 ||
                                cols > 256 || nthreads < 64 || (p.vw == 8 && p.nv > 2) ||
                                n >= cap || sgemm_params_check(&p, info) != NULL)
                                continue;
                            out[n++] = p;
                        }
    *count = n;
    return out;
}

/* The candidates of a list "staged,ty,tx,rm,nv,vw,bk;..."; those the
 * device cannot run are left out. */
static sgemm_params *listed(const amp_accelerator_info *info, const char *text, int *count)
{
    int cap = 256, n = 0;
    sgemm_params *out = malloc((size_t)cap * sizeof *out);
    for (const char *s = text; out && s && *s && n < cap;) {
        sgemm_params p;
        int used = 0;
        if (sscanf(s, "%d,%d,%d,%d,%d,%d,%d%n", &p.staged, &p.ty, &p.tx, &p.rm, &p.nv, &p.vw, &p.bk,
                   &used) != 7 ||
            used == 0)
            break;
        if (sgemm_params_check(&p, info) == NULL)
            out[n++] = p;
        else
            fprintf(stderr, "candidate %.*s left out: %s\n", used, s, sgemm_params_check(&p, info));
        s += used;
        if (*s == ';')
            s++;
    }
    *count = n;
    return out;
}

/* Explore: each of the chosen configurations at each size with K split in
 * 1 to 8 parts (where each part is at least two steps deep), and what
 * sgemm_tuning_pick chose there. */
static void explore(const amp_accelerator_info *info, amp_accelerator_view *av,
                    const sgemm_tuning *t, const sgemm_params *cand, const int *order, int top,
                    const char *size_list, int repeat, FILE *csv)
{
    int sizes[32][3];
    int nsizes = bench_parse_sizes(size_list, sizes, 32);
    printf("\n### Exploring: the best candidates at other sizes, K split in parts\n\n");
    printf("GFLOP/s, best of %d runs; `*` marks the plan sgemm_tuning_pick chooses%s\n\n", repeat,
           amp_profile_is_enabled() ? "; device us per kernel (pack A, pack B, product, parts)"
                                    : "");
    for (int si = 0; si < nsizes; si++) {
        problem pr;
        int M = sizes[si][0], N = sizes[si][1], K = sizes[si][2];
        if (problem_open(&pr, M, N, K) != 0)
            continue;
        sgemm_plan chosen = sgemm_tuning_pick(t, M, N, K);
        printf("| %d x %d x %d | splits | GFLOP/s | kernels |\n|---|---:|---:|---|\n", M, N, K);
        for (int c = 0; c < top; c++) {
            const sgemm_params *p = &cand[order[c]];
            char text[128];
            sgemm_params_format(p, text, sizeof text);
            int steps = (K + p->bk - 1) / p->bk;
            static const int splits[] = {1, 2, 3, 4, 6, 8};
            for (size_t s = 0; s < sizeof splits / sizeof splits[0]; s++) {
                if (splits[s] > 1 && steps / splits[s] < 2)
                    break;
                sgemm_plan plan = {*p, splits[s]};
                const char *why;
                char times[256];
                double g = measure_plan(&pr, &plan, av, repeat, &why, times, sizeof times);
                int mine = memcmp(&plan.p, &chosen.p, sizeof plan.p) == 0 &&
                           plan.splits == chosen.splits;
                printf("| %s | %d | %s%.1f | %s |\n", text, splits[s], mine ? "*" : "", g,
                       why ? why : times);
                if (csv)
                    fprintf(csv, "\"%s\",%d,%d,%d,%d,%.1f,%s,\"%s\"\n", text, M, N, K, splits[s], g,
                            why    ? why
                            : mine ? "chosen"
                                   : "ok",
                            times);
                fflush(stdout);
            }
        }
        /* The chosen plan, when it is none of the above. */
        printf("\n");
        problem_close(&pr);
    }
    (void)info;
}

int bench_tune(amp_accelerator *acc, amp_accelerator_view *av, const bench_tune_options *o)
{
    amp_accelerator_info info;
    bench_check(amp_accelerator_get_info(acc, &info), "info");
    int count = 0;
    sgemm_params *family = NULL;
    const sgemm_params *cand;
    if (o->list) {
        family = listed(&info, o->list, &count);
        cand = family;
    } else if (o->all) {
        family = generated_family(&info, &count);
        cand = family;
    } else {
        cand = sgemm_params_candidates(&info, &count);
    }
    if (!cand || count == 0) {
        printf("\nNo candidates.\n");
        free(family);
        return -1;
    }
    FILE *csv = NULL;
    if (o->csv_path) {
        csv = fopen(o->csv_path, "w");
        if (csv)
            fprintf(csv, "candidate,M,N,K,splits,gflops,result,kernel_us\n");
        else
            perror(o->csv_path);
    }
    printf("\n## Tuning SGEMM kernel 6 on %s (%u compute units)\n\n", info.description,
           info.compute_units);
    printf("- %d candidates%s: the fastest correct one at %d for large products, and at %d the "
           "fastest with smaller tiles (compile in the warm-up)\n",
           count, o->all ? " (the generated family)" : "", o->n_large, o->n_small);
    double *g_large = calloc((size_t)count, sizeof *g_large);
    double *g_small = calloc((size_t)count, sizeof *g_small);
    int *order = malloc((size_t)count * sizeof *order);
    if (!g_large || !g_small || !order) {
        fprintf(stderr, "out of host memory for the tuner\n");
        free(g_large), free(g_small), free(order), free(family);
        if (csv)
            fclose(csv);
        return -1;
    }
    measure_all(&info, av, cand, count, o->n_large, o->repeat, g_large, csv);
    int large = -1;
    for (int i = 0; i < count; i++)
        if (g_large[i] > 0 && (large < 0 || g_large[i] > g_large[large]))
            large = i;
    if (large < 0) {
        printf("\nNo candidate ran correctly; nothing stored.\n");
        free(g_large), free(g_small), free(order), free(family);
        if (csv)
            fclose(csv);
        return -1;
    }
    /* The small configuration: among those with smaller tiles than the
     * large one, the fastest at the small size. */
    int small = large;
    long long large_area = (long long)cand[large].ty * cand[large].rm * cand[large].tx *
                           cand[large].nv * cand[large].vw;
    if (o->n_small > 0) {
        /* Only those with smaller tiles, and at the large size not far
         * behind: the rest are not worth a second measurement. */
        sgemm_params *smaller = malloc((size_t)count * sizeof *smaller);
        int *index = malloc((size_t)count * sizeof *index);
        int ns = 0;
        for (int i = 0; smaller && index && i < count; i++) {
            long long area = (long long)cand[i].ty * cand[i].rm * cand[i].tx * cand[i].nv *
                             cand[i].vw;
            if (g_large[i] >= 0.6 * g_large[large] && area < large_area) {
                index[ns] = i;
                smaller[ns++] = cand[i];
            }
        }
        if (ns > 0) {
            double *g = calloc((size_t)ns, sizeof *g);
            if (g) {
                measure_all(&info, av, smaller, ns, o->n_small, o->repeat, g, csv);
                int best = -1;
                for (int i = 0; i < ns; i++)
                    if (g[i] > 0 && (best < 0 || g[i] > g[best]))
                        best = i;
                if (best >= 0)
                    small = index[best];
                free(g);
            }
        }
        free(smaller);
        free(index);
    }
    sgemm_tuning t = sgemm_tuning_default(&info);
    t.large = cand[large];
    t.small = cand[small];
    t.large_gflops = g_large[large];
    t.small_gflops = g_large[small];
    char lt[128], st[128], note[512];
    sgemm_params_format(&t.large, lt, sizeof lt);
    sgemm_params_format(&t.small, st, sizeof st);
    snprintf(note, sizeof note, "large: %s, %.1f GFLOP/s at %d\nsmall: %s, %.1f GFLOP/s at %d", lt,
             t.large_gflops, o->n_large, st, t.small_gflops, o->n_large);
    printf("\nBest %s\n", note);

    if (o->explore && o->explore[0]) {
        /* The best few at the large size, and the small configuration. */
        for (int i = 0; i < count; i++)
            order[i] = i;
        for (int i = 1; i < count; i++)
            for (int j = i; j > 0 && g_large[order[j]] > g_large[order[j - 1]]; j--) {
                int x = order[j];
                order[j] = order[j - 1];
                order[j - 1] = x;
            }
        int top = o->explore_top < count ? o->explore_top : count;
        int has_small = 0;
        for (int i = 0; i < top; i++)
            has_small |= order[i] == small;
        if (!has_small && top < count) {
            for (int i = top; i < count; i++)
                if (order[i] == small) {
                    order[i] = order[top];
                    order[top] = small;
                }
            top++;
        }
        explore(&info, av, &t, cand, order, top, o->explore, o->repeat, csv);
    }
    free(g_large);
    free(g_small);
    free(order);
    free(family);
    if (csv)
        fclose(csv);
    if (o->dry_run)
        return 0;
    char path[1400];
    if (sgemm_tune_save(&info, &t, note) != 0 || !sgemm_tune_path(&info, path, sizeof path)) {
        perror("storing the tuned parameters");
        return -1;
    }
    printf("Stored in %s.\n", path);
    return 0;
}
