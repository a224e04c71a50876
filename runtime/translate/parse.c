/*
 * runtime/translate/parse.c - what the grammar's files share: the tokens
 * it walks and the nesting it allows, the words of C it knows (one list of
 * each), the names in scope, and the facts it records.
 */
#include "translate/parse.h"

#include <stdlib.h>
#include <string.h>

#include "core/elem.h"
#include "core/lexicon.h"
#include "core/strbuf.h"
#include "translate/vocabulary.h"

const lex_token amp__parse_eof = {"", 0, 0, 0, 0};

/* ---- Tokens ---- */

void amp__parse_expect(reader *r, const char *s)
{
    if (r->b->status != AMP_OK)
        return;
    if (!is(r, 0, s)) {
        if (at_end(r))
            amp__body_fail(r->b, -1, AMP_ERROR_KERNEL_BUILD,
                           "the body ends where '%s' was expected", s);
        else
            amp__body_fail(r->b, cur(r), AMP_ERROR_KERNEL_BUILD, "'%s' was expected here", s);
        return;
    }
    mark(r, BODY_NOT_A_USE);
    advance(r);
}

int amp__parse_enter(reader *r)
{
    if (++r->depth > AMP_MAX_NESTING) {
        amp__body_fail(r->b, cur(r), AMP_ERROR_KERNEL_BUILD,
                       "statements, braces, parentheses or brackets nest more than %d deep;"
                       " split the body into helper functions (AMP_FUNCTION)",
                       AMP_MAX_NESTING);
        return 0;
    }
    return 1;
}

void amp__parse_leave(reader *r)
{
    r->depth--;
}

/* ---- Words ---- */

/* Keywords that start or steer statements, never declarations. */
static const char *const statement_words[] = {
    "break", "case",   "continue", "default", "do",    "else", "for",   "goto",
    "if",    "return", "sizeof",   "switch",  "while", "true", "false", NULL};

int amp__parse_is_opencl_word(const lex_token *t)
{
    return t->kind == LEX_IDENT && amp__lexicon_is_opencl_only(t->text, t->length);
}

/* A keyword of OpenCL C, whatever the body declares. */
static int keyword_word(const lex_token *t)
{
    if (t->kind != LEX_IDENT || t->length >= 64)
        return 0;
    char word[64];
    memcpy(word, t->text, t->length);
    word[t->length] = '\0';
    /* The prelude makes global and local plain names (t_idx.global). */
    if (strcmp(word, "global") == 0 || strcmp(word, "local") == 0)
        return 0;
    return amp__lexicon_is_keyword(word);
}

int amp__parse_is_keyword(reader *r, const lex_token *t)
{
    if (amp__parse_is_opencl_word(t) && amp__parse_lookup(r, t) >= 0)
        return 0;
    return keyword_word(t);
}

int amp__parse_is_specifier(reader *r, const lex_token *t)
{
    return (amp__parse_is_keyword(r, t) && !amp__lex_is_any(t, statement_words)) ||
           amp__lex_is(t, "__attribute__") || amp__lex_is(t, "inline") ||
           amp__lex_is(t, "__kernel");
}

int amp__parse_is_short_vector(const lex_token *t)
{
    static const char *const amp_bases[] = {"int_",  "uint_",  "float_", "double_",
                                            "norm_", "unorm_", NULL};
    /* C++ AMP's norm and unorm are zero when default-constructed too. */
    if (amp__lex_is(t, "norm") || amp__lex_is(t, "unorm"))
        return 1;
    static const char *const cl_bases[] = {"char", "uchar", "short", "ushort", "int",  "uint",
                                           "long", "ulong", "float", "double", "half", NULL};
    if (t->kind != LEX_IDENT || t->length < 2)
        return 0;
    if (amp__lex_has_prefix(t, "amp_")) /* the host's amp_float_3 */
        return amp__parse_vector_type(t) != 0;
    for (const char *const *b = amp_bases; *b; b++) {
        size_t n = strlen(*b);
        if (t->length == n + 1 && strncmp(t->text, *b, n) == 0 && t->text[n] >= '2' &&
            t->text[n] <= '4')
            return 1;
    }
    for (const char *const *b = cl_bases; *b; b++) {
        size_t n = strlen(*b);
        if (t->length <= n || strncmp(t->text, *b, n) != 0)
            continue;
        const char *lanes = t->text + n;
        size_t k = t->length - n;
        if ((k == 1 &&
             (lanes[0] == '2' || lanes[0] == '3' || lanes[0] == '4' || lanes[0] == '8')) ||
            (k == 2 && lanes[0] == '1' && lanes[1] == '6'))
            return 1;
    }
    return 0;
}

int amp__parse_is_arithmetic_type(const lex_token *t)
{
    static const char *const words[] = {"char",     "uchar",  "short",  "ushort", "int",  "uint",
                                        "long",     "ulong",  "float",  "double", "half", "bool",
                                        "unsigned", "signed", "size_t", "_Bool",  NULL};
    if (t->kind != LEX_IDENT)
        return 0;
    if (amp__lex_is_any(t, words))
        return 1;
    /* norm(x) and unorm(x) are C++ AMP's constructions, which clamp
     * (spell.c), not casts. */
    if (amp__lex_is(t, "norm") || amp__lex_is(t, "unorm"))
        return 0;
    /* OpenCL's vectors (float4), not C++ AMP's (float_4), which are made
     * as float_4(x, y, z, w). */
    return amp__parse_is_short_vector(t) && memchr(t->text, '_', t->length) == NULL;
}

amp_elem_type amp__parse_vector_type(const lex_token *t)
{
    return t->kind == LEX_IDENT ? amp__body_vector_named(t->text, t->length) : (amp_elem_type)0;
}

const char *const amp__parse_pointer_qualifiers[] = {
    "const",    "volatile",  "restrict", "__global",  "__local", "__constant",
    "constant", "__private", "private",  "__generic", NULL};

int amp__parse_names_type(reader *r, const lex_token *t)
{
    int32_t d = amp__parse_lookup(r, t);
    if (d >= 0)
        return r->b->decls[d].kind == DECL_TYPEDEF;
    for (int i = 0; i < r->ctx->ntypes; i++)
        if (amp__lex_is(t, r->ctx->type_names[i]))
            return 1;
    return 0;
}

const char *amp__parse_texture_access_words(int access)
{
    return access == AMP_TEXTURE_WRITE        ? "written only (writeonly_texture_view)"
           : access == AMP_TEXTURE_READ_WRITE ? "read and written (texture_view<T, N>)"
                                              : "read only (texture_view<const T, N>)";
}

int amp__parse_template_name(reader *r, size_t k)
{
    static const char *const templates[] = {
        "index", "extent",  "tiled_index",  "array_view",
        "array", "texture", "texture_view", "writeonly_texture_view",
        NULL};
    const lex_token *t = peek(r, k);
    return amp__lex_is_any(t, templates) && is(r, k + 1, "<") &&
           amp__parse_lookup(r, t) == BODY_UNRESOLVED;
}

/* Words of C++ that restrict(amp) code uses and C has not, with what to
 * write instead. follow: what must come next for the word to be C++'s
 * (NULL: anything). */
static const struct {
    const char *word;
    const char *follow;
    const char *hint;
} cpp_words[] = {
    {"std", "::",
     "C has no namespaces: std::min is min (fmin for float), std::max is max (fmax),"
     " std::abs is abs (fabs), std::sqrt is sqrt"},
    {"direct3d", "::",
     "direct3d's functions are not offered: write abs, clamp, mad, rcp, step ... with"
     " OpenCL C's built-ins"},
    {"nullptr", NULL, "C has no nullptr: write 0 (or NULL)"},
    {"static_cast", "<", "C has no named casts: write (T)x"},
    {"reinterpret_cast", "<", "C has no named casts: write (T)x, or as_float(x) for the bits"},
    {"const_cast", "<", "C has no named casts: write (T)x"},
    {"dynamic_cast", "<", "C has no named casts, and kernels no classes"},
    {"this", NULL, "a kernel is not a member function: name the captured view or value"},
    {"new", NULL,
     "kernels cannot allocate: use a tile_static array, or a local array of constant size"},
    {"delete", NULL, "kernels cannot allocate or free memory"},
    {"throw", NULL,
     "restrict(amp) code has no exceptions: write a status into a view and check it on the"
     " host"},
    {"try", "{", "restrict(amp) code has no exceptions"},
    {"template", "<",
     "C has no templates: write a helper (AMP_FUNCTION) for each type, or use a macro"},
    {"typename", NULL, "C has no templates: name the type"},
    {"class", NULL, "C has no classes: use a struct (AMP_STRUCT for views' elements)"},
    {"operator", NULL, "C has no operator overloading: write a helper function"},
    {"using", NULL, "C has no using: write the names in full (index<2>, fast_math_sqrt)"},
    {"namespace", NULL, "C has no namespaces"},
    {"restrict", "(",
     "a kernel body and an AMP_FUNCTION are restrict(amp) already: leave restrict(amp) out;"
     " for restrict(cpu, amp), write AMP_SHARED_FUNCTION"},
    {"parallel_for_each", "(",
     "a kernel cannot start another: run the two parallel_for_each calls one after the"
     " other on the host"},
    {"completion_future", NULL, "completion_future is the host's (amp_completion)"},
    {"accelerator_view", NULL,
     "accelerators are the host's: a kernel runs on the one it was given"},
};

const char *amp__parse_cpp_hint(reader *r)
{
    const lex_token *t = peek(r, 0);
    if (t->kind != LEX_IDENT || amp__parse_lookup(r, t) != BODY_UNRESOLVED)
        return NULL;
    for (size_t i = 0; i < sizeof cpp_words / sizeof cpp_words[0]; i++) {
        if (!amp__lex_is(t, cpp_words[i].word))
            continue;
        const char *follow = cpp_words[i].follow;
        /* "::" is two ':' tokens to the lexer */
        if (!follow ||
            (strcmp(follow, "::") == 0 ? is(r, 1, ":") && is(r, 2, ":") : is(r, 1, follow)))
            return cpp_words[i].hint;
    }
    /* A namespace of the program's own, as C++ AMP code calls its helpers
     * (MathHelpers::norm(v)). */
    if (is(r, 1, ":") && is(r, 2, ":"))
        return "C has no namespaces: call the function by its own name (norm(v) for"
               " Helpers::norm(v)), written with AMP_FUNCTION and captured by that name";
    return NULL;
}

const body_macro *amp__parse_function_macro(const reader *r, const lex_token *t)
{
    const kbody *b = r->b;
    for (size_t i = 0; i < b->nmacros; i++) {
        const lex_token *name = &r->tok[b->macros[i].name];
        if (b->macros[i].function_like && name->length == t->length &&
            memcmp(name->text, t->text, t->length) == 0)
            return &b->macros[i];
    }
    return NULL;
}

/* ---- Names and scopes ---- */

static name_slot *slot_of(reader *r, const char *name, uint32_t length, int make)
{
    name_slot *s = NULL;
    HASH_FIND(hh, r->names, name, length, s);
    if (s || !make)
        return s;
    s = calloc(1, sizeof *s);
    if (!s) {
        amp__body_no_memory(r->b);
        return NULL;
    }
    s->name = name;
    s->length = length;
    HASH_ADD_KEYPTR(hh, r->names, s->name, s->length, s);
    return s;
}

/* Whether a name the body declares cannot be its name in the kernel: a
 * word C and C++ leave free and OpenCL C takes (half, uint, kernel), or a
 * built-in function that the kernel's own macros call where the body's
 * names are in scope (tile_barrier barrier = t_idx.barrier; then
 * barrier.wait() calls barrier()). */
