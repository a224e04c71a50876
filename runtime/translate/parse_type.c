/*
 * runtime/translate/parse_type.c - C++ AMP's class templates where a body
 * names a type: index<N>, extent<N>, tiled_index<D0, ...>, array_view<T,
 * N>, array<T, N> and (a helper's parameter) texture<T, N>. Each is read,
 * checked and noted as a construct; spell.c writes the kernel's type.
 */
#include "translate/parse_type.h"

#include <string.h>

#define fail(r, ...) amp__body_fail((r)->b, __VA_ARGS__)
#define expect amp__parse_expect

/* Consume the current token, a part of a template's spelling. */
static void skip(reader *r)
{
    mark(r, BODY_NOT_A_USE);
    advance(r);
}

/* The element type of array_view<T, N>: int, unsigned (int), uint, float,
 * double, or a registered struct. Consumes it; 0 when it is none. */
static uint16_t element_type(reader *r)
{
    static const struct {
        const char *word;
        amp_elem_type type;
    } words[] = {
        {"int", AMP_INT}, {"uint", AMP_UINT}, {"float", AMP_FLOAT}, {"double", AMP_DOUBLE}};
    const lex_token *t = peek(r, 0);
    if (amp__lex_is(t, "unsigned")) {
        skip(r);
        if (is(r, 0, "int"))
            skip(r);
        return AMP_UINT;
    }
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (amp__lex_is(t, words[i].word)) {
            skip(r);
            return (uint16_t)words[i].type;
        }
    for (int i = 0; r->ctx->type_ids && i < r->ctx->ntypes; i++)
        if (amp__lex_is(t, r->ctx->type_names[i])) {
            skip(r);
            return (uint16_t)r->ctx->type_ids[i];
        }
    /* A short vector: array_view<float_3, 1>, array<float4, 2>. */
    amp_elem_type vector = amp__parse_vector_type(t);
    if (vector) {
        skip(r);
        return (uint16_t)vector;
    }
    return 0;
}

/* array_view<[const] T, N> and array<T, N> (a parameter's C++ reference
 * '&' after it dropped): a view as a value. */
static void view_template(reader *r, long name, body_type *type)
{
    int is_array = amp__lex_is(&r->tok[name], "array");
    skip(r); /* '<' */
    int is_const = 0;
    if (is(r, 0, "const")) {
        is_const = 1;
        skip(r);
    }
    long at = cur(r);
    uint16_t elem = element_type(r);
    if (!elem) {
        fail(r, at, AMP_ERROR_KERNEL_BUILD,
             "a view's elements are int, unsigned, float, double, their short vectors (float_3"
             " ...) or a struct the kernel knows (AMP_STRUCT)");
        return;
    }
    if (!is(r, 0, ",") || peek(r, 1)->kind != LEX_NUMBER || !is(r, 2, ">")) {
        fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "write %s<T, N> with the rank N as a number",
             is_array ? "array" : "array_view");
        return;
    }
    skip(r);
    int rank = amp__lex_leading_number(peek(r, 0));
    skip(r);
    skip(r); /* '>' */
    if (rank < 1 || rank > 8) {
        fail(r, name, AMP_ERROR_KERNEL_BUILD, "%s of rank %d: the rank is 1 to 8",
             is_array ? "array" : "array_view", rank);
        return;
    }
    if (is(r, 0, "&"))
        skip(r); /* C++'s reference: a view value is already a reference to its data */
    *type = (body_type){TYPE_VIEW_VALUE, (uint8_t)rank, 0, (uint8_t)is_const, elem, 0, 0, 0, 0};
    amp__parse_use_value_type(r, *type);
    amp__parse_note(r, C_VIEW_TYPE, *type, 0, 0, name, last_consumed(r), -1);
}

/* texture<T, N>, texture_view<[const] T, N> or writeonly_texture_view<T,
 * N> (a parameter's '&' after it dropped), T one of int, uint, float, norm,
 * unorm and their vectors of 2 and 4 (int2 or C++ AMP's int_2): a helper's
 * texture parameter, given its image's type; the parameter's name becomes
 * the image and the extent (C_TEXTURE_PARAMETER). What the helper may do
 * with it is C++ AMP's: read a texture or a texture_view<const T, N>,
 * write a writeonly_texture_view, and read and write a texture_view<T, N>
 * of one int, uint or float channel (write one of other texels). */
