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
#include "kernel/bind.h"
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
    kb_domain domain;
    int tile_rank; /* as given: checked against the extent's */
    amp_capture_list captures;
    amp_accelerator_view *av;       /* as given (NULL: the default), then as resolved */
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
    const amp_extent *e = &c->domain.extent;
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
    if (!c->domain.tiled)
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
    if (c->domain.guarded) {
        if (c->domain.original.rank != e->rank)
            return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file,
                                   c->kernel->line,
                                   "the padded extent has rank %d and its"
                                   " original extent rank %d.",
                                   e->rank, c->domain.original.rank);
        for (int d = 0; d < e->rank; d++)
            if (c->domain.original.dims[d] <= 0 || c->domain.original.dims[d] > e->dims[d])
                return amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file,
                                       c->kernel->line,
                                       "dimension %d of the original extent is"
                                       " %d; it must be > 0 and at most the padded %d.",
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
                                   "dimension %d of the tile %s is %d; every"
                                   " tile dimension must be > 0.",
                                   d, tile, c->domain.tile[d]);
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
    for (int d = 0; d < c->domain.extent.rank; d++) {
        size_t limit = acc->max_work_item[c->domain.extent.rank - 1 - d];
        if ((size_t)c->domain.tile[d] <= limit)
            continue;
        extent_text(tile, sizeof tile, c->domain.tile, c->domain.extent.rank);
        return amp__err_launch(
            AMP_ERROR_DEVICE_LIMIT, c->kernel->file, c->kernel->line,
            "dimension %d of the tile %s is %d, more"
            " than the %zu that %s allows there (CL_DEVICE_MAX_WORK_ITEM_SIZES).",
            d, tile, c->domain.tile[d], limit, acc->name);
    }
    return AMP_OK;
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
        *arg_bytes += amp__kb_index_bytes(rank);
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
    spec->rank = c->domain.extent.rank;
    spec->tiled = c->domain.tiled;
    spec->guarded = c->domain.guarded;
    spec->checked = amp__ock_installed();
    for (int d = 0; d < AMP_MAX_TILE_RANK; d++)
        spec->tile[d] = c->domain.tiled && d < c->domain.extent.rank ? c->domain.tile[d] : 0;
    spec->fp64 = acc->fp64;
    spec->ncaptures = c->captures.count;
    spec->wide = amp_extent_size(c->domain.extent) > INT_MAX;
    /* The kernel's argument bytes, for the device's limit: offsets and
     * strides are counted apart, since their width is known at the end. */
    size_t arg_bytes = 0, offsets = 0;

    for (int i = 0; i < c->captures.count; i++) {
        amp_status st = describe_capture(c, i, acc, spec->checked, &spec->captures[i], &arg_bytes,
                                         &offsets, &spec->wide);
        if (st != AMP_OK)
            return st;
    }
    if (!c->domain.tiled || c->domain.guarded)
        arg_bytes += (size_t)c->domain.extent.rank * sizeof(cl_int);
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

/* Make the captured views current on the device, and order the kernel
 * after the work before it on the views' buffers and the textures' images;
 * mems[i] is capture i's buffer or image. */
static amp_status ready_views(const call *c, cl_mem *mems)
{
    amp_status st = AMP_OK;
    for (int i = 0; i < c->captures.count && st == AMP_OK; i++) {
        const amp_capture *cap = &c->captures.items[i];
        mems[i] = NULL;
        if (cap->kind == AMP_CAPTURE_VIEW)
            st = amp__view_device_ready(cap->value.view, c->av, cap->name, &mems[i]);
        else if (cap->kind == AMP_CAPTURE_TEXTURE)
            st = amp__tex_device_ready(cap->value.texture, c->av, &mems[i]);
    }
    return st;
}

/* Check the call, find (or compile) its kernel and choose its work sizes;
 * spec is filled on the way. */
