/*
 * runtime/api/dispatch.c - parallel_for_each: validate the call, find its
 * kernel, make the captured data current on the device, bind and enqueue.
 *
 * Data flows one way: dispatch -> kernel cache -> data coherence -> enqueue.
 */
#include "api/dispatch.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/accel.h"
#include "amp/kernel.h"
#include "check/checkrun.h"
#include "kernel/codegen.h"
#include "data/coherence.h"
#include "data/ledger.h"
#include "core/env.h"
#include "core/error.h"
#include "device/oclcheck.h"
#include "kernel/kcache.h"
#include "kernel/kernel_file.h"
#include "device/profile.h"
#include "core/lock.h"
#include "kernel/lexer.h"
#include "data/struct_type.h"
#include "data/texture.h"
#include "data/view.h"

/* One call, as the runtime sees it. */
typedef struct call {
    const amp_kernel_source *kernel;
    amp_extent extent;
    int tiled;
    int tile[AMP_MAX_TILE_RANK];
    amp_capture_list captures;
    amp_accelerator_view *av; /* as given (NULL: the default), then as resolved */
    int guarded;              /* a padded tiled domain */
    amp_extent original;      /* its extent before padding */
    int tile_rank;
    amp_accelerator_view *given_av; /* as given: the launch record's key */
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
        return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file, c->kernel->line,
                               "the extent has rank %d; it must be 1 to %d.", e->rank,
                               AMP_MAX_RANK);
    for (int d = 0; d < e->rank; d++)
        if (e->dims[d] <= 0)
            return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file,
                                   c->kernel->line,
                                   "dimension %d of the extent is %d; every"
                                   " dimension must be > 0.",
                                   d, e->dims[d]);
    if (!c->tiled)
        return AMP_OK;
    if (e->rank > AMP_MAX_TILE_RANK)
        return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file, c->kernel->line,
                               "a"
                               " tiled"
                               " extent"
                               " of"
                               " rank"
                               " %d;"
                               " tiles"
                               " have"
                               " rank"
                               " 1"
                               " to"
                               " %d,"
                               " as"
                               " in"
                               " C++"
                               " AMP."
                               " Tile"
                               " an"
                               " extent"
                               " of"
                               " rank"
                               " 3"
                               " or"
                               " less,"
                               " or"
                               " run this one untiled.",
                               e->rank, AMP_MAX_TILE_RANK);
    if (c->guarded) {
        if (c->original.rank != e->rank)
            return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file,
                                   c->kernel->line,
                                   "the padded extent has rank %d and its"
                                   " original extent rank %d.",
                                   e->rank, c->original.rank);
        for (int d = 0; d < e->rank; d++)
            if (c->original.dims[d] <= 0 || c->original.dims[d] > e->dims[d])
                return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file,
                                       c->kernel->line,
                                       "dimension %d of the original extent is"
                                       " %d; it must be > 0 and at most the padded %d.",
                                       d, c->original.dims[d], e->dims[d]);
    }
    /* The texts only where a message needs them: a launch that passes
     * formats nothing. */
    char ext[48], tile[48];
    for (int d = 0; d < e->rank; d++) {
        if (c->tile[d] > 0 && e->dims[d] % c->tile[d] == 0)
            continue;
        extent_text(ext, sizeof ext, e->dims, e->rank);
        extent_text(tile, sizeof tile, c->tile, e->rank);
        if (c->tile[d] <= 0)
            return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file,
                                   c->kernel->line,
                                   "dimension %d of the tile %s is %d; every"
                                   " tile dimension must be > 0.",
                                   d, tile, c->tile[d]);
        return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file, c->kernel->line,
                               "the"
                               " extent"
                               " %s"
                               " is"
                               " not"
                               " divisible"
                               " by"
                               " the"
                               " tile"
                               " %s:"
                               " dimension"
                               " %d"
                               " has"
                               " %d"
                               " elements,"
                               " which"
                               " is"
                               " not"
                               " a"
                               " multiple"
                               " of"
                               " %d."
                               " Make"
                               " the"
                               " extent"
                               " a"
                               " multiple"
                               " of"
                               " the"
                               " tile,"
                               " or"
                               " choose"
                               " a"
                               " tile"
                               " that"
                               " divides it.",
                               ext, tile, d, e->dims[d], c->tile[d]);
    }
    return AMP_OK;
}

/* The tile must fit the device: threads per tile and per dimension. */
static amp_status check_tile_limits(const call *c, const amp_accelerator *acc)
{
    char tile[48];
    size_t threads = 1;
    for (int d = 0; d < c->extent.rank; d++)
        threads *= (size_t)c->tile[d];
    if (threads > acc->max_work_group) {
        extent_text(tile, sizeof tile, c->tile, c->extent.rank);
        return amp__err_launch(AMP_ERROR_DEVICE_LIMIT, c->kernel->file, c->kernel->line,
                               "the tile"
                               " %s has"
                               " %zu"
                               " threads,"
                               " more"
                               " than the"
                               " %zu that"
                               " %s runs"
                               " in one"
                               " tile"
                               " (CL_DEVICE_MAX_WORK_GROUP_SIZE)."
                               " Use a"
                               " smaller"
                               " tile.",
                               tile, threads, acc->max_work_group, acc->name);
    }
    for (int d = 0; d < c->extent.rank; d++) {
        size_t limit = acc->max_work_item[c->extent.rank - 1 - d];
        if ((size_t)c->tile[d] <= limit)
            continue;
        extent_text(tile, sizeof tile, c->tile, c->extent.rank);
        return amp__err_launch(
            AMP_ERROR_DEVICE_LIMIT, c->kernel->file, c->kernel->line,
            "dimension %d of the tile %s is %d, more"
            " than the %zu that %s allows there (CL_DEVICE_MAX_WORK_ITEM_SIZES).",
            d, tile, c->tile[d], limit, acc->name);
    }
    return AMP_OK;
}

/* The bytes of an index or extent value of a rank, as the kernel takes
 * it: an int, or an int2, int3 (as wide as an int4), int4 or int8. */
static size_t index_value_bytes(int rank)
{
    return rank == 1   ? sizeof(cl_int)
           : rank == 2 ? sizeof(cl_int2)
           : rank <= 4 ? sizeof(cl_int4)
                       : sizeof(cl_int8);
}

/* Check capture i and describe it in g; add the bytes of its arguments and
 * the number of its offsets, and set *wide if its data needs 64-bit
 * offsets. */
static amp_status describe_capture(const call *c, int i, const amp_accelerator *acc, int checked,
                                   cg_capture *g, size_t *arg_bytes, size_t *offsets, int *wide)
{
    const amp_kernel_source *k = c->kernel;
    const amp_capture *cap = &c->captures.items[i];
    memset(g, 0, sizeof *g); /* compared as bytes by the launch record */
    const char *name = cap->name ? cap->name : "(null)";
    if (cap->kind == AMP_CAPTURE_INVALID)
        return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                               "capture '%s' has a"
                               " type kernels cannot"
                               " take. Capture an"
                               " amp_array_view *, an"
                               " amp_texture *, an"
                               " int, unsigned, float"
                               " or double, or"
                               " AMP_CONST(NAME) for"
                               " a compile-time"
                               " integer.",
                               name);
    /* Names are checked where the kernel is generated (amp__cg_generate): the
         * cache key holds their addresses, so a hit was checked before. */
    g->name = cap->name;
    g->kind = cap->kind;
    if (cap->kind == AMP_CAPTURE_VIEW) {
        const amp_array_view *v = cap->value.view;
        const char *array_state = amp__view_array_stand_in(v);
        if (array_state)
            return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                                   "array '%s' is %s.", name, array_state);
        if (!v || !amp__view_is_live(v))
            return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line, "view '%s' is %s.",
                                   name, v ? "released (or was never created)" : "NULL");
        if (amp__view_data_lost(v))
            return amp__err_launch(AMP_ERROR_ACCELERATOR_VIEW_REMOVED, k->file, k->line,
                                   "%s '%s' lost its data with its"
                                   " accelerator (amp_shutdown). Make the array again.",
                                   v->array ? "array" : "view", name);
        amp_accelerator *home = amp__coh_source_home(v->src);
        if (v->array && home && home != acc)
            return amp__err_launch(AMP_ERROR_INVALID_OPERATION, k->file, k->line,
                                   "array '%s' lives"
                                   " on %s (%s), and"
                                   " this kernel"
                                   " runs on a view"
                                   " of %s (%s)."
                                   " Copy it there"
                                   " (amp_copy into"
                                   " an array on that accelerator view), or capture a view of it.",
                                   name, home->name, home->path, acc->name, acc->path);
        g->type = v->type;
        g->rank = v->extent.rank;
        g->is_const = v->is_const;
        if (amp__coh_source_bytes(v->src) / amp_elem_size(v->type) > INT_MAX)
            *wide = 1;
        /* Buffer, offset (and spare offset), strides, extent. */
        *arg_bytes += acc->address_bits / 8 + (size_t)v->extent.rank * sizeof(cl_int);
        *offsets += (size_t)v->extent.rank + (size_t)checked;
    } else if (cap->kind == AMP_CAPTURE_TEXTURE) {
        const amp_texture *t = cap->value.texture;
        if (!t || !amp__tex_is_live(t))
            return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                                   "texture '%s' is %s.", name,
                                   t ? "released (or was never created)" : "NULL");
        if (!t->av)
            return amp__err_launch(AMP_ERROR_ACCELERATOR_VIEW_REMOVED, k->file, k->line,
                                   "texture '%s' lost its data with its"
                                   " accelerator (amp_shutdown). Make the texture again.",
                                   name);
        if (t->av->acc != acc)
            return amp__err_launch(AMP_ERROR_INVALID_OPERATION, k->file, k->line,
                                   "texture '%s'"
                                   " lives on %s"
                                   " (%s), and this"
                                   " kernel runs on"
                                   " a view of %s"
                                   " (%s). Make a"
                                   " texture there"
                                   " (amp_texture_create"
                                   " on that"
                                   " accelerator's"
                                   " view, from"
                                   " amp_texture_copy_to_host's data).",
                                   name, t->av->acc->name, t->av->acc->path, acc->name, acc->path);
        g->type = t->type;
        g->rank = t->extent.rank;
        g->is_const = 1;
        g->channels = t->channels;
        g->image_kind = (int)t->kind;
        /* The image. */
        *arg_bytes += acc->address_bits / 8;
    } else if (cap->kind == AMP_CAPTURE_SCALAR) {
        if (amp_elem_size(cap->type) == 0)
            return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                                   "capture '%s' has element type %d,"
                                   " which is not one of AMP_INT, AMP_UINT, AMP_FLOAT, AMP_DOUBLE.",
                                   name, (int)cap->type);
        g->type = cap->type;
        *arg_bytes += amp_elem_size(cap->type);
    } else if (cap->kind == AMP_CAPTURE_INDEX || cap->kind == AMP_CAPTURE_EXTENT) {
        /* amp_index and amp_extent share their layout: rank, then values. */
        int rank = cap->value.extent.rank;
        if (rank < 1 || rank > AMP_MAX_RANK)
            return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                                   "%s '%s' has rank"
                                   " %d; it must be 1"
                                   " to %d.",
                                   cap->kind == AMP_CAPTURE_INDEX ? "index" : "extent", name, rank,
                                   AMP_MAX_RANK);
        g->rank = rank;
        g->type = AMP_INT;
        *arg_bytes += index_value_bytes(rank);
    } else if (cap->kind == AMP_CAPTURE_CONSTANT) {
        g->constant = cap->value.constant;
    } else if (cap->kind == AMP_CAPTURE_FUNCTION) {
        const amp_function *f = &cap->value.function;
        if (!f->source)
            return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                                   "function '%s' has no source.", name);
        g->function_source = f->source;
        /* A function made without AMP_FUNCTION may not say where it is. */
        g->function_file = f->file ? f->file : k->file;
        g->function_line = f->file ? f->line : k->line;
        g->constant = (long long)(uintptr_t)f->source;
    } else {
        return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                               "capture '%s' has an unknown kind %d.", name, (int)cap->kind);
    }
    if ((g->type == AMP_DOUBLE || amp__st_has_double(g->type)) && !acc->fp64)
        return amp__err_launch(AMP_ERROR_UNSUPPORTED_FEATURE, k->file, k->line,
                               "'%s' %s double, and %s has no double"
                               " precision. Use float, or another accelerator.",
                               name, g->type == AMP_DOUBLE ? "is" : "holds", acc->name);
    return AMP_OK;
}

/* Check every capture and describe it in the spec. */
static amp_status build_spec(const call *c, const amp_accelerator *acc, cg_spec *spec)
{
    const amp_kernel_source *k = c->kernel;
    if (c->captures.count > 0 && c->captures.count <= AMP_MAX_CAPTURES && !c->captures.items)
        return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                               "%d captures; a kernel takes 0 to %d, and"
                               " the list of captures is NULL. Pass them with AMP_CAPTURE(...).",
                               c->captures.count, AMP_MAX_CAPTURES);
    if (c->captures.count < 0 || c->captures.count > AMP_MAX_CAPTURES)
        return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                               "%d captures; a kernel"
                               " takes 0 to %d"
                               " (AMP_MAX_CAPTURES)."
                               " Capture fewer: put"
                               " values side by side"
                               " in one view,"
                               " or in a struct (AMP_STRUCT).",
                               c->captures.count, AMP_MAX_CAPTURES);
    memset(spec, 0, sizeof *spec);
    spec->source = k;
    spec->rank = c->extent.rank;
    spec->tiled = c->tiled;
    spec->guarded = c->guarded;
    spec->checked = amp__ock_installed();
    for (int d = 0; d < AMP_MAX_TILE_RANK; d++)
        spec->tile[d] = c->tiled && d < c->extent.rank ? c->tile[d] : 0;
    spec->fp64 = acc->fp64;
    spec->ncaptures = c->captures.count;
    spec->wide = amp_extent_size(c->extent) > INT_MAX;
    /* The kernel's argument bytes, for the device's limit: offsets and
     * strides are counted apart, since their width is known at the end. */
    size_t arg_bytes = 0, offsets = 0;

    for (int i = 0; i < c->captures.count; i++) {
        amp_status st = describe_capture(c, i, acc, spec->checked, &spec->captures[i], &arg_bytes,
                                         &offsets, &spec->wide);
        if (st != AMP_OK)
            return st;
    }
    if (!c->tiled || c->guarded)
        arg_bytes += (size_t)c->extent.rank * sizeof(cl_int);
    arg_bytes += offsets * (spec->wide ? sizeof(cl_long) : sizeof(cl_int));
    if (arg_bytes > acc->max_arg_bytes)
        return amp__err_launch(AMP_ERROR_DEVICE_LIMIT, k->file, k->line,
                               "the kernel's %d captures"
                               " take %zu bytes of"
                               " arguments (a view passes"
                               " its buffer, offset,"
                               " strides and extent),"
                               " more than the %zu bytes"
                               " that %s accepts"
                               " (CL_DEVICE_MAX_PARAMETER_SIZE)."
                               " Capture fewer views:"
                               " gather scalars into a"
                               " view, or views into one"
                               " larger view and sections of it.",
                               c->captures.count, arg_bytes, acc->max_arg_bytes, acc->name);
    /* Devices of OpenCL 1.1 and later all have them; only an old device is
     * asked to read the body. */
    if (!acc->atomics && amp__lex_text_uses(k->body, k->body_length, "atomic_", 1))
        return amp__err_launch(AMP_ERROR_UNSUPPORTED_FEATURE, k->file, k->line,
                               "the kernel uses"
                               " atomics, and %s"
                               " has no 32-bit"
                               " atomics on global"
                               " and local memory"
                               " (cl_khr_global_int32_base_atomics,"
                               " cl_khr_local_int32_base_atomics)."
                               " Choose an"
                               " accelerator whose"
                               " info says"
                               " supports_atomics.",
                               acc->name);
    return AMP_OK;
}

/* Set one kernel argument, unless it already holds this value; report a
 * failure with its name. */
