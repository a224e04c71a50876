/*
 * runtime/kernel/codegen.c - turning a kernel body and its captures into an OpenCL
 * C program that a learner can read.
 */
#include "kernel/codegen.h"

#include <stdlib.h>
#include <string.h>

#include "data/coherence.h"
#include "core/error.h"
#include "core/lexicon.h"
#include "kernel/snippet.h"
#include "data/struct_type.h"
#include "data/texture.h"
#include "kernel/vocabulary.h"


static const char *elem_cl_name(amp_elem_type t)
{
    return amp_elem_type_name(t);
}

static void describe_capture(strbuf *sb, const cg_capture *c, int written)
{
    switch (c->kind) {
    case AMP_CAPTURE_VIEW:
        amp__sb_printf(sb, " *   %-12s %s%s view of rank %d, %s\n", c->name, c->is_const ? "const " : "",
                  elem_cl_name(c->type), c->rank,
                  written ? "read and written" : "read only (never copied back)");
        break;
    case AMP_CAPTURE_SCALAR:
        amp__sb_printf(sb, " *   %-12s %s, by value\n", c->name, elem_cl_name(c->type));
        break;
    case AMP_CAPTURE_CONSTANT:
        amp__sb_printf(sb, " *   %-12s compile-time constant %lld\n", c->name, c->constant);
        break;
    case AMP_CAPTURE_FUNCTION:
        amp__sb_printf(sb, " *   %-12s helper function\n", c->name);
        break;
    case AMP_CAPTURE_TEXTURE:
        amp__sb_printf(sb, " *   %-12s %s texture of rank %d, %d channel%s, read only (%s%s)\n",
                  c->name, elem_cl_name(c->type), c->rank, c->channels,
                  c->channels == 1 ? "" : "s", amp__tex_image_type_name((tex_image_kind)c->image_kind),
                  c->image_kind == TEX_IMAGE_1D_FOLDED ? ", folded into rows" : "");
        break;
    default: break;
    }
}

/* The parameters of one view: its buffer, offset, strides and extent. */
static void view_params(strbuf *sb, const cg_capture *c, int written, int guarded)
{
    amp__sb_printf(sb, "    __global %s%s *amp_%s_data, const amp_off_t amp_%s_offset,\n",
              written ? "" : "const ", elem_cl_name(c->type), c->name, c->name);
    if (guarded)
        amp__sb_printf(sb, "    const amp_off_t amp_%s_spare,\n", c->name);
    for (int d = 0; d + 1 < c->rank; d++)
        amp__sb_printf(sb, "    const amp_off_t amp_%s_stride%d,\n", c->name, d);
    amp__sb_append(sb, "    ");
    for (int d = 0; d < c->rank; d++)
        amp__sb_printf(sb, "%sconst int amp_%s_extent%d", d ? ", " : "", c->name, d);
}

/* index[d] for d = 0 .. rank-1: C++ AMP's dimension 0 is the slowest, so it
 * is OpenCL's highest dimension, and the last one is OpenCL's dimension 0,
 * which neighbouring work-items share. */
static void index_setup(strbuf *sb, const char *ix, const char *member, const char *fn, int rank)
{
    for (int d = 0; d < rank; d++)
        amp__sb_printf(sb, "    %s%s[%d] = (int)%s(%d);\n", ix, member, d, fn, rank - 1 - d);
}

/* What a texture read returns: the scalar of one channel, or a vector. */
static const char *channel_suffix(int channels)
{
    return channels == 1 ? ".x" : channels == 2 ? ".xy" : "";
}

/* The read function of the element type: read_imagei, read_imageui or
 * read_imagef. */
static const char *read_function(amp_elem_type t)
{
    return t == AMP_INT ? "read_imagei" : t == AMP_UINT ? "read_imageui" : "read_imagef";
}

