/*
 * runtime/data/array.c - arrays (device-resident data bound to an accelerator
 * view) and explicit copies between arrays, views and host memory.
 *
 * An array is a data source whose only home is its device (coherence.c,
 * amp__coh_source_create with a home), seen through one internal whole view.
 * Copies resolve each end to a data source and a box of bytes, and leave
 * the moving to amp__coh_copy_box, so the ledger sees them like any transfer.
 * An array's data is lost with its device at amp_shutdown(): every call
 * that would read or write it then says so (amp__view_check_data).
 *
 * The functions that make a handle are defined as (name): amp/array.h also
 * makes each a macro that records the caller's line for the leak report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amp/array.h"
#include "core/elem.h"
#include "core/error.h"
#include "core/handle.h"
#include "core/lock.h"
#include "data/view.h"
#include "device/completion.h"

struct amp_array {
    amp_array_view *whole;
    amp_accelerator_view *av;
};

static amp_status check_array(const char *fn, const amp_array *a)
{
    return amp__handle_check(fn, a, HD_ARRAY);
}

/* Stand-ins captured for a NULL or released array: handles that are never
 * live, so that the kernel is refused with a message about the array (a
 * NULL view would be reported as a NULL view). */
static amp_array_view null_array_stand_in, released_array_stand_in;

const char *amp__view_array_stand_in(const amp_array_view *v)
{
    if (v == &null_array_stand_in)
        return "NULL";
    if (v == &released_array_stand_in)
        return "released (or was never created)";
    return NULL;
}

amp_array_view *amp__array_view_of(const amp_array *a)
{
    if (!a)
        return &null_array_stand_in;
    amp__lock_acquire();
    amp_array_view *v = amp__handle_is(a, HD_ARRAY) ? a->whole : &released_array_stand_in;
    amp__lock_release();
    return v;
}

/* A new empty array. */
static amp_status make_array(const char *fn, amp_elem_type type, amp_extent extent,
                             amp_accelerator_view *av, amp_array **out)
{
    int64_t n = 0;
    amp_status st = amp__view_check_shape(fn, type, extent, &n);
    if (st == AMP_OK)
        st = amp__queue_resolve_in(fn, av, &av);
    if (st != AMP_OK)
        return st;
    if (amp__elem_scalar(type) == AMP_DOUBLE && !av->acc->fp64)
        return amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                            "%s: %s has no double precision, so it cannot hold an array of"
                            " %s.",
                            fn, av->acc->name, amp_elem_type_name(type));
    amp_array *a = amp__handle_alloc(HD_ARRAY, sizeof *a, HD_CALLER);
    if (!a)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    coh_source *src = NULL;
    st = amp__coh_source_create((size_t)n * amp_elem_type_size(type), av, "(array)", &src);
    if (st != AMP_OK)
        goto fail_handle;
    st = amp__view_make(src, type, extent, 0, HD_LIBRARY, &a->whole);
    if (st != AMP_OK)
        goto fail_source;
    a->whole->array = a;
    a->whole->of_array = 1;
    a->av = av;
    amp__queue_retain(av); /* a created view lives while an array is bound to it */
    *out = a;
    return AMP_OK;

fail_source:
    amp__coh_source_release(src);
fail_handle:
    amp__handle_free(a);
    return st;
}

amp_status(amp_array_create)(amp_elem_type type, amp_extent extent, amp_accelerator_view *av,
                             amp_array **out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_array_create: out is NULL.");
    *out = NULL;
    amp__lock_acquire();
    amp_status st = make_array("amp_array_create", type, extent, av, out);
    amp__lock_release();
    return st;
}

static amp_status release_locked(amp_array *a)
{
    a->whole->array = NULL;
    amp_status st = amp__view_unmake(a->whole);
    amp__queue_release(a->av);
    amp__handle_free(a);
    return st;
}

/* The array's own view, for the timeline: NULL unless it is live. */
static const amp_array_view *timeline_view(const amp_array *a)
{
    return amp__handle_is(a, HD_ARRAY) ? a->whole : NULL;
}

amp_status amp_array_release(amp_array *array)
{
    if (!array)
        return AMP_OK;
    amp__lock_acquire();
    tl_call call;
    const amp_array_view *whole = timeline_view(array);
    amp__view_call_begin(&call, whole);
    amp_status st = check_array("amp_array_release", array);
    if (st == AMP_OK)
        st = release_locked(array);
    amp__view_call_end(&call, "amp_array_release", st, whole);
    amp__lock_release();
    return st;
}

