/*
 * amp/texture.h - read-only textures (C++ AMP's concurrency::graphics::
 * texture<T, N>, read in kernels through texture_view<const T, N>).
 *
 * A texture holds elements of one type, with 1, 2 or 4 channels each (int,
 * int_2, int_4 ... in C++ AMP), in an extent of rank 1, 2 or 3. It lives on
 * one accelerator view (which it holds, as an array does), in an OpenCL
 * image, which devices read through their texture caches; kernels on any
 * view of that accelerator may read it, and its copies are ordered after
 * them on the device. Its data is copied there when it is created, as
 * C++ AMP's texture constructor from host data does; the caller keeps its
 * memory. Kernels capture it by name and read it (docs/kernels.md):
 *
 *     amp_texture *a;
 *     amp_texture_create(AMP_INT, 1, amp_extent_2d(rows, cols), host, NULL, &a);
 *     AMP_PARALLEL_FOR_EACH(e, idx, AMP_CAPTURE(a, out), { out(idx) = a(idx) * 2; });
 *
 * Kernels cannot write a texture: an assignment to one is a compile error.
 * Every copy of texture data is counted in the transfer ledger (amp/transfer.h)
 * with reason "copy".
 */
#ifndef AMP_TEXTURE_H
#define AMP_TEXTURE_H

#include <stddef.h>

#include "accelerator.h"
#include "array_view.h"
#include "extent.h"
#include "status.h"
#include "transfer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct amp_texture amp_texture;

/*
 * A new texture on av (NULL: the default accelerator view) of elements of
 * type AMP_INT, AMP_UINT or AMP_FLOAT with channels 1, 2 or 4 values each,
 * filled from data: amp_extent_size(extent) elements in row-major order,
 * each its channels values in a row (an int_2 texture reads int pairs).
 * The data is uploaded now; the caller keeps data. Release the texture with
 * amp_texture_release().
 *
 * A rank-1 texture wider than the device's 1D image limit
 * (CL_DEVICE_IMAGE2D_MAX_WIDTH) is laid out in the rows of a 2D image, up
 * to CL_DEVICE_IMAGE2D_MAX_WIDTH x CL_DEVICE_IMAGE2D_MAX_HEIGHT texels: it
 * reads the same, but amp_sample() is not available on it. A device without the
 * image format of 1 or 2 channels (PoCL has no 2-channel formats) gets an
 * image of 4, the format every device with images has: kernels read the
 * same values, and copies widen and narrow the texels on the host (the
 * ledger counts the wider bytes, which are what moves).
 *
 * On a part of a CPU split by AMP_SPLIT_CPU, where PoCL cannot copy to or
 * from an image through a queue (docs/accelerators.md), the texture also
 * keeps its texels in host memory: copies to the host read them there, and
 * copies from the host make a new image.
 *
 * Returns AMP_OK, or:
 * - AMP_ERROR_INVALID_ARGUMENT: NULL data or out, an unknown element type,
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

/* Release a texture and its device memory. NULL is a no-op. Returns
 * AMP_ERROR_INVALID_ARGUMENT for a handle already released. */
amp_status amp_texture_release(amp_texture *texture);

/*
 * Copy the whole texture to host memory dst of dst_bytes bytes (C++ AMP's
 * copy(texture, dst, dst_byte_size)), waiting for it. Returns
 * AMP_ERROR_INVALID_ARGUMENT for a NULL or released texture, a NULL dst, or
 * dst_bytes other than the texture's size in bytes;
 * AMP_ERROR_ACCELERATOR_VIEW_REMOVED when the texture's data was lost with
 * its device (amp_shutdown()); AMP_ERROR_RUNTIME for other OpenCL failures.
 */
amp_status amp_texture_copy_to_host(const amp_texture *texture, void *dst, size_t dst_bytes);

/*
 * Replace the texture's contents with src, src_bytes bytes laid out as for
 * amp_texture_create() (C++ AMP's copy(src, src_byte_size, texture)),
 * uploaded now. Statuses as amp_texture_copy_to_host().
 */
amp_status amp_texture_copy_from_host(amp_texture *texture, const void *src, size_t src_bytes);

/* The texture's extent (rank 0 for a NULL or released texture), element
 * type (0 then), channels per element (0 then), size in bytes (0 then), and
 * accelerator view (NULL then). */
amp_extent amp_texture_get_extent(const amp_texture *texture);
amp_elem_type amp_texture_get_type(const amp_texture *texture);
int amp_texture_get_channels(const amp_texture *texture);
size_t amp_texture_get_bytes(const amp_texture *texture);
amp_accelerator_view *amp_texture_get_accelerator_view(const amp_texture *texture);

/*
 * Store in *out the transfers of the texture's data since it was created.
 * Returns AMP_ERROR_INVALID_ARGUMENT for a NULL or released texture or a
 * NULL out.
 */
amp_status amp_texture_get_transfers(const amp_texture *texture, amp_transfer_stats *out);

/* The functions above that make a handle, as macros that also record the
 * caller's file and line for the leak report (AMP__MADE_AT, amp/status.h). */
#define amp_texture_create(...) AMP__MADE_AT(amp_texture_create, __VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif
