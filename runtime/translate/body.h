/*
 * runtime/translate/body.h - one text the translator reads (a kernel body,
 * or a helper function) and the facts its passes record about it
 * (translate.h lists the passes).
 *
 * Facts are kept per token (which declaration a name refers to, how a use
 * of a name is used, flags), per declaration, and as constructs: each
 * spelling of C++ AMP the grammar found, with the tokens that bound it,
 * in the order found. Edits, what a token is printed as, are made from the
 * constructs by one pass (spell.c) at the end.
 *
 * A body written inside a macro reaches the runtime as one line of text.
 * The generated kernel changes it in two ways, and each must keep what the
 * C means:
 * - tile_static declarations move to kernel scope, where OpenCL C requires
 *   __local variables. A moved declaration keeps its name only when that
 *   name is provably free there (hoist.c).
 * - a view the body never writes is passed read only and never copied
 *   back. Every use of a view has a role; a use not recorded as a read
 *   counts as a write (writes.c).
 */
#ifndef AMP_TRANSLATE_BODY_H
#define AMP_TRANSLATE_BODY_H

#include <stddef.h>
#include <stdint.h>

#include "amp/kernel.h"
#include "amp/struct_type.h"
#include "translate/lexer.h"

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
    TYPE_OTHER = 0,     /* anything the reader does not follow */
    TYPE_INDEX,         /* index<rank> */
    TYPE_EXTENT,        /* extent<rank> */
    TYPE_TILED_INDEX,   /* a tiled kernel's index: its global index where an index is due */
    TYPE_VIEW,          /* a captured view of rank rank */
    TYPE_FUNCTION,      /* a helper; what it returns is the decl's returns */
    TYPE_VIEW_VALUE,    /* array_view<T, N>: a view as a value (a section, a helper's
                         parameter), amp_view_T_N in the kernel */
    TYPE_TEXTURE,       /* a captured texture of rank rank */
    TYPE_TEXTURE_VALUE, /* texture<T, N>: a helper's texture parameter, its image and
                          extent in the kernel */
    TYPE_VECTOR,        /* a short vector (float_3, float4): elem its amp_elem_type
                           (AMP_FLOAT_3) */
    TYPE_STRUCT         /* a registered struct (AMP_STRUCT): elem its amp_elem_type */
} body_type_kind;

typedef struct body_type {
    uint8_t kind;     /* a body_type_kind */
    uint8_t rank;     /* 1 to 8 */
    uint8_t array;    /* an array of them: a subscript gives one */
    uint8_t is_const; /* views: read only (array_view<const T, N>, a const view) */
    uint16_t elem;    /* views, textures: the element type (an amp_elem_type) */
    uint8_t channels; /* textures: values per texel, 1, 2 or 4 */
    uint8_t folded;   /* captured textures: a rank-1 texture kept in a 2D image's rows */
    uint8_t packed;   /* vectors: a 3-vector in memory as C++ AMP lays it out (12 bytes, an
                         amp_packed_T3 in the kernel), which is read and written whole
                         through functions (a view's element, a struct's member) */
    uint8_t access;   /* textures: what the kernel may do with it, an amp_texture_access */
} body_type;

#define BODY_TYPE_OTHER ((body_type){TYPE_OTHER, 0, 0, 0, 0, 0, 0, 0, 0})

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
    int checked;          /* AMP_CHECK: the checker, not the reader, reports barrier problems */
    const body_type *capture_types;             /* per capture, or NULL: views, indices, extents */
    const body_type *capture_returns;           /* per capture, or NULL: what a helper returns */
    const struct kbody *const *capture_helpers; /* per capture, or NULL: a helper's reading */
    const amp_struct_desc *const *type_descs;   /* per type, or NULL: its members */
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
    uint8_t kind;            /* a body_decl_kind */
    uint8_t name_kind;       /* DECL_KERNEL: a body_name_kind */
    int32_t capture;         /* DECL_KERNEL: the capture's index, or -1 */
    int32_t token;           /* the declarator's token, or -1 for kernel names */
    uint32_t scope;          /* 0: the outermost, the kernel's names' */
    body_type type;          /* what it is, as far as the reader follows */
    body_type returns;       /* a helper function's result */
    char *renamed;           /* DECL_TILE_STATIC: its name at kernel scope when not its own */
    uint8_t zeroed;          /* DECL_TYPEDEF: a body_zeroed, how C++ AMP default-constructs it */
    uint32_t thread_varying; /* DECL_VARIABLE: what it was last set from depends on, as far as
                                the reader has read (VARYING_* bits: parse.h, varying_set); a
                                helper's parameter: itself */
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
    TOK_HOIST_COPY = 128,     /* a preprocessor line copied before the moved declarations */
    TOK_MEMBER_NAME = 256     /* a member's name in a struct or union the text declares */
};

