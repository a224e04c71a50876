/*
 * runtime/translate/accessors.h - the text through which a generated kernel's
 * body reaches its captures: view elements and texture texels. The
 * prelude (vocabulary.c) defines plain accesses; a padded domain and
 * AMP_CHECK replace parts of them.
 */
#ifndef AMP_TRANSLATE_ACCESSORS_H
#define AMP_TRANSLATE_ACCESSORS_H

#include "core/strbuf.h"
#include "translate/spec.h"

/* What a kernel's textures need of the vocabulary besides what every
 * kernel with textures gets (amp__accessors_texture_needs): */
enum {
    TEXTURE_NEED_READ_WRITE = 1, /* a texture read and written (__read_write, OpenCL C 2.0) */
    TEXTURE_NEED_3D_WRITES = 2   /* a rank-3 texture written (cl_khr_3d_image_writes) */
};
unsigned amp__accessors_texture_needs(const cg_capture *c);

/* The samplers, macros and functions that every kernel with textures
 * needs, once, and those needs names. */
void amp__accessors_texture_vocabulary(strbuf *sb, const cg_spec *spec, unsigned needs);

/* The macros of texture c: its reads, writes, samples and gathers, each
 * as its access allows. */
void amp__accessors_texture(strbuf *sb, const cg_capture *c);

/* AMP_CHECK: view offsets tested against each view's extent, an access
 * outside it described in the kernel's record (spec.h) and sent past the
 * spare_bytes every device buffer has after a view's data. */
void amp__accessors_checked(strbuf *sb, int spare_bytes);

/* A padded domain: an access outside a view's extent lands on the sink. */
void amp__accessors_guarded(strbuf *sb);

/* The accessor macro of view c, of elements of type elem (their OpenCL C
 * name; an rvalue when the kernel does not write it), and in a padded
 * domain its landing function. */
void amp__accessors_view(strbuf *sb, const cg_capture *c, const char *elem, int written,
                         int guarded);

/* A view as a value, array_view<T, rank> in the body (name the element
 * type's part of function names, "float3"; elem its OpenCL C type in
 * memory, "amp_packed_float3"): its struct amp_view_NAME_N and its
 * functions (element, section, section from an origin, and for rank 2 and
 * 3 projection, which needs the type of rank - 1 first). In a padded
 * domain an element outside the view is the sink. */
void amp__accessors_view_value(strbuf *sb, const char *name, const char *elem, int rank,
                               int guarded);

/* For views of rank n (4 to 8): a padded domain's guarded offset, and
 * AMP_CHECK's checked one, as amp__accessors_guarded() and
 * amp__accessors_checked() give them for ranks 1 to 3; after those. */
void amp__accessors_guarded_rank(strbuf *sb, int n);
void amp__accessors_checked_rank(strbuf *sb, int n);

#endif
