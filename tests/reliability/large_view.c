/*
 * tests/reliability/large_view.c - kernels over a view of more than 2^31 elements (8 GiB
 * of float), on a device that can hold it: a GPU (docs/reliability.md).
 *
 * A 65536 x 32784 float view (2^31 + 2^20 elements, 8 GiB + 4 MiB) is
 * doubled plus one by a kernel of one thread per element, then its last row,
 * a section that starts 2^31 - 32784 elements in, gets 1000 more; a release
 * copies it back. Every element is checked through a checksum of all of
 * them, and sampled positions one by one; the ledger must have moved the
 * whole view up once and down once.
 *
 * Exits 77 (CTest's "skipped") with a message when the device cannot
 * allocate the view or the host has no room for it: the test is labelled
 * "gpu", and on PoCL it only says so.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <amp/amp.h>

#define ROWS 65536
#define COLS 32784
#define ELEMENTS ((int64_t)ROWS * COLS)
#define SKIP 77

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What element i must hold at the end. */
static float expected(int64_t i)
{
    return 2.0f * (float)(i % 1024) + 1.0f + (i >= ELEMENTS - COLS ? 1000.0f : 0.0f);
}

#define CHECK(call)                                                                                \
    do {                                                                                           \
        amp_status st_ = (call);                                                                   \
        if (st_ != AMP_OK) {                                                                       \
            fprintf(stderr, "%s: %s: %s\n", #call, amp_status_name(st_), amp_last_error());        \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(void)
{
    size_t bytes = (size_t)ELEMENTS * sizeof(float);
    amp_accelerator *acc;
    amp_accelerator_info info;
    CHECK(amp_accelerator_get_default(&acc));
    CHECK(amp_accelerator_get_info(acc, &info));
    uint64_t max_alloc = info.max_allocation;
    printf("device: %s, %llu bytes of memory, at most %llu in one allocation\n",
           info.description, (unsigned long long)info.dedicated_memory,
           (unsigned long long)max_alloc);
    if (max_alloc < bytes + 64 || info.dedicated_memory < bytes + bytes / 8) {
        printf("skipped: the view needs %zu bytes in one allocation on the device; run it on a"
               " GPU with more (AMP_DEVICE=NVIDIA ctest -L gpu)\n",
               bytes);
        amp_shutdown();
        return SKIP;
    }
    float *data = malloc(bytes);
    if (!data) {
        printf("skipped: no %zu bytes of host memory for the view\n", bytes);
        amp_shutdown();
        return SKIP;
    }

    double t0 = seconds();
    for (int64_t i = 0; i < ELEMENTS; i++)
        data[i] = (float)(i % 1024);
    amp_array_view *v, *last;
    CHECK(amp_array_view_create(AMP_FLOAT, amp_extent_2d(ROWS, COLS), data, &v));
    amp_transfer_reset_stats();
    double t1 = seconds();
    CHECK(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(v), idx, AMP_CAPTURE(v),
                                { v(idx) = v(idx) * 2.0f + 1.0f; }));
    CHECK(amp_array_view_section(v, amp_index_2d(ROWS - 1, 0), amp_extent_2d(1, COLS), &last));
    CHECK(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(last), idx, AMP_CAPTURE(last),
                                { last(idx) += 1000.0f; }));
    CHECK(amp_array_view_release(last));
    CHECK(amp_array_view_release(v));
    double t2 = seconds();

    amp_transfer_stats t;
    CHECK(amp_transfer_get_stats(&t));
    int failed = 0;
    if (t.upload_bytes != bytes || t.download_bytes != bytes) {
        printf("FAILED: the ledger moved %llu bytes up and %llu down; the view has %zu\n",
               (unsigned long long)t.upload_bytes, (unsigned long long)t.download_bytes, bytes);
        failed = 1;
    }

    /* Sampled positions: a prime stride through the whole view, and the
     * last row, past 2^31 elements. */
    int64_t sampled = 0;
    for (int64_t i = 0; i < ELEMENTS; sampled++) {
        if (data[i] != expected(i) && failed++ < 10)
            printf("FAILED: element %lld is %g, not %g\n", (long long)i, data[i], expected(i));
        i = i < ELEMENTS - COLS - 1000003 ? i + 1000003 : i < ELEMENTS - COLS ? ELEMENTS - COLS
                                                                              : i + 1;
    }
    /* The checksum of every element (integers below 2^24, exact in float):
     * each run of 1024 elements sums to 1024^2, a partial run of r to r^2,
     * and the last row adds 1000 each. */
    uint64_t sum = 0;
    for (int64_t i = 0; i < ELEMENTS; i++)
        sum += (uint64_t)data[i];
    uint64_t runs = (uint64_t)ELEMENTS / 1024, rest = (uint64_t)ELEMENTS % 1024;
    uint64_t want = runs * 1024 * 1024 + rest * rest + 1000ull * COLS;
    if (sum != want) {
        printf("FAILED: the checksum of all %lld elements is %llu, not %llu\n",
               (long long)ELEMENTS, (unsigned long long)sum, (unsigned long long)want);
        failed = 1;
    }
    double t3 = seconds();
    printf("%s: a %d x %d float view (%lld elements, %zu bytes): filled in %.1f s; two kernels,"
           " one upload and one download of the whole view in %.1f s; %lld positions checked"
           " and the checksum %llu of every element in %.1f s\n",
           failed ? "FAILED" : "passed", ROWS, COLS, (long long)ELEMENTS, bytes, t1 - t0, t2 - t1,
           (long long)sampled, (unsigned long long)sum, t3 - t2);
    free(data);
    amp_shutdown();
    return failed ? 1 : 0;
}
