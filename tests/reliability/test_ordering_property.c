/*
 * tests/test_ordering_property.c - random sequences of launches, copies,
 * texture refills, host accesses and releases over several accelerator
 * views, every result checked against a model kept on the host. A kernel's
 * last launch is often launched again on the same data, with others in
 * between: the launch record's case.
 *
 * Two runs, each its own CTest entry (the argument picks one; none runs
 * both): "views", over views (queues) of one accelerator in both queuing
 * modes, and "devices", over two accelerators made of one CPU
 * (AMP_SPLIT_CPU=2, which the test sets before it lists the devices), each
 * with views of its own.
 *
 * The data: host memory under views and sections of them, views with no
 * host memory, arrays and views of arrays, textures. The model is plain
 * host arrays updated with the library's semantics, an element marked
 * undefined where the library leaves it so (discard_data, a new array).
 * Every value the host gets back must be the model's: a view's data and
 * elements, host memory after a synchronize or its asynchronous form,
 * host memory that the release of its last view wrote back, the host end
 * of a copy, a texture's texels. So a read never sees a write queued after
 * it, and no write is lost. Kernels are sometimes slow (a loop count),
 * so that later work is queued behind them on the same and other views.
 * An array or a texture captured on another accelerator is refused with
 * AMP_ERROR_INVALID_OPERATION and changes nothing; a view of host memory or
 * of an array goes anywhere. Kernels and copies use the ends of pending
 * asynchronous copies, which run before any later call. Handles are
 * released while kernels and asynchronous copies that use them are
 * pending, and a released handle is refused; under ASan and valgrind any
 * use after release is reported.
 *
 * AMP_PROPERTY_SEED=<n> replays a run (the seed is printed at its start
 * and with a failure, with the last operations); AMP_PROPERTY_STEPS=<n>
 * sets the operations of each run. Under valgrind it does fewer.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

enum {
    N = 1024,        /* elements of the largest data source */
    MAX_AVS = 8,     /* accelerator views in use */
    MAX_HOST = 6,    /* host buffers that views wrap */
    MAX_DS = 16,     /* data sources: host memory, view storage, arrays */
    MAX_ARRAYS = 4,  /* arrays alive at once */
    MAX_VIEWS = 24,  /* views alive at once */
    MAX_TEX = 3,     /* textures alive at once */
    MAX_PENDING = 8, /* asynchronous operations not waited for */
    MAX_GONE = 8,    /* released handles kept to use again */
    LOG_LINES = 48,  /* operations shown with a failure */
    LINE = 200,
    DEFAULT_STEPS = 4000,
    VALGRIND_STEPS = 100,
    SLOW_LOOPS = 40000, /* the longest loop of a slow kernel */
    VALGRIND_SLOW_LOOPS = 400,
};

/* ---- The kernels ---- */

/* Thread i writes dst at p, a permutation of the domain (pm is odd and
 * the lengths are powers of two), from src at q, a computed index; the
 * loop makes a kernel as slow as asked. Each reads and writes its own
 * elements only: no two threads touch one element. */
static const amp_kernel_source *const k_mix = AMP_KERNEL_SOURCE(idx, {
    int i = idx[0];
    int p = (i * pm + pa) % dst_extent[0];
    int q = (i * qm + qa) % src_extent[0];
    uint x = (uint)src(q) + salt;
    if (keep)
        x += (uint)dst(p) * 3u;
    for (int k = 0; k < loops; k++)
        x = x * 1664525u + 1013904223u;
    dst(p) = (int)x;
});

/* As k_mix, and writes a second view at the thread's own index, where it
 * has one: the rest of it must keep its values. */
static const amp_kernel_source *const k_two = AMP_KERNEL_SOURCE(idx, {
    int i = idx[0];
    int p = (i * pm + pa) % dst_extent[0];
    int q = (i * qm + qa) % src_extent[0];
    uint x = (uint)src(q) + salt;
    if (keep)
        x += (uint)dst(p) * 3u;
    for (int k = 0; k < loops; k++)
        x = x * 1664525u + 1013904223u;
    dst(p) = (int)x;
    if (i < dst2_extent[0])
        dst2(i) = (int)(x ^ salt2);
});

/* As k_mix, adding a texel of tex at a computed index. */
static const amp_kernel_source *const k_tex = AMP_KERNEL_SOURCE(idx, {
    int i = idx[0];
    int p = (i * pm + pa) % dst_extent[0];
    int q = (i * qm + qa) % src_extent[0];
    int r = (i * rm + ra) % tex_extent[0];
    uint x = (uint)src(q) + (uint)tex(r) + salt;
    if (keep)
        x += (uint)dst(p) * 3u;
    for (int k = 0; k < loops; k++)
        x = x * 1664525u + 1013904223u;
    dst(p) = (int)x;
});

/* One view in place. */
static const amp_kernel_source *const k_self = AMP_KERNEL_SOURCE(idx, {
    int i = idx[0];
    int p = (i * pm + pa) % dst_extent[0];
    uint x = (uint)dst(p) * 3u + (uint)p + salt;
    for (int k = 0; k < loops; k++)
        x = x * 1664525u + 1013904223u;
    dst(p) = (int)x;
});

typedef enum kernel_kind { K_MIX, K_TWO, K_TEX, K_SELF, K_COUNT } kernel_kind;
static const char *const kernel_names[K_COUNT] = {"mix", "two", "tex", "self"};

/* The kernels' loop, `loops` steps at once: x -> A x + C (mod 2^32). */
static void lcg_jump(int loops, uint32_t *a_out, uint32_t *c_out)
{
    uint32_t a = 1664525u, c = 1013904223u, ra = 1u, rc = 0u;
    for (unsigned n = (unsigned)loops; n; n >>= 1) {
        if (n & 1u) {
            ra = a * ra;
            rc = a * rc + c;
        }
        c = a * c + c;
        a = a * a;
    }
    *a_out = ra;
    *c_out = rc;
}

/* ---- The model ---- */

typedef enum ds_kind { DS_NONE, DS_HOST, DS_EXTENT, DS_ARRAY } ds_kind;
static const char *const ds_kind_names[] = {"none", "host", "extent", "array"};

/* A data source of the library: the memory that views of one host pointer,
 * an extent view and its sections, or an array and its views share. */
typedef struct model_ds {
    ds_kind kind;
    int len;
    uint32_t val[N];
    unsigned char def[N]; /* 0: the library may hold anything there */
    int host;             /* DS_HOST: its host buffer */
    amp_array *array;     /* DS_ARRAY: the handle, NULL once released */
    int acc;              /* DS_ARRAY: the accelerator it lives on */
    int views;            /* live views of it */
    int holds;            /* pending operations that hold it */
    int reading;          /* pending operations that read it: the host may not write it */
    int writing;          /* pending operations that write it: the host may not use it */
    int syncing;          /* pending synchronizes of it: nothing may write it */
} model_ds;

typedef struct host_buf {
    int32_t *p;
    int locked; /* from amp_host_alloc */
    int ds;     /* the data source that wraps it, -1 for none */
} host_buf;

typedef struct model_view {
    amp_array_view *v; /* NULL: a free slot */
    int ds, off, len;
} model_view;

typedef struct model_tex {
    amp_texture *t; /* NULL: a free slot */
    int acc, len;
    uint32_t val[N];
} model_tex;

typedef struct av_slot {
    amp_accelerator_view *av;
    int acc;
    int created; /* the caller's: released and made again */
} av_slot;

typedef enum pend_kind { P_COPY, P_SYNC, P_MARKER } pend_kind;

typedef struct pending {
    amp_completion *c; /* NULL: a free slot */
    pend_kind kind;
    int src_ds, dst_ds; /* -1: host memory, or none */
    int off, len;       /* P_SYNC: the view's part of its data */
    int32_t *temp;      /* a copy's host end, NULL when it has none (or it was freed) */
    int temp_locked, temp_dst;
    uint32_t expect[N]; /* a host destination's values, by the model */
    unsigned char expect_def[N];
    char what[LINE];
} pending;

