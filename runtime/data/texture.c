/*
 * runtime/data/texture.c - textures: OpenCL images made empty or from host
 * data, read and written by kernels, copied to and from the host; their
 * views; what they share (tex_data, texture.h).
 *
 * The device's limits are asked when a texture is made, not when devices
 * are listed: most programs never make one, and a texture is made once and
 * used by many kernels.
 *
 * On a sub-device (AMP_SPLIT_CPU) no image command is queued at all. PoCL
 * keeps a context of sub-devices as one of their whole device, and each of
 * its image commands (clEnqueueWriteImage, ReadImage, MapImage, FillImage,
 * and the copies between images and buffers) looks for the queue's device
 * among the context's, does not find a sub-device there and aborts the
 * process (an assertion, in PoCL 3.1 and still in 7). Kernels find the
 * whole device, and read and write images on sub-devices as anywhere.
 * There the image is made over memory of the texture's
 * (CL_MEM_USE_HOST_PTR), which a CPU device reads and writes in place, as
 * PoCL does: a copy to or from the host waits until the image's last use is
 * done (clFinish of the view that used it last, which waited for every use
 * before), then copies that memory on the host.
 *
 * amp_texture_create and the other makers are defined as (name):
 * amp/texture.h also makes them macros that record the caller's line for
 * the leak report.
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
#include "core/timeline.h"
#include "data/coherence.h"
#include "data/ledger.h"

/* Every texture's data, for amp_shutdown (a texture's data may outlive
 * its handle, held by a view or a copy still to run). */
static tex_data *all_data;

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

/* ---- Formats ---- */

/* C++ AMP's bits_per_scalar_element when none is given. */
static int default_bits(amp_elem_type type)
{
    return type == AMP_NORM || type == AMP_UNORM ? 16 : 32;
}

/* Whether the type is stored in this many bits a channel (C++ AMP's
 * valid combinations, which OpenCL's formats all have). */
static int takes_bits(amp_elem_type type, int bits)
{
    switch (type) {
    case AMP_INT:
    case AMP_UINT: return bits == 8 || bits == 16 || bits == 32;
    case AMP_FLOAT: return bits == 16 || bits == 32;
    case AMP_NORM:
    case AMP_UNORM: return bits == 8 || bits == 16;
    default: return 0;
    }
}

static cl_channel_type channel_type(amp_elem_type type, int bits)
{
    switch (type) {
    case AMP_INT:
        return bits == 8 ? CL_SIGNED_INT8 : bits == 16 ? CL_SIGNED_INT16 : CL_SIGNED_INT32;
    case AMP_UINT:
        return bits == 8 ? CL_UNSIGNED_INT8 : bits == 16 ? CL_UNSIGNED_INT16 : CL_UNSIGNED_INT32;
    case AMP_NORM: return bits == 8 ? CL_SNORM_INT8 : CL_SNORM_INT16;
    case AMP_UNORM: return bits == 8 ? CL_UNORM_INT8 : CL_UNORM_INT16;
    default: return bits == 16 ? CL_HALF_FLOAT : CL_FLOAT;
    }
}

/* The image format of an element: one channel type, in 1, 2 or 4
 * channels. */
static cl_image_format format_of(amp_elem_type type, int bits, int channels)
{
    cl_image_format f;
    f.image_channel_order = channels == 1 ? CL_R : channels == 2 ? CL_RG : CL_RGBA;
    f.image_channel_data_type = channel_type(type, bits);
    return f;
}

/* A value's bytes in the host's layout and the image's. */
static size_t value_bytes(const tex_data *d)
{
    return (size_t)d->bits / 8;
}

size_t amp__tex_texel_bytes(const tex_data *d)
{
    return (size_t)d->channels * value_bytes(d);
}

size_t amp__tex_stored_texel_bytes(const tex_data *d)
{
    return (size_t)d->stored_channels * value_bytes(d);
}

/* "8-bit unorm", for messages. */
static const char *format_words(const tex_data *d, char *buf, size_t n)
{
    snprintf(buf, n, "%d-bit %s", d->bits, amp_elem_type_name(d->type));
    return buf;
}

/* ---- The device's limits ---- */

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

/* Whether the device has images of kind in format, for flags; *found
 * says. */
