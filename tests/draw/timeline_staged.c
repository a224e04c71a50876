/*
 * tests/draw/timeline_staged.c - a run whose uploads take the device's
 * transfer queue, as large uploads do on a GPU, for the timeline's test
 * (test_runs.py): the staged path is forced for every transfer of 1 MiB
 * and more (data/staging.h), then an upload into one array follows a
 * kernel on another, twice, and the data is checked. Run it with
 * AMP_TIMELINE set; prints "ok" and returns 0 when the data is right.
 */
#include <stdio.h>
#include <stdlib.h>

#include <amp/amp.h>

#include "core/testing.h"

#define N (1 << 20) /* floats: 4 MiB */

static int check(amp_status st, const char *what)
{
    if (st != AMP_OK)
        fprintf(stderr, "%s: %s\n", what, amp_last_error());
    return st == AMP_OK;
}

int main(void)
{
    amp__test_set_transfer_path(TEST_PATH_STAGED, (size_t)1 << 20, (size_t)1 << 20);
    float *host = malloc(N * sizeof *host), *back = malloc(N * sizeof *back);
    amp_array *a = NULL, *b = NULL;
    amp_accelerator_view *av = NULL;
    int ok = host && back && check(amp_accelerator_get_default_view(NULL, &av), "view");
    for (int i = 0; ok && i < N; i++)
        host[i] = (float)(i % 1000);
    ok = ok && check(amp_array_create(AMP_FLOAT, amp_extent_1d(N), NULL, &a), "array a") &&
         check(amp_array_create(AMP_FLOAT, amp_extent_1d(N), NULL, &b), "array b");
    for (int round = 0; ok && round < 2; round++) {
        ok = check(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), i, AMP_CAPTURE(a), {
                 float x = (float)i[0];
                 for (int k = 0; k < 64; k++)
                     x = x * 0.5f + 1.0f;
                 a(i) = x;
             }),
                   "kernel") &&
             check(AMP_COPY(host, b), "upload") && check(amp_accelerator_view_wait(av), "wait");
    }
    ok = ok && check(AMP_COPY(b, back), "download");
    for (int i = 0; ok && i < N; i += 4099)
        ok = back[i] == host[i];
    amp_array_release(a);
    amp_array_release(b);
    free(host);
    free(back);
    printf("%s\n", ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
