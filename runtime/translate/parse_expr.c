/*
 * runtime/translate/parse_expr.c - expressions: C's grammar by precedence,
 * names resolved, and the types of index, extent, view and texture values
 * followed, so that each spelling of C++ AMP on them is noted as a
 * construct (spell.c writes it in OpenCL C):
 *
 *   p == q, p != q            C_INDEX_COMPARE
 *   e.contains(p), e.size()   C_EXTENT_CALL
 *   v.extent, v.get_extent()  C_EXTENT_OF_CAPTURE, C_EXTENT_OF_VALUE
 *   v[idx], v[i][j]           C_VIEW_SUBSCRIPT
 *   v(t_idx), v[t_idx]        C_TILED_AS_INDEX
 *   index<2>(i, j)            C_CONSTRUCTION
 *   p[0] of an index<1>       C_INDEX1_SUBSCRIPT
 *   f.rgb, f.get_xy()         C_SWIZZLE (short vectors, followed too)
 *   a == b of short vectors   C_VECTOR_COMPARE
 *   v(i) of a float_3 view    C_UNPACK, C_PACK, C_PACKED_UPDATE where its
 *                             value is taken, it is assigned, updated
 *   (c ? a : b) of two views  a view value of both
 *   f(x) of a helper with tile_static variables   C_HELPER_CALL
 *
 * and each use of a captured view gets its role: an element whose value is
 * taken is read; one assigned, incremented or decremented is written; one
 * whose address is taken may be written through; a view named alone is
 * made a value. An element's role also says at which index it is: the
 * thread's own (v(idx), v[t_idx], v(t_idx.global), v(idx[0], idx[1]) with
 * exactly the index's components in order), its tile's (v(t_idx.tile)), or
 * another (ROLE_AT_*). Each use of the kernel's index is a read, and a
 * write or & through it adds its role, so that writes.c can tell whether
 * the body may change the index. Index and extent values are OpenCL int vectors, so + - * /
 * between them and with ints need nothing. An expression the grammar here
 * does not take is walked flat to its end, its names resolved: it is
 * printed as written, the compiler judges it, and the views in it get no
 * role (so count as written).
 */
#include "translate/parse_expr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/elem.h"
#include "translate/parse_type.h"

#define fail(r, ...) amp__body_fail((r)->b, __VA_ARGS__)
#define expect amp__parse_expect
#define enter amp__parse_enter
#define leave amp__parse_leave

typedef body_value value;

static const value nothing = {{TYPE_OTHER, 0, 0, 0, 0, 0, 0, 0, 0}, -1, -1, -1, -1, -1};

static value other(long first, long last)
{
    value v = {{TYPE_OTHER, 0, 0, 0, 0, 0, 0, 0, 0}, first, last, -1, -1, -1};
    return v;
}

static value typed(body_type type, long first, long last)
{
    value v = {type, first, last, -1, -1, -1};
    return v;
}

void amp__parse_value_read(reader *r, body_value v)
{
    if (v.root >= 0)
        amp__parse_role(r, v.root, ROLE_VALUE_READ);
    if (v.root2 >= 0)
        amp__parse_role(r, v.root2, ROLE_VALUE_READ);
}

static int indexlike(body_type t)
{
    return !t.array &&
           (t.kind == TYPE_INDEX || t.kind == TYPE_EXTENT || t.kind == TYPE_TILED_INDEX);
}

value amp__parse_as_index(reader *r, value v)
{
    if (v.type.kind == TYPE_TILED_INDEX && !v.type.array && v.last >= 0) {
        amp__parse_note(r, C_TILED_AS_INDEX, v.type, 0, 0, v.last, -1, -1);
        v.type.kind = TYPE_INDEX;
    }
    return v;
}

#define as_index amp__parse_as_index

body_type amp__parse_element_type(reader *r, uint16_t elem, int in_memory)
{
    body_type t = BODY_TYPE_OTHER;
    if (amp__elem_is_vector((amp_elem_type)elem)) {
        t.kind = TYPE_VECTOR;
        t.elem = elem;
        t.packed = (uint8_t)(in_memory && amp__elem_lanes((amp_elem_type)elem) == 3);
        return t;
    }
    for (int i = 0; r->ctx->type_ids && i < r->ctx->ntypes; i++)
        if (r->ctx->type_ids[i] == (amp_elem_type)elem) {
            t.kind = TYPE_STRUCT;
            t.elem = elem;
        }
    return t;
}

static int is_vector(body_type t)
{
    return t.kind == TYPE_VECTOR && !t.array;
}

/* A 3-vector in memory (a view's element, a struct's member: 12 bytes, as
 * C++ AMP lays it out) where its value is taken: read whole, as OpenCL's
 * float3. Anything else is as it was. */
static value rvalue(reader *r, value v)
{
    if (is_vector(v.type) && v.type.packed && v.first >= 0 && v.last >= 0) {
        amp__parse_note(r, C_UNPACK, v.type, 0, 0, v.first, v.last, -1);
        v.type.packed = 0;
        v.access = -1;
    }
    return v;
}

static value assignment(reader *r);
static value comma_expression(reader *r);
static value unary(reader *r);

/* The value of an integer literal (0x1, 010, 2u), or -1 for none that
 * fits. */
static long number_of(const lex_token *t)
{
    char text[32];
    if (t->length >= sizeof text)
        return -1;
    memcpy(text, t->text, t->length);
    text[t->length] = '\0';
    char *end;
    errno = 0;
    long n = strtol(text, &end, 0);
    while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
        end++;
    return errno || *end ? -1 : n;
}

/* ---- Roles ---- */

/* An element of a captured view where v stands now: written when a
 * preprocessor line stands right before or after it, which could make it
 * anything. */
static void beside_directives(reader *r, const value *v)
{
    if (v->access < 0 || v->first < 0 || v->last < 0)
        return;
    const uint16_t directive = TOK_DIRECTIVE | TOK_IN_DIRECTIVE;
    const kbody *b = r->b;
    if ((v->first > 0 && (b->flags[v->first - 1] & directive)) ||
        ((size_t)v->last + 1 < b->tokens.count && (b->flags[v->last + 1] & directive)))
        amp__parse_role(r, v->access, ROLE_WRITTEN);
}

/* ---- The thread's own index ---- */

/* Whether token i names the kernel's index (not a name of the body's that
 * hides it). */
static int names_kernel_index(const reader *r, long i)
{
    int32_t d = r->b->resolved[i];
    return d >= 0 && r->b->decls[d].kind == DECL_KERNEL &&
           r->b->decls[d].name_kind == BODY_NAME_INDEX;
}

/* Which index the tokens first .. last spell, as an element's index:
 * ROLE_AT_OWN for the thread's own (idx, t_idx, t_idx.global, or with
 * component >= 0 that component of it: idx[component],
 * t_idx.global[component]), ROLE_AT_TILE for its tile's (t_idx.tile,
 * t_idx.tile[component]), ROLE_AT_OTHER for anything else. Only these
 * exact spellings count, outside preprocessor lines and macros'
 * arguments: whatever else an expression is, it is another index. */
static uint8_t index_form(const reader *r, long first, long last, int component)
{
    const kbody *b = r->b;
    if (first < 0 || last < first || !names_kernel_index(r, first))
        return ROLE_AT_OTHER;
    for (long i = first; i <= last; i++)
        if (b->flags[i] & (TOK_DIRECTIVE | TOK_IN_DIRECTIVE | TOK_MACRO_ARGS))
            return ROLE_AT_OTHER;
    const lex_token *t = r->tok;
    long at = first + 1;
    uint8_t form = ROLE_AT_OWN;
    if (r->ctx->index_type.kind == TYPE_TILED_INDEX && at + 1 <= last && amp__lex_is(&t[at], ".")) {
        if (amp__lex_is(&t[at + 1], "tile"))
            form = ROLE_AT_TILE;
        else if (!amp__lex_is(&t[at + 1], "global"))
            return ROLE_AT_OTHER;
        at += 2;
    } else if (r->ctx->index_type.kind == TYPE_TILED_INDEX && component >= 0) {
        return ROLE_AT_OTHER; /* a tiled index has no subscript */
    }
    if (component < 0)
        return at == last + 1 ? form : ROLE_AT_OTHER;
    if (at + 2 != last || !amp__lex_is(&t[at], "[") || !amp__lex_is(&t[last], "]") ||
        t[at + 1].kind != LEX_NUMBER || t[at + 1].length != 1 ||
        t[at + 1].text[0] != '0' + component)
        return ROLE_AT_OTHER;
    return form;
}

/* The index of an element of a view of rank whose subscripts or
 * arguments are subs[0 .. n): one whole index, or rank components of one
 * index in order (a rank-1 view takes either). */
static uint8_t element_index_form(const reader *r, int rank, const body_value *subs, int n)
{
    if (r->ctx->index_type.rank != rank || n < 1)
        return ROLE_AT_OTHER;
    if (n == 1) {
        uint8_t whole = index_form(r, subs[0].first, subs[0].last, -1);
        if (whole != ROLE_AT_OTHER || rank > 1)
            return whole;
    }
    if (n != rank)
        return ROLE_AT_OTHER;
    uint8_t form = index_form(r, subs[0].first, subs[0].last, 0);
    for (int k = 1; k < n && form != ROLE_AT_OTHER; k++)
        if (index_form(r, subs[k].first, subs[k].last, k) != form)
            form = ROLE_AT_OTHER;
    return form;
}

/* ---- Flat walking, for what the grammar does not take ---- */

static int ends_here(const reader *r, const char *const *terminators)
{
    const lex_token *t = peek(r, 0);
    return t->kind == LEX_PUNCT && amp__lex_is_any(t, terminators);
}

/* Walk to a terminator at bracket depth 0, resolving names; brackets nest
 * flat on a stack, and an unmatched closing one ends the walk. */
static void flat(reader *r, const char *const *terminators)
{
    char open[AMP_MAX_NESTING + 1];
    uint8_t macro_args[AMP_MAX_NESTING + 1];
    int depth = 0, in_macro = 0;
    const lex_token *prev = &amp__parse_eof;
    while (!at_end(r)) {
        const lex_token *t = peek(r, 0);
        if (depth == 0 && ends_here(r, terminators))
            return;
        char bracket = amp__lex_bracket(t);
        if (bracket && strchr("([{", bracket)) {
            if (!enter(r))
                return;
            int is_macro = prev->kind == LEX_IDENT && amp__parse_function_macro(r, prev) != NULL;
            open[depth] = bracket;
            macro_args[depth] = (uint8_t)is_macro;
            in_macro += is_macro;
            depth++;
            mark(r, BODY_NOT_A_USE);
        } else if (bracket) {
            if (depth == 0)
                return; /* the caller's bracket */
            static const char match[] = {[')'] = '(', [']'] = '[', ['}'] = '{'};
            if (open[depth - 1] != match[(unsigned char)bracket]) {
                fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "'%c' closes '%c'", bracket,
                     open[depth - 1]);
                return;
            }
            depth--;
            in_macro -= macro_args[depth];
            leave(r);
            mark(r, BODY_NOT_A_USE);
        } else if (t->kind == LEX_IDENT) {
            if (amp__lex_is(prev, ".") || amp__lex_is(prev, "->") || amp__parse_is_keyword(r, t) ||
                amp__lex_is(prev, "struct") || amp__lex_is(prev, "union") ||
                amp__lex_is(prev, "enum"))
                mark(r, BODY_NOT_A_USE);
            else
                mark(r, amp__parse_lookup(r, t));
        } else {
            mark(r, BODY_NOT_A_USE);
        }
        if (in_macro)
            r->b->flags[index_at(r, 0)] |= TOK_MACRO_ARGS;
        prev = t;
        advance(r);
    }
    if (depth > 0)
        fail(r, -1, AMP_ERROR_KERNEL_BUILD, "a '%c' is never closed", open[depth - 1]);
}

