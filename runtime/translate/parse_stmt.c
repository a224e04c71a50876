/*
 * runtime/translate/parse_stmt.c - statements and declarations: where
 * scopes begin and end, which tokens declare which names, of which type,
 * C++ AMP's default and direct initialization, and the tile_static
 * declarations of blocks (which hoist.c moves). The grammar's entry.
 */
#include "translate/parse_stmt.h"

#include <stdlib.h>
#include <string.h>

#include "translate/parse_expr.h"
#include "translate/parse_type.h"

#define fail(r, ...) amp__body_fail((r)->b, __VA_ARGS__)
#define expect amp__parse_expect
#define enter amp__parse_enter
#define leave amp__parse_leave

static const char *const until_paren[] = {")", NULL};
static const char *const until_bracket[] = {"]", NULL};
static const char *const until_brace[] = {"}", NULL};
static const char *const until_semicolon[] = {";", NULL};
static const char *const until_colon[] = {":", ";", NULL};
static const char *const until_declarator_end[] = {",", ";", NULL};
static const char *const until_argument_end[] = {",", ")", NULL};

/* ( expression ) */
static void parenthesized(reader *r)
{
    expect(r, "(");
    if (r->b->status != AMP_OK || !enter(r))
        return;
    amp__parse_expression(r, until_paren);
    leave(r);
    expect(r, ")");
}

/* A condition in parentheses; returns whether it differs from thread to
 * thread (parse.h, varying_begin). */
static uint32_t condition(reader *r)
{
    uint32_t outer = varying_begin(r);
    parenthesized(r);
    return varying_end(r, outer);
}

/* Skip a bracketed group whose names declare nothing outside it (an
 * attribute's arguments), resolving its names as uses, which errs on the
 * side of renaming. */
static void skip_group(reader *r, const char *open, const char *const *close)
{
    expect(r, open);
    if (r->b->status != AMP_OK || !enter(r))
        return;
    amp__parse_expression(r, close);
    leave(r);
    expect(r, close[0]);
}

/* ---- Declarations ---- */

/* The position after the __attribute__((...)) groups that start at k. */
static size_t past_attributes(const reader *r, size_t k)
{
    while (is(r, k, "__attribute__") && is(r, k + 1, "(")) {
        size_t nest = 0;
        k++;
        do {
            if (is(r, k, "("))
                nest++;
            else if (is(r, k, ")"))
                nest--;
            k++;
        } while (nest > 0 && index_at(r, k) != SIZE_MAX);
    }
    return k;
}

static int declaration_starts(reader *r)
{
    size_t k0 = past_attributes(r, 0);
    const lex_token *t = peek(r, k0);
    if (t->kind != LEX_IDENT)
        return 0;
    if (amp__parse_template_name(r, k0))
        return 1;
    if (amp__parse_is_keyword(r, t) || amp__lex_is(t, "inline"))
        return amp__parse_is_specifier(r, t);
    if (amp__parse_names_type(r, t))
        return 1;
    if (amp__parse_lookup(r, t) != BODY_UNRESOLVED)
        return 0; /* a variable, a capture, the index: an expression */
    /* An unknown name (a type from an AMP_DEFINE, say) followed by a
     * declarator: "T x", "T *x;", "T **p = ...". Two names in a row are a
     * declaration in C; "a * b;" alone is the ambiguous case, and a name
     * known as nothing else is taken as a type there. */
    size_t k = k0 + 1;
    while (is(r, k, "*") || amp__lex_is_any(peek(r, k), amp__parse_pointer_qualifiers))
        k++;
    const lex_token *after = peek(r, k);
    if (after->kind != LEX_IDENT || amp__parse_is_keyword(r, after))
        return 0;
    if (k == k0 + 1)
        return 1;
    const lex_token *next = peek(r, k + 1);
    return amp__lex_is(next, ";") || amp__lex_is(next, ",") || amp__lex_is(next, "=") ||
           amp__lex_is(next, "[") || amp__lex_is(next, ")");
}

/* enum [tag] { A, B = expr, ... }: enumerators are names in this scope. */
static void enum_body(reader *r)
{
    expect(r, "{");
    if (r->b->status != AMP_OK || !enter(r))
        return;
    while (!at_end(r) && !is(r, 0, "}")) {
        const lex_token *t = peek(r, 0);
        if (t->kind != LEX_IDENT) {
            fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "an enumerator's name was expected");
            break;
        }
        mark(r, BODY_NOT_A_USE);
        int32_t id = amp__parse_declare(r, t->text, t->length, DECL_ENUMERATOR, (int32_t)cur(r));
        advance(r);
        if (is(r, 0, "=")) {
            mark(r, BODY_NOT_A_USE);
            advance(r);
            static const char *const ends[] = {",", "}", NULL};
            amp__parse_expression(r, ends);
        }
        amp__parse_make_visible(r, id);
        if (is(r, 0, ","))
            expect(r, ",");
        else
            break;
    }
    leave(r);
    expect(r, "}");
}

