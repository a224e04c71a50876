/*
 * samples/sgemm_progression/sgemm_tune.c - kernel 6's parameters: defaults
 * that are good without tuning, the candidates a tuner measures, and the
 * small text file per device where the best ones are kept: one
 * configuration for large products, and one with smaller tiles for
 * products that large tiles would leave a GPU partly idle; and the rule
 * that chooses between them, and whether to split K, by how many tiles
 * fill the device.
 *
 * The file is ${AMP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/amp}/
 * tune-<device>.txt, beside the runtime's cache of compiled kernels, and
 * reads like this:
 *
 *     # SGEMM kernel 6 parameters for NVIDIA H200
 *     staged = 1
 *     ty = 16
 *     ...
 *     large_gflops = 41000.0
 *     small_staged = 1
 *     small_ty = 8
 *     ...
 *     small_gflops = 37000.0
 *     plan = 1000 1000 1000  2 16 16 8 2 4 16  2  24100.0
 *
 * where each plan line (written by sgemm_tune --explore) is the fastest
 * plan measured at one size: M N K, the seven parameters, the parts of K
 * and its GFLOP/s. Lines it does not know are ignored; a file whose
 * parameters the device cannot run is ignored too, and so is a plan line
 * the device cannot run, so a stale or hand-edited file never breaks the
 * kernel. Where the cache directory has no file for the device, a file of
 * the same name in samples/sgemm_progression/measured/ (measured on such a
 * device and kept with the sources) is read instead.
 */
#define _POSIX_C_SOURCE 200809L

#include "sgemm.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

sgemm_isa sgemm_cpu_isa(const char *device_name)
{
    /* LLVM's names of x86 CPUs, by the newest of these sets each has. */
    static const char *const names[4][16] = {
        {NULL},
        {"-sandybridge-", "-ivybridge-", "-bdver1-", "-bdver2-", "-bdver3-", "-btver2-", NULL},
        {"-haswell-", "-broadwell-", "-skylake-", "-alderlake-", "-raptorlake-", "-meteorlake-",
         "-gracemont-", "-znver1-", "-znver2-", "-znver3-", "-bdver4-", "-x86-64-v3-", NULL},
        {"avx512", "-cascadelake-", "-cooperlake-", "-cannonlake-", "-icelake-client-",
         "-icelake-server-", "-tigerlake-", "-rocketlake-", "-sapphirerapids-", "-graniterapids-",
         "-emeraldrapids-", "-znver4-", "-znver5-", "-x86-64-v4-", NULL}};
    /* Newest first: "-skylake-avx512-" is AVX-512, not Skylake's AVX2. */
    for (int isa = SGEMM_ISA_AVX512; device_name && isa >= SGEMM_ISA_AVX; isa--)
        for (int i = 0; names[isa][i]; i++)
            if (strstr(device_name, names[isa][i]))
                return (sgemm_isa)isa;
    return SGEMM_ISA_UNKNOWN;
}

sgemm_tuning sgemm_tuning_default(const amp_accelerator_info *info)
{
    /* CPU: one thread per tile, 12 rows x 2 float16 = 24 vector sums,
     * which fit AVX-512's 32 registers beside the 2 vectors of B and a
     * broadcast; at every size. With 16 registers of 8 floats (AVX2, or a
     * device whose name does not say), 6 rows x 2 float8: 12 sums, 2 of B
     * and a broadcast (12 x 2 float16 there spills sums to the stack at
     * every k, and ran at 40% of the speed on AVX2). GPU: 16 x 16 threads, each 8 rows x 2
     * float4 = a 128 x 128 block of C per tile, 16 deep per step in two
     * buffers; and the same threads with 8 rows x 1 float4 each (128 x 64
     * blocks, 32 deep in one buffer), twice as many tiles for products
     * that would leave compute units without one. */
    sgemm_tuning cpu = {.large = {0, 1, 1, 12, 2, 16, 1}, .small = {0, 1, 1, 12, 2, 16, 1}};
    sgemm_tuning gpu = {.large = {2, 16, 16, 8, 2, 4, 16}, .small = {1, 16, 16, 8, 1, 4, 32}};
    /* A small device: 8 x 8 threads, 4 rows x 1 float4 each. */
    const sgemm_params small_device = {1, 8, 8, 4, 1, 4, 8};
    if (sgemm_cpu_isa(info->description) != SGEMM_ISA_AVX512)
        cpu.large = cpu.small = (sgemm_params){0, 1, 1, 6, 2, 8, 1};
    sgemm_tuning t = info->is_emulated ? cpu : gpu;
    if (sgemm_params_check(&t.large, info) != NULL)
        t.large = small_device;
    if (sgemm_params_check(&t.small, info) != NULL)
        t.small = small_device;
    t.compute_units = info->compute_units > 0 ? info->compute_units : 1;
    return t;
}

