/*
 * runtime/translate/spell.c - C++ AMP's spellings in OpenCL C: each
 * construct the grammar noted becomes edits of its tokens (text before,
 * instead of, or after them), made in the order the constructs were found,
 * so that an outer construct's text goes around an inner one's.
 *
 *   index<2>, extent<3>          amp_index_2, amp_extent_3
 *   array_view<float, 2>         amp_view_float_2
 *   index<2>(i, j)               (amp_index_2)(i, j)
 *   index<2> p(i, j)             amp_index_2 p = (amp_index_2)(i, j)
 *   index<2> p;  float_3 f;      ... p = (amp_index_2)(0);  float_3 f = (float_3)(0);
 *   p == q, p != q               amp_equal_2(p, q), !amp_equal_2(p, q)
 *   e.contains(p), e.size()      amp_contains_2(e, p), amp_size_2(e)
 *   v.extent, v.get_extent()     amp_extent_of_2(v_extent)
 *   v[idx], v[i][j]              v(idx), v(i, j)
 *   v(t_idx)                     v(t_idx.global)
 *   v.section(o, e), v[i]        amp_section_float_2(amp_v_value, o, e), amp_project_...
 *   t_idx.tile_dim0, x.rank      the numbers
 *   p[0] of an index<1>          p (an index<1> is an int)
 *   fast_math::sqrt              fast_math_sqrt
 *   <: :> <% %> %: %:%:          [ ] { } # ##
 *   f.rgba, f.get_xy(), f.set_x(y)   f.xyzw, f.xy, f.x = (y)
 *   a == b, a != b of vectors    all(a == b), any(a != b)
 *   p of a float_3 in memory     amp_unpack_float3(p), p = amp_pack_float3((float3)(x)),
 *                                amp_add_assign_float3(&p, (float3)(x))
 *   float_3 v(x, y, z)           float_3 v = (float3)(x, y, z)
 *   tile_barrier&, const tiled_index<...>&   amp_tile_barrier, amp_tiled_index
 *   t.set(i, v), t.get(i)        AMP_SET_t(i, v), AMP_GET_t(i)
 *   t.sample(s, c), t[i]         AMP_SAMPLE_WITH_t(s, c), t(i)
 */
#include "translate/spell.h"

#include "translate/vocabulary.h"

#include <stdio.h>
#include <string.h>

#include "core/elem.h"

/* The lanes past the rank of an int8 index or extent (ranks 5 to 7), as
 * zeros to append to its values. */
static const char *unused_lanes(int rank)
{
    return rank == 5 ? ", 0, 0, 0" : rank == 6 ? ", 0, 0" : rank == 7 ? ", 0" : "";
}

/* Token i printed as text, if there is a token i. */
static void rewrite(kbody *b, long i, const char *text)
{
    if (i >= 0)
        amp__body_edit_instead(b, i, text);
}

/* fmt (of rank) printed before token i, if there is one: a function of
 * that rank, which the kernel then defines. */
static void prefix(kbody *b, long i, const char *fmt, int rank)
{
    char text[48];
    snprintf(text, sizeof text, fmt, rank);
    if (i >= 0)
        amp__body_edit_before(b, i, text);
    b->ranks |= 1u << rank;
}

/* The tokens after first up to last print nothing (a template's '<', its
 * arguments and '>'); preprocessor lines among them are their own. */
static void blank_after(kbody *b, long first, long last)
{
    for (long i = first + 1; i <= last; i++)
        if (!(b->flags[i] & (TOK_DIRECTIVE | TOK_IN_DIRECTIVE)))
            rewrite(b, i, "");
}

/* A helper parameter's C++ reference '&' (token i, or -1), printed as
 * nothing: the name after it keeps a space from the type. */
static void drop_reference(kbody *b, long i)
{
    if (i < 0)
        return;
    rewrite(b, i, "");
    if ((size_t)i + 1 < b->tokens.count && !b->tokens.items[i + 1].space_before)
        amp__body_edit_before(b, i + 1, " ");
}