/* The array's whole view; NULL for a NULL or released array. */
static const amp_array_view *whole_of(const amp_array *a)
{
    return amp__handle_is(a, HD_ARRAY) ? a->whole : NULL;
}

amp_extent amp_array_get_extent(const amp_array *array)
{
    amp_extent e = {0, {0, 0, 0}};
    amp__lock_acquire();
    const amp_array_view *v = whole_of(array);
    if (v)
        e = v->extent;
    amp__lock_release();
    return e;
}

amp_elem_type amp_array_get_type(const amp_array *array)
{
    amp__lock_acquire();
    const amp_array_view *v = whole_of(array);
    amp_elem_type type = v ? v->type : (amp_elem_type)0;
    amp__lock_release();
    return type;
}

amp_accelerator_view *amp_array_get_accelerator_view(const amp_array *array)
{
    amp__lock_acquire();
    /* After amp_shutdown() the array's view is gone: NULL, as for its data. */
    amp_accelerator_view *av = whole_of(array) && amp__queue_is_live(array->av) ? array->av : NULL;
    amp__lock_release();
    return av;
}

amp_status(amp_array_view_create_from_array)(amp_array *array, amp_array_view **out)
{
    static const char fn[] = "amp_array_view_create_from_array";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    amp__lock_acquire();
    amp_status st = check_array(fn, array);
    if (st == AMP_OK) {
        amp_array_view *w = array->whole;
        st = amp__view_make(w->src, w->type, w->extent, 0, HD_CALLER, out);
        if (st == AMP_OK) {
            amp__coh_source_retain(w->src);
            (*out)->of_array = 1;
        }
    }
    amp__lock_release();
    return st;
}

/* ---- Copies ---- */

/* One end of a copy, resolved under the lock. */
typedef struct end {
    coh_source *src;
    int64_t offset;                /* elements, into src */
    int64_t strides[AMP_MAX_RANK]; /* elements, as a view's */
    amp_elem_type type;            /* 0 for host ends */
    amp_extent extent;
    int temporary; /* src is held for this copy only: a record that wraps host memory,
                      or an asynchronous copy's reference */
} end;

static void release_ends(end *s, end *d);

/* The view an array or view end stands for, checked as the end `which`
 * ("source", "destination"; NULL for the one end of the call) of the call
 * fn; NULL for a host end. */
static amp_status end_view(const char *fn, const char *which, amp_data d, const amp_array_view **v)
{
    char role[32], data_of[48];
    snprintf(role, sizeof role, "%s%s", which ? which : "", which ? " " : "");
    *v = NULL;
    amp_status st = AMP_OK;
    if (d.kind == AMP_DATA_ARRAY) {
        st = amp__handle_check_as(fn, role, d.as.array, HD_ARRAY);
        if (st == AMP_OK)
            *v = d.as.array->whole;
        snprintf(data_of, sizeof data_of, "%sarray", role);
    } else if (d.kind == AMP_DATA_VIEW) {
        st = amp__handle_check_as(fn, role, d.as.view, HD_VIEW);
        if (st == AMP_OK)
            *v = d.as.view;
        snprintf(data_of, sizeof data_of, "%sview", role);
    } else if (d.kind == AMP_DATA_HOST) {
        if (!d.as.host_const)
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: the %shost pointer is NULL.", fn,
                                role);
        return AMP_OK;
    } else {
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the %send is not an array, view or host pointer (kind %d);"
                            " make it with amp_data_of().",
                            fn, role, (int)d.kind);
    }
    if (st == AMP_OK)
        st = amp__view_check_data(fn, data_of, *v);
    return st;
}

static amp_status resolve(const char *fn, const char *which, amp_data d, int is_dst, end *e)
{
    memset(e, 0, sizeof *e);
    const amp_array_view *v = NULL;
    amp_status st = end_view(fn, which, d, &v);
    if (st != AMP_OK || !v)
        return st; /* a host end is shaped after the other end */
    if (is_dst && v->is_const)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the destination view is const; copy into a writable view.", fn);
    e->src = v->src;
    e->offset = v->offset;
    memcpy(e->strides, v->strides, sizeof e->strides);
    e->type = v->type;
    e->extent = v->extent;
    return AMP_OK;
}

