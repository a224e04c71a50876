/*
 * runtime/data/view.c - array_view handles: windows (element type, extent,
 * offset, strides) onto a data source, and the public array_view
 * functions.
 *
 * The functions that make a view are defined as (name): amp/array_view.h
 * also makes each a macro that records the caller's line for the leak
 * report (AMP_LEAKS).
 */
#include "data/view.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/elem.h"
#include "core/error.h"
#include "core/extent.h"
#include "core/handle.h"
#include "core/lock.h"
#include "data/staging.h"
#include "core/timeline.h"
#include "data/struct_type.h"

int amp__view_is_live(const amp_array_view *v)
{
    LOCK_ASSERT_HELD();
    return amp__handle_is(v, HD_VIEW);
}

void amp__view_call_begin(tl_call *c, const amp_array_view *v)
{
    amp__tl_call_begin(c);
    if (c->id && amp__view_is_live(v))
        amp__tl_focus(v, v->src, v->label);
}

void amp__view_call_end(tl_call *c, const char *fn, amp_status st, const amp_array_view *v)
{
    tl_about about = {v, NULL, NULL, 0, NULL, 0};
    amp__tl_call_end(c, fn, st, &about);
}

amp_status amp__view_check(const char *fn, const amp_array_view *v)
{
    LOCK_ASSERT_HELD();
    return amp__handle_check(fn, v, HD_VIEW);
}

int amp__view_data_lost(const amp_array_view *v)
{
    LOCK_ASSERT_HELD();
    /* An array's data source has a home device until amp_shutdown(), which
     * releases the device memory that was its only copy. */
    return v->of_array && !amp__coh_source_home(v->src);
}

amp_status amp__view_check_data(const char *fn, const char *which, const amp_array_view *v)
{
    LOCK_ASSERT_HELD();
    if (!amp__view_data_lost(v))
        return AMP_OK;
    return amp__err_set(AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                        "%s: the %s's data was lost with its accelerator: an array's data lives"
                        " only on its device, and amp_shutdown() released that memory. Make"
                        " the array again (copy what must survive to the host before"
                        " amp_shutdown()).",
                        fn, which);
}

size_t amp_elem_type_size(amp_elem_type type)
{
    if (type == AMP_NORM || type == AMP_UNORM)
        return 0; /* textures only */
    /* A scalar, or a short vector of them: C++ AMP's float_3 is 12 bytes. */
    if (amp__elem_lanes(type))
        return (size_t)amp__elem_lanes(type) * amp__elem_scalar_size(type);
    return amp__st_size(type); /* a registered struct, else 0 */
}

const char *amp_elem_type_name(amp_elem_type type)
{
    static const char *const vectors[] = {"int_2",   "int_3",    "int_4",    "uint_2",
                                          "uint_3",  "uint_4",   "float_2",  "float_3",
                                          "float_4", "double_2", "double_3", "double_4"};
    if (amp__elem_is_scalar(type))
        return amp__elem_scalar_name(type);
    if (amp__elem_is_vector(type))
        return vectors[type - AMP_INT_2];
    if (type == AMP_NORM)
        return "norm";
    if (type == AMP_UNORM)
        return "unorm";
    const char *name = amp__st_name(type);
    return name ? name : "unknown";
}

static amp_status check_extent(const char *fn, amp_extent e)
{
    if (e.rank < 1 || e.rank > AMP_MAX_RANK)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the extent has rank %d; it must be 1 to %d%s.", fn, e.rank,
                            AMP_MAX_RANK, amp__extent_rank_note(e.rank));
    for (int d = 0; d < e.rank; d++)
        if (e.dims[d] <= 0)
            return amp__err_set(
                AMP_ERROR_INVALID_ARGUMENT,
                "%s: dimension %d of the extent is %d; every dimension must be > 0.", fn, d,
                e.dims[d]);
    return AMP_OK;
}

void amp__view_plan(const amp_array_view *v, rg_plan *plan)
{
    const int64_t *strides = v->strides;
    amp__rg_plan(plan, v->extent.rank, v->extent.dims, (int64_t)amp_elem_type_size(v->type), 1,
                 &v->offset, &strides);
}

static void row_major_strides(amp_array_view *v)
{
    const amp_extent *e = &v->extent;
    int64_t stride = 1;
    for (int d = AMP_MAX_RANK - 1; d >= 0; d--) {
        v->strides[d] = d < e->rank ? stride : 0;
        if (d < e->rank)
            stride *= e->dims[d];
    }
}