/* How far apart two sizes are, as the largest ratio of their M, N or K. */
static double size_distance(int M, int N, int K, const sgemm_size_plan *e)
{
    double d = 1;
    const double r[3] = {(double)M / e->M, (double)N / e->N, (double)K / e->K};
    for (int i = 0; i < 3; i++) {
        double x = r[i] < 1 ? 1 / r[i] : r[i];
        d = x > d ? x : d;
    }
    return d;
}

const sgemm_size_plan *sgemm_tuning_measured(const sgemm_tuning *t, int M, int N, int K)
{
    const sgemm_size_plan *nearest = NULL;
    double nearest_d = SGEMM_PLAN_REACH;
    for (int i = 0; i < t->nplans && i < SGEMM_MAX_PLANS; i++) {
        double d = size_distance(M, N, K, &t->plans[i]);
        if (d <= nearest_d) {
            nearest = &t->plans[i];
            nearest_d = d;
        }
    }
    return nearest;
}

sgemm_plan sgemm_tuning_pick(const sgemm_tuning *t, int M, int N, int K)
{
    const sgemm_size_plan *measured = sgemm_tuning_measured(t, M, N, K);
    if (measured)
        return measured->plan;

    const sgemm_params *configs[2] = {&t->large, &t->small};
    double gflops[2] = {t->large_gflops, t->small_gflops};
    if (gflops[0] <= 0 || gflops[1] <= 0)
        gflops[0] = gflops[1] = 1; /* not measured: only the waves count */
    double units = t->compute_units > 0 ? t->compute_units : 1;
    sgemm_plan best = {t->large, 1};
    double best_time = -1;
    for (int i = 0; i < 2; i++) {
        const sgemm_params *p = configs[i];
        double rows = p->ty * p->rm, cols = p->tx * p->nv * p->vw;
        double tiles = ceil(M / rows) * ceil(N / cols);
        int steps = (K + p->bk - 1) / p->bk;
        for (int s = 1; s <= steps && s <= SGEMM_MAX_SPLITS; s++) {
            double depth = (double)((steps + s - 1) / s) * p->bk;
            if (s > 1 && depth < SGEMM_MIN_PART)
                break;
            /* In a wave each compute unit works on one tile; a wave takes
             * a tile's multiply-adds at the configuration's speed per
             * compute unit, however few tiles the last one has. */
            double waves = ceil(tiles * s / units);
            double time = waves * 2 * rows * cols * depth * units / gflops[i];
            /* The parts: written by the product, then read and summed. */
            if (s > 1)
                time += (2.0 * s + 1) * M * (double)N * sizeof(float) * SGEMM_BALANCE / gflops[0];
            if (best_time < 0 || time < best_time) {
                best_time = time;
                best.p = *p;
                best.splits = s;
            }
        }
    }
    return best;
}

int sgemm_tuning_explore_sizes(const sgemm_params *large, unsigned compute_units, char *buf,
                               size_t size)
{
    static const int ladder[] = SGEMM_EXPLORE_SIZES;
    double rows = large->ty * large->rm, cols = large->tx * large->nv * large->vw;
    double units = compute_units > 0 ? compute_units : 1;
    size_t used = 0;
    int count = 0;
    if (size > 0)
        buf[0] = '\0';
    for (size_t i = 0; i < sizeof ladder / sizeof ladder[0]; i++) {
        int n = ladder[i];
        if (ceil(n / rows) * ceil(n / cols) >= SGEMM_EXPLORE_WAVES * units)
            continue;
        int w = snprintf(buf + used, size - used, "%s%d", count ? "," : "", n);
        if (w < 0 || (size_t)w >= size - used) {
            if (size > 0)
                buf[0] = '\0';
            return 0;
        }
        used += (size_t)w;
        count++;
    }
    return count;
}