static amp_status prepare(const call *c, amp_accelerator *acc, cg_spec *spec, kb_launch *out)
{
    amp_status st = check_domain(c);
    if (st == AMP_OK && c->domain.tiled)
        st = check_tile_limits(c, acc);
    if (st == AMP_OK)
        st = build_spec(c, acc, spec);
    if (st == AMP_OK)
        st = amp__kb_plan(spec, &c->domain, acc, out);
    return st;
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
    int ncaptures;
    kb_launch launch;
    amp_kernel_source source; /* what it held: a source may be rewritten in place */
    amp_accelerator_view *av;
    const amp_accelerator *acc;
    kb_domain domain;
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
_Static_assert(sizeof(kb_domain) % 4 == 0 && sizeof(amp_capture) % 4 == 0,
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
           r->ncaptures == c->captures.count && (c->captures.count == 0 || c->captures.items) &&
           same_words(&r->domain, &c->domain, sizeof r->domain);
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
    int wide = amp_extent_size(c->domain.extent) > INT_MAX;
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
                             const cg_spec *spec, const kb_launch *l)
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
    r->domain = c->domain;
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
}

/* Mark the views the kernel writes as written on the device: every one,
 * even after a failure; the first failure is the status. */
static amp_status mark_written(const call *c, const kc_entry *e)
{
    amp_status written = AMP_OK;
    for (int i = 0; i < c->captures.count; i++)
        if ((e->written_mask >> i) & 1u) {
            amp_status w = amp__view_device_written(c->captures.items[i].value.view, c->av);
            if (written == AMP_OK)
                written = w;
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
    kb_launch l;
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
    queue_kernel k = {e->kernel, e->name, c->kernel, l.dims, l.global, l.local, 0, 0};
    if (profiling) {
        amp__ledger_global(&after);
        k.to_device = after.bytes[AMP_TO_DEVICE][AMP_REASON_KERNEL] -
                      before.bytes[AMP_TO_DEVICE][AMP_REASON_KERNEL];
        k.to_host = after.bytes[AMP_TO_HOST][AMP_REASON_KERNEL] -
                    before.bytes[AMP_TO_HOST][AMP_REASON_KERNEL];
    }
    /* The kernel's arguments are as this record's last launch set them
     * when nothing has set any since, and the same items (items_known) and
     * views, whose buffers are kept, would set them to the same values. A
     * padded domain's sink may be a new buffer; it is always set. */
    int args_as_set = data_kept && items_known && r->args_known &&
                      r->args_set == amp__kb_args_set(e) && !c->domain.guarded;
    if (st == AMP_OK && !args_as_set) {
        st = amp__kb_bind(&l, &c->domain, &c->captures, mems, acc, &nargs);
        if (r) {
            r->args_known = st == AMP_OK;
            r->args_set = amp__kb_args_set(e);
        }
    }
    if (st == AMP_OK && l.checked)
        st = amp__chk_before_run(acc->context, c->av->queue, e, nargs);
    int queued = 0;
    if (st == AMP_OK)
        st = amp__queue_launch(c->av, &k, &queued);
    /* Only now, with the kernel queued, are the host copies of what it
     * writes stale. */
    if (queued && !data_kept) {
        amp_status written = mark_written(c, e);
        if (written == AMP_OK && r)
            keep_data(r, c, mems);
        if (st == AMP_OK)
            st = written;
    }
    if (st != AMP_OK)
        return st;
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
    if (st == AMP_OK && c->domain.tiled && c->tile_rank != c->domain.extent.rank &&
        c->domain.extent.rank <= AMP_MAX_TILE_RANK)
        st = amp__err_launch(AMP_ERROR_INVALID_COMPUTE_DOMAIN, c->kernel->file, c->kernel->line,
                             "the tile has rank %d and the extent rank"
                             " %d; they must be equal.",
                             c->tile_rank, c->domain.extent.rank);
    if (st == AMP_OK)
        st = run(c, slot, source_known);
    amp__lock_release();
    return st;
}

amp_status amp_parallel_for_each(amp_accelerator_view *av, amp_extent domain,
                                 const amp_kernel_source *kernel, amp_capture_list captures)
{
    call c = {kernel, {domain, {0, {0}}, 0, 0, {0, 0, 0}}, 0, captures, av, av};
    return dispatch(&c);
}

amp_status amp_parallel_for_each_tiled(amp_accelerator_view *av, amp_tiled_extent domain,
                                       const amp_kernel_source *kernel, amp_capture_list captures)
{
    call c = {kernel,
              {domain.extent, domain.original, 1, domain.padded, {0, 0, 0}},
              domain.tile_rank,
              captures,
              av,
              av};
    for (int d = 0; d < AMP_MAX_TILE_RANK; d++)
        c.domain.tile[d] = domain.tile[d];
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
