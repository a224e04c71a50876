/*
 * runtime/kernel/kcache.c - the in-process kernel cache, and compiling on a miss.
 */
#include "kernel/kcache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <uthash.h>

#include "kernel/buildlog.h"
#include "kernel/diskcache.h"
#include "core/env.h"
#include "core/error.h"
#include "device/oclcheck.h"
#include "core/lock.h"
#include "core/strbuf.h"

/* The numbers a kernel depends on, besides its body and device. */
#define SIG_WORDS (9 + 3 * AMP_MAX_CAPTURES)

typedef struct kc_key {
    const char *body;
    const amp_accelerator *acc;
    uint64_t hash;
} kc_key;

typedef struct kc_node {
    kc_key key;
    int nwords;
    int64_t words[SIG_WORDS];
    kc_entry entry;
    cl_program program;
    char *name;
    cg_kernel *generated; /* kept under AMP_CHECK */
    UT_hash_handle hh;
} kc_node;

static kc_node *cache;
static uint64_t n_builds, n_disk_hits, n_hits;

static void node_free(kc_node *n)
{
    amp__clapi.ReleaseKernel(n->entry.kernel);
    amp__clapi.ReleaseProgram(n->program);
    if (n->generated) {
        amp__cg_kernel_free(n->generated);
        free(n->generated);
    }
    free(n->name);
    free(n);
}

/* Flatten the spec into words; names count by address, since they are
 * string literals of the call site. */
static int spec_words(const cg_spec *s, int64_t *w)
{
    int n = 0;
    w[n++] = s->rank;
    w[n++] = s->tiled;
    w[n++] = s->tile[0];
    w[n++] = s->tile[1];
    w[n++] = s->tile[2];
    w[n++] = s->wide | s->fp64 << 1 | s->guarded << 2 | s->checked << 3;
    w[n++] = s->ncaptures;
    w[n++] = (int64_t)s->source->body_length;
    w[n++] = (int64_t)(uintptr_t)s->source->index_name;
    for (int i = 0; i < s->ncaptures; i++) {
        const cg_capture *c = &s->captures[i];
        w[n++] = (int64_t)(uintptr_t)c->name;
        w[n++] = (int64_t)c->kind | (int64_t)c->rank << 4 | (int64_t)c->is_const << 7 |
                 (int64_t)c->channels << 8 | (int64_t)c->image_kind << 12 |
                 (int64_t)c->type << 16;
        w[n++] = c->constant;
    }
    return n;
}