amp_status amp__view_make(coh_source *src, amp_elem_type type, amp_extent extent, int is_const,
                          hd_owner owner, amp_array_view **out)
{
    LOCK_ASSERT_HELD();
    amp_array_view *v = amp__handle_alloc(HD_VIEW, sizeof *v, owner);
    if (!v)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory making a view.");
    v->src = src;
    v->type = type;
    v->extent = extent;
    v->is_const = is_const;
    row_major_strides(v);
    *out = v;
    if (amp__tl_active) {
        amp__tl_view_created(v, src, extent.rank, extent.dims, amp_elem_type_size(type),
                             owner == HD_LIBRARY ? "array"
                             : is_const          ? "const view"
                                                 : "view");
        amp__coh_show_where(src);
    }
    return AMP_OK;
}

/* Copy the stale bytes of the caller's memory under v back, all of its
 * data source, not only v's window (amp_shutdown drops the rest). */
static void write_back(void *handle, void *status)
{
    amp_array_view *v = handle;
    amp_status *st = status;
    if (!amp__coh_source_user_host(v->src))
        return;
    rg_box all = amp__rg_box_linear(0, (int64_t)amp__coh_source_bytes(v->src));
    void *host;
    amp_status s = amp__coh_host_ready(v->src, &all, AMP_REASON_SYNCHRONIZE, &host);
    if (*st == AMP_OK)
        *st = s;
}

amp_status amp__view_write_back_all(void)
{
    LOCK_ASSERT_HELD();
    amp_status st = AMP_OK;
    amp__handle_each(HD_VIEW, write_back, &st);
    return st;
}

amp_status amp__view_unmake(amp_array_view *v)
{
    LOCK_ASSERT_HELD();
    int last = amp__coh_source_last_ref(v->src);
    amp_status st = amp__coh_source_release(v->src);
    amp__tl_view_released(v, last);
    amp__handle_free(v);
    return st;
}

amp_status amp__view_check_shape(const char *fn, amp_elem_type type, amp_extent extent, int64_t *n)
{
    size_t esize = amp_elem_type_size(type);
    if (type == AMP_NORM || type == AMP_UNORM)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: %s is a texture's element type (amp_texture_create); a view of"
                            " such values holds AMP_FLOAT.",
                            fn, amp_elem_type_name(type));
    if (esize == 0)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: element type %d is not one of AMP_INT, AMP_UINT, AMP_FLOAT,"
                            " AMP_DOUBLE, their short vectors (AMP_INT_2 ... AMP_DOUBLE_4), or"
                            " a struct registered with amp_struct_register.",
                            fn, (int)type);
    amp_status st = check_extent(fn, extent);
    if (st != AMP_OK)
        return st;
    *n = amp_extent_size(extent);
    if ((uint64_t)*n > SIZE_MAX / esize)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: %lld elements do not fit in memory.", fn,
                            (long long)*n);
    return AMP_OK;
}

/* out checked and cleared: what every call that makes a view starts with. */
static amp_status clear_out(const char *fn, amp_array_view **out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    return AMP_OK;
}

/* A view of n elements of type over a new reference to a data source: the
 * caller's memory at data, or (data NULL) storage of the view's own. */
static amp_status make_over(amp_elem_type type, amp_extent extent, int64_t n, void *data,
                            int is_const, amp_array_view **out)
{
    size_t bytes = (size_t)n * amp_elem_type_size(type);
    coh_source *src = NULL;
    amp_status st = data ? amp__coh_source_acquire(data, bytes, &src)
                         : amp__coh_source_create(bytes, NULL, NULL, &src);
    if (st != AMP_OK)
        return st;
    st = amp__view_make(src, type, extent, is_const, HD_CALLER, out);
    if (st != AMP_OK)
        amp__coh_source_release(src);
    return st;
}

/* The caller's data pointer, as the call's macro saw it (amp/array_view.h),
 * points to a scalar of another size or kind than the view's elements are
 * made of (a view of AMP_DOUBLE over a float array): the view would read
 * and write past the array, or make values of the wrong bits. int and
 * unsigned may view each other. C++ AMP's array_view<T> refuses it at
 * compile time; a pointer cast to void * is taken as meant. */
