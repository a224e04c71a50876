/*
 * runtime/translate/body.h - reading a kernel body as C: its statements,
 * scopes and declarations, which declaration each name refers to, its
 * preprocessor lines, and which captured views it may write.
 *
 * A body written inside a macro reaches the runtime as one line of text.
 * The generated kernel changes it in two ways, and each must keep what the
 * C means:
 * - tile_static declarations move to kernel scope, where OpenCL C requires
 *   __local variables. A moved declaration keeps its name only when that
 *   name is provably free there: declared nowhere else, used nowhere but
 *   inside its own scope, and no name the generated kernel uses. Otherwise
 *   it and exactly the uses that C's scoping gives it are renamed, so an
 *   inner declaration shadows an outer one only inside its block, and two
 *   sibling blocks may each declare their own.
 * - a view the body never writes is passed read only and never copied
 *   back. Every use of a view is read in its context (body_access.c); any
 *   form the analysis cannot prove a read counts as a write.
 *
 * A body the reader cannot bound (braces or parentheses that do not
 * balance, nesting deeper than BODY_MAX_NESTING, names that belong to the
 * generated kernel) is refused with a message that names the place.
 */
#ifndef AMP_TRANSLATE_BODY_H
#define AMP_TRANSLATE_BODY_H

#include <stddef.h>
#include <stdint.h>

#include "amp/kernel.h"
#include "translate/lexer.h"

/* Braces, parentheses and brackets nested deeper than this are refused
 * (the OpenCL compilers' own limit, clang's -fbracket-depth, is 256). */
#define BODY_MAX_NESTING 256

/* What a name the generated kernel declares around the body is. */
typedef enum body_name_kind {
    BODY_NAME_VIEW = 1,
    BODY_NAME_TEXTURE,
    BODY_NAME_SCALAR,
    BODY_NAME_CONSTANT, /* an AMP_CONST: a macro */
    BODY_NAME_FUNCTION, /* an AMP_FUNCTION helper */
    BODY_NAME_INDEX,
    BODY_NAME_EXTENT /* <view>_extent, <texture>_extent */
} body_name_kind;

/* The types the reader follows through expressions, to spell C++ AMP's
 * operations on them in OpenCL C: index<N> and extent<N> are int vectors
 * (amp_index_N, amp_extent_N), on which + and - work as they are, and ==,
 * contains() and size() are rewritten as calls. */
typedef enum body_type_kind {
    TYPE_OTHER = 0,    /* anything the reader does not follow */
    TYPE_INDEX,        /* index<rank> */
    TYPE_EXTENT,       /* extent<rank> */
    TYPE_TILED_INDEX,  /* a tiled kernel's index: its global index where an index is due */
    TYPE_VIEW,         /* a captured view of rank rank */
    TYPE_FUNCTION,     /* a helper; what it returns is the decl's returns */
    TYPE_VIEW_VALUE,   /* array_view<T, N>: a view as a value (a section, a helper's
                         parameter), amp_view_T_N in the kernel */
    TYPE_TEXTURE,      /* a captured texture of rank rank */
    TYPE_TEXTURE_VALUE /* texture<T, N>: a helper's texture parameter, its image and
                          extent in the kernel */
} body_type_kind;

typedef struct body_type {
    uint8_t kind;     /* a body_type_kind */
    uint8_t rank;     /* 1 to 8 */
    uint8_t array;    /* an array of them: a subscript gives one */
    uint8_t is_const; /* views: read only (array_view<const T, N>, a const view) */
    uint16_t elem;    /* views, textures: the element type (an amp_elem_type) */
    uint8_t channels; /* textures: values per texel, 1, 2 or 4 */
    uint8_t folded;   /* captured textures: a rank-1 texture kept in a 2D image's rows */
} body_type;

#define BODY_TYPE_OTHER ((body_type){TYPE_OTHER, 0, 0, 0, 0, 0, 0})

/* The call the body belongs to: where it was written, the names the
 * kernel gives it, and the struct types it may use as type names. */
typedef struct body_context {
    const char *file;
    int line;
    const char *index_name; /* NULL for a helper function */
    int ncaptures;
    const char *const *capture_names; /* ncaptures names */
    const body_name_kind *capture_kinds;
    int ntypes;
    const char *const *type_names; /* registered struct types the kernel defines */
    const amp_elem_type *type_ids; /* and their element types */
    int function;         /* the text is a whole helper function (AMP_FUNCTION), not a body */
    body_type index_type; /* the index's: TYPE_INDEX or TYPE_TILED_INDEX */
    int tile[3];          /* a tiled kernel's tile: t_idx.tile_dimN's values */
    const body_type *capture_types;             /* per capture, or NULL: views, indices, extents */
    const body_type *capture_returns;           /* per capture, or NULL: what a helper returns */
    const struct kbody *const *capture_helpers; /* per capture, or NULL: a helper's reading */
} body_context;

typedef enum body_decl_kind {
    DECL_VARIABLE = 1,
    DECL_TYPEDEF,
    DECL_ENUMERATOR,
    DECL_TILE_STATIC,
    DECL_KERNEL /* a name of the generated kernel (a capture, the index, an extent) */
} body_decl_kind;

