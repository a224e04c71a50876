/*
 * bench/sgemm_tune.c - tune SGEMM kernel 6 for the default accelerator
 * (AMP_DEVICE picks another) and store the best parameters for it.
 *
 *   sgemm_tune [--size n] [--small n] [--repeat R] [--dry-run]
 *              [--all | --candidates LIST] [--explore SIZES] [--top T] [--csv FILE]
 *
 * --size: the large product, 2048 on a CPU device and 4096 on a GPU by
 * default; --small: where the configuration with smaller tiles is chosen,
 * a quarter of that by default (0: none). --repeat: timed runs of each
 * measurement, after a warm-up as the benchmark's (default 5; the median
 * counts). --dry-run measures and prints without storing. --all measures a
 * generated family of several hundred configurations on a GPU (a hundred
 * or so on a CPU) instead of the usual dozen; --candidates only those
 * listed, "staged,ty,tx,rm,nv,vw,bk;..." (sgemm_params' order), or @FILE:
 * that list from FILE, one candidate a line or separated by ';'. --explore
 * 1000,2049,... then measures the T best at the large size and the T best
 * at the small one (default 6) at those sizes (n or MxNxK) with K split in
 * 1 to 8 parts, marking what sgemm_tuning_pick's model chooses, and stores
 * the fastest plan at each size with the tuning, where kernel 6 takes it
 * for products near that size. Without --explore it explores the sizes of
 * sgemm_tuning_explore_sizes (on a GPU, those up to 3000 whose tiles fill
 * few waves of its compute units; none on a CPU); --explore none explores
 * nothing. --csv writes every measurement to FILE.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* The candidates of a file, as one ';'-separated string; NULL (after a
 * message) when it cannot be read. */
static char *read_list(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    int ch;
    while (text && (ch = fgetc(f)) != EOF) {
        if (len + 2 > cap) {
            char *more = realloc(text, cap *= 2);
            if (!more) {
                free(text);
                text = NULL;
                break;
            }
            text = more;
        }
        if (ch == '\n' || ch == ' ')
            ch = ';';
        if (!(ch == ';' && (len == 0 || text[len - 1] == ';')))
            text[len++] = (char)ch;
    }
    fclose(f);
    if (text)
        text[len] = '\0';
    else
        fprintf(stderr, "%s: out of memory\n", path);
    return text;
}

static void usage(const char *prog, int status)
{
    fprintf(status == EXIT_SUCCESS ? stdout : stderr,
            "usage: %s [--size n] [--small n] [--repeat R] [--dry-run]\n"
            "          [--all | --candidates LIST] [--explore SIZES] [--top T] [--csv FILE]\n"
            "  --size     the large product, n x n x n, 256 to 32768 (default 2048 on a CPU,\n"
            "             4096 on a GPU)\n"
            "  --small    where the configuration with smaller tiles is chosen, 64 to 32768,\n"
            "             or 0 for none (default a quarter of --size)\n"
            "  --repeat   timed runs of each measurement, 1 to 64 (default 5)\n"
            "  --dry-run  measure and print, store nothing\n"
            "  --all      the generated family (hundreds on a GPU) instead of the usual dozen\n"
            "  --candidates \"staged,ty,tx,rm,nv,vw,bk;...\" or @FILE: only those\n"
            "  --explore  1000,2049,MxNxK,...: plans (tile, parts of K) measured at these sizes;\n"
            "             none: no plans; by default the sizes up to 3000 whose tiles are few\n"
            "             for the device's compute units (on a GPU; none on a CPU)\n"
            "  --top      how many configurations --explore tries at each, 1 to 64 (default 6)\n"
            "  --csv      every measurement to FILE\n",
            prog);
    exit(status);
}

/* The number argv[i] as an option's value from lo to hi (or 0 where zero
 * is allowed); else the usage, after what was wrong. */
static int number(char **argv, int i, int lo, int hi, int zero)
{
    char *end;
    errno = 0;
    long v = strtol(argv[i], &end, 10);
    if (errno == 0 && end != argv[i] && *end == '\0' && ((v >= lo && v <= hi) || (zero && !v)))
        return (int)v;
    fprintf(stderr, "%s: %s takes a whole number from %d to %d%s, not '%s'\n", argv[0], argv[i - 1],
            lo, hi, zero ? " (or 0)" : "", argv[i]);
    usage(argv[0], EXIT_FAILURE);
    return 0;
}

int main(int argc, char **argv)
{
    bench_tune_options o = {0, -1, 5, 0, 0, NULL, "auto", 6, NULL};
    int explore_sizes[32][3]; /* only to check the list: explore reads it again */
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            usage(argv[0], EXIT_SUCCESS);
        } else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            o.n_large = number(argv, ++i, 256, 32768, 0);
        } else if (strcmp(argv[i], "--small") == 0 && i + 1 < argc) {
            o.n_small = number(argv, ++i, 64, 32768, 1);
        } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            o.repeat = number(argv, ++i, 1, 64, 0);
        } else if (strcmp(argv[i], "--dry-run") == 0) {
            o.dry_run = 1;
        } else if (strcmp(argv[i], "--all") == 0) {
            o.all = 1;
        } else if (strcmp(argv[i], "--candidates") == 0 && i + 1 < argc) {
            o.list = argv[++i];
            if (o.list[0] == '@' && !(o.list = read_list(o.list + 1)))
                return EXIT_FAILURE;
        } else if (strcmp(argv[i], "--explore") == 0 && i + 1 < argc &&
                   strcmp(argv[i + 1], "none") == 0) {
            o.explore = NULL;
            i++;
        } else if (strcmp(argv[i], "--explore") == 0 && i + 1 < argc &&
                   bench_parse_sizes(argv[i + 1], explore_sizes, 32) > 0) {
            o.explore = argv[++i];
        } else if (strcmp(argv[i], "--top") == 0 && i + 1 < argc) {
            o.explore_top = number(argv, ++i, 1, 64, 0);
        } else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
            o.csv_path = argv[++i];
        } else {
            fprintf(stderr,
                    "%s: '%s' is no option of this program, or lacks its value (an"
                    " --explore list: sizes n or MxNxK, by commas, or none)\n",
                    argv[0], argv[i]);
            usage(argv[0], EXIT_FAILURE);
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    amp_accelerator *acc;
    amp_accelerator_view *av;
    amp_accelerator_info info;
    bench_check(amp_accelerator_get_default(&acc), "accelerator");
    bench_check(amp_accelerator_get_default_view(acc, &av), "view");
    bench_check(amp_accelerator_get_info(acc, &info), "info");
    if (o.n_large <= 0)
        o.n_large = info.is_emulated ? 2048 : 4096;
    if (o.n_small < 0)
        o.n_small = o.n_large / 4;
    if (o.repeat < 1)
        o.repeat = 1;
    if (o.explore_top < 1)
        o.explore_top = 1;
    return bench_tune(acc, av, &o) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