const char *sgemm_params_check(const sgemm_params *p, const amp_accelerator_info *info)
{
    if (p->vw != 2 && p->vw != 4 && p->vw != 8 && p->vw != 16)
        return "vw must be 2, 4, 8 or 16";
    if (p->ty < 1 || p->tx < 1 || p->rm < 1 || p->nv < 1 || p->bk < 1)
        return "ty, tx, rm, nv and bk must be at least 1";
    if (p->ty > 64 || p->tx > 64 || p->rm > 64 || p->nv > 16 || p->bk > 64)
        return "a parameter is out of range";
    if (p->rm * p->nv * p->vw > 1024)
        return "more than 1024 sums per thread";
    if ((size_t)(p->ty * p->tx) > info->max_tile_size)
        return "more threads per tile than the device allows";
    if (p->staged < 0 || p->staged > 2)
        return "staged must be 0, 1 or 2";
    if (!p->staged && p->bk != 1)
        return "bk must be 1 when not staged";
    if (p->staged) {
        int threads = p->ty * p->tx;
        if (p->rm % 4 != 0)
            return "rm must be a multiple of 4 when staged";
        if (p->vw < 4)
            return "vw must be at least 4 when staged";
        if ((p->bk * p->ty * p->rm / 4) % threads != 0 ||
            (p->bk * p->tx * p->nv * p->vw / 4) % threads != 0)
            return "a step of each panel must be a whole number of float4s per thread";
        uint64_t bytes = (uint64_t)p->staged * (uint64_t)p->bk *
                         (uint64_t)(p->ty * p->rm + p->tx * p->nv * p->vw) * 4;
        /* A little room for the compiler's own use: NVIDIA's takes 16
         * bytes, and refused panels of exactly 48 KiB. */
        if (bytes + 64 > info->tile_static_size)
            return "the staged panels need more tile_static memory than the device has";
    }
    return NULL;
}

void sgemm_params_format(const sgemm_params *p, char *buf, size_t size)
{
    if (p->staged)
        snprintf(buf, size, "staged%s %dx%d threads, %d rows x %d float%d, bk %d",
                 p->staged == 2 ? " x2" : "", p->ty, p->tx, p->rm, p->nv, p->vw, p->bk);
    else
        snprintf(buf, size, "direct %dx%d threads, %d rows x %d float%d", p->ty, p->tx, p->rm,
                 p->nv, p->vw);
}

