/*
 * bench/compile.c - the first call of a kernel: a cold build against a
 * warm start from the runtime's on-disk program cache.
 *
 * The benchmark runs itself again as a child (--compile-child) three
 * times, each a fresh process that makes the first call of the eight
 * kernels of the SGEMM progression (kernel 6 is three) on a small product:
 *   cold       AMP_CACHE_DIR = a new, empty directory;
 *   warm       the same directory again, as the cold run left it;
 *   cache off  AMP_CACHE=0: what a second process costs without the cache.
 * The driver's own caches are turned off in all three (POCL_KERNEL_CACHE=0
 * for PoCL, CUDA_CACHE_DISABLE=1 for NVIDIA), so that a fast warm start can
 * only come from the runtime's cache. Each child prints one line that the
 * parent reads: milliseconds to the first result of each kernel, and the
 * runtime's counts of builds and disk hits.
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700

#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "sgemm.h"

#define KERNELS 6

/* The runtime's disk-hit count, where its kernel statistics have one
 * (bench/CMakeLists.txt checks amp/kernel.h). */
static long long disk_hits(const amp_kernel_stats *s)
{
#ifdef BENCH_HAVE_DISK_HITS
    return (long long)s->disk_hits;
#else
    (void)s;
    return -1;
#endif
}

int bench_compile_child(void)
{
    double t_start = bench_now();
    amp_accelerator *acc;
    amp_accelerator_view *av;
    amp_accelerator_info info;
    bench_check(amp_accelerator_get_default(&acc), "accelerator");
    bench_check(amp_accelerator_get_default_view(acc, &av), "view");
    bench_check(amp_accelerator_get_info(acc, &info), "info");
    double t_device = bench_now();

    enum { S = 64 };
    static float A[S * S], B[S * S], C[S * S];
    for (int i = 0; i < S * S; i++) {
        A[i] = (float)(i % 7);
        B[i] = (float)(i % 5);
    }
    sgemm_operands op = {NULL, NULL, NULL, S, S, S};
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(S, S), A, &op.a), "A");
    bench_check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(S, S), B, &op.b), "B");
    bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(S, S), C, &op.c), "C");
    sgemm_tuning tuning = sgemm_tuning_default(&info);
    sgemm_plan plan = sgemm_tuning_pick(&tuning, op.M, op.N, op.K);
    sgemm_workspace ws = {0};

    double ms[KERNELS];
    for (int k = 0; k < KERNELS; k++) {
        double t0 = bench_now();
        amp_status st;
        switch (k) {
        case 0: st = sgemm_1_naive(&op); break;
        case 1: st = sgemm_2_tiles(&op); break;
        case 2: st = sgemm_3_work_per_thread(&op); break;
        case 3: st = sgemm_4_vector_loads(&op); break;
        case 4: st = sgemm_5_register_blocking(&op); break;
        default: st = sgemm_6_tuned(&op, &plan, &ws); break;
        }
        bench_check(st, "kernel");
        bench_check(amp_accelerator_view_wait(av), "wait");
        ms[k] = (bench_now() - t0) * 1e3;
    }
    amp_kernel_stats stats;
    bench_check(amp_kernel_get_stats(&stats), "kernel stats");
    printf("compile-child device_ms=%.1f", (t_device - t_start) * 1e3);
    for (int k = 0; k < KERNELS; k++)
        printf(" k%d=%.1f", k + 1, ms[k]);
    printf(" builds=%llu hits=%llu disk_hits=%lld\n", (unsigned long long)stats.builds,
           (unsigned long long)stats.cache_hits, disk_hits(&stats));
    sgemm_workspace_release(&ws);
    amp_array_view_release(op.a);
    amp_array_view_release(op.b);
    amp_array_view_discard_data(op.c);
    amp_array_view_release(op.c);
    return 0;
}

typedef struct child_result {
    double device_ms, ms[KERNELS];
    long long builds, hits, disk_hits;
    int ok;
} child_result;

/* Run this program with --compile-child and the given environment changes
 * ("NAME=value" sets, "NAME" unsets); read its line. */
