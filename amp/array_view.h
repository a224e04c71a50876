/*
 * amp/array_view.h - views of host memory that move to the device and back
 * by themselves (C++ AMP's array_view<T, N>).
 *
 * A view wraps memory the caller owns. The library copies it to a device
 * only when a kernel uses it and the device copy is stale, and copies it
 * back only when the host asks: amp_array_view_synchronize(), host access
 * through amp_array_view_data(), or amp_array_view_release() of the last
 * view of that memory. A view that kernels only read is never copied back.
 *
 * Views created over the same host pointer share one data source, so they
 * stay coherent with each other. Views over overlapping but different
 * pointers are separate data sources, as in C++ AMP: keep them apart.
 *
 * The caller's memory must stay allocated until the last view of it is
 * released, and must not be touched directly between a kernel's use of the
 * view and the next synchronize (use amp_array_view_refresh() after writing
 * it directly).
 */
#ifndef AMP_ARRAY_VIEW_H
#define AMP_ARRAY_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "accelerator.h"
#include "extent.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The element types a view can hold and a kernel can capture: scalars, and
 * C++ AMP's short vectors of them (amp/short_vector.h: AMP_FLOAT_3 is an
 * amp_float_3, float_3 in kernels). Plain structs registered with
 * amp_struct_register() (amp/struct_type.h) are element types too,
 * numbered from 64. */
typedef enum amp_elem_type {
    AMP_INT = 1,  /* int, 32 bits */
    AMP_UINT = 2, /* unsigned, 32 bits */
    AMP_FLOAT = 3,
    AMP_DOUBLE = 4, /* only on devices with double precision */
    AMP_INT_2 = 5,  /* amp_int_2 ... amp_double_4 */
    AMP_INT_3 = 6,
    AMP_INT_4 = 7,
    AMP_UINT_2 = 8,
    AMP_UINT_3 = 9,
    AMP_UINT_4 = 10,
    AMP_FLOAT_2 = 11,
    AMP_FLOAT_3 = 12,
    AMP_FLOAT_4 = 13,
    AMP_DOUBLE_2 = 14,
    AMP_DOUBLE_3 = 15,
    AMP_DOUBLE_4 = 16,
    /* Textures only (amp/texture.h): C++ AMP's norm and unorm, floats kept in
     * [-1, 1] and [0, 1], stored in 8 or 16 bits. A view of them holds float.
     * Numbered apart from the types views hold. */
    AMP_NORM = 32,
    AMP_UNORM = 33
} amp_elem_type;

/* The size in bytes of one element of the type, 0 for an unknown type and
 * for AMP_NORM and AMP_UNORM, which are no view's element type. */
size_t amp_elem_type_size(amp_elem_type type);

/* The name of the type as kernels spell it ("int", "uint", "float",
 * "double", "float_3" ..., a struct's name; "norm", "unorm"), or "unknown". */
const char *amp_elem_type_name(amp_elem_type type);

typedef struct amp_array_view amp_array_view;

/*
 * Wrap data, an array of amp_extent_size(extent) elements of the given type
 * in row-major order, in a new view stored in *out. No data moves yet.
 * The caller keeps ownership of data; the view must be released with
 * amp_array_view_release().
 * Returns AMP_ERROR_INVALID_ARGUMENT for a NULL data or out, an unknown
 * type, a rank outside 1..AMP_MAX_RANK (8), a dimension <= 0, host memory already
 * wrapped by a live view of a smaller size (views of one pointer share one
 * data source, whatever their element types), or (in C, through this
 * macro called with four arguments, none of them a compound literal) data
 * whose pointer type is int *, unsigned *, float * or double *
 * and whose scalar is not the type's (an AMP_DOUBLE view of a float array;
 * int and unsigned may view each other; cast to void * to view the bytes as
 * another type on purpose);
 * AMP_ERROR_OUT_OF_MEMORY when the handle cannot be allocated.
 */
amp_status amp_array_view_create(amp_elem_type type, amp_extent extent, void *data,
                                 amp_array_view **out);

/*
 * As amp_array_view_create(), for a read-only view (C++ AMP's
 * array_view<const T, N>). Kernels see it as const, so writing to it is a
 * compile error, and it is never copied back to the host.
 */
amp_status amp_array_view_create_const(amp_elem_type type, amp_extent extent, const void *data,
                                       amp_array_view **out);

