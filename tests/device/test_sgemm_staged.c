/*
 * tests/device/test_sgemm_staged.c - SGEMM kernel 6
 * (samples/sgemm_progression/sgemm_6_tuned.c) with a GPU's parameters on
 * the default device: panels staged in tile_static memory, and A and B
 * packed on the device in one launch (pack_on_gpu), which a CPU device
 * never runs with its own parameters. The pack moves float4s where four
 * floats lie inside a row of A or B and their address is a multiple of 16,
 * and float by float elsewhere; so the products here have N and K that are
 * not multiples of 4 (the last float4 of a row hangs over its end), sizes
 * that are multiples of no block of the pack nor of any panel, and views
 * whose rows start 4 bytes past a multiple of 16 although their length is
 * a multiple of 4. Inputs are small integers, so every sum is exact and
 * each element of C must equal the reference.
 *
 * And with a CPU's parameters (staged = 0), where only B is packed
 * (pack_b_on_cpu), in vectors of the product's width: each width the
 * product takes, with B's right edge inside a panel (whose rows are then
 * copied float by float), K past one block of the pack's rows, and views
 * whose rows start 4 bytes on. What the pack writes past B's edges, the
 * product never stores, so only what lies inside B is checked here.
 */
#include <math.h>
#include <stdlib.h>

#include "test_util.h"

#include "sgemm.h"

/* Parameters of GPUs: the defaults for large products and for small ones
 * (sgemm_tuning_default), the H100's plan at 1000^3 (64 x 128 tiles), and
 * panels of 12 rows and 4 columns, 3 steps deep (no multiple of a block of
 * the pack, nor of 4 in k). */
static const sgemm_params gpu_params[] = {
    {2, 16, 16, 8, 2, 4, 16},
    {1, 16, 16, 8, 1, 4, 32},
    {2, 8, 32, 8, 1, 4, 16},
    {1, 3, 1, 4, 1, 4, 3},
};
enum { PARAMS = sizeof gpu_params / sizeof gpu_params[0] };

/* Parameters of CPUs: one thread a tile, rm rows x nv vectors of vw floats,
 * every vector width. */
static const sgemm_params cpu_params[] = {
    {0, 1, 1, 6, 2, 8, 1},
    {0, 1, 1, 4, 1, 16, 1},
    {0, 1, 1, 3, 2, 4, 1},
    {0, 1, 1, 2, 3, 2, 1},
};
enum { CPU_PARAMS = sizeof cpu_params / sizeof cpu_params[0] };

typedef struct size3 {
    int M, N, K;
} size3;

/* Small integers in [-4, 4]: the sums stay exact in float. */
static void fill(float *p, size_t n, unsigned seed)
{
    unsigned x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (float)((int)((x >> 16) % 9u) - 4);
    }
}

/* C = A * B by kernel 6 with parameters p, K in `splits` parts, A and B
 * the sections from column `shift` of matrices `shift` columns wider;
 * every element checked. Returns 0, or 1 when the device cannot run p. */