/* { members }: a member's name (a name before ';', ',', '[' or ':') is
 * the struct's, not a use; other names (types, sizes) are uses. */
static void struct_body(reader *r)
{
    size_t open = index_at(r, 0);
    skip_group(r, "{", until_brace);
    if (r->b->status != AMP_OK)
        return;
    int32_t close = r->b->partner[open]; /* the '}' */
    for (size_t i = open + 1; (long)i < close; i++) {
        const lex_token *next = &r->tok[i + 1];
        if (r->tok[i].kind == LEX_IDENT && (amp__lex_is(next, ";") || amp__lex_is(next, ",") ||
                                            amp__lex_is(next, "[") || amp__lex_is(next, ":"))) {
            r->b->resolved[i] = BODY_NOT_A_USE;
            r->b->flags[i] |= TOK_MEMBER_NAME;
        }
    }
}

typedef struct specifiers {
    int tile_static;
    int typedef_;
    int extern_;
    int type_seen;
    body_type type;   /* what the reader follows of it (an index, extent, view value,
                         short vector or registered struct type), else TYPE_OTHER */
    body_zeroed zero; /* what C++ AMP's default construction makes of the type */
    long type_name;   /* the token that names the type, or -1 */
    long const_token; /* a parameter's const, or -1 */
    int barrier;      /* tile_barrier */
} specifiers;

/* How C++ AMP default-constructs a value of the type named by token t: a
 * short vector is zero, and so are the short-vector members of a struct;
 * a struct is zeroed whole, which is the same where C++ AMP defines it. */
static body_zeroed zeroed_type(reader *r, const lex_token *t, int32_t decl, int depth)
{
    if (decl >= 0)
        return r->b->decls[decl].kind == DECL_TYPEDEF ? (body_zeroed)r->b->decls[decl].zeroed
                                                      : ZEROED_NOT;
    if (amp__parse_is_short_vector(t))
        return ZEROED_VALUE;
    if (amp__lex_is(t, "struct") || amp__lex_is(t, "union"))
        return ZEROED_AGGREGATE;
    for (int i = 0; i < r->ctx->ntypes; i++)
        if (amp__lex_is(t, r->ctx->type_names[i]))
            return ZEROED_AGGREGATE;
    /* AMP_DEFINE(VEC float_3): a VEC is what each definition of VEC makes
     * (one under each AMP_IF branch, say). (VEC)(0) is right for a scalar
     * and for a vector, so a name defined as either is zeroed so; a struct
     * only where every definition is one. */
    body_zeroed made = ZEROED_NOT;
    int definitions = 0, scalars = 0;
    for (size_t m = 0; m < r->b->nmacros && depth < 8; m++) {
        const body_macro *macro = &r->b->macros[m];
        const lex_token *name = &r->tok[macro->name];
        if (macro->function_like || name->length != t->length ||
            memcmp(name->text, t->text, t->length) != 0)
            continue;
        definitions++;
        const lex_token *first = macro->first <= macro->last ? &r->tok[macro->first] : NULL;
        body_zeroed z = first ? zeroed_type(r, first, BODY_UNRESOLVED, depth + 1) : ZEROED_NOT;
        if (z == ZEROED_NOT && first && amp__parse_is_specifier(r, first))
            scalars++;
        else if (made == ZEROED_NOT || made == z)
            made = z;
        else
            return ZEROED_NOT; /* a vector here, a struct there: no one spelling */
    }
    if (made == ZEROED_AGGREGATE && scalars)
        return ZEROED_NOT;
    return definitions ? made : ZEROED_NOT;
}

/* The type a name the body does not declare names, as far as the reader
 * follows it: a short vector (float_3, amp_float_3) or a registered struct. */
static body_type named_type(reader *r, const lex_token *t)
{
    amp_elem_type vector = amp__parse_vector_type(t);
    if (vector)
        return amp__parse_element_type(r, (uint16_t)vector, 0);
    for (int i = 0; r->ctx->type_ids && i < r->ctx->ntypes; i++)
        if (amp__lex_is(t, r->ctx->type_names[i]))
            return amp__parse_element_type(r, (uint16_t)r->ctx->type_ids[i], 0);
    return BODY_TYPE_OTHER;
}

