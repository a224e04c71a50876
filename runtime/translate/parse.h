/*
 * runtime/translate/parse.h - the grammar's state and what its files
 * share (parse.c): the tokens it walks, the names in scope, the words of
 * C it knows, and the facts it records. The grammar is a recursive
 * descent in three files, each using only those below it:
 *
 *   parse_stmt.c   statements and declarations, and the entry (parse_stmt.h)
 *   parse_expr.c   expressions, by C's precedence
 *   parse_type.c   C++ AMP's class templates: index<N>, array_view<T, N> ...
 *   parse.c        tokens, words, names and scopes, recording facts
 *
 * The grammar changes no text: it resolves names, follows the types of
 * index, extent, view and texture values, records how each captured view
 * is used (its role) and each spelling of C++ AMP it finds (a construct),
 * and refuses what it cannot bound. Not for use outside these files.
 */
#ifndef AMP_TRANSLATE_PARSE_H
#define AMP_TRANSLATE_PARSE_H

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

typedef struct reader {
    kbody *b;
    const body_context *ctx;
    const lex_token *tok;
    const uint32_t *order; /* the grammar's tokens (amp__scan) */
    size_t n;              /* how many */
    size_t at;             /* the current one, an index into order */
    int depth;             /* statements and brackets open */
    uint32_t scopes;       /* scopes made so far */
    uint32_t scope;        /* the current one */
    name_slot *names;
    name_slot **pushed; /* every make_visible, in order, to undo at scope ends */
    size_t npushed, cap_pushed;
    int in_parameters; /* reading a helper's parameter list */
    /* Whether the expression read since this was cleared read what
     * differs from thread to thread: a tiled index's global or local, or a
     * variable set from them (body_decl.thread_varying); and how many
     * statements around the current one run only where such a condition
     * holds (a barrier there is not reached by every thread of the tile). */
    uint32_t thread_varying; /* VARYING_* bits (below) */
    int divergent;
    /* The helper's parameters that the conditions around the statement
     * being read depend on (VARYING_PARAM bits). */
    uint32_t param_divergent;
    /* The tile of the last tiled_index<D0, ...> read: each dimension where
     * it is a number, else 0 (amp__parse_template_type). */
    int tile_dims[3];
    /* The first token of the expression being read whose value nothing
     * uses (an expression statement's, a for's first or third), or -1. */
    long discarded;
    /* Where threads of a tile may part for good (parts.c): a return under
     * a condition on the thread's place, read so far (the token, or -1);
     * and the loops and switches open, innermost the highest bit: which
     * are switches, which wait at a barrier so far, and which some threads
     * have left early (a break, continue or return under such a
     * condition). */
    long returned;
    int levels;
    uint32_t level_switch, level_waits, level_exits;
    /* The same for a helper's parameters: which ones the conditions of
     * its early returns, and of the exits from each level, depend on. */
    uint32_t returned_params, level_exit_params[32];
} reader;

/* Start reading b (scanned), with the names the kernel declares around it
 * in the outermost scope; amp__parse_close when done. */
void amp__parse_open(reader *r, kbody *b);
void amp__parse_close(reader *r);

/* ---- Tokens ---- */

extern const lex_token amp__parse_eof;

static inline size_t index_at(const reader *r, size_t k)
{
    return r->at + k < r->n ? r->order[r->at + k] : SIZE_MAX;
}

static inline const lex_token *peek(const reader *r, size_t k)
{
    size_t i = index_at(r, k);
    return i == SIZE_MAX ? &amp__parse_eof : &r->tok[i];
}