/* One end of a copy or a capture of a kernel: a view, an array, or host
 * memory. */
typedef enum end_kind { END_VIEW, END_ARRAY, END_HOST } end_kind;
typedef struct end {
    end_kind kind;
    int idx; /* the view's slot; the array's data source */
    int ds, off, len;
} end;

typedef enum gone_kind { GONE_VIEW, GONE_ARRAY, GONE_TEXTURE } gone_kind;

/* A launch: its kernel, view, captures and scalars. Each kernel's last is
 * kept to launch again (op_launch_again), with the handles it captured. */
typedef struct launch_plan {
    int valid;
    kernel_kind kind;
    end dst, src, dst2;
    void *handles[3]; /* dst's, src's and dst2's view or array */
    int t, a;         /* the texture's slot (-1: none), the accelerator view's */
    amp_texture *tex;
    amp_accelerator_view *av;
    int pm, pa, qm, qa, rm, ra, keep, loops;
    unsigned salt, salt2;
} launch_plan;

typedef struct stats {
    int launches, again, refused, copies, async_copies, syncs, waits, markers, textures, releases,
        released_pending, host_accesses;
    long long compared; /* elements compared with the model */
} stats;

typedef struct world {
    const char *mode;
    unsigned long long seed;
    uint64_t rng;
    int step, steps, slow_loops;
    int last_av, last_tex; /* the view of the last launch, the texture a kernel read last */
    int nacc;
    amp_accelerator *acc[2];
    av_slot avs[MAX_AVS];
    int navs;
    host_buf host[MAX_HOST];
    model_ds ds[MAX_DS];
    model_view views[MAX_VIEWS];
    model_tex tex[MAX_TEX];
    pending pend[MAX_PENDING];
    struct {
        gone_kind kind;
        void *handle;
    } gone[MAX_GONE];
    int ngone;
    launch_plan again[K_COUNT];
    char log[LOG_LINES][LINE];
    int logged;
    stats st;
} world;

static world W;
static const char *program = "test_ordering_property";

/* ---- Randomness, the log of operations, failures ---- */

static uint32_t rnd(void)
{
    /* xorshift64* */
    W.rng ^= W.rng >> 12;
    W.rng ^= W.rng << 25;
    W.rng ^= W.rng >> 27;
    return (uint32_t)((W.rng * 2685821657736338717ull) >> 32);
}

static int pick(int n)
{
    return (int)(rnd() % (uint32_t)n);
}

static int chance(int percent)
{
    return pick(100) < percent;
}

static void note(const char *fmt, ...)
{
    char *line = W.log[W.logged % LOG_LINES];
    int n = snprintf(line, LINE, "%4d ", W.step);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, (size_t)(LINE - n), fmt, ap);
    va_end(ap);
    W.logged++;
}

/* Say what went wrong, with the seed that replays it and the operations
 * before, and fail the test. */
static void fail_run(const char *fmt, ...)
{
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n[ ordering ] %s run, seed %llu, step %d of %d: %s\n", W.mode, W.seed, W.step,
            W.steps, what);
    int first = W.logged > LOG_LINES ? W.logged - LOG_LINES : 0;
    fprintf(stderr, "[ ordering ] the last %d operations (the last one failed):\n",
            W.logged - first);
    for (int k = first; k < W.logged; k++)
        fprintf(stderr, "    %s\n", W.log[k % LOG_LINES]);
    fprintf(stderr, "[ ordering ] replay: AMP_PROPERTY_SEED=%llu AMP_PROPERTY_STEPS=%d %s %s\n",
            W.seed, W.steps, program, W.mode);
    fail_msg("%s run, seed %llu: %s", W.mode, W.seed, what);
}