/* The definitions every kernel that captures a texture needs, once. */
static void texture_vocabulary(strbuf *sb, const cg_spec *spec)
{
    amp__sb_append(sb,
              "\n/* Textures (read only). t(i), t(i, j), t(i, j, k) or t(index) read the texel\n"
              "   at an integer index, 0 outside the texture; amp_sample(t, x[, y[, z]])\n"
              "   samples a float texture at normalized coordinates (0 to 1 across each\n"
              "   side, x across a row), filtering linearly between texels and clamping at\n"
              "   the edges. Both give the scalar of a one-channel texture and a vector for\n"
              "   two or four channels. A texel is a value, not a place: assigning to one\n"
              "   does not compile. */\n"
              "__constant sampler_t amp_texel_sampler =\n"
              "    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;\n"
              "__constant sampler_t amp_linear_sampler =\n"
              "    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;\n"
              "#define amp_sample(t, ...) AMP_SAMPLE_##t(__VA_ARGS__)\n"
              "/* Images are indexed (x, y, z): x is C++ AMP's last dimension. */\n"
              "#define AMP_TEXEL_1(t, i) AMP_READ_##t((int)amp_index_1(i))\n"
              "#define AMP_TEXEL_2_AT(t, i, j) AMP_READ_##t((int2)((j), (i)))\n"
              "#define AMP_TEXEL_2_INDEXED(t, ix) AMP_TEXEL_2_AT(t, (ix)[0], (ix)[1])\n"
              "#define AMP_TEXEL_3_AT(t, i, j, k) AMP_READ_##t((int4)((k), (j), (i), 0))\n"
              "#define AMP_TEXEL_3_INDEXED(t, ix) AMP_TEXEL_3_AT(t, (ix)[0], (ix)[1], (ix)[2])\n"
              "#define AMP_TEXEL_2(t, ...) \\\n"
              "    AMP_PICK2(__VA_ARGS__, AMP_TEXEL_2_AT, AMP_TEXEL_2_INDEXED, )(t, __VA_ARGS__)\n"
              "#define AMP_TEXEL_3(t, ...) \\\n"
              "    AMP_PICK3(__VA_ARGS__, AMP_TEXEL_3_AT, AMP_TEXEL_3_TAKES_1_OR_3, AMP_TEXEL_3_INDEXED, )(t, __VA_ARGS__)\n");
    /* A rank-1 texture wider than a 1D image is folded into the rows of a
     * 2D image: texel i is at (i % width, i / width). The last row's unused
     * end is inside the image, so reads past the texture are checked here,
     * to give 0 as the other textures' do. */
    static const amp_elem_type types[] = {AMP_INT, AMP_UINT, AMP_FLOAT};
    for (int k = 0; k < 3; k++) {
        int used = 0;
        for (int i = 0; i < spec->ncaptures; i++) {
            const cg_capture *c = &spec->captures[i];
            used |= c->kind == AMP_CAPTURE_TEXTURE && c->image_kind == TEX_IMAGE_1D_FOLDED &&
                    c->type == types[k];
        }
        if (!used)
            continue;
        const char *t = elem_cl_name(types[k]);
        amp__sb_printf(sb,
                  "%s4 amp_folded_texel_%s(__read_only image2d_t image, int i, int n)\n"
                  "{\n"
                  "    int width = get_image_width(image);\n"
                  "    return (uint)i < (uint)n\n"
                  "        ? %s(image, amp_texel_sampler, (int2)(i %% width, i / width))\n"
                  "        : (%s4)(0);\n"
                  "}\n",
                  t, t, read_function(types[k]), t);
    }
}