static amp_status has_format(const char *fn, const amp_accelerator *acc, tex_image_kind kind,
                             cl_mem_flags flags, cl_image_format want, int *found)
{
    cl_uint n = 0;
    *found = 0;
    cl_int rc = amp__clapi.GetSupportedImageFormats(acc->context, flags, cl_object_type(kind), 0,
                                                    NULL, &n);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clGetSupportedImageFormats", fn);
    cl_image_format *formats = calloc(n ? n : 1, sizeof *formats);
    if (!formats)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    rc = amp__clapi.GetSupportedImageFormats(acc->context, flags, cl_object_type(kind), n, formats,
                                             NULL);
    for (cl_uint i = 0; rc == CL_SUCCESS && i < n && !*found; i++)
        *found = formats[i].image_channel_order == want.image_channel_order &&
                 formats[i].image_channel_data_type == want.image_channel_data_type;
    free(formats);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clGetSupportedImageFormats", fn);
    return AMP_OK;
}

/* The channels the image stores, and whether kernels may write it: the
 * texture's own channels, or 4 where the device lacks that format (OpenCL
 * requires the RGBA ones of every device with images; PoCL, for one, has
 * no two-channel formats), in a format kernels read and write if the
 * device has one, else in one they only read. Reads in kernels are the
 * same either way; copies widen and narrow the texels on the host. */
static amp_status choose_format(const char *fn, const amp_accelerator *acc, tex_data *d)
{
    static const cl_mem_flags modes[2] = {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY};
    int found = 0;
    amp_status st = AMP_OK;
    for (int m = 0; m < 2 && !found && st == AMP_OK; m++) {
        d->writable = m == 0;
        d->stored_channels = d->channels;
        st = has_format(fn, acc, d->kind, modes[m], format_of(d->type, d->bits, d->channels),
                        &found);
        if (st == AMP_OK && !found && d->channels != 4) {
            d->stored_channels = 4;
            st = has_format(fn, acc, d->kind, modes[m], format_of(d->type, d->bits, 4), &found);
        }
    }
    if (st != AMP_OK)
        return st;
    if (!found) {
        char format[32];
        return amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                            "%s: %s has no %s image of %s, with %d channel%s or with 4. Use an"
                            " array_view, or another bits_per_scalar_element.",
                            fn, acc->name, amp__tex_image_type_name(d->kind),
                            format_words(d, format, sizeof format), d->channels,
                            d->channels == 1 ? "" : "s");
    }
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

/* ---- The image's layout ---- */

void amp__tex_image_size(const tex_data *d, size_t size[3])
{
    const amp_extent *e = &d->extent;
    if (d->kind == TEX_IMAGE_1D_FOLDED) {
        size[0] = d->fold_width;
        size[1] = ((size_t)e->dims[0] + d->fold_width - 1) / d->fold_width;
        size[2] = 1;
        return;
    }
    size[0] = (size_t)e->dims[e->rank - 1];
    size[1] = e->rank >= 2 ? (size_t)e->dims[e->rank - 2] : 1;
    size[2] = e->rank == 3 ? (size_t)e->dims[0] : 1;
}

int amp__tex_regions(const tex_data *d, size_t origin[2][3], size_t region[2][3], size_t first[2])
{
    size_t size[3];
    amp__tex_image_size(d, size);
    for (int k = 0; k < 2; k++) {
        origin[k][0] = origin[k][1] = origin[k][2] = 0;
        first[k] = 0;
    }
    if (d->kind != TEX_IMAGE_1D_FOLDED) {
        memcpy(region[0], size, sizeof size);
        return 1;
    }
    size_t n = (size_t)d->extent.dims[0];
    size_t full = n / d->fold_width, rest = n % d->fold_width;
    int count = 0;
    if (full > 0) {
        region[count][0] = d->fold_width;
        region[count][1] = full;
        region[count][2] = 1;
        count++;
    }
    if (rest > 0) {
        origin[count][1] = full;
        region[count][0] = rest;
        region[count][1] = 1;
        region[count][2] = 1;
        first[count] = full * d->fold_width;
        count++;
    }
    return count;
}

void amp__tex_count(tex_data *d, amp_transfer_direction dir, size_t bytes, int64_t began)
{
    /* On the timeline, timed on the host: the copies are blocking calls.
     * Off, the clock is not read. */
    int64_t at = began || !amp__tl_active ? began : amp__tl_now();
    ledger_move move = {NULL, d, "texture", d->av, 0, at, 0, 0, 0, NULL};
    amp__ledger_add(&d->stats, dir, AMP_REASON_COPY, bytes, d->av->acc, "texture", NULL, NULL,
                    amp__tl_active ? &move : NULL);
}

/* Copy n texels between the host's layout (channels values each) and the
 * image's (stored values each; the extra ones 0). */
