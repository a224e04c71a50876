/*
 * runtime/view.c - the public array_view functions.
 */
#include "view.h"

#include <stdlib.h>
#include <uthash.h>

#include "error.h"
#include "runtime.h"

/* Live handles, so that a released or foreign handle is reported instead of
 * being used. */
typedef struct view_entry {
    const amp_array_view *view;
    UT_hash_handle hh;
} view_entry;

static view_entry *live_views;

int view_is_live(const amp_array_view *v)
{
    view_entry *e = NULL;
    HASH_FIND_PTR(live_views, &v, e);
    return e != NULL;
}

size_t amp_elem_size(amp_elem_type type)
{
    switch (type) {
    case AMP_INT: return sizeof(int32_t);
    case AMP_UINT: return sizeof(uint32_t);
    case AMP_FLOAT: return sizeof(float);
    case AMP_DOUBLE: return sizeof(double);
    }
    return 0;
}

const char *amp_elem_type_name(amp_elem_type type)
{
    switch (type) {
    case AMP_INT: return "int";
    case AMP_UINT: return "uint";
    case AMP_FLOAT: return "float";
    case AMP_DOUBLE: return "double";
    }
    return "unknown";
}

static amp_status check_extent(const char *fn, amp_extent e)
{
    if (e.rank < 1 || e.rank > AMP_MAX_RANK)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: the extent has rank %d; it must be 1, 2 or 3.",
                       fn, e.rank);
    for (int d = 0; d < e.rank; d++)
        if (e.dims[d] <= 0)
            return err_set(AMP_ERROR_INVALID_ARGUMENT,
                           "%s: dimension %d of the extent is %d; every dimension must be > 0.",
                           fn, d, e.dims[d]);
    return AMP_OK;
}

static amp_status view_create(const char *fn, amp_elem_type type, amp_extent extent, void *data,
                              int is_const, amp_array_view **out)
{
    if (!out)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    size_t esize = amp_elem_size(type);
    if (esize == 0)
        return err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "%s: element type %d is not one of AMP_INT, AMP_UINT, AMP_FLOAT,"
                       " AMP_DOUBLE.",
                       fn, (int)type);
    amp_status st = check_extent(fn, extent);
    if (st != AMP_OK)
        return st;
    if (!data)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: data is NULL.", fn);
    int64_t n = amp_extent_size(extent);
    if ((uint64_t)n > SIZE_MAX / esize)
        return err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: %lld elements do not fit in memory.", fn,
                       (long long)n);

    amp_array_view *v = calloc(1, sizeof *v);
    view_entry *e = calloc(1, sizeof *e);
    if (!v || !e) {
        free(v);
        free(e);
        return err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    }
    rt_lock();
    st = coh_source_acquire(data, (size_t)n * esize, esize, &v->src);
    if (st == AMP_OK) {
        v->type = type;
        v->extent = extent;
        v->is_const = is_const;
        v->offset = 0;
        v->strides[0] = extent.rank >= 2 ? extent.dims[1] * (int64_t)(extent.rank == 3 ? extent.dims[2] : 1) : 1;
        v->strides[1] = extent.rank == 3 ? extent.dims[2] : 1;
        e->view = v;
        HASH_ADD_PTR(live_views, view, e);
        *out = v;
    }
    rt_unlock();
    if (st != AMP_OK) {
        free(v);
        free(e);
    }
    return st;
}

amp_status amp_array_view_create(amp_elem_type type, amp_extent extent, void *data,
                                 amp_array_view **out)
{
    return view_create("amp_array_view_create", type, extent, data, 0, out);
}

amp_status amp_array_view_create_const(amp_elem_type type, amp_extent extent, const void *data,
                                       amp_array_view **out)
{
    /* The library never writes through a const view: kernels see it as
     * const and it is never copied back. */
    return view_create("amp_array_view_create_const", type, extent, (void *)data, 1, out);
}

/* Look a handle up under the lock; on failure the lock is released. */
static amp_status lock_live(const char *fn, const amp_array_view *v)
{
    if (!v)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: the view is NULL.", fn);
    rt_lock();
    if (!view_is_live(v)) {
        rt_unlock();
        return err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "%s: the view %p was already released, or was never created.", fn,
                       (const void *)v);
    }
    return AMP_OK;
}

amp_status amp_array_view_release(amp_array_view *view)
{
    if (!view)
        return AMP_OK;
    amp_status st = lock_live("amp_array_view_release", view);
    if (st != AMP_OK)
        return st;
    view_entry *e = NULL;
    HASH_FIND_PTR(live_views, &view, e);
    HASH_DEL(live_views, e);
    free(e);
    st = coh_source_release(view->src);
    rt_unlock();
    free(view);
    return st;
}

amp_status amp_array_view_synchronize(amp_array_view *view)
{
    amp_status st = lock_live("amp_array_view_synchronize", view);
    if (st != AMP_OK)
        return st;
    st = coh_host_ready(view->src, AMP_REASON_SYNCHRONIZE);
    rt_unlock();
    return st;
}

amp_status amp_array_view_data(amp_array_view *view, void **out)
{
    if (!out)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_data: out is NULL.");
    *out = NULL;
    amp_status st = lock_live("amp_array_view_data", view);
    if (st != AMP_OK)
        return st;
    if (view->is_const) {
        rt_unlock();
        return err_set(AMP_ERROR_INVALID_OPERATION,
                       "amp_array_view_data: the view is const; read it with"
                       " amp_array_view_data_const().");
    }
    st = coh_host_ready(view->src, AMP_REASON_HOST_ACCESS);
    if (st == AMP_OK) {
        coh_host_written(view->src);
        *out = (char *)coh_source_host(view->src) + view->offset * (int64_t)amp_elem_size(view->type);
    }
    rt_unlock();
    return st;
}

amp_status amp_array_view_data_const(amp_array_view *view, const void **out)
{
    if (!out)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_data_const: out is NULL.");
    *out = NULL;
    amp_status st = lock_live("amp_array_view_data_const", view);
    if (st != AMP_OK)
        return st;
    st = coh_host_ready(view->src, AMP_REASON_HOST_ACCESS);
    if (st == AMP_OK)
        *out = (const char *)coh_source_host(view->src) +
               view->offset * (int64_t)amp_elem_size(view->type);
    rt_unlock();
    return st;
}

amp_status amp_array_view_discard_data(amp_array_view *view)
{
    amp_status st = lock_live("amp_array_view_discard_data", view);
    if (st != AMP_OK)
        return st;
    coh_discard(view->src);
    rt_unlock();
    return AMP_OK;
}

amp_status amp_array_view_refresh(amp_array_view *view)
{
    amp_status st = lock_live("amp_array_view_refresh", view);
    if (st != AMP_OK)
        return st;
    coh_host_written(view->src);
    rt_unlock();
    return AMP_OK;
}

amp_extent amp_array_view_get_extent(const amp_array_view *view)
{
    amp_extent none = {0, {0, 0, 0}};
    return view ? view->extent : none;
}

amp_elem_type amp_array_view_get_type(const amp_array_view *view)
{
    return view ? view->type : (amp_elem_type)0;
}

int amp_array_view_is_const(const amp_array_view *view)
{
    return view ? view->is_const : 0;
}

amp_status amp_array_view_get_transfers(const amp_array_view *view, amp_transfer_stats *out)
{
    if (!out)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_array_view_get_transfers: out is NULL.");
    amp_status st = lock_live("amp_array_view_get_transfers", view);
    if (st != AMP_OK)
        return st;
    coh_source_stats(view->src, out);
    rt_unlock();
    return AMP_OK;
}

amp_status amp_get_transfers(amp_transfer_stats *out)
{
    if (!out)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_get_transfers: out is NULL.");
    rt_lock();
    coh_global_stats(out);
    rt_unlock();
    return AMP_OK;
}

void amp_reset_transfers(void)
{
    rt_lock();
    coh_reset_global_stats();
    rt_unlock();
}
