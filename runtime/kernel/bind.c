/*
 * runtime/kernel/bind.c - a compiled kernel made ready for one launch: its
 * work sizes, its arguments (and their memo in the kernel cache entry),
 * and the sink of a padded domain.
 */
#include "kernel/bind.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/elem.h"
#include "core/error.h"
#include "core/lock.h"
#include "data/coherence.h"
#include "data/texture.h"
#include "data/view.h"
#include "device/ending.h"

/* ---- Work sizes ---- */

static size_t round_up(size_t n, size_t m)
{
    return (n + m - 1) / m * m;
}

static size_t pow2_at_least(size_t n)
{
    size_t p = 1;
    while (p < n)
        p *= 2;
    return p;
}

/* A part of the domain, rows part_lo .. part_hi - 1 of dimension 0 (whole
 * tiles of a tiled domain): the same work-groups, fewer of them, from a
 * global offset. Dimension 0 is OpenCL's last; of a rank over 3, it is
 * counted in OpenCL's dimension 2 with the others but the last two. */
static void run_part(const kb_domain *dom, kb_launch *l)
{
    int rank = dom->extent.rank;
    int cl_dim = rank < 3 ? rank - 1 : 2;
    size_t inner = 1; /* of OpenCL's dimension 2, per row of dimension 0 */
    for (int d = 1; d + 2 < rank; d++)
        inner *= (size_t)dom->extent.dims[d];
    size_t rows = (size_t)(dom->part_hi - dom->part_lo);
    l->run.offset[cl_dim] = (size_t)dom->part_lo * inner;
    l->run.global[cl_dim] = dom->tiled ? rows : round_up(rows * inner, l->run.local[cl_dim]);
}

/* Work sizes in OpenCL's order (dimension 0 is C++ AMP's last). */
static amp_status work_sizes(const amp_kernel_source *k, const kb_domain *dom, const kc_entry *e,
                             const amp_accelerator *acc, kb_launch *l)
{
    int rank = dom->extent.rank;
    size_t *global = l->run.global, *local = l->run.local;
    for (int d = 0; d < 3; d++) {
        global[d] = local[d] = 1;
        l->run.offset[d] = 0;
    }
    l->run.dims = (cl_uint)(rank < 3 ? rank : 3);
    if (dom->tiled) {
        for (int d = 0; d < rank; d++) {
            global[rank - 1 - d] = (size_t)dom->extent.dims[d];
            local[rank - 1 - d] = (size_t)dom->tile[d];
        }
    } else {
        /* 256 threads, long along the contiguous (last C++ AMP) dimension:
         * a GPU reads 32 neighbours at once, and PoCL vectorizes along
         * dimension 0. A 16 x 16 group made a 2D copy run at half the
         * speed of a 1D one on PoCL (docs/performance.md). */
        static const size_t shape[3][3] = {{256, 1, 1}, {32, 8, 1}, {32, 4, 2}};
        size_t limit = e->max_work_group < acc->max_work_group ? e->max_work_group
                                                               : acc->max_work_group;
        /* A rank over 3 runs as three dimensions: its last two, and the
         * others counted together (codegen.c's flattened_index). */
        size_t dims[3];
        int n_dims = rank <= 3 ? rank : 3;
        for (int d = 0; d < n_dims; d++)
            dims[d] = (size_t)dom->extent.dims[rank - 1 - d];
        if (rank > 3) {
            long double outer = 1;
            for (int d = 0; d + 2 < rank; d++)
                outer *= dom->extent.dims[d];
            if (outer > (long double)SIZE_MAX / 2)
                return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, k->file, k->line,
                                       "%.0Lf threads are more than %s can index.", outer,
                                       acc->name);
            dims[2] = (size_t)outer;
        }
        rank = n_dims;
        for (int d = 0; d < rank; d++) {
            size_t n = dims[d];
            size_t g = shape[rank - 1][d];
            if (g > pow2_at_least(n))
                g = pow2_at_least(n);
            if (g > acc->max_work_item[d])
                g = acc->max_work_item[d];
            local[d] = g;
        }
        /* Halve the largest side until the group fits the kernel. */
        while (local[0] * local[1] * local[2] > limit) {
            int big = local[1] > local[0] ? 1 : 0;
            if (local[2] > local[big])
                big = 2;
            local[big] /= 2;
        }
        for (int d = 0; d < rank; d++)
            global[d] = round_up(dims[d], local[d]);
    }
    if (dom->part_hi > dom->part_lo)
        run_part(dom, l);
    /* The device indexes work-items with address_bits-wide sizes; each
     * dimension fits, but their product may not (three dimensions near
     * 2^31 make 2^93), and a device given more would run part of it. */
    long double total = (long double)global[0] * global[1] * global[2];
    long double limit = acc->address_bits < 64 ? (long double)(1ull << acc->address_bits)
                                               : 18446744073709551616.0L; /* 2^64 */
    if (total >= limit)
        return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, k->file, k->line,
                               "%.0Lf threads are more than %s can index (%u-bit addresses).",
                               total, acc->name, acc->address_bits);
    /* Implementations count work-groups in 32 bits: PoCL's CPU devices
     * divide by zero past 2^32 of them, after the launch was queued. */
    long double groups = (long double)(global[0] / local[0]) * (long double)(global[1] / local[1]) *
                         (long double)(global[2] / local[2]);
    if (groups >= 4294967296.0L)
        return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, k->file, k->line,
                               "%.0Lf threads make %.0Lf groups of threads, and devices count at"
                               " most 2^32 - 1 groups. Launch over sections of the extent, one"
                               " after another, or tile it in larger tiles.",
                               total, groups);
    return AMP_OK;
}