static void relayout(const tex_data *d, size_t n, void *dst, int dst_channels, const void *src,
                     int src_channels)
{
    size_t vb = value_bytes(d);
    if (dst_channels == src_channels) {
        memcpy(dst, src, n * (size_t)dst_channels * vb);
        return;
    }
    size_t keep = (size_t)d->channels * vb;
    const unsigned char *from = src;
    unsigned char *to = dst;
    for (size_t i = 0; i < n; i++) {
        memcpy(to + i * dst_channels * vb, from + i * src_channels * vb, keep);
        if (dst_channels > d->channels)
            memset(to + i * dst_channels * vb + keep, 0, (size_t)(dst_channels - d->channels) * vb);
    }
}

static size_t texel_count(const tex_data *d)
{
    return (size_t)amp_extent_size(d->extent);
}

/* ---- Moving texels between the host and the image ---- */

/* Upload host data, all of the texture, and wait for it: the caller may
 * reuse its memory when the call returns. The write comes after every use
 * of the image before, on any view: a kernel queued on another view reads
 * the texels it was given. */
static amp_status upload(tex_data *d, const void *data, const char *fn)
{
    int64_t began = amp__tl_active ? amp__tl_now() : 0;
    amp_status st = amp__coh_order_use(&d->order, d->av);
    if (st != AMP_OK)
        return st;
    void *wide = NULL;
    if (d->stored_channels != d->channels) {
        if (!(wide = malloc(texel_count(d) * amp__tex_stored_texel_bytes(d))))
            return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
        relayout(d, texel_count(d), wide, d->stored_channels, data, d->channels);
        data = wide;
    }
    size_t origin[2][3], region[2][3], first[2];
    int n = amp__tex_regions(d, origin, region, first);
    size_t texel = amp__tex_stored_texel_bytes(d);
    cl_int rc = CL_SUCCESS;
    for (int k = 0; k < n && rc == CL_SUCCESS; k++)
        rc = amp__clapi.EnqueueWriteImage(d->av->queue, d->image, CL_TRUE, origin[k], region[k], 0,
                                          0, (const char *)data + first[k] * texel, 0, NULL, NULL);
    free(wide);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clEnqueueWriteImage", fn);
    amp__tex_count(d, AMP_TO_DEVICE, texel_count(d) * texel, began);
    return AMP_OK;
}

/* Download the whole texture to dst, in the host's layout, after every use
 * of the image before, on any view. */
static amp_status download(tex_data *d, void *dst, const char *fn)
{
    int64_t began = amp__tl_active ? amp__tl_now() : 0;
    amp_status st = amp__coh_order_use(&d->order, d->av);
    if (st != AMP_OK)
        return st;
    void *wide = NULL;
    size_t texel = amp__tex_stored_texel_bytes(d);
    if (d->stored_channels != d->channels && !(wide = malloc(texel_count(d) * texel)))
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    size_t origin[2][3], region[2][3], first[2];
    int n = amp__tex_regions(d, origin, region, first);
    char *to = wide ? wide : dst;
    cl_int rc = CL_SUCCESS;
    for (int k = 0; k < n && rc == CL_SUCCESS; k++)
        rc = amp__clapi.EnqueueReadImage(d->av->queue, d->image, CL_TRUE, origin[k], region[k], 0,
                                         0, to + first[k] * texel, 0, NULL, NULL);
    if (rc == CL_SUCCESS && wide)
        relayout(d, texel_count(d), dst, d->channels, wide, d->stored_channels);
    free(wide);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clEnqueueReadImage", fn);
    amp__tex_count(d, AMP_TO_HOST, texel_count(d) * texel, began);
    return AMP_OK;
}

amp_status amp__tex_wait_idle(tex_data *d, const char *fn)
{
    amp_status st = amp__coh_order_use(&d->order, d->av);
    if (st != AMP_OK)
        return st;
    cl_int rc = amp__clapi.Finish(d->av->queue);
    return rc == CL_SUCCESS ? AMP_OK : amp__queue_failed(d->av, rc, "clFinish", fn);
}

/* The image's texels on a sub-device, in its host memory: the first n
 * texels (a folded texture's rows lie one after another, as the host's). */
static amp_status fill_in_place(tex_data *d, const void *data, const char *fn)
{
    int64_t began = amp__tl_active ? amp__tl_now() : 0;
    amp_status st = amp__tex_wait_idle(d, fn);
    if (st != AMP_OK)
        return st;
    relayout(d, texel_count(d), d->host_copy, d->stored_channels, data, d->channels);
    amp__tex_count(d, AMP_TO_DEVICE, texel_count(d) * amp__tex_stored_texel_bytes(d), began);
    return AMP_OK;
}