#define OK(call)                                                                                   \
    do {                                                                                           \
        amp_status st_ = (call);                                                                   \
        if (st_ != AMP_OK)                                                                         \
            fail_run("%s returned %s: %s", #call, amp_status_name(st_), amp_last_error());         \
    } while (0)

/* Compare len values the host got with the model's, where it defines them. */
static void check_values(const char *what, const int32_t *got, const uint32_t *val,
                         const unsigned char *def, int len)
{
    int bad = 0, first = -1;
    for (int k = 0; k < len; k++) {
        if (def[k] && (uint32_t)got[k] != val[k]) {
            if (first < 0)
                first = k;
            bad++;
        }
    }
    W.st.compared += len;
    if (bad)
        fail_run("%s: %d of %d elements differ from the model; the first at %d is %d, expected %d",
                 what, bad, len, first, got[first], (int32_t)val[first]);
}

static void check_ds(const char *what, const int32_t *got, int ds, int off, int len)
{
    check_values(what, got, W.ds[ds].val + off, W.ds[ds].def + off, len);
}

/* ---- Accelerator views ---- */

static const char *mode_name(amp_accelerator_view *av)
{
    if (amp_accelerator_view_is_default(av))
        return "default";
    return amp_accelerator_view_get_queuing_mode(av) == AMP_QUEUING_IMMEDIATE ? "immediate"
                                                                              : "automatic";
}

static void add_av(int acc, amp_queuing_mode mode)
{
    av_slot *s = &W.avs[W.navs++];
    s->acc = acc;
    s->created = mode != 0;
    if (mode)
        OK(amp_accelerator_create_view(W.acc[acc], mode, &s->av));
    else
        OK(amp_accelerator_get_default_view(W.acc[acc], &s->av));
}

static amp_queuing_mode random_mode(void)
{
    return chance(50) ? AMP_QUEUING_IMMEDIATE : AMP_QUEUING_AUTOMATIC;
}

/* ---- Data sources, views, handles ---- */

static int new_ds(ds_kind kind, int len)
{
    for (int d = 0; d < MAX_DS; d++) {
        model_ds *m = &W.ds[d];
        if (m->kind != DS_NONE)
            continue;
        memset(m, 0, sizeof *m);
        m->kind = kind;
        m->len = len;
        m->host = -1;
        return d;
    }
    return -1;
}

/* What the host may do with a data source's memory, by its own reads and
 * writes, while asynchronous operations that use it are pending. */
static int can_read(int d)
{
    return d < 0 || W.ds[d].writing == 0;
}

static int can_write(int d)
{
    return d < 0 || (W.ds[d].writing == 0 && W.ds[d].reading == 0);
}

/* What kernels and copies may do with it. A pending asynchronous copy
 * runs before any later call, so they may read and write its ends (the
 * model took the copy at its call). A pending synchronize's host memory is
 * checked at its wait against the data as it is then: nothing writes the
 * data meanwhile. */
static int can_use(int d, int write)
{
    return d < 0 || !write || W.ds[d].syncing == 0;
}

/* A data source with no view, no array and no pending operation is gone
 * from the library: its host memory is the caller's again, and holds what
 * was written last. */
static void maybe_gone(int d)
{
    model_ds *m = &W.ds[d];
    if (d < 0 || m->kind == DS_NONE || m->views || m->holds || m->array)
        return;
    if (m->kind == DS_HOST) {
        char what[64];
        snprintf(what, sizeof what, "host memory %d after its last view was released", m->host);
        check_ds(what, W.host[m->host].p, d, 0, m->len);
        W.host[m->host].ds = -1;
    }
    m->kind = DS_NONE;
}

static int free_view_slot(void)
{
    for (int k = 0; k < MAX_VIEWS; k++)
        if (!W.views[k].v)
            return k;
    return -1;
}

static void add_view(int slot, amp_array_view *v, int ds, int off, int len)
{
    W.views[slot] = (model_view){v, ds, off, len};
    W.ds[ds].views++;
}

static void remember_gone(gone_kind kind, void *handle)
{
    int k = W.ngone < MAX_GONE ? W.ngone++ : pick(MAX_GONE);
    W.gone[k].kind = kind;
    W.gone[k].handle = handle;
}

static int array_count(void)
{
    int n = 0;
    for (int d = 0; d < MAX_DS; d++)
        n += W.ds[d].kind == DS_ARRAY && W.ds[d].array;
    return n;
}

static int random_len(void)
{
    return N >> pick(4); /* N, N/2, N/4, N/8 */
}

static void random_values(int32_t *p, int len)
{
    for (int k = 0; k < len; k++)
        p[k] = (int32_t)rnd();
}

static const char *end_text(const end *e, char *buf, size_t size)
{
    if (e->kind == END_VIEW)
        snprintf(buf, size, "view %d (%s %d [%d, %d))", e->idx, ds_kind_names[W.ds[e->ds].kind],
                 e->ds, e->off, e->off + e->len);
    else if (e->kind == END_ARRAY)
        snprintf(buf, size, "array %d (acc %d, %d)", e->ds, W.ds[e->ds].acc, e->len);
    else
        snprintf(buf, size, "host memory (%d)", e->len);
    return buf;
}

/* Every view and array that a use may take: to write (or else read) it,
 * of length len (or any, -1), of none of the data sources not1, not2. */
static int gather(end *out, int write, int len, int not1, int not2)
{
    int n = 0;
    for (int k = 0; k < MAX_VIEWS; k++) {
        const model_view *v = &W.views[k];
        if (!v->v || v->ds == not1 || v->ds == not2 || (len >= 0 && v->len != len) ||
            !can_use(v->ds, write))
            continue;
        out[n++] = (end){END_VIEW, k, v->ds, v->off, v->len};
    }
    for (int d = 0; d < MAX_DS; d++) {
        const model_ds *m = &W.ds[d];
        if (m->kind != DS_ARRAY || !m->array || d == not1 || d == not2 ||
            (len >= 0 && m->len != len) || !can_use(d, write))
            continue;
        out[n++] = (end){END_ARRAY, d, d, 0, m->len};
    }
    return n;
}

static int pick_end(end *e, int write, int len, int not1, int not2)
{
    end all[MAX_VIEWS + MAX_DS];
    int n = gather(all, write, len, not1, not2);
    if (n == 0)
        return 0;
    *e = all[pick(n)];
    return 1;
}

static amp_data data_of_end(const end *e, int32_t *host)
{
    if (e->kind == END_VIEW)
        return amp_data_of(W.views[e->idx].v);
    if (e->kind == END_ARRAY)
        return amp_data_of(W.ds[e->ds].array);
    return amp_data_of(host);
}

/* A capture of a view or an array under the kernel's name for it, made by
 * AMP_CAPTURE as a program's own capture is. */
static amp_capture capture_end(const char *name, const end *e)
{
    amp_capture c;
    if (e->kind == END_ARRAY) {
        amp_array *a = W.ds[e->ds].array;
        c = AMP_CAPTURE(a).items[0];
    } else {
        amp_array_view *v = W.views[e->idx].v;
        c = AMP_CAPTURE(v).items[0];
    }
    c.name = name;
    return c;
}

static void copy_model(int to, int to_off, int from, int from_off, int len)
{
    memcpy(W.ds[to].val + to_off, W.ds[from].val + from_off, (size_t)len * sizeof(uint32_t));
    memcpy(W.ds[to].def + to_off, W.ds[from].def + from_off, (size_t)len);
}

static void set_model(int d, int off, const int32_t *values, int len)
{
    for (int k = 0; k < len; k++) {
        W.ds[d].val[off + k] = (uint32_t)values[k];
        W.ds[d].def[off + k] = 1;
    }
}

/* Host memory for a copy's host end: page-locked now and then. */
static int32_t *temp_alloc(int len, int *locked)
{
    void *p = NULL;
    *locked = chance(30);
    if (*locked)
        OK(amp_host_alloc((size_t)len * sizeof(int32_t), W.avs[pick(W.navs)].av, &p));
    else
        p = malloc((size_t)len * sizeof(int32_t));
    assert_non_null(p);
    return p;
}

static void temp_free(int32_t *p, int locked)
{
    if (locked)
        OK(amp_host_free(p));
    else
        free(p);
}

/* ---- Operations: each returns 0 when the state offers nothing to do ---- */

static int pick_loops(void)
{
    int r = pick(100);
    if (r < 55)
        return pick(4);
    if (r < 80)
        return 50 + pick(500);
    return W.slow_loops / 2 + pick(W.slow_loops / 2);
}

/* The handle an end captures. */
static void *handle_of_end(const end *e)
{
    if (e->kind == END_ARRAY)
        return W.ds[e->ds].array;
    return e->kind == END_VIEW ? (void *)W.views[e->idx].v : NULL;
}

/* Whether an end of a launch kept is still the same view or array, with
 * the same part of the same data source. */
static int end_still(const end *e, const void *handle)
{
    if (e->kind == END_ARRAY)
        return W.ds[e->ds].kind == DS_ARRAY && W.ds[e->ds].array == handle;
    const model_view *v = &W.views[e->idx];
    return v->v == handle && v->ds == e->ds && v->off == e->off && v->len == e->len;
}

/* The plan's scalars, drawn again. */
static void pick_scalars(launch_plan *l)
{
    int len = l->dst.len;
    l->pm = 1 + 2 * pick(len / 2);
    l->pa = pick(len);
    l->qm = l->src.len ? pick(l->src.len) : 0;
    l->qa = l->src.len ? pick(l->src.len) : 0;
    l->rm = l->t >= 0 ? pick(W.tex[l->t].len) : 0;
    l->ra = l->t >= 0 ? pick(W.tex[l->t].len) : 0;
    /* Under valgrind every kernel keeps dst's value: PoCL's code for one
     * that does not still loads it, and memcheck takes the elements it
     * wrote as made of the old ones, which are uninitialised where they
     * were discarded or never written (the values are right). */
    l->keep = chance(80) || RUNNING_ON_VALGRIND;
    l->loops = pick_loops();
    l->salt = rnd();
    l->salt2 = rnd();
}

/* Launch the plan, check its status, and run it on the model. */
static int launch_plan_run(const launch_plan *l, const char *how)
{
    kernel_kind kind = l->kind;
    const end *dst = &l->dst, *src = &l->src, *dst2 = &l->dst2;
    int t = l->t, a = l->a, len = dst->len;
    int acc = W.avs[a].acc;
    W.last_av = a;
    if (t >= 0)
        W.last_tex = t;
    /* Arrays and textures live on one accelerator: a kernel elsewhere that
     * captures one is refused. */
    int refused = (dst->kind == END_ARRAY && W.ds[dst->ds].acc != acc) ||
                  (kind != K_SELF && src->kind == END_ARRAY && W.ds[src->ds].acc != acc) ||
                  (kind == K_TWO && dst2->kind == END_ARRAY && W.ds[dst2->ds].acc != acc) ||
                  (t >= 0 && W.tex[t].acc != acc);
    char b1[80], b2[80], b3[80];
    note("%s %s on av %d (acc %d, %s), loops %d: dst %s%s%s%s%s%s tex %d%s", how,
         kernel_names[kind], a, acc, mode_name(W.avs[a].av), l->loops,
         end_text(dst, b1, sizeof b1), kind != K_SELF ? ", src " : "",
         kind != K_SELF ? end_text(src, b2, sizeof b2) : "", kind == K_TWO ? ", dst2 " : "",
         kind == K_TWO ? end_text(dst2, b3, sizeof b3) : "", l->keep ? ", keep" : "", t,
         refused ? ": refused" : "");

    int pm = l->pm, pa = l->pa, qm = l->qm, qa = l->qa, rm = l->rm, ra = l->ra;
    int keep = l->keep, loops = l->loops;
    unsigned salt = l->salt, salt2 = l->salt2;
    amp_capture caps[16];
    int n = 0;
    caps[n++] = capture_end("dst", dst);
    if (kind != K_SELF)
        caps[n++] = capture_end("src", src);
    if (kind == K_TWO)
        caps[n++] = capture_end("dst2", dst2);
    if (kind == K_TEX) {
        amp_texture *tex = W.tex[t].t;
        caps[n++] = AMP_CAPTURE(tex).items[0];
    }
    caps[n++] = AMP_CAPTURE(pm).items[0];
    caps[n++] = AMP_CAPTURE(pa).items[0];
    caps[n++] = AMP_CAPTURE(salt).items[0];
    caps[n++] = AMP_CAPTURE(loops).items[0];
    if (kind != K_SELF) {
        caps[n++] = AMP_CAPTURE(qm).items[0];
        caps[n++] = AMP_CAPTURE(qa).items[0];
        caps[n++] = AMP_CAPTURE(keep).items[0];
    }
    if (kind == K_TWO)
        caps[n++] = AMP_CAPTURE(salt2).items[0];
    if (kind == K_TEX) {
        caps[n++] = AMP_CAPTURE(rm).items[0];
        caps[n++] = AMP_CAPTURE(ra).items[0];
    }
    static const amp_kernel_source *const *const sources[K_COUNT] = {&k_mix, &k_two, &k_tex,
                                                                     &k_self};
    amp_clear_error();
    amp_status st = amp_parallel_for_each(W.avs[a].av, amp_extent_1d(len), *sources[kind],
                                          (amp_capture_list){n, caps});
    W.st.launches++;
    if (refused) {
        if (st != AMP_ERROR_INVALID_OPERATION || !strstr(amp_last_error(), "lives on"))
            fail_run("a kernel on accelerator %d capturing data of the other returned %s, expected"
                     " AMP_ERROR_INVALID_OPERATION: %s",
                     acc, amp_status_name(st), amp_last_error());
        W.st.refused++;
        return 1;
    }
    if (st != AMP_OK)
        fail_run("the launch returned %s: %s", amp_status_name(st), amp_last_error());

    /* The model runs the same kernel. */
    uint32_t ja, jc;
    lcg_jump(loops, &ja, &jc);
    model_ds *D = &W.ds[dst->ds];
    for (int i = 0; i < len; i++) {
        int p = (i * pm + pa) % len;
        uint32_t *dv = &D->val[dst->off + p];
        unsigned char *dd = &D->def[dst->off + p];
        uint32_t x;
        int def;
        if (kind == K_SELF) {
            x = *dv * 3u + (uint32_t)p + salt;
            def = *dd;
        } else {
            const model_ds *S = &W.ds[src->ds];
            int q = (i * qm + qa) % src->len;
            x = S->val[src->off + q] + salt;
            def = S->def[src->off + q];
            if (kind == K_TEX)
                x += W.tex[t].val[(i * rm + ra) % W.tex[t].len];
            if (keep) {
                x += *dv * 3u;
                def = def && *dd;
            }
        }
        x = ja * x + jc;
        *dv = x;
        *dd = (unsigned char)def;
        if (kind == K_TWO && i < dst2->len) {
            W.ds[dst2->ds].val[dst2->off + i] = x ^ salt2;
            W.ds[dst2->ds].def[dst2->off + i] = (unsigned char)def;
        }
    }
    return 1;
}

static int op_launch(void)
{
    launch_plan l = {.valid = 1, .kind = (kernel_kind)pick(K_COUNT), .t = -1};
    kernel_kind kind = l.kind;
    if (!pick_end(&l.dst, 1, -1, -1, -1))
        return 0;
    if (kind != K_SELF && !pick_end(&l.src, 0, -1, l.dst.ds, -1))
        return 0;
    if (kind == K_TWO && !pick_end(&l.dst2, 1, -1, l.dst.ds, l.src.ds))
        return 0;
    if (kind == K_TEX) {
        int live[MAX_TEX], n = 0;
        for (int k = 0; k < MAX_TEX; k++)
            if (W.tex[k].t)
                live[n++] = k;
        if (n == 0)
            return 0;
        l.t = live[pick(n)];
    }
    /* Mostly on the view of the launch before, so that work queues up
     * behind a slow kernel there; mostly on the accelerator where the
     * arrays and the texture captured live, so that few are refused. */
    int a = chance(50) ? W.last_av : pick(W.navs);
    int home = l.t >= 0                                    ? W.tex[l.t].acc
               : l.dst.kind == END_ARRAY                   ? W.ds[l.dst.ds].acc
               : kind != K_SELF && l.src.kind == END_ARRAY ? W.ds[l.src.ds].acc
               : kind == K_TWO && l.dst2.kind == END_ARRAY ? W.ds[l.dst2.ds].acc
                                                           : -1;
    while (home >= 0 && W.avs[a].acc != home && chance(75))
        a = pick(W.navs);
    l.a = a;
    l.av = W.avs[a].av;
    l.tex = l.t >= 0 ? W.tex[l.t].t : NULL;
    l.handles[0] = handle_of_end(&l.dst);
    l.handles[1] = handle_of_end(&l.src);
    l.handles[2] = handle_of_end(&l.dst2);
    pick_scalars(&l);
    W.again[kind] = l;
    return launch_plan_run(&l, "launch");
}

/* A kernel's last launch again, on the same views, arrays, texture and
 * accelerator view, with the same scalars or new ones: what a loop of
 * kernels launched in turns does (one reading what another wrote), which
 * the launch record answers (the data as the last launch left it) while
 * no captured data changed in between. */
static int op_launch_again(void)
{
    launch_plan *l = &W.again[pick(K_COUNT)];
    int ends = l->kind == K_SELF ? 1 : l->kind == K_TWO ? 3 : 2;
    if (!l->valid || W.avs[l->a].av != l->av || (l->t >= 0 && W.tex[l->t].t != l->tex))
        return 0;
    const end *e[3] = {&l->dst, &l->src, &l->dst2};
    for (int k = 0; k < ends; k++)
        if (!end_still(e[k], l->handles[k]) || !can_use(e[k]->ds, k != 1))
            return 0;
    if (chance(50))
        pick_scalars(l);
    W.st.again++;
    return launch_plan_run(l, "again");
}

static int pick_view(int write)
{
    int live[MAX_VIEWS], n = 0;
    for (int k = 0; k < MAX_VIEWS; k++)
        if (W.views[k].v && (write ? can_write(W.views[k].ds) : can_read(W.views[k].ds)))
            live[n++] = k;
    return n ? live[pick(n)] : -1;
}

/* The host reads a view: its data, one element, or host memory after a
 * synchronize. */
static int op_host_read(void)
{
    int k = pick_view(0);
    if (k < 0)
        return 0;
    model_view *v = &W.views[k];
    char what[96];
    int how = pick(3);
    W.st.host_accesses++;
    if (how == 0) {
        note("data_const of view %d (ds %d [%d, %d))", k, v->ds, v->off, v->off + v->len);
        const void *p;
        int64_t strides[AMP_MAX_RANK];
        OK(amp_array_view_data_const(v->v, &p));
        OK(amp_array_view_get_strides(v->v, strides));
        assert_int_equal(strides[0], 1);
        snprintf(what, sizeof what, "amp_array_view_data_const of view %d", k);
        check_ds(what, p, v->ds, v->off, v->len);
    } else if (how == 1) {
        int i = pick(v->len);
        note("get element %d of view %d (ds %d [%d, %d))", i, k, v->ds, v->off, v->off + v->len);
        int32_t e;
        OK(amp_array_view_get(v->v, amp_index_1d(i), &e));
        snprintf(what, sizeof what, "amp_array_view_get of element %d of view %d", i, k);
        check_ds(what, &e, v->ds, v->off + i, 1);
    } else {
        note("synchronize view %d (ds %d [%d, %d))", k, v->ds, v->off, v->off + v->len);
        OK(amp_array_view_synchronize(v->v));
        W.st.syncs++;
        /* The host memory is the caller's to read now, unless a pending
         * copy reads it too. */
        const model_ds *m = &W.ds[v->ds];
        if (m->kind == DS_HOST && m->reading == 0) {
            snprintf(what, sizeof what, "host memory after amp_array_view_synchronize of view %d",
                     k);
            check_ds(what, W.host[m->host].p + v->off, v->ds, v->off, v->len);
        }
    }
    return 1;
}

/* The host writes a view: through its data, or one element. */
static int op_host_write(void)
{
    int k = pick_view(1);
    if (k < 0)
        return 0;
    model_view *v = &W.views[k];
    W.st.host_accesses++;
    if (chance(60)) {
        int count = 1 + pick(16);
        note("write %d elements through the data of view %d (ds %d [%d, %d))", count, k, v->ds,
             v->off, v->off + v->len);
        void *p;
        OK(amp_array_view_data(v->v, &p));
        check_ds("amp_array_view_data", p, v->ds, v->off, v->len);
        for (int j = 0; j < count; j++) {
            int i = pick(v->len);
            int32_t x = (int32_t)rnd();
            ((int32_t *)p)[i] = x;
            set_model(v->ds, v->off + i, &x, 1);
        }
    } else {
        int i = pick(v->len);
        int32_t x = (int32_t)rnd();
        note("set element %d of view %d (ds %d [%d, %d))", i, k, v->ds, v->off, v->off + v->len);
        OK(amp_array_view_set(v->v, amp_index_1d(i), &x));
        set_model(v->ds, v->off + i, &x, 1);
    }
    return 1;
}

static int free_pending_slot(void)
{
    for (int k = 0; k < MAX_PENDING; k++)
        if (!W.pend[k].c)
            return k;
    return -1;
}

/* A copy between views, arrays and host memory; asynchronous or not. */
static int op_copy(int async)
{
    int slot = async ? free_pending_slot() : 0;
    if (slot < 0)
        return 0;
    end src, dst;
    int r = pick(10);
    if (r < 2) {
        if (!pick_end(&dst, 1, -1, -1, -1))
            return 0;
        src = (end){END_HOST, -1, -1, 0, dst.len};
    } else {
        if (!pick_end(&src, 0, -1, -1, -1))
            return 0;
        if (r < 4)
            dst = (end){END_HOST, -1, -1, 0, src.len};
        else if (!pick_end(&dst, 1, src.len, src.ds, -1))
            return 0;
    }
    int len = src.len, locked = 0;
    int32_t *temp = NULL;
    if (src.kind == END_HOST || dst.kind == END_HOST)
        temp = temp_alloc(len, &locked);
    if (src.kind == END_HOST)
        random_values(temp, len);
    char b1[80], b2[80];
    note("%s %s -> %s", async ? "copy_async" : "copy", end_text(&src, b1, sizeof b1),
         end_text(&dst, b2, sizeof b2));
    amp_data from = data_of_end(&src, temp), to = data_of_end(&dst, temp);
    if (!async) {
        OK(amp_copy(from, to));
        W.st.copies++;
        if (dst.kind == END_HOST)
            check_ds("the host end of amp_copy", temp, src.ds, src.off, len);
        else if (src.kind == END_HOST)
            set_model(dst.ds, dst.off, temp, len);
        else
            copy_model(dst.ds, dst.off, src.ds, src.off, len);
        if (temp)
            temp_free(temp, locked);
        return 1;
    }
    pending *p = &W.pend[slot];
    amp_completion *c = NULL;
    amp_status st = amp_copy_async(from, to, &c);
    if (st != AMP_OK) {
        if (temp)
            temp_free(temp, locked);
        fail_run("amp_copy_async returned %s: %s", amp_status_name(st), amp_last_error());
    }
    W.st.async_copies++;
    p->c = c;
    p->kind = P_COPY;
    p->src_ds = src.ds;
    p->dst_ds = dst.ds;
    p->temp = temp;
    p->temp_locked = locked;
    p->temp_dst = dst.kind == END_HOST;
    snprintf(p->what, sizeof p->what, "copy_async %s -> %s", b1, b2);
    if (dst.kind == END_HOST) {
        memcpy(p->expect, W.ds[src.ds].val + src.off, (size_t)len * sizeof(uint32_t));
        memcpy(p->expect_def, W.ds[src.ds].def + src.off, (size_t)len);
        p->len = len;
    }
    /* The copy runs before any later call: the destination's model takes
     * it now, and kernels and copies may use both ends at once. Until it
     * is waited for, the host does not write its source's memory or use
     * its destination's. */
    if (src.ds >= 0) {
        W.ds[src.ds].reading++;
        W.ds[src.ds].holds++;
    }
    if (dst.ds >= 0) {
        W.ds[dst.ds].writing++;
        W.ds[dst.ds].holds++;
        if (src.kind == END_HOST)
            set_model(dst.ds, dst.off, temp, len);
        else
            copy_model(dst.ds, dst.off, src.ds, src.off, len);
    }
    return 1;
}

static int op_copy_sync(void)
{
    return op_copy(0);
}

static int op_copy_async(void)
{
    return op_copy(1);
}

static int op_synchronize_async(void)
{
    int slot = free_pending_slot(), k = pick_view(0);
    if (slot < 0 || k < 0)
        return 0;
    model_view *v = &W.views[k];
    note("synchronize_async view %d (ds %d [%d, %d))", k, v->ds, v->off, v->off + v->len);
    pending *p = &W.pend[slot];
    amp_completion *c = NULL;
    OK(amp_array_view_synchronize_async(v->v, &c));
    p->c = c;
    p->kind = P_SYNC;
    p->src_ds = v->ds;
    p->dst_ds = -1;
    p->off = v->off;
    p->len = v->len;
    p->temp = NULL;
    snprintf(p->what, sizeof p->what, "synchronize_async of view %d (ds %d [%d, %d))", k, v->ds,
             v->off, v->off + v->len);
    /* Nothing writes the view until it completes. */
    W.ds[v->ds].reading++;
    W.ds[v->ds].syncing++;
    W.ds[v->ds].holds++;
    return 1;
}

static int op_marker(void)
{
    int slot = free_pending_slot();
    if (slot < 0)
        return 0;
    int a = pick(W.navs);
    note("marker on av %d (%s)", a, mode_name(W.avs[a].av));
    pending *p = &W.pend[slot];
    amp_completion *c = NULL;
    OK(amp_accelerator_view_create_marker(W.avs[a].av, &c));
    p->c = c;
    p->kind = P_MARKER;
    p->src_ds = p->dst_ds = -1;
    p->temp = NULL;
    snprintf(p->what, sizeof p->what, "marker on av %d", a);
    W.st.markers++;
    return 1;
}

/* Wait for a pending operation, in one of three ways, and check what it
 * gave the host. */
static void finish(int k)
{
    pending *p = &W.pend[k];
    note("wait for %s", p->what);
    int how = pick(3);
    amp_status st;
    if (how == 0) {
        st = amp_completion_wait(p->c);
        if (st == AMP_OK)
            st = amp_completion_release(p->c);
    } else if (how == 1) {
        int done = 0;
        for (int polls = 0; !done; polls++) {
            OK(amp_completion_is_done(p->c, &done));
            if (!done) {
                struct timespec ts = {0, 200000};
                nanosleep(&ts, NULL);
            }
        }
        st = amp_completion_release(p->c);
    } else {
        st = amp_completion_release(p->c);
    }
    p->c = NULL;
    W.st.waits++;
    if (st != AMP_OK)
        fail_run("the wait for %s returned %s: %s", p->what, amp_status_name(st), amp_last_error());
    if (p->kind == P_COPY) {
        if (p->temp && p->temp_dst)
            check_values("the host end of amp_copy_async", p->temp, p->expect, p->expect_def,
                         p->len);
        if (p->temp)
            temp_free(p->temp, p->temp_locked);
        p->temp = NULL;
        if (p->src_ds >= 0) {
            W.ds[p->src_ds].reading--;
            W.ds[p->src_ds].holds--;
            maybe_gone(p->src_ds);
        }
        if (p->dst_ds >= 0) {
            W.ds[p->dst_ds].writing--;
            W.ds[p->dst_ds].holds--;
            maybe_gone(p->dst_ds);
        }
    } else if (p->kind == P_SYNC) {
        model_ds *m = &W.ds[p->src_ds];
        /* The host memory is current where the view lies, unless another
         * pending copy reads it meanwhile. */
        if (m->kind == DS_HOST && m->reading == 1)
            check_ds("host memory after amp_array_view_synchronize_async",
                     W.host[m->host].p + p->off, p->src_ds, p->off, p->len);
        m->reading--;
        m->syncing--;
        m->holds--;
        maybe_gone(p->src_ds);
    }
}

static int op_wait(void)
{
    int live[MAX_PENDING], n = 0;
    for (int k = 0; k < MAX_PENDING; k++)
        if (W.pend[k].c)
            live[n++] = k;
    if (n == 0)
        return 0;
    finish(live[pick(n)]);
    return 1;
}

/* Page-locked memory that a pending copy uses is not freed under it: the
 * free is refused until the copy has run. */
static int op_free_early(void)
{
    for (int k = 0; k < MAX_PENDING; k++) {
        pending *p = &W.pend[k];
        if (!p->c || p->kind != P_COPY || !p->temp || !p->temp_locked)
            continue;
        note("amp_host_free of the host end of pending %s", p->what);
        amp_status st = amp_host_free(p->temp);
        if (st == AMP_OK) {
            p->temp = NULL; /* the copy had run: nothing to read back now */
        } else if (st != AMP_ERROR_INVALID_OPERATION) {
            fail_run("amp_host_free of memory a pending copy uses returned %s: %s",
                     amp_status_name(st), amp_last_error());
        }
        return 1;
    }
    return 0;
}

static int op_av_wait(void)
{
    int a = pick(W.navs);
    if (chance(50)) {
        note("wait for av %d (%s)", a, mode_name(W.avs[a].av));
        OK(amp_accelerator_view_wait(W.avs[a].av));
    } else {
        note("flush av %d (%s)", a, mode_name(W.avs[a].av));
        OK(amp_accelerator_view_flush(W.avs[a].av));
    }
    return 1;
}

/* A created view is released and made again: the arrays, textures and
 * data that used it keep what they need of it. */
static int op_replace_av(void)
{
    int a = pick(W.navs);
    if (!W.avs[a].created)
        return 0;
    amp_queuing_mode mode = random_mode();
    note("release av %d (%s), make it again %s", a, mode_name(W.avs[a].av),
         mode == AMP_QUEUING_IMMEDIATE ? "immediate" : "automatic");
    OK(amp_accelerator_view_release(W.avs[a].av));
    OK(amp_accelerator_create_view(W.acc[W.avs[a].acc], mode, &W.avs[a].av));
    return 1;
}

static int op_texture_refill(void)
{
    int live[MAX_TEX], n = 0;
    for (int k = 0; k < MAX_TEX; k++)
        if (W.tex[k].t)
            live[n++] = k;
    if (n == 0)
        return 0;
    /* Mostly the texture that a kernel read last, which may still be
     * queued on another view. */
    int k = W.tex[W.last_tex].t && chance(60) ? W.last_tex : live[pick(n)];
    model_tex *t = &W.tex[k];
    int32_t buf[N];
    W.st.textures++;
    if (chance(65)) {
        note("refill texture %d (acc %d)", k, t->acc);
        random_values(buf, t->len);
        OK(amp_texture_copy_from_host(t->t, buf, (size_t)t->len * sizeof(int32_t)));
        for (int i = 0; i < t->len; i++)
            t->val[i] = (uint32_t)buf[i];
        /* The texture has the texels now: the caller's memory is its own. */
        memset(buf, 0x5a, sizeof buf);
    } else {
        note("copy texture %d (acc %d) to the host", k, t->acc);
        OK(amp_texture_copy_to_host(t->t, buf, (size_t)t->len * sizeof(int32_t)));
        unsigned char def[N];
        memset(def, 1, sizeof def);
        check_values("amp_texture_copy_to_host", buf, t->val, def, t->len);
    }
    return 1;
}

static void make_texture(int k)
{
    model_tex *t = &W.tex[k];
    int a = pick(W.navs);
    int32_t buf[N];
    t->len = chance(50) ? N : N / 2;
    t->acc = W.avs[a].acc;
    random_values(buf, t->len);
    note("make texture %d of %d texels on av %d (acc %d)", k, t->len, a, t->acc);
    OK(amp_texture_create(AMP_INT, 1, amp_extent_1d(t->len), buf, W.avs[a].av, &t->t));
    for (int i = 0; i < t->len; i++)
        t->val[i] = (uint32_t)buf[i];
}

/* A texture is released (kernels queued may still read it) or made. */
static int op_texture_cycle(void)
{
    int k = pick(MAX_TEX);
    model_tex *t = &W.tex[k];
    if (!t->t) {
        make_texture(k);
        return 1;
    }
    note("release texture %d (acc %d)", k, t->acc);
    OK(amp_texture_release(t->t));
    remember_gone(GONE_TEXTURE, t->t);
    t->t = NULL;
    W.st.releases++;
    return 1;
}

static int op_discard(void)
{
    int k = pick_view(1);
    if (k < 0)
        return 0;
    model_view *v = &W.views[k];
    note("discard_data of view %d (ds %d [%d, %d))", k, v->ds, v->off, v->off + v->len);
    OK(amp_array_view_discard_data(v->v));
    memset(W.ds[v->ds].def + v->off, 0, (size_t)v->len);
    return 1;
}

static int op_section(void)
{
    int slot = free_view_slot(), k = pick_view(0);
    if (slot < 0 || k < 0 || W.views[k].len <= N / 8)
        return 0;
    model_view *v = &W.views[k];
    int len = v->len >> (1 + pick(2));
    if (len < N / 8)
        len = N / 8;
    int off = pick(v->len - len + 1);
    note("section [%d, %d) of view %d (ds %d [%d, %d)) as view %d", off, off + len, k, v->ds,
         v->off, v->off + v->len, slot);
    amp_array_view *s;
    OK(amp_array_view_section(v->v, amp_index_1d(off), amp_extent_1d(len), &s));
    add_view(slot, s, v->ds, v->off + off, len);
    return 1;
}

/* A new view: of fresh host memory, of host memory another view wraps
 * (the two share its data), with no host memory, or of an array. */
static int op_new_view(void)
{
    int slot = free_view_slot();
    if (slot < 0)
        return 0;
    amp_array_view *v;
    int how = pick(4);
    if (how == 0) {
        int h = -1;
        for (int k = 0; k < MAX_HOST && h < 0; k++)
            if (W.host[k].ds < 0)
                h = k;
        int d = h >= 0 ? new_ds(DS_HOST, chance(70) ? N : N / 2) : -1;
        if (d < 0)
            return 0;
        random_values(W.host[h].p, W.ds[d].len);
        W.ds[d].host = h;
        W.host[h].ds = d;
        set_model(d, 0, W.host[h].p, W.ds[d].len);
        note("view %d of host memory %d (%s, ds %d, %d)", slot, h,
             W.host[h].locked ? "page-locked" : "malloc", d, W.ds[d].len);
        OK(amp_array_view_create(AMP_INT, amp_extent_1d(W.ds[d].len), W.host[h].p, &v));
        add_view(slot, v, d, 0, W.ds[d].len);
    } else if (how == 1) {
        int cand[MAX_DS], n = 0;
        for (int d = 0; d < MAX_DS; d++)
            if (W.ds[d].kind == DS_HOST && W.ds[d].views > 0)
                cand[n++] = d;
        if (n == 0)
            return 0;
        int d = cand[pick(n)];
        note("view %d of host memory %d again (ds %d)", slot, W.ds[d].host, d);
        OK(amp_array_view_create(AMP_INT, amp_extent_1d(W.ds[d].len), W.host[W.ds[d].host].p, &v));
        add_view(slot, v, d, 0, W.ds[d].len);
    } else if (how == 2) {
        int d = new_ds(DS_EXTENT, chance(50) ? N : N / 2);
        if (d < 0)
            return 0;
        note("view %d with no host memory (ds %d, %d)", slot, d, W.ds[d].len);
        OK(amp_array_view_create_extent(AMP_INT, amp_extent_1d(W.ds[d].len), &v));
        add_view(slot, v, d, 0, W.ds[d].len);
    } else {
        int cand[MAX_DS], n = 0;
        for (int d = 0; d < MAX_DS; d++)
            if (W.ds[d].kind == DS_ARRAY && W.ds[d].array)
                cand[n++] = d;
        if (n == 0)
            return 0;
        int d = cand[pick(n)];
        note("view %d of array %d (acc %d)", slot, d, W.ds[d].acc);
        OK(amp_array_view_create_from_array(W.ds[d].array, &v));
        add_view(slot, v, d, 0, W.ds[d].len);
    }
    return 1;
}

/* A view is released: the last one of host memory writes it back (or,
 * while a pending copy holds the data, the copy's end does). */
static int op_release_view(void)
{
    int live[MAX_VIEWS], n = 0;
    for (int k = 0; k < MAX_VIEWS; k++)
        if (W.views[k].v)
            live[n++] = k;
    if (n == 0)
        return 0;
    int k = live[pick(n)];
    model_view *v = &W.views[k];
    note("release view %d (ds %d [%d, %d), %d views, %d pending)", k, v->ds, v->off,
         v->off + v->len, W.ds[v->ds].views, W.ds[v->ds].holds);
    OK(amp_array_view_release(v->v));
    W.st.released_pending += W.ds[v->ds].holds > 0;
    remember_gone(GONE_VIEW, v->v);
    v->v = NULL;
    W.ds[v->ds].views--;
    W.st.releases++;
    maybe_gone(v->ds);
    return 1;
}

static void release_array(void)
{
    int cand[MAX_DS], n = 0;
    for (int d = 0; d < MAX_DS; d++)
        if (W.ds[d].kind == DS_ARRAY && W.ds[d].array)
            cand[n++] = d;
    int d = cand[pick(n)];
    note("release array %d (acc %d, %d views, %d pending)", d, W.ds[d].acc, W.ds[d].views,
         W.ds[d].holds);
    OK(amp_array_release(W.ds[d].array));
    W.st.released_pending += W.ds[d].holds > 0;
    remember_gone(GONE_ARRAY, W.ds[d].array);
    W.ds[d].array = NULL;
    W.st.releases++;
    maybe_gone(d);
}

/* A new array: from host memory, a view, another array, or uninitialised. */
static int make_array(void)
{
    int a = pick(W.navs), how = pick(4);
    end from;
    if (how >= 2 && !pick_end(&from, 0, -1, -1, -1))
        how = 0;
    int len = how >= 2 ? from.len : random_len();
    int d = new_ds(DS_ARRAY, len);
    if (d < 0)
        return 0;
    model_ds *m = &W.ds[d];
    m->acc = W.avs[a].acc;
    amp_array *arr = NULL;
    if (how == 0) {
        int32_t buf[N];
        random_values(buf, len);
        note("array %d from host data on av %d (acc %d, %d)", d, a, m->acc, len);
        OK(amp_array_create_from_host(AMP_INT, amp_extent_1d(len), buf, W.avs[a].av, &arr));
        set_model(d, 0, buf, len);
    } else if (how == 1) {
        note("array %d, uninitialised, on av %d (acc %d, %d)", d, a, m->acc, len);
        OK(amp_array_create(AMP_INT, amp_extent_1d(len), W.avs[a].av, &arr));
    } else {
        char b[80];
        note("array %d from %s on av %d (acc %d)", d, end_text(&from, b, sizeof b), a, m->acc);
        if (from.kind == END_VIEW)
            OK(amp_array_create_from_view(W.views[from.idx].v, W.avs[a].av, &arr));
        else
            OK(amp_array_create_from_array(W.ds[from.ds].array, W.avs[a].av, &arr));
        copy_model(d, 0, from.ds, from.off, len);
    }
    m->array = arr;
    return 1;
}

/* An array is made, or released while its views and pending work go on. */
static int op_array_cycle(void)
{
    int n = array_count();
    if (n > 0 && (n >= MAX_ARRAYS || chance(40))) {
        release_array();
        return 1;
    }
    return make_array();
}

/* Host memory written directly after a synchronize, then refreshed: the
 * host's values are the data's from then on, discarded ones included. */
static int op_refresh(void)
{
    int cand[MAX_VIEWS], n = 0;
    for (int k = 0; k < MAX_VIEWS; k++) {
        const model_view *v = &W.views[k];
        if (v->v && W.ds[v->ds].kind == DS_HOST && v->off == 0 && v->len == W.ds[v->ds].len &&
            W.ds[v->ds].reading == 0 && W.ds[v->ds].writing == 0)
            cand[n++] = k;
    }
    if (n == 0)
        return 0;
    int k = cand[pick(n)];
    model_view *v = &W.views[k];
    int32_t *h = W.host[W.ds[v->ds].host].p;
    note("synchronize view %d (ds %d), write host memory %d, refresh", k, v->ds, W.ds[v->ds].host);
    OK(amp_array_view_synchronize(v->v));
    check_ds("host memory after amp_array_view_synchronize", h, v->ds, 0, v->len);
    for (int j = 0, count = 1 + pick(32); j < count; j++)
        h[pick(v->len)] = (int32_t)rnd();
    OK(amp_array_view_refresh(v->v));
    set_model(v->ds, 0, h, v->len);
    W.st.host_accesses++;
    return 1;
}

static int op_synchronize_to(void)
{
    int k = pick_view(0);
    if (k < 0)
        return 0;
    int a = pick(W.navs);
    note("synchronize_to view %d (ds %d) on av %d (acc %d)", k, W.views[k].ds, a, W.avs[a].acc);
    OK(amp_array_view_synchronize_to(W.views[k].v, W.avs[a].av));
    return 1;
}

/* A released handle stays refused, whatever was made since. */
static int op_use_released(void)
{
    if (W.ngone == 0)
        return 0;
    int k = pick(W.ngone);
    int32_t buf[N];
    amp_status st;
    const char *call;
    if (W.gone[k].kind == GONE_VIEW) {
        call = "amp_array_view_synchronize";
        st = amp_array_view_synchronize(W.gone[k].handle);
    } else if (W.gone[k].kind == GONE_ARRAY) {
        call = "amp_copy from an array";
        st = amp_copy(amp_data_of(W.gone[k].handle), amp_data_of(buf));
    } else {
        call = "amp_texture_copy_to_host";
        st = amp_texture_copy_to_host(W.gone[k].handle, buf, sizeof buf);
    }
    note("%s of a released handle", call);
    if (st != AMP_ERROR_INVALID_ARGUMENT)
        fail_run("%s of a released handle returned %s, expected AMP_ERROR_INVALID_ARGUMENT: %s",
                 call, amp_status_name(st), amp_last_error());
    return 1;
}

typedef struct op {
    int (*fn)(void);
    int weight;
} op;

static const op ops[] = {
    {op_launch, 34},       {op_host_read, 9},         {op_host_write, 5}, {op_copy_sync, 6},
    {op_copy_async, 6},    {op_synchronize_async, 3}, {op_wait, 7},       {op_free_early, 1},
    {op_marker, 3},        {op_av_wait, 2},           {op_replace_av, 1}, {op_texture_refill, 6},
    {op_texture_cycle, 2}, {op_discard, 2},           {op_section, 4},    {op_new_view, 4},
    {op_release_view, 4},  {op_array_cycle, 3},       {op_refresh, 2},    {op_synchronize_to, 2},
    {op_use_released, 1},  {op_launch_again, 20},
};

static void one_step(void)
{
    int total = 0;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        total += ops[k].weight;
    for (;;) {
        int r = pick(total);
        size_t k = 0;
        while (r >= ops[k].weight)
            r -= ops[k++].weight;
        if (ops[k].fn())
            return;
    }
}

/* ---- A run ---- */

static unsigned long long env_number(const char *name, unsigned long long fallback)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return fallback;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end)
        fail_msg("%s=\"%s\" is not a number", name, s);
    return v;
}

