/*
 * runtime/data/texture.c - textures: OpenCL images made from host data, read by
 * kernels, copied back on request.
 *
 * The device's limits are asked when a texture is made, not when devices
 * are listed: most programs never make one, and a texture is made once and
 * read by many kernels.
 *
 * On a sub-device (AMP_SPLIT_CPU) no image command is queued at all. PoCL
 * keeps a context of sub-devices as one of their whole device, and each of
 * its image commands (clEnqueueWriteImage, ReadImage, MapImage, FillImage,
 * and the copies between images and buffers) looks for the queue's device
 * among the context's, does not find a sub-device there and aborts the
 * process (an assertion, in PoCL 3.1 and still in 7). Kernels find the
 * whole device, and read images on sub-devices as anywhere. There a
 * texture's data reaches the device as its image is made
 * (CL_MEM_COPY_HOST_PTR), a refill makes a new image, and a copy to the
 * host reads the texture's host copy, which holds its texels exactly: no
 * kernel writes a texture.
 *
 * amp_texture_create is defined as (name): amp/texture.h also makes it a
 * macro that records the caller's line for the leak report.
 */
#include "data/texture.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/handle.h"
#include "core/lock.h"
#include "core/testing.h"
#include "data/coherence.h"
#include "data/ledger.h"

/* Every channel type (int, uint, float) is 32 bits. */
#define CHANNEL_BYTES ((size_t)4)

int amp__tex_is_live(const amp_texture *t)
{
    LOCK_ASSERT_HELD();
    return amp__handle_is(t, HD_TEXTURE);
}

const char *amp__tex_image_type_name(tex_image_kind kind)
{
    switch (kind) {
    case TEX_IMAGE_1D: return "image1d_t";
    case TEX_IMAGE_1D_FOLDED: return "image2d_t";
    case TEX_IMAGE_2D: return "image2d_t";
    case TEX_IMAGE_3D: return "image3d_t";
    }
    return "unknown";
}

static cl_mem_object_type cl_object_type(tex_image_kind kind)
{
    switch (kind) {
    case TEX_IMAGE_1D: return CL_MEM_OBJECT_IMAGE1D;
    case TEX_IMAGE_1D_FOLDED: return CL_MEM_OBJECT_IMAGE2D;
    case TEX_IMAGE_2D: return CL_MEM_OBJECT_IMAGE2D;
    case TEX_IMAGE_3D: return CL_MEM_OBJECT_IMAGE3D;
    }
    return CL_MEM_OBJECT_IMAGE2D;
}

/* The image format of an element: one 32-bit channel type, in 1, 2 or 4
 * channels. */
static cl_image_format format_of(amp_elem_type type, int channels)
{
    cl_image_format f;
    f.image_channel_order = channels == 1 ? CL_R : channels == 2 ? CL_RG : CL_RGBA;
    f.image_channel_data_type = type == AMP_INT    ? CL_SIGNED_INT32
                                : type == AMP_UINT ? CL_UNSIGNED_INT32
                                                   : CL_FLOAT;
    return f;
}

/* A size_t property of the device; 0 when the query fails, which the
 * checks below then report as a limit of 0. */