static amp_status read_in_place(tex_data *d, void *dst, const char *fn)
{
    int64_t began = amp__tl_active ? amp__tl_now() : 0;
    amp_status st = amp__tex_wait_idle(d, fn);
    if (st != AMP_OK)
        return st;
    relayout(d, texel_count(d), dst, d->channels, d->host_copy, d->stored_channels);
    amp__tex_count(d, AMP_TO_HOST, texel_count(d) * amp__tex_stored_texel_bytes(d), began);
    return AMP_OK;
}

amp_status amp__tex_fill(tex_data *d, const void *data, const char *fn)
{
    return d->av->acc->sub_device ? fill_in_place(d, data, fn) : upload(d, data, fn);
}

amp_status amp__tex_read(tex_data *d, void *dst, const char *fn)
{
    return d->av->acc->sub_device ? read_in_place(d, dst, fn) : download(d, dst, fn);
}

/* ---- Making and freeing ---- */

/* Release the image (kernels still queued keep it until they finish), the
 * memory it is made over on a sub-device, and the hold on its view. The
 * image goes first: PoCL no longer touches its memory after that. */
static void free_device_memory(tex_data *d)
{
    if (d->image)
        amp__clapi.ReleaseMemObject(d->image);
    d->image = NULL;
    if (d->order.last_view) {
        /* On a sub-device the memory must outlive every command queued on
         * the image: wait for them. */
        if (d->host_copy && d->av)
            amp__clapi.Finish(d->order.last_view->queue);
        amp__coh_order_end(&d->order);
    }
    free(d->host_copy);
    d->host_copy = NULL;
    if (d->av)
        amp__queue_release(d->av);
    d->av = NULL;
}

void amp__tex_retain(tex_data *d)
{
    LOCK_ASSERT_HELD();
    d->refs++;
}

void amp__tex_release_data(tex_data *d)
{
    LOCK_ASSERT_HELD();
    if (--d->refs > 0)
        return;
    free_device_memory(d);
    if (d->prev)
        d->prev->next = d->next;
    else
        all_data = d->next;
    if (d->next)
        d->next->prev = d->prev;
    amp__tl_texture_end(d);
    free(d);
}

/* The image's memory on a sub-device: its texels, all zero, in an
 * allocation aligned for any texel. */
static amp_status alloc_in_place(tex_data *d, const char *fn)
{
    size_t bytes = (d->image_bytes + 63) / 64 * 64;
    if (!(d->host_copy = aligned_alloc(64, bytes ? bytes : 64)))
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    memset(d->host_copy, 0, bytes);
    return AMP_OK;
}

/* Make the texture's image, empty (every texel 0). */
static amp_status make_image(tex_data *d, const char *fn)
{
    cl_image_format format = format_of(d->type, d->bits, d->stored_channels);
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = cl_object_type(d->kind);
    size_t size[3];
    amp__tex_image_size(d, size);
    desc.image_width = size[0];
    desc.image_height = desc.image_type == CL_MEM_OBJECT_IMAGE1D ? 0 : size[1];
    desc.image_depth = desc.image_type == CL_MEM_OBJECT_IMAGE3D ? size[2] : 0;
    cl_mem_flags flags = d->writable ? CL_MEM_READ_WRITE : CL_MEM_READ_ONLY;
    int in_place = d->av->acc->sub_device;
    amp_status st = in_place ? alloc_in_place(d, fn) : AMP_OK;
    if (st != AMP_OK)
        return st;
    cl_int rc = CL_SUCCESS;
    d->image = amp__clapi.CreateImage(d->av->acc->context,
                                      flags | (in_place ? CL_MEM_USE_HOST_PTR : 0), &format, &desc,
                                      d->host_copy, &rc);
    if (!d->image) {
        if (amp__err_status_of_cl(rc) == AMP_ERROR_OUT_OF_MEMORY)
            return amp__err_set(
                AMP_ERROR_OUT_OF_MEMORY,
                "%s: %s cannot allocate the texture's %zu bytes (%s). Release other data"
                " or use a smaller texture.",
                fn, d->av->acc->name, d->image_bytes, amp__err_cl_name(rc));
        return amp__err_cl(rc, "clCreateImage", fn);
    }
    if (in_place)
        return AMP_OK;
    /* OpenCL leaves a new image's contents undefined; C++ AMP's texture
     * without data is read as 0 here, so it is cleared on the device. */
    st = amp__coh_order_use(&d->order, d->av);
    if (st != AMP_OK)
        return st;
    static const cl_uint zero[4] = {0, 0, 0, 0};
    size_t origin[3] = {0, 0, 0};
    rc = amp__clapi.EnqueueFillImage(d->av->queue, d->image, zero, origin, size, 0, NULL, NULL);
    return rc == CL_SUCCESS ? AMP_OK : amp__err_cl(rc, "clEnqueueFillImage", fn);
}

