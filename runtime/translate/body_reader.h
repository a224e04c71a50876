/*
 * runtime/translate/body_reader.h - the state the body reader's files share
 * (body.c, body_stmt.c, body_expr.c, body_names.c): the tokens it walks,
 * the names in scope, and its first failure. Not for use outside them.
 */
#ifndef AMP_TRANSLATE_BODY_READER_H
#define AMP_TRANSLATE_BODY_READER_H

#include <stddef.h>
#include <stdint.h>
#include <uthash.h>

#include "translate/body.h"

/* The names visible now under one spelling, innermost last. */
typedef struct name_slot {
    const char *name;
    uint32_t length;
    int32_t *stack;
    size_t count, capacity;
    UT_hash_handle hh;
} name_slot;

/* An AMP_DEFINE (or a kernel file's #define): its name's token, and its
 * replacement's tokens. */
typedef struct body_macro {
    uint32_t name;
    uint32_t first, last; /* the replacement, first > last when empty */
    int function_like;
} body_macro;

typedef struct reader {
    kbody *b;
    const body_context *ctx;
    const lex_token *tok;
    uint32_t *order; /* the tokens outside preprocessor lines, in order */
    size_t n;        /* how many */
    size_t at;       /* the current one, an index into order */
    int depth;       /* statements and brackets open */
    uint32_t scopes; /* scopes made so far */
    uint32_t scope;  /* the current one */
    name_slot *names;
    name_slot **pushed; /* every make_visible, in order, to undo at scope ends */
    size_t npushed, cap_pushed;
    size_t cap_decls;
    body_macro *macros;
    size_t nmacros;
    amp_status status;
    int in_parameters; /* reading a helper's parameter list */
    const char *text;  /* the text being read, for messages at the user's lines */
    size_t length;
} reader;

/* ---- Failures (body.c) ---- */