static size_t device_size(const amp_accelerator *acc, cl_device_info what)
{
    size_t v = 0;
    if (amp__clapi.GetDeviceInfo(acc->device, what, sizeof v, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

/* The image is wider, taller or deeper than the device allows. */
static amp_status over_limit(const char *fn, const char *what, long long value, size_t limit,
                             const char *limit_name, const amp_accelerator *acc)
{
    return amp__err_set(AMP_ERROR_DEVICE_LIMIT,
                        "%s: the texture's %s is %lld texels, and %s allows at most %zu (%s)."
                        " Use a smaller texture, split it, or use an array_view.",
                        fn, what, value, acc->name, limit, limit_name);
}

/* Whether the device has images of kind in the format of type with
 * channels; *found says. */
static amp_status has_format(const char *fn, const amp_accelerator *acc, tex_image_kind kind,
                             amp_elem_type type, int channels, int *found)
{
    cl_image_format want = format_of(type, channels);
    cl_uint n = 0;
    *found = 0;
    cl_int rc = amp__clapi.GetSupportedImageFormats(acc->context, CL_MEM_READ_ONLY,
                                                    cl_object_type(kind), 0, NULL, &n);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clGetSupportedImageFormats", fn);
    cl_image_format *formats = calloc(n ? n : 1, sizeof *formats);
    if (!formats)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    rc = amp__clapi.GetSupportedImageFormats(acc->context, CL_MEM_READ_ONLY, cl_object_type(kind),
                                             n, formats, NULL);
    for (cl_uint i = 0; rc == CL_SUCCESS && i < n && !*found; i++)
        *found = formats[i].image_channel_order == want.image_channel_order &&
                 formats[i].image_channel_data_type == want.image_channel_data_type;
    free(formats);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clGetSupportedImageFormats", fn);
    return AMP_OK;
}

/* The channels the image stores: the texture's own, or 4 where the device
 * lacks that format (OpenCL requires the RGBA ones of every device with
 * images; PoCL, for one, has no two-channel formats). Reads in kernels are
 * the same either way; copies widen and narrow the texels on the host. */
static amp_status choose_stored_channels(const char *fn, const amp_accelerator *acc,
                                         tex_image_kind kind, amp_elem_type type, int channels,
                                         int *stored)
{
    int found = 0;
    *stored = channels;
    amp_status st = has_format(fn, acc, kind, type, channels, &found);
    if (st == AMP_OK && !found && channels != 4) {
        *stored = 4;
        st = has_format(fn, acc, kind, type, 4, &found);
    }
    if (st != AMP_OK)
        return st;
    if (!found)
        return amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                            "%s: %s has no %s image of %s, with %d channel%s or with 4. Use an"
                            " array_view.",
                            fn, acc->name, amp__tex_image_type_name(kind), amp_elem_type_name(type),
                            channels, channels == 1 ? "" : "s");
    return AMP_OK;
}

static amp_status check_image_support(const char *fn, const amp_accelerator *acc)
{
    cl_bool images = CL_FALSE;
    cl_int rc = amp__clapi.GetDeviceInfo(acc->device, CL_DEVICE_IMAGE_SUPPORT, sizeof images,
                                         &images, NULL);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clGetDeviceInfo(CL_DEVICE_IMAGE_SUPPORT)", fn);
    if (!images)
        return amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                            "%s: %s has no image support (CL_DEVICE_IMAGE_SUPPORT is false), so it"
                            " cannot hold textures. Use an array_view, or another accelerator.",
                            fn, acc->name);
    return AMP_OK;
}

/* A limit of images of rank 2 or 3 on one dimension, from the last. */
typedef struct image_limit {
    const char *what;
    cl_device_info query;
    const char *name;
} image_limit;

#define IMAGE_LIMIT(what, query)                                                                   \
    {                                                                                              \
        what, query, #query                                                                        \
    }
static const image_limit limits_2d[2] = {IMAGE_LIMIT("width", CL_DEVICE_IMAGE2D_MAX_WIDTH),
                                         IMAGE_LIMIT("height", CL_DEVICE_IMAGE2D_MAX_HEIGHT)};
static const image_limit limits_3d[3] = {IMAGE_LIMIT("width", CL_DEVICE_IMAGE3D_MAX_WIDTH),
                                         IMAGE_LIMIT("height", CL_DEVICE_IMAGE3D_MAX_HEIGHT),
                                         IMAGE_LIMIT("depth", CL_DEVICE_IMAGE3D_MAX_DEPTH)};
#undef IMAGE_LIMIT

/* Check that acc can hold a texture of this shape, and choose the image
 * kind (and, for a folded one, its row width). */
static amp_status check_limits(const char *fn, const amp_accelerator *acc, amp_extent e,
                               tex_image_kind *kind, size_t *fold_width)
{
    if (e.rank == 1) {
        /* A 1D image is as wide as a 2D one may be. Past that, the texels
         * are laid out in rows of a 2D image (an image1d_buffer_t would
         * reach further on some devices, but PoCL 3.1 leaks memory with
         * each and cannot ask one its width). */
        size_t max_w = device_size(acc, CL_DEVICE_IMAGE2D_MAX_WIDTH);
        size_t max_h = device_size(acc, CL_DEVICE_IMAGE2D_MAX_HEIGHT);
        *fold_width = max_w;
        if ((size_t)e.dims[0] <= max_w) {
            *kind = TEX_IMAGE_1D;
        } else if (max_w > 0 && ((size_t)e.dims[0] + max_w - 1) / max_w <= max_h) {
            *kind = TEX_IMAGE_1D_FOLDED;
        } else {
            char limit[64];
            snprintf(limit, sizeof limit, "%zu x %zu", max_w, max_h);
            return amp__err_set(
                AMP_ERROR_DEVICE_LIMIT,
                "%s: the texture's width is %d texels, and %s holds at most %s = %llu"
                " in a rank-1 texture (CL_DEVICE_IMAGE2D_MAX_WIDTH x"
                " CL_DEVICE_IMAGE2D_MAX_HEIGHT). Use a smaller texture, or an"
                " array_view.",
                fn, e.dims[0], acc->name, limit,
                (unsigned long long)max_w * (unsigned long long)max_h);
        }
    } else {
        /* C++ AMP's dimension 0 is the slowest: the image's height in rank
         * 2, its depth in rank 3. Each dimension, from the last. */
        const image_limit *limits = e.rank == 2 ? limits_2d : limits_3d;
        for (int k = 0; k < e.rank; k++) {
            int d = e.rank - 1 - k;
            size_t max = device_size(acc, limits[k].query);
            if ((size_t)e.dims[d] > max) {
                char what[32];
                snprintf(what, sizeof what, "%s (dimension %d)", limits[k].what, d);
                return over_limit(fn, what, e.dims[d], max, limits[k].name, acc);
            }
        }
        *kind = e.rank == 2 ? TEX_IMAGE_2D : TEX_IMAGE_3D;
    }
    return AMP_OK;
}

/* The image's bytes must fit one allocation of the device. */
static amp_status check_allocation(const char *fn, const amp_accelerator *acc, uint64_t bytes)
{
    cl_ulong max_alloc = 0;
    cl_int rc = amp__clapi.GetDeviceInfo(acc->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE,
                                         sizeof max_alloc, &max_alloc, NULL);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clGetDeviceInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE)", fn);
    if (bytes > max_alloc || bytes > SIZE_MAX)
        return amp__err_set(AMP_ERROR_DEVICE_LIMIT,
                            "%s: the texture has %llu bytes on the device, and %s allocates at most"
                            " %llu at once (CL_DEVICE_MAX_MEM_ALLOC_SIZE). Use a smaller texture.",
                            fn, (unsigned long long)bytes, acc->name,
                            (unsigned long long)max_alloc);
    return AMP_OK;
}