/* A host end takes the shape of the other end: contiguous, from 0. */
static amp_status wrap_host(amp_data d, const end *other, end *e)
{
    int64_t bytes = amp_extent_size(other->extent) * (int64_t)amp_elem_type_size(other->type);
    e->type = other->type;
    e->extent = other->extent;
    e->offset = 0;
    int64_t stride = 1;
    for (int k = other->extent.rank - 1; k >= 0; k--) {
        e->strides[k] = stride;
        stride *= other->extent.dims[k];
    }
    e->temporary = 1;
    return amp__coh_source_wrap((void *)d.as.host_const, (size_t)bytes, &e->src);
}

/* The checks of two resolved ends that must match. */
static amp_status check_match(const char *fn, const end *s, const end *d)
{
    /* One element type at both ends, as C++ AMP's copy takes one
     * value_type: the bytes of an int copied into a float are no float of
     * its value. A copy of the bits is asked for with reinterpret_as. */
    if (s->type != d->type)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the source holds %s and the destination %s; a copy keeps the"
                            " element type. To copy the bytes as they are, copy a view made with"
                            " amp_array_view_reinterpret_as() (C++ AMP's reinterpret_as, of a"
                            " view of rank 1: amp_array_view_view_as() gives it, and the rank"
                            " back); to convert the values, a kernel that reads one and writes"
                            " the other.",
                            fn, amp_elem_type_name(s->type), amp_elem_type_name(d->type));
    /* Dimensions past the rank are not part of an extent: they are not
     * compared. */
    if (!amp_extent_equal(s->extent, d->extent)) {
        char a[48], b[48];
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the source has extent %s and the destination %s; they must be"
                            " equal.",
                            fn, amp__view_extent_text(s->extent, a, sizeof a),
                            amp__view_extent_text(d->extent, b, sizeof b));
    }
    return AMP_OK;
}

/* Both ends of a copy resolved, shaped and matched; on failure nothing is
 * held. Release with release_ends(). */
static amp_status prepare_ends(const char *fn, amp_data from, amp_data to, end *s, end *d)
{
    amp_status st = resolve(fn, "source", from, 0, s);
    if (st == AMP_OK)
        st = resolve(fn, "destination", to, 1, d);
    if (st != AMP_OK)
        return st;
    if (!s->src && !d->src)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: both ends are host memory; use memcpy.", fn);
    if (!s->src)
        st = wrap_host(from, d, s);
    else if (!d->src)
        st = wrap_host(to, s, d);
    if (st == AMP_OK)
        st = check_match(fn, s, d);
    if (st != AMP_OK)
        release_ends(s, d);
    return st;
}

/* Let go of what the ends hold: the records that wrap host memory, and the
 * references an asynchronous copy took. */
static void release_ends(end *s, end *d)
{
    if (d->temporary)
        amp__coh_source_release(d->src);
    if (s->temporary)
        amp__coh_source_release(s->src);
    s->temporary = d->temporary = 0;
}

/* Box by box: one, unless an end of rank 4 or more is a section that cuts
 * its inner dimensions. */
static amp_status copy_boxes(const end *s, const end *d)
{
    rg_plan plan;
    const int64_t offsets[2] = {s->offset, d->offset};
    const int64_t *strides[2] = {s->strides, d->strides};
    amp__rg_plan(&plan, s->extent.rank, s->extent.dims, (int64_t)amp_elem_type_size(s->type), 2,
                 offsets, strides);
    amp_status st = AMP_OK;
    for (int64_t k = 0, n = amp__rg_plan_count(&plan); k < n && st == AMP_OK; k++) {
        rg_box sbox = amp__rg_plan_box(&plan, 0, k), dbox = amp__rg_plan_box(&plan, 1, k);
        st = amp__coh_copy_box(s->src, &sbox, d->src, &dbox);
    }
    return st;
}

/* Whether two ends of one data share an element's span: strides are
 * positive, so an end lies in [offset, its last element]. */
static int ends_meet(const end *s, const end *d)
{
    int64_t last[2] = {s->offset, d->offset};
    for (int k = 0; k < s->extent.rank; k++) {
        last[0] += (int64_t)(s->extent.dims[k] - 1) * s->strides[k];
        last[1] += (int64_t)(d->extent.dims[k] - 1) * d->strides[k];
    }
    return s->offset <= last[1] && d->offset <= last[0];
}

/* Two ends of one data that may overlap: through host memory of the
 * copy's own, whole, then into d, so that d gets s as it was (box by box
 * in place, a box written early is read later as source). */
