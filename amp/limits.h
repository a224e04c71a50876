/*
 * amp/limits.h - every limit of the library that a program can reach, in
 * one place.
 *
 * A call past one of them is refused, with the status its function's
 * comment names and a message that gives the limit, unless the limit's
 * comment here says what happens instead. A device's own limits (threads
 * in a tile, tile_static memory, the largest allocation) are the device's:
 * amp_accelerator_get_info() gives them, and a call past them gets
 * AMP_ERROR_DEVICE_LIMIT or AMP_ERROR_OUT_OF_MEMORY.
 */
#ifndef AMP_LIMITS_H
#define AMP_LIMITS_H

#include <stddef.h>

/* ---- Extents and indices (amp/extent.h) ---- */

/* The largest rank of an extent or an index, as C++ AMP's extent<N>
 * allows any N: extents, indices and views of rank 1 to 8, and domains of
 * parallel_for_each. Rank 0 or over 8: AMP_ERROR_INVALID_ARGUMENT, or
 * AMP_ERROR_INVALID_COMPUTE_DOMAIN for a domain. */
#define AMP_MAX_RANK 8

/* The largest rank of a tiled extent, as C++ AMP's tiled_extent<D0, D1,
 * D2>: a tiled domain of rank over 3 gets AMP_ERROR_INVALID_COMPUTE_DOMAIN. */
#define AMP_MAX_TILE_RANK 3

/* ---- Kernels (amp/kernel.h) ---- */

/* The captures of one kernel call (AMP_CAPTURE's arguments): more get
 * AMP_ERROR_INVALID_ARGUMENT from parallel_for_each, and AMP_CAPTURE's
 * macros (amp/capture_map.h) are made for this many. */
#define AMP_MAX_CAPTURES 32

/* Statements, braces, parentheses and brackets nested in one kernel body
 * or helper function, and parentheses in one of its preprocessor lines
 * (AMP_IF ...): deeper gets AMP_ERROR_KERNEL_BUILD, at the line. The
 * OpenCL compilers' own limit (clang's -fbracket-depth) is the same. */
#define AMP_MAX_NESTING 256

/* Kinds of view values (element type and rank: array_view<float, 2> ...)
 * one kernel and its helpers declare: more get AMP_ERROR_KERNEL_BUILD. */
#define AMP_MAX_VIEW_VALUE_TYPES 32

/* The parameters of an AMP_FUNCTION whose types the kernel reader follows.
 * A helper may take more; past this many, a view parameter declared const
 * is taken as one the helper may write (the view is copied back after the
 * kernel: correct, one copy more), and a texture or tiled_index parameter
 * is not understood (the kernel does not compile). */
#define AMP_MAX_FUNCTION_PARAMS 16

/* The bytes of a kernel file (amp_kernel_source_load): a larger file gets
 * AMP_ERROR_INVALID_ARGUMENT, and is not read. */
#define AMP_MAX_KERNEL_FILE_BYTES ((size_t)16 * 1024 * 1024)

/* ---- Struct element types (amp/struct_type.h) ---- */

/* The members of one AMP_STRUCT: more get AMP_ERROR_INVALID_ARGUMENT from
 * amp_struct_register(). */
#define AMP_MAX_STRUCT_MEMBERS 16

/* The struct types one process registers: one more gets
 * AMP_ERROR_INVALID_ARGUMENT from amp_struct_register(). */
#define AMP_MAX_STRUCT_TYPES 64

#endif
