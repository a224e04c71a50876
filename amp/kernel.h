/*
 * amp/kernel.h - parallel_for_each and the macros that write kernels inline.
 *
 * C++ AMP:
 *
 *     parallel_for_each(product.extent, [=](index<2> idx) restrict(amp) {
 *         for (int inner = 0; inner < 2; inner++)
 *             product[idx] += a(idx[0], inner) * b(inner, idx[1]);
 *     });
 *
 * C, with this library:
 *
 *     status = AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(product), idx,
 *                                    AMP_CAPTURE(a, b, product), {
 *         for (int inner = 0; inner < 2; inner++)
 *             product(idx) += a(idx[0], inner) * b(inner, idx[1]);
 *     });
 *
 * The body is OpenCL C. It is turned into a string by the preprocessor and
 * never compiled by the host compiler; the runtime wraps it in a generated
 * kernel (set AMP_DUMP_KERNELS=<dir> to read it) and compiles it for the
 * device the first time the call runs. Later calls from the same place find
 * the compiled kernel without any string work.
 *
 * Inside the body:
 * - idx[0] .. idx[rank-1] (you name it): the thread's index in the domain,
 *   of rank 1 to 8 (tiled: 1 to 3).
 * - For a tiled domain, t_idx (you name it) has the arrays global[],
 *   local[], tile[], tile_origin[] and tile_extent[], and the barrier:
 *   t_idx.barrier.wait(), wait_with_all_memory_fence(),
 *   wait_with_global_memory_fence(), wait_with_tile_static_memory_fence().
 * - Each captured view v: v(i), v(i, j), v(i, j, k) ... (one per dimension,
 *   up to 8) are its elements, and v(idx), v[idx], v(t_idx), v[i][j] as in
 *   C++ AMP.
 *   v_extent[d] is its extent. A view the body never writes is passed as
 *   const, and is never copied back. A view of an AMP_STRUCT type gives
 *   v(i).member (amp/struct_type.h).
 * - Each captured texture t (amp/texture.h): t(i), t(i, j), t(i, j, k) or
 *   t(idx) read a texel (0 outside the texture), amp_sample(t, x[, y[, z]])
 *   samples a float texture at normalized coordinates with linear
 *   filtering, t_extent[d] is its extent. Textures are read only.
 * - Each captured scalar is a const variable of the same name and value; a
 *   captured amp_index or amp_extent is an index<N> or extent<N> value (a
 *   tiled extent, its extent).
 * - Each AMP_CONST(NAME) is a compile-time constant (#define NAME value), for
 *   tile sizes and array bounds.
 * - tile_static arrays, declared anywhere in the body; they are moved to the
 *   top of the kernel, where OpenCL C requires them.
 * - C++ AMP's atomics (atomic_fetch_add ... atomic_compare_exchange), free
 *   fences (all_memory_fence ...), fast_math_NAME and precise_math_NAME
 *   functions, printf, and captured AMP_FUNCTION helpers.
 * - AMP_PRAGMA(...), AMP_IF(...), AMP_ELSE, AMP_ENDIF, AMP_DEFINE(...):
 *   preprocessor lines, which a macro argument cannot hold otherwise.
 * docs/kernels.md describes each.
 */
#ifndef AMP_KERNEL_H
#define AMP_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "accelerator.h"
#include "array.h"
#include "array_view.h"
#include "capture_map.h"
#include "extent.h"
#include "limits.h"
#include "short_vector.h"
#include "status.h"
#include "texture.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum amp_capture_kind {
    AMP_CAPTURE_INVALID = 0,  /* a value of a type kernels cannot take */
    AMP_CAPTURE_VIEW = 1,     /* an amp_array_view *, bound by name */
    AMP_CAPTURE_SCALAR = 2,   /* an int, unsigned, float or double, by value */
    AMP_CAPTURE_CONSTANT = 3, /* an AMP_CONST(NAME), a compile-time constant */
    AMP_CAPTURE_FUNCTION = 4, /* an AMP_FUNCTION, callable from the kernel */
    AMP_CAPTURE_TEXTURE = 5,  /* an amp_texture *, read only, bound by name */
    AMP_CAPTURE_INDEX = 6,    /* an amp_index, by value: an index<N> in the kernel */
    AMP_CAPTURE_EXTENT = 7,   /* an amp_extent (or a tiled extent's extent), by value */
    AMP_CAPTURE_STRUCT = 8    /* a registered struct's value, AMP_VALUE(type, x) */
} amp_capture_kind;