/* The image's size: width, height, depth in texels. */
static void image_size(const amp_texture *t, size_t size[3])
{
    const amp_extent *e = &t->extent;
    if (t->kind == TEX_IMAGE_1D_FOLDED) {
        size[0] = t->fold_width;
        size[1] = ((size_t)e->dims[0] + t->fold_width - 1) / t->fold_width;
        size[2] = 1;
        return;
    }
    size[0] = (size_t)e->dims[e->rank - 1];
    size[1] = e->rank >= 2 ? (size_t)e->dims[e->rank - 2] : 1;
    size[2] = e->rank == 3 ? (size_t)e->dims[0] : 1;
}

/* The regions of the image that hold the texture's texels, at most two:
 * all of it, or for a folded one its whole rows and the part of the last
 * row that is used. Returns how many; each region's first texel is
 * first[k] texels into the host's data. */
static int texel_regions(const amp_texture *t, size_t origin[2][3], size_t region[2][3],
                         size_t first[2])
{
    size_t size[3];
    image_size(t, size);
    for (int k = 0; k < 2; k++) {
        origin[k][0] = origin[k][1] = origin[k][2] = 0;
        first[k] = 0;
    }
    if (t->kind != TEX_IMAGE_1D_FOLDED) {
        memcpy(region[0], size, sizeof size);
        return 1;
    }
    size_t n = (size_t)t->extent.dims[0];
    size_t full = n / t->fold_width, rest = n % t->fold_width;
    int count = 0;
    if (full > 0) {
        region[count][0] = t->fold_width;
        region[count][1] = full;
        region[count][2] = 1;
        count++;
    }
    if (rest > 0) {
        origin[count][1] = full;
        region[count][0] = rest;
        region[count][1] = 1;
        region[count][2] = 1;
        first[count] = full * t->fold_width;
        count++;
    }
    return count;
}

