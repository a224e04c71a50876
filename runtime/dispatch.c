/*
 * runtime/dispatch.c - parallel_for_each: validate the call, find its
 * kernel, make the captured data current on the device, bind and enqueue.
 *
 * Data flows one way: dispatch -> kernel cache -> data coherence -> enqueue.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "accel.h"
#include "amp/kernel.h"
#include "checkrun.h"
#include "codegen.h"
#include "coherence.h"
#include "error.h"
#include "oclcheck.h"
#include "kcache.h"
#include "runtime.h"
#include "view.h"

/* One call, as the runtime sees it. */
typedef struct call {
    const amp_kernel_source *kernel;
    amp_extent extent;
    int tiled;
    int tile[AMP_MAX_RANK];
    amp_capture_list captures;
    amp_accelerator_view *av;
    int guarded;         /* a padded tiled domain */
    amp_extent original; /* its extent before padding */
} call;

static void extent_text(char *buf, size_t size, const int *dims, int rank)
{
    int n = 0;
    buf[0] = '\0';
    for (int d = 0; d < rank && n >= 0 && (size_t)n < size; d++)
        n += snprintf(buf + n, size - (size_t)n, "%s%d", d ? "x" : "", dims[d]);
}

static amp_status check_domain(const call *c)
{
    const amp_extent *e = &c->extent;
    if (e->rank < 1 || e->rank > AMP_MAX_RANK)
        return err_set(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                       "parallel_for_each at %s:%d: the extent has rank %d; it must be 1, 2 or 3.",
                       c->kernel->file, c->kernel->line, e->rank);
    for (int d = 0; d < e->rank; d++)
        if (e->dims[d] <= 0)
            return err_set(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                           "parallel_for_each at %s:%d: dimension %d of the extent is %d; every"
                           " dimension must be > 0.",
                           c->kernel->file, c->kernel->line, d, e->dims[d]);
    if (!c->tiled)
        return AMP_OK;
    if (c->guarded) {
        if (c->original.rank != e->rank)
            return err_set(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                           "parallel_for_each at %s:%d: the padded extent has rank %d and its"
                           " original extent rank %d.",
                           c->kernel->file, c->kernel->line, e->rank, c->original.rank);
        for (int d = 0; d < e->rank; d++)
            if (c->original.dims[d] <= 0 || c->original.dims[d] > e->dims[d])
                return err_set(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                               "parallel_for_each at %s:%d: dimension %d of the original extent is"
                               " %d; it must be > 0 and at most the padded %d.",
                               c->kernel->file, c->kernel->line, d, c->original.dims[d],
                               e->dims[d]);
    }
    char ext[48], tile[48];
    extent_text(ext, sizeof ext, e->dims, e->rank);
    extent_text(tile, sizeof tile, c->tile, e->rank);
    for (int d = 0; d < e->rank; d++) {
        if (c->tile[d] <= 0)
            return err_set(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                           "parallel_for_each at %s:%d: dimension %d of the tile %s is %d; every"
                           " tile dimension must be > 0.",
                           c->kernel->file, c->kernel->line, d, tile, c->tile[d]);
        if (e->dims[d] % c->tile[d] != 0)
            return err_set(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                           "parallel_for_each at %s:%d: the extent %s is not divisible by the tile"
                           " %s: dimension %d has %d elements, which is not a multiple of %d."
                           " Make the extent a multiple of the tile, or choose a tile that"
                           " divides it.",
                           c->kernel->file, c->kernel->line, ext, tile, d, e->dims[d],
                           c->tile[d]);
    }
    return AMP_OK;
}