static void texture_template(reader *r, long name, const lex_token *word, body_type *type)
{
    static const struct {
        const char *word;
        amp_elem_type elem;
        int channels;
    } texels[] = {
        {"int", AMP_INT, 1},       {"int2", AMP_INT, 2},      {"int_2", AMP_INT, 2},
        {"int4", AMP_INT, 4},      {"int_4", AMP_INT, 4},     {"uint", AMP_UINT, 1},
        {"unsigned", AMP_UINT, 1}, {"uint2", AMP_UINT, 2},    {"uint_2", AMP_UINT, 2},
        {"uint4", AMP_UINT, 4},    {"uint_4", AMP_UINT, 4},   {"float", AMP_FLOAT, 1},
        {"float2", AMP_FLOAT, 2},  {"float_2", AMP_FLOAT, 2}, {"float4", AMP_FLOAT, 4},
        {"float_4", AMP_FLOAT, 4}, {"norm", AMP_NORM, 1},     {"norm2", AMP_NORM, 2},
        {"norm_2", AMP_NORM, 2},   {"norm4", AMP_NORM, 4},    {"norm_4", AMP_NORM, 4},
        {"unorm", AMP_UNORM, 1},   {"unorm2", AMP_UNORM, 2},  {"unorm_2", AMP_UNORM, 2},
        {"unorm4", AMP_UNORM, 4},  {"unorm_4", AMP_UNORM, 4},
    };
    int is_view = amp__lex_is(word, "texture_view");
    int write_only = amp__lex_is(word, "writeonly_texture_view");
    if (!r->in_parameters) {
        fail(r, name, AMP_ERROR_KERNEL_BUILD,
             "a %.*s<T, N> is a helper's parameter only; in a kernel, use the captured"
             " texture or texture view by its name",
             (int)word->length, word->text);
        return;
    }
    skip(r); /* '<' */
    int is_const = is(r, 0, "const");
    if (is_const)
        skip(r);
    int k = 0, n = (int)(sizeof texels / sizeof texels[0]);
    while (k < n && !amp__lex_is(peek(r, 0), texels[k].word))
        k++;
    if (k == n) {
        fail(r, cur(r), AMP_ERROR_KERNEL_BUILD,
             "a texture's texels are int, uint, float, norm or unorm, or their vectors of 2 or 4"
             " (float4, float_4, unorm_4)");
        return;
    }
    skip(r);
    if (!is(r, 0, ",") || peek(r, 1)->kind != LEX_NUMBER || !is(r, 2, ">")) {
        fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "write %.*s<T, N> with the rank N as a number",
             (int)word->length, word->text);
        return;
    }
    skip(r);
    int rank = amp__lex_leading_number(peek(r, 0));
    skip(r);
    skip(r); /* '>' */
    if (rank < 1 || rank > 3) {
        fail(r, name, AMP_ERROR_KERNEL_BUILD, "texture of rank %d: the rank is 1 to 3", rank);
        return;
    }
    if (is(r, 0, "&"))
        skip(r);
    int one_32 = texels[k].channels == 1 && texels[k].elem != AMP_NORM &&
                 texels[k].elem != AMP_UNORM;
    amp_texture_access access = write_only             ? AMP_TEXTURE_WRITE
                                : !is_view || is_const ? AMP_TEXTURE_READ
                                : one_32               ? AMP_TEXTURE_READ_WRITE
                                                       : AMP_TEXTURE_WRITE;
    *type = (body_type){TYPE_TEXTURE_VALUE,
                        (uint8_t)rank,
                        0,
                        access == AMP_TEXTURE_READ,
                        (uint16_t)texels[k].elem,
                        (uint8_t)texels[k].channels,
                        0,
                        0,
                        (uint8_t)access};
    amp__parse_note(r, C_TEXTURE_TYPE, *type, 0, 0, name, last_consumed(r), -1);
}

int amp__parse_template_type(reader *r, body_type *type)
{
    if (!amp__parse_template_name(r, 0))
        return 0;
    long name = cur(r);
    const lex_token *t = peek(r, 0);
    mark(r, BODY_NOT_A_USE);
    advance(r);
    if (amp__lex_is(t, "array_view") || amp__lex_is(t, "array")) {
        view_template(r, name, type);
        return 1;
    }
    if (amp__lex_is(t, "texture") || amp__lex_is(t, "texture_view") ||
        amp__lex_is(t, "writeonly_texture_view")) {
        texture_template(r, name, t, type);
        return 1;
    }
    int tiled = amp__lex_is(t, "tiled_index");
    int is_index = amp__lex_is(t, "index");
    expect(r, "<");
    /* index<N>, extent<N>: the rank, a number. tiled_index<D0, ...>: the
     * tile's dimensions, one per rank. */
    int rank = 0, fresh = 1; /* fresh: the argument starts here */
    memset(r->tile_dims, 0, sizeof r->tile_dims);
    while (r->b->status == AMP_OK && !at_end(r) && !is(r, 0, ">")) {
        const lex_token *arg = peek(r, 0);
        if (!tiled && (arg->kind != LEX_NUMBER || arg->length > 2)) {
            fail(r, cur(r), AMP_ERROR_KERNEL_BUILD,
                 "the rank of %s<N> must be written as a number from 1 to 8",
                 is_index ? "index" : "extent");
            return 1;
        }
        if (!tiled) {
            rank = amp__lex_leading_number(arg);
        } else if (amp__lex_is(arg, ",")) {
            fresh = 1;
        } else {
            /* A number alone between the commas; anything else (a name,
             * an expression) leaves the dimension unknown. */
            if (fresh && rank < 3 && arg->kind == LEX_NUMBER && (is(r, 1, ",") || is(r, 1, ">")))
                r->tile_dims[rank] = amp__lex_leading_number(arg);
            rank += fresh;
            fresh = 0;
        }
        skip(r);
    }
    if (r->b->status == AMP_OK && (rank < 1 || rank > (tiled ? 3 : 8))) {
        fail(r, name, AMP_ERROR_KERNEL_BUILD, "%s of rank %d: the rank is 1 to %d",
             tiled      ? "tiled_index"
             : is_index ? "index"
                        : "extent",
             rank, tiled ? 3 : 8);
        return 1;
    }
    long close = cur(r);
    expect(r, ">");
    /* A helper's tiled_index<...>& parameter: its members do not change,
     * so the value serves as the reference. */
    if (tiled && r->in_parameters && is(r, 0, "&")) {
        close = cur(r);
        skip(r);
    }
    *type = (body_type){(uint8_t)(tiled      ? TYPE_TILED_INDEX
                                  : is_index ? TYPE_INDEX
                                             : TYPE_EXTENT),
                        (uint8_t)rank,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0,
                        0};
    amp__parse_note(r, C_INDEX_TYPE, *type, 0, 0, name, close, -1);
    return 1;
}