static int check_product(const sgemm_params *p, int splits, size3 s, int shift)
{
    amp_accelerator *acc;
    amp_accelerator_info info;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    assert_amp_ok(amp_accelerator_get_info(acc, &info));
    if (sgemm_params_check(p, &info) != NULL)
        return 1;

    int M = s.M, N = s.N, K = s.K, lda = K + shift, ldb = N + shift;
    float *A = malloc((size_t)M * lda * sizeof *A);
    float *B = malloc((size_t)K * ldb * sizeof *B);
    float *C = malloc((size_t)M * N * sizeof *C);
    assert_non_null(A);
    assert_non_null(B);
    assert_non_null(C);
    fill(A, (size_t)M * lda, 1);
    fill(B, (size_t)K * ldb, 2);
    for (size_t e = 0; e < (size_t)M * N; e++)
        C[e] = NAN;

    amp_array_view *wide_a, *wide_b;
    sgemm_operands op = {NULL, NULL, NULL, M, N, K};
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(M, lda), A, &wide_a));
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(K, ldb), B, &wide_b));
    assert_amp_ok(amp_array_view_section(wide_a, amp_index_2d(0, shift), amp_extent_2d(M, K),
                                         &op.a));
    assert_amp_ok(amp_array_view_section(wide_b, amp_index_2d(0, shift), amp_extent_2d(K, N),
                                         &op.b));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(M, N), C, &op.c));

    sgemm_plan plan = {*p, splits};
    sgemm_workspace ws = {0};
    assert_amp_ok(sgemm_6_tuned(&op, &plan, &ws));
    assert_amp_ok(amp_array_view_synchronize(op.c));

    double *row = malloc((size_t)N * sizeof *row);
    assert_non_null(row);
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < N; j++)
            row[j] = 0;
        for (int k = 0; k < K; k++)
            for (int j = 0; j < N; j++)
                row[j] += (double)A[(size_t)i * lda + shift + k] * B[(size_t)k * ldb + shift + j];
        for (int j = 0; j < N; j++)
            if ((double)C[(size_t)i * N + j] != row[j])
                fail_msg("staged %d, %dx%d threads, %d rows x %d float%d, bk %d, %d parts, "
                         "%d x %d x %d, shift %d: C(%d, %d) = %g, expected %g",
                         p->staged, p->ty, p->tx, p->rm, p->nv, p->vw, p->bk, splits, M, N, K,
                         shift, i, j, (double)C[(size_t)i * N + j], row[j]);
    }

    free(row);
    sgemm_workspace_release(&ws);
    assert_amp_ok(amp_array_view_release(op.c));
    assert_amp_ok(amp_array_view_release(op.b));
    assert_amp_ok(amp_array_view_release(op.a));
    assert_amp_ok(amp_array_view_release(wide_b));
    assert_amp_ok(amp_array_view_release(wide_a));
    free(C);
    free(B);
    free(A);
    return 0;
}

/* Each GPU configuration at each size, K whole and (where it has room) in
 * parts; at least one configuration must run on the device. */
static void check_sizes(const size3 *sizes, int nsizes, int shift)
{
    int ran = 0;
    for (int c = 0; c < PARAMS; c++)
        for (int i = 0; i < nsizes; i++) {
            int skipped = check_product(&gpu_params[c], 1, sizes[i], shift);
            if (!skipped && sizes[i].K > 2 * gpu_params[c].bk)
                check_product(&gpu_params[c], 2, sizes[i], shift);
            ran += !skipped;
        }
    assert_true(ran > 0);
}

/* N and K not multiples of 4: the pack's float4s at the ends of rows fall
 * back to floats, zero past the edge. */
static void gpu_packs_are_exact_where_rows_end_inside_a_float4(void **state)
{
    (void)state;
    const size3 sizes[] = {{1, 1, 1}, {3, 5, 7}, {67, 129, 33}, {130, 201, 77}, {261, 263, 97}};
    check_sizes(sizes, RUNNING_ON_VALGRIND ? 3 : 5, 0);
}

/* Rows of a length that is a multiple of 4, starting 4 bytes past a
 * multiple of 16: the pack's 16-byte loads would be misaligned. */
static void gpu_packs_are_exact_on_views_whose_rows_start_off_16_bytes(void **state)
{
    (void)state;
    const size3 sizes[] = {{4, 4, 4}, {132, 136, 68}, {67, 129, 33}};
    check_sizes(sizes, RUNNING_ON_VALGRIND ? 1 : 3, 1);
}

/* B packed in vectors of the product's width: N ends inside a panel of
 * every configuration, K runs past one block of 64 rows (first, so that
 * valgrind's shorter run has it), and the views' rows start 4 bytes on.
 * A CPU's parameters run on every device. */
static void cpu_packs_are_exact_at_every_vector_width(void **state)
{
    (void)state;
    const size3 sizes[] = {{13, 37, 77}, {67, 129, 33}, {3, 5, 7}};
    int nsizes = RUNNING_ON_VALGRIND ? 2 : 3, ran = 0;
    for (int c = 0; c < CPU_PARAMS; c++)
        for (int i = 0; i < nsizes; i++)
            for (int shift = 0; shift < 2; shift++)
                ran += !check_product(&cpu_params[c], 1, sizes[i], shift);
    assert_int_equal(ran, CPU_PARAMS * nsizes * 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gpu_packs_are_exact_where_rows_end_inside_a_float4),
        cmocka_unit_test(gpu_packs_are_exact_on_views_whose_rows_start_off_16_bytes),
        cmocka_unit_test(cpu_packs_are_exact_at_every_vector_width),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