/*
 * Release a view. When it is the last view of its data and the host copy is
 * stale, the data is first copied back (as C++ AMP's destructor does),
 * unless it was discarded. NULL is a no-op that returns AMP_OK.
 * The handle is gone afterwards even when the copy-back failed: the status
 * says so, and the host memory holds what it held before the copy.
 * Returns AMP_ERROR_INVALID_ARGUMENT for a handle already released, and the
 * statuses of amp_array_view_synchronize().
 */
amp_status amp_array_view_release(amp_array_view *view);

/*
 * Make the host memory current: copy the data back from the device that
 * holds the newest copy, if the host copy is stale. Waits for kernels that
 * write the view. Returns AMP_ERROR_INVALID_ARGUMENT for a NULL or released
 * view, AMP_ERROR_ACCELERATOR_VIEW_REMOVED when the device was lost or a
 * kernel aborted, or for a view of an array whose data amp_shutdown()
 * released with its device; AMP_ERROR_RUNTIME for other OpenCL failures.
 */
amp_status amp_array_view_synchronize(amp_array_view *view);

/*
 * Host access for reading and writing: synchronize, then store the host
 * pointer in *out: the address of the view's element (0, ..., 0). Element
 * idx is at out + sum of idx[d] * strides[d] elements, the strides of
 * amp_array_view_get_strides(): a whole view's are row-major, a section's
 * are its parent's (its rows are not adjacent). Device copies are treated as
 * stale afterwards, since the caller may write through the pointer. Returns
 * the statuses of amp_array_view_synchronize(); AMP_ERROR_INVALID_OPERATION
 * for a const view (use amp_array_view_data_const()).
 */
amp_status amp_array_view_data(amp_array_view *view, void **out);

/*
 * Host access for reading only: synchronize, then store the host pointer in
 * *out, laid out as amp_array_view_data() says. Device copies stay current.
 * Returns the statuses of amp_array_view_synchronize().
 */
amp_status amp_array_view_data_const(amp_array_view *view, const void **out);

/*
 * The strides of the pointer amp_array_view_data() gives: strides[d] is the
 * number of elements from element idx to the element one further in
 * dimension d, for d < rank; the last is 1. Entries past the rank are set
 * to 0. Returns AMP_ERROR_INVALID_ARGUMENT for a NULL or released view or a
 * NULL strides.
 */
amp_status amp_array_view_get_strides(const amp_array_view *view, int64_t strides[AMP_MAX_RANK]);

/*
 * Read element idx of the view on the host into *element (amp_elem_type_size()
 * bytes), as C++ AMP's view(idx) reads it there: the view's data is made
 * current in host memory first, all of it (one download when a kernel wrote
 * it, none for the reads that follow). Returns AMP_ERROR_INVALID_ARGUMENT
 * for a NULL or released view, a NULL element, an index of another rank or
 * outside the view's extent (the message gives both); the statuses of
 * amp_array_view_synchronize().
 */
amp_status amp_array_view_get(amp_array_view *view, amp_index idx, void *element);

/*
 * Write *element (amp_elem_type_size() bytes) to element idx of the view on the
 * host, as C++ AMP's view(idx) = value there: the element's bytes in host
 * memory are written, and every device copy of that element is stale from
 * then on (the next kernel that uses the view uploads it, with the other
 * elements written the same way). Nothing else of the view moves. Returns
 * the statuses of amp_array_view_get(), and AMP_ERROR_INVALID_OPERATION for
 * a const view.
 */
amp_status amp_array_view_set(amp_array_view *view, amp_index idx, const void *element);

/*
 * Declare the current contents unneeded (C++ AMP's discard_data): the next
 * kernel that uses the view does not upload it, and the next host access
 * does not download it. Lasts only until the next write. Returns
 * AMP_ERROR_INVALID_ARGUMENT for a NULL or released view,
 * AMP_ERROR_INVALID_OPERATION for a const view: it shares its data with
 * the views that write it (of the same host memory, or the view
 * amp_array_view_as_const() was made from), whose results a discard would
 * drop; discard through a writable view.
 */
amp_status amp_array_view_discard_data(amp_array_view *view);

/*
 * Tell the view that its host memory was written directly (C++ AMP's
 * refresh): device copies become stale, and the next kernel uploads again.
 * Returns AMP_ERROR_INVALID_ARGUMENT for a NULL or released view.
 */
amp_status amp_array_view_refresh(amp_array_view *view);

/*
 * A view with no host memory of the caller's (C++ AMP's array_view(extent)):
 * its storage is made where it is first used, on a device for a kernel and
 * in memory the library owns for host access. Its contents are undefined
 * until written. Release it with amp_array_view_release(). Statuses as
 * amp_array_view_create(), without the ones about data.
 */