const sgemm_params *sgemm_params_candidates(const amp_accelerator_info *info, int *count)
{
    /* CPUs: one thread per tile; how many rows and vectors of B each
     * thread keeps in registers, and how wide the vectors are. With
     * AVX-512's 32 registers of 16 floats: */
    static const sgemm_params cpu[] = {
        {0, 1, 1, 12, 2, 16, 1}, {0, 1, 1, 6, 4, 16, 1},  {0, 1, 1, 8, 2, 16, 1},
        {0, 1, 1, 14, 2, 16, 1}, {0, 1, 1, 8, 3, 16, 1},  {0, 1, 1, 4, 4, 16, 1},
        {0, 1, 1, 24, 1, 16, 1}, {0, 1, 1, 12, 2, 8, 1},  {0, 1, 1, 6, 2, 8, 1},
    };
    /* With 16 registers of 8 floats (AVX2): at most 12 or so vectors of
     * sums beside those of B and a broadcast, in float8s. 12 x 2 float8 and
     * the float16 shapes above spill sums at every k. No float16 at all: a
     * float16 is two registers, so 6 rows x 1 float16 is 6 x 2 float8 with
     * the same columns, and PoCL's compiler warns of every float16 passed
     * by value on AVX2 ("2 warnings generated." among the tuner's rows). */
    static const sgemm_params cpu16[] = {
        {0, 1, 1, 6, 2, 8, 1}, {0, 1, 1, 4, 3, 8, 1}, {0, 1, 1, 5, 2, 8, 1},
        {0, 1, 1, 3, 4, 8, 1}, {0, 1, 1, 4, 2, 8, 1}, {0, 1, 1, 8, 1, 8, 1},
        {0, 1, 1, 12, 2, 8, 1},
    };
    /* A CPU whose name does not say: both lists. */
    static const sgemm_params both[] = {
        {0, 1, 1, 6, 2, 8, 1},   {0, 1, 1, 4, 3, 8, 1},   {0, 1, 1, 5, 2, 8, 1},
        {0, 1, 1, 3, 4, 8, 1},   {0, 1, 1, 4, 2, 8, 1},   {0, 1, 1, 6, 1, 16, 1},
        {0, 1, 1, 8, 1, 8, 1},   {0, 1, 1, 12, 2, 8, 1},  {0, 1, 1, 12, 2, 16, 1},
        {0, 1, 1, 6, 4, 16, 1},  {0, 1, 1, 8, 2, 16, 1},  {0, 1, 1, 14, 2, 16, 1},
        {0, 1, 1, 8, 3, 16, 1},  {0, 1, 1, 4, 4, 16, 1},  {0, 1, 1, 24, 1, 16, 1},
    };
    /* GPUs: the best of a sweep of 226 configurations on an H100
     * (docs/performance.md): blocks of 128 x 128, 128 x 64, 64 x 128 and
     * 256 x 64 per tile, 128 or 256 threads, staged 8, 16 or 32 deep in one
     * buffer or two; and one that reads the panels directly. */
    static const sgemm_params gpu[] = {
        {2, 16, 16, 8, 2, 4, 16}, {2, 16, 8, 8, 4, 4, 16},  {2, 32, 8, 8, 2, 4, 16},
        {2, 8, 16, 8, 4, 4, 8},   {1, 8, 32, 16, 1, 4, 16}, {1, 8, 32, 8, 2, 4, 16},
        {2, 16, 16, 8, 2, 4, 8},  {1, 16, 16, 8, 2, 4, 8},  {1, 16, 16, 8, 1, 4, 32},
        {2, 8, 32, 8, 1, 4, 16},  {1, 16, 16, 8, 1, 4, 16}, {1, 32, 8, 8, 1, 4, 32},
        {1, 16, 8, 8, 1, 4, 32},  {2, 16, 16, 4, 2, 4, 16}, {2, 8, 8, 4, 1, 4, 8},
        {0, 16, 16, 4, 1, 4, 1},
    };
    if (info->is_emulated) {
        sgemm_isa isa = sgemm_cpu_isa(info->description);
        if (isa == SGEMM_ISA_AVX512) {
            *count = (int)(sizeof cpu / sizeof cpu[0]);
            return cpu;
        }
        if (isa != SGEMM_ISA_UNKNOWN) {
            *count = (int)(sizeof cpu16 / sizeof cpu16[0]);
            return cpu16;
        }
        *count = (int)(sizeof both / sizeof both[0]);
        return both;
    }
    *count = (int)(sizeof gpu / sizeof gpu[0]);
    return gpu;
}

/* The directory for tuning files, without a trailing '/'; 0 when none is known. */
static int tune_dir(char *buf, size_t size)
{
    const char *dir = getenv("AMP_CACHE_DIR");
    int n;
    if (dir && *dir) {
        n = snprintf(buf, size, "%s", dir);
    } else if ((dir = getenv("XDG_CACHE_HOME")) && *dir) {
        n = snprintf(buf, size, "%s/amp", dir);
    } else if ((dir = getenv("HOME")) && *dir) {
        n = snprintf(buf, size, "%s/.cache/amp", dir);
    } else {
        return 0;
    }
    return n > 0 && (size_t)n < size;
}