static int taken_in_kernels(const lex_token *t)
{
    if (amp__parse_is_opencl_word(t))
        return 1;
    char word[64];
    if (t->length >= sizeof word)
        return 0;
    memcpy(word, t->text, t->length);
    word[t->length] = '\0';
    return amp__lexicon_is_builtin_function(word) && amp__vocab_reserves(word, t->length);
}

int32_t amp__parse_declare(reader *r, const char *name, uint32_t length, body_decl_kind kind,
                           int32_t token)
{
    int32_t id = amp__body_declare(r->b, name, length, kind, token, r->scope);
    /* Such a name is called by one of the kernel's own. A tile_static's
     * name is chosen where it moves (hoist.c). */
    if (id >= 0 && token >= 0 && kind != DECL_TILE_STATIC && kind != DECL_KERNEL &&
        (taken_in_kernels(&r->b->tokens.items[token]) ||
         amp__body_is_extent_name(r->b, name, length))) {
        strbuf sb = STRBUF_INIT;
        amp__sb_printf(&sb, "amp_name_%.*s", (int)length, name);
        r->b->decls[id].renamed = amp__sb_take(&sb);
        if (!r->b->decls[id].renamed)
            amp__body_no_memory(r->b);
    }
    return id;
}

void amp__parse_make_visible(reader *r, int32_t id)
{
    if (id < 0 || r->b->status != AMP_OK)
        return;
    const body_decl *d = &r->b->decls[id];
    name_slot *s = slot_of(r, d->name, d->length, 1);
    if (!s)
        return;
    if (s->count == s->capacity) {
        size_t cap = s->capacity ? 2 * s->capacity : 4;
        int32_t *grown = realloc(s->stack, cap * sizeof *grown);
        if (!grown) {
            amp__body_no_memory(r->b);
            return;
        }
        s->stack = grown;
        s->capacity = cap;
    }
    if (r->npushed == r->cap_pushed) {
        size_t cap = r->cap_pushed ? 2 * r->cap_pushed : 64;
        name_slot **grown = realloc(r->pushed, cap * sizeof *grown);
        if (!grown) {
            amp__body_no_memory(r->b);
            return;
        }
        r->pushed = grown;
        r->cap_pushed = cap;
    }
    s->stack[s->count++] = id;
    r->pushed[r->npushed++] = s;
}

int32_t amp__parse_lookup(reader *r, const lex_token *t)
{
    name_slot *s = slot_of(r, t->text, t->length, 0);
    return s && s->count ? s->stack[s->count - 1] : BODY_UNRESOLVED;
}

scope_mark amp__parse_scope_open(reader *r)
{
    scope_mark m = {r->npushed, r->scope};
    r->scope = ++r->scopes;
    return m;
}

void amp__parse_scope_close(reader *r, scope_mark m)
{
    while (r->npushed > m.pushed)
        r->pushed[--r->npushed]->count--;
    r->scope = m.scope;
}

/* ---- Facts ---- */

void amp__parse_note(reader *r, construct_kind kind, body_type type, int form, int number, long t0,
                     long t1, long t2)
{
    body_construct c = {.kind = (uint8_t)kind,
                        .form = (uint8_t)form,
                        .type = type,
                        .number = number,
                        .tok = {(int32_t)t0, (int32_t)t1, (int32_t)t2, -1, -1, -1}};
    amp__body_note(r->b, &c);
}

void amp__parse_role(reader *r, long i, uint8_t role)
{
    if (i >= 0 && (size_t)i < r->b->tokens.count)
        r->b->roles[i] |= role;
}