static child_result run_child(const char *self, const char *const *env)
{
    child_result r;
    memset(&r, 0, sizeof r);
    int fds[2];
    if (pipe(fds) != 0)
        return r;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        for (int i = 0; env[i]; i++) {
            char name[64];
            const char *eq = strchr(env[i], '=');
            snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - env[i]) : 63, env[i]);
            if (eq)
                setenv(name, eq + 1, 1);
            else
                unsetenv(name);
        }
        execl(self, self, "--compile-child", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    char line[512] = "";
    FILE *f = fdopen(fds[0], "r");
    if (f) {
        char buf[512];
        while (fgets(buf, sizeof buf, f))
            if (strncmp(buf, "compile-child ", 14) == 0)
                snprintf(line, sizeof line, "%s", buf);
        fclose(f);
    }
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
        sscanf(line,
               "compile-child device_ms=%lf k1=%lf k2=%lf k3=%lf k4=%lf k5=%lf k6=%lf builds=%lld "
               "hits=%lld disk_hits=%lld",
               &r.device_ms, &r.ms[0], &r.ms[1], &r.ms[2], &r.ms[3], &r.ms[4], &r.ms[5], &r.builds,
               &r.hits, &r.disk_hits) == 10)
        r.ok = 1;
    return r;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

void bench_compile(const bench_options *o)
{
    printf("\n## Compile: cold build against a warm start (a second process)\n\n");
    char dir[] = "/tmp/amp-bench-cache-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return;
    }
    char cache_dir[sizeof dir + 16];
    snprintf(cache_dir, sizeof cache_dir, "AMP_CACHE_DIR=%s", dir);
    const char *cold[] = {
        cache_dir, "AMP_CACHE", "AMP_DUMP_KERNELS", "POCL_KERNEL_CACHE=0", "CUDA_CACHE_DISABLE=1",
        NULL};
    const char *off[] = {
        cache_dir, "AMP_CACHE=0", "AMP_DUMP_KERNELS", "POCL_KERNEL_CACHE=0", "CUDA_CACHE_DISABLE=1",
        NULL};
    static const char *names[3] = {"cold (empty AMP_CACHE_DIR)", "warm (same directory)",
                                   "cache off (AMP_CACHE=0)"};
    const char *const *envs[3] = {cold, cold, off};
    child_result r[3];
    for (int i = 0; i < 3; i++)
        r[i] = run_child(o->self, envs[i]);
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);

    printf(
        "- each row a new process: the first call of each kernel of the SGEMM progression "
        "(64 x 64 x 64), compile or load included;\n  kernel 6 is the repacks (one kernel "
        "on a GPU, two on a CPU) and the product\n- the driver's own caches are off in all three "
        "(POCL_KERNEL_CACHE=0, CUDA_CACHE_DISABLE=1)\n");
#ifndef BENCH_HAVE_DISK_HITS
    printf("- this runtime's amp_kernel_stats has no disk-hit count yet: builds show what "
           "happened\n");
#endif
    printf("\n| process | ms to first result, kernels 1-6 | total ms | builds | disk hits | "
           "device open ms |\n|---|---|---:|---:|---:|---:|\n");
    FILE *csv = bench_csv_open(o, "compile.csv",
                               "device,process,k1_ms,k2_ms,k3_ms,k4_ms,k5_ms,k6_ms,total_ms,"
                               "builds,disk_hits,device_ms");
    for (int i = 0; i < 3; i++) {
        if (!r[i].ok) {
            printf("| %s | failed | | | | |\n", names[i]);
            continue;
        }
        double total = 0;
        char each[160] = "";
        size_t used = 0;
        for (int k = 0; k < KERNELS; k++) {
            total += r[i].ms[k];
            used += (size_t)snprintf(each + used, sizeof each - used, "%s%.0f", k ? " / " : "",
                                     r[i].ms[k]);
        }
        char hits[32];
        if (r[i].disk_hits >= 0)
            snprintf(hits, sizeof hits, "%lld", r[i].disk_hits);
        else
            snprintf(hits, sizeof hits, "n/a");
        printf("| %s | %s | %.0f | %lld | %s | %.0f |\n", names[i], each, total, r[i].builds, hits,
               r[i].device_ms);
        if (csv)
            fprintf(csv, "\"%s\",\"%s\",%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%lld,%lld,%.1f\n",
                    o->info.description, names[i], r[i].ms[0], r[i].ms[1], r[i].ms[2], r[i].ms[3],
                    r[i].ms[4], r[i].ms[5], total, r[i].builds, r[i].disk_hits, r[i].device_ms);
    }
    if (r[0].ok && r[1].ok) {
        double cold_ms = 0, warm_ms = 0;
        for (int k = 0; k < KERNELS; k++) {
            cold_ms += r[0].ms[k];
            warm_ms += r[1].ms[k];
        }
        printf("\nWarm start: %.1fx faster than cold (%.0f ms against %.0f ms).\n",
               cold_ms / warm_ms, warm_ms, cold_ms);
    }
    if (csv)
        fclose(csv);
}