/* A hash of the work sizes of l, never 0. */
static uint64_t sizes_hash(const queue_kernel *run)
{
    uint64_t h = 1469598103934665603ull ^ run->dims; /* FNV-1a */
    for (int d = 0; d < 3; d++) {
        h = (h ^ run->global[d]) * 1099511628211ull;
        h = (h ^ run->local[d]) * 1099511628211ull;
    }
    return h ? h : 1;
}

/* Remember the work sizes of this launch in its entry (newest first).
 * Once the process has begun to exit, only sizes it remembers run: the
 * implementation may build the kernel again for others (kcache.h). */
static amp_status remember_sizes(const amp_kernel_source *k, kc_entry *e,
                                 const amp_accelerator *acc, const queue_kernel *run)
{
    uint64_t h = sizes_hash(run);
    int at = 0;
    while (at < LIMIT_LAUNCH_SIZES - 1 && e->sizes[at] != h)
        at++;
    if (e->sizes[at] != h && amp__end_begun()) {
        char what[300];
        snprintf(what, sizeof what,
                 "The kernel at %s:%d has not run at these work sizes (%zu x %zu x %zu in"
                 " groups of %zu x %zu x %zu) on %s",
                 k->file, k->line, run->global[0], run->global[1], run->global[2], run->local[0],
                 run->local[1], run->local[2], acc->name);
        return amp__end_refused(what, "an OpenCL implementation may build a kernel again for"
                                      " new work sizes (PoCL does), and its compiler's exit"
                                      " handlers may have run");
    }
    memmove(&e->sizes[1], &e->sizes[0], (size_t)at * sizeof e->sizes[0]);
    e->sizes[0] = h;
    return AMP_OK;
}

amp_status amp__kb_plan(const cg_spec *spec, const kb_domain *d, amp_accelerator *acc,
                        kb_launch *out)
{
    const amp_kernel_source *k = spec->source;
    kc_entry *e = NULL;
    amp_status st = amp__kc_get(spec, acc, &e);
    if (st != AMP_OK)
        return st;
    if (d->tiled) {
        size_t threads = 1;
        for (int i = 0; i < d->extent.rank; i++)
            threads *= (size_t)d->tile[i];
        if (threads > e->max_work_group)
            return amp__err_launch(AMP_ERROR_DEVICE_LIMIT, k->file, k->line,
                                   "kernel %s can run at most %zu threads per tile on %s"
                                   " (CL_KERNEL_WORK_GROUP_SIZE), and the tile has %zu. Use a"
                                   " smaller tile.",
                                   e->name, e->max_work_group, acc->name, threads);
    }
    if (e->local_mem > acc->local_mem)
        return amp__err_launch(AMP_ERROR_DEVICE_LIMIT, k->file, k->line,
                               "kernel %s needs %llu bytes of tile_static memory, and %s has %llu"
                               " per tile. Use smaller tile_static arrays.",
                               e->name, (unsigned long long)e->local_mem, acc->name,
                               (unsigned long long)acc->local_mem);
    out->entry = e;
    out->run.kernel = e->kernel;
    out->run.name = e->name;
    out->run.site = k;
    out->wide = spec->wide;
    out->checked = spec->checked;
    st = work_sizes(k, d, e, acc, out);
    return st == AMP_OK ? remember_sizes(k, e, acc, &out->run) : st;
}

