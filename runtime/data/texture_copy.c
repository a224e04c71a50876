/*
 * runtime/data/texture_copy.c - copies between textures, and between a
 * texture and an array, a view or host memory (amp_texture_copy*), and
 * their asynchronous forms.
 *
 * On one accelerator the texels move on the device: clEnqueueCopyImage
 * between textures, clEnqueueCopyImageToBuffer and CopyBufferToImage with
 * the device buffer of a view's data (coherence.c makes it current, and
 * marks it written), each ordered after every use of both ends before
 * (coh_order) and counted as one AMP_ON_DEVICE transfer. The host takes
 * part only where it must: between accelerators, on a part of a split CPU
 * (whose queues take no image command, texture.c), and where the image
 * stores more channels than the texture has (the buffer's layout is the
 * host's). There the texels go through host memory, each way counted.
 *
 * An asynchronous copy is checked at the call; what it uses is held (the
 * textures' data, a view's data source) and it runs on a thread of its own
 * (device/completion.c), which waits for the device's copy before the
 * completion is done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/handle.h"
#include "core/lock.h"
#include "data/texture.h"
#include "data/view.h"
#include "device/completion.h"

/* A copy, checked: its ends, and for textures at both ends the box. */
typedef struct tex_copy {
    tex_data *src, *dst; /* the textures (NULL for an end that is not one) */
    amp_array_view view; /* an array or view end: the view, as a held copy */
    int has_view;
    int view_held; /* an asynchronous copy's reference to the view's data */
    void *host;    /* a host end */
    int textures;  /* a copy between two textures */
    int whole;     /* all of them */
    size_t src_origin[3], dst_origin[3], region[3]; /* else the box, in image coordinates */
    const char *fn;
} tex_copy;

/* ---- Checks ---- */

static int same_shape(const tex_data *a, const tex_data *b)
{
    return a->type == b->type && a->channels == b->channels && a->bits == b->bits;
}

static amp_status refuse_mismatch(const char *fn, const tex_data *s, const tex_data *d,
                                  const char *what)
{
    char a[48], b[48];
    return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                        "%s: the source texture has %s and the destination %s; %s.", fn,
                        amp__view_extent_text(s->extent, a, sizeof a),
                        amp__view_extent_text(d->extent, b, sizeof b), what);
}

/* Both textures live, with data, of one element type, channels and
 * bits. */
static amp_status check_textures(const char *fn, const amp_texture *src, const amp_texture *dst)
{
    amp_status st = amp__tex_check_data(fn, "source ", src);
    if (st == AMP_OK)
        st = amp__tex_check_data(fn, "destination ", dst);
    if (st != AMP_OK)
        return st;
    const tex_data *s = src->d, *d = dst->d;
    if (!same_shape(s, d))
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the source texture holds %d channel%s of %d-bit %s and the"
                            " destination %d channel%s of %d-bit %s; a copy between textures"
                            " takes the same element type, channels and bits.",
                            fn, s->channels, s->channels == 1 ? "" : "s", s->bits,
                            amp_elem_type_name(s->type), d->channels, d->channels == 1 ? "" : "s",
                            d->bits, amp_elem_type_name(d->type));
    return AMP_OK;
}

/* An origin and extent of the texture's rank, the box inside it; the box
 * in image coordinates (x is C++ AMP's last dimension) in origin and
 * region. */
