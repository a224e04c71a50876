/*
 * bench/tuner.c - the per-device tuner of SGEMM kernel 6: measure each
 * candidate configuration (sgemm_params_candidates, or a wider generated
 * family) on a large and a small square product, keep the fastest correct
 * one of each, and store both, with their speeds, where the kernel looks
 * for them (sgemm_tune_path). sgemm_tuning_pick then chooses between them
 * for each product, and whether to split K, by how many tiles fill the
 * device.
 *
 * It measures as the benchmark does (bench/matmul.c): a warm-up of
 * bench_warm_seconds, then timed runs with a wait after each, and the
 * median; and before it keeps one, it measures the three fastest again,
 * in turn, round after round, so that the one kept is the one that wins
 * when the machine's speed moves.
 *
 * It can also explore: measure the best candidates at other sizes with K
 * split in every way, keep the fastest plan at each size for products near
 * it (what the model of sgemm_tuning_pick cannot see), and show what the
 * model's choice gives away (a CSV file, and with AMP_PROFILE=1 each
 * kernel's device time).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* How many timed runs a measurement takes: repeat, or more where a run
 * (with its warm-up) is short, so that they come to TUNE_MIN_SECONDS (at
 * most 64). A product
 * of some 70 us (1000^3 on an H100) moves by more than its plans differ:
 * with 3 runs each, two tunings of one machine ranked the same two plans in
 * opposite orders. */
#define TUNE_MIN_SECONDS 0.025
static int runs_for(double seconds, int repeat)
{
    double want = seconds > 0 ? ceil(TUNE_MIN_SECONDS / seconds) : 0;
    int runs = want > repeat ? (want > 64 ? 64 : (int)want) : repeat;
    return runs > 64 ? 64 : runs;
}

/* Untimed runs of the plan for warm seconds (at least one), then one timed
 * run, as the benchmark times each run of kernel 6 (bench/matmul.c):
 * its seconds, or -1 when a run failed (*why says which). */
static double timed_run(problem *pr, const sgemm_plan *plan, sgemm_workspace *ws,
                        amp_accelerator_view *av, double warm, const char **why)
{
    double start = bench_now(), t = -1;
    for (int timed = 0; timed < 2; timed++) {
        do {
            double t0 = bench_now();
            amp_status st = sgemm_6_tuned(&pr->op, plan, ws);
            if (st == AMP_OK)
                st = amp_accelerator_view_wait(av);
            if (st != AMP_OK) {
                *why = amp_status_name(st);
                fprintf(stderr, "kernel 6: %s\n", amp_last_error());
                return -1;
            }
            t = bench_now() - t0;
        } while (!timed && bench_now() - start < warm);
    }
    return t;
}

/* GFLOP/s of the median of repeat runs (runs_for) after the warm-up, as the
 * benchmark's columns (*best gets the best run's); 0 when the plan failed
 * or gave a wrong result (*why says which). The best of a few runs, which
 * this used to keep, is the run that the machine's other work left alone:
 * on the shared 2-core machine, under a load of 4 to 6, the best of five
 * runs came out up to 1.5x their median (193 against 132 GFLOP/s at 1000),
 * and the fastest of a dozen such bests is the most flattered. */
static double measure_plan(problem *pr, const sgemm_plan *plan, amp_accelerator_view *av,
                           double warm, int repeat, double *best, const char **why, char *times,
                           size_t times_size)
{
    sgemm_workspace ws = {0};
    double seconds[64];
    int runs = 0;
    *why = NULL;
    *best = 0;
    if (times_size)
        times[0] = '\0';
    if (repeat > 64)
        repeat = 64;
    /* The warm-up (which compiles), then the profile's count from zero. */
    if (timed_run(pr, plan, &ws, av, warm, why) >= 0 && amp_profile_is_enabled())
        amp_profile_reset_entries();
    for (int r = 0; r < repeat && !*why; r++) {
        double t = timed_run(pr, plan, &ws, av, 0, why);
        if (t >= 0)
            seconds[runs++] = t;
        if (r == 0)
            repeat = runs_for(t, repeat);
    }
    if (!*why && times_size)
        kernel_times(times, times_size);
    int ok = 0;
    if (!*why) {
        bench_check(amp_array_view_synchronize(pr->op.c), "synchronize");
        ok = rows_match(pr);
    }
    sgemm_workspace_release(&ws);
    if (*why)
        return 0;
    if (!ok) {
        *why = "WRONG";
        return 0;
    }
    double flops = 2.0 * pr->M * pr->N * (double)pr->K;
    *best = flops / bench_min(seconds, runs) * 1e-9;
    return flops / bench_median(seconds, runs) * 1e-9;
}