/* A declaration's specifiers: storage, qualifiers, one type. */
static void read_specifiers(reader *r, specifiers *s)
{
    while (!at_end(r)) {
        const lex_token *t = peek(r, 0);
        if (amp__lex_is(t, "__attribute__")) {
            mark(r, BODY_NOT_A_USE);
            advance(r);
            skip_group(r, "(", until_paren);
        } else if (amp__lex_is(t, "auto") && !s->type_seen) {
            /* C's storage class (auto int k), which OpenCL C does not take
             * and which means nothing more than its absence: dropped. C++'s
             * auto k = x, a type worked out from x: refused. */
            static const char *const types[] = {
                "int",   "float",    "double", "char",  "short", "long", "unsigned", "signed",
                "const", "volatile", "struct", "union", "enum",  "uint", "bool",     NULL};
            if (!amp__lex_is_any(peek(r, 1), types) && amp__parse_vector_type(peek(r, 1)) == 0) {
                fail(r, cur(r), AMP_ERROR_KERNEL_BUILD,
                     "C++'s auto (a type worked out from the initializer) is not C's: write the"
                     " type (int, float, index<2>, extent<2>, ...)");
                return;
            }
            amp__body_edit_instead(r->b, cur(r), "");
            mark(r, BODY_NOT_A_USE);
            advance(r);
        } else if (!s->type_seen && amp__parse_template_type(r, &s->type)) {
            s->type_seen = 1;
        } else if (amp__lex_is(t, "struct") || amp__lex_is(t, "union") || amp__lex_is(t, "enum")) {
            int is_enum = amp__lex_is(t, "enum");
            if (!is_enum)
                s->zero = ZEROED_AGGREGATE;
            mark(r, BODY_NOT_A_USE);
            advance(r);
            if (peek(r, 0)->kind == LEX_IDENT && !amp__parse_is_keyword(r, peek(r, 0))) {
                mark(r, BODY_NOT_A_USE); /* a tag */
                advance(r);
            }
            if (is(r, 0, "{")) {
                if (is_enum)
                    enum_body(r);
                else
                    struct_body(r);
            }
            s->type_seen = 1;
        } else if (s->type_seen && amp__parse_is_opencl_word(t)) {
            return; /* int half: no type goes with another, so it is the name */
        } else if (amp__parse_is_specifier(r, t)) {
            if (amp__lex_is(t, "const"))
                s->const_token = cur(r);
            s->tile_static |= amp__lex_is(t, "tile_static");
            s->typedef_ |= amp__lex_is(t, "typedef");
            s->extern_ |= amp__lex_is(t, "extern");
            if (amp__parse_is_short_vector(t)) {
                s->zero = ZEROED_VALUE;
                s->type_name = cur(r);
                s->type = amp__parse_element_type(r, (uint16_t)amp__parse_vector_type(t), 0);
            }
            if (!amp__lex_is_any(t, amp__parse_pointer_qualifiers) &&
                !amp__lex_is(t, "tile_static") && !amp__lex_is(t, "typedef"))
                s->type_seen = 1;
            mark(r, BODY_NOT_A_USE);
            advance(r);
        } else if (!s->type_seen && amp__lex_is(t, "tile_barrier") &&
                   amp__parse_lookup(r, t) == BODY_UNRESOLVED) {
            /* C++ AMP's tile_barrier, given to a helper (by value, or by
             * reference: its wait() changes nothing of it). */
            long name = cur(r), reference = -1;
            mark(r, BODY_NOT_A_USE);
            advance(r);
            if (r->in_parameters && is(r, 0, "&")) {
                reference = cur(r);
                mark(r, BODY_NOT_A_USE);
                advance(r);
            }
            amp__parse_note(r, C_BARRIER_TYPE, BODY_TYPE_OTHER, 0, 0, name, reference, -1);
            s->type_seen = 1;
            s->barrier = 1;
        } else if (t->kind == LEX_IDENT && !s->type_seen && !amp__parse_is_keyword(r, t) &&
                   (amp__parse_names_type(r, t) || amp__parse_lookup(r, t) == BODY_UNRESOLVED)) {
            int32_t d = amp__parse_lookup(r, t);
            mark(r, d); /* a typedef's use, or an unknown type */
            if (d >= 0)
                s->type = r->b->decls[d].type; /* a typedef of index<2> */
            else
                s->type = named_type(r, t); /* float_3, a registered struct */
            s->zero = zeroed_type(r, t, d, 0);
            s->type_name = cur(r);
            advance(r);
            s->type_seen = 1;
        } else {
            return;
        }
    }
}

/* A word of OpenCL C alone (constant, half) where a declarator's name
 * stands: what follows ends the declarator. */
static int names_here(reader *r)
{
    return amp__parse_is_opencl_word(peek(r, 0)) &&
           (is(r, 1, "=") || is(r, 1, ";") || is(r, 1, ",") || is(r, 1, "[") || is(r, 1, ")"));
}

/* A declarator: '*'s and qualifiers, the name (perhaps in parentheses),
 * then array and function suffixes. Returns the name's token, or -1 for a
 * declarator without one; *pointer and *array say what it made of the
 * specifiers' type. */
static long read_declarator(reader *r, int *pointer, int *array)
{
    if (!enter(r))
        return -1;
    long name = -1;
    while (is(r, 0, "*") ||
           (amp__lex_is_any(peek(r, 0), amp__parse_pointer_qualifiers) && !names_here(r)) ||
           is(r, 0, "__attribute__")) {
        if (is(r, 0, "__attribute__")) {
            mark(r, BODY_NOT_A_USE);
            advance(r);
            skip_group(r, "(", until_paren);
        } else {
            *pointer |= is(r, 0, "*");
            mark(r, BODY_NOT_A_USE);
            advance(r);
        }
    }
    if (is(r, 0, "(") && !is(r, 1, ")")) {
        expect(r, "(");
        name = read_declarator(r, pointer, array);
        expect(r, ")");
    } else if (peek(r, 0)->kind == LEX_IDENT &&
               (!amp__parse_is_keyword(r, peek(r, 0)) || names_here(r))) {
        name = cur(r);
        mark(r, BODY_NOT_A_USE);
        advance(r);
    }
    while (r->b->status == AMP_OK && (is(r, 0, "[") || is(r, 0, "("))) {
        if (is(r, 0, "[")) {
            *array = 1;
            skip_group(r, "[", until_bracket);
        } else {
            /* A prototype in a body: its parameters' names are its own. */
            size_t open = index_at(r, 0);
            skip_group(r, "(", until_paren);
            for (long i = (long)open; r->b->status == AMP_OK && i <= r->b->partner[open]; i++)
                if (!(r->b->flags[i] & TOK_DECLARATOR))
                    r->b->resolved[i] = BODY_NOT_A_USE;
            *pointer = 1;
        }
    }
    leave(r);
    return name;
}

/* Declare the declarator named by token name with the specifiers' type. */
static int32_t declare_named(reader *r, const specifiers *s, long name, int pointer, int array)
{
    if (name < 0)
        return -1;
    const lex_token *t = &r->tok[name];
    body_decl_kind kind = s->typedef_      ? DECL_TYPEDEF
                          : s->tile_static ? DECL_TILE_STATIC
                                           : DECL_VARIABLE;
    /* A helper's is checked where a kernel calls it (parse_expr.c). */
    if (kind == DECL_TILE_STATIC && !r->ctx->function &&
        r->ctx->index_type.kind != TYPE_TILED_INDEX) {
        fail(r, name, AMP_ERROR_KERNEL_BUILD,
             "tile_static %.*s in a kernel that is not tiled: tile_static memory is"
             " shared by the threads of a tile, and this launch has no tiles. Launch"
             " over a tiled extent (amp_extent_tile_2d(e, 16, 16) ...) with a tiled index, or"
             " declare %.*s without tile_static, as each thread's own",
             (int)t->length, t->text, (int)t->length, t->text);
        return -1;
    }
    int32_t id = amp__parse_declare(r, t->text, t->length, kind, (int32_t)name);
    if (id >= 0 && !pointer && s->type.kind != TYPE_OTHER) {
        r->b->decls[id].type = s->type;
        r->b->decls[id].type.array = (uint8_t)array;
    }
    /* typedef float_3 vec: a vec is zeroed as a float_3 is; an array type
     * as an aggregate. */
    if (id >= 0 && kind == DECL_TYPEDEF && !pointer && s->zero != ZEROED_NOT)
        r->b->decls[id].zeroed = (uint8_t)(array ? ZEROED_AGGREGATE : s->zero);
    return id;
}

/* C++ AMP's default construction of the declarator name, which has no
 * initializer: float_3 v becomes float_3 v = (float_3)(0), float_3 a[4]
 * and a struct get {0}. tile_static variables are not constructed (C++
 * AMP leaves them undefined, and they are shared by the tile). */
static void default_construct(reader *r, const specifiers *s, long name, int pointer, int array)
{
    if (name < 0 || pointer || s->zero == ZEROED_NOT || s->tile_static || s->typedef_ ||
        s->extern_ || r->b->status != AMP_OK)
        return;
    if (array || s->zero == ZEROED_AGGREGATE || s->type_name < 0)
        amp__parse_note(r, C_ZERO_INIT, s->type, ZERO_LIST, 0, cur(r), -1, -1);
    else
        amp__parse_note(r, C_ZERO_INIT, s->type, ZERO_VECTOR, 0, cur(r), s->type_name, -1);
}

/* C++'s direct initialization of the types the reader follows, as C++ AMP
 * code writes it: index<2> p(i, j), extent<2> e(rows, cols), index<2>
 * q(p), array_view<float, 1> row(v[i]). Each becomes a C initializer:
 * p = (amp_index_2)(i, j), q = (p), row = (...). The '(' follows the name. */
static void direct_initializer(reader *r, body_type to)
{
    long open = cur(r);
    expect(r, "(");
    if (r->b->status != AMP_OK || !enter(r))
        return;
    int args = 0;
    body_value one = {BODY_TYPE_OTHER, -1, -1, -1, -1, -1};
    while (r->b->status == AMP_OK && !at_end(r) && !is(r, 0, ")")) {
        body_value a = amp__parse_expression(r, until_argument_end);
        if (args++ == 0)
            one = a;
        if (!is(r, 0, ","))
            break;
        expect(r, ",");
    }
    leave(r);
    long close = cur(r);
    expect(r, ")");
    if (r->b->status != AMP_OK)
        return;
    if (to.kind == TYPE_VECTOR) {
        /* float_3 v(x, y, z), float_3 v(s), float_3 v(w): OpenCL's vector
         * literal, (float3)(x, y, z). */
        amp__parse_note(r, C_DIRECT_INIT, to, INIT_VECTOR, 0, open, close, -1);
        return;
    }
    int indexlike = to.kind == TYPE_INDEX || to.kind == TYPE_EXTENT;
    int copy = args == 1 && (!indexlike || to.rank == 1 || one.type.kind != TYPE_OTHER);
    if (copy) {
        amp__parse_note(r, C_DIRECT_INIT, to, INIT_COPY, 0, open, close, -1);
        /* index<2> p(t_idx): the tiled index's global index. */
        if (to.kind == TYPE_INDEX && one.type.kind == TYPE_TILED_INDEX && one.last >= 0)
            amp__parse_note(r, C_TILED_AS_INDEX, one.type, 0, 0, one.last, -1, -1);
        if (to.kind == TYPE_VIEW_VALUE && to.is_const)
            amp__parse_value_read(r, one);
        return;
    }
    if (!indexlike || args != to.rank) {
        fail(r, open, AMP_ERROR_KERNEL_BUILD,
             "%s<%d> is made of %d values (or copied from one), and %d are given",
             to.kind == TYPE_EXTENT  ? "extent"
             : to.kind == TYPE_INDEX ? "index"
                                     : "array_view",
             to.rank, to.rank, args);
        return;
    }
    amp__parse_note(r, C_DIRECT_INIT, to, INIT_MAKE, 0, open, close, -1);
}

/* A tile_static variable given an initializer at token at (=, ( or {):
 * refused in the library's words (OpenCL C's are about '__local'). */
static void tile_static_initialized(reader *r, long at)
{
    fail(r, at, AMP_ERROR_KERNEL_BUILD,
         "a tile_static variable takes no initializer (in C++ AMP neither): the tile's threads"
         " share one, so let one thread set it (if (t_idx.local[0] == 0) ...), then"
         " t_idx.barrier.wait() before the others read it");
}

static void declaration(reader *r, int hoistable)
{
    long first = cur(r);
    specifiers s;
    memset(&s, 0, sizeof s);
    s.type_name = -1;
    read_specifiers(r, &s);
    int followed = s.type.kind == TYPE_INDEX || s.type.kind == TYPE_EXTENT ||
                   s.type.kind == TYPE_VIEW_VALUE || s.type.kind == TYPE_VECTOR;
    while (r->b->status == AMP_OK && !is(r, 0, ";")) {
        int pointer = 0, array = 0;
        /* C++'s float &r = x, which a lambda's body may hold. */
        if (is(r, 0, "&")) {
            fail(r, cur(r), AMP_ERROR_KERNEL_BUILD,
                 "C has no references: use the variable itself, or a pointer (float *r = &x,"
                 " then *r; to a view's element __global float *r = &v[i], to a tile_static"
                 " one __local float *r = &t[i])");
            return;
        }
        if (s.tile_static && peek(r, 0)->kind == LEX_IDENT && (is(r, 1, "(") || is(r, 1, "{"))) {
            tile_static_initialized(r, (long)index_at(r, 1));
            return;
        }
        if (followed && peek(r, 0)->kind == LEX_IDENT && is(r, 1, "(")) {
            long name = cur(r);
            mark(r, BODY_NOT_A_USE);
            advance(r);
            int32_t id = declare_named(r, &s, name, 0, 0);
            amp__parse_make_visible(r, id);
            uint32_t outer = varying_begin(r);
            direct_initializer(r, s.type);
            varying_set(r, id, varying_end(r, outer), 0);
            if (!is(r, 0, ","))
                break;
            expect(r, ",");
            continue;
        }
        long name = read_declarator(r, &pointer, &array);
        int32_t id = declare_named(r, &s, name, pointer, array);
        /* A name is in scope from the end of its declarator, so its own
         * initializer already sees it. */
        amp__parse_make_visible(r, id);
        if (!is(r, 0, "=") && (s.type.kind == TYPE_INDEX || s.type.kind == TYPE_EXTENT) &&
            !pointer && !s.tile_static && !s.typedef_ && name >= 0 && r->b->status == AMP_OK) {
            /* C++ AMP's default constructor: every dimension 0. */
            amp__parse_note(r, C_ZERO_INIT, s.type,
                            array              ? ZERO_LIST
                            : s.type.rank == 1 ? ZERO_INT
                                               : ZERO_INDEX,
                            0, cur(r), -1, -1);
        } else if (!is(r, 0, "=")) {
            default_construct(r, &s, name, pointer, array);
        }
        if (is(r, 0, "=") && s.tile_static && r->b->status == AMP_OK) {
            tile_static_initialized(r, cur(r));
            return;
        }
        if (is(r, 0, "=")) {
            mark(r, BODY_NOT_A_USE);
            advance(r);
            uint32_t outer = varying_begin(r);
            body_value value = amp__parse_expression(r, until_declarator_end);
            varying_set(r, id, varying_end(r, outer), 0);
            body_type to = id >= 0 ? r->b->decls[id].type : BODY_TYPE_OTHER;
            /* index<2> p = t_idx: the tiled index's global index. */
            if (to.kind == TYPE_INDEX && value.type.kind == TYPE_TILED_INDEX && value.last >= 0)
                amp__parse_note(r, C_TILED_AS_INDEX, value.type, 0, 0, value.last, -1, -1);
            /* A const view made of a captured view only reads it; a const
             * view may not become a writable one. */
            if (to.kind == TYPE_VIEW_VALUE && to.is_const)
                amp__parse_value_read(r, value);
            if (to.kind == TYPE_VIEW_VALUE && !to.is_const && value.type.kind == TYPE_VIEW_VALUE &&
                value.type.is_const)
                fail(r, value.first, AMP_ERROR_KERNEL_BUILD,
                     "a const view cannot be kept in a writable array_view: declare it"
                     " array_view<const T, N>");
        }
        if (!is(r, 0, ","))
            break;
        expect(r, ",");
    }
    if (r->b->status != AMP_OK)
        return;
    if (!is(r, 0, ";")) {
        fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "a declaration should end with ';' here");
        return;
    }
    long last = cur(r);
    expect(r, ";");
    /* A block's tile_static declaration: hoist.c moves it. */
    if (s.tile_static && hoistable && first >= 0) {
        kbody *b = r->b;
        body_hoist *grown = realloc(b->hoists, (b->nhoists + 1) * sizeof *grown);
        if (!grown) {
            amp__body_no_memory(r->b);
            return;
        }
        b->hoists = grown;
        b->hoists[b->nhoists++] = (body_hoist){(uint32_t)first, (uint32_t)last};
    }
}

/* ---- Statements ---- */

static void read_statement(reader *r);

static void read_item(reader *r)
{
    if (declaration_starts(r))
        declaration(r, 1);
    else
        read_statement(r);
}

/* { items } */
static void read_block(reader *r)
{
    size_t open = index_at(r, 0);
    expect(r, "{");
    if (r->b->status != AMP_OK)
        return;
    r->b->flags[open] |= TOK_BLOCK;
    scope_mark m = amp__parse_scope_open(r);
    while (!at_end(r) && !is(r, 0, "}"))
        read_item(r);
    if (r->b->status == AMP_OK && at_end(r))
        fail(r, (long)open, AMP_ERROR_KERNEL_BUILD, "this '{' is never closed");
    if (r->b->status == AMP_OK) {
        r->b->flags[index_at(r, 0)] |= TOK_BLOCK;
        expect(r, "}");
    }
    amp__parse_scope_close(r, m);
}

