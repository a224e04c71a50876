/*
 * runtime/translate/spec.h - what a generated kernel depends on besides its
 * body: the domain, the captures, the device's features (cg_spec); what
 * the runtime's registries add to them (tr_spec); and the record
 * AMP_CHECK's accessors fill.
 */
#ifndef AMP_TRANSLATE_SPEC_H
#define AMP_TRANSLATE_SPEC_H

#include <stdint.h>

#include "amp/kernel.h"
#include "amp/struct_type.h"
#include "core/limits.h"

/* What the generated code depends on, besides the body text. Two calls with
 * equal specs (and the same body) share one compiled kernel. */
typedef struct cg_capture {
    const char *name;
    amp_capture_kind kind;
    amp_elem_type type; /* the view's, texture's or scalar's element type */
    int rank;           /* views and textures */
    int is_const;       /* views created const; textures */
    int channels;       /* textures: 1, 2 or 4 values per element */
    int image_kind;     /* textures: how the image is kept (a tex_image_kind of texture.h in
                           a cg_spec, a cg_image_kind in a tr_spec) */
    int access;         /* textures: what the kernel may do, an amp_texture_access */
    long long constant; /* AMP_CONST values; for functions, their source's address */
    const char *function_source;
    const char *function_file; /* where the function is defined */
    int function_line;
} cg_capture;

typedef struct cg_spec {
    const amp_kernel_source *source;
    int rank;
    int tiled;
    int tile[AMP_MAX_RANK];
    int wide;    /* offsets need 64 bits */
    int guarded; /* a padded domain: threads past the original extent are guarded */
    int checked; /* AMP_CHECK: every view access is tested against its view's extent */
    int fp64;    /* the device has double precision */
    int ncaptures;
    cg_capture captures[AMP_MAX_CAPTURES];
} cg_spec;

/* How a texture's image is kept, as the translator knows it. */
typedef enum cg_image_kind {
    CG_IMAGE_1D = 1,
    CG_IMAGE_1D_FOLDED, /* rank 1, wider than the 1D image limit: rows of a 2D image */
    CG_IMAGE_2D,
    CG_IMAGE_3D
} cg_image_kind;

/* A registered struct element type (AMP_STRUCT). */
typedef struct cg_struct {
    amp_elem_type type;
    const amp_struct_desc *desc; /* its name and members */
    const char *cl_source;       /* its typedef in OpenCL C */
    int has_double;
} cg_struct;

/* Everything a kernel's source depends on: the call, and what the
 * runtime's registries know that the call names. The kernel layer fills it
 * (codegen.c); the translator reads nothing else. */
typedef struct tr_spec {
    cg_spec call;    /* its captures' image_kind a cg_image_kind */
    int spare_bytes; /* what every device buffer holds past a view's data */
    int nstructs;
    cg_struct structs[AMP_MAX_STRUCT_TYPES]; /* every registered struct type */
    uint32_t force_written; /* bit i: capture i passed writable, whatever the write analysis
                               says */
    int blind_analysis;     /* for tests: the analysis as if it missed every write */
} tr_spec;

/*
 * Under AMP_CHECK (cg_spec.checked), a kernel with views takes one more
 * argument, last: a zeroed buffer of CG_CHECK_SLOTS records of
 * CG_CHECK_WORDS ints each, where the first access outside a view's extent
 * at each (line, view) is described. A record's words, by CG_REC_*: the
 * site ((line * AMP_MAX_CAPTURES + view) * 2 + past + 1, 0 in a free
 * record: the line is __LINE__ of the access in the generated source, or in
 * a kernel file's; the view is its position among the kernel's views; past
 * is 1 for a thread past the original extent of a padded domain, whose
 * access went to the sink), the index and the view's extent in
 * C++ AMP's order, and the thread's index in the domain (its global index), also in C++ AMP's
 * order. An
 * index is a long, kept as two words (low, high).
 */
#define CG_CHECK_SLOTS LIMIT_CHECK_PLACES
#define CG_CHECK_WORDS 36
enum {
    CG_REC_SITE = 0,
    CG_REC_RANK = 1,    /* the view's rank */
    CG_REC_INDEX = 2,   /* AMP_MAX_RANK longs: words 2 to 17 */
    CG_REC_EXTENT = 18, /* AMP_MAX_RANK ints */
    CG_REC_THREAD = 26  /* AMP_MAX_RANK ints: the thread's index in the domain */
};

#endif