/* How a name is used where it stands (per token; a captured view's uses
 * decide whether the kernel writes it, and where; the kernel's index's
 * uses whether the body may change it). */
enum {
    ROLE_READ = 1,       /* its value is taken: an element read, a view's extent */
    ROLE_WRITTEN = 2,    /* assigned, incremented or decremented, or beside a preprocessor line
                            that could make it so */
    ROLE_ADDRESS = 4,    /* the operand of a unary '&': a pointer could write through it */
    ROLE_CALLED = 8,     /* called: a function, a macro, a view's element v(...) */
    ROLE_VALUE = 16,     /* a captured view made a value (a section, a projection, an
                            argument) */
    ROLE_VALUE_READ = 32 /* and that value only goes where a const view is due */
};

/* An element v(...) or v[...] of a captured view: at which index, in the
 * two high bits of its role. */
enum {
    ROLE_AT_OWN = 64,   /* the thread's own: idx, t_idx, t_idx.global, or their components
                           in order (idx[0], idx[1]) */
    ROLE_AT_TILE = 128, /* its tile's: t_idx.tile, or its components in order */
    ROLE_AT_OTHER = 192 /* any other (the mask of the two bits) */
};

/* A spelling of C++ AMP that the grammar found, by the tokens that bound
 * it (tok[], by kind below; -1 for none), for spell.c to write as OpenCL C. */
typedef enum construct_kind {
    C_NAMESPACE = 1,     /* tok 0: NS of NS::NAME (3 tokens); 1: the NAME that fast_math:: and
                            precise_math:: prefix, or -1 */
    C_INDEX_TYPE,        /* index<N>, extent<N>, tiled_index<...>: 0 the name, 1 its '>';
                            type */
    C_VIEW_TYPE,         /* array_view<T, N>, array<T, N>[&]: 0 the name, 1 its last token */
    C_TEXTURE_TYPE,      /* texture<T, N>[&]: 0 the name, 1 its last token */
    C_TEXTURE_PARAMETER, /* 0: the name of a helper's texture<T, N> parameter */
    C_TEXTURE_ARGUMENT,  /* 0: a texture given to one */
    C_ZERO_INIT,         /* 0: the token after a declarator that C++ AMP constructs;
                            1: the type's name (ZERO_VECTOR) */
    C_DIRECT_INIT,       /* index<2> p(i, j): 0 '(', 1 ')'; type */
    C_TILED_AS_INDEX,    /* 0: the last token of a tiled index where an index is due */
    C_CONSTRUCTION,      /* index<2>(i, j): 0 the name, 1 '(', 2 ')'; type, number: values */
    C_CAPTURE_VALUE,     /* 0: a captured view as a value; number: the capture */
    C_VALUE_ELEMENT,     /* 0 the view value's first token, 1 '(' or '[', 2 ')' or ']' */
    C_VALUE_PROJECTION,  /* v[i] of a view value: 0 first, 1 '[', 2 ']' */
    C_VALUE_SECTION,     /* 0 first, 1 '.', 2 "section", 3 '(', 4 the ',' after the origin's
                            ints, 5 ')' */
    C_VIEW_SUBSCRIPT,    /* v[i][j] of a captured view: 0 '[', 1 ']' */
    C_RANK,              /* x.rank: 0 x's first token, 1 "rank" */
    C_TILE_DIM,          /* t_idx.tile_dimN: 0 t_idx, 1 '.', 2 the member; number: N's size */
    C_EXTENT_OF_CAPTURE, /* v.extent, v.get_extent() of a captured view or texture: 0 v,
                            1 '.', 2 the member, 3 '(', 4 ')' */
    C_EXTENT_OF_VALUE,   /* the same of a view value (0 its first token) */
    C_EXTENT_CALL,       /* e.contains(p), e.size(): 0 e's first token, 1 '.', 2 the
                            member, 3 '(' */
    C_INDEX1_SUBSCRIPT,  /* p[0] of an index<1>: 0 '[', 1 ']' */
    C_VECTOR_ZERO,       /* float_3(): 0 '(' */
    C_INDEX_COMPARE,     /* p == q, p != q: 0 p's first token, 1 the operator, 2 q's last */
    C_HELPER_CALL,       /* a call of a helper with tile_static variables: 0 '(', 1 ')';
                            number: the helper's capture */
    C_BARRIER_TYPE,      /* tile_barrier as a helper's parameter type: 0 the name, 1 its '&'
                            or -1 */
    C_CONST_DROPPED,     /* 0: the const of a helper's tiled_index or tile_barrier parameter,
                            a copy whose barrier's wait() writes it */
    C_UNPACK,            /* a 3-vector in memory read whole: 0 its first token, 1 its last;
                            type */
    C_PACK,              /* a value stored whole into a 3-vector in memory: 0 the value's
                            first token, 1 its last; type (the place's) */
    C_PACKED_UPDATE,     /* p += v of a 3-vector p in memory: 0 p's first token, 1 the
                            operator, 2 v's first, 3 v's last; number: the operator (+= -=
                            *= /= %= &= |= ^= <<= >>=, 0 to 9); type */
    C_VECTOR_COMPARE,    /* a == b, a != b of short vectors: 0 a's first token, 1 the
                            operator, 2 b's last; form 1 for !=, with
                            VECTOR_COMPARE_LANES where OpenCL's all(), any() or select()
                            takes its lanes */
    C_SWIZZLE            /* a short vector's member: 0 the member's name, 1 '(' and 2 ')' of
                            get_xy() (-1 for none); form: SWIZZLE_* */
    ,
    C_TEXTURE_CALL /* t.set(...), t.get(...), t.sample(...), t.gather_red(...) of a
                            texture: 0 t, 1 '.', 2 the member, 3 a template's '<' or -1, 4 its
                            '>', 5 '('; form: a TEXTURE_* below; number: how many arguments
                            the call has, plus 256 times how many the template has, plus
                            65536 for a sample's coordinates and level of detail without a
                            template or a sampler */
    ,
    C_VECTOR_STEP /* ++ or -- of a vector of floats or doubles, which OpenCL C has not:
                     0 the operator, 1 the operand's last token (for ++v; -1 for v++,
                     whose value is not used), 2 the operand's first */
} construct_kind;

