/*
 * bench/baseline_openblas.c - OpenBLAS's cblas_sgemm, the vendor-grade BLAS
 * of a CPU, on the same host arrays. Only against a CPU device (PoCL),
 * where both use the same cores; OpenBLAS uses all of them, as PoCL does.
 *
 * OpenBLAS picks its kernels for the CPU as it loads, by the CPU's model;
 * on a model it does not know (a virtual CPU, a newer one) it falls back to
 * old ones: Prescott's SSE3 kernels on a Xeon with AVX-512 run at a fifth
 * of the speed. The right core is the one of the instruction set the
 * OpenCL device compiles for: the CPU's newest, unless the device's name
 * says it targets an older one (PoCL names its CPU device after the LLVM
 * CPU it compiles for: "pthread-haswell-..." is AVX2, which PoCL targets on
 * an AVX-512 CPU when told to, POCL_KERNELLIB_NAME=avx2). So the benchmark
 * says which core OpenBLAS runs and, when that is not the right one,
 * measures OpenBLAS a second time with the right core: in a child process
 * (this program again, with --openblas-child), started with
 * OPENBLAS_CORETYPE, which OpenBLAS reads only as it loads. The child
 * computes on the parent's arrays, through a memory file both map, and
 * answers each "run" line when the product is done.
 */
#define _GNU_SOURCE

#include "baselines.h"
#include "sgemm.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cblas.h>

extern char **environ;

static const float *a, *b;
static float *c;
static int m, n, k;

/* ---- Cores ---- */

/* How new an instruction set a core of OpenBLAS uses: 3 AVX-512, 2 AVX2,
 * 1 AVX, 0 SSE or generic; -1 for a name not listed. */
static int core_level(const char *core)
{
    static const char *const levels[4][12] = {
        {"generic", "prescott", "core2", "penryn", "dunnington", "nehalem", "atom", "barcelona",
         "opteron", "opteron_sse3", "katmai", NULL},
        {"sandybridge", "bulldozer", "piledriver", "steamroller", "excavator", NULL},
        {"haswell", "zen", NULL},
        {"skylakex", "cooperlake", "sapphirerapids", NULL}};
    char lower[64];
    size_t i = 0;
    for (; core[i] && i + 1 < sizeof lower; i++)
        lower[i] = (char)tolower((unsigned char)core[i]);
    lower[i] = '\0';
    for (int level = 0; level < 4; level++)
        for (int j = 0; levels[level][j]; j++)
            if (strcmp(lower, levels[level][j]) == 0)
                return level;
    return -1;
}

/* The newest instruction set of this CPU that OpenBLAS has kernels for,
 * and the core that uses it. */
static int cpu_level(const char **core, const char **what)
{
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
        *core = "SkylakeX", *what = "AVX-512";
        return 3;
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        *core = "Haswell", *what = "AVX2";
        return 2;
    }
    if (__builtin_cpu_supports("avx")) {
        *core = "Sandybridge", *what = "AVX";
        return 1;
    }
    *core = NULL, *what = "SSE";
    return 0;
}

/* The core OpenBLAS should run instead of the one it runs, or NULL: the
 * core of the instruction set the device compiles for (sgemm_cpu_isa, from
 * its name), or of the CPU's newest where the name does not say. *what
 * names the instruction set, *why whose it is. */
static const char *better_core(const bench_options *o, const char **what, const char **why)
{
    static const char *const cores[4] = {NULL, "Sandybridge", "Haswell", "SkylakeX"};
    static const char *const sets[4] = {"SSE", "AVX", "AVX2", "AVX-512"};
    const char *right;
    int target = cpu_level(&right, what);
    *why = "this CPU's";
    int device = (int)sgemm_cpu_isa(o->info.description); /* the same levels, 0 unknown */
    if (device >= 1 && device < target) {
        target = device;
        right = cores[target];
        *what = sets[target];
        *why = "the OpenCL device's";
    }
    int have = core_level(openblas_get_corename());
    return have >= 0 && right && have != target ? right : NULL;
}

/* ---- In this process ---- */

static const char *open_openblas(const bench_options *o)
{
    static int said;
    if (!o->info.is_emulated)
        return "the device is not the CPU";
    if (!said) {
        const char *what, *why;
        const char *better = better_core(o, &what, &why);
        printf("- OpenBLAS: core %s, %d threads (%s)", openblas_get_corename(),
               openblas_get_num_threads(), openblas_get_config());
        if (better)
            printf("; %s instruction set is %s: measured again with core %s, below", why, what,
                   better);
        printf("\n");
        said = 1;
    }
    return NULL;
}

static int setup(const float *A, const float *B, int M, int N, int K)
{
    a = A, b = B, m = M, n = N, k = K;
    c = malloc((size_t)M * N * sizeof *c);
    return c ? 0 : -1;
}

static int run(void)
{
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
    return 0;
}

static int fetch(float *C)
{
    memcpy(C, c, (size_t)m * n * sizeof *c);
    return 0;
}

static void teardown(void)
{
    free(c);
    c = NULL;
}

static void close_openblas(void)
{
    teardown();
}

const bench_sgemm_impl bench_openblas = {"OpenBLAS", open_openblas, setup,         run,
                                         fetch,      teardown,      close_openblas};

/* ---- With the right core, in a child ---- */

static char core_name[64] = "OpenBLAS, right core";
static const char *core_type; /* OPENBLAS_CORETYPE of the child */
static const char *self;
static int memfd = -1;
static float *shared; /* A, B, C of the child, one after the other */
static size_t shared_bytes;
static pid_t child = -1;
static FILE *to_child, *from_child;