/* The accessor macros of texture c. */
static void texture_accessors(strbuf *sb, const cg_capture *c)
{
    static const char *const args[] = {"", "i", "i, j", "i, j, k"};
    static const char *const float_coords[] = {"", "(float)", "(float2)", "(float4)"};
    const char *n = c->name;
    const char *suffix = channel_suffix(c->channels);
    amp__sb_printf(sb, "\n/* %s(%s) or %s(index) is a texel of texture %s (read only). */\n", n,
              args[c->rank], n, n);
    amp__sb_printf(sb, "#define %s(...) AMP_TEXEL_%d(%s, __VA_ARGS__)\n", n, c->rank, n);
    if (c->image_kind == TEX_IMAGE_1D_FOLDED)
        amp__sb_printf(sb,
                  "#define AMP_READ_%s(coord) (amp_folded_texel_%s(amp_%s_image, coord, %s_extent[0])%s)\n",
                  n, elem_cl_name(c->type), n, n, suffix);
    else
        amp__sb_printf(sb, "#define AMP_READ_%s(coord) (%s(amp_%s_image, amp_texel_sampler, coord)%s)\n",
                  n, read_function(c->type), n, suffix);
    if (c->type != AMP_FLOAT)
        amp__sb_printf(sb, "#define AMP_SAMPLE_%s(...) amp_sample_needs_a_float_texture\n", n);
    else if (c->image_kind == TEX_IMAGE_1D_FOLDED)
        amp__sb_printf(sb, "#define AMP_SAMPLE_%s(...) amp_sample_needs_a_texture_within_the_1d_image_width_limit\n",
                  n);
    else
        amp__sb_printf(sb,
                  "#define AMP_SAMPLE_%s(...) \\\n"
                  "    (read_imagef(amp_%s_image, amp_linear_sampler, %s(__VA_ARGS__%s))%s)\n",
                  n, n, float_coords[c->rank], c->rank == 3 ? ", 0.0f" : "", suffix);
}

/* AMP_CHECK's accessors, in place of the prelude's (and of a padded
 * domain's): see codegen.h for the record they fill. */
static void checked_accessors(strbuf *sb)
{
    amp__sb_printf(sb,
              "\n/* AMP_CHECK: every view access is tested against the view's own extent (a\n"
              "   section's, not its parent's), with each index computed once. One\n"
              "   outside it is described in amp_check_record (the first at each line\n"
              "   and view: site, rank, index as low and high words, extent, thread) and\n"
              "   lands past the end of the view's device buffer, where the simulator\n"
              "   reports it at its line. In a padded domain a thread past the original\n"
              "   extent is sent to the spare element instead, as without AMP_CHECK:\n"
              "   only its writes are reported, as the race they make there. */\n"
              "long amp_check_outside(__global int *record, int site, const int *extent, int rank,\n"
              "                       long spare, int size, int past_extent, long i, long j, long k)\n"
              "{\n"
              "    site += past_extent;\n"
              "    for (int n = 0; n < %d; n++) {\n"
              "        __global int *slot = record + (site + n) %% %d * %d;\n"
              "        int old = atomic_cmpxchg(&slot[%d], 0, site);\n"
              "        if (old == site)\n"
              "            break;\n"
              "        if (old != 0)\n"
              "            continue;\n"
              "        long index[3] = {i, j, k};\n"
              "        slot[%d] = rank;\n"
              "        for (int d = 0; d < 3; d++) {\n"
              "            slot[%d + 2 * d] = (int)index[d];\n"
              "            slot[%d + 2 * d] = (int)(index[d] >> 32);\n"
              "            slot[%d + d] = d < rank ? extent[d] : 0;\n"
              "            slot[%d + d] = (int)get_global_id(d);\n"
              "        }\n"
              "        break;\n"
              "    }\n"
              "    if (past_extent)\n"
              "        return spare;\n"
              "    /* Past the data and the %d spare bytes after it, whatever the size. */\n"
              "    return spare + %d / size + 2;\n"
              "}\n",
              CG_CHECK_SLOTS, CG_CHECK_SLOTS, CG_CHECK_WORDS, CG_REC_SITE, CG_REC_RANK,
              CG_REC_INDEX, CG_REC_INDEX + 1, CG_REC_EXTENT, CG_REC_THREAD, COH_SPARE_BYTES,
              COH_SPARE_BYTES);
    amp__sb_append(sb,
              "#define AMP_CHECK_ARGS \\\n"
              "    __global int *record, int site, const int *extent, long spare, int size, int past_extent\n"
              "long amp_checked_1(AMP_CHECK_ARGS, long i)\n"
              "{\n"
              "    if (i >= 0 && i < extent[0])\n"
              "        return i;\n"
              "    return amp_check_outside(record, site, extent, 1, spare, size, past_extent, i, 0, 0);\n"
              "}\n"
              "long amp_checked_2(AMP_CHECK_ARGS, long stride0, long i, long j)\n"
              "{\n"
              "    if (i >= 0 && i < extent[0] && j >= 0 && j < extent[1])\n"
              "        return i * stride0 + j;\n"
              "    return amp_check_outside(record, site, extent, 2, spare, size, past_extent, i, j, 0);\n"
              "}\n"
              "long amp_checked_3(AMP_CHECK_ARGS, long stride0, long stride1, long i, long j, long k)\n"
              "{\n"
              "    if (i >= 0 && i < extent[0] && j >= 0 && j < extent[1] && k >= 0 && k < extent[2])\n"
              "        return i * stride0 + j * stride1 + k;\n"
              "    return amp_check_outside(record, site, extent, 3, spare, size, past_extent, i, j, k);\n"
              "}\n");
    /* __LINE__ of a macro is the line of the body where the accessor is
     * used, the line the simulator reports. */
    amp__sb_printf(sb,
              "#define AMP_CHECK_SITE(v) amp_check_record, (__LINE__ * %d + AMP_VIEW_##v) * 2 + 1, v##_extent, \\\n"
              "    (long)amp_##v##_spare, (int)sizeof(*amp_##v##_ptr), amp_past_extent\n",
              AMP_MAX_CAPTURES);
    amp__sb_append(sb,
              "#undef AMP_ELEMENT_1\n"
              "#undef AMP_ELEMENT_2\n"
              "#undef AMP_ELEMENT_3\n"
              "#define AMP_ELEMENT_1(v, i) amp_##v##_ptr[amp_checked_1(AMP_CHECK_SITE(v), amp_index_1(i))]\n"
              "#define AMP_ELEMENT_2(v, i, j) \\\n"
              "    amp_##v##_ptr[amp_checked_2(AMP_CHECK_SITE(v), amp_##v##_stride0, (i), (j))]\n"
              "#define AMP_ELEMENT_3(v, i, j, k) \\\n"
              "    amp_##v##_ptr[amp_checked_3(AMP_CHECK_SITE(v), amp_##v##_stride0, amp_##v##_stride1, (i), (j), (k))]\n");
}

