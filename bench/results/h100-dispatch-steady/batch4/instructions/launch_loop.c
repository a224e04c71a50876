/* Measurement only (count.sh): one kernel launched LAUNCHES times on the
 * default device, the repeated launches inside loop_launches(). */
#include <amp/amp.h>
#include <stdio.h>
#include <stdlib.h>
static amp_status tiny(amp_extent domain, amp_array_view *v)
{
    return AMP_PARALLEL_FOR_EACH(domain, idx, AMP_CAPTURE(v), { v(idx[0]) += 1.0f; });
}
__attribute__((noinline)) static int loop_launches(amp_array_view *v, int n)
{
    for (int i = 0; i < n; i++)
        if (tiny(amp_extent_1d(256), v) != AMP_OK) {
            printf("%s\n", amp_last_error());
            return 1;
        }
    return 0;
}
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    static float data[256];
    amp_array_view *v = NULL;
    if (amp_array_view_create(AMP_FLOAT, amp_extent_1d(256), data, &v) != AMP_OK)
        return 1;
    if (tiny(amp_extent_1d(256), v) != AMP_OK || loop_launches(v, n))
        return 1;
    amp_accelerator_view_wait(NULL);
    amp_array_view_release(v);
    printf("ok %g\n", data[0]);
    return 0;
}
