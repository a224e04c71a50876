/*
 * runtime/api/validate.c - the checks of a launch: its kernel source, its
 * domain and tile, and each capture's type and liveness.
 *
 * Capture names are checked elsewhere: where the kernel is generated, in
 * the kernel layer (amp__cg_generate), since the kernel cache's key holds
 * their addresses and a kernel found in the cache had its names checked
 * when it was made. What is checked here depends on the objects a capture
 * names, which may change between two calls of one site.
 */
#include "api/validate.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/elem.h"
#include "core/error.h"
#include "core/extent.h"
#include "data/coherence.h"
#include "data/struct_type.h"
#include "data/texture.h"
#include "data/view.h"
#include "device/oclcheck.h"
#include "kernel/kernel_file.h"
#include "translate/lexer.h"
#include "translate/translate.h"

static void extent_text(char *buf, size_t size, const int *dims, int rank)
{
    int n = 0;
    buf[0] = '\0';
    for (int d = 0; d < rank && n >= 0 && (size_t)n < size; d++)
        n += snprintf(buf + n, size - (size_t)n, "%s%d", d ? "x" : "", dims[d]);
}

static amp_status check_domain(const call *c)
{
    const amp_extent *e = &c->domain.extent;
    if (c->domain.tiled && c->tile_rank != e->rank && e->rank <= AMP_MAX_TILE_RANK)
        return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file, c->kernel->line,
                               "the tile has rank %d and the extent rank %d; they must be equal.",
                               c->tile_rank, e->rank);
    if (e->rank < 1 || e->rank > AMP_MAX_RANK)
        return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file, c->kernel->line,
                               "the extent has rank %d; it must be 1 to %d%s.", e->rank,
                               AMP_MAX_RANK, amp__extent_rank_note(e->rank));
    /* A truncated extent keeps the one it was cut from: an empty one is
     * the cut's, not the program's zero. */
    const amp_extent *cut_from = c->domain.tiled && !c->domain.guarded &&
                                         c->domain.original.rank == e->rank
                                     ? &c->domain.original
                                     : NULL;
    for (int d = 0; d < e->rank; d++)
        if (e->dims[d] == 0 && cut_from && cut_from->dims[d] > 0 && d < AMP_MAX_TILE_RANK)
            return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file,
                                   c->kernel->line,
                                   "amp_tiled_extent_truncate left no whole tile in dimension %d:"
                                   " its %d elements are fewer than a tile's %d. Take a tile of"
                                   " at most %d there, or amp_tiled_extent_pad to run the"
                                   " elements in one padded tile.",
                                   d, cut_from->dims[d], c->domain.tile[d], cut_from->dims[d]);
        else if (e->dims[d] <= 0)
            return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file,
                                   c->kernel->line,
                                   "dimension %d of the extent is %d; every dimension must be > 0.",
                                   d, e->dims[d]);
    if (!c->domain.tiled)
        return AMP_OK;
    if (e->rank > AMP_MAX_TILE_RANK)
        return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file, c->kernel->line,
                               "a tiled extent of rank %d; tiles have rank 1 to %d, as in C++ AMP."
                               " Tile an extent of rank 3 or less, or run this one untiled.",
                               e->rank, AMP_MAX_TILE_RANK);
    if (c->domain.guarded) {
        if (c->domain.original.rank != e->rank)
            return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file,
                                   c->kernel->line,
                                   "the padded extent has rank %d and its original extent rank %d.",
                                   e->rank, c->domain.original.rank);
        for (int d = 0; d < e->rank; d++)
            if (c->domain.original.dims[d] > e->dims[d] && c->domain.tile[d] > 0 &&
                (int64_t)c->domain.original.dims[d] + c->domain.tile[d] - 1 > INT32_MAX)
                return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file,
                                       c->kernel->line,
                                       "dimension %d of the extent, %d, rounded up to a multiple"
                                       " of the tile's %d passes 2^31 - 1, the largest an"
                                       " extent's dimension may be: amp_tiled_extent_pad could"
                                       " not pad it. Take a tile that divides %d, or truncate"
                                       " (amp_tiled_extent_truncate).",
                                       d, c->domain.original.dims[d], c->domain.tile[d],
                                       c->domain.original.dims[d]);
            else if (c->domain.original.dims[d] <= 0 || c->domain.original.dims[d] > e->dims[d])
                return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file,
                                       c->kernel->line,
                                       "dimension %d of the original extent is %d; it must be > 0"
                                       " and at most the padded %d.",
                                       d, c->domain.original.dims[d], e->dims[d]);
    }
    /* The texts only where a message needs them: a launch that passes
     * formats nothing. */
    char ext[48], tile[48];
    for (int d = 0; d < e->rank; d++) {
        if (c->domain.tile[d] > 0 && e->dims[d] % c->domain.tile[d] == 0)
            continue;
        extent_text(ext, sizeof ext, e->dims, e->rank);
        extent_text(tile, sizeof tile, c->domain.tile, e->rank);
        if (c->domain.tile[d] <= 0)
            return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file,
                                   c->kernel->line,
                                   "dimension %d of the tile %s is %d; every tile dimension must be"
                                   " > 0.",
                                   d, tile, c->domain.tile[d]);
        return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file, c->kernel->line,
                               "the extent %s is not divisible by the tile %s: dimension %d has %d"
                               " elements, which is not a multiple of %d. Pad the domain"
                               " (amp_tiled_extent_pad, C++ AMP's pad(): the extra threads lie"
                               " past the data; test t_idx.global against the original extent"
                               " before writing), truncate it (amp_tiled_extent_truncate: the"
                               " last elements get no thread), or choose a tile that divides the"
                               " extent.",
                               ext, tile, d, e->dims[d], c->domain.tile[d]);
    }
    return AMP_OK;
}

