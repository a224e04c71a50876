/*
 * runtime/data/texture.h - textures: read-only data in an OpenCL image on one
 * accelerator, for kernels to read through the device's texture cache.
 *
 * A texture is not a data source of coherence.c: kernels never write it,
 * so its one copy on the device is always current and nothing moves
 * lazily. Its data moves only when it is created and through the explicit
 * copies of amp/texture.h, each counted in the ledger. Every use of the
 * image (a copy, a kernel's read) is ordered across the views of its
 * accelerator as a data copy's buffer is (coh_order, coherence.h), and the
 * texture holds its view as an array does.
 *
 * All functions expect the runtime lock to be held.
 */
#ifndef AMP_DATA_TEXTURE_H
#define AMP_DATA_TEXTURE_H

#include "data/coherence.h"
#include "device/accel.h"
#include "amp/texture.h"

/* The OpenCL image type a kernel reads a texture through. */
typedef enum tex_image_kind {
    TEX_IMAGE_1D = 1,
    TEX_IMAGE_1D_FOLDED = 2, /* rank 1, wider than the 1D image limit: rows of a 2D image */
    TEX_IMAGE_2D = 3,
    TEX_IMAGE_3D = 4
} tex_image_kind;

struct amp_texture {
    amp_elem_type type;
    int channels;
    int stored_channels; /* 4 where the device lacks the format of `channels` */
    amp_extent extent;
    tex_image_kind kind;
    size_t bytes;             /* in host memory: texels x channels */
    size_t device_bytes;      /* in the image: texels x stored_channels */
    amp_accelerator_view *av; /* held; NULL once the data was lost with its device */
    size_t fold_width;        /* TEX_IMAGE_1D_FOLDED: texels per row of the image */
    cl_mem image;
    coh_order order; /* the view that used the image last */
    void *host_copy; /* on a sub-device: the texels as last given (bytes; texture.c) */
    amp_transfer_stats stats;
};

/* Nonzero when t was created and not yet released. */
int amp__tex_is_live(const amp_texture *t);

/* A kernel that reads t is about to be queued on av, a view of t's
 * accelerator: order it after every use of the image before (a refill on
 * another view), and store the image in *image. */
amp_status amp__tex_device_ready(amp_texture *t, amp_accelerator_view *av, cl_mem *image);

/* The OpenCL C type name of a kind ("image2d_t"). */
const char *amp__tex_image_type_name(tex_image_kind kind);

/* Release every texture's device memory before the devices are forgotten
 * (amp_shutdown): the handles stay valid, and report their data as lost. */
void amp__tex_drop_all_device_memory(void);

#endif
