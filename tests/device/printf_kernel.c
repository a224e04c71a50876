/*
 * tests/device/printf_kernel.c - printf from inside a kernel. The test passes when
 * the kernel's lines reach standard output (tests/device/CMakeLists.txt checks).
 *
 * Then one call site of a kernel of scalars only, on the default view given
 * as NULL and by its handle in turn: two launch records of one compiled
 * kernel, neither with a view, so no data source changes between them.
 * Each launch must print its own scalar, though the other record set the
 * kernel's arguments in between (its count of arguments set, kernel/bind.c,
 * which each record compares with its own, api/record.c).
 */
#include <stdio.h>

#include <amp/amp.h>

static amp_status say(amp_accelerator_view *av, int record)
{
    return AMP_PARALLEL_FOR_EACH_ON(av, amp_extent_1d(1), idx, AMP_CAPTURE(record),
                                    { printf("record %d of %d\n", record, idx[0]); });
}

int main(void)
{
    int seven = 7;
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(2), idx, AMP_CAPTURE(seven),
                                          { printf("kernel thread %d says %d\n", idx[0], seven * 6); });
    amp_accelerator_view *av = NULL;
    if (st == AMP_OK)
        st = amp_accelerator_get_default_view(NULL, &av);
    if (st == AMP_OK)
        st = amp_accelerator_view_wait(av);
    for (int i = 0; i < 4 && st == AMP_OK; i++) {
        st = say(i % 2 ? av : NULL, i % 2 + 1);
        if (st == AMP_OK)
            st = amp_accelerator_view_wait(av);
    }
    if (st != AMP_OK) {
        fprintf(stderr, "%s: %s\n", amp_status_name(st), amp_last_error());
        return 1;
    }
    fflush(stdout);
    return 0;
}
