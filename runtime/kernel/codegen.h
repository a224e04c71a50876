/*
 * runtime/kernel/codegen.h - OpenCL C source for a kernel: a prelude, one parameter
 * group per capture, the index set-up, and the user's body.
 */
#ifndef AMP_KERNEL_CODEGEN_H
#define AMP_KERNEL_CODEGEN_H

#include <stdint.h>

#include "amp/kernel.h"
#include "core/strbuf.h"

/* What the generated code depends on, besides the body text. Two calls with
 * equal specs (and the same body) share one compiled kernel. */
typedef struct cg_capture {
    const char *name;
    amp_capture_kind kind;
    amp_elem_type type; /* the view's, texture's or scalar's element type */
    int rank;           /* views and textures */
    int is_const;       /* views created const; textures */
    int channels;       /* textures: 1, 2 or 4 values per element */
    int image_kind;     /* textures: a tex_image_kind (texture.h) */
    long long constant; /* AMP_CONST values; for functions, their source's address */
    const char *function_source;
} cg_capture;

typedef struct cg_spec {
    const amp_kernel_source *source;
    int rank;
    int tiled;
    int tile[AMP_MAX_RANK];
    int wide;    /* offsets need 64 bits */
    int guarded; /* a padded domain: threads past the original extent are guarded */
    int checked; /* AMP_CHECK: every view access is tested against its view's extent */
    int fp64; /* the device has double precision */
    int ncaptures;
    cg_capture captures[AMP_MAX_CAPTURES];
} cg_spec;

/*
 * Under AMP_CHECK (cg_spec.checked), a kernel with views takes one more
 * argument, last: a zeroed buffer of CG_CHECK_SLOTS records of
 * CG_CHECK_WORDS ints each, where the first access outside a view's extent
 * at each (line, view) is described. A record's words, by CG_REC_*: the
 * site ((line * AMP_MAX_CAPTURES + view) * 2 + past + 1, 0 in a free
 * record: the line is __LINE__ of the access in the generated source, or in
 * a kernel file's; the view is its position among the kernel's views; past
 * is 1 for a thread past the original extent of a padded domain, whose
 * access went to the spare element), the index and the view's extent in
 * C++ AMP's order, and the thread's global index in OpenCL's order. An
 * index is a long, kept as two words (low, high).
 */
#define CG_CHECK_SLOTS 32
#define CG_CHECK_WORDS 16
enum {
    CG_REC_SITE = 0,
    CG_REC_RANK = 1,   /* the view's rank */
    CG_REC_INDEX = 2,  /* 3 longs: words 2 to 7 */
    CG_REC_EXTENT = 8, /* 3 ints */
    CG_REC_THREAD = 11 /* 3 ints: get_global_id(0), (1), (2) */
};

typedef struct cg_kernel {
    char *source;          /* the whole OpenCL C program */
    uint32_t written_mask; /* bit i: capture i is a view the body may write */
    int rank;              /* the domain's */
    int nviews;            /* under AMP_CHECK: how many views the kernel captures (then
                              it takes the record above, after its other arguments) */
    char *view_names;      /* and their names, each ending in a NUL, in order */
    int body_line;         /* the generated line where the body starts */
    int body_lines;        /* how many lines the laid-out body has */
    int *body_tokens;      /* per body line: the ordinal of its first body token, or -1 */
    int hoisted_line;      /* the generated line of the first hoisted tile_static declaration */
    int hoisted_lines;     /* how many there are (0: none) */
    int *hoisted_tokens;   /* per hoisted line: the ordinal of its first body token */
} cg_kernel;

/* Generate the source of the kernel called name. On success the caller
 * releases out with amp__cg_kernel_free(). Returns AMP_ERROR_INVALID_ARGUMENT for
 * an index or capture name that is not an identifier or a capture named
 * twice, AMP_ERROR_UNSUPPORTED_FEATURE for a body that uses double on a
 * device without it. */
amp_status amp__cg_generate(const cg_spec *spec, const char *name, cg_kernel *out);

void amp__cg_kernel_free(cg_kernel *k);

#endif