static amp_status check_data_type(const char *fn, amp_elem_type type)
{
    amp_elem_type data = (amp_elem_type)amp__handle_site_data_type();
    amp_elem_type scalar = amp__elem_scalar(type);
    int ints = (data == AMP_INT || data == AMP_UINT) && (scalar == AMP_INT || scalar == AMP_UINT);
    if (!data || !scalar || data == scalar || ints)
        return AMP_OK;
    return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                        "%s: data points to %s, and the view's elements are %s (%zu bytes each):"
                        " it would read and write the array as %s%s. Give the view the type"
                        " of the data (AMP_%s, or a short vector of it), or cast the pointer"
                        " to void * if its bytes are meant to be read as another type.",
                        fn, amp__elem_scalar_name(data), amp_elem_type_name(type),
                        amp_elem_type_size(type), amp__elem_scalar_name(scalar),
                        amp__elem_scalar_size(scalar) > amp__elem_scalar_size(data)
                            ? ", past its end"
                            : "",
                        data == AMP_INT     ? "INT"
                        : data == AMP_UINT  ? "UINT"
                        : data == AMP_FLOAT ? "FLOAT"
                                            : "DOUBLE");
}

static amp_status view_create(const char *fn, amp_elem_type type, amp_extent extent, void *data,
                              int is_const, amp_array_view **out)
{
    int64_t n = 0;
    amp_status st = clear_out(fn, out);
    if (st == AMP_OK)
        st = amp__view_check_shape(fn, type, extent, &n);
    if (st == AMP_OK && !data)
        st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: data is NULL.", fn);
    if (st == AMP_OK)
        st = check_data_type(fn, type);
    if (st != AMP_OK)
        return st;
    amp__lock_acquire();
    st = make_over(type, extent, n, data, is_const, out);
    amp__lock_release();
    return st;
}

amp_status(amp_array_view_create)(amp_elem_type type, amp_extent extent, void *data,
                                  amp_array_view **out)
{
    return view_create("amp_array_view_create", type, extent, data, 0, out);
}

amp_status(amp_array_view_create_const)(amp_elem_type type, amp_extent extent, const void *data,
                                        amp_array_view **out)
{
    /* The library never writes through a const view: kernels see it as
     * const and it is never copied back. */
    return view_create("amp_array_view_create_const", type, extent, (void *)data, 1, out);
}

amp_status(amp_array_view_create_extent)(amp_elem_type type, amp_extent extent,
                                         amp_array_view **out)
{
    static const char fn[] = "amp_array_view_create_extent";
    int64_t n = 0;
    amp_status st = clear_out(fn, out);
    if (st == AMP_OK)
        st = amp__view_check_shape(fn, type, extent, &n);
    if (st != AMP_OK)
        return st;
    amp__lock_acquire();
    st = make_over(type, extent, n, NULL, 0, out);
    amp__lock_release();
    return st;
}

/* What a derived view is asked for: the arguments of the call that makes it. */
typedef struct derivation {
    amp_index origin;   /* a section's */
    amp_extent extent;  /* a section's, a reshaped view's */
    int i;              /* a projection's */
    amp_elem_type type; /* a reinterpreted view's */
} derivation;

/* The part of a derived view that differs from its parent's: check the
 * request against the parent view and call derive(). */
typedef amp_status (*deriver)(const char *fn, const amp_array_view *view, const derivation *how,
                              amp_array_view **out);

/* A call that makes a view from another: out cleared, the parent checked
 * under the lock, then make. */
static amp_status derived_view(const char *fn, const amp_array_view *view, deriver make,
                               const derivation *how, amp_array_view **out)
{
    amp_status st = clear_out(fn, out);
    if (st != AMP_OK)
        return st;
    amp__lock_acquire();
    st = amp__view_check(fn, view);
    if (st == AMP_OK)
        st = make(fn, view, how, out);
    amp__lock_release();
    return st;
}

/* A new handle onto the same data as parent: its type, extent, offset,
 * strides and constness are taken from *derived. */
static amp_status derive(const amp_array_view *parent, const amp_array_view *derived,
                         amp_array_view **out)
{
    amp_array_view *v = NULL;
    amp_status st = amp__view_make(parent->src, derived->type, derived->extent, derived->is_const,
                                   HD_CALLER, &v);
    if (st != AMP_OK)
        return st;
    amp__coh_source_retain(parent->src);
    v->offset = derived->offset;
    memcpy(v->strides, derived->strides, sizeof v->strides);
    v->of_array = parent->of_array;
    *out = v;
    return AMP_OK;
}

