/*
 * What moves, and why: the same three-step computation done naively
 * (copying the data back after every kernel, as code written without
 * array_view's laziness does) and lazily (letting the view decide), with
 * the bytes each one moved, read from the transfer ledger.
 *
 * Then a section: synchronizing one corner of a matrix moves that corner's
 * bytes, not the whole matrix.
 *
 * Run with AMP_TRACE=transfers to see each copy as it happens.
 */
#include <stdio.h>

#include <amp/amp.h>

#include "../common/sample_check.h"

#define N 256

static float data[N * N];

static void reset(void)
{
    for (int i = 0; i < N * N; i++)
        data[i] = (float)(i % 7);
}

/* One step of the computation: x = 2x + 1. */
static void step(amp_array_view *m)
{
    check(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(m), idx, AMP_CAPTURE(m), {
        m(idx) = 2 * m(idx) + 1;
    }));
}

static void print_ledger(const char *what, amp_array_view *m, long long necessary)
{
    amp_transfer_stats s;
    check(amp_array_view_get_transfers(m, &s));
    long long moved = (long long)(s.upload_bytes + s.download_bytes);
    printf("%-8s %2llu uploads, %2llu downloads, %8llu bytes moved; necessary %8lld: %.2f\n", what,
           (unsigned long long)s.uploads, (unsigned long long)s.downloads,
           (unsigned long long)moved, necessary, (double)moved / (double)necessary);
}

int main(void)
{
    const long long bytes = (long long)sizeof data;
    amp_array_view *m;

    /* Naive: after each kernel the host looks at the data (synchronize),
     * and then says it may have changed it (refresh), so the next kernel
     * uploads again. */
    reset();
    check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(N, N), data, &m));
    for (int k = 0; k < 3; k++) {
        step(m);
        check(amp_array_view_synchronize(m));
        check(amp_array_view_refresh(m));
    }
    float naive_result = data[N * N - 1];
    print_ledger("naive", m, 2 * bytes);
    check(amp_array_view_release(m));

    /* Lazy: the data goes up once, stays on the device for the three
     * kernels, and comes down once when the host asks. */
    reset();
    check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(N, N), data, &m));
    for (int k = 0; k < 3; k++)
        step(m);
    check(amp_array_view_synchronize(m));
    print_ledger("lazy", m, 2 * bytes);
    printf("same result: %s (last element %g)\n", data[N * N - 1] == naive_result ? "yes" : "no",
           (double)data[N * N - 1]);
    check(amp_array_view_release(m));

    /* A section: only its 16 x 32 floats come back. */
    reset();
    amp_array_view *corner;
    check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(N, N), data, &m));
    check(amp_array_view_discard_data(m)); /* the kernel writes every element */
    check(AMP_PARALLEL_FOR_EACH(amp_extent_2d(N, N), idx, AMP_CAPTURE(m), {
        m(idx) = idx[0] + idx[1];
    }));
    check(amp_array_view_section(m, amp_index_2d(8, 8), amp_extent_2d(16, 32), &corner));
    check(amp_array_view_synchronize(corner));
    print_ledger("section", m, 16 * 32 * (long long)sizeof(float));
    printf("corner (8, 8) = %g, (23, 39) = %g\n", (double)data[8 * N + 8],
           (double)data[23 * N + 39]);
    check(amp_array_view_release(corner));
    check(amp_array_view_discard_data(m)); /* the rest is not needed */
    check(amp_array_view_release(m));
    return 0;
}