int sgemm_tune_path(const amp_accelerator_info *info, char *buf, size_t size)
{
    char dir[1024];
    if (!tune_dir(dir, sizeof dir))
        return 0;
    /* A part of a CPU split in parts (AMP_SPLIT_CPU), "NAME (part 1 of 2)",
     * has the whole CPU's instruction set: its file is the CPU's. */
    const char *desc = info->description ? info->description : "";
    size_t len = strlen(desc);
    const char *part = strstr(desc, " (part ");
    unsigned number, parts;
    char close;
    if (part && sscanf(part, " (part %u of %u%c", &number, &parts, &close) == 3 && close == ')' &&
        desc[len - 1] == ')')
        len = (size_t)(part - desc);
    char name[256];
    size_t i = 0;
    for (const char *s = desc; i < len && i + 1 < sizeof name; s++, i++) {
        char ch = *s;
        int keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                   (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
        name[i] = keep ? ch : '_';
    }
    name[i] = '\0';
    int n = snprintf(buf, size, "%s/tune-%s.txt", dir, name);
    return n > 0 && (size_t)n < size;
}

/* Read "key = value" lines into t: the parameter keys for the large
 * configuration, the same with "small_" before them for the small one, the
 * two speeds and the plan lines. Lines it does not know are ignored.
 * Returns how many parameter lines it took, or -1 with why for a value that
 * is not what its key takes. */
static int read_tuning(FILE *f, sgemm_tuning *t, char *why, size_t why_size)
{
    struct {
        const char *key;
        size_t offset;
    } keys[] = {{"staged", offsetof(sgemm_params, staged)}, {"ty", offsetof(sgemm_params, ty)},
                {"tx", offsetof(sgemm_params, tx)},         {"rm", offsetof(sgemm_params, rm)},
                {"nv", offsetof(sgemm_params, nv)},         {"vw", offsetof(sgemm_params, vw)},
                {"bk", offsetof(sgemm_params, bk)}};
    char *line = NULL;
    size_t cap = 0;
    int taken = 0;
    while (taken >= 0 && getline(&line, &cap, f) != -1) {
        char key[32];
        double number;
        sgemm_size_plan e;
        sgemm_params *q = &e.plan.p;
        if (sscanf(line, " plan = %d %d %d %d %d %d %d %d %d %d %d %lf", &e.M, &e.N, &e.K,
                   &q->staged, &q->ty, &q->tx, &q->rm, &q->nv, &q->vw, &q->bk, &e.plan.splits,
                   &e.gflops) == 12) {
            if (t->nplans < SGEMM_MAX_PLANS)
                t->plans[t->nplans++] = e;
            continue;
        }
        if (line[0] == '#' || sscanf(line, " %31[a-z_] = %lf", key, &number) != 2)
            continue;
        if (strcmp(key, "large_gflops") == 0 || strcmp(key, "small_gflops") == 0) {
            *(key[0] == 'l' ? &t->large_gflops : &t->small_gflops) = number;
            continue;
        }
        sgemm_params *p = &t->large;
        const char *name = key;
        if (strncmp(key, "small_", 6) == 0) {
            p = &t->small;
            name = key + 6;
        }
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            if (strcmp(name, keys[i].key) != 0)
                continue;
            if (!(number >= 0 && number <= 1024 && number == (double)(int)number)) {
                snprintf(why, why_size, "%s = %g is not a whole number from 0 to 1024", key,
                         number);
                taken = -1;
                break;
            }
            *(int *)((char *)p + keys[i].offset) = (int)number;
            taken++;
        }
    }
    free(line);
    return taken;
}

/* The tuning file at path read into *got (which holds the defaults for
 * what it does not say). Returns 1 when it was there and holds parameters
 * the device accepts (measured plans it cannot run are left out); else 0,
 * with why ("" when there is no file). Opened without blocking and taken
 * only as a regular file: a FIFO or a device in its place never hangs the
 * program. */
static int read_tuning_file(const char *path, const amp_accelerator_info *info,
                            sgemm_tuning *got, char *why, size_t why_size)
{
    why[0] = '\0';
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno != ENOENT)
            snprintf(why, why_size, "it cannot be read (%s)", strerror(errno));
        return 0;
    }
    struct stat st;
    FILE *f = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        snprintf(why, why_size, "it is not a regular file");
    else if ((f = fdopen(fd, "r")) == NULL)
        snprintf(why, why_size, "it cannot be read (%s)", strerror(errno));
    if (!f) {
        close(fd);
        return 0;
    }
    int params = read_tuning(f, got, why, why_size);
    fclose(f);
    if (params < 0)
        return 0; /* why says which value */
    const char *bad = NULL;
    if ((bad = sgemm_params_check(&got->large, info)) != NULL)
        snprintf(why, why_size, "its configuration for large products: %s", bad);
    else if ((bad = sgemm_params_check(&got->small, info)) != NULL)
        snprintf(why, why_size, "its configuration with smaller tiles: %s", bad);
    else if (!(isfinite(got->large_gflops) && got->large_gflops >= 0 &&
               isfinite(got->small_gflops) && got->small_gflops >= 0))
        snprintf(why, why_size, "a speed (large_gflops, small_gflops) is not a number from 0");
    if (why[0])
        return 0;
    int kept = 0;
    for (int i = 0; i < got->nplans; i++) {
        const sgemm_size_plan *e = &got->plans[i];
        if (e->M > 0 && e->N > 0 && e->K > 0 && e->plan.splits >= 1 &&
            e->plan.splits <= SGEMM_MAX_SPLITS && e->gflops >= 0 &&
            sgemm_params_check(&e->plan.p, info) == NULL)
            got->plans[kept++] = *e;
    }
    got->nplans = kept;
    /* A file that chooses nothing (speeds alone, plans the device cannot
     * run, lines of other programs) is not a tuning. */
    if (params == 0 && kept == 0) {
        snprintf(why, why_size,
                 "it holds no parameter (as \"ty = 16\") and no plan this device can run");
        return 0;
    }
    return 1;
}

