/*
 * runtime/kernel/kcache.c - the in-process kernel cache, and compiling on a miss.
 */
#include "kernel/kcache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <uthash.h>

#include "translate/buildlog.h"
#include "kernel/diskcache.h"
#include "core/env.h"
#include "core/error.h"
#include "device/oclcheck.h"
#include "core/lock.h"
#include "core/strbuf.h"
#include "device/ending.h"

/* The numbers a kernel depends on, besides its body and device. */
#define SIG_WORDS (9 + 3 * AMP_MAX_CAPTURES)

typedef struct kc_key {
    const char *body;
    const amp_accelerator *acc;
    uint64_t hash;
} kc_key;

/* What a lookup reads (the key, the hash handle and the words) comes first
 * and together: on a GPU, the driver's work between two launches leaves
 * little of the node in the processor's caches. */
typedef struct kc_node {
    kc_key key;
    UT_hash_handle hh;
    int nwords;
    int64_t words[SIG_WORDS];
    kc_entry entry;
    cl_program program;
    char *name;
    char *file;           /* the call site's file, to tell apart two of one name */
    cg_kernel *generated; /* kept under AMP_CHECK */
    char *unowned;        /* entry.unowned */
    char *body_text;      /* entry.body_text */
} kc_node;

static kc_node *cache;
static uint64_t n_builds, n_disk_hits, n_hits;