static amp_status copy_through(const end *s, const end *d)
{
    size_t bytes = (size_t)amp_extent_size(s->extent) * amp_elem_type_size(s->type);
    void *through = malloc(bytes);
    if (!through)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY,
                            "amp_copy: out of host memory for a copy between overlapping"
                            " sections of one data (%zu bytes).",
                            bytes);
    end t = {NULL, 0, {0}, s->type, s->extent, 1};
    int64_t stride = 1;
    for (int k = s->extent.rank - 1; k >= 0; k--) {
        t.strides[k] = stride;
        stride *= s->extent.dims[k];
    }
    amp_status st = amp__coh_source_wrap(through, bytes, &t.src);
    if (st == AMP_OK)
        st = copy_boxes(s, &t);
    if (st == AMP_OK)
        st = copy_boxes(&t, d);
    if (t.src)
        amp__coh_source_release(t.src);
    free(through);
    return st;
}

static amp_status copy_ends(const end *s, const end *d)
{
    return s->src == d->src && ends_meet(s, d) ? copy_through(s, d) : copy_boxes(s, d);
}

static amp_status copy_locked(amp_data from, amp_data to)
{
    end s, d;
    amp_status st = prepare_ends("amp_copy", from, to, &s, &d);
    if (st != AMP_OK)
        return st;
    st = copy_ends(&s, &d);
    release_ends(&s, &d);
    return st;
}

/* The view an end of a copy stands for on the timeline (NULL for host
 * memory, or anything that is not a live handle). */
static const amp_array_view *end_of(amp_data d)
{
    if (d.kind == AMP_DATA_ARRAY)
        return timeline_view(d.as.array);
    if (d.kind == AMP_DATA_VIEW && amp__view_is_live(d.as.view))
        return d.as.view;
    return NULL;
}

/* A copy's call on the timeline: both ends named for its transfers; the
 * call is about the destination, or the source when that is host memory. */
static const amp_array_view *copy_begin(tl_call *c, amp_data src, amp_data dst)
{
    amp__view_call_begin(c, end_of(src));
    if (c->id && end_of(dst))
        amp__tl_focus(end_of(dst), end_of(dst)->src, end_of(dst)->label);
    return end_of(dst) ? end_of(dst) : end_of(src);
}

amp_status amp_copy(amp_data src, amp_data dst)
{
    amp__lock_acquire();
    tl_call call;
    const amp_array_view *about = copy_begin(&call, src, dst);
    amp_status st = copy_locked(src, dst);
    amp__view_call_end(&call, "amp_copy", st, about);
    amp__lock_release();
    return st;
}

/* ---- Asynchronous copies: checked at the call, run on a thread of their own ---- */

/* An asynchronous copy keeps its ends alive until it has run, as C++ AMP's
 * copy_async does: each end's data source is held, so a view or array
 * released meanwhile still gives or takes the data (a view's release
 * writes back what the copy put there), and page-locked memory it uses
 * cannot be freed under it (amp_host_free refuses while the record that
 * wraps it lives). */
typedef struct async_copy {
    end s, d;
} async_copy;

/* Under the lock: what the operation holds goes. */
static void drop_copy(void *p)
{
    async_copy *a = p;
    release_ends(&a->s, &a->d);
}

/* Called with the lock, in its turn (device/completion.h). */
static amp_status run_copy(void *p)
{
    async_copy *a = p;
    amp_status st = copy_ends(&a->s, &a->d);
    drop_copy(a);
    amp__lock_release();
    return st;
}

static void hold_end(end *e)
{
    if (!e->temporary) {
        amp__coh_source_retain(e->src);
        e->temporary = 1;
    }
}

amp_status(amp_copy_async)(amp_data src, amp_data dst, amp_completion **out)
{
    static const char fn[] = "amp_copy_async";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    async_copy *a = malloc(sizeof *a);
    if (!a)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    amp__lock_acquire();
    tl_call call;
    const amp_array_view *about = copy_begin(&call, src, dst);
    amp_status st = prepare_ends(fn, src, dst, &a->s, &a->d);
    if (st == AMP_OK) {
        hold_end(&a->s);
        hold_end(&a->d);
        st = amp__completion_start(run_copy, drop_copy, a, out); /* owns a from now on */
    } else {
        free(a);
    }
    amp__view_call_end(&call, fn, st, about);
    amp__lock_release();
    return st;
}

