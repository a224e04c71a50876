/*
 * bench/sgemm_tune.c - tune SGEMM kernel 6 for the default accelerator
 * (AMP_DEVICE picks another) and store the best parameters for it.
 *
 *   sgemm_tune [--size n] [--small n] [--repeat R] [--dry-run]
 *
 * --size: the large product, 2048 on a CPU device and 4096 on a GPU by
 * default; --small: the small one, a quarter of that (0: none). Products
 * smaller than the geometric mean of the two use the small one's best.
 * --dry-run measures and prints without storing.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

int main(int argc, char **argv)
{
    int n = 0, small = -1, repeat = 3, dry_run = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            n = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--small") == 0 && i + 1 < argc) {
            small = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            repeat = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--dry-run") == 0) {
            dry_run = 1;
        } else {
            fprintf(stderr, "usage: %s [--size n] [--small n] [--repeat R] [--dry-run]\n",
                    argv[0]);
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
    if (small < 0)
        small = n / 4;
    if (repeat < 1)
        repeat = 1;
    return bench_tune(acc, av, n, small, repeat, dry_run) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