static inline int at_end(const reader *r)
{
    return r->at >= r->n || r->b->status != AMP_OK;
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

/* What a value depends on, as bits: VARYING_THREAD, what differs from
 * thread to thread (a tiled index's global or local, or what was set from
 * it); and in a helper, VARYING_PARAM(k), the helper's parameter k, which
 * a caller may give a value that does. */
#define VARYING_THREAD 1u
#define VARYING_PARAM(k) ((uint32_t)2 << ((k) < 30 ? (k) : 30)) /* the last bit: 30 on */

/* Around the reading of a condition or a value: varying_begin clears the
 * bits and returns the outer reading's, varying_end returns what was read
 * in between depends on, and keeps it for the outer reading. */
static inline uint32_t varying_begin(reader *r)
{
    uint32_t outer = r->thread_varying;
    r->thread_varying = 0;
    return outer;
}

static inline uint32_t varying_end(reader *r, uint32_t outer)
{
    uint32_t varying = r->thread_varying;
    r->thread_varying = outer | varying;
    return varying;
}

/* A variable set (declared with a value, or assigned): it depends on what
 * the value does, and on the conditions of the statements it is set in
 * (only some threads may set it); a compound assignment keeps what it had.
 * Other declarations than variables are left as they are. */
static inline void varying_set(reader *r, int32_t decl, uint32_t varying, int keeps)
{
    if (decl < 0 || r->b->decls[decl].kind != DECL_VARIABLE)
        return;
    body_decl *d = &r->b->decls[decl];
    d->thread_varying = varying | (r->divergent ? VARYING_THREAD : 0) | r->param_divergent |
                        (keeps ? d->thread_varying : 0);
}

/* A branch on a condition that depends on varying: its statements run only
 * where it holds (r->divergent, when it differs from thread to thread;
 * r->param_divergent, the parameters it depends on). */
typedef struct branch_mark {
    int thread;
    uint32_t params;
} branch_mark;

static inline branch_mark branch_enter(reader *r, uint32_t varying)
{
    branch_mark m = {(varying & VARYING_THREAD) != 0, r->param_divergent};
    r->divergent += m.thread;
    r->param_divergent |= varying & ~VARYING_THREAD;
    return m;
}

static inline void branch_leave(reader *r, branch_mark m)
{
    r->divergent -= m.thread;
    r->param_divergent = m.params;
}

static inline void advance(reader *r)
{
    if (r->at < r->n)
        r->at++;
}

/* The index of the previous token consumed, in the body. */
static inline long last_consumed(const reader *r)
{
    return r->at > 0 && r->at - 1 < r->n ? (long)r->order[r->at - 1] : -1;
}

/* Consume the token s, or fail saying it was expected. */
void amp__parse_expect(reader *r, const char *s);

/* Enter a statement or bracket: refused past AMP_MAX_NESTING, where the
 * recursion stops before the stack is at risk. Returns 0 when refused. */
int amp__parse_enter(reader *r);
void amp__parse_leave(reader *r);

/* ---- Words ---- */

/* A keyword of OpenCL C (global and local are names in kernels), unless
 * it is a word of OpenCL C alone that the body declares as a name in
 * scope here (int half = n / 2). */
int amp__parse_is_keyword(reader *r, const lex_token *t);
/* A keyword that can start or continue a declaration's specifiers. */
int amp__parse_is_specifier(reader *r, const lex_token *t);
/* A word that is a type or qualifier of OpenCL C but a plain name in C and
 * C++ (half, uint, float4, kernel, constant, ...): a body may declare it,
 * and the kernel then calls it by another name (amp_name_half). */
int amp__parse_is_opencl_word(const lex_token *t);
/* Qualifiers that may stand among a declarator's '*'s. */
extern const char *const amp__parse_pointer_qualifiers[];
/* A short vector type: C++ AMP's (float_3, uint_2, ...) or OpenCL's
 * (float3, int16, ...); and C++ AMP's norm and unorm, which are zero when
 * default-constructed as short vectors are. */
int amp__parse_is_short_vector(const lex_token *t);
/* A scalar type's word, or one of OpenCL's vector types (float4): what
 * C++ writes as a function-style cast, float(x). */
int amp__parse_is_arithmetic_type(const lex_token *t);
/* The short vector type the name t names (amp__body_vector_named), or 0. */
amp_elem_type amp__parse_vector_type(const lex_token *t);

/* What a kernel may do with a texture of access (an amp_texture_access),
 * in words, for messages. */
const char *amp__parse_texture_access_words(int access);
/* A name of a type here: a typedef in scope, or a struct type the kernel
 * knows. */
int amp__parse_names_type(reader *r, const lex_token *t);
/* C++ AMP's class template (index, extent, tiled_index, array_view,
 * array, texture) named by the token at k, with its '<' after it. */
int amp__parse_template_name(reader *r, size_t k);
/* When the current token is a name of C++ that C cannot take (std::,
 * nullptr, static_cast<, restrict(amp), ...), what to write instead; else
 * NULL. Names the body declares are its own. */
const char *amp__parse_cpp_hint(reader *r);
/* The function-like macro named t (an AMP_DEFINE), or NULL. */
const body_macro *amp__parse_function_macro(const reader *r, const lex_token *t);

/* ---- Names and scopes ---- */

/* A declaration in the current scope (amp__body_declare). */
int32_t amp__parse_declare(reader *r, const char *name, uint32_t length, body_decl_kind kind,
                           int32_t token);
/* From now on the declaration's name refers to it, until its scope ends. */
void amp__parse_make_visible(reader *r, int32_t id);
/* The declaration the name t refers to here, or BODY_UNRESOLVED. */
int32_t amp__parse_lookup(reader *r, const lex_token *t);

typedef struct scope_mark {
    size_t pushed;
    uint32_t scope;
} scope_mark;

scope_mark amp__parse_scope_open(reader *r);
void amp__parse_scope_close(reader *r, scope_mark m);

/* ---- Where the threads of a tile part ---- */

/* A loop (or a switch) is read between these two. */
void amp__parse_level_open(reader *r, int is_switch);
void amp__parse_level_close(reader *r);
/* A return, break or continue at token at, which the threads of a tile
 * take apart when r->divergent: later barriers, and every barrier of the
 * loops it leaves, are not reached by all. Fails b (and returns 0) when
 * such a barrier was read already. */
int amp__parse_exit(reader *r, long at);
/* A barrier waited at, at token at: fails b (and returns 0) where some
 * threads of the tile have left for good before it. */
int amp__parse_barrier_parts(reader *r, long at);
/* A while's or for's condition, tokens first .. last, read again at the
 * end of its body: fails b (and returns 0) when the body waits at a
 * barrier and set a variable the condition reads from the thread's index
 * (so that the threads of a tile stop at different turns). */
int amp__parse_loop_condition(reader *r, long first, long last);
/* A do ... while's condition, read at token at after its body
 * (varying: it differs from thread to thread): fails b (and returns 0)
 * when the body waits at a barrier. */
int amp__parse_do_condition(reader *r, long at, uint32_t varying);

/* ---- Facts ---- */

/* Record a construct (amp__body_note). */
void amp__parse_note(reader *r, construct_kind kind, body_type type, int form, int number, long t0,
                     long t1, long t2);
/* Add role bits to token i (a use of a name). */
void amp__parse_role(reader *r, long i, uint8_t role);
/* Record that the kernel needs the view value type t (array_view<T, N>),
 * for its struct and functions. */
void amp__parse_use_value_type(reader *r, body_type t);

#endif