static void read_for(reader *r)
{
    expect(r, "for");
    scope_mark m = amp__parse_scope_open(r);
    expect(r, "(");
    if (r->b->status == AMP_OK && enter(r)) {
        if (is(r, 0, ";"))
            expect(r, ";");
        else if (declaration_starts(r))
            declaration(r, 0);
        else {
            r->discarded = cur(r);
            amp__parse_expression(r, until_semicolon);
            expect(r, ";");
        }
        uint32_t outer = varying_begin(r);
        long first = cur(r);
        amp__parse_expression(r, until_semicolon);
        long last = last_consumed(r);
        uint32_t varying = varying_end(r, outer);
        expect(r, ";");
        /* The step runs, as the body does, where the condition holds. */
        branch_mark branch = branch_enter(r, varying);
        amp__parse_level_open(r, 0);
        r->discarded = cur(r);
        amp__parse_expression(r, until_paren);
        leave(r);
        expect(r, ")");
        read_statement(r);
        if (r->b->status == AMP_OK && last >= first)
            amp__parse_loop_condition(r, first, last);
        amp__parse_level_close(r);
        branch_leave(r, branch);
    }
    amp__parse_scope_close(r, m);
}

static void read_statement(reader *r)
{
    if (r->b->status != AMP_OK || !enter(r))
        return;
    const lex_token *t = peek(r, 0);
    if (amp__lex_is(t, "{")) {
        read_block(r);
    } else if (amp__lex_is(t, "if")) {
        /* else-if chains loop here rather than nest. Past a condition on
         * the thread's place, every branch of the chain is divergent. */
        uint32_t chain = 0; /* what the conditions so far depend on */
        branch_mark outer = branch_enter(r, 0);
        for (;;) {
            expect(r, "if");
            uint32_t varying = condition(r);
            r->divergent += (varying & VARYING_THREAD) && !(chain & VARYING_THREAD);
            r->param_divergent |= varying & ~VARYING_THREAD;
            chain |= varying;
            read_statement(r);
            if (!is(r, 0, "else") || r->b->status != AMP_OK)
                break;
            expect(r, "else");
            if (!is(r, 0, "if")) {
                read_statement(r);
                break;
            }
        }
        r->divergent -= (chain & VARYING_THREAD) != 0;
        branch_leave(r, outer);
    } else if (amp__lex_is(t, "while") || amp__lex_is(t, "switch")) {
        int is_switch = amp__lex_is(t, "switch");
        mark(r, BODY_NOT_A_USE);
        advance(r);
        long first = cur(r);
        branch_mark branch = branch_enter(r, condition(r));
        long last = last_consumed(r);
        amp__parse_level_open(r, is_switch);
        read_statement(r);
        if (!is_switch && r->b->status == AMP_OK)
            amp__parse_loop_condition(r, first, last);
        amp__parse_level_close(r);
        branch_leave(r, branch);
    } else if (amp__lex_is(t, "do")) {
        expect(r, "do");
        amp__parse_level_open(r, 0);
        read_statement(r);
        expect(r, "while");
        long at = cur(r);
        if (amp__parse_do_condition(r, at, condition(r)))
            expect(r, ";");
        amp__parse_level_close(r);
    } else if (amp__lex_is(t, "for")) {
        read_for(r);
    } else if (amp__lex_is(t, "case")) {
        expect(r, "case");
        amp__parse_expression(r, until_colon);
        expect(r, ":");
    } else if (amp__lex_is(t, "default")) {
        expect(r, "default");
        expect(r, ":");
    } else if (amp__lex_is(t, "return")) {
        amp__parse_exit(r, cur(r));
        expect(r, "return");
        amp__parse_expression(r, until_semicolon);
        expect(r, ";");
    } else if (amp__lex_is(t, "break") || amp__lex_is(t, "continue")) {
        amp__parse_exit(r, cur(r));
        mark(r, BODY_NOT_A_USE);
        advance(r);
        expect(r, ";");
    } else if (amp__lex_is(t, "goto")) {
        amp__parse_exit(r, cur(r)); /* as a return: where it goes is not followed */
        expect(r, "goto");
        mark(r, BODY_NOT_A_USE); /* a label */
        advance(r);
        expect(r, ";");
    } else if (amp__lex_is(t, "__attribute__")) {
        /* __attribute__((opencl_unroll_hint)) before a loop */
        expect(r, "__attribute__");
        skip_group(r, "(", until_paren);
        read_statement(r);
    } else if (t->kind == LEX_IDENT && !amp__parse_is_keyword(r, t) && is(r, 1, ":")) {
        mark(r, BODY_NOT_A_USE); /* a label */
        advance(r);
        expect(r, ":");
    } else if (amp__lex_is(t, ";")) {
        expect(r, ";");
    } else if (amp__lex_is(t, "}") || amp__lex_is(t, ")") || amp__lex_is(t, "]")) {
        fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "'%.1s' closes nothing", t->text);
    } else {
        r->discarded = cur(r);
        amp__parse_expression(r, until_semicolon);
        if (r->b->status == AMP_OK && !is(r, 0, ";"))
            fail(r, at_end(r) ? -1 : cur(r), AMP_ERROR_KERNEL_BUILD, "%s",
                 at_end(r) ? "the last statement has no ';'" : "';' was expected here");
        else
            expect(r, ";");
    }
    leave(r);
}

