/*
 * amp/texture.h - textures (C++ AMP's concurrency::graphics::texture<T, N>),
 * their views (texture_view<const T, N>, texture_view<T, N>,
 * writeonly_texture_view<T, N>), samplers, and the copies between
 * textures, arrays, views and host memory.
 *
 * A texture holds elements of one type, with 1, 2 or 4 channels each (int,
 * int_2, int_4, unorm_4 ... in C++ AMP) of 8, 16 or 32 bits, in an extent
 * of rank 1, 2 or 3. It lives on one accelerator view (which it holds, as
 * an array does), in an OpenCL image, which devices read through their
 * texture caches; kernels on any view of that accelerator may use it, and
 * every use is ordered after the uses before it on the device. Kernels
 * capture a texture, or a view of one, by name (docs/kernels.md):
 *
 *     amp_texture *a, *b;
 *     amp_texture_view *out;
 *     amp_texture_create(AMP_INT, 1, amp_extent_2d(rows, cols), host, NULL, &a);
 *     amp_texture_create(AMP_INT, 1, amp_extent_2d(rows, cols), NULL, NULL, &b);
 *     amp_texture_view_create(b, AMP_TEXTURE_WRITE, &out);
 *     AMP_PARALLEL_FOR_EACH(e, idx, AMP_CAPTURE(a, out), { out.set(idx, a[idx] * 2); });
 *
 * A captured texture, or a view made with AMP_TEXTURE_READ, is read:
 * t[idx], t(i, j), t.get(idx), t.sample(s, coord), t.gather_red(s, coord).
 * A view made with AMP_TEXTURE_WRITE is written: t.set(idx, value). One made
 * with AMP_TEXTURE_READ_WRITE is both, where C++ AMP allows it. What a
 * kernel may not do with its capture does not compile.
 *
 * Host data is laid out as the image's texels, row after row: each texel
 * its channels' values in a row, each value as the format stores it
 * (amp_texture_create_bits): 8-bit int textures take one signed byte a
 * value, unorm ones one unsigned byte (0 to 255 for 0.0 to 1.0), 16-bit
 * float ones IEEE half floats. Every transfer of texture data is counted in
 * the ledger (amp/transfer.h) with reason "copy": to or from the host, and
 * on the device (AMP_ON_DEVICE) for copies between textures, arrays and
 * views of one accelerator, which move no byte through the host.
 */
#ifndef AMP_TEXTURE_H
#define AMP_TEXTURE_H

#include <stddef.h>

#include "accelerator.h"
#include "array.h"
#include "array_view.h"
#include "completion.h"
#include "extent.h"
#include "status.h"
#include "transfer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct amp_texture amp_texture;

/* A view of a texture (texture_view, writeonly_texture_view): a handle of
 * the same kind, which also says how kernels may use the texels. Every
 * function of a texture takes a view of one as well, and acts on the
 * texture it views. */
typedef struct amp_texture amp_texture_view;

/* What a kernel may do with a texture it captures. */
typedef enum amp_texture_access {
    /* texture_view<const T, N>, and a texture captured itself: read texels,
     * sample, gather. */
    AMP_TEXTURE_READ = 1,
    /* writeonly_texture_view<T, N>, and texture_view<T, N> of a texture
     * C++ AMP writes only: set texels. */
    AMP_TEXTURE_WRITE = 2,
    /* texture_view<T, N> of a texture of one int, uint or float channel of
     * 32 bits, as C++ AMP allows: read and set texels in one kernel. Needs
     * a device with read-write images (OpenCL 2.0 or later). */
    AMP_TEXTURE_READ_WRITE = 3
} amp_texture_access;