/* The tile must fit the device: threads per tile and per dimension. */
static amp_status check_tile_limits(const call *c, const amp_accelerator *acc)
{
    char tile[48];
    size_t threads = 1;
    for (int d = 0; d < c->domain.extent.rank; d++)
        threads *= (size_t)c->domain.tile[d];
    if (threads > acc->max_work_group) {
        extent_text(tile, sizeof tile, c->domain.tile, c->domain.extent.rank);
        return amp__err_launch(
            AMP_ERROR_DEVICE_LIMIT, c->kernel->file, c->kernel->line,
            "the tile %s has %zu threads, more than the %zu that %s runs in one tile"
            " (CL_DEVICE_MAX_WORK_GROUP_SIZE). Use a smaller tile.",
            tile, threads, acc->max_work_group, acc->name);
    }
    for (int d = 0; d < c->domain.extent.rank; d++) {
        size_t limit = acc->max_work_item[c->domain.extent.rank - 1 - d];
        if ((size_t)c->domain.tile[d] <= limit)
            continue;
        extent_text(tile, sizeof tile, c->domain.tile, c->domain.extent.rank);
        return amp__err_launch(
            AMP_ERROR_DEVICE_LIMIT, c->kernel->file, c->kernel->line,
            "dimension %d of the tile %s is %d, more than the %zu that %s allows there"
            " (CL_DEVICE_MAX_WORK_ITEM_SIZES).",
            d, tile, c->domain.tile[d], limit, acc->name);
    }
    return AMP_OK;
}

/* The refusal of capture `name` of a type kernels cannot take: what it is
 * and what to capture instead, where the macro knew its type (why, an
 * AMP__UNSUPPORTED_ code of amp/kernel.h), else what kernels take. */
static amp_status unsupported_capture(const amp_kernel_source *k, const char *name, long long why)
{
    const char *what =
        why == AMP__UNSUPPORTED_WIDE
            ? "is a long or long long (a size_t is one), which kernels cannot take: it is 64 bits"
              " in OpenCL C and 32 or 64 on hosts, so it is not changed in size on the way. Copy"
              " it into an int or unsigned before the launch and capture that."
        : why == AMP__UNSUPPORTED_NARROW
            ? "is a char or short, which kernels cannot take as a captured value. Copy it into an"
              " int or unsigned before the launch and capture that."
        : why == AMP__UNSUPPORTED_LONG_DOUBLE
            ? "is a long double, which kernels do not have. Copy it into a double (or a float) and"
              " capture that."
        : why == AMP__UNSUPPORTED_POINTER
            ? "is a pointer to host memory, which a kernel cannot read. Make a view over the"
              " memory (amp_array_view_create) and capture the view."
            : NULL;
    if (what)
        return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line, "capture '%s' %s",
                               name, what);
    return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                           "capture '%s' has a type kernels cannot take. Capture an"
                           " amp_array_view *, amp_array * or amp_texture *; an int, unsigned,"
                           " float or double, a short vector, an amp_index or amp_extent;"
                           " AMP_CONST(NAME) for a compile-time integer; AMP_VALUE(type, name) for"
                           " a struct; an AMP_FUNCTION by its name, and an AMP_SHARED_FUNCTION as"
                           " AMP_SHARED(%s).",
                           name, name);
}

/* Check capture i and describe it in g; add the bytes of its own argument
 * (a buffer, image or struct: its numbers go in the launch's values), and
 * set *wide if its data needs 64-bit offsets. */