/* A value of a registered struct type (amp/struct_type.h) for a kernel,
 * by value as C++ AMP's [=] captures it; made by AMP_VALUE(type, x). The
 * kernel reads the bytes at data when the call runs. */
typedef struct amp_struct_value {
    const char *name; /* the variable's name: the kernel's too */
    const char *type; /* the struct's name, as AMP_STRUCT declared it */
    const void *data;
    size_t size;
} amp_struct_value;

/* A named integer constant for the kernel; made by AMP_CONST(). */
typedef struct amp_constant {
    const char *name;
    long long value;
} amp_constant;

/* A helper function kernels can call, like a restrict(amp) function; made
 * by AMP_FUNCTION() and captured by its name. */
typedef struct amp_function {
    const char *name;
    const char *source; /* OpenCL C: the whole definition, host macros expanded */
    const char *file;   /* where it is defined, for build errors inside it */
    int line;
    void (*host)(void); /* an AMP_SHARED_FUNCTION's host twin, as written; else NULL */
} amp_function;

/* One captured variable: its name in the kernel, and its value. */
typedef struct amp_capture {
    const char *name;
    amp_capture_kind kind;
    amp_elem_type type; /* the scalar's type */
    union {
        amp_array_view *view;
        amp_texture *texture;
        int i;
        unsigned u;
        float f;
        double d;
        long long constant;
        amp_function function;
        amp_index index;
        amp_extent extent;
        double vector[4]; /* a short vector's bytes (type AMP_INT_2 ... AMP_DOUBLE_4) */
        amp_struct_value object;
    } value;
} amp_capture;

/* The captures of one call; made by AMP_CAPTURE(). */
typedef struct amp_capture_list {
    int count;
    const amp_capture *items;
} amp_capture_list;

/* Where a kernel body comes from; made by the AMP_PARALLEL_FOR_EACH macros.
 * The runtime keys its kernel cache on the address of body, so body must
 * be a string that lives as long as the process (a string literal). A
 * string rewritten in place is another body: each launch compares the text
 * with the one its cached kernel was compiled from. */
typedef struct amp_kernel_source {
    const char *file; /* the call site, for messages and dumps */
    int line;
    const char *index_name; /* the name the body gives its index */
    const char *body;       /* OpenCL C statements, usually in braces */
    size_t body_length;
    int from_file; /* body is a file's text: used as written, at kernel scope */
} amp_kernel_source;

/*
 * Load a kernel body from a file, for kernels too large for a macro or that
 * need preprocessor directives. The file holds the statements of the body
 * (what goes between the braces of AMP_PARALLEL_FOR_EACH), written at
 * kernel scope: tile_static declarations at its top level are legal as they
 * are, and build errors name the file's own lines. index_name is the name
 * the body gives its index ("idx", "t_idx"). Release with
 * amp_kernel_source_release(); the kernel compiled from it stays cached
 * until then. Only a regular file of at most 16 MiB is read: a device,
 * a FIFO or a folder is refused without reading (and without waiting).
 * Returns AMP_ERROR_INVALID_ARGUMENT for a NULL argument, an index name
 * that is not an identifier, a path that is not a regular file or a file
 * over 16 MiB; AMP_ERROR_RUNTIME (with the system's reason) when the file
 * cannot be opened or read; AMP_ERROR_OUT_OF_MEMORY.
 */
amp_status amp_kernel_source_load(const char *path, const char *index_name,
                                  amp_kernel_source **out);