/*
 * A new texture on av (NULL: the default accelerator view) of elements of
 * type AMP_INT, AMP_UINT, AMP_FLOAT, AMP_NORM or AMP_UNORM with channels 1,
 * 2 or 4 values each, of C++ AMP's default width: 32 bits for int, uint and
 * float, 16 for norm and unorm. data, when not NULL, holds
 * amp_extent_size(extent) elements in row-major order, each its channels
 * values in a row (an int_2 texture reads int pairs; a norm texture's 16-bit
 * values are int16_t, -32767 to 32767 for -1.0 to 1.0), and is uploaded now;
 * the caller keeps it. Without data every texel is 0 (C++ AMP's
 * texture(extent), whose contents kernels then write). Release the texture
 * with amp_texture_release().
 *
 * A rank-1 texture wider than the device's 1D image limit
 * (CL_DEVICE_IMAGE2D_MAX_WIDTH) is laid out in the rows of a 2D image, up
 * to CL_DEVICE_IMAGE2D_MAX_WIDTH x CL_DEVICE_IMAGE2D_MAX_HEIGHT texels: it
 * reads and writes the same, but it cannot be sampled or gathered. A device
 * without the image format of 1 or 2 channels (PoCL has no 2-channel
 * formats) gets an image of 4, the format every device with images has:
 * kernels see the same values, and copies widen and narrow the texels on the
 * host (the ledger counts the wider bytes, which are what moves).
 *
 * On a part of a CPU split by AMP_SPLIT_CPU, where PoCL cannot queue an
 * image command (docs/accelerators.md), the image is made over host memory
 * of the texture's (CL_MEM_USE_HOST_PTR), which the device reads and
 * writes in place: a copy waits for the texture's last use and then copies
 * on the host, counted as a transfer all the same.
 *
 * Returns AMP_OK, or:
 * - AMP_ERROR_INVALID_ARGUMENT: a NULL out, an unknown element type,
 *   channels other than 1, 2 and 4, a rank outside 1..3, a dimension <= 0;
 * - AMP_ERROR_UNSUPPORTED_FEATURE: AMP_DOUBLE (OpenCL images have no 64-bit
 *   format), a device without images (CL_DEVICE_IMAGE_SUPPORT is false), or
 *   one without this element type's format in the channels asked or in 4;
 * - AMP_ERROR_DEVICE_LIMIT: an extent over the device's image size limits,
 *   or bytes over CL_DEVICE_MAX_MEM_ALLOC_SIZE (the message names the limit
 *   and its value);
 * - AMP_ERROR_OUT_OF_MEMORY, AMP_ERROR_RUNTIME, and the statuses of
 *   choosing the default accelerator.
 */
amp_status amp_texture_create(amp_elem_type type, int channels, amp_extent extent, const void *data,
                              amp_accelerator_view *av, amp_texture **out);

/*
 * As amp_texture_create(), with bits_per_scalar_element as C++ AMP takes
 * it: 8, 16 or 32 for AMP_INT and AMP_UINT (CL_SIGNED_INT8/16/32,
 * CL_UNSIGNED_INT8/16/32), 16 or 32 for AMP_FLOAT (CL_HALF_FLOAT, CL_FLOAT),
 * 8 or 16 for AMP_NORM and AMP_UNORM (CL_SNORM_INT8/16, CL_UNORM_INT8/16);
 * 0 takes the type's default. data, when not NULL, holds data_bytes bytes,
 * exactly amp_extent_size(extent) x channels x bits / 8 (C++ AMP's
 * texture(extent, source, src_byte_size, bits_per_scalar_element)); without
 * data, data_bytes is 0 and every texel is 0. Kernels read and write such
 * texels as int, uint or float values, which a write converts as the
 * format does: saturated to the integer range, clamped to [-1, 1] or
 * [0, 1], rounded to half. Statuses as amp_texture_create(), and
 * AMP_ERROR_INVALID_ARGUMENT for a width the type does not take or a
 * data_bytes that does not match (both named in the message).
 */
amp_status amp_texture_create_bits(amp_elem_type type, int channels, amp_extent extent,
                                   unsigned bits, const void *data, size_t data_bytes,
                                   amp_accelerator_view *av, amp_texture **out);

/* Release a texture, or a view of one. The texture's image lives on while
 * a view of it, or a copy still to run, uses it. NULL is a no-op. Returns
 * AMP_ERROR_INVALID_ARGUMENT for a handle already released. */
amp_status amp_texture_release(amp_texture *texture);