const char *amp__view_extent_text(amp_extent e, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int d = 0; d < e.rank && d < AMP_MAX_RANK && at < n; d++) {
        int w = snprintf(buf + at, n - at, "%s%d", d ? ", " : "(", e.dims[d]);
        at += w > 0 ? (size_t)w : 0;
    }
    if (at < n)
        snprintf(buf + at, n - at, ")");
    return buf;
}

static amp_status section_of(const char *fn, const amp_array_view *view, const derivation *how,
                             amp_array_view **out)
{
    amp_index origin = how->origin;
    amp_extent extent = how->extent;
    amp_status st = check_extent(fn, extent);
    if (st == AMP_OK && (origin.rank != view->extent.rank || extent.rank != view->extent.rank))
        st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                          "%s: the view has rank %d, the origin rank %d and the extent rank %d;"
                          " they must be equal.",
                          fn, view->extent.rank, origin.rank, extent.rank);
    for (int d = 0; st == AMP_OK && d < view->extent.rank; d++)
        if (origin.i[d] < 0 || (int64_t)origin.i[d] + extent.dims[d] > view->extent.dims[d]) {
            char a[48], b[48];
            st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                              "%s: a section of extent %s at origin %d in dimension %d does not"
                              " fit in the view's extent %s.",
                              fn, amp__view_extent_text(extent, a, sizeof a), origin.i[d], d,
                              amp__view_extent_text(view->extent, b, sizeof b));
        }
    if (st != AMP_OK)
        return st;
    amp_array_view d = *view;
    d.extent = extent;
    for (int k = 0; k < view->extent.rank; k++)
        d.offset += origin.i[k] * view->strides[k];
    return derive(view, &d, out);
}

amp_status(amp_array_view_section)(const amp_array_view *view, amp_index origin, amp_extent extent,
                                   amp_array_view **out)
{
    derivation how = {.origin = origin, .extent = extent};
    return derived_view("amp_array_view_section", view, section_of, &how, out);
}

static amp_status projection_of(const char *fn, const amp_array_view *view, const derivation *how,
                                amp_array_view **out)
{
    int i = how->i;
    if (view->extent.rank < 2)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: a view of rank 1 has no projection (it would have rank 0); read"
                            " the element instead.",
                            fn);
    if (i < 0 || i >= view->extent.dims[0])
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: index %d is outside the view's leading dimension (0..%d).", fn, i,
                            view->extent.dims[0] - 1);
    amp_array_view d = *view;
    d.offset += i * view->strides[0];
    d.extent.rank = view->extent.rank - 1;
    for (int k = 0; k < d.extent.rank; k++)
        d.extent.dims[k] = view->extent.dims[k + 1];
    d.extent.dims[d.extent.rank] = 0;
    for (int k = 0; k < AMP_MAX_RANK; k++)
        d.strides[k] = k < d.extent.rank ? view->strides[k + 1] : 0;
    return derive(view, &d, out);
}

amp_status(amp_array_view_project)(const amp_array_view *view, int i, amp_array_view **out)
{
    derivation how = {.i = i};
    return derived_view("amp_array_view_project", view, projection_of, &how, out);
}

/* Nonzero when the view's elements are one run in memory (a rank-1 view,
 * or a section that spans whole rows). */
static int is_contiguous(const amp_array_view *v)
{
    int64_t inner = 1; /* elements inside dimension d */
    for (int d = v->extent.rank - 1; d >= 0; d--) {
        if (v->extent.dims[d] > 1 && v->strides[d] != inner)
            return 0;
        inner *= v->extent.dims[d];
    }
    return 1;
}

static amp_status reshaped(const char *fn, const amp_array_view *view, const derivation *how,
                           amp_array_view **out)
{
    amp_extent extent = how->extent;
    amp_status st = check_extent(fn, extent);
    if (st != AMP_OK)
        return st;
    char a[48], b[48];
    if (!is_contiguous(view))
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the view's elements are not contiguous (a section of part of"
                            " its rows), so it cannot be reshaped; copy it first.",
                            fn);
    if (amp_extent_size(extent) != amp_extent_size(view->extent))
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: extent %s has %lld elements and the view %s has %lld; a"
                            " reshaped view must have as many.",
                            fn, amp__view_extent_text(extent, a, sizeof a),
                            (long long)amp_extent_size(extent),
                            amp__view_extent_text(view->extent, b, sizeof b),
                            (long long)amp_extent_size(view->extent));
    amp_array_view d = *view;
    d.extent = extent;
    row_major_strides(&d);
    return derive(view, &d, out);
}