static const char *const to_close_paren[] = {")", NULL};

/* A bracketed group walked flat, from its opening token to its closing
 * one. */
static void flat_group(reader *r, const char *open, const char *const *close)
{
    expect(r, open);
    if (r->b->status != AMP_OK || !enter(r))
        return;
    flat(r, close);
    leave(r);
    expect(r, close[0]);
}

/* ---- Primary expressions ---- */

/* { initializers }, of a declaration or a compound literal: each an
 * expression or a list of its own, after designators (.member =,
 * [index] =). What the grammar does not take is walked flat to the ',' or
 * '}'. */
static value initializer_list(reader *r)
{
    static const char *const ends[] = {",", "}", NULL};
    long first = cur(r);
    expect(r, "{");
    if (r->b->status != AMP_OK || !enter(r))
        return nothing;
    while (r->b->status == AMP_OK && !at_end(r) && !is(r, 0, "}")) {
        int designated = 0;
        for (;;) {
            if (is(r, 0, ".") && peek(r, 1)->kind == LEX_IDENT) {
                mark(r, BODY_NOT_A_USE);
                advance(r);
                mark(r, BODY_NOT_A_USE); /* a member */
                advance(r);
            } else if (is(r, 0, "[")) {
                expect(r, "[");
                if (r->b->status != AMP_OK || !enter(r))
                    return nothing;
                comma_expression(r);
                leave(r);
                expect(r, "]");
            } else {
                break;
            }
            designated = 1;
        }
        if (designated)
            expect(r, "=");
        value item = is(r, 0, "{") ? initializer_list(r) : rvalue(r, assignment(r));
        if (r->b->status == AMP_OK && !at_end(r) && !ends_here(r, ends))
            flat(r, ends);
        (void)item;
        if (!is(r, 0, ","))
            break;
        expect(r, ",");
    }
    leave(r);
    long close = cur(r);
    expect(r, "}");
    return other(first, close);
}

/* index<N>(a, b, ...) or extent<N>(...): a vector of the type. */
static value construction(reader *r)
{
    long first = cur(r);
    body_type type;
    amp__parse_template_type(r, &type);
    if (r->b->status != AMP_OK)
        return nothing;
    if (type.kind == TYPE_TILED_INDEX) {
        fail(r, first, AMP_ERROR_KERNEL_BUILD,
             "a tiled_index is the kernel's own; it cannot be made");
        return nothing;
    }
    long open = cur(r);
    expect(r, "(");
    if (r->b->status != AMP_OK || !enter(r))
        return nothing;
    int args = 0;
    while (r->b->status == AMP_OK && !at_end(r) && !is(r, 0, ")")) {
        assignment(r);
        args++;
        if (!is(r, 0, ","))
            break;
        expect(r, ",");
    }
    leave(r);
    long close = cur(r);
    expect(r, ")");
    if (args != 0 && args != type.rank && !(type.rank == 1 && args == 1))
        fail(r, first, AMP_ERROR_KERNEL_BUILD, "%s<%d> takes %d values, and %d are given",
             type.kind == TYPE_INDEX ? "index" : "extent", type.rank, type.rank, args);
    amp__parse_note(r, C_CONSTRUCTION, type, 0, args, first, open, close);
    return typed(type, first, close);
}

static value primary(reader *r)
{
    const lex_token *t = peek(r, 0);
    long first = cur(r);
    if ((amp__lex_is(t, "index") || amp__lex_is(t, "extent")) && amp__parse_template_name(r, 0))
        return construction(r);
    const char *hint = amp__parse_cpp_hint(r);
    if (hint) {
        fail(r, first, AMP_ERROR_KERNEL_BUILD, "%s", hint);
        return nothing;
    }
    if (amp__parse_is_arithmetic_type(t) && is(r, 1, "(")) {
        fail(r, first, AMP_ERROR_KERNEL_BUILD,
             "C has no function-style casts: write (%.*s)(x), as in (float)(M_E)", (int)t->length,
             t->text);
        return nothing;
    }
    if (amp__lex_is(t, "[") && (is(r, 1, "=") || is(r, 1, "&")) && is(r, 2, "]")) {
        fail(r, first, AMP_ERROR_KERNEL_BUILD,
             "C has no lambdas: write the function with AMP_FUNCTION at file scope and capture"
             " it (AMP_CAPTURE(..., name))");
        return nothing;
    }
    if (t->kind == LEX_IDENT && !amp__parse_is_keyword(r, t)) {
        int32_t d = amp__parse_lookup(r, t);
        mark(r, d);
        advance(r);
        value v = other(first, first);
        if (d >= 0) {
            const body_decl *decl = &r->b->decls[d];
            v.type = decl->type;
            if (decl->kind == DECL_KERNEL && decl->name_kind == BODY_NAME_FUNCTION)
                v.type.kind = TYPE_FUNCTION;
            if (v.type.kind == TYPE_VIEW)
                v.root = first;
            r->thread_varying |= decl->thread_varying;
            /* The kernel's index: read here, and an lvalue, so that an
             * assignment, ++, -- or & through it says it may change. */
            if (decl->kind == DECL_KERNEL && decl->name_kind == BODY_NAME_INDEX) {
                amp__parse_role(r, first, ROLE_READ);
                v.access = first;
            }
        }
        return v;
    }
    if (t->kind == LEX_NUMBER || t->kind == LEX_STRING || t->kind == LEX_CHAR ||
        amp__lex_is(t, "true") || amp__lex_is(t, "false")) {
        mark(r, BODY_NOT_A_USE);
        advance(r);
        /* "a" "b": adjacent strings are one */
        while (t->kind == LEX_STRING && peek(r, 0)->kind == LEX_STRING) {
            mark(r, BODY_NOT_A_USE);
            advance(r);
        }
        return other(first, last_consumed(r));
    }
    if (amp__lex_is(t, "(")) {
        expect(r, "(");
        if (r->b->status != AMP_OK || !enter(r))
            return nothing;
        value inner = comma_expression(r);
        leave(r);
        long close = cur(r);
        expect(r, ")");
        /* Grouping keeps what the expression is: (v(i)) = x writes. */
        inner.first = first;
        inner.last = close;
        beside_directives(r, &inner);
        return inner;
    }
    if (amp__lex_is(t, "{"))
        return initializer_list(r);
    return nothing; /* not an expression's start: the caller walks on flat */
}

/* ---- Postfix ---- */

/* A call's arguments, as the reader saw them. */
typedef struct call_args {
    int n;
    value arg[8];         /* the first 8 */
    long comma[8];        /* the token after argument k, when it is a ',' */
    long open, close;     /* the parentheses */
    uint32_t varying[31]; /* what argument k depends on (VARYING_*); [30]: 30 on, together */
} call_args;

/* A texture given to a helper's texture<T, N> parameter: its image and its
 * extent, which is what the parameter became. */
static void texture_argument(reader *r, const body_type *param, value a)
{
    const char *what = "a texture<T, N> parameter is given something that is not a texture";
    char why[200] = "";
    int texture = a.type.kind == TYPE_TEXTURE || a.type.kind == TYPE_TEXTURE_VALUE;
    if (texture && a.first == a.last) {
        if (a.type.rank != param->rank || a.type.elem != param->elem ||
            a.type.channels != param->channels)
            snprintf(why, sizeof why,
                     "the texture has rank %d and %d %s channel%s; the parameter, rank %d and %d"
                     " %s channel%s",
                     a.type.rank, a.type.channels, amp__body_elem_name(r->ctx, a.type.elem),
                     a.type.channels == 1 ? "" : "s", param->rank, param->channels,
                     amp__body_elem_name(r->ctx, param->elem), param->channels == 1 ? "" : "s");
        else if (a.type.folded)
            snprintf(why, sizeof why,
                     "the texture has more texels than the device's 1D images hold, so it is"
                     " kept in the rows of a 2D image, which a helper cannot take: read it in"
                     " the kernel's body");
        else if (a.type.access != param->access)
            snprintf(why, sizeof why,
                     "the texture is %s here, and the parameter %s: declare it %s<%s%s%s, %d>",
                     amp__parse_texture_access_words(a.type.access),
                     amp__parse_texture_access_words(param->access),
                     a.type.access == AMP_TEXTURE_WRITE ? "writeonly_texture_view" : "texture_view",
                     a.type.access == AMP_TEXTURE_READ ? "const " : "",
                     amp__body_elem_name(r->ctx, a.type.elem),
                     a.type.channels == 1   ? ""
                     : a.type.channels == 2 ? "_2"
                                            : "_4",
                     a.type.rank);
        what = why[0] ? why : NULL;
    }
    if (what) {
        fail(r, a.first, AMP_ERROR_KERNEL_BUILD, "%s", what);
        return;
    }
    amp__parse_note(r, C_TEXTURE_ARGUMENT, a.type, 0, 0, a.first, -1, -1);
}

/* "tiled_index<16, 16>" of a tile (rank dimensions), or "a tiled_index of
 * rank 2" where a dimension is unknown (0), into text. */
static void tile_words(const int *tile, int rank, char *text, size_t size)
{
    int known = 1;
    for (int d = 0; d < rank; d++)
        known = known && tile[d] > 0;
    if (!known) {
        snprintf(text, size, "a tiled_index of rank %d", rank);
        return;
    }
    int n = snprintf(text, size, "a tiled_index<");
    for (int d = 0; d < rank && n > 0 && (size_t)n < size; d++)
        n += snprintf(text + n, size - (size_t)n, "%s%d", d ? ", " : "", tile[d]);
    if (n > 0 && (size_t)n < size)
        snprintf(text + n, size - (size_t)n, ">");
}

/* Argument a for parameter k of helper callee, a tiled_index<D0, ...>:
 * the kernel's tiled index, of the rank and (in a body, which knows the
 * launch's tile) the tile the parameter declares. C++ AMP's compiler
 * refuses another; here the helper would index its tile_static arrays by
 * the launch's tile and read and write past them. Returns 0 when refused. */