/* The variants of some constructs (body_construct.form). */
enum {
    ZERO_LIST = 1,            /* C_ZERO_INIT: = {0} */
    ZERO_INT,                 /* = 0 */
    ZERO_INDEX,               /* = (amp_index_N)(0), = (amp_extent_N)(0): type */
    ZERO_VECTOR,              /* = (T)(0), T the type's name */
    INIT_COPY = 1,            /* C_DIRECT_INIT: copied from one value */
    INIT_MAKE,                /* made of its rank's values */
    SECTION_INTS = 1,         /* C_VALUE_SECTION: the origin's and the extent's ints */
    SECTION_PAIR,             /* (origin, extent) */
    SECTION_EXTENT,           /* (extent), from the start */
    SECTION_ORIGIN,           /* (origin), to the end */
    SUBSCRIPT_FIRST = 1,      /* C_VIEW_SUBSCRIPT: the first of the view's subscripts */
    SUBSCRIPT_LAST = 2,       /* the last (a view of rank 1: both) */
    SUBSCRIPT_INDEX = 4,      /* one subscript, a whole index */
    ELEMENT_BY_INDEX = 1,     /* C_VALUE_ELEMENT: given a whole index */
    INIT_VECTOR = 3,          /* C_DIRECT_INIT: a short vector made of its values, float_3 v(x,
                             y, z) */
    VECTOR_COMPARE_LANES = 2, /* C_VECTOR_COMPARE: OpenCL's, lane by lane */
    SWIZZLE_NAME = 1,         /* C_SWIZZLE: .xy, .rgb: C++ AMP's letters as OpenCL 1.2's (xyzw) */
    SWIZZLE_GET,              /* .get_xy(): the components */
    SWIZZLE_SET,              /* .set_xy(v): the components assigned */
    SWIZZLE_REF,              /* .ref_x(): the component */
    TEXTURE_SET = 1,          /* C_TEXTURE_CALL: t.set(index, value) */
    TEXTURE_GET,              /* t.get(index) */
    TEXTURE_SAMPLE,           /* t.sample(sampler, coord), t.sample<filter, address>(coord),
                                 t.sample(coord), t.sample<filter>(coord) (C++ AMP's defaults:
                                 filter_linear, address_clamp) */
    TEXTURE_GATHER_RED,       /* t.gather_red(sampler, coord), t.gather_red<address>(coord),
                                 t.gather_red(coord) (address_clamp); */
    TEXTURE_GATHER_GREEN,     /* and the same of the other channels, in order */
    TEXTURE_GATHER_BLUE,
    TEXTURE_GATHER_ALPHA
};