static void count(amp_texture *t, amp_transfer_direction dir)
{
    /* What moved: the image's bytes, wider than the host's where the
     * image stores more channels than the texture has. */
    amp__ledger_add(&t->stats, dir, AMP_REASON_COPY, t->device_bytes, t->av->acc, "texture", NULL,
                    NULL);
}

/* Copy texels between the host's layout (channels values each) and the
 * image's (stored values each; the extra ones 0). */
static void relayout(const amp_texture *t, void *dst, int dst_channels, const void *src,
                     int src_channels)
{
    size_t texels = t->bytes / ((size_t)t->channels * CHANNEL_BYTES);
    size_t keep = (size_t)t->channels * CHANNEL_BYTES;
    const unsigned char *from = src;
    unsigned char *to = dst;
    for (size_t i = 0; i < texels; i++) {
        memcpy(to + i * dst_channels * CHANNEL_BYTES, from + i * src_channels * CHANNEL_BYTES,
               keep);
        if (dst_channels > t->channels)
            memset(to + i * dst_channels * CHANNEL_BYTES + keep, 0,
                   (size_t)(dst_channels - t->channels) * CHANNEL_BYTES);
    }
}

/* Upload host data, all of the texture, and wait for it: the caller may
 * reuse its memory when the call returns. The write comes after every use
 * of the image before, on any view: a kernel queued on another view reads
 * the texels it was given. */
static amp_status upload(amp_texture *t, const void *data, const char *fn)
{
    amp_status st = amp__coh_order_use(&t->order, t->av);
    if (st != AMP_OK)
        return st;
    void *wide = NULL;
    if (t->stored_channels != t->channels) {
        if (!(wide = malloc(t->device_bytes)))
            return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
        relayout(t, wide, t->stored_channels, data, t->channels);
        data = wide;
    }
    size_t origin[2][3], region[2][3], first[2];
    int n = texel_regions(t, origin, region, first);
    size_t texel = (size_t)t->stored_channels * CHANNEL_BYTES;
    cl_int rc = CL_SUCCESS;
    for (int k = 0; k < n && rc == CL_SUCCESS; k++)
        rc = amp__clapi.EnqueueWriteImage(t->av->queue, t->image, CL_TRUE, origin[k], region[k], 0,
                                          0, (const char *)data + first[k] * texel, 0, NULL, NULL);
    free(wide);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clEnqueueWriteImage", fn);
    count(t, AMP_TO_DEVICE);
    return AMP_OK;
}

/* Download the whole texture to dst, in the host's layout, after every use
 * of the image before, on any view. */
static amp_status download(amp_texture *t, void *dst, const char *fn)
{
    amp_status st = amp__coh_order_use(&t->order, t->av);
    if (st != AMP_OK)
        return st;
    void *wide = NULL;
    if (t->stored_channels != t->channels && !(wide = malloc(t->device_bytes)))
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    size_t origin[2][3], region[2][3], first[2];
    int n = texel_regions(t, origin, region, first);
    size_t texel = (size_t)t->stored_channels * CHANNEL_BYTES;
    char *to = wide ? wide : dst;
    cl_int rc = CL_SUCCESS;
    for (int k = 0; k < n && rc == CL_SUCCESS; k++)
        rc = amp__clapi.EnqueueReadImage(t->av->queue, t->image, CL_TRUE, origin[k], region[k], 0,
                                         0, to + first[k] * texel, 0, NULL, NULL);
    if (rc == CL_SUCCESS && wide)
        relayout(t, dst, t->channels, wide, t->stored_channels);
    free(wide);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clEnqueueReadImage", fn);
    count(t, AMP_TO_HOST);
    return AMP_OK;
}

/* Release the image (kernels still queued keep it until they finish), the
 * host copy that stands for it on a sub-device, and the texture's hold on
 * its view. */
static void free_data(amp_texture *t)
{
    if (t->image)
        amp__clapi.ReleaseMemObject(t->image);
    t->image = NULL;
    free(t->host_copy);
    t->host_copy = NULL;
    if (t->order.last_view)
        amp__coh_order_end(&t->order);
    if (t->av)
        amp__queue_release(t->av);
    t->av = NULL;
}