void amp__parse_use_value_type(reader *r, body_type t)
{
    kbody *b = r->b;
    for (int i = 0; i < b->nvalue_types; i++)
        if (b->value_types[i].elem == t.elem && b->value_types[i].rank == t.rank)
            return;
    if (b->nvalue_types == AMP_MAX_VIEW_VALUE_TYPES) {
        amp__body_fail(b, cur(r), AMP_ERROR_KERNEL_BUILD,
                       "more than %d kinds of view values in one kernel", AMP_MAX_VIEW_VALUE_TYPES);
        return;
    }
    t.kind = TYPE_VIEW_VALUE;
    t.is_const = 0;
    t.array = 0;
    b->value_types[b->nvalue_types++] = t;
}

/* ---- Reading ---- */

void amp__parse_open(reader *r, kbody *b)
{
    memset(r, 0, sizeof *r);
    r->discarded = -1;
    r->returned = -1;
    r->b = b;
    r->ctx = b->ctx;
    r->tok = b->tokens.items;
    r->order = b->order;
    r->n = b->norder;
    /* The names the kernel declares around the body, at its outermost
     * scope. */
    const body_context *c = r->ctx;
    if (c->index_name) {
        int32_t id = amp__parse_declare(r, c->index_name, (uint32_t)strlen(c->index_name),
                                        DECL_KERNEL, -1);
        if (id >= 0) {
            b->decls[id].name_kind = BODY_NAME_INDEX;
            b->decls[id].type = c->index_type;
        }
        amp__parse_make_visible(r, id);
    }
    for (int i = 0; i < c->ncaptures && b->status == AMP_OK; i++) {
        const char *name = c->capture_names[i];
        int32_t id = amp__parse_declare(r, name, (uint32_t)strlen(name), DECL_KERNEL, -1);
        if (id < 0)
            return;
        body_decl *d = &b->decls[id];
        d->name_kind = (uint8_t)c->capture_kinds[i];
        d->capture = i;
        if (c->capture_types)
            d->type = c->capture_types[i];
        if (c->capture_returns)
            d->returns = c->capture_returns[i];
        amp__parse_make_visible(r, id);
    }
}

void amp__parse_close(reader *r)
{
    name_slot *s, *tmp;
    HASH_ITER(hh, r->names, s, tmp)
    {
        HASH_DEL(r->names, s);
        free(s->stack);
        free(s);
    }
    free(r->pushed);
    memset(r, 0, sizeof *r);
}

/* ---- Where the threads of a tile part ---- */

#define LEVELS 32 /* loops and switches followed; deeper ones are not */
#define fail(r, ...) amp__body_fail((r)->b, __VA_ARGS__)

void amp__parse_level_open(reader *r, int is_switch)
{
    int k = r->levels++;
    if (k >= LEVELS)
        return;
    uint32_t bit = (uint32_t)1 << k;
    r->level_switch = is_switch ? r->level_switch | bit : r->level_switch & ~bit;
    r->level_waits &= ~bit;
    r->level_exits &= ~bit;
    r->level_exit_params[k] = 0;
}

void amp__parse_level_close(reader *r)
{
    if (r->levels > 0)
        r->levels--;
}

/* The levels open (that are followed), as bits. */
static uint32_t open_levels(const reader *r)
{
    int n = r->levels < LEVELS ? r->levels : LEVELS;
    return n == 32 ? 0xffffffffu : ((uint32_t)1 << n) - 1;
}

/* The innermost open loop (a switch too for a break), as a bit, or 0. */
static uint32_t innermost(const reader *r, int switches)
{
    for (int k = (r->levels < LEVELS ? r->levels : LEVELS) - 1; k >= 0; k--)
        if (switches || !(r->level_switch & ((uint32_t)1 << k)))
            return (uint32_t)1 << k;
    return 0;
}