/* The checks that need no device. */
static amp_status check_arguments(const char *fn, amp_elem_type type, int channels, amp_extent e,
                                  unsigned bits)
{
    if (type == AMP_DOUBLE)
        return amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                            "%s: textures of double are not available: OpenCL images have no 64-bit"
                            " channel format. Use AMP_FLOAT, or an array_view of double.",
                            fn);
    if (type != AMP_INT && type != AMP_UINT && type != AMP_FLOAT && type != AMP_NORM &&
        type != AMP_UNORM)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: element type %d is not one of AMP_INT, AMP_UINT, AMP_FLOAT,"
                            " AMP_NORM, AMP_UNORM.",
                            fn, (int)type);
    if (bits > 32 || !takes_bits(type, (int)bits))
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: %u bits per scalar element; a texture of %s takes %s (as in C++"
                            " AMP), or 0 for the default, %d.",
                            fn, bits, amp_elem_type_name(type),
                            type == AMP_FLOAT                       ? "16 or 32"
                            : type == AMP_NORM || type == AMP_UNORM ? "8 or 16"
                                                                    : "8, 16 or 32",
                            default_bits(type));
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
    return AMP_OK;
}

/* Whether av's device reads half-float images right: a kernel reads two
 * texels of known value from one, once per accelerator. PoCL 3.1 gives 234
 * for each; a texture of half floats there would read wrong values, so it
 * is refused instead. */
static amp_status probe_half_reads(const char *fn, amp_accelerator_view *av, int *right)
{
    static const char source[] =
        "__constant sampler_t amp_nearest =\n"
        "    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;\n"
        "__kernel void amp_half_probe(__read_only image1d_t image, __global float *out)\n"
        "{\n"
        "    int i = get_global_id(0);\n"
        "    out[i] = read_imagef(image, amp_nearest, i).x;\n"
        "}\n";
    static const unsigned short halves[2] = {0x3E00, 0xC080}; /* 1.5, -2.25 */
    amp_accelerator *acc = av->acc;
    cl_image_format format = {CL_R, CL_HALF_FLOAT};
    cl_image_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.image_type = CL_MEM_OBJECT_IMAGE1D;
    desc.image_width = 2;
    cl_int rc = CL_SUCCESS;
    const char *call = "clCreateImage";
    const char *text = source;
    float out[2] = {0, 0};
    size_t two = 2;
    cl_kernel k = NULL;
    cl_mem buffer = NULL;
    cl_program program = NULL;
    cl_mem image = amp__clapi.CreateImage(acc->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                          &format, &desc, (void *)halves, &rc);
    if (image && (call = "clCreateBuffer"))
        buffer = amp__clapi.CreateBuffer(acc->context, CL_MEM_WRITE_ONLY, sizeof out, NULL, &rc);
    if (buffer && (call = "clCreateProgramWithSource"))
        program = amp__clapi.CreateProgramWithSource(acc->context, 1, &text, NULL, &rc);
    if (program && (call = "clBuildProgram"))
        rc = amp__clapi.BuildProgram(program, 1, &acc->device, "", NULL, NULL);
    if (rc == CL_SUCCESS && program && (call = "clCreateKernel"))
        k = amp__clapi.CreateKernel(program, "amp_half_probe", &rc);
    if (k && (call = "clSetKernelArg") &&
        (rc = amp__clapi.SetKernelArg(k, 0, sizeof image, &image)) == CL_SUCCESS)
        rc = amp__clapi.SetKernelArg(k, 1, sizeof buffer, &buffer);
    if (k && rc == CL_SUCCESS && (call = "clEnqueueNDRangeKernel"))
        rc = amp__clapi.EnqueueNDRangeKernel(av->queue, k, 1, NULL, &two, NULL, 0, NULL, NULL);
    if (k && rc == CL_SUCCESS && (call = "clEnqueueReadBuffer"))
        rc = amp__clapi.EnqueueReadBuffer(av->queue, buffer, CL_TRUE, 0, sizeof out, out, 0, NULL,
                                          NULL);
    if (k)
        amp__clapi.ReleaseKernel(k);
    if (program)
        amp__clapi.ReleaseProgram(program);
    if (buffer)
        amp__clapi.ReleaseMemObject(buffer);
    if (image)
        amp__clapi.ReleaseMemObject(image);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, call, fn);
    *right = out[0] == 1.5f && out[1] == -2.25f;
    return AMP_OK;
}

