/*
 * bench/dispatch_tiny.c - the tiny kernel whose launch cost bench/dispatch.c
 * measures. It has a file of its own so that its generated source, which
 * the raw OpenCL side builds too, is easy to find among the dumped kernels
 * (AMP_DUMP_KERNELS names them amp_<file>_<line>.cl).
 */
#include "bench.h"

amp_status bench_tiny_kernel(amp_accelerator_view *av, amp_extent domain, amp_array_view *v)
{
    return AMP_PARALLEL_FOR_EACH_ON(av, domain, idx, AMP_CAPTURE(v), { v(idx[0]) += 1.0f; });
}