/* Make an image for t in *image: empty (texels NULL), or filled from
 * texels, laid out as the whole image is (image_texels). */
static amp_status make_image(amp_texture *t, const void *texels, const char *fn, cl_mem *image)
{
    cl_image_format format = format_of(t->type, t->stored_channels);
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = cl_object_type(t->kind);
    size_t size[3];
    image_size(t, size);
    desc.image_width = size[0];
    desc.image_height = desc.image_type == CL_MEM_OBJECT_IMAGE1D ? 0 : size[1];
    desc.image_depth = desc.image_type == CL_MEM_OBJECT_IMAGE3D ? size[2] : 0;
    cl_mem_flags flags = CL_MEM_READ_ONLY | (texels ? CL_MEM_COPY_HOST_PTR : 0);
    cl_int rc = CL_SUCCESS;
    *image = amp__clapi.CreateImage(t->av->acc->context, flags, &format, &desc, (void *)texels,
                                    &rc);
    if (*image)
        return AMP_OK;
    if (amp__err_status_of_cl(rc) == AMP_ERROR_OUT_OF_MEMORY)
        return amp__err_set(
            AMP_ERROR_OUT_OF_MEMORY,
            "%s: %s cannot allocate the texture's %zu bytes (%s). Release other data"
            " or use a smaller texture.",
            fn, t->av->acc->name, t->device_bytes, amp__err_cl_name(rc));
    return amp__err_cl(rc, "clCreateImage", fn);
}

/* The image's texels, stored channels each, as host data gives them (the
 * rest of a folded texture's last row 0): data itself where that is the
 * layout, else a new buffer in *owned. */
static amp_status image_texels(const amp_texture *t, const void *data, const char *fn,
                               const void **texels, void **owned)
{
    size_t size[3];
    image_size(t, size);
    size_t bytes = size[0] * size[1] * size[2] * (size_t)t->stored_channels * CHANNEL_BYTES;
    *owned = NULL;
    *texels = data;
    if (bytes == t->bytes)
        return AMP_OK;
    if (!(*owned = calloc(1, bytes)))
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    relayout(t, *owned, t->stored_channels, data, t->channels);
    *texels = *owned;
    return AMP_OK;
}

/* On a sub-device (the file's comment): a new image filled from data in
 * place of the old one, which kernels still queued keep until they
 * finish, and data in the host copy. Nothing queued uses the new image:
 * its order starts afresh. */
static amp_status remake(amp_texture *t, const void *data, const char *fn)
{
    if (!t->host_copy && !(t->host_copy = malloc(t->bytes)))
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    const void *texels;
    void *owned;
    cl_mem image = NULL;
    amp_status st = image_texels(t, data, fn, &texels, &owned);
    if (st == AMP_OK)
        st = make_image(t, texels, fn, &image);
    free(owned);
    if (st != AMP_OK)
        return st;
    if (t->image) {
        amp__clapi.ReleaseMemObject(t->image);
        amp__coh_order_end(&t->order);
        amp__coh_order_begin(&t->order, t->av);
    }
    t->image = image;
    memcpy(t->host_copy, data, t->bytes);
    count(t, AMP_TO_DEVICE);
    return AMP_OK;
}

/* Put data, all of the texture, on the device: through the texture's
 * queue, or on a sub-device as a new image. */
static amp_status fill(amp_texture *t, const void *data, const char *fn)
{
    if (t->av->acc->sub_device)
        return remake(t, data, fn);
    amp_status st = t->image ? AMP_OK : make_image(t, NULL, fn, &t->image);
    return st == AMP_OK ? upload(t, data, fn) : st;
}

/* Copy the whole texture to dst, in the host's layout: from the device, or
 * on a sub-device from the host copy (no transfer). */
static amp_status read_back(amp_texture *t, void *dst, const char *fn)
{
    if (!t->av->acc->sub_device)
        return download(t, dst, fn);
    memcpy(dst, t->host_copy, t->bytes);
    return AMP_OK;
}