static amp_status set_arg(kc_entry *e, cl_uint *index, size_t size, const void *value,
                          const char *what)
{
    cl_uint i = (*index)++;
    kc_arg *last = i < KC_ARG_SLOTS && size <= sizeof last->bytes ? &e->args[i] : NULL;
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

/* An offset or stride, in the width the kernel was compiled for. */
static amp_status set_off_arg(kc_entry *e, cl_uint *index, int wide, int64_t value,
                              const char *what)
{
    if (wide) {
        cl_long v = value;
        return set_arg(e, index, sizeof v, &v, what);
    }
    cl_int v = (cl_int)value;
    return set_arg(e, index, sizeof v, &v, what);
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

static amp_status sink_for(const call *c, cl_mem *out)
{
    amp_accelerator *acc = c->av->acc;
    size_t bytes = 16;
    for (int i = 0; i < c->captures.count; i++) {
        const amp_capture *cap = &c->captures.items[i];
        if (cap->kind == AMP_CAPTURE_VIEW && amp_elem_size(cap->value.view->type) > bytes)
            bytes = amp_elem_size(cap->value.view->type);
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

/* Make the captured views current on the device, and order the kernel
 * after the work before it on the views' buffers and the textures' images;
 * mems[i] is capture i's buffer or image. */
static amp_status ready_views(const call *c, cl_mem *mems)
{
    amp_status st = AMP_OK;
    for (int i = 0; i < c->captures.count && st == AMP_OK; i++) {
        mems[i] = NULL;
        const amp_capture *cap = &c->captures.items[i];
        if (cap->kind == AMP_CAPTURE_VIEW) {
            const amp_array_view *v = cap->value.view;
            rg_plan plan;
            amp__view_plan(v, &plan);
            for (int64_t k = 0, n = amp__rg_plan_count(&plan); k < n && st == AMP_OK; k++) {
                rg_box box = amp__rg_plan_box(&plan, 0, k);
                st = amp__coh_device_ready(v->src, c->av, &box, cap->name, &mems[i]);
            }
        } else if (cap->kind == AMP_CAPTURE_TEXTURE) {
            st = amp__tex_device_ready(cap->value.texture, c->av, &mems[i]);
        }
    }
    return st;
}

/* Set the kernel's arguments, mems[i] being capture i's buffer or image;
 * *nargs is set to how many there are. */
static amp_status bind(const call *c, int wide, int checked, kc_entry *e, const cl_mem *mems,
                       cl_uint *nargs)
{
    cl_uint arg = 0;
    amp_status st = AMP_OK;
    /* The views' buffers are made before: making one ready may create a
     * buffer, and a new buffer can get the handle of one released before.
     * The remembered arguments are forgotten whenever buffers were made
     * (the epoch), so that such a handle is set again, not taken for the
     * old one; that check must come after the last buffer is made. */
    if (e->args_epoch != amp__clapi_mems_made()) {
        memset(e->args, 0, sizeof e->args);
        e->args_epoch = amp__clapi_mems_made();
    }
    for (int i = 0; i < c->captures.count && st == AMP_OK; i++) {
        const amp_capture *cap = &c->captures.items[i];
        if (cap->kind == AMP_CAPTURE_VIEW) {
            amp_array_view *v = cap->value.view;
            st = set_arg(e, &arg, sizeof mems[i], &mems[i], cap->name);
            if (st == AMP_OK)
                st = set_off_arg(e, &arg, wide, v->offset, cap->name);
            /* AMP_CHECK: the element past the data source's end, from which an
             * access outside the view is sent out of the buffer. */
            if (st == AMP_OK && checked)
                st = set_off_arg(e, &arg, wide,
                                 (int64_t)(amp__coh_source_bytes(v->src) / amp_elem_size(v->type)) -
                                     v->offset,
                                 cap->name);
            for (int d = 0; d + 1 < v->extent.rank && st == AMP_OK; d++)
                st = set_off_arg(e, &arg, wide, v->strides[d], cap->name);
            for (int d = 0; d < v->extent.rank && st == AMP_OK; d++) {
                cl_int dim = v->extent.dims[d];
                st = set_arg(e, &arg, sizeof dim, &dim, cap->name);
            }
        } else if (cap->kind == AMP_CAPTURE_TEXTURE) {
            /* A texture's image is current since it was made: kernels
             * cannot write it, and its copies upload as they are made.
             * mems[i] is the image the kernel was ordered on. */
            const amp_texture *t = cap->value.texture;
            st = set_arg(e, &arg, sizeof mems[i], &mems[i], cap->name);
            for (int d = 0; d < t->extent.rank && st == AMP_OK; d++) {
                cl_int dim = t->extent.dims[d];
                st = set_arg(e, &arg, sizeof dim, &dim, cap->name);
            }
        } else if (cap->kind == AMP_CAPTURE_INDEX || cap->kind == AMP_CAPTURE_EXTENT) {
            /* An int, or an int vector of 2, 3 (in 4), 4 or 8 lanes. */
            cl_int lanes[8] = {0};
            int rank = cap->value.extent.rank;
            for (int d = 0; d < rank; d++)
                lanes[d] = cap->value.extent.dims[d];
            st = set_arg(e, &arg, index_value_bytes(rank), lanes, cap->name);
        } else if (cap->kind == AMP_CAPTURE_SCALAR) {
            size_t size = amp_elem_size(cap->type);
            const void *value = cap->type == AMP_INT     ? (const void *)&cap->value.i
                                : cap->type == AMP_UINT  ? (const void *)&cap->value.u
                                : cap->type == AMP_FLOAT ? (const void *)&cap->value.f
                                                         : (const void *)&cap->value.d;
            st = set_arg(e, &arg, size, value, cap->name);
        }
    }
    if (!c->tiled || c->guarded)
        for (int d = 0; d < c->extent.rank && st == AMP_OK; d++) {
            cl_int dim = c->guarded ? c->original.dims[d] : c->extent.dims[d];
            st = set_arg(e, &arg, sizeof dim, &dim, "the extent");
        }
    if (c->guarded && st == AMP_OK) {
        cl_mem sink = NULL;
        st = sink_for(c, &sink);
        if (st == AMP_OK)
            st = set_arg(e, &arg, sizeof sink, &sink, "the sink of a padded domain");
    }
    *nargs = arg;
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
            dims[d] = (size_t)c->extent.dims[rank - 1 - d];
        if (rank > 3) {
            long double outer = 1;
            for (int d = 0; d + 2 < rank; d++)
                outer *= c->extent.dims[d];
            if (outer > (long double)SIZE_MAX / 2)
                return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file,
                                       c->kernel->line,
                                       "%.0Lf threads are more than %s can"
                                       " index.",
                                       outer, acc->name);
            dims[2] = (size_t)outer;
        }
        rank = n_dims;
        for (int d = 0; d < rank; d++) {
            size_t n = dims[d];
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
            global[d] = round_up(dims[d], local[d]);
    }
    /* The device indexes work-items with address_bits-wide sizes; each
     * dimension fits, but their product may not (three dimensions near
     * 2^31 make 2^93), and a device given more would run part of it. */
    long double total = (long double)global[0] * global[1] * global[2];
    long double limit = acc->address_bits < 64 ? (long double)(1ull << acc->address_bits)
                                               : 18446744073709551616.0L; /* 2^64 */
    if (total >= limit)
        return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file, c->kernel->line,
                               "%.0Lf threads are more than %s can index"
                               " (%u-bit addresses).",
                               total, acc->name, acc->address_bits);
    return AMP_OK;
}

/* What a launch needs once its call is checked: the kernel, its work
 * sizes, and the offsets' width and checking it was compiled with. */
typedef struct launch {
    kc_entry *entry;
    size_t global[3], local[3];
    int wide, checked;
} launch;

/* Check the call, find (or compile) its kernel and choose its work sizes;
 * spec is filled on the way. */
static amp_status prepare(const call *c, amp_accelerator *acc, cg_spec *spec, launch *out)
{
    amp_status st = check_domain(c);
    if (st == AMP_OK && c->tiled)
        st = check_tile_limits(c, acc);
    if (st == AMP_OK)
        st = build_spec(c, acc, spec);
    kc_entry *e = NULL;
    if (st == AMP_OK)
        st = amp__kc_get(spec, acc, &e);
    if (st != AMP_OK)
        return st;

    if (c->tiled) {
        size_t threads = 1;
        for (int d = 0; d < c->extent.rank; d++)
            threads *= (size_t)c->tile[d];
        if (threads > e->max_work_group)
            return amp__err_launch(AMP_ERROR_DEVICE_LIMIT, c->kernel->file, c->kernel->line,
                                   "kernel"
                                   " %s"
                                   " can"
                                   " run"
                                   " at"
                                   " most"
                                   " %zu"
                                   " threads"
                                   " per"
                                   " tile"
                                   " on"
                                   " %s"
                                   " (CL_KERNEL_WORK_GROUP_SIZE),"
                                   " and"
                                   " the"
                                   " tile"
                                   " has"
                                   " %zu."
                                   " Use"
                                   " a"
                                   " smaller tile.",
                                   e->name, e->max_work_group, acc->name, threads);
    }
    if (e->local_mem > acc->local_mem)
        return amp__err_launch(AMP_ERROR_DEVICE_LIMIT, c->kernel->file, c->kernel->line,
                               "kernel %s needs %llu bytes of tile_static"
                               " memory, and %s has %llu per tile. Use smaller tile_static arrays.",
                               e->name, (unsigned long long)e->local_mem, acc->name,
                               (unsigned long long)acc->local_mem);
    out->entry = e;
    out->wide = spec->wide;
    out->checked = spec->checked;
    return work_sizes(c, e, acc, out->global, out->local);
}

/*
 * The launch record. A loop that launches one kernel over and over asks
 * the same questions every time, and on a GPU the driver's work between
 * two launches evicts from the processor's caches what answered them: the
 * spec, the kernel cache's node, the work sizes (docs/performance.md). A
 * record per call site and accelerator view keeps the answers together. A
 * call equal to the recorded one in everything the checks, the kernel and
 * the work sizes depend on (the domain, the device, every capture as
 * describe_capture describes it) takes its launch from the record. Every
 * capture is still checked as build_spec checks it, so a view released
 * since is refused the same way; a call that differs in anything, or a
 * kernel freed since (amp__kc_generation), takes the full path.
 */
#define LR_SLOTS 64
#define LR_CAPTURES 8

/* What a view is, for the record: its data source and the part of it; or
 * a texture, and its image. */
typedef struct lr_view {
    cl_mem mem; /* its buffer or image on the device */
    const amp_array_view *view;
    const amp_texture *texture;
    const coh_source *src;
    int64_t offset;
    amp_extent extent;
    int64_t strides[AMP_MAX_RANK];
} lr_view;

/* One capture, as the record knows it. */
typedef struct lr_capture {
    _Alignas(64) amp_capture item; /* as last checked in full (known_items) */
    lr_view view;                  /* a view's data as the last launch left it; its
                                      buffer first, in the item's line */
} lr_capture;

/* What a repeated launch reads comes first, and each capture's item and
 * view are together: between two launches the driver's work evicts the
 * record from the processor's caches, and each line read costs. */
typedef struct launch_record {
    _Alignas(64) const amp_kernel_source *kernel; /* NULL: an empty slot */
    const amp_accelerator_view *given_av;
    /* The call as last checked in full: the given accelerator view, the
     * capture items as bytes (caps[].item), and how many handles had ended
     * then (amp__handle_ended). While no handle has ended and no data
     * source has changed since (amp__coh_epoch), every pointer in the same
     * items is as live as it was, and what the checks read of the objects
     * is as it was (amp_shutdown changes data sources first): the same
     * items pass the same checks, and describe_capture is skipped. */
    uint64_t handles_ended;
    /* The views' data as the last launch left it (data_known): made
     * current on the device and marked written there. While no data
     * source has changed since (amp__coh_epoch) and the views are the
     * same, doing that again would change nothing, and is skipped. */
    uint64_t coh_epoch;
    uint64_t generation;
    /* The kernel's arguments as this record's last launch set them: valid
     * while the entry's args_set has not moved (args_as_set). Another
     * record of the same kernel (another accelerator view given) may set
     * them in between without changing any data source: a kernel of
     * scalars only, say, readies no view. */
    uint64_t args_set;
    uint64_t hits; /* launches it answered: kernel cache hits, counted here */
    int data_known, args_known;
    int ncaptures, tiled, guarded;
    launch launch;
    amp_kernel_source source; /* what it held: a source may be rewritten in place */
    amp_accelerator_view *av;
    const amp_accelerator *acc;
    amp_extent extent, original;
    int tile[AMP_MAX_TILE_RANK];
    lr_capture caps[LR_CAPTURES];
    cg_capture captures[LR_CAPTURES]; /* read only when the items are not known */
} launch_record;

static launch_record records[LR_SLOTS];
static uint64_t hits_of_replaced; /* of records replaced or cleared */

/* Whether n bytes at a and b are equal; n a small multiple of 4 (extents,
 * tiles, capture items). Inline, where memcmp would be a call through the
 * PLT on every repeated launch. */
static inline int same_words(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    uint64_t differ = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        memcpy(&x, p + i, 8);
        memcpy(&y, q + i, 8);
        differ |= x ^ y;
    }
    if (i < n) {
        uint32_t x, y;
        memcpy(&x, p + i, 4);
        memcpy(&y, q + i, 4);
        differ |= x ^ y;
    }
    return differ == 0;
}
_Static_assert(sizeof(amp_extent) % 4 == 0 && sizeof(amp_capture) % 4 == 0,
               "same_words compares whole words");

static launch_record *record_slot(const call *c)
{
    uintptr_t h = (uintptr_t)c->kernel * 31u + (uintptr_t)c->given_av;
    return &records[(h >> 4 ^ h >> 12) % LR_SLOTS];
}

static int same_source(const amp_kernel_source *a, const amp_kernel_source *b)
{
    return a->file == b->file && a->line == b->line && a->index_name == b->index_name &&
           a->body == b->body && a->body_length == b->body_length && a->from_file == b->from_file;
}

/* Whether the record is of the call's kernel source, as it was, and given
 * accelerator view. Reads only the record until the pointers are equal. */
static int same_kernel(const launch_record *r, const call *c)
{
    return r->kernel && r->kernel == c->kernel && r->given_av == c->given_av &&
           same_source(&r->source, c->kernel);
}

/* Whether the call's kernel source is the record's, and no handle has
 * ended since the record checked it: then it is as live as it was, and
 * amp__kfile_check would pass again. */
static int known_source(const launch_record *r, const call *c)
{
    return r->handles_ended == amp__handle_ended() && same_kernel(r, c);
}

static int same_items(const launch_record *r, const call *c)
{
    for (int i = 0; i < c->captures.count; i++)
        if (!same_words(&r->caps[i].item, &c->captures.items[i], sizeof r->caps[i].item))
            return 0;
    return 1;
}

/* Whether the call's capture items are the record's, byte for byte, with
 * nothing ended or changed since they were checked (launch_record). For a
 * call of the record's kernel (same_kernel), "no handle ended since" is
 * what known_source found. */
static int known_items(const launch_record *r, const call *c, int source_known)
{
    return source_known && r->data_known && r->coh_epoch == amp__coh_epoch() && same_items(r, c);
}

/* Note the call as checked in full now. */
static void checked_now(launch_record *r, const call *c)
{
    r->handles_ended = amp__handle_ended();
    for (int i = 0; i < c->captures.count; i++)
        r->caps[i].item = c->captures.items[i];
}

/* source_known: known_source found it so already. */
static int same_call(const launch_record *r, const call *c, const amp_accelerator *acc,
                     int source_known)
{
    return (source_known || same_kernel(r, c)) && r->av == c->av && r->acc == acc &&
           r->generation == amp__kc_generation() && r->launch.checked == amp__ock_installed() &&
           r->tiled == c->tiled && r->guarded == c->guarded && r->ncaptures == c->captures.count &&
           (c->captures.count == 0 || c->captures.items) &&
           same_words(&r->extent, &c->extent, sizeof r->extent) &&
           same_words(&r->original, &c->original, sizeof r->original) &&
           same_words(r->tile, c->tile, sizeof r->tile);
}

/* The record of this call in *out: r, the call's slot, or NULL where the
 * call differs from the record there; *known: whether the call's capture
 * items are those of the record's last launch (known_items), so that their
 * checks were skipped.
 * A capture that fails its check fails the call, with build_spec's status
 * and message. */
static amp_status recorded(const call *c, launch_record *r, const amp_accelerator *acc,
                           int source_known, launch_record **out, int *known)
{
    *out = NULL;
    *known = 0;
    if (!same_call(r, c, acc, source_known))
        return AMP_OK;
    if (known_items(r, c, source_known)) {
        *known = 1;
        *out = r;
        return AMP_OK;
    }
    size_t arg_bytes = 0, offsets = 0;
    int wide = amp_extent_size(c->extent) > INT_MAX;
    for (int i = 0; i < c->captures.count; i++) {
        cg_capture g;
        amp_status st = describe_capture(c, i, acc, r->launch.checked, &g, &arg_bytes, &offsets,
                                         &wide);
        if (st != AMP_OK)
            return st;
        if (memcmp(&g, &r->captures[i], sizeof g) != 0)
            return AMP_OK;
    }
    if (wide == r->launch.wide) {
        checked_now(r, c);
        *out = r;
    }
    return AMP_OK;
}

/* Keep what the full path found for this call in r, its slot, and return
 * r (NULL for a call of more captures than a record holds). */
static launch_record *record(const call *c, launch_record *r, const amp_accelerator *acc,
                             const cg_spec *spec, const launch *l)
{
    if (spec->ncaptures > LR_CAPTURES)
        return NULL;
    hits_of_replaced += r->hits;
    r->hits = 0;
    r->data_known = 0;
    r->kernel = c->kernel;
    r->given_av = c->given_av;
    r->source = *c->kernel;
    r->av = c->av;
    r->acc = acc;
    r->generation = amp__kc_generation();
    r->extent = c->extent;
    r->original = c->original;
    r->tiled = c->tiled;
    r->guarded = c->guarded;
    memcpy(r->tile, c->tile, sizeof r->tile);
    r->ncaptures = spec->ncaptures;
    r->launch = *l;
    memcpy(r->captures, spec->captures, (size_t)spec->ncaptures * sizeof spec->captures[0]);
    checked_now(r, c);
    r->args_known = 0;
    return r;
}

static int same_view(const lr_view *k, const amp_array_view *v)
{
    return k->view == v && k->src == v->src && k->offset == v->offset &&
           same_words(&k->extent, &v->extent, sizeof k->extent) &&
           same_words(k->strides, v->strides, sizeof k->strides);
}

/* Whether the views' data is as the record's last launch left it, and
 * the textures are the ones it ordered the kernel after. */
static int data_as_kept(const launch_record *r, const call *c)
{
    if (!r->data_known || r->coh_epoch != amp__coh_epoch())
        return 0;
    for (int i = 0; i < c->captures.count; i++) {
        const amp_capture *cap = &c->captures.items[i];
        if (cap->kind == AMP_CAPTURE_VIEW && !same_view(&r->caps[i].view, cap->value.view))
            return 0;
        if (cap->kind == AMP_CAPTURE_TEXTURE && r->caps[i].view.texture != cap->value.texture)
            return 0;
    }
    return 1;
}

/* Note the views' data and the textures as this launch left them. */
static void keep_data(launch_record *r, const call *c, const cl_mem *mems)
{
    for (int i = 0; i < c->captures.count; i++) {
        lr_view *k = &r->caps[i].view;
        memset(k, 0, sizeof *k);
        if (c->captures.items[i].kind == AMP_CAPTURE_TEXTURE) {
            k->texture = c->captures.items[i].value.texture;
            k->mem = mems[i];
        }
        if (c->captures.items[i].kind != AMP_CAPTURE_VIEW)
            continue;
        const amp_array_view *v = c->captures.items[i].value.view;
        k->view = v;
        k->src = v->src;
        k->offset = v->offset;
        k->extent = v->extent;
        memcpy(k->strides, v->strides, sizeof k->strides);
        k->mem = mems[i];
    }
    r->coh_epoch = amp__coh_epoch();
    r->data_known = 1;
}

void amp__dispatch_shutdown(void)
{
    LOCK_ASSERT_HELD();
    for (int i = 0; i < LR_SLOTS; i++)
        hits_of_replaced += records[i].hits;
    memset(records, 0, sizeof records);
    while (sinks) {
        sink *s = sinks;
        sinks = s->next;
        amp__clapi.ReleaseMemObject(s->mem);
        free(s);
    }
}

/* Mark the views the kernel writes as written on the device: every one,
 * even after a failure; the first failure is the status. */
static amp_status mark_written(const call *c, const kc_entry *e)
{
    amp_status written = AMP_OK;
    for (int i = 0; i < c->captures.count; i++)
        if ((e->written_mask >> i) & 1u) {
            const amp_array_view *v = c->captures.items[i].value.view;
            rg_plan plan;
            amp__view_plan(v, &plan);
            for (int64_t k = 0, n = amp__rg_plan_count(&plan); k < n; k++) {
                rg_box box = amp__rg_plan_box(&plan, 0, k);
                amp_status w = amp__coh_device_written(v->src, c->av, &box);
                if (written == AMP_OK)
                    written = w;
            }
        }
    return written;
}

/* Resolve the view the call runs on into c->av. A call whose source the
 * record knows (known_source) was given the record's view, which resolved
 * to the record's av when the record last checked it, and no handle has
 * ended since: it resolves so again. (The default accelerator is fixed
 * once used, and its default view lives until amp_shutdown, which clears
 * the records.) Only a removal of the accelerator since is left to see,
 * and amp__queue_resolve says what it is. */
static amp_status resolve(call *c, const launch_record *r, int source_known)
{
    if (source_known && !r->acc->removed) {
        c->av = r->av;
        return AMP_OK;
    }
    return amp__queue_resolve(c->av, &c->av);
}

/* slot: the call's launch record slot (record_slot); source_known: the
 * record knows the call's kernel source (known_source). */
static amp_status run(call *c, launch_record *slot, int source_known)
{
    amp_status st = resolve(c, slot, source_known);
    if (st != AMP_OK)
        return st;
    amp_accelerator *acc = c->av->acc;
    launch_record *r = NULL;
    int items_known = 0;
    st = recorded(c, slot, acc, source_known, &r, &items_known);
    if (st != AMP_OK)
        return st;
    launch l;
    if (r) {
        l = r->launch;
        r->hits++;
    } else {
        cg_spec spec;
        st = prepare(c, acc, &spec, &l);
        if (st != AMP_OK)
            return st;
        r = record(c, slot, acc, &spec, &l);
    }
    kc_entry *e = l.entry;
    /* Under AMP_CHECK every launch takes the full path of the data. Known
     * items are the same live views, whose data is as kept (known_items),
     * and a view's part of its data source is fixed when it is made
     * (amp__view_make): nothing to compare. */
    int data_kept = r && !l.checked && (items_known || data_as_kept(r, c));

    /* AMP_PROFILE: the bytes moved to make this kernel's data current. */
    amp_transfer_stats before, after;
    int profiling = amp__prof_on();
    if (profiling)
        amp__ledger_global(&before);
    cl_uint nargs = 0;
    cl_mem mems[AMP_MAX_CAPTURES];
    if (data_kept) {
        for (int i = 0; i < c->captures.count; i++)
            mems[i] = r->caps[i].view.mem;
    } else {
        st = ready_views(c, mems);
    }
    /* The kernel's arguments are as this record's last launch set them
     * when nothing has set any since, and the same items (items_known) and
     * views, whose buffers are kept, would set them to the same values. A
     * padded domain's sink may be a new buffer; it is always set. */
    int args_as_set = data_kept && items_known && r->args_known && r->args_set == e->args_set &&
                      !c->guarded;
    if (st == AMP_OK && !args_as_set) {
        st = bind(c, l.wide, l.checked, e, mems, &nargs);
        if (r) {
            r->args_known = st == AMP_OK;
            r->args_set = e->args_set;
        }
    }
    if (st == AMP_OK && l.checked)
        st = amp__chk_before_run(acc->context, c->av->queue, e, nargs);
    /* Back-pressure: a bounded number of launches in flight on the queue;
     * a wait that fails leaves nothing queued. */
    if (st == AMP_OK)
        st = amp__queue_make_room(c->av);
    if (st != AMP_OK)
        return st;
    cl_event ev = NULL;
    cl_uint work_dim = (cl_uint)(c->extent.rank < 3 ? c->extent.rank : 3);
    cl_int rc = amp__clapi.EnqueueNDRangeKernel(c->av->queue, e->kernel, work_dim, NULL, l.global,
                                                l.local, 0, NULL, profiling ? &ev : NULL);
    char what[160];
    if (rc != CL_SUCCESS) {
        snprintf(what, sizeof what, "Running kernel %s from %s:%d", e->name, c->kernel->file,
                 c->kernel->line);
        return amp__err_cl(rc, "clEnqueueNDRangeKernel", what);
    }
    if (profiling) {
        amp__ledger_global(&after);
        amp__prof_launched(e->name, c->kernel, ev,
                           after.bytes[AMP_TO_DEVICE][AMP_REASON_KERNEL] -
                               before.bytes[AMP_TO_DEVICE][AMP_REASON_KERNEL],
                           after.bytes[AMP_TO_HOST][AMP_REASON_KERNEL] -
                               before.bytes[AMP_TO_HOST][AMP_REASON_KERNEL]);
    }
    /* Only now, with the kernel queued, are the host copies of what it
     * writes stale. */
    if (!data_kept) {
        amp_status written = mark_written(c, e);
        if (written != AMP_OK)
            return written;
        if (r)
            keep_data(r, c, mems);
    }
    /* An immediate view submits each kernel as it is queued. */
    if (c->av->mode == AMP_QUEUING_IMMEDIATE &&
        (rc = amp__clapi.Flush(c->av->queue)) != CL_SUCCESS) {
        snprintf(what, sizeof what, "Submitting kernel %s from %s:%d", e->name, c->kernel->file,
                 c->kernel->line);
        return amp__queue_failed(c->av, rc, "clFlush", what);
    }
    /* AMP_CHECK: the kernel ran on the simulator; say what it found now,
     * while the call site is known. */
    if (l.checked)
        return amp__chk_after_run(c->av->queue, e, c->kernel);
    return AMP_OK;
}

static amp_status dispatch(call *c)
{
    amp__lock_acquire();
    /* The source is read only once the registry says it may be: a source
     * loaded from a file and released is refused unread. The launch record
     * knows a source it checked, while no handle has ended since. */
    launch_record *slot = record_slot(c);
    int source_known = known_source(slot, c);
    amp_status st = source_known ? AMP_OK : amp__kfile_check("parallel_for_each", c->kernel);
    if (st == AMP_OK && c->tiled && c->tile_rank != c->extent.rank &&
        c->extent.rank <= AMP_MAX_TILE_RANK)
        st = amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file, c->kernel->line,
                             "the tile has rank %d and the extent rank"
                             " %d; they must be equal.",
                             c->tile_rank, c->extent.rank);
    if (st == AMP_OK)
        st = run(c, slot, source_known);
    amp__lock_release();
    return st;
}