/* ---- Arguments ---- */

/* Forget the remembered arguments if a memory object was made since they
 * were remembered: it may have the handle of one released before, which a
 * remembered argument would take for unchanged. */
static void forget_if_made(kc_entry *e)
{
    if (e->args_epoch != amp__clapi_mems_made()) {
        memset(e->args, 0, sizeof e->args);
        e->args_epoch = amp__clapi_mems_made();
    }
}

/* Set argument *index (then the next one), unless it already holds this
 * value; report a failure with its name. */
static amp_status set_arg(kc_entry *e, cl_uint *index, size_t size, const void *value,
                          const char *what)
{
    cl_uint i = (*index)++;
    kc_arg *last = i < LIMIT_ARGUMENT_MEMO && size <= sizeof last->bytes ? &e->args[i] : NULL;
    if (last && last->size == size && memcmp(last->bytes, value, size) == 0)
        return AMP_OK;
    e->args_set++;
    cl_int rc = amp__clapi.SetKernelArg(e->kernel, i, size, value);
    if (rc != CL_SUCCESS) {
        if (last)
            last->size = 0;
        char buf[160];
        snprintf(buf, sizeof buf, "Passing '%s' to kernel %s", what, e->name);
        return amp__err_cl(rc, "clSetKernelArg", buf);
    }
    if (last) {
        last->size = (unsigned char)size;
        memcpy(last->bytes, value, size);
    }
    return AMP_OK;
}

/* A padded domain's sink: where an access outside a view lands, one small
 * buffer per accelerator, grown to the largest element it has served. Its
 * content is garbage by design; it is never read back. */
typedef struct sink {
    amp_accelerator *acc;
    cl_mem mem;
    size_t bytes;
    struct sink *next;
} sink;
static sink *sinks;

static amp_status sink_for(amp_accelerator *acc, const amp_capture_list *captures, cl_mem *out)
{
    size_t bytes = 16;
    for (int i = 0; i < captures->count; i++) {
        const amp_capture *cap = &captures->items[i];
        if (cap->kind == AMP_CAPTURE_VIEW && amp_elem_type_size(cap->value.view->type) > bytes)
            bytes = amp_elem_type_size(cap->value.view->type);
    }
    sink *s = sinks;
    while (s && s->acc != acc)
        s = s->next;
    if (s && s->bytes >= bytes) {
        *out = s->mem;
        return AMP_OK;
    }
    cl_int rc = CL_SUCCESS;
    cl_mem mem = amp__clapi.CreateBuffer(acc->context, CL_MEM_READ_WRITE, bytes, NULL, &rc);
    if (!mem)
        return amp__err_cl(rc, "clCreateBuffer", "Allocating the sink of a padded domain");
    if (!s && !(s = calloc(1, sizeof *s))) {
        amp__clapi.ReleaseMemObject(mem);
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory running a kernel.");
    }
    if (s->mem) {
        amp__clapi.ReleaseMemObject(s->mem);
    } else {
        s->acc = acc;
        s->next = sinks;
        sinks = s;
    }
    s->mem = mem;
    s->bytes = bytes;
    *out = mem;
    return AMP_OK;
}

/* ---- The launch's values ---- */

/* The bytes of a launch's numbers (translate.h's amp_launch_values), laid
 * out by the kernel's entry (values_start): each field goes to the next
 * place of its size's part, in the order of the captures. */
typedef struct launch_values {
    size_t at[TR_VALUE_SIZES]; /* where the next field of each size goes */
    const size_t *start;       /* the entry's: each part's start, and the end */
    int misplaced;             /* a field past its part's end */
    unsigned char bytes[LIMIT_LAUNCH_VALUES];
} launch_values;