/* Record the first failure, at token i of the body (or -1 for none). */
void amp__body_fail(reader *r, long i, amp_status status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void amp__body_no_memory(reader *r);

/* ---- Tokens ---- */

extern const lex_token amp__body_eof;

static inline size_t index_at(const reader *r, size_t k)
{
    return r->at + k < r->n ? r->order[r->at + k] : SIZE_MAX;
}

static inline const lex_token *peek(const reader *r, size_t k)
{
    size_t i = index_at(r, k);
    return i == SIZE_MAX ? &amp__body_eof : &r->tok[i];
}

static inline int at_end(const reader *r)
{
    return r->at >= r->n || r->status != AMP_OK;
}

static inline int is(const reader *r, size_t k, const char *s)
{
    const lex_token *t = peek(r, k);
    return t->length > 0 && amp__lex_is(t, s);
}

/* The current token's index in the body, or -1 at the end. */
static inline long cur(const reader *r)
{
    size_t i = index_at(r, 0);
    return i == SIZE_MAX ? -1 : (long)i;
}

/* What the current token names (a declaration, BODY_UNRESOLVED or
 * BODY_NOT_A_USE). */
static inline void mark(reader *r, int32_t resolution)
{
    size_t i = index_at(r, 0);
    if (i != SIZE_MAX && !(r->b->flags[i] & TOK_DECLARATOR))
        r->b->resolved[i] = resolution;
}

static inline void advance(reader *r)
{
    if (r->at < r->n)
        r->at++;
}

/* Consume the token s, or fail saying it was expected. */
void amp__body_expect(reader *r, const char *s);

/* Enter a statement or bracket: refused past BODY_MAX_NESTING, where the
 * recursion stops before the stack is at risk. Returns 0 when refused. */
int amp__body_enter(reader *r);
void amp__body_leave(reader *r);

/* ---- Words (body.c) ---- */

int amp__body_word_in(const lex_token *t, const char *const *words);
/* A keyword of OpenCL C (global and local are names in kernels). */
int amp__body_is_keyword(const lex_token *t);
/* A keyword that can start or continue a declaration's specifiers. */
int amp__body_is_specifier(const lex_token *t);
/* Qualifiers that may stand among a declarator's '*'s. */
extern const char *const amp__body_pointer_qualifiers[];
/* A short vector type: C++ AMP's (float_3, uint_2, ...) or OpenCL's
 * (float3, int16, ...). */
int amp__body_is_short_vector(const lex_token *t);

/* ---- Names and scopes (body.c) ---- */

int32_t amp__body_declare(reader *r, const char *name, uint32_t length, body_decl_kind kind,
                          int32_t token);
/* From now on the declaration's name refers to it, until its scope ends. */
void amp__body_make_visible(reader *r, int32_t id);
/* The declaration the name t refers to here, or BODY_UNRESOLVED. */
int32_t amp__body_lookup(reader *r, const lex_token *t);

typedef struct scope_mark {
    size_t pushed;
    uint32_t scope;
} scope_mark;

scope_mark amp__body_scope_open(reader *r);
void amp__body_scope_close(reader *r, scope_mark m);

/* ---- Edits (body.c): what a token is printed as ---- */

/* Put text before token i (in front of what is there), instead of it, or
 * after it (behind what is there). */
void amp__body_edit_before(reader *r, size_t i, const char *text);
void amp__body_edit_instead(reader *r, size_t i, const char *text);
void amp__body_edit_after(reader *r, size_t i, const char *text);

/* ---- Views as values (body.c) ---- */

/* Record that the kernel needs the view value type t (array_view<T, N>),
 * for its struct and functions. */
void amp__body_use_value_type(reader *r, body_type t);
/* The kernel's name of a view value type, "amp_view_float_2", into buf. */
void amp__body_value_type_name(const body_context *ctx, body_type t, char *buf, size_t n);
/* The name of an element type in kernel functions' names ("float",
 * "uint", a struct's name). */
const char *amp__body_elem_name(const body_context *ctx, uint16_t elem);

/* ---- Statements and declarations (body_stmt.c) ---- */

/* Whether the tokens at the current place start a declaration. */
int amp__body_declaration_starts(reader *r);
/* A declaration to its ';'; a tile_static one of a block (hoistable) is
 * recorded to be moved. */
void amp__body_declaration(reader *r, int hoistable);
/* Block items until the end (a body), or a helper function's definition. */
void amp__body_items(reader *r);
void amp__body_function(reader *r);

/* A type written C++ AMP's way at the current place (index<2>,
 * extent<3>): consumed and rewritten as the kernel's type, whose kind and
 * rank go in *type. Returns 0, consuming nothing, when there is none. */
int amp__body_template_type(reader *r, body_type *type);

/* ---- Expressions (body_expr.c) ---- */

/* An expression: its type, and its first and last tokens (-1 for none). */
typedef struct body_value {
    body_type type;
    long first, last;
    long root; /* a view value made from a captured view: the capture's token, else -1 */
} body_value;

/* An expression up to (not over) one of terminators at bracket depth 0
 * (a comma operator only when "," is not among them): names resolved,
 * C++ AMP's spellings rewritten. */
body_value amp__body_expression(reader *r, const char *const *terminators);

/* When the current token is a name of C++ that C cannot take (std::,
 * nullptr, static_cast<, restrict(amp), ...), what to write instead; else
 * NULL. Names the body declares are its own. (body_names.c) */
const char *amp__body_cpp_hint(const reader *r);

/* ---- Preprocessor lines and names (body_names.c) ---- */

/* The function-like macro named t (an AMP_DEFINE), or NULL. */
const body_macro *amp__body_function_macro(const reader *r, const lex_token *t);
/* Flag the preprocessor lines, record the macros, list the other tokens. */
void amp__body_find_directives(reader *r);
/* Refuse names the generated kernel owns. */
void amp__body_check_reserved_names(reader *r);
/* Name the moved tile_static declarations that cannot keep their names. */
void amp__body_name_moved_declarations(reader *r);

#endif