amp_status(amp_array_view_view_as)(const amp_array_view *view, amp_extent extent,
                                   amp_array_view **out)
{
    derivation how = {.extent = extent};
    return derived_view("amp_array_view_view_as", view, reshaped, &how, out);
}

static amp_status reinterpreted(const char *fn, const amp_array_view *view, const derivation *how,
                                amp_array_view **out)
{
    amp_elem_type type = how->type;
    size_t from = amp_elem_type_size(view->type), to = amp_elem_type_size(type);
    int64_t bytes = amp_extent_size(view->extent) * (int64_t)from;
    int64_t at = view->offset * (int64_t)from;
    if (to == 0)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: element type %d is not one of AMP_INT, AMP_UINT, AMP_FLOAT,"
                            " AMP_DOUBLE, their short vectors (AMP_INT_2 ... AMP_DOUBLE_4), or"
                            " a struct registered with amp_struct_register.",
                            fn, (int)type);
    if (view->extent.rank != 1)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: only a rank-1 view can be reinterpreted (as in C++ AMP); this"
                            " one has rank %d. Use amp_array_view_view_as() to make it rank 1"
                            " first.",
                            fn, view->extent.rank);
    if (bytes % (int64_t)to != 0)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the view has %lld bytes, which are not a whole number of %s"
                            " elements (%zu bytes each).",
                            fn, (long long)bytes, amp_elem_type_name(type), to);
    if (at % (int64_t)to != 0)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the view starts at byte %lld of its data, which is not a"
                            " multiple of %zu (the size of %s); reinterpret a section that"
                            " starts on one.",
                            fn, (long long)at, to, amp_elem_type_name(type));
    if (bytes / (int64_t)to > INT32_MAX)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the result would have more than 2^31 - 1 elements in one"
                            " dimension.",
                            fn);
    amp_array_view d = *view;
    d.type = type;
    d.extent = amp_extent_1d((int)(bytes / (int64_t)to));
    d.offset = at / (int64_t)to;
    return derive(view, &d, out);
}

amp_status(amp_array_view_reinterpret_as)(const amp_array_view *view, amp_elem_type type,
                                          amp_array_view **out)
{
    derivation how = {.type = type};
    return derived_view("amp_array_view_reinterpret_as", view, reinterpreted, &how, out);
}

amp_status amp_array_view_release(amp_array_view *view)
{
    static const char fn[] = "amp_array_view_release";
    if (!view)
        return AMP_OK;
    amp__lock_acquire();
    tl_call call;
    amp__view_call_begin(&call, view);
    amp_status st = amp__view_check(fn, view);
    if (st == AMP_OK && view->array)
        st = amp__err_set(AMP_ERROR_INVALID_OPERATION,
                          "%s: this view belongs to an array; release the array with"
                          " amp_array_release().",
                          fn);
    else if (st == AMP_OK)
        st = amp__view_unmake(view);
    amp__view_call_end(&call, fn, st, view);
    amp__lock_release();
    return st;
}

/* One coherence step on one box of a view's data source. */
typedef amp_status (*box_step)(coh_source *src, const rg_box *box, void *arg);

/* The step on every box the view covers, in order; the first failure stops
 * the steps and is returned. */
static amp_status each_box(const amp_array_view *view, box_step step, void *arg)
{
    rg_plan plan;
    amp__view_plan(view, &plan);
    amp_status st = AMP_OK;
    for (int64_t k = 0, n = amp__rg_plan_count(&plan); k < n && st == AMP_OK; k++) {
        rg_box box = amp__rg_plan_box(&plan, 0, k);
        st = step(view->src, &box, arg);
    }
    return st;
}

typedef struct host_ready_arg {
    amp_transfer_reason reason;
    void *host;
} host_ready_arg;

static amp_status host_ready_step(coh_source *src, const rg_box *box, void *arg)
{
    host_ready_arg *a = arg;
    return amp__coh_host_ready(src, box, a->reason, &a->host);
}

static amp_status host_written_step(coh_source *src, const rg_box *box, void *arg)
{
    (void)arg;
    return amp__coh_host_written(src, box);
}

static amp_status discard_step(coh_source *src, const rg_box *box, void *arg)
{
    (void)arg;
    return amp__coh_discard(src, box);
}