/*
 * Release a kernel source loaded from a file, and the kernels compiled from
 * it. NULL is a no-op that returns AMP_OK. Returns
 * AMP_ERROR_INVALID_ARGUMENT, with the handle untouched, for a source
 * already released, a source made by AMP_KERNEL_SOURCE(...) (it belongs to
 * its call site and is never released) or any other pointer the library
 * did not make.
 */
amp_status amp_kernel_source_release(amp_kernel_source *source);

/*
 * Run kernel once for every index of domain, on the accelerator view av
 * (NULL: the default view), as C++ AMP's parallel_for_each(extent, lambda).
 * Captured views are uploaded first if their device copy is stale; views the
 * kernel writes are stale on the host afterwards. The call returns once the
 * kernel is queued; amp_array_view_synchronize() waits for its results.
 *
 * Returns AMP_OK, or:
 * - AMP_ERROR_INVALID_ARGUMENT: NULL kernel, a kernel source released with
 *   amp_kernel_source_release() (never read), a NULL or released view,
 *   array or texture, a capture of a type kernels cannot take, a capture
 *   that is not a name;
 * - AMP_ERROR_INVALID_OPERATION: an array or a texture that lives on
 *   another accelerator;
 * - AMP_ERROR_INVALID_COMPUTE_DOMAIN: a rank outside 1..AMP_MAX_RANK (8), a
 *   dimension <= 0,
 *   more threads than the device can index;
 * - AMP_ERROR_KERNEL_BUILD: the kernel did not compile (the message has the
 *   build log and the numbered generated source);
 * - AMP_ERROR_UNSUPPORTED_FEATURE: double used on a device without it;
 * - AMP_ERROR_ACCELERATOR_VIEW_REMOVED: the device was lost, or an
 *   array's or a texture's data was lost with it (amp_shutdown);
 * - AMP_ERROR_OUT_OF_MEMORY, AMP_ERROR_DEVICE_LIMIT, AMP_ERROR_RUNTIME,
 *   AMP_ERROR_NO_DEVICE.
 * On failure no data has moved to the host and the host memory of every
 * view is as it was.
 */
amp_status amp_parallel_for_each(amp_accelerator_view *av, amp_extent domain,
                                 const amp_kernel_source *kernel, amp_capture_list captures);

/*
 * As amp_parallel_for_each(), over a tiled domain (C++ AMP's
 * parallel_for_each(extent.tile<...>(), lambda)): the threads of one tile
 * run together, share tile_static memory and meet at barriers.
 * Returns, besides the statuses above, AMP_ERROR_INVALID_COMPUTE_DOMAIN for
 * an extent of rank over 3 (tiles have rank 1 to 3, as in C++ AMP), a tile
 * whose rank differs from the extent's, a tile dimension <= 0, or an
 * extent that the tile does not divide (the message names both), and
 * AMP_ERROR_DEVICE_LIMIT for a tile over the device's maximum work-group
 * size or tile_static memory over its local memory.
 */
amp_status amp_parallel_for_each_tiled(amp_accelerator_view *av, amp_tiled_extent domain,
                                       const amp_kernel_source *kernel, amp_capture_list captures);

/* A set of accelerator views, one target of a launch (amp/accelerator_set.h). */
typedef struct amp_accelerator_set amp_accelerator_set;

/*
 * amp_parallel_for_each() over a set: split across its accelerators when
 * the kernel provably writes each view only at the thread's own index (or
 * only at its tile's), else run whole on the view of the largest weight
 * (the first of them). A set of one view is a launch on that view. The
 * call returns once every part is queued; amp_array_view_synchronize()
 * gathers the results.
 *
 * Returns the statuses of amp_parallel_for_each(), and
 * AMP_ERROR_INVALID_ARGUMENT for a NULL, released or foreign set, or one
 * whose views amp_shutdown() ended; AMP_ERROR_ACCELERATOR_VIEW_REMOVED
 * when an upload of a part fails (its accelerator is removed). When a part
 * fails, the parts queued before it run, and their rows count as written
 * where they ran: every view's data stays consistent. Rows on their way
 * from one accelerator to another pass through the view's host memory,
 * where the host's copy was stale; nothing else in host memory changes.
 */