/* A view's synchronization on another thread: the view, and the
 * accelerator view it goes to (NULL: the host memory), held past their
 * release. */
typedef struct held_sync {
    const char *fn;
    amp_array_view view;
    amp_accelerator_view *av;
} held_sync;

static void drop_synchronize(void *p)
{
    held_sync *h = p;
    amp__view_unhold(&h->view);
    if (h->av)
        amp__queue_release(h->av);
}

/* Called with the lock, in its turn. */
static amp_status run_synchronize(void *p)
{
    held_sync *h = p;
    amp_status st = h->av ? amp__view_synchronize_to_held(h->fn, &h->view, h->av)
                          : amp__view_synchronize_held(h->fn, &h->view);
    drop_synchronize(h);
    amp__lock_release();
    return st;
}

/* amp_array_view_synchronize_async (to_device 0) and _to_async (onto av,
 * NULL: the default view), reported as fn. */
static amp_status start_synchronize(const char *fn, amp_array_view *view, int to_device,
                                    amp_accelerator_view *av, amp_completion **out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    held_sync *held = malloc(sizeof *held);
    if (!held)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    held->fn = fn;
    held->av = NULL;
    amp__lock_acquire();
    tl_call call;
    amp__view_call_begin(&call, view);
    amp_status st = amp__view_check(fn, view);
    if (st == AMP_OK && to_device)
        st = amp__queue_resolve_in(fn, av, &held->av);
    if (st == AMP_OK) {
        amp__view_hold(view, &held->view);
        if (held->av)
            amp__queue_retain(held->av);
        st = amp__completion_start(run_synchronize, drop_synchronize, held, out);
    } else {
        free(held);
    }
    amp__view_call_end(&call, fn, st, view);
    amp__lock_release();
    return st;
}

amp_status(amp_array_view_synchronize_async)(amp_array_view *view, amp_completion **out)
{
    return start_synchronize("amp_array_view_synchronize_async", view, 0, NULL, out);
}

amp_status(amp_array_view_synchronize_to_async)(amp_array_view *view, amp_accelerator_view *av,
                                                amp_completion **out)
{
    return start_synchronize("amp_array_view_synchronize_to_async", view, 1, av, out);
}

/* ---- Arrays made from data ---- */

/* An array filled from another end, released again on failure. */
static amp_status create_filled(const char *fn, amp_elem_type type, amp_extent extent,
                                amp_data from, amp_accelerator_view *av, amp_array **out)
{
    amp_array *a = NULL;
    amp_status st = make_array(fn, type, extent, av, &a);
    if (st == AMP_OK && (st = copy_locked(from, amp_data_of(a))) != AMP_OK)
        release_locked(a);
    else if (st == AMP_OK)
        *out = a;
    return st;
}

amp_status(amp_array_create_from_host)(amp_elem_type type, amp_extent extent, const void *data,
                                       amp_accelerator_view *av, amp_array **out)
{
    static const char fn[] = "amp_array_create_from_host";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    if (!data)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: data is NULL.", fn);
    amp__lock_acquire();
    tl_call call;
    amp__view_call_begin(&call, NULL);
    amp_status st = create_filled(fn, type, extent, amp_data_of(data), av, out);
    amp__view_call_end(&call, fn, st, st == AMP_OK ? (*out)->whole : NULL);
    amp__lock_release();
    return st;
}

/* An array with the type, extent and contents of from, a view or an array. */
static amp_status create_copy_of(const char *fn, amp_data from, amp_accelerator_view *av,
                                 amp_array **out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    amp__lock_acquire();
    tl_call call;
    amp__view_call_begin(&call, end_of(from));
    const amp_array_view *v = NULL;
    amp_status st = end_view(fn, NULL, from, &v);
    if (st == AMP_OK)
        st = create_filled(fn, v->type, v->extent, from, av, out);
    amp__view_call_end(&call, fn, st, st == AMP_OK ? (*out)->whole : NULL);
    amp__lock_release();
    return st;
}

amp_status(amp_array_create_from_view)(const amp_array_view *view, amp_accelerator_view *av,
                                       amp_array **out)
{
    return create_copy_of("amp_array_create_from_view", amp_data_of(view), av, out);
}

amp_status(amp_array_create_from_array)(const amp_array *array, amp_accelerator_view *av,
                                        amp_array **out)
{
    return create_copy_of("amp_array_create_from_array", amp_data_of(array), av, out);
}