/* The checks that need no device. */
static amp_status check_arguments(const char *fn, amp_elem_type type, int channels, amp_extent e,
                                  const void *data)
{
    if (type == AMP_DOUBLE)
        return amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                            "%s: textures of double are not available: OpenCL images have no 64-bit"
                            " channel format. Use AMP_FLOAT, or an array_view of double.",
                            fn);
    if (type != AMP_INT && type != AMP_UINT && type != AMP_FLOAT)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: element type %d is not one of AMP_INT, AMP_UINT, AMP_FLOAT.", fn,
                            (int)type);
    if (channels != 1 && channels != 2 && channels != 4)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: %d channels; a texture element has 1, 2 or 4 (int, int_2, int_4 in"
                            " C++ AMP).",
                            fn, channels);
    if (e.rank < 1 || e.rank > 3)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the extent has rank %d; a texture has rank 1, 2 or 3 (as in C++"
                            " AMP).",
                            fn, e.rank);
    for (int d = 0; d < e.rank; d++)
        if (e.dims[d] <= 0)
            return amp__err_set(
                AMP_ERROR_INVALID_ARGUMENT,
                "%s: dimension %d of the extent is %d; every dimension must be > 0.", fn, d,
                e.dims[d]);
    if (!data)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: data is NULL; a texture is filled from host data when it is made.",
                            fn);
    return AMP_OK;
}

/* The image kind, stored channels and sizes of a new texture, checked
 * against av's device. */
static amp_status plan(const char *fn, amp_texture *t, amp_accelerator_view *av)
{
    const amp_accelerator *acc = av->acc;
    amp_status st = check_image_support(fn, acc);
    if (st == AMP_OK)
        st = check_limits(fn, acc, t->extent, &t->kind, &t->fold_width);
    if (st == AMP_OK)
        st = choose_stored_channels(fn, acc, t->kind, t->type, t->channels, &t->stored_channels);
    if (st != AMP_OK)
        return st;
    /* Within the image limits (each below 2^31, at most 3 of them) the
     * texel count and the bytes fit in 64 bits; SIZE_MAX is checked with
     * the allocation limit. */
    uint64_t texels = (uint64_t)amp_extent_size(t->extent);
    uint64_t image_texels = t->kind == TEX_IMAGE_1D_FOLDED
                                ? ((texels + t->fold_width - 1) / t->fold_width) * t->fold_width
                                : texels;
    st = check_allocation(fn, acc, image_texels * (uint64_t)t->stored_channels * CHANNEL_BYTES);
    if (st != AMP_OK)
        return st;
    t->bytes = (size_t)(texels * (uint64_t)t->channels * CHANNEL_BYTES);
    t->device_bytes = (size_t)(texels * (uint64_t)t->stored_channels * CHANNEL_BYTES);
    t->av = av;
    return AMP_OK;
}

amp_status(amp_texture_create)(amp_elem_type type, int channels, amp_extent extent,
                               const void *data, amp_accelerator_view *av, amp_texture **out)
{
    static const char fn[] = "amp_texture_create";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    amp_status st = check_arguments(fn, type, channels, extent, data);
    if (st != AMP_OK)
        return st;
    amp__lock_acquire();
    amp_texture *t = NULL;
    st = amp__queue_resolve_in(fn, av, &av);
    if (st != AMP_OK)
        goto done;
    t = amp__handle_alloc(HD_TEXTURE, sizeof *t, HD_CALLER);
    if (!t) {
        st = amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
        goto done;
    }
    t->type = type;
    t->channels = channels;
    t->extent = extent;
    st = plan(fn, t, av);
    if (st == AMP_OK) {
        /* A created view lives while a texture is on it, as for an array. */
        amp__queue_retain(av);
        amp__coh_order_begin(&t->order, av);
        st = fill(t, data, fn);
    }
    if (st == AMP_OK) {
        *out = t;
        goto done;
    }
    free_data(t);
    amp__handle_free(t);
done:
    amp__lock_release();
    return st;
}

amp_status amp__tex_device_ready(amp_texture *t, amp_accelerator_view *av, cl_mem *image)
{
    LOCK_ASSERT_HELD();
    amp_status st = amp__coh_order_use(&t->order, av);
    if (st == AMP_OK)
        *image = t->image;
    return st;
}

