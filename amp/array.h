/*
 * amp/array.h - data that lives on an accelerator (C++ AMP's array<T, N>),
 * and explicit copies between arrays, views and host memory (copy and
 * copy_async).
 *
 * An array is bound to one accelerator view: its memory is allocated there
 * when it is created, kernels on that accelerator use it with no transfer,
 * and data moves in or out only through the copies below or through a view
 * of the array (amp_array_view_create_from_array). A kernel on another
 * accelerator that captures the array gets AMP_ERROR_INVALID_OPERATION:
 * copy it there first.
 *
 * The device holds an array's only copy: amp_shutdown() loses it. The array
 * and its views stay handles (release them as usual), and every call that
 * would read or write their data returns AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
 * leaving the other end of a copy untouched.
 */
#ifndef AMP_ARRAY_H
#define AMP_ARRAY_H

#include "accelerator.h"
#include "array_view.h"
#include "completion.h"
#include "extent.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct amp_array amp_array;

/*
 * A new array of the type and extent on av (NULL: the default accelerator
 * view), with undefined contents. Device memory is allocated now. Release
 * it with amp_array_release(). Returns AMP_ERROR_INVALID_ARGUMENT for an
 * unknown type, a bad extent or a NULL out; AMP_ERROR_OUT_OF_MEMORY when the
 * device cannot hold it (the message says how much it has); the statuses of
 * choosing the default accelerator.
 */
amp_status amp_array_create(amp_elem_type type, amp_extent extent, amp_accelerator_view *av,
                            amp_array **out);

/*
 * As amp_array_create(), filled with amp_extent_size(extent) elements from
 * host data (row-major), copied now. The caller keeps data.
 */
amp_status amp_array_create_from_host(amp_elem_type type, amp_extent extent, const void *data,
                                      amp_accelerator_view *av, amp_array **out);

/*
 * A new array on av (NULL: the default accelerator view) with the type,
 * extent and contents of a view or of another array: copied now, on the
 * device when both are there. Statuses as amp_array_create() and
 * amp_copy(): AMP_ERROR_INVALID_ARGUMENT for a NULL or released view or
 * array, AMP_ERROR_ACCELERATOR_VIEW_REMOVED for one whose data was lost.
 */
amp_status amp_array_create_from_view(const amp_array_view *view, amp_accelerator_view *av,
                                      amp_array **out);
amp_status amp_array_create_from_array(const amp_array *array, amp_accelerator_view *av,
                                       amp_array **out);

/*
 * Release an array and its device memory. Views made of it keep the data
 * alive until they are released too. NULL is a no-op. Returns
 * AMP_ERROR_INVALID_ARGUMENT for a handle already released.
 */
amp_status amp_array_release(amp_array *array);

/* The array's extent (rank 0 for a NULL or released array), element type
 * (0 then), and the accelerator view it lives on (NULL then, and after
 * amp_shutdown() released that view). */
amp_extent amp_array_get_extent(const amp_array *array);
amp_elem_type amp_array_get_type(const amp_array *array);
amp_accelerator_view *amp_array_get_accelerator_view(const amp_array *array);

/*
 * A view of the whole array (C++ AMP's array_view(array)): kernels on the
 * array's accelerator use it in place; host access through it copies the
 * bytes it needs to memory the library owns. A new handle; release it.
 */
amp_status amp_array_view_create_from_array(amp_array *array, amp_array_view **out);

/* ---- Copies ---- */

/* One end of a copy: an array, a view, or host memory shaped like the other
 * end (row-major, amp_extent_size elements). Make one with amp_data_of(), or
 * let AMP_COPY make both. */
typedef enum amp_data_kind { AMP_DATA_ARRAY = 1, AMP_DATA_VIEW, AMP_DATA_HOST } amp_data_kind;

typedef struct amp_data {
    amp_data_kind kind;
    union {
        amp_array *array;
        amp_array_view *view;
        void *host;
        const void *host_const;
    } as;
} amp_data;

/* amp_data_of(x): one end of a copy, by x's C type: an array (amp_array *),
 * a view (amp_array_view *), or else host memory, which takes the other
 * end's shape. It only wraps the pointer: nothing is checked or owned. */
/* clang-format off */
#define amp_data_of(x)                                                                             \
    _Generic((x),                                                                                  \
        amp_array *: amp__data_array,                                                              \
        const amp_array *: amp__data_array,                                                        \
        amp_array_view *: amp__data_view,                                                          \
        const amp_array_view *: amp__data_view,                                                    \
        default: amp__data_host)(x)
/* clang-format on */

/* The ends amp_data_of() makes, by kind. */
static inline amp_data amp__data_array(const amp_array *a)
{
    amp_data d = {AMP_DATA_ARRAY, {.array = (amp_array *)a}};
    return d;
}
static inline amp_data amp__data_view(const amp_array_view *v)
{
    amp_data d = {AMP_DATA_VIEW, {.view = (amp_array_view *)v}};
    return d;
}
static inline amp_data amp__data_host(const void *p)
{
    amp_data d = {AMP_DATA_HOST, {.host_const = p}};
    return d;
}

/*
 * Copy src to dst (C++ AMP's copy): every direction C++ AMP allows, array
 * to array, array to view, view to array, view to view, host to array or
 * view, array or view to host. Both ends must have the same number of
 * elements and the same element type (a host end takes the other's), and
 * views and arrays the same extent: an int view is not copied into a float
 * array (copy a view of amp_array_view_reinterpret_as() for the bits). Data
 * moves once, from where src is current to where dst lives (device to
 * device when both are on one accelerator); the ledger counts it as reason
 * "copy". Returns AMP_ERROR_INVALID_ARGUMENT for NULL, released or
 * mismatched ends, a const view as dst, or two host ends;
 * AMP_ERROR_ACCELERATOR_VIEW_REMOVED for an array, or a view of one, whose
 * data amp_shutdown() released (the other end is left as it was); OpenCL
 * failures as amp_array_view_synchronize().
 *   AMP_COPY(a, view)   is amp_copy(amp_data_of(a), amp_data_of(view))
 */
