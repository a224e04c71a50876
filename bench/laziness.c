/*
 * bench/laziness.c - how lazily data moves: bytes copied between host and
 * device, from the runtime's transfer ledger (amp/transfer.h), against the
 * bytes the computation cannot do without (each input up once, each
 * result down once), on the samples' computations.
 *
 * Each case starts from a reset ledger and ends when its last view is
 * released, so copies made at release count too.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "sgemm.h"

typedef struct lazy_case {
    const char *name;
    double necessary; /* bytes */
} lazy_case;

static FILE *csv;

static void report(const bench_options *o, const char *name, double necessary)
{
    amp_transfer_stats s;
    bench_check(amp_transfer_get_stats(&s), "transfers");
    double moved = (double)(s.upload_bytes + s.download_bytes);
    printf("| %s | %.2f | %.2f (%llu) | %.2f (%llu) | %.2f |\n", name, necessary / 1e6,
           (double)s.upload_bytes / 1e6, (unsigned long long)s.uploads,
           (double)s.download_bytes / 1e6, (unsigned long long)s.downloads, moved / necessary);
    if (csv)
        fprintf(csv, "\"%s\",\"%s\",%.0f,%llu,%llu,%llu,%llu,%.3f\n", o->info.description, name,
                necessary, (unsigned long long)s.upload_bytes, (unsigned long long)s.uploads,
                (unsigned long long)s.download_bytes, (unsigned long long)s.downloads,
                moved / necessary);
}

static void fill(float *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (float)((int)(i % 9) - 4);
}

/* C = A * B as samples/sgemm_progression runs it: views, kernels, one
 * synchronize, release. discard_c: say that C's old contents are not
 * needed, as a kernel that overwrites all of C allows. */
static void sgemm_case(const bench_options *o, int n, int kernels, int discard_c, const char *name)
{
    size_t e = (size_t)n * n;
    float *A = malloc(e * sizeof *A), *B = malloc(e * sizeof *B), *C = calloc(e, sizeof *C);
    if (!A || !B || !C)
        exit(EXIT_FAILURE);
    fill(A, e);
    fill(B, e);
    amp_transfer_reset_stats();
    sgemm_operands op = {NULL, NULL, NULL, n, n, n};
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(n, n), A, &op.a), "A");
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(n, n), B, &op.b), "B");
    bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(n, n), C, &op.c), "C");
    if (discard_c)
        bench_check(amp_array_view_discard_data(op.c), "discard C");
    sgemm_tuning tuning = sgemm_tuning_default(&o->info);
    sgemm_plan plan = sgemm_tuning_pick(&tuning, op.M, op.N, op.K);
    sgemm_workspace ws = {0};
    for (int k = 6 - kernels + 1; k <= 6; k++) {
        amp_status st = k == 1   ? sgemm_1_naive(&op)
                        : k == 2 ? sgemm_2_tiles(&op)
                        : k == 3 ? sgemm_3_work_per_thread(&op)
                        : k == 4 ? sgemm_4_vector_loads(&op)
                        : k == 5 ? sgemm_5_register_blocking(&op)
                                 : sgemm_6_tuned(&op, &plan, &ws);
        bench_check(st, "sgemm");
    }
    bench_check(amp_array_view_synchronize(op.c), "synchronize");
    sgemm_workspace_release(&ws);
    bench_check(amp_array_view_release(op.a), "release");
    bench_check(amp_array_view_release(op.b), "release");
    bench_check(amp_array_view_release(op.c), "release");
    report(o, name, 3.0 * e * sizeof(float));
    free(A);
    free(B);
    free(C);
}

static amp_status scale(amp_array_view *in, amp_array_view *out, float factor)
{
    /* clang-format off */
    return AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(in), idx,
                                 AMP_CAPTURE(in, out, factor), { out(idx) = in(idx) * factor; });
    /* clang-format on */
}

static amp_status average(amp_array_view *in, amp_array_view *out, int T)
{
    return AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(out), idx, AMP_CAPTURE(in, out, T), {
        float sum = 0.0f;
        for (int r = 0; r < T; r++)
            for (int c = 0; c < T; c++)
                sum += in(idx[0] * T + r, idx[1] * T + c);
        out(idx) = sum / (float)(T * T);
    });
}

/* Tile averages as samples/tile_average computes them; chained: the input
 * scaled first into a view the host never reads. */
static void average_case(const bench_options *o, int n, int chained, int host_reads,
                         const char *name)
{
    enum { T = 4 };
    size_t e = (size_t)n * n, m = e / (T * T);
    float *in_data = malloc(e * sizeof *in_data), *tmp_data = malloc(e * sizeof *tmp_data);
    float *out_data = calloc(m, sizeof *out_data);
    if (!in_data || !tmp_data || !out_data)
        exit(EXIT_FAILURE);
    fill(in_data, e);
    amp_transfer_reset_stats();
    amp_array_view *in, *tmp, *out;
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(n, n), in_data, &in), "in");
    bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(n, n), tmp_data, &tmp), "tmp");
    bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(n / T, n / T), out_data, &out),
                "out");
    bench_check(amp_array_view_discard_data(out), "discard");
    bench_check(amp_array_view_discard_data(tmp), "discard");
    for (int round = 0; round < (host_reads ? 3 : 1); round++) {
        if (chained) {
            bench_check(scale(in, tmp, 2.0f), "scale");
            bench_check(average(tmp, out, T), "average");
        } else {
            bench_check(average(in, out, T), "average");
        }
        if (host_reads) {
            /* The host reads the input between rounds: nothing needs to move again. */
            const void *p;
            bench_check(amp_array_view_data_const(in, &p), "data_const");
        }
    }
    bench_check(amp_array_view_synchronize(out), "synchronize");
    bench_check(amp_array_view_discard_data(tmp), "discard");
    bench_check(amp_array_view_release(tmp), "release");
    bench_check(amp_array_view_release(in), "release");
    bench_check(amp_array_view_release(out), "release");
    report(o, name, (double)(e + m) * sizeof(float));
    free(in_data);
    free(tmp_data);
    free(out_data);
}

void bench_laziness(const bench_options *o)
{
    int n = o->quick ? 128 : 1024;
    printf("\n## Laziness: bytes moved / bytes necessary (transfer ledger)\n\n");
    printf("- necessary: each input uploaded once, each result downloaded once; n = %d\n", n);
    printf("- MB moved, with the number of copies in brackets; every case ends with the release "
           "of its views\n\n");
    printf("| computation | necessary MB | uploaded MB | downloaded MB | moved / necessary "
           "|\n|---|---:|---:|---:|---:|\n");
    csv = bench_csv_open(o, "laziness.csv",
                         "device,computation,necessary_bytes,upload_bytes,uploads,download_bytes,"
                         "downloads,ratio");
    sgemm_case(o, n, 1, 0, "SGEMM kernel 6 (C as created)");
    sgemm_case(o, n, 1, 1, "SGEMM kernel 6, C discarded first");
    sgemm_case(o, n / 4, 6, 1, "SGEMM kernels 1-6 in a row on the same views (n / 4)");
    average_case(o, n, 0, 0, "tile average, T = 4");
    average_case(o, n, 1, 0, "scale, then tile average (intermediate never on the host)");
    average_case(o, n, 1, 1, "the same, 3 rounds, host reads the input between rounds");
    if (csv)
        fclose(csv);
    csv = NULL;
}