static void start_run(const char *mode)
{
    memset(&W, 0, sizeof W);
    W.mode = mode;
    unsigned long long fallback = (unsigned long long)time(NULL) * 1000003ull ^ (unsigned)getpid();
    W.seed = env_number("AMP_PROPERTY_SEED", fallback % 1000000000ull);
    W.steps = (int)env_number("AMP_PROPERTY_STEPS",
                              RUNNING_ON_VALGRIND ? VALGRIND_STEPS : DEFAULT_STEPS);
    W.slow_loops = RUNNING_ON_VALGRIND ? VALGRIND_SLOW_LOOPS : SLOW_LOOPS;
    W.rng = (W.seed + 1) * 0x9e3779b97f4a7c15ull ^ (mode[0] == 'v' ? 0x1234567ull : 0x7654321ull);
    if (!W.rng)
        W.rng = 1;
    print_message("[ ordering ] %s run: AMP_PROPERTY_SEED=%llu AMP_PROPERTY_STEPS=%d\n", mode,
                  W.seed, W.steps);
}

/* Host buffers, data sources and textures to start from. */
static void populate(void)
{
    for (int h = 0; h < MAX_HOST; h++) {
        host_buf *b = &W.host[h];
        b->ds = -1;
        b->locked = h % 3 == 2;
        if (b->locked) {
            void *p;
            OK(amp_host_alloc(N * sizeof(int32_t), W.avs[h % W.navs].av, &p));
            b->p = p;
        } else {
            b->p = malloc(N * sizeof(int32_t));
            assert_non_null(b->p);
        }
    }
    for (int k = 0; k < 4; k++)
        while (!op_new_view())
            ;
    for (int k = 0; k < 2; k++)
        while (!make_array())
            ;
    for (int k = 0; k < 2; k++)
        make_texture(k);
}