static amp_status image_box(const char *fn, const char *which, const tex_data *d, amp_index at,
                            amp_extent e, size_t origin[3], size_t region[3])
{
    char a[48], b[48];
    if (at.rank != d->extent.rank || e.rank != d->extent.rank)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the %s texture has rank %d, and the origin rank %d and the copy's"
                            " extent rank %d; all three must be equal.",
                            fn, which, d->extent.rank, at.rank, e.rank);
    for (int k = 0; k < 3; k++) {
        origin[k] = 0;
        region[k] = 1;
    }
    for (int k = 0; k < e.rank; k++) {
        if (e.dims[k] <= 0 || at.i[k] < 0 ||
            (long long)at.i[k] + e.dims[k] > (long long)d->extent.dims[k])
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                                "%s: the box of extent %s at dimension %d's %d does not fit in the"
                                " %s texture of extent %s.",
                                fn, amp__view_extent_text(e, a, sizeof a), k, at.i[k], which,
                                amp__view_extent_text(d->extent, b, sizeof b));
        int x = e.rank - 1 - k;
        origin[x] = (size_t)at.i[k];
        region[x] = (size_t)e.dims[k];
    }
    if (d->kind == TEX_IMAGE_1D_FOLDED && !(at.i[0] == 0 && e.dims[0] == d->extent.dims[0]))
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the %s texture is wider than the device's 1D images and is kept"
                            " in the rows of a 2D image, so it is copied whole only"
                            " (amp_texture_copy).",
                            fn, which);
    return AMP_OK;
}

/* Whether boxes a and b of one image share a texel. */
static int boxes_overlap(const size_t ao[3], const size_t bo[3], const size_t r[3])
{
    for (int k = 0; k < 3; k++)
        if (ao[k] + r[k] <= bo[k] || bo[k] + r[k] <= ao[k])
            return 0;
    return 1;
}

/* The array or view end x as a view in *v (a copy of its handle's view):
 * live, with data, contiguous, of exactly the texture's bytes, and
 * writable when it is the destination. The caller made x's array into its
 * whole view (array_view) before taking the lock. */
static amp_status view_end(tex_copy *c, const char *which, amp_data x, amp_array_view *array_view,
                           int is_dst, const tex_data *d)
{
    const char *fn = c->fn;
    const amp_array_view *v = NULL;
    amp_status st = AMP_OK;
    char role[32];
    snprintf(role, sizeof role, "%s ", which);
    if (x.kind == AMP_DATA_ARRAY) {
        const char *stand_in = amp__view_array_stand_in(array_view);
        if (stand_in)
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: the %s array is %s.", fn, which,
                                stand_in);
        st = amp__handle_check_as(fn, role, x.as.array, HD_ARRAY);
        v = array_view;
    } else {
        st = amp__handle_check_as(fn, role, x.as.view, HD_VIEW);
        v = x.as.view;
    }
    if (st == AMP_OK)
        st = amp__view_check_data(fn, which, v);
    if (st != AMP_OK)
        return st;
    if (is_dst && v->is_const)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the destination view is const; copy into a writable view.", fn);
    uint64_t bytes = (uint64_t)amp_extent_size(v->extent) * amp_elem_type_size(v->type);
    if (bytes != d->bytes)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the %s holds %llu bytes and the texture %zu; the %s must hold"
                            " exactly the texture's texels (as host data lays them out).",
                            fn, which, (unsigned long long)bytes, d->bytes, which);
    rg_plan plan;
    amp__view_plan(v, &plan);
    rg_box box = amp__rg_plan_box(&plan, 0, 0);
    if (amp__rg_plan_count(&plan) != 1 || box.rows[0] != 1 || box.rows[1] != 1)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the %s is a section whose elements are not one contiguous run"
                            " of its data; a texture's texels go to or from a whole view, or a"
                            " section of whole rows. Copy through a whole view.",
                            fn, which);
    c->view = *v;
    c->has_view = 1;
    return AMP_OK;
}

/* A host or view end, x. */
static amp_status data_end(tex_copy *c, const char *which, amp_data x, amp_array_view *array_view,
                           int is_dst, const tex_data *d)
{
    if (x.kind == AMP_DATA_HOST) {
        if (!x.as.host_const)
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: the %s host pointer is NULL.",
                                c->fn, which);
        c->host = x.as.host;
        return AMP_OK;
    }
    if (x.kind != AMP_DATA_ARRAY && x.kind != AMP_DATA_VIEW)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the %s is not an array, view or host pointer (kind %d); make it"
                            " with amp_data_of().",
                            c->fn, which, (int)x.kind);
    return view_end(c, which, x, array_view, is_dst, d);
}