/*
 * A new view of texture (itself a texture, or a view of one) in *out, for
 * kernels to use with the given access (C++ AMP's texture_view<const T, N>
 * for AMP_TEXTURE_READ, writeonly_texture_view<T, N> for AMP_TEXTURE_WRITE,
 * texture_view<T, N> for AMP_TEXTURE_WRITE or AMP_TEXTURE_READ_WRITE by
 * format). It holds the texture's data: releasing the texture first keeps
 * the data for the view. Release it with amp_texture_view_release().
 *
 * Returns AMP_ERROR_INVALID_ARGUMENT for a NULL or released texture, a NULL
 * out, an access not one of the three, or AMP_TEXTURE_READ_WRITE of a
 * texture other than one 32-bit channel of int, uint or float (C++ AMP's
 * rule); AMP_ERROR_UNSUPPORTED_FEATURE where the device cannot give the
 * access: read-write images need OpenCL 2.0's (CL_DEVICE_MAX_READ_WRITE_-
 * IMAGE_ARGS > 0, which NVIDIA's OpenCL 1.2 lacks: read one texture and
 * write another there), writes to a rank-3 texture need
 * cl_khr_3d_image_writes, and a texture kept in an image of a read-only
 * format cannot be written; AMP_ERROR_ACCELERATOR_VIEW_REMOVED after
 * amp_shutdown().
 */
amp_status amp_texture_view_create(amp_texture *texture, amp_texture_access access,
                                   amp_texture_view **out);

/* Release a view (amp_texture_release()). */
amp_status amp_texture_view_release(amp_texture_view *view);

/*
 * Copy the whole texture to host memory dst of dst_bytes bytes (C++ AMP's
 * copy(texture, dst, dst_byte_size)), waiting for it, after every use of
 * the texture before (a kernel that writes it). Returns
 * AMP_ERROR_INVALID_ARGUMENT for a NULL or released texture, a NULL dst, or
 * dst_bytes other than the texture's size in bytes;
 * AMP_ERROR_ACCELERATOR_VIEW_REMOVED when the texture's data was lost with
 * its device (amp_shutdown()); AMP_ERROR_RUNTIME for other OpenCL failures.
 */
amp_status amp_texture_copy_to_host(const amp_texture *texture, void *dst, size_t dst_bytes);

/*
 * Replace the texture's contents with src, src_bytes bytes laid out as for
 * amp_texture_create() (C++ AMP's copy(src, src_byte_size, texture)),
 * uploaded now, after every use of the texture before. Statuses as
 * amp_texture_copy_to_host().
 */
amp_status amp_texture_copy_from_host(amp_texture *texture, const void *src, size_t src_bytes);

/*
 * Copy texture src to texture dst (C++ AMP's copy(src, dst) and
 * src.copy_to(dst)): the same element type, channels, bits and extent.
 * On one accelerator the image is copied on the device (clEnqueueCopyImage),
 * ordered after every use of both textures before, and counted as one
 * AMP_ON_DEVICE transfer; the call does not wait for it, and every later use
 * of dst comes after it. Between accelerators, or on a part of a split CPU,
 * it goes through the host: a download and an upload. Returns
 * AMP_ERROR_INVALID_ARGUMENT for NULL or released textures, textures that
 * differ (named in the message), or src and dst the same texture;
 * AMP_ERROR_ACCELERATOR_VIEW_REMOVED after amp_shutdown(); AMP_ERROR_RUNTIME
 * for OpenCL failures.
 */
amp_status amp_texture_copy(const amp_texture *src, amp_texture *dst);

/*
 * Copy the box of copy_extent texels at src_origin in src to dst_origin in
 * dst (C++ AMP 1.2's copy(src, src_offset, dst, dst_offset, copy_extent)):
 * extents and origins of the textures' rank, each box inside its texture.
 * As amp_texture_copy() otherwise; a rank-1 texture laid out in the rows
 * of a 2D image is copied whole only (AMP_ERROR_INVALID_ARGUMENT for a
 * part of one). The same texture at both ends is refused where the boxes
 * overlap.
 */