typedef struct device_ready_arg {
    amp_accelerator_view *av;
    const char *label;
    cl_mem mem;
} device_ready_arg;

static amp_status device_ready_step(coh_source *src, const rg_box *box, void *arg)
{
    device_ready_arg *a = arg;
    return amp__coh_device_ready(src, a->av, box, a->label, &a->mem);
}

amp_status amp__view_device_ready(const amp_array_view *v, amp_accelerator_view *av,
                                  const char *label, cl_mem *mem)
{
    device_ready_arg a = {av, label, NULL};
    amp_status st = each_box(v, device_ready_step, &a);
    *mem = a.mem;
    return st;
}

void amp__view_uploads_defer(void)
{
    LOCK_ASSERT_HELD();
    amp__stg_defer_begin();
}

amp_status amp__view_uploads_wait(void)
{
    LOCK_ASSERT_HELD();
    const char *call = "clWaitForEvents";
    cl_int rc = amp__stg_defer_end(&call);
    if (rc == CL_SUCCESS)
        return AMP_OK;
    return amp__err_set(AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                        "Uploading the data of a launch split across accelerators: %s failed with"
                        " %s (%d). The accelerator it was for is no longer usable; host memory"
                        " keeps its data. Choose another accelerator, or call amp_shutdown() and"
                        " start again.",
                        call, amp__err_cl_name(rc), (int)rc);
}

int amp__view_rows(const amp_array_view *v, int64_t lo, int64_t hi, amp_array_view *rows)
{
    *rows = *v;
    rows->array = NULL;
    if (lo < 0)
        lo = 0;
    if (hi > v->extent.dims[0])
        hi = v->extent.dims[0];
    if (hi <= lo)
        return 0;
    rows->offset += lo * v->strides[0];
    rows->extent.dims[0] = (int)(hi - lo);
    return 1;
}

amp_status amp__view_device_written(const amp_array_view *v, amp_accelerator_view *av)
{
    rg_plan plan;
    amp__view_plan(v, &plan);
    amp_status st = AMP_OK;
    for (int64_t k = 0, n = amp__rg_plan_count(&plan); k < n; k++) {
        rg_box box = amp__rg_plan_box(&plan, 0, k);
        amp_status w = amp__coh_device_written(v->src, av, &box);
        if (st == AMP_OK)
            st = w;
    }
    return st;
}

/* Make the view's boxes current in host memory; its source's start in
 * *host. */
static amp_status host_ready(const char *fn, amp_array_view *view, amp_transfer_reason reason,
                             void **host)
{
    amp_status st = amp__view_check_data(fn, "view", view);
    if (st != AMP_OK)
        return st;
    host_ready_arg a = {reason, NULL};
    st = each_box(view, host_ready_step, &a);
    *host = a.host;
    return st;
}

amp_status amp_array_view_synchronize(amp_array_view *view)
{
    static const char fn[] = "amp_array_view_synchronize";
    amp__lock_acquire();
    tl_call call;
    amp__view_call_begin(&call, view);
    amp_status st = amp__view_check(fn, view);
    void *host;
    if (st == AMP_OK)
        st = host_ready(fn, view, AMP_REASON_SYNCHRONIZE, &host);
    amp__view_call_end(&call, fn, st, view);
    amp__lock_release();
    return st;
}

void amp__view_hold(const amp_array_view *v, amp_array_view *held)
{
    LOCK_ASSERT_HELD();
    *held = *v;
    held->array = NULL; /* an array's handle may end first; its data stays held */
    amp__coh_source_retain(held->src);
}

amp_status amp__view_unhold(amp_array_view *held)
{
    LOCK_ASSERT_HELD();
    amp_status st = amp__coh_source_release(held->src);
    held->src = NULL;
    return st;
}

amp_status amp__view_synchronize_held(const char *fn, amp_array_view *held)
{
    void *host;
    return host_ready(fn, held, AMP_REASON_SYNCHRONIZE, &host);
}

amp_status amp__view_synchronize_to_held(const char *fn, amp_array_view *held,
                                         amp_accelerator_view *av)
{
    amp_status st = amp__view_check_data(fn, "view", held);
    if (st == AMP_OK) {
        device_ready_arg a = {av, held->label, NULL};
        st = each_box(held, device_ready_step, &a);
    }
    return st;
}