static amp_status check_texture(const char *fn, const amp_texture *t)
{
    return amp__handle_check(fn, t, HD_TEXTURE);
}

amp_status amp_texture_release(amp_texture *texture)
{
    if (!texture)
        return AMP_OK;
    amp__lock_acquire();
    amp_status st = check_texture("amp_texture_release", texture);
    if (st == AMP_OK) {
        free_data(texture);
        amp__handle_free(texture);
    }
    amp__lock_release();
    return st;
}

/* The checks of both copies; expects the lock. */
static amp_status check_copy(const char *fn, const amp_texture *t, const void *host,
                             size_t host_bytes)
{
    if (!host)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: the host pointer is NULL.", fn);
    if (host_bytes != t->bytes)
        return amp__err_set(
            AMP_ERROR_INVALID_ARGUMENT,
            "%s: the host memory has %zu bytes and the texture %zu (%lld elements of"
            " %d %s%s). Both must be the same size.",
            fn, host_bytes, t->bytes, (long long)amp_extent_size(t->extent), t->channels,
            amp_elem_type_name(t->type), t->channels == 1 ? "" : "s");
    if (!t->av)
        return amp__err_set(AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                            "%s: the texture's data was lost with its accelerator (amp_shutdown)."
                            " Make the texture again.",
                            fn);
    return AMP_OK;
}

/* Copy the whole texture to host memory (to_host) or from it, as the call
 * fn. */
static amp_status copy_with_host(const char *fn, const amp_texture *texture, const void *host,
                                 size_t host_bytes, int to_host)
{
    amp__lock_acquire();
    amp_status st = check_texture(fn, texture);
    if (st == AMP_OK)
        st = check_copy(fn, texture, host, host_bytes);
    /* The ledger counts the copy in the texture's own figures. */
    amp_texture *t = (amp_texture *)texture;
    if (st == AMP_OK)
        st = to_host ? read_back(t, (void *)host, fn) : fill(t, host, fn);
    amp__lock_release();
    return st;
}

amp_status amp_texture_copy_to_host(const amp_texture *texture, void *dst, size_t dst_bytes)
{
    return copy_with_host("amp_texture_copy_to_host", texture, dst, dst_bytes, 1);
}

amp_status amp_texture_copy_from_host(amp_texture *texture, const void *src, size_t src_bytes)
{
    return copy_with_host("amp_texture_copy_from_host", texture, src, src_bytes, 0);
}

/* What the getters read: a copy of a live texture, taken under the lock,
 * or zeros for any other pointer (a released one is never read). */
static amp_texture texture_at(const amp_texture *texture)
{
    amp_texture copy = {0};
    amp__lock_acquire();
    if (amp__tex_is_live(texture))
        copy = *texture;
    amp__lock_release();
    return copy;
}

amp_extent amp_texture_get_extent(const amp_texture *texture)
{
    return texture_at(texture).extent;
}

amp_elem_type amp_texture_get_type(const amp_texture *texture)
{
    return texture_at(texture).type;
}

int amp_texture_get_channels(const amp_texture *texture)
{
    return texture_at(texture).channels;
}

size_t amp_texture_get_bytes(const amp_texture *texture)
{
    return texture_at(texture).bytes;
}

amp_accelerator_view *amp_texture_get_accelerator_view(const amp_texture *texture)
{
    return texture_at(texture).av;
}

amp_status amp_texture_get_transfers(const amp_texture *texture, amp_transfer_stats *out)
{
    static const char fn[] = "amp_texture_get_transfers";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    amp__lock_acquire();
    amp_status st = check_texture(fn, texture);
    if (st == AMP_OK)
        *out = texture->stats;
    amp__lock_release();
    return st;
}

static void drop_device_memory(void *texture, void *user)
{
    (void)user;
    free_data(texture);
}

void amp__tex_drop_all_device_memory(void)
{
    LOCK_ASSERT_HELD();
    amp__handle_each(HD_TEXTURE, drop_device_memory, NULL);
}

/* ---- Hooks for tests (core/testing.h) ---- */

test_texture_image amp__test_texture_image(const amp_texture *texture)
{
    return (test_texture_image){texture->kind == TEX_IMAGE_1D_FOLDED, texture->stored_channels};
}
