/*
 * runtime/translate/translate.h - the translator: a kernel body written in
 * C++ AMP's terms, its helpers and its spec in; an OpenCL C program that a
 * learner can read out, with a map from each of its tokens back to the
 * user's line and column.
 *
 * The translator is a layer of its own, above core alone: everything it
 * needs comes through its spec (spec.h), which the kernel layer fills
 * from the data layer's registries. It works in passes over each text's
 * tokens (a body, a helper function). Analyses record facts; edits are
 * made from them at the end, by one pass:
 *
 *   lexer.c     the text's tokens, each with its place
 *   scan.c      preprocessor lines and their macros flagged; namespace
 *               qualifiers noted; the tokens the grammar reads, and each
 *               bracket's partner
 *   parse*.c    C's grammar, once: each name resolved to its declaration,
 *               the types of index, extent, view and texture values
 *               followed, each use of a captured view given its role
 *               (read, written, address taken, called, made a value), each
 *               spelling of C++ AMP noted as a construct with the tokens
 *               that bound it, the tile_static declarations of blocks
 *               listed; C++ that C cannot take, and what cannot be
 *               bounded, refused at the user's line. It changes no text.
 *   names.c     names the generated kernel owns, refused
 *   hoist.c     which tile_static declarations move to kernel scope, under
 *               which names, with which preprocessor lines
 *   spell.c     the constructs written in OpenCL C: edits of tokens (text
 *               before, instead of, after), in the order found
 *   locals.c    a helper's tile_static declarations made its parameters,
 *               declared by the kernels that call it and passed on
 *   writes.c    the views the body may write, from the roles
 *   (text.c runs these passes on one text; body.h holds its facts)
 *
 * and then for the kernel (translate.c): the program in order, its header
 * comment, the prelude and the vocabulary its texts use (vocabulary.c), the
 * types, constants, view values and accessors (accessors.c), the helpers,
 * the signature, the moved declarations, the index set-up and the body,
 * each text laid out one statement per line (layout.c), recording where
 * each token went. The static OpenCL C is in the .cl files of cl/
 * (cl.h). After a build, buildlog.c takes the compiler's lines back to
 * the user's.
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
    uint32_t own_mask;     /* bit i: every use of view i is at the thread's own index */
    uint32_t tile_mask;    /* bit i: every use of view i is at its tile's index */
    char *unowned;         /* per capture, why view i is used elsewhere ("" when it is not,
                              or not a view), each ending in a NUL */
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
 * (writes.c), and those of spec->force_written, are passed
 * writable; other views are read only, and their accessors give values. On
 * success the caller releases out with amp__translate_free().
 * Returns AMP_ERROR_INVALID_ARGUMENT for an index or capture name that is
 * not an identifier, a keyword, a name the generated kernel owns or a
 * capture named twice, or a struct type or member a kernel cannot name;
 * AMP_ERROR_KERNEL_BUILD for a body the reader refuses (text.h);
 * AMP_ERROR_UNSUPPORTED_FEATURE for a body that uses double on a device
 * without it; AMP_ERROR_OUT_OF_MEMORY.
 */
amp_status amp__translate(const tr_spec *spec, const char *name, cg_kernel *out);

void amp__translate_free(cg_kernel *k);

/* The struct argument that holds a launch's numbers (amp_launch_values:
 * the views' offsets, strides and extents, the textures' extents, the
 * scalar, index and extent values, the domain) has fields of 32, 16, 8
 * and 4 bytes, in that order: those of one size together, each size's in
 * the order of the captures. So every field lies at a multiple of its size
 * with nothing between, whatever alignment a compiler gives its type. Each
 * view's buffer, texture's image and captured struct is an argument of its
 * own, outside it. */
#define TR_VALUE_SIZES 4

/* The size of size class c (0 .. TR_VALUE_SIZES - 1): 32, 16, 8, 4. */
static inline size_t amp__translate_value_size(int c)
{
    return (size_t)32 >> c;
}

/* The class of a field of size bytes (32, 16, 8 or 4). */
static inline int amp__translate_value_class(size_t size)
{
    return size == 32 ? 0 : size == 16 ? 1 : size == 8 ? 2 : 3;
}

/* The bytes of an index or extent value of rank (1 to 8), as a kernel
 * takes it: an int, or an int2, int3 (as wide as an int4), int4 or int8. */
static inline size_t amp__translate_index_bytes(int rank)
{
    return rank == 1 ? 4 : rank == 2 ? 8 : rank <= 4 ? 16 : 32;
}

/* The layout of spec's launch values: start[c] is where the fields of
 * class c begin, start[TR_VALUE_SIZES] where the fields end (start may be
 * NULL). Returns the struct's bytes, the fields' end rounded up to a
 * multiple of the widest (its last member, amp_padding, fills the rest);
 * 0 when the kernel takes none. */
size_t amp__translate_values_layout(const cg_spec *spec, size_t start[TR_VALUE_SIZES + 1]);

#endif