amp_status amp_texture_copy_section(const amp_texture *src, amp_index src_origin, amp_texture *dst,
                                    amp_index dst_origin, amp_extent copy_extent);

/*
 * Copy the whole texture into dst, an array, a view or host memory
 * (amp_data_of(x)): the texels as host data lays them out. An array or view
 * end must hold exactly the texture's bytes (any element type: a uint_4
 * texture of 8 bits fits a view of uint, one element a texel) and be
 * contiguous (a whole view, or a section of whole rows); a host end must
 * hold the texture's bytes. Where the array or view is on the texture's
 * accelerator, the texels are copied on the device
 * (clEnqueueCopyImageToBuffer, one AMP_ON_DEVICE transfer), after every use
 * of both before, and the view's host memory is stale from then on; elsewhere
 * they go through the host. Statuses as amp_copy() and amp_texture_copy().
 */
amp_status amp_texture_copy_to(const amp_texture *src, amp_data dst);

/* Copy src, an array, a view or host memory, into the whole texture
 * (clEnqueueCopyBufferToImage on one accelerator): the reverse of
 * amp_texture_copy_to(), with its rules. */
amp_status amp_texture_copy_from(amp_data src, amp_texture *dst);

/*
 * The asynchronous forms (C++ AMP's copy_async): the ends are checked at
 * the call, which returns at once with a handle in *out to wait on
 * (amp/completion.h); the completion is done when the copy has run on the
 * device. As in C++ AMP, the copy keeps what it uses alive until then: a
 * texture, view or array released meanwhile still gives or takes the data.
 * The copy is queued before any later call of the library, as
 * amp_copy_async()'s is: a kernel launched after it runs after it.
 * Plain host memory is the caller's: keep it, and do not touch it, until
 * the copy completes. Returns what the synchronous call returns for ends it
 * refuses (no handle is made), AMP_ERROR_INVALID_ARGUMENT for a NULL out,
 * AMP_ERROR_OUT_OF_MEMORY or AMP_ERROR_RUNTIME when the copy cannot start;
 * the copy's own status comes from amp_completion_wait().
 */
amp_status amp_texture_copy_async(const amp_texture *src, amp_texture *dst, amp_completion **out);
amp_status amp_texture_copy_to_async(const amp_texture *src, amp_data dst, amp_completion **out);
amp_status amp_texture_copy_from_async(amp_data src, amp_texture *dst, amp_completion **out);

/* The texture's extent (rank 0 for a NULL or released texture), element
 * type (0 then), channels per element (0 then), bits per channel (C++ AMP's
 * bits_per_scalar_element; 0 then), size in bytes of its texels as host
 * data lays them out (C++ AMP's data_length; 0 then), accelerator view
 * (NULL then), and the access kernels have to it (AMP_TEXTURE_READ for a
 * texture; 0 then). */
amp_extent amp_texture_get_extent(const amp_texture *texture);
amp_elem_type amp_texture_get_type(const amp_texture *texture);
int amp_texture_get_channels(const amp_texture *texture);
unsigned amp_texture_get_bits(const amp_texture *texture);
size_t amp_texture_get_bytes(const amp_texture *texture);
amp_accelerator_view *amp_texture_get_accelerator_view(const amp_texture *texture);
amp_texture_access amp_texture_get_access(const amp_texture *texture);

/*
 * Store in *out the transfers of the texture's data since it was created
 * (shared by its views). Returns AMP_ERROR_INVALID_ARGUMENT for a NULL or
 * released texture or a NULL out.
 */
amp_status amp_texture_get_transfers(const amp_texture *texture, amp_transfer_stats *out);

/* ---- norm and unorm on the host ---- */

/* C++ AMP's norm and unorm: a float kept in [-1, 1] or [0, 1]. Kernels
 * have them as norm, unorm, norm_4 ...; on the host they are these floats,
 * made and combined by the functions below, which clamp as C++ AMP's
 * constructors and operators do (an infinity gives the end of the range;
 * NaN stays NaN, which C++ AMP leaves undefined). */
typedef float amp_norm;
typedef float amp_unorm;