static amp_status describe_capture(const call *c, int i, const amp_accelerator *acc, cg_capture *g,
                                   size_t *arg_bytes, int *wide)
{
    const amp_kernel_source *k = c->kernel;
    const amp_capture *cap = &c->captures.items[i];
    memset(g, 0, sizeof *g); /* compared as bytes by the launch record */
    const char *name = cap->name ? cap->name : "(null)";
    if (cap->kind == AMP_CAPTURE_INVALID)
        return unsupported_capture(k, name, cap->value.constant);
    /* Names are checked where the kernel is generated (the file's head). */
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
                                   "%s '%s' lost its data with its accelerator (amp_shutdown). Make"
                                   " the array again.",
                                   v->array ? "array" : "view", name);
        amp_accelerator *home = amp__coh_source_home(v->src);
        if (v->array && home && home != acc)
            return amp__err_launch(AMP_ERROR_INVALID_OPERATION, k->file, k->line,
                                   "array '%s' lives on %s (%s), and this kernel runs on a view of"
                                   " %s (%s). Copy it there (amp_copy into an array on that"
                                   " accelerator view), or capture a view of it.",
                                   name, home->name, home->path, acc->name, acc->path);
        g->type = v->type;
        g->rank = v->extent.rank;
        g->is_const = v->is_const;
        if (amp__coh_source_bytes(v->src) / amp_elem_type_size(v->type) > INT_MAX)
            *wide = 1;
        /* The buffer. */
        *arg_bytes += acc->address_bits / 8;
    } else if (cap->kind == AMP_CAPTURE_TEXTURE) {
        const amp_texture *t = cap->value.texture;
        if (!t || !amp__tex_is_live(t))
            return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                                   "texture '%s' is %s.", name,
                                   t ? "released (or was never created)" : "NULL");
        if (!t->d->av)
            return amp__err_launch(AMP_ERROR_ACCELERATOR_VIEW_REMOVED, k->file, k->line,
                                   "texture '%s' lost its data with its accelerator (amp_shutdown)."
                                   " Make the texture again.",
                                   name);
        if (t->d->av->acc != acc)
            return amp__err_launch(AMP_ERROR_INVALID_OPERATION, k->file, k->line,
                                   "texture '%s' lives on %s (%s), and this kernel runs on a view"
                                   " of %s (%s). Make a texture there and copy this one into it"
                                   " (amp_texture_copy, which goes through the host; or from"
                                   " amp_texture_copy_to_host's data).",
                                   name, t->d->av->acc->name, t->d->av->acc->path, acc->name,
                                   acc->path);
        g->type = t->d->type;
        g->rank = t->d->extent.rank;
        g->is_const = t->access == AMP_TEXTURE_READ;
        g->channels = t->d->channels;
        g->image_kind = (int)t->d->kind;
        g->access = (int)t->access;
        /* The image. */
        *arg_bytes += acc->address_bits / 8;
    } else if (cap->kind == AMP_CAPTURE_SCALAR) {
        if (amp__elem_lanes(cap->type) == 0)
            return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                                   "capture '%s' has element type %d, which is not one of AMP_INT,"
                                   " AMP_UINT, AMP_FLOAT, AMP_DOUBLE or their short vectors"
                                   " (AMP_FLOAT_3 ...).",
                                   name, (int)cap->type);
        g->type = cap->type;
    } else if (cap->kind == AMP_CAPTURE_STRUCT) {
        const amp_struct_value *o = &cap->value.object;
        amp_elem_type type = o->type ? amp__st_find(o->type) : (amp_elem_type)0;
        if (!o->data || !o->type)
            return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                                   "struct value '%s' has a NULL %s.", name,
                                   o->data ? "type" : "data");
        if (!type)
            return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                                   "struct value '%s' is of type %s, which is not registered:"
                                   " declare it with AMP_STRUCT and call amp_struct_register"
                                   " once before the kernel.",
                                   name, o->type);
        if (amp_elem_type_size(type) != o->size)
            return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                                   "struct value '%s' is %zu bytes, and the registered struct %s"
                                   " %zu.",
                                   name, o->size, o->type, amp_elem_type_size(type));
        g->type = type;
        *arg_bytes += o->size;
    } else if (cap->kind == AMP_CAPTURE_INDEX || cap->kind == AMP_CAPTURE_EXTENT) {
        /* amp_index and amp_extent share their layout: rank, then values. */
        int rank = cap->value.extent.rank;
        if (rank < 1 || rank > AMP_MAX_RANK)
            return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                                   "%s '%s' has rank %d; it must be 1 to %d.",
                                   cap->kind == AMP_CAPTURE_INDEX ? "index" : "extent", name, rank,
                                   AMP_MAX_RANK);
        g->rank = rank;
        g->type = AMP_INT;
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
    if ((amp__elem_scalar(g->type) == AMP_DOUBLE || amp__st_has_double(g->type)) && !acc->fp64)
        return amp__err_launch(AMP_ERROR_UNSUPPORTED_FEATURE, k->file, k->line,
                               "'%s' %s double, and %s has no double precision. Use float, or"
                               " another accelerator.",
                               name, g->type == AMP_DOUBLE ? "is" : "holds", acc->name);
    return AMP_OK;
}

amp_status amp__validate_capture(const call *c, int i, const amp_accelerator *acc, cg_capture *g,
                                 int *wide)
{
    size_t arg_bytes = 0;
    return describe_capture(c, i, acc, g, &arg_bytes, wide);
}

/* Check every capture and describe it in the spec. */
static amp_status build_spec(const call *c, const amp_accelerator *acc, cg_spec *spec)
{
    const amp_kernel_source *k = c->kernel;
    if (c->captures.count > 0 && c->captures.count <= AMP_MAX_CAPTURES && !c->captures.items)
        return amp__err_launch(AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
                               "%d captures; a kernel takes 0 to %d, and the list of captures is"
                               " NULL. Pass them with AMP_CAPTURE(...).",
                               c->captures.count, AMP_MAX_CAPTURES);
    if (c->captures.count < 0 || c->captures.count > AMP_MAX_CAPTURES)
        return amp__err_launch(
            AMP_ERROR_INVALID_ARGUMENT, k->file, k->line,
            "%d captures; a kernel takes 0 to %d (AMP_MAX_CAPTURES). Capture fewer: put values side"
            " by side in one view, or in a struct (AMP_STRUCT).",
            c->captures.count, AMP_MAX_CAPTURES);
    memset(spec, 0, sizeof *spec);
    spec->source = k;
    spec->rank = c->domain.extent.rank;
    spec->tiled = c->domain.tiled;
    spec->guarded = c->domain.guarded;
    spec->checked = amp__ock_installed();
    for (int d = 0; d < AMP_MAX_TILE_RANK; d++)
        spec->tile[d] = c->domain.tiled && d < c->domain.extent.rank ? c->domain.tile[d] : 0;
    spec->fp64 = acc->fp64;
    spec->ncaptures = c->captures.count;
    spec->wide = amp_extent_size(c->domain.extent) > INT_MAX;
    /* The kernel's argument bytes, for the device's limit: the buffers,
     * images and structs here, the launch's values (whose offsets' width
     * is known at the end) after. */
    size_t arg_bytes = 0;

    for (int i = 0; i < c->captures.count; i++) {
        amp_status st = describe_capture(c, i, acc, &spec->captures[i], &arg_bytes, &spec->wide);
        if (st != AMP_OK)
            return st;
    }
    size_t values = amp__translate_values_layout(spec, NULL);
    arg_bytes += values;
    if (arg_bytes > acc->max_arg_bytes)
        return amp__err_launch(
            AMP_ERROR_DEVICE_LIMIT, k->file, k->line,
            "the kernel's %d captures take %zu bytes of arguments (each view's buffer, and %zu"
            " bytes of offsets, strides, extents and values), more than the %zu bytes that %s"
            " accepts (CL_DEVICE_MAX_PARAMETER_SIZE). Capture fewer views: gather scalars into a"
            " view, or views into one larger view and sections of it.",
            c->captures.count, arg_bytes, values, acc->max_arg_bytes, acc->name);
    /* Devices of OpenCL 1.1 and later all have them; only an old device is
     * asked to read the body. */
    if (!acc->atomics && amp__lex_text_uses(k->body, k->body_length, "atomic_", 1))
        return amp__err_launch(
            AMP_ERROR_UNSUPPORTED_FEATURE, k->file, k->line,
            "the kernel uses atomics, and %s has no 32-bit atomics on global and local memory"
            " (cl_khr_global_int32_base_atomics, cl_khr_local_int32_base_atomics). Choose an"
            " accelerator whose info says supports_atomics.",
            acc->name);
    return AMP_OK;
}

amp_status amp__validate_source(const call *c)
{
    return amp__kfile_check("parallel_for_each", c->kernel);
}

amp_status amp__validate_call(const call *c, const amp_accelerator *acc, cg_spec *spec)
{
    amp_status st = check_domain(c);
    if (st == AMP_OK && c->domain.tiled)
        st = check_tile_limits(c, acc);
    if (st == AMP_OK)
        st = build_spec(c, acc, spec);
    return st;
}