static void put(launch_values *v, const void *value, size_t size)
{
    int c = amp__translate_value_class(size);
    if (v->at[c] + size > v->start[c + 1]) {
        v->misplaced = 1;
        return;
    }
    memcpy(v->bytes + v->at[c], value, size);
    v->at[c] += size;
}

/* An offset or stride, in the width the kernel was compiled for. */
static void put_off(launch_values *v, int wide, int64_t value)
{
    if (wide) {
        cl_long w = value;
        put(v, &w, sizeof w);
    } else {
        cl_int n = (cl_int)value;
        put(v, &n, sizeof n);
    }
}

static void put_int(launch_values *v, int value)
{
    cl_int n = value;
    put(v, &n, sizeof n);
}

/* Capture cap's fields, in translate.c's order (value_field_lines). */
static void put_capture(launch_values *v, const kb_launch *l, const amp_capture *cap)
{
    if (cap->kind == AMP_CAPTURE_VIEW) {
        const amp_array_view *view = cap->value.view;
        put_off(v, l->wide, view->offset);
        /* AMP_CHECK: the element past the data source's end, from which an
         * access outside the view is sent out of the buffer. */
        if (l->checked)
            put_off(v, l->wide,
                    (int64_t)(amp__coh_source_bytes(view->src) / amp_elem_type_size(view->type)) -
                        view->offset);
        for (int k = 0; k + 1 < view->extent.rank; k++)
            put_off(v, l->wide, view->strides[k]);
        for (int k = 0; k < view->extent.rank; k++)
            put_int(v, view->extent.dims[k]);
    } else if (cap->kind == AMP_CAPTURE_TEXTURE) {
        const amp_texture *t = cap->value.texture;
        for (int k = 0; k < t->d->extent.rank; k++)
            put_int(v, t->d->extent.dims[k]);
    } else if (cap->kind == AMP_CAPTURE_INDEX || cap->kind == AMP_CAPTURE_EXTENT) {
        /* An int, or an int vector of 2, 3 (in 4), 4 or 8 lanes. */
        cl_int lanes[8] = {0};
        int rank = cap->value.extent.rank;
        for (int k = 0; k < rank; k++)
            lanes[k] = cap->value.extent.dims[k];
        put(v, lanes, amp__translate_index_bytes(rank));
    } else if (cap->kind == AMP_CAPTURE_SCALAR && amp__elem_is_vector(cap->type)) {
        /* A short vector: OpenCL's, whose 3-vector holds four values. */
        double lanes[4] = {0};
        size_t size = amp_elem_type_size(cap->type);
        memcpy(lanes, cap->value.vector, size);
        if (amp__elem_lanes(cap->type) == 3)
            size = 4 * amp__elem_scalar_size(cap->type);
        put(v, lanes, size);
    } else if (cap->kind == AMP_CAPTURE_SCALAR) {
        const void *value = cap->type == AMP_INT     ? (const void *)&cap->value.i
                            : cap->type == AMP_UINT  ? (const void *)&cap->value.u
                            : cap->type == AMP_FLOAT ? (const void *)&cap->value.f
                                                     : (const void *)&cap->value.d;
        put(v, value, amp_elem_type_size(cap->type));
    }
}

/* The domain's extent, where the kernel takes it (untiled, or padded). */
static void put_domain(launch_values *v, const kb_domain *d)
{
    for (int k = 0; k < d->extent.rank; k++) {
        int dim = d->guarded ? d->original.dims[k] : d->extent.dims[k];
        /* A part's threads past its rows, there to fill a work-group,
         * return as those past the extent do: they are another part's. */
        if (k == 0 && !d->tiled && d->part_hi > d->part_lo)
            dim = d->part_hi;
        put_int(v, dim);
    }
}

/* Fill the launch's values for captures and d, and set argument *index
 * (then the next one) to them, unless it holds them already; nothing for
 * a kernel that takes none. */
