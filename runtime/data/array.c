/*
 * runtime/data/array.c - arrays (device-resident data bound to an accelerator
 * view) and explicit copies between arrays, views and host memory.
 *
 * An array is a data source whose only home is its device (coherence.c,
 * amp__coh_source_create with a home), seen through one internal whole view.
 * Copies resolve each end to a data source and a box of bytes, and leave
 * the moving to amp__coh_copy_box, so the ledger sees them like any transfer.
 */
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "amp/array.h"
#include "device/completion.h"
#include "core/error.h"
#include "core/handle.h"
#include "core/lock.h"
#include "data/view.h"

struct amp_array {
    amp_array *self; /* the registry's key */
    amp_array_view *whole;
    amp_accelerator_view *av;
    UT_hash_handle hh;
};

/* By address, so that a stale handle is caught; handle.c never gives an
 * address out twice, so a stale handle cannot name a newer array. */
static amp_array *live_arrays;

static int array_is_live(const amp_array *a)
{
    amp_array *found = NULL;
    HASH_FIND_PTR(live_arrays, &a, found);
    return found != NULL;
}

static amp_status lock_live_array(const char *fn, const amp_array *a)
{
    if (!a)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: the array is NULL.", fn);
    amp__lock_acquire();
    if (!array_is_live(a)) {
        amp__lock_release();
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "%s: the array %p was already released, or was never created.", fn,
                       (const void *)a);
    }
    return AMP_OK;
}

/* The array's whole view; NULL for a NULL or released array. */
static amp_array_view *whole_of(const amp_array *a)
{
    amp__lock_acquire();
    amp_array_view *v = a && array_is_live(a) ? a->whole : NULL;
    amp__lock_release();
    return v;
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
    amp_array_view *v = whole_of(a);
    return v ? v : &released_array_stand_in;
}

/* A new empty array; expects the lock. */
static amp_status make_array(const char *fn, amp_elem_type type, amp_extent extent,
                             amp_accelerator_view *av, amp_array **out)
{
    int64_t n = 0;
    amp_status st = amp__view_check_shape(fn, type, extent, &n);
    if (st == AMP_OK)
        st = amp__queue_resolve(av, &av);
    if (st != AMP_OK)
        return st;
    if (type == AMP_DOUBLE && !av->acc->fp64)
        return amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                       "%s: %s has no double precision, so it cannot hold an array of double.",
                       fn, av->acc->name);
    amp_array *a = amp__handle_alloc(sizeof *a);
    if (!a)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    coh_source *src = NULL;
    st = amp__coh_source_create((size_t)n * amp_elem_size(type), av, "(array)", &src);
    if (st == AMP_OK && (st = amp__view_make(src, type, extent, 0, &a->whole)) != AMP_OK)
        amp__coh_source_release(src);
    if (st != AMP_OK) {
        amp__handle_free(a);
        return st;
    }
    a->whole->array = a;
    a->av = av;
    amp__queue_retain(av); /* a created view lives while an array is bound to it */
    a->self = a;
    HASH_ADD_PTR(live_arrays, self, a);
    *out = a;
    return AMP_OK;
}

amp_status amp_array_create(amp_elem_type type, amp_extent extent, amp_accelerator_view *av,
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
    HASH_DEL(live_arrays, a);
    a->whole->array = NULL;
    amp_status st = amp__view_unmake(a->whole);
    amp__queue_release(a->av);
    amp__handle_free(a);
    return st;
}

amp_status amp_array_release(amp_array *array)
{
    if (!array)
        return AMP_OK;
    amp_status st = lock_live_array("amp_array_release", array);
    if (st != AMP_OK)
        return st;
    st = release_locked(array);
    amp__lock_release();
    return st;
}

amp_extent amp_array_get_extent(const amp_array *array)
{
    amp_extent none = {0, {0, 0, 0}};
    amp_array_view *v = whole_of(array);
    return v ? v->extent : none;
}

amp_elem_type amp_array_get_type(const amp_array *array)
{
    amp_array_view *v = whole_of(array);
    return v ? v->type : (amp_elem_type)0;
}

amp_accelerator_view *amp_array_get_accelerator_view(const amp_array *array)
{
    amp__lock_acquire();
    amp_accelerator_view *av = array && array_is_live(array) ? array->av : NULL;
    amp__lock_release();
    return av;
}

amp_status amp_array_view_create_from_array(amp_array *array, amp_array_view **out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "amp_array_view_create_from_array: out is NULL.");
    *out = NULL;
    amp_status st = lock_live_array("amp_array_view_create_from_array", array);
    if (st != AMP_OK)
        return st;
    amp_array_view *w = array->whole;
    st = amp__view_make(w->src, w->type, w->extent, 0, out);
    if (st == AMP_OK)
        amp__coh_source_retain(w->src);
    amp__lock_release();
    return st;
}

/* ---- Copies ---- */

/* One end of a copy, resolved under the lock. */
typedef struct end {
    coh_source *src;
    rg_box box;
    amp_elem_type type; /* 0 for host ends */
    amp_extent extent;
    int temporary; /* src wraps host memory for this copy only */
} end;

static amp_status resolve(const char *fn, const char *which, amp_data d, int is_dst, end *e)
{
    memset(e, 0, sizeof *e);
    const amp_array_view *v = NULL;
    if (d.kind == AMP_DATA_ARRAY) {
        if (!d.as.array || !array_is_live(d.as.array))
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: the %s array is %s.", fn, which,
                           d.as.array ? "released (or was never created)" : "NULL");
        v = d.as.array->whole;
    } else if (d.kind == AMP_DATA_VIEW) {
        if (!d.as.view || !amp__view_is_live(d.as.view))
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: the %s view is %s.", fn, which,
                           d.as.view ? "released (or was never created)" : "NULL");
        v = d.as.view;
        if (is_dst && v->is_const)
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                           "%s: the destination view is const; copy into a writable view.", fn);
    } else if (d.kind == AMP_DATA_HOST) {
        if (!d.as.host_const)
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: the %s host pointer is NULL.", fn,
                           which);
        return AMP_OK; /* shaped after the other end */
    } else {
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "%s: the %s is not an array, view or host pointer (kind %d); make it"
                       " with amp_data_of().",
                       fn, which, (int)d.kind);
    }
    e->src = v->src;
    e->box = amp__view_box(v);
    e->type = v->type;
    e->extent = v->extent;
    return AMP_OK;
}

/* A host end takes the shape of the other end: contiguous, from 0. */
static amp_status wrap_host(amp_data d, const end *other, end *e)
{
    int64_t bytes = amp__rg_box_bytes(&other->box);
    e->type = other->type;
    e->extent = other->extent;
    const rg_box *o = &other->box;
    e->box = (rg_box){0, {o->rows[0], o->rows[1]}, {o->width * o->rows[1], o->width}, o->width};
    e->temporary = 1;
    return amp__coh_source_wrap((void *)d.as.host_const, (size_t)bytes, &e->src);
}