amp_status amp_array_view_create_extent(amp_elem_type type, amp_extent extent,
                                        amp_array_view **out);

/*
 * A view of part of view (C++ AMP's section): the elements from origin, of
 * the given extent, in the same data. Writes through either are seen by the
 * other; synchronizing the section moves only its bytes. The section is a
 * new handle (release it; the data stays alive until every view of it is
 * released) and is const when view is. Returns AMP_ERROR_INVALID_ARGUMENT
 * for a NULL or released view or out, ranks that differ, or a section that
 * does not fit inside the view.
 */
amp_status amp_array_view_section(const amp_array_view *view, amp_index origin, amp_extent extent,
                                  amp_array_view **out);

/*
 * The rank N-1 view of view with its leading index fixed at i (C++ AMP's
 * view[i] on a view of rank 2 or 3): row i of a matrix. A new handle, as
 * with amp_array_view_section(). Returns AMP_ERROR_INVALID_ARGUMENT for a
 * rank-1 view or an i outside its leading dimension.
 */
amp_status amp_array_view_project(const amp_array_view *view, int i, amp_array_view **out);

/*
 * The same elements with another extent of the same size (C++ AMP's
 * view_as): a rank-1 view of 12 elements as 3x4, or a matrix as a vector.
 * The view's elements must be contiguous. A new handle. Returns
 * AMP_ERROR_INVALID_ARGUMENT for another number of elements, a bad extent,
 * or a section of part of each row.
 */
amp_status amp_array_view_view_as(const amp_array_view *view, amp_extent extent,
                                  amp_array_view **out);

/*
 * The same bytes as elements of another type (C++ AMP's reinterpret_as):
 * a rank-1 view of n floats as n ints, or of 2n ints as n doubles. Only for
 * rank-1 views whose bytes and offset are whole elements of the new type.
 * A new handle. Returns AMP_ERROR_INVALID_ARGUMENT otherwise.
 */
amp_status amp_array_view_reinterpret_as(const amp_array_view *view, amp_elem_type type,
                                         amp_array_view **out);

/*
 * A read-only view of all of view's data (C++ AMP's array_view<const T, N>
 * made from an array_view<T, N>, or from an array through
 * amp_array_view_create_from_array()): the same elements, extent and data,
 * seen as amp_array_view_create_const() sees host memory. Kernels that
 * capture it only read it, and it is never copied back for them; writes
 * through view are seen through it. A new handle (release it; the data
 * stays alive until every view of it is released). Returns
 * AMP_ERROR_INVALID_ARGUMENT for a NULL or released view or a NULL out,
 * AMP_ERROR_OUT_OF_MEMORY when the handle cannot be allocated.
 */
amp_status amp_array_view_as_const(const amp_array_view *view, amp_array_view **out);

/*
 * Make the view's data current on the device of av (NULL: the default
 * accelerator view), uploading its stale bytes now rather than at the next
 * kernel (C++ AMP's synchronize_to). Statuses as amp_array_view_synchronize().
 */
amp_status amp_array_view_synchronize_to(amp_array_view *view, amp_accelerator_view *av);

/* ---- Page-locked host memory (C++ AMP's staging arrays) ---- */

/*
 * Allocate bytes of page-locked host memory for data that moves to and from
 * av's accelerator (NULL: the default accelerator view), and store its
 * address in *out. It is host memory like malloc's, aligned to 64 bytes,
 * with undefined contents; views made over it (amp_array_view_create, or
 * an amp_copy host end) move between it and that accelerator at the
 * speed of the link, since the driver copies page-locked memory straight
 * to the device. With other accelerators it works as any host memory. It
 * stays valid until amp_host_free(), amp_shutdown() included.
 * Returns AMP_ERROR_INVALID_ARGUMENT for a NULL out or bytes 0;
 * AMP_ERROR_OUT_OF_MEMORY when the driver cannot lock that much, or when
 * it is more than the accelerator allocates at once (max_allocation);
 * the statuses of choosing the default accelerator; AMP_ERROR_RUNTIME for
 * other OpenCL failures.
 */
amp_status amp_host_alloc(size_t bytes, amp_accelerator_view *av, void **out);

/*
 * Free memory from amp_host_alloc(). Release every view of it first. NULL
 * is a no-op that returns AMP_OK. Returns AMP_ERROR_INVALID_ARGUMENT for a
 * pointer that amp_host_alloc() did not return (or that was freed),
 * AMP_ERROR_INVALID_OPERATION (and frees nothing) while a view of the
 * memory is alive, AMP_ERROR_RUNTIME when the driver failed to unlock it
 * (it is freed all the same).
 */