/* One place to read the tuning from: its file read, or the refusal said. */
static int take_tuning(const char *path, const amp_accelerator_info *info, sgemm_tuning *t,
                       sgemm_tuning_source *from)
{
    sgemm_tuning got = *t;
    char why[512];
    if (read_tuning_file(path, info, &got, why, sizeof why)) {
        *t = got;
        snprintf(from->path, sizeof from->path, "%s", path);
        return 1;
    }
    if (why[0] && !from->refused[0])
        snprintf(from->refused, sizeof from->refused, "%s was not used: %s", path, why);
    return 0;
}

int sgemm_tune_load(const amp_accelerator_info *info, sgemm_tuning *t, sgemm_tuning_source *from)
{
    sgemm_tuning_source unused;
    if (!from)
        from = &unused;
    from->path[0] = from->refused[0] = '\0';
    *t = sgemm_tuning_default(info);
    char path[1400];
    if (!sgemm_tune_path(info, path, sizeof path))
        return 0;
    if (take_tuning(path, info, t, from))
        return 1;
#ifdef SGEMM_MEASURED_DIR
    /* Where the cache directory has none (or one it cannot use), the file
     * of the same name kept with the sources. */
    const char *name = strrchr(path, '/');
    char kept[1500];
    int n = name ? snprintf(kept, sizeof kept, "%s%s", SGEMM_MEASURED_DIR, name) : -1;
    if (n > 0 && (size_t)n < sizeof kept && take_tuning(kept, info, t, from))
        return 1;
#endif
    return 0;
}

/* mkdir -p, for the directories this file creates: private to the user,
 * as the runtime wants its cache directory. */
static int make_dirs(char *path)
{
    for (char *s = path + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        int rc = mkdir(path, 0700);
        *s = '/';
        if (rc != 0 && errno != EEXIST)
            return -1;
    }
    return mkdir(path, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

static void write_params(FILE *f, const char *prefix, const sgemm_params *p)
{
    fprintf(f, "%sstaged = %d\n%sty = %d\n%stx = %d\n%srm = %d\n%snv = %d\n%svw = %d\n%sbk = %d\n",
            prefix, p->staged, prefix, p->ty, prefix, p->tx, prefix, p->rm, prefix, p->nv, prefix,
            p->vw, prefix, p->bk);
}

int sgemm_tune_save(const amp_accelerator_info *info, const sgemm_tuning *t, const char *note)
{
    char dir[1024], path[1400], tmp[1500];
    if (!tune_dir(dir, sizeof dir) || !sgemm_tune_path(info, path, sizeof path)) {
        errno = ENOENT;
        return -1;
    }
    if (make_dirs(dir) != 0)
        return -1;
    /* Write beside it, then rename: a reader never sees half a file. */
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    fprintf(f, "# SGEMM kernel 6 parameters for %s\n", info->description);
    for (const char *s = note; s && *s;) {
        const char *end = strchr(s, '\n');
        int len = end ? (int)(end - s) : (int)strlen(s);
        fprintf(f, "# %.*s\n", len, s);
        s += len + (end != NULL);
    }
    write_params(f, "", &t->large);
    fprintf(f, "large_gflops = %.1f\n", t->large_gflops);
    fprintf(f, "# the configuration with smaller tiles:\n");
    write_params(f, "small_", &t->small);
    fprintf(f, "small_gflops = %.1f\n", t->small_gflops);
    if (t->nplans > 0)
        fprintf(f, "# the fastest plan measured at each size: M N K, staged ty tx rm nv vw bk,\n"
                   "# the parts of K, GFLOP/s (taken for products near that size):\n");
    for (int i = 0; i < t->nplans && i < SGEMM_MAX_PLANS; i++) {
        const sgemm_size_plan *e = &t->plans[i];
        const sgemm_params *p = &e->plan.p;
        fprintf(f, "plan = %d %d %d  %d %d %d %d %d %d %d  %d  %.1f\n", e->M, e->N, e->K,
                p->staged, p->ty, p->tx, p->rm, p->nv, p->vw, p->bk, e->plan.splits, e->gflops);
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        int saved = errno;
        remove(tmp);
        errno = saved;
        return -1;
    }
    return 0;
}
