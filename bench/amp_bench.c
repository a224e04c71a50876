/*
 * bench/amp_bench.c - the library's benchmark: one process, one device
 * (the default accelerator; AMP_DEVICE picks another), the same data for
 * every implementation. Prints Markdown tables, writes CSV files.
 *
 *   amp_bench [--out DIR] [--repeat R] [--quick] [--tune] [--only LIST] [--kernels LIST]
 *             [--sizes LIST]
 *
 *   --out DIR    where the CSV files go (default bench-results, created)
 *   --repeat R   timed runs per measurement (default 5); figures are medians
 *   --quick      small sizes, to see that everything runs
 *   --tune       run the kernel 6 tuner first and store its result
 *   --only LIST  some of: matmul,tile,dispatch,compile,lazy,transfers,overlap,
 *                timeline (default all but overlap, which transfers holds, and
 *                timeline: dispatch with a side whose launches the timeline
 *                records, in turns with the library's without it; queues
 *                made after it profile, as under AMP_TIMELINE)
 *   --kernels L  the SGEMM kernels of the progression to measure, e.g. 56
 *                (default all six; the baselines are always measured)
 *   --sizes L    the SGEMM sizes, e.g. 1024,1000x2000x500: M, or MxNxK
 *                (default the table for the device; at most 16)
 *
 * bench/plot.sh draws GFLOP/s against size from DIR/matmul.csv, and GB/s
 * against size from DIR/transfers.csv; bench/targets.sh says which of the
 * performance targets the CSV files meet.
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baselines.h"
#include "bench.h"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static int wanted(const char *only, const char *name)
{
    if (!only)
        return 1;
    size_t n = strlen(name);
    for (const char *p = only; (p = strstr(p, name)) != NULL; p += n)
        if ((p == only || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
            return 1;
    return 0;
}

/* mkdir -p: the folder for the results and the folders above it. */
static int make_dirs(const char *path)
{
    char dir[4096];
    int n = snprintf(dir, sizeof dir, "%s", path);
    if (n <= 0 || (size_t)n >= sizeof dir) {
        errno = n <= 0 ? ENOENT : ENAMETOOLONG;
        return -1;
    }
    for (char *s = dir + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(dir, 0777) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--compile-child") == 0)
        return bench_compile_child();
#ifdef BENCH_HAVE_OPENBLAS
    if (argc >= 2 && strcmp(argv[1], "--openblas-child") == 0)
        return bench_openblas_child(argc, argv);
#endif

    /* A line at a time, so that a log shows how far a long run got. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    bench_options o;
    memset(&o, 0, sizeof o);
    o.out_dir = "bench-results";
    o.repeat = 5;
    o.kernels = 0x3f;
    int tune = 0;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            o.out_dir = argv[++i];
        } else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
            o.repeat = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--quick") == 0) {
            o.quick = 1;
        } else if (strcmp(argv[i], "--tune") == 0) {
            tune = 1;
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "--kernels") == 0 && i + 1 < argc) {
            o.kernels = 0;
            for (const char *k = argv[++i]; *k; k++)
                if (*k >= '1' && *k <= '6')
                    o.kernels |= 1u << (*k - '1');
        } else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc &&
                   (o.nsizes = bench_parse_sizes(argv[i + 1], o.sizes,
                                                 (int)(sizeof o.sizes / sizeof o.sizes[0]))) > 0) {
            i++;
        } else {
            fprintf(
                stderr,
                "usage: %s [--out DIR] [--repeat R] [--quick] [--tune] [--only "
                "matmul,tile,dispatch,compile,lazy,transfers,overlap,timeline] [--kernels 123456] "
                "[--sizes 1024,1000x2000x500]\n",
                argv[0]);
            return EXIT_FAILURE;
        }
    }
    if (o.repeat < 1 || o.repeat > 64)
        o.repeat = 5;
    if (make_dirs(o.out_dir) != 0 || access(o.out_dir, W_OK) != 0) {
        perror(o.out_dir);
        return EXIT_FAILURE;
    }

    /* The compile section runs this program again: by its real path. */
    static char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0)
        self[len] = '\0';
    else
        snprintf(self, sizeof self, "%s", argv[0]);
    o.self = self;

    /* The dispatch section builds the runtime's generated source of its
     * tiny kernel: have the runtime write it out, before its first call. */
    static char dump[] = "/tmp/amp-bench-kernels-XXXXXX";
    int own_dump = 0;
    if (getenv("AMP_DUMP_KERNELS")) {
        o.dump_dir = getenv("AMP_DUMP_KERNELS");
    } else if (mkdtemp(dump)) {
        setenv("AMP_DUMP_KERNELS", dump, 1);
        o.dump_dir = dump;
        own_dump = 1;
    }

    bench_check(amp_accelerator_get_default(&o.acc), "accelerator");
    bench_check(amp_accelerator_get_default_view(o.acc, &o.av), "accelerator view");
    bench_check(amp_accelerator_get_info(o.acc, &o.info), "accelerator info");

    char date[32];
    time_t t = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
    printf("# amp %s benchmark\n\n", amp_version());
    printf("- device: %s (%s; %s)\n", o.info.description, o.info.platform, o.info.version);
    printf("- %s, %s\n- command:", o.info.is_emulated ? "CPU device" : "GPU", date);
    for (int i = 0; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n- CSV files in %s/\n", o.out_dir);
    /* A timeline costs a launch some time: the figures say whether one ran. */
    int timeline_side = only && wanted(only, "timeline");
    printf("- timeline: %s\n", amp_timeline_is_enabled() ? "on (AMP_TIMELINE)"
                               : timeline_side ? "off, but on for one side of the dispatch section"
                                               : "off");
    fflush(stdout);

    if (tune) {
        int n = o.quick ? 256 : o.info.is_emulated ? 2048 : 4096;
        bench_tune_options to = {n, n / 4, 3, 0, 0, NULL, "auto", 3, NULL};
        bench_tune(o.acc, o.av, &to);
    }
    if (wanted(only, "matmul"))
        bench_matmul(&o);
    if (wanted(only, "tile"))
        bench_tile_average(&o);
    if (wanted(only, "dispatch") || timeline_side)
        bench_dispatch(&o, timeline_side);
    if (wanted(only, "compile"))
        bench_compile(&o);
    if (wanted(only, "lazy"))
        bench_laziness(&o);
    if (wanted(only, "transfers"))
        bench_transfers(&o);
    /* Part of transfers: alone only when asked for by name. */
    if (only && wanted(only, "overlap"))
        bench_overlap(&o);

    amp_shutdown();
    if (own_dump)
        nftw(dump, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return EXIT_SUCCESS;
}