/* An array end's whole view, asked before the lock is taken (its stand-in
 * for a NULL or released array); NULL for other ends. */
static amp_array_view *array_view_of(amp_data x)
{
    return x.kind == AMP_DATA_ARRAY ? amp__array_view_of(x.as.array) : NULL;
}

/* ---- Running a copy (expects the lock) ---- */

/* The data went with its device (amp_shutdown) since the copy was
 * checked: an asynchronous copy finds it so. */
static amp_status check_still_there(const tex_copy *c)
{
    if ((c->src && !c->src->av) || (c->dst && !c->dst->av))
        return amp__err_set(AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                            "%s: the texture's data was lost with its accelerator (amp_shutdown)"
                            " before the copy ran.",
                            c->fn);
    if (c->has_view && amp__view_data_lost(&c->view))
        return amp__err_set(AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                            "%s: the array's data was lost with its accelerator (amp_shutdown)"
                            " before the copy ran.",
                            c->fn);
    return AMP_OK;
}

/* Textures on one accelerator whose queues take image commands. */
static int on_device(const tex_data *a, const tex_data *b)
{
    return a->av->acc == b->av->acc && !a->av->acc->sub_device;
}

/* A copy between textures through host memory: the whole source read, and
 * the destination (read first, for a box) written whole. */
static amp_status textures_through_host(tex_copy *c)
{
    tex_data *s = c->src, *d = c->dst;
    amp_status st = AMP_OK;
    unsigned char *from = malloc(s->bytes), *to = c->whole ? from : malloc(d->bytes);
    if (!from || !to)
        st = amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", c->fn);
    if (st == AMP_OK)
        st = amp__tex_read(s, from, c->fn);
    if (st == AMP_OK && !c->whole) {
        st = amp__tex_read(d, to, c->fn);
        /* Image coordinates (x, y, z) of texture texels in the host's rows. */
        size_t texel = amp__tex_texel_bytes(s), ss[3], ds[3];
        amp__tex_image_size(s, ss);
        amp__tex_image_size(d, ds);
        for (size_t z = 0; st == AMP_OK && z < c->region[2]; z++)
            for (size_t y = 0; y < c->region[1]; y++) {
                size_t sat = ((c->src_origin[2] + z) * ss[1] + c->src_origin[1] + y) * ss[0] +
                             c->src_origin[0];
                size_t dat = ((c->dst_origin[2] + z) * ds[1] + c->dst_origin[1] + y) * ds[0] +
                             c->dst_origin[0];
                memmove(to + dat * texel, from + sat * texel, c->region[0] * texel);
            }
    }
    if (st == AMP_OK)
        st = amp__tex_fill(d, to, c->fn);
    if (to != from)
        free(to);
    free(from);
    return st;
}

static amp_status textures(tex_copy *c, cl_event *ev)
{
    tex_data *s = c->src, *d = c->dst;
    if (!on_device(s, d))
        return textures_through_host(c);
    size_t so[3] = {0, 0, 0}, dO[3] = {0, 0, 0}, region[3];
    if (c->whole) {
        amp__tex_image_size(s, region);
    } else {
        memcpy(so, c->src_origin, sizeof so);
        memcpy(dO, c->dst_origin, sizeof dO);
        memcpy(region, c->region, sizeof region);
    }
    amp_accelerator_view *av = d->av;
    amp_status st = amp__coh_order_use(&s->order, av);
    if (st == AMP_OK && d != s)
        st = amp__coh_order_use(&d->order, av);
    if (st != AMP_OK)
        return st;
    cl_int rc = amp__clapi.EnqueueCopyImage(av->queue, s->image, d->image, so, dO, region, 0, NULL,
                                            ev);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clEnqueueCopyImage", c->fn);
    amp__tex_count(d, AMP_ON_DEVICE,
                   region[0] * region[1] * region[2] * amp__tex_stored_texel_bytes(d), 0);
    return AMP_OK;
}