/* The plans in turn, round after round (as many as runs_for asks of the
 * first plan's first run), each run after a warm-up of its own, as the
 * benchmark takes kernel 6 and the BLAS in turn: a machine whose speed
 * moves from one second to the next moves for all of them alike.
 * gflops[i] gets the median of plan i's runs, *rounds how many there
 * were; returns the fastest (-1 when one failed). */
#define CONFIRM_MAX 4
static int confirm(problem *pr, const sgemm_plan *plans, int n, amp_accelerator_view *av,
                   double warm, int *rounds_used, double *gflops)
{
    double seconds[CONFIRM_MAX][64];
    sgemm_workspace ws = {0};
    const char *why = NULL;
    int rounds = *rounds_used > 64 ? 64 : *rounds_used;
    for (int r = 0; r < rounds && !why; r++) {
        for (int i = 0; i < n && !why; i++)
            seconds[i][r] = timed_run(pr, &plans[i], &ws, av, warm, &why);
        if (r == 0 && !why)
            rounds = runs_for(seconds[0][0] + warm, rounds); /* what a run costs */
    }
    sgemm_workspace_release(&ws);
    if (why)
        return -1;
    *rounds_used = rounds;
    int fastest = 0;
    double flops = 2.0 * pr->M * pr->N * (double)pr->K;
    for (int i = 0; i < n; i++) {
        gflops[i] = flops / bench_median(seconds[i], rounds) * 1e-9;
        if (gflops[i] > gflops[fastest])
            fastest = i;
    }
    return fastest;
}

/* The indices of the (at most CONFIRM_MAX) highest figures above 0 into
 * top, highest first; returns how many. */
static int highest(const double *g, int count, int want, int *top)
{
    int n = 0;
    while (n < want && n < CONFIRM_MAX) {
        int pick = -1;
        for (int i = 0; i < count; i++) {
            int taken = 0;
            for (int j = 0; j < n; j++)
                taken |= top[j] == i;
            if (!taken && g[i] > 0 && (pick < 0 || g[i] > g[pick]))
                pick = i;
        }
        if (pick < 0)
            break;
        top[n++] = pick;
    }
    return n;
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
    double warm = bench_warm_seconds(info);
    printf("\n%d x %d x %d, GFLOP/s of the median of %d runs (more for a product under 25 ms,"
           " up to 64) after a warm-up (%s), and of the best:\n\n",
           n, n, n, repeat, warm > 0 ? "0.25 s" : "one run");
    printf("| candidate | GFLOP/s | best | result |\n|---|---:|---:|---|\n");
    for (int i = 0; i < count; i++) {
        char text[128];
        sgemm_params_format(&cand[i], text, sizeof text);
        const char *why = sgemm_params_check(&cand[i], info);
        if (why) {
            printf("| %s | - | - | not for this device: %s |\n", text, why);
            continue;
        }
        sgemm_plan plan = {cand[i], 1};
        char times[256];
        double best;
        gflops[i] = measure_plan(&pr, &plan, av, warm, repeat, &best, &why, times, sizeof times);
        if (why)
            printf("| %s | - | - | %s |\n", text, why);
        else
            printf("| %s | %.1f | %.1f | ok%s%s |\n", text, gflops[i], best,
                   times[0] ? "; us: " : "", times);
        if (csv)
            fprintf(csv, "\"%s\",%d,%d,%d,1,%.1f,%.1f,%s,\"%s\"\n", text, n, n, n, gflops[i], best,
                    why ? why : "ok", times);
        fflush(stdout);
    }
    problem_close(&pr);
}

