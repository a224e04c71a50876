/*
 * runtime/translate/translate.h - OpenCL C source for a kernel: a prelude, one
 * parameter group per capture, the index set-up, and the user's body.
 */
#ifndef AMP_TRANSLATE_TRANSLATE_H
#define AMP_TRANSLATE_TRANSLATE_H

#include <stdint.h>

#include "amp/kernel.h"
#include "core/strbuf.h"
#include "translate/spec.h"

/* Where the tokens of one text the user wrote went in the generated
 * source: the body, or a helper function (AMP_FUNCTION). */
typedef struct cg_text {
    const char *file; /* where the text is written: file and line */
    int line;
    const char *text; /* the text as the macro made it */
    size_t length;
    int locate_flags;  /* LEX_LOCATE_*: how to find the text in the file */
    size_t ntokens;    /* its tokens, for the two below */
    int *token_line;   /* per token: the generated line it is printed on, or -1 */
    int *token_column; /* and its 1-based column there */
} cg_text;

typedef struct cg_kernel {
    char *source;          /* the whole OpenCL C program */
    uint32_t written_mask; /* bit i: capture i is a view the body may write */
    int rank;              /* the domain's */
    int nviews;            /* under AMP_CHECK: how many views the kernel captures (then
                              it takes the record above, after its other arguments) */
    char *view_names;      /* and their names, each ending in a NUL, in order */
    int body_line;         /* the generated line where the body starts */
    int body_lines;        /* how many lines the laid-out body has */
    int ntexts;            /* the texts below: the helpers' and the inline body's */
    cg_text texts[1 + AMP_MAX_CAPTURES];
} cg_kernel;

/*
 * Generate the source of the kernel called name. Views the body may write
 * (body.h's analysis), and those of spec->force_written, are passed
 * writable; other views are read only, and their accessors give values. On
 * success the caller releases out with amp__translate_free().
 * Returns AMP_ERROR_INVALID_ARGUMENT for an index or capture name that is
 * not an identifier, a keyword, a name the generated kernel owns or a
 * capture named twice, or a struct type or member a kernel cannot name;
 * AMP_ERROR_KERNEL_BUILD for a body the reader refuses (body.h);
 * AMP_ERROR_UNSUPPORTED_FEATURE for a body that uses double on a device
 * without it; AMP_ERROR_OUT_OF_MEMORY.
 */
amp_status amp__translate(const tr_spec *spec, const char *name, cg_kernel *out);

void amp__translate_free(cg_kernel *k);

#endif
