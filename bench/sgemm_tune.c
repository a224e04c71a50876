/*
 * bench/sgemm_tune.c - tune SGEMM kernel 6 for the default accelerator
 * (AMP_DEVICE picks another) and store the best parameters for it.
 *
 *   sgemm_tune [--size n] [--repeat R] [--dry-run]
 *
 * Default size: 2048 on a CPU device, 4096 on a GPU. --dry-run measures
 * and prints without storing.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

int main(int argc, char **argv)
{
    int n = 0, repeat = 3, dry_run = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            n = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            repeat = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--dry-run") == 0) {
            dry_run = 1;
        } else {
            fprintf(stderr, "usage: %s [--size n] [--repeat R] [--dry-run]\n", argv[0]);
            return EXIT_FAILURE;
        }
    }
    amp_accelerator *acc;
    amp_accelerator_view *av;
    amp_accelerator_info info;
    bench_check(amp_accelerator_get_default(&acc), "accelerator");
    bench_check(amp_accelerator_get_default_view(acc, &av), "view");
    bench_check(amp_accelerator_get_info(acc, &info), "info");
    if (n <= 0)
        n = info.is_emulated ? 2048 : 4096;
    if (repeat < 1)
        repeat = 1;
    return bench_tune(acc, av, n, repeat, dry_run) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