/* The view's one box of its data source (view_end checked it is one). */
static rg_box view_box(const amp_array_view *v)
{
    rg_plan plan;
    amp__view_plan(v, &plan);
    return amp__rg_plan_box(&plan, 0, 0);
}

/* Whether the view end's data meets the texture on its device. */
static int view_on_device(const tex_copy *c, const tex_data *t)
{
    amp_accelerator *home = amp__coh_source_home(c->view.src);
    return !t->av->acc->sub_device && (!home || home == t->av->acc) &&
           t->stored_channels == t->channels;
}

/* Texels between an image and a buffer, region by region: the buffer
 * holds them as the host does, from byte `at`. */
static amp_status image_and_buffer(const tex_copy *c, tex_data *t, cl_mem buffer, size_t at,
                                   int to_buffer, cl_event *ev)
{
    size_t origin[2][3], region[2][3], first[2];
    int n = amp__tex_regions(t, origin, region, first);
    size_t texel = amp__tex_texel_bytes(t);
    cl_command_queue q = t->av->queue;
    cl_int rc = CL_SUCCESS;
    for (int k = 0; k < n && rc == CL_SUCCESS; k++) {
        cl_event *last = k == n - 1 ? ev : NULL;
        size_t off = at + first[k] * texel;
        rc = to_buffer ? amp__clapi.EnqueueCopyImageToBuffer(q, t->image, buffer, origin[k],
                                                             region[k], off, 0, NULL, last)
                       : amp__clapi.EnqueueCopyBufferToImage(q, buffer, t->image, off, origin[k],
                                                             region[k], 0, NULL, last);
    }
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc,
                           to_buffer ? "clEnqueueCopyImageToBuffer" : "clEnqueueCopyBufferToImage",
                           c->fn);
    amp__tex_count(t, AMP_ON_DEVICE, t->bytes, 0);
    return AMP_OK;
}

static amp_status texture_to_view(tex_copy *c, cl_event *ev)
{
    tex_data *t = c->src;
    rg_box box = view_box(&c->view);
    if (!view_on_device(c, t)) {
        /* Through the host: the texels read, then copied into the view's
         * data where it lives. */
        void *tmp = malloc(t->bytes);
        coh_source *wrap = NULL;
        amp_status st = tmp ? amp__tex_read(t, tmp, c->fn)
                            : amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.",
                                           c->fn);
        if (st == AMP_OK)
            st = amp__coh_source_wrap(tmp, t->bytes, &wrap);
        if (st == AMP_OK) {
            rg_box from = amp__rg_box_linear(0, (int64_t)t->bytes);
            st = amp__coh_copy_box(wrap, &from, c->view.src, &box);
        }
        if (wrap) {
            amp_status r = amp__coh_source_release(wrap);
            if (st == AMP_OK)
                st = r;
        }
        free(tmp);
        return st;
    }
    /* Every byte of the view is written: what it held need not reach the
     * device first. */
    amp_status st = amp__coh_discard(c->view.src, &box);
    cl_mem buffer = NULL;
    if (st == AMP_OK)
        st = amp__view_device_ready(&c->view, t->av, "(texture copy)", &buffer);
    if (st == AMP_OK)
        st = amp__coh_order_use(&t->order, t->av);
    if (st == AMP_OK)
        st = image_and_buffer(c, t, buffer, (size_t)box.offset, 1, ev);
    if (st == AMP_OK)
        st = amp__view_device_written(&c->view, t->av);
    return st;
}