amp_status amp_array_view_synchronize_to(amp_array_view *view, amp_accelerator_view *av)
{
    static const char fn[] = "amp_array_view_synchronize_to";
    amp__lock_acquire();
    tl_call call;
    amp__view_call_begin(&call, view);
    amp_status st = amp__view_check(fn, view);
    if (st == AMP_OK)
        st = amp__queue_resolve_in(fn, av, &av);
    if (st == AMP_OK)
        st = amp__view_synchronize_to_held(fn, view, av);
    amp__view_call_end(&call, fn, st, view);
    amp__lock_release();
    return st;
}

static amp_status const_of(const char *fn, const amp_array_view *view, const derivation *how,
                           amp_array_view **out)
{
    (void)fn;
    (void)how;
    amp_array_view d = *view;
    d.is_const = 1;
    return derive(view, &d, out);
}

amp_status(amp_array_view_as_const)(const amp_array_view *view, amp_array_view **out)
{
    derivation how = {0};
    return derived_view("amp_array_view_as_const", view, const_of, &how, out);
}

/* The host address of the view's first element. */
static void *first_element(const amp_array_view *view, void *host)
{
    return (char *)host + view->offset * (int64_t)amp_elem_type_size(view->type);
}

amp_status amp_array_view_data(amp_array_view *view, void **out)
{
    static const char fn[] = "amp_array_view_data";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    amp__lock_acquire();
    tl_call call;
    amp__view_call_begin(&call, view);
    amp_status st = amp__view_check(fn, view);
    if (st == AMP_OK && view->is_const)
        st = amp__err_set(AMP_ERROR_INVALID_OPERATION,
                          "%s: the view is const; read it with amp_array_view_data_const().", fn);
    void *host = NULL;
    if (st == AMP_OK)
        st = host_ready(fn, view, AMP_REASON_HOST_ACCESS, &host);
    if (st == AMP_OK)
        st = each_box(view, host_written_step, NULL);
    if (st == AMP_OK)
        *out = first_element(view, host);
    amp__view_call_end(&call, fn, st, view);
    amp__lock_release();
    return st;
}

amp_status amp_array_view_data_const(amp_array_view *view, const void **out)
{
    static const char fn[] = "amp_array_view_data_const";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    amp__lock_acquire();
    tl_call call;
    amp__view_call_begin(&call, view);
    amp_status st = amp__view_check(fn, view);
    void *host = NULL;
    if (st == AMP_OK)
        st = host_ready(fn, view, AMP_REASON_HOST_ACCESS, &host);
    if (st == AMP_OK)
        *out = first_element(view, host);
    amp__view_call_end(&call, fn, st, view);
    amp__lock_release();
    return st;
}

amp_status amp_array_view_get_strides(const amp_array_view *view, int64_t strides[AMP_MAX_RANK])
{
    static const char fn[] = "amp_array_view_get_strides";
    if (!strides)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: strides is NULL.", fn);
    amp__lock_acquire();
    amp_status st = amp__view_check(fn, view);
    for (int d = 0; d < AMP_MAX_RANK; d++)
        strides[d] = st == AMP_OK && d < view->extent.rank ? view->strides[d] : 0;
    amp__lock_release();
    return st;
}

/* The byte of the view's data source where element idx starts, after
 * checking idx against the view. */
static amp_status element_at(const char *fn, const amp_array_view *view, amp_index idx,
                             int64_t *byte)
{
    char a[96], b[96];
    if (idx.rank != view->extent.rank)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the index has rank %d and the view rank %d; they must be equal.",
                            fn, idx.rank, view->extent.rank);
    int64_t at = view->offset;
    for (int d = 0; d < idx.rank; d++) {
        if (idx.i[d] < 0 || idx.i[d] >= view->extent.dims[d]) {
            amp_extent as_extent = {idx.rank, {0}};
            for (int k = 0; k < idx.rank; k++)
                as_extent.dims[k] = idx.i[k];
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                                "%s: index %s is outside the view's extent %s (dimension %d).", fn,
                                amp__view_extent_text(as_extent, a, sizeof a),
                                amp__view_extent_text(view->extent, b, sizeof b), d);
        }
        at += idx.i[d] * view->strides[d];
    }
    *byte = at * (int64_t)amp_elem_type_size(view->type);
    return AMP_OK;
}