static amp_status set_values(const kb_launch *l, const kb_domain *d,
                             const amp_capture_list *captures, cl_uint *index)
{
    kc_entry *e = l->entry;
    /* Built where the lock keeps it: 4 KiB is more than a launch should
     * take from a caller's stack. */
    static launch_values v;
    LOCK_ASSERT_HELD();
    if (e->values_bytes > sizeof v.bytes)
        return amp__err_set(AMP_ERROR_DEVICE_LIMIT,
                            "Kernel %s takes %zu bytes of offsets, extents and scalars, more than"
                            " %d. Capture fewer views or values.",
                            e->name, e->values_bytes, LIMIT_LAUNCH_VALUES);
    v.start = e->values_start;
    memcpy(v.at, e->values_start, sizeof v.at);
    v.misplaced = 0;
    for (int i = 0; i < captures->count; i++)
        put_capture(&v, l, &captures->items[i]);
    if (!d->tiled || d->guarded)
        put_domain(&v, d);
    /* Every part filled to its end and no further, or a field would lie
     * where the kernel reads another. */
    for (int c = 0; c < TR_VALUE_SIZES; c++)
        v.misplaced |= v.at[c] != e->values_start[c + 1];
    if (v.misplaced)
        return amp__err_set(AMP_ERROR_INVALID_OPERATION,
                            "Kernel %s's offsets, extents and scalars do not fill the %zu bytes"
                            " its source declares: the library's two layouts of them disagree,"
                            " and the kernel is not run. Please report it.",
                            e->name, e->values_bytes);
    if (e->values_bytes == 0)
        return AMP_OK;
    size_t end = e->values_start[TR_VALUE_SIZES];
    memset(v.bytes + end, 0, e->values_bytes - end);
    cl_uint i = (*index)++;
    if (e->values_size == e->values_bytes && memcmp(e->values, v.bytes, e->values_bytes) == 0)
        return AMP_OK;
    e->args_set++;
    e->values_size = 0;
    cl_int rc = amp__clapi.SetKernelArg(e->kernel, i, e->values_bytes, v.bytes);
    if (rc != CL_SUCCESS) {
        char buf[160];
        snprintf(buf, sizeof buf,
                 "Passing the offsets, extents and scalars (%zu bytes) to kernel %s",
                 e->values_bytes, e->name);
        return amp__err_cl(rc, "clSetKernelArg", buf);
    }
    memcpy(e->values, v.bytes, e->values_bytes);
    e->values_size = e->values_bytes;
    return AMP_OK;
}

amp_status amp__kb_bind(const kb_launch *l, const kb_domain *d, const amp_capture_list *captures,
                        const cl_mem *mems, amp_accelerator *acc, cl_uint *nargs)
{
    kc_entry *e = l->entry;
    cl_uint arg = 0;
    cl_mem sink = NULL;
    /* The sink may be a new buffer: made before the memo is checked. */
    amp_status st = d->guarded ? sink_for(acc, captures, &sink) : AMP_OK;
    forget_if_made(e);
    for (int i = 0; i < captures->count && st == AMP_OK; i++) {
        const amp_capture *cap = &captures->items[i];
        /* A texture's image is its one copy: nothing moves for a kernel.
         * mems[i] is the image the kernel was ordered on. */
        if (cap->kind == AMP_CAPTURE_VIEW || cap->kind == AMP_CAPTURE_TEXTURE)
            st = set_arg(e, &arg, sizeof mems[i], &mems[i], cap->name);
        else if (cap->kind == AMP_CAPTURE_STRUCT)
            /* A struct's bytes, laid out as OpenCL C lays it out
             * (amp_struct_register checked it). */
            st = set_arg(e, &arg, cap->value.object.size, cap->value.object.data, cap->name);
    }
    if (st == AMP_OK)
        st = set_values(l, d, captures, &arg);
    if (d->guarded && st == AMP_OK)
        st = set_arg(e, &arg, sizeof sink, &sink, "the sink of a padded domain");
    *nargs = arg;
    return st;
}

amp_status amp__kb_set_arg(kc_entry *e, cl_uint index, size_t size, const void *value,
                           const char *what)
{
    forget_if_made(e);
    return set_arg(e, &index, size, value, what);
}

void amp__kb_shutdown(void)
{
    LOCK_ASSERT_HELD();
    while (sinks) {
        sink *s = sinks;
        sinks = s->next;
        amp__clapi.ReleaseMemObject(s->mem);
        free(s);
    }
}