/* The name of a view value's function: amp_element_float_2(, ... */
static void value_function(const kbody *b, char *buf, size_t n, const char *what, body_type t)
{
    snprintf(buf, n, "%samp_%s_%s_%d(",
             t.is_const && strcmp(what, "element") == 0 ? "AMP_READ_ONLY(" : "", what,
             amp__body_elem_name(b->ctx, t.elem), t.rank);
}

static const char *index_or_extent(body_type t)
{
    return t.kind == TYPE_INDEX ? "index" : "extent";
}

static void zero_init(kbody *b, const body_construct *c)
{
    char text[96];
    const lex_token *type = c->tok[1] >= 0 ? &b->tokens.items[c->tok[1]] : NULL;
    if (c->form == ZERO_LIST)
        snprintf(text, sizeof text, " = {0}");
    else if (c->form == ZERO_INT)
        snprintf(text, sizeof text, " = 0");
    else if (c->form == ZERO_INDEX)
        snprintf(text, sizeof text, " = (amp_%s_%d)(0)", index_or_extent(c->type), c->type.rank);
    else
        snprintf(text, sizeof text, " = (%.*s)(0)", type ? (int)type->length : 0,
                 type ? type->text : "");
    amp__body_edit_before(b, c->tok[0], text);
}

static void value_section(kbody *b, const body_construct *c)
{
    const int32_t *t = c->tok;
    int rank = c->type.rank;
    char text[160];
    const char *function = "section";
    rewrite(b, t[1], "");
    rewrite(b, t[2], "");
    if (c->form == SECTION_INTS) {
        snprintf(text, sizeof text, ", (amp_index_%d)(", rank);
        rewrite(b, t[3], text);
        snprintf(text, sizeof text, "%s), (amp_extent_%d)(", unused_lanes(rank), rank);
        rewrite(b, t[4], text);
        snprintf(text, sizeof text, "%s))", unused_lanes(rank));
        rewrite(b, t[5], text);
    } else if (c->form == SECTION_PAIR) {
        rewrite(b, t[3], ", ");
    } else if (c->form == SECTION_EXTENT) {
        snprintf(text, sizeof text, rank == 1 ? ", 0, " : ", (amp_index_%d)(0), ", rank);
        rewrite(b, t[3], text);
    } else {
        function = "section_from";
        rewrite(b, t[3], ", ");
    }
    body_type type = c->type;
    type.is_const = 0;
    value_function(b, text, sizeof text, function, type);
    amp__body_edit_before(b, t[0], text);
    b->ranks |= 1u << rank;
}

static void value_element(kbody *b, const body_construct *c)
{
    const int32_t *t = c->tok;
    int rank = c->type.rank, by_index = c->form == ELEMENT_BY_INDEX;
    char text[160];
    value_function(b, text, sizeof text, "element", c->type);
    amp__body_edit_before(b, t[0], text);
    if (by_index)
        snprintf(text, sizeof text, ", ");
    else if (rank == 1)
        snprintf(text, sizeof text, ", (int)(");
    else
        snprintf(text, sizeof text, ", (amp_index_%d)(", rank);
    rewrite(b, t[1], text);
    snprintf(text, sizeof text, "%s%s)[0]%s", by_index ? "" : unused_lanes(rank),
             by_index ? "" : ")", c->type.is_const ? ")" : "");
    rewrite(b, t[2], text);
    b->ranks |= 1u << rank;
}

/* v.extent of a captured view or texture, or of a view value. */
static void extent_of(kbody *b, const body_construct *c)
{
    const int32_t *t = c->tok;
    int rank = c->type.rank;
    if (c->kind == C_EXTENT_OF_CAPTURE) {
        const lex_token *view = &b->tokens.items[t[0]];
        char text[96];
        snprintf(text, sizeof text, "amp_extent_of_%d(%.*s_extent)", rank, (int)view->length,
                 view->text);
        b->ranks |= 1u << rank;
        rewrite(b, t[0], text);
        rewrite(b, t[1], "");
    } else {
        prefix(b, t[0], "amp_extent_of_%d(", rank);
        rewrite(b, t[1], ".amp_extent)");
    }
    rewrite(b, t[2], "");
    rewrite(b, t[3], ""); /* get_extent's () */
    rewrite(b, t[4], "");
}

/* p op= v of a 3-vector p in memory: amp_add_assign_float3(&p, (float3)(v)),
 * which reads p once and writes it whole (v a vector, or a scalar for each
 * component). */
static void packed_update(kbody *b, const body_construct *c)
{
    static const char *const ops[] = {"add", "sub", "mul", "div", "mod",
                                      "and", "or",  "xor", "shl", "shr"};
    char text[96];
    int scalar = amp__elem_scalar((amp_elem_type)c->type.elem) - AMP_INT;
    const char *type = amp__body_elem_name(b->ctx, c->type.elem);
    snprintf(text, sizeof text, "amp_%s_assign_%s(&", ops[c->number], type);
    amp__body_edit_before(b, c->tok[0], text);
    rewrite(b, c->tok[1], ",");
    snprintf(text, sizeof text, "(%s)(", type);
    amp__body_edit_before(b, c->tok[2], text);
    amp__body_edit_after(b, c->tok[3], "))");
    b->packed |= 1u << scalar;
    b->packed_updates |= (uint64_t)1 << (10 * scalar + c->number);
}

/* A short vector's member in OpenCL C 1.2's letters: .rgb is .xyz, and
 * get_xy() is .xy, set_xy(v) is .xy = (v), ref_x() is .x. */
static void swizzle(kbody *b, const body_construct *c)
{
    const lex_token *m = &b->tokens.items[c->tok[0]];
    const char *letters = m->text + (c->form == SWIZZLE_NAME ? 0 : 4);
    size_t n = m->length - (c->form == SWIZZLE_NAME ? 0 : 4);
    char text[16];
    size_t k = 0;
    for (size_t i = 0; i < n && k < 4; i++) {
        const char *at = strchr("rgba", letters[i]);
        text[k++] = at ? "xyzw"[at - "rgba"] : letters[i];
    }
    text[k] = '\0';
    if (c->form == SWIZZLE_SET) {
        strcat(text, " = ");
        rewrite(b, c->tok[0], text);
        return;
    }
    rewrite(b, c->tok[0], text);
    rewrite(b, c->tok[1], "");
    rewrite(b, c->tok[2], "");
}

/* t.set(i, v) as AMP_SET_t(i, v), t.get(i) as AMP_GET_t(i),
 * t.sample(s, c) as AMP_SAMPLE_WITH_t(s, c), t.gather_red(s, c) as
 * AMP_GATHER_t(0, s, c) (1 green, 2 blue, 3 alpha); modes as a template's
 * arguments become the sampler AMP_SAMPLER_PAIR(filter, address), or for a
 * gather AMP_SAMPLER_ADDRESS(address), and the modes not written are C++
 * AMP's defaults, filter_linear and address_clamp (t.sample(c),
 * t.sample<filter_point>(c), t.gather_red(c)). The texture's accessors
 * define the macros (accessors.c). */
/* The ',' before the last of the arguments of the call whose '(' is token
 * open. */
static long last_comma(const kbody *b, long open)
{
    const lex_token *tok = b->tokens.items;
    long comma = -1;
    int depth = 0;
    for (long i = open; i < (long)b->tokens.count; i++) {
        if (amp__lex_is(&tok[i], "(") || amp__lex_is(&tok[i], "[") || amp__lex_is(&tok[i], "{"))
            depth++;
        else if (amp__lex_is(&tok[i], ")") || amp__lex_is(&tok[i], "]") ||
                 amp__lex_is(&tok[i], "}")) {
            if (--depth == 0)
                break;
        } else if (depth == 1 && amp__lex_is(&tok[i], ","))
            comma = i;
    }
    return comma;
}

static void texture_call(kbody *b, const body_construct *c)
{
    const int32_t *t = c->tok;
    const lex_token *name = &b->tokens.items[t[0]];
    int gather = c->form >= TEXTURE_GATHER_RED, channel = c->form - TEXTURE_GATHER_RED;
    int sampled = c->form >= TEXTURE_SAMPLE, arguments = c->number % 256,
        modes = c->number / 256 % 256, coord_and_level = c->number / 65536;
    if (c->form == TEXTURE_SAMPLE && (arguments == (t[3] >= 0 ? 2 : 3) || coord_and_level)) {
        /* A level of detail: evaluated, and level 0 sampled (textures.cl). */
        amp__body_edit_before(b, t[0], "AMP_AT_LEVEL_OF_DETAIL(");
        rewrite(b, last_comma(b, t[5]), "),");
        arguments--;
    }
    const char *macro = c->form == TEXTURE_SET      ? "AMP_SET_"
                        : c->form == TEXTURE_GET    ? "AMP_GET_"
                        : c->form == TEXTURE_SAMPLE ? "AMP_SAMPLE_WITH_"
                                                    : "AMP_GATHER_";
    char text[160];
    rewrite(b, t[1], "");
    rewrite(b, t[2], "");
    if (t[3] < 0 && sampled && arguments == 1) {
        /* The coordinates alone: the default modes. */
        if (gather)
            snprintf(text, sizeof text, "%s%.*s(%d, AMP_SAMPLER_ADDRESS(address_clamp), ", macro,
                     (int)name->length, name->text, channel);
        else
            snprintf(text, sizeof text, "%s%.*s(AMP_SAMPLER_PAIR(filter_linear, address_clamp), ",
                     macro, (int)name->length, name->text);
        rewrite(b, t[0], text);
        rewrite(b, t[5], "");
        return;
    }
    if (t[3] < 0) {
        snprintf(text, sizeof text, "%s%.*s", macro, (int)name->length, name->text);
        rewrite(b, t[0], text);
        if (gather) {
            snprintf(text, sizeof text, "(%d, ", channel);
            rewrite(b, t[5], text);
        }
        return;
    }
    if (gather)
        snprintf(text, sizeof text, "%s%.*s(%d, AMP_SAMPLER_ADDRESS", macro, (int)name->length,
                 name->text, channel);
    else
        snprintf(text, sizeof text, "%s%.*s(AMP_SAMPLER_PAIR", macro, (int)name->length,
                 name->text);
    rewrite(b, t[0], text);
    /* <>, <filter>: the modes not written. */
    rewrite(b, t[3],
            modes == 0 ? (gather ? "(address_clamp" : "(filter_linear, address_clamp") : "(");
    rewrite(b, t[4], modes == 1 && !gather ? ", address_clamp)," : "),");
    rewrite(b, t[5], "");
}

static void spell(kbody *b, const body_construct *c)
{
    const int32_t *t = c->tok;
    const lex_token *tok = b->tokens.items;
    int rank = c->type.rank;
    char text[160];
    switch ((construct_kind)c->kind) {
    case C_NAMESPACE:
        for (long i = t[0]; i < t[0] + 3; i++)
            rewrite(b, i, "");
        if (t[1] >= 0) {
            snprintf(text, sizeof text, "%.*s_", (int)tok[t[0]].length, tok[t[0]].text);
            amp__body_edit_before(b, t[1], text);
        }
        break;
    case C_INDEX_TYPE:
        blank_after(b, t[0], t[1]);
        if (amp__lex_is(&tok[t[1]], "&"))
            drop_reference(b, t[1]); /* a helper's tiled_index<...>& */
        if (c->type.kind == TYPE_TILED_INDEX)
            snprintf(text, sizeof text, "amp_tiled_index");
        else
            snprintf(text, sizeof text, "amp_%s_%d", index_or_extent(c->type), rank);
        rewrite(b, t[0], text);
        b->ranks |= 1u << rank;
        break;
    case C_VIEW_TYPE:
        blank_after(b, t[0], t[1]);
        if (amp__lex_is(&tok[t[1]], "&"))
            drop_reference(b, t[1]);
        amp__body_value_type_name(b->ctx, c->type, text, sizeof text);
        rewrite(b, t[0], text);
        break;
    case C_TEXTURE_TYPE:
        blank_after(b, t[0], t[1]);
        if (amp__lex_is(&tok[t[1]], "&"))
            drop_reference(b, t[1]);
        snprintf(text, sizeof text, "%s image%dd_t",
                 c->type.access == AMP_TEXTURE_WRITE        ? "__write_only"
                 : c->type.access == AMP_TEXTURE_READ_WRITE ? "__read_write"
                                                            : "__read_only",
                 rank);
        rewrite(b, t[0], text);
        break;
    case C_TEXTURE_CALL: texture_call(b, c); break;
    case C_VECTOR_STEP: {
        /* ++v as (v += 1), v++ (its value unused) as (v += 1). */
        int up = amp__lex_is(&tok[t[0]], "++");
        if (t[1] >= 0) {
            rewrite(b, t[0], "(");
            amp__body_edit_after(b, t[1], up ? " += 1)" : " -= 1)");
        } else {
            amp__body_edit_before(b, t[2], "(");
            rewrite(b, t[0], up ? " += 1)" : " -= 1)");
        }
        break;
    }
    case C_TEXTURE_PARAMETER:
        /* Images cannot be struct members: the texture is its image and
         * its extent, side by side. */
        snprintf(text, sizeof text, "amp_%.*s_image, const int *%.*s_extent", (int)tok[t[0]].length,
                 tok[t[0]].text, (int)tok[t[0]].length, tok[t[0]].text);
        rewrite(b, t[0], text);
        break;
    case C_TEXTURE_ARGUMENT:
        snprintf(text, sizeof text, "amp_%.*s_image, %.*s_extent", (int)tok[t[0]].length,
                 tok[t[0]].text, (int)tok[t[0]].length, tok[t[0]].text);
        rewrite(b, t[0], text);
        break;
    case C_ZERO_INIT: zero_init(b, c); break;
    case C_DIRECT_INIT:
        if (c->form == INIT_COPY) {
            rewrite(b, t[0], " = (");
            break;
        }
        if (c->form == INIT_VECTOR) {
            snprintf(text, sizeof text, " = (%s)(", amp__body_elem_name(b->ctx, c->type.elem));
            rewrite(b, t[0], text);
            break;
        }
        snprintf(text, sizeof text, " = (amp_%s_%d)(", index_or_extent(c->type), rank);
        rewrite(b, t[0], text);
        if (rank > 4 && rank < 8)
            amp__body_edit_before(b, t[1], unused_lanes(rank));
        break;
    case C_TILED_AS_INDEX: amp__body_edit_after(b, t[0], ".global"); break;
    case C_CONSTRUCTION:
        snprintf(text, sizeof text, "(amp_%s_%d)", index_or_extent(c->type), rank);
        rewrite(b, t[0], rank == 1 ? "(int)" : text);
        if (c->number == 0)
            amp__body_edit_after(b, t[1], "0");
        else if (rank > 4 && rank < 8 && t[2] >= 0)
            amp__body_edit_before(b, t[2], unused_lanes(rank));
        break;
    case C_CAPTURE_VALUE:
        snprintf(text, sizeof text, "amp_%.*s_value", (int)tok[t[0]].length, tok[t[0]].text);
        rewrite(b, t[0], text);
        b->values |= 1u << c->number;
        break;
    case C_VALUE_ELEMENT: value_element(b, c); break;
    case C_VALUE_PROJECTION:
        value_function(b, text, sizeof text, "project", c->type);
        amp__body_edit_before(b, t[0], text);
        rewrite(b, t[1], ", ");
        rewrite(b, t[2], ")");
        break;
    case C_VALUE_SECTION: value_section(b, c); break;
    case C_VIEW_SUBSCRIPT:
        if (c->form & SUBSCRIPT_INDEX) {
            rewrite(b, t[0], "(");
            rewrite(b, t[1], ")");
        } else {
            rewrite(b, t[0], (c->form & SUBSCRIPT_FIRST) ? "(" : ", ");
            rewrite(b, t[1], (c->form & SUBSCRIPT_LAST) ? ")" : "");
        }
        break;
    case C_RANK:
        snprintf(text, sizeof text, "%d", rank);
        rewrite(b, t[0], text);
        for (long i = t[0] + 1; i <= t[1]; i++)
            rewrite(b, i, "");
        break;
    case C_TILE_DIM:
        snprintf(text, sizeof text, "%d", (int)c->number);
        rewrite(b, t[0], text);
        rewrite(b, t[1], "");
        rewrite(b, t[2], "");
        break;
    case C_EXTENT_OF_CAPTURE:
    case C_EXTENT_OF_VALUE: extent_of(b, c); break;
    case C_EXTENT_CALL:
        prefix(b, t[0], c->form ? "amp_contains_%d(" : "amp_size_%d(", rank);
        rewrite(b, t[1], c->form ? ", " : "");
        rewrite(b, t[2], "");
        rewrite(b, t[3], "");
        break;
    case C_INDEX1_SUBSCRIPT:
        for (long i = t[0]; i <= t[1]; i++)
            rewrite(b, i, "");
        break;
    case C_VECTOR_ZERO: amp__body_edit_after(b, t[0], "0"); break;
    case C_BARRIER_TYPE:
        rewrite(b, t[0], "amp_tile_barrier");
        drop_reference(b, t[1]);
        break;
    case C_HELPER_CALL: break; /* its arguments are locals.c's */
    case C_CONST_DROPPED: rewrite(b, t[0], ""); break;
    case C_UNPACK:
        snprintf(text, sizeof text, "amp_unpack_%s(", amp__body_elem_name(b->ctx, c->type.elem));
        amp__body_edit_before(b, t[0], text);
        amp__body_edit_after(b, t[1], ")");
        b->packed |= 1u << (amp__elem_scalar((amp_elem_type)c->type.elem) - AMP_INT);
        break;
    case C_PACK:
        /* (float3)(x): a scalar is every component, as C++ AMP's float_3(x). */
        snprintf(text, sizeof text, "amp_pack_%s((%s)(", amp__body_elem_name(b->ctx, c->type.elem),
                 amp__body_elem_name(b->ctx, c->type.elem));
        amp__body_edit_before(b, t[0], text);
        amp__body_edit_after(b, t[1], "))");
        b->packed |= 1u << (amp__elem_scalar((amp_elem_type)c->type.elem) - AMP_INT);
        break;
    case C_PACKED_UPDATE: packed_update(b, c); break;
    case C_VECTOR_COMPARE:
        if (c->form & VECTOR_COMPARE_LANES)
            break;
        amp__body_edit_before(b, t[0], c->form ? "any(" : "all(");
        amp__body_edit_after(b, t[2], ")");
        break;
    case C_SWIZZLE: swizzle(b, c); break;
    case C_INDEX_COMPARE:
        prefix(b, t[0], c->form ? "!amp_equal_%d(" : "amp_equal_%d(", rank);
        rewrite(b, t[1], ",");
        amp__body_edit_after(b, t[2], ")");
        break;
    }
}

/* C's long long is 64 bits, OpenCL C's long; OpenCL C reserves long long
 * (for 128 bits, as PoCL's compiler gives it). The type is written long,
 * and an integer's LL suffix L. */
static void wide_integers_as_long(kbody *b)
{
    const lex_token *tok = b->tokens.items;
    /* In macros' definitions too, which expand into the body. */
    for (size_t i = 0; i < b->tokens.count; i++) {
        if (amp__lex_is(&tok[i], "long") && i + 1 < b->tokens.count &&
            amp__lex_is(&tok[i + 1], "long")) {
            rewrite(b, (long)i + 1, "");
            i++;
            continue;
        }
        if (tok[i].kind != LEX_NUMBER || tok[i].length < 3 || tok[i].length > 60)
            continue;
        /* 1LL, 1ull, 1LLU: the suffix's two l's, at the end. */
        const char *t = tok[i].text;
        size_t n = tok[i].length, end = n;
        if (t[end - 1] == 'u' || t[end - 1] == 'U')
            end--;
        if (end < 3 ||
            !((t[end - 1] == 'l' && t[end - 2] == 'l') || (t[end - 1] == 'L' && t[end - 2] == 'L')))
            continue;
        char text[64];
        snprintf(text, sizeof text, "%.*s%.*s", (int)(end - 1), t, (int)(n - end), t + end);
        rewrite(b, (long)i, text);
    }
}

/* C's float functions (sqrtf, fabsf, powf ...), which OpenCL C has not:
 * called where the body declares no such name and defines no such macro,
 * they are C++ AMP's precise_math ones (precise_math::sqrtf), which take
 * OpenCL's built-ins. */
static void c_float_functions(kbody *b)
{
    const lex_token *tok = b->tokens.items;
    for (size_t i = 0; i + 1 < b->tokens.count; i++) {
        const lex_token *t = &tok[i];
        /* In a macro's definition too (AMP_DEFINE(ROOT(x) sqrtf(x))), whose
         * names the reader does not resolve: there no capture may have the
         * name. */
        int in_macro = (b->flags[i] & TOK_IN_DIRECTIVE) != 0;
        if (t->kind != LEX_IDENT || t->length < 3 || t->length > 40 ||
            t->text[t->length - 1] != 'f' || (b->resolved[i] != BODY_UNRESOLVED && !in_macro) ||
            !amp__lex_is(&tok[i + 1], "(") || (b->flags[i] & TOK_DIRECTIVE))
            continue;
        if (in_macro && amp__body_capture_kind(b->ctx, t->text, t->length))
            continue;
        if (i > 0 && (amp__lex_is(&tok[i - 1], ".") || amp__lex_is(&tok[i - 1], "->") ||
                      amp__lex_is(&tok[i - 1], ":")))
            continue;
        char name[64];
        int n = snprintf(name, sizeof name, "precise_math_%.*s", (int)t->length, t->text);
        if (!amp__vocab_reserves(name, (size_t)n))
            continue;
        if (!amp__body_defines_macro(b, t->text, t->length))
            amp__body_edit_before(b, (long)i, "precise_math_");
    }
}

void amp__spell(kbody *b)
{
    /* C's digraphs, as the characters they spell: the kernel reads as
     * plain C. A construct's edit of the same token comes after. */
    for (size_t i = 0; i < b->tokens.count; i++) {
        const char *meaning = amp__lex_digraph(&b->tokens.items[i]);
        if (meaning)
            rewrite(b, (long)i, meaning);
    }
    wide_integers_as_long(b);
    c_float_functions(b);
    for (size_t i = 0; i < b->nconstructs && b->status == AMP_OK; i++)
        spell(b, &b->constructs[i]);
    /* A view value's functions use its rank's index functions. */
    for (int i = 0; i < b->nvalue_types; i++)
        b->ranks |= 1u << b->value_types[i].rank;
}