static int tiled_index_fits(reader *r, const kbody *callee, int k, value a)
{
    const body_type *param = &callee->params[k];
    const lex_token *name = &callee->tokens.items[callee->function_name];
    char wanted[64], given[64];
    tile_words(callee->param_tiles[k], param->rank, wanted, sizeof wanted);
    if (a.type.kind != TYPE_TILED_INDEX) {
        if (a.type.kind == TYPE_OTHER)
            return 1; /* what the reader does not follow: the compiler's */
        fail(r, a.first, AMP_ERROR_KERNEL_BUILD,
             "%.*s takes %s, the index of a tiled kernel: give it the tiled index itself"
             " (t_idx), in a kernel launched over a tiled extent",
             (int)name->length, name->text, wanted);
        return 0;
    }
    /* The tile of the index given: in a body, the launch's; in a helper,
     * what its own tiled_index parameter declares (0: unknown). */
    const int *tile = NULL;
    int32_t d = a.first == a.last ? r->b->resolved[a.first] : -1;
    if (!r->ctx->function && r->ctx->tile[0] > 0)
        tile = r->ctx->tile;
    for (int j = 0; r->ctx->function && d >= 0 && j < r->b->nparams && j < AMP_MAX_FUNCTION_PARAMS;
         j++)
        if (r->b->param_decls[j] == d)
            tile = r->b->param_tiles[j];
    int fits = a.type.rank == param->rank;
    for (int i = 0; i < param->rank && i < 3 && fits && tile; i++)
        fits = callee->param_tiles[k][i] == 0 || tile[i] == 0 ||
               callee->param_tiles[k][i] == tile[i];
    if (fits)
        return 1;
    if (tile) {
        tile_words(tile, a.type.rank, given, sizeof given);
        if (r->ctx->function)
            fail(r, a.first, AMP_ERROR_KERNEL_BUILD,
                 "%.*s takes %s, and the tiled index given to it is %s: declare the two"
                 " parameters with one tile",
                 (int)name->length, name->text, wanted, given + 2);
        else
            fail(r, a.first, AMP_ERROR_KERNEL_BUILD,
                 "%.*s takes %s, and this kernel's index is %s (the launch's tile): declare the"
                 " parameter as the launch's tile, or launch over the tile the parameter"
                 " declares",
                 (int)name->length, name->text, wanted, given + 2);
    } else {
        fail(r, a.first, AMP_ERROR_KERNEL_BUILD,
             "%.*s takes %s, and this tiled index has rank %d: declare the parameter with the"
             " tile of the index given to it",
             (int)name->length, name->text, wanted, a.type.rank);
    }
    return 0;
}

/* A call of helper callee (named at v), which waits at the tile's barrier
 * under conditions on its parameters callee->wait_params: given a value
 * that differs from thread to thread, some threads of a tile would miss
 * the barrier, and the call is refused; given the caller's own parameter,
 * the caller waits under a condition on it. Returns 0 when refused. */
static int waits_by_its_arguments(reader *r, value v, const kbody *callee, const call_args *a)
{
    for (int k = 0; k < a->n && k <= 30; k++) {
        if (!(callee->wait_params & ((uint32_t)1 << k)))
            continue;
        r->b->wait_params |= a->varying[k] >> 1;
        if (!(a->varying[k] & VARYING_THREAD) || r->ctx->checked)
            continue;
        const lex_token *name = &r->tok[v.first];
        fail(r, k < 8 ? a->arg[k].first : v.first, AMP_ERROR_KERNEL_BUILD,
             "%.*s waits at the tile's barrier under a condition on its parameter %d, and this"
             " value differs from thread to thread, so the threads of a tile for which the"
             " condition fails never reach the barrier: give it a value every thread of the"
             " tile shares, and keep the barrier out of the condition",
             (int)name->length, name->text, k + 1);
        return 0;
    }
    return 1;
}

/* The arguments of a call, each an assignment expression; the ')' is
 * consumed. A view's, or a helper's, tiled index arguments stand for their
 * global index (indices_due). A helper's (callee's) view parameter
 * declared const only reads the captured view given to it; its tiled_index
 * parameter takes the kernel's tiled index, of its tile. */
static void arguments(reader *r, int indices_due, int macro, const kbody *callee, call_args *out)
{
    const body_type *params = callee ? callee->params : NULL;
    int nparams = callee ? callee->nparams : 0;
    memset(out, 0, sizeof *out);
    out->open = cur(r);
    out->close = -1;
    size_t open = index_at(r, 0);
    expect(r, "(");
    if (r->b->status != AMP_OK || !enter(r))
        return;
    while (r->b->status == AMP_OK && !at_end(r) && !is(r, 0, ")")) {
        uint32_t outer = varying_begin(r);
        value a = rvalue(r, assignment(r));
        uint32_t varying = varying_end(r, outer);
        out->varying[out->n < 30 ? out->n : 30] |= varying;
        if (a.first < 0) {
            static const char *const ends[] = {",", ")", NULL};
            flat(r, ends);
        }
        const body_type *param = params && out->n < nparams && out->n < AMP_MAX_FUNCTION_PARAMS
                                     ? &params[out->n]
                                     : NULL;
        /* A helper's tiled_index parameter takes the tiled index itself. */
        if (indices_due && !(param && param->kind == TYPE_TILED_INDEX))
            a = as_index(r, a);
        if (param && param->kind == TYPE_TILED_INDEX && a.first >= 0 &&
            !tiled_index_fits(r, callee, out->n, a))
            break;
        if (param && param->kind == TYPE_TEXTURE_VALUE)
            texture_argument(r, param, a);
        else if (a.type.kind == TYPE_TEXTURE || a.type.kind == TYPE_TEXTURE_VALUE)
            if (param && a.first == a.last)
                fail(r, a.first, AMP_ERROR_KERNEL_BUILD,
                     "a texture is given to a helper whose parameter is not a texture<T, N>");
        if (param && param->kind == TYPE_VIEW_VALUE && param->is_const)
            amp__parse_value_read(r, a);
        if (param && param->kind == TYPE_VIEW_VALUE && !param->is_const &&
            a.type.kind == TYPE_VIEW_VALUE && a.type.is_const)
            fail(r, a.first, AMP_ERROR_KERNEL_BUILD,
                 "a const view is given to a helper whose parameter may write it: declare the"
                 " parameter array_view<const T, N>");
        if (out->n < 8) {
            out->arg[out->n] = a;
            out->comma[out->n] = is(r, 0, ",") ? cur(r) : -1;
        }
        out->n++;
        if (!is(r, 0, ","))
            break;
        expect(r, ",");
    }
    leave(r);
    out->close = cur(r);
    size_t close = index_at(r, 0);
    expect(r, ")");
    if (macro && close != SIZE_MAX)
        for (size_t i = open + 1; i < close; i++)
            r->b->flags[i] |= TOK_MACRO_ARGS;
}

/* A call of a helper that has tile_static variables (its own or its
 * callees'), which the caller passes in (locals.c): only a tiled kernel
 * has tiles for them. */
static void helper_call(reader *r, value f, const kbody *callee, const call_args *a)
{
    const body_decl *decl = &r->b->decls[r->b->resolved[f.first]];
    if (!r->ctx->function && r->ctx->index_type.kind != TYPE_TILED_INDEX) {
        fail(r, f.first, AMP_ERROR_KERNEL_BUILD,
             "%.*s uses tile_static memory ('%s', declared in %s), which the threads of a tile"
             " share: call it from a tiled kernel (a launch over a tiled extent)",
             (int)decl->length, decl->name, callee->locals[0].name, callee->locals[0].helper);
        return;
    }
    amp__parse_note(r, C_HELPER_CALL, BODY_TYPE_OTHER, 0, decl->capture, a->open, a->close, -1);
}

/* ---- Views as values ---- */

/* A captured view used as a value (a section's, a projection's, an
 * argument's): the kernel's amp_<v>_value. */
static value capture_as_value(reader *r, value v)
{
    const body_decl *decl = &r->b->decls[r->b->resolved[v.first]];
    amp__parse_note(r, C_CAPTURE_VALUE, v.type, 0, decl->capture, v.first, -1, -1);
    amp__parse_role(r, v.first, ROLE_VALUE);
    body_type t = v.type;
    t.kind = TYPE_VIEW_VALUE;
    amp__parse_use_value_type(r, t);
    value out = typed(t, v.first, v.last);
    out.root = v.first;
    return out;
}

/* The element of a view value given by args (an index, or rank ints). */
static value value_element(reader *r, value v, const call_args *a)
{
    int rank = v.type.rank;
    int by_index = a->n == 1 && indexlike(a->arg[0].type);
    if (!by_index && a->n != rank) {
        fail(r, a->open, AMP_ERROR_KERNEL_BUILD,
             "a view of rank %d takes %d subscripts or an index<%d>, and %d are given", rank, rank,
             rank, a->n);
        return nothing;
    }
    if (by_index && a->arg[0].type.rank != rank) {
        fail(r, a->open, AMP_ERROR_KERNEL_BUILD, "a view of rank %d is given an index of rank %d",
             rank, a->arg[0].type.rank);
        return nothing;
    }
    amp__parse_note(r, C_VALUE_ELEMENT, v.type, by_index ? ELEMENT_BY_INDEX : 0, 0, v.first,
                    a->open, a->close);
    return typed(amp__parse_element_type(r, v.type.elem, 1), v.first, a->close);
}

/* v[i] of a view value of rank 2 or more: a view of one rank less. */
static value value_projection(reader *r, value v, long open, long close)
{
    amp__parse_note(r, C_VALUE_PROJECTION, v.type, 0, 0, v.first, open, close);
    body_type t = v.type;
    t.rank--;
    amp__parse_use_value_type(r, t);
    value out = typed(t, v.first, close);
    out.root = v.root;
    out.root2 = v.root2;
    return out;
}

/* v.section(...) of a view value: (origin, extent), (origin) to the end,
 * (extent) from the start, or the origin's and extent's ints. */
static value value_section(reader *r, value v, long dot, long name)
{
    int rank = v.type.rank;
    call_args a;
    arguments(r, 1, 0, NULL, &a);
    if (r->b->status != AMP_OK)
        return nothing;
    int form;
    if (a.n == 2 * rank && rank > 1) {
        form = SECTION_INTS;
    } else if (a.n == 2) {
        form = SECTION_PAIR;
    } else if (a.n == 1 && a.arg[0].type.kind == TYPE_EXTENT) {
        form = SECTION_EXTENT;
    } else if (a.n == 1) {
        form = SECTION_ORIGIN;
    } else {
        fail(r, name, AMP_ERROR_KERNEL_BUILD,
             "a view of rank %d's section takes (origin, extent), (origin), (extent) or %d"
             " ints, and %d values are given",
             rank, 2 * rank, a.n);
        return nothing;
    }
    body_construct c = {.kind = C_VALUE_SECTION,
                        .form = (uint8_t)form,
                        .type = v.type,
                        .tok = {(int32_t)v.first, (int32_t)dot, (int32_t)name, (int32_t)a.open,
                                form == SECTION_INTS ? (int32_t)a.comma[rank - 1] : -1,
                                (int32_t)a.close}};
    amp__body_note(r->b, &c);
    value out = typed(v.type, v.first, a.close);
    out.root = v.root;
    out.root2 = v.root2;
    return out;
}

/* v[...][...] of a captured view: all of the view's subscripts at once,
 * an element as v(...) is; fewer than its rank make a projection, a view
 * value of lower rank. */