/* Wait for everything, read everything back against the model, release
 * everything (the last views of host memory write it back). */
static void finish_run(void)
{
    W.step = W.steps;
    note("the end: wait for every pending operation, read everything, release everything");
    for (int k = 0; k < MAX_PENDING; k++)
        if (W.pend[k].c)
            finish(k);
    for (int k = 0; k < MAX_VIEWS; k++) {
        model_view *v = &W.views[k];
        if (!v->v)
            continue;
        const void *p;
        OK(amp_array_view_data_const(v->v, &p));
        check_ds("a view's data at the end", p, v->ds, v->off, v->len);
    }
    for (int d = 0; d < MAX_DS; d++) {
        if (W.ds[d].kind != DS_ARRAY || !W.ds[d].array)
            continue;
        int32_t buf[N];
        OK(amp_copy(amp_data_of(W.ds[d].array), amp_data_of(buf)));
        check_ds("an array copied to the host at the end", buf, d, 0, W.ds[d].len);
    }
    for (int k = 0; k < MAX_TEX; k++) {
        if (!W.tex[k].t)
            continue;
        int32_t buf[N];
        unsigned char def[N];
        memset(def, 1, sizeof def);
        OK(amp_texture_copy_to_host(W.tex[k].t, buf, (size_t)W.tex[k].len * sizeof(int32_t)));
        check_values("a texture at the end", buf, W.tex[k].val, def, W.tex[k].len);
        OK(amp_texture_release(W.tex[k].t));
        W.tex[k].t = NULL;
    }
    while (op_release_view())
        ;
    for (int d = 0; d < MAX_DS; d++) {
        if (W.ds[d].kind == DS_ARRAY && W.ds[d].array) {
            OK(amp_array_release(W.ds[d].array));
            W.ds[d].array = NULL;
            maybe_gone(d);
        }
    }
    for (int d = 0; d < MAX_DS; d++)
        if (W.ds[d].kind != DS_NONE)
            fail_run("data source %d (%s) is still alive at the end", d,
                     ds_kind_names[W.ds[d].kind]);
    for (int h = 0; h < MAX_HOST; h++) {
        if (W.host[h].locked)
            OK(amp_host_free(W.host[h].p));
        else
            free(W.host[h].p);
    }
    for (int a = 0; a < W.navs; a++)
        if (W.avs[a].created)
            OK(amp_accelerator_view_release(W.avs[a].av));
    const stats *s = &W.st;
    print_message("[ ordering ] %s run, seed %llu: %d steps: %d launches (%d refused, %d again),"
                  " %d copies, %d asynchronous copies, %d synchronizes, %d waits, %d markers, %d"
                  " texture copies, %d host accesses, %d releases (%d of data a pending operation"
                  " held); %lld elements compared\n",
                  W.mode, W.seed, W.steps, s->launches, s->refused, s->again, s->copies,
                  s->async_copies,
                  s->syncs, s->waits, s->markers, s->textures, s->host_accesses, s->releases,
                  s->released_pending, s->compared);
}