static uint64_t hash_words(const int64_t *w, int n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (int i = 0; i < n; i++) {
        h ^= (uint64_t)w[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* "amp_<file stem>_<line>", plus "_v<n>" for the nth variant of one site. */
static char *kernel_name(const amp_kernel_source *src)
{
    const char *base = strrchr(src->file, '/');
    base = base ? base + 1 : src->file;
    strbuf sb = STRBUF_INIT;
    amp__sb_append(&sb, "amp_");
    for (const char *p = base; *p && *p != '.'; p++) {
        char c = *p;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        amp__sb_append_n(&sb, ok ? &c : "_", 1);
    }
    amp__sb_printf(&sb, "_%d", src->line);
    int variants = 0;
    kc_node *n, *tmp;
    HASH_ITER(hh, cache, n, tmp)
    {
        if (n->key.body == src->body)
            variants++;
    }
    if (variants > 0)
        amp__sb_printf(&sb, "_v%d", variants + 1);
    return amp__sb_take(&sb);
}

static void dump_source(const char *name, const char *source)
{
    const char *dir = amp__env_dump_dir();
    if (!dir)
        return;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "[amp] AMP_DUMP_KERNELS: cannot create %s: %s\n", dir, strerror(errno));
        return;
    }
    strbuf path = STRBUF_INIT;
    amp__sb_printf(&path, "%s/%s.cl", dir, name);
    FILE *f = path.data ? fopen(path.data, "w") : NULL;
    if (!f) {
        fprintf(stderr, "[amp] AMP_DUMP_KERNELS: cannot write %s: %s\n",
                path.data ? path.data : dir, strerror(errno));
    } else {
        fputs(source, f);
        fclose(f);
    }
    amp__sb_free(&path);
}

/* The driver's build log, malloc'ed, or NULL when it has none. */
static char *build_log(cl_program prog, const amp_accelerator *acc)
{
    size_t size = 0;
    char *log = NULL;
    if (amp__clapi.GetProgramBuildInfo(prog, acc->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) ==
            CL_SUCCESS &&
        size > 1) {
        log = calloc(1, size + 1);
        if (log && amp__clapi.GetProgramBuildInfo(prog, acc->device, CL_PROGRAM_BUILD_LOG, size, log,
                                             NULL) != CL_SUCCESS) {
            free(log);
            log = NULL;
        }
    }
    return log;
}

/* The message of a failed build: the log, then the numbered source. */
static amp_status build_failure(cl_program prog, const amp_accelerator *acc,
                                const amp_kernel_source *src, const cg_kernel *gen, cl_int rc)
{
    char *log = build_log(prog, acc);
    strbuf sb = STRBUF_INIT;
    amp__sb_printf(&sb, "The kernel at %s:%d did not compile for %s (%s).\n", src->file, src->line,
              acc->name, amp__err_cl_name(rc));
    amp__bl_map_diagnostics(&sb, log, gen, src);
    amp__sb_printf(&sb, "Build log:\n%s\n", log && log[0] ? log : "(the driver gave no log)\n");
    amp__sb_printf(&sb, "Generated source (the body starts at line %d; AMP_DUMP_KERNELS=<dir> keeps"
                   " it in a file):\n",
              gen->body_line);
    amp__bl_number_lines(&sb, gen->source);
    amp_status st = amp__err_set(amp__err_status_of_cl(rc) == AMP_ERROR_KERNEL_BUILD
                                ? AMP_ERROR_KERNEL_BUILD
                                : amp__err_status_of_cl(rc),
                            "%s", sb.data ? sb.data : "A kernel did not compile.");
    amp__sb_free(&sb);
    free(log);
    return st;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The program of gen for acc: from the disk cache when it holds it
 * (*from_disk set), else compiled from source and stored there. */
static amp_status program_of(const cg_spec *spec, amp_accelerator *acc, const cg_kernel *gen,
                             cl_program *out, int *from_disk)
{
    /* Under AMP_CHECK the simulator compiles with its own options, and its
     * "binaries" are not worth keeping. */
    int use_disk = !amp__ock_installed() && amp__dc_enabled();
    const char *options = amp__ock_build_options();
    dc_key key;
    *from_disk = 0;
    if (use_disk && amp__dc_make_key(gen->source, options, acc, &key)) {
        *out = amp__dc_program_from_cache(acc->context, acc->device, &key, options);
        if (*out) {
            *from_disk = 1;
            return AMP_OK;
        }
    } else {
        use_disk = 0;
    }
    cl_int rc = CL_SUCCESS;
    const char *text = gen->source;
    cl_program prog = amp__clapi.CreateProgramWithSource(acc->context, 1, &text, NULL, &rc);
    if (!prog)
        return amp__err_cl(rc, "clCreateProgramWithSource", "Compiling a kernel");
    rc = amp__clapi.BuildProgram(prog, 1, &acc->device, options, NULL, NULL);
    if (rc != CL_SUCCESS) {
        amp_status st = build_failure(prog, acc, spec->source, gen, rc);
        amp__clapi.ReleaseProgram(prog);
        return st;
    }
    if (use_disk)
        amp__dc_store_program(prog, &key);
    *out = prog;
    return AMP_OK;
}

static amp_status build(const cg_spec *spec, amp_accelerator *acc, kc_node *node)
{
    cg_kernel gen;
    amp_status st = amp__cg_generate(spec, node->name, &gen);
    if (st != AMP_OK)
        return st;
    dump_source(node->name, gen.source);
    node->entry.written_mask = gen.written_mask;

    double t0 = now_ms();
    cl_program prog = NULL;
    int from_disk = 0;
    st = program_of(spec, acc, &gen, &prog, &from_disk);
    if (st == AMP_OK && amp__ock_installed()) {
        node->generated = malloc(sizeof *node->generated);
        if (node->generated)
            *node->generated = gen;
        else
            st = amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory compiling a kernel.");
    }
    if (!node->generated)
        amp__cg_kernel_free(&gen);
    if (st != AMP_OK) {
        if (prog)
            amp__clapi.ReleaseProgram(prog);
        return st;
    }
    cl_int rc = CL_SUCCESS;
    cl_kernel k = amp__clapi.CreateKernel(prog, node->name, &rc);
    if (!k) {
        amp__clapi.ReleaseProgram(prog);
        return amp__err_cl(rc, "clCreateKernel", "Compiling a kernel");
    }
    size_t wg = 0;
    cl_ulong lmem = 0;
    rc = amp__clapi.GetKernelWorkGroupInfo(k, acc->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg,
                                      NULL);
    if (rc == CL_SUCCESS)
        rc = amp__clapi.GetKernelWorkGroupInfo(k, acc->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lmem,
                                          &lmem, NULL);
    if (rc != CL_SUCCESS) {
        amp__clapi.ReleaseKernel(k);
        amp__clapi.ReleaseProgram(prog);
        return amp__err_cl(rc, "clGetKernelWorkGroupInfo", "Compiling a kernel");
    }
    node->program = prog;
    node->entry.kernel = k;
    node->entry.name = node->name;
    node->entry.max_work_group = wg ? wg : acc->max_work_group;
    node->entry.local_mem = lmem;
    node->entry.generated = node->generated;
    if (from_disk)
        n_disk_hits++;
    else
        n_builds++;
    if (amp__env_trace_kernels()) {
        fprintf(stderr, "[amp] %s %s for %s in %.1f ms\n",
                from_disk ? "loaded from the disk cache" : "compiled", node->name, acc->name,
                now_ms() - t0);
        char *log = from_disk ? NULL : build_log(prog, acc);
        if (log && log[strspn(log, " \t\r\n")])
            fprintf(stderr, "[amp] build log of %s:\n%s\n", node->name, log);
        free(log);
    }
    return AMP_OK;
}

amp_status amp__kc_get(const cg_spec *spec, amp_accelerator *acc, kc_entry **out)
{
    int64_t words[SIG_WORDS];
    int nwords = spec_words(spec, words);
    kc_key key;
    memset(&key, 0, sizeof key); /* the key is hashed as bytes: no stray padding */
    key.body = spec->source->body;
    key.acc = acc;
    key.hash = hash_words(words, nwords);

    kc_node *node = NULL;
    HASH_FIND(hh, cache, &key, sizeof key, node);
    if (node && node->nwords == nwords &&
        memcmp(node->words, words, (size_t)nwords * sizeof words[0]) == 0) {
        n_hits++;
        *out = &node->entry;
        return AMP_OK;
    }
    if (node) {
        /* A 64-bit hash collision between two specs of one call site: make
         * room for the new one. */
        HASH_DEL(cache, node);
        node_free(node);
    }

    node = calloc(1, sizeof *node);
    if (!node)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory compiling a kernel.");
    node->key = key;
    node->nwords = nwords;
    memcpy(node->words, words, (size_t)nwords * sizeof words[0]);
    node->name = kernel_name(spec->source);
    if (!node->name) {
        free(node);
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory compiling a kernel.");
    }
    amp_status st = build(spec, acc, node);
    if (st != AMP_OK) {
        free(node->name);
        free(node);
        return st;
    }
    HASH_ADD(hh, cache, key, sizeof key, node);
    *out = &node->entry;
    return AMP_OK;
}

void amp__kc_counts(uint64_t *builds, uint64_t *disk_hits, uint64_t *hits)
{
    *builds = n_builds;
    *disk_hits = n_disk_hits;
    *hits = n_hits;
}

void amp__kc_forget_body(const char *body)
{
    kc_node *n, *tmp;
    HASH_ITER(hh, cache, n, tmp)
    {
        if (n->key.body == body) {
            HASH_DEL(cache, n);
            node_free(n);
        }
    }
}

void amp__kc_clear(void)
{
    kc_node *n, *tmp;
    HASH_ITER(hh, cache, n, tmp)
    {
        HASH_DEL(cache, n);
        node_free(n);
    }
}