/* A texture of 16-bit floats is made only where kernels read it right. */
static amp_status check_half_reads(const char *fn, const tex_data *d, amp_accelerator_view *av)
{
    amp_accelerator *acc = av->acc;
    if (d->type != AMP_FLOAT || d->bits != 16)
        return AMP_OK;
    if (acc->half_image_reads == 0) {
        int right = 0;
        amp_status st = probe_half_reads(fn, av, &right);
        if (st != AMP_OK)
            return st;
        acc->half_image_reads = right ? 1 : -1;
    }
    if (acc->half_image_reads < 0)
        return amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                            "%s: %s's kernels read wrong values from images of 16-bit floats"
                            " (CL_HALF_FLOAT; a test image read back 1.5 and -2.25 as other"
                            " values), so it holds no texture of them. Use 32-bit floats"
                            " (bits_per_scalar_element 32).",
                            fn, acc->name);
    return AMP_OK;
}

/* The image kind, stored channels and sizes of new data, checked against
 * av's device. */
static amp_status plan(const char *fn, tex_data *d, amp_accelerator_view *av)
{
    const amp_accelerator *acc = av->acc;
    amp_status st = check_image_support(fn, acc);
    if (st == AMP_OK)
        st = check_limits(fn, acc, d->extent, &d->kind, &d->fold_width);
    if (st == AMP_OK)
        st = choose_format(fn, acc, d);
    if (st == AMP_OK)
        st = check_half_reads(fn, d, av);
    if (st != AMP_OK)
        return st;
    /* Within the image limits (each below 2^31, at most 3 of them) the
     * texel count and the bytes fit in 64 bits; SIZE_MAX is checked with
     * the allocation limit. */
    uint64_t texels = (uint64_t)amp_extent_size(d->extent);
    uint64_t image_texels = d->kind == TEX_IMAGE_1D_FOLDED
                                ? ((texels + d->fold_width - 1) / d->fold_width) * d->fold_width
                                : texels;
    uint64_t stored = (uint64_t)d->stored_channels * (uint64_t)value_bytes(d);
    st = check_allocation(fn, acc, image_texels * stored);
    if (st != AMP_OK)
        return st;
    d->bytes = (size_t)(texels * (uint64_t)amp__tex_texel_bytes(d));
    d->image_bytes = (size_t)(image_texels * stored);
    d->av = av;
    return AMP_OK;
}

/* A texture of the arguments (checked), filled from data when not NULL. */
static amp_status create(const char *fn, amp_elem_type type, int channels, amp_extent extent,
                         int bits, const void *data, amp_accelerator_view *av, amp_texture **out)
{
    amp__lock_acquire();
    tl_call call;
    amp__tl_call_begin(&call);
    amp_texture *t = NULL;
    tex_data *d = NULL;
    amp_status st = amp__queue_resolve_in(fn, av, &av);
    if (st != AMP_OK)
        goto done;
    t = amp__handle_alloc(HD_TEXTURE, sizeof *t, HD_CALLER);
    d = calloc(1, sizeof *d);
    if (!t || !d) {
        st = amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
        goto done;
    }
    d->refs = 1;
    d->type = type;
    d->channels = channels;
    d->bits = bits;
    d->extent = extent;
    if ((d->next = all_data))
        all_data->prev = d;
    all_data = d;
    t->d = d;
    t->access = AMP_TEXTURE_READ;
    st = plan(fn, d, av);
    if (st == AMP_OK) {
        /* A created view lives while a texture is on it, as for an array. */
        amp__queue_retain(av);
        amp__coh_order_begin(&d->order, av);
        st = make_image(d, fn);
    }
    if (st == AMP_OK && data)
        st = amp__tex_fill(d, data, fn);
    if (st == AMP_OK) {
        *out = t;
        t = NULL;
        d = NULL;
    }
done:
    if (d)
        amp__tex_release_data(d);
    if (t)
        amp__handle_free(t);
    amp__tl_call_end(&call, fn, st, NULL);
    amp__lock_release();
    return st;
}

amp_status(amp_texture_create)(amp_elem_type type, int channels, amp_extent extent,
                               const void *data, amp_accelerator_view *av, amp_texture **out)
{
    static const char fn[] = "amp_texture_create";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    int bits = default_bits(type);
    amp_status st = check_arguments(fn, type, channels, extent, (unsigned)bits);
    return st == AMP_OK ? create(fn, type, channels, extent, bits, data, av, out) : st;
}