amp_status amp_parallel_for_each_set(amp_accelerator_set *set, amp_extent domain,
                                     const amp_kernel_source *kernel, amp_capture_list captures);

/*
 * amp_parallel_for_each_tiled() over a set: split in whole rows of tiles.
 * Returns the statuses of amp_parallel_for_each_tiled() and of
 * amp_parallel_for_each_set().
 */
amp_status amp_parallel_for_each_tiled_set(amp_accelerator_set *set, amp_tiled_extent domain,
                                           const amp_kernel_source *kernel,
                                           amp_capture_list captures);


/* What the kernel caches did in this process. A program run a second time
 * with the disk cache on (AMP_CACHE, AMP_CACHE_DIR) shows builds == 0. */
typedef struct amp_kernel_stats {
    uint64_t builds;     /* kernels compiled from source */
    uint64_t cache_hits; /* calls that found their compiled kernel in memory */
    uint64_t disk_hits;  /* kernels loaded from the on-disk cache, not compiled */
} amp_kernel_stats;

/*
 * Store the kernel cache's counts in *out. Returns AMP_ERROR_INVALID_ARGUMENT
 * for a NULL out.
 */
amp_status amp_kernel_get_stats(amp_kernel_stats *out);

/* ---- Macros ---- */

/* Capture views, textures and scalars by name: AMP_CAPTURE(a, b, n, AMP_CONST(TS)). */
#define AMP_CAPTURE(...)                                                                           \
    ((amp_capture_list){AMP__NARGS(__VA_ARGS__),                                                   \
                        (const amp_capture[]){AMP__MAP(AMP__CAPTURE_ONE, __VA_ARGS__)}})

/* A kernel that captures nothing. */
#define AMP_NO_CAPTURE ((amp_capture_list){0, NULL})

/* A compile-time integer constant for the kernel, under its own name. Works
 * for host macros (#define TS 16) and for const variables alike. A float or
 * double does not compile: the cast to an integer would drop its fraction
 * without a word (capture a floating-point value by name instead). */
#define AMP_CONST(name) ((amp_constant){#name, (long long)(name) + AMP__CONST_INTEGER(name)})

/* A struct's value for the kernel, captured by value as C++ AMP's [=]
 * captures one: AMP_CAPTURE(v, AMP_VALUE(params, p)) with p a params, a
 * struct declared with AMP_STRUCT and registered (amp_struct_register). In
 * the kernel p is a const params; its array members and short vectors
 * too. x must be a variable of that type (a pointer mismatch warning says
 * otherwise). */
