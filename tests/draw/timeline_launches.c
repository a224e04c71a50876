/*
 * tests/draw/timeline_launches.c - a loop of tiny launches, back to back,
 * for the timeline's sampling test (test_runs.py): its first kernels are
 * timed on the device, then one now and then (device/devtime.h). Launches
 * COUNT (argv[1], default 3000) kernels that add 1 to each element, then
 * checks the data. With "pause" (argv[2]), it waits for the first half,
 * then sleeps 30 ms before the second: a pause of the library. With
 * "late", it stops the timeline first, makes its view and launches once
 * unrecorded, then starts the timeline again before the COUNT launches:
 * data the timeline first meets in a launch that writes it. Run it with
 * AMP_TIMELINE set; prints "ok" and returns 0 when the data is right.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <amp/amp.h>
#include <amp/timeline.h>

#define N 256

int main(int argc, char **argv)
{
    int count = argc > 1 ? atoi(argv[1]) : 3000;
    static float x[N];
    amp_array_view *v = NULL;
    int late = argc > 2 && strcmp(argv[2], "late") == 0;
    amp_status st = late ? amp_timeline_stop() : AMP_OK;
    if (st == AMP_OK)
        st = amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), x, &v);
    if (late && st == AMP_OK)
        st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), i, AMP_CAPTURE(v), { v(i) += 1.0f; });
    if (late && st == AMP_OK)
        st = amp_array_view_synchronize(v);
    if (late && st == AMP_OK)
        st = amp_timeline_start(NULL);
    int pause_at = argc > 2 && strcmp(argv[2], "pause") == 0 ? count / 2 : -1;
    for (int k = 0; st == AMP_OK && k < count; k++) {
        if (k == pause_at) {
            st = amp_array_view_synchronize(v);
            nanosleep(&(struct timespec){0, 30000000}, NULL);
        }
        if (st == AMP_OK)
            st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), i, AMP_CAPTURE(v), { v(i) += 1.0f; });
    }
    if (st == AMP_OK)
        st = amp_array_view_synchronize(v);
    if (st != AMP_OK) {
        fprintf(stderr, "%s\n", amp_last_error());
        return 1;
    }
    for (int i = 0; i < N; i++)
        if (x[i] != (float)(count + late)) {
            fprintf(stderr, "x[%d] = %g, not %d\n", i, x[i], count + late);
            return 1;
        }
    amp_array_view_release(v);
    printf("ok\n");
    return 0;
}