typedef struct body_decl {
    const char *name;
    uint32_t length;
    uint8_t kind;      /* a body_decl_kind */
    uint8_t name_kind; /* DECL_KERNEL: a body_name_kind */
    int32_t capture;   /* DECL_KERNEL: the capture's index, or -1 */
    int32_t token;     /* the declarator's token, or -1 for kernel names */
    uint32_t scope;
    body_type type;    /* what it is, as far as the reader follows */
    body_type returns; /* a helper function's result */
    char *renamed;     /* DECL_TILE_STATIC: its name at kernel scope when not its own */
    uint8_t zeroed;    /* DECL_TYPEDEF: a body_zeroed, how C++ AMP default-constructs it */
} body_decl;

/* What a declaration without an initializer starts as. C++ AMP's short
 * vectors (float_3, int_2, ...) are zero when default-constructed, and so
 * are structs' short-vector members; code relies on it, while OpenCL leaves
 * its vectors and structs undefined. */
typedef enum body_zeroed {
    ZEROED_NOT = 0,  /* C's rule: undefined (a scalar, a pointer) */
    ZEROED_VALUE,    /* a short vector: (T)(0) */
    ZEROED_AGGREGATE /* a struct or union: {0} */
} body_zeroed;

/* A resolved token: the declaration it names (>= 0), or one of these. */
enum {
    BODY_UNRESOLVED = -1, /* a name declared nowhere in the body: a built-in, a macro */
    BODY_NOT_A_USE = -2   /* not a name in an expression (a member, a keyword, a declarator) */
};

/* Token flags. */
enum {
    TOK_DIRECTIVE = 1,        /* the AMP_PRAGMA ... word that starts a preprocessor line */
    TOK_IN_DIRECTIVE = 2,     /* a token of a preprocessor line's argument */
    TOK_HOISTED = 4,          /* a token of a tile_static declaration moved to kernel scope */
    TOK_MACRO_ARGS = 8,       /* inside the arguments of a function-like AMP_DEFINE macro */
    TOK_BLOCK = 16,           /* a brace that opens or closes a block of statements */
    TOK_DIRECTIVE_PAREN = 32, /* the parentheses around a preprocessor line's argument */
    TOK_DECLARATOR = 64,      /* the name a declarator declares (resolved to its declaration) */
    TOK_READ_VALUE = 128,     /* a captured view made a value only read (a const parameter) */
    TOK_VALUE_USE = 256       /* a captured view made a value (a section, a projection, an
                             argument): not an element access */
};

/* How a token is printed: text before it, instead of it, after it (NULL:
 * nothing, the token itself, nothing). */
typedef struct body_edit {
    char *before, *instead, *after;
} body_edit;

/* A tile_static declaration: tokens first .. last (its ';'). */
typedef struct body_hoist {
    uint32_t first, last;
} body_hoist;

/* Views as values a body or helper uses: each (element type, rank) once. */
#define BODY_MAX_VALUE_TYPES 32
#define BODY_MAX_PARAMS 16

typedef struct kbody {
    lex_tokens tokens;
    int32_t *resolved; /* per token: a declaration, BODY_UNRESOLVED or BODY_NOT_A_USE */
    uint16_t *flags;   /* per token: TOK_ flags */
    body_decl *decls;
    size_t ndecls;
    body_hoist *hoists;
    size_t nhoists;
    body_edit *edits;  /* per token, or NULL while there are none */
    uint32_t written;  /* bit i: capture i is a view the body may write */
    body_type returns; /* a helper function's result type */
    uint32_t ranks;    /* bit r: an index or extent of rank r appears */
    uint32_t values;   /* bit i: captured view i is used as a value (amp_v_value) */
    body_type value_types[BODY_MAX_VALUE_TYPES]; /* view values used, by (elem, rank) */
    int nvalue_types;
    body_type params[BODY_MAX_PARAMS]; /* a helper's parameters' types */
    int nparams;                       /* how many (more than BODY_MAX_PARAMS: the rest unknown) */
    uint32_t texture_names[BODY_MAX_PARAMS]; /* a helper's texture parameters: their
                                                name tokens, in order */
    body_type texture_types[BODY_MAX_PARAMS];
    int ntextures;
} kbody;

/*
 * Read the body text[0 .. length) of a kernel with context ctx into *out
 * (free with amp__body_free, also after a failure). Returns AMP_OK;
 * AMP_ERROR_KERNEL_BUILD for a body that cannot be bounded (the message
 * says where and why) or that declares or uses a name the generated kernel
 * owns; AMP_ERROR_OUT_OF_MEMORY.
 */
amp_status amp__body_read(const char *text, size_t length, const body_context *ctx, kbody *out);

void amp__body_free(kbody *b);

/* The text a token is printed as: its rewriting, a moved tile_static's
 * new name, or the token as written; *length is set. */
const char *amp__body_token_text(const kbody *b, size_t i, uint32_t *length);

/* Text printed before and after token i by a rewriting, or NULL. */
const char *amp__body_token_before(const kbody *b, size_t i);
const char *amp__body_token_after(const kbody *b, size_t i);

/* Nonzero when the body uses the identifier name as a token (outside its
 * preprocessor lines too). */
int amp__body_uses(const kbody *b, const char *name);

/* ---- body_access.c ---- */

/* Find the captured views the body may write (b->written): every use of a
 * view that is not provably a read counts as a write. Called by
 * amp__body_read. */
void amp__body_find_writes(kbody *b, const body_context *ctx);

#endif