static void read_items(reader *r)
{
    while (!at_end(r))
        read_item(r);
}

/* A helper's parameter list: each parameter declared, with its type, in
 * the function's scope. */
static void read_parameters(reader *r)
{
    expect(r, "(");
    if (is(r, 0, "void") && is(r, 1, ")")) {
        mark(r, BODY_NOT_A_USE);
        advance(r);
    }
    while (r->b->status == AMP_OK && !at_end(r) && !is(r, 0, ")")) {
        specifiers s;
        memset(&s, 0, sizeof s);
        s.const_token = -1;
        r->in_parameters = 1;
        read_specifiers(r, &s);
        r->in_parameters = 0;
        /* C++ AMP's const tiled_index& and const tile_barrier&: the kernel
         * passes a copy, which wait() writes (prelude.cl). */
        if (s.const_token >= 0 && (s.barrier || s.type.kind == TYPE_TILED_INDEX))
            amp__parse_note(r, C_CONST_DROPPED, BODY_TYPE_OTHER, 0, 0, s.const_token, -1, -1);
        if (r->b->status == AMP_OK && is(r, 0, "&")) {
            fail(r, cur(r), AMP_ERROR_KERNEL_BUILD,
                 "C has no references: take a pointer (float *x, then *x), or return the"
                 " value (views, arrays and textures may keep their '&')");
            return;
        }
        int pointer = 0, array = 0;
        long name = read_declarator(r, &pointer, &array);
        int32_t id = declare_named(r, &s, name, pointer, array);
        amp__parse_make_visible(r, id);
        kbody *b = r->b;
        /* What a caller gives the parameter may differ from thread to
         * thread: a barrier under a condition on it is the caller's to
         * check (kbody.wait_params). A tiled index's are the index's. */
        if (id >= 0 && s.type.kind != TYPE_TILED_INDEX)
            b->decls[id].thread_varying = VARYING_PARAM(b->nparams);
        if (s.type.kind == TYPE_TEXTURE_VALUE && name >= 0 && r->b->status == AMP_OK) {
            /* Images cannot be struct members: the texture is its image and
             * its extent, side by side. */
            amp__parse_note(r, C_TEXTURE_PARAMETER, s.type, 0, 0, name, -1, -1);
            if (b->ntextures < AMP_MAX_FUNCTION_PARAMS) {
                b->texture_names[b->ntextures] = (uint32_t)name;
                b->texture_types[b->ntextures++] = s.type;
            }
        }
        if (b->nparams < AMP_MAX_FUNCTION_PARAMS) {
            b->params[b->nparams] = id >= 0 ? b->decls[id].type : BODY_TYPE_OTHER;
            b->param_decls[b->nparams] = id;
            if (s.type.kind == TYPE_TILED_INDEX)
                memcpy(b->param_tiles[b->nparams], r->tile_dims, sizeof r->tile_dims);
        }
        b->nparams++;
        if (!is(r, 0, ","))
            break;
        expect(r, ",");
    }
    r->b->params_close = cur(r);
    expect(r, ")");
}

static void read_function(reader *r)
{
    specifiers s;
    memset(&s, 0, sizeof s);
    read_specifiers(r, &s);
    r->b->returns = s.type;
    while (is(r, 0, "*")) {
        r->b->returns.kind = TYPE_OTHER;
        mark(r, BODY_NOT_A_USE);
        advance(r);
    }
    if (peek(r, 0)->kind != LEX_IDENT) {
        fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "a helper function's name was expected");
        return;
    }
    mark(r, BODY_NOT_A_USE); /* the function's own name */
    r->b->function_name = cur(r);
    advance(r);
    scope_mark m = amp__parse_scope_open(r);
    read_parameters(r);
    read_block(r);
    amp__parse_scope_close(r, m);
    if (r->b->status == AMP_OK && !at_end(r))
        fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "a helper function ends with its body's '}'");
}

void amp__parse_body(kbody *b)
{
    reader r;
    amp__parse_open(&r, b);
    if (b->ctx->function)
        read_function(&r);
    else
        read_items(&r);
    amp__parse_close(&r);
}
