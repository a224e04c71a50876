/*
 * runtime/codegen.h - OpenCL C source for a kernel: a prelude, one parameter
 * group per capture, the index set-up, and the user's body.
 */
#ifndef RT_CODEGEN_H
#define RT_CODEGEN_H

#include <stdint.h>

#include "amp/kernel.h"
#include "strbuf.h"

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
    int fp64; /* the device has double precision */
    int ncaptures;
    cg_capture captures[AMP_MAX_CAPTURES];
} cg_spec;

typedef struct cg_kernel {
    char *source;          /* the whole OpenCL C program */
    uint32_t written_mask; /* bit i: capture i is a view the body may write */
    int body_line;         /* the generated line where the body starts */
    int body_lines;        /* how many lines the laid-out body has */
    int *body_tokens;      /* per body line: the ordinal of its first body token, or -1 */
    int hoisted_line;      /* the generated line of the first hoisted tile_static declaration */
    int hoisted_lines;     /* how many there are (0: none) */
    int *hoisted_tokens;   /* per hoisted line: the ordinal of its first body token */
} cg_kernel;

/* Generate the source of the kernel called name. On success the caller
 * releases out with cg_kernel_free(). Returns AMP_ERROR_INVALID_ARGUMENT for
 * an index or capture name that is not an identifier or a capture named
 * twice, AMP_ERROR_UNSUPPORTED_FEATURE for a body that uses double on a
 * device without it. */
amp_status cg_generate(const cg_spec *spec, const char *name, cg_kernel *out);

void cg_kernel_free(cg_kernel *k);

#endif