static value view_subscripts(reader *r, value v)
{
    int rank = v.type.rank;
    long opens[8], closes[8];
    value subs[8];
    int k = 0;
    for (; k < rank && is(r, 0, "["); k++) {
        opens[k] = cur(r);
        expect(r, "[");
        if (r->b->status != AMP_OK || !enter(r))
            return nothing;
        value s = comma_expression(r);
        leave(r);
        closes[k] = cur(r);
        expect(r, "]");
        if (r->b->status != AMP_OK)
            return nothing;
        /* A tiled index is its global index here, at any rank (v[t_idx]). */
        if (k == 0)
            s = as_index(r, s);
        subs[k] = s;
        /* An index of the view's rank names an element; an index<1> is an
         * int, and subscripts a projection like any int. */
        if (k == 0 && indexlike(s.type) && s.type.rank > 1) {
            if (s.type.rank != rank) {
                fail(r, opens[0], AMP_ERROR_KERNEL_BUILD,
                     "a view of rank %d is given an index of rank %d", rank, s.type.rank);
                return nothing;
            }
            amp__parse_note(r, C_VIEW_SUBSCRIPT, v.type, SUBSCRIPT_INDEX, 0, opens[0], closes[0],
                            -1);
            value out = typed(amp__parse_element_type(r, v.type.elem, 1), v.first, closes[0]);
            out.access = v.first;
            amp__parse_role(r, v.first, ROLE_READ | element_index_form(r, rank, subs, 1));
            return out;
        }
    }
    if (k == rank) {
        for (int j = 0; j < k; j++)
            amp__parse_note(r, C_VIEW_SUBSCRIPT, v.type,
                            (j == 0 ? SUBSCRIPT_FIRST : 0) | (j == k - 1 ? SUBSCRIPT_LAST : 0), 0,
                            opens[j], closes[j], -1);
        value out = typed(amp__parse_element_type(r, v.type.elem, 1), v.first, closes[k - 1]);
        out.access = v.first;
        amp__parse_role(r, v.first, ROLE_READ | element_index_form(r, rank, subs, k));
        return out;
    }
    /* A projection per subscript, of the view as a value. */
    value out = capture_as_value(r, v);
    for (int j = 0; j < k && r->b->status == AMP_OK; j++)
        out = value_projection(r, out, opens[j], closes[j]);
    return out;
}

/* v.extent or v.get_extent() (a call, whose empty parentheses go with the
 * member's name): noted as kind. */
static value extent_member(reader *r, value v, construct_kind kind, long dot, long name, int call)
{
    long open = -1, close = -1;
    if (call) {
        open = cur(r);
        expect(r, "(");
        close = cur(r);
        expect(r, ")");
    }
    body_construct c = {
        .kind = (uint8_t)kind,
        .type = v.type,
        .tok = {(int32_t)v.first, (int32_t)dot, (int32_t)name, (int32_t)open, (int32_t)close, -1}};
    amp__body_note(r->b, &c);
    return typed((body_type){TYPE_EXTENT, v.type.rank, 0, 0, 0, 0, 0, 0, 0}, v.first,
                 call ? close : name);
}

/* The text reaches a tile barrier at token at: t_idx.barrier, a
 * tile_barrier's wait(), or a call of a helper that waits (helper, its
 * name token; else NULL); waits: the text waits there (t_idx.barrier
 * alone only names the barrier). Under a condition on the thread's place the
 * threads that skip the branch never reach it: undefined in OpenCL
 * (PoCL's threads crash on it, a GPU's tile may hang), refused by C++
 * AMP's compiler, and here. Under AMP_CHECK the checker, which sees the
 * barrier run, reports it with the threads that missed it instead.
 * Returns 0 when refused. */
static int barrier_reached(reader *r, long at, const lex_token *helper, int waits)
{
    r->b->waits |= waits;
    if (waits) /* in a helper, under conditions on its parameters */
        r->b->wait_params |= r->param_divergent >> 1;
    if (waits && !amp__parse_barrier_parts(r, at))
        return 0;
    if (!r->divergent || r->ctx->checked)
        return 1;
    if (helper)
        fail(r, at, AMP_ERROR_KERNEL_BUILD,
             "%.*s waits at the tile's barrier, and this call is inside a branch or loop whose"
             " condition depends on the thread's global or local index, so the threads of a"
             " tile that skip it never reach the barrier (C++ AMP refuses it too): call it"
             " where every thread of the tile does, and put only the work under the condition",
             (int)helper->length, helper->text);
    else
        fail(r, at, AMP_ERROR_KERNEL_BUILD,
             "this barrier is inside a branch or loop whose condition depends on the thread's"
             " global or local index, so the threads of a tile that skip it never reach it"
             " (C++ AMP refuses it too): move the barrier out of the branch, where every thread"
             " of the tile reaches it, and put only the work under the condition");
    return 0;
}

/* A member of a tiled index: its indices and tile extent, and C++ AMP's
 * static tile_dim0 .. tile_dim2, the kernel's tile as numbers (so that
 * they can size tile_static arrays). */
static value tiled_member(reader *r, value v, long dot, long name)
{
    const lex_token *m = &r->tok[name];
    int rank = v.type.rank;
    int d = amp__lex_is(m, "tile_dim0")   ? 0
            : amp__lex_is(m, "tile_dim1") ? 1
            : amp__lex_is(m, "tile_dim2") ? 2
                                          : -1;
    if (d >= 0 && d < rank && v.first == v.last && r->ctx->tile[d] > 0 && r->ctx->index_name) {
        amp__parse_note(r, C_TILE_DIM, v.type, 0, r->ctx->tile[d], v.first, dot, name);
        return other(v.first, name);
    }
    if (amp__lex_is(m, "global") || amp__lex_is(m, "local"))
        r->thread_varying |= VARYING_THREAD;
    if (amp__lex_is(m, "barrier") && !barrier_reached(r, name, NULL, 0))
        return nothing;
    value out = other(v.first, name);
    if (amp__lex_is(m, "global") || amp__lex_is(m, "local") || amp__lex_is(m, "tile") ||
        amp__lex_is(m, "tile_origin"))
        out = typed((body_type){TYPE_INDEX, (uint8_t)rank, 0, 0, 0, 0, 0, 0, 0}, v.first, name);
    if (amp__lex_is(m, "tile_extent"))
        out = typed((body_type){TYPE_EXTENT, (uint8_t)rank, 0, 0, 0, 0, 0, 0, 0}, v.first, name);
    out.access = v.access; /* t_idx.global[0] = 1 changes the index */
    return out;
}

/* A view's reinterpret_as<T>() and view_as(extent), which C++ AMP allows in
 * restrict(amp) code: here a view is reshaped on the host, and the kernel
 * captures the view that makes. Fails, naming the host's function, and
 * returns 1 for those members. */
static int reshaped_on_the_host(reader *r, const lex_token *m, long name)
{
    if (amp__lex_is(m, "reinterpret_as"))
        fail(r, name, AMP_ERROR_KERNEL_BUILD,
             "a view is reinterpreted on the host: call amp_array_view_reinterpret_as(v, AMP_UINT,"
             " &bits) there (for an array, on the view of amp_array_view_create_from_array) and"
             " capture the view it makes");
    else if (amp__lex_is(m, "view_as"))
        fail(r, name, AMP_ERROR_KERNEL_BUILD,
             "a view is reshaped on the host: call amp_array_view_view_as(v, amp_extent_2d(rows,"
             " cols), &m) there (for an array, on the view of amp_array_view_create_from_array)"
             " and capture the view it makes");
    else
        return 0;
    return 1;
}

/* A texel of texture v read, ending at token last: of a texture of vectors
 * a vector (so that t[idx] == float_4(...) compares whole vectors). */
static value texel(reader *r, value v, long last)
{
    value out = other(v.first, last);
    /* A norm's or unorm's texel is a float's, clamped. */
    amp_elem_type scalar = (amp_elem_type)v.type.elem;
    if (scalar == AMP_NORM || scalar == AMP_UNORM)
        scalar = AMP_FLOAT;
    if (v.type.channels > 1)
        out.type = amp__parse_element_type(r, (uint16_t)amp__elem_of(scalar, v.type.channels), 0);
    return out;
}

/* t.set(...), t.get(...), t.sample(...) or a gather (form, a TEXTURE_*)
 * of a texture; a sample's or gather's modes may come as a template's
 * arguments (t.sample<filter_linear, address_wrap>(coord)), which the
 * kernel's names of them read. What the kernel's access to the texture
 * allows is for the generated accessors to say. */
static value texture_call(reader *r, value v, long dot, long name, int form)
{
    long lt = -1, gt = -1;
    int modes = 0; /* the template's arguments */
    if (is(r, 0, "<")) {
        lt = cur(r);
        mark(r, BODY_NOT_A_USE);
        advance(r);
        while (!at_end(r) && !is(r, 0, ">") && !is(r, 0, "(") && !is(r, 0, ";")) {
            modes += modes == 0 || is(r, 0, ",");
            mark(r, BODY_NOT_A_USE);
            advance(r);
        }
        gt = cur(r);
        expect(r, ">");
        if (r->b->status != AMP_OK)
            return nothing;
        if (!is(r, 0, "(")) {
            fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "'(' and the coordinates were expected");
            return nothing;
        }
    }
    long open = cur(r);
    call_args a;
    arguments(r, 1, 0, NULL, &a);
    if (r->b->status != AMP_OK)
        return nothing;
    /* A sample may end with C++ AMP's level of detail: a texture here has
     * one level, which every level of detail samples (C++ AMP clamps it to
     * the levels there are). */
    int most = (lt >= 0 ? 1 : 2) + (form == TEXTURE_SAMPLE);
    if (form >= TEXTURE_SAMPLE && a.n > most) {
        fail(r, open, AMP_ERROR_KERNEL_BUILD, "%.*s takes %s, and %d values are given",
             (int)r->tok[name].length, r->tok[name].text,
             form == TEXTURE_SAMPLE
                 ? (lt >= 0 ? "the coordinates and a level of detail"
                            : "a sampler, the coordinates and a level of detail")
                 : (lt >= 0 ? "the coordinates alone" : "the coordinates, or a sampler and them"),
             a.n);
        return nothing;
    }
    /* t.sample(x, y) without a template: a sampler and the coordinates,
     * or (C++ AMP's default modes) the coordinates and a level of detail:
     * the first when x is a captured sampler (an AMP_SAMPLER, a constant
     * of the kernel's). */
    int coord_and_level = 0;
    if (form == TEXTURE_SAMPLE && lt < 0 && a.n == 2) {
        long s = a.arg[0].first;
        int sampler = 0;
        if (s >= 0 && s == a.arg[0].last && r->tok[s].kind == LEX_IDENT && r->b->resolved[s] >= 0) {
            const body_decl *d = &r->b->decls[r->b->resolved[s]];
            sampler = d->kind == DECL_KERNEL && d->name_kind == BODY_NAME_CONSTANT;
        }
        coord_and_level = !sampler;
    }
    amp__parse_role(r, v.first, ROLE_READ);
    body_construct c = {.kind = C_TEXTURE_CALL,
                        .form = (uint8_t)form,
                        .type = v.type,
                        .number = a.n + 256 * modes + 65536 * coord_and_level,
                        .tok = {(int32_t)v.first, (int32_t)dot, (int32_t)name, (int32_t)lt,
                                (int32_t)gt, (int32_t)open}};
    amp__body_note(r->b, &c);
    if (form == TEXTURE_GET)
        return texel(r, v, last_consumed(r));
    return other(v.first, last_consumed(r));
}