/* Release what a node holds, built or not. */
static void node_free(kc_node *n)
{
    amp__changes_count(CHANGES_KERNEL); /* amp__kc_generation */
    if (n->entry.kernel)
        amp__clapi.ReleaseKernel(n->entry.kernel);
    if (n->program)
        amp__clapi.ReleaseProgram(n->program);
    if (n->generated) {
        amp__cg_kernel_free(n->generated);
        free(n->generated);
    }
    free(n->unowned);
    free(n->name);
    free(n->file);
    free(n->body_text);
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
        /* Each field its own bits: a rank up to 8 takes four. */
        w[n++] = (int64_t)c->kind | (int64_t)c->rank << 4 | (int64_t)c->is_const << 8 |
                 (int64_t)c->channels << 9 | (int64_t)c->image_kind << 12 |
                 (int64_t)c->access << 16 | (int64_t)c->type << 20;
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

static uint32_t fnv32(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* A kernel's name holds at most this much of its file's stem. The name
 * becomes file names (PoCL's program files, AMP_DUMP_KERNELS' dumps), and
 * a file's name has at most 255 bytes: PoCL aborted on a kernel named
 * after a stem of 247 characters. */
#define NAME_STEM_MAX 32

/* The file's stem (its name up to the first '.'), its characters outside
 * [A-Za-z0-9] as '_', into sb; a stem over NAME_STEM_MAX characters as
 * its first part and a hash of all of it, so that two long stems that
 * begin alike still differ. */
static void append_stem(strbuf *sb, const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    size_t n = strcspn(base, ".");
    char stem[NAME_STEM_MAX + 1];
    size_t keep = n <= NAME_STEM_MAX ? n : NAME_STEM_MAX - 9;
    for (size_t i = 0; i < keep; i++) {
        char c = base[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        stem[i] = ok ? c : '_';
    }
    stem[keep] = '\0';
    amp__sb_append(sb, stem);
    if (keep < n) {
        uint32_t h = 2166136261u; /* FNV-1a of the whole stem */
        for (size_t i = 0; i < n; i++)
            h = (h ^ (unsigned char)base[i]) * 16777619u;
        amp__sb_printf(sb, "_%08x", h);
    }
}

/* "amp_<file stem>_<line>", plus "_v<n>" for the nth variant of one site,
 * plus "_<hash of the path>" when a call site of another file (of the same
 * name, in another folder) already has the name: dump files and profile
 * rows are by name. A long stem is cut, with a hash (append_stem). */
static char *kernel_name(const amp_kernel_source *src)
{
    strbuf sb = STRBUF_INIT;
    amp__sb_append(&sb, "amp_");
    append_stem(&sb, src->file);
    amp__sb_printf(&sb, "_%d", src->line);
    size_t stem = sb.length;
    int variants = 0, other_file = 0;
    kc_node *n, *tmp;
    HASH_ITER(hh, cache, n, tmp)
    {
        if (n->key.body == src->body)
            variants++;
        else if (sb.data && strncmp(n->name, sb.data, stem) == 0 &&
                 (n->name[stem] == '\0' || n->name[stem] == '_') && strcmp(n->file, src->file) != 0)
            other_file = 1;
    }
    if (other_file)
        amp__sb_printf(&sb, "_%08x", fnv32(src->file));
    if (variants > 0)
        amp__sb_printf(&sb, "_v%d", variants + 1);
    return amp__sb_take(&sb);
}

/* Whether the file at path is one this library wrote: a regular file of
 * this user (not a link) that starts as every generated kernel does. */
static int dumped_by_us(const char *path)
{
    static const char header[] = "/*\n * Kernel ";
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())
        return 0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char start[sizeof header - 1];
    ssize_t got = read(fd, start, sizeof start);
    close(fd);
    return got == (ssize_t)sizeof start && memcmp(start, header, sizeof start) == 0;
}

static int write_all(int fd, const char *text, size_t n)
{
    while (n > 0) {
        ssize_t put = write(fd, text, n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return 0;
        text += put;
        n -= (size_t)put;
    }
    return 1;
}

/* AMP_DUMP_KERNELS: write the source to <dir>/<name>.cl, never following a
 * link and never overwriting a file this library did not write (an older
 * dump is replaced through a temporary file, renamed over it). */
static void dump_source(const char *name, const char *source)
{
    const char *dir = amp__env_dump_dir();
    if (!dir)
        return;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "[amp] AMP_DUMP_KERNELS: cannot create %s: %s\n", dir, strerror(errno));
        return;
    }
    strbuf path = STRBUF_INIT, tmp = STRBUF_INIT;
    amp__sb_printf(&path, "%s/%s.cl", dir, name);
    amp__sb_printf(&tmp, "%s/.%s.cl.XXXXXX", dir, name);
    const char *target = path.data;
    int fd = -1;
    if (!path.data || !tmp.data) {
        fprintf(stderr, "[amp] AMP_DUMP_KERNELS: out of host memory\n");
    } else if ((fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644)) >=
               0) {
        /* a new file */
    } else if (errno != EEXIST) {
        fprintf(stderr, "[amp] AMP_DUMP_KERNELS: cannot write %s: %s\n", target, strerror(errno));
    } else if (!dumped_by_us(target)) {
        fprintf(stderr,
                "[amp] AMP_DUMP_KERNELS: %s is there and was not written by this library (or is"
                " a link): left as it is, and this kernel not written\n",
                target);
    } else if ((fd = mkstemp(tmp.data)) < 0) {
        fprintf(stderr, "[amp] AMP_DUMP_KERNELS: cannot write in %s: %s\n", dir, strerror(errno));
    } else {
        target = tmp.data; /* renamed over the older dump below */
    }
    if (fd >= 0) {
        int ok = write_all(fd, source, strlen(source));
        ok &= close(fd) == 0;
        if (ok && target == tmp.data)
            ok = rename(tmp.data, path.data) == 0;
        if (!ok) {
            fprintf(stderr, "[amp] AMP_DUMP_KERNELS: cannot write %s: %s\n", path.data,
                    strerror(errno));
            unlink(target);
        }
    }
    amp__sb_free(&path);
    amp__sb_free(&tmp);
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
        if (log && amp__clapi.GetProgramBuildInfo(prog, acc->device, CL_PROGRAM_BUILD_LOG, size,
                                                  log, NULL) != CL_SUCCESS) {
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
    amp__sb_printf(&sb,
                   "Generated source (the body starts at line %d; AMP_DUMP_KERNELS=<dir> keeps"
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

/* A compiled program and what it came from. */
typedef struct compiled {
    cg_kernel gen;
    cl_program program;
    int from_disk;
    int compiler_failed; /* the OpenCL compiler refused the source */
    dc_key key;
    int have_key;
} compiled;

/* Generate the kernel (views of force_written passed writable) and make
 * its program: from the disk cache when it holds it and load allows, else
 * compiled from source and stored there. */
static amp_status compile(const cg_spec *spec, amp_accelerator *acc, const char *name,
                          uint32_t force_written, int load, compiled *c)
{
    memset(c, 0, sizeof *c);
    amp_status st = amp__cg_generate(spec, name, force_written, &c->gen);
    if (st != AMP_OK)
        return st;
    dump_source(name, c->gen.source);
    /* Under AMP_CHECK the simulator compiles with its own options, and its
     * "binaries" are not worth keeping. A texture read and written in one
     * kernel is a __read_write image, which needs OpenCL C 2.0 or later
     * (a texture view of that access is made only on a device that has it,
     * data/texture.c). */
    char options[96];
    snprintf(options, sizeof options, "%s", amp__ock_build_options());
    for (int i = 0; i < spec->ncaptures; i++)
        if (spec->captures[i].kind == AMP_CAPTURE_TEXTURE &&
            spec->captures[i].access == AMP_TEXTURE_READ_WRITE && acc->rw_images_std) {
            snprintf(options, sizeof options, "%s%s%s", amp__ock_build_options(),
                     *amp__ock_build_options() ? " " : "", acc->rw_images_std);
            break;
        }
    int disk = !amp__ock_installed() && amp__dc_enabled();
    c->have_key = disk && amp__dc_make_key(c->gen.source, options, acc, &c->key);
    if (load && c->have_key &&
        (c->program = amp__dc_program_from_cache(acc->context, acc->device, &c->key, options))) {
        c->from_disk = 1;
        return AMP_OK;
    }
    cl_int rc = CL_SUCCESS;
    const char *text = c->gen.source;
    c->program = amp__clapi.CreateProgramWithSource(acc->context, 1, &text, NULL, &rc);
    if (!c->program)
        return amp__err_cl(rc, "clCreateProgramWithSource", "Compiling a kernel");
    rc = amp__clapi.BuildProgram(c->program, 1, &acc->device, options, NULL, NULL);
    if (rc != CL_SUCCESS) {
        c->compiler_failed = 1;
        return build_failure(c->program, acc, spec->source, &c->gen, rc);
    }
    if (c->have_key)
        amp__dc_store_program(c->program, &c->key);
    return AMP_OK;
}

static void compiled_free(compiled *c)
{
    if (c->program)
        amp__clapi.ReleaseProgram(c->program);
    amp__cg_kernel_free(&c->gen);
    memset(c, 0, sizeof *c);
}

/* Views the kernel passed read only although the body could write them:
 * neither created const nor found written. */
static uint32_t read_only_views(const cg_spec *spec, const cg_kernel *gen)
{
    uint32_t mask = 0;
    for (int i = 0; i < spec->ncaptures; i++)
        if (spec->captures[i].kind == AMP_CAPTURE_VIEW && !spec->captures[i].is_const &&
            !((gen->written_mask >> i) & 1u))
            mask |= 1u << i;
    return mask;
}

/* The kernel object of c's program, with its limits, into node. */
static amp_status make_kernel(kc_node *node, amp_accelerator *acc, compiled *c)
{
    cl_int rc = CL_SUCCESS;
    cl_kernel k = amp__clapi.CreateKernel(c->program, node->name, &rc);
    const char *call = "clCreateKernel";
    size_t wg = 0;
    cl_ulong lmem = 0;
    if (k && (rc = amp__clapi.GetKernelWorkGroupInfo(k, acc->device, CL_KERNEL_WORK_GROUP_SIZE,
                                                     sizeof wg, &wg, NULL)) == CL_SUCCESS)
        rc = amp__clapi.GetKernelWorkGroupInfo(k, acc->device, CL_KERNEL_LOCAL_MEM_SIZE,
                                               sizeof lmem, &lmem, NULL);
    if (k && rc != CL_SUCCESS)
        call = "clGetKernelWorkGroupInfo";
    if (rc != CL_SUCCESS) {
        if (k)
            amp__clapi.ReleaseKernel(k);
        return amp__err_cl(rc, call, "Compiling a kernel");
    }
    node->entry.kernel = k;
    node->entry.max_work_group = wg ? wg : acc->max_work_group;
    node->entry.local_mem = lmem;
    return AMP_OK;
}

static void trace_build(const kc_node *node, const amp_accelerator *acc, const compiled *c,
                        double ms)
{
    fprintf(stderr, "[amp] %s %s for %s in %.1f ms\n",
            c->from_disk ? "loaded from the disk cache" : "compiled", node->name, acc->name, ms);
    char *log = c->from_disk ? NULL : build_log(c->program, acc);
    if (log && log[strspn(log, " \t\r\n")])
        fprintf(stderr, "[amp] build log of %s:\n%s\n", node->name, log);
    free(log);
}

/*
 * Generate, compile and make the kernel of spec into node. Two safety nets:
 * - a kernel that does not compile while some views are read only is
 *   built again with them writable: the write analysis may have missed a
 *   write, which a read-only view's accessor refuses to compile; it never
 *   runs read only. If that build fails too, its failure is the user's.
 * - a program from the disk cache that loads but cannot make its kernel is
 *   removed from the cache and compiled from source.
 */
static amp_status build(const cg_spec *spec, amp_accelerator *acc, kc_node *node)
{
    double t0 = now_ms();
    compiled c;
    amp_status st = compile(spec, acc, node->name, 0, 1, &c);
    uint32_t retry = c.compiler_failed ? read_only_views(spec, &c.gen) : 0;
    if (st != AMP_OK && retry) {
        compiled_free(&c);
        st = compile(spec, acc, node->name, retry, 1, &c);
        if (st == AMP_OK && amp__env_trace_kernels())
            fprintf(stderr,
                    "[amp] %s did not compile with views it reads passed read only: it writes"
                    " them in a way the write analysis did not see; built again with them"
                    " written\n",
                    node->name);
    }
    if (st == AMP_OK)
        st = make_kernel(node, acc, &c);
    if (st != AMP_OK && c.from_disk) {
        amp__dc_remove(&c.key, "its program loaded but made no kernel");
        uint32_t force = retry;
        compiled_free(&c);
        st = compile(spec, acc, node->name, force, 0, &c);
        if (st == AMP_OK)
            st = make_kernel(node, acc, &c);
    }
    if (st == AMP_OK) {
        node->entry.written_mask = c.gen.written_mask;
        node->entry.values_bytes = amp__translate_values_layout(spec, node->entry.values_start);
        node->entry.own_mask = c.gen.own_mask;
        node->entry.tile_mask = c.gen.tile_mask;
        node->entry.unowned = node->unowned = c.gen.unowned;
        c.gen.unowned = NULL;
        node->entry.name = node->name;
        if (c.from_disk)
            n_disk_hits++;
        else
            n_builds++;
        if (amp__env_trace_kernels())
            trace_build(node, acc, &c, now_ms() - t0);
        /* Under AMP_CHECK the generated source is kept, to move the
         * checker's reports to the user's lines. */
        if (amp__ock_installed()) {
            node->generated = malloc(sizeof *node->generated);
            if (!node->generated) {
                st = amp__err_set(AMP_ERROR_OUT_OF_MEMORY,
                                  "Out of host memory compiling a kernel.");
            } else {
                *node->generated = c.gen;
                memset(&c.gen, 0, sizeof c.gen);
                node->entry.generated = node->generated;
            }
        }
    }
    if (st == AMP_OK) {
        node->program = c.program;
        c.program = NULL;
    }
    compiled_free(&c);
    return st;
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
    size_t length = spec->source->body_length;
    if (node && node->nwords == nwords &&
        memcmp(node->words, words, (size_t)nwords * sizeof words[0]) == 0 &&
        memcmp(node->body_text, spec->source->body, length) == 0) {
        n_hits++;
        *out = &node->entry;
        return AMP_OK;
    }
    /* Once the process has begun to exit, the compiler may be torn down
     * (device/ending.h). */
    if (amp__end_begun()) {
        char what[300];
        snprintf(what, sizeof what, "The kernel at %s:%d is not built for %s", spec->source->file,
                 spec->source->line, acc->name);
        return amp__end_refused(what, "building it now could crash inside the OpenCL compiler,"
                                      " whose exit handlers may have run (a kernel that has run"
                                      " at the same size on this device still runs)");
    }
    if (node) {
        /* A 64-bit hash collision between two specs of one call site, or
         * its text rewritten in place: make room for the new one. */
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
    node->file = strdup(spec->source->file);
    node->body_text = malloc(length ? length : 1);
    if (node->body_text)
        memcpy(node->body_text, spec->source->body, length);
    node->entry.body_text = node->body_text;
    amp_status st = AMP_OK;
    if (node->name && node->file && node->body_text) {
        /* The compiler may register exit handlers of its own as it builds,
         * or fails to (device/ending.h). */
        int first = amp__end_begin(END_BUILT, acc->platform);
        st = build(spec, acc, node);
        amp__end_done(END_BUILT, acc->platform, first);
    } else {
        st = amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory compiling a kernel.");
    }
    if (st != AMP_OK) {
        node_free(node);
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