/* The tile must fit the device: threads per tile and per dimension. */
static amp_status check_tile_limits(const call *c, const amp_accelerator *acc)
{
    char tile[48];
    extent_text(tile, sizeof tile, c->tile, c->extent.rank);
    size_t threads = 1;
    for (int d = 0; d < c->extent.rank; d++)
        threads *= (size_t)c->tile[d];
    if (threads > acc->max_work_group)
        return err_set(AMP_ERROR_DEVICE_LIMIT,
                       "parallel_for_each at %s:%d: the tile %s has %zu threads, more than the %zu"
                       " that %s runs in one tile (CL_DEVICE_MAX_WORK_GROUP_SIZE). Use a smaller"
                       " tile.",
                       c->kernel->file, c->kernel->line, tile, threads, acc->max_work_group,
                       acc->name);
    for (int d = 0; d < c->extent.rank; d++) {
        size_t limit = acc->max_work_item[c->extent.rank - 1 - d];
        if ((size_t)c->tile[d] > limit)
            return err_set(AMP_ERROR_DEVICE_LIMIT,
                           "parallel_for_each at %s:%d: dimension %d of the tile %s is %d, more"
                           " than the %zu that %s allows there (CL_DEVICE_MAX_WORK_ITEM_SIZES).",
                           c->kernel->file, c->kernel->line, d, tile, c->tile[d], limit,
                           acc->name);
    }
    return AMP_OK;
}

/* Check every capture and describe it in the spec. */
static amp_status build_spec(const call *c, const amp_accelerator *acc, cg_spec *spec)
{
    const amp_kernel_source *k = c->kernel;
    if (c->captures.count < 0 || c->captures.count > AMP_MAX_CAPTURES ||
        (c->captures.count > 0 && !c->captures.items))
        return err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "parallel_for_each at %s:%d: %d captures; a kernel takes 0 to %d.", k->file,
                       k->line, c->captures.count, AMP_MAX_CAPTURES);
    memset(spec, 0, sizeof *spec);
    spec->source = k;
    spec->rank = c->extent.rank;
    spec->tiled = c->tiled;
    spec->guarded = c->guarded;
    for (int d = 0; d < AMP_MAX_RANK; d++)
        spec->tile[d] = c->tiled && d < c->extent.rank ? c->tile[d] : 0;
    spec->fp64 = acc->fp64;
    spec->ncaptures = c->captures.count;
    spec->wide = amp_extent_size(c->extent) > INT_MAX;

    for (int i = 0; i < c->captures.count; i++) {
        const amp_capture *cap = &c->captures.items[i];
        cg_capture *g = &spec->captures[i];
        const char *name = cap->name ? cap->name : "(null)";
        if (cap->kind == AMP_CAPTURE_INVALID)
            return err_set(AMP_ERROR_INVALID_ARGUMENT,
                           "parallel_for_each at %s:%d: capture '%s' has a type kernels cannot"
                           " take. Capture an amp_array_view *, an int, unsigned, float or double,"
                           " or AMP_CONST(NAME) for a compile-time integer.",
                           k->file, k->line, name);
        /* Names are checked where the kernel is generated (cg_generate): the
         * cache key holds their addresses, so a hit was checked before. */
        g->name = cap->name;
        g->kind = cap->kind;
        if (cap->kind == AMP_CAPTURE_VIEW) {
            const amp_array_view *v = cap->value.view;
            if (!v || !view_is_live(v))
                return err_set(AMP_ERROR_INVALID_ARGUMENT,
                               "parallel_for_each at %s:%d: view '%s' is %s.", k->file, k->line,
                               name, v ? "released (or was never created)" : "NULL");
            amp_accelerator *home = coh_source_home(v->src);
            if (v->array && home && home != acc)
                return err_set(AMP_ERROR_INVALID_OPERATION,
                               "parallel_for_each at %s:%d: array '%s' lives on %s, and this"
                               " kernel runs on %s. Copy it there (amp_copy into an array on"
                               " that accelerator view), or capture a view of it.",
                               k->file, k->line, name, home->name, acc->name);
            g->type = v->type;
            g->rank = v->extent.rank;
            g->is_const = v->is_const;
            if (coh_source_bytes(v->src) / amp_elem_size(v->type) > INT_MAX)
                spec->wide = 1;
        } else if (cap->kind == AMP_CAPTURE_SCALAR) {
            if (amp_elem_size(cap->type) == 0)
                return err_set(AMP_ERROR_INVALID_ARGUMENT,
                               "parallel_for_each at %s:%d: capture '%s' has element type %d,"
                               " which is not one of AMP_INT, AMP_UINT, AMP_FLOAT, AMP_DOUBLE.",
                               k->file, k->line, name, (int)cap->type);
            g->type = cap->type;
        } else if (cap->kind == AMP_CAPTURE_CONSTANT) {
            g->constant = cap->value.constant;
        } else if (cap->kind == AMP_CAPTURE_FUNCTION) {
            if (!cap->value.function_source)
                return err_set(AMP_ERROR_INVALID_ARGUMENT,
                               "parallel_for_each at %s:%d: function '%s' has no source.", k->file,
                               k->line, name);
            g->function_source = cap->value.function_source;
            g->constant = (long long)(uintptr_t)cap->value.function_source;
        } else {
            return err_set(AMP_ERROR_INVALID_ARGUMENT,
                           "parallel_for_each at %s:%d: capture '%s' has an unknown kind %d.",
                           k->file, k->line, name, (int)cap->kind);
        }
        if (g->type == AMP_DOUBLE && !acc->fp64)
            return err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                           "parallel_for_each at %s:%d: '%s' is double, and %s has no double"
                           " precision. Use float, or another accelerator.",
                           k->file, k->line, name, acc->name);
    }
    return AMP_OK;
}