static amp_status view_to_texture(tex_copy *c, cl_event *ev)
{
    tex_data *t = c->dst;
    rg_box box = view_box(&c->view);
    if (!view_on_device(c, t)) {
        void *host = NULL;
        amp_status st = amp__coh_host_ready(c->view.src, &box, AMP_REASON_COPY, &host);
        return st == AMP_OK ? amp__tex_fill(t, (const char *)host + box.offset, c->fn) : st;
    }
    cl_mem buffer = NULL;
    amp_status st = amp__view_device_ready(&c->view, t->av, "(texture copy)", &buffer);
    if (st == AMP_OK)
        st = amp__coh_order_use(&t->order, t->av);
    if (st == AMP_OK)
        st = image_and_buffer(c, t, buffer, (size_t)box.offset, 0, ev);
    return st;
}

/* Run a checked copy; ev, when not NULL, receives the event of its last
 * device command (NULL when it ran on the host, where it is done). */
static amp_status run(tex_copy *c, cl_event *ev)
{
    amp_status st = check_still_there(c);
    if (st != AMP_OK)
        return st;
    if (c->src && c->dst)
        return textures(c, ev);
    if (c->src)
        return c->has_view ? texture_to_view(c, ev) : amp__tex_read(c->src, c->host, c->fn);
    return c->has_view ? view_to_texture(c, ev) : amp__tex_fill(c->dst, c->host, c->fn);
}

/* ---- The calls ---- */

/* The checks of a copy from src (a texture, or NULL and sdata) to dst (a
 * texture, or NULL and ddata), into c. Expects the lock. */
static amp_status prepare(tex_copy *c, const amp_texture *src, amp_data sdata,
                          amp_array_view *sview, amp_texture *dst, amp_data ddata,
                          amp_array_view *dview)
{
    amp_status st = AMP_OK;
    if (c->textures) {
        st = check_textures(c->fn, src, dst);
        if (st == AMP_OK && c->whole) {
            if (src->d == dst->d)
                return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                                    "%s: the source and the destination are the same texture.",
                                    c->fn);
            if (!amp_extent_equal(src->d->extent, dst->d->extent))
                return refuse_mismatch(c->fn, src->d, dst->d, "they must be equal");
        }
    } else if (src) {
        st = amp__tex_check_data(c->fn, "source ", src);
        if (st == AMP_OK)
            st = data_end(c, "destination", ddata, dview, 1, src->d);
    } else {
        st = amp__tex_check_data(c->fn, "destination ", dst);
        if (st == AMP_OK)
            st = data_end(c, "source", sdata, sview, 0, dst->d);
    }
    if (st == AMP_OK) {
        c->src = src ? src->d : NULL;
        c->dst = dst ? dst->d : NULL;
    }
    return st;
}

static amp_status copy_now(tex_copy *c, const amp_texture *src, amp_data sdata, amp_texture *dst,
                           amp_data ddata)
{
    amp_array_view *sview = array_view_of(sdata), *dview = array_view_of(ddata);
    amp__lock_acquire();
    amp_status st = prepare(c, src, sdata, sview, dst, ddata, dview);
    if (st == AMP_OK)
        st = run(c, NULL);
    amp__lock_release();
    return st;
}

static const amp_data no_data = {AMP_DATA_HOST, {NULL}};

amp_status amp_texture_copy(const amp_texture *src, amp_texture *dst)
{
    tex_copy c = {.fn = "amp_texture_copy", .textures = 1, .whole = 1};
    return copy_now(&c, src, no_data, dst, no_data);
}

/* The boxes of a section copy, into c. Expects the lock, and textures
 * checked. */
static amp_status section_boxes(tex_copy *c, const amp_texture *src, amp_index so,
                                const amp_texture *dst, amp_index dO, amp_extent e)
{
    size_t region2[3];
    amp_status st = image_box(c->fn, "source", src->d, so, e, c->src_origin, c->region);
    if (st == AMP_OK)
        st = image_box(c->fn, "destination", dst->d, dO, e, c->dst_origin, region2);
    if (st == AMP_OK && src->d == dst->d && boxes_overlap(c->src_origin, c->dst_origin, c->region))
        st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                          "%s: the source and destination boxes of one texture overlap; copy"
                          " through another texture.",
                          c->fn);
    return st;
}