/* Of the candidates measured at n (g), the few fastest again, in turn
 * (confirm); the winner's index, its figure in *gflops; -1 when none ran. */
static int confirm_best(const amp_accelerator_info *info, amp_accelerator_view *av,
                        const sgemm_params *cand, const double *g, int count, int n, int repeat,
                        double *gflops)
{
    int top[CONFIRM_MAX];
    int ntop = highest(g, count, 3, top);
    if (ntop == 0)
        return -1;
    if (ntop == 1) {
        *gflops = g[top[0]];
        return top[0];
    }
    problem pr;
    if (problem_open(&pr, n, n, n) != 0)
        return -1;
    sgemm_plan plans[CONFIRM_MAX];
    double again[CONFIRM_MAX];
    for (int i = 0; i < ntop; i++)
        plans[i] = (sgemm_plan){cand[top[i]], 1};
    int rounds = repeat;
    int w = confirm(&pr, plans, ntop, av, bench_warm_seconds(info), &rounds, again);
    problem_close(&pr);
    if (w < 0)
        return -1;
    printf("\nThe %d fastest again at %d, in turn, %d rounds (the median of each):", ntop, n,
           rounds);
    for (int i = 0; i < ntop; i++) {
        char text[128];
        sgemm_params_format(&plans[i].p, text, sizeof text);
        printf("%s %s %.1f", i ? ";" : "", text, again[i]);
    }
    printf("\n");
    *gflops = again[w];
    return top[w];
}

/* The speeds the plan's model weighs against each other (sgemm_tuning_pick):
 * the large and the small configuration at the large size, n x n x n, in
 * turn, so that both come from the same moments of the machine. Taken from
 * separate passes, a speed measured while the machine ran slower made the
 * model choose the other configuration at sizes where it is the slower
 * one. Returns 0, or -1 when a run failed (the speeds are then kept). */
static int weigh_both(const amp_accelerator_info *info, amp_accelerator_view *av,
                      const sgemm_params *large, const sgemm_params *small, int n, int repeat,
                      double *large_gflops, double *small_gflops)
{
    problem pr;
    if (problem_open(&pr, n, n, n) != 0)
        return -1;
    sgemm_plan plans[2] = {{*large, 1}, {*small, 1}};
    double again[2];
    int rounds = repeat;
    int w = confirm(&pr, plans, 2, av, bench_warm_seconds(info), &rounds, again);
    problem_close(&pr);
    if (w < 0)
        return -1;
    *large_gflops = again[0];
    *small_gflops = again[1];
    char lt[128], st[128];
    sgemm_params_format(large, lt, sizeof lt);
    sgemm_params_format(small, st, sizeof st);
    printf("\nThe two for the plan's model, at %d in turn, %d rounds (the median of each): %s "
           "%.1f; %s %.1f\n",
           n, rounds, lt, again[0], st, again[1]);
    return 0;
}

/* The wider family that --all measures: on a GPU, blocks of 32 to 256
 * rows and columns per tile, 64 to 256 threads, 16 to 128 sums per thread,
 * steps 8, 16 or 32 deep in one buffer or two, float4 or float8 columns;
 * on a CPU, tiles of one thread in every shape of 64 to 512 sums; only
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
    if (info->is_emulated) {
        /* A CPU: one thread per tile, 1 to 16 rows by 1 to 4 vectors of 8
         * or 16 floats, 64 to 512 sums: what fits 16 or 32 registers of
         * either width, and somewhat past it. No float16 where the device
         * says it has 8-float registers (AVX2, AVX): there PoCL's compiler
         * warns of every float16, and a float16 is two float8s. */
        sgemm_isa isa = sgemm_cpu_isa(info->description);
        int widest = isa == SGEMM_ISA_AVX2 || isa == SGEMM_ISA_AVX ? 8 : 16;
        for (int vw = 8; vw <= widest; vw *= 2)
            for (int rm = 1; rm <= 16; rm++)
                for (int nv = 1; nv <= 4; nv++) {
                    sgemm_params p = {0, 1, 1, rm, nv, vw, 1};
                    int sums = rm * nv * vw;
                    if (sums >= 64 && sums <= 512 && n < cap &&
                        sgemm_params_check(&p, info) == NULL)
                        out[n++] = p;
                }
        *count = n;
        return out;
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
 * 1 to 8 parts (where each part is at least two steps deep), marking what
 * sgemm_tuning_pick's model chooses there; then the fastest few again, in
 * turn (confirm), and the winner goes into t->plans, the plan kernel 6
 * takes for products near that size. */