/* Set one kernel argument; report a failure with its name. */
static amp_status set_arg(const kc_entry *e, cl_uint *index, size_t size, const void *value,
                          const char *what)
{
    cl_int rc = clapi.SetKernelArg(e->kernel, (*index)++, size, value);
    if (rc != CL_SUCCESS) {
        char buf[160];
        snprintf(buf, sizeof buf, "Passing '%s' to kernel %s", what, e->name);
        return err_cl(rc, "clSetKernelArg", buf);
    }
    return AMP_OK;
}

/* An offset or stride, in the width the kernel was compiled for. */
static amp_status set_off_arg(const kc_entry *e, cl_uint *index, int wide, int64_t value,
                              const char *what)
{
    if (wide) {
        cl_long v = value;
        return set_arg(e, index, sizeof v, &v, what);
    }
    cl_int v = (cl_int)value;
    return set_arg(e, index, sizeof v, &v, what);
}

static amp_status bind_and_ready(const call *c, const cg_spec *spec, const kc_entry *e)
{
    cl_uint arg = 0;
    amp_status st = AMP_OK;
    for (int i = 0; i < c->captures.count && st == AMP_OK; i++) {
        const amp_capture *cap = &c->captures.items[i];
        if (cap->kind == AMP_CAPTURE_VIEW) {
            amp_array_view *v = cap->value.view;
            cl_mem mem = NULL;
            rg_box box = view_box(v);
            st = coh_device_ready(v->src, c->av, &box, cap->name, &mem);
            if (st == AMP_OK)
                st = set_arg(e, &arg, sizeof mem, &mem, cap->name);
            if (st == AMP_OK)
                st = set_off_arg(e, &arg, spec->wide, v->offset, cap->name);
            /* The spare element is the one past the data source's end. */
            if (st == AMP_OK && spec->guarded)
                st = set_off_arg(e, &arg, spec->wide,
                                 (int64_t)(coh_source_bytes(v->src) / amp_elem_size(v->type)) -
                                     v->offset,
                                 cap->name);
            for (int d = 0; d + 1 < v->extent.rank && st == AMP_OK; d++)
                st = set_off_arg(e, &arg, spec->wide, v->strides[d], cap->name);
            for (int d = 0; d < v->extent.rank && st == AMP_OK; d++) {
                cl_int dim = v->extent.dims[d];
                st = set_arg(e, &arg, sizeof dim, &dim, cap->name);
            }
        } else if (cap->kind == AMP_CAPTURE_SCALAR) {
            size_t size = amp_elem_size(cap->type);
            const void *value = cap->type == AMP_INT      ? (const void *)&cap->value.i
                                : cap->type == AMP_UINT   ? (const void *)&cap->value.u
                                : cap->type == AMP_FLOAT  ? (const void *)&cap->value.f
                                                          : (const void *)&cap->value.d;
            st = set_arg(e, &arg, size, value, cap->name);
        }
    }
    if (!c->tiled || c->guarded)
        for (int d = 0; d < c->extent.rank && st == AMP_OK; d++) {
            cl_int dim = c->guarded ? c->original.dims[d] : c->extent.dims[d];
            st = set_arg(e, &arg, sizeof dim, &dim, "the extent");
        }
    return st;
}

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