amp_status(amp_texture_create_bits)(amp_elem_type type, int channels, amp_extent extent,
                                    unsigned bits, const void *data, size_t data_bytes,
                                    amp_accelerator_view *av, amp_texture **out)
{
    static const char fn[] = "amp_texture_create_bits";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    unsigned width = bits ? bits : (unsigned)default_bits(type);
    amp_status st = check_arguments(fn, type, channels, extent, width);
    if (st != AMP_OK)
        return st;
    int b = (int)width;
    uint64_t want = (uint64_t)amp_extent_size(extent) * (uint64_t)channels * (uint64_t)(b / 8);
    if (!data && data_bytes != 0)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: data is NULL and data_bytes is %zu; without data it is 0.", fn,
                            data_bytes);
    if (data && (uint64_t)data_bytes != want)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: data_bytes is %zu, and %lld texels of %d channel%s of %d bits"
                            " take %llu.",
                            fn, data_bytes, (long long)amp_extent_size(extent), channels,
                            channels == 1 ? "" : "s", b, (unsigned long long)want);
    return create(fn, type, channels, extent, b, data, av, out);
}

/* ---- Views ---- */

/* The device can give kernels this access to d. */
static amp_status check_access(const char *fn, const tex_data *d, amp_texture_access access)
{
    const amp_accelerator *acc = d->av->acc;
    char format[32];
    if (access == AMP_TEXTURE_READ)
        return AMP_OK;
    if (access == AMP_TEXTURE_READ_WRITE &&
        !(d->channels == 1 && d->bits == 32 &&
          (d->type == AMP_INT || d->type == AMP_UINT || d->type == AMP_FLOAT)))
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: a kernel reads and writes one texture only of one 32-bit int,"
                            " uint or float channel (C++ AMP's texture_view<T, N> rule); this one"
                            " has %d channel%s of %s. Write it through an AMP_TEXTURE_WRITE view"
                            " (writeonly_texture_view), and read another texture.",
                            fn, d->channels, d->channels == 1 ? "" : "s",
                            format_words(d, format, sizeof format));
    if (!d->writable)
        return amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                            "%s: %s has images of %s only for kernels to read, so no kernel can"
                            " write this texture. Write an array_view, or use another format.",
                            fn, acc->name, format_words(d, format, sizeof format));
    if (d->kind == TEX_IMAGE_3D && !acc->image3d_writes)
        return amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                            "%s: %s cannot write 3D images (no cl_khr_3d_image_writes), so no"
                            " kernel can write a rank-3 texture there. Write an array_view.",
                            fn, acc->name);
    if (access == AMP_TEXTURE_READ_WRITE && !acc->rw_images_std)
        return amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                            "%s: %s has no read-write images (OpenCL 2.0's; it reports"
                            " CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS 0 or is OpenCL 1.2), so a kernel"
                            " there reads a texture or writes it, not both. Read one texture and"
                            " write another (AMP_TEXTURE_READ and AMP_TEXTURE_WRITE views), and"
                            " swap them between kernels.",
                            fn, acc->name);
    return AMP_OK;
}

static amp_status check_texture(const char *fn, const amp_texture *t)
{
    return amp__handle_check(fn, t, HD_TEXTURE);
}

amp_status amp__tex_check_data(const char *fn, const char *which, const amp_texture *t)
{
    amp_status st = amp__handle_check_as(fn, which, t, HD_TEXTURE);
    if (st == AMP_OK && !t->d->av)
        st = amp__err_set(AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                          "%s: the %stexture's data was lost with its accelerator (amp_shutdown)."
                          " Make the texture again.",
                          fn, which ? which : "");
    return st;
}

amp_status(amp_texture_view_create)(amp_texture *texture, amp_texture_access access,
                                    amp_texture_view **out)
{
    static const char fn[] = "amp_texture_view_create";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    if (access != AMP_TEXTURE_READ && access != AMP_TEXTURE_WRITE &&
        access != AMP_TEXTURE_READ_WRITE)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: access %d is not one of AMP_TEXTURE_READ, AMP_TEXTURE_WRITE,"
                            " AMP_TEXTURE_READ_WRITE.",
                            fn, (int)access);
    amp__lock_acquire();
    amp_status st = amp__tex_check_data(fn, NULL, texture);
    if (st == AMP_OK)
        st = check_access(fn, texture->d, access);
    amp_texture *v = NULL;
    if (st == AMP_OK && !(v = amp__handle_alloc(HD_TEXTURE, sizeof *v, HD_CALLER)))
        st = amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    if (st == AMP_OK) {
        v->d = texture->d;
        v->access = access;
        v->is_view = 1;
        amp__tex_retain(v->d);
        *out = v;
    }
    amp__lock_release();
    return st;
}

