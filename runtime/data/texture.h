/*
 * runtime/data/texture.h - textures: an OpenCL image on one accelerator,
 * which kernels read, sample and write, and the handles through which the
 * caller and kernels reach it (a texture, and its views).
 *
 * A texture is not a data source of coherence.c: its one copy on the
 * device is always current, and nothing moves lazily. Its data moves only
 * when it is created and through the explicit copies of amp/texture.h,
 * each counted in the ledger. Every use of the image (a copy, a kernel that
 * reads or writes it) is ordered across the views of its accelerator as a
 * data copy's buffer is (coh_order, coherence.h): each use after every use
 * before it, so a kernel's writes come before a later copy or kernel on any
 * view. The texture holds its view as an array does.
 *
 * All functions expect the runtime lock to be held.
 */
#ifndef AMP_DATA_TEXTURE_H
#define AMP_DATA_TEXTURE_H

#include "data/coherence.h"
#include "device/accel.h"
#include "amp/texture.h"

/* The OpenCL image type a kernel reaches a texture through. */
typedef enum tex_image_kind {
    TEX_IMAGE_1D = 1,
    TEX_IMAGE_1D_FOLDED = 2, /* rank 1, wider than the 1D image limit: rows of a 2D image */
    TEX_IMAGE_2D = 3,
    TEX_IMAGE_3D = 4
} tex_image_kind;

/* The image and all that goes with it, shared by a texture and its views,
 * and held by copies still to run: freed with the last of them. */
typedef struct tex_data {
    int refs;
    amp_elem_type type;
    int channels;
    int bits;            /* per channel: 8, 16 or 32 */
    int stored_channels; /* 4 where the device lacks the format of `channels` */
    amp_extent extent;
    tex_image_kind kind;
    size_t fold_width;        /* TEX_IMAGE_1D_FOLDED: texels per row of the image */
    size_t bytes;             /* in host memory: texels x channels x bits / 8 */
    size_t image_bytes;       /* the image's: its texels (a folded one's last row whole) x stored */
    int writable;             /* the image's format may be written (CL_MEM_READ_WRITE) */
    amp_accelerator_view *av; /* held; NULL once the data was lost with its device */
    cl_mem image;
    coh_order order; /* the view that used the image last */
    void *host_copy; /* on a sub-device: the image's own memory (texture.c) */
    amp_transfer_stats stats;
    struct tex_data *prev, *next; /* every texture's data, for amp_shutdown */
} tex_data;

struct amp_texture {
    tex_data *d;
    amp_texture_access access; /* what a kernel that captures this handle may do */
    int is_view;               /* made by amp_texture_view_create */
};

/* Nonzero when t was created and not yet released. */
int amp__tex_is_live(const amp_texture *t);

/* A kernel that uses t is about to be queued on av, a view of t's
 * accelerator: order it after every use of the image before (a copy or a
 * kernel on another view), and store the image in *image. */
amp_status amp__tex_device_ready(amp_texture *t, amp_accelerator_view *av, cl_mem *image);

/* AMP_OK when t is a live texture or view whose data is still on its
 * device; else a message for the public call fn, which names t as its
 * `which` argument ("source ", "destination ", or NULL). */
amp_status amp__tex_check_data(const char *fn, const char *which, const amp_texture *t);

/* One more holder of d (a view, a copy still to run), and one fewer: the
 * last frees the image and d. */
void amp__tex_retain(tex_data *d);
void amp__tex_release_data(tex_data *d);

/* The bytes of a texel in host memory, and in the image. */
size_t amp__tex_texel_bytes(const tex_data *d);
size_t amp__tex_stored_texel_bytes(const tex_data *d);

/* The image's size in texels: width, height, depth. */
void amp__tex_image_size(const tex_data *d, size_t size[3]);

/* The regions of the image that hold the texture's texels, at most two:
 * all of it, or for a folded one its whole rows and the part of the last
 * row that is used. Returns how many; each region's first texel is
 * first[k] texels into the host's layout. */
int amp__tex_regions(const tex_data *d, size_t origin[2][3], size_t region[2][3], size_t first[2]);

/* All of the texture's texels from host data (fn names the call in
 * messages), or to host memory, after every use of the image before; each
 * counted as one upload or download of the image's bytes, reason "copy". */
amp_status amp__tex_fill(tex_data *d, const void *data, const char *fn);
amp_status amp__tex_read(tex_data *d, void *dst, const char *fn);

/* Wait on the host until every use of the image queued so far is done. */
amp_status amp__tex_wait_idle(tex_data *d, const char *fn);

/* Count a transfer of bytes of d's in direction dir, reason "copy", begun at
 * the host's time began (amp__tl_now; 0: now), for the timeline. */
void amp__tex_count(tex_data *d, amp_transfer_direction dir, size_t bytes, int64_t began);

/* The OpenCL C type name of a kind ("image2d_t"). */
const char *amp__tex_image_type_name(tex_image_kind kind);

/* Release every texture's device memory before the devices are forgotten
 * (amp_shutdown): the handles stay valid, and report their data as lost. */
void amp__tex_drop_all_device_memory(void);

#endif