static void run(void)
{
    populate();
    for (W.step = 0; W.step < W.steps; W.step++)
        one_step();
    finish_run();
}

/* ---- The tests ---- */

static void views_of_one_accelerator_agree_with_the_model(void **state)
{
    (void)state;
    unsetenv("AMP_SPLIT_CPU");
    amp_shutdown();
    start_run("views");
    W.nacc = 1;
    OK(amp_accelerator_get_default(&W.acc[0]));
    add_av(0, 0);
    add_av(0, AMP_QUEUING_IMMEDIATE);
    add_av(0, AMP_QUEUING_IMMEDIATE);
    add_av(0, AMP_QUEUING_AUTOMATIC);
    add_av(0, AMP_QUEUING_AUTOMATIC);
    run();
}

static void two_accelerators_agree_with_the_model(void **state)
{
    (void)state;
    /* Read when the devices are listed: the next call after a shutdown
     * (or the process's first). */
    setenv("AMP_SPLIT_CPU", "2", 1);
    amp_shutdown();
    start_run("devices");
    size_t count = 0;
    amp_status st = amp_accelerator_count(&count);
    if (st == AMP_ERROR_UNSUPPORTED_FEATURE || st == AMP_ERROR_NO_DEVICE) {
        print_message("[  NOTE    ] no CPU device to split here: %s\n", amp_last_error());
        skip();
    }
    OK(st);
    for (size_t i = 0; i < count && W.nacc < 2; i++) {
        amp_accelerator *acc;
        amp_accelerator_info info;
        OK(amp_accelerator_get(i, &acc));
        OK(amp_accelerator_get_info(acc, &info));
        if (info.is_emulated && strrchr(info.device_path, '.'))
            W.acc[W.nacc++] = acc;
    }
    if (W.nacc < 2) {
        print_message("[  NOTE    ] no CPU device was split\n");
        skip();
    }
    for (int acc = 0; acc < 2; acc++) {
        add_av(acc, 0);
        add_av(acc, AMP_QUEUING_IMMEDIATE);
        add_av(acc, AMP_QUEUING_IMMEDIATE);
        add_av(acc, AMP_QUEUING_AUTOMATIC);
    }
    run();
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(views_of_one_accelerator_agree_with_the_model),
        cmocka_unit_test(two_accelerators_agree_with_the_model),
    };
    program = argv[0];
    if (argc > 1) {
        if (!strcmp(argv[1], "views"))
            cmocka_set_test_filter("views_of_one_accelerator_agree_with_the_model");
        else if (!strcmp(argv[1], "devices"))
            cmocka_set_test_filter("two_accelerators_agree_with_the_model");
        else {
            fprintf(stderr, "usage: %s [views|devices]\n", argv[0]);
            return 2;
        }
    }
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