amp_status amp__tex_device_ready(amp_texture *t, amp_accelerator_view *av, cl_mem *image)
{
    LOCK_ASSERT_HELD();
    amp_status st = amp__coh_order_use(&t->d->order, av);
    if (st == AMP_OK)
        *image = t->d->image;
    return st;
}

amp_status amp_texture_release(amp_texture *texture)
{
    if (!texture)
        return AMP_OK;
    amp__lock_acquire();
    tl_call call;
    amp__tl_call_begin(&call);
    amp_status st = check_texture("amp_texture_release", texture);
    if (st == AMP_OK) {
        amp__tex_release_data(texture->d);
        amp__handle_free(texture);
    }
    amp__tl_call_end(&call, "amp_texture_release", st, NULL);
    amp__lock_release();
    return st;
}

amp_status amp_texture_view_release(amp_texture_view *view)
{
    return amp_texture_release(view);
}

/* ---- Copies with the host ---- */

/* The checks of both copies; expects the lock. */
static amp_status check_copy(const char *fn, const amp_texture *t, const void *host,
                             size_t host_bytes)
{
    amp_status st = amp__tex_check_data(fn, NULL, t);
    if (st != AMP_OK)
        return st;
    if (!host)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: the host pointer is NULL.", fn);
    const tex_data *d = t->d;
    if (host_bytes != d->bytes) {
        char format[32];
        return amp__err_set(
            AMP_ERROR_INVALID_ARGUMENT,
            "%s: the host memory has %zu bytes and the texture %zu (%lld elements of"
            " %d %s value%s). Both must be the same size.",
            fn, host_bytes, d->bytes, (long long)amp_extent_size(d->extent), d->channels,
            format_words(d, format, sizeof format), d->channels == 1 ? "" : "s");
    }
    return AMP_OK;
}

/* Copy the whole texture to host memory (to_host) or from it, as the call
 * fn. */
static amp_status copy_with_host(const char *fn, const amp_texture *texture, const void *host,
                                 size_t host_bytes, int to_host)
{
    amp__lock_acquire();
    tl_call call;
    amp__tl_call_begin(&call);
    amp_status st = check_copy(fn, texture, host, host_bytes);
    if (st == AMP_OK)
        st = to_host ? amp__tex_read(texture->d, (void *)host, fn)
                     : amp__tex_fill(texture->d, host, fn);
    amp__tl_call_end(&call, fn, st, NULL);
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

/* ---- Getters ---- */

/* What the getters read: a copy of a live texture's data, taken under the
 * lock, or zeros for any other pointer (a released one is never read). */
static tex_data data_at(const amp_texture *texture, amp_texture_access *access)
{
    tex_data copy = {0};
    *access = (amp_texture_access)0;
    amp__lock_acquire();
    if (amp__tex_is_live(texture)) {
        copy = *texture->d;
        *access = texture->access;
    }
    amp__lock_release();
    return copy;
}

amp_extent amp_texture_get_extent(const amp_texture *texture)
{
    amp_texture_access a;
    return data_at(texture, &a).extent;
}

amp_elem_type amp_texture_get_type(const amp_texture *texture)
{
    amp_texture_access a;
    return data_at(texture, &a).type;
}

int amp_texture_get_channels(const amp_texture *texture)
{
    amp_texture_access a;
    return data_at(texture, &a).channels;
}

unsigned amp_texture_get_bits(const amp_texture *texture)
{
    amp_texture_access a;
    return (unsigned)data_at(texture, &a).bits;
}

size_t amp_texture_get_bytes(const amp_texture *texture)
{
    amp_texture_access a;
    return data_at(texture, &a).bytes;
}

amp_accelerator_view *amp_texture_get_accelerator_view(const amp_texture *texture)
{
    amp_texture_access a;
    return data_at(texture, &a).av;
}

amp_texture_access amp_texture_get_access(const amp_texture *texture)
{
    amp_texture_access a;
    data_at(texture, &a);
    return a;
}

amp_status amp_texture_get_transfers(const amp_texture *texture, amp_transfer_stats *out)
{
    static const char fn[] = "amp_texture_get_transfers";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    amp__lock_acquire();
    amp_status st = check_texture(fn, texture);
    if (st == AMP_OK)
        *out = texture->d->stats;
    amp__lock_release();
    return st;
}

void amp__tex_drop_all_device_memory(void)
{
    LOCK_ASSERT_HELD();
    for (tex_data *d = all_data; d; d = d->next)
        free_device_memory(d);
}

/* ---- Hooks for tests (core/testing.h) ---- */

test_texture_image amp__test_texture_image(const amp_texture *texture)
{
    return (test_texture_image){texture->d->kind == TEX_IMAGE_1D_FOLDED,
                                texture->d->stored_channels};
}