/* x clamped to [-1, 1] (norm(x)). */
static inline amp_norm amp_norm_make(float x)
{
    return x < -1.0f ? -1.0f : x > 1.0f ? 1.0f : x;
}

/* x clamped to [0, 1] (unorm(x)). */
static inline amp_unorm amp_unorm_make(float x)
{
    return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

/* C++ AMP's +, -, * and / of two norms, or of two unorms: the float
 * result, clamped again. */
static inline amp_norm amp_norm_add(amp_norm a, amp_norm b)
{
    return amp_norm_make(a + b);
}
static inline amp_norm amp_norm_sub(amp_norm a, amp_norm b)
{
    return amp_norm_make(a - b);
}
static inline amp_norm amp_norm_mul(amp_norm a, amp_norm b)
{
    return amp_norm_make(a * b);
}
static inline amp_norm amp_norm_div(amp_norm a, amp_norm b)
{
    return amp_norm_make(a / b);
}
static inline amp_unorm amp_unorm_add(amp_unorm a, amp_unorm b)
{
    return amp_unorm_make(a + b);
}
static inline amp_unorm amp_unorm_sub(amp_unorm a, amp_unorm b)
{
    return amp_unorm_make(a - b);
}
static inline amp_unorm amp_unorm_mul(amp_unorm a, amp_unorm b)
{
    return amp_unorm_make(a * b);
}
static inline amp_unorm amp_unorm_div(amp_unorm a, amp_unorm b)
{
    return amp_unorm_make(a / b);
}

/* ---- Samplers ---- */

/* C++ AMP's filter_mode and address_mode. address_border gives 0 in every
 * channel outside the texture (C++ AMP's default border color; OpenCL's
 * samplers have no other). */
typedef enum amp_filter_mode { AMP_FILTER_POINT = 0, AMP_FILTER_LINEAR = 1 } amp_filter_mode;
typedef enum amp_address_mode {
    AMP_ADDRESS_WRAP = 1,
    AMP_ADDRESS_MIRROR = 2,
    AMP_ADDRESS_CLAMP = 3,
    AMP_ADDRESS_BORDER = 4
} amp_address_mode;

/* C++ AMP's sampler: how t.sample() filters, and where coordinates outside
 * [0, 1] land. sampler() is {AMP_FILTER_LINEAR, AMP_ADDRESS_CLAMP}. */
typedef struct amp_sampler {
    amp_filter_mode filter;
    amp_address_mode address;
} amp_sampler;

/* A sampler of these modes (C++ AMP's sampler(filter, address)); it owns
 * nothing. */
static inline amp_sampler amp_sampler_make(amp_filter_mode filter, amp_address_mode address)
{
    amp_sampler s = {filter, address};
    return s;
}

/* A sampler for a kernel, captured by name: AMP_CAPTURE(t, AMP_SAMPLER(s)),
 * then t.sample(s, coord) in the body. Its modes are compiled into the
 * kernel (each pair of modes its own kernel); one outside the enums does
 * not compile. */
#define AMP_SAMPLER(s) ((amp_constant){#s, amp__sampler_code(s)})

/* The sampler as the kernel takes it: filter * 16 + address, or 0. */
static inline long long amp__sampler_code(amp_sampler s)
{
    int filter_ok = s.filter == AMP_FILTER_POINT || s.filter == AMP_FILTER_LINEAR;
    int address_ok = s.address >= AMP_ADDRESS_WRAP && s.address <= AMP_ADDRESS_BORDER;
    return filter_ok && address_ok ? (long long)s.filter * 16 + (long long)s.address : 0;
}

/* The functions above that make a handle, as macros that also record the
 * caller's file and line for the leak report (AMP__MADE_AT, amp/status.h). */
#define amp_texture_create(...) AMP__MADE_AT(amp_texture_create, __VA_ARGS__)
#define amp_texture_create_bits(...) AMP__MADE_AT(amp_texture_create_bits, __VA_ARGS__)
#define amp_texture_view_create(...) AMP__MADE_AT(amp_texture_view_create, __VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif
