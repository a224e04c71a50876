/*
 * tests/draw/timeline_clock.c - launches, each followed by a wait, for the
 * timeline's clock test (test_runs.py). The first marker that measures the
 * queue's clock (device/devtime.c) is made to take 20 ms after the device
 * stamped it, as an enqueue that the system interrupts may: the middle of
 * the host's readings around it is then 10 ms past the stamp, and a clock
 * measured by that marker alone would draw every device event 10 ms late,
 * after the waits that waited for it. Launches COUNT (argv[1], default 24)
 * kernels, waits after each, and checks the data. Run it with
 * AMP_TIMELINE and AMP_TIMELINE_KERNELS=all; prints "ok" and returns 0 when
 * the data is right.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <amp/amp.h>

#include "core/testing.h"

#define N 256

static __typeof__(amp__clapi.EnqueueMarkerWithWaitList) real_marker;
static int markers;

static cl_int slow_first_marker(cl_command_queue q, cl_uint nwait, const cl_event *wait,
                                cl_event *event)
{
    cl_int rc = real_marker(q, nwait, wait, event);
    if (markers++ == 0)
        nanosleep(&(struct timespec){0, 20000000}, NULL);
    return rc;
}

int main(int argc, char **argv)
{
    int count = argc > 1 ? atoi(argv[1]) : 24;
    static float x[N];
    amp_accelerator_view *av = NULL;
    amp_array_view *v = NULL;
    /* The view first: the OpenCL calls' table is filled by then. */
    amp_status st = amp_accelerator_get_default_view(NULL, &av);
    if (st == AMP_OK) {
        real_marker = amp__clapi.EnqueueMarkerWithWaitList;
        amp__clapi.EnqueueMarkerWithWaitList = slow_first_marker;
        st = amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), x, &v);
    }
    for (int k = 0; st == AMP_OK && k < count; k++) {
        st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), i, AMP_CAPTURE(v), { v(i) += 1.0f; });
        if (st == AMP_OK)
            st = amp_accelerator_view_wait(av);
    }
    if (st == AMP_OK)
        st = amp_array_view_synchronize(v);
    if (st != AMP_OK) {
        fprintf(stderr, "%s\n", amp_last_error());
        return 1;
    }
    for (int i = 0; i < N; i++)
        if (x[i] != (float)count) {
            fprintf(stderr, "x[%d] = %g, not %d\n", i, x[i], count);
            return 1;
        }
    if (markers < 2) {
        fprintf(stderr, "the queue's clock was measured by %d marker(s)\n", markers);
        return 1;
    }
    amp_array_view_release(v);
    printf("ok\n");
    return 0;
}