/* Work sizes in OpenCL's order (dimension 0 is C++ AMP's last). Untiled
 * domains get a work-group shape chosen here, and a global size rounded up
 * to it; the kernel's guard skips the extra threads. */
static amp_status work_sizes(const call *c, const kc_entry *e, const amp_accelerator *acc,
                             size_t global[3], size_t local[3])
{
    int rank = c->extent.rank;
    for (int d = 0; d < 3; d++)
        global[d] = local[d] = 1;
    if (c->tiled) {
        for (int d = 0; d < rank; d++) {
            global[rank - 1 - d] = (size_t)c->extent.dims[d];
            local[rank - 1 - d] = (size_t)c->tile[d];
        }
    } else {
        static const size_t shape[3][3] = {{256, 1, 1}, {16, 16, 1}, {16, 4, 4}};
        size_t limit = e->max_work_group < acc->max_work_group ? e->max_work_group
                                                               : acc->max_work_group;
        for (int d = 0; d < rank; d++) {
            size_t n = (size_t)c->extent.dims[rank - 1 - d];
            size_t l = shape[rank - 1][d];
            if (l > pow2_at_least(n))
                l = pow2_at_least(n);
            if (l > acc->max_work_item[d])
                l = acc->max_work_item[d];
            local[d] = l;
        }
        /* Halve the largest side until the group fits the kernel. */
        while (local[0] * local[1] * local[2] > limit) {
            int big = local[1] > local[0] ? 1 : 0;
            if (local[2] > local[big])
                big = 2;
            local[big] /= 2;
        }
        for (int d = 0; d < rank; d++)
            global[d] = round_up((size_t)c->extent.dims[rank - 1 - d], local[d]);
    }
    /* The device indexes work-items with address_bits-wide sizes; each
     * dimension fits, but their product may not (three dimensions near
     * 2^31 make 2^93), and a device given more would run part of it. */
    long double total = (long double)global[0] * global[1] * global[2];
    long double limit = acc->address_bits < 64 ? (long double)(1ull << acc->address_bits)
                                               : 18446744073709551616.0L; /* 2^64 */
    if (total >= limit)
        return err_set(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                       "parallel_for_each at %s:%d: %.0Lf threads are more than %s can index"
                       " (%u-bit addresses).",
                       c->kernel->file, c->kernel->line, total, acc->name, acc->address_bits);
    return AMP_OK;
}