static amp_status copy_locked(amp_data from, amp_data to)
{
    static const char fn[] = "amp_copy";
    end s, d;
    amp_status st = resolve(fn, "source", from, 0, &s);
    if (st == AMP_OK)
        st = resolve(fn, "destination", to, 1, &d);
    if (st != AMP_OK)
        return st;
    if (!s.src && !d.src)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "%s: both ends are host memory; use memcpy.", fn);
    if (!s.src)
        st = wrap_host(from, &d, &s);
    else if (!d.src)
        st = wrap_host(to, &s, &d);
    if (st == AMP_OK && amp_elem_size(s.type) != amp_elem_size(d.type))
        st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                     "%s: the source holds %s and the destination %s; their elements must have"
                     " the same size.",
                     fn, amp_elem_type_name(s.type), amp_elem_type_name(d.type));
    /* Dimensions past the rank are not part of an extent: they are not
     * compared. */
    if (st == AMP_OK && !amp_extent_equal(s.extent, d.extent)) {
        char a[48], b[48];
        st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                     "%s: the source has extent %s and the destination %s; they must be equal.",
                     fn, amp__view_extent_text(s.extent, a, sizeof a),
                     amp__view_extent_text(d.extent, b, sizeof b));
    }
    if (st == AMP_OK)
        st = amp__coh_copy_box(s.src, &s.box, d.src, &d.box);
    if (s.temporary)
        amp__coh_source_release(s.src);
    if (d.temporary)
        amp__coh_source_release(d.src);
    return st;
}

amp_status amp_copy(amp_data src, amp_data dst)
{
    amp__lock_acquire();
    amp_status st = copy_locked(src, dst);
    amp__lock_release();
    return st;
}

typedef struct copy_args {
    amp_data src, dst;
} copy_args;

static amp_status run_copy(void *p)
{
    copy_args *a = p;
    return amp_copy(a->src, a->dst);
}

amp_status amp_copy_async(amp_data src, amp_data dst, amp_completion **out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_copy_async: out is NULL.");
    *out = NULL;
    copy_args *a = malloc(sizeof *a);
    if (!a)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "amp_copy_async: out of host memory.");
    a->src = src;
    a->dst = dst;
    return amp__completion_start(run_copy, a, out);
}

static amp_status run_synchronize(void *p)
{
    return amp_array_view_synchronize(*(amp_array_view **)p);
}

amp_status amp_array_view_synchronize_async(amp_array_view *view, amp_completion **out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "amp_array_view_synchronize_async: out is NULL.");
    *out = NULL;
    amp_array_view **a = malloc(sizeof *a);
    if (!a)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY,
                       "amp_array_view_synchronize_async: out of host memory.");
    *a = view;
    return amp__completion_start(run_synchronize, a, out);
}

/* An array filled from another end, released again on failure. */
static amp_status create_filled(const char *fn, amp_elem_type type, amp_extent extent,
                                amp_data from, amp_accelerator_view *av, amp_array **out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    amp__lock_acquire();
    amp_array *a = NULL;
    amp_status st = make_array(fn, type, extent, av, &a);
    if (st == AMP_OK && (st = copy_locked(from, amp_data_array(a))) != AMP_OK)
        release_locked(a);
    else if (st == AMP_OK)
        *out = a;
    amp__lock_release();
    return st;
}

amp_status amp_array_create_from_host(amp_elem_type type, amp_extent extent, const void *data,
                                      amp_accelerator_view *av, amp_array **out)
{
    if (!data) {
        if (out)
            *out = NULL;
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_array_create_from_host: data is NULL.");
    }
    return create_filled("amp_array_create_from_host", type, extent, amp_data_host(data), av,
                         out);
}

amp_status amp_array_create_from_view(const amp_array_view *view, amp_accelerator_view *av,
                                      amp_array **out)
{
    amp_status st = amp__view_lock_live("amp_array_create_from_view", view);
    if (st != AMP_OK)
        return st;
    amp_elem_type type = view->type;
    amp_extent extent = view->extent;
    amp__lock_release();
    return create_filled("amp_array_create_from_view", type, extent, amp_data_view(view), av,
                         out);
}

amp_status amp_array_create_from_array(const amp_array *array, amp_accelerator_view *av,
                                       amp_array **out)
{
    amp_status st = lock_live_array("amp_array_create_from_array", array);
    if (st != AMP_OK)
        return st;
    amp_elem_type type = array->whole->type;
    amp_extent extent = array->whole->extent;
    amp__lock_release();
    return create_filled("amp_array_create_from_array", type, extent, amp_data_array(array), av,
                         out);
}