amp_status amp_host_free(void *p);

/* The view's extent; rank 0 for a NULL or released view. */
amp_extent amp_array_view_get_extent(const amp_array_view *view);

/* The view's element type; 0 for a NULL or released view. */
amp_elem_type amp_array_view_get_type(const amp_array_view *view);

/* Nonzero when the view is read-only; 0 for a NULL or released view. */
int amp_array_view_is_const(const amp_array_view *view);

/* The functions above that make a handle, as macros that also record the
 * caller's file and line for the leak report (AMP__MADE_AT, amp/status.h). */
#ifndef __cplusplus
/* The scalar type data points to, as an amp_elem_type (0: another). The
 * expression is not evaluated. */
#define AMP__DATA_TYPE(data)                                                                       \
    _Generic((data),                                                                               \
        int *: AMP_INT,                                                                            \
        const int *: AMP_INT,                                                                      \
        unsigned *: AMP_UINT,                                                                      \
        const unsigned *: AMP_UINT,                                                                \
        float *: AMP_FLOAT,                                                                        \
        const float *: AMP_FLOAT,                                                                  \
        double *: AMP_DOUBLE,                                                                      \
        const double *: AMP_DOUBLE,                                                                \
        default: 0)
/* The data argument where the call has exactly four macro arguments (type,
 * extent, data, out), else 0: an extent or data written as a compound
 * literal, (amp_extent){2, {4, 8}} or (float[]){1, 2, 3}, is more than one
 * macro argument, and which of them is the data cannot be told (such calls,
 * up to 64 pieces, are not checked). */
#define AMP__DATA_ARG(...) AMP__DATA_ARG_IF(AMP__FOUR_ARGS(__VA_ARGS__), __VA_ARGS__)
#define AMP__DATA_ARG_IF(four, ...) AMP__DATA_ARG_IF_(four, __VA_ARGS__)
#define AMP__DATA_ARG_IF_(four, ...) AMP__DATA_ARG_##four(__VA_ARGS__)
#define AMP__DATA_ARG_1(type, extent, data, out) data
#define AMP__DATA_ARG_0(...) 0
#define AMP__FOUR_ARGS(...)                                                                        \
    AMP__ARG_65(__VA_ARGS__, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  \
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,   \
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0)
#define AMP__ARG_65(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17,    \
                    _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32,     \
                    _33, _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44, _45, _46, _47,     \
                    _48, _49, _50, _51, _52, _53, _54, _55, _56, _57, _58, _59, _60, _61, _62,     \
                    _63, _64, n, ...)                                                              \
    n
#define amp_array_view_create(...)                                                                 \
    AMP__MADE_OVER(amp_array_view_create, AMP__DATA_TYPE(AMP__DATA_ARG(__VA_ARGS__)), __VA_ARGS__)
#define amp_array_view_create_const(...)                                                           \
    AMP__MADE_OVER(amp_array_view_create_const, AMP__DATA_TYPE(AMP__DATA_ARG(__VA_ARGS__)),        \
                   __VA_ARGS__)
#else
#define amp_array_view_create(...) AMP__MADE_AT(amp_array_view_create, __VA_ARGS__)
#define amp_array_view_create_const(...) AMP__MADE_AT(amp_array_view_create_const, __VA_ARGS__)
#endif
#define amp_array_view_create_extent(...) AMP__MADE_AT(amp_array_view_create_extent, __VA_ARGS__)
#define amp_array_view_section(...) AMP__MADE_AT(amp_array_view_section, __VA_ARGS__)
#define amp_array_view_project(...) AMP__MADE_AT(amp_array_view_project, __VA_ARGS__)
#define amp_array_view_view_as(...) AMP__MADE_AT(amp_array_view_view_as, __VA_ARGS__)
#define amp_array_view_reinterpret_as(...) AMP__MADE_AT(amp_array_view_reinterpret_as, __VA_ARGS__)
#define amp_array_view_as_const(...) AMP__MADE_AT(amp_array_view_as_const, __VA_ARGS__)

/* ---- Deprecated spellings (docs/api.md, "Deprecated spellings") ---- */

/* Deprecated: amp_elem_type_size(), the same call. */
AMP__DEPRECATED("amp_elem_type_size") size_t amp_elem_size(amp_elem_type type);

#ifdef __cplusplus
}
#endif

#endif