int amp__parse_exit(reader *r, long at)
{
    int thread = r->divergent > 0;
    uint32_t params = r->param_divergent; /* a helper's caller decides these */
    if (!thread && !params)
        return 1;
    const lex_token *t = &r->tok[at];
    int leaves = !amp__lex_is(t, "continue"); /* continue only skips the rest of this turn */
    int returns = amp__lex_is(t, "return") || amp__lex_is(t, "goto");
    /* The levels whose rest some threads skip: a return's (or a goto's)
     * all of them, a break's the innermost loop or switch, a continue's
     * the innermost loop. */
    uint32_t left = returns ? open_levels(r) : innermost(r, amp__lex_is(t, "break"));
    if (returns) {
        if (thread)
            r->returned = at;
        r->returned_params |= params;
    }
    if (thread)
        r->level_exits |= left;
    for (int k = 0; k < LEVELS; k++)
        if (left & ((uint32_t)1 << k))
            r->level_exit_params[k] |= params;
    /* A loop left for good whose barriers the threads that left then miss
     * in the turns to come. */
    uint32_t loops_left = leaves ? left & ~r->level_switch & r->level_waits : 0;
    if (!loops_left)
        return 1;
    r->b->wait_params |= params >> 1;
    if (!thread || r->ctx->checked)
        return 1;
    fail(r, at, AMP_ERROR_KERNEL_BUILD,
         "this %.*s is under a condition on the thread's global or local index, and the loop it"
         " leaves waits at a barrier: the threads of a tile that leave never reach that barrier"
         " again. Let every thread run the loop's barriers, and skip only the work",
         (int)t->length, t->text);
    return 0;
}

int amp__parse_barrier_parts(reader *r, long at)
{
    uint32_t open = open_levels(r), params = r->returned_params;
    r->level_waits |= open;
    for (int k = 0; k < LEVELS; k++)
        if (open & ((uint32_t)1 << k))
            params |= r->level_exit_params[k];
    r->b->wait_params |= params >> 1;
    if (r->ctx->checked)
        return 1;
    if (r->returned >= 0) {
        fail(r, at, AMP_ERROR_KERNEL_BUILD,
             "a return (or goto) under a condition on the thread's global or local index comes"
             " before this barrier, so the threads of a tile that took it never reach it: let"
             " every thread come to the barrier, and put only the work under the condition");
        return 0;
    }
    if (r->level_exits & open) {
        fail(r, at, AMP_ERROR_KERNEL_BUILD,
             "a break, continue or return under a condition on the thread's global or local"
             " index comes before this barrier in its loop or switch, so the threads of a tile"
             " that took it skip the barrier: let every thread come to the barrier, and skip"
             " only the work");
        return 0;
    }
    return 1;
}

int amp__parse_loop_condition(reader *r, long first, long last)
{
    uint32_t loop = innermost(r, 0);
    if (!(r->level_waits & loop) || first < 0)
        return 1;
    for (long i = first; i <= last && i < (long)r->b->tokens.count; i++) {
        int32_t d = r->b->resolved[i];
        if (d < 0)
            continue;
        uint32_t varying = r->b->decls[d].thread_varying;
        r->b->wait_params |= varying >> 1;
        if (!(varying & VARYING_THREAD) || r->ctx->checked)
            continue;
        fail(r, i, AMP_ERROR_KERNEL_BUILD,
             "this loop's condition reads '%.*s', which the loop sets from the thread's global or"
             " local index, and the loop waits at a barrier: the threads of a tile that stop"
             " never reach that barrier again. Loop on a condition every thread of the tile"
             " shares",
             (int)r->tok[i].length, r->tok[i].text);
        return 0;
    }
    return 1;
}

int amp__parse_do_condition(reader *r, long at, uint32_t varying)
{
    uint32_t loop = innermost(r, 0);
    if (!(r->level_waits & loop))
        return 1;
    r->b->wait_params |= varying >> 1; /* a helper's: the caller's to check */
    if (!(varying & VARYING_THREAD) || r->ctx->checked)
        return 1;
    fail(r, at, AMP_ERROR_KERNEL_BUILD,
         "this do ... while's condition depends on the thread's global or local index, and its"
         " body waits at a barrier: the threads of a tile that stop never reach that barrier"
         " again. Loop on a condition every thread of the tile shares");
    return 0;
}
