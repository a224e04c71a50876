/*
 * Kernel 1: naive. One thread per element of C; each reads a whole row of A
 * and a whole column of B from device memory.
 *
 * The baseline the others are measured against. It does 2 flops for every
 * 8 bytes it loads, and the loads of B walk down a column, so it is limited
 * by memory, not arithmetic. The runtime rounds the domain up to whole
 * work-groups and skips the extra threads, so any M and N work.
 */
#include "sgemm.h"

amp_status sgemm_1_naive_on(amp_accelerator_view *av, const sgemm_operands *op)
{
    amp_array_view *a = op->a, *b = op->b, *c = op->c;
    int K = op->K;
    return AMP_PARALLEL_FOR_EACH_ON(av, amp_extent_2d(op->M, op->N), idx, AMP_CAPTURE(a, b, c, K), {
        int row = idx[0];
        int col = idx[1];
        float sum = 0.0f;
        for (int k = 0; k < K; k++)
            sum += a(row, k) * b(k, col);
        c(row, col) = sum;
    });
}

amp_status sgemm_1_naive(const sgemm_operands *op)
{
    return sgemm_1_naive_on(NULL, op);
}
