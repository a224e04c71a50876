/*
 * Any kernel of the progression across a set of accelerators, by blocks of
 * rows of C (sgemm.h says why by rows, and not by one launch over the set).
 *
 * The rows are split in blocks of up to 128 (kernel 6's row panel on a
 * GPU, so that no block ends inside a panel but the last), halved for a
 * product too small to give every view a block. View k gets the blocks
 * amp_accelerator_set_partition gives it, and runs the kernel on sections
 * of A and C of those rows: its part of A goes to its accelerator alone,
 * B to every one, and its rows of C are written there and stay there until
 * the host reads C. The launches are queued one view after the other and
 * run at the same time.
 */
#include <stdlib.h>

#include "sgemm.h"

/* The kernel of one view's block: k is the view's place in the set. */
typedef amp_status (*block_run)(size_t k, amp_accelerator_view *av, const sgemm_operands *op,
                                const void *user);

/* Rows of C per block: 128, halved until each of n views can have one. */
static int block_rows(int M, size_t n)
{
    int rows = 128;
    while (rows > 1 && (size_t)((M + rows - 1) / rows) < n)
        rows /= 2;
    return rows;
}

/* run on each view's block of rows of C, through sections of A and C. */
static amp_status by_rows(amp_accelerator_set *set, const sgemm_operands *op, block_run run,
                          const void *user)
{
    size_t n = amp_accelerator_set_size(set);
    amp_accelerator_view *av = NULL;
    if (n == 0)
        return amp_accelerator_set_get_view(set, 0, &av); /* the set's failure */
    int rows = block_rows(op->M, n);
    int64_t *starts = malloc((n + 1) * sizeof *starts);
    if (!starts)
        return AMP_ERROR_OUT_OF_MEMORY;
    amp_status st = amp_accelerator_set_partition(set, (op->M + rows - 1) / rows, starts);
    for (size_t k = 0; k < n && st == AMP_OK; k++) {
        int r0 = (int)starts[k] * rows, r1 = (int)starts[k + 1] * rows;
        if (r1 > op->M)
            r1 = op->M;
        if (r1 <= r0)
            continue;
        sgemm_operands block = *op;
        block.M = r1 - r0;
        block.a = block.c = NULL;
        st = amp_accelerator_set_get_view(set, k, &av);
        if (st == AMP_OK)
            st = amp_array_view_section(op->a, amp_index_2d(r0, 0), amp_extent_2d(block.M, op->K),
                                        &block.a);
        if (st == AMP_OK)
            st = amp_array_view_section(op->c, amp_index_2d(r0, 0), amp_extent_2d(block.M, op->N),
                                        &block.c);
        if (st == AMP_OK)
            st = run(k, av, &block, user);
        /* The kernels keep what they use: the sections may go now. */
        amp_array_view_release(block.a);
        amp_array_view_release(block.c);
    }
    free(starts);
    return st;
}

typedef struct plain_kernel {
    amp_status (*run_on)(amp_accelerator_view *av, const sgemm_operands *op);
} plain_kernel;

static amp_status run_plain(size_t k, amp_accelerator_view *av, const sgemm_operands *op,
                            const void *user)
{
    (void)k;
    return ((const plain_kernel *)user)->run_on(av, op);
}

amp_status sgemm_rows_on_set(amp_accelerator_set *set, const sgemm_operands *op,
                             amp_status (*run_on)(amp_accelerator_view *av,
                                                  const sgemm_operands *op))
{
    plain_kernel kernel = {run_on};
    return by_rows(set, op, run_plain, &kernel);
}

typedef struct tuned_kernel {
    const sgemm_tuning *tunings;
    sgemm_workspace *ws;
} tuned_kernel;

static amp_status run_tuned(size_t k, amp_accelerator_view *av, const sgemm_operands *op,
                            const void *user)
{
    const tuned_kernel *t = user;
    sgemm_plan plan = sgemm_tuning_pick(&t->tunings[k], op->M, op->N, op->K);
    return sgemm_6_tuned_on(av, op, &plan, &t->ws[k]);
}

amp_status sgemm_6_tuned_on_set(amp_accelerator_set *set, const sgemm_operands *op,
                                const sgemm_tuning *tunings, sgemm_workspace *ws)
{
    tuned_kernel kernel = {tunings, ws};
    return by_rows(set, op, run_tuned, &kernel);
}