amp_status amp_copy(amp_data src, amp_data dst);
#define AMP_COPY(src, dst) amp_copy(amp_data_of(src), amp_data_of(dst))

/*
 * As amp_copy(), on another thread (C++ AMP's copy_async): the ends are
 * checked at the call, then it returns at once with a handle in *out to
 * wait on (amp/completion.h). As in C++ AMP, the copy keeps its ends alive
 * until it has run: a view or array released meanwhile still gives or
 * takes the data (a released view's host memory gets what the copy wrote),
 * and amp_host_free() of page-locked memory it uses is refused with
 * AMP_ERROR_INVALID_OPERATION until then. It runs where the call puts it,
 * before any later call of the library: a kernel launched after it that
 * writes its source or reads its destination runs after it (that call
 * waits for the part of the copy that runs under the runtime's lock), so
 * what runs beside the copy is the caller's own work. Plain host memory is the
 * caller's: keep it allocated, and do not write a source or read a
 * destination, until the copy completes. Returns what amp_copy() returns
 * for ends it refuses (no handle is made), AMP_ERROR_INVALID_ARGUMENT for a
 * NULL out, AMP_ERROR_OUT_OF_MEMORY or AMP_ERROR_RUNTIME when the thread
 * cannot start; the copy's own status comes from amp_completion_wait().
 */
amp_status amp_copy_async(amp_data src, amp_data dst, amp_completion **out);
#define AMP_COPY_ASYNC(src, dst, out) amp_copy_async(amp_data_of(src), amp_data_of(dst), (out))

/*
 * amp_array_view_synchronize() on another thread (C++ AMP's
 * synchronize_async): the view is checked at the call, and the handle in
 * *out completes when the host memory is current, even if the view was
 * released meanwhile. It runs before any later call of the library, as
 * amp_copy_async() does. Do not write through the view until then. Returns
 * AMP_ERROR_INVALID_ARGUMENT for a NULL out or a view that is not a live
 * one (no handle is made), AMP_ERROR_OUT_OF_MEMORY or AMP_ERROR_RUNTIME
 * when the thread cannot start.
 */
amp_status amp_array_view_synchronize_async(amp_array_view *view, amp_completion **out);

/*
 * amp_array_view_synchronize_to() on another thread (C++ AMP's
 * synchronize_to_async): the view and av (NULL: the default accelerator's
 * default view) are checked at the call, and the handle in *out completes
 * when av's copy of the view's data is current, even if the view or av was
 * released meanwhile (both are kept until then). It runs before any later
 * call of the library, as amp_copy_async() does. Do not write through the
 * view until then. Returns AMP_ERROR_INVALID_ARGUMENT for a NULL out, a
 * view that is not a live one or an accelerator view that is not (no handle
 * is made), AMP_ERROR_OUT_OF_MEMORY or AMP_ERROR_RUNTIME when the thread
 * cannot start; the copy's own status, and that of the view's data (an
 * array released with its device, say), come from amp_completion_wait().
 */
amp_status amp_array_view_synchronize_to_async(amp_array_view *view, amp_accelerator_view *av,
                                               amp_completion **out);

/* The functions above that make a handle, as macros that also record the
 * caller's file and line for the leak report (AMP__MADE_AT, amp/status.h). */
#define amp_array_create(...) AMP__MADE_AT(amp_array_create, __VA_ARGS__)
#define amp_array_create_from_host(...) AMP__MADE_AT(amp_array_create_from_host, __VA_ARGS__)
#define amp_array_create_from_view(...) AMP__MADE_AT(amp_array_create_from_view, __VA_ARGS__)
#define amp_array_create_from_array(...) AMP__MADE_AT(amp_array_create_from_array, __VA_ARGS__)
#define amp_array_view_create_from_array(...)                                                      \
    AMP__MADE_AT(amp_array_view_create_from_array, __VA_ARGS__)
#define amp_copy_async(...) AMP__MADE_AT(amp_copy_async, __VA_ARGS__)
#define amp_array_view_synchronize_async(...)                                                      \
    AMP__MADE_AT(amp_array_view_synchronize_async, __VA_ARGS__)
#define amp_array_view_synchronize_to_async(...)                                                   \
    AMP__MADE_AT(amp_array_view_synchronize_to_async, __VA_ARGS__)

/* ---- Deprecated spellings (docs/api.md, "Deprecated spellings") ---- */

/* Deprecated: amp_data_of(a), or AMP_COPY, which takes a itself. */
AMP__DEPRECATED("amp_data_of, or AMP_COPY with the array itself")
static inline amp_data amp_data_array(const amp_array *a)
{
    return amp__data_array(a);
}

/* Deprecated: amp_data_of(v), or AMP_COPY, which takes v itself. */
AMP__DEPRECATED("amp_data_of, or AMP_COPY with the view itself")
static inline amp_data amp_data_view(const amp_array_view *v)
{
    return amp__data_view(v);
}

/* Deprecated: amp_data_of(p), or AMP_COPY, which takes p itself. */
AMP__DEPRECATED("amp_data_of, or AMP_COPY with the pointer itself")
static inline amp_data amp_data_host(const void *p)
{
    return amp__data_host(p);
}

#ifdef __cplusplus
}
#endif

#endif