/* Every name the kernel will declare must be an identifier, and unique. */
static amp_status check_names(const cg_spec *spec)
{
    const amp_kernel_source *k = spec->source;
    if (!amp__lexicon_is_identifier(k->index_name))
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "parallel_for_each at %s:%d: the index name '%s' is not an identifier.",
                       k->file, k->line, k->index_name);
    if (amp__lexicon_is_keyword(k->index_name))
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "parallel_for_each at %s:%d: the index name '%s' is a keyword of OpenCL C;"
                       " choose another name.",
                       k->file, k->line, k->index_name);
    for (int i = 0; i < spec->ncaptures; i++) {
        const char *name = spec->captures[i].name;
        if (!amp__lexicon_is_identifier(name))
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                           "parallel_for_each at %s:%d: capture '%s' is not a variable name. A"
                           " capture becomes a name inside the kernel; for a macro constant"
                           " write AMP_CONST(NAME).",
                           k->file, k->line, name ? name : "(null)");
        if (amp__lexicon_is_keyword(name))
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                           "parallel_for_each at %s:%d: capture '%s' is named like a keyword of"
                           " OpenCL C, which a kernel cannot use as a variable; rename it.",
                           k->file, k->line, name);
        /* Inside the kernel the capture would hide the index (or, as an
         * AMP_CONST, replace it), and the body would not compile. */
        if (strcmp(name, k->index_name) == 0)
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                           "parallel_for_each at %s:%d: capture '%s' has the name of the index;"
                           " rename one of them.",
                           k->file, k->line, name);
        for (int j = 0; j < i; j++)
            if (strcmp(spec->captures[j].name, name) == 0)
                return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                               "parallel_for_each at %s:%d: '%s' is captured twice.", k->file,
                               k->line, name);
    }
    return AMP_OK;
}

amp_status amp__cg_generate(const cg_spec *spec, const char *name, cg_kernel *out)
{
    const amp_kernel_source *src = spec->source;
    const char *ix = src->index_name;
    strbuf sb = STRBUF_INIT;
    memset(out, 0, sizeof *out);
    out->rank = spec->rank;

    amp_status names = check_names(spec);
    if (names != AMP_OK)
        return names;
    if (!spec->fp64 && amp__snip_uses(src->body, src->body_length, "double"))
        return amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                       "The kernel at %s:%d uses double, and the device has no double precision."
                       " Use float, or choose an accelerator whose info says supports_double.",
                       src->file, src->line);

    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        if (c->kind == AMP_CAPTURE_VIEW && !c->is_const &&
            amp__snip_may_write(src->body, src->body_length, c->name))
            out->written_mask |= 1u << i;
    }
    /* Under AMP_CHECK: the names of the views, for the reports. */
    int checked = 0;
    if (spec->checked) {
        strbuf names_sb = STRBUF_INIT;
        for (int i = 0; i < spec->ncaptures; i++)
            if (spec->captures[i].kind == AMP_CAPTURE_VIEW) {
                amp__sb_append_n(&names_sb, spec->captures[i].name, strlen(spec->captures[i].name) + 1);
                out->nviews++;
            }
        checked = out->nviews > 0;
        if (checked && !(out->view_names = amp__sb_take(&names_sb))) {
            amp__cg_kernel_free(out);
            return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory generating a kernel.");
        }
        amp__sb_free(&names_sb);
    }
    /* Checked accessors need the spare offset as a padded domain's do. */
    int spare = spec->guarded || checked;

    /* Header: what this kernel is and where it came from. */
    amp__sb_printf(&sb, "/*\n * Kernel %s, generated by the amp runtime\n", name);
    amp__sb_printf(&sb, " * from %s, line %d.\n", src->file, src->line);
    amp__sb_printf(&sb, " * Domain: rank %d, ", spec->rank);
    if (spec->tiled) {
        amp__sb_append(&sb, "tiles of ");
        for (int d = 0; d < spec->rank; d++)
            amp__sb_printf(&sb, "%s%d", d ? "x" : "", spec->tile[d]);
        amp__sb_printf(&sb, " threads%s.\n", spec->guarded ? ", padded (threads past the extent guarded)" : "");
    } else {
        amp__sb_append(&sb, "not tiled.\n");
    }
    if (checked)
        amp__sb_append(&sb, " * Checked (AMP_CHECK): every view access is tested against the view's extent.\n");
    if (spec->ncaptures > 0)
        amp__sb_append(&sb, " * Captures:\n");
    for (int i = 0; i < spec->ncaptures; i++)
        describe_capture(&sb, &spec->captures[i], (out->written_mask >> i) & 1u);
    amp__sb_append(&sb, " */\n");
    if (spec->fp64)
        amp__sb_append(&sb, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    amp__sb_append(&sb, "\n");
    amp__sb_append(&sb, amp__vocab_prelude());
    amp__sb_printf(&sb, "\n/* Offsets into views: %s bits, since the largest view has %s 2^31"
                   " elements. */\ntypedef %s amp_off_t;\n",
              spec->wide ? "64" : "32", spec->wide ? "at least" : "fewer than",
              spec->wide ? "long" : "int");

    /* The parts of the vocabulary the body and its helpers use. */
    amp__vocab_append_used(&sb, src->body, src->body_length);
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        if (c->kind == AMP_CAPTURE_FUNCTION)
            amp__vocab_append_used(&sb, c->function_source, strlen(c->function_source));
    }

    /* Tiled index type. */
    if (spec->tiled) {
        amp__sb_printf(&sb,
                  "\n/* tiled_index<...>: where a thread is, globally and in its tile. */\n"
                  "typedef struct amp_tiled_index {\n"
                  "    int global[%d];\n"
                  "    int local[%d];\n"
                  "    int tile[%d];\n"
                  "    int tile_origin[%d];\n"
                  "    int tile_extent[%d];\n"
                  "    int tile_dim0, tile_dim1, tile_dim2;\n"
                  "    amp_tile_barrier barrier;\n"
                  "} amp_tiled_index;\n",
                  spec->rank, spec->rank, spec->rank, spec->rank, spec->rank);
    }
    if (checked)
        checked_accessors(&sb);
    else if (spec->guarded)
        amp__sb_append(&sb, "\n/* A padded domain: an access outside the view's extent (as a thread past\n"
                       "   the original extent makes) lands on a spare element past the data,\n"
                       "   so it can never touch memory outside the view. Any thread may still\n"
                       "   read or write any element inside it. */\n"
                       "#define AMP_IN(i, n) ((uint)(i) < (uint)(n))\n"
                       "#undef AMP_ELEMENT_1\n"
                       "#undef AMP_ELEMENT_2\n"
                       "#undef AMP_ELEMENT_3\n"
                       "#define AMP_ELEMENT_1(v, i) \\\n"
                       "    amp_##v##_ptr[AMP_IN(amp_index_1(i), v##_extent[0]) ? (amp_off_t)amp_index_1(i) : amp_##v##_spare]\n"
                       "#define AMP_ELEMENT_2(v, i, j) \\\n"
                       "    amp_##v##_ptr[AMP_IN(i, v##_extent[0]) && AMP_IN(j, v##_extent[1]) \\\n"
                       "                  ? (amp_off_t)(i) * amp_##v##_stride0 + (j) : amp_##v##_spare]\n"
                       "#define AMP_ELEMENT_3(v, i, j, k) \\\n"
                       "    amp_##v##_ptr[AMP_IN(i, v##_extent[0]) && AMP_IN(j, v##_extent[1]) && AMP_IN(k, v##_extent[2]) \\\n"
                       "                  ? (amp_off_t)(i) * amp_##v##_stride0 + (amp_off_t)(j) * amp_##v##_stride1 + (k) \\\n"
                       "                  : amp_##v##_spare]\n");

    /* The element structs of views, each once. */
    int any_struct = 0;
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        const char *def = c->kind == AMP_CAPTURE_VIEW ? amp__st_cl_source(c->type) : NULL;
        int seen = 0;
        for (int j = 0; j < i && def; j++)
            seen |= spec->captures[j].kind == AMP_CAPTURE_VIEW && spec->captures[j].type == c->type;
        if (!def || seen)
            continue;
        if (!any_struct)
            amp__sb_append(&sb, "\n/* Element structs (AMP_STRUCT), laid out as on the host. */\n");
        any_struct = 1;
        amp__sb_append(&sb, def);
    }

    /* Compile-time constants and view accessors. */
    int any_constant = 0;
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        if (c->kind != AMP_CAPTURE_CONSTANT)
            continue;
        if (!any_constant)
            amp__sb_append(&sb, "\n/* Compile-time constants (AMP_CONST). */\n");
        any_constant = 1;
        amp__sb_printf(&sb, "#define %s %lld\n", c->name, c->constant);
    }
    int nview = 0;
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        if (c->kind != AMP_CAPTURE_VIEW)
            continue;
        amp__sb_printf(&sb, "\n/* %s(%s)", c->name, c->rank == 1 ? "i" : c->rank == 2 ? "i, j" : "i, j, k");
        if (c->rank > 1)
            amp__sb_printf(&sb, " or %s(index)", c->name);
        amp__sb_printf(&sb, " is an element of view %s. */\n", c->name);
        amp__sb_printf(&sb, "#define %s(...) AMP_ACCESS_%d(%s, __VA_ARGS__)\n", c->name, c->rank,
                  c->name);
        if (checked)
            amp__sb_printf(&sb, "#define AMP_VIEW_%s %d\n", c->name, nview++);
    }
    int any_texture = 0;
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        if (c->kind != AMP_CAPTURE_TEXTURE)
            continue;
        if (!any_texture)
            texture_vocabulary(&sb, spec);
        any_texture = 1;
        texture_accessors(&sb, c);
    }

    /* Helper functions, in the order they were captured. */
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        if (c->kind != AMP_CAPTURE_FUNCTION)
            continue;
        amp__sb_printf(&sb, "\n/* Helper function %s (AMP_FUNCTION). */\n", c->name);
        amp__snip_format(c->function_source, strlen(c->function_source), 0, &sb, NULL, NULL, NULL, 0);
    }

    /* Signature. */
    amp__sb_append(&sb, "\n__kernel ");
    if (spec->tiled) {
        int wg[3] = {1, 1, 1};
        for (int d = 0; d < spec->rank; d++)
            wg[spec->rank - 1 - d] = spec->tile[d];
        amp__sb_printf(&sb, "__attribute__((reqd_work_group_size(%d, %d, %d)))\n", wg[0], wg[1], wg[2]);
    }
    amp__sb_printf(&sb, "void %s(\n", name);
    int nparams = 0;
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        if (c->kind == AMP_CAPTURE_VIEW) {
            if (nparams++)
                amp__sb_append(&sb, ",\n");
            view_params(&sb, c, (out->written_mask >> i) & 1u, spare);
        } else if (c->kind == AMP_CAPTURE_SCALAR) {
            if (nparams++)
                amp__sb_append(&sb, ",\n");
            amp__sb_printf(&sb, "    const %s %s", elem_cl_name(c->type), c->name);
        } else if (c->kind == AMP_CAPTURE_TEXTURE) {
            if (nparams++)
                amp__sb_append(&sb, ",\n");
            amp__sb_printf(&sb, "    __read_only %s amp_%s_image,\n    ",
                      amp__tex_image_type_name((tex_image_kind)c->image_kind), c->name);
            for (int d = 0; d < c->rank; d++)
                amp__sb_printf(&sb, "%sconst int amp_%s_extent%d", d ? ", " : "", c->name, d);
        }
    }
    if (!spec->tiled || spec->guarded) {
        for (int d = 0; d < spec->rank; d++) {
            if (nparams++)
                amp__sb_append(&sb, d ? ", " : ",\n    ");
            else
                amp__sb_append(&sb, "    ");
            amp__sb_printf(&sb, "const int amp_domain%d", d);
        }
    }
    if (checked) {
        /* Last, so that the other arguments keep their places; the dispatch
         * passes it after them. */
        amp__sb_append(&sb, ",\n    __global int *amp_check_record");
        nparams++;
    }
    if (nparams == 0)
        amp__sb_append(&sb, "    void");
    amp__sb_append(&sb, ")\n{\n");

    /* Body first, into its own buffers: hoisting needs to know the
     * tile_static declarations before the kernel's first statement. A body
     * from a file is used as written, at kernel scope, where its
     * tile_static declarations are already legal. */
    strbuf body = STRBUF_INIT, hoisted = STRBUF_INIT;
    if (src->from_file) {
        amp__sb_printf(&body, "#line 1 \"%s\"\n", src->file);
        amp__sb_append_n(&body, src->body, src->body_length);
        amp__sb_append(&body, "\n");
    } else {
        /* A line holds at least one token, so length + 1 lines is enough. */
        out->body_tokens = malloc((src->body_length + 1) * sizeof *out->body_tokens);
        out->hoisted_tokens = malloc((src->body_length + 1) * sizeof *out->hoisted_tokens);
        if (out->body_tokens && out->hoisted_tokens)
            out->body_lines = amp__snip_format(src->body, src->body_length, 4, &body, &hoisted,
                                          out->body_tokens, out->hoisted_tokens,
                                          (int)src->body_length + 1);
        else
            body.failed = 1;
    }
    if (hoisted.length) {
        amp__sb_append(&sb, "    /* tile_static declarations, at kernel scope as OpenCL C requires. */\n");
        /* Their lines map back to the user's, as the body's do. */
        out->hoisted_line = 1;
        for (const char *p = sb.data; p && *p; p++)
            out->hoisted_line += *p == '\n';
        for (const char *p = hoisted.data; *p; p++)
            out->hoisted_lines += *p == '\n';
        amp__sb_append(&sb, hoisted.data);
        amp__sb_append(&sb, "\n");
    }

    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        if (c->kind != AMP_CAPTURE_VIEW && c->kind != AMP_CAPTURE_TEXTURE)
            continue;
        int w = (out->written_mask >> i) & 1u;
        if (c->kind == AMP_CAPTURE_VIEW)
            amp__sb_printf(&sb, "    __global %s%s *amp_%s_ptr = amp_%s_data + amp_%s_offset;\n",
                      w ? "" : "const ", elem_cl_name(c->type), c->name, c->name, c->name);
        amp__sb_printf(&sb, "    const int %s_extent[%d] = {", c->name, c->rank);
        for (int d = 0; d < c->rank; d++)
            amp__sb_printf(&sb, "%samp_%s_extent%d", d ? ", " : "", c->name, d);
        amp__sb_append(&sb, "};\n");
    }
    if (spec->ncaptures)
        amp__sb_append(&sb, "\n");

    if (spec->tiled) {
        amp__sb_printf(&sb, "    amp_tiled_index %s;\n", ix);
        index_setup(&sb, ix, ".global", "get_global_id", spec->rank);
        index_setup(&sb, ix, ".local", "get_local_id", spec->rank);
        index_setup(&sb, ix, ".tile", "get_group_id", spec->rank);
        for (int d = 0; d < spec->rank; d++)
            amp__sb_printf(&sb, "    %s.tile_extent[%d] = %d;\n", ix, d, spec->tile[d]);
        amp__sb_printf(&sb, "    %s.tile_dim0 = %d;\n    %s.tile_dim1 = %d;\n    %s.tile_dim2 = %d;\n", ix,
                  spec->tile[0], ix, spec->rank > 1 ? spec->tile[1] : 0, ix,
                  spec->rank > 2 ? spec->tile[2] : 0);
        for (int d = 0; d < spec->rank; d++)
            amp__sb_printf(&sb, "    %s.tile_origin[%d] = %s.tile[%d] * %d;\n", ix, d, ix, d,
                      spec->tile[d]);
        amp__sb_printf(&sb, "    %s.barrier.done = 0;\n", ix);
        if (spec->guarded)
            amp__sb_append(&sb, "    /* A padded domain: threads past the extent still run and meet at\n"
                           "       barriers; accesses outside a view land on a spare element. */\n");
        if (checked && spec->guarded) {
            amp__sb_append(&sb, "    const int amp_past_extent = ");
            for (int d = 0; d < spec->rank; d++)
                amp__sb_printf(&sb, "%s%s.global[%d] >= amp_domain%d", d ? " || " : "", ix, d, d);
            amp__sb_append(&sb, ";\n");
        } else if (checked) {
            amp__sb_append(&sb, "    const int amp_past_extent = 0;\n");
        }
    } else {
        amp__sb_printf(&sb, "    int %s[%d];\n", ix, spec->rank);
        index_setup(&sb, ix, "", "get_global_id", spec->rank);
        amp__sb_append(&sb, "    /* The runtime rounds the thread count up to whole work-groups;\n"
                       "       threads past the extent have nothing to do. */\n    if (");
        for (int d = 0; d < spec->rank; d++)
            amp__sb_printf(&sb, "%s%s[%d] >= amp_domain%d", d ? " || " : "", ix, d, d);
        amp__sb_append(&sb, ")\n        return;\n");
        if (checked)
            amp__sb_append(&sb, "    const int amp_past_extent = 0;\n");
    }

    amp__sb_printf(&sb, "\n    /* The body, from %s:%d. */\n", src->file, src->line);
    int line = 1;
    for (const char *p = sb.data; p && *p; p++)
        line += *p == '\n';
    out->body_line = line;
    if (src->from_file) {
        /* The file's first line follows the #line directive. */
        out->body_line = line + 1;
        out->body_lines = 1;
        for (size_t i = 0; i < src->body_length; i++)
            out->body_lines += src->body[i] == '\n';
    }
    amp__sb_append(&sb, body.data ? body.data : "");
    amp__sb_append(&sb, "}\n");
    int failed = amp__sb_failed(&body) || amp__sb_failed(&hoisted);
    amp__sb_free(&body);
    amp__sb_free(&hoisted);
    out->source = failed ? (amp__sb_free(&sb), NULL) : amp__sb_take(&sb);
    if (!out->source) {
        amp__cg_kernel_free(out);
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory generating a kernel.");
    }
    return AMP_OK;
}

void amp__cg_kernel_free(cg_kernel *k)
{
    free(k->source);
    free(k->body_tokens);
    free(k->hoisted_tokens);
    free(k->view_names);
    k->view_names = NULL;
    k->source = NULL;
    k->body_tokens = NULL;
    k->hoisted_tokens = NULL;
}