static amp_status run(call *c)
{
    amp_status st = acc_resolve_view(c->av, &c->av);
    if (st != AMP_OK)
        return st;
    amp_accelerator *acc = c->av->acc;
    st = check_domain(c);
    if (st == AMP_OK && c->tiled)
        st = check_tile_limits(c, acc);
    cg_spec spec;
    if (st == AMP_OK)
        st = build_spec(c, acc, &spec);
    kc_entry *e = NULL;
    if (st == AMP_OK)
        st = kc_get(&spec, acc, &e);
    if (st != AMP_OK)
        return st;

    if (c->tiled) {
        size_t threads = 1;
        for (int d = 0; d < c->extent.rank; d++)
            threads *= (size_t)c->tile[d];
        if (threads > e->max_work_group)
            return err_set(AMP_ERROR_DEVICE_LIMIT,
                           "parallel_for_each at %s:%d: kernel %s can run at most %zu threads per"
                           " tile on %s (CL_KERNEL_WORK_GROUP_SIZE), and the tile has %zu. Use a"
                           " smaller tile.",
                           c->kernel->file, c->kernel->line, e->name, e->max_work_group,
                           acc->name, threads);
    }
    if (e->local_mem > acc->local_mem)
        return err_set(AMP_ERROR_DEVICE_LIMIT,
                       "parallel_for_each at %s:%d: kernel %s needs %llu bytes of tile_static"
                       " memory, and %s has %llu per tile. Use smaller tile_static arrays.",
                       c->kernel->file, c->kernel->line, e->name,
                       (unsigned long long)e->local_mem, acc->name,
                       (unsigned long long)acc->local_mem);

    size_t global[3], local[3];
    st = work_sizes(c, e, acc, global, local);
    if (st == AMP_OK)
        st = bind_and_ready(c, &spec, e);
    if (st != AMP_OK)
        return st;
    cl_int rc = clapi.EnqueueNDRangeKernel(c->av->queue, e->kernel, (cl_uint)c->extent.rank, NULL,
                                           global, local, 0, NULL, NULL);
    if (rc != CL_SUCCESS) {
        char what[160];
        snprintf(what, sizeof what, "Running kernel %s from %s:%d", e->name, c->kernel->file,
                 c->kernel->line);
        return err_cl(rc, "clEnqueueNDRangeKernel", what);
    }
    /* Only now, with the kernel queued, are the host copies of what it
     * writes stale. */
    for (int i = 0; i < c->captures.count; i++)
        if ((e->written_mask >> i) & 1u) {
            const amp_array_view *v = c->captures.items[i].value.view;
            rg_box box = view_box(v);
            coh_device_written(v->src, c->av, &box);
        }
    /* AMP_CHECK: the kernel ran on the simulator; say what it found now,
     * while the call site is known. */
    if (ock_installed())
        return chk_after_run(c->av->queue, e, c->kernel);
    return AMP_OK;
}

static amp_status dispatch(call *c)
{
    if (!c->kernel || !c->kernel->body || !c->kernel->index_name || !c->kernel->file)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "parallel_for_each: the kernel source is NULL.");
    rt_lock();
    amp_status st = run(c);
    rt_unlock();
    return st;
}

amp_status amp_parallel_for_each(amp_accelerator_view *av, amp_extent domain,
                                 const amp_kernel_source *kernel, amp_capture_list captures)
{
    call c = {kernel, domain, 0, {0, 0, 0}, captures, av, 0, {0, {0, 0, 0}}};
    return dispatch(&c);
}

amp_status amp_parallel_for_each_tiled(amp_accelerator_view *av, amp_tiled_extent domain,
                                       const amp_kernel_source *kernel,
                                       amp_capture_list captures)
{
    call c = {kernel, domain.extent, 1, {0, 0, 0}, captures, av, domain.padded, domain.original};
    if (domain.tile_rank != domain.extent.rank)
        return err_set(AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                       "parallel_for_each at %s:%d: the tile has rank %d and the extent rank %d;"
                       " they must be equal.",
                       kernel ? kernel->file : "?", kernel ? kernel->line : 0, domain.tile_rank,
                       domain.extent.rank);
    for (int d = 0; d < AMP_MAX_RANK; d++)
        c.tile[d] = domain.tile[d];
    return dispatch(&c);
}

amp_status amp_get_kernel_stats(amp_kernel_stats *out)
{
    if (!out)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_get_kernel_stats: out is NULL.");
    rt_lock();
    uint64_t builds, disk_hits, hits;
    kc_counts(&builds, &disk_hits, &hits);
    out->builds = builds;
    out->disk_hits = disk_hits;
    out->cache_hits = hits;
    rt_unlock();
    return AMP_OK;
}