static int core_setup(const float *A, const float *B, int M, int N, int K);
static void stop_child(void);
static char child_core[64]; /* what the child reported */

static const char *open_core(const bench_options *o)
{
    static char why[128];
    if (!o->info.is_emulated)
        return "the device is not the CPU";
    const char *what, *whose;
    core_type = better_core(o, &what, &whose);
    if (!core_type) {
        snprintf(why, sizeof why, "OpenBLAS runs its %s kernels, right for %s %s",
                 openblas_get_corename(), whose, what);
        return why;
    }
    snprintf(core_name, sizeof core_name, "OpenBLAS %s", core_type);
    self = o->self;
    /* A first child, on a 1 x 1 x 1 product, says which core it runs. */
    static const float one = 1.0f;
    if (core_setup(&one, &one, 1, 1, 1) != 0)
        return "the child process did not start";
    stop_child();
    printf("- %s: OpenBLAS again, in a child process started with OPENBLAS_CORETYPE=%s; it"
           " reports core %s\n",
           core_name, core_type, child_core);
    return NULL;
}

static void stop_child(void)
{
    if (to_child)
        fclose(to_child);
    if (from_child)
        fclose(from_child);
    to_child = from_child = NULL;
    if (child > 0)
        waitpid(child, NULL, 0);
    child = -1;
    if (shared)
        munmap(shared, shared_bytes);
    shared = NULL;
    if (memfd >= 0)
        close(memfd);
    memfd = -1;
}

static int core_setup(const float *A, const float *B, int M, int N, int K)
{
    m = M, n = N, k = K;
    shared_bytes = ((size_t)M * K + (size_t)K * N + (size_t)M * N) * sizeof(float);
    memfd = memfd_create("amp-bench-openblas", 0);
    if (memfd < 0 || ftruncate(memfd, (off_t)shared_bytes) != 0)
        goto fail;
    shared = mmap(NULL, shared_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
    if (shared == MAP_FAILED) {
        shared = NULL;
        goto fail;
    }
    memcpy(shared, A, (size_t)M * K * sizeof *A);
    memcpy(shared + (size_t)M * K, B, (size_t)K * N * sizeof *B);
    /* The child's arguments and environment, made before the fork: the
     * child may only exec. */
    char fd[16], ms[16], ns[16], ks[16], coretype[64];
    snprintf(fd, sizeof fd, "%d", memfd);
    snprintf(ms, sizeof ms, "%d", M);
    snprintf(ns, sizeof ns, "%d", N);
    snprintf(ks, sizeof ks, "%d", K);
    snprintf(coretype, sizeof coretype, "OPENBLAS_CORETYPE=%s", core_type);
    char *args[] = {(char *)self, "--openblas-child", fd, ms, ns, ks, NULL};
    size_t nenv = 0;
    while (environ[nenv])
        nenv++;
    char **env = calloc(nenv + 2, sizeof *env);
    if (!env)
        goto fail;
    size_t e = 0;
    for (size_t i = 0; i < nenv; i++)
        if (strncmp(environ[i], "OPENBLAS_CORETYPE=", 18) != 0)
            env[e++] = environ[i];
    env[e] = coretype;
    /* Close-on-exec: only the ends made the child's stdin and stdout (and
     * the memory file) reach it. */
    int down[2], up[2];
    if (pipe2(down, O_CLOEXEC) != 0) {
        free(env);
        goto fail;
    }
    if (pipe2(up, O_CLOEXEC) != 0) {
        close(down[0]), close(down[1]);
        free(env);
        goto fail;
    }
    fflush(stdout);
    child = fork();
    if (child == 0) {
        dup2(down[0], STDIN_FILENO);
        dup2(up[1], STDOUT_FILENO);
        execve(self, args, env);
        _exit(127);
    }
    free(env);
    close(down[0]);
    close(up[1]);
    if (child < 0) {
        close(down[1]), close(up[0]);
        goto fail;
    }
    to_child = fdopen(down[1], "w");
    from_child = fdopen(up[0], "r");
    char line[128];
    if (!to_child || !from_child || !fgets(line, sizeof line, from_child))
        goto fail;
    if (sscanf(line, "ready %63s", child_core) != 1)
        goto fail;
    return 0;
fail:
    fprintf(stderr, "%s: could not start the child process\n", core_name);
    stop_child();
    return -1;
}

static int core_run(void)
{
    char line[32];
    if (fputs("run\n", to_child) < 0 || fflush(to_child) != 0 ||
        !fgets(line, sizeof line, from_child) || strcmp(line, "ok\n") != 0)
        return -1;
    return 0;
}

static int core_fetch(float *C)
{
    memcpy(C, shared + (size_t)m * k + (size_t)k * n, (size_t)m * n * sizeof *C);
    return 0;
}

const bench_sgemm_impl bench_openblas_core = {core_name,  open_core,  core_setup, core_run,
                                              core_fetch, stop_child, stop_child};

int bench_openblas_child(int argc, char **argv)
{
    if (argc != 6)
        return 2;
    int fd = atoi(argv[2]), M = atoi(argv[3]), N = atoi(argv[4]), K = atoi(argv[5]);
    size_t bytes = ((size_t)M * K + (size_t)K * N + (size_t)M * N) * sizeof(float);
    float *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        return 1;
    const float *A = p, *B = p + (size_t)M * K;
    float *C = p + (size_t)M * K + (size_t)K * N;
    printf("ready %s\n", openblas_get_corename());
    fflush(stdout);
    char line[32];
    while (fgets(line, sizeof line, stdin)) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, A, K, B, N, 0.0f, C,
                    N);
        printf("ok\n");
        fflush(stdout);
    }
    munmap(p, bytes);
    return 0;
}