amp_status amp_texture_copy_section(const amp_texture *src, amp_index src_origin, amp_texture *dst,
                                    amp_index dst_origin, amp_extent copy_extent)
{
    tex_copy c = {.fn = "amp_texture_copy_section", .textures = 1};
    amp__lock_acquire();
    amp_status st = check_textures(c.fn, src, dst);
    if (st == AMP_OK)
        st = section_boxes(&c, src, src_origin, dst, dst_origin, copy_extent);
    if (st == AMP_OK) {
        c.src = src->d;
        c.dst = dst->d;
        st = run(&c, NULL);
    }
    amp__lock_release();
    return st;
}

amp_status amp_texture_copy_to(const amp_texture *src, amp_data dst)
{
    tex_copy c = {.fn = "amp_texture_copy_to"};
    return copy_now(&c, src, no_data, NULL, dst);
}

amp_status amp_texture_copy_from(amp_data src, amp_texture *dst)
{
    tex_copy c = {.fn = "amp_texture_copy_from"};
    return copy_now(&c, NULL, src, dst, no_data);
}

/* ---- Asynchronous forms ---- */

/* Under the lock: what the copy holds goes. */
static void drop(void *p)
{
    tex_copy *c = p;
    if (c->src)
        amp__tex_release_data(c->src);
    if (c->dst)
        amp__tex_release_data(c->dst);
    if (c->view_held)
        amp__view_unhold(&c->view);
    c->src = c->dst = NULL;
    c->view_held = 0;
}

/* On the copy's thread: the copy queued under the lock (taken in its
 * turn, device/completion.h), then waited for without it. */
static amp_status run_async(void *p)
{
    tex_copy *c = p;
    cl_event ev = NULL;
    amp_status st = run(c, &ev);
    drop(c);
    amp__lock_release();
    if (ev) {
        cl_int rc = amp__clapi.WaitForEvents(1, &ev);
        amp__clapi.ReleaseEvent(ev);
        if (st == AMP_OK && rc != CL_SUCCESS)
            st = amp__err_cl(rc, "clWaitForEvents", c->fn);
    }
    return st;
}

/* Check the copy (src or sdata to dst or ddata), hold what it uses, and
 * start it. */
static amp_status start(tex_copy *proto, const amp_texture *src, amp_data sdata, amp_texture *dst,
                        amp_data ddata, amp_completion **out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", proto->fn);
    *out = NULL;
    tex_copy *c = malloc(sizeof *c);
    if (!c)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", proto->fn);
    *c = *proto;
    amp_array_view *sview = array_view_of(sdata), *dview = array_view_of(ddata);
    amp__lock_acquire();
    amp_status st = prepare(c, src, sdata, sview, dst, ddata, dview);
    if (st == AMP_OK) {
        if (c->src)
            amp__tex_retain(c->src);
        if (c->dst)
            amp__tex_retain(c->dst);
        if (c->has_view) {
            amp_array_view shape = c->view;
            amp__view_hold(&shape, &c->view);
            c->view_held = 1;
        }
        st = amp__completion_start(run_async, drop, c, out); /* owns c from now on */
    } else {
        free(c);
    }
    amp__lock_release();
    return st;
}

amp_status amp_texture_copy_async(const amp_texture *src, amp_texture *dst, amp_completion **out)
{
    tex_copy c = {.fn = "amp_texture_copy_async", .textures = 1, .whole = 1};
    return start(&c, src, no_data, dst, no_data, out);
}

amp_status amp_texture_copy_to_async(const amp_texture *src, amp_data dst, amp_completion **out)
{
    tex_copy c = {.fn = "amp_texture_copy_to_async"};
    return start(&c, src, no_data, NULL, dst, out);
}

amp_status amp_texture_copy_from_async(amp_data src, amp_texture *dst, amp_completion **out)
{
    tex_copy c = {.fn = "amp_texture_copy_from_async"};
    return start(&c, NULL, src, dst, no_data, out);
}