amp_status amp_array_view_get(amp_array_view *view, amp_index idx, void *element)
{
    static const char fn[] = "amp_array_view_get";
    if (!element)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: element is NULL.", fn);
    amp__lock_acquire();
    tl_call call;
    amp__view_call_begin(&call, view);
    amp_status st = amp__view_check(fn, view);
    int64_t byte = 0;
    if (st == AMP_OK)
        st = element_at(fn, view, idx, &byte);
    /* C++ AMP's rule: a read on the host makes the whole view current
     * there, so the reads that follow move nothing. */
    void *host = NULL;
    if (st == AMP_OK)
        st = host_ready(fn, view, AMP_REASON_HOST_ACCESS, &host);
    if (st == AMP_OK)
        memcpy(element, (char *)host + byte, amp_elem_type_size(view->type));
    amp__view_call_end(&call, fn, st, view);
    amp__lock_release();
    return st;
}

amp_status amp_array_view_set(amp_array_view *view, amp_index idx, const void *element)
{
    static const char fn[] = "amp_array_view_set";
    if (!element)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: element is NULL.", fn);
    amp__lock_acquire();
    tl_call call;
    amp__view_call_begin(&call, view);
    amp_status st = amp__view_check(fn, view);
    if (st == AMP_OK && view->is_const)
        st = amp__err_set(AMP_ERROR_INVALID_OPERATION,
                          "%s: the view is const; write through a view that is not.", fn);
    int64_t byte = 0;
    if (st == AMP_OK)
        st = element_at(fn, view, idx, &byte);
    if (st == AMP_OK)
        st = amp__view_check_data(fn, "view", view);
    /* Only the element: its host bytes become the current ones, and every
     * device copy of them stale. Making it ready first gives the host
     * address (and moves at most the element, when a kernel wrote it). */
    size_t size = amp_elem_type_size(view->type);
    rg_box box = amp__rg_box_linear(byte, (int64_t)size);
    void *host = NULL;
    if (st == AMP_OK)
        st = amp__coh_host_ready(view->src, &box, AMP_REASON_HOST_ACCESS, &host);
    if (st == AMP_OK) {
        memcpy((char *)host + byte, element, size);
        st = amp__coh_host_written(view->src, &box);
    }
    amp__view_call_end(&call, fn, st, view);
    amp__lock_release();
    return st;
}

amp_status amp_array_view_discard_data(amp_array_view *view)
{
    amp__lock_acquire();
    tl_call call;
    amp__view_call_begin(&call, view);
    amp_status st = amp__view_check("amp_array_view_discard_data", view);
    if (st == AMP_OK && view->is_const)
        st = amp__err_set(AMP_ERROR_INVALID_OPERATION,
                          "amp_array_view_discard_data: the view is const, and shares its data"
                          " with the views that write it, whose results a discard would drop:"
                          " discard through a writable view of the data.");
    if (st == AMP_OK)
        st = each_box(view, discard_step, NULL);
    amp__view_call_end(&call, "amp_array_view_discard_data", st, view);
    amp__lock_release();
    return st;
}

amp_status amp_array_view_refresh(amp_array_view *view)
{
    amp__lock_acquire();
    tl_call call;
    amp__view_call_begin(&call, view);
    amp_status st = amp__view_check("amp_array_view_refresh", view);
    if (st == AMP_OK && amp__coh_source_user_host(view->src))
        st = each_box(view, host_written_step, NULL);
    amp__view_call_end(&call, "amp_array_view_refresh", st, view);
    amp__lock_release();
    return st;
}

/* What the getters read: a copy of a live view, taken under the lock, or
 * zeros for any other pointer (a released one is never read). */
static amp_array_view view_at(const amp_array_view *view)
{
    amp_array_view copy = {0};
    amp__lock_acquire();
    if (amp__view_is_live(view))
        copy = *view;
    amp__lock_release();
    return copy;
}

amp_extent amp_array_view_get_extent(const amp_array_view *view)
{
    return view_at(view).extent;
}

amp_elem_type amp_array_view_get_type(const amp_array_view *view)
{
    return view_at(view).type;
}

int amp_array_view_is_const(const amp_array_view *view)
{
    return view_at(view).is_const;
}

amp_status amp_array_view_get_transfers(const amp_array_view *view, amp_transfer_stats *out)
{
    static const char fn[] = "amp_array_view_get_transfers";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    amp__lock_acquire();
    amp_status st = amp__view_check(fn, view);
    if (st == AMP_OK)
        amp__coh_source_stats(view->src, out);
    amp__lock_release();
    return st;
}