typedef struct body_construct {
    uint8_t kind; /* a construct_kind */
    uint8_t form; /* its variant, above */
    body_type type;
    int32_t number;
    int32_t tok[6];
} body_construct;

/* How a token is printed: text before it, instead of it, after it (NULL:
 * nothing, the token itself, nothing). */
typedef struct body_edit {
    char *before, *instead, *after;
} body_edit;

/* A tile_static declaration of a block: tokens first .. last (its ';'). */
typedef struct body_hoist {
    uint32_t first, last;
} body_hoist;

/* An AMP_DEFINE (or a kernel file's #define): its name's token, and its
 * replacement's tokens. */
typedef struct body_macro {
    uint32_t name;
    uint32_t first, last; /* the replacement, first > last when empty */
    int function_like;
} body_macro;

/* A tile_static variable of a helper function, its own or one of a helper
 * it calls. OpenCL C declares __local variables only in kernels: each
 * kernel that calls the helper declares it, under its kernel-scope name,
 * and passes it in, through every helper between (locals.c). */
typedef struct body_local {
    char *helper;      /* the helper that declares it */
    char *name;        /* its name there */
    char *kernel_name; /* amp_<helper>_<name>: its name in kernels and in the helpers that pass
                          it on */
    char *declaration; /* at kernel scope: "tile_static int amp_scan_values[256]" */
    char *parameter;   /* of a helper that passes it on, its address:
                          "tile_static int (*amp_scan_values)[256]" */
} body_local;

/* Why a captured view's uses are not all at the thread's own index, or
 * all at its tile's (kbody.unowned_why). */
typedef enum body_unowned {
    UNOWNED_NOT = 0,      /* they are */
    UNOWNED_INDEX,        /* an element at another index */
    UNOWNED_MIXED,        /* elements at the thread's index and at its tile's */
    UNOWNED_ADDRESS,      /* an element's address taken (an atomic, a pointer) */
    UNOWNED_VALUE,        /* the view made a value: given to a helper, a section, a projection */
    UNOWNED_MACRO,        /* named in a preprocessor line or a macro's arguments */
    UNOWNED_UNREAD,       /* a use the grammar did not take */
    UNOWNED_INDEX_CHANGED /* the body may change the kernel's index */
} body_unowned;

typedef struct kbody {
    lex_tokens tokens;
    /* What the text is, while it is read. */
    const body_context *ctx;
    const char *text;
    size_t length;
    amp_status status; /* the first failure */
    /* Per token (tokens.count + 1 entries). */
    int32_t *resolved; /* a declaration, BODY_UNRESOLVED or BODY_NOT_A_USE */
    uint16_t *flags;   /* TOK_ flags */
    uint8_t *roles;    /* ROLE_ bits */
    int32_t *partner;  /* a bracket's partner among the grammar's tokens, or -1 */
    body_edit *edits;  /* or NULL while there are none */
    /* The tokens outside preprocessor lines, in order: what the grammar reads. */
    uint32_t *order;
    size_t norder;
    body_macro *macros;
    size_t nmacros;
    body_decl *decls;
    size_t ndecls, cap_decls;
    body_construct *constructs;
    size_t nconstructs, cap_constructs;
    body_hoist *hoists; /* tile_static declarations of blocks, in order */
    size_t nhoists;
    /* What the kernel needs for this text. */
    uint32_t written;  /* bit i: capture i is a view the body may write */
    body_type returns; /* a helper function's result type */
    uint32_t ranks;    /* bit r: an index or extent of rank r appears */
    uint32_t values;   /* bit i: captured view i is used as a value (amp_v_value) */
    body_type value_types[AMP_MAX_VIEW_VALUE_TYPES]; /* view values used, by (elem, rank) */
    int nvalue_types;
    body_type params[AMP_MAX_FUNCTION_PARAMS]; /* a helper's parameters' types */
    int nparams; /* how many (more than AMP_MAX_FUNCTION_PARAMS: the rest unknown) */
    /* A helper's tiled_index<D0, ...> parameters: the tile they declare, each
     * dimension where it is written as a number, else 0. */
    int param_tiles[AMP_MAX_FUNCTION_PARAMS][3];
    int32_t param_decls[AMP_MAX_FUNCTION_PARAMS]; /* a helper's parameters' declarations */
    /* The text waits at a tile barrier, itself or in a helper it calls;
     * and (a helper) under conditions on which of its parameters (bit k:
     * parameter k), which a caller must not give values that differ from
     * thread to thread. */
    int waits;
    uint32_t wait_params;
    uint32_t texture_names[AMP_MAX_FUNCTION_PARAMS]; /* a helper's texture parameters: their
                                                name tokens, in order */
    body_type texture_types[AMP_MAX_FUNCTION_PARAMS];
    int ntextures;
    /* A helper's name and the ')' of its parameters (-1 for a body). */
    long function_name, params_close;
    /* The tile_static variables of helpers this text needs passed in (a
     * helper: its own and its callees'; a body: its callees'). */
    body_local *locals;
    size_t nlocals;
    /* 3-vectors in memory the text reads or writes whole: bit s for the
     * scalar type AMP_INT + s; and bit 10 * s + k for their updates with
     * the operator k of C_PACKED_UPDATE. */
    uint32_t packed;
    uint64_t packed_updates;
    /* Where the body's uses of each captured view are (writes.c): bit i of
     * at_own, every use of view i is an element at the thread's own index
     * (or its extent); of at_tile, at its tile's index. Else the first use
     * that is neither, and why (a body_unowned). */
    uint32_t at_own, at_tile;
    int32_t unowned_use[AMP_MAX_CAPTURES];
    uint8_t unowned_why[AMP_MAX_CAPTURES];
} kbody;