/* t[idx] of a texture: the texel t(idx) reads. */
static value texture_subscript(reader *r, value v)
{
    long open = cur(r);
    expect(r, "[");
    if (r->b->status != AMP_OK || !enter(r))
        return nothing;
    as_index(r, comma_expression(r));
    leave(r);
    long close = cur(r);
    expect(r, "]");
    if (r->b->status != AMP_OK)
        return nothing;
    amp__parse_note(r, C_VIEW_SUBSCRIPT, v.type, SUBSCRIPT_INDEX, 0, open, close, -1);
    amp__parse_role(r, v.first, ROLE_READ);
    return texel(r, v, close);
}

/* A member of a captured view or texture (or a helper's texture
 * parameter): its extent; a view's section; a texture's calls. */
static value capture_member(reader *r, value v, long dot, long name)
{
    const lex_token *m = &r->tok[name];
    int texture = v.type.kind != TYPE_VIEW;
    int call = amp__lex_is(m, "get_extent") && is(r, 0, "(") && is(r, 1, ")");
    if (amp__lex_is(m, "extent") || call) {
        /* The view's shape, not its data: a read. */
        amp__parse_role(r, v.first, ROLE_READ);
        return extent_member(r, v, C_EXTENT_OF_CAPTURE, dot, name, call);
    }
    if (texture) {
        static const char *const calls[] = {
            "set",          "get",         "sample",       "gather_red",
            "gather_green", "gather_blue", "gather_alpha", NULL};
        int form = 0;
        for (int k = 0; calls[k] && !form; k++)
            form = amp__lex_is(m, calls[k]) ? k + 1 : 0;
        if (form && (is(r, 0, "(") || (form >= TEXTURE_SAMPLE && is(r, 0, "<"))))
            return texture_call(r, v, dot, name, form);
        fail(r, name, AMP_ERROR_KERNEL_BUILD,
             "a texture's %.*s is not offered inside kernels; there a texture has its"
             " extent (t.extent, t.get_extent()), its texels (t[idx], t(i, j), t.get(idx),"
             " t.set(idx, value)), t.sample(sampler, coord), t.sample<filter, address>(coord),"
             " t.sample(coord), t.gather_red(sampler, coord), t.gather_red<address>(coord),"
             " t.gather_red(coord) and the other gathers",
             (int)m->length, m->text);
        return nothing;
    }
    if (amp__lex_is(m, "section") && is(r, 0, "("))
        return value_section(r, capture_as_value(r, v), dot, name);
    if (reshaped_on_the_host(r, m, name))
        return nothing;
    fail(r, name, AMP_ERROR_KERNEL_BUILD,
         "a view's %.*s is not offered inside kernels; there a view has its extent"
         " (v.extent, v.get_extent()), its elements (v(i), v[i]), sections"
         " (v.section(origin, extent)) and projections (v[i])",
         (int)m->length, m->text);
    return nothing;
}

/* A member of a view value: its extent and sections. */
static value value_member(reader *r, value v, long dot, long name)
{
    const lex_token *m = &r->tok[name];
    int call = amp__lex_is(m, "get_extent") && is(r, 0, "(") && is(r, 1, ")");
    if (amp__lex_is(m, "extent") || call)
        return extent_member(r, v, C_EXTENT_OF_VALUE, dot, name, call);
    if (amp__lex_is(m, "section") && is(r, 0, "("))
        return value_section(r, v, dot, name);
    if (reshaped_on_the_host(r, m, name))
        return nothing;
    fail(r, name, AMP_ERROR_KERNEL_BUILD,
         "a view's %.*s is not offered inside kernels; there a view has its extent, its"
         " elements, sections and projections",
         (int)m->length, m->text);
    return nothing;
}

/* e.contains(p) or e.size() of an extent. */
static value extent_call(reader *r, value v, long dot, long name)
{
    int contains = amp__lex_is(&r->tok[name], "contains");
    long open = cur(r);
    expect(r, "(");
    if (contains && r->b->status == AMP_OK && enter(r)) {
        value p = as_index(r, assignment(r));
        if (p.type.kind == TYPE_INDEX && p.type.rank != v.type.rank)
            fail(r, p.first, AMP_ERROR_KERNEL_BUILD,
                 "an extent of rank %d cannot contain an index of rank %d", v.type.rank,
                 p.type.rank);
        leave(r);
    }
    long close = cur(r);
    expect(r, ")");
    body_construct c = {
        .kind = C_EXTENT_CALL,
        .form = (uint8_t)contains,
        .type = v.type,
        .tok = {(int32_t)v.first, (int32_t)dot, (int32_t)name, (int32_t)open, -1, -1}};
    amp__body_note(r->b, &c);
    return other(v.first, close);
}

/* The lanes a swizzle names, C++ AMP's way: one to four of x, y, z, w, or
 * of r, g, b, a (the same lanes); 0 when name is none. *rgba is set for
 * the second alphabet, which OpenCL C 1.2 does not have. */
static int swizzle_lanes(const char *name, size_t n, int *rgba)
{
    if (n < 1 || n > 4)
        return 0;
    int xyzw = 1, colour = 1;
    for (size_t i = 0; i < n; i++) {
        xyzw &= strchr("xyzw", name[i]) != NULL && name[i];
        colour &= strchr("rgba", name[i]) != NULL && name[i];
    }
    *rgba = !xyzw && colour;
    return xyzw || colour ? (int)n : 0;
}

/* Whether some struct the text knows (a registered one, or one the text
 * declares) has a member named m: then .r may be its, not a swizzle. */
static int some_struct_has(reader *r, const lex_token *m)
{
    const body_context *c = r->ctx;
    for (int i = 0; c->type_descs && i < c->ntypes; i++)
        for (int k = 0; c->type_descs[i] && k < c->type_descs[i]->nmembers; k++)
            if (amp__lex_is(m, c->type_descs[i]->members[k].name))
                return 1;
    for (size_t i = 0; i < r->b->tokens.count; i++)
        if ((r->b->flags[i] & TOK_MEMBER_NAME) && r->tok[i].length == m->length &&
            memcmp(r->tok[i].text, m->text, m->length) == 0)
            return 1;
    /* A struct declared inside an expression (a compound literal, a cast,
     * a sizeof) is not read as a declaration: any name between the braces
     * of a struct or union may be a member. */
    size_t n = r->b->tokens.count;
    for (size_t i = 0; i < n; i++) {
        if (!amp__lex_is(&r->tok[i], "struct") && !amp__lex_is(&r->tok[i], "union"))
            continue;
        size_t k = i + 1;
        if (k < n && r->tok[k].kind == LEX_IDENT)
            k++;
        if (k >= n || !amp__lex_is(&r->tok[k], "{"))
            continue;
        for (int depth = 0; k < n; k++) {
            depth += amp__lex_is(&r->tok[k], "{") - amp__lex_is(&r->tok[k], "}");
            if (depth == 0)
                break;
            if (r->tok[k].length == m->length && memcmp(r->tok[k].text, m->text, m->length) == 0)
                return 1;
        }
    }
    return 0;
}

/* A member of a short vector: a swizzle (.x, .xy, .rgb, spelled with
 * x, y, z, w as OpenCL C 1.2 has them), or C++ AMP's get_xy(),
 * set_xy(v) and ref_x(). Of a 3-vector in memory, one component is its
 * member, and more are read from its whole value. */
static value vector_member(reader *r, value v, long dot, long name)
{
    const lex_token *m = &r->tok[name];
    int form = SWIZZLE_NAME, rgba = 0;
    const char *letters = m->text;
    size_t n = m->length;
    if (n > 4 &&
        (memcmp(m->text, "get_", 4) == 0 || memcmp(m->text, "set_", 4) == 0 ||
         memcmp(m->text, "ref_", 4) == 0) &&
        is(r, 0, "(")) {
        form = m->text[0] == 'g' ? SWIZZLE_GET : m->text[0] == 's' ? SWIZZLE_SET : SWIZZLE_REF;
        letters += 4;
        n -= 4;
    }
    int lanes = swizzle_lanes(letters, n, &rgba);
    if (!lanes || (form == SWIZZLE_REF && lanes != 1)) {
        value out = other(v.first, name); /* OpenCL's own: .s0, .lo, .even ... */
        out.access = v.access;
        return out;
    }
    static const char *const assigns[] = {
        "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--", NULL};
    if (v.type.packed && lanes > 1) {
        if (form == SWIZZLE_SET || (form == SWIZZLE_NAME && amp__lex_is_any(peek(r, 0), assigns))) {
            fail(r, name, AMP_ERROR_KERNEL_BUILD,
                 "a %s_3 that a view or struct holds is written whole or one component at a"
                 " time: set its components one by one, or assign the whole vector",
                 amp__elem_scalar_name((amp_elem_type)v.type.elem));
            return nothing;
        }
        v = rvalue(r, v);
    }
    long open = -1, close = -1;
    if (form != SWIZZLE_NAME) {
        open = cur(r);
        expect(r, "(");
        if (form == SWIZZLE_SET) {
            if (r->b->status != AMP_OK || !enter(r))
                return nothing;
            rvalue(r, assignment(r));
            leave(r);
            if (v.access >= 0)
                amp__parse_role(r, v.access, ROLE_WRITTEN);
        }
        close = cur(r);
        expect(r, ")");
    }
    if (rgba || form != SWIZZLE_NAME)
        amp__parse_note(r, C_SWIZZLE, v.type, form, 0, name, open, close);
    value out = other(v.first, close >= 0 ? close : name);
    if (lanes > 1 && form != SWIZZLE_SET)
        out.type = amp__parse_element_type(
            r, (uint16_t)amp__elem_of(amp__elem_scalar((amp_elem_type)v.type.elem), lanes), 0);
    if (form == SWIZZLE_NAME || form == SWIZZLE_REF)
        out.access = v.access; /* v(i).x = 1 writes v */
    (void)dot;
    return out;
}

/* A member of a registered struct: a short vector member is followed (a
 * 3-vector is packed, as the struct holds it). */
static value struct_member(reader *r, value v, long name)
{
    const lex_token *m = &r->tok[name];
    value out = other(v.first, name);
    out.access = v.access;
    const body_context *c = r->ctx;
    for (int i = 0; c->type_descs && i < c->ntypes; i++) {
        if (c->type_ids[i] != (amp_elem_type)v.type.elem || !c->type_descs[i])
            continue;
        const amp_struct_desc *d = c->type_descs[i];
        for (int k = 0; k < d->nmembers; k++) {
            if (!amp__lex_is(m, d->members[k].name))
                continue;
            amp_elem_type vector = amp__body_vector_named(d->members[k].type,
                                                          strlen(d->members[k].type));
            out.type = amp__parse_element_type(r, (uint16_t)vector, 1);
            out.type.array = (uint8_t)(d->members[k].count > 0);
        }
    }
    return out;
}

/* A member, after '.': of a value the reader follows, by its type; of an
 * element, what C makes of it. */