static void explore(const amp_accelerator_info *info, amp_accelerator_view *av, sgemm_tuning *t,
                    const sgemm_params *cand, const int *order, int top, const char *size_list,
                    int repeat, FILE *csv)
{
    int sizes[SGEMM_MAX_PLANS][3];
    int nsizes = bench_parse_sizes(size_list, sizes, SGEMM_MAX_PLANS);
    double warm = bench_warm_seconds(info);
    static const int splits[] = {1, 2, 3, 4, 6, 8};
    enum { NSPLITS = sizeof splits / sizeof splits[0] };
    sgemm_plan *plans = malloc((size_t)top * NSPLITS * sizeof *plans);
    double *g = malloc((size_t)top * NSPLITS * sizeof *g);
    sgemm_plan *modelled = malloc((size_t)(nsizes > 0 ? nsizes : 1) * sizeof *modelled);
    double *modelled_g = calloc((size_t)(nsizes > 0 ? nsizes : 1), sizeof *modelled_g);
    if (!plans || !g || !modelled || !modelled_g) {
        fprintf(stderr, "out of host memory for the exploration\n");
        free(plans), free(g), free(modelled), free(modelled_g);
        return;
    }
    printf("\n### Exploring: the best candidates at other sizes, K split in parts\n\n");
    printf("GFLOP/s, the median of %d runs (more for a product under 25 ms, up to 64) after a"
           " warm-up; `*` marks the plan of the model "
           "(sgemm_tuning_pick without measured plans)%s\n\n",
           repeat,
           amp_profile_is_enabled() ? "; device us per kernel (pack A, pack B, product, parts)"
                                    : "");
    sgemm_tuning model = *t;
    model.nplans = 0;
    t->nplans = 0;
    for (int si = 0; si < nsizes; si++) {
        problem pr;
        int M = sizes[si][0], N = sizes[si][1], K = sizes[si][2];
        if (problem_open(&pr, M, N, K) != 0)
            continue;
        sgemm_plan chosen = sgemm_tuning_pick(&model, M, N, K);
        modelled[si] = chosen;
        int n = 0, model_measured = 0;
        printf("| %d x %d x %d | splits | GFLOP/s | kernels |\n|---|---:|---:|---|\n", M, N, K);
        for (int c = 0; c < top; c++) {
            const sgemm_params *p = &cand[order[c]];
            char text[128];
            sgemm_params_format(p, text, sizeof text);
            int steps = (K + p->bk - 1) / p->bk;
            for (int s = 0; s < NSPLITS; s++) {
                if (splits[s] > 1 && steps / splits[s] < 2)
                    break;
                sgemm_plan plan = {*p, splits[s]};
                const char *why;
                char times[256];
                double best;
                double gf = measure_plan(&pr, &plan, av, warm, repeat, &best, &why, times,
                                         sizeof times);
                int mine = memcmp(&plan.p, &chosen.p, sizeof plan.p) == 0 &&
                           plan.splits == chosen.splits;
                if (mine) {
                    modelled_g[si] = gf;
                    model_measured = 1;
                }
                plans[n] = plan;
                g[n++] = gf;
                printf("| %s | %d | %s%.1f | %s |\n", text, splits[s], mine ? "*" : "", gf,
                       why ? why : times);
                if (csv)
                    fprintf(csv, "\"%s\",%d,%d,%d,%d,%.1f,%.1f,%s,\"%s\"\n", text, M, N, K,
                            splits[s], gf, best,
                            why    ? why
                            : mine ? "chosen"
                                   : "ok",
                            times);
                fflush(stdout);
            }
        }
        /* The fastest three again, in turn: the one kept must win where the
         * benchmark would see it win. The model's plan runs among them where
         * it ran right, so that a plan kept is never one that loses to it,
         * and the two figures of the summary come from the same rounds. */
        /* The model's plan where the splits above held none of its parts of
         * K: measured once here, which also checks its result. */
        if (!model_measured) {
            const char *why;
            char times[256];
            double best;
            modelled_g[si] = measure_plan(&pr, &chosen, av, warm, repeat, &best, &why, times,
                                          sizeof times);
            char text[128];
            sgemm_params_format(&chosen.p, text, sizeof text);
            printf("| %s | %d | *%.1f | %s |\n", text, chosen.splits, modelled_g[si],
                   why ? why : times);
        }
        int best_i[CONFIRM_MAX];
        int nbest = highest(g, n, 3, best_i);
        if (nbest > 0 && t->nplans < SGEMM_MAX_PLANS) {
            sgemm_plan again_plans[CONFIRM_MAX];
            double again[CONFIRM_MAX];
            int model_i = -1;
            for (int i = 0; i < nbest; i++) {
                again_plans[i] = plans[best_i[i]];
                if (memcmp(&again_plans[i], &chosen, sizeof chosen) == 0)
                    model_i = i;
            }
            if (model_i < 0 && modelled_g[si] > 0) {
                model_i = nbest;
                again_plans[nbest++] = chosen;
            }
            int rounds = repeat;
            int w = nbest > 1 ? confirm(&pr, again_plans, nbest, av, warm, &rounds, again) : 0;
            if (nbest == 1)
                again[0] = g[best_i[0]];
            if (w >= 0) {
                t->plans[t->nplans++] = (sgemm_size_plan){M, N, K, again_plans[w], again[w]};
                if (model_i >= 0)
                    modelled_g[si] = again[model_i];
            }
        }
        printf("\n");
        problem_close(&pr);
    }
    if (t->nplans > 0) {
        printf("Kept for products near each size: the fastest plan (after the fastest three "
               "again, in turn), and the model's:\n\n");
        printf("| M x N x K | measured plan | parts of K | GFLOP/s | the model's plan | parts | "
               "GFLOP/s |\n|---|---|---:|---:|---|---:|---:|\n");
        for (int i = 0; i < t->nplans; i++) {
            const sgemm_size_plan *e = &t->plans[i];
            int si = 0;
            while (si < nsizes &&
                   !(sizes[si][0] == e->M && sizes[si][1] == e->N && sizes[si][2] == e->K))
                si++;
            char text[128], mtext[128];
            sgemm_params_format(&e->plan.p, text, sizeof text);
            sgemm_params_format(&modelled[si].p, mtext, sizeof mtext);
            printf("| %d x %d x %d | %s | %d | %.1f | %s | %d |", e->M, e->N, e->K, text,
                   e->plan.splits, e->gflops, mtext, modelled[si].splits);
            if (modelled_g[si] > 0)
                printf(" %.1f |\n", modelled_g[si]);
            else
                printf(" not explored |\n");
        }
        printf("\n");
    }
    free(plans), free(g), free(modelled), free(modelled_g);
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
            fprintf(csv, "candidate,M,N,K,splits,gflops_median,gflops_best,result,kernel_us\n");
        else
            perror(o->csv_path);
    }
    printf("\n## Tuning SGEMM kernel 6 on %s (%u compute units)\n\n", info.description,
           info.compute_units);
    printf("- %d candidates%s: the fastest correct one at %d for large products, and at %d the "
           "fastest with smaller tiles (compile in the warm-up); each time the three fastest "
           "again, in turn; then the two kept again at %d, in turn, for the plan's model\n",
           count, o->all ? " (the generated family)" : "", o->n_large, o->n_small, o->n_large);
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
    double large_gflops = 0;
    int large = confirm_best(&info, av, cand, g_large, count, o->n_large, o->repeat, &large_gflops);
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
                for (int i = 0; i < ns; i++)
                    g_small[index[i]] = g[i];
                double unused;
                int best = confirm_best(&info, av, smaller, g, ns, o->n_small, o->repeat, &unused);
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
    t.large_gflops = large_gflops;
    t.small_gflops = large_gflops;
    if (small != large && weigh_both(&info, av, &cand[large], &cand[small], o->n_large, o->repeat,
                                     &t.large_gflops, &t.small_gflops) != 0)
        t.small_gflops = g_large[small];
    char lt[128], st[128], note[512];
    sgemm_params_format(&t.large, lt, sizeof lt);
    sgemm_params_format(&t.small, st, sizeof st);
    snprintf(note, sizeof note, "large: %s, %.1f GFLOP/s at %d\nsmall: %s, %.1f GFLOP/s at %d", lt,
             t.large_gflops, o->n_large, st, t.small_gflops, o->n_large);
    printf("\nBest %s\n", note);

    /* By default, the sizes where the model's waves are few. */
    char auto_sizes[128];
    const char *explore_at = o->explore;
    if (explore_at && strcmp(explore_at, "auto") == 0) {
        sgemm_tuning_explore_sizes(&cand[large], info.compute_units, auto_sizes, sizeof auto_sizes);
        explore_at = auto_sizes;
        if (auto_sizes[0])
            printf("\nPlans measured at %s: the sizes up to 3000 where the large tiles fill fewer "
                   "than %d waves of the %u compute units (--explore none: no plans)\n",
                   auto_sizes, SGEMM_EXPLORE_WAVES, info.compute_units);
    }
    if (explore_at && explore_at[0]) {
        /* The best few at the large size, the best few at the small size
         * (smaller tiles may suit smaller products), and the small
         * configuration. */
        int top = 0;
        int want = o->explore_top < count ? o->explore_top : count;
        int picks[2][CONFIRM_MAX + 64];
        for (int pass = 0; pass < 2; pass++) {
            const double *g = pass == 0 ? g_large : g_small;
            int n = 0;
            /* highest() gives at most CONFIRM_MAX: take them in rounds. */
            double *rest = malloc((size_t)count * sizeof *rest);
            if (!rest)
                break;
            memcpy(rest, g, (size_t)count * sizeof *rest);
            while (n < want && n < 64) {
                int got[CONFIRM_MAX];
                int k = highest(rest, count, CONFIRM_MAX, got);
                if (k == 0)
                    break;
                for (int i = 0; i < k && n < want && n < 64; i++) {
                    picks[pass][n++] = got[i];
                    rest[got[i]] = 0;
                }
            }
            free(rest);
            for (int i = 0; i < n; i++) {
                int dup = 0;
                for (int j = 0; j < top; j++)
                    dup |= order[j] == picks[pass][i];
                if (!dup && top < count)
                    order[top++] = picks[pass][i];
            }
        }
        int has_small = 0;
        for (int i = 0; i < top; i++)
            has_small |= order[i] == small;
        if (!has_small && top < count)
            order[top++] = small;
        explore(&info, av, &t, cand, order, top, explore_at, o->repeat, csv);
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
    if (!sgemm_tune_path(&info, path, sizeof path)) {
        fprintf(stderr, "storing the tuned parameters: no cache directory is known: set"
                        " AMP_CACHE_DIR (or HOME)\n");
        return -1;
    }
    int replaced = access(path, F_OK) == 0;
    if (sgemm_tune_save(&info, &t, note) != 0) {
        fprintf(stderr, "storing the tuned parameters in %s: %s\n", path, strerror(errno));
        return -1;
    }
    printf("Stored in %s%s%s.\n", path,
           t.nplans > 0 ? ", with the plans measured at the explored sizes" : "",
           replaced ? " (replacing the tuning that was there; --dry-run stores nothing)" : "");
    return 0;
}