amp_status amp_parallel_for_each(amp_accelerator_view *av, amp_extent domain,
                                 const amp_kernel_source *kernel, amp_capture_list captures)
{
    call c = {kernel, domain, 0, {0, 0, 0}, captures, av, 0, {0, {0}}, 0, av};
    return dispatch(&c);
}

amp_status amp_parallel_for_each_tiled(amp_accelerator_view *av, amp_tiled_extent domain,
                                       const amp_kernel_source *kernel, amp_capture_list captures)
{
    call c = {kernel,          domain.extent,    1, {0, 0, 0}, captures, av, domain.padded,
              domain.original, domain.tile_rank, av};
    for (int d = 0; d < AMP_MAX_TILE_RANK; d++)
        c.tile[d] = domain.tile[d];
    return dispatch(&c);
}

amp_status amp_get_kernel_stats(amp_kernel_stats *out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_get_kernel_stats: out is NULL.");
    amp__lock_acquire();
    uint64_t builds, disk_hits, hits;
    amp__kc_counts(&builds, &disk_hits, &hits);
    /* A launch the launch record answered is a hit too. */
    hits += hits_of_replaced;
    for (int i = 0; i < LR_SLOTS; i++)
        hits += records[i].hits;
    out->builds = builds;
    out->disk_hits = disk_hits;
    out->cache_hits = hits;
    amp__lock_release();
    return AMP_OK;
}