static value member(reader *r, value v)
{
    long dot = cur(r);
    advance(r);
    mark(r, BODY_NOT_A_USE);
    long name = cur(r);
    const lex_token *m = peek(r, 0);
    if (m->kind != LEX_IDENT) {
        fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "a member's name was expected after '.'");
        return nothing;
    }
    advance(r);
    body_type t = v.type;
    /* C++ AMP's static member rank, of every value with a rank. */
    if (amp__lex_is(m, "rank") && !is(r, 0, "(") && !t.array &&
        (t.kind == TYPE_INDEX || t.kind == TYPE_EXTENT || t.kind == TYPE_VIEW ||
         t.kind == TYPE_VIEW_VALUE || t.kind == TYPE_TEXTURE || t.kind == TYPE_TEXTURE_VALUE ||
         t.kind == TYPE_TILED_INDEX)) {
        amp__parse_note(r, C_RANK, t, 0, 0, v.first, name, -1);
        return other(v.first, name);
    }
    if (t.kind == TYPE_TILED_INDEX && !t.array)
        return tiled_member(r, v, dot, name);
    /* A tile_barrier's wait (t_idx.barrier's, a variable's or a helper's
     * parameter's): wait is the kernel's, no other function's name. */
    static const char *const waits[] = {"wait", "wait_with_all_memory_fence",
                                        "wait_with_global_memory_fence",
                                        "wait_with_tile_static_memory_fence", NULL};
    if (t.kind == TYPE_OTHER && amp__lex_is_any(m, waits) && is(r, 0, "(") &&
        !barrier_reached(r, name, NULL, 1))
        return nothing;
    static const char *const tiled_only[] = {"barrier",   "local",       "tile",      "tile_origin",
                                             "global",    "tile_extent", "tile_dim0", "tile_dim1",
                                             "tile_dim2", NULL};
    if (t.kind == TYPE_INDEX && !t.array && amp__lex_is_any(m, tiled_only)) {
        fail(r, name, AMP_ERROR_KERNEL_BUILD,
             "%.*s is an index, which has no member '%.*s': a tiled index has it, in a kernel"
             " launched over a tiled extent (amp_extent_tile_2d(e, 16, 16) ...), as C++ AMP's"
             " tiled_index",
             (int)(r->tok[v.last].text + r->tok[v.last].length - r->tok[v.first].text),
             r->tok[v.first].text, (int)m->length, m->text);
        return nothing;
    }
    if ((t.kind == TYPE_VIEW || t.kind == TYPE_TEXTURE || t.kind == TYPE_TEXTURE_VALUE) &&
        v.first == v.last)
        return capture_member(r, v, dot, name);
    if (t.kind == TYPE_VIEW_VALUE && !t.array)
        return value_member(r, v, dot, name);
    if (t.kind == TYPE_EXTENT && !t.array &&
        (amp__lex_is(m, "contains") || amp__lex_is(m, "size")) && is(r, 0, "("))
        return extent_call(r, v, dot, name);
    if (is_vector(t))
        return vector_member(r, v, dot, name);
    if (t.kind == TYPE_STRUCT && !t.array)
        return struct_member(r, v, name);
    /* A value the reader does not follow: .r, .g, .b, .a and their
     * swizzles are C++ AMP's (and OpenCL 3.0's) names of a vector's lanes,
     * unless a struct the kernel knows has such a member. */
    int rgba = 0;
    if (t.kind == TYPE_OTHER && swizzle_lanes(m->text, m->length, &rgba) && rgba &&
        !some_struct_has(r, m))
        amp__parse_note(r, C_SWIZZLE, t, SWIZZLE_NAME, 0, name, -1, -1);
    value out = other(v.first, name);
    out.access = v.access; /* a member of an element: v(i).x = 1 writes v */
    return out;
}

/* The vector a call of the function named t makes: float_3(...) and the
 * amp_T_N functions of amp/short_vector.h (amp_float_3_add ...); 0 for
 * any other (a comparison, _eq and _ne, gives an int). */
static amp_elem_type made_vector(const lex_token *t)
{
    if (t->kind != LEX_IDENT)
        return (amp_elem_type)0;
    /* C++ AMP's constructor: float_3(x, y, z). */
    if (memchr(t->text, '_', t->length) && !amp__lex_has_prefix(t, "amp_"))
        return amp__parse_vector_type(t);
    if (!amp__lex_has_prefix(t, "amp_") || t->length < 10)
        return (amp_elem_type)0;
    /* amp_float_3_add: the type is the name up to its third '_'. */
    const char *end = memchr(t->text + 4, '_', t->length - 4);
    if (!end || (size_t)(end - t->text) + 3 > t->length || end[2] != '_')
        return (amp_elem_type)0;
    const char *op = end + 3;
    size_t n = (size_t)(t->text + t->length - op);
    if ((n == 2 && memcmp(op, "eq", 2) == 0) || (n == 2 && memcmp(op, "ne", 2) == 0))
        return (amp_elem_type)0;
    return amp__body_vector_named(t->text, (size_t)(end + 2 - t->text));
}

/* ++ or -- of a 3-vector in memory: refused, since it is read and written
 * whole (C++ AMP has them for integer vectors). Returns 1 when refused. */
static int packed_step(reader *r, value v)
{
    if (!is_vector(v.type) || !v.type.packed)
        return 0;
    fail(r, cur(r), AMP_ERROR_KERNEL_BUILD,
         "++ and -- of a %s_3 that a view or struct holds are not offered: write += 1",
         amp__elem_scalar_name((amp_elem_type)v.type.elem));
    return 1;
}

/* ++ or -- of a vector of floats or doubles, at token op (prefix: before
 * v). OpenCL C has them for integer vectors only, C++ AMP for all: ++v
 * becomes (v += 1), which gives what ++v gives; v++ becomes v += 1 where
 * nothing uses its value (a statement of its own, a for's step, an
 * operand of a comma or an arm of ?: there) and is
 * refused elsewhere, since (v += 1) - 1 is not the old value in floating
 * point. Returns 0 when refused. */
static int vector_step(reader *r, value v, long op, int prefix)
{
    amp_elem_type scalar = amp__elem_scalar((amp_elem_type)v.type.elem);
    if (!is_vector(v.type) || (scalar != AMP_FLOAT && scalar != AMP_DOUBLE))
        return 1;
    static const char *const ends[] = {";", ")", ",", ":", NULL};
    if (!prefix && (v.first != r->discarded || !amp__lex_is_any(peek(r, 1), ends))) {
        fail(r, op, AMP_ERROR_KERNEL_BUILD,
             "%.2s after a vector of %ss whose value is used: OpenCL C has no ++ or -- of"
             " such vectors, and the runtime writes v += 1 for them, which gives the new"
             " value; make it a statement of its own (v%.2s;) and read v before it, or write"
             " %.2sv",
             r->tok[op].text, amp__elem_scalar_name(scalar), r->tok[op].text, r->tok[op].text);
        return 0;
    }
    amp__parse_note(r, C_VECTOR_STEP, v.type, 0, 0, op, prefix ? v.last : -1, v.first);
    return 1;
}

/* Whether the tokens [from, to) are all `paren`. */
static int only(reader *r, long from, long to, const char *paren)
{
    for (long i = from; i < to; i++)
        if (!amp__lex_is(&r->tok[i], paren))
            return 0;
    return 1;
}

/* all(a == b), any(a != b), select(x, y, a == b): OpenCL's functions of a
 * comparison lane by lane. A comparison of short vectors that is all of
 * such an argument (in parentheses or not) keeps OpenCL's lanes; elsewhere
 * it is C++ AMP's one answer for the whole vectors, and all(all(...)) of
 * that answer, a scalar, would be its sign bit: 0. */
static void keep_lanes(reader *r, const lex_token *name, const call_args *a)
{
    int k = amp__lex_is(name, "all") || amp__lex_is(name, "any") ? 0
            : amp__lex_is(name, "select")                        ? 2
                                                                 : -1;
    if (k < 0 || a->n != (k ? 3 : 1) || a->arg[k].first < 0)
        return;
    value arg = a->arg[k];
    kbody *b = r->b;
    for (size_t i = b->nconstructs; i-- > 0;) {
        body_construct *c = &b->constructs[i];
        if (c->kind == C_VECTOR_COMPARE && c->tok[0] >= arg.first && c->tok[2] <= arg.last &&
            only(r, arg.first, c->tok[0], "(") && only(r, c->tok[2] + 1, arg.last + 1, ")")) {
            c->form |= VECTOR_COMPARE_LANES;
            return;
        }
    }
}