/* Lex text[0 .. length) into b and make room for its facts; ctx and text
 * stay the caller's. Returns AMP_OK, AMP_ERROR_OUT_OF_MEMORY, or the
 * lexer's status (also in b->status). Free b with amp__body_free, also
 * after a failure. */
amp_status amp__body_open(kbody *b, const char *text, size_t length, const body_context *ctx);

void amp__body_free(kbody *b);

/* Record the first failure, at token i of the text (or -1 for none): the
 * message names the kernel's call site, and shows the token's line in the
 * user's file as a compiler does. */
void amp__body_fail(kbody *b, long i, amp_status status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void amp__body_no_memory(kbody *b);

/* The kind of the capture named name[0 .. length) (a body_name_kind), or
 * 0 for none. */
int amp__body_capture_kind(const body_context *ctx, const char *name, size_t length);

/* Whether the text defines a macro (AMP_DEFINE, #define) named
 * name[0 .. length). */
int amp__body_defines_macro(const kbody *b, const char *name, size_t length);

/* Whether name[0 .. length) is <capture>_extent of a captured view or
 * texture: the generated kernel's array of its extent, which the body's
 * own declaration of that name would hide. */
int amp__body_is_extent_name(const kbody *b, const char *name, size_t length);

/* A declaration of name, of kind, declared by token (or -1) in scope;
 * the token is marked its declarator. Returns its id, or -1 (failed). */
int32_t amp__body_declare(kbody *b, const char *name, uint32_t length, body_decl_kind kind,
                          int32_t token, uint32_t scope);

/* Record a construct, after those found before it. */
void amp__body_note(kbody *b, const body_construct *c);

/* Put text before token i (in front of what is there), instead of it, or
 * after it (behind what is there). */
void amp__body_edit_before(kbody *b, long i, const char *text);
void amp__body_edit_instead(kbody *b, long i, const char *text);
void amp__body_edit_after(kbody *b, long i, const char *text);

/* The text a token is printed as: its rewriting, a moved tile_static's
 * new name, or the token as written; *length is set. */
const char *amp__body_token_text(const kbody *b, size_t i, uint32_t *length);

/* Text printed before and after token i by a rewriting, or NULL. */
const char *amp__body_token_before(const kbody *b, size_t i);
const char *amp__body_token_after(const kbody *b, size_t i);

/* Nonzero when the body uses the identifier name as a token (outside its
 * preprocessor lines too). */
int amp__body_uses(const kbody *b, const char *name);

/* The name of an element type in kernel functions' names ("float",
 * "uint", "float3", a struct's name); ctx may be NULL for a built-in
 * type. */
const char *amp__body_elem_name(const body_context *ctx, uint16_t elem);

/* The short vector type (AMP_FLOAT_3 ...) that the type name s[0 .. n)
 * names: C++ AMP's (float_3), OpenCL's (float3) or the host's
 * (amp_float_3), of int, uint, float or double and 2 to 4 values; 0 for any
 * other name. */
amp_elem_type amp__body_vector_named(const char *s, size_t n);

/* The kernel's name of a view value type, "amp_view_float_2", into buf. */
void amp__body_value_type_name(const body_context *ctx, body_type t, char *buf, size_t n);

#endif