#define AMP_VALUE(type, x)                                                                         \
    ((amp_struct_value){#x, #type, (1 ? &(x) : (const type *)0), sizeof(type)})

/* The kernel source of a body written at this place in the file. */
#define AMP_KERNEL_SOURCE(index, ...)                                                              \
    (&(const amp_kernel_source){__FILE__, __LINE__, #index, #__VA_ARGS__,                          \
                                sizeof(#__VA_ARGS__) - 1, 0})

/* A helper function for kernels, at file scope:
 *     AMP_FUNCTION(float, lerp, (float a, float b, float t), { return a + (b - a) * t; });
 * then AMP_CAPTURE(..., lerp) makes lerp callable in that kernel. The body is
 * OpenCL C, as a kernel body is, and host macros expand in it as they do in
 * a kernel body. Capture a function before the functions that call it. */
#define AMP_FUNCTION(ret, name, params, ...)                                                       \
    static const amp_function name = {#name, AMP__STRING(ret name params __VA_ARGS__), __FILE__,   \
                                      __LINE__, NULL}

/* A function for both sides (C++ AMP's restrict(cpu, amp)), at file scope:
 *     AMP_SHARED_FUNCTION(float, lerp, (float a, float b, float t), { return a + (b - a) * t; });
 * defines lerp, a static C function that host code calls as written, and
 * its OpenCL C twin, which a kernel captures as AMP_SHARED(lerp):
 *     AMP_PARALLEL_FOR_EACH(e, idx, AMP_CAPTURE(v, AMP_SHARED(lerp)), {
 *         v(idx) = lerp(v(idx), 1.0f, 0.5f); });
 * The body is compiled twice, so it must mean the same in C and in OpenCL
 * C: scalars, registered struct types (amp/struct_type.h), other shared
 * functions, and C++ AMP's math functions, which amp/math.h gives the host
 * under the kernels' names (fast_math_sqrt, precise_math_sqrtf ...). Host
 * macros expand in it once, for both sides. */
#define AMP_SHARED_FUNCTION(ret, name, params, ...)                                                \
    static ret name params __VA_ARGS__ static const amp_function AMP_SHARED(name) = {              \
        #name, AMP__STRING(ret name params __VA_ARGS__), __FILE__, __LINE__, (void (*)(void))name}

/* The kernel's side of an AMP_SHARED_FUNCTION, to capture:
 * AMP_CAPTURE(..., AMP_SHARED(lerp)). */
#define AMP_SHARED(name) amp__shared_##name

/* parallel_for_each(domain, [=](index<N> idx) restrict(amp) { body }), on the
 * default accelerator view. The domain's C type says how it runs: over an
 * amp_extent, one thread per index (amp_parallel_for_each); over an
 * amp_tiled_extent, in tiles, and index names a tiled index
 * (amp_parallel_for_each_tiled, C++ AMP's parallel_for_each(extent.tile<...>(),
 * [=](tiled_index<...> t_idx) restrict(amp) { body })). Returns what that
 * function returns. */
#define AMP_PARALLEL_FOR_EACH(domain, index, captures, ...)                                        \
    AMP__LAUNCH(domain)(NULL, (domain), AMP_KERNEL_SOURCE(index, __VA_ARGS__), (captures))

/* parallel_for_each(accelerator_view, domain, lambda): as AMP_PARALLEL_FOR_EACH,
 * on target: an accelerator view (NULL: the default one), or an accelerator
 * set (amp/accelerator_set.h), across whose views the launch is split where
 * the runtime proves it may be (amp_parallel_for_each_set). Returns what the
 * function chosen by target's and domain's C types returns. */
#define AMP_PARALLEL_FOR_EACH_ON(target, domain, index, captures, ...)                             \
    AMP__LAUNCH_ON(target, domain)                                                                 \
    ((target), (domain), AMP_KERNEL_SOURCE(index, __VA_ARGS__), (captures))

/* The function that launches over domain, by its C type; on target, by
 * its C type and domain's. */
/* clang-format off */
#define AMP__LAUNCH(domain)                                                                        \
    _Generic((domain),                                                                             \
        amp_tiled_extent: amp_parallel_for_each_tiled,                                             \
        default: amp_parallel_for_each)
#define AMP__LAUNCH_SET(domain)                                                                    \
    _Generic((domain),                                                                             \
        amp_tiled_extent: amp_parallel_for_each_tiled_set,                                         \
        default: amp_parallel_for_each_set)
#define AMP__LAUNCH_ON(target, domain)                                                             \
    _Generic((target),                                                                             \
        amp_accelerator_set *: AMP__LAUNCH_SET(domain),                                            \
        default: AMP__LAUNCH(domain))
/* clang-format on */

/* ---- Internals of AMP_CAPTURE ---- */

/* 0, where x is not of a floating type; else a compile error that says
 * what to do. */
#define AMP__CONST_INTEGER(x)                                                                      \
    (0 * sizeof(struct {                                                                           \
         _Static_assert(_Generic((x), float : 0, double : 0, long double : 0, default : 1),        \
                        "AMP_CONST takes an integer: capture a float or double by name "           \
                        "(AMP_CAPTURE(v, scale)) to use its value in the kernel");                 \
         int amp__integer;                                                                         \
     }))

/* The text of its arguments after their macros expanded: the arguments of a
 * macro that passes them on are expanded before # sees them. */
#define AMP__STRING(...) #__VA_ARGS__

/* clang-format off */
#define AMP__CAPTURE_ONE(x)                                                                        \
    _Generic((x),                                                                                  \
        amp_array_view *: amp__capture_view,                                                       \
        amp_array *: amp__capture_array,                                                           \
        amp_texture *: amp__capture_texture,                                                       \
        amp_constant: amp__capture_constant,                                                       \
        amp_function: amp__capture_function,                                                       \
        amp_index: amp__capture_index,                                                             \
        amp_extent: amp__capture_extent,                                                           \
        amp_tiled_extent: amp__capture_tiled_extent,                                               \
        amp_struct_value: amp__capture_struct,                                                     \
        amp_int_2: amp__capture_int_2,                                                             \
        amp_int_3: amp__capture_int_3,                                                             \
        amp_int_4: amp__capture_int_4,                                                             \
        amp_uint_2: amp__capture_uint_2,                                                           \
        amp_uint_3: amp__capture_uint_3,                                                           \
        amp_uint_4: amp__capture_uint_4,                                                           \
        amp_float_2: amp__capture_float_2,                                                         \
        amp_float_3: amp__capture_float_3,                                                         \
        amp_float_4: amp__capture_float_4,                                                         \
        amp_double_2: amp__capture_double_2,                                                       \
        amp_double_3: amp__capture_double_3,                                                       \
        amp_double_4: amp__capture_double_4,                                                       \
        _Bool: amp__capture_bool,                                                                  \
        int: amp__capture_int,                                                                     \
        unsigned: amp__capture_uint,                                                               \
        float: amp__capture_float,                                                                 \
        double: amp__capture_double,                                                               \
        long: amp__capture_wide,                                                                   \
        unsigned long: amp__capture_wide,                                                          \
        long long: amp__capture_wide,                                                              \
        unsigned long long: amp__capture_wide,                                                     \
        char: amp__capture_narrow,                                                                 \
        signed char: amp__capture_narrow,                                                          \
        unsigned char: amp__capture_narrow,                                                        \
        short: amp__capture_narrow,                                                                \
        unsigned short: amp__capture_narrow,                                                       \
        long double: amp__capture_long_double,                                                     \
        void *: amp__capture_pointer,                                                              \
        const void *: amp__capture_pointer,                                                        \
        float *: amp__capture_pointer,                                                             \
        const float *: amp__capture_pointer,                                                       \
        double *: amp__capture_pointer,                                                            \
        const double *: amp__capture_pointer,                                                      \
        int *: amp__capture_pointer,                                                               \
        const int *: amp__capture_pointer,                                                         \
        unsigned *: amp__capture_pointer,                                                          \
        const unsigned *: amp__capture_pointer,                                                    \
        char *: amp__capture_pointer,                                                              \
        const char *: amp__capture_pointer,                                                        \
        default: amp__capture_unsupported)(#x, (x))
/* clang-format on */

static inline amp_capture amp__capture_view(const char *name, amp_array_view *v)
{
    amp_capture c = {name, AMP_CAPTURE_VIEW, (amp_elem_type)0, {.view = v}};
    return c;
}
/* An array is captured as its whole view (a NULL or released one as a
 * stand-in that parallel_for_each refuses, naming the array). */
amp_array_view *amp__array_view_of(const amp_array *a);
static inline amp_capture amp__capture_array(const char *name, amp_array *a)
{
    amp_capture c = {name, AMP_CAPTURE_VIEW, (amp_elem_type)0, {.view = amp__array_view_of(a)}};
    return c;
}
static inline amp_capture amp__capture_texture(const char *name, amp_texture *t)
{
    amp_capture c = {name, AMP_CAPTURE_TEXTURE, (amp_elem_type)0, {.texture = t}};
    return c;
}
static inline amp_capture amp__capture_constant(const char *name, amp_constant k)
{
    amp_capture c = {k.name, AMP_CAPTURE_CONSTANT, AMP_INT, {.constant = k.value}};
    (void)name;
    return c;
}
static inline amp_capture amp__capture_function(const char *name, amp_function f)
{
    /* Field by field into a zeroed item, not f's padding (after line): the
     * launch record compares items byte for byte. */
    amp_capture c;
    memset(&c, 0, sizeof c);
    c.name = f.name;
    c.kind = AMP_CAPTURE_FUNCTION;
    c.value.function.name = f.name;
    c.value.function.source = f.source;
    c.value.function.file = f.file;
    c.value.function.line = f.line;
    c.value.function.host = f.host;
    (void)name;
    return c;
}
static inline amp_capture amp__capture_index(const char *name, amp_index v)
{
    amp_capture c = {name, AMP_CAPTURE_INDEX, AMP_INT, {.index = v}};
    return c;
}
static inline amp_capture amp__capture_extent(const char *name, amp_extent v)
{
    amp_capture c = {name, AMP_CAPTURE_EXTENT, AMP_INT, {.extent = v}};
    return c;
}
/* A tiled extent is an extent in kernels, as C++ AMP's tiled_extent is. */
static inline amp_capture amp__capture_tiled_extent(const char *name, amp_tiled_extent v)
{
    amp_capture c = {name, AMP_CAPTURE_EXTENT, AMP_INT, {.extent = v.extent}};
    return c;
}
/* A bool is an int in the kernel (0 or 1): OpenCL kernels take no bool. */
static inline amp_capture amp__capture_bool(const char *name, _Bool v)
{
    amp_capture c = {name, AMP_CAPTURE_SCALAR, AMP_INT, {.i = v ? 1 : 0}};
    return c;
}
static inline amp_capture amp__capture_int(const char *name, int v)
{
    amp_capture c = {name, AMP_CAPTURE_SCALAR, AMP_INT, {.i = v}};
    return c;
}
static inline amp_capture amp__capture_uint(const char *name, unsigned v)
{
    amp_capture c = {name, AMP_CAPTURE_SCALAR, AMP_UINT, {.u = v}};
    return c;
}
static inline amp_capture amp__capture_float(const char *name, float v)
{
    amp_capture c = {name, AMP_CAPTURE_SCALAR, AMP_FLOAT, {.f = v}};
    return c;
}
static inline amp_capture amp__capture_double(const char *name, double v)
{
    amp_capture c = {name, AMP_CAPTURE_SCALAR, AMP_DOUBLE, {.d = v}};
    return c;
}
/* A struct's value: its own name, from AMP_VALUE. */
static inline amp_capture amp__capture_struct(const char *name, amp_struct_value v)
{
    amp_capture c = {v.name, AMP_CAPTURE_STRUCT, (amp_elem_type)0, {.object = v}};
    (void)name;
    return c;
}
/* A short vector, by value: its bytes, the rest of the capture zero (so
 * that two captures of one value are equal, byte for byte). */
#define AMP__CAPTURE_VECTOR(V, T)                                                                  \
    static inline amp_capture amp__capture_##V(const char *name, amp_##V v)                        \
    {                                                                                              \
        amp_capture c;                                                                             \
        memset(&c, 0, sizeof c);                                                                   \
        c.name = name;                                                                             \
        c.kind = AMP_CAPTURE_SCALAR;                                                               \
        c.type = T;                                                                                \
        memcpy(c.value.vector, &v, sizeof v);                                                      \
        return c;                                                                                  \
    }
AMP__CAPTURE_VECTOR(int_2, AMP_INT_2)
AMP__CAPTURE_VECTOR(int_3, AMP_INT_3)
AMP__CAPTURE_VECTOR(int_4, AMP_INT_4)
AMP__CAPTURE_VECTOR(uint_2, AMP_UINT_2)
AMP__CAPTURE_VECTOR(uint_3, AMP_UINT_3)
AMP__CAPTURE_VECTOR(uint_4, AMP_UINT_4)
AMP__CAPTURE_VECTOR(float_2, AMP_FLOAT_2)
AMP__CAPTURE_VECTOR(float_3, AMP_FLOAT_3)
AMP__CAPTURE_VECTOR(float_4, AMP_FLOAT_4)
AMP__CAPTURE_VECTOR(double_2, AMP_DOUBLE_2)
AMP__CAPTURE_VECTOR(double_3, AMP_DOUBLE_3)
AMP__CAPTURE_VECTOR(double_4, AMP_DOUBLE_4)
/* Any other type: the dispatch reports it by name, and where the type is
 * one of those below, says what to capture instead (.constant: an
 * AMP__UNSUPPORTED_ code). */
enum {
    AMP__UNSUPPORTED_OTHER = 0,
    AMP__UNSUPPORTED_WIDE,   /* long, long long and their unsigned forms */
    AMP__UNSUPPORTED_NARROW, /* char and short */
    AMP__UNSUPPORTED_LONG_DOUBLE,
    AMP__UNSUPPORTED_POINTER /* a pointer to host memory */
};
static inline amp_capture amp__capture_unsupported_as(const char *name, int why)
{
    amp_capture c = {name, AMP_CAPTURE_INVALID, (amp_elem_type)0, {.constant = why}};
    return c;
}
#define AMP__CAPTURE_UNSUPPORTED(fn, why)                                                          \
    static inline amp_capture amp__capture_##fn(const char *name, ...)                             \
    {                                                                                              \
        return amp__capture_unsupported_as(name, why);                                             \
    }
AMP__CAPTURE_UNSUPPORTED(unsupported, AMP__UNSUPPORTED_OTHER)
AMP__CAPTURE_UNSUPPORTED(wide, AMP__UNSUPPORTED_WIDE)
AMP__CAPTURE_UNSUPPORTED(narrow, AMP__UNSUPPORTED_NARROW)
AMP__CAPTURE_UNSUPPORTED(long_double, AMP__UNSUPPORTED_LONG_DOUBLE)
AMP__CAPTURE_UNSUPPORTED(pointer, AMP__UNSUPPORTED_POINTER)

/* The functions above that make a handle, as macros that also record the
 * caller's file and line for the leak report (AMP__MADE_AT, amp/status.h). */
#define amp_kernel_source_load(...) AMP__MADE_AT(amp_kernel_source_load, __VA_ARGS__)

/* ---- Deprecated spellings (docs/api.md, "Deprecated spellings") ---- */

/* Deprecated: AMP_PARALLEL_FOR_EACH, which takes a tiled extent too. */
#define AMP_PARALLEL_FOR_EACH_TILED(domain, index, captures, ...)                                  \
    amp__parallel_for_each_tiled_macro(NULL, (domain),                                             \
                                       AMP_KERNEL_SOURCE(index, __VA_ARGS__), (captures))

/* Deprecated: AMP_PARALLEL_FOR_EACH_ON, which takes a tiled extent too. */
#define AMP_PARALLEL_FOR_EACH_TILED_ON(av, domain, index, captures, ...)                           \
    amp__parallel_for_each_tiled_macro((av), (domain),                                             \
                                       AMP_KERNEL_SOURCE(index, __VA_ARGS__), (captures))

/* What the two deprecated macros call, so that the compiler names them. */
AMP__DEPRECATED("AMP_PARALLEL_FOR_EACH or AMP_PARALLEL_FOR_EACH_ON: either takes a tiled extent")
static inline amp_status amp__parallel_for_each_tiled_macro(amp_accelerator_view *av,
                                                            amp_tiled_extent domain,
                                                            const amp_kernel_source *kernel,
                                                            amp_capture_list captures)
{
    return amp_parallel_for_each_tiled(av, domain, kernel, captures);
}

/* Deprecated: amp_kernel_get_stats(), the same call. */
AMP__DEPRECATED("amp_kernel_get_stats") amp_status amp_get_kernel_stats(amp_kernel_stats *out);

#ifdef __cplusplus
}
#endif

#endif