static value postfix(reader *r)
{
    value v = primary(r);
    if (v.first < 0)
        return v;
    while (r->b->status == AMP_OK && !at_end(r)) {
        const lex_token *t = peek(r, 0);
        if (amp__lex_is(t, "[")) {
            if (v.type.kind == TYPE_VIEW && !v.type.array) {
                v = view_subscripts(r, v);
            } else if ((v.type.kind == TYPE_TEXTURE || v.type.kind == TYPE_TEXTURE_VALUE) &&
                       !v.type.array && v.first == v.last) {
                v = texture_subscript(r, v);
            } else if (v.type.kind == TYPE_VIEW_VALUE && !v.type.array) {
                long open = cur(r);
                expect(r, "[");
                if (r->b->status != AMP_OK || !enter(r))
                    return nothing;
                value sub = as_index(r, comma_expression(r));
                leave(r);
                long close = cur(r);
                expect(r, "]");
                if (r->b->status != AMP_OK)
                    return nothing;
                if (v.type.rank == 1 || (indexlike(sub.type) && sub.type.rank > 1)) {
                    call_args a;
                    memset(&a, 0, sizeof a);
                    a.n = 1;
                    a.arg[0] = sub;
                    a.open = open;
                    a.close = close;
                    v = value_element(r, v, &a);
                } else {
                    v = value_projection(r, v, open, close);
                }
            } else {
                long open = cur(r);
                expect(r, "[");
                if (r->b->status != AMP_OK || !enter(r))
                    return nothing;
                comma_expression(r);
                leave(r);
                long close = cur(r);
                expect(r, "]");
                body_type type = v.type;
                if (type.kind == TYPE_TILED_INDEX && !type.array) {
                    /* OpenCL C would say only that a struct is no number. */
                    const lex_token *n = &r->tok[v.first == v.last ? v.last : open];
                    int named = v.first == v.last;
                    fail(r, open, AMP_ERROR_KERNEL_BUILD,
                         "a tiled_index has no subscript: write %.*s.global[k] for the thread's"
                         " place in the extent, %.*s.local[k] for its place in its tile",
                         named ? (int)n->length : 5, named ? n->text : "t_idx",
                         named ? (int)n->length : 5, named ? n->text : "t_idx");
                    return nothing;
                }
                const lex_token *k = close == open + 2 ? &r->tok[open + 1] : NULL;
                if (!type.array && indexlike(type) && k && k->kind == LEX_NUMBER &&
                    number_of(k) >= type.rank) {
                    /* C++ AMP reads past the index; OpenCL C would read
                     * another component, or nothing, and say nothing. */
                    fail(r, open + 1, AMP_ERROR_KERNEL_BUILD,
                         "%s of rank %d has the components [0] to [%d], and [%.*s] is past them",
                         type.kind == TYPE_EXTENT ? "an extent" : "an index", type.rank,
                         type.rank - 1, (int)k->length, k->text);
                    return nothing;
                }
                if (type.array) {
                    type.array = 0;
                } else if (indexlike(type) && type.rank == 1) {
                    /* An index<1> or extent<1> is an int: p[0] is p. */
                    amp__parse_note(r, C_INDEX1_SUBSCRIPT, type, 0, 0, open, close, -1);
                    type.kind = TYPE_OTHER;
                } else {
                    type.kind = TYPE_OTHER;
                }
                value out = typed(type, v.first, close);
                out.access = v.access; /* an element's array member: v(i).a[2] */
                v = out;
            }
        } else if (amp__lex_is(t, "(")) {
            int view = v.type.kind == TYPE_VIEW && !v.type.array;
            int helper = v.type.kind == TYPE_FUNCTION;
            const body_macro *macro = v.first == v.last
                                          ? amp__parse_function_macro(r, &r->tok[v.first])
                                          : NULL;
            const kbody *callee = NULL;
            if (helper && r->ctx->capture_helpers) {
                const body_decl *decl = &r->b->decls[r->b->resolved[v.first]];
                callee = decl->capture >= 0 ? r->ctx->capture_helpers[decl->capture] : NULL;
            }
            if (v.first == v.last)
                amp__parse_role(r, v.first, ROLE_CALLED);
            /* float_3(): C++ AMP's default construction, (0, 0, 0). */
            if (v.first == v.last && is(r, 1, ")") &&
                amp__parse_is_short_vector(&r->tok[v.first]) &&
                !amp__lex_has_prefix(&r->tok[v.first], "amp_") &&
                r->b->resolved[v.first] == BODY_UNRESOLVED)
                amp__parse_note(r, C_VECTOR_ZERO, v.type, 0, 0, cur(r), -1, -1);
            call_args a;
            int texture = v.type.kind == TYPE_TEXTURE || v.type.kind == TYPE_TEXTURE_VALUE;
            arguments(r, view || helper || texture || v.type.kind == TYPE_VIEW_VALUE, macro != NULL,
                      callee, &a);
            if (callee && callee->nlocals > 0 && r->b->status == AMP_OK)
                helper_call(r, v, callee, &a);
            if (callee && callee->waits && r->b->status == AMP_OK &&
                (!barrier_reached(r, v.first, &r->tok[v.first], 1) ||
                 !waits_by_its_arguments(r, v, callee, &a)))
                return nothing;
            if (!view && !helper && !texture && macro == NULL && v.first == v.last &&
                r->b->resolved[v.first] == BODY_UNRESOLVED && r->b->status == AMP_OK)
                keep_lanes(r, &r->tok[v.first], &a);
            if (v.type.kind == TYPE_VIEW_VALUE && !v.type.array) {
                v = value_element(r, v, &a);
            } else {
                value out = other(v.first, last_consumed(r));
                if (helper)
                    out.type = r->b->decls[r->b->resolved[v.first]].returns;
                else if (texture && v.type.channels > 1)
                    out.type = amp__parse_element_type(
                        r, (uint16_t)amp__elem_of((amp_elem_type)v.type.elem, v.type.channels), 0);
                else if (v.first == v.last && r->b->resolved[v.first] == BODY_UNRESOLVED)
                    out.type = amp__parse_element_type(r, (uint16_t)made_vector(&r->tok[v.first]),
                                                       0);
                if (view && a.n != 1 && a.n != v.type.rank) {
                    /* The compiler would blame the view's name. */
                    int rank = v.type.rank;
                    fail(r, a.open, AMP_ERROR_KERNEL_BUILD,
                         "a view of rank %d takes %d integer%s, v(%s), or an index<%d>, and %d"
                         " are given",
                         rank, rank, rank == 1 ? "" : "s",
                         rank == 1   ? "i"
                         : rank == 2 ? "i, j"
                                     : "i, j, ...",
                         rank, a.n);
                    return nothing;
                }
                if (view) {
                    /* v(...): an element, read unless what follows writes it. */
                    out.type = amp__parse_element_type(r, v.type.elem, 1);
                    out.access = v.first;
                    amp__parse_role(r, v.first,
                                    ROLE_READ |
                                        (a.n <= 8 ? element_index_form(r, v.type.rank, a.arg, a.n)
                                                  : ROLE_AT_OTHER));
                }
                v = out;
            }
        } else if (amp__lex_is(t, ".")) {
            v = member(r, v);
        } else if (amp__lex_is(t, "->")) {
            advance(r);
            mark(r, BODY_NOT_A_USE);
            long name = cur(r);
            advance(r);
            value out = other(v.first, name);
            out.access = v.access;
            v = out;
        } else if (amp__lex_is(t, "++") || amp__lex_is(t, "--")) {
            if (packed_step(r, v) || !vector_step(r, v, cur(r), 0))
                return nothing;
            mark(r, BODY_NOT_A_USE);
            advance(r);
            if (v.access >= 0)
                amp__parse_role(r, v.access, ROLE_WRITTEN);
            v.last = last_consumed(r);
            v.access = -1;
        } else {
            break;
        }
        if (v.first < 0)
            return v;
        beside_directives(r, &v);
    }
    /* A captured view named alone is used as a value: given to a helper,
     * or kept in an array_view variable. */
    if (v.type.kind == TYPE_VIEW && !v.type.array && v.first == v.last && r->b->status == AMP_OK)
        v = capture_as_value(r, v);
    return v;
}

/* ---- Unary ---- */

/* Whether '(' at the current place opens a cast: a type follows. */
static int cast_starts(reader *r)
{
    if (!is(r, 0, "("))
        return 0;
    const lex_token *t = peek(r, 1);
    if (t->kind != LEX_IDENT)
        return 0;
    if ((amp__lex_is(t, "index") || amp__lex_is(t, "extent")) && is(r, 2, "<")) {
        /* (index<2>) x is a cast; (index<2>(1, 2) == p) groups a value
         * made of the type: which one, the token after the '>' says. */
        size_t k = 3;
        while (index_at(r, k) != SIZE_MAX && !is(r, k, ">") && !is(r, k, ")"))
            k++;
        return is(r, k, ">") && is(r, k + 1, ")") && amp__parse_lookup(r, t) == BODY_UNRESOLVED;
    }
    if (amp__parse_is_keyword(r, t))
        return amp__parse_is_specifier(r, t);
    /* (float_3)x, (amp_float_3)x: C++ AMP's and the host's vector types. */
    if (amp__parse_vector_type(t) && is(r, 2, ")") && amp__parse_lookup(r, t) == BODY_UNRESOLVED)
        return 1;
    return amp__parse_names_type(r, t);
}

/* sizeof of a 3-vector the kernel holds (a variable, a type): OpenCL C
 * gives a float3 a float4's 16 bytes, where C++ AMP's float_3 has 12 (a
 * view's element and a struct's member keep C++ AMP's, and say 12). */
static void sizeof_three_lanes(reader *r, long at, amp_elem_type vector)
{
    const char *scalar = amp__body_elem_name(r->ctx, (uint16_t)amp__elem_scalar(vector));
    fail(r, at, AMP_ERROR_KERNEL_BUILD,
         "sizeof of a 3-vector is 16 bytes in a kernel (OpenCL C keeps a float3 in a float4's"
         " room) and 12 in C++ AMP: write 3 * sizeof(%s) for C++ AMP's size",
         scalar ? scalar : "float");
}

static value unary(reader *r)
{
    static const char *const prefix_ops[] = {"++", "--", "&", "*", "+", "-", "~", "!", NULL};
    const lex_token *t = peek(r, 0);
    long first = cur(r);
    if (t->kind == LEX_PUNCT && amp__lex_is_any(t, prefix_ops)) {
        int sign = amp__lex_is(t, "+") || amp__lex_is(t, "-");
        mark(r, BODY_NOT_A_USE);
        advance(r);
        if (!enter(r))
            return nothing;
        value v = unary(r);
        leave(r);
        if (v.first < 0)
            return v;
        int step = amp__lex_is(t, "++") || amp__lex_is(t, "--");
        if (step && (packed_step(r, v) || !vector_step(r, v, first, 1)))
            return nothing;
        if (v.access >= 0 && amp__lex_is(t, "&"))
            amp__parse_role(r, v.access, ROLE_ADDRESS);
        else if (v.access >= 0 && step)
            amp__parse_role(r, v.access, ROLE_WRITTEN);
        if (amp__lex_is(t, "&") || amp__lex_is(t, "*"))
            return other(first, v.last);
        /* -v, ~v and !v of a vector are vectors, of its type (!, of ints). */
        v = rvalue(r, v);
        if (is_vector(v.type)) {
            body_type type = v.type;
            if (amp__lex_is(t, "!"))
                type.elem = (uint16_t)amp__elem_of(AMP_INT,
                                                   amp__elem_lanes((amp_elem_type)type.elem));
            return typed(type, first, v.last);
        }
        return typed(sign && indexlike(v.type) ? as_index(r, v).type : BODY_TYPE_OTHER, first,
                     v.last);
    }
    if (amp__lex_is(t, "sizeof")) {
        mark(r, BODY_NOT_A_USE);
        advance(r);
        /* sizeof(float_3), sizeof(float_3[2]), sizeof(float_3 *) ... */
        int after = 1; /* the type's token, after its qualifiers */
        while (is(r, 0, "(") && (is(r, after, "const") || is(r, after, "volatile")))
            after++;
        amp_elem_type named = is(r, 0, "(") ? amp__parse_vector_type(peek(r, after)) : 0;
        if (named && amp__elem_lanes(named) == 3 && !is(r, after + 1, "*")) {
            sizeof_three_lanes(r, cur(r) + after, named);
            return nothing;
        }
        if (cast_starts(r)) {
            flat_group(r, "(", to_close_paren);
            return other(first, last_consumed(r));
        }
        if (!enter(r))
            return nothing;
        value v = unary(r);
        leave(r);
        if (v.type.kind == TYPE_VECTOR && !v.type.packed &&
            amp__elem_lanes((amp_elem_type)v.type.elem) == 3) {
            sizeof_three_lanes(r, first, (amp_elem_type)v.type.elem);
            return nothing;
        }
        return other(first, v.last);
    }
    if (cast_starts(r)) {
        expect(r, "(");
        body_type type = BODY_TYPE_OTHER;
        amp_elem_type vector = amp__parse_vector_type(peek(r, 0));
        if (!amp__parse_template_type(r, &type))
            type = amp__parse_element_type(r, (uint16_t)vector, 0);
        if (r->b->status != AMP_OK || !enter(r))
            return nothing;
        int pointer = 0;
        while (!at_end(r) && !is(r, 0, ")")) {
            pointer |= is(r, 0, "*");
            const lex_token *w = peek(r, 0);
            if (w->kind == LEX_IDENT && !amp__parse_is_keyword(r, w))
                mark(r, amp__parse_lookup(r, w));
            else
                mark(r, BODY_NOT_A_USE);
            advance(r);
        }
        leave(r);
        expect(r, ")");
        value v;
        if (is(r, 0, "{")) {
            v = initializer_list(r);
            v.first = first;
        } else {
            if (!enter(r))
                return nothing;
            v = rvalue(r, unary(r));
            leave(r);
        }
        if (v.first < 0)
            return v;
        return typed(pointer ? BODY_TYPE_OTHER : type, first, v.last);
    }
    return postfix(r);
}

/* ---- Binary and the rest ---- */

