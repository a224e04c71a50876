/*
 * tests/printf_kernel.c - printf from inside a kernel. The test passes when
 * the kernel's lines reach standard output (tests/CMakeLists.txt checks).
 */
#include <stdio.h>

#include <amp/amp.h>

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
    if (st != AMP_OK) {
        fprintf(stderr, "%s: %s\n", amp_status_name(st), amp_last_error());
        return 1;
    }
    fflush(stdout);
    return 0;
}