static int precedence(const lex_token *t)
{
    static const struct {
        const char *op;
        int prec;
    } table[] = {{"||", 1}, {"&&", 2}, {"|", 3}, {"^", 4},  {"&", 5},  {"==", 6},
                 {"!=", 6}, {"<", 7},  {">", 7}, {"<=", 7}, {">=", 7}, {"<<", 8},
                 {">>", 8}, {"+", 9},  {"-", 9}, {"*", 10}, {"/", 10}, {"%", 10}};
    if (t->kind != LEX_PUNCT)
        return 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (amp__lex_is(t, table[i].op))
            return table[i].prec;
    return 0;
}

/* lhs op rhs of short vectors (one of them a vector): a vector of the
 * vector's type, or of ints for a comparison; == and != compare all of
 * them, as C++ AMP's operators do (OpenCL's compare each lane). */
static value vector_combine(reader *r, long op, value lhs, value rhs)
{
    const lex_token *t = &r->tok[op];
    static const char *const lanewise[] = {"<", ">", "<=", ">=", "&&", "||", NULL};
    value out = other(lhs.first, rhs.last);
    body_type type = is_vector(lhs.type) ? lhs.type : rhs.type;
    if (amp__lex_is(t, "==") || amp__lex_is(t, "!=")) {
        if (is_vector(lhs.type) && is_vector(rhs.type))
            amp__parse_note(r, C_VECTOR_COMPARE, type, amp__lex_is(t, "!="), 0, lhs.first, op,
                            rhs.last);
        return out;
    }
    if (amp__lex_is_any(t, lanewise))
        type.elem = (uint16_t)amp__elem_of(AMP_INT, amp__elem_lanes((amp_elem_type)type.elem));
    out.type = type;
    return out;
}

/* lhs op rhs, with the types the reader follows. */
static value combine(reader *r, long op, value lhs, value rhs)
{
    const lex_token *t = &r->tok[op];
    lhs = rvalue(r, lhs);
    rhs = rvalue(r, rhs);
    if (is_vector(lhs.type) || is_vector(rhs.type))
        return vector_combine(r, op, lhs, rhs);
    value out = other(lhs.first, rhs.last);
    int li = indexlike(lhs.type), ri = indexlike(rhs.type);
    if (!li && !ri)
        return out;
    lhs = as_index(r, lhs);
    rhs = as_index(r, rhs);
    int rank = li ? lhs.type.rank : rhs.type.rank;
    if (li && ri && lhs.type.rank != rhs.type.rank) {
        fail(r, op, AMP_ERROR_KERNEL_BUILD, "an index or extent of rank %d meets one of rank %d",
             lhs.type.rank, rhs.type.rank);
        return out;
    }
    if (amp__lex_is(t, "==") || amp__lex_is(t, "!=")) {
        if (!(li && ri)) {
            fail(r, op, AMP_ERROR_KERNEL_BUILD,
                 "an index or extent compares only with another of its rank");
            return out;
        }
        body_type type = lhs.type;
        type.rank = (uint8_t)rank;
        amp__parse_note(r, C_INDEX_COMPARE, type, amp__lex_is(t, "!="), 0, lhs.first, op, rhs.last);
        return out;
    }
    if (amp__lex_is(t, "+") || amp__lex_is(t, "-") || amp__lex_is(t, "*") || amp__lex_is(t, "/") ||
        amp__lex_is(t, "%")) {
        out.type = li ? lhs.type : rhs.type;
        return out;
    }
    return out;
}

/* The right operand of && or || runs only where the left allows it: where
 * the left differs from thread to thread, it is a branch on the thread's
 * place (r->divergent), as an if is. */
static value binary(reader *r, int min)
{
    uint32_t outer = varying_begin(r);
    value lhs = unary(r);
    while (lhs.first >= 0) {
        int prec = precedence(peek(r, 0));
        if (prec == 0 || prec < min || r->b->status != AMP_OK)
            break;
        long op = cur(r);
        int logical = amp__lex_is(&r->tok[op], "&&") || amp__lex_is(&r->tok[op], "||");
        mark(r, BODY_NOT_A_USE);
        advance(r);
        branch_mark m = branch_enter(r, logical ? r->thread_varying : 0);
        value rhs = binary(r, prec + 1);
        branch_leave(r, m);
        lhs = rhs.first < 0 ? nothing : combine(r, op, lhs, rhs);
    }
    varying_end(r, outer);
    return lhs;
}

/* c ? a : b: where c differs from thread to thread, a and b are branches
 * on the thread's place (r->divergent), as an if's are. */
static value conditional(reader *r)
{
    int discarded = cur(r) == r->discarded; /* so are the arms' values */
    uint32_t outer = varying_begin(r);
    value c = binary(r, 1);
    uint32_t varying = varying_end(r, outer);
    if (c.first < 0 || !is(r, 0, "?"))
        return c;
    c = rvalue(r, c);
    expect(r, "?");
    if (!enter(r))
        return nothing;
    branch_mark m = branch_enter(r, varying);
    if (discarded)
        r->discarded = cur(r);
    value a = rvalue(r, comma_expression(r));
    expect(r, ":");
    if (discarded)
        r->discarded = cur(r);
    value b = rvalue(r, conditional(r));
    branch_leave(r, m);
    leave(r);
    if (a.first < 0 || b.first < 0)
        return nothing;
    value out = other(c.first, b.last);
    if (indexlike(a.type) && a.type.kind == b.type.kind && a.type.rank == b.type.rank)
        out.type = a.type;
    if (is_vector(a.type) && is_vector(b.type) && a.type.elem == b.type.elem)
        out.type = a.type;
    /* c ? a : b between two views: a view value, which may be either, so
     * what is done with it is done with both (written, unless it only goes
     * where a const view is due). A third view, of a ?: inside one of
     * them, is not carried on: it then counts as written, which is safe. */
    if (a.type.kind == TYPE_VIEW_VALUE && b.type.kind == TYPE_VIEW_VALUE && !a.type.array &&
        !b.type.array) {
        if (a.type.elem != b.type.elem || a.type.rank != b.type.rank) {
            fail(r, a.first, AMP_ERROR_KERNEL_BUILD,
                 "?: chooses between a view of %s of rank %d and a view of %s of rank %d: both"
                 " must have one element type and rank",
                 amp__body_elem_name(r->ctx, a.type.elem), a.type.rank,
                 amp__body_elem_name(r->ctx, b.type.elem), b.type.rank);
            return nothing;
        }
        out.type = a.type;
        out.type.is_const = (uint8_t)(a.type.is_const || b.type.is_const);
        out.root = a.root >= 0 ? a.root : a.root2;
        out.root2 = b.root >= 0 ? b.root : b.root2;
    }
    return out;
}

/* lhs op= rhs of a 3-vector in memory, which is written whole: a = b
 * packs b's value (another in memory is copied as it is); a += b and the
 * others update it through its address, once (packed_vectors in
 * translate.c). */
static void packed_assignment(reader *r, value lhs, long op, value rhs)
{
    static const char *const ops[] = {"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
    const lex_token *t = &r->tok[op];
    if (amp__lex_is(t, "=")) {
        if (!(is_vector(rhs.type) && rhs.type.packed))
            amp__parse_note(r, C_PACK, lhs.type, 0, 0, rhs.first, rhs.last, -1);
        return;
    }
    rhs = rvalue(r, rhs);
    for (int k = 0; k < (int)(sizeof ops / sizeof ops[0]); k++)
        if (amp__lex_is(t, ops[k])) {
            body_construct c = {.kind = C_PACKED_UPDATE,
                                .type = lhs.type,
                                .number = k,
                                .tok = {(int32_t)lhs.first, (int32_t)op, (int32_t)rhs.first,
                                        (int32_t)rhs.last, -1, -1}};
            amp__body_note(r->b, &c);
            return;
        }
}

static value assignment(reader *r)
{
    static const char *const ops[] = {
        "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", NULL};
    value lhs = conditional(r);
    if (lhs.first < 0 || !amp__lex_is_any(peek(r, 0), ops) || peek(r, 0)->kind != LEX_PUNCT)
        return lhs;
    int32_t named = lhs.first >= 0 ? r->b->resolved[lhs.first] : -1;
    const body_type *whole = named >= 0 ? &r->b->decls[named].type : NULL;
    if (lhs.type.kind == TYPE_VIEW_VALUE && !lhs.type.array && lhs.first != lhs.last &&
        amp__lex_is(&r->tok[lhs.last], "]") && whole &&
        (whole->kind == TYPE_VIEW || (whole->kind == TYPE_VIEW_VALUE && !whole->array))) {
        /* v[i] of a rank-2 view, captured or a view value the body keeps
         * (not an array of views, whose [] picks one): C++ AMP's
         * projection, which no value is assigned to (the compiler would
         * say only "not assignable"). */
        fail(r, cur(r), AMP_ERROR_KERNEL_BUILD,
             "this assigns to a view of rank %d made by [] from a view of rank %d (C++ AMP's"
             " projection), not to an element: index it down to an element, v[i][j] or v(i, j)",
             lhs.type.rank, lhs.type.rank + 1);
        return nothing;
    }
    if (lhs.access >= 0)
        amp__parse_role(r, lhs.access, ROLE_WRITTEN);
    long op = cur(r);
    mark(r, BODY_NOT_A_USE);
    advance(r);
    if (!enter(r))
        return nothing;
    uint32_t outer = varying_begin(r);
    value rhs = assignment(r);
    uint32_t varying = varying_end(r, outer);
    leave(r);
    if (rhs.first < 0)
        return nothing;
    if (lhs.first == lhs.last)
        varying_set(r, r->b->resolved[lhs.first], varying, !amp__lex_is(&r->tok[op], "="));
    if (lhs.type.kind == TYPE_INDEX)
        as_index(r, rhs);
    if (is_vector(lhs.type) && lhs.type.packed)
        packed_assignment(r, lhs, op, rhs);
    else
        rhs = rvalue(r, rhs);
    value out = typed(lhs.type, lhs.first, rhs.last);
    out.root = rhs.root;
    out.root2 = rhs.root2;
    /* Of a 3-vector in memory: the value stored (+= and the others give
     * it as a vector; = gives what was packed, which is not read again). */
    out.type.packed = 0;
    return out;
}

/* a, b: where nothing uses the whole's value (r->discarded), nothing uses
 * any operand's. */
static value comma_expression(reader *r)
{
    int discarded = cur(r) == r->discarded;
    value v = assignment(r);
    while (v.first >= 0 && is(r, 0, ",") && r->b->status == AMP_OK) {
        expect(r, ",");
        if (discarded)
            r->discarded = cur(r);
        value next = assignment(r);
        if (next.first < 0)
            return nothing;
        v = next;
    }
    return v;
}

body_value amp__parse_expression(reader *r, const char *const *terminators)
{
    long first = cur(r);
    int commas = !amp__lex_is_any(&(lex_token){",", 1, LEX_PUNCT, 0, 0}, terminators);
    value v = commas ? comma_expression(r) : assignment(r);
    if (r->b->status != AMP_OK)
        return v;
    /* What the grammar did not take, to the terminator, as it is. */
    if (!at_end(r) && !ends_here(r, terminators)) {
        flat(r, terminators);
        return other(first, last_consumed(r));
    }
    return rvalue(r, v);
}
